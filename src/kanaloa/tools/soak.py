"""The differential soak: many seeded random games through both rules engines at once.

The compiled core (``load_engine("core")``) and the plain-Python reference
(``load_engine("reference")``) must agree move for move.  The tests play a few
thousand games side by side; the soak plays as many as asked (a million in
well under an hour on two cores), spread over worker processes, and prints a
reproducer for every game where the two part ways.

**The games.**  Everything follows from the soak seed and a game's index
``i``, never from the worker that plays it, so any number of workers plays
the very same games and gives the same figures:

- the deal seed is output ``i`` of the SplitMix64 stream seeded with the
  soak seed (``kanaloa.play.streams.deal_seed``), what ``kanaloa new --seed``
  takes;
- the table (the rule set, ``soak_tables``) cycles with ``i``: first the
  tables of the first soaks, Kanaloa with 3 players yucata, 4 players
  yucata, 3 players tabletop, 4 players tabletop, 2 players yucata and 2
  players tabletop (R15: two colors each), which so keep their games; then
  every other example rule set of every registered game
  (``kanaloa.rules.registry``: Might of the Gods, R14; Kahuna, R16), so a
  new game is soaked without an edit here;
- the start cycles in blocks of four games, eight blocks to a turn: six
  blocks start from the deal; one from a *crowded* board (the deal with
  every link given a bridge at random, color 0 favoured, no color past the
  bridges the rule set gives it), where eleven islands (R8), removals (R7)
  and an empty stock (R13) come up far more often than in random play; one
  *jumps in*: the core alone plays the first 1 to ``JUMP_MOVES`` moves,
  then both engines are loaded from that state with ``from_data`` and play
  on together, so that the soak also starts from states in the middle of a
  turn;
- every move is drawn uniformly from the legal moves with the SplitMix64
  stream seeded with the deal seed XOR ``MOVE_SALT``
  (``kanaloa.play.streams.move_stream``; the crowded start draws its bridges
  from that stream first).

**What is compared.**  The reference alone plays about 400 random games a
second on one core; a comparison of both complete states after every move
would cost a third of that again, so the soak compares

- after every move: both engines' complete legal-move lists (equal as
  lists, order included) and the player to move.  The list depends on the
  mover's hand, the turn's progress (cards played, a discard, pending R7
  removals), the bridges, the stock, the face-up cards and whether the deck
  is empty, so most wrong moves show in it at once;
- at the start, after every move that passes the turn to another player
  (the last move of a turn, a setup choice, a final-round pass), and at the
  end of the game: the complete states (``to_data()`` equal field by
  field: bridges, hands, known cards, face-down discards, deck order,
  face-up cards, discards, scores, round, turn state, chance stream,
  ranking, winner and reason), and each engine's ``to_move``, ``round``,
  ``is_over``, ``scores``, ``winner`` and ``ranking`` against its own data;
- at the end: both engines say the game is over and offer no move.

A state that differs in the middle of a turn therefore shows at the latest
when the turn ends.  A game that does not end within ``MAX_MOVES`` moves,
and an exception raised by either engine, count as divergences too.

**Stopping.**  By default the soak stops at the first divergence: it plays
every game up to the lowest-numbered game that diverges, and reports that
one.  With ``keep_going`` it plays every game and counts every divergence
(keeping the first ``KEPT`` in full).  Either way the result does not depend
on the number of workers.  ``replay_game`` plays one game again alone
(``kanaloa soak --seed S --game I``).
"""

from __future__ import annotations

import functools
import json
import math
import shlex
import time
import traceback
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..errors import OptionError
from ..play.interrupt import CtrlC
from ..play.limits import worker_count
from ..play.pools import process_pool, serial
from ..play.streams import deal_seed, move_stream
from ..position.notation import Move
from ..rules.engine import Engine, EngineState, load_engine
from ..rules.registry import game_type, game_types, load_game
from ..rules.rng import MASK64, SplitMix64
from ..rules.ruleset import Ruleset
from ..rules.state import REASON_NAMES, ROUND_OVER, StateData

MAX_MOVES = 2000  # a random game takes 150 to 200 moves; one still running here never ends
JUMP_MOVES = 150  # the core alone plays 1 to JUMP_MOVES moves before a jump-in start
KEPT = 20  # divergences kept in full (with their moves) when the soak keeps going
CHUNK_GAMES = 250  # most games handed to a worker at once (about a second of work)

FROM_DEAL, CROWDED, JUMP = "deal", "crowded", "jump"
STARTS = (FROM_DEAL, CROWDED, JUMP)
_START_CYCLE = (FROM_DEAL, FROM_DEAL, FROM_DEAL, FROM_DEAL, FROM_DEAL, FROM_DEAL, CROWDED, JUMP)  # by block of 4
# The tables of the first soaks (game, parameters), first in the cycle so that a seed plays the same games there.
_FIRST_TABLES: tuple[tuple[str, dict[str, Any]], ...] = tuple(
    ("kanaloa", {"players": players, "preset": preset})
    for players, preset in ((3, "yucata"), (4, "yucata"), (3, "tabletop"), (4, "tabletop"), (2, "yucata"),
                            (2, "tabletop")))

# Crowded starts: the share of links given to color 0, left free, and (the rest) given to another color.
_OWN_SHARE, _FREE_SHARE = 0.45, 0.25


@functools.cache
def soak_tables() -> tuple[Ruleset, ...]:
    """The rule sets the soak cycles through (see *The games* in the module docstring)."""
    tables = [load_game(name, **params) for name, params in _FIRST_TABLES]
    for game in game_types():
        for rules in game.example_rulesets():
            if rules not in tables:
                tables.append(rules)
    return tuple(tables)


def table_kind(rules: Ruleset) -> str:
    """A table's short name: ``3p-yucata``, ``4p-tabletop``, ``2p-yucata-gods``, ``kahuna-2p``: the game where it is
    not the default one, the players, and the preset and the gods where the game has them."""
    params = rules.params()
    parts = [rules.game] if rules.document_game is not None else []
    parts.append(f"{rules.players}p")
    if "preset" in params:
        parts.append(str(params["preset"]))
    if params.get("gods"):
        parts.append("gods")
    return "-".join(parts)


def new_command(rules: Ruleset, seed: int) -> str:
    """The ``kanaloa new`` command that deals the game of ``rules`` from ``seed``."""
    params = rules.params()
    words = ["kanaloa", "new", "--seed", str(seed)]
    if rules.document_game is not None:
        words += ["--game", rules.game]
    words += ["--players", str(rules.players)]
    if "preset" in params:
        words += ["--preset", str(params["preset"])]
    if params.get("gods"):
        words.append("--gods")
    if rules.board.source != game_type(rules.game).load(players=rules.players).board.source:
        words += ["--board", rules.board.source]
    return shlex.join(words)


@dataclass(frozen=True)
class SoakGame:
    """Game ``index`` of the soak seeded with ``soak_seed``: its deal seed, table (a rule set) and start."""

    soak_seed: int
    index: int
    seed: int
    ruleset: Ruleset
    start: str

    @property
    def players(self) -> int:
        return self.ruleset.players

    @property
    def kind(self) -> str:
        """``3p-yucata``, ``4p-tabletop``, ... (``table_kind``)."""
        return table_kind(self.ruleset)

    def new_command(self) -> str:
        """The ``kanaloa new`` command that deals this game."""
        return new_command(self.ruleset, self.seed)

    def replay_command(self) -> str:
        """The ``kanaloa soak`` command that plays this game again, alone."""
        return f"kanaloa soak --seed {self.soak_seed} --game {self.index}"


def soak_game(soak_seed: int, index: int) -> SoakGame:
    """The setup of game ``index`` (see *The games* in the module docstring)."""
    tables = soak_tables()
    start = _START_CYCLE[(index // 4) % len(_START_CYCLE)]
    return SoakGame(soak_seed, index, deal_seed(soak_seed, index), tables[index % len(tables)], start)


@dataclass(frozen=True)
class Divergence:
    """Where a game's two engines parted ways.

    ``moves`` are the moves played from the deal (a crowded start: from the
    crowded board) up to the point the difference showed, in notation;
    ``together_from`` is how many of them the core played alone before a
    jump-in start (0 otherwise); ``what`` says what differed.
    """

    game: SoakGame
    moves: tuple[str, ...]
    what: str
    together_from: int = 0

    @property
    def move(self) -> int:
        """How many moves were played when the difference showed."""
        return len(self.moves)

    def to_json(self) -> dict:
        g = self.game
        return {
            "game": g.index,
            "seed": g.seed,
            "kind": g.kind,
            "players": g.players,
            "preset": g.ruleset.params().get("preset"),
            "gods": g.ruleset.gods,
            "start": g.start,
            "move": self.move,
            "what": self.what,
            "moves": list(self.moves),
            "together_from": self.together_from,
            "replay": g.replay_command(),
        }

    def reproducer(self) -> str:
        """Several lines for people: the game, what differed, the moves so far and how to replay it."""
        g = self.game
        lines = [
            f"divergence in game {g.index} of the soak with seed {g.soak_seed}: deal seed {g.seed}, "
            f"{g.ruleset.describe()}, start: {g.start}",
            f"  after {self.move} moves: {self.what}",
        ]
        if g.start == JUMP:
            lines.append(f"  the core played the first {self.together_from} moves alone; both engines were "
                         f"loaded from the state after them")
        if g.start == CROWDED:
            lines.append("  the game began on a crowded board (bridges scattered at random over the deal)")
        lines.append(f"  moves so far: {json.dumps(list(self.moves))}")
        lines.append(f"  replay: {g.replay_command()}")
        if g.start != CROWDED:
            played = " ".join(shlex.quote(m) for m in self.moves)
            lines.append(f"  the position (core): {g.new_command()} | kanaloa play - {played}".rstrip())
        return "\n".join(lines)


class _Diverged(Exception):
    """Raised inside a game to stop it with a description of the difference."""


@dataclass
class GameOutcome:
    """One game of the soak: moves played side by side, states compared, how it ended."""

    game: SoakGame
    moves: int
    states: int
    reason: int
    divergence: Divergence | None = None


def first_difference(core: StateData, reference: StateData) -> str:
    """The first field (in ``StateData`` order) where the two states differ, with both values."""
    for name in StateData.__dataclass_fields__:
        a, b = getattr(core, name), getattr(reference, name)
        if a != b:
            return f"the states differ in {name!r}: core {a!r}, reference {b!r}"
    return "the states are equal"


def _check_own_data(state: EngineState, data: StateData, side: str) -> None:
    """An engine's properties must say what its exported data says."""
    for name, got, want in (
        ("to_move", state.to_move, data.to_move),
        ("round", state.round, data.round),
        ("is_over", state.is_over, data.round == ROUND_OVER),
        ("scores", list(state.scores), data.scores),
        ("winner", state.winner, data.winner),
        ("ranking", list(state.ranking), data.ranking),
    ):
        if got != want:
            raise _Diverged(f"the {side}'s {name} is {got!r} but its state data says {want!r}")


def _compare_states(core: EngineState, ref: EngineState) -> StateData:
    """Compare the complete states; return the reference's data."""
    core_data, ref_data = core.to_data(), ref.to_data()
    if core_data != ref_data:
        raise _Diverged(first_difference(core_data, ref_data))
    _check_own_data(core, core_data, "core")
    _check_own_data(ref, ref_data, "reference")
    return ref_data


def crowd(rules: Ruleset, data: StateData, stream: SplitMix64) -> None:
    """Scatter bridges over ``data``, a state of ``rules`` (see *crowded* starts): each link goes to color 0,
    stays free, or goes to another color (any of the four with two players of Kanaloa), drawn from ``stream``,
    none past the bridges a color has (R13, R16.1); the cards are not touched."""
    cap = rules.bridges_per_color or len(data.bridges)
    colors = rules.n_colors
    held = [0] * colors
    for k in range(len(data.bridges)):
        x = stream.next() / 2.0**64
        if x < _OWN_SHARE:
            owner = 0
        elif x < _OWN_SHARE + _FREE_SHARE:
            owner = -1
        else:
            owner = 1 + stream.below(colors - 1)
        if owner >= 0 and held[owner] >= cap:
            owner = -1
        if owner >= 0:
            held[owner] += 1
        data.bridges[k] = owner


def play_game(game: SoakGame, core_engine: Engine, ref_engine: Engine) -> GameOutcome:
    """Play ``game`` through both engines side by side (see *What is compared*), on its rule set's board."""
    rules = game.ruleset
    board = rules.board
    stream = move_stream(game.seed)
    below = stream.below
    actions: list[int] = []
    movers: list[int] = []  # the seat that made each action, to write it (a 2-player build names its color)
    together = 0
    states = 0
    try:
        if game.start == CROWDED:
            data = ref_engine.deal(rules, game.seed).to_data()
            crowd(rules, data, stream)
            core = core_engine.from_data(board, data)
            ref = ref_engine.from_data(board, data)
        elif game.start == JUMP:
            alone = core_engine.deal(rules, game.seed)
            for _ in range(1 + below(JUMP_MOVES)):
                if alone.is_over:
                    break
                legal = alone.legal_actions()
                action = legal[below(len(legal))]
                actions.append(action)
                movers.append(alone.to_move)
                alone.apply(action)
            together = len(actions)
            data = alone.to_data()
            core = core_engine.from_data(board, data)
            ref = ref_engine.from_data(board, data)
        else:
            core = core_engine.deal(rules, game.seed)
            ref = ref_engine.deal(rules, game.seed)
        _compare_states(core, ref)
        states += 1
        mover = ref.to_move
        while True:
            ref_moves = ref.legal_actions()
            core_moves = core.legal_actions()
            if core_moves != ref_moves:
                raise _Diverged(_moves_differ(rules, list(core_moves), ref_moves, ref.to_move))
            if not ref_moves:
                if not (ref.is_over and core.is_over):
                    raise _Diverged("no legal move, but the game is not over")
                break
            if len(actions) >= MAX_MOVES:
                raise _Diverged(f"the game did not end within {MAX_MOVES} moves")
            action = ref_moves[below(len(ref_moves))]
            actions.append(action)  # first, so that a move an engine fails on is among the moves reported
            movers.append(mover)
            core.apply(action)
            ref.apply(action)
            now = ref.to_move
            if core.to_move != now:
                raise _Diverged(f"the player to move differs: core seat {core.to_move}, reference seat {now}")
            if now != mover:
                _compare_states(core, ref)
                states += 1
                mover = now
        final = _compare_states(core, ref)
        states += 1
    except _Diverged as exc:
        return _diverged(game, actions, movers, str(exc), together, states)
    except Exception as exc:  # an engine crashed: as much a divergence as a wrong move
        return _diverged(game, actions, movers, _crash(exc), together, states)
    return GameOutcome(game, len(actions) - together, states, final.reason)


def _diverged(game: SoakGame, actions: list[int], movers: list[int], what: str, together: int,
              states: int) -> GameOutcome:
    rules = game.ruleset
    moves = tuple(_action_text(rules, a, seat) for a, seat in zip(actions, movers, strict=True))
    return GameOutcome(game, len(actions) - together, states, 0, Divergence(game, moves, what, together))


def _moves_differ(rules: Ruleset, core_moves: list[int], ref_moves: list[int], seat: int) -> str:
    def names(actions) -> str:
        return "[" + ", ".join(_action_text(rules, a, seat) for a in actions) + "]"

    only_core = sorted(set(core_moves) - set(ref_moves))
    only_ref = sorted(set(ref_moves) - set(core_moves))
    if not only_core and not only_ref:
        return f"the legal moves differ in order: core {names(core_moves)}, reference {names(ref_moves)}"
    return f"the legal moves differ: only the core has {names(only_core)}, only the reference {names(only_ref)}"


def _action_text(rules: Ruleset, action: int, seat: int) -> str:
    """The move of ``action`` by ``seat`` in notation (a build of a player with two colors names its color)."""
    try:
        return str(Move.from_action(action, rules, seat))
    except ValueError:
        return f"action {action}"


def _crash(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno}" if frames else ""
    message = " ".join(str(exc).split())
    return f"an engine raised {type(exc).__name__}{where}: {message[:200]}"


# -- many games ---------------------------------------------------------------------


@dataclass
class ChunkResult:
    """What a worker returns for games ``first`` to ``first + games - 1``."""

    first: int
    games: int = 0
    moves: int = 0
    states: int = 0
    starts: dict[str, int] = field(default_factory=dict)
    reasons: dict[int, int] = field(default_factory=dict)
    divergences: list[Divergence] = field(default_factory=list)
    diverged: int = 0  # all divergences, kept or not


def play_chunk(seed: int, first: int, stop: int, keep_going: bool) -> ChunkResult:
    """Play games ``first`` to ``stop - 1``; without ``keep_going``, stop after the first divergence."""
    core_engine, ref_engine = load_engine("core"), load_engine("reference")
    out = ChunkResult(first)
    for index in range(first, stop):
        outcome = play_game(soak_game(seed, index), core_engine, ref_engine)
        out.games += 1
        out.moves += outcome.moves
        out.states += outcome.states
        start = outcome.game.start
        out.starts[start] = out.starts.get(start, 0) + 1
        if outcome.divergence is not None:
            out.diverged += 1
            if len(out.divergences) < KEPT:
                out.divergences.append(outcome.divergence)
            if not keep_going:
                break
        else:
            out.reasons[outcome.reason] = out.reasons.get(outcome.reason, 0) + 1
    return out


@dataclass
class SoakRun:
    """The figures of a soak: games, moves, states compared, divergences, time."""

    seed: int
    planned: int
    workers: int
    keep_going: bool
    games: int = 0
    moves: int = 0
    states: int = 0
    starts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STARTS, 0))
    reasons: dict[str, int] = field(default_factory=lambda: dict.fromkeys(REASON_NAMES.values(), 0))
    divergences: list[Divergence] = field(default_factory=list)
    diverged: int = 0
    seconds: float = 0.0
    interrupted: bool = False

    @property
    def stopped(self) -> bool:
        """True when the soak stopped at a divergence before playing every game."""
        return self.diverged > 0 and not self.keep_going and self.games < self.planned

    def add(self, chunk: ChunkResult) -> None:
        self.games += chunk.games
        self.moves += chunk.moves
        self.states += chunk.states
        for start, n in chunk.starts.items():
            self.starts[start] += n
        for reason, n in chunk.reasons.items():
            self.reasons[REASON_NAMES[reason]] += n
        room = KEPT - len(self.divergences)
        self.divergences.extend(chunk.divergences[:room])
        self.diverged += chunk.diverged

    def to_json(self) -> dict:
        """The ``kanaloa soak --json`` document."""
        return {
            "games": self.games,
            "moves": self.moves,
            "divergences": self.diverged,
            "seconds": round(self.seconds, 3),
            "games_per_s": round(self.games / self.seconds, 1) if self.seconds > 0 else 0.0,
            "planned": self.planned,
            "seed": self.seed,
            "workers": self.workers,
            "keep_going": self.keep_going,
            "stopped": self.stopped,
            "interrupted": self.interrupted,
            "states_compared": self.states,
            "starts": self.starts,
            "reasons": self.reasons,
            "findings": [d.to_json() for d in self.divergences],
        }

    def figures(self) -> str:
        """The totals in one line: games, moves, divergences, time and rate."""
        rate = self.games / self.seconds if self.seconds > 0 else 0.0
        return (f"{self.games} games, {self.moves} moves, {self.diverged} "
                f"{'divergence' if self.diverged == 1 else 'divergences'} in {self.seconds:.1f} s "
                f"({rate:.1f} games/s, {_plural(self.workers, 'worker')})")

    def summary(self) -> str:
        """The report for people: the figures, what was played, then each kept divergence."""
        lines = []
        if self.interrupted:
            lines.append(f"interrupted after {self.games} of {self.planned} games")
        elif self.stopped:
            lines.append(f"stopped at the first divergence, after {self.games} of {self.planned} games "
                         f"(--keep-going plays on)")
        lines.append(self.figures())
        ended = ", ".join(f"by {reason} ({_rules_of_reason(reason)}) {n}" for reason, n in self.reasons.items() if n)
        lines.append(f"seed {self.seed}; starts: {self.starts[FROM_DEAL]} from the deal, {self.starts[CROWDED]} "
                     f"crowded, {self.starts[JUMP]} jumped in; {self.states} complete states compared; "
                     f"ended {ended or 'by nothing yet'}")
        for d in self.divergences:
            lines.append(d.reproducer())
        if self.diverged > len(self.divergences):
            lines.append(f"... and {self.diverged - len(self.divergences)} more divergences not shown")
        return "\n".join(lines)


def _rules_of_reason(reason: str) -> str:
    """The rule ids of a way to end a game in the tables that have it: ``R12, R16.7`` for points."""
    return ", ".join(dict.fromkeys(t.rule_of(reason) for t in soak_tables() if reason in t.reasons))


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _chunk_size(games: int, workers: int) -> int:
    """Games a chunk: small enough to spread over the workers and show progress, at most CHUNK_GAMES."""
    return max(1, min(CHUNK_GAMES, math.ceil(games / (8 * workers))))


def _chunks(games: int, workers: int) -> Iterator[tuple[int, int]]:
    """The game ranges of the soak, made one at a time (a soak of any length starts at once)."""
    size = _chunk_size(games, workers)
    return ((first, min(first + size, games)) for first in range(0, games, size))


def _play_chunk(seed: int, keep_going: bool, chunk: tuple[int, int]) -> ChunkResult:
    first, stop = chunk
    return play_chunk(seed, first, stop, keep_going)


def _results(seed: int, games: int, workers: int, keep_going: bool) -> Generator[ChunkResult, None, None]:
    """Chunk results in game order, played here or in a pool of ``workers`` processes
    (``kanaloa.play.pools``)."""
    chunks = _chunks(games, workers)
    count = math.ceil(games / _chunk_size(games, workers))
    if workers == 1 or count == 1:
        return serial(_play_chunk, chunks, seed, keep_going)
    return process_pool(_play_chunk, chunks, min(workers, count), seed, keep_going, ordered=True)


def run_soak(games: int, seed: int, workers: int = 1, keep_going: bool = False,
             on_progress: Callable[[int], None] | None = None) -> SoakRun:
    """Play soak games ``0`` to ``games - 1`` through both engines and return the figures.

    ``workers`` > 1 plays in that many processes (0: one per core); the
    figures do not depend on it.  ``on_progress`` is called with the number
    of games finished so far.  Ctrl-C stops the soak and returns what
    finished (in game order), with ``interrupted`` set
    (``kanaloa.play.interrupt``).
    """
    _check(games, seed)
    workers = worker_count(workers)
    run = SoakRun(seed, games, workers, keep_going)
    start = time.perf_counter()
    source = _results(seed, games, workers, keep_going)
    with CtrlC() as ctrl_c:
        try:
            for chunk in source:
                with ctrl_c.holding():  # a chunk counts whole, with its progress
                    run.add(chunk)
                    if on_progress is not None:
                        on_progress(run.games)
                if run.diverged and not keep_going:
                    break
        except KeyboardInterrupt:
            run.interrupted = True
        finally:
            with ctrl_c.holding(reraise=False):  # a second Ctrl-C must not cut the clean-up short
                source.close()
    run.seconds = time.perf_counter() - start
    return run


def replay_game(seed: int, index: int) -> GameOutcome:
    """Play game ``index`` of the soak seeded with ``seed`` again, alone, in this process."""
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise OptionError(f"--game {index!r}: must be a whole number, 0 or more")
    _check(index + 1, seed)
    return play_game(soak_game(seed, index), load_engine("core"), load_engine("reference"))


def _check(games: object, seed: object) -> None:
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise OptionError(f"--games {games!r}: must be a whole number, 1 or more")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
        raise OptionError(f"--seed {seed!r}: must be an integer from 0 to 2**64-1")
