"""A sequential probability ratio test of one bot against another, on duplicate deals, until it decides.

``kanaloa sprt NEW BASE`` asks whether NEW is stronger than BASE by
``elo1`` rather than by ``elo0`` (Elo on the pairwise scale below), and
plays only as many games as the answer needs.

**The games.**  NEW plays against ``players - 1`` copies of BASE: a
``kanaloa.play.tournament.Tournament`` whose lineup is NEW then BASE
repeated, played on the runners of ``kanaloa simulate``
(``kanaloa.play.simulate.run_games``).  Every deal is played once in every
seating rotation, so NEW sits in each seat once a deal (in rotation ``r``,
seat ``r``); with two players a deal is a pair of games with the seats
swapped.  The seeds are simulate's.

**A game's score** for NEW is the share of the BASE seats it finishes
above: 1 for each BASE seat below it, 1/2 for one tied with it (a shared
victory, R20.10, or a game without a winner, R16.7:
``GameRecord.placings``), 0 for one above, over ``players - 1``.  So 1/2 is
parity at any player count, and a score ``s`` is the Elo difference ``400
log10(s / (1 - s))`` of the pairwise model (``kanaloa.play.ratings``: the
chance of finishing above the other).

**The trials** are the deals: a deal's score is the mean of its games'
scores.  Games are handed out to the workers as they free up, but a deal
counts only once all its games and those of every earlier deal are in, so
the test sees the deals in deal order and its decision, its deal count and
its move log follow from the seed alone (bots with a time budget excepted).

**The test** is the generalised SPRT, with the normal approximation of the
trials: for ``n`` deals of mean score ``m`` and variance ``v``, and the
scores ``s0``, ``s1`` that ``elo0``, ``elo1`` give,
``LLR = n (s1 - s0) (2 m - s0 - s1) / (2 v)``, the log-likelihood ratio of
``s1`` against ``s0`` for normal trials of that variance.  The run stops as
soon as ``LLR >= log((1 - beta) / alpha)`` (H1 accepted: NEW is stronger by
``elo1``) or ``LLR <= log(beta / (1 - alpha))`` (H0 accepted: by no more
than ``elo0``); ``alpha`` and ``beta`` are the chances of the two errors.
``m`` is the deals' mean score; ``v`` their variance shrunk towards 1/4,
the most a score within 0 and 1 can have, with the weight of two deals
(``(n s2 + 2/4) / (n + 2)``, ``s2`` the deals' own variance), so that the
first deals, whose scores may all be equal, give a finite LLR; the shrinking
fades as the deals add up, and only ever lowers the LLR's size.  The normal
approximation is close for the small gaps the test is meant for (a few
tens of Elo, thousands of games); hypotheses far apart decide within a few
deals, on too little data for its error chances to be exact.  The Elo
estimate is that of ``m`` (unbounded at a score of 0 or 1), and its 95%
interval that of ``m`` plus and minus 1.959964 times ``sqrt(v / n)``
(unbounded where that passes 0 or 1).
"""

from __future__ import annotations

import itertools
import math
import sys
from dataclasses import dataclass, field

from ..errors import OptionError
from ..rules.ruleset import Ruleset
from .progress import Progress, clock_text
from .records import GameRecord, MoveLog
from .simulate import Ran, run_games
from .stats import Z95
from .tournament import Tournament

FORMAT = "kanaloa-sprt/1"
MAX_ELO = 1000.0  # |elo0|, |elo1| at most this: a score of 0.997
VARIANCE_PRIOR = 2  # deals of the largest variance, 1/4, that the deals' variance is shrunk towards


def score_of_elo(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger: ``1 / (1 + 10 ** (-elo / 400))``."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of_score(score: float) -> float | None:
    """The Elo difference of an expected score: ``400 log10(score / (1 - score))``; None (unbounded) at 0 and 1
    and beyond."""
    if not 0.0 < score < 1.0:
        return None
    return 400.0 * math.log10(score / (1.0 - score))


def llr(n: int, mean: float, variance: float, s0: float, s1: float) -> float:
    """The generalised SPRT's log-likelihood ratio of ``s1`` against ``s0`` for ``n`` trials of ``mean`` and
    ``variance`` (the normal approximation): ``n (s1 - s0) (2 mean - s0 - s1) / (2 variance)``."""
    if n == 0:
        return 0.0
    if variance <= 0:
        raise ValueError(f"llr: the variance must be above 0, got {variance}")
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)


@dataclass(frozen=True)
class Hypotheses:
    """What the test decides between: ``elo0`` (H0) and ``elo1`` (H1), with the error chances ``alpha`` and
    ``beta``.  ``check`` refuses what cannot be."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def check(self) -> Hypotheses:
        """``self``, or ``OptionError`` naming the option at fault."""
        for name, value in (("--elo0", self.elo0), ("--elo1", self.elo1)):
            if not math.isfinite(value) or abs(value) > MAX_ELO:
                raise OptionError(f"{name} {value:g}: must be a number of Elo from {-MAX_ELO:g} to {MAX_ELO:g}")
        if self.elo1 <= self.elo0:
            raise OptionError(f"--elo1 {self.elo1:g}: must be above --elo0 {self.elo0:g}; the test asks whether NEW "
                              f"gains elo1 rather than elo0")
        for name, value in (("--alpha", self.alpha), ("--beta", self.beta)):
            if not math.isfinite(value) or not 0.0 < value < 0.5:
                raise OptionError(f"{name} {value:g}: must be a chance above 0 and below 0.5")
        return self

    @property
    def s0(self) -> float:
        return score_of_elo(self.elo0)

    @property
    def s1(self) -> float:
        return score_of_elo(self.elo1)

    @property
    def bounds(self) -> tuple[float, float]:
        """``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``: H0 is accepted at or below the first, H1 at
        or above the second."""
        return math.log(self.beta / (1.0 - self.alpha)), math.log((1.0 - self.beta) / self.alpha)


@dataclass
class Trials:
    """The deals counted so far: their number, the sum of their scores and of their squares (in deal order)."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, score: float) -> None:
        self.n += 1
        self.total += score
        self.squares += score * score

    @property
    def mean(self) -> float:
        """The mean score of the deals (0.5 before any)."""
        return self.total / self.n if self.n else 0.5

    @property
    def variance(self) -> float:
        """The variance of a deal's score: the deals' own (``n`` in the denominator) shrunk towards 1/4, the
        most a score within 0 and 1 can have, with the weight of ``VARIANCE_PRIOR`` deals:
        ``(n s2 + 2 / 4) / (n + 2)``.  Always above 0, so that the first deals, whose scores may all be equal,
        give a finite LLR."""
        own = max(self.squares / self.n - self.mean ** 2, 0.0) if self.n else 0.0
        return (self.n * own + VARIANCE_PRIOR * 0.25) / (self.n + VARIANCE_PRIOR)

    def llr(self, h: Hypotheses) -> float:
        return llr(self.n, self.mean, self.variance, h.s0, h.s1)

    def elo(self) -> tuple[float | None, float | None, float | None]:
        """The Elo estimate and its 95% interval (None where unbounded)."""
        m = self.mean
        if self.n == 0:
            return elo_of_score(m), None, None
        half = Z95 * math.sqrt(self.variance / self.n)
        return elo_of_score(m), elo_of_score(m - half), elo_of_score(m + half)


def game_score(record: GameRecord, seat: int) -> tuple[float, int, int, int]:
    """NEW's score in ``record``, where it sat in ``seat``, and its wins, draws and losses against the other
    seats (see the module docstring)."""
    places = record.placings()
    mine = next(i for i, place in enumerate(places) if seat in place)
    wins = sum(len(place) for place in places[mine + 1:])
    draws = len(places[mine]) - 1
    losses = sum(len(place) for place in places[:mine])
    return (wins + draws / 2) / (wins + draws + losses), wins, draws, losses


@dataclass
class SprtRun:
    """An SPRT's counted deals and what they decided; ``decision`` is ``H1``, ``H0`` or ``undecided``."""

    tournament: Tournament
    hypotheses: Hypotheses
    max_games: int | None
    trials: Trials = field(default_factory=Trials)
    wins: int = 0
    draws: int = 0
    losses: int = 0
    decision: str = "undecided"
    log: MoveLog = field(default_factory=MoveLog)
    moves: int = 0
    ran: Ran | None = None

    @property
    def deals(self) -> int:
        return self.trials.n

    @property
    def games(self) -> int:
        return self.trials.n * self.tournament.players

    @property
    def interrupted(self) -> bool:
        return self.ran is not None and self.ran.interrupted

    def count_deal(self, records: list[GameRecord]) -> None:
        """Count one deal, its games in rotation order, and decide if the LLR has crossed a bound."""
        scores = []
        for record in records:
            score, w, d, lost = game_score(record, record.rotation)  # NEW sits in seat r in rotation r
            scores.append(score)
            self.wins += w
            self.draws += d
            self.losses += lost
            self.moves += record.length
            self.log.add(record)
        self.trials.add(sum(scores) / len(scores))
        lower, upper = self.hypotheses.bounds
        value = self.trials.llr(self.hypotheses)
        if value >= upper:
            self.decision = "H1"
        elif value <= lower:
            self.decision = "H0"

    def status(self) -> str:
        """The live line: deals and games, the score, the Elo estimate, the LLR and its bounds."""
        elo, low, high = self.trials.elo()
        lower, upper = self.hypotheses.bounds
        return (f"{_count(self.deals, 'deal')} ({self.games} games)  score {self.trials.mean:.3f}  Elo {_elo(elo)} "
                f"[{_elo(low)}, {_elo(high)}]  LLR {self.trials.llr(self.hypotheses):+.2f} [{lower:+.2f}, "
                f"{upper:+.2f}]")

    def verdict(self) -> str:
        h = self.hypotheses
        if self.decision == "H1":
            return f"H1 accepted: NEW gains (elo1 = {h.elo1:g} rather than elo0 = {h.elo0:g})"
        if self.decision == "H0":
            return f"H0 accepted: NEW does not gain (elo0 = {h.elo0:g} rather than elo1 = {h.elo1:g})"
        why = ("Ctrl-C stopped the run" if self.interrupted else
               f"--max-games {self.max_games} reached" if self.max_games is not None else "the run stopped")
        return f"undecided: {why} before the LLR crossed a bound"

    def to_json(self) -> dict:
        """The ``sprt --json`` document, ``kanaloa-sprt/1`` (docs/commands.md "sprt --json")."""
        t = self.tournament
        rs: Ruleset = t.ruleset
        h = self.hypotheses
        elo, low, high = self.trials.elo()
        lower, upper = h.bounds
        ran = self.ran
        return {
            "format": FORMAT,
            "decision": self.decision,
            "llr": round(self.trials.llr(h), 4),
            "bounds": [round(lower, 4), round(upper, 4)],
            "new": t.lineup[0],
            "base": t.lineup[1],
            "deals": self.deals,
            "games": self.games,
            "score": round(self.trials.mean, 6),
            "elo": _two(elo),
            "elo_ci95": [_two(low), _two(high)],
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "elo0": h.elo0,
            "elo1": h.elo1,
            "alpha": h.alpha,
            "beta": h.beta,
            "max_games": self.max_games,
            "interrupted": self.interrupted,
            "seed": t.seed,
            "moves_sha256": self.log.hexdigest(),
            "game": rs.game,
            "parameters": rs.record_params(),
            "players": rs.players,
            "lineup": list(t.lineup),
            "mean_moves": self.moves / self.games if self.games else 0.0,
            "seconds": ran.seconds if ran else 0.0,
            "workers": ran.workers if ran else 1,
            "scheduler": ran.scheduler if ran else None,
        }

    def summary(self) -> str:
        """The result for people: the decision, the LLR and its bounds, the games, the Elo estimate, the hash."""
        t = self.tournament
        h = self.hypotheses
        lower, upper = h.bounds
        elo, low, high = self.trials.elo()
        ran = self.ran
        copies = t.players - 1
        lines = []
        if self.interrupted:
            lines.append(f"interrupted: {_count(self.deals, 'deal')} ({self.games} games) counted; the games of "
                         f"deals not yet whole, or after one not yet whole, are left out")
        lines.append(self.verdict())
        lines.append(f"LLR {self.trials.llr(h):+.3f}, bounds [{lower:+.3f}, {upper:+.3f}] (alpha {h.alpha:g}, beta "
                     f"{h.beta:g}; elo0 {h.elo0:g}, elo1 {h.elo1:g})")
        lines.append(f"{self.games} games, {_count(self.deals, 'deal')} x {t.players} seat rotations: NEW "
                     f"{t.lineup[0]} against {copies} x BASE {t.lineup[1]}; {t.ruleset.describe()}")
        lines.append(f"score {self.trials.mean:.4f} (the share of BASE seats NEW finished above: {self.wins} above, "
                     f"{self.draws} tied, {self.losses} below), Elo {_elo(elo)} [95%: {_elo(low)}, {_elo(high)}]")
        if ran is not None:
            where = f"Dask scheduler {ran.scheduler}" if ran.scheduler else _count(ran.workers, "worker")
            lines.append(f"{where}, {clock_text(ran.seconds)} ({ran.seconds:.1f} s)")
        lines.append(f"{self.games} games, seed {t.seed}, moves sha256 {self.log.hexdigest()}")
        return "\n".join(lines)


def _two(value: float | None) -> float | None:
    return None if value is None else round(value, 2) + 0.0


def _elo(value: float | None) -> str:
    return "unbounded" if value is None else f"{value:+.1f}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


class LiveLine(Progress):
    """The test's line on standard error, in ``Progress``'s modes (redrawn on a terminal, every 30 s elsewhere):
    ``run``'s status (``SprtRun.status``) and the time taken; ``update(deals)`` after each counted deal."""

    def __init__(self, max_games: int | None, seats: int, stream=None, mode: str = "auto",
                 interval: float = 30.0) -> None:
        super().__init__(sys.maxsize if max_games is None else max_games // seats, stream, mode, interval,
                         unit="deals")
        self.run: SprtRun | None = None

    def line(self) -> str:
        status = self.run.status() if self.run is not None else "0 deals"
        return f"{status}  {clock_text(self.clock() - self.start)} elapsed"


def run_sprt(t: Tournament, hypotheses: Hypotheses, max_games: int | None = None, workers: int = 1, scheduler=None,
             on_record=None, on_deal=None) -> SprtRun:
    """Play deals of ``t`` (lineup: NEW, then BASE in every other seat) until the test decides, ``max_games``
    are played (a multiple of the seats; None: no limit) or Ctrl-C; the counted deals' result.

    ``on_record`` gets each counted game, in game order; ``on_deal`` the
    run after each counted deal (for a live line).  Games of deals after
    the last one counted are played but dropped: they are in neither the
    result, nor ``on_record``, nor the hash.
    """
    run = SprtRun(t, hypotheses, max_games)
    p = t.players
    waiting: dict[int, GameRecord] = {}

    def take(record: GameRecord) -> bool:
        waiting[record.index] = record
        while all(run.deals * p + r in waiting for r in range(p)):
            first = run.deals * p
            deal = [waiting.pop(first + r) for r in range(p)]
            run.count_deal(deal)
            if on_record is not None:
                for game in deal:
                    on_record(game)
            if on_deal is not None:
                on_deal(run)
            if run.decision != "undecided":
                return True
        return False

    games = iter(range(max_games)) if max_games is not None else itertools.count()
    run.ran = run_games(t, games, take, workers, scheduler, planned=max_games)
    return run
