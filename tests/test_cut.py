"""Rollouts cut short: the core's cut features and ``CutModel``, the shipped models, the game adapter's
``cut``, and the fitting tool (docs/engine.md "Rollouts cut short").

The eleven features of a color are checked against the reference
implementation's own counting (control R2, R11's points, R16.7's difference
of islands, hands, bridges) and against what they mean written out here in
plain Python (an island one bridge short of a majority, a link the hand can
build on with R4's place, a bridge R6 would sweep, a god token of R14.2),
for every kind of rule set: 3 and 4 players, two players (both colors of a
seat, the weaker first as R15.5 ranks them), Might of the Gods and Kahuna.
The estimate is checked against the model's formula written out in Python;
the shipped models against games they were not fitted on; the fitting tool
against itself (the same seed, the same bytes) and the shipped file.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import random
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

import kanaloa.play.cut as cut_module
import kanaloa.rules.registry as registry
from kanaloa.errors import OptionError
from kanaloa.play.bots import parse_bot_spec as make_bot
from kanaloa.play.cut import (
    MODELS_FILE,
    MODELS_FORMAT,
    cut_model_for,
    read_models,
    shipped_models,
    state_model_key,
)
from kanaloa.play.cut_fit import FAMILY_FIT, SAMPLE_SHARE
from kanaloa.play.game import MARGIN_SCALE, KanaloaGame
from kanaloa.play.settings import HINT_SETTINGS
from kanaloa.rules.board import board_from_dict, builtin_board_text
from kanaloa.rules.core import POLICY_HEURISTIC, POLICY_RANDOM, CoreState, CutModel
from kanaloa.rules.engine import load_engine
from kanaloa.rules.reference import ReferenceState, is_absolute_majority
from kanaloa.rules.registry import load_game
from kanaloa.rules.rng import SplitMix64
from kanaloa.rules.ruleset import Ruleset
from kanaloa.rules.state import (
    GAME_KAHUNA,
    GAME_KANALOA,
    NO_OWNER,
    ROUND_1,
    ROUND_2,
    ROUND_3,
    ROUND_FINAL,
    ROUND_SETUP,
    StateData,
    colors_of_seat,
    seat_of_color,
)
from kanaloa.search import ISMCTS

CORE = load_engine("core")
BUCKETS = 7  # the phases: see test_the_phases_of_kanaloa and test_the_phases_of_kahuna
NAMES = ["banked", "scored_now", "islands", "bridges", "hand", "seats_to_move", "near_control",
         "near_control_in_hand", "threatened_bridges", "buildable_links", "god_tokens"]
FEATURES = len(NAMES)
GOD_TOKENS = NAMES.index("god_tokens")

# Every rule set of the family the shipped file has a model for, in the file's order.
FAMILY = [load_game("kanaloa", players=players, preset=preset, gods=gods)
          for preset in ("yucata", "tabletop") for gods in (False, True) for players in (2, 3, 4)]
FAMILY.append(load_game("kahuna"))

# The kinds of rule set whose features differ: one color a seat or two, the gods or not, Kahuna.
KINDS = [load_game("kanaloa", players=4), load_game("kanaloa", players=3, preset="tabletop"),
         load_game("kanaloa", players=2), load_game("kanaloa", players=4, gods=True),
         load_game("kanaloa", players=3, gods=True), load_game("kanaloa", players=2, gods=True, preset="tabletop"),
         load_game("kahuna")]


def named(rules: Ruleset) -> str:
    return rules.describe()


def heuristic_states(rules: Ruleset, games: int, share: float, seed: int):
    """Copies of the states after the setup of ``games`` games of ``rules`` played by the heuristic policy for
    every seat (dealt from ``seed``, ``seed + 1``, ...), each taken with chance ``share``."""
    rng = random.Random(seed)
    for g in range(games):
        state = CORE.deal(rules, seed + g)
        while not state.is_over:
            if state.round != ROUND_SETUP and rng.random() < share:
                yield state.copy()
            state.apply(state.pick_action(rng.getrandbits(63), POLICY_HEURISTIC))


def played(rules: Ruleset, seed: int, moves: int) -> CoreState:
    """A game of ``rules`` dealt from ``seed`` after ``moves`` heuristic moves (or at its end)."""
    state = CORE.deal(rules, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(state.pick_action(rng.getrandbits(63), POLICY_HEURISTIC))
    return state


def model_of(rules: Ruleset) -> CutModel:
    model = cut_model_for(state_model_key(CORE.deal(rules, 0)))
    assert model is not None
    return model


def shipped_text() -> str:
    return resources.files("kanaloa.play").joinpath(MODELS_FILE).read_text("utf-8")


def shipped_entry(rules: Ruleset) -> dict:
    head = FAMILY_FIT.head(rules)
    return next(e for e in json.loads(shipped_text())["models"] if {k: e.get(k) for k in head} == head)


def random_weights(rules: Ruleset, seed: int) -> dict:
    """Weights of every number a model of ``rules`` has, drawn from ``seed`` (none of them zero)."""
    rng = random.Random(seed)
    _, width = CutModel.shape(rules.code, rules.players)
    return {"win": [[rng.uniform(-0.3, 0.3) or 0.1 for _ in range(width)] for _ in range(BUCKETS)],
            "points": [[rng.uniform(-2.0, 2.0) or 0.1 for _ in range(FEATURES + 1)] for _ in range(BUCKETS)]}


def model_from(rules: Ruleset, weights: dict) -> CutModel:
    return CutModel(rules.players, weights["win"], weights["points"], rules.code, rules.gods)


# -- the features, counted from the reference state --------------------------------------------


def one_bridge_short(count: int, size: int) -> bool:
    """R2: ``count`` bridges on an island of ``size`` links are no majority, and one more would be."""
    return not is_absolute_majority(count, size) and is_absolute_majority(count + 1, size)


def expected_color_features(board, data: StateData) -> list[list[int]]:
    """The eleven features of every color, counted on the reference state of ``data`` (see ``NAMES``)."""
    ref = ReferenceState.from_data(board, data)
    colors, players = ref.n_colors, data.players
    free = [k for k in range(board.n_links) if data.bridges[k] == NO_OWNER]
    held = [ref.islands_controlled(c) for c in range(colors)]  # R2
    if ref.is_kahuna:  # R16.7: the player controlling more islands scores the difference
        now = [max(0, held[c] - max(held[o] for o in range(colors) if o != c)) for c in range(colors)]
    else:  # R11 with the final scoring's +1 an island
        now = ref.points_if_scored(final=True)
    assert now == ref.points_if_scored(final=True)
    near = [{x for x in range(board.n_islands)
             if ref.has_free_link(x) and one_bridge_short(ref.count_on(x, c), board.sizes[x])}
            for c in range(colors)]
    rows = []
    for c in range(colors):
        seat = seat_of_color(c, players)
        hand = data.hands[seat]

        def placeable(link: int, hand: list[int] = hand) -> bool:  # R4: a card naming an end of the link
            a, b = board.links[link]
            return hand[a] > 0 or hand[b] > 0

        in_hand = [x for x in near[c] if any(placeable(k) for k in board.links_of[x] if k in free)]
        swept = [x for x in range(board.n_islands) if any(x in near[o] for o in range(colors) if o != c)]
        rows.append([
            data.scores[c],                                       # banked
            now[c],                                               # scored_now
            held[c],                                              # islands
            data.bridges.count(c),                                # bridges
            data.hand_size(seat),                                 # hand
            (seat - data.to_move) % players,                      # seats_to_move
            len(near[c]),                                         # near_control
            len(in_hand),                                         # near_control_in_hand
            sum(ref.count_on(x, c) for x in swept),               # threatened_bridges (R6 would remove them)
            sum(1 for k in free if placeable(k)),                 # buildable_links
            sum(data.gods_owned[seat]) if data.gods else 0,       # god_tokens (R14.2: claimed, not used)
        ])
    return rows


def expected_seat_features(board, data: StateData) -> list[list[int]]:
    """Each seat's features: its color's, or with two players of Kanaloa (R15.1) those of its weaker color
    (fewer points banked plus scored now; its first color on a tie) and then its stronger one's (R15.5)."""
    colors = expected_color_features(board, data)
    rows = []
    for seat in range(data.players):
        own = colors_of_seat(seat, data.players, data.game)
        if len(own) == 1:
            rows.append(colors[own[0]])
            continue
        weak, strong = own
        if sum(colors[strong][:2]) < sum(colors[weak][:2]):
            weak, strong = strong, weak
        rows.append(colors[weak] + colors[strong])
    return rows


@pytest.mark.parametrize("rules", KINDS, ids=named)
def test_the_features_are_the_reference_counts(rules):
    """In many states of heuristic games, every feature of every color and seat is the reference's count."""
    board = rules.board
    seen = [0] * FEATURES
    short_of_hand = links_short_of_hand = 0
    orders, ties = set(), 0
    checked = 0
    for state in heuristic_states(rules, 20, 0.15, 41):
        data = state.to_data()
        colors = expected_color_features(board, data)
        assert state.color_features() == colors, (data.round, data.to_move)
        seats = expected_seat_features(board, data)
        _, features = state.cut_features()
        assert features == seats
        assert len(features[0]) == CutModel.shape(rules.code, rules.players)[1]
        for row in colors:
            seen = [s + (v != 0) for s, v in zip(seen, row, strict=True)]
            short_of_hand += row[7] < row[6]
            links_short_of_hand += row[9] < data.bridges.count(NO_OWNER)
        if rules.players == 2 and rules.game == "kanaloa":
            for seat in range(2):
                first, second = colors[seat], colors[seat + 2]
                if first != second:
                    orders.add(features[seat][:FEATURES] == first)  # the seat's first color is the weaker
                    if sum(first[:2]) == sum(second[:2]):  # a tie: its first color first
                        assert features[seat] == first + second
                        ties += 1
        checked += 1
    assert checked > 200
    # Every feature is at work in these games: only Might of the Gods has god tokens.
    assert [k for k in range(FEATURES) if not seen[k]] == ([] if rules.gods else [GOD_TOKENS])
    assert short_of_hand and links_short_of_hand  # the hand matters
    if rules.players == 2 and rules.game == "kanaloa":
        assert orders == {True, False} and ties  # either color of a seat may be its weaker


def test_the_feature_names():
    assert CutModel.feature_names() == NAMES
    assert CutModel.feature_names(GAME_KANALOA, 3) == NAMES
    assert CutModel.feature_names(GAME_KAHUNA, 2) == NAMES  # one color a seat (R16.1)
    assert CutModel.feature_names(GAME_KANALOA, 2) == [f"weak_{n}" for n in NAMES] + [f"strong_{n}" for n in NAMES]
    assert CutModel.shape() == (BUCKETS, FEATURES)
    assert CutModel.shape(GAME_KANALOA, 2) == (BUCKETS, 2 * FEATURES)
    assert CutModel.shape(GAME_KAHUNA, 2) == (BUCKETS, FEATURES)


# -- the phases ---------------------------------------------------------------------------------


def test_the_phases_of_kanaloa():
    """Rounds 1 and 2 each in three parts by the cards left in the deck: more than 3/8 of the board's cards
    (18 of oro's 48), more than 3/16 (9), fewer; then the final round (R10)."""
    seen = set()
    for rules in (load_game("kanaloa", players=4), load_game("kanaloa", players=2, gods=True)):
        cards = rules.board.n_cards
        assert cards == 48
        for state in heuristic_states(rules, 4, 1.0, 3):
            phase, _ = state.cut_features()
            left = state.deck_size
            if state.round == ROUND_FINAL:
                expected = 6
            else:
                assert state.round in (ROUND_1, ROUND_2)
                part = 0 if 8 * left > 3 * cards else 1 if 16 * left > 3 * cards else 2
                expected = (0 if state.round == ROUND_1 else 3) + part
            assert phase == expected, (state.round, left)
            seen.add(phase)
    assert seen == set(range(BUCKETS))


def test_the_phases_of_kahuna():
    """Each of Kahuna's three decks (R16.6) in two parts: more than half of its 24 cards left, fewer in the
    first; after a reshuffle, more than a quarter (6), fewer; then the last turns (R16.7)."""
    rules = load_game("kahuna")
    assert rules.board.n_cards == 24
    seen = set()
    for state in heuristic_states(rules, 6, 1.0, 3):
        phase, _ = state.cut_features()
        left = state.deck_size
        expected = {ROUND_1: 0 if left > 12 else 1, ROUND_2: 2 if left > 6 else 3, ROUND_3: 4 if left > 6 else 5,
                    ROUND_FINAL: 6}[state.round]
        assert phase == expected, (state.round, left)
        seen.add(phase)
    assert seen == set(range(BUCKETS))


# -- the estimate -------------------------------------------------------------------------------


def formula(weights: dict, state: CoreState) -> tuple[list[float], list[float]]:
    """The model's estimate written out: a seat's win chance is the softmax over the seats of its weighted
    features; a color's expected final points are its own features weighted, plus a constant."""
    phase, seats = state.cut_features()
    win, points = weights["win"][phase], weights["points"][phase]
    scores = [sum(w * f for w, f in zip(win, row, strict=True)) for row in seats]
    top = max(scores)
    total = sum(math.exp(s - top) for s in scores)
    chances = [math.exp(s - top) / total for s in scores]
    expected = [sum(w * f for w, f in zip(points, [*row, 1.0], strict=True)) for row in state.color_features()]
    return chances, expected


ESTIMATED = [load_game("kanaloa", players=4), load_game("kanaloa", players=2),
             load_game("kanaloa", players=3, gods=True), load_game("kahuna")]


@pytest.mark.parametrize("weights", ["shipped", "random"])
@pytest.mark.parametrize("rules", ESTIMATED, ids=named)
def test_the_estimate_is_the_models_formula(rules, weights):
    chosen = shipped_entry(rules) if weights == "shipped" else random_weights(rules, 3)
    model = model_from(rules, chosen)
    assert (model.game, model.players, model.gods) == (rules.code, rules.players, rules.gods)
    checked = 0
    for state in heuristic_states(rules, 6, 0.1, 17):
        chances, expected = state.estimate(model)
        want_chances, want_expected = formula(chosen, state)
        assert len(chances) == rules.players and len(expected) == len(state.scores)  # per seat; per color
        assert chances == pytest.approx(want_chances, rel=1e-9, abs=1e-12)
        assert sum(chances) == pytest.approx(1.0)
        assert expected == pytest.approx(want_expected, rel=1e-9, abs=1e-9)
        assert state.playout_cut(checked, POLICY_HEURISTIC, 0, model) == (chances, expected)
        checked += 1
    assert checked > 40


def test_two_players_have_22_win_features_and_4_colors_of_points():
    rules = load_game("kanaloa", players=2)
    model = model_of(rules)
    assert model.width == 22
    state = played(rules, 4, 60)
    chances, expected = state.estimate(model)
    assert len(chances) == 2 and len(expected) == 4


@pytest.mark.parametrize("rules", ESTIMATED, ids=named)
def test_a_cut_rollout_is_the_estimate_of_the_state_it_reaches(rules):
    model = model_from(rules, random_weights(rules, 5))
    for seed in range(6):
        state = played(rules, seed, 25)
        cut, other = state.copy(), state.copy()
        result = cut.playout_cut(seed, POLICY_HEURISTIC, 15, model)
        assert result is not None and not cut.is_over
        assert result == cut.estimate(model)
        # The moves are the playout policy's, whatever the model: another one judges the same state.
        assert other.playout_cut(seed, POLICY_HEURISTIC, 15, model_of(rules)) == other.estimate(model_of(rules))
        assert other.to_data() == cut.to_data()


def test_a_cut_longer_than_the_game_is_the_playout():
    rules = load_game("kanaloa", players=4)
    model = model_of(rules)
    for seed in range(8):
        state = played(rules, seed, 20)
        whole, cut = state.copy(), state.copy()
        whole.playout(seed, POLICY_HEURISTIC)
        assert cut.playout_cut(seed, POLICY_HEURISTIC, 10**9, model) is None
        assert cut.to_data() == whole.to_data()
        with pytest.raises(ValueError, match=r"^estimate: the game is over$"):
            cut.estimate(model)


def test_a_cut_of_zero_moves_judges_the_state_itself():
    """Only the bridges weigh here: the seat with the most bridges has the best chance, and each color's points
    are twice its bridges and one."""
    rules = load_game("kanaloa", players=4)
    bridges = NAMES.index("bridges")
    win = [1.0 if k == bridges else 0.0 for k in range(FEATURES)]
    points = [2.0 if k == bridges else 0.0 for k in range(FEATURES)] + [1.0]
    model = CutModel(4, [win] * BUCKETS, [points] * BUCKETS)
    state = played(rules, 3, 60)
    before = state.to_data()
    chances, expected = state.playout_cut(0, POLICY_HEURISTIC, 0, model)
    assert state.to_data() == before
    counts = [before.bridges.count(c) for c in range(4)]
    assert expected == [2.0 * b + 1.0 for b in counts]
    assert chances.index(max(chances)) == counts.index(max(counts))


def zero_model(game: int, players: int, gods: bool = False) -> CutModel:
    _, width = CutModel.shape(game, players)
    return CutModel(players, [[0.0] * width] * BUCKETS, [[0.0] * (FEATURES + 1)] * BUCKETS, game, gods)


@pytest.mark.parametrize(("rules", "model", "message"), [
    (load_game("kanaloa", players=3), zero_model(GAME_KANALOA, 4),
     "model: fitted for Kanaloa with 4 players; this game is Kanaloa with 3 players"),
    (load_game("kanaloa", players=4, gods=True), zero_model(GAME_KANALOA, 4),
     "model: fitted for Kanaloa with 4 players; this game is Kanaloa with 4 players and the gods"),
    (load_game("kanaloa", players=4), zero_model(GAME_KANALOA, 4, gods=True),
     "model: fitted for Kanaloa with 4 players and the gods; this game is Kanaloa with 4 players"),
    (load_game("kanaloa", players=2), zero_model(GAME_KAHUNA, 2),
     "model: fitted for Kahuna with 2 players; this game is Kanaloa with 2 players"),
    (load_game("kahuna"), zero_model(GAME_KANALOA, 2),
     "model: fitted for Kanaloa with 2 players; this game is Kahuna with 2 players"),
], ids=["players", "gods of the game", "gods of the model", "kahuna model", "kanaloa model"])
def test_a_model_for_another_game_is_refused(rules, model, message):
    state = played(rules, 1, 10)
    before = state.to_data()
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        state.estimate(model)
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        state.playout_cut(1, POLICY_HEURISTIC, 5, model)
    assert state.to_data() == before  # refused before any move


def test_a_negative_cut_is_refused():
    state = played(load_game("kanaloa", players=4), 1, 10)
    with pytest.raises(ValueError, match=r"^plies: must be from 0 to"):
        state.playout_cut(1, POLICY_HEURISTIC, -1, zero_model(GAME_KANALOA, 4))


SHAPES = [(GAME_KANALOA, 2, False), (GAME_KANALOA, 3, False), (GAME_KANALOA, 4, True), (GAME_KAHUNA, 2, False)]


def malformed_cases(width: int):
    """(win, points, message) for each way the weights of a model ``width`` features wide can be wrong."""
    win, points = [[0.0] * width] * BUCKETS, [[0.0] * (FEATURES + 1)] * BUCKETS
    other = 2 * FEATURES if width == FEATURES else FEATURES  # the width of the other kind of seat
    bad = [[0.0] * width for _ in range(BUCKETS)]
    yield "weights", points, f"win: must be {BUCKETS} rows"
    yield win[:-1], points, f"win: must be {BUCKETS} rows"
    yield [*win, win[0]], points, f"win: must be {BUCKETS} rows"
    yield win, points[1:], f"points: must be {BUCKETS} rows"
    yield [[0.0] * other] * BUCKETS, points, f"win[0]: must be {width} numbers"
    yield [*win[:-1], 3.0], points, f"win[{BUCKETS - 1}]: must be {width} numbers"
    yield win, [[0.0] * FEATURES] * BUCKETS, f"points[0]: must be {FEATURES + 1} numbers"
    yield win, [[0.0] * 23] * BUCKETS, f"points[0]: must be {FEATURES + 1} numbers"
    for value, shown in ((float("nan"), "nan"), (float("inf"), "inf"), (1e7, "10000000.0"), (True, "True"),
                         ("1", "'1'"), (None, "None")):
        rows = copy.deepcopy(bad)
        rows[4][width - 1] = value
        yield rows, points, f"win[4][{width - 1}]: must be a finite number, not {shown}"
    rows = [[0.0] * (FEATURES + 1) for _ in range(BUCKETS)]
    rows[6][FEATURES] = float("-inf")
    yield win, rows, f"points[6][{FEATURES}]: must be a finite number, not -inf"


@pytest.mark.parametrize(("game", "players", "gods"), SHAPES)
def test_a_model_with_malformed_weights_is_refused(game, players, gods):
    _, width = CutModel.shape(game, players)
    cases = list(malformed_cases(width))
    for win, points, message in cases:
        with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
            CutModel(players, win, points, game, gods)
    assert len(cases) == 15
    CutModel(players, [[1e6] * width] * BUCKETS, [[-1e6] * (FEATURES + 1)] * BUCKETS, game, gods)  # the bounds


@pytest.mark.parametrize(("args", "message"), [
    ((1, GAME_KANALOA, False), "players: must be from 2 to 4, not 1"),
    ((5, GAME_KANALOA, False), "players: must be from 2 to 4, not 5"),
    (("4", GAME_KANALOA, False), "players: must be an integer, not '4'"),
    ((4, 2, False), "game: must be from 0 to 1, not 2"),
    ((4, GAME_KANALOA, 1), "gods: must be true or false, not 1"),
    ((2, GAME_KAHUNA, True), "gods: Kahuna has no gods (R16)"),
    ((3, GAME_KAHUNA, False), "players: Kahuna is for 2 players (R16.1)"),
])
def test_a_model_for_no_game_is_refused(args, message):
    players, game, gods = args
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        CutModel(players, [[0.0] * FEATURES] * BUCKETS, [[0.0] * (FEATURES + 1)] * BUCKETS, game, gods)


# -- sampled_playout: the fitting's samples ------------------------------------------------------


def every_state_after_the_setup(state: CoreState, seed: int, model: CutModel) -> list[tuple]:
    """What ``sampled_playout`` would take with share 1, found the long way: the state after each number of
    moves of ``playout(seed)`` (``playout_cut`` plays the same moves), the setup's left out."""
    out = []
    for moves in range(10_000):
        reached = state.copy()
        if reached.playout_cut(seed, POLICY_HEURISTIC, moves, model) is None:
            return out
        if reached.round != ROUND_SETUP:
            phase, seats = reached.cut_features()
            out.append((phase, seats, reached.color_features()))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("rules", [load_game("kanaloa", players=4), load_game("kanaloa", players=2, gods=True),
                                   load_game("kahuna")], ids=named)
def test_a_sampled_playout_ends_the_game_as_the_playout_does(rules):
    model = model_of(rules)
    for seed in range(3):
        dealt = CORE.deal(rules, 70 + seed)  # in the setup (R3), except Kahuna's (R16.2)
        whole = dealt.copy()
        whole.playout(seed, POLICY_HEURISTIC)
        everything = every_state_after_the_setup(dealt, seed, model)
        for share, sample_seed in ((1.0, 0), (0.0, 0), (0.3, 1), (0.3, 2)):
            sampled = dealt.copy()
            taken = sampled.sampled_playout(seed, POLICY_HEURISTIC, sample_seed, share)
            assert sampled.to_data() == whole.to_data()
            again = dealt.copy()
            assert again.sampled_playout(seed, POLICY_HEURISTIC, sample_seed, share) == taken
            if share == 1.0:
                assert taken == everything  # every state after the setup, this one included where it is one
            elif share == 0.0:
                assert taken == []
            else:
                assert 0 < len(taken) < len(everything)
                it = iter(everything)
                assert all(any(sample == s for s in it) for sample in taken)  # in the order of the game
        shares = [dealt.copy().sampled_playout(seed, POLICY_HEURISTIC, s, 0.3) for s in (1, 2)]
        assert shares[0] != shares[1]  # the sample seed picks the states, not the moves


def test_a_sampled_playout_takes_about_its_share():
    rules = load_game("kanaloa", players=3)
    taken = total = 0
    for seed in range(40):
        state = CORE.deal(rules, seed)
        everything = len(state.copy().sampled_playout(seed, POLICY_HEURISTIC, 0, 1.0))
        taken += len(state.sampled_playout(seed, POLICY_HEURISTIC, seed + 1, SAMPLE_SHARE))
        total += everything
    assert 0.8 * SAMPLE_SHARE < taken / total < 1.2 * SAMPLE_SHARE


@pytest.mark.parametrize("share", [-0.1, 1.5, float("nan")])
def test_a_share_outside_0_and_1_is_refused(share):
    state = CORE.deal(load_game("kanaloa", players=4), 1)
    with pytest.raises(ValueError, match=f"^share: must be between 0 and 1, not {share!r}$"):
        state.sampled_playout(1, POLICY_HEURISTIC, 1, share)
    assert state.round == ROUND_SETUP


# -- the shipped models --------------------------------------------------------------------------


def test_every_rule_set_of_the_family_on_oro_has_a_model():
    """Kanaloa on oro with 2, 3 and 4 players, both presets (R13), with and without the gods (R14), and
    Kahuna (R16): thirteen models, each fitted for its own game."""
    assert len(shipped_models()) == len(FAMILY) == 13
    for rules in FAMILY:
        model = model_of(rules)
        assert (model.game, model.players, model.gods) == (rules.code, rules.players, rules.gods)
        assert model.width == (22 if rules.players == 2 and rules.game == "kanaloa" else 11)
    keys = {state_model_key(CORE.deal(rules, 0)) for rules in FAMILY}
    assert keys == set(shipped_models())


def test_a_board_other_than_oro_has_no_model():
    doc = json.loads(builtin_board_text("oro"))
    doc["cards_per_island"] = 4  # oro's islands and links with 64 cards
    more_cards = board_from_dict(doc, "more cards")
    for rules in (load_game("kanaloa", players=3, board="kahuna"), load_game("kahuna", board="oro"),
                  load_game("kanaloa", players=4, board=more_cards)):
        assert cut_model_for(state_model_key(CORE.deal(rules, 0))) is None, rules.describe()


@pytest.mark.parametrize("rules", FAMILY, ids=named)
def test_the_shipped_models_predict_games_they_were_not_fitted_on(rules):
    """On heuristic games dealt from seeds far from the fitting's (10,000,000 on), the model's win chances late
    in the game (the second half of round 2 on; Kahuna's third deck on) beat even chances by log loss, and
    name the winner more often than not."""
    model = model_of(rules)
    loss = even = 0.0
    hits = n = 0
    rng = random.Random(7)
    for g in range(100):
        state = CORE.deal(rules, 900_000_000 + g)
        judged = []
        while not state.is_over:
            if state.round != ROUND_SETUP and rng.random() < 0.1 and state.cut_features()[0] >= 4:
                judged.append(state.estimate(model)[0])
            state.apply(state.pick_action(rng.getrandbits(63), POLICY_HEURISTIC))
        if state.winner < 0:
            continue  # Kahuna's draw (R16.7)
        for chances in judged:
            loss -= math.log(chances[state.winner])
            even += math.log(rules.players)
            hits += chances.index(max(chances)) == state.winner
            n += 1
    assert n > 300
    assert loss < 0.9 * even
    assert hits / n > 0.6


def test_the_shipped_models_are_read_once():
    assert shipped_models() is shipped_models()


@pytest.fixture
def models_file(monkeypatch):
    """Make the package's models file read as the text given to the returned function."""
    def use(text: str) -> None:
        folder = SimpleNamespace(joinpath=lambda name: SimpleNamespace(read_text=lambda encoding: text))
        monkeypatch.setattr(cut_module, "resources", SimpleNamespace(files=lambda package: folder))
        shipped_models.cache_clear()

    yield use
    monkeypatch.undo()
    shipped_models.cache_clear()


def test_a_broken_models_file_is_refused_before_any_search(models_file):
    doc = json.loads(shipped_text())
    doc["models"][2]["policy"] = "random"
    models_file(json.dumps(doc))
    message = f"{MODELS_FILE}: models[2]: policy: must be 'heuristic', the rollouts' policy"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        shipped_models()
    with pytest.raises(ValueError, match=re.escape(message)):
        KanaloaGame(cut=10)
    KanaloaGame(cut=0)  # no cut, no models read
    KanaloaGame(POLICY_RANDOM, cut=10)


# -- reading a models file -------------------------------------------------------------------------


def entry_for(rules: Ruleset, **changes) -> dict:
    """The shipped entry of ``rules`` with ``changes`` (a value of None removes the key)."""
    entry = copy.deepcopy(shipped_entry(rules))
    for key, value in changes.items():
        if value is None:
            entry.pop(key)
        else:
            entry[key] = value
    return entry


FOUR = load_game("kanaloa", players=4)
TWO = load_game("kanaloa", players=2)
KAHUNA = load_game("kahuna")


def document(*entries: dict) -> dict:
    return {"format": MODELS_FORMAT, "models": list(entries)}


def malformed_documents():
    yield [], f"format: must be '{MODELS_FORMAT}'"
    yield {"format": "kanaloa-cut-models/1", "models": []}, f"format: must be '{MODELS_FORMAT}'"
    yield {"models": []}, f"format: must be '{MODELS_FORMAT}'"
    yield {"format": MODELS_FORMAT}, "models: must be a list"
    yield {"format": MODELS_FORMAT, "models": {}}, "models: must be a list"
    yield document(entry_for(FOUR), 3), "models[1]: must be an object"
    for key in ("game", "policy", "players", "board", "preset", "gods", "features", "win", "points"):
        yield document(entry_for(FOUR, **{key: None})), f"models[0]: {key} is missing"
    yield (document(entry_for(FOUR, game="cannonball")),  # a game of the registry, but not of this file
           "models[0]: game: must be one of kanaloa, kahuna, not 'cannonball'")
    yield document(entry_for(FOUR, game=3)), "models[0]: game: must be one of kanaloa, kahuna, not 3"
    yield document(entry_for(FOUR, policy="random")), "models[0]: policy: must be 'heuristic', the rollouts' policy"
    yield (document(entry_for(FOUR, preset="home")),
           "models[0]: preset 'home': unknown; choose one of yucata, tabletop (R13)")
    yield document(entry_for(FOUR, players="four")), "models[0]: players 'four': the game is for 2, 3 or 4 players"
    yield document(entry_for(FOUR, players=5)), "models[0]: players 5: the game is for 2, 3 or 4 players"
    yield document(entry_for(FOUR, gods="yes")), "models[0]: gods 'yes': must be true (Might of the Gods, R14) or false"
    yield (document(entry_for(FOUR, board="atlantis")),
           "models[0]: board 'atlantis': no such built-in board (oro, kahuna) or file")
    yield (document(entry_for(KAHUNA, players=3)),
           "models[0]: players 3: Kahuna is for 2 players, white and black (R16.1)")
    yield (document(entry_for(KAHUNA, gods=True)),
           "models[0]: gods: Might of the Gods is a variant of Kanaloa, not of Kahuna (R14, R16.9)")
    yield (document(entry_for(KAHUNA, preset="tabletop")),
           "models[0]: preset 'tabletop': Kahuna has no presets (R13 does not apply, R16.9); each player has 25 "
           "bridges (R16.1)")
    four_names, two_names = ", ".join(NAMES), ", ".join(CutModel.feature_names(GAME_KANALOA, 2))
    features = f"features: must be {four_names}, the core's features in order"
    yield document(entry_for(FOUR, features=NAMES[:-1])), f"models[0]: {features}"
    yield document(entry_for(FOUR, features=[NAMES[1], NAMES[0], *NAMES[2:]])), f"models[0]: {features}"
    yield document(entry_for(FOUR, features=", ".join(NAMES))), f"models[0]: {features}"
    yield (document(entry_for(TWO, features=NAMES)),
           f"models[0]: features: must be {two_names}, the core's features in order")
    yield document(entry_for(FOUR, win=[])), "models[0]: win: must be 7 rows"
    yield (document(entry_for(TWO, win=entry_for(FOUR)["win"])),  # a seat of two colors has 22 features
           "models[0]: win[0]: must be 22 numbers")
    yield document(entry_for(FOUR, points=entry_for(FOUR)["win"])), "models[0]: points[0]: must be 12 numbers"
    yield (document(entry_for(KAHUNA, points=[["x"] * 12] * 7)),
           "models[0]: points[0][0]: must be a finite number, not 'x'")
    yield (document(entry_for(FOUR), entry_for(TWO), entry_for(FOUR)),
           "models[2]: a second model for Kanaloa, 4 players, yucata preset, on board oro")


@pytest.mark.parametrize(("doc", "message"), list(malformed_documents()))
def test_read_models_names_what_is_wrong(doc, message):
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        read_models(doc)


def test_read_models_reads_the_shipped_file():
    doc = json.loads(shipped_text())
    assert doc["format"] == MODELS_FORMAT == "kanaloa-cut-models/2"
    models = read_models(doc)
    assert len(models) == 13
    four = models[state_model_key(CORE.deal(FOUR, 0))]
    state = played(FOUR, 2, 50)
    assert four.players == 4 and state.estimate(four) == state.estimate(model_of(FOUR))
    # A Kahuna entry may name Kahuna's one preset and no gods: the rule set accepts those (R16.9).
    assert len(read_models(document(entry_for(KAHUNA, preset="yucata", gods=False)))) == 1


# -- the game adapter and the bots ----------------------------------------------------------------


def test_the_game_cuts_wherever_a_model_fits():
    game = KanaloaGame(cut=10)
    for rules in FAMILY:
        state = played(rules, 1, 10)
        assert game.cut_model(state) is cut_model_for(state_model_key(state)) is not None, rules.describe()
        # The models are fitted to the heuristic policy's games: random rollouts play to the end.
        assert KanaloaGame(POLICY_RANDOM, cut=10).cut_model(state) is None
        assert KanaloaGame(cut=0).cut_model(state) is None
    assert game.cut_model(played(load_game("kanaloa", players=3, board="kahuna"), 1, 10)) is None
    with pytest.raises(ValueError, match="cut -1: must be a whole number of moves, 0 or more"):
        KanaloaGame(cut=-1)


@pytest.mark.parametrize("cut", [2.5, True, "3", None])
def test_a_cut_that_is_not_a_whole_number_is_refused(cut):
    # Compiled or plain, the game checks the type itself: nothing is rounded or converted.
    with pytest.raises(ValueError, match=re.escape(f"cut {cut!r}: must be a whole number of moves, 0 or more")):
        KanaloaGame(cut=cut)


@pytest.mark.parametrize("rules", KINDS, ids=named)
def test_a_cut_rollout_backs_up_the_estimate(rules):
    """After a cut rollout the state counts as finished for the search: its returns are the model's win
    chances for the state reached, its points each color's expected final points."""
    state = KanaloaGame(cut=5).wrap(played(rules, 2, 20))
    state.rollout(11)
    assert state.is_terminal() and not state.core.is_over
    assert state.estimate == state.core.estimate(state.model)
    wins = state.returns()
    assert len(wins) == rules.players and sum(wins) == pytest.approx(1.0) and all(0.0 < w < 1.0 for w in wins)
    assert state.points() == state.estimate[1] and len(state.points()) == len(state.core.scores)


def test_a_two_player_cut_rollout_has_margins_by_the_weaker_color():
    """With two players the model gives four colors' points; a player's margin is its weaker color's expected
    points less the other player's weaker color's (R15.5), over MARGIN_SCALE."""
    for seed in range(6):
        state = KanaloaGame(cut=8).wrap(played(TWO, seed, 30 + 10 * seed))
        state.rollout(seed)
        assert state.estimate is not None
        points = state.points()
        assert len(points) == 4
        weak = [min(points[seat], points[seat + 2]) for seat in range(2)]
        want = [max(-1.0, min(1.0, (weak[s] - weak[1 - s]) / MARGIN_SCALE)) for s in range(2)]
        assert state.margins() == pytest.approx(want)


def test_a_kahuna_cut_rollout_has_margins_by_the_points():
    for seed in range(4):
        state = KanaloaGame(cut=8).wrap(played(KAHUNA, seed, 20))
        state.rollout(seed)
        points = state.points()
        assert len(points) == 2
        want = [max(-1.0, min(1.0, (points[s] - points[1 - s]) / MARGIN_SCALE)) for s in range(2)]
        assert state.margins() == pytest.approx(want)


def test_rollouts_on_a_board_without_a_model_play_to_the_end():
    state = KanaloaGame(cut=5).wrap(played(load_game("kanaloa", players=3, board="kahuna"), 2, 20))
    state.rollout(11)
    assert state.core.is_over and state.estimate is None
    assert sorted(state.returns()) == [0.0, 0.0, 1.0]


@pytest.mark.parametrize("rules", [FOUR, TWO], ids=named)
def test_a_search_with_cut_rollouts_backs_up_estimates(rules):
    """Early in the game every rollout is cut: the results are win chances, not 0 or 1, so a move's error
    is their spread (smaller than the binomial one), and the points are the model's."""
    state = played(rules, 5, 30)
    colors = len(state.scores)
    cut = ISMCTS(seed=3, points=True).search(KanaloaGame(cut=20).wrap(state.copy()), iterations=400)
    whole = ISMCTS(seed=3, points=True).search(KanaloaGame().wrap(state.copy()), iterations=400)
    for child in cut.root.children.values():
        assert child.wins != round(child.wins)  # a sum of win chances
    best = cut.candidates()[0]
    assert 0.0 < best.win < 1.0 and len(best.points) == colors
    assert best.error < 0.9 * math.sqrt(best.win * (1 - best.win) / best.visits)
    node = cut.root.children[best.action]  # the error is the spread of the results kept in wins2
    assert best.error == pytest.approx(math.sqrt((node.wins2 / node.visits - best.win ** 2) / node.visits))
    plain = whole.candidates()[0]
    assert plain.error == pytest.approx(math.sqrt(plain.win * (1 - plain.win) / plain.visits))
    assert len(cut.points) == colors and cut.points != whole.points


def test_the_bot_key_cut():
    assert make_bot("hint:cut=20").search_options["cut"] == 20
    assert make_bot("ismcts:cut=0").search_options["cut"] == 0
    assert make_bot("pimc:cut=8").search_options["cut"] == 8
    assert make_bot("hint").search_options["cut"] == HINT_SETTINGS.cut
    started = make_bot("hint:cut=20")
    started.start(load_game("kanaloa", players=2), 1)
    assert started.game.cut == 20
    with pytest.raises(OptionError, match="cut"):
        make_bot("hint:cut=-2")


# -- the fitting tool ---------------------------------------------------------------------------


ROOT = Path(__file__).resolve().parents[1]
SMALL = ["--games", "30", "--only", "players=4,preset=yucata,gods=false"]


def test_cutfit_twice_writes_the_same_bytes(tmp_path):
    """The command from its defaults' seed, on a small sample: the same file twice, which reads back."""
    pytest.importorskip("numpy")
    texts = []
    for run in ("a", "b"):
        out = tmp_path / f"{run}.json"
        done = subprocess.run([sys.executable, "-m", "kanaloa.tools.cutfit", *SMALL, "--out", str(out)],
                              capture_output=True, text=True, cwd=ROOT)
        assert done.returncode == 0, done.stderr
        assert re.fullmatch(r"Kanaloa, 4 players, yucata preset, on board oro: 30 games, \d+ samples, \d+ s\n",
                            done.stderr)
        texts.append(out.read_bytes())
    assert texts[0] == texts[1]
    doc = json.loads(texts[0])
    models = read_models(doc)
    assert list(models) == [state_model_key(CORE.deal(FOUR, 0))]
    [entry] = doc["models"]
    samples = FAMILY_FIT.samples(FOUR, 30, FAMILY_FIT.default_seed)
    assert {k: v for k, v in entry.items() if k not in ("win", "points")} == {
        "game": "kanaloa", "board": "oro", "players": 4, "preset": "yucata", "gods": False, "policy": "heuristic",
        "games": 30, "seed": 10_000_000, "samples": len(samples.phases), "features": NAMES}
    assert entry["win"][6][NAMES.index("scored_now")] > 0  # in the final round, a scoring now counts for the winner


def test_cutfit_only_picks_rule_sets_of_the_file(tmp_path):
    """Each ``--only`` picks the rule sets with all of its values (Kahuna's entries have no preset or gods and
    so are left out by a filter naming them); several pick each one's, in the file's order."""
    pytest.importorskip("numpy")
    from kanaloa.tools.cutfit import main

    out = tmp_path / "models.json"
    args = ["--games", "3", "--seed", "5", "--only", "game=kahuna", "--only", "players=2,gods=true,preset=tabletop",
            "--only", "board=kahuna", "--out", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    entries = json.loads(out.read_text())["models"]
    assert [(e["game"], e["players"], e.get("preset"), e.get("gods")) for e in entries] == [
        ("kanaloa", 2, "tabletop", True), ("kahuna", 2, None, None)]
    assert all(e["games"] == 3 and e["seed"] == 5 for e in entries)
    assert len(read_models(json.loads(out.read_text()))) == 2


@pytest.mark.parametrize(("only", "message"), [
    ("players", "'players' must be KEY=VALUE, e.g. players=4"),
    ("players=4,gods", "'gods' must be KEY=VALUE, e.g. players=4"),
    ("=4", "'=4' must be KEY=VALUE, e.g. players=4"),
    ("colour=red", "'colour' names no parameter of the file's entries (they have game, board, players, preset, gods)"),
    ("players=5", "'players=5' matches none of the file's rule sets"),
    ("game=kahuna,players=4", "'game=kahuna,players=4' matches none of the file's rule sets"),
    ("gods=True", "'gods=True' matches none of the file's rule sets"),  # the file's values, as JSON writes them
])
def test_cutfit_refuses_a_filter_that_picks_nothing(tmp_path, only, message):
    pytest.importorskip("numpy")
    from kanaloa.tools.cutfit import main

    out = tmp_path / "models.json"
    result = CliRunner().invoke(main, ["--games", "1", "--only", only, "--out", str(out)])
    assert result.exit_code == 2
    assert f"Error: Invalid value for --only: {message}\n" in result.output
    assert not out.exists()


def test_cutfit_refuses_a_game_without_models(tmp_path, monkeypatch):
    """A game whose registry entry has no ``cutfit`` face has no models to fit: a clear error, whichever game."""
    pytest.importorskip("numpy")
    from kanaloa.tools.cutfit import main

    out = tmp_path / "models.json"
    for game in registry.game_types():
        if "cutfit" in game.faces:
            faces = {role: where for role, where in game.faces.items() if role != "cutfit"}
            monkeypatch.setitem(registry._BY_NAME, game.name, dataclasses.replace(game, faces=faces))
        result = CliRunner().invoke(main, ["--game", game.name, "--games", "1", "--out", str(out)])
        assert result.exit_code == 2, game.name
        assert f"Error: Invalid value for --game: {game.name} has no models of rollouts cut short\n" in result.output
        assert not out.exists()


def test_cutfit_needs_numpy(tmp_path, monkeypatch):
    from kanaloa.tools.cutfit import main

    monkeypatch.setitem(sys.modules, "numpy", None)  # as if it were not installed
    result = CliRunner().invoke(main, [*SMALL, "--out", str(tmp_path / "models.json")])
    assert result.exit_code == 2
    assert "Error: numpy is needed: pip install numpy (or the 'openspiel' extra)\n" in result.output


@pytest.mark.parametrize(("args", "option"), [(["--games", "0"], "--games"), (["--seed", "-1"], "--seed"),
                                              (["--game", "chess"], "--game"), ([], "--out")])
def test_cutfit_refuses_bad_options(tmp_path, args, option):
    from kanaloa.tools.cutfit import main

    out = [] if option == "--out" else ["--out", str(tmp_path / "models.json")]
    result = CliRunner().invoke(main, [*args, *out])
    assert result.exit_code == 2
    assert f"'{option}'" in result.output


def test_the_shipped_file_is_what_cutfit_writes():
    """Its entries are the family's rule sets in the tool's order, each fitted from the defaults (60,000 games
    from seed 10,000,000) with the core's feature names; its text is what the tool writes for those entries, byte
    for byte."""
    from kanaloa.tools.cutfit import models_text

    text = shipped_text()
    entries = json.loads(text)["models"]
    assert FAMILY_FIT.rule_sets() == FAMILY
    assert [{k: e.get(k) for k in FAMILY_FIT.head(rules)} for e, rules in zip(entries, FAMILY, strict=True)] == [
        FAMILY_FIT.head(rules) for rules in FAMILY]
    for entry, rules in zip(entries, FAMILY, strict=True):
        assert list(entry) == [*FAMILY_FIT.head(rules), "policy", "games", "seed", "samples", "features", "win",
                               "points"]
        assert (entry["policy"], entry["games"], entry["seed"]) == ("heuristic", FAMILY_FIT.default_games,
                                                                     FAMILY_FIT.default_seed) == (
            "heuristic", 60_000, 10_000_000)
        assert entry["features"] == FAMILY_FIT.feature_names(rules) == CutModel.feature_names(rules.code, rules.players)
        # About a tenth of the states after the setup of 60,000 games, each of a hundred or more states.
        assert 60_000 * 100 * SAMPLE_SHARE / 2 < entry["samples"] < 60_000 * 400 * SAMPLE_SHARE
    assert models_text(FAMILY_FIT, entries) == text


def test_fitting_is_deterministic_and_checked():
    pytest.importorskip("numpy")
    from kanaloa.tools.cutfit import model_entry

    rules = load_game("kanaloa", players=2, gods=True)
    entry = model_entry(FAMILY_FIT, rules, 12, 3)
    assert model_entry(FAMILY_FIT, rules, 12, 3) == entry
    assert model_entry(FAMILY_FIT, rules, 12, 4) != entry
    assert len(entry["win"]) == BUCKETS and all(len(row) == 22 for row in entry["win"])
    assert all(len(row) == FEATURES + 1 for row in entry["points"])
    read_models(document(entry))


def test_the_family_samples_follow_their_streams():
    """Game ``g`` is dealt from ``seed + g``; its moves come from output ``2g`` of SplitMix64(``seed``) and its
    samples, a tenth of its states after the setup, from output ``2g + 1``; each sample carries every seat's share
    of the victory and every color's final points."""
    rules = load_game("kanaloa", players=3, gods=True)
    seed, games = 123, 4
    samples = FAMILY_FIT.samples(rules, games, seed)
    stream = SplitMix64(seed)
    expected = SimpleNamespace(phases=[], features=[], shares=[], color_features=[], points=[])
    for g in range(games):
        state = CORE.deal(rules, seed + g)
        moves, picks = stream.next(), stream.next()
        for phase, seats, colors in state.sampled_playout(moves, POLICY_HEURISTIC, picks, SAMPLE_SHARE):
            expected.phases.append(phase)
            expected.features.append(seats)
            expected.color_features.append(colors)
            expected.shares.append([1.0 if seat == state.winner else 0.0 for seat in range(3)])
            expected.points.append([float(p) for p in state.scores])
    assert dataclasses.asdict(samples) == vars(expected)
    assert len(samples.phases) > 40


def test_the_fit_recovers_known_weights():
    """Per phase: the win weights maximise the likelihood of the winners under the softmax (less the ridge),
    the point weights are least squares; a phase without samples gets zeros, and samples without a winner
    count towards the points only."""
    np = pytest.importorskip("numpy")
    from kanaloa.play.evaluation import Samples
    from kanaloa.tools.cutfit import RIDGE, fit, softmax_weights

    rng = np.random.default_rng(5)
    n, seats, width = 4000, 3, 2
    x = rng.normal(size=(n, seats, width))
    true = np.array([1.5, -0.5])
    z = x @ true
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    winners = np.array([rng.choice(seats, p=row) for row in p])
    t = np.eye(seats)[winners]
    w = softmax_weights(x, t)
    assert np.abs(w - true).max() < 0.15
    z = x @ w
    q = np.exp(z - z.max(axis=1, keepdims=True))
    q /= q.sum(axis=1, keepdims=True)
    gradient = np.einsum("nc,nck->k", t - q, x) - RIDGE * n * w
    assert np.abs(gradient).max() < 1e-6 * n  # the optimum
    assert not softmax_weights(x[:0], t[:0]).any()

    colors = rng.normal(size=(n, seats, width))
    points = 2.0 * colors[:, :, 0] - colors[:, :, 1] + 3.0
    shares = t.copy()
    shares[n // 2:] = 0.0  # the second half, in phase 1, has no winner
    phases = [0] * (n // 2) + [1] * (n - n // 2)
    win, point_rows = fit(Samples(phases, x.tolist(), shares.tolist(), colors.tolist(), points.tolist()),
                          (BUCKETS, width, width))
    assert win[0] == [round(float(v), 5) for v in softmax_weights(x[: n // 2], t[: n // 2])]
    assert win[1] == [0.0, 0.0]  # no winner in phase 1: even chances
    assert point_rows[0] == point_rows[1] == [2.0, -1.0, 3.0]
    assert win[2:] == [[0.0] * width] * (BUCKETS - 2) and point_rows[2:] == [[0.0] * (width + 1)] * (BUCKETS - 2)
