"""Plain UCT over a perfect-information game state.

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
the pure result, which is what win-chance estimates report.  The tree's
nodes and the backup are ISMCTS's (``kanaloa.search.ismcts``), which both
searches share.
"""

from __future__ import annotations

import math
import random
import time

from .errors import SearchError
from .ismcts import Node, SearchResult, check_budget, simulate_and_backup
from .protocol import SearchState


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

    def search(self, state: SearchState, iterations: int | None = None, seconds: float | None = None) -> SearchResult:
        """Search from ``state`` (left untouched) until a budget runs out; anytime.

        At least one iteration is always run.  Raises ``SearchError`` (a
        ``ValueError``) for a
        terminal state or a bad budget.
        """
        check_budget(iterations, seconds)
        if state.is_terminal():
            raise SearchError("state", "the game is over: there is nothing to search")
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
