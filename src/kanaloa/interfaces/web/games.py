"""What the web app keeps between requests: games in play, tables followed, replays.

Everything here speaks the Python API: the positions of any registered game
(``kanaloa.position.documents``: read by the game of a document, dealt by
its rule set), the bots of ``kanaloa.play.bots``, ``kanaloa.play.hint``, the
records of ``kanaloa.play.records``; no rule is decided here.  The HTTP
layer (``kanaloa.interfaces.web.app``) turns requests into calls of these
classes and their ``KanaloaError``s into 4xx answers.

Every game of the registry (``kanaloa.rules.registry``) is served: a
request names its game by ``ruleset`` (the key the game records use; the
registry's default game when absent) and the game's parameters by their
own names, as ``kanaloa games`` lists them; ``load_game`` makes the rule set
once and checks them, and everything this module needs to know of the game
it asks that rule set, the position, or the game's ``web`` face
(``kanaloa.interfaces.web.face``: the keys of a view that are the game's
own, what a request may give for a parameter, why a deal can have no
record).  A position names its game itself.  Kanaloa's variant Might of the
Gods (R14) is played in a ``PlayGame`` like any other deal (``gods`` in the
request) and followed in a ``TableGame``, set up with the token on each
island (``tokens``) or from a viewer position with the gods; the records of
the token moves (``ku green sees ...``, ``red: steal``, ``pele takes ...``)
are the position's to read.

Every view carries the rule set's ``to_json()`` (``rules``), and
``game_listing`` gives the page every registered game with its parameters,
so that the page hard-codes no rule number.

- ``PlayGame``: a game dealt (or uploaded) with every seat a person or a bot.
  It holds the full position; what a browser is shown is the view of the
  person whose turn it is (``perspective``), so a bot's hand stays hidden
  (in a game that hides nothing, the whole position), and its history the
  moves as that person writes them down at the table (``record_of``).
- ``TableGame``: a real game followed by one player: a viewer position to
  which the moves of every player are told as they happen.  Only a game
  that hides something has one (a rule set that lacks ``viewer`` says why
  it has not).
- ``Replay``: a recorded game of ``kanaloa simulate --out``, every position
  of it kept for stepping back and forth.

Every change is all or nothing: a move that fails leaves the game as it was
(``play`` of every position class promises that), and a bot's move or an
undo replaces the position only once it is made.  Every position made here
lives on its game's default engine, the compiled core, which the bots play
on.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...errors import BoardError, KanaloaError, MoveError, OptionError, brief, quote
from ...play.bots import Bot, bot_summaries, parse_bot_spec
from ...play.hint import Hint, hint
from ...play.levels import DEFAULT_LEVEL, LEVELS, find_level, level_names, level_spec, offered
from ...play.records import HUMAN, RECORD_FORMAT, GameRecord, read_records, replay
from ...position.documents import deal_position, read_position
from ...position.format import parse_json
from ...position.table import seen_deal
from ...rules import jsontext
from ...rules.board import BUILTIN_BOARDS, Board, board_from_dict, load_board
from ...rules.registry import GameType, document_game, game_names, game_type, game_types, load_game
from ...rules.ruleset import Parameter, ParameterError
from .face import WebFace
from .limits import DEFAULT_CAPS, RequestCaps

Position = Any  # a position of any registered game: its ``position`` face's class (the position protocol)
Ruleset = Any  # a rule set of any registered game (``load_game``)

MAX_RECORD_GAMES = 10_000  # records read from one upload, at most


class Conflict(KanaloaError):
    """A request that is well formed but does not fit the game's state now (HTTP 409)."""


# -- boards ----------------------------------------------------------------------------


def file_stem(name: object, fallback: str, limit: int = 40) -> str:
    """``name`` as the stem of a file name: its letters, digits, ``_`` and ``-``, each other run of characters one
    ``-``, at most ``limit`` characters; ``fallback`` when nothing is left."""
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", name if isinstance(name, str) else "").strip("-")[:limit]
    return stem or fallback


def board_source(name: object) -> str:
    """The ``board`` field positions on an uploaded board carry: the board's name as a file name."""
    return f"{file_stem(name, 'board')}.json"


def resolve_board(value: object) -> Board:
    """A board named by a request: a built-in name, or the content of a board file (a JSON object).

    No file is ever read for a request: any other string is refused.
    Raises ``BoardError``.
    """
    if isinstance(value, dict):
        return board_from_dict(value, board_source(value.get("name")))
    if isinstance(value, str) and value in BUILTIN_BOARDS:
        return load_board(value)
    raise BoardError(f"board {brief(value)}: not a built-in board ({', '.join(BUILTIN_BOARDS)}); send the board "
                     f"file's content (a JSON object) instead")


def sent_board(body: dict[str, Any], board: Board | None) -> Board | None:
    """The board a request sent as a board file's content (a saved game keeps it), or None for a built-in one."""
    return board if isinstance(body.get("board"), dict) else None


def board_loader(uploaded: Board | None) -> Callable[[str], Board]:
    """What a position's ``board`` field may name in a request: a built-in board, or the board sent with it."""

    def load(name: str) -> Board:
        if name in BUILTIN_BOARDS:
            return load_board(name)
        if uploaded is not None:
            return uploaded
        raise BoardError(f"board {brief(name)}: not a built-in board ({', '.join(BUILTIN_BOARDS)}); send the "
                         f"board file's content with the position")

    return load


# -- the games and their rule sets --------------------------------------------------------

# A request's names for the parameters of a game, where they differ from the registry's.
REQUEST_FIELDS = {"game": "ruleset"}


def request_error(error: ParameterError) -> OptionError:
    """``error`` worded with the request's name of the parameter at fault (``ruleset`` for ``game``)."""
    label = REQUEST_FIELDS.get(error.parameter, error.parameter)
    return OptionError(f"{label} {brief(error.value)}: {error.why}" if error.shown else f"{label}: {error.why}")


def default_game() -> GameType:
    """The game of a request that names none: the registry's default (that of a position without ``game``)."""
    return document_game(None)


# -- the keys of a request ----------------------------------------------------------------
#
# Each request takes its own keys: any other key is refused, naming it and the keys the request takes, and so
# is a null for any of them (docs/web.md "Errors": a key left out has its default; null is no value).  A
# request's fields map each key it takes to what its value must be, for the refusal of a null.

Fields = dict[str, str]

SEATS = f"a list of 'human', levels ({', '.join(level_names())}) or bot specs, one per player"
SEED = "a whole number from 0 to 2**64-1"
BOARD = "a built-in board's name or a board file's content (a JSON object)"
POSITION = "a position document: a JSON object, or its text"
RECORDS = "the text of a 'kanaloa simulate --out' file"
GAME_NUMBER = "a whole number of 0 or more, the game of the record to take"
MOVE_FIELDS: Fields = {"move": "a move in notation"}
# Every request that changes a game or a table may name the version of it its view showed (``version``): one
# made on a game that has changed since is refused (another tab or server moved first).
VERSION_FIELD: Fields = {"version": "a whole number, the game's version your view shows"}
HINT_FIELDS: Fields = {"iterations": f"a whole number from 1 to {DEFAULT_CAPS.iterations}", "seed": SEED}
NO_FIELDS: Fields = {}
POSITION_CHECK_FIELDS: Fields = {"position": POSITION, "board": BOARD}
REPLAY_FIELDS: Fields = {"records": RECORDS, "game": GAME_NUMBER, "board": BOARD}


def check_fields(body: dict[str, Any], fields: Fields, what: str) -> None:
    """Refuse a key of ``body`` that ``fields`` lacks (``what`` is the request, ``a replay``) and a null for a key
    it has.  Raises ``OptionError`` naming the key."""
    for key, value in body.items():
        if key not in fields:
            raise OptionError(f"request body: unknown key {quote(key)}; {what} takes "
                              f"{', '.join(fields) or 'no key'}")
        if value is None:
            raise OptionError(f"{key}: must be {fields[key]}, not null")


def check_version(value: object, now: int | None) -> None:
    """Refuse a change made on a view of another version than the game's version ``now``.  Raises ``Conflict``
    (or ``OptionError`` for a value that is no version)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise OptionError(f"version {brief(value)}: must be {VERSION_FIELD['version']}")
    if value != now:
        raise Conflict(f"version {value}: this game has changed since your view of it (it is at version {now}: "
                       f"another tab or server moved first); reload it and try again")


def request_game(body: dict[str, Any]) -> GameType:
    """The game a request's ``ruleset`` names (the default game when absent).  Raises ``OptionError``."""
    if "ruleset" not in body:
        return default_game()
    value = body["ruleset"]
    if value is None:
        raise OptionError(f"ruleset: must be one of {', '.join(game_names())}, not null")
    try:
        return game_type(value)
    except ParameterError as exc:
        raise request_error(exc) from None


def web_face(game: GameType) -> WebFace:
    """The game's part of the web app (its ``web`` face)."""
    face: WebFace = game.face("web")
    return face


def parameter_names(game: GameType) -> list[str]:
    """The parameters a request may give ``game``: its own, and those it refuses with the rule's reason
    (``also_takes``)."""
    return [p.name for p in game.parameters] + [n for n in game.also_takes if all(p.name != n for p in game.parameters)]


def deal_fields(game: GameType, fields: Fields) -> Fields:
    """The keys of a request that deals ``game``: ``ruleset``, ``fields``, then the game's parameters, each as its
    web face takes it from a request (a board as the app does)."""
    face = web_face(game)
    # the game's own parameter of each name, else another game's (a Kahuna deal's preset: Kanaloa's)
    anywhere: dict[str, Parameter] = {p.name: p for g in (*game_types(), game) for p in g.parameters}
    out: Fields = {"ruleset": f"one of {', '.join(game_names())}", **fields}
    for name in parameter_names(game):
        out[name] = BOARD if name == "board" else face.request_takes(anywhere[name])
    return out


def checked_deal(body: dict[str, Any], fields: Fields, what: str) -> GameType:
    """The game a request that deals one asks for, the request's keys checked (``deal_fields``; ``what`` names
    the request, ``a deal``).  Raises ``OptionError`` naming the key."""
    game = request_game(body)
    check_fields(body, deal_fields(game, fields), f"{what} of {game.title}")
    return game


def request_params(body: dict[str, Any], board: Board | None) -> tuple[GameType, dict[str, Any]]:
    """The game a request asks for (its ``ruleset``) and the game's parameters of the body, each as its web face
    makes it from the request (``board``, already read, is the board).  Raises ``OptionError`` naming the
    request's field."""
    game = request_game(body)
    face = web_face(game)
    params: dict[str, Any] = {}
    try:
        for name in parameter_names(game):
            if name in body and name != "board":
                params[name] = face.request_value(name, body[name])
    except ParameterError as exc:
        raise request_error(exc) from None
    if board is not None:
        params["board"] = board
    return game, params


def rules_of(game: GameType, params: dict[str, Any]) -> Ruleset:
    """The rule set of ``game`` with ``params``, every combination checked by ``load_game``.  Raises
    ``OptionError`` naming the request's field."""
    try:
        return load_game(game.name, **params)
    except ParameterError as exc:
        raise request_error(exc) from None


def request_rules(body: dict[str, Any], board: Board | None) -> Ruleset:
    """The rule set a request asks for: its ``ruleset`` with the game's parameters of the body (and ``board``,
    already read), each checked by ``load_game``.  Raises ``OptionError`` naming the request's field."""
    return rules_of(*request_params(body, board))


def rules_json(rs: Ruleset) -> dict[str, Any]:
    """What the page knows of a game: its rule set's ``to_json()`` (docs/web.md "The rule sets"), with the seats'
    names in seat order (``seats``) and every name a seat may have (``palette``), which every game's rule set
    answers."""
    return {**rs.to_json(), "seats": list(rs.seat_names), "palette": list(rs.palette)}


def _choice_value(text: str) -> object:
    """A parameter's choice as ``kanaloa games`` lists it (``"2"``, ``"true"``, ``"tabletop"``), as a request
    sends it."""
    if text.isdigit():
        return int(text)
    return {"true": True, "false": False}.get(text, text)


def game_listing() -> dict[str, Any]:
    """Every registered game for the page (``GET /api/games``): its parameters with their defaults, its rule set
    with the defaults, and for each choice of a parameter the rule set with that choice (the others left at
    their defaults), from which the New-game and table forms read the seats, sizes and labels they show; its
    web face's part of the page (``web``), why the Table mode does not serve it (``table``, None when it
    does) and the named strengths offered for it (``levels``, each with the bot spec it stands for there).
    Beside the games: every level (``levels``), the one a bot seat starts as (``default_level``) and every bot
    a seat may name, with one line on it (``bots``), for the form's advanced seat."""
    games = []
    for g in game_types():
        entry = g.to_json()
        default = g.load()
        entry["default"] = rules_json(default)
        entry["web"] = web_face(g).to_json(g.name)
        entry["table"] = default.lacks("viewer")  # why the Table mode does not serve the game, or None
        choices: dict[str, dict[str, Any]] = {}
        for p in g.parameters:
            if not p.choices:
                continue
            choices[p.name] = {}
            for choice in p.choices:
                try:
                    choices[p.name][choice] = rules_json(g.load(**{p.name: _choice_value(choice)}))
                except ParameterError:  # a choice that needs another board than the default: left out
                    continue
        entry["choices"] = choices
        # the named strengths that can play the game, each with the spec it stands for there
        entry["levels"] = [{**level.to_json(), "spec": spec} for level, spec in offered(default)]
        games.append(entry)
    return {"games": games, "default": default_game().name, "levels": [level.to_json() for level in LEVELS],
            "default_level": DEFAULT_LEVEL,
            "bots": [{"name": name, "help": text} for name, text in bot_summaries().items()]}


def board_games(board: Board) -> dict[str, str | None]:
    """For each registered game played on a board (a ``board`` parameter), why it cannot be played on ``board``
    with its default parameters, or None."""
    out: dict[str, str | None] = {}
    for g in game_types():
        if all(p.name != "board" for p in g.parameters):
            continue
        try:
            g.load(board=board)
            out[g.name] = None
        except ParameterError as exc:
            out[g.name] = exc.why
    return out


# -- what a browser is shown -------------------------------------------------------------


def describe(pos: Position, rs: Ruleset, mover_moves: bool, hint: Hint | None = None) -> dict[str, Any]:
    """A position for the browser: its JSON, the picture, the legal moves, the rule set ``rs`` it plays, and the
    keys its game's web face adds (docs/web.md "A view").

    ``mover_moves``: list the legal moves of the player to move (the
    position knows what that player holds and the browser may play them);
    ``hint``: a plan for the picture to draw (a move of an analysis).
    """
    moves: list[str] = []
    if mover_moves and not pos.is_over and pos.waiting is None:
        moves = pos.move_strings()
    game = rs.game_type
    return {
        "ruleset": rs.game,
        "rules": rules_json(rs),
        "position": pos.to_json(),
        "svg": game.face("svg")(pos, hint=hint, interactive=True),
        "to_move": pos.to_move,
        "waiting": pos.waiting,
        "outcome": pos.outcome,
        "moves": moves,
        **web_face(game).view(pos, moves),
    }


@dataclass(frozen=True)
class HintBudget:
    """The budget of the hints the app gives: ``iterations`` on ``workers`` processes."""

    iterations: int = 4000
    workers: int = 1
    caps: RequestCaps = DEFAULT_CAPS  # the most a request may ask (``limits``), of a hint and of a bot's seat

    def fields(self) -> Fields:
        """The keys of a hint's request, the iterations within this server's cap."""
        return {**HINT_FIELDS, "iterations": f"a whole number from 1 to {self.caps.iterations}"}

    def ask(self, pos: Position, iterations: object = None, seed: object = 0,
            stop: Callable[[], bool] | None = None) -> Hint:
        """The hint for ``pos``'s player to move; a request may lower or raise the iterations within 1 to the cap."""
        count = self.caps.hint_iterations(self.iterations if iterations is None else iterations)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
            raise OptionError(f"seed {brief(seed)}: must be a whole number from 0 to 2**64-1")
        return hint(pos, iterations=count, seed=seed, workers=self.workers, stop=stop)


# -- play --------------------------------------------------------------------------------


@dataclass
class Step:
    """One move made in a game: the position before it, the move, and who made it (a seat)."""

    before: Position
    move: str
    seat: int
    words: str = ""  # the move told in words as every player sees it (``move_words``)
    records: dict[str, str] = field(default_factory=dict)  # the move as each player records it (``shown``)


def move_words(before: Position, move: str, public: bool = False) -> str:
    """``move`` told in one sentence from the position ``before`` it (the game's ``words`` face); ``public``
    keeps to what every player at the table sees (a full position's hidden cards left unnamed)."""
    return str(before.ruleset.game_type.face("words")(before, move, public=public))


def hint_words(pos: Position, found: Hint) -> dict[str, Any]:
    """The hint's move in words (``words``) and its plan's steps (``plan_words``), each told from the position
    before it: the plan is played on a copy of ``pos`` as far as it can be (a viewer's draw waits for the card
    the table will show; the steps after it are told from the position before it)."""
    at = pos.copy()
    steps = []
    for move in found.plan:
        if at.is_over:
            break
        steps.append(move_words(at, move))
        try:
            at.play(move)
        except MoveError:
            continue  # the next steps are told from this position
    return {"words": move_words(pos, found.move), "plan_words": steps}


@dataclass(frozen=True)
class Seats:
    """The seats of a new game: each ``"human"`` or the bot spec it plays by, and the level each bot seat was
    given as (``kanaloa.play.levels``), None for a person or a seat given as a spec."""

    specs: list[str]
    levels: list[str | None]


def check_seats(seats: object, rs: Ruleset, players: list[str], caps: RequestCaps = DEFAULT_CAPS) -> Seats:
    """Each seat ``"human"``, a level (its spec in ``rs``'s game) or a bot spec that can play ``rs`` (``Bot.check``)
    and asks no more than ``caps`` of its search, one per player of ``players`` (the seats' names; ``seats`` is
    None when the request gives none).  Raises ``OptionError``; a bad seat is named by its number and player:
    ``seat 2 (green): ...``."""
    if seats is None:
        raise OptionError(f"seats: missing; give {SEATS}")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise OptionError(f"seats {brief(seats)}: must be {SEATS}")
    if len(seats) != len(players):
        raise OptionError(f"seats: {len(seats)} given for {len(players)} players; give one per player")
    out = Seats([], [])
    for number, (given, player) in enumerate(zip(seats, players, strict=True), start=1):
        text = given.strip()
        try:
            if text.lower() == HUMAN:
                spec, level = HUMAN, None
            elif find_level(text) is not None:
                spec, level = level_spec(text, rs), text.lower()
            else:
                if text and ":" not in text and not names_a_bot(text):
                    levels = ", ".join(levels_of(rs)) or f"none for {rs.title}"
                    raise OptionError(f"{quote(text)} is neither 'human', a level ({levels}) nor a bot "
                                      f"({', '.join(bot_summaries())})")
                spec, level = text, None
            if spec != HUMAN:
                bot = parse_bot_spec(spec)
                bot.check(rs)  # a bot that cannot play the game is refused before it starts
                caps.check_bot(bot)  # nor one that would hold a search thread too long
        except OptionError as exc:
            raise OptionError(f"seat {number} ({player}): {exc}") from None
        out.specs.append(spec)
        out.levels.append(level)
    return out


def names_a_bot(word: str) -> bool:
    """Whether ``word`` is the name of a bot, one that plays or one that only measures (whose own refusal then
    says why it cannot sit here)."""
    try:
        parse_bot_spec(word, playing=False)
    except OptionError:
        return False
    return True


def levels_of(rs: Ruleset) -> list[str]:
    """The names of the levels offered for ``rs``'s game."""
    return [level.name for level, _ in offered(rs)]


@dataclass
class Deal:
    """How a dealt game was dealt: its seed (the rule set is the game's), what a game record needs to deal it
    again; ``unrecorded`` says why no record can (the game's web face's ``record_refusal``), or is None."""

    seed: int
    unrecorded: str | None = None

    @property
    def recordable(self) -> bool:
        return self.unrecorded is None


@dataclass
class PlayGame:
    """A game with a person or a bot in every seat (module docstring)."""

    pos: Position
    seats: list[str]
    rules: Ruleset
    deal: Deal | None = None
    history: list[Step] = field(default_factory=list)
    bots: dict[int, Bot] = field(default_factory=dict)
    perspective: str | None = None
    levels: list[str | None] = field(default_factory=list)  # the level each seat was given as, or None
    board: Board | None = None  # the board file sent with the request, when not a built-in board

    @classmethod
    def seated(cls, pos: Position, seats: Seats, rules: Ruleset, deal: Deal | None = None,
               board: Board | None = None) -> PlayGame:
        """A game of ``pos`` with ``seats`` (``check_seats``)."""
        return cls(pos, seats.specs, rules, deal, levels=seats.levels, board=board)

    def __post_init__(self) -> None:
        seed = self.deal.seed if self.deal is not None else 0
        for seat, spec in enumerate(self.seats):
            if spec != HUMAN:
                bot = parse_bot_spec(spec)
                bot.check(self.pos.ruleset)  # a bot that cannot play the game is refused before it starts
                bot.start(self.pos.ruleset, seed + seat)
                self.bots[seat] = bot
        self._look()

    @property
    def humans(self) -> list[str]:
        return [p for p, spec in zip(self.pos.players, self.seats, strict=True) if spec == HUMAN]

    def seat_to_move(self) -> int | None:
        mover = self.pos.to_move
        return None if mover is None else self.pos.players.index(mover)

    def bot_to_move(self) -> bool:
        seat = self.seat_to_move()
        return seat is not None and seat in self.bots

    def _look(self) -> None:
        """Whose eyes the browser sees through: the person to move, else the last one who moved."""
        seat = self.seat_to_move()
        if seat is not None and seat not in self.bots:
            self.perspective = self.pos.players[seat]
        elif self.perspective is None and self.humans:
            self.perspective = self.humans[0]

    def seen(self) -> Position:
        """The position as the browser may see it: the perspective's view, or the full one when no person plays,
        the game is over or the game hides nothing (its rule set lacks ``viewer``)."""
        if self.perspective is None or self.pos.is_over or self.rules.lacks("viewer"):
            return self.pos
        return self.pos.as_viewer(self.perspective)

    def shown(self, step: Step) -> str:
        """``step``'s move as the browser may see it: as the perspective writes it down at the table (the
        position's ``record_of``: a bot's hidden card left out, a take's refill named; in a game that hides
        nothing, the move itself), in full when no person plays or the game is over."""
        if self.perspective is None or self.pos.is_over:
            return step.move
        seen = step.records.get(self.perspective)
        if seen is None:  # written once for each player: every view of the game lists every move
            seen = step.records[self.perspective] = str(step.before.record_of(step.move, self.perspective))
        return seen

    def play(self, move: object) -> None:
        """A person's move.  Raises ``Conflict`` when a bot is to move, ``MoveError`` for a bad move."""
        if not isinstance(move, str):
            raise MoveError(f"move {brief(move)}: must be a move in notation, as the view's moves are written")
        if self.pos.is_over:
            raise Conflict("the game is over; undo to play on from an earlier move")
        seat = self.seat_to_move()
        assert seat is not None
        if seat in self.bots:
            raise Conflict(f"{self.pos.players[seat]} is a bot ({self.seats[seat]}); ask it to move")
        self._step(move, seat)

    def bot_move(self) -> str:
        """The bot to move chooses and plays its move; returns it.  Raises ``Conflict`` when no bot is to move."""
        seat = self.seat_to_move()
        if seat is None or seat not in self.bots:
            who = "nobody" if seat is None else f"{self.pos.players[seat]}, a person,"
            raise Conflict(f"no bot is to move: {who} is")
        action = self.bots[seat].choose(self.pos.state)  # the default engine's state: the compiled core's
        move = str(self.pos.move_of(action))
        self._step(move, seat)
        return move

    def _step(self, move: str, seat: int, words: str | None = None) -> None:
        before = self.pos.copy()
        self.pos.play(move)  # unchanged when it raises
        self.history.append(Step(before, str(self.pos_move(move, before)), seat,
                                 move_words(before, move, public=True) if words is None else words))
        self._look()

    @staticmethod
    def pos_move(move: str, before: Position) -> str:
        """``move`` in canonical notation (as the position before it reads it, in its game's notation)."""
        return str(before.parse(move))

    def undo(self) -> None:
        """Take back the last person's move and every bot move after it (all moves when no person plays)."""
        if not self.history:
            raise Conflict("nothing to undo: no move has been made")
        keep = len(self.history) - 1
        if self.humans:
            while keep >= 0 and self.history[keep].seat in self.bots:
                keep -= 1
            if keep < 0:
                raise Conflict("nothing to undo: no person has moved yet")
        self.pos = self.history[keep].before
        del self.history[keep:]
        self.perspective = None
        self._look()

    def hint_position(self) -> Position:
        """The position a hint is asked on: the person to move's view (a hint uses what the mover knows
        and nothing else, so it is the full position's hint too).  Raises ``Conflict`` on a bot's turn
        (its hint would show the bot's hand)."""
        if self.bot_to_move():
            raise Conflict(f"{self.pos.to_move} is a bot; hints are for a person's turn")
        return self.seen()

    @property
    def moves(self) -> list[str]:
        return [step.move for step in self.history]

    def view(self) -> dict[str, Any]:
        seen = self.seen()
        seat = self.seat_to_move()
        person_to_move = seat is not None and seat not in self.bots
        out = describe(seen, self.rules, person_to_move)
        out.update({
            "kind": "game",
            # each seat: who plays it ("human" or the bot spec) and the level it was given as (or null)
            "seats": [{"player": p, "who": spec, "level": self.levels[i] if i < len(self.levels) else None}
                      for i, (p, spec) in enumerate(zip(self.pos.players, self.seats, strict=True))],
            "perspective": self.perspective if not self.pos.is_over else None,
            "bot_to_move": self.bot_to_move(),
            "history": [{"seat": self.pos.players[s.seat], "move": self.shown(s), "words": s.words}
                        for s in self.history],
            "can_undo": bool(self.history) and (not self.humans or any(s.seat not in self.bots for s in self.history)),
            "has_record": self.deal is not None and self.deal.recordable,
        })
        return out

    def record(self) -> dict[str, Any]:
        """The game as a ``kanaloa-game/1`` record (``kanaloa replay`` and the Replay mode read it).

        Raises ``Conflict`` for a game that was not dealt here (one that began
        from an uploaded position), one that no record can deal again (its
        deal says why), or one that is not over yet.
        """
        if self.deal is None:
            raise Conflict("this game began from an uploaded position, so no record can deal it again; "
                           "download the position instead")
        if self.deal.unrecorded is not None:
            raise Conflict(f"no record can deal this game again: {self.deal.unrecorded}")
        if not self.pos.is_over:
            raise Conflict("the record is written when the game is over; download the position to keep a game "
                           "in progress")
        rs = self.rules
        seed = self.deal.seed
        return GameRecord.of_game(rs, seed, self.seats, [seed + seat for seat in range(rs.players)], self.moves,
                                  self.pos).to_json()


def new_game(body: dict[str, Any], caps: RequestCaps = DEFAULT_CAPS) -> PlayGame:
    """A ``PlayGame`` from a request (docs/web.md "Play"): a deal, an uploaded position or an uploaded record;
    ``caps`` bounds the bots' searches."""
    if "position" in body:
        check_fields(body, {"position": POSITION, "seats": SEATS, "board": BOARD}, "a new game from a position")
    elif "record" in body:
        check_fields(body, {"record": RECORDS, "game": GAME_NUMBER, "seats": SEATS, "board": BOARD},
                     "a new game from a record")
    else:
        checked_deal(body, {"seats": SEATS, "seed": SEED}, "a deal")
    board = resolve_board(body["board"]) if "board" in body else None
    if "position" in body:
        pos = read_position(_document(body["position"], "position"), boards=board_loader(board))
        if pos.viewer is not None:
            raise OptionError(f"position: it is {pos.viewer}'s view; a game needs a full position (every card "
                              f"known), as the Play mode downloads it")
        return PlayGame.seated(pos, check_seats(body.get("seats"), pos.ruleset, pos.players, caps), pos.ruleset,
                               board=sent_board(body, board))
    if "record" in body:
        record = read_record(body["record"], body.get("game"), board)
        pos = replay(record, at=0)
        game = PlayGame.seated(pos, check_seats(body.get("seats"), pos.ruleset, pos.players, caps), pos.ruleset,
                               Deal(record.seed), board=sent_board(body, board))
        for number, move in enumerate(record.moves, start=1):
            seat = game.seat_to_move()
            if seat is None:
                raise MoveError(f"game {record.index}, move {number} of {record.length}: the game is already over")
            try:
                game._step(move, seat)
            except MoveError as exc:
                raise MoveError(f"game {record.index}, move {number} of {record.length}: {exc}") from None
        return game
    dealt, params = request_params(body, board)
    rs = rules_of(dealt, params)
    seed = body.get("seed")
    if seed is None:
        import secrets

        seed = secrets.randbits(32)
    pos = deal_position(rs, seed)
    # a game record deals again from the game's parameters and seed; the game's face says when it cannot
    deal = Deal(seed, web_face(dealt).record_refusal(params))
    return PlayGame.seated(pos, check_seats(body.get("seats"), rs, pos.players, caps), rs, deal,
                           board=sent_board(body, board))


def _document(value: object, what: str) -> dict[str, Any]:
    """A position document sent as an object or as the text of a file (read as the command line reads one: a
    key named twice is refused)."""
    if isinstance(value, str):
        value = parse_json(value)
    if not isinstance(value, dict):
        raise OptionError(f"{what}: must be a JSON object")
    return value


def screen_records(text: str) -> None:
    """Refuse a record whose rule set would have the server read a file (a tile file's path in a record's
    ``tiles``): each line's parameters of its game as the game's web face takes them from a request
    (``request_value``; a board is the board loader's to check).  Raises ``OptionError`` naming the line and
    the field; every other fault of a line is the records' reader's to report."""
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            doc = json.loads(line)
            game = document_game(doc.get("ruleset")) if isinstance(doc, dict) else None
        except (ValueError, RecursionError, ParameterError):
            continue
        if game is None:
            continue
        face = web_face(game)
        for p in game.parameters:
            if p.name in doc and p.name != "board":
                try:
                    face.request_value(p.name, doc[p.name])
                except ParameterError as exc:
                    raise OptionError(f"record line {number}: field {p.name!r}: {exc.why}") from None


def read_record(text: object, game: object = None, uploaded: Board | None = None) -> GameRecord:
    """Game ``game`` of a ``simulate --out`` file's text (any one when it holds one game); a record's board is
    a built-in one or ``uploaded``, the board sent with it."""
    if isinstance(text, dict):
        try:
            text = jsontext.dumps(text)  # a number too long for an integer is the records' reader's to refuse
        except RecursionError:
            raise OptionError("record: nested far too deeply") from None
    if not isinstance(text, str):
        raise OptionError("record: must be the text of a 'kanaloa simulate --out' file")
    if game is not None and (isinstance(game, bool) or not isinstance(game, int) or game < 0):
        raise OptionError(f"game {brief(game)}: must be a whole number of 0 or more")
    screen_records(text)
    records: list[GameRecord] = []
    for record in read_records(io.BytesIO(text.encode("utf-8", "surrogatepass")), "record", board_loader(uploaded)):
        if len(records) >= MAX_RECORD_GAMES:
            raise OptionError(f"record: more than {MAX_RECORD_GAMES} games; upload fewer")
        records.append(record)
    if not records:
        raise OptionError(f"record: holds no game record ({RECORD_FORMAT}, one per line)")
    if game is None:
        if len(records) > 1:
            raise OptionError(f"game: the record holds {len(records)} games ({records[0].index} to "
                              f"{records[-1].index}); choose one")
        return records[0]
    for rec in records:
        if rec.index == game:
            return rec
    raise OptionError(f"game {game}: the record holds no game {game} (games {records[0].index} to "
                      f"{records[-1].index})")


# -- a real table ------------------------------------------------------------------------


@dataclass
class Told:
    """One move told at a table: the position before it, the move as told, and its words (or None)."""

    before: Position  # None for a move taken back, until a redo plays it again
    move: str
    words: str | None = None


@dataclass
class TableGame:
    """A real game followed by one player (module docstring).  ``undone``: the moves taken back, the last taken
    back last, which a redo tells again (a mis-told move of another player is corrected by an undo, the right
    move, and nothing more: a new move drops the moves taken back)."""

    pos: Position
    rules: Ruleset
    history: list[Told] = field(default_factory=list)
    undone: list[Told] = field(default_factory=list)
    board: Board | None = None  # the board file sent with the request, when not a built-in board

    def play(self, move: object, words: str | None = None) -> None:
        if not isinstance(move, str):
            raise MoveError(f"move {brief(move)}: must be a move in notation, such as 'green: take RASI refill KULU'")
        before = self.pos.copy()
        self.pos.play(move)
        self.history.append(Told(before, move.strip(), move_words(before, move) if words is None else words))
        self.undone.clear()

    def undo(self) -> None:
        if not self.history:
            raise Conflict("nothing to undo: no move has been told")
        told = self.history.pop()
        assert told.before is not None
        self.pos = told.before
        self.undone.append(Told(None, told.move, told.words))

    def redo(self) -> None:
        """Tell again the last move taken back.  Raises ``Conflict`` when there is none."""
        if not self.undone:
            raise Conflict("nothing to redo: no move has been taken back since the last move told")
        told, rest = self.undone[-1], self.undone[:-1]
        self.play(told.move, told.words)  # all or nothing: the moves taken back stay when it raises
        self.undone = rest

    def hint_position(self) -> Position:
        """The position a hint is asked on: the viewer's (``hint`` refuses it when another player is to move)."""
        return self.pos

    def view(self) -> dict[str, Any]:
        viewer = self.pos.viewer
        out = describe(self.pos, self.rules, self.pos.to_move == viewer)
        out.update({
            "kind": "table",
            "viewer": viewer,
            "history": [{"move": told.move, "words": told.words} for told in self.history],
            "can_undo": bool(self.history),
            "can_redo": bool(self.undone),
            "redo": self.undone[-1].move if self.undone else None,
        })
        return out


def hides_nothing(rs: Ruleset, field: str, name: object) -> OptionError | None:
    """The refusal of a table of a game that hides nothing (its rule set lacks ``viewer``), worded with the
    request's ``field``; None for a game that hides something."""
    why = rs.lacks("viewer")
    if why is None:
        return None
    return OptionError(f"{field} {brief(name)}: {why}, so there is no hidden hand to follow at a table; play it in "
                       f"the Play mode")


def new_table(body: dict[str, Any]) -> TableGame:
    """A ``TableGame`` from a request (docs/web.md "Table"): the deal as the viewer saw it (its hand, the cards
    turned face-up at the deal where the game turns some, the god tokens with the gods), or a viewer position."""
    if "position" in body:
        check_fields(body, {"position": POSITION, "board": BOARD}, "a table from a viewer position")
    else:
        checked_deal(body, {"viewer": "one of the game's players", "hand": "a list of the cards you were dealt",
                            "face_up": "a list of the cards turned face-up at the deal",
                            "tokens": "the god token on each island (a JSON object)"}, "a table")
    board = resolve_board(body["board"]) if "board" in body else None
    if "position" in body:
        pos = read_position(_document(body["position"], "position"), boards=board_loader(board))
        refusal = hides_nothing(pos.ruleset, "position: game", pos.ruleset.game)
        if refusal is not None:
            raise refusal
        if pos.viewer is None:
            raise OptionError("position: a full position knows every card; a table needs a position seen by one "
                              "player (its \"viewer\")")
        return TableGame(pos, pos.ruleset, board=sent_board(body, board))
    rs = request_rules(body, board)
    refusal = hides_nothing(rs, "ruleset", rs.game)
    if refusal is not None:
        raise refusal
    doc = seen_deal(rs, body.get("viewer", rs.seat_names[0]), body.get("hand"), face_up=body.get("face_up"),
                    tokens=body.get("tokens"))
    return TableGame(read_position(doc, boards=board_loader(rs.board)), rs, board=sent_board(body, board))


# -- replays -----------------------------------------------------------------------------


@dataclass
class Replay:
    """A recorded game and every position of it (module docstring)."""

    record: GameRecord
    positions: list[Position]
    rules: Ruleset

    def view(self, at: object, hint: Hint | None = None) -> dict[str, Any]:
        """The replay at step ``at`` (the moves played so far: a number or its text); ``hint`` a plan the
        picture draws."""
        last = len(self.positions) - 1
        if isinstance(at, str):
            try:
                at = int(at)
            except ValueError:
                raise OptionError(f"at {brief(at)}: must be a whole number from 0 to {last}") from None
        if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= last:
            raise OptionError(f"at {brief(at)}: must be a whole number from 0 to {last}")
        out = describe(self.positions[at], self.rules, False, hint)
        rec = self.record
        out.update({
            "kind": "replay",
            "at": at,
            "length": last,
            # the record as its file holds it, with the game it plays named whichever game it is
            "record": {**rec.to_json(), "ruleset": rec.ruleset.game},
        })
        return out


def new_replay(body: dict[str, Any]) -> Replay:
    """A ``Replay`` from a request: a record file's text, the game to take from it, and its board if not built in."""
    check_fields(body, REPLAY_FIELDS, "a replay")
    rec = read_record(body.get("records"), body.get("game"), resolve_board(body["board"]) if "board" in body else None)
    pos = replay(rec, at=0)
    positions = [pos.copy()]
    for number, move in enumerate(rec.moves, start=1):
        try:
            pos.play(move)
        except MoveError as exc:
            raise MoveError(f"game {rec.index}, move {number} of {rec.length}: {exc}") from None
        positions.append(pos.copy())
    return Replay(rec, positions, positions[0].ruleset)



# -- the position editor ------------------------------------------------------------------


def position_view(pos: Position) -> dict[str, Any]:
    """A position of any game as the Editor mode shows it: a view (``describe``) with the legal moves where the
    position knows them (a full position, or a viewer's on its own turn), and its document as text."""
    known = pos.viewer is None or pos.viewer == pos.to_move
    # ``text``: the document as the engine writes it, kept as text (a page's JSON.parse would round the seed)
    return {"kind": "position", "viewer": pos.viewer, "text": pos.dumps() + "\n", **describe(pos, pos.ruleset, known)}


def check_position(body: dict[str, Any]) -> dict[str, Any]:
    """A position document of any game read by its game's reader (``read_position``), as the Editor mode checks
    it: ``position_view`` of it, the document written as the engine writes it.  Raises ``PositionError``
    naming the first bad field."""
    check_fields(body, POSITION_CHECK_FIELDS, "a position check")
    board = resolve_board(body["board"]) if "board" in body else None
    return position_view(read_position(_document(body.get("position"), "position"), boards=board_loader(board)))


def deal_for_editor(body: dict[str, Any]) -> dict[str, Any]:
    """A new full position to edit: a deal of the request's game and parameters (as for a new game) from its
    ``seed`` (0 by default)."""
    checked_deal(body, {"seed": SEED}, "an editor's deal")
    board = resolve_board(body["board"]) if "board" in body else None
    return position_view(deal_position(request_rules(body, board), body.get("seed", 0)))
