"""Might of the Gods (R14) in positions: ``rules.gods``, ``gods.on_islands``, ``gods.owned``,
``hands.P.known`` and the pending ``turn`` fields read and written; every error of a bad position of the
variant with its message; the gods' notation both ways (``LINK/KANALOA``, ``ku``, ``steal``, ``pele``,
``give``, ``lono``) and every viewer record of it; viewer positions following whole games of the gods from
their own records; ``Position.new(gods=True)`` and ``show``.

The rules themselves are the engines' (docs/engine.md "Might of the Gods (R14)"); here they are only asked."""

from __future__ import annotations

import json
import random
from functools import partial

import pytest

from gods_positions import DEALT_TOKENS, RED_OWNS, god_choice, gods_doc, leftover
from kanaloa.errors import MoveError, OptionError
from kanaloa.interfaces.display import render_position
from kanaloa.position import Position
from kanaloa.position.format import render
from kanaloa.position.notation import Move
from kanaloa.rules import actions as A
from kanaloa.rules.board import board_to_dict, load_board
from kanaloa.rules.engine import load_engine
from kanaloa.rules.ruleset import make_ruleset
from kanaloa.rules.state import GOD_NAMES, GOD_TOKENS, NO_GOD
from position_helpers import DELETE, assert_canonical, move_error, position_error, put, read_back_at_every_step
from viewer_helpers import follow_game, record

ORO = load_board("oro")
REFERENCE = load_engine("reference")
CORE = load_engine("core")
GODS = make_ruleset(players=3, gods=True, board=ORO)  # red, green and blue with the gods
PLAIN = make_ruleset(players=3, board=ORO)  # the same without them
def example(viewer: str | None = None, **fields) -> Position:
    pos = Position.from_json(gods_doc(**fields), engine=REFERENCE)
    return pos if viewer is None else pos.as_viewer(viewer)


# -- the document ---------------------------------------------------------------------------------


def test_a_dealt_gods_position_is_written_as_the_interface_says(engine):
    pos = Position.new(players=4, seed=3, gods=True, engine=engine)
    doc = pos.to_json()
    assert doc["rules"] == {"preset": "yucata", "gods": True}
    assert pos.ruleset.gods is True
    on = doc["gods"]["on_islands"]
    assert list(on) == list(ORO.islands)  # R14.1: one token on each island, in the board's order
    assert sorted(on.values()) == sorted(name for name, n in zip(GOD_NAMES, GOD_TOKENS, strict=True)
                                         for _ in range(n))
    assert doc["gods"]["owned"] == {"red": [], "green": [], "blue": [], "yellow": []}
    assert all("known" not in hand for hand in doc["hands"].values())
    assert doc["turn"] == {"played": 0, "discarded": False, "remove_on": []}  # nothing pending is written
    assert Position.from_json(pos.dumps(), engine=engine).dumps() == pos.dumps()
    # The cards are dealt as without the gods (the tokens come after them from the same stream).
    plain = Position.new(players=4, seed=3, engine=engine).to_json()
    assert doc["hands"] == plain["hands"]


def test_a_position_without_the_gods_is_written_as_before():
    doc = Position.new(players=3, seed=3, engine=REFERENCE).to_json()
    assert doc["rules"] == {"preset": "yucata"} and "gods" not in doc
    explicit = Position.from_json({**doc, "rules": {"preset": "yucata", "gods": False}}, engine=REFERENCE)
    assert explicit.dumps() == Position.from_json(doc, engine=REFERENCE).dumps() and explicit.ruleset.gods is False


def test_the_hand_written_example_reads_and_writes_back_canonically():
    doc = gods_doc()
    pos = Position.from_json(doc, engine=REFERENCE)
    out = pos.to_json()
    assert out["gods"] == doc["gods"]
    assert out["hands"]["green"] == {"cards": ["DALI", "ELOI"], "public": ["ELOI"], "known": {"blue": ["DALI", "ELOI"]}}
    assert "known" not in out["hands"]["red"] and "known" not in out["hands"]["blue"]
    data = pos.state.to_data()
    assert data.gods_owned[0] == [0, 1, 1, 1, 1]  # KANE is never owned (R14.3)
    assert data.god_on[ORO.find_island("COCO")] == NO_GOD
    assert data.known[2][1] == data.hands[1] and data.known[0][1] == data.public[1]
    # Tokens and islands in any case, players in any order; written canonically.
    messy = gods_doc()
    messy["gods"] = {"owned": {"blue": [], "red": ["lono", "Ku", "kanaloa", "PELE"]},
                     "on_islands": {k.lower(): v.lower() for k, v in reversed(doc["gods"]["on_islands"].items())}}
    assert Position.from_json(messy, engine=REFERENCE).dumps() == pos.dumps()


def test_known_equal_to_public_is_not_written():
    doc = gods_doc()
    doc["hands"]["green"]["known"] = {"blue": ["ELOI"], "red": ["ELOI"]}
    out = Position.from_json(doc, engine=REFERENCE).to_json()
    assert "known" not in out["hands"]["green"]


def test_the_pending_turn_fields_read_and_write_back():
    doc = gods_doc(turn={"played": 0, "discarded": False, "remove_on": [], "pele_gifts": ["green", "blue"]})
    doc["hands"]["red"]["cards"] += ["DALI", "FALU"]  # the two cards PELE took
    doc["hands"]["green"] = {"cards": ["ELOI"], "public": [], "known": {"red": ["ELOI"]}}
    doc["hands"]["blue"] = {"cards": ["GUMO", "HILO"], "public": []}
    doc["deck"] = leftover(doc)
    pos = Position.from_json(doc, engine=REFERENCE)
    assert pos.to_json()["turn"] == doc["turn"]
    assert pos.move_strings() == [f"give green {card}" for card in ("ALOA", "BAFI", "COCO", "DALI", "FALU")]
    for turn in ({"ku_target": "green"}, {"lono_draw": True}, {"over_limit": True}):
        doc = gods_doc(turn={"played": 0, "discarded": False, "remove_on": [], **turn})
        if "ku_target" in turn:  # KU has just shown red green's hand
            doc["hands"]["green"]["known"]["red"] = ["DALI", "ELOI"]
        pos = Position.from_json(doc, engine=REFERENCE)
        assert pos.to_json()["turn"] == doc["turn"], turn
        assert Position.from_json(pos.dumps(), engine=REFERENCE).dumps() == pos.dumps()
    assert example(turn={"played": 0, "discarded": False, "remove_on": [], "lono_draw": True}).move_strings() == [
        "take IKA", "take KULU", "take LANI", "take MOKU", "draw"]


def test_a_viewer_position_holds_the_viewers_knowledge_alone():
    full = example()
    blue = full.as_viewer("blue").to_json()
    assert blue["hands"]["green"] == {"count": 2, "public": ["ELOI"], "known": {"blue": ["DALI", "ELOI"]}}
    assert blue["gods"] == full.to_json()["gods"]  # the tokens are public (R14.1)
    red = full.as_viewer("red").to_json()
    assert red["hands"]["green"] == {"count": 2, "public": ["ELOI"]}
    for doc in (blue, red):
        again = Position.from_json(doc, engine=REFERENCE)
        assert again.to_json() == doc


def test_positions_of_the_gods_round_trip_through_whole_games(engine):
    """Full and viewer positions read back to themselves at every step of games that use the tokens."""
    seen = set()
    for seed, players in ((5, 3), (6, 2)):
        rng = random.Random(seed)
        full = Position.new(players=players, seed=seed, gods=True, engine=engine)
        for pos in read_back_at_every_step(full, partial(god_choice, rng, share=0.8)):
            turn = pos.to_json().get("turn", {})
            seen |= {key for key in ("ku_target", "pele_gifts", "lono_draw", "over_limit") if key in turn}
            seen |= {"known"} if any("known" in h for h in pos.to_json()["hands"].values()) else set()
    assert seen == {"ku_target", "pele_gifts", "lono_draw", "over_limit", "known"}


# -- bad positions ------------------------------------------------------------------------------------


def _hand(color, cards, **rest):
    def change(doc):
        doc["hands"][color] = {"cards": cards, **rest}
        doc["deck"] = leftover(doc)
        return doc
    return change


def _turn(**fields):
    return put("turn", {"played": 0, "discarded": False, "remove_on": [], **fields})


def _two_players(doc):
    doc.update(players=["red", "green"], colors={"red": ["red", "blue"], "green": ["green", "yellow"]},
               scores={"red": 0, "blue": 0, "green": 0, "yellow": 0})
    doc["gods"]["owned"] = {"red": list(RED_OWNS), "green": []}
    doc["hands"] = {"red": {"cards": ["ALOA"]}, "green": {"cards": ["DALI"]}}
    doc["discard"]["hidden_by"] = {"red": [], "green": []}
    doc["deck"] = leftover(doc)
    return doc


def _kanaloa_board(tmp_path):
    """A board file like oro whose island COCO is called KANALOA."""
    board = board_to_dict(ORO)
    text = json.dumps(board).replace('"COCO"', '"KANALOA"').replace("COCO-", "KANALOA-").replace("-COCO", "-KANALOA")
    path = tmp_path / "kanaloa-board.json"
    path.write_text(text)
    return str(path)


# (change to the example, message): the format's own checks (step 1 of kanaloa.position.format).
FORMAT_ERRORS = [
    (put("rules.gods", "yes"), "rules.gods: 'yes' must be true (Might of the Gods, R14) or false"),
    (put("rules.gods", 1), "rules.gods: 1 must be true (Might of the Gods, R14) or false"),
    (put("board", "kahuna"), "board: Might of the Gods lays one of its 16 god tokens on each island (R14.1); the "
                              "board has 12 islands"),
    (put("gods", DELETE), "gods: missing; a game of Might of the Gods gives its tokens, {\"on_islands\": {ISLAND: "
                           "TOKEN, ...}, \"owned\": {PLAYER: [TOKEN, ...], ...}} (R14.1, R14.2)"),
    (put("gods", []), "gods: must be an object, not []"),
    (put("gods.used", []), "gods.used: unknown field (gods has on_islands, owned)"),
    (put("gods.on_islands", ["KANE"]), "gods.on_islands: must be an object mapping islands to the token on each, "
                                        "not ['KANE']"),
    (put("gods.on_islands.ATLANTIS", "KANE"), "gods.on_islands.ATLANTIS: not an island of board oro"),
    (put("gods.on_islands.aloa", "KANE"), "gods.on_islands.aloa: ALOA is given twice"),
    (put("gods.on_islands.ALOA", "THOR"), "gods.on_islands.ALOA: 'THOR' is not a god token (KANE, KANALOA, KU, "
                                           "PELE, LONO)"),
    (put("gods.on_islands.ALOA", None), "gods.on_islands.ALOA: None is not a god token (KANE, KANALOA, KU, PELE, "
                                         "LONO)"),
    (put("gods.on_islands.ELOI", "KANE"), "gods.on_islands: 9 KANE tokens; the game has 8 (R14.1)"),
    (put("gods.owned", ["KU"]), "gods.owned: must be an object mapping players to the tokens each owns, not ['KU']"),
    (put("gods.owned.yellow", []), "gods.owned.yellow: 'yellow' is not playing (the colors are red, green, blue)"),
    (put("gods.owned.green", "KU"), "gods.owned.green: must be a list of tokens, not 'KU'"),
    (put("gods.owned.green", ["ZEUS"]), "gods.owned.green: 'ZEUS' is not a god token (KANE, KANALOA, KU, PELE, "
                                         "LONO)"),
    (put("gods.owned.green", ["KANE"]), "gods.owned.green: KANE is never owned: it scores when it is claimed and "
                                         "leaves the game (R14.3)"),
    (put("gods.owned.green", ["LONO", "LONO", "LONO"]), "gods.owned.green: 3 LONO tokens; the game has 2 (R14.1)"),
    (put("hands.green.known", ["DALI"]), "hands.green.known: must be an object mapping observers to the cards each "
                                          "knows, not ['DALI']"),
    (put("hands.green.known.yellow", []), "hands.green.known.yellow: 'yellow' is not playing (the colors are red, "
                                           "green, blue)"),
    (put("hands.green.known.green", ["ELOI"]), "hands.green.known.green: green sees its own hand; 'known' holds "
                                                "what the others know of it (R14.10)"),
    (put("hands.green.known.red", []), "hands.green.known.red: [] lacks public cards of ['ELOI']; what every player "
                                        "knows, red knows too (R14.10)"),
    (put("hands.green.known.red", ["DALI", "DALI", "ELOI"]), "hands.green.known.red: ['DALI', 'DALI', 'ELOI'] is "
                                                              "not part of the cards ['DALI', 'ELOI'] (R14.10)"),
    (put("hands.green.known.red", ["ATLANTIS"]), "hands.green.known.red: 'ATLANTIS' is not an island of board oro"),
    (_turn(ku_target="purple"), "turn.ku_target: 'purple' is not playing (the colors are red, green, blue)"),
    (_turn(ku_target=None), "turn.ku_target: None is not playing (the colors are red, green, blue)"),
    (_turn(pele_gifts="green"), "turn.pele_gifts: must be a list of colors, not 'green'"),
    (_turn(pele_gifts=["green", "green"]), "turn.pele_gifts: ['green', 'green'] names a color twice"),
    (_turn(lono_draw="yes"), "turn.lono_draw: 'yes' must be true or false"),
    (_turn(over_limit=None), "turn.over_limit: None must be true or false"),
    (_turn(lono=True), "turn.lono: unknown field (turn has played, discarded, remove_on, ku_target, pele_gifts, "
                       "lono_draw, over_limit)"),
]


@pytest.mark.parametrize("change, message", FORMAT_ERRORS)
def test_a_bad_gods_position_names_the_field_and_why(change, message):
    assert position_error(change(gods_doc())) == message


def test_lono_with_nothing_to_take_is_refused():
    doc = gods_doc(face_up=[], turn={"played": 0, "discarded": False, "remove_on": [], "lono_draw": True})
    doc["discard"]["open"] += [*doc.pop("deck"), "IKA", "KULU", "LANI", "MOKU"]
    doc["deck"] = []
    assert position_error(doc) == ("turn.lono_draw: LONO's extra card is due, but the deck and the face-up cards are "
                                   "empty; LONO is used only when there is a card to take (R14.8)")


def test_a_board_with_an_island_called_kanaloa_is_refused(tmp_path):
    doc = gods_doc(board=_kanaloa_board(tmp_path))
    assert position_error(doc) == ("board: an island is called KANALOA, the name of a god token: a build could not say "
                                   "which it pays (R14.5)")


@pytest.mark.parametrize("field, message", [
    ("gods", "gods: only a game of Might of the Gods has god tokens (R14): its rules say \"gods\": true"),
    ("known", "hands.green.known: only a game of Might of the Gods keeps what each player knows of a hand beyond "
              "'public' (R14.10)"),
    ("ku_target", "turn.ku_target: only a game of Might of the Gods has a token's action pending (R14.6): its rules "
                  "say \"gods\": true"),
    ("pele_gifts", "turn.pele_gifts: only a game of Might of the Gods has a token's action pending (R14.7): its "
                   "rules say \"gods\": true"),
    ("lono_draw", "turn.lono_draw: only a game of Might of the Gods has a token's action pending (R14.8): its rules "
                  "say \"gods\": true"),
    ("over_limit", "turn.over_limit: only a game of Might of the Gods has a token's action pending (R14.9): its "
                   "rules say \"gods\": true"),
])
def test_the_fields_of_the_gods_in_a_game_without_them_say_whose_they_are(field, message):
    doc = gods_doc(rules={"preset": "yucata"})
    if field != "gods":
        del doc["gods"]
    if field in ("ku_target", "pele_gifts", "lono_draw", "over_limit"):
        doc["turn"][field] = {"ku_target": "green", "pele_gifts": ["green"]}.get(field, True)
    if field != "known":
        del doc["hands"]["green"]["known"]
    assert position_error(doc) == message


def test_the_gods_in_kahuna_are_refused():
    doc = {"format": "kanaloa-position/1", "game": "kahuna", "board": "kahuna", "rules": {"gods": True},
           "players": ["white", "black"], "to_move": "white", "round": 1, "hands": {}, "face_up": [], "deck": []}
    assert position_error(doc) == "rules.gods: Might of the Gods is a variant of Kanaloa, not of Kahuna (R14, R16.9)"


def test_a_viewer_position_names_no_other_observers_knowledge():
    doc = example("red").to_json()
    doc["hands"]["green"]["known"] = {"blue": ["ELOI"]}
    assert position_error(doc) == ("hands.green.known.blue: red's position holds what red knows, not what blue knows "
                                   "(R14.10)")
    doc = example("red").to_json()
    doc["hands"]["red"]["known"] = {"green": ["ALOA"]}
    assert position_error(doc) == ("hands.red.known.green: red's position holds what red knows, not what green knows "
                                   "(R14.10)")
    doc = example("blue").to_json()
    doc["hands"]["green"]["known"]["blue"] = ["DALI", "ELOI", "GUMO"]
    assert position_error(doc) == "hands.green.known.blue: 3 known cards in a hand of 2 (R14.10)"
    doc["hands"]["green"]["known"]["blue"] = ["DALI", "DALI", "DALI", "DALI", "ELOI"]
    doc["hands"]["green"]["count"] = 5
    assert position_error(doc) == "cards: the position holds 4 DALI cards; board oro has 3 of each island"


def test_two_players_own_tokens_as_players():
    pos = Position.from_json(_two_players(gods_doc()), engine=REFERENCE)
    assert pos.to_json()["gods"]["owned"] == {"red": list(RED_OWNS), "green": []}
    doc = _two_players(gods_doc())
    doc["gods"]["owned"]["blue"] = []
    assert position_error(doc) == (
        "gods.owned.blue: blue is red's second color; a player is named by its first color, red "
        "(R15.1)")
    doc = _two_players(gods_doc())
    doc["hands"]["green"]["known"] = {"blue": []}
    assert position_error(doc) == ("hands.green.known.blue: blue is red's second color; a player is named by its first "
                                   "color, red (R15.1)")


# What no game of the variant reaches (the reference's why_unreachable): the field, and the rule it cites.
UNREACHABLE = [
    (_turn(ku_target="red"), "turn.ku_target: ", "R14.6"),
    (_turn(ku_target="green"), "hands.green.known: ", "R14.6"),  # KU has shown red the whole hand
    (_turn(ku_target="green", lono_draw=True), "turn.ku_target: ", "R14.4"),
    (_turn(pele_gifts=["blue", "green"]), "turn.pele_gifts: ", "R14.7"),
    (_turn(pele_gifts=["red"]), "turn.pele_gifts: ", "R14.7"),
    (_turn(discarded=True, lono_draw=True), "turn.lono_draw: ", "R14.4"),
    (lambda d: _turn(lono_draw=True)(d) | {"round": 1}, "turn.lono_draw: ", "R14.4"),
    (put("gods.owned.green", ["KU", "KU"]), "gods: ", "R14.1"),
    (put("bridges", {"ALOA-COCO": "red", "ALOA-DALI": "red", "ALOA-ELOI": "red"}), "gods.on_islands: ", "R14.2"),
    (_hand("red", ["ALOA", "BAFI", "COCO", "DALI", "ELOI", "FALU"]), "hands.red: ", "R4"),
    (lambda d: d.update(round=1, gods={"on_islands": {k: v for k, v in DEALT_TOKENS.items() if k != "BAFI"},
                                       "owned": {}}) or d, "gods.owned: ", "R14.4"),  # a KU used in round 1
]


@pytest.mark.parametrize("change, field, rule", UNREACHABLE)
def test_an_unreachable_gods_position_names_the_field_and_the_rule(change, field, rule):
    message = position_error(change(gods_doc()))
    assert message.startswith(field) and f"{rule}" in message, message


def test_a_hand_above_five_is_reachable_while_a_token_lifts_the_limit():
    doc = _hand("red", ["ALOA", "BAFI", "COCO", "DALI", "FALU", "GUMO"])(gods_doc())
    doc["turn"]["over_limit"] = True
    pos = Position.from_json(doc, engine=REFERENCE)
    assert "discard ALOA" in pos.move_strings() and "draw" not in pos.move_strings()  # R14.9


# -- notation -------------------------------------------------------------------------------------------


# (text as typed, canonical notation)
GOD_MOVES = [
    ("ALOA-BAFI/KANALOA", "ALOA-BAFI/KANALOA"),
    ("bafi-aloa/kanaloa", "ALOA-BAFI/KANALOA"),
    ("ALOA-BAFI/KANALOA+BAFI", "ALOA-BAFI/KANALOA+BAFI"),
    ("ALOA-BAFI/bafi+Kanaloa", "ALOA-BAFI/KANALOA+BAFI"),
    ("ALOA-BAFI/KANALOA+ALOA", "ALOA-BAFI/KANALOA+ALOA"),
    ("ALOA-BAFI/KANALOA+KANALOA", "ALOA-BAFI/KANALOA+KANALOA"),
    ("blue: ALOA-BAFI/KANALOA", "blue: ALOA-BAFI/KANALOA"),
    ("ku green", "ku green"),
    ("KU Green", "ku green"),
    ("red: ku green", "red: ku green"),
    ("ku green sees rasi aloa ORO aloa", "ku green sees ALOA ALOA ORO RASI"),
    ("steal ALOA", "steal ALOA"),
    ("steal", "steal"),
    ("red: steal", "red: steal"),
    ("pele", "pele"),
    ("red: pele", "red: pele"),
    ("pele takes green:aloa blue:KULU", "pele takes green:ALOA blue:KULU"),
    ("pele takes blue:KULU green:ALOA", "pele takes blue:KULU green:ALOA"),
    ("red: pele takes aloa", "red: pele takes ALOA"),
    ("give green ORO", "give green ORO"),
    ("red: give green", "red: give green"),
    ("lono", "lono"),
    ("LONO", "lono"),
]


@pytest.mark.parametrize("text, canonical", GOD_MOVES)
def test_every_gods_form_reads_and_prints_canonically(text, canonical):
    assert_canonical(text, canonical, GODS)


PLAYERS = GODS.seat_names  # red, green, blue


@pytest.mark.parametrize("text, action", [
    ("ALOA-BAFI/KANALOA", A.encode(A.PLACE, 0, A.JOKER)),
    ("ALOA-BAFI/KANALOA+ALOA", A.encode(A.SWAP, 0, A.SWAP_JA)),
    ("ALOA-BAFI/KANALOA+BAFI", A.encode(A.SWAP, 0, A.SWAP_JB)),
    ("ALOA-BAFI/KANALOA+KANALOA", A.encode(A.SWAP, 0, A.SWAP_JJ)),
    ("ku blue", A.encode(A.KU, 2)),
    ("steal ORO", A.encode(A.STEAL, ORO.find_island("ORO"))),
    ("pele", A.encode(A.PELE)),
    ("give green ORO", A.encode(A.GIVE, ORO.find_island("ORO"), 1)),
    ("lono", A.encode(A.LONO)),
])
def test_a_gods_move_is_its_action_code_and_back(text, action):
    move = Move.parse(text, GODS)
    assert move.to_action(GODS, 0) == action
    assert str(Move.from_action(action, GODS, 0)) == text


def test_the_records_are_the_actions_of_their_moves():
    def code(text):
        return Move.parse(text, GODS).to_action(GODS, 0)

    assert code("ku green sees ALOA ORO") == code("ku green")
    assert code("pele takes green:ALOA blue:KULU") == code("pele takes ALOA") == code("pele")
    for text in ("steal", "give green"):
        with pytest.raises(MoveError) as err:
            code(text)
        assert str(err.value) == f"move '{text}': names no card, so it is no action"


def test_a_two_player_kanaloa_build_carries_its_color():
    two = make_ruleset(players=2, gods=True, board=ORO)  # red plays red and blue (R15.1)
    move = Move.parse("blue: ALOA-BAFI/KANALOA+BAFI", two)
    action = move.to_action(two, 0)
    assert A.build_slot(action) == 1 and A.build_arg(action) == A.SWAP_JB
    assert str(Move.from_action(action, two, seat=0)) == "blue: ALOA-BAFI/KANALOA+BAFI"
    with pytest.raises(MoveError) as err:
        Move.parse("ALOA-BAFI/KANALOA", two).to_action(two, 0)
    assert str(err.value) == "move 'ALOA-BAFI/KANALOA': a build of a 2-player game names its color, red or blue (R15.3)"


def test_players_other_than_the_default_colors_are_named_by_the_position():
    rules = make_ruleset(players=3, gods=True, board=ORO, colors="yellow,red,blue")
    assert str(Move.from_action(A.encode(A.KU, 1), rules)) == "ku red"
    assert Move.parse("give yellow ALOA", rules).to_action(rules, 1) == A.encode(A.GIVE, 0, 0)
    with pytest.raises(MoveError) as err:
        Move.parse("ku green", rules).to_action(rules, 1)
    assert str(err.value) == "move 'ku green': green is not playing (the players are yellow, red, blue)"
    with pytest.raises(MoveError) as err:
        Move.from_action(A.encode(A.KU, 3), rules)
    assert str(err.value) == f"action {A.encode(A.KU, 3)}: no player 3 (the players are yellow, red, blue)"


@pytest.mark.parametrize("text, message", [
    ("ku", "'ku' names a player: 'ku COLOR' (or the user's record 'ku COLOR sees CARD ...')"),
    ("ku purple", "unknown color 'purple' after 'ku' (the colors are red, green, blue, yellow)"),
    ("ku green ALOA", "expected 'ku COLOR' (or the user's record 'ku COLOR sees CARD ...')"),
    ("ku green sees", "expected 'ku COLOR' (or the user's record 'ku COLOR sees CARD ...')"),
    ("ku green sees ATLANTIS", "unknown island 'ATLANTIS' on board oro"),
    ("steal ALOA ORO", "'steal' names one card, the card taken from the hand KU showed: 'steal CARD' (R14.6)"),
    ("steal KANALOA", "KANALOA is a god token, not a card: it pays a place or a swap only (R14.5)"),
    ("pele now", "expected 'pele', the user's record 'pele takes COLOR:CARD ...' or a victim's 'pele takes CARD' "
                 "(R14.7)"),
    ("pele takes", "expected 'pele', the user's record 'pele takes COLOR:CARD ...' or a victim's 'pele takes CARD' "
                   "(R14.7)"),
    ("pele takes ALOA ORO", "'ALOA': the user's record names each player and the card taken from it, 'COLOR:CARD' "
                            "(R14.7)"),
    ("pele takes green:", "'green:': the user's record names each player and the card taken from it, 'COLOR:CARD' "
                          "(R14.7)"),
    ("pele takes purple:ALOA", "unknown color 'purple' after 'pele' (the colors are red, green, blue, yellow)"),
    ("pele takes green:ALOA green:ORO", "green is named twice; PELE takes one card from each player (R14.7)"),
    ("give", "'give' names a player: 'give COLOR CARD' (or another player's gift, unseen: 'give COLOR')"),
    ("give ORO", "unknown color 'ORO' after 'give' (the colors are red, green, blue, yellow)"),
    ("give green ORO ALOA", "'give' names a player and one card: 'give COLOR CARD' (or another player's gift, "
                            "unseen: 'give COLOR')"),
    ("lono draw", "'lono' takes nothing after it; LONO's extra card is the next move, 'take CARD' or 'draw' (R14.8)"),
    ("ALOA-BAFI/KANALOA+KANALOA+ALOA", "a swap needs two cards, not 3 ('KANALOA+KANALOA+ALOA')"),
    ("ALOA-BAFI/KANALOA+ORO", "each swap card must name an end of the link (ALOA or BAFI), not ORO"),
    ("remove ALOA-BAFI/KANALOA", "a removal after a relative majority (R7) pays no card: write 'remove ALOA-BAFI' (a "
                                 "removal paying two cards is Kahuna's, R16.3)"),
    ("take KANALOA", "KANALOA is a god token, not a card: it pays a place or a swap only (R14.5)"),
])
def test_malformed_gods_moves_are_refused_with_the_reason(text, message):
    with pytest.raises(MoveError) as err:
        Move.parse(text, GODS)
    assert str(err.value) == f"move {text!r}: {message}"


@pytest.mark.parametrize("text, message", [
    ("ku green", "'ku' uses a god token of Might of the Gods (R14.6); this game is played without the gods"),
    ("steal ALOA", "'steal' uses a god token of Might of the Gods (R14.6); this game is played without the gods"),
    ("pele", "'pele' uses a god token of Might of the Gods (R14.7); this game is played without the gods"),
    ("give green ORO", "'give' uses a god token of Might of the Gods (R14.7); this game is played without the gods"),
    ("lono", "'lono' uses a god token of Might of the Gods (R14.8); this game is played without the gods"),
    ("ALOA-BAFI/KANALOA", "KANALOA is a god token of Might of the Gods (R14.5), not an island; this game is played "
                          "without the gods"),
    ("ALOA-BAFI/KANALOA+BAFI", "KANALOA is a god token of Might of the Gods (R14.5), not an island; this game is "
                               "played without the gods"),
])
def test_a_game_without_the_gods_refuses_their_moves(text, message):
    with pytest.raises(MoveError) as err:
        Move.parse(text, PLAIN)
    assert str(err.value) == f"move {text!r}: {message}"
    pos = Position.new(players=3, seed=1, engine=REFERENCE)
    assert move_error(pos, text) == f"move {text!r}: {message}"


def test_kahuna_refuses_the_gods_moves():
    with pytest.raises(MoveError) as err:
        Move.parse("lono", make_ruleset("kahuna"))
    assert str(err.value) == ("move 'lono': 'lono' uses a god token of Might of the Gods (R14.8); Kahuna has no god "
                              "tokens: Might of the Gods is a variant of Kanaloa (R14, R16.9)")


# -- playing in full positions ---------------------------------------------------------------------------


def test_the_tokens_are_used_in_a_full_position():
    pos = example()
    pos.play("ku green")
    assert pos.to_json()["turn"]["ku_target"] == "green"
    assert pos.to_json()["hands"]["green"]["known"] == {"red": ["DALI", "ELOI"], "blue": ["DALI", "ELOI"]}
    assert pos.move_strings() == ["steal DALI", "steal ELOI"]
    pos.play("steal DALI")
    out = pos.to_json()
    assert out["hands"]["red"]["cards"] == ["ALOA", "BAFI", "COCO", "DALI"]
    assert out["hands"]["red"]["known"] == {"green": ["DALI"]}  # the victim saw which card (R14.10)
    assert out["hands"]["green"] == {"cards": ["ELOI"], "public": [], "known": {"red": ["ELOI"]}}
    assert "ku_target" not in out["turn"] and out["gods"]["owned"]["red"] == ["KANALOA", "PELE", "LONO"]
    pos.play("pele")  # R14.7: one card from each other player, drawn from the seed
    assert pos.to_json()["turn"]["pele_gifts"] == ["green", "blue"] and pos.state.to_data().hand_size(0) == 6
    pos.play("give green ALOA")
    assert pos.to_json()["turn"]["pele_gifts"] == ["blue"]
    pos.play("give blue BAFI")
    turn = pos.to_json()["turn"]
    assert "pele_gifts" not in turn and "over_limit" not in turn  # the hand is back to 4 (R14.9)
    pos.play("lono")
    assert pos.to_json()["turn"]["lono_draw"] is True
    pos.play("take IKA")
    assert "lono_draw" not in pos.to_json()["turn"] and pos.to_move == "red"  # the turn goes on (R14.8)
    pos.play("ALOA-COCO/KANALOA")
    out = pos.to_json()
    assert out["gods"]["owned"]["red"] == [] and out["bridges"]["ALOA-COCO"] == "red"
    assert out["turn"]["played"] == 0  # KANALOA is no card from the hand (R14.5)


@pytest.mark.parametrize("moves, move, message", [
    ([], "ku green sees DALI ELOI", "this position knows every hand; write 'ku green'"),
    ([], "pele takes green:DALI blue:FALU", "this position draws PELE's takes from its seed (R14.7); write 'pele'"),
    (["ku green"], "steal", "name the card: 'steal CARD'"),
    (["pele"], "give green", "name the card: 'give green CARD'"),
    ([], "steal", "no KU is pending: 'steal' takes a card from the hand a KU showed (R14.6)"),
    ([], "give green", "no PELE gift is pending: 'give' hands a card back after PELE (R14.7)"),
    ([], "ku yellow", "yellow is not playing (the players are red, green, blue)"),
    ([], "ku red", "red cannot use KU on itself: it names another player (R14.6)"),
    ([], "pele takes green:ALOA", "this position draws PELE's takes from its seed (R14.7); write 'pele'"),
    (["ku green"], "steal ALOA", "green has no ALOA card (R14.6)"),
])
def test_records_and_illegal_token_moves_in_a_full_position(moves, move, message):
    pos = example()
    for done in moves:
        pos.play(done)
    assert move_error(pos, move) == f"move {move!r}: {message}"


def test_a_two_player_game_names_players_in_token_moves():
    pos = Position.from_json(_two_players(gods_doc()), engine=REFERENCE)
    assert "ku green" in pos.move_strings()
    assert "red: ALOA-BAFI/KANALOA" not in pos.move_strings()  # red already has a bridge there
    assert {"red: ALOA-COCO/KANALOA", "blue: ALOA-COCO/KANALOA"} <= set(pos.move_strings())
    assert move_error(pos, "ku yellow") == ("move 'ku yellow': yellow is green's second color; a player is named by "
                                            "its first color, green (R15.1)")
    assert move_error(pos, "ALOA-COCO/KANALOA") == ("move 'ALOA-COCO/KANALOA': a build of a 2-player game names its "
                                                    "color: 'red: ALOA-COCO/KANALOA' or 'blue: ALOA-COCO/KANALOA' "
                                                    "(R15.3)")
    pos.play("blue: ALOA-COCO/KANALOA")
    assert pos.to_json()["turn"]["color"] == "blue" and pos.to_json()["turn"]["played"] == 0  # R14.5
    pos.play("ku green")
    pos.play("steal DALI")
    assert pos.to_json()["hands"]["red"]["cards"] == ["ALOA", "DALI"]


# -- viewer records -----------------------------------------------------------------------------------------


def _full_after(moves, **fields):
    pos = example(**fields)
    for move in moves:
        pos.play(move)
    return pos.state.to_data()


def test_ku_as_its_user_sees_it():
    view = example("red")
    assert move_error(view, "ku green") == ("move 'ku green': name the cards red sees in green's hand: 'ku green sees "
                                            "CARD ...' (R14.6)")
    assert move_error(view, "ku green sees ELOI") == ("move 'ku green sees ELOI': green holds 2 card(s); KU shows "
                                                      "them all, not 1 (R14.6)")
    assert move_error(view, "ku green sees DALI ORO") == ("move 'ku green sees DALI ORO': red knows that green's hand "
                                                          "holds ELOI, and the cards named lack ELOI (R14.10)")
    assert move_error(view, "ku green sees ELOI NALU") == ("move 'ku green sees ELOI NALU': green cannot hold 1 NALU "
                                                           "card: red knows where every other NALU card is")
    view.play("ku green sees DALI ELOI")
    assert view.to_json()["hands"]["green"] == {"count": 2, "public": ["ELOI"], "known": {"red": ["DALI", "ELOI"]}}
    assert view.move_strings() == ["steal DALI", "steal ELOI"]
    assert move_error(view, "steal") == "move 'steal': name the card red takes: 'red: steal CARD' (R14.6)"
    assert move_error(view, "steal ORO") == "move 'steal ORO': green has no ORO card (R14.6)"
    view.play("steal DALI")
    out = view.to_json()
    assert out["hands"]["red"]["cards"] == ["ALOA", "BAFI", "COCO", "DALI"]
    assert out["hands"]["green"] == {"count": 1, "public": [], "known": {"red": ["ELOI"]}}
    assert out == render(view.ruleset, _full_after(["ku green", "steal DALI"]), 0)


def test_ku_as_its_victim_and_a_third_player_see_it():
    green = example("green")
    assert move_error(green, "red: ku green sees DALI ELOI") == (
        "move 'red: ku green sees DALI ELOI': only the user of KU sees the hand; green writes 'red: ku green' (R14.6)")
    green.play("red: ku green")
    assert move_error(green, "red: steal") == "move 'red: steal': name the card red takes: 'red: steal CARD' (R14.6)"
    assert move_error(green, "red: steal ORO") == "move 'red: steal ORO': green has no ORO card (R14.6)"
    green.play("red: steal DALI")
    out = green.to_json()
    assert out["hands"]["green"]["cards"] == ["ELOI"]
    assert out["hands"]["red"] == {"count": 4, "public": [], "known": {"green": ["DALI"]}}
    assert out == render(green.ruleset, _full_after(["ku green", "steal DALI"]), 1)
    blue = example("blue")
    blue.play("red: ku green")
    assert move_error(blue, "red: steal DALI") == (
        "move 'red: steal DALI': blue does not see which card red takes from green; write 'red: steal' (R14.10)")
    blue.play("red: steal")
    out = blue.to_json()
    assert out["hands"]["green"] == {"count": 1, "public": []}  # one fewer of every island known (R14.10)
    assert out == render(blue.ruleset, _full_after(["ku green", "steal DALI"]), 2)


def _pele_takes():
    """The cards the full example's PELE takes from green and from blue (drawn from its seed)."""
    pos = example()
    before = pos.state.to_data().hands
    pos.play("pele")
    after = pos.state.to_data().hands
    taken = [next(ORO.islands[x] for x in range(16) if after[s][x] < before[s][x]) for s in (1, 2)]
    return taken, pos.state.to_data()


def test_pele_as_its_user_sees_it():
    (from_green, from_blue), full = _pele_takes()
    view = example("red")
    assert move_error(view, "pele") == ("move 'pele': name the card PELE takes from each player who holds one: 'pele "
                                        "takes green:CARD blue:CARD' (R14.7)")
    assert move_error(view, f"pele takes green:{from_green}") == (
        f"move 'pele takes green:{from_green}': PELE also takes a card from blue; name each: 'pele takes green:CARD "
        f"blue:CARD' (R14.7)")
    assert move_error(view, "pele takes red:ALOA") == ("move 'pele takes red:ALOA': PELE takes from the other players, "
                                                       "not from red (R14.7)")
    assert move_error(view, "pele takes yellow:ALOA") == ("move 'pele takes yellow:ALOA': yellow is not playing (the "
                                                          "players are red, green, blue)")
    view.play(f"pele takes blue:{from_blue} green:{from_green}")  # any order
    assert view.to_json() == render(view.ruleset, full, 0)
    assert view.to_json()["turn"]["pele_gifts"] == ["green", "blue"]
    assert view.move_strings()[0].startswith("give green ")


def test_pele_takes_what_the_viewer_knows_is_there():
    view = example("red")
    # Red knows nothing of blue's hand but its size: any card red cannot place may be taken from it.
    view.play("pele takes green:ELOI blue:PAHU")
    assert view.to_json()["hands"]["red"]["cards"] == ["ALOA", "BAFI", "COCO", "ELOI", "PAHU"]
    view = example("red")
    assert move_error(view, "pele takes green:ELOI blue:NALU") == (
        "move 'pele takes green:ELOI blue:NALU': blue cannot hold a NALU card: red knows where every NALU card is")


def test_pele_as_a_victim_and_as_a_player_without_cards_see_it():
    (from_green, from_blue), full = _pele_takes()
    green = example("green")
    assert move_error(green, "red: pele") == ("move 'red: pele': green sees the card PELE takes from it, and only that "
                                              "one: write 'red: pele takes CARD' (R14.7, R14.10)")
    assert move_error(green, "red: pele takes green:DALI blue:FALU") == (
        "move 'red: pele takes green:DALI blue:FALU': green sees the card PELE takes from it, and only that one: write "
        "'red: pele takes CARD' (R14.7, R14.10)")
    assert move_error(green, "red: pele takes ORO") == "move 'red: pele takes ORO': green holds no ORO card for PELE " \
                                                       "to take"
    green.play(f"red: pele takes {from_green}")
    assert green.to_json() == render(green.ruleset, full, 1)
    blue = example("blue")
    blue.play(f"red: pele takes {from_blue}")
    assert blue.to_json() == render(blue.ruleset, full, 2)
    # A player without cards is no victim and sees none of the takes.
    empty = Position.from_json(_hand("blue", [])(gods_doc()), engine=REFERENCE).as_viewer("blue")
    assert move_error(empty, "red: pele takes ALOA") == ("move 'red: pele takes ALOA': blue holds no card, so PELE "
                                                         "takes none from it and it sees none of the takes; write "
                                                         "'red: pele' (R14.10)")
    empty.play("red: pele")
    out = empty.to_json()
    assert out["hands"]["red"]["count"] == 4 and out["hands"]["green"]["count"] == 1
    assert out["turn"]["pele_gifts"] == ["green"]


def test_gifts_as_the_giver_the_receiver_and_a_third_player_see_them():
    (from_green, from_blue), _ = _pele_takes()
    pele_records = {"red": f"pele takes green:{from_green} blue:{from_blue}", "green": f"red: pele takes {from_green}",
                    "blue": f"red: pele takes {from_blue}"}
    full = example()
    full.play("pele")
    full.play("give green ALOA")
    views = {}
    for color in PLAYERS:
        view = example(color)
        view.play(pele_records[color])
        views[color] = view
    assert move_error(views["red"], "give green") == "move 'give green': name the card red gives: 'red: give green " \
                                                     "CARD' (R14.7)"
    assert move_error(views["red"], "give blue ALOA") == ("move 'give blue ALOA': PELE's gifts go in seat order after "
                                                          "red: green is next, not blue (R14.7)")
    assert move_error(views["green"], "red: give green") == ("move 'red: give green': name the card red gives: 'red: "
                                                             "give green CARD' (R14.7)")
    assert move_error(views["blue"], "red: give green ALOA") == ("move 'red: give green ALOA': blue does not see the "
                                                                 "card red gives green; write 'red: give green' "
                                                                 "(R14.10)")
    views["red"].play("give green ALOA")
    views["green"].play("red: give green ALOA")
    views["blue"].play("red: give green")
    for seat, color in enumerate(PLAYERS):
        assert views[color].to_json() == render(full.ruleset, full.state.to_data(), seat), color
    assert views["red"].to_json()["hands"]["green"]["known"]["red"][0] == "ALOA"  # the giver knows its gift
    assert "ALOA" in views["green"].to_json()["hands"]["green"]["cards"]


def test_the_receiver_of_a_gift_pulls_the_card_into_the_givers_filled_in_hand():
    doc = gods_doc(turn={"played": 0, "discarded": False, "remove_on": [], "pele_gifts": ["green"]})
    doc["hands"]["red"]["cards"] += ["DALI", "FALU"]
    doc["hands"]["green"] = {"cards": ["ELOI"], "public": []}
    doc["hands"]["blue"] = {"cards": ["GUMO", "HILO"], "public": [], "known": {"red": ["GUMO"]}}
    doc["turn"]["pele_gifts"] = ["green"]
    doc["deck"] = leftover(doc)
    green = Position.from_json(doc, engine=REFERENCE).as_viewer("green")
    green.play("red: give green PAHU")  # green knows none of red's cards: PAHU may be among them
    assert green.to_json()["hands"]["green"]["cards"] == ["ELOI", "PAHU"]
    green = Position.from_json(doc, engine=REFERENCE).as_viewer("green")
    assert move_error(green, "red: give green NALU") == ("move 'red: give green NALU': red cannot hold an NALU card: "
                                                         "green knows where every other NALU card is")


def test_lono_and_kanaloa_are_recorded_as_their_moves():
    full = example()
    views = {c: example(c) for c in PLAYERS}
    for move in ("lono", "take IKA", "BAFI-ORO/KANALOA+BAFI"):
        notes = {c: record(full, full.parse(move).to_action(GODS, full.state.to_move), c) for c in PLAYERS}
        full.play(move)
        for seat, color in enumerate(PLAYERS):
            views[color].play(notes[color])
            assert views[color].to_json() == render(full.ruleset, full.state.to_data(), seat), (move, color)
    assert notes["green"] == "red: BAFI-ORO/KANALOA+BAFI"


def test_another_players_kanaloa_swap_pulls_its_card_into_the_filled_in_hand():
    green = example("green")
    green.play("red: BAFI-ORO/KANALOA+ORO")  # green knows none of red's cards: ORO may be among them
    out = green.to_json()
    assert out["discard"]["open"][-1] == "ORO" and out["hands"]["red"]["count"] == 2
    assert out["bridges"]["BAFI-ORO"] == "red" and out["gods"]["owned"]["red"] == ["KU", "PELE", "LONO"]
    doc = gods_doc(bridges={"ALOA-BAFI": "red", "BAFI-ORO": "green", "NALU-ORO": "blue"})
    green = Position.from_json(doc, engine=REFERENCE).as_viewer("green")
    assert move_error(green, "red: NALU-ORO/KANALOA+NALU") == ("move 'red: NALU-ORO/KANALOA+NALU': red cannot hold an "
                                                               "NALU card: green knows where every other NALU card is")
    green.play("red: NALU-ORO/KANALOA+ORO")
    assert green.to_json()["bridges"]["NALU-ORO"] == "red"


# -- viewers follow whole games ---------------------------------------------------------------------------


def _count_token_uses(seen, action, full):
    kind = A.kind_of(action)
    seen["ku"] += kind == A.KU
    seen["pele"] += kind == A.PELE
    seen["lono"] += kind == A.LONO
    seen["kanaloa"] += kind in (A.PLACE, A.SWAP) and A.build_arg(action) in (A.JOKER, A.SWAP_JA, A.SWAP_JB, A.SWAP_JJ)


def _rendered(full, seat, color):
    return render(full.ruleset, full.state.to_data(), seat)


def mirror_game(seed: int, players: int, engine, check_moves: bool = False) -> dict:
    """A seeded random game of the gods in full and in every player's view, the tokens used whenever the dice
    say so, and now and then a view read back from its document; every view must print what the full position
    shows its viewer.  Returns event counts."""
    rng = random.Random(seed)
    full = Position.new(players=players, seed=seed, gods=True, engine=engine)
    return follow_game(full, lambda actions: god_choice(rng, actions), count=_count_token_uses,
                       reread=lambda: rng.random() < 0.02, check_moves=check_moves, shown=_rendered)


def test_viewers_follow_two_hundred_and_ten_games_of_the_gods_from_their_own_records():
    totals: dict[str, int] = {}
    for seed in range(70):
        for players in (2, 3, 4):
            for kind, n in mirror_game(seed, players, CORE).items():
                totals[kind] = totals.get(kind, 0) + n
    assert totals["ku"] > 100 and totals["pele"] > 100 and totals["lono"] > 100 and totals["kanaloa"] > 100
    assert totals["waits"] > 0 and totals["reread"] > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_viewers_follow_games_of_the_gods_in_either_engine_with_the_same_moves(engine, players):
    seen = mirror_game(100 + players, players, engine, check_moves=True)
    assert seen["moves"] > 0


# -- new and show ---------------------------------------------------------------------------------------------


def test_new_deals_the_gods_by_seed(engine):
    pos = Position.new(players=2, seed=9, gods=True, engine=engine)
    again = Position.new(players=2, seed=9, gods=True, engine=engine)
    assert pos.dumps() == again.dumps() and pos.ruleset.gods
    assert pos.to_json()["gods"]["owned"] == {"red": [], "green": []}
    assert Position.new(players=2, seed=10, gods=True, engine=engine).dumps() != pos.dumps()
    view = pos.as_viewer("green")
    assert view.ruleset.gods and view.to_json()["gods"] == pos.to_json()["gods"]


@pytest.mark.parametrize("kwargs, message", [
    ({"game": "kahuna"}, "gods: Might of the Gods is a variant of Kanaloa, not of Kahuna (R14, R16.9)"),
    ({"board": "kahuna"}, "board kahuna: Might of the Gods lays one of its 16 god tokens on each island (R14.1); the "
                          "board has 12 islands"),
])
def test_new_refuses_the_gods_where_they_do_not_fit(kwargs, message):
    with pytest.raises(OptionError) as err:
        Position.new(seed=1, gods=True, **kwargs)
    assert str(err.value) == message


def test_new_refuses_a_board_with_an_island_called_kanaloa(tmp_path):
    with pytest.raises(OptionError) as err:
        Position.new(seed=1, gods=True, board=_kanaloa_board(tmp_path))
    assert str(err.value) == ("board oro: an island is called KANALOA, the name of a god token: a build could not say "
                              "which it pays (R14.5)")


def test_show_draws_the_tokens_and_what_is_pending():
    pos = example(turn={"played": 0, "discarded": False, "remove_on": [], "lono_draw": True, "over_limit": True})
    text = render_position(pos)
    assert text.splitlines()[0] == "Kanaloa on oro (yucata, Might of the Gods), full position"
    assert "LONO's extra card is to be taken: 'take CARD' or 'draw' (R14.8)" in text
    assert "a token left the hand above 4: it may be discarded down to 4 (R14.9)" in text
    assert "god (R14)" in text
    rows = {line.split()[0]: line.split()[-1] for line in text.splitlines() if line.startswith("  ") and line.split()}
    assert rows["ALOA"] == "KANE" and rows["COCO"] == "-" and rows["ORO"] == "LONO"
    assert "  red     KANALOA KU PELE LONO" in text
    assert "(blue knows DALI ELOI)" in text
    blue = render_position(pos.as_viewer("blue"))
    assert "green   [2] DALI ELOI   (known to all: ELOI)" in blue
    ku = example()
    ku.play("ku green")
    assert "KU showed green's hand: a card of it is to be taken, 'steal CARD' (R14.6)" in render_position(ku)
    ku.play("steal ELOI")
    ku.play("pele")
    assert "PELE's gifts are owed to green, blue, in that order: 'give green CARD' (R14.7)" in render_position(ku)
    assert "god (R14)" not in render_position(Position.new(seed=1, engine=REFERENCE))


def test_a_copy_keeps_the_gods_and_either_engine_reads_them_alike():
    pos = example()
    assert pos.copy().ruleset.gods and pos.copy().dumps() == pos.dumps()
    assert Position.from_json(gods_doc(), engine=CORE).dumps() == pos.dumps()
