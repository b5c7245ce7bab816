"""The differential soak: many seeded random games through both rules engines at once.

The compiled core (engine ``"core"``) and the plain-Python reference (engine
``"reference"``) of every registered game must agree move for move.  The
tests play a few thousand games side by side; the soak plays as many as asked
(a million in well under an hour on two cores), spread over worker
processes, and prints a reproducer for every game where the two part ways.

**It knows no game.**  A game is reached through its ``position`` face
(``kanaloa.rules.registry``): ``deal(ruleset, seed, engine)`` deals it on
either engine, ``on(engine)`` copies a position to the other engine,
``crowded(stream)`` makes a crowded start, ``move_of(action)`` and
``push(action)`` write the moves of a reproducer, ``outcome`` says how a
game ended; the engine states themselves (``state``) are played and
compared (``to_data()``, a dataclass, field by field).  The rule set says
which of an engine state's answers must match its data
(``ruleset.state_checks(state)``) and names the ways a game ends
(``reasons``, ``rule_of``).

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
  (``kanaloa.rules.registry``: Might of the Gods, R14; Kahuna, R16; and
  every other game registered), so a new game is soaked without an edit
  here;
- the start cycles in blocks of four games, eight blocks to a turn: six
  blocks start from the deal; one from a *crowded* start, the deal made
  crowded by the position's ``crowded(stream)`` (in the Kanaloa family
  every link given a bridge at random, color 0 favoured, no color past the
  bridges the rule set gives it, where eleven islands, R8, removals, R7,
  and an empty stock, R13, come up far more often than in random play;
  each game says what its own crowded start holds); one *jumps in*: the
  core alone plays the first 1 to ``JUMP_MOVES`` moves, then both engines
  are loaded from that state (``on``) and play on together, so that the
  soak also starts from states in the middle of a turn;
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
  field: in the Kanaloa family bridges, hands, known cards, face-down
  discards, deck order, face-up cards, discards, scores, round, turn state,
  chance stream, ranking, winner and reason), and each engine's answers
  against its own data (``state_checks``: in the family ``to_move``,
  ``round``, ``is_over``, ``scores``, ``winner`` and ``ranking``);
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

import dataclasses
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
from ..rules.registry import game_types, load_game
from ..rules.rng import MASK64

MAX_MOVES = 2000  # a random game takes 150 to 200 moves; one still running here never ends
JUMP_MOVES = 150  # the core alone plays 1 to JUMP_MOVES moves before a jump-in start
KEPT = 20  # divergences kept in full (with their moves) when the soak keeps going
CHUNK_GAMES = 250  # most games handed to a worker at once (about a second of work)

CORE, REFERENCE = "core", "reference"  # the engines, by the names every game's position class takes
GameRules = Any  # a registered game's rule set (``GameType.load``), whatever its class

FROM_DEAL, CROWDED, JUMP = "deal", "crowded", "jump"
STARTS = (FROM_DEAL, CROWDED, JUMP)
_START_CYCLE = (FROM_DEAL, FROM_DEAL, FROM_DEAL, FROM_DEAL, FROM_DEAL, FROM_DEAL, CROWDED, JUMP)  # by block of 4
# The tables of the first soaks (game, parameters), first in the cycle so that a seed plays the same games there.
_FIRST_TABLES: tuple[tuple[str, dict[str, Any]], ...] = tuple(
    ("kanaloa", {"players": players, "preset": preset})
    for players, preset in ((3, "yucata"), (4, "yucata"), (3, "tabletop"), (4, "tabletop"), (2, "yucata"),
                            (2, "tabletop")))


@functools.cache
def soak_tables() -> tuple[GameRules, ...]:
    """The rule sets the soak cycles through (see *The games* in the module docstring)."""
    tables = [load_game(name, **params) for name, params in _FIRST_TABLES]
    for game in game_types():
        for rules in game.example_rulesets():
            if rules not in tables:
                tables.append(rules)
    return tuple(tables)


def table_kind(rules: GameRules) -> str:
    """A table's short name: ``3p-yucata``, ``4p-tabletop``, ``2p-yucata-gods``, ``kahuna-2p``: the game where it is
    not the default one, the players, then the value of each parameter with choices (a preset) and the name of
    each flag that is set (the gods)."""
    params = rules.params()
    parts = [rules.game] if rules.document_game is not None else []
    parts.append(f"{rules.players}p")
    for p in rules.game_type.parameters:
        if p.name == "players" or p.name not in params:
            continue
        if p.kind == "flag":
            parts += [p.name] if params[p.name] else []
        elif p.choices:
            parts.append(str(params[p.name]))
    return "-".join(parts)


def new_command(rules: GameRules, seed: int) -> str:
    """The ``kanaloa new`` command that deals the game of ``rules`` from ``seed``: its game where it is not the
    default one, its players, every parameter with choices (a preset), every flag that is set (the gods) and
    every other parameter where it differs from the defaults for that player count (a board, colors)."""
    game = rules.game_type
    params = rules.params()
    usual = game.load(players=rules.players).params()
    words = ["kanaloa", "new", "--seed", str(seed)]
    if rules.document_game is not None:
        words += ["--game", rules.game]
    words += ["--players", str(rules.players)]
    for p in game.parameters:
        if p.name == "players" or p.name not in params:
            continue
        value = params[p.name]
        if p.kind == "flag":
            words += [f"--{p.name}"] if value else []
        elif p.choices or value != usual.get(p.name):
            words += [f"--{p.name}", str(value)]
    return shlex.join(words)


@dataclass(frozen=True)
class SoakGame:
    """Game ``index`` of the soak seeded with ``soak_seed``: its deal seed, table (a rule set) and start."""

    soak_seed: int
    index: int
    seed: int
    ruleset: GameRules
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
        params = g.ruleset.params()
        return {
            "game": g.index,
            "seed": g.seed,
            "kind": g.kind,
            "params": params,
            "players": g.players,
            "preset": params.get("preset"),
            "gods": bool(params.get("gods", False)),
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
            lines.append("  the game began from a crowded start (the position's crowded(): pieces scattered at "
                         "random over the deal)")
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
    reason: str  # how the game ended (one of its rule set's ``reasons``); "" for a divergence
    divergence: Divergence | None = None


def first_difference(core: Any, reference: Any) -> str:
    """The first field (in the order of the states' dataclass) where the two states differ, with both values."""
    for f in dataclasses.fields(core):
        a, b = getattr(core, f.name), getattr(reference, f.name)
        if a != b:
            return f"the states differ in {f.name!r}: core {a!r}, reference {b!r}"
    return "the states are equal"


def _check_own_data(rules: GameRules, state: Any, side: str) -> None:
    """An engine's answers must say what its exported data says (``rules.state_checks``)."""
    for name, got, want in rules.state_checks(state):
        if got != want:
            raise _Diverged(f"the {side}'s {name} is {got!r} but its state data says {want!r}")


def _compare_states(rules: GameRules, core: Any, ref: Any) -> None:
    """Compare the complete states, and each engine's answers against its own."""
    core_data, ref_data = core.to_data(), ref.to_data()
    if core_data != ref_data:
        raise _Diverged(first_difference(core_data, ref_data))
    _check_own_data(rules, core, "core")
    _check_own_data(rules, ref, "reference")


def play_game(game: SoakGame) -> GameOutcome:
    """Play ``game`` through both engines side by side (see *What is compared*), dealt by its game's position
    face."""
    rules = game.ruleset
    deal = rules.game_type.face("position").deal
    stream = move_stream(game.seed)
    below = stream.below
    actions: list[int] = []
    together = 0
    states = 0
    start: Any = None  # the position the moves so far are played from, for the reproducer
    try:
        if game.start == CROWDED:
            start = deal(rules, game.seed, REFERENCE).crowded(stream)
            core_pos, ref_pos = start.on(CORE), start.on(REFERENCE)
        elif game.start == JUMP:
            start = deal(rules, game.seed, CORE)
            alone_pos = start.copy()
            alone = alone_pos.state
            for _ in range(1 + below(JUMP_MOVES)):
                if alone.is_over:
                    break
                legal = alone.legal_actions()
                action = legal[below(len(legal))]
                actions.append(action)
                alone.apply(action)
            together = len(actions)
            core_pos, ref_pos = alone_pos.on(CORE), alone_pos.on(REFERENCE)
        else:
            core_pos, ref_pos = deal(rules, game.seed, CORE), deal(rules, game.seed, REFERENCE)
            start = ref_pos.copy()
        core, ref = core_pos.state, ref_pos.state
        _compare_states(rules, core, ref)
        states += 1
        mover = ref.to_move
        while True:
            ref_moves = ref.legal_actions()
            core_moves = core.legal_actions()
            if core_moves != ref_moves:
                raise _Diverged(_moves_differ(core_pos, list(core_moves), list(ref_moves)))
            if not ref_moves:
                if not (ref.is_over and core.is_over):
                    raise _Diverged("no legal move, but the game is not over")
                break
            if len(actions) >= MAX_MOVES:
                raise _Diverged(f"the game did not end within {MAX_MOVES} moves")
            action = ref_moves[below(len(ref_moves))]
            actions.append(action)  # first, so that a move an engine fails on is among the moves reported
            core.apply(action)
            ref.apply(action)
            now = ref.to_move
            if core.to_move != now:
                raise _Diverged(f"the player to move differs: core seat {core.to_move}, reference seat {now}")
            if now != mover:
                _compare_states(rules, core, ref)
                states += 1
                mover = now
        _compare_states(rules, core, ref)
        states += 1
        reason = str(ref_pos.outcome["reason"])
    except _Diverged as exc:
        return _diverged(game, start, actions, str(exc), together, states)
    except Exception as exc:  # an engine crashed: as much a divergence as a wrong move
        return _diverged(game, start, actions, _crash(exc), together, states)
    return GameOutcome(game, len(actions) - together, states, reason)


def _diverged(game: SoakGame, start: Any, actions: list[int], what: str, together: int,
              states: int) -> GameOutcome:
    moves = _move_texts(start, actions)
    return GameOutcome(game, len(actions) - together, states, "", Divergence(game, moves, what, together))


def _move_texts(start: Any, actions: list[int]) -> tuple[str, ...]:
    """``actions`` played from the position ``start`` (on the core), each in notation as its player writes it
    (with its color where a player has two); ``action N`` from the first that cannot be written or played
    (the move an engine failed on may be the last)."""
    texts: list[str] = []
    pos = None
    if start is not None:
        try:
            pos = start.on(CORE)
        except Exception:  # an engine that fails to load the start: every move by its number
            pos = None
    for action in actions:
        text = None
        if pos is not None:
            try:
                text = str(pos.move_of(action))
                pos.push(action)
            except Exception:  # the move an engine fails on, or one it cannot write: the rest by number
                pos = None
        texts.append(text or f"action {action}")
    return tuple(texts)


def _moves_differ(position: Any, core_moves: list[int], ref_moves: list[int]) -> str:
    def names(actions: list[int]) -> str:
        return "[" + ", ".join(_action_text(position, a) for a in actions) + "]"

    only_core = sorted(set(core_moves) - set(ref_moves))
    only_ref = sorted(set(ref_moves) - set(core_moves))
    if not only_core and not only_ref:
        return f"the legal moves differ in order: core {names(core_moves)}, reference {names(ref_moves)}"
    return f"the legal moves differ: only the core has {names(only_core)}, only the reference {names(only_ref)}"


def _action_text(position: Any, action: int) -> str:
    """The move of ``action`` by the player to move at ``position``, in notation (``action N`` where it names
    no move)."""
    try:
        return str(position.move_of(action))
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
    reasons: dict[str, int] = field(default_factory=dict)
    divergences: list[Divergence] = field(default_factory=list)
    diverged: int = 0  # all divergences, kept or not


def play_chunk(seed: int, first: int, stop: int, keep_going: bool) -> ChunkResult:
    """Play games ``first`` to ``stop - 1``; without ``keep_going``, stop after the first divergence."""
    out = ChunkResult(first)
    for index in range(first, stop):
        outcome = play_game(soak_game(seed, index))
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
    reasons: dict[str, int] = field(default_factory=lambda: dict.fromkeys(reason_names(), 0))
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
            self.reasons[reason] = self.reasons.get(reason, 0) + n
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


def reason_names() -> list[str]:
    """Every way a game of the soak's tables may end (their rule sets' ``reasons``), each once, in table order."""
    return list(dict.fromkeys(reason for t in soak_tables() for reason in t.reasons))


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
    return play_game(soak_game(seed, index))


def _check(games: object, seed: object) -> None:
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise OptionError(f"--games {games!r}: must be a whole number, 1 or more")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
        raise OptionError(f"--seed {seed!r}: must be an integer from 0 to 2**64-1")
