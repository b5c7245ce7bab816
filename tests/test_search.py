"""The searches (ISMCTS, plain UCT) and the game protocol they run on.

The searches are first checked on two tiny games whose best moves are known
(a take-away game with perfect information, and a one-card poker-like game
with a hidden card), then the Kanaloa adapter is checked against the protocol
the way OpenSpiel checks every game: random simulations, clone independence,
resampling that keeps the observer's information, public move keys that hide
another player's face-down discard (R4).
"""

from __future__ import annotations

import random
import time

import pytest

from kanaloa import actions as A
from kanaloa.search import ISMCTS, MCTS
from kanaloa.search.mcts import blend
from kanaloa.search.protocol import HIDDEN_DISCARD, ends_turn


class TakeAway:
    """Two players take 1, 2 or 3 from a pile; whoever takes the last one wins.

    A pile that is a multiple of 4 is lost for the player to move, so from 10
    the only winning move is to take 2.
    """

    def __init__(self, pile: int = 10, to_move: int = 0) -> None:
        self.pile = pile
        self.to_move = to_move
        self.winner = -1

    def num_players(self):
        return 2

    def current_player(self):
        return self.to_move

    def legal_actions(self):
        return [n for n in (1, 2, 3) if n <= self.pile]

    def apply_action(self, action):
        self.pile -= action
        if self.pile == 0:
            self.winner = self.to_move
        self.to_move = 1 - self.to_move

    def clone(self):
        twin = TakeAway(self.pile, self.to_move)
        twin.winner = self.winner
        return twin

    def is_terminal(self):
        return self.winner >= 0

    def returns(self):
        return [1.0 if p == self.winner else 0.0 for p in range(2)]

    def margins(self):
        return [1.0 if p == self.winner else -1.0 for p in range(2)]

    def resample(self, player, seed):
        return self.clone()

    def rollout(self, seed):
        rng = random.Random(seed)
        while not self.is_terminal():
            self.apply_action(rng.choice(self.legal_actions()))

    def public_actions(self, observer):
        return self.legal_actions()

    def apply_public(self, key, observer, rng):
        self.apply_action(key)
        return key


KEEP, SWAP = 0, 1


class HighCard:
    """Each of two players holds one hidden card out of 0..4; player 0 may keep it or swap it.

    Swapping takes a random card from the three left in the deck.  Then the
    higher card wins.  Player 0 should keep a 4 and swap a 0; what player 1
    holds is hidden from player 0, so a fair search cannot depend on it.
    """

    CARDS = 5

    def __init__(self, cards, deck_seed: int = 0) -> None:
        self.cards = list(cards)
        self.deck_seed = deck_seed
        self.done = False

    def num_players(self):
        return 2

    def current_player(self):
        return 0

    def legal_actions(self):
        return [KEEP, SWAP]

    def apply_action(self, action):
        if action == SWAP:
            deck = [c for c in range(self.CARDS) if c not in self.cards]
            self.cards[0] = random.Random(self.deck_seed).choice(deck)
        self.done = True

    def clone(self):
        twin = HighCard(self.cards, self.deck_seed)
        twin.done = self.done
        return twin

    def is_terminal(self):
        return self.done

    def returns(self):
        first = 1.0 if self.cards[0] > self.cards[1] else 0.0
        return [first, 1.0 - first]

    def margins(self):
        lead = (self.cards[0] - self.cards[1]) / (self.CARDS - 1)
        return [lead, -lead]

    def resample(self, player, seed):
        # Player 0 knows its own card only: the other card and the deck order are drawn afresh.
        rng = random.Random(seed)
        others = [c for c in range(self.CARDS) if c != self.cards[0]]
        return HighCard([self.cards[0], rng.choice(others)], rng.getrandbits(32))

    def rollout(self, seed):
        pass  # every move ends the game

    def public_actions(self, observer):
        return self.legal_actions()

    def apply_public(self, key, observer, rng):
        self.apply_action(key)
        return key


# -- the searches on known games ----------------------------------------------


@pytest.mark.parametrize("search_cls", [MCTS, ISMCTS])
def test_search_finds_the_only_winning_move(search_cls):
    result = search_cls(c=1.0, seed=3).search(TakeAway(10), iterations=3000)
    assert result.best_action == 2
    best = result.candidates()[0]
    assert best.win > 0.8, "the winning move should show a high win estimate"
    assert result.iterations == 3000


@pytest.mark.parametrize("search_cls", [MCTS, ISMCTS])
def test_search_leaves_its_input_state_untouched(search_cls):
    state = TakeAway(7)
    search_cls(seed=1).search(state, iterations=200)
    assert (state.pile, state.to_move, state.winner) == (7, 0, -1)


def test_ismcts_keeps_a_top_card_and_swaps_a_bottom_card():
    assert ISMCTS(seed=5).search(HighCard([4, 0]), iterations=400).best_action == KEEP
    assert ISMCTS(seed=5).search(HighCard([0, 4]), iterations=400).best_action == SWAP


def test_ismcts_does_not_peek_at_the_hidden_card():
    """Two states that differ only in the opponent's hidden card give the same tree, move and estimates."""
    a = ISMCTS(seed=11).search(HighCard([1, 0]), iterations=500)
    b = ISMCTS(seed=11).search(HighCard([1, 3]), iterations=500)
    assert a.candidates() == b.candidates()
    # Holding a 1, swapping wins more often than keeping (keeping only beats a 0).
    assert a.best_action == SWAP


def test_a_cheating_search_would_differ():
    """The no-peeking test can fail: plain UCT on the true state does see the hidden card."""
    a = MCTS(seed=11).search(HighCard([1, 0]), iterations=200)
    b = MCTS(seed=11).search(HighCard([1, 3]), iterations=200)
    keep_a = next(c for c in a.candidates() if c.action == KEEP)
    keep_b = next(c for c in b.candidates() if c.action == KEEP)
    assert (keep_a.win, keep_b.win) == (1.0, 0.0)


@pytest.mark.parametrize("search_cls", [MCTS, ISMCTS])
def test_same_seed_same_search(search_cls):
    a = search_cls(seed=42).search(TakeAway(15), iterations=300)
    b = search_cls(seed=42).search(TakeAway(15), iterations=300)
    assert a.candidates() == b.candidates()


@pytest.mark.parametrize("search_cls", [MCTS, ISMCTS])
def test_time_budget_is_honoured(search_cls):
    started = time.perf_counter()
    result = search_cls(seed=0).search(TakeAway(40), seconds=0.2)
    elapsed = time.perf_counter() - started
    assert 0.2 <= result.seconds < 0.25
    assert elapsed < 0.3
    assert result.iterations > 10


@pytest.mark.parametrize("search_cls", [MCTS, ISMCTS])
def test_iterations_and_time_stop_at_whichever_comes_first(search_cls):
    result = search_cls(seed=0).search(TakeAway(40), iterations=50, seconds=10.0)
    assert result.iterations == 50 and result.seconds < 5.0


@pytest.mark.parametrize("search_cls", [MCTS, ISMCTS])
@pytest.mark.parametrize("budget", [{}, {"iterations": 0}, {"iterations": -3}, {"seconds": 0.0}, {"seconds": -1.0}])
def test_bad_budget_is_refused(search_cls, budget):
    with pytest.raises(ValueError):
        search_cls().search(TakeAway(5), **budget)


@pytest.mark.parametrize("search_cls", [MCTS, ISMCTS])
def test_a_finished_game_cannot_be_searched(search_cls):
    state = TakeAway(1)
    state.apply_action(1)
    with pytest.raises(ValueError, match="over"):
        search_cls().search(state, iterations=10)


def test_principal_line_follows_the_root_players_consecutive_moves():
    # TakeAway alternates players, so the root player's line is one move long.
    result = ISMCTS(seed=2).search(TakeAway(6), iterations=500)
    assert result.principal_line() == [result.best_action]


def test_visits_add_up_and_candidates_are_sorted():
    result = ISMCTS(seed=9).search(TakeAway(12), iterations=600)
    cands = result.candidates()
    assert sum(c.visits for c in cands) == 600 == result.root.visits
    assert [c.visits for c in cands] == sorted((c.visits for c in cands), reverse=True)
    assert all(0.0 <= c.win <= 1.0 for c in cands)


def test_margin_blend_moves_the_reward_toward_the_point_margin():
    assert blend([1.0, 0.0], [0.5, -0.5], 0.0) == [1.0, 0.0]
    assert blend([1.0, 0.0], [0.5, -0.5], 1.0) == [0.75, 0.25]
    assert blend([1.0, 0.0], [1.0, -1.0], 0.2) == [1.0, 0.0]


def test_with_margin_wins_still_count_the_pure_result():
    result = ISMCTS(seed=3, margin=0.5).search(HighCard([4, 0]), iterations=100)
    keep = next(c for c in result.candidates() if c.action == KEEP)
    assert keep.win == 1.0  # a 4 always wins...
    assert 0.5 < keep.value < 1.0  # ...but rarely by the largest margin


def test_bad_options_are_refused():
    with pytest.raises(ValueError):
        ISMCTS(c=-1.0)
    with pytest.raises(ValueError):
        ISMCTS(margin=1.5)


def test_turn_ending_moves_are_draw_take_end_pass_and_reveal():
    assert ends_turn(A.encode(A.DRAW)) and ends_turn(A.encode(A.TAKE, 3)) and ends_turn(A.encode(A.END))
    assert ends_turn(A.encode(A.PASS)) and ends_turn(A.encode(A.REVEAL, 1))
    assert not ends_turn(A.encode(A.PLACE, 4, 2)) and not ends_turn(A.encode(A.REMOVE, 4))
    assert not ends_turn(A.encode(A.DISCARD, 4)) and not ends_turn(HIDDEN_DISCARD)
