"""Every game of the registry as an OpenSpiel game, and what their OpenSpiel faces share.

Importing this package registers with ``pyspiel`` (the ``open-spiel``
package, the optional extra ``kanaloa[openspiel]``) one Python game per game
of ``kanaloa.rules.registry``, named ``python_<name>`` (``python_kanaloa``,
``python_kahuna``, and so on for every game registered): ``register()``
imports each game's ``openspiel`` face module, and each of those modules
registers its games when it is imported, through ``register_game`` here.
``register()`` may be called again; it registers nothing twice.

Nothing here knows a game.  What every game's OpenSpiel face shares lives
here, so that each face holds only its game:

* **Names and parameters.**  A game's OpenSpiel parameters are its registry
  parameters (``kanaloa games``), with the defaults of its default rule
  set, and ``seed``, OpenSpiel's own (``parameter_defaults``).  OpenSpiel's
  game strings split parameters at commas, so a parameter that lists
  something (its default value holds a comma: a player's colors, the
  countries, the tiles) joins its entries with ``;`` there
  (``colors=red+blue;green+yellow``) and defaults to empty, which stands for
  the rule set's own for the player count (``list_parameters``).
  ``spiel_params(ruleset, seed)`` gives the parameters that make a game
  again; ``ruleset_of(game, params)`` makes the rule set they name with
  ``load_game``, which checks every parameter (``ValueError`` naming it).
* **The game type** (``spiel_game_type``): the name, ``long_name`` (the
  title), the player counts (the ``players`` parameter's choices) and the
  parameters come from the registry; the game's face says its chance mode,
  information and utility.  Every game is sequential, rewarded at the end,
  and observed through strings only.
* ``RegisteredGame``: a ``pyspiel.Game`` base that its states share
  (``__deepcopy__`` returns it) and that observes through strings
  (``make_py_observer`` gives a ``StringObserver``: a state's
  ``observation_string``, no tensor).  ``GameRef`` is what a state keeps of
  its game: the game, pickled as its string, as OpenSpiel serializes Python
  games.
* ``register_game(game, make, spiel_type)`` registers a game of the registry
  whose games ``make(ruleset, seed)`` makes; ``load(name, **params)`` makes
  a registered game as ``pyspiel.load_game`` does; ``game_for(ruleset,
  seed)`` is the OpenSpiel game of any game's rule set, by its face.

docs/openspiel.md gives the contract of the family's games (their chance
nodes, actions, observations and returns); a game with a package of its own
documents its own beside its package.
"""

from __future__ import annotations

import ctypes
import functools
import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pyspiel

from ..errors import KanaloaError
from ..rules.registry import GameType, game_types, load_game
from ..rules.rng import MASK64

__all__ = ["LIST_JOIN", "PREFIX", "SEED", "GameRef", "RegisteredGame", "StringObserver", "game_for",
           "list_parameters", "load", "parameter_defaults", "player_action_ids", "player_counts", "register",
           "register_game", "registered", "ruleset_of", "spiel_game_type", "spiel_name", "spiel_params"]

PREFIX = "python_"  # an OpenSpiel game's name: the prefix and the registry's name of the game
SEED = "seed"  # OpenSpiel's own parameter, beside the registry's
LIST_JOIN = ";"  # joins the entries of a listing parameter in OpenSpiel's game strings, which split at commas

GameRules = Any  # a registered game's rule set (``GameType.load``), whatever its class


# -- names and parameters ---------------------------------------------------------------------------------


def spiel_name(game: str) -> str:
    """The OpenSpiel name of the registry's game ``game``: ``python_kanaloa``."""
    return PREFIX + game


def player_counts(g: GameType) -> list[int]:
    """The player counts ``g`` takes: its ``players`` parameter's choices (else its default rule set's)."""
    for p in g.parameters:
        if p.name == "players" and p.choices:
            return sorted(int(c) for c in p.choices)
    return [load_game(g.name).players]


def list_parameters(g: GameType) -> tuple[str, ...]:
    """The parameters of ``g`` that list something: those whose value in the default rule set holds a comma
    (a player's colors, the countries, the tiles).  Their entries are joined by ``LIST_JOIN`` in OpenSpiel's
    parameters, and they default to empty there: the rule set's own for the player count."""
    return _lists_of(g.name)


@functools.cache
def _lists_of(name: str) -> tuple[str, ...]:
    made = load_game(name).params()
    return tuple(key for key, value in made.items() if isinstance(value, str) and "," in value)


def parameter_defaults(g: GameType) -> dict[str, Any]:
    """The OpenSpiel parameters of ``g`` with their defaults: the registry's parameters, valued as the default
    rule set has them (a listing parameter empty: OpenSpiel fills in every default before the game is made, and
    what a list holds depends on the player count), then ``seed`` (0)."""
    return dict(_defaults_of(g.name))


@functools.cache
def _defaults_of(name: str) -> tuple[tuple[str, Any], ...]:
    made = load_game(name).params()
    lists = _lists_of(name)
    order = [p.name for p in load_game(name).game_type.parameters]
    return (*((key, "" if key in lists else made[key]) for key in order if key in made), (SEED, 0))


def spiel_params(ruleset: GameRules, seed: int) -> dict[str, Any]:
    """The OpenSpiel parameters that make the game of ``ruleset`` dealt from ``seed`` again: its ``params()``
    (a listing parameter's entries joined by ``LIST_JOIN``) and ``seed``."""
    g = ruleset.game_type
    lists = list_parameters(g)
    known = parameter_defaults(g)
    made = ruleset.params()
    out = {k: (made[k].replace(",", LIST_JOIN) if k in lists else made[k]) for k in known if k in made}
    return {**out, SEED: seed}


def ruleset_of(g: GameType, params: Mapping[str, Any]) -> tuple[GameRules, int]:
    """The rule set and the seed OpenSpiel's ``params`` of game ``g`` name; ``ValueError`` naming the parameter
    at fault (an unknown one, a bad seed, or the rule set's own message)."""
    name = spiel_name(g.name)
    known = list(spiel_game_type_of(g).parameter_specification)
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise ValueError(f"{name}: unknown parameter {unknown[0]!r}; expected one of {', '.join(known)}")
    rest = dict(params)
    seed = rest.pop(SEED, 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MASK64:
        raise ValueError(f"{name}: seed {seed!r}: must be an integer from 0 to 2**64-1")
    for key in list_parameters(g):
        if rest.get(key) == "":
            del rest[key]
        elif isinstance(rest.get(key), str):
            rest[key] = rest[key].replace(LIST_JOIN, ",")
    try:
        return load_game(g.name, **rest), seed
    except KanaloaError as exc:
        raise ValueError(f"{name}: {exc}") from None


# -- the game type and what every game's states share --------------------------------------------------------

_TYPES: dict[str, pyspiel.GameType] = {}


def spiel_game_type(g: GameType, *, chance_mode: Any, information: Any, utility: Any) -> pyspiel.GameType:
    """OpenSpiel's description of the registry's game ``g`` (made once a game): sequential, rewarded at the
    end, observed through strings; ``chance_mode``, ``information`` and ``utility`` are the game's own."""
    found = _TYPES.get(g.name)
    if found is None:
        counts = player_counts(g)
        found = _TYPES[g.name] = pyspiel.GameType(
            short_name=spiel_name(g.name),
            long_name=f"{g.title} (kanaloa engine)",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=chance_mode,
            information=information,
            utility=utility,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=counts[-1],
            min_num_players=counts[0],
            provides_information_state_string=True,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=False,
            parameter_specification=parameter_defaults(g),
        )
    return found


def spiel_game_type_of(g: GameType) -> pyspiel.GameType:
    """The game type ``g``'s face made (``spiel_game_type``), loading the face's module when it has not yet."""
    if g.name not in _TYPES:
        _import_face(g)
    return _TYPES[g.name]


def player_action_ids(state: Any, player: int | None, ids: Sequence[int]) -> list[int]:
    """The OpenSpiel ids of ``player``'s legal actions in engine ``state`` (None: the player to move), ascending:
    ``ids[code]`` of each legal action code; none once the game is over or for another player.  A negative
    ``player`` (a pseudo-player) raises ``pyspiel.SpielError``, as OpenSpiel's own games do."""
    if state.is_over:
        return []
    if player is not None and player != state.to_move:
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []
    return [ids[code] for code in state.legal_actions()]


class RegisteredGame(pyspiel.Game):
    """What every registered game's ``pyspiel.Game`` shares: its states share it (it never changes), and it is
    observed through strings, a state's observation string being the observer's too."""

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> StringObserver:
        """The observer of observations and information states: strings only (no tensors)."""
        if params:
            raise ValueError(f"{self.get_type().short_name}: observer parameters are not supported; got {params}")
        return StringObserver()

    def __deepcopy__(self, memo: dict[int, Any]) -> RegisteredGame:
        return self  # immutable: its states share it


class StringObserver:
    """OpenSpiel's observer protocol, strings only: a state's ``observation_string`` (no tensor)."""

    def __init__(self) -> None:
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: Any, player: int) -> None:
        pass  # no tensor

    def string_from(self, state: Any, player: int) -> str:
        text: str = state.observation_string(player)
        return text


class GameRef:
    """What a state keeps of its game, which never changes: copying it copies the reference, and pickling it
    keeps the game's string (OpenSpiel serializes a Python state's attributes with pickle)."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> GameRef:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_game_ref_of, (str(self.game),))


def _game_ref_of(game_string: str) -> GameRef:
    return GameRef(pyspiel.load_game(game_string))


# -- registration -------------------------------------------------------------------------------------------

# One factory per registered game.  OpenSpiel's registry (C++) holds the factories until after the interpreter
# has gone: were it the last to let one go, freeing it then would need the interpreter ("Fatal Python error:
# PyThreadState_Get" at exit, once the module's own references are cleared, as other libraries' teardown makes
# happen).  Each registered factory so keeps one reference that nothing gives back: it is never freed, as the
# interpreter's own objects at exit are not.
_FACTORIES: dict[str, Callable[..., Any]] = {}


def register_game(g: GameType, make: Callable[[GameRules, int], Any], spiel_type: pyspiel.GameType) -> None:
    """Register the registry's game ``g`` with ``pyspiel`` as ``spiel_type``'s name: ``pyspiel.load_game`` then
    makes ``make(ruleset, seed)`` from the rule set and seed its parameters name (``ruleset_of``).  Once: a
    game already registered is left as it is."""
    name = spiel_name(g.name)
    if name in _FACTORIES:
        return

    def factory(params: Mapping[str, Any] | None = None) -> Any:
        ruleset, seed = ruleset_of(g, params or {})
        return make(ruleset, seed)

    _TYPES.setdefault(g.name, spiel_type)
    _FACTORIES[name] = factory
    if name not in pyspiel.registered_names():
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(factory))
        pyspiel.register_game(spiel_type, factory)


def _import_face(g: GameType) -> None:
    """Import the module of ``g``'s ``openspiel`` face, which registers the game (its module only: a module
    importing this package while it is itself being imported registers its games when it is done)."""
    importlib.import_module(g.faces["openspiel"].partition(":")[0])


def register() -> list[str]:
    """Register every game of the registry with an ``openspiel`` face (importing its module); the OpenSpiel
    names registered so far, in registration order."""
    for g in game_types():
        if "openspiel" in g.faces:
            _import_face(g)
    return list(_FACTORIES)


def registered() -> list[str]:
    """The OpenSpiel names of the games registered so far, in registration order."""
    return list(_FACTORIES)


def load(name: str, **params: Any) -> Any:
    """The OpenSpiel game ``name`` (``python_kanaloa``...) with ``params``, as ``pyspiel.load_game`` makes it
    (a parameter may also be an object its game's ``load_game`` takes, a ``Board``)."""
    make = _FACTORIES.get(name)
    if make is None:
        raise ValueError(f"game {name!r}: expected one of {', '.join(_FACTORIES)}")
    return make(params)


def game_for(ruleset: GameRules, seed: int = 0) -> Any:
    """The OpenSpiel game of any registered game's rule set, dealt from ``seed``: its ``openspiel`` face's."""
    return ruleset.game_type.face("openspiel")(ruleset, seed)


register()
