"""Cannonball Colony's positions and moves (R20): the document read and written, every refusal with its
message, the notation, and round trips over random games."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import pytest

from kanaloa.cannonball import format as F
from kanaloa.cannonball import island, reference
from kanaloa.cannonball import state as S
from kanaloa.errors import MoveError, PositionError

ROOT = Path(__file__).resolve().parent.parent

ROWS = ["ggfggg", "gggglg", "fggmgg", "ggggfg", "glgggg", "gggfgg",
        "ggfggg", "gmgggf", "ggggfg", "fgglgg", "gggggg", "ggfggg"]  # top row (12) first
BASE = {
    "format": "kanaloa-position/1",
    "game": "cannonball",
    "players": ["france", "spain"],
    "to_move": "spain",
    "round": "play",
    "seed": 7,
    "island": {"columns": 6, "rows": ROWS},
    "ships": {"france": "a1", "spain": "f12"},
    "roads": ["a1", "b1", "b2", "c2", "d2", "f11", "e12", "f12"],
    "forts": {"france": ["d2"], "spain": ["f11"]},
    "cannons": {"france": [], "spain": []},
    "blockades": {},
    "earned": {"france": [], "spain": []},
    "supply": 42,
    "turn": {"fired": False, "grass_roads": 0},
    "passes": 0,
}


def base(**fields) -> dict:
    doc = copy.deepcopy(BASE)
    doc.update(fields)
    return doc


def refused(doc) -> str:
    with pytest.raises(PositionError) as info:
        F.read_position(doc)
    message = str(info.value)
    assert "\n" not in message
    return message


def sp(name: str, columns: int = 6) -> int:
    space = S.parse_space(name, columns, 12)
    assert space is not None
    return space


# -- reading ---------------------------------------------------------------------------------------


def test_the_format_name_is_kanaloas():
    from kanaloa.position.format import FORMAT

    assert F.FORMAT == FORMAT


def test_the_base_document_reads_to_its_state():
    countries, d = F.read_position(BASE)
    assert countries == ("france", "spain")
    assert (d.players, d.columns, d.rows, d.round, d.to_move, d.seed) == (2, 6, 12, S.ROUND_PLAY, 1, 7)
    assert d.ships == [sp("a1"), sp("f12")]
    assert d.board_of == [0] * 36 + [1] * 36
    assert d.terrain[sp("d3")] == S.LAKE and d.terrain[sp("d10")] == S.MOUNTAIN and d.terrain[sp("a3")] == S.FOREST
    assert sorted(s for s in range(72) if d.road[s]) == sorted(sp(n) for n in BASE["roads"])
    assert d.fort[sp("d2")] == 0 and d.fort[sp("f11")] == 1
    assert (d.supply, d.fired, d.grass_roads, d.passes, d.reason) == (42, False, 0, 0, S.REASON_NONE)
    assert F.write_position(countries, d) == BASE


def test_text_reads_like_the_document():
    assert F.read_position(json.dumps(BASE)) == F.read_position(BASE)
    assert F.read_position(json.dumps(BASE).encode()) == F.read_position(BASE)


def test_the_example_of_the_docs_reads_and_writes_back():
    text = (ROOT / "docs/cannonball.md").read_text(encoding="utf-8")
    section = text[text.index("## Positions and moves"):]
    block = re.search(r"```json\n(.*?)```", section, re.S)
    assert block is not None
    doc = json.loads(block.group(1))
    countries, d = F.read_position(doc)
    assert F.write_position(countries, d) == doc
    assert F.why_not("fort c3", countries, d) == (
        "move 'fort c3': c3 holds no road; a fort goes on an empty connected road space (R20.6)")


def test_optional_fields_default_to_empty():
    doc = base(forts={}, cannons={}, earned={}, blockades={}, supply=50, roads=[])
    del doc["turn"], doc["passes"]
    for key in ("forts", "cannons", "earned", "blockades"):
        del doc[key]
    _, d = F.read_position(doc)
    assert not any(d.road) and d.fort == [S.NOBODY] * 72 and d.earned == [0, 0] and d.passes == 0


def test_players_may_be_any_countries_in_any_order():
    doc = base(players=["england", "portugal"], to_move="portugal",
               ships={"england": "a1", "portugal": "f12"},
               forts={"england": ["d2"], "portugal": ["f11"]}, cannons={}, earned={})
    countries, d = F.read_position(doc)
    assert countries == ("england", "portugal") and d.to_move == 1 and d.fort[sp("d2")] == 0


def test_three_players_leave_the_bottom_corners_outside():
    d = island.new_game(3, 5)
    doc = F.write_position(("france", "spain", "portugal"), d)
    assert doc["island"]["rows"][11].startswith("...") and doc["island"]["rows"][11].endswith("...")
    assert F.read_position(doc)[1] == d
    rows = list(doc["island"]["rows"])
    rows[11] = "g" + rows[11][1:]
    doc["island"] = {"columns": 12, "rows": rows}
    assert refused(doc) == ("island.rows[11]: a1 is 'g', but the 3-player layout leaves it outside the island, "
                            "on no tile (R20.1)")
    rows[11] = "..." + "." + rows[11][4:]
    rows[11] = "...." + rows[11][4:]
    doc["island"] = {"columns": 12, "rows": rows}
    assert refused(doc) == ("island.rows[11]: d1 is '.', but it is on france's landing board; a tile has no "
                            "space outside (R20.1)")


def _set(path: str, value):
    """A change of the base document: ``path`` like ``forts.france`` (created as needed); a value of
    ``DELETE`` removes the field."""
    def change(doc):
        keys = path.split(".")
        target = doc
        for key in keys[:-1]:
            target = target.setdefault(key, {})
        if value is DELETE:
            del target[keys[-1]]
        else:
            target[keys[-1]] = value
        return doc
    return change


DELETE = object()

# A cannon-ready base: france earned cannon1 and has roads b1, c2 free to hold pieces.
CASES = [
    # the document and its top-level fields
    (_set("to_move", DELETE), "to_move: missing"),
    (_set("island", DELETE), "island: missing"),
    (_set("colour", 1), "colour: unknown field (the fields are format, game, players, to_move, round, seed, "
                        "island, ships, roads, forts, cannons, blockades, earned, supply, turn, passes, result)"),
    (_set("format", "kanaloa-position/2"), "format: 'kanaloa-position/2' is not 'kanaloa-position/1'"),
    (_set("game", "kanaloa"), "game: 'kanaloa' is not 'cannonball'; this reader reads Cannonball Colony"),
    (_set("players", ["france"]), "players: must list 2 to 4 countries (france, spain, portugal, england) in seat "
                                  "order, not 1 entry (R20.3)"),
    (_set("players", "france"), "players: must list 2 to 4 countries (france, spain, portugal, england) in seat "
                                "order, not a string (R20.3)"),
    (_set("players", ["france", "prussia"]), "players[1]: 'prussia' is not a country (france, spain, portugal, "
                                             "england) (R20.3)"),
    (_set("players", ["france", "france"]), "players: france twice"),
    (_set("round", "final"), "round: 'final' is not one of 'landing', 'play', 'over'"),
    (_set("seed", -1), "seed: must be a whole number from 0 to 2**64-1, not -1"),
    (_set("seed", 2**64), "seed: must be a whole number from 0 to 2**64-1, not 18446744073709551616"),
    (_set("seed", True), "seed: must be a whole number from 0 to 2**64-1, not True"),
    (_set("to_move", None), "to_move: null, but the game is not over; name the player to move"),
    (_set("to_move", "england"), "to_move: 'england' is not a player (france, spain)"),
    (_set("to_move", 1), "to_move: must be a player's name, not a number"),
    # the island
    (_set("island", []), "island: must be an object {\"columns\": C, \"rows\": [...]}, not an array"),
    (_set("island.width", 6), "island.width: unknown field (island has columns, rows)"),
    (_set("island.columns", DELETE), "island.columns: missing"),
    (_set("island.columns", 0), "island.columns: must be a whole number of columns, not 0"),
    (_set("island.rows", "gggggg"), "island.rows: must be a list of rows, top row first, not a string"),
    (_set("island.rows", [*ROWS[:3], 7, *ROWS[4:]]), "island.rows[3]: must be a string of 6 letters, not a number"),
    (_set("island.rows", [*ROWS[:3], "ggg", *ROWS[4:]]), "island.rows[3]: 3 letters, but the island has 6 columns"),
    (_set("island.rows", [*ROWS[:3], "ggxggg", *ROWS[4:]]),
     "island.rows[3]: letter 3 is 'x'; a space is g (grass), f (forest), l (lake), m (mountain), . (outside)"),
    (_set("island.rows", ROWS[:6]), "island: 6 columns x 6 rows, but 2 players play on 6 columns x 12 rows (R20.1)"),
    (_set("island.rows", [".ggggg", *ROWS[1:]]),
     "island.rows[0]: a12 is '.', but it is on spain's landing board; a tile has no space outside (R20.1)"),
    # spaces and ships
    (_set("ships.france", "z9"), "ships.france: 'z9' is not a space of the island (columns a-f, rows 1-12)"),
    (_set("ships.france", "a0"), "ships.france: 'a0' is not a space of the island (columns a-f, rows 1-12)"),
    # Row numbers in ASCII digits only, and not thousands of them.
    (_set("ships.france", "a\u00b2"), "ships.france: 'a\u00b2' is not a space of the island (columns a-f, rows 1-12)"),
    (_set("ships.france", "a\u0661"), "ships.france: 'a\u0661' is not a space of the island (columns a-f, rows 1-12)"),
    (_set("roads", ["a" + "1" * 5000]), "roads[0]: 'a" + "1" * 59 + "'... (5001 characters) is not a space of the "
                                         "island (columns a-f, rows 1-12)"),
    (_set("ships.france", 3), "ships.france: must be a space like c7, not a number"),
    (_set("ships.germany", "a1"), "ships: 'germany' is not a player (france, spain)"),
    (_set("ships", []), "ships: must be an object keyed by player, not an array"),
    (_set("ships.france", "a12"), "ships.france: a12 is on spain's landing board; france lands on its own (R20.4)"),
    (_set("ships.france", "b5"), "ships.france: b5 is a mountain; a ship lands on grass or forest (R20.4)"),
    (_set("ships.france", "d3"), "ships.france: d3 is a lake; a ship lands on grass or forest (R20.4)"),
    (_set("ships.france", "c2"), "ships.france: c2 is not on the island's edge (R20.4)"),
    (_set("ships.france", "a6"), "ships.france: a6 touches another player's landing board (R20.4)"),
    (_set("ships", {"france": "a5", "spain": "a8"}),
     "ships.spain: a8 is 3 steps from france's ship at a5; ships land more than 4 apart (R20.4)"),
    # roads
    (_set("roads", "a1"), "roads: must be a list of spaces, not a string"),
    (_set("roads", ["a1", "d3", *BASE["roads"][2:]]), "roads: d3 is a lake; roads go on grass or forest (R20.6)"),
    (_set("roads", ["a1", "d10", *BASE["roads"][2:]]),
     "roads: d10 is a mountain; roads go on grass or forest (R20.6)"),
    (_set("roads", ["a1", "a1", *BASE["roads"][2:]]), "roads: a1 twice"),
    (_set("roads", ["a1", "B1", "b1", *BASE["roads"][3:]]), "roads: b1 twice"),
    # forts, cannons, blockades
    (_set("forts.france", ["d2", "a1", "z9"]),
     "forts.france[2]: 'z9' is not a space of the island (columns a-f, rows 1-12)"),
    (_set("forts.spain", ["f11", "c4"]), "forts.spain: c4 has no road; a fort stands on a road (R20.6)"),
    (_set("forts.spain", ["d2"]), "forts.spain: d2 holds france's fort; one piece a space (R20.6)"),
    (_set("forts.france", ["a1"]), "forts.france: a1 holds france's ship; one piece a space (R20.6)"),
    (_set("forts.france", ["d2", "d2"]), "forts.france: d2 twice"),
    (_set("forts.france", "d2"), "forts.france: must be a list of spaces, not a string"),
    (_set("cannons.france", ["b1", "c2"]), "cannons.france: 2 cannons but france has earned 0 (R20.8)"),
    (lambda doc: _set("earned.france", ["cannon1"])(_set("cannons.france", ["b1", "c2"])(doc)),
     "cannons.france: 2 cannons but france has earned 1 (R20.8)"),
    (_set("cannons.france", ["b1", "c2", "b2"]), "cannons.france: 3 cannons; a player has 2 (R20.3)"),
    (_set("cannons.france", ["d2"]), "cannons.france: d2 holds france's fort; one piece a space (R20.6)"),
    (_set("cannons.spain", ["c4"]), "cannons.spain: c4 has no road; a cannon stands on a road (R20.6)"),
    (_set("blockades.france", "b1"), "blockades.france: france has not earned its blockade (R20.8)"),
    (_set("blockades.france", "f12"), "blockades.france: f12 holds spain's ship; one piece a space (R20.6)"),
    (_set("blockades.france", ["b1"]), "blockades.france: must be a space like c7, not an array"),
    # earned
    (_set("earned.france", "cannon1"), "earned.france: must be a list of earned pieces (cannon1, cannon2, blockade), "
                                       "not a string"),
    (_set("earned.france", ["cannon3"]), "earned.france[0]: 'cannon3' is not an earned piece (cannon1, cannon2, "
                                         "blockade) (R20.8)"),
    (_set("earned.france", ["cannon1", "cannon1"]), "earned.france: cannon1 twice"),
    (_set("earned.france", ["cannon2"]), "earned.france: cannon2 without cannon1; the 3rd fort earns cannon1 before "
                                         "the 6th earns cannon2 (R20.8)"),
    (_set("earned.france", ["cannon1", "blockade"]), "earned.france: blockade without cannon2; the 6th fort earns "
                                                     "cannon2 before the 8th earns the blockade (R20.8)"),
    (_set("forts.france", ["d2", "b1", "a1"]), "forts.france: a1 holds france's ship; one piece a space (R20.6)"),
    # supply, turn, passes
    (lambda doc: _set("supply", 45)(_set("roads", BASE["roads"][:7])(doc)),
     "supply: 45 road tiles left and 7 on the island make 52; the game has 50 (R20.3)"),
    (_set("supply", -1), "supply: must be a whole number of road tiles from 0 to 50, not -1"),
    (_set("supply", "42"), "supply: must be a whole number of road tiles from 0 to 50, not '42'"),
    (_set("turn", []), "turn: must be an object {\"fired\": ..., \"grass_roads\": ...}, not an array"),
    (_set("turn.shots", 1), "turn.shots: unknown field (turn has fired, grass_roads)"),
    (_set("turn.fired", 1), "turn.fired: must be true or false, not 1"),
    (_set("turn.grass_roads", 2), "turn.grass_roads: must be 0 or 1, not 2"),
    (_set("turn.fired", True), "turn.fired: true, but spain has no cannon on the island (R20.6)"),
    (_set("passes", 3), "passes: must be a whole number from 0 to 2, not 3"),
    (_set("passes", 2), "passes: 2: every player has passed, so the game is over (R20.10)"),
    (_set("result", {}), "result: only once the game is over (round \"over\")"),
]


@pytest.mark.parametrize(("change", "message"), CASES, ids=[m.split(":")[0] + f"-{i}" for i, (_, m) in
                                                             enumerate(CASES)])
def test_a_bad_field_is_refused_naming_it(change, message):
    assert refused(change(base())) == message


def test_three_forts_uncover_cannon1_six_cannon2_eight_the_blockade():
    roads = ["a1", "b1", "c1", "d1", "e1", "f1", "a2", "b2", "c2", "d2", "e2", "f2", "f11", "e12", "f12"]
    doc = base(roads=roads, supply=50 - len(roads), forts={"france": ["b1", "e1", "c2"], "spain": ["f11"]})
    assert refused(doc) == "earned.france: france has 3 forts on the island, so its mat has shown cannon1 (R20.8)"
    doc["earned"]["france"] = ["cannon1"]
    F.read_position(doc)
    doc["forts"]["france"] = ["b1", "c1", "d1", "e1", "f1", "b2"]
    assert refused(doc) == "earned.france: france has 6 forts on the island, so its mat has shown cannon2 (R20.8)"
    doc["earned"]["france"] = ["cannon1", "cannon2"]
    doc["forts"]["france"] = ["b1", "c1", "d1", "e1", "f1", "b2", "c2", "d2"]
    assert refused(doc) == "earned.france: france has 8 forts on the island, so its mat has shown blockade (R20.8)"
    doc["earned"]["france"] = ["blockade", "cannon2", "cannon1"]  # any order on input
    _, d = F.read_position(doc)
    assert d.earned[0] == S.CANNON_1 | S.CANNON_2 | S.BLOCKADE
    assert F.write_position(("france", "spain"), d)["earned"]["france"] == ["cannon1", "cannon2", "blockade"]


def test_ten_and_more_forts():
    roads = [f"{c}{r}" for r in (1, 2, 4) for c in "abcdef"] + ["f11", "e12", "f12"]
    eleven = ["b1", "c1", "d1", "e1", "f1", "a2", "b2", "c2", "d2", "e2", "f2"]
    doc = base(roads=roads, supply=50 - len(roads), forts={"france": eleven, "spain": ["f11"]},
               earned={"france": ["cannon1", "cannon2", "blockade"], "spain": []})
    assert refused(doc) == "forts.france: 11 forts; a player has 10 (R20.3)"
    doc["forts"]["france"] = eleven[:10]
    assert refused(doc) == ("forts.france: all 10 forts on the island, but the game is not over; the tenth ends it "
                            "(R20.10)")


def test_an_empty_supply_ends_the_game():
    _, d = F.read_position(BASE)
    land = [S.space_name(s, 6) for s in range(72) if d.terrain[s] in (S.GRASS, S.FOREST)]
    doc = base(roads=[*land[:49], "f12"], supply=0, forts={}, earned={})
    assert refused(doc) == "supply: 0 road tiles left, but the game is not over; the last road ends it (R20.10)"


def test_a_country_without_a_ship_is_one_that_found_no_landing_space():
    """R20.4: a country lands unless no landing space is left to it when its turn comes; a document may
    leave a ship out only then (the ships of the seats before it on the island)."""
    doc = base(ships={"france": "a1"})
    assert refused(doc) == ("ships.spain: missing, but spain had landing spaces when its turn to land came "
                            "(a8, f8, a9, ...); only a country that found none has no ship (R20.4)")
    # Spain's board walled in by lakes along the island's edge: no landing space, so no ship.
    walled = base(island={"columns": 6, "rows": ["llllll", *["lggggl"] * 4, *ROWS[5:]]}, ships={"france": "a1"},
                  roads=["a1", "b1", "b2", "c2", "d2"], supply=45, forts={"france": ["d2"]})
    countries, d = F.read_position(walled)
    assert d.ships == [0, S.NO_SPACE] and countries == ("france", "spain")


def test_a_second_grass_road_is_pending_only_where_one_is_legal():
    doc = base(to_move="france", roads=["a1", "f12"], supply=48, forts={}, turn={"grass_roads": 1})
    _, d = F.read_position(doc)
    assert d.grass_roads == 1 and reference.legal_actions(d)[-1] == S.encode(S.END)
    doc["island"]["rows"] = [*ROWS[:10], "fggggg", "gfgggg"]  # a1 between forests: no grass next to it
    assert refused(doc) == ("turn.grass_roads: 1, but france has no second grass road to lay; the turn would have "
                            "ended (R20.6)")


def test_the_landing_round():
    doc = base(round="landing", to_move="spain", ships={"france": "a1"}, roads=[], forts={}, supply=50)
    _, d = F.read_position(doc)
    assert d.round == S.ROUND_LANDING and d.ships == [sp("a1"), S.NO_SPACE]
    assert refused(base(round="landing", to_move="france", ships={"france": "a1"}, roads=[], forts={},
                        supply=50)) == ("ships.france: france has not landed yet: the seats land in seat order and "
                                        "france is to land (R20.4)")
    assert refused(base(round="landing", ships={"france": "a1"}, roads=["a1"], forts={}, supply=49)) == (
        "roads: nothing is built in the landing round (R20.4)")
    assert refused(base(round="landing", ships={"france": "a1"}, roads=[], forts={}, supply=50,
                        earned={"france": ["cannon1"]})) == (
        "earned.france: nothing is earned in the landing round (R20.4, R20.8)")
    assert refused(base(round="landing", ships={"france": "a1"}, roads=[], forts={}, supply=50, passes=1)) == (
        "passes: the landing round counts no passes (R20.10)")
    assert refused(base(round="landing", ships={"france": "a1"}, roads=[], forts={}, supply=50,
                        turn={"fired": True})) == "turn.fired: the landing round has no shots and no roads (R20.4)"


# -- text input --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "message"), [
    ('{"format": "kanaloa-position/1", "format": "kanaloa-position/1"}',
     "position: the key 'format' appears twice in one object; a position says each thing once"),
    ("{not json", "position: not valid JSON (Expecting property name enclosed in double quotes at line 1 column 2)"),
    ("[1, 2]", "position: must be a JSON object, not an array"),
    (b"\xff{}", "position: not UTF-8 text (byte 0 cannot be decoded)"),
    ("[" * 100000 + "]" * 100000, "position: not a position: the JSON is nested far too deeply"),
])
def test_text_that_is_no_position_is_refused(text, message):
    assert refused(text) == message


def test_a_huge_number_is_refused_by_its_field():
    text = json.dumps(base(seed=0)).replace('"seed": 0', '"seed": ' + "9" * 5000)
    assert refused(text) == "seed: must be a whole number from 0 to 2**64-1, not a 5000-digit number"
    text = json.dumps(base()).replace('"supply": 42', '"supply": ' + "9" * 5000)
    assert refused(text) == "supply: must be a whole number of road tiles from 0 to 50, not a 5000-digit number"


def test_a_duplicate_key_deep_inside_is_refused():
    text = json.dumps(base()).replace('"forts": {"france"', '"forts": {"spain": [], "spain": [], "france"')
    assert refused(text) == "position: the key 'spain' appears twice in one object; a position says each thing once"


# -- finished games ------------------------------------------------------------------------------------


def play_out(players: int, seed: int, prefer=()) -> tuple[tuple[str, ...], reference.ReferenceState]:
    """A random game from the seeded island to its end; ``prefer``: kinds of move chosen when legal."""
    rs = reference.ReferenceState(island.new_game(players, seed))
    rng = random.Random(seed)
    while not rs.is_over:
        actions = rs.legal_actions()
        preferred = [a for a in actions if S.decode(a)[0] in prefer]
        rs.apply(rng.choice(preferred or actions))
    return S.COUNTRIES[:players], rs


PIECES = (S.FORT_BUILD, S.FIRE, S.CANNON_BUILD, S.BLOCKADE_BUILD)


def blocked_doc() -> dict:
    """Both ships walled in by lakes with their first road laid: nobody can build, so both pass (R20.10)."""
    rows = ["gggglg", "gggggl", *ROWS[2:10], "lggggg", "glgggg"]
    return base(island={"columns": 6, "rows": rows}, roads=["a1", "f12"], supply=48, forts={}, passes=1)


def test_everybody_passing_ends_the_game_and_the_result_reads_back():
    countries, d = F.read_position(blocked_doc())
    assert reference.legal_actions(d) == [S.encode(S.PASS)]
    reference.ReferenceState(d).apply(S.encode(S.PASS))
    assert d.reason == S.REASON_ALL_PASSED and d.passes == 2
    doc = F.write_position(countries, d)
    assert doc["to_move"] is None and "turn" not in doc and doc["passes"] == 2
    assert doc["result"] == {"winners": ["france", "spain"], "ranking": ["france", "spain"], "reason": "all-passed"}
    assert F.read_position(doc) == (countries, d)


def test_a_ten_fort_game_reads_back():
    countries, rs = play_out(3, 16, PIECES)
    assert rs.reason == S.REASON_TEN_FORTS
    doc = F.write_position(countries, rs.data)
    assert doc["result"]["reason"] == "ten-forts"
    assert F.read_position(doc) == (countries, rs.data)


def over_doc() -> dict:
    countries, d = F.read_position(blocked_doc())
    reference.ReferenceState(d).apply(S.encode(S.PASS))
    return F.write_position(countries, d)


@pytest.mark.parametrize(("change", "message"), [
    (_set("to_move", "france"), "to_move: 'france', but the game is over; to_move is then null"),
    (_set("turn", {"fired": False, "grass_roads": 0}), "turn: the game is over; a finished game has no turn"),
    (_set("result", DELETE), "result: missing; a finished game has one"),
    (_set("result", []), "result: must be an object, not an array"),
    (_set("result.winner", "france"), "result.winner: unknown field (result has winners, ranking, reason)"),
    (_set("result.ranking", DELETE), "result.ranking: missing"),
    (_set("result.reason", "points"), "result.reason: 'points' is not one of 'ten-forts', 'supply', 'all-passed'"),
    (_set("result.reason", "supply"), "result.reason: supply, but 48 road tiles are left (R20.10)"),
    (_set("result.reason", "ten-forts"), "result.reason: ten-forts, but nobody has 10 forts on the island (R20.10)"),
    (_set("passes", 1), "result.reason: all-passed, but passes is 1, not 2 (R20.10)"),
    (_set("result.winners", ["france"]),
     "result.winners: ['france'], but the pieces on the island give ['france', 'spain'] (R20.10)"),
    (_set("result.ranking", ["spain", "france"]),
     "result.ranking: ['spain', 'france'], but the pieces on the island give ['france', 'spain'] (R20.10)"),
    (_set("result.winners", "france"), "result.winners: must be a list of players, not a string"),
    (_set("result.winners", ["russia"]), "result.winners[0]: 'russia' is not a player (france, spain)"),
])
def test_a_bad_result_is_refused_naming_the_field(change, message):
    assert refused(change(over_doc())) == message


def test_a_game_ended_otherwise_has_not_every_player_passed():
    countries, rs = play_out(2, 3)
    assert rs.reason == S.REASON_SUPPLY
    doc = F.write_position(countries, rs.data)
    doc["passes"] = 2
    assert refused(doc) == ("result.reason: supply, but passes is 2: every player passed, so the game ended "
                            "all-passed (R20.10)")


# -- round trips over random games ------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(24))
def test_every_state_of_random_games_round_trips(seed):
    players = 2 + seed % 3
    names = tuple(random.Random(seed).sample(S.COUNTRIES, players))
    rs = reference.ReferenceState(island.new_game(players, seed))
    rng = random.Random(seed)
    prefer = PIECES if seed % 2 else ()
    while True:
        doc = F.write_position(names, rs.data)
        assert F.read_position(doc) == (names, rs.data)
        assert F.read_position(json.dumps(doc)) == (names, rs.data)
        if rs.is_over:
            break
        actions = rs.legal_actions()
        for action in actions:
            text = F.move_text(action, names, rs.data)
            assert F.parse_move(text, names, rs.data) == action
            assert F.why_not(text, names, rs.data) is None
            named = F.move_text(action, names, rs.data, with_name=True)
            assert named == f"{names[rs.to_move]}: {text}"
            assert F.parse_move(named, names, rs.data) == action
        preferred = [a for a in actions if S.decode(a)[0] in prefer]
        rs.apply(rng.choice(preferred or actions))


# -- the notation ----------------------------------------------------------------------------------------


def position() -> tuple[tuple[str, ...], S.CannonballData]:
    return F.read_position(BASE)  # spain to move


@pytest.mark.parametrize(("text", "kind", "space"), [
    ("land c1", S.LAND, "c1"), ("fire d7", S.FIRE, "d7"), ("road c2", S.ROAD, "c2"), ("fort c2", S.FORT_BUILD, "c2"),
    ("cannon e4", S.CANNON_BUILD, "e4"), ("blockade f5", S.BLOCKADE_BUILD, "f5"), ("end", S.END, None),
    ("pass", S.PASS, None), ("road f10", S.ROAD, "f10"),
])
def test_canonical_moves_round_trip(text, kind, space):
    countries, d = position()
    action = F.parse_move(text, countries, d)
    assert action == S.encode(kind, 0 if space is None else sp(space))
    assert F.move_text(action, countries, d) == text
    assert F.move_text(action, countries, d, with_name=True) == f"spain: {text}"
    assert F.parse_move(f"spain: {text}", countries, d) == action


def test_moves_are_read_in_any_case_and_spacing():
    countries, d = position()
    assert F.parse_move("  Spain :  ROAD   E11 ", countries, d) == S.encode(S.ROAD, sp("e11"))
    assert F.parse_move("PASS", countries, d) == S.encode(S.PASS)


@pytest.mark.parametrize(("text", "message"), [
    ("rod c2", "move 'rod c2': unknown word 'rod'; the moves are land, fire, road, fort, cannon, blockade, end, "
               "pass"),
    ("", "move '': no move; the moves are land, fire, road, fort, cannon, blockade, end, pass"),
    ("spain:", "move 'spain:': no move; the moves are land, fire, road, fort, cannon, blockade, end, pass"),
    ("road", "move 'road': no space; road names one space, like road c2"),
    ("fort c2 c3", "move 'fort c2 c3': 2 words after fort; fort names one space, like fort c2"),
    ("end c2", "move 'end c2': end takes no space"),
    ("road z9", "move 'road z9': 'z9' is not a space of the island (columns a-f, rows 1-12)"),
    ("road c13", "move 'road c13': 'c13' is not a space of the island (columns a-f, rows 1-12)"),
    ("france: road c2", "move 'france: road c2': france is not to move; spain is"),
    ("england: road c2", "move 'england: road c2': 'england' is not a player (france, spain)"),
])
def test_a_malformed_move_is_refused_naming_it(text, message):
    countries, d = position()
    with pytest.raises(MoveError) as info:
        F.parse_move(text, countries, d)
    assert str(info.value) == message


def test_a_move_of_no_text_and_a_move_after_the_end():
    countries, d = position()
    with pytest.raises(MoveError, match=r"^move: must be text, not a number$"):
        F.parse_move(7, countries, d)  # type: ignore[arg-type]
    countries, d = F.read_position(over_doc())
    with pytest.raises(MoveError, match=r"^move 'spain: pass': the game is over; nobody is to move \(R20.10\)$"):
        F.parse_move("spain: pass", countries, d)
    assert F.move_text(S.encode(S.PASS), countries, d, with_name=True) == "pass"
    assert F.why_not("pass", countries, d) == "move 'pass': the game is over (R20.10)"


@pytest.mark.parametrize("action", [-1, S.encode(S.PASS + 1), S.encode(S.END, 3), S.encode(S.ROAD, 72), None, "3", 2.0])
def test_an_action_code_naming_no_move_has_no_text(action):
    countries, d = position()
    with pytest.raises(MoveError, match=r"names no move on this 6 x 12 island"):
        F.move_text(action, countries, d)


def test_why_not_gives_the_rules_reason():
    countries, d = position()
    assert F.why_not("road e11", countries, d) == (
        "move 'road e11': e11 is a lake; roads go on grass or forest, lakes and mountains take nothing (R20.6)")
    assert F.why_not("road d12", countries, d) is None
    assert F.why_not("land a1", countries, d) == (
        "move 'land a1': the ships have landed; the landing round is over (R20.4)")
    with pytest.raises(MoveError):
        F.why_not("rod c2", countries, d)


def test_why_not_names_the_players_of_the_game():
    doc = base(players=["england", "portugal"], to_move="portugal", ships={"england": "a1", "portugal": "f12"},
               forts={"england": ["d2"], "portugal": ["f11"]}, cannons={}, earned={})
    countries, d = F.read_position(doc)
    assert F.why_not("fort d2", countries, d) == (
        "move 'fort d2': d2 holds england's fort; a fort goes on an empty road space (R20.6)")
    assert F.why_not("fire d2", countries, d) == "move 'fire d2': portugal has no cannon on the island to fire (R20.6)"
