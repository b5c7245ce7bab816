"""The ``kanaloa`` command on Might of the Gods (R14): ``new --gods``, ``show``, ``moves`` and ``play`` on
positions of the variant, full and seen by a viewer, and every refused option, position or move as one line
``error: ...`` with status 2."""

from __future__ import annotations

import json

import pytest

from cli_helpers import run, user_error
from gods_positions import gods_doc, leftover


def write(tmp_path, doc, name: str = "pos.json") -> str:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return str(path)


def ok(result) -> str:
    assert result.exit_code == 0, (result.output, result.exception)
    return result.stdout


# -- new ---------------------------------------------------------------------------------------------


def test_new_deals_the_gods_by_seed():
    doc = json.loads(ok(run("new", "--gods", "--seed", "4", "--players", "3")))
    assert doc["rules"] == {"preset": "yucata", "gods": True}
    assert len(doc["gods"]["on_islands"]) == 16 and doc["gods"]["owned"] == {"red": [], "green": [], "blue": []}
    again = json.loads(ok(run("new", "--seed", "4", "--players", "3", "--gods")))
    assert again == doc
    plain = json.loads(ok(run("new", "--seed", "4", "--players", "3")))
    assert "gods" not in plain and plain["hands"] == doc["hands"]  # the cards are dealt as without the gods


def test_new_gods_with_two_players_a_preset_and_a_viewer():
    doc = json.loads(ok(run("new", "--gods", "--seed", "4", "--players", "2", "--colors", "red+yellow,green+blue",
                            "--preset", "tabletop", "--viewer", "green")))
    assert doc["rules"] == {"preset": "tabletop", "gods": True}
    assert doc["viewer"] == "green" and doc["gods"]["owned"] == {"red": [], "green": []}
    assert doc["hands"]["red"] == {"count": 4, "public": []}


@pytest.mark.parametrize("args, message", [
    (["--game", "kahuna"], "error: --gods: Might of the Gods is a variant of Kanaloa, not of Kahuna (R14, R16.9)"),
    (["--board", "kahuna"], "error: --board kahuna: Might of the Gods lays one of its 16 god tokens on each island "
                            "(R14.1); the board has 12 islands"),
    (["--board", "atlantis"], "error: board 'atlantis': no such built-in board (oro, kahuna) or file"),
])
def test_new_refuses_the_gods_where_they_do_not_fit(args, message):
    assert user_error(run("new", "--gods", "--seed", "1", *args)) == message


# -- show, moves and play ------------------------------------------------------------------------------


@pytest.fixture()
def example(tmp_path):
    """The hand-written example of the gods (round 2, red to move, red owns KANALOA, KU, PELE and LONO)."""
    return write(tmp_path, gods_doc(), "gods.json")


def test_show_draws_the_tokens(example):
    text = ok(run("show", example))
    assert text.splitlines()[0] == "Kanaloa on oro (yucata, Might of the Gods), full position"
    assert "god (R14)" in text and "God tokens owned (R14.2; used in round 2, R14.4)" in text
    assert "  red     KANALOA KU PELE LONO" in text
    assert "(blue knows DALI ELOI)" in text


def test_moves_lists_the_token_moves(example):
    listed = ok(run("moves", example)).splitlines()
    assert {"ku green", "ku blue", "pele", "lono", "ALOA-COCO/KANALOA", "BAFI-ORO/KANALOA+BAFI"} <= set(listed)
    as_json = json.loads(ok(run("moves", example, "--json")))
    assert as_json == listed


def test_play_uses_the_tokens_and_show_says_what_is_pending(example, tmp_path):
    after_ku = write(tmp_path, ok(run("play", example, "ku green")), "ku.json")
    with open(after_ku) as fh:
        assert json.load(fh)["turn"]["ku_target"] == "green"
    assert "KU showed green's hand: a card of it is to be taken, 'steal CARD' (R14.6)" in ok(run("show", after_ku))
    assert ok(run("moves", after_ku)).splitlines() == ["steal DALI", "steal ELOI"]
    doc = json.loads(ok(run("play", after_ku, "steal DALI", "lono", "take IKA", "ALOA-COCO/KANALOA")))
    assert doc["hands"]["red"]["cards"] == ["ALOA", "BAFI", "COCO", "DALI", "IKA"]
    assert doc["gods"]["owned"]["red"] == ["PELE"] and doc["bridges"]["ALOA-COCO"] == "red"
    after_pele = write(tmp_path, ok(run("play", example, "pele")), "pele.json")
    assert "PELE's gifts are owed to green, blue" in ok(run("show", after_pele))
    assert all(m.startswith("give green ") for m in ok(run("moves", after_pele)).splitlines())


def test_a_viewer_plays_the_records_of_the_tokens(tmp_path):
    blue_view = write(tmp_path, _view("blue"), "blue.json")
    records = ("red: ku green", "red: steal", "red: lono", "red: take IKA refill ALOA")
    doc = json.loads(ok(run("play", blue_view, *records)))
    assert doc["hands"]["green"] == {"count": 1, "public": []} and doc["hands"]["red"]["count"] == 5
    assert doc["face_up"] == ["ALOA", "KULU", "LANI", "MOKU"]
    red_view = write(tmp_path, _view("red"), "red.json")
    doc = json.loads(ok(run("play", red_view, "ku green sees DALI ELOI")))
    assert doc["hands"]["green"]["known"] == {"red": ["DALI", "ELOI"]}
    assert ok(run("moves", write(tmp_path, json.dumps(doc), "red2.json"))).splitlines() == ["steal DALI", "steal ELOI"]
    assert user_error(run("play", red_view, "ku green")) == (
        "error: move 'ku green': name the cards red sees in green's hand: 'ku green sees CARD ...' (R14.6)")
    assert user_error(run("play", blue_view, "red: ku green", "red: steal DALI")) == (
        "error: move 'red: steal DALI': blue does not see which card red takes from green; write 'red: steal' "
        "(R14.10)")


def _view(color: str) -> str:
    """The example as ``color`` sees it, as the command prints it."""
    from kanaloa.position import Position

    return Position.from_json(gods_doc()).as_viewer(color).dumps()


@pytest.mark.parametrize("moves, why", [
    (["ku green sees DALI ELOI"], "this position knows every hand; write 'ku green'"),
    (["ku yellow"], "yellow is not playing (the players are red, green, blue)"),
    (["ku"], "'ku' names a player: 'ku COLOR' (or the user's record 'ku COLOR sees CARD ...')"),
    (["steal ALOA"], "no KU is pending: 'steal' takes a card from the hand a KU showed (R14.6)"),
    (["ku green", "take IKA"], "red must first take a card from green's hand: 'steal CARD' (R14.6)"),
    (["pele", "give blue ALOA"], "PELE's gifts go in seat order after red: green is next, not blue (R14.7)"),
    (["discard ALOA", "lono"], "red has discarded this turn: no god token is used after a discard (R14.4)"),
    (["ALOA-BAFI/KANALOA+KANALOA"], "red owns one KANALOA; a swap paid with KANALOA+KANALOA needs two (R14.5)"),
])
def test_play_refuses_bad_token_moves_in_one_line(example, moves, why):
    """The line names the refused move, the last one given, and says why."""
    assert user_error(run("play", example, *moves)) == f"error: move {moves[-1]!r}: {why}"


def test_show_and_moves_refuse_a_bad_gods_position_in_one_line(tmp_path):
    doc = gods_doc()
    doc["gods"]["owned"]["green"] = ["KANE"]
    path = write(tmp_path, doc)
    message = ("gods.owned.green: KANE is never owned: it scores when it is claimed and leaves the game (R14.3)")
    for command in ("show", "moves"):
        assert user_error(run(command, path)) == f"error: {message}"
    doc = gods_doc()
    doc["hands"]["green"]["known"]["green"] = ["ELOI"]
    assert user_error(run("play", write(tmp_path, doc), "lono")) == (
        "error: hands.green.known.green: green sees its own hand; 'known' holds what the others know of it (R14.10)")
    doc = gods_doc(board="kahuna")
    assert "the board has 12 islands" in user_error(run("show", write(tmp_path, doc)))


def test_a_game_without_the_gods_refuses_their_moves_in_one_line(tmp_path):
    path = write(tmp_path, ok(run("new", "--seed", "2", "--players", "3")))
    assert user_error(run("play", path, "ku green")) == (
        "error: move 'ku green': 'ku' uses a god token of Might of the Gods (R14.6); this game is played without "
        "the gods")


def test_a_hand_above_five_after_a_token_is_shown_and_discarded(tmp_path):
    doc = gods_doc()
    doc["hands"]["red"]["cards"] = ["ALOA", "BAFI", "COCO", "DALI", "FALU", "GUMO"]
    doc["turn"]["over_limit"] = True
    doc["deck"] = leftover(doc)
    path = write(tmp_path, doc)
    assert "a token left the hand above 4: it may be discarded down to 4 (R14.9)" in ok(run("show", path))
    out = json.loads(ok(run("play", path, "discard ALOA", "discard BAFI", "draw")))
    assert out["to_move"] == "green" and "over_limit" not in out["turn"]
