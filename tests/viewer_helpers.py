"""Writing down a move of a full position as one viewer at the table records it (see README "Viewer positions
and records"), for the tests that follow whole games in full and in every player's view."""

from __future__ import annotations

from kanaloa.position import Position
from kanaloa.rules import actions as A


def record(full: Position, action: int, viewer: str) -> str:
    """The move ``action`` of the full position as ``viewer`` writes it down."""
    d = full.state.to_data()
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
    elif kind in (A.KU, A.STEAL, A.PELE, A.GIVE):
        body = _god_record(full, action, viewer)
    else:
        move = full.move_of(action)  # in the position's game: a Kahuna removal names its cards (R16.3)
        if move.color is not None:  # a 2-player build names the color it builds with (R15.3)
            return str(move)
        body = str(move)
    return f"{mover}: {body}"


def _god_record(full: Position, action: int, viewer: str) -> str:
    """A god token's move as ``viewer`` writes it down (README.md "Viewer positions and records")."""
    d = full.state.to_data()
    players = full.players
    mover = players[d.to_move]
    me = players.index(viewer)
    own = mover == viewer
    kind, a, b = A.kind_of(action), A.arg_a(action), A.arg_b(action)
    isl = full.board.islands

    def cards(counts: list[int]) -> str:
        return " ".join(isl[x] for x, n in enumerate(counts) for _ in range(n))

    if kind == A.KU:
        return f"ku {players[a]} sees {cards(d.hands[a])}" if own else f"ku {players[a]}"
    if kind == A.STEAL:
        return f"steal {isl[a]}" if own or d.ku_target == me else "steal"
    if kind == A.GIVE:
        return f"give {players[b]} {isl[a]}" if own or b == me else f"give {players[b]}"
    # PELE: the cards taken are drawn by the full position; its result tells them.
    after = full.copy()
    after.push(action)
    hands = after.state.to_data().hands
    taken = {}
    for step in range(1, d.players):
        v = (d.to_move + step) % d.players
        lost = [x for x, (n, m) in enumerate(zip(d.hands[v], hands[v], strict=True)) if m < n]
        if lost:
            taken[v] = isl[lost[0]]
    if own:
        return "pele takes " + " ".join(f"{players[v]}:{card}" for v, card in taken.items())
    return f"pele takes {taken[me]}" if me in taken else "pele"
