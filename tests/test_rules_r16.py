"""Kahuna, the 2-player predecessor game, rule by rule (R16.1-R16.9), and the worked example of its rules.

Each test builds a small Kahuna state (``StateData`` with ``game == GAME_KAHUNA``) on the game's own
board ``kahuna`` and plays action codes through an engine state, once per implementation (the
``engine`` fixture below): the readable reference and the compiled core.  White is seat 0 (color
0) and moves first, black is seat 1 (color 1).  docs/engine.md "Kahuna (R16)" pins down every
detail; the explanations of illegal moves and of unreachable states (``why_illegal``,
``why_unreachable``) are the reference's alone.  The property tests at the end play many seeded
random games.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter

import pytest

from conftest import ENGINES, REFERENCE, action_name, build_state, link_of, state_deal
from game_helpers import card_totals, check_reasons, reason_template, record_steps
from kanaloa.rules import actions as A
from kanaloa.rules.board import board_from_dict, load_board
from kanaloa.rules.engine import Engine
from kanaloa.rules.reference import ReferenceState, why_illegal, why_not_mover_color, why_unreachable
from kanaloa.rules.rng import SplitMix64
from kanaloa.rules.ruleset import make_ruleset
from kanaloa.rules.state import (
    GAME_KAHUNA,
    KAHUNA_BRIDGES,
    KAHUNA_DEAL,
    KAHUNA_FACE_UP,
    KAHUNA_HAND,
    NO_COLOR,
    NO_OWNER,
    PRESET_TABLETOP,
    PRESET_YUCATA,
    REASON_NO_BRIDGES,
    REASON_POINTS,
    ROUND_1,
    ROUND_2,
    ROUND_3,
    ROUND_FINAL,
    ROUND_OVER,
    ROUND_SETUP,
    StateData,
    colors_of_seat,
    n_colors,
)

KAHUNA = load_board("kahuna")
RULES = make_ruleset("kahuna", board=KAHUNA)
WHITE, BLACK = 0, 1
NAMES = ("white", "black")
PLAY_ROUNDS = (ROUND_1, ROUND_2, ROUND_3)
END = A.encode(A.END)
DRAW = A.encode(A.DRAW)


def table(
    engine: Engine,
    *,
    to_move: int = WHITE,
    round: int = ROUND_1,
    bridges: dict[str, int] | None = None,
    hands: dict[int, list[str]] | None = None,
    public: dict[int, list[str]] | None = None,
    face_up: list[str] | None = None,
    deck: list[str] | None = None,
    scores: list[int] | None = None,
    skipped: bool = False,
    final_done: list[int] | None = None,
):
    """A Kahuna state on ``kahuna``: bridges as ``{"ALOA-BARI": WHITE}``, hands by seat.

    In rounds 1 to 3 the face-up row and the deck default to cards of COCO, GOLA and FAAA (3
    face-up, 3 in the deck); in the final round both are empty.  Every other card lies on the open
    discard pile.
    """
    early = round in PLAY_ROUNDS
    data = build_state(
        KAHUNA, players=2, round=round, to_move=to_move, bridges=bridges, hands=hands, public=public,
        face_up=face_up if face_up is not None else (["COCO", "GOLA", "FAAA"] if early else []),
        deck=deck if deck is not None else (["COCO", "GOLA", "FAAA"] if early else []),
        scores=scores if scores is not None else [0, 0],
    )
    data.game = GAME_KAHUNA
    data.skipped = skipped
    if round == ROUND_FINAL:
        data.final_done = list(final_done or [])
    return engine.from_data(KAHUNA, data)


def island(name: str) -> int:
    return KAHUNA.find_island(name)


def place(link: str, card: str) -> int:
    return A.encode(A.PLACE, link_of(KAHUNA, link), island(card))


def remove(link: str, cards: str) -> int:
    """A removal of the bridge on ``link`` paying ``cards`` ("HUNA+HUNA", in the link's file order)."""
    k = link_of(KAHUNA, link)
    paid = tuple(island(x) for x in cards.split("+"))
    combo = next(c for c in (A.SWAP_AA, A.SWAP_AB, A.SWAP_BB) if A.swap_cards(KAHUNA.links[k], c) == paid)
    return A.encode(A.REMOVE, k, combo)


def take(card: str) -> int:
    return A.encode(A.TAKE, island(card))


def discard(card: str) -> int:
    return A.encode(A.DISCARD, island(card))


def counts(names: list[str]) -> list[int]:
    out = [0] * KAHUNA.n_islands
    for name in names:
        out[island(name)] += 1
    return out


def bridges_of(state) -> dict[str, str]:
    return {KAHUNA.link_name(k): NAMES[c] for k, c in enumerate(state.to_data().bridges) if c != NO_OWNER}


def controlled(state, seat: int) -> set[str]:
    return {KAHUNA.islands[i] for i in range(KAHUNA.n_islands) if state.controller_of(i) == seat}


def kinds(state) -> set[int]:
    return {A.kind_of(a) for a in state.legal_actions()}


def play(state, *actions: int) -> None:
    for action in actions:
        assert action in state.legal_actions(), action_name(KAHUNA, action)
        state.apply(action)


# -- R16.1 components ------------------------------------------------------------------------------


def test_R16_1_the_kahuna_board_has_12_islands_27_links_and_24_cards():
    sizes = Counter(KAHUNA.size(i) for i in range(KAHUNA.n_islands))
    assert (KAHUNA.n_islands, KAHUNA.n_links, KAHUNA.n_cards, KAHUNA.cards_per_island) == (12, 27, 24, 2)
    assert sizes == {3: 2, 4: 3, 5: 6, 6: 1}
    assert KAHUNA.size(island("ELAI")) == 6 and KAHUNA.size(island("ALOA")) == KAHUNA.size(island("LALE")) == 3


def test_R16_1_two_players_one_color_each(engine):
    state = engine.deal(RULES, 4)
    data = state.to_data()
    assert data.game == GAME_KAHUNA and data.players == 2
    assert state.scores == [0, 0] and len(state.counts_on(island("ELAI"))) == 2
    assert n_colors(2, GAME_KAHUNA) == 2
    assert colors_of_seat(WHITE, 2, GAME_KAHUNA) == (WHITE,) and colors_of_seat(BLACK, 2, GAME_KAHUNA) == (BLACK,)
    assert data.turn_color == NO_COLOR


def test_R16_1_each_player_has_25_bridges():
    state = table(REFERENCE, bridges={"ALOA-BARI": WHITE, "BARI-COCO": WHITE, "KAHU-LALE": BLACK})
    assert state.bridges_in_stock(WHITE) == KAHUNA_BRIDGES - 2 and state.bridges_in_stock(BLACK) == KAHUNA_BRIDGES - 1
    assert state.colors_of(WHITE) == (WHITE,) and state.n_colors == 2 and state.standing(BLACK) == (0,)


ALL_BUT = ("ALOA-DUDA", "ALOA-HUNA", "BARI-DUDA")  # white holds every other link: 24 bridges


def test_R16_1_running_out_of_the_25_bridges(engine):
    """White builds its 25th bridge: it cannot place again, though it holds a card for a free
    link, until a removal gives one back."""
    crowded = {KAHUNA.link_name(k): WHITE for k in range(KAHUNA.n_links) if KAHUNA.link_name(k) not in ALL_BUT}
    state = table(engine, bridges=crowded, hands={WHITE: ["ALOA", "BARI", "DUDA"], BLACK: ["KAHU", "KAHU", "IFFI"]})
    assert len(crowded) == KAHUNA_BRIDGES - 1
    play(state, place("ALOA-DUDA", "ALOA"))
    assert state.to_data().bridges.count(WHITE) == KAHUNA_BRIDGES
    assert A.PLACE not in kinds(state)  # BARI-DUDA and ALOA-HUNA are free, BARI and DUDA in hand
    play(state, DRAW)
    play(state, remove("KAHU-LALE", "KAHU+KAHU"), DRAW)  # black gives a white bridge back
    assert state.to_data().bridges.count(WHITE) == KAHUNA_BRIDGES - 1
    assert place("BARI-DUDA", "BARI") in state.legal_actions()


# -- R16.2 setup -----------------------------------------------------------------------------------


def test_R16_2_three_cards_each_three_face_up_the_rest_is_the_deck(engine):
    seed = 20260
    rng = SplitMix64(seed)
    cards = [i for i in range(KAHUNA.n_islands) for _ in range(KAHUNA.cards_per_island)]
    rng.shuffle(cards)
    data = engine.deal(RULES, seed).to_data()
    for seat in (WHITE, BLACK):
        expected = [0] * KAHUNA.n_islands
        for card in cards[KAHUNA_DEAL * seat : KAHUNA_DEAL * (seat + 1)]:
            expected[card] += 1
        assert data.hands[seat] == expected
    assert data.face_up == cards[6:9] and data.deck == cards[9:] and len(data.deck) == 15
    assert data.rng == rng.state
    assert (data.round, data.to_move, data.played, data.discarded, data.skipped) == (ROUND_1, WHITE, 0, False, False)
    assert data.scores == [0, 0] and all(owner == NO_OWNER for owner in data.bridges)
    assert data.discard_open == [] and data.final_done == [] and data.ranking == [] and data.winner == -1


def test_R16_2_no_setup_round_white_moves_first_and_turns_alternate(engine):
    state = engine.deal(RULES, 3)
    assert state.round == ROUND_1 and state.to_move == WHITE
    assert A.REVEAL not in kinds(state)
    for mover in (WHITE, BLACK, WHITE, BLACK):
        assert state.to_move == mover
        play(state, DRAW)


def test_R16_2_the_same_seed_deals_the_same_game(engine):
    def deal(seed: int) -> StateData:
        return engine.deal(RULES, seed).to_data()

    assert deal(9) == deal(9) and deal(9) != deal(10)


def test_R16_2_kahuna_is_dealt_for_two_players_with_enough_cards(engine):
    with pytest.raises(ValueError, match="players"):
        state_deal(engine, KAHUNA, 3, PRESET_YUCATA, 1, game=GAME_KAHUNA)
    with pytest.raises(ValueError, match="preset"):
        state_deal(engine, KAHUNA, 2, PRESET_TABLETOP, 1, game=GAME_KAHUNA)

    def small(cards_per_island: int):
        return board_from_dict(
            {"name": "small", "cards_per_island": cards_per_island,
             "islands": [{"name": n} for n in "ABC"], "links": [["A", "B"], ["B", "C"], ["A", "C"]]}, "small")

    with pytest.raises(ValueError):
        state_deal(engine, small(2), 2, PRESET_YUCATA, 1, game=GAME_KAHUNA)  # 6 cards
    data = state_deal(engine, small(3), 2, PRESET_YUCATA, 1, game=GAME_KAHUNA).to_data()  # 9 cards: just enough
    assert [sum(h) for h in data.hands] == [3, 3] and len(data.face_up) == 3 and data.deck == []


def test_R16_2_the_reference_explains_a_refused_deal():
    with pytest.raises(ValueError, match=r"^players: Kahuna is a game for 2 players, not 4 \(R16\.1\)$"):
        state_deal(REFERENCE, KAHUNA, 4, PRESET_YUCATA, 1, game=GAME_KAHUNA)
    with pytest.raises(ValueError, match=r"^preset: Kahuna is played with the yucata preset only, not tabletop"):
        state_deal(REFERENCE, KAHUNA, 2, PRESET_TABLETOP, 1, game=GAME_KAHUNA)
    tiny = board_from_dict({"name": "tiny", "cards_per_island": 4, "islands": [{"name": "A"}, {"name": "B"}],
                            "links": [["A", "B"]]}, "tiny")
    with pytest.raises(ValueError, match=r"^board: Kahuna deals 2 hands of 3 and 3 face-up cards, 9 in all, more "
                                         r"than the board's 8 cards \(R16\.2\)$"):
        state_deal(REFERENCE, tiny, 2, PRESET_YUCATA, 1, game=GAME_KAHUNA)


# -- R16.3 play: place and remove --------------------------------------------------------------------


def test_R16_3_a_card_places_a_bridge_on_any_free_link_of_its_island(engine):
    state = table(engine, bridges={"ALOA-BARI": BLACK}, hands={WHITE: ["ALOA"]})
    places = [a for a in state.legal_actions() if A.kind_of(a) == A.PLACE]
    assert places == [place("ALOA-DUDA", "ALOA"), place("ALOA-HUNA", "ALOA")]
    play(state, place("ALOA-HUNA", "ALOA"))
    data = state.to_data()
    assert bridges_of(state) == {"ALOA-BARI": "black", "ALOA-HUNA": "white"}
    assert data.hands[WHITE] == counts([]) and data.discard_open[-1] == island("ALOA") and data.played == 1


def test_R16_3_any_number_of_cards_one_at_a_time(engine):
    state = table(engine, hands={WHITE: ["ALOA", "BARI", "DUDA", "HUNA"]})
    play(state, place("ALOA-BARI", "ALOA"), place("BARI-COCO", "BARI"), place("DUDA-HUNA", "DUDA"))
    assert state.to_move == WHITE and state.to_data().played == 3
    play(state, place("HUNA-LALE", "HUNA"), take("COCO"))
    assert state.to_move == BLACK and len(bridges_of(state)) == 4


def test_R16_3_the_rules_example_of_removal_three_pairs_cut_huna_elai(engine):
    """HUNA-ELAI can be cut by HUNA+ELAI, HUNA+HUNA or ELAI+ELAI."""
    for hand, pays in ((["HUNA", "ELAI"], "ELAI+HUNA"), (["HUNA", "HUNA"], "HUNA+HUNA"),
                       (["ELAI", "ELAI"], "ELAI+ELAI")):
        state = table(engine, bridges={"ELAI-HUNA": BLACK, "KAHU-LALE": WHITE}, hands={WHITE: hand})
        removals = [a for a in state.legal_actions() if A.kind_of(a) == A.REMOVE]
        assert removals == [remove("ELAI-HUNA", pays)]
        play(state, remove("ELAI-HUNA", pays))
        data = state.to_data()
        assert bridges_of(state) == {"KAHU-LALE": "white"}
        assert data.hands[WHITE] == counts([]) and data.played == 2
        assert data.discard_open[-2:] == [island(x) for x in pays.split("+")]  # paid in combo order


def test_R16_3_every_pair_the_hand_pays_is_offered(engine):
    state = table(engine, bridges={"ELAI-HUNA": BLACK, "KAHU-LALE": WHITE},
                  hands={WHITE: ["HUNA", "HUNA", "ELAI", "ELAI"]})
    removals = [a for a in state.legal_actions() if A.kind_of(a) == A.REMOVE]
    assert removals == [remove("ELAI-HUNA", p) for p in ("ELAI+ELAI", "ELAI+HUNA", "HUNA+HUNA")]


def test_R16_3_only_an_opponent_bridge_is_removed_and_there_is_no_swap(engine):
    state = table(engine, bridges={"ELAI-HUNA": WHITE, "DUDA-HUNA": BLACK}, hands={WHITE: ["HUNA", "HUNA", "ELAI"]})
    legal = state.legal_actions()
    assert remove("ELAI-HUNA", "HUNA+HUNA") not in legal  # white's own
    assert remove("DUDA-HUNA", "HUNA+HUNA") in legal
    assert A.SWAP not in kinds(state)
    play(state, remove("DUDA-HUNA", "HUNA+HUNA"))  # the freed link stays free
    assert bridges_of(state) == {"ELAI-HUNA": "white"}


def test_R16_3_a_removal_then_a_place_on_the_freed_link(engine):
    state = table(engine, bridges={"DUDA-HUNA": BLACK, "KAHU-LALE": WHITE}, hands={WHITE: ["HUNA", "HUNA", "DUDA"]})
    play(state, remove("DUDA-HUNA", "HUNA+HUNA"), place("DUDA-HUNA", "DUDA"))
    assert bridges_of(state) == {"DUDA-HUNA": "white", "KAHU-LALE": "white"}


# -- R16.4 control ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name, links", [
    ("ALOA", ["ALOA-BARI", "ALOA-DUDA"]),  # 2 of 3
    ("DUDA", ["ALOA-DUDA", "BARI-DUDA", "DUDA-ELAI"]),  # 3 of 4
    ("HUNA", ["ALOA-HUNA", "DUDA-HUNA", "ELAI-HUNA"]),  # 3 of 5
    ("ELAI", ["BARI-ELAI", "DUDA-ELAI", "ELAI-FAAA", "ELAI-HUNA"]),  # 4 of 6
])
def test_R16_4_more_than_half_of_the_links_gives_control(engine, name, links):
    state = table(engine, bridges=dict.fromkeys(links, BLACK))
    assert state.controller_of(island(name)) == BLACK
    state = table(engine, bridges=dict.fromkeys(links[:-1], BLACK))
    assert state.controller_of(island(name)) == NO_OWNER


def test_R16_4_gaining_control_removes_every_opponent_bridge_on_the_island(engine):
    """White takes HUNA with its third bridge: black's two bridges on HUNA go back to black."""
    state = table(engine, bridges={"ALOA-HUNA": WHITE, "DUDA-HUNA": WHITE, "HUNA-IFFI": BLACK, "HUNA-LALE": BLACK,
                                   "IFFI-LALE": BLACK}, hands={WHITE: ["HUNA"]})
    play(state, place("ELAI-HUNA", "HUNA"))
    assert bridges_of(state) == {"ALOA-HUNA": "white", "DUDA-HUNA": "white", "ELAI-HUNA": "white",
                                 "IFFI-LALE": "black"}
    assert state.controller_of(island("HUNA")) == WHITE


def test_R16_4_already_controlling_removes_nothing(engine):
    state = table(engine, bridges={"ALOA-BARI": WHITE, "BARI-COCO": WHITE, "BARI-DUDA": WHITE, "BARI-ELAI": BLACK},
                  hands={WHITE: ["BARI"]})
    assert state.controller_of(island("BARI")) == WHITE
    play(state, place("BARI-FAAA", "BARI"))
    assert bridges_of(state)["BARI-ELAI"] == "black"


def test_R16_4_one_bridge_may_gain_both_ends(engine):
    state = table(engine, bridges={"ALOA-BARI": WHITE, "ALOA-HUNA": BLACK, "DUDA-HUNA": WHITE, "DUDA-ELAI": WHITE,
                                   "BARI-DUDA": BLACK}, hands={WHITE: ["DUDA"]})
    play(state, place("ALOA-DUDA", "DUDA"))  # ALOA 2 of 3 and DUDA 3 of 4
    assert controlled(state, WHITE) == {"ALOA", "DUDA"}
    assert bridges_of(state) == {"ALOA-BARI": "white", "ALOA-DUDA": "white", "DUDA-HUNA": "white",
                                 "DUDA-ELAI": "white"}


# -- the worked example of the rules (page 5) ---------------------------------------------------------

EXAMPLE = {
    # white controls DUDA (3 of 4); black controls ALOA (2 of 3) and HUNA (3 of 5); ELAI is full, 3 against 3
    "ALOA-DUDA": WHITE, "DUDA-HUNA": WHITE, "DUDA-ELAI": WHITE, "BARI-ELAI": WHITE, "BARI-FAAA": WHITE,
    "ELAI-HUNA": WHITE,
    "ALOA-BARI": BLACK, "ALOA-HUNA": BLACK, "HUNA-IFFI": BLACK, "HUNA-LALE": BLACK, "ELAI-FAAA": BLACK,
    "ELAI-IFFI": BLACK, "ELAI-JOJO": BLACK,
}


def test_R16_4_the_worked_example_of_the_rules(engine):
    """White's turn: BARI-DUDA gains BARI and removes black's BARI-ALOA, so black loses ALOA; ALOA-BARI
    gains ALOA and removes black's ALOA-HUNA, so black loses HUNA.  Black's turn: two HUNA cards
    remove white's HUNA-ELAI; HUNA-ELAI, paid with ELAI, gains HUNA and ELAI and removes white's
    HUNA-DUDA, DUDA-ELAI and ELAI-BARI, so white loses DUDA."""
    state = table(engine, bridges=EXAMPLE, hands={WHITE: ["BARI", "ALOA", "KAHU"], BLACK: ["HUNA", "HUNA", "ELAI"]})
    assert controlled(state, WHITE) == {"DUDA"} and controlled(state, BLACK) == {"ALOA", "HUNA"}

    play(state, place("BARI-DUDA", "BARI"))  # 1, 2: white gains BARI (3 of 5)
    assert controlled(state, WHITE) == {"BARI", "DUDA"}
    assert "ALOA-BARI" not in bridges_of(state)  # 3
    assert controlled(state, BLACK) == {"HUNA"}  # 4: black lost ALOA

    play(state, place("ALOA-BARI", "ALOA"))  # 5, 6: white gains ALOA (2 of 3)
    assert controlled(state, WHITE) == {"ALOA", "BARI", "DUDA"}
    assert "ALOA-HUNA" not in bridges_of(state)  # 7
    assert controlled(state, BLACK) == set()  # 8: black lost HUNA
    play(state, take("COCO"))

    play(state, remove("ELAI-HUNA", "HUNA+HUNA"))  # 9
    assert "ELAI-HUNA" not in bridges_of(state)
    play(state, place("ELAI-HUNA", "ELAI"))  # 10, 11: black gains HUNA (3 of 5) and ELAI (4 of 6)
    assert controlled(state, BLACK) == {"ELAI", "HUNA"}
    assert controlled(state, WHITE) == {"ALOA", "BARI"}  # 13: white lost DUDA, keeps BARI (3 of 5)
    assert bridges_of(state) == {  # 12: HUNA-DUDA, DUDA-ELAI and ELAI-BARI are gone
        "ALOA-BARI": "white", "ALOA-DUDA": "white", "BARI-DUDA": "white", "BARI-FAAA": "white",
        "ELAI-FAAA": "black", "ELAI-HUNA": "black", "ELAI-IFFI": "black", "ELAI-JOJO": "black",
        "HUNA-IFFI": "black", "HUNA-LALE": "black",
    }
    assert state.to_data().hands[BLACK] == counts([])


# -- R16.5 draw ------------------------------------------------------------------------------------


def test_R16_5_a_face_up_card_is_taken_and_refilled_at_once(engine):
    state = table(engine, hands={WHITE: ["ALOA"]}, face_up=["COCO", "GOLA", "FAAA"], deck=["JOJO", "KAHU"])
    play(state, take("GOLA"))
    data = state.to_data()
    assert data.face_up == [island("COCO"), island("JOJO"), island("FAAA")] and data.deck == [island("KAHU")]
    assert data.hands[WHITE] == counts(["ALOA", "GOLA"]) and data.public[WHITE] == counts(["GOLA"])
    assert (data.to_move, data.played, data.skipped) == (BLACK, 0, False)


def test_R16_5_the_deck_top_is_drawn_unseen(engine):
    state = table(engine, hands={WHITE: ["ALOA"]}, deck=["JOJO", "KAHU"])
    play(state, DRAW)
    data = state.to_data()
    assert data.hands[WHITE] == counts(["ALOA", "JOJO"]) and data.public[WHITE] == counts([])
    assert data.deck == [island("KAHU")] and data.to_move == BLACK


def test_R16_5_one_card_only_whatever_was_played(engine):
    state = table(engine, hands={WHITE: ["ALOA", "BARI"]})
    play(state, place("ALOA-BARI", "ALOA"), place("BARI-COCO", "BARI"), DRAW)
    assert state.to_move == BLACK and state.to_data().hands[WHITE] == counts(["COCO"])


def test_R16_5_the_draw_may_be_skipped(engine):
    state = table(engine, hands={WHITE: ["ALOA"]})
    assert END in state.legal_actions()
    play(state, END)
    data = state.to_data()
    assert (data.to_move, data.skipped, data.played) == (BLACK, True, 0)
    assert data.hands[WHITE] == counts(["ALOA"]) and len(data.deck) == 3


def test_R16_5_skipping_the_draw_twice_in_a_row_is_refused(engine):
    state = table(engine, hands={WHITE: ["ALOA"], BLACK: ["KAHU"]})
    play(state, END)
    assert END not in state.legal_actions()
    play(state, place("KAHU-LALE", "KAHU"))  # playing cards does not lift the duty to draw
    assert END not in state.legal_actions()
    play(state, DRAW)
    assert state.to_data().skipped is False and END in state.legal_actions()
    play(state, END)  # white may skip again: black drew in its last turn
    assert state.to_move == BLACK and END not in state.legal_actions()


def test_R16_5_a_hand_of_five_cannot_draw(engine):
    five = ["ALOA", "BARI", "DUDA", "HUNA", "JOJO"]
    state = table(engine, hands={WHITE: five})
    assert A.TAKE not in kinds(state) and DRAW not in state.legal_actions()
    assert {A.PLACE, A.DISCARD, A.END} <= kinds(state)
    play(state, END)  # a full hand may simply skip the draw
    assert state.to_data().hands[WHITE] == counts(five)


def test_R16_5_a_hand_of_five_that_must_draw_plays_or_discards_first(engine):
    """Black skipped its last draw: white, holding 5, must play or discard a card, then draw."""
    five = ["ALOA", "BARI", "DUDA", "HUNA", "JOJO"]
    state = table(engine, hands={WHITE: five}, skipped=True)
    assert kinds(state) == {A.PLACE, A.DISCARD}
    play(state, place("ALOA-BARI", "ALOA"))
    assert kinds(state) == {A.PLACE, A.TAKE, A.DRAW}  # no skip, no discard after playing
    play(state, DRAW)
    assert state.to_move == BLACK and state.to_data().hand_size(WHITE) == 5
    state = table(engine, hands={WHITE: five}, skipped=True)
    play(state, discard("JOJO"))
    assert kinds(state) == {A.DISCARD, A.TAKE, A.DRAW}
    play(state, take("FAAA"))
    assert state.to_data().hands[WHITE] == counts(["ALOA", "BARI", "DUDA", "HUNA", "FAAA"])


def test_R16_5_face_down_discards_one_or_more_then_a_draw(engine):
    """A turn begun with 5 cards and nothing played may discard face-down, one card or more, and must
    then draw.  Others cannot tell which cards went: one fewer of each known card stays known."""
    five = ["ALOA", "ALOA", "BARI", "DUDA", "JOJO"]
    state = table(engine, hands={WHITE: five}, public={WHITE: ["ALOA", "ALOA", "BARI"]})
    before = state.to_data()
    play(state, discard("JOJO"))
    data = state.to_data()
    assert data.discarded and data.hands[WHITE] == counts(["ALOA", "ALOA", "BARI", "DUDA"])
    assert data.public[WHITE] == counts(["ALOA"])
    assert data.hidden_by[WHITE] == counts(["JOJO"]) and data.discard_open == before.discard_open
    assert kinds(state) == {A.DISCARD, A.TAKE, A.DRAW}  # no build, no skip after a discard
    play(state, discard("ALOA"))
    data = state.to_data()
    assert data.public[WHITE] == counts([]) and data.hidden_by[WHITE] == counts(["JOJO", "ALOA"])
    play(state, DRAW)
    data = state.to_data()
    assert data.to_move == BLACK and not data.discarded and not data.skipped
    assert data.hands[WHITE] == counts(["ALOA", "BARI", "DUDA", "COCO"])


def test_R16_5_no_discard_without_five_cards_or_after_playing(engine):
    state = table(engine, hands={WHITE: ["ALOA", "BARI", "DUDA", "JOJO"]})
    assert A.DISCARD not in kinds(state)
    state = table(engine, hands={WHITE: ["ALOA", "BARI", "DUDA", "JOJO", "HUNA"]})
    play(state, place("ALOA-BARI", "ALOA"))
    assert A.DISCARD not in kinds(state)


# -- R16.6 interim scorings ------------------------------------------------------------------------


def run_out(engine, *, round: int, bridges: dict[str, int], scores: list[int] | None = None, hidden: str = "") -> tuple:
    """White takes the last face-up card (KAHU) from an empty deck; returns the state before and after.

    ``hidden`` moves that island's card from the open discards to black's face-down discards.
    """
    state = table(engine, round=round, bridges=bridges, hands={WHITE: ["ALOA"], BLACK: ["JOJO"]},
                  face_up=["KAHU"], deck=[], scores=scores)
    if hidden:
        data = state.to_data()
        data.discard_open.remove(island(hidden))
        data.hidden_by[BLACK][island(hidden)] += 1
        state = engine.from_data(KAHUNA, data)
    before = state.to_data()
    play(state, take("KAHU"))
    return before, state


ONE_EACH = {"ALOA-BARI": WHITE, "ALOA-DUDA": WHITE, "KAHU-LALE": BLACK, "IFFI-LALE": BLACK}  # ALOA, LALE
WHITE_LEADS = {**ONE_EACH, "KAHU-LALE": WHITE}  # white holds ALOA; LALE is nobody's


def test_R16_6_the_first_scoring_gives_one_point_then_a_new_deck(engine):
    before, state = run_out(engine, round=ROUND_1, bridges=WHITE_LEADS, hidden="GOLA")
    data = state.to_data()
    assert data.scores == [1, 0] and data.round == ROUND_2
    # Every discard, open and face-down, in island order, shuffled with the state's stream.
    cards = sorted([*before.discard_open, island("GOLA")])
    rng = SplitMix64(before.rng)
    rng.shuffle(cards)
    assert data.face_up == cards[:KAHUNA_FACE_UP] and data.deck == cards[KAHUNA_FACE_UP:]
    assert data.rng == rng.state
    assert data.discard_open == [] and data.hidden_by == [counts([]), counts([])]
    # Hands are kept; the turn of the player who set off the scoring ends, the other moves.
    assert data.hands[WHITE] == counts(["ALOA", "KAHU"]) and data.hands[BLACK] == counts(["JOJO"])
    assert data.to_move == BLACK and not state.is_over


BLACK_LEADS = {**ONE_EACH, "HUNA-IFFI": BLACK, "IFFI-JOJO": BLACK, "IFFI-KAHU": BLACK}  # ALOA against IFFI, LALE


def test_R16_6_the_second_scoring_gives_two_points(engine):
    _, state = run_out(engine, round=ROUND_2, bridges=WHITE_LEADS, scores=[1, 0])
    assert state.scores == [3, 0] and state.round == ROUND_3
    _, state = run_out(engine, round=ROUND_2, bridges=BLACK_LEADS, scores=[1, 0])
    assert controlled(state, WHITE) == {"ALOA"} and controlled(state, BLACK) == {"IFFI", "LALE"}
    assert state.scores == [1, 2] and state.round == ROUND_3 and state.to_move == BLACK


def test_R16_6_a_tie_gives_nothing(engine):
    _, state = run_out(engine, round=ROUND_1, bridges=ONE_EACH)
    assert controlled(state, WHITE) == {"ALOA"} and controlled(state, BLACK) == {"LALE"}
    assert state.scores == [0, 0] and state.round == ROUND_2 and state.to_move == BLACK


def test_R16_6_the_third_run_out_begins_the_final_round_with_the_other_player(engine):
    _, state = run_out(engine, round=ROUND_3, bridges=WHITE_LEADS, scores=[1, 2])
    data = state.to_data()
    assert data.round == ROUND_FINAL and data.scores == [1, 2]  # no scoring before the final one
    assert data.to_move == BLACK and data.final_done == [] and data.face_up == [] and data.deck == []


def test_R16_6_a_skipped_draw_never_ends_a_round(engine):
    state = table(engine, bridges=ONE_EACH, hands={WHITE: ["ALOA"]}, face_up=["KAHU"], deck=[])
    play(state, END)
    assert state.round == ROUND_1 and state.to_data().face_up == [island("KAHU")]
    play(state, take("KAHU"))
    assert state.round == ROUND_2


# -- R16.7 the end ---------------------------------------------------------------------------------


def final_round(engine, *, bridges: dict[str, int], scores: list[int], to_move: int = WHITE, hands=None):
    return table(engine, round=ROUND_FINAL, to_move=to_move, bridges=bridges, scores=scores, hands=hands)


def test_R16_7_one_more_turn_each_without_a_draw(engine):
    five = ["ALOA", "BARI", "DUDA", "HUNA", "JOJO"]
    state = final_round(engine, bridges=WHITE_LEADS, scores=[0, 0], to_move=BLACK, hands={BLACK: five})
    assert kinds(state) == {A.PLACE, A.REMOVE, A.END}  # a full hand, and no draw, discard or pass
    play(state, place("HUNA-IFFI", "HUNA"), END)
    assert state.to_move == WHITE and state.to_data().final_done == [BLACK] and not state.is_over
    play(state, END)
    assert state.is_over and state.to_data().final_done == [BLACK, WHITE]


def test_R16_7_the_final_scoring_gives_the_difference(engine):
    """White controls ALOA, DUDA and LALE, black IFFI: white scores 3 - 1 = 2."""
    bridges = {"ALOA-BARI": WHITE, "ALOA-DUDA": WHITE, "BARI-DUDA": WHITE, "DUDA-ELAI": WHITE, "KAHU-LALE": WHITE,
               "HUNA-LALE": WHITE, "ELAI-IFFI": BLACK, "HUNA-IFFI": BLACK, "IFFI-JOJO": BLACK}
    state = final_round(engine, bridges=bridges, scores=[1, 2])
    assert state.points_if_scored(True) == [2, 0]
    play(state, END, END)
    data = state.to_data()
    assert data.scores == [3, 2] and (data.winner, data.ranking, data.reason) == (WHITE, [0, 1], REASON_POINTS)
    assert data.round == ROUND_OVER and state.legal_actions() == []


def test_R16_7_equal_points_go_to_the_higher_final_scoring(engine):
    """Before the final scoring white has 2, black 0; black controls two islands more: 2 against 2,
    and black's 2 final points win."""
    bridges = {"KAHU-LALE": BLACK, "IFFI-LALE": BLACK, "ALOA-BARI": BLACK, "ALOA-DUDA": BLACK, "COCO-GOLA": WHITE}
    state = final_round(engine, bridges=bridges, scores=[2, 0])
    play(state, END, END)
    assert state.scores == [2, 2] and (state.winner, state.ranking) == (BLACK, [1, 0])


def test_R16_7_with_no_points_at_all_more_bridges_win(engine):
    bridges = {"COCO-GOLA": WHITE, "HUNA-IFFI": WHITE, "ALOA-BARI": BLACK, "BARI-DUDA": BLACK, "JOJO-KAHU": BLACK}
    state = final_round(engine, bridges=bridges, scores=[0, 0])
    assert controlled(state, WHITE) == controlled(state, BLACK) == set()
    play(state, END, END)
    data = state.to_data()
    assert data.scores == [0, 0] and (data.winner, data.ranking, data.reason) == (BLACK, [1, 0], REASON_POINTS)


def test_R16_7_otherwise_nobody_wins(engine):
    """No points and as many bridges each: no winner (-1), the ranking in seat order."""
    bridges = {"COCO-GOLA": WHITE, "HUNA-IFFI": WHITE, "ALOA-BARI": BLACK, "BARI-DUDA": BLACK}
    state = final_round(engine, bridges=bridges, scores=[0, 0], to_move=BLACK)
    play(state, END, END)
    data = state.to_data()
    assert (data.winner, data.ranking, data.reason, data.round) == (-1, [0, 1], REASON_POINTS, ROUND_OVER)


def test_R16_7_equal_points_and_equal_final_points_nobody_wins_whatever_the_bridges(engine):
    """Scores no game reaches, 2 each and no island controlled, to show the rule: bridges break only
    a tie at 0 points."""
    bridges = {"COCO-GOLA": WHITE, "HUNA-IFFI": WHITE, "ALOA-BARI": BLACK}
    state = final_round(engine, bridges=bridges, scores=[2, 2])
    play(state, END, END)
    assert (state.winner, state.ranking) == (-1, [0, 1])


# -- R16.8 early end -------------------------------------------------------------------------------


def test_R16_8_no_bridge_in_round_1_is_no_loss(engine):
    state = table(engine, bridges={"ALOA-BARI": WHITE}, hands={WHITE: ["ALOA"], BLACK: ["JOJO"]})
    play(state, DRAW, DRAW)
    assert not state.is_over and state.to_data().bridges.count(BLACK) == 0


def test_R16_8_right_after_the_first_scoring(engine):
    """Black has no bridge when round 1 ends: white scores its point, then wins at once."""
    _, state = run_out(engine, round=ROUND_1, bridges={"ALOA-BARI": WHITE, "ALOA-DUDA": WHITE})
    data = state.to_data()
    assert data.scores == [1, 0]
    assert (data.round, data.reason, data.winner, data.ranking) == (ROUND_OVER, REASON_NO_BRIDGES, WHITE, [0, 1])
    assert state.legal_actions() == []
    assert data.to_move == BLACK  # the check follows the end of the turn, which passed the move on


def test_R16_8_both_without_bridges_nobody_wins(engine):
    _, state = run_out(engine, round=ROUND_1, bridges={})
    data = state.to_data()
    assert (data.round, data.reason, data.winner, data.ranking, data.scores) == (
        ROUND_OVER, REASON_NO_BRIDGES, -1, [0, 1], [0, 0])


def test_R16_8_removing_the_last_bridge_ends_the_game_at_once(engine):
    state = table(engine, round=ROUND_2, bridges={"ALOA-BARI": WHITE, "DUDA-HUNA": BLACK},
                  hands={WHITE: ["HUNA", "HUNA", "ALOA"]}, scores=[1, 0])
    play(state, remove("DUDA-HUNA", "HUNA+HUNA"))
    data = state.to_data()
    assert (data.round, data.reason, data.winner, data.ranking) == (ROUND_OVER, REASON_NO_BRIDGES, WHITE, [0, 1])
    assert data.played == 2 and data.scores == [1, 0]  # the turn's record is kept


def test_R16_8_sweeping_the_last_bridges_ends_the_game(engine):
    """Round 3: black's last two bridges stand on HUNA; white gains HUNA and black is left with none."""
    state = table(engine, round=ROUND_3, to_move=WHITE, skipped=True, scores=[0, 1],
                  bridges={"ALOA-HUNA": WHITE, "DUDA-HUNA": WHITE, "HUNA-IFFI": BLACK, "HUNA-LALE": BLACK},
                  hands={WHITE: ["ELAI"]})
    play(state, place("ELAI-HUNA", "ELAI"))
    data = state.to_data()
    assert (data.round, data.reason, data.winner, data.ranking) == (ROUND_OVER, REASON_NO_BRIDGES, WHITE, [0, 1])
    assert data.skipped  # kept, as the rest of the turn


def test_R16_8_in_the_final_round_too(engine):
    state = final_round(engine, bridges={"ALOA-BARI": BLACK, "COCO-GOLA": WHITE}, scores=[0, 3], to_move=BLACK,
                        hands={BLACK: ["COCO", "GOLA"]})
    play(state, remove("COCO-GOLA", "COCO+GOLA"))
    data = state.to_data()
    assert (data.reason, data.winner, data.ranking) == (REASON_NO_BRIDGES, BLACK, [1, 0])


# -- R16.9 what Kanaloa has and Kahuna has not --------------------------------------------------------


def test_R16_9_no_compulsory_draw_no_swap_no_pass_no_reveal(engine):
    state = table(engine, bridges={"ELAI-HUNA": BLACK}, hands={WHITE: ["ELAI", "HUNA"]})
    legal = set(state.legal_actions())
    assert END in legal  # R5's compulsory draw does not apply
    assert not kinds(state) & {A.SWAP, A.PASS, A.REVEAL}
    assert remove("ELAI-HUNA", "ELAI+HUNA") in legal


def test_R16_9_no_immediate_win(engine):
    """White builds its 25th bridge and controls all 12 islands: the game goes on (R8 does not apply)."""
    crowded = {KAHUNA.link_name(k): WHITE for k in range(KAHUNA.n_links) if KAHUNA.link_name(k) not in ALL_BUT}
    state = table(engine, bridges=crowded, hands={WHITE: ["ALOA"]})
    play(state, place("ALOA-DUDA", "ALOA"))
    assert len(controlled(state, WHITE)) == 12
    assert not state.is_over and state.to_move == WHITE
    assert state.to_data().remove_on == []


def test_R16_9_a_kanaloa_game_is_untouched(engine, oro):
    """A 2-player Kanaloa deal still has its setup and four colors (R15)."""
    data = engine.deal(make_ruleset(players=2, board=oro), 5).to_data()
    assert data.round == ROUND_SETUP and len(data.scores) == 4 and not data.skipped


# -- the reference's explanations: why_illegal and why_unreachable ----------------------------------------


def test_why_illegal_names_the_kahuna_rule():
    state = table(REFERENCE, bridges={"ELAI-HUNA": BLACK, "ALOA-BARI": WHITE},
                  hands={WHITE: ["ELAI", "HUNA", "ALOA", "BARI"]}, skipped=True)

    def why(action: int, known: bool = True) -> str | None:
        return why_illegal(state, action, NAMES, known)

    assert why(END) == "black skipped its last draw, so white must draw this turn (R16.5)"
    assert why(remove("ELAI-HUNA", "HUNA+HUNA")) == "white needs two HUNA cards and holds one"
    assert why(remove("ALOA-BARI", "ALOA+BARI")) == "white cannot remove its own bridge (R16.3)"
    assert why(remove("ALOA-DUDA", "ALOA+DUDA")) == "ALOA-DUDA holds no bridge"
    assert why(A.encode(A.REMOVE, link_of(KAHUNA, "ELAI-HUNA"), 7)) == (
        "a removal on ELAI-HUNA pays two cards of its ends (R16.3)")
    assert why(place("ELAI-HUNA", "ELAI")) == "ELAI-HUNA holds black's bridge; remove it with two cards first (R16.3)"
    assert why(A.encode(A.SWAP, link_of(KAHUNA, "ELAI-HUNA"), A.SWAP_AB)).startswith("Kahuna has no swap")
    assert why(A.encode(A.PASS)) == "Kahuna has no 'pass': each player takes its one final turn in turn (R16.7)"
    assert why(A.encode(A.REVEAL, island("ALOA"))) == "Kahuna has no setup: nobody reveals a card (R16.2)"
    assert why(A.with_slot(place("ALOA-DUDA", "ALOA"), 1)).endswith("(R16.1)")
    assert why(discard("ALOA")) == (
        "white holds 4 card(s); only a turn begun with 5 cards may discard, before playing any (R16.5)")
    assert why(remove("ELAI-HUNA", "ELAI+HUNA")) is None and why(DRAW) is None
    state.data.hands[WHITE][island("JOJO")] += 1  # 5 cards
    assert why(DRAW) == "a hand of 5 cannot draw; play or discard first (R16.5)"
    assert why(discard("JOJO")) is None
    state.apply(place("ALOA-DUDA", "ALOA"))
    assert why(discard("JOJO")) == (
        "white has already played a card this turn; a face-down discard replaces playing (R16.5)")
    state = table(REFERENCE, hands={WHITE: ["ELAI", "HUNA", "ALOA", "BARI", "JOJO"]})
    state.apply(discard("JOJO"))
    assert why_illegal(state, END, NAMES) == (
        "white has discarded this turn, so it must draw: 'take CARD' or 'draw' (R16.5)")
    assert why_illegal(state, place("ALOA-DUDA", "ALOA"), NAMES) == (
        "white has discarded this turn; only more discards, 'take' or 'draw' remain (R16.5)")
    final = table(REFERENCE, round=ROUND_FINAL, bridges={"ALOA-BARI": WHITE, "KAHU-LALE": BLACK})
    assert why_illegal(final, DRAW, NAMES) == "the final round has no draw (R16.7)"
    assert why_illegal(final, discard("ALOA"), NAMES) == "there is no discard in the final round (R16.7)"
    assert why_illegal(final, END, NAMES) is None


def test_why_illegal_with_every_bridge_built():
    crowded = {KAHUNA.link_name(k): WHITE for k in range(KAHUNA.n_links) if KAHUNA.link_name(k) not in ALL_BUT[1:]}
    state = table(REFERENCE, bridges=crowded, hands={WHITE: ["ALOA"]})
    assert why_illegal(state, place("ALOA-HUNA", "ALOA"), NAMES) == "white has all its 25 bridges on the board (R16.1)"


def test_a_move_naming_the_opponents_color_is_explained():
    state = table(REFERENCE, hands={WHITE: ["ALOA"]})
    assert why_not_mover_color(state, WHITE, NAMES) is None
    assert why_not_mover_color(state, BLACK, NAMES) == "black is black's color; white builds with white (R16.1)"
    assert why_not_mover_color(state, 2, NAMES) == "this game has no color 2; white builds with white (R16.1)"


def test_why_illegal_seen_from_outside_a_removal_needs_two_cards():
    state = table(REFERENCE, bridges={"ELAI-HUNA": BLACK}, hands={WHITE: ["ALOA"]})
    action = remove("ELAI-HUNA", "HUNA+HUNA")
    assert why_illegal(state, action, NAMES, hand_known=False) == "white holds 1 card; a removal pays two"
    assert why_illegal(state, action, NAMES) == "white has no HUNA card"


def unreachable(**changes) -> tuple[str, str] | None:
    """``why_unreachable`` for a round-1 Kahuna state with one bridge each, changed by ``changes``."""
    state = table(REFERENCE, bridges={"ALOA-BARI": WHITE, "KAHU-LALE": BLACK}, hands={WHITE: ["ALOA"]})
    for key, value in changes.items():
        setattr(state.data, key, value)
    return why_unreachable(state, NAMES)


def test_why_unreachable_kahuna_states():
    assert unreachable() is None
    assert unreachable(round=ROUND_SETUP) == ("round", "Kahuna has no setup round: the deal starts round 1 (R16.2)")
    assert unreachable(setup_chosen=[island("ALOA"), -1])[0] == "setup.chosen"
    assert unreachable(turn_color=WHITE)[0] == "turn.color"
    assert unreachable(remove_on=[island("ELAI")])[0] == "turn.remove_on"
    assert unreachable(preset=PRESET_TABLETOP)[0] == "rules.preset"
    assert unreachable(scores=[1, 0]) == (
        "scores", "white 1 and black 0 points; nobody scores before the first scoring (R16.6)")
    assert unreachable(round=ROUND_2, scores=[1, 0]) is None
    assert unreachable(round=ROUND_2, scores=[2, 0])[0] == "scores"
    assert unreachable(round=ROUND_3, scores=[1, 2]) is None
    assert unreachable(round=ROUND_3, scores=[1, 1])[0] == "scores"
    assert unreachable(round=ROUND_2, bridges=[WHITE] + [NO_OWNER] * 26) == (
        "bridges", "black has no bridge on the board; after the first scoring that ends the game at once (R16.8)")
    assert unreachable(bridges=[WHITE] * 26 + [BLACK])[0] == "bridges"  # 26 white bridges
    assert unreachable(discarded=True, played=1)[0] == "turn.discarded"
    assert unreachable(face_up=[island("COCO")])[0] == "face_up"
    assert unreachable(face_up=[], deck=[])[0] == "face_up"
    hands = [counts(["ALOA", "BARI", "DUDA", "ELAI", "FAAA", "HUNA"]), counts([])]
    assert unreachable(hands=hands) == ("hands.white", "6 cards; a Kahuna hand holds at most 5 (R16.5)")
    assert unreachable(round=ROUND_FINAL, face_up=[], deck=[], skipped=True)[0] == "turn.skipped_draw"
    assert unreachable(round=ROUND_FINAL, face_up=[], deck=[], final_passed=[BLACK])[0] == "final_round.passed"


def test_why_unreachable_checks_a_kahuna_result():
    state = final_round(REFERENCE, bridges={"COCO-GOLA": WHITE, "HUNA-IFFI": WHITE, "ALOA-BARI": BLACK},
                        scores=[0, 0])
    play(state, END, END)
    assert state.winner == WHITE and why_unreachable(state, NAMES) is None
    state.data.winner, state.data.ranking = -1, [0, 1]
    assert why_unreachable(state, NAMES)[0] == "result.winner"
    state.data.winner, state.data.ranking = BLACK, [1, 0]
    assert why_unreachable(state, NAMES)[0] == "result.winner"
    state.data.winner, state.data.ranking, state.data.reason = WHITE, [0, 1], REASON_NO_BRIDGES
    assert why_unreachable(state, NAMES) == (
        "result.reason", "'no bridges' but both players have bridges on the board (R16.8)")


def test_a_kanaloa_state_with_kahunas_fields_is_unreachable(oro):
    state = ReferenceState.deal(oro, 3, PRESET_YUCATA, 2)
    state.data.skipped = True
    assert why_unreachable(state, ("red", "green", "blue"))[0] == "turn.skipped_draw"
    state.data.skipped, state.data.round = False, ROUND_3
    assert why_unreachable(state, ("red", "green", "blue"))[0] == "round"


# -- properties of random games ----------------------------------------------------------------------

PROPERTY_GAMES = 48  # random games from the deal
CROWDED_GAMES = 24  # random games from a crowded board in round 2, where the early end (R16.8) comes often
MOVE_CAP = 1500  # far above a real game (a random Kahuna game takes about 100-200 moves)


def crowd(data: StateData, rng: random.Random) -> None:
    """Fill the board at random, white favoured and capped at its 25 bridges (R16.1), black with one to
    three bridges, and move the game to round 2 (R16.8 applies from there on).  Cards stay in place."""
    few = rng.randint(1, 3)
    held = [0, 0]
    for k in range(len(data.bridges)):
        x = rng.random()
        owner = WHITE if x < 0.7 else (BLACK if x < 0.85 else NO_OWNER)
        if owner != NO_OWNER and held[owner] >= (KAHUNA_BRIDGES if owner == WHITE else few):
            owner = NO_OWNER
        if owner != NO_OWNER:
            held[owner] += 1
        data.bridges[k] = owner
    for seat in (WHITE, BLACK):
        if held[seat] == 0:
            data.bridges[data.bridges.index(NO_OWNER)] = seat
    data.round = ROUND_2


def random_game(engine: Engine, seed: int, crowded: bool = False) -> list[tuple[StateData, list[int], int | None]]:
    """A seeded random game: ``(state, legal actions, action played)`` before every move, the last with
    no legal action and ``None``.  A ``crowded`` game starts from a crowded board in round 2."""
    state = engine.deal(RULES, seed)
    rng = random.Random(seed)
    if crowded:
        data = state.to_data()
        crowd(data, rng)
        state = engine.from_data(KAHUNA, data)
    return record_steps(state, rng, seed, MOVE_CAP)


@functools.cache
def games(engine_name: str) -> tuple[tuple[int, list], ...]:
    """The property games of one engine: ``(seed, steps)``, from the deal, then from crowded boards."""
    engine = ENGINES[engine_name]
    return (tuple((seed, random_game(engine, seed)) for seed in range(500, 500 + PROPERTY_GAMES))
            + tuple((seed, random_game(engine, seed, crowded=True)) for seed in range(900, 900 + CROWDED_GAMES)))


def test_random_games_end_in_every_way(engine):
    results = {(steps[-1][0].reason, steps[-1][0].winner) for _, steps in games(engine.name)}
    assert {(REASON_POINTS, WHITE), (REASON_POINTS, BLACK), (REASON_NO_BRIDGES, WHITE)} <= results, results


def test_random_games_conserve_cards_and_keep_hands_and_stocks_in_bounds(engine):
    for seed, steps in games(engine.name):
        for data, _, _ in steps:
            assert card_totals(data, KAHUNA) == [KAHUNA.cards_per_island] * KAHUNA.n_islands, seed
            for seat in (WHITE, BLACK):
                assert data.hand_size(seat) <= KAHUNA_HAND
                assert all(0 <= p <= h for p, h in zip(data.public[seat], data.hands[seat], strict=True))
                assert data.bridges.count(seat) <= KAHUNA_BRIDGES
            assert len(data.face_up) <= KAHUNA_FACE_UP
            assert data.turn_color == NO_COLOR and data.remove_on == [] and data.final_passed == []


def test_random_games_offer_sorted_unique_moves_until_they_end(engine):
    for seed, steps in games(engine.name):
        for data, legal, _ in steps[:-1]:
            assert legal and legal == sorted(set(legal)), (seed, data)
            assert not {A.kind_of(a) for a in legal} & {A.SWAP, A.PASS, A.REVEAL}
        last, legal, _ = steps[-1]
        assert last.round == ROUND_OVER and legal == []
        assert last.reason in (REASON_POINTS, REASON_NO_BRIDGES)
        assert sorted(last.ranking) == [0, 1]
        assert last.winner in (-1, last.ranking[0])


def test_random_games_never_skip_twice_in_a_row(engine):
    for seed, steps in games(engine.name):
        skipper = None  # the seat whose last turn ended without a draw, while the opponent has not drawn since
        for data, legal, action in steps[:-1]:
            if data.round in PLAY_ROUNDS and skipper is not None and skipper != data.to_move:
                assert END not in legal, seed
            kind = A.kind_of(action)
            if kind == A.END and data.round in PLAY_ROUNDS:
                skipper = data.to_move
            elif kind in (A.TAKE, A.DRAW):
                skipper = None


def held_by(data: StateData, seat: int, isl: int) -> int:
    return sum(1 for k in KAHUNA.links_of[isl] if data.bridges[k] == seat)


def test_random_games_build_and_remove_as_R16_3_and_R16_4_say(engine):
    """A place adds the mover's bridge and clears the opponent's bridges exactly from the ends whose
    control it gains; a removal frees one opponent link; nothing else on the board moves."""
    for seed, steps in games(engine.name):
        for (before, _, action), (after, _, _) in itertools.pairwise(steps):
            kind, link = A.kind_of(action), A.arg_a(action)
            me, other = before.to_move, 1 - before.to_move
            changed = {k for k in range(KAHUNA.n_links) if before.bridges[k] != after.bridges[k]}
            if kind == A.PLACE:
                gained = [i for i in KAHUNA.links[link]
                          if 2 * held_by(after, me, i) > KAHUNA.size(i) >= 2 * (held_by(before, me, i))]
                swept = {k for i in gained for k in KAHUNA.links_of[i] if before.bridges[k] == other}
                assert after.bridges[link] == me and changed == {link} | swept, (seed, before)
                assert all(held_by(after, other, i) == 0 for i in gained)
            elif kind == A.REMOVE:
                assert changed == {link} and before.bridges[link] == other and after.bridges[link] == NO_OWNER
                assert after.hand_size(me) == before.hand_size(me) - 2 and after.played == before.played + 2
            else:
                assert not changed, (seed, action_name(KAHUNA, action))


def test_random_games_go_through_the_rounds_in_order(engine):
    order = [ROUND_1, ROUND_2, ROUND_3, ROUND_FINAL, ROUND_OVER]
    reached = set()
    for seed, steps in games(engine.name)[:PROPERTY_GAMES]:
        rounds = [order.index(data.round) for data, _, _ in steps]
        assert rounds == sorted(rounds), seed
        reached |= {data.round for data, _, _ in steps}
        for data, _, _ in steps:
            worth = {ROUND_1: 0, ROUND_2: 1, ROUND_3: 3, ROUND_FINAL: 3}.get(data.round)
            if worth is not None:
                assert sum(data.scores) <= worth, seed
    assert reached == set(order)


def test_random_game_states_are_reachable_and_explained():
    """Every state of a random game passes ``why_unreachable``; ``why_illegal`` explains exactly the
    illegal codes of every kind (seen from outside, a reason still means the code is illegal)."""
    codes = kahuna_codes()
    chosen = games("reference")[:12] + games("reference")[PROPERTY_GAMES : PROPERTY_GAMES + 8]
    for seed, steps in chosen:
        for data, legal, _ in steps[::3] + steps[-1:]:
            state = ReferenceState(KAHUNA, data)
            assert why_unreachable(state, NAMES) is None, (seed, data, why_unreachable(state, NAMES))
            check_reasons(state, legal, codes, NAMES, KAHUNA, seed)


def test_the_random_game_states_meet_every_reason():
    """The games above reach every reason ``why_illegal`` gives a well-formed code in Kahuna but the
    empty stock (R16.1, reached in ``test_why_illegal_with_every_bridge_built``)."""
    seen = set()
    for _, steps in games("reference")[:12] + games("reference")[PROPERTY_GAMES : PROPERTY_GAMES + 8]:
        for data, _, _ in steps[::3]:
            state = ReferenceState(KAHUNA, data)
            reasons = (why_illegal(state, a, NAMES) for a in kahuna_codes())
            seen |= {reason_template(r, KAHUNA, NAMES) for r in reasons if r is not None}
    assert seen >= {
        "C cannot remove its own bridge (RN.N)",
        "C has already played a card this turn; a face-down discard replaces playing (RN.N)",
        "C has discarded this turn, so it must draw: 'take CARD' or 'draw' (RN.N)",
        "C has discarded this turn; only more discards, 'take' or 'draw' remain (RN.N)",
        "C has no I card",
        "C holds N card(s); only a turn begun with N cards may discard, before playing any (RN.N)",
        "C needs two I cards and holds one",
        "C skipped its last draw, so C must draw this turn (RN.N)",
        "I-I already holds C's bridge",
        "I-I holds C's bridge; remove it with two cards first (RN.N)",
        "I-I holds no bridge",
        "Kahuna has no 'pass': each player takes its one final turn in turn (RN.N)",
        "Kahuna has no setup: nobody reveals a card (RN.N)",
        "Kahuna has no swap: remove the opponent's bridge with two cards, then place on the free link (RN.N)",
        "a hand of N cannot draw; play or discard first (RN.N)",
        "each Kahuna player builds with its one color; a build names no second color (RN.N)",
        "no I among the face-up cards (...)",
        "the deck is empty; take a face-up card (RN.N)",
        "the final round has no draw (RN.N)",
        "there is no discard in the final round (RN.N)",
    }, seen


def kahuna_codes() -> list[int]:
    """Every code of every kind on ``kahuna``, with the combos of removals and swaps and a second-color slot."""
    codes = []
    for link, ends in enumerate(KAHUNA.links):
        for x in ends:
            codes += [A.encode(A.PLACE, link, x), A.with_slot(A.encode(A.PLACE, link, x), 1)]
        for combo in (A.SWAP_AA, A.SWAP_AB, A.SWAP_BB):
            codes += [A.encode(A.REMOVE, link, combo), A.encode(A.SWAP, link, combo)]
    for x in range(KAHUNA.n_islands):
        codes += [A.encode(kind, x) for kind in (A.DISCARD, A.TAKE, A.REVEAL)]
    return [*codes, DRAW, END, A.encode(A.PASS)]


def test_the_same_seed_gives_the_same_game(engine):
    for seed in (3, 4):
        assert random_game(engine, seed) == random_game(engine, seed)


def test_the_engines_agree_move_for_move():
    """The reference and the core play the same random games to the same states."""
    for (seed, ours), (_, theirs) in zip(games("reference"), games("core"), strict=True):
        assert ours == theirs, seed
