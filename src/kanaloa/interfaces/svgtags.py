"""Writing SVG by hand: the inks every picture shares, and numbers, attributes and elements as text, the same
input always giving the same bytes.

Every game's picture (the registry's ``svg`` faces, ``kanaloa.interfaces.svg`` among them) writes its
elements with these; nothing here knows a game.
"""

from __future__ import annotations

from html import escape

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#222222"
QUIET = "#666666"

# How a color is drawn, by its name, whichever game names it: its fill (a bridge, a swatch), the tint of an
# island it controls and its dark edge.  A rule set's palette names the colors in play (``palette_inks``).
COLOR_FILL = {"red": "#d83a3a", "green": "#2f9e44", "blue": "#2f6fd6", "yellow": "#f0c419",
              "white": "#f7f5ef", "black": "#2b2b2b"}
COLOR_TINT = {"red": "#f8d7d7", "green": "#d4efda", "blue": "#d6e3f8", "yellow": "#fcf1c2",
              "white": "#ffffff", "black": "#c9c9c9"}
COLOR_DARK = {"red": "#8f1d1d", "green": "#1d6b2c", "blue": "#1b4690", "yellow": "#8a6d00",
              "white": "#5f5a50", "black": "#111111"}


def num(value: float) -> str:
    """A coordinate as text: one decimal, no ``-0.0`` (the same number always gives the same bytes)."""
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def attrs(**values: object) -> str:
    """XML attributes in the order given, escaped; ``None`` leaves one out; ``data_x`` is written ``data-x``
    and a trailing underscore is dropped (``class_``)."""
    parts = []
    for key, value in values.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        text = num(value) if isinstance(value, float) else str(value)
        parts.append(f' {name}="{escape(text, quote=True)}"')
    return "".join(parts)


def open_tag(tag: str, **values: object) -> str:
    """An opening tag with attributes (see ``attrs``)."""
    return f"<{tag}{attrs(**values)}>"


def empty_tag(tag: str, **values: object) -> str:
    """An element without content."""
    return f"<{tag}{attrs(**values)}/>"
