"""The Kanaloa family's part of the web app (its ``web`` face, ``kanaloa.interfaces.web.face``).

Kanaloa and Kahuna (R16) are card games on a board of islands and links: the
page's module for them is ``static/js/cards.js`` (a link, then the cards
that pay for it; the face-up row, the deck, the hand, the god tokens, R14),
and a view of their positions carries, beside the position, each island's
controller (R2) and size, the board's cards per island, every color's
points and the bridges still in stock where the rules limit them (R13,
R16).  Their data files are the boards, which the app serves for every game
(``/api/boards``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .face import Position, WebFace


class FamilyWeb(WebFace):
    """The web face of the Kanaloa family (module docstring)."""

    module = "/static/js/cards.js"
    bots = ("human", "random", "greedy", "ismcts:iterations=500", "hint:iterations=1000", "pimc:iterations=500")

    def view(self, position: Position, moves: Sequence[str]) -> dict[str, Any]:
        board = position.board
        return {
            "controllers": {name: position.controller_of(name) for name in board.islands},
            "sizes": {name: board.sizes[i] for i, name in enumerate(board.islands)},
            "cards_per_island": board.cards_per_island,
            "scores": position.scores,
            "bridges_left": bridges_left(position),
        }

    def record_refusal(self, params: Mapping[str, object]) -> str | None:
        if params.get("colors") is not None:  # a record deals again in each game's default colors
            return ("it was dealt in colors of its own, and a record deals a game again in the default colors; "
                    "download the position instead")
        return None


def bridges_left(position: Position) -> dict[str, int] | None:
    """Each color's bridges still in stock where the rules limit them (``bridges_per_color``, R13, R16); else
    None."""
    stock = position.ruleset.bridges_per_color
    if stock is None:
        return None
    on_board = list(position.to_json().get("bridges", {}).values())
    return {color: stock - on_board.count(color) for color in position.scores}


FAMILY_WEB = FamilyWeb()

__all__ = ["FAMILY_WEB", "FamilyWeb", "bridges_left"]
