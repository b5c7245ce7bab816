"""Cannonball Colony through the ``kanaloa`` command: every command reaches the game through the registry
(R20; docs/cannonball.md "Commands").  The commands are the same ones that serve Kanaloa; nothing in them
names the game (tests/test_no_game_checks.py)."""

from __future__ import annotations

import json
import random
import shlex
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cli_helpers import run, user_error
from kanaloa.cannonball import island
from kanaloa.cannonball.position import CannonballPosition
from kanaloa.cannonball.ruleset import make_cannonball
from test_cannonball_api import blocked_doc

SVG = "{http://www.w3.org/2000/svg}"


def dealt(*options: str, seed: int = 7) -> str:
    result = run("new", "--game", "cannonball", "--seed", str(seed), *options)
    assert result.exit_code == 0, result.output
    return result.stdout


def landed(players: int = 2, seed: int = 7) -> str:
    """A game of ``players`` after every ship has landed on its first legal space (R20.4)."""
    pos = CannonballPosition.deal(make_cannonball(players=players), seed)
    while pos.round == "landing":
        pos.play(pos.move_strings()[0])
    return pos.dumps()


def winning_position(players: int) -> tuple[str, set[str]]:
    """A position, reached by random play, where the mover has a move that wins the game outright, with its
    winning moves (ten forts, R20.7, or the shot that leaves the mover alone at the top of a last road,
    R20.10): found by trying every move on a copy."""
    for seed in range(200):
        pos = CannonballPosition.deal(make_cannonball(players=players), seed)
        rng = random.Random(seed)
        while not pos.is_over:
            mover = pos.to_move
            wins = set()
            for move in pos.move_strings():
                after = pos.copy()
                after.play(move)
                if after.is_over and after.outcome["winners"] == [mover]:
                    wins.add(move)
            if wins and len(wins) < len(pos.move_strings()):
                return pos.dumps(), wins
            moves = pos.move_strings()
            forts = [m for m in moves if m.split()[0] in ("fort", "fire")]
            pos.play(rng.choice(forts or moves))
    raise AssertionError("no position with a winning move in 200 seeds")


# -- new, show, moves, play ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_new_deals_the_game_with_its_parameters(players):
    doc = json.loads(dealt("--players", str(players)))
    assert doc["game"] == "cannonball" and len(doc["players"]) == players
    assert CannonballPosition.from_json(doc) == CannonballPosition.deal(make_cannonball(players=players), 7)


def test_new_takes_the_countries_and_tile_files(tmp_path):
    tile = json.loads((Path(island.__file__).parent / "tiles" / "ridge.json").read_text("utf-8"))
    tile["name"] = "my-ridge"
    path = tmp_path / "my-ridge.json"
    path.write_text(json.dumps(tile))
    doc = json.loads(dealt("--players", "2", "--countries", "spain,england", "--tiles", f"{path},meadow"))
    assert doc["players"] == ["spain", "england"]
    expected = CannonballPosition.deal(make_cannonball(players=2, countries="spain,england",
                                                       tiles=f"{path},meadow"), 7)
    assert CannonballPosition.from_json(doc) == expected


@pytest.mark.parametrize("options, fragments", [
    (["--players", "5"], ["--players 5:", "2, 3 or 4 players", "R20.1"]),
    (["--preset", "tabletop"], ["--preset tabletop:", "no such parameter"]),
    (["--gods"], ["--gods:", "no such parameter"]),
    (["--countries", "france,france"], ["--countries", "france twice", "R20.3"]),
    (["--countries", "atlantis,spain,france,england"], ["--countries", "atlantis", "not a country", "R20.3"]),
    (["--tiles", "nosuch"], ["--tiles: tile 'nosuch':", "no such built-in tile"]),
    (["--tiles", "meadow", "--players", "2"], ["--tiles", "1 tile for 2 players", "R20.1"]),
    (["--viewer", "france"], ["--viewer:", "hides nothing"]),
])
def test_new_refuses_a_bad_option_in_one_line(options, fragments):
    user_error(run("new", "--game", "cannonball", "--seed", "1", *options), *fragments)


def test_show_draws_the_map():
    out = run("show", "-", "--no-color", input=dealt("--players", "3")).stdout
    assert out.startswith("Cannonball Colony: 3 countries on a ")
    assert "france to move, landing round" in out and "Road supply: 70 of 70 tiles left" in out


def test_moves_lists_the_landings_and_play_plays_them():
    doc = dealt("--players", "2")
    listed = json.loads(run("moves", "-", "--json", input=doc).stdout)
    assert listed == CannonballPosition.from_json(doc).move_strings() and listed[0].startswith("land ")
    result = run("play", "-", listed[0], input=doc)
    assert result.exit_code == 0, result.output
    after = CannonballPosition.from_json(result.stdout)
    assert after.to_move == "spain" and after.data.ships[0] >= 0


def test_play_refuses_an_illegal_move_with_its_rule():
    doc = dealt("--players", "2")
    user_error(run("play", "-", "road a1", input=doc), "road a1")
    user_error(run("play", "-", "fly a1", input=doc), "fly a1")


def test_moves_of_a_shared_victory_say_so():
    pos = CannonballPosition.from_json(blocked_doc())
    pos.play("pass")
    result = run("moves", "-", input=pos.dumps())
    assert result.exit_code == 0
    assert result.stdout.strip() == ("the game is over: france and spain share the victory (all-passed, R20.10); "
                                     "ranking france, spain")


# -- hint -------------------------------------------------------------------------------------------


def test_hint_suggests_a_legal_move_with_the_mover_s_gains():
    doc = landed(3)
    result = run("hint", "-", "--iterations", "400", "--workers", "1", "--json", input=doc)
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    pos = CannonballPosition.from_json(doc)
    assert found["move"] in pos.move_strings() and found["plan"][0] == found["move"]
    assert list(found["gains"]) == [pos.to_move]
    assert set(found["gains"][pos.to_move]["now"]) == {"forts", "cannons", "rival_forts"}
    assert set(found["expected_points"]) == set(pos.players)
    assert sum(c["visits"] for c in found["candidates"]) <= found["iterations"]


def test_hint_is_the_same_for_the_same_seed_and_workers():
    doc = landed(2)
    first = json.loads(run("hint", "-", "--iterations", "600", "--workers", "2", "--seed", "3", "--json",
                           input=doc).stdout)
    again = json.loads(run("hint", "-", "--iterations", "600", "--workers", "2", "--seed", "3", "--json",
                           input=doc).stdout)
    for key in ("seconds", "nodes"):
        first.pop(key), again.pop(key)
    assert first == again


def test_hint_text_says_forts():
    out = run("hint", "-", "--iterations", "300", "--workers", "1", input=landed(2)).stdout
    lines = out.splitlines()
    assert lines[0].startswith("move: ")
    assert any(line.startswith("plan gains for france: forts ") and "(R20.7-R20.9)" in line for line in lines)
    assert any(line.startswith("expected final forts after ") for line in lines)


@pytest.mark.parametrize("players", [2, 4])
def test_hint_finds_the_winning_move(players):
    """R20.7, R20.10: where one move wins the game at once, the hint plays it."""
    doc, wins = winning_position(players)
    found = json.loads(run("hint", "-", "--iterations", "3000", "--workers", "1", "--json", input=doc).stdout)
    assert found["move"] in wins, (found["move"], wins)


def test_hint_on_a_finished_game_is_refused():
    pos = CannonballPosition.from_json(blocked_doc())
    pos.play("pass")
    user_error(run("hint", "-", "--iterations", "100", input=pos.dumps()), "round:", "the game is over")


# -- svg -------------------------------------------------------------------------------------------


def test_svg_draws_the_island(tmp_path):
    out = tmp_path / "island.svg"
    result = run("svg", "-", "-o", str(out), "--width", "500", input=landed(4))
    assert result.exit_code == 0, result.output
    root = ET.fromstring(out.read_text())
    assert root.tag == f"{SVG}svg" and root.get("width") == "500.0"
    assert root.get("aria-label").startswith("Cannonball Colony, ")


def test_svg_with_a_hint_draws_its_plan():
    doc = landed(2)
    result = run("svg", "-", "--hint", "--iterations", "300", "--workers", "1", "--seed", "1", input=doc)
    assert result.exit_code == 0, result.output
    found = json.loads(run("hint", "-", "--iterations", "300", "--workers", "1", "--seed", "1", "--json",
                           input=doc).stdout)
    root = ET.fromstring(result.stdout)
    steps = [g for g in root.iter(f"{SVG}g") if g.get("class") == "plan-step"]
    drawn = [g.get("data-move") for g in steps]
    assert drawn == [m for m in found["plan"] if m not in ("end", "pass")] and drawn
    assert "Hint (win " in result.stdout


# -- the examples of the docs --------------------------------------------------------------------------


DOCS = Path(__file__).resolve().parent.parent


def example_lines(doc: str, heading: str) -> list[str]:
    """The command lines of the first ``sh`` block under ``heading`` in ``doc``."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    section = text[text.index(heading):]
    block = section[section.index("```sh\n") + len("```sh\n"):]
    return [line for line in block[:block.index("```")].splitlines() if line.strip()]


@pytest.mark.parametrize(("doc", "heading"), [("docs/cannonball.md", "## Commands"),
                                              ("docs/cannonball.md", "## Overview")])
def test_the_command_examples_of_the_docs_run(doc, heading, tmp_path, monkeypatch):
    """Every command of the example runs as written, in order, from a fresh directory, and the moves its
    comment promises are the first ones listed.  Searches get a small budget instead of their seconds, and the
    tournament and the server are left out (minutes of games; a server that never returns)."""
    monkeypatch.chdir(tmp_path)
    ran = 0
    for line in example_lines(doc, heading):
        command, _, comment = line.partition("#")
        words = shlex.split(command)
        assert words[0] == "kanaloa", line
        if words[1] in ("simulate", "serve"):
            continue
        out = None
        if ">" in words:
            at = words.index(">")
            words, out = words[:at], words[at + 1]
        if "--time" in words:
            at = words.index("--time")
            words[at:at + 2] = ["--iterations", "100", "--workers", "1"]
        elif "--hint" in words:
            words += ["--iterations", "100", "--workers", "1"]
        result = run(*words[1:])
        assert result.exit_code == 0, (line, result.output)
        if out is not None:
            Path(out).write_text(result.stdout)
        if words[1] == "moves":
            promised = [m.strip() for m in comment.split(",") if m.strip() != "..."]
            assert result.stdout.splitlines()[:len(promised)] == promised, (line, result.stdout[:80])
        ran += 1
    assert ran >= 5


def test_a_refusal_does_not_quote_the_value_twice():
    """The reason names the tile already; the option is not followed by the same words again."""
    line = user_error(run("new", "--game", "cannonball", "--tiles", "nosuch"))
    assert line.startswith("error: --tiles: tile 'nosuch': no such built-in tile (")
    line = user_error(run("new", "--game", "cannonball", "--tiles", "ridge,nosuch"))
    assert line.startswith("error: --tiles 'ridge,nosuch': tile 'nosuch': no such built-in tile (")


@pytest.mark.parametrize("field, value, message", [
    ("players", [1], "players: must list 2 to 4 countries (france, spain, portugal, england) in seat order, not "
                     "1 entry (R20.3)"),
    ("supply", 10**30, "supply: must be a whole number of road tiles from 0 to 50, not "
                       "1000000000000000000000000000000"),
    ("supply", 51, "supply: must be a whole number of road tiles from 0 to 50, not 51"),
])
def test_a_bad_field_is_worded_for_people(field, value, message):
    doc = json.loads(dealt("--players", "2"))
    doc[field] = value
    user_error(run("show", "-", input=json.dumps(doc)), message)
