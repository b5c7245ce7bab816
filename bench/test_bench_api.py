"""The same random games in every engine: whole in C, move by move through the Python API, in the reference.

All three play the very same games (the deals of ``random_games`` and its
move stream), so each group's rows compare like with like and the table's
relative column is the speed ratio (the reference's row is
``reference_ratio``).  A hundred games per call: on a handful of games played
over and over, the processor learns the core's branches by heart and the core
looks faster than it is.  The rule sets are every registered game's
(``bench_rulesets``).
"""

from __future__ import annotations

import pytest

from conftest import bench_rulesets, rules_id
from kanaloa.rules.engine import load_engine
from kanaloa.tools.benchmark import RATIO_SEED, core_games, play_games, play_games_api

GAMES = 100

# engine -> (play the games of a rule set, rounds: the reference needs about half a second per round)
ENGINES = {
    "core-in-C": (lambda rules: core_games(rules, GAMES, RATIO_SEED), 200),
    "core-through-Position": (lambda rules: play_games_api(rules, GAMES, RATIO_SEED), 15),
    "reference": (lambda rules: play_games(rules, GAMES, RATIO_SEED, load_engine("reference")), 3),
}
RULESETS = bench_rulesets()


@pytest.fixture(scope="module")
def expected_moves():
    """The move total of the games, from the core: every engine must play exactly as many."""
    return {rules_id(rules): core_games(rules, GAMES, RATIO_SEED) for rules in RULESETS}


@pytest.mark.parametrize("engine", list(ENGINES))
@pytest.mark.parametrize("rules", RULESETS, ids=rules_id)
def test_same_random_games(benchmark, rules, engine, expected_moves, rate):
    """``GAMES`` seeded random games of a rule set, played to the end by ``engine``."""
    play, rounds = ENGINES[engine]
    expected = expected_moves[rules_id(rules)]
    benchmark.group = f"the same {GAMES} random games, {rules.describe()}"
    rate(benchmark, GAMES, "games")
    rate(benchmark, expected, "moves")
    assert benchmark.pedantic(play, args=(rules,), rounds=rounds, warmup_rounds=1) == expected


@pytest.mark.parametrize("name", ["3p-mid-round-1", "4p-mid-round-1"])
def test_position_legal_moves(benchmark, positions, name, rate):
    """``Position.legal_moves()``: the legal actions as ``Move`` objects of the notation layer."""
    from kanaloa.position import Position

    position = positions[name]
    state = position.state()
    pos = Position(position.ruleset, load_engine(), None, state)
    benchmark.group = "Position.legal_moves (notation objects)"
    rate(benchmark, 1, "calls")
    mover = state.to_move
    assert [m.to_action(position.ruleset, mover) for m in benchmark(pos.legal_moves)] == state.legal_actions()
