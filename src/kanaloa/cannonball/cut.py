"""Cannonball Colony's models of rollouts cut short: the shipped file and its reader (docs/cannonball.md).

A search game with ``cut`` = N (``kanaloa.cannonball.search``) stops each
heuristic rollout after N moves and judges the state it reached with a
``CutModel`` of the compiled core: each player's win chance (a softmax over
the players of weighted features) and expected final forts (a weighted sum
and a constant), with one set of weights per phase of the game (the landing
round, then seven parts of the road supply).  The features are the core's
``CutModel.feature_names()``: forts on the island and the tie-breaks (R20.10),
forts under fire and rival forts in one's own range (R20.9), cannons and the
blockade earned but not built (R20.8), the network, where roads and forts
may go now (R20.5-R20.7) and the turn order.

``cut_models.json`` beside this module holds one model per player count (2, 3
and 4) for the built-in tiles, fitted to the core's heuristic playout policy's
own games by ``python -m kanaloa.tools.cutfit --game cannonball``
(``kanaloa.cannonball.cut_fit``).  A model judges a game whose island is laid
from its tiles (each seat's tile one of them, turned any way, R20.2); on an
island of other tiles, with random rollouts or without the compiled core,
rollouts play to the end.

The file (``MODELS_FORMAT``)::

    {"format": "cannonball-cut-models/1", "models": [
      {"game": "cannonball", "players": 2, "tiles": ["bluffs", ...], "policy": "heuristic",
       "games": 40000, "seed": 20000000, "samples": ..., "features": ["forts", ...],
       "win": [[...11 numbers...], ... 8 rows], "points": [[...12 numbers...], ... 8 rows]}, ...]}
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Sequence
from importlib import resources
from typing import Any

from ..errors import brief
from ..rules.ruleset import ParameterError
from .core import CutModel
from .island import laid_grids, tile_form
from .ruleset import GAME, CannonballRules, make_cannonball

MODELS_FILE = "cut_models.json"
MODELS_FORMAT = "cannonball-cut-models/1"
FITTED_POLICY = "heuristic"  # the playout policy every model is fitted to, and the rollouts it judges play
ENTRY_COUNTS = ("games", "seed", "samples")  # how an entry was made: whole numbers, 0 or more

# (players, the forms of the tiles the model was fitted on, sorted: ``island.tile_form``)
ModelKey = tuple[int, tuple[tuple[str, ...], ...]]


def tiles_key(players: int, tiles: Sequence[Sequence[str]]) -> ModelKey:
    """The key of a model of ``players`` fitted on ``tiles`` (each a tile's rows, in any turn)."""
    return players, tuple(sorted(tile_form(rows) for rows in tiles))


def ruleset_key(rules: CannonballRules) -> ModelKey:
    return tiles_key(rules.players, [tile.rows for tile in rules.tiles])


def entry_rules(entry: dict[str, Any]) -> CannonballRules:
    """The rule set an entry of the file names (``players`` and ``tiles``); ``ValueError`` naming the field."""
    try:
        return make_cannonball(players=entry["players"], tiles=entry["tiles"])
    except ParameterError as exc:
        raise ValueError(str(exc)) from None


def read_entry(entry: object) -> tuple[ModelKey, Any]:
    """(key, model) of one entry of the file; ``ValueError`` naming its bad field (``KeyError`` for a missing
    one)."""
    if not isinstance(entry, dict):
        raise ValueError("must be an object")
    if entry["game"] != GAME:
        raise ValueError(f"game: must be {GAME!r}, not {brief(entry['game'])}")
    rules = entry_rules(entry)
    if entry["policy"] != FITTED_POLICY:
        raise ValueError(f"policy: must be {FITTED_POLICY!r}, the rollouts' policy, not {brief(entry['policy'])}")
    for name in ENTRY_COUNTS:
        value = entry[name]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name}: must be a whole number, 0 or more, not {brief(value)}")
    if CutModel is None:
        raise ValueError("the compiled core (cannonball_core) is not built; its models need it")
    names = list(CutModel.feature_names())
    if entry["features"] != names:
        raise ValueError(f"features: must be {', '.join(names)}, the core's features in order")
    return ruleset_key(rules), CutModel(rules.players, entry["win"], entry["points"])


def read_models(data: object) -> dict[ModelKey, Any]:
    """The models of a ``cut_models.json`` document, keyed by ``tiles_key``.

    Raises ``ValueError`` with one line naming the entry and the field: a wrong
    format, an entry that is no object, a missing key, another game, players
    or tiles the rule set refuses, another policy, counts that are no whole
    numbers, features other than the core's, malformed weights (``CutModel``),
    or a second model for the same players and tiles.
    """
    if not isinstance(data, dict) or data.get("format") != MODELS_FORMAT:
        raise ValueError(f"format: must be {MODELS_FORMAT!r}")
    entries = data.get("models")
    if not isinstance(entries, list):
        raise ValueError("models: must be a list")
    models: dict[ModelKey, Any] = {}
    for i, entry in enumerate(entries):
        try:
            key, model = read_entry(entry)
        except KeyError as exc:
            raise ValueError(f"models[{i}]: {exc.args[0]} is missing") from None
        except (TypeError, ValueError) as exc:
            raise ValueError(f"models[{i}]: {exc}") from None
        if key in models:
            raise ValueError(f"models[{i}]: a second model for {key[0]} players on the same tiles")
        models[key] = model
    return models


@functools.cache
def shipped_models() -> dict[ModelKey, Any]:
    """The models shipped with the package (read once; none without the compiled core).  Raises ``ValueError``
    naming the file and the entry when it is malformed."""
    if CutModel is None:
        return {}
    text = resources.files("kanaloa.cannonball").joinpath(MODELS_FILE).read_text("utf-8")
    try:
        return read_models(json.loads(text))
    except ValueError as exc:
        raise ValueError(f"{MODELS_FILE}: {exc}") from None


def island_fits(key: ModelKey, players: int, terrain: Sequence[int]) -> bool:
    """Whether an island of ``players`` with ``terrain`` is laid from the tiles of the model ``key``: each
    seat's tile one of them, turned any way, no tile twice (R20.1, R20.2)."""
    if key[0] != players:
        return False
    laid = Counter(tile_form(grid) for grid in laid_grids(players, terrain))
    return not laid - Counter(key[1])


def model_for_island(players: int, terrain: Sequence[int]) -> Any:
    """The shipped model for a game of ``players`` on an island with ``terrain``, or None."""
    for key, model in shipped_models().items():
        if island_fits(key, players, terrain):
            return model
    return None
