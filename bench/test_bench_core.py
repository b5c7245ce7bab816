"""The compiled core one operation at a time, and whole random games in C.

Groups: ``legal_actions <position>`` (core beside the reference at each
reference position), ``apply``, ``copy``, ``determinise``,
``determinisations in C`` (per position), and ``random games in C``.
"""

from __future__ import annotations

import pytest

from kanaloa.rules.core import random_games
from kanaloa.rules.engine import load_engine
from kanaloa.rules.state import PRESET_NAMES, PRESET_TABLETOP, PRESET_YUCATA
from kanaloa.tools.benchmark import (
    PLAYOUT_SEED,
    bulk_determinisations,
    replay_line,
)

GAMES = 100  # random games per call: enough distinct games that none is learnt by heart
DETERMINISATIONS = 1000  # samples per bulk call


@pytest.mark.parametrize("impl", ["core", "reference"])
def test_legal_actions(benchmark, oro, position, impl, rate):
    """Legal-move generation (R3-R10 move lists, sorted by code) at each reference position."""
    state = position.state(oro, load_engine(impl))
    benchmark.group = f"legal_actions {position.name}"
    rate(benchmark, 1, "calls")
    moves = benchmark(state.legal_actions)
    assert moves and moves == sorted(moves)


def test_apply(benchmark, oro, position, rate):
    """``apply`` along the position's recorded continuation of its random game.

    Each call replays the line on a fresh copy; the copy costs about as much
    as one move, so it is a few percent of a 40-move line.
    """
    state = position.state(oro)
    line = position.line
    benchmark.group = "apply (copy, then a recorded line of up to 40 moves)"
    rate(benchmark, len(line), "moves")
    benchmark(lambda: replay_line(state.copy(), line))
    after = state.copy()
    replay_line(after, line)
    assert after.to_data() != position.state.to_data()


def test_copy(benchmark, oro, position, rate):
    """An independent copy of the state (a struct copy in the core)."""
    state = position.state(oro)
    benchmark.group = "copy"
    rate(benchmark, 1, "copies")
    assert benchmark(state.copy).to_data() == position.state.to_data()


def test_determinise(benchmark, oro, position, rate):
    """One determinisation for the player to move, called from Python (docs/engine.md "Knowledge")."""
    state = position.state(oro)
    viewer = position.state.to_data().to_move
    benchmark.group = "determinise"
    rate(benchmark, 1, "determinisations")
    sample = benchmark(state.determinise, viewer, 1)
    assert sample.to_data().hands[viewer] == position.state.to_data().hands[viewer]


def test_determinisations_in_c(benchmark, oro, position, rate):
    """Determinisations drawn in bulk in C, as the search's sampling costs without Python."""
    state = position.state(oro)
    benchmark.group = f"determinisations in C ({DETERMINISATIONS} per call)"
    rate(benchmark, DETERMINISATIONS, "determinisations")
    mover = position.state.to_move
    assert benchmark(bulk_determinisations, state, mover, DETERMINISATIONS, 1) == DETERMINISATIONS


@pytest.mark.parametrize("preset", [PRESET_YUCATA, PRESET_TABLETOP], ids=PRESET_NAMES.get)
@pytest.mark.parametrize("players", [2, 3, 4], ids=lambda p: f"{p}p")
def test_random_games_in_c(benchmark, tables, players, preset, rate):
    """Whole random games dealt and played in C (``random_games``), the rollout engine of the search;
    2 players play two colors each (R15)."""
    benchmark.group = f"random games in C ({GAMES} per call)"
    games, moves = random_games(tables, players, preset, GAMES, PLAYOUT_SEED)
    rate(benchmark, games, "games")
    rate(benchmark, moves, "moves")
    assert benchmark(random_games, tables, players, preset, GAMES, PLAYOUT_SEED) == (games, moves)


def test_random_kahuna_games_in_c(benchmark, rate):
    """Whole random Kahuna games (R16) dealt and played in C on the ``kahuna`` board."""
    from kanaloa.rules.board import load_board
    from kanaloa.rules.core import core_board
    from kanaloa.rules.state import GAME_KAHUNA

    tables = core_board(load_board("kahuna"))
    benchmark.group = f"random games in C ({GAMES} per call)"
    games, moves = random_games(tables, 2, PRESET_YUCATA, GAMES, PLAYOUT_SEED, GAME_KAHUNA)
    rate(benchmark, games, "games")
    rate(benchmark, moves, "moves")
    assert benchmark(random_games, tables, 2, PRESET_YUCATA, GAMES, PLAYOUT_SEED, GAME_KAHUNA) == (games, moves)
