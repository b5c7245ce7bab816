"""The one error family of the package.

Every error caused by what a user typed or supplied (a board file, a position,
a move, an option) is a ``KanaloaError``.  They are also ``ValueError`` so that
callers who only know the standard library can still catch them.  The message
names the field or the move, quotes it, and says why it is wrong.
"""

from __future__ import annotations


class KanaloaError(ValueError):
    """Base class of every user-facing error in kanaloa."""


class BoardError(KanaloaError):
    """A board file is missing or does not follow the board schema."""


class PositionError(KanaloaError):
    """A position does not follow ``kanaloa-position/1``; the message names the field."""


class MoveError(KanaloaError):
    """A move is malformed (notation) or illegal in the position it is played in."""


class OptionError(KanaloaError):
    """A command-line or bot option is invalid."""
