"""Every registered game as a PettingZoo environment (``kanaloa.pettingzoo``, docs/pettingzoo.md).

PettingZoo's own checks pass for every game and rule set: ``api_test`` and
``seed_test`` on the AEC environment, ``max_cycles_test`` on the parallel one
(its AEC half through PettingZoo's ``parallel_to_aec``: the test wants every
agent stepped in strict rotation, which the AEC environment of a turn-based
game does not do, a turn being several steps of one agent).  An agent's
observation holds what it knows and nothing it cannot know; every bad
parameter and action is refused with a message naming it.
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, max_cycles_test, seed_test
from pettingzoo.utils.conversions import parallel_to_aec

import kanaloa.pettingzoo as pz
from kanaloa.position.viewer import view_of
from kanaloa.rules.registry import game_types, load_game
from kanaloa.rules.rng import SplitMix64

# (environment module, parameters): every game, Kanaloa's player counts and the gods.
ENVS = [("kanaloa_v0", {"players": 4}), ("kanaloa_v0", {"players": 3, "preset": "tabletop"}),
        ("kanaloa_v0", {"players": 2}), ("kanaloa_v0", {"players": 4, "gods": True}),
        ("kanaloa_v0", {"players": 2, "gods": True}), ("kahuna_v0", {}), ("cannonball_v0", {"players": 2}),
        ("cannonball_v0", {"players": 3}), ("cannonball_v0", {"players": 4})]
IDS = [f"{m}-{'-'.join(f'{k}={v}' for k, v in p.items()) or 'default'}" for m, p in ENVS]

# What PettingZoo's api_test says of every environment whose observation is a dict with an action mask (its own
# chess_v6 included): it calls its array checks on the dict, and it would rather see a Box or Discrete space.
KNOWN_WARNINGS = ("Observation is not a NumPy array",
                  "Observation space for each agent probably should be gymnasium.spaces.box or "
                  "gymnasium.spaces.discrete")


def module(name: str):
    return getattr(pz, name)


def random_masked_game(env, seed: int, steps: int | None = None):
    """Play ``env`` from ``reset(seed)`` with uniformly random legal actions; yield before each step."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    n = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        yield agent
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
        n += 1
        if steps is not None and n >= steps:
            return


# -- PettingZoo's own tests ------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "params"), ENVS, ids=IDS)
def test_pettingzoo_api_test_passes(name, params):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        api_test(module(name).env(**params), num_cycles=1000)
    other = {str(w.message) for w in seen} - set(KNOWN_WARNINGS)
    assert not other, other


@pytest.mark.parametrize(("name", "params"), ENVS, ids=IDS)
def test_pettingzoo_seed_test_passes(name, params):
    seed_test(lambda: module(name).env(**params), num_cycles=300)


@pytest.mark.parametrize(("name", "params"), ENVS, ids=IDS)
def test_pettingzoo_max_cycles_test_passes_on_the_parallel_environment(name, params):
    mod = module(name)
    view = SimpleNamespace(parallel_env=lambda **kw: mod.parallel_env(**params, **kw),
                           env=lambda **kw: parallel_to_aec(mod.parallel_env(**params, **kw)))
    max_cycles_test(view)


def test_every_registered_game_has_its_environment_module():
    assert set(pz.env_modules()) == {f"{g.name}_v0" for g in game_types()}
    code = "import kanaloa.pettingzoo.kahuna_v0 as m; print(m.env().metadata['name'])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["kahuna_v0"]


# -- the game as it plays ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "params"), [ENVS[0], ENVS[5], ENVS[7]], ids=[IDS[0], IDS[5], IDS[7]])
def test_reset_with_a_seed_deals_the_game_kanaloa_new_deals(name, params):
    env = module(name).env(**params)
    env.reset(seed=11)
    dealt = env.ruleset.game_type.face("position").deal(env.ruleset, 11)
    assert env.position.state.to_data() == dealt.state.to_data()
    env.reset()  # the next seed
    assert env.position.state.to_data() == env.ruleset.game_type.face("position").deal(env.ruleset, 12) \
        .state.to_data()


def test_an_environment_never_seeded_deals_seed_zero_then_the_next_ones():
    env = pz.kahuna_v0.env()
    env.reset()
    first = env.position.state.to_data()
    env.reset(seed=0)
    assert env.position.state.to_data() == first


def test_the_agent_selected_is_the_seat_to_move_and_only_it_has_legal_actions():
    env = pz.kanaloa_v0.env(players=3)
    for agent in random_masked_game(env, 5, steps=200):
        seat = env.possible_agents.index(agent)
        assert seat == env.position.state.to_move
        for other in env.agents:
            mask = env.observe(other)["action_mask"]
            assert mask.any() == (other == agent)
        legal = {env.tensor.action_of(code) for code in env.position.state.legal_actions()}
        assert set(np.flatnonzero(env.observe(agent)["action_mask"])) == legal


@pytest.mark.parametrize(("name", "params"), [ENVS[0], ENVS[4], ENVS[5], ENVS[6]],
                         ids=[IDS[0], IDS[4], IDS[5], IDS[6]])
def test_rewards_come_at_the_end_as_the_games_returns(name, params):
    env = module(name).env(**params)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    returns = env.tensor.returns(env.position.state)
    assert env.position.state.is_over
    assert list(totals.values()) == returns
    assert (sum(returns) in (0.0, 1.0) and max(returns) > 0) or env.ruleset.may_end_without_winner


def test_an_illegal_action_is_refused_with_a_penalty_and_the_agent_asked_again():
    env = pz.kanaloa_v0.env(players=4, illegal_reward=-0.5)
    env.reset(seed=1)
    agent = env.agent_selection
    obs = env.observe(agent)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.position.state.to_data()
    env.step(illegal)
    assert env.agent_selection == agent
    assert env.position.state.to_data() == before
    _, reward, term, trunc, info = env.last()
    assert (reward, term, trunc, info["illegal_action"]) == (-0.5, False, False, illegal)


def test_max_cycles_truncates_the_aec_game_after_that_many_steps():
    env = pz.kanaloa_v0.env(players=4, max_cycles=7)
    steps = list(random_masked_game(env, 2))
    assert len(steps) == 7
    assert all(env.truncations.get(a, True) for a in env.possible_agents)
    assert not env.agents


def test_the_parallel_environment_plays_the_movers_action_and_reads_no_other():
    env = pz.kanaloa_v0.parallel_env(players=3)
    observations, infos = env.reset(seed=4)
    assert set(observations) == set(env.possible_agents) and infos["player_0"]["seat_name"] == "red"
    mover = next(a for a, o in observations.items() if o["action_mask"].any())
    legal = int(np.flatnonzero(observations[mover]["action_mask"])[0])
    actions = {a: (legal if a == mover else 10**6) for a in env.agents}  # the others' are not read
    _, rewards, terms, truncs, _ = env.step(actions)
    assert set(rewards.values()) == {0.0} and not any(terms.values()) and not any(truncs.values())
    with pytest.raises(ValueError, match="actions: no action for player_"):
        env.step({})


# -- what an observation holds -------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "params"), [ENVS[0], ENVS[2], ENVS[3], ENVS[4], ENVS[5]],
                         ids=[IDS[0], IDS[2], IDS[3], IDS[4], IDS[5]])
def test_an_observation_does_not_change_when_only_what_the_agent_cannot_know_changes(name, params):
    """The other hands beyond what the agent knows of them, the deck's order, the others' face-down discards
    and setup choices are dealt afresh (the core's determinisation for the agent), and the deck is shuffled
    again: the agent's observation stays the same, at every step of several random games."""
    env = module(name).env(**params)
    tensor, stream, checked = env.tensor, SplitMix64(9), 0
    for game in range(3):
        for _ in random_masked_game(env, game):
            state = env.position.state
            for seat in range(env.ruleset.players):
                seen = np.empty(tensor.observation_size, np.float32)
                tensor.observe(state, seat, seen)
                other = state.determinise(seat, stream.next())
                other.shuffle_chance(stream.next())  # and the deck's order, the chance stream too
                again = np.empty_like(seen)
                tensor.observe(other, seat, again)
                assert np.array_equal(seen, again), (game, seat, env.position.state.to_data())
                checked += 1
    assert checked > 500


@pytest.mark.parametrize("params", [{"players": 4}, {"players": 2, "gods": True}])
def test_an_observation_holds_all_the_agent_knows(params):
    """The converse: two states the agent can tell apart (its viewer positions differ) never give it the same
    observation.  The viewer position's order of the open discards is left out: the reshuffle lists them in
    island order (R9), so it can change nothing."""
    env = pz.kanaloa_v0.env(**params)
    tensor, rs = env.tensor, env.ruleset
    seen: dict[bytes, object] = {}
    for game in range(4):
        for _ in random_masked_game(env, 20 + game):
            full = env.position.state.to_data()
            for seat in range(rs.players):
                view, _ = view_of(rs, full, seat)
                view.discard_open = sorted(view.discard_open)
                obs = np.empty(tensor.observation_size, np.float32)
                tensor.observe(env.position.state, seat, obs)
                key = obs.tobytes() + bytes([seat])
                assert seen.setdefault(key, view) == view
    assert len(seen) > 1000


def test_the_observation_counts_seats_from_the_agent():
    """Every seat's numbers are laid out from the observer: its own hand size comes first."""
    env = pz.kanaloa_v0.env(players=4)
    env.reset(seed=2)
    state, tensor = env.position.state, env.tensor
    at = 0
    for f in tensor.fields:
        if f.name == "hand_sizes":
            break
        at += f.size
    sizes = [sum(h) for h in state.to_data().hands]
    for seat in range(4):
        obs = env.observe(f"player_{seat}")["observation"]
        assert list(obs[at:at + 4]) == [sizes[(seat + r) % 4] for r in range(4)]


def test_every_field_lies_within_its_space():
    for name, params in ENVS:
        env = module(name).env(**params)
        assert sum(f.size for f in env.tensor.fields) == env.observation_space("player_0")["observation"].shape[0]
        assert env.observation_space("player_0")["action_mask"].shape == (env.tensor.n_actions,)


# -- pictures ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "params"), [ENVS[0], ENVS[5], ENVS[7]], ids=[IDS[0], IDS[5], IDS[7]])
def test_render_modes_give_the_terminal_board_and_the_svg_picture(name, params):
    mod = module(name)
    ansi = mod.env(render_mode="ansi", **params)
    ansi.reset(seed=1)
    text = ansi.render()
    rs = ansi.ruleset
    assert text == rs.game_type.face("display")(ansi.position, use_color=False)
    assert "\x1b[" not in text
    svg = mod.env(render_mode="svg", **params)
    svg.reset(seed=1)
    assert svg.render().startswith("<svg")
    plain = mod.env(**params)
    plain.reset(seed=1)
    assert plain.render() is None


# -- what it refuses ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("make", "message"), [
    (lambda: pz.make_env("chess"), "game 'chess': unknown; choose one of kanaloa, kahuna, cannonball"),
    (lambda: pz.kanaloa_v0.env(players=5), "kanaloa: players"),
    (lambda: pz.kahuna_v0.env(players=3), "kahuna: players"),
    (lambda: pz.kanaloa_v0.env(colours="red"), "colours"),
    (lambda: pz.kanaloa_v0.env(render_mode="human"), "render_mode: 'human' is not one of ansi, svg"),
    (lambda: pz.kanaloa_v0.env(max_cycles=0), "max_cycles: must be a positive integer or None, not 0"),
    (lambda: pz.kanaloa_v0.parallel_env(max_cycles=2.5), "max_cycles: must be a positive integer"),
    (lambda: pz.kanaloa_v0.env(illegal_reward=float("nan")), "illegal_reward: must be a finite number"),
    (lambda: pz.cannonball_v0.env(players=1), "cannonball: players"),
])
def test_a_bad_parameter_is_refused_naming_it(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_a_bad_seed_or_action_is_refused_naming_it():
    env = pz.kanaloa_v0.env()
    with pytest.raises(ValueError, match="seed: must be an integer from 0 to 2\\*\\*64-1, not -1"):
        env.reset(seed=-1)
    env.reset(seed=0)
    n = env.tensor.n_actions
    with pytest.raises(ValueError, match=f"action: must be from 0 to {n - 1}, not {n}"):
        env.step(n)
    with pytest.raises(ValueError, match="action: must be an integer"):
        env.step(1.5)
    env.step(np.int32(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])))  # NumPy ints do


def test_the_action_numbering_is_the_openspiel_faces():
    pytest.importorskip("pyspiel")
    rs = load_game("kanaloa", players=2, gods=True)
    game = rs.game_type.face("openspiel")(rs)
    assert tuple(game.codes) == rs.game_type.face("tensor")(rs).codes
    cb = load_game("cannonball", players=3)
    assert tuple(cb.game_type.face("openspiel")(cb).codes) == cb.game_type.face("tensor")(cb).codes


# -- docs/pettingzoo.md says what the faces give ---------------------------------------------------------------

DOC = Path(__file__).resolve().parent.parent / "docs/pettingzoo.md"


def doc_tables() -> list[list[list[str]]]:
    """Every table of docs/pettingzoo.md: its rows (the header's too) as lists of cells."""
    tables, rows = [], []
    for line in [*DOC.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if not set(cells[0]) <= set("-: "):
                rows.append(cells)
        elif rows:
            tables.append(rows)
            rows = []
    return tables


def test_the_docs_list_every_field_of_the_observation_in_order():
    fields = {}
    for table in doc_tables():
        if table[0][:2] == ["field", "shape"]:
            fields[table[1][0]] = [row[0].strip("`") for row in table[1:]]
    family = load_game("kanaloa", players=2, gods=True)  # every field of the family's: pairs and the gods
    cannonball = load_game("cannonball", players=3)
    assert fields["`bridges`"] == [f.name for f in family.game_type.face("tensor")(family).fields]
    assert fields["`terrain`"] == [f.name for f in cannonball.game_type.face("tensor")(cannonball).fields]


def test_the_docs_give_each_rule_sets_sizes():
    table = next(t for t in doc_tables() if t[0] == ["rule set", "observation", "actions"])
    made = [("kanaloa", {"players": 4}), ("kanaloa", {"players": 3}), ("kanaloa", {"players": 2}),
            ("kanaloa", {"players": 4, "gods": True}), ("kanaloa", {"players": 3, "gods": True}),
            ("kanaloa", {"players": 2, "gods": True}), ("kahuna", {}), ("cannonball", {"players": 2}),
            ("cannonball", {"players": 3}), ("cannonball", {"players": 4})]
    sizes = []
    for game, params in made:
        rs = load_game(game, **params)
        face = rs.game_type.face("tensor")(rs)
        sizes.append([f"{face.observation_size:,}", f"{face.n_actions:,}"])
    assert [row[1:] for row in table[1:]] == sizes
