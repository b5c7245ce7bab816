"""The search's own error: a parameter of a search that cannot be, named as the search names it.

``SearchError`` is a ``ValueError`` whose ``parameter`` names the parameter at
fault (``c``, ``margin``, ``iterations``, ``state`` for a state that cannot be
searched) and ``value`` its value; its message says what the parameter must
be (``c must be non-negative, not -1.0``).  Callers that call the parameter
otherwise (a bot spec's key, a command-line option) word it their own way.
"""

from __future__ import annotations


class SearchError(ValueError):
    """A search parameter, or the state searched, that the search refuses (see the module docstring)."""

    def __init__(self, parameter: str, message: str, value: object = None) -> None:
        self.parameter = parameter
        self.value = value
        super().__init__(message)
