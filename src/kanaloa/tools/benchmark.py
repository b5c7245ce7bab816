"""Performance figures: what ``kanaloa bench`` prints and the suite in ``bench/`` times.

This module owns three things.

* **Reference positions** (``bench_position``): fixed, reproducible states to
  time single operations on.  Each is reached from a seeded deal by playing the
  moves a random game of ``kanaloa_core.random_games`` would play (the move
  stream ``SplitMix64(seed ^ PLAYOUT_SALT)``, ``legal[next() % len(legal)]``)
  until the wanted phase begins at the start of a turn: ``start`` (the first
  turn of round 1, after the R3 reveals), ``mid-round-1`` (round 1 with at most
  half of the round's deck left), ``round-2`` (round 2, after the R9 reshuffle,
  with at most half of that deck left), ``final`` (the first turn of the R10
  final round).  A deal whose game never reaches the phase (an R8 win, a round
  2 with no deck) is skipped for the next seed.
* **The signature** (``signature``): the total number of moves in a fixed set
  of seeded random games (``SIGNATURE_SET``, 3 and 4 players).  It depends on
  nothing but the rules, so it changes exactly when behaviour changes, and
  every implementation must give the same number.  ``signature_2p`` does the
  same for the 2-player game (R15, ``SIGNATURE_SET_2P``), and
  ``signature_kahuna`` for Kahuna (R16, ``SIGNATURE_GAMES`` games on the
  ``kahuna`` board), kept apart so that each number moves only with the rules
  it covers.
* **The measurements** (``run_bench``): random games in C, the same games
  driven one move at a time from Python and played by the reference,
  determinisations, one ISMCTS search (and, with the extra openspiel,
  OpenSpiel's Python ISMCTS on the same position through ``kanaloa.openspiel``:
  ``openspiel_ismcts_iterations_per_s``, and with ``rollout=core``:
  ``openspiel_ismcts_core_iterations_per_s``), and single operations on the
  reference positions.  ``reference_ratio`` compares the core and the reference on the
  *same* work: one batch of seeded 4-player games (deals ``RATIO_SEED``,
  ``RATIO_SEED + 1``, ...), played whole in C by ``random_games`` and move by
  move by the reference with the same move stream, so both play the very same
  games (their equal move totals prove it).  The batch is not the small
  signature set: timing the core on a few games played over and over would
  let the processor learn their branches and flatter the core.  A smaller
  batch of 2-player games (R15) is timed the same way in every engine, and
  so is a batch of Kahuna games (R16) on its own board.

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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..rules.board import Board, load_board
from ..rules.engine import Engine, EngineState, load_engine
from ..rules.rng import MASK64, SplitMix64
from ..rules.state import (
    GAME_KAHUNA,
    GAME_KANALOA,
    GAME_NAMES,
    PRESET_NAMES,
    PRESET_TABLETOP,
    PRESET_YUCATA,
    ROUND_1,
    ROUND_2,
    ROUND_FINAL,
    ROUND_OVER,
    ROUND_SETUP,
    StateData,
)

if TYPE_CHECKING:
    from ..rules.core import CoreState
    from ..search import SearchResult

BOARD = "oro"
KAHUNA_BOARD = "kahuna"
PHASES = ("start", "mid-round-1", "round-2", "final")
PLAYERS = (3, 4)
POSITION_SEED = 1  # the first deal tried for every reference position
POSITION_TRIES = 200  # deals tried before giving up on a phase
LINE_MOVES = 40  # moves of the recorded continuation after a reference position

# The signature games: for each (players, preset), games dealt from SIGNATURE_SEED, SIGNATURE_SEED + 1, ...
SIGNATURE_SEED = 1
SIGNATURE_GAMES = 8
SIGNATURE_SET = ((3, PRESET_YUCATA), (3, PRESET_TABLETOP), (4, PRESET_YUCATA), (4, PRESET_TABLETOP))
SIGNATURE_SET_2P = ((2, PRESET_YUCATA), (2, PRESET_TABLETOP))  # R15, its own number

PLAYOUT_SEED = 1_000_000  # first deal of the batches of random games in C
RATIO_SEED = PLAYOUT_SEED  # first deal of the games every engine plays for the ratios
ISMCTS_POSITION = (4, "mid-round-1")
ISMCTS_SEED = 7

# The targets, on one core: key -> smallest acceptable figure.
TARGETS = {
    "playouts_per_s": 20_000,
    "determinisations_per_s": 200_000,
    "reference_ratio": 100,
    "ismcts_iterations_per_s": 50_000,  # issue 9: the search behind hints, per core
    "kahuna_playouts_per_s": 50_000,  # issue 13: random Kahuna games in C, per core
}
GODS_PLAYERS = 4  # the gods' figures (R14) are for 4-player games on oro


def _salt() -> int:
    from ..rules.core import kanaloa_core

    return kanaloa_core.PLAYOUT_SALT


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


def play_games(board: Board, players: int, preset: int, games: int, seed: int,
               engine: Engine | None = None, game: int = GAME_KANALOA, gods: bool = False) -> int:
    """Deal and play ``games`` random games move by move from Python; return the total moves.

    Game ``g`` is dealt from ``seed + g`` and played with the move stream
    ``(seed + g) ^ PLAYOUT_SALT``: the games of
    ``kanaloa_core.random_games(board, players, preset, games, seed, game)``.
    ``engine`` is the compiled core (driven through its Python methods; the
    default) or the reference; ``game`` is Kanaloa or Kahuna (R16).
    """
    engine = engine or load_engine()
    salt = _salt()
    total = 0
    for g in range(games):
        game_seed = (seed + g) & MASK64
        dealt = (engine.deal(board, players, preset, game_seed, game=game, gods=True) if gods else
                 engine.deal(board, players, preset, game_seed, game=game))
        total += play_random(dealt, game_seed ^ salt)
    return total


def play_games_api(board: Board, players: int, preset: int, games: int, seed: int,
                   game: int = GAME_KANALOA, gods: bool = False) -> int:
    """The same games as ``play_games``, through ``kanaloa.position.Position`` (legal actions, ``push``)."""
    from ..position.api import Position

    salt = _salt()
    total = 0
    for g in range(games):
        game_seed = (seed + g) & MASK64
        pos = Position.new(players=players, seed=game_seed, preset=PRESET_NAMES[preset], board=board,
                           game=GAME_NAMES[game], gods=gods)
        stream = SplitMix64(game_seed ^ salt)
        state = pos.state
        while not state.is_over:
            legal = state.legal_actions()
            pos.push(legal[stream.below(len(legal))])
            total += 1
    return total


def core_games(board: Board, players: int, preset: int, games: int, seed: int, game: int = GAME_KANALOA,
               gods: bool = False) -> int:
    """The total moves of ``kanaloa_core.random_games`` (the whole games in C)."""
    from ..rules.core import core_board, random_games

    return random_games(core_board(board), players, preset, games, seed, game, gods)[1]


# -- the signature ----------------------------------------------------------------


def signature(board: Board | None = None, impl: str = "core") -> int:
    """The total number of moves of the ``SIGNATURE_SET`` games on ``board`` (default ``oro``).

    ``impl``: ``"core"`` (whole games in C), ``"api"`` (the core driven
    from Python through ``Position``) or ``"reference"``.  All three must give
    the same number; it changes only when the rules' behaviour does.
    """
    return _signature(SIGNATURE_SET, board, impl)


def signature_2p(board: Board | None = None, impl: str = "core") -> int:
    """``signature`` for the 2-player game (R15): the moves of the ``SIGNATURE_SET_2P`` games."""
    return _signature(SIGNATURE_SET_2P, board, impl)


def signature_gods(board: Board | None = None, impl: str = "core") -> int:
    """``signature`` for Might of the Gods (R14): the moves of ``SIGNATURE_GAMES`` seeded 3- and 4-player games
    each with the gods on ``board`` (default ``oro``)."""
    board = board if board is not None else load_board(BOARD)
    return _signature(((3, PRESET_YUCATA), (4, PRESET_YUCATA)), board, impl, GAME_KANALOA, gods=True)


def signature_gods_games() -> int:
    """How many games the gods' signature plays."""
    return 2 * SIGNATURE_GAMES


def signature_kahuna(board: Board | None = None, impl: str = "core") -> int:
    """``signature`` for Kahuna (R16): the moves of ``SIGNATURE_GAMES`` seeded games on ``board`` (default
    ``kahuna``)."""
    board = board if board is not None else load_board(KAHUNA_BOARD)
    return _signature(((2, PRESET_YUCATA),), board, impl, GAME_KAHUNA)


def _play_reference(reference: Engine, board: Board, players: int, preset: int, games: int, seed: int,
                    game: int, gods: bool = False) -> int:
    return play_games(board, players, preset, games, seed, reference, game, gods)


def _signature(games: tuple[tuple[int, int], ...], board: Board | None, impl: str,
               game: int = GAME_KANALOA, gods: bool = False) -> int:
    board = board if board is not None else load_board(BOARD)
    play: Callable[..., int]
    if impl == "core":
        play = core_games
    elif impl == "api":
        play = play_games_api
    elif impl == "reference":
        play = functools.partial(_play_reference, load_engine("reference"))
    else:
        raise ValueError(f"impl {impl!r}: choose core, api or reference")
    extra = {"gods": True} if gods else {}
    return sum(play(board, players, preset, SIGNATURE_GAMES, SIGNATURE_SEED, game, **extra)
               for players, preset in games)


def signature_games() -> int:
    """How many games the signature plays."""
    return SIGNATURE_GAMES * len(SIGNATURE_SET)


def signature_2p_games() -> int:
    """How many games the 2-player signature plays."""
    return SIGNATURE_GAMES * len(SIGNATURE_SET_2P)


def signature_kahuna_games() -> int:
    """How many games the Kahuna signature plays."""
    return SIGNATURE_GAMES


# -- reference positions ----------------------------------------------------------


@dataclass(frozen=True)
class BenchPosition:
    """A reference position: the state after ``moves`` random moves of the game dealt from ``seed``.

    ``line`` holds the next moves of the same random game (up to
    ``LINE_MOVES``), a fixed continuation to time ``apply`` on.
    """

    players: int
    phase: str
    seed: int
    moves: int
    data: StateData = field(compare=True, repr=False)
    line: tuple[int, ...] = field(default=(), repr=False)

    @property
    def name(self) -> str:
        return f"{self.players}p-{self.phase}"

    def state(self, board: Board, engine: Engine | None = None) -> EngineState:
        """A fresh state of ``engine`` (default the core) at this position."""
        return (engine or load_engine()).from_data(board, self.data)

    def core_state(self, board: Board) -> CoreState:
        """A fresh compiled-core state at this position, for what only the core does (search, determinise)."""
        from ..rules.core import CoreState, core_board

        return CoreState.from_data(core_board(board), self.data)


def _at_phase(phase: str, d: StateData, deck_at_start: dict[int, int]) -> bool:
    """Whether ``d`` is at the start of a turn inside ``phase`` (see the module docstring)."""
    if d.round in (ROUND_SETUP, ROUND_OVER) or d.played or d.discarded or d.remove_on:
        return False
    if phase == "start":
        return d.round == ROUND_1
    if phase == "mid-round-1":
        return d.round == ROUND_1 and 2 * len(d.deck) <= deck_at_start[ROUND_1]
    if phase == "round-2":
        return d.round == ROUND_2 and 2 * len(d.deck) <= deck_at_start[ROUND_2]
    return d.round == ROUND_FINAL


def bench_position(board: Board, players: int, phase: str, engine: Engine | None = None,
                   preset: int = PRESET_YUCATA) -> BenchPosition:
    """The reference position of ``phase`` for ``players`` on ``board``, built with ``engine``.

    Deals are tried from ``POSITION_SEED`` on; the first whose random game
    reaches the phase gives the position.  Both implementations build the
    same position.  Raises ``ValueError`` for an unknown phase and
    ``RuntimeError`` when no deal within ``POSITION_TRIES`` reaches it.
    """
    if phase not in PHASES:
        raise ValueError(f"phase {phase!r}: choose one of {', '.join(PHASES)}")
    engine = engine or load_engine()
    salt = _salt()
    for seed in range(POSITION_SEED, POSITION_SEED + POSITION_TRIES):
        state = engine.deal(board, players, preset, seed)
        stream = SplitMix64(seed ^ salt)
        deck_at_start: dict[int, int] = {}
        moves = 0
        while not state.is_over:
            d = state.to_data()
            deck_at_start.setdefault(d.round, len(d.deck))
            if _at_phase(phase, d, deck_at_start):
                line: list[int] = []
                while not state.is_over and len(line) < LINE_MOVES:
                    legal = state.legal_actions()
                    line.append(legal[stream.below(len(legal))])
                    state.apply(line[-1])
                return BenchPosition(players, phase, seed, moves, d, tuple(line))
            legal = state.legal_actions()
            state.apply(legal[stream.below(len(legal))])
            moves += 1
    raise RuntimeError(f"no game dealt from seeds {POSITION_SEED}..{POSITION_SEED + POSITION_TRIES - 1} "
                       f"reaches the {phase} phase with {players} players")


def bench_positions(board: Board, players: tuple[int, ...] = PLAYERS, phases: tuple[str, ...] = PHASES,
                    engine: Engine | None = None) -> list[BenchPosition]:
    """Every reference position for ``players`` x ``phases``, in that order."""
    return [bench_position(board, p, phase, engine) for p in players for phase in phases]


# -- the search and the determinisations -----------------------------------------


def run_ismcts(board: Board, position: BenchPosition, iterations: int, seed: int = ISMCTS_SEED) -> SearchResult:
    """One ISMCTS search, as hints run it (``HINT_SETTINGS``, one worker), for the player to move at
    ``position``; its ``SearchResult``."""
    from ..play.settings import HINT_SETTINGS

    return HINT_SETTINGS.searcher(seed).search(HINT_SETTINGS.game().wrap(position.core_state(board)),
                                               iterations=iterations)


def run_openspiel_ismcts(board: Board, position: BenchPosition, iterations: int, seed: int = ISMCTS_SEED,
                         rollout: str = "python") -> int:
    """OpenSpiel's ISMCTS as the ``openspiel-ismcts`` bot runs it (random rollouts, c = 2; ``rollout`` as
    the bot's key) for the player to move at ``position``, through ``kanaloa.openspiel``; the iterations it
    ran.  Needs the extra openspiel."""
    from ..play.openspiel_search import ismcts_move, random_state
    from ..rules.ruleset import ruleset_for_state

    state = position.core_state(board)
    ruleset = ruleset_for_state(board, position.data)
    game = ruleset.game_type.face("openspiel")(ruleset)
    rng = random.Random(seed)
    _, ran = ismcts_move(game, game.state_of(state), 2.0, iterations, None, random_state(seed),
                         lambda st, player: st.resample(player, rng.getrandbits(63)), rollout)
    return ran


def bulk_determinisations(state: CoreState, viewer: int, n: int, seed: int) -> int:
    """``kanaloa_core.determinisations(state, viewer, n, seed)``: ``n`` samples drawn in C."""
    from ..rules.core import kanaloa_core

    return kanaloa_core.determinisations(state, viewer, n, seed)


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
    positions: tuple[tuple[int, str], ...]  # reference positions timed one operation at a time
    op_calls: int  # calls per timed batch of a single operation
    ratio_games_2p: int | None = None  # 2-player games every engine plays (R15); default ratio_games // 4
    openspiel_iterations: int = 100  # OpenSpiel's ISMCTS on the same position (with the extra openspiel)

    @property
    def games_2p(self) -> int:
        return self.ratio_games_2p if self.ratio_games_2p is not None else max(1, self.ratio_games // 4)

    @property
    def games_kahuna(self) -> int:
        """Kahuna games every engine plays (R16): as many as the 2-player batch."""
        return self.games_2p


QUICK = Budget(batch_games=500, ratio_games=100, runs=3, seconds=0.1, reference_runs=1, ismcts_iterations=1000,
               ismcts_runs=1, positions=((4, "mid-round-1"),), op_calls=500, openspiel_iterations=100)
FULL = Budget(batch_games=2000, ratio_games=400, runs=5, seconds=1.0, reference_runs=2, ismcts_iterations=5000,
              ismcts_runs=3, positions=tuple((p, phase) for p in PLAYERS for phase in PHASES), op_calls=2000,
              openspiel_iterations=500)


# -- the report -------------------------------------------------------------------


@dataclass
class BenchReport:
    """Every figure of a run; ``to_json`` is the ``--json`` form, ``table`` the one for people.

    ``figures`` holds the rates; ``positions`` the single-operation rates
    per reference position (``apply`` is ``None`` for a position without a
    recorded line); ``signature`` the move total of the signature
    games in C and ``signature_by_engine`` the same total from every engine;
    ``ratio_moves`` the move total of the ratio games per engine; the
    ``_2p`` fields the same for the 2-player game (R15) and the ``_kahuna``
    fields for Kahuna (R16).
    """

    board: str
    quick: bool
    figures: dict[str, float | None] = field(default_factory=dict)
    positions: dict[str, dict[str, float | None]] = field(default_factory=dict)
    signature: int = 0
    signature_by_engine: dict[str, int] = field(default_factory=dict)
    ratio_games: int = 0
    ratio_moves: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    signature_2p: int = 0
    signature_2p_by_engine: dict[str, int] = field(default_factory=dict)
    ratio_games_2p: int = 0
    ratio_moves_2p: dict[str, int] = field(default_factory=dict)
    signature_kahuna: int = 0
    signature_kahuna_by_engine: dict[str, int] = field(default_factory=dict)
    signature_gods: int = 0
    signature_gods_by_engine: dict[str, int] = field(default_factory=dict)
    ratio_games_gods: int = 0
    ratio_moves_gods: dict[str, int] = field(default_factory=dict)
    ratio_games_kahuna: int = 0
    ratio_moves_kahuna: dict[str, int] = field(default_factory=dict)

    @property
    def agrees(self) -> bool:
        """Whether every engine played the same games: equal signatures and equal ratio-game moves."""
        return all(len(set(by.values())) <= 1 for by in (self.signature_by_engine, self.ratio_moves,
                                                          self.signature_2p_by_engine, self.ratio_moves_2p,
                                                          self.signature_kahuna_by_engine, self.ratio_moves_kahuna,
                                                          self.signature_gods_by_engine, self.ratio_moves_gods))

    def targets(self) -> dict[str, dict[str, Any]]:
        """For each target of the issue: the target, the figure and whether it is met (None if not measured)."""
        out = {}
        for key, target in TARGETS.items():
            value = self.figures.get(key)
            out[key] = {"target": target, "value": _rounded(value), "met": None if value is None else value >= target}
        return out

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {key: _rounded(value) for key, value in self.figures.items()}
        doc.update(
            board=self.board,
            quick=self.quick,
            signature=self.signature,
            signature_games=signature_games(),
            signature_by_engine=dict(self.signature_by_engine),
            ratio_games=self.ratio_games,
            ratio_moves=dict(self.ratio_moves),
            signature_2p=self.signature_2p,
            signature_2p_games=signature_2p_games(),
            signature_2p_by_engine=dict(self.signature_2p_by_engine),
            ratio_games_2p=self.ratio_games_2p,
            ratio_moves_2p=dict(self.ratio_moves_2p),
            signature_kahuna=self.signature_kahuna,
            signature_kahuna_games=signature_kahuna_games(),
            signature_kahuna_by_engine=dict(self.signature_kahuna_by_engine),
            ratio_games_kahuna=self.ratio_games_kahuna,
            ratio_moves_kahuna=dict(self.ratio_moves_kahuna),
            signature_gods=self.signature_gods,
            signature_gods_games=signature_gods_games(),
            signature_gods_by_engine=dict(self.signature_gods_by_engine),
            ratio_games_gods=self.ratio_games_gods,
            ratio_moves_gods=dict(self.ratio_moves_gods),
            engines_agree=self.agrees,
            positions={name: {k: _rounded(v) for k, v in ops.items()} for name, ops in self.positions.items()},
            targets=self.targets(),
            seconds=round(self.seconds, 2),
        )
        return doc

    def table(self) -> str:
        """The report as aligned lines of text."""
        f = self.figures
        lines = [f"kanaloa bench: board {self.board}, {'quick' if self.quick else 'full'} run; "
                 f"per second of CPU time on one core, best of several runs", ""]

        def row(label: str, value: float | None, unit: str, extra: str = "", key: str | None = None) -> None:
            shown = "-" if value is None else f"{_human(value)} {unit}"
            note = extra
            if key in TARGETS and value is not None:
                verdict = "met" if value >= TARGETS[key] else "NOT MET"
                note = f"{note}  [target {_human(TARGETS[key])}: {verdict}]".strip()
            lines.append(f"  {label:<44}{shown:>20}  {note}".rstrip())

        lines.append("Whole random games in C (random_games, yucata preset)")
        row("4 players", f.get("playouts_per_s"), "games/s", f"{_human(f.get('moves_per_s'))} moves/s",
            "playouts_per_s")
        row("3 players", f.get("playouts_3p_per_s"), "games/s", f"{_human(f.get('moves_3p_per_s'))} moves/s")
        row("2 players, two colors each (R15)", f.get("playouts_2p_per_s"), "games/s",
            f"{_human(f.get('moves_2p_per_s'))} moves/s")
        row("Kahuna (R16), on its board", f.get("kahuna_playouts_per_s"), "games/s",
            f"{_human(f.get('kahuna_moves_per_s'))} moves/s", "kahuna_playouts_per_s")
        row("4 players with the gods (R14)", f.get("gods_playouts_per_s"), "games/s",
            f"{_human(f.get('gods_moves_per_s'))} moves/s")
        lines.append(f"The same {self.ratio_games} random games (4 players) in each engine")
        row("in C", f.get("ratio_playouts_per_s"), "games/s", f"{_human(f.get('ratio_moves_per_s'))} moves/s")
        row("the core driven from Python (Position)", f.get("api_playouts_per_s"), "games/s",
            f"{_human(f.get('api_moves_per_s'))} moves/s; C is {_human(f.get('api_ratio'))}x faster")
        row("the reference (plain Python)", f.get("reference_playouts_per_s"), "games/s",
            f"{_human(f.get('reference_moves_per_s'))} moves/s")
        row("reference_ratio (C over the reference)", f.get("reference_ratio"), "x", "", "reference_ratio")
        def same_games(heading: str, suffix: str) -> None:
            """The rows of one batch of the same games in every engine (``_same_games``'s keys, ``suffix``)."""
            lines.append(heading)
            row("in C", f.get(f"ratio{suffix}_playouts_per_s"), "games/s",
                f"{_human(f.get(f'ratio{suffix}_moves_per_s'))} moves/s")
            row("the core driven from Python (Position)", f.get(f"api{suffix}_playouts_per_s"), "games/s",
                f"{_human(f.get(f'api{suffix}_moves_per_s'))} moves/s; C is "
                f"{_human(f.get(f'api_ratio{suffix}'))}x faster")
            row("the reference (plain Python)", f.get(f"reference{suffix}_playouts_per_s"), "games/s",
                f"{_human(f.get(f'reference{suffix}_moves_per_s'))} moves/s; C is "
                f"{_human(f.get(f'reference_ratio{suffix}'))}x faster")

        same_games(f"The same {self.ratio_games_2p} random 2-player games (R15) in each engine", "_2p")
        same_games(f"The same {self.ratio_games_kahuna} random Kahuna games (R16) in each engine", "_kahuna")
        same_games(f"The same {self.ratio_games_gods} random 4-player games with the gods (R14) in each engine",
                   "_gods")
        lines.append("Determinisations and search (4 players, mid-round-1, for the player to move)")
        row("determinisations in C (bulk)", f.get("determinisations_per_s"), "/s", "", "determinisations_per_s")
        row("CoreState.determinise() from Python", f.get("determinise_calls_per_s"), "/s")
        iters = f.get("ismcts_iterations")
        row(f"ISMCTS, {int(iters) if iters else '-'} iterations as hints run it",
            f.get("ismcts_iterations_per_s"), "iterations/s", "", "ismcts_iterations_per_s")
        os_iters = f.get("openspiel_ismcts_iterations")
        row(f"OpenSpiel's ISMCTS, {int(os_iters) if os_iters else '-'} iterations",
            f.get("openspiel_ismcts_iterations_per_s"), "iterations/s",
            "in Python, random rollouts" if os_iters else "needs the extra openspiel")
        row(f"OpenSpiel's ISMCTS, {int(os_iters) if os_iters else '-'} iterations, rollout=core",
            f.get("openspiel_ismcts_core_iterations_per_s"), "iterations/s",
            "the same rollouts in C" if os_iters else "needs the extra openspiel")
        if self.positions:
            lines.append("Single operations on the reference positions (calls/s from Python; apply along a "
                         "recorded line, copy included)")
            lines.append(f"  {'position':<18}{'legal_actions':>15}{'apply':>12}{'copy':>12}{'determinise':>13}")
            for name, ops in self.positions.items():
                cells = "".join(f"{_human(ops.get(k)):>{w}}" for k, w in (("legal_actions", 15), ("apply", 12),
                                                                           ("copy", 12), ("determinise", 13)))
                lines.append(f"  {name:<18}{cells}")
        lines.append("")
        games = signature_games()
        if self.agrees:
            lines.append(f"signature: {self.signature} moves in {games} seeded games (core, Python API and "
                         f"reference agree)")
            lines.append(f"2-player signature (R15): {self.signature_2p} moves in {signature_2p_games()} seeded "
                         f"games (core, Python API and reference agree)")
            lines.append(f"Kahuna signature (R16): {self.signature_kahuna} moves in {signature_kahuna_games()} "
                         f"seeded games (core, Python API and reference agree)")
            lines.append(f"signature with the gods (R14): {self.signature_gods} moves in {signature_gods_games()} "
                         f"seeded games (core, Python API and reference agree)")
        else:
            by = ", ".join(f"{k} {v}" for k, v in self.signature_by_engine.items())
            moves = ", ".join(f"{k} {v}" for k, v in self.ratio_moves.items())
            by_2p = ", ".join(f"{k} {v}" for k, v in self.signature_2p_by_engine.items())
            moves_2p = ", ".join(f"{k} {v}" for k, v in self.ratio_moves_2p.items())
            by_kahuna = ", ".join(f"{k} {v}" for k, v in self.signature_kahuna_by_engine.items())
            moves_kahuna = ", ".join(f"{k} {v}" for k, v in self.ratio_moves_kahuna.items())
            by_gods = ", ".join(f"{k} {v}" for k, v in self.signature_gods_by_engine.items())
            lines.append(f"MISMATCH: the engines played different games: signature {by}; "
                         f"moves of the {self.ratio_games} ratio games {moves}; 2-player signature {by_2p}; "
                         f"moves of the {self.ratio_games_2p} 2-player ratio games {moves_2p}; "
                         f"Kahuna signature {by_kahuna}; moves of the {self.ratio_games_kahuna} Kahuna ratio "
                         f"games {moves_kahuna}; signature with the gods {by_gods}")
        lines.append(f"measured in {self.seconds:.1f} s of wall time")
        return "\n".join(lines)


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


def _same_games(board: Board, players: int, n: int, moves: dict[str, int], budget: Budget,
                suffix: str, game: int = GAME_KANALOA, gods: bool = False) -> dict[str, float]:
    """Time the same ``n`` seeded random games in C, through the Python API and in the reference.

    Fills ``moves`` with each engine's move total (they must agree) and
    returns the rates, keyed ``ratio``/``api``/``reference`` + ``_playouts`` or
    ``_moves`` + ``suffix`` + ``_per_s``, and the speed-ups ``api_ratio`` and
    ``reference_ratio`` (+ ``suffix``).
    """
    reference = load_engine("reference")
    t_core = best_time(
        lambda: moves.__setitem__("core", core_games(board, players, PRESET_YUCATA, n, RATIO_SEED, game, gods)),
        budget.runs, budget.seconds)
    t_api = best_time(
        lambda: moves.__setitem__("api", play_games_api(board, players, PRESET_YUCATA, n, RATIO_SEED, game, gods)),
        budget.runs, 0.0)
    t_ref = best_time(
        lambda: moves.__setitem__("reference",
                                  play_games(board, players, PRESET_YUCATA, n, RATIO_SEED, reference, game, gods)),
        budget.reference_runs, 0.0)
    fig: dict[str, float] = {}
    for engine, t in (("ratio", t_core), ("api", t_api), ("reference", t_ref)):
        fig[f"{engine}{suffix}_playouts_per_s"] = n / t
        fig[f"{engine}{suffix}_moves_per_s"] = moves["core" if engine == "ratio" else engine] / t
    fig[f"api_ratio{suffix}"] = t_api / t_core
    fig[f"reference_ratio{suffix}"] = t_ref / t_core
    return fig


def run_bench(quick: bool = False, board_name: str = BOARD,
              progress: Callable[[str], None] | None = None) -> BenchReport:
    """Measure everything (see the module docstring); ``progress`` hears what is being measured."""
    from ..rules.core import core_board, random_games

    budget = QUICK if quick else FULL
    say = progress or (lambda _message: None)
    started = time.perf_counter()  # the run's wall time, for people
    board = load_board(board_name)
    tables = core_board(board)
    report = BenchReport(board=board.name, quick=quick)
    fig = report.figures

    # Whole games in C: a fixed batch of seeded deals, timed as a whole.
    for players, suffix in ((4, ""), (3, "_3p"), (2, "_2p")):
        say(f"random games in C, {players} players")
        batch = functools.partial(random_games, tables, players, PRESET_YUCATA, budget.batch_games, PLAYOUT_SEED)
        batch_moves = batch()[1]
        t = best_time(batch, budget.runs, budget.seconds)
        fig[f"playouts{suffix}_per_s"] = budget.batch_games / t
        fig[f"moves{suffix}_per_s"] = batch_moves / t
    say("random Kahuna games in C")
    kahuna_board = load_board(KAHUNA_BOARD)
    batch = functools.partial(random_games, core_board(kahuna_board), 2, PRESET_YUCATA, budget.batch_games,
                              PLAYOUT_SEED, GAME_KAHUNA)
    batch_moves = batch()[1]
    t = best_time(batch, budget.runs, budget.seconds)
    fig["kahuna_playouts_per_s"] = budget.batch_games / t
    fig["kahuna_moves_per_s"] = batch_moves / t
    say("random games with the gods in C")
    batch = functools.partial(random_games, tables, GODS_PLAYERS, PRESET_YUCATA, budget.batch_games, PLAYOUT_SEED,
                              GAME_KANALOA, True)
    batch_moves = batch()[1]
    t = best_time(batch, budget.runs, budget.seconds)
    fig["gods_playouts_per_s"] = budget.batch_games / t
    fig["gods_moves_per_s"] = batch_moves / t

    # The same games in every engine: the same deals and the same move stream, so the same work.
    report.ratio_games = budget.ratio_games
    say(f"the same {report.ratio_games} games in C, through the Python API and in the reference")
    fig.update(_same_games(board, 4, report.ratio_games, report.ratio_moves, budget, ""))
    # The same again for two players (R15), on a smaller batch.
    report.ratio_games_2p = budget.games_2p
    say(f"the same {report.ratio_games_2p} 2-player games in C, through the Python API and in the reference")
    fig.update(_same_games(board, 2, report.ratio_games_2p, report.ratio_moves_2p, budget, "_2p"))
    report.ratio_games_kahuna = budget.games_kahuna
    say(f"the same {report.ratio_games_kahuna} Kahuna games in C, through the Python API and in the reference")
    fig.update(_same_games(kahuna_board, 2, report.ratio_games_kahuna, report.ratio_moves_kahuna, budget, "_kahuna",
                           GAME_KAHUNA))
    report.ratio_games_gods = budget.games_kahuna
    say(f"the same {report.ratio_games_gods} games with the gods in C, through the Python API and in the reference")
    fig.update(_same_games(board, GODS_PLAYERS, report.ratio_games_gods, report.ratio_moves_gods, budget, "_gods",
                           GAME_KANALOA, True))

    say(f"the signature ({signature_games()} games) in every engine")
    for engine in ("core", "api", "reference"):
        report.signature_by_engine[engine] = signature(board, engine)
        report.signature_2p_by_engine[engine] = signature_2p(board, engine)
        report.signature_kahuna_by_engine[engine] = signature_kahuna(kahuna_board, engine)
        report.signature_gods_by_engine[engine] = signature_gods(board, engine)
    report.signature = report.signature_by_engine["core"]
    report.signature_2p = report.signature_2p_by_engine["core"]
    report.signature_kahuna = report.signature_kahuna_by_engine["core"]
    report.signature_gods = report.signature_gods_by_engine["core"]

    mid = bench_position(board, *ISMCTS_POSITION)
    viewer = mid.data.to_move
    say("determinisations")
    state = mid.core_state(board)
    n = 20 * budget.op_calls
    fig["determinisations_per_s"] = n / best_time(lambda: bulk_determinisations(state, viewer, n, 1),
                                                  budget.runs, budget.seconds)
    calls = budget.op_calls
    fig["determinise_calls_per_s"] = calls / best_time(_calls(lambda: state.determinise(viewer, 1), calls),
                                                       budget.runs, budget.seconds / 2)

    say(f"ISMCTS, {budget.ismcts_iterations} iterations")
    fig["ismcts_iterations"] = budget.ismcts_iterations
    run_ismcts(board, mid, 50)  # warm up the search code paths
    t = best_time(lambda: run_ismcts(board, mid, budget.ismcts_iterations), budget.ismcts_runs, 0.0)
    fig["ismcts_iterations_per_s"] = budget.ismcts_iterations / t
    from ..play.bots import openspiel_installed

    if openspiel_installed():
        say(f"OpenSpiel's ISMCTS, {budget.openspiel_iterations} iterations")
        fig["openspiel_ismcts_iterations"] = budget.openspiel_iterations
        t = best_time(lambda: run_openspiel_ismcts(board, mid, budget.openspiel_iterations), 1, 0.0)
        fig["openspiel_ismcts_iterations_per_s"] = budget.openspiel_iterations / t
        t = best_time(lambda: run_openspiel_ismcts(board, mid, budget.openspiel_iterations, rollout="core"), 1, 0.0)
        fig["openspiel_ismcts_core_iterations_per_s"] = budget.openspiel_iterations / t

    for players, phase in budget.positions:
        position = mid if (players, phase) == ISMCTS_POSITION else bench_position(board, players, phase)
        say(f"single operations at {position.name}")
        report.positions[position.name] = _time_operations(board, position, budget)

    report.seconds = time.perf_counter() - started
    return report


def _time_operations(board: Board, position: BenchPosition, budget: Budget) -> dict[str, float | None]:
    """Calls per second of ``legal_actions``, ``apply`` (along the recorded line), ``copy`` and ``determinise``."""
    state = position.core_state(board)
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


def stderr_progress(message: str) -> None:
    """Progress for ``kanaloa bench``: one line per measurement on standard error."""
    print(f"kanaloa bench: {message} ...", file=sys.stderr, flush=True)


__all__ = [
    "PHASES",
    "SIGNATURE_SET",
    "SIGNATURE_SET_2P",
    "TARGETS",
    "BenchPosition",
    "BenchReport",
    "bench_position",
    "bench_positions",
    "play_games",
    "play_games_api",
    "play_random",
    "run_bench",
    "signature",
    "signature_2p",
    "signature_gods",
    "signature_kahuna",
]
