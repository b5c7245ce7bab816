"""Viewer positions: what one color knows at the table, kept up to date from the records of
the moves it sees (docs/records.md "Records in a viewer position", docs/engine.md "Knowledge").

The central check mirrors whole games: a full position plays them, and a viewer position per
color follows along with only the records that color could write.  After every move the
viewer's printed position must equal the full position seen by that viewer."""

from __future__ import annotations

import random

import pytest

from kanaloa.errors import MoveError
from kanaloa.position import FORMAT, Position, WaitingError
from kanaloa.rules.board import load_board
from position_helpers import cards_left, move_error
from viewer_helpers import follow_game

ORO = load_board("oro")


def full_doc(hands, face_up=("KULU", "MOKU", "PAHU", "GUMO"), open_=(), hidden_by=None, deck=None, **fields):
    """A 4-player full position in round 1; the deck is every card not placed elsewhere."""
    hidden_by = hidden_by or {}
    doc = {
        "format": FORMAT, "board": "oro", "players": ["red", "green", "blue", "yellow"],
        "to_move": "red", "round": 1, "bridges": {},
        "hands": {c: {"cards": cards} if isinstance(cards, list) else cards for c, cards in hands.items()},
        "face_up": list(face_up),
        "discard": {"open": list(open_), "hidden": sum(map(len, hidden_by.values())), "hidden_by": hidden_by},
        "seed": 7,
    }
    doc.update(fields)
    doc["deck"] = cards_left(doc, ORO) if deck is None else deck
    return doc


HANDS = {
    "red": ["ALOA", "ALOA", "DALI", "RASI"],
    "green": {"cards": ["COCO", "HILO", "IKA", "KULU"], "public": ["KULU"]},
    "blue": ["MOKU", "NALU", "ORO"],
    "yellow": ["GUMO", "ORO", "FALU"],
}


def red_view(engine, **fields):
    full = Position.from_json(full_doc(HANDS, open_=["ALOA", "BAFI"], **fields), engine=engine)
    return full, full.as_viewer("red")


# -- mirrored games -----------------------------------------------------------------------------


def mirror_game(seed: int, players: int, preset: str, engine) -> dict:
    """Play a seeded random game in full and in every color's view; return event counts."""
    rng = random.Random(seed)
    full = Position.new(players, seed=seed, preset=preset, engine=engine)
    return follow_game(full, rng.choice)


@pytest.mark.parametrize("seed, players, preset", [(11, 4, "yucata"), (12, 3, "yucata"), (13, 4, "tabletop"),
                                                   (14, 2, "yucata"), (15, 2, "tabletop")])
def test_a_viewer_follows_a_whole_game_from_its_own_records(engine, seed, players, preset):
    seen = mirror_game(seed, players, preset, engine)
    # The game went through every kind of event a viewer must follow.
    assert seen["setup waits"] == players  # R3: every color waits once for the face-up cards
    assert seen["waits"] == players  # R9: every color waits once after the reshuffle
    assert seen["exchanges"] > 0  # another color paid with a card the filled-in hand lacked
    assert seen["refills"] > 0 and seen["own draws"] > 0


# -- what another color's moves tell the viewer -------------------------------------------------


def test_another_colors_take_and_draw_update_what_the_viewer_knows(engine):
    full, view = red_view(engine, to_move="green")
    top = full.to_json()["deck"][0]
    view.play(f"green: take MOKU refill {top}")
    out = view.to_json()
    assert out["hands"]["green"] == {"count": 5, "public": ["KULU", "MOKU"]}  # R5: a face-up take is public
    assert out["face_up"] == ["KULU", top, "PAHU", "GUMO"]
    assert out["deck"]["count"] == 27
    view.play("blue: draw")
    assert view.to_json()["hands"]["blue"] == {"count": 4, "public": []}
    assert view.to_json()["deck"]["count"] == 26


def test_another_colors_build_pulls_the_card_into_its_filled_in_hand(engine):
    _, view = red_view(engine, to_move="green")
    # Red cannot see green's three unknown cards; any island with an unseen card may be among them.
    for card in ("PAHU", "LANI", "ELOI"):
        trial = view.copy()
        link = {"PAHU": "GUMO-PAHU", "LANI": "HILO-LANI", "ELOI": "COCO-ELOI"}[card]
        trial.play(f"green: {link}/{card}")
        out = trial.to_json()
        assert out["bridges"] == {link: "green"}
        assert out["hands"]["green"] == {"count": 3, "public": ["KULU"]}
        assert out["discard"]["open"][-1] == card
    # A public card is paid from the public part (docs/rules.md "What each player knows": a card played
    # openly uses up a known card of that island first).
    view.play("green: ELOI-KULU/KULU")
    assert view.to_json()["hands"]["green"] == {"count": 3, "public": []}


def test_a_face_down_discard_by_another_color_stays_unseen(engine):
    _, view = red_view(engine, to_move="green")
    view.play("green: discard")
    out = view.to_json()
    assert out["hands"]["green"] == {"count": 3, "public": []}  # one of each known card goes (R4)
    assert out["discard"]["hidden"] == 1 and out["discard"]["hidden_by"] == {"red": []}
    assert out["turn"]["discarded"] is True


# (another color's record, why red's view refuses it), green to move
IMPOSSIBLE_RECORDS = [
    # Red holds two ALOA and sees the third on the discard pile: green cannot pay with ALOA.
    ("green: ALOA-COCO/ALOA", "green cannot hold an ALOA card: red knows where every other ALOA card is"),
    # Rule reasons come before knowledge: the link is free whatever green holds.
    ("green: ALOA-BAFI/BAFI+BAFI", "ALOA-BAFI holds no bridge to swap; a place pays one card"),
    ("green: take ORO refill ALOA", "no ORO among the face-up cards (KULU, MOKU, PAHU, GUMO)"),
    ("green: take MOKU refill ALOA", "ALOA cannot be the card turned up: red knows where every ALOA card is"),
    ("green: take MOKU", "the deck refills the gap; write 'take MOKU refill CARD' with the card turned up"),
    ("green: draw ORO", "red does not see the card green draws; write 'draw'"),
    ("green: discard COCO", "red does not see which card green discards face-down; write 'discard'"),
]


def test_impossible_moves_of_another_color(engine):
    full, view = red_view(engine, to_move="green")
    for move, why in IMPOSSIBLE_RECORDS:
        assert move_error(view, move) == f"move {move!r}: {why}"
    with pytest.raises(MoveError) as err:
        view.legal_moves()
    assert str(err.value) == ("moves: green's hand is not known to red's position, so its moves cannot be listed; "
                              "play its moves as they happen")
    assert view.to_json() == full.as_viewer("red").to_json()  # refused moves change nothing


def test_what_the_viewer_knows_of_a_hand_is_its_size_and_public_part(engine):
    """Another color's move is refused for what its hand cannot hold without claiming to know the hand."""
    def green_holds(cards, public=(), **fields):
        hands = dict(HANDS, green={"cards": list(cards), "public": list(public)})
        return Position.from_json(full_doc(hands, open_=["ALOA", "BAFI"], to_move="green", **fields),
                                  engine=engine).as_viewer("red")

    cases = [
        (green_holds([]), "green: discard", "green holds no card"),
        (green_holds(["COCO"], bridges={"ALOA-BAFI": "red"}), "green: ALOA-BAFI/ALOA+BAFI",
         "green holds 1 card; a swap pays two"),
        (green_holds(["COCO", "KULU"], ["KULU"], bridges={"ELOI-KULU": "red"}), "green: ELOI-KULU/ELOI+ELOI",
         "green holds 2 card(s) and red knows 1 of them (KULU), so green cannot pay ELOI+ELOI"),
    ]
    for view, move, why in cases:
        before = view.to_json()
        assert move_error(view, move) == f"move {move!r}: {why}"
        assert view.to_json() == before
    view = green_holds(["COCO", "KULU"], ["KULU"], bridges={"ELOI-KULU": "red"})
    view.play("green: ELOI-KULU/ELOI+KULU")  # its known KULU and an unseen card, which may be an ELOI
    assert view.to_json()["bridges"] == {"ELOI-KULU": "green"}


def test_a_hand_known_to_the_viewer_cannot_pay_other_cards(engine):
    hands = dict(HANDS, green={"cards": ["KULU", "ORO"], "public": ["KULU", "ORO"]})
    full = Position.from_json(full_doc(hands, open_=["ALOA", "BAFI"], to_move="green"), engine=engine)
    view = full.as_viewer("red")
    assert move_error(view, "green: COCO-ELOI/ELOI") == (
        "move 'green: COCO-ELOI/ELOI': green holds 2 card(s) and red knows them (KULU ORO), "
        "so green cannot pay ELOI")
    view.play("green: ORO-PAHU/ORO")  # its known ORO
    assert view.to_json() == _after(full, "green: ORO-PAHU/ORO").as_viewer("red").to_json()


def _after(full: Position, move: str) -> Position:
    full = full.copy()
    full.play(move)
    return full


def test_the_viewers_own_moves(engine):
    full, view = red_view(engine)
    assert view.legal_moves() == full.legal_moves()
    assert "take MOKU" in view.move_strings() and "draw" in view.move_strings()
    assert move_error(view, "draw") == "move 'draw': name the card red draws: 'draw CARD'"
    assert move_error(view, "draw ALOA") == (
        "move 'draw ALOA': ALOA cannot be the card drawn: red knows where every ALOA card is")
    assert move_error(view, "discard") == "move 'discard': name the card: 'discard CARD'"
    assert move_error(view, "ALOA-COCO/COCO") == "move 'ALOA-COCO/COCO': red has no COCO card"
    assert move_error(view, "faceup ALOA") == "move 'faceup ALOA': no cards wait to be turned face-up"
    view.play("draw ELOI")
    assert view.to_json()["hands"]["red"]["cards"] == ["ALOA", "ALOA", "DALI", "ELOI", "RASI"]
    assert view.to_move == "green"


def test_takes_when_the_deck_is_empty(engine):
    rest = ["ALOA", "BAFI"] + full_doc(HANDS, face_up=["KULU", "MOKU"], open_=["ALOA", "BAFI"])["deck"]
    full = Position.from_json(full_doc(HANDS, face_up=["KULU", "MOKU"], open_=rest, deck=[]), engine=engine)
    view = full.as_viewer("red")
    assert move_error(view, "take KULU refill ORO") == (
        "move 'take KULU refill ORO': the deck is empty; nothing refills the gap")
    view.play("take KULU")
    assert view.to_json()["face_up"] == ["MOKU"]


# -- waiting for face-up cards ---------------------------------------------------------------


def _setup_seen_by(viewer: str, players: int, seed: int, engine, named: bool = True):
    """A new game whose colors reveal their first possible cards in the setup (R3), and ``viewer``'s view
    following it from its records (which name the color that moves when ``named``)."""
    full = Position.new(players=players, seed=seed, engine=engine)
    view = full.as_viewer(viewer)
    for color in full.colors:
        card = full.legal_moves()[0].cards[0]
        full.play(f"reveal {card}")
        note = f"reveal {card}" if color == viewer else "reveal"
        view.play(f"{color}: {note}" if named else note)
    return full, view


def test_the_setup_ends_in_a_wait_for_the_face_up_cards(engine):
    full, view = _setup_seen_by("green", 4, 21, engine)
    assert full.round == 1 and view.round == 0
    doc = view.to_json()
    assert doc["setup"]["chosen"] == ["red", "green", "blue", "yellow"]
    assert doc["to_move"] == "red" and doc["face_up"] == []
    assert view.waiting == ("every player has chosen its card; record the 4 cards turned face-up with "
                            "'faceup CARD CARD CARD CARD' (R3)")
    with pytest.raises(WaitingError) as err:
        view.legal_moves()
    assert str(err.value) == view.waiting
    with pytest.raises(WaitingError):
        _ = view.state
    # A waiting position reads back as waiting.
    again = Position.from_json(view.dumps(), engine=engine)
    assert again.waiting == view.waiting and again.to_json() == doc
    faceup = full.to_json()["face_up"]
    assert move_error(view, "red: ALOA-BAFI/ALOA") == f"move 'red: ALOA-BAFI/ALOA': the position waits: {view.waiting}"
    assert move_error(view, "faceup " + " ".join(faceup[:3])) == (
        f"move 'faceup {' '.join(faceup[:3])}': 4 card(s) are turned face-up; name all 4")
    with pytest.raises(MoveError) as err:
        view.play("red: faceup " + " ".join(faceup))
    assert str(err.value).endswith("a 'faceup' record is no color's move; write it without a color")
    wrong = list(faceup)
    wrong[0], wrong[1] = wrong[1], wrong[0]
    assert wrong[1] != faceup[1]  # seed 21 deals red and green different chosen cards
    assert move_error(view, "faceup " + " ".join(wrong)) == (
        f"move 'faceup {' '.join(wrong)}': card 2 is green's chosen card {faceup[1]}, "
        f"not {wrong[1]}")
    for pos in (view, again):
        pos.play("faceup " + " ".join(faceup))
        assert pos.waiting is None
        assert pos.to_json() == full.as_viewer("green").to_json()


def test_three_players_top_up_the_face_up_cards_from_the_deck(engine):
    full, view = _setup_seen_by("blue", 3, 4, engine, named=False)
    faceup = full.to_json()["face_up"]
    assert len(faceup) == 4  # R3: three chosen cards and one from the deck
    view.play("faceup " + " ".join(faceup))
    assert view.to_json() == full.as_viewer("blue").to_json()


def _reshuffled(engine, deck_count):
    """Red's view just after a reshuffle (R9): round 2, nothing face-up yet, ``deck_count`` cards."""
    full = Position.from_json(full_doc(HANDS, open_=["ALOA", "BAFI"]), engine=engine)
    doc = full.as_viewer("red").to_json()
    moved = doc["face_up"]
    doc["round"] = 2
    doc["face_up"] = []
    doc["discard"]["open"] += moved
    spare = doc["deck"]["count"] - deck_count
    doc["deck"]["count"] = deck_count
    doc["discard"]["hidden"] += spare
    return doc


def test_after_a_reshuffle_the_viewer_waits_for_the_cards_turned_up(engine):
    doc = _reshuffled(engine, 10)
    view = Position.from_json(doc, engine=engine)
    assert view.waiting == "the deck turned up 4 unseen card(s); record them with 'faceup CARD CARD CARD CARD' (R9)"
    assert move_error(view, "faceup ELOI ELOI") == "move 'faceup ELOI ELOI': 4 card(s) are turned face-up; name all 4"
    assert move_error(view, "faceup ELOI ELOI ALOA COCO") == (
        "move 'faceup ELOI ELOI ALOA COCO': ALOA cannot come from the deck: red knows where every ALOA card is")
    view.play("faceup eloi eloi lani coco")
    out = view.to_json()
    assert out["face_up"] == ["ELOI", "ELOI", "LANI", "COCO"] and out["deck"] == {"count": 6}
    assert view.waiting is None and view.to_move == "red"
    assert Position.from_json(view.dumps(), engine=engine).to_json() == out


def test_a_viewer_record_of_a_card_that_did_not_go_into_the_deck_is_refused(engine):
    """docs/engine.md "What a reshuffle reveals": red saw every card of the new deck go in (nothing unseen),
    so a card turned up or drawn must be one of them; those it records come off what it knows."""
    doc = _reshuffled(engine, 10)
    went_in = ["COCO", "COCO", "ELOI", "ELOI", "HILO", "IKA", "LANI", "MOKU", "NALU", "PAHU"]
    doc["reshuffle"] = {"red": {"cards": went_in, "unseen": 0}}
    view = Position.from_json(doc, engine=engine)
    assert move_error(view, "faceup ELOI ELOI ELOI COCO") == (
        "move 'faceup ELOI ELOI ELOI COCO': ELOI cannot come from the deck: red saw every "
        "card that went into it at the reshuffle, and no ELOI is left among them")
    view.play("faceup eloi eloi lani coco")
    assert view.to_json()["reshuffle"] == {
        "red": {"cards": ["COCO", "HILO", "IKA", "MOKU", "NALU", "PAHU"], "unseen": 0}}
    with pytest.raises(MoveError) as err:
        view.play("draw LANI")
    assert "LANI cannot come from the deck: red saw every card" in str(err.value)
    view.play("draw HILO")
    assert view.to_json()["reshuffle"] == {"red": {"cards": ["COCO", "IKA", "MOKU", "NALU", "PAHU"], "unseen": 0}}


def test_a_short_deck_turns_up_fewer_cards(engine):
    view = Position.from_json(_reshuffled(engine, 2), engine=engine)
    assert view.waiting == "the deck turned up 2 unseen card(s); record them with 'faceup CARD CARD' (R9)"
    assert move_error(view, "faceup ELOI ELOI LANI") == (
        "move 'faceup ELOI ELOI LANI': 2 card(s) are turned face-up; name all 2")
    view.play("faceup ELOI LANI")
    out = view.to_json()
    assert out["face_up"] == ["ELOI", "LANI"] and out["deck"] == {"count": 0}

