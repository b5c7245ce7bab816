"""Steadiness of hints: do runs with different seeds agree, as far as each run says it can tell?

A hint marks the moves the search cannot tell apart from its best as
*about equal* (``kanaloa.play.hint.about_equal``).  That claim can be
checked: run the same hint with several seeds, and for every ordered pair
of runs (i, j) ask whether run i's move lies in run j's about-equal set.
If the reported uncertainty is honest, it nearly always does: a run that
picked another move was only told apart from it by chance.  The share of
agreeing pairs is the *steadiness*.

The positions are the bundled examples and ``reference_positions``: seeded
games of two, three and four players stopped at moves spread over the whole
game, each seen by the player to move (a viewer position, as a player at a
table would enter it).  The same seeds give the same positions everywhere.

``measure`` also reports how the errors the hints state compare with the
spread their win estimates really have from seed to seed
(``error_ratio``): for each move that every run tried at least
``ABOUT_EQUAL_MIN_SHARE`` as often as its best move, the variance of its
win chance over the runs, against the mean square of its stated error,
pooled over moves and positions.  A ratio near 1 means the stated errors
are the real ones.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from ..play.hint import ABOUT_EQUAL_MIN_SHARE, Hint, hint
from ..position.api import Position

EXAMPLES = ("midgame",)  # the bundled examples (src/kanaloa/examples/*.json)
REFERENCE_SEED = 2026  # seed of the reference positions
REFERENCE_COUNT = 20
SEEDS = (1, 2, 3, 4, 5)
PLAYER_CYCLE = (4, 3, 2)  # reference position k has PLAYER_CYCLE[k % 3] players
MIN_MOVES, MAX_MOVES = 12, 150  # the random moves before a reference position, drawn per position


def example_positions() -> list[tuple[str, Position]]:
    """The bundled example positions, by name."""
    out = []
    for name in EXAMPLES:
        text = resources.files("kanaloa.examples").joinpath(f"{name}.json").read_text("utf-8")
        out.append((f"example {name}", Position.from_json(text)))
    return out


def reference_positions(count: int = REFERENCE_COUNT, seed: int = REFERENCE_SEED) -> list[tuple[str, Position]]:
    """``count`` positions from seeded random games, each seen by its player to move.

    Position k deals a game of ``PLAYER_CYCLE[k % 3]`` players from a seed
    drawn from ``seed`` and plays a drawn number of random moves
    (``MIN_MOVES`` to ``MAX_MOVES``); a game that ends first, or a stop
    where the player to move has one legal move only, is dealt again from
    the next seed drawn.
    """
    rng = random.Random(seed)
    out: list[tuple[str, Position]] = []
    while len(out) < count:
        players = PLAYER_CYCLE[len(out) % len(PLAYER_CYCLE)]
        deal = rng.getrandbits(32)
        moves = rng.randint(MIN_MOVES, MAX_MOVES)
        pos = Position.new(players=players, seed=deal)
        stream = random.Random(deal)
        for _ in range(moves):
            if pos.is_over:
                break
            pos.push(stream.choice(pos.state.legal_actions()))
        if pos.is_over or len(pos.state.legal_actions()) < 2 or pos.waiting is not None:
            continue
        mover = pos.to_move
        assert mover is not None
        out.append((f"{players} players, deal {deal}, move {moves}", pos.as_viewer(mover)))
    return out


@dataclass
class PositionResult:
    """The runs on one position: each run's move and about-equal set, and the agreeing ordered pairs."""

    name: str
    moves: list[str]
    about_equal: list[list[str]]
    agreeing: int
    pairs: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "moves": self.moves, "about_equal": self.about_equal,
                "agreeing": self.agreeing, "pairs": self.pairs}


@dataclass
class Report:
    """Steadiness over all positions, with the comparison of stated and real errors."""

    positions: list[PositionResult] = field(default_factory=list)
    spread: float = 0.0  # pooled variance of win estimates over the runs
    stated: float = 0.0  # pooled mean square of the stated errors
    moves_compared: int = 0

    @property
    def agreeing(self) -> int:
        return sum(p.agreeing for p in self.positions)

    @property
    def pairs(self) -> int:
        return sum(p.pairs for p in self.positions)

    @property
    def share(self) -> float:
        return self.agreeing / self.pairs if self.pairs else 0.0

    @property
    def error_ratio(self) -> float:
        """sqrt(real variance / stated variance): above 1, the stated errors are too small."""
        return math.sqrt(self.spread / self.stated) if self.stated > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"share": round(self.share, 4), "agreeing": self.agreeing, "pairs": self.pairs,
                "error_ratio": round(self.error_ratio, 3), "moves_compared": self.moves_compared,
                "positions": [p.to_json() for p in self.positions]}


def agreement(runs: Sequence[Hint]) -> tuple[int, int]:
    """(ordered pairs (i, j), i != j, where run i's move is about equal in run j; all ordered pairs)."""
    agreeing = sum(1 for a, b in itertools.permutations(runs, 2) if a.move in b.about_equal)
    return agreeing, len(runs) * (len(runs) - 1)


def measure(positions: Sequence[tuple[str, Position]], seeds: Sequence[int] = SEEDS, *,
            iterations: int | None = None, seconds: float | None = None, workers: int = 1,
            progress: Callable[[str], None] | None = None) -> Report:
    """Hint every position once per seed with the given budget and workers; see the module docstring."""
    report = Report()
    spread_sum = stated_sum = 0.0
    for name, pos in positions:
        runs = []
        for seed in seeds:
            runs.append(hint(pos, iterations=iterations, seconds=seconds, seed=seed, workers=workers, top=1000))
            if progress is not None:
                progress(f"{name}: seed {seed}: {runs[-1].move}")
        agreeing, pairs = agreement(runs)
        report.positions.append(PositionResult(name, [r.move for r in runs], [list(r.about_equal) for r in runs],
                                               agreeing, pairs))
        # Moves every run tried enough to weigh them against its best (ABOUT_EQUAL_MIN_SHARE of its visits):
        # their win estimates' spread over the runs against their stated errors.
        if len(runs) > 1:
            tables = [{c.move: c for c in r.candidates
                       if c.visits >= ABOUT_EQUAL_MIN_SHARE * r.candidates[0].visits} for r in runs]
            for move in set.intersection(*(set(t) for t in tables)):
                wins = [t[move].win for t in tables]
                mean = sum(wins) / len(wins)
                spread_sum += sum((w - mean) ** 2 for w in wins) / (len(wins) - 1)
                stated_sum += sum(t[move].error ** 2 for t in tables) / len(tables)
                report.moves_compared += 1
    if report.moves_compared:
        report.spread = spread_sum / report.moves_compared
        report.stated = stated_sum / report.moves_compared
    return report
