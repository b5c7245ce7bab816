"""Kanaloa as a game for the searches: the compiled rules core behind the search protocol.

The searches of ``kanaloa.search`` know no game; they reach one only through
``kanaloa.search.protocol.GameState``, in the manner of OpenSpiel's ``State``.
``KanaloaGame`` and ``KanaloaState`` put the compiled core
(``kanaloa_core.CoreState``) behind that protocol:

* moves are the core's action codes, its legal lists sorted by code;
* ``resample`` is the core's determinisation (docs/engine.md "Knowledge");
* ``rollout`` plays to the end inside the core with one of its playout
  policies (``POLICY_HEURISTIC`` by default, ``POLICY_RANDOM``);
* a face-down discard (R4) shows nothing of its card, so every discard of
  another player has one public key, ``HIDDEN_DISCARD``;
* ``priors`` are the core's heuristic move scores (``move_values``, the
  scores its heuristic playout policy compares) mapped to [0, 1] by
  ``prior_of``; another player's hidden discard takes the discard score;
* ``points()`` is the score of every color (R11), 4 entries with two players;
* ``returns()`` is 1 for the winner (R8, or R12 with its tie-break; with two
  players R15.5's pair) and 0 for the others, ``margins()`` the point margin
  over the best other player (with two players: of the weaker colors, the
  pair's first entries), over ``MARGIN_SCALE`` and clipped to [-1, 1].

Players are seats: with two players each seat plays two colors (R15), but
the search sees two players, each with one result.
"""

from __future__ import annotations

import random
from bisect import bisect_left

import cython

from ..rules import actions as A
from ..rules.core import POLICY_HEURISTIC, POLICY_RANDOM, CoreState
from ..rules.reference import seat_standing
from ..search.protocol import Action

__all__ = [
    "HIDDEN_DISCARD",
    "MARGIN_SCALE",
    "POLICY_HEURISTIC",
    "POLICY_RANDOM",
    "KanaloaGame",
    "KanaloaState",
]

# R4: every face-down discard of another player looks alike to the observer.
HIDDEN_DISCARD: Action = A.encode(A.DISCARD, 0xFF)
_FIRST_DISCARD, _AFTER_DISCARDS = A.encode(A.DISCARD), A.encode(A.DISCARD + 1)
# A point margin this large or larger counts as a complete rout in ``margins()``.
MARGIN_SCALE = 20.0
# ``prior_of``: the core's move scores from PRIOR_LOW (prior 0) to PRIOR_LOW + PRIOR_SPAN (prior 1).
PRIOR_LOW = -8.0
PRIOR_SPAN = 40.0
DISCARD_VALUE = -4  # the core's score of a face-down discard (VALUE_DISCARD)


def prior_of(value: float) -> float:
    """A core move score as a prior in [0, 1]: a discard 0.1, nothing gained 0.2, a takeover about 0.8."""
    p = (value - PRIOR_LOW) / PRIOR_SPAN
    return 1.0 if p > 1.0 else (0.0 if p < 0.0 else p)


# ``prior_of`` for every integer score the core gives, looked up rather than computed in the search's loop.
_TABLE_LOW, _TABLE_HIGH = -64, 192
_PRIOR_TABLE = [prior_of(v) for v in range(_TABLE_LOW, _TABLE_HIGH)]


def _priors(values: list[int]) -> list[float]:
    table: list = _PRIOR_TABLE
    low: cython.long = _TABLE_LOW
    high: cython.long = _TABLE_HIGH
    return [table[v - low] if low <= v < high else prior_of(v) for v in values]


def _discards(moves: list[int]) -> tuple[int, int]:
    """Where the discards lie in a legal list (sorted by code, so they are one run): (start, end)."""
    lo = bisect_left(moves, _FIRST_DISCARD)
    return lo, bisect_left(moves, _AFTER_DISCARDS, lo)


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

    def wrap(self, core_state: CoreState) -> KanaloaState:
        """The protocol view of a ``kanaloa_core.CoreState`` (shared, not copied)."""
        return KanaloaState(self, core_state)


@cython.cclass
class KanaloaState:
    """A ``GameState`` over one ``kanaloa_core.CoreState``.

    The wrapped ``core`` is mutated by ``apply_action`` and ``rollout``; use
    ``clone`` to keep an original.
    """

    core = cython.declare(object, visibility="public")
    game = cython.declare(object, visibility="public")

    def __init__(self, game: KanaloaGame, core: CoreState) -> None:
        self.game = game
        self.core = core

    def num_players(self) -> int:
        return self.core.players

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
        result = [0.0] * core.players
        winner = core.winner
        if winner >= 0:
            result[winner] = 1.0
        return result

    def margins(self) -> list[float]:
        """Each player's points minus the best other player's, over ``MARGIN_SCALE``, clipped to [-1, 1].

        With two players a player's points are those of its weaker color (R15.5).
        """
        points = self.core.scores
        players = self.core.players
        scores = [seat_standing(points, seat, players)[0] for seat in range(players)]
        result = []
        for seat, own in enumerate(scores):
            best_other = max(s for other, s in enumerate(scores) if other != seat)
            m = (own - best_other) / MARGIN_SCALE
            result.append(1.0 if m > 1.0 else (max(m, -1.0)))
        return result

    def resample(self, player: int, seed: int) -> KanaloaState:
        """A determinisation from ``player``'s knowledge (docs/engine.md "Knowledge")."""
        return KanaloaState(self.game, self.core.determinise(player, seed))

    def rollout(self, seed: int) -> None:
        """Play to the end in the core with the game's playout policy (no Python per move)."""
        self.core.playout(seed, self.game.policy)

    def public_actions(self, observer: int) -> list[Action]:
        """Legal moves as ``observer`` tells them apart: another player's discards are one key (R4)."""
        moves = self.core.legal_actions()
        if self.core.to_move == observer:
            return moves
        lo, hi = _discards(moves)
        if hi > lo:
            moves[lo:hi] = [HIDDEN_DISCARD]  # the run of discards becomes its one key
        return moves

    def priors(self, observer: int) -> list[float]:
        """``prior_of`` the core's score of every move of ``public_actions(observer)``, in that order."""
        core = self.core
        values = _priors(core.move_values())
        if core.to_move == observer:
            return values
        lo, hi = _discards(core.legal_actions())
        if hi > lo:
            values[lo:hi] = [prior_of(DISCARD_VALUE)]
        return values

    def points(self) -> list[float]:
        """The score of every color (R11)."""
        return [float(p) for p in self.core.scores]

    def apply_public(self, key: Action, observer: int, rng: random.Random) -> Action:
        """Apply a move with public ``key``; a hidden discard becomes one of the hand's cards at random."""
        core = self.core
        if key == HIDDEN_DISCARD:
            moves = core.legal_actions()
            lo, hi = _discards(moves)
            key = moves[lo + rng.randrange(hi - lo)]
        core.apply(key)
        return key
