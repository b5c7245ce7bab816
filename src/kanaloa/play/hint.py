"""Move hints: the best move for the player to move, from what that player knows.

``hint(position, ...)`` runs ISMCTS (``kanaloa.search.ISMCTS``) for the player
to move and returns a ``Hint``: the move, the plan (the most visited line of
the mover's own moves to the end of the turn, starting with the move), the
candidates with their visits, win chance and its 95% interval, which of them
the search cannot tell apart from the best ("about equal"), what the plan
gains (islands and points, R2 and R11) and the final points the search
expects for every color.  When the tree's line stops before the end of the
turn (a small budget), short follow-up searches from its end complete the
plan.

**Settings.**  Every search setting lives in one place, ``HINT_SETTINGS``
(a ``SearchSettings``): the hint, the command and anything else that
searches "as hints do" read it from there.  ``hint`` takes keyword
overrides (``c``, ``margin``, ``prior``, ``policy``, or a whole
``settings``).

**Budget.**  ``iterations`` (shared among the workers) or ``seconds`` of
wall time, within the bounds of ``kanaloa.play.limits`` (at most
1,000,000,000 iterations or a day); neither means ``DEFAULT_SECONDS``.
``workers`` is 1 to 4 a core (0: one a core).  With ``workers`` > 1 the
search is root-parallel (``kanaloa.play.parallel``): every worker process
searches the position with its own seed, and their root statistics and plan
subtrees are summed.  Worker w's seed is the w-th draw of
``random.Random(seed)``, and the draws after them seed the completion
searches, so the same position, seed, ``iterations`` and ``workers`` give
the same hint; a time budget depends on the machine.

**Anytime.**  ``progress`` is called about every ``PROGRESS_EVERY`` seconds
with a ``HintProgress`` (iterations so far, the best move so far and its win
chance); ``stop`` ends the search early, and the hint of what was found so
far is returned with ``interrupted`` set.  With ``interruptible`` (the
command) Ctrl-C does that, as ``kanaloa.play.interrupt`` takes it from
polled work: the first SIGINT stops the search, a second one makes ``hint``
raise ``KeyboardInterrupt`` (at its next check, within a few iterations),
and a third one goes to the handler before.

**Memory.**  Each worker's tree stops growing at ``max_nodes`` nodes
(``SearchSettings.max_nodes``, ``NODE_BYTES`` bytes a node): later
iterations refine the statistics of the tree it has, so any budget runs in
bounded memory (docs/hints.md "Memory").

Only what the mover knows is used, even for a full position: every iteration
of the search starts from a fresh determinisation drawn from the mover's
knowledge (docs/engine.md "Knowledge"), so two positions that differ
only in cards the mover cannot see give the same hint for the same seed.
"""

from __future__ import annotations

import dataclasses
import html
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import PositionError
from ..rules.board import Board
from ..rules.core import CoreState
from ..rules.ruleset import Ruleset, ruleset_for_state
from ..search import Candidate
from . import parallel
from .family_hint import FAMILY_HINT
from .interrupt import CtrlC
from .limits import SettingError, check_one_budget, worker_count
from .settings import HINT_SETTINGS, SearchSettings

if TYPE_CHECKING:
    from ..position.api import Position

DEFAULT_SECONDS = 2.0  # the budget when neither iterations nor seconds is given: wall time, on every worker
DEFAULT_TOP = 5
# When the tree's most visited line stops before the end of the turn, short searches complete the plan.
COMPLETION_ITERATIONS = 300
COMPLETION_SHARE = 0.1  # of a time budget, kept for those searches
PROGRESS_EVERY = 0.5  # seconds between two progress reports
# Measured on the bundled mid-game example (100,000 nodes: 340 bytes a node by tracemalloc, 355 by the
# process's resident size): a tree node with its children dict, its floats and its key; docs/hints.md "Memory".
NODE_BYTES = 350

# "About equal" (``about_equal``).  A candidate is about equal to the best (the most visited move) when a
# two-sample z test at the 95% level cannot tell their win chances apart: the difference is at most
# ABOUT_EQUAL_Z standard errors of the difference.  A candidate the search tried less than
# ABOUT_EQUAL_MIN_SHARE times as often as the best is never about equal: its interval is wide because it was
# barely tried (the search judged it worse early), not because it might be as good.
# A later move of the plan that may be played first, reaching the same position (``same_plan``), is about
# equal too, whatever its statistics: the search splits one plan's visits over the orders of its moves, and
# the order it happened to search most looks best.
ABOUT_EQUAL_Z = 1.96
ABOUT_EQUAL_MIN_SHARE = 0.05
INTERVAL_Z = 1.96  # a candidate's 95% interval: win +- INTERVAL_Z standard errors, clipped to [0, 1]
# The standard error a hint states for a win chance is the search's (``Candidate.error``: the spread of the
# move's results over sqrt(visits), the binomial sqrt(win * (1 - win) / visits) where every result is 0 or 1)
# times ERROR_SCALE.  The search's iterations are not independent draws (each move's estimate also depends on
# how well its subtree happened to be searched), so win estimates spread more from seed to seed than the
# results' spread says; ``kanaloa steadiness`` measures by how much (its error ratio), and this is that
# measured ratio (docs/hints.md "Steadiness").
ERROR_SCALE = 1.6


@dataclass(frozen=True)
class HintCandidate:
    """A root move: its notation, how often the search tried it, and the mover's estimated win chance.

    ``error`` is the standard error of ``win`` (the search's error times
    ``ERROR_SCALE``, see there), ``about_equal`` says that the
    search cannot tell it apart from the best move (``about_equal``) or
    that it is a later move of the plan that may as well be played first
    (``same_plan``, which makes it about equal too), and ``points`` is the
    mean final points of every color in the games that began with it (by
    color name, in ``scores`` order).  ``proven``: the search proved that
    the move wins for certain (the mover can end the game with its win in
    its own next moves, R8), whatever the hidden cards.
    """

    move: str
    visits: int
    win: float
    error: float = 0.0
    about_equal: bool = False
    points: dict[str, float] = field(default_factory=dict)
    proven: bool = False  # the mover can force a win with this move and its own moves after it
    same_plan: bool = False  # a later move of the plan: played first, the plan reaches the same position

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of ``win``: ``win`` +- ``INTERVAL_Z`` standard errors, clipped to [0, 1]."""
        return interval(self.win, self.error)


@dataclass(frozen=True)
class HintProgress:
    """A search under way: iterations so far (all workers), time, the most visited move and its win chance."""

    iterations: int
    seconds: float
    move: str
    win: float


@dataclass(frozen=True)
class Hint:
    """What ``hint`` returns; ``to_json`` gives the ``hint --json`` form (docs/commands.md, "hint --json").

    ``candidates`` are the ``top`` most visited moves and every move about
    equal to the best beyond them; ``about_equal`` names the moves about
    equal to the best (the best first); ``gains`` maps each color of the
    mover to its gain (what it holds is the game's ``hint`` face's to say;
    each has ``to_json()`` and ``describe()``); ``expected_points`` the mean
    final points of every color over the whole search.
    """

    move: str
    plan: list[str]
    candidates: list[HintCandidate]
    iterations: int
    seconds: float
    actions: tuple[int, ...] = field(default=(), compare=False, repr=False)  # the plan as action codes
    about_equal: tuple[str, ...] = ()
    expected_points: dict[str, float] = field(default_factory=dict)
    gains: dict[str, Any] = field(default_factory=dict)  # name -> the game's gain (``to_json``, ``describe``)
    workers: int = 1
    interrupted: bool = False
    nodes: int = field(default=0, compare=False)  # tree nodes the main search made, all workers together
    points_name: str = field(default="points", compare=False)  # what the points count (the rule set's score_name)

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "plan": list(self.plan),
            "candidates": [{"move": c.move, "visits": c.visits, "win": round(c.win, 4),
                            "interval": [round(x, 4) for x in c.interval], "error": round(c.error, 4),
                            "about_equal": c.about_equal, "same_plan": c.same_plan, "points": _rounded(c.points),
                            "proven": c.proven}
                           for c in self.candidates],
            "iterations": self.iterations,
            "seconds": round(self.seconds, 3),
            "about_equal": list(self.about_equal),
            "expected_points": _rounded(self.expected_points),
            "gains": {color: gain.to_json() for color, gain in self.gains.items()},
            "workers": self.workers,
            "nodes": self.nodes,
            "interrupted": self.interrupted,
        }


    def _repr_html_(self) -> str:
        """The hint as a small table, which Jupyter shows for a hint: the move and its plan, then each
        candidate's visits, win chance with its 95% interval, and whether it is about equal to the best."""
        esc = html.escape
        rows = []
        for c in self.candidates:
            low, high = c.interval
            mark = "proven win" if c.proven else ("about equal" if c.about_equal else "")
            best = c.move == self.move
            cells = [f"<b>{esc(c.move)}</b>" if best else esc(c.move), f"{c.visits:,}", f"{100 * c.win:.1f}%",
                     f"{100 * low:.1f}-{100 * high:.1f}%", esc(mark)]
            rows.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
        head = "".join(f"<th>{h}</th>" for h in ("move", "visits", "win", "95% interval", ""))
        stopped = ", interrupted" if self.interrupted else ""
        caption = (f"hint: <b>{esc(self.move)}</b>; plan {esc(' '.join(self.plan))} "
                   f"({self.iterations:,} iterations, {self.seconds:.1f} s{stopped})")
        return (f"<table class=\"kanaloa-hint\"><caption>{caption}</caption><thead><tr>{head}</tr></thead>"
                f"<tbody>{''.join(rows)}</tbody></table>")


def _rounded(points: dict[str, float]) -> dict[str, float]:
    return {color: round(p, 2) for color, p in points.items()}


def interval(win: float, error: float) -> tuple[float, float]:
    """``win`` +- ``INTERVAL_Z`` x ``error``, clipped to [0, 1]."""
    return max(0.0, win - INTERVAL_Z * error), min(1.0, win + INTERVAL_Z * error)


def same_plan(state: Any, line: Sequence[int], action: int, plan_end: Callable[[Any], Any] | None = None) -> bool:
    """Whether ``action``, a later move of the plan ``line`` from ``state``, may as well be played first.

    True when moving it to the front (the other moves keeping their order)
    is legal at every step, leaves the move with the same player throughout,
    and ends in the position the line ends in, but for the order of the open
    discards: that order is never used but by a reshuffle (R9), which
    shuffles them.  Builds on far apart islands commute like this; builds
    whose effects meet (an R6 sweep, an R7 removal) may not.  ``plan_end``
    gives what is compared of the two ends (the game's ``hint`` face's;
    by default the family's).
    """
    end_of = FAMILY_HINT.plan_end if plan_end is None else plan_end
    if action not in line[1:]:
        return False
    rest = list(line)
    rest.remove(action)
    mover = state.to_move
    ends = []
    for order in (line, [action, *rest]):
        s = state.copy()
        for a in order:
            if s.is_over or s.to_move != mover or not s.is_legal(a):
                return False
            s.apply(a)
        ends.append(end_of(s))
    return ends[0] == ends[1]


def about_equal(best: Candidate | HintCandidate, other: Candidate | HintCandidate) -> bool:
    """Whether the search cannot tell ``other`` apart from ``best`` (the first candidate: a proven win, else
    the most visited move).

    A proven win (``proven``) is about equal only to another proven win.
    Otherwise, true when ``other`` had at least ``ABOUT_EQUAL_MIN_SHARE`` of
    ``best``'s visits and their win chances differ by at most
    ``ABOUT_EQUAL_Z`` standard errors of the difference,
    ``sqrt(error_best² + error_other²)`` (a two-sample z test at 95%; the
    errors are the hint's stated ones, ``ERROR_SCALE`` times the search's).
    ``best`` is about equal to itself.  Two moves with the same win chance
    and no error at all (every game lost, say) are about equal; different
    ones without error are not.
    """
    if best.proven or other.proven:
        return best.proven and other.proven
    if other.visits < ABOUT_EQUAL_MIN_SHARE * best.visits:
        return False
    return abs(best.win - other.win) <= ABOUT_EQUAL_Z * math.sqrt(best.error ** 2 + other.error ** 2)


def format_progress(p: HintProgress) -> str:
    """The live line of a search under way: ``searching: 12,345 iterations, 1.5 s; best so far MOVE (win 41.2%)``."""
    best = f"; best so far {p.move} (win {100 * p.win:.1f}%)" if p.move else ""
    return f"searching: {p.iterations:,} iterations, {p.seconds:.1f} s{best}"


def check_budget(iterations: int | None, seconds: float | None) -> tuple[int | None, float | None]:
    """The budget to search with: the one given, or ``DEFAULT_SECONDS``.

    Raises ``SettingError`` (``kanaloa.play.limits``, naming ``iterations``
    or ``seconds``) for both budgets at once, or one beyond its bounds.
    """
    iterations, seconds = check_one_budget(iterations, seconds)
    if iterations is None and seconds is None:
        return None, DEFAULT_SECONDS
    return iterations, seconds


def hint(position: Position, iterations: int | None = None, seconds: float | None = None, seed: int = 0,
         top: int = DEFAULT_TOP, c: float | None = None, margin: float | None = None, policy: int | None = None,
         prior: float | None = None, *, workers: int = 1, settings: SearchSettings = HINT_SETTINGS,
         progress: Callable[[HintProgress], None] | None = None, stop: Callable[[], bool] | None = None,
         interruptible: bool = False) -> Hint:
    """The hint for the player to move in ``position`` (a ``kanaloa.position.Position``).

    The budget is ``iterations`` or ``seconds`` (default
    ``DEFAULT_SECONDS``), on ``workers`` processes (1: this one).  ``seed``
    fixes every random choice, so the same position, iterations, seed and
    workers give the same hint.  ``c``, ``margin``, ``prior`` and ``policy``
    override ``settings``.  ``progress``, ``stop`` and ``interruptible``: see
    the module docstring.  Raises ``PositionError`` when the game is over or
    the mover's hand is unknown to the position, ``SettingError``
    (``kanaloa.play.limits``, naming the parameter) for a bad budget,
    ``top``, ``workers`` (0: one per core) or setting.
    """
    iterations, seconds = check_budget(iterations, seconds)
    check_top(top)
    workers = worker_count(workers)
    if position.is_over:
        raise PositionError("round: the game is over; there is no move to suggest")
    mover = position.to_move
    if position.viewer is not None and position.viewer != mover:
        raise PositionError(
            f"viewer: the position is seen by {position.viewer}, but {mover} is to move and "
            f"{mover}'s hand is unknown to it"
        )
    if position.waiting is not None:  # a viewer position waiting for a faceup record (R3, R9)
        from ..position.api import WaitingError

        raise WaitingError(position.waiting)
    face = position.ruleset.game_type.face("hint")
    return search_hint(face.state_of(position), position.ruleset, face, iterations=iterations, seconds=seconds,
                       seed=seed, top=top, c=c, margin=margin, policy=policy, prior=prior, workers=workers,
                       settings=settings, progress=progress, stop=stop, interruptible=interruptible)


def check_top(top: object) -> None:
    """Raise ``SettingError`` (``top``) unless ``top`` is a whole number of at least 1."""
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise SettingError("top", "must be a whole number of at least 1", top)


def hint_state(core: CoreState, board: Board, iterations: int | None = None, seconds: float | None = None,
               seed: int = 0, top: int = DEFAULT_TOP, c: float | None = None, margin: float | None = None,
               policy: int | None = None, prior: float | None = None, colors: Sequence[str] | None = None, *,
               ruleset: Ruleset | None = None, workers: int = 1, settings: SearchSettings = HINT_SETTINGS,
               progress: Callable[[HintProgress], None] | None = None, stop: Callable[[], bool] | None = None,
               interruptible: bool = False) -> Hint:
    """The hint for the player to move in a ``kanaloa_core.CoreState`` (not modified) on ``board``.

    The budget is checked as ``hint`` checks it (``check_budget``).  With a time budget,
    ``COMPLETION_SHARE`` of it is kept for completing the plan.  ``ruleset``
    is the game's rule set (by default the one the state plays, with
    ``colors``, the color names by index as ``Position.colors`` gives them,
    or the game's own): it names the moves (a 2-player game's builds name
    their color, R15.3), the points and the gains.  The other options are
    ``hint``'s.
    """
    rs = ruleset if ruleset is not None else ruleset_for_state(board, core.to_data(), colors)
    return search_hint(core, rs, FAMILY_HINT, iterations=iterations, seconds=seconds, seed=seed, top=top, c=c,
                       margin=margin, policy=policy, prior=prior, workers=workers, settings=settings,
                       progress=progress, stop=stop, interruptible=interruptible)


def search_hint(core: Any, rs: Any, face: Any, iterations: int | None = None, seconds: float | None = None,
                seed: int = 0, top: int = DEFAULT_TOP, c: float | None = None, margin: float | None = None,
                policy: int | None = None, prior: float | None = None, *, workers: int = 1,
                settings: SearchSettings = HINT_SETTINGS, progress: Callable[[HintProgress], None] | None = None,
                stop: Callable[[], bool] | None = None, interruptible: bool = False) -> Hint:
    """The hint for the player to move in engine state ``core`` (not modified) of rule set ``rs``, any
    registered game: ``face`` is the game's ``hint`` face (``state_of``, ``move_name``, ``gains``,
    ``plan_end``; ``kanaloa.play.family_hint`` says what each is).  The other options are ``hint``'s."""
    clock = time.perf_counter
    started = clock()
    iterations, seconds = check_budget(iterations, seconds)
    check_top(top)
    workers = worker_count(workers)
    overrides: dict[str, Any] = {k: v for k, v in (("c", c), ("margin", margin), ("policy", policy),
                                                   ("prior", prior)) if v is not None}
    if overrides:
        settings = dataclasses.replace(settings, **overrides)
    settings.check(rs)
    rng = random.Random(seed)
    shares = parallel.split_iterations(iterations, workers) if iterations is not None else None
    seeds = [rng.getrandbits(63) for _ in range(workers)][:len(shares) if shares is not None else workers]
    main_seconds = seconds * (1.0 - COMPLETION_SHARE) if seconds is not None else None
    mover = core.to_move

    def name(action: int, state: Any = core) -> str:
        return face.move_name(rs, state, action)

    ctrl_c = CtrlC(polled=True, enabled=interruptible)

    def stopped() -> bool:
        return ctrl_c.check() or (stop is not None and stop())  # a second Ctrl-C raises KeyboardInterrupt

    report = None
    if progress is not None:
        show = progress

        def report(s: parallel.Snapshot) -> None:
            show(HintProgress(s.iterations, s.seconds, name(s.action) if s.action >= 0 else "", s.win))

    game = settings.game(rs)
    with ctrl_c:
        result = parallel.run(core, rs, settings, seeds, shares, main_seconds, stop=stopped, progress=report,
                              progress_every=PROGRESS_EVERY)
        line = result.principal_line()
        names = []  # each move of the line named in the state it is played in
        after = core.copy()
        for action in line:
            names.append(name(action, after))
            after.apply(action)
        spent = result.iterations
        interrupted = result.interrupted
        # The tree may end before the turn does: search on from the end of the line until the turn is over,
        # that is until the game is over or the engine gives the move to another player.  (After Ctrl-C
        # these searches stop at once, after their first few iterations.)
        while not after.is_over and after.to_move == mover:
            left = None
            if seconds is not None:
                left = max(seconds - (clock() - started), 1e-6)
            more = settings.searcher(rng.getrandbits(63)).search(game.wrap(after), COMPLETION_ITERATIONS, left,
                                                                 stop=stopped)
            spent += more.iterations
            interrupted = interrupted or more.interrupted
            for action in more.principal_line():
                line.append(action)
                names.append(name(action, after))
                after.apply(action)
                if after.is_over or after.to_move != mover:
                    break
        interrupted = interrupted or ctrl_c.stopped  # Ctrl-C, even after the last search ended

    def by_color(points: Sequence[float]) -> dict[str, float]:
        return {rs.colors[c]: points[c] for c in rs.color_order} if points else {}

    found = result.candidates()
    same = [same_plan(core, line, cand.action, face.plan_end) for cand in found]
    # A proven best move's line ends in the win, so a move of it that may be played first wins for certain too.
    ranked = [HintCandidate(name(cand.action), cand.visits, cand.win, ERROR_SCALE * cand.error, False,
                            by_color(cand.points), cand.proven or (found[0].proven and also), also)
              for cand, also in zip(found, same, strict=True)]
    best = ranked[0]
    equal = [cand.same_plan or about_equal(best, cand) for cand in ranked]
    shown = [dataclasses.replace(cand, about_equal=eq)
             for i, (cand, eq) in enumerate(zip(ranked, equal, strict=True)) if i < top or eq]
    return Hint(
        move=names[0],
        plan=names,
        candidates=shown,
        iterations=spent,
        seconds=clock() - started,
        actions=tuple(line),
        about_equal=tuple(cand.move for cand, eq in zip(ranked, equal, strict=True) if eq),
        expected_points=by_color(result.points),
        gains=face.gains(rs, core, after, mover),
        workers=len(seeds),
        interrupted=interrupted,
        nodes=result.nodes,
        points_name=rs.score_name,
    )
