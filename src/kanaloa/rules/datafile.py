"""Reading a data file a user names (a board, a tile): its JSON, or one ``BoardError`` line saying what is wrong.

Both kinds of file are read the same way: a built-in one by its name from the
package, any other by its path, no further than ``MAX_INPUT_BYTES``; what is
wrong with a path is said plainly (nothing there, a directory, a device, a
file the system will not let us read, too large, not UTF-8, not JSON).
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Sequence
from importlib import resources
from typing import Any

from ..errors import MAX_INPUT_BYTES, PATH_LIMIT, BoardError, brief, too_large

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
        return raw.decode("utf-8")
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
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(kind, name_or_path, f"not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise _fail(kind, name_or_path, f"not a {kind}: the JSON is nested far too deeply") from None
    except ValueError as exc:  # e.g. a number with thousands of digits
        raise _fail(kind, name_or_path, f"not valid JSON ({exc})") from None
