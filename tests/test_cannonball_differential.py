"""Cannonball Colony (R20): the compiled core against the readable reference, move by move.

Seeded random games are played from new games on the random layouts of R20.1 and R20.2, with 2, 3 and 4
players, through ``cannonball_core.CoreState`` and ``kanaloa.cannonball.reference.ReferenceState`` side by
side.  After every move both must offer the identical legal-move list and export equal ``CannonballData``, and
their properties must agree with the data.  The move is drawn by ``random.Random(seed)``, so a failure replays
from its seed alone.
"""

from __future__ import annotations

import random

import pytest

from kanaloa.cannonball.island import new_game
from kanaloa.cannonball.reference import ReferenceState
from kanaloa.cannonball.state import ROUND_OVER, CannonballData

cannonball_core = pytest.importorskip("cannonball_core", reason="the compiled core is not built")

GAMES = {2: 800, 3: 600, 4: 600}  # 2,000 games in all
CHUNKS = 8
MOVE_CAP = 5000


def first_difference(a: CannonballData, b: CannonballData) -> str | None:
    """The first field in which two states differ, with both values, or None."""
    for name in a.__dataclass_fields__:
        x, y = getattr(a, name), getattr(b, name)
        if x != y:
            return f"{name}: {x!r} != {y!r}"
    return None


def play_both(players: int, seed: int) -> int:
    """One random game through both engines; the number of moves."""
    start = new_game(players, seed)
    ref = ReferenceState.from_data(start)
    core = cannonball_core.CoreState.from_data(start)
    rng = random.Random(seed)
    for moves in range(MOVE_CAP):
        data = ref.to_data()
        diff = first_difference(data, core.to_data())
        assert diff is None, f"{players} players, seed {seed}, after {moves} moves: {diff}"
        for name in ("players", "to_move", "round", "is_over", "winners", "ranking", "reason", "supply"):
            assert getattr(core, name) == getattr(ref, name), (players, seed, moves, name)
        legal = ref.legal_actions()
        assert core.legal_actions() == legal, f"{players} players, seed {seed}, after {moves} moves"
        if ref.is_over:
            assert data.round == ROUND_OVER and not legal
            return moves
        action = rng.choice(legal)
        ref.apply(action)
        core.apply(action)
    raise AssertionError(f"{players} players, seed {seed}: no end after {MOVE_CAP} moves")


def seeds_of(players: int, chunk: int) -> range:
    """The seeds one test of the suite plays: every CHUNKS-th of the player count's seeds."""
    return range(players * 1_000_000 + chunk, players * 1_000_000 + GAMES[players], CHUNKS)


@pytest.mark.parametrize("players", sorted(GAMES))
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_core_and_reference_agree_move_by_move(players, chunk):
    for seed in seeds_of(players, chunk):
        play_both(players, seed)


def test_the_chunks_play_two_thousand_distinct_games():
    for players, games in GAMES.items():
        seeds = [seed for chunk in range(CHUNKS) for seed in seeds_of(players, chunk)]
        assert len(seeds) == len(set(seeds)) == games
    assert sum(GAMES.values()) >= 2000


# The signature (24 seeded games of these islands, pinned) is the bench face's, ``signature_cannonball`` of
# ``kanaloa bench``: tests/test_cannonball_bench.py plays it through both engines move by move and pins it.
