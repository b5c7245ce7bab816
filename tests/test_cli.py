"""The ``kanaloa`` command: new, show, moves, play, and every error path.

User errors must print exactly one line ``error: ...`` on standard error,
exit with status 2 and never show a traceback.
"""

from __future__ import annotations

import json
import re

import pytest

from cli_helpers import run
from cli_helpers import user_error as assert_user_error


@pytest.fixture()
def dealt(tmp_path):
    result = run("new", "--players", "4", "--seed", "1")
    assert result.exit_code == 0, result.output
    path = tmp_path / "game.json"
    path.write_text(result.stdout)
    return path


def test_new_is_deterministic_by_seed():
    a = run("new", "--seed", "7").stdout
    b = run("new", "--seed", "7").stdout
    c = run("new", "--seed", "8").stdout
    assert a == b
    assert a != c
    doc = json.loads(a)
    assert doc["format"] == "kanaloa-position/1"
    assert doc["players"] == ["red", "green", "blue", "yellow"]
    assert doc["round"] == 0


def test_new_without_seed_says_which_seed_it_used():
    result = run("new", "--players", "3")
    assert result.exit_code == 0
    assert "--seed" in result.stderr
    assert json.loads(result.stdout)["players"] == ["red", "green", "blue"]


def test_new_as_viewer_hides_other_hands():
    doc = json.loads(run("new", "--seed", "3", "--viewer", "green").stdout)
    assert doc["viewer"] == "green"
    assert "cards" in doc["hands"]["green"]
    assert "cards" not in doc["hands"]["red"]
    assert "seed" not in doc


def test_new_tabletop_preset():
    doc = json.loads(run("new", "--seed", "3", "--preset", "tabletop").stdout)
    assert doc["rules"]["preset"] == "tabletop"


def test_new_seats_three_players_in_the_order_of_colors():
    doc = json.loads(run("new", "--seed", "3", "--players", "3", "--colors", "green,red,blue").stdout)
    assert doc["players"] == ["green", "red", "blue"] and doc["to_move"] == "green"


def test_new_deals_the_rule_set_the_registry_makes():
    """The deal is load_game's rule set: the same options deal what Position.deal deals from it."""
    from kanaloa import load_game
    from kanaloa.position import Position

    rules = load_game("kanaloa", players=2, preset="tabletop", gods=True, colors="green+red,blue+yellow")
    dealt = run("new", "--seed", "9", "--players", "2", "--preset", "tabletop", "--gods", "--colors",
                "green+red,blue+yellow")
    assert dealt.exit_code == 0, dealt.output
    assert dealt.stdout == Position.deal(rules, 9).dumps() + "\n"


def test_new_viewer_choices_are_the_registered_games_colors():
    from kanaloa.interfaces.cli import new
    from kanaloa.rules.registry import game_types, load_game

    viewer = next(p for p in new.params if p.name == "viewer")
    palettes = [c for g in game_types() for c in load_game(g.name).palette]
    assert list(viewer.type.choices) == list(dict.fromkeys(palettes))
    assert list(viewer.type.choices)[:6] == ["red", "green", "blue", "yellow", "white", "black"]


# -- games: every registered game and its parameters --------------------------------------------------


def test_games_lists_every_game_with_its_parameters_and_defaults():
    from kanaloa.rules.registry import describe_games, game_types

    result = run("games")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:-2] == describe_games()
    assert lines[-2:] == ["", "kanaloa new --game GAME deals one; each parameter is an option of it (--players, "
                              "--preset, --gods, --board, --colors, --countries, --tiles)."]
    assert [line.split()[0] for line in lines if line and not line.startswith(" ")][:-1] == [
        g.name for g in game_types()] == ["kanaloa", "kahuna", "cannonball"]
    assert "  preset   yucata or tabletop; default yucata. yucata: unlimited bridges; tabletop: 20 bridges a color " \
           "(R13)" in lines
    assert "  players  2; default 2. Kahuna is for 2 players, white and black (R16.1)" in lines


def test_games_json_is_the_registry():
    from kanaloa.rules.registry import game_types

    result = run("games", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc == [g.to_json() for g in game_types()]
    kanaloa = doc[0]
    assert kanaloa["name"] == "kanaloa" and kanaloa["rules"] == "R1-R15"
    assert {p["name"]: p["default"] for p in kanaloa["parameters"]} == {
        "players": "4", "preset": "yucata", "gods": "false", "board": "oro",
        "colors": "red,green,blue,yellow; red+blue,green+yellow"}
    assert [p["name"] for p in doc[1]["parameters"]] == ["players", "board", "colors"]


def test_commands_md_lists_the_keys_of_games_json():
    from test_docs import documented_keys

    doc = json.loads(run("games", "--json").stdout)
    assert all(list(game) == documented_keys("games --json") for game in doc)
    keys = documented_keys("A parameter")
    for parameter in (p for game in doc for p in game["parameters"]):
        assert list(parameter) == (keys if "choices" in parameter else [k for k in keys if k != "choices"])


def test_every_registered_game_deals_with_its_defaults():
    from kanaloa.rules.registry import game_types

    for g in game_types():
        result = run("new", "--game", g.name, "--seed", "1")
        assert result.exit_code == 0, (g.name, result.output)


def test_games_help_says_how_to_deal_one():
    out = run("games", "--help").stdout
    assert out.startswith("Usage: ") and "kanaloa new --game kahuna --seed 1" in out


def test_load_game_at_the_top_of_the_package():
    import kanaloa
    from kanaloa.rules.registry import ParameterError

    rules = kanaloa.load_game("kanaloa", players=2, gods=True)
    assert rules.pairs and rules.gods and rules.seat_names == ("red", "green")
    with pytest.raises(ParameterError) as refused:
        kanaloa.load_game("kahuna", players=3)
    assert (refused.value.parameter, refused.value.value) == ("players", 3)
    assert refused.value.why == "Kahuna is for 2 players, white and black (R16.1)"


def test_show_reads_standard_input():
    dealt = run("new", "--players", "4", "--seed", "1").stdout
    result = run("show", "-", input=dealt)
    assert result.exit_code == 0, result.output
    out = result.stdout
    for expected in ("ALOA", "ORO", "red to move", "setup", "Face up", "Scores", "Hands"):
        assert expected in out
    assert "\x1b[" not in out  # no color codes when not on a terminal


def test_moves_lists_reveals_at_setup(dealt):
    result = run("moves", str(dealt), "--json")
    assert result.exit_code == 0, result.output
    listed = json.loads(result.stdout)
    assert listed and all(m.startswith("reveal ") for m in listed)
    plain = run("moves", str(dealt)).stdout.split("\n")
    assert [m for m in plain if m] == listed


def test_play_applies_moves_in_order(dealt):
    first = json.loads(run("moves", str(dealt), "--json").stdout)[0]
    result = run("play", str(dealt), first)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["to_move"] == "green"
    assert doc["setup"]["chosen"] == ["red"]


def test_play_a_whole_setup_and_a_first_turn(tmp_path, dealt):
    path = dealt
    for _ in range(4):
        move = json.loads(run("moves", str(path), "--json").stdout)[0]
        out = run("play", str(path), move)
        assert out.exit_code == 0, out.output
        path = tmp_path / "next.json"
        path.write_text(out.stdout)
    doc = json.loads(path.read_text())
    assert doc["round"] == 1
    assert len(doc["face_up"]) == 4
    listed = json.loads(run("moves", str(path), "--json").stdout)
    assert "draw" in listed


# ---- error paths -------------------------------------------------------------


def test_error_missing_file():
    assert_user_error(run("show", "no/such/file.json"), "no/such/file.json", "no such file")


def test_error_empty_input():
    assert_user_error(run("show", "-", input=""), "empty input")


def test_error_not_json():
    assert_user_error(run("show", "-", input="{not json"), "JSON")


def test_error_bad_field_is_named():
    doc = json.loads(run("new", "--seed", "1").stdout)
    doc["round"] = 7
    assert_user_error(run("show", "-", input=json.dumps(doc)), "round")


def test_error_bad_players_option():
    assert_user_error(run("new", "--players", "5"), "--players")


def test_error_bad_seed_option():
    assert_user_error(run("new", "--seed", "minus"), "--seed")


def test_error_bad_preset_option():
    assert_user_error(run("new", "--preset", "casual"), "--preset")


def test_error_viewer_not_playing():
    assert_user_error(run("new", "--players", "3", "--viewer", "yellow"), "yellow")


def test_error_unknown_command():
    assert_user_error(run("frobnicate"), "frobnicate")


def test_error_malformed_move(dealt):
    assert_user_error(run("play", str(dealt), "ALOA-XYZ/ALOA"), "ALOA-XYZ/ALOA")


def test_error_illegal_move(dealt):
    # Drawing is not legal during the setup (R3): cards are revealed first.
    assert_user_error(run("play", str(dealt), "draw"), "draw")


def test_error_play_needs_a_move(dealt):
    assert_user_error(run("play", str(dealt)), "MOVE")


def test_no_arguments_prints_help():
    result = run()
    assert result.exit_code == 0
    assert "Usage" in result.output


def test_help_lists_the_commands():
    out = run("--help").output
    for command in ("new", "show", "moves", "play"):
        assert command in out


def test_moves_says_when_a_viewer_position_waits_for_a_record():
    from kanaloa.position import Position

    full = Position.new(players=4, seed=21)
    view = full.as_viewer("green")
    for color in full.colors:
        card = full.legal_moves()[0].cards[0]
        full.play(f"reveal {card}")
        view.play(f"{color}: reveal {card}" if color == "green" else f"{color}: reveal")
    result = run("moves", "-", input=view.dumps())
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("waiting: ") and "faceup CARD CARD CARD CARD" in result.stdout
    as_json = run("moves", "-", "--json", input=view.dumps())
    assert as_json.exit_code == 0 and json.loads(as_json.stdout) == []
    assert "waiting" in as_json.stderr


def test_moves_needs_the_movers_hand():
    doc = json.loads(run("new", "--seed", "5", "--viewer", "green").stdout)
    assert doc["to_move"] == "red"
    assert_user_error(run("moves", "-", input=json.dumps(doc)), "red")


def test_error_bad_board_is_reported_before_any_deal():
    result = run("new", "--board", "nowhere.json")
    assert_user_error(result, "nowhere.json")


def test_show_lists_what_a_viewer_knows_of_other_hands():
    from importlib import resources

    example = resources.files("kanaloa.examples").joinpath("midgame.json").read_text("utf-8")
    out = run("show", "-", input=example).stdout
    assert "yellow  [2] HILO + 1 unseen" in out  # one card taken face-up, one drawn blind
    assert "green   [1] KULU" in out
    dealt = run("new", "--seed", "3", "--viewer", "green").stdout
    assert "red     [4] 4 unseen" in run("show", "-", input=dealt).stdout


@pytest.fixture(scope="module")
def finished() -> str:
    """A whole recorded game of random bots, replayed to its end: a finished position (JSON)."""
    from kanaloa.play.records import replay
    from kanaloa.play.tournament import make_tournament, play_game

    record = play_game(make_tournament(["random"] * 4, 4, seed=1), 0)
    return replay(record).dumps()


def test_moves_says_the_game_is_over(finished):
    """``moves`` on a finished game printed nothing with status 0."""
    outcome = json.loads(finished)["result"]
    line = (f"the game is over: {outcome['winner']} wins on {outcome['reason']}; "
            f"ranking {', '.join(outcome['ranking'])}")
    result = run("moves", "-", input=finished)
    assert result.exit_code == 0, result.output
    assert result.stdout == line + "\n"
    assert result.stderr == ""
    as_json = run("moves", "-", "--json", input=finished)
    assert as_json.exit_code == 0, as_json.output
    assert json.loads(as_json.stdout) == []
    assert as_json.stderr == f"kanaloa: {line}\n"


def test_show_color_colors_output_that_goes_to_a_pipe(finished):
    """click drops color codes where the output is no terminal; an explicit --color keeps them."""
    colored = run("show", "-", "--color", input=finished).stdout
    plain = run("show", "-", input=finished).stdout
    assert "\x1b[" in colored
    assert "\x1b[" not in plain
    assert "\x1b[" not in run("show", "-", "--no-color", input=finished).stdout
    assert re.sub(r"\x1b\[[0-9;]*m", "", colored) == plain


def test_simulate_help_and_the_simulations_page_list_every_bot_and_key():
    """The bot options (c, margin, policy, expand, dets, width) once appeared only in an error message.
    Both lists are made from the table ``parse_bot_spec`` reads."""
    from pathlib import Path

    from kanaloa.play.bots import BOTS, bot_specs_help

    text = bot_specs_help()
    keys = {key for _, allowed in BOTS.values() for key in allowed}
    assert {"c", "margin", "policy", "expand", "dets", "width"} <= keys
    for name, (_, allowed) in BOTS.items():
        assert f"\n{name}  " in "\n" + text
        for key in allowed:
            assert f"\n{key}=" in text
    shown = run("simulate", "--help").stdout
    assert "Bot specs:" in shown
    assert " ".join(text.split()) in " ".join(shown.split())
    page = (Path(__file__).resolve().parents[1] / "docs/simulations.md").read_text("utf-8")
    assert "\n".join(line.rstrip() for line in text.splitlines()) in page


def test_a_2_player_game_from_the_deal_through_a_first_turn(tmp_path):
    """new --players 2, the reveals, a build naming its color, a take: the tour with two players (R15)."""
    game = tmp_path / "duel.json"
    dealt = run("new", "--players", "2", "--seed", "11")
    assert dealt.exit_code == 0, dealt.output
    game.write_text(dealt.stdout)
    reveals = []
    doc = json.loads(dealt.stdout)
    for player in doc["players"]:
        reveals.append(f"{player}: reveal {doc['hands'][player]['cards'][0]}")
    after = run("play", str(game), *reveals)
    assert after.exit_code == 0, after.output
    moves = run("moves", "-", input=after.stdout).stdout.split("\n")
    build = next(m for m in moves if m.startswith("blue: "))
    turn = run("play", "-", build, input=after.stdout)
    assert turn.exit_code == 0, turn.output
    played = json.loads(turn.stdout)
    assert played["turn"]["color"] == "blue" and played["to_move"] == "red"
    take = next(m for m in run("moves", "-", input=turn.stdout).stdout.split("\n") if m.startswith("take "))
    ended = json.loads(run("play", "-", take, input=turn.stdout).stdout)
    assert ended["to_move"] == "green" and "color" not in ended["turn"]


def test_error_a_2_player_build_without_its_color(tmp_path):
    doc = json.loads(run("new", "--players", "2", "--seed", "11").stdout)
    reveals = [f"reveal {doc['hands'][p]['cards'][0]}" for p in doc["players"]]
    after = run("play", "-", *reveals, input=json.dumps(doc))
    build = next(m for m in run("moves", "-", input=after.stdout).stdout.split("\n") if m.startswith("red: "))
    body = build.split(": ", 1)[1]
    assert_user_error(run("play", "-", body, input=after.stdout), f"move '{body}'", "names its color", "(R15.3)")


# -- show: the bridges left in stock wherever the rule set counts them -----------------------------------


def _first_build(rules, seed: int):
    """A position of ``rules`` after the setup (R3) and the first build of round 1."""
    from kanaloa.position import Position

    pos = Position.deal(rules, seed)
    while pos.round == 0:
        pos.play(pos.legal_moves()[0])
    pos.play(next(m for m in pos.move_strings() if "/" in m))
    return pos


def _bridge_lines(pos) -> list[str]:
    out = run("show", "-", input=pos.dumps())
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    start = lines.index("Bridges") + 1
    return lines[start:lines.index("", start)]


def test_show_counts_the_tabletop_presets_bridges_in_stock():
    """R13: the tabletop preset gives each color 20 bridges; 'show' says how many each has left."""
    from kanaloa import load_game

    assert _bridge_lines(_first_build(load_game("kanaloa", preset="tabletop"), 3)) == [
        "  red      1 (19 of 20 left in stock, R13)  BAFI-ORO",
        "  green    0 (20 of 20 left in stock, R13)  -",
        "  blue     0 (20 of 20 left in stock, R13)  -",
        "  yellow   0 (20 of 20 left in stock, R13)  -",
    ]


def test_show_counts_each_color_of_two_players_on_the_tabletop():
    from kanaloa import load_game

    lines = _bridge_lines(_first_build(load_game("kanaloa", players=2, preset="tabletop"), 3))
    assert [line.split()[0] for line in lines] == ["red", "blue", "green", "yellow"]
    assert all("of 20 left in stock, R13)" in line for line in lines)


def test_show_has_no_stock_where_the_bridges_are_unlimited():
    """R13: the yucata preset's bridges are unlimited, so there is no stock to count."""
    from kanaloa import load_game

    lines = _bridge_lines(_first_build(load_game("kanaloa"), 3))
    assert lines[0] == "  red      1  BAFI-ORO" and not any("stock" in line for line in lines)


@pytest.mark.parametrize("args", [["moves", "src/kanaloa/examples/midgame.json"],
                                  ["hint", "src/kanaloa/examples/midgame.json", "--iterations", "300",
                                   "--workers", "1"],
                                  ["new", "--game", "cannonball", "--seed", "1"]])
def test_a_reader_that_goes_away_is_no_error(args):
    """``kanaloa moves x | head -1``: the reader closes the pipe after its first line; the command ends with
    status 0 and says nothing, whichever version of click takes the broken pipe."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    for _ in range(3):  # the pipe may break at any write: try it a few times
        proc = subprocess.Popen([sys.executable, "-m", "kanaloa", *args], cwd=root, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.read(1)
        proc.stdout.close()
        err = proc.stderr.read()
        assert proc.wait(timeout=60) == 0, err
        assert err == b"", err
