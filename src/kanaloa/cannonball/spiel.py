"""Cannonball Colony as an OpenSpiel game (R20), registered as ``python_cannonball``.

``game_for(rules, seed)`` makes the OpenSpiel game (``CannonballSpielGame``)
of a rule set already made by ``make_cannonball``: the registry's
``openspiel`` face.  Importing this module registers the game with
``pyspiel`` as ``python_cannonball`` (``kanaloa.openspiel.register_game``,
once), as ``import kanaloa.openspiel`` does for every registered game, so
that ``pyspiel.load_game("python_cannonball(players=3,seed=7)")`` makes it
from its parameters: ``players``, ``countries`` and ``tiles`` (the lists
joined by ``;``, empty for the rule set's own) and ``seed``, as
``kanaloa.openspiel`` makes every game's.

The game as OpenSpiel sees it (docs/cannonball.md, "OpenSpiel"):

* **Sequential, perfect information, deterministic.**  The seed lays out
  the island (R20.1, R20.2) when the game is made; after that nothing is
  left to chance, so there are no chance nodes.
* **Actions** are the rules' action codes (``state.encode``) numbered
  densely over the island's spaces: ``kind * spaces + space`` for the six
  kinds that name a space, then ``end`` and ``pass``
  (``game.action_of(code)``, ``game.code_of(action)``).  An action's string
  is its notation with the mover's name, ``france: road c2``.
* **Observation and information state** of every player: the position
  document (``format.write_position``) as compact JSON.  It holds the whole
  game as it stands, not the moves that led there.  No tensors.
* **Returns** (R20.10): ``1/k`` to each of the ``k`` players sharing the
  victory, 0 to the others; they always add up to 1 (``CONSTANT_SUM``).
* The rules run on the compiled core (``cannonball_core``) where it is
  built, on the reference otherwise.  Serialization is OpenSpiel's own for
  Python games (the game's string, the history and the state pickled).
"""

from __future__ import annotations

import json
from typing import Any

import pyspiel

from ..errors import KanaloaError
from ..openspiel import (
    GameRef,
    RegisteredGame,
    player_action_ids,
    register_game,
    spiel_game_type,
    spiel_name,
    spiel_params,
)
from ..rules.registry import game_type
from .core import default_engine
from .format import move_text, write_position
from .reference import victory_shares
from .ruleset import GAME, CannonballRules
from .state import (
    BLOCKADES,
    CANNONS,
    FORTS,
    ROAD_TILES,
    CannonballData,
)
from .tensor import action_codes

__all__ = ["GAME_TYPE", "NAME", "CannonballSpielGame", "CannonballSpielState", "game_for", "max_game_length"]

NAME = spiel_name(GAME)

# The game type: the name, players and parameters from the registry (kanaloa.openspiel); perfect information,
# nothing left to chance once the island is laid out, and returns that always add up to 1.
GAME_TYPE = spiel_game_type(game_type(GAME), chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
                            information=pyspiel.GameType.Information.PERFECT_INFORMATION,
                            utility=pyspiel.GameType.Utility.CONSTANT_SUM)


def max_game_length(players: int, columns: int, rows: int) -> int:
    """A bound on the actions of any game (R20.6-R20.10), for OpenSpiel's ``max_game_length``.

    A fort is never built in range of an opponent's cannon, and a cannon's
    range only shrinks (blockades are added, nothing is removed), so a cannon
    can shoot only forts built before it, each space of its row and column at
    most once: at most ``columns + rows - 2`` shots a cannon.  Every build is a
    road (one tile of the supply each), a fort (10 a player, and one more per
    fort shot), a cannon or a blockade.  Between two turns that build or
    shoot, fewer than ``players`` turns pass; a turn is at most three actions
    (a shot and two grass roads, or a shot, a road and ``end``); the landing
    round is one action a player.
    """
    shots = CANNONS * players * (columns + rows - 2)
    builds = ROAD_TILES[players] + FORTS * players + shots + (CANNONS + BLOCKADES) * players
    return players + 3 * players * (builds + shots + 1)


class CannonballSpielGame(RegisteredGame):
    """The OpenSpiel game of one rule set on the island laid out from ``seed`` (module docstring).

    ``rules`` is the rule set, ``start`` the game's first state
    (``CannonballData``), ``countries`` the seats' names.
    """

    # Its states have no ``core`` for the Kanaloa family's compiled rollouts (``openspiel-mcts:rollout=core``).
    core_rollouts = False

    def __init__(self, rules: CannonballRules, seed: int = 0) -> None:
        try:
            start = rules.new_game(seed)
        except (KanaloaError, ValueError, OverflowError) as exc:
            raise ValueError(f"{NAME}: seed {seed}: {exc}") from None
        self.rules = rules
        self.seed = seed
        self.start = start
        self.countries = rules.countries
        self.spaces = start.spaces
        self.codes = action_codes(self.spaces)  # the numbering of the game's tensor face too
        self.ids = {code: action for action, code in enumerate(self.codes)}
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.codes),
            max_chance_outcomes=0,
            num_players=rules.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max_game_length(rules.players, start.columns, start.rows),
        )
        super().__init__(GAME_TYPE, info, spiel_params(rules, seed))

    def new_initial_state(self) -> CannonballSpielState:
        """The game's first state: the landing round, seat 0 to move (R20.4)."""
        return CannonballSpielState(self)

    def state_of(self, d: Any) -> CannonballSpielState:
        """A state at ``d`` (a state of this game's island, as the position format reads it, or an engine
        state holding one, which is copied), with an empty history: it starts where ``d`` stands."""
        if not isinstance(d, CannonballData):
            d = d.to_data()
        state = CannonballSpielState(self)
        state._rules = default_engine().from_data(d)
        return state

    def action_of(self, code: int) -> int:
        """The OpenSpiel action of an action code (``state.encode``)."""
        try:
            return self.ids[code]
        except KeyError:
            raise ValueError(f"action code {code}: not an action of {NAME} on this island") from None

    def code_of(self, action: int) -> int:
        """The action code (``state.encode``) of an OpenSpiel action."""
        if not 0 <= action < len(self.codes):
            raise ValueError(f"action {action}: not an action of {NAME} (0 to {len(self.codes) - 1})")
        return self.codes[action]



def game_for(rules: CannonballRules, seed: int = 0) -> CannonballSpielGame:
    """The OpenSpiel game of ``rules`` on the island laid out from ``seed`` (the registry's ``openspiel``
    face)."""
    return CannonballSpielGame(rules, seed)


class CannonballSpielState(pyspiel.State):
    """A state of a ``CannonballSpielGame``: the rules' state (``_rules``, a core or reference state)."""

    def __init__(self, game: CannonballSpielGame) -> None:
        super().__init__(game)
        self._setup = GameRef(game)
        self._rules: Any = default_engine().from_data(game.start)
        self._text: str | None = None  # the position's JSON, once asked for

    # -- the OpenSpiel state API --------------------------------------------------------

    def current_player(self) -> int:
        if self._rules.is_over:
            return pyspiel.PlayerId.TERMINAL
        return int(self._rules.to_move)

    def is_terminal(self) -> bool:
        return bool(self._rules.is_over)

    def is_chance_node(self) -> bool:
        return False

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (None: the player to move), ascending; none for the others."""
        return player_action_ids(self._rules, player, self._setup.game.ids)

    def _legal_actions(self, player: int) -> list[int]:
        return self.legal_actions(player)

    def _apply_action(self, action: int) -> None:
        code = self._setup.game.code_of(action)
        try:
            self._rules.apply(code)
        except ValueError as exc:  # the core's ValueError, the reference's MoveError
            raise ValueError(f"{NAME}: action {action}: {exc}") from None
        self._text = None

    def _action_to_string(self, player: int, action: int) -> str:
        """The move's notation (R20; docs/cannonball.md, "Moves"), with the name of ``player`` when it is a seat."""
        game = self._setup.game
        text = move_text(game.code_of(action), game.countries, game.start)
        if 0 <= player < game.rules.players:
            return f"{game.countries[player]}: {text}"
        return text

    def returns(self) -> list[float]:
        players = self._setup.game.rules.players
        if not self._rules.is_over:
            return [0.0] * players
        return victory_shares(list(self._rules.winners), players)

    def resample(self, player: int, seed: int) -> CannonballSpielState:
        """A world drawn from what ``player`` knows, as a new state (an empty history): this very position, for
        nothing is hidden (R20); ``seed`` decides nothing.  The resampler of OpenSpiel's ISMCTS."""
        self._check_player(player)
        return self._setup.game.state_of(self._rules.to_data())

    def information_state_string(self, player: int | None = None) -> str:
        self._check_player(player)
        return self.position_text()

    def observation_string(self, player: int | None = None) -> str:
        self._check_player(player)
        return self.position_text()

    def __str__(self) -> str:
        return self.position_text()

    # -- the rules behind it -----------------------------------------------------------

    def position_text(self) -> str:
        """The position document as compact JSON: what every player sees (perfect information)."""
        if self._text is None:
            doc = write_position(self._setup.game.countries, self._rules.to_data())
            self._text = json.dumps(doc, separators=(",", ":"))
        return self._text

    def data(self) -> CannonballData:
        """A copy of the state as ``CannonballData``."""
        data: CannonballData = self._rules.to_data()
        return data

    def _check_player(self, player: int | None) -> None:
        if player is not None and not 0 <= player < self._setup.game.rules.players:
            raise ValueError(f"player {player}: not a player of this game")


register_game(game_type(GAME), CannonballSpielGame, GAME_TYPE)
