"""Cannonball Colony (R20): whole random games in C, through the core's Python API, and in the reference.

Groups: ``cannonball random games`` (per player count: uniform playouts in C, the heuristic policy in C,
the same uniform games driven move by move from Python on the core, and on the reference).  Every game
starts from a new game on the seeded random layout (R20.1, R20.2), so the landing round is timed too.
"""

from __future__ import annotations

import random

import pytest

from kanaloa.cannonball.core import CoreState
from kanaloa.cannonball.island import new_game
from kanaloa.cannonball.reference import ReferenceState

GAMES_IN_C = 100  # games per call in C
GAMES_IN_PYTHON = 4  # games per call driven from Python
LAYOUT_SEED = 7
PLAYOUT_SEED = 2026

pytestmark = pytest.mark.skipif(CoreState is None, reason="the compiled Cannonball core is not built")


def python_games(engine, players: int, games: int) -> int:
    """``games`` uniform random games of ``engine`` from the seeded start, moves drawn by ``random.Random``;
    the total moves."""
    start = new_game(players, LAYOUT_SEED)
    moves = 0
    for g in range(games):
        state, rng = engine.from_data(start), random.Random(PLAYOUT_SEED + g)
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            moves += 1
    return moves


def mean_moves(state, heuristic: bool) -> float:
    """The mean length of the games one call plays in C, for the moves-per-second rate."""
    return state.random_games(GAMES_IN_C, PLAYOUT_SEED, heuristic) / GAMES_IN_C


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("heuristic", [False, True], ids=["uniform", "heuristic"])
def test_random_games_in_c(benchmark, players, heuristic, rate):
    state = CoreState.from_data(new_game(players, LAYOUT_SEED))
    benchmark.group = f"cannonball random games, {players} players"
    rate(benchmark, GAMES_IN_C, "games")
    rate(benchmark, GAMES_IN_C * mean_moves(state, heuristic), "moves")
    moves = benchmark(state.random_games, GAMES_IN_C, PLAYOUT_SEED, heuristic)
    assert moves > GAMES_IN_C and not state.is_over  # the games were played on copies


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("impl", ["core", "reference"])
def test_random_games_from_python(benchmark, players, impl, rate):
    engine = CoreState if impl == "core" else ReferenceState
    benchmark.group = f"cannonball random games, {players} players"
    rate(benchmark, GAMES_IN_PYTHON, "games")
    rate(benchmark, python_games(engine, players, GAMES_IN_PYTHON), "moves")
    assert benchmark(python_games, engine, players, GAMES_IN_PYTHON) > GAMES_IN_PYTHON
