"""A ladder: many bots on duplicate deals, in groups that take turns at the table, rated together.

``make_ladder`` checks a ladder once; ``run_ladder`` plays it on the same
runners as ``kanaloa simulate`` (``kanaloa.play.simulate.run_games``: this
process, a pool of worker processes, a Dask cluster) and fits the ratings
(``kanaloa.play.ratings``).  ``kanaloa ladder`` is the command.

**Groups.**  A ladder of ``k`` bots plays games of ``seats`` players, any
registered game and rule set (``seats`` is its ``players``), with ``k >=
seats``.  A *group* is a set of ``seats`` bots; there are ``C(k, seats)``.
Every deal is played by one group, in every seating rotation of it (below),
and the deals take the groups in turn: deal ``d`` is played by group
``order[d mod C(k, seats)]``, so that after each full cycle of ``C(k,
seats)`` deals every group has played equally often and every pair of bots
has met equally often.  The order of one cycle is fixed (``group_order``):
each next group is the one not yet taken in the cycle whose pairs of bots
have met least so far (summed over its pairs), then whose bots have played
least, then the first in lexicographic order; so a run that ends within a
cycle has still seated every pair about equally often.  With as many bots as
seats there is one group, and the ladder plays exactly the games of
``kanaloa simulate --bots`` with the same bots and seed.

**Rotations and seeds** are simulate's (``kanaloa.play.tournament``): game
``g`` is deal ``g // seats``, rotation ``g % seats``; in rotation ``r`` the
group's bot ``i`` (its bots in the order of ``--bots``) sits in seat ``(i +
r) mod seats``, so on every deal each bot of the group sits in each seat
once.  Deal ``d`` is dealt from ``deal_seed(seed, d)``, the bot in seat ``s``
of game ``g`` starts with ``bot_seed(seed, g, s)``
(``kanaloa.play.streams``), wherever the game is played.

**A game's result** is its placings (``GameRecord.placings``): the seats in
the order of the game's ranks, except that the seats sharing a victory
(R20.10), and every seat of a game without a winner (R16.7), share the first
place.  The ratings are the Plackett-Luce fit of these orders, ties counted
as ``kanaloa.play.ratings`` says, on the Elo scale.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..errors import OptionError, quote
from ..rules.registry import document_game, load_game
from ..rules.ruleset import ParameterError, Ruleset
from .ratings import PRIOR, Fit, Rankings, fit_ratings
from .records import GameRecord, MoveLog
from .simulate import Ran, run_games
from .stats import BotStats, BotTable, format_share, wins_json
from .streams import bot_seeds, deal_seed
from .totals import ended
from .tournament import check_core, check_games, check_seed, measured_bot, option_error

FORMAT = "kanaloa-ladder/1"
MAX_BOTS = 16  # at most C(16, 4) = 1820 groups, whose order is made at once
DEFAULT_DEALS = 25  # at least this many deals by default, in whole cycles of the groups


def group_order(bots: int, seats: int, count: int | None = None) -> tuple[tuple[int, ...], ...]:
    """The first ``count`` groups (all ``C(bots, seats)`` when None or more) of one cycle, in the order the
    deals take them (see *Groups* in the module docstring); each group is its bots' numbers, ascending."""
    combos = list(itertools.combinations(range(bots), seats))
    total = len(combos)
    count = total if count is None else min(count, total)
    pair_load = [0] * total  # for each group: how often its pairs have met so far, summed
    bot_load = [0] * total  # for each group: how often its bots have played so far, summed
    with_pair: dict[tuple[int, int], list[int]] = {}
    with_bot: dict[int, list[int]] = {}
    for c, combo in enumerate(combos):
        for pair in itertools.combinations(combo, 2):
            with_pair.setdefault(pair, []).append(c)
        for bot in combo:
            with_bot.setdefault(bot, []).append(c)
    left = list(range(total))
    order: list[tuple[int, ...]] = []
    for _ in range(count):
        best = min(left, key=lambda c: (pair_load[c], bot_load[c], c))
        left.remove(best)
        combo = combos[best]
        order.append(combo)
        for pair in itertools.combinations(combo, 2):
            for c in with_pair[pair]:
                pair_load[c] += 1
        for bot in combo:
            for c in with_bot[bot]:
                bot_load[c] += 1
    return tuple(order)


@dataclass(frozen=True)
class Ladder:
    """What a ladder plays: its bots, games, seed, rule set and the order of its groups.

    Build it with ``make_ladder``, which checks everything.  ``groups`` holds
    the groups of the first deals of a cycle (all of them when the ladder
    plays a whole cycle or more); ``cycle`` is the number of groups,
    ``C(len(bots), seats)``.  It is what ``play_game`` needs
    (``kanaloa.play.tournament.Seated``).
    """

    bots: tuple[str, ...]
    games: int
    seed: int
    ruleset: Ruleset
    groups: tuple[tuple[int, ...], ...]
    cycle: int

    @property
    def seats(self) -> int:
        return self.ruleset.players

    @property
    def deals(self) -> int:
        return self.games // self.seats

    def group_of(self, deal: int) -> tuple[int, ...]:
        """The bots (their numbers in ``bots``) that play deal ``deal``."""
        return self.groups[deal % self.cycle]  # within the first cycle, ``groups`` holds every deal played

    def seat_bots(self, game: int) -> tuple[int, ...]:
        """The number of the bot in each seat of ``game``: the group's bot ``i`` sits in seat ``(i + r) mod
        seats`` in rotation ``r``."""
        p = self.seats
        group = self.group_of(game // p)
        r = game % p
        return tuple(group[(seat - r) % p] for seat in range(p))

    def seating(self, game: int) -> tuple[str, ...]:
        return tuple(self.bots[b] for b in self.seat_bots(game))

    def deal_seed(self, game: int) -> int:
        return deal_seed(self.seed, game // self.seats)

    def bot_seeds(self, game: int) -> tuple[int, ...]:
        return bot_seeds(self.seed, game, self.seats)


def default_games(bots: int, seats: int) -> int:
    """``--games`` when not given: the fewest whole cycles of the groups that make at least ``DEFAULT_DEALS``
    deals, each played in every seat rotation."""
    cycle = math.comb(bots, seats)
    return seats * cycle * -(-DEFAULT_DEALS // cycle)


def parse_bots(text: str) -> list[str]:
    """The bot specs of ``--bots`` (comma-separated, each checked): distinct, from 2 to ``MAX_BOTS``."""
    specs = [s.strip() for s in text.split(",")]
    if not text.strip() or any(not s for s in specs):
        raise OptionError(f"--bots {quote(text)}: expected comma-separated bot specs, with none empty")
    for spec in specs:
        measured_bot(spec)  # raises OptionError naming the spec and the bad part
    seen: set[str] = set()
    for spec in specs:
        if spec in seen:
            raise OptionError(f"--bots {quote(text)}: {quote(spec)} is named twice; a ladder rates each bot once, "
                              f"and its game records tell the bots apart by their specs")
        seen.add(spec)
    if len(specs) < 2:
        raise OptionError(f"--bots {quote(text)}: a ladder needs at least 2 bots to rate")
    if len(specs) > MAX_BOTS:
        raise OptionError(f"--bots: {len(specs)} bots; a ladder rates at most {MAX_BOTS}")
    return specs


def ladder_ruleset(specs: Sequence[str], game: str | None, players: int | None, **params: Any) -> Ruleset:
    """The rule set the ladder plays: ``game`` (the default game when None) with ``params`` and ``players``
    seats (the game's default when None), which must be no more than the bots; ``OptionError`` naming the
    option otherwise."""
    name = document_game(None).name if game is None else game
    try:
        ruleset = load_game(name, **params) if players is None else load_game(name, players=players, **params)
    except ParameterError as exc:
        raise option_error(exc) from None
    seats = ruleset.players
    if len(specs) < seats:
        said = f"--players {players}" if players is not None else f"the {seats} seats of a {ruleset.title} game " \
                                                                  f"(its default --players)"
        raise OptionError(f"--bots {quote(','.join(specs))}: {len(specs)} bots for {said}; a ladder seats a group "
                          f"of {seats} of its bots at every deal, so name at least {seats}"
                          + ("" if players is not None else f", or give --players {len(specs)}"))
    return ruleset


def make_ladder(bots: str | Sequence[str], games: int | None, seed: int, *, game: str | None = None,
                players: int | None = None, **params: Any) -> Ladder:
    """A checked ``Ladder``.

    ``bots`` is ``--bots`` (text, or its specs); ``games`` the number of
    games (None: ``default_games``), a positive multiple of the seats.
    Raises ``OptionError`` naming the option (``--bots``, ``--games``,
    ``--seed``, ``--players`` and the game's other parameters) for anything
    that cannot be: a bad or repeated spec, fewer than 2 or more than
    ``MAX_BOTS`` bots, fewer bots than seats, a bot the game cannot seat, a
    rule set that cannot be, a number of games that is no multiple of the
    seats.
    """
    specs = parse_bots(bots if isinstance(bots, str) else ",".join(bots))
    ruleset = ladder_ruleset(specs, game, players, **params)
    for spec in specs:
        measured_bot(spec).check(ruleset)  # a bot the game cannot seat (a face it lacks), named
    seats = ruleset.players
    if games is None:
        games = default_games(len(specs), seats)
    check_games(games, seats)
    check_seed(seed)
    check_core(ruleset)
    cycle = math.comb(len(specs), seats)
    return Ladder(tuple(specs), games, seed, ruleset, group_order(len(specs), seats, games // seats), cycle)


# -- the totals of a run ------------------------------------------------------------------------


class LadderTotals:
    """What a ladder adds up as its games finish: the per-bot table, the orders for the fit, each pair's
    meetings and score, the reasons the games ended and the move log's hash.  Exact sums (whole numbers and
    fractions), so nothing depends on the order in which games finish; the games' records themselves are
    not kept."""

    def __init__(self, ladder: Ladder) -> None:
        self.ladder = ladder
        self.number = {spec: i for i, spec in enumerate(ladder.bots)}
        self.table = BotTable(ladder.bots, ladder.seats)
        self.rankings = Rankings()
        k = len(ladder.bots)
        self.met = [[0] * k for _ in range(k)]  # games each pair played together
        self.score: list[list[Fraction]] = [[Fraction(0)] * k for _ in range(k)]  # [a][b]: a's score against b
        self.games = 0
        self.moves = 0
        self.reasons = dict.fromkeys(ladder.ruleset.reasons, 0)
        self.log = MoveLog()

    def add(self, record: GameRecord) -> None:
        """Count one finished game of the ladder (its seats' bots are read from its lineup)."""
        try:
            seat_bot = [self.number[spec] for spec in record.lineup]
        except KeyError as exc:
            raise ValueError(f"game {record.index}: bot {exc.args[0]!r} is not one of the ladder's") from None
        for outcome in record.outcomes():
            self.table.add(outcome)
        places = [tuple(seat_bot[s] for s in place) for place in record.placings()]
        self.rankings.add(places)
        half = Fraction(1, 2)
        for i, place in enumerate(places):
            for a, b in itertools.combinations(place, 2):  # tied: half a win each
                self._meet(a, b, half)
            for a in place:
                for later in places[i + 1:]:
                    for b in later:
                        self._meet(a, b, Fraction(1))
        self.games += 1
        self.moves += record.length
        self.reasons[record.reason] += 1
        self.log.add(record)

    def _meet(self, a: int, b: int, a_score: Fraction) -> None:
        self.met[a][b] += 1
        self.met[b][a] += 1
        self.score[a][b] += a_score
        self.score[b][a] += 1 - a_score


@dataclass
class LadderRun:
    """A ladder's finished games, summed up (``totals``), with the fit of their ratings and how the run went."""

    ladder: Ladder
    totals: LadderTotals
    ran: Ran
    anchor: int | None = None
    prior: float = PRIOR

    def __post_init__(self) -> None:
        self.fit: Fit | None = None
        if self.totals.games:
            self.fit = fit_ratings(len(self.ladder.bots), self.totals.rankings, self.prior, self.anchor)

    @property
    def games(self) -> int:
        return self.totals.games

    @property
    def interrupted(self) -> bool:
        return self.ran.interrupted

    def standings(self) -> list[tuple[int, BotStats]]:
        """Each bot's number and statistics, best rating first (ties: the order of ``--bots``)."""
        rows = self.totals.table.rows()
        fit = self.fit
        return sorted(enumerate(rows), key=lambda item: (-(fit.ratings[item[0]] if fit else 0.0), item[0]))

    def to_json(self) -> dict:
        """The ``ladder --json`` document, ``kanaloa-ladder/1`` (docs/commands.md "ladder --json")."""
        lad = self.ladder
        rs = lad.ruleset
        fit = self.fit
        bots = []
        for number, row in self.standings():
            low, high = fit.interval(number) if fit else (None, None)
            bots.append({
                "spec": row.spec,
                "rating": _two(fit.ratings[number]) if fit else None,
                "ci95": [_two(low), _two(high)],
                "error": _two(fit.errors[number]) if fit else None,
                "games": row.games,
                "wins": wins_json(row.wins),
                "win_share": row.win_share,
                "mean_points": row.mean_points,
                "mean_rank": row.mean_rank,
            })
        k = len(lad.bots)
        pairs = [{"bots": [lad.bots[a], lad.bots[b]], "games": self.totals.met[a][b],
                  "score": float(self.totals.score[a][b] / self.totals.met[a][b]) if self.totals.met[a][b] else None}
                 for a in range(k) for b in range(a + 1, k)]
        return {
            "format": FORMAT,
            "games": self.games,
            "planned": lad.games,
            "interrupted": self.interrupted,
            "seed": lad.seed,
            "moves_sha256": self.totals.log.hexdigest(),
            "bots": bots,
            "anchor": None if self.anchor is None else lad.bots[self.anchor],
            "prior": self.prior,
            "pairs": pairs,
            "game": rs.game,
            "parameters": rs.record_params(),
            "players": rs.players,
            "colors": list(rs.seat_names),
            "score": rs.score_name,
            "deals": lad.deals,
            "groups": lad.cycle,
            "reasons": dict(self.totals.reasons),
            "mean_moves": self.totals.moves / self.games if self.games else 0.0,
            "seconds": self.ran.seconds,
            "workers": self.ran.workers,
            "scheduler": self.ran.scheduler,
        }

    def summary(self) -> str:
        """The ladder for people: what was played, the ratings table, and the line that checks a rerun."""
        lad = self.ladder
        rs = lad.ruleset
        lines = []
        if self.interrupted:
            lines.append(f"interrupted: {self.games} of {lad.games} games finished (the last deals may lack some "
                         f"seat rotations)")
        groups = (f"one group of {lad.seats}" if lad.cycle == 1 else
                  f"{lad.cycle} groups of {lad.seats} taking turns, {_cycles(lad.deals, lad.cycle)}")
        lines.append(f"ladder of {len(lad.bots)} bots: {lad.games} games, {_count(lad.deals, 'deal')} x "
                     f"{lad.seats} seat rotations, {groups}; {rs.describe()}")
        where = f"Dask scheduler {self.ran.scheduler}" if self.ran.scheduler else _count(self.ran.workers, "worker")
        rate = self.games / self.ran.seconds if self.ran.seconds > 0 else 0.0
        how = ", ".join(f"{ended(rs, reason)} {n}" for reason, n in self.totals.reasons.items())
        lines.append(f"{where}, {self.ran.seconds:.1f} s, {rate:.2f} games/s; ended {how}")
        anchor = "their mean at 0" if self.anchor is None else f"{lad.bots[self.anchor]} at 0"
        lines.append(f"ratings: Plackett-Luce fit of every game's placings on the Elo scale, {anchor}; 95% intervals "
                     f"from the observed information")
        lines.append("")
        lines.append(self.table())
        lines.append("")
        lines.append(f"{self.games} games, seed {lad.seed}, moves sha256 {self.totals.log.hexdigest()}")
        return "\n".join(lines)

    def table(self) -> str:
        """The ratings table, best first."""
        score = self.ladder.ruleset.score_name
        head = ["#", "bot", "games", "rating", "95% interval", "win share", "mean rank", f"mean {score}"]
        body = []
        fit = self.fit
        for place, (number, row) in enumerate(self.standings(), 1):
            if fit:
                low, high = fit.interval(number)
                rating, interval = _points(fit.ratings[number]), f"{_points(low)} to {_points(high)}"
            else:
                rating = interval = "-"
            body.append([str(place), row.spec, str(row.games), rating, interval, format_share(row.win_share),
                         f"{row.mean_rank:.2f}", f"{row.mean_points:.2f}"])
        widths = [max(len(line[i]) for line in [head, *body]) for i in range(len(head))]
        out = []
        for line in [head, *body]:
            cells = [line[0].rjust(widths[0]), line[1].ljust(widths[1])]
            cells += [cell.rjust(w) for cell, w in zip(line[2:], widths[2:], strict=True)]
            out.append("  ".join(cells).rstrip())
        return "\n".join(out)


def _two(value: float | None) -> float | None:
    """A rating in JSON: two decimals (and 0.0, not -0.0)."""
    return None if value is None else round(value, 2) + 0.0


def _points(rating: float) -> str:
    """A rating for people, in whole points with its sign (``+0`` rather than ``-0``)."""
    return f"{rating if round(rating) else 0.0:+.0f}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _cycles(deals: int, cycle: int) -> str:
    whole, part = divmod(deals, cycle)
    said = _count(whole, "whole cycle") if whole else "no whole cycle"
    return said + (f" and {part} deals of the next" if part else "")


def run_ladder(ladder: Ladder, workers: int = 1, scheduler=None, on_record=None, anchor: int | None = None,
               prior: float = PRIOR) -> LadderRun:
    """Play every game of ``ladder`` (on the runners of ``run_games``) and fit the ratings of what finished.

    ``on_record`` is called for each finished game, in the order games
    finish (``kanaloa.play.records.RecordWriter`` puts them in order);
    ``anchor`` is the number of the bot rated 0 (None: the mean at 0).
    Ctrl-C stops the run with the games finished so far, ``interrupted``
    set.
    """
    totals = LadderTotals(ladder)

    def take(record: GameRecord) -> None:
        totals.add(record)
        if on_record is not None:
            on_record(record)

    ran = run_games(ladder, iter(range(ladder.games)), take, workers, scheduler, planned=ladder.games)
    return LadderRun(ladder, totals, ran, anchor, prior)
