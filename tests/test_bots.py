"""Bots: the spec parser, and whole games played by every bot with 3 and 4 players.

Bots move for the seat to move in a full game state, but use only what that
seat knows; every game and every bot decision follows from explicit seeds.
"""

from __future__ import annotations

import random

import pytest

import kanaloa_core
from conftest import hide_swap
from kanaloa.errors import OptionError
from kanaloa.play.bots import GreedyBot, ISMCTSBot, PIMCBot, RandomBot, parse_bot_spec
from kanaloa.rules.core import core_board
from kanaloa.rules.ruleset import make_ruleset, ruleset_for_state

# -- specs ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, cls",
    [("random", RandomBot), ("greedy", GreedyBot), ("pimc:iterations=200", PIMCBot), ("ismcts", ISMCTSBot),
     ("ISMCTS:Iterations=50", ISMCTSBot)],
)
def test_spec_names_the_bot(spec, cls):
    bot = parse_bot_spec(spec)
    assert isinstance(bot, cls)
    assert bot.spec == spec


def test_spec_options_reach_the_bot():
    bot = parse_bot_spec("ismcts:iterations=1000:c=0.7:margin=0.1:policy=random:seed=9:expand=4")
    assert (bot.iterations, bot.seconds, bot.c, bot.margin, bot.seed, bot.expand) == (1000, None, 0.7, 0.1, 9, 4)
    timed = parse_bot_spec("ismcts:time=0.25")
    assert (timed.iterations, timed.seconds) == (None, 0.25)
    pimc = parse_bot_spec("pimc:iterations=400:dets=4")
    assert (pimc.iterations, pimc.dets) == (400, 4)
    assert parse_bot_spec("greedy:width=50").width == 50


def test_search_bots_default_to_1000_iterations():
    assert parse_bot_spec("ismcts").iterations == 1000
    assert parse_bot_spec("pimc").iterations == 1000


@pytest.mark.parametrize(
    "spec, named",
    [
        ("", "empty"),
        ("alphazero", "'alphazero'"),
        ("ismcts:iterations", "'iterations'"),
        ("ismcts:iterations=lots", "'iterations'"),
        ("ismcts:iterations=0", "'iterations'"),
        ("ismcts:iterations=2.5", "'iterations'"),
        ("ismcts:time=0", "'time'"),
        ("ismcts:time=-1", "'time'"),
        ("ismcts:time=nan", "'time'"),
        ("ismcts:c=-0.1", "'c'"),
        ("ismcts:margin=2", "'margin'"),
        ("ismcts:policy=clever", "'policy'"),
        ("ismcts:depth=3", "'depth'"),
        ("ismcts:c=1:c=2", "'c'"),
        ("ismcts:iterations=10:time=1", "'time'"),
        ("random:iterations=10", "'iterations'"),
        ("greedy:width=0", "'width'"),
        ("pimc:dets=0", "'dets'"),
        ("ismcts:expand=0", "'expand'"),
        ("pimc:expand=3", "'expand'"),
        ("random:seed=-1", "'seed'"),
    ],
)
def test_a_bad_spec_names_the_spec_and_the_key(spec, named):
    with pytest.raises(OptionError) as info:
        parse_bot_spec(spec)
    message = str(info.value)
    assert message.startswith(f"bot spec {spec!r}")
    assert named in message


# -- whole games -----------------------------------------------------------------

SMALL = {
    "random": "random",
    "greedy": "greedy",
    "pimc": "pimc:iterations=48:dets=3",
    "ismcts": "ismcts:iterations=40",
}


def play_game(specs, seed, players):
    """Play one game with ``specs[seat]`` at each seat; return the final core state and the move count."""
    from kanaloa.rules.board import load_board

    board = load_board("oro")
    bots = [parse_bot_spec(specs[s]) for s in range(players)]
    state = kanaloa_core.CoreState.deal(core_board(board), players, 0, seed)
    for seat, bot in enumerate(bots):
        bot.start(ruleset_for_state(board, state.to_data()), seed * 8 + seat)
    moves = 0
    while not state.is_over:
        legal = state.legal_actions()
        action = bots[state.to_move].choose(state)
        assert action in legal, f"{specs[state.to_move]} chose an illegal action {action}"
        state.apply(action)
        moves += 1
        assert moves < 2000, "the game did not end"
    return state, moves


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", list(SMALL))
def test_every_bot_finishes_whole_games(name, players):
    """Each bot at every seat, with rotated company, plays games from several seeds to the end (R9-R12)."""
    for seed in range(3):
        specs = [SMALL[name] if (s + seed) % 2 == 0 else "random" for s in range(players)]
        state, _ = play_game(specs, seed, players)
        assert state.is_over and 0 <= state.winner < players
        assert sorted(state.ranking) == list(range(players))


@pytest.mark.parametrize("name", ["greedy", "pimc", "ismcts"])
def test_same_seeds_same_game(name):
    specs = [SMALL[name], "random", "random", "random"]
    a, moves_a = play_game(specs, 17, 4)
    b, moves_b = play_game(specs, 17, 4)
    assert moves_a == moves_b and a.to_data() == b.to_data()


@pytest.mark.parametrize("players", [4, 2])
@pytest.mark.parametrize("name", ["random", "greedy", "pimc", "ismcts"])
def test_a_bot_plays_the_same_whatever_it_cannot_see(name, players):
    """Another player's unseen card and the deck order do not change a bot's choice (with two players
    too, R15)."""
    from kanaloa.rules.board import load_board

    board = load_board("oro")
    state = kanaloa_core.CoreState.deal(core_board(board), players, 0, 21)
    rng = random.Random(21)
    for _ in range(26):
        state.apply(rng.choice(state.legal_actions()))
    while True:  # on to a moment where another player holds a card the mover has not seen
        data = state.to_data()
        me = data.to_move
        others = [s for s in range(players) if s != me and sum(data.hands[s]) > sum(data.public[s])]
        if others:
            break
        state.apply(rng.choice(state.legal_actions()))
    other = others[0]
    altered = hide_swap(data, other)
    twin = kanaloa_core.CoreState.from_data(core_board(board), altered)
    choices = []
    for s in (state, twin):
        bot = parse_bot_spec(SMALL[name])
        bot.start(ruleset_for_state(board, data), 5)
        choices.append(bot.choose(s))
    assert choices[0] == choices[1]


def test_greedy_beats_random_more_often_than_not():
    """A sanity check of the heuristic: greedy wins most of a few games against three random bots."""
    wins = 0
    for seed in range(8):
        seat = seed % 4
        specs = ["greedy" if s == seat else "random" for s in range(4)]
        state, _ = play_game(specs, 100 + seed, 4)
        wins += state.winner == seat
    assert wins >= 5


# -- ismcts: priors and a tree kept through the turn ---------------------------------------


def test_prior_and_reuse_keys_reach_the_ismcts_bot():
    bot = parse_bot_spec("ismcts:prior=1.5:reuse=1")
    assert (bot.prior, bot.reuse) == (1.5, True)
    plain = parse_bot_spec("ismcts")
    assert (plain.prior, plain.reuse) == (0.0, False)
    with pytest.raises(OptionError, match="'prior'"):
        parse_bot_spec("ismcts:prior=-1")


def test_reuse_continues_the_subtree_of_the_move_just_played():
    """After its own place or swap the bot moves again with nothing new learned: the tree goes on."""
    from kanaloa.rules.board import load_board

    state, bot, action = _turn_keeping_move(load_board("oro"), "ismcts:iterations=400:reuse=1")
    expected, (subtree,) = bot._kept
    visits = subtree.visits
    assert visits > 0
    state.apply(action)
    assert state.to_data() == expected
    bot.choose(state)
    assert subtree.visits == visits + 400  # the search went on in the kept subtree


def _dealt(board, seed, moves):
    """A four-player deal from ``seed`` after ``moves`` random moves from the same seed."""
    state = kanaloa_core.CoreState.deal(core_board(board), 4, 0, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


def _turn_keeping_move(board, bot_spec, wanted=lambda subtrees: True):
    """A dealt state, a bot of ``bot_spec`` started on it, and the move it chose there, for the first seed
    where that move keeps the bot's turn (a place or swap) and the subtrees the bot kept are ``wanted``."""
    for seed in range(40):
        state = _dealt(board, seed, 30)
        bot = parse_bot_spec(bot_spec)
        bot.start(ruleset_for_state(board, state.to_data()), seed)
        action = bot.choose(state)
        if bot._kept is not None and wanted(bot._kept[1]):
            return state, bot, action
    pytest.fail(f"no seed gave {bot_spec} a move that keeps its turn and the subtrees wanted")


def test_trees_share_the_budget_and_each_tree_goes_on_through_the_turn():
    """``trees=3``: three independent searches split the iterations (134, 133, 133), and with ``reuse``
    each keeps its own subtree of the move played."""
    from kanaloa.rules.board import load_board

    board = load_board("oro")
    state, bot, action = _turn_keeping_move(board, "ismcts:iterations=400:reuse=1:trees=3")
    expected, subtrees = bot._kept
    assert len(subtrees) == 3 and len({id(t) for t in subtrees}) == 3
    before = [t.visits for t in subtrees]
    state.apply(action)
    assert state.to_data() == expected
    bot.choose(state)
    assert [t.visits for t in subtrees] == [v + share for v, share in zip(before, (134, 133, 133), strict=True)]


def test_trees_vote_with_their_summed_root_visits(monkeypatch):
    """The move of a bot with several trees is the most visited over all of them, not any one tree's."""
    from kanaloa.play import bots as B
    from kanaloa.search import ismcts as S

    made = []
    real = S.ISMCTS.search

    def recording(self, *args, **kwargs):
        made.append(real(self, *args, **kwargs))
        return made[-1]

    monkeypatch.setattr(B.ISMCTS, "search", recording)
    from kanaloa.rules.board import load_board

    board = load_board("oro")
    for seed in range(30):
        state = _dealt(board, seed, 25)
        made.clear()
        bot = parse_bot_spec("ismcts:iterations=90:trees=3")
        bot.start(ruleset_for_state(board, state.to_data()), seed)
        action = bot.choose(state)
        assert len(made) == 3 and [r.iterations for r in made] == [30, 30, 30]
        totals: dict[int, int] = {}
        for r in made:
            for key, child in r.root.children.items():
                totals[key] = totals.get(key, 0) + child.visits
        top = max(totals.values())
        assert totals[action] == top
        if action != made[0].best_action:
            return  # a deal where the sum overruled the first tree
    pytest.fail("the first tree's move was the sum's on every deal tried")


def test_a_tree_that_never_tried_the_move_played_starts_afresh_while_the_others_go_on():
    """Two iterations for three trees: two searches run; with reuse the one that tried the move played
    keeps its subtree, and the other starts from a new root."""
    from kanaloa.rules.board import load_board

    # a deal where the two trees tried different moves
    state, bot, action = _turn_keeping_move(load_board("oro"), "ismcts:iterations=2:reuse=1:trees=3",
                                            lambda subtrees: None in subtrees)
    expected, subtrees = bot._kept
    assert len(subtrees) == 2
    (kept,) = [t for t in subtrees if t is not None]
    visits = kept.visits
    state.apply(action)
    assert state.to_data() == expected
    bot.choose(state)
    assert kept.visits == visits + 1  # its tree went on with its one iteration


def test_trees_must_be_a_positive_count_and_do_not_mix_with_halving():
    with pytest.raises(OptionError, match="'halving' cannot be combined with 'trees' above 1"):
        parse_bot_spec("ismcts:trees=2:halving=1")
    assert parse_bot_spec("ismcts:trees=1:halving=1").halving
    with pytest.raises(OptionError, match="'trees'"):
        parse_bot_spec("ismcts:trees=0")
    assert parse_bot_spec("hint:trees=4").trees == 4
    assert parse_bot_spec("hint").trees == 1


def test_without_reuse_nothing_is_kept():
    from kanaloa.rules.board import load_board

    board = load_board("oro")
    state = kanaloa_core.CoreState.deal(core_board(board), 4, 0, 5)
    for _ in range(20):
        state.apply(state.legal_actions()[0])
    bot = parse_bot_spec("ismcts:iterations=100")
    bot.start(ruleset_for_state(board, state.to_data()), 1)
    bot.choose(state)
    assert bot._kept is None


def test_the_hint_bot_plays_with_the_hints_settings():
    from kanaloa.play.bots import HintBot
    from kanaloa.play.settings import HINT_SETTINGS

    oro = make_ruleset("kanaloa")
    bot = parse_bot_spec("hint:time=0.05")
    bot.start(oro, 1)
    assert isinstance(bot, HintBot) and bot.seconds == 0.05
    assert (bot.c, bot.prior, bot.reuse, bot.margin, bot.expand) == (
        HINT_SETTINGS.c, HINT_SETTINGS.prior, HINT_SETTINGS.reuse, HINT_SETTINGS.margin, HINT_SETTINGS.expand_after)
    assert bot.game.policy == HINT_SETTINGS.policy
    assert bot.game.reshuffle is HINT_SETTINGS.reshuffle is True
    tuned = parse_bot_spec("hint:c=0.9:prior=0:reuse=0:reshuffle=0")
    tuned.start(oro, 1)
    assert (tuned.c, tuned.prior, tuned.reuse, tuned.game.reshuffle) == (0.9, 0.0, False, False)
    with pytest.raises(OptionError, match="give one budget"):
        parse_bot_spec("hint:time=1:iterations=5")


def test_the_reshuffle_key_says_whether_the_determinisations_use_what_went_into_the_deck():
    """The baselines keep the earlier sampling by default; the key turns the knowledge on
    (docs/engine.md "What a reshuffle reveals")."""
    from kanaloa.play.settings import ISMCTS_SETTINGS
    from kanaloa.rules.board import load_board

    assert not ISMCTS_SETTINGS.reshuffle
    for spec, wanted in (("ismcts", False), ("pimc", False), ("ismcts:reshuffle=1", True),
                         ("pimc:reshuffle=1", True), ("ismcts:one_order=1:reshuffle=1", True)):
        assert parse_bot_spec(spec).search_options["reshuffle"] is wanted, spec
    board = load_board("oro")
    state = kanaloa_core.CoreState.deal(core_board(board), 4, 0, 11)
    rng = random.Random(11)
    while state.round != 2 or not state.to_data().pile:
        state.apply(rng.choice(state.legal_actions()))
    me = state.to_move
    for spec, pile in (("ismcts", False), ("ismcts:reshuffle=1", True)):
        bot = parse_bot_spec(spec)
        bot.start(ruleset_for_state(board, state.to_data()), 1)
        world = bot.game.wrap(state).resample(me, 3)
        assert world.core.to_data() == state.determinise(me, 3, pile).to_data(), spec
    assert state.determinise(me, 3, True).to_data() != state.determinise(me, 3, False).to_data()
