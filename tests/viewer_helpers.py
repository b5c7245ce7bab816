"""Writing down a move of a full position as one viewer at the table records it (see docs/records.md "Records in a
viewer position"), and following a whole game in full and in every player's view from those records, for the
viewer tests of every game of the family."""

from __future__ import annotations

from collections import Counter

import pytest

from kanaloa.position import Position, WaitingError
from kanaloa.rules import actions as A


def record(full: Position, action: int, viewer: str) -> str:
    """The move ``action`` of the full position as ``viewer`` writes it down (``Position.record_of``), named by
    its mover as a record at the table is (``green: discard``)."""
    text = full.record_of(full.move_of(action), viewer)
    return text if full.parse(text).color is not None else f"{full.to_move}: {text}"


def as_its_viewer_sees_it(full: Position, seat: int, color: str) -> dict:
    """What a viewer position of ``color`` must print: the full position seen by that player."""
    return full.as_viewer(color).to_json()


def follow_game(full: Position, choose, *, count=None, on_wait=None, reread=None, check_moves=True,
                shown=as_its_viewer_sees_it) -> Counter:
    """Play ``full`` to its end, each action picked by ``choose(legal actions)``, while a viewer position per
    player follows it from the records that player writes.  After every move each view must print
    ``shown(full, seat, color)`` and, on its own turn, list the full position's moves (``check_moves``).

    Returns what the views went through: moves, waits for face-up cards (setup waits in round 0), exchanges
    (another player paid with a card the filled-in hand lacked), refills and own draws, rereads, and whatever
    ``count(seen, action, full)`` adds after each move.  ``on_wait(view, turned)`` looks at a waiting view before
    it is told the cards turned up; a view is read back from its own document whenever ``reread()`` says so."""
    views = {c: full.as_viewer(c) for c in full.players}
    seen: Counter = Counter()
    while not full.is_over:
        action = choose(full.state.legal_actions())
        notes = {c: record(full, action, c) for c in full.players}
        mover = full.to_move
        pays = A.kind_of(action) in (A.PLACE, A.SWAP, A.REMOVE)  # a Kahuna removal pays two cards (R16.3)
        full.push(action)
        seen["moves"] += 1
        if count is not None:
            count(seen, action, full)
        for seat, (color, view) in enumerate(views.items()):
            note = notes[color]
            hand_before = view.state.to_data().hands if pays else None
            view.play(note)
            if hand_before is not None and mover != color and view.state.to_data().hands != hand_before:
                seen["exchanges"] += 1
            seen["refills"] += " refill " in note
            seen["own draws"] += note.startswith(f"{color}: draw ")
            if view.waiting:
                with pytest.raises(WaitingError):
                    view.legal_moves()
                seen["setup waits" if view.round == 0 else "waits"] += 1
                shown_up = view.to_json()["face_up"]
                turned = full.to_json()["face_up"][len(shown_up):]
                if on_wait is not None:
                    on_wait(view, turned)
                view.play("faceup " + " ".join(turned))
            if reread is not None and reread():
                views[color] = view = Position.from_json(view.dumps(), engine=full.engine)
                seen["reread"] += 1
            assert view.to_json() == shown(full, seat, color), (seen["moves"], color, note)
            if check_moves and view.to_move == color and not view.is_over:
                assert view.legal_moves() == full.legal_moves()
    for color, view in views.items():
        assert view.dumps() == full.as_viewer(color).dumps()
    return seen
