"""Actions as small integers: the one move encoding shared by the core, the
reference implementation, the Python API and the search.

An action code is ``kind << 16 | a << 8 | b``:

=========  ====================  ==========================================
kind       a                     b
=========  ====================  ==========================================
PLACE  1   link                  island of the card paid (an end of link)
SWAP   2   link                  SWAP_AA, SWAP_AB or SWAP_BB (ends in file order)
REMOVE 3   link                  0 (R7); in Kahuna (R16.3) the combo paid,
                                 SWAP_AA, SWAP_AB or SWAP_BB
DISCARD 4  island                0
TAKE   5   island (face-up card) 0
DRAW   6   0                     0
END    7   0                     0 (R10; in Kahuna also skipping the draw)
PASS   8   0                     0
REVEAL 9   island                0
KU    10   target seat           0 (R14.6: look at the target's hand)
STEAL 11   island                0 (R14.6: the card KU takes)
PELE  12   0                     0 (R14.7)
GIVE  13   island                receiving seat (R14.7: a gift after PELE)
LONO  14   0                     0 (R14.8: an extra card)
=========  ====================  ==========================================

Might of the Gods (R14.5) pays builds with KANALOA, a joker: a place paid
with it carries ``JOKER`` (64) in ``b``; a swap paid with it carries the combo
``SWAP_JA`` (KANALOA and a card of the link's first end ``A``), ``SWAP_JB``
(KANALOA and a card of ``B``) or ``SWAP_JJ`` (two KANALOA).  Kinds 10 to 14
and these builds exist only in a game of the variant.

With two players (R15) a place or a swap also names which of the mover's two
colors builds: bit ``SLOT_BIT`` (7) of ``b`` is the slot, 0 for the player's
first color, 1 for its second (color ``seat + 2 * slot``, see
``kanaloa.rules.state.colors_of_seat``).  With 3 or 4 players the slot is
always 0, so every code is as in the table.

Legal-move lists are always sorted by code, in the core and in the reference.
"""

from __future__ import annotations

PLACE, SWAP, REMOVE, DISCARD, TAKE, DRAW, END, PASS, REVEAL = range(1, 10)
KU, STEAL, PELE, GIVE, LONO = range(10, 15)  # R14.6-R14.8: Might of the Gods
SWAP_AA, SWAP_AB, SWAP_BB = 0, 1, 2
SWAP_JA, SWAP_JB, SWAP_JJ = 3, 4, 5  # R14.5: swaps paid with KANALOA
JOKER = 64  # R14.5: the b of a place paid with KANALOA
SLOT_BIT = 7  # R15: the building color's slot in b (0: first color, 1: second)

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
    KU: "ku",
    STEAL: "steal",
    PELE: "pele",
    GIVE: "give",
    LONO: "lono",
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


def build_slot(action: Action) -> int:
    """Which of the mover's colors a place or swap builds with: 0 (first) or 1 (second, R15)."""
    return (action >> SLOT_BIT) & 1


def build_arg(action: Action) -> int:
    """A place's card island or a swap's combination, without the color slot."""
    return action & ((1 << SLOT_BIT) - 1)


def with_slot(action: Action, slot: int) -> Action:
    """A place or swap code built with the mover's color in ``slot`` (R15), whatever slot ``action`` named."""
    return (action & ~(1 << SLOT_BIT)) | (slot << SLOT_BIT)


def swap_cards(ends: tuple[int, int], combo: int) -> tuple[int, int]:
    """The two card islands paid by a swap on a link with ``ends`` (file order)."""
    a, b = ends
    return ((a, a), (a, b), (b, b))[combo]
