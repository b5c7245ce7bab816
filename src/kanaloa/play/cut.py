"""The models behind rollouts cut short (docs/engine.md "Rollouts cut short").

A search game with ``cut`` = N (``KanaloaGame``) stops each rollout after N
moves and scores the state it reached with a ``CutModel`` of the core: each
player's win chance (a softmax over the players of weighted features) and
expected final points (a weighted sum), with one set of weights per phase of
the game.  The features (``CutModel.feature_names``) describe each color's
standing, its board (islands one bridge from control, bridges another color
could sweep, links its hand can build on), its hand and its turn; with two
players a seat has the features of both its colors, the weaker first (R15.5).
The weights are fitted for one game, board, preset, gods and player count
from games of the core's heuristic playout policy, the policy the rollouts
play (``kanaloa.tools.cutfit``), and shipped in ``cut_models.json`` beside
this module: every rule set of Kanaloa on ``oro`` (2, 3 and 4 players, both
presets, with and without the gods, R13-R15) and Kahuna (R16).  Where no
model fits (another board, random rollouts), rollouts play to the end.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from ..rules.core import CoreState, CutModel
from ..rules.registry import game_type
from ..rules.ruleset import make_ruleset

MODELS_FILE = "cut_models.json"
MODELS_FORMAT = "kanaloa-cut-models/2"
FITTED_POLICY = "heuristic"  # the playout policy every model is fitted to
MODEL_GAMES = ("kanaloa", "kahuna")  # the games the file serves, in its order (kanaloa.play.cut_fit)

# (the rule set's code and gods, the board's links, cards per island, players, preset)
ModelKey = tuple[int, bool, tuple[tuple[int, int], ...], int, int, int]


def model_key(game: int, gods: bool, links: Any, cards_per_island: int, players: int, preset: int) -> ModelKey:
    """The key of the model for a game (``StateData.game``) with or without the gods, a board (its links and
    cards per island), player count and preset."""
    return game, bool(gods), tuple((int(a), int(b)) for a, b in links), cards_per_island, players, preset


def state_model_key(state: CoreState) -> ModelKey:
    """The key of the model for the game ``state`` plays."""
    board = state.board
    return model_key(state.game, state.gods, board.links, board.cards_per_island, state.players, state.preset)


def entry_params(entry: dict[str, Any]) -> dict[str, Any]:
    """The rule set's parameters an entry of ``cut_models.json`` names (``load_game(entry['game'], ...)``).

    An entry names every parameter of its game (``kanaloa.rules.registry``) but the colors: Kanaloa's players,
    preset, gods and board, Kahuna's players and board.  Those a game takes only at their neutral value
    (Kahuna's preset and gods, R16.9) are checked by the rule set when an entry names them, not ignored.
    Raises ``KeyError`` for a missing key (and ``ParameterError`` for a game that is not registered).
    """
    game = game_type(entry["game"])
    params = {p.name: entry[p.name] for p in game.parameters if p.name != "colors"}
    params.update({name: entry[name] for name in game.also_takes if name in entry})
    return params


def read_models(data: dict[str, Any]) -> dict[ModelKey, CutModel]:
    """The models of a ``cut_models.json`` document, keyed by ``model_key``.

    Raises ``ValueError`` naming the entry for a malformed document.
    """
    if not isinstance(data, dict) or data.get("format") != MODELS_FORMAT:
        raise ValueError(f"format: must be {MODELS_FORMAT!r}")
    entries = data.get("models")
    if not isinstance(entries, list):
        raise ValueError("models: must be a list")
    models: dict[ModelKey, CutModel] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise ValueError(f"models[{i}]: must be an object")
        try:
            if entry["game"] not in MODEL_GAMES:
                raise ValueError(f"game: must be one of {', '.join(MODEL_GAMES)}, not {entry['game']!r}")
            if entry["policy"] != FITTED_POLICY:
                raise ValueError(f"policy: must be {FITTED_POLICY!r}, the rollouts' policy")
            rules = make_ruleset(entry["game"], **entry_params(entry))
            names = CutModel.feature_names(rules.code, rules.players)
            if entry["features"] != names:
                raise ValueError(f"features: must be {', '.join(names)}, the core's features in order")
            model = CutModel(rules.players, entry["win"], entry["points"], rules.code, rules.gods)
        except KeyError as exc:
            raise ValueError(f"models[{i}]: {exc.args[0]} is missing") from None
        except (TypeError, ValueError) as exc:
            raise ValueError(f"models[{i}]: {exc}") from None
        board = rules.board
        key = model_key(rules.code, rules.gods, board.links, board.cards_per_island, model.players,
                        rules.preset_code)
        if key in models:
            raise ValueError(f"models[{i}]: a second model for {rules.describe()}")
        models[key] = model
    return models


@functools.cache
def shipped_models() -> dict[ModelKey, CutModel]:
    """The models shipped with the package (read once).  Raises ``ValueError`` naming the file and the entry
    when it is malformed."""
    text = resources.files("kanaloa.play").joinpath(MODELS_FILE).read_text("utf-8")
    try:
        return read_models(json.loads(text))
    except ValueError as exc:
        raise ValueError(f"{MODELS_FILE}: {exc}") from None


def cut_model_for(key: ModelKey) -> CutModel | None:
    """The shipped model for ``key`` (``model_key``), or None."""
    return shipped_models().get(key)
