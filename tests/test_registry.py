"""The game registry: every game by name with its parameters, ``load_game``, and how a game plugs in."""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass

import pytest

import kanaloa
from kanaloa.errors import OptionError, PositionError
from kanaloa.position import Position, deal_position, read_position
from kanaloa.rules import registry
from kanaloa.rules.registry import FACES, OPTIONAL_FACES, GameType, game_type, game_types, load_game
from kanaloa.rules.ruleset import Parameter, ParameterError, Ruleset


def test_every_game_is_listed_with_its_parameters_and_their_defaults():
    names = [g.name for g in game_types()]
    assert names == ["kanaloa", "kahuna", "cannonball"]
    for g in game_types():
        assert g.parameters and all(p.default for p in g.parameters), g.name
        made = load_game(g.name)  # the defaults make a game, whose rule set knows its game
        assert made.game == g.name and made.game_type is g
        listed = g.to_json()
        assert listed["name"] == g.name and [p["name"] for p in listed["parameters"]] == [
            p.name for p in g.parameters]
    assert [p.name for p in game_type("kanaloa").parameters] == ["players", "preset", "gods", "board", "colors"]
    assert [p.name for p in game_type("kahuna").parameters] == ["players", "board", "colors"]
    assert [p.name for p in game_type("cannonball").parameters] == ["players", "countries", "tiles"]
    # the family's games have the family's rule set; a game of its own brings its own
    assert [isinstance(load_game(name), Ruleset) for name in names] == [True, True, False]


def test_the_listing_names_each_game_s_rule_sets_as_the_options_that_make_them():
    kanaloa_game = game_type("kanaloa")
    assert kanaloa_game.to_json()["rule_sets"] == [dict(e) for e in kanaloa_game.examples]
    assert kanaloa_game.options_of({"players": 3, "gods": True, "preset": "tabletop"}) == (
        "--players 3 --gods --preset tabletop")
    assert kanaloa_game.options_of({"players": 4, "gods": False}) == "--players 4"  # a flag left off is no option
    assert game_type("kahuna").options_of({}) == "the defaults"
    lines = registry.describe_games()
    assert ("  rule sets, as options of new: --players 4; --players 3 --preset tabletop; --players 2; --players 4 "
            "--gods; --players 3 --gods --preset tabletop; --players 2 --gods") in lines
    assert "  rule sets, as options of new: the defaults" in lines
    assert "  rule sets, as options of new: --players 2; --players 3; --players 4" in lines  # Cannonball Colony
    # Every rule set listed is one load_game makes.
    for g in game_types():
        for params in g.to_json()["rule_sets"]:
            assert load_game(g.name, **params).game == g.name


def test_load_game_is_the_package_s_entry_point_too():
    assert kanaloa.load_game("kanaloa", players=3) == load_game("kanaloa", players=3)
    assert kanaloa.load_game("kahuna").colors == ("white", "black")


def test_load_game_refuses_an_unknown_game_or_parameter_naming_it():
    with pytest.raises(ParameterError, match=r"^game 'chess': unknown; choose one of kanaloa, kahuna, "
                                             r"cannonball$") as err:
        load_game("chess")
    assert isinstance(err.value, OptionError) and err.value.parameter == "game"
    with pytest.raises(ParameterError, match=r"^tiles: Kanaloa has no such parameter; its parameters are players, "
                                             r"preset, gods, board, colors$"):
        load_game("kanaloa", tiles="a.json")
    # Kahuna takes Kanaloa's options only at their neutral value, and refuses the rest with the rule.
    assert load_game("kahuna", preset="yucata", gods=False) == load_game("kahuna")
    with pytest.raises(ParameterError, match=r"^gods: Might of the Gods is a variant of Kanaloa, not of Kahuna"):
        load_game("kahuna", gods=True)


@pytest.mark.parametrize(("params", "parameter", "why"), [
    ({"players": 5}, "players", "the game is for 2, 3 or 4 players"),
    ({"preset": "fast"}, "preset", "unknown; choose one of yucata, tabletop (R13)"),
    ({"gods": "yes"}, "gods", "must be true (Might of the Gods, R14) or false"),
    ({"gods": True, "board": "kahuna"}, "board", "Might of the Gods lays one of its 16 god tokens on each island "
                                                  "(R14.1); the board has 12 islands"),
    ({"players": 3, "colors": "red+blue,green+yellow"}, "colors", "only a 2-player game gives each player two "
                                                                  "colors (R15.1); with 3 players each plays one "
                                                                  "color"),
    ({"players": 2, "colors": "red+blue,red+yellow"}, "colors", "red is named twice (both players' first color); "
                                                                "each color belongs to one player"),
])
def test_each_combination_is_checked_once_with_one_message_per_rule(params, parameter, why):
    with pytest.raises(ParameterError) as err:
        load_game("kanaloa", **params)
    assert (err.value.parameter, err.value.why) == (parameter, why)
    # The caller words the parameter its own way, the reason stays the rule set's.
    assert str(err.value.worded(f"--{parameter}")) == f"--{parameter}: {why}"


def test_the_example_rule_sets_cover_every_variant():
    examples = game_type("kanaloa").example_rulesets()
    assert {rs.players for rs in examples} == {2, 3, 4}
    assert {rs.preset for rs in examples} == {"yucata", "tabletop"} and {rs.gods for rs in examples} == {True, False}
    assert [rs.game for rs in game_type("kahuna").example_rulesets()] == ["kahuna"]


# -- a game plugs in with its registration alone -------------------------------------------------


@dataclass(frozen=True)
class ToyRules:
    """The rule set of a game that is not of the family: no board, its own document."""

    game: str
    players: int

    @property
    def game_type(self) -> GameType:
        return game_type(self.game)


class ToyPosition:
    """The toy game's position face: it reads and deals positions of its own."""

    def __init__(self, rules: ToyRules, seed: int) -> None:
        self.rules, self.seed = rules, seed

    @classmethod
    def from_json(cls, doc, engine=None, boards=None) -> ToyPosition:
        return cls(load_game("toy", players=doc["players"]), doc["seed"])

    @classmethod
    def deal(cls, ruleset, seed=0, engine=None) -> ToyPosition:
        return cls(ruleset, seed)


def _make_toy(name: str, players: int = 2) -> ToyRules:
    if players not in (2, 3):
        raise ParameterError("players", "the toy game is for 2 or 3 players", players, shown=True)
    return ToyRules(name, players)


@pytest.fixture
def toy_registered(monkeypatch):
    """A toy game registered as any game plugs in: one GameType naming its faces by module path."""
    module = types.ModuleType("toy_game_faces")
    module.ToyPosition = ToyPosition
    monkeypatch.setitem(sys.modules, "toy_game_faces", module)
    toy = GameType("toy", "Toy", "none", "a game with its own position format",
                   (Parameter("players", "2 or 3", "2", "players"),), _make_toy,
                   {"position": "toy_game_faces:ToyPosition"})
    monkeypatch.setattr(registry, "REGISTERED", (*registry.REGISTERED, toy))
    monkeypatch.setitem(registry._BY_NAME, "toy", toy)
    return toy


def test_a_game_registered_alone_is_read_dealt_and_listed_through_the_registry(toy_registered):
    assert "toy" in [g.name for g in game_types()]
    assert any(line.startswith("toy  Toy") for line in registry.describe_games())
    assert toy_registered.to_json()["rule_sets"] == [{}]
    rules = load_game("toy", players=3)
    assert rules == ToyRules("toy", 3)
    dealt = deal_position(rules, 7)
    assert isinstance(dealt, ToyPosition) and (dealt.rules, dealt.seed) == (rules, 7)
    read = read_position({"format": "kanaloa-position/1", "game": "toy", "players": 2, "seed": 5})
    assert isinstance(read, ToyPosition) and (read.rules.players, read.seed) == (2, 5)
    with pytest.raises(ParameterError, match=r"^players 4: the toy game is for 2 or 3 players$"):
        load_game("toy", players=4)


def test_a_document_of_the_default_game_is_read_by_its_own_position_class(toy_registered):
    doc = Position.new(players=3, seed=2).to_json()
    assert "game" not in doc and isinstance(read_position(doc), Position)
    with pytest.raises(PositionError, match=r"^game: 'chess' is not one of 'kanaloa', 'kahuna', 'cannonball', "
                                            r"'toy'$"):
        read_position({**doc, "game": "chess"})


def test_the_faces_listed_are_the_faces_the_layers_ask_for():
    """Every game has every face but the optional ones, and no face the layers do not ask for."""
    assert set(OPTIONAL_FACES) < set(FACES)
    for g in game_types():
        assert set(FACES) - set(OPTIONAL_FACES) <= set(g.faces) <= set(FACES), g.name
    assert all("cutfit" in g.faces for g in game_types())  # a game without it: tests/test_cut.py


def test_the_commands_take_every_registered_parameter_as_an_option():
    """``new`` and ``simulate`` make their game options from the registry: a game brings its options along."""
    from kanaloa.interfaces.cli import game_parameter_options, new, simulate

    names = {p.name for g in game_types() for p in g.parameters}
    for command in (new, simulate):
        options = {p.name: p for p in command.params}
        assert names <= set(options), command.name
        assert options["gods"].is_flag and options["players"].type.name == "integer"

    import click

    @click.command()
    @game_parameter_options
    def probe(**params):
        pass

    assert {p.name for p in probe.params} == names


# What the generic layers ask of every game's position class and rule set (the registry's docstring lists it).
POSITION_PROTOCOL = ("deal", "from_json", "copy", "on", "crowded", "ruleset", "engine", "state", "players",
                     "to_move", "is_over", "outcome", "viewer", "waiting", "holders", "legal_moves", "move_strings",
                     "move_of", "parse", "play", "push", "to_json", "dumps", "as_viewer")
RULESET_PROTOCOL = ("game", "game_type", "title", "players", "params", "describe", "document_game", "palette",
                    "colors", "seat_names", "reasons", "rule_of", "lacks", "crowded", "state_checks")


@pytest.mark.parametrize("game", game_types(), ids=lambda g: g.name)
def test_every_game_s_position_and_rule_set_speak_the_protocol(game):
    position = game.face("position")
    assert [name for name in POSITION_PROTOCOL if not hasattr(position, name)] == []
    rules = load_game(game.name)
    assert [name for name in RULESET_PROTOCOL if not hasattr(rules, name)] == []
    dealt = position.deal(rules, 1, "reference")
    assert str(dealt.engine) == "reference"  # an engine is named as the protocol names it
    assert dealt.ruleset == rules and dealt.on("core").state.to_data() == dealt.state.to_data()


@pytest.mark.parametrize("game", game_types(), ids=lambda g: g.name)
def test_every_game_names_its_data_files_and_reads_each_built_in_one(game):
    """The ``files`` face: what a user may write for the game (boards, tiles), read as the game reads it."""
    import json

    files = game.face("files")
    assert files.parameter in {p.name for p in game.parameters}
    for name, text in files.builtin().items():
        assert files.from_dict(json.loads(text), name) == files.load(name)
    first = next(iter(files.builtin()))
    made = game.load(players=game.load().players, **{files.parameter: files.value(first, game.load().players)})
    assert made.game == game.name
