"""The ``kanaloa`` command on Kahuna (R16): ``new --game kahuna``, ``show``, ``moves`` and ``play`` on
Kahuna positions, and every refused option or position as one line ``error: ...`` with status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import run, user_error
from kahuna_positions import kahuna_doc, leftover, no_bridges_over
from kanaloa.position import Position

# What Kahuna says of a lineup that is not white and black, and of a preset (R16.1, R16.9).
FOR_TWO = "Kahuna is for 2 players, white and black (R16.1)"
NO_PRESETS = "Kahuna has no presets (R13 does not apply, R16.9); each player has 25 bridges (R16.1)"


def write(tmp_path, doc, name: str = "pos.json") -> str:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return str(path)


@pytest.fixture()
def dealt(tmp_path):
    """A full game of Kahuna as dealt from seed 4, as a file."""
    result = run("new", "--game", "kahuna", "--seed", "4")
    assert result.exit_code == 0, result.output
    return write(tmp_path, result.stdout, "kahuna.json")


# -- new ---------------------------------------------------------------------------------------------


def test_new_deals_kahuna_by_seed():
    out = run("new", "--game", "kahuna", "--seed", "4")
    assert out.exit_code == 0, out.output
    assert out.stdout == run("new", "--game", "kahuna", "--seed", "4", "--players", "2").stdout
    assert out.stdout != run("new", "--game", "kahuna", "--seed", "5").stdout
    doc = json.loads(out.stdout)
    assert doc["game"] == "kahuna" and doc["board"] == "kahuna"
    assert doc["players"] == ["white", "black"] and doc["round"] == 1 and doc["to_move"] == "white"
    assert len(doc["face_up"]) == 3 and all(len(h["cards"]) == 3 for h in doc["hands"].values())
    assert doc["turn"] == {"played": 0, "discarded": False, "skipped_draw": False}
    assert "rules" not in doc and "colors" not in doc and "seed" in doc


def test_new_kahuna_with_black_first():
    """R16.1: the players' colors in seat order; the first moves first."""
    doc = json.loads(run("new", "--game", "kahuna", "--seed", "4", "--colors", "black,white").stdout)
    assert doc["players"] == ["black", "white"] and doc["to_move"] == "black"


def test_new_kahuna_as_a_viewer_and_without_a_seed():
    doc = json.loads(run("new", "--game", "kahuna", "--seed", "4", "--viewer", "black").stdout)
    assert doc["viewer"] == "black" and "seed" not in doc
    assert doc["hands"]["white"] == {"count": 3, "public": []} and len(doc["hands"]["black"]["cards"]) == 3
    result = run("new", "--game", "kahuna")
    assert result.exit_code == 0 and "--seed" in result.stderr
    assert json.loads(result.stdout)["game"] == "kahuna"


def test_new_without_a_game_still_deals_kanaloa():
    doc = json.loads(run("new", "--seed", "4").stdout)
    assert "game" not in doc and doc["players"] == ["red", "green", "blue", "yellow"] and doc["round"] == 0
    assert doc["rules"] == {"preset": "yucata"}
    assert json.loads(run("new", "--seed", "4", "--game", "kanaloa").stdout) == doc


@pytest.mark.parametrize(
    "args, message",
    [
        (["--players", "3"], f"error: --players 3: {FOR_TWO}"),
        (["--players", "4"], f"error: --players 4: {FOR_TWO}"),
        (["--preset", "tabletop"], f"error: --preset tabletop: {NO_PRESETS}"),
        (["--preset", "yucata"], f"error: --preset yucata: {NO_PRESETS}"),
        (["--colors", "red+blue,green+yellow"],
         "error: --colors 'red+blue,green+yellow': in Kahuna each player plays one color, white or black (R16.1); "
         "only a 2-player game of Kanaloa gives each player two colors (R15.1)"),
        (["--colors", "black,red"], "error: --colors 'black,red': 'red' is not a color of Kahuna (white, black); red, "
                                    "green, blue and yellow are Kanaloa's (R16.1)"),
        (["--preset", "fast"], f"error: --preset 'fast': {NO_PRESETS}"),
        (["--colors", "white,white"], "error: --colors 'white,white': white is named twice; each player plays its own "
                                      "color"),
        (["--viewer", "red"], "error: --viewer: 'red' is not playing (the colors are white, black)"),
        (["--board", "atlantis"], "error: board 'atlantis': no such built-in board (oro, kahuna) or file"),
    ],
)
def test_new_kahuna_refuses_what_kahuna_has_not(args, message):
    assert user_error(run("new", "--game", "kahuna", "--seed", "1", *args)) == message


@pytest.mark.parametrize(
    "args, message",
    [
        (["--game", "chess"], "error: --game 'chess': unknown; choose one of kanaloa, kahuna, cannonball"),
        (["--viewer", "white"], "error: --viewer: 'white' is not playing (the colors are red, green, blue, yellow)"),
    ],
)
def test_new_refuses_a_bad_game_and_kahunas_colors_in_kanaloa(args, message):
    assert user_error(run("new", "--seed", "1", *args)) == message


# -- show, moves, play -------------------------------------------------------------------------------


def test_show_draws_a_dealt_kahuna_game(dealt):
    result = run("show", dealt)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    doc = json.loads(Path(dealt).read_text())
    assert lines[0] == "Kahuna on kahuna, full position"
    assert lines[1] == "white to move, round 1; cards played this turn: 0"
    assert f"Face up   {' '.join(doc['face_up'])}" in lines
    assert "  white    0 (25 of 25 left in stock, R16.1)  -" in lines
    assert "Scores    white 0  black 0" in lines


def test_show_a_third_round_with_a_skipped_draw(tmp_path):
    doc = kahuna_doc(round=3, scores={"white": 2, "black": 0}, to_move="black",
                     turn={"played": 0, "discarded": False, "skipped_draw": True})
    out = run("show", write(tmp_path, doc)).stdout.splitlines()
    assert out[1] == ("black to move, round 3; cards played this turn: 0; white skipped its last draw, so black may "
                      "not skip this one (R16.5)")
    assert "Face up   IFFI JOJO KAHU" in out and "Scores    white 2  black 0" in out


def test_moves_lists_kahuna_moves_in_its_notation(tmp_path):
    doc = kahuna_doc(to_move="black")
    doc["hands"] = {"white": {"cards": ["COCO", "DUDA", "FAAA"]},
                    "black": {"cards": ["ALOA", "BARI", "ELAI", "GOLA"], "public": []}}
    doc["discard"]["open"] = ["HUNA", "HUNA"]
    doc["deck"] = leftover(doc)
    path = write(tmp_path, doc)
    listed = json.loads(run("moves", path, "--json").stdout)
    assert "remove ALOA-BARI/ALOA+BARI" in listed and "ALOA-DUDA/ALOA" in listed  # R16.3
    assert listed[-5:] == ["take IFFI", "take JOJO", "take KAHU", "draw", "end"]  # R16.5: end skips the draw
    assert not any(m == "pass" or m.startswith(("reveal", "discard")) for m in listed)
    plain = [line for line in run("moves", path).stdout.splitlines() if line]
    assert plain == listed


def test_moves_says_a_kahuna_game_ended_without_a_winner(tmp_path):
    result = run("moves", write(tmp_path, no_bridges_over()))
    assert result.exit_code == 0
    assert result.stdout.strip() == "the game is over: nobody wins (no bridges, R16.8); ranking white, black"
    as_json = run("moves", write(tmp_path, no_bridges_over()), "--json")
    assert json.loads(as_json.stdout) == [] and "nobody wins" in as_json.stderr
    shown = run("show", write(tmp_path, no_bridges_over())).stdout
    assert "Game over: nobody wins (no bridges, R16.8); ranking white, black" in shown


def test_play_a_kahuna_turn_that_skips_its_draw_then_one_that_draws(dealt):
    listed = json.loads(run("moves", dealt, "--json").stdout)
    build = next(m for m in listed if "/" in m)
    result = run("play", dealt, build, "end")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["to_move"] == "black" and doc["turn"] == {"played": 0, "discarded": False, "skipped_draw": True}
    assert list(doc["bridges"].values()) == ["white"]
    result = run("play", "-", "black: draw", input=result.stdout)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["turn"]["skipped_draw"] is False and len(doc["hands"]["black"]["cards"]) == 4


def test_a_viewer_of_kahuna_records_the_opponents_moves(tmp_path):
    view = run("new", "--game", "kahuna", "--seed", "4", "--viewer", "black").stdout
    full = json.loads(run("new", "--game", "kahuna", "--seed", "4").stdout)
    top = full["deck"][0]
    taken = full["face_up"][0]
    result = run("play", "-", f"white: take {taken} refill {top}", input=view)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["hands"]["white"] == {"count": 4, "public": [taken]}
    assert doc["face_up"][0] == top and doc["to_move"] == "black"


def test_moves_says_when_a_kahuna_viewer_waits_for_the_reshuffled_cards(tmp_path):
    # White takes the last face-up card: the first scoring, then the reshuffle turns 3 cards up (R16.6).
    doc = kahuna_doc(face_up=["IFFI"])
    doc["discard"]["open"] += leftover({**doc, "discard": {"open": doc["discard"]["open"]}})
    doc["deck"] = []
    view = Position.from_json(doc).as_viewer("black").dumps()
    result = run("play", write(tmp_path, view), "white: take IFFI")
    assert result.exit_code == 0, result.output
    waiting = json.loads(result.stdout)
    assert waiting["round"] == 2 and waiting["face_up"] == [] and waiting["deck"]["count"] > 3
    path = write(tmp_path, result.stdout, "waiting.json")
    said = run("moves", path)
    assert said.exit_code == 0
    assert said.stdout.strip() == ("waiting: the deck turned up 3 unseen card(s); record them with 'faceup CARD CARD "
                                   "CARD' (R16.6)")
    assert user_error(run("play", path, "faceup ALOA BARI COCO DUDA")) == (
        "error: move 'faceup ALOA BARI COCO DUDA': 'faceup' names the 1 to 3 cards turned face-up, not 4 (a reshuffle "
        "turns up 3, R16.6)")


@pytest.mark.parametrize(
    "move, message",
    [
        ("pass", "error: move 'pass': Kahuna has no pass: each player takes one final turn, in turn, and ends it with "
                 "'end' (R16.7)"),
        ("reveal ALOA", "error: move 'reveal ALOA': Kahuna has no setup choice: 3 cards are dealt to each player and 3 "
                        "turned face-up (R16.2)"),
        ("remove BARI-DUDA", "error: move 'remove BARI-DUDA': a removal pays two cards, each naming an end "
                             "of the link: 'remove BARI-DUDA/CARD+CARD' (R16.3)"),
        ("ALOA-BARI/ALOA+BARI", "error: move 'ALOA-BARI/ALOA+BARI': Kahuna has no swap (R16.3): remove the bridge "
                                "with 'remove ALOA-BARI/ALOA+BARI', then place on the free link"),
        ("red: draw", "error: move 'red: draw': unknown color 'red' (Kahuna's colors are white, black)"),
        ("black: draw", "error: move 'black: draw': it is white's turn, not black's"),
    ],
)
def test_play_refuses_moves_kahuna_has_not(dealt, move, message):
    assert user_error(run("play", dealt, move)) == message


@pytest.mark.parametrize(
    "change, message",
    [
        ({"round": 0}, "error: round: Kahuna has no setup round: the cards are dealt and play begins in round 1 "
                       "(R16.2); the rounds are 1, 2, 3, \"final\", \"over\""),
        ({"players": ["white", "black", "red"]},
         f"error: players: 3 colors; {FOR_TWO}"),
        ({"rules": {"preset": "tabletop"}}, f"error: rules.preset: {NO_PRESETS}"),
        ({"turn": {"played": 0, "discarded": False, "skipped_draw": "no"}},
         "error: turn.skipped_draw: 'no' must be true or false"),
        ({"game": "Kahuna"}, "error: game: 'Kahuna' is not one of 'kanaloa', 'kahuna', 'cannonball'"),
    ],
)
def test_a_bad_kahuna_position_is_one_error_line(tmp_path, change, message):
    doc = kahuna_doc()
    doc.update(change)
    path = write(tmp_path, doc)
    for command in ("show", "moves"):
        assert user_error(run(command, path)) == message
    assert user_error(run("play", path, "end")) == message
