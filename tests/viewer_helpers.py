"""Writing down a move of a full position as one viewer at the table records it (see README "Viewer positions
and records"), for the tests that follow whole games in full and in every player's view."""

from __future__ import annotations

from kanaloa.position import Position
from kanaloa.rules import actions as A


def record(full: Position, action: int, viewer: str) -> str:
    """The move ``action`` of the full position as ``viewer`` writes it down."""
    d = full.data
    mover = full.players[d.to_move]
    own = mover == viewer
    kind, a = A.kind_of(action), A.arg_a(action)
    isl = full.board.islands
    if kind == A.REVEAL:
        body = f"reveal {isl[a]}" if own else "reveal"
    elif kind == A.DISCARD:
        body = f"discard {isl[a]}" if own else "discard"
    elif kind == A.TAKE:
        body = f"take {isl[a]} refill {isl[d.deck[0]]}" if d.deck else f"take {isl[a]}"
    elif kind == A.DRAW:
        body = f"draw {isl[d.deck[0]]}" if own else "draw"
    else:
        move = full.move_of(action)  # in the position's game: a Kahuna removal names its cards (R16.3)
        if move.color is not None:  # a 2-player build names the color it builds with (R15.3)
            return str(move)
        body = str(move)
    return f"{mover}: {body}"
