"""The settings of the search behind hints, in one place.

``HINT_SETTINGS`` is what ``kanaloa hint`` searches with, what the benchmark
times, and what the bot spec ``hint`` plays with, so a match of the ``hint``
bot measures the hint engine itself.  Each value was chosen by a match
recorded in ``docs/strength.md``.  The ``ismcts`` bot keeps the earlier
settings (``ISMCTS_SETTINGS``) as its defaults, so today's and the earlier
engine can be matched against each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..rules.core import POLICY_HEURISTIC
from ..search import ISMCTS
from ..search.ismcts import DEFAULT_MAX_NODES
from .game import POLICIES
from .limits import SettingError

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset

POLICY_NAMES = {code: name for name, code in POLICIES.items()}


@dataclass(frozen=True)
class SearchSettings:
    """How an ISMCTS search is run (see ``kanaloa.search.ISMCTS`` for each field).

    ``c``: the UCB exploration constant; ``root_c``: the one at the root
    (None: ``c``); ``prior``: the weight of the core's
    heuristic move scores (0: not used); ``margin``: the weight of the point
    margin in the reward; ``expand_after``: visits before a node's moves
    are expanded; ``policy``: the core's playout policy; ``one_order``: the
    game offers one order of the builds of a turn that commute
    (``KanaloaGame``); ``reuse``: a bot
    keeps its tree through the atomic moves of its turn (a hint searches one
    decision and has nothing to keep); ``max_nodes``: the tree's size cap
    per search (per worker for a hint), which bounds memory; ``reshuffle``:
    determinisations use what a reshuffle revealed of the deck
    (``KanaloaGame``); ``cut``: rollouts stop after that many moves and
    the state is judged by a fitted model where one applies (0: rollouts
    play to the end; ``KanaloaGame``, docs/engine.md "Rollouts cut short").
    """

    c: float
    prior: float
    root_c: float | None = None
    margin: float = 0.0
    expand_after: int = 1
    policy: int = POLICY_HEURISTIC
    reuse: bool = False
    max_nodes: int = DEFAULT_MAX_NODES
    one_order: bool = False
    reshuffle: bool = True
    cut: int = 0

    def searcher(self, seed: int) -> ISMCTS:
        """An ISMCTS with these settings and ``seed`` that keeps the final points at the root."""
        return ISMCTS(c=self.c, margin=self.margin, seed=seed, expand_after=self.expand_after, prior=self.prior,
                      max_nodes=self.max_nodes, points=True, root_c=self.root_c)

    def game(self, ruleset: Ruleset) -> Any:
        """The search adapter of ``ruleset``'s game (its ``search`` face) with these settings' playout policy."""
        if self.policy not in POLICY_NAMES:
            raise SettingError("search settings", f"unknown playout policy {self.policy}")
        return ruleset.game_type.face("search")(POLICY_NAMES[self.policy], self.one_order, self.reshuffle, self.cut)

    def check(self, ruleset: Ruleset) -> None:
        """Raise ``SettingError`` for a setting the search (``SearchError``) or the game adapter refuses:
        ``search settings: c must be non-negative, not -1.0``."""
        try:
            self.searcher(0)
            self.game(ruleset)
        except ValueError as exc:  # SearchError, or the adapter's playout policy or cut
            raise SettingError("search settings", str(exc)) from None


# The engine behind hints (docs/strength.md: experiment 5 for the root, 14 for the rest, 18 for the rollouts).
HINT_SETTINGS = SearchSettings(c=0.7, prior=0.0, root_c=1.0, reuse=True, cut=40)
# The engine hints used before: plain ISMCTS with random expansion order and c = 0.7.
ISMCTS_SETTINGS = SearchSettings(c=0.7, prior=0.0, reshuffle=False)
