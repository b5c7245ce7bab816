"""The fuzzer: damaged positions, moves and data files against the public entry points.

Every input a user can hand the program must either be accepted or be refused
with one of the package's own errors (``kanaloa.errors``: ``PositionError``,
``MoveError``, ``BoardError``, ``OptionError``, all ``KanaloaError``) whose
message is one line.  The fuzzer takes valid inputs, damages them, feeds them
in and reports everything else as a *finding*.

**Targets.**

- ``positions``: documents of positions reached in seeded random games
  (full positions, the same positions as a player sees them where the game
  hides something, a viewer position that waits for its ``faceup`` record
  where the game has a setup, a finished game) of every registered game
  (``kanaloa.rules.registry``): each of its example rule sets and each of
  its player counts (Kanaloa with 4, 3 and 2 players, both presets and the
  gods, R14, R15; Kahuna, R16; every other game registered), so a new
  game's positions are fuzzed without an edit here; damaged as JSON trees
  or as text, read by ``read_position`` (the parsed object, the text or its
  bytes), which hands each document to its game's position class;
- ``moves``: move texts that fit those positions (their legal moves, with
  and without a color or the mover's name, and the records a viewer
  position takes), damaged character by character or word by word, or
  replaced by a value that is no text at all, read by the position's
  ``parse`` and played by its ``play``;
- ``boards``: the built-in data files of every registered game (its
  ``files`` face, a ``kanaloa.rules.datafile.DataFiles``: the family's
  board files, ``src/kanaloa/boards/*.json``, and every other game's own,
  such as tile files), damaged as JSON trees (read by the face's
  ``from_dict``, ``board.board_from_dict`` for a board) or as text written
  to a file (read by its ``load``, ``board.load_board``).

One run in ``CLI_EVERY`` of each target also goes through the command
(``kanaloa show``, ``moves``, ``play`` or ``new --game G --board FILE`` and
the like, in process with
click's ``CliRunner``), which must end with status 0, or status 2 and one
line ``error: ...`` on standard error.  The command is handed in by the
caller (``command=``; ``kanaloa fuzz`` hands in the ``kanaloa`` command
itself): the tools sit below the command line and do not import it.
Without one, no run goes through the command.

**Damage.**  Each run applies one to four mutations, chosen by the run's own
random generator: on JSON trees, drop, duplicate, rename or add a field; put
a value of another type (null, booleans, strings, lists, objects), a huge or
negative number, NaN or infinity in place of a value; nest a value deeply;
swap two values; put a name from elsewhere (an island, a color, a field
name) in place of a string; empty a list or object; graft a part of another
document.  On text: cut it short, delete, repeat or shuffle a span, insert
random bytes, a byte order mark, invalid UTF-8, a thousand-digit number,
deep brackets, or a key named twice.

**What counts as a finding.**

- any exception other than a ``KanaloaError``, or a ``KanaloaError`` whose
  message is empty, spans several lines or is longer than
  ``MAX_MESSAGE`` characters;
- a run that takes longer than ``RUN_SECONDS`` seconds;
- an accepted position that cannot be played: it is not over, does not wait
  for a record, and its player to move has no legal move; or a finished
  position that lists moves;
- an accepted position that does not read back: ``read_position`` of its
  ``dumps()`` fails or writes a different document;
- a full position refusing one of its own legal moves, or a move that
  parses to something that does not parse back to itself;
- an accepted file that deals a game the core and the reference do not play
  alike (``kanaloa.tools.soak.play_game`` with that file, a game of each
  player count of every registered game whose files it is, where the game
  can be played with it);
- the command refusing what the library accepted: ``kanaloa show`` of an
  accepted position, ``kanaloa play`` of an accepted move, ``kanaloa new``
  with an accepted file (``--board FILE``, ``--tiles FILE,...``).

**Reproducing.**  Run ``i`` of target ``t`` depends only on the fuzz seed,
``t`` and ``i``: its generator is seeded with output ``i`` of the SplitMix64
stream of the seed XOR the target's salt, and the valid inputs it starts
from are built from the fuzz seed alone.  A finding names its seed and run
(``kanaloa fuzz --target t --seed S --run i`` runs it again and shows the
traceback) and its input is saved to a file.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import math
import os
import random
import signal
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import KanaloaError, MoveError, OptionError
from ..play.streams import stream_output
from ..position.documents import read_position
from ..rules.datafile import DataFiles
from ..rules.registry import GameType, game_types
from ..rules.rng import MASK64

if TYPE_CHECKING:
    import click

TARGETS = ("positions", "moves", "boards")
TARGET_SALT = {"positions": 0x243F6A8885A308D3, "moves": 0x13198A2E03707344, "boards": 0xA4093822299F31D0}
MAX_MESSAGE = 1000  # characters in one error message; longer ones quote user input without cutting it short
RUN_SECONDS = 10.0  # one run taking longer is a finding (a loop that does not end, or a blow-up)
MAX_INPUT = 1_000_000  # damaged texts are cut to this many characters (bytes), so runs stay quick
CLI_EVERY = 10  # one run in this many of each target also goes through the command
# Moves played before each corpus position, in one seeded game per stop and rule set: the deal, the setup, round 1,
# round 2, the final round, a game over.
CORPUS_STOPS = (0, 2, 12, 40, 90, 150, 1000)
KEPT_PER_KIND = 3  # findings kept in full per kind (target, exception, place); the rest are counted

_FIELD_NAMES = (
    "format", "board", "rules", "players", "viewer", "to_move", "round", "bridges", "hands", "face_up",
    "deck", "discard", "scores", "turn", "final_round", "setup", "result", "seed", "cards", "public", "count",
    "open", "hidden", "hidden_by", "played", "discarded", "remove_on", "done", "passed", "chosen", "ranking",
    "winner", "reason", "preset", "name", "cards_per_island", "islands", "links", "xy", "colors", "color",
    "game", "skipped_draw", "reshuffle", "unseen",
)
_WORDS = (
    "red", "green", "blue", "yellow", "purple", "RED", "yucata", "tabletop", "final", "over", "points",
    "eleven islands", "oro", "kahuna", "kanaloa-position/1", "take", "draw", "refill", "faceup", "pass", "end",
    "remove", "discard", "reveal", "", " ", "null", "-", "/", "+", "ALOA-BAFI", "ALOA-ALOA", "é", "\u0000",
    "white", "black", "kahuna", "no bridges",
    "\n", "\u200b", "0", "-1", "1e9",
)
_HUGE = (10**9, 2**31, 2**63 - 1, 2**64, -(2**63), 10**30, -(10**30), 10**400, 1e308, -1e308, 1.5, -0.0,
         math.nan, math.inf, -math.inf, -1, -2)
_MOVE_CHARS = "ABCDEFGHIKLMNOPRSTUVWYZabcdeklnorsu0123456789 -/+:\t\n,;'\"é\u0000\u200b\u00a0"


class _TooSlow(BaseException):
    """The run outlived ``RUN_SECONDS`` (a BaseException, so no ``except Exception`` under test eats it)."""


# -- findings ---------------------------------------------------------------------------


@dataclass
class Finding:
    """One input that broke the contract."""

    target: str
    seed: int
    run: int
    entry: str  # what was called: "read_position", "kanaloa play", ...
    problem: str  # one line: the exception and message, or what went wrong
    where: str  # the innermost place in the package, for grouping ("position/format.py:420 in read")
    category: str = ""  # the problem without the particulars of this input, for grouping
    detail: str = ""  # the traceback, when there is one
    saved: str | None = None  # the file holding the input

    @property
    def kind(self) -> tuple[str, str, str]:
        """What groups findings: target, category, place."""
        return (self.target, self.category or self.problem.split(":", 1)[0], self.where)

    def replay_command(self) -> str:
        return f"kanaloa fuzz --target {self.target} --seed {self.seed} --run {self.run}"

    def reproducer(self) -> str:
        lines = [f"finding: {self.target} run {self.run} (seed {self.seed}): {self.entry}: {self.problem}",
                 f"  at {self.where}" if self.where else "  (no traceback)"]
        if self.saved:
            lines.append(f"  input saved to {self.saved}")
        lines.append(f"  replay: {self.replay_command()}")
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"target": self.target, "seed": self.seed, "run": self.run, "entry": self.entry,
                "problem": self.problem, "category": self.category, "where": self.where, "saved": self.saved,
                "replay": self.replay_command()}


class _Found(Exception):
    """Raised inside a run to end it with a finding."""

    def __init__(self, entry: str, problem: str, exc: BaseException | None = None, category: str = "") -> None:
        super().__init__(problem)
        self.entry = entry
        self.problem = problem
        self.exc = exc
        self.category = category or problem.split(":", 1)[0]


def _where(exc: BaseException) -> str:
    """The innermost frame of ``exc`` inside the package (else the innermost frame at all)."""
    frames = traceback.extract_tb(exc.__traceback__)
    package = f"{os.sep}kanaloa{os.sep}"
    ours = [f for f in frames if package in f.filename and not f.filename.endswith("fuzz.py")]
    chosen = (ours or frames)[-1:] if frames else []
    if not chosen:
        return ""
    name = chosen[0].filename
    # inside the package, the path from it (position/api.py), so that modules of the same name stay apart
    place = name.rsplit(package, 1)[1].replace(os.sep, "/") if package in name else os.path.basename(name)
    return f"{place}:{chosen[0].lineno} in {chosen[0].name}"


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 4] + " ..."


def _call(entry: str, fn: Callable[[], Any]) -> tuple[Any, KanaloaError | None]:
    """``fn()``: its result, or the ``KanaloaError`` it raised (checked); anything else is a finding."""
    try:
        return fn(), None
    except KanaloaError as exc:
        _check_message(entry, exc)
        return None, exc
    except (_Found, _TooSlow):
        raise
    except Exception as exc:
        raise _Found(entry, f"{type(exc).__name__}: {_short(str(exc))}", exc) from exc


def _check_message(entry: str, exc: KanaloaError) -> None:
    message = str(exc)
    name = type(exc).__name__
    if not message.strip():
        raise _Found(entry, f"{name} with an empty message", exc)
    if "\n" in message or "\r" in message:
        raise _Found(entry, f"{name} message spans several lines: {_short(message)}", exc,
                     f"{name} message spans several lines")
    if len(message) > MAX_MESSAGE:
        raise _Found(entry, f"{name} message of {len(message)} characters (more than {MAX_MESSAGE}): "
                            f"{_short(message)}", exc, f"{name} message longer than {MAX_MESSAGE} characters")


def _expect(entry: str, fn: Callable[[], Any]) -> Any:
    """``fn()``, which must not raise at all (an accepted input's own checks)."""
    try:
        return fn()
    except (_Found, _TooSlow):
        raise
    except Exception as exc:
        raise _Found(entry, f"{type(exc).__name__}: {_short(str(exc))}", exc) from exc


# -- mutations --------------------------------------------------------------------------


def _paths(node: Any, prefix: tuple = ()) -> Iterator[tuple]:
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, (*prefix, i))


def _get(doc: Any, path: tuple) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def _set(doc: Any, path: tuple, value: Any) -> Any:
    """``doc`` with the node at ``path`` replaced (the root when ``path`` is empty)."""
    if not path:
        return value
    _get(doc, path[:-1])[path[-1]] = value
    return doc


def _other_value(rng: random.Random, value: Any, strings: list[str]) -> Any:
    """A value of another JSON type than ``value``."""
    choices: list[Any] = [None, True, False, 0, 1, -1, 3.5, "", rng.choice(strings), [], {}, [rng.choice(strings)],
                          {"x": 1}, rng.choice(_HUGE)]
    for _ in range(10):
        pick = rng.choice(choices)
        if type(pick) is not type(value):
            return pick
    return None


def _nest(value: Any, depth: int, rng: random.Random) -> Any:
    for _ in range(depth):
        value = [value] if rng.random() < 0.5 else {"x": value}
    return value


def mutate_tree(doc: Any, rng: random.Random, strings: list[str], donors: list[Any]) -> Any:
    """One structural mutation of a parsed JSON document (in place where it can be; returns the result)."""
    paths = list(_paths(doc))
    path = rng.choice(paths)
    node = _get(doc, path)
    parent = _get(doc, path[:-1]) if path else None
    op = rng.randrange(14)
    if op == 0 and isinstance(parent, (dict, list)):  # drop the field or element
        del parent[path[-1]]
        return doc
    if op == 1 and path and isinstance(parent, list):  # duplicate an element
        parent.insert(path[-1], copy.deepcopy(node))
        return doc
    if op == 2 and path and isinstance(parent, dict):  # rename a key
        new_key = rng.choice([*_FIELD_NAMES, *strings, path[-1].upper(), path[-1] + "s", ""])
        items = list(parent.items())
        parent.clear()
        for key, value in items:
            parent[new_key if key == path[-1] else key] = value
        return doc
    if op == 3 and isinstance(node, dict):  # add a field
        key = rng.choice([*_FIELD_NAMES, "unknown", *strings[:20]])
        node[key] = copy.deepcopy(rng.choice(donors_parts(donors, rng)))
        return doc
    if op == 4:
        return _set(doc, path, _other_value(rng, node, strings))
    if op == 5:
        return _set(doc, path, rng.choice(_HUGE))
    if op == 6:
        return _set(doc, path, _nest(node, rng.choice((1, 2, 5, 50, 200)), rng))
    if op == 7 and isinstance(node, (dict, list)) and len(node) >= 2:  # swap two values
        keys = list(node.keys()) if isinstance(node, dict) else list(range(len(node)))
        a, b = rng.sample(keys, 2)
        node[a], node[b] = node[b], node[a]
        return doc
    if op == 8 and isinstance(node, str):  # another name in place of this one
        return _set(doc, path, rng.choice(strings))
    if op == 9 and isinstance(node, (dict, list, str)):
        return _set(doc, path, type(node)())
    if op == 10 and isinstance(node, int) and not isinstance(node, bool):
        return _set(doc, path, rng.choice((node + 1, node - 1, -node, node * 1000, node + 2**32)))
    if op == 11:  # graft a part of another document
        return _set(doc, path, copy.deepcopy(rng.choice(donors_parts(donors, rng))))
    if op == 12 and isinstance(node, list) and node:  # shuffle or cut a list
        if rng.random() < 0.5:
            rng.shuffle(node)
        else:
            del node[rng.randrange(len(node)):]
        return doc
    if op == 13 and isinstance(node, str) and node:  # change a character of a name
        i = rng.randrange(len(node))
        return _set(doc, path, node[:i] + rng.choice(_MOVE_CHARS) + node[i + 1:])
    return _set(doc, path, _other_value(rng, node, strings))


def _colors_of(doc: dict, palette: list[str]) -> list:
    """The colors a position document plays: its players (else ``palette``), and with two players their second
    colors too."""
    players = doc.get("players") or palette
    pairs = doc.get("colors")
    if isinstance(pairs, dict) and isinstance(players, list):
        return list(players) + [c for pair in pairs.values() if isinstance(pair, list) for c in pair[1:]]
    return players


_KEPT_FIELDS = ("format", "game", "players")  # what a shape-keeping change never drops


def mutate_position(doc: dict, rng: random.Random, corpus: Corpus, game: str) -> dict:
    """One small change of a position document of ``game`` that keeps its shape, so that it is often still a
    position: move a name from one list to another (a card to another hand, a fort to another country),
    change, add or drop an entry of a table keyed by names (a bridge, a ship; keys from the game's own
    documents), pass the turn to another player, nudge a number (a score, the supply), put the game in
    another of its rounds, or drop two of its fields."""
    op = rng.randrange(7)
    lists = [p for p in _paths(doc) if p and p != ("players",) and isinstance(_get(doc, p), list)
             and all(isinstance(x, str) for x in _get(doc, p))]
    if op == 0 and lists:  # move a name from one list to another
        src, dst = rng.choice(lists), rng.choice(lists)
        names = _get(doc, src)
        if names:
            name = names.pop(rng.randrange(len(names)))
            target = _get(doc, dst)
            target.insert(rng.randrange(len(target) + 1), name)
            return doc
    tables = [p for p in _paths(doc) if p and isinstance(_get(doc, p), dict) and _get(doc, p)
              and not any(isinstance(v, dict) for v in _get(doc, p).values())]
    if op == 1 and tables:  # an entry of a table changes, appears or goes
        table = _get(doc, rng.choice(tables))
        key = rng.choice(sorted(table))
        way = rng.randrange(3)
        if way == 0:
            del table[key]
        elif way == 1:
            table[key] = copy.deepcopy(rng.choice([*table.values(), *_colors_of(doc, corpus.palette)]))
        else:
            table[rng.choice(corpus.names.get(game) or [key])] = copy.deepcopy(table[key])
        return doc
    if op == 2:
        doc["to_move"] = rng.choice(doc.get("players") or corpus.palette)
        return doc
    numbers = [p for p in _paths(doc) if isinstance(_get(doc, p), int) and not isinstance(_get(doc, p), bool)]
    if op == 3 and numbers:
        path = rng.choice(numbers)
        return _set(doc, path, max(0, _get(doc, path) + rng.choice((-3, -1, 1, 2, 7))))
    if op == 4 and corpus.rounds.get(game):
        doc["round"] = rng.choice(corpus.rounds[game])
        return doc
    if op == 5:
        droppable = [k for k in doc if k not in _KEPT_FIELDS]
        for key in rng.sample(droppable, min(2, len(droppable))):
            del doc[key]
        return doc
    lists = [p for p in _paths(doc) if isinstance(_get(doc, p), list) and len(_get(doc, p)) >= 2]
    if lists:  # reorder a list
        rng.shuffle(_get(doc, rng.choice(lists)))
    return doc


def donors_parts(donors: list[Any], rng: random.Random) -> list[Any]:
    """Some parts of a random donor document."""
    donor = rng.choice(donors)
    return [_get(donor, p) for p in list(_paths(donor))[:400]] or [donor]


def mutate_text(data: bytes, rng: random.Random) -> bytes:
    """One mutation of a document's bytes."""
    n = len(data)
    op = rng.randrange(13)
    i = rng.randrange(n + 1)
    j = min(n, i + rng.randrange(1, 64))
    if op == 0:  # cut short
        return data[:i]
    if op == 1:
        return data[:i] + data[j:]
    if op == 2:
        return data[:j] + data[i:j] * rng.choice((1, 2, 50)) + data[j:]
    if op == 3:
        return data[:i] + os.urandom(0) + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9))) + data[i:]
    if op == 4 and n:
        k = rng.randrange(n)
        return data[:k] + bytes([data[k] ^ (1 << rng.randrange(8))]) + data[k + 1:]
    if op == 5:
        return b"\xef\xbb\xbf" + data
    if op == 6:
        return data[:i] + rng.choice((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\\u0000", b"\\ud800")) + data[i:]
    if op == 7:
        return data[:i] + b"1" * rng.choice((400, 5000, 50000)) + data[i:]
    if op == 8:
        depth = rng.choice((100, 1000, 100000))
        return data[:i] + b"[" * depth + b"]" * depth + data[i:]
    if op == 9:
        return data[:i] + rng.choice((b"1e999999", b"NaN", b"-Infinity", b"-0", b"1E400", b"0.1e-99999")) + data[i:]
    if op == 10:  # a key named twice: repeat one "key": value pair
        start = data.find(b'"', i)
        colon = data.find(b":", start) if start >= 0 else -1
        comma = data.find(b",", colon) if colon >= 0 else -1
        if start >= 0 and colon >= 0 and comma >= 0:
            return data[:start] + data[start:comma + 1] + data[start:]
        return data + data[:i]
    if op == 11 and n > 2:  # swap two spans
        a, b = sorted(rng.sample(range(n), 2))
        return data[:a] + data[b:] + data[a:b]
    return data[:i] + rng.choice((b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\", b"null", b"\n")) + data[i:]


def mutate_move(text: str, rng: random.Random, words: list[str]) -> str:
    """One mutation of a move's text."""
    op = rng.randrange(12)
    n = len(text)
    i = rng.randrange(n + 1)
    if op == 0:
        return text[:i] + rng.choice(_MOVE_CHARS) + text[i:]
    if op == 1 and n:
        return text[:i] + text[i + 1:]
    if op == 2 and n:
        return text[:i] + rng.choice(_MOVE_CHARS) + text[i + 1:]
    tokens = text.split(" ")
    if op == 3 and len(tokens) > 1:
        del tokens[rng.randrange(len(tokens))]
        return " ".join(tokens)
    if op == 4:
        k = rng.randrange(len(tokens))
        tokens.insert(k, rng.choice(tokens))
        return " ".join(tokens)
    if op == 5:
        tokens[rng.randrange(len(tokens))] = rng.choice(words)
        return " ".join(tokens)
    if op == 6:
        return rng.choice((text.lower(), text.upper(), text.swapcase(), f"  {text}\t"))
    if op == 7:
        return f"{rng.choice(words)}: {text}"
    if op == 8:
        return text * min(rng.choice((2, 100, 20000)), 1 + MAX_INPUT // max(1, n))
    if op == 9:
        glue = rng.choice((";", ",", "\n", " ", ":"))
        return f"{text}{glue}{rng.choice(words)}"
    if op == 10:
        for a, b in (("-", "/"), ("/", "-"), ("+", "-"), ("-", "+"), ("/", " "), (":", "")):
            if a in text and rng.random() < 0.5:
                return text.replace(a, b, 1)
        return text.replace(" ", "", 1)
    return rng.choice(words) + text[i:]


# -- the valid inputs a run starts from ----------------------------------------------


@dataclass
class Sample:
    """A valid position: its document, the position read from it, and move texts that fit it."""

    doc: dict
    position: Any
    moves: list[str]

    @property
    def game(self) -> str:
        """The registered name of the position's game."""
        name: str = self.position.ruleset.game
        return name


@dataclass
class Corpus:
    """The valid inputs of every run of one fuzz seed.

    ``names`` holds, by game, every name its documents use (string values and the keys of tables: links,
    colors, spaces, countries), ``rounds`` every round its documents are in; ``keys`` every field name of
    every document.
    """

    samples: list[Sample]
    files: dict[str, tuple[DataFiles, Any]]  # ``kind:name`` -> the game's files face and the parsed built-in file
    strings: list[str]
    docs: list[Any] = field(default_factory=list)
    palette: list[str] = field(default_factory=list)  # every color or country the registered games name
    names: dict[str, list[str]] = field(default_factory=dict)
    rounds: dict[str, list[Any]] = field(default_factory=dict)
    keys: list[str] = field(default_factory=list)


def corpus_rulesets(game: GameType) -> list[Any]:
    """The rule sets of ``game`` the corpus plays: its example rule sets, then one of each of its player counts
    (its other parameters at their defaults) that the examples leave out."""
    out: list[Any] = list(game.example_rulesets())
    counts = next((p.choices for p in game.parameters if p.name == "players"), ())
    for count in counts:
        rules = game.load(players=int(count))
        if rules not in out:
            out.append(rules)
    return out


def _move_texts(full: Any, shown: Any) -> list[str]:
    """Move texts for ``shown`` (a position): its legal moves with and without color, and records."""
    out: list[str] = []
    mover = full.to_move
    if full.is_over:
        return ["end", "draw", f"{mover}: pass"]
    try:
        legal = full.move_strings()
    except MoveError:
        legal = []
    deck = full.to_json().get("deck") or []
    for text in legal:
        out.append(text)
        if ": " in text:  # a 2-player build names its color (R15.3); without it, it is refused
            out.append(text.split(": ", 1)[1])
        out.append(f"{mover}: {text}")
        words = text.split()
        if words[0] == "take" and deck:
            out.append(f"{mover}: take {words[1]} refill {deck[0]}")
        if words[0] in ("discard", "reveal", "draw"):
            out.append(f"{mover}: {words[0]}")
        if words[0] == "draw" and deck:
            out.append(f"draw {deck[0]}")
        if words[0] == "remove" and "/" in text:  # Kahuna (R16.3): the cards of a removal, and without them
            out.append(text.split("/", 1)[0])
    if shown is not full and shown.waiting is not None:
        face = full.to_json().get("face_up") or ["ALOA"]
        out.append("faceup " + " ".join(face))
    return out or ["draw"]


def build_corpus(seed: int) -> Corpus:
    """Positions from seeded random games of every registered game, viewer positions of them, and the built-in
    boards."""
    rng = random.Random(stream_output(seed, 0))
    samples: list[Sample] = []
    dealt = 0  # the games dealt so far: game k is dealt from output k + 1 of the fuzz seed's stream

    def deal(rules: Any) -> Any:
        nonlocal dealt
        dealt += 1
        return rules.game_type.face("position").deal(rules, stream_output(seed, dealt))

    def played(full: Any, target: int, views: bool) -> None:
        """``full`` after up to ``target`` random moves, in full and (``views``) as one of its players sees it."""
        for _ in range(target):
            if full.is_over:
                break
            full.play(rng.choice(full.move_strings()))
        samples.append(Sample(full.to_json(), full, _move_texts(full, full)))
        if views:
            view = full.as_viewer(rng.choice(full.players))
            samples.append(Sample(view.to_json(), view, _move_texts(full, view)))

    palette: list[str] = []
    for game in game_types():
        for rules in corpus_rulesets(game):
            palette += [c for c in rules.palette if c not in palette]
            views = rules.lacks("viewer") is None  # a game that hides nothing has no viewer positions
            for target in CORPUS_STOPS:
                played(deal(rules), target, views)
            if views and rules.lacks("setup") is None:
                samples.append(_waiting_view(deal(rules), rng))
    files = {f"{face.kind}:{name}": (face, json.loads(text)) for face in data_files()
             for name, text in face.builtin().items()}
    strings: set[str] = set(_WORDS)
    docs: list[Any] = [s.doc for s in samples] + [doc for _, doc in files.values()]
    for doc in docs:
        for path in _paths(doc):
            node = _get(doc, path)
            if isinstance(node, str) and len(node) < 40:
                strings.add(node)
    for sample in samples:  # the words of the moves too (a game's move words appear in no document)
        strings.update(word for move in sample.moves for word in move.replace(":", " ").split() if len(word) < 40)
    names: dict[str, set[str]] = {}
    rounds: dict[str, list[Any]] = {}
    keys: set[str] = set()
    for sample in samples:
        own = names.setdefault(sample.game, set())
        for path in _paths(sample.doc):
            node = _get(sample.doc, path)
            if isinstance(node, dict):
                own.update(k for k in node if len(k) < 40)
                keys.update(node)
            elif isinstance(node, str) and len(node) < 40:
                own.add(node)
        seen = rounds.setdefault(sample.game, [])
        if sample.doc.get("round") not in seen:
            seen.append(sample.doc.get("round"))
    strings.update(k for k in keys if len(k) < 40)  # every game's field names, to rename and add fields with
    return Corpus(samples, files, sorted(strings), docs, palette, {g: sorted(n) for g, n in names.items()},
                  rounds, sorted(keys))


def _waiting_view(full: Any, rng: random.Random) -> Sample:
    """A viewer position waiting for the cards turned face-up after the setup (R3): the second seat follows the
    setup of ``full``, told the others' choices as records that keep their cards hidden."""
    viewer = full.players[1 % len(full.players)]
    view = full.as_viewer(viewer)
    while view.waiting is None and not full.is_over:
        move = rng.choice(full.legal_moves())
        mover = full.to_move
        record = str(move) if mover == viewer else f"{mover}: reveal"
        full.play(str(move))
        view.play(record)
    return Sample(view.to_json(), view, _move_texts(full, view))


def data_files() -> list[DataFiles]:
    """Every registered game's ``files`` face, each once (the family's games share their board files)."""
    return list(dict.fromkeys(g.face("files") for g in game_types()))


def games_of(files: DataFiles) -> list[GameType]:
    """The registered games whose data files ``files`` are."""
    return [g for g in game_types() if g.face("files") is files]


def _reader_name(reader: Any) -> str:
    """``board.load_board``: a reader as the findings name it, by its module and name."""
    return f"{reader.__module__.rsplit('.', 1)[-1]}.{reader.__name__}"


# -- one run ----------------------------------------------------------------------------


@dataclass
class RunResult:
    """One run: whether the input was accepted, the finding if any, and what was fed in."""

    accepted: bool
    finding: Finding | None = None
    payload: dict[str, Any] = field(default_factory=dict)
    refusal: str | None = None  # the message of the first error the input met


def run_generator(target: str, seed: int, run: int) -> random.Random:
    """The random generator of run ``run`` of ``target``."""
    return random.Random(stream_output(seed ^ TARGET_SALT[target], run))


def _dumps(value: Any) -> str | None:
    try:
        return json.dumps(value)
    except (ValueError, TypeError, RecursionError):
        return None


def _damaged_document(doc: Any, rng: random.Random, corpus: Corpus) -> Any:
    """``doc`` damaged: a tree (dict, list, ...), or its text as ``str`` or ``bytes``."""
    tree = copy.deepcopy(doc)
    mode = rng.random()
    if mode < 0.55:
        for _ in range(rng.randint(1, 4)):
            tree = mutate_tree(tree, rng, corpus.strings, corpus.docs)
        if rng.random() < 0.5:
            return tree
        text = _dumps(tree)
        return tree if text is None else text
    if mode < 0.8:
        for _ in range(rng.randint(0, 2)):
            tree = mutate_tree(tree, rng, corpus.strings, corpus.docs)
    text = _dumps(tree) or json.dumps(doc)
    data = text.encode()
    for _ in range(rng.randint(1, 3)):
        data = mutate_text(data, rng)[:MAX_INPUT]
    if rng.random() < 0.5:
        return data
    return data.decode("utf-8", "replace")


class _Run:
    """What one run does; ``entry`` and ``payload`` say what was fed in, for the finding."""

    def __init__(self, target: str, seed: int, run: int, corpus: Corpus, workdir: str,
                 command: click.Command | None = None) -> None:
        self.target = target
        self.seed = seed
        self.run = run
        self.corpus = corpus
        self.workdir = workdir
        self.rng = run_generator(target, seed, run)
        self.payload: dict[str, Any] = {}
        self.refusal: str | None = None
        self.command = command
        self.cli = command is not None and run % CLI_EVERY == CLI_EVERY - 1

    def _try(self, entry: str, fn: Callable[[], Any]) -> tuple[Any, KanaloaError | None]:
        result, err = _call(entry, fn)
        if err is not None and self.refusal is None:
            self.refusal = f"{type(err).__name__}: {err}"
        return result, err

    def go(self) -> bool:
        return {"positions": self.positions, "moves": self.moves, "boards": self.boards}[self.target]()

    # positions

    def positions(self) -> bool:
        sample = self.rng.choice(self.corpus.samples)
        if self.rng.random() < 0.3:
            damaged: Any = copy.deepcopy(sample.doc)
            for _ in range(self.rng.randint(1, 3)):
                damaged = mutate_position(damaged, self.rng, self.corpus, sample.game)
            if self.rng.random() < 0.5:
                damaged = json.dumps(damaged)
        else:
            damaged = _damaged_document(sample.doc, self.rng, self.corpus)
        self.payload = {"position": damaged}
        pos, err = self._try("read_position", lambda: read_position(damaged))
        if isinstance(damaged, (str, bytes)) and self.cli:
            text = damaged if isinstance(damaged, bytes) else damaged.encode("utf-8", "surrogatepass")
            args = self.rng.choice((["show", "-"], ["moves", "-"], ["moves", "-", "--json"]))
            # what the library reads, the command shows; it may list no moves for another color's turn
            self._command(args, text, must_succeed=err is None and args[0] == "show")
        if err is not None:
            return False
        self._check_position(pos, "read_position")
        return True

    # moves

    def moves(self) -> bool:
        sample = self.rng.choice(self.corpus.samples)
        words = [*self.corpus.strings, *self.corpus.palette]
        move: Any
        if self.rng.random() < 0.05:
            move = self.rng.choice((None, 7, 3.5, b"draw", ["draw"], {"kind": "draw"}, True))
        else:
            move = self.rng.choice(sample.moves)
            for _ in range(self.rng.randint(0, 3)):
                move = mutate_move(move, self.rng, words)[:MAX_INPUT]
        self.payload = {"position": sample.doc, "move": move}
        parse = sample.position.parse
        parsed, err = self._try("Position.parse", lambda: parse(move))
        if parsed is not None:
            again, err2 = self._try("Position.parse", lambda: parse(str(parsed)))
            if err2 is not None or again != parsed:
                raise _Found("Position.parse", f"{str(parsed)!r} (read from {_short(repr(move), 60)}) does "
                                               f"not read back as itself: {again if err2 is None else err2}")
        pos = sample.position.copy()
        _, err = self._try("Position.play", lambda: pos.play(move))
        if self.cli and isinstance(move, str):
            self._command(["play", "-", "--", move], json.dumps(sample.doc).encode(), must_succeed=err is None)
        if err is not None:
            return False
        self._check_position(pos, "Position.play")
        return True

    # data files (boards, and every game's own)

    def boards(self) -> bool:
        key = self.rng.choice(sorted(self.corpus.files))
        files, original = self.corpus.files[key]
        damaged = _damaged_document(original, self.rng, self.corpus)
        self.payload = {"file": damaged}
        if not isinstance(damaged, (str, bytes)):
            read, err = self._try(_reader_name(files.from_dict), lambda: files.from_dict(damaged, "fuzz"))
        else:
            path = os.path.join(self.workdir, f"{files.kind}-{self.run}.json")
            with open(path, "wb") as fh:
                fh.write(damaged if isinstance(damaged, bytes) else damaged.encode("utf-8", "surrogatepass"))
            try:
                read, err = self._try(_reader_name(files.load), lambda: files.load(path))
                if self.cli:
                    game = games_of(files)[0]
                    counts = [int(c) for p in game.parameters if p.name == "players" for c in p.choices]
                    players = 3 if 3 in counts else counts[0]
                    self._command(["new", "--game", game.name, "--players", str(players),
                                   f"--{files.parameter}", files.option(path, players), "--seed", str(self.run)],
                                  None, must_succeed=err is None and _takes(game, files, read, players))
                if err is None:
                    self._check_file_positions(files, read)
            finally:
                files.forget(path)
                os.unlink(path)
        if err is not None:
            return False
        self._check_file(files, read)
        return True

    # checks of what was accepted

    def _check_position(self, pos: Any, entry: str) -> None:
        where = f"{entry} accepted a position that"
        if pos.is_over:
            listed = _expect(f"{entry} (legal_moves)", pos.legal_moves)
            if listed:
                raise _Found(entry, f"{where} is over but lists {len(listed)} moves")
        elif pos.waiting is None:
            try:
                listed = pos.legal_moves()
            except MoveError as exc:
                if pos.viewer is None or pos.viewer == pos.to_move:
                    raise _Found(f"{entry} (legal_moves)", f"{where} refuses to list its moves: "
                                                           f"{_short(str(exc))}", exc) from exc
                # another color moves in a viewer position: its moves are those of the filled-in state
                listed = _expect(f"{entry} (state)", lambda: pos.state.legal_actions())
            except Exception as exc:
                raise _Found(f"{entry} (legal_moves)", f"{type(exc).__name__}: {_short(str(exc))}", exc) from exc
            if not listed:
                raise _Found(entry, f"{where} is not over, does not wait, and {pos.to_move} has no legal move")
            if pos.viewer is None:
                move = self.rng.choice(pos.move_strings())
                after = pos.copy()
                try:
                    after.play(move)
                except Exception as exc:
                    raise _Found(f"{entry}, then Position.play", f"its own legal move {move!r} was refused: "
                                                                  f"{type(exc).__name__}: {_short(str(exc))}",
                                 exc) from exc
                self._round_trip(after, f"{entry}, then Position.play({move!r})")
        self._round_trip(pos, entry)

    def _round_trip(self, pos: Any, entry: str) -> None:
        text = _expect(f"{entry} (dumps)", pos.dumps)
        try:
            again = read_position(text)
        except Exception as exc:
            raise _Found(f"{entry}, dumps, read_position",
                         f"its own dumps() does not read back: {type(exc).__name__}: {_short(str(exc))}", exc) from exc
        second = _expect(f"{entry} (dumps)", again.dumps)
        if second != text:
            raise _Found(f"{entry}, dumps, read_position", "its dumps() reads back as a different document")

    def _file_rulesets(self, files: DataFiles, read: Any) -> list[Any]:
        """A rule set of each player count of every registered game whose data files ``files`` are, played with
        the accepted file ``read`` where the game can be: one of the game's example rule sets with that count
        (chosen by the run), else the count's defaults, with the file as its ``files.parameter``."""
        out: list[Any] = []
        where = f"load_game with the {files.kind}"
        for game in games_of(files):
            for players in dict.fromkeys(rules.players for rules in corpus_rulesets(game)):
                same = [params for params in game.examples if params.get("players") == players]
                chosen = [same[self.run % len(same)]] if same else []
                for params in [*chosen, {}]:
                    load = functools.partial(game.load, **{**params, "players": players,
                                                           files.parameter: files.value(read, players)})
                    made, err = self._try(where, load)
                    if err is None:
                        out.append(made)
                        break
                    if not isinstance(err, OptionError):
                        raise _Found(where, f"{type(err).__name__} for an accepted {files.kind}: "
                                            f"{_short(str(err))}")
        return out

    def _check_file(self, files: DataFiles, read: Any) -> None:
        from .soak import FROM_DEAL, SoakGame, play_game

        where = f"soak.play_game with the {files.kind}"
        for rules in self._file_rulesets(files, read):
            game = SoakGame(self.seed, self.run, stream_output(self.seed, self.run), rules, FROM_DEAL)
            outcome = _expect(where, functools.partial(play_game, game))
            if outcome.divergence is not None:
                raise _Found(where, f"the engines diverge with an accepted {files.kind}: "
                                    f"{_short(outcome.divergence.what, 300)}")

    def _check_file_positions(self, files: DataFiles, read: Any) -> None:
        """A file read from a path deals positions that read back: a game of each player count of every game
        whose file it is (``_file_rulesets``), dealt by its position face and played for a while."""
        where = f"Position.deal with the {files.kind}"
        for rules in self._file_rulesets(files, read):
            deal = rules.game_type.face("position").deal
            pos, err = self._try(where, functools.partial(deal, rules, self.run))
            if err is not None:
                if not isinstance(err, OptionError):
                    raise _Found(where, f"{type(err).__name__} for an accepted {files.kind}: {_short(str(err))}")
                continue
            for _ in range(self.rng.randrange(40)):
                if pos.is_over:
                    break
                pos.play(self.rng.choice(pos.move_strings()))
            self._check_position(pos, where)

    # the command

    def _command(self, args: list[str], stdin: bytes | None, must_succeed: bool = False) -> None:
        """Run ``kanaloa ARGS``: status 0, or 2 with one ``error:`` line (only 0 when ``must_succeed``:
        the library accepted the same input)."""
        from click.testing import CliRunner

        assert self.command is not None
        result = CliRunner().invoke(self.command, args, input=stdin)
        shown = "kanaloa " + " ".join(_short(a, 40) for a in args)
        if result.exit_code == 0:
            return
        if result.exit_code != 2:
            exc = result.exception
            if exc is not None and not isinstance(exc, SystemExit):
                raise _Found(shown, f"{type(exc).__name__}: {_short(str(exc))}", exc)
            raise _Found(shown, f"exit status {result.exit_code}: {_short(result.stderr)}")
        lines = result.stderr.strip().splitlines()
        if "Traceback" in result.output or len(lines) != 1 or not lines[0].startswith("error: "):
            raise _Found(shown, f"status 2 without a single 'error:' line: {_short(result.stderr)}")
        if must_succeed:
            raise _Found(shown, f"the command refuses what the library accepts: {_short(lines[0])}",
                         category="the command refuses what the library accepts")


def _takes(game: GameType, files: DataFiles, read: Any, players: int) -> bool:
    """Whether ``game`` with ``players`` can be played with the file ``read`` (its rule set is made without a
    complaint)."""
    try:
        game.load(players=players, **{files.parameter: files.value(read, players)})
    except OptionError:
        return False
    return True


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise ``_TooSlow`` in this thread after ``seconds`` (where the platform allows it)."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(signum, frame):
        raise _TooSlow

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_one(target: str, seed: int, run: int, corpus: Corpus, workdir: str,
            command: click.Command | None = None) -> RunResult:
    """Run ``run`` of ``target``.  A finding carries its traceback in ``detail`` and is not saved yet.

    With ``command`` (the ``kanaloa`` command), one run in ``CLI_EVERY`` also goes through it.
    """
    job = _Run(target, seed, run, corpus, workdir, command)
    try:
        with _time_limit(RUN_SECONDS):
            accepted = job.go()
        return RunResult(accepted, payload=job.payload, refusal=job.refusal)
    except _Found as found:
        exc: BaseException = found.exc if found.exc is not None else found
        where = _where(exc) if found.exc is not None else ""
        finding = Finding(target, seed, run, found.entry, found.problem, where, found.category, _traceback(exc))
    except _TooSlow as slow:
        finding = Finding(target, seed, run, "the run", f"took more than {RUN_SECONDS:g} s", _where(slow),
                          "too slow", _traceback(slow))
    return RunResult(False, finding, job.payload, job.refusal)


def _traceback(exc: BaseException) -> str:
    return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))


def save_input(finding: Finding, payload: dict[str, Any], directory: str) -> str:
    """Write the input of ``finding`` to a file in ``directory``; return its path.

    A position or board given as text or bytes is written as it was; one
    given as a parsed document is written as JSON (``repr`` where JSON cannot
    hold it); a move is written with the position it was played in, as
    ``{"position": ..., "move": ...}`` (``"move_repr"`` when it is no text).
    """
    os.makedirs(directory, exist_ok=True)
    stem = os.path.join(directory, f"{finding.target}-seed{finding.seed}-run{finding.run}")
    if "move" in payload:
        move = payload["move"]
        doc: dict[str, Any] = {"position": payload["position"]}
        doc["move" if isinstance(move, str) else "move_repr"] = move if isinstance(move, str) else repr(move)
        data = json.dumps(doc, indent=1).encode("utf-8", "surrogatepass")
        path = stem + ".json"
    else:
        value = payload.get("position", payload.get("file"))
        if isinstance(value, bytes):
            data, path = value, stem + ".json"
        elif isinstance(value, str):
            data, path = value.encode("utf-8", "surrogatepass"), stem + ".json"
        else:
            text = _dumps(value)
            data, path = (text.encode(), stem + ".json") if text is not None else (repr(value).encode(), stem + ".txt")
    with open(path, "wb") as fh:
        fh.write(data)
    finding.saved = path
    return path


# -- many runs --------------------------------------------------------------------------


@dataclass
class TargetStats:
    """Runs of one target: how many, how many inputs were accepted or refused, findings, time."""

    target: str
    runs: int = 0
    accepted: int = 0
    findings: int = 0
    seconds: float = 0.0

    @property
    def refused(self) -> int:
        return self.runs - self.accepted - self.findings

    def to_json(self) -> dict:
        return {"runs": self.runs, "accepted": self.accepted, "refused": self.refused, "findings": self.findings,
                "seconds": round(self.seconds, 3)}


@dataclass
class FuzzReport:
    """The figures of a fuzz run and its findings (the first ``KEPT_PER_KIND`` of each kind in full)."""

    seed: int
    targets: dict[str, TargetStats]
    findings: list[Finding] = field(default_factory=list)
    kinds: dict[tuple[str, str, str], int] = field(default_factory=dict)
    seconds: float = 0.0
    interrupted: bool = False

    @property
    def total_findings(self) -> int:
        return sum(t.findings for t in self.targets.values())

    def to_json(self) -> dict:
        return {
            "seed": self.seed,
            "runs": sum(t.runs for t in self.targets.values()),
            "findings": self.total_findings,
            "seconds": round(self.seconds, 3),
            "interrupted": self.interrupted,
            "targets": {name: t.to_json() for name, t in self.targets.items()},
            "kinds": [{"target": k[0], "problem": k[1], "where": k[2], "count": n} for k, n in self.kinds.items()],
            "kept": [f.to_json() for f in self.findings],
        }

    def summary(self) -> str:
        lines = ["interrupted" if self.interrupted else ""] if self.interrupted else []
        for name, t in self.targets.items():
            lines.append(f"{name}: {t.runs} runs, {t.accepted} inputs accepted, {t.refused} refused with a "
                         f"one-line error, {t.findings} findings, {t.seconds:.1f} s")
        total = self.total_findings
        lines.append(f"seed {self.seed}: {total} {'finding' if total == 1 else 'findings'} of {len(self.kinds)} "
                     f"{'kind' if len(self.kinds) == 1 else 'kinds'} in {self.seconds:.1f} s")
        for key, n in self.kinds.items():
            lines.append(f"  {n} x {key[0]}: {key[1]} at {key[2] or 'no traceback'}")
        lines.extend(f.reproducer() for f in self.findings)
        return "\n".join(lines)


def check_targets(target: str) -> tuple[str, ...]:
    """The targets named by ``--target`` (``all`` or one of ``TARGETS``)."""
    if target == "all":
        return TARGETS
    if target not in TARGETS:
        raise OptionError(f"--target {target!r}: unknown; choose one of {', '.join(TARGETS)} or all")
    return (target,)


def check_budget(runs: int | None, seconds: float | None) -> None:
    """``--runs N`` or ``--seconds S``, exactly one of them; raises ``OptionError`` otherwise."""
    if runs is not None and seconds is not None:
        raise OptionError("--runs/--seconds: give one of them, not both")
    if runs is None and seconds is None:
        raise OptionError("--runs/--seconds: give one of them")
    if runs is not None and (isinstance(runs, bool) or not isinstance(runs, int) or runs < 1):
        raise OptionError(f"--runs {runs!r}: must be a whole number, 1 or more")
    if seconds is not None and not (isinstance(seconds, (int, float)) and not isinstance(seconds, bool)
                                    and math.isfinite(seconds) and seconds > 0):
        raise OptionError(f"--seconds {seconds!r}: must be a positive number of seconds")


def run_fuzz(targets: tuple[str, ...], seed: int, runs: int | None = None, seconds: float | None = None,
             save_dir: str = "fuzz-findings", on_run: Callable[[str, int], None] | None = None,
             command: click.Command | None = None) -> FuzzReport:
    """Fuzz each of ``targets`` in turn, for ``runs`` runs or ``seconds`` seconds each (split evenly).

    Findings are grouped by kind (target, exception, place); the inputs of
    the first ``KEPT_PER_KIND`` of each kind are saved in ``save_dir``.
    ``on_run`` is called with the target and the runs done after each run.
    With ``command`` (the ``kanaloa`` command), one run in ``CLI_EVERY`` also goes through it.
    Ctrl-C stops the fuzzing and returns what was done, with ``interrupted``.
    """
    check_budget(runs, seconds)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
        raise OptionError(f"--seed {seed!r}: must be an integer from 0 to 2**64-1")
    report = FuzzReport(seed, {t: TargetStats(t) for t in targets})
    start = time.perf_counter()
    corpus = build_corpus(seed)
    try:
        with tempfile.TemporaryDirectory(prefix="kanaloa-fuzz-") as workdir:
            for target in targets:
                stats = report.targets[target]
                began = time.perf_counter()
                budget = (seconds or 0.0) / len(targets)
                run = 0
                while (run < runs) if runs is not None else (time.perf_counter() - began < budget):
                    result = run_one(target, seed, run, corpus, workdir, command)
                    stats.runs += 1
                    stats.accepted += result.accepted
                    if result.finding is not None:
                        stats.findings += 1
                        key = result.finding.kind
                        report.kinds[key] = report.kinds.get(key, 0) + 1
                        if report.kinds[key] <= KEPT_PER_KIND:
                            save_input(result.finding, result.payload, save_dir)
                            report.findings.append(result.finding)
                    run += 1
                    stats.seconds = time.perf_counter() - began
                    if on_run is not None:
                        on_run(target, run)
    except KeyboardInterrupt:
        report.interrupted = True
    report.seconds = time.perf_counter() - start
    return report


def replay_run(target: str, seed: int, run: int, save_dir: str = "fuzz-findings",
               command: click.Command | None = None) -> RunResult:
    """Run ``run`` of ``target`` again (through ``command`` too, as ``run_fuzz``); a finding's input is
    saved in ``save_dir``."""
    if isinstance(run, bool) or not isinstance(run, int) or run < 0:
        raise OptionError(f"--run {run!r}: must be a whole number, 0 or more")
    corpus = build_corpus(seed)
    with tempfile.TemporaryDirectory(prefix="kanaloa-fuzz-") as workdir:
        result = run_one(target, seed, run, corpus, workdir, command)
    if result.finding is not None:
        save_input(result.finding, result.payload, save_dir)
    return result
