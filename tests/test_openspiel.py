"""The games registered with OpenSpiel (``kanaloa.openspiel``) and OpenSpiel's bots in ``simulate``.

* one OpenSpiel game per registered game, with the registry's parameters, and
  the ``openspiel`` face (``game_for``) giving the game of a rule set;
* OpenSpiel's own random-simulation checks (``pyspiel.random_sim_test``, with
  serialization) over 100 games of every rule set;
* state equality with the reference implementation, move by move: chance
  outcomes are read off the reference's deal, deck, reshuffles and PELE's
  takes, and after every move both hold the same complete state and the same
  legal moves;
* information states: exactly the viewer position; the same for every world
  the core samples for that player; a hidden draw changes only the drawer's;
* the bots: whole games, seeds, no peeking at hidden cards, spec errors.
"""

from __future__ import annotations

import json
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from kanaloa import openspiel as OS  # noqa: E402
from kanaloa.errors import OptionError  # noqa: E402
from kanaloa.play.bots import parse_bot_spec  # noqa: E402
from kanaloa.play.simulate import run_tournament  # noqa: E402
from kanaloa.play.tournament import make_tournament  # noqa: E402
from kanaloa.position.api import Position  # noqa: E402
from kanaloa.position.notation import Move  # noqa: E402
from kanaloa.rules import actions as A  # noqa: E402
from kanaloa.rules.engine import load_engine  # noqa: E402
from kanaloa.rules.registry import game_types, load_game  # noqa: E402
from kanaloa.rules.ruleset import Ruleset  # noqa: E402

REFERENCE = load_engine("reference")
KANALOA, KAHUNA = "python_kanaloa", "python_kahuna"

# (game, parameters, games in the random-simulation checks): 100 games in all.
CONFIGS = [
    (KANALOA, {}, 25),
    (KANALOA, {"players": 3, "preset": "tabletop"}, 15),
    (KANALOA, {"players": 2}, 20),
    (KANALOA, {"players": 4, "gods": True}, 10),
    (KANALOA, {"players": 3, "gods": True}, 10),
    (KAHUNA, {}, 20),
]
CONFIG_IDS = [f"{name}{params}" for name, params, _ in CONFIGS]


@pytest.mark.parametrize(("name", "params", "sims"), CONFIGS, ids=CONFIG_IDS)
def test_openspiel_random_simulation_checks(name, params, sims):
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_games_are_registered_with_their_parameters():
    assert {KANALOA, KAHUNA} <= set(pyspiel.registered_names())
    game = pyspiel.load_game("python_kanaloa(players=3,gods=True)")
    assert game.num_players() == 3
    assert game.get_parameters() == {"players": 3, "preset": "yucata", "board": "oro", "gods": True,
                                     "colors": "red;green;blue", "seed": 0}
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert pyspiel.load_game("python_kahuna").num_players() == 2


@pytest.mark.parametrize("game", game_types(), ids=lambda g: g.name)
def test_every_registered_game_is_an_openspiel_game_with_the_registrys_parameters(game):
    """``python_<name>`` for every registered game, once ``kanaloa.openspiel`` is imported: the registry's
    parameters and ``seed``, with the default rule set's values (a listing parameter empty: the player count's
    own colors, countries or tiles); its face makes the game of a rule set, as the game's name does."""
    default = load_game(game.name)
    assert f"python_{game.name}" in OS.registered() and f"python_{game.name}" in pyspiel.registered_names()
    kind = pyspiel.load_game(f"python_{game.name}").get_type()
    spec = kind.parameter_specification
    lists = OS.list_parameters(game)
    assert set(spec) == {p.name for p in game.parameters} | {"seed"}
    assert spec["seed"] == 0 and lists and all(spec[k] == "" for k in lists)
    assert all(spec[k] == v for k, v in default.params().items() if k not in lists)
    made = OS.game_for(default, 3)
    assert made.get_type().short_name == f"python_{game.name}" and made.get_parameters()["seed"] == 3
    assert str(pyspiel.load_game(str(made))) == str(made)  # its string makes the same game again
    assert kind.long_name == f"{game.title} (kanaloa engine)"
    players = next(p for p in game.parameters if p.name == "players")
    assert (kind.min_num_players, kind.max_num_players) == (min(map(int, players.choices)),
                                                            max(map(int, players.choices)))
    if isinstance(default, Ruleset):  # the family's returns need not add up to 1 where nobody may win (R16.7)
        sums = pyspiel.GameType.Utility.GENERAL_SUM if default.may_end_without_winner else \
            pyspiel.GameType.Utility.CONSTANT_SUM
        assert kind.utility == sums


def test_importing_kanaloa_openspiel_registers_every_registered_game():
    """In a fresh interpreter: ``import kanaloa.openspiel`` registers one OpenSpiel game per registered game,
    and ``register()`` again registers nothing twice."""
    import subprocess
    import sys

    program = ("import pyspiel\n"
               "import kanaloa.openspiel as OS\n"
               "from kanaloa.rules.registry import game_types\n"
               "names = ['python_' + g.name for g in game_types()]\n"
               "assert OS.register() == names == OS.registered(), OS.registered()\n"
               "assert all(list(pyspiel.registered_names()).count(n) == 1 for n in names)\n"
               "print(pyspiel.load_game('python_cannonball').num_players())\n")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "4"


@pytest.mark.parametrize(("game", "params"), [
    ("kanaloa", {}),
    ("kanaloa", {"players": 2, "gods": True}),
    ("kanaloa", {"players": 3, "preset": "tabletop", "colors": "blue,red,green"}),
    ("kahuna", {"colors": "black,white"}),
])
def test_the_openspiel_face_gives_the_game_of_a_rule_set(game, params):
    """``game_for`` (the registry's openspiel face): the game's parameters make the same rule set again, and
    its string loads that game."""
    ruleset = load_game(game, **params)
    spiel = ruleset.game_type.face("openspiel")(ruleset)
    assert spiel.ruleset is ruleset
    assert spiel.num_players() == ruleset.players
    again = pyspiel.load_game(str(spiel))
    assert again.ruleset == ruleset
    assert again.get_parameters() == spiel.get_parameters()
    assert spiel.get_parameters()["colors"] == ruleset.params()["colors"].replace(",", ";")


def test_colors_join_their_seats_with_semicolons_in_openspiels_parameters():
    """OpenSpiel's game strings split parameters at commas (R15.1: two colors a player, joined by '+')."""
    game = pyspiel.load_game("python_kanaloa(players=2,colors=green+yellow;red+blue)")
    assert game.ruleset.seat_names == ("green", "red")
    assert game.ruleset.color_names_of(1) == ("red", "blue")
    assert pyspiel.load_game(str(game)).ruleset == game.ruleset
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(("params", "message"), [
    ({"players": 5}, "players 5: the game is for 2, 3 or 4 players"),
    ({"preset": "fast"}, "preset 'fast': unknown"),
    ({"board": "atlantis"}, "board 'atlantis': no such built-in board"),
    ({"colour": 1}, "unknown parameter 'colour'; expected one of board, colors, gods, players, preset, seed"),
    ({"players": 3, "colors": "red;green"}, "colors 'red,green': 2 player"),
    ({"seed": -1}, "seed -1: must be an integer from 0 to 2"),
])
def test_bad_parameters_are_refused_with_the_field(params, message):
    with pytest.raises(ValueError, match=f"^python_kanaloa: {message}"):
        OS.load(KANALOA, **params)


def test_kahuna_refuses_other_player_counts():
    with pytest.raises(ValueError, match="Kahuna is for 2 players"):
        OS.load(KAHUNA, players=3)


def test_kahuna_has_only_its_own_parameters():
    """R16.9: Kahuna has no presets and no gods; its OpenSpiel game takes the registry's parameters only."""
    with pytest.raises(ValueError, match="unknown parameter 'preset'; expected one of board, colors, players, seed"):
        OS.load(KAHUNA, preset="yucata")


def test_an_unknown_game_is_refused():
    with pytest.raises(ValueError, match="game 'kanaloa': expected one of python_kanaloa, python_kahuna"):
        OS.load("kanaloa")


# -- state equality with the reference, move by move --------------------------------------------


def _deal_outcomes(d):
    cards = [x for hand in d.hands for x, n in enumerate(hand) for _ in range(n)] + list(d.face_up)
    return cards + (list(d.god_on) if d.gods else [])


def _play_against_reference(name, params, seed, rng):
    """Play one game through OpenSpiel and the reference side by side; returns the number of chance nodes."""
    ruleset = load_game(name, **params)
    game = OS.game_for(ruleset, seed)
    ref = REFERENCE.deal(ruleset, seed)
    state = game.new_initial_state()
    for outcome in _deal_outcomes(ref.to_data()):
        assert state.chance_kind == "deal"
        state.apply_action(outcome)
    chances = 0
    while not state.is_terminal():
        assert not state.is_chance_node()
        assert state.core.to_data() == ref.to_data()
        codes = [game.code_of(a) for a in state.legal_actions()]
        assert codes == ref.legal_actions()
        code = rng.choice(codes)
        before = ref.to_data()
        ref.apply(code)
        after = ref.to_data()
        state.apply_action(game.action_of(code))
        drawn = 0
        while state.is_chance_node():
            chances += 1
            kind_now = state.chance_kind
            if kind_now == "draw":
                outcome = before.deck[drawn]
                drawn += 1
            elif kind_now == "face-up":
                outcome = after.face_up[len(state._pending.chosen)]
            else:
                assert kind_now == "pele"
                victim = state._pending.victims[len(state._pending.chosen)]
                lost = [b - a for b, a in zip(before.hands[victim], after.hands[victim], strict=True)]
                outcome = lost.index(1)
            assert outcome in dict(state.chance_outcomes())
            state.apply_action(outcome)
    assert state.core.to_data() == ref.to_data()
    returns = state.returns()
    assert returns == [1.0 if s == ref.winner else 0.0 for s in range(game.players)]
    return chances


@pytest.mark.parametrize(("name", "params", "games"), [
    ("kanaloa", {}, 12),
    ("kanaloa", {"players": 3, "preset": "tabletop"}, 8),
    ("kanaloa", {"players": 2}, 8),
    ("kanaloa", {"gods": True}, 8),
    ("kahuna", {}, 8),
], ids=["4 players", "3 players tabletop", "2 players", "gods", "kahuna"])
def test_states_equal_the_reference_move_by_move(name, params, games):
    rng = random.Random(2026)
    chances = sum(_play_against_reference(name, params, seed, rng) for seed in range(games))
    assert chances > 0


def test_a_reshuffle_turns_up_cards_by_chance():
    """R9: a game through the first round's end asks chance for each card the reshuffle turns up."""
    game = OS.load(KANALOA, seed=3)
    rng = random.Random(7)
    state = game.new_initial_state()
    kinds = set()
    while not state.is_terminal():
        if state.is_chance_node():
            kinds.add(state.chance_kind)
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1.0) < 1e-9
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert {"deal", "draw", "face-up"} <= kinds


def test_after_a_reshuffle_each_player_knows_what_went_in_less_the_row_chance_turned_up():
    """docs/engine.md "What a reshuffle reveals": the row is chance's, not the core's own shuffle's, so what
    each player saw come out of the deck is that row."""
    from kanaloa.rules.reference import reshuffle_knowledge, seen_leave_deck

    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = OS.load(KANALOA, seed=seed).new_initial_state()
        before = None
        while not state.is_terminal() and state.core.round != 2:
            if not state.is_chance_node():
                before = state.core.to_data()
            outcomes, probs = zip(*state.chance_outcomes(), strict=True) if state.is_chance_node() else (None, None)
            state.apply_action(rng.choices(outcomes, probs)[0] if outcomes else rng.choice(state.legal_actions()))
        while state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        if state.is_terminal() or before is None:
            continue
        data = state.core.to_data()
        expected = before.copy()
        expected.pile, expected.pile_unseen = reshuffle_knowledge(before)
        expected.deck = data.deck
        for card in data.face_up:
            seen_leave_deck(expected, range(data.players), card)
        assert (data.pile, data.pile_unseen) == (expected.pile, expected.pile_unseen), seed
        checked += 1
    assert checked > 0


def test_chance_outcomes_follow_the_cards_left():
    """The first card dealt: every island equally likely (3 cards each on oro); an impossible outcome is refused."""
    state = OS.load(KANALOA).new_initial_state()
    outcomes = dict(state.chance_outcomes())
    assert sorted(outcomes) == list(range(16))
    assert all(abs(p - 1 / 16) < 1e-12 for p in outcomes.values())
    for _ in range(3):
        state.apply_action(5)
    assert 5 not in dict(state.chance_outcomes())
    with pytest.raises(ValueError, match="chance outcome 5: not possible here"):
        state.apply_action(5)


@pytest.mark.parametrize(("name", "params"), [(KANALOA, {}), (KANALOA, {"gods": True}), (KAHUNA, {})],
                         ids=["4 players", "gods", "kahuna"])
def test_shortcuts_answer_as_openspiels_own_methods(name, params):
    """``is_chance_node`` and ``legal_actions`` are answered in Python; OpenSpiel's own (C++) methods,
    which call back into the state, give the same answers at every node, for every player."""
    game = OS.load(name, seed=5, **params)
    rng = random.Random(5)
    state = game.new_initial_state()
    players = [pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.TERMINAL, pyspiel.PlayerId.INVALID,
               *range(game.num_players() + 2)]
    while True:
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for player in players:
            if player < 0 and state.current_player() >= 0:
                with pytest.raises(pyspiel.SpielError, match="pseudo-player"):
                    pyspiel.State.legal_actions(state, player)
                with pytest.raises(pyspiel.SpielError, match="pseudo-player"):
                    state.legal_actions(player)
                continue
            assert state.legal_actions(player) == pyspiel.State.legal_actions(state, player), player
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.legal_actions() == []


# -- information states -------------------------------------------------------------------------


def _player_states(name, params, seed, every=7):
    """Player nodes of one random game (every ``every``-th)."""
    game = OS.load(name, seed=seed, **params)
    rng = random.Random(seed)
    state = game.new_initial_state()
    n = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        n += 1
        if n % every == 0:
            yield game, state
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("name", "params"), [(KANALOA, {}), (KANALOA, {"players": 2}), (KANALOA, {"gods": True}),
                                              (KAHUNA, {})],
                         ids=["4 players", "2 players", "gods", "kahuna"])
def test_information_state_is_the_viewer_position(name, params):
    for game, state in _player_states(name, params, seed=11, every=9):
        board = game.board
        full = Position.from_json(json.loads(str(state).split(" | ")[0]), boards=lambda _, b=board: b)
        for player in range(game.players):
            key = state.information_state_string(player)
            assert key == state.observation_string(player)
            color = full.players[player]
            assert json.loads(key) == full.as_viewer(color).to_json()


@pytest.mark.parametrize(("name", "params"), [(KANALOA, {}), (KANALOA, {"players": 2}), (KANALOA, {"gods": True}),
                                              (KAHUNA, {})],
                         ids=["4 players", "2 players", "gods", "kahuna"])
def test_every_resampled_world_has_the_same_information_state(name, params):
    sampler = pyspiel.UniformProbabilitySampler(5, 0.0, 1.0)
    worlds = 0
    for _, state in _player_states(name, params, seed=4, every=5):
        player = state.current_player()
        key = state.information_state_string(player)
        for _ in range(3):
            world = state.resample_from_infostate(player, sampler)
            assert world.information_state_string(player) == key
            assert world.legal_actions() == state.legal_actions()
            worlds += 1
    assert worlds > 20


def test_a_blind_draw_changes_only_the_drawers_information_state():
    """R5: the drawer sees its card; the others see that a card was drawn, not which."""
    for game, state in _player_states(KANALOA, {}, seed=21, every=1):
        draw = A.encode(A.DRAW)
        if draw not in [game.code_of(a) for a in state.legal_actions()] or state.core.deck_size < 2:
            continue
        drawer = state.current_player()
        after = state.clone()
        after.apply_action(game.action_of(draw))
        assert after.chance_kind == "draw"
        outcomes = [x for x, _ in after.chance_outcomes()]
        if len(outcomes) < 2:
            continue
        one, two = after.clone(), after.clone()
        one.apply_action(outcomes[0])
        two.apply_action(outcomes[1])
        assert one.information_state_string(drawer) != two.information_state_string(drawer)
        for other in range(game.players):
            if other != drawer:
                assert one.information_state_string(other) == two.information_state_string(other)
        return
    pytest.fail("no blind draw with two possible cards in the game")


def test_actions_read_as_the_move_notation_of_the_seat():
    """R15.3: with two players a build names the color it builds with; a chance outcome names a card, or at the
    deal of Might of the Gods a token (R14.1)."""
    game = OS.load(KANALOA, players=2, gods=True, seed=1)
    rng = random.Random(1)
    state = game.new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 3) == f"card {game.board.islands[3]}"
    for _ in range(game.deal_cards):
        state.apply_action(rng.choice([x for x, _ in state.chance_outcomes()]))
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "token KU"
    while True:
        if state.is_chance_node():
            state.apply_action(rng.choice([x for x, _ in state.chance_outcomes()]))
            continue
        builds = [a for a in state.legal_actions() if A.kind_of(game.code_of(a)) == A.PLACE]
        if builds:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    texts = [state.action_to_string(seat, a) for a in builds]
    assert {t.split(": ")[0] for t in texts} == set(game.ruleset.color_names_of(seat))
    for action, text in zip(builds, texts, strict=True):
        assert Move.parse(text, game.ruleset).to_action(game.ruleset, seat) == game.code_of(action)


def test_resampling_a_chance_node_is_refused():
    state = OS.load(KANALOA).new_initial_state()
    with pytest.raises(ValueError, match="only a player node"):
        state.resample(0, 1)


# -- OpenSpiel's bots -----------------------------------------------------------------------------


def _midgame() -> Position:
    with open("src/kanaloa/examples/midgame.json", encoding="utf-8") as f:
        return Position.from_json(f.read())


@pytest.mark.parametrize("spec", ["openspiel-ismcts:iterations=2", "openspiel-mcts:iterations=2",
                                  "openspiel-ismcts:iterations=8", "openspiel-mcts:iterations=8",
                                  "openspiel-ismcts:iterations=8:rollout=core",
                                  "openspiel-mcts:iterations=8:rollout=core"])
def test_openspiel_bots_play_whole_games_reproducibly(spec):
    lineup = [spec, "random", "random"]
    first = run_tournament(make_tournament(lineup, 3, seed=9))
    again = run_tournament(make_tournament(lineup, 3, seed=9))
    assert len(first.records) == 3
    assert [r.moves for r in first.records] == [r.moves for r in again.records]


def test_openspiel_ismcts_plays_kahuna_and_the_gods():
    for kwargs in ({"game": "kahuna"}, {"gods": True}):
        lineup = ["openspiel-ismcts:iterations=4", "random"] if kwargs.get("game") else \
            ["openspiel-ismcts:iterations=4", "random", "random"]
        result = run_tournament(make_tournament(lineup, len(lineup), seed=3, **kwargs))
        assert len(result.records) == len(lineup)


@pytest.mark.parametrize("spec", ["openspiel-ismcts:iterations=30", "openspiel-mcts:iterations=30",
                                  "openspiel-ismcts:iterations=30:rollout=core"])
def test_openspiel_bots_do_not_see_hidden_cards(spec):
    """Two states that differ only in another player's hidden cards and the deck's order: the same choice."""
    position = _midgame()
    state = position.state
    me = state.to_move
    other = state.determinise(me, 99)
    assert other.to_data() != state.to_data()
    choices = []
    for s in (state, other):
        bot = parse_bot_spec(spec)
        bot.start(position.ruleset, 5)
        choices.append(bot.choose(s))
    assert choices[0] == choices[1]


def _chi_square(a: list[float], b: list[float]) -> float:
    """Pearson's statistic of a 2 x k table of counts (columns with no count left out)."""
    total_a, total_b = sum(a), sum(b)
    stat = 0.0
    for x, y in zip(a, b, strict=True):
        column = x + y
        if column:
            for seen, total in ((x, total_a), (y, total_b)):
                expected = column * total / (total_a + total_b)
                stat += (seen - expected) ** 2 / expected
    return stat


# Chi-square at p = 0.001 for 1 and 3 degrees of freedom (2 and 4 seats).
CHI2_CRITICAL = {2: 10.83, 4: 16.27}


@pytest.mark.parametrize(("params", "seed"), [({}, 4), ({"players": 2}, 6)], ids=["4 players", "2 players"])
def test_core_rollouts_are_openspiels_random_rollouts(params, seed):
    """``rollout=core`` plays the same random process as OpenSpiel's ``RandomRolloutEvaluator``: from one
    world of the middle of a game (after chance nodes fixed deck cards one by one), who wins the
    rollouts is distributed alike (a chi-square test of the winners of 600 rollouts each)."""
    import numpy
    from open_spiel.python.algorithms import mcts

    from kanaloa.play.openspiel_search import CoreRolloutEvaluator, random_state

    game = OS.load(KANALOA, **params)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node() or state.move_number() < 100:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    world = state.resample(state.current_player(), seed)
    wins = []
    for evaluator in (mcts.RandomRolloutEvaluator(1, random_state(seed)), CoreRolloutEvaluator(random_state(seed))):
        total = numpy.zeros(game.num_players())
        for _ in range(600):
            total += evaluator.evaluate(world)
        wins.append(list(total))
    assert all(sum(w) > 0 for w in wins)
    assert _chi_square(*wins) < CHI2_CRITICAL[game.num_players()], wins
    assert CoreRolloutEvaluator(random_state(1)).prior(world) == mcts.RandomRolloutEvaluator().prior(world)


def test_shuffle_chance_reorders_the_deck_and_renews_the_chance_stream_and_nothing_else():
    state = _midgame().state
    before = state.to_data()
    orders, streams = set(), set()
    for seed in range(6):
        shuffled = state.copy()
        shuffled.shuffle_chance(seed)
        after = shuffled.to_data()
        assert sorted(after.deck) == sorted(before.deck)
        orders.add(tuple(after.deck))
        streams.add(after.rng)
        after.deck, after.rng = before.deck, before.rng
        assert after == before
    assert len(orders) == 6 and len(streams) == 6 and before.rng not in streams
    again = state.copy()
    again.shuffle_chance(5)
    assert tuple(again.to_data().deck) in orders and again.to_data().rng in streams


def test_core_rollouts_from_one_world_do_not_share_their_chance():
    """Every rollout from one world (``openspiel-mcts`` rolls out many times from one) starts with its own
    deck order and chance stream, so its reshuffles and PELE's takes are its own; the cards stay."""
    from kanaloa.play.openspiel_search import CoreRolloutEvaluator, random_state

    game = OS.load(KANALOA)
    world = game.state_of(_midgame().state.determinise(0, 3))
    evaluator = CoreRolloutEvaluator(random_state(2))
    starts = [evaluator.rollout_start(world).to_data() for _ in range(5)]
    original = world.core.to_data()
    assert len({d.rng for d in starts} | {original.rng}) == 6
    assert len({tuple(d.deck) for d in starts}) == 5
    assert all(sorted(d.deck) == sorted(original.deck) and d.hands == original.hands for d in starts)
    assert evaluator.evaluate(world).sum() in (0.0, 1.0)


def test_an_unknown_rollout_is_refused():
    from kanaloa.play.openspiel_search import evaluator, random_state

    with pytest.raises(ValueError, match="rollout 'fast': choose one of python, core"):
        evaluator("fast", random_state(1))


def test_openspiel_bot_time_budget_stops_the_search():
    position = _midgame()
    bot = parse_bot_spec("openspiel-ismcts:time=0.05")
    bot.start(position.ruleset, 1)
    bot.choose(position.state)
    assert 2 <= bot.searched < 5000


@pytest.mark.parametrize(("spec", "message"), [
    ("openspiel-ismcts:iterations=10:time=1", "key 'time' cannot be combined with 'iterations'"),
    ("openspiel-ismcts:iterations=1", "key 'iterations' must be at least 2"),
    ("openspiel-mcts:iterations=1", "key 'iterations' must be at least 2"),
    ("openspiel-mcts:policy=random", "unknown key 'policy' for openspiel-mcts"),
    ("openspiel-ismcts:c=-1", "key 'c' must be at least 0"),
    ("openspiel-ismcts:rollout=fast", "key 'rollout' must be one of python, core"),
])
def test_openspiel_bot_spec_errors(spec, message):
    with pytest.raises(OptionError, match=message):
        parse_bot_spec(spec)


def test_openspiel_bots_without_the_extra_say_how_to_install_it(monkeypatch):
    from kanaloa.play import bots

    monkeypatch.setattr(bots, "openspiel_installed", lambda: False)
    with pytest.raises(OptionError, match=r"needs the optional extra openspiel .*pip install \"kanaloa\[openspiel\]\""):
        parse_bot_spec("openspiel-ismcts:iterations=10")


def test_a_state_made_from_a_core_state_serializes():
    game = pyspiel.load_game(KANALOA)
    state = game.state_of(_midgame().state)
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert str(again) == str(state)
    assert again.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("rollout", ["python", "core"])
def test_the_bench_runs_openspiels_ismcts_with_either_rollout(rollout):
    from kanaloa.tools.benchmark import bench_position, position_ruleset, run_openspiel_ismcts

    assert run_openspiel_ismcts(bench_position(position_ruleset(4), "mid-round-1"), 6, rollout=rollout) == 6


def test_a_program_that_registers_the_games_exits_cleanly():
    """OpenSpiel's registry outlives the interpreter; the factories it holds must not be freed after it.

    A Hypothesis test run beforehand used to make the interpreter's teardown leave OpenSpiel the last
    reference, and the process ended in "Fatal Python error: PyThreadState_Get" (exit status 134).
    """
    import subprocess
    import sys

    program = ("import kanaloa.openspiel\n"
               "from hypothesis import given, strategies as st\n"
               "@given(st.integers())\n"
               "def check(x):\n"
               "    pass\n"
               "check()\n")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "Fatal Python error" not in done.stderr, done.stderr
