"""Cannonball Colony as an OpenSpiel game (``kanaloa.cannonball.spiel``, R20).

* importing the module registers ``python_cannonball`` once, through the
  registration every game shares (``kanaloa.openspiel``), and so does
  ``import kanaloa.openspiel`` alone;
* games through pyspiel's API: loaded by name with every parameter, played
  to the end with returns shared among the winners (R20.10), OpenSpiel's own
  random-simulation checks with serialization for 2, 3 and 4 players;
* the seed fixes the island; action strings are the notation; clones are
  independent; the reference and the compiled core play the same game;
* OpenSpiel's MCTS bot plays a game.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel")

from kanaloa import openspiel as OS  # noqa: E402
from kanaloa.cannonball import core as core_module  # noqa: E402
from kanaloa.cannonball import spiel  # noqa: E402
from kanaloa.cannonball.core import CoreState  # noqa: E402
from kanaloa.cannonball.format import move_text, read_position, write_position  # noqa: E402
from kanaloa.cannonball.reference import victory_shares  # noqa: E402
from kanaloa.cannonball.ruleset import make_cannonball  # noqa: E402
from kanaloa.cannonball.state import END, LAND, PASS, ROAD, encode  # noqa: E402

NAME = spiel.NAME


def play_randomly(state, rng, limit=None):
    """Play random legal actions until the end (or ``limit`` actions); the actions played."""
    played = []
    while not state.is_terminal() and (limit is None or len(played) < limit):
        action = rng.choice(state.legal_actions())
        played.append(action)
        state.apply_action(action)
    return played


# -- registration and parameters --------------------------------------------------------------------


@pytest.mark.parametrize("first", ["import kanaloa.openspiel", "from kanaloa.cannonball import spiel",
                                   "import kanaloa.openspiel.family"])
def test_the_game_is_registered_once_whichever_module_is_imported_first(first):
    """The generic registration imports every game's face module, and this module registers itself through
    it: either way round, python_cannonball is registered once, beside the family's games."""
    code = ("import pyspiel\n"
            f"{first}\n"
            "import kanaloa.openspiel as OS\n"
            "from kanaloa.cannonball import spiel\n"
            "OS.register(); OS.register()\n"
            "names = list(pyspiel.registered_names())\n"
            "assert names.count(spiel.NAME) == 1 and 'python_kanaloa' in names, names\n"
            "print(pyspiel.load_game('python_cannonball').num_players())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "4"


def test_registered_once_in_process():
    assert NAME in OS.register() and list(pyspiel.registered_names()).count(NAME) == 1


def test_game_type():
    t = spiel.GAME_TYPE
    assert t.short_name == NAME
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (t.min_num_players, t.max_num_players) == (2, 4)
    assert t.parameter_specification == {"players": 4, "countries": "", "tiles": "", "seed": 0}


def test_load_game_by_name():
    game = pyspiel.load_game("python_cannonball(players=3)")
    assert isinstance(game, spiel.CannonballSpielGame)
    assert game.num_players() == 3
    assert game.min_utility() == 0.0 and game.max_utility() == 1.0 and game.utility_sum() == 1.0
    assert game.max_chance_outcomes() == 0
    params = game.get_parameters()
    assert params["players"] == 3 and params["seed"] == 0
    assert params["countries"] == "france;spain;portugal"
    again = pyspiel.load_game(str(game))  # the game's string makes the same game
    assert again.get_parameters() == params
    assert again.new_initial_state().observation_string(0) == game.new_initial_state().observation_string(0)


def test_default_game_and_countries():
    game = pyspiel.load_game(NAME)
    assert game.num_players() == 4
    game = pyspiel.load_game("python_cannonball(players=2,countries=england;spain,seed=3)")
    assert game.rules.countries == ("england", "spain")
    state = game.new_initial_state()
    assert state.action_to_string(0, state.legal_actions()[0]).startswith("england: land ")
    assert json.loads(str(state))["players"] == ["england", "spain"]


def test_game_for_matches_load_game():
    rules = make_cannonball(players=2)
    game = spiel.game_for(rules, seed=11)
    loaded = pyspiel.load_game("python_cannonball(players=2,seed=11)")
    assert game.get_parameters() == loaded.get_parameters()
    assert str(game.new_initial_state()) == str(loaded.new_initial_state())
    assert game.rules is rules


@pytest.mark.parametrize(("params", "word"), [
    ("players=5", "players"),
    ("players=2,countries=france;atlantis", "countries"),
    ("players=2,countries=france", "countries"),
    ("players=2,tiles=meadow", "tiles"),
    ("seed=-1", "seed"),
    ("colour=red", "(?i)unknown parameter 'colour'"),
])
def test_bad_parameters_name_the_parameter(params, word):
    with pytest.raises(Exception, match=word):
        pyspiel.load_game(f"{NAME}({params})")


def test_load_refuses_unknown_parameters():
    with pytest.raises(ValueError, match="python_cannonball: unknown parameter 'colour'"):
        OS.load(NAME, colour="red")
    assert OS.load(NAME, players=2).num_players() == 2
    assert isinstance(OS.game_for(make_cannonball(players=3), 5), spiel.CannonballSpielGame)


# -- playing through pyspiel --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_with_shared_returns(players):
    game = pyspiel.load_game(NAME, {"players": players, "seed": players})
    rng = random.Random(players)
    for _ in range(5):
        state = game.new_initial_state()
        played = play_randomly(state, rng)
        assert state.current_player() == pyspiel.PlayerId.TERMINAL
        assert len(played) <= game.max_game_length()
        returns = state.returns()
        assert sum(returns) == pytest.approx(1.0)
        winners = state.data().winners
        assert winners
        for seat, value in enumerate(returns):
            assert value == pytest.approx(1 / len(winners) if seat in winners else 0.0)
        assert state.legal_actions() == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_random_simulation_checks(players):
    game = pyspiel.load_game(NAME, {"players": players, "seed": 7 + players})
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_serialization_round_trip_mid_game():
    game = pyspiel.load_game("python_cannonball(players=3,seed=4)")
    state = game.new_initial_state()
    play_randomly(state, random.Random(4), limit=30)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert str(state2) == str(state)
    assert state2.history() == state.history()
    assert state2.legal_actions() == state.legal_actions()


def test_shared_returns():
    assert victory_shares([0, 2], 3) == [0.5, 0.0, 0.5]
    assert victory_shares([1], 2) == [0.0, 1.0]
    assert sum(victory_shares([0, 1, 2], 3)) == 1.0


def test_returns_zero_before_the_end():
    state = pyspiel.load_game(NAME).new_initial_state()
    assert state.returns() == [0.0] * 4
    assert state.rewards() == [0.0] * 4


# -- the seed, actions, strings, clones ---------------------------------------------------------------


def test_the_seed_fixes_the_game():
    a = pyspiel.load_game("python_cannonball(players=3,seed=21)")
    b = pyspiel.load_game("python_cannonball(players=3,seed=21)")
    c = pyspiel.load_game("python_cannonball(players=3,seed=22)")
    sa, sb = a.new_initial_state(), b.new_initial_state()
    assert str(sa) == str(sb)
    assert json.loads(str(sa))["island"] != json.loads(str(c.new_initial_state()))["island"]
    rng = random.Random(0)
    while not sa.is_terminal():  # the same actions give the same states all the way
        assert sa.legal_actions() == sb.legal_actions()
        action = rng.choice(sa.legal_actions())
        sa.apply_action(action)
        sb.apply_action(action)
        assert str(sa) == str(sb)
    assert sa.returns() == sb.returns()


def test_actions_number_the_codes_densely():
    game = pyspiel.load_game("python_cannonball(players=2)")
    spaces = game.start.spaces
    assert game.num_distinct_actions() == 6 * spaces + 2
    assert game.action_of(encode(LAND, 0)) == 0
    assert game.action_of(encode(ROAD, 5)) == 2 * spaces + 5
    assert game.action_of(encode(END)) == 6 * spaces
    assert game.action_of(encode(PASS)) == 6 * spaces + 1
    for action in range(game.num_distinct_actions()):
        assert game.action_of(game.code_of(action)) == action
    with pytest.raises(ValueError, match="not an action"):
        game.action_of(encode(ROAD, spaces))
    with pytest.raises(ValueError, match="not an action"):
        game.code_of(game.num_distinct_actions())


def test_action_strings_are_the_notation_with_the_mover():
    game = pyspiel.load_game("python_cannonball(players=3,seed=2)")
    state = game.new_initial_state()
    rng = random.Random(2)
    seen = set()
    while not state.is_terminal():
        player = state.current_player()
        d = state.data()
        for action in state.legal_actions():
            text = state.action_to_string(player, action)
            code = game.code_of(action)
            assert text == move_text(code, game.countries, d, with_name=True)
            seen.add(text.split()[1])
        state.apply_action(rng.choice(state.legal_actions()))
    assert {"land", "road", "fort"} <= seen
    assert state.action_to_string(0, game.action_of(encode(PASS))) == "france: pass"
    assert state.action_to_string(1, game.action_of(encode(END))) == "spain: end"


def test_strings_are_the_position():
    game = pyspiel.load_game("python_cannonball(players=2,seed=9)")
    state = game.new_initial_state()
    play_randomly(state, random.Random(9), limit=20)
    text = state.observation_string(0)
    assert text == state.observation_string(1) == state.information_state_string(0) == str(state)
    assert text == json.dumps(write_position(game.countries, state.data()), separators=(",", ":"))
    countries, d = read_position(text)
    assert countries == game.countries and d == state.data()
    with pytest.raises(ValueError, match="player 2"):
        state.observation_string(2)


def test_observer_strings():
    game = pyspiel.load_game("python_cannonball(players=2)")
    state = game.new_initial_state()
    observer = game.make_py_observer()
    assert observer.string_from(state, 1) == str(state)


def test_clones_are_independent():
    game = pyspiel.load_game("python_cannonball(players=3,seed=5)")
    state = game.new_initial_state()
    play_randomly(state, random.Random(5), limit=10)
    before = str(state)
    clone = state.clone()
    assert str(clone) == before and clone.history() == state.history()
    play_randomly(clone, random.Random(6))
    assert clone.is_terminal()
    assert str(state) == before and len(state.history()) == 10
    play_randomly(state, random.Random(7), limit=5)
    assert len(clone.history()) > 15 or str(clone) != str(state)


def test_illegal_action_is_refused():
    state = pyspiel.load_game("python_cannonball(players=2)").new_initial_state()
    game = state.get_game()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(Exception, match="action"):
        state.apply_action(illegal)


def test_legal_actions_of_another_player_are_empty():
    state = pyspiel.load_game("python_cannonball(players=2)").new_initial_state()
    assert state.legal_actions(1) == []
    assert state.legal_actions(0) == state.legal_actions()


@pytest.mark.skipif(CoreState is None, reason="the compiled core is not built")
def test_reference_and_core_play_the_same_game(monkeypatch):
    game = pyspiel.load_game("python_cannonball(players=4,seed=13)")
    core_state = game.new_initial_state()
    monkeypatch.setattr(core_module, "CoreState", None)  # default_engine() is then the reference
    reference_state = game.new_initial_state()
    assert type(reference_state._rules).__name__ == "ReferenceState"
    rng = random.Random(13)
    while not core_state.is_terminal():
        assert reference_state.legal_actions() == core_state.legal_actions()
        action = rng.choice(core_state.legal_actions())
        core_state.apply_action(action)
        reference_state.apply_action(action)
        assert reference_state.data() == core_state.data()
    assert reference_state.is_terminal()
    assert reference_state.returns() == core_state.returns()


def test_state_of_a_position():
    game = pyspiel.load_game("python_cannonball(players=2,seed=1)")
    state = game.new_initial_state()
    play_randomly(state, random.Random(1), limit=12)
    copy = game.state_of(state.data())
    assert str(copy) == str(state) and copy.history() == []
    assert copy.legal_actions() == state.legal_actions()


def test_max_game_length_bounds_the_game():
    for players in (2, 3, 4):
        game = pyspiel.load_game(NAME, {"players": players})
        d = game.start
        assert game.max_game_length() == spiel.max_game_length(players, d.columns, d.rows)
        assert game.max_game_length() > 1000


# -- OpenSpiel's bots -----------------------------------------------------------------------------------


def test_mcts_bot_plays_a_game():
    mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
    import numpy as np

    game = pyspiel.load_game("python_cannonball(players=2,seed=3)")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=evaluator,
                       random_state=np.random.RandomState(1), solve=False)
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(1.0)
