"""A QR code drawn with text, for a phone to scan off a terminal (``kanaloa serve`` on a network address).

``segno`` encodes the text; each line of the drawing holds two rows of the
code's modules, with the upper and lower half blocks (``▀``, ``▄``), the full
block and a space, so the code is about as tall as it is wide on a terminal.
A light module is drawn as ink and a dark one as blank, the way a terminal of
light text on a dark ground shows it the right way round; with ``color``, each
line is also set in white on black, so a terminal with a light ground shows
it the right way round as well.  The quiet zone of ``BORDER`` modules around
the code is drawn as light modules.
"""

from __future__ import annotations

BORDER = 4  # the quiet zone a QR code asks for, in modules
# (upper module dark, lower module dark) -> the character; light is ink
BLOCKS = {(False, False): "\u2588", (False, True): "\u2580", (True, False): "\u2584", (True, True): " "}
WHITE_ON_BLACK = "\x1b[97;40m"
PLAIN = "\x1b[0m"


def modules(text: str) -> list[list[bool]]:
    """The QR code of ``text`` as rows of modules (True: dark), with its quiet zone around it."""
    import segno

    code = segno.make_qr(text, error="m")
    width = len(code.matrix[0]) + 2 * BORDER
    blank = [False] * width
    rows = [blank] * BORDER
    rows += [[False] * BORDER + [bool(m) for m in row] + [False] * BORDER for row in code.matrix]
    rows += [blank] * BORDER
    return rows


def qr_lines(text: str, color: bool = False) -> list[str]:
    """The QR code of ``text`` drawn in lines of text (module docstring)."""
    rows = modules(text)
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    lines = []
    for upper, lower in zip(rows[::2], rows[1::2], strict=True):
        line = "".join(BLOCKS[pair] for pair in zip(upper, lower, strict=True))
        lines.append(f"{WHITE_ON_BLACK}{line}{PLAIN}" if color else line)
    return lines


__all__ = ["BORDER", "modules", "qr_lines"]
