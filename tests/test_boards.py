"""The built-in boards' drawings, the layout routine behind them, and ``kanaloa board``.

The rules never read an island's coordinates (R1); pictures do.  The
built-in boards are drawn with no two links crossing, the island with the
most links nearest the middle, no two islands overlapping at the size they
are drawn, and no link running through an island it does not touch.
"""

from __future__ import annotations

import json
import math
import os
import threading
from itertools import combinations

import pytest

from cli_helpers import run, user_error
from kanaloa.errors import MAX_INPUT_BYTES
from kanaloa.interfaces import layout as L
from kanaloa.interfaces.svg import board_geometry
from kanaloa.rules.board import board_from_dict, board_to_dict, load_board

WHEEL_RIM = ["A", "B", "C", "D", "E"]


def wheel(rough: bool = True) -> dict:
    """A board file: hub H linked to a ring of five islands, drawn without crossings but with H in a corner
    (the face H-A-B outside); ``rough=False`` leaves the coordinates out."""
    points = {"H": [0, 0], "A": [100, 0], "B": [50, 90], "C": [50, 55], "D": [45, 35], "E": [55, 15]}
    return {"name": "wheel", "cards_per_island": 3,
            "islands": [{"name": n, **({"xy": points[n]} if rough else {})} for n in ["H", *WHEEL_RIM]],
            "links": [["H", n] for n in WHEEL_RIM] + [[WHEEL_RIM[k], WHEEL_RIM[(k + 1) % 5]] for k in range(5)]}


def write_board(tmp_path, doc: dict, name: str = "board.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


# -- the built-in boards' drawings ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["oro", "kahuna"])
def test_no_two_links_of_a_built_in_board_cross(name):
    board = load_board(name)
    assert L.crossing_links(board) == []
    assert L.crossing_links(board, board_geometry(board).centres) == []  # nor once scaled into the picture


@pytest.mark.parametrize(("name", "hub"), [("oro", "ORO"), ("kahuna", "ELAI")])
def test_the_island_with_the_most_links_is_nearest_the_middle(name, hub):
    board = load_board(name)
    assert board.islands[L.hub_island(board)] == hub
    centres = board_geometry(board).centres
    assert board.islands[L.nearest_to_middle(centres)] == hub
    assert board.islands[L.nearest_to_middle(board.xy)] == hub


@pytest.mark.parametrize("name", ["oro", "kahuna"])
def test_islands_do_not_overlap_at_the_size_they_are_drawn(name):
    board = load_board(name)
    geo = board_geometry(board)
    for i, j in combinations(range(board.n_islands), 2):
        room = math.dist(geo.centres[i], geo.centres[j]) - geo.radii[i] - geo.radii[j]
        assert room > 10, (board.islands[i], board.islands[j], room)


@pytest.mark.parametrize("name", ["oro", "kahuna"])
def test_no_link_runs_through_an_island_it_does_not_touch(name):
    board = load_board(name)
    geo = board_geometry(board)
    for k, (a, b) in enumerate(board.links):
        for i in range(board.n_islands):
            if i not in (a, b):
                gap = L.distance_to_segment(geo.centres[i], geo.centres[a], geo.centres[b]) - geo.radii[i]
                assert gap > 5, (board.link_name(k), board.islands[i], gap)


def test_oro_keeps_its_islands_and_links_in_the_rules_order():
    """The drawing changed, the board did not: island and link order are the action codes' (R1, R6, R7)."""
    board = load_board("oro")
    assert board.islands[:4] == ("ALOA", "BAFI", "COCO", "DALI")
    assert [board.link_name(k) for k in (0, 7, 36)] == ["ALOA-BAFI", "BAFI-ORO", "ORO-RASI"]
    assert sorted(board.sizes) == [3] * 4 + [5] * 11 + [7]
    assert "reconstruction" in board.description.lower()


# -- the checks the drawings rely on --------------------------------------------------------------


@pytest.mark.parametrize(("segments", "meet"), [
    (((0, 0), (10, 10), (0, 10), (10, 0)), True),  # an X
    (((0, 0), (10, 0), (5, 0), (5, 10)), True),  # a T: one ends on the other
    (((0, 0), (10, 0), (5, 0), (20, 0)), True),  # along each other
    (((0, 0), (10, 0), (11, 0), (20, 0)), False),  # on one line, apart
    (((0, 0), (10, 0), (0, 1), (10, 1)), False),  # parallel
    (((0, 0), (10, 10), (6, 5), (20, 5)), False),  # would meet only beyond an end
])
def test_segments_meet(segments, meet):
    assert L.segments_meet(*segments) is meet
    a, b, c, d = segments
    assert L.segments_meet(c, d, a, b) is meet


def test_links_from_one_island_cross_only_when_one_runs_along_the_other():
    board = board_from_dict({"name": "fan", "cards_per_island": 3,
                             "islands": [{"name": "H", "xy": [0, 0]}, {"name": "A", "xy": [10, 0]},
                                         {"name": "B", "xy": [0, 10]}, {"name": "C", "xy": [20, 0]}],
                             "links": [["H", "A"], ["H", "B"], ["H", "C"]]}, "fan")
    assert L.crossing_links(board) == [("H-A", "H-C")]  # H-C runs over A and along H-A


def test_distance_to_segment():
    assert L.distance_to_segment((5, 3), (0, 0), (10, 0)) == 3
    assert L.distance_to_segment((13, 4), (0, 0), (10, 0)) == 5  # past the end: to the end
    assert L.distance_to_segment((3, 4), (0, 0), (0, 0)) == 5  # a segment of no length


def test_the_faces_of_a_crossing_free_drawing_satisfy_euler():
    for name in ("oro", "kahuna"):
        board = load_board(name)
        found = L.faces(board, board.xy)
        assert board.n_islands - board.n_links + len(found) == 2
        assert sum(len(f) for f in found) == 2 * board.n_links


# -- the layout routine ---------------------------------------------------------------------------


def test_planar_layout_puts_the_hub_in_the_middle_without_crossings():
    board = board_from_dict(wheel(), "wheel")
    assert board.islands[L.nearest_to_middle(board.xy)] != "H"  # the rough drawing has H at its edge
    drawn = L.planar_layout(board, steps=5000)
    assert L.crossing_links(board, drawn) == []
    assert board.islands[L.nearest_to_middle(drawn)] == "H"
    assert all(5.0 <= v <= 95.0 for p in drawn for v in p)
    assert drawn == L.planar_layout(board, steps=5000)  # the same board and seed, the same drawing


def test_planar_layout_needs_a_crossing_free_drawing_to_start_from():
    doc = wheel()
    doc["islands"][1]["xy"] = [30, 30]  # A moved inside: H-C crosses A-B
    board = board_from_dict(doc, "wheel")
    with pytest.raises(ValueError, match="cross; draw it without crossings first"):
        L.planar_layout(board)


# -- the board file writer ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["oro", "kahuna"])
def test_board_to_dict_reads_back_as_the_same_board(name):
    board = load_board(name)
    again = board_from_dict(json.loads(json.dumps(board_to_dict(board))), name)
    assert again == board
    assert again.xy == board.xy and again.description == board.description


def test_a_board_file_saved_with_a_byte_order_mark_reads_as_without(tmp_path):
    """Some editors start a UTF-8 file with a byte order mark; a board file is read as positions are, past it."""
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(board_to_dict(load_board("oro"))).encode("utf-8"))
    board = load_board(str(path))
    assert board.islands == load_board("oro").islands and board.links == load_board("oro").links
    assert run("board", str(path)).exit_code == 0


def test_a_board_file_naming_a_key_twice_is_refused_as_a_position_is(tmp_path):
    """The standard JSON reader keeps the last of two keys silently; a board file is read as positions are."""
    path = tmp_path / "twice.json"
    path.write_text(json.dumps(wheel()).replace("{", '{"name": "first", ', 1), encoding="utf-8")
    user_error(run("board", str(path)), "twice.json': the key 'name' appears twice in one object")


def test_a_description_must_be_text(tmp_path):
    doc = wheel()
    doc["description"] = 7
    user_error(run("board", write_board(tmp_path, doc)), "'description' must be a string, not 7")


# -- kanaloa board --------------------------------------------------------------------------------


def test_board_lists_oro_by_default():
    result = run("board")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("board oro: 16 islands, 37 links, 3 cards per island (48 cards)")
    assert "reconstruction" in out.lower()
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.startswith("  ") and
            line.split()[0] in load_board("oro").islands}
    assert len(rows) == 16
    assert rows["ORO"][1:3] == ["7", "3"]
    assert rows["ORO"][5:] == ["BAFI", "COCO", "FALU", "IKA", "NALU", "PAHU", "RASI"]
    assert rows["DALI"][1] == "3"
    x, y = load_board("oro").xy[load_board("oro").find_island("ORO")]
    assert rows["ORO"][3:5] == [f"{x:.1f}", f"{y:.1f}"]
    board = load_board("oro")
    listed = out.split("links (37, in the board's order)\n", 1)[1].split("\n\n", 1)[0].split()
    assert listed == [board.link_name(k) for k in range(board.n_links)]
    assert "drawing: no two links cross" in out


def test_board_lists_kahuna():
    result = run("board", "kahuna")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("board kahuna: 12 islands, 27 links, 2 cards per island (24 cards)")
    assert "ELAI-HUNA" in result.stdout


def test_board_json_is_a_board_file_that_board_reads_back(tmp_path):
    result = run("board", "oro", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert list(doc) == ["name", "description", "cards_per_island", "islands", "links"]
    assert list(doc["islands"][0]) == ["name", "links", "xy"]
    assert board_from_dict(doc, "oro") == load_board("oro")
    path = write_board(tmp_path, doc)
    assert run("new", "--seed", "1", "--board", path).exit_code == 0  # --board takes it


def test_board_lists_a_board_file_and_says_when_its_drawing_crosses(tmp_path):
    doc = wheel()
    doc["islands"][1]["xy"] = [30, 30]
    result = run("board", write_board(tmp_path, doc))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("board wheel: 6 islands, 10 links, 3 cards per island (18 cards)")
    assert "drawing: 2 pair(s) of links cross: H-C and A-B, H-D and E-A" in result.stdout


def test_board_says_when_a_board_file_has_no_coordinates(tmp_path):
    result = run("board", write_board(tmp_path, wheel(rough=False)))
    assert result.exit_code == 0, result.output
    assert "drawing: some islands share a point (a board file without xy?)" in result.stdout


def test_board_svg_writes_a_picture(tmp_path):
    target = tmp_path / "oro.svg"
    result = run("board", "--svg", str(target))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("board oro:")  # the listing too
    picture = target.read_text()
    assert picture.count('class="island"') == 16 and picture.count('class="link"') == 37
    printed = run("board", "kahuna", "--svg", "-")
    assert printed.exit_code == 0, printed.output
    assert printed.stdout.startswith("<svg") and printed.stdout.count('class="island"') == 12


def test_board_layout_prints_a_clean_board_file(tmp_path):
    result = run("board", write_board(tmp_path, wheel()), "--layout", "--json")
    assert result.exit_code == 0, result.output
    board = board_from_dict(json.loads(result.stdout), "laid out")
    assert L.crossing_links(board) == []
    assert board.islands[L.nearest_to_middle(board.xy)] == "H"


@pytest.mark.parametrize(("args", "fragments"), [
    (["nowhere"], ["board 'nowhere': no such built-in board (oro, kahuna) or file"]),
    (["kahuna", "--json", "--svg", "-"], ["--svg -: standard output already holds the --json board"]),
])
def test_board_errors(args, fragments):
    user_error(run("board", *args), *fragments)


def test_board_errors_on_files(tmp_path):
    user_error(run("board", write_board(tmp_path, {"name": "x"})), "'cards_per_island' must be an integer")
    doc = wheel()
    doc["islands"][1]["xy"] = [30, 30]
    user_error(run("board", write_board(tmp_path, doc), "--layout"),
               "--layout: board", "its links H-C and A-B cross; draw it without crossings first")
    user_error(run("board", "oro", "--svg", str(tmp_path)), "--svg", "cannot write it")


# -- a path that is there but holds no board file says what it is (R1: a board is a JSON file) ----------


def _board_errors(path: str) -> set[str]:
    """The one error line of ``kanaloa board PATH`` and of ``kanaloa new --board PATH`` (the same line)."""
    return {user_error(run("board", path)), user_error(run("new", "--seed", "1", "--board", path))}


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_device_is_not_a_board_file():
    """``board /dev/zero`` said "no such built-in board or file"; the file is there, it is a device."""
    assert _board_errors("/dev/zero") == {
        "error: board '/dev/zero': not a regular file but a character device; a board is a JSON file"}


def test_a_directory_is_not_a_board_file(tmp_path):
    assert _board_errors(str(tmp_path)) == {f"error: board {str(tmp_path)!r}: is a directory, not a board file (JSON)"}


def test_a_board_file_the_system_will_not_let_us_read_gives_its_reason(tmp_path, monkeypatch):
    path = write_board(tmp_path, wheel(), "locked.json")

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("kanaloa.rules.datafile.open", refuse, raising=False)
    assert _board_errors(path) == {f"error: board {path!r}: cannot read it (Permission denied)"}


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any file")
def test_a_board_file_without_read_permission(tmp_path):
    path = write_board(tmp_path, wheel(), "unreadable.json")
    os.chmod(path, 0)
    assert _board_errors(path) == {f"error: board {path!r}: cannot read it (Permission denied)"}


def test_a_board_file_over_the_input_limit_says_so(tmp_path):
    path = tmp_path / "huge.json"
    path.write_bytes(b" " * (MAX_INPUT_BYTES + 1))
    assert _board_errors(str(path)) == {
        f"error: board {str(path)!r}: larger than the 4 MiB input limit; expected a board file (JSON)"}


def test_a_path_with_nothing_there_is_no_board(tmp_path):
    path = str(tmp_path / "nowhere.json")
    assert _board_errors(path) == {f"error: board {path!r}: no such built-in board (oro, kahuna) or file"}
    assert _board_errors(path + "/board.json") == {
        f"error: board {path + '/board.json'!r}: no such built-in board (oro, kahuna) or file"}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_board_comes_through_a_named_pipe(tmp_path):
    """A pipe is read like a file (``--board <(...)`` in a shell), within the same input limit."""
    pipe = str(tmp_path / "board.pipe")
    os.mkfifo(pipe)

    def feed() -> None:
        with open(pipe, "w") as fh:
            fh.write(json.dumps(wheel()))

    writer = threading.Thread(target=feed)
    writer.start()
    result = run("board", pipe)
    writer.join()
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("board wheel: 6 islands, 10 links")
