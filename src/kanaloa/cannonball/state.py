"""Cannonball Colony's game state as plain data (R20): the picture every part of the game hands the others.

The island is a grid of ``columns`` x ``rows`` spaces.  A space is one integer,
``row * columns + column``, with row 0 the bottom row and column 0 the left
column, so that ``c7`` (column ``c``, row ``7``) is ``6 * columns + 2``
(R20.1: spaces are named like chess squares).  Every list indexed by space has
``columns * rows`` entries.

``CannonballData`` holds a complete state: the island (terrain and the landing
board of every space), the pieces on it, each player's mat and earned pieces,
the shared road supply, where the turn stands, and the result once the game is
over.  The reference (``kanaloa.cannonball.reference``), the compiled core
(``cannonball_core``) and the position format all read and write it; two states
are the same game exactly when their ``CannonballData`` are equal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields, replace
from typing import Any

# -- terrain (R20.1) ----------------------------------------------------------------------------

GRASS, FOREST, LAKE, MOUNTAIN, OUTSIDE = 0, 1, 2, 3, 4
TERRAIN_LETTERS = "gflm."  # the position format's letter of each terrain, by code
TERRAIN_NAMES = ("grass", "forest", "lake", "mountain", "outside")

TILE_SIZE = 6  # a tile is 6 x 6 spaces (R20.1)
MAX_COLUMNS = 12
MAX_ROWS = 12
MAX_SPACES = MAX_COLUMNS * MAX_ROWS  # 144: three 64-bit words

# -- players and pieces (R20.3) -----------------------------------------------------------------

COUNTRIES = ("france", "spain", "portugal", "england")  # seats 0-3 unless chosen otherwise
MIN_PLAYERS, MAX_PLAYERS = 2, 4
ROAD_TILES = {2: 50, 3: 70, 4: 90}  # the shared supply of road tiles, by player count
FORTS = 10  # forts per player; all 10 on the island wins at once (R20.10)
CANNONS = 2
BLOCKADES = 1

# Earned pieces (R20.8): a bit each in ``CannonballData.earned``, earned the first time the mat space of
# EARNED_AT is uncovered (the forts on the island reach that number).
CANNON_1, CANNON_2, BLOCKADE = 1, 2, 4
EARNED_PIECES = (CANNON_1, CANNON_2, BLOCKADE)
EARNED_NAMES = {CANNON_1: "cannon1", CANNON_2: "cannon2", BLOCKADE: "blockade"}
EARNED_AT = {CANNON_1: 3, CANNON_2: 6, BLOCKADE: 8}

FORT_SPACING = 3  # a fort is more than 3 steps from its owner's other forts (R20.7)
LANDING_SPACING = 4  # a landing space is more than 4 steps from every other (R20.4)

# -- rounds and results (R20.4, R20.10) ---------------------------------------------------------

ROUND_LANDING, ROUND_PLAY, ROUND_OVER = 0, 1, 2
ROUND_NAMES = ("landing", "play", "over")

REASON_NONE, REASON_TEN_FORTS, REASON_SUPPLY, REASON_ALL_PASSED = -1, 0, 1, 2
REASON_NAMES = ("ten-forts", "supply", "all-passed")
REASON_TEXT = ("a country has all 10 forts on the island", "the last road tile was laid",
               "every country passed in succession")  # why a game ended, for people (R20.10)

NO_SPACE = -1  # a ship not landed yet, a piece not built
NOBODY = -1  # no owner; to_move once the game is over


def space_name(space: int, columns: int) -> str:
    """``c7`` for the space in column ``c`` (from the left) and row 7 (from the bottom), R20.1."""
    row, column = divmod(space, columns)
    return f"{chr(ord('a') + column)}{row + 1}"


_SPACE_NAME = re.compile(r"[a-z][1-9][0-9]?")  # ASCII only: a column letter and a row of 1 to 99


def parse_space(text: str, columns: int, rows: int) -> int | None:
    """The space a name like ``c7`` names on a ``columns`` x ``rows`` grid, or None when it names none."""
    if not isinstance(text, str) or _SPACE_NAME.fullmatch(text) is None:
        return None
    column, row = ord(text[0]) - ord("a"), int(text[1:]) - 1
    if not (0 <= column < columns and 0 <= row < rows):
        return None
    return row * columns + column


@dataclass
class CannonballData:
    """A complete Cannonball Colony state (module docstring).

    Per space (``columns * rows`` entries): ``terrain`` (GRASS ... OUTSIDE),
    ``board_of`` (the seat whose landing board, that is whose tile, the space
    is on; NOBODY outside the island), ``road`` (whether a road tile lies
    there), ``fort``, ``cannon`` and ``blockade`` (the owning seat, or NOBODY).
    Per seat: ``ships`` (its landing space, or NO_SPACE before it lands),
    ``earned`` (the CANNON_1 | CANNON_2 | BLOCKADE bits earned so far, R20.8).
    How many forts a player has on its mat, and which mat spaces are
    uncovered, follow from the forts on the island (R20.7).

    The turn: ``to_move`` (NOBODY once over), ``fired`` (the mover has shot
    this turn, R20.6 step 1) and ``grass_roads`` (1 after a first grass road
    while the turn stays open for a second, R20.6).  ``passes`` counts the
    turns in a row that ended with a pass and no shot (R20.10: as many as
    players end the game); a shot or a build sets it to 0 at once.  ``supply`` is the road tiles left.  Once over:
    ``winners`` (every player sharing the victory, in seat order), ``ranking``
    (every seat, best first) and ``reason`` (REASON_TEN_FORTS ...).
    """

    players: int
    columns: int
    rows: int
    terrain: list[int]
    board_of: list[int]
    seed: int = 0
    round: int = ROUND_LANDING
    to_move: int = 0
    ships: list[int] = field(default_factory=list)
    road: list[bool] = field(default_factory=list)
    fort: list[int] = field(default_factory=list)
    cannon: list[int] = field(default_factory=list)
    blockade: list[int] = field(default_factory=list)
    earned: list[int] = field(default_factory=list)
    supply: int = 0
    fired: bool = False
    grass_roads: int = 0
    passes: int = 0
    winners: list[int] = field(default_factory=list)
    ranking: list[int] = field(default_factory=list)
    reason: int = REASON_NONE

    @property
    def spaces(self) -> int:
        return self.columns * self.rows

    @classmethod
    def start(cls, players: int, columns: int, rows: int, terrain: list[int], board_of: list[int],
              seed: int = 0) -> CannonballData:
        """A game in its landing round on this island (R20.4): seat 0 to move, no ship landed, nothing built
        or earned, the full road supply (R20.3)."""
        spaces = columns * rows
        return cls(players=players, columns=columns, rows=rows, terrain=list(terrain), board_of=list(board_of),
                   seed=seed, round=ROUND_LANDING, to_move=0, ships=[NO_SPACE] * players, road=[False] * spaces,
                   fort=[NOBODY] * spaces, cannon=[NOBODY] * spaces, blockade=[NOBODY] * spaces,
                   earned=[0] * players, supply=ROAD_TILES[players])

    def copy(self) -> CannonballData:
        """A copy sharing nothing mutable with this one (every list copied)."""
        lists: dict[str, Any] = {f.name: list(getattr(self, f.name)) for f in fields(self)
                                 if isinstance(getattr(self, f.name), list)}
        return replace(self, **lists)

    def forts_on_island(self, seat: int) -> int:
        """How many of ``seat``'s forts stand on the island: its mat's uncovered spaces 1 ... n (R20.7)."""
        return sum(1 for owner in self.fort if owner == seat)


# -- moves as integers ------------------------------------------------------------------------------
# An action is ``kind * MAX_SPACES + space`` (0 for END and PASS); legal-move lists are sorted by action.

LAND, FIRE, ROAD, FORT_BUILD, CANNON_BUILD, BLOCKADE_BUILD, END, PASS = range(8)
ACTION_WORDS = ("land", "fire", "road", "fort", "cannon", "blockade", "end", "pass")  # the notation's keywords


def encode(kind: int, space: int = 0) -> int:
    return kind * MAX_SPACES + space


def decode(action: int) -> tuple[int, int]:
    """``(kind, space)`` of an action."""
    return divmod(action, MAX_SPACES)
