"""``GameBatch``: many games of one rule set held in the game's compiled core and stepped with one call.

``GameBatch(game, n, seed, **params)`` deals ``n`` games (slot ``i``'s from
the stream SplitMix64(seed + i), one draw a game) and keeps, as NumPy arrays
the core writes into:

* ``observations`` (``n`` x ``observation_size``, float32): what the player
  to move of each game knows, the very encoding of the PettingZoo
  environment (the game's ``tensor`` face, docs/pettingzoo.md);
* ``action_masks`` (``n`` x ``n_actions``, int8): its legal actions;
* ``to_move`` (``n``, int8): its seat;
* ``rewards`` (``n`` x ``players``, float32): what the last step gave each
  seat: 1 to the winner of a game it ended (R12, R15.5), 0 elsewhere;
* ``dones`` (``n``, bool): whether the last step ended the game; that slot
  has been dealt its next game already, so the other arrays show the new
  game's first position.

``reset()`` deals every slot's first game again; ``step(actions)`` plays one
action (an index of the action space) in every game; ``random_actions()``
draws a legal action for every game in C, from each slot's own stream
SplitMix64((seed + i) ^ PLAYOUT_SALT).  The arrays are the batch's own and
are overwritten by the next call: copy what you keep.

An action that is not legal in its game is refused before any game moves:
``ValueError`` naming the game's index.  So is an array of the wrong shape or
type.  Chance is inside the core, from each game's deal.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import KanaloaError
from ..rules.registry import game_type
from ..rules.rng import MASK64

__all__ = ["GameBatch"]

MAX_GAMES = 1 << 20


class GameBatch:
    """``n`` games of the registered game ``game`` with its registry parameters, stepped together in C
    (module docstring).  ValueError for a bad game, parameter, ``n`` or ``seed``, and for a game without a
    batched core."""

    def __init__(self, game: str, n: int, seed: int = 0, **params: Any) -> None:
        g = game_type(game)
        try:
            self.ruleset = g.load(**params)
        except KanaloaError as exc:
            raise ValueError(f"{g.name}: {exc}") from None
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= n <= MAX_GAMES:
            raise ValueError(f"n: must be an integer from 1 to {MAX_GAMES}, not {n!r}")
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MASK64:
            raise ValueError(f"seed: must be an integer from 0 to 2**64-1, not {seed!r}")
        self.tensor = g.face("tensor")(self.ruleset)
        core = self.tensor.batch(int(n), int(seed))
        if core is None:
            raise ValueError(f"{g.name}: {g.title} has no batched core; play it through kanaloa.pettingzoo's "
                             f"environments")
        self._core = core
        self.n, self.seed, self.players = int(n), int(seed), self.ruleset.players
        self.n_actions, self.observation_size = self.tensor.n_actions, self.tensor.observation_size
        self.observations = np.zeros((self.n, self.observation_size), np.float32)
        self.action_masks = np.zeros((self.n, self.n_actions), np.int8)
        self.to_move = np.zeros(self.n, np.int8)
        self.rewards = np.zeros((self.n, self.players), np.float32)
        self._dones = np.zeros(self.n, np.int8)
        self._actions = np.zeros(self.n, np.int64)
        self.reset()

    @property
    def dones(self) -> np.ndarray:
        """Whether the last step ended each game (bool)."""
        return self._dones.view(np.bool_)

    def reset(self) -> tuple[np.ndarray, np.ndarray]:
        """Deal every slot's first game again; (observations, action_masks)."""
        self._core.reset(self.observations, self.action_masks, self.to_move)
        self.rewards[:] = 0
        self._dones[:] = 0
        return self.observations, self.action_masks

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Play ``actions[i]`` in game ``i``, for every game: an integer array of ``n`` actions (indices of the
        action space).  Returns (observations, action_masks, rewards, dones); ``to_move`` says whose the new
        observations are.  ValueError for another shape or type, and for an action not legal in its game (no
        game moves then)."""
        a = self._checked(actions)
        self._core.step(a, self.observations, self.action_masks, self.rewards, self._dones, self.to_move)
        return self.observations, self.action_masks, self.rewards, self.dones

    def _checked(self, actions: Any) -> np.ndarray:
        arr = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
        if arr.shape != (self.n,):
            raise ValueError(f"actions: must be an array of shape ({self.n},), one action per game, not "
                             f"{arr.shape}")
        if arr.dtype.kind not in "iu":
            raise ValueError(f"actions: must hold integers, not {arr.dtype}")
        if arr.dtype == np.int64 and arr.flags.c_contiguous:
            return arr
        if arr.dtype.kind == "u" and arr.size and int(arr.max()) > np.iinfo(np.int64).max:
            raise ValueError(f"actions: {int(arr.max())} is no action; the actions are 0 to {self.n_actions - 1}")
        self._actions[:] = arr
        return self._actions

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action for every game, drawn in C from each slot's stream (a fresh array)."""
        out = np.empty(self.n, np.int64)
        self._core.random_actions(out)
        return out

    def state(self, index: int) -> Any:
        """A copy of the engine state of game ``index`` (the game's core state)."""
        return self._core.state(index)

    def finished_games(self, index: int) -> int:
        """How many games slot ``index`` has finished since the last ``reset``."""
        finished: int = self._core.finished_games(index)
        return finished

    def action_of(self, code: int) -> int:
        """The action (index) of an action code of the game."""
        action: int = self.tensor.action_of(code)
        return action

    def code_of(self, action: int) -> int:
        """The action code of an action (index)."""
        code: int = self.tensor.code_of(action)
        return code
