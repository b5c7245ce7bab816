"""Balance reports (``kanaloa report``, ``kanaloa.play.report``; docs/commands.md "report").

What a report counts is checked on hand-made records and positions: who
holds each place at the end of a game (``holders()``, for every game), a
seat's win share and its interval, the comparison of two sets with the
differences and their intervals, and games counted once.  The command is
checked on small ``kanaloa simulate`` runs of Kanaloa (four players, with
and without the gods), Kahuna and Cannonball Colony: the page is valid
HTML with a drawn ``<svg>`` in every plot, the same records give the same
file byte for byte, and every bad record, file and option gives its one
line.  tests/test_report_browser.py opens the page in a browser.
"""

from __future__ import annotations

import json
import shutil
import sys
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import pytest

from cli_helpers import run, user_error
from kanaloa.cannonball.position import CannonballPosition
from kanaloa.cannonball.reference import ReferenceState
from kanaloa.play.records import GameRecord
from kanaloa.play.report import default_labels, report_html
from kanaloa.play.report.tally import Tally, base_lineup
from kanaloa.play.stats import mean_difference, share_difference, wilson_interval
from kanaloa.position import Position
from kanaloa.rules.engine import load_engine
from kanaloa.rules.registry import load_game
from test_rules_r1_r13 import table

# -- who holds each place: the position protocol's holders() ------------------------------------


def test_an_island_is_held_by_the_color_with_an_absolute_majority_of_its_links():
    # DALI has three links (ALOA-DALI, DALI-ELOI, DALI-IKA): two of them are a majority (R2)
    pos = table(load_engine("core"), bridges={"ALOA-DALI": "red", "DALI-ELOI": "red", "DALI-IKA": "blue",
                                              "ALOA-BAFI": "green"})
    held = pos.holders()
    assert list(held) == list(pos.board.islands)
    assert held["DALI"] == "red"
    assert held["ALOA"] is None and held["IKA"] is None  # one bridge of five, one of three: no majority
    assert {name for name, holder in held.items() if holder} == {"DALI"}
    assert all(held[name] == pos.controller_of(name) for name in held)


def test_with_two_players_an_island_of_a_players_second_color_is_that_players():
    rules = load_game("kanaloa", players=2)
    pos = Position.deal(rules, 5)
    pos.play(pos.move_strings()[0])
    pos.play(pos.move_strings()[0])  # the reveals of R3: round 1
    first, second = rules.color_names_of(0)  # red and blue play for red
    doc = pos.to_json()
    doc["bridges"] = {"ALOA-DALI": second, "DALI-ELOI": second, "BAFI-COCO": rules.color_names_of(1)[1]}
    pos = Position.from_json(doc)
    assert pos.controller_of("DALI") == second
    assert pos.holders()["DALI"] == first
    assert pos.players == (first, rules.color_names_of(1)[0])


def test_a_cannonball_landing_board_is_held_by_the_country_with_the_most_forts_on_it():
    rules = load_game("cannonball", players=3)
    d = CannonballPosition.deal(rules, 4, "reference").data
    boards = {seat: [space for space, b in enumerate(d.board_of) if b == seat] for seat in range(3)}
    for space in boards[1][:2]:
        d.fort[space] = 0  # two french forts on spain's board
    d.fort[boards[1][5]] = 1  # and one of spain's own
    d.fort[boards[0][0]] = 0  # france's board: one fort each, a tie
    d.fort[boards[0][7]] = 2
    pos = CannonballPosition(rules, "reference", ReferenceState.from_data(d))
    assert pos.holders() == {"france's board": None, "spain's board": "france", "portugal's board": None}


# -- hand-made records: what the tallies and the page say ---------------------------------------

RULES4 = load_game("kanaloa", players=4)


class Final:
    """A stand-in for a finished position: only who holds what (the report asks nothing else of it)."""

    def __init__(self, held: dict[str, str | None]) -> None:
        self.held = held

    def holders(self) -> dict[str, str | None]:
        return dict(self.held)


def made(index: int, winner: int, length: int = 100, scores: tuple[int, ...] | None = None,
         reason: str = "points", lineup: tuple[str, ...] = ("greedy", "random", "random", "random"),
         rules=RULES4) -> GameRecord:
    """A record of game ``index`` that seat ``winner`` won after ``length`` moves (the moves are not played:
    ``Tally.add`` is handed the final position)."""
    n = rules.players
    ranks = [0] * n
    for place, seat in enumerate([winner, *(s for s in range(n) if s != winner)]):
        ranks[seat] = place + 1
    scores = scores or tuple(20 if s == winner else 10 for s in range(n))
    turned = tuple(lineup[(i - index) % n] for i in range(n))  # rotation index % n of the lineup
    return GameRecord(index, rules, 1000 + index, turned, tuple(range(n)), ("m",) * length, scores, tuple(ranks),
                      winner, reason, source=f"hand line {index + 1}")


def tally_of(winners: list[int], lengths: list[int] | None = None,
             held: dict[str, str | None] | None = None) -> Tally:
    """A tally of hand-made games, game g won by ``winners[g]``."""
    lengths = lengths or [100] * len(winners)
    first = made(0, winners[0])
    t = Tally(RULES4, base_lineup(first), first.source)
    for g, (winner, length) in enumerate(zip(winners, lengths, strict=True)):
        t.add(made(g, winner, length), Final(held or {"ALOA": "red", "BAFI": None}), "hand")
    return t


class Parsed(HTMLParser):
    """A page read back: its sections' texts and tables (rows of cell texts), by section id."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.sections: dict[str, dict] = {}
        self.section: dict | None = None
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag == "section":
            self.section = self.sections.setdefault(dict(attrs)["id"], {"text": [], "tables": []})
        elif tag == "table" and self.section is not None:
            self.section["tables"].append([])
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.row is not None and self.cell is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.section is not None and self.row is not None:
            self.section["tables"][-1].append(self.row)
            self.row = None
        elif tag == "section":
            self.section = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)
        if self.section is not None:
            self.section["text"].append(data)

    def text(self, section: str) -> str:
        return " ".join("".join(self.sections[section]["text"]).split())

    def table(self, section: str, index: int = 0) -> list[list[str]]:
        return self.sections[section]["tables"][index]


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def test_a_seats_share_is_its_wins_over_the_games_with_wilsons_interval():
    t = tally_of([0] * 8 + [1] * 6 + [2] * 4 + [3] * 2)  # 20 games
    assert [t.wins(s) for s in range(4)] == [8, 6, 4, 2] and t.games == 20 and t.decided == 20
    page = Parsed(report_html([t], ["hand"]))
    head, *rows = page.table("seats")
    assert head == ["seat", "player", "wins", "win share", "95% interval", "minus the fair share", "mean rank"]
    low, high = wilson_interval(8, 20)
    assert (low, high) == (pytest.approx(0.2188, abs=1e-4), pytest.approx(0.6134, abs=1e-4))
    assert rows[0] == ["0", "red", "8", "40.0%", f"[{pct(low)}, {pct(high)}]", "+15.0 pp", "1.60"]
    assert rows[3][:4] == ["3", "yellow", "2", "10.0%"]
    # chi-square of equal seats: (9 + 1 + 1 + 9) / 5 = 4 with 3 degrees of freedom, p = 0.2615
    text = page.text("seats")
    assert "No seat advantage shows in 20 games (chi-square 4.00 with 3 degrees of freedom, p = 0.26)" in text
    assert "Seat 0 (red) wins most often: 40.0% of the games" in text


def test_a_seat_advantage_beyond_chance_is_named():
    t = tally_of([0] * 40 + [1] * 20 + [2] * 20 + [3] * 20)
    text = Parsed(report_html([t], ["hand"])).text("seats")
    # (15^2 + 3 * 5^2) / 25 = 12 with 3 degrees of freedom: p = 0.0074
    assert "The seats do not win equally often (chi-square 12.00 with 3 degrees of freedom, p = 0.0074)" in text
    assert "Seats above the fair share beyond chance: red." in text  # 40 of 100: from 30.9%


def test_games_without_a_winner_lower_the_fair_share():
    rules = load_game("kahuna")
    records = [made(g, g % 2, lineup=("greedy", "random"), rules=rules) for g in range(6)]
    records += [replace(made(6 + g, 0, lineup=("greedy", "random"), rules=rules), winner=-1) for g in range(2)]
    t = Tally(rules, base_lineup(records[0]), "hand")
    for record in records:
        t.add(record, Final({}), "hand")
    assert (t.games, t.no_winner, t.decided) == (8, 2, 6)
    page = Parsed(report_html([t], ["hand"]))
    assert ["games without a winner", "2 (25.0%)"] in page.table("games")
    assert "fair share, the games with a winner divided among the seats (37.5%)" in page.text("seats")
    assert "places" not in page.sections  # no place held in these hand-made games: no such section


def test_two_sets_side_by_side_with_the_differences_and_their_intervals():
    a = tally_of([0] * 8 + [1] * 6 + [2] * 4 + [3] * 2, lengths=[100] * 10 + [120] * 10,
                 held={"ALOA": "red", "BAFI": None})
    b = tally_of([0, 1, 2, 3] * 5, lengths=[90] * 20, held={"ALOA": None, "BAFI": "green"})
    page = Parsed(report_html([a, b], ["first", "second"]))
    head, *rows = page.table("seats")
    assert head == ["seat", "player", "A win share [95%]", "B win share [95%]", "A minus B [95%]"]
    d, low, high = share_difference(8, 20, 5, 20)
    assert d == pytest.approx(0.15)
    assert rows[0] == ["0", "red", f"40.0% [{pct(wilson_interval(8, 20)[0])}, {pct(wilson_interval(8, 20)[1])}]",
                       f"25.0% [{pct(wilson_interval(5, 20)[0])}, {pct(wilson_interval(5, 20)[1])}]",
                       f"+15.0 pp [{100 * low:+.1f}, {100 * high:+.1f}]"]
    # homogeneity of [[8, 6, 4, 2], [5, 5, 5, 5]]: expected 6.5, 5.5, 4.5, 3.5 in both rows, chi-square 2.18
    assert "A and B spread their wins over the seats alike, as far as these games tell (chi-square 2.18 with 3 " \
           "degrees of freedom, p = 0.54)" in page.text("seats")
    lengths = page.table("lengths")
    mean = a.length_moments.interval()
    assert lengths[1] == ["mean moves [95%]", f"110.00 [{mean[0]:.2f}, {mean[1]:.2f}]", "90.00 [90.00, 90.00]"]
    d, low, high = mean_difference(a.length_moments, b.length_moments)
    assert lengths[-1] == ["A minus B, mean [95%]", f"+20.00 [{low:+.2f}, {high:+.2f}]", ""]
    places = page.table("places")
    assert places[0] == ["place", "A held [95%]", "B held [95%]", "A minus B [95%]"]
    assert places[1][0] == "ALOA" and places[1][1].startswith("100.0%") and places[1][2].startswith("0.0%")
    assert places[1][3].startswith("+100.0 pp")


def test_two_sets_of_different_seats_each_get_their_own_seat_table_and_no_seat_differences():
    rules3 = load_game("kanaloa", players=3)
    three = Tally(rules3, ("greedy", "random", "random"), "hand")
    for g in range(6):
        three.add(made(g, g % 3, lineup=("greedy", "random", "random"), rules=rules3), Final({}), "hand")
    four = tally_of([0, 1, 2, 3])
    text = report_html([three, four], ["three", "four"])
    page = Parsed(text)
    assert [len(page.table("seats", k)) for k in (0, 1)] == [4, 5]  # a head and one row a seat, in each
    assert "A minus B [95%]" not in page.table("seats", 0)[0]
    assert 'id="plot-seat-difference"' not in text
    assert "fair share, the games with a winner divided among the seats (A 33.3%; B 25.0%)" in page.text("seats")
    assert 'id="plot-places"' in report_html([four, three], ["four", "three"])  # places beside a set without


def test_default_labels_say_what_tells_two_sets_apart():
    def tally(rules, lineup=("greedy", "greedy", "greedy", "greedy"), source="a.jsonl"):
        t = Tally(rules, lineup, "hand")
        t.sources.append(source)
        return t

    plain, gods = load_game("kanaloa", players=4), load_game("kanaloa", players=4, gods=True)
    tabletop = load_game("kanaloa", players=4, preset="tabletop")
    assert default_labels([tally(plain), tally(gods)]) == ["no gods", "gods"]
    assert default_labels([tally(plain), tally(tabletop)]) == ["preset yucata", "preset tabletop"]
    assert default_labels([tally(plain), tally(load_game("kanaloa", players=3), lineup=("greedy",) * 3)]) == [
        "players 4", "players 3"]
    assert default_labels([tally(plain), tally(load_game("cannonball", players=4))]) == [
        "Kanaloa", "Cannonball Colony"]
    assert default_labels([tally(plain), tally(plain, ("greedy", "random", "random", "random"))]) == [
        "greedy x4", "greedy, random x3"]
    assert default_labels([tally(plain), tally(plain, source="b.jsonl")]) == ["a.jsonl", "b.jsonl"]
    assert default_labels([tally(plain), tally(plain)]) == ["A", "B"]
    assert default_labels([tally(plain)]) == ["Kanaloa, 4 players, yucata preset, on board oro"]


# -- the command on small simulations -------------------------------------------------------------


def simulated(folder: Path, name: str, *args: str) -> Path:
    out = folder / f"{name}.jsonl"
    result = run("simulate", *args, "--out", str(out), "--no-progress")
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """Small runs of every game: Kanaloa with four players, with and without the gods, Kahuna, Cannonball
    Colony, and identical greedy bots (whose seat rotations play the same game)."""
    folder = tmp_path_factory.mktemp("records")
    lineup = "greedy,random,random,random"
    return {
        "kanaloa": simulated(folder, "kanaloa", "--bots", lineup, "--games", "8", "--seed", "1"),
        "gods": simulated(folder, "gods", "--bots", lineup, "--games", "8", "--seed", "1", "--gods"),
        "kahuna": simulated(folder, "kahuna", "--game", "kahuna", "--bots", "greedy,random", "--games", "6",
                            "--seed", "2"),
        "cannonball": simulated(folder, "cannonball", "--game", "cannonball", "--bots", "greedy,random,random",
                                "--games", "6", "--seed", "3"),
        "greedy": simulated(folder, "greedy", "--bots", "greedy,greedy,greedy,greedy", "--games", "8", "--seed",
                            "4"),
    }


def report(tmp_path: Path, *args: str, name: str = "report.html") -> str:
    out = tmp_path / name
    result = run("report", *args, "-o", str(out), "--no-progress")
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert result.stderr.strip().startswith("kanaloa: wrote the report of ")
    return out.read_text(encoding="utf-8")


VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "wbr", "source", "track", "param",
        "embed"}


class Checked(HTMLParser):
    """A page checked as it is read: a doctype, every element closed in order, ids unique, nothing fetched
    from anywhere (no script, no link, no image, no reference but to an id of the page), and each plot."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.doctype = ""
        self.stack: list[str] = []
        self.ids: list[str] = []
        self.references: list[str] = []
        self.plots: dict[str, dict[str, int]] = {}
        self.plot: str | None = None
        self.tags: set[str] = set()
        self.feed(text)
        self.close()
        assert not self.stack, f"not closed: {self.stack}"

    def handle_decl(self, decl):
        self.doctype = decl

    def handle_starttag(self, tag, attrs):
        self._open(tag, dict(attrs))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self._open(tag, dict(attrs))

    def _open(self, tag, attrs):
        self.tags.add(tag)
        assert tag not in ("script", "link", "img", "iframe", "object", "embed"), tag
        for name in ("src", "href", "xlink:href"):
            if name in attrs:
                self.references.append(attrs[name])
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "figure" and attrs.get("class") == "plot":
            self.plot = attrs["id"]
            self.plots[self.plot] = {"svg": 0, "path": 0, "text": 0}
        elif self.plot is not None and tag in ("svg", "path", "text"):
            self.plots[self.plot][tag] += 1
            if tag == "svg":
                assert attrs.get("viewbox"), "an svg without its viewBox"

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()
        if tag == "figure":
            self.plot = None


def check_page(text: str) -> Checked:
    page = Checked(text)
    assert page.doctype == "DOCTYPE html"
    assert {"html", "head", "title", "body", "main", "style"} <= page.tags
    assert len(page.ids) == len(set(page.ids)), "an id given twice"
    assert all(ref.startswith("#") and ref[1:] in page.ids for ref in page.references), page.references
    assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "").replace(
        'xmlns:xlink="http://www.w3.org/1999/xlink"', "")
    assert page.plots
    for name, found in page.plots.items():
        assert found["svg"] == 1 and found["path"] > 5 and found["text"] > 2, (name, found)
    return page


PLOTS = ["plot-seats", "plot-scores", "plot-lengths", "plot-places", "plot-reasons", "plot-bots"]


@pytest.mark.parametrize("game, places", [("kanaloa", 16), ("kahuna", 12), ("cannonball", 3)])
def test_a_report_of_each_game_is_valid_html_with_every_plot_drawn(runs, tmp_path, game, places):
    text = report(tmp_path, str(runs[game]))
    assert list(check_page(text).plots) == PLOTS
    page = Parsed(text)
    assert ["records", "6" if game != "kanaloa" else "8"] in page.table("games")
    assert len(page.table("places")) == places + 1
    if game == "cannonball":
        assert page.table("places")[1][0] == "france's board"
        assert any(row[0] == "shared victories" for row in page.table("games"))
    assert [row[0] for row in page.table("bots")[1:]] == ["greedy", "random (x3)" if game == "kanaloa" else
                                                          "random (x2)" if game == "cannonball" else "random"]


def test_two_rule_sets_are_compared_side_by_side(runs, tmp_path):
    text = report(tmp_path, str(runs["kanaloa"]), str(runs["gods"]))
    assert list(check_page(text).plots) == ["plot-seats", "plot-seat-difference", *PLOTS[1:]]
    page = Parsed(text)
    assert page.table("games")[0] == ["", "A no gods", "B gods"]
    assert "A minus B [95%]" in page.table("seats")[0]
    assert "<title>Balance report: no gods vs gods</title>" in text


def test_labels_title_and_an_explicit_second_set(runs, tmp_path):
    text = report(tmp_path, str(runs["kanaloa"]), "--vs", str(runs["gods"]), "--label", "plain", "--label",
                  "with the gods", "--title", "Gods & seats")
    page = Parsed(text)
    assert page.table("games")[0] == ["", "A plain", "B with the gods"]
    assert "<title>Gods &amp; seats</title>" in text
    # --vs may set a set beside one of the same rule set and bots: the files name them
    other = simulated(tmp_path, "other", "--bots", "greedy,random,random,random", "--games", "4", "--seed", "9")
    page = Parsed(report(tmp_path, str(runs["kanaloa"]), "--vs", str(other), name="same.html"))
    assert page.table("games")[0] == ["", f"A {runs['kanaloa']}", f"B {other}"]


def test_the_same_records_give_the_same_page_byte_for_byte(runs, tmp_path):
    args = (str(runs["kanaloa"]), str(runs["gods"]))
    assert report(tmp_path, *args, name="one.html") == report(tmp_path, *args, name="two.html")


def test_identical_bots_repeat_each_game_in_every_rotation_and_it_counts_once(runs, tmp_path):
    page = Parsed(report(tmp_path, str(runs["greedy"])))
    games = dict((row[0], row[1]) for row in page.table("games")[1:])
    assert games["records"] == "8"
    assert games["games counted"].startswith("2: 6 records repeat a game of their deal move for move")
    assert games["deals"] == "2"
    assert "bots" not in page.sections  # one bot in every seat: nothing to tell apart


def test_simulate_report_writes_the_page_of_its_games(runs, tmp_path):
    out, page = tmp_path / "games.jsonl", tmp_path / "run.html"
    result = run("simulate", "--bots", "greedy,random,random,random", "--games", "8", "--seed", "1", "--out",
                 str(out), "--report", str(page), "--no-progress")
    assert result.exit_code == 0, result.output
    assert "kanaloa: wrote the report of 8 games to" in result.stderr
    assert out.read_bytes() == runs["kanaloa"].read_bytes()
    from_run = page.read_text(encoding="utf-8").replace("this run of kanaloa simulate (--seed 1)", "FILE")
    assert from_run == report(tmp_path, str(runs["kanaloa"])).replace(str(runs["kanaloa"]), "FILE")


def test_the_page_goes_to_standard_output_and_records_come_from_standard_input(runs):
    result = run("report", "-", "-o", "-", "--no-progress", input=runs["kahuna"].read_bytes())
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("<!DOCTYPE html>") and result.stderr == ""
    assert ["read from", "standard input"] in Parsed(result.stdout).table("games")


# -- what the command refuses, in one line --------------------------------------------------------


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def written(tmp_path: Path, name: str, lines: list[str]) -> str:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def edited(line: str, **changes) -> str:
    doc = json.loads(line)
    doc.update(changes)
    return json.dumps(doc)


def test_bad_records_are_refused_naming_the_file_the_line_and_the_field(runs, tmp_path):
    lines = lines_of(runs["kanaloa"])
    bad = written(tmp_path, "bad.jsonl", [lines[0], "{not json"])
    assert user_error(run("report", bad)).startswith(f"error: RECORDS {bad!r} line 2: ")
    scores = written(tmp_path, "scores.jsonl", [lines[0], edited(lines[1], scores=[0, 0, 0, 0])])
    assert user_error(run("report", scores, "-o", str(tmp_path / "x.html"))).startswith(
        f"error: RECORDS {scores!r} line 2: field 'scores' says [0, 0, 0, 0], but the game its moves play ends with ")
    seed = written(tmp_path, "seed.jsonl", [edited(lines[0], seed=12345)])
    assert user_error(run("report", seed), f"RECORDS {seed!r} line 1: game 0, move ")
    empty = written(tmp_path, "empty.jsonl", ["", ""])
    assert user_error(run("report", str(runs["kanaloa"]), empty)) == f"error: RECORDS {empty!r}: holds no game record"
    assert not (tmp_path / "x.html").exists()


def test_bad_game_indexes_are_refused(runs, tmp_path):
    lines = lines_of(runs["kanaloa"])
    twice = written(tmp_path, "twice.jsonl", [lines[0], lines[1], lines[0]])
    assert user_error(run("report", twice)) == (
        f"error: RECORDS {twice!r} line 3: game 0 again, after line 1; a file holds each game once")
    deal = written(tmp_path, "deal.jsonl", [edited(lines[5], deal=0)])
    assert user_error(run("report", deal)) == (
        f"error: RECORDS {deal!r} line 1: field 'deal' must be 1 for game 5 of 4 players (game // players), not 0")
    copy = tmp_path / "copy.jsonl"
    shutil.copy(runs["kanaloa"], copy)
    assert user_error(run("report", str(runs["kanaloa"]), str(copy))) == (
        f"error: RECORDS {str(copy)!r} line 1: game 0 again, as RECORDS {str(runs['kanaloa'])!r} line 1 gave it "
        f"(the same deal seed, bots, bot seeds and moves); a report counts each game once")


def test_inputs_and_sets_that_do_not_make_a_report_are_refused(runs, tmp_path):
    kanaloa, gods, kahuna = (str(runs[name]) for name in ("kanaloa", "gods", "kahuna"))
    assert user_error(run("report")) == "error: RECORDS...: missing; usage: kanaloa report [OPTIONS] RECORDS..."
    assert user_error(run("report", str(tmp_path / "none.jsonl"))) == (
        f"error: RECORDS {str(tmp_path / 'none.jsonl')!r}: no such file")
    assert user_error(run("report", str(tmp_path))) == (
        f"error: RECORDS {str(tmp_path)!r}: is a directory, not game records of 'kanaloa simulate --out'")
    assert user_error(run("report", kanaloa, kanaloa)) == (
        f"error: RECORDS {kanaloa!r}: given twice (also as RECORDS {kanaloa!r}); a report counts each game once")
    assert user_error(run("report", kanaloa, "--vs", kanaloa)) == (
        f"error: --vs {kanaloa!r}: given twice (also as RECORDS {kanaloa!r}); a report counts each game once")
    assert user_error(run("report", kanaloa, gods, kahuna)) == (
        "error: RECORDS: the records hold 3 record sets (Kanaloa, 4 players, yucata preset, on board oro, bots "
        "greedy, random x3; Kanaloa, 4 players, yucata preset, Might of the Gods, on board oro, bots greedy, random "
        "x3; Kahuna, white against black, on board kahuna, bots greedy, random); a report shows one, or two side by "
        "side: give the files of one or two sets (the second with --vs)")
    assert user_error(run("report", kanaloa, "--vs", gods, "--vs", kahuna)) == (
        f"error: --vs {kahuna!r} line 1: Kahuna, white against black, on board kahuna, bots greedy, random, but the "
        f"set's first record (--vs {gods!r} line 1) is Kanaloa, 4 players, yucata preset, Might of the Gods, on "
        f"board oro, bots greedy, random x3; a record set holds one rule set and one lineup")
    assert user_error(run("report", "--vs", "x")) == (
        "error: RECORDS...: missing; usage: kanaloa report [OPTIONS] RECORDS...")
    assert user_error(run("report", kanaloa, "--vs")) == "error: --vs: needs a value"


@pytest.mark.parametrize("args, message", [
    (["--label", "a", "--label", "b", "--label", "c"],
     "error: --label: given 3 times; a report shows one record set or two, each with one label"),
    (["--label", " "], "error: --label: empty; name the record set"),
    (["--label", "a"], "error: --label: given 1 time, but the records hold 2 record sets; give one label a set, "
                       "or none"),
    (["--label", "a", "--label", "a"], "error: --label 'a': given to both record sets; give each its own"),
    (["-o", ""], "error: -o: empty; give a file name, or '-' for standard output"),
    (["--output", "/no/such/folder/r.html"], "error: -o '/no/such/folder/r.html': cannot write it (no directory "
                                             "'/no/such/folder')"),
    (["--progress=yes"], "error: --progress: takes no value"),
])
def test_bad_options_are_refused(runs, args, message):
    assert user_error(run("report", str(runs["kanaloa"]), str(runs["gods"]), "--no-progress", *args)) == message


def test_a_report_into_a_folder_is_refused_before_any_record_is_read(runs, tmp_path):
    assert user_error(run("report", str(runs["kanaloa"]), "-o", str(tmp_path))) == (
        f"error: -o {str(tmp_path)!r}: is a directory; give the report's file name")
    assert user_error(run("simulate", "--bots", "random,random", "--games", "2", "--report", str(tmp_path))) == (
        f"error: --report {str(tmp_path)!r}: is a directory; give the report's file name")
    assert user_error(run("simulate", "--bots", "random,random", "--games", "2", "--report", "-")) == (
        "error: --report -: the summary goes to standard output; give the report a file name")


def test_without_matplotlib_the_report_says_which_extra_it_needs(runs, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    extra = "needs the report extra: pip install 'kanaloa[report]' (matplotlib is not installed)"
    assert user_error(run("report", str(runs["kanaloa"]), "-o", str(tmp_path / "r.html"))) == (
        f"error: kanaloa report: {extra}")
    out = tmp_path / "games.jsonl"
    assert user_error(run("simulate", "--bots", "random,random", "--games", "2", "--out", str(out), "--report",
                          str(tmp_path / "r.html"))) == f"error: --report: {extra}"
    assert not out.exists() and not (tmp_path / "r.html").exists()  # refused before any game is played
