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

from ..openspiel.family import SpielGame, SpielState, core_returns
from ..rules.core import POLICY_RANDOM, CoreState

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

    def __init__(self, game: SpielGame, evaluator: Any, c: float, limit: int, random_state: Any,
                 deadline: float | None) -> None:
        super().__init__(game, evaluator, c, limit, random_state=random_state,
                         final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        self.clock = _Clock(deadline)

    def sample_root_state(self, state: SpielState) -> SpielState:
        self.clock.tick()
        return super().sample_root_state(state)

    def run_search(self, state: SpielState) -> Any:
        try:
            return super().run_search(state)
        except _TimeUp:
            return self.get_final_policy(state, self._root_node)


class TimedMCTS(mcts.MCTSBot):
    """``MCTSBot`` whose search may also end at a deadline."""

    def __init__(self, game: SpielGame, c: float, limit: int, evaluator: Any, random_state: Any,
                 deadline: float | None) -> None:
        super().__init__(game, c, limit, evaluator, random_state=random_state)
        self.clock = _Clock(deadline)
        self.root: Any = None

    def _apply_tree_policy(self, root: Any, state: SpielState) -> Any:
        self.clock.tick()
        self.root = root
        return super()._apply_tree_policy(root, state)

    def step(self, state: SpielState) -> int:
        try:
            return int(super().step(state))
        except _TimeUp:
            return int(self.root.best_child().action)


class CoreRolloutEvaluator(mcts.RandomRolloutEvaluator):
    """OpenSpiel's ``RandomRolloutEvaluator(1)`` with its rollout played by the compiled core.

    The rollout is the same random process: every move uniform among the legal ones, every card drawn
    uniformly from the cards left in the deck, every reshuffle and PELE's takes fresh, the game's returns
    at the end (R12).  Chance nodes still pending at the state are decided first, by their
    probabilities, as OpenSpiel's evaluator does.  Then ``shuffle_chance`` shuffles the deck (the cards
    chance nodes fixed one by one with ``put_on_deck`` left the order below them not quite uniform) and
    replaces the chance stream (else every rollout from one world, as in ``openspiel-mcts``, would share
    its reshuffles), and the core plays the game out with ``POLICY_RANDOM``, in C.  Only the speed
    differs: at an iteration budget, a search with either evaluator plays the same distribution of moves.
    The priors are ``RandomRolloutEvaluator``'s own (uniform), inherited.
    """

    def __init__(self, random_state: numpy.random.RandomState) -> None:
        super().__init__(1, random_state)

    def evaluate(self, state: SpielState) -> numpy.ndarray:
        core = self.rollout_start(state)
        if not core.is_over:
            core.playout(int(self._random_state.randint(1 << 62, dtype=numpy.int64)), POLICY_RANDOM)
        return numpy.array(core_returns(core, state.num_players()))

    def rollout_start(self, state: SpielState) -> CoreState:
        """The core state a rollout from ``state`` starts at: its pending chance nodes decided by their
        probabilities, the deck shuffled and the chance stream renewed (``shuffle_chance``)."""
        rs = self._random_state
        if state.is_chance_node():
            state = state.clone()
            while state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rs.choice(actions, p=probs)))
        core = state.core  # a copy
        if not core.is_over:
            core.shuffle_chance(int(rs.randint(1 << 62, dtype=numpy.int64)))
        return core


ROLLOUTS = ("python", "core")  # OpenSpiel's own random rollouts, or the same ones played by the core


def evaluator(rollout: str, random_state: numpy.random.RandomState) -> mcts.Evaluator:
    """The leaf evaluator of ``rollout`` (one of ``ROLLOUTS``), drawing from ``random_state``."""
    if rollout == "core":
        return CoreRolloutEvaluator(random_state)
    if rollout == "python":
        return mcts.RandomRolloutEvaluator(1, random_state)
    raise ValueError(f"rollout {rollout!r}: choose one of {', '.join(ROLLOUTS)}")


def ismcts_move(game: SpielGame, state: SpielState, c: float, limit: int, deadline: float | None,
                random_state: Any, resample: Callable[[SpielState, int], SpielState],
                rollout: str = "python") -> tuple[int, int]:
    """(OpenSpiel action, iterations run) of OpenSpiel's ISMCTS at ``state``; ``resample(state, player)``
    draws its worlds, ``rollout`` names the leaf evaluator (``ROLLOUTS``)."""
    bot = TimedISMCTS(game, evaluator(rollout, random_state), c, limit, random_state, deadline)
    bot.set_resampler(resample)
    action = int(bot.step(state))
    return action, bot.clock.iterations


def mcts_move(game: SpielGame, world: SpielState, c: float, limit: int, deadline: float | None,
              random_state: Any, rollout: str = "python") -> tuple[int, int]:
    """(OpenSpiel action, iterations run) of OpenSpiel's MCTS on ``world``, a determinisation, with the leaf
    evaluator ``rollout`` names (``ROLLOUTS``)."""
    bot = TimedMCTS(game, c, limit, evaluator(rollout, random_state), random_state, deadline)
    action = bot.step(world)
    return action, bot.clock.iterations
