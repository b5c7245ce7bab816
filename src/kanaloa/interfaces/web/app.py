"""The HTTP side of ``kanaloa serve``: a Starlette app over ``kanaloa.interfaces.web.games``.

docs/web.md lists the endpoints, their bodies and their answers.  What holds
for all of them:

- Every answer is JSON, and every refusal is a 4xx status with
  ``{"error": "one line"}``: 400 for a bad body, move, position, board or
  option (every ``KanaloaError``), 401 without the server's access token when
  it has one (``access``), 404 for an unknown game or path, 405 for a
  wrong method, 409 for a request that does not fit the game now (a bot to
  move, nothing to undo), 413 for a body over ``MAX_BODY_BYTES``.  An error
  of the program itself is a 500 with a one-line message and no traceback.
- A body is read as the command line reads a file (``kanaloa.rules.jsontext``):
  a key named twice in one object is refused, a number of thousands of digits
  reaches its field's check, which refuses it.  Each request takes its own
  keys (``games.check_fields``): another key, or a null for one of them, is
  a 400 naming it.
- No request names a file: boards (and a game's own data files, such as
  tiles) are built-in names or a file's content sent in the body.
- A game's own static files (its web face's ``assets``, the page's module
  for it) are served at ``/games/NAME/``; its data files at ``/api/files/NAME``.
- Each game has a lock, so its requests happen one after the other; bot moves,
  hints and replays run in a thread pool, so the event loop keeps serving
  every other game meanwhile.
- A whole game's analysis is a background job (``kanaloa.interfaces.web.analyses``):
  a request starts it, polls it, reads its result or cancels it, and never
  waits for it; 503 when the server has as many analyses under way as it
  takes at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ...errors import INPUT_LIMIT, MAX_INPUT_BYTES, KanaloaError, brief
from ...play.bots import BOTS
from ...rules import jsontext
from ...rules.board import BUILTIN_BOARDS, board_to_dict, load_board
from ...rules.registry import GameType, game_types
from .access import AccessGate
from .analyses import Analyses, AnalysisJob, Busy, analysis_fields, move_view, session_moves
from .face import WebFace
from .games import (
    MOVE_FIELDS,
    NO_FIELDS,
    VERSION_FIELD,
    Conflict,
    Fields,
    HintBudget,
    PlayGame,
    Replay,
    TableGame,
    board_games,
    check_fields,
    check_position,
    check_version,
    deal_for_editor,
    file_stem,
    game_listing,
    hint_words,
    new_game,
    new_replay,
    new_table,
    resolve_board,
    web_face,
)
from .limits import RequestCaps
from .saving import default_name, export_document, kind_of, played_moves, restore, setup_of, status_of, undone_moves
from .searches import SearchPool
from .store import MEMORY, Missing, Stale, Store, Unavailable

MAX_BODY_BYTES = MAX_INPUT_BYTES  # a request body, at most (an upload of a position, a board, records)
MAX_SESSIONS = 200  # games, tables and replays kept at once; the least recently used goes first
THREADS = 2  # moves, bot moves and replays computed at once; as many hints again, in a pool of their own

log = logging.getLogger("kanaloa.web")
T = TypeVar("T")
Session = PlayGame | TableGame | Replay


class PageFiles(StaticFiles):
    """The page's static files, its scripts always served as JavaScript (a browser runs a module script
    only when it is, and the system's table of file types may say otherwise)."""

    def file_response(self, full_path: Any, stat_result: Any, scope: Any, status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        if str(full_path).endswith(".js"):
            response.headers["content-type"] = "text/javascript; charset=utf-8"
        return response


class BadRequest(Exception):
    """A refusal with an HTTP status and a one-line message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Entry:
    """A session, the lock its requests take turns with, and for a saved game (Play, Table) the version of it
    this server holds (``store``), None until it is read from the database."""

    session: Session | None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    analysis: AnalysisJob | None = None  # the session's analysis, once one was started
    version: int | None = None
    name: str | None = None  # a saved game's name
    stops: set[threading.Event] = field(default_factory=set)  # the hints under way, to cancel them


class Sessions:
    """The games, tables and replays of one server, by id.

    Games and tables live in the database (``store``): this keeps the last
    ``limit`` of them read, least recently used out, and reads one again when
    the database holds a newer version of it (another server moved in it).
    Replays are kept here only, at most ``limit``.  ``entries`` is changed on
    the event loop alone; the database is read and written in threads
    (``create_row``, ``sync``, ``save``), each entry's under its lock.
    """

    def __init__(self, store: Store, caps: RequestCaps, limit: int = MAX_SESSIONS) -> None:
        self.store = store
        self.caps = caps
        self.limit = limit
        self.entries: OrderedDict[str, Entry] = OrderedDict()

    def create_row(self, session: PlayGame | TableGame) -> tuple[str, str]:
        """Save a new game or table in the database (committed before this returns, in a thread); its id and
        name."""
        name = default_name(session)
        ident = self.store.create(kind_of(session), name, session.rules.game, setup_of(session),
                                  played_moves(session), session.pos.to_json(), status_of(session))
        return ident, name

    def keep(self, session: Session, ident: str | None = None, name: str | None = None) -> tuple[str, Entry]:
        """Hold a new session (on the event loop): a game or table ``create_row`` saved, or a replay."""
        if ident is None:
            ident = secrets.token_hex(8)
            entry = Entry(session)
        else:
            entry = Entry(session, version=0, name=name)
        self.entries[ident] = entry
        self._trim()
        return ident, entry

    def _trim(self) -> None:
        while len(self.entries) > self.limit:
            _, gone = self.entries.popitem(last=False)
            if gone.analysis is not None and gone.analysis.state in ("queued", "running"):
                gone.analysis.cancel()  # nobody can read its result any more

    def entry(self, ident: str, kind: type) -> Entry:
        """The entry of session ``ident`` of ``kind`` (on the event loop, without waiting for the database): a
        game or table not held yet gets an empty entry, which ``sync`` reads from the database or finds
        missing.  Raises ``BadRequest`` 404."""
        entry = self.entries.get(ident)
        if entry is None and kind is not Replay:
            entry = self.entries[ident] = Entry(None)
            self._trim()
        if entry is None or (entry.session is not None and not isinstance(entry.session, kind)):
            raise self.missing(ident, kind)
        self.entries.move_to_end(ident)
        return entry

    def missing(self, ident: str, kind: type) -> BadRequest:
        if kind is Replay:
            return BadRequest(404, f"no replay {brief(ident)} on this server (a replay ends when the server stops); "
                                   f"load the record again")
        return BadRequest(404, f"no {_KIND_NAMES[kind]} {brief(ident)} on this server's database (it was deleted, "
                               f"or saved in another --db); start a new one")

    def sync(self, ident: str, entry: Entry, kind: type) -> Session:
        """The session of ``entry`` as the database holds it now: read again when it holds a newer version
        (call it with the entry's lock held, in a thread).  Raises ``BadRequest`` 404 when it is gone or of the
        other kind, ``Conflict`` when its bots ask more than this server's caps."""
        if isinstance(entry.session, Replay):
            return entry.session
        version = self.store.version(ident)
        if version is None:  # deleted, by this server or another, or never saved
            entry.session, entry.version = None, None
            raise self.missing(ident, kind)
        if entry.session is None or entry.version != version:
            saved = self.store.load(ident)
            if saved.kind != _KIND_NAMES[kind]:
                raise self.missing(ident, kind)
            session = restore(saved)
            if isinstance(session, PlayGame):
                self.check_caps(session)
            entry.session, entry.version, entry.name = session, saved.version, saved.name
        return entry.session

    def check_caps(self, game: PlayGame) -> None:
        """Refuse a saved game whose bots ask more of a search than this server allows (another server, started
        with a higher cap, saved it).  Raises ``Conflict``."""
        for seat, bot in game.bots.items():
            try:
                self.caps.check_bot(bot)
            except KanaloaError as exc:
                raise Conflict(f"seat {seat + 1} ({game.pos.players[seat]}): {exc}; start this server with a "
                               f"higher --max-iterations to go on with this game") from None

    def save(self, ident: str, entry: Entry) -> None:
        """Commit the change of ``entry``'s session to the database (in a thread, the entry's lock held).  When it
        cannot be committed, what this server holds is dropped, so that the game is read again from the
        database as it was: ``Conflict`` when another server changed it first, ``Unavailable`` when the
        database could not take the change."""
        session = entry.session
        assert isinstance(session, (PlayGame, TableGame)) and entry.version is not None
        try:
            entry.version = self.store.record(ident, entry.version, played_moves(session), undone_moves(session),
                                              session.pos.to_json(), status_of(session))
        except (Stale, Missing) as exc:
            entry.session, entry.version = None, None
            raise Conflict(str(exc)) from None
        except BaseException:
            entry.session, entry.version = None, None  # the change was not saved: it is not the game
            raise

    def forget(self, ident: str) -> None:
        gone = self.entries.pop(ident, None)
        if gone is not None and gone.analysis is not None and gone.analysis.state in ("queued", "running"):
            gone.analysis.cancel()


_KIND_NAMES: dict[type, str] = {PlayGame: "game", TableGame: "table", Replay: "replay"}


def one_line(text: str) -> str:
    return " ".join(text.split())


async def read_json(request: Request) -> dict[str, Any]:
    """The request's body as a JSON object, read no further than ``MAX_BODY_BYTES``."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise BadRequest(413, f"request body: larger than the {INPUT_LIMIT} limit")
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise BadRequest(413, f"request body: larger than the {INPUT_LIMIT} limit")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    return parse_body(raw)


def parse_body(raw: bytes) -> dict[str, Any]:
    """A request body read as the command line reads a file (``kanaloa.rules.jsontext``): a key named twice in
    one object is refused, and a number of thousands of digits is kept for the field's check to refuse."""
    try:
        body = jsontext.loads(raw.decode("utf-8-sig"))  # a byte order mark is skipped, as in a file
    except UnicodeDecodeError as exc:
        raise BadRequest(400, f"request body: not UTF-8 text (byte {exc.start})") from None
    except jsontext.DuplicateKey as exc:
        raise BadRequest(400, f"request body: the key {brief(exc.args[0])} appears twice in one object; a request "
                              f"says each thing once") from None
    except json.JSONDecodeError as exc:
        raise BadRequest(400, f"request body: not valid JSON ({exc.msg} at line {exc.lineno} column "
                              f"{exc.colno})") from None
    except RecursionError:
        raise BadRequest(400, "request body: not valid JSON (nested far too deeply)") from None
    if not isinstance(body, dict):
        raise BadRequest(400, "request body: must be a JSON object")
    return body


def game_assets(games: tuple[GameType, ...]) -> list[Mount]:
    """Each game's own static files (its web face's ``assets``: the page's module for it, its style sheet),
    served at ``/games/NAME/``."""
    mounts = []
    for g in games:
        assets = web_face(g).assets
        if assets is not None:
            mounts.append(Mount(f"/games/{g.name}", PageFiles(packages=[assets]), name=f"game-{g.name}"))
    return mounts


def create_app(hints: HintBudget | None = None, threads: int = THREADS, store: Store | None = None,
               token: str | None = None) -> Starlette:
    """The web app: the page, its static files and the JSON API (module docstring); its games kept in ``store``
    (in memory only when None); with ``token``, only the requests that carry it (``access.AccessGate``)."""
    budget = hints or HintBudget()
    store = store if store is not None else Store(MEMORY)
    sessions = Sessions(store, budget.caps)
    # whole games analysed in the background, each search within the hint budget, on the hint workers
    analyses = Analyses(budget.iterations, budget.workers)
    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="kanaloa-web")
    # Hints and bots' moves have their own threads, bounded (``searches``), so a long one never holds up the
    # moves of any game.
    searches_pool = SearchPool(threads)

    async def in_thread(fn: Callable[[], T], where: ThreadPoolExecutor = pool) -> T:
        return await asyncio.get_running_loop().run_in_executor(where, fn)

    def answer(value: Any, status: int = 200) -> JSONResponse:
        return JSONResponse(value, status_code=status)

    # -- the page and what it reads once ------------------------------------------------

    async def index(request: Request) -> Response:
        page = resources.files("kanaloa.interfaces.web").joinpath("static/index.html").read_text("utf-8")
        return Response(page, media_type="text/html; charset=utf-8")

    async def boards(request: Request) -> Response:
        return answer({"builtin": list(BUILTIN_BOARDS), "bots": list(BOTS), "hint_iterations": budget.iterations})

    listing = game_listing()  # the registry does not change while the server runs

    async def games(request: Request) -> Response:
        return answer(listing)

    async def builtin_board(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in BUILTIN_BOARDS:
            raise BadRequest(404, f"board {brief(name)}: no such built-in board ({', '.join(BUILTIN_BOARDS)})")
        return answer(board_to_dict(load_board(name)))

    async def check_board(request: Request) -> Response:
        body = await read_json(request)
        board = resolve_board(body)
        from ..svg import board_svg

        return answer({"board": board_to_dict(board), "islands": len(board.islands), "links": len(board.links),
                       "cards": board.n_cards, "svg": board_svg(board), "games": board_games(board)})

    # -- a game's own data files (the Editor mode) and positions of any game ----------------

    faces = {g.name: web_face(g) for g in game_types()}

    def files_of(request: Request) -> WebFace:
        """The web face of the game the path names, when it has data files of its own (404 otherwise)."""
        name = request.path_params["game"]
        face = faces.get(name)
        if face is None:
            raise BadRequest(404, f"no game {brief(name)} on this server ({', '.join(faces)})")
        if face.files is None:
            raise BadRequest(404, f"game {name} has no data files of its own; its boards are edited in the board "
                                  f"editor")
        return face

    async def files(request: Request) -> Response:
        return answer(files_of(request).describe_files())

    async def builtin_file(request: Request) -> Response:
        face = files_of(request)
        name = request.path_params["name"]
        try:
            return answer(face.builtin_file(name))
        except KanaloaError as exc:
            raise BadRequest(404, str(exc)) from None

    async def check_file(request: Request) -> Response:
        face = files_of(request)
        return answer(face.check_file(await read_json(request)))

    async def position_check(request: Request) -> Response:
        body = await read_json(request)
        return answer(await in_thread(lambda: check_position(body)))

    async def position_deal(request: Request) -> Response:
        body = await read_json(request)
        return answer(await in_thread(lambda: deal_for_editor(body)), 201)

    # -- games --------------------------------------------------------------------------

    async def create(request: Request, make: Callable[[dict[str, Any]], Session]) -> Response:
        body = await read_json(request)
        session = await in_thread(lambda: make(body))
        if isinstance(session, Replay):
            ident, entry = sessions.keep(session)
        else:
            saved = session
            ident, entry = sessions.keep(session, *await in_thread(lambda: sessions.create_row(saved)))
        view = await in_thread(lambda: _view(ident, entry, 0))
        return answer(view, 201)

    def _view(ident: str, entry: Entry, at: object = 0) -> dict[str, Any]:
        session = entry.session
        if isinstance(session, Replay):
            return {"id": ident, **session.view(at)}
        assert session is not None
        return {"id": ident, **session.view(), "version": entry.version, "name": entry.name}

    async def synced(ident: str, entry: Entry, kind: type) -> Session:
        """The entry's session as the database holds it now (the entry's lock held); an entry of a game the
        database lacks is dropped."""
        try:
            return await in_thread(lambda: sessions.sync(ident, entry, kind))
        except BadRequest:
            if entry.session is None and sessions.entries.get(ident) is entry:
                del sessions.entries[ident]
            raise

    @contextlib.asynccontextmanager
    async def locked(ident: str, kind: type) -> AsyncIterator[tuple[Entry, Session]]:
        """The entry of ``ident`` and its session as the database holds it now, its lock held in the block."""
        entry = sessions.entry(ident, kind)
        async with entry.lock:
            yield entry, await synced(ident, entry, kind)

    async def opened(ident: str, kind: type) -> tuple[Entry, Session]:
        """The entry of ``ident`` and its session as the database holds it now."""
        async with locked(ident, kind) as found:
            return found

    async def with_session(request: Request, kind: type, act: Callable[[Any, dict[str, Any]], Any] | None,
                           fields: Fields = NO_FIELDS, what: str = "", searches: bool = False) -> Response:
        """Answer a request on a game or table: ``act`` changes it (None: a look), and the change is committed to
        the database before the answer; ``searches``: ``act`` searches (a bot's move), in the search pool."""
        ident = request.path_params["id"]
        body = await read_json(request) if request.method == "POST" else {}
        check_fields(body, {**fields, **VERSION_FIELD} if act is not None else fields, what)
        async with locked(ident, kind) as (entry, session):
            if act is None:
                return answer(await in_thread(lambda: _view(ident, entry)))
            if "version" in body:
                check_version(body["version"], entry.version)

            def run() -> dict[str, Any]:
                extra = act(session, body)
                sessions.save(ident, entry)
                return {**_view(ident, entry), **(extra or {})}

            result = await (searches_pool.run(run) if searches else in_thread(run))
        return answer(result)

    async def hint_for(request: Request, kind: type) -> Response:
        ident = request.path_params["id"]
        body = await read_json(request)
        check_fields(body, budget.fields(), "a hint")
        async with locked(ident, kind) as (entry, session):
            assert isinstance(session, (PlayGame, TableGame))
            pos = session.hint_position().copy()
        stop = threading.Event()
        entry.stops.add(stop)

        def ask() -> dict[str, Any]:
            found = budget.ask(pos, body.get("iterations"), body.get("seed", 0), stop=stop.is_set)
            picture = pos.ruleset.game_type.face("svg")
            return {**found.to_json(), **hint_words(pos, found), "svg": picture(pos, hint=found, interactive=True)}

        try:
            return answer(await searches_pool.run(ask, stop, request))
        finally:
            entry.stops.discard(stop)

    async def hint_cancel(request: Request, kind: type) -> Response:
        ident = request.path_params["id"]
        check_fields(await read_json(request), NO_FIELDS, "a cancel")
        entry, _ = await opened(ident, kind)
        stopped = len(entry.stops)
        for stop in list(entry.stops):
            stop.set()
        return answer({"id": ident, "cancelled": stopped})

    def game_routes(path: str, kind: type, make: Callable[[dict[str, Any]], Session]) -> list[Route]:
        """The endpoints games and tables share: create, look, move, undo, hint, download the position."""

        async def create_one(request: Request) -> Response:
            return await create(request, make)

        async def look(request: Request) -> Response:
            return await with_session(request, kind, None)

        async def move(request: Request) -> Response:
            return await with_session(request, kind, lambda s, b: s.play(b.get("move")), MOVE_FIELDS, "a move")

        async def undo(request: Request) -> Response:
            return await with_session(request, kind, lambda s, b: s.undo(), NO_FIELDS, "an undo")

        async def hint(request: Request) -> Response:
            return await hint_for(request, kind)

        async def cancel(request: Request) -> Response:
            return await hint_cancel(request, kind)

        async def position(request: Request) -> Response:
            async with locked(request.path_params["id"], kind) as (_, session):
                assert isinstance(session, (PlayGame, TableGame))
                text = session.pos.dumps() + "\n"  # indented, as the command writes it
            return Response(text, media_type="application/json")

        return [
            Route(f"/api/{path}", create_one, methods=["POST"]),
            Route(f"/api/{path}/{{id}}", look),
            Route(f"/api/{path}/{{id}}/move", move, methods=["POST"]),
            Route(f"/api/{path}/{{id}}/undo", undo, methods=["POST"]),
            Route(f"/api/{path}/{{id}}/hint", hint, methods=["POST"]),
            Route(f"/api/{path}/{{id}}/hint/cancel", cancel, methods=["POST"]),
            Route(f"/api/{path}/{{id}}/position", position),
        ]

    async def table_redo(request: Request) -> Response:
        return await with_session(request, TableGame, lambda t, b: t.redo(), NO_FIELDS, "a redo")

    # -- saved games ----------------------------------------------------------------------

    async def saved_list(request: Request) -> Response:
        return answer({"games": await in_thread(store.listing), "db": store.path if store.path != MEMORY else None})

    async def saved_rename(request: Request) -> Response:
        ident = request.path_params["id"]
        body = await read_json(request)
        check_fields(body, {"name": "the game's new name: text"}, "a rename")
        listing = await in_thread(lambda: store_call(lambda: store.rename(ident, body.get("name"))))
        entry = sessions.entries.get(ident)
        if entry is not None:
            entry.name = listing["name"]
        return answer(listing)

    async def saved_delete(request: Request) -> Response:
        ident = request.path_params["id"]
        await in_thread(lambda: store_call(lambda: store.delete(ident)))
        sessions.forget(ident)
        return answer({"deleted": ident})

    async def saved_download(request: Request) -> Response:
        ident = request.path_params["id"]
        saved = await in_thread(lambda: store_call(lambda: store.load(ident)))
        doc = export_document(saved)
        name = file_stem(saved.name, "game", 60)
        return Response(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", media_type="application/json",
                        headers={"content-disposition": f'attachment; filename="{name}.json"'})

    def store_call(fn: Callable[[], T]) -> T:
        try:
            return fn()
        except Missing as exc:
            raise BadRequest(404, f"{exc} in this server's database") from None

    # -- what only games have: bots and records -------------------------------------------

    async def game_bot(request: Request) -> Response:
        def move(game: PlayGame, body: dict[str, Any]) -> dict[str, Any]:
            game.bot_move()  # its move as the view's history shows it: a bot's hidden card stays hidden
            return {"played": game.shown(game.history[-1]), "played_words": game.history[-1].words}

        return await with_session(request, PlayGame, move, NO_FIELDS, "a bot move", searches=True)

    async def game_record(request: Request) -> Response:
        async with locked(request.path_params["id"], PlayGame) as (_, game):
            assert isinstance(game, PlayGame)
            return answer(game.record())

    # -- replays ------------------------------------------------------------------------

    async def replay_create(request: Request) -> Response:
        return await create(request, new_replay)

    async def replay_get(request: Request) -> Response:
        ident = request.path_params["id"]
        entry = sessions.entry(ident, Replay)
        replay: Replay = entry.session  # type: ignore[assignment]
        at = request.query_params.get("at", "0")
        return answer({"id": ident, **await in_thread(lambda: replay.view(at))})

    # -- analyses of whole games (games once over, tables, replays) ----------------------

    def analysis_routes(path: str, kind: type) -> list[Route]:
        """Start, poll, read, cancel an analysis of a session of ``kind``, and show its moves."""
        where = f"/api/{path}/{{id}}/analysis"

        def job_of(entry: Entry) -> AnalysisJob:
            if entry.analysis is None:
                what = _KIND_NAMES[kind]
                raise BadRequest(404, f"no analysis of this {what} yet; start one with POST "
                                      f"/api/{path}/ID/analysis")
            return entry.analysis

        async def start_or_poll(request: Request) -> Response:
            ident = request.path_params["id"]
            async with locked(ident, kind) as (entry, session):
                if request.method == "GET":
                    job = job_of(entry)
                    return answer({"id": ident, **job.status(session_moves(session))})
                body = await read_json(request)
                check_fields(body, analysis_fields(analyses.cap), "an analysis")
                job, new = await in_thread(lambda: analyses.start(session, entry.analysis, body))
                entry.analysis = job
                status = job.status(session_moves(session))
            return answer({"id": ident, **status}, 202 if new else 200)

        async def result(request: Request) -> Response:
            ident = request.path_params["id"]
            entry, session = await opened(ident, kind)
            job = job_of(entry)
            analysis, chart = job.result()
            return answer({"id": ident, **job.status(session_moves(session)), "analysis": analysis,
                           "chart": chart})

        async def cancel(request: Request) -> Response:
            ident = request.path_params["id"]
            entry, session = await opened(ident, kind)
            check_fields(await read_json(request), NO_FIELDS, "a cancel")
            job = job_of(entry)
            job.cancel()
            return answer({"id": ident, **job.status(session_moves(session))})

        async def move(request: Request) -> Response:
            ident = request.path_params["id"]
            entry, session = await opened(ident, kind)
            job = job_of(entry)
            index = request.path_params["index"]
            return answer({"id": ident, **await in_thread(lambda: move_view(session, job, index))})

        return [
            Route(where, start_or_poll, methods=["GET", "POST"]),
            Route(f"{where}/result", result),
            Route(f"{where}/cancel", cancel, methods=["POST"]),
            Route(f"{where}/moves/{{index}}", move),
        ]

    # -- errors -------------------------------------------------------------------------

    async def refused(request: Request, exc: Exception) -> Response:
        if isinstance(exc, BadRequest):
            return answer({"error": one_line(exc.message)}, exc.status)
        if isinstance(exc, (Busy, Unavailable)):
            return answer({"error": one_line(str(exc))}, 503)
        if isinstance(exc, Conflict):
            return answer({"error": one_line(str(exc))}, 409)
        if isinstance(exc, KanaloaError):
            return answer({"error": one_line(str(exc))}, 400)
        if isinstance(exc, HTTPException):
            path = brief(request.url.path)
            message = {404: f"no such path {path}", 405: f"method {request.method} is not allowed on {path}"}.get(
                exc.status_code, one_line(str(exc.detail)))
            return answer({"error": message}, exc.status_code)
        log.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
        return answer({"error": f"internal error: {type(exc).__name__}; the game is unchanged"}, 500)

    routes = [
        Route("/", index),
        Route("/api/boards", boards),
        Route("/api/boards/check", check_board, methods=["POST"]),
        Route("/api/boards/{name}", builtin_board),
        Route("/api/files/{game}", files),
        Route("/api/files/{game}/check", check_file, methods=["POST"]),
        Route("/api/files/{game}/{name}", builtin_file),
        Route("/api/positions", position_deal, methods=["POST"]),
        Route("/api/positions/check", position_check, methods=["POST"]),
        Route("/api/games", games, methods=["GET"]),
        *game_routes("games", PlayGame, lambda body: new_game(body, budget.caps)),
        Route("/api/games/{id}/bot", game_bot, methods=["POST"]),
        Route("/api/games/{id}/record", game_record),
        *game_routes("tables", TableGame, new_table),
        Route("/api/tables/{id}/redo", table_redo, methods=["POST"]),
        Route("/api/saved", saved_list),
        Route("/api/saved/{id}", saved_delete, methods=["DELETE"]),
        Route("/api/saved/{id}/rename", saved_rename, methods=["POST"]),
        Route("/api/saved/{id}/download", saved_download),
        Route("/api/replays", replay_create, methods=["POST"]),
        Route("/api/replays/{id}", replay_get),
        *analysis_routes("games", PlayGame),
        *analysis_routes("tables", TableGame),
        *analysis_routes("replays", Replay),
        *game_assets(game_types()),
        Mount("/static", PageFiles(packages=[("kanaloa.interfaces.web", "static")]), name="static"),
    ]
    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        BadRequest: refused, KanaloaError: refused, HTTPException: refused, Exception: refused,
    }
    gate = [Middleware(AccessGate, token=token)] if token is not None else []
    app = Starlette(routes=routes, exception_handlers=handlers, middleware=gate)
    app.state.sessions = sessions
    app.state.analyses = analyses
    app.state.searches = searches_pool
    app.state.store = store
    app.state.started = time.time()
    return app


__all__ = ["MAX_BODY_BYTES", "BadRequest", "create_app"]
