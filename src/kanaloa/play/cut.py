"""The models behind rollouts cut short (docs/engine.md "Rollouts cut short").

A search game with ``cut`` = N (``KanaloaGame``) stops each rollout after N
moves and scores the state it reached with a ``CutModel`` of the core: each
player's win chance (a softmax over the players of weighted features) and
expected final points (a weighted sum), with one set of weights per phase of
the game.  The weights are fitted for one board and player count from games
of the core's heuristic playout policy, the policy the rollouts play
(``kanaloa.tools.cutfit``), and shipped in ``cut_models.json`` beside this
module.  Where no model fits (another board, two players, the gods, Kahuna),
rollouts play to the end.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from ..rules.board import load_board
from ..rules.core import CutModel

MODELS_FILE = "cut_models.json"
MODELS_FORMAT = "kanaloa-cut-models/1"

Links = tuple[tuple[int, int], ...]


def read_models(data: dict[str, Any]) -> dict[tuple[Links, int], CutModel]:
    """The models of a ``cut_models.json`` document, keyed by (the board's links, players).

    Raises ``ValueError`` naming the entry for a malformed document.
    """
    if not isinstance(data, dict) or data.get("format") != MODELS_FORMAT:
        raise ValueError(f"format: must be {MODELS_FORMAT!r}")
    entries = data.get("models")
    if not isinstance(entries, list):
        raise ValueError("models: must be a list")
    models: dict[tuple[Links, int], CutModel] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise ValueError(f"models[{i}]: must be an object")
        try:
            board = load_board(entry["board"])
            model = CutModel(entry["players"], entry["win"], entry["points"])
        except KeyError as exc:
            raise ValueError(f"models[{i}]: {exc.args[0]} is missing") from None
        except ValueError as exc:
            raise ValueError(f"models[{i}]: {exc}") from None
        key = (tuple(board.links), model.players)
        if key in models:
            raise ValueError(f"models[{i}]: a second model for {entry['board']} with {model.players} players")
        models[key] = model
    return models


@functools.cache
def shipped_models() -> dict[tuple[Links, int], CutModel]:
    """The models shipped with the package (read once)."""
    text = resources.files("kanaloa.play").joinpath(MODELS_FILE).read_text("utf-8")
    return read_models(json.loads(text))


def cut_model_for(links: Links, players: int) -> CutModel | None:
    """The shipped model for a board (by its links) and player count, or None."""
    return shipped_models().get((tuple(map(tuple, links)), players))  # type: ignore[arg-type]
