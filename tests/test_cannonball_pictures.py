"""Cannonball Colony's pictures (R20): the terminal map (``cannonball.display``) and the SVG (``cannonball.svg``).

Hand-built states (``island``/``put``: rows of terrain letters, top row
first, landing boards as seat digits) check what each picture shows at each
space; seeded random games from ``island.new_game`` played by the reference
check that every piece of the state appears exactly once, in both pictures.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from cannonball_helpers import drawn_island
from kanaloa.cannonball import display
from kanaloa.cannonball import island as island_module
from kanaloa.cannonball import svg as cb_svg
from kanaloa.cannonball.reference import ReferenceState, shots_from
from kanaloa.cannonball.state import (
    BLOCKADE,
    BLOCKADE_BUILD,
    CANNON_1,
    CANNON_2,
    CANNON_BUILD,
    COUNTRIES,
    FIRE,
    FORT_BUILD,
    NO_SPACE,
    NOBODY,
    REASON_ALL_PASSED,
    REASON_SUPPLY,
    REASON_TEN_FORTS,
    ROUND_LANDING,
    ROUND_OVER,
    ROUND_PLAY,
    TERRAIN_LETTERS,
    TERRAIN_NAMES,
    CannonballData,
    decode,
    parse_space,
    space_name,
)
from kanaloa.errors import OptionError

SVG_NS = "{http://www.w3.org/2000/svg}"
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")
TWO = ("france", "spain")
FOUR = COUNTRIES
FRANCE, SPAIN = 0, 1

# -- helpers ----------------------------------------------------------------------------------------


def island(rows: list[str], boards: list[str] | None = None, players: int = 2) -> CannonballData:
    """A fresh state on the island drawn by ``rows`` (top row first); ``boards`` the landing board of each
    space as a seat digit (default: france the left half, spain the right)."""
    columns = len(rows[0])
    boards = boards or ["0" * (columns // 2) + "1" * (columns - columns // 2)] * len(rows)
    return CannonballData.start(players, *drawn_island(rows, boards))


def sp(d: CannonballData, name: str) -> int:
    space = parse_space(name, d.columns, d.rows)
    assert space is not None, name
    return space


def put(d: CannonballData, *, ships=None, roads="", forts=None, cannons=None, blockades=None, earned=None,
        to_move=0, round=ROUND_PLAY) -> CannonballData:
    """Pieces on ``d``, spaces by name and pieces by seat; a fort, cannon or blockade gets its road too."""
    d.round, d.to_move = round, to_move
    for seat, name in (ships or {}).items():
        d.ships[seat] = sp(d, name)
    for name in roads.split():
        d.road[sp(d, name)] = True
        d.supply -= 1
    for pieces, owners in ((forts, d.fort), (cannons, d.cannon), (blockades, d.blockade)):
        for seat, where in (pieces or {}).items():
            for name in where.split():
                owners[sp(d, name)] = seat
                if not d.road[sp(d, name)]:
                    d.road[sp(d, name)] = True
                    d.supply -= 1
    for seat, bits in (earned or {}).items():
        d.earned[seat] = bits
    return d


def sample() -> CannonballData:
    """A 6 x 4 island (france a-c, spain d-f) with one piece of every kind and a mountain and a lake."""
    d = island(["gggggg",
                "ggmggg",
                "lggggf",
                "gggggg"])
    return put(d, ships={FRANCE: "a1", SPAIN: "f4"}, roads="a1 b1 f4 e4", forts={FRANCE: "c1", SPAIN: "d4"},
               cannons={FRANCE: "c2"}, blockades={SPAIN: "e2"}, earned={FRANCE: CANNON_1, SPAIN: BLOCKADE})


def cell(text: str, d: CannonballData, name: str) -> str:
    """The two characters the map shows at space ``name``."""
    space = sp(d, name)
    row, column = divmod(space, d.columns)
    lines = plain(text).splitlines()
    top = next(k for k, line in enumerate(lines) if line.startswith(f"{d.rows:>2} "))
    line = lines[top + (d.rows - 1 - row)]
    start = 3 + 3 * column
    return line[start:start + 2].ljust(2)


def plain(text: str) -> str:
    return ANSI_ESCAPE.sub("", text)


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    """Every element whose class list holds ``cls``."""
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def svg_pieces(root: ET.Element) -> Counter[tuple[str, str, str]]:
    return Counter((e.get("data-kind"), e.get("data-space"), e.get("data-owner")) for e in groups(root, "piece"))


def state_pieces(d: CannonballData, names) -> Counter[tuple[str, str, str]]:
    """``(kind, space, owner)`` of every piece on the island (a road has no owner)."""
    out: Counter[tuple[str, str, str]] = Counter()
    for space in range(d.spaces):
        name = space_name(space, d.columns)
        if d.road[space]:
            out["road", name, ""] += 1
        for kind, owners in (("fort", d.fort), ("cannon", d.cannon), ("blockade", d.blockade)):
            if owners[space] != NOBODY:
                out[kind, name, names[owners[space]]] += 1
    for seat, ship in enumerate(d.ships):
        if ship != NO_SPACE:
            out["ship", space_name(ship, d.columns), names[seat]] += 1
    return out


def random_state(players: int, seed: int, moves: int | None = None) -> CannonballData:
    """A state of a seeded random game on a seeded island, after ``moves`` moves (or at its end); the moves
    prefer shots and pieces, so that cannons, blockades and shots come up."""
    rng = random.Random(seed)
    state = ReferenceState(island_module.new_game(players, seed))
    played = 0
    while not state.is_over and (moves is None or played < moves):
        actions = state.legal_actions()
        preferred = [a for a in actions if decode(a)[0] in (FIRE, CANNON_BUILD, BLOCKADE_BUILD, FORT_BUILD)]
        state.apply(rng.choice(preferred) if preferred and rng.random() < 0.8 else rng.choice(actions))
        played += 1
    return state.to_data()


# -- the terminal map ----------------------------------------------------------------------------------


def test_map_has_every_column_letter_and_row_number_top_row_first():
    d = island_module.new_game(4, 3)
    text = display.render(FOUR, d)
    lines = text.splitlines()
    head = [k for k, line in enumerate(lines) if line.split() == list("abcdefghijkl")]
    assert len(head) == 2 and head[1] - head[0] == d.rows + 1  # letters above and below the 12 rows
    numbers = [lines[k].split()[0] for k in range(head[0] + 1, head[1])]
    assert numbers == [str(r) for r in range(12, 0, -1)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_map_shows_every_empty_space_by_its_terrain_letter(players):
    d = island_module.new_game(players, 11)
    text = display.render(FOUR[:players], d)
    for space in range(d.spaces):
        want = "  " if TERRAIN_NAMES[d.terrain[space]] == "outside" else TERRAIN_LETTERS[d.terrain[space]] + " "
        assert cell(text, d, space_name(space, d.columns)) == want


def test_map_shows_every_piece_at_its_space():
    d = sample()
    text = display.render(TWO, d)
    assert cell(text, d, "a1") == "@F"  # the ship stands on its road
    assert cell(text, d, "f4") == "@S"
    assert cell(text, d, "b1") == "=="
    assert cell(text, d, "e4") == "=="
    assert cell(text, d, "c1") == "#F"
    assert cell(text, d, "d4") == "#S"
    assert cell(text, d, "c2") == "*F"
    assert cell(text, d, "e2") == "XS"
    assert cell(text, d, "c3") == "m "
    assert cell(text, d, "a2") == "l "
    assert cell(text, d, "d2") == "g "
    assert cell(text, d, "f2") == "f "


def test_map_legend_names_every_symbol_and_country():
    text = display.render(FOUR, island_module.new_game(4, 1))
    for words in ("g grass", "f forest", "l lake", "m mountain", "== road", "@ ship", "# fort", "* cannon",
                  "X blockade", "F france", "S spain", "P portugal", "E england"):
        assert words in text, words


def test_a_12x12_island_fits_80_columns_also_at_the_end_and_in_color():
    for seed in (1, 2):
        d = random_state(4, seed)
        assert d.round == ROUND_OVER
        for use_color in (False, True):
            text = display.render(FOUR, d, use_color=use_color)
            assert max(len(line) for line in plain(text).splitlines()) <= 80


def test_colors_only_add_escapes():
    d = sample()
    colored = display.render(TWO, d, use_color=True)
    assert "\x1b[" in colored
    assert plain(colored) == display.render(TWO, d)
    assert "\x1b[" not in display.render(TWO, d)


def test_status_lines_in_play_mover_round_turn_passes_supply():
    d = sample()
    d.to_move, d.fired, d.grass_roads, d.passes = SPAIN, True, 1, 1
    text = display.render(TWO, d)
    assert "spain to move, play round" in text
    assert "fired this turn" in text and "second grass road is open" in text
    assert "Passes in a row: 1 of 2" in text
    assert f"Road supply: {d.supply} of 50 tiles left, {sum(d.road)} laid (R20.3)" in text
    d.fired, d.grass_roads = False, 0
    text = display.render(TWO, d)
    assert "not fired yet" in text and "second grass road" not in text


def test_status_in_the_landing_round_and_a_ship_without_its_road():
    d = island_module.new_game(2, 5)
    text = display.render(TWO, d)
    assert "france to move, landing round" in text and "R20.4" in text
    assert text.count("not landed") == 2
    d = put(sample(), roads="")
    d.road[sp(d, "a1")] = False
    assert "a1 (no road)" in display.render(TWO, d)


def test_country_lines_forts_on_island_and_mat_and_earned_pieces():
    d = sample()
    d.fort[sp(d, "a4")] = FRANCE
    d.earned[FRANCE] = CANNON_1 | CANNON_2
    text = display.render(TWO, d)
    france = next(line for line in text.splitlines() if line.startswith("  france"))
    spain = next(line for line in text.splitlines() if line.startswith("  spain"))
    assert france.split() == ["france", "a1", "2", "8", "2/2", "1", "-"]
    assert spain.split() == ["spain", "f4", "1", "9", "0/2", "0", "built"]
    assert "R20.7" in text and "R20.8" in text


@pytest.mark.parametrize("reason, words", [(REASON_SUPPLY, "last road tile"), (REASON_TEN_FORTS, "all 10 forts"),
                                           (REASON_ALL_PASSED, "passed in succession")])
def test_result_winner_ranking_and_reason(reason, words):
    d = sample()
    d.round, d.to_move, d.reason, d.winners, d.ranking = ROUND_OVER, NOBODY, reason, [SPAIN], [SPAIN, FRANCE]
    text = display.render(TWO, d)
    name = ("ten-forts", "supply", "all-passed")[reason]
    assert f"Game over ({name}, R20.10): spain wins" in text
    assert words in text and "ranking: spain, france" in text
    assert ("the winner first" in text) == (reason == REASON_TEN_FORTS)
    assert "to move" not in text
    assert max(len(line) for line in text.splitlines()) <= 80


def test_result_shared_victory():
    d = sample()
    d.round, d.to_move, d.reason, d.winners, d.ranking = ROUND_OVER, NOBODY, REASON_ALL_PASSED, [0, 1], [0, 1]
    assert "shared victory: france, spain" in display.render(TWO, d)


def test_other_country_names_get_their_own_marks_and_colors():
    names = ["holland", "france", "haiti"]
    assert display.country_marks(names) == ["H", "F", "A"]
    colors = display.country_colors(names)
    assert len(set(colors)) == 3 and colors[1] == "blue"
    d = put(island(["gggggg"] * 4), ships={FRANCE: "a1"})
    assert cell(display.render(("holland", "france"), d), d, "a1") == "@H"


# -- the SVG -----------------------------------------------------------------------------------------


def test_svg_parses_and_has_one_space_element_with_a_title_per_space():
    d = sample()
    root = parse(cb_svg.position_svg(TWO, d))
    spaces = groups(root, "space")
    assert [e.get("data-space") for e in spaces] == [space_name(s, d.columns) for s in range(d.spaces)]
    for e in spaces:
        space = sp(d, e.get("data-space"))
        assert e.get("data-terrain") == TERRAIN_NAMES[d.terrain[space]]
        assert e.get("data-board") == TWO[d.board_of[space]]
        title = e.find(f"{SVG_NS}title")
        assert title is not None and title.text.startswith(e.get("data-space") + ": ")


def test_svg_outside_spaces_are_blank_and_on_no_board():
    d = island_module.new_game(3, 2)
    root = parse(cb_svg.position_svg(FOUR[:3], d))
    outside = [e for e in groups(root, "space") if e.get("data-terrain") == "outside"]
    assert len(outside) == sum(1 for t in d.terrain if t == TERRAIN_LETTERS.index("."))
    for e in outside:
        assert e.get("data-board") == ""
        assert e.find(f"{SVG_NS}rect").get("fill") == "none"


def test_svg_every_piece_with_its_kind_space_and_owner():
    d = sample()
    root = parse(cb_svg.position_svg(TWO, d))
    assert svg_pieces(root) == state_pieces(d, TWO)
    fort = next(e for e in groups(root, "piece") if e.get("data-kind") == "fort" and e.get("data-space") == "c1")
    assert fort.get("data-owner") == "france" and "fort" in fort.get("class").split()
    assert fort.find(f"{SVG_NS}title").text == "france's fort on c1"


def lines_of(root: ET.Element, cannon: str) -> dict[str, str]:
    return {e.get("data-direction"): e.get("data-to") for e in groups(root, "line-of-fire")
            if e.get("data-cannon") == cannon}


def test_lines_of_fire_stop_before_a_mountain_and_a_blockade_and_cross_a_lake():
    d = sample()  # france's cannon on c2: the mountain c3 above it, the lake a2 and spain's blockade e2 on its row
    root = parse(cb_svg.position_svg(TWO, d))
    lines = lines_of(root, "c2")
    assert lines == {"down": "c1", "left": "a2", "right": "d2"}  # c3 mountain: no line up; e2 blockade
    d.blockade[sp(d, "e2")] = NOBODY
    d.terrain[sp(d, "c3")] = TERRAIN_LETTERS.index("l")
    lines = lines_of(parse(cb_svg.position_svg(TWO, d)), "c2")
    assert lines == {"up": "c4", "down": "c1", "left": "a2", "right": "f2"}


def test_lines_of_fire_end_at_the_far_edge_of_the_last_space_hit():
    d = sample()
    root = parse(cb_svg.position_svg(TWO, d))
    rects = {e.get("data-space"): e.find(f"{SVG_NS}rect") for e in groups(root, "space")}
    for line in groups(root, "line-of-fire"):
        rect = rects[line.get("data-to")]
        x, y, w, h = (float(rect.get(k)) for k in ("x", "y", "width", "height"))
        x2, y2 = float(line.get("x2")), float(line.get("y2"))
        want = {"up": (x + w / 2, y), "down": (x + w / 2, y + h), "left": (x, y + h / 2),
                "right": (x + w, y + h / 2)}[line.get("data-direction")]
        assert (x2, y2) == pytest.approx(want)


def test_an_outside_space_stops_a_line_of_fire():
    d = island(["gggggg", "ggg.gg", "gggggg", "gggggg"])
    put(d, cannons={FRANCE: "b3"})
    assert lines_of(parse(cb_svg.position_svg(TWO, d)), "b3") == {"up": "b4", "down": "b1", "left": "a3",
                                                                   "right": "c3"}


def test_spaces_say_which_countries_cannons_hit_them():
    d = sample()
    root = parse(cb_svg.position_svg(TWO, d))
    hit = {e.get("data-space") for e in groups(root, "space") if e.get("data-in-range")}
    assert hit == {space_name(s, d.columns) for s in shots_from(d, sp(d, "c2"))}
    assert all(e.get("data-in-range") == "france" for e in groups(root, "space") if e.get("data-in-range"))


def test_mats_show_uncovered_spaces_one_to_n_and_what_3_6_8_earn():
    d = sample()
    for space in ("a4", "b4", "a3", "b3"):
        d.fort[sp(d, space)] = FRANCE
    root = parse(cb_svg.position_svg(TWO, d))
    mats = {e.get("data-owner"): e for e in groups(root, "mat")}
    assert set(mats) == set(TWO)
    for seat, name in enumerate(TWO):
        forts = d.forts_on_island(seat)
        assert mats[name].get("data-forts") == str(forts)
        spaces = groups(mats[name], "mat-space")
        assert [int(e.get("data-mat-space")) for e in spaces] == list(range(1, 11))
        uncovered = [int(e.get("data-mat-space")) for e in spaces if e.get("data-covered") == "false"]
        assert uncovered == list(range(1, forts + 1))
        assert {int(e.get("data-mat-space")): e.get("data-earns") for e in spaces if e.get("data-earns")} == {
            3: "cannon1", 6: "cannon2", 8: "blockade"}
    assert mats["france"].get("data-forts") == "5"


def test_svg_panel_supply_status_and_result():
    d = sample()
    text = cb_svg.position_svg(TWO, d)
    root = parse(text)
    (supply,) = groups(root, "supply")
    assert supply.get("data-supply") == str(d.supply) and supply.get("data-total") == "50"
    (status,) = groups(root, "status")
    assert status.get("data-round") == "play" and "france to move, play round" in text
    d.round, d.to_move, d.reason, d.winners, d.ranking = ROUND_OVER, NOBODY, REASON_SUPPLY, [0, 1], [0, 1]
    text = cb_svg.position_svg(TWO, d)
    assert "Game over (supply, R20.10): shared victory: france, spain" in text
    assert groups(parse(text), "status")[0].get("data-round") == "over"
    d.round = ROUND_LANDING
    assert groups(parse(cb_svg.position_svg(TWO, d)), "status")[0].get("data-round") == "landing"


def test_svg_escapes_country_names_and_holds_nothing_external():
    d = sample()
    names = ('fr<an>ce & "co"', "sp'ain")
    text = cb_svg.position_svg(names, d)
    root = parse(text)
    assert {e.get("data-owner") for e in groups(root, "piece")} == {"", *names}
    assert {e.get("data-owner") for e in groups(root, "mat")} == set(names)
    for banned in ("<script", "href", "url(", "@import", "<image", "<foreignObject"):
        assert banned not in text
    assert cb_svg.position_svg(names, d) == text  # the same state gives the same bytes


def test_defaults_name_the_seats_when_countries_are_missing():
    d = sample()
    root = parse(cb_svg.position_svg((), d))
    assert {e.get("data-owner") for e in groups(root, "mat")} == {"france", "spain"}
    assert "F france" in display.render((), d)


# -- over random games ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_every_piece_appears_exactly_once(players):
    names = FOUR[:players]
    seen: Counter[str] = Counter()
    for seed in range(3):
        for moves in (players + 3, 40, 120, None):
            d = random_state(players, 100 * players + seed, moves)
            root = parse(cb_svg.position_svg(names, d))
            assert svg_pieces(root) == state_pieces(d, names)
            assert len(groups(root, "space")) == d.spaces
            for e in groups(root, "line-of-fire"):
                cannon = sp(d, e.get("data-cannon"))
                assert d.cannon[cannon] != NOBODY and names[d.cannon[cannon]] == e.get("data-owner")
            for cannon in range(d.spaces):  # the lines cover exactly the spaces the cannon hits
                if d.cannon[cannon] == NOBODY:
                    continue
                covered = set()
                for direction, last in cb_svg.fire_lines(d, cannon):
                    step = {"up": d.columns, "down": -d.columns, "left": -1, "right": 1}[direction]
                    space = cannon + step
                    while True:
                        covered.add(space)
                        if space == last:
                            break
                        space += step
                assert covered == shots_from(d, cannon)
            text = display.render(names, d)
            for kind, name, owner in state_pieces(d, names):
                shown = cell(text, d, name)
                if kind == "road":
                    assert shown == "==" or shown[1] in display.country_marks(names)
                else:
                    seat = names.index(owner)
                    if kind == "ship" or shown[0] != "@":
                        assert shown == display.SYMBOLS[kind] + display.country_marks(names)[seat]
            seen.update(kind for kind, _, _ in state_pieces(d, names).elements())
    assert seen["fort"] and seen["cannon"] and seen["road"] and seen["ship"]


def test_width_and_interactive_options():
    d = sample()
    plain_svg = parse(cb_svg.position_svg(TWO, d))
    assert plain_svg.get("width") == plain_svg.get("viewBox").split()[2]
    assert not plain_svg.findall(f"{SVG_NS}style")
    root = parse(cb_svg.position_svg(TWO, d, width=480, interactive=True))
    assert root.get("width") == "480.0"
    _, _, w, h = (float(v) for v in root.get("viewBox").split())
    assert float(root.get("height")) == pytest.approx(480 * h / w, abs=0.1)
    spaces = groups(root, "space")
    assert all(e.get("role") == "button" and e.get("tabindex") == "0" for e in spaces)
    assert spaces[0].get("aria-label") == spaces[0].find(f"{SVG_NS}title").text
    assert root.findall(f"{SVG_NS}style")
    for bad in (0, -3, float("nan"), True, "wide"):
        with pytest.raises(OptionError, match="width"):
            cb_svg.position_svg(TWO, d, width=bad)
