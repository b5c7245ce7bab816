"""``GameBatch``: many games held in the compiled core and stepped with one call (``kanaloa.pettingzoo.batch``).

The batch plays exactly the games ``CoreState`` plays move by move: slot ``i``
deals from the draws of SplitMix64(seed + i), and at every step its mask, the
mover's observation, the rewards and the done flags are what the core state
and the game's ``tensor`` face give for the same game.  Every bad input is
refused with a message naming it, and no game moves then.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from kanaloa.pettingzoo import GameBatch
from kanaloa.rules.rng import SplitMix64

RULE_SETS = [("kanaloa", {"players": 4}), ("kanaloa", {"players": 3, "preset": "tabletop"}),
             ("kanaloa", {"players": 2}), ("kanaloa", {"players": 4, "gods": True}),
             ("kanaloa", {"players": 2, "gods": True}), ("kahuna", {})]
IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in p.items()) or 'default'}" for g, p in RULE_SETS]


class Replica:
    """The games of a batch played one by one on ``CoreState``s, as the batch documents them."""

    def __init__(self, batch: GameBatch) -> None:
        self.tensor = batch.tensor
        self.deals = [SplitMix64(batch.seed + i) for i in range(batch.n)]
        self.states = [self.tensor.deal(d.next()) for d in self.deals]

    def expect(self, i: int) -> tuple[np.ndarray, np.ndarray, int]:
        state = self.states[i]
        obs = np.empty(self.tensor.observation_size, np.float32)
        mask = np.empty(self.tensor.n_actions, np.int8)
        self.tensor.observe(state, state.to_move, obs)
        self.tensor.legal_mask(state, mask)
        return obs, mask, state.to_move

    def step(self, i: int, action: int) -> tuple[list[float], bool]:
        state = self.states[i]
        state.apply(self.tensor.code_of(action))
        if not state.is_over:
            return [0.0] * self.tensor.players, False
        rewards = self.tensor.returns(state)
        self.states[i] = self.tensor.deal(self.deals[i].next())
        return rewards, True


def assert_same(batch: GameBatch, replica: Replica) -> None:
    for i in range(batch.n):
        obs, mask, mover = replica.expect(i)
        assert np.array_equal(batch.observations[i], obs), i
        assert np.array_equal(batch.action_masks[i], mask), i
        assert batch.to_move[i] == mover, i


@pytest.mark.parametrize(("game", "params"), RULE_SETS, ids=IDS)
def test_the_batch_plays_the_games_core_states_play_step_for_step(game, params):
    batch = GameBatch(game, 6, seed=40, **params)
    replica = Replica(batch)
    assert_same(batch, replica)
    finished = 0
    for _ in range(700):  # several games a slot
        actions = batch.random_actions()
        assert all(batch.action_masks[i, a] for i, a in enumerate(actions))
        _, _, rewards, dones = batch.step(actions)
        for i, a in enumerate(actions):
            expected, over = replica.step(i, int(a))
            assert list(rewards[i]) == expected, i
            assert bool(dones[i]) == over, i
            finished += over
        assert_same(batch, replica)
    assert finished >= 6
    assert sum(batch.finished_games(i) for i in range(batch.n)) == finished


def test_random_actions_come_from_each_slots_own_stream_and_reset_starts_over():
    """Slot i draws ``legal[below(len(legal))]`` of its legal actions, ascending, from SplitMix64((seed + i) ^
    PLAYOUT_SALT); ``reset`` deals the first games again and starts the streams over."""
    import kanaloa_core

    batch = GameBatch("kanaloa", 5, seed=3)
    streams = [SplitMix64((3 + i) ^ kanaloa_core.PLAYOUT_SALT) for i in range(5)]
    first_obs, drawn = batch.observations.copy(), []
    for _ in range(60):
        expected = [int(np.flatnonzero(batch.action_masks[i])[s.below(int(batch.action_masks[i].sum()))])
                    for i, s in enumerate(streams)]
        acts = batch.random_actions()
        assert list(acts) == expected
        drawn.append(acts)
        batch.step(acts)
    batch.reset()
    assert np.array_equal(batch.observations, first_obs)
    assert np.array_equal(batch.random_actions(), drawn[0])


def test_a_finished_game_is_dealt_again_and_its_reward_goes_to_the_winner():
    batch = GameBatch("kahuna", 3, seed=8)
    replica = Replica(batch)
    while True:
        acts = batch.random_actions()
        _, _, rewards, dones = batch.step(acts)
        for i, act in enumerate(acts):
            replica.step(i, int(act))
        if dones.any():
            break
    i = int(np.flatnonzero(dones)[0])
    assert rewards[i].sum() in (0.0, 1.0)
    assert batch.state(i).to_data() == replica.states[i].to_data()  # the slot's next game, at its start
    assert batch.finished_games(i) == 1


def test_state_is_a_copy():
    batch = GameBatch("kanaloa", 2, seed=1)
    copy = batch.state(0)
    copy.apply(copy.legal_actions()[0])
    assert batch.state(0).to_data() != copy.to_data()


# -- what it refuses ---------------------------------------------------------------------------------


def test_an_illegal_action_names_its_game_and_no_game_moves():
    batch = GameBatch("kanaloa", 4, seed=2)
    before = batch.observations.copy(), [batch.state(i).to_data() for i in range(4)]
    actions = batch.random_actions()
    illegal = int(np.flatnonzero(batch.action_masks[2] == 0)[0])
    actions[2] = illegal
    with pytest.raises(ValueError, match=rf"actions\[2\]: {illegal} is not legal in game 2, where seat 0 may play"):
        batch.step(actions)
    assert np.array_equal(batch.observations, before[0])
    assert [batch.state(i).to_data() for i in range(4)] == before[1]
    actions[2] = batch.n_actions
    with pytest.raises(ValueError, match=rf"actions\[2\]: {batch.n_actions} is no action; the actions are 0 to "):
        batch.step(actions)
    actions[2] = -1
    with pytest.raises(ValueError, match=r"actions\[2\]: -1 is no action"):
        batch.step(actions)


@pytest.mark.parametrize(("actions", "message"), [
    (np.zeros(5, np.int64), r"actions: must be an array of shape \(4,\), one action per game, not \(5,\)"),
    (np.zeros((4, 1), np.int64), r"actions: must be an array of shape \(4,\)"),
    (np.zeros(4, np.float32), "actions: must hold integers, not float32"),
    (["a", "b", "c", "d"], "actions: must hold integers, not <U1"),
])
def test_actions_of_the_wrong_shape_or_type_are_refused(actions, message):
    batch = GameBatch("kanaloa", 4, seed=2)
    with pytest.raises(ValueError, match=message):
        batch.step(actions)


def test_actions_of_another_integer_type_are_taken():
    batch, twin = GameBatch("kanaloa", 4, seed=5), GameBatch("kanaloa", 4, seed=5)
    acts = batch.random_actions()
    twin.random_actions()
    batch.step(acts.astype(np.int16))
    twin.step(list(map(int, acts)))
    assert np.array_equal(batch.observations, twin.observations)


@pytest.mark.parametrize(("make", "message"), [
    (lambda: GameBatch("kanaloa", 0), "n: must be an integer from 1 to 1048576, not 0"),
    (lambda: GameBatch("kanaloa", 2.0), "n: must be an integer"),
    (lambda: GameBatch("kanaloa", 2, seed=-1), r"seed: must be an integer from 0 to 2\*\*64-1, not -1"),
    (lambda: GameBatch("kanaloa", 2, players=7), "kanaloa: players"),
    (lambda: GameBatch("go", 2), "game 'go': unknown"),
    (lambda: GameBatch("cannonball", 2), "cannonball: Cannonball Colony has no batched core; play it through"),
])
def test_a_bad_batch_is_refused_naming_what(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_the_core_checks_the_arrays_it_is_handed():
    """The C batch behind ``GameBatch`` checks the shape and type of every array, whoever calls it."""
    batch = GameBatch("kanaloa", 3, seed=1)
    core = batch._core
    with pytest.raises(ValueError, match=f"observations: must be 3 x {batch.observation_size}, not 2 x "):
        core.reset(np.zeros((2, batch.observation_size), np.float32), batch.action_masks, batch.to_move)
    with pytest.raises(ValueError, match="Buffer dtype mismatch"):
        core.reset(batch.observations.astype(np.float64), batch.action_masks, batch.to_move)
    with pytest.raises(ValueError, match="rewards: must be 3 x 4, not 3 x 2"):
        core.step(np.zeros(3, np.int64), batch.observations, batch.action_masks, np.zeros((3, 2), np.float32),
                  np.zeros(3, np.int8), batch.to_move)
