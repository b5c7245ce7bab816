"""Error paths of ``kanaloa new``, ``show``, ``moves`` and ``play`` (docs/cli.md).

Whatever a user types or feeds in (a bad option, a file that is no position, a position that
breaks the rules, a malformed or illegal move) the command prints exactly one line
``error: <field or move>: <why>`` on standard error, exits with status 2 and shows no
traceback.  The cases here are the ones a fuzzer and a by-hand review found; each message is
checked in full where the program writes it.
"""

from __future__ import annotations

import json
import os
from importlib import resources

import pytest

from cli_helpers import run, user_error
from kanaloa.errors import MAX_INPUT_BYTES
from kanaloa.play.limits import max_workers
from kanaloa.play.pools import default_workers


@pytest.fixture()
def dealt(tmp_path):
    """A full 4-player position in the setup (R3), as a file."""
    path = tmp_path / "game.json"
    path.write_text(run("new", "--seed", "1").stdout)
    return path


def write(tmp_path, content: str | bytes, name: str = "pos.json"):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return str(path)


# -- new ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (["--players", "5"], "error: --players 5: the game is for 2, 3 or 4 players"),
        (["--players", "four"], "error: --players 'four': must be a whole number"),
        (["--seed", "-1"], "error: --seed -1: must be a whole number from 0 to 2**64-1"),
        (["--seed", str(2 ** 64)], f"error: --seed {2 ** 64}: must be a whole number from 0 to 2**64-1"),
        (["--seed", "minus"], "error: --seed 'minus': must be a whole number from 0 to 2**64-1"),
        (["--preset", "fast"], "error: --preset 'fast': unknown; choose one of yucata, tabletop (R13)"),
        (["--viewer", "pink"], "error: --viewer 'pink': unknown; choose one of red, green, blue, yellow, white, black, "
                                 "france, spain, portugal, england"),
        (["--players", "3", "--viewer", "yellow"], "error: --viewer: 'yellow' is not playing (the colors are red, "
                                                   "green, blue)"),
        (["--seed", "1", "--board", "atlantis"], "error: board 'atlantis': no such built-in board (oro, kahuna) or "
                                                 "file"),
    ],
)
def test_new_rejects_bad_options(args, message):
    assert user_error(run("new", *args)) == message


@pytest.mark.parametrize(
    "players, colors, why",
    [
        # R15.1: the colors of each player, in seat order
        ("3", "red+blue,green+yellow", "only a 2-player game gives each player two colors (R15.1); with 3 players "
                                       "each plays one color"),
        ("2", "red+,green+yellow", "'red+' is not two colors; write each player's two colors joined by '+', the "
                                   "players by ',': red+blue,green+yellow"),
        ("3", "green,red", "2 player(s); this game has 3; name one color per player, in seat order, e.g. "
                           "red,green,blue"),
        ("3", "green,white,red", "'white' is not a color of Kanaloa (red, green, blue, yellow); white and black are "
                                 "Kahuna's (R16.1)"),
    ],
)
def test_new_rejects_bad_colors(players, colors, why):
    assert user_error(run("new", "--players", players, "--colors", colors)) == f"error: --colors {colors!r}: {why}"


def test_new_on_a_board_too_small_for_every_hand(tmp_path):
    """R3 deals 4 cards a hand: a 6-card board cannot seat 4 players (the core used to raise a bare
    ValueError here, a traceback on the command line)."""
    board = write(tmp_path, json.dumps({"name": "tiny", "cards_per_island": 2,
                                        "islands": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
                                        "links": [["A", "B"], ["B", "C"], ["A", "C"]]}), "tiny.json")
    assert user_error(run("new", "--seed", "1", "--board", board)) == (
        "error: --players 4: 4 hands of 4 cards need more than the 6 cards of board tiny (R3)")


def test_new_on_a_board_file_that_is_not_utf8(tmp_path):
    board = write(tmp_path, b"\xff\xfe{}", "board.json")
    assert user_error(run("new", "--seed", "1", "--board", board)) == (
        f"error: board {board!r}: not UTF-8 text (byte 0 cannot be decoded)")


# -- what click refuses, in the project's words: OPTION VALUE: why, one line, no usage block ---------------


@pytest.mark.parametrize("args, message", [
    (["new", "--sed", "1"], "error: --sed: no such option of 'kanaloa new'; did you mean --seed or --preset?"),
    (["moves", "x", "--jsn"], "error: --jsn: no such option of 'kanaloa moves'; did you mean --json?"),
    (["frobnicate"], "error: 'frobnicate': no such command; 'kanaloa --help' lists them"),
    (["shwo", "x"], "error: 'shwo': no such command; did you mean show?"),
    (["show"], "error: POSITION: missing; usage: kanaloa show [OPTIONS] POSITION"),
    (["simulate"], "error: --bots: missing; 'kanaloa simulate' needs it (see 'kanaloa simulate --help')"),
    (["new", "--seed"], "error: --seed: needs a value"),
    (["moves", "x", "--json=yes"], "error: --json: takes no value"),
    (["show", "a", "b"], "error: 'b': unexpected extra argument; usage: kanaloa show [OPTIONS] POSITION"),
    (["show", "a", "b", "c"], "error: 'b c': unexpected extra arguments; usage: kanaloa show [OPTIONS] POSITION"),
    (["svg", "x", "--width", "0"], "error: --width 0: must be a number from 1 to 100000"),
    (["svg", "x", "--width", "wide"], "error: --width 'wide': must be a number from 1 to 100000"),
    (["tactics", "--iterations", "1.5"], "error: --iterations 1.5: must be a whole number"),
    (["tactics", "--kind", "eleven", "--kind", "mate"],
     "error: --kind 'mate': unknown; choose one of eleven, last-turn, removal"),
    (["soak", "--workers", "-1"],
     f"error: --workers -1: must be a whole number from 0 to {max_workers()} (0: one per core; at most 4 per core, "
     f"and this process may use {default_workers()})"),
    (["replay", "x", "--at", "-3"], "error: --at -3: must be a whole number of at least 0"),
    (["serve", "--port", "70000"], "error: --port 70000: must be a whole number from 0 to 65535"),
])
def test_click_refusals_read_like_the_projects_own(args, message):
    """Click's ``Error: Invalid value for '--seed': ...`` and its usage block are gone: every command's usage
    errors are one line naming the option (or argument), quoting what was typed and saying why."""
    result = run(*args)
    assert user_error(result) == message
    assert "Usage:" not in result.output and "Try 'kanaloa" not in result.output


def test_help_stays_clicks():
    result = run("new", "--help")
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: ") and "--seed" in result.stdout


# -- reading POSITION ------------------------------------------------------------------------------

DOC_ERRORS = [
    ("[1, 2]", "error: position: must be a JSON object, not an array"),
    ("null", "error: position: must be a JSON object, not null"),
    ('"kanaloa"', "error: position: must be a JSON object, not a string"),
    ("[" * 100_000, "error: position: not a position: the JSON is nested far too deeply"),
    ('{"format": ' + "7" * 5000 + "}",
     "error: format: a 5000-digit number is not 'kanaloa-position/1'"),
    ('{"format": "kanaloa-position/1"', "error: position: not valid JSON (Expecting ',' delimiter at line 1 "
                                        "column 32)"),
    ('{"format": "kanaloa-position/1"}', "error: board: missing"),
]


@pytest.mark.parametrize("command", ["show", "moves", "play"])
@pytest.mark.parametrize("text, message", DOC_ERRORS)
def test_a_file_that_is_no_position(tmp_path, command, text, message):
    path = write(tmp_path, text)
    extra = ["draw"] if command == "play" else []
    assert user_error(run(command, path, *extra)) == message
    assert user_error(run(command, "-", *extra, input=text)) == message


def _edit(dealt, change) -> str:
    doc = json.loads(dealt.read_text())
    change(doc)
    return json.dumps(doc)


FIELD_ERRORS = [
    (lambda d: d.update(round=[]), 'error: round: [] is not one of 0, 1, 2, "final", "over"'),
    (lambda d: d.update(round=1.0), 'error: round: 1.0 is not one of 0, 1, 2, "final", "over"'),
    (lambda d: d.update(rules={"preset": ["yucata"]}), "error: rules.preset: ['yucata'] is not one of yucata, "
                                                       "tabletop (R13)"),
    (lambda d: d.update(players=["red", "red", "blue"]), "error: players: ['red', 'red', 'blue'] names a color twice"),
    (lambda d: d.update(players=["red", "green", "purple"]),
     "error: players: 'purple' is not a color of Kanaloa (red, green, blue, yellow)"),
    (lambda d: d.update(to_move=None), "error: to_move: None is not playing (the colors are red, green, blue, "
                                       "yellow)"),
    (lambda d: d["hands"]["red"].update(cards="ALOA"),
     "error: hands.red.cards: must be a list of cards (island names), not 'ALOA'"),
    (lambda d: d["hands"]["red"].update(cards=["ATLANTIS"]),
     "error: hands.red.cards: 'ATLANTIS' is not an island of board oro"),
    (lambda d: d["scores"].update(red=True), "error: scores.red: True must be a whole number, 0 or more"),
    (lambda d: d["scores"].update(red=7), "error: scores.red: 7 points before the first scoring; nobody scores "
                                          "before round 1 ends (R9, R11)"),
    (lambda d: d["turn"].update(played="0"), "error: turn.played: '0' must be a whole number, 0 or more"),
    (lambda d: d.update(seed=-1), "error: seed: -1 must be an integer from 0 to 2**64-1"),
    (lambda d: d.update(deck={"count": 32}), "error: deck: a full position lists the deck's cards, top first"),
    (lambda d: d["hands"]["red"]["cards"].pop(),
     "error: hands.red: 3 card(s); in the setup red holds the 4 dealt, and has not chosen yet (R3)"),
]


@pytest.mark.parametrize("change, message", FIELD_ERRORS)
def test_a_bad_field_is_named_with_its_reason(dealt, tmp_path, change, message):
    path = write(tmp_path, _edit(dealt, change))
    for command, extra in (("show", []), ("moves", []), ("moves", ["--json"]), ("play", ["reveal ALOA"])):
        assert user_error(run(command, path, *extra)) == message


def test_a_viewer_position_may_not_list_the_deck(tmp_path):
    doc = json.loads(run("new", "--seed", "3", "--viewer", "green").stdout)
    doc["deck"] = ["ALOA"] * 3
    assert user_error(run("show", write(tmp_path, json.dumps(doc)))) == (
        'error: deck: a viewer position gives only {"count": N} (the viewer cannot see the deck)')


# -- moves and play ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "moves, message",
    [
        ([""], "error: move '': empty move"),
        (["red:"], "error: move 'red:': empty move"),
        (["pink: reveal ALOA"], "error: move 'pink: reveal ALOA': unknown color 'pink' (Kanaloa's colors are red, "
                                "green, blue, yellow)"),
        (["green: reveal ELOI"], "error: move 'green: reveal ELOI': it is red's turn, not green's"),
        (["reveal"], "error: move 'reveal': name the card: 'reveal CARD'"),
        (["reveal ATLANTIS"], "error: move 'reveal ATLANTIS': unknown island 'ATLANTIS' on board oro"),
        (["ALOA-BAFI/ALOA"], "error: move 'ALOA-BAFI/ALOA': in the setup each color first reveals one card: "
                             "'reveal CARD' (R3)"),
        (["faceup ALOA"], "error: move 'faceup ALOA': a full position turns cards face-up itself; 'faceup' records "
                          "are for viewer positions"),
        (["ALOA-ORO/ALOA"], "error: move 'ALOA-ORO/ALOA': no link between ALOA and ORO"),
    ],
)
def test_play_names_the_bad_move(dealt, moves, message):
    assert user_error(run("play", str(dealt), *moves)) == message


def test_play_stops_at_the_first_bad_move_and_prints_nothing(dealt):
    first = json.loads(run("moves", str(dealt), "--json").stdout)[0]
    result = run("play", str(dealt), first, "red: reveal ALOA", "draw")
    assert user_error(result) == "error: move 'red: reveal ALOA': it is green's turn, not red's"
    assert result.stdout == ""


def test_a_bad_move_in_a_moves_file_is_named_by_its_line(dealt, tmp_path):
    """A move read from a file says which line of which file it is on; comments and blank lines count."""
    listing = write(tmp_path, "# the setup (R3)\n\nreveal BAFI\r\n   \nALOA-XX/ALOA\ndraw\n", "game.txt")
    assert user_error(run("play", str(dealt), "--moves-file", listing)) == (
        f"error: --moves-file {listing!r} line 5: move 'ALOA-XX/ALOA': unknown island 'XX' on board oro")
    illegal = write(tmp_path, "reveal BAFI\ndraw\n", "illegal.txt")
    assert user_error(run("play", str(dealt), "--moves-file", illegal)) == (
        f"error: --moves-file {illegal!r} line 2: move 'draw': in the setup each color first reveals one card: "
        f"'reveal CARD' (R3)")
    assert user_error(run("play", str(dealt), "--moves-file", "-", input="reveal ELOI\n")) == (
        "error: --moves-file (standard input) line 1: move 'reveal ELOI': red has no ELOI card")


def test_a_bad_move_in_a_json_list_or_a_record_is_named_by_its_place(dealt, tmp_path):
    listing = write(tmp_path, json.dumps(["reveal BAFI", "green: reveal"]), "moves.json")
    assert user_error(run("play", str(dealt), "--moves-file", listing)) == (
        f"error: --moves-file {listing!r} move 2: move 'green: reveal': name the card: 'reveal CARD'")
    record = write(tmp_path, json.dumps({"format": "kanaloa-game/1", "moves": ["reveal BAFI", "reveal BAFI",
                                                                            "ALOA-ORO/ALOA"]}), "game.jsonl")
    assert user_error(run("play", str(dealt), "--moves-file", record)).startswith(
        f"error: --moves-file {record!r} move 2: move 'reveal BAFI': ")


def test_a_move_argument_after_a_moves_file_is_named_as_before(dealt, tmp_path):
    listing = write(tmp_path, "reveal BAFI\n", "game.txt")
    assert user_error(run("play", str(dealt), "--moves-file", listing, "draw")) == (
        "error: move 'draw': in the setup each color first reveals one card: 'reveal CARD' (R3)")


def test_play_without_moves(dealt, tmp_path):
    assert user_error(run("play", str(dealt))) == (
        "error: MOVE: no moves given; name at least one MOVE or a --moves-file")
    listing = write(tmp_path, "[1, 2]", "moves.json")
    assert user_error(run("play", str(dealt), "--moves-file", listing)) == (
        f"error: --moves-file {listing!r}: expected a JSON list of moves or an object whose \"moves\" is one")


def test_moves_of_a_hand_the_viewer_cannot_see(tmp_path):
    view = write(tmp_path, run("new", "--seed", "5", "--viewer", "green").stdout)
    message = ("error: moves: red's hand is not known to green's position, so its moves cannot be listed; "
               "play its moves as they happen")
    assert user_error(run("moves", view)) == message
    assert user_error(run("moves", view, "--json")) == message
    assert user_error(run("play", view, "reveal ALOA")) == (
        "error: move 'reveal ALOA': green does not see which card red sets aside; write 'reveal'")


# -- show never hangs or crashes on an unusual board ----------------------------------------------


def _board_position(tmp_path, islands, links) -> str:
    board = write(tmp_path, json.dumps({"name": "odd", "cards_per_island": 6, "islands": islands,
                                        "links": links}), "odd.json")
    return write(tmp_path, run("new", "--seed", "1", "--players", "3", "--board", board).stdout, "odd-game.json")


def test_show_and_svg_a_board_with_every_island_in_one_column(tmp_path):
    """Twenty islands at one x: the tables list them all, the picture draws them all."""
    islands = [{"name": f"I{i}", "xy": [0, i]} for i in range(20)] + [{"name": "Z", "xy": [100, 0]}]
    links = [[f"I{i}", "Z"] for i in range(20)] + [[f"I{i}", f"I{i + 1}"] for i in range(19)]
    position = _board_position(tmp_path, islands, links)
    result = run("show", position)
    assert result.exit_code == 0, result.output
    assert all(f"I{i} " in result.stdout for i in range(20))  # the table lists every island
    picture = run("svg", position)
    assert picture.exit_code == 0, picture.output
    assert all(f'data-island="I{i}"' in picture.stdout for i in range(20))


def test_show_and_svg_a_board_with_a_very_long_island_name(tmp_path):
    long = "A" * 100
    islands = [{"name": long, "xy": [0, 0]}, {"name": "B", "xy": [50, 50]}, {"name": "C", "xy": [100, 100]}]
    position = _board_position(tmp_path, islands, [[long, "B"], ["B", "C"], [long, "C"]])
    result = run("show", position)
    assert result.exit_code == 0, result.output
    assert long in result.stdout
    picture = run("svg", position)
    assert picture.exit_code == 0, picture.output
    assert f'data-island="{long}"' in picture.stdout and f"data-link=\"{long}-B\"" in picture.stdout


def test_show_says_when_a_viewer_position_waits_for_a_faceup_record(tmp_path):
    view = write(tmp_path, run("new", "--seed", "5", "--viewer", "red").stdout)
    own = json.loads(run("moves", view, "--json").stdout)[0]
    waiting = write(tmp_path, run("play", view, own, "reveal", "reveal", "reveal").stdout, "waiting.json")
    out = run("show", waiting).stdout.splitlines()
    assert out[1] == ("Waiting: the cards turned face-up at the end of the setup (R3) are not recorded yet; "
                      "play 'faceup CARD ...'")
    assert out[2] == f"Setup: chosen so far: red ({own.split()[1]}), green, blue, yellow"


# -- unreadable input: bytes that are not UTF-8, JSON too deep or with numbers too long --------------


def test_a_position_file_that_is_not_utf8(tmp_path):
    path = write(tmp_path, b"\xff\xfe{")
    assert user_error(run("show", path)).startswith("error: ")


def test_a_position_on_standard_input_that_is_not_utf8():
    assert user_error(run("show", "-", input=b"\xff\xfe{")).startswith("error: ")


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(b"\xff\xfe[]", id="not-utf8"),
        pytest.param(b"[" * 100_000, id="deeply-nested"),
        pytest.param(b'{"moves": [' + b"1" * 5000 + b"]}", id="huge-number"),
        pytest.param(b"# only a comment\n", id="only-comments"),
        pytest.param(b"[]", id="empty-list"),
        pytest.param(b'{"moves": 3}', id="not-a-list"),
    ],
)
def test_a_moves_file_that_is_no_list_of_moves(dealt, tmp_path, content):
    listing = write(tmp_path, content, "moves.json")
    assert user_error(run("play", str(dealt), "--moves-file", listing)).startswith(f"error: --moves-file {listing!r}")


# -- inputs too large to be what they claim: refused after a bounded read -------------------------

LIMIT = "larger than the 4 MiB input limit"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("command", ["show", "moves", "play", "hint"])
def test_an_endless_position_file_is_refused(command):
    """``show /dev/zero`` once read until memory ran out; now it reads 4 MiB and one byte, then stops."""
    extra = ["draw"] if command == "play" else []
    assert user_error(run(command, "/dev/zero", *extra)) == (
        f"error: POSITION '/dev/zero': {LIMIT}; expected a kanaloa-position/1 JSON document")


def test_a_position_on_standard_input_just_over_the_limit_is_refused():
    at_limit = b" " * MAX_INPUT_BYTES  # no position, but not too large: the JSON reader says why
    assert user_error(run("show", "-", input=at_limit)) == (
        "error: POSITION (standard input): empty input, expected a kanaloa-position/1 JSON document")
    assert user_error(run("show", "-", input=at_limit + b" ")) == (
        f"error: POSITION (standard input): {LIMIT}; expected a kanaloa-position/1 JSON document")


def test_a_moves_file_over_the_limit_is_refused(dealt, tmp_path):
    listing = write(tmp_path, b"draw\n" * (MAX_INPUT_BYTES // 5 + 1), "moves.txt")
    assert user_error(run("play", str(dealt), "--moves-file", listing)) == (
        f"error: --moves-file {listing!r}: {LIMIT}; expected moves (one per line, a JSON list or a game record)")


def test_a_board_file_over_the_limit_is_refused(tmp_path):
    board = write(tmp_path, b" " * (MAX_INPUT_BYTES + 1), "huge-board.json")
    assert user_error(run("new", "--seed", "1", "--board", board)) == (
        f"error: board {board!r}: {LIMIT}; expected a board file (JSON)")


def test_a_100_kb_move_is_quoted_once_and_cut_short(dealt):
    """The move used to fill two 100 KB quotes of one error line."""
    huge = "ALOA-" + "B" * 100_000 + "/ALOA"
    assert user_error(run("play", str(dealt), huge)) == (
        f"error: move {'ALOA-' + 'B' * 55!r}... (100010 characters): unknown island {'B' * 60!r}... "
        f"(100000 characters) on board oro")
    # A move that reads well but is padded to 100 KB: the rules refuse it, quoting it cut short (the
    # one error line has its runs of spaces closed up).
    padded = "take" + " " * 100_000 + "RASI"
    assert user_error(run("play", str(dealt), padded)) == (
        "error: move 'take '... (100008 characters): in the setup each color first reveals one card: "
        "'reveal CARD' (R3)")


_LONG = "x" * 5000


@pytest.mark.parametrize("args, fragment", [
    (["new", "--players", "2", "--colors", f"red+blue,{_LONG}"], "error: --colors 'red+blue,"),
    (["new", "--players", "3", "--colors", _LONG], "error: --colors 'xxx"),
    (["new", "--viewer", _LONG], "error: --viewer 'xxx"),
    (["new", "--seed", _LONG], "error: --seed 'xxx"),
    (["new", f"--preset={_LONG}"], "error: --preset 'xxx"),
    (["new", f"--{_LONG}"], "error: --xxx"),
    (["simulate", "--bots", f"random:{_LONG}"], "error: bot spec 'random:xxx"),
    (["simulate", "--bots", f"{_LONG},random"], "error: bot spec 'xxx"),
    (["simulate", "--bots", f"random:{_LONG}=1,random"], "unknown key 'xxx"),
    (["simulate", "--bots", f"random:seed={_LONG},random"], "key 'seed' must be an integer, not 'xxx"),
    (["simulate", "--bots", f"ismcts:policy={_LONG},random"], "key 'policy' must be one of heuristic, random"),
    (["simulate", "--bots", f"random,random,random,random,{_LONG}"], "error: bot spec 'xxx"),
    (["simulate", "--bots", f"random,random,random,random,random:seed=1{'0' * 4000}"], "error: --bots 'random,"),
])
def test_long_options_are_quoted_cut_short(args, fragment):
    """A 5,000-character option (or part of a bot spec) gives one short line, not a 10,000-character one."""
    line = user_error(run(*args), fragment, " characters)")
    assert len(line) < 300, line[:500]


def test_board_messages_quote_long_input_cut_short(tmp_path):
    """A board file with a 5,000-character island name, link or value, or a 5,000-character path, gives a short line."""
    good = json.loads((resources.files("kanaloa.boards") / "oro.json").read_text("utf-8"))
    long = "X" * 5000
    cases = {
        "name": lambda d: d["islands"][0].__setitem__("name", "ALOA" + long),
        "link": lambda d: d["links"].append(["ALOA", long]),
        "cards": lambda d: d.__setitem__("cards_per_island", long),
        "xy": lambda d: d["islands"][0].__setitem__("xy", [10**400, 0]),
    }
    for what, damage in cases.items():
        doc = json.loads(json.dumps(good))
        damage(doc)
        path = tmp_path / f"{what}.json"
        path.write_text(json.dumps(doc))
        line = user_error(run("new", "--seed", "1", "--board", str(path)))
        assert line.startswith(f"error: board {str(path)!r}: ") and len(line) < 400, (what, line[:500])
    missing = "x" * 5000  # longer than a file name may be: the system says so
    assert user_error(run("new", "--seed", "1", "--board", missing)) == (
        f"error: board {missing[:240]!r}... (5000 characters): cannot read it (File name too long)")
