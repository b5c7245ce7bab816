"""The ``words`` face of every game: a move told in one sentence for the players at the table.

Each kind of move of each game is told in an exact sentence on a real
position (Kanaloa with and without the gods, two players, Kahuna, Cannonball
Colony), with what it changes on the table (control, bridges knocked out,
tokens claimed, earned pieces, the end of a round or of the game); random
games of every rule set tell every legal move in one line; a viewer's
sentences never name a card that viewer did not see, and ``public``
sentences of a full position name none that some player did not see; the
web app's views, hints and bot moves carry the words.
"""

from __future__ import annotations

import copy
import random

import pytest
from starlette.testclient import TestClient

from gods_positions import gods_doc
from kahuna_positions import kahuna_doc
from kanaloa.errors import MoveError
from kanaloa.interfaces.web.app import create_app
from kanaloa.interfaces.web.games import HintBudget, PlayGame, hint_words
from kanaloa.position import FORMAT, Position
from kanaloa.rules import actions as A
from kanaloa.rules.board import load_board
from kanaloa.rules.registry import game_type, game_types, load_game
from position_helpers import cards_left, give
from viewer_helpers import record

ORO = load_board("oro")


def say(position, move, public=False) -> str:
    """The sentence of the position's game's ``words`` face (as the layers above reach it)."""
    return position.ruleset.game_type.face("words")(position, move, public=public)


def family_doc(**fields):
    """A full Kanaloa position without the gods in round 2, red to move, 3 players (``gods_doc``'s table)."""
    doc = gods_doc(**fields)
    doc["rules"] = {"preset": "yucata"}
    del doc["gods"]
    del doc["hands"]["green"]["known"]
    if "deck" not in fields:
        doc["deck"] = cards_left(doc, ORO)
    return doc


CASCADE = {"ALOA-BAFI": "red", "ALOA-ELOI": "red", "ALOA-DALI": "green", "BAFI-ORO": "green"}


# -- Kanaloa ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("move", "words"), [
    ("BAFI-COCO/BAFI", "Red builds a bridge between Bafi and Coco, paying Bafi."),
    ("ALOA-COCO/ALOA", "Red builds a bridge between Aloa and Coco, paying Aloa; Red takes control of Aloa and "
                       "the green bridge on Aloa-Dali is knocked out."),
    ("take IKA", "Red takes Ika from the face-up cards and refills the row with Aloa."),
    ("draw", "Red draws a card from the deck."),
    ("discard COCO", "Red discards Coco face-down."),
])
def test_kanaloa_moves_in_words(move, words):
    assert say(Position.from_json(family_doc(bridges=CASCADE)), move) == words


def test_a_swap_names_the_bridge_it_replaces_and_the_cards_paid():
    pos = Position.from_json(give("red", "ORO")(family_doc()))
    assert say(pos, "BAFI-ORO/BAFI+ORO") == \
        "Red swaps the green bridge between Bafi and Oro for its own, paying Bafi and Oro."


def test_a_cascade_tells_every_color_knocked_out_and_the_control_they_lose():
    """Red's third bridge on ALOA knocks out green's and blue's bridges there; green loses DALI with it (R6)."""
    bridges = {"ALOA-BAFI": "red", "ALOA-ELOI": "red", "ALOA-DALI": "green", "DALI-ELOI": "green",
               "ALOA-GUMO": "blue"}
    pos = Position.from_json(family_doc(bridges=bridges))
    assert say(pos, "ALOA-COCO/COCO") == (
        "Red builds a bridge between Aloa and Coco, paying Coco; Red takes control of Aloa, Green loses control "
        "of Dali and the green bridge on Aloa-Dali and the blue bridge on Aloa-Gumo are knocked out.")


def test_a_relative_majority_removal_is_told_with_the_full_island():
    """R7: after a build fills an island with 5 links, the removal it leaves due is told, then the removal."""
    rng = random.Random(11)
    pos = Position.new(players=4, seed=11)
    while not pos.is_over:
        removes = [m for m in pos.move_strings() if m.startswith("remove ")]
        if removes:
            break
        before = pos.copy()
        move = rng.choice(pos.move_strings())
        pos.play(move)
        if pos.to_json()["turn"]["remove_on"]:
            island = pos.to_json()["turn"]["remove_on"][0]
            assert say(before, move).endswith(f"{pos.to_move.title()} must now remove a bridge on "
                                              f"{island.title()}.")
    else:
        pytest.fail("no relative majority in the game")
    move = removes[0]
    a, b = move.removeprefix("remove ").split("-")
    owner = pos.to_json()["bridges"][f"{a}-{b}"]
    island = pos.to_json()["turn"]["remove_on"][0]
    assert say(pos, move).startswith(f"{pos.to_move.title()} removes the {owner} bridge between {a.title()} and "
                                     f"{b.title()}, as {island.title()} is full")


def test_the_setup_and_the_cards_turned_face_up():
    """R3: each color chooses a card in secret; the viewer learns the cards when they are turned face-up."""
    full = Position.new(players=4, seed=1)
    card = full.move_strings()[0].split()[1]
    assert say(full, f"reveal {card}") == f"Red chooses {card.title()} to reveal."
    assert say(full, f"reveal {card}", public=True) == "Red chooses a card to reveal."
    view = full.as_viewer("green")
    for color in ("red", "green", "blue", "yellow"):
        action = full.state.legal_actions()[0]
        note = record(full, action, "green")
        chosen = note.split()[-1].title() if color == "green" else "a card"
        assert say(view, note) == f"{color.title()} chooses {chosen} to reveal."  # the view waits for the cards
        if color == "yellow":
            assert say(full, full.move_of(action), public=True) == \
                "Yellow chooses a card to reveal; the setup is over."
        view.play(note)
        full.push(action)
    turned = full.to_json()["face_up"]
    assert say(view, "faceup " + " ".join(turned)) == \
        f"{', '.join(c.title() for c in turned[:-1])} and {turned[-1].title()} are turned face-up; the setup is over."
    assert say(view, f"faceup {turned[0]}") == f"{turned[0].title()} is turned face-up."


def test_a_round_that_ends_and_a_game_that_ends_are_told():
    """The take of the last card ends round 1 with a scoring (R9); the last final turn ends the game (R12)."""
    rng = random.Random(5)
    pos = Position.new(players=3, seed=5)
    told = []
    while not pos.is_over:
        before, move = pos.copy(), rng.choice(pos.move_strings())
        pos.play(move)
        if before.round != pos.round:
            told.append((before.round, pos.round, say(before, move)))
    rounds = {(a, b): words for a, b, words in told}
    assert rounds[(1, 2)].endswith("; the cards have run out: the islands are scored and the cards shuffled "
                                   "into a new deck.")
    assert rounds[(2, "final")].endswith("; the cards have run out and the final round begins.")
    winner = pos.outcome["winner"]
    assert rounds[("final", "over")].endswith(f"the game ends and {winner.title()} wins on points.")


def test_a_final_round_pass_and_end_with_two_players_and_the_winner():
    """The printed example of R15.5 as a position: red passes, green ends, red ends and green wins."""
    doc = {
        "format": FORMAT, "board": "oro", "rules": {"preset": "yucata"},
        "players": ["red", "green"], "colors": {"red": ["red", "yellow"], "green": ["green", "blue"]},
        "to_move": "red", "round": "final", "bridges": {},
        "hands": {"red": {"cards": []}, "green": {"cards": []}}, "face_up": [], "deck": [],
        "discard": {"open": [x for x in ORO.islands for _ in range(ORO.cards_per_island)]},
        "scores": {"red": 28, "yellow": 3, "green": 10, "blue": 12}, "turn": {}, "seed": 0,
    }
    pos = Position.from_json(doc)
    assert say(pos, "pass") == "Red passes and will take the final turn later."
    pos.play("pass")
    assert say(pos, "end") == "Green ends the final turn."
    pos.play("end")
    assert say(pos, "red: end") == "Red ends the final turn; the game ends and Green wins on points."


def two_player_doc(**fields):
    doc = {
        "format": FORMAT, "board": "oro", "rules": {"preset": "yucata"}, "players": ["red", "green"],
        "colors": {"red": ["red", "blue"], "green": ["green", "yellow"]}, "viewer": None, "to_move": "red",
        "round": 2, "bridges": {"ALOA-COCO": "yellow"},
        "hands": {"red": {"cards": ["ALOA", "ALOA", "BAFI"]}, "green": {"cards": ["COCO"]}},
        "face_up": ["IKA", "KULU", "LANI", "MOKU"], "discard": {"open": [], "hidden": 0},
        "scores": {"red": 0, "blue": 0, "green": 0, "yellow": 0},
        "turn": {"played": 0, "discarded": False, "remove_on": []}, "seed": 3,
    }
    doc.update(fields)
    doc["deck"] = cards_left(doc, ORO)
    return doc


def test_two_players_builds_name_the_color_they_build_with():
    pos = Position.from_json(two_player_doc())
    assert say(pos, "blue: ALOA-BAFI/BAFI") == "Red builds a blue bridge between Aloa and Bafi, paying Bafi."
    assert say(pos, "red: ALOA-COCO/ALOA+ALOA") == \
        "Red swaps the yellow bridge between Aloa and Coco for a red one, paying two Aloa."
    assert say(pos, "red: take KULU") == "Red takes Kulu from the face-up cards and refills the row with Aloa."


# -- Might of the Gods ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("move", "public", "words"), [
    ("ALOA-COCO/KANALOA", False, "Red builds a bridge between Aloa and Coco, paying the Kanaloa token; Red takes "
                                 "control of Aloa, the green bridge on Aloa-Dali is knocked out and Red claims the "
                                 "Kane token on Aloa and scores 2 points."),
    ("ku green", False, "Red uses the Ku token on Green and sees Green's hand: Dali and Eloi."),
    ("ku green", True, "Red uses the Ku token to look at Green's hand."),
    ("pele", True, "Red uses the Pele token and takes a card at random from each other player who holds one."),
    ("lono", False, "Red uses the Lono token to take an extra card."),
    ("discard COCO", True, "Red discards a card face-down."),
])
def test_the_god_tokens_in_words(move, public, words):
    assert say(Position.from_json(gods_doc(bridges=CASCADE)), move, public) == words


def test_ku_then_the_card_stolen_and_pele_then_the_gifts():
    pos = Position.from_json(gods_doc())
    ku = pos.copy()
    ku.play("ku green")
    assert say(ku, "steal DALI") == "Red takes Dali from Green's hand."
    assert say(ku, "steal DALI", public=True) == "Red takes a card from Green's hand."
    pele = pos.copy()
    pele.play("pele")
    after = pele.to_json()["hands"]
    taken = [card for player in ("green", "blue") for card in pos.to_json()["hands"][player]["cards"]
             if after[player]["cards"].count(card) < pos.to_json()["hands"][player]["cards"].count(card)]
    assert say(pos, "pele") == (f"Red uses the Pele token and takes {taken[0].title()} from Green and "
                                f"{taken[1].title()} from Blue.")
    assert say(pele, "give green ALOA") == "Red gives Aloa back to Green."
    assert say(pele, "give green ALOA", public=True) == "Red gives a card back to Green."


def test_lonos_extra_card_is_told_as_such():
    pos = Position.from_json(gods_doc())
    pos.play("lono")
    top = pos.to_json()["deck"][0].title()
    assert say(pos, "take IKA") == \
        f"Red takes Ika from the face-up cards as Lono's extra card and refills the row with {top}."


def test_a_viewer_tells_the_records_of_the_tokens_with_what_it_saw():
    full = Position.from_json(gods_doc())
    red, green, blue = (full.as_viewer(c) for c in ("red", "green", "blue"))
    assert say(red, "ku green sees DALI ELOI") == "Red uses the Ku token on Green and sees Green's hand: Dali and Eloi."
    assert say(green, "red: ku green") == "Red uses the Ku token to look at Green's hand."
    assert say(red, "pele takes green:ELOI blue:FALU") == \
        "Red uses the Pele token and takes Eloi from Green and Falu from Blue."
    assert say(blue, "red: pele takes FALU") == \
        "Red uses the Pele token and takes Falu from Blue and a card from each other player who holds one."
    assert say(green, "red: pele") == \
        "Red uses the Pele token and takes a card at random from each other player who holds one."
    assert say(red, "take IKA") == "Red takes Ika from the face-up cards."  # a hint's take: the refill is unknown
    assert say(red, "take IKA refill ALOA") == "Red takes Ika from the face-up cards and refills the row with Aloa."
    assert say(green, "red: draw") == "Red draws a card from the deck."
    assert say(red, "draw ALOA") == "Red draws Aloa from the deck."


# -- Kahuna ---------------------------------------------------------------------------------------------


def test_kahuna_moves_in_words():
    pos = Position.from_json(kahuna_doc(bridges={"ALOA-BARI": "white", "ALOA-HUNA": "black",
                                                 "ELAI-HUNA": "black"}))
    assert say(pos, "ALOA-DUDA/ALOA") == ("White builds a bridge between Aloa and Duda, paying Aloa; White takes "
                                          "control of Aloa and the black bridge on Aloa-Huna is knocked out.")
    assert say(pos, "end") == "White ends the turn without drawing a card."
    assert say(pos, "take IFFI") == "White takes Iffi from the face-up cards and refills the row with Aloa."
    full_hand = Position.from_json(kahuna_doc(hands={"white": {"cards": ["ALOA", "COCO", "DUDA", "GOLA", "LALE"]},
                                                     "black": {"cards": ["ELAI", "FAAA", "GOLA", "HUNA"],
                                                               "public": ["HUNA"]}}))
    assert say(full_hand, "discard COCO") == "White discards Coco face-down."  # R16.5: a hand of 5
    assert say(full_hand, "discard COCO", public=True) == "White discards a card face-down."
    full_hand.play("discard COCO")
    assert say(full_hand, "draw") == "White draws a card from the deck."
    paying = Position.from_json(kahuna_doc(hands={"white": {"cards": ["ALOA", "ELAI", "ELAI"]},
                                                  "black": {"cards": ["FAAA", "GOLA", "HUNA"], "public": ["HUNA"]}}))
    assert say(paying, "remove ELAI-HUNA/ELAI+ELAI") == \
        "White removes the black bridge between Elai and Huna, paying two Elai."


# -- Cannonball Colony ------------------------------------------------------------------------------------

ROWS = ["ggfggg", "gggglg", "fggmgg", "ggggfg", "glgggg", "gggfgg",
        "ggfggg", "gmgggf", "ggggfg", "fgglgg", "gggggg", "ggfggg"]  # top row (12) first
CANNONBALL = {
    "format": FORMAT, "game": "cannonball", "players": ["france", "spain"], "to_move": "france",
    "round": "play", "seed": 7, "island": {"columns": 6, "rows": ROWS},
    "ships": {"france": "a1", "spain": "f12"}, "roads": ["a1", "b1", "b2", "c2", "d2", "e2", "f11", "e12", "f12"],
    "forts": {"france": ["e2"], "spain": ["f11"]}, "cannons": {"france": [], "spain": []}, "blockades": {},
    "earned": {"france": [], "spain": []}, "supply": 41, "turn": {"fired": False, "grass_roads": 0}, "passes": 0,
}


def cannonball(**fields):
    doc = copy.deepcopy(CANNONBALL)
    doc.update(fields)
    return game_type("cannonball").face("position").from_json(doc)


def test_cannonball_moves_in_words():
    pos = cannonball()
    assert say(pos, "road a2") == "France lays a road on the grass of a2; France may now lay a second grass road."
    assert say(pos, "road c1") == "France lays a road on the forest of c1."
    pos.play("road a2")
    assert say(pos, "road b3") == "France lays a second road on the grass of b3."
    assert say(pos, "end") == "France ends the turn after one grass road."
    roads = [*CANNONBALL["roads"], "a2", "a3", "a4", "a5", "a6"]
    assert say(cannonball(roads=roads, supply=36), "fort a5") == "France builds a fort on a5."
    third = cannonball(forts={"france": ["e2", "a6"], "spain": ["f11"]}, roads=roads, supply=36)
    assert say(third, "fort a2") == "France builds a fort on a2; France earns its first cannon."  # R20.8


def test_cannonball_landing_pass_and_a_game_that_ends():
    rs = load_game("cannonball", players=2)
    pos = rs.game_type.face("position").deal(rs, 1)
    land = pos.move_strings()[0]
    assert say(pos, land) == f"France lands its ship on {land.split()[1]}."
    blocked = cannonball(island={"columns": 6, "rows": ["gggglg", "gggggl", *ROWS[2:10], "lggggg", "glgggg"]},
                         roads=["a1", "f12"], supply=48, forts={}, passes=1, to_move="spain")
    assert say(blocked, "pass") == ("Spain passes, having no build it may make; the game ends, as every country "
                                    "passed in succession, and France and Spain share the victory.")
    with pytest.raises(MoveError, match="the game is over; nobody moves"):
        blocked.play("pass")
        say(blocked, "pass")


def test_a_cannonball_shot_a_blockade_and_the_winner():
    rng = random.Random(6)
    rs = load_game("cannonball", players=3)
    pos = rs.game_type.face("position").deal(rs, 6)
    told = set()
    while not pos.is_over:
        moves = pos.move_strings()
        preferred = [m for m in moves if m.split()[0] in ("fort", "cannon", "fire", "blockade")]
        move = rng.choice(preferred or moves)
        word, _, space = move.partition(" ")
        who = pos.to_move.title()
        words = say(pos, move)
        if word == "fire":
            owner = next(c for c, spaces in pos.to_json()["forts"].items() if space in spaces).title()
            assert words == f"{who} fires a cannon at {owner}'s fort on {space}, which goes back to {owner}'s mat."
        elif word in ("cannon", "blockade"):
            assert words == f"{who} builds {'a cannon' if word == 'cannon' else 'its blockade'} on {space}."
        told.add(word)
        pos.play(move)
    assert {"fire", "cannon", "blockade"} <= told
    assert len(pos.outcome["winners"]) == 1
    assert words.endswith(f"and {pos.outcome['winner'].title()} wins.")


# -- every game, every move ---------------------------------------------------------------------------------

RULE_SETS = [(g.name, params) for g in game_types() for params in g.examples]


@pytest.mark.parametrize(("game", "params"), RULE_SETS, ids=[f"{g}-{p}" for g, p in RULE_SETS])
def test_every_legal_move_of_random_games_is_told_in_one_line(game, params):
    rs = load_game(game, **params)
    for seed in range(2):
        rng = random.Random(seed)
        pos = rs.game_type.face("position").deal(rs, 900 + seed)
        step = 0
        while not pos.is_over:
            moves = pos.move_strings()
            for move in (moves if step % 4 == 0 else [rng.choice(moves)]):
                words = say(pos, move)
                assert words and "\n" not in words and words.endswith(".") and words[0].isupper(), (move, words)
                assert say(pos, move, public=True), move
            pos.play(rng.choice(moves))
            step += 1
        with pytest.raises(MoveError, match="the game is over; nobody moves"):
            say(pos, moves[0])


def test_a_move_of_another_player_than_the_one_to_move_is_refused():
    pos = Position.from_json(family_doc())
    with pytest.raises(MoveError, match="move 'green: take IKA': it is red's turn, not green's"):
        say(pos, "green: take IKA")
    with pytest.raises(MoveError, match="move 'france: road a2': france is not to move; spain is"):
        say(cannonball(to_move="spain"), "france: road a2")


@pytest.mark.parametrize("game", [g.name for g in game_types()])
def test_a_move_not_in_the_games_notation_is_refused_by_the_position(game):
    rs = game_type(game).load()
    pos = rs.game_type.face("position").deal(rs, 1)
    with pytest.raises(MoveError, match="flap"):
        say(pos, "flap the sails")


# -- no leak ---------------------------------------------------------------------------------------------------

HIDDEN = (A.DRAW, A.DISCARD, A.REVEAL, A.KU, A.STEAL, A.PELE, A.GIVE)


def unseen_by(full: Position, action: int, viewer: str) -> set[str]:
    """The cards ``action`` of the full position moves out of ``viewer``'s sight: the deck's top another draws,
    another's discard or choice, the card KU shows, steals or PELE takes (from a hand but the viewer's), a gift
    the viewer neither makes nor receives."""
    d = full.state.to_data()
    players, isl = full.players, full.board.islands
    mover = players[d.to_move]
    kind, a, b = A.kind_of(action), A.arg_a(action), A.arg_b(action)
    if mover == viewer:
        return set()
    if kind == A.DRAW:
        return {isl[d.deck[0]]} if d.deck else set()
    if kind in (A.DISCARD, A.REVEAL):
        return {isl[a]}
    if kind == A.KU:
        return {isl[x] for x, n in enumerate(d.hands[a]) if n} if players[a] != viewer else set()
    if kind == A.STEAL:
        return {isl[a]} if players[d.ku_target] != viewer else set()
    if kind == A.GIVE:
        return {isl[a]} if players[b] != viewer else set()
    if kind == A.PELE:
        after = full.copy()
        after.push(action)
        hands = after.state.to_data().hands
        lost = {v: {isl[x] for x, (n, m) in enumerate(zip(d.hands[v], hands[v], strict=True)) if m < n}
                for v in range(d.players)}
        own = lost[players.index(viewer)] if viewer in players else set()
        return set().union(*(cards for v, cards in lost.items() if players[v] != viewer)) - own
    return set()


def told_cards(words: str, full: Position) -> set[str]:
    """The islands a sentence's move names before what the move changed on the table (``; ...``)."""
    main = words.split(";")[0].replace(",", " ").replace(".", " ").replace(":", " ")
    return {w.upper() for w in main.split() if full.board.find_island(w) is not None}


@pytest.mark.parametrize("params", [{"players": 3, "gods": True}, {"players": 2, "gods": True}, {"players": 4},
                                    {"game": "kahuna"}], ids=["gods-3", "gods-2", "kanaloa-4", "kahuna"])
def test_no_sentence_names_a_card_its_reader_did_not_see(params):
    """Every move of random games told to every viewer from the record that viewer writes, and told to every
    player at once (``public``) from the full position: no hidden card the move moves is named in it, while the
    full position's own sentence does name it (so the check can fail)."""
    game = params.pop("game", "kanaloa")
    rs = load_game(game, **params)
    named_when_open = 0
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        full = Position.deal(rs, 40 + seed)
        views = {c: full.as_viewer(c) for c in full.players}
        while not full.is_over:
            actions = full.state.legal_actions()
            hidden = [a for a in actions if A.kind_of(a) in HIDDEN]
            action = rng.choice(hidden) if hidden and rng.random() < 0.6 else rng.choice(actions)
            move = str(full.move_of(action))
            public = say(full, move, public=True)
            for viewer, view in views.items():
                unseen = unseen_by(full, action, viewer)
                note = record(full, action, viewer)
                words = say(view, note)
                assert words.endswith(".") and "\n" not in words, (viewer, note, words)
                if unseen:
                    checked += 1
                    assert not told_cards(words, full) & unseen, (viewer, note, words)
                    assert not told_cards(public, full) & unseen, (move, public)
            if told_cards(say(full, move), full) & unseen_by(full, action, ""):
                named_when_open += 1
            notes = {viewer: record(full, action, viewer) for viewer in views}
            full.push(action)
            for viewer, view in views.items():
                view.play(notes[viewer])
                if view.waiting:
                    turned = full.to_json()["face_up"][len(view.to_json()["face_up"]):]
                    view.play("faceup " + " ".join(turned))
    assert checked > 50 and named_when_open > 5


# -- the web app ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(HintBudget(iterations=100)), raise_server_exceptions=False) as c:
        yield c


def test_play_mode_history_and_bot_moves_carry_words_that_hide_the_bots_cards(client):
    """A bot's face-down discard is in the history as notation and in words that name no card: a person reads
    the history (and any person of the table may)."""
    view = client.post("/api/games", json={"seats": ["human", "random", "random", "random"], "seed": 7}).json()
    gid = view["id"]
    rng = random.Random(3)
    discards = 0
    for _ in range(400):
        if view["outcome"]:
            break
        if view["bot_to_move"]:
            view = client.post(f"/api/games/{gid}/bot").json()
            last = view["history"][-1]
            assert view["played"] == last["move"] and view["played_words"] == last["words"]
            if last["move"].startswith("discard"):
                assert last["move"] == "discard"  # the notation names no card either
                assert last["words"] == f"{last['seat'].title()} discards a card face-down."
                discards += 1
        else:
            view = client.post(f"/api/games/{gid}/move", json={"move": rng.choice(view["moves"])}).json()
        assert all(entry["words"] and entry["words"].endswith(".") for entry in view["history"])
    assert discards
    first = view["history"][0]
    assert first["words"] == "Red chooses a card to reveal."
    undone = client.post(f"/api/games/{gid}/undo").json()
    assert [e["words"] for e in undone["history"]] == [e["words"] for e in view["history"][:len(undone["history"])]]


def test_a_table_tells_each_move_as_its_viewer_knows_it(client):
    tid = client.post("/api/tables", json={"players": 3, "viewer": "green",
                                           "hand": ["ALOA", "ORO", "DALI", "DALI"]}).json()["id"]

    def tell(move: str) -> dict:
        answer = client.post(f"/api/tables/{tid}/move", json={"move": move})
        assert answer.status_code == 200, answer.text
        return answer.json()

    tell("red: reveal")
    tell("reveal ORO")
    tell("blue: reveal")
    tell("faceup KULU ORO MOKU ELOI")
    tell("red: ALOA-BAFI/BAFI")
    view = tell("red: take MOKU refill RASI")
    assert [e["words"] for e in view["history"]] == [
        "Red chooses a card to reveal.", "Green chooses Oro to reveal.", "Blue chooses a card to reveal.",
        "Kulu, Oro, Moku and Eloi are turned face-up; the setup is over.",
        "Red builds a bridge between Aloa and Bafi, paying Bafi.",
        "Red takes Moku from the face-up cards and refills the row with Rasi."]
    view = tell("draw PAHU")
    assert view["history"][-1]["words"] == "Green draws Pahu from the deck."
    view = tell("blue: discard")
    assert view["history"][-1]["words"] == "Blue discards a card face-down."
    undone = client.post(f"/api/tables/{tid}/undo").json()
    assert undone["history"][-1]["words"] == "Green draws Pahu from the deck."
    assert len(undone["history"]) == len(view["history"]) - 1


def test_a_hint_carries_its_move_and_plan_in_words(client):
    view = client.post("/api/tables", json={"players": 3, "viewer": "red",
                                            "hand": ["ALOA", "ORO", "DALI", "DALI"]}).json()
    tid = view["id"]
    hint = client.post(f"/api/tables/{tid}/hint", json={"iterations": 60}).json()
    seen = Position.from_json(client.get(f"/api/tables/{tid}/position").json())
    assert hint["words"] == say(seen, hint["move"])
    assert hint["words"] == f"Red chooses {hint['move'].split()[1].title()} to reveal."
    assert len(hint["plan_words"]) == len(hint["plan"]) and hint["plan_words"][0] == hint["words"]


def test_hint_words_follow_the_plan_on_a_copy():
    """A plan's steps are told each from the position before it; a step the viewer cannot play (a draw, whose
    card the table shows) leaves the next ones told from the position before it."""

    class Found:
        move = "ALOA-COCO/ALOA"
        plan = ("ALOA-COCO/ALOA", "BAFI-COCO/BAFI", "draw", "lono")

    pos = Position.from_json(gods_doc(bridges=CASCADE)).as_viewer("red")
    before = pos.dumps()
    told = hint_words(pos, Found())  # type: ignore[arg-type]
    assert told["words"] == told["plan_words"][0] == say(pos, "ALOA-COCO/ALOA")
    assert told["plan_words"][1:] == ["Red builds a bridge between Bafi and Coco, paying Bafi.",
                                      "Red draws a card from the deck.",
                                      "Red uses the Lono token to take an extra card."]
    assert pos.dumps() == before  # the hint's position is not played on


def test_play_mode_words_are_kept_with_each_step():
    rs = load_game("kanaloa", players=4)
    game = PlayGame(Position.deal(rs, 7), ["human", "human", "human", "human"], rs)
    move = game.pos.move_strings()[0]
    game.play(move)
    assert game.history[-1].words == "Red chooses a card to reveal."
    assert game.history[-1].move == move  # kept in full; green, the next person, reads it without the card
    assert game.view()["history"] == [{"seat": "red", "move": "reveal", "words": "Red chooses a card to reveal."}]
