"""The searches (ISMCTS, plain UCT), the game protocol they run on, and Kanaloa behind it.

The searches are first checked on two tiny games whose best moves are known
(a take-away game with perfect information, and a one-card poker-like game
with a hidden card); ``tests/test_layers.py`` checks that the search package
knows no game.  Then the Kanaloa adapter (``kanaloa.play.game``) is checked
against the protocol the way OpenSpiel checks every game: random simulations, clone independence,
resampling that keeps the observer's information, public move keys that hide
another player's face-down discard (R4).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import time

import pytest

import kanaloa_core
from conftest import hide_swap
from kanaloa.rules import actions as A
from kanaloa.search import ISMCTS, MCTS
from kanaloa.search.ismcts import blend, count_nodes


class NothingHidden:
    """The public side of the search protocol for the tiny games below: no move is hidden from any
    player (its public key is the move itself), and every move has the same prior."""

    def public_actions(self, observer):
        return self.legal_actions()

    def priors(self, observer):
        return [0.5] * len(self.public_actions(observer))

    def apply_public(self, key, observer, rng):
        self.apply_action(key)
        return key


class TakeAway(NothingHidden):
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

    def points(self):
        return self.returns()

    def resample(self, player, seed):
        return self.clone()

    def rollout(self, seed):
        rng = random.Random(seed)
        while not self.is_terminal():
            self.apply_action(rng.choice(self.legal_actions()))


KEEP, SWAP = 0, 1


class HighCard(NothingHidden):
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

    def points(self):
        return [float(card) for card in self.cards]

    def resample(self, player, seed):
        # Player 0 knows its own card only: the other card and the deck order are drawn afresh.
        rng = random.Random(seed)
        others = [c for c in range(self.CARDS) if c != self.cards[0]]
        return HighCard([self.cards[0], rng.choice(others)], rng.getrandbits(32))

    def rollout(self, seed):
        pass  # every move ends the game


# -- the searches on known games ----------------------------------------------


@pytest.mark.parametrize("search_cls", [MCTS, ISMCTS])
def test_search_finds_the_only_winning_move(search_cls):
    result = search_cls(c=1.0, seed=3).search(TakeAway(10), iterations=3000)
    assert result.best_action == 2
    best = result.candidates()[0]
    assert best.win > 0.8, "the winning move should show a high win estimate"
    assert result.iterations == 3000


def test_sequential_halving_shares_the_root_and_keeps_the_better_half():
    """Three moves at the root: two phases of 1,500 iterations; all three share the first equally, the
    better two the second, and the better of those is chosen."""
    result = ISMCTS(c=1.0, seed=3, halving=True).search(TakeAway(10), iterations=3000)
    assert result.chosen == 2 == result.best_action
    visits = {c.action: c.visits for c in result.candidates()}
    assert sorted(visits.values()) == [500, 1250, 1250]
    assert result.candidates()[0].action == 2


def test_sequential_halving_with_a_time_budget_also_finds_the_winning_move(monkeypatch):
    readings = itertools.count()  # 0.2 s of a clock that each reading moves on by 20 µs, on any machine
    monkeypatch.setattr(time, "perf_counter", lambda: next(readings) * 20e-6)
    result = ISMCTS(c=1.0, seed=4, halving=True).search(TakeAway(10), seconds=0.2)
    assert result.chosen == 2 == result.best_action
    assert ISMCTS(seed=4, halving=True).search(TakeAway(1), iterations=10).chosen is None  # one move: no race


def test_sequential_halving_needs_a_budget_that_visits_every_move_each_phase():
    assert ISMCTS(seed=4, halving=True).search(TakeAway(10), iterations=5).chosen is None  # 3 moves x 2 phases > 5
    assert ISMCTS(seed=4, halving=True).search(TakeAway(10), iterations=6).chosen is not None


def test_sequential_halving_on_a_continued_tree_counts_only_its_own_visits():
    """A continued root whose first move already has many visits: the race still shares this search's
    iterations equally in its first phase."""
    first = ISMCTS(c=1.0, seed=5).search(TakeAway(10), iterations=600)
    before = {k: n.visits for k, n in first.root.children.items()}
    again = ISMCTS(c=1.0, seed=6, halving=True).search(TakeAway(10), iterations=3000, root=first.root)
    added = sorted(again.root.children[k].visits - before[k] for k in before)
    assert added == [500, 1250, 1250]
    assert again.chosen == 2


def test_with_both_budgets_halving_phases_follow_whichever_runs_out_first(monkeypatch):
    readings = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(readings) * 20e-6)
    result = ISMCTS(c=1.0, seed=3, halving=True).search(TakeAway(10), iterations=10**9, seconds=0.2)
    assert result.chosen == 2
    assert sum(1 for c in result.candidates() if c.visits == min(x.visits for x in result.candidates())) == 1


def test_sequential_halving_chooses_a_proven_win():
    """The game of the proven-win test below: once the root is proven, the proven move is the choice."""
    result = ISMCTS(seed=1, halving=True).search(Race(4), iterations=200)
    assert result.root.proven
    first = result.candidates()[0]
    assert first.proven and result.chosen == first.action == result.best_action


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
def test_time_budget_is_honoured(search_cls, monkeypatch):
    """The search stops once its time is up (with no iteration budget it would otherwise run forever).  The
    clock advances 10 microseconds a reading, whatever else the machine does, so the check is exact: the search
    ends within a few readings of 0.2 s, and has searched all along."""
    tick = 10e-6
    readings = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(readings) * tick)
    result = search_cls(seed=0).search(TakeAway(40), seconds=0.2)
    assert 0.2 <= result.seconds <= 0.2 + 10 * tick
    assert result.iterations > 100


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


@pytest.mark.parametrize(("options", "parameter", "message"), [
    ({"c": -1.0}, "c", "c must be non-negative, not -1.0"),
    ({"margin": 1.5}, "margin", "margin must be within [0, 1], not 1.5"),
    ({"max_nodes": 0}, "max_nodes", "max_nodes must be at least 1, not 0"),
])
def test_the_search_raises_its_own_error_naming_its_parameter(options, parameter, message):
    """The search words its refusals in its own terms; the layers above name their own options."""
    from kanaloa.search import SearchError

    with pytest.raises(SearchError) as caught:
        ISMCTS(**options)
    assert (caught.value.parameter, str(caught.value)) == (parameter, message)
    assert isinstance(caught.value, ValueError)
    with pytest.raises(SearchError) as budget:
        ISMCTS().search(TakeAway(5), iterations=0)
    assert budget.value.parameter == "iterations" and budget.value.value == 0


def test_bad_options_are_refused():
    with pytest.raises(ValueError):
        ISMCTS(c=-1.0)
    with pytest.raises(ValueError):
        ISMCTS(margin=1.5)
    with pytest.raises(ValueError):
        ISMCTS(expand_after=0)
    with pytest.raises(ValueError):
        ISMCTS(prior=-0.5)
    with pytest.raises(ValueError):
        ISMCTS(max_nodes=0)


# -- anytime, bounded, explained ----------------------------------------------


def test_stop_ends_the_search_early_and_says_so():
    asked = []

    def stop():
        asked.append(1)
        return len(asked) >= 3

    result = ISMCTS(seed=1).search(TakeAway(30), iterations=100_000, stop=stop)
    assert result.interrupted
    assert result.iterations == 3 * 16  # asked every 16 iterations, stopped at the third question
    assert result.root.visits == result.iterations
    assert not ISMCTS(seed=1).search(TakeAway(30), iterations=100).interrupted


def test_progress_reports_the_tree_so_far(monkeypatch):
    readings = itertools.count()  # a clock read moves it on by 10 ms: the same reports on any machine, however busy
    monkeypatch.setattr(time, "perf_counter", lambda: next(readings) * 0.01)
    seen = []
    result = ISMCTS(seed=1).search(TakeAway(40), seconds=0.35, progress=seen.append, progress_every=0.1)
    assert len(seen) == 3 and result.seconds >= 0.35  # at 0.1, 0.2 and 0.3 s of the search's own clock
    counts = [r.iterations for r in seen]
    assert counts == sorted(counts) and counts[0] > 0
    assert all(r.candidates() for r in seen)


def test_the_tree_stops_growing_at_max_nodes_but_the_search_goes_on():
    result = ISMCTS(seed=4, max_nodes=25).search(TakeAway(40), iterations=2000)
    assert result.nodes == 25
    assert count_nodes(result.root) == 25
    assert result.iterations == 2000 == result.root.visits
    unbounded = ISMCTS(seed=4).search(TakeAway(40), iterations=2000)
    assert unbounded.nodes == count_nodes(unbounded.root) > 25


class Biased(TakeAway):
    """TakeAway whose priors favour taking 3."""

    def priors(self, observer):
        return [1.0 if n == 3 else 0.0 for n in self.public_actions(observer)]

    def clone(self):
        twin = Biased(self.pile, self.to_move)
        twin.winner = self.winner
        return twin


def test_priors_choose_which_move_is_expanded_first():
    result = ISMCTS(seed=0, prior=1.0).search(Biased(10), iterations=1)
    assert list(result.root.children) == [3]
    assert result.root.children[3].prior == 1.0
    # Without the weight the priors are not asked, and the first move expanded is any of the three.
    firsts = {next(iter(ISMCTS(seed=s).search(Biased(10), iterations=1).root.children)) for s in range(20)}
    assert firsts == {1, 2, 3}


def test_a_strong_prior_delays_but_does_not_stop_finding_the_winning_move():
    # Taking 3 from 10 loses; the bias toward it fades with visits.
    assert ISMCTS(seed=3, c=1.0, prior=2.0).search(Biased(10), iterations=4000).best_action == 2


def test_candidates_report_their_uncertainty_and_points():
    result = ISMCTS(seed=5, points=True).search(HighCard([2, 0]), iterations=400)
    for cand in result.candidates():
        assert cand.error == pytest.approx((cand.win * (1 - cand.win) / cand.visits) ** 0.5)
        assert len(cand.points) == 2 and cand.points[0] <= 4
    keep = next(c for c in result.candidates() if c.action == KEEP)
    assert keep.points[0] == 2.0  # keeping a 2 ends with a 2
    assert len(result.points) == 2
    assert ISMCTS(seed=5).search(HighCard([2, 0]), iterations=50).points == ()


def test_a_search_can_continue_an_earlier_tree():
    first = ISMCTS(seed=6).search(TakeAway(9), iterations=300)
    child = first.root.children[1]  # taking 1 leaves 8, and the opponent to move
    before = child.visits
    state = TakeAway(8, to_move=1)
    more = ISMCTS(seed=7).search(state, iterations=200, root=child)
    assert more.root is child and child.visits == before + 200
    assert more.nodes == count_nodes(child)


def nodes_below(node):
    for child in node.children.values():
        yield child
        yield from nodes_below(child)


def test_expand_after_lets_young_nodes_be_judged_by_rollouts_first():
    """With expand_after=T, no node below the root has children before it has T visits."""
    result = ISMCTS(seed=4, expand_after=8).search(TakeAway(13), iterations=3000)
    grown = [n for n in nodes_below(result.root) if n.children]
    assert grown, "the tree should still grow below the root"
    assert all(n.visits >= 8 for n in grown)
    classic = ISMCTS(seed=4).search(TakeAway(13), iterations=3000)
    assert any(n.visits < 8 for n in nodes_below(classic.root) if n.children)
    assert result.best_action == classic.best_action == 1  # 13 - 1 = 12, a multiple of 4


# -- the Kanaloa adapter against the protocol -----------------------------------

def kanaloa_state(seed: int, moves: int, players: int = 4):
    """A protocol state dealt from ``seed`` and advanced by ``moves`` seeded random moves."""
    from kanaloa.play.game import KanaloaGame
    from kanaloa.rules.board import load_board
    from kanaloa.rules.core import core_board

    core = kanaloa_core.CoreState.deal(core_board(load_board("oro")), players, 0, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if core.is_over:
            break
        core.apply(rng.choice(core.legal_actions()))
    return KanaloaGame().wrap(core)


def known_to(data, seat):
    """Everything ``seat`` knows of a state (docs/engine.md "Knowledge")."""
    return (
        data.hands[seat], data.hidden_by[seat], data.public, data.face_up, data.discard_open,
        [sum(h) for h in data.hands], len(data.deck), data.hidden_count(), data.setup_chosen[seat],
        data.bridges, data.scores, data.round, data.to_move, data.played, data.discarded, data.remove_on,
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_simulations_through_the_protocol_end_with_one_winner(players):
    for seed in range(20):
        state = kanaloa_state(seed, 0, players)
        rng = random.Random(seed)
        observer = seed % players
        steps = 0
        while not state.is_terminal():
            keys = state.public_actions(observer)
            assert keys, "a running game always has a move"
            state.apply_public(rng.choice(keys), observer, rng)
            steps += 1
            assert steps < 2000
        returns = state.returns()
        assert sorted(returns) == [0.0] * (players - 1) + [1.0]
        assert all(-1.0 <= m <= 1.0 for m in state.margins())
        assert len(state.margins()) == state.num_players() == players


def test_a_clone_is_independent():
    state = kanaloa_state(1, 25)
    twin = state.clone()
    before = state.core.to_data()
    twin.rollout(5)
    assert twin.is_terminal() and not state.is_terminal()
    assert state.core.to_data() == before


@pytest.mark.parametrize("players", [4, 2])
@pytest.mark.parametrize("seed, moves", [(1, 0), (2, 3), (3, 30), (4, 70), (5, 120)])
def test_resample_keeps_what_the_observer_knows(seed, moves, players):
    state = kanaloa_state(seed, moves, players)
    data = state.core.to_data()
    for observer in range(players):
        sample = state.resample(observer, seed * 10 + observer).core.to_data()
        assert known_to(sample, observer) == known_to(data, observer)


@pytest.mark.parametrize("players", [4, 2])
def test_resample_ignores_what_the_observer_cannot_see(players):
    state = kanaloa_state(6, 30, players)
    data = state.core.to_data()
    observer = data.to_move
    other = (observer + 1) % data.players
    altered = hide_swap(data, other)  # an unseen card and the deck order differ
    altered.rng ^= 0xDEADBEEF  # and so is the stream of the next reshuffle
    from kanaloa.rules.board import load_board
    from kanaloa.rules.core import core_board

    twin = kanaloa_core.CoreState.from_data(core_board(load_board("oro")), altered)
    a = state.resample(observer, 99).core.to_data()
    b = state.game.wrap(twin).resample(observer, 99).core.to_data()
    assert a == b


def test_another_players_discards_share_one_public_key():
    """R4: a face-down discard shows nothing of the card, so the observer sees one move, not one per island."""
    from kanaloa.play.game import HIDDEN_DISCARD

    for seed in range(40):
        state = kanaloa_state(seed, 24)
        moves = state.legal_actions()
        discards = [a for a in moves if a >> 16 == A.DISCARD]
        if len(discards) < 2:
            continue
        mover = state.current_player()
        assert state.public_actions(mover) == moves  # the mover knows its own cards
        other = (mover + 1) % state.num_players()
        keys = state.public_actions(other)
        assert keys.count(HIDDEN_DISCARD) == 1
        assert [k for k in keys if k != HIDDEN_DISCARD] == [a for a in moves if a >> 16 != A.DISCARD]
        chosen = state.clone().apply_public(HIDDEN_DISCARD, other, random.Random(seed))
        assert chosen in discards
        return
    pytest.fail("no position with two discard choices among the seeds")


def test_ismcts_on_kanaloa_picks_a_legal_move_and_spends_its_budget():
    state = kanaloa_state(8, 30)
    result = ISMCTS(seed=1).search(state, iterations=300)
    assert result.best_action in state.legal_actions()
    assert result.iterations == 300 == sum(c.visits for c in result.candidates())
    line = result.principal_line()
    assert line[0] == result.best_action


def test_the_adapter_names_the_cores_playout_policies():
    from kanaloa.play.game import POLICY_HEURISTIC, POLICY_RANDOM, KanaloaGame

    assert (POLICY_RANDOM, POLICY_HEURISTIC) == (kanaloa_core.POLICY_RANDOM, kanaloa_core.POLICY_HEURISTIC)
    assert KanaloaGame().policy == POLICY_HEURISTIC
    with pytest.raises(ValueError, match="policy"):
        KanaloaGame(7)


@pytest.mark.parametrize("players", [4, 2])
def test_priors_follow_the_moves_and_the_cores_heuristic_scores(players):
    """One prior per public move, in [0, 1], from the very scores the heuristic playout policy maximises."""
    from kanaloa.play.game import HIDDEN_DISCARD, prior_of

    found_discards = False
    for seed in range(30):
        state = kanaloa_state(seed, 5 * seed, players)
        if state.is_terminal():
            continue
        core = state.core
        values = core.move_values()
        assert len(values) == len(core.legal_actions())
        mover = state.current_player()
        assert state.priors(mover) == [prior_of(v) for v in values]
        other = (mover + 1) % players
        keys, priors = state.public_actions(other), state.priors(other)
        assert len(priors) == len(keys) and all(0.0 <= p <= 1.0 for p in priors)
        if HIDDEN_DISCARD in keys:
            found_discards = True
            assert priors[keys.index(HIDDEN_DISCARD)] == prior_of(-4)
        # Without its one-in-eight random move, the heuristic policy plays a move of the highest score.
        best = max(values)
        picks = [core.pick_action(s, kanaloa_core.POLICY_HEURISTIC) for s in range(64)]
        moves = core.legal_actions()
        top = sum(values[moves.index(a)] == best for a in picks)
        assert top >= 40
    assert found_discards
    assert prior_of(-100) == 0.0 and prior_of(100) == 1.0 and prior_of(24) == pytest.approx(0.8)


def test_points_are_the_scores_of_every_color():
    state = kanaloa_state(3, 0)
    state.rollout(1)
    assert state.points() == [float(p) for p in state.core.scores]
    two = kanaloa_state(3, 0, players=2)
    two.rollout(1)
    assert len(two.points()) == 4


class Race(TakeAway):
    """TakeAway where the player to move may also take 1 twice in a row (``AGAIN``) before passing on:
    the root player's consecutive moves are a run, and taking the last ones wins at once."""

    AGAIN = 9

    def legal_actions(self):
        moves = super().legal_actions()
        return [*moves, self.AGAIN] if self.pile >= 2 else moves

    def apply_action(self, action):
        if action == self.AGAIN:  # take one and move again
            self.pile -= 1
            return
        super().apply_action(action)

    def clone(self):
        twin = Race(self.pile, self.to_move)
        twin.winner = self.winner
        return twin

    def rollout(self, seed):
        # Rollouts that always win for the player to move: every move looks won.
        mover = self.to_move
        self.pile = 0
        self.winner = mover


def test_a_forced_win_is_proven_and_chosen_even_when_every_move_wins_its_rollouts():
    """From 4, AGAIN then 3 wins at once (as does 1 x AGAIN, ...); with rollouts that always win, only
    proof tells the moves apart: the proven first move is put first, and the line goes on to the win."""
    result = ISMCTS(seed=1).search(Race(4), iterations=200)
    first = result.candidates()[0]
    assert first.proven and result.best_action == first.action
    assert result.root.proven
    state = Race(4)
    for action in result.principal_line():
        assert state.to_move == 0
        state.apply_action(action)
    assert state.winner == 0  # the line reaches the win within the root player's own moves


def test_a_win_after_the_opponent_moves_is_not_proven():
    """Only the player's own unbroken run of moves proves anything: 5 - 1 leaves the opponent to move."""
    result = ISMCTS(seed=2).search(TakeAway(5), iterations=300)
    for child in result.root.children.values():
        assert not child.proven or child.action == 5  # no move takes 5 at once
    assert not any(c.proven for c in result.candidates())


# -- one order of the builds that commute (KanaloaGame one_order) ---------------------------------


def position_key(core):
    """A state's data, the open discards as a multiset: their order only matters to a reshuffle (R9)."""
    data = core.to_data()
    return repr(dataclasses.replace(data, discard_open=sorted(data.discard_open)))


def reachable(state, depth: int) -> tuple[set, int]:
    """The positions the player to move reaches with up to ``depth`` of its own moves offered by
    ``state.legal_actions()``, and how many move sequences lead there.

    An R7 removal is part of the build that asks for it: it does not count
    towards ``depth``, and a position with a removal to make is not counted
    (the order of two builds decides where such a removal falls, not what
    the two reach).
    """
    from kanaloa.rules import actions as A

    mover = state.current_player()
    seen, lines = set(), 0
    stack = [(state, 0)]
    while stack:
        s, d = stack.pop()
        pending = bool(s.core.to_data().remove_on)
        if not pending:
            seen.add(position_key(s.core))
            lines += 1
        if (d == depth and not pending) or s.is_terminal() or s.current_player() != mover:
            continue
        for a in s.legal_actions():
            t = s.clone()
            t.apply_action(a)
            stack.append((t, d + (A.kind_of(a) != A.REMOVE)))
    return seen, lines


@pytest.mark.parametrize("players", [4, 3, 2])
def test_one_order_of_commuting_builds_reaches_every_position_of_the_turn(players):
    """Leaving out a build that commutes with the one just made and has a smaller code loses nothing:
    every position the mover reaches within three moves is still reached, by fewer move sequences."""
    from kanaloa.play.game import KanaloaGame

    fewer = 0
    for seed in range(30):
        state = kanaloa_state(seed, 10 + 3 * seed, players)
        if state.is_terminal():
            continue
        every = KanaloaGame().wrap(state.core.copy())
        one = KanaloaGame(one_order=True).wrap(state.core.copy())
        assert every.legal_actions() == one.legal_actions()  # nothing is left out before the first move
        (all_positions, all_lines), (one_positions, one_lines) = reachable(every, 3), reachable(one, 3)
        assert one_positions == all_positions, seed
        assert one_lines <= all_lines
        fewer += one_lines < all_lines
    assert fewer >= 5


def test_one_order_leaves_out_only_far_builds_with_a_smaller_code():
    from kanaloa.play.game import KanaloaGame, near_links
    from kanaloa.rules import actions as A

    checked = 0
    for seed in range(30):
        state = KanaloaGame(one_order=True).wrap(kanaloa_state(seed, 20 + seed).core)
        mover = state.current_player()
        for p in state.legal_actions():
            if A.kind_of(p) not in (A.PLACE, A.SWAP):
                continue
            after = state.clone()
            after.apply_action(p)
            if after.is_terminal() or after.current_player() != mover:
                continue
            near = near_links(after.core.board.links, after.core.board.n_islands)[A.arg_a(p)]
            offered, legal = after.legal_actions(), after.core.legal_actions()
            for m in legal:
                far = not (near >> A.arg_a(m)) & 1
                left_out = A.kind_of(m) in (A.PLACE, A.SWAP) and m < p and far
                assert (m not in offered) == left_out
            pri = after.priors(mover)
            assert len(pri) == len(offered) and after.public_actions(mover) == offered
            checked += 1
            other = after.clone()
            other.apply_action(offered[-1])  # a later move: offered in full again unless it is a build
            if A.kind_of(offered[-1]) not in (A.PLACE, A.SWAP):
                assert other.legal_actions() == other.core.legal_actions()
    assert checked > 50


def test_near_links_mark_the_links_within_one_island():
    from kanaloa.play.game import near_links

    # A path 0-1-2-3-4: link k joins k and k+1.
    masks = near_links([(0, 1), (1, 2), (2, 3), (3, 4)], 5)
    assert masks[0] == 0b0111  # links with an end in {0, 1} or their neighbour 2
    assert masks[3] == 0b1110
    assert masks[1] == 0b1111


def _players_in(node, found):
    for child in node.children.values():
        found.add(child.player)
        _players_in(child, found)
    return found


def test_turn_only_keeps_the_tree_to_the_players_own_run_of_moves():
    """With ``turn_only`` no node of the opponent enters the tree: Race's runs of AGAIN stay in it, and
    every iteration after the run is played out; without it the opponent's replies are expanded too."""
    plan = ISMCTS(seed=3, turn_only=True).search(Race(8), iterations=500)
    assert _players_in(plan.root, set()) == {0}
    assert plan.root.visits == 500 and any(c.children for c in plan.root.children.values())  # AGAIN, then more
    assert _players_in(ISMCTS(seed=3).search(Race(8), iterations=500).root, set()) == {0, 1}


def test_turn_only_plays_out_from_the_first_move_of_another_player():
    """In TakeAway every move passes the turn: with ``turn_only`` the tree is the root's moves alone,
    each judged by its rollouts; without it the replies grow below them."""
    flat = ISMCTS(seed=4, turn_only=True).search(TakeAway(10), iterations=300)
    assert len(flat.root.children) == 3 and not any(c.children for c in flat.root.children.values())
    assert sum(c.visits for c in flat.root.children.values()) == 300
    deep = ISMCTS(seed=4).search(TakeAway(10), iterations=300)
    assert any(c.children for c in deep.root.children.values())
