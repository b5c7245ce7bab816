"""Kahuna (R16) positions written by hand, for the tests of the position layer and of the command."""

from __future__ import annotations

from kanaloa.position import FORMAT
from kanaloa.rules.board import load_board
from position_helpers import cards_left

KAHUNA = load_board("kahuna")


def kahuna_doc(**fields):
    """A full Kahuna position in round 1, white to move; the deck is every card not placed elsewhere, in
    island order (or ``deck``)."""
    doc = {
        "format": FORMAT,
        "game": "kahuna",
        "board": "kahuna",
        "players": ["white", "black"],
        "viewer": None,
        "to_move": "white",
        "round": 1,
        "bridges": {"ALOA-BARI": "white", "ELAI-HUNA": "black"},
        "hands": {"white": {"cards": ["ALOA", "COCO", "DUDA"]},
                  "black": {"cards": ["ELAI", "FAAA", "GOLA", "HUNA"], "public": ["HUNA"]}},
        "face_up": ["IFFI", "JOJO", "KAHU"],
        "discard": {"open": ["BARI", "HUNA"], "hidden": 0, "hidden_by": {"white": [], "black": []}},
        "scores": {"white": 0, "black": 0},
        "turn": {"played": 0, "discarded": False, "skipped_draw": False},
        "seed": 99,
    }
    doc.update(fields)
    if doc["round"] == "over":  # a finished game has no player to move and no turn
        doc.setdefault("result", None)
        if "to_move" not in fields:
            doc["to_move"] = None
        if "turn" not in fields:
            del doc["turn"]
    if "deck" not in fields:
        doc["deck"] = leftover(doc)
    return doc


def leftover(doc) -> list[str]:
    """The cards of board kahuna that ``doc`` places nowhere, in island order."""
    return cards_left(doc, KAHUNA)


def no_bridges_over(**result):
    """A game of Kahuna that ended when both players had no bridge left after the first scoring (R16.8)."""
    doc = kahuna_doc(round="over", bridges={},
                     result={"ranking": ["white", "black"], "winner": None, "reason": "no bridges", **result})
    return doc
