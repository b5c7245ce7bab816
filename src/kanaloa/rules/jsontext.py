"""JSON text as the package reads it from users: positions, boards, records, the web app's request bodies.

``loads`` is ``json.loads`` with what user input needs: a key named twice in
one object is refused (the standard parser keeps the last silently), and a
whole number of thousands of digits does not stop the reader with Python's
advice about ``sys.set_int_max_str_digits``: it is read as a ``HugeNumber``,
which is no integer, so the reader's check of the field it stands in refuses
it with the field's name and a short quote (``a 5000-digit number``).
``dumps`` writes what ``loads`` read back as text, a ``HugeNumber`` as its
digits, for a reader of text to read in turn.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DIGITS = 1000  # far beyond any number a position, a board or a record holds (seeds have 20 digits)


class HugeNumber:
    """A whole number too long to read as an integer: its text, quoted by its count of digits."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"a {len(self.text.lstrip('-'))}-digit number"


class DuplicateKey(ValueError):
    """A JSON object names one key twice; ``args[0]`` is the key."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(key)
        out[key] = value
    return out


def _whole_number(text: str) -> int | HugeNumber:
    return HugeNumber(text) if len(text) > MAX_DIGITS else int(text)


def loads(text: str) -> Any:
    """Parse ``text``; raises ``DuplicateKey``, ``json.JSONDecodeError`` and ``RecursionError`` as they come."""
    return json.loads(text, object_pairs_hook=_unique_keys, parse_int=_whole_number)


def dumps(value: Any) -> str:
    """``value`` as read by ``loads``, written back as JSON text on one line: a ``HugeNumber`` as its digits
    again (so that the reader it is handed on to refuses it as it refuses the number in a file)."""
    if isinstance(value, HugeNumber):
        return value.text
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(key)}: {dumps(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(dumps(item) for item in value) + "]"
    return json.dumps(value)
