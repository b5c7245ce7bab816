"""Might of the Gods (R14) above the rules: the bots, the search's view of hidden token moves,
tournaments and records, and the benchmark's figures for the variant.

The rules themselves are tested in ``test_rules_r14.py`` and the two engines
against each other in ``test_differential.py``.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import kanaloa_core
from kanaloa.play import records as R
from kanaloa.play import simulate as S
from kanaloa.play import tournament as T
from kanaloa.play.game import HIDDEN_GIVE, HIDDEN_STEAL, KanaloaGame
from kanaloa.rules.board import load_board
from kanaloa.rules.core import core_board
from kanaloa.tools import benchmark as B
from play_helpers import SMALL, play_out

KU, STEAL, PELE, GIVE, LONO = 10, 11, 12, 13, 14


@pytest.fixture(scope="module")
def oro():
    return load_board("oro")


def deal(board, players: int, seed: int):
    return kanaloa_core.CoreState.deal(core_board(board), players, 0, seed, gods=True)


def play(board, specs, seed: int, kinds: Counter | None = None):
    """One game with the gods of the bots ``specs`` (by seat) from deal ``seed``; the final core state."""
    return play_out(board, deal(board, len(specs), seed), specs, seed, 3000, kinds)


def to_round_2_with_tokens(board, players: int, seed: int):
    """A state of a random game with the gods at a round-2 turn start whose mover may use a KU (or None)."""
    state = deal(board, players, seed)
    rng = random.Random(seed)
    while not state.is_over:
        moves = state.legal_actions()
        if any(a >> 16 == KU for a in moves):
            return state
        state.apply(rng.choice(moves))
    return None


def kus_of_random_games(board, players: int, games: int):
    """For each of the random games of seeds ``0 .. games-1`` that reaches a round-2 turn whose mover may
    use a KU: that state, its mover, the mover's first KU action and the player it targets."""
    for seed in range(games):
        state = to_round_2_with_tokens(board, players, seed)
        if state is None:
            continue
        ku = next(a for a in state.legal_actions() if a >> 16 == KU)
        yield state, state.to_move, ku, (ku >> 8) & 0xFF


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", list(SMALL))
def test_every_bot_finishes_whole_games_with_the_gods(oro, name, players):
    specs = [SMALL[name] if s == 0 else "random" for s in range(players)]
    state = play(oro, specs, 7 + players)
    assert state.is_over and sorted(state.ranking) == list(range(players))


def test_the_greedy_bot_uses_its_tokens(oro):
    """R14.4-R14.8: over a few games the greedy bot claims tokens and uses every kind it gets."""
    kinds: Counter = Counter()
    for seed in range(6):
        play(oro, ["greedy", "greedy", "greedy"], 40 + seed, kinds)
    used = {kind for (_, kind), n in kinds.items() if n}
    assert {KU, STEAL, PELE, GIVE, LONO} <= used, sorted(used)


def test_another_players_steal_is_one_hidden_key_to_a_third_player(oro):
    """R14.10: after green's KU on another player, a third player does not see which card is stolen; the
    victim does. The search's public keys say so."""
    for state, mover, ku, victim in kus_of_random_games(oro, 4, 200):
        assert state.ku_target == -1
        state.apply(ku)
        assert state.ku_target == victim == state.to_data().ku_target  # the pending steal's target (R14.6)
        steals = state.legal_actions()
        assert steals and all(a >> 16 == STEAL for a in steals)
        game_state = KanaloaGame().wrap(state)
        third = next(s for s in range(4) if s not in (mover, victim))
        assert game_state.public_actions(third) == [HIDDEN_STEAL]
        assert game_state.public_actions(victim) == steals
        assert game_state.public_actions(mover) == steals
        return
    pytest.fail("no random game reached a KU")


def test_a_gift_after_pele_is_hidden_from_the_others(oro):
    for seed in range(200):
        state = deal(oro, 3, seed)
        rng = random.Random(seed)
        while not state.is_over:
            moves = state.legal_actions()
            if moves and moves[0] >> 16 == GIVE:
                receiver = moves[0] & 0xFF
                game_state = KanaloaGame().wrap(state)
                other = next(s for s in range(3) if s not in (state.to_move, receiver))
                assert game_state.public_actions(other) == [HIDDEN_GIVE]
                assert game_state.public_actions(receiver) == moves
                return
            state.apply(rng.choice(moves))
    pytest.fail("no random game reached a PELE gift")


def test_after_a_ku_the_user_knows_the_hand_and_a_third_player_does_not(oro):
    """R14.10, the issue's example: after red uses KU on green, red's determinisation (what its hints and
    bots search) depends on green's real hand; blue's does not."""
    for state, user, ku, victim in kus_of_random_games(oro, 3, 300):
        third = next(s for s in range(3) if s not in (user, victim))
        state.apply(ku)
        data = state.to_data()
        unknown = [x for x in range(16) if data.hands[victim][x] > data.known[third][victim][x]]
        swap_in = [y for y in data.deck if data.hands[victim][y] == 0]
        if not unknown or not swap_in:
            continue
        x, y = unknown[0], swap_in[0]
        twin = data.copy()
        twin.hands[victim][x] -= 1
        twin.hands[victim][y] += 1
        twin.deck[twin.deck.index(y)] = x
        twin.known[user][victim] = list(twin.hands[victim])  # KU showed the user the real hand
        other = kanaloa_core.CoreState.from_data(core_board(oro), twin)
        third_views = [s.determinise(third, 5).to_data().hands[victim] for s in (state, other)]
        user_views = [s.determinise(user, 5).to_data().hands[victim] for s in (state, other)]
        assert third_views[0] == third_views[1]
        assert user_views == [data.hands[victim], twin.hands[victim]]
        return
    pytest.fail("no random game reached a suitable KU")


def test_a_tournament_with_the_gods_records_and_replays(oro):
    t = T.make_tournament(["greedy", "random:seed=1", "random:seed=2"], 3, seed=5, gods=True)
    run = S.run_tournament(t, keep_records=True)
    assert run.to_json()["gods"] is True
    for record in run.records:
        doc = record.to_json()
        assert doc["gods"] is True
        again = R.GameRecord.from_json(record.dumps())
        assert again == record
        assert R.replay(again).is_over
        assert "--gods" in again.new_command()


def test_a_tournament_refuses_the_gods_on_a_board_without_16_islands():
    from kanaloa.errors import OptionError

    with pytest.raises(OptionError, match="--board kahuna: Might of the Gods lays one of its 16 god tokens on each "
                                          "island"):
        T.make_tournament(["random", "random"], 2, seed=1, board="kahuna", gods=True)


def test_the_gods_signature_is_the_same_in_every_engine():
    core = B.signature("signature_gods", "core")
    assert core == B.signature("signature_gods", "reference") == B.signature("signature_gods", "api")
    assert core > 100 * B.signature_sets()["signature_gods"].total_games
