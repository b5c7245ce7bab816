"""The settings of the search behind hints, in one place.

``HINT_SETTINGS`` is what ``kanaloa hint`` searches with and what the bot
spec ``hint`` plays with, so a match of the ``hint`` bot measures the hint
engine itself.  Each value was chosen by a match recorded in
``docs/strength.md``; the ``ismcts`` bot keeps the earlier settings as its
defaults (``ISMCTS_SETTINGS``), so today's and the earlier engine can be
matched against each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.core import POLICY_HEURISTIC
from ..search.ismcts import DEFAULT_MAX_NODES


@dataclass(frozen=True)
class SearchSettings:
    """How an ISMCTS search is run (see ``kanaloa.search.ISMCTS`` for each field).

    ``c``: the UCB exploration constant; ``prior``: the weight of the core's
    heuristic move scores (0: not used); ``margin``: the weight of the point
    margin in the reward; ``expand_after``: visits before a node's moves
    are expanded; ``policy``: the core's playout policy; ``reuse``: a bot
    keeps its tree through the atomic moves of its turn; ``max_nodes``: the
    tree's size cap, which bounds memory.
    """

    c: float
    prior: float
    margin: float = 0.0
    expand_after: int = 1
    policy: int = POLICY_HEURISTIC
    reuse: bool = False
    max_nodes: int = DEFAULT_MAX_NODES


# The engine behind hints (docs/strength.md, experiments 1 to 3).
HINT_SETTINGS = SearchSettings(c=0.3, prior=2.0, reuse=True)
# The engine hints used before: plain ISMCTS with random expansion order and c = 0.7.
ISMCTS_SETTINGS = SearchSettings(c=0.7, prior=0.0)
