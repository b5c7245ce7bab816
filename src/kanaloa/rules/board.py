"""Boards: islands, the links between them, and the card supply (R1).

A board is plain data, read from a JSON file of this schema (docs/boards.md
describes every key and its checks)::

    {"name": "oro", "description": "...", "cards_per_island": 3,
     "islands": [{"name": "ALOA", "links": 5, "xy": [13.3, 21.1]}, ...],
     "links": [["ALOA", "BAFI"], ...]}

``board_to_dict`` writes a board back in the same schema.

Islands are numbered in file order (the *board's island order* of R6 and R7),
links likewise.  The board keeps the tables of R1 that everything else reads
(the rules engines, the bots, the display), derived once from the link list:

- ``links_of[i]``: the links touching island ``i``, ascending;
- ``sizes[i]``: how many there are (the island's size, R1);
- ``island_links[i]``: the same set as a bitboard, bit ``k`` set when link
  ``k`` has ``i`` as an end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from importlib import resources

from ..errors import PATH_LIMIT, BoardError, brief
from .datafile import DataFiles, load_json

MAX_ISLANDS = 32
MAX_LINKS = 64
MAX_CARDS = 192

BUILTIN_BOARDS = ("oro", "kahuna")

Bitboard = int


@dataclass(frozen=True)
class Board:
    """An immutable board; see the module docstring for the numbering."""

    name: str
    cards_per_island: int
    islands: tuple[str, ...]
    links: tuple[tuple[int, int], ...]  # link ends as island indices, in the file's order
    xy: tuple[tuple[float, float], ...]
    source: str = "oro"  # what the position's "board" field says: a built-in name or a path
    description: str = field(default="", compare=False)  # for people: where the board comes from
    island_index: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    link_index: dict[frozenset[int], int] = field(default_factory=dict, compare=False, repr=False)
    # The tables of R1 (see the module docstring), derived from ``links`` by ``__post_init__``.
    links_of: tuple[tuple[int, ...], ...] = field(init=False, compare=False, repr=False)
    sizes: tuple[int, ...] = field(init=False, compare=False, repr=False)
    island_links: tuple[Bitboard, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        links_of = tuple(
            tuple(k for k, ends in enumerate(self.links) if i in ends) for i in range(len(self.islands))
        )
        object.__setattr__(self, "links_of", links_of)
        object.__setattr__(self, "sizes", tuple(len(ls) for ls in links_of))
        object.__setattr__(self, "island_links", tuple(sum(1 << k for k in ls) for ls in links_of))

    @property
    def n_islands(self) -> int:
        return len(self.islands)

    @property
    def n_links(self) -> int:
        return len(self.links)

    @property
    def n_cards(self) -> int:
        return self.cards_per_island * len(self.islands)

    def size(self, island: int) -> int:
        """The number of links of ``island`` (its size, R1)."""
        return self.sizes[island]

    def link_name(self, link: int) -> str:
        """``A-B`` in the board file's order."""
        a, b = self.links[link]
        return f"{self.islands[a]}-{self.islands[b]}"

    def find_island(self, name: str) -> int | None:
        """The index of the island called ``name`` (any case), or None."""
        return self.island_index.get(name.upper())

    def find_link(self, a: int, b: int) -> int | None:
        """The index of the link between islands ``a`` and ``b`` (either order), or None."""
        return self.link_index.get(frozenset((a, b)))


def _finite(value: int | float) -> bool:
    """A coordinate a float can hold: finite, and not an integer too large to convert."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _fail(where: str, why: str) -> BoardError:
    return BoardError(f"board {brief(where, PATH_LIMIT)}: {why}")


def board_from_dict(data: object, source: str) -> Board:
    """Build a ``Board`` from parsed JSON; raises ``BoardError`` naming the bad field."""
    if not isinstance(data, dict):
        raise _fail(source, "the file must hold a JSON object")
    name = data.get("name", source)
    if not isinstance(name, str) or not name:
        raise _fail(source, "'name' must be a non-empty string")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise _fail(source, f"'description' must be a string, not {brief(description)}")
    cpi = data.get("cards_per_island")
    if not isinstance(cpi, int) or isinstance(cpi, bool) or not 1 <= cpi <= 6:
        raise _fail(source, f"'cards_per_island' must be an integer from 1 to 6, not {brief(cpi)}")
    raw_islands = data.get("islands")
    if not isinstance(raw_islands, list) or not 2 <= len(raw_islands) <= MAX_ISLANDS:
        raise _fail(source, f"'islands' must be a list of 2 to {MAX_ISLANDS} islands")
    names: list[str] = []
    declared: list[int | None] = []
    xy: list[tuple[float, float]] = []
    for i, isl in enumerate(raw_islands):
        if not isinstance(isl, dict) or not isinstance(isl.get("name"), str):
            raise _fail(source, f"islands[{i}] must be an object with a string 'name'")
        nm = isl["name"].upper()
        if not nm.isalnum():
            raise _fail(source, f"islands[{i}].name {brief(isl['name'])} must be letters and digits only")
        if nm in names:
            raise _fail(source, f"islands[{i}].name {brief(nm)} appears twice")
        names.append(nm)
        links_decl = isl.get("links")
        if links_decl is not None and (not isinstance(links_decl, int) or isinstance(links_decl, bool)):
            raise _fail(source, f"islands[{i}].links must be an integer")
        declared.append(links_decl)
        pt = isl.get("xy", [0.0, 0.0])
        if not (isinstance(pt, list) and len(pt) == 2
                and all(isinstance(v, (int, float)) and not isinstance(v, bool) and _finite(v) for v in pt)):
            raise _fail(source, f"islands[{i}].xy must be a pair of finite numbers")
        xy.append((float(pt[0]), float(pt[1])))
    if len(names) * cpi > MAX_CARDS:
        raise _fail(source, f"at most {MAX_CARDS} cards are supported")
    index = {nm: i for i, nm in enumerate(names)}
    raw_links = data.get("links")
    if not isinstance(raw_links, list) or not 1 <= len(raw_links) <= MAX_LINKS:
        raise _fail(source, f"'links' must be a list of 1 to {MAX_LINKS} links")
    links: list[tuple[int, int]] = []
    link_index: dict[frozenset[int], int] = {}
    for k, pair in enumerate(raw_links):
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)):
            raise _fail(source, f"links[{k}] must be a pair of island names")
        a, b = (index.get(p.upper()) for p in pair)
        if a is None or b is None:
            raise _fail(source, f"links[{k}] {brief(pair)} names an unknown island")
        if a == b:
            raise _fail(source, f"links[{k}] {brief(pair)} joins an island to itself")
        key = frozenset((a, b))
        if key in link_index:
            raise _fail(source, f"links[{k}] {brief(pair)} appears twice")
        link_index[key] = k
        links.append((a, b))
    board = Board(
        name=name,
        cards_per_island=cpi,
        islands=tuple(names),
        links=tuple(links),
        xy=tuple(xy),
        source=source,
        description=description,
        island_index=index,
        link_index=link_index,
    )
    for i, nm in enumerate(names):
        size = board.sizes[i]
        if size == 0:
            raise _fail(source, f"island {nm} has no link")
        if declared[i] is not None and declared[i] != size:
            raise _fail(source, f"island {nm} declares {brief(declared[i])} links but the link list gives it {size}")
    return board


def board_to_dict(board: Board) -> dict[str, object]:
    """``board`` in the board file's schema, which ``board_from_dict`` reads back as the same board:
    ``name``, ``description`` (when there is one), ``cards_per_island``, the islands with their link
    counts and points, and the links, all in the board's order."""
    doc: dict[str, object] = {"name": board.name}
    if board.description:
        doc["description"] = board.description
    doc["cards_per_island"] = board.cards_per_island
    doc["islands"] = [{"name": name, "links": board.size(i), "xy": list(board.xy[i])}
                      for i, name in enumerate(board.islands)]
    doc["links"] = [[board.islands[a], board.islands[b]] for a, b in board.links]
    return doc


_CACHE: dict[str, Board] = {}

def load_board(name_or_path: str = "oro") -> Board:
    """Load a built-in board by name (``oro``, ``kahuna``) or a board file by path.

    Raises ``BoardError`` when the file is missing, no regular file, unreadable,
    too large or malformed (``kanaloa.rules.datafile``, ``board_from_dict``).
    """
    if not isinstance(name_or_path, str) or not name_or_path:
        raise _fail(name_or_path, "must be a built-in board name or a file path")
    if name_or_path in _CACHE:
        return _CACHE[name_or_path]
    data = load_json(name_or_path, "board", "kanaloa.boards", "", BUILTIN_BOARDS)
    board = board_from_dict(data, name_or_path)
    _CACHE[name_or_path] = board
    return board


def builtin_board_text(name: str) -> str:
    """The text of the built-in board file ``name`` (one of ``BUILTIN_BOARDS``)."""
    return resources.files("kanaloa.boards").joinpath(f"{name}.json").read_text("utf-8")


def forget_board(path: str) -> None:
    """Drop the board file at ``path`` from ``load_board``'s cache (a file may change between loads)."""
    _CACHE.pop(path, None)


def _board_value(board: Board | str, players: int) -> Board | str:
    return board  # a board is played on by any player count it can hold


# The family's ``files`` face (``kanaloa.rules.registry``): board files, each played as the ``board`` parameter.
BOARD_FILES = DataFiles(kind="board", parameter="board",
                        builtin=lambda: {name: builtin_board_text(name) for name in BUILTIN_BOARDS},
                        from_dict=board_from_dict, load=load_board, forget=forget_board, value=_board_value)
