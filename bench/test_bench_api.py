"""The same random games in every engine: whole in C, move by move through the Python API, in the reference.

All three play the very same games (the deals of ``random_games`` and its
move stream), so each group's rows compare like with like and the table's
relative column is the speed ratio (the reference's row is
``reference_ratio``).  A hundred games per call: on a handful of games played
over and over, the processor learns the core's branches by heart and the core
looks faster than it is.
"""

from __future__ import annotations

import pytest

from kanaloa.rules.engine import load_engine
from kanaloa.rules.state import GAME_KAHUNA, PRESET_YUCATA
from kanaloa.tools.benchmark import RATIO_SEED, core_games, play_games, play_games_api

GAMES = 100

# engine -> (play the games, rounds: the reference needs about half a second per round)
ENGINES = {
    "core-in-C": (lambda board, players: core_games(board, players, PRESET_YUCATA, GAMES, RATIO_SEED), 200),
    "core-through-Position": (
        lambda board, players: play_games_api(board, players, PRESET_YUCATA, GAMES, RATIO_SEED), 15),
    "reference": (
        lambda board, players: play_games(board, players, PRESET_YUCATA, GAMES, RATIO_SEED, load_engine("reference")),
        3),
}


@pytest.fixture(scope="module")
def expected_moves(oro):
    """The move total of the games, from the core: every engine must play exactly as many."""
    return {players: core_games(oro, players, PRESET_YUCATA, GAMES, RATIO_SEED) for players in (3, 4)}


@pytest.mark.parametrize("engine", list(ENGINES))
@pytest.mark.parametrize("players", [3, 4], ids=lambda p: f"{p}p")
def test_same_random_games(benchmark, oro, players, engine, expected_moves, rate):
    """``GAMES`` seeded random games, yucata preset, played to the end by ``engine``."""
    play, rounds = ENGINES[engine]
    benchmark.group = f"the same {GAMES} random games, {players} players"
    rate(benchmark, GAMES, "games")
    rate(benchmark, expected_moves[players], "moves")
    assert benchmark.pedantic(play, args=(oro, players), rounds=rounds, warmup_rounds=1) == expected_moves[players]


@pytest.mark.parametrize("name", ["3p-mid-round-1", "4p-mid-round-1"])
def test_position_legal_moves(benchmark, oro, positions, name, rate):
    """``Position.legal_moves()``: the legal actions as ``Move`` objects of the notation layer."""
    from kanaloa.position import Position

    position = positions[name]
    state = position.state(oro)
    pos = Position(oro, "core", ("red", "green", "blue", "yellow")[: position.players], None, state)
    benchmark.group = "Position.legal_moves (notation objects)"
    rate(benchmark, 1, "calls")
    assert [m.to_action(oro) for m in benchmark(pos.legal_moves)] == state.legal_actions()


@pytest.fixture(scope="module")
def kahuna_board():
    from kanaloa.rules.board import load_board

    return load_board("kahuna")


KAHUNA_ENGINES = {
    "core-in-C": (lambda board: core_games(board, 2, PRESET_YUCATA, GAMES, RATIO_SEED, GAME_KAHUNA), 200),
    "core-through-Position": (
        lambda board: play_games_api(board, 2, PRESET_YUCATA, GAMES, RATIO_SEED, GAME_KAHUNA), 15),
    "reference": (
        lambda board: play_games(board, 2, PRESET_YUCATA, GAMES, RATIO_SEED, load_engine("reference"), GAME_KAHUNA),
        3),
}


@pytest.mark.parametrize("engine", list(KAHUNA_ENGINES))
def test_same_random_kahuna_games(benchmark, kahuna_board, engine, rate):
    """``GAMES`` seeded random Kahuna games (R16) on the ``kahuna`` board, played to the end by ``engine``."""
    play, rounds = KAHUNA_ENGINES[engine]
    expected = core_games(kahuna_board, 2, PRESET_YUCATA, GAMES, RATIO_SEED, GAME_KAHUNA)
    benchmark.group = f"the same {GAMES} random Kahuna games"
    rate(benchmark, GAMES, "games")
    rate(benchmark, expected, "moves")
    assert benchmark.pedantic(play, args=(kahuna_board,), rounds=rounds, warmup_rounds=1) == expected
