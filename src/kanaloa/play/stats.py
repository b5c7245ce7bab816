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

For the balance report (``kanaloa report``) the module also compares: two
shares by the difference of proportions with Newcombe's hybrid score
interval (built from the two Wilson intervals), means (``Moments``: exact
sums of a whole-number quantity, game lengths or scores) with the normal
interval of a mean and of a difference of means, and several shares at once
with Pearson's chi-square tests (``seat_equality``: are the seats' wins
spread evenly; ``homogeneity``: are two sets' wins spread alike), whose
p-values ``chi_square_sf`` gives.
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


# -- comparing shares and means (the balance report) ------------------------------------------


def share_difference(wins1: Wins, trials1: int, wins2: Wins, trials2: int,
                     z: float = Z95) -> tuple[float, float, float]:
    """``p1 - p2`` of two independent shares ``wins / trials``, with Newcombe's hybrid score interval.

    The interval (Newcombe 1998, method 10) combines the two Wilson
    intervals ``(l1, u1)`` and ``(l2, u2)``: from ``d - sqrt((p1 - l1)^2 +
    (u2 - p2)^2)`` to ``d + sqrt((u1 - p1)^2 + (p2 - l2)^2)``.  It stays
    within [-1, 1] and behaves near 0 and 1, where the plain normal interval
    does not.  Returns ``(difference, low, high)``; a side without trials
    gives the whole of [-1, 1] around a difference of 0.
    """
    if not trials1 or not trials2:
        return 0.0, -1.0, 1.0
    p1, p2 = float(wins1) / trials1, float(wins2) / trials2
    l1, u1 = wilson_interval(wins1, trials1, z)
    l2, u2 = wilson_interval(wins2, trials2, z)
    d = p1 - p2
    return d, max(-1.0, d - math.hypot(p1 - l1, u2 - p2)), min(1.0, d + math.hypot(u1 - p1, p2 - l2))


@dataclass
class Moments:
    """Exact running sums of a whole-number quantity (a game's length, a seat's score): how many values,
    their sum and the sum of their squares, from which the mean and the sample variance follow."""

    count: int = 0
    total: int = 0
    squares: int = 0

    def add(self, value: int) -> None:
        self.count += 1
        self.total += value
        self.squares += value * value

    @property
    def mean(self) -> float:
        """The mean; 0.0 without values."""
        return self.total / self.count if self.count else 0.0

    @property
    def variance(self) -> float:
        """The sample variance (``n - 1`` in the denominator); 0.0 with fewer than two values."""
        if self.count < 2:
            return 0.0
        return float(Fraction(self.count * self.squares - self.total * self.total,
                              self.count * (self.count - 1)))

    def interval(self, z: float = Z95) -> tuple[float, float]:
        """The normal interval of the mean, ``mean -/+ z sqrt(variance / n)`` (the whole line without
        values)."""
        if not self.count:
            return -math.inf, math.inf
        half = z * math.sqrt(self.variance / self.count)
        return self.mean - half, self.mean + half


def mean_difference(first: Moments, second: Moments, z: float = Z95) -> tuple[float, float, float]:
    """The difference of two independent means, ``first - second``, with its normal interval
    ``d -/+ z sqrt(v1 / n1 + v2 / n2)`` (Welch's standard error).  Returns ``(difference, low, high)``;
    unbounded where a side has no values."""
    if not first.count or not second.count:
        return 0.0, -math.inf, math.inf
    d = first.mean - second.mean
    half = z * math.sqrt(first.variance / first.count + second.variance / second.count)
    return d, d - half, d + half


def chi_square_sf(x: float, df: int) -> float:
    """The chance that a chi-square variable with ``df`` degrees of freedom (a whole number from 1) is at
    least ``x``: the p-value of a chi-square statistic.

    For even ``df = 2k`` it is ``exp(-x/2)`` times the first ``k`` terms
    of the series of ``exp(x/2)``; for odd ``df = 2k + 1`` it is
    ``erfc(sqrt(x/2))`` plus ``exp(-x/2)`` times ``k`` terms in half-whole
    powers of ``x/2``.  Both are exact closed forms.
    """
    if df < 1:
        raise ValueError(f"chi_square_sf: df must be 1 or more, not {df}")
    if x <= 0:
        return 1.0
    h = x / 2.0
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for j in range(1, df // 2):
            term *= h / j
            total += term
        return min(1.0, math.exp(-h) * total)
    total = 0.0
    term = math.sqrt(h) / math.gamma(1.5)  # h^(1/2) / Gamma(3/2)
    for j in range(1, (df - 1) // 2 + 1):
        total += term
        term *= h / (j + 0.5)
    return min(1.0, math.erfc(math.sqrt(h)) + math.exp(-h) * total)


@dataclass(frozen=True)
class ChiSquare:
    """A chi-square test's result: the statistic, its degrees of freedom and the p-value."""

    statistic: float
    df: int
    p_value: float


def seat_equality(wins: Sequence[Wins]) -> ChiSquare | None:
    """Pearson's test that every seat wins equally often: ``wins`` by seat, every game with a winner counted
    once (a shared victory in shares, as everywhere here).

    Under equal seats each of ``n`` seats expects ``W / n`` of the ``W``
    wins; ``X^2 = sum((w - W/n)^2 / (W/n))`` with ``n - 1`` degrees of
    freedom.  With seats rotated on every deal (``kanaloa simulate``) the
    bots sit in every seat equally often, so a seat that wins more than its
    share wins for being that seat.  None with fewer than two seats or no
    win at all.
    """
    n = len(wins)
    total = sum(wins, Fraction(0))
    if n < 2 or total == 0:
        return None
    expected = total / n
    statistic = float(sum(((Fraction(w) - expected) ** 2 for w in wins), Fraction(0)) / expected)
    return ChiSquare(statistic, n - 1, chi_square_sf(statistic, n - 1))


def homogeneity(first: Sequence[Wins], second: Sequence[Wins]) -> ChiSquare | None:
    """Pearson's test that two sets of games spread their wins over the seats alike: the 2 x n table of
    wins by set and seat, ``n - 1`` degrees of freedom.  None when the sets have different seats, or a set,
    or a seat in both together, has no win."""
    n = len(first)
    if n != len(second) or n < 2:
        return None
    rows = [[Fraction(w) for w in first], [Fraction(w) for w in second]]
    row_totals = [sum(row, Fraction(0)) for row in rows]
    column_totals = [a + b for a, b in zip(rows[0], rows[1], strict=True)]
    grand = sum(row_totals, Fraction(0))
    if 0 in row_totals or 0 in column_totals:
        return None
    statistic = Fraction(0)
    for row, row_total in zip(rows, row_totals, strict=True):
        for cell, column_total in zip(row, column_totals, strict=True):
            expected = row_total * column_total / grand
            statistic += (cell - expected) ** 2 / expected
    return ChiSquare(float(statistic), n - 1, chi_square_sf(float(statistic), n - 1))
