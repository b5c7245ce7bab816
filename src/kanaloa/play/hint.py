"""Move hints: the best move for the player to move, from what that player knows.

``hint(position, ...)`` runs ISMCTS (``kanaloa.search.ISMCTS``) for the player
to move and returns a ``Hint``: the move, the plan (the most visited line of
the mover's own moves to the end of the turn, starting with the move), the
leading candidates with their visits and estimated chance of winning, and the
budget spent.  When the tree's line stops before the end of the turn (a small
budget), short follow-up searches from its end complete the plan.

Only what the mover knows is used, even for a full position: every iteration
of the search starts from a fresh determinisation drawn from the mover's
knowledge (docs/engine.md "Determinisation"), so two positions that differ
only in cards the mover cannot see give the same hint for the same seed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import OptionError, PositionError
from ..position.notation import COLORS, Move, seat_colors
from ..rules.board import Board
from ..rules.core import POLICY_HEURISTIC, CoreState
from ..rules.engine import load_engine
from ..search import ISMCTS
from .game import KanaloaGame

if TYPE_CHECKING:
    from ..position.api import Position

DEFAULT_ITERATIONS = 5000
DEFAULT_TOP = 5
# When the tree's most visited line stops before the end of the turn, short searches complete the plan.
COMPLETION_ITERATIONS = 300
COMPLETION_SHARE = 0.1  # of a time budget, kept for those searches


@dataclass(frozen=True)
class HintCandidate:
    """A root move: its notation, how often the search tried it, and the mover's estimated win chance."""

    move: str
    visits: int
    win: float


@dataclass(frozen=True)
class Hint:
    """What ``hint`` returns; ``to_json`` gives the ``hint --json`` form (docs/commands.md, "hint --json")."""

    move: str
    plan: list[str]
    candidates: list[HintCandidate]
    iterations: int
    seconds: float
    actions: tuple[int, ...] = field(default=(), compare=False, repr=False)  # the plan as action codes

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "plan": list(self.plan),
            "candidates": [{"move": c.move, "visits": c.visits, "win": round(c.win, 4)} for c in self.candidates],
            "iterations": self.iterations,
            "seconds": round(self.seconds, 3),
        }


def check_budget(iterations: int | None, seconds: float | None) -> tuple[int | None, float | None]:
    """The budget to search with: the one given, or ``DEFAULT_ITERATIONS``.

    Raises ``OptionError`` for both budgets at once, a non-positive
    iteration count, or a time that is not a positive finite number.
    """
    if iterations is not None and seconds is not None:
        raise OptionError("--iterations and --time: give one budget, not both")
    if iterations is not None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise OptionError(f"--iterations {iterations!r}: must be a whole number of at least 1")
        return iterations, None
    if seconds is not None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) \
                or seconds <= 0:
            raise OptionError(f"--time {seconds!r}: must be a positive number of seconds")
        return None, float(seconds)
    return DEFAULT_ITERATIONS, None


def hint(position: Position, iterations: int | None = None, seconds: float | None = None, seed: int = 0,
         top: int = DEFAULT_TOP, c: float = 0.7, margin: float = 0.0, policy: int = POLICY_HEURISTIC) -> Hint:
    """The hint for the player to move in ``position`` (a ``kanaloa.position.Position``).

    The budget is ``iterations`` or ``seconds`` (default
    ``DEFAULT_ITERATIONS``); ``seed`` fixes every random choice, so the same
    position, budget in iterations and seed give the same hint.  Raises
    ``PositionError`` when the game is over or the mover's hand is unknown to
    the position, ``OptionError`` for a bad budget or ``top``.
    """
    iterations, seconds = check_budget(iterations, seconds)
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise OptionError(f"--top {top!r}: must be a whole number of at least 1")
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
    return hint_state(_core_state(position), position.board, iterations=iterations, seconds=seconds, seed=seed,
                      top=top, c=c, margin=margin, policy=policy, colors=position.colors)


def hint_state(core: CoreState, board: Board, iterations: int | None = None, seconds: float | None = None,
               seed: int = 0, top: int = DEFAULT_TOP, c: float = 0.7, margin: float = 0.0,
               policy: int = POLICY_HEURISTIC, colors: Sequence[str] = COLORS) -> Hint:
    """The hint for the player to move in a ``kanaloa_core.CoreState`` (not modified) on ``board``.

    The budget must be valid (see ``check_budget``).  With a time budget,
    ``COMPLETION_SHARE`` of it is kept for completing the plan.  ``colors``
    names the colors by index (``Position.colors``), for the moves of a
    2-player game, whose builds name their color (R15.3).
    """
    clock = time.perf_counter
    started = clock()
    game = KanaloaGame(policy)
    rng = random.Random(seed)
    main_seconds = seconds * (1.0 - COMPLETION_SHARE) if seconds is not None else None
    result = ISMCTS(c=c, margin=margin, seed=rng.getrandbits(63)).search(game.wrap(core), iterations, main_seconds)
    line = result.principal_line()
    spent = result.iterations
    # The tree may end before the turn does: search on from the end of the line until the turn is over,
    # that is until the game is over or the engine gives the move to another player.
    mover = core.to_move
    after = core.copy()
    for action in line:
        after.apply(action)
    while not after.is_over and after.to_move == mover:
        budget = COMPLETION_ITERATIONS
        left = None
        if seconds is not None:
            left = max(seconds - (clock() - started), 1e-6)
        more = ISMCTS(c=c, margin=margin, seed=rng.getrandbits(63)).search(game.wrap(after), budget, left)
        spent += more.iterations
        for action in more.principal_line():
            line.append(action)
            after.apply(action)
            if after.is_over or after.to_move != mover:
                break

    builders = seat_colors(colors, core.players, mover)

    def name(action: int) -> str:
        return str(Move.from_action(action, board, builders=builders))

    return Hint(
        move=name(line[0]),
        plan=[name(a) for a in line],
        candidates=[HintCandidate(name(cand.action), cand.visits, cand.win) for cand in result.candidates()[:top]],
        iterations=spent,
        seconds=clock() - started,
        actions=tuple(line),
    )


def _core_state(position: Position) -> CoreState:
    """The position's state in the compiled core (the search runs there), as read: not checked again."""
    state = position.state_for(load_engine("core"))
    assert isinstance(state, CoreState)
    return state
