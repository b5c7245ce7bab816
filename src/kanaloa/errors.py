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


# -- limits on what a user feeds in ----------------------------------------------------------

MAX_INPUT_BYTES = 4 * 1024 * 1024
"""The largest input read: a position, a board, a move file, one line of a game record file.

Real ones are a few kilobytes; the limit only stops a wrong file (``/dev/zero``, a
disk image) from being read until memory runs out.  Readers read at most one byte
more than this and refuse the input when they get it.
"""

INPUT_LIMIT = "4 MiB"  # MAX_INPUT_BYTES for people


def too_large(where: str, what: str) -> str:
    """The message for an input over ``MAX_INPUT_BYTES``: ``where`` names the input, ``what`` what it should be."""
    return f"{where}: larger than the {INPUT_LIMIT} input limit; expected {what}"


QUOTE_LIMIT = 60  # characters of user input quoted in a message
PATH_LIMIT = 240  # a file path is quoted whole up to this length


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as it is, or its first ``limit`` characters, ``...`` and its length."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def brief(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` for a message, cut short: a message quoting user input stays one readable line.

    Text is quoted as ``quote`` does; any other value by its ``repr``, cut short.
    """
    return quote(value, limit) if isinstance(value, str) else shorten(repr(value), limit)


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``repr(text)``, cut short when ``text`` is longer than ``limit`` characters.

    A message quoting user input stays one readable line: a 100 KB move is
    quoted by its first characters, then ``...`` and its length.
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"
