"""The tactical suite: positions whose best first move is known exactly, and a check of the hint on them.

A *puzzle* is a position, seen by the player to move, in which that player can
make sure of winning the game before its turn ends, but not with every legal
first move.  The answer, the set of first moves from which a win this turn is
still certain, was found by trying every sequence of the mover's own moves to
the end of the turn in the readable reference implementation
(``kanaloa.rules.reference``).  It never depends on a card the mover cannot
see: within its own turn the mover's choices are its places, swaps and
removals, paid from its own hand on a board everyone sees, and the one move
that meets a hidden card (a face-up take refilled from the deck, a blind
draw, R5) ends the turn.

**Kinds.**

- ``eleven``: the mover can control eleven islands this turn, which wins at
  once (R8; with two players either color of the mover's, R15.7).  The
  correct first moves are those from which some continuation of the same turn
  reaches the eleventh island.  Taking a card, drawing, discarding and (in
  the final round) ending or passing never do.
- ``last-turn``: the mover plays the last final turn of the game (R10: every
  other player has taken its final turn).  When it ends, the final scoring
  (R11) and the ranking (R12: points, ties to the earlier final turn; with
  two players the pair of R15.5) decide the game, and nothing is left to
  chance.  The correct first moves are those from which some continuation
  wins, by points or by eleven islands.
- ``removal``: a relative majority (R7) has left a removal pending, so the
  first move must be a ``remove``, and the choice of bridge decides whether
  the mover can still win this turn (in the last final turn, or on the way
  to eleven islands).  The correct removals are those after which a win is
  still certain.

**The solver** (``solve_turn``, ``solve_position``) gives each first move an
``Outcome``: ``WIN`` when some continuation of the turn ends the game with the
mover first, ``LOSS`` when every continuation ends the game with another
player first (only in the last final turn), and ``OPEN`` when the turn can end
with the game going on, whose result then depends on later turns and hidden
cards.  A move that ends the turn in rounds 1 and 2 (take, draw, and a
discard, after which only those follow) and a pass (R10) are ``OPEN`` at once:
no card needs to be seen to know that.  Every other move is applied to a copy
of the state and the rest of the turn is searched the same way, each state's
value kept in a table so that the many orders of the same builds are searched
once.  The table's key is what decides the rest of a turn, read from
``to_data()``: the bridges, the mover's hand, the cards played and a
face-down discard this turn, the turn's color (R15.3) and the pending
removals.  Nothing else changes within a turn, or matters to it (the open
discards differ between orders of the same builds only in their order).
Outside the last final turn a state is ``OPEN`` without search when none of
the mover's colors that may still build could reach eleven islands: one
build takes at most the two islands at the ends of its link and needs a card
(R6 removes rival bridges, which never gives a color a majority), so a color
controlling ``n`` islands with ``h`` cards in hand reaches at most
``n + 2 * h``.

**The generator** (``generate``) plays seeded games on the compiled core
with the ``greedy`` and ``random`` bots (``kanaloa.play.bots``), 2, 3 and 4
players, and stops at every turn start and at every pending removal of the
games to solve the position.  A turn start in rounds 1 and 2 (or early in the
final round) is solved only when the bound above allows eleven islands; the
start of every last final turn is solved.  The positions reached inside those
solved turns are searched for removals whose choice decides the win, so the
removal puzzles come from moves the mover could have played.  Everything
follows from the generator's seed and the game's number; the suite records
how each puzzle was found (``source``), so any game can be played again.
Among the candidates, each kind keeps the ones where the correct moves are
the smallest share of the legal moves, the player counts taking turns, one
puzzle of a kind per game.

**The runner** (``run_suite``) asks ``kanaloa.play.hint.hint`` for each
puzzle, with the budget and seed given, and counts the hint as finding the
puzzle when its move is one of the correct ones.

The suite ships as ``src/kanaloa/examples/tactics.json`` (``load_suite``);
``kanaloa tactics`` runs it and ``kanaloa tactics --generate`` builds one
(docs/commands.md "tactics --json", "The tactical suite file").

**Which games.**  The puzzles are Kanaloa's (``SUITE_GAME``): its immediate
win (R8), its removals (R7) and its final round (R10) make them.  Another
game's rule set says why it has none (``lacks("tactics")``), and
``check_game`` (``kanaloa tactics --game``) and a suite holding a position of
such a game refuse it with that reason, in one line.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import KanaloaError, OptionError, PositionError, brief, quote
from ..play.bots import parse_bot_spec
from ..play.hint import check_budget, hint
from ..play.progress import Progress
from ..play.streams import bot_seeds as game_bot_seeds
from ..play.streams import deal_seed as game_deal_seed
from ..position.api import Position
from ..position.documents import read_position
from ..position.format import dumps
from ..rules import actions as A
from ..rules.board import Board
from ..rules.core import CoreState
from ..rules.engine import load_engine
from ..rules.reference import ReferenceState
from ..rules.registry import GameType, game_type
from ..rules.ruleset import ParameterError, ruleset_for_state
from ..rules.state import (
    ROUND_1,
    ROUND_2,
    ROUND_FINAL,
    StateData,
)

SUITE_FORMAT = "kanaloa-tactics/1"
SUITE_GAME = "kanaloa"  # the game whose puzzles the suite holds
KINDS = ("eleven", "last-turn", "removal")
SUITE_RESOURCE = "examples/tactics.json"  # inside the kanaloa package
DEFAULT_SEED = 0
DEFAULT_GAMES = 3000
DEFAULT_PER_KIND = 15
MIN_LEGAL = 3  # a puzzle offers at least this many legal first moves
MAX_SHARE = 0.5  # and at most this share of them is correct

# The games the generator searches, in turn: (players, bot specs, preset).  A greedy bot against random
# ones often gets within reach of eleven islands (R8); random games end with crowded boards, where the
# last final turn and R7 removals are close fights.
LINEUPS: tuple[tuple[int, tuple[str, ...], str], ...] = (
    (3, ("greedy", "random", "random"), "yucata"),
    (4, ("random", "random", "random", "random"), "yucata"),
    (2, ("random", "random"), "yucata"),
    (4, ("greedy", "random", "random", "random"), "yucata"),
    (3, ("random", "random", "random"), "yucata"),
    (4, ("random", "random", "random", "random"), "tabletop"),
)
PLAYER_ORDER = (3, 4, 2)  # the order in which player counts take turns filling a kind
MAX_GAME_MOVES = 5000


class Outcome(IntEnum):
    """What the rest of the mover's turn can make certain, worst first."""

    LOSS = 0  # the game ends this turn with another player first, whatever the mover does
    OPEN = 1  # the turn can end with the game going on: its result is not settled yet
    WIN = 2  # some continuation ends the game this turn with the mover first


# Moves that end the mover's part of the game for now: a take or a draw ends the turn (R5), a pass hands
# the final round on (R10), and after a face-down discard only a take or a draw can follow (R4).
_TURN_ENDING = frozenset((A.TAKE, A.DRAW, A.DISCARD, A.PASS))


def is_last_final_turn(data: StateData) -> bool:
    """True when the player to move takes the last final turn of the game (R10): every other player has."""
    return data.round == ROUND_FINAL and len(data.final_done) == data.players - 1


def may_reach_eleven(state: ReferenceState, mover: int, win_islands: int | None) -> bool:
    """False when no color ``mover`` may still build with can control ``win_islands`` islands (the rule set's
    eleven, R8; None where the game has no such win) this turn: each card left in hand takes at most two more
    islands."""
    if win_islands is None:
        return False
    hand = state.data.hand_size(mover)
    return any(state.islands_controlled(c) + 2 * hand >= win_islands for c in state.open_colors())


def kind_of(data: StateData) -> str:
    """The puzzle kind a position would be, were a win certain in it: a pending removal (R7) makes it
    ``removal``, the last final turn (R10) ``last-turn``, anything else ``eleven``."""
    if data.remove_on:
        return "removal"
    if is_last_final_turn(data):
        return "last-turn"
    return "eleven"


@dataclass(frozen=True)
class DecisiveRemoval:
    """A state inside a solved turn where a removal (R7) is pending and its choice decides the win.

    ``path`` is the mover's moves from the solved state to it; ``wins`` and
    ``legal`` count the winning removals and all of them.
    """

    path: tuple[int, ...]
    data: StateData
    wins: int
    legal: int


@dataclass(frozen=True)
class TurnSolution:
    """The solved turn of the player to move: ``values`` gives each legal first move its ``Outcome``.

    ``line`` is one sequence of the mover's moves, starting with a best first
    move, that makes the best outcome sure, to the end of the game when the
    outcome is ``WIN`` or ``LOSS`` (empty when it is ``OPEN``); ``nodes``
    counts the states searched (the table's size).
    """

    mover: int
    kind: str
    values: dict[int, Outcome]
    line: tuple[int, ...]
    nodes: int
    removals: tuple[DecisiveRemoval, ...] = ()

    @property
    def outcome(self) -> Outcome:
        """The best outcome the mover can make certain."""
        return max(self.values.values())

    @property
    def best(self) -> tuple[int, ...]:
        """The first moves that achieve ``outcome``, in action-code order."""
        top = self.outcome
        return tuple(a for a, v in self.values.items() if v == top)

    @property
    def is_puzzle(self) -> bool:
        """A win is certain, and some legal first move gives it away."""
        return self.outcome == Outcome.WIN and len(self.best) < len(self.values)


class TurnSolver:
    """The exhaustive search of one turn in the reference engine (see the module docstring)."""

    def __init__(self, root: ReferenceState, collect_removals: bool = False) -> None:
        self.root = root
        self.mover = root.to_move
        self.win_islands = ruleset_for_state(root.board, root.data).win_islands  # R8
        self.collect = collect_removals
        self.table: dict[tuple[Any, ...], Outcome] = {}
        self.removals: list[DecisiveRemoval] = []
        self._path: list[int] = []

    def solve(self) -> TurnSolution:
        if self.root.is_over:
            raise PositionError("round: the game is over; there is no turn to solve")
        values = {a: self._after(self.root, a) for a in self.root.legal_actions()}
        top = max(values.values())
        self.collect = False  # the line below walks from the root; the removals are those found so far
        line = self._line(self.root, top) if top != Outcome.OPEN else ()
        return TurnSolution(self.mover, kind_of(self.root.data), values, line, len(self.table),
                            tuple(self.removals))

    @staticmethod
    def _key(d: StateData) -> tuple[Any, ...]:
        return (tuple(d.bridges), tuple(d.hands[d.to_move]), d.played, d.discarded, d.turn_color,
                tuple(d.remove_on))

    def _after(self, state: ReferenceState, action: int) -> Outcome:
        """The outcome of playing ``action`` in ``state`` (the mover's move)."""
        if A.kind_of(action) in _TURN_ENDING:
            return Outcome.OPEN
        child = state.copy()
        child.apply(action)
        self._path.append(action)
        try:
            return self._value(child)
        finally:
            self._path.pop()

    def _value(self, state: ReferenceState) -> Outcome:
        if state.is_over:
            return Outcome.WIN if state.winner == self.mover else Outcome.LOSS
        if state.to_move != self.mover:
            return Outcome.OPEN
        d = state.data
        key = self._key(d)
        known = self.table.get(key)
        if known is not None:
            return known
        if not is_last_final_turn(d) and not self._may_reach_eleven(state):
            self.table[key] = Outcome.OPEN
            return Outcome.OPEN
        best = Outcome.LOSS
        outcomes = []
        for action in state.legal_actions():
            value = self._after(state, action)
            outcomes.append(value)
            best = max(best, value)
            if best == Outcome.WIN and not (self.collect and d.remove_on):
                break
        if self.collect and d.remove_on and best == Outcome.WIN and min(outcomes) < Outcome.WIN:
            self.removals.append(DecisiveRemoval(tuple(self._path), d.copy(), outcomes.count(Outcome.WIN),
                                                 len(outcomes)))
        self.table[key] = best
        return best

    def _may_reach_eleven(self, state: ReferenceState) -> bool:
        return may_reach_eleven(state, self.mover, self.win_islands)

    def _line(self, state: ReferenceState, target: Outcome) -> tuple[int, ...]:
        """A sequence of the mover's moves from ``state`` that makes ``target`` sure."""
        line: list[int] = []
        while not state.is_over and state.to_move == self.mover:
            for action in state.legal_actions():
                if self._after(state, action) == target:
                    break
            else:  # pragma: no cover - the table said some move achieves the target
                raise AssertionError("no move achieves the solved outcome")
            line.append(action)
            if A.kind_of(action) in _TURN_ENDING:
                break
            state = state.copy()
            state.apply(action)
        return tuple(line)


def solve_turn(board: Board, data: StateData, collect_removals: bool = False) -> TurnSolution:
    """Solve the turn of the player to move in ``data`` on ``board`` (see the module docstring).

    With ``collect_removals`` the solution also lists the states inside the
    turn where a pending removal decides the win (``DecisiveRemoval``).
    """
    return TurnSolver(ReferenceState(board, data.copy()), collect_removals).solve()


def solve_position(position: Position) -> TurnSolution:
    """Solve the turn of the player to move in ``position``, full or seen by the mover.

    A viewer position's unseen cards are filled in one way (docs/engine.md
    "Knowledge"); the answer does not depend on them.  Raises
    ``PositionError`` when the game is over or the mover's hand is unknown.
    """
    if position.is_over:
        raise PositionError("round: the game is over; there is no turn to solve")
    if position.viewer is not None and position.viewer != position.to_move:
        raise PositionError(f"viewer: the position is seen by {position.viewer}, but {position.to_move} is to "
                            f"move and {position.to_move}'s hand is unknown to it")
    state = position.on(load_engine("reference")).state
    assert isinstance(state, ReferenceState)
    return TurnSolver(state.copy()).solve()


# -- puzzles and suites ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Puzzle:
    """One position of the suite and its exact answer (docs/commands.md "The tactical suite file")."""

    id: str
    kind: str
    players: int
    position: dict[str, Any]
    best: tuple[str, ...]
    legal: int
    why: str
    line: tuple[str, ...] = ()
    source: dict[str, Any] = field(default_factory=dict)

    def load(self) -> Position:
        """The puzzle's position (read and checked again)."""
        return Position.from_json(self.position)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "players": self.players, "best": list(self.best),
                "legal": self.legal, "why": self.why, "line": list(self.line), "source": self.source,
                "position": self.position}


@dataclass(frozen=True)
class Suite:
    """A list of puzzles and how they were made (``generator``: the seed and the settings)."""

    puzzles: tuple[Puzzle, ...]
    generator: dict[str, Any]

    def of_kinds(self, kinds: Sequence[str]) -> tuple[Puzzle, ...]:
        return tuple(p for p in self.puzzles if p.kind in kinds)

    def to_json(self) -> dict[str, Any]:
        return {"format": SUITE_FORMAT, "generator": self.generator,
                "counts": {kind: sum(p.kind == kind for p in self.puzzles) for kind in KINDS},
                "puzzles": [p.to_json() for p in self.puzzles]}

    def dumps(self) -> str:
        """The suite as indented, stable JSON text (as positions are printed)."""
        return dumps(self.to_json())

    @classmethod
    def from_json(cls, doc: Any, where: str = "suite") -> Suite:
        """Read a suite document, checked; raises ``OptionError`` naming ``where``, the puzzle and the field."""
        if not isinstance(doc, dict) or doc.get("format") != SUITE_FORMAT:
            raise OptionError(f"{where}: not a tactical suite; expected a JSON object with \"format\": "
                              f"\"{SUITE_FORMAT}\"")
        generator = doc.get("generator", {})
        listed = doc.get("puzzles")
        if not isinstance(generator, dict):
            raise OptionError(f"{where}: \"generator\" must be an object")
        if not isinstance(listed, list) or not listed:
            raise OptionError(f"{where}: \"puzzles\" must be a non-empty list")
        puzzles = []
        seen: set[str] = set()
        for n, item in enumerate(listed):
            puzzle = _read_puzzle(item, f"{where}: puzzle {n}")
            if puzzle.id in seen:
                raise OptionError(f"{where}: puzzle {n}: id {quote(puzzle.id)} is used twice")
            seen.add(puzzle.id)
            puzzles.append(puzzle)
        return cls(tuple(puzzles), generator)


def _read_puzzle(item: Any, where: str) -> Puzzle:
    if not isinstance(item, dict):
        raise OptionError(f"{where}: must be an object")

    def need(key: str, kind: type | tuple[type, ...], what: str) -> Any:
        value = item.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise OptionError(f"{where}: {key!r} must be {what}, not {brief(value)}")
        return value

    pid = need("id", str, "text")
    where = f"{where} ({quote(pid)})"
    kind = need("kind", str, "text")
    if kind not in KINDS:
        raise OptionError(f"{where}: kind {quote(kind)} is unknown; the kinds are {', '.join(KINDS)}")
    players = need("players", int, "2, 3 or 4")
    best = need("best", list, "a list of moves")
    if not best or not all(isinstance(m, str) for m in best):
        raise OptionError(f"{where}: 'best' must be a non-empty list of moves in notation")
    legal = need("legal", int, "a count of moves")
    why = need("why", str, "text")
    line = item.get("line", [])
    if not isinstance(line, list) or not all(isinstance(m, str) for m in line):
        raise OptionError(f"{where}: 'line' must be a list of moves in notation")
    source = item.get("source", {})
    if not isinstance(source, dict):
        raise OptionError(f"{where}: 'source' must be an object")
    position = need("position", dict, "a kanaloa-position/1 object")
    try:
        loaded = read_position(position)
    except PositionError as exc:
        raise PositionError(f"{where}: position: {exc}") from None
    no_puzzles = loaded.ruleset.lacks("tactics")
    if no_puzzles is not None:
        raise OptionError(f"{where}: position: {no_puzzles}")
    if len(loaded.players) != players:
        raise OptionError(f"{where}: 'players' is {players} but the position has {len(loaded.players)}")
    return Puzzle(pid, kind, players, position, tuple(best), legal, why, tuple(line), source)


def parse_suite(text: str, where: str) -> Suite:
    """A suite from its JSON text; ``where`` names the input in messages.

    Raises ``OptionError`` for text that is not JSON or not a suite, and
    ``PositionError`` for a puzzle whose position does not read.
    """
    try:
        doc = json.loads(text)
    except (RecursionError, ValueError) as exc:
        raise OptionError(f"{where}: not valid JSON ({' '.join(str(exc).split())[:80]})") from None
    return Suite.from_json(doc, where)


def load_suite(path: str | Path | None = None) -> Suite:
    """The suite in the file ``path``, or the one shipped with the package (``SUITE_RESOURCE``).

    Raises ``OptionError`` for a file that cannot be read or is no suite.
    """
    if path is None:
        return parse_suite(resources.files("kanaloa").joinpath(SUITE_RESOURCE).read_text("utf-8"),
                           "the bundled suite")
    where = f"suite {quote(str(path))}"
    try:
        text = Path(path).read_text("utf-8")
    except FileNotFoundError:
        raise OptionError(f"{where}: no such file") from None
    except UnicodeDecodeError as exc:
        raise OptionError(f"{where}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise OptionError(f"{where}: cannot read it ({exc.strerror})") from None
    return parse_suite(text, where)


def check_game(name: object) -> GameType:
    """The registered game ``--game`` names, when the suite has puzzles of it; ``OptionError`` otherwise: an
    unknown game, or one whose rule set says why it has none (``lacks("tactics")``)."""
    try:
        game = game_type(name)
    except ParameterError as exc:
        raise exc.worded(f"--game {brief(name)}") from None
    why = game.load().lacks("tactics")
    if why is not None:
        raise OptionError(f"--game {game.name}: {why}")
    return game


def check_kinds(kinds: Sequence[str]) -> tuple[str, ...]:
    """The kinds named (all of them when none is); raises ``OptionError`` for an unknown one."""
    for kind in kinds:
        if kind not in KINDS:
            raise OptionError(f"--kind {quote(kind)}: unknown; choose one of {', '.join(KINDS)}")
    return tuple(k for k in KINDS if k in kinds) if kinds else KINDS


# -- the generator -----------------------------------------------------------------------------------


@dataclass
class _Candidate:
    kind: str
    players: int
    game: int
    order: int  # the order in which the generator found it
    position: Position  # full, the mover to move
    best: tuple[str, ...]
    legal: int
    line: tuple[str, ...]
    source: dict[str, Any]
    why: str

    @property
    def share(self) -> float:
        return len(self.best) / self.legal


def _lineup(game: int) -> tuple[int, tuple[str, ...], str]:
    """The players, the bot of each seat and the preset of the generator's game ``game``.

    The lineups take turns; each time a lineup comes back its bots move one seat on.
    """
    players, bots, preset = LINEUPS[game % len(LINEUPS)]
    shift = (game // len(LINEUPS)) % players
    return players, bots[-shift:] + bots[:-shift] if shift else bots, preset


def _color_name(position: Position, color: int) -> str:
    """A color's name; with two players a second color also names its player (R15.1)."""
    name = position.colors[color]
    rules = position.ruleset
    seat = rules.seat_of(color)
    if rules.colors_of(seat)[0] != color:
        return f"{name} ({position.players[seat]}'s second color)"
    return name


def _player_name(position: Position, seat: int) -> str:
    """A player's name: its color, or with two players both its colors (R15.1)."""
    colors = position.ruleset.color_names_of(seat)
    return colors[0] if len(colors) == 1 else f"{colors[0]} (with {colors[1]})"


def _standing_text(position: Position, data: StateData) -> str:
    """Everyone's points (R11), or with two players each player's pair (R15.5): what ranks each (R12)."""
    rules = position.ruleset
    return ", ".join(f"{name} {'/'.join(str(x) for x in rules.standing(data.scores, s))}"
                     for s, name in enumerate(position.players))


def _why(position: Position, solution: TurnSolution, line: Sequence[str]) -> str:
    """The short explanation stored with a puzzle: the situation, the share of correct moves, a winning line."""
    data = position.state.to_data()
    board = position.board
    mover = _player_name(position, solution.mover)
    correct = f"Correct: {len(solution.best)} of {len(solution.values)} legal first moves"
    example = f"a winning line: {', '.join(line)}."
    if solution.kind == "last-turn":
        end = A.encode(A.END)
        loses = " Ending the turn at once loses." if solution.values.get(end, Outcome.WIN) != Outcome.WIN else ""
        return (f"{mover} plays the last final turn (R10); the points before the final scoring are "
                f"{_standing_text(position, data)}. {correct}, those that still win after the final scoring "
                f"(R11, R12); {example}{loses}")
    if solution.kind == "removal":
        where = board.islands[data.remove_on[0]]
        when = "in the last final turn (R10)" if is_last_final_turn(data) else "on the way to eleven islands (R8)"
        return (f"{mover} must remove a bridge on {where} (R7) {when}. {correct}, the removals after which a "
                f"win stays certain; {example}")
    # eleven: name the color that gets there at the end of the winning line
    state = ReferenceState(board, data.copy())
    for action in solution.line:
        state.apply(action)
    win_islands = position.ruleset.win_islands  # R8: an eleven puzzle comes only from a game with that win
    assert win_islands is not None
    winner = next(c for c in state.colors_of(solution.mover) if state.islands_controlled(c) >= win_islands)
    held = ReferenceState(board, data).islands_controlled(winner)
    cards = data.hand_size(solution.mover)
    hand = f"{cards} card{'s' if cards != 1 else ''}"
    situation = (f"{_color_name(position, winner)} controls {held} islands and {mover} holds {hand}"
                 if position.ruleset.pairs else f"{mover} controls {held} islands with {hand} in hand")
    return f"{situation}: eleven islands this turn win at once (R8). {correct}, those that keep that win; {example}"


def _candidate(position: Position, solution: TurnSolution, game: int, order: int,
               source: dict[str, Any]) -> _Candidate | None:
    """The puzzle ``position`` makes, or None when it is none (no certain win, or every move wins, or too few
    moves, or too many correct ones)."""
    if not solution.is_puzzle:
        return None
    legal = len(solution.values)
    if legal < MIN_LEGAL or len(solution.best) > MAX_SHARE * legal:
        return None
    best = tuple(str(position.move_of(a)) for a in solution.best)
    line = _line_strings(position, solution.line)
    why = _why(position, solution, line)
    return _Candidate(solution.kind, len(position.players), game, order, position, best, legal, line, source, why)


def _line_strings(position: Position, line: Sequence[int]) -> tuple[str, ...]:
    walk = position.copy()
    out = []
    for action in line:
        out.append(str(walk.move_of(action)))
        if walk.is_over or A.kind_of(action) in _TURN_ENDING:
            break
        walk.push(action)
    return tuple(out)


def _game_candidates(seed: int, game: int, counter: Iterator[int]) -> list[_Candidate]:
    """Play the generator's game ``game`` and return the puzzles found on the way."""
    players, seating, preset = _lineup(game)
    deal_seed = game_deal_seed(seed, game)
    bot_seeds = list(game_bot_seeds(seed, game, players))
    position = Position.new(players=players, seed=deal_seed, preset=preset)
    bots = [parse_bot_spec(spec) for spec in seating]
    for bot, bot_seed in zip(bots, bot_seeds, strict=True):
        bot.start(position.ruleset, bot_seed)
    game_source = {"game": game, "deal_seed": deal_seed, "players": players, "preset": preset,
                   "seating": list(seating), "bot_seeds": bot_seeds}
    found: list[_Candidate] = []
    moves: list[str] = []
    while not position.is_over:
        state = position.state
        assert isinstance(state, CoreState)
        data = state.to_data()
        if data.round in (ROUND_1, ROUND_2, ROUND_FINAL):
            found += _examine(position, data, game, counter, game_source, moves)
        action = bots[state.to_move].choose(state)
        moves.append(str(position.move_of(action)))
        position.push(action)
        if len(moves) > MAX_GAME_MOVES:  # pragma: no cover - a game ends long before
            raise RuntimeError(f"generator game {game} did not end within {MAX_GAME_MOVES} moves")
    return found


def _examine(position: Position, data: StateData, game: int, counter: Iterator[int],
             game_source: dict[str, Any], moves: list[str]) -> list[_Candidate]:
    """The puzzles of one position of a game: itself, and the decisive removals inside its turn.

    ``moves`` are the game's moves so far, in notation: with the deal in
    ``game_source`` they lead to ``position``.
    """
    board = position.board
    turn_start = not (data.played or data.discarded or data.remove_on)
    if not (turn_start or data.remove_on):
        return []
    if turn_start and not is_last_final_turn(data) and not may_reach_eleven(
            ReferenceState(board, data), data.to_move, position.ruleset.win_islands):
        return []
    solution = solve_turn(board, data, collect_removals=True)
    found = []
    here = _candidate(position.copy(), solution, game, next(counter), {**game_source, "moves": list(moves)})
    if here is not None:
        found.append(here)
    for removal in solution.removals:
        inside = position.copy()
        then = list(moves)
        for action in removal.path:
            then.append(str(inside.move_of(action)))
            inside.push(action)
        sub = solve_turn(board, removal.data)
        cand = _candidate(inside, sub, game, next(counter), {**game_source, "moves": then})
        if cand is not None:
            found.append(cand)
    return found


def _select(candidates: list[_Candidate], per_kind: int) -> list[_Candidate]:
    """Per kind, up to ``per_kind`` candidates: the smallest share of correct moves first, the player counts
    taking turns, one puzzle of a kind per game and no position twice."""
    chosen: list[_Candidate] = []
    seen_positions: set[str] = set()
    for kind in KINDS:
        pools = {p: sorted((c for c in candidates if c.kind == kind and c.players == p),
                           key=lambda c: (c.share, -c.legal, c.order)) for p in PLAYER_ORDER}
        games_used: set[int] = set()
        taken: list[_Candidate] = []
        while len(taken) < per_kind and any(pools.values()):
            for players in PLAYER_ORDER:
                pool = pools[players]
                while pool:
                    cand = pool.pop(0)
                    text = json.dumps(cand.position.to_json(), sort_keys=True)
                    if cand.game in games_used or text in seen_positions:
                        continue
                    games_used.add(cand.game)
                    seen_positions.add(text)
                    taken.append(cand)
                    break
                if len(taken) == per_kind:
                    break
        chosen += taken
    return chosen


@dataclass(frozen=True)
class GenerateProgress:
    """Where a generation is: games searched of the planned ones, and candidates found so far by kind."""

    games: int
    planned: int
    found: dict[str, int]


def generate(seed: int = DEFAULT_SEED, games: int = DEFAULT_GAMES, per_kind: int = DEFAULT_PER_KIND,
             on_progress: Callable[[GenerateProgress], None] | None = None) -> Suite:
    """A suite from ``games`` seeded games (see the module docstring): up to ``per_kind`` puzzles of each kind.

    The same arguments give the same suite.  Raises ``OptionError`` for a
    bad seed, game count or puzzle count.
    """
    for name, value, low in (("--seed", seed, 0), ("--games", games, 1), ("--per-kind", per_kind, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise OptionError(f"{name} {brief(value)}: must be a whole number of at least {low}")
    if seed >= 2**64:
        raise OptionError(f"--seed {seed}: must be below 2**64")
    counter = itertools.count()
    candidates: list[_Candidate] = []
    for game in range(games):
        candidates += _game_candidates(seed, game, counter)
        if on_progress is not None:
            on_progress(GenerateProgress(game + 1, games, {k: sum(c.kind == k for c in candidates) for k in KINDS}))
    puzzles = []
    selected = _select(candidates, per_kind)
    for kind in KINDS:
        picked = [c for c in selected if c.kind == kind]
        for n, cand in enumerate(picked, start=1):
            mover = cand.position.to_move
            assert mover is not None
            seen = cand.position.as_viewer(mover)
            puzzles.append(Puzzle(f"{kind}-{n:02d}", kind, cand.players, seen.to_json(), cand.best, cand.legal,
                                  cand.why, cand.line, cand.source))
    generator = {"seed": seed, "games": games, "per_kind": per_kind,
                 "lineups": [{"players": p, "bots": list(b), "preset": pr} for p, b, pr in LINEUPS],
                 "command": f"kanaloa tactics --generate --seed {seed} --games {games} --per-kind {per_kind}"}
    return Suite(tuple(puzzles), generator)


# -- the runner --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PuzzleResult:
    """The hint on one puzzle: its move, whether it is a correct one, and what the search spent."""

    id: str
    kind: str
    move: str
    found: bool
    best: tuple[str, ...]
    legal: int
    iterations: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "move": self.move, "found": self.found, "best": list(self.best),
                "legal": self.legal, "iterations": self.iterations, "seconds": round(self.seconds, 3)}


@dataclass(frozen=True)
class SuiteReport:
    """The hint's results on a suite, with the budget and seed it searched with."""

    results: tuple[PuzzleResult, ...]
    iterations: int | None
    time: float | None
    seed: int
    suite: str
    seconds: float

    @property
    def found(self) -> int:
        return sum(r.found for r in self.results)

    @property
    def share(self) -> float:
        return self.found / len(self.results) if self.results else 0.0

    @property
    def misses(self) -> tuple[PuzzleResult, ...]:
        return tuple(r for r in self.results if not r.found)

    def kinds(self) -> dict[str, dict[str, Any]]:
        """Per kind present: puzzles, found, share."""
        out = {}
        for kind in KINDS:
            rows = [r for r in self.results if r.kind == kind]
            if rows:
                hit = sum(r.found for r in rows)
                out[kind] = {"puzzles": len(rows), "found": hit, "share": round(hit / len(rows), 4)}
        return out

    def to_json(self) -> dict[str, Any]:
        return {"puzzles": len(self.results), "found": self.found, "share": round(self.share, 4),
                "kinds": self.kinds(), "misses": [r.id for r in self.misses],
                "results": [r.to_json() for r in self.results], "iterations": self.iterations, "time": self.time,
                "seed": self.seed, "suite": self.suite, "seconds": round(self.seconds, 3)}

    def summary(self) -> str:
        """The report for people: the share found per kind, then every miss."""
        budget = (f"{self.iterations} iterations" if self.iterations is not None
                  else f"{self.time:g} s" if self.time is not None else "the default budget")
        lines = [f"tactical suite ({self.suite}): {len(self.results)} puzzles, hints with {budget}, seed {self.seed}",
                 f"  {'kind':<10} {'found':>7} {'share':>7}"]
        for kind, row in self.kinds().items():
            lines.append(f"  {kind:<10} {row['found']:>3}/{row['puzzles']:<3} {100 * row['share']:6.1f}%")
        lines.append(f"  {'all':<10} {self.found:>3}/{len(self.results):<3} {100 * self.share:6.1f}%")
        if self.misses:
            lines.append("misses:")
            for r in self.misses:
                shown = ", ".join(r.best[:4]) + (", ..." if len(r.best) > 4 else "")
                lines.append(f"  {r.id}: the hint plays {r.move}; correct: {shown} ({len(r.best)} of {r.legal})")
        else:
            lines.append("no misses")
        lines.append(f"searched in {self.seconds:.1f} s")
        return "\n".join(lines)


def run_puzzle(puzzle: Puzzle, iterations: int | None = None, seconds: float | None = None,
               seed: int = 0) -> PuzzleResult:
    """Ask the hint for ``puzzle``'s position and check its move against the answer."""
    options: dict[str, Any] = {"seed": seed}
    if iterations is not None:
        options["iterations"] = iterations
    if seconds is not None:
        options["seconds"] = seconds
    found = hint(puzzle.load(), **options)
    return PuzzleResult(puzzle.id, puzzle.kind, found.move, found.move in puzzle.best, puzzle.best, puzzle.legal,
                        found.iterations, found.seconds)


class SuiteProgress(Progress):
    """Puzzles done, rate and time left, on a stream: ``Progress``'s line counting puzzles, not games
    (``12/45 puzzles  [######......]  0.55 puzzles/s  00:22 elapsed  01:01 left``)."""

    def __init__(self, *args: Any, **options: Any) -> None:
        options.setdefault("unit", "puzzles")
        super().__init__(*args, **options)


def run_suite(suite: Suite, iterations: int | None = None, seconds: float | None = None, seed: int = 0,
              kinds: Sequence[str] = KINDS, name: str = "bundled",
              on_result: Callable[[int, int, PuzzleResult], None] | None = None) -> SuiteReport:
    """Run the hint on every puzzle of ``kinds`` with the budget given (none: the hint's default).

    ``on_result(done, total, result)`` is called after each puzzle.  Raises
    ``OptionError`` for a bad budget or kind.
    """
    if iterations is not None or seconds is not None:
        check_budget(iterations, seconds)
    chosen = check_kinds(kinds)
    puzzles = suite.of_kinds(chosen)
    if not puzzles:
        raise OptionError(f"--kind {'/'.join(chosen)}: the suite ({name}) holds no puzzle of that kind")
    started = time.perf_counter()
    results = []
    for n, puzzle in enumerate(puzzles, start=1):
        try:
            result = run_puzzle(puzzle, iterations, seconds, seed)
        except KanaloaError as exc:
            raise type(exc)(f"puzzle {puzzle.id}: {exc}") from None
        results.append(result)
        if on_result is not None:
            on_result(n, len(puzzles), result)
    return SuiteReport(tuple(results), iterations, seconds, seed, name, time.perf_counter() - started)


__all__ = [
    "KINDS",
    "SUITE_FORMAT",
    "SUITE_GAME",
    "DecisiveRemoval",
    "GenerateProgress",
    "Outcome",
    "Puzzle",
    "PuzzleResult",
    "Suite",
    "SuiteProgress",
    "SuiteReport",
    "TurnSolution",
    "TurnSolver",
    "check_game",
    "generate",
    "kind_of",
    "load_suite",
    "parse_suite",
    "run_suite",
    "solve_position",
    "solve_turn",
]
