"""The move notation (docs/notation.md): every form read and written back, every
error message, and the one-to-one match with the integer action codes."""

from __future__ import annotations

import pytest

from kanaloa.errors import KanaloaError, MoveError
from kanaloa.position.notation import Move
from kanaloa.rules import actions as A
from kanaloa.rules.board import load_board
from kanaloa.rules.ruleset import make_ruleset


@pytest.fixture(scope="module")
def oro():
    return load_board("oro")


@pytest.fixture(scope="module")
def rules(oro):
    """Kanaloa for 4 players on board oro: the game whose notation these tests read and write."""
    return make_ruleset(board=oro)


# (text as typed, canonical notation)
ROUND_TRIPS = [
    # R4 place: islands in any case, link ends in either order, printed in file order
    ("ALOA-BAFI/ALOA", "ALOA-BAFI/ALOA"),
    ("bafi-aloa/aloa", "ALOA-BAFI/ALOA"),
    ("  Bafi-Aloa/BAFI ", "ALOA-BAFI/BAFI"),
    # R4 swap: the cards are printed A+A, A+B, B+B with A, B the link's ends in file order
    ("ALOA-BAFI/ALOA+ALOA", "ALOA-BAFI/ALOA+ALOA"),
    ("ALOA-BAFI/BAFI+ALOA", "ALOA-BAFI/ALOA+BAFI"),
    ("bafi-aloa/bafi+bafi", "ALOA-BAFI/BAFI+BAFI"),
    # R7 removal
    ("remove BAFI-ORO", "remove BAFI-ORO"),
    ("REMOVE oro-bafi", "remove BAFI-ORO"),
    # R4 face-down discard, known card or (another player's, in a viewer position) unseen
    ("discard KULU", "discard KULU"),
    ("discard", "discard"),
    # R5 draw phase
    ("take RASI", "take RASI"),
    ("take rasi refill kulu", "take RASI refill KULU"),
    ("draw", "draw"),
    ("draw rasi", "draw RASI"),
    # R10 final round
    ("end", "end"),
    ("pass", "pass"),
    ("PASS", "pass"),
    # R3 setup, known or unseen
    ("reveal DALI", "reveal DALI"),
    ("reveal", "reveal"),
    # R3/R9 face-up records: four cards, or fewer when fewer are turned up
    ("faceup ALOA ORO KULU ELOI", "faceup ALOA ORO KULU ELOI"),
    ("faceup oro oro", "faceup ORO ORO"),
    # the mover's color as a prefix
    ("green: take RASI", "green: take RASI"),
    ("Green :take rasi refill oro", "green: take RASI refill ORO"),
    ("red: bafi-aloa/aloa+bafi", "red: ALOA-BAFI/ALOA+BAFI"),
    ("yellow: discard", "yellow: discard"),
]


@pytest.mark.parametrize("text, canonical", ROUND_TRIPS)
def test_every_form_reads_and_prints_canonically(rules, text, canonical):
    move = Move.parse(text, rules)
    assert str(move) == canonical
    assert move.notation(rules) == canonical
    assert Move.parse(canonical, rules) == move


def test_a_parsed_move_holds_canonical_names(rules):
    move = Move.parse("blue: bafi-aloa/bafi+aloa", rules)
    assert move == Move("swap", ("ALOA", "BAFI"), ("ALOA", "BAFI"), color="blue")
    assert move.without_color() == Move("swap", ("ALOA", "BAFI"), ("ALOA", "BAFI"))
    assert Move.parse("take RASI refill KULU", rules) == Move("take", cards=("RASI",), refill="KULU")
    assert Move.parse("faceup ALOA ORO", rules).is_record
    assert not Move.parse("draw", rules).is_record


ERRORS = [
    ("XYZ-BAFI/ALOA", "move 'XYZ-BAFI/ALOA': unknown island 'XYZ' on board oro"),
    ("ALOA-BAFI/XYZ", "move 'ALOA-BAFI/XYZ': unknown island 'XYZ' on board oro"),
    ("take xyz", "move 'take xyz': unknown island 'XYZ' on board oro"),
    ("ALOA-ORO/ALOA", "move 'ALOA-ORO/ALOA': no link between ALOA and ORO"),
    ("remove DALI-KULU", "move 'remove DALI-KULU': no link between DALI and KULU"),
    ("ALOA-ALOA/ALOA", "move 'ALOA-ALOA/ALOA': a link joins two different islands, not ALOA to itself"),
    ("ALOA-BAFI-COCO/ALOA",
     "move 'ALOA-BAFI-COCO/ALOA': a link is two islands joined by '-', e.g. 'ALOA-BAFI', not 'ALOA-BAFI-COCO'"),
    ("ALOA-BAFI/ORO", "move 'ALOA-BAFI/ORO': a place card must name an end of the link (ALOA or BAFI), not ORO"),
    ("ALOA-BAFI/ALOA+ORO",
     "move 'ALOA-BAFI/ALOA+ORO': each swap card must name an end of the link (ALOA or BAFI), not ORO"),
    ("ALOA-BAFI/ALOA+BAFI+ALOA", "move 'ALOA-BAFI/ALOA+BAFI+ALOA': a swap needs two cards, not 3 ('ALOA+BAFI+ALOA')"),
    ("ALOA-BAFI/ALOA+", "move 'ALOA-BAFI/ALOA+': a swap needs two cards joined by '+', not 'ALOA+'"),
    ("ALOA-BAFI/", "move 'ALOA-BAFI/': no card after '/': a place pays one card, a swap two ('CARD+CARD')"),
    ("ALOA-BAFI", "move 'ALOA-BAFI': a build names the card it pays after a '/': 'LINK/CARD' or 'LINK/CARD+CARD'"),
    ("fly", "move 'fly': unknown move; expected 'LINK/CARD', 'LINK/CARD+CARD' or one of "
            "remove, discard, take, draw, end, pass, reveal, faceup"),
    ("ALOA-BAFI/ALOA now", "move 'ALOA-BAFI/ALOA now': expected a build 'LINK/CARD' or 'LINK/CARD+CARD', "
                           "or one of 'remove', 'discard', 'take', 'draw', 'end', 'pass', 'reveal', 'faceup'"),
    ("purple: draw", "move 'purple: draw': unknown color 'purple' (Kanaloa's colors are red, green, blue, yellow)"),
    ("red:", "move 'red:': empty move"),
    ("", "move '': empty move"),
    ("end now", "move 'end now': 'end' takes nothing after it"),
    ("pass 2", "move 'pass 2': 'pass' takes nothing after it"),
    ("remove", "move 'remove': 'remove' names one link: 'remove A-B'"),
    ("discard ALOA BAFI", "move 'discard ALOA BAFI': 'discard' names at most one card"),
    ("draw ALOA BAFI", "move 'draw ALOA BAFI': 'draw' names at most one card"),
    ("reveal ALOA BAFI", "move 'reveal ALOA BAFI': 'reveal' names at most one card"),
    ("take", "move 'take': 'take' names the face-up card taken: 'take CARD'"),
    ("take RASI KULU", "move 'take RASI KULU': expected 'take CARD' or 'take CARD refill CARD'"),
    ("take RASI refill", "move 'take RASI refill': expected 'take CARD' or 'take CARD refill CARD'"),
    ("faceup", "move 'faceup': 'faceup' names the 1 to 4 cards turned face-up, not 0"),
    ("faceup ALOA BAFI COCO DALI ELOI",
     "move 'faceup ALOA BAFI COCO DALI ELOI': 'faceup' names the 1 to 4 cards turned face-up, not 5 (a reshuffle "
     "turns up 4, R9)"),
]


@pytest.mark.parametrize("text, message", ERRORS)
def test_malformed_moves_quote_the_move_and_say_what_is_wrong(rules, text, message):
    with pytest.raises(MoveError) as err:
        Move.parse(text, rules)
    assert str(err.value) == message


def test_move_errors_are_kanaloa_and_value_errors(rules):
    with pytest.raises(KanaloaError):
        Move.parse("nowhere", rules)
    with pytest.raises(ValueError):
        Move.parse("nowhere", rules)


def test_a_move_is_text(rules):
    with pytest.raises(MoveError, match=r"^move 42: a move is written as text"):
        Move.parse(42, rules)


def every_action(board):
    """Every action code the board allows, whatever the state."""
    for k, (a, b) in enumerate(board.links):
        yield A.encode(A.PLACE, k, a)
        yield A.encode(A.PLACE, k, b)
        for combo in (A.SWAP_AA, A.SWAP_AB, A.SWAP_BB):
            yield A.encode(A.SWAP, k, combo)
        yield A.encode(A.REMOVE, k)
    for x in range(board.n_islands):
        for kind in (A.DISCARD, A.TAKE, A.REVEAL):
            yield A.encode(kind, x)
    for kind in (A.DRAW, A.END, A.PASS):
        yield A.encode(kind)


def test_every_action_code_has_one_notation_and_back(oro, rules):
    seen = set()
    for action in every_action(oro):
        move = Move.from_action(action, rules)
        text = str(move)
        assert text not in seen
        seen.add(text)
        assert Move.parse(text, rules) == move
        assert Move.parse(text, rules).to_action(rules, 0) == action
    assert len(seen) == 37 * 6 + 16 * 3 + 3


def test_actions_print_as_in_the_rule_examples(oro, rules):
    link = oro.find_link(oro.find_island("ALOA"), oro.find_island("BAFI"))
    aloa, bafi = oro.find_island("ALOA"), oro.find_island("BAFI")
    assert str(Move.from_action(A.encode(A.PLACE, link, aloa), rules)) == "ALOA-BAFI/ALOA"
    assert str(Move.from_action(A.encode(A.SWAP, link, A.SWAP_AA), rules)) == "ALOA-BAFI/ALOA+ALOA"
    assert str(Move.from_action(A.encode(A.SWAP, link, A.SWAP_AB), rules)) == "ALOA-BAFI/ALOA+BAFI"
    assert str(Move.from_action(A.encode(A.SWAP, link, A.SWAP_BB), rules)) == "ALOA-BAFI/BAFI+BAFI"
    assert str(Move.from_action(A.encode(A.TAKE, oro.find_island("RASI")), rules, color="green")) == "green: take RASI"
    assert Move.parse("ALOA-BAFI/BAFI", rules).to_action(rules, 0) == A.encode(A.PLACE, link, bafi)


def test_records_carry_their_cards_but_not_into_the_action(oro, rules):
    rasi = oro.find_island("RASI")
    assert Move.parse("take RASI refill KULU", rules).to_action(rules, 0) == A.encode(A.TAKE, rasi)
    assert Move.parse("draw RASI", rules).to_action(rules, 0) == A.encode(A.DRAW)


@pytest.mark.parametrize("text, message", [
    ("faceup ALOA", "move 'faceup ALOA': a record of face-up cards is not an action"),
    ("discard", "move 'discard': names no card, so it is no action"),
    ("green: reveal", "move 'green: reveal': names no card, so it is no action"),
])
def test_records_without_an_action(rules, text, message):
    with pytest.raises(MoveError) as err:
        Move.parse(text, rules).to_action(rules, 0)
    assert str(err.value) == message


@pytest.mark.parametrize("action, message", [
    (A.encode(15), "action 983040: unknown action kind 15"),
    (A.encode(A.PLACE, 99, 0), "action 90880: no link 99 on board oro"),
    (A.encode(A.PLACE, 0, 5), "action 65541: island 5 is not an end of ALOA-BAFI"),
    (A.encode(A.SWAP, 0, 7), "action 131079: unknown swap combination 7"),
    (A.encode(A.TAKE, 40), "action 337920: no island 40 on board oro"),
])
def test_foreign_action_codes_are_refused(rules, action, message):
    with pytest.raises(MoveError) as err:
        Move.from_action(action, rules)
    assert str(err.value) == message


def test_moves_on_another_board():
    kahuna = load_board("kahuna")
    rules = make_ruleset(board=kahuna)  # Kanaloa's rules on the board of Kahuna
    a, b = kahuna.links[0]
    text = f"{kahuna.islands[b].lower()}-{kahuna.islands[a].lower()}/{kahuna.islands[b].lower()}"
    move = Move.parse(text, rules)
    assert str(move) == f"{kahuna.islands[a]}-{kahuna.islands[b]}/{kahuna.islands[b]}"
    assert move.to_action(rules, 0) == A.encode(A.PLACE, 0, b)


# -- long input is quoted cut short --------------------------------------------------------------

HUGE = "B" * 100_000


@pytest.mark.parametrize("text, message", [
    (f"ALOA-{HUGE}/ALOA", f"move {'ALOA-' + 'B' * 55!r}... (100010 characters): unknown island "
                          f"{'B' * 60!r}... (100000 characters) on board oro"),
    (f"ALOA-{HUGE}", f"move {'ALOA-' + 'B' * 55!r}... (100005 characters): a build names the card it pays after "
                     "a '/': 'LINK/CARD' or 'LINK/CARD+CARD'"),
    (f"{HUGE}: draw", f"move {'B' * 60!r}... (100006 characters): unknown color {'B' * 60!r}... (100000 "
                      "characters) (Kanaloa's colors are red, green, blue, yellow)"),
])
def test_a_huge_move_is_quoted_by_its_first_characters_and_its_length(rules, text, message):
    with pytest.raises(MoveError) as err:
        Move.parse(text, rules)
    assert str(err.value) == message


def test_a_move_of_sixty_characters_is_quoted_whole(rules):
    text = "ALOA-" + "B" * 55
    with pytest.raises(MoveError) as err:
        Move.parse(text, rules)
    assert str(err.value).startswith(f"move {text!r}: ")
