"""Whole games analysed in the web app (``kanaloa serve``): one background job a game, table or replay.

An analysis (``kanaloa.play.analysis.analyse_game``) judges every move of a
game with two searches each, which takes seconds to minutes, so no request
waits for it: a request starts a job (``Analyses.start``), the page polls its
progress (``AnalysisJob.status``: the moves judged so far out of those to
judge), then reads its result (the ``kanaloa-analysis/1`` document and its
win-chance chart, ``kanaloa.interfaces.chart.win_chart``), or cancels it.

**What is analysed** (``subject_of``): a replay's recorded game from its
deal; a Play game once it is over (every player's moves, each from what its
mover knew: the game is over, so no hand is secret any more); a table's
moves told so far, from its viewer position, where only the viewer's own
moves can be judged (the others' hands are unknown, ``analyse_game`` leaves
them ungraded).  A job keeps its own copy of the game (the first position,
the moves, the position before each move), so a game that goes on, or is
undone, after the start leaves the job's result as it was; its status says
whether the game still has those moves (``current``).

**The budget.**  A request may ask for ``iterations`` a search from 1 to the
server's hint budget (``kanaloa serve --hint-iterations``, which is also the
default) and a ``seed`` (0 by default): the same game, budget and seed give
the same analysis.  A job searches on the server's hint workers
(``--hint-workers``: 1, this process; more, that many processes).

**Bounds.**  Jobs run one at a time (``THREADS``), in a thread pool of their
own, so moves, bot moves and hints are answered meanwhile; at most
``MAX_JOBS`` jobs wait or run at once, and another start is refused as busy
(``Busy``, HTTP 503).  A game has at most one job: a second start while it
waits or runs returns it, as does a start with the same budget and seed
once it is done on the same moves; any other start replaces a job that has
ended.  A cancel stops a waiting job at once and a running one once the move
it is judging is judged.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ...errors import KanaloaError, OptionError, brief
from ...play.analysis import MoveReview, analyse_game, walk
from ...play.hint import Hint
from ..chart import win_chart
from .games import SEED, Conflict, PlayGame, Replay, TableGame, describe

log = logging.getLogger("kanaloa.web")

Position = Any  # a position of any registered game (the position protocol)
Session = PlayGame | TableGame | Replay

THREADS = 1  # analyses computed at once; the others wait their turn
MAX_JOBS = 8  # analyses waiting or running at once, at most
ENDED = ("done", "cancelled", "failed")


class Busy(KanaloaError):
    """The server already has ``MAX_JOBS`` analyses waiting or running (HTTP 503)."""


class _Cancelled(Exception):
    """Raised in a job's thread, at its next progress report, once the job is cancelled."""


# -- what is analysed -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Subject:
    """A game to analyse: its rule set, the position before each of its moves (the first one is where the
    analysis starts) and the moves; ``record``: the game's number in its records file, for a replay."""

    rules: Any
    before: tuple[Position, ...]
    moves: tuple[str, ...]
    record: int | None = None

    @property
    def start(self) -> Position:
        return self.before[0]


def session_moves(session: Session) -> tuple[str, ...]:
    """The moves of ``session`` now (a game's and a table's change; a replay's never do)."""
    if isinstance(session, Replay):
        return tuple(session.record.moves)
    if isinstance(session, PlayGame):
        return tuple(session.moves)
    return tuple(told.move for told in session.history)


def subject_of(session: Session) -> Subject:
    """What an analysis of ``session`` judges (module docstring), the positions copied (a game's live position
    may become one of its earlier ones after an undo).  Raises ``Conflict`` for a game that is not over, and
    for a game or table without a move."""
    if isinstance(session, Replay):
        if not session.record.moves:
            raise Conflict("the recorded game has no move to analyse")
        return Subject(session.rules, tuple(session.positions[:-1]), tuple(session.record.moves),
                       session.record.index)
    if isinstance(session, PlayGame):
        if not session.pos.is_over:
            raise Conflict("the game is not over yet; a game of the Play mode is analysed once it is over (every "
                           "player's moves are judged, each from what its mover knew)")
        if not session.history:
            raise Conflict("the game has no move to analyse: it began from a position that is over")
        return Subject(session.rules, tuple(s.before.copy() for s in session.history), tuple(session.moves))
    if not session.history:
        raise Conflict("no move has been told yet; there is nothing to analyse")
    return Subject(session.rules, tuple(told.before.copy() for told in session.history),
                   tuple(told.move for told in session.history))


def judged_count(subject: Subject) -> int:
    """How many of the subject's moves the analysis can judge; ``Conflict`` when none (a table whose moves
    told are all the others'), saying why."""
    walked, _ = walk(subject.start, subject.moves)
    unjudged = [w for w in walked if isinstance(w, MoveReview)]
    if len(unjudged) == len(walked):
        raise Conflict(f"no move to analyse: none of the {len(walked)} moves can be judged ({unjudged[0].why}); "
                       f"an analysis judges a player's moves from what that player knew")
    return len(walked) - len(unjudged)


# -- the budget a request asks for ------------------------------------------------------------------------------


def analysis_fields(cap: int) -> dict[str, str]:
    """The keys of a request that starts an analysis, for ``check_fields``."""
    return {"iterations": f"a whole number from 1 to {cap}", "seed": SEED}


def check_request(body: dict[str, Any], cap: int) -> tuple[int, int]:
    """The iterations a search (``cap``, the server's hint budget, by default and at most) and the seed (0 by
    default) a request asks for.  Raises ``OptionError`` naming the field."""
    iterations = body.get("iterations", cap)
    if isinstance(iterations, bool) or not isinstance(iterations, int) or not 1 <= iterations <= cap:
        raise OptionError(f"iterations {brief(iterations)}: must be a whole number from 1 to {cap}, the server's "
                          f"hint budget (kanaloa serve --hint-iterations)")
    seed = body.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
        raise OptionError(f"seed {brief(seed)}: must be a whole number from 0 to 2**64-1")
    return iterations, seed


# -- a job ------------------------------------------------------------------------------------------------------


class AnalysisJob:
    """One analysis of one game (module docstring).  Its state is written by the thread that runs it and read
    by the requests, under ``lock``: ``queued``, ``running``, then one of ``done``, ``cancelled``, ``failed``."""

    def __init__(self, subject: Subject, iterations: int, seed: int, workers: int, total: int) -> None:
        self.subject = subject
        self.iterations = iterations
        self.seed = seed
        self.workers = workers
        self.lock = threading.Lock()
        self.state = "queued"
        self.done = 0
        self.total = total
        self.error: str | None = None
        self.analysis: dict[str, Any] | None = None
        self.chart: str | None = None
        self.future: Future[None] | None = None
        self._stop = threading.Event()

    def fits(self, moves: Sequence[str], iterations: int, seed: int) -> bool:
        """Whether a start asking for this budget and seed on ``moves`` is answered with this job."""
        if self.state in ("queued", "running"):
            return True
        return (self.state == "done" and tuple(moves) == self.subject.moves and iterations == self.iterations
                and seed == self.seed)

    def run(self) -> None:
        with self.lock:
            if self._stop.is_set():
                return
            self.state = "running"
        try:
            found = analyse_game(self.subject.start, self.subject.moves, iterations=self.iterations, seed=self.seed,
                                 workers=self.workers, progress=self._progress, record=self.subject.record)
            doc = found.to_json()
            chart = win_chart(doc)
        except _Cancelled:
            return
        except KanaloaError as exc:
            self._end("failed", " ".join(str(exc).split()))
            return
        except Exception as exc:  # an error of the program: logged, and the job says so in one line
            log.error("analysis failed", exc_info=exc)
            self._end("failed", f"internal error: {type(exc).__name__}")
            return
        with self.lock:
            if self._stop.is_set():
                return
            self.analysis, self.chart = doc, chart
            self.done, self.state = self.total, "done"

    def _progress(self, done: int, total: int) -> None:
        with self.lock:
            self.done, self.total = done, total
        if self._stop.is_set():
            raise _Cancelled

    def _end(self, state: str, error: str | None = None) -> None:
        with self.lock:
            if self.state not in ENDED:
                self.state, self.error = state, error

    def cancel(self) -> None:
        """Stop the job (module docstring).  Raises ``Conflict`` for a job that has ended."""
        with self.lock:
            if self.state in ENDED:
                raise Conflict(f"the analysis has ended ({self.state}); there is nothing to cancel")
            self._stop.set()
            self.state = "cancelled"
        if self.future is not None:
            self.future.cancel()

    def status(self, now: Sequence[str]) -> dict[str, Any]:
        """The job as the API answers it; ``now``: the game's moves now."""
        with self.lock:
            return {"state": self.state, "done": self.done, "total": self.total, "moves": len(self.subject.moves),
                    "current": tuple(now) == self.subject.moves, "iterations": self.iterations, "seed": self.seed,
                    "workers": self.workers, "error": self.error}

    def result(self) -> tuple[dict[str, Any], str]:
        """The analysis document and its chart.  Raises ``Conflict`` until the job is done."""
        with self.lock:
            if self.state == "done":
                assert self.analysis is not None and self.chart is not None
                return self.analysis, self.chart
            if self.state in ("queued", "running"):
                raise Conflict(f"the analysis is still running ({self.done} of {self.total} moves judged); ask "
                               f"again when its state is done")
            if self.state == "failed":
                raise Conflict(f"the analysis failed: {self.error}")
            raise Conflict("the analysis was cancelled; start it again")

    def review(self, index: object) -> tuple[Position, dict[str, Any]]:
        """The position before move ``index`` (from 0, a number or its text) and the move's review.  Raises
        ``Conflict`` until the job is done, ``OptionError`` for an index out of range."""
        analysis, _ = self.result()
        last = len(self.subject.moves) - 1
        if isinstance(index, str) and index.isdigit() and len(index) < 12:
            index = int(index)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= last:
            raise OptionError(f"move {brief(index)}: must be a whole number from 0 to {last}, the index of a move "
                              f"of the analysis")
        return self.subject.before[index], analysis["moves"][index]


class Analyses:
    """The analysis jobs of one server and the thread pool they run in (module docstring)."""

    def __init__(self, cap: int, workers: int = 1, threads: int = THREADS, limit: int = MAX_JOBS) -> None:
        self.cap = cap
        self.workers = workers
        self.limit = limit
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="kanaloa-analysis")
        self.jobs: list[AnalysisJob] = []  # every job not yet ended, oldest first
        self.lock = threading.Lock()

    def start(self, session: Session, job: AnalysisJob | None, body: dict[str, Any]) -> tuple[AnalysisJob, bool]:
        """The job that answers a start on ``session`` (whose job so far is ``job``) and whether it is new.
        Raises ``OptionError`` for a bad budget, ``Conflict`` for a game with nothing to analyse now, ``Busy``
        when ``MAX_JOBS`` jobs wait or run."""
        iterations, seed = check_request(body, self.cap)
        if job is not None and job.fits(session_moves(session), iterations, seed):
            return job, False
        subject = subject_of(session)
        total = judged_count(subject)
        with self.lock:
            self.jobs = [j for j in self.jobs if j.state not in ENDED]
            if len(self.jobs) >= self.limit:
                raise Busy(f"the server is analysing {len(self.jobs)} games already, its most at once; try again "
                           f"once one has ended")
            new = AnalysisJob(subject, iterations, seed, self.workers, total)
            self.jobs.append(new)
            new.future = self.pool.submit(new.run)
        return new, True

    def shutdown(self) -> None:
        """Cancel every job that waits or runs and let the pool's thread end (the server stops)."""
        with self.lock:
            jobs = list(self.jobs)
        for job in jobs:
            try:
                job.cancel()
            except Conflict:
                continue
        self.pool.shutdown(wait=False, cancel_futures=True)


# -- a move of the analysis on the board ------------------------------------------------------------------------


def plan_hint(position: Position, review: dict[str, Any]) -> Hint | None:
    """The engine's plan of a move's review (``review["plan"]``) as a ``Hint`` for the game's ``svg`` face to
    draw on ``position``, the position before the move; None for a move the analysis did not judge.  The plan is
    drawn as far as its moves are legal in ``position`` (a plan found in the mover's view may draw a card the
    full position deals otherwise); the chances are the caption's, so the hint has no candidate."""
    if not review["analysed"]:
        return None
    line = position.copy()
    plan: list[str] = []
    actions: list[int] = []
    for text in review["plan"]:
        try:
            canonical = str(line.parse(text))
        except KanaloaError:
            break
        action = next((a for a in line.state.legal_actions() if str(line.move_of(a)) == canonical), None)
        if action is None:
            break
        try:
            line.play(canonical)  # as a record: a viewer position takes no action code
        except KanaloaError:
            break
        plan.append(canonical)
        actions.append(action)
    if not plan:
        return None
    return Hint(move=plan[0], plan=plan, candidates=[], iterations=review["iterations"], seconds=0.0,
                actions=tuple(actions))


def move_view(session: Session, job: AnalysisJob, index: object) -> dict[str, Any]:
    """The position before move ``index`` of the analysis with the engine's plan drawn on it, and the move's
    review (docs/web.md "Analysis"); for a replay, its replay view at that move."""
    before, review = job.review(index)
    hint = plan_hint(before, review)
    at = review["index"]
    if isinstance(session, Replay):
        out = session.view(at, hint=hint)
    else:
        out = describe(before, job.subject.rules, False, hint=hint)
        out.update({"at": at, "length": len(job.subject.moves)})
    out.update({"kind": "move", "index": at, "review": review})
    return out


__all__ = [
    "MAX_JOBS",
    "THREADS",
    "Analyses",
    "AnalysisJob",
    "Busy",
    "Subject",
    "analysis_fields",
    "check_request",
    "move_view",
    "plan_hint",
    "session_moves",
    "subject_of",
]
