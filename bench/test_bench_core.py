"""The compiled core one operation at a time, and whole random games in C.

Groups: ``legal_actions <position>`` (core beside the reference at each
reference position), ``apply``, ``copy``, ``determinise``,
``determinisations in C`` (per position), and ``random games in C``.
"""

from __future__ import annotations

import pytest

from conftest import bench_rulesets, rules_id
from kanaloa.rules.engine import load_engine
from kanaloa.tools.benchmark import PLAYOUT_SEED, bulk_determinisations, core_games, replay_line

GAMES = 100  # random games per call: enough distinct games that none is learnt by heart
DETERMINISATIONS = 1000  # samples per bulk call


@pytest.mark.parametrize("impl", ["core", "reference"])
def test_legal_actions(benchmark, position, impl, rate):
    """Legal-move generation (R3-R10 move lists, sorted by code) at each reference position."""
    state = position.state(load_engine(impl))
    benchmark.group = f"legal_actions {position.name}"
    rate(benchmark, 1, "calls")
    moves = benchmark(state.legal_actions)
    assert moves and moves == sorted(moves)


def test_apply(benchmark, position, rate):
    """``apply`` along the position's recorded continuation of its random game.

    Each call replays the line on a fresh copy; the copy costs about as much
    as one move, so it is a few percent of a 40-move line.
    """
    state = position.state()
    line = position.line
    benchmark.group = "apply (copy, then a recorded line of up to 40 moves)"
    rate(benchmark, len(line), "moves")
    benchmark(lambda: replay_line(state.copy(), line))
    after = state.copy()
    replay_line(after, line)
    assert after.to_data() != position.data


def test_copy(benchmark, position, rate):
    """An independent copy of the state (a struct copy in the core)."""
    state = position.state()
    benchmark.group = "copy"
    rate(benchmark, 1, "copies")
    assert benchmark(state.copy).to_data() == position.data


def test_determinise(benchmark, position, rate):
    """One determinisation for the player to move, called from Python (docs/engine.md "Knowledge")."""
    state = position.state()
    viewer = position.data.to_move
    benchmark.group = "determinise"
    rate(benchmark, 1, "determinisations")
    sample = benchmark(state.determinise, viewer, 1)
    assert sample.to_data().hands[viewer] == position.data.hands[viewer]


def test_determinisations_in_c(benchmark, position, rate):
    """Determinisations drawn in bulk in C, as the search's sampling costs without Python."""
    state = position.state()
    benchmark.group = f"determinisations in C ({DETERMINISATIONS} per call)"
    rate(benchmark, DETERMINISATIONS, "determinisations")
    mover = position.data.to_move
    assert benchmark(bulk_determinisations, state, mover, DETERMINISATIONS, 1) == DETERMINISATIONS


@pytest.mark.parametrize("rules", bench_rulesets(), ids=rules_id)
def test_random_games_in_c(benchmark, rules, rate):
    """Whole random games dealt and played in C (``random_games``), the rollout engine of the search, for every
    registered game's rule sets: 2 players of Kanaloa play two colors each (R15), the gods (R14), Kahuna (R16)
    on its own board."""
    benchmark.group = f"random games in C ({GAMES} per call)"
    moves = core_games(rules, GAMES, PLAYOUT_SEED)
    rate(benchmark, GAMES, "games")
    rate(benchmark, moves, "moves")
    assert benchmark(core_games, rules, GAMES, PLAYOUT_SEED) == moves
