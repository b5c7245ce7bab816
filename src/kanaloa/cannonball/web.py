"""Cannonball Colony's part of the web app (R20): its ``web`` face (``kanaloa.interfaces.web.face``).

The page's module for the game is ``static/cannonball.js`` of this package,
served at ``/games/cannonball/`` with its style sheet: a click on a space of
the picture (the ``svg`` face's interactive spaces, ``data-space``) offers
the legal moves on that space, ``end`` and ``pass`` are buttons, and its tile
editor (the Editor mode) writes ``cannonball-tile/1`` files.  Nothing of the
rules is decided there: a view of a position carries what the page shows,

- ``targets``: the legal moves offered, by the space each is played on
  (``{"c2": ["road c2", "fort c2"], "d7": ["fire d7"]}``), and ``buttons``,
  those on no space (``end``, ``pass``), R20.4-R20.9;
- ``status``: whose turn it is, the round and what the turn has done
  (the terminal picture's lines, ``display.status_lines``), or the result;
- ``outcome_text``: once the game is over, who won and why (R20.10);
- ``standings``: each country in seat order, its color and a line on its
  ship, forts, cannons and blockade (R20.4, R20.7, R20.8).

A request's ``tiles`` (R20.2) are built-in tile names or the content of tile
files (a JSON object each), read by the same reader as a file on the command
line (the game's ``files`` face, ``island.TILE_FILES``: ``tile_from_dict``,
which ``load_tile`` uses); no request names a path.  A game dealt on tiles
sent with the request has no record: a record could name only built-in
tiles.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import BoardError, OptionError, brief
from ..interfaces.svgtags import COLOR_FILL
from ..interfaces.web.face import Position, WebFace
from ..rules.ruleset import Parameter, ParameterError
from .display import country_colors, status_lines
from .island import BUILTIN_TILES, TILE_FILES, TILE_FORMAT, TILE_LETTERS, Tile, load_tile
from .reference import blockades_built, cannons_built, cannons_earned
from .state import (
    BLOCKADE,
    BLOCKADES,
    CANNONS,
    END,
    FORTS,
    NO_SPACE,
    PASS,
    TERRAIN_LETTERS,
    TERRAIN_NAMES,
    TILE_SIZE,
    decode,
    space_name,
)
from .svg import TERRAIN_FILL

__all__ = ["WEB", "CannonballWeb", "tile_json"]

TILES_TAKE = "a list of built-in tile names and tile files' content (JSON objects)"  # a request's tiles


def tile_json(tile: Tile) -> dict[str, Any]:
    """A tile as its file holds it (``cannonball-tile/1``, docs/cannonball.md)."""
    doc: dict[str, Any] = {"format": TILE_FORMAT, "name": tile.name}
    if tile.description:
        doc["description"] = tile.description
    doc["rows"] = list(tile.rows)
    return doc


def tile_source(content: object) -> str:
    """The file name a tile sent as content is known by in messages: its name as a file name."""
    name = content.get("name") if isinstance(content, dict) else None
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", name if isinstance(name, str) else "").strip("-")[:40]
    return f"{stem or 'tile'}.json"


class CannonballWeb(WebFace):
    """Cannonball Colony's web face (module docstring)."""

    module = "cannonball.js"
    assets = ("kanaloa.cannonball", "static")
    style = "cannonball.css"
    # Nothing is hidden, so no bot needs to guess another's knowledge; pimc's determinisations would see
    # nothing new.
    bots = ("human", "random", "greedy", "ismcts:iterations=500", "hint:iterations=1000")
    files = TILE_FILES.kind  # the tiles, which the game's files face reads

    # -- views -------------------------------------------------------------------------------------

    def view(self, position: Position, moves: Sequence[str]) -> dict[str, Any]:
        d = position.data
        names = list(position.players)
        targets: dict[str, list[str]] = {}
        buttons: list[str] = []
        if moves:
            for action in position.legal_moves():
                kind, space = decode(action)
                text = position.move_of(action)
                if kind in (END, PASS):
                    buttons.append(text)
                else:
                    targets.setdefault(space_name(space, d.columns), []).append(text)
        outcome = position.outcome
        outcome_text = None if outcome is None else self.outcome_text(position.ruleset, outcome)
        status = f"Game over: {outcome_text}" if outcome_text else ". ".join(status_lines(d, names))
        return {"targets": targets, "buttons": buttons, "status": status, "outcome_text": outcome_text,
                "standings": self.standings(d, names)}

    @staticmethod
    def outcome_text(rules: Any, outcome: Mapping[str, Any]) -> str:
        """``france wins: a country has all 10 forts on the island (R20.10)``; a shared victory names every
        winner."""
        winners = list(outcome["winners"])
        why = f"{rules.reason_text(outcome['reason'])} ({rules.rule_of(outcome['reason'])})"
        if len(winners) == 1:
            return f"{winners[0]} wins: {why}"
        return f"{', '.join(winners[:-1])} and {winners[-1]} share the victory: {why}"

    @staticmethod
    def standings(d: Any, names: Sequence[str]) -> list[dict[str, Any]]:
        """Each country in seat order: its name, its color (as the picture draws it), its forts on the
        island and a line for people (R20.4, R20.7, R20.8)."""
        out = []
        for seat, (name, color) in enumerate(zip(names, country_colors(names), strict=True)):
            ship = d.ships[seat]
            landed = "not landed" if ship == NO_SPACE else f"ship on {space_name(ship, d.columns)}"
            forts = d.forts_on_island(seat)
            blockade = "no blockade"
            if d.earned[seat] & BLOCKADE:
                blockade = "blockade built" if blockades_built(d, seat) >= BLOCKADES else "blockade earned"
            text = (f"{name}: {forts} of {FORTS} forts on the island, {landed}, {cannons_earned(d, seat)} of "
                    f"{CANNONS} cannons earned, {cannons_built(d, seat)} built, {blockade}")
            out.append({"player": name, "color": COLOR_FILL.get(color, "#888888"), "forts": forts, "text": text})
        return out

    # -- requests ----------------------------------------------------------------------------------

    def request_value(self, parameter: str, value: object) -> object:
        if parameter != "tiles":
            return value
        if isinstance(value, str):
            value = [name.strip() for name in value.split(",")]
        if not isinstance(value, list):
            raise ParameterError("tiles", f"must be {TILES_TAKE}, not {brief(value)}")
        tiles: list[str | Tile] = []
        for entry in value:
            if isinstance(entry, dict):
                try:
                    tiles.append(TILE_FILES.from_dict(entry, tile_source(entry)))
                except BoardError as exc:
                    raise ParameterError("tiles", str(exc)) from None
            elif isinstance(entry, str) and entry in BUILTIN_TILES:
                tiles.append(entry)
            else:
                raise ParameterError("tiles", f"{brief(entry)} is not a built-in tile ({', '.join(BUILTIN_TILES)}), "
                                              f"and this server reads no file: a request sends a tile file's "
                                              f"content (a JSON object) instead")
        return tiles

    def request_takes(self, parameter: Parameter) -> str:
        if parameter.name == "tiles":
            return TILES_TAKE
        return parameter.takes

    def record_refusal(self, params: Mapping[str, object]) -> str | None:
        tiles = params.get("tiles")
        if isinstance(tiles, list) and any(isinstance(t, Tile) for t in tiles):
            return ("it was dealt on tiles sent with the request, and a record names built-in tiles only; "
                    "download the position instead")
        return None

    # -- tile files --------------------------------------------------------------------------------

    def describe_files(self) -> dict[str, Any]:
        """The tile editor's facts: the format, the size, the terrains a space may be with their letters
        and the picture's colors (R20.2), and the built-in tiles."""
        terrains = [{"letter": letter, "name": TERRAIN_NAMES[TERRAIN_LETTERS.index(letter)],
                     "fill": TERRAIN_FILL[TERRAIN_LETTERS.index(letter)]} for letter in TILE_LETTERS]
        return {"kind": self.files, "format": TILE_FORMAT, "size": TILE_SIZE, "terrains": terrains,
                "builtin": list(BUILTIN_TILES)}

    def builtin_file(self, name: str) -> dict[str, Any]:
        if name not in BUILTIN_TILES:
            raise OptionError(f"tile {brief(name)}: no such built-in tile ({', '.join(BUILTIN_TILES)})")
        return tile_json(load_tile(name))

    def check_file(self, content: object) -> dict[str, Any]:
        """A tile file's content read as ``load_tile`` reads a file (the files face's ``from_dict``): the file as the
        engine writes it, its name and what its spaces are; ``BoardError`` with the reader's message."""
        tile: Tile = TILE_FILES.from_dict(content, tile_source(content))
        letters = "".join(tile.rows)
        counts = ", ".join(f"{letters.count(letter)} {TERRAIN_NAMES[TERRAIN_LETTERS.index(letter)]}"
                           for letter in TILE_LETTERS if letter in letters)
        return {"file": tile_json(tile), "name": tile.name,
                "summary": f"tile {tile.name}: {TILE_SIZE} x {TILE_SIZE} spaces, {counts}"}


WEB = CannonballWeb()
