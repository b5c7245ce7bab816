"""Plain UCT over a perfect-information game state, and the search tree both searches share.

``MCTS`` is the classic Monte Carlo tree search with the UCB1 selection rule.
It treats the state it is given as the whole truth, so for a hidden-card game
it is used on one determinisation at a time (``pimc`` in ``kanaloa.play.bots``).
The game must be deterministic once a state is given: any chance event is
resolved by the state's own seeded stream, so replaying the same actions from
the same state reaches the same states.

Rewards are vectors with one entry per player; every node holds the total
reward of the player who chose the move leading to it, so each player picks
for their own entry (max^n backup).  The reward is the game result, blended
with the normalised point margin when ``margin`` > 0:
``(1 - margin) * returns + margin * (margins + 1) / 2``.  ``wins`` always counts
the pure result, which is what win-chance estimates report.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

import cython

from .protocol import Action, GameState


@cython.cclass
class Node:
    """One edge of the tree with the state it leads to.

    ``player`` chose ``action``; ``visits``, ``reward`` (sum of that player's
    rewards) and ``wins`` (sum of that player's results) are its statistics;
    ``avail`` counts how often the move was available when its parent was
    visited (ISMCTS; plain UCT uses the parent's visits).  ``children`` maps
    an action (or its public key) to the child node.  ``untried`` is the list
    of actions not expanded yet (plain UCT only).  ``prior`` is the game's
    prior for the move (``GameState.priors``; 0 when not asked), and
    ``points`` the sum of the final ``points()`` of the games played through
    the node (kept for the root and its children only, else None).
    ``proven``: ``player`` can force a win with its own moves from here
    (ISMCTS; see ``kanaloa.search.ismcts``).

    Compiled, a node is a C struct with these fields (the search loops read
    them without Python objects); run as plain Python it is an ordinary
    class with the same fields.
    """

    action = cython.declare(cython.longlong, visibility="public")
    player = cython.declare(cython.int, visibility="public")
    visits = cython.declare(cython.longlong, visibility="public")
    avail = cython.declare(cython.longlong, visibility="public")
    reward = cython.declare(cython.double, visibility="public")
    wins = cython.declare(cython.double, visibility="public")
    mean = cython.declare(cython.double, visibility="public")
    prior = cython.declare(cython.double, visibility="public")
    proven = cython.declare(cython.bint, visibility="public")
    children = cython.declare(dict, visibility="public")
    points = cython.declare(object, visibility="public")
    untried = cython.declare(object, visibility="public")

    def __init__(self, action: Action, player: int, prior: float = 0.0) -> None:
        self.action = action
        self.player = player
        self.children = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0
        self.wins = 0.0
        self.mean = 0.0
        self.prior = prior
        self.points = None
        self.proven = False
        self.untried = None


@dataclass(frozen=True)
class Candidate:
    """A move at the root with its statistics.

    ``win`` is the estimated chance the mover wins, ``error`` its standard
    error (``sqrt(win * (1 - win) / visits)``), ``value`` the mean reward
    (equal to ``win`` when no margin is blended in), ``points`` the mean final
    ``points()`` of the games played through the move (empty when not kept),
    ``proven`` that the move wins for certain (its player can force the win
    with its own moves; ISMCTS).
    """

    action: Action
    visits: int
    win: float
    value: float
    error: float = 0.0
    points: tuple[float, ...] = ()
    proven: bool = False


def candidate(n: Node) -> Candidate:
    """The ``Candidate`` of root child ``n``."""
    if not n.visits:
        return Candidate(n.action, 0, 0.0, 0.0, 0.5, proven=n.proven)
    win = n.wins / n.visits
    points = tuple(p / n.visits for p in n.points) if n.points else ()
    return Candidate(n.action, n.visits, win, n.mean, math.sqrt(max(win * (1.0 - win), 0.0) / n.visits), points,
                     n.proven)


@dataclass
class SearchResult:
    """What a search returns: the tree, the budget spent, and helpers to read the root."""

    root: Node
    player: int
    iterations: int
    seconds: float
    nodes: int = 0  # tree nodes made (ISMCTS), the root excepted
    interrupted: bool = False  # True when ``stop`` ended the search before its budget

    def candidates(self) -> list[Candidate]:
        """Root moves: proven wins first, then most visited first (ties: higher value, then lower action code)."""
        kids = sorted(self.root.children.values(), key=lambda n: (not n.proven, -n.visits, -n.mean, n.action))
        return [candidate(n) for n in kids]

    @property
    def points(self) -> tuple[float, ...]:
        """The mean final ``points()`` over every iteration (empty when not kept)."""
        root = self.root
        return tuple(p / root.visits for p in root.points) if root.points and root.visits else ()

    @property
    def best_action(self) -> Action:
        """The move chosen: a proven win, else the most visited at the root."""
        return self.candidates()[0].action

    def principal_line(self) -> list[Action]:
        """The most visited line of the root player's own consecutive moves, starting at the root."""
        line = []
        node = self.root
        while node.children:
            best = max(node.children.values(), key=lambda n: (n.proven, n.visits, n.mean, -n.action))
            if best.player != self.player or best.visits == 0:
                break
            line.append(best.action)
            node = best
        return line


def blend(returns: list[float], margins: list[float], margin: float) -> list[float]:
    """The reward vector: the result, with ``margin`` of its weight given to the point margin."""
    keep = 1.0 - margin
    half = 0.5 * margin
    return [keep * r + half * (m + 1.0) for r, m in zip(returns, margins, strict=True)]


def simulate_and_backup(s: GameState, root: Node, path: list[Node], margin: float, seed: int,
                        points: bool = False) -> None:
    """Finish one iteration: play ``s`` to the end (``rollout``), then back the rewards up ``path``.

    Every node on the path (the root excepted) adds the reward entry of the
    player who chose its move (max^n); ``wins`` keeps the pure win/loss part
    apart for the reported win chances.  With ``points``, the root and the
    root's child on the path add the game's final ``points()``.
    """
    if not s.is_terminal():
        s.rollout(seed)
    wins: list = s.returns()
    rewards: list = blend(wins, s.margins(), margin) if margin else wins
    n: Node
    j: cython.Py_ssize_t
    if points:
        tally: list = s.points()
        for n in path[:2]:
            if n.points is None:
                n.points = list(tally)
            else:
                kept: list = n.points
                for j in range(len(kept)):
                    kept[j] += tally[j]
    root.visits += 1
    for n in path[1:]:
        n.visits += 1
        p = n.player
        n.reward += rewards[p]
        n.wins += wins[p]
        n.mean = n.reward / n.visits


def check_budget(iterations: int | None, seconds: float | None) -> None:
    """Raise ``ValueError`` unless at least one positive budget is given."""
    if iterations is None and seconds is None:
        raise ValueError("give a budget: iterations or seconds")
    if iterations is not None and iterations < 1:
        raise ValueError(f"iterations must be at least 1, not {iterations}")
    if seconds is not None and not seconds > 0:
        raise ValueError(f"seconds must be positive, not {seconds}")


class MCTS:
    """UCT with max^n rewards on a perfect-information state.

    ``c`` is the exploration constant of UCB1, ``margin`` the weight of the
    point margin in the reward (see the module docstring), ``seed`` the seed
    of every random choice of the search (rollout seeds, expansion order).
    """

    def __init__(self, c: float = 0.7, margin: float = 0.0, seed: int = 0) -> None:
        self.c = c
        self.margin = margin
        self.rng = random.Random(seed)

    def search(self, state: GameState, iterations: int | None = None, seconds: float | None = None) -> SearchResult:
        """Search from ``state`` (left untouched) until a budget runs out; anytime.

        At least one iteration is always run.  Raises ``ValueError`` for a
        terminal state or a bad budget.
        """
        check_budget(iterations, seconds)
        if state.is_terminal():
            raise ValueError("the game is over: there is nothing to search")
        root = Node(-1, -1)
        player = state.current_player()
        limit = iterations if iterations is not None else 1 << 62
        start = time.perf_counter()
        deadline = start + seconds if seconds is not None else math.inf
        rng = self.rng
        getrandbits = rng.getrandbits
        c = self.c
        margin = self.margin
        log, sqrt = math.log, math.sqrt
        done = 0
        clock = time.perf_counter
        while done < limit:
            s = state.clone()
            node = root
            path = [root]
            while not s.is_terminal():
                if node.untried is None:
                    node.untried = s.legal_actions()
                    rng.shuffle(node.untried)
                if node.untried:
                    action = node.untried.pop()
                    child = Node(action, s.current_player())
                    node.children[action] = child
                    s.apply_action(action)
                    path.append(child)
                    break
                # UCB1 over the children (all expanded); the state is fully known here.
                logn = log(node.visits)
                best: Node | None = None
                best_value = -1.0
                for child in node.children.values():
                    value = child.mean + c * sqrt(logn / child.visits)
                    if value > best_value:
                        best_value = value
                        best = child
                assert best is not None  # every UCB value is above -1, and a running game has a move
                s.apply_action(best.action)
                path.append(best)
                node = best
            simulate_and_backup(s, root, path, margin, getrandbits(63))
            done += 1
            if clock() >= deadline:
                break
        return SearchResult(root, player, done, time.perf_counter() - start)
