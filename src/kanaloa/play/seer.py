"""The seer's sight: a search state whose every determinisation is the true state.

The bot ``seer`` (``kanaloa.play.bots.SeerBot``) is the search of the bot
``ismcts``, with its defaults, given a state that hides nothing from it.  It is
an upper bound for measurement: the gap between ``ismcts`` and ``seer``
against the same opponents is what knowing everything is worth to the same
search.  Nothing that plays for a person or advises one may use it; only
``SeerBot.start`` imports this module, and ``parse_bot_spec`` makes a
``SeerBot`` only for a measurement (``kanaloa simulate``); tests/test_seer.py
checks that the hints, the web app and the viewer never reach it.

``SeeingGame`` wraps a game's search adapter (its registry ``search`` face),
whatever the game, and ``SeerState`` the protocol states the adapter makes.
The search speaks to a ``SeerState`` as to any other state, with three
differences:

* ``resample(player, seed)`` ignores what ``player`` knows and returns a
  copy of the true state: the other hands, the deck in its real order, every
  face-down discard and the engine's chance stream (the future reshuffles
  of R9 and R16.6, the gods' random takes of R14.7), so the rollouts draw the
  cards the game will really deal;
* ``public_actions(observer)`` are the moves of the player to move as that
  player tells them apart: the searcher sees another player's face-down
  discard, steal or gift as the card it is, not as one hidden key;
* ``priors(observer)`` and ``apply_public(key, observer, rng)`` follow: the
  mover's own priors, and the key played as the move it is.

Everything else is the wrapped state's own method, bound once when the
``SeerState`` is made, so the search's inner loop calls the game's
(compiled) methods directly and the seer searches as many iterations a
second as ``ismcts``.  The observer's own moves go through ``legal_actions``
and ``apply_action`` as in every search.  In a game that hides nothing and
draws nothing after the deal a determinisation is already the state itself,
and the seer plays exactly as ``ismcts``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..search.protocol import Action, SearchState

__all__ = ["SeeingGame", "SeerState"]


class SeerState:
    """A ``SearchState`` that shows the searching player the whole of the wrapped ``inner`` state (module
    docstring).  ``inner`` is shared, not copied: ``apply_action`` and ``rollout`` change it."""

    # The wrapped state's own methods, bound at ``__init__`` (the search calls them in its inner loop).
    __slots__ = ("apply_action", "current_player", "inner", "is_terminal", "legal_actions", "margins",
                 "num_players", "points", "returns", "rollout")

    num_players: Callable[[], int]
    current_player: Callable[[], int]
    legal_actions: Callable[[], list[Action]]
    apply_action: Callable[[Action], None]
    is_terminal: Callable[[], bool]
    returns: Callable[[], list[float]]
    margins: Callable[[], list[float]]
    rollout: Callable[[int], None]
    points: Callable[[], list[float]]

    def __init__(self, inner: SearchState) -> None:
        self.inner = inner
        self.num_players = inner.num_players
        self.current_player = inner.current_player
        self.legal_actions = inner.legal_actions
        self.apply_action = inner.apply_action
        self.is_terminal = inner.is_terminal
        self.returns = inner.returns
        self.margins = inner.margins
        self.rollout = inner.rollout
        self.points = inner.points

    def clone(self) -> SeerState:
        return SeerState(self.inner.clone())

    def resample(self, player: int, seed: int) -> SeerState:
        """The true state itself, copied: the seer's every determinisation (``player`` and ``seed`` unused)."""
        return SeerState(self.inner.clone())

    def public_actions(self, observer: int) -> list[Action]:
        """The legal moves as the player to move tells them apart, whoever ``observer`` is."""
        inner = self.inner
        return inner.public_actions(inner.current_player())

    def priors(self, observer: int) -> list[float]:
        """The priors of ``public_actions``: the mover's own, whoever ``observer`` is."""
        inner = self.inner
        return inner.priors(inner.current_player())

    def apply_public(self, key: Action, observer: int, rng: random.Random) -> Action:
        """Play ``key``, a move of ``public_actions``, as the player to move plays it, and return it."""
        inner = self.inner
        return inner.apply_public(key, inner.current_player(), rng)


class SeeingGame:
    """A game's search adapter (``game``, its registry ``search`` face) whose states are ``SeerState``s."""

    __slots__ = ("game",)

    def __init__(self, game: Any) -> None:
        self.game = game

    def wrap(self, state: Any) -> SeerState:
        """The seer's view of an engine state of the game (shared, not copied, as ``game.wrap`` shares it)."""
        return SeerState(self.game.wrap(state))
