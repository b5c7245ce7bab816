"""The small game protocol the searches speak.

The search modules (``ismcts``, ``mcts``) know no game: they reach one only
through ``SearchState`` below, in the manner of OpenSpiel's ``State``.  A game
plugs in by implementing its methods (``kanaloa.play.game`` does it for the
compiled Kanaloa rules core).

Hidden information has two faces here:

* ``resample(player, seed)``: a determinisation, a complete state drawn from
  what ``player`` knows.  Two states that differ only in what ``player``
  cannot see give the same sample for the same seed.
* ``public_actions(observer)`` / ``apply_public(key, observer, rng)``: the
  legal moves of the player to move *as the observer can tell them apart*.
  Moves the observer cannot distinguish (a card put away face down, say)
  share one key; ``apply_public`` picks a concrete move for that key inside
  the determinisation and returns it.  A search that keys its tree edges by
  these keys never learns a hidden card from its own tree.

Rewards are a vector with one entry per player in ``[0, 1]``:
``returns()`` is the game result (1 for the winner, 0 for the others; after
a ``rollout`` the game cut short, each player's estimated win chance), and
``margins()`` each player's point margin over the best other player,
normalised to ``[-1, 1]``, which a search may blend in.  ``points()`` is
the game's own final tally (one entry per scoring unit, any length), which a
search averages to tell what a move is expected to end with.

``priors(observer)`` is prior knowledge: one number in ``[0, 1]`` per move of
``public_actions(observer)``, in that order, higher for moves worth trying
first.  A search may use it to order and bias its exploration; a game with no
knowledge returns the same number for every move.
"""

from __future__ import annotations

import random
from typing import Protocol

Action = int


class SearchState(Protocol):
    """What a search needs from a game state (see the module docstring)."""

    def num_players(self) -> int: ...

    def current_player(self) -> int: ...

    def legal_actions(self) -> list[Action]: ...

    def apply_action(self, action: Action) -> None: ...

    def clone(self) -> SearchState: ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> list[float]: ...

    def margins(self) -> list[float]: ...

    def resample(self, player: int, seed: int) -> SearchState: ...

    def rollout(self, seed: int) -> None: ...

    def public_actions(self, observer: int) -> list[Action]: ...

    def priors(self, observer: int) -> list[float]: ...

    def points(self) -> list[float]: ...

    def apply_public(self, key: Action, observer: int, rng: random.Random) -> Action: ...
