"""``kanaloa new --viewer COLOR --hand CARDS``: the position a player faces at the deal of a real table.

For every rule set of every registered game that hides hands, the cards a player was really dealt (and
the cards face-up at the deal, the god tokens, where the game shows them then) give that player's view of
the deal: the same document the full deal's ``as_viewer`` gives, and the one the web app's Table mode
builds from the same hand; ``moves`` and ``hint`` read it.  A game that hides nothing refuses ``--hand``
with its reason, and every impossible hand is refused in one line naming its option (docs/table.md).
"""

from __future__ import annotations

import json

import pytest

from cli_helpers import run, user_error
from kanaloa.position import Position, deal_position
from kanaloa.rules.registry import game_types

RULE_SETS = [(g, params) for g in game_types() for params in g.examples]


def rule_set_id(case) -> str:
    g, params = case
    return f"{g.name} {g.options_of(params)}"


HIDING = [case for case in RULE_SETS if case[0].load(**case[1]).lacks("viewer") is None]
OPEN = [case for case in RULE_SETS if case not in HIDING]


def table_args(g, params: dict, viewer: str, dealt: dict, rs) -> list[str]:
    """``kanaloa new`` with the rule set's options and what ``viewer`` saw of the deal ``dealt``, typed the way
    a player may type it: lower case, a space after some commas."""
    args = ["new", "--game", g.name, *(g.options_of(params).split() if params else []), "--viewer", viewer,
            "--hand", ", ".join(dealt["hands"][viewer]["cards"]).lower()]
    if rs.face_up_at_deal:
        args += ["--face-up", ",".join(dealt["face_up"]).lower()]
    if rs.tokens:
        args += ["--tokens", ",".join(f"{island.lower()}={token}" for island, token in
                                      dealt["gods"]["on_islands"].items())]
    return args


def web_table(g, params: dict, viewer: str, dealt: dict, rs) -> dict:
    """The viewer position the web app's Table mode builds from the same hand (POST /api/tables)."""
    from kanaloa.interfaces.web.games import new_table

    body = {"ruleset": g.name, **params, "viewer": viewer, "hand": dealt["hands"][viewer]["cards"]}
    if rs.face_up_at_deal:
        body["face_up"] = dealt["face_up"]
    if rs.tokens:
        body["tokens"] = dealt["gods"]["on_islands"]
    return new_table(body).pos.to_json()


@pytest.mark.parametrize("case", HIDING, ids=rule_set_id)
def test_the_hand_a_player_was_dealt_gives_that_players_view_of_the_deal(case):
    g, params = case
    rs = g.load(**params)
    full = deal_position(rs, 6)
    dealt = full.to_json()
    for viewer in rs.seat_names:
        result = run(*table_args(g, params, viewer, dealt, rs))
        assert result.exit_code == 0, result.output
        assert result.stderr == ""  # no seed is announced: nothing was dealt at random
        doc = json.loads(result.stdout)
        assert doc == full.as_viewer(viewer).to_json()
        assert doc == web_table(g, params, viewer, dealt, rs)
        assert "seed" not in doc


@pytest.mark.parametrize("case", HIDING, ids=rule_set_id)
def test_moves_and_a_hint_read_the_position_of_the_player_to_move(case, tmp_path):
    g, params = case
    rs = g.load(**params)
    dealt = deal_position(rs, 8).to_json()
    first = rs.seat_names[0]
    table = tmp_path / "table.json"
    table.write_text(run(*table_args(g, params, first, dealt, rs)).stdout)
    listed = run("moves", str(table), "--json")
    assert listed.exit_code == 0, listed.output
    legal = json.loads(listed.stdout)
    assert legal == Position.from_json(table.read_text()).move_strings()
    assert legal
    found = run("hint", str(table), "--iterations", "200", "--workers", "1", "--seed", "1", "--json")
    assert found.exit_code == 0, found.output
    assert json.loads(found.stdout)["move"] in legal


def test_a_two_player_hand_is_a_players_named_by_its_first_color():
    """R15.1: with two players the viewer is a player, and its hand holds the cards of both its colors."""
    doc = json.loads(run("new", "--players", "2", "--viewer", "green", "--hand", "ALOA,BAFI,COCO,DALI").stdout)
    assert doc["viewer"] == "green" and doc["colors"] == {"red": ["red", "blue"], "green": ["green", "yellow"]}
    assert doc["hands"] == {"red": {"count": 4, "public": []}, "green": {"cards": ["ALOA", "BAFI", "COCO", "DALI"],
                                                                         "public": []}}
    refused = run("new", "--players", "2", "--viewer", "yellow", "--hand", "ALOA,BAFI,COCO,DALI")
    assert user_error(refused) == ("error: --viewer 'yellow': yellow is green's second color; a player is named by "
                                   "its first color, green (R15.1)")


def test_kahunas_cards_face_up_at_the_deal_are_part_of_the_position():
    """R16.2: Kahuna turns 3 cards face-up at the deal; the viewer sees them, in the order given."""
    doc = json.loads(run("new", "--game", "kahuna", "--viewer", "black", "--hand", "aloa, bari, coco",
                         "--face-up", "lale,duda,DUDA").stdout)
    assert doc["hands"]["black"]["cards"] == ["ALOA", "BARI", "COCO"] and doc["face_up"] == ["LALE", "DUDA", "DUDA"]
    assert doc["round"] == 1 and doc["deck"] == {"count": 24 - 3 - 3 - 3}


def test_the_gods_tokens_lie_on_the_islands_they_were_given_for():
    """R14.1: with the gods each island holds a token; nobody owns one at the deal."""
    tokens = dict(zip(["ALOA", "BAFI", "COCO", "DALI", "ELOI", "FALU", "GUMO", "HILO"], ["KANALOA", "KANALOA", "KU",
                                                                                        "KU", "PELE", "PELE", "LONO",
                                                                                        "LONO"], strict=True))
    laid = {**tokens, **{island: "KANE" for island in ["IKA", "KULU", "LANI", "MOKU", "NALU", "ORO", "PAHU",
                                                       "RASI"]}}
    text = ", ".join(f"{island}={token.lower()}" for island, token in laid.items())
    doc = json.loads(run("new", "--gods", "--viewer", "red", "--hand", "ORO,ORO,RASI,IKA", "--tokens", text).stdout)
    assert doc["gods"] == {"on_islands": laid, "owned": {p: [] for p in ["red", "green", "blue", "yellow"]}}


@pytest.mark.parametrize("case", OPEN, ids=rule_set_id)
def test_a_game_that_hides_nothing_refuses_a_hand_with_its_reason(case):
    g, params = case
    rs = g.load(**params)
    why = rs.lacks("viewer")
    for viewer in ([], ["--viewer", rs.seat_names[0]]):
        result = run("new", "--game", g.name, *g.options_of(params).split(), *viewer, "--hand", "ALOA")
        assert user_error(result) == f"error: --hand: {why}, so no hand is yours alone; deal the game without --hand"


ORO_HAND = ["--viewer", "red", "--hand", "ALOA,BAFI,COCO,DALI"]
GODS_TOKENS = ("ALOA=KANALOA,BAFI=KANALOA,COCO=KU,DALI=KU,ELOI=PELE,FALU=PELE,GUMO=LONO,HILO=LONO,IKA=KANE,"
               "KULU=KANE,LANI=KANE,MOKU=KANE,NALU=KANE,ORO=KANE,PAHU=KANE")


@pytest.mark.parametrize(
    "args, message",
    [
        # who holds the hand, and what a seed would mean
        (["--hand", "ALOA,BAFI,COCO,DALI"], "error: --hand: give --viewer too, the player who was dealt these cards "
                                            "(one of red, green, blue, yellow)"),
        ([*ORO_HAND, "--seed", "3"], "error: --seed 3: not with --hand; a seed deals cards at random, --hand gives the "
                                     "ones you were dealt (and a position seen by a player keeps no seed)"),
        (["--players", "3", "--viewer", "yellow", "--hand", "ALOA,BAFI,COCO,DALI"],
         "error: --viewer 'yellow': must be one of the players, red, green, blue"),
        (["--game", "kahuna", "--viewer", "red", "--hand", "ALOA,BARI,COCO", "--face-up", "DUDA,ELAI,FAAA"],
         "error: --viewer 'red': must be one of the players, white, black"),
        # the hand
        (["--viewer", "red", "--hand", "ALOA,BAFI,COCO"], "error: --hand: 3 card(s) given; give the 4 cards you were "
                                                          "dealt (R3)"),
        (["--viewer", "red", "--hand", "ALOA,BAFI,COCO,DALI,ELOI"], "error: --hand: 5 card(s) given; give the 4 cards "
                                                                    "you were dealt (R3)"),
        (["--viewer", "red", "--hand", "ALOA,BAFI,COCO,XYZ"], "error: --hand: 'XYZ' is not an island of board oro"),
        (["--viewer", "red", "--hand", "aloa, ALOA, Aloa, aloa"], "error: --hand: 4 ALOA cards in your hand; board oro "
                                                                  "has 3 of each island"),
        (["--viewer", "red", "--hand", "ALOA,,BAFI,COCO"], "error: --hand 'ALOA,,BAFI,COCO': an empty card name; write "
                                                           "the island names joined by commas, e.g. --hand "
                                                           "ALOA,BAFI,COCO,DALI"),
        # the cards face-up at the deal
        ([*ORO_HAND, "--face-up", "ORO"], "error: --face-up: no card is face-up at the deal of Kanaloa; the cards are "
                                          "turned face-up after the setup (R3)"),
        (["--game", "kahuna", "--viewer", "white", "--hand", "ALOA,BARI,COCO"],
         "error: --face-up: missing; Kahuna turns 3 cards face-up at the deal (R16.2): give them too, e.g. --face-up "
         "JOJO,KAHU,LALE"),
        (["--game", "kahuna", "--viewer", "white", "--hand", "ALOA,BARI,COCO", "--face-up", "DUDA,ELAI"],
         "error: --face-up: 2 card(s) given; give the 3 cards turned face-up at the deal (R16.2)"),
        (["--game", "kahuna", "--viewer", "white", "--hand", "ALOA,BARI,COCO", "--face-up", "DUDA,ELAI,ORO"],
         "error: --face-up: 'ORO' is not an island of board kahuna"),
        (["--game", "kahuna", "--viewer", "white", "--hand", "ALOA,ALOA,COCO", "--face-up", "aloa,DUDA,ELAI"],
         "error: --face-up: 3 ALOA cards in your hand and the face-up cards; board kahuna has 2 of each island"),
        (["--face-up", "ORO"], "error: --face-up: goes with --hand, the cards you were dealt at a real table; without "
                               "--hand the seed deals everything"),
        # the god tokens
        (["--gods", *ORO_HAND], "error: --tokens: missing; this game lays a god token on each of the 16 islands: give "
                                "them all, e.g. --tokens ALOA=KANE,BAFI=KANALOA,... (tokens: KANE, KANALOA, KU, PELE, "
                                "LONO)"),
        (["--gods", *ORO_HAND, "--tokens", GODS_TOKENS], "error: --tokens: no token given for RASI; name the token on "
                                                         "each of the 16 islands"),
        (["--gods", *ORO_HAND, "--tokens", GODS_TOKENS + ",RASI=KANE,XYZ=KANE"],
         "error: --tokens: 'XYZ' is not an island of oro"),
        (["--gods", *ORO_HAND, "--tokens", GODS_TOKENS + ",RASI=ZEUS"],
         "error: --tokens RASI=ZEUS: 'ZEUS' is not a god token (KANE, KANALOA, KU, PELE, LONO)"),
        (["--gods", *ORO_HAND, "--tokens", GODS_TOKENS + ",RASI=KU"], "error: --tokens: 3 KU tokens; the game has 2 "
                                                                      "(R14.1)"),
        (["--gods", *ORO_HAND, "--tokens", GODS_TOKENS.replace("ALOA=KANALOA", "ALOA=KANE") + ",RASI=KANE"],
         "error: --tokens: 9 KANE tokens; the game has 8 (R14.1)"),
        (["--gods", *ORO_HAND, "--tokens", GODS_TOKENS + ",aloa=KU"], "error: --tokens: ALOA is given twice; name one "
                                                                      "token for each island"),
        (["--gods", *ORO_HAND, "--tokens", "ALOA=KANE,BAFI"], "error: --tokens 'BAFI': not ISLAND=TOKEN; write the "
                                                              "token on each island, joined by commas: --tokens "
                                                              "ALOA=KANE,BAFI=KANALOA,..."),
        ([*ORO_HAND, "--tokens", "ALOA=KANE"],
         "error: --tokens: only a game of Might of the Gods has god tokens (R14): its rules say \"gods\": true"),
        (["--game", "kahuna", "--viewer", "white", "--hand", "ALOA,BARI,COCO", "--face-up", "DUDA,ELAI,FAAA",
          "--tokens", "ALOA=KANE"], "error: --tokens: Kahuna has no god tokens: Might of the Gods is a variant of "
                                    "Kanaloa (R14, R16.9)"),
        (["--tokens", "ALOA=KANE"], "error: --tokens: goes with --hand, the cards you were dealt at a real table; "
                                    "without --hand the seed deals everything"),
    ],
)
def test_an_impossible_hand_is_refused_naming_its_option(args, message):
    assert user_error(run("new", *args)) == message


def test_the_web_table_refuses_what_the_command_refuses_with_the_same_reason():
    """The Table mode's request and ``new --hand`` are checked by one function: after the name, one reason."""
    from kanaloa.errors import OptionError
    from kanaloa.interfaces.web.games import new_table

    for body, args in [({"viewer": "red", "hand": ["ALOA"] * 4}, ["--viewer", "red", "--hand", "ALOA,ALOA,ALOA,ALOA"]),
                       ({"ruleset": "kahuna", "viewer": "white", "hand": ["ALOA", "BARI", "COCO"],
                         "face_up": ["DUDA", "ELAI"]},
                        ["--game", "kahuna", "--viewer", "white", "--hand", "ALOA,BARI,COCO",
                         "--face-up", "DUDA,ELAI"])]:
        said = user_error(run("new", *args))
        with pytest.raises(OptionError) as refused:
            new_table(body)
        option, _, why = said.removeprefix("error: ").partition(": ")
        field, _, web_why = str(refused.value).partition(": ")
        assert (option, why) == ({"hand": "--hand", "face_up": "--face-up"}[field], web_why)


def test_the_examples_of_new_help_run():
    """``kanaloa new --help`` shows how to start from a real table's hand; each example works as printed."""
    import shlex

    examples = [line.strip() for line in run("new", "--help").stdout.splitlines()
                if line.strip().startswith("kanaloa new") and "--hand" in line]
    assert len(examples) == 2
    for line in examples:
        words = shlex.split(line.partition(">")[0])
        result = run(*words[1:])
        assert result.exit_code == 0, (line, result.output)
        assert json.loads(result.stdout)["viewer"] == words[words.index("--viewer") + 1]
