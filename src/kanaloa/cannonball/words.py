"""Cannonball Colony's ``words`` face: one move told in a sentence a player at the table understands (R20).

``say(position, text)`` reads ``text`` as ``position.parse`` reads it (the
position is the one *before* the move) and writes one line of English::

    France lands its ship on a3.
    Spain lays a road on the grass of c10 and may lay a second one.
    France fires a cannon at Spain's fort on d7, which goes back to Spain's mat.
    France builds a fort on b3 and earns its first cannon.

Countries are named with a capital first letter, spaces as the notation names
them.  The move is also played on a copy of the position, and what it
changed is told: the piece it earned (R20.8) and the game's end with its
winners (R20.10).  Nothing is hidden in the game, so ``public`` changes
nothing; it is taken as every game's ``words`` face takes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kanaloa.cannonball.position import CannonballPosition
from kanaloa.cannonball.state import (
    ACTION_WORDS,
    BLOCKADE,
    CANNON_1,
    CANNON_2,
    EARNED_NAMES,
    REASON_NAMES,
    REASON_TEXT,
    TERRAIN_NAMES,
    parse_space,
)
from kanaloa.errors import MoveError

__all__ = ["say"]

LAND, FIRE, ROAD, FORT, CANNON, BLOCK, END, PASS = ACTION_WORDS
_EARNED_WORDS = {EARNED_NAMES[CANNON_1]: "its first cannon", EARNED_NAMES[CANNON_2]: "its second cannon",
                 EARNED_NAMES[BLOCKADE]: "its blockade"}


def name(country: str) -> str:
    """A country as a sentence writes it: ``france`` -> ``France``."""
    return country[:1].upper() + country[1:]


def listed(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def say(position: CannonballPosition, text: str, public: bool = False) -> str:
    """``text``, a move of the country to move in ``position``, in one sentence (module docstring).

    Raises ``MoveError`` for a move that is not written in the game's notation, and for any move once the game
    is over.
    """
    move = position.parse(text)
    if position.is_over:
        raise MoveError(f"move {move!r}: the game is over; nobody moves")
    before = position.to_json()
    after_pos = position.copy()
    try:
        after_pos.play(move)
        after: dict[str, Any] | None = after_pos.to_json()
    except MoveError:
        after = None
    who = name(str(position.to_move))
    word, _, space = move.partition(" ")
    clauses = [_main(position, before, who, word, space)]
    if after is not None:
        clauses += _effects(before, after, str(position.to_move))
    return f"{clauses[0]}{'; ' + listed(clauses[1:]) if clauses[1:] else ''}."


def _terrain(position: CannonballPosition, space: str) -> str:
    d = position.data
    index = parse_space(space, d.columns, d.rows)
    return "" if index is None else TERRAIN_NAMES[d.terrain[index]]


def _owner(pieces: dict[str, list[str]], space: str) -> str | None:
    return next((who for who, spaces in pieces.items() if space in spaces), None)


def _main(position: CannonballPosition, before: dict[str, Any], who: str, word: str, space: str) -> str:
    if word == LAND:
        return f"{who} lands its ship on {space}"
    if word == FIRE:
        owner = _owner(before.get("forts", {}), space)
        whose = f"{name(owner)}'s" if owner else "the"
        back = f", which goes back to {name(owner)}'s mat" if owner else ""
        return f"{who} fires a cannon at {whose} fort on {space}{back}"
    if word == ROAD:
        terrain = _terrain(position, space)
        second = before.get("turn", {}).get("grass_roads", 0)
        if second:
            return f"{who} lays a second road on the {terrain} of {space}"
        return f"{who} lays a road on the {terrain} of {space}"
    if word == FORT:
        return f"{who} builds a fort on {space}"
    if word == CANNON:
        return f"{who} builds a cannon on {space}"
    if word == BLOCK:
        return f"{who} builds its blockade on {space}"
    if word == END:
        return f"{who} ends the turn after one grass road"
    return f"{who} passes, having no build it may make"


def _effects(before: dict[str, Any], after: dict[str, Any], mover: str) -> list[str]:
    """What the move changed: a second grass road it allows (R20.6), the pieces it earned (R20.8), the game's
    end (R20.10)."""
    out = []
    if after.get("round") != "over" and after.get("turn", {}).get("grass_roads", 0) > before.get("turn", {}).get(
            "grass_roads", 0):
        out.append(f"{name(mover)} may now lay a second grass road")
    earned = [piece for piece in after.get("earned", {}).get(mover, [])
              if piece not in before.get("earned", {}).get(mover, [])]
    if earned:
        out.append(f"{name(mover)} earns {listed([_EARNED_WORDS.get(p, p) for p in earned])}")
    if after.get("round") == "over":
        result = after.get("result") or {}
        winners = [name(w) for w in result.get("winners", [])]
        reason = result.get("reason")
        why = REASON_TEXT[REASON_NAMES.index(reason)] if reason in REASON_NAMES else "the game is over"
        if len(winners) > 1:
            out.append(f"the game ends, as {why}, and {listed(winners)} share the victory")
        elif winners:
            out.append(f"the game ends, as {why}, and {winners[0]} wins")
        else:
            out.append(f"the game ends, as {why}")
    return out
