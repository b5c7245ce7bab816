"""What the tests of positions do alike in every game of the family: change one field of a document, read the
message of a refused document or move, and count the cards a hand-written document leaves for its deck."""

from __future__ import annotations

import pytest

from kanaloa.errors import MoveError, PositionError
from kanaloa.position import Position
from kanaloa.position.notation import Move, parse_move
from kanaloa.rules.board import Board
from kanaloa.rules.engine import load_engine

DELETE = object()  # put(path, DELETE) takes the field out of the document


def put(path, value):
    """A change to a document: set ``value`` at the dotted ``path`` (``DELETE`` deletes)."""
    def change(doc):
        *parents, last = path.split(".")
        node = doc
        for key in parents:
            node = node[key]
        if value is DELETE:
            del node[last]
        else:
            node[last] = value
        return doc
    return change


def give(color, *cards):
    """A change that moves ``cards`` from the deck into ``color``'s hand, so that the cards still add up."""
    def change(doc):
        for card in cards:
            doc["deck"].remove(card)
            doc["hands"][color]["cards"].append(card)
        return doc
    return change


def cards_left(doc, board: Board) -> list[str]:
    """The cards of ``board`` that ``doc`` places nowhere (hands, face-up, discards, set aside in the setup), in
    island order."""
    left = {name: board.cards_per_island for name in board.islands}
    placed = list(doc["face_up"]) + list(doc["discard"]["open"])
    for hand in doc["hands"].values():
        placed += hand.get("cards", [])
    for cards in doc["discard"].get("hidden_by", {}).values():
        placed += cards
    placed += list(doc.get("setup", {}).get("cards", {}).values())
    for card in placed:
        left[card] -= 1
    return [name for name in board.islands for _ in range(left[name])]


def position_error(doc, engine=None) -> str:
    """The message of the PositionError that reading ``doc`` raises (by the reference engine unless told)."""
    with pytest.raises(PositionError) as err:
        Position.from_json(doc, engine=engine or load_engine("reference"))
    return str(err.value)


def changed_error(doc, change, engine=None) -> str:
    """The PositionError message of ``doc`` after ``change``; a change that drops the deck keeps the old one."""
    keep_deck = doc["deck"]
    doc = change(doc)
    doc.setdefault("deck", keep_deck)
    return position_error(doc, engine)


def read_back_at_every_step(full: Position, choose):
    """Play ``full`` to its end, each action picked by ``choose(legal actions)``, yielding it before every move
    and at the end; each time the full position and every player's view must read back from their documents to
    themselves (the full one, while the game goes on, to its very state)."""
    while True:
        for pos in (full, *(full.as_viewer(c) for c in full.players)):
            again = Position.from_json(pos.dumps(), engine=pos.engine)
            assert again.dumps() == pos.dumps()
            if pos.viewer is None and not pos.is_over:  # a finished game writes no turn
                assert again.state.to_data() == pos.state.to_data()
        yield full
        if full.is_over:
            return
        full.push(choose(full.state.legal_actions()))


def move_error(pos: Position, move) -> str:
    """The message of a refused move; the position is left as it was."""
    before = pos.dumps()
    with pytest.raises(MoveError) as err:
        pos.play(move)
    assert pos.dumps() == before
    return str(err.value)


def assert_canonical(text: str, canonical: str, rules) -> None:
    """``text`` reads as a move of ``rules`` that prints as ``canonical``, reads back from it, and is read again
    unchanged as a Move object."""
    move = Move.parse(text, rules)
    assert str(move) == canonical
    assert move.notation(rules) == canonical
    assert Move.parse(canonical, rules) == move
    assert parse_move(move, rules) == move
