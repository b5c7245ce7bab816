"""Statistics of bot-vs-bot tournaments: win shares with Wilson intervals, points, ranks.

The input is one ``SeatOutcome`` per bot per game (which spec sat in which
seat, its score, its rank, whether it won); the output is one ``BotStats``
row per distinct spec.  Nothing here knows about the rules beyond this: a
game has one winner (R8, R12), none (R16.7), or several who share the
victory (R20.10).  A sole winner counts one win; a victory shared by ``k``
players counts ``1/k`` of a win to each of them, so that a game never counts
more than one win, whoever shares it.  Wins are kept as exact fractions.

Identical specs in one lineup (``greedy,random,random,random``) make one row:
its ``games`` counts *player-games* (a game with three ``random`` seats adds
three), ``copies`` says how many seats the spec fills per game, and its win
share is the share of those player-games won, so that it compares directly
with a single bot's and with the fair share ``1 / players``.

The 95% interval is Wilson's score interval with ``z = 1.959964``; with
shared victories it is computed from the fractional count of wins, as if
``wins`` of the ``games`` trials had been won.  A game's share of a win lies
between 0 and 1, so its variance is at most ``p(1-p)``, the variance the
interval assumes: shares of ``1/k`` make the interval, if anything, wider
than it needs to be.  It treats
the counted games as independent trials, which they are only roughly: copies
of one spec in a game cannot both win (which narrows the true spread of their
share), and the seat rotations of one deal share its cards (rotating seats is
meant to cancel the deal's seat luck, which usually narrows it too, though
nothing guarantees it).  Read the interval as a good approximation.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

Z95 = 1.959964  # the two-sided 95% quantile of the standard normal


Wins = int | Fraction  # a count of wins: whole, or with shared victories a fraction (R20.10)


def wilson_interval(wins: Wins, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a binomial share ``wins / trials``.

    ``wins`` may be a fraction (shared victories, module docstring).
    Returns ``(low, high)`` within [0, 1]; with no trials at all it is the
    whole of [0, 1].  Raises ``ValueError`` when ``wins`` is not within
    ``0 .. trials``.
    """
    if trials < 0 or not 0 <= wins <= trials:
        raise ValueError(f"wilson_interval: need 0 <= wins <= trials, got wins={wins}, trials={trials}")
    if trials == 0:
        return 0.0, 1.0
    p = float(wins) / trials
    z2 = z * z
    denominator = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1.0 - p) / trials + z2 / (4 * trials * trials)) / denominator
    # With no win (or no loss) the end is exactly 0 (or 1); the formula leaves rounding dust there.
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == trials else min(1.0, centre + half)
    return low, high


def whole(wins: Wins) -> Wins:
    """``wins`` as an ``int`` when it is a whole number, else the fraction itself."""
    return int(wins) if Fraction(wins).denominator == 1 else wins


def wins_json(wins: Wins) -> int | float:
    """A count of wins in JSON: a whole number, or a fraction's value as a number (shared victories)."""
    w = whole(wins)
    return w if isinstance(w, int) else float(w)


def format_wins(wins: Wins) -> str:
    """A count of wins for people: ``12``, or with shared victories ``12.33``."""
    w = whole(wins)
    return str(w) if isinstance(w, int) else f"{float(w):.2f}"


@dataclass(frozen=True)
class SeatOutcome:
    """How one bot did in one game: its spec, seat, final score (the rule set's ``score_name``: points, or
    what the game counts), rank (1 = best) and whether it won: True or False, or for a victory shared by
    ``k`` players its share ``Fraction(1, k)`` (R20.10)."""

    spec: str
    seat: int
    points: int
    rank: int
    won: bool | Fraction


@dataclass(frozen=True)
class SeatShare:
    """A bot's record from one seat."""

    seat: int
    games: int
    wins: Wins

    @property
    def win_share(self) -> float | None:
        """``wins / games``, or None when the bot never sat there."""
        return float(self.wins) / self.games if self.games else None


@dataclass(frozen=True)
class BotStats:
    """One row of the summary: a distinct spec and how it did.

    ``games`` counts player-games (see the module docstring), ``copies`` the
    seats the spec fills in each game, ``by_seat`` one entry per seat.
    """

    spec: str
    copies: int
    games: int
    wins: Wins
    points: int
    ranks: int
    by_seat: tuple[SeatShare, ...]

    @property
    def win_share(self) -> float:
        return float(self.wins) / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def mean_points(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def mean_rank(self) -> float:
        return self.ranks / self.games if self.games else 0.0

    def to_json(self, colors: Sequence[str]) -> dict:
        """The ``simulate --json`` entry of this bot (docs/commands.md, "A bot")."""
        low, high = self.ci95
        return {
            "spec": self.spec,
            "games": self.games,
            "wins": wins_json(self.wins),
            "win_share": self.win_share,
            "ci95": [low, high],
            "mean_points": self.mean_points,
            "mean_rank": self.mean_rank,
            "copies": self.copies,
            "by_seat": [
                {"seat": s.seat, "color": colors[s.seat], "games": s.games, "wins": wins_json(s.wins),
                 "win_share": s.win_share}
                for s in self.by_seat
            ],
        }


@dataclass
class _Tally:
    games: int = 0
    wins: Wins = 0
    points: int = 0
    ranks: int = 0
    seat_games: list[int] = field(default_factory=list)
    seat_wins: list[Wins] = field(default_factory=list)


class BotTable:
    """Running totals per distinct spec of a lineup: add outcomes one at a time, read ``rows()`` at any point.

    What it keeps does not grow with the number of games, so a tournament of
    any length is summed up as it streams by.  Sums are exact (integers, and
    fractions for shared victories), so the rows do not depend on the order
    in which outcomes are added.
    """

    def __init__(self, lineup: Sequence[str], players: int) -> None:
        self.lineup = tuple(lineup)
        self.players = players
        self.copies: dict[str, int] = {}
        for spec in lineup:
            self.copies[spec] = self.copies.get(spec, 0) + 1
        self._tallies = {spec: _Tally(seat_games=[0] * players, seat_wins=[0] * players) for spec in self.copies}

    def add(self, out: SeatOutcome) -> None:
        """Count one bot's outcome of one game.  Raises ``ValueError`` for a spec or seat not in the table."""
        tally = self._tallies.get(out.spec)
        if tally is None:
            raise ValueError(f"bot_table: spec {out.spec!r} is not in the lineup {', '.join(self.lineup)}")
        if not 0 <= out.seat < self.players:
            raise ValueError(f"bot_table: seat {out.seat} is outside 0..{self.players - 1}")
        tally.games += 1
        tally.points += out.points
        tally.ranks += out.rank
        tally.seat_games[out.seat] += 1
        if out.won:
            share: Wins = 1 if out.won is True else out.won
            tally.wins += share
            tally.seat_wins[out.seat] += share

    def rows(self) -> list[BotStats]:
        """One ``BotStats`` per distinct spec, in the order of first appearance in the lineup."""
        return [
            BotStats(
                spec=spec,
                copies=self.copies[spec],
                games=t.games,
                wins=whole(t.wins),
                points=t.points,
                ranks=t.ranks,
                by_seat=tuple(SeatShare(s, t.seat_games[s], whole(t.seat_wins[s])) for s in range(self.players)),
            )
            for spec, t in self._tallies.items()
        ]


def bot_table(lineup: Sequence[str], players: int, outcomes: Iterable[SeatOutcome]) -> list[BotStats]:
    """One ``BotStats`` per distinct spec of ``lineup``, in the order of first appearance.

    ``outcomes`` may hold any number of games (an interrupted run gives
    fewer than planned); every spec in them must be in ``lineup``.  Sums are
    exact, so the result does not depend on the order of ``outcomes``.
    """
    table = BotTable(lineup, players)
    for out in outcomes:
        table.add(out)
    return table.rows()


def format_share(share: float | None) -> str:
    """A share as a percentage with one decimal, or ``-`` when there is none."""
    return "-" if share is None else f"{100 * share:.1f}%"


def format_table(rows: Sequence[BotStats], colors: Sequence[str], score: str = "points") -> str:
    """The per-bot summary for people: one line per spec, win shares by seat last; ``score`` names what the
    mean score counts (the rule set's ``score_name``)."""
    head = ["bot", "games", "wins", "win share", "95% interval", f"mean {score}", "mean rank", *colors]
    body = []
    for row in rows:
        low, high = row.ci95
        name = row.spec if row.copies == 1 else f"{row.spec} (x{row.copies})"
        body.append([
            name, str(row.games), format_wins(row.wins), format_share(row.win_share),
            f"{format_share(low)}-{format_share(high)}", f"{row.mean_points:.2f}", f"{row.mean_rank:.2f}",
            *(format_share(s.win_share) for s in row.by_seat),
        ])
    widths = [max(len(line[i]) for line in [head, *body]) for i in range(len(head))]
    lines = []
    for line in [head, *body]:
        cells = [line[0].ljust(widths[0])] + [cell.rjust(w) for cell, w in zip(line[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)
