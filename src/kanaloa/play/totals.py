"""What a tournament adds up as its games finish, and the figures of a run: the summary and ``simulate --json``.

``Totals`` is the per-bot table (``kanaloa.play.stats``), the games, the
moves and how the games ended.  Its size does not grow with the number of
games, and every sum is exact (whole numbers; fractions of wins where
players share a victory, R20.10), so the totals do not depend on the order
in which games finish.  Nothing here names a game: the rule set says what
its games may end with (``reasons``, ``may_end_without_winner``,
``shares_victory``) and what a seat's score counts (``score_name``).  ``TournamentRun`` is what
``kanaloa.play.simulate.run_tournament`` returns: the totals, the records
it kept, the time and the workers, as text for people (``summary``) and as
JSON (``to_json``, docs/commands.md "simulate --json").
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.ruleset import Ruleset
from .records import GameRecord
from .stats import BotStats, BotTable, format_table
from .tournament import Tournament


def ended(rs: Ruleset, reason: str) -> str:
    """How games that ended for ``reason`` ended, for people: ``on points (R12)``."""
    return f"{rs.reason_text(reason)} ({rs.rule_of(reason)})"


class Totals:
    """What a run adds up as its games stream by: the per-bot table, games, moves, how games ended."""

    def __init__(self, t: Tournament) -> None:
        self.table = BotTable(t.lineup, t.players)
        self.games = 0
        self.moves = 0
        self.reasons = dict.fromkeys(t.ruleset.reasons, 0)
        self.no_winner = 0  # games without a winner (only a rule set that may end so has them, R16.7)
        self.shared = 0  # games whose victory several players shared (a rule set that lets them, R20.10)

    def add(self, record: GameRecord) -> None:
        """Count one finished game."""
        for outcome in record.outcomes():
            self.table.add(outcome)
        self.games += 1
        self.moves += record.length
        self.reasons[record.reason] += 1
        shared = len(record.winners) > 1
        self.shared += shared
        self.no_winner += record.winner < 0 and not shared


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
        """How many games ended for each of the rule set's reasons (R8 and R12; Kahuna's R16.7 and R16.8)."""
        return dict(self._totals.reasons)

    def to_json(self) -> dict:
        """The ``simulate --json`` document (docs/commands.md, "simulate --json").  ``preset`` and ``board``
        are null, and ``gods`` false, for a game without such parameters; ``parameters`` holds every
        parameter of the rule set (``record_params``)."""
        t = self.tournament
        rs = t.ruleset
        params = rs.record_params()
        return {
            "games": self.games,
            "bots": [row.to_json(rs.seat_names) for row in self.table()],
            "planned": t.games,
            "interrupted": self.interrupted,
            "seed": t.seed,
            "players": rs.players,
            "preset": params.get("preset"),
            "board": params.get("board"),
            "lineup": list(t.lineup),
            "colors": list(rs.seat_names),
            "deals": t.deals,
            "reasons": self.reasons(),
            "game": rs.game,
            "gods": params.get("gods", False),
            "parameters": params,
            "score": rs.score_name,
            "no_winner": self._totals.no_winner,
            "shared": self._totals.shared,
            "mean_moves": (self._totals.moves / self.games) if self.games else 0.0,
            "seconds": self.seconds,
            "workers": self.workers,
            "scheduler": self.scheduler,
        }

    def summary(self) -> str:
        """The summary for people: what was played, how fast, how the games ended, then the per-bot table."""
        t = self.tournament
        rs = t.ruleset
        where = f"Dask scheduler {self.scheduler}" if self.scheduler else _count(self.workers, "worker")
        rate = self.games / self.seconds if self.seconds > 0 else 0.0
        lines = []
        if self.interrupted:
            lines.append(f"interrupted: {self.games} of {t.games} games finished "
                         f"(the last deals may lack some seat rotations)")
        lines.append(f"{t.games} games: {_count(t.deals, 'deal')} x {t.players} seat rotations, seed {t.seed}; "
                     f"{rs.describe()}")
        how = ", ".join(f"{ended(rs, reason)} {n}" for reason, n in self.reasons().items())
        if rs.may_end_without_winner:
            how += f"; without a winner ({rs.rule_of('winner')}) {self._totals.no_winner}"
        if rs.shares_victory:
            how += (f"; the victory shared ({rs.rule_of('winner')}) {self._totals.shared} (k players sharing it "
                    f"win 1/k each)")
        lines.append(f"{where}, {self.seconds:.1f} s, {rate:.2f} games/s; ended {how}")
        if rs.pairs:
            plays = ", ".join(f"{name} plays {' and '.join(rs.color_names_of(seat))}"
                              for seat, name in enumerate(rs.seat_names))
            lines.append(f"{t.players} players, two colors each (R15): {plays}; a player's points are its weaker "
                         f"color's (R15.5)")
        lines.append("")
        lines.append(format_table(self.table(), rs.seat_names, rs.score_name))
        return "\n".join(lines)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
