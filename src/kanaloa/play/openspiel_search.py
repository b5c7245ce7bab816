"""OpenSpiel's own searches with a clock, for the ``openspiel-ismcts`` and ``openspiel-mcts`` bots.

Imported only when such a bot plays (it needs the optional extra
``openspiel``, the ``open-spiel`` package).  The searches are OpenSpiel's
Python ``ISMCTSBot`` and ``MCTSBot`` as they ship, with random rollouts
(``RandomRolloutEvaluator``, one per leaf); the subclasses only add a time
budget: before each iteration after the first two, the deadline is checked,
and when it has passed the search ends with what it has (ISMCTS: its final
policy over the root; MCTS: the root's best child).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy
from open_spiel.python.algorithms import ismcts, mcts

from ..openspiel import KanaloaGame, KanaloaState

MIN_ITERATIONS = 2  # a search stopped by its clock has expanded the root at least once


def random_state(seed: int) -> numpy.random.RandomState:
    """The numpy stream OpenSpiel's searches draw from (rollouts, tie-breaks), seeded with ``seed``."""
    return numpy.random.RandomState(seed % (1 << 32))


class _TimeUp(Exception):
    """The clock ran out (raised between iterations)."""


class _Clock:
    def __init__(self, deadline: float | None) -> None:
        self.deadline = deadline
        self.iterations = 0

    def tick(self) -> None:
        if self.deadline is not None and self.iterations >= MIN_ITERATIONS and time.perf_counter() >= self.deadline:
            raise _TimeUp
        self.iterations += 1


class TimedISMCTS(ismcts.ISMCTSBot):
    """``ISMCTSBot`` whose search may also end at a deadline."""

    def __init__(self, game: KanaloaGame, evaluator: Any, c: float, limit: int, random_state: Any,
                 deadline: float | None) -> None:
        super().__init__(game, evaluator, c, limit, random_state=random_state,
                         final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        self.clock = _Clock(deadline)

    def sample_root_state(self, state: KanaloaState) -> KanaloaState:
        self.clock.tick()
        return super().sample_root_state(state)

    def run_search(self, state: KanaloaState) -> Any:
        try:
            return super().run_search(state)
        except _TimeUp:
            return self.get_final_policy(state, self._root_node)


class TimedMCTS(mcts.MCTSBot):
    """``MCTSBot`` whose search may also end at a deadline."""

    def __init__(self, game: KanaloaGame, c: float, limit: int, evaluator: Any, random_state: Any,
                 deadline: float | None) -> None:
        super().__init__(game, c, limit, evaluator, random_state=random_state)
        self.clock = _Clock(deadline)
        self.root: Any = None

    def _apply_tree_policy(self, root: Any, state: KanaloaState) -> Any:
        self.clock.tick()
        self.root = root
        return super()._apply_tree_policy(root, state)

    def step(self, state: KanaloaState) -> int:
        try:
            return int(super().step(state))
        except _TimeUp:
            return int(self.root.best_child().action)


def ismcts_move(game: KanaloaGame, state: KanaloaState, c: float, limit: int, deadline: float | None,
                random_state: Any, resample: Callable[[KanaloaState, int], KanaloaState]) -> tuple[int, int]:
    """(OpenSpiel action, iterations run) of OpenSpiel's ISMCTS at ``state``; ``resample(state, player)``
    draws its worlds."""
    bot = TimedISMCTS(game, mcts.RandomRolloutEvaluator(1, random_state), c, limit, random_state, deadline)
    bot.set_resampler(resample)
    action = int(bot.step(state))
    return action, bot.clock.iterations


def mcts_move(game: KanaloaGame, world: KanaloaState, c: float, limit: int, deadline: float | None,
              random_state: Any) -> tuple[int, int]:
    """(OpenSpiel action, iterations run) of OpenSpiel's MCTS on ``world``, a determinisation."""
    bot = TimedMCTS(game, c, limit, mcts.RandomRolloutEvaluator(1, random_state), random_state, deadline)
    action = bot.step(world)
    return action, bot.clock.iterations
