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

from ..rules.board import BoardError
from ..rules.core import CoreState, CutModel
from ..rules.registry import ParameterError, game_names, load_game
from ..rules.ruleset import Ruleset

MODELS_FILE = "cut_models.json"
MODELS_FORMAT = "kanaloa-cut-models/2"
FITTED_POLICY = "heuristic"  # the playout policy every model is fitted to
# The keys of an entry that say how it was fitted; the others (besides ``game``) are its rule set's parameters.
FITTING_KEYS = ("policy", "games", "seed", "samples", "records", "features", "win", "points")

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
    """The rule set's parameters an entry of ``cut_models.json`` names (``load_game(entry['game'], **them)``):
    every key but ``game`` and the fitting's own (``FITTING_KEYS``)."""
    return {k: v for k, v in entry.items() if k != "game" and k not in FITTING_KEYS}


def entry_rules(entry: dict[str, Any]) -> Ruleset:
    """The rule set an entry names; raises ``ValueError`` for a game this file cannot hold or bad parameters."""
    game = entry["game"]
    if not isinstance(game, str) or game not in game_names():
        raise ValueError(f"game: must be one of {', '.join(game_names())}, not {game!r}")
    try:
        rules = load_game(game, **entry_params(entry))
    except (ParameterError, BoardError) as exc:
        raise ValueError(str(exc)) from None
    except TypeError:
        raise ValueError(f"game: {game} takes none of {', '.join(sorted(entry_params(entry)))}") from None
    if not isinstance(rules, Ruleset):
        raise ValueError(f"game: {game}'s models are not in this file (its own core judges its rollouts)")
    return rules


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
            if entry["policy"] != FITTED_POLICY:
                raise ValueError(f"policy: must be {FITTED_POLICY!r}, the rollouts' policy")
            rules = entry_rules(entry)
            names = CutModel.feature_names(rules.code, rules.players)
            if entry["features"] != names:
                raise ValueError(f"features: must be {', '.join(names)}, the core's features in order")
            model = CutModel(rules.players, entry["win"], entry["points"], rules.code, rules.gods)
            for counted in ("games", "seed", "samples"):
                value = entry.get(counted, 0)
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    raise ValueError(f"{counted}: must be a whole number, 0 or more, not {value!r}")
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
