"""SVG pictures of a position and of a board, as text: pure Python, no scripts inside.

``position_svg(position, *, hint=None, width=WIDTH, interactive=False)``
draws a ``kanaloa.position.Position``: the board on the left, a side panel
on the right.  It is the Kanaloa family's ``svg`` face
(``kanaloa.rules.registry``): generic code reaches it as
``position.ruleset.game_type.face("svg")(position, **options)``.  It shows
what the position knows and nothing more: the cards come from the
position's public form (``Position.to_json()``), so a viewer position's
picture holds the viewer's own hand and only the public part of the
others'.  Control (R2), the cards a removal (R7) may take and each player's
pair (R15.5) come from the position and its engine.  What differs from one
rule set to another (the title, the rules cited, the bridges in stock, the
god tokens, a skipped draw, a pass in the final round, the colors) it asks
the position's rule set (``Position.ruleset``); it never asks which game it
draws.

- Every island is a circle whose radius grows with its link count
  (``layout.island_radius``: 3, 5 and 7 links on ``oro``), with its name and
  link count; a controlled island is tinted and ringed in its controller's
  color.  An island with a pending removal (R7) gets a dashed ring.
- Every link is a line between its islands: a bridge thick in its owner's
  color (where each player plays two colors each color is its own, R15), a
  free link thin and grey.  The colors are the rule set's ``palette``, each
  drawn as ``palette_inks`` says.
- The panel: whose turn it is and what the turn has done, or why the
  position waits, or the result; the scores (islands controlled and points,
  citing the rule set's scoring rule; where each player plays two colors
  each player's pair, R15.5); where the rule set counts the bridges (its
  ``bridges_per_color``: the tabletop preset's 20, R13; Kahuna's 25, R16.1)
  each color's bridges left in stock; the face-up row; the deck and discard
  counts; every hand as far as the position knows it (a card back for each
  card it does not).
- ``hint`` (a ``kanaloa.play.hint.Hint``): its plan drawn on the board, one
  numbered step after the other: a build as a dashed line in the color it
  builds with, a removal as a dashed black line with a cross, a take, draw,
  discard or reveal as a numbered mark on the card or the deck; and a legend
  in the panel with the plan and the move's estimated win chance.
- Where the rule set has god tokens (R14) each token still on an island is
  a label under it (``<g class="god-token" data-token="KU">``), and the
  panel lists the tokens each player owns.
- Where the rule set may skip a draw (Kahuna, R16.5) the panel says when the
  mover must answer a skipped draw with a draw; where it owes removals (R7)
  it says which; where it has a pass (R10) the final round's passes.  A game
  that ended without a winner (R16.7) says so.

**Hooks for programs** (stable; docs/commands.md, "Hooks in the pictures", lists them too):

- each link: ``<g class="link" data-link="A-B" data-owner="COLOR|">``,
  ``A-B`` in the board file's order (the move notation's), ``data-owner``
  the bridge's color, empty for a free link; ``data-removable="true"`` on
  the links a pending removal (R7) may take;
- each island: ``<g class="island" data-island="NAME" data-controller="COLOR|" data-links="N">``,
  with ``data-pending-removal="true"`` while a removal (R7) is pending there;
- each face-up card: ``<g class="card face-up" data-card="NAME">``;
- each hand: ``<g class="hand" data-player="COLOR" data-count="N">``, holding
  a ``<g class="card in-hand" data-hand-card="NAME">`` for each card the
  position knows (``data-public="true"`` when every player knows it) and a
  ``<g class="card card-back">`` for each it does not;
- the deck: ``<g class="deck" data-deck="N">``;
- with a hint, each step: ``<g class="hint-step" data-step="K" data-move="MOVE">``.

With ``interactive=True`` the links, islands, face-up cards, hand cards and
the deck also get ``role="button"``, ``tabindex="0"`` and an ``aria-label``,
and a ``<style>`` gives them ``cursor: pointer``.  The picture never holds a
script.  The same position (and hint) always gives the same bytes.

``board_svg(board)`` draws a board alone, with the same link and island hooks.
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any

from ..errors import OptionError, brief
from ..position import notation as N
from ..position.api import Position
from ..rules.board import Board
from ..rules.ruleset import Ruleset
from . import layout
from .svgtags import COLOR_DARK, COLOR_FILL, COLOR_TINT, FONT, INK, QUIET
from .svgtags import attrs as _attrs
from .svgtags import empty_tag as _empty
from .svgtags import num as _num
from .svgtags import open_tag as _open

if TYPE_CHECKING:
    from ..play.hint import Hint

WIDTH = 960  # the width attribute by default, in pixels: the picture's own size
BOARD_SIDE = 600.0  # the board area is a square of this side (viewBox units) ...
BOARD_SPAN = 520.0  # ... in which the islands' points span at most this much
UNIT = BOARD_SPAN / (layout.CANVAS - 2 * layout.MARGIN)  # drawn units per canvas unit (island radii)
PANEL_X = BOARD_SIDE + 20.0
PANEL_WIDTH = 340.0
TOTAL_WIDTH = PANEL_X + PANEL_WIDTH
LINE = 20.0  # the panel's line height
CARD_W, CARD_H, CARD_GAP = 48.0, 28.0, 6.0
CARDS_PER_ROW = 6

LIGHT = 0.8  # a fill lighter than this (relative luminance) is too light to ring an island: its dark edge does
SEA = "#e6f1f6"
SAND = "#f6efe0"
FREE_LINK = "#9fb3bf"
ALERT = "#c2185b"  # a pending removal (R7)

INTERACTIVE_STYLE = (".link, .island, .face-up, .in-hand, .deck { cursor: pointer; } "
                     ".link:focus, .island:focus, .face-up:focus, .in-hand:focus, .deck:focus "
                     "{ outline: 2px solid #333; }")


def _text(x: float, y: float, content: str, size: float = 13, weight: str | None = None, anchor: str | None = None,
          fill: str = INK, class_: str | None = None) -> str:
    head = _open("text", class_=class_, x=x, y=y, font_size=_num(size), font_weight=weight, text_anchor=anchor,
                 fill=fill)
    return f"{head}{escape(content, quote=False)}</text>"


def _wrap(text: str, width: int) -> list[str]:
    """``text`` broken into lines of at most ``width`` characters, at spaces where it can be."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        while len(word) > width:  # a word longer than a line is cut
            if current:
                lines.append(current)
                current = ""
            lines.append(word[:width])
            word = word[width:]
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines or [""]


def _check_width(width: object) -> float:
    if isinstance(width, bool) or not isinstance(width, (int, float)) or not math.isfinite(width) or width <= 0:
        raise OptionError(f"width {brief(width)}: must be a positive number of pixels")
    return float(width)


# -- the colors --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ink:
    """How one color is drawn: ``fill`` (a bridge, a swatch), ``tint`` (an island it controls), ``dark`` (a
    bridge's edge) and ``ring`` (the ring of an island it controls: the fill, or the dark edge where the fill
    is too light to see on the sand)."""

    fill: str
    tint: str
    dark: str

    @property
    def ring(self) -> str:
        return self.dark if _luminance(self.fill) > LIGHT else self.fill


NO_INK = Ink(QUIET, SAND, INK)  # a color no palette names (a document is checked, so none should come)


def _luminance(hex_color: str) -> float:
    """The relative luminance of ``#rrggbb`` (sRGB), 0 for black to 1 for white."""
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_color[k:k + 2], 16) for k in (1, 3, 5))
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(255 * c):02x}" for c in rgb)


def palette_inks(palette: Sequence[str]) -> dict[str, Ink]:
    """How each color of ``palette`` (a rule set's ``palette``) is drawn: a color the tables above know by
    its name as they say; another one in a hue of its own, spread by its place in the palette."""
    inks = {}
    for k, name in enumerate(palette):
        if name in COLOR_FILL:
            inks[name] = Ink(COLOR_FILL[name], COLOR_TINT[name], COLOR_DARK[name])
        else:
            hue = k / len(palette)
            inks[name] = Ink(_hex(colorsys.hls_to_rgb(hue, 0.45, 0.65)), _hex(colorsys.hls_to_rgb(hue, 0.88, 0.65)),
                             _hex(colorsys.hls_to_rgb(hue, 0.28, 0.65)))
    return inks


# -- where things go ------------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardGeometry:
    """Where a board's islands are drawn: centres and radii in the picture's units (viewBox)."""

    centres: tuple[tuple[float, float], ...]
    radii: tuple[float, ...]


def _usable(xy: Sequence[tuple[float, float]]) -> bool:
    """Whether the board's points can be drawn as they are: no two islands at one point."""
    return len(set(xy)) == len(xy)


def board_geometry(board: Board) -> BoardGeometry:
    """The board's points scaled (keeping their shape) into the board area, centred; a board whose points
    put two islands on one spot (a board file without ``xy``) gets its islands on a circle, in file order."""
    xy = list(board.xy)
    if _usable(xy):
        xs = [p[0] for p in xy]
        ys = [p[1] for p in xy]
        span = max(max(xs) - min(xs), max(ys) - min(ys))
        cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    else:  # a circle of diameter 2 about the origin
        n = len(xy)
        xy = [(math.cos(2 * math.pi * i / n - math.pi / 2), math.sin(2 * math.pi * i / n - math.pi / 2))
              for i in range(n)]
        span, cx, cy = 2.0, 0.0, 0.0
    scale = BOARD_SPAN / span
    centres = tuple((BOARD_SIDE / 2 + (x - cx) * scale, BOARD_SIDE / 2 + (y - cy) * scale) for x, y in xy)
    radii = tuple(layout.island_radius(board.size(i)) * UNIT for i in range(board.n_islands))
    return BoardGeometry(centres, radii)


# -- the board ------------------------------------------------------------------------------------


@dataclass
class _Table:
    """What the board part of a picture shows; a bare board has no bridges, controllers or removals."""

    owners: dict[str, str] = field(default_factory=dict)  # link name -> bridge color
    controllers: dict[str, str] = field(default_factory=dict)  # island -> controlling color (R2)
    pending: tuple[str, ...] = ()  # islands with a pending removal (R7)
    removable: frozenset[str] = frozenset()  # links a pending removal may take
    tokens: dict[str, str] = field(default_factory=dict)  # island -> the god token still on it (R14.1)
    inks: dict[str, Ink] = field(default_factory=dict)  # color -> how it is drawn (the rule set's palette)

    def ink(self, color: str) -> Ink:
        return self.inks.get(color, NO_INK)


def _interactive(on: bool, label: str) -> dict[str, Any]:
    return {"role": "button", "tabindex": "0", "aria_label": label} if on else {}


def _links(board: Board, geo: BoardGeometry, table: _Table, interactive: bool) -> list[str]:
    out = ['<g class="links">']
    for k, (a, b) in enumerate(board.links):
        name = board.link_name(k)
        owner = table.owners.get(name, "")
        (x1, y1), (x2, y2) = geo.centres[a], geo.centres[b]
        ends = _attrs(x1=x1, y1=y1, x2=x2, y2=y2)
        label = f"link {name}, " + (f"{owner} bridge" if owner else "free")
        removable = "true" if name in table.removable else None
        out.append(_open("g", class_="link", data_link=name, data_owner=owner, data_removable=removable,
                         **_interactive(interactive, label)))
        out.append(f"<title>{escape(label)}</title>")
        if interactive:  # a wide invisible line, easier to hit than the drawn one
            out.append(f'<line{ends} stroke="#000000" stroke-opacity="0" stroke-width="18"/>')
        if owner:
            ink = table.ink(owner)
            out.append(f'<line{ends} stroke="{ink.dark}" stroke-width="9" stroke-linecap="round"/>')
            out.append(f'<line{ends} stroke="{ink.fill}" stroke-width="6" stroke-linecap="round"/>')
        else:
            out.append(f'<line{ends} stroke="{FREE_LINK}" stroke-width="2"/>')
        out.append("</g>")
    out.append("</g>")
    return out


def _islands(board: Board, geo: BoardGeometry, table: _Table, interactive: bool) -> list[str]:
    out = ['<g class="islands">']
    for i, name in enumerate(board.islands):
        (x, y), r = geo.centres[i], geo.radii[i]
        controller = table.controllers.get(name, "")
        pending = name in table.pending
        links = board.size(i)
        label = f"island {name}, {links} links" + (f", controlled by {controller}" if controller else "")
        if pending:
            label += ", a bridge must be removed here (R7)"
        out.append(_open("g", class_="island", data_island=name, data_controller=controller, data_links=links,
                         data_pending_removal="true" if pending else None, **_interactive(interactive, label)))
        out.append(f"<title>{escape(label)}</title>")
        if pending:
            out.append(_empty("circle", class_="pending-removal", cx=x, cy=y, r=r + 9.0, fill="none", stroke=ALERT,
                              stroke_width="3", stroke_dasharray="6 4"))
        fill, ring, ring_width = (table.ink(controller).tint, table.ink(controller).ring, "5") if controller else (
            SAND, QUIET, "1.5")
        out.append(_empty("circle", cx=x, cy=y, r=r, fill=fill, stroke=ring, stroke_width=ring_width))
        size = min(13.0, 2 * r * 0.85 / max(1, 0.62 * len(name)))  # a long name gets smaller letters
        out.append(_text(x, y + 1, name, size=size, weight="bold", anchor="middle"))
        out.append(_text(x, y + 13, str(links), size=9, anchor="middle", fill=QUIET))
        token = table.tokens.get(name)
        if token:  # R14.1: the god token waiting on the island for its first controller
            out.append(_open("g", class_="god-token", data_token=token))
            out.append(_empty("rect", x=x - 24, y=y + r + 2, width="48", height="14", rx="7", fill="#fff6d6",
                              stroke="#8a6d00", stroke_width="1"))
            out.append(_text(x, y + r + 12.5, token, size=9, weight="bold", anchor="middle", fill="#6b5200"))
            out.append("</g>")
        out.append("</g>")
    out.append("</g>")
    return out


def _svg_open(width: float, height: float, pixel_width: float, label: str, interactive: bool) -> list[str]:
    """The opening of a picture ``width`` x ``height`` in its own units, ``pixel_width`` pixels wide."""
    view = f"0 0 {_num(width)} {_num(height)}"
    out = [_open("svg", xmlns="http://www.w3.org/2000/svg", version="1.1", width=_num(pixel_width),
                 height=_num(pixel_width * height / width), viewBox=view, role="img", aria_label=label,
                 font_family=FONT),
           f"<title>{escape(label)}</title>"]
    if interactive:
        out.append(f"<style>{INTERACTIVE_STYLE}</style>")
    return out


def board_svg(board: Board, *, width: float = BOARD_SIDE, interactive: bool = False) -> str:
    """A picture of ``board`` alone: its islands (sized by link count, named) and links, with the hooks
    of the module docstring; ``width`` is the width attribute in pixels."""
    pixels = _check_width(width)
    geo = board_geometry(board)
    caption = (f"{board.name}: {board.n_islands} islands, {board.n_links} links, {board.cards_per_island} cards "
               f"per island")
    height = BOARD_SIDE + LINE + 10
    out = _svg_open(BOARD_SIDE, height, pixels, f"Board {caption}", interactive)
    out.append(f'<rect x="0" y="0" width="{_num(BOARD_SIDE)}" height="{_num(height)}" fill="{SEA}"/>')
    table = _Table()
    out += _links(board, geo, table, interactive)
    out += _islands(board, geo, table, interactive)
    out.append(_text(BOARD_SIDE / 2, BOARD_SIDE + LINE - 2, caption, anchor="middle", fill=QUIET))
    out.append("</svg>")
    return "\n".join(out) + "\n"


# -- the hint on the board ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Step:
    number: int
    move: N.Move


def _hint_steps(position: Position, hint: Hint) -> list[_Step]:
    """The hint's plan as parsed moves, numbered from 1."""
    return [_Step(n, position.parse(text)) for n, text in enumerate(hint.plan, 1)]


def _badge(x: float, y: float, number: int, color: str) -> str:
    return (_empty("circle", cx=x, cy=y, r=10.0, fill="#ffffff", stroke=color, stroke_width="2.5")
            + _text(x, y + 4.5, str(number), size=12, weight="bold", anchor="middle", fill=INK))


def _hint_lines(position: Position, geo: BoardGeometry, table: _Table, steps: list[_Step],
                mover: str) -> tuple[list[str], list[str]]:
    """The plan's builds and removals on the board: dashed lines (drawn under the islands) and numbered
    marks (over them)."""
    board = position.board
    lines = ['<g class="hint-lines">']
    marks = ['<g class="hint-marks">']
    used: dict[str, int] = {}  # link -> badges already on it
    for step in steps:
        mv = step.move
        if mv.kind not in (N.PLACE, N.SWAP, N.REMOVE) or mv.link is None:
            continue
        a, b = (board.find_island(name) for name in mv.link)
        assert a is not None and b is not None  # the plan's moves are on this board
        (x1, y1), (x2, y2) = geo.centres[a], geo.centres[b]
        builder = mv.color or mover
        color = table.inks[builder].fill if mv.kind != N.REMOVE and builder in table.inks else INK
        lines.append(_empty("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=color, stroke_width="5",
                            stroke_dasharray="10 6", stroke_opacity="0.9"))
        link = f"{mv.link[0]}-{mv.link[1]}"
        shift = 24.0 * used.get(link, 0)
        used[link] = used.get(link, 0) + 1
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        mx, my = (x1 + x2) / 2 + shift * (x2 - x1) / length, (y1 + y2) / 2 + shift * (y2 - y1) / length
        marks.append(_open("g", class_="hint-step", data_step=step.number, data_move=str(mv), data_link=link))
        if mv.kind == N.REMOVE:
            marks.append(f'<path d="M {_num(mx - 16)} {_num(my - 16)} l 8 8 m 0 -8 l -8 8" stroke="{INK}" '
                         f'stroke-width="3" fill="none"/>')
        marks.append(_badge(mx, my, step.number, color))
        marks.append("</g>")
    lines.append("</g>")
    marks.append("</g>")
    return lines, marks


# -- the panel ------------------------------------------------------------------------------------


class _Panel:
    """The side panel, written top to bottom."""

    def __init__(self, interactive: bool, steps: Sequence[_Step], inks: dict[str, Ink]) -> None:
        self.out: list[str] = ['<g class="panel">']
        self.inks = inks
        self.y = 30.0
        self.interactive = interactive
        self.step_moves = {s.number: str(s.move) for s in steps}  # the hint's plan, by step
        self.card_marks: list[str] = []  # hint marks on cards and the deck, drawn last

    def text(self, content: str, size: float = 13, weight: str | None = None, fill: str = INK, indent: float = 0,
             wrap: int = 44) -> None:
        for line in _wrap(content, wrap):
            self.out.append(_text(PANEL_X + indent, self.y, line, size=size, weight=weight, fill=fill))
            self.y += LINE if size <= 14 else LINE + 6

    def heading(self, content: str) -> None:
        self.y += 6
        self.text(content, size=14, weight="bold")

    def swatch(self, color: str) -> None:
        """A small square of ``color`` at the start of the current line."""
        self.out.append(_empty("rect", x=PANEL_X, y=self.y - 11, width="12", height="12", rx="2",
                               fill=self.inks.get(color, NO_INK).fill, stroke=INK, stroke_width="0.5"))

    def cards(self, group: str, cards: list[tuple[str | None, dict[str, Any]]],
              marks: dict[str, int] | None = None) -> None:
        """A row (or rows) of cards: a name and its attributes, or None for a card back.  ``marks`` numbers
        the hint's steps on cards by name."""
        x0 = PANEL_X
        top = self.y - 14
        for n, (name, attrs) in enumerate(cards):
            x = x0 + (n % CARDS_PER_ROW) * (CARD_W + CARD_GAP)
            y = top + (n // CARDS_PER_ROW) * (CARD_H + CARD_GAP)
            if name is None:
                back = _empty("rect", x=x, y=y, width=_num(CARD_W), height=_num(CARD_H), rx="4", fill="#8aa6b8",
                              stroke=QUIET)
                self.out.append(f'<g class="card card-back">{back}</g>')
                continue
            self.out.append(_open("g", **attrs, **_interactive(self.interactive, f"{group} {name}")))
            self.out.append(_empty("rect", x=x, y=y, width=_num(CARD_W), height=_num(CARD_H), rx="4", fill="#ffffff",
                                   stroke=QUIET))
            self.out.append(_text(x + CARD_W / 2, y + 18, name, size=11, weight="bold", anchor="middle"))
            if attrs.get("data_public") == "true":
                self.out.append(_empty("circle", cx=x + CARD_W - 6, cy=y + 6, r=2.5, fill=QUIET))
            self.out.append("</g>")
            if marks and name in marks:
                number = marks.pop(name)
                frame = _empty("rect", x=x - 3, y=y - 3, width=_num(CARD_W + 6), height=_num(CARD_H + 6), rx="5",
                               fill="none", stroke=INK, stroke_width="2", stroke_dasharray="5 3")
                head = _open("g", class_="hint-step", data_step=number, data_move=self.step_moves.get(number))
                self.card_marks.append(head + frame + _badge(x + CARD_W, y, number, INK) + "</g>")
        rows = max(1, math.ceil(len(cards) / CARDS_PER_ROW))
        self.y += rows * (CARD_H + CARD_GAP) + 4

    def close(self) -> list[str]:
        return [*self.out, *self.card_marks, "</g>"]


def _round_label(rnd: int | str) -> str:
    """A round as the panel names it: ``setup``, ``round 1``, ``final round``."""
    return "setup" if rnd == 0 else "final round" if rnd == "final" else f"round {rnd}"


def _status(panel: _Panel, doc: dict[str, Any], position: Position) -> None:
    """Whose turn it is and what the turn has done; or what the position waits for; or the result."""
    rules = position.ruleset
    rnd = doc["round"]
    if rnd == "over":
        result = doc["result"]
        reason = result["reason"]
        rule = rules.rule_of(reason)  # the rule that ends the game for this reason (R8, R12; R16.7, R16.8)
        if result.get("winner") is None:  # only where the rule set may end without a winner (R16.7)
            panel.text(f"Game over: no winner ({reason}, {rule})", weight="bold")
        else:
            panel.swatch(result["winner"])
            how = ": the other has no bridge left" if reason == "no bridges" else f" on {reason}"
            panel.text(f"Game over: {result['winner']} wins{how} ({rule})", weight="bold", indent=18)
        panel.text(f"ranking {', '.join(result['ranking'])}", fill=QUIET)
        return
    if position.waiting is not None:
        panel.text(f"Waiting: {position.waiting}", fill=ALERT)
        return
    mover = doc["to_move"]
    panel.swatch(mover)
    panel.text(f"{mover} to move, {_round_label(rnd)}", weight="bold", indent=18)
    turn = doc.get("turn", {})
    if rnd != 0:  # a turn of play, not the setup's choice (R3)
        panel.text(f"cards played this turn: {turn.get('played', 0)}", fill=QUIET)
        if rules.pairs and turn.get("color"):
            panel.text(f"building with {turn['color']} (R15.3)", fill=QUIET)
        if turn.get("discarded"):
            panel.text("discarded: the draw is next", fill=QUIET)
        if rules.may_skip_draw and turn.get("skipped_draw") and rnd != "final":
            panel.text(f"the opponent skipped its draw: this turn must draw ({rules.rule_of('draw')})", fill=QUIET)
    if rules.owes_removals and turn.get("remove_on"):
        panel.text(f"must remove a bridge on {', '.join(turn['remove_on'])} (R7)", weight="bold", fill=ALERT)
    if rnd == "final":
        fr = doc.get("final_round", {})
        done = f"final turns taken: {', '.join(fr.get('done', [])) or 'none'}"
        if rules.has_pass:  # R10; a rule set without a pass has every player take its final turn (R16.7)
            done += f"; passed: {', '.join(fr.get('passed', [])) or 'none'}"
        panel.text(done, fill=QUIET)
    if rnd == 0:
        setup = doc.get("setup", {})
        known = setup.get("cards", {})
        chosen = [f"{c} ({known[c]})" if c in known else c for c in setup.get("chosen", [])]
        panel.text(f"chosen so far: {', '.join(chosen) or 'none'} ({rules.rule_of('deal')})", fill=QUIET)


def _scores(panel: _Panel, doc: dict[str, Any], position: Position, controllers: dict[str, str]) -> None:
    """Each color's points and islands (the rule set's scoring rule), its bridges left in stock where the rule
    set counts them (R13, R16.1), and each player's pair where each plays two colors (R15.5)."""
    rules = position.ruleset
    panel.heading(f"Scores ({rules.rule_of('scoring')})")
    held = {c: sum(1 for owner in controllers.values() if owner == c) for c in doc["scores"]}
    stock = rules.bridges_per_color  # None where the bridges are unlimited (the yucata preset, R13)
    for color, points in doc["scores"].items():
        panel.swatch(color)
        islands = held[color]
        left = ""
        if stock is not None:  # a removed or swapped-out bridge goes back to its owner's stock (R13, R16.1)
            left = f", {stock - sum(1 for owner in doc['bridges'].values() if owner == color)} in stock"
        panel.text(f"{color}: {points} point{'s' if points != 1 else ''}, {islands} island{'s' if islands != 1 else ''}"
                   f"{left}", indent=18)
    if stock is not None:
        panel.text(f"in stock: bridges left of {stock} a color ({rules.rule_of('stock')})", fill=QUIET)
    if position.pairs is not None:
        panel.text("pairs (R15.5), weaker color first:", fill=QUIET)
        for player, (low, high) in position.pairs.items():
            panel.swatch(player)
            panel.text(f"{player}: ({low}, {high})", indent=18)


def _tokens(panel: _Panel, doc: dict[str, Any], rules: Ruleset) -> None:
    """The god tokens each player owns, how many are still on the islands and when they are used (R14)."""
    gods = doc.get("gods") or {}
    panel.heading("God tokens (R14)")
    owned = gods.get("owned", {})
    for player in doc["players"]:
        held = owned.get(player, [])
        panel.swatch(player)
        panel.text(f"{player}: {', '.join(held) if held else 'none'}", indent=18)
    left = len(gods.get("on_islands", {}))
    rounds = [str(r) for r in rules.token_rounds]
    when = (f"used in round {rounds[0]} only" if len(rounds) == 1 else
            f"used in rounds {', '.join(rounds[:-1])} and {rounds[-1]}") + f" ({rules.rule_of('tokens')})"
    panel.text(f"{left} token{'s' if left != 1 else ''} still on the islands; {when}", fill=QUIET)


def _hands(panel: _Panel, doc: dict[str, Any], position: Position, marks: dict[str, int]) -> None:
    panel.heading("Hands")
    if any(hand.get("public") for hand in doc["hands"].values()):
        panel.text("a dot marks a card every player knows is there", size=11, fill=QUIET, wrap=60)
    mover = doc.get("to_move")
    for player in doc["players"]:
        hand = doc["hands"][player]
        public = list(hand.get("public", []))
        if "cards" in hand:
            known, count = list(hand["cards"]), len(hand["cards"])
        else:
            # What the viewer knows of the hand: its public part, or with the gods the viewer's own knowledge
            # (R14.10: a KU shows the user the whole hand), which includes the public part.
            known, count = list(hand.get("known", {}).get(doc.get("viewer"), public)), hand["count"]
        colors = position.colors_of(player)
        who = player if len(colors) == 1 else f"{player} ({' and '.join(colors)})"
        panel.swatch(player)
        unseen = count - len(known)
        panel.text(f"{who}: {count} card{'s' if count != 1 else ''}" + (f", {unseen} unseen" if unseen else ""),
                   indent=18)
        panel.out.append(_open("g", class_="hand", data_player=player, data_count=count))
        shown: list[tuple[str | None, dict[str, Any]]] = []
        for card in known:
            is_public = card in public
            if is_public:
                public.remove(card)
            shown.append((card, {"class_": "card in-hand", "data_hand_card": card,
                                 "data_public": "true" if is_public else None}))
        shown += [(None, {})] * unseen
        if shown:
            panel.cards(f"{player}'s card", shown, marks if player == mover else None)
        panel.out.append("</g>")


def _hint_legend(panel: _Panel, hint: Hint, steps: list[_Step], mover: str) -> None:
    panel.heading(f"Hint for {mover}")
    for step in steps:
        panel.text(f"{step.number}. {step.move}")
    best = next((c for c in hint.candidates if c.move == hint.move), None)
    if best is not None:
        low, high = best.interval
        certain = ", wins for certain" if best.proven else ""
        panel.text(f"win {100 * best.win:.1f}% (95%: {100 * low:.1f}-{100 * high:.1f}%){certain}", fill=QUIET)
    panel.text(f"{hint.iterations} iterations", fill=QUIET)


def _removable(position: Position) -> frozenset[str]:
    """The links a pending removal (R7) may take, as the engine lists them."""
    if position.is_over or position.waiting is not None:
        return frozenset()
    moves = (position.move_of(a) for a in position.state.legal_actions())
    return frozenset(f"{m.link[0]}-{m.link[1]}" for m in moves if m.kind == N.REMOVE and m.link is not None)


def position_svg(position: Position, *, hint: Hint | None = None, width: float = WIDTH,
                 interactive: bool = False) -> str:
    """The picture of ``position`` as SVG text (see the module docstring for what it shows and its hooks).

    ``hint`` draws that hint's plan (it must be a hint for this position);
    ``width`` is the width attribute in pixels (the height follows);
    ``interactive`` makes the hooks focusable buttons.  Raises
    ``OptionError`` for a width that is not a positive number.
    """
    pixels = _check_width(width)
    rules = position.ruleset
    doc = position.to_json()
    board = position.board
    geo = board_geometry(board)
    controllers = {name: c for name in board.islands if (c := position.controller_of(name) or "")}
    turn = doc.get("turn", {})
    pending = tuple(turn.get("remove_on", []))
    gods = (doc.get("gods") or {}) if rules.tokens else {}
    inks = palette_inks(rules.palette)
    table = _Table(owners=dict(doc["bridges"]), controllers=controllers, pending=pending,
                   removable=_removable(position) if pending else frozenset(),
                   tokens=dict(gods.get("on_islands", {})), inks=inks)
    mover = doc.get("to_move") or ""
    steps = _hint_steps(position, hint) if hint is not None else []

    panel = _Panel(interactive, steps, inks)
    viewer = doc.get("viewer")
    has_presets = rules.lacks("rules.preset") is None  # R13; Kahuna has none (R16.9)
    panel.text(f"{rules.title} on {board.name}" + (f" ({rules.preset})" if has_presets else ""), size=18,
               weight="bold")
    panel.text(f"seen by {viewer}" if viewer else "full position", fill=QUIET)
    _status(panel, doc, position)
    _scores(panel, doc, position, controllers)
    if rules.tokens:
        _tokens(panel, doc, rules)
    card_marks = {s.move.cards[0]: s.number for s in steps if s.move.kind == N.TAKE and s.move.cards}
    panel.heading("Face up")
    panel.cards("face-up card", [(card, {"class_": "card face-up", "data_card": card}) for card in doc["face_up"]],
                card_marks)
    deck = doc["deck"]
    deck_count = len(deck) if isinstance(deck, list) else deck["count"]
    discard = doc["discard"]
    own = [f"{c}'s: {' '.join(cards)}" for c, cards in discard.get("hidden_by", {}).items() if cards]
    draw_step = next((s.number for s in steps if s.move.kind == N.DRAW), None)
    panel.out.append(_open("g", class_="deck", data_deck=deck_count,
                           **_interactive(interactive, f"deck, {deck_count} cards")))
    panel.text(f"Deck: {deck_count} card{'s' if deck_count != 1 else ''}", weight="bold")
    panel.out.append("</g>")
    if draw_step is not None:
        head = _open("g", class_="hint-step", data_step=draw_step, data_move=panel.step_moves[draw_step])
        panel.card_marks.append(head + _badge(PANEL_X + 150, panel.y - LINE - 4, draw_step, INK) + "</g>")
    panel.text(f"Discard pile: {len(discard['open'])} open, {discard['hidden']} face-down"
               + (f" ({'; '.join(own)})" if own else ""), fill=QUIET)
    hand_marks = {s.move.cards[0]: s.number for s in steps
                  if s.move.kind in (N.DISCARD, N.REVEAL) and s.move.cards}
    _hands(panel, doc, position, hand_marks)
    if hint is not None:
        _hint_legend(panel, hint, steps, mover)
    height = max(BOARD_SIDE, panel.y + 10)

    title = f"{rules.title} on {board.name}: " + (f"{mover} to move" if mover else "game over")
    out = _svg_open(TOTAL_WIDTH, height, pixels, title, interactive)
    out.append(f'<rect x="0" y="0" width="{_num(TOTAL_WIDTH)}" height="{_num(height)}" fill="#ffffff"/>')
    out.append(f'<rect x="0" y="0" width="{_num(BOARD_SIDE)}" height="{_num(height)}" fill="{SEA}"/>')
    out += _links(board, geo, table, interactive)
    lines, marks = _hint_lines(position, geo, table, steps, mover) if steps else ([], [])
    out += lines
    out += _islands(board, geo, table, interactive)
    out += marks
    out += panel.close()
    out.append("</svg>")
    return "\n".join(out) + "\n"
