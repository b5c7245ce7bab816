"""Where the web app keeps its games: one SQLite database (the standard library's ``sqlite3``).

A game (the Play mode's ``PlayGame``, the Table mode's ``TableGame``) is
kept as what it began from and the moves made since, so that any server
started on the same database can play it on:

- ``games``: one row a game: its id, its kind (``game`` or ``table``), the
  name the player gives it, the game it plays (``ruleset``, the registry's
  name), when it was made and last changed, its ``setup`` (a JSON object:
  the position it began from, as its game writes it, and what the kind
  needs besides: the seats and the deal of a Play game, the board file
  when the board is not a built-in one), its ``status`` for the list of
  games (whose turn, the outcome, as JSON), the ``position`` now (its
  document, which a reload checks the replayed moves against), its
  ``version`` (one more at every change of its moves) and its ``head``:
  how many of its moves are played.
- ``moves``: the moves of each game in order (``ply`` from 0), each with the
  seat that made it (Play) and its words.  Rows past ``head`` are moves
  taken back in the Table mode, which a redo plays again; a new move
  drops them.

**Every change is committed before the server answers it**, in one
transaction that also checks the game's ``version``: a change made on a
state that another server (or another request) has already changed is
refused (``Stale``) and nothing is written.  The database runs in
write-ahead-log mode with ``synchronous=FULL``: a move acknowledged to the
browser survives the server being killed, and the machine losing power.

**The schema is versioned** with SQLite's ``user_version``: a new database
is made by running ``MIGRATIONS`` in order, and a database of an older
version is brought up to date by running those it lacks, in one
transaction; a database of a newer version than this program knows is
refused with a one-line ``StoreError``, and so is a file that is not a
database.

One connection serves the whole server, its calls taking turns under a
lock (the requests of the app run in threads); ``:memory:`` keeps the games
in memory only, as long as the server runs.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import sys
import threading
import time
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import KanaloaError

MEMORY = ":memory:"
KINDS = ("game", "table")
NAME_LIMIT = 80  # characters of a game's name, at most
WAIT_SECONDS = 10.0  # how long a read or a change waits for another server's change to the file to end

# Each migration brings the schema from version i to i + 1 (its index + 1).  Never edit one that has shipped:
# add the next.
MIGRATIONS: tuple[str, ...] = (
    # 1: games and their moves
    """
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('game', 'table')),
        name TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        created REAL NOT NULL,
        updated REAL NOT NULL,
        setup TEXT NOT NULL,
        status TEXT NOT NULL,
        position TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE moves (
        game TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        move TEXT NOT NULL,
        seat INTEGER,
        PRIMARY KEY (game, ply)
    );
    """,
    # 2: moves taken back are kept for a redo (``head``: the moves played), and each move keeps its words
    """
    ALTER TABLE games ADD COLUMN head INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET head = (SELECT COUNT(*) FROM moves WHERE moves.game = games.id);
    ALTER TABLE moves ADD COLUMN words TEXT;
    CREATE INDEX games_by_update ON games (updated DESC);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


class StoreError(KanaloaError):
    """A database the app cannot use (not a database, a newer schema, a folder it cannot make)."""


class Unavailable(KanaloaError):
    """A database that could not take a read or a change now (locked by another server past the wait, a full
    disk, an I/O error): nothing was written (HTTP 503)."""


class Stale(KanaloaError):
    """A change made on a state of a game that has changed since (another tab or server moved first)."""


class Missing(KanaloaError):
    """No game of that id in the database."""


@dataclass(frozen=True)
class Move:
    """A move of a saved game: its text, the seat that made it (None in a table) and its words (or None)."""

    move: str
    seat: int | None = None
    words: str | None = None


@dataclass(frozen=True)
class Saved:
    """A game as the database holds it (module docstring)."""

    id: str
    kind: str
    name: str
    ruleset: str
    created: float
    updated: float
    setup: dict[str, Any]
    status: dict[str, Any]
    position: dict[str, Any]
    version: int
    played: list[Move]  # the moves played, in order
    undone: list[Move]  # the moves taken back, the next to redo first


def summary(ident: str, kind: str, name: str, ruleset: str, created: float, updated: float,
            status: dict[str, Any], version: int, moves: int) -> dict[str, Any]:
    """A saved game as the list of games shows it (docs/web.md "Saved games")."""
    return {"id": ident, "kind": kind, "name": name, "ruleset": ruleset, "created": created, "updated": updated,
            "moves": moves, "version": version, **status}


def data_folder() -> Path:
    """The user's data folder for kanaloa: ``$XDG_DATA_HOME/kanaloa`` (``~/.local/share/kanaloa``) on Linux and
    the like, ``~/Library/Application Support/kanaloa`` on macOS, ``%APPDATA%\\kanaloa`` on Windows."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "kanaloa"


def default_path() -> Path:
    """The database ``kanaloa serve`` keeps its games in when no ``--db`` is given."""
    return data_folder() / "games.sqlite3"


def check_name(name: object) -> str:
    """A game's name as a request gives it: text of 1 to ``NAME_LIMIT`` characters once trimmed, on one line."""
    if not isinstance(name, str) or not name.strip():
        raise KanaloaError(f"name {_shown(name)}: must be text of 1 to {NAME_LIMIT} characters")
    if any(unicodedata.category(c) == "Cc" and not c.isspace() for c in name):
        raise KanaloaError(f"name {_shown(name)}: holds a control character; give printable text")
    text = " ".join(name.split())
    if len(text) > NAME_LIMIT:
        raise KanaloaError(f"name: {len(text)} characters; give at most {NAME_LIMIT}")
    return text


def _shown(value: object) -> str:
    return repr(value) if not isinstance(value, str) else repr(value[:40])


class Store:
    """The games of one database (module docstring)."""

    def __init__(self, path: str | os.PathLike[str] = MEMORY, wait: float = WAIT_SECONDS) -> None:
        self.path = str(path)
        self.lock = threading.Lock()
        if self.path != MEMORY:
            folder = Path(self.path).parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"--db {self.path}: cannot make its folder {folder} ({exc.strerror or exc})") from None
        try:
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=wait)
        except sqlite3.Error as exc:
            raise StoreError(f"--db {self.path}: cannot open it ({exc})") from None
        try:
            self.db.execute("PRAGMA foreign_keys = ON")
            if self.path != MEMORY:
                self._write_ahead(wait)
                self.db.execute("PRAGMA synchronous = FULL")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            self.db.close()
            raise StoreError(f"--db {self.path}: not a database of kanaloa's games ({exc})") from None
        except StoreError:
            self.db.close()
            raise

    def _write_ahead(self, wait: float) -> None:
        """Turn the write-ahead log on.  Another server opening the same new file at the same moment holds it
        briefly, and SQLite's own wait does not cover this: try again until ``wait`` runs out."""
        deadline = time.monotonic() + wait
        while True:
            try:
                self.db.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() >= deadline:
                    raise
                time.sleep(0.01)

    def close(self) -> None:
        with self.lock:
            self.db.close()

    # -- the schema ------------------------------------------------------------------------

    def _migrate(self) -> None:
        """Bring the schema up to date, the version read and the migrations run in one transaction (two servers
        starting at once on a new file: the second waits, then finds the schema made)."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(f"--db {self.path}: its games were saved by a newer kanaloa (schema {version}; "
                                 f"this one knows up to {SCHEMA_VERSION}); upgrade kanaloa or choose another --db")
            if version == 0 and self.db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]:
                raise StoreError(f"--db {self.path}: a database of something else (it has tables, and no kanaloa "
                                 f"schema); choose another --db")
            for number in range(version, SCHEMA_VERSION):
                for statement in _statements(MIGRATIONS[number]):
                    self.db.execute(statement)
            self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction, taken at once (``BEGIN IMMEDIATE``: no other server writes meanwhile), committed when
        the block ends and rolled back when it raises."""
        with self.lock, _unavailable(self.path):
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
                self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self.lock, _unavailable(self.path):
            yield self.db

    # -- games -----------------------------------------------------------------------------

    def create(self, kind: str, name: str, ruleset: str, setup: dict[str, Any], moves: Sequence[Move],
               position: dict[str, Any], status: dict[str, Any]) -> str:
        """A new game with the moves made so far (a Play game from a record has some); returns its id."""
        assert kind in KINDS
        ident = secrets.token_hex(8)
        now = time.time()
        with self._write() as db:
            db.execute("INSERT INTO games (id, kind, name, ruleset, created, updated, setup, status, position, "
                       "version, head) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)",
                       (ident, kind, check_name(name), ruleset, now, now, _dump(setup), _dump(status),
                        _dump(position), len(moves)))
            _insert(db, ident, 0, moves)
        return ident

    def version(self, ident: str) -> int | None:
        """The game's version now, or None when the database has no such game."""
        with self._read() as db:
            row = db.execute("SELECT version FROM games WHERE id = ?", (ident,)).fetchone()
        return None if row is None else int(row[0])

    def load(self, ident: str) -> Saved:
        """The game ``ident``.  Raises ``Missing``."""
        with self._read() as db:
            row = db.execute("SELECT id, kind, name, ruleset, created, updated, setup, status, position, "
                             "version, head FROM games WHERE id = ?", (ident,)).fetchone()
            if row is None:
                raise Missing(f"no saved game {ident!r}")
            moves = db.execute("SELECT ply, move, seat, words FROM moves WHERE game = ? ORDER BY ply",
                               (ident,)).fetchall()
        head = int(row[10])
        played = [Move(m, s, w) for ply, m, s, w in moves if ply < head]
        undone = [Move(m, s, w) for ply, m, s, w in moves if ply >= head]
        return Saved(row[0], row[1], row[2], row[3], row[4], row[5], json.loads(row[6]), json.loads(row[7]),
                     json.loads(row[8]), int(row[9]), played, undone)

    def record(self, ident: str, version: int, played: Sequence[Move], undone: Sequence[Move],
               position: dict[str, Any], status: dict[str, Any]) -> int:
        """Game ``ident`` now: its moves played, the moves taken back that a redo plays again (``undone``, the
        next first), and its position and status.  Only the rows from the first move that differs are written.
        Returns the new version.

        Raises ``Stale`` when the game's version is not ``version`` (another request or server changed it
        first), ``Missing`` when it is gone; nothing is written then.
        """
        wanted = [*played, *undone]
        with self._write() as db:
            row = db.execute("SELECT version FROM games WHERE id = ?", (ident,)).fetchone()
            if row is None:
                raise Missing(f"no saved game {ident!r}")
            if row[0] != version:
                raise Stale(f"this game has changed since this server read it (version {version}, now {row[0]}: "
                            f"another server moved first); reload it and try again")
            stored = db.execute("SELECT move, seat FROM moves WHERE game = ? ORDER BY ply", (ident,)).fetchall()
            same = 0
            while (same < len(stored) and same < len(wanted)
                   and tuple(stored[same]) == (wanted[same].move, wanted[same].seat)):
                same += 1
            db.execute("DELETE FROM moves WHERE game = ? AND ply >= ?", (ident, same))
            _insert(db, ident, same, wanted[same:])
            db.execute("UPDATE games SET version = version + 1, head = ?, updated = ?, position = ?, status = ? "
                       "WHERE id = ?", (len(played), time.time(), _dump(position), _dump(status), ident))
        return version + 1

    def rename(self, ident: str, name: object) -> dict[str, Any]:
        """Give game ``ident`` another name; returns its listing.  Raises ``Missing``, or ``KanaloaError`` for a
        bad name."""
        text = check_name(name)
        with self._write() as db:
            if db.execute("UPDATE games SET name = ? WHERE id = ?", (text, ident)).rowcount == 0:
                raise Missing(f"no saved game {ident!r}")
        return self.listing_of(ident)

    def delete(self, ident: str) -> None:
        """Delete game ``ident`` and its moves.  Raises ``Missing``."""
        with self._write() as db:
            if db.execute("DELETE FROM games WHERE id = ?", (ident,)).rowcount == 0:
                raise Missing(f"no saved game {ident!r}")

    def listing_of(self, ident: str) -> dict[str, Any]:
        for entry in self._listings("WHERE id = ?", (ident,)):
            return entry
        raise Missing(f"no saved game {ident!r}")

    def listing(self) -> list[dict[str, Any]]:
        """Every saved game, the last changed first."""
        return self._listings("", ())

    def _listings(self, where: str, args: tuple[Any, ...]) -> list[dict[str, Any]]:
        with self._read() as db:
            rows = db.execute(f"SELECT id, kind, name, ruleset, created, updated, status, version, head FROM "
                              f"games {where} ORDER BY updated DESC, id", args).fetchall()
        return [summary(i, k, n, r, c, u, json.loads(s), v, h) for i, k, n, r, c, u, s, v, h in rows]


@contextmanager
def _unavailable(path: str) -> Iterator[None]:
    """A database error of the moment (locked past the wait, I/O, a full disk) as ``Unavailable``."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        raise Unavailable(f"the games' database ({path}) cannot be used now ({exc}); nothing was changed, try "
                          f"again in a moment") from None


def _insert(db: sqlite3.Connection, ident: str, start: int, moves: Sequence[Move]) -> None:
    db.executemany("INSERT INTO moves (game, ply, move, seat, words) VALUES (?, ?, ?, ?, ?)",
                   [(ident, start + i, m.move, m.seat, m.words) for i, m in enumerate(moves)])


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


__all__ = ["MEMORY", "MIGRATIONS", "SCHEMA_VERSION", "Missing", "Move", "Saved", "Stale", "Store", "StoreError",
           "default_path"]
