"""Cannonball Colony's positions and moves (R20): the JSON document of a state, and the move notation.

The document (docs/cannonball.md "Positions and moves" shows one)::

    {"format": "kanaloa-position/1", "game": "cannonball",
     "players": ["france", "spain"], "to_move": "spain", "round": "play", "seed": 7,
     "island": {"columns": 6, "rows": ["gggfgg", ...]},
     "ships": {"france": "a3", "spain": "f10"}, "roads": ["a3", "b3"],
     "forts": {"france": ["b3"], "spain": []}, "cannons": {"france": [], "spain": []},
     "blockades": {}, "earned": {"france": [], "spain": []},
     "supply": 48, "turn": {"fired": false, "grass_roads": 0}, "passes": 0}

- ``players``: 2-4 distinct countries (``state.COUNTRIES``) in seat order
  (R20.3); seat 0 moves first.  Every field naming a player names one of them.
- ``island``: ``columns`` and the ``rows`` top row first, one letter a space
  (``g`` grass, ``f`` forest, ``l`` lake, ``m`` mountain, ``.`` outside).
  Which landing board a space is on is not written: it follows from the
  island's size and the player count, as ``island.tile_origins`` lays the
  tiles (R20.1), so the size must be the player count's and the ``.`` spaces
  exactly the layout's spaces outside every tile.
- Spaces are named like ``c7`` (``state.space_name``; any case on input).
- ``ships``: each landed ship's space (a seat that found no landing space has
  none, and a seat without one must be such a seat: checked against the
  ships that had landed before it); ``roads``; ``forts`` and ``cannons``: lists per player;
  ``blockades``: one space per player that built it; ``earned``: the earned
  pieces per player (``cannon1``, ``cannon2``, ``blockade``, R20.8).  The
  piece fields are optional on input (empty by default).
- ``supply``: road tiles left; with the roads on the island it makes the
  player count's total (R20.3).
- ``turn``: ``{"fired": bool, "grass_roads": 0|1}`` (R20.6), both optional
  (false, 0); absent once the game is over.
- ``passes``: our own addition, the turns in a row that ended with a pass and
  no shot (R20.10, ``CannonballData.passes``); optional, 0 by default.
- ``result`` (only when ``round`` is ``"over"``, and then required):
  ``{"winners": [...], "ranking": [...], "reason": "ten-forts" | "supply" |
  "all-passed"}``; ``to_move`` is then null.

``format`` is the name Kanaloa's positions use (``kanaloa.position.format.FORMAT``),
and text is read as they read it (``parse_json``).

Reading refuses, with a ``PositionError`` of one line naming the field and
why: unknown fields, a key twice in one object (text input, read as
``kanaloa.rules.jsontext`` reads it), wrong types, names and spaces, a piece
on a lake or a mountain or off the island, two pieces on one space, a ship off
its own landing board or placed against the landing rule (R20.4), more than
10 forts, earned pieces short of what the pieces show (built cannons and
blockade; 3, 6, 8 forts on the island uncover cannon1, cannon2, blockade on
the mat, R20.8), a supply that does not add up, and a ``result`` that
disagrees with the pieces (R20.10).  What forts once stood is not known (forts
can be shot), so earned pieces beyond that are accepted.

The notation (docs/cannonball.md "Positions and moves"): ``land c1``, ``fire d7``, ``road c2``,
``fort c2``, ``cannon e4``, ``blockade f5``, ``end``, ``pass``, optionally
prefixed by the mover's name (``france: road c2``).  ``parse_move`` reads the
words and the space only; ``why_not`` adds the rules' reason
(``reference.why_illegal``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from kanaloa.cannonball import reference
from kanaloa.cannonball.island import tile_origins
from kanaloa.cannonball.state import (
    ACTION_WORDS,
    BLOCKADE,
    CANNON_1,
    CANNON_2,
    CANNONS,
    COUNTRIES,
    EARNED_AT,
    EARNED_NAMES,
    EARNED_PIECES,
    END,
    FOREST,
    FORTS,
    GRASS,
    LANDING_SPACING,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NO_SPACE,
    NOBODY,
    OUTSIDE,
    PASS,
    REASON_ALL_PASSED,
    REASON_NAMES,
    REASON_NONE,
    REASON_SUPPLY,
    REASON_TEN_FORTS,
    ROAD_TILES,
    ROUND_LANDING,
    ROUND_NAMES,
    ROUND_OVER,
    TERRAIN_LETTERS,
    TERRAIN_NAMES,
    TILE_SIZE,
    CannonballData,
    decode,
    encode,
    parse_space,
    space_name,
)
from kanaloa.errors import MoveError, PositionError, brief, quote
from kanaloa.position.format import FORMAT, field_key, is_int, json_type, parse_json

__all__ = ["FORMAT", "GAME", "move_text", "parse_move", "read_position", "why_not", "write_position"]

GAME = "cannonball"
FIELDS = ("format", "game", "players", "to_move", "round", "seed", "island", "ships", "roads", "forts", "cannons",
          "blockades", "earned", "supply", "turn", "passes", "result")
REQUIRED = ("format", "game", "players", "to_move", "round", "seed", "island", "supply")
_EARNED_OF_NAME = {name: bit for bit, name in EARNED_NAMES.items()}


def _fail(field: str, why: str) -> PositionError:
    return PositionError(f"{field}: {why}")



def parse_text(text: str | bytes | bytearray) -> Any:
    """Position text as JSON, read as Kanaloa's positions read it; a ``PositionError`` for anything else."""
    return parse_json(text)


# -- the layout (R20.1) ---------------------------------------------------------------------------------


def layout_boards(players: int) -> tuple[int, int, list[int]]:
    """``(columns, rows, board_of)`` of the R20.1 layout for ``players``: each seat's 6 x 6 block is its
    landing board, as ``island.place_tiles`` lays the tiles; every other space is on nobody's board."""
    columns, rows, origins = tile_origins(players)
    board_of = [NOBODY] * (columns * rows)
    for seat, (left, bottom) in enumerate(origins):
        for row in range(bottom, bottom + TILE_SIZE):
            for column in range(left, left + TILE_SIZE):
                board_of[row * columns + column] = seat
    return columns, rows, board_of


# -- reading ----------------------------------------------------------------------------------------------


def read_position(doc: dict[str, Any] | str | bytes | bytearray) -> tuple[tuple[str, ...], CannonballData]:
    """The countries in seat order and the state a position document holds (module docstring).

    ``doc`` is the parsed document or its JSON text.  Raises ``PositionError``
    naming the first bad field and why.
    """
    if isinstance(doc, (str, bytes, bytearray)):
        doc = parse_text(doc)
    return _Reader().read(doc)


class _Reader:
    """Reads one document, field by field, into ``self.d``."""

    countries: tuple[str, ...]
    d: CannonballData

    def read(self, doc: Any) -> tuple[tuple[str, ...], CannonballData]:
        if not isinstance(doc, dict):
            raise _fail("position", f"must be a JSON object, not {json_type(doc)}")
        for key in doc:
            if key not in FIELDS:
                raise _fail(field_key(key), f"unknown field (the fields are {', '.join(FIELDS)})")
        for key in REQUIRED:
            if key not in doc:
                raise _fail(key, "missing")
        if doc["format"] != FORMAT:
            raise _fail("format", f"{brief(doc['format'])} is not {brief(FORMAT)}")
        if doc["game"] != GAME:
            raise _fail("game", f"{brief(doc['game'])} is not {brief(GAME)}; this reader reads Cannonball Colony")
        self.countries = self._players(doc["players"])
        players = len(self.countries)
        rnd = self._round(doc["round"])
        columns, rows, terrain, board_of = self._island(doc["island"], players)
        self.d = d = CannonballData.start(players, columns, rows, terrain, board_of, self._seed(doc["seed"]))
        d.round, d.to_move = rnd, self._to_move(doc["to_move"], rnd)
        self._ships(doc.get("ships", {}))
        self._roads(doc.get("roads", []))
        self._forts(doc.get("forts", {}))
        self._pieces("cannons", doc.get("cannons", {}), CANNONS, self.d.cannon)
        self._blockades(doc.get("blockades", {}))
        self._earned(doc.get("earned", {}))
        self._supply(doc["supply"])
        self._turn(doc)
        self._passes(doc.get("passes", 0))
        self._result(doc)
        return self.countries, d

    # -- names and spaces

    def _country(self, field: str, value: Any) -> int:
        """The seat of the player ``value`` names."""
        if not isinstance(value, str):
            raise _fail(field, f"must be a player's name, not {json_type(value)}")
        if value not in self.countries:
            raise _fail(field, f"{brief(value)} is not a player ({', '.join(self.countries)})")
        return self.countries.index(value)

    def _space(self, field: str, value: Any) -> int:
        """The island space ``value`` names (R20.1)."""
        d = self.d
        if not isinstance(value, str):
            raise _fail(field, f"must be a space like c7, not {json_type(value)}")
        space = parse_space(value.lower(), d.columns, d.rows)
        if space is None:
            last = chr(ord("a") + d.columns - 1)
            raise _fail(field, f"{brief(value)} is not a space of the island (columns a-{last}, rows 1-{d.rows})")
        if d.terrain[space] == OUTSIDE:
            raise _fail(field, f"{self._name(space)} is outside the island (a '.' of island.rows)")
        return space

    def _name(self, space: int) -> str:
        return space_name(space, self.d.columns)

    def _what(self, space: int) -> str:
        return f"a {TERRAIN_NAMES[self.d.terrain[space]]}"

    def _per_player(self, field: str, value: Any) -> list[tuple[int, str, Any]]:
        """``(seat, field name, entry)`` of an object keyed by player, in seat order."""
        if not isinstance(value, dict):
            raise _fail(field, f"must be an object keyed by player, not {json_type(value)}")
        entries = []
        for key, entry in value.items():
            if key not in self.countries:
                raise _fail(field, f"{brief(key)} is not a player ({', '.join(self.countries)})")
            entries.append((self.countries.index(key), f"{field}.{key}", entry))
        return sorted(entries, key=lambda item: item[0])

    def _space_list(self, field: str, value: Any) -> list[int]:
        if not isinstance(value, list):
            raise _fail(field, f"must be a list of spaces, not {json_type(value)}")
        spaces: list[int] = []
        for i, entry in enumerate(value):
            space = self._space(f"{field}[{i}]", entry)
            if space in spaces:
                raise _fail(field, f"{self._name(space)} twice")
            spaces.append(space)
        return spaces

    def _occupant(self, space: int) -> str | None:
        """What already stands on ``space`` (a ship or a piece), for the one-piece-a-space check."""
        d = self.d
        for seat, ship in enumerate(d.ships):
            if ship == space:
                return f"{self.countries[seat]}'s ship"
        for label, owners in (("fort", d.fort), ("cannon", d.cannon), ("blockade", d.blockade)):
            if owners[space] != NOBODY:
                return f"{self.countries[owners[space]]}'s {label}"
        return None

    def _place(self, field: str, space: int, piece: str) -> None:
        """Check that a ``piece`` may stand on ``space``: a road, and nothing else there (R20.6)."""
        where = self._name(space)
        if not self.d.road[space]:
            raise _fail(field, f"{where} has no road; a {piece} stands on a road (R20.6)")
        other = self._occupant(space)
        if other is not None:
            raise _fail(field, f"{where} holds {other}; one piece a space (R20.6)")

    # -- the fields

    def _players(self, value: Any) -> tuple[str, ...]:
        allowed = ", ".join(COUNTRIES)
        if not isinstance(value, list) or not MIN_PLAYERS <= len(value) <= MAX_PLAYERS:
            count = len(value) if isinstance(value, list) else 0
            shown = f"{count} entr{'y' if count == 1 else 'ies'}" if isinstance(value, list) else json_type(value)
            raise _fail("players", f"must list {MIN_PLAYERS} to {MAX_PLAYERS} countries ({allowed}) in seat order, "
                                   f"not {shown} (R20.3)")
        for i, name in enumerate(value):
            if not isinstance(name, str) or name not in COUNTRIES:
                raise _fail(f"players[{i}]", f"{brief(name)} is not a country ({allowed}) (R20.3)")
            if name in value[:i]:
                raise _fail("players", f"{name} twice")
        return tuple(value)

    def _round(self, value: Any) -> int:
        if not isinstance(value, str) or value not in ROUND_NAMES:
            raise _fail("round", f"{brief(value)} is not one of {', '.join(map(repr, ROUND_NAMES))}")
        return ROUND_NAMES.index(value)

    def _seed(self, value: Any) -> int:
        if not is_int(value) or not 0 <= value < 2**64:
            raise _fail("seed", f"must be a whole number from 0 to 2**64-1, not {brief(value)}")
        return int(value)

    def _to_move(self, value: Any, rnd: int) -> int:
        if rnd == ROUND_OVER:
            if value is not None:
                raise _fail("to_move", f"{brief(value)}, but the game is over; to_move is then null")
            return NOBODY
        if value is None:
            raise _fail("to_move", "null, but the game is not over; name the player to move")
        return self._country("to_move", value)

    def _island(self, value: Any, players: int) -> tuple[int, int, list[int], list[int]]:
        """``(columns, rows, terrain, board_of)`` of the ``island`` field, checked against the layout (R20.1)."""
        if not isinstance(value, dict):
            raise _fail("island", f"must be an object {{\"columns\": C, \"rows\": [...]}}, not {json_type(value)}")
        for key in value:
            if key not in ("columns", "rows"):
                raise _fail(f"island.{field_key(key)}", "unknown field (island has columns, rows)")
        for key in ("columns", "rows"):
            if key not in value:
                raise _fail(f"island.{key}", "missing")
        columns, lines = value["columns"], value["rows"]
        if not is_int(columns) or columns < 1:
            raise _fail("island.columns", f"must be a whole number of columns, not {brief(columns)}")
        if not isinstance(lines, list):
            raise _fail("island.rows", f"must be a list of rows, top row first, not {json_type(lines)}")
        allowed = ", ".join(f"{letter} ({name})" for letter, name in zip(TERRAIN_LETTERS, TERRAIN_NAMES, strict=True))
        for r, line in enumerate(lines):
            if not isinstance(line, str):
                raise _fail(f"island.rows[{r}]", f"must be a string of {columns} letters, not {json_type(line)}")
            if len(line) != columns:
                raise _fail(f"island.rows[{r}]", f"{len(line)} letter{'' if len(line) == 1 else 's'}, but the island "
                                                 f"has {columns} columns")
            for c, letter in enumerate(line):
                if letter not in TERRAIN_LETTERS:
                    raise _fail(f"island.rows[{r}]", f"letter {c + 1} is {brief(letter)}; a space is {allowed}")
        rows = len(lines)
        want_columns, want_rows, board_of = layout_boards(players)
        if (columns, rows) != (want_columns, want_rows):
            raise _fail("island", f"{columns} columns x {rows} rows, but {players} players play on "
                                  f"{want_columns} columns x {want_rows} rows (R20.1)")
        terrain = [OUTSIDE] * (columns * rows)
        for r, line in enumerate(lines):
            row = rows - 1 - r
            for c, letter in enumerate(line):
                space = row * columns + c
                terrain[space] = TERRAIN_LETTERS.index(letter)
                owner = board_of[space]
                where = space_name(space, columns)
                if letter == "." and owner != NOBODY:
                    raise _fail(f"island.rows[{r}]", f"{where} is '.', but it is on {self.countries[owner]}'s "
                                                     f"landing board; a tile has no space outside (R20.1)")
                if letter != "." and owner == NOBODY:
                    raise _fail(f"island.rows[{r}]", f"{where} is {letter!r}, but the {players}-player layout "
                                                     f"leaves it outside the island, on no tile (R20.1)")
        return columns, rows, terrain, board_of

    def _ships(self, value: Any) -> None:
        """Each landed ship, checked against the landing rule (R20.4): its own board, grass or forest, the
        island's edge, no other board touched, more than 4 steps from every other ship; in the landing round
        only the seats before the mover have landed."""
        d = self.d
        for seat, field, entry in self._per_player("ships", value):
            space = self._space(field, entry)
            where, who = self._name(space), self.countries[seat]
            if d.round == ROUND_LANDING and seat >= d.to_move:
                raise _fail(field, f"{who} has not landed yet: the seats land in seat order and "
                                   f"{self.countries[d.to_move]} is to land (R20.4)")
            owner = d.board_of[space]
            if owner != seat:
                raise _fail(field, f"{where} is on {self.countries[owner]}'s landing board; {who} lands on "
                                   f"its own (R20.4)")
            if d.terrain[space] not in (GRASS, FOREST):
                raise _fail(field, f"{where} is {self._what(space)}; a ship lands on grass or forest (R20.4)")
            if not reference.on_edge(d, space):
                raise _fail(field, f"{where} is not on the island's edge (R20.4)")
            if reference.touches_other_board(d, space, seat):
                raise _fail(field, f"{where} touches another player's landing board (R20.4)")
            for other, ship in enumerate(d.ships):
                if ship != NO_SPACE and reference.manhattan(d, space, ship) <= LANDING_SPACING:
                    raise _fail(field, f"{where} is {reference.manhattan(d, space, ship)} steps from "
                                       f"{self.countries[other]}'s ship at {self._name(ship)}; ships land more "
                                       f"than {LANDING_SPACING} apart (R20.4)")
            d.ships[seat] = space
        self._no_ship_without_reason()

    def _no_ship_without_reason(self) -> None:
        """A seat that has landed (in seat order, R20.4) and has no ship is one that found no landing space
        when its turn to land came, with the ships of the seats before it on the island: checked."""
        d = self.d
        for seat in range(d.to_move if d.round == ROUND_LANDING else d.players):
            if d.ships[seat] != NO_SPACE:
                continue
            then = d.copy()
            then.ships = [ship if other < seat else NO_SPACE for other, ship in enumerate(d.ships)]
            free = reference.landing_spaces(then, seat)
            if free:
                who = self.countries[seat]
                shown = ", ".join(self._name(space) for space in free[:3]) + (", ..." if len(free) > 3 else "")
                raise _fail(f"ships.{who}", f"missing, but {who} had landing spaces when its turn to land came "
                                            f"({shown}); only a country that found none has no ship (R20.4)")

    def _roads(self, value: Any) -> None:
        d = self.d
        spaces = self._space_list("roads", value)
        if spaces and d.round == ROUND_LANDING:
            raise _fail("roads", "nothing is built in the landing round (R20.4)")
        for space in spaces:
            if d.terrain[space] not in (GRASS, FOREST):
                raise _fail("roads", f"{self._name(space)} is {self._what(space)}; roads go on grass or "
                                     f"forest (R20.6)")
            d.road[space] = True

    def _pieces(self, key: str, value: Any, most: int, owners: list[int]) -> None:
        """``forts`` or ``cannons``: each player's list of spaces, at most ``most`` of them (R20.3), each
        space's owner written into ``owners``."""
        piece = key[:-1]
        for seat, field, entry in self._per_player(key, value):
            spaces = self._space_list(field, entry)
            if len(spaces) > most:
                raise _fail(field, f"{len(spaces)} {key}; a player has {most} (R20.3)")
            for space in spaces:
                self._place(field, space, piece)
                owners[space] = seat

    def _forts(self, value: Any) -> None:
        d = self.d
        self._pieces("forts", value, FORTS, d.fort)
        for seat, who in enumerate(self.countries):
            if d.forts_on_island(seat) == FORTS and d.round != ROUND_OVER:
                raise _fail(f"forts.{who}", f"all {FORTS} forts on the island, but the game is not over; "
                                            f"the tenth ends it (R20.10)")

    def _blockades(self, value: Any) -> None:
        d = self.d
        for seat, field, entry in self._per_player("blockades", value):
            space = self._space(field, entry)
            self._place(field, space, "blockade")
            d.blockade[space] = seat

    def _earned(self, value: Any) -> None:
        """The earned pieces (R20.8), at least what the pieces on the island show."""
        d = self.d
        names = ", ".join(EARNED_NAMES[bit] for bit in EARNED_PIECES)
        for seat, field, entry in self._per_player("earned", value):
            if not isinstance(entry, list):
                raise _fail(field, f"must be a list of earned pieces ({names}), not {json_type(entry)}")
            for i, name in enumerate(entry):
                if not isinstance(name, str) or name not in _EARNED_OF_NAME:
                    raise _fail(f"{field}[{i}]", f"{brief(name)} is not an earned piece ({names}) (R20.8)")
                bit = _EARNED_OF_NAME[name]
                if d.round == ROUND_LANDING:
                    raise _fail(field, "nothing is earned in the landing round (R20.4, R20.8)")
                if d.earned[seat] & bit:
                    raise _fail(field, f"{name} twice")
                d.earned[seat] |= bit
        for seat, who in enumerate(self.countries):
            field, bits = f"earned.{who}", d.earned[seat]
            if bits & CANNON_2 and not bits & CANNON_1:
                raise _fail(field, "cannon2 without cannon1; the 3rd fort earns cannon1 before the 6th earns "
                                   "cannon2 (R20.8)")
            if bits & BLOCKADE and not bits & CANNON_2:
                raise _fail(field, "blockade without cannon2; the 6th fort earns cannon2 before the 8th earns "
                                   "the blockade (R20.8)")
            forts = d.forts_on_island(seat)
            for bit in EARNED_PIECES:
                if forts >= EARNED_AT[bit] and not bits & bit:
                    raise _fail(field, f"{who} has {forts} forts on the island, so its mat has shown "
                                       f"{EARNED_NAMES[bit]} (R20.8)")
            cannons = reference.cannons_built(d, seat)
            earned = reference.cannons_earned(d, seat)
            if cannons > earned:
                raise _fail(f"cannons.{who}", f"{cannons} cannons but {who} has earned {earned} (R20.8)")
            if reference.blockades_built(d, seat) and not bits & BLOCKADE:
                raise _fail(f"blockades.{who}", f"{who} has not earned its blockade (R20.8)")

    def _supply(self, value: Any) -> None:
        d = self.d
        total = ROAD_TILES[d.players]
        if not is_int(value) or not 0 <= value <= total:
            raise _fail("supply", f"must be a whole number of road tiles from 0 to {total}, not {brief(value)}")
        laid = sum(d.road)
        if value + laid != total:
            raise _fail("supply", f"{value} road tiles left and {laid} on the island make {value + laid}; "
                                  f"the game has {total} (R20.3)")
        if value == 0 and d.round != ROUND_OVER:
            raise _fail("supply", "0 road tiles left, but the game is not over; the last road ends it (R20.10)")
        d.supply = value

    def _turn(self, doc: dict[str, Any]) -> None:
        d = self.d
        if d.round == ROUND_OVER:
            if "turn" in doc:
                raise _fail("turn", "the game is over; a finished game has no turn")
            return
        value = doc.get("turn", {})
        if not isinstance(value, dict):
            raise _fail("turn", f"must be an object {{\"fired\": ..., \"grass_roads\": ...}}, not "
                                f"{json_type(value)}")
        for key in value:
            if key not in ("fired", "grass_roads"):
                raise _fail(f"turn.{field_key(key)}", "unknown field (turn has fired, grass_roads)")
        fired, grass = value.get("fired", False), value.get("grass_roads", 0)
        if not isinstance(fired, bool):
            raise _fail("turn.fired", f"must be true or false, not {brief(fired)}")
        if not is_int(grass) or grass not in (0, 1):
            raise _fail("turn.grass_roads", f"must be 0 or 1, not {brief(grass)}")
        who = self.countries[d.to_move]
        if d.round == ROUND_LANDING and (fired or grass):
            field = "turn.fired" if fired else "turn.grass_roads"
            raise _fail(field, "the landing round has no shots and no roads (R20.4)")
        if fired and not reference.cannons_built(d, d.to_move):
            raise _fail("turn.fired", f"true, but {who} has no cannon on the island (R20.6)")
        d.fired, d.grass_roads = fired, grass
        if grass and not reference.second_roads(d, d.to_move):
            raise _fail("turn.grass_roads", f"1, but {who} has no second grass road to lay; the turn would "
                                            f"have ended (R20.6)")

    def _passes(self, value: Any) -> None:
        d = self.d
        if not is_int(value) or not 0 <= value <= d.players:
            raise _fail("passes", f"must be a whole number from 0 to {d.players}, not {brief(value)}")
        if d.round == ROUND_LANDING and value:
            raise _fail("passes", "the landing round counts no passes (R20.10)")
        if value == d.players and d.round != ROUND_OVER:
            raise _fail("passes", f"{value}: every player has passed, so the game is over (R20.10)")
        d.passes = value

    def _result(self, doc: dict[str, Any]) -> None:
        d = self.d
        if d.round != ROUND_OVER:
            if "result" in doc:
                raise _fail("result", "only once the game is over (round \"over\")")
            return
        if "result" not in doc:
            raise _fail("result", "missing; a finished game has one")
        value = doc["result"]
        if not isinstance(value, dict):
            raise _fail("result", f"must be an object, not {json_type(value)}")
        for key in value:
            if key not in ("winners", "ranking", "reason"):
                raise _fail(f"result.{field_key(key)}", "unknown field (result has winners, ranking, reason)")
        for key in ("winners", "ranking", "reason"):
            if key not in value:
                raise _fail(f"result.{key}", "missing")
        reason = value["reason"]
        if not isinstance(reason, str) or reason not in REASON_NAMES:
            raise _fail("result.reason", f"{brief(reason)} is not one of {', '.join(map(repr, REASON_NAMES))}")
        d.reason = REASON_NAMES.index(reason)
        lists = {}
        for key in ("winners", "ranking"):
            names = value[key]
            if not isinstance(names, list):
                raise _fail(f"result.{key}", f"must be a list of players, not {json_type(names)}")
            seats = [self._country(f"result.{key}[{i}]", name) for i, name in enumerate(names)]
            lists[key] = seats
        if d.reason == REASON_TEN_FORTS and not any(d.forts_on_island(s) == FORTS for s in range(d.players)):
            raise _fail("result.reason", f"ten-forts, but nobody has {FORTS} forts on the island (R20.10)")
        if d.reason == REASON_SUPPLY and d.supply != 0:
            raise _fail("result.reason", f"supply, but {d.supply} road tiles are left (R20.10)")
        if d.reason == REASON_ALL_PASSED and d.passes != d.players:
            raise _fail("result.reason", f"all-passed, but passes is {d.passes}, not {d.players} (R20.10)")
        if d.reason != REASON_ALL_PASSED and d.passes == d.players:
            raise _fail("result.reason", f"{reason}, but passes is {d.passes}: every player passed, so the game "
                                         f"ended all-passed (R20.10)")
        winners, ranking = reference.decide(d)
        for key, want in (("winners", winners), ("ranking", ranking)):
            if lists[key] != want:
                shown = [self.countries[s] for s in want]
                raise _fail(f"result.{key}", f"{brief([self.countries[s] for s in lists[key]])}, but the pieces on "
                                             f"the island give {brief(shown)} (R20.10)")
        d.winners, d.ranking = winners, ranking


# -- writing ----------------------------------------------------------------------------------------------


def write_position(countries: Sequence[str], d: CannonballData) -> dict[str, Any]:
    """The position document of ``d``, the players named by ``countries`` in seat order (module docstring).

    The output is canonical: spaces in space order (``a1``, ``b1``, ... the
    bottom row first), every player under ``forts``, ``cannons`` and
    ``earned``, ``ships`` and ``blockades`` for those that have one, earned
    pieces in the order cannon1, cannon2, blockade.
    """
    names = tuple(countries)

    def name(space: int) -> str:
        return space_name(space, d.columns)

    def owned(owners: list[int], seat: int) -> list[str]:
        return [name(space) for space in range(d.spaces) if owners[space] == seat]

    doc: dict[str, Any] = {
        "format": FORMAT,
        "game": GAME,
        "players": list(names),
        "to_move": None if d.round == ROUND_OVER else names[d.to_move],
        "round": ROUND_NAMES[d.round],
        "seed": d.seed,
        "island": {"columns": d.columns, "rows": _island_rows(d)},
        "ships": {names[seat]: name(ship) for seat, ship in enumerate(d.ships) if ship != NO_SPACE},
        "roads": [name(space) for space in range(d.spaces) if d.road[space]],
        "forts": {names[seat]: owned(d.fort, seat) for seat in range(d.players)},
        "cannons": {names[seat]: owned(d.cannon, seat) for seat in range(d.players)},
        "blockades": {names[seat]: owned(d.blockade, seat)[0] for seat in range(d.players)
                      if seat in d.blockade},
        "earned": {names[seat]: [EARNED_NAMES[bit] for bit in EARNED_PIECES if d.earned[seat] & bit]
                   for seat in range(d.players)},
        "supply": d.supply,
    }
    if d.round != ROUND_OVER:
        doc["turn"] = {"fired": d.fired, "grass_roads": d.grass_roads}
    doc["passes"] = d.passes
    if d.round == ROUND_OVER:
        doc["result"] = {"winners": [names[s] for s in d.winners], "ranking": [names[s] for s in d.ranking],
                         "reason": REASON_NAMES[d.reason] if d.reason != REASON_NONE else None}
    return doc


def _island_rows(d: CannonballData) -> list[str]:
    return ["".join(TERRAIN_LETTERS[d.terrain[row * d.columns + column]] for column in range(d.columns))
            for row in range(d.rows - 1, -1, -1)]


# -- the notation ----------------------------------------------------------------------------------------

SPACE_WORDS = ACTION_WORDS[:END]  # the words that name a space: land, fire, road, fort, cannon, blockade


def _move_fail(text: str, why: str) -> MoveError:
    return MoveError(f"move {quote(text)}: {why}")


def parse_move(text: str, countries: Sequence[str], d: CannonballData) -> int:
    """The action (``state.encode``) a move in notation names, e.g. ``road c2`` or ``france: fort c2``.

    Words and spaces are read in any case.  Only the form is checked, and the
    prefix, when given, must be the mover's name; legality is ``why_not``'s.
    Raises ``MoveError`` naming the move and why.
    """
    if not isinstance(text, str):
        raise MoveError(f"move: must be text, not {json_type(text)}")
    names = tuple(countries)
    body = text
    if ":" in text:
        prefix, body = text.split(":", 1)
        who = prefix.strip().lower()
        if who not in names:
            raise _move_fail(text, f"{brief(prefix.strip())} is not a player ({', '.join(names)})")
        if d.round == ROUND_OVER:
            raise _move_fail(text, "the game is over; nobody is to move (R20.10)")
        if who != names[d.to_move]:
            raise _move_fail(text, f"{who} is not to move; {names[d.to_move]} is")
    words = body.split()
    if not words:
        raise _move_fail(text, f"no move; the moves are {', '.join(ACTION_WORDS)}")
    word = words[0].lower()
    if word not in ACTION_WORDS:
        raise _move_fail(text, f"unknown word {quote(words[0])}; the moves are {', '.join(ACTION_WORDS)}")
    kind = ACTION_WORDS.index(word)
    if kind >= END:
        if len(words) > 1:
            raise _move_fail(text, f"{word} takes no space")
        return encode(kind)
    if len(words) != 2:
        what = "no space" if len(words) == 1 else f"{len(words) - 1} words after {word}"
        raise _move_fail(text, f"{what}; {word} names one space, like {word} c2")
    space = parse_space(words[1].lower(), d.columns, d.rows)
    if space is None:
        last = chr(ord("a") + d.columns - 1)
        raise _move_fail(text, f"{quote(words[1])} is not a space of the island (columns a-{last}, rows 1-{d.rows})")
    return encode(kind, space)


def move_text(action: int, countries: Sequence[str], d: CannonballData, with_name: bool = False) -> str:
    """The notation of ``action``: ``road c2``, ``end``; with ``with_name``, prefixed by the mover's name
    (``france: road c2``) while somebody is to move.  Raises ``MoveError`` for a code naming no move."""
    if not is_int(action) or action < 0:
        raise MoveError(f"action {brief(action)}: names no move on this {d.columns} x {d.rows} island")
    kind, space = decode(action)
    if kind > PASS or (kind >= END and space) or space >= d.spaces:
        raise MoveError(f"action {brief(action)}: names no move on this {d.columns} x {d.rows} island")
    text = ACTION_WORDS[kind] if kind >= END else f"{ACTION_WORDS[kind]} {space_name(space, d.columns)}"
    if with_name and d.round != ROUND_OVER:
        return f"{countries[d.to_move]}: {text}"
    return text


def why_not(text: str, countries: Sequence[str], d: CannonballData) -> str | None:
    """Why the move ``text`` may not be played in ``d`` (``move 'road c3': <reason>``); None when it is legal.

    A malformed move raises ``MoveError`` as ``parse_move`` does.  The rules'
    reasons name the players by the countries of ``countries``.
    """
    action = parse_move(text, countries, d)
    reason = reference.why_illegal(d, action)
    if reason is None:
        return None
    return f"move {quote(text)}: {_renamed(reason, countries)}"


_COUNTRY_WORD = re.compile(r"\b(" + "|".join(COUNTRIES) + r")\b")


def _renamed(reason: str, countries: Sequence[str]) -> str:
    """``reason`` with each seat's name as the reference writes it (``COUNTRIES[seat]``) replaced by the
    seat's country in this game, all at once."""
    names = tuple(countries)
    if names == COUNTRIES[: len(names)]:
        return reason
    mapping = dict(zip(COUNTRIES[: len(names)], names, strict=True))
    return _COUNTRY_WORD.sub(lambda m: mapping.get(m.group(1), m.group(1)), reason)

