"""The balance report (``kanaloa report``) in a real browser: headless Chromium opens the page from its file.

Every plot of a report must be drawn: each ``figure.plot`` holds an
``<svg>`` that the browser lays out at a nonzero size, whose drawing
(its axes, bars, points and text) covers a nonzero area, and whose text
the browser renders.  The page is opened from the file, offline, as a
reader would open it; tests/test_report.py checks the page's HTML.
Without chromium and its driver the test is skipped, saying so; under CI
it must run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from browser_helpers import chromium, skip_without_chromium, wait_for
from cli_helpers import run

pytestmark = pytest.mark.browser

skip_without_chromium()

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"

# What the browser made of each plot: the figure's id, its svg's laid-out size, how many axes it has and the
# share of the picture their drawing covers, how many paths and texts it holds and how many texts have letters
# laid out.
MEASURE = """
return Array.from(document.querySelectorAll('figure.plot')).map(figure => {
  const svg = figure.querySelector('svg');
  const box = svg.getBoundingClientRect();
  const view = svg.viewBox.baseVal;
  const axes = Array.from(svg.querySelectorAll('g[id*="-axes_"]')).map(g => g.getBBox());
  const texts = Array.from(svg.querySelectorAll('text'));
  return {id: figure.id, width: box.width, height: box.height, axes: axes.length,
          drawn: axes.reduce((sum, b) => sum + b.width * b.height, 0) / (view.width * view.height),
          paths: svg.querySelectorAll('path').length, texts: texts.length,
          lettered: texts.filter(t => t.getComputedTextLength() > 0).length};
});
"""


def simulated(folder: Path, name: str, *args: str) -> str:
    out = folder / f"{name}.jsonl"
    result = run("simulate", *args, "--out", str(out), "--no-progress")
    assert result.exit_code == 0, result.output
    return str(out)


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    """Two reports: Kanaloa with and without the gods side by side, and Cannonball Colony alone."""
    folder = tmp_path_factory.mktemp("report")
    plain = simulated(folder, "plain", "--bots", "greedy,random,random,random", "--games", "8", "--seed", "1")
    gods = simulated(folder, "gods", "--bots", "greedy,random,random,random", "--games", "8", "--seed", "1",
                     "--gods")
    cannonball = simulated(folder, "cannonball", "--game", "cannonball", "--bots", "greedy,random,random",
                           "--games", "6", "--seed", "3")
    out = {}
    for name, records in (("gods", [plain, gods]), ("cannonball", [cannonball])):
        out[name] = folder / f"{name}.html"
        result = run("report", *records, "-o", str(out[name]), "--no-progress")
        assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def browser():
    driver = chromium(size="1200,900")
    yield driver
    driver.quit()


@pytest.mark.parametrize("name, plots", [
    ("gods", ["plot-seats", "plot-seat-difference", "plot-scores", "plot-lengths", "plot-places", "plot-reasons",
              "plot-bots"]),
    ("cannonball", ["plot-seats", "plot-scores", "plot-lengths", "plot-places", "plot-reasons", "plot-bots"]),
])
def test_every_plot_of_the_report_is_drawn_in_the_browser(pages, browser, name, plots):
    browser.get(pages[name].as_uri())
    wait_for(browser, lambda d: d.execute_script("return document.readyState") == "complete")
    try:
        measured = browser.execute_script(MEASURE)
        assert [m["id"] for m in measured] == plots
        for m in measured:
            assert m["width"] > 300 and m["height"] > 100, m
            assert m["axes"] >= 1 and m["drawn"] > 0.3, m  # the axes, drawn, fill much of the picture
            assert m["paths"] > 5 and m["texts"] > 2 and m["lettered"] == m["texts"], m
        assert browser.execute_script("return document.querySelectorAll('script, img, link').length") == 0
    finally:
        ARTIFACTS.mkdir(exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / f"report-{name}.png"))
