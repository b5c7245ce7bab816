"""The small game protocol the searches speak, and the Kanaloa game behind it.

The search modules (``ismcts``, ``mcts``) know nothing about Kanaloa: they
reach a game only through ``GameState`` below, in the manner of OpenSpiel's
``State``.  ``KanaloaGame`` and ``KanaloaState`` adapt the compiled rules core
(``kanaloa_core.CoreState``) to it; another game plugs in by implementing the
same methods.

Hidden information has two faces here:

* ``resample(player, seed)``: a determinisation, a complete state drawn from
  what ``player`` knows.  Two states that differ only in what ``player``
  cannot see give the same sample for the same seed.
* ``public_actions(observer)`` / ``apply_public(key, observer, rng)``: the
  legal moves of the player to move *as the observer can tell them apart*.
  Moves the observer cannot distinguish (in Kanaloa, another player's
  face-down discard, R4) share one key; ``apply_public`` picks a concrete
  move for that key inside the determinisation.  A search that keys its tree
  edges by these keys never learns a hidden card from its own tree.

Rewards are a vector with one entry per player in ``[0, 1]``:
``returns()`` is the game result (1 for the winner, R12 ties included), and
``margins()`` each player's point margin over the best other player,
normalised to ``[-1, 1]``, which a search may blend in.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from typing import Protocol

from .. import actions as A

Action = int

# R4: every face-down discard of another player looks alike to the observer.
HIDDEN_DISCARD: Action = A.encode(A.DISCARD, 0xFF)
_FIRST_DISCARD, _AFTER_DISCARDS = A.encode(A.DISCARD), A.encode(A.DISCARD + 1)
# Actions after which the mover's turn is over (R5 draw phase, R10 final round).
TURN_ENDING_KINDS = frozenset((A.TAKE, A.DRAW, A.END, A.PASS, A.REVEAL))
# Playout policies of the core's ``playout(seed, policy)``.
POLICY_RANDOM, POLICY_HEURISTIC = 0, 1
# A point margin this large or larger counts as a complete rout in ``margins()``.
MARGIN_SCALE = 20.0


class GameState(Protocol):
    """What a search needs from a game state (see the module docstring)."""

    def num_players(self) -> int: ...

    def current_player(self) -> int: ...

    def legal_actions(self) -> list[Action]: ...

    def apply_action(self, action: Action) -> None: ...

    def clone(self) -> GameState: ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> list[float]: ...

    def margins(self) -> list[float]: ...

    def resample(self, player: int, seed: int) -> GameState: ...

    def rollout(self, seed: int) -> None: ...

    def public_actions(self, observer: int) -> list[Action]: ...

    def apply_public(self, key: Action, observer: int, rng: random.Random) -> Action: ...


class KanaloaGame:
    """The Kanaloa rules core as a protocol game.

    ``policy`` is the core's playout policy for rollouts
    (``POLICY_HEURISTIC`` by default, ``POLICY_RANDOM`` for uniform moves).
    """

    __slots__ = ("policy",)

    def __init__(self, policy: int = POLICY_HEURISTIC) -> None:
        if policy not in (POLICY_RANDOM, POLICY_HEURISTIC):
            raise ValueError(f"unknown playout policy {policy}")
        self.policy = policy

    def wrap(self, core_state) -> KanaloaState:
        """The protocol view of a ``kanaloa_core.CoreState`` (shared, not copied)."""
        return KanaloaState(self, core_state)


class KanaloaState:
    """A ``GameState`` over one ``kanaloa_core.CoreState``.

    The wrapped ``core`` is mutated by ``apply_action`` and ``rollout``; use
    ``clone`` to keep an original.
    """

    __slots__ = ("core", "game")

    def __init__(self, game: KanaloaGame, core) -> None:
        self.game = game
        self.core = core

    def num_players(self) -> int:
        return len(self.core.scores)

    def current_player(self) -> int:
        return self.core.to_move

    def legal_actions(self) -> list[Action]:
        return self.core.legal_actions()

    def apply_action(self, action: Action) -> None:
        self.core.apply(action)

    def clone(self) -> KanaloaState:
        return KanaloaState(self.game, self.core.copy())

    def is_terminal(self) -> bool:
        return self.core.is_over

    def returns(self) -> list[float]:
        """1 for the winner (R8, or R12 with its tie-break), 0 for the others; zeros while playing."""
        core = self.core
        result = [0.0] * len(core.scores)
        winner = core.winner
        if winner >= 0:
            result[winner] = 1.0
        return result

    def margins(self) -> list[float]:
        """Each player's points minus the best other player's, over ``MARGIN_SCALE``, clipped to [-1, 1]."""
        scores = list(self.core.scores)
        result = []
        for seat, own in enumerate(scores):
            best_other = max(s for other, s in enumerate(scores) if other != seat)
            m = (own - best_other) / MARGIN_SCALE
            result.append(1.0 if m > 1.0 else (max(m, -1.0)))
        return result

    def resample(self, player: int, seed: int) -> KanaloaState:
        """A determinisation from ``player``'s knowledge (docs/engine.md "Determinisation")."""
        return KanaloaState(self.game, self.core.determinise(player, seed))

    def rollout(self, seed: int) -> None:
        """Play to the end in the core with the game's playout policy (no Python per move)."""
        self.core.playout(seed, self.game.policy)

    def public_actions(self, observer: int) -> list[Action]:
        """Legal moves as ``observer`` tells them apart: another player's discards are one key (R4)."""
        moves = self.core.legal_actions()
        if self.core.to_move == observer:
            return moves
        # Legal lists are sorted by code, so the discards are one run: it becomes its one key.
        lo = bisect_left(moves, _FIRST_DISCARD)
        hi = bisect_left(moves, _AFTER_DISCARDS, lo)
        if hi > lo:
            moves[lo:hi] = [HIDDEN_DISCARD]
        return moves

    def apply_public(self, key: Action, observer: int, rng: random.Random) -> Action:
        """Apply a move with public ``key``; a hidden discard becomes one of the hand's cards at random."""
        core = self.core
        if key == HIDDEN_DISCARD:
            moves = core.legal_actions()
            lo = bisect_left(moves, _FIRST_DISCARD)
            hi = bisect_left(moves, _AFTER_DISCARDS, lo)
            key = moves[lo + rng.randrange(hi - lo)]
        core.apply(key)
        return key


def ends_turn(action: Action) -> bool:
    """True when ``action`` ends its mover's turn (R3 reveal, R5 take or draw, R10 end or pass)."""
    return (action >> 16) in TURN_ENDING_KINDS
