"""Kahuna (R16) positions: the ``"game": "kahuna"`` document read and written, every error of a bad
Kahuna position with its message, Kahuna's notation (``remove LINK/CARD+CARD``, ``end``), viewer
positions following whole games from their own records, ``Position.new(game="kahuna")`` and ``show``.

The rules themselves are the engines' (docs/engine.md "Kahuna (R16)"); here they are only asked."""

from __future__ import annotations

import copy
import random

import pytest

from kahuna_positions import kahuna_doc, leftover, no_bridges_over
from kanaloa.errors import MoveError, OptionError
from kanaloa.interfaces.display import render_position
from kanaloa.position import Position
from kanaloa.position.notation import Move, parse_move
from kanaloa.rules import actions as A
from kanaloa.rules.board import load_board
from kanaloa.rules.engine import load_engine
from kanaloa.rules.ruleset import make_ruleset
from kanaloa.rules.state import GAME_KAHUNA, StateData
from position_helpers import (
    DELETE,
    assert_canonical,
    changed_error,
    give,
    move_error,
    position_error,
    put,
    read_back_at_every_step,
)
from viewer_helpers import follow_game

KAHUNA = load_board("kahuna")
ORO = load_board("oro")
RULES = make_ruleset("kahuna", board=KAHUNA)  # Kahuna: white and black on board kahuna (R16.1)
KANALOA_ON_KAHUNA = make_ruleset(board=KAHUNA)  # Kanaloa's rules, on Kahuna's board
KANALOA = make_ruleset(board=ORO)
REFERENCE = load_engine("reference")
def kahuna_game(seed: int, engine, moves: int) -> Position:
    """A full Kahuna position after ``moves`` random moves from deal ``seed`` (fewer if the game ends)."""
    rng = random.Random(seed)
    pos = Position.new(game="kahuna", seed=seed, engine=engine)
    for _ in range(moves):
        if pos.is_over:
            break
        pos.push(rng.choice(pos.state.legal_actions()))
    return pos


# -- the document ---------------------------------------------------------------------------------


def test_a_dealt_kahuna_position_is_written_as_the_interface_says(engine):
    pos = Position.new(game="kahuna", seed=1, engine=engine)
    doc = pos.to_json()
    assert list(doc)[:4] == ["format", "game", "board", "players"]
    assert doc["game"] == "kahuna" and doc["board"] == "kahuna"
    assert doc["players"] == ["white", "black"]
    assert "rules" not in doc and "colors" not in doc  # R16.9: no presets; R16.1: one color each
    assert doc["round"] == 1 and doc["to_move"] == "white"  # R16.2: no setup, seat 0 first
    assert len(doc["face_up"]) == 3 and len(doc["deck"]) == 24 - 9
    assert all(len(hand["cards"]) == 3 for hand in doc["hands"].values())
    assert doc["turn"] == {"played": 0, "discarded": False, "skipped_draw": False}
    assert doc["scores"] == {"white": 0, "black": 0}
    assert pos.ruleset.game == "kahuna" and pos.round == 1 and pos.pairs is None
    assert Position.from_json(pos.dumps(), engine=engine).dumps() == pos.dumps()


def test_a_kanaloa_position_is_written_without_a_game_and_reads_the_same_with_one():
    pos = Position.new(players=4, seed=1, engine=REFERENCE)
    doc = pos.to_json()
    assert "game" not in doc and pos.ruleset.game == "kanaloa"
    explicit = Position.from_json({"game": "kanaloa", **doc}, engine=REFERENCE)
    assert explicit.dumps() == pos.dumps()


def test_kahuna_positions_round_trip_through_a_whole_game(engine):
    """Full and viewer positions read back to themselves at every step of random games, over every round."""
    rounds = set()
    for seed in (3, 7):
        rng = random.Random(seed)
        full = Position.new(game="kahuna", seed=seed, engine=engine)
        rounds |= {pos.round for pos in read_back_at_every_step(full, rng.choice)}
    assert rounds == {1, 2, 3, "final", "over"}


def test_a_round_3_turn_with_a_skipped_draw_reads_back():
    doc = kahuna_doc(round=3, scores={"white": 1, "black": 2}, to_move="black",
                     turn={"played": 1, "discarded": False, "skipped_draw": True})
    doc["hands"]["black"] = {"cards": ["ELAI", "FAAA", "GOLA"], "public": []}
    doc["discard"]["open"].append("HUNA")
    doc["deck"] = leftover(doc)
    pos = Position.from_json(doc, engine=REFERENCE)
    assert pos.round == 3
    out = pos.to_json()
    assert out["round"] == 3 and out["turn"] == {"played": 1, "discarded": False, "skipped_draw": True}
    assert pos.state.to_data().skipped is True
    assert "end" not in pos.move_strings()  # R16.5: no skipping twice in a row
    assert Position.from_json(pos.dumps(), engine=REFERENCE).dumps() == pos.dumps()


def test_defaults_of_a_kahuna_position():
    doc = kahuna_doc()
    del doc["turn"], doc["scores"]
    doc["rules"] = {}
    pos = Position.from_json(doc, engine=REFERENCE)
    assert pos.to_json()["turn"] == {"played": 0, "discarded": False, "skipped_draw": False}
    assert pos.to_json()["scores"] == {"white": 0, "black": 0}
    # Black may sit first (R16.2: seat 0 moves first).
    swapped = kahuna_doc(players=["black", "white"], to_move="black")
    assert Position.from_json(swapped, engine=REFERENCE).players == ("black", "white")


def _tied_over(**result):
    """A game of Kahuna over by points with nobody ahead on any tie-break (R16.7): 0 points each, no island
    controlled, one bridge each."""
    doc = kahuna_doc(round="over", bridges={"ALOA-BARI": "white", "ELAI-HUNA": "black"}, face_up=[],
                     result={"ranking": ["white", "black"], "winner": None, "reason": "points", **result})
    doc["discard"]["open"] = leftover({**doc, "discard": {"open": []}})
    doc["deck"] = []
    return doc


@pytest.mark.parametrize("make, reason", [(no_bridges_over, "no bridges"), (_tied_over, "points")])
def test_a_kahuna_game_without_a_winner_reads_and_writes_winner_null(make, reason):
    pos = Position.from_json(make(), engine=REFERENCE)
    assert pos.is_over and pos.to_move is None
    assert pos.outcome == {"ranking": ["white", "black"], "winner": None, "reason": reason}
    out = pos.to_json()
    assert out["result"] == {"ranking": ["white", "black"], "winner": None, "reason": reason}
    assert "turn" not in out and out["to_move"] is None
    assert Position.from_json(pos.dumps(), engine=REFERENCE).dumps() == pos.dumps()
    assert pos.legal_moves() == []
    assert move_error(pos, "end") == "move 'end': the game is over"


# -- bad Kahuna positions ---------------------------------------------------------------------------


def _to_face_up(*cards):
    def change(doc):
        for card in cards:
            doc["deck"].remove(card)
            doc["face_up"].append(card)
        return doc
    return change


# (change to the full Kahuna example, message); the first block is the shape (the format's own checks),
# the second what no game of Kahuna reaches (the reference's why_unreachable).
KAHUNA_ERRORS = [
    (put("game", "chess"), "game: 'chess' is not one of 'kanaloa', 'kahuna', 'cannonball'"),
    (put("game", 1), "game: 1 is not one of 'kanaloa', 'kahuna', 'cannonball'"),
    (put("game", None), "game: None is not one of 'kanaloa', 'kahuna', 'cannonball'"),
    (put("players", ["white", "black", "red"]), "players: 3 colors; Kahuna is for 2 players, white and black (R16.1)"),
    (put("players", ["white"]), "players: 1 color; Kahuna is for 2 players, white and black (R16.1)"),
    (put("players", ["white", "red"]),
     "players: 'red' is not a color of Kahuna (white, black); red, green, blue and yellow are Kanaloa's (R16.1)"),
    (put("players", ["white", "white"]), "players: ['white', 'white'] names a color twice"),
    (put("players", "white"), "players: must be a list of colors in seat order"),
    (put("colors", {"white": ["white", "black"]}),
     "colors: in Kahuna each player plays one color, white or black (R16.1); only a 2-player game of Kanaloa "
     "gives each player two colors (R15.1)"),
    (put("rules", {"preset": "tabletop"}),
     "rules.preset: Kahuna has no presets (R13 does not apply, R16.9); each player has 25 bridges (R16.1)"),
    (put("rules", {"preset": "yucata"}),
     "rules.preset: Kahuna has no presets (R13 does not apply, R16.9); each player has 25 bridges (R16.1)"),
    (put("rules", {"gods": True}),
     "rules.gods: Might of the Gods is a variant of Kanaloa, not of Kahuna (R14, R16.9)"),
    (put("rules", "yucata"), "rules: must be an object (empty: Kahuna has no rule options), not 'yucata'"),
    (put("round", 0), "round: Kahuna has no setup round: the cards are dealt and play begins in round 1 (R16.2); "
                       "the rounds are 1, 2, 3, \"final\", \"over\""),
    (put("round", 4), "round: 4 is not one of 1, 2, 3, \"final\", \"over\""),
    (put("round", "3"), "round: '3' is not one of 1, 2, 3, \"final\", \"over\""),
    (put("setup", {"chosen": []}), "setup: Kahuna has no setup: 3 cards are dealt to each player and 3 turned "
                                    "face-up (R16.2)"),
    (put("viewer", "red"), "viewer: 'red' is not playing (the colors are white, black)"),
    (put("to_move", "green"), "to_move: 'green' is not playing (the colors are white, black)"),
    (put("bridges.ALOA-DUDA", "red"), "bridges.ALOA-DUDA: 'red' is not playing (the colors are white, black)"),
    (put("scores.red", 0), "scores.red: 'red' is not playing (the colors are white, black)"),
    (put("turn.skipped_draw", "yes"), "turn.skipped_draw: 'yes' must be true or false"),
    (put("turn.skipped_draw", 1), "turn.skipped_draw: 1 must be true or false"),
    (put("turn.remove_on", []),
     "turn.remove_on: Kahuna owes no removal after a build: R7 does not apply (R16.9); a removal there is a move "
     "paying two cards (R16.3)"),
    (put("turn.color", "white"),
     "turn.color: in Kahuna each player builds with its one color (R16.1); 'turn.color' is the color of a turn in "
     "Kanaloa's 2-player game (R15.3)"),
    (put("turn.phase", "draw"), "turn.phase: unknown field (turn has played, discarded, skipped_draw)"),
    (put("final_round", {"done": []}), "final_round: only a position whose round is 'final' has it"),
    (put("hands.red", {"cards": []}), "hands.red: 'red' is not playing"),
    (put("deck", ["ALOA"]), "cards: the position holds 1 BARI cards; board kahuna has 2 of each island"),
    # What no game of Kahuna reaches (the reference's why_unreachable).
    (_to_face_up("LALE"), "face_up: 4 cards; at most 3 lie face-up (R16.2)"),
    (give("white", "LALE", "LALE", "GOLA"), "hands.white: 6 cards; a Kahuna hand holds at most 5 (R16.5)"),
    (put("scores.white", 1), "scores: white 1 and black 0 points; nobody scores before the first scoring (R16.6)"),
]


@pytest.mark.parametrize("change, message", KAHUNA_ERRORS)
def test_a_bad_kahuna_position_names_the_field_and_why(change, message):
    assert changed_error(kahuna_doc(), change) == message


def _final(**fields):
    """The example in the final round: no deck, no face-up card, the rest of the cards discarded."""
    doc = kahuna_doc(round="final", face_up=[], **fields)
    doc["discard"]["open"] = leftover({**doc, "discard": {"open": []}})
    doc["deck"] = []
    return doc


ROUND_ERRORS = [
    (lambda: _final(turn={"played": 0, "discarded": False, "skipped_draw": True}),
     "turn.skipped_draw: the final round begins after a draw and has no draw to skip (R16.7)"),
    (lambda: kahuna_doc(round=2, bridges={"ALOA-BARI": "white"}),
     "bridges: black has no bridge on the board; after the first scoring that ends the game at once (R16.8)"),
    (lambda: _final(final_round={"done": [], "passed": []}),
     "final_round.passed: Kahuna has no pass: each player takes one final turn, in turn (R16.7)"),
    (lambda: kahuna_doc(round="over", result={"ranking": ["white", "black"], "winner": "white",
                                              "reason": "eleven islands"}),
     "result.reason: 'eleven islands': Kahuna has no immediate win (R8 does not apply, R16.9); the game ends on "
     "'points' or 'no bridges'"),
    (lambda: kahuna_doc(round="over", result={"ranking": ["white", "black"], "winner": "white", "reason": "time"}),
     "result.reason: 'time' is not one of 'points', 'no bridges'"),
    (lambda: no_bridges_over(ranking=["black", "white"]),
     "result.ranking: with no winner the ranking lists the players in seat order, white, black"),
    (lambda: kahuna_doc(round="over", result={"ranking": ["white", "black"], "winner": "black",
                                              "reason": "no bridges"}),
     "result.winner: black is not first in the ranking"),
]


@pytest.mark.parametrize("make, message", ROUND_ERRORS)
def test_a_bad_kahuna_round_names_the_field_and_why(make, message):
    assert position_error(make()) == message


KANALOA_ERRORS = [
    ({"players": ["white", "black"]},
     "players: 'white' is not a color of Kanaloa (red, green, blue, yellow); white and black are Kahuna's: a Kahuna "
     "position says \"game\": \"kahuna\" (R16.1)"),
    ({"round": 3}, "round: 3 is not one of 0, 1, 2, \"final\", \"over\"; round 3 is Kahuna's (R16.6): a Kahuna "
                   "position says \"game\": \"kahuna\""),
    ({"turn": {"played": 0, "discarded": False, "remove_on": [], "skipped_draw": False}},
     "turn.skipped_draw: a Kanaloa turn always ends with a draw (R5); only Kahuna skips one (R16.5): a Kahuna "
     "position says \"game\": \"kahuna\""),
    ({"round": "over", "to_move": None, "turn": DELETE,
      "result": {"ranking": ["red", "green", "blue", "yellow"], "winner": None, "reason": "points"}},
     "result.winner: null, but a game of Kanaloa always has a winner (R12); only Kahuna may end without one "
     "(R16.7)"),
    ({"round": "over", "to_move": None, "turn": DELETE,
      "result": {"ranking": ["red", "green", "blue", "yellow"], "winner": "red", "reason": "no bridges"}},
     "result.reason: 'no bridges': only a game of Kahuna ends when a player has no bridge left (R16.8); the game "
     "ends on 'points' or 'eleven islands'"),
]


@pytest.mark.parametrize("fields, message", KANALOA_ERRORS)
def test_kahuna_fields_in_a_kanaloa_position_say_whose_they_are(fields, message):
    doc = Position.new(players=4, seed=2, engine=REFERENCE).to_json()
    doc.update({"round": 1, "face_up": doc["deck"][:4], "deck": doc["deck"][4:]})
    for key, value in fields.items():
        if value is DELETE:
            del doc[key]
        else:
            doc[key] = value
    del doc["setup"]
    assert position_error(doc) == message


def test_a_kahuna_viewer_position_hides_what_the_viewer_cannot_see():
    full = Position.from_json(kahuna_doc(), engine=REFERENCE)
    doc = full.as_viewer("white").to_json()
    assert doc["viewer"] == "white" and "seed" not in doc
    assert doc["hands"]["black"] == {"count": 4, "public": ["HUNA"]}
    assert doc["deck"] == {"count": len(full.to_json()["deck"])}
    bad = copy.deepcopy(doc)
    bad["hands"]["black"] = {"cards": ["ELAI", "FAAA", "GOLA", "HUNA"]}
    assert position_error(bad) == "hands.black.cards: white cannot see black's cards; give 'count' and 'public'"


# -- notation ---------------------------------------------------------------------------------------


NOTATION = [
    ("ALOA-BARI/ALOA", "ALOA-BARI/ALOA"),
    ("white: bari-aloa/bari", "white: ALOA-BARI/BARI"),
    # R16.3: a removal pays two cards, each an end of the link, printed in the link's order
    ("remove BARI-DUDA/DUDA+BARI", "remove BARI-DUDA/BARI+DUDA"),
    ("REMOVE duda-bari/duda+duda", "remove BARI-DUDA/DUDA+DUDA"),
    ("black: remove BARI-DUDA/BARI+BARI", "black: remove BARI-DUDA/BARI+BARI"),
    # R16.5: skipping the draw; the final turn's end (R16.7)
    ("end", "end"),
    ("discard KAHU", "discard KAHU"),
    ("discard", "discard"),
    ("take IFFI refill LALE", "take IFFI refill LALE"),
    ("draw", "draw"),
    ("draw JOJO", "draw JOJO"),
    ("faceup ALOA BARI COCO", "faceup ALOA BARI COCO"),
    ("faceup ALOA", "faceup ALOA"),
]


@pytest.mark.parametrize("text, canonical", NOTATION)
def test_kahuna_moves_read_and_print_canonically(text, canonical):
    assert_canonical(text, canonical, RULES)


def test_a_kahuna_removal_is_its_action_code_and_back():
    link = KAHUNA.find_link(KAHUNA.find_island("BARI"), KAHUNA.find_island("DUDA"))
    for combo, cards in ((A.SWAP_AA, "BARI+BARI"), (A.SWAP_AB, "BARI+DUDA"), (A.SWAP_BB, "DUDA+DUDA")):
        code = A.encode(A.REMOVE, link, combo)
        move = Move.from_action(code, RULES)
        assert str(move) == f"remove BARI-DUDA/{cards}"
        assert move.to_action(RULES, 0) == code
    assert Move.parse("remove BARI-DUDA/BARI+DUDA", RULES) == Move(
        "remove", ("BARI", "DUDA"), ("BARI", "DUDA"))
    # The same code is Kanaloa's R7 removal, which names no card.
    assert str(Move.from_action(A.encode(A.REMOVE, link), KANALOA_ON_KAHUNA)) == "remove BARI-DUDA"


NOTATION_ERRORS = [
    ("ALOA-BARI/ALOA+BARI", "move 'ALOA-BARI/ALOA+BARI': Kahuna has no swap (R16.3): remove the bridge with "
                            "'remove ALOA-BARI/ALOA+BARI', then place on the free link"),
    ("remove BARI-DUDA", "move 'remove BARI-DUDA': a removal pays two cards, each naming an end of the link: "
                         "'remove BARI-DUDA/CARD+CARD' (R16.3)"),
    ("remove BARI-DUDA/", "move 'remove BARI-DUDA/': a removal pays two cards, each naming an end of the link: "
                          "'remove BARI-DUDA/CARD+CARD' (R16.3)"),
    ("remove BARI-DUDA/BARI", "move 'remove BARI-DUDA/BARI': a removal pays two cards, not one: "
                              "'remove BARI-DUDA/CARD+CARD' (R16.3)"),
    ("remove BARI-DUDA/ALOA", "move 'remove BARI-DUDA/ALOA': a removal pays two cards, not one: "
                              "'remove BARI-DUDA/CARD+CARD' (R16.3)"),
    ("remove BARI-DUDA/BARI+", "move 'remove BARI-DUDA/BARI+': a removal needs two cards joined by '+', not "
                               "'BARI+'"),
    ("remove BARI-DUDA/BARI+ALOA", "move 'remove BARI-DUDA/BARI+ALOA': each removal card must name an end of the "
                                   "link (BARI or DUDA), not ALOA"),
    ("remove BARI-DUDA/BARI+DUDA+DUDA", "move 'remove BARI-DUDA/BARI+DUDA+DUDA': a removal needs two cards, not 3 "
                                        "('BARI+DUDA+DUDA')"),
    ("remove BARI-DUDA BARI+DUDA", "move 'remove BARI-DUDA BARI+DUDA': 'remove' names one link and the two cards it "
                                   "pays: 'remove A-B/CARD+CARD' (R16.3)"),
    ("remove ALOA-LALE/ALOA+LALE", "move 'remove ALOA-LALE/ALOA+LALE': no link between ALOA and LALE"),
    ("pass", "move 'pass': Kahuna has no pass: each player takes one final turn, in turn, and ends it with 'end' "
             "(R16.7)"),
    ("reveal ALOA", "move 'reveal ALOA': Kahuna has no setup choice: 3 cards are dealt to each player and 3 turned "
                    "face-up (R16.2)"),
    ("faceup ALOA BARI COCO DUDA", "move 'faceup ALOA BARI COCO DUDA': 'faceup' names the 1 to 3 cards turned "
                                   "face-up, not 4 (a reshuffle turns up 3, R16.6)"),
    ("red: end", "move 'red: end': unknown color 'red' (Kahuna's colors are white, black)"),
    ("ALOA-BARI", "move 'ALOA-BARI': a build names the card it pays after a '/': 'LINK/CARD'"),
    ("ALOA-BARI/", "move 'ALOA-BARI/': no card after '/': a place pays one card"),
    ("hop", "move 'hop': unknown move; expected 'LINK/CARD' or one of remove, discard, take, draw, end, faceup"),
    ("hop BARI", "move 'hop BARI': expected a build 'LINK/CARD', or one of 'remove', 'discard', 'take', 'draw', "
                 "'end', 'faceup'"),
]


@pytest.mark.parametrize("text, message", NOTATION_ERRORS)
def test_kahuna_refuses_the_forms_it_does_not_have(text, message):
    with pytest.raises(MoveError) as err:
        Move.parse(text, RULES)
    assert str(err.value) == message


def test_kanaloa_refuses_kahunas_forms():
    with pytest.raises(MoveError) as err:
        Move.parse("remove BAFI-ORO/BAFI+ORO", KANALOA)
    assert str(err.value) == ("move 'remove BAFI-ORO/BAFI+ORO': a removal after a relative majority (R7) pays no "
                              "card: write 'remove BAFI-ORO' (a removal paying two cards is Kahuna's, R16.3)")
    with pytest.raises(MoveError) as err:
        Move.parse("white: take ORO", KANALOA)
    assert str(err.value) == ("move 'white: take ORO': unknown color 'white' (Kanaloa's colors are red, green, blue, "
                              "yellow)")


def test_a_move_object_is_read_again_in_kahuna():
    swap = Move("swap", ("ALOA", "BARI"), ("ALOA", "BARI"))
    assert parse_move(swap, KANALOA) is swap
    with pytest.raises(MoveError) as err:
        parse_move(swap, RULES)
    assert "Kahuna has no swap (R16.3)" in str(err.value)


# -- playing moves in notation ----------------------------------------------------------------------


def test_moves_of_a_kahuna_position_are_listed_and_played_in_its_notation():
    doc = kahuna_doc(to_move="black")
    doc["hands"]["black"]["cards"] = ["ALOA", "BARI", "ELAI", "GOLA"]
    doc["hands"]["black"]["public"] = []
    doc["hands"]["white"]["cards"] = ["COCO", "DUDA", "FAAA"]
    doc["discard"]["open"] = ["HUNA", "HUNA"]
    doc["deck"] = leftover(doc)
    pos = Position.from_json(doc, engine=REFERENCE)
    listed = pos.move_strings()
    assert "remove ALOA-BARI/ALOA+BARI" in listed  # R16.3: the opponent's bridge, paid A+B
    assert not any(m.startswith("remove ALOA-BARI/ALOA+ALOA") for m in listed)  # one ALOA in hand
    assert "end" in listed and "take IFFI" in listed and "draw" in listed
    assert all(m != "pass" and not m.startswith("reveal") for m in listed)
    assert [pos.parse(m).to_action(RULES, pos.state.to_move) for m in listed] == pos.state.legal_actions()
    pos.play("black: remove BARI-ALOA/BARI+ALOA")
    assert pos.to_json()["bridges"] == {"ELAI-HUNA": "black"}
    assert pos.to_json()["discard"]["open"][-2:] == ["ALOA", "BARI"]
    pos.play("end")  # R16.5: skip the draw
    out = pos.to_json()
    assert out["to_move"] == "white" and out["turn"]["skipped_draw"] is True
    assert "end" not in pos.move_strings()
    with pytest.raises(MoveError) as err:
        pos.play("ALOA-BARI/ALOA+BARI")
    assert "Kahuna has no swap (R16.3)" in str(err.value)


def test_a_turn_with_a_full_hand_may_discard_then_must_draw():
    doc = kahuna_doc(to_move="black", turn={"played": 0, "discarded": False, "skipped_draw": True})
    doc["hands"]["black"]["cards"].append("LALE")
    doc["deck"] = leftover(doc)
    pos = Position.from_json(doc, engine=REFERENCE)
    listed = pos.move_strings()
    assert "discard LALE" in listed and "end" not in listed and "draw" not in listed
    pos.play("discard LALE")
    pos.play("discard GOLA")  # R16.5: one or more cards
    assert pos.to_json()["discard"]["hidden_by"]["black"] == ["GOLA", "LALE"]
    assert "end" not in pos.move_strings() and "draw" in pos.move_strings()


def test_the_final_round_has_one_turn_each_and_no_draw():
    doc = _final(to_move="black", scores={"white": 1, "black": 0}, final_round={"done": ["white"]})
    pos = Position.from_json(doc, engine=REFERENCE)
    assert pos.to_json()["final_round"] == {"done": ["white"]}  # R16.7: nobody passes
    listed = pos.move_strings()
    assert listed[-1] == "end" and not any(m.startswith(("take", "draw", "discard")) for m in listed)
    pos.play("end")
    assert pos.is_over and pos.outcome["reason"] == "points"
    assert pos.to_json()["result"]["winner"] == pos.outcome["winner"]


def test_a_full_kahuna_position_turns_its_cards_up_itself():
    pos = Position.from_json(kahuna_doc(), engine=REFERENCE)
    assert move_error(pos, "faceup IFFI JOJO KAHU") == (
        "move 'faceup IFFI JOJO KAHU': a full position turns cards face-up itself; 'faceup' "
        "records are for viewer positions")


# -- viewer positions -------------------------------------------------------------------------------


def _count_kahuna_moves(seen, action, full):
    kind = A.kind_of(action)
    seen["removals"] += kind == A.REMOVE
    seen["skips"] += kind == A.END and full.round != "over" and full.to_json()["turn"]["skipped_draw"]
    seen["discards"] += kind == A.DISCARD


def _wait_for_three(view, turned):
    """R16.6: a reshuffle turns up 3 cards; the waiting view reads back as waiting."""
    assert view.waiting.endswith("(R16.6)")
    assert len(turned) == 3
    again = Position.from_json(view.dumps(), engine=view.engine)
    assert again.waiting == view.waiting


def mirror_game(seed: int, engine) -> dict:
    """A seeded random game of Kahuna in full and in both players' views; return event counts."""
    rng = random.Random(seed)
    full = Position.new(game="kahuna", seed=seed, engine=engine)
    return follow_game(full, rng.choice, count=_count_kahuna_moves, on_wait=_wait_for_three)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_viewer_follows_a_whole_kahuna_game_from_its_own_records(engine, seed):
    seen = mirror_game(seed, engine)
    # The game went through every kind of event a viewer must follow.
    assert seen["waits"] == 4  # R16.6: each player waits after each of the two reshuffles
    assert seen["exchanges"] > 0  # the opponent paid with a card the filled-in hand lacked
    assert seen["removals"] > 0 and seen["skips"] > 0 and seen["discards"] > 0
    assert seen["refills"] > 0 and seen["own draws"] > 0


def test_a_viewer_follows_games_that_end_with_a_player_without_bridges(engine):
    for seed in (25, 55):  # seeds whose random games end by R16.8, in round 3 and in round 2
        assert mirror_game(seed, engine)["moves"] > 0
        assert kahuna_game(seed, engine, 10_000).outcome["reason"] == "no bridges"


def _black_view():
    """White's view of the example, black to move."""
    return Position.from_json(kahuna_doc(to_move="black"), engine=REFERENCE).as_viewer("white")


def test_the_opponents_removal_pulls_its_cards_into_the_filled_in_hand():
    view = _black_view()
    # White sees black's HUNA and 3 unseen cards; BARI and ALOA may be among them (one ALOA is white's own).
    view.play("black: remove ALOA-BARI/ALOA+BARI")
    out = view.to_json()
    assert out["bridges"] == {"ELAI-HUNA": "black"}
    assert out["hands"]["black"] == {"count": 2, "public": ["HUNA"]}
    assert out["discard"]["open"][-2:] == ["ALOA", "BARI"]


def test_an_impossible_removal_of_the_opponent_is_refused_with_what_the_viewer_knows():
    view = _black_view()
    before = view.to_json()
    # White holds one of the two ALOA cards, so black cannot pay ALOA+ALOA.
    assert move_error(view, "black: remove ALOA-BARI/ALOA+ALOA") == (
        "move 'black: remove ALOA-BARI/ALOA+ALOA': black cannot hold two ALOA cards: white "
        "knows where every other ALOA card is")
    # Rule reasons come before knowledge: black's own bridge is not the opponent's.
    with pytest.raises(MoveError) as err:
        view.play("black: remove ELAI-HUNA/ELAI+HUNA")
    assert "ELAI-HUNA" in str(err.value) and "black" in str(err.value)
    assert move_error(view, "black: draw HUNA") == (
        "move 'black: draw HUNA': white does not see the card black draws; write 'draw'")
    assert view.to_json() == before


def test_a_viewer_waits_for_three_cards_after_a_kahuna_reshuffle():
    # White takes the last face-up card: round 1 ends, the discards come back and 3 go face-up (R16.6).
    doc = kahuna_doc(face_up=["IFFI"])
    doc["discard"]["open"] += leftover({**doc, "discard": {"open": doc["discard"]["open"]}})
    doc["deck"] = []
    full = Position.from_json(doc, engine=REFERENCE)
    view = full.as_viewer("black")
    full.play("take IFFI")
    view.play("white: take IFFI")
    assert full.round == 2 and len(full.to_json()["face_up"]) == 3
    assert view.waiting == "the deck turned up 3 unseen card(s); record them with 'faceup CARD CARD CARD' (R16.6)"
    turned = full.to_json()["face_up"]
    assert move_error(view, "faceup " + " ".join(turned[:2])) == (
        f"move 'faceup {' '.join(turned[:2])}': 3 card(s) are turned face-up; name all 3")
    with pytest.raises(MoveError) as err:
        view.play("faceup " + " ".join([*turned, "ALOA"]))
    assert "'faceup' names the 1 to 3 cards turned face-up, not 4 (a reshuffle turns up 3, R16.6)" in str(
        err.value)
    view.play("faceup " + " ".join(turned))
    assert view.to_json() == full.as_viewer("black").to_json()
    assert "Waiting" not in render_position(view)


# -- dealing ----------------------------------------------------------------------------------------


def test_new_deals_kahuna_by_seed(engine):
    a = Position.new(game="kahuna", seed=5, engine=engine)
    b = Position.new(game="kahuna", seed=5, players=2, board="kahuna", engine=engine)
    assert a.dumps() == b.dumps() != Position.new(game="kahuna", seed=6, engine=engine).dumps()
    on_oro = Position.new(game="kahuna", seed=5, board="oro", engine=engine)  # any board with 9 cards
    assert on_oro.to_json()["board"] == "oro" and len(on_oro.to_json()["face_up"]) == 3


NEW_ERRORS = [
    ({"players": 3}, "players 3: Kahuna is for 2 players, white and black (R16.1)"),
    ({"players": 4}, "players 4: Kahuna is for 2 players, white and black (R16.1)"),
    ({"preset": "tabletop"}, "preset 'tabletop': Kahuna has no presets (R13 does not apply, R16.9); each player has "
                             "25 bridges (R16.1)"),
    ({"colors": (("white", "black"), ("black", "white"))},
     "colors: in Kahuna each player plays one color, white or black (R16.1); only a 2-player game of Kanaloa gives "
     "each player two colors (R15.1)"),
    ({"seed": -1}, "seed -1: must be an integer from 0 to 2**64-1"),
    ({"game": "chess"}, "game 'chess': unknown; choose one of kanaloa, kahuna, cannonball"),
]


@pytest.mark.parametrize("kwargs, message", NEW_ERRORS)
def test_new_refuses_what_kahuna_has_not(kwargs, message):
    with pytest.raises(OptionError) as err:
        Position.new(**{"game": "kahuna", **kwargs}, engine=REFERENCE)
    assert str(err.value) == message


def test_new_refuses_a_board_too_small_for_the_kahuna_deal(tmp_path):
    path = tmp_path / "tiny.json"
    path.write_text('{"name": "tiny", "cards_per_island": 2, "islands": [{"name": "A"}, {"name": "B"}, '
                    '{"name": "C"}, {"name": "D"}], "links": [["A", "B"], ["B", "C"], ["C", "D"]]}')
    with pytest.raises(OptionError) as err:
        Position.new(game="kahuna", board=str(path), engine=REFERENCE)
    assert str(err.value) == ("board tiny: Kahuna deals 3 cards to each of 2 players and turns 3 face-up, 9 cards; "
                              "the board has 8 (R16.2)")


# -- show -------------------------------------------------------------------------------------------


def test_show_draws_a_kahuna_position():
    doc = kahuna_doc(round=3, scores={"white": 1, "black": 2}, turn={"played": 0, "discarded": False,
                                                                      "skipped_draw": True})
    text = render_position(Position.from_json(doc, engine=REFERENCE))
    lines = text.splitlines()
    assert lines[0] == "Kahuna on kahuna, full position"
    assert lines[1] == ("white to move, round 3; cards played this turn: 0; black skipped its last draw, so white may "
                        "not skip this one (R16.5)")
    assert "  white    1 (24 of 25 left in stock, R16.1)  ALOA-BARI" in lines
    assert "  black    1 (24 of 25 left in stock, R16.1)  ELAI-HUNA" in lines
    assert "Face up   IFFI JOJO KAHU" in lines
    assert "Scores    white 1  black 2" in lines
    assert "Pairs" not in text and "passed" not in text
    over = render_position(Position.from_json(no_bridges_over(), engine=REFERENCE))
    assert "Game over: nobody wins (no bridges, R16.8); ranking white, black" in over.splitlines()


def test_a_kahuna_state_keeps_its_game_through_the_position():
    pos = Position.new(game="kahuna", seed=1, engine=REFERENCE)
    data = pos.state.to_data()
    assert isinstance(data, StateData) and data.game == GAME_KAHUNA
    assert pos.copy().ruleset.game == "kahuna" and pos.as_viewer("black").ruleset.game == "kahuna"
    assert repr(pos) == "<Position kahuna round 1, white to move, full>"
