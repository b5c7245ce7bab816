"""The web app keeps its games in a database (docs/web.md "Saved games"): through Starlette's test client.

Every game of the Play and Table modes, of every game and rule set, is
saved with its first move and comes back whole on a server started again
on the same database; each change is committed before its answer; a change
made on a view the game has moved on from (another tab, another server) is
refused; the Table mode's undo and redo; the list of saved games with
rename, delete and download; the schema's migration from its first
version; databases the app cannot use; and the bounded pool of searches
(a hint cancelled, a server too busy to take another).
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import threading
import time

import pytest
from starlette.testclient import TestClient

from cli_helpers import run, user_error
from kanaloa.interfaces.web.analyses import Busy
from kanaloa.interfaces.web.app import create_app
from kanaloa.interfaces.web.games import HintBudget, new_table
from kanaloa.interfaces.web.limits import RequestCaps
from kanaloa.interfaces.web.saving import played_moves, setup_of, status_of
from kanaloa.interfaces.web.searches import SearchPool
from kanaloa.interfaces.web.store import MIGRATIONS, SCHEMA_VERSION, Missing, Stale, Store, StoreError
from kanaloa.position import Position
from saved_helpers import next_play_step, told_game
from test_web_api import SMALL_BOARD, refused


def server(path, iterations: int = 100) -> TestClient:
    """A server on the database at ``path`` (a new one each call: a restart, or a second server)."""
    return TestClient(create_app(HintBudget(iterations=iterations), store=Store(path)),
                      raise_server_exceptions=False)


@pytest.fixture
def db(tmp_path):
    return tmp_path / "games.sqlite3"


def ok(response, status: int = 200) -> dict:
    assert response.status_code == status, response.text
    return response.json()


def advance(client, view: dict, steps: int, rng: random.Random) -> dict:
    """Move a Play game on by ``steps`` requests (bots' and a person's random moves)."""
    for _ in range(steps):
        step = next_play_step(view, rng)
        if step is None:
            break
        view = ok(client.post(f"/api/games/{view['id']}/{step[0]}", json=step[1]))
    return view


def same_game(a: dict, b: dict) -> None:
    for key in ("position", "history", "to_move", "moves", "outcome", "version", "name", "rules"):
        assert a[key] == b[key], key


DEALS = [
    {"seats": ["human", "easy", "random", "medium"], "seed": 3},
    {"players": 3, "preset": "tabletop", "seats": ["greedy", "human", "random"], "seed": 4},
    {"players": 2, "seats": ["human", "greedy"], "seed": 5},
    {"gods": True, "seats": ["human", "random", "random", "random"], "seed": 6},
    {"ruleset": "kahuna", "seats": ["human", "greedy"], "seed": 7},
    {"ruleset": "cannonball", "players": 3, "seats": ["human", "random", "random"], "seed": 8},
    {"board": SMALL_BOARD, "players": 3, "seats": ["human", "random", "random"], "seed": 9},
]


@pytest.mark.parametrize("deal", DEALS, ids=["4p", "3p-tabletop", "2p", "gods", "kahuna", "cannonball", "board"])
def test_a_play_game_comes_back_whole_after_a_restart(db, deal):
    rng = random.Random(1)
    with server(db) as first:
        view = advance(first, ok(first.post("/api/games", json=deal), 201), 40, rng)
        gid = view["id"]
        assert view["version"] == len(view["history"]) > 0
    with server(db) as again:  # a new server on the same database
        back = ok(again.get(f"/api/games/{gid}"))
        same_game(view, back)
        assert back["seats"] == view["seats"]  # with the levels the seats were given as
        assert [s["level"] for s in back["seats"]] == [w if w in ("easy", "medium") else None for w in deal["seats"]]
        # and it goes on: moves, an undo, a hint, the position's download
        view = advance(again, back, 6, rng)
        undone = ok(again.post(f"/api/games/{gid}/undo", json={"version": view["version"]}))
        assert undone["version"] == view["version"] + 1
        assert again.get(f"/api/games/{gid}/position").status_code == 200
    with server(db) as third:
        same_game(undone, ok(third.get(f"/api/games/{gid}")))


def test_a_finished_game_comes_back_with_its_record_and_its_analysis_can_start(db):
    rng = random.Random(2)
    with server(db) as first:
        view = advance(first, ok(first.post("/api/games", json={"ruleset": "kahuna", "seats": ["greedy", "greedy"],
                                                                  "seed": 11}), 201), 400, rng)
        assert view["outcome"]
        record = ok(first.get(f"/api/games/{view['id']}/record"))
    with server(db) as again:
        assert ok(again.get(f"/api/games/{view['id']}/record")) == record
        assert ok(again.post(f"/api/games/{view['id']}/analysis", json={"iterations": 20}), 202)["state"] in (
            "queued", "running", "done")


def test_a_table_told_a_whole_game_comes_back_after_a_restart_at_every_point(db):
    hand, told = told_game(seed=21)
    with server(db) as first:
        view = ok(first.post("/api/tables", json={"viewer": "green", "hand": hand}), 201)
        tid = view["id"]
    for start in range(0, len(told), 40):  # a restart every 40 records
        with server(db) as srv:
            back = ok(srv.get(f"/api/tables/{tid}"))
            assert [h["move"] for h in back["history"]] == told[:start]
            for move in told[start:start + 40]:
                view = ok(srv.post(f"/api/tables/{tid}/move", json={"move": move, "version": back["version"]}))
                back = view
    assert view["outcome"] and len(view["history"]) == len(told)
    with server(db) as last:
        same_game(view, ok(last.get(f"/api/tables/{tid}")))


def test_a_table_on_an_uploaded_board_and_from_a_viewer_position_come_back(db):
    with server(db) as first:
        on_board = ok(first.post("/api/tables", json={"board": SMALL_BOARD, "players": 3, "viewer": "red",
                                                      "hand": ["ALFA", "BETA", "GAMA", "DELT"]}), 201)
        seen = Position.new(4, seed=3).as_viewer("blue").dumps()
        uploaded = ok(first.post("/api/tables", json={"position": seen}), 201)
        moved = ok(first.post(f"/api/tables/{on_board['id']}/move", json={"move": "reveal ALFA"}))
    with server(db) as again:
        same_game(moved, ok(again.get(f"/api/tables/{on_board['id']}")))
        same_game(uploaded, ok(again.get(f"/api/tables/{uploaded['id']}")))


def records_of(full: Position, moves: list[str], viewer: str) -> list[str]:
    """The full moves ``moves``, played from ``full``, as ``viewer`` writes them down (what a game's history
    shows a person)."""
    written = []
    for move in moves:
        written.append(full.record_of(move, viewer))
        full.play(move)
    return written


def test_every_move_is_committed_before_its_answer(db):
    with server(db) as srv:
        view = ok(srv.post("/api/games", json={"seats": ["human", "greedy", "greedy", "greedy"], "seed": 2}), 201)
        rng = random.Random(3)
        for _ in range(12):
            step = next_play_step(view, rng)
            view = ok(srv.post(f"/api/games/{view['id']}/{step[0]}", json=step[1]))
            # another connection, as another process would read the file, sees the move already
            with sqlite3.connect(db) as other:
                moves = [m for (m,) in other.execute("SELECT move FROM moves WHERE game = ? ORDER BY ply",
                                                      (view["id"],))]
                version, head = other.execute("SELECT version, head FROM games WHERE id = ?", (view["id"],)).fetchone()
            # the database keeps the full moves; the view shows red's records of them
            assert records_of(Position.new(4, seed=2), moves, "red") == [h["move"] for h in view["history"]]
            assert head == len(moves)
            assert version == view["version"]
    with sqlite3.connect(db) as other:
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


# -- no lost update ---------------------------------------------------------------------------------------------


def test_two_servers_on_one_database_refuse_a_move_made_on_a_stale_view(db):
    with server(db) as a, server(db) as b:
        view = ok(a.post("/api/games", json={"seats": ["human"] * 4, "seed": 5}), 201)
        gid = view["id"]
        seen_by_b = ok(b.get(f"/api/games/{gid}"))
        moved = ok(a.post(f"/api/games/{gid}/move", json={"move": view["moves"][0], "version": view["version"]}))
        # b's browser still shows version 0: its move is refused, and nothing is lost
        message = refused(b.post(f"/api/games/{gid}/move", json={"move": seen_by_b["moves"][1],
                                                                  "version": seen_by_b["version"]}), 409,
                          "version 0", "changed since your view", "reload")
        assert "version 1" in message
        now = ok(b.get(f"/api/games/{gid}"))
        same_game(moved, now)
        # on the view it has now, b moves, and a sees that move
        after = ok(b.post(f"/api/games/{gid}/move", json={"move": now["moves"][0], "version": now["version"]}))
        same_game(after, ok(a.get(f"/api/games/{gid}")))
        # blue, the next person, sees neither card: the history shows it red's and green's reveals as blue
        # writes them down
        assert after["perspective"] == "blue" and [h["move"] for h in after["history"]] == ["reveal", "reveal"]


def test_two_servers_racing_on_one_table_never_lose_an_acknowledged_move(db):
    hand, told = told_game(seed=22)
    with server(db) as a, server(db) as b:
        tid = ok(a.post("/api/tables", json={"viewer": "green", "hand": hand}), 201)["id"]
        acknowledged: list[str] = []
        rng = random.Random(4)
        for move in told[:60]:
            srv = rng.choice([a, b])
            view = ok(srv.get(f"/api/tables/{tid}"))
            other = b if srv is a else a
            # the other server tells the same move first half of the time: this one's is then stale
            if rng.random() < 0.5:
                ok(other.post(f"/api/tables/{tid}/move", json={"move": move, "version": view["version"]}))
                refused(srv.post(f"/api/tables/{tid}/move", json={"move": move, "version": view["version"]}), 409,
                        "changed since your view")
            else:
                ok(srv.post(f"/api/tables/{tid}/move", json={"move": move, "version": view["version"]}))
            acknowledged.append(move)
            assert [h["move"] for h in ok(other.get(f"/api/tables/{tid}"))["history"]] == acknowledged


def test_two_tabs_of_one_server_a_stale_undo_is_refused(db):
    with server(db) as srv:
        view = ok(srv.post("/api/games", json={"seats": ["human"] * 4, "seed": 5}), 201)
        gid = view["id"]
        first = ok(srv.post(f"/api/games/{gid}/move", json={"move": view["moves"][0], "version": 0}))
        ok(srv.post(f"/api/games/{gid}/move", json={"move": first["moves"][0], "version": 1}))
        refused(srv.post(f"/api/games/{gid}/undo", json={"version": 1}), 409, "version 1", "at version 2")
        assert len(ok(srv.get(f"/api/games/{gid}"))["history"]) == 2
        refused(srv.post(f"/api/games/{gid}/move", json={"move": "x", "version": "2"}), 400, "version '2'",
                "a whole number")
        refused(srv.post(f"/api/games/{gid}/move", json={"move": "x", "version": -1}), 400, "version -1")


# -- undo and redo at a table -----------------------------------------------------------------------------------


def test_a_mis_told_move_is_corrected_by_undo_and_a_move_taken_back_is_told_again_by_redo(db):
    hand, told = told_game(seed=23)
    with server(db) as srv:
        tid = ok(srv.post("/api/tables", json={"viewer": "green", "hand": hand}), 201)["id"]
        view = None
        for move in told[:10]:
            view = ok(srv.post(f"/api/tables/{tid}/move", json={"move": move}))
        assert view["can_redo"] is False and view["redo"] is None
        refused(srv.post(f"/api/tables/{tid}/redo", json={}), 409, "nothing to redo")
        back = ok(srv.post(f"/api/tables/{tid}/undo", json={}))
        back = ok(srv.post(f"/api/tables/{tid}/undo", json={}))
        assert back["can_redo"] and back["redo"] == told[8]
        again = ok(srv.post(f"/api/tables/{tid}/redo", json={}))
        assert again["redo"] == told[9] and len(again["history"]) == 9
    with server(db) as restarted:  # the move taken back is kept for a redo across a restart
        kept = ok(restarted.get(f"/api/tables/{tid}"))
        assert kept["can_redo"] and kept["redo"] == told[9]
        redone = ok(restarted.post(f"/api/tables/{tid}/redo", json={"version": kept["version"]}))
        same = {k: redone[k] for k in ("position", "history")}
        assert same == {k: view[k] for k in ("position", "history")}
        # a new move after an undo drops what was taken back
        ok(restarted.post(f"/api/tables/{tid}/undo", json={}))
        ok(restarted.post(f"/api/tables/{tid}/undo", json={}))
        corrected = ok(restarted.post(f"/api/tables/{tid}/move", json={"move": told[8]}))
        assert corrected["can_redo"] is False
    with server(db) as third:
        assert ok(third.get(f"/api/tables/{tid}"))["can_redo"] is False


# -- the list of saved games ------------------------------------------------------------------------------------


def test_the_list_of_saved_games_rename_delete_and_download(db):
    with server(db) as srv:
        game = ok(srv.post("/api/games", json={"seats": ["human", "greedy", "greedy", "greedy"], "seed": 1}), 201)
        time.sleep(0.01)
        table = ok(srv.post("/api/tables", json={"viewer": "blue", "hand": ["ALOA", "ORO", "DALI", "DALI"]}), 201)
        listing = ok(srv.get("/api/saved"))
        assert listing["db"] == str(db)
        assert [g["id"] for g in listing["games"]] == [table["id"], game["id"]]  # the last changed first
        entry = listing["games"][0]
        assert entry["kind"] == "table" and entry["viewer"] == "blue" and entry["moves"] == 0
        assert entry["name"].startswith("Table: Kanaloa") and entry["to_move"] == "red" and entry["over"] is False
        assert listing["games"][1]["seats"] == ["human", "greedy", "greedy", "greedy"]
        # a move makes the game the last changed
        view = advance(srv, game, 3, random.Random(1))
        top = ok(srv.get("/api/saved"))["games"][0]
        assert top["id"] == game["id"] and top["moves"] == len(view["history"])
        renamed = ok(srv.post(f"/api/saved/{game['id']}/rename", json={"name": "  Friday   at Ana's "}))
        assert renamed["name"] == "Friday at Ana's"
        assert ok(srv.get(f"/api/games/{game['id']}"))["name"] == "Friday at Ana's"
        refused(srv.post(f"/api/saved/{game['id']}/rename", json={"name": "   "}), 400, "name", "1 to 80")
        refused(srv.post(f"/api/saved/{game['id']}/rename", json={"name": "x" * 81}), 400, "81 characters")
        refused(srv.post(f"/api/saved/{game['id']}/rename", json={"name": 7}), 400, "name 7")
        refused(srv.post(f"/api/saved/{game['id']}/rename", json={}), 400, "name")
        refused(srv.post("/api/saved/0123456789abcdef/rename", json={"name": "x"}), 404, "no saved game")
        # download: what the game began from, its moves and where it is now
        download = srv.get(f"/api/saved/{game['id']}/download")
        assert download.status_code == 200 and 'filename="Friday-at-Ana-s.json"' in download.headers[
            "content-disposition"]
        doc = download.json()
        assert doc["format"] == "kanaloa-saved-game/1" and doc["kind"] == "game" and doc["name"] == "Friday at Ana's"
        full_moves = [m["move"] for m in doc["moves"]]  # in full; the view shows red's records of them
        assert records_of(Position.from_json(doc["start"]), full_moves, "red") == [h["move"] for h in view["history"]]
        replayed = Position.from_json(doc["start"])
        for m in doc["moves"]:
            replayed.play(m["move"])
        assert replayed.to_json() == doc["position"]
        assert ok(srv.get(f"/api/saved/{table['id']}/download"))["undone"] == []
        # delete: gone from the list, from the server and from the database
        assert ok(srv.delete(f"/api/saved/{game['id']}")) == {"deleted": game["id"]}
        assert [g["id"] for g in ok(srv.get("/api/saved"))["games"]] == [table["id"]]
        refused(srv.get(f"/api/games/{game['id']}"), 404, "no game", "deleted")
        refused(srv.delete(f"/api/saved/{game['id']}"), 404, "no saved game")
        refused(srv.get(f"/api/saved/{game['id']}/download"), 404, "no saved game")
    with sqlite3.connect(db) as other:
        assert other.execute("SELECT COUNT(*) FROM moves WHERE game = ?", (game["id"],)).fetchone()[0] == 0


def test_a_game_of_one_mode_is_not_found_in_the_other(db):
    with server(db) as srv:
        game = ok(srv.post("/api/games", json={"seats": ["human"] * 4}), 201)
        table = ok(srv.post("/api/tables", json={"hand": ["ALOA", "ORO", "DALI", "DALI"]}), 201)
    with server(db) as again:
        refused(again.get(f"/api/tables/{game['id']}"), 404, "no table")
        refused(again.get(f"/api/games/{table['id']}"), 404, "no game")
        assert ok(again.get(f"/api/games/{game['id']}"))["kind"] == "game"


def test_in_memory_the_games_are_listed_and_kept_while_the_server_runs():
    with TestClient(create_app(HintBudget(iterations=50))) as srv:
        game = ok(srv.post("/api/games", json={"seats": ["human"] * 4}), 201)
        listing = ok(srv.get("/api/saved"))
        assert listing["db"] is None and [g["id"] for g in listing["games"]] == [game["id"]]


# -- the schema -------------------------------------------------------------------------------------------------


def test_a_database_of_the_first_schema_is_migrated_and_its_games_play_on(tmp_path):
    path = tmp_path / "old.sqlite3"
    hand, told = told_game(seed=24)
    table = new_table({"viewer": "green", "hand": hand})
    for move in told[:15]:
        table.play(move)
    with sqlite3.connect(path) as old:  # a database as the first version of the schema wrote it
        old.executescript(MIGRATIONS[0])
        old.execute("PRAGMA user_version = 1")
        old.execute("INSERT INTO games (id, kind, name, ruleset, created, updated, setup, status, position, version) "
                    "VALUES ('00aa11bb22cc33dd', 'table', 'old table', 'kanaloa', 1.0, 2.0, ?, ?, ?, 15)",
                    (json.dumps(setup_of(table)), json.dumps(status_of(table)), json.dumps(table.pos.to_json())))
        old.executemany("INSERT INTO moves (game, ply, move, seat) VALUES ('00aa11bb22cc33dd', ?, ?, NULL)",
                        [(i, m.move) for i, m in enumerate(played_moves(table))])
    with server(path) as srv:
        view = ok(srv.get("/api/tables/00aa11bb22cc33dd"))
        assert [h["move"] for h in view["history"]] == told[:15] and view["name"] == "old table"
        assert view["can_redo"] is False  # head: every move of the first schema was played
        ok(srv.post("/api/tables/00aa11bb22cc33dd/move", json={"move": told[15], "version": 15}))
        ok(srv.post("/api/tables/00aa11bb22cc33dd/undo", json={}))
        assert ok(srv.get("/api/tables/00aa11bb22cc33dd"))["redo"] == told[15]
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.execute("SELECT head FROM games").fetchone()[0] == 15


def test_a_new_database_gets_every_migration(db):
    Store(db).close()
    with sqlite3.connect(db) as made:
        assert made.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == len(MIGRATIONS)
        columns = {row[1] for row in made.execute("PRAGMA table_info(games)")}
    assert {"head", "version", "setup", "status", "position"} <= columns


def test_databases_the_app_cannot_use_are_refused_in_one_line(tmp_path):
    newer = tmp_path / "newer.sqlite3"
    with sqlite3.connect(newer) as made:
        made.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="saved by a newer kanaloa"):
        Store(newer)
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as made:
        made.execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(StoreError, match="a database of something else"):
        Store(other)
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all, just some words\n" * 100)
    with pytest.raises(StoreError, match="not a database"):
        Store(text)
    assert text.read_text().startswith("not a database")  # left as it was


def test_serve_refuses_a_database_it_cannot_use_in_one_line(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("just some words\n" * 100)
    user_error(run("serve", "--port", "0", "--db", str(text)), f"--db {text}", "not a database")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    user_error(run("serve", "--port", "0", "--db", str(blocker / "games.sqlite3")), "--db", "cannot make its folder")


# -- searches: bounded, cancelled -------------------------------------------------------------------------------


def ask_a_long_hint(srv) -> tuple[str, threading.Thread, list]:
    """A table, and a hint of a million iterations asked on it in a thread; its answer goes into the list."""
    tid = ok(srv.post("/api/tables", json={"position": Position.new(4, seed=3).as_viewer("red").dumps()}), 201)["id"]
    answers: list = []
    asking = threading.Thread(target=lambda: answers.append(srv.post(f"/api/tables/{tid}/hint",
                                                                      json={"iterations": 1_000_000})))
    asking.start()
    return tid, asking, answers


LONG = HintBudget(iterations=100, caps=RequestCaps(iterations=1_000_000))  # a server that takes a long hint


def test_a_long_hint_is_cancelled_and_answers_with_what_it_found():
    app = create_app(LONG)
    with TestClient(app) as srv:
        tid, asking, answers = ask_a_long_hint(srv)
        deadline = time.monotonic() + 30
        while not ok(srv.post(f"/api/tables/{tid}/hint/cancel", json={}))["cancelled"]:
            assert time.monotonic() < deadline, "the hint did not start"
            time.sleep(0.05)
        asking.join(timeout=60)
        assert not asking.is_alive(), "the cancelled hint did not end"
        hint = ok(answers[0])
        assert hint["interrupted"] is True and hint["iterations"] < 1_000_000 and hint["move"]
        refused(srv.post(f"/api/tables/{tid}/hint/cancel", json={"x": 1}), 400, "unknown key 'x'")
        assert ok(srv.post(f"/api/tables/{tid}/hint/cancel", json={}))["cancelled"] == 0


def test_the_search_pool_refuses_at_once_when_full_and_after_waiting_its_time():
    async def scenario() -> list[str]:
        pool = SearchPool(threads=1, waiting=1, wait=0.3)
        release = threading.Event()
        first = asyncio.ensure_future(pool.run(lambda: release.wait(10)))
        await asyncio.sleep(0.05)
        waiting = asyncio.ensure_future(pool.run(lambda: "second"))
        await asyncio.sleep(0.05)
        messages = []
        try:  # one running and one waiting: a third is refused at once
            await pool.run(lambda: "third")
        except Busy as exc:
            messages.append(str(exc))
        try:  # the waiting one gives up after its 0.3 s
            await waiting
        except Busy as exc:
            messages.append(str(exc))
        release.set()
        assert await first is True
        assert await pool.run(lambda: "free again") == "free again"
        assert pool.status() == {"running": 0, "waiting": 0, "threads": 1, "queue": 1}
        pool.shutdown()
        return messages

    full, waited = asyncio.run(scenario())
    assert "1 searches running and 1 waiting" in full and "try again" in full
    assert "no search thread came free in 0.3 s" in waited


def test_a_long_hint_of_one_game_does_not_hold_up_the_moves_of_another():
    app = create_app(LONG)
    with TestClient(app) as srv:
        tid, asking, answers = ask_a_long_hint(srv)
        deadline = time.monotonic() + 30
        while not app.state.searches.running:
            assert time.monotonic() < deadline, "the hint did not start"
            time.sleep(0.02)
        # while it thinks, another game is played: twenty moves, each answered
        view = ok(srv.post("/api/games", json={"seats": ["human"] * 4, "seed": 9}), 201)
        for _ in range(20):
            view = ok(srv.post(f"/api/games/{view['id']}/move", json={"move": view["moves"][0]}))
        assert asking.is_alive() and not answers, "the hint ended before the other game's moves"
        ok(srv.post(f"/api/tables/{tid}/hint/cancel", json={}))
        asking.join(timeout=60)
        assert ok(answers[0])["interrupted"] is True


def test_a_write_on_a_version_another_server_has_moved_past_is_refused_and_writes_nothing(db):
    table = new_table({"viewer": "red", "hand": ["ALOA", "ORO", "DALI", "DALI"]})
    a, b = Store(db), Store(db)
    ident = a.create("table", "t", "kanaloa", setup_of(table), [], table.pos.to_json(), status_of(table))
    table.play("reveal ORO")
    assert b.record(ident, 0, played_moves(table), [], table.pos.to_json(), status_of(table)) == 1
    table.play("green: reveal")
    with pytest.raises(Stale, match="version 0, now 1"):  # a read version 0 and has not seen b's write
        a.record(ident, 0, played_moves(table), [], table.pos.to_json(), status_of(table))
    assert [m.move for m in a.load(ident).played] == ["reveal ORO"]
    with pytest.raises(Missing):
        a.record("ffffffffffffffff", 0, [], [], {}, {})
    a.close()
    b.close()


# -- what the review of the database found ----------------------------------------------------------------------


def test_a_change_the_database_cannot_take_is_a_503_and_is_not_shown_afterwards(db):
    with TestClient(create_app(HintBudget(iterations=50), store=Store(db, wait=0.2)),
                    raise_server_exceptions=False) as srv:
        view = ok(srv.post("/api/games", json={"seats": ["human"] * 4, "seed": 5}), 201)
        other = sqlite3.connect(db, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another server writing, past this one's wait
        try:
            message = refused(srv.post(f"/api/games/{view['id']}/move", json={"move": view["moves"][0],
                                                                               "version": 0}), 503,
                              "cannot be used now", "nothing was changed")
            assert "database is locked" in message
        finally:
            other.execute("ROLLBACK")
            other.close()
        now = ok(srv.get(f"/api/games/{view['id']}"))
        assert now["history"] == [] and now["version"] == 0  # the move the database refused is not shown
        ok(srv.post(f"/api/games/{view['id']}/move", json={"move": view["moves"][0], "version": 0}))


def test_a_change_waiting_for_a_busy_database_holds_up_no_other_request(db):
    with server(db) as first:
        one = ok(first.post("/api/games", json={"seats": ["human"] * 4, "seed": 1}), 201)
        two = ok(first.post("/api/games", json={"seats": ["human"] * 4, "seed": 2}), 201)
    with TestClient(create_app(HintBudget(iterations=50), store=Store(db, wait=30)),
                    raise_server_exceptions=False) as srv:
        ok(srv.get(f"/api/games/{one['id']}"))
        other = sqlite3.connect(db, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another server's change: this one's waits for it, holding the store
        answers: dict = {}
        moving = threading.Thread(target=lambda: answers.update(move=srv.post(
            f"/api/games/{one['id']}/move", json={"move": one["moves"][0], "version": 0})))
        reading = threading.Thread(target=lambda: answers.update(read=srv.get(f"/api/games/{two['id']}")))
        moving.start()
        time.sleep(0.2)
        reading.start()  # a game this server does not hold yet: read from the database, after the change
        time.sleep(0.2)
        assert ok(srv.get("/api/boards"))["builtin"]  # answered meanwhile: the event loop does not wait
        assert moving.is_alive() and reading.is_alive() and not answers
        other.execute("ROLLBACK")
        other.close()
        moving.join(timeout=60)
        reading.join(timeout=60)
        assert ok(answers["move"])["version"] == 1 and ok(answers["read"])["id"] == two["id"]


def open_together(path, start: threading.Barrier, made: list) -> None:
    """Open a store on ``path`` once every opener is ready; what came of it goes into ``made``."""
    start.wait()
    try:
        made.append(Store(path))
    except StoreError as exc:
        made.append(exc)


def test_two_servers_starting_at_once_on_a_new_database_both_start(tmp_path):
    for attempt in range(8):
        path, start, made = tmp_path / f"new-{attempt}.sqlite3", threading.Barrier(2), []
        both = [threading.Thread(target=open_together, args=(path, start, made)) for _ in range(2)]
        for t in both:
            t.start()
        for t in both:
            t.join()
        assert all(isinstance(m, Store) for m in made), made
        for m in made:
            m.close()


def test_a_hint_cancel_on_the_other_kinds_path_is_a_404(db):
    with server(db) as first:
        gid = ok(first.post("/api/games", json={"seats": ["human"] * 4}), 201)["id"]
    with server(db) as again:  # not held by this server yet
        refused(again.post(f"/api/tables/{gid}/hint/cancel", json={}), 404, "no table")
        refused(again.post("/api/games/0123456789abcdef/hint/cancel", json={}), 404, "no game")
        assert ok(again.post(f"/api/games/{gid}/hint/cancel", json={}))["cancelled"] == 0


def test_a_saved_game_whose_bots_ask_more_than_this_servers_cap_is_refused(db):
    generous = HintBudget(iterations=50, caps=RequestCaps(iterations=500_000))
    with TestClient(create_app(generous, store=Store(db))) as first:
        gid = ok(first.post("/api/games", json={"seats": ["human", "ismcts:iterations=200000", "random", "random"]}),
                 201)["id"]
    with server(db) as strict:  # the default cap, 100,000
        refused(strict.get(f"/api/games/{gid}"), 409, "seat 2 (green)", "over this server's cap of 100000",
                "--max-iterations")


def test_a_name_with_a_control_character_is_refused(db):
    with server(db) as srv:
        gid = ok(srv.post("/api/games", json={"seats": ["human"] * 4}), 201)["id"]
        refused(srv.post(f"/api/saved/{gid}/rename", json={"name": "ok\x00x"}), 400, "control character")
        assert ok(srv.post(f"/api/saved/{gid}/rename", json={"name": "tab\there"}))["name"] == "tab here"
