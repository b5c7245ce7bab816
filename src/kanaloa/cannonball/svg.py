"""An SVG picture of a Cannonball Colony state (R20), as text: pure Python, no scripts, no external resources.

``position_svg(countries, d)`` draws a ``CannonballData``: the island on the
left, a side panel on the right.  The same state always gives the same bytes.

- Every space is a square in its terrain's color (grass, forest, lake,
  mountain; a space outside the island is left blank), with a hover text
  (``<title>``) naming it, its terrain, its landing board and what stands on
  it.  The column letters run along the top and bottom, the row numbers down
  the left, row 1 at the bottom (R20.1).  The landing boards' borders (the
  tiles' edges, R20.1) are drawn thicker than the grid.
- A road is a tan strip joined to the roads next to it; a ship, a fort, a
  cannon and a blockade are drawn in their owner's color (R20.3).
- Each cannon's lines of fire run along its row and its column, both ways,
  to the end of the last space it hits: a mountain, a blockade, an outside
  space or the grid's end stops them (R20.9, as ``reference.shots_from``
  says).
- The panel: whose turn it is and what the turn has done (R20.6), or the
  result and why the game ended (R20.10); the road supply (R20.3); for each
  country its mat of 10 spaces, the uncovered ones (1 ... n, n the forts on
  the island, R20.7) drawn empty with their number and the covered ones
  holding a fort, spaces 3, 6 and 8 marked with what they earn (R20.8); and
  the earned and built cannons and blockade; then a legend.

**Hooks for programs** (stable):

- each space: ``<g class="space" data-space="c7" data-terrain="grass" data-board="COUNTRY|">``,
  with ``data-in-range="COUNTRY ..."`` (the countries whose cannons hit it, R20.9) where any do;
- each piece on the island: ``<g class="piece KIND" data-kind="KIND" data-space="c7" data-owner="COUNTRY">``,
  KIND one of ``road`` (``data-owner`` empty: a road has no owner), ``ship``, ``fort``, ``cannon``,
  ``blockade``;
- each line of fire: ``<line class="line-of-fire" data-cannon="c7" data-owner="COUNTRY"
  data-direction="up|down|left|right" data-to="c12">``, ``data-to`` the last space hit that way;
- each mat: ``<g class="mat" data-owner="COUNTRY" data-forts="N">`` holding ten
  ``<g class="mat-space" data-mat-space="K" data-covered="true|false">`` (``data-earns="cannon1|cannon2|blockade"``
  on spaces 3, 6 and 8);
- the supply: ``<g class="supply" data-supply="N" data-total="T">``; the status:
  ``<g class="status" data-round="landing|play|over">``.

With ``interactive=True`` every space also gets ``role="button"``, ``tabindex="0"`` and an
``aria-label`` (its hover text), and a ``<style>`` gives the spaces a pointer cursor.  The picture never
holds a script.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

from ..errors import OptionError, brief
from ..interfaces.svgtags import COLOR_DARK, COLOR_FILL, FONT, INK, QUIET
from ..interfaces.svgtags import empty_tag as _empty
from ..interfaces.svgtags import num as _num
from ..interfaces.svgtags import open_tag as _open
from .display import country_colors, seat_names
from .reference import blockades_built, cannons_built, cannons_earned, in_range, shots_from
from .state import (
    BLOCKADE,
    BLOCKADES,
    CANNONS,
    EARNED_AT,
    EARNED_NAMES,
    END,
    FORTS,
    NO_SPACE,
    NOBODY,
    OUTSIDE,
    PASS,
    REASON_NAMES,
    REASON_TEXT,
    ROAD_TILES,
    ROUND_LANDING,
    ROUND_NAMES,
    ROUND_OVER,
    TERRAIN_NAMES,
    CannonballData,
    decode,
    space_name,
)

__all__ = ["TERRAIN_FILL", "fire_lines", "position_svg", "svg_of_position"]

CELL = 40.0  # the side of a space
MARGIN = 34.0  # around the island: room for the letters and numbers
PANEL_GAP = 24.0
PANEL_WIDTH = 380.0
LINE = 20.0
MAT_CELL = 26.0

TERRAIN_FILL = ("#b9dc8c", "#4e8a3e", "#86bde8", "#9c9088", "none")  # by terrain code; outside blank
GRID = "#6f7d68"
BORDER = "#2b2b2b"
ROAD_FILL = "#c9a36a"
ROAD_EDGE = "#7a5a2c"
PAPER = "#ffffff"

DIRECTIONS = (("up", 1, 0), ("down", -1, 0), ("left", 0, -1), ("right", 0, 1))  # (name, rows, columns)
INTERACTIVE_STYLE = ".space { cursor: pointer; } .space:focus { outline: 2px solid #333; }"


def _title(text: str) -> str:
    return f"<title>{escape(text, quote=False)}</title>"


def _text(x: float, y: float, content: str, size: float = 13, weight: str | None = None,
          anchor: str | None = None, fill: str = INK) -> str:
    head = _open("text", x=x, y=y, font_size=_num(size), font_weight=weight, text_anchor=anchor, fill=fill)
    return f"{head}{escape(content, quote=False)}</text>"


class _Grid:
    """Where the spaces of ``d`` are drawn: the top-left corner and the centre of each."""

    def __init__(self, d: CannonballData) -> None:
        self.d = d
        self.width = d.columns * CELL
        self.height = d.rows * CELL

    def corner(self, space: int) -> tuple[float, float]:
        row, column = divmod(space, self.d.columns)
        return MARGIN + column * CELL, MARGIN + (self.d.rows - 1 - row) * CELL

    def centre(self, space: int) -> tuple[float, float]:
        x, y = self.corner(space)
        return x + CELL / 2, y + CELL / 2


# -- what the island holds -------------------------------------------------------------------------------


def _ship_owner(d: CannonballData, space: int) -> int:
    return next((seat for seat, ship in enumerate(d.ships) if ship == space), NOBODY)


def _pieces_on(d: CannonballData, space: int) -> list[tuple[str, int]]:
    """``(kind, owner)`` of every piece on ``space``: its road first, then a ship, fort, cannon or blockade."""
    pieces = [("road", NOBODY)] if d.road[space] else []
    for kind, owner in (("ship", _ship_owner(d, space)), ("fort", d.fort[space]), ("cannon", d.cannon[space]),
                        ("blockade", d.blockade[space])):
        if owner != NOBODY:
            pieces.append((kind, owner))
    return pieces


def fire_lines(d: CannonballData, cannon: int) -> list[tuple[str, int]]:
    """``(direction, last space hit)`` for each way the cannon on ``cannon`` hits at least one space: the
    spaces ``reference.shots_from`` gives, walked from the cannon out (R20.9)."""
    hit = shots_from(d, cannon)
    lines = []
    for name, dr, dc in DIRECTIONS:
        row, column = divmod(cannon, d.columns)
        last = NO_SPACE
        while True:
            row, column = row + dr, column + dc
            if not (0 <= row < d.rows and 0 <= column < d.columns) or row * d.columns + column not in hit:
                break
            last = row * d.columns + column
        if last != NO_SPACE:
            lines.append((name, last))
    return lines


# -- the island ---------------------------------------------------------------------------------------


def _spaces(d: CannonballData, grid: _Grid, names: Sequence[str], interactive: bool = False) -> list[str]:
    ranges = [in_range(d, seat) for seat in range(d.players)]
    out = ['<g class="spaces">']
    for space in range(d.spaces):
        name = space_name(space, d.columns)
        terrain = d.terrain[space]
        board = d.board_of[space]
        board_name = names[board] if 0 <= board < len(names) else ""
        hitting = [names[seat] for seat in range(d.players) if space in ranges[seat]]
        label = f"{name}: {TERRAIN_NAMES[terrain]}"
        if terrain != OUTSIDE and board_name:
            label += f", {board_name}'s landing board"
        for kind, owner in _pieces_on(d, space):
            label += ", road" if kind == "road" else f", {names[owner]}'s {kind}"
        if hitting:
            label += f", in range of {' and '.join(hitting)}'s cannons"
        button = {"role": "button", "tabindex": "0", "aria_label": label} if interactive else {}
        out.append(_open("g", class_="space", data_space=name, data_terrain=TERRAIN_NAMES[terrain],
                         data_board=board_name, data_in_range=" ".join(hitting) if hitting else None, **button))
        out.append(_title(label))
        x, y = grid.corner(space)
        if terrain == OUTSIDE:
            out.append(_empty("rect", x=x, y=y, width=_num(CELL), height=_num(CELL), fill="none"))
        else:
            out.append(_empty("rect", x=x, y=y, width=_num(CELL), height=_num(CELL), fill=TERRAIN_FILL[terrain],
                              stroke=GRID, stroke_width="0.5"))
        out.append("</g>")
    out.append("</g>")
    return out


def _labels(d: CannonballData, grid: _Grid) -> list[str]:
    out = ['<g class="labels">']
    for column in range(d.columns):
        x = MARGIN + column * CELL + CELL / 2
        letter = chr(ord("a") + column)
        out.append(_text(x, MARGIN - 10, letter, size=13, anchor="middle", fill=QUIET))
        out.append(_text(x, MARGIN + grid.height + 20, letter, size=13, anchor="middle", fill=QUIET))
    for row in range(d.rows):
        y = MARGIN + (d.rows - 1 - row) * CELL + CELL / 2 + 4.5
        out.append(_text(MARGIN - 8, y, str(row + 1), size=13, anchor="end", fill=QUIET))
    out.append("</g>")
    return out


def _borders(d: CannonballData, grid: _Grid) -> list[str]:
    """The landing boards' edges (R20.1): a thick line wherever an island space meets a space of another
    board, an outside space or the grid's end."""
    def board(row: int, column: int) -> int | None:
        if not (0 <= row < d.rows and 0 <= column < d.columns):
            return None
        space = row * d.columns + column
        return None if d.terrain[space] == OUTSIDE else d.board_of[space]

    segments = []
    for space in range(d.spaces):
        if d.terrain[space] == OUTSIDE:
            continue
        row, column = divmod(space, d.columns)
        mine = d.board_of[space]
        x, y = grid.corner(space)
        # each edge once: right and top always when the other side differs; left and bottom only at the
        # grid's end or facing no island space (the other side does not draw them then)
        if board(row, column + 1) != mine:
            segments.append((x + CELL, y, x + CELL, y + CELL))
        if board(row + 1, column) != mine:
            segments.append((x, y, x + CELL, y))
        if board(row, column - 1) is None:
            segments.append((x, y, x, y + CELL))
        if board(row - 1, column) is None:
            segments.append((x, y + CELL, x + CELL, y + CELL))
    path = " ".join(f"M {_num(a)} {_num(b)} L {_num(c)} {_num(e)}" for a, b, c, e in segments)
    return [_empty("path", class_="tile-borders", d=path or "M 0 0", fill="none", stroke=BORDER, stroke_width="3",
                   stroke_linecap="square")]


def _road(d: CannonballData, grid: _Grid, space: int) -> list[str]:
    cx, cy = grid.centre(space)
    half = 7.0
    out = [_empty("rect", x=cx - half, y=cy - half, width=_num(2 * half), height=_num(2 * half), rx="2",
                  fill=ROAD_FILL, stroke=ROAD_EDGE, stroke_width="1")]
    row, column = divmod(space, d.columns)
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        r, c = row + dr, column + dc
        if 0 <= r < d.rows and 0 <= c < d.columns and d.road[r * d.columns + c]:
            # half the way to the neighbour's centre: the neighbour draws the other half
            ex, ey = cx + dc * CELL / 2, cy - dr * CELL / 2
            out.append(_empty("line", x1=cx, y1=cy, x2=ex, y2=ey, stroke=ROAD_FILL, stroke_width="10"))
    return out


def _ship(cx: float, cy: float, fill: str, dark: str) -> list[str]:
    hull = (f"M {_num(cx - 14)} {_num(cy + 3)} L {_num(cx + 14)} {_num(cy + 3)} L {_num(cx + 9)} {_num(cy + 11)} "
            f"L {_num(cx - 9)} {_num(cy + 11)} Z")
    sail = f"M {_num(cx - 1)} {_num(cy - 13)} L {_num(cx - 1)} {_num(cy + 1)} L {_num(cx - 11)} {_num(cy + 1)} Z"
    sail2 = f"M {_num(cx + 1)} {_num(cy - 11)} L {_num(cx + 1)} {_num(cy + 1)} L {_num(cx + 10)} {_num(cy + 1)} Z"
    return [_empty("path", d=hull, fill=fill, stroke=dark, stroke_width="1.5"),
            _empty("path", d=sail, fill=PAPER, stroke=dark, stroke_width="1"),
            _empty("path", d=sail2, fill=PAPER, stroke=dark, stroke_width="1")]


def _fort(cx: float, cy: float, fill: str, dark: str) -> list[str]:
    left, right, top, bottom = cx - 12, cx + 12, cy - 11, cy + 11
    step = 24 / 5
    d = f"M {_num(left)} {_num(bottom)} L {_num(left)} {_num(top)}"
    x = left
    for k in range(5):  # the battlements: up and down along the top
        x += step
        y = top if k % 2 else top + 5
        d += f" L {_num(x - step)} {_num(y)} L {_num(x)} {_num(y)}"
    d += f" L {_num(right)} {_num(bottom)} Z"
    return [_empty("path", d=d, fill=fill, stroke=dark, stroke_width="1.5")]


def _cannon(cx: float, cy: float, fill: str, dark: str) -> list[str]:
    return [_empty("circle", cx=cx, cy=cy, r="10", fill="#333333", stroke=fill, stroke_width="4"),
            _empty("circle", cx=cx, cy=cy, r="3", fill=fill, stroke=dark, stroke_width="0.5")]


def _blockade(cx: float, cy: float, fill: str, dark: str) -> list[str]:
    s = 11.0
    cross = (f"M {_num(cx - s)} {_num(cy - s)} L {_num(cx + s)} {_num(cy + s)} "
             f"M {_num(cx + s)} {_num(cy - s)} L {_num(cx - s)} {_num(cy + s)}")
    return [_empty("rect", x=cx - s - 2, y=cy - s - 2, width=_num(2 * s + 4), height=_num(2 * s + 4), rx="3",
                   fill=PAPER, stroke=dark, stroke_width="1.5"),
            _empty("path", d=cross, fill="none", stroke=fill, stroke_width="5", stroke_linecap="round")]


GLYPHS = {"ship": _ship, "fort": _fort, "cannon": _cannon, "blockade": _blockade}


def _inks(colors: Sequence[str]) -> list[tuple[str, str]]:
    return [(COLOR_FILL.get(color, QUIET), COLOR_DARK.get(color, INK)) for color in colors]


def _pieces(d: CannonballData, grid: _Grid, names: Sequence[str],
            inks: Sequence[tuple[str, str]]) -> tuple[list[str], list[str]]:
    """The roads (drawn under the tile borders and the lines of fire) and the other pieces (over them)."""
    roads = ['<g class="roads">']
    pieces = ['<g class="pieces">']
    for space in range(d.spaces):
        name = space_name(space, d.columns)
        for kind, owner in _pieces_on(d, space):
            owner_name = names[owner] if owner != NOBODY else ""
            label = f"road on {name}" if kind == "road" else f"{owner_name}'s {kind} on {name}"
            target = roads if kind == "road" else pieces
            target.append(_open("g", class_=f"piece {kind}", data_kind=kind, data_space=name, data_owner=owner_name))
            target.append(_title(label))
            if kind == "road":
                target += _road(d, grid, space)
            else:
                fill, dark = inks[owner]
                target += GLYPHS[kind](*grid.centre(space), fill, dark)
            target.append("</g>")
    roads.append("</g>")
    pieces.append("</g>")
    return roads, pieces


def _fire(d: CannonballData, grid: _Grid, names: Sequence[str], inks: Sequence[tuple[str, str]]) -> list[str]:
    """Each cannon's lines of fire, from its centre to the far edge of the last space hit (R20.9)."""
    out = ['<g class="lines-of-fire">']
    for space in range(d.spaces):
        owner = d.cannon[space]
        if owner == NOBODY:
            continue
        cx, cy = grid.centre(space)
        for direction, last in fire_lines(d, space):
            ex, ey = grid.centre(last)
            dx = {"left": -1, "right": 1}.get(direction, 0)
            dy = {"up": -1, "down": 1}.get(direction, 0)
            out.append(_empty("line", class_="line-of-fire", data_cannon=space_name(space, d.columns),
                              data_owner=names[owner], data_direction=direction,
                              data_to=space_name(last, d.columns), x1=cx, y1=cy, x2=ex + dx * CELL / 2,
                              y2=ey + dy * CELL / 2, stroke=inks[owner][0], stroke_width="3",
                              stroke_dasharray="7 4", stroke_opacity="0.85", stroke_linecap="round"))
    out.append("</g>")
    return out


# -- the panel ----------------------------------------------------------------------------------------


class _Panel:
    def __init__(self, x: float) -> None:
        self.x = x
        self.y = MARGIN
        self.out: list[str] = ['<g class="panel">']

    def text(self, content: str, size: float = 13, weight: str | None = None, fill: str = INK,
             indent: float = 0) -> None:
        self.out.append(_text(self.x + indent, self.y, content, size=size, weight=weight, fill=fill))
        self.y += LINE if size <= 14 else LINE + 6

    def heading(self, content: str) -> None:
        self.y += 8
        self.text(content, size=14, weight="bold")

    def swatch(self, fill: str) -> None:
        self.out.append(_empty("rect", x=self.x, y=self.y - 11, width="12", height="12", rx="2", fill=fill,
                               stroke=INK, stroke_width="0.5"))

    def close(self) -> list[str]:
        return [*self.out, "</g>"]


def _status(panel: _Panel, d: CannonballData, names: Sequence[str], inks: Sequence[tuple[str, str]]) -> None:
    round_name = ROUND_NAMES[d.round] if 0 <= d.round < len(ROUND_NAMES) else str(d.round)
    panel.out.append(_open("g", class_="status", data_round=round_name))
    if d.round == ROUND_OVER:
        reason = REASON_NAMES[d.reason] if 0 <= d.reason < len(REASON_NAMES) else "unknown"
        winners = [names[seat] for seat in d.winners if 0 <= seat < len(names)]
        wins = f"{winners[0]} wins" if len(winners) == 1 else f"shared victory: {', '.join(winners)}"
        panel.text(f"Game over ({reason}, R20.10): {wins}", weight="bold")
        if 0 <= d.reason < len(REASON_TEXT):
            panel.text(REASON_TEXT[d.reason], fill=QUIET)
        panel.text("ranking: " + ", ".join(names[seat] for seat in d.ranking if 0 <= seat < len(names)),
                   fill=QUIET)
    else:
        mover = names[d.to_move] if 0 <= d.to_move < len(names) else "nobody"
        if 0 <= d.to_move < len(inks):
            panel.swatch(inks[d.to_move][0])
        panel.text(f"{mover} to move, {round_name} round", weight="bold", indent=18)
        if d.round == ROUND_LANDING:
            panel.text("each country lands its ship in seat order (R20.4)", fill=QUIET)
        else:
            panel.text(("fired this turn" if d.fired else "not fired yet this turn") + " (R20.6)", fill=QUIET)
            if d.grass_roads:
                panel.text("a second grass road is open, or end (R20.6)", fill=QUIET)
            panel.text(f"passes in a row: {d.passes} of {d.players} end the game (R20.10)", fill=QUIET)
    panel.out.append("</g>")


def _supply(panel: _Panel, d: CannonballData) -> None:
    total = ROAD_TILES.get(d.players, max(d.supply, 1))
    panel.out.append(_open("g", class_="supply", data_supply=d.supply, data_total=total))
    panel.text(f"Road supply: {d.supply} of {total} tiles left (R20.3)", weight="bold")
    width = PANEL_WIDTH - 40
    share = min(1.0, max(0.0, d.supply / total)) if total else 0.0
    panel.out.append(_empty("rect", x=panel.x, y=panel.y - 12, width=_num(width), height="10", fill=PAPER,
                            stroke=QUIET, stroke_width="1"))
    panel.out.append(_empty("rect", x=panel.x, y=panel.y - 12, width=_num(width * share), height="10",
                            fill=ROAD_FILL))
    panel.y += 6
    panel.out.append("</g>")


def _mat(panel: _Panel, d: CannonballData, seat: int, name: str, ink: tuple[str, str]) -> None:
    """A country's mat (R20.7): ten spaces, 1 ... n uncovered by its n forts on the island, the rest holding
    forts; spaces 3, 6 and 8 say what uncovering them earns (R20.8)."""
    fill, dark = ink
    forts = d.forts_on_island(seat)
    earns = {at: EARNED_NAMES[piece] for piece, at in EARNED_AT.items()}
    short = {"cannon1": "C1", "cannon2": "C2", "blockade": "B"}
    panel.swatch(fill)
    ship = d.ships[seat] if seat < len(d.ships) else NO_SPACE
    where = "not landed" if ship == NO_SPACE else f"ship on {space_name(ship, d.columns)}"
    panel.text(f"{name}: {where}", weight="bold", indent=18)
    panel.text(f"forts: {forts} on the island, {FORTS - forts} on the mat (R20.7)", fill=QUIET)
    panel.out.append(_open("g", class_="mat", data_owner=name, data_forts=forts))
    top = panel.y - 12
    for k in range(1, FORTS + 1):
        x = panel.x + (k - 1) * (MAT_CELL + 6)
        covered = k > forts
        earned = earns.get(k)
        label = f"{name}'s mat space {k}: " + ("a fort on it" if covered else "uncovered")
        if earned:
            label += f"; uncovering it earns {earned} (R20.8)"
        panel.out.append(_open("g", class_="mat-space", data_mat_space=k, data_covered="true" if covered else "false",
                               data_earns=earned))
        panel.out.append(_title(label))
        panel.out.append(_empty("rect", x=x, y=top, width=_num(MAT_CELL), height=_num(MAT_CELL), rx="3",
                                fill=PAPER, stroke=dark if earned else QUIET, stroke_width="2" if earned else "1"))
        if covered:
            panel.out += _fort(x + MAT_CELL / 2, top + MAT_CELL / 2 + 1, fill, dark)
        else:
            panel.out.append(_text(x + MAT_CELL / 2, top + MAT_CELL / 2 + 4.5, str(k), size=12, anchor="middle",
                                   fill=QUIET))
        if earned:
            panel.out.append(_text(x + MAT_CELL / 2, top + MAT_CELL + 11, short[earned], size=9, anchor="middle",
                                   fill=dark))
        panel.out.append("</g>")
    panel.out.append("</g>")
    panel.y = top + MAT_CELL + 30
    blockade = "not earned"
    if seat < len(d.earned) and d.earned[seat] & BLOCKADE:
        blockade = "built" if blockades_built(d, seat) >= BLOCKADES else "earned, not built"
    panel.text(f"cannons {cannons_earned(d, seat)}/{CANNONS} earned, {cannons_built(d, seat)} built; "
               f"blockade {blockade} (R20.8)", fill=QUIET)


def _legend(panel: _Panel) -> None:
    panel.heading("Legend")
    panel.out.append('<g class="legend">')
    terrains = [(TERRAIN_FILL[code], TERRAIN_NAMES[code]) for code in range(4)]
    for k, (fill, label) in enumerate(terrains):
        x = panel.x + k * 90
        panel.out.append(_empty("rect", x=x, y=panel.y - 12, width="14", height="14", fill=fill, stroke=GRID,
                                stroke_width="0.5"))
        panel.out.append(_text(x + 20, panel.y, label, size=12))
    panel.y += LINE + 8
    samples = [("road", None), ("ship", _ship), ("fort", _fort), ("cannon", _cannon), ("blockade", _blockade)]
    for k, (label, glyph) in enumerate(samples):
        x = panel.x + 14 + k * 72
        if glyph is None:
            panel.out.append(_empty("rect", x=x - 7, y=panel.y - 14, width="14", height="14", rx="2", fill=ROAD_FILL,
                                    stroke=ROAD_EDGE, stroke_width="1"))
        else:
            panel.out += glyph(x, panel.y - 7, QUIET, INK)
        panel.out.append(_text(x, panel.y + 18, label, size=11, anchor="middle"))
    panel.y += 44
    panel.out.append(_empty("line", x1=panel.x, y1=panel.y - 4, x2=panel.x + 40, y2=panel.y - 4, stroke=QUIET,
                            stroke_width="3", stroke_dasharray="7 4"))
    panel.out.append(_text(panel.x + 48, panel.y, "a cannon's line of fire (R20.9)", size=12))
    panel.y += LINE
    panel.out.append(_empty("line", x1=panel.x, y1=panel.y - 4, x2=panel.x + 40, y2=panel.y - 4, stroke=BORDER,
                            stroke_width="3"))
    panel.out.append(_text(panel.x + 48, panel.y, "the edge of a landing board (R20.1)", size=12))
    panel.y += LINE
    panel.out.append("</g>")


def _check_width(width: object) -> float | None:
    if width is None:
        return None
    if isinstance(width, bool) or not isinstance(width, (int, float)) or not math.isfinite(width) or width <= 0:
        raise OptionError(f"width {brief(width)}: must be a positive number of pixels")
    return float(width)


def _plan(d: CannonballData, grid: _Grid, plan: Sequence[tuple[str, int]]) -> list[str]:
    """The hint's plan on the island: each step's space ringed, dashed, with the step's number."""
    out = []
    for step, (text, action) in enumerate(plan, start=1):
        kind, space = decode(action)
        if kind in (END, PASS) or not 0 <= space < d.columns * d.rows:
            continue
        cx, cy = grid.centre(space)
        out.append(_open("g", class_="plan-step", data_step=str(step), data_move=text))
        out.append(_empty("circle", cx=_num(cx), cy=_num(cy), r=_num(CELL * 0.44), fill="none", stroke=INK,
                          stroke_width="2.5", stroke_dasharray="5 3"))
        out.append(_text(cx + CELL * 0.3, cy - CELL * 0.22, str(step), size=11, weight="bold"))
        out.append("</g>")
    return out


def position_svg(countries: tuple[str, ...], d: CannonballData, *, width: float | None = None,
                 interactive: bool = False, plan: Sequence[tuple[str, int]] = (), win: float | None = None) -> str:
    """The picture of ``d`` as SVG text (the module docstring says what it shows and its hooks).

    ``countries`` names the seats in order (R20.3); a seat it does not name
    plays its default country.  ``width`` is the width attribute in pixels
    (the height follows; by default the picture's own size); ``interactive``
    makes every space a focusable button (``role``, ``tabindex``,
    ``aria-label``) with a pointer cursor.  ``plan`` (a hint's moves, each
    its notation and action code) rings each step's space with its number
    and lists the plan in the panel with ``win``, the mover's win chance.  Raises ``OptionError`` for a width
    that is not a positive number."""
    pixels = _check_width(width)
    names = seat_names(countries, d)
    inks = _inks(country_colors(names))
    grid = _Grid(d)
    panel = _Panel(MARGIN + grid.width + PANEL_GAP + 10)
    panel.text("Cannonball Colony", size=18, weight="bold")
    panel.text(f"{d.players} countries, {d.columns}x{d.rows} island, seed {d.seed}", fill=QUIET)
    _status(panel, d, names, inks)
    if plan:
        chance = "" if win is None else f" (win {100 * win:.1f}%)"
        panel.heading("Hint" + chance)
        for step, (text, _) in enumerate(plan, start=1):
            panel.text(f"{step}. {text}")
    panel.y += 4
    _supply(panel, d)
    panel.heading("Mats and earned pieces")
    for seat, name in enumerate(names):
        panel.y += 4
        _mat(panel, d, seat, name, inks[seat])
    _legend(panel)

    total = panel.x + PANEL_WIDTH
    height = max(MARGIN * 2 + grid.height + 10, panel.y + 10)
    pixel_width = total if pixels is None else pixels
    mover = names[d.to_move] if 0 <= d.to_move < len(names) else ""
    caption = f"Cannonball Colony, {d.columns}x{d.rows}: " + (f"{mover} to move" if mover else "game over")
    out = [_open("svg", xmlns="http://www.w3.org/2000/svg", version="1.1", width=_num(pixel_width),
                 height=_num(pixel_width * height / total), viewBox=f"0 0 {_num(total)} {_num(height)}", role="img",
                 aria_label=caption, font_family=FONT),
           _title(caption)]
    if interactive:
        out.append(f"<style>{INTERACTIVE_STYLE}</style>")
    out.append(_empty("rect", x="0", y="0", width=_num(total), height=_num(height), fill=PAPER))
    out += _spaces(d, grid, names, interactive)
    out += _labels(d, grid)
    roads, pieces = _pieces(d, grid, names, inks)
    out += roads
    out += _borders(d, grid)
    out += _fire(d, grid, names, inks)
    out += pieces
    out += _plan(d, grid, plan)
    out += panel.close()
    out.append("</svg>")
    return "\n".join(out) + "\n"


def svg_of_position(position: Any, *, hint: Any = None, width: float | None = None, interactive: bool = False) -> str:
    """The registry's ``svg`` face: ``position_svg`` of a ``CannonballPosition``; ``hint`` (a
    ``kanaloa.play.hint.Hint`` for it) draws its plan."""
    plan = list(zip(hint.plan, hint.actions, strict=True)) if hint is not None else []
    win = hint.candidates[0].win if hint is not None and hint.candidates else None
    return position_svg(position.players, position.data, width=width, interactive=interactive, plan=plan, win=win)
