"""The compiled core on its own: dealing (R3), copies, the data round trip, the edge checks,
playouts and ``random_games``.  Rule-by-rule agreement with the reference lives in
``test_differential.py``; these tests pin down what only the core promises."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys

import pytest

from kanaloa.rules import actions as A
from kanaloa.rules.board import load_board
from kanaloa.rules.rng import SplitMix64
from kanaloa.rules.state import (
    DEAL,
    GAME_KAHUNA,
    NO_CARD,
    PRESET_TABLETOP,
    PRESET_YUCATA,
    REASON_POINTS,
    ROUND_1,
    ROUND_2,
    ROUND_FINAL,
    ROUND_OVER,
    ROUND_SETUP,
    StateData,
)
from kanaloa.tools.benchmark import play_random as replay_playout  # policy 0, move by move from Python

kanaloa_core = pytest.importorskip("kanaloa_core", reason="the compiled core is not built")
from kanaloa.rules.core import core_board  # noqa: E402

CoreBoard, CoreState = kanaloa_core.CoreBoard, kanaloa_core.CoreState


@pytest.fixture(scope="module")
def oro():
    return load_board("oro")


@pytest.fixture(scope="module")
def tables(oro):
    return core_board(oro)


def card_totals(data: StateData) -> list[int]:
    """How many cards of each island the state holds, wherever they are."""
    totals = [0] * data.n_islands
    for rows in (data.hands, data.hidden_by):
        for row in rows:
            for x, n in enumerate(row):
                totals[x] += n
    for x in data.deck + data.face_up + data.discard_open + [c for c in data.setup_chosen if c != NO_CARD]:
        totals[x] += 1
    return totals


def play_seeded(state, seed: int, max_moves: int = 3000) -> list:
    """Random legal moves from random.Random(seed); return the ``to_data()`` after every move."""
    rng = random.Random(seed)
    seen = [state.to_data()]
    while not state.is_over:
        assert len(seen) <= max_moves, "the game did not end"
        state.apply(rng.choice(state.legal_actions()))
        seen.append(state.to_data())
    return seen


# --- R3 dealing -------------------------------------------------------------------------------------


def test_r3_deal_follows_the_documented_shuffle(oro, tables):
    """The deck is the cards in island order shuffled by SplitMix64(seed); seats take 4 from the top."""
    for players in (3, 4):
        stream = SplitMix64(77)
        cards = [x for x in range(oro.n_islands) for _ in range(oro.cards_per_island)]
        stream.shuffle(cards)
        data = CoreState.deal(tables, players, PRESET_YUCATA, 77).to_data()
        for seat in range(players):
            expected = [0] * oro.n_islands
            for x in cards[DEAL * seat : DEAL * (seat + 1)]:
                expected[x] += 1
            assert data.hands[seat] == expected
        assert data.deck == cards[DEAL * players :]
        assert data.rng == stream.state
        assert (data.round, data.to_move, data.face_up, data.setup_chosen) == (ROUND_SETUP, 0, [], [NO_CARD] * players)


def test_r3_deal_is_deterministic_by_seed(tables):
    def dealt(seed: int) -> StateData:
        return CoreState.deal(tables, 4, PRESET_YUCATA, seed).to_data()

    assert dealt(5) == dealt(5)
    assert dealt(5) != dealt(6)


def test_r3_deal_takes_seeds_modulo_two_to_the_64(tables):
    """As in kanaloa.rules.rng, a seed is reduced to 64 bits: -1 and 2**64 - 1 are the same game."""
    def dealt(seed: int) -> StateData:
        return CoreState.deal(tables, 3, PRESET_YUCATA, seed).to_data()

    assert dealt(-1) == dealt(2**64 - 1)


@pytest.mark.parametrize("players", [3, 4])
def test_r3_card_totals_hold_after_the_deal(oro, tables, players):
    for seed in range(20):
        data = CoreState.deal(tables, players, PRESET_YUCATA, seed).to_data()
        assert card_totals(data) == [oro.cards_per_island] * oro.n_islands
        assert [sum(h) for h in data.hands] == [DEAL] * players


def test_r3_setup_reveals_go_face_up_in_seat_order(tables):
    state = CoreState.deal(tables, 3, PRESET_YUCATA, 11)
    chosen = []
    for seat in range(3):
        assert state.to_move == seat
        moves = state.legal_actions()
        assert all(A.kind_of(m) == A.REVEAL for m in moves)
        chosen.append(A.arg_a(moves[-1]))
        state.apply(moves[-1])
    data = state.to_data()
    assert data.round == ROUND_1 and data.to_move == 0
    assert data.face_up[:3] == chosen and len(data.face_up) == 4  # the deck tops up to 4 face-up cards
    assert [sum(h) for h in data.hands] == [3, 3, 3]


# --- the engine state protocol ------------------------------------------------------------------------


def test_card_totals_hold_through_whole_games(oro, tables):
    for seed in range(6):
        state = CoreState.deal(tables, 3 + seed % 2, seed % 2, seed)
        for data in play_seeded(state, seed):
            assert card_totals(data) == [oro.cards_per_island] * oro.n_islands


def test_copy_is_independent(tables):
    state = CoreState.deal(tables, 4, PRESET_YUCATA, 3)
    play_seeded(state.copy(), 3)  # a copy played to the end leaves the original as dealt
    before = state.to_data()
    twin = state.copy()
    while not twin.is_over:
        twin.apply(twin.legal_actions()[0])
    assert state.to_data() == before
    assert state.legal_actions() == CoreState.deal(tables, 4, PRESET_YUCATA, 3).legal_actions()
    assert twin.is_over and not state.is_over


def test_to_data_returns_fresh_objects(tables):
    state = CoreState.deal(tables, 4, PRESET_YUCATA, 3)
    data = state.to_data()
    data.hands[0][0] += 7
    data.deck.clear()
    assert state.to_data() != data


def test_from_data_to_data_round_trip_through_a_game(tables):
    """Every state met in a game survives the trip out and back in, and plays on identically."""
    for seed in (1, 2):
        game = CoreState.deal(tables, 4, seed - 1, seed)
        rng = random.Random(seed)
        while True:
            data = game.to_data()
            again = CoreState.from_data(tables, data)
            assert again.to_data() == data
            assert again.legal_actions() == game.legal_actions()
            assert (again.to_move, again.round, again.is_over, again.scores, again.winner, again.ranking) == (
                game.to_move, game.round, game.is_over, game.scores, game.winner, game.ranking)
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))


def test_pickle_round_trip(tables):
    state = CoreState.deal(tables, 4, PRESET_TABLETOP, 9)
    play = random.Random(9)
    for _ in range(40):
        state.apply(play.choice(state.legal_actions()))
    again = pickle.loads(pickle.dumps(state))
    assert again.to_data() == state.to_data()
    assert pickle.loads(pickle.dumps(tables)).links == tables.links


def test_game_over_has_no_legal_moves_and_a_full_ranking(tables):
    state = CoreState.deal(tables, 3, PRESET_YUCATA, 21)
    state.playout(21)
    assert state.is_over and state.round == ROUND_OVER
    assert state.legal_actions() == []
    assert sorted(state.ranking) == [0, 1, 2] and state.winner == state.ranking[0]


def test_is_legal_agrees_with_the_legal_list(tables):
    state = CoreState.deal(tables, 4, PRESET_YUCATA, 4)
    rng = random.Random(4)
    candidates = [A.encode(kind, a, b) for kind in range(0, 11) for a in (0, 1, 5, 36, 37) for b in (0, 1, 2, 3)]
    while not state.is_over:
        legal = set(state.legal_actions())
        assert {c for c in candidates if state.is_legal(c)} == legal & set(candidates)
        assert all(state.is_legal(m) for m in legal)
        state.apply(rng.choice(sorted(legal)))
    assert not state.is_legal(-3) and not state.is_legal(1 << 40) and not state.is_legal("draw")


# --- edge checks: the core validates once, then trusts ------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        -1,
        1 << 24,
        A.encode(0),
        A.encode(10),
        A.encode(A.PLACE, 37, 0),  # oro has links 0..36
        A.encode(A.PLACE, 0, 5),  # link 0 is ALOA-BAFI: a COCO card cannot pay for it
        A.encode(A.SWAP, 0, 3),
        A.encode(A.DISCARD, 16),
        A.encode(A.TAKE, 200),
        A.encode(A.DRAW, 1),
        "draw",
        True,
    ],
)
def test_apply_refuses_codes_that_name_nothing_on_the_board(tables, action):
    state = CoreState.deal(tables, 4, PRESET_YUCATA, 1)
    before = state.to_data()
    with pytest.raises(ValueError, match="action"):
        state.apply(action)
    assert state.to_data() == before


def test_apply_survives_well_formed_garbage(oro, tables):
    """Illegal but well-formed actions give a meaningless state, never a crash or a lost card."""
    rng = random.Random(8)
    codes = [A.encode(A.PLACE, k, e) for k, ends in enumerate(oro.links) for e in ends]
    codes += [A.encode(A.SWAP, k, c) for k in range(oro.n_links) for c in range(3)]
    codes += [A.encode(A.REMOVE, k) for k in range(oro.n_links)]
    codes += [A.encode(kind, x) for kind in (A.DISCARD, A.TAKE, A.REVEAL) for x in range(oro.n_islands)]
    codes += [A.encode(A.DRAW), A.encode(A.END), A.encode(A.PASS)]
    for seed in range(30):
        state = CoreState.deal(tables, 3 + seed % 2, seed % 2, seed)
        for _ in range(400):
            if state.is_over:
                break
            state.apply(rng.choice(codes))
            state.legal_actions()
            assert 0 <= state.to_move < state.players
        try:
            data = state.to_data()
        except AssertionError:
            continue  # a place on a held link gives two owners; to_data reports it (tested below)
        assert card_totals(data) == [oro.cards_per_island] * oro.n_islands


def test_to_data_reports_a_link_held_by_two_colors(oro, tables):
    """One owner per link is an invariant of the core; only an illegal apply can break it."""
    state = CoreState.deal(tables, 3, PRESET_YUCATA, 2)
    for _ in range(3):
        state.apply(state.legal_actions()[0])  # the reveals
    data = state.to_data()
    card = data.hands[0].index(max(data.hands[0]))
    link = next(k for k, ends in enumerate(oro.links) if card in ends)
    data.bridges[link] = 1
    state = CoreState.from_data(tables, data)
    state.apply(A.encode(A.PLACE, link, card))  # illegal: seat 0 places on seat 1's bridge
    with pytest.raises(AssertionError, match="share links"):
        state.to_data()


def _valid(tables) -> StateData:
    state = CoreState.deal(tables, 4, PRESET_YUCATA, 31)
    rng = random.Random(31)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    return state.to_data()


def _moved_card(d: StateData) -> None:
    d.hands[0][0] += 1  # a card out of nowhere


BAD_DATA = [
    ("n_islands", lambda d: setattr(d, "n_islands", 12), "n_islands"),
    ("players", lambda d: setattr(d, "players", 5), "players"),
    ("preset", lambda d: setattr(d, "preset", 2), "preset"),
    ("round", lambda d: setattr(d, "round", 7), "round"),
    ("to_move", lambda d: setattr(d, "to_move", 4), "to_move"),
    ("bridges length", lambda d: d.bridges.pop(), "bridges"),
    ("bridge owner", lambda d: d.bridges.__setitem__(3, 4), r"bridges\[3\]"),
    ("hands rows", lambda d: d.hands.pop(), "hands"),
    ("hand count type", lambda d: d.hands[1].__setitem__(2, "x"), r"hands\[1\]\[2\]"),
    ("public beyond hand", lambda d: d.public[2].__setitem__(5, d.hands[2][5] + 1), r"public\[2\]\[5\]"),
    ("card totals", _moved_card, "cards of island 0"),
    ("face_up length", lambda d: d.face_up.extend([0] * 5), "face_up"),
    ("deck island", lambda d: d.deck.__setitem__(0, 16), r"deck\[0\]"),
    ("discarded", lambda d: setattr(d, "discarded", 2), "discarded"),
    ("remove_on length", lambda d: setattr(d, "remove_on", [1, 2, 3, 4, 5]), "remove_on"),
    ("final_done twice", lambda d: setattr(d, "final_done", [1, 1]), "final_done"),
    ("ranking partial", lambda d: setattr(d, "ranking", [0, 1]), "ranking"),
    ("setup_chosen", lambda d: d.setup_chosen.__setitem__(0, 99), r"setup_chosen\[0\]"),
    ("rng", lambda d: setattr(d, "rng", -1), "rng"),
    ("scores length", lambda d: d.scores.pop(), "scores"),
    ("deck not a list", lambda d: setattr(d, "deck", None), "deck"),
]


@pytest.mark.parametrize("mutate,field", [(m, f) for _, m, f in BAD_DATA], ids=[n for n, _, _ in BAD_DATA])
def test_from_data_names_the_bad_field(tables, mutate, field):
    data = _valid(tables)
    CoreState.from_data(tables, data)  # the unmodified state loads
    mutate(data)
    with pytest.raises(ValueError, match=field):
        CoreState.from_data(tables, data)


@pytest.mark.parametrize(
    "args,message",
    [
        ((33, 3, [(0, 1)]), "n_islands"),
        ((2, 97, [(0, 1)]), "cards_per_island"),
        ((3, 3, [(0, 1), (1, 1)]), r"links\[1\]: joins island 1 to itself"),
        ((3, 3, [(0, 1), (1, 2), (1, 0)]), r"links\[2\]: the link 1-0 appears twice"),
        ((3, 3, [(0, 1)]), "island 2: has no link"),
        ((3, 3, [(0, 3)]), r"links\[0\]\[1\]"),
        ((32, 1, [(i % 32, (i // 32 + i + 1) % 32) for i in range(65)]), "links"),
        ((3, 3, [(0, 1, 2)]), r"links\[0\]"),
    ],
)
def test_core_board_refuses_what_it_cannot_hold(args, message):
    with pytest.raises(ValueError, match=message):
        CoreBoard(*args)


def test_core_board_tables_match_the_board(oro, tables):
    """R1: an island's size is its number of links; the bitboards say which."""
    assert (tables.n_islands, tables.n_links, tables.cards_per_island) == (16, 37, 3)
    assert tables.links == list(oro.links)
    for x in range(oro.n_islands):
        assert tables.island_links(x) == oro.island_links[x]
        assert tables.size(x) == oro.size(x)
    assert core_board(oro) is tables  # one set of tables per board


def test_deal_refuses_bad_game_shapes(tables):
    with pytest.raises(ValueError, match="players"):
        CoreState.deal(tables, 5, PRESET_YUCATA, 1)
    with pytest.raises(ValueError, match="preset"):
        CoreState.deal(tables, 4, 3, 1)
    with pytest.raises(ValueError, match="players"):
        CoreState.deal(CoreBoard(2, 3, [(0, 1)]), 2, PRESET_YUCATA, 1)  # 6 cards cannot make 2 hands of 4
    with pytest.raises(TypeError):
        CoreState()


def test_kahuna_board_fits_the_core():
    """R16 later: the 12-island board loads into the same tables and plays to the end."""
    kahuna = core_board(load_board("kahuna"))
    state = CoreState.deal(kahuna, 3, PRESET_YUCATA, 4)
    state.playout(4)
    assert state.is_over


# --- playouts ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players,preset", [(3, PRESET_YUCATA), (4, PRESET_TABLETOP)])
def test_playout_ends_the_game_as_documented(tables, players, preset):
    for seed in range(10):
        fast = CoreState.deal(tables, players, preset, seed)
        slow = fast.copy()
        fast.playout(seed * 7919)
        replay_playout(slow, seed * 7919)
        assert fast.is_over
        assert fast.to_data() == slow.to_data()


def test_playout_from_the_middle_of_a_game(tables):
    state = CoreState.deal(tables, 4, PRESET_YUCATA, 12)
    rng = random.Random(12)
    for _ in range(60):
        state.apply(rng.choice(state.legal_actions()))
    other = state.copy()
    state.playout(3)
    other.playout(3)
    assert state.is_over and state.to_data() == other.to_data()


def test_random_games_is_deterministic_by_seed(tables):
    first = kanaloa_core.random_games(tables, 4, PRESET_YUCATA, 50, 123)
    assert first == kanaloa_core.random_games(tables, 4, PRESET_YUCATA, 50, 123)
    assert first[0] == 50 and first[1] > 50 * 40
    assert kanaloa_core.random_games(tables, 4, PRESET_YUCATA, 50, 124) != first
    assert kanaloa_core.random_games(tables, 4, PRESET_YUCATA, 0, 123) == (0, 0)


def test_random_games_plays_the_documented_games(tables):
    """Game g is deal(seed + g) then playout((seed + g) ^ PLAYOUT_SALT); the move total adds up."""
    seed, games, total = 900, 4, 0
    for g in range(games):
        dealt = CoreState.deal(tables, 3, PRESET_TABLETOP, seed + g)
        total += replay_playout(dealt, (seed + g) ^ kanaloa_core.PLAYOUT_SALT)
    assert kanaloa_core.random_games(tables, 3, PRESET_TABLETOP, games, seed) == (games, total)


def test_playout_refuses_an_unknown_policy(tables):
    with pytest.raises(ValueError, match="policy"):
        CoreState.deal(tables, 4, PRESET_YUCATA, 1).playout(1, policy=9)


# --- board questions (R2, R11), asked of both engines ----------------------------------------------------


def scrambled_states(oro, tables, n: int):
    """``n`` pairs (core, reference) of one state: a seeded game in play with its bridges scrambled,
    so that many islands are controlled, contested or full."""
    from conftest import scramble_bridges
    from kanaloa.rules.reference import ReferenceState

    for seed in range(n):
        players = 3 + seed % 2
        data = mid_game(tables, seed, seed % 60, players).to_data()
        scramble_bridges(data, random.Random(seed), own_share=0.2 + 0.03 * (seed % 10), free_share=0.2)
        yield CoreState.from_data(tables, data), ReferenceState.from_data(oro, data)


def test_both_engines_answer_the_board_questions_alike(oro, tables):
    controlled = 0
    for core, ref in scrambled_states(oro, tables, 300):
        assert core.players == ref.players
        for island in range(oro.n_islands):
            counts = core.counts_on(island)
            assert counts == ref.counts_on(island)
            assert len(counts) == core.players and sum(counts) <= oro.size(island)
            owner = core.controller_of(island)
            assert owner == ref.controller_of(island)
            assert owner == -1 or 2 * counts[owner] > oro.size(island)
            controlled += owner >= 0
        for final in (False, True):
            assert core.points_if_scored(final) == ref.points_if_scored(final)
    assert controlled > 1000, "the states should control many islands"


def test_points_if_scored_are_what_the_scorings_add(tables):
    """The query names the points R9 scoring 1 and R11 final scoring really add, and changes nothing."""
    scorings = {False: 0, True: 0}
    for seed in range(40):
        state = CoreState.deal(tables, 3 + seed % 2, seed % 2, seed)
        rng = random.Random(seed)
        while not state.is_over:
            before = state.to_data()
            expected = {final: state.points_if_scored(final) for final in (False, True)}
            assert state.to_data() == before
            state.apply(rng.choice(state.legal_actions()))
            first = before.round == ROUND_1 and state.round != ROUND_1
            final = before.round == ROUND_FINAL and state.is_over and state.to_data().reason == REASON_POINTS
            if first or final:
                added = [now - then for now, then in zip(state.scores, before.scores, strict=True)]
                assert added == expected[final], f"seed {seed}: the scoring after round {before.round}"
                scorings[final] += 1
    assert scorings[False] > 20 and scorings[True] > 20


def test_both_engines_offer_every_member_of_the_engine_state_protocol(oro, tables):
    from kanaloa.rules.engine import EngineState
    from kanaloa.rules.reference import ReferenceState

    members = [name for name in vars(EngineState) if not name.startswith("_")]
    assert {"counts_on", "controller_of", "players", "legal_actions"} <= set(members)
    for state in (CoreState.deal(tables, 3, PRESET_YUCATA, 1), ReferenceState.deal(oro, 3, PRESET_YUCATA, 1)):
        missing = [name for name in members if not hasattr(state, name)]
        assert not missing, f"{type(state).__name__} lacks {missing}"


def test_board_questions_refuse_an_island_not_on_the_board(oro, tables):
    state = CoreState.deal(tables, 4, PRESET_YUCATA, 1)
    for island in (-1, oro.n_islands):
        with pytest.raises(ValueError, match="not on this board"):
            state.counts_on(island)
        with pytest.raises(ValueError, match="not on this board"):
            state.controller_of(island)


# --- determinisation (docs/engine.md "Knowledge") ----------------------------------------------------------


def mid_game(tables, seed: int, moves: int, players: int = 4, preset: int = PRESET_YUCATA) -> CoreState:
    """A dealt game advanced by ``moves`` random legal moves (fewer if it ends)."""
    state = CoreState.deal(tables, players, preset, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def with_discards(tables, seed: int) -> CoreState:
    """A game in play where some seat has discarded face down (R4), so hidden_by is not empty."""
    for attempt in range(200):
        state = mid_game(tables, seed + attempt, 40)
        data = state.to_data()
        if not state.is_over and sum(map(sum, data.hidden_by)) and sum(map(sum, data.public)):
            return state
    raise AssertionError("no game with face-down discards and public cards found")


def what_viewer_knows(data: StateData, viewer: int) -> dict:
    """Every field of the state that ``viewer`` sees (docs/engine.md "Knowledge")."""
    return {
        "own hand": data.hands[viewer],
        "own discards": data.hidden_by[viewer],
        "own setup choice": data.setup_chosen[viewer],
        "public": data.public,
        "hand sizes": [sum(h) for h in data.hands],
        "hidden counts": [sum(h) for h in data.hidden_by],
        "setup chosen by": [c != NO_CARD for c in data.setup_chosen],
        "deck size": len(data.deck),
        "rest": (data.bridges, data.face_up, data.discard_open, data.scores, data.round, data.to_move,
                 data.played, data.discarded, data.remove_on, data.final_done, data.final_passed,
                 data.ranking, data.winner, data.reason, data.preset),
    }


def test_determinise_keeps_what_the_viewer_knows(oro, tables):
    state = with_discards(tables, 40)
    data = state.to_data()
    for viewer in range(4):
        for seed in range(10):
            sample = state.determinise(viewer, seed).to_data()
            assert what_viewer_knows(sample, viewer) == what_viewer_knows(data, viewer)
            assert card_totals(sample) == [oro.cards_per_island] * oro.n_islands
            for seat in range(4):  # the public part of every hand is really in it
                assert all(h >= p for h, p in zip(sample.hands[seat], sample.public[seat], strict=True))
    assert state.to_data() == data  # the original is untouched


def test_determinise_in_setup_resamples_the_other_choices(tables):
    """R3: the cards others set aside are unknown until revealed; the viewer's own is kept."""
    state = CoreState.deal(tables, 4, PRESET_YUCATA, 3)
    for _ in range(2):
        state.apply(state.legal_actions()[0])
    data = state.to_data()
    others = set()
    for seed in range(40):
        sample = state.determinise(0, seed).to_data()
        assert what_viewer_knows(sample, 0) == what_viewer_knows(data, 0)
        others.add(sample.setup_chosen[1])
        assert sample.setup_chosen[2:] == [NO_CARD, NO_CARD]
    assert len(others) > 3


def test_determinise_varies_the_unknown_cards_with_the_seed(tables):
    state = with_discards(tables, 7)
    discarder = next(seat for seat, h in enumerate(state.to_data().hidden_by) if sum(h))
    viewer = (discarder + 1) % 4
    samples = [state.determinise(viewer, seed).to_data() for seed in range(30)]
    assert len({tuple(s.deck) for s in samples}) == 30
    assert len({tuple(s.hands[(viewer + 1) % 4]) for s in samples}) > 5
    assert len({tuple(s.hidden_by[discarder]) for s in samples}) > 1  # others' face-down discards too
    assert len({s.rng for s in samples}) == 30  # and the chance stream
    assert state.determinise(viewer, 5).to_data() == state.determinise(viewer, 5).to_data()


def test_determinise_depends_only_on_what_the_viewer_knows(tables):
    """Two states that differ only in cards the viewer cannot see give the same sample for a seed."""
    for seed in range(5):
        state = with_discards(tables, 100 + 10 * seed)
        for viewer in range(4):
            twin = state.determinise(viewer, 999 + seed)  # same knowledge for viewer, other hidden cards
            assert twin.to_data() != state.to_data()
            for sample_seed in (1, 2):
                sample = state.determinise(viewer, sample_seed).to_data()
                assert twin.determinise(viewer, sample_seed).to_data() == sample


def test_determinise_samples_hidden_cards_uniformly(oro, tables):
    """At the deal, seat 0 sees 4 cards: each of the other 44 is equally likely in seat 1's hand."""
    state = CoreState.deal(tables, 4, PRESET_YUCATA, 12)
    own = state.to_data().hands[0]
    pool = [oro.cards_per_island - own[x] for x in range(oro.n_islands)]
    counts = [0] * oro.n_islands
    n = 4000
    for seed in range(n):
        for x, c in enumerate(state.determinise(0, seed).to_data().hands[1]):
            counts[x] += c
    for x in range(oro.n_islands):
        expected = n * DEAL * pool[x] / sum(pool)
        assert abs(counts[x] - expected) < 5 * expected**0.5 + 1, (x, counts[x], expected)


def test_a_sample_plays_on_for_the_viewer(tables):
    state = mid_game(tables, 55, 30)
    viewer = state.to_move
    sample = state.determinise(viewer, 1)
    assert sample.legal_actions() == state.legal_actions()  # the mover's options depend only on what it knows
    sample.playout(1)
    assert sample.is_over


def in_round_2(tables, seed: int, moves: int, players: int = 4, **deal) -> CoreState:
    """A random game ``moves`` moves after its reshuffle (R9, R16.6), its deck not yet empty, some face-down
    discards having gone into it; ``deal`` goes to ``CoreState.deal`` (Kahuna, the gods)."""
    for attempt in range(200):
        state = CoreState.deal(tables, players, PRESET_YUCATA, seed + attempt, **deal)
        rng = random.Random(seed + attempt)
        hidden = 0
        while not state.is_over and state.round != ROUND_2:
            hidden = sum(map(sum, state.to_data().hidden_by))
            state.apply(rng.choice(state.legal_actions()))
        for _ in range(moves):
            if state.is_over or state.round != ROUND_2:
                break
            state.apply(rng.choice(state.legal_actions()))
        if hidden and state.round == ROUND_2 and state.to_data().deck:
            return state
    raise AssertionError("no game in round 2 found")


def unknown_pool(data: StateData, viewer: int) -> list[int]:
    """Per island, the cards ``viewer`` cannot see (docs/engine.md "Knowledge")."""
    pool = [0] * data.n_islands
    for seat in range(data.players):
        if seat != viewer:
            for x in range(data.n_islands):
                pool[x] += data.hands[seat][x] - data.public[seat][x] + data.hidden_by[seat][x]
    for x in data.deck:
        pool[x] += 1
    return pool


@pytest.mark.parametrize("game", ["4 players", "2 players", "gods", "kahuna"])
def test_after_a_reshuffle_the_deck_is_dealt_from_the_cards_that_went_in(oro, tables, game):
    """docs/engine.md "What a reshuffle reveals": of each island, at most the cards the viewer saw go in
    (and still unknown to it) are in a sample's deck, and at most pile_unseen more overall."""
    board, players, deal = tables, 4, {}
    if game == "2 players":
        players = 2
    elif game == "gods":
        deal = {"gods": True}
    elif game == "kahuna":
        board, players, deal = core_board(load_board("kahuna")), 2, {"game": GAME_KAHUNA}
    for seed, moves in ((1, 0), (2, 3), (3, 9)):
        state = in_round_2(board, 100 * seed, moves, players, **deal)
        data = state.to_data()
        assert data.pile and data.pile_unseen
        for viewer in range(players):
            pool = unknown_pool(data, viewer)
            went_in = [min(k, n) for k, n in zip(data.pile[viewer], pool, strict=True)]
            unseen = data.pile_unseen[viewer]
            assert sum(went_in) + unseen >= len(data.deck)  # every card of the deck went in
            decks = set()
            for sample_seed in range(30):
                sample = state.determinise(viewer, sample_seed).to_data()
                assert what_viewer_knows(sample, viewer) == what_viewer_knows(data, viewer)
                assert (sample.pile[viewer], sample.pile_unseen[viewer]) == (data.pile[viewer], unseen)
                counts = [sample.deck.count(x) for x in range(data.n_islands)]
                assert sum(max(0, c - k) for c, k in zip(counts, went_in, strict=True)) <= unseen
                decks.add(tuple(sample.deck))
            assert len(decks) == 30


def test_right_after_a_reshuffle_without_face_down_discards_the_deck_is_known_up_to_its_order(tables):
    """Nobody discarded face down: every card of the new deck went in before every player's eyes, so every
    sample's deck holds exactly the real deck's cards (in its own order), and the other hands exactly
    theirs, shared out afresh.  Without the knowledge (``pile=False``) the deck's cards vary."""
    for attempt in range(300):
        state = CoreState.deal(tables, 4, PRESET_YUCATA, 7000 + attempt)
        rng = random.Random(attempt)
        while not state.is_over and state.round != ROUND_2:
            moves = [a for a in state.legal_actions() if A.kind_of(a) != A.DISCARD]
            state.apply(rng.choice(moves or state.legal_actions()))
        data = state.to_data()
        if state.round == ROUND_2 and not sum(map(sum, data.hidden_by)) and len(data.deck) > 4:
            break
    else:
        raise AssertionError("no reshuffle without face-down discards found")
    assert data.pile_unseen == [0, 0, 0, 0]
    viewer = data.to_move
    deck = sorted(data.deck)
    others = [x for seat in range(4) if seat != viewer for x in range(data.n_islands)
              for _ in range(data.hands[seat][x])]
    orders, without = set(), set()
    for seed in range(20):
        sample = state.determinise(viewer, seed).to_data()
        assert sorted(sample.deck) == deck
        assert sorted(x for seat in range(4) if seat != viewer for x in range(data.n_islands)
                      for _ in range(sample.hands[seat][x])) == sorted(others)
        orders.add(tuple(sample.deck))
        without.add(tuple(sorted(state.determinise(viewer, seed, pile=False).to_data().deck)))
    assert len(orders) == 20 and len(without) > 1


def test_the_sample_after_a_reshuffle_depends_only_on_what_the_viewer_knows(tables):
    """The others' entries name their own face-down discards: a sample clears them, and two states the
    viewer cannot tell apart give the same sample."""
    for seed in range(3):
        state = in_round_2(tables, 500 + 10 * seed, 2)
        for viewer in range(4):
            twin = state.determinise(viewer, 999 + seed)
            data = twin.to_data()
            assert all(not any(data.pile[o]) and not data.pile_unseen[o] for o in range(4) if o != viewer)
            for sample_seed in (1, 2):
                sample = state.determinise(viewer, sample_seed).to_data()
                assert twin.determinise(viewer, sample_seed).to_data() == sample


def test_pile_tables_come_in_pairs_and_within_bounds(oro, tables):
    data = in_round_2(tables, 900, 1).to_data()
    for change, message in (
        (lambda d: setattr(d, "pile", []), "pile, pile_unseen: give both or neither"),
        (lambda d: d.pile[0].__setitem__(2, 4), "pile"),
        (lambda d: d.pile_unseen.__setitem__(1, -1), "pile_unseen"),
        (lambda d: d.pile_unseen.append(0), "pile_unseen"),
    ):
        bad = data.copy()
        change(bad)
        with pytest.raises(ValueError, match=message):
            CoreState.from_data(tables, bad)


def test_determinise_refuses_a_seat_not_at_the_table(tables):
    state = CoreState.deal(tables, 3, PRESET_YUCATA, 1)
    with pytest.raises(ValueError, match="viewer"):
        state.determinise(3, 1)
    with pytest.raises(ValueError, match="viewer"):
        kanaloa_core.determinisations(state, -1, 10, 1)


def test_determinisations_runs_n_samples(tables):
    state = with_discards(tables, 3)
    before = state.to_data()
    assert kanaloa_core.determinisations(state, 2, 500, 8) == 500
    assert kanaloa_core.determinisations(state, 2, 0, 8) == 0
    assert state.to_data() == before


# --- the heuristic playout policy ------------------------------------------------------------------------------


def takeover_position(oro, tables) -> tuple:
    """Seat 0 to move with 2 of ALOA's 5 links and an ALOA card: 3 of 5 would take control (R6)."""
    data = mid_game(tables, 5, 4).to_data()  # past setup, seat 0 to move
    assert data.round == ROUND_1 and data.to_move == 0 and data.played == 0
    aloa = oro.find_island("ALOA")
    links = [oro.find_link(aloa, oro.find_island(name)) for name in ("BAFI", "COCO", "DALI", "ELOI", "GUMO")]
    data.bridges = [-1] * oro.n_links
    data.bridges[links[0]] = data.bridges[links[1]] = 0
    data.bridges[links[2]] = 1
    if not data.hands[0][aloa]:  # trade a card for an ALOA from wherever one is
        give = data.hands[0].index(max(data.hands[0]))
        data.hands[0][give] -= 1
        data.public[0][give] = min(data.public[0][give], data.hands[0][give])
        data.hands[0][aloa] += 1
        if aloa in data.deck:
            data.deck[data.deck.index(aloa)] = give
        else:
            holder = next(s for s in range(1, 4) if data.hands[s][aloa] > data.public[s][aloa])
            data.hands[holder][aloa] -= 1
            data.hands[holder][give] += 1
    takeovers = {A.encode(A.PLACE, k, x) for k in links[3:] for x in oro.links[k]}
    return CoreState.from_data(tables, data), takeovers


def test_heuristic_policy_takes_control_when_it_can(oro, tables):
    """Policy 1 plays an R6 takeover whenever one is legal, but for its random moves (1 in 8)."""
    state, takeovers = takeover_position(oro, tables)
    legal = state.legal_actions()
    assert takeovers & set(legal)
    greedy = sum(state.pick_action(seed, kanaloa_core.POLICY_HEURISTIC) in takeovers for seed in range(400))
    uniform = sum(state.pick_action(seed, kanaloa_core.POLICY_RANDOM) in takeovers for seed in range(400))
    assert greedy > 0.8 * 400
    assert uniform < 0.5 * 400


def test_pick_action_is_a_legal_move_of_either_policy(tables):
    for policy in (kanaloa_core.POLICY_RANDOM, kanaloa_core.POLICY_HEURISTIC):
        state = CoreState.deal(tables, 4, PRESET_TABLETOP, policy)
        step = 0
        while not state.is_over:
            action = state.pick_action(step, policy)
            assert state.is_legal(action)
            state.apply(action)
            step += 1
        with pytest.raises(ValueError, match="over"):
            state.pick_action(0, policy)


def test_random_pick_is_the_documented_choice(tables):
    state = mid_game(tables, 8, 25)
    legal = state.legal_actions()
    for seed in range(20):
        assert state.pick_action(seed) == legal[SplitMix64(seed).below(len(legal))]


@pytest.mark.parametrize("players", [3, 4])
def test_heuristic_playouts_end_and_repeat_by_seed(tables, players):
    for seed in range(10):
        state = CoreState.deal(tables, players, seed % 2, seed)
        a, b = state.copy(), state.copy()
        a.playout(seed, kanaloa_core.POLICY_HEURISTIC)
        b.playout(seed, kanaloa_core.POLICY_HEURISTIC)
        assert a.is_over and a.to_data() == b.to_data()


def test_rollout_scores_plays_on_a_copy(tables):
    state = mid_game(tables, 9, 20)
    before = state.to_data()
    for policy in (kanaloa_core.POLICY_RANDOM, kanaloa_core.POLICY_HEURISTIC):
        scores, winner = state.rollout_scores(4, policy)
        assert state.to_data() == before
        ended = state.copy()
        ended.playout(4, policy)
        assert (scores, winner) == (ended.scores, ended.winner)


def heuristic_choice(legal: list[int], values: list[int], stream: SplitMix64) -> int:
    """Policy 1 as documented, from Python: one move in 8 (and a lone move) uniform, else the best
    ``move_values`` score, ties broken by a draw at each tie met along the list."""
    n = len(legal)
    if n == 1 or stream.below(8) == 0:
        return legal[stream.below(n)]
    best, pick, ties = values[0], 0, 1
    for i in range(1, n):
        if values[i] > best:
            best, pick, ties = values[i], i, 1
        elif values[i] == best:
            ties += 1
            if stream.below(ties) == 0:
                pick = i
    return legal[pick]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_heuristic_playouts_choose_by_move_values(players):
    """The playouts list the legal moves and score them in one pass; move by move, their choices must
    be the documented ones over ``legal_actions()`` and ``move_values()``, in every phase (removals,
    the final round), with both presets, on two boards."""
    probes = 0
    for name in ("oro", "kahuna"):
        board = core_board(load_board(name))
        for g in range(4):
            state = CoreState.deal(board, players, g % 2, 7000 + g)
            step = 0
            while not state.is_over:
                data = state.to_data()
                if step % 9 == 0 or data.remove_on or data.round == ROUND_FINAL:
                    probes += 1
                    legal, values = state.legal_actions(), state.move_values()
                    for seed in range(4):
                        assert state.pick_action(seed, kanaloa_core.POLICY_HEURISTIC) == heuristic_choice(
                            legal, values, SplitMix64(seed))
                    played, replayed, stream = state.copy(), state.copy(), SplitMix64(step)
                    played.playout(step, kanaloa_core.POLICY_HEURISTIC)
                    while not replayed.is_over:
                        replayed.apply(heuristic_choice(replayed.legal_actions(), replayed.move_values(), stream))
                    assert played.to_data() == replayed.to_data()
                state.apply(state.pick_action(step, step % 2))  # both policies, to vary the states
                step += 1
    assert probes > 100


@pytest.mark.parametrize(("players", "games", "first_seed", "share"), [(4, 120, 50_000, 0.75), (2, 60, 60_000, 0.8)],
                         ids=["4p", "2p"])
def test_heuristic_policy_beats_uniform_play_with_mixed_seats(tables, players, games, first_seed, share):
    """Seats alternate between the policies, shifted each game; the heuristic must win more than ``share`` of
    the games, with two players (R15, a seat's two colors played by one policy) as with four."""
    heuristic_wins = 0
    for g in range(games):
        layout = [(seat + g) % 2 for seat in range(players)]
        state = CoreState.deal(tables, players, PRESET_YUCATA, first_seed + g)
        step = 0
        while not state.is_over:
            state.apply(state.pick_action(g * 7919 + step, layout[state.to_move]))
            step += 1
        heuristic_wins += layout[state.winner] == kanaloa_core.POLICY_HEURISTIC
    assert heuristic_wins > share * games


def test_missing_core_says_how_to_build_it():
    """kanaloa.rules.core without the compiled module fails with the command that builds it."""
    code = (
        "import sys; sys.modules['kanaloa_core'] = None\n"
        "try:\n    import kanaloa.rules.core\nexcept ImportError as e:\n    print(e)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "pip install ." in out and "kanaloa_core" in out


# --- two players, two colors each (R15) --------------------------------------------------------------------
#
# The rules themselves are held to the reference by tests/test_rules_r15.py and the 2-player differential
# games; these tests pin down what the core promises on its own for two players: the deal, the color slot of
# the move list, the edge checks, playouts, determinisation and the per-color queries.

TWO = 2


def two_player_mid_game(tables, seed: int, moves: int) -> CoreState:
    """A dealt 2-player game, in the preset ``seed % 2``, advanced as ``mid_game`` does."""
    return mid_game(tables, seed, moves, TWO, seed % 2)


def two_player_table(oro, bridges: dict[int, int], hand: dict[int, int]) -> StateData:
    """Round 1, seat 0 to move with ``hand`` (island -> count), ``bridges`` (link -> color); four
    face-up cards and the rest in the deck."""
    data = StateData.empty(oro.n_islands, oro.n_links, TWO)
    data.round = ROUND_1
    for link, color in bridges.items():
        data.bridges[link] = color
    rest = [x for x in range(oro.n_islands) for _ in range(oro.cards_per_island)]
    for x, n in hand.items():
        data.hands[0][x] = n
        for _ in range(n):
            rest.remove(x)
    data.face_up, data.deck = rest[-4:], rest[:-4]
    return data


def aloa_links(oro) -> list[int]:
    aloa = oro.find_island("ALOA")
    return [oro.find_link(aloa, oro.find_island(n)) for n in ("BAFI", "COCO", "DALI", "ELOI", "GUMO")]


def after_first_build(tables, seed: int) -> CoreState:
    """A 2-player game in round 1 or 2 whose mover has just built once this turn (turn_color is set)."""
    rng = random.Random(seed)
    for attempt in range(100):
        state = two_player_mid_game(tables, seed + attempt, 12 + attempt % 30)
        builds = [m for m in state.legal_actions() if A.kind_of(m) in (A.PLACE, A.SWAP)]
        if state.round in (ROUND_1, ROUND_2) and state.turn_color == -1 and builds:
            state.apply(rng.choice(builds))
            if not state.is_over and state.to_data().hidden_by != [[0] * 16] * TWO:
                return state
    raise AssertionError("no 2-player game with a build and face-down discards found")


def test_r15_2_two_players_are_dealt_as_three_or_four(oro, tables):
    """The same SplitMix64 deal: 4 cards to each player, 40 left in the deck; 4 colors, no color chosen."""
    stream = SplitMix64(2024)
    cards = [x for x in range(oro.n_islands) for _ in range(oro.cards_per_island)]
    stream.shuffle(cards)
    state = CoreState.deal(tables, TWO, PRESET_YUCATA, 2024)
    data = state.to_data()
    for seat in range(TWO):
        expected = [0] * oro.n_islands
        for x in cards[DEAL * seat : DEAL * (seat + 1)]:
            expected[x] += 1
        assert data.hands[seat] == expected
    assert data.deck == cards[DEAL * TWO :] and data.rng == stream.state
    assert (state.players, state.n_colors, state.turn_color) == (TWO, 4, -1)
    assert data.scores == [0, 0, 0, 0] and data.turn_color == -1 and len(data.setup_chosen) == TWO
    assert card_totals(data) == [oro.cards_per_island] * oro.n_islands


def test_r15_2_the_reveals_and_the_deck_fill_the_row_to_four(tables):
    state = CoreState.deal(tables, TWO, PRESET_YUCATA, 5)
    deck = state.to_data().deck
    chosen = []
    for seat in range(TWO):
        assert state.to_move == seat and state.turn_color == -1
        move = state.legal_actions()[-1]
        assert A.kind_of(move) == A.REVEAL
        chosen.append(A.arg_a(move))
        state.apply(move)
    data = state.to_data()
    assert data.face_up == chosen + deck[:2] and data.deck == deck[2:]
    assert (data.round, data.to_move) == (ROUND_1, 0)


def test_r15_3_both_colors_build_until_the_first_build_chooses_one(tables):
    """Before the turn's first build every build is listed with slot 0 and with slot 1 (the same places;
    each color swaps what it does not hold); after it, only the chosen slot; the next turn chooses again."""
    seen = {"both": 0, "one": 0}
    for seed in range(40):
        state = CoreState.deal(tables, TWO, seed % 2, seed)
        rng = random.Random(seed)
        while not state.is_over:
            data = state.to_data()
            moves = state.legal_actions()
            assert moves == sorted(moves)
            builds = [m for m in moves if A.kind_of(m) in (A.PLACE, A.SWAP)]
            by_slot = [{A.build_arg(m) | A.arg_a(m) << 8 | A.kind_of(m) << 16
                        for m in builds if A.build_slot(m) == slot} for slot in (0, 1)]
            places = [{m for m in by_slot[slot] if A.kind_of(m) == A.PLACE} for slot in (0, 1)]
            if data.turn_color == -1 and not data.remove_on:
                if builds and data.preset == PRESET_YUCATA:
                    assert places[0] == places[1]
                    seen["both"] += 1
            else:
                chosen = (data.turn_color - data.to_move) // TWO
                assert data.turn_color in (data.to_move, data.to_move + TWO)
                assert not by_slot[1 - chosen]
                seen["one"] += bool(builds)
            for m in builds:
                color = data.to_move + TWO * A.build_slot(m)
                if A.kind_of(m) == A.SWAP:
                    assert data.bridges[A.arg_a(m)] not in (-1, color)  # R15.4: the other color too
            move = rng.choice(moves)
            state.apply(move)
            after = state.to_data()
            if A.kind_of(move) in (A.PLACE, A.SWAP):
                assert after.turn_color == data.to_move + TWO * A.build_slot(move)
            elif A.kind_of(move) in (A.TAKE, A.DRAW, A.END):
                assert after.turn_color == -1
            else:
                assert after.turn_color == data.turn_color
    assert seen["both"] > 200 and seen["one"] > 200


def test_r15_4_a_swap_may_replace_the_players_other_color(oro, tables):
    aloa, link = oro.find_island("ALOA"), aloa_links(oro)[0]
    state = CoreState.from_data(tables, two_player_table(oro, {link: 2}, {aloa: 2}))  # blue: seat 0's second
    swaps = [m for m in state.legal_actions() if A.kind_of(m) == A.SWAP and A.arg_a(m) == link]
    assert swaps and {A.build_slot(m) for m in swaps} == {0}  # red may take it; blue holds it already
    state.apply(swaps[0])
    assert state.to_data().bridges[link] == 0 and state.turn_color == 0


def test_r15_a_second_color_slot_is_refused_with_three_or_four_players(oro, tables):
    link, end = 0, oro.links[0][0]
    for players in (3, 4):
        state = CoreState.deal(tables, players, PRESET_YUCATA, 1)
        for code in (A.with_slot(A.encode(A.PLACE, link, end), 1), A.with_slot(A.encode(A.SWAP, link, 1), 1)):
            assert not state.is_legal(code)
            with pytest.raises(ValueError, match="action"):
                state.apply(code)
    state = two_player_mid_game(tables, 1, 2)
    before = state.to_data()
    with pytest.raises(ValueError, match="action"):
        state.apply(A.with_slot(A.encode(A.SWAP, link, 3), 1))  # a combo that does not exist
    assert state.to_data() == before


BAD_TWO_PLAYER_DATA = [
    ("bridge of a fifth color", lambda d: d.bridges.__setitem__(3, 4), r"bridges\[3\]"),
    ("scores per seat", lambda d: setattr(d, "scores", [0, 0]), "scores"),
    ("turn_color out of range", lambda d: setattr(d, "turn_color", 4), "turn_color"),
    ("turn_color of the other seat", lambda d: setattr(d, "turn_color", 1 - d.to_move), "turn_color"),
    ("turn_color without a card played", lambda d: setattr(d, "played", 0), "turn_color"),
    ("cards played without a color", lambda d: setattr(d, "turn_color", -1), "turn_color"),
]


@pytest.mark.parametrize("mutate,field", [(m, f) for _, m, f in BAD_TWO_PLAYER_DATA],
                         ids=[n for n, _, _ in BAD_TWO_PLAYER_DATA])
def test_r15_from_data_names_the_bad_field_for_two_players(tables, mutate, field):
    data = after_first_build(tables, 60).to_data()
    assert data.played > 0 and data.turn_color in (data.to_move, data.to_move + TWO)
    assert CoreState.from_data(tables, data).to_data() == data  # the unmodified state loads
    mutate(data)
    with pytest.raises(ValueError, match=field):
        CoreState.from_data(tables, data)


@pytest.mark.parametrize("players", [3, 4])
def test_r15_from_data_refuses_a_turn_color_with_three_or_four_players(tables, players):
    data = mid_game(tables, 31, 30, players).to_data()
    data.turn_color = data.to_move
    with pytest.raises(ValueError, match="turn_color"):
        CoreState.from_data(tables, data)
    data.turn_color = -1
    data.scores.append(0)  # one score per color, and there are as many colors as seats
    with pytest.raises(ValueError, match="scores"):
        CoreState.from_data(tables, data)


def test_r15_round_trip_and_pickle_through_two_player_games(tables):
    for seed in range(6):
        state = CoreState.deal(tables, TWO, seed % 2, seed)
        for data in play_seeded(state, seed):
            again = CoreState.from_data(tables, data)
            assert again.to_data() == data
            assert again.legal_actions() == CoreState.from_data(tables, data).legal_actions()
        assert pickle.loads(pickle.dumps(state)).to_data() == state.to_data()
        assert len(state.scores) == 4 and sorted(state.ranking) == [0, 1]


def longest_list_state():
    """Both colors open, every link of a 64-link board held by the opponent and a hand naming every
    island twice."""
    n_islands = kanaloa_core.MAX_ISLANDS
    links = [(x, (x + step) % n_islands) for step in (1, 2) for x in range(n_islands)]  # a ring and its chords
    assert len(links) == kanaloa_core.MAX_LINKS
    board = CoreBoard(n_islands, 6, links)
    data = StateData.empty(n_islands, len(links), TWO)
    data.round = ROUND_1
    data.hands[0] = [2] * n_islands
    data.face_up = [0, 1, 2, 3]
    rest = [x for x in range(n_islands) for _ in range(4)]
    for x in data.face_up:
        rest.remove(x)
    data.deck = rest
    data.bridges = [1 if k % 2 else 3 for k in range(len(links))]
    return CoreState.from_data(board, data)


def test_r15_the_longest_move_list_fits():
    """6 swaps per link and a discard per island, all listed; with the 4 takes and the draw of a smaller
    hand the list would still fit."""
    moves = longest_list_state().legal_actions()
    assert len(moves) == 6 * kanaloa_core.MAX_LINKS + kanaloa_core.MAX_ISLANDS  # over the hand limit (R4)
    assert moves == sorted(set(moves))
    assert 6 * kanaloa_core.MAX_LINKS + kanaloa_core.MAX_ISLANDS + 4 + 1 < kanaloa_core.MAX_ACTIONS


def test_heuristic_choice_over_more_than_64_moves():
    """The heuristic policy's choice over a list too long for its quick path is still the documented one."""
    state = longest_list_state()
    legal, values = state.legal_actions(), state.move_values()
    assert len(legal) > 64 and values.count(max(values)) > 1
    for seed in range(200):
        assert state.pick_action(seed, kanaloa_core.POLICY_HEURISTIC) == heuristic_choice(legal, values,
                                                                                           SplitMix64(seed))


def test_r15_playouts_end_and_repeat_by_seed(tables):
    for seed in range(10):
        for policy in (kanaloa_core.POLICY_RANDOM, kanaloa_core.POLICY_HEURISTIC):
            state = CoreState.deal(tables, TWO, seed % 2, seed)
            a, b = state.copy(), state.copy()
            a.playout(seed, policy)
            b.playout(seed, policy)
            assert a.is_over and a.to_data() == b.to_data()
            assert sorted(a.ranking) == [0, 1] and a.winner == a.ranking[0]
            scores, winner = state.rollout_scores(seed, policy)
            assert (scores, winner) == (a.scores, a.winner) and len(scores) == 4


def test_r15_playout_is_the_documented_random_game(tables):
    """Policy 0 with two players is ``legal[next() % n]`` as with three or four."""
    for seed in range(6):
        fast = CoreState.deal(tables, TWO, seed % 2, seed)
        slow = fast.copy()
        fast.playout(seed * 7919)
        replay_playout(slow, seed * 7919)
        assert fast.is_over and fast.to_data() == slow.to_data()


def test_r15_random_games_plays_the_documented_games(tables):
    seed, games, total = 700, 5, 0
    for g in range(games):
        dealt = CoreState.deal(tables, TWO, PRESET_YUCATA, seed + g)
        total += replay_playout(dealt, (seed + g) ^ kanaloa_core.PLAYOUT_SALT)
    assert kanaloa_core.random_games(tables, TWO, PRESET_YUCATA, games, seed) == (games, total)
    first = kanaloa_core.random_games(tables, TWO, PRESET_TABLETOP, 200, 1)
    assert first == kanaloa_core.random_games(tables, TWO, PRESET_TABLETOP, 200, 1) and first[1] > 200 * 40


def test_r15_heuristic_policy_takes_control_with_the_color_that_can(oro, tables):
    """Seat 0's second color (blue, 2) holds 2 of ALOA's 5 links: a third takes control (R6) with slot 1
    only; the same place with slot 0 gains little.  The heuristic builds with blue."""
    aloa, links = oro.find_island("ALOA"), aloa_links(oro)
    state = CoreState.from_data(tables, two_player_table(oro, {links[0]: 2, links[1]: 2, links[2]: 1}, {aloa: 1}))
    takeovers = {A.with_slot(A.encode(A.PLACE, k, aloa), 1) for k in links[3:]}
    assert takeovers <= set(state.legal_actions())
    assert {A.encode(A.PLACE, k, aloa) for k in links[3:]} <= set(state.legal_actions())
    picks = [state.pick_action(seed, kanaloa_core.POLICY_HEURISTIC) for seed in range(400)]
    assert sum(p in takeovers for p in picks) > 0.8 * 400
    state.apply(min(takeovers))
    assert state.controller_of(aloa) == 2 and state.turn_color == 2 and state.counts_on(aloa) == [0, 0, 3, 0]


def test_r15_heuristic_policy_spares_the_players_other_color(oro, tables):
    """Red can take ALOA (red 2, blue 1) or HILO (red 2, green 1) with its third bridge.  Both sweep one
    bridge (R6), but on ALOA it is the player's own blue one (R15.4): the heuristic takes HILO."""
    aloa, hilo = oro.find_island("ALOA"), oro.find_island("HILO")
    link = {name: oro.find_link(oro.find_island(name.split("-")[0]), oro.find_island(name.split("-")[1]))
            for name in ("ALOA-BAFI", "ALOA-COCO", "ALOA-DALI", "HILO-LANI", "HILO-MOKU", "HILO-NALU",
                         "ALOA-ELOI", "ALOA-GUMO", "HILO-PAHU", "HILO-RASI")}
    bridges = {link["ALOA-BAFI"]: 0, link["ALOA-COCO"]: 0, link["ALOA-DALI"]: 2,
               link["HILO-LANI"]: 0, link["HILO-MOKU"]: 0, link["HILO-NALU"]: 1}
    state = CoreState.from_data(tables, two_player_table(oro, bridges, {aloa: 1, hilo: 1}))
    take_hilo = {A.encode(A.PLACE, link[name], hilo) for name in ("HILO-PAHU", "HILO-RASI")}
    take_aloa = {A.encode(A.PLACE, link[name], aloa) for name in ("ALOA-ELOI", "ALOA-GUMO")}
    assert take_hilo | take_aloa <= set(state.legal_actions())
    picks = [state.pick_action(seed, kanaloa_core.POLICY_HEURISTIC) for seed in range(400)]
    assert sum(p in take_hilo for p in picks) > 0.8 * 400
    assert sum(p in take_aloa for p in picks) < 0.1 * 400
    state.apply(min(take_aloa))
    assert state.counts_on(aloa) == [3, 0, 0, 0]  # taking ALOA would sweep blue (R15.4)


def test_r15_determinise_keeps_what_the_mover_knows(oro, tables):
    """Mid-turn, after the first build: the mover's own cards, the chosen color and every public fact stay;
    the opponent's hidden cards and the deck are resampled; the mover's moves are unchanged."""
    for seed in (60, 70, 80):
        state = after_first_build(tables, seed)
        data = state.to_data()
        viewer = data.to_move
        decks = set()
        for sample_seed in range(20):
            sample = state.determinise(viewer, sample_seed)
            got = sample.to_data()
            assert what_viewer_knows(got, viewer) == what_viewer_knows(data, viewer)
            assert got.turn_color == data.turn_color and got.scores == data.scores
            assert card_totals(got) == [oro.cards_per_island] * oro.n_islands
            assert sample.legal_actions() == state.legal_actions()
            decks.add(tuple(got.deck))
            sample.playout(sample_seed)
            assert sample.is_over
        assert len(decks) > 15
        for other in range(TWO):  # each seat's view, also the one not on move
            twin = state.determinise(other, 999)
            assert twin.determinise(other, 3).to_data() == state.determinise(other, 3).to_data()
        assert state.to_data() == data


def test_r15_board_questions_answer_per_color(oro, tables):
    """counts_on, controller_of and points_if_scored have one entry per color (4) and agree with the
    reference on crowded 2-player boards."""
    from conftest import scramble_bridges
    from kanaloa.rules.reference import ReferenceState

    controlled = set()
    for seed in range(150):
        data = two_player_mid_game(tables, seed, seed % 50).to_data()
        scramble_bridges(data, random.Random(seed), own_share=0.2 + 0.03 * (seed % 10), free_share=0.2)
        core, ref = CoreState.from_data(tables, data), ReferenceState.from_data(oro, data)
        for island in range(oro.n_islands):
            counts = core.counts_on(island)
            assert counts == ref.counts_on(island) and len(counts) == 4
            assert counts == [sum(1 for k in oro.links_of[island] if data.bridges[k] == c) for c in range(4)]
            owner = core.controller_of(island)
            assert owner == ref.controller_of(island)
            assert owner == -1 or 2 * counts[owner] > oro.size(island)
            controlled.add(owner)
        for final in (False, True):
            points = core.points_if_scored(final)
            assert points == ref.points_if_scored(final) and len(points) == 4
    assert controlled >= {0, 1, 2, 3}, "every color should control an island somewhere"


def test_r15_scorings_add_per_color(tables):
    """R11 with two players: each color's scoring adds to its own entry of ``scores``."""
    scorings = 0
    for seed in range(20):
        state = CoreState.deal(tables, TWO, seed % 2, seed)
        rng = random.Random(seed)
        while not state.is_over:
            before = state.to_data()
            expected = state.points_if_scored(before.round == ROUND_FINAL)
            state.apply(rng.choice(state.legal_actions()))
            first = before.round == ROUND_1 and state.round != ROUND_1
            final = before.round == ROUND_FINAL and state.is_over and state.to_data().reason == REASON_POINTS
            if first or final:
                assert [a - b for a, b in zip(state.scores, before.scores, strict=True)] == expected
                scorings += 1
    assert scorings > 20
