"""Games for the tests of the web app's database: a table told a whole real game as its viewer writes it down,
and a Play game moved on by its bots and a person's random moves, through any HTTP client (Starlette's test
client, or ``urllib`` against a real ``kanaloa serve``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from kanaloa.position import Position
from viewer_helpers import record


def told_game(seed: int, players: int = 4, viewer: str = "green") -> tuple[list[str], list[str]]:
    """A seeded random game of Kanaloa as ``viewer`` follows it at a table: the hand dealt to ``viewer``, then
    every record it tells its table in order (each move as it writes it down, and the cards turned face-up
    whenever its view waits for them)."""
    rng = random.Random(seed)
    full = Position.new(players, seed=seed)
    hand = list(full.to_json()["hands"][viewer]["cards"])
    view = full.as_viewer(viewer)
    told: list[str] = []
    while not full.is_over:
        action = rng.choice(full.state.legal_actions())
        note = record(full, action, viewer)
        full.push(action)
        view.play(note)
        told.append(note)
        if view.waiting:
            shown = view.to_json()["face_up"]
            note = "faceup " + " ".join(full.to_json()["face_up"][len(shown):])
            view.play(note)
            told.append(note)
    return hand, told


Post = Callable[[str, dict[str, Any]], dict[str, Any]]


def next_play_step(view: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """The request that moves a Play game on from ``view``: a bot's move, or a person's random legal move
    (``(path suffix, body)``, the body naming the view's version); None once the game is over."""
    if view["outcome"]:
        return None
    if view["bot_to_move"]:
        return "bot", {"version": view["version"]}
    return "move", {"move": rng.choice(view["moves"]), "version": view["version"]}
