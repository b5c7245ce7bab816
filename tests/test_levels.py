"""The named strengths (``kanaloa.play.levels``): easy, medium and strong, each a bot spec that plays every rule
set it is offered for, the same spec in every game unless a game's registry entry gives its own."""

from __future__ import annotations

import dataclasses

import pytest

from kanaloa.errors import OptionError
from kanaloa.play import levels
from kanaloa.play.bots import BOTS, MEASUREMENT_BOTS, parse_bot_spec
from kanaloa.play.levels import DEFAULT_LEVEL, LEVELS, check_game_levels, find_level, level_spec, offered, spec_for
from kanaloa.position.documents import deal_position
from kanaloa.rules import registry
from kanaloa.rules.registry import game_types, load_game

EVERY_RULE_SET = [pytest.param(rs, id=f"{g.name}-{i}")
                  for g in game_types() for i, rs in enumerate(g.example_rulesets())]


def test_three_levels_weakest_first_the_strong_one_by_default():
    assert [level.name for level in LEVELS] == ["easy", "medium", "strong"]
    assert [level.label for level in LEVELS] == ["Easy", "Medium", "Strong"]
    assert DEFAULT_LEVEL == "strong"
    assert not {level.name for level in LEVELS} & {*BOTS, *MEASUREMENT_BOTS, "human"}  # a seat's word is unambiguous
    for level in LEVELS:
        assert parse_bot_spec(level.spec).spec == level.spec
        assert level.description.endswith(".") and len(level.description) < 100  # one line a player reads


def test_the_levels_climb_one_search_budget_over_the_other():
    easy, medium, strong = (parse_bot_spec(level.spec) for level in LEVELS)
    assert easy.name == "greedy"  # no search: the one-turn lookahead
    assert medium.name == strong.name == "hint"
    assert strong.iterations >= 20 * medium.iterations


def test_a_level_is_found_by_its_name_in_any_case():
    assert find_level(" Strong ") is LEVELS[2] and find_level("EASY") is LEVELS[0]
    assert find_level("hint") is None and find_level(None) is None


@pytest.mark.parametrize("rs", EVERY_RULE_SET)
def test_every_level_offered_plays_the_first_moves_of_its_rule_set(rs):
    chosen = offered(rs)
    assert [level.name for level, _ in chosen] == ["easy", "medium", "strong"]  # every game's bots play them all
    for level, spec in chosen:
        assert spec == level.spec == level_spec(level.name, rs)
        bot = parse_bot_spec(spec)
        bot.check(rs)
        bot.start(rs, 7)
        pos = deal_position(rs, 7)
        state = pos.state
        decided = 0
        while decided < 2 and not state.is_over:
            legal = state.legal_actions()
            action = bot.choose(state)
            assert action in legal, (level.name, action)
            decided += len(legal) > 1
            state.apply(action)


def test_an_unknown_level_is_refused_naming_it():
    with pytest.raises(OptionError, match=r"^level 'hardest': unknown; expected one of easy, medium, strong$"):
        level_spec("hardest", load_game("kahuna"))


@pytest.fixture
def kahuna_with_its_own_medium(monkeypatch):
    """Kahuna's registry entry giving the medium level a spec of its own."""
    own = dataclasses.replace(registry.game_type("kahuna"), levels={"medium": "ismcts:iterations=300"})
    monkeypatch.setitem(registry._BY_NAME, "kahuna", own)
    return own


def test_a_game_may_give_a_level_a_spec_of_its_own(kahuna_with_its_own_medium):
    rs = load_game("kahuna")
    medium = find_level("medium")
    assert medium is not None
    assert spec_for(medium, kahuna_with_its_own_medium) == level_spec("medium", rs) == "ismcts:iterations=300"
    assert dict((level.name, spec) for level, spec in offered(rs))["medium"] == "ismcts:iterations=300"
    assert level_spec("medium", load_game("kanaloa")) == medium.spec  # the other games keep the level's own
    check_game_levels(kahuna_with_its_own_medium)


def test_a_seat_given_as_a_level_plays_the_games_own_spec(kahuna_with_its_own_medium):
    from kanaloa.interfaces.web.games import new_game

    view = new_game({"ruleset": "kahuna", "seats": ["human", "medium"], "seed": 3}).view()
    assert view["seats"][1] == {"player": "black", "who": "ismcts:iterations=300", "level": "medium"}


def test_a_games_levels_must_name_levels_and_give_specs_that_parse():
    kahuna = registry.game_type("kahuna")
    with pytest.raises(OptionError, match=r"^game kahuna: levels: unknown level 'expert'; expected one of easy, "
                                          r"medium, strong$"):
        check_game_levels(dataclasses.replace(kahuna, levels={"expert": "greedy"}))
    with pytest.raises(OptionError, match=r"^bot spec 'hint:iterations=-1': key 'iterations' must be at least 1"):
        check_game_levels(dataclasses.replace(kahuna, levels={"strong": "hint:iterations=-1"}))


@pytest.mark.parametrize("game", game_types(), ids=lambda g: g.name)
def test_every_registered_game_gives_levels_that_check(game):
    check_game_levels(game)


def test_a_level_whose_bot_cannot_play_a_game_is_not_offered_and_says_why(monkeypatch):
    from kanaloa.play.bots import GreedyBot

    monkeypatch.setattr(GreedyBot, "faces", ("nowhere",))
    rs = load_game("kanaloa", players=2)
    assert [level.name for level, _ in offered(rs)] == ["medium", "strong"]
    with pytest.raises(OptionError, match=r"^level easy: not offered for Kanaloa: bot spec 'greedy': greedy plays a "
                                          r"game through its nowhere face, and Kanaloa has none$"):
        level_spec("easy", rs)
    assert levels.refusal(LEVELS[1], rs) is None
