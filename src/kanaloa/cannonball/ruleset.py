"""Cannonball Colony's rule set: the game made once from its parameters, every combination checked there (R20).

``make_cannonball(players=, countries=, tiles=)`` checks each parameter with
one message per rule and raises ``ParameterError`` (the message names the
parameter; each caller words it its own way, as Kanaloa's rule sets are
worded).  The ``CannonballRules`` it returns answers what the other parts
need: the countries in seat order, the tiles the layout draws from, the road
supply, the reasons a game ends and their rules, the parameters that make it
again, and a JSON description.  ``new_game(seed)`` deals a game of it.  For
the soak, as every game's rule set: ``crowded(data, stream)`` (a crowded
island, where the endings random play never reaches come up) and
``state_checks(state)`` (an engine state's answers against its own data).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import BoardError, brief
from ..rules.ruleset import Parameter, ParameterError
from .island import BUILTIN_TILES, Tile, load_tile, new_game
from .reference import legal_actions, play
from .state import (
    BLOCKADES,
    CANNONS,
    COUNTRIES,
    FOREST,
    FORTS,
    GRASS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    REASON_NAMES,
    REASON_TEXT,
    ROAD_TILES,
    ROUND_LANDING,
    ROUND_OVER,
    CannonballData,
)

if TYPE_CHECKING:
    from ..rules.rng import SplitMix64

GAME = "cannonball"
TITLE = "Cannonball Colony"
DEFAULT_PLAYERS = 4
CROWD_ROADS = 0.45  # a crowded island's share of the free grass and forest spaces that hold a road


PARAMETERS = (
    Parameter("players", "2, 3 or 4", str(DEFAULT_PLAYERS), "countries on the island, a tile each (R20.1, R20.3)",
              ("2", "3", "4"), "int"),
    Parameter("countries", "COUNTRY,...", ",".join(COUNTRIES),
              f"the countries in seat order, the first landing first, from {', '.join(COUNTRIES)} (R20.3); "
              f"by default the first ones of that list"),
    Parameter("tiles", "TILE,... (built-in names or tile files)", "the built-in set",
              "the tiles the seed draws the island from, one a player (R20.2); docs/cannonball.md gives "
              "the tile file format"),
)


@dataclass(frozen=True)
class CannonballRules:
    """One rule set of Cannonball Colony (module docstring); made by ``make_cannonball``."""

    players: int
    countries: tuple[str, ...]
    tiles: tuple[Tile, ...]

    game = GAME
    title = TITLE
    document_game = GAME  # a position of this game says "game": "cannonball"

    @property
    def game_type(self) -> Any:
        """The registry's entry for the game (``kanaloa.rules.registry.GameType``)."""
        from ..rules.registry import game_type

        return game_type(self.game)

    @property
    def palette(self) -> tuple[str, ...]:
        """Every name a seat of the game may have: the countries (R20.3)."""
        return COUNTRIES

    @property
    def colors(self) -> tuple[str, ...]:
        """The seats' names by seat index, as the search's points are listed: the countries."""
        return self.countries

    @property
    def seat_colors(self) -> tuple[str, ...]:
        """The color each seat is drawn in (a picture's, a chart's): its country's (``country_colors``)."""
        return tuple(country_colors(self.countries))

    @property
    def color_order(self) -> list[int]:
        """The seats in the order a table of points lists them: seat order."""
        return list(range(self.players))

    def colors_of(self, seat: int) -> tuple[int, ...]:
        """The seats a player moves for: its own."""
        return (seat,)

    @property
    def pairs(self) -> bool:
        """False: each player is one country, never two colors (R20.3)."""
        return False

    def lacks(self, feature: str) -> str | None:
        """Why the game has no ``feature`` that a rule set of another game has (for messages); None for a
        feature it has."""
        return _LACKS.get(feature, None if feature in _HAS else f"{TITLE} has no {feature} (R20)")

    @property
    def seat_names(self) -> tuple[str, ...]:
        """Each seat's name: its country (R20.3)."""
        return self.countries

    @property
    def road_tiles(self) -> int:
        """The shared supply of road tiles (R20.3)."""
        return ROAD_TILES[self.players]

    @property
    def pieces(self) -> dict[str, int]:
        """Each player's pieces (R20.3)."""
        return {"forts": FORTS, "cannons": CANNONS, "blockades": BLOCKADES}

    @property
    def reasons(self) -> tuple[str, ...]:
        """The names of the ways a game ends, by reason code (R20.10)."""
        return REASON_NAMES

    @property
    def shares_victory(self) -> bool:
        """True: players still tied after the tie-breaks share the victory (R20.10)."""
        return True

    @property
    def may_end_without_winner(self) -> bool:
        """False: every game has a winner, or several sharing the victory (R20.10)."""
        return False

    @property
    def no_winner_reason(self) -> None:
        """None: no game ends without a winner (R20.10)."""
        return None

    @property
    def score_name(self) -> str:
        """What a seat's score counts, for tables of results: its forts on the island (R20.7), what the end
        compares first (R20.10)."""
        return "forts"

    def reason_text(self, reason: str) -> str:
        """Why a game ended that way, for people."""
        return REASON_TEXT[REASON_NAMES.index(reason)]

    def rule_of(self, event: str) -> str:
        """The rule id of an event: a way a game ends, or ``landing`` and ``turn``."""
        if event in REASON_NAMES or event == "winner":
            return "R20.10"
        return {"landing": "R20.4", "turn": "R20.6", "network": "R20.5", "range": "R20.9"}[event]

    def new_game(self, seed: int) -> CannonballData:
        """A new game of this rule set, its island laid out from ``seed`` (R20.1, R20.2)."""
        return new_game(self.players, seed, list(self.tiles))

    def crowded(self, data: CannonballData, stream: SplitMix64) -> CannonballData:
        """A crowded island for the soak (``kanaloa soak``), from ``data`` (a new game of this rule set) and
        ``stream``: random play ends every game by the last road tile, so here the ships land at random legal
        spaces (R20.4), a road lies on each free grass or forest space with chance ``CROWD_ROADS``, and the
        supply is cut to ``1 + stream.below(supply)`` tiles.  Networks are then wide and forts fit
        everywhere, and ten forts, every country passing and shared victories (R20.10) come up as often as
        the last road tile.  ``data`` itself is not changed."""
        out = data.copy()
        while out.round == ROUND_LANDING:
            moves = legal_actions(out)
            play(out, moves[stream.below(len(moves))])
        ships = set(out.ships)
        for space, terrain in enumerate(out.terrain):
            if terrain in (GRASS, FOREST) and space not in ships and stream.next() / 2.0**64 < CROWD_ROADS:
                out.road[space] = True
        out.supply = 1 + stream.below(out.supply)
        return out

    def state_checks(self, state: Any) -> list[tuple[str, Any, Any]]:
        """What an engine state answers against what its exported data says: ``(name, answer, from the data)``
        for its players, player to move, round, end, winners, ranking, reason and supply."""
        d = state.to_data()
        return [("players", state.players, d.players), ("to_move", state.to_move, d.to_move),
                ("round", state.round, d.round), ("is_over", state.is_over, d.round == ROUND_OVER),
                ("winners", list(state.winners), d.winners), ("ranking", list(state.ranking), d.ranking),
                ("reason", state.reason, d.reason), ("supply", state.supply, d.supply)]

    def params(self) -> dict[str, Any]:
        """The parameters that make this rule set again with ``make_cannonball(**params)``."""
        return {"players": self.players, "countries": ",".join(self.countries),
                "tiles": ",".join(tile.source or tile.name for tile in self.tiles)}

    def record_params(self) -> dict[str, Any]:
        """The parameters a game record (``kanaloa.play.records``) and ``simulate``'s summary name this rule set
        by, as JSON values: the players, the countries in seat order and the tiles (built-in names or tile
        files); ``make_cannonball(**record_params())`` makes it again."""
        return {"players": self.players, "countries": list(self.countries),
                "tiles": [tile.source or tile.name for tile in self.tiles]}

    def describe(self) -> str:
        """One line for people: ``Cannonball Colony, 3 players: france, spain, portugal``."""
        return f"{self.title}, {self.players} players: {', '.join(self.countries)}"

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "title": self.title, "players": self.players, "countries": list(self.countries),
                "tiles": [tile.name for tile in self.tiles], "road_tiles": self.road_tiles, "pieces": self.pieces,
                "reasons": list(REASON_NAMES)}


# What the game has of the features other games' rule sets are asked about, and why it lacks the others.
# The color each known country is drawn in (a name of ``ANSI`` and of the SVG's color tables); another
# country takes the first of ``SPARE_COLORS`` no country before it has.
COUNTRY_COLORS = {"france": "blue", "spain": "yellow", "portugal": "green", "england": "red"}
SPARE_COLORS = ("blue", "yellow", "green", "red", "white", "black")


def country_colors(names: Sequence[str]) -> list[str]:
    """The color of every seat: a known country's own, every other one a spare color not yet taken, so
    that no two seats share one (at most 4 players, R20.3)."""
    taken = {COUNTRY_COLORS[name] for name in names if name in COUNTRY_COLORS}
    colors = []
    for name in names:
        if name in COUNTRY_COLORS:
            colors.append(COUNTRY_COLORS[name])
            continue
        spare = next((c for c in SPARE_COLORS if c not in taken), SPARE_COLORS[-1])
        taken.add(spare)
        colors.append(spare)
    return colors


_HAS = frozenset({"no_winner"})  # a shared victory names no single winner (R20.10)
_LACKS = {
    "rules.preset": f"{TITLE} has no presets (R20.3)",
    "rules.gods": f"Might of the Gods is a variant of Kanaloa, not of {TITLE} (R14, R20)",
    "colors": f"in {TITLE} each player is one country (R20.3)",
    "viewer": f"nothing is hidden in {TITLE}: every player sees the whole position (R20)",
    "tactics": (f"the tactical suite serves Kanaloa: its puzzles are exact wins within a turn of many moves, and "
                f"a turn of {TITLE} is one build after at most one shot (R20.6), which leaves no such puzzle "
                f"(docs/cannonball.md, \"Tactics\")"),
}


def load(game: str = GAME, **params: Any) -> CannonballRules:
    """The registry's maker: ``make_cannonball(**params)`` (``game`` is the registered name, always this one)."""
    return make_cannonball(**params)


def _players(value: object) -> int:
    if isinstance(value, str) and value.strip().isdigit() and value.strip().isascii():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not MIN_PLAYERS <= value <= MAX_PLAYERS:
        raise ParameterError("players", f"{TITLE} is for {MIN_PLAYERS}, 3 or {MAX_PLAYERS} players, a tile each "
                                        f"(R20.1)", value, shown=True)
    return value


def _names(value: object, parameter: str) -> list[str]:
    """A list given as ``a,b,c`` or as a sequence of strings; empty entries refused."""
    if isinstance(value, str):
        names = [name.strip() for name in value.split(",")]
    elif isinstance(value, Sequence) and all(isinstance(v, str) for v in value):
        names = [str(v).strip() for v in value]
    else:
        raise ParameterError(parameter, f"must be names separated by commas, not {brief(value)}")
    if any(not name for name in names):
        raise ParameterError(parameter, f"{brief(value)} leaves a name empty")
    return names


def _countries(value: object, players: int) -> tuple[str, ...]:
    if value is None:
        return COUNTRIES[:players]
    names = _names(value, "countries")
    for name in names:
        if name not in COUNTRIES:
            raise ParameterError("countries", f"{brief(name)} is not a country of the game; the countries are "
                                              f"{', '.join(COUNTRIES)} (R20.3)")
    repeated = next((name for name in names if names.count(name) > 1), None)
    if repeated is not None:
        raise ParameterError("countries", f"{repeated} twice; each player is a country of its own (R20.3)")
    if len(names) != players:
        raise ParameterError("countries", f"{len(names)} countries for {players} players; name one a player "
                                          f"(R20.3)")
    return tuple(names)


def _tiles(value: object, players: int) -> tuple[Tile, ...]:
    """The tiles ``value`` names: built-in names and tile files' paths (``a,b,c`` or a sequence), or ``Tile``
    objects already read, in a sequence."""
    given: list[Tile | str]
    if value is None:
        given = list(BUILTIN_TILES)
    elif isinstance(value, (list, tuple)) and any(isinstance(v, Tile) for v in value):
        given = list(value)
        if not all(isinstance(v, Tile) or (isinstance(v, str) and v.strip()) for v in given):
            raise ParameterError("tiles", f"must be tiles or their names, not {brief(value)}")
    else:
        given = list(_names(value, "tiles"))
    tiles = []
    for name in given:
        try:
            tiles.append(name if isinstance(name, Tile) else load_tile(name))
        except BoardError as exc:
            raise ParameterError("tiles", str(exc)) from None
    repeated = next((t.name for t in tiles if [u.name for u in tiles].count(t.name) > 1), None)
    if repeated is not None:
        raise ParameterError("tiles", f"the tile {brief(repeated)} twice; the island is made of different tiles "
                                      f"(R20.2)")
    if len(tiles) < players:
        raise ParameterError("tiles", f"{len(tiles)} tile{'' if len(tiles) == 1 else 's'} for {players} players; "
                                      f"the island has one a player (R20.1)")
    return tuple(tiles)


def make_cannonball(players: object = None, countries: object = None, tiles: object = None) -> CannonballRules:
    """The rule set with these parameters (``PARAMETERS``; None: the default), each checked with its rule;
    ``ParameterError`` naming the parameter otherwise."""
    count = DEFAULT_PLAYERS if players is None else _players(players)
    return CannonballRules(count, _countries(countries, count), _tiles(tiles, count))
