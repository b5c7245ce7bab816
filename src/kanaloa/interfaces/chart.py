"""The win-chance chart of an analysed game, as SVG written by hand (``kanaloa analyse --svg``, the web app's
Replay).

``win_chart(analysis)`` draws, from a game analysis (``kanaloa.play.analysis``: a ``GameAnalysis`` or its
JSON), every player's win chance over the game: a step line a player, in the player's color, that takes the
chance *after* each of the player's judged moves and holds it through the others' moves; a dashed line at the
even share (one over the players); a mark on every move graded an inaccuracy (a ring), a mistake (a dot) or a
blunder (a larger dot with a dark edge); and the players' legend.

**Hooks for programs.**  The chart's root is ``<svg class="kanaloa-chart">``; every move has a
transparent column ``<rect class="move-hit" data-move="I">`` (``I``: the move's index, from 0) under the
lines, and every mark is ``<circle class="mark GRADE" data-move="I">`` with a ``<title>`` naming the move,
so a page can jump to a move on a click (the web app does); the lines take no pointer events, so a click on a
line reaches the column under it.  The same analysis always gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from .svgtags import COLOR_DARK, COLOR_FILL, FONT, INK, QUIET, empty_tag, num, open_tag

WIDTH, HEIGHT = 760.0, 300.0
LEFT, RIGHT, TOP, BOTTOM = 46.0, 16.0, 14.0, 58.0  # the plot's margins
MARK_STYLE = {  # grade: (radius, fill, edge); None: the player's own color
    "inaccuracy": (4.0, "#ffffff", None),
    "mistake": (4.5, None, None),
    "blunder": (6.0, None, INK),
}
GRID_STEPS = (0.0, 0.25, 0.5, 0.75, 1.0)


def _ink(color: str) -> str:
    """How a player's line and marks are drawn: the color's fill, or its dark edge where the fill would
    barely show on the white paper (Kahuna's white)."""
    fill = COLOR_FILL.get(color, QUIET)
    red, green, blue = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    light = (0.299 * red + 0.587 * green + 0.114 * blue) / 255 > 0.9
    return COLOR_DARK.get(color, INK) if light else fill


def _json(analysis: Any) -> Mapping[str, Any]:
    return analysis if isinstance(analysis, Mapping) else analysis.to_json()


def _x(index: float, moves: int) -> float:
    span = WIDTH - LEFT - RIGHT
    return LEFT + span * (index + 0.5) / max(moves, 1)


def _y(chance: float) -> float:
    return TOP + (HEIGHT - TOP - BOTTOM) * (1.0 - chance)


def _series(moves: Sequence[Mapping[str, Any]], player: str, total: int) -> list[tuple[float, float]]:
    """The step line of ``player``: from its first judged move's chance before, then each chance after."""
    points: list[tuple[float, float]] = []
    for m in moves:
        if m["player"] != player or not m["analysed"]:
            continue
        if not points:
            points.append((_x(m["index"] - 0.5, total), _y(m["before"])))
        if points:
            points.append((_x(m["index"], total), points[-1][1]))
        points.append((_x(m["index"], total), _y(m["after"])))
    if points:
        points.append((_x(total - 0.5, total), points[-1][1]))
    return points


def win_chart(analysis: Any, title: str | None = None) -> str:
    """The chart of ``analysis`` (a ``GameAnalysis`` or its ``to_json()``) as an SVG document."""
    doc = _json(analysis)
    moves = doc["moves"]
    total = len(moves)
    players = list(doc["players"])
    colors = dict(zip(players, doc["colors"], strict=True))
    out = [open_tag("svg", xmlns="http://www.w3.org/2000/svg", class_="kanaloa-chart", width=num(WIDTH),
                    height=num(HEIGHT), viewBox=f"0 0 {num(WIDTH)} {num(HEIGHT)}", font_family=FONT),
           f"<title>{escape(title or 'Win chance over the game: ' + doc['description'])}</title>",
           empty_tag("rect", x="0", y="0", width=num(WIDTH), height=num(HEIGHT), fill="#ffffff")]
    bottom = _y(0.0)
    for chance in GRID_STEPS:
        y = _y(chance)
        out.append(empty_tag("line", x1=num(LEFT), y1=num(y), x2=num(WIDTH - RIGHT), y2=num(y), stroke="#e3e3e3",
                             stroke_width="1"))
        out.append(f'<text x="{num(LEFT - 6)}" y="{num(y + 4)}" font-size="11" text-anchor="end" '
                   f'fill="{QUIET}">{round(100 * chance)}%</text>')
    even = 1.0 / len(players)
    out.append(empty_tag("line", class_="even-share", x1=num(LEFT), y1=num(_y(even)), x2=num(WIDTH - RIGHT),
                         y2=num(_y(even)), stroke=QUIET, stroke_width="1", stroke_dasharray="4 4"))
    step = 10 if total <= 120 else 20 if total <= 240 else 50
    for n in range(0, total + 1, step):
        if n == 0:
            continue
        x = _x(n - 1, total)
        out.append(f'<text x="{num(x)}" y="{num(bottom + 15)}" font-size="11" text-anchor="middle" '
                   f'fill="{QUIET}">{n}</text>')
    out.append(f'<text x="{num((LEFT + WIDTH - RIGHT) / 2)}" y="{num(bottom + 30)}" font-size="11" '
               f'text-anchor="middle" fill="{QUIET}">move</text>')
    column = (WIDTH - LEFT - RIGHT) / max(total, 1)
    for m in moves:  # the click targets, under the lines
        out.append(empty_tag("rect", class_="move-hit", data_move=str(m["index"]),
                             x=num(_x(m["index"], total) - column / 2), y=num(TOP), width=num(column),
                             height=num(bottom - TOP), fill="#000000", fill_opacity="0"))
    for player in players:
        points = _series(moves, player, total)
        if len(points) < 2:
            continue
        color = colors[player]
        path = " ".join(("M" if i == 0 else "L") + f" {num(x)} {num(y)}" for i, (x, y) in enumerate(points))
        out.append(empty_tag("path", class_="line", data_player=player, d=path, fill="none",
                             stroke=_ink(color), stroke_width="2",
                             stroke_linejoin="round", pointer_events="none"))
    for m in moves:
        style = MARK_STYLE.get(m.get("grade") or "")
        if style is None:
            continue
        radius, fill, edge = style
        color = colors[m["player"]]
        ink = _ink(color)
        label = (f"move {m['index'] + 1}, {m['player']}: {m['move']}, {m['grade']}: win "
                 f"{100 * m['before']:.1f}% to {100 * m['after']:.1f}%; best {m['best']}")
        out.append(open_tag("circle", class_=f"mark {m['grade']}", data_move=str(m["index"]),
                            cx=num(_x(m["index"], total)), cy=num(_y(m["after"])), r=num(radius),
                            fill=fill or ink, stroke=edge or COLOR_DARK.get(color, INK), stroke_width="1.5"))
        out.append(f"<title>{escape(label)}</title></circle>")
    x = LEFT
    legend_y = HEIGHT - 10.0
    for player in players:
        color = colors[player]
        out.append(empty_tag("rect", x=num(x), y=num(legend_y - 9), width="14", height="4",
                             fill=_ink(color), stroke=COLOR_DARK.get(color, INK), stroke_width="0.5"))
        out.append(f'<text x="{num(x + 18)}" y="{num(legend_y - 4)}" font-size="11" fill="{INK}">'
                   f'{escape(player)}</text>')
        x += 26 + 7 * len(player)
    for grade in ("inaccuracy", "mistake", "blunder"):
        radius, fill, edge = MARK_STYLE[grade]
        out.append(empty_tag("circle", cx=num(x + 6), cy=num(legend_y - 7), r=num(radius),
                             fill=fill or QUIET, stroke=edge or QUIET, stroke_width="1.5"))
        out.append(f'<text x="{num(x + 14)}" y="{num(legend_y - 4)}" font-size="11" fill="{INK}">{grade}</text>')
        x += 24 + 7 * len(grade)
    out.append("</svg>")
    return "\n".join(out) + "\n"
