"""The Python API over a game: positions, their JSON format and the move notation.

- ``api``: ``Position``, a game state seen by someone (everyone, or one
  color at the table), played move by move in notation;
- ``format``: the ``kanaloa-position/1`` document, read into a game state
  and written from one;
- ``viewer``: the bookkeeping of a viewer position (filling in the cards the
  viewer cannot see, records of the others' moves, waiting);
- ``notation``: ``Move``, the public move notation, its parser and printer;
- ``table``: the document of a viewer's position at the deal, from what the
  viewer was dealt (a table companion's start);
- ``documents``: ``read_position`` and ``deal_position``, a position of any
  registered game through its ``position`` face.

This layer builds on ``kanaloa.rules`` and decides no rule itself: what is
legal, and why a move is not, is asked of the engines.
"""

from .api import Position, WaitingError
from .documents import deal_position, read_position
from .format import FORMAT
from .notation import COLORS, Move, parse_move

__all__ = ["COLORS", "FORMAT", "Move", "Position", "WaitingError", "deal_position", "parse_move", "read_position"]
