"""The rulebook for two players, rule by rule (R15.1-R15.7), and the worked example of the printed rules.

Each test builds a small 2-player state (``StateData``) and plays action codes through an engine
state, once per implementation (the ``engine`` fixture of ``tests/conftest.py``): the readable
reference and the compiled core.  Colors are numbered as in ``StateData``: seat 0 plays red (0)
and blue (2), seat 1 green (1) and yellow (3), unless a test names them otherwise.  A build names
its color by its slot: 0 for the player's first color, 1 for its second.  The printed example
and the notation of R15.3 also go through ``kanaloa.position.Position``, in the colors of the
public format.
"""

from __future__ import annotations

import random

import pytest

from conftest import REFERENCE, build_state, link_of
from kanaloa.errors import MoveError
from kanaloa.position import Position
from kanaloa.rules import actions as A
from kanaloa.rules.board import load_board
from kanaloa.rules.engine import Engine
from kanaloa.rules.ruleset import make_ruleset
from kanaloa.rules.state import (
    DEAL,
    FACE_UP,
    NO_COLOR,
    NO_OWNER,
    PRESET_TABLETOP,
    PRESET_YUCATA,
    REASON_ELEVEN,
    REASON_POINTS,
    ROUND_1,
    ROUND_2,
    ROUND_FINAL,
    ROUND_SETUP,
    StateData,
    colors_of_seat,
)

ORO = load_board("oro")
NAMES = ("red", "green", "blue", "yellow")  # by color number
RED, GREEN, BLUE, YELLOW = range(4)
FIRST, SECOND = 0, 1  # the color slots of a build


def table(
    engine: Engine,
    *,
    to_move: int = 0,
    round: int = ROUND_1,
    bridges: dict[str, int] | None = None,
    hands: dict[int, list[str]] | None = None,
    face_up: list[str] | None = None,
    deck: list[str] | None = None,
    scores: list[int] | None = None,
    preset: int = PRESET_YUCATA,
    final_done: list[int] | None = None,
):
    """A 2-player state on ``oro``: bridges as ``{"ALOA-BAFI": BLUE}``, hands by seat.

    In rounds 1 and 2 the face-up row and the deck default to cards nobody holds (ORO, 4 face-up,
    4 in the deck); every other card lies on the open discard pile.
    """
    early = round in (ROUND_1, ROUND_2)
    data = build_state(
        ORO, players=2, round=round, to_move=to_move, preset=preset, bridges=bridges, hands=hands,
        face_up=face_up if face_up is not None else (["NALU"] * 3 + ["PAHU"] if early else []),
        deck=deck if deck is not None else (["PAHU", "PAHU", "MOKU", "MOKU"] if early else []),
        scores=scores if scores is not None else [0, 0, 0, 0],
    )
    if round == ROUND_FINAL:
        data.final_done = list(final_done or [])
    return engine.from_data(ORO, data)


def place(link: str, card: str, slot: int = FIRST) -> int:
    return A.with_slot(A.encode(A.PLACE, link_of(ORO, link), ORO.find_island(card)), slot)


def swap(link: str, cards: str, slot: int = FIRST) -> int:
    """A swap on ``link`` paying ``cards`` ("ALOA+BAFI"), with the mover's color in ``slot``."""
    k = link_of(ORO, link)
    paid = tuple(ORO.find_island(x) for x in cards.split("+"))
    combo = next(c for c in (A.SWAP_AA, A.SWAP_AB, A.SWAP_BB) if A.swap_cards(ORO.links[k], c) == paid)
    return A.with_slot(A.encode(A.SWAP, k, combo), slot)


def remove(link: str) -> int:
    return A.encode(A.REMOVE, link_of(ORO, link))


def island(name: str) -> int:
    return ORO.find_island(name)


def bridges_of(state) -> dict[str, str]:
    return {ORO.link_name(k): NAMES[c] for k, c in enumerate(state.to_data().bridges) if c != NO_OWNER}


def build_slots(state) -> set[int]:
    """The color slots of the builds offered."""
    return {A.build_slot(a) for a in state.legal_actions() if A.kind_of(a) in (A.PLACE, A.SWAP)}


def play(state, *actions: int) -> None:
    for action in actions:
        assert action in state.legal_actions(), action
        state.apply(action)


def finish_final_round(state) -> None:
    """Every seat still to play ends its final turn at once."""
    while not state.is_over:
        state.apply(A.encode(A.END))


# -- R15.1 two colors, one hand -------------------------------------------------------------------


def test_R15_1_four_colors_two_hands(engine):
    state = engine.deal(make_ruleset(players=2, board=ORO), 5)
    data = state.to_data()
    assert len(data.hands) == 2 and len(data.scores) == 4 and state.scores == [0, 0, 0, 0]
    assert colors_of_seat(0, 2) == (RED, BLUE) and colors_of_seat(1, 2) == (GREEN, YELLOW)
    assert len(state.counts_on(island("ORO"))) == 4


def test_R15_1_the_player_to_move_may_build_with_either_color(engine):
    state = table(engine, hands={0: ["ALOA"]})
    builds = [a for a in state.legal_actions() if A.kind_of(a) == A.PLACE]
    assert place("ALOA-BAFI", "ALOA", FIRST) in builds and place("ALOA-BAFI", "ALOA", SECOND) in builds
    play(state, place("ALOA-BAFI", "ALOA", SECOND))
    assert bridges_of(state) == {"ALOA-BAFI": "blue"}


def test_R15_1_control_is_per_color_and_two_colors_never_add_up(engine):
    """Red and blue hold 2 of DALI's 3 links between them: nobody controls DALI."""
    state = table(engine, bridges={"ALOA-DALI": RED, "DALI-ELOI": BLUE})
    assert state.counts_on(island("DALI")) == [1, 0, 1, 0]
    assert state.controller_of(island("DALI")) == NO_OWNER
    state = table(engine, bridges={"ALOA-DALI": BLUE, "DALI-ELOI": BLUE})
    assert state.controller_of(island("DALI")) == BLUE


def test_R15_1_each_color_scores_on_its_own(engine):
    """Scoring 1: red controls DALI with 2 of 3 links (1 point), blue BAFI with 3 of 5 (2 points),
    yellow KULU with 2 of 3 (1 point); green nothing.  Seat 0's colors are not added together."""
    state = table(engine, to_move=1, face_up=["NALU"], deck=[], hands={1: ["MOKU"]},
                  bridges={"ALOA-DALI": RED, "DALI-ELOI": RED,
                           "ALOA-BAFI": BLUE, "BAFI-COCO": BLUE, "BAFI-GUMO": BLUE,
                           "ELOI-KULU": YELLOW, "FALU-KULU": YELLOW})
    play(state, A.encode(A.TAKE, island("NALU")))
    assert state.round == ROUND_2
    assert state.scores == [1, 0, 2, 1]


def test_R15_1_tabletop_each_color_has_its_own_twenty_bridges(engine):
    """Red has all 20 bridges out: red cannot build, blue can (R13 per color)."""
    twenty = ["ALOA-BAFI", "ALOA-COCO", "ALOA-DALI", "ALOA-ELOI", "BAFI-COCO", "BAFI-GUMO", "BAFI-ORO", "BAFI-RASI",
              "COCO-ELOI", "COCO-FALU", "COCO-ORO", "DALI-ELOI", "DALI-IKA", "ELOI-FALU", "ELOI-KULU", "HILO-MOKU",
              "HILO-PAHU", "LANI-MOKU", "NALU-PAHU", "ORO-RASI"]
    state = table(engine, preset=PRESET_TABLETOP, bridges=dict.fromkeys(twenty, RED), hands={0: ["GUMO", "IKA"]})
    assert build_slots(state) == {SECOND}
    assert place("GUMO-IKA", "GUMO", SECOND) in state.legal_actions()
    assert place("GUMO-IKA", "GUMO", FIRST) not in state.legal_actions()


# -- R15.2 setup ------------------------------------------------------------------------------------


def test_R15_2_four_cards_each_one_revealed_each_and_the_deck_fills_the_row(engine):
    state = engine.deal(make_ruleset(players=2, board=ORO), 21)
    dealt = state.to_data()
    assert dealt.round == ROUND_SETUP and [sum(h) for h in dealt.hands] == [DEAL, DEAL]
    assert len(dealt.deck) == ORO.n_cards - 2 * DEAL
    picks = []
    for seat in (0, 1):
        assert state.to_move == seat
        reveal = state.legal_actions()[0]
        assert {A.kind_of(a) for a in state.legal_actions()} == {A.REVEAL}
        picks.append(A.arg_a(reveal))
        state.apply(reveal)
    data = state.to_data()
    assert data.round == ROUND_1 and data.to_move == 0
    assert data.face_up == [*picks, *dealt.deck[:2]] and len(data.face_up) == FACE_UP
    assert data.deck == dealt.deck[2:]
    assert [sum(h) for h in data.hands] == [DEAL - 1, DEAL - 1]


# -- R15.3 one color per turn -----------------------------------------------------------------------


def test_R15_3_the_first_build_chooses_the_color_of_the_turn(engine):
    state = table(engine, hands={0: ["ALOA", "BAFI", "COCO"]})
    assert build_slots(state) == {FIRST, SECOND} and state.to_data().turn_color == NO_COLOR
    play(state, place("ALOA-BAFI", "ALOA", SECOND))
    assert state.to_data().turn_color == BLUE
    assert build_slots(state) == {SECOND}
    assert place("BAFI-COCO", "BAFI", FIRST) not in state.legal_actions()
    play(state, place("BAFI-COCO", "BAFI", SECOND))
    assert bridges_of(state) == {"ALOA-BAFI": "blue", "BAFI-COCO": "blue"}


def test_R15_3_the_next_turn_chooses_again(engine):
    state = table(engine, hands={0: ["ALOA", "COCO"], 1: ["GUMO"]})
    play(state, place("ALOA-BAFI", "ALOA", SECOND), A.encode(A.DRAW))
    assert state.to_move == 1 and state.to_data().turn_color == NO_COLOR
    assert build_slots(state) == {FIRST, SECOND}
    play(state, place("BAFI-GUMO", "GUMO", FIRST), A.encode(A.DRAW))
    assert state.to_move == 0 and build_slots(state) == {FIRST, SECOND}
    play(state, place("COCO-ELOI", "COCO", FIRST))  # red now, blue the turn before
    assert bridges_of(state) == {"ALOA-BAFI": "blue", "BAFI-GUMO": "green", "COCO-ELOI": "red"}


def test_R15_3_a_turn_without_builds_chooses_no_color(engine):
    state = table(engine, hands={0: ["ALOA", "COCO"]})
    play(state, A.encode(A.DISCARD, island("ALOA")))
    assert state.to_data().turn_color == NO_COLOR
    play(state, A.encode(A.DRAW))
    assert state.to_data().turn_color == NO_COLOR and state.to_move == 1


def test_R15_3_a_final_turn_builds_with_one_color_too(engine):
    state = table(engine, round=ROUND_FINAL, hands={0: ["ALOA", "COCO"], 1: ["GUMO"]})
    play(state, place("ALOA-BAFI", "ALOA", FIRST))
    assert build_slots(state) == {FIRST}
    play(state, place("COCO-ELOI", "COCO", FIRST), A.encode(A.END))
    assert state.to_move == 1 and state.to_data().turn_color == NO_COLOR
    assert build_slots(state) == {FIRST, SECOND}


def test_R15_3_in_notation_a_build_names_its_color_and_the_turn_keeps_it(engine):
    pos = Position.new(players=2, seed=3, engine=engine)
    while pos.round == 0:
        pos.play(pos.move_strings()[0])
    builds = [m for m in pos.move_strings() if "/" in m]
    assert {m.split(":")[0] for m in builds} == {"red", "blue"}
    blue = next(m for m in builds if m.startswith("blue: "))
    pos.play(blue)
    assert pos.to_json()["turn"]["color"] == "blue"
    assert {m.split(":")[0] for m in pos.move_strings() if "/" in m} <= {"blue"}
    red = next(m for m in builds if m.startswith("red: ") and m.split(": ")[1] != blue.split(": ")[1])
    with pytest.raises(MoveError, match=r"a turn builds with one color only \(R15\.3\)"):
        pos.play(red)


# -- R15.4 the player's other color is another color ------------------------------------------------


def test_R15_4_taking_control_removes_the_players_other_color(engine):
    """Blue holds ALOA-DALI; red takes DALI with DALI-ELOI and DALI-IKA: blue's bridge goes too."""
    state = table(engine, bridges={"ALOA-DALI": BLUE, "DALI-ELOI": RED}, hands={0: ["DALI"]})
    play(state, place("DALI-IKA", "DALI", FIRST))
    assert state.controller_of(island("DALI")) == RED
    assert bridges_of(state) == {"DALI-ELOI": "red", "DALI-IKA": "red"}


def test_R15_4_a_swap_may_replace_the_players_other_color(engine):
    """Blue's bridge on ALOA-BAFI may become red, but blue cannot swap its own bridge."""
    state = table(engine, bridges={"ALOA-BAFI": BLUE}, hands={0: ["ALOA", "BAFI"]})
    assert swap("ALOA-BAFI", "ALOA+BAFI", FIRST) in state.legal_actions()
    assert swap("ALOA-BAFI", "ALOA+BAFI", SECOND) not in state.legal_actions()
    play(state, swap("ALOA-BAFI", "ALOA+BAFI", FIRST))
    assert bridges_of(state) == {"ALOA-BAFI": "red"}


def test_R15_4_a_relative_majority_may_remove_the_players_other_color(engine):
    """BAFI full at red 2, blue 1, green 1, yellow 1 after red's place: any other color may lose a
    bridge, blue among them."""
    state = table(engine, bridges={"ALOA-BAFI": RED, "BAFI-COCO": BLUE, "BAFI-GUMO": GREEN, "BAFI-ORO": YELLOW},
                  hands={0: ["RASI"]})
    play(state, place("BAFI-RASI", "RASI", FIRST))
    assert state.to_data().remove_on == [island("BAFI")]
    assert sorted(state.legal_actions()) == sorted(remove(x) for x in ("BAFI-COCO", "BAFI-GUMO", "BAFI-ORO"))
    play(state, remove("BAFI-COCO"))
    assert "BAFI-COCO" not in bridges_of(state)


def test_R15_4_a_tie_counts_the_players_other_color_as_a_rival(engine):
    """Red 2 ties yellow 2 on full BAFI; the one color with a single bridge is blue, the player's own."""
    state = table(engine, bridges={"ALOA-BAFI": RED, "BAFI-COCO": YELLOW, "BAFI-GUMO": YELLOW, "BAFI-ORO": BLUE},
                  hands={0: ["RASI"]})
    play(state, place("BAFI-RASI", "RASI", FIRST))
    assert state.legal_actions() == [remove("BAFI-ORO")]


def test_R15_4_the_players_other_color_counts_against_the_color_played(engine):
    """Full BAFI at red 2, blue 2, green 1: red is only tied for the most (with its own blue), so it
    removes the single green bridge.  At red 2 against blue 3, blue controls BAFI and red removes nothing."""
    state = table(engine, bridges={"ALOA-BAFI": RED, "BAFI-COCO": BLUE, "BAFI-GUMO": BLUE, "BAFI-ORO": GREEN},
                  hands={0: ["RASI"]})
    play(state, place("BAFI-RASI", "RASI", FIRST))
    assert state.legal_actions() == [remove("BAFI-ORO")]
    state = table(engine, bridges={"ALOA-BAFI": RED, "BAFI-COCO": BLUE, "BAFI-GUMO": BLUE, "BAFI-ORO": BLUE},
                  hands={0: ["RASI"]})
    play(state, place("BAFI-RASI", "RASI", FIRST))  # blue 3 controls BAFI: red, behind, removes nothing
    assert state.to_data().remove_on == [] and state.controller_of(island("BAFI")) == BLUE


# -- R15.5 the pair -------------------------------------------------------------------------------


def final_result(engine: Engine, scores: list[int], order: tuple[int, int] = (0, 1)) -> StateData:
    """The result of a final round with no bridge on the board, the seats ending in ``order``."""
    state = table(engine, round=ROUND_FINAL, to_move=order[0], scores=scores)
    finish_final_round(state)
    data = state.to_data()
    assert data.final_done == list(order) and data.reason == REASON_POINTS
    return data


def test_R15_5_the_printed_example_the_weaker_color_decides(engine):
    """Adam plays red and yellow: 28 and 3, the pair (3, 28).  Betty plays green and blue: 10 and
    12, the pair (10, 12).  Betty wins, 10 against 3, though Adam has more points in all."""
    scores = [28, 10, 3, 12]  # Adam, seat 0: red 28 and yellow 3; Betty, seat 1: green 10 and blue 12
    pairs = [tuple(sorted(scores[c] for c in colors_of_seat(seat, 2))) for seat in (0, 1)]
    assert pairs == [(3, 28), (10, 12)]
    for order in ((0, 1), (1, 0)):  # whoever ends first: equal pairs only would need the tie-break
        data = final_result(engine, scores, order)
        assert data.scores == scores
        assert (data.winner, data.ranking) == (1, [1, 0])


def test_R15_5_the_printed_example_in_the_books_colors(engine):
    """The same example as a position, Adam playing red and yellow, Betty green and blue: Adam, with
    the smaller pair, may pass (R15.6); Betty may not; Betty wins."""
    doc = {
        "format": "kanaloa-position/1", "board": "oro", "rules": {"preset": "yucata"},
        "players": ["red", "green"], "colors": {"red": ["red", "yellow"], "green": ["green", "blue"]},
        "to_move": "red", "round": "final", "bridges": {},
        "hands": {"red": {"cards": []}, "green": {"cards": []}}, "face_up": [], "deck": [],
        "discard": {"open": [x for x in ORO.islands for _ in range(ORO.cards_per_island)]},
        "scores": {"red": 28, "yellow": 3, "green": 10, "blue": 12}, "turn": {}, "seed": 0,
    }
    pos = Position.from_json(doc, engine=engine)
    assert sorted(pos.move_strings()) == ["end", "pass"]
    pos.play("pass")
    assert pos.to_move == "green" and pos.move_strings() == ["end"]
    pos.play("end")
    pos.play("end")
    assert pos.outcome == {"ranking": ["green", "red"], "winner": "green", "reason": "points"}
    assert pos.scores == {"red": 28, "yellow": 3, "green": 10, "blue": 12}


def test_R15_5_equal_weaker_colors_the_stronger_decides(engine):
    data = final_result(engine, [10, 15, 12, 10])  # (10, 12) against (10, 15)
    assert data.ranking == [1, 0]


def test_R15_5_equal_pairs_go_to_the_earlier_final_turn(engine):
    scores = [9, 5, 5, 9]  # (5, 9) each
    assert final_result(engine, scores, (0, 1)).ranking == [0, 1]
    assert final_result(engine, scores, (1, 0)).ranking == [1, 0]


def test_R15_5_the_final_scoring_is_per_color(engine):
    """Blue controls DALI at the final scoring: 1 + 1 points for blue alone; seat 0's pair becomes (2, 4)."""
    state = table(engine, round=ROUND_FINAL, scores=[4, 3, 0, 3], bridges={"ALOA-DALI": BLUE, "DALI-ELOI": BLUE})
    finish_final_round(state)
    assert state.scores == [4, 3, 2, 3]
    assert state.ranking == [1, 0]  # (3, 3) beats (2, 4)


# -- R15.6 passing in the final round ---------------------------------------------------------------


def test_R15_6_only_the_player_with_the_smaller_pair_may_pass(engine):
    state = table(engine, round=ROUND_FINAL, scores=[28, 10, 3, 12])  # (3, 28) against (10, 12)
    assert A.encode(A.PASS) in state.legal_actions()
    play(state, A.encode(A.PASS))
    assert state.to_move == 1 and A.encode(A.PASS) not in state.legal_actions()
    play(state, A.encode(A.END))
    assert state.to_move == 0 and state.legal_actions() == [A.encode(A.END)]  # the opponent has played
    play(state, A.encode(A.END))
    assert state.to_data().final_done == [1, 0] and state.ranking == [1, 0]


def test_R15_6_with_equal_pairs_nobody_passes(engine):
    for to_move in (0, 1):
        state = table(engine, round=ROUND_FINAL, to_move=to_move, scores=[9, 5, 5, 9])
        assert A.encode(A.PASS) not in state.legal_actions()


def test_R15_6_the_pair_not_the_sum_decides(engine):
    """Seat 1 has 25 points in all against seat 0's 14, but its pair (5, 20) is the smaller one."""
    state = table(engine, round=ROUND_FINAL, to_move=1, scores=[7, 5, 7, 20])
    assert A.encode(A.PASS) in state.legal_actions()
    state = table(engine, round=ROUND_FINAL, to_move=0, scores=[7, 5, 7, 20])
    assert A.encode(A.PASS) not in state.legal_actions()


def test_R15_6_no_pass_once_the_turn_has_begun(engine):
    state = table(engine, round=ROUND_FINAL, scores=[3, 10, 28, 12], hands={0: ["ALOA"]})
    assert A.encode(A.PASS) in state.legal_actions()
    play(state, place("ALOA-BAFI", "ALOA", SECOND))
    assert A.encode(A.PASS) not in state.legal_actions()


# -- R15.7 eleven islands of either color ---------------------------------------------------------

TEN_ISLANDS = ["ALOA-ELOI", "BAFI-ORO", "BAFI-RASI", "DALI-ELOI", "DALI-IKA", "ELOI-KULU", "HILO-LANI", "HILO-NALU",
               "HILO-PAHU", "IKA-KULU", "IKA-ORO", "LANI-RASI", "NALU-PAHU", "ORO-PAHU", "ORO-RASI"]
# a color holding these controls DALI ELOI HILO IKA KULU LANI NALU ORO PAHU RASI


@pytest.mark.parametrize("color", [RED, GREEN, BLUE, YELLOW], ids=NAMES)
def test_R15_7_an_eleventh_island_of_either_color_wins_for_its_player(engine, color):
    seat, slot = color % 2, color // 2
    state = table(engine, round=ROUND_2, to_move=seat, bridges=dict.fromkeys(TEN_ISLANDS, color),
                  hands={seat: ["ALOA"]}, scores=[4, 9, 6, 2])
    play(state, place("ALOA-BAFI", "ALOA", slot))  # BAFI: 3 of 5
    data = state.to_data()
    assert state.is_over and data.reason == REASON_ELEVEN
    assert (data.winner, data.ranking) == (seat, [seat, 1 - seat])
    assert state.legal_actions() == []


def test_R15_7_islands_of_the_two_colors_do_not_add_up(engine):
    """Red controls 10 islands; blue takes GUMO, an eleventh island for the player but not for a color."""
    state = table(engine, bridges={**dict.fromkeys(TEN_ISLANDS, RED), "GUMO-MOKU": BLUE, "GUMO-PAHU": BLUE},
                  hands={0: ["ALOA"]})
    play(state, place("ALOA-GUMO", "ALOA", SECOND))
    controlled = [state.controller_of(i) for i in range(ORO.n_islands)]
    assert (controlled.count(RED), controlled.count(BLUE)) == (10, 1)
    assert not state.is_over


# -- 3 and 4 players are untouched ----------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_with_three_or_four_players_no_color_is_chosen_and_no_build_has_a_second_slot(players):
    state = REFERENCE.deal(make_ruleset(players=players, board=ORO), 8)
    rng = random.Random(8)
    while not state.is_over:
        assert state.to_data().turn_color == NO_COLOR
        assert build_slots(state) <= {FIRST}
        state.apply(rng.choice(state.legal_actions()))
