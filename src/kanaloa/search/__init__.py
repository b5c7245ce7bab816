"""Game-agnostic tree search over the small game protocol of ``protocol``.

* ``ISMCTS`` (``ismcts``): single-observer information-set MCTS, the search
  behind hints and the strongest bot.
* ``MCTS`` (``mcts``): plain UCT on one perfect-information state, used per
  determinisation by the ``pimc`` bot.

Both return a ``SearchResult`` (the tree, the root ``Candidate`` moves by
visits, the principal line of the root player's own moves), and raise
``SearchError`` (``errors``, a ``ValueError`` naming the parameter) for a
setting or budget they refuse.  Neither knows
the game it searches: a game plugs in by implementing ``protocol.SearchState``
(``kanaloa.play.game`` does it for Kanaloa), and nothing here imports from the
rest of the package.
"""

from .errors import SearchError
from .ismcts import ISMCTS, Candidate, Node, SearchResult
from .mcts import MCTS
from .protocol import Action, SearchState

__all__ = ["ISMCTS", "MCTS", "Action", "Candidate", "Node", "SearchError", "SearchResult", "SearchState"]
