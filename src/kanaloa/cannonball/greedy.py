"""Cannonball Colony's greedy player: one move of lookahead with what the game rewards (R20.4-R20.10).

``GreedyCannonball`` scores every legal move of the player to move and
plays the best; ties are broken by the seeded ``rng`` it is handed.  The
scores fall in tiers, so that a move of a higher tier always wins over one of
a lower tier, and within a tier they weigh the details:

==================  ========  =====================================================================
move                score     within the tier
==================  ========  =====================================================================
fire at a fort      1000+     +100 when its owner leads the opponents in forts on the island,
                              + the owner's forts on the island (R20.6, R20.9)
fort                800+      +5 off the mover's own landing board (the R20.10 tie-break counts
                              forts at home against a player), +3 when it earns a cannon or the
                              blockade (R20.8); every legal fort is spaced and out of range (R20.7)
cannon              600+      covering opponent forts: +20 per fort and +1 per empty road space of
                    400+      an opponent's network in its range; covering such road spaces only
                              (where no opponent may build a fort while it stands, R20.7, R20.9)
blockade            300+      + the road spaces the opponents' networks lose to it (R20.5)
road                ~70-170   100, +4 per grass or forest space next to it without a road (room to
                              grow), +1 per such grass space within 2 steps, +10 on grass (a second
                              grass road may follow, R20.6), +30 when a fort could stand on it
                              next turn (more than 3 steps from the mover's forts, R20.7), -30 in
                              range of an opponent's cannon (no fort may stand there, R20.9)
landing             100+      + the grass and forest spaces of its own board within 3 steps, +5 on
                              grass (R20.4)
``end``             90        leaving out the second grass road: only better than a poor road
cannon / blockade   50 / 40   covering or cutting nothing: they only count against the mover in
                              the R20.10 tie-break
``pass``            0         only ever alone
==================  ========  =====================================================================

The interface is the Kanaloa family's greedy player's
(``kanaloa.play.greedy.GreedyPlayer``): made with the game's rule set and
a ``width`` (unused: one move is looked at), ``choose(state, rng)`` returns
the move for the player to move in an engine state (a ``ReferenceState``
or the compiled core's ``CoreState``), which it does not change.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .reference import fort_distance, in_range, manhattan, neighbours, network, shots_from
from .search import engine_data
from .state import (
    BLOCKADE_BUILD,
    CANNON_BUILD,
    EARNED_AT,
    END,
    FIRE,
    FOREST,
    FORT_BUILD,
    FORT_SPACING,
    GRASS,
    LAND,
    NOBODY,
    ROAD,
    CannonballData,
    decode,
)

__all__ = ["GreedyCannonball", "move_scores"]

SHOT, FORT, CANNON_ON_FORTS, CANNON_ON_ROADS, BLOCKADE_CUT = 1000.0, 800.0, 600.0, 400.0, 300.0
ROAD_BASE, LANDING_BASE = 100.0, 100.0
END_SCORE, IDLE_CANNON, IDLE_BLOCKADE, PASS_SCORE = 90.0, 50.0, 40.0, 0.0
OPEN = (GRASS, FOREST)  # where roads go (R20.5)


class _View:
    """What the scores of one position share: the mover, its network, the opponents' ranges and forts."""

    def __init__(self, d: CannonballData) -> None:
        self.d = d
        self.me = me = d.to_move
        self.opponents = [seat for seat in range(d.players) if seat != me]
        self.net = network(d, me)
        self.enemy_range: set[int] = set()
        for seat in self.opponents:
            self.enemy_range |= in_range(d, seat)
        self.forts = [d.forts_on_island(seat) for seat in range(d.players)]
        self.leading = max((self.forts[seat] for seat in self.opponents), default=0)
        self.own_forts = [space for space in range(d.spaces) if d.fort[space] == me]
        self._enemy_networks: dict[int, set[int]] | None = None

    def enemy_networks(self) -> dict[int, set[int]]:
        if self._enemy_networks is None:
            self._enemy_networks = {seat: network(self.d, seat) for seat in self.opponents}
        return self._enemy_networks

    def open_road(self, space: int) -> bool:
        """A road space with nothing on it: where a fort may go (R20.6)."""
        d = self.d
        return (d.road[space] and d.fort[space] == NOBODY and d.cannon[space] == NOBODY
                and d.blockade[space] == NOBODY and space not in d.ships)


def _fire(v: _View, space: int) -> float:
    owner = v.d.fort[space]
    return SHOT + (100.0 if v.forts[owner] == v.leading else 0.0) + v.forts[owner]


def _fort(v: _View, space: int) -> float:
    d = v.d
    score = FORT + (5.0 if d.board_of[space] != v.me else 0.0)
    if v.forts[v.me] + 1 in EARNED_AT.values():
        score += 3.0
    return score


def _cannon(v: _View, space: int) -> float:
    hit = shots_from(v.d, space)
    forts = sum(1 for s in hit if v.d.fort[s] in v.opponents)
    networks = v.enemy_networks()
    roads = sum(1 for s in hit if v.open_road(s) and any(s in networks[seat] for seat in v.opponents))
    if forts:
        return CANNON_ON_FORTS + 20.0 * forts + roads
    if roads:
        return CANNON_ON_ROADS + roads
    return IDLE_CANNON


def _blockade(v: _View, space: int) -> float:
    d = v.d
    before = v.enemy_networks()
    d.blockade[space] = v.me  # tried in place, then taken back
    try:
        lost = sum(len(before[seat]) - len(network(d, seat)) for seat in v.opponents)
    finally:
        d.blockade[space] = NOBODY
    return BLOCKADE_CUT + lost if lost > 0 else IDLE_BLOCKADE


def _road(v: _View, space: int) -> float:
    d = v.d
    score = ROAD_BASE
    for n in neighbours(d, space):
        if d.terrain[n] in OPEN and not d.road[n] and n not in v.net:
            score += 4.0
    row, column = divmod(space, d.columns)
    for r in range(max(0, row - 2), min(d.rows, row + 3)):
        for c in range(max(0, column - 2), min(d.columns, column + 3)):
            near = r * d.columns + c
            if near != space and d.terrain[near] == GRASS and not d.road[near] and manhattan(d, space, near) <= 2:
                score += 1.0
    if d.terrain[space] == GRASS:
        score += 10.0
    if space in v.enemy_range:
        score -= 30.0
    elif space not in d.ships and all(
        manhattan(d, space, fort) > FORT_SPACING
        or (steps := fort_distance(d, space, fort)) is None or steps > FORT_SPACING
        for fort in v.own_forts
    ):
        score += 30.0
    return score


def _landing(v: _View, space: int) -> float:
    d = v.d
    room = sum(1 for other in range(d.spaces)
               if d.board_of[other] == v.me and d.terrain[other] in OPEN and manhattan(d, space, other) <= 3)
    return LANDING_BASE + room + (5.0 if d.terrain[space] == GRASS else 0.0)


# The score of a move of each kind that names a space; ``end`` and ``pass`` score END_SCORE and PASS_SCORE.
_SCORERS: dict[int, Callable[[_View, int], float]] = {
    FIRE: _fire, FORT_BUILD: _fort, CANNON_BUILD: _cannon, BLOCKADE_BUILD: _blockade, ROAD: _road, LAND: _landing,
}


def move_scores(d: CannonballData, moves: list[int]) -> list[float]:
    """The greedy score of each of ``moves`` (legal moves of the player to move in ``d``), module docstring.
    ``d`` is left as it was."""
    v = _View(d)
    scores = []
    for action in moves:
        kind, space = decode(action)
        if kind in _SCORERS:
            scores.append(_SCORERS[kind](v, space))
        else:
            scores.append(END_SCORE if kind == END else PASS_SCORE)
    return scores


class GreedyCannonball:
    """One move of lookahead with Cannonball Colony's scores (module docstring), for one game's rule set."""

    def __init__(self, ruleset: Any = None, width: int = 400) -> None:
        self.ruleset = ruleset
        self.width = width  # the Kanaloa family's lookahead width; one move is all this player looks at

    def choose(self, state: Any, rng: random.Random) -> int:
        """The move for the player to move in ``state`` (an engine state, not changed); ties at random from
        ``rng``."""
        moves: list[int] = state.legal_actions()
        if len(moves) == 1:
            return moves[0]
        d = engine_data(state)
        scores = move_scores(d, moves)
        best = max(scores)
        ties = [action for action, score in zip(moves, scores, strict=True) if score == best]
        return ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]
