"""Bot-vs-bot tournaments: the schedule, the game runner, parallel runs and game records.

A *tournament* seats a *lineup* of bot specs (``greedy,random,random,random``:
one spec per seat, so the lineup's length is the number of players, 2, 3 or
4; with 2, each plays two colors, R15)
at many games on the compiled core, and sums up how each bot did
(``kanaloa.play.stats``).

**Rotations.**  Games come in *deals*.  A deal is one shuffle of the cards,
fixed by its deal seed, and it is played once for every rotation of the
lineup: in rotation ``r`` the lineup's bot ``i`` sits in seat
``(i + r) mod players``.  Card luck and seat order so cancel out, and every bot
sits in every seat equally often.  The number of games must therefore be a
multiple of the number of players (``games = deals * players``); anything
else is refused rather than silently rounded, so the tournament plays exactly
the games asked for.  Game ``g`` is deal ``g // players``, rotation
``g % players``.

**Seeds.**  Everything random flows from the tournament seed and a game's
index, never from the process or machine that plays it, so any number of
workers (or a cluster) gives the same games:

- the deal seed of deal ``d`` is output ``d`` (counting from 0) of the
  SplitMix64 stream seeded with the tournament seed; it is exactly what
  ``kanaloa new --seed`` takes, so a deal can be dealt again by hand;
- the bot in seat ``s`` of game ``g`` is started (``Bot.start``) with output
  ``4 * g + s`` of the SplitMix64 stream seeded with the tournament seed XOR
  ``BOT_SALT``.  Its spec's own ``seed`` option is mixed in by the bot.
  Bots are built afresh for every game, so no state crosses games.

Bots with a time budget (``ismcts:time=S``) play as far as the clock lets
them: their games depend on the machine's load and do not repeat.

**Identical specs** in a lineup are one row of the summary (see
``kanaloa.play.stats``): ``greedy,random,random,random`` gives ``greedy`` with
``games`` = the number of games and ``random`` with three times as many
player-games and ``copies`` = 3.

**Records** (``--out FILE``): one JSON object per line and per game, in game
order (after an interruption the finished games are still written in order,
possibly with gaps)::

    {"format": "kanaloa-game/1", "game": 5, "deal": 1, "rotation": 1,
     "board": "oro", "players": 4, "preset": "yucata", "seed": 1234,
     "colors": ["red", "green", "blue", "yellow"],
     "lineup": ["random", "greedy", "random", "random"],
     "bot_seeds": [..4 ints..], "moves": ["reveal ALOA", ...], "length": 171,
     "scores": [31, 40, 22, 18], "ranks": [2, 1, 3, 4], "winner": 1,
     "reason": "points"}

``seed`` is the deal seed; ``lineup``, ``bot_seeds``, ``scores`` and
``ranks`` (1 = best) are by seat, ``colors[s]`` is seat ``s``'s color and
``winner`` a seat; ``deal`` and ``rotation`` are ``game // players`` and
``game % players``; ``moves`` lists every move in notation (README.md "Move
notation") from the deal on, ``length`` counts them; ``reason`` is
``points`` (R12) or ``eleven islands`` (R8).

A 2-player game (R15) is played with the default colors (seat 0 red and
blue, seat 1 green and yellow): ``colors`` names the players by their first
colors, every build in ``moves`` names its color, a seat's ``scores`` entry
is the points of its weaker color (the first entry of its R15.5 pair, which
ranks the players first), and the record adds ``color_scores``, the points
of every color, player by player::

    "color_scores": {"red": 31, "blue": 3, "green": 0, "yellow": 5}

A Kahuna game (R16, ``make_tournament(..., game="kahuna")``: two bots, the
``kahuna`` board by default) is recorded with ``"ruleset": "kahuna"`` (the
key is absent for Kanaloa), ``colors`` white and black, ``reason`` ``points``
or ``no bridges`` (R16.8), and ``winner`` ``null`` when the final scoring's
tie-breaks leave the game without a winner (R16.7).

``kanaloa new --seed SEED --players PLAYERS --preset PRESET --board BOARD``
(with ``--game kahuna`` for Kahuna) deals the game again, and playing ``moves`` on it
(``kanaloa play - --moves-file RECORD``, ``kanaloa replay FILE --game N``,
or ``replay`` here) reproduces the final position exactly;
``read_records`` reads such a file one line at a time, and refuses a line
that is no such record, naming the field.

**Running.**  ``run_tournament`` plays the games in this process
(``workers=1``), in a pool of worker processes, or on a Dask distributed
cluster (``scheduler=ADDRESS``, needs the ``cluster`` extra and ``kanaloa``
installed on every worker).  The run streams: game indexes come from
``schedule``, an iterator, and are handed out as workers have room; each
finished game is added to running totals (``Totals``) and passed on, so
memory does not grow with the number of games (a run of 4,000,000,000,000
starts at once).  The totals are exact integer sums, so the summary does not
depend on the order in which games finish, and ``RecordWriter`` puts the
records back in game order.
Ctrl-C stops the run: worker processes are terminated (they ignore the
interrupt themselves, so none prints a traceback), cluster tasks cancelled,
and the games finished so far are returned with ``interrupted`` set.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

from ..errors import MAX_INPUT_BYTES, PATH_LIMIT, MoveError, OptionError, brief, quote, shorten, too_large
from ..position.notation import COLORS, Move
from ..rules.board import Board, load_board
from ..rules.engine import Engine
from ..rules.reference import seat_standing
from ..rules.rng import MASK64, SplitMix64
from ..rules.ruleset import KAHUNA_COLORS, ruleset_for_state
from ..rules.state import (
    GAME_KAHUNA,
    GAME_KANALOA,
    GAMES,
    GODS_ISLANDS,
    KAHUNA_DEAL,
    KAHUNA_FACE_UP,
    PRESET_YUCATA,
    PRESETS,
    REASON_NAMES,
    TWO_PLAYERS,
    n_colors,
)
from .bots import parse_bot_spec
from .stats import BotStats, BotTable, SeatOutcome, format_table

if TYPE_CHECKING:
    from ..position.api import Position


def game_colors(game: int) -> tuple[str, ...]:  # (until the play layer asks the rule set)
    return KAHUNA_COLORS if game == GAME_KAHUNA else COLORS


def color_order(players: int, game: int = GAME_KANALOA) -> list[int]:
    return [c for s in range(players) for c in (s, s + players)] if players == TWO_PLAYERS and game == GAME_KANALOA \
        else list(range(players))

RECORD_FORMAT = "kanaloa-game/1"
BOT_SALT = 0xD1B54A32D192ED03  # separates the bots' seed stream from the deal stream
SEED_STRIDE = 4  # bot seeds per game: one per seat of the largest table (games seat 2, 3 or 4 players)
MAX_MOVES = 100_000  # far beyond any real game (a few hundred moves); a guard against a looping bot
PLAYER_COUNTS = (2, 3, 4)
SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss")  # how a Dask scheduler is reached over a network


# -- the schedule -----------------------------------------------------------------


def stream_output(seed: int, index: int) -> int:
    """Output ``index`` (from 0) of the SplitMix64 stream seeded with ``seed``, in O(1)."""
    return SplitMix64((seed + index * 0x9E3779B97F4A7C15) & MASK64).next()


class _Seats:
    """What a tournament and a game record both say of their seats."""

    if TYPE_CHECKING:
        @property
        def players(self) -> int: ...

        @property
        def game_code(self) -> int: ...

    @property
    def colors(self) -> tuple[str, ...]:
        """Each seat's color (with two players, its first color: the player's name; Kahuna: white, black)."""
        return game_colors(self.game_code)[: self.players]

    @property
    def two_colors(self) -> bool:
        """Whether every seat plays two colors (2 players of Kanaloa, R15)."""
        return self.players == TWO_PLAYERS and self.game_code == GAME_KANALOA


@dataclass(frozen=True)
class Tournament(_Seats):
    """What a tournament plays: the lineup (one spec per seat), games, seed, preset, board.

    Build it with ``make_tournament``, which checks everything; the methods
    below trust it.
    """

    lineup: tuple[str, ...]
    games: int
    seed: int
    preset: str = "yucata"
    board: Board = field(default_factory=lambda: load_board("oro"))
    game: str = "kanaloa"  # or "kahuna" (R16)
    gods: bool = False  # Might of the Gods (R14)

    @property
    def players(self) -> int:
        return len(self.lineup)

    @property
    def game_code(self) -> int:
        return GAMES[self.game]

    @property
    def deals(self) -> int:
        return self.games // self.players

    def deal_of(self, game: int) -> int:
        return game // self.players

    def rotation_of(self, game: int) -> int:
        return game % self.players

    def seating(self, game: int) -> tuple[str, ...]:
        """The spec in each seat of ``game``: lineup bot ``i`` sits in seat ``(i + rotation) mod players``."""
        r = self.rotation_of(game)
        p = self.players
        return tuple(self.lineup[(seat - r) % p] for seat in range(p))

    def deal_seed(self, game: int) -> int:
        """The seed that deals ``game`` (shared by the rotations of one deal)."""
        return stream_output(self.seed, self.deal_of(game))

    def bot_seeds(self, game: int) -> tuple[int, ...]:
        """The seed each seat's bot starts ``game`` with."""
        base = self.seed ^ BOT_SALT
        return tuple(stream_output(base, SEED_STRIDE * game + seat) for seat in range(self.players))


def make_tournament(bots: Sequence[str], games: int, seed: int, preset: str = "yucata",
                    board: str | Board | None = None, players: int | None = None,
                    game: str = "kanaloa", gods: bool = False) -> Tournament:
    """A checked ``Tournament``.

    Raises ``OptionError`` naming the option (``--bots``, ``--games``, ...)
    for a bad spec, a lineup that is not 2, 3 or 4 bots long (or disagrees with
    ``players``), a number of games that is not a positive multiple of the
    number of players, a bad seed or preset, a Kahuna lineup of other than two
    bots or with the tabletop preset (R16); ``BoardError`` for a bad board.
    ``board`` defaults to the game's own (``oro``, or ``kahuna``).
    """
    if game not in GAMES:
        raise OptionError(f"--game {brief(game)}: unknown; choose one of {', '.join(GAMES)}")
    specs = [s.strip() for s in bots]
    given = ",".join(bots)
    if not specs or any(not s for s in specs):
        raise OptionError(f"--bots {quote(given)}: expected comma-separated bot specs, one per seat, with none empty")
    for spec in specs:
        parse_bot_spec(spec)  # raises OptionError naming the spec and the bad part
    if game == "kahuna" and players is not None and players != TWO_PLAYERS:
        raise OptionError(f"--players {players}: Kahuna is a game for 2 players (R16.1)")
    if game == "kahuna" and len(specs) != TWO_PLAYERS:
        raise OptionError(f"--bots {quote(given)}: {len(specs)} bot(s); Kahuna is a game for 2 players (R16.1), so "
                          f"give two specs (repeat a spec to seat it twice)")
    if players is not None and players != len(specs):
        raise OptionError(f"--players {players}: --bots names {len(specs)} bots; the lineup has one bot per seat, "
                          f"so give {players} specs (repeat a spec to seat it more than once)")
    if len(specs) not in PLAYER_COUNTS:
        raise OptionError(f"--bots {quote(given)}: {len(specs)} bot(s); the game seats 2, 3 or 4 players, one bot per "
                          f"seat (repeat a spec to seat it more than once)")
    p = len(specs)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise OptionError(f"--games {brief(games)}: must be a positive whole number")
    if games % p:
        low, high = games - games % p, games - games % p + p
        hint = f"{low} or {high}" if low else f"{high}"
        raise OptionError(f"--games {games}: must be a multiple of {p}, the number of seats, so that every deal "
                          f"is played in every seat rotation; try {hint}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
        raise OptionError(f"--seed {brief(seed)}: must be an integer from 0 to 2**64-1")
    if preset not in PRESETS:
        raise OptionError(f"--preset {brief(preset)}: unknown; choose one of {', '.join(PRESETS)}")
    if game == "kahuna" and PRESETS[preset] != PRESET_YUCATA:
        raise OptionError(f"--preset {preset}: Kahuna has no presets; its 25 bridges per player are fixed (R16.1, "
                          f"R16.9)")
    if board is None:
        board = game if game == "kahuna" else "oro"
    bd = board if isinstance(board, Board) else load_board(board)
    try:
        from ..rules.core import core_board

        core_board(bd)
    except ValueError as exc:
        raise OptionError(f"--board {quote(bd.source, PATH_LIMIT)}: the compiled core cannot play it ({exc})") from None
    if game == "kahuna":
        from ..rules.core import CoreState

        if bd.n_cards < 2 * KAHUNA_DEAL + KAHUNA_FACE_UP:
            raise OptionError(f"--board {quote(bd.source, PATH_LIMIT)}: Kahuna deals 3 cards to each player and turns "
                              f"3 face-up (R16.2), so it needs at least 9 cards; this board has {bd.n_cards}")
        CoreState.deal(core_board(bd), TWO_PLAYERS, PRESET_YUCATA, 0, game=GAME_KAHUNA)
    if gods:
        if game == "kahuna":
            raise OptionError("--gods: Might of the Gods is a variant of Kanaloa, not of Kahuna (R16.9)")
        if bd.n_islands != GODS_ISLANDS:
            raise OptionError(f"--gods: the variant puts one god token on each of {GODS_ISLANDS} islands (R14.1); "
                              f"board {quote(bd.source, PATH_LIMIT)} has {bd.n_islands}")
    return Tournament(tuple(specs), games, seed, preset, bd, game, bool(gods))


def schedule(t: Tournament, first: int = 0) -> Iterator[int]:
    """The indexes of the games of ``t`` from ``first`` on, in order, made one at a time.

    Nothing is built ahead: a tournament of 4,000,000,000,000 games starts
    as fast as one of four, and the runners take games from this iterator
    as they have room for them.
    """
    return iter(range(first, t.games))


def time_budgeted(spec: str) -> bool:
    """True when the bot of ``spec`` thinks for a time rather than a number of iterations."""
    return getattr(parse_bot_spec(spec), "seconds", None) is not None


# -- one game -----------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord(_Seats):
    """One finished game: how it was set up, every move, and the result (see the module docstring)."""

    game: int
    deal: int
    rotation: int
    board: str
    players: int
    preset: str
    seed: int
    lineup: tuple[str, ...]
    bot_seeds: tuple[int, ...]
    moves: tuple[str, ...]
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winner: int
    reason: str
    color_scores: tuple[int, ...] = ()  # 2 players: the points of every color, by color index
    ruleset: str = "kanaloa"  # or "kahuna" (R16)
    gods: bool = False  # Might of the Gods (R14)

    @property
    def game_code(self) -> int:
        return GAMES[self.ruleset]

    @property
    def length(self) -> int:
        return len(self.moves)

    def outcomes(self) -> list[SeatOutcome]:
        """One ``SeatOutcome`` per seat, for the statistics."""
        return [
            SeatOutcome(spec, seat, self.scores[seat], self.ranks[seat], seat == self.winner)
            for seat, spec in enumerate(self.lineup)
        ]

    def to_json(self) -> dict:
        doc = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "deal": self.deal,
            "rotation": self.rotation,
            "board": self.board,
            "players": self.players,
            "preset": self.preset,
            "seed": self.seed,
            "colors": list(self.colors),
            "lineup": list(self.lineup),
            "bot_seeds": list(self.bot_seeds),
            "moves": list(self.moves),
            "length": self.length,
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winner": self.winner if self.winner >= 0 else None,
            "reason": self.reason,
        }
        if self.two_colors:
            doc["color_scores"] = {COLORS[c]: self.color_scores[c] for c in color_order(self.players)}
        if self.ruleset != "kanaloa":
            doc["ruleset"] = self.ruleset
        if self.gods:
            doc["gods"] = True
        return doc

    def dumps(self) -> str:
        """The record as one line of JSON (no newline)."""
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, obj: dict | str, where: str = "game record") -> GameRecord:
        """Read a record written by ``to_json``/``dumps``.

        Raises ``OptionError`` if it is not one, naming ``where`` (for
        example ``RECORDS 'games.jsonl' line 3``), the field and why.
        """
        if isinstance(obj, str):
            try:
                obj = json.loads(obj)
            except json.JSONDecodeError as exc:
                raise OptionError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno}); "
                                  f"{_ONE_PER_LINE}") from None
            except (RecursionError, ValueError) as exc:  # nested too deeply, a number too long
                raise OptionError(f"{where}: not valid JSON ({' '.join(str(exc).split())[:80]}); "
                                  f"{_ONE_PER_LINE}") from None
        if not isinstance(obj, dict) or obj.get("format") != RECORD_FORMAT:
            raise OptionError(f"{where}: not a game record (a JSON object with \"format\": \"{RECORD_FORMAT}\"); "
                              f"{_ONE_PER_LINE}")
        missing = [key for key in _RECORD_FIELDS if key not in obj]
        if missing:
            raise OptionError(f"{where}: missing field {missing[0]!r}")
        ruleset = obj.get("ruleset", "kanaloa")
        if ruleset not in GAMES:
            raise OptionError(f"{where}: field 'ruleset' must be one of {', '.join(GAMES)}, not {_brief(ruleset)}")
        kahuna = ruleset == "kahuna"
        gods = obj.get("gods", False)
        if gods is not True and gods is not False:
            raise OptionError(f"{where}: field 'gods' must be true or false, not {_brief(gods)}")
        if gods and kahuna:
            raise OptionError(f"{where}: field 'gods' is true in a Kahuna game; the gods are a variant of Kanaloa "
                              f"(R16.9)")
        for key, kind in _RECORD_FIELDS.items():
            value = obj[key]
            if key == "winner" and value is None and kahuna:
                continue  # R16.7: a Kahuna game may end without a winner
            if kind is list:
                item = str if key in ("colors", "lineup", "moves") else int
                good = isinstance(value, list) and all(_is(x, item) for x in value)
            else:
                good = _is(value, kind)
            if not good:
                what = f"a list of {_RECORD_ITEMS[key]}" if kind is list else {int: "a whole number", str: "text"}[kind]
                raise OptionError(f"{where}: field {key!r} must be {what}, not {_brief(value)}")
        players = obj["players"]
        if players not in PLAYER_COUNTS:
            raise OptionError(f"{where}: field 'players' must be 2, 3 or 4, not {_brief(players)}")
        if kahuna and players != TWO_PLAYERS:
            raise OptionError(f"{where}: field 'players' must be 2 in a Kahuna game (R16.1), not {_brief(players)}")
        for key in ("lineup", "bot_seeds", "scores", "ranks"):
            if len(obj[key]) != players:
                raise OptionError(f"{where}: field {key!r} must have one entry per seat ({players}), "
                                  f"not {len(obj[key])}")
        game = GAMES[ruleset]
        _check_seats(obj, players, where, game)
        winner = -1 if obj["winner"] is None else obj["winner"]
        if obj["winner"] is not None and not 0 <= winner < players:
            raise OptionError(f"{where}: field 'winner' must be a seat from 0 to {players - 1}"
                              + (" or null (no winner, R16.7)" if kahuna else ""))
        if not 0 <= obj["seed"] <= MASK64:
            raise OptionError(f"{where}: field 'seed' must be from 0 to 2**64-1, not {_brief(obj['seed'])}")
        if obj["preset"] not in PRESETS:
            raise OptionError(f"{where}: field 'preset' must be one of {', '.join(PRESETS)}, "
                              f"not {_brief(obj['preset'])}")
        reasons = _REASONS[game]
        if obj["reason"] not in reasons:
            raise OptionError(f"{where}: field 'reason' must be one of {', '.join(reasons)}, "
                              f"not {_brief(obj['reason'])}")
        if winner < 0 and obj["reason"] != "points":
            raise OptionError(f"{where}: field 'winner' is null, which only a final scoring can leave (R16.7), "
                              f"but 'reason' is {_brief(obj['reason'])}")
        color_scores = _color_scores(obj, players, where, game)
        return cls(
            game=obj["game"], deal=obj["deal"], rotation=obj["rotation"], board=obj["board"],
            players=players, preset=obj["preset"], seed=obj["seed"], lineup=tuple(obj["lineup"]),
            bot_seeds=tuple(obj["bot_seeds"]), moves=tuple(obj["moves"]), scores=tuple(obj["scores"]),
            ranks=tuple(obj["ranks"]), winner=winner, reason=obj["reason"], color_scores=color_scores,
            ruleset=ruleset, gods=gods,
        )

    def new_command(self) -> str:
        """The ``kanaloa new`` command that deals this game again."""
        if self.ruleset != "kanaloa":
            return f"kanaloa new --game {self.ruleset} --seed {self.seed} --board {self.board}"
        return (f"kanaloa new --seed {self.seed} --players {self.players} --preset {self.preset} "
                f"--board {self.board}" + (" --gods" if self.gods else ""))


_ONE_PER_LINE = "expected one game record per line, as 'kanaloa simulate --out' writes them"


def _check_seats(obj: dict, players: int, where: str, ruleset: int = GAME_KANALOA) -> None:
    """A record's ``game``, ``deal``, ``rotation`` and ``colors`` agree with each other and ``players``:
    game ``g`` is deal ``g // players`` in rotation ``g % players``, played with the default colors."""
    game = obj["game"]
    if game < 0:
        raise OptionError(f"{where}: field 'game' must be 0 or more, not {shorten(str(game))}")
    for key, value, how in (("deal", game // players, "//"), ("rotation", game % players, "%")):
        if obj[key] != value:
            raise OptionError(f"{where}: field {key!r} must be {shorten(str(value))} for game {shorten(str(game))} of "
                              f"{players} players (game {how} players), not {_brief(obj[key])}")
    colors = list(game_colors(ruleset)[:players])
    if obj["colors"] != colors:
        raise OptionError(f"{where}: field 'colors' must be {_brief(colors)} (each seat's color in a {players}-player "
                          f"game), not {_brief(obj['colors'])}")


def _color_scores(obj: dict, players: int, where: str, game: int = GAME_KANALOA) -> tuple[int, ...]:
    """A 2-player record's ``color_scores`` by color index (R15); ``()`` for 3 or 4 players and for Kahuna,
    which have none."""
    if players != TWO_PLAYERS or game == GAME_KAHUNA:
        if "color_scores" in obj:
            which = ("Kahuna games have one color per player" if game == GAME_KAHUNA
                     else f"this one has {players} players")
            raise OptionError(f"{where}: field 'color_scores' belongs to 2-player games of Kanaloa; {which}")
        return ()
    value = obj.get("color_scores")
    colors = COLORS[: n_colors(players)]
    if value is None:
        raise OptionError(f"{where}: missing field 'color_scores' (a 2-player game gives every color's points)")
    if (not isinstance(value, dict) or sorted(value) != sorted(colors)
            or not all(_is(v, int) for v in value.values())):
        raise OptionError(f"{where}: field 'color_scores' must give the points of each of {', '.join(colors)}, "
                          f"not {_brief(value)}")
    return tuple(value[c] for c in colors)

# The fields a record must have, and of which JSON type (lists: see _RECORD_ITEMS).
_RECORD_FIELDS: dict[str, type] = {
    "game": int, "deal": int, "rotation": int, "board": str, "players": int, "preset": str, "seed": int,
    "colors": list, "lineup": list, "bot_seeds": list, "moves": list, "scores": list, "ranks": list, "winner": int,
    "reason": str,
}
# The reasons a game of each rule set may end for.
_REASONS = {GAME_KANALOA: ("points", "eleven islands"), GAME_KAHUNA: ("points", "no bridges")}
_RECORD_ITEMS = {"colors": "colors (text)", "lineup": "bot specs", "bot_seeds": "whole numbers",
                 "moves": "moves (text)", "scores": "whole numbers", "ranks": "whole numbers"}


def _is(value: object, kind: type) -> bool:
    """``value`` is of JSON type ``kind`` (a bool is no whole number)."""
    return isinstance(value, kind) and not isinstance(value, bool)


def _brief(value: object) -> str:
    """A field's value for a message, as JSON (the file is JSON), cut short when long."""
    return shorten(json.dumps(value))


def read_records(stream: IO[bytes], where: str) -> Iterator[GameRecord]:
    """The records of a ``simulate --out`` file, one per line, read one line at a time.

    Blank lines are skipped.  A line longer than ``MAX_INPUT_BYTES`` is
    refused without reading it whole.  Raises ``OptionError`` naming
    ``where`` and the line for anything that is not a record.
    """
    number = 0
    while True:
        line = stream.readline(MAX_INPUT_BYTES + 1)
        if not line:
            return
        number += 1
        at = f"{where} line {number}"
        if len(line) > MAX_INPUT_BYTES:
            raise OptionError(too_large(at, "one game record per line"))
        try:
            text = line.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            raise OptionError(f"{at}: not UTF-8 text (byte {exc.start})") from None
        if text.strip():
            yield GameRecord.from_json(text, at)


# Equal boards share one object per process, so the core's tables (cached per
# board object) are built once even when every task brings its own pickled copy.
_BOARDS: dict[Board, Board] = {}


def _shared_board(board: Board) -> Board:
    return _BOARDS.setdefault(board, board)


def play_seated_game(board: Board, preset: str, deal_seed: int, seating: Sequence[str],
                     bot_seeds: Sequence[int], movers: list[int] | None = None, game: int = GAME_KANALOA,
                     gods: bool = False):
    """Play one game on the compiled core; returns ``(actions, final_state)``.

    ``seating[s]`` is the spec of seat ``s``'s bot, started with
    ``bot_seeds[s]``; ``len(seating)`` is the number of players; ``game``
    is Kanaloa or Kahuna (R16).  Every
    move a bot chooses is checked against the legal moves (``apply`` itself
    trusts its input); an illegal choice raises ``RuntimeError`` naming the
    bot.  ``movers``, when given, receives the seat that made each move.
    """
    from ..rules.core import CoreState, core_board

    board = _shared_board(board)
    state = CoreState.deal(core_board(board), len(seating), PRESETS[preset], deal_seed, game=game, gods=gods)
    rules = ruleset_for_state(board, state.to_data())
    bots = [parse_bot_spec(spec) for spec in seating]
    for bot, seed in zip(bots, bot_seeds, strict=True):
        bot.start(rules, seed)
    actions: list[int] = []
    while not state.is_over:
        bot = bots[state.to_move]
        action = bot.choose(state)
        if action not in state.legal_actions():
            raise RuntimeError(f"bot {quote(bot.spec)} in seat {state.to_move} chose illegal action {action}")
        if movers is not None:
            movers.append(state.to_move)
        state.apply(action)
        actions.append(action)
        if len(actions) > MAX_MOVES:
            raise RuntimeError(f"game did not end within {MAX_MOVES} moves (deal seed {deal_seed})")
    return actions, state


def play_game(tournament: Tournament, game: int) -> GameRecord:
    """Play game ``game`` of ``tournament`` and return its record.

    The result depends only on the tournament and ``game`` (see *Seeds* in
    the module docstring), wherever it runs.
    """
    t = tournament
    seating = t.seating(game)
    bot_seeds = t.bot_seeds(game)
    deal_seed = t.deal_seed(game)
    movers: list[int] = []
    actions, state = play_seated_game(t.board, t.preset, deal_seed, seating, bot_seeds, movers, t.game_code, t.gods)
    data = state.to_data()
    ranks = [0] * t.players
    for place, seat in enumerate(data.ranking):  # R12 (or R8, R15.5, R16.7): best first
        ranks[seat] = place + 1
    rs = ruleset_for_state(t.board, data)
    two = t.two_colors
    # a seat's points: its color's, or with two colors each its weaker color's (the first of its pair, R15.5)
    scores = tuple(seat_standing(data.scores, seat, t.players)[0] if two else data.scores[seat]
                   for seat in range(t.players))
    return GameRecord(
        game=game, deal=t.deal_of(game), rotation=t.rotation_of(game), board=t.board.source,
        players=t.players, preset=t.preset, seed=deal_seed, lineup=seating, bot_seeds=bot_seeds,
        moves=tuple(str(Move.from_action(a, rs, seat)) for a, seat in zip(actions, movers, strict=True)),
        scores=scores, ranks=tuple(ranks), winner=data.winner, reason=REASON_NAMES[data.reason],
        color_scores=tuple(data.scores) if two else (), ruleset=t.game, gods=t.gods,
    )


def replay(record: GameRecord | dict | str, engine: Engine | None = None, at: int | None = None,
           board: Board | None = None) -> Position:
    """The ``Position`` of a recorded game: dealt again from its seed, its moves played (checked).

    Every move is played, or the first ``at`` of them (``at=0``: the deal).
    ``board`` is the board to deal on; by default the one the record names
    (``load_board``).
    Raises ``OptionError`` for an ``at`` beyond the game's length, and
    ``MoveError`` naming the move's number if a move does not fit (the record
    does not belong to this deal or these rules).
    """
    from ..position.api import Position

    rec = record if isinstance(record, GameRecord) else GameRecord.from_json(record)
    if at is not None and not 0 <= at <= rec.length:
        raise OptionError(f"--at {at}: game {rec.game} has {rec.length} moves; give 0 (the deal) to {rec.length}")
    pos = Position.new(players=rec.players, seed=rec.seed, preset=rec.preset,
                       board=rec.board if board is None else board, engine=engine, game=rec.ruleset,
                       gods=rec.gods)
    for number, move in enumerate(rec.moves[:at], start=1):
        try:
            pos.play(move)
        except MoveError as exc:
            raise MoveError(f"game {rec.game}, move {number} of {rec.length}: {exc}") from None
    return pos


# -- running many games ---------------------------------------------------------------


def default_workers() -> int:
    """The CPU cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def _serial(t: Tournament, games: Iterable[int]) -> Generator[GameRecord, None, None]:
    for g in games:
        yield play_game(t, g)


_WORKER_TOURNAMENT: Tournament | None = None


def _worker_init(t: Tournament) -> None:
    # The parent handles Ctrl-C and terminates the pool; a worker that also
    # took the interrupt would print a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _WORKER_TOURNAMENT
    _WORKER_TOURNAMENT = t


def _worker_game(game: int) -> GameRecord:
    if _WORKER_TOURNAMENT is None:  # pragma: no cover - the pool's initializer always runs first
        raise RuntimeError("worker process started without its tournament")
    return play_game(_WORKER_TOURNAMENT, game)


def _pool(t: Tournament, games: Iterator[int], workers: int) -> Generator[GameRecord, None, None]:
    import multiprocessing

    pool = multiprocessing.get_context().Pool(min(workers, t.games), _worker_init, (t,))
    try:
        # The pool takes games from the iterator only as its task pipe has room: a bounded window.
        yield from pool.imap_unordered(_worker_game, games, chunksize=1)
        pool.close()
    finally:
        pool.terminate()  # on an interrupt or an error: stop every game in flight now
        pool.join()


def check_scheduler(address: object) -> None:
    """Check, without connecting, that Dask is installed and ``address`` reads as a scheduler's address.

    The address is ``[SCHEME://]HOST:PORT`` with a scheme of
    ``SCHEDULER_SCHEMES`` (``tcp`` when none is given).

    Raises ``OptionError`` naming ``--scheduler`` otherwise.  An address
    that is not text (a cluster object) is left to ``distributed.Client``.
    """
    try:
        from distributed.comm.addressing import get_address_host_port, parse_address
    except ImportError:
        raise OptionError("--scheduler: Dask is not installed; install the cluster extra: "
                          "pip install 'kanaloa[cluster]'") from None
    if not isinstance(address, str):
        return
    where = f"--scheduler {quote(address)}"
    expected = "expected [SCHEME://]HOST:PORT with a SCHEME of tcp (the default), tls, ws or wss, e.g. tcp://host:8786"
    if not address.strip():
        raise OptionError(f"{where}: empty; {expected}")
    try:
        scheme, _ = parse_address(address)
        if scheme not in SCHEDULER_SCHEMES:
            raise ValueError(f"unknown scheme {quote(scheme)}")
        _, port = get_address_host_port(address)
        if not 0 < port < 65536:
            raise ValueError(f"port {port} is not within 1 to 65535")
    except (ValueError, TypeError) as exc:
        raise OptionError(f"{where}: not a scheduler's address ({exc}); {expected}") from None
    if scheme in ("tls", "wss"):
        from distributed.security import Security

        if Security().get_connection_args("client").get("ssl_context") is None:
            raise OptionError(f"{where}: {scheme}:// needs the TLS settings of the Dask configuration "
                              f"(distributed.comm.tls), and none are set")


def _dask(t: Tournament, games: Iterator[int], address: Any) -> Generator[GameRecord, None, None]:
    check_scheduler(address)  # a Client that fails half-built reports errors of its own when collected
    from distributed import Client, as_completed

    try:
        client = Client(address, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise OptionError(f"--scheduler {quote(str(address))}: cannot connect to a Dask scheduler there "
                          f"({exc})") from None
    in_flight: set = set()
    try:
        threads = sum(client.nthreads().values()) or 1
        # A bounded window of games in flight: the scheduler is not flooded, an interrupt has
        # little to cancel, and nothing is kept of the games already passed on.
        first = [client.submit(play_game, t, g, pure=False) for g in _take(games, 4 * threads)]
        in_flight.update(first)
        running = as_completed(first, loop=client.loop)
        for future in running:
            in_flight.discard(future)
            yield future.result()
            for g in _take(games, 1):
                nxt = client.submit(play_game, t, g, pure=False)
                in_flight.add(nxt)
                running.add(nxt)
    finally:
        client.cancel(list(in_flight))
        client.close()


def _take(it: Iterator[int], n: int) -> list[int]:
    out: list[int] = []
    for _ in range(n):
        try:
            out.append(next(it))
        except StopIteration:
            break
    return out


class Totals:
    """What a run adds up as its games stream by: the per-bot table, games, moves, how games ended.

    Its size does not grow with the number of games, and every sum is an
    exact integer, so the totals do not depend on the order games finish in.
    """

    def __init__(self, t: Tournament) -> None:
        self.table = BotTable(t.lineup, t.players)
        self.games = 0
        self.moves = 0
        self.reasons = {name: 0 for name in _REASONS[t.game_code]}
        self.no_winner = 0  # Kahuna (R16.7): games the final scoring's tie-breaks left without a winner

    def add(self, record: GameRecord) -> None:
        """Count one finished game."""
        for outcome in record.outcomes():
            self.table.add(outcome)
        self.games += 1
        self.moves += record.length
        self.reasons[record.reason] += 1
        self.no_winner += record.winner < 0


@dataclass
class TournamentRun:
    """What ``run_tournament`` returns: the totals of the finished games, their records if kept, the figures.

    ``records`` lists the finished games' records by game index when the run
    kept them (``keep_records``), and is empty otherwise; the summary comes
    from ``totals`` either way.
    """

    tournament: Tournament
    records: list[GameRecord]
    interrupted: bool
    seconds: float
    workers: int
    scheduler: str | None = None
    totals: Totals | None = None  # built from ``records`` when not given

    def __post_init__(self) -> None:
        if self.totals is None:
            self.totals = Totals(self.tournament)
            for record in self.records:
                self.totals.add(record)

    @property
    def _totals(self) -> Totals:
        assert self.totals is not None  # set by __post_init__
        return self.totals

    @property
    def games(self) -> int:
        """How many games finished."""
        return self._totals.games

    def table(self) -> list[BotStats]:
        """The per-bot statistics of the finished games."""
        return self._totals.table.rows()

    def reasons(self) -> dict[str, int]:
        """How many games ended by points (R12) and by eleven islands (R8); in Kahuna by points and by a
        player left without bridges (R16.8)."""
        return dict(self._totals.reasons)

    def to_json(self) -> dict:
        """The ``simulate --json`` document (docs/commands.md, "simulate --json")."""
        t = self.tournament
        return {
            "games": self.games,
            "bots": [row.to_json(t.colors) for row in self.table()],
            "planned": t.games,
            "interrupted": self.interrupted,
            "seed": t.seed,
            "players": t.players,
            "preset": t.preset,
            "board": t.board.source,
            "lineup": list(t.lineup),
            "colors": list(t.colors),
            "deals": t.deals,
            "reasons": self.reasons(),
            "game": t.game,
            "gods": t.gods,
            "no_winner": self._totals.no_winner,
            "mean_moves": (self._totals.moves / self.games) if self.games else 0.0,
            "seconds": self.seconds,
            "workers": self.workers,
            "scheduler": self.scheduler,
        }

    def summary(self) -> str:
        """The summary for people: what was played, how fast, then the per-bot table."""
        t = self.tournament
        where = f"Dask scheduler {self.scheduler}" if self.scheduler else _count(self.workers, "worker")
        rate = self.games / self.seconds if self.seconds > 0 else 0.0
        reasons = self.reasons()
        lines = []
        if self.interrupted:
            lines.append(f"interrupted: {self.games} of {t.games} games finished "
                         f"(the last deals may lack some seat rotations)")
        if t.game == "kahuna":
            lines.append(f"{t.games} Kahuna games: {_count(t.deals, 'deal')} x {t.players} seat rotations, "
                         f"seed {t.seed}, board {t.board.source}")
            lines.append(f"{where}, {self.seconds:.1f} s, {rate:.2f} games/s; ended by the final scoring (R16.7) "
                         f"{reasons['points']} (no winner {self._totals.no_winner}), by a player left without "
                         f"bridges (R16.8) {reasons['no bridges']}")
        else:
            lines.append(f"{t.games} games: {_count(t.deals, 'deal')} x {t.players} seat rotations, seed {t.seed}, "
                         f"preset {t.preset}, board {t.board.source}" + (", Might of the Gods (R14)" if t.gods else ""))
            lines.append(f"{where}, {self.seconds:.1f} s, {rate:.2f} games/s; won on points (R12) "
                         f"{reasons['points']}, by eleven islands (R8) {reasons['eleven islands']}")
        if t.two_colors:
            lines.append("two players, two colors each (R15): red plays red and blue, green plays green and yellow; "
                         "a player's points are its weaker color's (R15.5)")
        lines.append("")
        lines.append(format_table(self.table(), t.colors))
        return "\n".join(lines)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


class RecordWriter:
    """Writes records to a stream in game order, whatever order they finish in.

    ``add`` buffers a record until every earlier game is written;
    ``finish`` writes what is left (after an interruption: in order, with
    gaps).  Each line is flushed, so a crash leaves whole lines only.
    """

    def __init__(self, stream: IO[str], first: int = 0) -> None:
        self.stream = stream
        self.next_game = first
        self.waiting: dict[int, GameRecord] = {}

    def add(self, record: GameRecord) -> None:
        self.waiting[record.game] = record
        while self.next_game in self.waiting:
            self._write(self.waiting.pop(self.next_game))
            self.next_game += 1

    def finish(self) -> None:
        for game in sorted(self.waiting):
            self._write(self.waiting.pop(game))

    def _write(self, record: GameRecord) -> None:
        self.stream.write(record.dumps() + "\n")
        self.stream.flush()


class _HeldInterrupt:
    """Ctrl-C that can be held back for a moment, on the main thread.

    Inside ``holding()`` an interrupt is noted and raised as
    ``KeyboardInterrupt`` when the block ends (or dropped, with
    ``reraise=False``); elsewhere it is raised at once, as usual.  Where
    Python's own handler is not in place (another thread, an ignored or
    custom handler), nothing is changed.
    """

    def __init__(self) -> None:
        self.held = False
        self.pending = False
        self.previous: Any = None

    def __enter__(self) -> _HeldInterrupt:
        if (threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
            self.previous = signal.signal(signal.SIGINT, self._on_interrupt)
        return self

    def __exit__(self, *exc) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
            self.previous = None

    def _on_interrupt(self, signum, frame) -> None:
        if self.held:
            self.pending = True
        else:
            raise KeyboardInterrupt

    @contextlib.contextmanager
    def holding(self, reraise: bool = True) -> Iterator[None]:
        self.held = True
        try:
            yield
        finally:
            self.held = False
            pending, self.pending = self.pending, False
            if pending and reraise:
                raise KeyboardInterrupt


def run_tournament(t: Tournament, workers: int = 1, scheduler=None,
                   on_record: Callable[[GameRecord], None] | None = None, keep_records: bool = True) -> TournamentRun:
    """Play every game of ``t`` and return the totals (and records) of those that finished.

    ``workers`` > 1 plays in that many processes; ``scheduler`` (an address
    such as ``tcp://host:8786``, or anything ``distributed.Client`` takes)
    plays on a Dask cluster instead.  The games stream: they are taken from
    ``schedule(t)`` as workers have room for them and summed up as they
    finish, so memory does not grow with ``t.games`` unless ``keep_records``
    keeps every record (the default; a long run passes False and writes the
    records out through ``on_record``).  ``on_record`` is called in this
    process for each finished game, in the order games finish.  Ctrl-C
    (``KeyboardInterrupt``) stops the run and returns what finished, with
    ``interrupted`` set.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise OptionError(f"--workers {brief(workers)}: must be a positive whole number")
    games = schedule(t)
    source: Generator[GameRecord, None, None]
    if scheduler is not None:
        source = _dask(t, games, scheduler)
    elif workers == 1 or t.games == 1:
        source = _serial(t, games)
    else:
        source = _pool(t, games, workers)
    totals = Totals(t)
    kept: dict[int, GameRecord] = {}
    interrupted = False
    start = time.perf_counter()
    with _HeldInterrupt() as held:
        try:
            for record in source:
                # A game counts once it is both in the totals and passed on (written to
                # --out): an interrupt waits for the pair, so the two always agree.
                with held.holding():
                    totals.add(record)
                    if keep_records:
                        kept[record.game] = record
                    if on_record is not None:
                        on_record(record)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            with held.holding(reraise=False):  # a second Ctrl-C must not cut the clean-up short
                source.close()
    seconds = time.perf_counter() - start
    records = [kept[g] for g in sorted(kept)]
    where = None if scheduler is None else (scheduler if isinstance(scheduler, str) else str(scheduler))
    return TournamentRun(t, records, interrupted, seconds, workers if scheduler is None else 0, where, totals)


# -- progress -------------------------------------------------------------------------


def _clock(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "--:--"
    s = round(seconds)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


class Progress:
    """Games done, rate and time left, on a stream (standard error).

    ``mode`` ``"bar"`` redraws one line in place (for a terminal, at most
    ten times a second); ``"lines"`` prints a plain line at most every
    ``interval`` seconds (for logs: short runs stay silent); ``"off"`` prints
    nothing.
    """

    WIDTH = 28

    def __init__(self, total: int, stream: IO[str] | None = None, mode: str = "auto",
                 interval: float = 30.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.stream = sys.stderr if stream is None else stream
        if mode == "auto":
            mode = "bar" if getattr(self.stream, "isatty", lambda: False)() else "lines"
        if mode not in ("bar", "lines", "off"):
            raise ValueError(f"progress mode {mode!r}: expected auto, bar, lines or off")
        self.mode = mode
        self.interval = interval
        self.clock = clock
        self.start = clock()
        self.done = 0
        self.last_shown = self.start
        self.drawn = False

    def line(self) -> str:
        """The progress text: ``37/100 games  [####....]  2.41 games/s  00:26 left``."""
        elapsed = self.clock() - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else math.inf
        filled = self.WIDTH * self.done // self.total if self.total else self.WIDTH
        bar = "#" * filled + "." * (self.WIDTH - filled)
        return (f"{self.done}/{self.total} games  [{bar}]  {rate:.2f} games/s  "
                f"{_clock(elapsed)} elapsed  {_clock(left)} left")

    def update(self, done: int | None = None) -> None:
        """Count one more finished game (or set the count to ``done``) and show it when due."""
        self.done = self.done + 1 if done is None else done
        if self.mode == "off":
            return
        now = self.clock()
        if self.mode == "bar":
            if now - self.last_shown >= 0.1 or self.done == self.total or not self.drawn:
                self.stream.write("\r" + self.line() + "\x1b[K")
                self.stream.flush()
                self.drawn = True
                self.last_shown = now
        elif now - self.last_shown >= self.interval and self.done < self.total:
            self.stream.write(self.line() + "\n")
            self.stream.flush()
            self.last_shown = now

    def close(self) -> None:
        """End the live line so that what follows starts on a fresh one."""
        if self.mode == "bar" and self.drawn:
            self.stream.write("\r" + self.line() + "\x1b[K\n")
            self.stream.flush()
            self.drawn = False

