"""SVG pictures of positions (``kanaloa.interfaces.svg``, ``kanaloa svg``).

The picture must hold every island and link with the hooks programs rely on
(``data-link``, ``data-owner``, ``data-island``, ``data-controller``, ...),
draw bridges in their owners' colors and control (R2) in the controller's,
mark pending removals (R7), show the panel's cards and scores (R11, R15.5),
leak no card a viewer cannot see, draw a hint's plan as the hint gives it,
be well-formed XML without scripts, and come out the same byte for byte.
What differs between rule sets it takes from the position's rule set: the
bridges left in stock (the tabletop preset's 20, R13; Kahuna's 25, R16.1),
the rules it cites, Kahuna's skipped draw (R16.5) and final round without a
pass (R16.7), the god tokens (R14), the colors.  It is every registered
game's ``svg`` face.
"""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from importlib import resources

import pytest

from cli_helpers import run, user_error
from kahuna_positions import kahuna_doc, leftover, no_bridges_over
from kanaloa.errors import OptionError
from kanaloa.interfaces import svg as S
from kanaloa.play.hint import Hint
from kanaloa.play.hint import hint as make_hint
from kanaloa.position import Position
from kanaloa.rules.board import board_from_dict, load_board
from kanaloa.rules.engine import load_engine
from kanaloa.rules.registry import game_types
from test_hint import midgame
from test_rules_r1_r13 import table

NS = "{http://www.w3.org/2000/svg}"
EXAMPLE = str(resources.files("kanaloa.examples").joinpath("midgame.json"))


def parse(picture: str) -> ET.Element:
    root = ET.fromstring(picture)
    assert root.tag == f"{NS}svg"
    return root


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    """The ``<g>`` elements with ``cls`` among their classes, in document order."""
    return [g for g in root.iter(f"{NS}g") if cls in g.get("class", "").split()]


def words(root: ET.Element) -> str:
    """All the text of the picture, one line a text element."""
    return "\n".join(t.text or "" for t in root.iter(f"{NS}text"))


def strokes(element: ET.Element) -> list[str]:
    return [line.get("stroke", "") for line in element.iter(f"{NS}line")]


def example() -> Position:
    return Position.from_json(resources.files("kanaloa.examples").joinpath("midgame.json").read_text())


def played(pos: Position, moves: int, seed: int = 5) -> Position:
    """``pos`` after ``moves`` seeded random moves."""
    rng = random.Random(seed)
    for _ in range(moves):
        pos.push(rng.choice(pos.state.legal_actions()))
    return pos


def kahuna_final(**fields) -> Position:
    """The hand-written Kahuna position in the final round (R16.7): no deck, no face-up card, black's turn."""
    doc = kahuna_doc(round="final", face_up=[], to_move="black", final_round={"done": ["white"]}, **fields)
    doc["discard"]["open"] = leftover({**doc, "discard": {"open": []}})
    doc["deck"] = []
    return Position.from_json(doc)


def score_line(root: ET.Element, color: str) -> str:
    """The panel's line of ``color``'s score."""
    return next(line for line in words(root).splitlines() if re.match(rf"{color}: \d+ points?, ", line))


def pending_removal() -> Position:
    """Green has just filled BAFI with a relative majority: a removal is pending there (R7)."""
    pos = table(load_engine("core"), to_move="green",
                bridges={"ALOA-BAFI": "blue", "BAFI-COCO": "green", "BAFI-GUMO": "yellow", "BAFI-ORO": "red",
                         "ALOA-DALI": "red", "ALOA-ELOI": "red"},
                hands={"green": ["RASI", "ORO"]})
    pos.play("RASI-BAFI/RASI")
    return pos


# -- the board -------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 3, 2])
def test_every_island_and_link_is_there_with_its_hooks(players):
    pos = midgame(players=players)
    doc = pos.to_json()
    root = parse(S.position_svg(pos))
    board = pos.board
    links = groups(root, "link")
    assert [g.get("data-link") for g in links] == [board.link_name(k) for k in range(board.n_links)]
    assert {g.get("data-link"): g.get("data-owner") for g in links} == {
        board.link_name(k): doc["bridges"].get(board.link_name(k), "") for k in range(board.n_links)}
    islands = groups(root, "island")
    assert [g.get("data-island") for g in islands] == list(board.islands)
    for g in islands:
        name = g.get("data-island")
        assert g.get("data-controller") == (pos.controller_of(name) or "")
        assert g.get("data-links") == str(board.size(board.find_island(name)))
        assert name in (t.text for t in g.iter(f"{NS}text"))


def test_islands_are_sized_by_their_link_count():
    root = parse(S.position_svg(example()))
    radius = {g.get("data-links"): float(g.find(f"{NS}circle").get("r")) for g in groups(root, "island")}
    assert radius["3"] < radius["5"] < radius["7"]


def test_bridges_are_drawn_in_their_owners_colors_and_free_links_quietly():
    pos = midgame(players=4, moves=60)
    root = parse(S.position_svg(pos))
    owners = set()
    for g in groups(root, "link"):
        owner = g.get("data-owner")
        if owner:
            owners.add(owner)
            assert S.COLOR_FILL[owner] in strokes(g)
            assert S.FREE_LINK not in strokes(g)
        else:
            assert strokes(g) == [S.FREE_LINK]
    assert owners == {"red", "green", "blue", "yellow"}


def test_two_player_bridges_keep_each_colors_own_color():
    """R15.1: red and blue are one player's, but a blue bridge is drawn blue."""
    pos = midgame(players=2, moves=80)
    root = parse(S.position_svg(pos))
    owners = {g.get("data-owner") for g in groups(root, "link")} - {""}
    assert owners == {"red", "green", "blue", "yellow"}
    for g in groups(root, "link"):
        if g.get("data-owner") == "blue":
            assert S.COLOR_FILL["blue"] in strokes(g) and S.COLOR_FILL["red"] not in strokes(g)


def test_a_controlled_island_is_tinted_and_ringed_in_its_controllers_color():
    pos = example()
    root = parse(S.position_svg(pos))
    controlled = [g for g in groups(root, "island") if g.get("data-controller")]
    assert [g.get("data-island") for g in controlled] == ["PAHU"]  # blue holds 3 of PAHU's 5 links (R2)
    circle = controlled[0].find(f"{NS}circle")
    assert (circle.get("fill"), circle.get("stroke")) == (S.COLOR_TINT["blue"], S.COLOR_FILL["blue"])
    free = next(g for g in groups(root, "island") if g.get("data-island") == "ORO").find(f"{NS}circle")
    assert free.get("fill") == S.SAND and free.get("stroke") not in S.COLOR_FILL.values()


def test_a_pending_removal_is_marked_on_its_island_links_and_panel():
    pos = pending_removal()
    root = parse(S.position_svg(pos))
    marked = [g.get("data-island") for g in groups(root, "island") if g.get("data-pending-removal") == "true"]
    assert marked == ["BAFI"]
    assert len([c for c in root.iter(f"{NS}circle") if c.get("class") == "pending-removal"]) == 1
    removable = sorted(g.get("data-link") for g in groups(root, "link") if g.get("data-removable") == "true")
    assert removable == sorted(m.split()[1] for m in pos.move_strings())  # what the engine lists (R7)
    assert removable == ["ALOA-BAFI", "BAFI-GUMO", "BAFI-ORO"]
    assert "must remove a bridge on BAFI (R7)" in words(root)
    quiet = parse(S.position_svg(example()))
    assert not [g for g in groups(quiet, "island") if g.get("data-pending-removal")]
    assert not [g for g in groups(quiet, "link") if g.get("data-removable")]


# -- the panel -------------------------------------------------------------------------------------


def test_the_panel_of_a_full_position_shows_every_card():
    pos = midgame(players=4)
    doc = pos.to_json()
    root = parse(S.position_svg(pos))
    assert [g.get("data-card") for g in groups(root, "face-up")] == doc["face_up"]
    assert groups(root, "deck")[0].get("data-deck") == str(len(doc["deck"]))
    hands = groups(root, "hand")
    assert [g.get("data-player") for g in hands] == doc["players"]
    for g in hands:
        cards = [c.get("data-hand-card") for c in groups(g, "in-hand")]
        assert cards == doc["hands"][g.get("data-player")]["cards"]
        assert g.get("data-count") == str(len(cards)) and not groups(g, "card-back")
    text = words(root)
    assert "full position" in text
    assert f"{doc['to_move']} to move, round 1" in text
    for color, points in doc["scores"].items():
        assert f"{color}: {points} points" in text
    assert f"Discard pile: {len(doc['discard']['open'])} open, {doc['discard']['hidden']} face-down" in text


def test_the_panel_marks_the_cards_every_player_knows():
    pos = example()  # red's view; green took KULU face up
    root = parse(S.position_svg(pos))
    green = next(g for g in groups(root, "hand") if g.get("data-player") == "green")
    assert [(c.get("data-hand-card"), c.get("data-public")) for c in groups(green, "in-hand")] == [("KULU", "true")]


def swapped_hidden_card(full: Position, viewer: str = "red") -> Position:
    """``full`` with a card of another hand than ``viewer``'s, one the viewer has not seen, swapped with another
    card of the deck."""
    doc = full.to_json()
    hand, card = next((hand, c) for player, hand in doc["hands"].items() if player != viewer
                      for c in hand["cards"] if hand["cards"].count(c) > hand.get("public", []).count(c))
    spot = next(k for k, c in enumerate(doc["deck"]) if c != card)
    hand["cards"][hand["cards"].index(card)], doc["deck"][spot] = doc["deck"][spot], card
    return Position.from_json(doc)


def test_a_viewers_picture_holds_no_card_the_viewer_cannot_see():
    full = midgame(players=4)
    other = swapped_hidden_card(full)
    assert S.position_svg(full) != S.position_svg(other)  # the full pictures show the swap ...
    seen = S.position_svg(full.as_viewer("red"))
    assert seen == S.position_svg(other.as_viewer("red"))  # ... red's do not
    root = parse(seen)
    doc = full.to_json()
    for g in groups(root, "hand"):
        player = g.get("data-player")
        cards = [c.get("data-hand-card") for c in groups(g, "in-hand")]
        hand = doc["hands"][player]
        if player == "red":
            assert cards == hand["cards"] and not groups(g, "card-back")
        else:
            assert sorted(cards) == sorted(hand["public"])
            assert len(groups(g, "card-back")) == len(hand["cards"]) - len(hand["public"])
    assert "seen by red" in words(root)


def test_a_kahuna_viewers_picture_holds_no_card_the_viewer_cannot_see():
    full = played(Position.new(game="kahuna", seed=4), moves=2)  # white has played and drawn
    other = swapped_hidden_card(full, "black")
    assert S.position_svg(full) != S.position_svg(other)
    seen = S.position_svg(full.as_viewer("black"))
    assert seen == S.position_svg(other.as_viewer("black"))
    root = parse(seen)
    doc = full.to_json()
    white, black = (next(g for g in groups(root, "hand") if g.get("data-player") == p) for p in ("white", "black"))
    assert [c.get("data-hand-card") for c in groups(black, "in-hand")] == doc["hands"]["black"]["cards"]
    public = doc["hands"]["white"].get("public", [])
    assert sorted(c.get("data-hand-card") for c in groups(white, "in-hand")) == sorted(public)
    assert len(groups(white, "card-back")) == len(doc["hands"]["white"]["cards"]) - len(public) > 0
    assert "seen by black" in words(root)


def test_a_two_player_picture_shows_each_players_pair_and_one_hand_a_player():
    pos = midgame(players=2, moves=40)
    root = parse(S.position_svg(pos.as_viewer("green")))
    assert [g.get("data-player") for g in groups(root, "hand")] == ["red", "green"]
    text = words(root)
    for player, (low, high) in pos.pairs.items():
        assert f"{player}: ({low}, {high})" in text
    assert "pairs (R15.5), weaker color first:" in text
    assert "red (red and blue):" in text and "green (green and yellow):" in text
    for color in ("red", "blue", "green", "yellow"):
        assert f"{color}: {pos.scores[color]} points" in text


def test_the_panel_says_what_a_waiting_position_waits_for_and_who_won():
    view = Position.new(seed=5).as_viewer("red")
    view.play(view.move_strings()[0])
    for _ in range(3):
        view.play("reveal")
    assert view.waiting is not None
    assert "Waiting: " in words(parse(S.position_svg(view)))
    pos = midgame(players=3)
    while not pos.is_over:
        pos.push(pos.state.legal_actions()[0])
    root = parse(S.position_svg(pos))
    outcome = pos.outcome
    assert f"Game over: {outcome['winner']} wins on {outcome['reason']}" in words(root)
    rule = {"points": "R12", "eleven islands": "R8"}[outcome["reason"]]
    assert f"Game over: {outcome['winner']} wins on {outcome['reason']} ({rule})" in words(root).replace("\n", " ")
    assert "game over" in root.get("aria-label")


# -- what the rule set says ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 3, 2])
def test_the_tabletop_preset_shows_each_colors_bridges_left_of_its_20(players):
    """R13: 20 bridges a color (with two players, each of a player's colors its own 20)."""
    pos = played(Position.new(players=players, seed=5, preset="tabletop"), moves=60)
    doc = pos.to_json()
    root = parse(S.position_svg(pos))
    built = {color: sum(1 for owner in doc["bridges"].values() if owner == color) for color in doc["scores"]}
    assert len(built) == (4 if players == 2 else players) and sum(built.values()) > 0
    for color, points in doc["scores"].items():
        assert score_line(root, color).startswith(f"{color}: {points} point")
        assert score_line(root, color).endswith(f", {20 - built[color]} in stock")
    text = words(root)
    assert "in stock: bridges left of 20 a color (R13)" in text
    assert "Scores (R11)" in text and "Kanaloa on oro (tabletop)" in text


def test_the_yucata_preset_has_no_stock_to_show():
    """R13: the yucata preset's bridges are unlimited."""
    root = parse(S.position_svg(midgame(players=4, moves=60)))
    assert "stock" not in words(root)
    for color in ("red", "green", "blue", "yellow"):
        assert re.fullmatch(rf"{color}: \d+ points?, \d+ islands?", score_line(root, color))


def test_a_bridge_removed_in_the_tabletop_preset_goes_back_to_its_stock():
    """R13: a removed bridge returns to its owner's stock."""
    pos = table(load_engine("core"), to_move="green", preset="tabletop",
                bridges={"ALOA-BAFI": "blue", "BAFI-COCO": "green", "BAFI-GUMO": "yellow", "BAFI-ORO": "red",
                         "ALOA-DALI": "red", "ALOA-ELOI": "red"},
                hands={"green": ["RASI", "ORO"]})
    before = parse(S.position_svg(pos))
    assert score_line(before, "red").endswith(", 17 in stock")
    pos.play("RASI-BAFI/RASI")  # BAFI is full, green leads it: a removal is pending (R7)
    assert score_line(parse(S.position_svg(pos)), "green").endswith(", 18 in stock")
    pos.play("remove BAFI-ORO")
    after = parse(S.position_svg(pos))
    assert score_line(after, "red").endswith(", 18 in stock")


def test_a_kahuna_picture_asks_its_rule_set():
    """R16.1: 25 bridges each, white and black; R16.6: the scorings; R16.5: a skipped draw must be answered."""
    pos = Position.from_json(kahuna_doc(round=3, to_move="black",
                                        turn={"played": 0, "discarded": False, "skipped_draw": True}))
    root = parse(S.position_svg(pos))
    text = words(root)
    assert "Kahuna on kahuna" in text.splitlines() and "(yucata)" not in text  # Kahuna has no presets (R16.9)
    assert "black to move, round 3" in text
    assert "Scores (R16.6)" in text
    assert score_line(root, "white") == "white: 0 points, 0 islands, 24 in stock"  # ALOA-BARI is white's
    assert score_line(root, "black") == "black: 0 points, 0 islands, 24 in stock"  # ELAI-HUNA is black's
    assert "in stock: bridges left of 25 a color (R16.1)" in text
    assert "the opponent skipped its draw: this turn must draw" in text.replace("\n", " ")
    assert "(R16.5)" in text
    assert "God tokens" not in text and "pairs" not in text
    assert root.get("aria-label") == "Kahuna on kahuna: black to move"
    drew = parse(S.position_svg(Position.from_json(kahuna_doc(round=3, to_move="black"))))
    assert "skipped its draw" not in words(drew)


def test_a_kahuna_final_round_has_no_pass_and_kanaloas_has():
    """R16.7: each Kahuna player takes one final turn, nobody passes; R10: Kanaloa's final round has passes."""
    text = words(parse(S.position_svg(kahuna_final())))
    assert "final turns taken: white" in text.splitlines() and "passed" not in text
    pos = Position.new(players=3, seed=2)
    rng = random.Random(2)
    while pos.round != "final":
        pos.push(rng.choice(pos.state.legal_actions()))
    assert "final turns taken: none; passed: none" in words(parse(S.position_svg(pos))).splitlines()


def test_a_kahuna_game_may_end_without_a_winner():
    """R16.7, R16.8: ``winner`` null."""
    root = parse(S.position_svg(Position.from_json(no_bridges_over())))
    assert "Game over: no winner (no bridges, R16.8)" in words(root)
    assert "ranking white, black" in words(root)
    assert root.get("aria-label") == "Kahuna on kahuna: game over"


@pytest.mark.parametrize(("seed", "ending"), [
    (1, "Game over: white wins on points (R16.7)"),  # the final scoring decides (R16.7)
    (25, "Game over: white wins: the other has no bridge left (R16.8)"),  # black has no bridge on the board
])
def test_a_finished_kahuna_game_cites_the_rule_that_ended_it(seed, ending):
    pos = Position.new(game="kahuna", seed=seed)
    rng = random.Random(seed)
    while not pos.is_over:
        pos.push(rng.choice(pos.state.legal_actions()))
    assert ending in words(parse(S.position_svg(pos))).replace("\n", " ")


def test_kahuna_draws_white_and_black_and_rings_a_white_island_in_its_dark_edge():
    """R16.1: the bridges in white and black; white is too light to ring an island on the sand."""
    pos = played(Position.new(game="kahuna", seed=4), moves=40)  # white and black each control an island
    root = parse(S.position_svg(pos))
    owners = {g.get("data-owner") for g in groups(root, "link")} - {""}
    assert owners == {"white", "black"}
    for g in groups(root, "link"):
        if g.get("data-owner"):
            assert S.COLOR_FILL[g.get("data-owner")] in strokes(g)
    ringed = {g.get("data-controller"): g.find(f"{NS}circle") for g in groups(root, "island")
              if g.get("data-controller")}
    assert set(ringed) == {"white", "black"}
    assert (ringed["white"].get("fill"), ringed["white"].get("stroke")) == (S.COLOR_TINT["white"],
                                                                           S.COLOR_DARK["white"])
    assert (ringed["black"].get("fill"), ringed["black"].get("stroke")) == (S.COLOR_TINT["black"],
                                                                           S.COLOR_FILL["black"])


FAMILY_PICTURED = [g for g in game_types() if g.faces.get("svg") == "kanaloa.interfaces.svg:position_svg"]


def test_every_color_of_every_palette_has_its_ink():
    """The picture draws the colors the rule set names; a light color rings an island in its dark edge."""
    assert [g.name for g in FAMILY_PICTURED] == ["kanaloa", "kahuna"]
    for game in FAMILY_PICTURED:
        rules = game.load()
        inks = S.palette_inks(rules.palette)
        assert list(inks) == list(rules.palette)
        for name, ink in inks.items():
            assert (ink.fill, ink.tint, ink.dark) == (S.COLOR_FILL[name], S.COLOR_TINT[name], S.COLOR_DARK[name])
            assert ink.ring == (S.COLOR_DARK[name] if name == "white" else S.COLOR_FILL[name])


def test_a_color_no_table_knows_gets_a_hue_of_its_own():
    inks = S.palette_inks(("red", "teal", "plum"))
    assert inks["red"].fill == S.COLOR_FILL["red"]
    fills = {inks["teal"].fill, inks["plum"].fill}
    assert len(fills) == 2 and not fills & set(S.COLOR_FILL.values())
    for name in ("teal", "plum"):
        assert all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in (inks[name].fill, inks[name].tint, inks[name].dark))
    assert S.palette_inks(("red", "teal", "plum")) == inks  # the same palette, the same inks


def test_god_tokens_are_drawn_only_where_the_rule_set_has_them():
    """R14.1: a token on each of the 16 islands; without the gods none."""
    gods = parse(S.position_svg(Position.new(players=4, seed=3, gods=True)))
    assert len(groups(gods, "god-token")) == 16
    text = words(gods)
    assert "God tokens (R14)" in text
    assert "16 tokens still on the islands; used in round 2 only (R14.4)" in text.replace("\n", " ")
    plain = parse(S.position_svg(Position.new(players=4, seed=3)))
    assert not groups(plain, "god-token") and "God tokens" not in words(plain)


# -- the hint ----------------------------------------------------------------------------------------


def test_a_hints_plan_is_drawn_step_by_step():
    pos = example()
    found = make_hint(pos, iterations=400, seed=1)
    root = parse(S.position_svg(pos, hint=found))
    steps = sorted(groups(root, "hint-step"), key=lambda g: int(g.get("data-step")))
    assert [g.get("data-step") for g in steps] == [str(n) for n in range(1, len(found.plan) + 1)]
    assert [g.get("data-move") for g in steps] == found.plan
    links = {g.get("data-link") for g in groups(root, "link")}
    for g, move in zip(steps, found.plan, strict=True):
        if "/" in move or move.startswith("remove "):
            link = move.split("/")[0].removeprefix("remove ")
            assert g.get("data-link") == link and link in links
    text = words(root)
    assert "Hint for red" in text
    for n, move in enumerate(found.plan, 1):
        assert f"{n}. {move}" in text
    best = found.candidates[0]
    assert f"win {100 * best.win:.1f}%" in text
    builds = [line for line in root.iter(f"{NS}line") if line.get("stroke-dasharray") == "10 6"]
    assert len(builds) == sum(1 for m in found.plan if "/" in m or m.startswith("remove "))
    assert {b.get("stroke") for b in builds} <= {S.COLOR_FILL["red"], S.INK}


def test_a_hints_take_and_discard_mark_their_cards():
    pos = example()
    face_up = pos.to_json()["face_up"]

    plan = ["discard RASI", f"take {face_up[1]}"]  # a plan red may play: a face-down discard ends the play (R4)
    root = parse(S.position_svg(pos, hint=Hint(move=plan[0], plan=plan, candidates=[], iterations=0, seconds=0.0)))
    marks = {g.get("data-step"): g.get("data-move") for g in groups(root, "hint-step")}
    assert marks == {"1": "discard RASI", "2": f"take {face_up[1]}"}


# -- the file itself ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", FAMILY_PICTURED, ids=lambda g: g.name)
def test_the_picture_is_every_games_svg_face(game):
    """The registry's ``svg`` face, ``svg(position, **options) -> str``, is ``position_svg``."""
    pos = Position.deal(game.load(), seed=4)
    face = pos.ruleset.game_type.face("svg")
    assert face is S.position_svg
    picture = face(pos, width=480, interactive=True)
    assert picture == S.position_svg(pos, width=480, interactive=True)
    root = parse(picture)
    assert root.get("width") == "480.0" and groups(root, "link")[0].get("role") == "button"
    assert root.get("aria-label").startswith(f"{game.title} on {pos.board.name}: ")


def test_the_same_position_gives_the_same_bytes():
    first = S.position_svg(example())
    assert S.position_svg(example()) == first
    assert S.position_svg(Position.from_json(example().dumps())) == first


def test_text_from_a_board_file_is_escaped(tmp_path):
    board = tmp_path / "odd.json"
    board.write_text(json.dumps({"name": 'Bay <of> "Quotes" & co', "cards_per_island": 6,
                                 "islands": [{"name": "A", "xy": [0, 0]}, {"name": "B", "xy": [9, 0]},
                                             {"name": "C", "xy": [0, 9]}],
                                 "links": [["A", "B"], ["B", "C"], ["A", "C"]]}))
    picture = S.position_svg(Position.new(players=3, seed=1, board=str(board)))
    root = parse(picture)
    assert 'Kanaloa on Bay <of> "Quotes" & co (yucata)' in words(root)
    assert "<of>" not in picture


def test_no_script_and_no_event_handlers():
    for interactive in (False, True):
        picture = S.position_svg(example(), interactive=interactive)
        root = parse(picture)
        assert not list(root.iter(f"{NS}script"))
        assert not [a for e in root.iter() for a in e.attrib if a.lower().startswith("on")]


def test_interactive_pictures_make_the_hooks_buttons():
    plain = parse(S.position_svg(example()))
    assert not [e for e in plain.iter() if e.get("role") == "button" or e.get("tabindex")]
    assert not list(plain.iter(f"{NS}style"))
    root = parse(S.position_svg(example(), interactive=True))
    for cls in ("link", "island", "face-up", "in-hand", "deck"):
        for g in groups(root, cls):
            assert (g.get("role"), g.get("tabindex")) == ("button", "0"), cls
            assert g.get("aria-label")
    style = root.find(f"{NS}style").text
    assert "cursor: pointer" in style


def test_width_sets_the_pixel_size_and_keeps_the_proportions():
    root = parse(S.position_svg(example(), width=480))
    view = [float(v) for v in root.get("viewBox").split()]
    assert float(root.get("width")) == 480
    assert float(root.get("height")) == pytest.approx(480 * view[3] / view[2], abs=0.1)
    for bad in (0, -5, float("nan"), "wide", True):
        with pytest.raises(OptionError, match="width"):
            S.position_svg(example(), width=bad)


def test_board_svg_draws_a_board_alone_with_the_same_hooks():
    board = load_board("kahuna")
    root = parse(S.board_svg(board))
    assert [g.get("data-link") for g in groups(root, "link")] == [board.link_name(k) for k in range(board.n_links)]
    assert {g.get("data-owner") for g in groups(root, "link")} == {""}
    assert {g.get("data-controller") for g in groups(root, "island")} == {""}
    assert "kahuna: 12 islands, 27 links, 2 cards per island" in words(root)
    assert root.get("aria-label") == "Board kahuna: 12 islands, 27 links, 2 cards per island"


def test_a_board_without_coordinates_is_drawn_on_a_circle():
    board = board_from_dict({"name": "bare", "cards_per_island": 3,
                             "islands": [{"name": n} for n in "ABCDE"],
                             "links": [[a, b] for a, b in ("AB", "BC", "CD", "DE", "EA", "AC")]}, "bare")
    geo = S.board_geometry(board)
    assert len(set(geo.centres)) == 5
    middle = (S.BOARD_SIDE / 2, S.BOARD_SIDE / 2)
    distances = [((x - middle[0]) ** 2 + (y - middle[1]) ** 2) ** 0.5 for x, y in geo.centres]
    assert max(distances) - min(distances) < 0.5  # one circle about the middle
    parse(S.board_svg(board))


# -- kanaloa svg -------------------------------------------------------------------------------------


def test_svg_prints_the_picture():
    result = run("svg", EXAMPLE)
    assert result.exit_code == 0, result.output
    assert result.stdout == S.position_svg(example())


def test_svg_reads_standard_input_and_writes_a_file(tmp_path):
    target = tmp_path / "pos.svg"
    result = run("svg", "-", "-o", str(target), input=example().dumps())
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert target.read_text() == S.position_svg(example())


def test_svg_hint_draws_the_plan_kanaloa_hint_gives():
    args = ("--iterations", "300", "--seed", "2", "--workers", "1")
    plan = json.loads(run("hint", EXAMPLE, *args, "--json").stdout)["plan"]
    result = run("svg", EXAMPLE, "--hint", *args)
    assert result.exit_code == 0, result.output
    steps = sorted(groups(parse(result.stdout), "hint-step"), key=lambda g: int(g.get("data-step")))
    assert [g.get("data-move") for g in steps] == plan


def test_svg_width():
    root = parse(run("svg", EXAMPLE, "--width", "500").stdout)
    assert root.get("width") == "500.0"


@pytest.mark.parametrize(("args", "fragments"), [
    (["nowhere.json"], ["POSITION 'nowhere.json': no such file"]),
    (["--iterations", "10"], ["--iterations: only with --hint"]),
    (["--seed", "3"], ["--seed: only with --hint"]),
    (["--time", "1"], ["--time: only with --hint"]),
    (["--workers", "2"], ["--workers: only with --hint"]),
    (["--hint", "--iterations", "0"], ["--iterations 0: must be a whole number from 1 to 1,000,000,000"]),
    (["--hint", "--iterations", "5", "--time", "1"], ["--iterations and --time: give one budget, not both"]),
    (["--hint", "--workers", "none"], ["--workers 'none': must be a whole number from 0 to"]),
    (["--width", "0"], ["--width", "0"]),
])
def test_svg_errors(args, fragments):
    position = [] if args[0].endswith(".json") else [EXAMPLE]
    user_error(run("svg", *position, *args), *fragments)


def test_svg_errors_on_positions_and_files(tmp_path):
    user_error(run("svg", "-", input="{}"), "format")
    user_error(run("svg", EXAMPLE, "-o", str(tmp_path)), f"-o '{tmp_path}': cannot write it")
    over = midgame(players=3)
    while not over.is_over:
        over.push(over.state.legal_actions()[0])
    path = tmp_path / "over.json"
    path.write_text(over.dumps())
    user_error(run("svg", str(path), "--hint", "--iterations", "10"), "round: the game is over")
    assert run("svg", str(path)).exit_code == 0  # a finished game is drawn; only a hint needs a move
    other = tmp_path / "green.json"
    other.write_text(midgame(players=4).as_viewer("green").dumps())  # red is to move
    user_error(run("svg", str(other), "--hint", "--iterations", "10"), "viewer: the position is seen by green")
