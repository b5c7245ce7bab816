"""The HTTP API of ``kanaloa serve`` (docs/web.md), through Starlette's test client.

Every mode over the API (Play against bots to the end, undo, hints, the
downloads and uploads; a real table followed with others' records; boards
checked; replays stepped; a table with the gods told every token record), for
Kanaloa and for Kahuna (R16: removals paid with two cards, skipped draws,
full hands discarded, the early end, a game without a winner); whole games
analysed in the background (a replay, a finished game, a table's own moves:
started, polled, read with the chart, cancelled, each move shown with the
engine's plan); and the promises of the server: every refusal a 4xx with a one-line JSON error, a
body size limit, no file path taken from a request, games kept apart, and a
bad request losing nothing.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time

import pytest
from starlette.testclient import TestClient

from kanaloa.interfaces.web.app import MAX_BODY_BYTES, create_app
from kanaloa.interfaces.web.games import HintBudget
from kanaloa.play.hint import COMPLETION_ITERATIONS
from kanaloa.play.tournament import make_tournament, play_game
from kanaloa.position import Position
from kanaloa.rules.board import load_board

BOTS = ["random", "random", "random"]
SMALL_BOARD = {
    "name": "triangle",
    "cards_per_island": 4,
    "islands": [{"name": n, "xy": xy} for n, xy in
                [("ALFA", [10, 10]), ("BETA", [50, 10]), ("GAMA", [30, 40]), ("DELT", [70, 40]), ("EPSI", [50, 70])]],
    "links": [["ALFA", "BETA"], ["ALFA", "GAMA"], ["BETA", "GAMA"], ["BETA", "DELT"], ["GAMA", "DELT"],
              ["GAMA", "EPSI"], ["DELT", "EPSI"]],
}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(HintBudget(iterations=200)), raise_server_exceptions=False) as c:
        yield c


def new_game(client, seats=("human", *BOTS), **extra):
    r = client.post("/api/games", json={"seats": list(seats), "seed": 7, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def refused(response, status: int, *words: str) -> str:
    """The response is a refusal with ``status`` and a one-line error naming ``words``."""
    assert response.status_code == status, response.text
    message = response.json()["error"]
    assert "\n" not in message and "Traceback" not in message
    for word in words:
        assert word in message, message
    return message


def finish_bots(client, game_id: str, view: dict) -> dict:
    while view["bot_to_move"]:
        view = client.post(f"/api/games/{game_id}/bot").json()
    return view


def play_to_the_end(client, view: dict, rng: random.Random) -> dict:
    gid = view["id"]
    for _ in range(5000):
        view = finish_bots(client, gid, view)
        if view["outcome"]:
            return view
        r = client.post(f"/api/games/{gid}/move", json={"move": rng.choice(view["moves"])})
        assert r.status_code == 200, r.text
        view = r.json()
    raise AssertionError("the game did not end")


# -- Play ------------------------------------------------------------------------------------


def test_a_new_game_shows_the_persons_view_and_the_legal_moves(client):
    view = new_game(client)
    assert view["kind"] == "game" and view["perspective"] == "red"
    pos = view["position"]
    assert pos["viewer"] == "red" and pos["round"] == 0
    assert all("count" in pos["hands"][c] for c in ("green", "blue", "yellow"))  # the bots' hands stay hidden
    assert view["moves"] == Position.from_json(pos).move_strings()
    assert view["moves"] and all(m.startswith("reveal ") for m in view["moves"])
    assert "<svg" in view["svg"] and 'data-link="ALOA-BAFI"' in view["svg"]
    assert view["bot_to_move"] is False and view["can_undo"] is False


def test_a_whole_game_against_bots_ends_with_a_summary_and_a_record_that_replays(client):
    view = play_to_the_end(client, new_game(client), random.Random(1))
    outcome = view["outcome"]
    assert outcome["winner"] in outcome["ranking"] and view["moves"] == []
    assert view["position"]["viewer"] is None  # once over, every card is shown
    record = client.get(f"/api/games/{view['id']}/record").json()
    assert record["format"] == "kanaloa-game/1" and record["lineup"] == ["human", *BOTS]
    assert record["moves"] == [h["move"] for h in view["history"]]
    replayed = client.post("/api/replays", json={"records": json.dumps(record)}).json()
    assert replayed["length"] == len(record["moves"])
    last = client.get(f"/api/replays/{replayed['id']}", params={"at": replayed["length"]}).json()
    assert last["position"] == client.get(f"/api/games/{view['id']}/position").json()
    # the record also starts a game again: the same end, and undo plays on from before it
    again = client.post("/api/games", json={"record": json.dumps(record), "seats": ["human", *BOTS]}).json()
    assert again["outcome"] == outcome
    assert client.post(f"/api/games/{again['id']}/undo").json()["outcome"] is None


def test_bots_move_one_at_a_time_and_only_on_their_turn(client):
    view = new_game(client, seats=("random", "human", "random", "random"))
    assert view["bot_to_move"] and view["moves"] == []
    refused(client.post(f"/api/games/{view['id']}/move", json={"move": "reveal ORO"}), 409, "red is a bot")
    after = client.post(f"/api/games/{view['id']}/bot").json()
    assert after["played"] == "reveal" and after["to_move"] == "green" and not after["bot_to_move"]  # card hidden
    refused(client.post(f"/api/games/{view['id']}/bot"), 409, "no bot is to move")
    assert after["history"] == [{"seat": "red", "move": after["played"], "words": "Red chooses a card to reveal."}]
    assert after["played_words"] == "Red chooses a card to reveal."


def test_undo_takes_back_the_persons_move_and_the_bot_moves_after_it(client):
    view = new_game(client)
    gid = view["id"]
    before = view["position"]
    view = finish_bots(client, gid, client.post(f"/api/games/{gid}/move", json={"move": view["moves"][0]}).json())
    assert len(view["history"]) == 4
    undone = client.post(f"/api/games/{gid}/undo").json()
    assert undone["history"] == [] and undone["position"] == before
    refused(client.post(f"/api/games/{gid}/undo"), 409, "nothing to undo")


def test_a_hint_gives_the_move_the_plan_and_the_win_chances(client):
    view = new_game(client)
    gid = view["id"]
    view = finish_bots(client, gid, client.post(f"/api/games/{gid}/move", json={"move": view["moves"][0]}).json())
    hint = client.post(f"/api/games/{gid}/hint", json={}).json()
    assert hint["move"] in view["moves"] and hint["plan"][0] == hint["move"]
    # the test app's budget, and any short searches that completed a plan cut short (docs/hints.md)
    assert hint["iterations"] >= 200 and (hint["iterations"] - 200) % COMPLETION_ITERATIONS == 0
    assert 0 <= hint["candidates"][0]["win"] <= 1
    assert f'data-move="{hint["move"]}"' in hint["svg"]  # the plan drawn on the picture
    small = client.post(f"/api/games/{gid}/hint", json={"iterations": 50}).json()["iterations"]
    # the budget asked for, and any short searches that completed a plan cut short (docs/hints.md)
    assert small >= 50 and (small - 50) % COMPLETION_ITERATIONS == 0
    refused(client.post(f"/api/games/{gid}/hint", json={"iterations": 0}), 400, "iterations")


def test_no_hint_on_a_bots_turn(client):
    view = new_game(client, seats=("random", "human", "random", "random"))
    refused(client.post(f"/api/games/{view['id']}/hint", json={}), 409, "bot")


def test_a_downloaded_position_uploads_into_a_new_game_with_other_seats(client):
    view = new_game(client)
    gid = view["id"]
    finish_bots(client, gid, client.post(f"/api/games/{gid}/move", json={"move": view["moves"][0]}).json())
    full = client.get(f"/api/games/{gid}/position").json()
    assert full["viewer"] is None and isinstance(full["deck"], list)
    upload = client.post("/api/games", json={"position": json.dumps(full), "seats": ["human"] * 4}).json()
    assert upload["position"]["bridges"] == full["bridges"] and upload["to_move"] == full["to_move"]
    refused(client.get(f"/api/games/{upload['id']}/record"), 409, "uploaded position")
    seen = Position.from_json(full).as_viewer("red").to_json()
    refused(client.post("/api/games", json={"position": seen, "seats": ["human"] * 4}), 400, "full position")


def test_two_humans_each_see_their_own_hand_in_turn(client):
    view = new_game(client, seats=("human", "human", "random", "random"))
    assert view["perspective"] == "red"
    view = client.post(f"/api/games/{view['id']}/move", json={"move": view["moves"][0]}).json()
    assert view["perspective"] == "green" and view["position"]["viewer"] == "green"


HIDDEN_CARD_MOVES = ("reveal", "discard", "draw")  # the card stays with its mover


def test_the_history_shows_the_person_no_bots_hidden_card_and_every_card_once_the_game_is_over(client):
    """Through the setup round and the bots' face-down discards, each entry of the history is the move as the
    person writes it down at the table (``record_of``): a bot's reveal, face-down discard and draw name no
    card.  Once the game is over every move is shown in full, as the record keeps it."""
    from kanaloa.play.records import replay

    rng = random.Random(4)
    view = new_game(client)
    gid = view["id"]
    snapshots = []
    while sum(h["seat"] != "red" and h["move"] == "discard" for h in view["history"]) < 3:
        while view["bot_to_move"]:
            view = client.post(f"/api/games/{gid}/bot").json()
            assert view["played"] == view["history"][-1]["move"]  # the bot's move as the history shows it
            snapshots.append(view["history"])
        assert view["outcome"] is None, "the game ended before the bots discarded face down"
        discards = [m for m in view["moves"] if m.startswith("discard ")]
        view = client.post(f"/api/games/{gid}/move", json={"move": rng.choice(discards or view["moves"])}).json()
        snapshots.append(view["history"])
    for entry in view["history"]:
        kind = entry["move"].split()[0]
        if entry["seat"] != "red" and kind in HIDDEN_CARD_MOVES:
            assert entry["move"] == kind, entry
    assert view["perspective"] == "red" and view["position"]["viewer"] == "red"

    view = play_to_the_end(client, view, rng)
    record = client.get(f"/api/games/{gid}/record").json()
    assert [h["move"] for h in view["history"]] == record["moves"]  # over: every card shown
    assert view["perspective"] is None
    full = replay(record, at=0)
    written = []
    for move in record["moves"]:
        written.append(full.record_of(move, "red"))
        full.play(move)
    hidden = 0
    for shown in snapshots:  # every history shown during the game: red's records of the moves so far
        assert [h["move"] for h in shown] == written[:len(shown)]
    for entry, move in zip(snapshots[-1], record["moves"], strict=False):
        if entry["seat"] != "red" and entry["move"] in ("reveal", "discard"):
            assert move.startswith(entry["move"] + " ")  # the full move names the card the person did not see
            hidden += 1
        elif entry["seat"] == "red":
            assert entry["move"].startswith(move)  # the person's own move in full (a take with its refill)
    assert hidden >= 3 + 3  # three setup reveals and three face-down discards at least


def test_in_a_hot_seat_game_each_person_sees_the_history_as_they_wrote_it(client):
    view = new_game(client, seats=("human", "human", "random", "random"))
    gid = view["id"]
    red_reveal = view["moves"][0]
    view = client.post(f"/api/games/{gid}/move", json={"move": red_reveal}).json()
    assert view["perspective"] == "green"
    assert [h["move"] for h in view["history"]] == ["reveal"]
    green_reveal = view["moves"][0]
    view = client.post(f"/api/games/{gid}/move", json={"move": green_reveal}).json()
    assert [h["move"] for h in view["history"]] == ["reveal", green_reveal]
    view = finish_bots(client, gid, view)
    assert view["perspective"] == "red"
    assert [h["move"] for h in view["history"][:4]] == [red_reveal, "reveal", "reveal", "reveal"]


def test_a_two_player_game_names_the_builders_color(client):
    view = new_game(client, seats=("human", "random"), players=2)
    assert view["position"]["colors"] == {"red": ["red", "blue"], "green": ["green", "yellow"]}
    view = play_to_the_end(client, view, random.Random(3))
    assert any(h["move"].startswith(("blue: ", "red: ")) for h in view["history"])


# -- boards ----------------------------------------------------------------------------------


def test_a_board_is_checked_and_normalised(client):
    checked = client.post("/api/boards/check", json=SMALL_BOARD).json()
    assert checked["islands"] == 5 and checked["links"] == 7 and checked["cards"] == 20
    assert [i["links"] for i in checked["board"]["islands"]] == [2, 3, 4, 3, 2]
    assert "<svg" in checked["svg"]


@pytest.mark.parametrize(("change", "words"), [
    (lambda b: b["islands"].append({"name": "ALFA"}), ("appears twice",)),
    (lambda b: b["islands"].append({"name": "ZETA"}), ("ZETA has no link",)),
    (lambda b: b.update(cards_per_island=9), ("cards_per_island",)),
    (lambda b: b["links"].append(["ALFA", "NOPE"]), ("unknown island",)),
    (lambda b: b["islands"][0].update(name="AL FA"), ("letters and digits",)),
])
def test_a_bad_board_is_refused_naming_what_is_wrong(client, change, words):
    board = json.loads(json.dumps(SMALL_BOARD))
    change(board)
    refused(client.post("/api/boards/check", json=board), 400, *words)


def test_a_game_on_an_uploaded_board_and_its_position_back(client):
    view = new_game(client, board=SMALL_BOARD, players=3, seats=("human", "random", "random"))
    assert view["position"]["board"] == "triangle.json"
    assert set(view["sizes"]) == {"ALFA", "BETA", "GAMA", "DELT", "EPSI"}
    view = play_to_the_end(client, view, random.Random(5))
    full = client.get(f"/api/games/{view['id']}/position").json()
    refused(client.post("/api/games", json={"position": full, "seats": ["human"] * 3}), 400, "triangle.json",
            "send the board")
    again = client.post("/api/games", json={"position": full, "board": SMALL_BOARD, "seats": ["human"] * 3})
    assert again.status_code == 201 and again.json()["outcome"] == view["outcome"]


def test_no_file_path_is_ever_read_for_a_request(client, tmp_path):
    board_file = tmp_path / "mine.json"
    board_file.write_text(json.dumps(SMALL_BOARD))
    refused(client.post("/api/games", json={"seats": ["human"] * 4, "board": str(board_file)}), 400,
            "not a built-in board")
    pos = Position.new(players=3, seed=1, board=load_board(str(board_file))).to_json()
    assert pos["board"] == str(board_file)
    refused(client.post("/api/games", json={"position": pos, "seats": ["human"] * 3}), 400, "not a built-in board")
    refused(client.get("/api/boards/..%2f..%2fetc%2fpasswd"), 404)
    refused(client.get("/static/../pyproject.toml"), 404)


def test_a_board_check_says_which_games_the_board_cannot_hold(client):
    assert client.post("/api/boards/check", json=SMALL_BOARD).json()["games"] == {"kanaloa": None, "kahuna": None}
    tiny = {**SMALL_BOARD, "islands": SMALL_BOARD["islands"][:2], "links": [["ALFA", "BETA"]]}
    games = client.post("/api/boards/check", json=tiny).json()["games"]
    assert games["kanaloa"] == "4 hands of 4 cards need more than the 8 cards of board triangle (R3)"
    assert games["kahuna"] == ("Kahuna deals 3 cards to each of 2 players and turns 3 face-up, 9 cards; the board "
                               "has 8 (R16.2)")


def test_builtin_boards_are_listed_and_served(client):
    info = client.get("/api/boards").json()
    assert "oro" in info["builtin"] and "random" in info["bots"]
    oro = client.get("/api/boards/oro").json()
    assert len(oro["islands"]) == 16 and len(oro["links"]) == 37
    refused(client.get("/api/boards/nope"), 404, "no such built-in board")


# -- the rule sets the page reads ---------------------------------------------------------------


def carries(page_rules: dict, rules) -> bool:
    """What the page is sent of a rule set holds all of its ``to_json()`` (and the rule ids of a few more
    events)."""
    own = rules.to_json()
    ids = own.pop("rules", {})
    return all(page_rules[k] == v for k, v in own.items()) and page_rules.get("rules", {}).items() >= ids.items()


def test_the_registry_is_listed_with_each_games_parameters_and_rule_sets(client):
    from kanaloa.rules.registry import game_types, load_game

    listing = client.get("/api/games").json()
    assert listing["default"] == "kanaloa" and [g["name"] for g in listing["games"]] == [g.name for g in game_types()]
    for entry in listing["games"]:  # the registry's own description, and the rule set with the defaults
        described = game_types()[listing["games"].index(entry)].to_json()
        assert {k: entry[k] for k in described} == described
        assert carries(entry["default"], load_game(entry["name"]))
        assert entry["default"]["seats"] == list(load_game(entry["name"]).seat_names)
    kanaloa, kahuna = (next(g for g in listing["games"] if g["name"] == name) for name in ("kanaloa", "kahuna"))
    assert kanaloa["table"] is None and kahuna["table"] is None  # the Table mode follows their hidden hands
    assert kanaloa["web"]["module"] == kahuna["web"]["module"] == "/static/js/cards.js"
    assert [p["name"] for p in kanaloa["parameters"]] == ["players", "preset", "gods", "board", "colors"]
    assert set(kanaloa["choices"]) == {"players", "preset", "gods"} and set(kahuna["choices"]) == {"players"}
    two = kanaloa["choices"]["players"]["2"]
    assert two["pairs"] and two["colors"] == {"red": ["red", "blue"], "green": ["green", "yellow"]}
    assert kanaloa["choices"]["players"]["3"]["players"] == ["red", "green", "blue"]
    assert kanaloa["default"]["deal"] == 4 and kanaloa["default"]["face_up_at_deal"] == 0  # R3: face-up after
    assert kanaloa["choices"]["preset"]["tabletop"]["bridges"] == 20 and kanaloa["default"]["bridges"] is None
    gods = kanaloa["choices"]["gods"]["true"]
    assert gods["tokens"] == ["KANE", "KANALOA", "KU", "PELE", "LONO"] and gods["joker"] == "KANALOA"
    assert gods["token_rounds"] == [2] and gods["rules"]["over_limit"] == "R14.9"  # R14.4, R14.9
    k = kahuna["default"]
    assert k["players"] == ["white", "black"] and k["deal"] == 3 and k["face_up_at_deal"] == 3  # R16.2
    assert k["may_skip_draw"] and k["removal_pays"] and not k["has_swap"] and not k["has_setup"]
    assert k["rules"]["deal"] == "R16.2" and k["rules"]["no bridges"] == "R16.8" and k["bridges"] == 25
    assert list(kahuna["choices"]["players"]) == ["2"]


def test_every_view_carries_the_rule_set_of_its_game(client, records):
    from kanaloa.rules.registry import load_game

    for body, rules in [({}, load_game("kanaloa")), ({"players": 2, "seats": ["human", "random"]},
                                                       load_game("kanaloa", players=2)),
                        ({"players": 3, "gods": True, "preset": "tabletop", "seats": ["human"] * 3},
                         load_game("kanaloa", players=3, gods=True, preset="tabletop")),
                        ({"ruleset": "kahuna", "seats": ["human", "random"]}, load_game("kahuna"))]:
        view = new_game(client, **body)
        assert carries(view["rules"], rules), body
        assert view["ruleset"] == rules.game
        assert client.get(f"/api/games/{view['id']}").json()["rules"] == view["rules"]
    table = client.post("/api/tables", json={"ruleset": "kahuna", "hand": ["ALOA", "BARI", "COCO"],
                                             "face_up": ["IFFI", "JOJO", "KAHU"]}).json()
    assert carries(table["rules"], load_game("kahuna"))
    seen = Position.new(players=3, seed=2).as_viewer("blue").to_json()
    uploaded = client.post("/api/tables", json={"position": seen})
    assert uploaded.json()["rules"]["players"] == ["red", "green", "blue"]
    replayed = client.post("/api/replays", json={"records": records, "game": 0}).json()
    assert carries(replayed["rules"], load_game("kanaloa", players=3))


def test_the_deal_a_table_is_set_up_from_is_the_viewers_view_of_the_real_deal():
    """``seen_deal``, for every game and rule set: the viewer's hand (and the cards face-up at the deal, the
    tokens) of a real deal give the document of that deal as the viewer sees it."""
    from kanaloa.position.table import seen_deal
    from kanaloa.rules.registry import load_game

    for game, params in [("kanaloa", {}), ("kanaloa", {"players": 2}), ("kanaloa", {"players": 3, "gods": True}),
                         ("kanaloa", {"preset": "tabletop"}), ("kahuna", {})]:
        rs = load_game(game, **params)
        full = Position.new(players=rs.players, seed=5, preset=rs.preset, game=rs.game, gods=rs.gods)
        dealt = full.to_json()
        for viewer in rs.seat_names:
            doc = seen_deal(rs, viewer, dealt["hands"][viewer]["cards"],
                            face_up=dealt["face_up"] if rs.face_up_at_deal else None,
                            tokens=dealt["gods"]["on_islands"] if rs.tokens else None)
            assert Position.from_json(doc).to_json() == full.as_viewer(viewer).to_json(), (game, params, viewer)


def test_the_page_names_no_rule_and_no_game():
    """The page reads every rule id, size and seat from the rule sets the server sends: its files name none."""
    from importlib import resources

    static = resources.files("kanaloa.interfaces.web").joinpath("static")
    files = [static.joinpath("index.html"), *static.joinpath("js").iterdir()]
    for f in files:
        text = f.read_text("utf-8")
        rule_ids = re.findall(r"\bR1?[0-9](?:\.[0-9]+)?\b", text)
        assert not rule_ids, (f.name, rule_ids)
        assert '"kahuna"' not in text and '"kanaloa"' not in text and "players === 2" not in text, f.name


# -- Table -----------------------------------------------------------------------------------


def test_a_table_followed_from_the_deal_with_others_face_down_discard(client):
    r = client.post("/api/tables", json={"players": 3, "viewer": "green", "hand": ["ALOA", "ORO", "DALI", "DALI"]})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]

    def tell(move: str) -> dict:
        answer = client.post(f"/api/tables/{tid}/move", json={"move": move})
        assert answer.status_code == 200, answer.text
        return answer.json()

    tell("red: reveal")
    assert tell("reveal ORO")["moves"] == []  # blue to move: its moves cannot be listed
    view = tell("blue: reveal")
    assert view["waiting"] and "faceup" in view["waiting"]
    view = tell("faceup KULU ORO MOKU ELOI")
    assert view["position"]["face_up"] == ["KULU", "ORO", "MOKU", "ELOI"] and view["to_move"] == "red"
    view = tell("red: ALOA-BAFI/BAFI")
    view = tell("red: take MOKU refill RASI")
    assert view["position"]["hands"]["red"]["public"] == ["MOKU"]
    hidden_before = view["position"]["discard"]["hidden"]
    view = tell("discard DALI") if "discard DALI" in view["moves"] else view
    view = tell("draw PAHU")
    assert view["to_move"] == "blue"
    view = tell("blue: discard")  # another player's face-down discard
    assert view["position"]["discard"]["hidden"] == hidden_before + 2
    view = tell("blue: draw")
    hint = client.post(f"/api/tables/{tid}/hint", json={"iterations": 100})
    refused(hint, 400, "red is to move")
    assert [h["move"] for h in view["history"]][-2:] == ["blue: discard", "blue: draw"]
    assert client.post(f"/api/tables/{tid}/undo").json()["to_move"] == "blue"
    seen = client.get(f"/api/tables/{tid}/position").json()
    assert seen["viewer"] == "green" and seen["deck"] == {"count": view["position"]["deck"]["count"] + 1}


def test_a_table_refuses_what_the_viewer_cannot_have_seen(client):
    tid = client.post("/api/tables", json={"players": 4, "hand": ["ALOA", "ALOA", "ALOA", "DALI"]}).json()["id"]
    refused(client.post(f"/api/tables/{tid}/move", json={"move": "reveal ORO"}), 400, "reveal ORO")
    refused(client.post(f"/api/tables/{tid}/move", json={"move": "green: reveal"}), 400, "red's turn")
    assert client.get(f"/api/tables/{tid}").json()["history"] == []


def test_a_table_starts_from_an_uploaded_viewer_position_and_gives_hints(client):
    from kanaloa.examples import example_text

    view = client.post("/api/tables", json={"position": example_text("midgame")}).json()
    assert view["viewer"] == "red" and view["moves"]
    hint = client.post(f"/api/tables/{view['id']}/hint", json={"iterations": 300}).json()
    assert hint["move"] in view["moves"]
    full = Position.new(seed=1).to_json()
    refused(client.post("/api/tables", json={"position": full}), 400, "viewer")


@pytest.mark.parametrize(("body", "words"), [
    ({"hand": ["ALOA", "ORO", "DALI"]}, ("hand",)),
    ({"hand": ["ALOA", "ORO", "DALI", "NOPE"]}, ("NOPE",)),
    ({"hand": "ALOA"}, ("hand",)),
    ({"hand": ["ALOA", "ORO", "DALI", "DALI"], "viewer": "purple"}, ("viewer",)),
    ({"hand": ["ALOA", "ORO", "DALI", "DALI"], "players": 5}, ("players",)),
    ({"hand": ["ALOA", "ORO", "DALI"]}, ("hand: 3 card(s) given", "the 4 cards you were dealt (R3)")),
    ({"hand": "ALOA"}, ("hand 'ALOA'", "must be the list of the 4 cards you were dealt (R3)")),
    ({"hand": ["ALOA", "ORO", "DALI", "NOPE"]}, ("hand: 'NOPE' is not an island of board oro",)),
    ({"hand": ["ALOA", "ALOA", "ALOA", "ALOA"]}, ("hand: 4 ALOA cards in your hand; board oro has 3 of each island",)),
    ({"hand": ["ALOA", "ORO", "DALI", "DALI"], "face_up": ["ORO"]},
     ("face_up: no card is face-up at the deal of Kanaloa", "after the setup (R3)")),
    ({"hand": ["ALOA", "ORO", "DALI", "DALI"], "preset": "nope"}, ("preset 'nope': unknown", "(R13)")),
    ({"hand": ["ALOA", "ORO", "DALI", "DALI"], "ruleset": "chess"}, ("ruleset 'chess': unknown", "kanaloa, kahuna")),
    ({"hand": ["ALOA", "ORO", "DALI", "DALI"], "players": 3, "colors": "red+blue,green+yellow"},
     ("colors", "only a 2-player game gives each player two colors (R15.1)")),
    ({"hand": ["ALOA", "ORO", "DALI", "DALI"], "players": 3, "colors": "red,green"}, ("colors", "this game has 3")),
])
def test_a_bad_table_setup_is_refused(client, body, words):
    refused(client.post("/api/tables", json=body), 400, *words)


# -- Replay ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def records() -> str:
    t = make_tournament(["random", "greedy", "random"], 3, 11)
    return "\n".join(play_game(t, g).dumps() for g in range(3)) + "\n"


def test_a_replay_steps_through_every_position(client, records):
    view = client.post("/api/replays", json={"records": records, "game": 1}).json()
    rec = json.loads(records.splitlines()[1])
    assert view["length"] == len(rec["moves"]) and view["at"] == 0 and view["position"]["round"] == 0
    middle = client.get(f"/api/replays/{view['id']}", params={"at": 10}).json()
    assert middle["record"]["moves"][:10] == rec["moves"][:10] and middle["at"] == 10
    refused(client.get(f"/api/replays/{view['id']}", params={"at": view["length"] + 1}), 400, "at")
    refused(client.get(f"/api/replays/{view['id']}", params={"at": "x"}), 400, "at")
    refused(client.post("/api/replays", json={"records": records}), 400, "3 games", "choose one")
    refused(client.post("/api/replays", json={"records": records, "game": 9}), 400, "no game 9")
    refused(client.post("/api/replays", json={"records": "not json"}), 400, "record line 1")


# -- Kahuna (R16) -----------------------------------------------------------------------------

KAHUNA = load_board("kahuna")


def kahuna_game(client, seats=("human", "random"), **extra) -> dict:
    r = client.post("/api/games", json={"ruleset": "kahuna", "seats": list(seats), "seed": 7, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def kahuna_position(to_move: str, hands: dict[str, list[str]], bridges: dict[str, str], **fields) -> dict:
    """A full Kahuna position: the given hands and bridges; the deck holds every other card but the face-up ones
    and the discards (``face_up``, ``discard``), and the interim scores are 0."""
    doc = {"format": "kanaloa-position/1", "game": "kahuna", "board": "kahuna", "players": ["white", "black"],
           "to_move": to_move, "round": 1, "bridges": bridges, "hands": {p: {"cards": c} for p, c in hands.items()},
           "face_up": [], "discard": {"open": [], "hidden": 0}, "scores": {"white": 0, "black": 0},
           "turn": {"played": 0, "discarded": False, "skipped_draw": False}, "seed": 1, **fields}
    left = {name: KAHUNA.cards_per_island for name in KAHUNA.islands}
    for card in [*doc["face_up"], *doc["discard"]["open"], *(c for cards in hands.values() for c in cards)]:
        left[card] -= 1
    doc.setdefault("deck", [name for name in KAHUNA.islands for _ in range(left[name])])
    return doc


def test_a_kahuna_game_is_dealt_for_white_and_black(client):
    view = kahuna_game(client)
    pos = view["position"]
    assert view["ruleset"] == "kahuna" and pos["game"] == "kahuna" and pos["board"] == "kahuna"
    assert pos["players"] == ["white", "black"] and pos["round"] == 1 and view["perspective"] == "white"
    assert len(pos["face_up"]) == 3 and len(pos["hands"]["white"]["cards"]) == 3
    assert pos["hands"]["black"] == {"count": 3, "public": []}  # the bot's hand stays hidden
    assert view["bridges_left"] == {"white": 25, "black": 25} and view["scores"] == {"white": 0, "black": 0}
    assert "end" in view["moves"] and not any(m.startswith(("reveal", "pass")) for m in view["moves"])
    assert view["moves"] == Position.from_json(pos).move_strings()
    again = client.post("/api/games", json={"ruleset": "kahuna", "seats": ["human", "random"], "seed": 7}).json()
    assert again["position"] == pos  # the same seed deals the same game
    assert new_game(client)["ruleset"] == "kanaloa"


def test_a_kahuna_removal_pays_two_cards_naming_the_links_ends(client):
    doc = kahuna_position("white", {"white": ["ALOA", "BARI", "COCO"], "black": ["ELAI", "FAAA", "GOLA"]},
                          {"ALOA-BARI": "black", "ELAI-HUNA": "black", "COCO-GOLA": "white"},
                          face_up=["IFFI", "JOJO", "KAHU"])
    view = client.post("/api/games", json={"position": doc, "seats": ["human", "human"]}).json()
    gid = view["id"]
    assert "remove ALOA-BARI/ALOA+BARI" in view["moves"] and "remove ALOA-BARI" not in view["moves"]
    assert not any(m.startswith("remove ELAI-HUNA") for m in view["moves"])  # no card of ELAI or HUNA
    for bad, words in [("remove ALOA-BARI", ("pays",)), ("remove ALOA-BARI/ALOA", ()),
                       ("remove ALOA-BARI/COCO+ALOA", ()), ("remove COCO-GOLA/COCO+COCO", ()),
                       ("remove ELAI-HUNA/ALOA+BARI", ())]:
        refused(client.post(f"/api/games/{gid}/move", json={"move": bad}), 400, bad.split("/")[0], *words)
    view = client.post(f"/api/games/{gid}/move", json={"move": "remove aloa-bari/bari+aloa"}).json()
    pos = view["position"]
    assert "ALOA-BARI" not in pos["bridges"] and pos["hands"]["white"]["cards"] == ["COCO"]
    assert sorted(pos["discard"]["open"]) == ["ALOA", "BARI"] and view["to_move"] == "white"
    assert view["history"] == [{"seat": "white", "move": "remove ALOA-BARI/ALOA+BARI",  # written as the notation
                                "words": "White removes the black bridge between Aloa and Bari, paying Aloa and Bari."}]
    assert view["bridges_left"] == {"white": 24, "black": 24}
    assert "ALOA-BARI/COCO" not in view["moves"] and "take IFFI" in view["moves"]
    undone = client.post(f"/api/games/{gid}/undo").json()
    assert undone["position"]["bridges"]["ALOA-BARI"] == "black"


def test_a_skipped_draw_is_end_and_the_next_player_must_draw(client):
    view = kahuna_game(client, seats=("human", "human"))
    gid = view["id"]
    view = client.post(f"/api/games/{gid}/move", json={"move": "end"}).json()
    assert view["to_move"] == "black" and view["perspective"] == "black"
    assert view["position"]["turn"]["skipped_draw"] is True and "end" not in view["moves"]
    assert len(view["position"]["hands"]["white"]["public"]) == 0
    refused(client.post(f"/api/games/{gid}/move", json={"move": "end"}), 400, "end", "skipped")
    view = client.post(f"/api/games/{gid}/move", json={"move": "draw"}).json()
    assert view["to_move"] == "white" and "end" in view["moves"]
    refused(client.post(f"/api/games/{gid}/move", json={"move": "pass"}), 400, "pass")


def test_a_full_kahuna_hand_discards_face_down_and_then_draws(client):
    doc = kahuna_position("white", {"white": ["ALOA", "ALOA", "DUDA", "DUDA", "HUNA"], "black": ["ELAI", "FAAA"]},
                          {"ALOA-BARI": "black", "ELAI-HUNA": "white"}, face_up=["IFFI", "JOJO", "KAHU"])
    view = client.post("/api/games", json={"position": doc, "seats": ["human", "random"]}).json()
    gid = view["id"]
    assert "discard ALOA" in view["moves"] and not any(m.startswith(("take", "draw")) for m in view["moves"])
    view = client.post(f"/api/games/{gid}/move", json={"move": "discard DUDA"}).json()
    assert view["position"]["turn"]["discarded"] is True and "end" not in view["moves"]
    assert not any("/" in m for m in view["moves"])  # no build after a discard
    view = client.post(f"/api/games/{gid}/move", json={"move": "take JOJO"}).json()
    assert view["to_move"] == "black" and view["bot_to_move"]
    assert view["position"]["discard"]["hidden"] == 1


def test_a_whole_kahuna_game_against_a_bot_and_its_record(client):
    view = kahuna_game(client, seats=("human", "greedy"))
    rng = random.Random(2)
    gid = view["id"]
    for _ in range(3000):
        view = finish_bots(client, gid, view)
        if view["outcome"]:
            break
        moves = view["moves"]
        removals = [m for m in moves if m.startswith("remove ")]
        choice = rng.choice(removals) if removals else rng.choice(moves)
        r = client.post(f"/api/games/{gid}/move", json={"move": choice})
        assert r.status_code == 200, r.text
        view = r.json()
    outcome = view["outcome"]
    assert outcome and outcome["reason"] in ("points", "no bridges") and view["moves"] == []
    assert view["position"]["round"] == "over" and view["position"]["viewer"] is None
    made = [h["move"] for h in view["history"]]
    assert any(m.startswith("remove ") and "+" in m for m in made)
    assert "end" in made
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["ruleset"] == "kahuna" and record["colors"] == ["white", "black"]
    assert record["lineup"] == ["human", "greedy"] and record["moves"] == made
    assert record["winner"] == (None if outcome["winner"] is None else ["white", "black"].index(outcome["winner"]))
    replayed = client.post("/api/replays", json={"records": json.dumps(record)}).json()
    assert replayed["record"]["ruleset"] == "kahuna" and replayed["position"]["round"] == 1
    last = client.get(f"/api/replays/{replayed['id']}", params={"at": replayed["length"]}).json()
    assert last["position"] == client.get(f"/api/games/{gid}/position").json()
    again = client.post("/api/games", json={"record": json.dumps(record), "seats": ["human", "human"]}).json()
    assert again["outcome"] == outcome and again["ruleset"] == "kahuna"


def test_a_kahuna_game_can_end_without_a_winner(client):
    hands = {"white": ["ALOA", "COCO", "DUDA"], "black": ["ELAI", "FAAA", "GOLA", "HUNA"]}
    left = kahuna_position("white", hands, {})["deck"]
    doc = kahuna_position("black", hands, {"ALOA-BARI": "white", "ELAI-HUNA": "black"}, round="final",
                          deck=[], discard={"open": left, "hidden": 0}, final_round={"done": ["white"]})
    view = client.post("/api/games", json={"position": doc, "seats": ["random", "human"]}).json()
    assert view["moves"][-1] == "end" and view["position"]["round"] == "final"
    view = client.post(f"/api/games/{view['id']}/move", json={"move": "end"}).json()
    assert view["outcome"] == {"ranking": ["white", "black"], "winner": None, "reason": "points"}
    assert view["to_move"] is None and view["moves"] == []


def test_a_kahuna_player_without_bridges_after_the_first_scoring_loses_at_once(client):
    doc = kahuna_position("black", {"white": ["COCO", "DUDA"], "black": ["ALOA", "BARI", "GOLA"]},
                          {"ALOA-BARI": "white", "ELAI-HUNA": "black"}, round=2, face_up=["IFFI", "JOJO", "KAHU"],
                          scores={"white": 1, "black": 0})
    view = client.post("/api/games", json={"position": doc, "seats": ["greedy", "human"]}).json()
    view = client.post(f"/api/games/{view['id']}/move", json={"move": "remove ALOA-BARI/ALOA+BARI"}).json()
    assert view["outcome"] == {"ranking": ["black", "white"], "winner": "black", "reason": "no bridges"}


def test_kahuna_hints_come_from_what_the_person_knows(client):
    view = kahuna_game(client, seats=("human", "random"))
    hint = client.post(f"/api/games/{view['id']}/hint", json={"iterations": 100}).json()
    assert hint["move"] in view["moves"] and hint["plan"][0] == hint["move"]
    assert "<svg" in hint["svg"]


def test_a_kahuna_position_downloads_and_uploads(client):
    view = kahuna_game(client, seats=("human", "random"))
    gid = view["id"]
    finish_bots(client, gid, client.post(f"/api/games/{gid}/move", json={"move": "draw"}).json())
    full = client.get(f"/api/games/{gid}/position").json()
    assert full["game"] == "kahuna" and full["viewer"] is None and len(full["deck"]) == 24 - 9 - 2
    upload = client.post("/api/games", json={"position": json.dumps(full), "seats": ["random", "human"]}).json()
    assert upload["ruleset"] == "kahuna" and upload["position"]["hands"]["white"] == {"count": 4, "public": []}
    refused(client.post("/api/games", json={"position": full, "seats": ["human"] * 4}), 400, "4 given for 2 players")


def test_kahuna_on_a_board_of_the_editor(client):
    view = kahuna_game(client, board=SMALL_BOARD, seats=("human", "random"))
    assert view["position"]["board"] == "triangle.json" and len(view["position"]["face_up"]) == 3
    assert view["position"]["deck"]["count"] == 20 - 9
    view = client.post("/api/games", json={"ruleset": "kahuna", "seats": ["human", "random"], "board": "oro"}).json()
    assert view["position"]["board"] == "oro"
    tiny = {**SMALL_BOARD, "islands": SMALL_BOARD["islands"][:2], "links": [["ALFA", "BETA"]]}
    refused(client.post("/api/games", json={"ruleset": "kahuna", "seats": ["human", "random"], "board": tiny}), 400,
            "Kahuna")


@pytest.mark.parametrize(("body", "words"), [
    ({"ruleset": "chess"}, ("ruleset", "kanaloa", "kahuna")),
    ({"ruleset": ["kahuna"]}, ("ruleset",)),
    ({"ruleset": "kahuna", "players": 4, "seats": ["human"] * 4}, ("players", "2 players")),
    ({"ruleset": "kahuna", "preset": "tabletop"}, ("preset", "Kahuna")),
    ({"ruleset": "kahuna", "colors": "red+blue,green+yellow"}, ("colors",)),
    ({"ruleset": "kahuna", "seats": ["human", "random", "random"]}, ("seats", "2 players")),
    ({"ruleset": "kahuna", "seats": ["human", "alphazero"]}, ("alphazero",)),
    ({"ruleset": "kahuna", "board": "nope"}, ("board 'nope'", "not a built-in board")),
    ({"ruleset": "kahuna", "colors": "black,red"}, ("colors: 'red' is not a color of Kahuna (white, black)",)),
])
def test_a_bad_kahuna_game_is_refused(client, body, words):
    refused(client.post("/api/games", json={"seats": ["human", "random"], **body}), 400, *words)


def test_kahuna_moves_in_kanaloa_notation_are_refused(client):
    view = kahuna_game(client, seats=("human", "human"))
    gid = view["id"]
    for bad in ["reveal ALOA", "pass", "faceup ALOA BARI COCO", "red: ALOA-BARI/ALOA", "discard ALOA"]:
        refused(client.post(f"/api/games/{gid}/move", json={"move": bad}), 400)
    assert client.get(f"/api/games/{gid}").json()["position"] == view["position"]


def test_a_kahuna_table_from_the_hand_and_the_face_up_cards(client):
    r = client.post("/api/tables", json={"ruleset": "kahuna", "viewer": "black", "hand": ["aloa", "ALOA", "BARI"],
                                         "face_up": ["COCO", "DUDA", "ELAI"]})
    assert r.status_code == 201, r.text
    view = r.json()
    tid = view["id"]
    pos = view["position"]
    assert pos["viewer"] == "black" and pos["hands"]["black"]["cards"] == ["ALOA", "ALOA", "BARI"]
    assert pos["face_up"] == ["COCO", "DUDA", "ELAI"] and pos["deck"] == {"count": 15} and pos["round"] == 1
    assert view["moves"] == [] and view["to_move"] == "white"

    def tell(move: str) -> dict:
        answer = client.post(f"/api/tables/{tid}/move", json={"move": move})
        assert answer.status_code == 200, answer.text
        return answer.json()

    tell("white: ALOA-BARI/BARI")  # the other player's place: its card is seen
    view = tell("white: take COCO refill FAAA")
    assert "remove ALOA-BARI/ALOA+BARI" in view["moves"] and "end" in view["moves"]
    view = tell("remove ALOA-BARI/ALOA+BARI")  # the viewer removes white's bridge
    assert view["position"]["bridges"] == {}
    tell("ALOA-DUDA/ALOA")
    view = tell("end")  # the viewer skips the draw
    assert view["to_move"] == "white" and view["position"]["turn"]["skipped_draw"] is True
    refused(client.post(f"/api/tables/{tid}/move", json={"move": "white: end"}), 400, "skipped")
    view = tell("white: draw")
    assert view["position"]["hands"]["white"]["count"] == 4
    assert [h["move"] for h in view["history"]][-2:] == ["end", "white: draw"]
    hint = client.post(f"/api/tables/{tid}/hint", json={"iterations": 100}).json()
    assert hint["move"] in view["moves"]
    assert client.post(f"/api/tables/{tid}/undo").json()["to_move"] == "white"


def test_a_kahuna_table_told_of_the_others_face_down_discards_of_a_full_hand(client):
    tid = client.post("/api/tables", json={"ruleset": "kahuna", "viewer": "black", "hand": ["ALOA", "ALOA", "BARI"],
                                           "face_up": ["COCO", "DUDA", "ELAI"]}).json()["id"]

    def tell(move: str) -> dict:
        answer = client.post(f"/api/tables/{tid}/move", json={"move": move})
        assert answer.status_code == 200, answer.text
        return answer.json()

    for move in ["white: draw", "draw KAHU", "white: draw", "draw LALE"]:
        view = tell(move)
    assert view["position"]["hands"]["white"]["count"] == 5
    tell("white: discard")
    view = tell("white: discard")
    assert view["position"]["discard"]["hidden"] == 2 and view["position"]["hands"]["white"]["count"] == 3
    refused(client.post(f"/api/tables/{tid}/move", json={"move": "white: end"}), 400, "discarded", "draw")
    refused(client.post(f"/api/tables/{tid}/move", json={"move": "white: ALOA-DUDA/DUDA"}), 400)
    view = tell("white: take COCO refill FAAA")
    assert view["to_move"] == "black" and view["position"]["hands"]["white"] == {"count": 4, "public": ["COCO"]}


def test_a_kahuna_table_followed_through_a_whole_game_with_its_reshuffles(client):
    from viewer_helpers import record

    full = Position.new(game="kahuna", seed=11)
    dealt = full.to_json()
    view = client.post("/api/tables", json={"ruleset": "kahuna", "viewer": "black", "face_up": dealt["face_up"],
                                            "hand": dealt["hands"]["black"]["cards"]}).json()
    tid = view["id"]
    rng = random.Random(2)
    reshuffles = 0
    while not full.is_over:
        if view["waiting"]:  # after an interim scoring: the cards the new deck turned face-up (R16.6)
            turned = " ".join(full.to_json()["face_up"])
            told = client.post(f"/api/tables/{tid}/move", json={"move": f"faceup {turned}"})
            assert told.status_code == 200, told.text
            view = told.json()
            assert view["waiting"] is None and len(view["position"]["face_up"]) == 3
            reshuffles += 1
        action = rng.choice(full.state.legal_actions())
        move = record(full, action, "black")
        if full.to_move == "black":
            move = move.split(": ", 1)[1]
            assert move.split(" refill")[0] in view["moves"] or move.startswith("draw ")
        full.push(action)
        answer = client.post(f"/api/tables/{tid}/move", json={"move": move})
        assert answer.status_code == 200, answer.text
        view = answer.json()
    assert reshuffles == 2 and view["outcome"] == full.outcome
    assert view["position"]["bridges"] == full.to_json()["bridges"]


def test_kahuna_records_of_simulate_replay_to_their_early_end(client):
    t = make_tournament(["random", "random"], 400, 1, game="kahuna")
    early = next(rec for rec in (play_game(t, g) for g in range(400)) if rec.reason == "no bridges")
    text = early.dumps() + "\n"
    view = client.post("/api/replays", json={"records": text}).json()
    assert view["ruleset"] == "kahuna" and view["record"]["ruleset"] == "kahuna"
    assert view["record"]["winner"] == early.winner and view["record"]["reason"] == "no bridges"
    assert len(view["position"]["face_up"]) == 3 and view["length"] == len(early.moves)
    last = client.get(f"/api/replays/{view['id']}", params={"at": view["length"]}).json()
    assert last["outcome"]["reason"] == "no bridges"
    assert last["outcome"]["winner"] == ["white", "black"][early.winner]
    assert client.get(f"/api/replays/{view['id']}", params={"at": view["length"] - 1}).json()["outcome"] is None


@pytest.mark.parametrize(("body", "words"), [
    ({"hand": ["ALOA", "BARI"]}, ("hand", "3")),
    ({"hand": ["ALOA", "BARI", "COCO", "DUDA"]}, ("hand", "3")),
    ({"face_up": ["IFFI", "JOJO"]}, ("face_up", "3")),
    ({"face_up": None}, ("face_up",)),
    ({"hand": ["ALOA", "BARI", "NOPE"]}, ("NOPE",)),
    ({"viewer": "red"}, ("viewer", "white", "black")),
    ({"players": 3}, ("players", "2 players")),
    ({"preset": "tabletop"}, ("preset",)),
    ({"colors": "red+blue,green+yellow"}, ("colors",)),
    ({"hand": ["ALOA", "ALOA", "BARI"], "face_up": ["ALOA", "JOJO", "KAHU"]}, ("ALOA",)),
])
def test_a_bad_kahuna_table_setup_is_refused(client, body, words):
    setup = {"ruleset": "kahuna", "hand": ["ALOA", "BARI", "COCO"], "face_up": ["IFFI", "JOJO", "KAHU"], **body}
    refused(client.post("/api/tables", json=setup), 400, *words)


# -- what the server promises ----------------------------------------------------------------


def test_bad_moves_lose_nothing_of_the_game(client):
    view = new_game(client)
    gid = view["id"]
    for bad in ["", "ALOA-ZZZZ/ALOA", "take", {"move": 1}, None, "reveal " + "X" * 5000]:
        refused(client.post(f"/api/games/{gid}/move", json={"move": bad}), 400)
    refused(client.post(f"/api/games/{gid}/move", content=b"{not json"), 400, "not valid JSON")
    refused(client.post(f"/api/games/{gid}/move", content=b"[1, 2]"), 400, "JSON object")
    refused(client.post(f"/api/games/{gid}/move", content=b"\xff\xfe"), 400, "UTF-8")
    assert client.get(f"/api/games/{gid}").json()["position"] == view["position"]


def posts(client, records) -> list[tuple[str, dict, str]]:
    """Every POST endpoint that reads a JSON object it defines: its path, a body it takes, and the start of what
    the refusal of another key says it takes."""
    game = new_game(client, seats=("human",) * 4)
    table = client.post("/api/tables", json={"hand": ["ALOA", "ORO", "DALI", "DALI"]}).json()
    full = client.get(f"/api/games/{game['id']}/position").text
    seen = client.get(f"/api/tables/{table['id']}/position").text
    return [
        ("/api/games", {"seats": ["human"] * 4, "seed": 7}, "a deal of Kanaloa takes ruleset, seats, seed, players"),
        ("/api/games", {"ruleset": "kahuna", "seats": ["human"] * 2}, "a deal of Kahuna takes ruleset, seats, seed"),
        ("/api/games", {"position": full, "seats": ["human"] * 4}, "a new game from a position takes position, "
                                                                    "seats, board"),
        ("/api/games", {"record": records, "game": 0, "seats": ["human"] * 3}, "a new game from a record takes "
                                                                               "record, game, seats, board"),
        ("/api/tables", {"hand": ["ALOA", "ORO", "DALI", "DALI"]}, "a table of Kanaloa takes ruleset, viewer, hand"),
        ("/api/tables", {"position": seen}, "a table from a viewer position takes position, board"),
        ("/api/positions", {"seed": 3}, "an editor's deal of Kanaloa takes ruleset, seed, players"),
        ("/api/positions/check", {"position": full}, "a position check takes position, board"),
        ("/api/replays", {"records": records, "game": 0}, "a replay takes records, game, board"),
        (f"/api/games/{game['id']}/move", {"move": game["moves"][0]}, "a move takes move, version"),
        (f"/api/games/{game['id']}/hint", {"iterations": 50}, "a hint takes iterations, seed"),
        (f"/api/games/{game['id']}/undo", {}, "an undo takes version"),
        (f"/api/games/{game['id']}/bot", {}, "a bot move takes version"),
        (f"/api/tables/{table['id']}/hint", {"iterations": 50}, "a hint takes iterations, seed"),
        (f"/api/tables/{table['id']}/move", {"move": table["moves"][0]}, "a move takes move, version"),
        (f"/api/tables/{table['id']}/undo", {}, "an undo takes version"),
        (f"/api/tables/{table['id']}/redo", {}, "a redo takes version"),
        (f"/api/saved/{table['id']}/rename", {"name": "x"}, "a rename takes name"),
    ]


def test_a_key_a_request_does_not_take_is_refused_naming_it_and_the_keys_it_takes(client, records):
    """No key of a body is silently ignored: a misspelt key would otherwise leave its field at the default."""
    for path, body, takes in posts(client, records):
        for key in ("bogus", "Seed", "iteration"):
            refused(client.post(path, json={**body, key: 1}), 400, f"request body: unknown key {key!r}", takes)
    # the keys of a deal are the game's own parameters: Kahuna's preset and gods are refused with the rule's reason
    refused(client.post("/api/games", json={"seats": ["human"] * 4, "tiles": "x"}), 400, "unknown key 'tiles'")
    refused(client.post("/api/games", json={"ruleset": "kahuna", "seats": ["human"] * 2, "gods": True}), 400,
            "gods", "R16")


def test_the_bodies_that_are_taken_are_still_taken(client, records):
    """The bodies of ``posts`` with no other key are answered (the refusals above are of the extra key alone)."""
    for path, body, _ in posts(client, records):
        if path.endswith("/bot"):
            continue  # nobody's bot is to move in these games
        r = client.post(path, json=body)
        assert r.status_code in (200, 201), (path, r.text)


@pytest.mark.parametrize(("path", "body", "message"), [
    ("/api/games", {"seats": ["human"] * 4, "players": None}, "players: must be 2, 3 or 4, not null"),
    ("/api/games", {"seats": ["human"] * 2, "players": None, "ruleset": "kahuna"}, "players: must be 2, not null"),
    ("/api/games", {"seats": ["human"] * 4, "seed": None}, "seed: must be a whole number from 0 to 2**64-1, not null"),
    ("/api/games", {"seats": None}, "seats: must be a list of 'human', levels (easy, medium, strong) or bot specs, "
                                    "one per player, not null"),
    ("/api/games", {"seed": 3}, "seats: missing; give a list of 'human', levels (easy, medium, strong) or bot specs, "
                                "one per player"),
    ("/api/games", {"seats": ["human"] * 4, "ruleset": None}, "ruleset: must be one of kanaloa, kahuna"),
    ("/api/games", {"seats": ["human"] * 4, "board": None}, "board: must be a built-in board's name or a board "
                                                             "file's content (a JSON object), not null"),
    ("/api/games", {"seats": ["human"] * 4, "preset": None}, "preset: must be yucata or tabletop, not null"),
    ("/api/games", {"seats": ["human"] * 4, "gods": None}, "gods: must be true or false, not null"),
    ("/api/games", {"seats": ["human"] * 4, "colors": None}, "colors: must be "),
    ("/api/games", {"position": None, "seats": ["human"] * 4}, "position: must be a position document"),
    ("/api/games", {"record": None, "seats": ["human"] * 4}, "record: must be the text of a 'kanaloa simulate"),
    ("/api/tables", {"hand": None}, "hand: must be a list of the cards you were dealt, not null"),
    ("/api/tables", {"hand": ["ALOA", "ORO", "DALI", "DALI"], "viewer": None}, "viewer: must be one of the game's "
                                                                                 "players, not null"),
    ("/api/tables", {"hand": ["ALOA", "ORO", "DALI", "DALI"], "tokens": None}, "tokens: must be"),
    ("/api/positions", {"seed": None}, "seed: must be a whole number from 0 to 2**64-1, not null"),
    ("/api/positions/check", {"position": None}, "position: must be a position document"),
    ("/api/replays", {"records": None}, "records: must be the text of a 'kanaloa simulate --out' file, not null"),
    ("/api/replays", {"records": "", "game": None}, "game: must be a whole number of 0 or more"),
])
def test_a_null_is_no_value_and_is_refused_naming_the_field(client, path, body, message):
    """A key left out has its default (docs/web.md), or is missing when it has none (``seats``); a null is
    refused, not taken for the default."""
    refused(client.post(path, json=body), 400, message)


def test_a_null_move_or_hint_budget_is_refused_naming_the_field(client):
    game = new_game(client, seats=("human",) * 4)
    for path, body, message in [("move", {"move": None}, "move: must be a move in notation, not null"),
                                ("hint", {"iterations": None}, "iterations: must be a whole number from 1 to 100000, "
                                                               "not null"),
                                ("hint", {"seed": None}, "seed: must be a whole number from 0 to 2**64-1, not null")]:
        refused(client.post(f"/api/games/{game['id']}/{path}", json=body), 400, message)
    assert client.get(f"/api/games/{game['id']}").json()["history"] == []


def test_a_key_named_twice_anywhere_in_a_body_is_refused(client):
    """The body is read as the command line reads a file: the standard reader would keep the last silently."""
    twice = "appears twice in one object; a request says each thing once"
    refused(client.post("/api/games", content=b'{"seats": ["human", "human"], "seats": ["human"], "seed": 7}'), 400,
            "request body: the key 'seats'", twice)
    board = json.dumps(SMALL_BOARD)[:-1] + ', "cards_per_island": 5}'
    refused(client.post("/api/boards/check", content=board.encode()), 400, "'cards_per_island'", twice)
    nested = json.dumps({"seats": ["human"] * 4, "board": SMALL_BOARD}).replace('"xy"', '"name": "X", "xy"', 1)
    refused(client.post("/api/games", content=nested.encode()), 400, "the key 'name'", twice)
    position = Position.new(players=4, seed=3).to_json()
    text = json.dumps({"position": position}).replace('"seed":', '"to_move": "red", "seed":', 1)
    refused(client.post("/api/positions/check", content=text.encode()), 400, "'to_move'", twice)
    # a position sent as text, and a record's text, are read as their files are
    doc = Position.new(players=4, seed=3).dumps().replace('"seed":', '"seed": 1, "seed":', 1)
    refused(client.post("/api/positions/check", json={"position": doc}), 400, "position: the key 'seed' appears twice")


def test_a_record_naming_a_key_twice_is_refused(client, records):
    line = records.splitlines()[0].replace('"seed":', '"seed":1,"seed":', 1)
    assert line != records.splitlines()[0]
    refused(client.post("/api/replays", json={"records": line}), 400, "record line 1: the key 'seed' appears twice")


def test_a_number_of_thousands_of_digits_is_refused_naming_its_field(client, records):
    huge = b"9" * 5000
    refused(client.post("/api/games", content=b'{"seats": ["human", "human", "human", "human"], "seed": ' + huge
                        + b"}"), 400, "seed a 5000-digit number", "2**64-1")
    refused(client.post("/api/games", content=b'{"seats": ["human", "human"], "players": ' + huge + b"}"), 400,
            "players a 5000-digit number")
    game = new_game(client, seats=("human",) * 4)
    refused(client.post(f"/api/games/{game['id']}/hint", content=b'{"iterations": ' + huge + b"}"), 400,
            "iterations a 5000-digit number")
    board = json.dumps({**SMALL_BOARD, "cards_per_island": 0}).replace('"cards_per_island": 0',
                                                                       '"cards_per_island": ' + "9" * 5000)
    refused(client.post("/api/boards/check", content=board.encode()), 400, "'cards_per_island'",
            "a 5000-digit number")
    record = json.loads(records.splitlines()[0])
    body = re.sub(r'"seed": \d+', '"seed": ' + "9" * 5000, json.dumps({"record": record, "seats": ["human"] * 3}),
                  count=1)
    refused(client.post("/api/games", content=body.encode()), 400, "record line 1: field 'seed'",
            "a 5000-digit number")


def test_several_games_at_once_stay_apart(client):
    a, b = new_game(client), new_game(client, seed=8)
    client.post(f"/api/games/{a['id']}/move", json={"move": a["moves"][0]})
    assert client.get(f"/api/games/{b['id']}").json()["position"] == b["position"]
    assert a["id"] != b["id"]


def test_a_body_over_the_limit_is_refused_with_413(client):
    big = b'{"x": "' + b"a" * MAX_BODY_BYTES + b'"}'
    refused(client.post("/api/boards/check", content=big), 413, "limit")


def test_unknown_games_paths_and_methods_are_json_errors(client):
    refused(client.get("/api/games/nope"), 404, "no game")
    refused(client.get("/api/nothing"), 404, "no such path")
    refused(client.delete("/api/games"), 405, "DELETE")
    table = client.post("/api/tables", json={"hand": ["ALOA", "ORO", "DALI", "DALI"]}).json()
    refused(client.get(f"/api/games/{table['id']}"), 404, "no game")


def test_the_page_and_its_files_are_served_from_the_package(client):
    from importlib import resources

    page = client.get("/")
    assert page.status_code == 200 and "http" not in page.text.split("<body>")[1]
    assert '<script type="module" src="/static/js/main.js">' in page.text
    assert client.get("/static/style.css").status_code == 200
    modules = [p.name for p in resources.files("kanaloa.interfaces.web").joinpath("static/js").iterdir()]
    assert {"main.js", "api.js", "board.js", "play.js", "table.js", "editor.js", "replay.js"} <= set(modules)
    for name in modules:  # a browser runs a module script only when it comes as JavaScript
        script = client.get(f"/static/js/{name}")
        assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript"), name
        for imported in re.findall(r'from "\./([a-z]+\.js)"', script.text):  # no import from elsewhere
            assert imported in modules, (name, imported)


ENDPOINTS = [
    ("POST", "/api/games"), ("POST", "/api/tables"), ("POST", "/api/replays"), ("POST", "/api/boards/check"),
    ("POST", "/api/games/{game}/move"), ("POST", "/api/games/{game}/hint"), ("POST", "/api/games/{game}/bot"),
    ("POST", "/api/games/{game}/undo"), ("POST", "/api/tables/{table}/move"), ("POST", "/api/tables/{table}/hint"),
    ("GET", "/api/replays/{replay}"), ("GET", "/api/games/{game}/record"), ("POST", "/api/games/{game}/analysis"),
    ("POST", "/api/tables/{table}/analysis"), ("POST", "/api/replays/{replay}/analysis"),
]
PARAMETERS = ["players", "preset", "gods", "board", "colors", "ruleset"]
# The keys each endpoint takes (others are refused at once), which most fuzzed bodies keep to
ENDPOINT_KEYS = {
    "/api/games": ["seats", "seed", "position", "record", "game", *PARAMETERS],
    "/api/tables": ["position", "viewer", "hand", "face_up", "tokens", *PARAMETERS],
    "/api/replays": ["records", "game", "board"],
    "/api/boards/check": ["name", "cards_per_island", "islands", "links"],
    "move": ["move"], "hint": ["iterations", "seed"], "bot": [], "undo": [], "analysis": ["iterations", "seed"],
}


def fuzz_value(rng: random.Random, depth: int = 0):
    """A random JSON value, often of the shapes the API reads."""
    choices = [
        lambda: rng.choice([None, True, False, 0, -1, 2**70, 10**1200, 1.5, float("inf")]),
        lambda: rng.choice(["", "oro", "human", "random", "ALOA-BAFI/ALOA", "faceup ORO", "../../etc/passwd",
                            "x" * rng.randrange(1, 300), "red: take RASI refill KULU", "ismcts:iterations=0",
                            "kahuna", "kanaloa", "remove ALOA-BARI/ALOA+BARI", "end", "white: discard",
                            "black: take IFFI refill JOJO", "faceup ALOA BARI COCO", "pele", "lono", "ku green",
                            "steal ALOA", "give green ALOA", "ALOA-BAFI/KANALOA", "ORO-RASI/KANALOA+KANALOA",
                            "red: give blue ORO"]),
        lambda: [fuzz_value(rng, depth + 1) for _ in range(rng.randrange(0, 5))] if depth < 3 else [],
        lambda: {k: fuzz_value(rng, depth + 1) for k in rng.sample(KEYS, rng.randrange(0, 4))} if depth < 3 else {},
    ]
    return rng.choice(choices)()


KEYS = ["seats", "players", "seed", "preset", "board", "colors", "position", "record", "records", "game", "move",
        "hand", "viewer", "iterations", "name", "cards_per_island", "islands", "links", "at", "ruleset", "face_up",
        "gods", "tokens"]


def test_fuzzed_requests_get_4xx_json_errors_never_a_500(client, records):
    """Random bodies on every endpoint, for both games: each answer is a success or a 4xx with a one-line error."""
    games = [new_game(client, seats=("human", "random", "random", "random"))["id"],
             kahuna_game(client, seats=("human", "random"))["id"],
             new_game(client, seats=("human", "random", "random"), players=3, gods=True)["id"], "x"]
    tables = [client.post("/api/tables", json={"hand": ["ALOA", "ORO", "DALI", "DALI"]}).json()["id"],
              gods_table(client, Position.new(players=3, seed=4, gods=True), "red")["id"],
              client.post("/api/tables", json={"ruleset": "kahuna", "hand": ["ALOA", "BARI", "COCO"],
                                               "face_up": ["IFFI", "JOJO", "KAHU"]}).json()["id"]]
    t = make_tournament(["random", "random"], 2, 5, game="kahuna")
    kahuna_records = "\n".join(play_game(t, g).dumps() for g in range(2))
    replays = [client.post("/api/replays", json={"records": text, "game": 0}).json()["id"]
               for text in (records, kahuna_records)]
    rng = random.Random(2026)
    for _ in range(600):
        method, path = rng.choice(ENDPOINTS)
        path = path.format(game=rng.choice(games), table=rng.choice(tables), replay=rng.choice(replays))
        if method == "GET":
            r = client.get(path, params={"at": str(fuzz_value(rng))})
        else:
            keys = ENDPOINT_KEYS[path.rsplit("/", 1)[1] if path.count("/") > 3 else path]
            keys = keys if keys and rng.random() < 0.8 else KEYS
            payload = {k: fuzz_value(rng) for k in rng.sample(keys, rng.randrange(0, min(6, len(keys)) + 1))}
            if rng.random() < 0.3:
                payload["ruleset"] = "kahuna"
            elif rng.random() < 0.3:
                payload["gods"] = rng.choice([True, True, False, 1, "true"])
            if rng.random() < 0.1:
                payload = fuzz_value(rng)
            r = client.post(path, content=json.dumps(payload, allow_nan=True).encode())
        assert r.status_code < 500, (method, path, r.text)
        if r.status_code >= 400:
            message = r.json()["error"]
            assert message and "\n" not in message
    assert all(client.get(f"/api/games/{game}").status_code == 200 for game in games[:3])
    for rid in replays:  # an analysis a fuzzed body started is not left running
        client.post(f"/api/replays/{rid}/analysis/cancel")


def test_a_long_hint_does_not_hold_up_another_game():
    """Hints run in threads: while one searches, another game's requests are answered at once."""
    import asyncio
    import time

    import httpx2

    async def scenario() -> tuple[float, float]:
        app = create_app(HintBudget(iterations=200))
        async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url="http://test") as c:
            first = (await c.post("/api/games", json={"seats": ["human"] * 4, "seed": 1})).json()
            second = (await c.post("/api/games", json={"seats": ["human"] * 4, "seed": 2})).json()
            start = time.perf_counter()
            long_hint = asyncio.create_task(c.post(f"/api/games/{first['id']}/hint", json={"iterations": 60_000}))
            await asyncio.sleep(0.2)
            answered = await c.post(f"/api/games/{second['id']}/move", json={"move": second["moves"][0]})
            assert answered.status_code == 200
            quick = time.perf_counter() - start
            assert (await long_hint).status_code == 200
            return quick, time.perf_counter() - start

    quick, slow = asyncio.run(scenario())
    assert quick < slow / 2, (quick, slow)


def god_kind(move: str) -> str | None:
    """Which token action a move is (R14.5-R14.8), or None."""
    text = move.split(": ", 1)[-1]
    if "/" in text:
        return "kanaloa" if "KANALOA" in text.split("/")[1] else None
    word = text.split(" ")[0]
    return word if word in ("ku", "steal", "pele", "give", "lono") else None


def test_a_gods_game_is_dealt_with_its_tokens_and_bad_requests_for_one_are_refused(client):
    view = new_game(client, seats=("human", "random", "random"), players=3, gods=True)
    pos = view["position"]
    assert pos["rules"]["gods"] is True
    assert len(pos["gods"]["on_islands"]) == 16 and pos["gods"]["owned"] == {"red": [], "green": [], "blue": []}
    assert view["svg"].count('class="god-token"') == 16
    hinted = client.post(f"/api/games/{view['id']}/hint", json={"iterations": 50})
    assert hinted.status_code == 200 and hinted.json()["move"] in view["moves"], hinted.text
    assert new_game(client, seats=("human", "random"), players=2, gods=True)["position"]["rules"]["gods"]
    plain = new_game(client, gods=False)["position"]
    assert not plain.get("rules", {}).get("gods")
    refused(client.post("/api/games", json={"seats": ["human", "random"], "ruleset": "kahuna", "gods": True}), 400,
            "gods", "Kahuna")
    refused(client.post("/api/games", json={"seats": ["human"] * 4, "board": SMALL_BOARD, "gods": True}), 400,
            "16", "R14.1")
    refused(client.post("/api/games", json={"seats": ["human"] * 4, "gods": "yes"}), 400, "gods", "true")


def gods_table(client, full: Position, viewer: str) -> dict:
    """A gods table set up as ``viewer`` of ``full`` (dealt, nothing played): its tokens and the viewer's hand."""
    dealt = full.to_json()
    r = client.post("/api/tables", json={"players": len(full.players), "viewer": viewer, "gods": True,
                                         "tokens": dealt["gods"]["on_islands"],
                                         "hand": dealt["hands"][viewer]["cards"]})
    assert r.status_code == 201, r.text
    return r.json()


def test_a_gods_table_is_set_up_from_the_tokens_and_the_hand_or_from_a_viewer_position(client):
    full = Position.new(players=3, seed=4, gods=True)
    view = gods_table(client, full, "green")
    assert view["position"] == full.as_viewer("green").to_json()
    assert view["position"]["rules"]["gods"] is True and view["moves"] == []  # red to move
    up = client.post("/api/tables", json={"position": full.as_viewer("red").to_json()})
    assert up.status_code == 201, up.text
    assert up.json()["viewer"] == "red" and up.json()["moves"] == full.as_viewer("red").move_strings()


@pytest.mark.parametrize(("body", "words"), [
    ({"gods": True}, ("tokens",)),
    ({"gods": True, "tokens": ["KU"]}, ("tokens",)),
    ({"gods": True, "tokens": {"ALOA": "KU"}}, ("tokens", "BAFI")),
    ({"gods": True, "tokens": "ALOA"}, ("tokens",)),
    ({"gods": "yes"}, ("gods", "true")),
    ({"tokens": {"ALOA": "KU"}}, ("tokens", "gods")),
    ({"gods": True, "board": "SMALL"}, ("board", "16", "R14.1")),  # the rule set names the board at fault
    ({"gods": True, "ruleset": "kahuna", "face_up": ["IFFI", "JOJO", "KAHU"]}, ("gods", "Kahuna")),
])
def test_a_bad_gods_table_setup_is_refused_in_one_line(client, body, words):
    body = {"hand": ["ALOA", "ORO", "DALI", "DALI"], **body}
    if body.get("board") == "SMALL":
        body["board"] = SMALL_BOARD
    if body.get("ruleset") == "kahuna":
        body["hand"] = ["ALOA", "BARI", "COCO"]
    refused(client.post("/api/tables", json=body), 400, *words)
    tokens = {name: "KU" for name in load_board("oro").islands}  # 16 KU: the position counts the tokens (R14.1)
    refused(client.post("/api/tables", json={"hand": ["ALOA", "ORO", "DALI", "DALI"], "gods": True,
                                             "tokens": tokens}), 400, "KU")


def test_a_gods_table_followed_through_whole_games_with_every_token_record(client):
    """A full gods game played at random, fond of the tokens, told to the table as the viewer writes it down:
    the viewer's own token moves are among the offered ones, the others' records are accepted, and the table
    ends as the game did.  Every token action is told, by the viewer and by the others."""
    from viewer_helpers import record

    own: set[str] = set()
    others: set[str] = set()
    for seed in range(12):
        full = Position.new(players=3, seed=seed, gods=True)
        viewer = "green"
        view = gods_table(client, full, viewer)
        tid = view["id"]
        rng = random.Random(seed)
        while not full.is_over:
            if view["waiting"]:
                turned = " ".join(full.to_json()["face_up"])
                view = client.post(f"/api/tables/{tid}/move", json={"move": f"faceup {turned}"}).json()
                assert view["waiting"] is None
            actions = full.state.legal_actions()
            tokens = [a for a in actions if god_kind(str(full.move_of(a)))]
            action = rng.choice(tokens) if tokens and rng.random() < 0.7 else rng.choice(actions)
            move = record(full, action, viewer)
            kind = god_kind(move)
            if full.to_move == viewer:
                short = move.split(": ", 1)[1]
                if kind:
                    own.add(kind)
                    offered = short.split(" sees ")[0].split(" takes ")[0]
                    assert offered in view["moves"], (short, view["moves"])
            elif kind:
                others.add(kind)
            full.push(action)
            answer = client.post(f"/api/tables/{tid}/move", json={"move": move})
            assert answer.status_code == 200, (move, answer.text)
            view = answer.json()
        assert view["outcome"] == full.outcome and view["scores"] == full.scores
        assert view["position"]["gods"]["owned"] == full.to_json()["gods"]["owned"]
        if own >= GOD_KINDS and others >= GOD_KINDS:
            break
    assert own >= GOD_KINDS and others >= GOD_KINDS, (own, others)


def test_a_gods_table_refuses_a_token_record_that_does_not_fit_and_undoes_one(client):
    full = Position.new(players=3, seed=4, gods=True)
    tid = gods_table(client, full, "red")["id"]
    for move in ("pele", "red: lono", "ku green sees ALOA", "green: steal", "give green ALOA"):
        refused(client.post(f"/api/tables/{tid}/move", json={"move": move}), 400)
    assert client.get(f"/api/tables/{tid}").json()["history"] == []


GOD_KINDS = {"kanaloa", "ku", "steal", "pele", "give", "lono"}


def test_every_token_action_is_played_through_the_api(client):
    """People in every seat, moving at random but fond of the tokens: each token action of R14.5-R14.8 goes
    through the API, what the page needs for it is in the view, and the game ends with a summary."""
    done: set[str] = set()
    for seed in range(6):
        r = client.post("/api/games", json={"seats": ["human"] * 3, "players": 3, "seed": seed, "gods": True})
        assert r.status_code == 201, r.text
        view = r.json()
        rng = random.Random(seed)
        while not view["outcome"]:
            moves = view["moves"]
            turn = view["position"]["turn"] or {}
            assert moves and view["perspective"] == view["to_move"]
            if turn.get("ku_target"):  # KU shows the whole hand: every card offered is one the mover sees there
                shown = view["position"]["hands"][turn["ku_target"]]
                assert all(m.startswith("steal ") for m in moves)
                assert sorted(m.split()[1] for m in moves) == sorted(set(shown["known"][view["to_move"]]))
            if turn.get("pele_gifts"):
                assert all(m.startswith(f"give {turn['pele_gifts'][0]} ") for m in moves)
            tokens = [m for m in moves if god_kind(m)]
            move = rng.choice(tokens) if tokens and rng.random() < 0.7 else rng.choice(moves)
            mover = view["to_move"]
            r = client.post(f"/api/games/{view['id']}/move", json={"move": move})
            assert r.status_code == 200, r.text
            view = r.json()
            if god_kind(move):
                done.add(god_kind(move))
                shown, body = (m.split(": ", 1)[-1] for m in (view["history"][-1]["move"], move))
                if view["perspective"] == mover:  # the mover's own move, with what the token showed it
                    assert shown.startswith(body), (shown, body)
                else:  # the next person's record of it
                    assert shown.split()[0] == body.split()[0], (shown, body)
        assert view["outcome"]["winner"] in view["scores"]
        refused(client.post(f"/api/games/{view['id']}/move", json={"move": "pele"}), 409, "over")
        if done >= {"kanaloa", "ku", "steal", "pele", "give", "lono"}:
            break
    assert done >= {"kanaloa", "ku", "steal", "pele", "give", "lono"}, done


def test_a_token_move_that_is_not_legal_now_is_refused_in_one_line(client):
    view = new_game(client, seats=("human", "random", "random"), players=3, gods=True)
    gid = view["id"]
    for move in ("pele", "lono", "ku green", "steal ALOA", "give green ALOA", "ALOA-BAFI/KANALOA"):
        refused(client.post(f"/api/games/{gid}/move", json={"move": move}), 400)
    assert client.get(f"/api/games/{gid}").json()["history"] == []


def test_a_whole_gods_game_against_bots_with_its_record_and_position_played_again(client):
    view = new_game(client, seats=("human", "greedy", "random"), players=3, gods=True)
    view = play_to_the_end(client, view, random.Random(3))
    assert view["outcome"] and view["perspective"] is None
    record = client.get(f"/api/games/{view['id']}/record").json()
    assert record["gods"] is True and record["moves"] == [h["move"] for h in view["history"]]
    again = client.post("/api/games", json={"record": json.dumps(record), "seats": ["human", "greedy", "random"]})
    assert again.status_code == 201, again.text
    assert again.json()["outcome"] == view["outcome"] and again.json()["position"] == view["position"]
    replayed = client.post("/api/replays", json={"records": json.dumps(record)}).json()
    assert replayed["length"] == len(record["moves"])
    # a position of a gods game in round 2, uploaded, plays on against the bots
    t = make_tournament(["random", "random", "random"], 3, 5, gods=True)
    rec = play_game(t, 0)
    from kanaloa.play.records import replay

    pos = replay(rec, at=len(rec.moves) // 2)
    up = client.post("/api/games", json={"position": pos.to_json(), "seats": ["human", "random", "random"]})
    assert up.status_code == 201, up.text
    assert up.json()["position"]["gods"] == pos.to_json()["gods"]
    end = play_to_the_end(client, up.json(), random.Random(1))
    assert end["outcome"]
    refused(client.get(f"/api/games/{end['id']}/record"), 409, "uploaded position")


# -- Analysis of whole games ------------------------------------------------------------------
#
# An analysis is a background job (kanaloa.interfaces.web.analyses): started, polled, read, cancelled.  The
# budgets here are tiny; the results are checked against the analysis the Python API gives for the same game,
# budget and seed.

ANALYSIS_ITERATIONS = 30


@pytest.fixture(scope="module")
def kahuna_record():
    """A short recorded game (Kahuna, greedy against greedy) and its text."""
    t = make_tournament(["greedy", "greedy"], 2, 3, game="kahuna")
    rec = play_game(t, 0)
    return rec, rec.dumps() + "\n"


def analysed(client, base: str, **budget) -> dict:
    """Start the analysis of the game at ``base`` (its API path), poll it to the end, and answer its result."""
    r = client.post(f"{base}/analysis", json=budget)
    assert r.status_code in (200, 202), r.text
    for _ in range(100_000):
        status = client.get(f"{base}/analysis").json()
        assert status["state"] in ("queued", "running", "done"), status
        assert 0 <= status["done"] <= status["total"]
        if status["state"] == "done":
            break
        time.sleep(0.01)
    result = client.get(f"{base}/analysis/result")
    assert result.status_code == 200, result.text
    return result.json()


class Blocked:
    """The analysis thread of ``app`` kept busy, so that the jobs started meanwhile wait (their state stays
    ``queued`` until the block is lifted)."""

    def __init__(self, app) -> None:
        self.app = app
        self.release = threading.Event()

    def __enter__(self) -> Blocked:
        self.app.state.analyses.pool.submit(self.release.wait)
        return self

    def __exit__(self, *exc) -> None:
        self.release.set()


@pytest.fixture
def quiet_app():
    """An app of its own (its analysis thread is blocked by the tests) and its client."""
    app = create_app(HintBudget(iterations=100))
    with TestClient(app, raise_server_exceptions=False) as c:
        yield app, c


def test_a_replay_is_analysed_in_the_background_as_the_python_api_analyses_it(client, kahuna_record):
    from kanaloa.interfaces.chart import win_chart
    from kanaloa.play.analysis import analyse_record

    rec, text = kahuna_record
    rid = client.post("/api/replays", json={"records": text}).json()["id"]
    started = client.post(f"/api/replays/{rid}/analysis", json={"iterations": ANALYSIS_ITERATIONS, "seed": 5})
    assert started.status_code == 202, started.text
    job = started.json()
    assert job["id"] == rid and job["state"] in ("queued", "running", "done")
    assert job["total"] == job["moves"] == len(rec.moves) and job["current"] is True
    assert (job["iterations"], job["seed"], job["workers"], job["error"]) == (ANALYSIS_ITERATIONS, 5, 1, None)
    result = analysed(client, f"/api/replays/{rid}", iterations=ANALYSIS_ITERATIONS, seed=5)
    expected = analyse_record(rec, iterations=ANALYSIS_ITERATIONS, seed=5).to_json()
    assert result["analysis"] == expected
    assert result["chart"] == win_chart(expected) and 'class="kanaloa-chart"' in result["chart"]
    assert result["state"] == "done" and result["done"] == result["total"] == len(rec.moves)
    # once done, a start with the same budget and seed is answered with the same job; another seed is a new one
    same = client.post(f"/api/replays/{rid}/analysis", json={"iterations": ANALYSIS_ITERATIONS, "seed": 5})
    assert same.status_code == 200 and same.json()["state"] == "done"
    other = client.post(f"/api/replays/{rid}/analysis", json={"iterations": ANALYSIS_ITERATIONS, "seed": 6})
    assert other.status_code == 202 and other.json()["seed"] == 6
    analysed(client, f"/api/replays/{rid}", iterations=ANALYSIS_ITERATIONS, seed=6)


def test_the_budget_of_an_analysis_defaults_to_the_hint_budget_and_is_capped_by_it(quiet_app, kahuna_record):
    app, c = quiet_app
    rid = c.post("/api/replays", json={"records": kahuna_record[1]}).json()["id"]
    with Blocked(app):
        job = c.post(f"/api/replays/{rid}/analysis").json()
        assert (job["iterations"], job["seed"], job["state"]) == (100, 0, "queued")
        # a second start while it waits or runs, whatever it asks, is answered with the same job
        again = c.post(f"/api/replays/{rid}/analysis", json={"iterations": 10, "seed": 3})
        assert again.status_code == 200 and again.json() == job
        c.post(f"/api/replays/{rid}/analysis/cancel")
    for body, words in [({"iterations": 101}, ("iterations 101", "from 1 to 100", "--hint-iterations")),
                        ({"iterations": 0}, ("iterations 0", "from 1 to 100")),
                        ({"iterations": "50"}, ("iterations '50'",)),
                        ({"iterations": True}, ("iterations True",)),
                        ({"iterations": 1.5}, ("iterations 1.5",)),
                        ({"iterations": None}, ("iterations: must be a whole number from 1 to 100, not null",)),
                        ({"seed": -1}, ("seed -1", "2**64-1")),
                        ({"seed": 2**64}, ("seed",)),
                        ({"seconds": 3}, ("unknown key 'seconds'", "an analysis takes iterations, seed"))]:
        refused(c.post(f"/api/replays/{rid}/analysis", json=body), 400, *words)
    assert c.get(f"/api/replays/{rid}/analysis").json()["state"] == "cancelled"  # the refusals started nothing


def test_a_waiting_analysis_is_cancelled_and_its_result_refused(quiet_app, kahuna_record):
    app, c = quiet_app
    rid = c.post("/api/replays", json={"records": kahuna_record[1]}).json()["id"]
    base = f"/api/replays/{rid}/analysis"
    with Blocked(app):
        assert c.post(base, json={"iterations": 20}).json()["state"] == "queued"
        refused(c.get(f"{base}/result"), 409, "still running", f"0 of {len(kahuna_record[0].moves)} moves judged")
        refused(c.get(f"{base}/moves/0"), 409, "still running")
        refused(c.post(f"{base}/cancel", json={"now": True}), 400, "unknown key 'now'", "a cancel takes no key")
        cancelled = c.post(f"{base}/cancel")
        assert cancelled.status_code == 200 and cancelled.json()["state"] == "cancelled"
        refused(c.get(f"{base}/result"), 409, "cancelled", "start it again")
        refused(c.post(f"{base}/cancel"), 409, "has ended (cancelled)", "nothing to cancel")
    # it never runs: the thread free again, it stays cancelled; a new start is a new job
    result = analysed(c, f"/api/replays/{rid}", iterations=20)
    assert result["analysis"]["budget"]["iterations"] == 20
    refused(c.post(f"{base}/cancel"), 409, "has ended (done)")


def test_a_running_analysis_stops_at_its_next_move_when_cancelled(quiet_app, kahuna_record):
    from kanaloa.interfaces.web import analyses

    app, c = quiet_app
    rid = c.post("/api/replays", json={"records": kahuna_record[1]}).json()["id"]
    reached = threading.Event()
    go_on = threading.Event()
    real = analyses.AnalysisJob._progress

    def slow_progress(job, done, total):  # the first move judged waits until the test has cancelled
        if done == 1:  # (done 0: the moves are known to fit, before any is judged)
            reached.set()
            go_on.wait()
        real(job, done, total)

    analyses.AnalysisJob._progress = slow_progress
    try:
        assert c.post(f"/api/replays/{rid}/analysis", json={"iterations": 20}).status_code == 202
        assert reached.wait(60)
        assert c.get(f"/api/replays/{rid}/analysis").json()["state"] == "running"
        assert c.post(f"/api/replays/{rid}/analysis/cancel").json()["state"] == "cancelled"
        go_on.set()
        job = app.state.sessions.entries[rid].analysis
        job.future.result(timeout=60)
    finally:
        analyses.AnalysisJob._progress = real
        go_on.set()
    status = c.get(f"/api/replays/{rid}/analysis").json()
    assert status["state"] == "cancelled" and status["done"] == 1 and job.analysis is None


def test_the_server_takes_so_many_analyses_at_once_then_says_it_is_busy(quiet_app, kahuna_record):
    app, c = quiet_app
    app.state.analyses.limit = 2
    ids = [c.post("/api/replays", json={"records": kahuna_record[1]}).json()["id"] for _ in range(3)]
    with Blocked(app):
        for rid in ids[:2]:
            assert c.post(f"/api/replays/{rid}/analysis", json={"iterations": 10}).status_code == 202
        refused(c.post(f"/api/replays/{ids[2]}/analysis", json={"iterations": 10}), 503, "analysing 2 games",
                "try again")
        c.post(f"/api/replays/{ids[0]}/analysis/cancel")  # a cancelled job makes room
        assert c.post(f"/api/replays/{ids[2]}/analysis", json={"iterations": 10}).status_code == 202
        for rid in ids[1:]:
            c.post(f"/api/replays/{rid}/analysis/cancel")


def test_a_session_dropped_from_the_server_has_its_analysis_cancelled(quiet_app, kahuna_record):
    app, c = quiet_app
    app.state.sessions.limit = 1
    first = c.post("/api/replays", json={"records": kahuna_record[1]}).json()["id"]
    with Blocked(app):
        c.post(f"/api/replays/{first}/analysis", json={"iterations": 10})
        job = app.state.sessions.entries[first].analysis
        c.post("/api/replays", json={"records": kahuna_record[1]})  # the least recently used goes
        refused(c.get(f"/api/replays/{first}/analysis"), 404, "no replay")
        assert job.status(())["state"] == "cancelled"


def test_each_move_of_an_analysed_replay_shows_the_position_before_it_with_the_engines_plan(client, kahuna_record):
    rec, text = kahuna_record
    rid = client.post("/api/replays", json={"records": text}).json()["id"]
    result = analysed(client, f"/api/replays/{rid}", iterations=ANALYSIS_ITERATIONS)
    reviews = result["analysis"]["moves"]
    drawn = [r["index"] for r in reviews if "/" in r["plan"][0] or r["plan"][0].startswith("take ")]
    for index in (drawn[0], drawn[-1], len(rec.moves) - 1):
        view = client.get(f"/api/replays/{rid}/analysis/moves/{index}").json()
        plain = client.get(f"/api/replays/{rid}", params={"at": index}).json()
        assert view["kind"] == "move" and view["index"] == view["at"] == index and view["length"] == len(rec.moves)
        assert view["review"] == reviews[index] and view["record"] == plain["record"]
        assert view["position"] == plain["position"]  # the position before the move
        steps = re.findall(r'class="hint-step" data-step="(\d+)" data-move="([^"]+)"', view["svg"])
        if index in drawn:  # the engine's plan, step by step (a build on its link, a take on its card)
            assert steps[0] == ("1", reviews[index]["plan"][0])
        assert all(move in reviews[index]["plan"] for _, move in steps)
        assert "hint-step" not in plain["svg"]
    for bad, shown in (("-1", "'-1'"), (str(len(rec.moves)), str(len(rec.moves))), ("x", "'x'"), ("1e3", "'1e3'"),
                       ("9" * 30, "'" + "9" * 30 + "'")):
        refused(client.get(f"/api/replays/{rid}/analysis/moves/{bad}"), 400, f"move {shown}:",
                f"from 0 to {len(rec.moves) - 1}")


def test_a_finished_play_game_is_analysed_with_every_players_moves(client):
    from kanaloa.play.analysis import analyse_game
    from kanaloa.position.documents import deal_position
    from kanaloa.rules.registry import load_game

    view = client.post("/api/games", json={"ruleset": "kahuna", "seats": ["greedy", "greedy"], "seed": 4}).json()
    gid = view["id"]
    refused(client.post(f"/api/games/{gid}/analysis"), 409, "not over yet", "analysed once it is over")
    refused(client.get(f"/api/games/{gid}/analysis"), 404, "no analysis of this game yet", "POST")
    view = finish_bots(client, gid, view)
    result = analysed(client, f"/api/games/{gid}", iterations=ANALYSIS_ITERATIONS, seed=2)
    moves = [h["move"] for h in view["history"]]
    analysis = result["analysis"]
    expected = analyse_game(deal_position(load_game("kahuna"), 4), moves, iterations=ANALYSIS_ITERATIONS, seed=2)
    assert analysis == expected.to_json()
    assert [m["move"] for m in analysis["moves"]] == moves and all(m["analysed"] for m in analysis["moves"])
    assert analysis["result"]["winner"] == view["outcome"]["winner"]
    move = client.get(f"/api/games/{gid}/analysis/moves/3").json()
    assert move["kind"] == "move" and move["review"] == analysis["moves"][3] and move["length"] == len(moves)
    assert move["position"]["viewer"] is None  # the game is over: every hand is shown
    # an undo makes the game another one: the analysis stays, no longer current, and the game must end again
    client.post(f"/api/games/{gid}/undo")
    status = client.get(f"/api/games/{gid}/analysis").json()
    assert status["state"] == "done" and status["current"] is False
    refused(client.post(f"/api/games/{gid}/analysis", json={"iterations": 5}), 409, "not over yet")
    assert client.get(f"/api/games/{gid}/analysis/moves/3").json()["review"] == analysis["moves"][3]


def test_a_tables_analysis_judges_the_viewers_own_moves_only(client):
    tid = client.post("/api/tables", json={"players": 3, "viewer": "green",
                                           "hand": ["ALOA", "ORO", "DALI", "DALI"]}).json()["id"]
    refused(client.post(f"/api/tables/{tid}/analysis"), 409, "no move has been told yet")
    client.post(f"/api/tables/{tid}/move", json={"move": "red: reveal"})
    refused(client.post(f"/api/tables/{tid}/analysis"), 409, "none of the 1 moves can be judged",
            "red's hand is unknown to green's view")
    for move in ("reveal ORO", "blue: reveal", "faceup KULU ORO MOKU ELOI", "red: ALOA-BAFI/BAFI",
                 "red: take MOKU refill RASI", "ALOA-DALI/DALI", "draw PAHU"):
        assert client.post(f"/api/tables/{tid}/move", json={"move": move}).status_code == 200, move
    result = analysed(client, f"/api/tables/{tid}", iterations=ANALYSIS_ITERATIONS)
    assert result["total"] == 3  # green's reveal, build and draw (judged as the choice to draw, not its card)
    reviews = result["analysis"]["moves"]
    assert [r["analysed"] for r in reviews] == [False, True, False, False, False, False, True, True]
    assert reviews[7]["move"] == "draw PAHU" and reviews[7]["grade"] is not None
    assert reviews[0]["why"] == "red's hand is unknown to green's view" and reviews[0]["grade"] is None
    assert result["analysis"]["viewer"] == "green"
    mine = client.get(f"/api/tables/{tid}/analysis/moves/1").json()
    assert mine["position"]["viewer"] == "green" and 'class="hint-step"' in mine["svg"]
    other = client.get(f"/api/tables/{tid}/analysis/moves/0").json()
    assert other["review"]["analysed"] is False and "hint-step" not in other["svg"]
    assert client.post(f"/api/tables/{tid}/move", json={"move": "blue: draw"}).status_code == 200  # the table goes on
    # the analysis stays, no longer current
    assert client.get(f"/api/tables/{tid}/analysis").json()["current"] is False
    assert client.get(f"/api/tables/{tid}/analysis/moves/6").json()["review"] == reviews[6]


def test_an_analysis_that_fails_says_why_in_one_line(quiet_app, kahuna_record, monkeypatch):
    from kanaloa.errors import MoveError
    from kanaloa.interfaces.web import analyses

    app, c = quiet_app
    rid = c.post("/api/replays", json={"records": kahuna_record[1]}).json()["id"]
    for error, message in [(MoveError("move 7: draw PAHU is\nnot legal here"), "move 7: draw PAHU is not legal here"),
                           (RuntimeError("a bug"), "internal error: RuntimeError")]:
        def failing(*args, error=error, **kwargs):
            raise error

        monkeypatch.setattr(analyses, "analyse_game", failing)
        c.post(f"/api/replays/{rid}/analysis", json={"iterations": 10, "seed": len(message)})
        app.state.sessions.entries[rid].analysis.future.result(timeout=60)
        status = c.get(f"/api/replays/{rid}/analysis").json()
        assert status["state"] == "failed" and status["error"] == message
        refused(c.get(f"/api/replays/{rid}/analysis/result"), 409, f"the analysis failed: {message}")


def test_an_analysis_of_an_unknown_game_or_of_another_kind_is_a_404(client, kahuna_record):
    rid = client.post("/api/replays", json={"records": kahuna_record[1]}).json()["id"]
    for path in ("games", "tables", "replays"):
        refused(client.post(f"/api/{path}/nope/analysis"), 404, "on this server")
        refused(client.get(f"/api/{path}/nope/analysis/result"), 404, "on this server")
        refused(client.post(f"/api/{path}/nope/analysis/cancel"), 404, "on this server")
        refused(client.get(f"/api/{path}/nope/analysis/moves/0"), 404, "on this server")
    refused(client.post(f"/api/games/{rid}/analysis"), 404, "no game")
    for what in ("", "/result", "/moves/0"):
        refused(client.get(f"/api/replays/{rid}/analysis{what}"), 404, "no analysis of this replay yet")
    refused(client.post(f"/api/replays/{rid}/analysis/cancel"), 404, "no analysis of this replay yet")
    refused(client.delete(f"/api/replays/{rid}/analysis"), 405, "DELETE")


# -- opponents by strength: the levels ------------------------------------------------------------------------


def test_the_listing_names_the_levels_and_which_each_game_offers(client):
    from kanaloa.play.levels import DEFAULT_LEVEL, LEVELS
    from kanaloa.rules.registry import game_types

    listing = client.get("/api/games").json()
    assert [level["name"] for level in listing["levels"]] == ["easy", "medium", "strong"]
    assert listing["levels"] == [level.to_json() for level in LEVELS] and listing["default_level"] == DEFAULT_LEVEL
    for level in listing["levels"]:
        assert level["label"] and level["description"].endswith(".") and "\n" not in level["description"]
    for entry in listing["games"]:  # every game's bots play every level today, each by the level's own spec
        assert entry["levels"] == listing["levels"], entry["name"]
    assert [g["name"] for g in listing["games"]] == [g.name for g in game_types()]
    bots = {b["name"]: b["help"] for b in listing["bots"]}
    assert {"random", "greedy", "ismcts", "hint"} <= set(bots) and "seer" not in bots  # the seer only measures
    assert all(bots.values())


def test_a_seat_given_as_a_level_plays_its_spec_and_the_view_shows_both(client):
    view = new_game(client, seats=("human", "Strong", " easy ", "ismcts:iterations=50"))
    assert view["seats"] == [
        {"player": "red", "who": "human", "level": None},
        {"player": "green", "who": "hint:iterations=60000", "level": "strong"},
        {"player": "blue", "who": "greedy", "level": "easy"},
        {"player": "yellow", "who": "ismcts:iterations=50", "level": None},
    ]
    gid = view["id"]
    assert client.get(f"/api/games/{gid}").json()["seats"] == view["seats"]


def test_a_finished_game_with_levels_records_the_specs_they_stood_for(client):
    view = new_game(client, seats=("easy", "random"), players=2)
    view = finish_bots(client, view["id"], view)
    assert view["outcome"] and [s["level"] for s in view["seats"]] == ["easy", None]
    record = client.get(f"/api/games/{view['id']}/record").json()
    assert record["lineup"] == ["greedy", "random"]


@pytest.mark.parametrize(("seats", "words"), [
    (["human", "hardest", "easy", "easy"],
     ("seat 2 (green): 'hardest' is neither 'human', a level (easy, medium, strong) nor a bot (random, greedy",)),
    (["human", "easy", "easy", "ismcts:iterations=0"],
     ("seat 4 (yellow): bot spec 'ismcts:iterations=0': key 'iterations' must be at least 1",)),
    (["human", "easy", "", "easy"], ("seat 3 (blue): bot spec '': empty",)),
    (["human", "easy", "seer", "easy"], ("seat 3 (blue): bot spec 'seer'", "for measurement only")),
    (["strong:iterations=5", "easy", "easy", "easy"], ("seat 1 (red): bot spec 'strong:iterations=5': unknown bot "
                                                       "'strong'",)),
])
def test_a_bad_level_or_spec_is_refused_in_one_line_naming_the_seat(client, seats, words):
    refused(client.post("/api/games", json={"seats": seats, "seed": 7}), 400, *words)


def test_a_level_a_game_cannot_seat_is_not_offered_and_is_refused_naming_the_seat(client, monkeypatch):
    from kanaloa.interfaces.web.games import game_listing
    from kanaloa.play import levels
    from kanaloa.play.bots import RandomBot

    # a strong level whose bot plays through a face no game has: offered nowhere, refused with the bot's reason
    strong = levels.Level("strong", "Strong", "Plays through a face no game has.", "random")
    monkeypatch.setattr(levels, "LEVELS", (*levels.LEVELS[:2], strong))
    monkeypatch.setitem(levels._BY_NAME, "strong", strong)
    monkeypatch.setattr(RandomBot, "faces", ("nowhere",))
    listing = game_listing()  # the server lists the registry once, as it starts
    assert all([level["name"] for level in entry["levels"]] == ["easy", "medium"] for entry in listing["games"])
    refused(client.post("/api/games", json={"seats": ["human", "strong"], "players": 2, "seed": 7}), 400,
            "seat 2 (green): level strong: not offered for Kanaloa: bot spec 'random': random plays a game through "
            "its nowhere face, and Kanaloa has none")
