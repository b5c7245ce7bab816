"""Positions (docs/positions.md): JSON round trips for full and viewer positions,
every validation error with its message, dealing, checked play and the outcome."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from kanaloa.errors import BoardError, KanaloaError, MoveError, OptionError, PositionError
from kanaloa.position import FORMAT, Position, WaitingError
from kanaloa.position.notation import Move
from kanaloa.rules import actions as A
from kanaloa.rules.board import load_board
from kanaloa.rules.engine import load_engine
from kanaloa.rules.ruleset import make_ruleset
from kanaloa.rules.state import ROUND_1, StateData
from position_helpers import DELETE, cards_left, changed_error, give, move_error, position_error, put

ORO = load_board("oro")


def full_doc(hands=None, face_up=("KULU", "MOKU", "PAHU", "GUMO"), open_=("ALOA", "DALI", "BAFI"),
             hidden_by=None, deck=None, **fields):
    """A full position in round 1; the deck is every card not placed elsewhere, in island order."""
    hands = hands if hands is not None else {
        "red": {"cards": ["ALOA", "DALI", "RASI", "ELOI"]},
        "green": {"cards": ["COCO", "HILO", "IKA", "LANI"], "public": ["COCO"]},
        "blue": {"cards": ["MOKU", "NALU", "PAHU"]},
        "yellow": {"cards": ["GUMO", "ORO", "ORO", "FALU", "KULU"], "public": ["ORO", "ORO"]},
    }
    hidden_by = hidden_by if hidden_by is not None else {"green": ["FALU"]}
    doc = {
        "format": FORMAT,
        "board": "oro",
        "rules": {"preset": "yucata"},
        "players": ["red", "green", "blue", "yellow"],
        "viewer": None,
        "to_move": "red",
        "round": 1,
        "bridges": {"ALOA-BAFI": "red", "ALOA-DALI": "red", "BAFI-ORO": "green"},
        "hands": hands,
        "face_up": list(face_up),
        "discard": {"open": list(open_), "hidden": sum(len(v) for v in hidden_by.values()), "hidden_by": hidden_by},
        "scores": {"red": 0, "green": 0, "blue": 0, "yellow": 0},
        "turn": {"played": 0, "discarded": False, "remove_on": []},
        "seed": 12345,
    }
    doc.update(fields)
    if doc["round"] == "over":  # a finished game has no color to move and no turn
        if "to_move" not in fields:
            doc["to_move"] = None
        if "turn" not in fields:
            del doc["turn"]
    if deck is None:
        deck = cards_left(doc, ORO)
    doc["deck"] = deck
    return doc


def red_view_doc():
    """The position of ``full_doc()``, seen by red (the same cards)."""
    doc = full_doc()
    doc["viewer"] = "red"
    del doc["seed"]
    for color in ("green", "blue", "yellow"):
        hand = doc["hands"][color]
        doc["hands"][color] = {"count": len(hand["cards"]), "public": hand.get("public", [])}
    doc["deck"] = {"count": len(doc["deck"])}
    doc["discard"] = {"open": ["ALOA", "DALI", "BAFI"], "hidden": 1}
    return doc


# -- round trips -------------------------------------------------------------------------


def test_a_full_position_round_trips_through_json(engine):
    pos = Position.from_json(full_doc(), engine=engine)
    out = pos.to_json()
    assert out["hands"]["yellow"] == {"cards": ["FALU", "GUMO", "KULU", "ORO", "ORO"], "public": ["ORO", "ORO"]}
    assert out["bridges"] == {"ALOA-BAFI": "red", "ALOA-DALI": "red", "BAFI-ORO": "green"}
    assert out["discard"]["hidden_by"] == {"red": [], "green": ["FALU"], "blue": [], "yellow": []}
    assert out["seed"] == 12345 and out["viewer"] is None
    again = Position.from_json(pos.dumps(), engine=engine)
    assert again.to_json() == out
    assert again.state.to_data() == pos.state.to_data()
    assert again.dumps() == pos.dumps()


def test_a_2_player_position_round_trips_through_json(engine):
    """R15: players by first color, both colors in ``colors``, bridges and scores per color, turn.color."""
    pos = Position.new(players=2, seed=8, engine=engine)
    for _ in range(2):
        pos.play(pos.move_strings()[0])  # the reveals (R15.2)
    build = next(m for m in pos.move_strings() if m.startswith("yellow: ") or m.startswith("blue: "))
    pos.play(build)
    out = pos.to_json()
    assert out["players"] == ["red", "green"] and out["turn"]["color"] == "blue"
    assert out["colors"] == {"red": ["red", "blue"], "green": ["green", "yellow"]}
    assert list(out["scores"]) == ["red", "blue", "green", "yellow"]
    assert list(out["bridges"].values()) == ["blue"]
    again = Position.from_json(pos.dumps(), engine=engine)
    assert again.to_json() == out and again.state.to_data() == pos.state.to_data()
    view = pos.as_viewer("green")
    assert Position.from_json(view.dumps(), engine=engine).to_json() == view.to_json()
    assert view.to_json()["hands"]["red"] == {"count": len(out["hands"]["red"]["cards"]), "public": []}


def test_the_example_round_trips_as_red_sees_it(engine):
    pos = Position.from_json(red_view_doc(), engine=engine)
    out = pos.to_json()
    assert out["viewer"] == "red" and "seed" not in out
    assert out["hands"]["green"] == {"count": 4, "public": ["COCO"]}
    assert out["hands"]["red"] == {"cards": ["ALOA", "DALI", "ELOI", "RASI"], "public": []}
    assert out["deck"] == {"count": 24}
    assert out["discard"] == {"open": ["ALOA", "DALI", "BAFI"], "hidden": 1, "hidden_by": {"red": []}}
    assert Position.from_json(pos.dumps(), engine=engine).to_json() == out


def test_input_is_read_leniently_and_written_canonically(engine):
    doc = full_doc()
    doc["bridges"] = {"bafi-aloa": "red", "DALI-ALOA": "red", "oro-bafi": "green"}
    doc["hands"]["red"] = {"cards": ["rasi", "eloi", "aloa", "dali"], "count": 4}
    for key in ("rules", "viewer", "scores", "turn"):
        del doc[key]
    out = Position.from_json(doc, engine=engine).to_json()
    assert list(out["bridges"]) == ["ALOA-BAFI", "ALOA-DALI", "BAFI-ORO"]
    assert out["hands"]["red"]["cards"] == ["ALOA", "DALI", "ELOI", "RASI"]
    assert out["rules"] == {"preset": "yucata"} and out["turn"]["played"] == 0


def test_a_full_position_seen_by_a_viewer_hides_what_the_viewer_cannot_know(engine):
    view = Position.from_json(full_doc(), engine=engine).as_viewer("red")
    assert view.to_json() == Position.from_json(red_view_doc(), engine=engine).to_json()
    assert view.viewer == "red"
    assert view.as_viewer("red").to_json() == view.to_json()
    with pytest.raises(PositionError, match=r"^viewer: this position is red's view; it cannot show what green knows$"):
        view.as_viewer("green")
    with pytest.raises(PositionError, match=r"^viewer: 'purple' is not playing"):
        view.as_viewer("purple")


def test_dumps_is_indented_and_stable(engine):
    pos = Position.new(players=3, seed=5, engine=engine)
    text = pos.dumps()
    assert text.startswith('{\n  "format": "kanaloa-position/1",\n  "board": "oro",\n')
    assert '  "players": ["red", "green", "blue"],\n' in text
    assert json.loads(text) == pos.to_json()
    assert Position.from_json(text, engine=engine).dumps() == text


# -- new, play, outcome ----------------------------------------------------------------------


def test_new_deals_the_setup_with_the_engine(engine):
    pos = Position.new(players=4, seed=9, engine=engine)
    dealt = engine.deal(make_ruleset("kanaloa", players=4), 9)
    assert pos.state.to_data() == dealt.to_data()
    out = pos.to_json()
    assert out["round"] == 0 and out["setup"] == {"chosen": [], "cards": {}}
    assert out["seed"] == dealt.to_data().rng  # the chance stream after the deal (R3)
    assert pos.colors == ("red", "green", "blue", "yellow") and pos.to_move == "red" and pos.viewer is None
    assert all(len(h["cards"]) == 4 for h in out["hands"].values()) and len(out["deck"]) == 32


def test_new_checks_its_options():
    with pytest.raises(OptionError, match=r"^players 5: the game is for 2, 3 or 4 players$"):
        Position.new(players=5, engine=load_engine("reference"))
    with pytest.raises(OptionError, match=r"^players 1: the game is for 2, 3 or 4 players$"):
        Position.new(players=1, engine=load_engine("reference"))
    with pytest.raises(OptionError, match=r"^seed -1: must be an integer from 0 to 2\*\*64-1$"):
        Position.new(seed=-1, engine=load_engine("reference"))
    with pytest.raises(OptionError, match=r"^preset 'fast': unknown; choose one of yucata, tabletop \(R13\)$"):
        Position.new(preset="fast", engine=load_engine("reference"))
    with pytest.raises(BoardError):
        Position.new(board="no-such-board", engine=load_engine("reference"))
    with pytest.raises(OptionError, match=r"^engine 'java': unknown; choose one of core, reference$"):
        load_engine("java")
    with pytest.raises(OptionError, match=r"^preset \['yucata'\]: unknown"):
        Position.new(preset=["yucata"], engine=load_engine("reference"))


def test_new_refuses_a_board_too_small_to_deal_every_hand(tmp_path, engine):
    """R3: four cards per hand; the core used to stop this with a bare ValueError (a traceback in the CLI)."""
    path = tmp_path / "small.json"
    path.write_text(json.dumps({"name": "small", "cards_per_island": 5, "islands": [{"name": "A"}, {"name": "B"},
                                {"name": "C"}], "links": [["A", "B"], ["B", "C"], ["A", "C"]]}))
    assert Position.new(players=3, board=str(path), engine=engine).round == 0
    with pytest.raises(OptionError) as err:
        Position.new(players=4, board=str(path), engine=engine)
    assert str(err.value) == "players 4: 4 hands of 4 cards need more than the 15 cards of board small (R3)"


def test_setup_reveals_then_the_chosen_cards_go_face_up(engine):
    pos = Position.new(players=3, seed=1, engine=engine)
    chosen = []
    for color in pos.colors:
        move = pos.legal_moves()[0]
        assert move.kind == "reveal"
        chosen.append(move.cards[0])
        pos.play(f"{color}: {move}")
        if color != "blue":
            assert pos.to_json()["setup"]["chosen"] == list(pos.colors[: len(chosen)])
    out = pos.to_json()
    assert out["round"] == 1 and out["face_up"][:3] == chosen and len(out["face_up"]) == 4  # R3
    assert pos.to_move == "red"


def test_play_applies_moves_and_legal_moves_match_the_engine(engine):
    pos = Position.from_json(full_doc(), engine=engine)
    assert pos.legal_moves() == [Move.from_action(a, pos.ruleset, pos.state.to_move) for a in pos.state.legal_actions()]
    assert pos.move_strings() == [str(m) for m in pos.legal_moves()]
    assert "ALOA-COCO/ALOA" in pos.move_strings()
    pos.play("aloa-coco/aloa")
    pos.play(Move.parse("red: dali-eloi/eloi", pos.ruleset))
    out = pos.to_json()
    assert out["bridges"]["ALOA-COCO"] == "red" and out["bridges"]["DALI-ELOI"] == "red"
    assert out["turn"]["played"] == 2 and out["discard"]["open"][-2:] == ["ALOA", "ELOI"]
    assert pos.controller_of("dali") == "red"  # 2 of 3 links (R2)
    assert pos.controller_of("ALOA") == "red"  # 3 of 5 links
    assert pos.controller_of("ORO") is None
    pos.play("take KULU")  # R5: the gap is refilled from the deck top
    assert pos.to_move == "green" and pos.to_json()["hands"]["red"]["public"] == ["KULU"]


def test_controller_of_an_unknown_island(engine):
    pos = Position.from_json(full_doc(), engine=engine)
    with pytest.raises(BoardError, match=r"^board oro: no island 'ATLANTIS'$"):
        pos.controller_of("ATLANTIS")


def test_push_is_the_unchecked_fast_path(engine):
    pos = Position.from_json(full_doc(), engine=engine)
    twin = pos.copy()
    action = Move.parse("ALOA-COCO/ALOA", pos.ruleset).to_action(pos.ruleset, 0)
    pos.push(action)
    twin.play("ALOA-COCO/ALOA")
    assert pos.to_json() == twin.to_json()
    with pytest.raises(MoveError, match=r"^action \d+: a viewer position takes moves through play\(\)"):
        pos.as_viewer("red").push(action)


def test_copy_is_independent(engine):
    pos = Position.from_json(full_doc(), engine=engine)
    twin = pos.copy()
    twin.play("ALOA-COCO/ALOA")
    assert "ALOA-COCO" not in pos.to_json()["bridges"]


def test_a_whole_game_reaches_its_outcome(engine):
    pos = Position.new(players=4, seed=3, engine=engine)
    assert pos.outcome is None
    turns = 0
    while not pos.is_over:
        moves = pos.legal_moves()
        # Prefer building, so that islands get controlled and scored (R11).
        pos.play(moves[0] if moves[0].kind in ("place", "swap", "remove", "reveal") else moves[-1])
        turns += 1
        assert turns < 3000
    out = pos.outcome
    assert pos.round == "over" and pos.legal_moves() == []
    assert set(out) == {"ranking", "winner", "reason"} and out["winner"] == out["ranking"][0]
    assert sorted(out["ranking"]) == sorted(pos.colors)
    scores = pos.scores
    if out["reason"] == "points":  # R12: most points first
        assert [scores[c] for c in out["ranking"]] == sorted(scores.values(), reverse=True)
    doc = pos.to_json()
    assert doc["result"] == out
    assert Position.from_json(doc, engine=engine).outcome == out
    assert pos.to_move is None and doc["to_move"] is None and "turn" not in doc  # docs/positions.md, R12
    assert repr(pos) == "<Position oro round 'over', game over, full>"
    with pytest.raises(MoveError, match=r"^move 'end': the game is over$"):
        pos.play("end")


# -- every validation error -----------------------------------------------------------------


def _hand(color, **hand):
    return put(f"hands.{color}", hand)


def _without(cards, *taken):
    """``cards`` less one of each card in ``taken``."""
    rest = list(cards)
    for card in taken:
        rest.remove(card)
    return rest


# (change to the full example, message)
FULL_ERRORS = [
    (put("format", "kanaloa-position/2"), "format: 'kanaloa-position/2' is not 'kanaloa-position/1'"),
    (put("format", DELETE), 'format: missing; a position starts with "format": "kanaloa-position/1"'),
    (put("colour", "red"), "colour: unknown field (the fields are format, game, board, rules, players, colors, "
                            "viewer, to_move, round, bridges, gods, hands, face_up, deck, discard, reshuffle, scores, "
                            "turn, final_round, setup, result, seed)"),
    (put("hands", DELETE), "hands: missing"),
    (put("board", 7), "board: must be a built-in board name or a file path, not 7"),
    (put("board", "atlantis"), "board 'atlantis': no such built-in board (oro, kahuna) or file"),
    (put("rules", "yucata"), "rules: must be an object like {\"preset\": \"yucata\"}, not 'yucata'"),
    (put("rules.bridges", 20), "rules.bridges: unknown field (rules has preset, gods)"),
    (put("rules.preset", "fast"), "rules.preset: 'fast' is not one of yucata, tabletop (R13)"),
    (put("players", "red"), "players: must be a list of colors in seat order"),
    (put("players", ["red"]), "players: 1 color; the game is for 2, 3 or 4 players"),
    (put("players", ["red", "green"]),
     "colors: missing; a 2-player position gives both colors of each player (R15.1), e.g. "
     "{\"red\": [\"red\", \"COLOR\"], ...}"),
    (put("players", ["red", "green", "blue", "pink"]),
     "players: 'pink' is not a color of Kanaloa (red, green, blue, yellow)"),
    (put("players", ["red", "green", "red", "blue"]),
     "players: ['red', 'green', 'red', 'blue'] names a color twice"),
    (put("viewer", "pink"), "viewer: 'pink' is not playing (the colors are red, green, blue, yellow)"),
    (put("round", 3), "round: 3 is not one of 0, 1, 2, \"final\", \"over\"; round 3 is Kahuna's (R16.6): a Kahuna "
                       "position says \"game\": \"kahuna\""),
    (put("round", True), "round: True is not one of 0, 1, 2, \"final\", \"over\""),
    (put("to_move", "pink"), "to_move: 'pink' is not playing (the colors are red, green, blue, yellow)"),
    (put("bridges", ["ALOA-BAFI"]), "bridges: must be an object mapping links ('ALOA-BAFI') to colors"),
    (put("bridges.ALOA", "red"), "bridges.ALOA: not a link of board oro (write two islands joined by '-')"),
    (put("bridges.ALOA-ORO", "red"), "bridges.ALOA-ORO: no link between ALOA and ORO"),
    (put("bridges.BAFI-ALOA", "red"), "bridges.BAFI-ALOA: ALOA-BAFI is given twice"),
    (put("bridges.ALOA-COCO", "pink"),
     "bridges.ALOA-COCO: 'pink' is not playing (the colors are red, green, blue, yellow)"),
    (put("hands", []), "hands: must be an object with one hand per color"),
    (put("hands.pink", {"cards": []}), "hands.pink: 'pink' is not playing"),
    (put("hands.blue", DELETE), "hands: missing the hand of blue"),
    (put("hands.blue", ["MOKU"]), "hands.blue: must be an object, not ['MOKU']"),
    (put("hands.blue.known", []), "hands.blue.known: only a game of Might of the Gods keeps what each player "
                                   "knows of a hand beyond 'public' (R14.10)"),
    (put("hands.blue.seen", []), "hands.blue.seen: unknown field (hands.blue has cards, count, public, known)"),
    (_hand("blue", count=3), "hands.blue.cards: missing; a full position knows this hand's cards"),
    (_hand("blue", cards="MOKU"), "hands.blue.cards: must be a list of cards (island names), not 'MOKU'"),
    (_hand("blue", cards=["MOKU", "NALU", "ATLANTIS"]), "hands.blue.cards: 'ATLANTIS' is not an island of board oro"),
    (_hand("blue", cards=["MOKU", "NALU", "PAHU"], count=4), "hands.blue.count: 4 but 'cards' lists 3"),
    (_hand("blue", cards=["MOKU", "NALU", "PAHU"], count=-3), "hands.blue.count: -3 must be a whole number, 0 or more"),
    (_hand("green", cards=["ALOA", "DALI"], public=["ORO"]),
     "hands.green.public: ['ORO'] is not part of the cards ['ALOA', 'DALI']"),
    (give("blue", "IKA", "IKA", "HILO"), "hands.blue: 6 cards; a hand holds at most 5 (R4, R5)"),
    (lambda doc: {**doc, "face_up": doc["face_up"] + ["IKA"], "deck": _without(doc["deck"], "IKA")},
     "face_up: 5 cards; at most 4 lie face-up (R5)"),
    (lambda doc: {**doc, "face_up": ["KULU", "MOKU", "PAHU"], "deck": doc["deck"] + ["GUMO"]},
     "face_up: 3 cards while the deck is not empty; the deck keeps 4 cards face-up (R5)"),
    (put("deck", {"count": 20}), "deck: a full position lists the deck's cards, top first"),
    (put("discard.shown", []), "discard.shown: unknown field (discard has open, hidden, hidden_by)"),
    (put("discard.open", ["ALOA", 3]), "discard.open: 3 is not an island of board oro"),
    (put("discard.hidden_by", ["FALU"]),
     "discard.hidden_by: must be an object mapping colors to their face-down discards"),
    (put("discard.hidden", 2), "discard.hidden: 2 but hidden_by names 1 face-down discards"),
    (put("scores", [0, 0, 0, 0]), "scores: must be an object mapping colors to points"),
    (put("scores.red", -1), "scores.red: -1 must be a whole number, 0 or more"),
    (put("scores.pink", 1), "scores.pink: 'pink' is not playing (the colors are red, green, blue, yellow)"),
    (put("turn.phase", "draw"), "turn.phase: unknown field (turn has played, discarded, remove_on)"),
    (put("turn.played", 1.5), "turn.played: 1.5 must be a whole number, 0 or more"),
    (put("turn.discarded", "no"), "turn.discarded: 'no' must be true or false"),
    (put("turn.remove_on", ["DALI"]), "turn.remove_on: DALI has 3 links; removals (R7) happen only on islands of 5 "
                                       "or more"),
    (put("turn.remove_on", ["ALOA"]), "turn.remove_on: ALOA has a free link; a removal (R7) follows only when every "
                                       "link is taken"),
    (put("turn", {"played": 1, "discarded": True}),
     "turn.discarded: a color that discarded face-down has played no card (R4)"),
    (put("final_round", {"done": []}), "final_round: only a position whose round is 'final' has it"),
    (put("setup", {"chosen": []}), "setup: only a position whose round is 0 has it"),
    (put("result", {}), "result: only a position whose round is 'over' has it"),
    (put("seed", -5), "seed: -5 must be an integer from 0 to 2**64-1"),
    (put("seed", DELETE), "seed: missing; a full position gives the seed its future reshuffles (R9) are drawn "
                           "from ('kanaloa new --seed N' writes one)"),
    (put("seed", 2 ** 64), f"seed: {2 ** 64} must be an integer from 0 to 2**64-1"),
    (put("deck", ["ALOA"]), "cards: the position holds 1 BAFI cards; board oro has 3 of each island"),
    (put("discard.open", ["ALOA", "DALI", "BAFI", "BAFI"]),
     "cards: the position holds 4 BAFI cards; board oro has 3 of each island"),
]


def full_position_error(change) -> str:
    """The PositionError message of a full position after ``change`` (the deck kept unless replaced)."""
    return changed_error(full_doc(), change)


@pytest.mark.parametrize("change, message", FULL_ERRORS)
def test_a_bad_full_position_names_the_field_and_why(change, message):
    assert full_position_error(change) == message


ROUND_ERRORS = [
    # R10 final round
    (lambda: full_doc(round="final", final_round={"done": ["green"], "passed": ["green"]}),
     "final_round.passed: green has already taken its final turn"),
    (lambda: full_doc(round="final", final_round={"done": ["red"], "passed": []}),
     "to_move: red has already taken its final turn (R10)"),
    (lambda: full_doc(round="final", final_round={"done": ["blue", "blue"]}),
     "final_round.done: ['blue', 'blue'] names a color twice"),
    (lambda: full_doc(round="final", turn={"played": 0, "discarded": True}),
     "turn.discarded: a face-down discard happens only in rounds 1 and 2 (R4, R10)"),
    # R12 result
    (lambda: full_doc(round="over"), "result: missing; a finished game gives its ranking, winner and reason"),
    (lambda: full_doc(round="over", result={"ranking": ["red"], "winner": "red"}), "result.reason: missing"),
    (lambda: full_doc(round="over", result={"ranking": ["red", "blue"], "winner": "red", "reason": "points"}),
     "result.ranking: must list every color once, not ['red', 'blue']"),
    (lambda: full_doc(round="over", result={"ranking": ["red", "blue", "green", "yellow"], "winner": "blue",
                                            "reason": "points"}),
     "result.winner: blue is not first in the ranking"),
    (lambda: full_doc(round="over", result={"ranking": ["red", "blue", "green", "yellow"], "winner": "red",
                                            "reason": "luck"}),
     "result.reason: 'luck' is not one of 'points', 'eleven islands'"),
    (lambda: full_doc(round="over", result=[]), "result: must be an object, not []"),
]


@pytest.mark.parametrize("make, message", ROUND_ERRORS)
def test_round_fields_are_checked(make, message):
    assert position_error(make()) == message


def test_round_ends_when_deck_and_face_up_are_empty():
    """R9: a round-1 position with no deck and no face-up card cannot exist (the round ended)."""
    doc = full_doc(face_up=[], deck=[])
    doc["discard"]["open"] += full_doc(face_up=[])["deck"]  # the cards lie among the discards instead
    assert position_error(doc) == ("face_up: the deck and the face-up cards are both empty; round 1 would have "
                                   "ended (R9, R10)")


def setup_doc(chosen, cards, to_move, **fields):
    """A 4-player full position in the setup (R3)."""
    hands = {
        "red": {"cards": ["ALOA", "BAFI", "COCO", "DALI"]},
        "green": {"cards": ["ELOI", "FALU", "GUMO", "HILO"]},
        "blue": {"cards": ["IKA", "KULU", "LANI", "MOKU"]},
        "yellow": {"cards": ["NALU", "ORO", "PAHU", "RASI"]},
    }
    for color, card in cards.items():
        hands[color]["cards"].remove(card)
    fields = {"bridges": {}, **fields}
    return full_doc(hands=hands, face_up=[], open_=[], hidden_by={}, round=0, to_move=to_move,
                    setup={"chosen": chosen, "cards": cards}, **fields)


SETUP_ERRORS = [
    (setup_doc(["green"], {"green": "ELOI"}, "blue"),
     "setup.chosen: colors choose in seat order (R3): expected ['red'], not ['green']"),
    (setup_doc(["red"], {"red": "ALOA"}, "blue"), "to_move: green is the next to choose in the setup (R3), not blue"),
    (setup_doc(["red"], {"red": "ALOA", "green": "ELOI"}, "green"), "setup.cards.green: green has not chosen yet"),
    (setup_doc(["red", "green"], {"red": "ALOA"}, "blue"), "setup.cards: missing green's chosen card"),
    (put("setup.cards", ["ALOA"])(setup_doc(["red"], {"red": "ALOA"}, "green")),
     "setup.cards: must be an object mapping colors to the card each set aside"),
    (setup_doc(["red", "green", "blue", "yellow"], {"red": "ALOA", "green": "ELOI", "blue": "IKA", "yellow": "ORO"},
               "red"),
     "setup.chosen: every color has chosen; the chosen cards would already lie face-up (R3)"),
    (setup_doc([], {}, "red", bridges={"ALOA-BAFI": "red"}), "bridges: no bridge is built during the setup (R3)"),
    (setup_doc([], {}, "red", turn={"played": 1}), "turn: no card is played during the setup (R3)"),
]


@pytest.mark.parametrize("doc, message", SETUP_ERRORS)
def test_setup_fields_are_checked(doc, message):
    assert position_error(doc) == message


def test_setup_face_up_must_be_empty():
    doc = setup_doc([], {}, "red")
    doc["face_up"] = [doc["deck"].pop(0)]
    with pytest.raises(PositionError, match=r"^face_up: no card lies face-up before the setup ends \(R3\)$"):
        Position.from_json(doc, engine=load_engine("reference"))


def test_setup_round_trips(engine):
    doc = setup_doc(["red", "green"], {"red": "DALI", "green": "ELOI"}, "blue")
    pos = Position.from_json(doc, engine=engine)
    assert pos.to_json()["setup"] == {"chosen": ["red", "green"], "cards": {"red": "DALI", "green": "ELOI"}}
    view = pos.as_viewer("green")
    assert view.to_json()["setup"] == {"chosen": ["red", "green"], "cards": {"green": "ELOI"}}
    assert Position.from_json(view.dumps(), engine=engine).to_json() == view.to_json()


def test_rule_limits_are_checked():
    links = [ORO.link_name(k) for k in range(ORO.n_links)]
    # R13: 20 bridges per color in the tabletop preset
    doc = full_doc(rules={"preset": "tabletop"}, bridges={name: "green" for name in links[:21]})
    assert position_error(doc) == "bridges: green has 21 bridges; the tabletop preset gives 20 per color (R13)"
    # R8: eleven controlled islands would have ended the game
    doc = full_doc(bridges={name: "red" for name in links})
    assert position_error(doc) == "bridges: red controls 16 islands; the game would be over (R8)"


def test_invalid_text_and_shapes():
    with pytest.raises(PositionError) as err:
        Position.from_json("{not json", engine=load_engine("reference"))
    assert str(err.value) == (
        "position: not valid JSON (Expecting property name enclosed in double quotes at line 1 column 2)")
    with pytest.raises(PositionError, match=r"^position: must be a JSON object, not an array$"):
        Position.from_json([], engine=load_engine("reference"))
    with pytest.raises(PositionError, match=r"^position: must be a JSON object, not null$"):
        Position.from_json("null", engine=load_engine("reference"))
    with pytest.raises(KanaloaError):
        Position.from_json("[]", engine=load_engine("reference"))
    with pytest.raises(ValueError):
        Position.from_json("[]", engine=load_engine("reference"))


VIEWER_ERRORS = [
    (put("seed", 1), "seed: a viewer position has no seed (it would reveal the deck)"),
    (put("deck", ["ALOA"]), "deck: a viewer position gives only {\"count\": N} (the viewer cannot see the deck)"),
    (put("deck", {}), "deck.count: missing"),
    (put("deck", {"count": 25, "top": "ALOA"}), "deck.top: unknown field (deck has count)"),
    (_hand("green", cards=["COCO", "HILO", "IKA", "LANI"]),
     "hands.green.cards: red cannot see green's cards; give 'count' and 'public'"),
    (_hand("green", public=["COCO"]), "hands.green.count: missing; give 'count' where 'cards' is absent"),
    (_hand("green", count=1, public=["COCO", "ORO"]), "hands.green.public: 2 known cards in a hand of 1"),
    (_hand("red", count=4), "hands.red.cards: missing; red's own view knows this hand's cards"),
    (put("discard.hidden_by", {"green": ["FALU"]}), "discard.hidden_by.green: red cannot see green's face-down "
                                                     "discards"),
    (put("discard", {"open": ["ALOA", "DALI", "BAFI"], "hidden": 0, "hidden_by": {"red": ["FALU"]}}),
     "discard.hidden: 0 but red alone discarded 1"),
    (put("deck.count", 23), "cards: the position accounts for 47 cards; board oro has 48"),
    (put("face_up", ["ORO", "ORO", "PAHU", "GUMO"]),
     "cards: the position holds 4 ORO cards; board oro has 3 of each island"),
    (put("face_up", []), "face_up: the deck and the face-up cards are both empty; round 1 would have ended (R9, R10)"),
]


@pytest.mark.parametrize("change, message", VIEWER_ERRORS)
def test_a_bad_viewer_position_names_the_field_and_why(change, message):
    doc = change(red_view_doc())
    if message.startswith("face_up: the deck"):
        doc["deck"] = {"count": 0}
        doc["discard"]["hidden"] += 28
    assert position_error(doc) == message


def test_viewer_setup_fields_are_checked():
    doc = Position.from_json(setup_doc(["red", "green"], {"red": "DALI", "green": "ELOI"}, "blue"),
                             engine=load_engine("reference")).as_viewer("red").to_json()
    doc["setup"]["cards"]["green"] = "ELOI"
    with pytest.raises(PositionError, match=r"^setup.cards.green: red cannot see green's chosen card$"):
        Position.from_json(doc, engine=load_engine("reference"))
    del doc["setup"]["cards"]
    with pytest.raises(PositionError, match=r"^setup.cards: missing red's chosen card$"):
        Position.from_json(doc, engine=load_engine("reference"))


# -- checked play: every reason -----------------------------------------------------------


def play_error(doc, move, engine=None):
    """The message of ``move`` refused in the position of ``doc``, which it leaves as it was."""
    return move_error(Position.from_json(doc, engine=engine or load_engine("reference")), move)


# (move, why it is refused) in the example, red to move in round 1
REFUSED_MOVES = [
    ("ALOA-BAFI/BAFI", "ALOA-BAFI already holds red's bridge; a swap pays two cards"),
    ("ALOA-COCO/COCO", "red has no COCO card"),
    ("ALOA-COCO/ALOA+ALOA", "ALOA-COCO holds no bridge to swap; a place pays one card"),
    ("ALOA-BAFI/ALOA+ALOA", "ALOA-BAFI already holds red's own bridge"),
    ("BAFI-ORO/BAFI+BAFI", "red has no BAFI card"),
    ("take ORO", "no ORO among the face-up cards (KULU, MOKU, PAHU, GUMO)"),
    ("end", "'end' belongs to the final round (R10)"),
    ("pass", "'pass' belongs to the final round (R10)"),
    ("reveal ALOA", "cards are revealed only in the setup (R3)"),
    ("remove ALOA-BAFI", "no removal is pending (R7)"),
    ("green: draw", "it is red's turn, not green's"),
    ("faceup ALOA", "a full position turns cards face-up itself; 'faceup' records are for viewer positions"),
    ("draw ALOA", "this position knows the deck; write 'draw'"),
    ("take KULU refill ALOA", "this position knows the deck; write 'take KULU'"),
    ("discard", "name the card: 'discard CARD'"),
    ("ALOA-ORO/ALOA", "no link between ALOA and ORO"),
]


def test_checked_play_names_the_move_and_the_reason(engine):
    doc = full_doc()
    for move, why in REFUSED_MOVES:
        assert play_error(doc, move, engine) == f"move {move!r}: {why}"
    three = full_doc(players=["red", "green", "blue"], hands={
        "red": {"cards": ["ALOA"]}, "green": {"cards": ["COCO"]}, "blue": {"cards": ["MOKU"]}})
    del three["scores"]
    assert play_error(three, "yellow: draw", engine) == (
        "move 'yellow: draw': yellow is not playing (the colors are red, green, blue)")


def test_the_hand_limit_and_the_draw_phase(engine):
    five = full_doc(to_move="yellow")
    assert play_error(five, "draw", engine) == "move 'draw': the hand holds 5 cards; play or discard first (R4)"
    assert play_error(five, "take KULU", engine) == (
        "move 'take KULU': the hand holds 5 cards; play or discard first (R4)")
    pos = Position.from_json(five, engine=engine)
    pos.play("discard FALU")
    doc = pos.to_json()
    assert doc["turn"]["discarded"] and doc["hands"]["yellow"]["public"] == ["ORO"]  # one of each known card goes
    assert play_error(doc, "GUMO-IKA/GUMO", engine) == (
        "move 'GUMO-IKA/GUMO': yellow has discarded this turn; only 'take' or 'draw' remain (R4)")
    assert play_error(doc, "discard ORO", engine) == (
        "move 'discard ORO': yellow has discarded this turn; only 'take' or 'draw' remain (R4)")
    played = full_doc(turn={"played": 1, "discarded": False, "remove_on": []})
    assert play_error(played, "discard ALOA", engine) == (
        "move 'discard ALOA': red has already played a card this turn; a face-down discard replaces playing (R4)")
    rest = ["ALOA", "DALI", "BAFI"] + full_doc(face_up=["KULU"])["deck"]
    no_deck = full_doc(face_up=["KULU"], open_=rest, deck=[])
    assert play_error(no_deck, "draw", engine) == "move 'draw': the deck is empty; take a face-up card (R5)"


def test_swaps_need_their_two_cards(engine):
    doc = full_doc()
    doc["hands"]["red"] = {"cards": ["BAFI", "DALI", "RASI", "ELOI"]}
    doc["hands"]["blue"] = {"cards": ["MOKU", "NALU", "ALOA"]}
    doc = full_doc(hands=doc["hands"], open_=["PAHU", "DALI", "BAFI"])
    assert play_error(doc, "BAFI-ORO/BAFI+BAFI", engine) == (
        "move 'BAFI-ORO/BAFI+BAFI': red needs two BAFI cards and holds one")
    pos = Position.from_json(doc, engine=engine)
    assert "BAFI-ORO/BAFI+BAFI" not in pos.move_strings()
    assert "ALOA-BAFI/ALOA+BAFI" not in pos.move_strings()  # red's own bridge


def test_removals_after_a_relative_majority(engine):
    """R7: on a full large island the leader removes one bridge before anything else."""
    bafi_links = ["ALOA-BAFI", "BAFI-COCO", "BAFI-GUMO", "BAFI-ORO", "BAFI-RASI"]
    bridges = {"ALOA-BAFI": "red", "BAFI-COCO": "green", "BAFI-GUMO": "blue", "BAFI-ORO": "yellow"}
    hands = {
        "red": {"cards": ["RASI", "DALI", "ELOI", "ALOA"]},
        "green": {"cards": ["COCO", "HILO", "IKA", "LANI"]},
        "blue": {"cards": ["MOKU", "NALU", "PAHU"]},
        "yellow": {"cards": ["GUMO", "ORO", "ORO", "FALU", "KULU"]},
    }
    pos = Position.from_json(full_doc(hands=hands, bridges=bridges), engine=engine)
    pos.play("BAFI-RASI/RASI")  # the last free link of BAFI: red leads 2-1-1-1
    assert pos.to_json()["turn"]["remove_on"] == ["BAFI"]
    assert pos.move_strings() == ["remove BAFI-COCO", "remove BAFI-GUMO", "remove BAFI-ORO"]
    doc = pos.to_json()
    assert play_error(doc, "ALOA-COCO/ALOA", engine) == (
        "move 'ALOA-COCO/ALOA': red must first remove a bridge on BAFI (R7): 'remove LINK'")
    assert play_error(doc, "remove ALOA-COCO", engine) == (
        "move 'remove ALOA-COCO': the pending removal is on BAFI; ALOA-COCO is not one of its links (R7)")
    assert play_error(doc, "remove ALOA-BAFI", engine) == (
        "move 'remove ALOA-BAFI': red cannot remove its own bridge (R7)")
    pos.play("remove BAFI-GUMO")
    assert "BAFI-GUMO" not in pos.to_json()["bridges"] and pos.to_json()["turn"]["remove_on"] == []
    # A tie for the most (2-2-1): only the single bridge may go.
    tied = dict(bridges, **{"BAFI-GUMO": "green"})
    doc = full_doc(hands=hands, bridges=tied)
    doc["bridges"]["BAFI-RASI"] = "red"
    doc["turn"].update(played=1, remove_on=["BAFI"])  # red has just built BAFI-RASI
    assert Position.from_json(doc, engine=engine).move_strings() == ["remove BAFI-ORO"]
    assert play_error(doc, "remove BAFI-COCO", engine) == (
        "move 'remove BAFI-COCO': red is tied for the most bridges on BAFI, so only a color with a single bridge "
        "there may lose one (R7)")
    assert set(bafi_links) <= set(doc["bridges"])  # every link of BAFI is taken


def final_doc(**fields):
    """``full_doc`` in the final round: the deck and the face-up cards have run out (R10)."""
    doc = full_doc(round="final", **fields)
    doc["discard"]["open"] += doc["face_up"] + doc["deck"]
    doc["face_up"], doc["deck"] = [], []
    return doc


def test_final_round_moves(engine):
    """R10: no draw, no discard; pass only before acting, with a stronger color still to play."""
    doc = final_doc(scores={"red": 3, "green": 5, "blue": 0, "yellow": 1}, final_round={"done": [], "passed": []})
    pos = Position.from_json(doc, engine=engine)
    assert {"end", "pass"} <= set(pos.move_strings())
    assert play_error(doc, "take KULU", engine) == "move 'take KULU': the final round has no draw phase (R10)"
    assert play_error(doc, "draw", engine) == "move 'draw': the final round has no draw phase (R10)"
    assert play_error(doc, "discard ALOA", engine) == (
        "move 'discard ALOA': there is no discard in the final round (R10)")
    pos.play("pass")
    assert pos.to_move == "green" and pos.to_json()["final_round"] == {"done": [], "passed": ["red"]}
    assert play_error(pos.to_json(), "pass", engine) == (
        "move 'pass': no color with more points than green is still to take its final turn, so green may not "
        "pass (R10)")
    played = final_doc(scores={"red": 3, "green": 5, "blue": 0, "yellow": 1},
                       turn={"played": 1, "discarded": False, "remove_on": []})
    assert play_error(played, "pass", engine) == (
        "move 'pass': red has already played a card this turn, so it may not pass (R10)")
    pos.play("COCO-ELOI/COCO")
    pos.play("end")
    assert pos.to_json()["final_round"]["done"] == ["green"] and pos.to_move == "blue"


def test_setup_moves(engine):
    doc = setup_doc(["red"], {"red": "DALI"}, "green")
    assert play_error(doc, "draw", engine) == (
        "move 'draw': in the setup each color first reveals one card: 'reveal CARD' (R3)")
    assert play_error(doc, "reveal ALOA", engine) == "move 'reveal ALOA': green has no ALOA card"
    assert play_error(doc, "reveal", engine) == "move 'reveal': name the card: 'reveal CARD'"


def test_tabletop_stock(engine):
    """R13: a color with all 20 bridges on the board can neither place nor swap."""
    def controlled(chosen):
        return sum(1 for i in range(ORO.n_islands)
                   if 2 * sum(1 for k in chosen if ORO.island_links[i] >> k & 1) > ORO.size(i))

    free = ORO.find_link(ORO.find_island("ALOA"), ORO.find_island("DALI"))
    red = []
    for k in range(ORO.n_links):  # 20 red bridges, controlling fewer than 11 islands (R8)
        if k != free and len(red) < 20 and controlled([*red, k]) < 11:
            red.append(k)
    assert len(red) == 20
    others = ["green", "blue", "yellow"]
    bridges = {ORO.link_name(k): ("red" if k in red else others[k % 3]) for k in range(ORO.n_links) if k != free}
    doc = full_doc(rules={"preset": "tabletop"}, bridges=bridges)
    pos = Position.from_json(doc, engine=engine)
    assert all(m.kind not in ("place", "swap") for m in pos.legal_moves())
    assert play_error(doc, "ALOA-DALI/ALOA", engine) == "move 'ALOA-DALI/ALOA': red has no bridge left in stock (R13)"


def test_waiting_error_is_a_move_error():
    assert issubclass(WaitingError, MoveError)


def test_position_data_is_a_copy(engine):
    pos = Position.from_json(full_doc(), engine=engine)
    data = pos.state.to_data()
    assert isinstance(data, StateData) and data.round == ROUND_1
    data.scores[0] = 99
    assert pos.scores["red"] == 0
    assert pos.round == 1 and pos.state.round == ROUND_1
    assert repr(pos) == "<Position oro round 1, red to move, full>"
    assert A.kind_of(pos.state.legal_actions()[0]) == A.PLACE


def test_the_shipped_example_is_a_viewer_position_in_round_one(engine):
    from kanaloa.examples import example_text

    text = example_text("midgame")
    pos = Position.from_json(text, engine=engine)
    assert pos.round == 1 and pos.viewer == pos.to_move and pos.waiting is None
    assert pos.legal_moves()
    assert pos.dumps() == text
    assert copy.deepcopy(pos.to_json()) == json.loads(text)


def test_load_engine_gives_one_typed_engine_per_name(engine):
    from kanaloa.rules.engine import ENGINE_NAMES, Engine

    assert ENGINE_NAMES == ("core", "reference")
    assert isinstance(engine, Engine) and load_engine(engine.name) is engine  # loaded once
    board = engine.board_for(ORO)
    assert engine.board_for(ORO) is board  # the board tables are built once per board
    pos = Position.new(players=3, seed=8, engine=engine)
    assert isinstance(pos.state, engine.state_cls) and pos.engine is engine
    with pytest.raises(OptionError, match=r"^engine 'fast': unknown; choose one of core, reference$"):
        load_engine("fast")


# -- text that is no JSON document at all ------------------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        (b"\xff\xfe{", "position: not UTF-8 text (byte 0 cannot be decoded)"),
        ("[" * 100_000, "position: not a position: the JSON is nested far too deeply"),
        ('{"format": ' + "1" * 5000 + "}", "format: a 5000-digit number is not 'kanaloa-position/1'"),
        (json.dumps(full_doc())[:200], None),
        ('{"format": "kanaloa-position/1", "scores": {"red": 1, "red": 2}}',
         "position: the key 'red' appears twice in one object; a position says each thing once"),
    ],
    ids=["not-utf8", "deeply-nested", "huge-number", "truncated", "duplicate-key"],
)
def test_text_that_is_not_a_json_document_is_a_position_error(text, message):
    with pytest.raises(PositionError) as err:
        Position.from_json(text, engine=load_engine("reference"))
    if message is None:
        assert str(err.value).startswith("position: not valid JSON (")
    else:
        assert str(err.value) == message


# -- values of the wrong JSON type (the smallest cases a fuzzer found crashing) ----------------

WRONG_TYPES = [
    (put("round", []), "round: [] is not one of 0, 1, 2, \"final\", \"over\""),
    (put("round", {"x": []}), "round: {'x': []} is not one of 0, 1, 2, \"final\", \"over\""),
    (put("round", 1.0), "round: 1.0 is not one of 0, 1, 2, \"final\", \"over\""),
    (put("round", "1"), "round: '1' is not one of 0, 1, 2, \"final\", \"over\""),
    (put("rules.preset", [[]]), "rules.preset: [[]] is not one of yucata, tabletop (R13)"),
    (put("rules.preset", {}), "rules.preset: {} is not one of yucata, tabletop (R13)"),
    (put("viewer", ["red"]), "viewer: ['red'] is not playing (the colors are red, green, blue, yellow)"),
    (put("to_move", {}), "to_move: {} is not playing (the colors are red, green, blue, yellow)"),
    (put("players", None), "players: must be a list of colors in seat order"),
    (put("scores.red", "3"), "scores.red: '3' must be a whole number, 0 or more"),
    (put("scores.red", False), "scores.red: False must be a whole number, 0 or more"),
    (put("turn.played", None), "turn.played: None must be a whole number, 0 or more"),
    (put("discard.hidden", "1"), "discard.hidden: '1' must be a whole number, 0 or more"),
    # A long value is quoted cut short, so that the message stays one readable line.
    (put("face_up", "KULU " * 40),
     "face_up: must be a list of cards (island names), not "
     "'KULU KULU KULU KULU KULU KULU KULU KULU KULU KULU KULU KULU '... (200 characters)"),
]


@pytest.mark.parametrize("change, message", WRONG_TYPES)
def test_a_value_of_the_wrong_type_is_a_position_error(change, message):
    assert full_position_error(change) == message


def test_a_key_that_is_long_or_on_several_lines_is_quoted_cut_short():
    """A field name made of the document's own keys stays one short line."""
    assert full_position_error(put("bridges.ALOA\nBAFI", "red")) == (
        "bridges.'ALOA\\nBAFI': not a link of board oro (write two islands joined by '-')")
    assert full_position_error(put("x" * 100_000, 1)) == (
        "'" + "x" * 60 + "'... (100000 characters): unknown field (the fields are format, game, board, "
        "rules, players, colors, viewer, to_move, round, bridges, gods, hands, face_up, deck, discard, reshuffle, "
        "scores, turn, final_round, setup, result, seed)")
    assert full_position_error(put("turn. ", 1)).startswith("turn.' ': unknown field (turn has ")


def test_a_finished_game_with_a_reason_of_the_wrong_type():
    doc = full_doc(round="over", result={"ranking": ["red", "blue", "green", "yellow"], "winner": "red",
                                         "reason": ["points"]})
    assert position_error(doc) == "result.reason: ['points'] is not one of 'points', 'eleven islands'"


# -- counts the rules cannot produce -------------------------------------------------------------
# Before these checks, some of these positions were accepted and then had no legal move at all
# (a hand of 5 after a discard may neither play nor draw), or made the compiled core refuse them.

FIVE = {"cards": ["MOKU", "NALU", "PAHU", "IKA", "IKA"]}


def _with_blue_to_move(hand, **turn):
    """Blue to move holding ``hand``: the cards it gains come from the deck, those it loses go to its bottom."""
    def change(doc):
        doc = copy.deepcopy(doc)
        before, after = Counter(doc["hands"]["blue"]["cards"]), Counter(hand["cards"])
        doc["deck"] = _without(doc["deck"], *(after - before).elements()) + list((before - after).elements())
        doc["hands"]["blue"] = hand
        doc["to_move"] = "blue"
        doc["turn"].update(turn)
        return doc
    return change


COUNT_ERRORS = [
    (put("scores.red", 4), "scores.red: 4 points before the first scoring; nobody scores before round 1 ends "
                            "(R9, R11)"),
    (lambda doc: {**doc, "round": 2, "scores": {"red": 30}},
     "scores.red: 30 points; by round 2 a color can have at most 29 on board oro (R11)"),
    (lambda doc: {**doc, "round": 2, "scores": {"red": 2 ** 31}},
     "scores.red: 2147483648 points; by round 2 a color can have at most 29 on board oro (R11)"),
    (_with_blue_to_move(FIVE, discarded=True),
     "turn: blue holds 5 card(s) having played 0 and discarded 1 this turn, so it began the turn with 6; "
     "a hand holds at most 5 (R4, R5)"),
    (_with_blue_to_move(FIVE, played=1),
     "turn: blue holds 5 card(s) having played 1 this turn, so it began the turn with 6; a hand holds at most 5 "
     "(R4, R5)"),
    (_with_blue_to_move({"cards": ["MOKU"]}, played=2 ** 64),
     "turn: blue holds 1 card(s) having played 18446744073709551616 this turn, so it began the turn with "
     "18446744073709551617; a hand holds at most 5 (R4, R5)"),
]


@pytest.mark.parametrize("change, message", COUNT_ERRORS)
def test_counts_the_rules_cannot_reach_are_position_errors(change, message):
    for name in ("reference", "core"):
        assert changed_error(full_doc(), change, load_engine(name)) == message


def test_scores_may_reach_the_most_one_scoring_gives():
    """R11 on oro: 4 small islands give at most 1, 11 large at most 2, ORO at most 3: 29 in all."""
    doc = full_doc(round=2, scores={"red": 29})
    assert Position.from_json(doc, engine=load_engine("reference")).scores["red"] == 29


def bafi_full(**turn):
    """Red has just filled BAFI 2-1-1-1 with BAFI-RASI (a full position, red to move)."""
    hands = {
        "red": {"cards": ["DALI", "ELOI", "ALOA"]},
        "green": {"cards": ["COCO", "HILO", "IKA", "LANI"]},
        "blue": {"cards": ["MOKU", "NALU", "PAHU"]},
        "yellow": {"cards": ["GUMO", "ORO", "ORO", "FALU", "KULU"]},
    }
    bridges = {"ALOA-BAFI": "red", "BAFI-COCO": "green", "BAFI-GUMO": "blue", "BAFI-ORO": "yellow",
               "BAFI-RASI": "red"}
    doc = full_doc(hands=hands, bridges=bridges, open_=("ALOA", "DALI", "BAFI", "RASI"))
    doc["turn"].update({"played": 1, "remove_on": ["BAFI"], **turn})
    return doc


def test_a_pending_removal_that_the_last_build_queued_is_read(engine):
    pos = Position.from_json(bafi_full(), engine=engine)
    assert pos.move_strings() == ["remove BAFI-COCO", "remove BAFI-GUMO", "remove BAFI-ORO"]


def _bridges(**change):
    def apply(doc):
        doc = copy.deepcopy(doc)
        for link, color in change.items():
            link = link.replace("_", "-")
            if color is None:
                del doc["bridges"][link]
            else:
                doc["bridges"][link] = color
        return doc
    return apply


REMOVAL_ERRORS = [
    (lambda doc: {**doc, "turn": {**doc["turn"], "played": 0}},
     "turn.remove_on: a removal (R7) follows a place or swap, but turn.played is 0"),
    (lambda doc: {**doc, "turn": {**doc["turn"], "remove_on": ["BAFI", "BAFI"]}},
     "turn.remove_on: one place or swap queues at most one removal on each end of its link (R7)"),
    # Red trails 2-3 on BAFI: nothing to remove (a position with no legal move before this check).
    (_bridges(ALOA_BAFI="green", BAFI_GUMO="green"),
     "turn.remove_on: red has 1 bridge(s) on BAFI against 3: it neither leads nor ties with a single rival "
     "bridge to remove (R7)"),
    (_bridges(BAFI_GUMO="red"), "turn.remove_on: red controls BAFI; a removal (R7) is due only without an "
                                "absolute majority"),
]


@pytest.mark.parametrize("change, message", REMOVAL_ERRORS)
def test_a_pending_removal_must_be_one_the_rules_queue(change, message):
    doc = change(bafi_full())
    assert position_error(doc) == message


def test_removals_pending_on_two_islands_are_the_ends_of_the_movers_link():
    """R7: one build queues removals on both ends of its link, in island order, and nowhere else."""
    bridges = {"ALOA-COCO": "green", "ALOA-DALI": "red", "ALOA-ELOI": "blue", "ALOA-GUMO": "yellow",
               "BAFI-COCO": "green", "BAFI-GUMO": "red", "BAFI-ORO": "blue", "BAFI-RASI": "yellow",
               "ALOA-BAFI": "green"}
    hands = {
        "red": {"cards": ["RASI", "DALI", "ELOI", "ALOA"]},
        "green": {"cards": ["COCO", "HILO", "IKA"]},
        "blue": {"cards": ["MOKU", "NALU", "PAHU"]},
        "yellow": {"cards": ["GUMO", "ORO", "ORO", "FALU", "KULU"]},
    }
    doc = full_doc(hands=hands, bridges=bridges, to_move="green", open_=("ALOA", "DALI", "BAFI", "LANI"),
                   turn={"played": 1, "discarded": False, "remove_on": ["ALOA", "BAFI"]})
    pos = Position.from_json(doc, engine=load_engine("reference"))
    assert pos.move_strings() == ["remove ALOA-DALI", "remove ALOA-ELOI", "remove ALOA-GUMO"]
    backwards = copy.deepcopy(doc)
    backwards["turn"]["remove_on"] = ["BAFI", "ALOA"]
    with pytest.raises(PositionError, match=r"^turn.remove_on: removals are queued in the board's island order"):
        Position.from_json(backwards, engine=load_engine("reference"))
    rival_link = copy.deepcopy(doc)
    rival_link["bridges"]["ALOA-BAFI"] = "blue"
    rival_link["bridges"]["BAFI-GUMO"] = "green"
    assert position_error(rival_link) == (
        "turn.remove_on: ALOA and BAFI are not the ends of a bridge of green: one build "
        "queues removals only on the ends of its link (R7)")


# -- what each round looks like ------------------------------------------------------------------


def test_setup_hands_hold_the_dealt_cards_less_the_chosen_one():
    """R3: four cards dealt to each color, one of them set aside by the colors that have chosen."""
    doc = setup_doc(["red"], {"red": "ALOA"}, "green")
    doc["hands"]["green"]["cards"].pop()
    doc["discard"]["open"].append("HILO")
    assert position_error(doc) == (
        "hands.green: 3 card(s); in the setup green holds the 4 dealt, and has not chosen yet (R3)")
    doc = setup_doc(["red"], {"red": "ALOA"}, "green")
    doc["hands"]["red"]["cards"].append(doc["deck"].pop())
    assert position_error(doc) == ("hands.red: 4 card(s); in the setup red holds the 4 dealt, less the one it has set "
                                   "aside (R3)")


def test_nothing_is_known_or_discarded_during_the_setup():
    doc = setup_doc([], {}, "red")
    doc["hands"]["red"]["public"] = ["ALOA"]
    with pytest.raises(PositionError, match=r"^hands.red.public: nobody has taken a face-up card during the setup"):
        Position.from_json(doc, engine=load_engine("reference"))
    doc = setup_doc([], {}, "red")
    doc["discard"]["open"] = [doc["deck"].pop()]
    with pytest.raises(PositionError, match=r"^discard: nothing is discarded during the setup \(R3\)$"):
        Position.from_json(doc, engine=load_engine("reference"))


def test_the_final_round_has_no_deck_and_no_face_up_cards():
    """R10: the final round starts when both have run out for the second time."""
    with pytest.raises(PositionError) as err:
        Position.from_json(full_doc(round="final"), engine=load_engine("reference"))
    assert str(err.value) == "deck: 24 card(s) left; the final round has no deck (R10)"
    doc = final_doc()
    doc["face_up"] = [doc["discard"]["open"].pop()]
    assert position_error(doc) == "face_up: 1 card(s) left; the final round has no face-up cards (R10)"


def test_a_viewer_waits_for_face_up_cards_only_right_after_a_reshuffle():
    """R9: only the reshuffle at the end of round 1 turns up cards a viewer has not seen; in round 1,
    or with some cards already face-up, a short face-up row beside a deck is a bad position."""
    for round_, face_up in ((1, []), (2, ["KULU"])):
        doc = red_view_doc()
        doc["round"] = round_
        doc["discard"]["open"] += [c for c in doc["face_up"] if c not in face_up]
        doc["face_up"] = face_up
        assert position_error(doc) == (f"face_up: {len(face_up)} cards while the deck is not empty; the deck keeps 4 "
                                       f"cards face-up (R5)")


def over_doc(reason, ranking, **fields):
    doc = final_doc(**fields)
    doc["round"] = "over"
    doc["to_move"] = None
    del doc["turn"]
    doc["result"] = {"ranking": ranking, "winner": ranking[0], "reason": reason}
    return doc


def test_a_finished_game_has_no_color_to_move_and_no_turn(engine):
    """Once the game is over, ``to_move`` is null and ``turn`` is absent, read and written (docs/positions.md)."""
    doc = over_doc("points", ["green", "blue", "red", "yellow"], scores={"red": 9, "green": 12, "blue": 9, "yellow": 3})
    pos = Position.from_json(doc, engine=engine)
    assert pos.is_over and pos.to_move is None and pos.legal_moves() == []
    out = pos.to_json()
    assert out["to_move"] is None and "turn" not in out and out["result"]["winner"] == "green"
    assert Position.from_json(pos.dumps(), engine=engine).to_json() == out
    for change, message in [
        (dict(doc, to_move="red"), "to_move: 'red', but the game is over: a finished game has no color to move (null)"),
        (dict(doc, turn={"played": 0, "discarded": False, "remove_on": []}),
         "turn: the game is over; a finished game has no turn"),
    ]:
        assert position_error(change, engine) == message


def test_the_result_agrees_with_the_scores_and_the_bridges():
    """R12: most points first; R8: an eleven-island win puts the others in order of points, then seat."""
    scores = {"red": 9, "green": 12, "blue": 9, "yellow": 3}
    ok = over_doc("points", ["green", "blue", "red", "yellow"], scores=scores)
    assert Position.from_json(ok, engine=load_engine("reference")).outcome["winner"] == "green"
    bad = over_doc("points", ["red", "green", "blue", "yellow"], scores=scores)
    assert position_error(bad) == "result.ranking: red (9 points) ranks above green (12 points); most points wins (R12)"
    fake = over_doc("eleven islands", ["yellow", "green", "red", "blue"], scores=scores)
    assert position_error(fake) == "result.reason: 'eleven islands' but yellow controls 0 islands (R8)"
    early = full_doc(round="over", result={"ranking": ["red", "green", "blue", "yellow"], "winner": "red",
                                           "reason": "points"})
    assert position_error(early) == (
        "result.reason: 'points' ends the game after the final round, when the deck and the "
        "face-up cards are gone (R10)")


def test_an_eleven_island_result_ranks_the_others_by_points_then_seat(engine):
    """A game won by R8 round-trips; reordering its losers is a bad position."""
    ten = ["ALOA-ELOI", "BAFI-ORO", "BAFI-RASI", "DALI-ELOI", "DALI-IKA", "ELOI-KULU", "HILO-LANI", "HILO-NALU",
           "HILO-PAHU", "IKA-KULU", "IKA-ORO", "LANI-RASI", "NALU-PAHU", "ORO-PAHU", "ORO-RASI"]
    doc = full_doc(round=2, bridges={link: "red" for link in ten},
                   scores={"red": 2, "green": 4, "blue": 9, "yellow": 4})
    pos = Position.from_json(doc, engine=engine)
    pos.play("ALOA-BAFI/ALOA")  # BAFI is red's eleventh island
    doc = pos.to_json()
    assert doc["result"] == {"ranking": ["red", "blue", "green", "yellow"], "winner": "red",
                             "reason": "eleven islands"}
    assert Position.from_json(doc, engine=engine).to_json() == doc
    doc["result"]["ranking"] = ["red", "blue", "yellow", "green"]
    assert position_error(doc, engine) == (
        "result.ranking: after an immediate win the others rank by points, then seat order: "
        "red, blue, green, yellow (R12)")


# -- the live state ------------------------------------------------------------------------------


def test_the_properties_read_the_live_state_without_exporting_it():
    """``to_move``, ``round``, ``scores``, control and the legal moves come from the engine state itself."""
    from kanaloa.rules.engine import Engine
    from kanaloa.rules.reference import ReferenceState

    class Counting(ReferenceState):
        exports = 0

        def to_data(self):
            Counting.exports += 1
            return super().to_data()

    pos = Position.new(players=3, seed=4, engine=Engine("counting", Counting, lambda board: board))
    for _ in range(5):
        pos.push(pos.state.legal_actions()[0])
    assert isinstance(pos.state, Counting)
    assert (pos.to_move, pos.round, pos.is_over, pos.outcome) == ("red", 1, False, None)
    assert pos.scores == {"red": 0, "green": 0, "blue": 0} and pos.controller_of("ORO") is None
    assert pos.legal_moves() and pos.waiting is None
    assert Counting.exports == 0


def test_on_gives_the_position_on_another_engine_without_checking_again(engine):
    pos = Position.from_json(full_doc(), engine=engine)
    same = pos.on(engine)
    assert same.state is not pos.state and same.state.to_data() == pos.state.to_data()
    other = load_engine("core" if engine.name == "reference" else "reference")
    converted = pos.on(other)
    assert converted.engine is other and converted.ruleset == pos.ruleset
    assert isinstance(converted.state, other.state_cls) and converted.state.to_data() == pos.state.to_data()
    assert converted.to_json() == pos.to_json()


def test_a_huge_count_is_refused_in_one_short_line():
    """A count of cards beyond the board's supply is refused at once; a huge score or played count is quoted short."""
    big = int("1" * 2000)
    assert full_position_error(put("hands.green.count", big)).startswith("hands.green")
    message = full_position_error(put("discard.hidden", big))
    assert message == f"discard.hidden: {str(big)[:60]}... (2000 characters) is more than the 48 cards of board oro"
    message = full_position_error(put("scores.red", big))
    assert message.startswith(f"scores.red: {str(big)[:60]}... (2000 characters) points before the first")
    assert len(message) < 200


@pytest.mark.parametrize(("field", "text", "message"), [
    ("seed", "9" * 5000, "seed: a 5000-digit number must be an integer from 0 to 2**64-1"),
    ("seed", "-" + "9" * 5000, "seed: a 5000-digit number must be an integer from 0 to 2**64-1"),
    ("scores", '{"red": ' + "1" * 5000 + "}", "scores.red: a 5000-digit number must be a whole number, 0 or more"),
])
def test_a_number_of_thousands_of_digits_names_its_field_without_python_s_advice(field, text, message):
    """Python refuses to read such a number as an int (sys.set_int_max_str_digits); the reader names the field."""
    doc = json.loads(json.dumps(full_doc()))
    doc[field] = "@@"
    document = json.dumps(doc).replace('"@@"', text)
    with pytest.raises(PositionError) as err:
        Position.from_json(document)
    assert str(err.value) == message
    assert "set_int_max_str_digits" not in str(err.value)


def test_the_api_quotes_long_arguments_cut_short():
    """A 5,000-character color, preset, viewer, player, island or move gives one short message."""
    long = "x" * 5000
    pos = Position.new(players=3, seed=1)
    calls = [
        (OptionError, lambda: Position.new(players=2, colors=(("red", long), ("green", "yellow")))),
        (OptionError, lambda: Position.new(preset=long)),
        (OptionError, lambda: Position.new(players=long)),  # type: ignore[arg-type]
        (PositionError, lambda: pos.as_viewer(long)),
        (PositionError, lambda: pos.colors_of(long)),
        (BoardError, lambda: pos.controller_of(long)),
        (MoveError, lambda: Move("take", cards=(long,)).to_action(pos.ruleset, 0)),
        (MoveError, lambda: Move(long).to_action(pos.ruleset, 0)),
    ]
    for error, call in calls:
        with pytest.raises(error) as caught:
            call()
        message = str(caught.value)
        assert "(5000 characters)" in message and len(message) < 300, message[:400]


# -- reshuffle: what each player saw go into the deck (R9) --------------------------------------


def round_2_position(engine) -> Position:
    """A random 4-player game a few moves into round 2, cards left in its deck."""
    rng = random.Random(5)
    pos = Position.new(4, seed=5, engine=engine)
    while pos.round != 2:
        pos.push(rng.choice(pos.state.legal_actions()))
    for _ in range(3):
        pos.push(rng.choice(pos.state.legal_actions()))
    assert pos.round == 2 and pos.to_json()["deck"]
    return pos


def test_the_reshuffle_field_holds_every_players_knowledge_and_reads_back(engine):
    pos = round_2_position(engine)
    doc = pos.to_json()
    assert set(doc["reshuffle"]) == {"red", "green", "blue", "yellow"}
    assert all(set(k) == {"cards", "unseen"} for k in doc["reshuffle"].values())
    assert Position.from_json(pos.dumps(), engine=engine).to_json() == doc
    # A viewer position holds the viewer's alone: the others' include their own face-down discards.
    seen = pos.as_viewer("green").to_json()
    assert seen["reshuffle"] == {"green": doc["reshuffle"]["green"]}
    assert Position.from_json(seen, engine=engine).to_json() == seen
    # Left out, a player knows nothing of the deck; the position is still good.
    del doc["reshuffle"]
    assert "reshuffle" not in Position.from_json(doc, engine=engine).to_json()


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(reshuffle=[]), "reshuffle: must be an object mapping players to what each saw go into the "
                                       "deck, not []"),
    (lambda d: d["reshuffle"].update(pink={}),
     "reshuffle.pink: 'pink' is not playing (the colors are red, green, blue, yellow)"),
    (lambda d: d["reshuffle"]["red"].update(top="ALOA"), "reshuffle.red.top: unknown field (reshuffle.red has "
                                                         "cards, unseen)"),
    (lambda d: d["reshuffle"]["red"].update(cards=["ORO"] * 4), "reshuffle.red.cards: 4 ORO cards, but the board "
                                                                "has 3"),
    (lambda d: d["reshuffle"]["red"].update(cards=["ATLANTIS"]), "reshuffle.red.cards: 'ATLANTIS' is not an island "
                                                                 "of board oro"),
    (lambda d: d["reshuffle"]["red"].update(unseen=-1), "reshuffle.red.unseen: -1 must be a whole number, 0 or more"),
    (lambda d: d["reshuffle"].update(red={"cards": ["ORO"], "unseen": 1}),
     "reshuffle.red: 1 card and 1 unseen, but the deck holds 31; every card of the deck went into it at the "
     "reshuffle"),
])
def test_a_bad_reshuffle_field_names_the_field_and_why(change, message):
    doc = round_2_position(load_engine("reference")).to_json()
    change(doc)
    assert position_error(doc) == message


def test_the_reshuffle_field_belongs_to_round_2_with_a_deck_and_to_the_viewer():
    engine = load_engine("reference")
    with pytest.raises(PositionError) as err:
        Position.from_json(full_doc(reshuffle={"red": {"cards": ["ALOA"]}}), engine=engine)
    assert str(err.value) == "reshuffle: round 1 has no deck made from a reshuffle (R9)"
    doc = round_2_position(engine).to_json()
    seen = Position.from_json(doc, engine=engine).as_viewer("red").to_json()
    seen["reshuffle"]["blue"] = doc["reshuffle"]["blue"]
    assert position_error(seen, engine) == (
        "reshuffle.blue: red cannot know what blue saw go into the deck (its own face-down "
        "discards among them)")
    seen["deck"] = {"count": 0}
    assert position_error(seen, engine) == "reshuffle: the deck is empty: there is nothing left to know of it"
