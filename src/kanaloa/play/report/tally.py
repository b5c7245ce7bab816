"""What a record set adds up for the balance report: one ``Tally`` per set of games, fed one record at a time.

A *record set* is games of one rule set played by one lineup of bots (the
same specs, in any seat order): ``set_key`` names it.  ``Tally.add`` takes
a record and the final position its moves play to (``Tally.add_record``
replays it, ``kanaloa.play.records.replay``, which also checks the record's
result against the game).  Everything kept is an exact count or sum
(``Counter``, ``Moments``, ``BotTable``), so a tally does not depend on the
order in which records come, and only its counts of distinct values grow
with the games.  A record that repeats a game exactly (``Sets``) counts only
in ``repeats``.

``Sets`` sorts the records of a report into tallies: by ``set_key`` (one or
two sets), or into the sides the caller names.  A record given twice (the
same file twice, or two runs from the same seed: the same game index, deal
seed, bots, bot seeds and moves) is refused, as is a side that mixes rule
sets or lineups.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ...errors import KanaloaError, OptionError, shorten
from ..records import GameRecord, replay
from ..stats import BotStats, BotTable, Moments, Wins, whole

SetKey = tuple[str, str, tuple[str, ...]]  # the game, its record parameters (JSON) and the sorted lineup


def ruleset_key(ruleset: Any) -> tuple[str, str]:
    """What tells rule sets apart in a report: the game and the parameters its records name it by."""
    return ruleset.game, json.dumps(ruleset.record_params(), sort_keys=True)


def base_lineup(record: GameRecord) -> tuple[str, ...]:
    """The lineup of the record's tournament in rotation 0: in rotation ``r`` the lineup's bot ``i`` sits in
    seat ``(i + r) mod players`` (``kanaloa.play.tournament``)."""
    n = len(record.lineup)
    return tuple(record.lineup[(i + record.rotation) % n] for i in range(n))


def set_key(record: GameRecord) -> SetKey:
    """The record set a record belongs to: its rule set and its lineup's specs (in any seat order)."""
    return (*ruleset_key(record.ruleset), tuple(sorted(record.lineup)))


def lineup_text(lineup: Sequence[str]) -> str:
    """A lineup for people: ``greedy x4``, ``greedy, random x3``."""
    counts = Counter(lineup)
    return ", ".join(spec if n == 1 else f"{spec} x{n}" for spec, n in counts.items())


@dataclass
class Tally:
    """The counts of one record set (module docstring): by seat, by place, by reason, by bot."""

    ruleset: Any
    lineup: tuple[str, ...]  # rotation 0's, of the first record
    first: str  # where its first record was read (``RECORDS 'a.jsonl' line 1``)
    sources: list[str] = field(default_factory=list)  # every input its records came from, in order
    games: int = 0  # the games counted: every record but the repeats
    repeats: int = 0  # records of a game already counted (``Sets``)
    no_winner: int = 0  # games without a winner (R16.7)
    shared: int = 0  # games whose victory several players shared (R20.10)
    seat_wins: list[Wins] = field(default_factory=list)
    seat_ranks: list[int] = field(default_factory=list)
    scores: list[Counter[int]] = field(default_factory=list)  # by seat: how many games ended with each score
    score_moments: list[Moments] = field(default_factory=list)
    lengths: Counter[int] = field(default_factory=Counter)
    length_moments: Moments = field(default_factory=Moments)
    reasons: Counter[str] = field(default_factory=Counter)
    places: dict[str, Counter[str | None]] = field(default_factory=dict)  # place -> holder at the end -> games
    rotations: dict[tuple[str, int], set[int]] = field(default_factory=dict)  # (source, deal) -> rotations seen
    bots: BotTable = field(init=False)

    def __post_init__(self) -> None:
        n = self.ruleset.players
        self.seat_wins = [0] * n
        self.seat_ranks = [0] * n
        self.scores = [Counter() for _ in range(n)]
        self.score_moments = [Moments() for _ in range(n)]
        self.bots = BotTable(self.lineup, n)

    @property
    def players(self) -> int:
        return int(self.ruleset.players)

    @property
    def seats(self) -> tuple[str, ...]:
        """Each seat's name, in seat order (seat 0 moves first)."""
        return tuple(self.ruleset.seat_names)

    def add_record(self, record: GameRecord, source: str) -> None:
        """Count ``record``, read from ``source``, replayed to its final position (which checks it).

        Raises ``OptionError`` naming the record's line and field for a
        result that is not the game's, and ``KanaloaError`` (a ``MoveError``)
        naming the line for a move that does not fit the deal.
        """
        self.add(record, replay_checked(record), source)

    def repeat(self, record: GameRecord, source: str) -> None:
        """Count ``record``, read from ``source``, which repeats a game already counted (``Sets``): only as a
        repeat, and as the rotation of its deal it is."""
        self._source(source)
        self.repeats += 1
        self.rotations.setdefault((source, record.deal), set()).add(record.rotation)

    def add(self, record: GameRecord, final: Any, source: str) -> None:
        """Count ``record``, whose moves play to ``final`` (a finished position of its game), read from
        ``source``."""
        self._source(source)
        self.games += 1
        if record.winners and len(record.winners) > 1:
            self.shared += 1
        elif record.winner < 0:
            self.no_winner += 1
        for seat in range(self.players):
            won = record.won(seat)
            if won:
                self.seat_wins[seat] += 1 if won is True else won
            self.seat_ranks[seat] += record.ranks[seat]
            self.scores[seat][record.scores[seat]] += 1
            self.score_moments[seat].add(record.scores[seat])
        self.lengths[record.length] += 1
        self.length_moments.add(record.length)
        self.reasons[record.reason] += 1
        for place, holder in final.holders().items():
            self.places.setdefault(place, Counter())[holder] += 1
        for outcome in record.outcomes():
            self.bots.add(outcome)
        self.rotations.setdefault((source, record.deal), set()).add(record.rotation)

    def _source(self, source: str) -> None:
        if source not in self.sources:
            self.sources.append(source)

    # -- what the counts say ------------------------------------------------------------------

    def wins(self, seat: int) -> Wins:
        return whole(self.seat_wins[seat])

    @property
    def decided(self) -> Wins:
        """The wins counted over every seat: the games with a winner (a shared victory counting once)."""
        return whole(sum(self.seat_wins, Fraction(0)))

    @property
    def deals(self) -> int:
        return len(self.rotations)

    @property
    def incomplete_deals(self) -> int:
        """Deals some of whose seat rotations are missing (an interrupted run): their seats are not balanced."""
        return sum(1 for seen in self.rotations.values() if len(seen) < self.players)

    def bot_rows(self) -> list[BotStats]:
        return self.bots.rows()

    @property
    def distinct_bots(self) -> int:
        return len(set(self.lineup))

    def reason_list(self) -> list[str]:
        """The rule set's ways to end, those that happened first in its order, then any other."""
        known = [r for r in self.ruleset.reasons if r in self.reasons]
        return known + sorted(r for r in self.reasons if r not in known)

    def place_names(self) -> list[str]:
        return list(self.places)

    def held(self, place: str) -> int:
        """The games at whose end ``place`` was held by somebody."""
        counts = self.places.get(place, Counter())
        return sum(n for holder, n in counts.items() if holder is not None)

    def held_by(self, place: str, seat: int) -> int:
        return self.places.get(place, Counter())[self.seats[seat]]


class Sets:
    """The record sets of one report, filled record by record (module docstring).

    ``sides`` None sorts records by ``set_key``, in the order the sets are
    first met; otherwise ``add`` is told the side (0 or 1) of each record,
    and a side must hold one set.  ``tallies()`` gives them.

    Each game counts once.  A record of a game already counted is either
    the same record again (the same game index, bot seeds and all: a file
    given twice, or two runs from the same seed), which is refused, or a
    *repeat*: another rotation of the same deal that played exactly the same
    game, as identical bots that decide alike do in every seat rotation of a
    deal.  A repeat is replayed and checked like any record, and counted in
    ``Tally.repeats`` only: it adds no information, and counting it would
    make every interval too narrow.
    """

    def __init__(self, sides: int | None = None) -> None:
        self.sides = sides
        self._by_key: dict[SetKey, Tally] = {}
        self._by_side: dict[int, Tally] = {}
        self._side_keys: dict[int, SetKey] = {}
        self._records: dict[bytes, str] = {}  # each record's fingerprint -> where it was read
        self._games: set[bytes] = set()  # each game's fingerprint

    @staticmethod
    def fingerprint(record: GameRecord, game_only: bool = False) -> bytes:
        """What makes a game the same game: its rule set, deal seed, bots by seat and moves; and with them,
        unless ``game_only``, what makes it the same record: its game index and the bots' seeds."""
        parts: list[Any] = [*ruleset_key(record.ruleset), record.seed, list(record.lineup), list(record.moves)]
        if not game_only:
            parts += [record.index, list(record.bot_seeds)]
        return hashlib.sha256(json.dumps(parts, separators=(",", ":")).encode()).digest()

    def add(self, record: GameRecord, source: str, side: int | None = None) -> Tally:
        """Replay ``record``, read from ``source``, and count it in its set (``side``'s when sides are given);
        the tally it went to.  Raises ``OptionError`` naming the record's line for the same record given
        again, for a record of another set than its side's, and for a record its game does not bear out
        (``Tally.add_record``)."""
        mark = self.fingerprint(record)
        if mark in self._records:
            raise OptionError(f"{record.source}: game {record.index} again, as {self._records[mark]} gave it (the "
                              f"same deal seed, bots, bot seeds and moves); a report counts each game once")
        self._records[mark] = record.source
        tally = self._tally_for(record, side)
        game = self.fingerprint(record, game_only=True)
        if game in self._games:
            replay_checked(record)
            tally.repeat(record, source)
        else:
            self._games.add(game)
            tally.add_record(record, source)
        return tally

    def _tally_for(self, record: GameRecord, side: int | None) -> Tally:
        key = set_key(record)
        if side is None:
            tally = self._by_key.get(key)
            if tally is None:
                tally = self._by_key[key] = Tally(record.ruleset, base_lineup(record), record.source)
            return tally
        tally = self._by_side.get(side)
        if tally is None:
            self._side_keys[side] = key
            tally = self._by_side[side] = Tally(record.ruleset, base_lineup(record), record.source)
            return tally
        if key != self._side_keys[side]:
            raise OptionError(f"{record.source}: {_set_text(record.ruleset, record.lineup)}, but the set's first "
                              f"record ({tally.first}) is {_set_text(tally.ruleset, tally.lineup)}; a record set "
                              f"holds one rule set and one lineup")
        return tally

    def tallies(self) -> list[Tally]:
        if self.sides is None:
            return list(self._by_key.values())
        return [self._by_side[side] for side in sorted(self._by_side)]


def replay_checked(record: GameRecord) -> Any:
    """The final position of ``record``'s game, its record checked against it (``replay``); a move that does
    not fit the deal is a ``KanaloaError`` naming the record's line."""
    try:
        return replay(record)
    except OptionError:
        raise  # a result that is not the game's: the message names the line and the field
    except KanaloaError as exc:  # a move that does not fit the deal
        raise KanaloaError(f"{record.source}: {exc}") from None


def _set_text(ruleset: Any, lineup: Sequence[str]) -> str:
    return shorten(f"{ruleset.describe()}, bots {lineup_text(sorted(lineup))}", 200)
