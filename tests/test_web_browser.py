"""``kanaloa serve`` in a real browser: headless Chromium driven by Selenium.

A real server (uvicorn on a free port of 127.0.0.1, in a thread) and
Debian's ``chromium`` and ``chromium-driver``.  The tests click as a person
would: a whole game against bots, a hint, a real table followed with another
player's face-down discard, a board built in the editor and played on, and
a replay; a replay analysed and its chart clicked to a move, a finished game
analysed in Play, and the Think first switch; a whole game of Kahuna (R16)
against a bot, with removals paid with two cards and skipped draws, and a
Kahuna table; and a game of Might of
the Gods (R14) with its tokens used by clicking, and a table with the gods
set up from its tokens and told token moves; a game of Cannonball Colony
(R20) on a tile made in the tile editor, with a hint, played by clicking
the spaces of its island, a recorded one replayed, and a position of it
dealt, checked and played from the position editor.  A failing test leaves a
screenshot in ``test-artifacts/``; every test also leaves one of its mode
there (the pictures of docs/web.md come from them).

Without chromium and its driver the tests are skipped, saying so; under CI
(``CI`` set) they fail instead, since ``.ci/run`` installs both.
"""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path

import pytest

from browser_helpers import WAIT, chromium, missing, skip_without_chromium, wait_for
from kanaloa.play.tournament import make_tournament, play_game
from kanaloa.position import Position
from kanaloa.rules.board import load_board

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"

skip_without_chromium()


@pytest.fixture(scope="module")
def server():
    """A real ``kanaloa serve``: uvicorn on a free port, in a thread; its base URL."""
    import uvicorn

    from kanaloa.interfaces.web.app import create_app
    from kanaloa.interfaces.web.games import HintBudget
    from kanaloa.interfaces.web.server import listen

    if missing():
        pytest.fail(f"CI must run the browser tests, but {missing()}")
    sock = listen("127.0.0.1", 0)
    config = uvicorn.Config(create_app(HintBudget(iterations=300)), log_level="warning", lifespan="off")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    srv.should_exit = True
    thread.join(timeout=10)
    sock.close()


@pytest.fixture(scope="module")
def downloads(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def browser(downloads):
    driver = chromium(downloads)
    yield driver
    driver.quit()


@pytest.fixture
def page(request, server, browser):
    """The app freshly loaded; a screenshot in test-artifacts/ when the test fails."""
    browser.get(server + "/")
    wait_for(browser, lambda d: d.find_element("css selector", "body").get_attribute("data-ready") == "1")
    yield browser
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / f"failed-{request.node.name}.png"))


def css(driver, selector: str):
    return driver.find_element("css selector", selector)


def all_css(driver, selector: str):
    return driver.find_elements("css selector", selector)


def shot(driver, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def click(driver, selector: str) -> None:
    element = wait_for(driver, lambda d: next((e for e in all_css(d, selector) if e.is_displayed()), False))
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
    element.click()


# A point of a link's drawing where a click reaches the link (not a label or an island drawn over it), as an
# offset from the centre of the link's box: a point along its line or path, tried from the middle outwards.
_LINK_POINT = """
const g = arguments[0];
const shape = g.querySelector("line, path, polyline");
const box = g.getBoundingClientRect();
const centre = [box.left + box.width / 2, box.top + box.height / 2];
if (!shape || !shape.getTotalLength) return [0, 0];
const length = shape.getTotalLength();
const ctm = shape.getScreenCTM();
for (const t of [0.5, 0.4, 0.6, 0.3, 0.7, 0.45, 0.55, 0.35, 0.65, 0.25, 0.75, 0.2, 0.8]) {
  const p = shape.getPointAtLength(t * length);
  const x = ctm.a * p.x + ctm.c * p.y + ctm.e, y = ctm.b * p.x + ctm.d * p.y + ctm.f;
  const hit = document.elementFromPoint(x, y);
  if (hit && g.contains(hit)) return [Math.round(x - centre[0]), Math.round(y - centre[1])];
}
return [0, 0];
"""


def click_link(driver, selector: str) -> None:
    """Click a link of the board picture where it shows."""
    from selenium.webdriver.common.action_chains import ActionChains

    g = wait_for(driver, lambda d: next(iter(all_css(d, selector)), False))
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", g)
    dx, dy = driver.execute_script(_LINK_POINT, g)
    ActionChains(driver, duration=0).move_to_element_with_offset(g, dx, dy).click().perform()


def body_data(driver, key: str) -> str | None:
    return css(driver, "body").get_attribute(f"data-{key}")


def set_value(driver, selector: str, value: str) -> None:
    element = css(driver, selector)
    element.clear()
    element.send_keys(value)


def set_seat(driver, i: int, who: str) -> None:
    """Seat ``i`` of the New-game form: ``human`` (You), a level's name, or any other text typed in as the bot spec
    of an Advanced… seat."""
    from selenium.webdriver.support.ui import Select

    choice = Select(css(driver, f"#play-seats [name=who{i}]"))
    if who in ("human", "easy", "medium", "strong"):
        choice.select_by_value(who)
    else:
        choice.select_by_value("advanced")
        set_value(driver, f"#play-seats [name=seat{i}]", who)


# -- Play: clicking one legal move ------------------------------------------------------------


def legal_moves(driver) -> list[str]:
    """The moves of the page's *Legal moves* buttons (read in one call, not one per button)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#play-moves button'), (b) => b.dataset.move);")


def bare(move: str) -> str:
    return move.split(": ", 1)[1] if ": " in move else move


def click_move(driver, move: str, click=click, click_board_link=None) -> None:
    """Make ``move`` as a person does: a link then the cards, a face-up card, the deck, or a button; ``click``
    presses an element (a selector) and ``click_board_link`` a link of the Play board (by its name), with the
    mouse unless a test of touch gives its taps."""
    if click_board_link is None:
        def click_board_link(driver, link: str) -> None:
            click_link(driver, f'#play-board g.link[data-link="{link}"]')
    text = bare(move)
    word, _, rest = text.partition(" ")
    if word == "remove":  # R7's removal: the bridge; Kahuna's (R16.3): the bridge, then the two cards
        link, _, cards = rest.partition("/")
        click_board_link(driver, link)
        for card in cards.split("+") if cards else []:
            click(driver, f'#play-hand button[data-hand-card="{card}"]')
    elif "/" in text:  # a build: the link on the board, then the cards in the hand (or the KANALOA token, R14.5)
        link, cards = text.split("/")
        click_board_link(driver, link)
        for card in cards.split("+"):
            click(driver, "#play-kanaloa" if card == "KANALOA" else f'#play-hand button[data-hand-card="{card}"]')
        if all_css(driver, "#play-actions button[class^=with-]"):  # two players: which color builds
            click(driver, f"#play-actions button.with-{move.split(':')[0]}")
    elif word == "reveal":
        click(driver, f'#play-hand button[data-hand-card="{rest}"]')
    elif word == "take":
        click(driver, f'#play-faceup button[data-card="{rest}"]')
    elif word == "draw":
        click(driver, "#play-deck")
    elif word == "discard":
        click(driver, "#play-discard")
        click(driver, f'#play-hand button[data-hand-card="{rest}"]')
    elif word == "ku":  # R14.6: the player, then a card of the hand shown
        click(driver, f'#play-actions button[data-token="KU"][data-target="{rest}"]')
    elif word in ("pele", "lono"):  # R14.7, R14.8
        click(driver, f'#play-actions button[data-token="{word.upper()}"]')
    elif word == "steal":
        click(driver, f'#play-actions button[data-steal="{rest}"]')
    elif word == "give":  # PELE's gift: a card of the hand
        click(driver, f'#play-hand button[data-hand-card="{rest.split(" ")[1]}"]')
    else:
        click(driver, f"#play-{word}")


def choose(moves: list[str], rng: random.Random) -> str:
    """A person in a hurry: removals when due, builds now and then, else ends the turn."""
    for kind in ("remove ", "reveal "):
        found = [m for m in moves if bare(m).startswith(kind)]
        if found:
            return rng.choice(found)
    builds = [m for m in moves if "/" in m and "+" not in m]
    ending = [m for m in moves if bare(m).split(" ")[0] in ("take", "draw", "end", "pass")]
    if builds and (rng.random() < 0.5 or not ending):
        return rng.choice(builds)
    if ending:
        return rng.choice(ending)
    return rng.choice(moves)


def wait_for_person(driver) -> str:
    """Wait until a person may move or the game is over; the state."""
    return wait_for(driver, lambda d: body_data(d, "play") in ("your-turn", "over") and body_data(d, "play"),
                    timeout=120)


def play_by_clicking(driver, rng: random.Random, most: int = 2000) -> int:
    """Click moves until the game is over; how many the person made."""
    made = 0
    while wait_for_person(driver) != "over":
        before = body_data(driver, "play-moves")
        click_move(driver, choose(legal_moves(driver), rng))
        wait_for(driver, lambda d, b=before: body_data(d, "play-moves") != b or css(d, "#play-error").text)
        assert not css(driver, "#play-error").text, css(driver, "#play-error").text
        made += 1
        assert made < most, "the game did not end"
    return made


def start_play(driver, seats: list[str], players: int, seed: int, board: str = "oro") -> None:
    from selenium.webdriver.support.ui import Select

    Select(css(driver, "#play-setup [name=players]")).select_by_visible_text(str(players))
    for i, spec in enumerate(seats):
        set_seat(driver, i, spec)
    Select(css(driver, "#play-setup [name=board]")).select_by_value(board)
    set_value(driver, "#play-setup [name=seed]", str(seed))
    set_value(driver, "#play-setup [name=pause]", "0")
    click(driver, "#play-start")
    wait_for(driver, lambda d: css(d, "#play-game").is_displayed())


# -- Table: following a game played at a real table ---------------------------------------------


def start_table(driver) -> None:
    """Start the table set up on the page and wait until its game shows."""
    click(driver, "#table-start")
    wait_for(driver, lambda d: css(d, "#table-game").is_displayed())


def told(driver, count: int) -> None:
    """Wait until the table has been told ``count`` moves, or shows an error, which fails the test."""
    wait_for(driver, lambda d: body_data(d, "table-moves") == str(count) or css(d, "#table-error").text)
    assert not css(driver, "#table-error").text, css(driver, "#table-error").text


def tell_link(driver, link: str, move: str) -> None:
    """Tell the table a move on ``link`` (a build or a removal): the link on the board, then ``move`` offered
    for it."""
    click_link(driver, f'#table-board g.link[data-link="{link}"]')
    click(driver, f'#table-picker button[data-pick="{move}"]')


def tell_take(driver, card: str, refill: str) -> None:
    """Tell the table a take of the face-up ``card``, and the card the deck turned up in its place."""
    click(driver, f'#table-faceup button[data-card="{card}"]')
    click(driver, f'#table-picker button[data-pick="{refill}"]')


def table_history(driver) -> list[str]:
    """The moves the table's history lists, without their numbers."""
    return [li.get_attribute("data-move") for li in all_css(driver, "#table-history li")]


# -- the tests -----------------------------------------------------------------------------------


def test_a_whole_game_against_three_bots_by_clicking_with_a_hint(page):
    start_play(page, ["human", "random", "random", "random"], 4, seed=5)
    wait_for_person(page)
    click(page, "#play-hint")
    box = "#play-hint-box"
    hinted = wait_for(page, lambda d: css(d, f"{box} .hint-move").text if css(d, box).is_displayed() else False)
    assert hinted in legal_moves(page)
    assert "Plan:" in css(page, "#play-hint-box").text and "%" in css(page, "#play-hint-box").text
    rng = random.Random(4)
    made = 0
    while wait_for_person(page) != "over" and made < 12:  # a screenshot of a game under way
        before = body_data(page, "play-moves")
        click_move(page, choose(legal_moves(page), rng))
        wait_for(page, lambda d, b=before: body_data(d, "play-moves") != b)
        made += 1
    if body_data(page, "play") == "your-turn":
        click(page, "#play-hint")
        wait_for(page, lambda d: css(d, "#play-hint-box").is_displayed())
        shot(page, "web-play")
    made += play_by_clicking(page, rng)
    summary = css(page, "#play-summary")
    assert summary.is_displayed() and "wins on" in summary.text
    assert len(all_css(page, "#play-summary li")) == 4
    assert made > 10
    assert not css(page, "#play-download-record").get_attribute("disabled")


def test_the_new_game_form_offers_levels_strong_by_default_and_advanced_takes_a_spec(page):
    from selenium.webdriver.support.ui import Select

    Select(css(page, "#play-setup [name=players]")).select_by_visible_text("4")
    choices = [Select(css(page, f"#play-seats [name=who{i}]")) for i in range(4)]
    assert [o.text for o in choices[0].options] == ["You", "Easy", "Medium", "Strong", "Advanced…"]
    assert [c.first_selected_option.text for c in choices] == ["You", "Strong", "Strong", "Strong"]
    assert css(page, "#play-seats [name=who1]").get_attribute("title") == (
        "The hint engine's own search, about a second a move: hard to beat. (hint:iterations=60000)")
    assert not any(e.is_displayed() for e in all_css(page, "#play-seats input"))  # no spec to type yet
    assert not css(page, "#play-seat-help").is_displayed()
    choices[1].select_by_value("advanced")  # a spec of one's own, with the bots listed as help
    spec = css(page, "#play-seats [name=seat1]")
    assert spec.is_displayed() and css(page, "#play-seat-help").is_displayed()
    assert "greedy" in css(page, "#play-seat-help").text and "seer" not in css(page, "#play-seat-help").text
    shot(page, "web-new-game")
    set_value(page, "#play-seats [name=seat1]", "ismcts:iterations=0")
    set_seat(page, 2, "easy")
    set_value(page, "#play-setup [name=seed]", "3")
    click(page, "#play-start")  # a bad spec: one line naming the seat, and the form stays
    wait_for(page, lambda d: css(d, "#play-setup .error").text)
    assert css(page, "#play-setup .error").text == ("seat 2 (green): bot spec 'ismcts:iterations=0': key 'iterations' "
                                                     "must be at least 1, not '0'")
    assert css(page, "#play-setup").is_displayed()
    Select(css(page, "#play-setup [name=players]")).select_by_visible_text("3")  # the choices made stay
    assert css(page, "#play-seats [name=seat1]").get_attribute("value") == "ismcts:iterations=0"
    assert Select(css(page, "#play-seats [name=who2]")).first_selected_option.text == "Easy"
    set_value(page, "#play-seats [name=seat1]", "ismcts:iterations=20")
    click(page, "#play-start")
    wait_for(page, lambda d: css(d, "#play-game").is_displayed())
    seats = page.execute_script("return kanaloa.play.view.seats")
    assert seats == [{"player": "red", "who": "human", "level": None},
                     {"player": "green", "who": "ismcts:iterations=20", "level": None},
                     {"player": "blue", "who": "greedy", "level": "easy"}]
    click(page, "#play-new")
    set_seat(page, 1, "strong")
    set_seat(page, 2, "medium")
    click(page, "#play-start")
    wait_for(page, lambda d: css(d, "#play-game").is_displayed())
    seats = page.execute_script("return kanaloa.play.view.seats")
    assert [(s["who"], s["level"]) for s in seats] == [("human", None), ("hint:iterations=60000", "strong"),
                                                       ("hint:iterations=1500", "medium")]
    click(page, "#play-new")  # the bots stop


def test_undo_takes_a_move_back_in_the_browser(page):
    start_play(page, ["human", "random", "random", "random"], 4, seed=9)
    wait_for_person(page)
    click_move(page, legal_moves(page)[0])
    wait_for(page, lambda d: body_data(d, "play-moves") == "4" and body_data(d, "play") == "your-turn")
    click(page, "#play-undo")
    wait_for(page, lambda d: body_data(d, "play-moves") == "0")
    assert all(bare(m).startswith("reveal ") for m in legal_moves(page))


def test_following_a_table_with_another_players_face_down_discard(page):
    from selenium.webdriver.support.ui import Select

    click(page, '#modes button[data-mode="table"]')
    Select(css(page, "#table-setup [name=players]")).select_by_visible_text("3")
    Select(css(page, "#table-setup [name=viewer]")).select_by_value("green")
    for card in ("ALOA", "ORO", "DALI", "DALI"):
        click(page, f'#table-hand-picker button[data-pick="{card}"]')
    start_table(page)
    click(page, "#table-reveal")  # red chose a card
    told(page, 1)
    click(page, '#table-hand-cards button[data-hand-card="ORO"]')  # green, the viewer, reveals ORO
    told(page, 2)
    click(page, "#table-reveal")  # blue
    told(page, 3)
    click(page, "#table-faceup-record")
    for card in ("KULU", "ORO", "MOKU", "ELOI"):
        click(page, f'#table-picker button[data-pick="{card}"]')
    told(page, 4)
    tell_link(page, "ALOA-BAFI", "red: ALOA-BAFI/BAFI")  # red builds, paying BAFI
    told(page, 5)
    tell_take(page, "MOKU", "RASI")  # red takes MOKU; the deck turns up RASI
    told(page, 6)
    click(page, "#table-deck")  # green draws, and sees the card
    click(page, '#table-picker button[data-pick="PAHU"]')
    told(page, 7)
    click(page, "#table-discard")  # blue discards face-down, unseen
    told(page, 8)
    history = table_history(page)
    assert history[-3:] == ["red: take MOKU refill RASI", "draw PAHU", "blue: discard"]
    click(page, "#table-deck")  # blue draws
    told(page, 9)
    assert "red's turn" in css(page, "#table-prompt").text
    typed = css(page, "#table-typed input")
    typed.send_keys("red: draw")
    click(page, "#table-typed button")
    told(page, 10)
    shot(page, "web-table-before-hint")
    assert not css(page, "#table-hint").get_attribute("disabled")  # green to move: a hint
    click(page, "#table-hint")
    wait_for(page, lambda d: css(d, "#table-hint-box").is_displayed())
    shot(page, "web-table")


def add_island(driver, x: float, y: float) -> None:
    """Click the editor's sea at (x, y) in board units (the canvas is 100 x 75)."""
    from selenium.webdriver.common.action_chains import ActionChains

    svg = css(driver, "#editor-svg")
    box = svg.rect
    ActionChains(driver).move_to_element_with_offset(
        svg, int((x / 100 - 0.5) * box["width"]), int((y / 75 - 0.5) * box["height"])).click().perform()


def test_a_board_built_in_the_editor_is_checked_downloaded_and_played_on(page, downloads):
    click(page, '#modes button[data-mode="editor"]')
    points = [(15, 15), (50, 12), (32, 40), (72, 38), (50, 62)]
    for x, y in points:
        add_island(page, x, y)
    assert len(all_css(page, "#editor-svg circle")) == 5
    click(page, '#editor-svg circle[data-island="ISLE1"]')
    name = css(page, "#editor-island-name")
    name.clear()
    name.send_keys("ALFA")
    click(page, "#editor-check")  # no links yet: the server says what is wrong
    wait_for(page, lambda d: css(d, "#editor-error").text)
    assert "links" in css(page, "#editor-error").text
    click(page, '#editor-tools button[data-tool="link"]')
    for a, b in [("ALFA", "ISLE2"), ("ALFA", "ISLE3"), ("ISLE2", "ISLE3"), ("ISLE2", "ISLE4"), ("ISLE3", "ISLE4"),
                 ("ISLE3", "ISLE5"), ("ISLE4", "ISLE5")]:
        click(page, f'#editor-svg circle[data-island="{a}"]')
        click(page, f'#editor-svg circle[data-island="{b}"]')
    assert len(all_css(page, "#editor-svg line")) == 7
    set_value(page, "#editor-name", "pentagon")
    set_value(page, "#editor-cpi", "4")
    click(page, "#editor-check")
    wait_for(page, lambda d: css(d, "#editor-ok").text or css(d, "#editor-error").text)
    assert "5 islands, 7 links, 20 cards" in css(page, "#editor-ok").text, css(page, "#editor-error").text
    shot(page, "web-editor")
    click(page, "#editor-download")  # a board file that --board reads
    saved = downloads / "pentagon.json"
    wait_for(page, lambda d: saved.is_file() and saved.stat().st_size > 0)
    board = load_board(str(saved))
    assert board.islands == ("ALFA", "ISLE2", "ISLE3", "ISLE4", "ISLE5") and board.n_links == 7
    click(page, "#editor-play")
    wait_for(page, lambda d: css(d, "#play-setup").is_displayed())
    start_play(page, ["human", "random", "random"], 3, seed=2, board="edited")
    assert len(all_css(page, "#play-board g.island")) == 5
    assert body_data(page, "play") in ("your-turn", "bot")
    play_by_clicking(page, random.Random(7))
    assert "wins on" in css(page, "#play-summary").text


def test_a_recorded_game_replays_step_by_step(page, tmp_path):
    t = make_tournament(["greedy", "random", "random", "random"], 4, 3)
    records = tmp_path / "games.jsonl"
    records.write_text("\n".join(play_game(t, g).dumps() for g in range(4)) + "\n")
    click(page, '#modes button[data-mode="replay"]')
    css(page, "#replay-file").send_keys(str(records))
    set_value(page, "#replay-setup [name=game]", "2")
    click(page, "#replay-start")
    wait_for(page, lambda d: css(d, "#replay-game").is_displayed())
    assert css(page, "#replay-at").text.startswith("Move 0 of")
    for _ in range(3):
        click(page, "#replay-next")
    wait_for(page, lambda d: css(d, "#replay-at").text.startswith("Move 3 of"))
    moves = json.loads(records.read_text().splitlines()[2])["moves"]
    assert moves[2] in css(page, "#replay-at").text
    click(page, "#replay-last")
    wait_for(page, lambda d: css(d, "#replay-status").text.startswith("Game over"))
    click(page, "#replay-first")
    wait_for(page, lambda d: css(d, "#replay-at").text.startswith("Move 0 of"))
    for _ in range(60):
        click(page, "#replay-next")
    wait_for(page, lambda d: css(d, "#replay-at").text.startswith("Move 60 of"))
    shot(page, "web-replay-steps")


def start_kahuna(driver, seats: list[str], seed: int) -> None:
    from selenium.webdriver.support.ui import Select

    Select(css(driver, "#play-setup [name=ruleset]")).select_by_value("kahuna")
    assert not css(driver, "#play-setup [name=players]").is_displayed()  # Kahuna is for two
    assert Select(css(driver, "#play-setup [name=board]")).first_selected_option.get_attribute("value") == "kahuna"
    assert [e.text for e in all_css(driver, "#play-seats .color")] == ["white", "black"]
    for i, spec in enumerate(seats):
        set_seat(driver, i, spec)
    set_value(driver, "#play-setup [name=seed]", str(seed))
    set_value(driver, "#play-setup [name=pause]", "0")
    click(driver, "#play-start")
    wait_for(driver, lambda d: css(d, "#play-game").is_displayed())


def choose_kahuna(moves: list[str], rng: random.Random) -> str:
    """A Kahuna player in a hurry: a removal whenever it can pay one, a skipped draw now and then."""
    removals = [m for m in moves if m.startswith("remove ")]
    if removals:
        return rng.choice(removals)
    if "end" in moves and rng.random() < 0.15:
        return "end"
    builds = [m for m in moves if "/" in m]
    drawing = [m for m in moves if m.split(" ")[0] in ("take", "draw")]
    if builds and (rng.random() < 0.5 or not drawing):
        return rng.choice(builds)
    return rng.choice(drawing or moves)


def test_a_whole_kahuna_game_against_a_bot_by_clicking(page, downloads):
    start_kahuna(page, ["human", "random"], seed=3)
    assert len(all_css(page, "#play-faceup button")) == 3
    assert "25 bridges left" in css(page, "#play-scores").text
    rng = random.Random(5)
    made: list[str] = []
    disabled_skip = False
    while wait_for_person(page) != "over":
        moves = legal_moves(page)
        round_, skip = page.execute_script(
            "const b = document.getElementById('play-end');"
            "return [kanaloa.play.view.position.round, b && [b.textContent, b.disabled]];")
        if round_ != "final":  # the skip is on offer all through rounds 1 to 3, enabled only when legal
            assert skip == ["End turn without drawing", "end" not in moves]
            disabled_skip = disabled_skip or "end" not in moves
        move = choose_kahuna(moves, rng)
        before = body_data(page, "play-moves")
        click_move(page, move)
        wait_for(page, lambda d, b=before: body_data(d, "play-moves") != b or css(d, "#play-error").text)
        assert not css(page, "#play-error").text, css(page, "#play-error").text
        history = page.execute_script("return kanaloa.play.view.history.map((h) => `${h.seat}: ${h.move}`)")
        # the person's own move in full, a take with its refill and a draw with the card drawn
        assert any(h == f"white: {move}" or h.startswith(f"white: {move} ") for h in history)
        made.append(move)
        if len(made) == 15:
            shot(page, "web-kahuna")
        assert len(made) < 1000, "the game did not end"
    assert any(m.startswith("remove ") and "+" in m for m in made) and "end" in made
    assert disabled_skip  # after a discard, or after black skipped its draw
    summary = css(page, "#play-summary")
    assert summary.is_displayed() and ("wins" in summary.text or "No winner" in summary.text)
    assert len(all_css(page, "#play-summary li")) == 2
    assert css(page, "#play-status").text.startswith("Game over")
    click(page, "#play-download-record")  # a record of a Kahuna game, which Replay and simulate read
    saved = downloads / "kanaloa-game.jsonl"
    wait_for(page, lambda d: saved.is_file() and saved.stat().st_size > 0)
    record = json.loads(saved.read_text())
    saved.unlink()  # the downloads folder is shared by the tests of this module
    assert record["ruleset"] == "kahuna" and record["lineup"] == ["human", "random"]
    assert record["moves"] == page.execute_script("return kanaloa.play.view.history.map((h) => h.move)")


def test_uploaded_kahuna_positions_a_removal_by_two_cards_and_a_game_without_a_winner(page, tmp_path, downloads):
    from test_web_api import kahuna_position

    doc = kahuna_position("white", {"white": ["ALOA", "BARI", "COCO"], "black": ["ELAI", "FAAA", "GOLA"]},
                          {"ALOA-BARI": "black", "ELAI-HUNA": "black", "COCO-GOLA": "white"},
                          face_up=["IFFI", "JOJO", "KAHU"])
    upload = tmp_path / "removal.json"
    upload.write_text(json.dumps(doc))
    set_seat(page, 1, "human")  # the form is set for 4 players of Kanaloa
    css(page, "#play-upload-position").send_keys(str(upload))
    wait_for(page, lambda d: css(d, "#play-game").is_displayed())
    assert page.execute_script("return kanaloa.play.view.seats.map((s) => s.who)") == ["human", "human"]
    click_link(page, '#play-board g.link[data-link="ALOA-BARI"]')  # black's bridge: a removal, paid with two cards
    assert "remove black's bridge on ALOA-BARI" in css(page, "#play-prompt").text
    click(page, '#play-hand button[data-hand-card="BARI"]')
    assert "one more card" in css(page, "#play-prompt").text
    click(page, '#play-hand button[data-hand-card="ALOA"]')
    wait_for(page, lambda d: body_data(d, "play-moves") == "1")
    assert css(page, "#play-history li").get_attribute("data-move") == "white: remove ALOA-BARI/ALOA+BARI"
    click(page, "#play-download-position")
    saved = downloads / "kanaloa-position.json"
    wait_for(page, lambda d: saved.is_file() and saved.stat().st_size > 0)
    downloaded = json.loads(saved.read_text())
    assert "ALOA-BARI" not in downloaded["bridges"] and downloaded["turn"]["played"] == 2
    saved.unlink()  # the downloads folder is shared by the tests of this module
    click(page, "#play-new")
    # the last turn of a game that ends in a tie no rule breaks (R16.7): black ends it
    hands = {"white": ["ALOA", "COCO", "DUDA"], "black": ["ELAI", "FAAA", "GOLA", "HUNA"]}
    left = kahuna_position("white", hands, {})["deck"]
    final = kahuna_position("black", hands, {"ALOA-BARI": "white", "ELAI-HUNA": "black"}, round="final", deck=[],
                            discard={"open": left, "hidden": 0}, final_round={"done": ["white"]})
    upload.write_text(json.dumps(final))
    css(page, "#play-upload-position").send_keys(str(upload))
    # the new game shown (the page said "your-turn" of the game before too)
    wait_for(page, lambda d: body_data(d, "play") == "your-turn" and "final round" in css(d, "#play-status").text)
    assert css(page, "#play-end").text == "End turn"  # no draw to skip in the final round
    click(page, "#play-end")
    wait_for(page, lambda d: body_data(d, "play") == "over")
    assert css(page, "#play-summary h3").text.startswith("No winner")
    assert css(page, "#play-status").text.startswith("Game over: No winner")


def test_following_a_kahuna_table_with_a_removal_and_a_skipped_draw(page):
    from selenium.webdriver.support.ui import Select

    click(page, '#modes button[data-mode="table"]')
    Select(css(page, "#table-setup [name=ruleset]")).select_by_value("kahuna")
    Select(css(page, "#table-setup [name=viewer]")).select_by_value("black")
    for card in ("ALOA", "ALOA", "BARI"):
        click(page, f'#table-hand-picker button[data-pick="{card}"]')
    for card in ("COCO", "DUDA", "ELAI"):
        click(page, f'#table-faceup-picker button[data-pick-faceup="{card}"]')
    start_table(page)
    assert len(all_css(page, "#table-faceup button")) == 3

    tell_link(page, "ALOA-BARI", "white: ALOA-BARI/BARI")  # white places, paying BARI
    told(page, 1)
    tell_take(page, "COCO", "FAAA")  # white takes COCO; the deck turns up FAAA
    told(page, 2)
    tell_link(page, "ALOA-BARI", "remove ALOA-BARI/ALOA+BARI")  # black, the viewer, removes white's bridge
    told(page, 3)
    click(page, "#table-end")  # and skips the draw
    told(page, 4)
    assert css(page, "#table-end").text == "white ended the turn without drawing"
    click(page, "#table-end")  # white cannot skip now: the server says why, and nothing changes
    wait_for(page, lambda d: css(d, "#table-error").text)
    assert "skipped" in css(page, "#table-error").text and body_data(page, "table-moves") == "4"
    click(page, "#table-deck")  # white draws
    told(page, 5)
    history = table_history(page)
    assert history == ["white: ALOA-BARI/BARI", "white: take COCO refill FAAA", "remove ALOA-BARI/ALOA+BARI", "end",
                       "white: draw"]
    shot(page, "web-kahuna-table")


def position_with_a_removal() -> Position:
    """A full position of a seeded random game at its first pending removal (R7)."""
    pos = Position.new(seed=0)
    rng = random.Random(0)
    while not any(str(m).startswith("remove ") for m in pos.legal_moves()):
        pos.play(rng.choice(pos.legal_moves()))
    return pos


def test_an_uploaded_position_with_a_removal_due_is_played_by_clicking_the_bridge(page, tmp_path, downloads):
    pos = position_with_a_removal()
    upload = tmp_path / "removal.json"
    upload.write_text(pos.dumps())
    for i in range(4):
        set_seat(page, i, "human")
    css(page, "#play-upload-position").send_keys(str(upload))
    wait_for(page, lambda d: css(d, "#play-game").is_displayed())
    removals = [m for m in legal_moves(page) if m.startswith("remove ")]
    assert removals == [str(m) for m in pos.legal_moves()]
    assert "removal on" in css(page, "#play-status").text
    click_link(page, f'#play-board g.link[data-link="{removals[1].split()[1]}"]')
    wait_for(page, lambda d: body_data(d, "play-moves") == "1")
    assert css(page, "#play-history li").get_attribute("data-move").endswith(removals[1])
    click(page, "#play-download-position")  # the full position, which goes on from here
    saved = downloads / "kanaloa-position.json"
    wait_for(page, lambda d: saved.is_file() and saved.stat().st_size > 0)
    pos.play(removals[1])
    assert Position.from_json(saved.read_text()).to_json() == pos.to_json()


# -- Might of the Gods (R14) ---------------------------------------------------------------------------


GOD_WORDS = ("ku", "steal", "pele", "give", "lono")


def is_token_move(move: str) -> bool:
    text = bare(move)
    return text.split(" ")[0] in GOD_WORDS or ("/" in text and "KANALOA" in text.split("/")[1])


def position_with_ku_to_use() -> Position:
    """A full 3-player gods position of a seeded random game: red to move in round 2, with KU to use."""
    for seed in range(50):
        pos = Position.new(players=3, seed=seed, gods=True)
        rng = random.Random(seed)
        while not pos.is_over:
            moves = pos.move_strings()
            if pos.to_move == "red" and any(m.startswith("ku ") for m in moves):
                return pos
            pos.play(rng.choice(moves))
    raise AssertionError("no seed gave red KU to use")


def test_a_gods_game_against_bots_by_clicking_the_tokens(page, tmp_path):
    """An uploaded gods position in round 2 where red owns KU: KU on a player, a card of the hand it shows,
    then the game played to its end against two bots, using whatever tokens come."""
    pos = position_with_ku_to_use()
    upload = tmp_path / "gods.json"
    upload.write_text(pos.dumps())
    set_seat(page, 0, "human")
    set_seat(page, 1, "random")
    set_seat(page, 2, "random")
    set_value(page, "#play-setup [name=pause]", "0")
    css(page, "#play-upload-position").send_keys(str(upload))
    wait_for(page, lambda d: css(d, "#play-game").is_displayed())
    assert len(all_css(page, "#play-board g.god-token")) == len(pos.to_json()["gods"]["on_islands"])
    assert "tokens: KU" in css(page, '#play-scores [data-color="red"]').text
    ku = next(m for m in legal_moves(page) if m.startswith("ku "))
    click_move(page, ku)
    wait_for(page, lambda d: body_data(d, "play-moves") == "1")
    steals = legal_moves(page)
    assert steals and all(m.startswith("steal ") for m in steals)
    assert f"steal a card from {ku.split()[1]}" in css(page, "#play-status").text
    shot(page, "web-gods")
    click_move(page, steals[0])
    wait_for(page, lambda d: body_data(d, "play-moves") == "2")
    assert not css(page, "#play-error").text
    rng = random.Random(2)
    used = ["ku", "steal"]
    made = 0
    while wait_for_person(page) != "over":
        moves = legal_moves(page)
        tokens = [m for m in moves if is_token_move(m)]
        move = rng.choice(tokens) if tokens else choose(moves, rng)
        before = body_data(page, "play-moves")
        click_move(page, move)
        wait_for(page, lambda d, b=before: body_data(d, "play-moves") != b or css(d, "#play-error").text)
        assert not css(page, "#play-error").text, (move, css(page, "#play-error").text)
        if is_token_move(move):
            used.append(bare(move).split(" ")[0])
        made += 1
        assert made < 2000, "the game did not end"
    summary = css(page, "#play-summary")
    assert summary.is_displayed() and "wins" in summary.text
    assert len(all_css(page, "#play-summary li")) == 3


def test_the_gods_checkbox_deals_a_game_with_the_tokens_and_is_hidden_for_kahuna(page):
    from selenium.webdriver.support.ui import Select

    Select(css(page, "#play-setup [name=ruleset]")).select_by_value("kahuna")
    assert not css(page, "#play-setup [name=gods]").is_displayed()
    Select(css(page, "#play-setup [name=ruleset]")).select_by_value("kanaloa")
    click(page, "#play-setup [name=gods]")
    start_play(page, ["human", "random", "random"], 3, seed=3)
    wait_for_person(page)
    assert len(all_css(page, "#play-board g.god-token")) == 16
    assert all("tokens: none" in e.text for e in all_css(page, "#play-scores .score"))


def test_following_a_gods_table_set_up_by_tokens_then_token_moves_of_the_viewer_and_another(page, tmp_path):
    """A gods table set up from the token on each island; then an uploaded round-2 view where the viewer uses
    KU and names the cards it sees, and one where another player uses KU on a third and steals."""
    from selenium.webdriver.support.ui import Select

    click(page, '#modes button[data-mode="table"]')
    Select(css(page, "#table-setup [name=players]")).select_by_visible_text("3")
    click(page, "#table-setup [name=gods]")
    dealt = Position.new(players=3, seed=4, gods=True).to_json()
    for island, token in dealt["gods"]["on_islands"].items():
        Select(css(page, f'#table-tokens select[data-token-island="{island}"]')).select_by_value(token)
    for card in dealt["hands"]["red"]["cards"]:
        click(page, f'#table-hand-picker button[data-pick="{card}"]')
    start_table(page)
    assert len(all_css(page, "#table-board g.god-token")) == 16

    full = position_with_ku_to_use()  # red to move in round 2 with KU
    for viewer in ("red", "blue"):
        upload = tmp_path / f"{viewer}.json"
        upload.write_text(full.as_viewer(viewer).dumps())
        click(page, "#table-new")
        css(page, "#table-upload").send_keys(str(upload))
        wait_for(page, lambda d: css(d, "#table-game").is_displayed() and body_data(d, "table-moves") == "0")
        if viewer == "red":  # the viewer's KU: the cards green's hand shows, then one of them stolen
            click(page, '#table-actions button[data-token="KU"][data-target="green"]')
            for card in full.to_json()["hands"]["green"]["cards"]:
                click(page, f'#table-picker button[data-pick="{card}"]')
            told(page, 1)
            click(page, "#table-actions button[data-steal]")
            told(page, 2)
            history = table_history(page)
            assert history[0].startswith("ku green sees ") and history[1].startswith("steal ")
        else:  # red, another player, uses KU on green and steals a card blue does not see
            click(page, "#table-ku-green")
            told(page, 1)
            click(page, "#table-steal")
            told(page, 2)
            history = table_history(page)
            assert history == ["red: ku green", "red: steal"]
    shot(page, "web-table-gods")


# -- Cannonball Colony (R20): spaces clicked, a tile made in the editor ---------------------------------


def click_space_move(driver) -> str:
    """Make a move of the person to move as a person does: the middle of a ringed space of the picture (where a
    piece standing there takes the click), then the move if the space offers several; ``end`` or ``pass`` when no
    space has a move."""
    targets, buttons = driver.execute_script("return [kanaloa.play.view.targets, kanaloa.play.view.buttons];")
    if not targets:
        click(driver, f"#play-{buttons[0]}")
        return buttons[0]
    from selenium.webdriver.common.action_chains import ActionChains

    space = sorted(targets)[0]
    square = css(driver, f'#play-board g.space[data-space="{space}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", square)
    ActionChains(driver, duration=0).move_to_element(square).click().perform()  # the space, or its piece on top
    if len(targets[space]) > 1:  # the space offers its moves as buttons
        click(driver, f'#play-actions button.choice[data-move="{targets[space][-1]}"]')
        return targets[space][-1]
    return targets[space][0]


def test_a_cannonball_game_on_a_tile_from_the_tile_editor_played_by_clicking_spaces(page, downloads):
    from selenium.webdriver.support.ui import Select

    from kanaloa.cannonball.island import load_tile, rotate_rows

    # The Table mode follows hidden hands: Cannonball Colony hides nothing, and the form says so.
    click(page, '#modes button[data-mode="table"]')
    assert "cannonball" not in [o.get_attribute("value") for o in all_css(page, "#table-setup [name=ruleset] option")]
    assert "nothing is hidden in Cannonball Colony" in css(page, "#table-not-served").text

    # The tile editor: paint spaces, a refusal in one line for a tile without a name, then a good tile saved.
    click(page, '#modes button[data-mode="editor"]')
    click(page, '#editor-kinds button[data-editor="tile"]')
    wait_for(page, lambda d: len(all_css(d, "#tile-grid .tile-cell")) == 36)
    click(page, '#tile-terrains button[data-terrain="forest"]')
    click(page, "#tile-fill")
    click(page, '#tile-terrains button[data-terrain="lake"]')
    for row, column in ((2, 2), (2, 3)):
        click(page, f'#tile-grid .tile-cell[data-row="{row}"][data-column="{column}"]')
    click(page, '#tile-terrains button[data-terrain="mountain"]')
    click(page, '#tile-grid .tile-cell[data-row="3"][data-column="3"]')
    click(page, '#tile-terrains button[data-terrain="grass"]')
    for column in range(6):
        click(page, f'#tile-grid .tile-cell[data-row="0"][data-column="{column}"]')
    css(page, "#tile-name").clear()
    click(page, "#tile-check")
    wait_for(page, lambda d: css(d, "#tile-error").text)
    assert css(page, "#tile-error").text == "tile 'tile.json': 'name' must be a non-empty string, not ''"
    set_value(page, "#tile-name", "pond wood")
    click(page, "#tile-download")
    saved = downloads / "pond-wood.json"
    wait_for(page, lambda d: saved.is_file() and saved.stat().st_size > 0)
    rows = ("gggggg", "ffffff", "ffllff", "fffmff", "ffffff", "ffffff")
    tile = load_tile(str(saved))  # the command line's reader takes the file the editor wrote
    assert tile.name == "pond wood" and tile.rows == rows
    assert "tile pond wood: 6 x 6 spaces, 6 grass, 27 forest, 2 lake, 1 mountain" in css(page, "#tile-ok").text
    click(page, "#tile-use")
    wait_for(page, lambda d: "next game" in css(d, "#tile-ok").text)
    shot(page, "web-tile-editor")

    # A 2-player game on meadow and the new tile, france a person clicking spaces, spain a bot.
    click(page, '#modes button[data-mode="play"]')
    Select(css(page, "#play-setup [name=ruleset]")).select_by_value("cannonball")
    assert not css(page, "#play-setup [name=board]").is_displayed()  # no board of islands
    Select(css(page, "#play-setup [name=players]")).select_by_visible_text("2")
    assert [e.text for e in all_css(page, "#play-seats .color")] == ["france", "spain"]
    for box in all_css(page, "#play-tiles input[data-tile]"):
        if box.get_attribute("data-tile") != "meadow":
            box.click()
    assert css(page, '#play-tiles input[data-own-tile="pond wood"]').is_selected()
    cliffs = downloads / "cliffs-upload.json"  # a tile file uploaded in the form joins the choices, checked
    cliffs.write_text(json.dumps({"format": "cannonball-tile/1", "name": "cliffs",
                                  "rows": ["mmmmmm", *["gggggg"] * 5]}))
    css(page, "#play-tile-upload").send_keys(str(cliffs))
    wait_for(page, lambda d: all_css(d, '#play-tiles input[data-own-tile="cliffs"]'))
    assert css(page, '#play-tiles input[data-own-tile="cliffs"]').is_selected()
    css(page, '#play-tiles input[data-own-tile="cliffs"]').click()  # left out of this game
    bad = downloads / "bad-upload.json"
    bad.write_text(json.dumps({"format": "cannonball-tile/1", "name": "bad", "rows": ["gggggg"] * 5}))
    css(page, "#play-tile-upload").send_keys(str(bad))
    wait_for(page, lambda d: css(d, "#play-tiles-error").text)
    assert css(page, "#play-tiles-error").text == "bad-upload.json: tile 'bad.json': 'rows' must hold 6 rows, not 5"
    set_seat(page, 1, "random")
    set_value(page, "#play-setup [name=seed]", "3")
    set_value(page, "#play-setup [name=pause]", "0")
    click(page, "#play-start")
    wait_for(page, lambda d: css(d, "#play-game").is_displayed())
    island = page.execute_script("return kanaloa.play.view.position.island.rows;")
    assert any(tuple(half) == rotate_rows(rows, turns) for half in (island[:6], island[6:]) for turns in range(4))
    wait_for_person(page)
    click(page, "#play-hint")  # the hint for france's landing, its plan drawn on the island
    hinted = wait_for(page, lambda d: css(d, "#play-hint-box .hint-move").text
                      if css(d, "#play-hint-box").is_displayed() else False)
    assert hinted in legal_moves(page) and hinted.startswith("land ")
    made = []
    while len(made) < 6 and wait_for_person(page) == "your-turn":
        before = body_data(page, "play-moves")
        made.append(click_space_move(page))
        wait_for(page, lambda d, b=before: body_data(d, "play-moves") != b or css(d, "#play-error").text)
        assert not css(page, "#play-error").text, css(page, "#play-error").text
    history = page.execute_script(
        "return kanaloa.play.view.history.filter((h) => h.seat === 'france').map((h) => h.move)")
    assert history == made and made[0].startswith("land ")
    assert "france:" in css(page, "#play-scores").text and "forts on the island" in css(page, "#play-scores").text
    shot(page, "web-cannonball")
    click(page, "#play-undo")  # back to before france's last move
    wait_for(page, lambda d: page.execute_script(
        "return kanaloa.play.view.history.filter((h) => h.seat === 'france').length") == len(made) - 1)


def test_the_position_editor_deals_checks_and_plays_a_position_of_another_game(page):
    from selenium.webdriver.support.ui import Select

    click(page, '#modes button[data-mode="editor"]')
    click(page, '#editor-kinds button[data-editor="position"]')
    Select(css(page, "#position-deal [name=ruleset]")).select_by_value("cannonball")
    Select(css(page, "#position-deal [name=players]")).select_by_visible_text("3")
    set_value(page, "#position-deal [name=seed]", "4")
    click(page, "#position-new")
    wait_for(page, lambda d: css(d, "#position-ok").text)
    assert "france to move" in css(page, "#position-ok").text
    assert len(all_css(page, "#position-board g.space")) == 144  # the 12 x 12 island (R20.1)
    text = css(page, "#position-text").get_attribute("value")
    doc = json.loads(text)
    css(page, "#position-text").clear()
    page.execute_script("arguments[0].value = arguments[1];", css(page, "#position-text"),
                        json.dumps({**doc, "supply": 3}))
    click(page, "#position-check")
    wait_for(page, lambda d: css(d, "#position-error").text)
    assert css(page, "#position-error").text.startswith("supply") and "\n" not in css(page, "#position-error").text
    page.execute_script("arguments[0].value = arguments[1];", css(page, "#position-text"), text)
    click(page, "#position-play")
    wait_for(page, lambda d: css(d, "#play-game").is_displayed())
    assert page.execute_script("return kanaloa.play.view.ruleset") == "cannonball"
    seats = page.execute_script("return kanaloa.play.view.seats")  # the form's: You, then Strong
    assert [(s["who"], s["level"]) for s in seats] == [("human", None), *[("hint:iterations=60000", "strong")] * 2]


def test_a_recorded_cannonball_game_replays_step_by_step(page, tmp_path):
    t = make_tournament(["greedy", "random", "random"], 3, 8, game="cannonball")
    records = tmp_path / "cannonball.jsonl"
    records.write_text("\n".join(play_game(t, g).dumps() for g in range(2)) + "\n")
    moves = json.loads(records.read_text().splitlines()[1])["moves"]
    click(page, '#modes button[data-mode="replay"]')
    css(page, "#replay-file").send_keys(str(records))
    set_value(page, "#replay-setup [name=game]", "1")
    click(page, "#replay-start")
    wait_for(page, lambda d: css(d, "#replay-game").is_displayed())
    assert "landing round" in css(page, "#replay-status").text  # R20.4
    for _ in range(4):
        click(page, "#replay-next")
    wait_for(page, lambda d: css(d, "#replay-at").text.startswith("Move 4 of"))
    assert moves[3] in css(page, "#replay-at").text
    assert len(all_css(page, "#replay-board g.piece.ship")) == 3  # the three ships have landed
    click(page, "#replay-last")
    wait_for(page, lambda d: css(d, "#replay-status").text.startswith("Game over"))
    assert "(R20.10)" in css(page, "#replay-status").text and "forts on the island" in css(page, "#replay-scores").text
    # analysed as any game: a click on a column shows the move, the engine's plan drawn by the game's own picture
    from selenium.webdriver.common.action_chains import ActionChains

    run_analysis(page, "replay")
    column = css(page, '#replay-analysis-chart rect.move-hit[data-move="5"]')
    page.execute_script("arguments[0].scrollIntoView({block: 'center'});", column)
    offset = page.execute_script(_COLUMN_POINT, column)
    assert offset is not None
    ActionChains(page, duration=0).move_to_element_with_offset(column, *offset).click().perform()
    wait_for(page, lambda d: body_data(d, "replay-review") == "5")
    assert css(page, "#replay-at").text.startswith("Move 5 of")
    assert css(page, "#replay-analysis-caption").text.startswith("Move 6, ")
    assert f"played {moves[5]}" in css(page, "#replay-analysis-caption").text
    assert all_css(page, "#replay-board g.plan-step")  # the engine's plan, ringed on its spaces


# -- Analysis and Think first --------------------------------------------------------------------------------

ANALYSIS_ITERATIONS = 60  # a search of each move: the analyses here take a second or two

# A point of a chart's column where a click reaches the column itself (not a line or a mark drawn over it), as an
# offset from the centre of the column: tried from the top of the plot downwards.
_COLUMN_POINT = """
const rect = arguments[0];
const box = rect.getBoundingClientRect();
const x = box.left + box.width / 2;
for (let y = box.top + 2; y < box.bottom; y += 3) {
  if (document.elementFromPoint(x, y) === rect) return [0, Math.round(y - (box.top + box.height / 2))];
}
return null;
"""


def drawable(move: str) -> bool:
    """Whether a Kanaloa-family move is drawn on the board: a build or removal on its link, a take on its card,
    a draw on the deck."""
    text = bare(move)
    return "/" in text or text.split(" ")[0] in ("take", "draw", "remove")


def run_analysis(driver, mode: str) -> None:
    """Click the mode's Analyse button with a small budget and wait until the chart shows."""
    set_value(driver, f"#{mode}-analysis-iterations", str(ANALYSIS_ITERATIONS))
    click(driver, f"#{mode}-analyse")
    wait_for(driver, lambda d: css(d, f"#{mode}-analysis").get_attribute("data-state") in ("done", "failed"))
    assert css(driver, f"#{mode}-analysis").get_attribute("data-state") == "done", \
        css(driver, f"#{mode}-analysis-error").text
    assert all_css(driver, f"#{mode}-analysis-chart svg.kanaloa-chart")


def test_a_replay_is_analysed_and_a_click_on_its_chart_shows_the_move_beside_the_engines(page, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains

    from kanaloa.play.analysis import analyse_record

    t = make_tournament(["greedy", "greedy"], 2, 3, game="kahuna")
    rec = play_game(t, 0)
    records = tmp_path / "kahuna.jsonl"
    records.write_text(rec.dumps() + "\n")
    expected = analyse_record(rec, iterations=ANALYSIS_ITERATIONS, seed=0).to_json()["moves"]
    click(page, '#modes button[data-mode="replay"]')
    css(page, "#replay-file").send_keys(str(records))
    click(page, "#replay-start")
    wait_for(page, lambda d: css(d, "#replay-game").is_displayed())
    run_analysis(page, "replay")
    chart = "#replay-analysis-chart svg"
    assert len(all_css(page, f"{chart} rect.move-hit")) == len(rec.moves)
    rows = all_css(page, "#replay-analysis-summary tr[data-player]")
    assert [r.get_attribute("data-player") for r in rows] == ["white", "black"]
    # the page shows what the Python API finds for the same game, budget and seed
    assert css(page, "#replay-analysis-status").text.startswith(f"{len(rec.moves)} of {len(rec.moves)} moves judged")
    marked = [m for m in expected if m["grade"] in ("inaccuracy", "mistake", "blunder")]
    assert len(all_css(page, f"{chart} circle.mark")) == len(marked)
    # a click on a mark jumps to its move: the position before it, the move played and the engine's plan drawn
    pick = next(m for m in marked + expected if drawable(m["move"]) and drawable(m["best"]))
    index = pick["index"]
    target = f'{chart} circle.mark[data-move="{index}"]'
    if pick in marked:
        click(page, target)
    else:  # no mark on a drawable move: a click on its column
        column = css(page, f'{chart} rect.move-hit[data-move="{index}"]')
        page.execute_script("arguments[0].scrollIntoView({block: 'center'});", column)
        dx, dy = page.execute_script(_COLUMN_POINT, column)
        ActionChains(page, duration=0).move_to_element_with_offset(column, dx, dy).click().perform()
    wait_for(page, lambda d: body_data(d, "replay-review") == str(index))
    assert css(page, "#replay-at").text.startswith(f"Move {index} of {len(rec.moves)}")
    steps = all_css(page, "#replay-board g.hint-step")
    assert steps and steps[0].get_attribute("data-move") == pick["best"]  # the engine's move, numbered 1
    assert all_css(page, "#replay-board .played")  # the move played, marked beside it
    caption = css(page, "#replay-analysis-caption").text
    assert f"Move {index + 1}, {pick['player']}: played {pick['move']} ({pick['grade']}, win" in caption
    assert f"engine: {pick['best']}" in caption and "→" in caption
    current = all_css(page, f"{chart} rect.move-hit.current")
    assert [c.get_attribute("data-move") for c in current] == [str(index)]
    # a click on another move's column jumps there too
    other = next(m["index"] for m in expected if m["index"] not in (index, index + 1) and drawable(m["move"]))
    column = css(page, f'{chart} rect.move-hit[data-move="{other}"]')
    page.execute_script("arguments[0].scrollIntoView({block: 'center'});", column)
    offset = page.execute_script(_COLUMN_POINT, column)
    assert offset is not None
    ActionChains(page, duration=0).move_to_element_with_offset(column, *offset).click().perform()
    wait_for(page, lambda d: body_data(d, "replay-review") == str(other))
    assert f"Move {other + 1}, " in css(page, "#replay-analysis-caption").text
    # each step shows the next move beside the engine's, until the switch is off
    click(page, "#replay-first")
    wait_for(page, lambda d: body_data(d, "replay-review") == "0")
    click(page, "#replay-next")
    wait_for(page, lambda d: body_data(d, "replay-review") == "1")
    click(page, "#replay-review")
    wait_for(page, lambda d: body_data(d, "replay-review") == "" and body_data(d, "replay-at") == "1")
    assert not all_css(page, "#replay-board g.hint-step") and not css(page, "#replay-analysis-caption").text
    click(page, "#replay-review")
    wait_for(page, lambda d: body_data(d, "replay-review") == "1")
    worst = max(marked or expected, key=lambda m: (m["loss"] or 0.0, -m["index"]))["index"]  # for docs/web.md
    click(page, f'{chart} circle.mark[data-move="{worst}"]' if marked else "#replay-first")
    wait_for(page, lambda d: body_data(d, "replay-review") == str(worst if marked else 0))
    page.set_window_size(1500, 1700)  # the board with the chart under it, for docs/web.md
    try:
        page.execute_script("window.scrollTo(0, 0)")
        shot(page, "web-replay")
    finally:
        page.set_window_size(1500, 1100)


def test_a_finished_game_is_analysed_in_one_click_in_play(page, tmp_path):
    t = make_tournament(["greedy", "random"], 2, 6, game="kahuna")
    rec = play_game(t, 0)
    records = tmp_path / "kahuna-game.jsonl"
    records.write_text(rec.dumps() + "\n")
    css(page, "#play-upload-record").send_keys(str(records))  # the game, played again to its end
    wait_for(page, lambda d: body_data(d, "play") == "over")
    assert not css(page, "#play-analysis-chart").text
    run_analysis(page, "play")
    assert len(all_css(page, "#play-analysis-chart rect.move-hit")) == len(rec.moves)
    assert len(all_css(page, "#play-analysis-summary tr[data-player]")) == 2
    hit = all_css(page, "#play-analysis-chart circle.mark") or all_css(page, "#play-analysis-summary .turning-point")
    if hit:
        index = int(hit[0].get_attribute("data-move"))
        click(page, f'#play-analysis [data-move="{index}"]')
    else:  # a game without a move graded an inaccuracy or worse: a click on a column
        index = 2
        page.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))",
                            css(page, '#play-analysis-chart rect.move-hit[data-move="2"]'))
    wait_for(page, lambda d: body_data(d, "play-analysed") == str(index))
    assert f"Move {index + 1}, " in css(page, "#play-analysis-caption").text
    assert "played" in css(page, "#play-analysis-caption").text
    shot(page, "web-play-analysis")
    click(page, "#play-analysis-back")
    wait_for(page, lambda d: not css(d, "#play-analysis-caption").text)
    assert not all_css(page, "#play-board g.hint-step") and css(page, "#play-status").text.startswith("Game over")
    # an undo takes the game back from its end: the analysis goes with it
    click(page, "#play-undo")
    wait_for(page, lambda d: body_data(d, "play") != "over")
    assert not css(page, "#play-analysis").is_displayed()


def test_think_first_keeps_the_hint_hidden_until_asked_and_is_kept_by_the_browser(page):
    try:
        start_play(page, ["human", "random", "random", "random"], 4, seed=5)
        wait_for_person(page)
        assert body_data(page, "play-hint") in (None, "")
        click(page, "#play-think-first")  # on: the hint is prepared, and hidden
        wait_for(page, lambda d: body_data(d, "play-hint") == "ready")
        assert css(page, "#play-hint").text == "Reveal hint"
        assert not css(page, "#play-hint-box").is_displayed() and not all_css(page, "#play-board g.hint-step")
        assert css(page, "#table-think-first").is_selected()  # one switch for Play and Table
        click(page, "#play-hint")
        wait_for(page, lambda d: body_data(d, "play-hint") == "shown")
        assert css(page, "#play-hint-box").is_displayed() and css(page, "#play-hint").text == "Hint"
        hinted = css(page, "#play-hint-box .hint-move").text
        assert hinted in legal_moves(page)
        # after a move, the next hint is prepared and hidden again
        before = body_data(page, "play-moves")
        click_move(page, legal_moves(page)[0])
        wait_for(page, lambda d: body_data(d, "play-moves") != before)
        wait_for_person(page)
        wait_for(page, lambda d: body_data(d, "play-hint") == "ready")
        assert not css(page, "#play-hint-box").is_displayed()
        # the browser keeps the switch: a new page (not the game's address, which would resume the game), a new
        # game, and its hint prepared at once
        page.get(page.current_url.split("#")[0])
        wait_for(page, lambda d: body_data(d, "ready") == "1")
        start_play(page, ["human", "random", "random", "random"], 4, seed=5)
        wait_for_person(page)
        assert css(page, "#play-think-first").is_selected()
        wait_for(page, lambda d: body_data(d, "play-hint") == "ready")
        click(page, "#play-think-first")  # off: the Hint button asks and shows at once, as before
        wait_for(page, lambda d: body_data(d, "play-hint") == "")
        assert css(page, "#play-hint").text == "Hint" and not css(page, "#play-hint-box").is_displayed()
        click(page, "#play-hint")
        wait_for(page, lambda d: css(d, "#play-hint-box").is_displayed())
        assert css(page, "#play-hint-box .hint-move").text == hinted  # the same position, the same hint
    finally:
        page.execute_script("localStorage.removeItem('kanaloa.thinkFirst')")
