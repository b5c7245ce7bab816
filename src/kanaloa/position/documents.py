"""Positions of any registered game: read from a document, or dealt from a rule set.

The layers above reach a position through these two functions, never through
a game's own position class: the game a document plays (its ``game`` field,
the registry's default game when it is absent) names the class, the game's
``position`` face (``kanaloa.rules.registry``), and that class reads it.  A
game with a position format of its own so plugs in with its registration.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import PositionError, brief
from ..rules.board import Board, load_board
from ..rules.engine import Engine
from ..rules.registry import document_game, game_names
from ..rules.ruleset import ParameterError
from .format import json_type, parse_json


def read_position(obj: str | bytes | bytearray | dict[str, Any], engine: Engine | None = None,
                  boards: Callable[[str], Board] = load_board) -> Any:
    """The position a document holds (text or parsed JSON), read by its game's position class.

    Raises ``PositionError`` naming the first bad field (an unknown ``game`` among them).
    """
    doc = parse_json(obj) if isinstance(obj, (str, bytes, bytearray)) else obj
    if not isinstance(doc, dict):
        raise PositionError(f"position: must be a JSON object, not {json_type(doc)}")
    try:
        game = document_game(doc.get("game"))
    except ParameterError:
        names = ", ".join(repr(g) for g in game_names())
        raise PositionError(f"game: {brief(doc['game'])} is not one of {names}") from None
    return game.face("position").from_json(doc, engine, boards)


def deal_position(ruleset: Any, seed: int = 0, engine: Engine | None = None) -> Any:
    """A freshly dealt full position of ``ruleset``'s game, by its position class."""
    return ruleset.game_type.face("position").deal(ruleset, seed, engine)
