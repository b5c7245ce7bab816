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

from kanaloa.cannonball.position import CannonballPosition
from kanaloa.cannonball.reference import ReferenceState
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
