"""Actions as small integers: the one move encoding shared by the core, the
reference implementation, the Python API and the search.

An action code is ``kind << 16 | a << 8 | b``:

=========  ====================  ==========================================
kind       a                     b
=========  ====================  ==========================================
PLACE  1   link                  island of the card paid (an end of link)
SWAP   2   link                  SWAP_AA, SWAP_AB or SWAP_BB (ends in file order)
REMOVE 3   link                  0
DISCARD 4  island                0
TAKE   5   island (face-up card) 0
DRAW   6   0                     0
END    7   0                     0
PASS   8   0                     0
REVEAL 9   island                0
=========  ====================  ==========================================

Legal-move lists are always sorted by code, in the core and in the reference.
"""

from __future__ import annotations

PLACE, SWAP, REMOVE, DISCARD, TAKE, DRAW, END, PASS, REVEAL = range(1, 10)
SWAP_AA, SWAP_AB, SWAP_BB = 0, 1, 2

KIND_NAMES = {
    PLACE: "place",
    SWAP: "swap",
    REMOVE: "remove",
    DISCARD: "discard",
    TAKE: "take",
    DRAW: "draw",
    END: "end",
    PASS: "pass",
    REVEAL: "reveal",
}

Action = int


def encode(kind: int, a: int = 0, b: int = 0) -> Action:
    """Pack an action; see the module table for ``a`` and ``b``."""
    return (kind << 16) | (a << 8) | b


def kind_of(action: Action) -> int:
    return action >> 16


def arg_a(action: Action) -> int:
    return (action >> 8) & 0xFF


def arg_b(action: Action) -> int:
    return action & 0xFF


def swap_cards(ends: tuple[int, int], combo: int) -> tuple[int, int]:
    """The two card islands paid by a swap on a link with ``ends`` (file order)."""
    a, b = ends
    return ((a, a), (a, b), (b, b))[combo]
