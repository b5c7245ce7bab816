"""Cannonball Colony (R20) in ``kanaloa serve``, through Starlette's test client (docs/web.md, docs/cannonball.md
"In the web app").

The web app serves the game through the registry: its listing in ``GET /api/games``, a deal with people and
bots in the seats, every legal move offered on the space it is played on (R20.4-R20.9) or as a button (``end``,
``pass``), whole games to their end (R20.10), undo, an uploaded position, the tiles a deal draws from (built-in
names or tile files sent as content, never a path, R20.2), the tile files read by the engine's own reader, the
position editor, a finished game's record replayed and played again (a record naming a tile file refused), the
hint, and the Table mode refused with the reason (nothing is hidden).  The web app's own files never name the
game.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from kanaloa.cannonball.island import BUILTIN_TILES, load_tile, rotate_rows
from kanaloa.cannonball.position import CannonballPosition
from kanaloa.cannonball.ruleset import make_cannonball
from kanaloa.interfaces.web.app import create_app
from kanaloa.interfaces.web.games import HintBudget
from test_web_api import refused

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "src" / "kanaloa" / "interfaces" / "web"
POND = {"format": "cannonball-tile/1", "name": "pond wood", "description": "a pond in a wood",
        "rows": ["gggggg", "ffffff", "ffllff", "fffmff", "ffffff", "ffffff"]}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(HintBudget(iterations=100)), raise_server_exceptions=False) as c:
        yield c


def deal(client, seats=("human", "random"), **params) -> dict:
    r = client.post("/api/games", json={"ruleset": "cannonball", "players": len(seats), "seats": list(seats),
                                        "seed": 7, **params})
    assert r.status_code == 201, r.text
    return r.json()


def move(client, view: dict, text: str) -> dict:
    r = client.post(f"/api/games/{view['id']}/move", json={"move": text})
    assert r.status_code == 200, r.text
    return r.json()


def offered(view: dict) -> list[str]:
    """Every move the view offers on a space or as a button."""
    return [m for moves in view["targets"].values() for m in moves] + view["buttons"]


# -- the registry's listing --------------------------------------------------------------------------------


def test_get_api_games_lists_every_game_with_cannonball_its_parameters_its_module_and_no_table(client):
    from kanaloa.rules.registry import game_types

    listing = client.get("/api/games").json()
    assert [g["name"] for g in listing["games"]] == [g.name for g in game_types()]
    entry = next(g for g in listing["games"] if g["name"] == "cannonball")
    assert entry["title"] == "Cannonball Colony" and entry["rules"] == "R20"
    assert [p["name"] for p in entry["parameters"]] == ["players", "countries", "tiles"]
    assert list(entry["choices"]["players"]) == ["2", "3", "4"]  # R20.1
    assert entry["choices"]["players"]["3"]["seats"] == ["france", "spain", "portugal"]  # R20.3
    assert entry["default"]["tiles"] == list(BUILTIN_TILES) and entry["default"]["road_tiles"] == 90
    assert entry["default"]["palette"] == ["france", "spain", "portugal", "england"]
    assert entry["table"] == "nothing is hidden in Cannonball Colony: every player sees the whole position (R20)"
    web = entry["web"]
    assert web["files"] == "tile" and "pimc:iterations=500" not in web["bots"] and "greedy" in web["bots"]
    for url in (web["module"], web["style"]):
        served = client.get(url)
        assert served.status_code == 200, url
    assert client.get(web["module"]).headers["content-type"].startswith("text/javascript")
    for game in listing["games"]:  # every game the page serves: a module, and the Table mode's answer
        assert client.get(game["web"]["module"]).status_code == 200
        assert (game["table"] is None) == (game["name"] != "cannonball")
    base = web["module"].rsplit("/", 1)[0]
    for url in [web["module"], f"{base}/tiles.js"]:  # what the game's module imports is served, from this server
        for imported in re.findall(r'from "([^"]+)"', client.get(url).text):
            assert imported.startswith(("/static/js/", "./")), (url, imported)
            path = imported if imported.startswith("/") else f"{base}/{imported[2:]}"
            assert client.get(path).headers["content-type"].startswith("text/javascript"), (url, imported)


# -- Play ----------------------------------------------------------------------------------------------------


def test_r20_4_a_new_game_opens_in_the_landing_round_with_every_landing_on_its_space(client):
    view = deal(client)
    pos = CannonballPosition.deal(make_cannonball(players=2), 7)
    assert view["ruleset"] == "cannonball" and view["position"] == pos.to_json()
    assert view["moves"] == pos.move_strings() and view["perspective"] == "france" and not view["bot_to_move"]
    assert view["targets"] == {m.split()[1]: [m] for m in pos.move_strings()}  # each landing on its own space
    assert view["buttons"] == []
    assert view["status"] == "france to move, landing round: each country lands its ship in seat order (R20.4)"
    assert [s["player"] for s in view["standings"]] == ["france", "spain"]
    assert view["standings"][0]["text"].startswith("france: 0 of 10 forts on the island, not landed")
    assert view["svg"].count('role="button"') == 72  # the 6x12 island's spaces, each a button
    assert view["has_record"] is True and view["can_undo"] is False


def test_the_moves_are_offered_on_their_spaces_through_a_whole_game_of_people(client):
    """People in both seats move at random through the API to the end (R20.10): at every step the moves offered
    on the spaces and as buttons are exactly the legal moves, each on the space it names, and the game ends as
    the same moves end it on the position class."""
    view = deal(client, seats=("human", "human"))
    pos = CannonballPosition.deal(make_cannonball(players=2), 7)
    rng = random.Random(5)
    kinds = set()
    played = []
    while view["outcome"] is None:
        assert sorted(offered(view)) == sorted(view["moves"]) == sorted(pos.move_strings())
        for space, moves in view["targets"].items():
            assert all(m.split()[1] == space for m in moves)
        assert all(m in ("end", "pass") for m in view["buttons"])
        assert view["perspective"] == view["to_move"] == pos.to_move
        choice = rng.choice(view["moves"])
        kinds.add(choice.split()[0])
        played.append(choice)
        view = move(client, view, choice)
        pos.play(choice)
        assert view["position"] == pos.to_json()
    assert {"land", "road", "fort"} <= kinds
    assert view["outcome"] == pos.outcome and view["moves"] == [] and view["targets"] == {}
    assert view["status"] == f"Game over: {view['outcome_text']}"
    assert "(R20.10)" in view["outcome_text"] and any(w in view["outcome_text"] for w in pos.outcome["winners"])
    assert [h["move"] for h in view["history"]] == played
    refused(client.post(f"/api/games/{view['id']}/move", json={"move": "pass"}), 409, "over")


def test_bots_play_cannonball_through_the_bots_of_the_app(client):
    view = deal(client, seats=("random", "greedy", "ismcts:iterations=30"))
    gid = view["id"]
    played = []
    while view["bot_to_move"] and len(played) < 12:
        view = client.post(f"/api/games/{gid}/bot").json()
        played.append(view["played"])
    assert [p.split()[0] for p in played[:3]] == ["land"] * 3  # R20.4: the landing round, in seat order
    assert [h["seat"] for h in view["history"][:3]] == ["france", "spain", "portugal"]
    refused(client.post(f"/api/games/{gid}/move", json={"move": "end"}), 409, "is a bot")


def test_a_bot_that_cannot_play_the_game_is_refused_when_the_game_is_dealt(client):
    refused(client.post("/api/games", json={"ruleset": "cannonball", "players": 2, "seats": ["human",
                                                                                            "openspiel-ismcts"]}),
            400, "bot spec 'openspiel-ismcts'", "hides nothing")
    refused(client.post("/api/games", json={"ruleset": "cannonball", "players": 2, "seats": ["human", "nobot"]}),
            400, "nobot")


def test_undo_takes_back_the_persons_move_and_the_bots_move_after_it(client):
    view = deal(client)
    first = view["position"]
    view = move(client, view, view["moves"][0])
    assert view["bot_to_move"]
    view = client.post(f"/api/games/{view['id']}/bot").json()
    assert len(view["history"]) == 2 and view["can_undo"]
    back = client.post(f"/api/games/{view['id']}/undo").json()
    assert back["position"] == first and back["history"] == []


def test_moves_that_break_a_rule_are_refused_with_the_rule_and_lose_nothing(client):
    view = deal(client, seats=("human", "human"))
    view = move(client, view, "land a1")
    view = move(client, view, view["moves"][-1])
    gid = view["id"]
    assert view["moves"] == ["road a1"]  # R20.4: the first build is a road on the landing space
    refused(client.post(f"/api/games/{gid}/move", json={"move": "fort a1"}), 400, "fort a1", "R20.4")
    refused(client.post(f"/api/games/{gid}/move", json={"move": "rod a1"}), 400, "unknown word 'rod'")
    refused(client.post(f"/api/games/{gid}/move", json={"move": "spain: road a1"}), 400, "spain", "france")
    refused(client.post(f"/api/games/{gid}/move", json={"move": 3}), 400, "move 3")
    assert client.get(f"/api/games/{gid}").json()["position"] == view["position"]
    view = move(client, view, "France: ROAD A1")  # any case; the history writes it as the engine does
    assert view["history"][-1] == {"seat": "france", "move": "road a1",
                                   "words": "France lays a road on the grass of a1; France may now lay a second "
                                            "grass road."}


def test_a_position_uploaded_plays_on_but_has_no_record(client):
    pos = CannonballPosition.deal(make_cannonball(players=3, countries="england,france,spain"), 11)
    for _ in range(3):
        pos.play(pos.move_strings()[0])
    r = client.post("/api/games", json={"position": pos.dumps(), "seats": ["human", "random", "human"]})
    assert r.status_code == 201, r.text
    view = r.json()
    assert view["position"] == pos.to_json() and view["to_move"] == "england" and view["moves"] == ["road " +
                                                                                                   view["moves"][0][5:]]
    assert [s["player"] for s in view["seats"]] == ["england", "france", "spain"]
    assert view["has_record"] is False
    refused(client.get(f"/api/games/{view['id']}/record"), 409, "uploaded position")
    assert client.get(f"/api/games/{view['id']}/position").json() == pos.to_json()


# -- the tiles of a deal (R20.2) and the countries (R20.3) ---------------------------------------------------


def test_r20_2_a_deal_draws_from_the_tiles_sent_built_in_names_or_a_tile_files_content(client):
    view = deal(client, tiles=["meadow", POND], countries=["england", "portugal"])
    island = view["position"]["island"]["rows"]
    drawn = {tuple(half) for half in (island[:6], island[6:])}
    assert any(rotate_rows(POND["rows"], turns) in drawn for turns in range(4))
    assert any(rotate_rows(load_tile("meadow").rows, turns) in drawn for turns in range(4))
    assert view["position"]["players"] == ["england", "portugal"] and view["to_move"] == "england"
    assert view["rules"]["tiles"] == ["meadow", "pond wood"]
    # a record deals again by names, and a tile sent with the request has none: no record, and why
    assert view["has_record"] is False
    refused(client.get(f"/api/games/{view['id']}/record"), 409, "tiles sent with the request", "download the position")
    named = deal(client, tiles="bluffs,ridge")
    assert named["rules"]["tiles"] == ["bluffs", "ridge"] and named["has_record"] is True


@pytest.mark.parametrize(("params", "words"), [
    ({"tiles": ["meadow", "/etc/passwd"]}, ("tiles: '/etc/passwd' is not a built-in tile", "reads no file")),
    ({"tiles": ["meadow", "../tiles/meadow.json"]}, ("not a built-in tile",)),
    ({"tiles": ["meadow"]}, ("tiles", "1 tile for 2 players", "R20.1")),
    ({"tiles": ["meadow", "meadow"]}, ("tiles", "twice", "R20.2")),
    ({"tiles": ["meadow", {**POND, "rows": POND["rows"][:5]}]}, ("tile 'pond-wood.json'", "6 rows, not 5")),
    ({"tiles": ["meadow", {**POND, "rows": ["gggggx", *POND["rows"][1:]]}]}, ("rows[0] column 6", "'x'")),
    ({"tiles": ["meadow", {**POND, "format": "tile/2"}]}, ("'format' must be 'cannonball-tile/1'",)),
    ({"tiles": 7}, ("tiles", "must be a list")),
    ({"countries": ["france", "prussia"]}, ("countries", "'prussia' is not a country", "R20.3")),
    ({"countries": ["france", "france"]}, ("countries", "france twice", "R20.3")),
    ({"players": 5}, ("players 5", "2, 3 or 4 players", "R20.1")),
    # a parameter of another game is a key a deal of Cannonball Colony does not take
    ({"board": "oro"}, ("unknown key 'board'", "a deal of Cannonball Colony takes ruleset, seats, seed, players, "
                                               "countries, tiles")),
    ({"gods": True}, ("unknown key 'gods'",)),
])
def test_a_bad_deal_is_refused_in_one_line_naming_the_field(client, params, words):
    body = {"ruleset": "cannonball", "players": 2, "seats": ["human", "human"], **params}
    if "players" in params and isinstance(params["players"], int):
        body["seats"] = ["human"] * 2
    refused(client.post("/api/games", json=body), 400, *words)


def test_a_key_a_deal_does_not_take_is_refused_with_the_keys_it_takes(client):
    body = {"ruleset": "cannonball", "players": 2, "seats": ["human", "random"], "seed": 7, "bogus": 1}
    refused(client.post("/api/games", json=body), 400, "request body: unknown key 'bogus'",
            "a deal of Cannonball Colony takes ruleset, seats, seed, players, countries, tiles")
    refused(client.post("/api/positions", json={"ruleset": "cannonball", "players": 3, "seats": []}), 400,
            "unknown key 'seats'", "an editor's deal of Cannonball Colony takes ruleset, seed, players, countries, "
                                   "tiles")
    refused(client.post("/api/tables", json={"ruleset": "cannonball", "hand": [], "tile": "meadow"}), 400,
            "unknown key 'tile'", "a table of Cannonball Colony takes")
    view = deal(client, seats=("human", "human"))
    refused(client.post(f"/api/games/{view['id']}/move", json={"move": view["moves"][0], "space": "c2"}), 400,
            "unknown key 'space'", "a move takes move")
    assert client.get(f"/api/games/{view['id']}").json()["history"] == []


@pytest.mark.parametrize(("field", "message"), [
    ("players", "players: must be 2, 3 or 4, not null"),
    ("countries", "countries: must be COUNTRY,..., not null"),
    ("tiles", "tiles: must be a list of built-in tile names and tile files' content (JSON objects), not null"),
    ("seed", "seed: must be a whole number from 0 to 2**64-1, not null"),
    ("ruleset", "ruleset: must be one of kanaloa, kahuna, cannonball, not null"),
])
def test_a_null_is_refused_naming_the_field_never_taken_for_the_default(client, field, message):
    """``players: null`` is no player count: it is refused, not dealt as the default 4 players (and then refused
    as two seats for four players)."""
    body = {"ruleset": "cannonball", "players": 2, "seats": ["human", "random"], "seed": 7, field: None}
    assert refused(client.post("/api/games", json=body), 400, message).startswith(f"{field}:")
    body.pop("seats")
    refused(client.post("/api/positions", json=body), 400, message)


def test_a_tile_sent_in_a_request_naming_a_key_twice_is_refused(client):
    """A tile file's content in a deal's ``tiles`` or sent to be checked is read as ``--tiles`` reads a file: the
    request's body is read strictly, so the key named twice is not lost before the tile's reader sees it."""
    tile = json.dumps(POND).replace('"name": ', '"name": "other", "name": ', 1)
    twice = "the key 'name' appears twice in one object"
    body = '{"ruleset": "cannonball", "players": 2, "seats": ["human", "human"], "tiles": ["meadow", ' + tile + "]}"
    refused(client.post("/api/games", content=body.encode()), 400, twice)
    refused(client.post("/api/files/cannonball/check", content=tile.encode()), 400, twice)
    rows = json.dumps(POND).replace('"rows": ', '"rows": [], "rows": ', 1)
    refused(client.post("/api/files/cannonball/check", content=rows.encode()), 400, "the key 'rows' appears twice")
    # the same tile, said once, is taken
    assert client.post("/api/files/cannonball/check", json=POND).status_code == 200


# -- tile files: the tile editor's server side ---------------------------------------------------------------


def test_tile_files_are_described_served_and_read_by_the_engines_own_reader(client, tmp_path):
    info = client.get("/api/files/cannonball").json()
    assert info["format"] == "cannonball-tile/1" and info["size"] == 6 and info["builtin"] == list(BUILTIN_TILES)
    assert [(t["letter"], t["name"]) for t in info["terrains"]] == [("g", "grass"), ("f", "forest"), ("l", "lake"),
                                                                     ("m", "mountain")]
    meadow = client.get("/api/files/cannonball/meadow").json()
    assert meadow["rows"] == list(load_tile("meadow").rows) and meadow["format"] == "cannonball-tile/1"
    refused(client.get("/api/files/cannonball/nope"), 404, "no such built-in tile")
    checked = client.post("/api/files/cannonball/check", json=POND).json()
    assert checked["file"] == POND and checked["name"] == "pond wood"
    assert checked["summary"] == "tile pond wood: 6 x 6 spaces, 6 grass, 27 forest, 2 lake, 1 mountain"
    saved = tmp_path / "pond.json"  # the file the editor downloads is one the command line reads
    saved.write_text(json.dumps(checked["file"]))
    tile = load_tile(str(saved))
    assert tile.rows == tuple(POND["rows"]) and tile.description == "a pond in a wood"
    assert client.post("/api/files/cannonball/check", json={**POND, "description": ""}).json()["file"] == {
        "format": "cannonball-tile/1", "name": "pond wood", "rows": POND["rows"]}


@pytest.mark.parametrize(("tile", "message"), [
    ({**POND, "name": ""}, "tile 'tile.json': 'name' must be a non-empty string, not ''"),
    ({**POND, "rows": POND["rows"][:5]}, "tile 'pond-wood.json': 'rows' must hold 6 rows, not 5"),
    ({**POND, "rows": ["ggggg", *POND["rows"][1:]]},
     "tile 'pond-wood.json': rows[0] must be 6 letters, not 5 ('ggggg')"),
    ({**POND, "rows": [*POND["rows"][:2], "ff.lff", *POND["rows"][3:]]},
     "tile 'pond-wood.json': rows[2] column 3 (row 3 from the top) is '.' (a tile has no outside spaces); a space is "
     "g (grass), f (forest), l (lake), m (mountain)"),
    ({**POND, "format": "cannonball-tile/2"},
     "tile 'pond-wood.json': 'format' must be 'cannonball-tile/1', not 'cannonball-tile/2'"),
    ({**POND, "colour": "green"},
     "tile 'pond-wood.json': unknown field 'colour'; a tile has format, name, description, rows"),
])
def test_a_bad_tile_file_is_refused_with_the_readers_one_line(client, tile, message):
    assert refused(client.post("/api/files/cannonball/check", json=tile), 400) == message


def test_a_game_without_files_of_its_own_and_an_unknown_game_have_none(client):
    refused(client.get("/api/files/kanaloa"), 404, "no data files of its own", "board editor")
    refused(client.get("/api/files/chess"), 404, "no game 'chess'")
    refused(client.post("/api/files/cannonball/check", content=b"[1]"), 400, "JSON object")


# -- the position editor -------------------------------------------------------------------------------------


def test_the_position_editor_deals_and_checks_a_position_of_any_game(client):
    dealt = client.post("/api/positions", json={"ruleset": "cannonball", "players": 3, "seed": 4})
    assert dealt.status_code == 201, dealt.text
    pos = CannonballPosition.deal(make_cannonball(players=3), 4)
    assert dealt.json()["text"] == pos.dumps() + "\n" and dealt.json()["moves"] == pos.move_strings()
    doc = pos.to_json()
    landing = pos.move_strings()[0].split()[1]
    doc.update(ships={"france": landing}, to_move="spain")  # france's ship put on the island by hand (R20.4)
    edited = client.post("/api/positions/check", json={"position": json.dumps(doc)}).json()
    assert edited["kind"] == "position" and edited["to_move"] == "spain"
    assert edited["position"]["ships"] == {"france": landing} and edited["moves"][0].startswith("land ")
    doc["to_move"] = "portugal"  # R20.4: spain has not landed, yet it could have
    refused(client.post("/api/positions/check", json={"position": doc}), 400, "ships.spain", "R20.4")
    doc.update(to_move="spain", supply=3)
    refused(client.post("/api/positions/check", json={"position": doc}), 400, "supply")
    refused(client.post("/api/positions/check", json={"position": "{"}), 400, "position", "JSON")
    kanaloa = client.post("/api/positions", json={"seed": 2}).json()  # the default game, with every card known
    assert kanaloa["ruleset"] == "kanaloa" and kanaloa["viewer"] is None and kanaloa["moves"]


# -- the Table mode ------------------------------------------------------------------------------------------


def test_the_table_mode_does_not_serve_a_game_that_hides_nothing(client):
    why = "nothing is hidden in Cannonball Colony: every player sees the whole position (R20)"
    refused(client.post("/api/tables", json={"ruleset": "cannonball", "players": 2}), 400, "ruleset 'cannonball'",
            why, "Play mode")
    pos = CannonballPosition.deal(make_cannonball(players=2), 1)
    refused(client.post("/api/tables", json={"position": pos.to_json()}), 400, why)


# -- the promises of the server --------------------------------------------------------------------------------


def test_fuzzed_cannonball_requests_get_4xx_json_errors_never_a_500(client):
    game = deal(client, seats=("human", "human"))["id"]
    rng = random.Random(2027)
    values = [None, True, 0, -1, 2**70, 1.5, "", "meadow", "/etc/passwd", "land a1", "fire z99", "road a1",
              "end", "pass", "france", "prussia", "x" * 300, [], ["meadow", "bluffs"], {}, POND,
              {**POND, "rows": "gggggg"}, ["meadow", {"format": "cannonball-tile/1"}], [None], "2", 3]
    endpoints = [("/api/games", "game"), (f"/api/games/{game}/move", "move"), ("/api/files/cannonball/check", "tile"),
                 ("/api/positions", "game"), ("/api/positions/check", "position"), ("/api/tables", "game")]
    keys = ["players", "countries", "tiles", "seats", "seed", "move", "position", "format", "name", "rows",
            "description"]
    for _ in range(300):
        path, _kind = rng.choice(endpoints)
        body = {k: rng.choice(values) for k in rng.sample(keys, rng.randrange(0, 5))}
        if rng.random() < 0.7:
            body["ruleset"] = "cannonball"
        r = client.post(path, content=json.dumps(body).encode())
        assert r.status_code < 500, (path, body, r.text)
        if r.status_code >= 400:
            assert "\n" not in r.json()["error"]


def test_the_web_apps_own_files_never_name_the_game():
    """The web app serves Cannonball Colony through the registry (its ``web`` face); none of its own modules,
    scripts, page or style sheet names the game."""
    files = [p for p in WEB.rglob("*") if p.is_file() and p.suffix in (".py", ".js", ".html", ".css")]
    assert len(files) > 10
    for path in files:
        named = [n for n, line in enumerate(path.read_text("utf-8").splitlines(), 1) if re.search("cannonball", line,
                                                                                                   re.I)]
        assert not named, (str(path.relative_to(ROOT)), named)


# -- records and hints -------------------------------------------------------------------------------------------


def test_a_finished_game_has_a_record_that_replays_step_by_step_and_deals_the_game_again(client):
    view = deal(client, seats=("human", "greedy"))
    rng = random.Random(2)
    while view["outcome"] is None:
        if view["bot_to_move"]:
            view = client.post(f"/api/games/{view['id']}/bot").json()
        else:
            view = move(client, view, rng.choice(view["moves"]))
    r = client.get(f"/api/games/{view['id']}/record")
    assert r.status_code == 200, r.text
    record = r.json()
    assert record["format"] == "kanaloa-game/1" and record["moves"] == [h["move"] for h in view["history"]]
    replayed = client.post("/api/replays", json={"records": json.dumps(record)}).json()
    assert replayed["ruleset"] == "cannonball" and replayed["length"] == len(record["moves"])
    assert replayed["position"] == CannonballPosition.deal(make_cannonball(players=2), 7).to_json()
    last = client.get(f"/api/replays/{replayed['id']}", params={"at": replayed["length"]}).json()
    assert last["position"] == view["position"] and last["outcome_text"] == view["outcome_text"]
    again = client.post("/api/games", json={"record": json.dumps(record), "seats": ["human", "greedy"]}).json()
    assert again["position"] == view["position"] and again["has_record"]
    # a record names its tiles; one naming a file on the server's disk is refused before anything is read
    for path in ("/etc/passwd", "../../tiles/meadow.json"):
        named = json.dumps({**record, "tiles": ["meadow", path]})
        for endpoint, body in (("/api/replays", {"records": named}), ("/api/games", {"record": named,
                                                                                      "seats": ["human"] * 2})):
            refused(client.post(endpoint, json=body), 400, "record line 1: field 'tiles'", "not a built-in tile",
                    "reads no file")


def test_a_hint_for_the_person_to_move_draws_its_plan(client):
    view = deal(client)
    r = client.post(f"/api/games/{view['id']}/hint", json={"iterations": 60, "seed": 1})
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["move"] in view["moves"] and hint["plan"][0] == hint["move"] and "<svg" in hint["svg"]
