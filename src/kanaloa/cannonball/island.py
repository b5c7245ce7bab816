"""Cannonball Colony's island as data (R20.1, R20.2): tiles, their files, the seeded layout and its geometry.

Tiles (R20.2)
-------------
A tile is 6 x 6 spaces of grass, forest, lake or mountain.  A tile file is a
JSON object::

    {"format": "cannonball-tile/1",
     "name": "meadow",
     "description": "Open grassland ...",
     "rows": ["gggfgg", "gfgggf", "ggmlgg", "fglggg", "ggggfg", "gfgggg"]}

``rows`` holds 6 strings of 6 letters, the top row first and each row from left
to right, one letter a space: ``g`` grass, ``f`` forest, ``l`` lake, ``m``
mountain (the position format's letters, ``state.TERRAIN_LETTERS``, without
``.``: a tile has no space outside the island).  ``name`` is a non-empty string,
``description`` an optional string; no other key is allowed.  ``load_tile``
takes a built-in tile's name (``builtin_tiles()``) or a file's path.  The
built-in tiles are our own reconstruction: the printed tiles are in no text.

Layout (R20.1)
--------------
One tile per seat, each tile the seat's landing board:

- 2 players: 6 columns x 12 rows; seat 0 the bottom tile (rows 1-6), seat 1 the top.
- 3 players: 12 x 12; seat 1 top left (columns a-f), seat 2 top right (g-l), seat 0
  centred below them (columns d-i, column indexes 3-8); the bottom rows' other
  spaces (columns a-c and j-l of rows 1-6) are OUTSIDE, on nobody's board.
- 4 players: 12 x 12; seat 0 bottom left, seat 1 top left, seat 2 top right,
  seat 3 bottom right.

The random draw (R20.2), exactly, so that another implementation repeats it:
start ``rng = SplitMix64(seed)`` (``kanaloa.rules.rng``; the seed is taken as a
uint64) on the list of tiles (the tiles given, in the order given, or else the
built-in set in the order of ``BUILTIN_TILES``, which is sorted by name); copy
the list and ``rng.shuffle`` the copy (Fisher-Yates from the last index down);
seat ``s`` gets the copy's tile ``s`` for ``s`` in ``0 .. players-1``; then, for
each seat in seat order, ``rng.below(4)`` is its rotation: that many quarter
turns clockwise (0, 90, 180 or 270 degrees).  Nothing else is drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources

from ..errors import PATH_LIMIT, BoardError, OptionError, brief, quote
from ..rules.datafile import DataFiles, load_json
from ..rules.rng import SplitMix64
from .state import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    NOBODY,
    OUTSIDE,
    TERRAIN_LETTERS,
    TERRAIN_NAMES,
    TILE_SIZE,
    CannonballData,
)

TILE_FORMAT = "cannonball-tile/1"
TILE_LETTERS = TERRAIN_LETTERS.replace(".", "")  # "gflm": what a tile space may be
TILE_KEYS = ("format", "name", "description", "rows")

# The built-in set, sorted by name: its order is part of the seeded draw (module docstring).
BUILTIN_TILES = ("bluffs", "clearing", "crossing", "deepwood", "highlands", "lakeside", "marsh", "meadow", "ridge",
                 "twin-lakes")

Island = tuple[int, int, list[int], list[int]]  # (columns, rows, terrain, board_of), as layout() returns it


@dataclass(frozen=True)
class Tile:
    """A 6 x 6 tile (R20.2): ``rows`` top first, one letter of ``TILE_LETTERS`` a space; ``source`` is
    the built-in name or the path it was loaded from."""

    name: str
    rows: tuple[str, ...]
    description: str = ""
    source: str = ""

    def rotated(self, turns: int) -> Tile:
        """This tile turned ``turns`` quarter turns clockwise (R20.2)."""
        return Tile(self.name, rotate_rows(self.rows, turns), self.description, self.source)


def builtin_tiles() -> list[str]:
    """The names of the built-in tiles, in the order the seeded draw uses (R20.2)."""
    return list(BUILTIN_TILES)


def rotate_rows(rows: Sequence[str], turns: int) -> tuple[str, ...]:
    """A square grid of letters (top row first) turned ``turns`` quarter turns clockwise (R20.2).

    One clockwise quarter turn puts the old left column, read bottom to top, as
    the new top row: the top-left corner goes to the top right.  Any integer
    counts (modulo 4); 0 gives the grid back unchanged.
    """
    grid = tuple(rows)
    for _ in range(turns % 4):
        size = len(grid)
        grid = tuple("".join(grid[size - 1 - c][r] for c in range(size)) for r in range(size))
    return grid


# -- tile files ------------------------------------------------------------------------------------

_CACHE: dict[str, Tile] = {}

# What a path that is no regular file is, for messages (``stat`` modes; a pipe is read like a file).
def _fail(where: object, why: str) -> BoardError:
    return BoardError(f"tile {brief(where, PATH_LIMIT)}: {why}")


def tile_from_dict(data: object, source: str) -> Tile:
    """A ``Tile`` from a parsed tile file (R20.2); ``BoardError`` naming ``source`` and the bad field."""
    if not isinstance(data, dict):
        raise _fail(source, "the file must hold a JSON object")
    unknown = sorted(str(key) for key in data if key not in TILE_KEYS)
    if unknown:
        raise _fail(source, f"unknown field {quote(unknown[0])}; a tile has {', '.join(TILE_KEYS)}")
    if data.get("format") != TILE_FORMAT:
        raise _fail(source, f"'format' must be {TILE_FORMAT!r}, not {brief(data.get('format'))}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _fail(source, f"'name' must be a non-empty string, not {brief(name)}")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise _fail(source, f"'description' must be a string, not {brief(description)}")
    rows = data.get("rows")
    if not isinstance(rows, list):
        raise _fail(source, f"'rows' must be a list of {TILE_SIZE} strings, not {brief(rows)}")
    if len(rows) != TILE_SIZE:
        raise _fail(source, f"'rows' must hold {TILE_SIZE} rows, not {len(rows)}")
    allowed = ", ".join(f"{letter} ({TERRAIN_NAMES[TERRAIN_LETTERS.index(letter)]})" for letter in TILE_LETTERS)
    for r, row in enumerate(rows):
        if not isinstance(row, str):
            raise _fail(source, f"rows[{r}] must be a string of {TILE_SIZE} letters, not {brief(row)}")
        if len(row) != TILE_SIZE:
            raise _fail(source, f"rows[{r}] must be {TILE_SIZE} letters, not {len(row)} ({brief(row)})")
        for c, letter in enumerate(row):
            if letter not in TILE_LETTERS:
                extra = " (a tile has no outside spaces)" if letter == "." else ""
                raise _fail(source, f"rows[{r}] column {c + 1} (row {r + 1} from the top) is {brief(letter)}{extra}; "
                                    f"a space is {allowed}")
    return Tile(name=name, rows=tuple(rows), description=description, source=source)


def load_tile(name_or_path: str) -> Tile:
    """A built-in tile by name (``builtin_tiles()``) or a tile file by path (R20.2).

    Raises ``BoardError`` with a one-line message naming the file and the
    field: a missing file (with the built-in names), a directory, text that is
    not JSON, a wrong ``format``, a wrong number or length of rows, a bad
    letter (its row and column).
    """
    if not isinstance(name_or_path, str) or not name_or_path:
        raise _fail(name_or_path, "must be a built-in tile name or a file path")
    if name_or_path in _CACHE:
        return _CACHE[name_or_path]
    builtin = name_or_path in BUILTIN_TILES
    data = load_json(name_or_path, "tile", "kanaloa.cannonball", "tiles/", BUILTIN_TILES)
    tile = tile_from_dict(data, name_or_path)
    if builtin:  # a file may change between loads; a built-in tile does not
        _CACHE[name_or_path] = tile
    return tile


def builtin_tile_text(name: str) -> str:
    """The text of the built-in tile file ``name`` (one of ``BUILTIN_TILES``)."""
    return resources.files("kanaloa.cannonball").joinpath(f"tiles/{name}.json").read_text("utf-8")


def forget_tile(path: str) -> None:
    """Drop ``path`` from ``load_tile``'s cache (it keeps built-in tiles only, so a file is never in it)."""
    _CACHE.pop(path, None)


def tiles_with(tile: Tile | str, players: int) -> list[Tile | str]:
    """The tiles of a game of ``players`` that plays ``tile`` (a Tile, or a tile's name or file, read to learn
    its name): it and the first built-in tiles of other names, one a player (R20.1), so that every layout
    draws it.  A file that is no tile is listed as it is: the game's rule set refuses it, saying why."""
    try:
        name = (tile if isinstance(tile, Tile) else load_tile(tile)).name
    except BoardError:
        name = None
    return [tile, *[t for t in BUILTIN_TILES if t != name][:players - 1]]


# The game's ``files`` face (``kanaloa.rules.registry``): tile files, each played as one of the ``tiles``.
TILE_FILES = DataFiles(kind="tile", parameter="tiles",
                       builtin=lambda: {name: builtin_tile_text(name) for name in BUILTIN_TILES},
                       from_dict=tile_from_dict, load=load_tile, forget=forget_tile, value=tiles_with)


# -- the layout ------------------------------------------------------------------------------------


def check_players(players: object) -> int:
    """``players`` when it is 2, 3 or 4 (R20.1); else an ``OptionError`` (a ValueError) naming players."""
    if not isinstance(players, int) or isinstance(players, bool) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OptionError(f"players: must be {MIN_PLAYERS} to {MAX_PLAYERS} for Cannonball Colony, "
                          f"not {brief(players)}")
    return players


def _check_seed(seed: object) -> int:
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        raise OptionError(f"seed: must be a whole number from 0 to 2**64-1, not {brief(seed)}")
    return seed


def tile_origins(players: int) -> tuple[int, int, list[tuple[int, int]]]:
    """``(columns, rows, origins)`` of the R20.1 layout: ``origins[seat]`` is the (column, row) of the
    bottom-left space of the seat's tile, row 0 the bottom."""
    check_players(players)
    t = TILE_SIZE
    if players == 2:
        return t, 2 * t, [(0, 0), (0, t)]
    if players == 3:
        return 2 * t, 2 * t, [(t // 2, 0), (0, t), (t, t)]
    return 2 * t, 2 * t, [(0, 0), (0, t), (t, t), (t, 0)]


def draw_tiles(players: int, seed: int, tiles: Sequence[Tile | str] | None = None) -> list[tuple[Tile, int]]:
    """Each seat's tile and rotation (quarter turns clockwise), in seat order, as the seed draws them (R20.2).

    ``tiles`` are ``Tile`` objects or names/paths for ``load_tile``; by default
    the built-in set.  The draw is the module docstring's.  Raises
    ``OptionError`` for players outside 2-4, a bad seed, or fewer tiles than
    players; ``BoardError`` for a tile file that does not load.
    """
    check_players(players)
    rng = SplitMix64(_check_seed(seed))
    names: Sequence[Tile | str] = BUILTIN_TILES if tiles is None else tiles
    if isinstance(names, str):
        raise OptionError(f"tiles: must be a list of tiles, not the single string {brief(names)}")
    pool = [entry if isinstance(entry, Tile) else load_tile(entry) for entry in names]
    if len(pool) < players:
        given = ", ".join(tile.name for tile in pool) or "none"
        raise OptionError(f"tiles: {players} players need {players} different tiles, "
                          f"only {len(pool)} given ({given})")
    rng.shuffle(pool)
    chosen = pool[:players]
    return [(tile, rng.below(4)) for tile in chosen]


def place_tiles(dealt: Sequence[tuple[Tile, int]]) -> Island:
    """``(columns, rows, terrain, board_of)`` with tile ``dealt[seat]``, turned as given, on the seat's
    landing board (R20.1); every other space OUTSIDE and on nobody's board."""
    columns, rows, origins = tile_origins(len(dealt))
    terrain = [OUTSIDE] * (columns * rows)
    board_of = [NOBODY] * (columns * rows)
    for seat, ((tile, turns), (left, bottom)) in enumerate(zip(dealt, origins, strict=True)):
        grid = rotate_rows(tile.rows, turns)
        for r, line in enumerate(grid):  # r counts from the top of the tile
            row = bottom + TILE_SIZE - 1 - r
            for c, letter in enumerate(line):
                space = row * columns + left + c
                terrain[space] = TERRAIN_LETTERS.index(letter)
                board_of[space] = seat
    return columns, rows, terrain, board_of


def laid_grids(players: int, terrain: Sequence[int]) -> list[tuple[str, ...]]:
    """What ``place_tiles`` laid on each seat's landing board, read back from an island's ``terrain`` (the
    R20.1 layout of ``players``): the tile's rows as laid, top row first, in seat order.  A grid is one of the
    tiles turned (``rotate_rows``); ``tile_form`` tells which tile whatever the turn."""
    columns, _, origins = tile_origins(players)
    grids = []
    for left, bottom in origins:
        grids.append(tuple("".join(TERRAIN_LETTERS[terrain[(bottom + TILE_SIZE - 1 - r) * columns + left + c]]
                                   for c in range(TILE_SIZE)) for r in range(TILE_SIZE)))
    return grids


def tile_form(rows: Sequence[str]) -> tuple[str, ...]:
    """A tile's grid the same for each of its four turns (the least of them): two grids are the same tile
    turned exactly when their forms are equal (R20.2)."""
    return min(rotate_rows(rows, turns) for turns in range(4))


def layout(players: int, seed: int, tiles: Sequence[Tile | str] | None = None) -> Island:
    """The island of a new game (R20.1, R20.2): ``(columns, rows, terrain, board_of)``.

    The seed chooses the tiles and their rotations (``draw_tiles``; the module
    docstring gives the draw exactly); ``place_tiles`` lays them out.
    """
    return place_tiles(draw_tiles(players, seed, tiles))


def new_game(players: int, seed: int, tiles: Sequence[Tile | str] | None = None) -> CannonballData:
    """The start of a game (R20.1-R20.4): the seeded island, the landing round with seat 0 to move, no
    ship landed, no piece built, nothing earned, the full road supply for ``players``, ``seed`` kept."""
    columns, rows, terrain, board_of = layout(players, seed, tiles)
    return CannonballData.start(players, columns, rows, terrain, board_of, seed)


# -- geometry --------------------------------------------------------------------------------------


def neighbours(space: int, columns: int, rows: int) -> list[int]:
    """The spaces orthogonally next to ``space`` on the grid, in increasing order (below, left, right, above)."""
    row, column = divmod(space, columns)
    out = []
    if row > 0:
        out.append(space - columns)
    if column > 0:
        out.append(space - 1)
    if column < columns - 1:
        out.append(space + 1)
    if row < rows - 1:
        out.append(space + columns)
    return out


def on_edge(space: int, columns: int, rows: int, terrain: Sequence[int]) -> bool:
    """Whether the island space ``space`` lies on the island's outline (R20.4): one of its four sides faces
    off the grid or an OUTSIDE space.  An OUTSIDE space itself is on no edge."""
    if terrain[space] == OUTSIDE:
        return False
    near = neighbours(space, columns, rows)
    return len(near) < 4 or any(terrain[other] == OUTSIDE for other in near)


def touches_other_board(space: int, seat: int, columns: int, rows: int, board_of: Sequence[int]) -> bool:
    """Whether ``space`` is next to, orthogonally or diagonally, a space of another seat's landing board
    (R20.4; spaces on nobody's board do not count)."""
    row, column = divmod(space, columns)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            r, c = row + dr, column + dc
            if (dr or dc) and 0 <= r < rows and 0 <= c < columns:
                owner = board_of[r * columns + c]
                if owner != NOBODY and owner != seat:
                    return True
    return False


def island_text(columns: int, rows: int, terrain: Sequence[int]) -> list[str]:
    """The island as the position format writes it: the rows top first, one letter a space (``g`` grass,
    ``f`` forest, ``l`` lake, ``m`` mountain, ``.`` outside), R20.1."""
    return ["".join(TERRAIN_LETTERS[terrain[row * columns + column]] for column in range(columns))
            for row in range(rows - 1, -1, -1)]
