"""The compiled core of Cannonball Colony (``cannonball_core``, R20) on small hand-built islands.

Each island is written as rows of terrain letters, the top row first (the position format's letters:
``g`` grass, ``f`` forest, ``l`` lake, ``m`` mountain, ``.`` outside), with a second picture of the
same shape giving each space's landing board (a seat digit, ``.`` outside).  Pieces are placed by
space name (``c7``).  Moves are compared as the notation writes them (``road c2``).
"""

from __future__ import annotations

import pytest

from cannonball_helpers import drawn_island
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
    LAND,
    MAX_SPACES,
    NO_SPACE,
    NOBODY,
    OUTSIDE,
    PASS,
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
    space_name,
)

cannonball_core = pytest.importorskip("cannonball_core", reason="the compiled core is not built")
CoreState = cannonball_core.CoreState

KINDS = {word: kind for kind, word in enumerate(ACTION_WORDS)}


# -- helpers -------------------------------------------------------------------------------------


def halves(rows: list[str], players: int = 2) -> list[str]:
    """Boards for a 2-player island: the bottom half seat 0, the top half seat 1 (R20.1)."""
    half = len(rows) // 2
    return [
        "".join("." if ch == "." else ("1" if i < half else "0") for ch in line) for i, line in enumerate(rows)
    ]


def quarters(rows: list[str]) -> list[str]:
    """Boards for a 4-player 12 x 12 island: clockwise from the bottom left (R20.1)."""
    seat = {(False, False): "0", (True, False): "1", (True, True): "2", (False, True): "3"}
    out = []
    for i, line in enumerate(rows):
        top = i < len(rows) // 2
        out.append("".join("." if ch == "." else seat[(top, c >= len(line) // 2)] for c, ch in enumerate(line)))
    return out


def names(text: str, columns: int, rows: int) -> list[int]:
    spaces = []
    for word in text.split():
        space = parse_space(word, columns, rows)
        assert space is not None, word
        spaces.append(space)
    return spaces


def island(
    rows: list[str],
    boards: list[str] | None = None,
    players: int = 2,
    *,
    ships: dict[int, str] | None = None,
    roads: str = "",
    forts: dict[int, str] | None = None,
    cannons: dict[int, str] | None = None,
    blockades: dict[int, str] | None = None,
    earned: dict[int, int] | None = None,
    round_: int = ROUND_PLAY,
    to_move: int = 0,
    supply: int | None = None,
    fired: bool = False,
    grass_roads: int = 0,
    passes: int = 0,
) -> CannonballData:
    """A CannonballData from rows of letters (top row first) and the pieces by space name."""
    columns, height, terrain, board_of = drawn_island(rows, boards if boards is not None else halves(rows))
    n = columns * height
    spaces = lambda text: names(text, columns, height)
    ship_list = [NO_SPACE] * players
    for seat, name in (ships or {}).items():
        ship_list[seat] = spaces(name)[0]
    road = [False] * n
    for space in spaces(roads):
        road[space] = True
    owners = []
    for pieces in (forts, cannons, blockades):
        owner = [NOBODY] * n
        for seat, text in (pieces or {}).items():
            for space in spaces(text):
                owner[space] = seat
                road[space] = True  # a piece stands on a road (R20.6)
        owners.append(owner)
    d = CannonballData.start(players, columns, height, terrain, board_of)
    for seat, bits in (earned or {}).items():
        d.earned[seat] = bits
    d.round, d.to_move, d.ships, d.road = round_, to_move, ship_list, road
    d.fort, d.cannon, d.blockade = owners
    d.supply = d.supply if supply is None else supply
    d.fired, d.grass_roads, d.passes = fired, grass_roads, passes
    return d


def core(*args, **kwargs) -> CoreState:
    return CoreState.from_data(island(*args, **kwargs))


def notation(state: CoreState, action: int) -> str:
    kind, space = decode(action)
    return ACTION_WORDS[kind] if kind in (END, PASS) else f"{ACTION_WORDS[kind]} {space_name(space, state.columns)}"


def moves(state: CoreState) -> list[str]:
    return [notation(state, a) for a in state.legal_actions()]


def of_kind(state: CoreState, word: str) -> set[str]:
    return {m.split()[1] for m in moves(state) if m.split()[0] == word}


def code(state: CoreState, move: str) -> int:
    word, _, name = move.partition(" ")
    if not name:
        return encode(KINDS[word])
    return encode(KINDS[word], names(name, state.columns, state.rows)[0])


def play(state: CoreState, *texts: str) -> CoreState:
    for move in texts:
        state.apply(code(state, move))
        assert state.check_derived(), move
    return state


def spaces_named(state: CoreState, spaces: list[int]) -> set[str]:
    return {space_name(s, state.columns) for s in spaces}


GRASS_6x4 = ["gggggg"] * 4

ISLAND_12 = [
    "ggfgglggfggm",
    "gfggmgggglgg",
    "ggglggfggggf",
    "fgggggmgglgg",
    "gglgfggggggg",
    "gggggfgglgfg",
    "gfgggglggggg",
    "ggmgfgggfgmg",
    "gggglgggggfg",
    "fggggggmgggg",
    "ggfglgggfglg",
    "gggggfgggggg",
]


def new_game_12(players: int = 4) -> CoreState:
    return core(ISLAND_12, quarters(ISLAND_12), players, round_=ROUND_LANDING)


# -- landing (R20.4) -------------------------------------------------------------------------------


def test_landing_spaces_are_own_board_edge_grass_or_forest_and_far_apart():
    rows = ["gggggggg", "gggggggg", "gggggggg", "glmfgggg"]
    state = core(rows, round_=ROUND_LANDING)
    # row 2 touches seat 1's board; b1 is a lake and c1 a mountain
    assert of_kind(state, "land") == {"a1", "d1", "e1", "f1", "g1", "h1"}
    assert set(moves(state)) == {f"land {n}" for n in ("a1", "d1", "e1", "f1", "g1", "h1")}
    play(state, "land a1")
    assert state.to_move == 1 and state.round == ROUND_LANDING
    # only row 4 is on seat 1's edge away from seat 0's board; more than 4 steps from a1
    assert of_kind(state, "land") == {"c4", "d4", "e4", "f4", "g4", "h4"}
    play(state, "land c4")
    assert state.round == ROUND_PLAY and state.to_move == 0
    assert state.to_data().ships == names("a1 c4", 8, 4)


def test_landing_edge_includes_spaces_next_to_an_outside_space():
    rows = ["gggggg"] * 5 + ["gg.ggg", "gggggg", "gggggg"]
    boards = ["111111"] * 4 + ["000000", "00.000", "000000", "000000"]
    state = core(rows, boards, round_=ROUND_LANDING)
    expected = {"a1", "b1", "c1", "d1", "e1", "f1", "a2", "c2", "f2", "a3", "b3", "d3", "f3"}
    assert of_kind(state, "land") == expected


def test_landing_touching_another_board_diagonally_is_refused():
    rows = ["gggg", "gggg", "gggg", "gggg"]
    boards = ["1111", "1111", "0001", "0000"]
    state = core(rows, boards, round_=ROUND_LANDING)
    # d1 touches d2 (seat 1's), c1 touches it diagonally; a2 touches a3 and b3
    assert of_kind(state, "land") == {"a1", "b1"}


def test_no_landing_space_means_pass_and_no_ship_for_the_game():
    rows = ["gggggg", "llllll"]
    state = core(rows, round_=ROUND_LANDING)
    assert moves(state) == ["pass"]  # seat 0's board is all lake
    play(state, "pass")
    assert state.round == ROUND_LANDING and state.to_move == 1 and state.passes == 0
    assert moves(state) == ["pass"]  # seat 1's row touches seat 0's board everywhere
    play(state, "pass")
    assert state.round == ROUND_PLAY and state.to_move == 0
    play(state, "pass", "pass")  # no ship, no network: nothing to build (R20.10: every player passed)
    assert state.is_over and state.reason == REASON_ALL_PASSED and state.winners == [0, 1]


# -- the first road on the ship space (R20.4, R20.6) ---------------------------------------------------


def test_first_build_is_a_road_on_the_own_ship_space_then_a_second_grass_road():
    state = core(GRASS_6x4, ships={0: "a1", 1: "f4"})
    assert moves(state) == ["road a1"]
    play(state, "road a1")
    assert state.grass_roads == 1 and state.to_move == 0
    assert moves(state) == ["road b1", "road a2", "end"]
    play(state, "road b1")
    assert state.to_move == 1 and state.grass_roads == 0 and state.supply == ROAD_TILES[2] - 2
    assert moves(state) == ["road f4"]


def test_end_closes_the_turn_after_one_grass_road():
    state = play(core(GRASS_6x4, ships={0: "a1", 1: "f4"}), "road a1", "end")
    assert state.to_move == 1 and state.grass_roads == 0 and state.to_data().road.count(True) == 1


def test_forest_ship_space_road_ends_the_turn():
    state = play(core(["gggggg", "gggggg", "gggggg", "fggggg"], ships={0: "a1", 1: "f4"}), "road a1")
    assert state.to_move == 1 and state.grass_roads == 0


def test_grass_road_with_no_second_grass_road_legal_ends_the_turn_at_once():
    rows = ["gggggg", "gggggg", "lggggg", "gfgggg"]
    state = play(core(rows, ships={0: "a1", 1: "f4"}), "road a1")
    assert state.to_move == 1 and state.grass_roads == 0
    state = play(state, "road f4", "road e4")
    assert of_kind(state, "road") == {"b1"}  # the forest next door; a2 is a lake


def test_second_grass_road_may_be_anywhere_next_to_the_network():
    state = core(GRASS_6x4, ships={0: "a1", 1: "f4"}, roads="a1 b1 c1")
    play(state, "road d1")
    assert of_kind(state, "road") == {"a2", "b2", "c2", "d2", "e1"}
    play(state, "road a2")
    assert state.to_move == 1


def test_no_road_on_another_players_ship_space():
    state = core(GRASS_6x4, ships={0: "a1", 1: "c1"}, roads="c1 b1", to_move=1)
    assert "a1" not in of_kind(state, "road")
    assert of_kind(state, "road") == {"b2", "c2", "d1"}


# -- networks (R20.5) ---------------------------------------------------------------------------------


def test_network_runs_through_any_road_and_stops_at_opponent_forts_and_every_blockade():
    rows = ["llllllll", "gggggggg"]
    state = core(rows, ships={0: "a1"}, roads="a1 b1 c1 d1 e1", forts={1: "c1"})
    assert spaces_named(state, state.network(0)) == {"a1", "b1"}
    assert spaces_named(state, state.network(1)) == {"a1", "b1", "c1", "d1", "e1"}
    assert of_kind(state, "road") == set()  # a1/b1's neighbours: lakes above, the fort's road
    state = core(rows, ships={0: "a1"}, roads="a1 b1 c1 d1 e1", blockades={0: "b1"}, earned={0: BLOCKADE})
    assert spaces_named(state, state.network(0)) == {"a1"}  # its own blockade blocks it too


def test_forts_seed_the_network_apart_from_the_ship():
    rows = ["llllllllll", "gggglggggg"]
    state = core(rows, ships={0: "a1"}, roads="a1 b1 g1 h1", forts={0: "g1"})
    assert spaces_named(state, state.network(0)) == {"a1", "b1", "g1", "h1"}
    assert of_kind(state, "road") == {"c1", "f1", "i1"}


def test_a_fort_cuts_the_opponents_network_and_a_shot_fort_gives_it_back():
    rows = ["llllllll", "gggggggg"]
    state = core(rows, ships={0: "a1", 1: "h1"}, roads="a1 b1 c1 d1 e1 f1 g1 h1", to_move=1)
    assert len(state.network(0)) == 8
    play(state, "fort e1")
    assert spaces_named(state, state.network(0)) == {"a1", "b1", "c1", "d1"}
    data = state.to_data()
    data.cannon[names("b1", 8, 2)[0]], data.earned[0] = 0, CANNON_1
    state = CoreState.from_data(data)
    play(state, "fire e1")  # seat 0's cannon on b1 hits the fort along the row
    assert len(state.network(0)) == 8 and state.to_data().road.count(True) == 8
    assert spaces_named(state, state.network(1)) == {"a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"}


# -- forts (R20.7) ------------------------------------------------------------------------------------


def test_fort_spacing_counts_steps_along_roads():
    rows = ["llllllllll", "gggggggggg"]
    state = core(rows, ships={0: "a1"}, roads="a1 b1 c1 d1 e1 f1 g1 h1 i1 j1", forts={0: "b1"})
    assert of_kind(state, "fort") == {"f1", "g1", "h1", "i1", "j1"}


def test_fort_spacing_counts_forest_without_road_and_not_grass():
    base = dict(ships={0: "a3"}, roads="a1 b1 c1 d1 a2 a3 b3 c3 d3 e3", forts={0: "e1"})
    forest = core(["ggggg", "gmmmf", "ggggg"], ["00000"] * 3, **base)
    assert of_kind(forest, "fort") == {"a1", "a2", "b3", "c3"}  # e1-e2-e3 is 2 steps through the forest
    grass = core(["ggggg", "gmmmg", "ggggg"], ["00000"] * 3, **base)
    assert of_kind(grass, "fort") == {"a1", "a2", "b3", "c3", "d3", "e3"}


def test_forts_with_no_path_between_them_do_not_limit_each_other():
    rows = ["lllllllll", "gggglgggg"]
    state = core(rows, ships={0: "a1"}, roads="a1 b1 c1 d1 f1 g1 h1 i1", forts={0: "f1"})
    assert of_kind(state, "fort") == {"b1", "c1", "d1"}  # g1-i1 are within 3 steps of f1


def test_no_fort_or_cannon_in_range_of_an_opponent_cannon_but_a_blockade_may_stand_there():
    rows = ["llllllll", "gggggggg", "llllllll"]
    state = core(rows, ["11111111", "00000000", "00000000"], ships={0: "a2"},
                 roads="a2 b2 c2 d2 e2", cannons={1: "h2"}, earned={0: CANNON_1 | BLOCKADE, 1: CANNON_1})
    assert of_kind(state, "fort") == set()
    assert of_kind(state, "cannon") == set()
    assert of_kind(state, "blockade") == {"b2", "c2", "d2", "e2"}


def test_forts_need_an_empty_connected_road_space():
    rows = ["llllllll", "gggggggg"]
    state = core(rows, ships={0: "a1", 1: "h1"}, roads="a1 b1 g1 h1", cannons={0: "b1"}, earned={0: CANNON_1})
    assert of_kind(state, "fort") == set()  # a1 holds the ship, b1 the cannon; g1 is not connected


def test_forts_earn_cannons_and_the_blockade():
    rows = ["g" * 12] * 12
    boards = ["0" * 12] * 12
    everything = " ".join(space_name(s, 12) for s in range(144))
    spread = ["a1", "e1", "i1", "a5", "e5", "i5", "a9", "e9", "i9"]
    state = core(rows, boards, ships={0: "l12"}, roads=everything, forts={0: " ".join(spread[:2])})
    play(state, "fort l7")
    data = state.to_data()
    assert data.earned[0] == CANNON_1 and state.to_move == 1
    state = core(rows, boards, ships={0: "l12"}, roads=everything, forts={0: " ".join(spread[:5])},
                 earned={0: CANNON_1})
    play(state, "fort l7")
    assert state.to_data().earned[0] == CANNON_1 | CANNON_2
    state = core(rows, boards, ships={0: "l12"}, roads=everything, forts={0: " ".join(spread[:7])},
                 earned={0: CANNON_1 | CANNON_2})
    play(state, "fort l7")
    assert state.to_data().earned[0] == CANNON_1 | CANNON_2 | BLOCKADE


def test_earned_pieces_stay_when_forts_leave_and_each_is_built_once():
    rows = ["llllllll", "gggggggg"]
    state = core(rows, ships={0: "a1"}, roads="a1 b1 c1 d1 e1 f1 g1 h1", forts={0: "h1"},
                 cannons={0: "b1"}, earned={0: CANNON_1 | BLOCKADE})
    assert of_kind(state, "cannon") == set()  # cannon 1 stands; cannon 2 not earned
    assert of_kind(state, "blockade") == {"c1", "d1", "e1", "f1", "g1"}
    play(state, "blockade d1")
    assert state.to_data().earned[0] == CANNON_1 | BLOCKADE
    state = core(rows, ships={0: "a1"}, roads="a1 b1 c1 d1 e1 f1 g1 h1", forts={0: "h1"},
                 earned={0: CANNON_1 | CANNON_2})
    assert of_kind(state, "cannon") == {"b1", "c1", "d1", "e1", "f1", "g1"}
    assert of_kind(state, "blockade") == set()


def test_ten_forts_win_at_once():
    rows = ["g" * 12] * 12
    boards = ["0" * 12] * 6 + ["1" * 12] * 6
    everything = " ".join(space_name(s, 12) for s in range(144))
    nine = "a1 e1 i1 a5 e5 i5 a9 e9 i9"
    state = core(rows, boards, ships={0: "a12", 1: "c12"}, roads=everything,
                 forts={0: nine, 1: "l4 l8"}, earned={0: 7, 1: 0})
    play(state, "fort l12")
    assert state.is_over and state.reason == REASON_TEN_FORTS
    assert state.winners == [0] and state.ranking == [0, 1]
    assert state.to_move == NOBODY and state.round == ROUND_OVER and state.legal_actions() == []


# -- range and fire (R20.6, R20.9) ----------------------------------------------------------------------


def test_range_is_cut_by_mountains_outside_spaces_and_blockades_but_not_lakes():
    rows = ["gggmgggg", "glggg.gg", "gggggggg"]
    boards = ["11111111", "00000.00", "00000000"]
    state = core(rows, boards, cannons={0: "d2"}, earned={0: CANNON_1})
    assert spaces_named(state, state.in_range(0)) == {"a2", "b2", "c2", "e2", "d1"}
    state = core(rows, boards, cannons={0: "d2"}, blockades={1: "c2"}, earned={0: CANNON_1, 1: BLOCKADE})
    assert spaces_named(state, state.in_range(0)) == {"e2", "d1"}


def test_a_new_blockade_cuts_the_ranges():
    rows = ["llllllll", "gggggggg"]
    state = core(rows, ships={0: "a1"}, roads="a1 b1 c1 d1 e1 f1 g1 h1", cannons={1: "h1"},
                 earned={0: BLOCKADE, 1: CANNON_1})
    assert "c1" in spaces_named(state, state.in_range(1))
    play(state, "blockade e1")
    assert spaces_named(state, state.in_range(1)) == {"f1", "g1", "h2"}  # h2 is a lake


def test_fire_takes_an_opponent_fort_back_to_its_mat_once_a_turn_then_a_build():
    rows = ["llllllll", "gggggggg"]
    state = core(rows, ships={0: "a1", 1: "h1"}, roads="a1 b1 c1 d1 e1 f1 g1 h1",
                 cannons={0: "b1"}, forts={1: "e1 g1"}, earned={0: CANNON_1, 1: CANNON_1}, passes=1)
    assert of_kind(state, "fire") == {"e1", "g1"}  # a fort does not stop the line
    play(state, "fire e1")
    data = state.to_data()
    e1 = names("e1", 8, 2)[0]
    assert data.fort[e1] == NOBODY and data.road[e1] and data.earned[1] == CANNON_1  # earned stays (R20.8)
    assert state.fired and state.passes == 0 and state.to_move == 0
    assert moves(state) == ["fort c1", "fort d1", "fort e1", "fort f1"]  # no second shot
    play(state, "fort e1")
    assert state.to_move == 1 and not state.fired
    assert spaces_named(state, state.network(1)) == {"f1", "g1", "h1"}


def test_fire_then_pass_resets_the_pass_count():
    rows = ["llllll", "gggggg"]
    state = core(rows, ships={0: "a1", 1: "f1"}, roads="a1 b1 c1 d1 e1 f1", cannons={0: "b1"},
                 forts={0: "c1", 1: "e1"}, earned={0: CANNON_1}, passes=1)
    # a1 ship, b1 cannon, c1 fort, d1 next to c1: no build at all
    assert moves(state) == ["fire e1", "pass"]
    play(state, "fire e1")
    assert state.fired and state.passes == 0 and state.to_move == 0
    assert moves(state) == ["pass"]
    play(state, "pass")
    assert state.passes == 0 and state.to_move == 1 and not state.fired


# -- the end (R20.10) --------------------------------------------------------------------------------


def test_the_last_road_ends_the_game_even_as_a_first_grass_road():
    state = core(GRASS_6x4, ships={0: "a1", 1: "f4"}, roads="a1 f4", supply=1)
    play(state, "road b1")
    assert state.is_over and state.reason == REASON_SUPPLY and state.supply == 0
    assert state.grass_roads == 0 and not state.fired and state.to_move == NOBODY


def test_every_player_passing_ends_the_game():
    state = core(["llll", "gggg"], ships={0: "a1", 1: "d1"}, roads="a1 b1 c1 d1", forts={0: "b1", 1: "c1"})
    assert moves(state) == ["pass"]
    play(state, "pass")
    assert state.passes == 1 and not state.is_over
    play(state, "pass")
    assert state.is_over and state.reason == REASON_ALL_PASSED
    assert state.winners == [1] and state.ranking == [1, 0]  # seat 0's fort stands on its own board


def decided(**pieces) -> CoreState:
    """A 3-player game on an open island whose last road is then built, so that R20.10 decides it."""
    rows = ["gggggggggggg"] * 12
    boards = ["111111222222"] * 6 + ["000000000000"] * 6
    state = core(rows, boards, 3, ships={0: "a1", 1: "a12", 2: "l12"}, roads="a1 a12 l12", supply=1, **pieces)
    return play(state, "road b1")


def test_deciding_most_forts_then_fewer_on_the_own_board_then_fewer_cannons_and_blockades():
    state = decided(forts={0: "c1 c5", 1: "c3 c7", 2: "k3"})
    assert state.winners == [1] and state.ranking == [1, 0, 2]  # seat 0 has both forts at home
    state = decided(forts={0: "e5 f5", 1: "e7 f7", 2: "k3"}, cannons={0: "g4"}, earned={0: CANNON_1})
    assert state.winners == [1] and state.ranking == [1, 0, 2]


def test_deciding_shared_victory_in_seat_order():
    state = decided(forts={0: "c8", 1: "d1", 2: "c5"})
    assert state.reason == REASON_SUPPLY and state.winners == [0, 1, 2] and state.ranking == [0, 1, 2]
    state = decided(forts={0: "c8 c10", 1: "d1", 2: "c5 h1"})
    assert state.winners == [0, 2] and state.ranking == [0, 2, 1]


# -- the Python side ------------------------------------------------------------------------------------


def test_from_data_and_to_data_round_trip():
    datas = [
        island(ISLAND_12, quarters(ISLAND_12), 4, round_=ROUND_LANDING),
        island(["llllllll", "gggggggg"], ships={0: "a1", 1: "h1"}, roads="a1 b1 c1 d1 e1 f1 g1 h1",
               cannons={0: "b1"}, forts={1: "e1 g1"}, blockades={1: "f1"},
               earned={0: CANNON_1, 1: 7}, passes=1, fired=True, to_move=1),
    ]
    state = new_game_12()
    state.playout(3)
    for seed in range(5):
        copy = state.copy()
        for _ in range(40 + seed * 30):
            if copy.is_over:
                break
            actions = copy.legal_actions()
            copy.apply(actions[(seed * 7919 + len(actions)) % len(actions)])
        datas.append(copy.to_data())
    for data in datas:
        assert CoreState.from_data(data).to_data() == data


def test_a_finished_game_round_trips():
    state = new_game_12()
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    data = state.to_data()
    assert data.round == ROUND_OVER and data.reason != REASON_NONE
    again = CoreState.from_data(data)
    assert again.to_data() == data and again.winners == state.winners and again.ranking == state.ranking


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"players": 5}, "players"),
        ({"terrain": [0]}, "terrain"),
        ({"board_of": [NOBODY] * 32}, "board_of"),
        ({"ships": [200, NO_SPACE]}, "ships"),
        ({"supply": -1}, "supply"),
        ({"round": 7}, "round"),
        ({"to_move": 2}, "to_move"),
        ({"earned": [8, 0]}, "earned"),
        ({"reason": REASON_SUPPLY}, "reason"),
        ({"winners": [0]}, "winners"),
    ],
)
def test_from_data_names_the_bad_field(change, field):
    data = island(["llllllll", "gggggggg", "gggggggg", "gggggggg"])
    for key, value in change.items():
        setattr(data, key, value)
    with pytest.raises(ValueError, match=f"^{field}"):
        CoreState.from_data(data)


def test_from_data_refuses_a_piece_without_road():
    data = island(["llllllll", "gggggggg"], forts={0: "c1"})
    data.road[names("c1", 8, 2)[0]] = False
    with pytest.raises(ValueError, match="without a road"):
        CoreState.from_data(data)


def test_apply_names_an_illegal_action():
    state = core(GRASS_6x4, ships={0: "a1", 1: "f4"})
    with pytest.raises(ValueError, match=r"road b1"):
        state.apply(encode(ROAD, names("b1", 6, 4)[0]))
    with pytest.raises(ValueError, match="not an action code"):
        state.apply(-3)
    with pytest.raises(ValueError, match="pass"):
        state.apply(encode(PASS))
    assert not state.is_legal(encode(FORT_BUILD, 0)) and state.is_legal(encode(ROAD, 0))


def test_copy_is_independent():
    state = new_game_12()
    copy = state.copy()
    copy.apply(copy.legal_actions()[0])
    assert state.to_data() == new_game_12().to_data()
    assert copy.to_data() != state.to_data()


def test_legal_actions_are_sorted_codes_of_known_kinds():
    state = new_game_12()
    kinds = set()
    for _ in range(300):
        if state.is_over:
            break
        actions = state.legal_actions()
        assert actions == sorted(set(actions)) and actions
        kinds |= {decode(a)[0] for a in actions}
        for a in actions:
            assert decode(a)[0] in (END, PASS) or decode(a)[1] < MAX_SPACES
        state.apply(actions[len(actions) // 2])
        assert state.check_derived()
    assert {LAND, ROAD, FORT_BUILD} <= kinds


def test_random_games_keep_the_networks_and_ranges_and_end():
    import random

    rnd = random.Random(20)
    start = new_game_12()
    for _ in range(30):
        state = start.copy()
        steps = 0
        while not state.is_over:
            state.apply(rnd.choice(state.legal_actions()))
            assert state.check_derived()
            steps += 1
        assert state.reason in (REASON_SUPPLY, REASON_ALL_PASSED, REASON_TEN_FORTS)
        assert sorted(state.ranking) == [0, 1, 2, 3] and state.winners
        assert state.to_move == NOBODY and state.legal_actions() == []


@pytest.mark.parametrize("heuristic", [False, True])
def test_playouts_end_leave_the_state_and_repeat_with_the_seed(heuristic):
    start = new_game_12()
    before = start.to_data()
    counts = [start.playout(seed, heuristic) for seed in range(20)]
    assert start.to_data() == before
    assert all(c > 0 for c in counts)
    assert counts == [start.playout(seed, heuristic) for seed in range(20)]
    assert len(set(counts)) > 1
    assert start.random_games(20, 0, heuristic) == sum(counts)


def test_playout_follows_the_sorted_legal_list_on_the_splitmix_stream():
    from kanaloa.rules.rng import SplitMix64

    start = new_game_12()
    rng = SplitMix64(99)
    state = start.copy()
    count = 0
    while not state.is_over:
        actions = state.legal_actions()
        state.apply(actions[rng.below(len(actions))])
        count += 1
    assert start.playout(99) == count


def test_playout_from_an_open_turn_and_a_finished_game():
    state = core(GRASS_6x4, ships={0: "a1", 1: "f4"})
    play(state, "road a1")
    assert state.grass_roads == 1 and state.playout(5) > 0 and state.grass_roads == 1
    done = decided(forts={0: "c8"})
    assert done.playout(1) == 0 and done.random_games(3, 1) == 0


def test_two_and_three_player_islands_play_to_the_end():
    rows = ISLAND_12[:6] + ISLAND_12[6:]
    two = core([line[:6] for line in rows], halves([line[:6] for line in rows]), 2, round_=ROUND_LANDING)
    assert two.random_games(50, 1) > 0
    three_rows = [line for line in ISLAND_12[:6]] + ["..." + line[3:9] + "..." for line in ISLAND_12[6:]]
    three_boards = ["111111222222"] * 6 + ["...000000..."] * 6
    three = core(three_rows, three_boards, 3, round_=ROUND_LANDING)
    assert three.random_games(50, 1) > 0
    assert all(three.to_data().terrain[s] == OUTSIDE for s in (0, 1, 2, 9, 10, 11))


# -- a plain model of the rules, space by space, to hold the bitboards to -----------------------------


class Plain:
    """The decisions of docs/rules-cannonball.md (R20) written out directly over a CannonballData: slow and obvious, for
    comparison only."""

    def __init__(self, data: CannonballData) -> None:
        self.d = data
        self.cols, self.n = data.columns, data.spaces

    def steps(self, s: int) -> list[int]:
        row, col = divmod(s, self.cols)
        out = []
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            r, c = row + dr, col + dc
            if 0 <= r < self.d.rows and 0 <= c < self.cols:
                out.append(r * self.cols + c)
        return out

    def network(self, seat: int) -> set[int]:
        d = self.d
        ok = lambda s: d.road[s] and d.fort[s] in (NOBODY, seat) and d.blockade[s] == NOBODY
        todo = [s for s in range(self.n) if d.fort[s] == seat]
        if d.ships[seat] != NO_SPACE:
            todo.append(d.ships[seat])
        seen: set[int] = set()
        while todo:
            s = todo.pop()
            if s in seen or not ok(s):
                continue
            seen.add(s)
            todo.extend(self.steps(s))
        return seen

    def in_range(self, seat: int) -> set[int]:
        d, hit = self.d, set()
        for s in range(self.n):
            if d.cannon[s] != seat:
                continue
            row, col = divmod(s, self.cols)
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                r, c = row + dr, col + dc
                while 0 <= r < d.rows and 0 <= c < self.cols:
                    t = r * self.cols + c
                    if d.terrain[t] in (3, OUTSIDE) or d.blockade[t] != NOBODY:
                        break
                    hit.add(t)
                    r, c = r + dr, c + dc
        return hit

    def near_own_fort(self, seat: int, start: int) -> bool:
        d, frontier, seen = self.d, {start}, {start}
        for _ in range(3):
            frontier = {t for s in frontier for t in self.steps(s)
                        if t not in seen and (d.road[t] or d.terrain[t] == 1)}
            seen |= frontier
            if any(d.fort[t] == seat for t in frontier):
                return True
        return False

    def legal(self) -> list[int]:
        d, seat = self.d, self.d.to_move
        if d.round == ROUND_OVER:
            return []
        if d.round == ROUND_LANDING:
            out = []
            for s in range(self.n):
                row, col = divmod(s, self.cols)
                edge = len(self.steps(s)) < 4 or any(d.terrain[t] == OUTSIDE for t in self.steps(s))
                touch = any(
                    0 <= row + dr < d.rows and 0 <= col + dc < self.cols
                    and d.terrain[(row + dr) * self.cols + col + dc] != OUTSIDE
                    and d.board_of[(row + dr) * self.cols + col + dc] != seat
                    for dr in (-1, 0, 1) for dc in (-1, 0, 1))
                far = all(abs(p // self.cols - row) + abs(p % self.cols - col) > 4 for p in d.ships if p != NO_SPACE)
                if d.board_of[s] == seat and d.terrain[s] in (0, 1) and edge and not touch and far:
                    out.append(encode(LAND, s))
            return out or [encode(PASS)]
        net = self.network(seat)
        others = {p for i, p in enumerate(d.ships) if p != NO_SPACE and i != seat}
        next_to = {t for s in net for t in self.steps(s)}
        roads = lambda kinds: [encode(ROAD, s) for s in sorted(next_to)
                               if d.terrain[s] in kinds and not d.road[s] and s not in others]
        if d.grass_roads:
            return [*roads((0,)), encode(END)]
        out = []
        if not d.fired:
            hit = self.in_range(seat)
            out += [encode(FIRE, s) for s in sorted(hit) if d.fort[s] not in (NOBODY, seat)]
        builds = []
        ship = d.ships[seat]
        if ship != NO_SPACE and not d.road[ship]:
            builds.append(encode(ROAD, ship))
        elif net:
            builds += roads((0, 1))
            opp = set().union(*(self.in_range(p) for p in range(d.players) if p != seat))
            empty = [s for s in sorted(net) if d.fort[s] == d.cannon[s] == d.blockade[s] == NOBODY
                     and s not in d.ships]
            cannons = sum(1 for b in (CANNON_1, CANNON_2) if d.earned[seat] & b)
            for s in empty:
                if d.forts_on_island(seat) < 10 and s not in opp and not self.near_own_fort(seat, s):
                    builds.append(encode(FORT_BUILD, s))
                if d.cannon.count(seat) < cannons and s not in opp:
                    builds.append(encode(CANNON_BUILD, s))
                if d.earned[seat] & BLOCKADE and seat not in d.blockade:
                    builds.append(encode(BLOCKADE_BUILD, s))
        return sorted(out + builds + ([] if builds else [encode(PASS)]))


def crowded_12() -> CoreState:
    """ISLAND_12 in play with roads on most land, 7 forts each for seats 0 and 1 (all pieces earned) and
    20 road tiles left: cannons and blockades come early."""
    data = new_game_12().to_data()
    land = [s for s in range(144) if data.terrain[s] in (0, 1)]
    data.round, data.supply, data.ships = ROUND_PLAY, 20, [0, 132, 142, 11]
    for s in land:
        data.road[s] = (s * 7) % 5 != 0 or s in data.ships
    for seat, corner in ((0, (0, 0)), (1, (2, 2))):
        placed = 0
        for r in range(corner[0], 12, 4):
            for c in range(corner[1], 12, 4):
                s = r * 12 + c
                if placed < 7 and s in land and s not in data.ships and data.fort[s] == NOBODY:
                    data.fort[s], data.road[s] = seat, True
                    placed += 1
        data.earned[seat] = CANNON_1 | CANNON_2 | BLOCKADE
    return CoreState.from_data(data)


def test_the_bitboards_agree_with_a_plain_model_of_the_rules():
    import random

    rnd = random.Random(7)
    three_rows = list(ISLAND_12[:6]) + ["..." + line[3:9] + "..." for line in ISLAND_12[6:]]
    starts = [
        new_game_12(),
        core(three_rows, ["111111222222"] * 6 + ["...000000..."] * 6, 3, round_=ROUND_LANDING),
        core([line[:6] for line in ISLAND_12], halves([line[:6] for line in ISLAND_12]), 2, round_=ROUND_LANDING),
    ]
    starts.append(crowded_12())
    checked = 0
    for game in range(60):
        state = starts[game % 4].copy()
        while not state.is_over:
            data = state.to_data()
            plain = Plain(data)
            assert state.legal_actions() == plain.legal(), (game, data)
            for seat in range(data.players):
                assert set(state.network(seat)) == plain.network(seat)
                assert set(state.in_range(seat)) == plain.in_range(seat)
            actions = state.legal_actions()
            # lean towards builds that change the networks and ranges
            rich = [a for a in actions if decode(a)[0] in (FIRE, FORT_BUILD, CANNON_BUILD, BLOCKADE_BUILD)]
            state.apply(rnd.choice(rich) if rich and rnd.random() < 0.5 else rnd.choice(actions))
            checked += 1
    assert checked > 3000


def test_pickle_and_copy_module_give_equal_independent_states():
    import copy
    import pickle

    state = new_game_12()
    state.playout(1)
    play(state, moves(state)[0])
    for other in (pickle.loads(pickle.dumps(state)), copy.copy(state), copy.deepcopy(state)):
        assert other.to_data() == state.to_data() and other is not state


def test_any_integer_seed_is_kept_and_a_playout_seed_is_taken_modulo_two_to_the_64():
    data = island(GRASS_6x4, ships={0: "a1", 1: "f4"})
    data.seed = -12345678901234567890
    state = CoreState.from_data(data)
    assert state.to_data().seed == data.seed and state.copy().to_data().seed == data.seed
    assert state.playout(-1) == state.playout(2**64 - 1)
    with pytest.raises(ValueError, match=r"^seed"):
        state.playout(1.5)


def test_the_heuristic_plays_legal_moves_and_beats_uniform_play():
    import random

    rnd = random.Random(3)
    start = new_game_12()
    wins = 0.0
    games = 120
    for game in range(games):
        state = start.copy()
        hero = game % 4
        while not state.is_over:
            if state.to_move == hero:
                action = state.heuristic_action(rnd.getrandbits(64))
                assert action in state.legal_actions()
            else:
                action = rnd.choice(state.legal_actions())
            state.apply(action)
        if hero in state.winners:
            wins += 1 / len(state.winners)
    assert wins / games > 0.4  # uniform play would win a quarter
    assert start.heuristic_action(1) in start.legal_actions()
    assert decided(forts={0: "c8"}).heuristic_action(1) is None
