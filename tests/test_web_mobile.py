"""``kanaloa serve`` on a phone and a tablet: Chromium's mobile emulation, driven by Selenium with touches.

The same real server as tests/test_web_browser.py, and Chromium emulating a
phone (390 x 844 CSS pixels, three device pixels to one, touch, a phone's
user agent) and a tablet (820 x 1180, upright and on its side).  Every
choice is a tap of a finger (WebDriver's touch pointer), the board is
pinched with two fingers and dragged with one: a few moves of a game against
bots, a table told its moves and asked for a hint, the board zoomed and
panned and still tapped to choose a move.  At each step the page's layout is
checked: the page itself never scrolls sideways, every button shown is at
least 44 pixels high, the board takes the screen's width, and the Table's
move entry keeps to the bottom of the screen.  The flows leave screenshots
in ``test-artifacts/`` (the pictures of docs/web.md's "On a phone" come from
them), and a failing test a screenshot of the failure.
"""

from __future__ import annotations

import random

import pytest

from browser_helpers import chromium, skip_without_chromium, wait_for
from kanaloa.play.tournament import make_tournament, play_game
from test_web_browser import ARTIFACTS, all_css, bare, body_data, choose, click_move, css, legal_moves, server, shot

pytestmark = pytest.mark.browser

skip_without_chromium()

__all__ = ["server"]  # the fixture: a real kanaloa serve

PHONE = {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3, "touch": True},
         "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                      "Chrome/126.0.0.0 Mobile Safari/537.36"}
TABLET = {"deviceMetrics": {"width": 820, "height": 1180, "pixelRatio": 2, "touch": True},
          "userAgent": "Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) "
                       "Chrome/126.0.0.0 Safari/537.36"}
FINGER = 44  # CSS pixels: the least height of a target for a finger


@pytest.fixture(scope="module")
def phone_browser():
    driver = chromium(device=PHONE)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def tablet_browser():
    driver = chromium(device=TABLET)
    yield driver
    driver.quit()


def load(request, driver, url, screen: tuple[int, int] | None = None):
    driver.get(url + "/")
    if screen is not None:
        turn(driver, *screen)
    wait_for(driver, lambda d: body_data(d, "ready") == "1")
    yield driver
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / f"failed-{request.node.name}.png"))


@pytest.fixture
def phone(request, server, phone_browser):
    """The app freshly loaded on the phone; a screenshot in test-artifacts/ when the test fails."""
    yield from load(request, phone_browser, server)


@pytest.fixture
def tablet(request, server, tablet_browser):
    """The app freshly loaded on the tablet, upright; a screenshot in test-artifacts/ when the test fails."""
    metrics = TABLET["deviceMetrics"]
    yield from load(request, tablet_browser, server, (metrics["width"], metrics["height"]))


def turn(driver, width: int, height: int) -> None:
    """The tablet held so that its screen is ``width`` x ``height`` CSS pixels."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})
    wait_for(driver, lambda d: d.execute_script("return [innerWidth, innerHeight];") == [width, height])


# -- touches ---------------------------------------------------------------------------------------------------


def touches(driver, *paths: list[tuple[float, float]]) -> None:
    """Fingers on the screen at once, each down at the first point of its path, along it, and up at its end
    (viewport pixels; the paths of one gesture have as many points)."""
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder

    builder = ActionBuilder(driver, duration=0)
    fingers = [builder.add_pointer_input(interaction.POINTER_TOUCH, f"finger{i}") for i in range(len(paths))]
    for finger, path in zip(fingers, paths, strict=True):
        finger.create_pointer_move(x=round(path[0][0]), y=round(path[0][1]), duration=0)
        finger.create_pointer_down(button=0)
        for x, y in path[1:]:
            finger.create_pointer_move(x=round(x), y=round(y), duration=60)
        finger.create_pointer_up(button=0)
    builder.perform()


def tap_at(driver, x: float, y: float) -> None:
    touches(driver, [(x, y)])


def centre(driver, element) -> tuple[float, float]:
    box = driver.execute_script("return arguments[0].getBoundingClientRect().toJSON();", element)
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def shown(driver, selector: str):
    """The first element of ``selector`` shown on the page, once there is one."""
    return wait_for(driver, lambda d: next((e for e in all_css(d, selector) if e.is_displayed()), False))


# Whether a finger at the middle of the element touches it (not the Table's move entry or another element over it).
_REACHED = """
const r = arguments[0].getBoundingClientRect();
const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
return Boolean(hit && arguments[0].contains(hit));
"""


def tap(driver, selector: str) -> None:
    """Tap the element of ``selector`` with a finger, scrolled first where it is out of the screen or under
    something (the Table's move entry) that the finger would touch instead."""
    element = shown(driver, selector)
    if not driver.execute_script(_REACHED, element):
        driver.execute_script("arguments[0].scrollIntoView({block: 'start'});", element)
    assert driver.execute_script(_REACHED, element), f"{selector} cannot be reached by a finger"
    tap_at(driver, *centre(driver, element))


# Where a finger reaches a link of the board as drawn now: a point of its line or path inside the screen whose
# element there is the link's (not an island, a label or the edge of a zoomed view); null when none is.
_LINK_AT = """
const g = arguments[0];
const shape = g.querySelector("line, path, polyline");
if (!shape || !shape.getTotalLength) return null;
const length = shape.getTotalLength();
const ctm = shape.getScreenCTM();
for (let i = 1; i < 40; i++) {
  const t = 0.5 + (i % 2 ? 1 : -1) * Math.floor(i / 2) / 40;
  const p = shape.getPointAtLength(t * length);
  const x = ctm.a * p.x + ctm.c * p.y + ctm.e, y = ctm.b * p.x + ctm.d * p.y + ctm.f;
  if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
  const hit = document.elementFromPoint(x, y);
  if (hit && g.contains(hit)) return [x, y];
}
return null;
"""


def link_point(driver, board: str, link: str):
    g = css(driver, f'#{board} g.link[data-link="{link}"]')
    return driver.execute_script(_LINK_AT, g)


def tap_link(driver, board: str, link: str) -> None:
    """Tap link ``link`` of the board where it shows, the board scrolled to the top of the screen first."""
    driver.execute_script("window.scrollTo(0, 0);")
    point = link_point(driver, board, link)
    assert point, f"{link} does not show on the board"
    tap_at(driver, *point)


def view_box(driver, board: str) -> list[float]:
    return [float(n) for n in css(driver, f"#{board} > svg").get_dom_attribute("viewBox").split()]


# -- the layout's facts ------------------------------------------------------------------------------------------

_LAYOUT = """
const small = Array.from(document.querySelectorAll("button"))
  .filter((b) => b.offsetParent !== null && getComputedStyle(b).visibility !== "hidden")
  .map((b) => [b.id || b.dataset.pick || b.dataset.card || b.dataset.handCard || b.className || b.textContent,
               b.getBoundingClientRect().height])
  .filter(([, h]) => h < arguments[0] - 0.5);
return {width: innerWidth, height: innerHeight, scroll: document.documentElement.scrollWidth, small};
"""


def check_layout(driver) -> dict:
    """The page fits the screen's width, and every button shown is a finger's height; the numbers."""
    facts = driver.execute_script(_LAYOUT, FINGER)
    assert facts["scroll"] <= facts["width"], f"the page scrolls sideways: {facts['scroll']} > {facts['width']}"
    assert facts["small"] == [], f"buttons lower than {FINGER} px: {facts['small']}"
    return facts


def check_board_fits(driver, board: str) -> None:
    """The board's picture takes the width of the screen, less a small margin, and no more."""
    box = driver.execute_script(f"return document.querySelector('#{board} > svg').getBoundingClientRect().toJSON();")
    width = driver.execute_script("return innerWidth;")
    assert box["left"] >= 0 and box["right"] <= width, box
    assert box["width"] >= 0.9 * width, (box["width"], width)


def rect(driver, selector: str) -> dict:
    return driver.execute_script("return arguments[0].getBoundingClientRect().toJSON();", css(driver, selector))


def check_entry_at_the_bottom(driver) -> None:
    """The Table's move entry (actions, picker, the Tell box) is on the screen, in its lower part."""
    height = driver.execute_script("return innerHeight;")
    for selector in ("#table-entry", "#table-picker", "#table-typed"):
        box = rect(driver, selector)
        assert box["bottom"] <= height + 0.5, (selector, box, height)
        assert box["top"] >= 0.35 * height, (selector, box, height)
    assert rect(driver, "#table-typed")["bottom"] >= 0.85 * height  # the Tell box at the thumb


def test_every_mode_and_every_editor_fits_a_phone(phone):
    modes = [b.get_attribute("data-mode") for b in all_css(phone, "#modes button")]
    assert {"play", "table", "editor", "replay"} <= set(modes)
    for mode in modes:
        tap(phone, f'#modes button[data-mode="{mode}"]')
        check_layout(phone)
        tabs = rect(phone, "#modes")
        assert tabs["right"] <= 390 and tabs["height"] < 2 * FINGER + 10, tabs  # the tabs on a line or two
    tap(phone, '#modes button[data-mode="editor"]')
    for kind in [b.get_attribute("data-editor") for b in all_css(phone, "#editor-kinds button")]:
        tap(phone, f'#editor-kinds button[data-editor="{kind}"]')
        check_layout(phone)


# -- Play by touch -------------------------------------------------------------------------------------------


def tap_move(driver, move: str) -> None:
    """Make ``move`` with a finger: as ``click_move`` of the desktop tests, every press a tap."""
    click_move(driver, move, click=tap, click_board_link=lambda d, link: tap_link(d, "play-board", link))


def wait_for_person(driver) -> str:
    return wait_for(driver, lambda d: body_data(d, "play") in ("your-turn", "over") and body_data(d, "play"))


def set_field(driver, selector: str, value: str) -> None:
    tap(driver, selector)
    element = css(driver, selector)
    element.clear()
    element.send_keys(value)


def choose_option(driver, selector: str, value: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(css(driver, selector)).select_by_value(value)


def test_a_few_moves_against_bots_on_a_phone(phone):
    check_layout(phone)  # the setup form: stacked, large fields, no sideways scroll
    choose_option(phone, "#play-setup [name=players]", "4")
    set_field(phone, "#play-setup [name=seed]", "5")
    set_field(phone, "#play-setup [name=pause]", "0")
    tap(phone, "#play-start")
    wait_for(phone, lambda d: css(d, "#play-game").is_displayed())
    check_board_fits(phone, "play-board")
    rng = random.Random(4)
    made = []
    while wait_for_person(phone) != "over" and len(made) < 6:
        before = body_data(phone, "play-moves")
        move = choose(legal_moves(phone), rng)
        tap_move(phone, move)
        wait_for(phone, lambda d, b=before: body_data(d, "play-moves") != b or css(d, "#play-error").text)
        assert not css(phone, "#play-error").text, css(phone, "#play-error").text
        made.append(move)
        check_layout(phone)
    assert len(made) == 6 and any(bare(m).startswith("reveal ") for m in made)
    assert any("/" in m or bare(m).split(" ")[0] in ("take", "draw") for m in made)
    tap(phone, "#play-hint")
    wait_for(phone, lambda d: css(d, "#play-hint-box").is_displayed())
    check_layout(phone)
    phone.execute_script("window.scrollTo(0, 0);")
    shot(phone, "phone-play")


# -- a Table by touch --------------------------------------------------------------------------------------------


def told(driver, count: int) -> None:
    wait_for(driver, lambda d: body_data(d, "table-moves") == str(count) or css(d, "#table-error").text)
    assert not css(driver, "#table-error").text, css(driver, "#table-error").text


def start_table(driver, hand: list[str], viewer: str = "green") -> None:
    """A table of three on the phone, followed as ``viewer`` dealt ``hand``, every card tapped in the picker."""
    tap(driver, '#modes button[data-mode="table"]')
    choose_option(driver, "#table-setup [name=players]", "3")
    choose_option(driver, "#table-setup [name=viewer]", viewer)
    for card in hand:
        tap(driver, f'#table-hand-picker button[data-pick="{card}"]')
    assert [b.text for b in all_css(driver, "#table-hand button")] == hand
    check_layout(driver)
    tap(driver, "#table-start")
    wait_for(driver, lambda d: css(d, "#table-game").is_displayed())


def pick(driver, choice: str) -> None:
    """Tap ``choice`` in the Table's picker, which shows at the bottom of the screen."""
    shown(driver, f'#table-picker button[data-pick="{choice}"]')
    check_entry_at_the_bottom(driver)
    tap(driver, f'#table-picker button[data-pick="{choice}"]')


def deal_and_turn_up(driver) -> None:
    """The first four moves of a table of three followed as green: the cards chosen, those turned face-up."""
    start_table(driver, ["ALOA", "ORO", "DALI", "DALI"])
    tap(driver, "#table-reveal")  # red chose a card
    told(driver, 1)
    tap(driver, '#table-hand-cards button[data-hand-card="ORO"]')  # green, the viewer, reveals ORO
    told(driver, 2)
    tap(driver, "#table-reveal")  # blue
    told(driver, 3)
    tap(driver, "#table-faceup-record")
    for card in ("KULU", "ORO", "MOKU", "ELOI"):
        pick(driver, card)
    told(driver, 4)


def test_a_table_told_its_moves_by_touch_with_a_hint_on_a_phone(phone):
    deal_and_turn_up(phone)
    check_board_fits(phone, "table-board")
    check_layout(phone)
    tap_link(phone, "table-board", "ALOA-BAFI")  # red builds, paying BAFI
    pick(phone, "red: ALOA-BAFI/BAFI")
    told(phone, 5)
    tap(phone, '#table-faceup button[data-card="MOKU"]')  # red takes MOKU; the deck turns up RASI
    pick(phone, "RASI")
    told(phone, 6)
    tap(phone, "#table-deck")  # green draws, and sees the card
    pick(phone, "PAHU")
    told(phone, 7)
    tap(phone, "#table-discard")  # blue discards face-down
    told(phone, 8)
    tap(phone, "#table-deck")  # blue draws
    told(phone, 9)
    set_field(phone, "#table-typed input", "red: draw")  # the Tell box, with the phone's keyboard
    tap(phone, "#table-typed button")
    told(phone, 10)
    history = [li.get_attribute("data-move") for li in all_css(phone, "#table-history li")]
    assert history[-6:] == ["red: ALOA-BAFI/BAFI", "red: take MOKU refill RASI", "draw PAHU", "blue: discard",
                            "blue: draw", "red: draw"]
    check_layout(phone)
    tap(phone, "#table-hint")  # green to move
    wait_for(phone, lambda d: css(d, "#table-hint-box").is_displayed())
    assert css(phone, "#table-hint-box .hint-move").text
    check_layout(phone)
    phone.execute_script("window.scrollTo(0, 0);")
    tap(phone, '#table-hand-cards button[data-hand-card="DALI"]')  # a discard offered in the picker: the entry shows
    shown(phone, "#table-picker button")
    check_entry_at_the_bottom(phone)
    phone.execute_script("window.scrollTo(0, 0);")
    shot(phone, "phone-table")


def test_the_board_zoomed_by_a_pinch_and_panned_still_takes_a_tap_on_a_phone(phone):
    deal_and_turn_up(phone)
    board = "table-board"
    phone.execute_script("window.scrollTo(0, 0);")
    whole = view_box(phone, board)
    assert body_data_of(phone, board, "zoom") == "1"
    x, y = centre(phone, css(phone, f"#{board} > svg"))
    touches(phone, [(x - 20, y), (x - 40, y), (x - 60, y)], [(x + 20, y), (x + 40, y), (x + 60, y)])  # a pinch
    zoom = float(body_data_of(phone, board, "zoom"))
    assert zoom == pytest.approx(3, rel=0.05)  # the fingers three times as far apart
    pinched = view_box(phone, board)
    assert pinched[2] == pytest.approx(whole[2] / zoom, rel=0.01)
    assert body_data(phone, "table-moves") == "4"  # a pinch tells nothing
    touches(phone, [(x, y), (x + 60, y + 30), (x + 120, y + 60)])  # a drag: the picture follows the finger
    panned = view_box(phone, board)
    assert panned[0] < pinched[0] and panned[1] < pinched[1]
    assert panned[2:] == pinched[2:]
    assert body_data(phone, "table-moves") == "4" and not css(phone, "#table-picker").text  # nor does a drag
    check_layout(phone)
    # a link in the zoomed view, tapped: red builds on it (the view shows the board's upper left now)
    link = next(g.get_attribute("data-link") for g in all_css(phone, f"#{board} g.link")
                if link_point(phone, board, g.get_attribute("data-link")))
    tap_link(phone, board, link)
    a = link.split("-")[0]
    pick(phone, f"red: {link}/{a}")
    told(phone, 5)
    assert float(body_data_of(phone, board, "zoom")) == zoom  # the redrawn picture keeps its zoom and place
    assert view_box(phone, board) == panned
    phone.execute_script("window.scrollTo(0, 0);")
    shot(phone, "phone-zoomed")
    tap(phone, f"#{board} .zoom-in")
    assert float(body_data_of(phone, board, "zoom")) == pytest.approx(min(6, zoom * 1.5), rel=0.01)
    tap(phone, f"#{board} .zoom-fit")
    assert body_data_of(phone, board, "zoom") == "1" and view_box(phone, board) == whole
    assert css(phone, f"#{board} .zoom-out").get_attribute("disabled") is not None
    tap(phone, f"#{board} .zoom-in")
    tap(phone, f"#{board} .zoom-out")
    assert body_data_of(phone, board, "zoom") == "1" and view_box(phone, board) == whole


def body_data_of(driver, board: str, key: str) -> str | None:
    return css(driver, f"#{board}").get_attribute(f"data-{key}")


def zoom_of(driver, board: str) -> float:
    return float(body_data_of(driver, board, "zoom") or "nan")


def test_the_boards_of_replay_and_the_position_editor_zoom_too_on_a_phone(phone, tmp_path):
    records = tmp_path / "game.jsonl"
    records.write_text(play_game(make_tournament(["random"] * 4, 4, 3), 0).dumps() + "\n")
    tap(phone, '#modes button[data-mode="replay"]')
    check_layout(phone)
    css(phone, "#replay-file").send_keys(str(records))
    tap(phone, "#replay-start")
    wait_for(phone, lambda d: css(d, "#replay-game").is_displayed())
    check_board_fits(phone, "replay-board")
    check_layout(phone)
    tap(phone, "#replay-board .zoom-in")
    tap(phone, "#replay-board .zoom-in")
    assert zoom_of(phone, "replay-board") == pytest.approx(2.25)
    x, y = centre(phone, css(phone, "#replay-board > svg"))
    touches(phone, [(x, y), (x - 40, y), (x - 80, y)])
    looked_at = view_box(phone, "replay-board")
    for step in (1, 2, 3):
        tap(phone, "#replay-next")
        wait_for(phone, lambda d, s=step: body_data(d, "replay-at") == str(s))
    assert zoom_of(phone, "replay-board") == pytest.approx(2.25)  # each step's picture keeps the place looked at
    assert view_box(phone, "replay-board")[:3] == looked_at[:3]  # (the picture's height follows the hands)
    tap(phone, '#modes button[data-mode="editor"]')
    tap(phone, '#editor-kinds button[data-editor="position"]')
    tap(phone, "#position-new")
    wait_for(phone, lambda d: css(d, "#position-ok").text)
    check_layout(phone)
    assert zoom_of(phone, "position-board") == 1
    tap(phone, "#position-board .zoom-in")
    assert zoom_of(phone, "position-board") == pytest.approx(1.5)


# -- a tablet ------------------------------------------------------------------------------------------------


def test_a_table_on_a_tablet_upright_and_on_its_side(tablet):
    deal_and_turn_up(tablet)
    check_layout(tablet)
    check_board_fits(tablet, "table-board")
    tap_link(tablet, "table-board", "ALOA-BAFI")
    pick(tablet, "red: ALOA-BAFI/BAFI")  # the move entry at the bottom of the tablet's screen too
    told(tablet, 5)
    tablet.execute_script("window.scrollTo(0, 0);")
    shot(tablet, "tablet-table")
    turn(tablet, 1180, 820)
    check_layout(tablet)
    board, side = rect(tablet, "#table-board"), rect(tablet, "#table-game .side")
    assert side["left"] >= board["right"] and board["width"] >= 0.55 * 1180  # side by side, the board the larger
    assert board["bottom"] <= 820  # the whole board on the screen
    tap(tablet, '#table-faceup button[data-card="MOKU"]')
    tap(tablet, '#table-picker button[data-pick="RASI"]')
    told(tablet, 6)
    wheel_with_ctrl(tablet, "#table-board > svg", -300)  # a trackpad's pinch: Ctrl and the wheel
    assert zoom_of(tablet, "table-board") > 1.5
    wheel_with_ctrl(tablet, "#table-board > svg", 1000)
    assert zoom_of(tablet, "table-board") == 1
    tap(tablet, "#table-board .zoom-in")  # a mouse's drag from a link moves a zoomed board, and tells nothing
    before = view_box(tablet, "table-board")
    points = [link_point(tablet, "table-board", g.get_attribute("data-link"))
              for g in all_css(tablet, "#table-board g.link")]
    start = next(p for p in points if p and p[0] < 1180 - 100 and p[1] < 820 - 100)
    mouse_drag(tablet, start, 80, 50)
    after = view_box(tablet, "table-board")
    assert after[0] < before[0] and after[1] < before[1] and after[2:] == before[2:]
    assert body_data(tablet, "table-moves") == "6" and not css(tablet, "#table-picker").text
    tablet.execute_script("window.scrollTo(0, 0);")
    shot(tablet, "tablet-table-landscape")


def wheel_with_ctrl(driver, selector: str, delta: int) -> None:
    """Turn the mouse wheel by ``delta`` over the middle of the element of ``selector``, Ctrl held: an input
    event of Chromium's own, sent through its DevTools protocol."""
    x, y = centre(driver, css(driver, selector))
    driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": x, "y": y, "deltaX": 0,
                                                        "deltaY": delta, "modifiers": 2})


def mouse_drag(driver, start: tuple[float, float], dx: int, dy: int) -> None:
    """Press the mouse's button at ``start`` (viewport pixels), move it by (dx, dy), release it there."""
    from selenium.webdriver.common.actions.action_builder import ActionBuilder

    builder = ActionBuilder(driver, duration=50)
    x, y = round(start[0]), round(start[1])
    builder.pointer_action.move_to_location(x, y).pointer_down().move_to_location(x + dx // 2, y + dy // 2) \
        .move_to_location(x + dx, y + dy).pointer_up()
    builder.perform()
