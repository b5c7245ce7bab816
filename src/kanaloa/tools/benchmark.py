"""Performance figures: what ``kanaloa bench`` prints and the suite in ``bench/`` times.

**The driver knows no game.**  ``run_bench`` asks every registered game
(``kanaloa.rules.registry.game_types()``) for its ``bench`` face, called with
the game's ``GameType``, which returns a ``GameBench``: what to time and count
for that game.  The driver runs what the face lists:

* **batches** (``Batch``): whole random games of one rule set played in the
  game's compiled core, a fixed batch of seeded games timed as a whole (the
  face's ``core_games``, or the batch's own ``games`` where the game times
  something else in C, such as another playout policy);
* **the same games in every engine** (``SameGames``): one batch of seeded
  games of a rule set, played whole in C, move by move through the Python API
  (the game's ``position`` face) and by the reference with the same move
  stream, so all three play the very same games (their equal move totals prove
  it).  ``reference_ratio`` (with the batch's suffix) is the speed of C over
  the reference on that same work.  The batch is not the small signature set:
  timing the core on a few games played over and over would let the processor
  learn their branches and flatter the core;
* **signatures** (``Signature``): the total number of moves in a fixed set of
  seeded random games of some rule sets.  It depends on nothing but the rules,
  so it changes exactly when behaviour changes, and every implementation must
  give the same number.  Each signature covers the rules it names, so that
  each number moves only with them;
* **a probe** (``Probe``): what else the game measures (its search,
  determinisations, single operations on reference positions), with its own
  rows in the report.

A random game is the same in every implementation: game ``g`` of a batch from
``seed`` is dealt from ``seed + g`` by the game's ``position`` face
(``deal(ruleset, seed, engine)``, on the engine named ``"core"`` or
``"reference"``) and played with the move stream ``SplitMix64((seed + g) ^
salt)`` (the face's ``salt``), ``legal[next() % len(legal)]`` of the sorted
legal list at every step, chance keeping the state's own stream.  Nothing
here knows which game it times: what a game's states and positions offer is
the position protocol (``kanaloa.rules.registry``), and every figure's key,
label and rule ids come from the face.

**The Kanaloa family** (``kanaloa_workloads`` and ``kahuna_workloads``, the
faces of its two games) times Kanaloa with 4, 3 and 2 players (R15) and with the gods (R14), and
Kahuna (R16) on its own board, in C (``kanaloa_core.random_games``) and in
every engine; its signatures are ``signature`` (3 and 4 players, both
presets), ``signature_2p`` (R15), ``signature_gods`` (R14) and
``signature_kahuna`` (R16).  Its probe times determinisations, one ISMCTS
search as hints run it (and, with the extra openspiel, OpenSpiel's Python
ISMCTS on the same position through ``kanaloa.openspiel``:
``openspiel_ismcts_iterations_per_s``, and with ``rollout=core``:
``openspiel_ismcts_core_iterations_per_s``), and single operations on the
**reference positions** (``bench_position``): fixed, reproducible states of
3- and 4-player Kanaloa, each reached from a seeded deal by playing the moves
a random game of ``random_games`` would play until the wanted phase begins at
the start of a turn: ``start`` (the first turn of round 1, after the R3
reveals), ``mid-round-1`` (round 1 with at most half of the round's deck
left), ``round-2`` (round 2, after the R9 reshuffle, with at most half of that
deck left), ``final`` (the first turn of the R10 final round).  A deal whose
game never reaches the phase (an R8 win, a round 2 with no deck) is skipped
for the next seed.

Timings are the CPU time of this process (``time.process_time``), so other
programs sharing the machine do not count: every figure is for one core.  Each
is the best of several runs of a fixed, seeded batch, so only the time varies
from run to run, never the work.
"""

from __future__ import annotations

import functools
import math
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..rules.engine import Engine, EngineState, load_engine
from ..rules.registry import GameType, game_type, game_types, load_game
from ..rules.rng import MASK64, SplitMix64
from ..rules.ruleset import Ruleset
from ..rules.state import StateData

if TYPE_CHECKING:
    from ..rules.core import CoreState
    from ..search import SearchResult

Say = Callable[[str], None]  # hears what is being measured
GameRules = Any  # a registered game's rule set (``GameType.load``), whatever its class

IMPLS = ("core", "api", "reference")  # the engines every signature and same-games batch is played in
PLAYOUT_SEED = 1_000_000  # first deal of the batches of random games in C
RATIO_SEED = PLAYOUT_SEED  # first deal of the games every engine plays for the ratios
SIGNATURE_SEED = 1  # the signature games of each rule set are dealt from SIGNATURE_SEED, SIGNATURE_SEED + 1, ...
SIGNATURE_GAMES = 8  # signature games per rule set


# -- what a game's bench face lists ------------------------------------------------------


@dataclass(frozen=True)
class Batch:
    """Whole random games of ``ruleset`` in the game's compiled core, timed as one batch; the figures
    ``playouts_key`` (games per second) and ``moves_key``."""

    label: str  # for people: "4 players", "Kahuna (R16), on its board"
    ruleset: GameRules
    playouts_key: str
    moves_key: str
    # ``games(n, seed) -> moves``: what the batch plays in C, where it is not the face's ``core_games`` on
    # ``ruleset`` (another playout policy, games from one start).
    games: Callable[[int, int], int] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class SameGames:
    """One batch of seeded random games of ``ruleset`` played in every engine.

    Its figures are keyed ``ratio``/``api``/``reference`` + ``suffix`` +
    ``_playouts_per_s`` or ``_moves_per_s``, ``api_ratio`` + ``suffix`` and
    ``reference_ratio`` + ``suffix``; the report adds ``ratio_games`` +
    ``suffix`` and ``ratio_moves`` + ``suffix`` (the move total per engine).
    ``small`` batches play ``Budget.games_small`` games, the others
    ``Budget.ratio_games``.
    """

    suffix: str  # "", "_2p", ...
    label: str  # for people: "random games (4 players)"
    ruleset: GameRules
    small: bool = True


@dataclass(frozen=True)
class Signature:
    """The move total of ``games`` seeded random games of each of ``rulesets``, dealt from ``seed`` on.

    ``key`` is its ``--json`` key (with ``key + "_games"`` and ``key +
    "_by_engine"`` beside it); ``name`` and ``rules`` are for people.
    """

    key: str
    name: str  # "signature", "2-player signature"
    rules: str  # the rule ids it covers, "" for the whole base game
    rulesets: tuple[GameRules, ...]
    games: int = SIGNATURE_GAMES
    seed: int = SIGNATURE_SEED

    @property
    def total_games(self) -> int:
        """How many games the signature plays."""
        return self.games * len(self.rulesets)

    @property
    def title(self) -> str:
        """``2-player signature (R15)``."""
        return f"{self.name} ({self.rules})" if self.rules else self.name

    def moves(self, impl: str = "core") -> int:
        """The move total with ``impl``: ``"core"`` (whole games in C), ``"api"`` (the core driven from Python
        through the game's positions) or ``"reference"``.  All three must give the same number."""
        play = _player(impl)
        return sum(play(rs, self.games, self.seed) for rs in self.rulesets)


@dataclass(frozen=True)
class Probe:
    """What a game measures beyond random games: ``measure(budget, say)`` returns (figures, single-operation
    rates per reference position), and ``write(figures, table)`` adds its rows to the report for people."""

    measure: Callable[[Budget, Say], tuple[dict[str, float | None], dict[str, dict[str, float | None]]]]
    write: Callable[[Mapping[str, float | None], Table], None]


@dataclass(frozen=True)
class GameBench:
    """What ``kanaloa bench`` times and counts for one game: what its ``bench`` face returns.

    ``core_games(ruleset, games, seed)`` plays ``games`` random games whole in
    the game's compiled core and returns their move total; ``salt`` separates
    each game's move stream from its deal (see the module docstring).
    ``targets`` gives the smallest acceptable figure of some keys; ``board``
    names the board the game's batches are played on, for the report (empty
    for a game without one).
    """

    core_games: Callable[[GameRules, int, int], int]
    salt: int
    board: str = ""
    batches: tuple[Batch, ...] = ()
    same_games: tuple[SameGames, ...] = ()
    signatures: tuple[Signature, ...] = ()
    probe: Probe | None = None
    targets: Mapping[str, float] = field(default_factory=dict)


@functools.cache
def _bench_by_name(name: str) -> GameBench:
    game = game_type(name)
    bench: GameBench = game.face("bench")(game)
    return bench


def game_bench(game: GameType | GameRules) -> GameBench:
    """The ``bench`` face's answer for ``game`` (a registered ``GameType``, or any game's rule set), made once."""
    return _bench_by_name(game.name if isinstance(game, GameType) else game.game)


def all_benches() -> list[tuple[GameType, GameBench]]:
    """Every registered game with what its bench face lists, in registration order."""
    return [(g, game_bench(g)) for g in game_types()]


def signature_sets() -> dict[str, Signature]:
    """Every registered game's signatures, by key."""
    return {s.key: s for _, bench in all_benches() for s in bench.signatures}


def signature(key: str = "signature", impl: str = "core") -> int:
    """The move total of the signature ``key`` (``signature_sets``) played by ``impl`` (``Signature.moves``)."""
    sets = signature_sets()
    if key not in sets:
        raise ValueError(f"signature {key!r}: choose one of {', '.join(sets)}")
    return sets[key].moves(impl)


def bench_targets() -> dict[str, float]:
    """The smallest acceptable figure of each key with a target, over every registered game."""
    return {k: v for _, bench in all_benches() for k, v in bench.targets.items()}


# -- random games, the same in every implementation ------------------------------


def play_random(state: Any, seed: int) -> int:
    """Play ``state`` (any engine state) to the end as ``random_games`` does; return the moves made.

    Moves come from ``SplitMix64(seed)``: ``legal[next() % len(legal)]`` of
    the sorted legal list at every step; chance keeps the state's own stream.
    """
    stream = SplitMix64(seed)
    moves = 0
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[stream.below(len(legal))])
        moves += 1
    return moves


def play_games(ruleset: GameRules, games: int, seed: int, engine: Engine | str = "core") -> int:
    """Deal and play ``games`` random games of ``ruleset`` move by move from Python; return the total moves.

    Game ``g`` is dealt from ``seed + g`` and played with the move stream
    ``(seed + g) ^ salt``: the games of ``core_games(ruleset, games, seed)``.
    ``engine`` is the compiled core (driven through its Python methods; the
    default) or the reference, by name (or a family ``Engine``), as the
    game's ``position`` face deals on it.
    """
    deal = ruleset.game_type.face("position").deal
    salt = game_bench(ruleset).salt
    total = 0
    for g in range(games):
        game_seed = (seed + g) & MASK64
        total += play_random(deal(ruleset, game_seed, engine).state, game_seed ^ salt)
    return total


def play_games_api(ruleset: GameRules, games: int, seed: int) -> int:
    """The same games as ``play_games``, through the game's positions (its ``position`` face: legal actions,
    ``push``)."""
    position = ruleset.game_type.face("position")
    salt = game_bench(ruleset).salt
    total = 0
    for g in range(games):
        game_seed = (seed + g) & MASK64
        pos = position.deal(ruleset, game_seed)
        stream = SplitMix64(game_seed ^ salt)
        state = pos.state
        while not state.is_over:
            legal = state.legal_actions()
            pos.push(legal[stream.below(len(legal))])
            total += 1
    return total


def core_games(ruleset: GameRules, games: int, seed: int) -> int:
    """The total moves of ``games`` random games of ``ruleset`` played whole in the game's compiled core."""
    return game_bench(ruleset).core_games(ruleset, games, seed)


def _player(impl: str) -> Callable[[GameRules, int, int], int]:
    """How ``impl`` plays a batch of random games: ``(ruleset, games, seed) -> moves``."""
    if impl == "core":
        return core_games
    if impl == "api":
        return play_games_api
    if impl == "reference":
        return _play_in_reference
    raise ValueError(f"impl {impl!r}: choose {', '.join(IMPLS[:-1])} or {IMPLS[-1]}")


def _play_in_reference(ruleset: GameRules, games: int, seed: int) -> int:
    return play_games(ruleset, games, seed, "reference")


def replay_line(state: Any, line: tuple[int, ...]) -> None:
    """Apply a position's recorded continuation to ``state``."""
    apply = state.apply
    for action in line:
        apply(action)


# -- timing -----------------------------------------------------------------------


def best_time(fn: Callable[[], Any], min_runs: int, min_seconds: float) -> float:
    """The least CPU time of ``fn()`` over at least ``min_runs`` runs and ``min_seconds`` in all.

    CPU time of this process, not wall time: the work is single-threaded, and
    time spent waiting for a core that other programs hold is not ours.
    """
    clock = time.process_time
    best = math.inf
    runs = 0
    spent = 0.0
    while runs < min_runs or spent < min_seconds:
        t0 = clock()
        fn()
        dt = clock() - t0
        best = min(best, dt)
        spent += dt
        runs += 1
    return max(best, 1e-9)


def _calls(fn: Callable[[], Any], n: int) -> Callable[[], None]:
    def run() -> None:
        for _ in range(n):
            fn()
    return run


@dataclass(frozen=True)
class Budget:
    """How long each measurement runs: ``QUICK`` for a glance, ``FULL`` for a report."""

    batch_games: int  # random games in C per timed batch
    ratio_games: int  # games every engine plays for reference_ratio and api_ratio
    runs: int  # timed runs per measurement, at least
    seconds: float  # CPU time per measurement, at least
    reference_runs: int  # timed runs of the reference over the ratio games
    ismcts_iterations: int
    ismcts_runs: int
    positions: tuple[tuple[int, str], ...]  # reference positions timed one operation at a time: (players, phase)
    op_calls: int  # calls per timed batch of a single operation
    ratio_games_small: int | None = None  # games of the smaller same-games batches; default ratio_games // 4
    openspiel_iterations: int = 100  # OpenSpiel's ISMCTS on the same position (with the extra openspiel)
    aec_steps: int = 2000  # steps of random play through the PettingZoo AEC environment per timed run
    batch_slots: int = 1024  # games of the batched API (GameBatch) held and stepped together
    batch_calls: int = 50  # steps of all of them per timed run

    @property
    def games_small(self) -> int:
        """Games every engine plays in a smaller same-games batch (2 players, Kahuna, the gods)."""
        return self.ratio_games_small if self.ratio_games_small is not None else max(1, self.ratio_games // 4)


PHASES = ("start", "mid-round-1", "round-2", "final")  # the phases of the reference positions
PLAYERS = (3, 4)  # the player counts of the reference positions

QUICK = Budget(batch_games=500, ratio_games=100, runs=3, seconds=0.1, reference_runs=1, ismcts_iterations=1000,
               ismcts_runs=1, positions=((4, "mid-round-1"),), op_calls=500, openspiel_iterations=100,
               aec_steps=2000, batch_slots=1024, batch_calls=20)
FULL = Budget(batch_games=2000, ratio_games=400, runs=5, seconds=1.0, reference_runs=2, ismcts_iterations=5000,
              ismcts_runs=3, positions=tuple((p, phase) for p in PLAYERS for phase in PHASES), op_calls=2000,
              openspiel_iterations=500, aec_steps=20000, batch_slots=1024, batch_calls=200)


# -- the report -------------------------------------------------------------------


@dataclass
class Tally:
    """The move totals of one fixed set of seeded games, by engine: equal when the engines play alike."""

    name: str  # for people: "2-player signature", "random 2-player games (R15)"
    games: int
    by_engine: dict[str, int] = field(default_factory=dict)
    rules: str = ""  # the rule ids it covers

    @property
    def agrees(self) -> bool:
        return len(set(self.by_engine.values())) <= 1

    @property
    def moves(self) -> int:
        """The total in C (the first engine asked, else 0)."""
        return self.by_engine.get("core", next(iter(self.by_engine.values()), 0))

    @property
    def title(self) -> str:
        return f"{self.name} ({self.rules})" if self.rules else self.name

    def engines(self) -> str:
        """``core 10, api 10, reference 11``."""
        return ", ".join(f"{k} {v}" for k, v in self.by_engine.items())


class Table:
    """The lines of the report for people: headings and aligned rows, with the targets' verdicts."""

    def __init__(self, targets: Mapping[str, float]) -> None:
        self.lines: list[str] = []
        self.targets = targets

    def heading(self, text: str) -> None:
        self.lines.append(text)

    def row(self, label: str, value: float | None, unit: str, extra: str = "", key: str | None = None) -> None:
        shown = "-" if value is None else f"{_human(value)} {unit}"
        note = extra
        if key is not None and key in self.targets and value is not None:
            target = self.targets[key]
            verdict = "met" if value >= target else "NOT MET"
            note = f"{note}  [target {_human(target)}: {verdict}]".strip()
        self.lines.append(f"  {label:<44}{shown:>20}  {note}".rstrip())


@dataclass
class BenchReport:
    """Every figure of a run; ``to_json`` is the ``--json`` form, ``table`` the one for people.

    ``figures`` holds the rates; ``positions`` the single-operation rates
    per reference position (``apply`` is ``None`` for a position without a
    recorded line); ``signatures`` each signature's move totals by engine,
    by its key; ``same_games`` each same-games batch's, by its suffix;
    ``batches`` and ``same_labels`` what the rows for people call them;
    ``probes`` the games' own rows; ``goals`` the targets; ``games`` the
    games measured, for people (``Kanaloa on oro``); ``board`` the first
    board their batches are played on.
    """

    board: str
    quick: bool
    figures: dict[str, float | None] = field(default_factory=dict)
    positions: dict[str, dict[str, float | None]] = field(default_factory=dict)
    signatures: dict[str, Tally] = field(default_factory=dict)
    same_games: dict[str, Tally] = field(default_factory=dict)
    seconds: float = 0.0
    batches: list[Batch] = field(default_factory=list)
    probes: list[Probe] = field(default_factory=list)
    goals: dict[str, float] = field(default_factory=bench_targets)
    games: list[str] = field(default_factory=list)

    @property
    def signature(self) -> int:
        """The main signature's total in C (0 when it was not measured)."""
        tally = self.signatures.get("signature")
        return tally.moves if tally is not None else 0

    @property
    def agrees(self) -> bool:
        """Whether every engine played the same games: equal signatures and equal same-games move totals."""
        return all(t.agrees for t in (*self.signatures.values(), *self.same_games.values()))

    def targets(self) -> dict[str, dict[str, Any]]:
        """For each target: the target, the figure and whether it is met (None if not measured)."""
        out = {}
        for key, target in self.goals.items():
            value = self.figures.get(key)
            out[key] = {"target": target, "value": _rounded(value), "met": None if value is None else value >= target}
        return out

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {key: _rounded(value) for key, value in self.figures.items()}
        doc.update(board=self.board, quick=self.quick)
        for key, tally in self.signatures.items():
            doc[key] = tally.moves
            doc[f"{key}_games"] = tally.games
            doc[f"{key}_by_engine"] = dict(tally.by_engine)
        for suffix, tally in self.same_games.items():
            doc[f"ratio_games{suffix}"] = tally.games
            doc[f"ratio_moves{suffix}"] = dict(tally.by_engine)
        doc.update(
            engines_agree=self.agrees,
            positions={name: {k: _rounded(v) for k, v in ops.items()} for name, ops in self.positions.items()},
            targets=self.targets(),
            seconds=round(self.seconds, 2),
        )
        return doc

    def table(self) -> str:
        """The report as aligned lines of text."""
        f = self.figures
        t = Table(self.goals)
        measured = ", ".join(self.games) if self.games else f"board {self.board}"
        t.heading(f"kanaloa bench: {measured}; {'quick' if self.quick else 'full'} run; "
                  f"per second of CPU time on one core, best of several runs")
        t.heading("")
        if self.batches:
            t.heading("Whole random games in C")
            for b in self.batches:
                t.row(b.label, f.get(b.playouts_key), "games/s", f"{_human(f.get(b.moves_key))} moves/s",
                      b.playouts_key)
        for suffix, tally in self.same_games.items():
            t.heading(f"The same {tally.games} {tally.title} in each engine")
            t.row("in C", f.get(f"ratio{suffix}_playouts_per_s"), "games/s",
                  f"{_human(f.get(f'ratio{suffix}_moves_per_s'))} moves/s")
            t.row("the core driven from Python (positions)", f.get(f"api{suffix}_playouts_per_s"), "games/s",
                  f"{_human(f.get(f'api{suffix}_moves_per_s'))} moves/s; C is "
                  f"{_human(f.get(f'api_ratio{suffix}'))}x faster")
            t.row("the reference (plain Python)", f.get(f"reference{suffix}_playouts_per_s"), "games/s",
                  f"{_human(f.get(f'reference{suffix}_moves_per_s'))} moves/s; C is "
                  f"{_human(f.get(f'reference_ratio{suffix}'))}x faster")
            key = f"reference_ratio{suffix}"
            if key in self.goals:
                t.row(f"{key} (C over the reference)", f.get(key), "x", "", key)
        for probe in self.probes:
            probe.write(f, t)
        if self.positions:
            t.heading("Single operations on the reference positions (calls/s from Python; apply along a "
                      "recorded line, copy included)")
            ops = list(next(iter(self.positions.values())))
            widths = [max(12, len(op) + 2) for op in ops]
            t.heading(f"  {'position':<18}" + "".join(f"{op:>{w}}" for op, w in zip(ops, widths, strict=True)))
            for name, rates in self.positions.items():
                cells = "".join(f"{_human(rates.get(op)):>{w}}" for op, w in zip(ops, widths, strict=True))
                t.heading(f"  {name:<18}{cells}")
        t.heading("")
        if self.agrees:
            for tally in self.signatures.values():
                t.heading(f"{tally.title}: {tally.moves} moves in {tally.games} seeded games (core, Python API and "
                          f"reference agree)")
        else:
            parts = [f"{tally.name} {tally.engines()}" for tally in self.signatures.values()]
            parts += [f"moves of the {tally.games} {tally.title} {tally.engines()}"
                      for tally in self.same_games.values()]
            t.heading(f"MISMATCH: the engines played different games: {'; '.join(parts)}")
        t.heading(f"measured in {self.seconds:.1f} s of wall time")
        return "\n".join(t.lines)


def _rounded(value: float | None) -> float | None:
    if value is None:
        return None
    return round(value, 2) if value < 1000 else round(value)


def _human(value: float | None) -> str:
    """A figure for people: 1234567 -> '1.23M', 45678 -> '45,678', 3.456 -> '3.46'."""
    if value is None:
        return "-"
    if value >= 1e6:
        return f"{value / 1e6:.2f}M"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.2f}" if value < 10 else f"{value:.1f}"


# -- the run ----------------------------------------------------------------------


def _same_games(same: SameGames, n: int, moves: dict[str, int], budget: Budget) -> dict[str, float]:
    """Time the same ``n`` seeded random games in C, through the Python API and in the reference.

    Fills ``moves`` with each engine's move total (they must agree) and
    returns the rates (``SameGames``'s keys).
    """
    rs, suffix = same.ruleset, same.suffix
    t_core = best_time(lambda: moves.__setitem__("core", core_games(rs, n, RATIO_SEED)), budget.runs, budget.seconds)
    t_api = best_time(lambda: moves.__setitem__("api", play_games_api(rs, n, RATIO_SEED)), budget.runs, 0.0)
    t_ref = best_time(lambda: moves.__setitem__("reference", play_games(rs, n, RATIO_SEED, "reference")),
                      budget.reference_runs, 0.0)
    fig: dict[str, float] = {}
    for engine, t in (("ratio", t_core), ("api", t_api), ("reference", t_ref)):
        fig[f"{engine}{suffix}_playouts_per_s"] = n / t
        fig[f"{engine}{suffix}_moves_per_s"] = moves["core" if engine == "ratio" else engine] / t
    fig[f"api_ratio{suffix}"] = t_api / t_core
    fig[f"reference_ratio{suffix}"] = t_ref / t_core
    return fig


def run_bench(quick: bool = False, progress: Say | None = None,
              games: Sequence[GameType] | None = None) -> BenchReport:
    """Measure what every registered game's bench face lists (or only ``games``'s); ``progress`` hears what is
    being measured."""
    budget = QUICK if quick else FULL
    say = progress or (lambda _message: None)
    started = time.perf_counter()  # the run's wall time, for people
    benches = [(g, game_bench(g)) for g in games] if games is not None else all_benches()
    report = BenchReport(board=next((bench.board for _, bench in benches if bench.board), ""), quick=quick,
                         goals={k: v for _, bench in benches for k, v in bench.targets.items()},
                         games=[f"{g.title} on {bench.board}" if bench.board else g.title for g, bench in benches])
    fig = report.figures

    # Whole games in C: a fixed batch of seeded deals, timed as a whole.
    for _, bench in benches:
        for b in bench.batches:
            say(f"random games in C, {b.label}")
            play = b.games or functools.partial(bench.core_games, b.ruleset)
            batch = functools.partial(play, budget.batch_games, PLAYOUT_SEED)
            batch_moves = batch()
            t = best_time(batch, budget.runs, budget.seconds)
            fig[b.playouts_key] = budget.batch_games / t
            fig[b.moves_key] = batch_moves / t
            report.batches.append(b)

    # The same games in every engine: the same deals and the same move stream, so the same work.
    for _, bench in benches:
        for same in bench.same_games:
            n = budget.games_small if same.small else budget.ratio_games
            tally = report.same_games[same.suffix] = Tally(same.label, n)
            say(f"the same {n} {same.label} in C, through the Python API and in the reference")
            fig.update(_same_games(same, n, tally.by_engine, budget))

    sets = [s for _, bench in benches for s in bench.signatures]
    say(f"the signatures ({sum(s.total_games for s in sets)} games) in every engine")
    for s in sets:
        tally = report.signatures[s.key] = Tally(s.name, s.total_games, rules=s.rules)
        for impl in IMPLS:
            tally.by_engine[impl] = s.moves(impl)

    for _, bench in benches:
        if bench.probe is not None:
            figures, positions = bench.probe.measure(budget, say)
            fig.update(figures)
            report.positions.update(positions)
            report.probes.append(bench.probe)

    report.seconds = time.perf_counter() - started
    return report


def stderr_progress(message: str) -> None:
    """Progress for ``kanaloa bench``: one line per measurement on standard error."""
    print(f"kanaloa bench: {message} ...", file=sys.stderr, flush=True)


# -- the Kanaloa family's bench face ------------------------------------------------------

FAMILY_GAME = "kanaloa"  # the game of the family whose reference positions and search are timed
POSITION_SEED = 1  # the first deal tried for every reference position
POSITION_TRIES = 200  # deals tried before giving up on a phase
LINE_MOVES = 40  # moves of the recorded continuation after a reference position
ISMCTS_POSITION = (4, "mid-round-1")
ISMCTS_SEED = 7


def kanaloa_workloads(game: GameType) -> GameBench:
    """Kanaloa's ``bench`` face (``kanaloa.rules.registry``): what ``run_bench`` times and counts for it (see the
    module docstring): its player counts, the gods, and its three signatures."""

    def rules(**params: Any) -> Ruleset:
        result: Ruleset = game.load(**params)
        return result

    return GameBench(
        core_games=_family_core_games,
        salt=_family_salt(),
        board=rules(players=4).board.name,
        batches=(
            Batch("4 players", rules(players=4), "playouts_per_s", "moves_per_s"),
            Batch("3 players", rules(players=3), "playouts_3p_per_s", "moves_3p_per_s"),
            Batch("2 players, two colors each (R15)", rules(players=2), "playouts_2p_per_s", "moves_2p_per_s"),
            Batch("4 players with the gods (R14)", rules(players=4, gods=True), "gods_playouts_per_s",
                  "gods_moves_per_s"),
        ),
        same_games=(
            SameGames("", "random games (4 players)", rules(players=4), small=False),
            SameGames("_2p", "random 2-player games (R15)", rules(players=2)),
            SameGames("_gods", "random 4-player games with the gods (R14)", rules(players=4, gods=True)),
        ),
        signatures=(
            Signature("signature", "signature", "", tuple(
                rules(players=p, preset=preset) for p in (3, 4) for preset in ("yucata", "tabletop"))),
            Signature("signature_2p", "2-player signature", "R15",
                      tuple(rules(players=2, preset=preset) for preset in ("yucata", "tabletop"))),
            Signature("signature_gods", "signature with the gods", "R14",
                      tuple(rules(players=p, gods=True) for p in (3, 4))),
        ),
        probe=Probe(_measure_family, _write_family),
        # The targets, on one core: key -> smallest acceptable figure.
        targets={
            "playouts_per_s": 20_000,
            "determinisations_per_s": 200_000,
            "reference_ratio": 100,
            "ismcts_iterations_per_s": 50_000,  # issue 9: the search behind hints, per core
            "batch_steps_per_s": 1_000_000,  # issue 31: random play through the batched API, per core
        },
    )


def kahuna_workloads(game: GameType) -> GameBench:
    """Kahuna's ``bench`` face: its games on its own board and its signature."""
    rules: Ruleset = game.load()
    return GameBench(
        core_games=_family_core_games,
        salt=_family_salt(),
        board=rules.board.name,
        batches=(Batch("Kahuna (R16), on its board", rules, "kahuna_playouts_per_s", "kahuna_moves_per_s"),),
        same_games=(SameGames("_kahuna", "random Kahuna games (R16)", rules),),
        signatures=(Signature("signature_kahuna", "Kahuna signature", "R16", (rules,)),),
        targets={"kahuna_playouts_per_s": 50_000},  # issue 13: random Kahuna games in C, per core
    )


def _family_salt() -> int:
    from ..rules.core import kanaloa_core

    salt: int = kanaloa_core.PLAYOUT_SALT
    return salt


def _family_core_games(ruleset: Ruleset, games: int, seed: int) -> int:
    """``kanaloa_core.random_games``: the whole games in C, dealt and played there."""
    from ..rules.core import core_board, random_games

    moves: int = random_games(core_board(ruleset.board), ruleset.players, ruleset.preset_code, games, seed,
                              ruleset.code, ruleset.gods)[1]
    return moves


def position_ruleset(players: int) -> Ruleset:
    """The rule set of the reference positions with ``players`` players (Kanaloa, yucata preset, on ``oro``)."""
    return load_game(FAMILY_GAME, players=players)


@dataclass(frozen=True)
class BenchPosition:
    """A reference position: the state after ``moves`` random moves of the game of ``ruleset`` dealt from ``seed``.

    ``line`` holds the next moves of the same random game (up to
    ``LINE_MOVES``), a fixed continuation to time ``apply`` on.
    """

    ruleset: Ruleset = field(repr=False)
    phase: str
    seed: int
    moves: int
    data: StateData = field(compare=True, repr=False)
    line: tuple[int, ...] = field(default=(), repr=False)

    @property
    def players(self) -> int:
        return self.ruleset.players

    @property
    def name(self) -> str:
        return f"{self.players}p-{self.phase}"

    def state(self, engine: Engine | None = None) -> EngineState:
        """A fresh state of ``engine`` (default the core) at this position."""
        return (engine or load_engine()).from_data(self.ruleset.board, self.data)

    def core_state(self) -> CoreState:
        """A fresh compiled-core state at this position, for what only the core does (search, determinise)."""
        from ..rules.core import CoreState, core_board

        return CoreState.from_data(core_board(self.ruleset.board), self.data)


def _at_phase(rs: Ruleset, phase: str, d: StateData, deck_at_start: dict[int, int]) -> bool:
    """Whether ``d`` is at the start of a turn inside ``phase`` (see the module docstring)."""
    first, second = rs.deck_rounds[0], rs.reshuffled_rounds[0]
    final = rs.final_round
    if d.round not in (first, second, final) or d.played or d.discarded or d.remove_on:
        return False
    if phase == "start":
        return d.round == first
    if phase == "mid-round-1":
        return d.round == first and 2 * len(d.deck) <= deck_at_start[first]
    if phase == "round-2":
        return d.round == second and 2 * len(d.deck) <= deck_at_start[second]
    return d.round == final


def bench_position(ruleset: Ruleset, phase: str, engine: Engine | None = None) -> BenchPosition:
    """The reference position of ``phase`` in the game of ``ruleset`` (``position_ruleset(players)``), built with
    ``engine``.

    Deals are tried from ``POSITION_SEED`` on; the first whose random game
    reaches the phase gives the position.  Both implementations build the
    same position.  Raises ``ValueError`` for an unknown phase and
    ``RuntimeError`` when no deal within ``POSITION_TRIES`` reaches it.
    """
    if phase not in PHASES:
        raise ValueError(f"phase {phase!r}: choose one of {', '.join(PHASES)}")
    engine = engine or load_engine()
    salt = game_bench(ruleset).salt
    for seed in range(POSITION_SEED, POSITION_SEED + POSITION_TRIES):
        state = engine.deal(ruleset, seed)
        stream = SplitMix64(seed ^ salt)
        deck_at_start: dict[int, int] = {}
        moves = 0
        while not state.is_over:
            d = state.to_data()
            deck_at_start.setdefault(d.round, len(d.deck))
            if _at_phase(ruleset, phase, d, deck_at_start):
                line: list[int] = []
                while not state.is_over and len(line) < LINE_MOVES:
                    legal = state.legal_actions()
                    line.append(legal[stream.below(len(legal))])
                    state.apply(line[-1])
                return BenchPosition(ruleset, phase, seed, moves, d, tuple(line))
            legal = state.legal_actions()
            state.apply(legal[stream.below(len(legal))])
            moves += 1
    raise RuntimeError(f"no game dealt from seeds {POSITION_SEED}..{POSITION_SEED + POSITION_TRIES - 1} "
                       f"reaches the {phase} phase with {ruleset.players} players")


def bench_positions(players: tuple[int, ...] = PLAYERS, phases: tuple[str, ...] = PHASES,
                    engine: Engine | None = None) -> list[BenchPosition]:
    """Every reference position for ``players`` x ``phases``, in that order."""
    return [bench_position(position_ruleset(p), phase, engine) for p in players for phase in phases]


def run_ismcts(position: BenchPosition, iterations: int, seed: int = ISMCTS_SEED) -> SearchResult:
    """One ISMCTS search, as hints run it (``HINT_SETTINGS``, one worker), for the player to move at
    ``position``; its ``SearchResult``."""
    from ..play.settings import HINT_SETTINGS

    game = HINT_SETTINGS.game(position.ruleset)
    return HINT_SETTINGS.searcher(seed).search(game.wrap(position.core_state()), iterations=iterations)


def run_openspiel_ismcts(position: BenchPosition, iterations: int, seed: int = ISMCTS_SEED,
                         rollout: str = "python") -> int:
    """OpenSpiel's ISMCTS as the ``openspiel-ismcts`` bot runs it (random rollouts, c = 2; ``rollout`` as
    the bot's key) for the player to move at ``position``, through the game's ``openspiel`` face
    (``kanaloa.openspiel``); the iterations it ran.  Needs the extra openspiel."""
    from ..play.openspiel_search import ismcts_move, random_state

    state = position.core_state()
    game = position.ruleset.game_type.face("openspiel")(position.ruleset)
    rng = random.Random(seed)
    _, ran = ismcts_move(game, game.state_of(state), 2.0, iterations, None, random_state(seed),
                         lambda st, player: st.resample(player, rng.getrandbits(63)), rollout)
    return ran


def bulk_determinisations(state: CoreState, viewer: int, n: int, seed: int) -> int:
    """``kanaloa_core.determinisations(state, viewer, n, seed)``: ``n`` samples drawn in C."""
    from ..rules.core import kanaloa_core

    drawn: int = kanaloa_core.determinisations(state, viewer, n, seed)
    return drawn


def _measure_search(budget: Budget, say: Say) -> tuple[dict[str, float | None], dict[str, dict[str, float | None]]]:
    """The family's probe: determinisations, ISMCTS (and OpenSpiel's) and single operations."""
    fig: dict[str, float | None] = {}
    mid = bench_position(position_ruleset(ISMCTS_POSITION[0]), ISMCTS_POSITION[1])
    viewer = mid.data.to_move
    say("determinisations")
    state = mid.core_state()
    n = 20 * budget.op_calls
    fig["determinisations_per_s"] = n / best_time(lambda: bulk_determinisations(state, viewer, n, 1),
                                                  budget.runs, budget.seconds)
    calls = budget.op_calls
    fig["determinise_calls_per_s"] = calls / best_time(_calls(lambda: state.determinise(viewer, 1), calls),
                                                       budget.runs, budget.seconds / 2)

    say(f"ISMCTS, {budget.ismcts_iterations} iterations")
    fig["ismcts_iterations"] = budget.ismcts_iterations
    run_ismcts(mid, 50)  # warm up the search code paths
    t = best_time(lambda: run_ismcts(mid, budget.ismcts_iterations), budget.ismcts_runs, 0.0)
    fig["ismcts_iterations_per_s"] = budget.ismcts_iterations / t
    from ..play.bots import openspiel_installed

    if openspiel_installed():
        say(f"OpenSpiel's ISMCTS, {budget.openspiel_iterations} iterations")
        fig["openspiel_ismcts_iterations"] = budget.openspiel_iterations
        t = best_time(lambda: run_openspiel_ismcts(mid, budget.openspiel_iterations), 1, 0.0)
        fig["openspiel_ismcts_iterations_per_s"] = budget.openspiel_iterations / t
        t = best_time(lambda: run_openspiel_ismcts(mid, budget.openspiel_iterations, rollout="core"), 1, 0.0)
        fig["openspiel_ismcts_core_iterations_per_s"] = budget.openspiel_iterations / t

    positions: dict[str, dict[str, float | None]] = {}
    for players, phase in budget.positions:
        position = mid if (players, phase) == ISMCTS_POSITION else bench_position(position_ruleset(players), phase)
        say(f"single operations at {position.name}")
        positions[position.name] = _time_operations(position, budget)
    return fig, positions


def _time_operations(position: BenchPosition, budget: Budget) -> dict[str, float | None]:
    """Calls per second of ``legal_actions``, ``apply`` (along the recorded line), ``copy`` and ``determinise``."""
    state = position.core_state()
    n = budget.op_calls
    seconds = budget.seconds / 4
    ops: dict[str, float | None] = {}
    ops["legal_actions"] = n / best_time(_calls(state.legal_actions, n), budget.runs, seconds)
    line = position.line
    rounds = max(1, n // max(1, len(line)))

    def replay_batch() -> None:
        for _ in range(rounds):
            replay_line(state.copy(), line)

    ops["apply"] = rounds * len(line) / best_time(replay_batch, budget.runs, seconds) if line else None
    ops["copy"] = n / best_time(_calls(state.copy, n), budget.runs, seconds)
    viewer = position.data.to_move
    ops["determinise"] = n / best_time(_calls(lambda: state.determinise(viewer, 1), n), budget.runs, seconds)
    return ops


def _measure_family(budget: Budget, say: Say) -> tuple[dict[str, float | None], dict[str, dict[str, float | None]]]:
    """The family's probe: the search's figures (``_measure_search``) and random play for learning."""
    fig, positions = _measure_search(budget, say)
    fig.update(_measure_learning(budget, say))
    return fig, positions


def _write_family(f: Mapping[str, float | None], t: Table) -> None:
    _write_search(f, t)
    _write_learning(f, t)


def pettingzoo_installed() -> bool:
    """Whether the optional extra pettingzoo (PettingZoo, Gymnasium, NumPy) is installed."""
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("pettingzoo", "gymnasium", "numpy"))


LEARNING_RULES = {"players": 4}  # the rule set random play for learning is timed on (Kanaloa)
LEARNING_SEED = 1


def aec_random_steps(env: Any, steps: int, seed: int) -> int:
    """Play ``steps`` steps of uniformly random legal actions through the PettingZoo AEC environment ``env``
    as a learner's loop does (``last()``, the mask, ``step``), games dealt from ``seed`` on, the actions from
    ``SplitMix64(seed)``; return the steps played (the finished agents' steps not counted)."""
    import numpy

    stream = SplitMix64(seed)
    env.reset(seed=seed)
    played = 0
    while played < steps:
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = numpy.flatnonzero(obs["action_mask"])
            env.step(int(legal[stream.below(len(legal))]))
            played += 1
            if played >= steps:
                break
        else:
            env.reset()
    return played


def batch_random_steps(batch: Any, calls: int) -> int:
    """Step every game of ``batch`` (a ``GameBatch``) ``calls`` times with random legal actions drawn in C;
    return the steps played (games x calls)."""
    for _ in range(calls):
        batch.step(batch.random_actions())
    steps: int = batch.n * calls
    return steps


def _measure_learning(budget: Budget, say: Say) -> dict[str, float | None]:
    """Steps per second of random play through the AEC environment and through the batched API (Kanaloa with
    ``LEARNING_RULES``), with the extra pettingzoo; None without it."""
    if not pettingzoo_installed():
        return {"aec_steps_per_s": None, "batch_steps_per_s": None}
    from ..pettingzoo import GameBatch, make_env

    say(f"random play through the PettingZoo AEC environment, {budget.aec_steps} steps")
    env = make_env(FAMILY_GAME, **LEARNING_RULES)
    aec = budget.aec_steps / best_time(lambda: aec_random_steps(env, budget.aec_steps, LEARNING_SEED),
                                       budget.runs, budget.seconds)
    say(f"random play through the batched API, {budget.batch_slots} games x {budget.batch_calls} steps")
    batch = GameBatch(FAMILY_GAME, budget.batch_slots, LEARNING_SEED, **LEARNING_RULES)
    steps = budget.batch_slots * budget.batch_calls
    batched = steps / best_time(lambda: batch_random_steps(batch, budget.batch_calls), budget.runs, budget.seconds)
    return {"aec_steps_per_s": aec, "batch_steps_per_s": batched, "batch_games": budget.batch_slots}


def _write_learning(f: Mapping[str, float | None], t: Table) -> None:
    games = f.get("batch_games")
    note = "" if f.get("aec_steps_per_s") is not None else "needs the extra pettingzoo"
    t.heading("Random play for learning (Kanaloa, 4 players; kanaloa.pettingzoo, docs/pettingzoo.md)")
    t.row("the PettingZoo AEC loop (last, mask, step)", f.get("aec_steps_per_s"), "steps/s", note)
    t.row(f"the batched API, {int(games) if games else '-'} games a call", f.get("batch_steps_per_s"), "steps/s",
          note or "observations, masks, rewards and done flags", "batch_steps_per_s")


def _write_search(f: Mapping[str, float | None], t: Table) -> None:
    """The family's probe's rows for people."""
    players, phase = ISMCTS_POSITION
    t.heading(f"Determinisations and search ({players} players, {phase}, for the player to move)")
    t.row("determinisations in C (bulk)", f.get("determinisations_per_s"), "/s", "", "determinisations_per_s")
    t.row("CoreState.determinise() from Python", f.get("determinise_calls_per_s"), "/s")
    iters = f.get("ismcts_iterations")
    t.row(f"ISMCTS, {int(iters) if iters else '-'} iterations as hints run it",
          f.get("ismcts_iterations_per_s"), "iterations/s", "", "ismcts_iterations_per_s")
    os_iters = f.get("openspiel_ismcts_iterations")
    t.row(f"OpenSpiel's ISMCTS, {int(os_iters) if os_iters else '-'} iterations",
          f.get("openspiel_ismcts_iterations_per_s"), "iterations/s",
          "in Python, random rollouts" if os_iters else "needs the extra openspiel")
    t.row(f"OpenSpiel's ISMCTS, {int(os_iters) if os_iters else '-'} iterations, rollout=core",
          f.get("openspiel_ismcts_core_iterations_per_s"), "iterations/s",
          "the same rollouts in C" if os_iters else "needs the extra openspiel")


__all__ = [
    "PHASES",
    "PLAYERS",
    "BenchPosition",
    "BenchReport",
    "Budget",
    "GameBench",
    "Signature",
    "bench_position",
    "bench_positions",
    "bench_targets",
    "core_games",
    "game_bench",
    "kahuna_workloads",
    "kanaloa_workloads",
    "play_games",
    "play_games_api",
    "play_random",
    "position_ruleset",
    "run_bench",
    "signature",
    "signature_sets",
]
