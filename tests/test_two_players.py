"""Two players (R15) through every layer above the rules: positions and their JSON, the move
notation, viewer positions, the command (new, show, moves, play, hint), simulate and replay.

Each player plays two colors and is named by its first; bridges and scores are per color, hands
per player; every build names its color (docs/rules-two-players.md).  The rules themselves are the
engines' (tests/test_rules_r15.py); here they are only driven.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from cli_helpers import run, user_error
from kanaloa.errors import MoveError, OptionError, PositionError
from kanaloa.position import Position
from kanaloa.position.notation import Move
from kanaloa.rules import actions as A
from kanaloa.rules.board import load_board
from kanaloa.rules.engine import load_engine
from kanaloa.rules.ruleset import make_ruleset
from kanaloa.rules.state import ROUND_1
from viewer_helpers import record

ORO = load_board("oro")
REFERENCE = load_engine("reference")


def dealt(seed: int = 5, engine=None, colors=None) -> Position:
    return Position.new(players=2, seed=seed, engine=engine, colors=colors)


def at_round_1(seed: int = 5, engine=None, colors=None) -> Position:
    """A 2-player position at the start of the first turn of round 1 (after the reveals of R3)."""
    pos = dealt(seed, engine, colors)
    pos.play(pos.move_strings()[0])
    pos.play(pos.move_strings()[0])
    assert pos.round == 1 and pos.state.to_data().played == 0
    return pos


def first_build(pos: Position) -> str:
    """The body (without the color) of the first build the player to move may make."""
    build = next(m for m in pos.legal_moves() if m.kind in ("place", "swap"))
    return str(build.without_color())


# -- positions -----------------------------------------------------------------------------------


def test_a_new_2_player_game_names_players_by_their_first_color():
    pos = dealt()
    doc = pos.to_json()
    assert doc["players"] == ["red", "green"]
    assert doc["colors"] == {"red": ["red", "blue"], "green": ["green", "yellow"]}
    assert list(doc["hands"]) == ["red", "green"] and list(doc["discard"]["hidden_by"]) == ["red", "green"]
    assert doc["scores"] == {"red": 0, "blue": 0, "green": 0, "yellow": 0}
    assert "color" not in doc["turn"]
    assert all(len(h["cards"]) == 4 for h in doc["hands"].values())  # R15.2: 4 cards each
    assert pos.players == ("red", "green") and pos.colors == ("red", "green", "blue", "yellow")
    assert pos.colors_of("green") == ("green", "yellow")
    assert pos.pairs == {"red": (0, 0), "green": (0, 0)}


def test_a_2_player_game_may_choose_its_colors():
    pos = at_round_1(colors=(("yellow", "red"), ("blue", "green")))
    doc = pos.to_json()
    assert doc["players"] == ["yellow", "blue"]
    assert doc["colors"] == {"yellow": ["yellow", "red"], "blue": ["blue", "green"]}
    assert pos.to_move == "yellow"
    named = {m.color for m in pos.legal_moves() if m.kind in ("place", "swap")}
    assert named == {"yellow", "red"}
    assert Position.from_json(doc).to_json() == doc


def test_3_and_4_player_positions_have_no_colors_field():
    for players in (3, 4):
        doc = Position.new(players=players, seed=1).to_json()
        assert "colors" not in doc and "color" not in doc["turn"]


@pytest.mark.parametrize("engine", ["reference", "core"])
def test_positions_read_back_as_themselves_through_a_whole_game(engine):
    """Full positions and both players' views round-trip through JSON at every step (R15)."""
    rng = random.Random(3)
    pos = dealt(3, load_engine(engine))
    step = 0
    colored = 0
    while not pos.is_over:
        doc = pos.to_json()
        assert Position.from_json(doc, load_engine(engine)).to_json() == doc, step
        if step % 5 == 0:
            for player in pos.players:
                view = pos.as_viewer(player).to_json()
                assert Position.from_json(view).to_json() == view, (step, player)
        colored += "color" in doc["turn"]
        pos.push(rng.choice(pos.state.legal_actions()))
        step += 1
    doc = pos.to_json()
    assert Position.from_json(doc).to_json() == doc
    assert doc["result"]["winner"] in ("red", "green") and colored > 0


def test_moves_offer_both_colors_until_the_first_build_chooses_one():
    pos = at_round_1()
    builds = [m for m in pos.legal_moves() if m.kind in ("place", "swap")]
    assert {m.color for m in builds} == {"red", "blue"}
    assert all(str(m).startswith(f"{m.color}: ") for m in builds)
    others = [m for m in pos.legal_moves() if m.kind not in ("place", "swap")]
    assert others and all(m.color is None for m in others)
    body = first_build(pos)
    pos.play(f"blue: {body}")
    assert pos.to_json()["turn"]["color"] == "blue"
    assert {m.color for m in pos.legal_moves() if m.kind in ("place", "swap")} <= {"blue"}
    assert pos.to_json()["bridges"][body.split("/")[0]] == "blue"


def test_the_pair_is_the_weaker_color_first_and_decides_the_winner():
    """R15.5 as positions report it, over finished random games."""
    for seed in range(6):
        rng = random.Random(seed)
        pos = dealt(seed)
        while not pos.is_over:
            pos.push(rng.choice(pos.state.legal_actions()))
        scores, pairs = pos.scores, pos.pairs
        assert pairs is not None
        for player in pos.players:
            assert pairs[player] == tuple(sorted(scores[c] for c in pos.colors_of(player)))
        outcome = pos.outcome
        assert outcome is not None and outcome["ranking"][0] == outcome["winner"]
        if outcome["reason"] == "points":
            loser = outcome["ranking"][1]
            assert pairs[outcome["winner"]] >= pairs[loser]


def test_notation_of_a_2_player_build_carries_its_color():
    two = make_ruleset(players=2, board=ORO)
    assert two.color_names_of(0) == ("red", "blue")
    link = ORO.find_link(ORO.find_island("ALOA"), ORO.find_island("BAFI"))
    code = A.with_slot(A.encode(A.PLACE, link, ORO.find_island("ALOA")), 1)
    move = Move.from_action(code, two, seat=0)
    assert str(move) == "blue: ALOA-BAFI/ALOA"
    assert move.to_action(two, 0) == code
    assert Move.parse("red: ALOA-BAFI/ALOA", two).to_action(two, 0) == A.with_slot(code, 0)
    with pytest.raises(MoveError, match="second color"):
        Move.from_action(code, two)  # the mover not named: whose second color?
    with pytest.raises(MoveError, match=r"names its color, red or blue \(R15.3\)"):
        Move.parse("ALOA-BAFI/ALOA", two).to_action(two, 0)
    assert make_ruleset(players=3, board=ORO).color_names_of(2) == ("blue",)


# -- viewer positions ----------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["reference", "core"])
@pytest.mark.parametrize("seed", [21, 22])
def test_each_player_follows_a_whole_game_from_its_own_records(engine, seed):
    """Both players' views follow a 2-player game from the records they could write; after every move
    each view equals the full position seen by that player (R15)."""
    rng = random.Random(seed)
    full = dealt(seed, load_engine(engine))
    views = {p: full.as_viewer(p) for p in full.players}
    seen = {"setup waits": 0, "waits": 0, "second colors": 0, "other's builds": 0}
    while not full.is_over:
        action = rng.choice(full.state.legal_actions())
        notes = {p: record(full, action, p) for p in full.players}
        if A.kind_of(action) in (A.PLACE, A.SWAP) and A.build_slot(action):
            seen["second colors"] += 1
        full.push(action)
        for player, view in views.items():
            note = notes[player]
            view.play(note)
            if A.kind_of(action) in (A.PLACE, A.SWAP) and view.to_move != player:
                seen["other's builds"] += 1
            if view.waiting:
                seen["setup waits" if view.round == 0 else "waits"] += 1
                shown = view.to_json()["face_up"]
                view.play("faceup " + " ".join(full.to_json()["face_up"][len(shown):]))
            assert view.to_json() == full.as_viewer(player).to_json(), (seed, player, note)
            if view.to_move == player and not view.is_over:
                assert view.legal_moves() == full.legal_moves()
    assert seen["setup waits"] == 2 and seen["waits"] == 2
    assert seen["second colors"] > 0 and seen["other's builds"] > 0


def test_a_view_refuses_the_others_moves_with_a_color_it_does_not_play():
    full = at_round_1()
    view = full.as_viewer("green")
    body = first_build(full)
    with pytest.raises(MoveError, match=r"yellow is green's color; red builds with red and blue \(R15\.1\)"):
        view.play(f"yellow: {body}")
    view.play(f"blue: {body}")
    assert view.to_json()["turn"]["color"] == "blue"


# -- errors in moves -----------------------------------------------------------------------------


def test_a_build_must_name_one_of_the_movers_colors():
    pos = at_round_1()
    body = first_build(pos)
    cases = {
        body: f"move '{body}': a build of a 2-player game names its color: 'red: {body}' or 'blue: {body}' (R15.3)",
        f"green: {body}": f"move 'green: {body}': green is green's color; red builds with red and blue (R15.1)",
        f"yellow: {body}": f"move 'yellow: {body}': yellow is green's color; red builds with red and blue (R15.1)",
        f"purple: {body}": f"move 'purple: {body}': unknown color 'purple'",
    }
    for text, message in cases.items():
        with pytest.raises(MoveError) as caught:
            pos.play(text)
        assert str(caught.value).startswith(message), str(caught.value)
    assert pos.state.to_data().played == 0  # nothing was played


def test_a_turn_builds_with_one_color_only():
    pos = at_round_1()
    pos.play(f"blue: {first_build(pos)}")
    more = [m for m in pos.legal_moves() if m.kind in ("place", "swap")]
    assert more, "the turn can build again"
    body = str(more[0].without_color())
    with pytest.raises(MoveError, match=r"red builds with blue this turn, not red: .*\(R15\.3\)"):
        pos.play(f"red: {body}")
    pos.play(f"blue: {body}")


def test_only_a_build_names_a_second_color():
    pos = at_round_1()
    take = next(str(m) for m in pos.legal_moves() if m.kind == "take")
    with pytest.raises(MoveError, match=f"only a build names a second color; a take is the player's move: write "
                                        f"'red: {take}' or '{take}'"):
        pos.play(f"blue: {take}")
    pos.play(f"red: {take}")
    assert pos.to_move == "green"


# -- errors in positions -------------------------------------------------------------------------


def _with(doc: dict, path: str, value) -> dict:
    out = copy.deepcopy(doc)
    keys = path.split(".")
    target = out
    for key in keys[:-1]:
        target = target[key]
    if value is _DROP:
        del target[keys[-1]]
    else:
        target[keys[-1]] = value
    return out


_DROP = object()


def _bad_doc_cases():
    pos = at_round_1()
    base = pos.to_json()
    pos.play(f"blue: {first_build(pos)}")
    built = pos.to_json()
    red_blue = {"red": ["red", "blue"], "green": ["green", "yellow"]}
    return [
        (base, "colors", _DROP, "colors: missing; a 2-player position gives both colors of each player (R15.1)"),
        (base, "colors", ["red", "blue"], "colors: must be an object mapping each player to its two colors"),
        (base, "colors", {**red_blue, "blue": ["blue", "red"]}, "colors.blue: 'blue' is not a player (the players "
                                                                "are red, green)"),
        (base, "colors", {"red": ["red", "blue"]}, "colors: missing the colors of green"),
        (base, "colors", {**red_blue, "red": ["red", "green"]},
         "colors: green is named twice (green's first color and red's second color)"),
        (base, "colors", {**red_blue, "red": ["red", "red"]},
         "colors: red is named twice (red's first color and red's second color)"),
        (base, "colors", {**red_blue, "red": ["red", "purple"]}, "colors: 'purple' is not a color of Kanaloa "
                                                                 "(red, green, blue, yellow)"),
        (base, "colors", {**red_blue, "red": ["blue", "red"]},
         "colors.red: ['blue', 'red'] does not start with red: a player is named by its first color"),
        (base, "colors", {**red_blue, "red": ["red"]}, "colors.red: must be the player's two colors"),
        (base, "to_move", "blue", "to_move: blue is red's second color; a player is named by its first color, red"),
        (base, "viewer", "yellow", "viewer: yellow is green's second color"),
        (base, "hands.blue", {"count": 0}, "hands.blue: blue is red's second color"),
        (base, "discard.hidden_by.yellow", [], "discard.hidden_by.yellow: yellow is green's second color"),
        (base, "bridges.ALOA-BAFI", "purple", "bridges.ALOA-BAFI: 'purple' is not playing (the colors are red, "
                                              "green, blue, yellow)"),
        (base, "scores.purple", 0, "scores.purple: 'purple' is not playing"),
        (base, "turn.color", "pink", "turn.color: 'pink' is not playing"),
        (built, "turn.color", "green", "turn.color: green is not a color of red (R15.1)"),
        (built, "turn.color", _DROP, "turn.color: red has played 1 card(s) this turn"),
        (base, "turn.color", "red", "turn.color: the turn's first place or swap chooses its color (R15.3)"),
    ]


@pytest.mark.parametrize("doc, path, value, message", _bad_doc_cases())
def test_a_bad_2_player_position_names_the_field_and_why(doc, path, value, message):
    with pytest.raises(PositionError) as caught:
        Position.from_json(_with(doc, path, value))
    assert str(caught.value).startswith(message), str(caught.value)


def test_3_and_4_player_positions_refuse_the_2_player_fields():
    doc = Position.new(players=3, seed=1).to_json()
    with pytest.raises(PositionError, match=r"^colors: only a 2-player game gives each player two colors \(R15.1\)"):
        Position.from_json({**doc, "colors": {"red": ["red", "yellow"]}})
    with pytest.raises(PositionError, match=r"^turn.color: only a 2-player game chooses a color each turn"):
        Position.from_json(_with(doc, "turn.color", "red"))


def test_new_checks_the_colors():
    with pytest.raises(OptionError, match=r"^colors: only a 2-player game"):
        Position.new(players=4, colors=(("red", "blue"), ("green", "yellow")))
    with pytest.raises(OptionError, match=r"^colors: blue is named twice"):
        Position.new(players=2, colors=(("red", "blue"), ("green", "blue")))
    with pytest.raises(OptionError, match=r"^colors: 'pink' is not a color of Kanaloa"):
        Position.new(players=2, colors=(("red", "pink"), ("green", "yellow")))
    with pytest.raises(OptionError, match=r"^colors 'red\+blue\+green,yellow': 'red\+blue\+green' is not two colors; "
                                          r"write each player's two colors joined by '\+'"):
        Position.new(players=2, colors=(("red", "blue", "green"), ("yellow",)))
    with pytest.raises(PositionError, match=r"^viewer: blue is red's second color"):
        dealt().as_viewer("blue")


# -- the command ---------------------------------------------------------------------------------


def test_new_deals_two_players_and_a_chosen_pairing():
    result = run("new", "--players", "2", "--seed", "4")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["colors"] == {"red": ["red", "blue"], "green": ["green", "yellow"]}
    result = run("new", "--players", "2", "--seed", "4", "--colors", "green+red,Blue+YELLOW", "--viewer", "blue")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["players"] == ["green", "blue"] and doc["viewer"] == "blue"
    assert doc["colors"] == {"green": ["green", "red"], "blue": ["blue", "yellow"]}


@pytest.mark.parametrize("colors, why", [
    ("red+blue,green+red", "red is named twice (red's first color and green's second color); each color belongs "
                           "to one player"),
    ("red+green,red+blue", "red is named twice (both players' first color); each color belongs to one player"),
    ("red+blue,green+pink", "'pink' is not a color of Kanaloa (red, green, blue, yellow)"),
    ("red+blue,green+white", "'white' is not a color of Kanaloa (red, green, blue, yellow); white and black are "
                             "Kahuna's"),
    ("red+blue", "1 player(s); this game has 2; write each player's two colors joined by '+', the players by ',': "
                 "red+blue,green+yellow"),
    ("red+blue+green,yellow", "'red+blue+green' is not two colors"),
    ("red+,green+yellow", "'red+' is not two colors"),
])
def test_new_refuses_bad_colors_for_two_players(colors, why):
    line = user_error(run("new", "--players", "2", "--seed", "1", "--colors", colors))
    assert line.startswith(f"error: --colors {colors!r}: {why}"), line


def test_new_refuses_a_second_color_as_the_viewer():
    assert user_error(run("new", "--players", "2", "--seed", "1", "--viewer", "blue")).startswith(
        "error: --viewer: blue is red's second color; a player is named by its first color, red (R15.1)")


def test_new_refuses_colors_without_two_players():
    assert user_error(run("new", "--players", "3", "--colors", "red+blue,green+yellow")) == (
        "error: --colors 'red+blue,green+yellow': only a 2-player game gives each player two colors (R15.1); with 3 "
        "players each plays one color")
    assert user_error(run("new", "--colors", "red+blue,green+yellow,blue+red,yellow+green")) == (
        "error: --colors 'red+blue,green+yellow,blue+red,yellow+green': only a 2-player game gives each player two "
        "colors (R15.1); with 4 players each plays one color")


@pytest.fixture()
def round_1_file(tmp_path):
    path = tmp_path / "two.json"
    path.write_text(at_round_1().dumps())
    return path


def test_moves_play_show_and_hint_with_two_players(round_1_file):
    listed = run("moves", str(round_1_file), "--json")
    assert listed.exit_code == 0, listed.output
    moves = json.loads(listed.stdout)
    builds = [m for m in moves if "/" in m]
    assert builds and all(m.split(": ")[0] in ("red", "blue") for m in builds)
    body = builds[0].split(": ")[1]
    played = run("play", str(round_1_file), f"blue: {body}")
    assert played.exit_code == 0, played.output
    doc = json.loads(played.stdout)
    assert doc["turn"]["color"] == "blue" and "blue" in doc["bridges"].values()
    shown = run("show", "-", input=played.stdout)
    assert shown.exit_code == 0, shown.output
    out = shown.stdout
    assert "Two players (R15): red plays red and blue; green plays green and yellow" in out
    assert "building with blue (R15.3)" in out
    assert "Scores    red 0  blue 0  green 0  yellow 0" in out
    assert "Pairs     red (0, 0)  green (0, 0)" in out
    head = next(line for line in out.splitlines() if line.strip().startswith("island"))
    assert head.split()[2:6] == ["red", "blue", "green", "yellow"]
    hinted = run("hint", str(round_1_file), "--iterations", "200", "--json")
    assert hinted.exit_code == 0, hinted.output
    found = json.loads(hinted.stdout)
    assert found["move"] in moves


@pytest.mark.parametrize("move, message", [
    ("ALOA-BAFI/ALOA", "a build of a 2-player game names its color: 'red: ALOA-BAFI/ALOA' or "
                       "'blue: ALOA-BAFI/ALOA' (R15.3)"),
    ("yellow: ALOA-BAFI/ALOA", "yellow is green's color; red builds with red and blue (R15.1)"),
    ("green: draw", "it is red's turn, not green's"),
    ("blue: draw", "only a build names a second color; a draw is the player's move"),
    ("yellow: draw", "only a build names a second color; a draw is the player's move: write 'red: draw' or 'draw'"),
])
def test_play_refuses_a_move_of_the_wrong_color_with_status_2(round_1_file, move, message):
    user_error(run("play", str(round_1_file), move), f"error: move {move!r}: {message}")


def test_play_refuses_a_second_color_in_one_turn_with_status_2(round_1_file):
    pos = Position.from_json(round_1_file.read_text())
    first = first_build(pos)
    pos.play(f"red: {first}")
    second = first_build(pos)
    user_error(run("play", str(round_1_file), f"red: {first}", f"blue: {second}"),
               f"error: move 'blue: {second}': red builds with red this turn, not blue", "(R15.3)")


# -- simulate and replay -------------------------------------------------------------------------


def test_simulate_two_players_rotates_seats_and_counts_per_seat(tmp_path):
    out = tmp_path / "games.jsonl"
    result = run("simulate", "--bots", "greedy,random", "--players", "2", "--games", "6", "--seed", "2",
                 "--out", str(out), "--json", "--no-progress")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["players"] == 2 and summary["games"] == 6 and summary["colors"] == ["red", "green"]
    for bot in summary["bots"]:
        assert bot["games"] == 6
        assert [s["games"] for s in bot["by_seat"]] == [3, 3]  # each bot sat 3 times in each seat
        assert [s["color"] for s in bot["by_seat"]] == ["red", "green"]
        assert sum(s["wins"] for s in bot["by_seat"]) == bot["wins"]
    assert sum(bot["wins"] for bot in summary["bots"]) == 6
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["lineup"] for r in records[:2]] == [["greedy", "random"], ["random", "greedy"]]
    assert records[0]["seed"] == records[1]["seed"]  # one deal, both rotations
    for rec in records:
        scores = rec["color_scores"]
        assert list(scores) == ["red", "blue", "green", "yellow"]
        assert rec["scores"] == [min(scores["red"], scores["blue"]), min(scores["green"], scores["yellow"])]
        assert any(m.startswith(("blue: ", "yellow: ")) for m in rec["moves"])
    replayed = run("replay", str(out), "--game", "3")
    assert replayed.exit_code == 0, replayed.output
    final = json.loads(replayed.stdout)
    assert final["scores"] == records[3]["color_scores"]
    assert final["result"]["winner"] == records[3]["colors"][records[3]["winner"]]


def test_simulate_summary_for_people_says_how_two_players_score():
    result = run("simulate", "--bots", "random,random", "--games", "2", "--seed", "1", "--no-progress")
    assert result.exit_code == 0, result.output
    assert "a player's points are its weaker color's (R15.5)" in result.stdout
    assert result.stdout.splitlines()[-2].split()[-2:] == ["red", "green"]


def test_a_2_player_record_needs_every_colors_points():
    from kanaloa.play.records import GameRecord
    from kanaloa.play.tournament import make_tournament, play_game

    t = make_tournament(["random", "random"], 2, seed=1)
    rec = play_game(t, 0).to_json()
    assert GameRecord.from_json(json.dumps(rec)).color_scores
    del rec["color_scores"]
    with pytest.raises(OptionError, match="missing field 'color_scores'"):
        GameRecord.from_json(rec)
    rec["color_scores"] = {"red": 1, "green": 2}
    with pytest.raises(OptionError, match="field 'color_scores' must give the points of each of red, green, blue, "
                                          "yellow"):
        GameRecord.from_json(rec)
    four = play_game(make_tournament(["random"] * 4, 4, seed=1), 0).to_json()
    with pytest.raises(OptionError, match="field 'color_scores' belongs to games where each player plays two colors; "
                                          "only a 2-player game gives each player two colors"):
        GameRecord.from_json({**four, "color_scores": {}})


def test_the_engines_agree_on_a_2_player_game_through_positions():
    rng = random.Random(9)
    ref, core = dealt(9, REFERENCE), dealt(9, load_engine("core"))
    while not ref.is_over:
        assert ref.move_strings() == core.move_strings()
        move = rng.choice(ref.move_strings())
        ref.play(move)
        core.play(move)
        assert ref.to_json() == core.to_json()
    assert core.is_over and ref.state.round == core.state.round != ROUND_1


def test_records_md_lists_the_keys_of_a_2_player_record(tmp_path):
    from test_docs import documented_keys

    out = tmp_path / "games.jsonl"
    result = run("simulate", "--bots", "random,random", "--games", "2", "--seed", "1", "--out", str(out),
                 "--no-progress")
    assert result.exit_code == 0, result.output
    record = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert list(record) == (documented_keys("Game records", "docs/records.md")
                            + documented_keys("Game records of 2-player games", "docs/records.md"))
