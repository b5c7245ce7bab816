"""What Jupyter shows: a position draws its SVG board (``_repr_svg_``), a hint is a small table (``_repr_html_``)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from kanaloa.play.hint import Hint, HintCandidate
from kanaloa.rules.registry import load_game

RULE_SETS = [("kanaloa", {"players": 4}), ("kanaloa", {"players": 2, "gods": True}), ("kahuna", {}),
             ("cannonball", {"players": 3})]


@pytest.mark.parametrize(("game", "params"), RULE_SETS, ids=[f"{g}-{p}" for g, p in RULE_SETS])
def test_a_position_shows_its_svg_board(game, params):
    rs = load_game(game, **params)
    position = rs.game_type.face("position").deal(rs, 3)
    svg = position._repr_svg_()
    assert svg == rs.game_type.face("svg")(position)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")


def test_a_viewer_position_shows_what_its_viewer_sees():
    rs = load_game("kanaloa", players=3)
    full = rs.game_type.face("position").deal(rs, 3)
    seen = full.as_viewer(full.to_move)
    assert seen._repr_svg_() == rs.game_type.face("svg")(seen) != full._repr_svg_()


class Cells(HTMLParser):
    """The table's caption, header cells and rows of cells, as text."""

    def __init__(self) -> None:
        super().__init__()
        self.caption, self.head, self.rows, self.bold = "", [], [], []
        self._in: list[str] = []

    def handle_starttag(self, tag, attrs):
        self._in.append(tag)
        if tag == "tr" and "tbody" in self._in:
            self.rows.append([])
        if tag == "td":
            self.rows[-1].append("")

    def handle_endtag(self, tag):
        self._in.pop()

    def handle_data(self, data):
        if "caption" in self._in:
            self.caption += data
        elif "th" in self._in:
            self.head.append(data)
        elif "td" in self._in:
            self.rows[-1][-1] += data
            if "b" in self._in:
                self.bold.append(data)


def test_a_hint_shows_as_a_table_of_its_candidates():
    hint = Hint(move="ALOA-BAFI/ALOA", plan=["ALOA-BAFI/ALOA", "draw"], iterations=12345, seconds=1.5,
                candidates=[HintCandidate("ALOA-BAFI/ALOA", 800, 0.625, 0.02, True),
                            HintCandidate("take <ORO>", 150, 0.5, 0.05, False),
                            HintCandidate("draw", 50, 0.4, 0.0, False, proven=True)])
    cells = Cells()
    cells.feed(hint._repr_html_())
    assert cells.caption == "hint: ALOA-BAFI/ALOA; plan ALOA-BAFI/ALOA draw (12,345 iterations, 1.5 s)"
    assert cells.head == ["move", "visits", "win", "95% interval"]
    assert cells.rows == [["ALOA-BAFI/ALOA", "800", "62.5%", "58.6-66.4%", "about equal"],
                          ["take <ORO>", "150", "50.0%", "40.2-59.8%", ""],
                          ["draw", "50", "40.0%", "40.0-40.0%", "proven win"]]
    assert cells.bold[-1] == "ALOA-BAFI/ALOA"  # the move the hint plays
    assert "take &lt;ORO&gt;" in hint._repr_html_()  # text is escaped


def test_an_interrupted_hint_says_so():
    hint = Hint(move="draw", plan=["draw"], iterations=10, seconds=0.0, interrupted=True,
                candidates=[HintCandidate("draw", 10, 0.5)])
    cells = Cells()
    cells.feed(hint._repr_html_())
    assert cells.caption.endswith("(10 iterations, 0.0 s, interrupted)")
