"""Cannonball Colony's rules (R20.3-R20.10) as tests of the plain-Python reference.

Each test builds a small island by hand (``island``: rows of terrain letters,
top row first, and the landing board of every space as digits), puts pieces
on it (``put``) and plays moves by their notation (``act``).  Unless a test
says otherwise the island is 6 x 4 with france's board (seat 0) on columns
a-c and spain's (seat 1) on d-f.  Every state a test looks at is also checked
for ``legal_actions`` agreeing with ``why_illegal`` (``legal``).  The property
tests at the end play seeded random games on bigger hand-made islands.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cannonball_helpers import drawn_island
from kanaloa.cannonball import reference as R
from kanaloa.cannonball.reference import ReferenceState, why_illegal
from kanaloa.cannonball.state import (
    ACTION_WORDS,
    BLOCKADE,
    BLOCKADE_BUILD,
    CANNON_1,
    CANNON_2,
    CANNON_BUILD,
    END,
    FIRE,
    FORT_BUILD,
    FORTS,
    LAND,
    MAX_SPACES,
    NO_SPACE,
    NOBODY,
    REASON_ALL_PASSED,
    REASON_NONE,
    REASON_SUPPLY,
    REASON_TEN_FORTS,
    ROAD,
    ROAD_TILES,
    ROUND_LANDING,
    ROUND_OVER,
    ROUND_PLAY,
    CannonballData,
    decode,
    encode,
    parse_space,
)

FRANCE, SPAIN, PORTUGAL = 0, 1, 2
GRASS_6X4 = ["gggggg"] * 4
SIDE_BY_SIDE = ["000111"] * 4

# -- helpers ----------------------------------------------------------------------------------------


def island(rows: list[str], boards: list[str] | None = None, players: int = 2, supply: int | None = None):
    """A fresh game on the island drawn by ``rows`` (terrain letters ``g f l m .``, top row first).

    ``boards`` gives each space's landing board the same way (a seat digit, or
    ``.``); by default france's board is the left half and spain's the right.
    Outside spaces belong to no board.  The game is in its landing round.
    """
    d = CannonballData.start(players, *drawn_island(rows, boards or SIDE_BY_SIDE))
    if supply is not None:
        d.supply = supply
    return d


def sp(d: CannonballData, name: str) -> int:
    space = parse_space(name, d.columns, d.rows)
    assert space is not None, name
    return space


def names(d: CannonballData, spaces) -> set[str]:
    return {R.space_name(space, d.columns) for space in spaces}


def put(d, *, ships=None, roads="", forts=None, cannons=None, blockades=None, earned=None, to_move=0,
        round=ROUND_PLAY):
    """Put pieces on ``d`` (spaces by name, pieces by seat); a piece's space gets a road too."""
    d.round, d.to_move = round, to_move
    for seat, name in (ships or {}).items():
        d.ships[seat] = sp(d, name)
    for name in roads.split():
        d.road[sp(d, name)] = True
    for pieces, owners in ((forts, d.fort), (cannons, d.cannon), (blockades, d.blockade)):
        for seat, where in (pieces or {}).items():
            for name in where.split():
                owners[sp(d, name)] = seat
                d.road[sp(d, name)] = True
    for seat, bits in (earned or {}).items():
        d.earned[seat] = bits
    return d


def code(d: CannonballData, text: str) -> int:
    """The action a move's notation names: ``road c3``, ``end``, ``pass``."""
    word, *rest = text.split()
    kind = ACTION_WORDS.index(word)
    return encode(kind, sp(d, rest[0])) if rest else encode(kind)


def every_code(d: CannonballData) -> range:
    """Every action code up to past the last kind, and one below zero: the codes ``why_illegal`` is asked."""
    return range(-1, len(ACTION_WORDS) * MAX_SPACES + 3)


def legal(d: CannonballData) -> set[str]:
    """The legal moves as notation, after checking ``legal_actions`` against ``why_illegal`` on every code."""
    actions = R.legal_actions(d)
    assert actions == sorted(set(actions))
    assert actions == [a for a in every_code(d) if why_illegal(d, a) is None]
    return {R.action_text(d, a) for a in actions}


def act(d: CannonballData, *moves: str) -> CannonballData:
    """Play moves on a copy of ``d`` and return the new data."""
    state = ReferenceState.from_data(d)
    for move in moves:
        state.apply(code(d, move))
    return state.to_data()


def why(d: CannonballData, move: str) -> str | None:
    return why_illegal(d, code(d, move))


def refused(d: CannonballData, move: str, *words: str) -> str:
    """The reason ``move`` is illegal, after checking it cites a rule and holds ``words``."""
    reason = why(d, move)
    assert reason is not None, f"{move} is legal"
    assert "(R20." in reason and "\n" not in reason, reason
    for word in words:
        assert word in reason, reason
    return reason


def on_row_one(roads: str = "", **pieces):
    """The grass 6 x 4 island in play with a road on every space of row 1, france's ship on a1 and spain's
    on f4 (with its road), and more ``roads`` and pieces as ``put`` takes them."""
    d = island(GRASS_6X4)
    return put(d, ships={FRANCE: "a1", SPAIN: "f4"}, roads="a1 b1 c1 d1 e1 f1 f4 " + roads, **pieces)


# -- R20.3 pieces --------------------------------------------------------------------------------------


def test_r20_3_supply_by_players_and_one_tile_a_road():
    for players in (2, 3, 4):
        assert island(GRASS_6X4, ["000111"] * 4, players=players).supply == ROAD_TILES[players]
    d = put(island(GRASS_6X4), ships={FRANCE: "a1", SPAIN: "f4"}, roads="a1 f4")
    after = act(d, "road a2", "road b1")
    assert after.supply == d.supply - 2
    assert sum(after.road) + after.supply == sum(d.road) + d.supply


# -- R20.4 landing -----------------------------------------------------------------------------------------


def test_r20_4_landing_four_steps_refused_five_allowed():
    d = put(island(GRASS_6X4), ships={FRANCE: "a1"}, round=ROUND_LANDING, to_move=SPAIN)
    assert refused(d, "land e1", "4 steps", "france's landing space at a1") == (
        "e1 is 4 steps from france's landing space at a1; landing spaces keep more than 4 apart (R20.4)"
    )
    assert why(d, "land f1") is None
    assert "land f1" in legal(d) and "land e1" not in legal(d)


def test_r20_4_landing_on_the_edge_only_and_outside_spaces_make_an_edge():
    d = put(island(GRASS_6X4), round=ROUND_LANDING)
    refused(d, "land b2", "not on the island's edge")
    assert why(d, "land a2") is None and why(d, "land b1") is None
    holed = put(island(["gggggg", "gggggg", ".ggggg", "gggggg"]), round=ROUND_LANDING)
    assert why(holed, "land b2") is None  # its left side is on the outline now
    refused(holed, "land a2", "not on the island")


def test_r20_4_landing_touches_no_other_tile_even_diagonally():
    d = put(island(GRASS_6X4), round=ROUND_LANDING)
    refused(d, "land c1", "touches another player's landing board")
    jut = put(island(GRASS_6X4, ["000111", "001111", "000111", "000111"]), round=ROUND_LANDING)
    assert R.touches_other_board(jut, sp(jut, "b4"), FRANCE)  # c3 is spain's, diagonally below right
    refused(jut, "land b4", "touches another player's landing board")
    assert why(jut, "land a4") is None


def test_r20_4_landing_on_grass_or_forest_only_and_on_the_own_board():
    d = put(island(["gggggg", "gggggg", "gggggg", "lmfggg"]), round=ROUND_LANDING)
    refused(d, "land a1", "lake", "grass or forest")
    refused(d, "land b1", "mountain")
    forest = put(island(["gggggg", "gggggg", "gggggg", "fggggg"]), round=ROUND_LANDING)
    assert why(forest, "land a1") is None
    refused(forest, "land f1", "spain's landing board")
    refused(forest, "road a1", "landing round")


def test_r20_4_seats_land_in_order_then_france_lays_its_first_road_on_its_landing_space():
    d = island(["gggggg", "gggggg", "gggggg", "fggggg"])
    assert legal(d) == {f"land {n}" for n in ("a1", "a2", "a3", "a4", "b1", "b4")}
    d = act(d, "land a1")
    assert d.to_move == SPAIN and d.round == ROUND_LANDING
    refused(d, "land e1", "4 steps")
    d = act(d, "land f4")
    assert d.round == ROUND_PLAY and d.to_move == FRANCE
    assert legal(d) == {"road a1"}  # a1 is forest: that road alone, and the turn ends
    refused(d, "road a2", "first build is a road on its landing space a1")
    refused(d, "fort a1", "first build")
    d = act(d, "road a1")
    assert d.to_move == SPAIN and d.grass_roads == 0
    assert legal(d) == {"road f4"}  # f4 is grass: a second grass road may follow
    d = act(d, "road f4")
    assert d.grass_roads == 1 and d.to_move == SPAIN
    assert legal(d) == {"road e4", "road f3", "end"}


def test_r20_4_no_one_builds_the_road_on_another_players_landing_space():
    d = put(island(GRASS_6X4), ships={FRANCE: "a1", SPAIN: "b1"}, roads="b1", to_move=SPAIN)
    refused(d, "road a1", "france's landing space", "only france")
    assert "road a1" not in legal(d) and "road c1" in legal(d)
    refused(d, "fort b1", "spain's ship")  # a ship's space is not empty


def test_r20_4_a_seat_with_no_landing_space_passes_and_never_builds():
    d = island(["gggllll"[:6]] * 4)  # spain's board is all lake
    d = act(d, "land a1")
    assert legal(d) == {"pass"}
    refused(d, "land e2", "lake")
    d = act(d, "pass")
    assert d.round == ROUND_PLAY and d.ships[SPAIN] == NO_SPACE and d.passes == 0
    d = act(d, "road a1", "end")
    assert legal(d) == {"pass"}
    refused(d, "road b2", "spain has no ship")


# -- R20.5 network -----------------------------------------------------------------------------------------


def test_r20_5_network_is_the_roads_reached_from_the_ship():
    d = on_row_one()
    assert names(d, R.network(d, FRANCE)) == {"a1", "b1", "c1", "d1", "e1", "f1"}
    assert names(d, R.network(d, SPAIN)) == {"f4"}
    assert "road c2" in legal(d)
    refused(d, "road c3", "not next to france's network")


def test_r20_5_an_opponents_fort_cuts_the_network():
    d = on_row_one(forts={SPAIN: "c1"})
    assert names(d, R.network(d, FRANCE)) == {"a1", "b1"}
    refused(d, "road d2", "not next to france's network")
    refused(d, "fort e1", "not connected to france's network")
    assert why(d, "road b2") is None


@pytest.mark.parametrize("owner", [FRANCE, SPAIN])
def test_r20_5_a_blockade_cuts_every_network_its_owners_too(owner):
    d = on_row_one(blockades={owner: "c1"})
    assert names(d, R.network(d, FRANCE)) == {"a1", "b1"}
    refused(d, "road d2", "not next to")
    refused(d, "fort c1", "blockade")


def test_r20_5_cannons_ships_and_own_forts_do_not_block_and_forts_start_a_network():
    d = on_row_one(cannons={SPAIN: "c1"}, forts={FRANCE: "d1"})
    assert names(d, R.network(d, FRANCE)) == {"a1", "b1", "c1", "d1", "e1", "f1"}
    d = on_row_one(blockades={SPAIN: "c1"}, forts={FRANCE: "e1"})
    assert names(d, R.network(d, FRANCE)) == {"a1", "b1", "d1", "e1", "f1"}
    d = put(island(GRASS_6X4), ships={FRANCE: "a1", SPAIN: "b1"}, roads="a1 b1 c1", to_move=SPAIN)
    assert names(d, R.network(d, SPAIN)) == {"a1", "b1", "c1"}  # through france's ship


def test_r20_5_pieces_go_on_empty_connected_road_spaces():
    d = on_row_one(forts={SPAIN: "d1"}, cannons={SPAIN: "f4"}, roads="a3")
    refused(d, "fort a2", "holds no road")
    refused(d, "fort a3", "not connected")
    refused(d, "fort a1", "france's ship")
    refused(d, "fort d1", "spain's fort")


# -- R20.6 a turn -------------------------------------------------------------------------------------------


def test_r20_6_a_second_grass_road_next_to_the_network_as_it_now_stands():
    d = put(island(GRASS_6X4), ships={FRANCE: "a1", SPAIN: "f4"}, roads="a1 f4")
    refused(d, "road c1", "not next to")
    d = act(d, "road b1")
    assert d.grass_roads == 1 and d.to_move == FRANCE
    assert legal(d) == {"road a2", "road b2", "road c1", "end"}
    refused(d, "fort b1", "only a second grass road or end")
    refused(d, "fire f4", "only a second grass road or end")
    d = act(d, "road c1")
    assert d.to_move == SPAIN and d.grass_roads == 0 and d.supply == ROAD_TILES[2] - 2


def test_r20_6_a_second_grass_road_may_be_apart_from_the_first():
    d = put(island(GRASS_6X4), ships={FRANCE: "a1", SPAIN: "f4"}, roads="a1 a2 f4")
    d = act(d, "road b1")
    assert why(d, "road a3") is None  # next to a2, not to b1


def test_r20_6_the_turn_ends_at_once_when_no_second_grass_road_is_possible():
    d = island(["llllll", "llllll", "ffllll", "gglllg"])
    d = put(d, ships={FRANCE: "a1", SPAIN: "f1"}, roads="a1 f1")
    d = act(d, "road b1")
    assert d.to_move == SPAIN and d.grass_roads == 0
    d = put(island(["llllll", "llllll", "gfllll", "gglllg"]), ships={FRANCE: "a1", SPAIN: "f1"}, roads="a1 f1")
    d = act(d, "road b1")
    assert d.grass_roads == 1
    refused(d, "road b2", "forest", "second road of a turn goes on grass")
    assert legal(d) == {"road a2", "end"}


def test_r20_6_a_forest_road_alone_and_end_only_after_a_first_grass_road():
    d = put(island(["gggggg", "gggggg", "fggggg", "gggggg"]), ships={FRANCE: "a1", SPAIN: "f4"}, roads="a1 f4")
    refused(d, "end", "end only after a first grass road")
    d = act(d, "road a2")
    assert d.to_move == SPAIN and d.grass_roads == 0
    d = act(d, "road e4", "end")
    assert d.to_move == FRANCE and d.passes == 0


def test_r20_6_pass_only_when_no_build_is_legal():
    d = on_row_one()
    refused(d, "pass", "pass only when no build is legal")
    walled = put(island(["lglglg", "llllll", "lglglg", "llllll"]), forts={FRANCE: "b2", SPAIN: "f4"})
    assert legal(walled) == {"pass"}


def test_r20_6_a_shot_before_the_build_one_a_turn_at_an_opponent_fort_in_range():
    d = on_row_one(forts={FRANCE: "a2", SPAIN: "c4"}, cannons={FRANCE: "c1"}, roads="c2 c3")
    assert {"fire c4"} <= legal(d)
    refused(d, "fire a2", "france's own fort")
    refused(d, "fire e3", "holds no fort")
    after = act(d, "fire c4")
    assert after.fort[sp(d, "c4")] == NOBODY and after.road[sp(d, "c4")]  # the road stays
    assert after.forts_on_island(SPAIN) == 0 and after.fired and after.to_move == FRANCE
    refused(after, "fire c4", "fired already")
    assert not any(m.startswith("fire") for m in legal(after))
    d.fort[sp(d, "c4")], d.fort[sp(d, "e3")] = NOBODY, SPAIN
    d.road[sp(d, "e3")] = True
    refused(d, "fire e3", "not in range of france's cannons")
    refused(on_row_one(forts={SPAIN: "c4"}), "fire c4", "no cannon on the island")


def test_r20_6_a_cannon_cannot_fire_on_the_turn_it_is_built():
    d = on_row_one(forts={SPAIN: "c4"}, roads="c4", earned={FRANCE: CANNON_1})
    moves = legal(d)
    assert "cannon c1" in moves and not any(m.startswith("fire") for m in moves)  # no cannon yet: no shot
    d = act(d, "cannon c1")
    assert d.to_move == SPAIN and d.cannon[sp(d, "c1")] == FRANCE  # the build ended the turn
    d = act(d, "road e4", "end")
    assert d.to_move == FRANCE and "fire c4" in legal(d)  # the next turn, it fires


def test_r20_6_a_pass_may_follow_a_shot():
    d = put(island(["lglglg", "llllll", "lglglg", "llllll"]), forts={FRANCE: "b2", SPAIN: "f4"},
            cannons={SPAIN: "b4"}, to_move=SPAIN)
    assert legal(d) == {"fire b2", "pass"}
    d = act(d, "fire b2")
    assert legal(d) == {"pass"}
    d = act(d, "pass")
    assert d.to_move == FRANCE and d.passes == 0


# -- R20.7 forts -------------------------------------------------------------------------------------------


def test_r20_7_a_fort_keeps_more_than_three_steps_from_its_owners_forts():
    d = on_row_one(forts={FRANCE: "b1"})
    assert R.fort_distance(d, sp(d, "b1"), sp(d, "e1")) == 3
    assert refused(d, "fort e1") == "e1 is 3 steps from france's fort at b1; forts keep more than 3 apart (R20.7)"
    assert why(d, "fort f1") is None
    assert "fort f1" in legal(d) and "fort e1" not in legal(d)


def test_r20_7_steps_go_through_road_and_forest_whatever_stands_on_them():
    rows = ["gggggg", "gggggg", "gggggg", "gggggg"]
    d = put(island(rows), ships={FRANCE: "a1", SPAIN: "f4"}, roads="a1 b1 c1 d1 d2 d3 c3 f4", forts={FRANCE: "c1"})
    assert R.fort_distance(d, sp(d, "c1"), sp(d, "c3")) == 4  # round by the road
    assert why(d, "fort c3") is None
    d.terrain[sp(d, "c2")] = 1  # forest
    assert R.fort_distance(d, sp(d, "c1"), sp(d, "c3")) == 2
    refused(d, "fort c3", "2 steps")
    d.terrain[sp(d, "c2")] = 0
    d.fort[sp(d, "d2")] = SPAIN  # an opponent's fort on the way cuts the network, not the steps
    assert R.fort_distance(d, sp(d, "c1"), sp(d, "d3")) == 3


def test_r20_7_forts_with_no_path_between_do_not_limit_each_other():
    d = island(["gggggg", "glgggg", "llgggg", "gggggg"])
    d = put(d, ships={FRANCE: "c1", SPAIN: "f4"}, roads="a1 b1 c1 f4", forts={FRANCE: "a3"})
    assert R.fort_distance(d, sp(d, "a1"), sp(d, "a3")) is None
    assert why(d, "fort a1") is None


def test_r20_7_a_fort_and_a_cannon_are_refused_in_an_enemy_cannons_range():
    d = on_row_one(cannons={SPAIN: "b4"}, earned={FRANCE: CANNON_1 | BLOCKADE})
    assert refused(d, "fort b1", "in range of spain's cannon at b4") == (
        "b1 is in range of spain's cannon at b4; a fort is never built in an opponent cannon's range (R20.7, R20.9)"
    )
    refused(d, "cannon b1", "in range of spain's cannon at b4")
    assert why(d, "blockade b1") is None  # a blockade may stand in range
    assert why(d, "fort c1") is None and why(d, "cannon c1") is None
    d.terrain[sp(d, "b3")] = 2  # a lake does not stop the shot
    refused(d, "fort b1", "in range")
    d.terrain[sp(d, "b3")] = 3  # a mountain does
    assert why(d, "fort b1") is None and why(d, "cannon b1") is None


def test_r20_7_no_fort_left_on_the_mat():
    d = on_row_one(forts={FRANCE: "a2 b2 c2 d2 e2 f2 a3 b3 c3 d3"})
    refused(d, "fort f1", "no fort left")


# -- R20.8 earned pieces -------------------------------------------------------------------------------------

LONG = ["ggggggggggfg", "llllllllllll", "gggggggggggg", "gggggggggggg"]  # row 4 cut off by lakes
LONG_BOARDS = ["000000111111"] * 4


def long_island(forts_up_top: int, **pieces):
    d = island(LONG, LONG_BOARDS)
    up_top = " ".join(f"{c}4" for c in "abcdefghijkl"[:forts_up_top])
    roads = " ".join(f"{c}1" for c in "abcdefghijkl") + " l4"
    return put(d, ships={FRANCE: "l1", SPAIN: "l4"}, roads=roads, forts={FRANCE: up_top}, **pieces)


@pytest.mark.parametrize(
    ("before", "earned_before", "earned_after"),
    [(2, 0, CANNON_1), (5, CANNON_1, CANNON_1 | CANNON_2), (7, CANNON_1 | CANNON_2, CANNON_1 | CANNON_2 | BLOCKADE),
     (3, CANNON_1, CANNON_1), (6, CANNON_1 | CANNON_2, CANNON_1 | CANNON_2)],
)
def test_r20_8_the_3rd_6th_and_8th_fort_earn_a_piece(before, earned_before, earned_after):
    d = long_island(before, earned={FRANCE: earned_before})
    d = act(d, "fort a1")
    assert d.forts_on_island(FRANCE) == before + 1 and d.earned[FRANCE] == earned_after


def test_r20_8_nothing_earned_nothing_built():
    d = long_island(1)
    refused(d, "cannon a1", "earned no cannon")
    refused(d, "blockade a1", "not earned its blockade")
    d = long_island(3, earned={FRANCE: CANNON_1}, cannons={FRANCE: "b1"})
    refused(d, "cannon a1", "earned cannon is built", "6th")
    d = long_island(8, earned={FRANCE: CANNON_1 | CANNON_2 | BLOCKADE}, cannons={FRANCE: "b1 d1"},
                    blockades={FRANCE: "f1"})
    refused(d, "cannon a1", "both its cannons")
    refused(d, "blockade a1", "already built")


def test_r20_8_earned_pieces_are_kept_after_forts_are_lost():
    d = long_island(3, earned={FRANCE: CANNON_1}, cannons={SPAIN: "a2"}, to_move=SPAIN)
    d = act(d, "fire a4", "road k4")  # k4 is forest: the turn ends
    assert d.forts_on_island(FRANCE) == 2 and d.earned[FRANCE] == CANNON_1 and d.to_move == FRANCE
    assert "cannon c1" in legal(d)


def test_r20_8_rebuilding_a_lost_fort_does_not_earn_twice():
    d = long_island(2, earned={FRANCE: CANNON_1}, cannons={FRANCE: "c1"})
    d = act(d, "fort a1")
    assert d.forts_on_island(FRANCE) == 3 and d.earned[FRANCE] == CANNON_1
    d.to_move = FRANCE
    refused(d, "cannon e1", "earned cannon is built")


def test_r20_7_r20_8_a_fort_shot_goes_back_to_the_mat_and_is_built_again():
    d = long_island(9, earned={FRANCE: CANNON_1 | CANNON_2 | BLOCKADE}, cannons={SPAIN: "a2"}, to_move=SPAIN)
    assert "fire a4" in legal(d)
    d = act(d, "fire a4", "road k4")
    assert d.forts_on_island(FRANCE) == 8  # one fort back on the mat: two to build
    refused(d, "fort a1", "in range of spain's cannon at a2")
    d = act(d, "fort c1")
    assert d.round == ROUND_PLAY and d.forts_on_island(FRANCE) == 9
    assert d.earned[FRANCE] == CANNON_1 | CANNON_2 | BLOCKADE
    d = act(d, "road j4", "fort g1")  # no grass next to spain's network after j4: its turn ends
    assert d.round == ROUND_OVER and d.reason == REASON_TEN_FORTS and d.winners == [FRANCE]


# -- R20.9 range ---------------------------------------------------------------------------------------------


def test_r20_9_a_cannon_hits_its_row_and_column_up_to_a_mountain_or_a_blockade():
    d = island(["gggggg", "ggmggg", "gggggg", ".ggllg"])
    d = put(d, cannons={FRANCE: "c2"}, blockades={SPAIN: "e2"})
    assert names(d, R.shots_from(d, sp(d, "c2"))) == {"a2", "b2", "d2", "c1"}  # up: c3 is a mountain
    d = put(d, cannons={FRANCE: "c1"})  # a1 is outside, the lakes d1 and e1 let the shot through
    assert names(d, R.shots_from(d, sp(d, "c1"))) == {"b1", "d1", "e1", "f1", "c2"}
    assert R.in_range(d, FRANCE) == R.shots_from(d, sp(d, "c2")) | R.shots_from(d, sp(d, "c1"))
    assert R.in_range(d, SPAIN) == set()


def test_r20_9_no_shot_passes_a_mountain_or_a_blockade():
    d = island(["gggggg", "ggmggg", "gggggg", ".ggllg"])
    d = put(d, cannons={FRANCE: "c2"}, blockades={FRANCE: "e2"}, forts={SPAIN: "c4 f2 d2"})
    refused(d, "fire c4", "range")  # behind the mountain c3
    refused(d, "fire f2", "range")  # behind the blockade e2, france's own
    assert why(d, "fire d2") is None
    assert {move for move in legal(d) if move.startswith("fire")} == {"fire d2"}


def test_r20_9_range_crosses_tile_edges_and_a_blockade_stops_the_shot():
    d = on_row_one(cannons={SPAIN: "f1"}, forts={FRANCE: "b4"})
    assert sp(d, "a1") in R.in_range(d, SPAIN)  # across the tile edge between c and d
    refused(d, "fort b1", "in range of spain's cannon at f1")
    d = on_row_one(cannons={SPAIN: "f1"}, blockades={FRANCE: "d1"})
    assert names(d, R.in_range(d, SPAIN)) == {"e1", "f2", "f3", "f4"}
    assert why(d, "fort b1") is None


def test_r20_9_a_cannon_may_not_be_built_in_range_of_an_opponents_cannon():
    d = on_row_one(cannons={SPAIN: "f3"}, earned={FRANCE: CANNON_1})
    refused(d, "cannon f1", "in range of spain's cannon at f3", "(R20.9)")
    assert why(d, "cannon e1") is None


# -- R20.10 end ----------------------------------------------------------------------------------------------


def test_r20_10_the_last_road_tile_ends_the_game_even_as_the_first_of_two_grass_roads():
    d = put(island(GRASS_6X4, supply=1), ships={FRANCE: "a1", SPAIN: "f4"}, roads="a1 f4", forts={SPAIN: "e4"})
    d = act(d, "road b1")
    assert d.round == ROUND_OVER and d.reason == REASON_SUPPLY and d.supply == 0
    assert d.to_move == NOBODY and d.grass_roads == 0 and not d.fired
    assert d.winners == [SPAIN] and d.ranking == [SPAIN, FRANCE]
    assert legal(d) == set()
    refused(d, "road c1", "game is over")
    with pytest.raises(ValueError, match="road c1"):
        ReferenceState.from_data(d).apply(code(d, "road c1"))


def test_r20_10_a_second_grass_road_may_be_the_last_tile():
    d = put(island(GRASS_6X4, supply=2), ships={FRANCE: "a1", SPAIN: "f4"}, roads="a1 f4")
    d = act(d, "road b1")
    assert d.round == ROUND_PLAY and d.grass_roads == 1
    d = act(d, "road c1")
    assert d.reason == REASON_SUPPLY and d.winners == [FRANCE, SPAIN]


def test_r20_10_ten_forts_end_the_game_and_win_alone():
    d = long_island(9, earned={FRANCE: CANNON_1 | CANNON_2 | BLOCKADE})
    d.fort[sp(d, "k2")] = SPAIN
    d.road[sp(d, "k2")] = True
    d = act(d, "fort a1")
    assert d.round == ROUND_OVER and d.reason == REASON_TEN_FORTS and d.forts_on_island(FRANCE) == FORTS
    assert d.winners == [FRANCE] and d.ranking == [FRANCE, SPAIN] and d.to_move == NOBODY


def three_boards() -> CannonballData:
    return put(island(GRASS_6X4, ["001122"] * 4, players=3))


@pytest.mark.parametrize(
    ("forts", "cannons", "winners", "ranking"),
    [
        ({FRANCE: "a1 d1", SPAIN: "a2", PORTUGAL: ""}, {}, [FRANCE], [FRANCE, SPAIN, PORTUGAL]),  # most forts
        ({FRANCE: "a1 e1", SPAIN: "a2 b2", PORTUGAL: "e3 f3"}, {}, [SPAIN], [SPAIN, FRANCE, PORTUGAL]),  # away
        ({FRANCE: "e1", SPAIN: "e2", PORTUGAL: "a3"}, {FRANCE: "a4", PORTUGAL: "f4"}, [SPAIN],
         [SPAIN, FRANCE, PORTUGAL]),  # fewer cannons and blockades (their seat breaks no tie)
        ({FRANCE: "e1", SPAIN: "e2", PORTUGAL: "a3"}, {SPAIN: "a4"}, [FRANCE, PORTUGAL],
         [FRANCE, PORTUGAL, SPAIN]),  # shared victory
        ({FRANCE: "", SPAIN: "", PORTUGAL: ""}, {}, [FRANCE, SPAIN, PORTUGAL], [FRANCE, SPAIN, PORTUGAL]),
    ],
)
def test_r20_10_tie_breaks_and_shared_victory(forts, cannons, winners, ranking):
    d = put(three_boards(), forts=forts, cannons=cannons)
    assert R.decide(d) == (winners, ranking)


def test_r20_10_blockades_count_with_cannons_in_the_last_tie_break():
    d = put(three_boards(), forts={FRANCE: "e1", SPAIN: "e2", PORTUGAL: "a3"}, blockades={FRANCE: "b4"},
            cannons={SPAIN: "a4"})
    assert R.decide(d) == ([PORTUGAL], [PORTUGAL, FRANCE, SPAIN])


def test_r20_10_ten_forts_rank_first_then_the_others_by_the_tie_breaks():
    d = put(island(GRASS_6X4, ["001122"] * 4, players=3), forts={SPAIN: "a1 b1 c1 d1 e1 f1 a2 b2 c2 d2",
                                                                 PORTUGAL: "a3", FRANCE: "a4"})
    assert R.decide(d) == ([SPAIN], [SPAIN, PORTUGAL, FRANCE])


WALLED = ["lglglg", "llllll", "lglglg", "llllll"]  # six grass spaces among lakes


def test_r20_10_every_player_passing_in_a_row_ends_the_game():
    d = put(island(WALLED), forts={FRANCE: "b2 d4", SPAIN: "f4"})
    d = act(d, "pass")
    assert d.passes == 1 and d.round == ROUND_PLAY
    d = act(d, "pass")
    assert d.round == ROUND_OVER and d.reason == REASON_ALL_PASSED and d.winners == [FRANCE]


def test_r20_10_a_shot_resets_the_pass_count():
    d = put(island(WALLED), forts={FRANCE: "b2 d2", SPAIN: "f4"}, cannons={SPAIN: "b4"})
    d = act(d, "pass")
    assert d.passes == 1 and legal(d) == {"fire b2", "pass"}
    d = act(d, "fire b2")
    assert d.passes == 0 and d.fired  # the shot starts the count again at once
    d = act(d, "pass")
    assert d.passes == 0 and d.round == ROUND_PLAY and d.to_move == FRANCE
    d = act(d, "pass")
    assert d.passes == 1 and legal(d) == {"pass"}  # nothing of france's in range any more
    d = act(d, "pass")
    assert d.reason == REASON_ALL_PASSED
    # one fort each; france's d2 is on spain's board, spain's f4 on its own: france first
    assert d.winners == [FRANCE] and d.ranking == [FRANCE, SPAIN]


def test_r20_10_a_build_resets_the_pass_count():
    d = put(island(["lglglg", "llllll", "lglggg", "llllll"]), forts={FRANCE: "b2", SPAIN: "f2"}, to_move=FRANCE)
    d = act(d, "pass")
    assert d.passes == 1 and "road e2" in legal(d)
    d = act(d, "road e2")
    assert d.passes == 0 and d.grass_roads == 1  # the build starts the count again at once; the turn is open
    d = act(d, "end")
    assert d.passes == 0 and d.to_move == FRANCE


# -- messages and the state's interface ----------------------------------------------------------------------


def test_malformed_codes_and_the_apply_error():
    d = on_row_one()
    assert "not an action code" in why_illegal(d, -1)
    assert "not an action code" in why_illegal(d, len(ACTION_WORDS) * MAX_SPACES)
    assert "names no space" in why_illegal(d, encode(7, 3))
    assert "off the 6x4 island" in why_illegal(d, encode(2, 24))
    with pytest.raises(ValueError, match=r"france: road c3 is illegal: c3 is not next to france's network \(R20.5\)"):
        ReferenceState.from_data(d).apply(code(d, "road c3"))


def test_every_refusal_cites_a_rule():
    for d in (on_row_one(forts={SPAIN: "c4"}, cannons={FRANCE: "b2"}), long_island(4), island(GRASS_6X4),
              act(put(island(GRASS_6X4), ships={FRANCE: "a1", SPAIN: "f4"}, roads="a1 f4"), "road b1")):
        for action in R.all_actions(d):
            reason = why_illegal(d, action)
            assert reason is None or ("(R20." in reason and reason.endswith(")")), reason


def test_state_interface():
    d = on_row_one()
    state = ReferenceState.from_data(d)
    assert state.players == 2 and state.to_move == FRANCE and state.round == ROUND_PLAY
    assert not state.is_over and state.winners == [] and state.ranking == [] and state.reason == REASON_NONE
    assert state.supply == d.supply
    d.supply = 0  # a deep copy was taken
    assert state.supply != 0 and state.to_data() == ReferenceState.from_data(state.to_data()).to_data()
    copy = state.copy()
    copy.apply(copy.legal_actions()[0])
    assert state.to_data() != copy.to_data() and state.to_move == FRANCE


# -- property tests: random games on hand-made islands --------------------------------------------------------

FOUR = [  # 12 x 12, 2 x 2 tiles: spain top left, portugal top right, france bottom left, england bottom right
    "ggfgggggfggg",
    "gmgfglggggmg",
    "ggggfggfgggf",
    "fglgggmgggfg",
    "gggmgfggglgg",
    "gfggggfggggg",
    "ggggglgggfgg",
    "gfmggggmgggf",
    "ggggfgggfglg",
    "glggggmggggg",
    "gggfggggggmg",
    "fggggfgglggg",
]
FOUR_BOARDS = ["111111222222"] * 6 + ["000000333333"] * 6
THREE = FOUR[:6] + ["..." + row[3:9] + "..." for row in FOUR[6:]]  # the third tile centred below
THREE_BOARDS = ["111111222222"] * 6 + ["...000000..."] * 6
TWO = [row[:6] for row in FOUR]
TWO_BOARDS = ["111111"] * 6 + ["000000"] * 6

ISLANDS = {2: (TWO, TWO_BOARDS), 3: (THREE, THREE_BOARDS), 4: (FOUR, FOUR_BOARDS)}


def pick(rng: random.Random, d: CannonballData, actions: list[int], builder: bool) -> int:
    """A random legal move; a ``builder`` prefers shots, then pieces, then anything, so that its games reach
    cannons, blockades, shots and ten forts (uniform play mostly lays roads)."""
    if builder:
        for kinds in ((FIRE,), (CANNON_BUILD, BLOCKADE_BUILD), (FORT_BUILD,)):
            preferred = [a for a in actions if decode(a)[0] in kinds]
            if preferred and rng.random() < 0.8:
                return rng.choice(preferred)
    return rng.choice(actions)


def random_game(players: int, seed: int, full_check_every: int = 0, builder: bool = False, supply: int | None = None):
    """Play a seeded random game, checking the invariants after every move; return the final data and how many
    moves of each kind were played."""
    rows, boards = ISLANDS[players]
    rng = random.Random(seed)
    state = ReferenceState.from_data(island(rows, boards, players=players, supply=supply))
    initial = state.supply
    steps = 0
    kinds: Counter[int] = Counter()
    while not state.is_over:
        d = state.to_data()
        actions = state.legal_actions()
        assert actions and actions == sorted(set(actions))
        if full_check_every and steps % full_check_every == 0:
            assert actions == [a for a in every_code(d) if why_illegal(d, a) is None]
        assert d.supply + sum(d.road) == initial
        assert all(0 <= d.forts_on_island(seat) <= FORTS for seat in range(players))
        assert ReferenceState.from_data(d).to_data() == d
        action = pick(rng, d, actions, builder)
        other = state.copy()
        other.apply(action)
        assert state.to_data() == d  # the copy is independent
        state.apply(action)
        kinds[decode(action)[0]] += 1
        assert state.to_data() == other.to_data()
        illegal = rng.randrange(len(ACTION_WORDS) * MAX_SPACES)
        if illegal not in state.legal_actions() and not state.is_over:
            with pytest.raises(ValueError):
                state.copy().apply(illegal)
        steps += 1
        assert steps <= 20 * initial + 50 * players
    d = state.to_data()
    assert state.legal_actions() == [] and d.to_move == NOBODY and d.reason != REASON_NONE
    assert d.supply + sum(d.road) == initial
    assert sorted(d.ranking) == list(range(players)) and d.winners
    assert d.ranking[: len(d.winners)] == d.winners
    return d, kinds


def test_the_hand_made_islands_are_well_formed():
    for players, (rows, boards) in ISLANDS.items():
        d = island(rows, boards, players=players)
        assert d.columns in (6, 12) and d.rows == 12
        for seat in range(players):
            assert R.landing_spaces(d, seat), (players, seat)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("builder", [False, True])
def test_random_games_keep_legal_actions_equal_to_why_illegal(players, builder):
    for seed in range(3):
        random_game(players, 1000 * players + seed, full_check_every=2, builder=builder)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_and_keep_their_invariants(players):
    reasons: Counter[int] = Counter()
    played: Counter[int] = Counter()
    for seed in range(24):
        d, kinds = random_game(players, seed, builder=seed % 2 == 1, supply=None if seed % 3 else 400)
        reasons[d.reason] += 1
        played += kinds
        if d.reason == REASON_TEN_FORTS:
            assert d.forts_on_island(d.winners[0]) == FORTS and len(d.winners) == 1
        if d.reason == REASON_SUPPLY:
            assert d.supply == 0
    assert reasons[REASON_SUPPLY] and len(reasons) >= 2, reasons  # a big supply lets other ends come first
    assert all(played[kind] for kind in (LAND, FIRE, ROAD, FORT_BUILD, CANNON_BUILD, BLOCKADE_BUILD, END)), played
