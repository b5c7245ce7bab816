"""Cannonball Colony as a game for the searches: an engine state behind the search protocol (R20).

The searches of ``kanaloa.search`` reach a game only through
``kanaloa.search.protocol.SearchState``.  ``CannonballGame`` and
``CannonballSearchState`` put a Cannonball Colony engine behind it.  The
engine is a class with the reference's API (``from_data``, ``to_data``,
``copy``, ``legal_actions``, ``apply`` and the properties ``players``,
``to_move``, ``is_over``, ``winners``): the compiled core
(``cannonball_core.CoreState``) when it is built, else the plain Python
``ReferenceState``; a game may be given either.

Cannonball Colony hides nothing and draws nothing once the island is laid
(R20.1-R20.10), so the hidden-information faces of the protocol are trivial:

* ``resample`` returns a clone (every player sees the whole state);
* ``public_actions`` are the legal actions and ``apply_public`` plays the key
  itself;
* ``returns()``: the winners share the victory (R20.10): with ``k`` winners
  each gets ``1/k`` and every other player 0, so the entries of a finished
  game add up to 1.  A sole winner (ten forts, or the best tie-break key
  alone) gets 1;
* ``points()``: each player's forts on the island (R20.7, the first thing the
  end compares); ``margins()``: a player's forts minus the most forts of any
  other player, over ``FORTS`` (10), in [-1, 1];
* ``priors``: a number per move from its kind (``KIND_PRIORS``): a shot,
  then a fort, a cannon, the blockade, a landing, a road, ``end``, ``pass``;
* ``rollout`` plays to the end: in C with an engine that has a
  ``rollout(seed, heuristic)`` of its own (the compiled core), otherwise in
  Python from ``random.Random(seed)``: uniformly random legal moves with the
  ``random`` policy; with ``heuristic``, a random move among those of the
  kind with the highest prior.  With ``cut`` = N, heuristic rollouts in the
  compiled core on an island a shipped model fits (``kanaloa.cannonball.cut``)
  stop after N moves, and the state, finished for the search, returns the
  model's win chances, its ``points()`` are the model's expected final forts
  (docs/cannonball.md, "Rollouts cut short").
"""

from __future__ import annotations

import random
from typing import Any

from ..search.protocol import Action
from .core import default_engine
from .cut import model_for_island, shipped_models
from .reference import ReferenceState, play, victory_shares
from .state import (
    BLOCKADE_BUILD,
    CANNON_BUILD,
    END,
    FIRE,
    FORT_BUILD,
    FORTS,
    LAND,
    MAX_SPACES,
    PASS,
    ROAD,
    CannonballData,
)

__all__ = [
    "KIND_PRIORS",
    "POLICIES",
    "CannonballGame",
    "CannonballSearchState",
    "cannonball_search",
    "default_engine",
    "engine_data",
]

POLICIES = ("heuristic", "random")  # the rollout policies, by name (the ``search`` face's ``policy``)

# The prior of a move by its kind (``state.LAND`` ... ``state.PASS``): what the search tries first, and what
# the Python heuristic rollout plays (a random move among those of the highest kind present).
KIND_PRIORS: dict[int, float] = {
    FIRE: 0.9,  # a shot sends an opponent's fort back to its mat (R20.6, R20.9)
    FORT_BUILD: 0.8,  # forts are what the game counts (R20.7, R20.10)
    CANNON_BUILD: 0.5,
    BLOCKADE_BUILD: 0.4,
    LAND: 0.5,
    ROAD: 0.3,
    END: 0.2,
    PASS: 0.1,
}


def engine_data(state: Any) -> CannonballData:
    """The ``CannonballData`` of an engine state, to read (a reference state's own, else ``to_data()``)."""
    if isinstance(state, ReferenceState):
        return state.data
    data: CannonballData = state.to_data()
    return data


def _kind(action: int) -> int:
    return action // MAX_SPACES


class CannonballGame:
    """Cannonball Colony's engine as a protocol game (module docstring).

    ``engine``: the engine class (None: ``default_engine()``); ``policy``:
    ``heuristic`` or ``random`` rollouts.  ``wrap`` puts an engine state (or
    a ``CannonballData``, made into one of ``engine``) behind the protocol.
    ``cut``: a rollout stops after this many moves and a cut model judges it
    (``cut_model``); 0, random rollouts, an engine without ``playout_cut``
    or an island no model fits play rollouts to the end.
    """

    __slots__ = ("_models", "cut", "engine", "policy")

    def __init__(self, policy: str = "heuristic", engine: Any = None, cut: object = 0) -> None:
        if policy not in POLICIES:
            raise ValueError(f"policy {policy!r}: unknown playout policy; one of {', '.join(POLICIES)}")
        if not isinstance(cut, int) or isinstance(cut, bool) or cut < 0:
            raise ValueError(f"cut {cut!r}: must be a whole number of moves, 0 or more")
        self.policy = policy
        self.engine = default_engine() if engine is None else engine
        self.cut = cut
        if cut and self.heuristic:
            shipped_models()  # a broken models file is refused here, not in the middle of a search
        self._models: dict[tuple[int, tuple[int, ...]], Any] = {}  # by (players, terrain): one look a game

    @property
    def heuristic(self) -> bool:
        return self.policy == "heuristic"

    def wrap(self, state: Any) -> CannonballSearchState:
        """The protocol view of an engine state (shared, not copied), or of a new engine state made from a
        ``CannonballData`` (copied)."""
        if isinstance(state, CannonballData):
            state = self.engine.from_data(state)
        return CannonballSearchState(self, state, self.cut_model(state))

    def cut_model(self, state: Any) -> Any:
        """The cut model that judges this game's rollouts from the engine state ``state``, or None (they play
        to the end): with ``cut``, heuristic rollouts, an engine that cuts them (``playout_cut``, the
        compiled core) and a shipped model fitted for the state's player count and the tiles its island is
        laid from (``kanaloa.cannonball.cut``)."""
        if not self.cut or not self.heuristic or not hasattr(state, "playout_cut"):
            return None
        d = engine_data(state)
        key = (d.players, tuple(d.terrain))
        if key not in self._models:
            self._models[key] = model_for_island(d.players, d.terrain)
        return self._models[key]


def cannonball_search(policy: str = "heuristic", one_order: bool = False, reshuffle: bool = True,
                      cut: object = 0, engine: Any = None) -> CannonballGame:
    """Cannonball Colony's ``search`` face (``kanaloa.rules.registry``): the adapter a search bot plays with,
    its rollout policy named (``heuristic`` or ``random``).

    The signature is the Kanaloa family's (``kanaloa.play.game.family_search``); what does not apply here is
    accepted and has no effect: ``one_order`` (every build but a first grass road ends the turn, R20.6, so
    there are no runs of commuting builds to order), ``reshuffle`` (nothing is hidden or drawn).  ``cut``
    (a whole number of moves, 0 or more) cuts heuristic rollouts short where a model fits
    (``CannonballGame``).  ``engine`` chooses the engine class (default: ``default_engine()``).
    """
    del one_order, reshuffle
    return CannonballGame(policy, engine, cut)


class CannonballSearchState:
    """A ``SearchState`` over one Cannonball Colony engine state (module docstring).

    The wrapped ``state`` is changed by ``apply_action`` and ``rollout``;
    ``clone`` keeps an original.  Moves come from the engine's legal lists,
    so a reference state plays them without checking them again.  ``model``
    is the game's ``cut_model`` for the state (None: rollouts play to the
    end), and ``estimate`` what it said of the state after a rollout cut
    short: (win chances, expected final forts), else None.  Such a state is
    finished for the search: it is ``is_terminal``, ``returns`` its win
    chances and ``points`` its expected forts; play on it no further.
    """

    __slots__ = ("estimate", "game", "model", "state")

    def __init__(self, game: CannonballGame, state: Any, model: Any = None) -> None:
        self.game = game
        self.state = state
        self.model = model
        self.estimate: tuple[list[float], list[float]] | None = None

    def num_players(self) -> int:
        players: int = self.state.players
        return players

    def current_player(self) -> int:
        mover: int = self.state.to_move
        return mover

    def legal_actions(self) -> list[Action]:
        moves: list[Action] = self.state.legal_actions()
        return moves

    def apply_action(self, action: Action) -> None:
        """Play ``action``, one of ``legal_actions()`` (a reference state plays it unchecked)."""
        state = self.state
        if isinstance(state, ReferenceState):
            play(state.data, action)
        else:
            state.apply(action)

    def clone(self) -> CannonballSearchState:
        return CannonballSearchState(self.game, self.state.copy(), self.model)

    def is_terminal(self) -> bool:
        over: bool = self.estimate is not None or self.state.is_over
        return over

    def returns(self) -> list[float]:
        """``1/k`` for each of the ``k`` players sharing the victory (R20.10), 0 for the others; zeros while
        the game is on; after a rollout cut short, the model's win chances."""
        if self.estimate is not None:
            return list(self.estimate[0])
        return victory_shares(self.state.winners if self.state.is_over else [], self.state.players)

    def points(self) -> list[float]:
        """Each player's forts on the island (R20.7); after a rollout cut short, the model's expected final
        forts."""
        if self.estimate is not None:
            return list(self.estimate[1])
        state = self.state
        if hasattr(state, "forts"):
            return [float(f) for f in state.forts]
        d = engine_data(state)
        return [float(d.forts_on_island(seat)) for seat in range(d.players)]

    def margins(self) -> list[float]:
        """Each player's forts on the island minus the most any other player has, over ``FORTS``, in [-1, 1]
        (after a rollout cut short, of the expected final forts)."""
        forts = self.points()
        result = []
        for seat, own in enumerate(forts):
            best_other = max(f for other, f in enumerate(forts) if other != seat)
            result.append(max(-1.0, min(1.0, (own - best_other) / FORTS)))
        return result

    def resample(self, player: int, seed: int) -> CannonballSearchState:
        """A clone: nothing is hidden from any player (R20)."""
        return self.clone()

    def rollout(self, seed: int) -> None:
        """Play to the end: in the engine's own ``rollout`` where it has one, else in Python (module
        docstring); every random choice flows from ``seed``.  With the game's ``cut`` and a ``model``, stop
        after that many moves and keep the model's estimate (None when the game ended first)."""
        state = self.state
        if state.is_over:
            return
        if self.model is not None:
            self.estimate = state.playout_cut(seed, True, self.game.cut, self.model)
            return
        if hasattr(state, "rollout"):
            state.rollout(seed, self.game.heuristic)
            return
        self._python_rollout(random.Random(seed))

    def _python_rollout(self, rng: random.Random) -> None:
        heuristic = self.game.heuristic
        state = self.state
        reference = state.data if isinstance(state, ReferenceState) else None
        while not state.is_over:
            moves = state.legal_actions()
            if heuristic and len(moves) > 1:
                best = max(KIND_PRIORS[_kind(a)] for a in moves)
                moves = [a for a in moves if KIND_PRIORS[_kind(a)] == best]
            action = moves[rng.randrange(len(moves))] if len(moves) > 1 else moves[0]
            if reference is not None:
                play(reference, action)
            else:
                state.apply(action)

    def public_actions(self, observer: int) -> list[Action]:
        """The legal actions: every player tells every move apart (R20)."""
        return self.legal_actions()

    def priors(self, observer: int) -> list[float]:
        """``KIND_PRIORS`` of each legal action's kind, in the order of ``legal_actions()``."""
        return [KIND_PRIORS[_kind(a)] for a in self.state.legal_actions()]

    def apply_public(self, key: Action, observer: int, rng: random.Random) -> Action:
        """Play the move ``key`` itself (a move's key is the move) and return it."""
        self.apply_action(key)
        return key
