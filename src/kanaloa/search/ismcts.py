"""Single-observer information-set MCTS (SO-ISMCTS), and the search tree both searches share.

One tree is grown for the *observer*, the player to move at the root.  Each
iteration draws one determinisation of the root from the observer's knowledge
(``SearchState.resample``) and walks the tree with it:

* edges are keyed by what the observer can tell apart: the observer's own
  moves as they are, other players' moves by their public key
  (``public_actions``), so the tree never encodes a card the observer has not
  seen;
* selection is UCB1 with *availability counts*: a child's exploration term
  uses how often its move was legal when its parent was visited, not the
  parent's visit count, because different determinisations allow different
  moves;
* the first move of the determinisation not yet in the tree is expanded, then
  the rest of the game is played by ``rollout`` (in the compiled core for
  Kanaloa, with its heuristic playout policy; a game may cut it short and
  judge the state it reached, ``kanaloa.play.game``); with ``expand_after`` = T > 1
  a node is judged by T rollouts of its own before its moves enter the tree;
* the reward vector (one entry per player) is backed up max^n style: each
  node adds the entry of the player who chose its move.

The reward is the game result (1 for the winner with the game's own
tie-break, else 0), optionally blended with the normalised point margin (see
``kanaloa.search.mcts``).  The pure result is the default: it is what a player
wants, and it keeps the reported win chance and the value searched for the
same number.  The blend (``margin=0.1``) gives a denser signal; on Kanaloa it
won 59 of 200 four-player games (29.5%, 95% interval 23.6-36.2%) against
three otherwise identical searches at 1,000 iterations a move, where 25% is
an even share: at most a small gain, so it stays an option.  The move chosen
is the most visited at the root.
Wins the observer can force with its own moves are proven as in MCTS-Solver:
a move of the observer that ends the game with the observer's win at once
is marked ``proven``, and so is every move before it in the same run of
the observer's own moves (nothing hidden and no chance event lies between
them).  Selection then takes a proven move whenever it is legal, and the
result puts proven moves first, so a certain win is never passed over for
a move that merely wins its rollouts.

With ``prior`` > 0 the game's prior knowledge (``SearchState.priors``) is used
twice: a node expands its untried move with the highest prior first (ties at
random), and UCB1 gets a progressive bias ``prior * p / (visits + 1)`` that
fades as a move's own statistics grow.

Budgets are iterations, wall-clock seconds, or both (whichever ends first);
the search is anytime (``stop`` ends it early, ``progress`` is called with
the tree so far) and every random choice flows from ``seed``.  Memory is
bounded: once the tree holds ``max_nodes`` nodes it stops growing, and later
iterations refine the statistics of the nodes it has, rolling out from its
leaves.  A search may continue a subtree of an earlier one (``root``), for
example the child of the move just played when the same player moves again
with nothing new learned.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import cython
from cython.cimports.libc.math import log as _log  # C's when compiled; plain Python maps it to math's
from cython.cimports.libc.math import sqrt as _sqrt

from .errors import SearchError
from .protocol import Action, SearchState

# -- the tree, shared with plain UCT (``kanaloa.search.mcts``): here, so that the compiled loop below reads
# its nodes as C structs


@cython.cclass
class Node:
    """One edge of the tree with the state it leads to.

    ``player`` chose ``action``; ``visits``, ``reward`` (sum of that player's
    rewards), ``wins`` (sum of that player's results) and ``wins2`` (sum of
    their squares) are its statistics;
    ``avail`` counts how often the move was available when its parent was
    visited (ISMCTS; plain UCT uses the parent's visits).  ``children`` maps
    an action (or its public key) to the child node.  ``untried`` is the list
    of actions not expanded yet (plain UCT only).  ``prior`` is the game's
    prior for the move (``SearchState.priors``; 0 when not asked), and
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
    wins2 = cython.declare(cython.double, visibility="public")
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
        self.wins2 = 0.0
        self.mean = 0.0
        self.prior = prior
        self.points = None
        self.proven = False
        self.untried = None


@dataclass(frozen=True)
class Candidate:
    """A move at the root with its statistics.

    ``win`` is the estimated chance the mover wins, ``error`` its standard
    error (the results' standard deviation over ``sqrt(visits)``; with
    results of 0 or 1, ``sqrt(win * (1 - win) / visits)``; a rollout cut
    short gives a win chance between them), ``value`` the mean reward
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
    spread = n.wins2 / n.visits - win * win  # the results' variance: win * (1 - win) when each is 0 or 1
    return Candidate(n.action, n.visits, win, n.mean, math.sqrt(max(spread, 0.0) / n.visits), points, n.proven)


@dataclass
class SearchResult:
    """What a search returns: the tree, the budget spent, and helpers to read the root."""

    root: Node
    player: int
    iterations: int
    seconds: float
    nodes: int = 0  # tree nodes made (ISMCTS), the root excepted
    interrupted: bool = False  # True when ``stop`` ended the search before its budget
    chosen: Action | None = None  # the move sequential halving chose (``halving``), else None

    def candidates(self) -> list[Candidate]:
        """Root moves: proven wins first, then the move sequential halving chose, then most visited first
        (ties: higher value, then lower action code)."""
        chosen = self.chosen
        kids = sorted(self.root.children.values(),
                      key=lambda n: (not n.proven, n.action != chosen, -n.visits, -n.mean, n.action))
        return [candidate(n) for n in kids]

    @property
    def points(self) -> tuple[float, ...]:
        """The mean final ``points()`` over every iteration (empty when not kept)."""
        root = self.root
        return tuple(p / root.visits for p in root.points) if root.points and root.visits else ()

    @property
    def best_action(self) -> Action:
        """The move chosen: a proven win, else the move sequential halving chose, else the most visited at
        the root."""
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


def simulate_and_backup(s: SearchState, root: Node, path: list[Node], margin: float, seed: int,
                        points: bool = False) -> None:
    """Finish one iteration: play ``s`` on (``rollout``: to the end, or as far as the game cuts it short), then
    back the rewards up ``path``.

    Every node on the path (the root excepted) adds the reward entry of the
    player who chose its move (max^n); ``wins`` keeps the pure result part
    (``returns()``) apart for the reported win chances, and ``wins2`` the
    sum of its squares for their errors.  With ``points``, the root and the
    root's child on the path add the game's final ``points()``.
    """
    if not s.is_terminal():
        s.rollout(seed)
    wins: list = s.returns()
    rewards: list = blend(wins, s.margins(), margin) if margin else wins
    n: Node
    j: cython.Py_ssize_t
    w: cython.double
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
        w = wins[p]
        n.wins += w
        n.wins2 += w * w
        n.mean = n.reward / n.visits


def check_budget(iterations: int | None, seconds: float | None) -> None:
    """Raise ``SearchError`` unless at least one positive budget is given."""
    if iterations is None and seconds is None:
        raise SearchError("iterations", "give a budget: iterations or seconds")
    if iterations is not None and iterations < 1:
        raise SearchError("iterations", f"iterations must be at least 1, not {iterations}", iterations)
    if seconds is not None and not seconds > 0:
        raise SearchError("seconds", f"seconds must be positive, not {seconds}", seconds)


# A node with its share of its parent's children dict takes about 350 bytes (measured on Kanaloa trees):
# the default cap keeps one search's tree within about 175 MB.
DEFAULT_MAX_NODES = 500_000
STOP_CHECK = 16  # iterations between two calls of ``stop``


def prove(path: list[Node], observer: int) -> None:
    """The last node of ``path`` is a move of ``observer`` that won the game at once: mark it proven, and
    every earlier move of the same unbroken run of ``observer``'s moves, which can force that win.

    The observer's own consecutive moves depend on nothing hidden (its hand is known and no chance
    event falls inside a run of one player's moves), so a win proven in one determinisation is a win in
    all of them.
    """
    i = len(path) - 1
    while i >= 1 and path[i].player == observer:
        path[i].proven = True
        i -= 1
    if i == 0:
        path[0].proven = True  # the root: the player to move can force a win with its own moves


def _race_value(node: Node | None) -> tuple[int, float]:
    """How a root move ranks in sequential halving: visited before unvisited, then by mean reward."""
    return (0, 0.0) if node is None or not node.visits else (1, node.mean)


def halve(race: list, children: dict) -> list:
    """The better half (rounded up) of the root moves in ``race``, by ``_race_value``, best first."""
    ranked = sorted(race, key=lambda k: _race_value(children.get(k)), reverse=True)
    return ranked[: (len(ranked) + 1) // 2]


def race_choice(race: list | None, root: Node) -> Action | None:
    """The move sequential halving chooses: the proven move when the root is proven, else the best of the
    race by ``_race_value``; None without a race or when no move of it has been visited."""
    if race is None:
        return None
    if root.proven:
        return next((n.action for n in root.children.values() if n.proven), None)
    best = max(race, key=lambda k: _race_value(root.children.get(k)))
    node = root.children.get(best)
    return best if node is not None and node.visits else None


def count_nodes(root: Node) -> int:
    """The nodes below ``root`` (``root`` itself not counted)."""
    total = 0
    stack = [root]
    while stack:
        node = stack.pop()
        total += len(node.children)
        stack.extend(node.children.values())
    return total


class ISMCTS:
    """SO-ISMCTS with availability counts and max^n rewards.

    ``c`` is the UCB exploration constant, ``margin`` the weight of the point
    margin in the reward (0 = pure win/loss), ``seed`` the seed of every
    random choice (determinisations, rollouts, expansion order, hidden moves),
    ``expand_after`` the visits a node needs before its own moves are expanded
    (1: at its second visit, the classic rule), ``prior`` the weight of the
    game's priors (0: not used), ``max_nodes`` the size at which the tree
    stops growing, ``points``: keep the mean final ``points()`` at the root
    and its children, ``root_c`` the exploration constant at the root (by
    default ``c``): a larger one spreads the root's visits, so that the
    moves compared there are each searched well enough to be compared.
    ``halving``: sequential halving among the root's moves instead of UCB1
    there (the root's exploration constant is then unused); the move it
    chooses is the result's ``chosen``, and ``best_action`` after a proven
    win.  With an iteration budget below the moves times the halvings it
    needs, the root keeps UCB1.
    ``turn_only``: the tree holds only the observer's own moves from the
    root up to the first move of another player (the plan of the turn);
    from there every iteration is played out by ``rollout``.
    """

    def __init__(self, c: float = 0.7, margin: float = 0.0, seed: int = 0, expand_after: int = 1,
                 prior: float = 0.0, max_nodes: int = DEFAULT_MAX_NODES, points: bool = False,
                 root_c: float | None = None, halving: bool = False, turn_only: bool = False) -> None:
        if not c >= 0:
            raise SearchError("c", f"c must be non-negative, not {c}", c)
        if not 0.0 <= margin <= 1.0:
            raise SearchError("margin", f"margin must be within [0, 1], not {margin}", margin)
        if expand_after < 1:
            raise SearchError("expand_after", f"expand_after must be at least 1, not {expand_after}", expand_after)
        if not prior >= 0:
            raise SearchError("prior", f"prior must be non-negative, not {prior}", prior)
        if max_nodes < 1:
            raise SearchError("max_nodes", f"max_nodes must be at least 1, not {max_nodes}", max_nodes)
        if root_c is not None and not root_c >= 0:
            raise SearchError("root_c", f"root_c must be non-negative, not {root_c}", root_c)
        self.c = c
        self.root_c = c if root_c is None else root_c
        self.margin = margin
        self.expand_after = expand_after
        self.prior = prior
        self.max_nodes = max_nodes
        self.points = points
        self.halving = halving
        self.turn_only = turn_only
        self.rng = random.Random(seed)

    def search(self, state: SearchState, iterations: int | None = None, seconds: float | None = None, *,
               stop: Callable[[], bool] | None = None,
               progress: Callable[[SearchResult], None] | None = None, progress_every: float = 0.5,
               root: Node | None = None, only: Action | None = None) -> SearchResult:
        """Search for the player to move in ``state`` (left untouched) until a budget runs out.

        At least one iteration is always run.  ``stop`` is asked every few
        iterations and ends the search when it returns True (the result then
        says ``interrupted``); ``progress`` is called with the result so far
        every ``progress_every`` seconds.  ``root`` continues an earlier
        tree whose root is ``state``'s information set for its player to
        move.  ``only`` searches one root move: every iteration begins with
        it, so that its win chance is estimated with the whole budget (a game
        analysis grades a move played this way).  Raises ``SearchError`` (a
        ``ValueError``) for a terminal state, a bad budget or an ``only``
        that is not a legal move.
        """
        check_budget(iterations, seconds)
        if state.is_terminal():
            raise SearchError("state", "the game is over: there is nothing to search")
        observer = state.current_player()
        only_move: list | None = None
        if only is not None:
            if only not in state.legal_actions():
                raise SearchError("only", f"move {only} is not legal in the state searched", only)
            only_move = [only]
        if root is None:
            root = Node(-1, -1)
            nodes = 0
        else:
            nodes = count_nodes(root)
        limit = iterations if iterations is not None else 1 << 62
        clock = time.perf_counter
        start = clock()
        deadline = start + seconds if seconds is not None else math.inf
        next_report = start + progress_every if progress is not None else math.inf
        wake = min(deadline, next_report)
        rng = self.rng
        getrandbits = rng.getrandbits
        randrange = rng.randrange
        c_below: cython.double = self.c
        c_root: cython.double = self.root_c
        w: cython.double = self.prior
        margin = self.margin
        keep_points = self.points
        expand_after: cython.longlong = self.expand_after
        max_nodes: cython.longlong = self.max_nodes
        turn_only: cython.bint = self.turn_only
        done = 0
        interrupted = False
        node: Node
        child: Node
        best: Node | None
        value: cython.double
        best_value: cython.double
        c: cython.double
        visits: cython.longlong
        i: cython.Py_ssize_t
        moves: list
        children: dict
        path: list
        # Sequential halving at the root (``halving``): the budget is cut into one phase per halving; in a
        # phase the root moves still in the race get equal visits in this search (the one with the fewest
        # is walked next; visits of a continued tree do not count), and at its end the better half by mean
        # reward stays in.  Below the root the search is unchanged.  An iteration budget too small to visit
        # every move once per phase keeps UCB1.
        race: list | None = None
        earlier: dict = {}
        phases: cython.longlong = 0
        phase: cython.longlong = 0
        if self.halving and only_move is None:
            race = list(state.legal_actions())
            phases = math.ceil(math.log2(len(race))) if len(race) > 1 else 0
            if phases == 0 or (iterations is not None and iterations < len(race) * phases):
                race = None
            else:
                earlier = {k: n.visits for k, n in root.children.items()}
        while done < limit:
            s = state.resample(observer, getrandbits(63))
            node = root
            path = [root]
            while not s.is_terminal():
                if node.visits < expand_after and node is not root:
                    break  # a young node is judged by rollouts before its own moves enter the tree
                mover = s.current_player()
                mine = mover == observer
                if turn_only and not mine:
                    break  # the plan of the observer's turn ends here: the rest is played out
                moves = s.legal_actions() if mine else s.public_actions(observer)
                children = node.children
                halving_here = False
                if node is root and only_move is not None:
                    moves = only_move
                elif race is not None and node is root and not root.proven:
                    halving_here = True
                    moves = race
                # One pass over the moves: the untried ones (indices into moves), and else the UCB1 value of
                # every child, with availability: every child legal in this determinisation was available.
                # At the root during sequential halving, the value falls with the visits: the least visited first.
                c = c_root if node is root else c_below
                untried: list[int] = []
                kids: list[Node] = []
                best = None
                best_value = -1.0
                for i in range(len(moves)):
                    found = children.get(moves[i])
                    if found is None:
                        untried.append(i)
                        continue
                    if untried:
                        continue
                    child = found
                    kids.append(child)
                    visits = child.visits
                    if halving_here:
                        value = -1.0 + 1.0 / (visits - earlier.get(child.action, 0) + 1)
                    else:
                        value = child.mean + c * _sqrt(_log(child.avail + 1) / visits)
                        if w:
                            value += w * child.prior / (visits + 1)
                    if value > best_value:
                        best_value = value
                        best = child
                if untried:
                    if nodes >= max_nodes:
                        break  # the tree is full: roll out from this node
                    if w:
                        priors = s.priors(observer)
                        best_prior = max(priors[i] for i in untried)
                        ties = [i for i in untried if priors[i] == best_prior]
                        key = moves[ties[randrange(len(ties)) if len(ties) > 1 else 0]]
                        child = Node(key, mover, best_prior)
                    else:
                        key = moves[untried[randrange(len(untried)) if len(untried) > 1 else 0]]
                        child = Node(key, mover)
                    children[key] = child
                    nodes += 1
                    path.append(child)
                    if mine:
                        s.apply_action(key)
                        if s.is_terminal() and s.returns()[observer] >= 1.0:
                            prove(path, observer)
                    else:
                        s.apply_public(key, observer, rng)
                    break
                if mine and node.proven:  # a move of this node wins for certain: take it
                    won = next((children[key] for key in moves if children[key].proven), None)
                    if won is not None:
                        s.apply_action(won.action)
                        path.append(won)
                        node = won
                        continue
                for child in kids:
                    child.avail += 1
                assert best is not None  # every UCB value is above -1, and a running game has a move
                if mine:
                    s.apply_action(best.action)
                else:
                    s.apply_public(best.action, observer, rng)
                path.append(best)
                node = best
            simulate_and_backup(s, root, path, margin, getrandbits(63), keep_points)
            done += 1
            if stop is not None and done % STOP_CHECK == 0 and stop():
                interrupted = True
                break
            now = clock()
            if race is not None and len(race) > 1:
                # The phase ends at its share of the budget: of the iterations or of the seconds, whichever
                # is used up faster.
                spent = done / limit
                if seconds is not None:
                    spent = max(spent, (now - start) / seconds)
                if spent * phases >= phase + 1:
                    race = halve(race, root.children)
                    phase += 1
            if now >= wake:
                if now >= deadline:
                    break
                if progress is not None:
                    progress(SearchResult(root, observer, done, now - start, nodes, chosen=race_choice(race, root)))
                next_report = now + progress_every
                wake = min(deadline, next_report)
        return SearchResult(root, observer, done, clock() - start, nodes, interrupted, race_choice(race, root))
