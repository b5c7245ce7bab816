"""Game records, ``kanaloa-game/1``: one finished game per line of JSON.

``GameRecord`` writes and
reads it, ``read_records`` reads a file of them, ``RecordWriter`` writes one
in game order and ``replay`` deals a recorded game again, plays its moves
and checks its result.  ``kanaloa simulate --out FILE`` writes them,
``kanaloa replay FILE --game N`` replays one, the web app writes one for
every game played in it and replays any.

**A record.**  One JSON object on one line, its keys in this order::

    {"format": "kanaloa-game/1", "game": 5, "deal": 1, "rotation": 1,
     "board": "oro", "players": 4, "preset": "yucata", "seed": 1234,
     "colors": ["red", "green", "blue", "yellow"],
     "lineup": ["random", "greedy", "random", "random"],
     "bot_seeds": [..4 ints..], "moves": ["reveal ALOA", ...], "length": 171,
     "scores": [31, 40, 22, 18], "ranks": [2, 1, 3, 4], "winner": 1,
     "reason": "points"}

docs/records.md "Game records" is the format's one description: what every key means, the keys
a record of two players, of the gods and of the other games adds (``color_scores``,
``gods``, ``ruleset``, ``winners``, and a game's other ``record_params()``), what ``GameRecord.from_json``
and ``read_records`` refuse, and what ``replay`` checks.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import IO, TYPE_CHECKING, Any

from ..errors import MAX_INPUT_BYTES, BoardError, MoveError, OptionError, quote, shorten, too_large
from ..rules import jsontext
from ..rules.board import Board, load_board
from ..rules.registry import GameType, document_game, game_types, load_game
from ..rules.rng import MASK64
from ..rules.ruleset import BoardName, ParameterError, Ruleset
from .bots import parse_bot_spec
from .stats import SeatOutcome

if TYPE_CHECKING:
    from ..rules.engine import Engine

RECORD_FORMAT = "kanaloa-game/1"
HUMAN = "human"  # the lineup's entry for a seat a person played (the web app), where a bot's spec stands otherwise
ONE_PER_LINE = "expected one game record per line, as 'kanaloa simulate --out' writes them"

BoardLoader = Callable[[str], Board]

# The fields every record has, and of which JSON type (lists: see _ITEMS), around the rule set's own
# (``record_params``): those of _LEAD stand between ``rotation`` and ``seed``, where the game has them.
_HEAD: dict[str, type] = {"game": int, "deal": int, "rotation": int}
_LEAD = ("board", "players", "preset")
_BODY: dict[str, type] = {
    "seed": int, "colors": list, "lineup": list, "bot_seeds": list, "moves": list, "length": int, "scores": list,
    "ranks": list, "winner": int, "reason": str,
}
# The fields a record has where its rule set says (``_winners``, ``_color_scores``; ``ruleset``: ``_game_of``).
_WHERE_THE_GAME_SAYS = ("winners", "color_scores", "ruleset")
_ITEMS = {"colors": "colors (text)", "lineup": "bot specs", "bot_seeds": "whole numbers",
          "moves": "moves (text)", "scores": "whole numbers", "ranks": "whole numbers"}
_NUMBER_LISTS = ("bot_seeds", "scores", "ranks")
# The record's field of each parameter of a rule set (``ParameterError.parameter``) where it is not the
# parameter's own name.
_FIELD_OF = {"game": "ruleset"}
_RESULT_FIELDS = ("scores", "ranks", "winner", "reason", "color_scores", "winners")


@dataclass(frozen=True)
class GameRecord:
    """One finished game: its rule set, its deal, its bots, every move and the result (see the module docstring).

    ``index`` is the game's index in its tournament (the record's ``game``
    key); ``winner`` is -1 for a game without a winner (R16.7) and for a
    shared victory; ``color_scores`` is by color index, empty where each
    player plays one color; ``winners`` the seats sharing the victory where
    the rule set lets them share it (``shares_victory``), empty elsewhere.
    ``source`` says where the record was read (``RECORDS 'f' line 3``), for
    messages.
    """

    index: int
    ruleset: Ruleset
    seed: int
    lineup: tuple[str, ...]
    bot_seeds: tuple[int, ...]
    moves: tuple[str, ...]
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winner: int
    reason: str
    color_scores: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    source: str = field(default="", compare=False, repr=False)

    @classmethod
    def of_game(cls, ruleset: Ruleset, seed: int, lineup: Sequence[str], bot_seeds: Sequence[int],
                moves: Sequence[str], final: Any, index: int = 0) -> GameRecord:
        """The record of a game of ``ruleset`` dealt from ``seed`` that ended in ``final``, a finished full
        position of the game's ``position`` face."""
        return cls(index, ruleset, seed, tuple(lineup), tuple(bot_seeds), tuple(moves), *_result(ruleset, final))

    @property
    def deal(self) -> int:
        return self.index // self.ruleset.players

    @property
    def rotation(self) -> int:
        return self.index % self.ruleset.players

    @property
    def length(self) -> int:
        return len(self.moves)

    def won(self, seat: int) -> bool | Fraction:
        """What ``seat`` won: True for a sole winner, ``Fraction(1, k)`` for each of ``k`` seats sharing the
        victory (R20.10; docs/commands.md "simulate --json"), False otherwise."""
        winners = self.winners or ((self.winner,) if self.winner >= 0 else ())
        if seat not in winners:
            return False
        return True if len(winners) == 1 else Fraction(1, len(winners))

    def placings(self) -> list[tuple[int, ...]]:
        """The seats by place, best first, each place a tuple of the seats tied there: the seats sharing the
        victory (R20.10) make the first place, and in a game without a winner (R16.7) every seat shares it;
        any other seat has a place of its own, in the order of ``ranks``.  What ``kanaloa ladder`` and
        ``kanaloa sprt`` count as a game's result (docs/commands.md "ladder")."""
        seats = sorted(range(len(self.ranks)), key=lambda s: self.ranks[s])
        tied = self.winners if len(self.winners) > 1 else tuple(seats) if self.winner < 0 else ()
        first = [tuple(s for s in seats if s in tied)] if tied else []
        return first + [(s,) for s in seats if s not in tied]

    def outcomes(self) -> list[SeatOutcome]:
        """One ``SeatOutcome`` per seat, for the statistics."""
        return [
            SeatOutcome(spec, seat, self.scores[seat], self.ranks[seat], self.won(seat))
            for seat, spec in enumerate(self.lineup)
        ]

    def to_json(self) -> dict:
        rs = self.ruleset
        params = rs.record_params()
        doc: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.index,
            "deal": self.deal,
            "rotation": self.rotation,
            **{key: params[key] for key in _LEAD if key in params},
            "seed": self.seed,
            "colors": list(rs.seat_names),
            "lineup": list(self.lineup),
            "bot_seeds": list(self.bot_seeds),
            "moves": list(self.moves),
            "length": self.length,
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winner": self.winner if self.winner >= 0 else None,
            "reason": self.reason,
        }
        if rs.shares_victory:
            doc["winners"] = list(self.winners)
        if rs.pairs:
            doc["color_scores"] = _color_scores_json(rs, self.color_scores)
        if rs.document_game is not None:
            doc["ruleset"] = rs.game
        doc.update((key, value) for key, value in params.items() if key not in _LEAD and value is not False)
        return doc

    def dumps(self) -> str:
        """The record as one line of JSON (no newline)."""
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, obj: dict | str, where: str = "game record", boards: BoardLoader = load_board) -> GameRecord:
        """Read a record written by ``to_json``/``dumps``; its board is loaded with ``boards``.

        Raises ``OptionError`` if it is not one, naming ``where`` (for
        example ``RECORDS 'games.jsonl' line 3``), the field and why, and
        ``BoardError`` (after ``where``) for a board that cannot be loaded.
        """
        return _read(obj, where, boards, {})

    def new_command(self) -> str:
        """The ``kanaloa new`` command that deals this game again."""
        rs = self.ruleset
        words = ["kanaloa", "new"]
        if rs.document_game is not None:  # a game other than the default one
            words.append(f"--game {rs.game}")
        words.append(f"--seed {self.seed}")
        params = rs.params()
        for parameter in rs.game_type.parameters:
            if parameter.name == "colors" or len(parameter.choices) == 1:  # default colors; nothing to choose
                continue
            value = params[parameter.name]
            if isinstance(value, bool):
                if value:
                    words.append(f"--{parameter.name}")
            else:
                words.append(f"--{parameter.name} {value}")
        return " ".join(words)


def _result(rs: Ruleset, final: Any) -> tuple[tuple[int, ...], tuple[int, ...], int, str, tuple[int, ...],
                                              tuple[int, ...]]:
    """``scores``, ``ranks``, ``winner``, ``reason``, ``color_scores`` and ``winners`` of a game of ``rs`` that
    ended in ``final``, a finished position of its ``position`` face (read from its ``outcome``)."""
    outcome = final.outcome
    seats = list(final.players)
    ranks = [0] * rs.players
    for place, name in enumerate(outcome["ranking"]):  # R12 (or R8, R15.5, R16.7, R20.10): best first
        ranks[seats.index(name)] = place + 1
    winner = -1 if outcome["winner"] is None else seats.index(outcome["winner"])
    winners = tuple(seats.index(name) for name in outcome["winners"]) if rs.shares_victory else ()
    # every color's points, by color index, where each player plays two colors (R15.5)
    color_scores = tuple(final.scores[color] for color in rs.colors) if rs.pairs else ()
    # a seat's score: its points (with two colors each its weaker color's, R15.5), or what the game counts
    return tuple(final.seat_scores), tuple(ranks), winner, outcome["reason"], color_scores, winners


def _color_scores_json(rs: Ruleset, color_scores: Sequence[int]) -> dict[str, int]:
    return {rs.colors[c]: color_scores[c] for c in rs.color_order}


# -- reading -----------------------------------------------------------------------------------


def _is(value: object, kind: type) -> bool:
    """``value`` is of JSON type ``kind`` (a bool is no whole number)."""
    return isinstance(value, kind) and not isinstance(value, bool)


def _brief(value: object) -> str:
    """A field's value for a message, as JSON (the file is JSON), cut short when long; a number too long to read
    by its count of digits."""
    return shorten(json.dumps(value, default=repr))


def _parse(obj: dict | str, where: str) -> dict:
    if isinstance(obj, str):
        try:
            obj = jsontext.loads(obj)  # a key named twice is refused; a number too long is the field's to refuse
        except jsontext.DuplicateKey as exc:
            raise OptionError(f"{where}: the key {quote(exc.args[0])} appears twice in one object; a record says "
                              f"each thing once") from None
        except json.JSONDecodeError as exc:
            raise OptionError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno}); {ONE_PER_LINE}") from None
        except RecursionError:
            raise OptionError(f"{where}: not valid JSON (nested far too deeply); {ONE_PER_LINE}") from None
    if not isinstance(obj, dict) or obj.get("format") != RECORD_FORMAT:
        raise OptionError(f"{where}: not a game record (a JSON object with \"format\": \"{RECORD_FORMAT}\"); "
                          f"{ONE_PER_LINE}")
    return obj


def _field_error(where: str, exc: ParameterError) -> OptionError:
    """A rule set's refusal, worded with the record's field."""
    name = _FIELD_OF.get(exc.parameter, exc.parameter)
    value = str(exc.value) if isinstance(exc.value, BoardName) else _brief(exc.value)  # a board's own name as it is
    shown = f" {value}" if exc.shown else ""
    return OptionError(f"{where}: field {name!r}{shown}: {exc.why}")


def _game_of(doc: dict, where: str) -> GameType:
    """The game a record's ``ruleset`` names (absent: the default game)."""
    name = doc.get("ruleset")
    if name is not None and not isinstance(name, str):
        raise OptionError(f"{where}: field 'ruleset' must be text, not {_brief(name)}")
    try:
        return document_game(name)
    except ParameterError as exc:
        raise _field_error(where, exc) from None


# The JSON type of each of a game's ``record_params``, by game: those of its default rule set.
_PARAM_TYPES: dict[str, dict[str, type]] = {}


def _param_types(game: GameType) -> dict[str, type]:
    """The fields that name a rule set of ``game`` in a record, each with its JSON type (``bool`` for a flag,
    which may be left out: false), in the order of ``record_params``."""
    if game.name not in _PARAM_TYPES:
        _PARAM_TYPES[game.name] = {key: type(value) for key, value in game.load().record_params().items()}
    return _PARAM_TYPES[game.name]


def _fields(game: GameType) -> dict[str, type]:
    """Every field a record of ``game`` must have, in the order it is written, with its JSON type."""
    params = {key: kind for key, kind in _param_types(game).items() if kind is not bool}
    lead = {key: params[key] for key in _LEAD if key in params}
    return {**_HEAD, **lead, **_BODY, **{key: kind for key, kind in params.items() if key not in lead}}


def _check_keys(doc: dict, game: GameType, where: str) -> None:
    """Refuse a key a record of ``game`` has not: a parameter of another registered game's rule sets (named),
    or a key no record has.  No key is ignored: a record read is the game it was written from."""
    own = _param_types(game)
    known = {"format", *_fields(game), *own, *_WHERE_THE_GAME_SAYS}
    for key in doc:
        if key in known:
            continue
        others = [g.title for g in game_types() if g is not game and key in _param_types(g)]
        if others:
            raise OptionError(f"{where}: field {quote(key)} is a parameter of {' and '.join(others)}, not of "
                              f"{game.title}, whose records name the rule set by {', '.join(own)}")
        raise OptionError(f"{where}: unknown field {quote(key)}; a {RECORD_FORMAT} record has only the fields of "
                          f"its format (docs/records.md \"Game records\")")


def _check_lineup(doc: dict, where: str) -> None:
    """Each seat's ``lineup`` entry is a bot spec that parses (or ``human``), and its ``bot_seeds`` entry a
    seed, from 0 to 2**64-1.  Nothing is played by the bots here, so their optional extras need not be
    installed."""
    for seat, spec in enumerate(doc["lineup"]):
        if spec != HUMAN:
            try:
                parse_bot_spec(spec, playing=False)
            except OptionError as exc:
                raise OptionError(f"{where}: field 'lineup' seat {seat}: {exc}") from None
    for seat, seed in enumerate(doc["bot_seeds"]):
        if not 0 <= seed <= MASK64:
            raise OptionError(f"{where}: field 'bot_seeds' seat {seat}: must be from 0 to 2**64-1, not "
                              f"{_brief(seed)}")


def _check_type(where: str, key: str, value: object, kind: type) -> None:
    """Refuse a field's ``value`` that is not of JSON type ``kind`` (a list's items: whole numbers for the
    seeds, scores and ranks, text for any other)."""
    if kind is list:
        item = int if key in _NUMBER_LISTS else str
        good = isinstance(value, list) and all(_is(x, item) for x in value)
        what = f"a list of {_ITEMS.get(key, 'names (text)')}"
    elif kind is bool:
        good = value is True or value is False
        what = "true or false"
    else:
        good = _is(value, kind)
        what = {int: "a whole number", str: "text"}[kind]
    if not good:
        raise OptionError(f"{where}: field {key!r} must be {what}, not {_brief(value)}")


def _ruleset(doc: dict, game: GameType, where: str, boards: BoardLoader, cache: dict) -> Ruleset:
    """The rule set a record names (its ``ruleset`` and the fields of the game's ``record_params``), checked by
    ``load_game``; ``cache`` keeps those made for earlier lines of a file."""
    types = _param_types(game)
    params = {key: doc[key] for key in types if key in doc}
    for name, kind in types.items():
        if kind is bool and name in params:  # a flag may be left out; the others are checked with every field
            _check_type(where, name, params[name], kind)
    key = (game.name, *((k, tuple(v) if isinstance(v, list) else v) for k, v in params.items()))
    if key in cache:
        return cache[key]
    try:
        if "board" in params:  # a board's name or file, loaded with ``boards``
            try:
                params["board"] = boards(params["board"])
            except BoardError as exc:
                raise BoardError(f"{where}: {exc}") from None
        ruleset = load_game(game.name, **params)
    except ParameterError as exc:
        raise _field_error(where, exc) from None
    cache[key] = ruleset
    return ruleset


def _read(obj: dict | str, where: str, boards: BoardLoader, cache: dict) -> GameRecord:
    doc = _parse(obj, where)
    game = _game_of(doc, where)
    _check_keys(doc, game, where)
    fields = _fields(game)
    missing = [key for key in fields if key not in doc]
    if missing:
        raise OptionError(f"{where}: missing field {missing[0]!r}")
    for key, kind in fields.items():
        if key == "winner" and doc[key] is None:
            continue  # a game without a winner, or a shared victory: checked against the rule set below
        _check_type(where, key, doc[key], kind)
    if doc["length"] != len(doc["moves"]):
        raise OptionError(f"{where}: field 'length' must be the number of moves, {len(doc['moves'])}, not "
                          f"{_brief(doc['length'])}")
    rs = _ruleset(doc, game, where, boards, cache)
    players = rs.players
    for key in ("lineup", "bot_seeds", "scores", "ranks"):
        if len(doc[key]) != players:
            raise OptionError(f"{where}: field {key!r} must have one entry per seat ({players}), not {len(doc[key])}")
    _check_lineup(doc, where)
    _check_seats(doc, rs, where)
    winners = _winners(doc, rs, where)
    rule = rs.rule_of("winner")
    if doc["winner"] is None:
        if rs.shares_victory:
            if len(winners) < 2:
                raise OptionError(f"{where}: field 'winner' is null, which only a shared victory leaves ({rule}), "
                                  f"but 'winners' is {_brief(list(winners))}")
        elif not rs.may_end_without_winner:
            raise OptionError(f"{where}: field 'winner' must be a whole number, not null; {rs.lacks('no_winner')}")
        elif doc["reason"] != rs.no_winner_reason:
            raise OptionError(f"{where}: field 'winner' is null, which only a final scoring can leave "
                              f"({rule}), but 'reason' is {_brief(doc['reason'])}")
    elif not 0 <= doc["winner"] < players:
        raise OptionError(f"{where}: field 'winner' must be a seat from 0 to {players - 1}"
                          + (f" or null (no winner, {rule})" if rs.may_end_without_winner else "")
                          + (f" or null (a shared victory, {rule})" if rs.shares_victory else ""))
    elif rs.shares_victory and winners != (doc["winner"],):
        raise OptionError(f"{where}: field 'winner' is {doc['winner']}, but 'winners' is {_brief(list(winners))}; "
                          f"'winner' is the one seat of 'winners', or null when they share the victory ({rule})")
    if not 0 <= doc["seed"] <= MASK64:
        raise OptionError(f"{where}: field 'seed' must be from 0 to 2**64-1, not {_brief(doc['seed'])}")
    if doc["reason"] not in rs.reasons:
        raise OptionError(f"{where}: field 'reason' must be one of {', '.join(rs.reasons)}, "
                          f"not {_brief(doc['reason'])}")
    return GameRecord(
        index=doc["game"], ruleset=rs, seed=doc["seed"], lineup=tuple(doc["lineup"]),
        bot_seeds=tuple(doc["bot_seeds"]), moves=tuple(doc["moves"]), scores=tuple(doc["scores"]),
        ranks=tuple(doc["ranks"]), winner=-1 if doc["winner"] is None else doc["winner"], reason=doc["reason"],
        color_scores=_color_scores(doc, rs, where), winners=winners, source=where,
    )


def _winners(doc: dict, rs: Ruleset, where: str) -> tuple[int, ...]:
    """``winners`` where the rule set lets players share the victory (``shares_victory``): seats in seat order,
    at least one, each once; ``()`` elsewhere, which has none."""
    if not rs.shares_victory:
        if "winners" in doc:
            raise OptionError(f"{where}: field 'winners' belongs to games whose players may share the victory; in "
                              f"{rs.title} they never do ({rs.rule_of('winner')})")
        return ()
    if "winners" not in doc:
        raise OptionError(f"{where}: missing field 'winners' (the seats sharing the victory, "
                          f"{rs.rule_of('winner')})")
    value = doc["winners"]
    if (not isinstance(value, list) or not value or not all(_is(w, int) and 0 <= w < rs.players for w in value)
            or value != sorted(set(value))):
        raise OptionError(f"{where}: field 'winners' must list the seats sharing the victory, from 0 to "
                          f"{rs.players - 1}, in seat order and each once, not {_brief(value)}")
    return tuple(value)


def _check_seats(doc: dict, rs: Ruleset, where: str) -> None:
    """A record's ``game``, ``deal``, ``rotation`` and ``colors`` agree with each other and the rule set:
    game ``g`` is deal ``g // players`` in rotation ``g % players``, played with the default colors."""
    game, players = doc["game"], rs.players
    if game < 0:
        raise OptionError(f"{where}: field 'game' must be 0 or more, not {shorten(str(game))}")
    for key, value, how in (("deal", game // players, "//"), ("rotation", game % players, "%")):
        if doc[key] != value:
            raise OptionError(f"{where}: field {key!r} must be {shorten(str(value))} for game {shorten(str(game))} of "
                              f"{players} players (game {how} players), not {_brief(doc[key])}")
    colors = list(rs.seat_names)
    if doc["colors"] != colors:
        raise OptionError(f"{where}: field 'colors' must be {_brief(colors)} (each seat's color in a {players}-player "
                          f"game), not {_brief(doc['colors'])}")


def _color_scores(doc: dict, rs: Ruleset, where: str) -> tuple[int, ...]:
    """``color_scores`` by color index where each player plays two colors (R15); ``()`` elsewhere, which has
    none."""
    if not rs.pairs:
        if "color_scores" in doc:
            raise OptionError(f"{where}: field 'color_scores' belongs to games where each player plays two colors; "
                              f"{rs.lacks('colors')}")
        return ()
    value = doc.get("color_scores")
    colors = rs.colors
    if value is None:
        raise OptionError(f"{where}: missing field 'color_scores' (a game of two colors a player gives every "
                          f"color's points)")
    if (not isinstance(value, dict) or sorted(value) != sorted(colors)
            or not all(_is(v, int) for v in value.values())):
        raise OptionError(f"{where}: field 'color_scores' must give the points of each of {', '.join(colors)}, "
                          f"not {_brief(value)}")
    return tuple(value[c] for c in colors)


def read_records(stream: IO[bytes], where: str, boards: BoardLoader = load_board) -> Iterator[GameRecord]:
    """The records of a ``simulate --out`` file, one per line, read one line at a time.

    Blank lines are skipped.  A line longer than ``MAX_INPUT_BYTES`` is
    refused without reading it whole.  Raises ``OptionError`` naming
    ``where`` and the line for anything that is not a record, and for a
    second record of a game (naming both lines).
    """
    number = 0
    lines: dict[int, int] = {}  # the line of each game read so far
    rulesets: dict = {}
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
        if not text.strip():
            continue
        record = _read(text, at, boards, rulesets)
        first = lines.setdefault(record.index, number)
        if first != number:
            raise OptionError(f"{at}: game {record.index} again, after line {first}; a file holds each game once")
        yield record


# -- writing ------------------------------------------------------------------------------------


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
        self.waiting[record.index] = record
        while self.next_game in self.waiting:
            self._write(self.waiting.pop(self.next_game))
            self.next_game += 1

    def finish(self) -> None:
        for game in sorted(self.waiting):
            self._write(self.waiting.pop(game))

    def _write(self, record: GameRecord) -> None:
        self.stream.write(record.dumps() + "\n")
        self.stream.flush()


class MoveLog:
    """The SHA-256 of the move logs of a run's games, fed as they finish and hashed in game order.

    Each game adds one line, its moves as a compact JSON list and a newline
    (``line``): ``["reveal ALOA","ALOA-BAFI/ALOA",...]`` as
    ``json.dumps(moves, separators=(",", ":"))`` writes it (ASCII).  Games
    wait, as in ``RecordWriter``, until every earlier one is in; ``hexdigest``
    adds those still waiting (after an interruption: in order, with gaps), so
    the hash is that of the lines of the games a ``RecordWriter`` writes, in
    the order it writes them: ``jq -c .moves FILE | sha256sum`` recomputes it
    from an ``--out`` file.
    """

    def __init__(self, first: int = 0) -> None:
        self._hash = hashlib.sha256()
        self.next_game = first
        self.games = 0
        self._waiting: dict[int, bytes] = {}

    @staticmethod
    def line(moves: Sequence[str]) -> bytes:
        """A game's line of the hash."""
        return (json.dumps(list(moves), separators=(",", ":")) + "\n").encode("ascii")

    def add(self, record: GameRecord) -> None:
        self._waiting[record.index] = self.line(record.moves)
        self.games += 1
        while self.next_game in self._waiting:
            self._hash.update(self._waiting.pop(self.next_game))
            self.next_game += 1

    def hexdigest(self) -> str:
        """The hash of every game added so far (those still waiting for an earlier one last, in order)."""
        h = self._hash.copy()
        for game in sorted(self._waiting):
            h.update(self._waiting[game])
        return h.hexdigest()


def moves_sha256(records: Iterable[GameRecord]) -> str:
    """``MoveLog``'s hash of ``records``, in any order."""
    log = MoveLog()
    for record in records:
        log.add(record)
    return log.hexdigest()


# -- replaying ------------------------------------------------------------------------------------


def replay(record: GameRecord | dict | str, engine: Engine | None = None, at: int | None = None,
           check: bool = True) -> Any:
    """The position of a recorded game (of its game's ``position`` face): dealt again from its seed, its moves
    played (checked).

    Every move is played, or the first ``at`` of them (``at=0``: the deal).
    With ``check`` (the default) the whole game is played, and the record's
    result must be the game's (see *Replaying* in the module docstring).
    Raises ``OptionError`` for an ``at`` beyond the game's length and for a
    result that is not the game's, and ``MoveError`` naming the move's number
    if a move does not fit (the record does not belong to this deal or these
    rules).
    """
    from ..position import deal_position

    rec = record if isinstance(record, GameRecord) else GameRecord.from_json(record)
    if at is not None and not 0 <= at <= rec.length:
        raise OptionError(f"at {at}: game {rec.index} has {rec.length} moves; give 0 (the deal) to {rec.length}")
    rs = rec.ruleset
    pos = deal_position(rs, rec.seed, engine)
    stop = rec.length if check or at is None else at
    kept = pos.copy() if at == 0 else None
    for number, move in enumerate(rec.moves[:stop], start=1):
        try:
            pos.play(move)
        except MoveError as exc:
            raise MoveError(f"game {rec.index}, move {number} of {rec.length}: {exc}") from None
        if number == at and at < stop:
            kept = pos.copy()
    if check:
        check_result(rec, pos)
    return pos if kept is None else kept


def check_result(rec: GameRecord, final: Any) -> None:
    """Refuse ``rec`` (``OptionError``, naming its line and the field) unless ``final``, the position its moves
    play to, is over with the result the record gives."""
    where = rec.source or f"game {rec.index}"
    if not final.is_over:
        raise OptionError(f"{where}: field 'moves': the game is not over after its {rec.length} moves, but the "
                          f"record gives its result")
    rs = rec.ruleset
    played = _result(rs, final)
    said = (rec.scores, rec.ranks, rec.winner, rec.reason, rec.color_scores, rec.winners)
    for name, given, was in zip(_RESULT_FIELDS, said, played, strict=True):
        if given != was:
            raise OptionError(f"{where}: field {name!r} says {_brief(_json_value(rs, name, given))}, but the game "
                              f"its moves play ends with {_brief(_json_value(rs, name, was))}")


def _json_value(rs: Ruleset, name: str, value: Any) -> Any:
    """A result field's value as the record writes it."""
    if name == "winner":
        return None if value < 0 else value
    if name == "color_scores":
        return _color_scores_json(rs, value)
    if name == "winners":
        return list(value)
    return list(value) if isinstance(value, tuple) else value
