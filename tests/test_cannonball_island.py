"""Cannonball Colony's island (R20.1, R20.2): tile files, the built-in set, rotation, the seeded layout,
the start of a game, and the geometry the landing rule (R20.4) reads."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from kanaloa.cannonball import island as I
from kanaloa.cannonball import state as S
from kanaloa.errors import BoardError, OptionError

CORNERS = ["gfgggl", "ffgggg", "gggmgg", "gglggg", "gggggf", "mggggl"]  # distinct corners: g, l, m, l


def tile_doc(rows=None, **fields) -> dict:
    doc = {"format": I.TILE_FORMAT, "name": "test", "description": "a test tile", "rows": rows or CORNERS}
    doc.update(fields)
    return doc


def write(tmp_path: Path, doc: object, name: str = "tile.json") -> str:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return str(path)


def seat_grid(columns, terrain, board_of, seat) -> list[str]:
    """The letters of ``seat``'s board, top row first (the tile as laid)."""
    spaces = [s for s in range(len(board_of)) if board_of[s] == seat]
    rows = sorted({s // columns for s in spaces}, reverse=True)
    return ["".join(S.TERRAIN_LETTERS[terrain[s]] for s in spaces if s // columns == row) for row in rows]


def landing_spaces(columns, rows, terrain, board_of, seat) -> list[int]:
    """R20.4 without the distance rule: own board, grass or forest, on the edge, touching no other board."""
    return [s for s in range(columns * rows)
            if board_of[s] == seat and terrain[s] in (S.GRASS, S.FOREST)
            and I.on_edge(s, columns, rows, terrain) and not I.touches_other_board(s, seat, columns, rows, board_of)]


# -- R20.2: tile files ------------------------------------------------------------------------------


def test_r20_2_a_tile_file_loads(tmp_path):
    tile = I.load_tile(write(tmp_path, tile_doc()))
    assert tile.name == "test" and tile.description == "a test tile" and tile.rows == tuple(CORNERS)


def test_r20_2_the_description_may_be_left_out(tmp_path):
    doc = tile_doc()
    del doc["description"]
    assert I.load_tile(write(tmp_path, doc)).description == ""


@pytest.mark.parametrize(("doc", "says"), [
    ("{not json", "not valid JSON"),
    ([1, 2], "must hold a JSON object"),
    (tile_doc(format="cannonball-tile/2"), "'format' must be 'cannonball-tile/1', not 'cannonball-tile/2'"),
    ({"name": "x", "rows": CORNERS}, "'format' must be 'cannonball-tile/1', not None"),
    (tile_doc(name=""), "'name' must be a non-empty string"),
    (tile_doc(description=3), "'description' must be a string, not 3"),
    (tile_doc(colour="red"), "unknown field 'colour'"),
    (tile_doc(rows="gggggg"), "'rows' must be a list of 6 strings"),
    (tile_doc(rows=CORNERS[:5]), "'rows' must hold 6 rows, not 5"),
    (tile_doc(rows=[*CORNERS, "gggggg"]), "'rows' must hold 6 rows, not 7"),
    (tile_doc(rows=[*CORNERS[:2], 7, *CORNERS[3:]]), "rows[2] must be a string of 6 letters, not 7"),
    (tile_doc(rows=[*CORNERS[:3], "ggggg", *CORNERS[4:]]), "rows[3] must be 6 letters, not 5 ('ggggg')"),
    (tile_doc(rows=[*CORNERS[:3], "gggggfg", *CORNERS[4:]]), "rows[3] must be 6 letters, not 7"),
    (tile_doc(rows=[*CORNERS[:4], "ggxggg", CORNERS[5]]), "rows[4] column 3 (row 5 from the top) is 'x'"),
    (tile_doc(rows=["gggg.g", *CORNERS[1:]]), "rows[0] column 5 (row 1 from the top) is '.' (a tile has no outside"),
    (tile_doc(rows=["ggggGg", *CORNERS[1:]]), "is 'G'; a space is g (grass), f (forest), l (lake), m (mountain)"),
    (json.dumps(tile_doc()).replace('"name": "test"', '"name": "a", "name": "b"'),
     "the key 'name' appears twice in one object; a tile file says each thing once"),
    (json.dumps(tile_doc(description=0)).replace('"description": 0', '"description": ' + "9" * 5000),
     "'description' must be a string, not a 5000-digit number"),
])
def test_r20_2_a_bad_tile_file_is_refused_naming_the_file_and_field(tmp_path, doc, says):
    path = write(tmp_path, doc)
    with pytest.raises(BoardError) as caught:
        I.load_tile(path)
    message = str(caught.value)
    assert says in message
    assert message.startswith(f"tile {path!r}: ") and "\n" not in message


def test_r20_2_a_missing_tile_file_lists_the_built_in_names(tmp_path):
    path = str(tmp_path / "nowhere.json")
    with pytest.raises(BoardError, match=r"^tile '.*nowhere\.json': no such built-in tile \(bluffs, clearing, .*\) "
                                         r"or file$"):
        I.load_tile(path)
    with pytest.raises(BoardError, match=r"no such built-in tile .*meadow.* or file"):
        I.load_tile("meadows")


def test_r20_2_a_directory_is_no_tile_file(tmp_path):
    with pytest.raises(BoardError, match=r"^tile '.*': is a directory, not a tile file \(JSON\)$"):
        I.load_tile(str(tmp_path))


def test_r20_2_a_tile_file_that_is_not_utf8_or_empty_is_refused(tmp_path):
    path = tmp_path / "bytes.json"
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(BoardError, match="not UTF-8 text"):
        I.load_tile(str(path))
    with pytest.raises(BoardError, match="must be a built-in tile name or a file path"):
        I.load_tile("")


def test_r20_2_a_tile_file_saved_with_a_byte_order_mark_reads_as_without(tmp_path):
    """Some editors start a UTF-8 file with a byte order mark; a tile file is read as positions are, past it."""
    plain = I.load_tile(write(tmp_path, tile_doc(name="marked")))
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(tile_doc(name="marked")).encode("utf-8"))
    marked = I.load_tile(str(path))
    assert (marked.name, marked.rows, marked.description) == (plain.name, plain.rows, plain.description)


# -- R20.2: the built-in set ------------------------------------------------------------------------


def test_r20_2_the_built_in_set_is_the_tiles_folder_sorted_by_name():
    folder = resources.files("kanaloa.cannonball").joinpath("tiles")
    files = sorted(entry.name[:-len(".json")] for entry in folder.iterdir() if entry.name.endswith(".json"))
    assert I.builtin_tiles() == files == sorted(files)
    assert len(files) >= 8


@pytest.mark.parametrize("name", I.builtin_tiles())
def test_r20_2_every_built_in_tile_loads_and_mixes_the_terrains(name):
    tile = I.load_tile(name)
    assert tile.name == name and tile.description
    letters = "".join(tile.rows)
    assert letters.count("g") + letters.count("f") >= 24  # mostly buildable
    assert letters.count("g") >= 6 and letters.count("f") >= 4 and ("l" in letters or "m" in letters)
    edges = [tile.rows[0], tile.rows[-1], "".join(r[0] for r in tile.rows), "".join(r[-1] for r in tile.rows)]
    assert all(sum(ch in "gf" for ch in edge) >= 4 for edge in edges)  # landings on every side
    assert all(edge[0] in "gf" and edge[-1] in "gf" for edge in edges)  # the corners land in every layout


def test_r20_2_the_built_in_tiles_differ():
    assert len({I.load_tile(name).rows for name in I.builtin_tiles()}) == len(I.builtin_tiles())


# -- R20.2: rotation --------------------------------------------------------------------------------


def test_r20_2_four_quarter_turns_give_the_tile_back():
    grid = tuple(CORNERS)
    assert I.rotate_rows(grid, 4) == grid == I.rotate_rows(grid, 0)
    turned = grid
    for _ in range(4):
        turned = I.rotate_rows(turned, 1)
    assert turned == grid
    assert I.rotate_rows(grid, 2) == I.rotate_rows(I.rotate_rows(grid, 1), 1)
    assert I.rotate_rows(grid, 3) == I.rotate_rows(grid, -1)


def test_r20_2_a_quarter_turn_moves_the_top_left_corner_to_the_top_right():
    turned = I.rotate_rows(CORNERS, 1)
    assert turned[0][-1] == CORNERS[0][0] == "g"  # top left -> top right
    assert turned[-1][-1] == CORNERS[0][-1] == "l"  # top right -> bottom right
    assert turned[-1][0] == CORNERS[-1][-1] == "l"  # bottom right -> bottom left
    assert turned[0][0] == CORNERS[-1][0] == "m"  # bottom left -> top left
    assert turned[0] == "".join(row[0] for row in reversed(CORNERS))  # the left column, bottom up, is the top row
    assert I.rotate_rows(["ab", "cd"], 1) == ("ca", "db")
    assert I.rotate_rows(["ab", "cd"], 2) == ("dc", "ba")


def test_r20_2_a_turned_tile_keeps_its_name():
    tile = I.load_tile("meadow").rotated(3)
    assert tile.name == "meadow" and tile.rows == I.rotate_rows(I.load_tile("meadow").rows, 3)


# -- R20.1: the layout ------------------------------------------------------------------------------


def test_r20_1_two_players_one_tile_above_the_other():
    columns, rows, terrain, board_of = I.layout(2, 5)
    assert (columns, rows) == (6, 12) and len(terrain) == len(board_of) == 72
    for space in range(72):
        assert board_of[space] == (0 if space // 6 < 6 else 1)  # seat 0 rows 1-6 (bottom), seat 1 rows 7-12
    assert S.OUTSIDE not in terrain


def test_r20_1_three_players_two_on_top_one_centred_below_the_rest_outside():
    columns, rows, terrain, board_of = I.layout(3, 5)
    assert (columns, rows) == (12, 12) and len(terrain) == 144
    for space in range(144):
        row, column = divmod(space, 12)
        if row >= 6:
            assert board_of[space] == (1 if column < 6 else 2), S.space_name(space, 12)
            assert terrain[space] != S.OUTSIDE
        elif 3 <= column <= 8:  # columns d-i
            assert board_of[space] == 0 and terrain[space] != S.OUTSIDE
        else:
            assert board_of[space] == S.NOBODY and terrain[space] == S.OUTSIDE, S.space_name(space, 12)
    text = I.island_text(columns, rows, terrain)
    assert all(line[:3] == "..." and line[9:] == "..." and "." not in line[3:9] for line in text[6:])
    assert all("." not in line for line in text[:6])


def test_r20_1_four_players_clockwise_from_bottom_left():
    columns, rows, terrain, board_of = I.layout(4, 5)
    assert (columns, rows) == (12, 12)
    expected = {(False, False): 0, (True, False): 1, (True, True): 2, (False, True): 3}  # (top, right): seat
    for space in range(144):
        row, column = divmod(space, 12)
        assert board_of[space] == expected[(row >= 6, column >= 6)]
    assert S.OUTSIDE not in terrain
    assert board_of[S.parse_space("a1", 12, 12)] == 0 and board_of[S.parse_space("a12", 12, 12)] == 1
    assert board_of[S.parse_space("l12", 12, 12)] == 2 and board_of[S.parse_space("l1", 12, 12)] == 3


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r20_1_each_seat_board_is_its_drawn_tile_turned(players):
    dealt = I.draw_tiles(players, 11)
    columns, _, terrain, board_of = I.layout(players, 11)
    for seat, (tile, turns) in enumerate(dealt):
        assert seat_grid(columns, terrain, board_of, seat) == list(I.rotate_rows(tile.rows, turns))


def test_r20_1_place_tiles_puts_the_tiles_top_row_at_the_top():
    a = I.Tile("a", tuple(CORNERS))
    b = I.Tile("b", tuple("ffffff" for _ in range(6)))
    columns, rows, terrain, _ = I.place_tiles([(a, 0), (b, 0)])
    text = I.island_text(columns, rows, terrain)
    assert text == ["ffffff"] * 6 + CORNERS
    assert terrain[0] == S.MOUNTAIN  # a1: the bottom-left space of seat 0's tile, its row 6 from the top
    assert terrain[S.parse_space("f6", 6, 12)] == S.LAKE  # f6: the top-right space of seat 0's tile


def test_r20_1_island_text_writes_rows_top_first():
    terrain = [S.GRASS, S.FOREST, S.LAKE, S.MOUNTAIN, S.OUTSIDE, S.GRASS]  # 3 columns, 2 rows
    assert I.island_text(3, 2, terrain) == ["m.g", "gfl"]


# -- R20.2: the seeded draw -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r20_2_the_same_seed_lays_the_same_island(players):
    assert I.layout(players, 1234) == I.layout(players, 1234)
    assert I.draw_tiles(players, 1234) == I.draw_tiles(players, 1234)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r20_2_different_seeds_lay_different_islands(players):
    islands = {tuple(I.layout(players, seed)[2]) for seed in range(30)}
    assert len(islands) >= 20
    assert I.layout(players, 0) != I.layout(players, 1)


def test_r20_2_the_draw_is_the_documented_one():
    """SplitMix64(seed): shuffle a copy of the list, the first `players` go to seats 0, 1, ...; then
    below(4) per seat in order is its number of clockwise quarter turns."""
    from kanaloa.rules.rng import SplitMix64

    for seed in (0, 1, 99, 2**64 - 1):
        rng = SplitMix64(seed)
        names = list(I.BUILTIN_TILES)
        rng.shuffle(names)
        expected = [(names[seat], rng.below(4)) for seat in range(3)]
        assert [(tile.name, turns) for tile, turns in I.draw_tiles(3, seed)] == expected


def test_r20_2_seeds_reach_every_tile_and_every_rotation():
    seen_tiles, seen_turns = set(), set()
    for seed in range(200):
        for tile, turns in I.draw_tiles(4, seed):
            seen_tiles.add(tile.name)
            seen_turns.add(turns)
    assert seen_tiles == set(I.BUILTIN_TILES) and seen_turns == {0, 1, 2, 3}


def test_r20_2_the_tiles_are_distinct_within_a_game():
    for seed in range(100):
        names = [tile.name for tile, _ in I.draw_tiles(4, seed)]
        assert len(set(names)) == 4


def test_r20_2_tiles_given_by_the_user_are_used(tmp_path):
    paths = []
    for k, letter in enumerate("gfgf"):
        rows = [letter * 6] * 5 + ["m" * 5 + letter]
        paths.append(write(tmp_path, tile_doc(rows=rows, name=f"mine{k}"), f"mine{k}.json"))
    for seed in range(10):
        dealt = I.draw_tiles(4, seed, paths)
        assert sorted(tile.name for tile, _ in dealt) == ["mine0", "mine1", "mine2", "mine3"]
        columns, _, terrain, board_of = I.layout(4, seed, paths)
        for seat, (tile, turns) in enumerate(dealt):
            assert seat_grid(columns, terrain, board_of, seat) == list(I.rotate_rows(tile.rows, turns))
    two = [I.load_tile("meadow"), "ridge"]  # Tile objects and names mix
    assert {tile.name for tile, _ in I.draw_tiles(2, 3, two)} == {"meadow", "ridge"}


def test_r20_2_fewer_tiles_than_players_is_refused():
    with pytest.raises(OptionError, match=r"^tiles: 3 players need 3 different tiles, only 2 given \(meadow, ridge\)$"):
        I.layout(3, 0, ["meadow", "ridge"])
    with pytest.raises(OptionError, match=r"only 0 given \(none\)"):
        I.layout(2, 0, [])
    with pytest.raises(OptionError, match="not the single string"):
        I.layout(2, 0, "meadow")


def test_r20_2_a_bad_tile_in_the_list_names_its_file(tmp_path):
    bad = write(tmp_path, tile_doc(format="x"))
    with pytest.raises(BoardError, match=r"^tile '.*tile\.json': 'format'"):
        I.layout(2, 0, ["meadow", bad])


@pytest.mark.parametrize("seed", [-1, 2**64, "7", 1.5, True])
def test_r20_2_a_bad_seed_is_refused(seed):
    with pytest.raises(OptionError, match=r"^seed: must be a whole number from 0 to 2\*\*64-1"):
        I.layout(2, seed)


# -- R20.1/R20.3: the start of a game -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r20_1_new_game_is_the_landing_round_with_nothing_built(players):
    game = I.new_game(players, 42)
    columns, rows, terrain, board_of = I.layout(players, 42)
    assert (game.players, game.columns, game.rows, game.terrain, game.board_of) == (
        players, columns, rows, terrain, board_of)
    spaces = columns * rows
    assert game.seed == 42 and game.round == S.ROUND_LANDING and game.to_move == 0
    assert game.ships == [S.NO_SPACE] * players and game.earned == [0] * players
    assert game.road == [False] * spaces
    assert game.fort == game.cannon == game.blockade == [S.NOBODY] * spaces
    assert game.supply == S.ROAD_TILES[players]
    assert (game.fired, game.grass_roads, game.passes, game.winners, game.ranking, game.reason) == (
        False, 0, 0, [], [], S.REASON_NONE)
    assert game == I.new_game(players, 42)


@pytest.mark.parametrize("players", [0, 1, 5, -2, "3", 2.0, None, True])
def test_r20_1_players_outside_two_to_four_are_refused(players):
    with pytest.raises(ValueError, match=r"^players: must be 2 to 4 for Cannonball Colony, not "):
        I.new_game(players, 0)
    with pytest.raises(ValueError, match=r"^players: "):
        I.layout(players, 0)


# -- geometry (R20.4, R20.5) -----------------------------------------------------------------------


def test_r20_5_neighbours_are_orthogonal_and_on_the_grid():
    assert I.neighbours(0, 6, 12) == [1, 6]  # a1: b1, a2
    assert I.neighbours(5, 6, 12) == [4, 11]  # f1
    assert I.neighbours(71, 6, 12) == [65, 70]  # f12
    assert I.neighbours(14, 6, 12) == [8, 13, 15, 20]  # c3
    assert I.neighbours(S.parse_space("l7", 12, 12), 12, 12) == [71, 82, 95]


def test_r20_4_on_edge_on_the_grids_border_and_next_to_outside():
    columns, rows, terrain, _ = I.layout(3, 0)
    on = {S.space_name(s, columns) for s in range(144) if I.on_edge(s, columns, rows, terrain)}
    assert "a12" in on and "f12" in on and "a8" in on and "l9" in on  # the border of the grid
    assert {"a7", "b7", "c7", "j7", "k7", "l7"} <= on  # above the outside spaces
    assert {"d1", "d3", "d6", "i2", "i6", "e1", "h1"} <= on  # beside and below the bottom tile
    assert not on & {"c8", "e5", "h5", "d7", "i7", "f6", "b8"}
    assert "a1" not in on  # an outside space is on no edge
    _, _, terrain2, _ = I.layout(2, 0)
    assert I.on_edge(0, 6, 12, terrain2) and not I.on_edge(S.parse_space("c6", 6, 12), 6, 12, terrain2)


def test_r20_4_touching_another_board_counts_diagonals_but_not_outside():
    _, _, _, board_of = I.layout(3, 0)
    touches = lambda name, seat: I.touches_other_board(S.parse_space(name, 12, 12), seat, 12, 12, board_of)
    assert touches("c7", 1)  # diagonal to d6 (seat 0)
    assert not touches("b7", 1)  # next to outside spaces only
    assert touches("f12", 1) and touches("g12", 2)  # side by side
    assert touches("d6", 0) and touches("i6", 0) and not touches("d5", 0)
    assert touches("d1", 1) and not touches("d1", 0)  # seen from seat 1, seat 0's own spaces are another board
    _, _, _, board_of2 = I.layout(2, 0)
    assert I.touches_other_board(S.parse_space("a6", 6, 12), 0, 6, 12, board_of2)
    assert not I.touches_other_board(S.parse_space("a5", 6, 12), 0, 6, 12, board_of2)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r20_4_every_built_in_layout_has_a_landing_space_for_every_seat(players):
    """Seeds 0-199: each seat has a grass or forest space of its own board on the edge and touching no
    other board (R20.4 without the distance rule)."""
    for seed in range(200):
        columns, rows, terrain, board_of = I.layout(players, seed)
        for seat in range(players):
            assert landing_spaces(columns, rows, terrain, board_of, seat), (players, seed, seat)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r20_4_with_the_distance_rule_no_seat_is_ever_left_without_a_landing(players):
    """Seeds 0-199, every choice of the earlier seats: the next seat still has a landing space more than
    4 steps from every ship already landed (the built-in tiles never force a landing-round pass)."""

    def always_lands(columns, candidates, landed) -> bool:
        seat = len(landed)
        if seat == len(candidates):
            return True
        far = [s for s in candidates[seat]
               if all(abs(s % columns - o % columns) + abs(s // columns - o // columns) > S.LANDING_SPACING
                      for o in landed)]
        return bool(far) and all(always_lands(columns, candidates, [*landed, s]) for s in far)

    for seed in range(200):
        columns, rows, terrain, board_of = I.layout(players, seed)
        candidates = [landing_spaces(columns, rows, terrain, board_of, seat) for seat in range(players)]
        assert always_lands(columns, candidates, []), (players, seed)
