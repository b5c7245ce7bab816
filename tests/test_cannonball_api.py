"""Cannonball Colony's position class (R20): dealt, read and written, played by notation on both engines with
the same results, every refusal with its message, and the outcome of each ending."""

from __future__ import annotations

import copy
import json
import random

import pytest

from kanaloa.cannonball import state as S
from kanaloa.cannonball.core import CoreState
from kanaloa.cannonball.position import CannonballPosition
from kanaloa.cannonball.reference import ReferenceState
from kanaloa.cannonball.ruleset import make_cannonball
from kanaloa.errors import MoveError, OptionError, PositionError
from kanaloa.position import format as kanaloa_format

needs_core = pytest.mark.skipif(CoreState is None, reason="the compiled core is not built")
ENGINES = [pytest.param("core", marks=needs_core), "reference"]

ROWS = ["ggfggg", "gggglg", "fggmgg", "ggggfg", "glgggg", "gggfgg",
        "ggfggg", "gmgggf", "ggggfg", "fgglgg", "gggggg", "ggfggg"]  # top row (12) first
BASE = {
    "format": "kanaloa-position/1", "game": "cannonball", "players": ["france", "spain"], "to_move": "spain",
    "round": "play", "seed": 7, "island": {"columns": 6, "rows": ROWS},
    "ships": {"france": "a1", "spain": "f12"}, "roads": ["a1", "b1", "b2", "c2", "d2", "f11", "e12", "f12"],
    "forts": {"france": ["d2"], "spain": ["f11"]}, "cannons": {"france": [], "spain": []}, "blockades": {},
    "earned": {"france": [], "spain": []}, "supply": 42, "turn": {"fired": False, "grass_roads": 0}, "passes": 0,
}
PIECES = ("fort", "fire", "cannon", "blockade")  # the moves a game that should reach ten forts prefers


def base(**fields) -> dict:
    doc = copy.deepcopy(BASE)
    doc.update(fields)
    return doc


def blocked_doc() -> dict:
    """Both ships walled in by lakes with their first road laid: nobody can build, france has passed and
    spain is to move; its pass ends the game all-passed, the two tied (R20.10)."""
    rows = ["gggglg", "gggggl", *ROWS[2:10], "lggggg", "glgggg"]
    return base(island={"columns": 6, "rows": rows}, roads=["a1", "f12"], supply=48, forts={}, passes=1)


def refused_move(pos: CannonballPosition, move, push: bool = False) -> str:
    """The one-line message refusing ``move`` (notation, or with ``push`` an action code)."""
    before = pos.to_json()
    with pytest.raises(MoveError) as info:
        if push:
            pos.push(move)
        else:
            pos.play(move)
    assert pos.to_json() == before  # a refused move changes nothing
    message = str(info.value)
    assert "\n" not in message
    return message


def play_random(pos: CannonballPosition, seed: int, prefer=()) -> list[str]:
    """Play ``pos`` to its end by notation, each move drawn from ``seed`` (``prefer``: words chosen when one
    is legal); the moves played."""
    rng = random.Random(seed)
    played = []
    while not pos.is_over:
        moves = pos.move_strings()
        preferred = [m for m in moves if m.split()[0] in prefer]
        move = rng.choice(preferred or moves)
        pos.play(move)
        played.append(move)
    return played


# -- dealing, reading, writing ---------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_deal_reads_back_from_its_document_and_its_text(engine, players):
    rs = make_cannonball(players=players)
    pos = CannonballPosition.deal(rs, 11, engine)
    assert pos.engine == engine and pos.ruleset is rs
    assert pos.players == S.COUNTRIES[:players] and pos.to_move == "france" and pos.round == "landing"
    assert not pos.is_over and pos.outcome is None and pos.viewer is None and pos.waiting is None
    assert pos.data == rs.new_game(11)
    doc = pos.to_json()
    assert doc["seed"] == 11 and doc["players"] == list(S.COUNTRIES[:players])
    again = CannonballPosition.from_json(doc, engine)
    assert again == pos and again.to_json() == doc and again.ruleset == rs
    assert CannonballPosition.from_json(pos.dumps(), engine) == pos
    assert CannonballPosition.from_json(pos.dumps().encode(), engine) == pos


def test_the_text_is_written_as_every_position_is():
    pos = CannonballPosition.from_json(BASE)
    assert pos.to_json() == BASE
    assert pos.dumps() == kanaloa_format.dumps(BASE)
    assert pos.dumps().endswith("}\n") and json.loads(pos.dumps()) == BASE
    assert '  "players": ["france", "spain"],\n' in pos.dumps()  # short lists stay on one line


def test_the_countries_come_from_the_document():
    rs = make_cannonball(players=3, countries="england,portugal,france")
    pos = CannonballPosition.deal(rs, 4)
    assert pos.players == ("england", "portugal", "france") and pos.to_move == "england"
    again = CannonballPosition.from_json(pos.to_json())
    assert again.players == pos.players and again.ruleset == rs and again == pos


def test_a_read_rule_set_has_the_built_in_tiles():
    pos = CannonballPosition.from_json(BASE)
    assert pos.ruleset == make_cannonball(players=2, countries="france,spain")


def test_the_registry_face_calls_work():
    """``kanaloa.position.documents`` calls ``from_json(doc, engine, boards)`` and ``deal(ruleset, seed,
    engine)`` positionally, the engine a Kanaloa ``Engine`` or None."""
    from kanaloa.rules.board import load_board
    from kanaloa.rules.engine import load_engine

    pos = CannonballPosition.from_json(BASE, None, load_board)
    assert pos.engine == ("core" if CoreState is not None else "reference")
    assert CannonballPosition.from_json(BASE, load_engine("reference"), load_board).engine == "reference"
    dealt = CannonballPosition.deal(make_cannonball(players=2), 3, load_engine("reference"))
    assert dealt.engine == "reference" and isinstance(dealt.state, ReferenceState)


@needs_core
def test_the_core_is_the_default_engine():
    pos = CannonballPosition.deal(make_cannonball(players=2), 3)
    assert pos.engine == "core" and isinstance(pos.state, CoreState)


def test_data_is_a_copy():
    pos = CannonballPosition.from_json(BASE)
    d = pos.data
    d.supply = 1
    assert pos.data.supply == 42


@pytest.mark.parametrize("engine", ENGINES)
def test_a_copy_is_independent_and_equality_is_the_game(engine):
    pos = CannonballPosition.from_json(BASE, engine)
    other = pos.copy()
    assert other == pos and other.engine == engine
    other.play("road d12")  # grass: the turn stays open for a second grass road (R20.6)
    assert other != pos and pos.data.grass_roads == 0 and other.data.grass_roads == 1
    other.play("end")
    assert pos.to_move == "spain" and other.to_move == "france"
    pos.play("spain: road d12")
    pos.play("spain: end")
    assert other == pos
    assert CannonballPosition.from_json(BASE, "reference") == CannonballPosition.from_json(BASE, engine)
    assert pos != pos.to_json()
    renamed = base(players=["england", "spain"], to_move="spain", ships={"england": "a1", "spain": "f12"},
                   forts={"england": ["d2"], "spain": ["f11"]}, cannons={}, earned={})
    assert CannonballPosition.from_json(renamed) != CannonballPosition.from_json(BASE)  # other countries


def test_a_position_is_not_hashable():
    with pytest.raises(TypeError):
        hash(CannonballPosition.from_json(BASE))


# -- playing whole games on both engines -----------------------------------------------------------------


@needs_core
@pytest.mark.parametrize("seed", range(9))
def test_random_games_by_notation_are_the_same_on_both_engines(seed):
    players = 2 + seed % 3
    names = random.Random(seed).sample(S.COUNTRIES, players)
    rs = make_cannonball(players=players, countries=names)
    core = CannonballPosition.deal(rs, seed, "core")
    ref = CannonballPosition.deal(rs, seed, "reference")
    rng = random.Random(seed)
    prefer = PIECES if seed % 2 else ()
    moves = 0
    while not ref.is_over:
        listed = ref.move_strings()
        assert core.move_strings() == listed
        assert core.legal_moves() == ref.legal_moves()
        assert [ref.move_of(a) for a in ref.legal_moves()] == listed
        assert core.to_move == ref.to_move and core.round == ref.round and core.to_json() == ref.to_json()
        preferred = [m for m in listed if m.split()[0] in prefer]
        move = rng.choice(preferred or listed)
        if rng.random() < 0.5:  # the mover's name in front, now and then
            move = f"{ref.to_move}: {move}"
        core.play(move)
        ref.play(move)
        moves += 1
    assert core.is_over and core == ref and core.to_json() == ref.to_json()
    assert core.outcome == ref.outcome and core.outcome is not None
    assert core.legal_moves() == [] and core.move_strings() == [] and core.to_move is None
    assert CannonballPosition.from_json(core.dumps()) == core
    assert moves > players


@pytest.mark.parametrize("engine", ENGINES)
def test_push_plays_action_codes(engine):
    pos = CannonballPosition.deal(make_cannonball(players=2), 5, engine)
    by_text = pos.copy()
    rng = random.Random(5)
    while not pos.is_over:
        action = rng.choice(pos.legal_moves())
        by_text.play(pos.move_of(action))
        pos.push(action)
        assert pos == by_text


# -- refusals ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("move", "message"), [
    ("rod c2", "move 'rod c2': unknown word 'rod'; the moves are land, fire, road, fort, cannon, blockade, end, "
               "pass"),
    ("road", "move 'road': no space; road names one space, like road c2"),
    ("road z9", "move 'road z9': 'z9' is not a space of the island (columns a-f, rows 1-12)"),
    ("", "move '': no move; the moves are land, fire, road, fort, cannon, blockade, end, pass"),
    ("russia: pass", "move 'russia: pass': 'russia' is not a player (france, spain)"),
    ("france: road d12", "move 'france: road d12': france is not to move; spain is"),
    ("road e11", "move 'road e11': e11 is a lake; roads go on grass or forest, lakes and mountains take nothing "
                 "(R20.6)"),
    ("  road e11 ", "move 'road e11': e11 is a lake; roads go on grass or forest, lakes and mountains take "
                    "nothing (R20.6)"),
    ("land a1", "move 'land a1': the ships have landed; the landing round is over (R20.4)"),
    ("fire d2", "move 'fire d2': spain has no cannon on the island to fire (R20.6)"),
    ("end", "move 'end': end only after a first grass road, to leave out the second (R20.6)"),
    (7, "move: must be text, not a number"),
])
def test_a_bad_move_is_refused_with_its_reason(engine, move, message):
    assert refused_move(CannonballPosition.from_json(BASE, engine), move) == message


def test_a_reason_names_the_countries_of_the_game():
    doc = base(players=["england", "portugal"], to_move="portugal", ships={"england": "a1", "portugal": "f12"},
               forts={"england": ["d2"], "portugal": ["f11"]}, cannons={}, earned={})
    pos = CannonballPosition.from_json(doc)
    assert refused_move(pos, "fort d2") == (
        "move 'fort d2': d2 holds england's fort; a fort goes on an empty road space (R20.6)")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_bad_action_code_is_refused(engine):
    pos = CannonballPosition.from_json(BASE, engine)
    assert refused_move(pos, S.encode(S.ROAD, S.parse_space("e11", 6, 12)), push=True) == (
        "move 'road e11': e11 is a lake; roads go on grass or forest, lakes and mountains take nothing (R20.6)")
    assert refused_move(pos, S.encode(S.ROAD, 72), push=True) == "action 360: names no move on this 6 x 12 island"
    assert refused_move(pos, -1, push=True) == "action -1: names no move on this 6 x 12 island"
    assert refused_move(pos, True, push=True) == "action True: names no move on this 6 x 12 island"
    assert refused_move(pos, "road d12", push=True) == "action 'road d12': names no move on this 6 x 12 island"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_move_after_the_end_is_refused(engine):
    pos = CannonballPosition.from_json(blocked_doc(), engine)
    pos.play("pass")
    assert pos.is_over
    assert refused_move(pos, "pass") == "move 'pass': the game is over (R20.10)"
    assert refused_move(pos, "road a2") == "move 'road a2': the game is over (R20.10)"
    assert refused_move(pos, "spain: pass") == "move 'spain: pass': the game is over; nobody is to move (R20.10)"
    assert refused_move(pos, S.encode(S.PASS), push=True) == "move 'pass': the game is over (R20.10)"


@pytest.mark.parametrize("name", ["france", "spain", "red", None])
def test_nobody_is_a_viewer(name):
    with pytest.raises(PositionError) as info:
        CannonballPosition.from_json(BASE).as_viewer(name)  # type: ignore[arg-type]
    assert str(info.value) == "viewer: Cannonball Colony hides nothing; every player sees the whole position"


def test_a_bad_document_is_refused_naming_the_field():
    with pytest.raises(PositionError, match=r"^supply: 41 road tiles left and 8 on the island make 49; the game "
                                            r"has 50 \(R20.3\)$"):
        CannonballPosition.from_json(base(supply=41))
    with pytest.raises(PositionError, match=r"^position: not valid JSON"):
        CannonballPosition.from_json("{not json")
    with pytest.raises(PositionError, match=r"^game: 'kanaloa' is not 'cannonball'"):
        CannonballPosition.from_json(base(game="kanaloa"))


def test_a_bad_engine_seed_or_rule_set_is_refused():
    rs = make_cannonball(players=2)
    with pytest.raises(OptionError, match=r"^engine 'fast': unknown; choose one of core, reference$"):
        CannonballPosition.deal(rs, 1, "fast")
    with pytest.raises(OptionError, match=r"^engine 'fast': unknown; choose one of core, reference$"):
        CannonballPosition.from_json(BASE, "fast")
    with pytest.raises(OptionError, match=r"^seed: must be a whole number from 0 to 2\*\*64-1, not -1$"):
        CannonballPosition.deal(rs, -1)
    with pytest.raises(OptionError, match=r"^seed: must be a whole number from 0 to 2\*\*64-1, not 1844674407"):
        CannonballPosition.deal(rs, 2**64)
    with pytest.raises(OptionError, match=r"^ruleset: 'cannonball' is not a Cannonball Colony rule set"):
        CannonballPosition.deal("cannonball", 1)  # type: ignore[arg-type]


# -- outcomes (R20.10) --------------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_a_shared_victory_when_everybody_passed(engine):
    pos = CannonballPosition.from_json(blocked_doc(), engine)
    assert pos.move_strings() == ["pass"] and pos.outcome is None
    pos.play("spain: pass")
    assert pos.outcome == {"winner": None, "winners": ["france", "spain"], "ranking": ["france", "spain"],
                           "reason": "all-passed"}
    assert pos.to_move is None and pos.round == "over"
    assert CannonballPosition.from_json(pos.to_json(), engine) == pos


@pytest.mark.parametrize("engine", ENGINES)
def test_a_sole_winner_when_everybody_passed(engine):
    """France has one fort more (on spain's board, b12, which its roads reach), so it wins alone."""
    doc = blocked_doc()
    doc.update(roads=["a1", "f12", "a12", "b12"], supply=46, forts={"france": ["b12"]})
    doc["ships"]["spain"] = "f12"
    pos = CannonballPosition.from_json(doc, engine)
    assert pos.move_strings() == ["pass"]
    pos.play("pass")
    assert pos.outcome == {"winner": "france", "winners": ["france"], "ranking": ["france", "spain"],
                           "reason": "all-passed"}


@pytest.mark.parametrize("engine", ENGINES)
def test_the_last_road_ends_the_game(engine):
    pos = CannonballPosition.deal(make_cannonball(players=2), 3, engine)
    play_random(pos, 3)
    outcome = pos.outcome
    assert outcome is not None and outcome["reason"] == "supply" and pos.data.supply == 0
    assert outcome["winners"] == [outcome["winner"]] and outcome["ranking"][0] == outcome["winner"]
    assert sorted(outcome["ranking"]) == sorted(pos.players)


@pytest.mark.parametrize("engine", ENGINES)
def test_ten_forts_win_at_once(engine):
    pos = CannonballPosition.deal(make_cannonball(players=3), 16, engine)
    play_random(pos, 16, PIECES)
    outcome = pos.outcome
    assert outcome is not None and outcome["reason"] == "ten-forts"
    winner = outcome["winner"]
    assert winner is not None and outcome["winners"] == [winner] and outcome["ranking"][0] == winner
    assert pos.data.forts_on_island(pos.players.index(winner)) == S.FORTS
    assert CannonballPosition.from_json(pos.dumps(), engine) == pos


def test_the_game_over_line_of_a_sole_winner():
    from kanaloa.interfaces.cli import game_over_line

    pos = CannonballPosition.deal(make_cannonball(players=2), 3)
    assert game_over_line(pos) == "the game is not over"
    play_random(pos, 3)
    outcome = pos.outcome
    assert outcome is not None
    assert game_over_line(pos) == (f"the game is over: {outcome['winner']} wins on supply; ranking "
                                   f"{', '.join(outcome['ranking'])}")


def test_the_game_over_line_of_a_shared_victory():
    from kanaloa.interfaces.cli import game_over_line

    pos = CannonballPosition.from_json(blocked_doc())
    pos.play("pass")
    assert game_over_line(pos) == ("the game is over: france and spain share the victory (all-passed, R20.10); "
                                   "ranking france, spain")


def test_the_example_of_the_docs_runs():
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs/cannonball.md").read_text(encoding="utf-8")
    section = text[text.index("## Python API"):]
    start = section.index("```python\n") + len("```python\n")
    code = section[start:section.index("```", start)]
    exec(compile(code, "docs/cannonball.md", "exec"), {})
