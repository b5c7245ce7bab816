"""A terminal picture of a Cannonball Colony state (R20): the island as a map, then the turn and each country.

``render(countries, d, use_color=False)`` draws a ``CannonballData`` for
``kanaloa show``.  The map has the column letters above and below it and the
row numbers on its left, the top row first (row 1 is the bottom, as the
space names say, R20.1).  Every space is two characters, the columns one
space apart, so a 12 x 12 island is 40 characters wide:

- an empty space shows its terrain letter: ``g`` grass, ``f`` forest, ``l``
  lake, ``m`` mountain; a space outside the island is blank;
- a road with nothing on it is ``==``;
- a piece is a symbol and its owner's mark (the country's initial, upper
  case): ``@F`` france's ship (R20.4), ``#F`` a fort (R20.7), ``*F`` a cannon,
  ``XF`` a blockade (R20.8, R20.9).  A fort, cannon or blockade always stands
  on a road (R20.6); whether a ship's space holds its road yet the countries'
  lines say.

Under the map: the legend, whose turn it is and in which round, what the
turn has done (a shot fired, a second grass road still open, R20.6), the
passes in a row (R20.10), the road tiles left in the supply (R20.3), and one
line per country with its ship, its forts on the island and on the mat
(R20.7), and its earned and built cannons and blockade (R20.8).  Once the
game is over: the winners, the ranking and why it ended (R20.10).

With ``use_color`` each country's pieces and name are drawn in its color
(ANSI escapes) and the terrain letters dim.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..interfaces.display import ANSI
from .reference import blockades_built, cannons_built, cannons_earned, country
from .ruleset import COUNTRY_COLORS, country_colors
from .state import (
    BLOCKADE,
    BLOCKADES,
    CANNONS,
    FORTS,
    NO_SPACE,
    NOBODY,
    OUTSIDE,
    REASON_NAMES,
    REASON_TEN_FORTS,
    REASON_TEXT,
    ROAD_TILES,
    ROUND_LANDING,
    ROUND_NAMES,
    ROUND_OVER,
    TERRAIN_LETTERS,
    CannonballData,
    space_name,
)

__all__ = ["COUNTRY_COLORS", "SYMBOLS", "country_colors", "country_marks", "render"]

# The symbol in front of the owner's mark, by kind of piece.
SYMBOLS = {"ship": "@", "fort": "#", "cannon": "*", "blockade": "X"}
ROAD_CELL = "=="

DIM = "black"  # the terrain letters, with colors on


def seat_names(countries: Sequence[str], d: CannonballData) -> list[str]:
    """The country of every seat: ``countries`` where it names one, else the default (R20.3)."""
    return [countries[seat] if seat < len(countries) and countries[seat] else country(seat)
            for seat in range(d.players)]


def country_marks(names: Sequence[str]) -> list[str]:
    """One character per seat for the map: the country's initial in upper case, or, where an earlier seat
    has it already, the next letter of the name no seat has, else the seat's number."""
    marks: list[str] = []
    for seat, name in enumerate(names):
        letters = [ch.upper() for ch in name if ch.isalpha() and ch.isascii()]
        mark = next((ch for ch in letters if ch not in marks), None)
        if mark is None:
            mark = next((str(k) for k in (seat, *range(10)) if str(k) not in marks), "?")
        marks.append(mark)
    return marks


def _paint(text: str, color: str | None, use_color: bool) -> str:
    if not use_color or color not in ANSI:
        return text
    return f"\x1b[{ANSI[color]}m{text}\x1b[0m"


def _cell(d: CannonballData, space: int, marks: Sequence[str], colors: Sequence[str], use_color: bool) -> str:
    """The two characters of one space (module docstring)."""
    ships = [seat for seat, ship in enumerate(d.ships) if ship == space]
    for kind, owner in (("ship", ships[0] if ships else NOBODY), ("fort", d.fort[space]),
                        ("cannon", d.cannon[space]), ("blockade", d.blockade[space])):
        if owner != NOBODY:
            return _paint(SYMBOLS[kind] + marks[owner], colors[owner], use_color)
    if d.road[space]:
        return ROAD_CELL
    terrain = d.terrain[space]
    if terrain == OUTSIDE:
        return "  "
    return _paint(TERRAIN_LETTERS[terrain], DIM, use_color) + " "


def map_lines(d: CannonballData, marks: Sequence[str], colors: Sequence[str], use_color: bool = False) -> list[str]:
    """The island, the top row first, with the column letters above and below and the row numbers on the
    left (R20.1)."""
    letters = "   " + " ".join(f"{chr(ord('a') + column)} " for column in range(d.columns))
    lines = [letters.rstrip()]
    for row in range(d.rows - 1, -1, -1):
        cells = [_cell(d, row * d.columns + column, marks, colors, use_color) for column in range(d.columns)]
        lines.append(f"{row + 1:>2} " + " ".join(cells).rstrip())
    lines.append(letters.rstrip())
    return lines


def legend(names: Sequence[str], marks: Sequence[str], colors: Sequence[str], use_color: bool = False) -> list[str]:
    """What the map's letters and symbols mean."""
    who = ", ".join(_paint(f"{mark} {name}", color, use_color)
                    for name, mark, color in zip(names, marks, colors, strict=True))
    return [
        "Legend: g grass, f forest, l lake, m mountain, blank outside; == road;",
        "  @ ship, # fort, * cannon, X blockade, each followed by its owner:",
        f"  {who}",
    ]


def _boards(d: CannonballData, names: Sequence[str]) -> str:
    """``france a1-f6, spain a7-f12``: the corners of every seat's landing board (R20.1)."""
    parts = []
    for seat, name in enumerate(names):
        spaces = [space for space in range(d.spaces) if d.board_of[space] == seat]
        if not spaces:
            continue
        rows = [space // d.columns for space in spaces]
        columns = [space % d.columns for space in spaces]
        low = space_name(min(rows) * d.columns + min(columns), d.columns)
        high = space_name(max(rows) * d.columns + max(columns), d.columns)
        parts.append(f"{name} {low}-{high}")
    return ", ".join(parts)




def result_lines(d: CannonballData, names: Sequence[str]) -> list[str]:
    """The result of a finished game (R20.10): winners, ranking, and why it ended."""
    reason = REASON_NAMES[d.reason] if 0 <= d.reason < len(REASON_NAMES) else "unknown"
    winners = [names[seat] for seat in d.winners if 0 <= seat < len(names)]
    if len(winners) == 1:
        wins = f"{winners[0]} wins"
    elif winners:
        wins = f"shared victory: {', '.join(winners)}"
    else:
        wins = "no winner recorded"
    why = REASON_TEXT[d.reason] if 0 <= d.reason < len(REASON_TEXT) else ""
    ranking = ", ".join(names[seat] for seat in d.ranking if 0 <= seat < len(names))
    return [f"Game over ({reason}, R20.10): {wins}",
            *([f"  why: {why}"] if why else []),
            f"  ranking: {ranking or '-'}",
            *RANKING_NOTE[d.reason == REASON_TEN_FORTS]]


# How the ranking is made (R20.10): after a ten-fort win (True) and otherwise (False).
RANKING_NOTE = {
    False: ["  (ranked by most forts on the island, then fewest on one's own landing board,",
            "  then fewest cannons and blockades on the island)"],
    True: ["  (the winner first; the others by most forts on the island, then fewest on",
           "  one's own landing board, then fewest cannons and blockades on the island)"],
}


def status_lines(d: CannonballData, names: Sequence[str]) -> list[str]:
    """Whose turn it is, the round, what the turn has done (R20.6) and the passes in a row (R20.10); the
    result once the game is over."""
    if d.round == ROUND_OVER:
        return result_lines(d, names)
    mover = names[d.to_move] if 0 <= d.to_move < len(names) else "nobody"
    round_name = ROUND_NAMES[d.round] if 0 <= d.round < len(ROUND_NAMES) else str(d.round)
    if d.round == ROUND_LANDING:
        return [f"{mover} to move, landing round: each country lands its ship in seat order (R20.4)"]
    turn = []
    turn.append("fired this turn" if d.fired else "not fired yet")
    if d.grass_roads:
        turn.append("a second grass road is open (or end)")
    return [f"{mover} to move, {round_name} round; {', '.join(turn)} (R20.6)",
            f"Passes in a row: {d.passes} of {d.players} end the game (R20.10)"]


def country_lines(d: CannonballData, names: Sequence[str], colors: Sequence[str],
                  use_color: bool = False) -> list[str]:
    """A table, one line per country: its ship (R20.4), its forts on the island and on the mat (R20.7), its
    cannons earned and built and its blockade (R20.8)."""
    width = max(4, *(len(name) for name in names))
    lines = [f"Forts: on the island, on the mat (R20.7); cannons: earned of {CANNONS}, built (R20.8)",
             f"  {'':<{width}}  {'ship':<13}  {'forts':>5} {'mat':>3}  {'cannons':>7} {'built':>5}  blockade"]
    for seat, name in enumerate(names):
        ship = d.ships[seat] if seat < len(d.ships) else NO_SPACE
        if ship == NO_SPACE:
            where = "not landed"
        else:
            where = space_name(ship, d.columns) + ("" if d.road[ship] else " (no road)")
        on_island = d.forts_on_island(seat)
        earned_blockade = bool(d.earned[seat] & BLOCKADE) if seat < len(d.earned) else False
        blockade = "-"
        if earned_blockade:
            blockade = "built" if blockades_built(d, seat) >= BLOCKADES else "earned"
        cannons = f"{cannons_earned(d, seat)}/{CANNONS}"
        label = _paint(f"{name:<{width}}", colors[seat], use_color)
        lines.append(f"  {label}  {where:<13}  {on_island:>5} {FORTS - on_island:>3}  {cannons:>7} "
                     f"{cannons_built(d, seat):>5}  {blockade}")
    return lines


def render(countries: tuple[str, ...], d: CannonballData, use_color: bool = False) -> str:
    """The whole terminal picture of ``d`` (module docstring), one string without a trailing newline.

    ``countries`` names the seats in order (R20.3); a seat it does not name
    plays its default country."""
    names = seat_names(countries, d)
    colors = country_colors(names)
    marks = country_marks(names)
    total = ROAD_TILES.get(d.players)
    out = [f"Cannonball Colony: {d.players} countries on a {d.columns}x{d.rows} island, seed {d.seed}"]
    out += status_lines(d, names)
    out.append("")
    out += map_lines(d, marks, colors, use_color)
    out.append("")
    out += legend(names, marks, colors, use_color)
    boards = _boards(d, names)
    if boards:
        out.append(f"Boards (R20.1): {boards}")
    out.append(f"Road supply: {d.supply}" + (f" of {total}" if total is not None else "")
               + f" tiles left, {sum(d.road)} laid (R20.3)")
    out.append("")
    out += country_lines(d, names, colors, use_color)
    return "\n".join(out)


def render_position(position: Any, use_color: bool = False) -> str:
    """The registry's ``display`` face: ``render`` of a ``CannonballPosition`` (``kanaloa show``)."""
    return render(position.players, position.data, use_color)
