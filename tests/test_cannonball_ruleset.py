"""Cannonball Colony's rule set (R20.1-R20.3, R20.10): made once from its parameters, each checked by its rule."""

from __future__ import annotations

import json

import pytest

from kanaloa.cannonball.island import BUILTIN_TILES, load_tile
from kanaloa.cannonball.ruleset import PARAMETERS, CannonballRules, make_cannonball
from kanaloa.cannonball.state import COUNTRIES, ROAD_TILES
from kanaloa.rules.ruleset import ParameterError


def test_the_defaults_are_four_countries_on_the_built_in_tiles():
    rules = make_cannonball()
    assert isinstance(rules, CannonballRules)
    assert rules.players == 4 and rules.countries == COUNTRIES and rules.seat_names == COUNTRIES
    assert [t.name for t in rules.tiles] == list(BUILTIN_TILES)
    assert [p.name for p in PARAMETERS] == ["players", "countries", "tiles"]
    assert all(p.default for p in PARAMETERS)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r20_3_the_countries_and_the_road_supply_follow_the_player_count(players):
    rules = make_cannonball(players=players)
    assert rules.countries == COUNTRIES[:players]
    assert rules.road_tiles == ROAD_TILES[players] == {2: 50, 3: 70, 4: 90}[players]
    assert rules.pieces == {"forts": 10, "cannons": 2, "blockades": 1}
    game = rules.new_game(5)
    assert (game.players, game.supply, game.seed) == (players, ROAD_TILES[players], 5)


def test_r20_3_countries_are_chosen_in_seat_order():
    rules = make_cannonball(players=3, countries="england,france,spain")
    assert rules.countries == ("england", "france", "spain")
    assert make_cannonball(players=2, countries=["portugal", "spain"]).countries == ("portugal", "spain")
    assert make_cannonball(players="3").players == 3  # as a command line gives it


def test_r20_2_the_tiles_are_the_ones_named_and_the_seed_draws_from_them():
    names = ["meadow", "ridge", "marsh"]
    rules = make_cannonball(players=2, tiles=",".join(names))
    assert [t.name for t in rules.tiles] == names
    assert rules.new_game(1) == rules.new_game(1)
    drawn = {tuple(rules.new_game(seed).terrain) for seed in range(20)}
    assert len(drawn) > 1
    assert rules.params() == {"players": 2, "countries": "france,spain", "tiles": ",".join(names)}
    assert make_cannonball(**rules.params()) == rules


def test_a_tile_file_can_be_named(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"format": "cannonball-tile/1", "name": "mine", "rows": ["gggggg"] * 6}))
    rules = make_cannonball(players=2, tiles=f"{path},meadow")
    assert [t.name for t in rules.tiles] == ["mine", "meadow"] and rules.tiles[0] == load_tile(str(path))


@pytest.mark.parametrize("params, message", [
    ({"players": 5}, "players 5: Cannonball Colony is for 2, 3 or 4 players, a tile each (R20.1)"),
    ({"players": 1}, "players 1: Cannonball Colony is for 2, 3 or 4 players, a tile each (R20.1)"),
    ({"players": True}, "players True: Cannonball Colony is for 2, 3 or 4 players, a tile each (R20.1)"),
    ({"players": "two"}, "players 'two': Cannonball Colony is for 2, 3 or 4 players, a tile each (R20.1)"),
    ({"players": 2, "countries": "france,holland"},
     "countries: 'holland' is not a country of the game; the countries are france, spain, portugal, england (R20.3)"),
    ({"players": 2, "countries": "france,france"}, "countries: france twice; each player is a country of its own "
                                                   "(R20.3)"),
    ({"players": 3, "countries": "france,spain"}, "countries: 2 countries for 3 players; name one a player (R20.3)"),
    ({"players": 2, "countries": "france,"}, "countries: 'france,' leaves a name empty"),
    ({"players": 2, "countries": 7}, "countries: must be names separated by commas, not 7"),
    ({"players": 3, "tiles": "meadow,ridge"}, "tiles: 2 tiles for 3 players; the island has one a player (R20.1)"),
    ({"players": 2, "tiles": "meadow,meadow"}, "tiles: the tile 'meadow' twice; the island is made of different "
                                               "tiles (R20.2)"),
])
def test_every_bad_parameter_is_refused_by_its_rule(params, message):
    with pytest.raises(ParameterError) as info:
        make_cannonball(**params)
    assert str(info.value) == message
    assert info.value.parameter in params and message.startswith(info.value.parameter)


def test_a_tile_that_does_not_load_is_refused_naming_tiles(tmp_path):
    with pytest.raises(ParameterError) as info:
        make_cannonball(players=2, tiles=f"meadow,{tmp_path / 'none.json'}")
    assert info.value.parameter == "tiles" and str(info.value).startswith("tiles: tile ")
    assert "\n" not in str(info.value)


def test_r20_10_the_reasons_cite_their_rule_and_the_description_is_json():
    rules = make_cannonball(players=3)
    assert rules.reasons == ("ten-forts", "supply", "all-passed")
    assert {rules.rule_of(r) for r in rules.reasons} == {"R20.10"}
    assert rules.reason_text("supply") == "the last road tile was laid"
    assert rules.describe() == "Cannonball Colony, 3 players: france, spain, portugal"
    doc = json.loads(json.dumps(rules.to_json()))
    assert doc["game"] == "cannonball" and doc["countries"] == ["france", "spain", "portugal"]
    assert doc["road_tiles"] == 70 and doc["tiles"] == list(BUILTIN_TILES)
