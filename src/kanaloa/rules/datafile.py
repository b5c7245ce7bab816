"""Reading a data file a user names (a board, a tile): its JSON, or one ``BoardError`` line saying what is wrong.

Both kinds of file are read the same way: a built-in one by its name from the
package, any other by its path, no further than ``MAX_INPUT_BYTES``; what is
wrong with a path is said plainly (nothing there, a directory, a device, a
file the system will not let us read, too large, not UTF-8, not JSON); a
UTF-8 byte order mark at the start is skipped, and a key named twice in one object
is refused, as in positions and records.

``DataFiles`` is what a game tells the tools above about its files (the
registry's ``files`` face): the family's board files, a game's tile files.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..errors import MAX_INPUT_BYTES, PATH_LIMIT, BoardError, brief, too_large
from . import jsontext

# What a path that is no regular file is, for messages (``stat`` modes; a pipe is read like a file).
_SPECIAL = ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _fail(kind: str, where: object, why: str) -> BoardError:
    return BoardError(f"{kind} {brief(where, PATH_LIMIT)}: {why}")


def read_text(path: str, kind: str, builtins: Sequence[str]) -> str:
    """The text of the ``kind`` file (``board``, ``tile``) at ``path``; ``BoardError`` naming what is wrong.
    ``builtins`` are the built-in names, listed when nothing is at ``path``."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError, ValueError):  # ValueError: a NUL in the path, no file's
        raise _fail(kind, path, f"no such built-in {kind} ({', '.join(builtins)}) or file") from None
    except OSError as exc:
        raise _fail(kind, path, f"cannot read it ({exc.strerror})") from None
    if stat.S_ISDIR(mode):
        raise _fail(kind, path, f"is a directory, not a {kind} file (JSON)")
    for test, what in _SPECIAL:
        if test(mode):
            raise _fail(kind, path, f"not a regular file but {what}; a {kind} is a JSON file")
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_INPUT_BYTES + 1)  # a bounded read: a huge file is refused, not swallowed
    except OSError as exc:
        raise _fail(kind, path, f"cannot read it ({exc.strerror})") from None
    if len(raw) > MAX_INPUT_BYTES:
        raise BoardError(too_large(f"{kind} {brief(path, PATH_LIMIT)}", f"a {kind} file (JSON)"))
    try:
        return raw.decode("utf-8-sig")  # a BOM, as some editors write one, is tolerated, as in positions
    except UnicodeDecodeError as exc:
        raise _fail(kind, path, f"not UTF-8 text (byte {exc.start} cannot be decoded)") from None


def load_json(name_or_path: str, kind: str, package: str, folder: str, builtins: Sequence[str]) -> Any:
    """The JSON of a built-in ``kind`` file (``name_or_path`` one of ``builtins``: ``folder/NAME.json`` in
    ``package``) or of the file at the path; ``BoardError`` when it cannot be read or is not JSON."""
    if name_or_path in builtins:
        text = resources.files(package).joinpath(f"{folder}{name_or_path}.json").read_text("utf-8")
    else:
        text = read_text(name_or_path, kind, builtins)
    try:
        return jsontext.loads(text)
    except jsontext.DuplicateKey as exc:
        raise _fail(kind, name_or_path, f"the key {brief(exc.args[0])} appears twice in one object; a {kind} file "
                                        f"says each thing once") from None
    except json.JSONDecodeError as exc:
        raise _fail(kind, name_or_path, f"not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise _fail(kind, name_or_path, f"not a {kind}: the JSON is nested far too deeply") from None
    except ValueError as exc:  # e.g. a number with thousands of digits
        raise _fail(kind, name_or_path, f"not valid JSON ({exc})") from None


@dataclass(frozen=True)
class DataFiles:
    """The data files of a game that a user may write (the registry's ``files`` face): what the fuzzer damages.

    ``kind`` names one for people (``board``, ``tile``) and ``parameter`` is the game parameter that takes
    one.  ``builtin()`` gives each built-in file's name and text; ``from_dict(doc, source)`` reads a parsed
    file and ``load(path)`` a file by its path (both a ``BoardError`` of one line naming the file and the
    field); ``forget(path)`` drops a path from the reader's cache, if it keeps one.  ``value(file, players)``
    is what ``parameter`` takes to play ``file`` (its path, or what the readers returned) with ``players``
    players: the file itself, or the file with the built-in ones the game needs beside it.
    """

    kind: str
    parameter: str
    builtin: Callable[[], dict[str, str]]
    from_dict: Callable[[Any, str], Any]
    load: Callable[[str], Any]
    forget: Callable[[str], None]
    value: Callable[[Any, int], Any]

    def option(self, path: str, players: int) -> str:
        """``value(path, players)`` as the command line writes it: the entries of a list joined by commas."""
        value = self.value(path, players)
        return ",".join(str(v) for v in value) if isinstance(value, (list, tuple)) else str(value)
