"""Saved games in a real browser: the game's address, a reload, a server started again, a move made on a view
another tab has moved on from, and the list of saved games (resume, rename, delete).

A real server (uvicorn in a thread, as in ``test_web_browser``) on a
database file, stopped and started again on the same file; headless
Chromium clicks as a person would.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request

import pytest

from browser_helpers import WAIT, chromium, missing, skip_without_chromium, wait_for
from saved_helpers import told_game
from test_web_browser import ARTIFACTS, all_css, body_data, click, css, legal_moves, set_value, shot

pytestmark = pytest.mark.browser

skip_without_chromium()


class LiveServer:
    """uvicorn in a thread on a free port of 127.0.0.1, its games in the database ``db``."""

    def __init__(self, db, hint_iterations: int = 100) -> None:
        import uvicorn

        from kanaloa.interfaces.web.app import create_app
        from kanaloa.interfaces.web.games import HintBudget
        from kanaloa.interfaces.web.limits import RequestCaps
        from kanaloa.interfaces.web.server import listen
        from kanaloa.interfaces.web.store import Store

        self.sock = listen("127.0.0.1", 0)
        self.store = Store(db)
        caps = RequestCaps(iterations=max(hint_iterations, 100_000))
        app = create_app(HintBudget(iterations=hint_iterations, caps=caps), store=self.store)
        config = uvicorn.Config(app, log_level="warning", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + WAIT
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def post(self, path: str, body: dict) -> dict:
        req = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as answer:
            return json.load(answer)

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.url + path, timeout=60) as answer:
            return json.load(answer)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()
        self.store.close()


@pytest.fixture
def browser(request):
    if missing():
        pytest.fail(f"CI must run the browser tests, but {missing()}")
    driver = chromium()
    yield driver
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / f"failed-{request.node.name}.png"))
    driver.quit()


def load(driver, url: str) -> None:
    driver.get(url)
    wait_for(driver, lambda d: body_data(d, "ready") == "1")


def tell(driver, move: str, count: int) -> None:
    set_value(driver, "#table-typed input", move)
    click(driver, "#table-typed button")
    wait_for(driver, lambda d: body_data(d, "table-moves") == str(count) or css(d, "#table-error").text)
    assert not css(driver, "#table-error").text, css(driver, "#table-error").text


def text_of(driver, selector: str) -> str:
    """The text of the element ``selector`` finds, read in one call (a list redrawn meanwhile is no stale element)."""
    return driver.execute_script("const e = document.querySelector(arguments[0]); return e ? e.textContent : '';",
                                 selector)


def history(driver, mode: str) -> list[str]:
    """The moves the mode's history lists (shown or folded away), without their numbers."""
    return [li.get_attribute("data-move") for li in all_css(driver, f"#{mode}-history li")]


def test_a_game_survives_a_reload_and_a_restarted_server_at_its_address(browser, tmp_path):
    db = tmp_path / "games.sqlite3"
    first = LiveServer(db)
    try:
        game = first.post("/api/games", {"seats": ["human"] * 4, "seed": 5})
        load(browser, f"{first.url}/#game={game['id']}")
        wait_for(browser, lambda d: css(d, "#play-game").is_displayed() and body_data(d, "play") == "your-turn")
        for count in (1, 2, 3):
            moves = legal_moves(browser)
            browser.execute_script("arguments[0].click()", css(browser, f'#play-moves button[data-move="{moves[0]}"]'))
            wait_for(browser, lambda d, c=count: body_data(d, "play-moves") == str(c))
        shown = history(browser, "play")
        browser.refresh()
        wait_for(browser, lambda d: body_data(d, "ready") == "1" and body_data(d, "play-moves") == "3")
        assert history(browser, "play") == shown and browser.current_url.endswith(f"#game={game['id']}")
    finally:
        first.stop()
    second = LiveServer(db)  # another server, another port, the same database
    try:
        load(browser, f"{second.url}/#game={game['id']}")
        wait_for(browser, lambda d: body_data(d, "play-moves") == "3")
        assert history(browser, "play") == shown
        # another tab moves the game on: this page's move is refused, and it shows the game as it is now
        ahead = second.post(f"/api/games/{game['id']}/move", {"move": legal_moves(browser)[0], "version": 3})
        stale = legal_moves(browser)[-1]
        browser.execute_script("arguments[0].click()", css(browser, f'#play-moves button[data-move="{stale}"]'))
        wait_for(browser, lambda d: "shown as it is now" in css(d, "#play-error").text)
        assert "changed since your view" in css(browser, "#play-error").text
        assert history(browser, "play") == [f"{h['seat']}: {h['move']}" for h in ahead["history"]]
    finally:
        second.stop()


def test_a_table_with_undo_and_redo_and_the_list_of_saved_games(browser, tmp_path):
    db = tmp_path / "games.sqlite3"
    srv = LiveServer(db)
    try:
        hand, told = told_game(seed=41)
        table = srv.post("/api/tables", {"viewer": "green", "hand": hand})
        srv.post("/api/games", {"seats": ["human", "greedy", "greedy", "greedy"], "seed": 2})
        load(browser, f"{srv.url}/#table={table['id']}")
        wait_for(browser, lambda d: css(d, "#table-game").is_displayed())
        for count, move in enumerate(told[:6], start=1):
            tell(browser, move, count)
        assert css(browser, "#table-redo").get_attribute("disabled") is not None
        # what the table was told, in words: the last move above, and each move of the history
        told_words = [h["words"] for h in srv.get(f"/api/tables/{table['id']}")["history"]]
        assert css(browser, "#table-last").text == f"Last move: {told_words[-1]}"
        assert [w.get_attribute("textContent") for w in all_css(browser, "#table-history li .words")] == told_words
        click(browser, "#table-undo")
        wait_for(browser, lambda d: body_data(d, "table-moves") == "5")
        assert told[5] in css(browser, "#table-redo").get_attribute("title")
        browser.refresh()  # what was taken back is kept for the redo
        wait_for(browser, lambda d: body_data(d, "ready") == "1" and body_data(d, "table-moves") == "5")
        click(browser, "#table-redo")
        wait_for(browser, lambda d: body_data(d, "table-moves") == "6")
        assert history(browser, "table") == told[:6]
        # the list: both games, the last changed first; rename, resume, delete
        click(browser, '#modes button[data-mode="saved"]')
        wait_for(browser, lambda d: len(all_css(d, "#saved-list li")) == 2)
        items = all_css(browser, "#saved-list li")
        assert items[0].get_attribute("data-id") == table["id"]
        assert "you play green" in items[0].text and "6 moves" in items[0].text
        assert str(db) in css(browser, "#saved-where").text
        game_id = items[1].get_attribute("data-id")
        shot(browser, "web-saved")
        css(browser, f'#saved-list li[data-id="{table["id"]}"] .saved-rename').click()
        prompt = wait_for(browser, lambda d: d.switch_to.alert)
        prompt.send_keys("Friday table")
        prompt.accept()
        wait_for(browser, lambda d: "Friday table" in text_of(d, f'#saved-list li[data-id="{table["id"]}"]'))
        css(browser, f'#saved-list li[data-id="{game_id}"] .saved-delete').click()
        wait_for(browser, lambda d: d.switch_to.alert).accept()
        wait_for(browser, lambda d: len(all_css(d, "#saved-list li")) == 1)
        css(browser, f'#saved-list li[data-id="{table["id"]}"] .saved-resume').click()
        wait_for(browser, lambda d: css(d, "#table-game").is_displayed() and body_data(d, "table-moves") == "6")
        assert browser.current_url.endswith(f"#table={table['id']}")
        # an address of a game that is gone says so in the list
        load(browser, f"{srv.url}/#game={game_id}")
        wait_for(browser, lambda d: "cannot resume the game of this address" in css(d, "#saved-error").text)
        assert css(browser, "#saved").is_displayed()
    finally:
        srv.stop()


def test_a_long_hint_is_stopped_from_the_page_and_shows_the_best_move_found(browser, tmp_path):
    srv = LiveServer(tmp_path / "games.sqlite3", hint_iterations=1_000_000)
    try:
        game = srv.post("/api/games", {"seats": ["human"] * 4, "seed": 5})
        load(browser, f"{srv.url}/#game={game['id']}")
        wait_for(browser, lambda d: body_data(d, "play") == "your-turn")
        click(browser, "#play-hint")
        click(browser, "#play-hint-stop")
        box = wait_for(browser, lambda d: css(d, "#play-hint-box").is_displayed() and css(d, "#play-hint-box"))
        assert "stopped early" in box.text and css(browser, "#play-hint-box .hint-move").text in legal_moves(browser)
    finally:
        srv.stop()
