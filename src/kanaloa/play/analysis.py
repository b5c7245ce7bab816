"""Game analysis: every move of a game graded from what its mover knew, with the win chances for a chart.

``analyse_game(start, moves, ...)`` walks a game from a position through its
moves (``analyse_record`` a recorded game, from its deal) and returns a
``GameAnalysis``: one ``MoveReview`` a move and a summary a player.

**What a move is judged by.**  Each move is judged from its mover's
knowledge at that moment: the search is given the mover's viewer position
(``as_viewer``), never the full state, so two games that differ only in
cards the mover cannot see give that mover's moves the same grades for the
same seed.  A game that hides nothing (its rule set lacks ``viewer``) is
judged from the position itself.  In a viewer position (a followed table),
only the viewer's own moves can be judged; the others' moves are walked
through and left ungraded (``analysed`` is false), since their hands are
unknown.

**Two searches a move**, with the hint engine's settings (``HINT_SETTINGS``)
and the budget given (``DEFAULT_ITERATIONS`` by default):

1. a search of the position before the move: its move (a proven win first,
   else the most visited) is the engine's choice, and that move's win chance
   is the mover's chance **before** the move (the chance with the best play
   the search found);
2. when the move played is not the engine's (nor a later move of the
   engine's plan that may as well be played first, ``same_plan``), a search
   that begins every iteration with the move played (``ISMCTS.search``'s
   ``only``), whose statistics are pooled with the first search's for that
   move: the mover's chance **after** the move played.  Otherwise *after*
   is *before*.

The **loss** is ``before - after`` (never below 0).  A move with one legal
choice is ``forced``; a move of a position where the search proved a win
(the mover ends the game with its win through its own next moves, R8) and
that does not keep the proof throws that win away, and is a blunder
whatever the estimates say.

**Grades**, by the loss in win chance (``GRADES``), where the loss is also
beyond the search's noise (a z test at the 95% level, as the hint's "about
equal" tells candidates apart); below that, ``good``:

============== ===================================================
``best``       the engine's move (or the same plan in another order)
``good``       loss below ``INACCURACY``, or within the noise
``inaccuracy`` loss from ``INACCURACY`` (5 points of win chance)
``mistake``    loss from ``MISTAKE`` (10 points)
``blunder``    loss from ``BLUNDER`` (20 points), or a proven win thrown away
``forced``     the only legal move
============== ===================================================

**Seeds and workers.**  Move ``i``'s searches are seeded by the ``i``-th draw
of ``random.Random(seed)``, so a move's review does not depend on which
worker makes it: with an iteration budget the same game, seed and budget
give the same analysis on any number of workers (a time budget depends on
the machine).  Moves are reviewed in parallel on ``workers`` processes
(``kanaloa.play.pools``).

The JSON form (``GameAnalysis.to_json``, format ``kanaloa-analysis/1``) is
listed key by key in docs/commands.md "analyse --json".
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import MoveError, OptionError, PositionError
from ..search.ismcts import Node
from . import pools
from .hint import ABOUT_EQUAL_Z, ERROR_SCALE, same_plan
from .limits import ANALYSIS_ITERATIONS, SettingError, check_one_budget, worker_count
from .records import GameRecord
from .settings import HINT_SETTINGS, SearchSettings

FORMAT = "kanaloa-analysis/1"
DEFAULT_ITERATIONS = ANALYSIS_ITERATIONS  # per search; two searches for a move that is not the engine's
INACCURACY, MISTAKE, BLUNDER = 0.05, 0.10, 0.20  # losses of win chance that start each grade
GRADES = ("best", "good", "inaccuracy", "mistake", "blunder", "forced")
MARKED = ("inaccuracy", "mistake", "blunder")  # the grades a chart marks and a summary's turning points list
TURNING_POINTS = 3  # the largest losses a player's summary names
# Below this many visits a move's spread of results is taken as at least the binomial one of its win chance with
# one win and one loss added (Laplace's rule), so that a tiny budget, where three wins in three visits would claim
# no error at all, grades less rather than grading noise.
FEW_VISITS = 30


@dataclass(frozen=True)
class MoveReview:
    """One move of the game and, when it could be judged, its judgement (module docstring).

    ``index`` counts the moves from 0; ``player`` is the mover's name (None
    for an entry of a viewer game that is no one's move: the cards turned
    face up, R3, R9).
    ``analysed`` is false for a move whose mover's hand the analysis cannot
    see (another player's move in a viewer position); then ``why`` says so
    and the chances are None.  ``before`` and ``after`` are the mover's win
    chances before and after the move played, ``best`` the engine's move
    (``plan``: its line to the end of the turn), ``loss`` their difference,
    ``error`` the standard error of ``loss``; ``proven``: the search proved a
    win before the move.
    """

    index: int
    player: str | None  # None for a viewer's record of the cards turned face up, which is no one's move
    move: str
    analysed: bool = True
    choices: int = 0
    grade: str | None = None
    before: float | None = None
    after: float | None = None
    best: str | None = None
    plan: tuple[str, ...] = ()
    loss: float | None = None
    error: float | None = None
    proven: bool = False
    iterations: int = 0
    why: str | None = None

    def to_json(self) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 4)

        return {"index": self.index, "player": self.player, "move": self.move, "analysed": self.analysed,
                "choices": self.choices, "grade": self.grade, "before": r(self.before), "after": r(self.after),
                "best": self.best, "plan": list(self.plan), "loss": r(self.loss), "error": r(self.error),
                "proven": self.proven, "iterations": self.iterations, "why": self.why}


@dataclass(frozen=True)
class PlayerSummary:
    """A player's moves in sum: how many were judged, their mean loss, the count of each grade, and the
    turning points (the largest losses graded an inaccuracy or worse, at most ``TURNING_POINTS``)."""

    player: str
    moves: int
    decisions: int  # judged moves with more than one legal choice
    mean_loss: float | None
    grades: dict[str, int]
    turning_points: tuple[int, ...]  # move indexes

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "moves": self.moves, "decisions": self.decisions,
                "mean_loss": None if self.mean_loss is None else round(self.mean_loss, 4),
                "grades": dict(self.grades), "turning_points": list(self.turning_points)}


@dataclass(frozen=True)
class GameAnalysis:
    """The analysis of one game: the rule set, the players, every move's review and each player's summary."""

    game: str
    params: dict[str, Any]
    description: str
    players: tuple[str, ...]
    colors: tuple[str, ...]  # the color each player is drawn in (a chart's lines)
    viewer: str | None
    reviews: tuple[MoveReview, ...]
    summaries: tuple[PlayerSummary, ...]
    iterations: int | None
    seconds: float | None
    seed: int
    workers: int
    record: int | None = None  # the game's index in its records file, when analysed from one
    result: dict[str, Any] | None = field(default=None)  # the outcome when the moves end the game
    span: tuple[int, int] | None = None  # the first and the last move judged (numbers from 1)
    interrupted: bool = False  # Ctrl-C stopped the analysis: the moves not finished are not analysed

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "game": self.game, "params": self.params, "description": self.description,
                "record": self.record, "players": list(self.players), "colors": list(self.colors),
                "viewer": self.viewer, "budget": {"iterations": self.iterations, "seconds": self.seconds},
                "seed": self.seed, "workers": self.workers, "result": self.result,
                "span": list(self.span) if self.span is not None else None, "interrupted": self.interrupted,
                "moves": [r.to_json() for r in self.reviews], "summary": [s.to_json() for s in self.summaries]}

    def summary_lines(self) -> list[str]:
        """The analysis for people: one line a graded move (an inaccuracy or worse), then each player's sum."""
        lines = [f"{self.description}: {len(self.reviews)} moves, "
                 f"{sum(1 for r in self.reviews if r.analysed)} analysed, seed {self.seed}"
                 + ("; interrupted" if self.interrupted else "")]
        for r in self.reviews:
            if r.grade in MARKED:
                assert r.before is not None and r.after is not None and r.loss is not None
                lines.append(f"  move {r.index + 1:>3}  {r.player:<8} {r.move:<22} {r.grade:<10} "
                             f"win {_pct(r.before)} -> {_pct(r.after)}  (-{_pct(r.loss)}); best {r.best}")
        lines.append("")
        width = max(len(p) for p in self.players)
        head = "  ".join(f"{g:>10}" for g in GRADES)
        lines.append(f"{'player':<{width}}  {'moves':>5}  {'mean loss':>9}  {head}")
        for s in self.summaries:
            loss = "-" if s.mean_loss is None else _pct(s.mean_loss)
            counts = "  ".join(f"{s.grades[g]:>10}" for g in GRADES)
            lines.append(f"{s.player:<{width}}  {s.moves:>5}  {loss:>9}  {counts}")
        return lines


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


# -- one move ----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Task:
    """What a worker needs to review one move: the mover's position as JSON text, the action code of the
    choice the move made (``decision_of``; the position read back has the same engine state, so the same
    codes) and the move as recorded."""

    index: int
    seed: int
    position: str
    action: int
    move: str
    player: str


def _pooled(nodes: Sequence[Node | None]) -> tuple[int, float, float]:
    """Visits, win chance and its standard error (times ``ERROR_SCALE``) of one move over several searches."""
    visits = sum(n.visits for n in nodes if n is not None)
    if not visits:
        return 0, 0.0, 0.5
    wins = sum(n.wins for n in nodes if n is not None)
    wins2 = sum(n.wins2 for n in nodes if n is not None)
    win = wins / visits
    spread = max(wins2 / visits - win * win, 0.0)
    if visits < FEW_VISITS:  # a few results that happen to agree do not make a certain estimate
        smoothed = (wins + 1) / (visits + 2)
        spread = max(spread, smoothed * (1 - smoothed))
    return visits, win, ERROR_SCALE * math.sqrt(spread / visits)


def grade_of(loss: float, error: float, *, best: bool, forced: bool, threw_proof: bool) -> str:
    """The grade of a move (module docstring): by its loss, where the loss is beyond the noise ``error``."""
    if forced:
        return "forced"
    if threw_proof:
        return "blunder"
    if best:
        return "best"
    if loss < INACCURACY or loss <= ABOUT_EQUAL_Z * error:
        return "good"
    if loss < MISTAKE:
        return "inaccuracy"
    if loss < BLUNDER:
        return "mistake"
    return "blunder"


def review_move(position: Any, move: str, seed: int, iterations: int | None, seconds: float | None,
                settings: SearchSettings = HINT_SETTINGS, index: int = 0) -> MoveReview:
    """The review of ``move`` (notation, as recorded) played in ``position``, which its mover sees (a viewer
    position of the mover's, or a position of a game that hides nothing).  Raises ``MoveError`` for a move
    that is none of the mover's legal moves there."""
    rs = position.ruleset
    face = rs.game_type.face("hint")
    state = face.state_of(position)
    played = position.decision_of(move)
    return _review(rs, face, state, played, str(position.parse(move)), position.to_move, seed, iterations, seconds,
                   settings, index)


def _review(rs: Any, face: Any, state: Any, played: int, shown: str, mover: str, seed: int, iterations: int | None,
            seconds: float | None, settings: SearchSettings, index: int) -> MoveReview:
    """The review of action ``played`` in engine state ``state`` (the mover's view), recorded as ``shown``."""
    actions = list(state.legal_actions())
    game = settings.game(rs)
    rng = random.Random(seed)
    first = settings.searcher(rng.getrandbits(63)).search(game.wrap(state), iterations, seconds)
    spent = first.iterations
    found = first.candidates()
    best = found[0]
    line = first.principal_line()
    plan = []
    after_line = state.copy()
    for a in line:
        plan.append(face.move_name(rs, after_line, a))
        after_line.apply(a)
    kids = first.root.children
    _, best_win, best_error = _pooled([kids.get(best.action)])
    keeps_plan = played == best.action or same_plan(state, line, played, face.plan_end)
    played_node = kids.get(played)
    if keeps_plan:
        after, error = best_win, 0.0
        played_proven = best.proven
    else:
        more = settings.searcher(rng.getrandbits(63)).search(game.wrap(state), iterations, seconds, only=played)
        spent += more.iterations
        nodes = [played_node, more.root.children.get(played)]
        _, after, after_error = _pooled(nodes)
        played_proven = any(n is not None and n.proven for n in nodes)
        error = math.hypot(best_error, after_error)
    before = 1.0 if best.proven else best_win
    threw = best.proven and not played_proven
    if played_proven:
        after = 1.0
    loss = max(0.0, before - after)
    grade = grade_of(loss, error, best=keeps_plan or (best.proven and played_proven), forced=len(actions) == 1,
                     threw_proof=threw)
    return MoveReview(index, mover, shown, True, len(actions), grade, before, after, plan[0] if plan else
                      face.move_name(rs, state, best.action), tuple(plan), loss, error, best.proven, spent)


def _review_task(settings: SearchSettings, iterations: int | None, seconds: float | None, position_class: Any,
                 task: _Task) -> MoveReview:
    """A worker's review of one move, on the position read back from its JSON."""
    position = position_class.from_json(task.position)
    rs = position.ruleset
    face = rs.game_type.face("hint")
    return _review(rs, face, face.state_of(position), task.action, task.move, task.player, task.seed, iterations,
                   seconds, settings, task.index)


# -- a whole game ------------------------------------------------------------------------------------------------

def _seen_by_mover(pos: Any) -> tuple[Any | None, str | None]:
    """The position as its mover sees it, or None and why the mover's move cannot be judged."""
    rs = pos.ruleset
    mover = pos.to_move
    if rs.lacks("viewer"):
        return pos, None
    if pos.viewer is not None:
        if pos.viewer != mover:
            return None, f"{mover}'s hand is unknown to {pos.viewer}'s view"
        seen = pos
    else:
        seen = pos.as_viewer(mover)
    if seen.waiting is not None:
        return None, f"the view waits for {seen.waiting}"
    return seen, None


def walk(start: Any, moves: Sequence[str], span: range | None = None) -> tuple[list[MoveReview | _Task], Any]:
    """Play ``moves`` from ``start`` (a copy): for each, an unjudged review (when its mover's hand is
    unknown, or the move's index is outside ``span``) or a task carrying its mover's view; and the final
    position.  Raises ``MoveError`` naming the move's number for a move that does not fit."""
    pos = start.copy()
    out: list[MoveReview | _Task] = []

    @contextlib.contextmanager
    def numbered(i: int) -> Iterator[None]:  # a move that does not fit, named by its number
        try:
            yield
        except (MoveError, PositionError) as exc:
            raise MoveError(f"move {i + 1} of {len(moves)}: {exc}") from None

    for i, text in enumerate(moves):
        if pos.is_over:
            raise MoveError(f"move {i + 1} of {len(moves)}: {text}: the game is already over")
        if pos.waiting is not None:  # a viewer's record of the cards turned face up (R3, R9): no one's move
            with numbered(i):
                pos.play(text)
            out.append(MoveReview(i, None, text.strip(), analysed=False, why="the cards turned face up, no move"))
            continue
        mover = pos.to_move
        with numbered(i):
            canonical = str(pos.parse(text))
        seen, why = _seen_by_mover(pos) if span is None or i in span else (None, "outside the moves analysed")
        if seen is None:
            out.append(MoveReview(i, mover, canonical, analysed=False, why=why))
        else:
            with numbered(i):
                out.append(_Task(i, 0, seen.dumps(), seen.decision_of(text), canonical, mover))
        with numbered(i):
            pos.play(text)
    return out, pos


def summarise(players: Sequence[str], reviews: Sequence[MoveReview]) -> tuple[PlayerSummary, ...]:
    """Each player's ``PlayerSummary`` of ``reviews``."""
    out = []
    for p in players:
        mine = [r for r in reviews if r.player == p and r.analysed]
        decisions = [r for r in mine if r.grade != "forced"]
        losses = [r.loss for r in decisions if r.loss is not None]
        counts = {g: sum(1 for r in mine if r.grade == g) for g in GRADES}
        marked = sorted((r for r in mine if r.grade in MARKED), key=lambda r: (-(r.loss or 0.0), r.index))
        out.append(PlayerSummary(p, len(mine), len(decisions), sum(losses) / len(losses) if losses else None,
                                 counts, tuple(sorted(r.index for r in marked[:TURNING_POINTS]))))
    return tuple(out)


def check_analysis_budget(iterations: int | None, seconds: float | None) -> tuple[int | None, float | None]:
    """The budget of each search: the one given, or ``DEFAULT_ITERATIONS``; ``SettingError`` for a bad one."""
    iterations, seconds = check_one_budget(iterations, seconds)
    if iterations is None and seconds is None:
        return DEFAULT_ITERATIONS, None
    return iterations, seconds


def analyse_game(start: Any, moves: Sequence[str], *, iterations: int | None = None, seconds: float | None = None,
                 seed: int = 0, workers: int = 1, settings: SearchSettings = HINT_SETTINGS,
                 progress: Callable[[int, int], None] | None = None, record: int | None = None,
                 first: int | None = None, last: int | None = None, interruptible: bool = False) -> GameAnalysis:
    """The analysis of ``moves`` (notation) played from position ``start`` (module docstring).

    ``first`` and ``last`` (move numbers from 1, both included; None: the
    first and the last move) choose the moves judged; the others are walked
    through.  ``progress(done, total)`` is called once the moves are known
    to fit (``done`` 0), then as each judged move is done.  With
    ``interruptible``, Ctrl-C (``KeyboardInterrupt``) stops the work: the
    analysis of the moves finished is returned, ``interrupted`` set, the
    others not analysed.  Raises
    ``MoveError`` (naming the move) for a move that does not fit,
    ``SettingError`` for a bad budget, ``workers`` or move range, and
    ``OptionError`` when there is no move to analyse.
    """
    iterations, seconds = check_analysis_budget(iterations, seconds)
    workers = worker_count(workers)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
        raise SettingError("seed", "must be a whole number from 0 to 2**64-1", seed)
    if not moves:
        raise OptionError("moves: there is no move to analyse")
    low = 1 if first is None else first
    high = len(moves) if last is None else last
    for name, value in (("first", first), ("last", last)):
        whole = isinstance(value, int) and not isinstance(value, bool)
        if value is not None and not (whole and 1 <= value <= len(moves)):
            raise SettingError(name, f"must be a move number from 1 to {len(moves)}", value)
    if low > high:
        raise SettingError(("first", "last"), f"the first move to analyse, {low}, comes after the last, {high}")
    rs = start.ruleset
    settings.check(rs)
    walked, final = walk(start, moves, range(low - 1, high))
    rng = random.Random(seed)
    seeds = [rng.getrandbits(63) for _ in walked]
    tasks = [dataclasses.replace(w, seed=s) for w, s in zip(walked, seeds, strict=True) if isinstance(w, _Task)]
    position_class = rs.game_type.face("position")
    runner: Iterator[MoveReview]
    if workers == 1 or len(tasks) < 2:
        runner = pools.serial(_review_task, tasks, settings, iterations, seconds, position_class)
    else:
        runner = pools.process_pool(_review_task, tasks, min(workers, len(tasks)), settings, iterations, seconds,
                                    position_class, ordered=True)
    done: dict[int, MoveReview] = {}
    if progress is not None:
        progress(0, len(tasks))
    interrupted = False
    try:
        for review in runner:
            done[review.index] = review
            if progress is not None:
                progress(len(done), len(tasks))
    except KeyboardInterrupt:
        if not interruptible:
            raise
        interrupted = True
    finally:
        close = getattr(runner, "close", None)
        if close is not None:
            close()

    def review_of(w: MoveReview | _Task) -> MoveReview:
        if not isinstance(w, _Task):
            return w
        return done.get(w.index) or MoveReview(w.index, w.player, w.move, analysed=False,
                                               why="not analysed: the analysis was interrupted")

    reviews = tuple(review_of(w) for w in walked)
    players = tuple(rs.seat_names)
    result = None
    if final.is_over:
        outcome = final.outcome
        result = {"winner": outcome.get("winner"), "ranking": outcome.get("ranking"), "reason": outcome.get("reason"),
                  "scores": list(final.seat_scores)}
    return GameAnalysis(rs.game, dict(rs.params()), rs.describe(), players, tuple(rs.seat_colors), start.viewer,
                        reviews, summarise(players, reviews), iterations, seconds, seed, workers, record, result,
                        (low, high), interrupted)


def analyse_record(rec: GameRecord, **options: Any) -> GameAnalysis:
    """The analysis of a recorded game, from its deal (``analyse_game``'s options)."""
    from ..position import deal_position

    start = deal_position(rec.ruleset, rec.seed)
    return analyse_game(start, rec.moves, record=rec.index, **options)
