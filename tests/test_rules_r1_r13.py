"""The rulebook, rule by rule (R1-R13), and every worked example of the online rules.

Each test builds a small position in the public ``kanaloa-position/1`` format,
plays moves in notation through ``kanaloa.position.Position`` and checks what
the rule says must happen.  Every test runs on both implementations (the
``impl`` fixture): the compiled core and the readable reference.

The worked examples follow the online rules' cast: Betty plays red, Mateo
green, Adam yellow and Kayla blue.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from kanaloa.errors import BoardError, MoveError, PositionError
from kanaloa.position import Position
from kanaloa.rules.board import load_board
from kanaloa.rules.engine import Engine, load_engine

COLORS = ["red", "green", "blue", "yellow"]
ORO = load_board("oro")


@pytest.fixture(params=["core", "reference"])
def impl(request) -> Engine:
    return load_engine(request.param)


def table(
    impl: Engine,
    *,
    players: list[str] = COLORS,
    to_move: str | None = None,
    round: int | str = 1,
    bridges: dict[str, str] | None = None,
    hands: dict[str, list[str]] | None = None,
    face_up: list[str] | None = None,
    deck: list[str] | None = None,
    scores: dict[str, int] | None = None,
    turn: dict | None = None,
    final_round: dict | None = None,
    preset: str = "yucata",
    seed: int | None = None,
) -> Position:
    """A full position on ``oro``; every card not placed explicitly goes to the open discards.

    In rounds 1 and 2, ``face_up`` and ``deck`` default to the first unused cards in island
    order (four face-up, eight in the deck); in the final round both default to empty.
    """
    pool = Counter({name: ORO.cards_per_island for name in ORO.islands})

    def use(cards: list[str]) -> list[str]:
        pool.subtract(cards)
        assert min(pool.values()) >= 0, f"more than {ORO.cards_per_island} of a card in {cards}"
        return list(cards)

    def unused(n: int) -> list[str]:
        return use([name for name in ORO.islands for _ in range(pool[name])][:n])

    hands = {c: use(hands.get(c, []) if hands else []) for c in players}
    face_up = use(face_up) if face_up is not None else None
    deck = use(deck) if deck is not None else None
    early = round in (1, 2)
    face_up = face_up if face_up is not None else (unused(4) if early else [])
    deck = deck if deck is not None else (unused(8) if early else [])
    doc = {
        "format": "kanaloa-position/1",
        "board": "oro",
        "rules": {"preset": preset},
        "players": players,
        "to_move": to_move or players[0],
        "round": round,
        "bridges": bridges or {},
        "hands": {c: {"cards": hands[c]} for c in players},
        "face_up": face_up,
        "deck": deck,
        "discard": {"open": unused(len(ORO.islands) * ORO.cards_per_island)},
        "scores": scores or {},
        "turn": turn or {},
    }
    if final_round is not None:
        doc["final_round"] = final_round
    doc["seed"] = 0 if seed is None else seed
    return Position.from_json(doc, engine=impl)


def moves_of(pos: Position, prefix: str = "") -> list[str]:
    return [m for m in pos.move_strings() if m.startswith(prefix)]


def builds(pos: Position) -> list[str]:
    """The place and swap moves offered (they are the moves written with a '/')."""
    return [m for m in pos.move_strings() if "/" in m]


def bridges_of(pos: Position) -> dict[str, str]:
    return dict(pos.to_json()["bridges"])


# -- R1 the board ------------------------------------------------------------------


def test_R1_oro_has_16_islands_37_links_and_48_cards():
    sizes = Counter(ORO.size(i) for i in range(ORO.n_islands))
    assert (ORO.n_islands, ORO.n_links, ORO.n_cards) == (16, 37, 48)
    assert sizes == {3: 4, 5: 11, 7: 1}
    assert ORO.size(ORO.find_island("ORO")) == 7
    assert ORO.size(ORO.find_island("DALI")) == ORO.size(ORO.find_island("KULU")) == 3


def test_R1_a_link_holds_at_most_one_bridge(impl):
    pos = table(impl, bridges={"ALOA-BAFI": "green"}, hands={"red": ["ALOA"]})
    assert "ALOA-BAFI/ALOA" not in pos.move_strings()
    with pytest.raises(MoveError, match="ALOA-BAFI/ALOA"):
        pos.play("ALOA-BAFI/ALOA")
    with pytest.raises(PositionError, match="given twice"):
        table(impl, bridges={"ALOA-BAFI": "green", "BAFI-ALOA": "red"})


def test_R1_another_board_file_plays_by_the_same_rules(impl):
    kahuna = load_board("kahuna")
    pos = Position.new(players=3, seed=11, board="kahuna", engine=impl)
    for _ in range(3):
        pos.play(pos.move_strings()[0])
    assert pos.round == 1 and len(pos.to_json()["face_up"]) == 4
    place = builds(pos)[0]
    pos.play(place)
    link = place.split("/")[0]
    assert bridges_of(pos) == {link: "red"}
    assert set(link.split("-")) <= set(kahuna.islands)


TRIANGLE = {"name": "tri", "cards_per_island": 6, "islands": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
            "links": [["A", "B"], ["B", "C"], ["A", "C"]]}


@pytest.mark.parametrize(
    "content, message",
    [
        (b"\xff\xfe{}", "not UTF-8 text (byte 0 cannot be decoded)"),
        (b"[" * 100_000, "not a board: the JSON is nested far too deeply"),
        (b'{"cards_per_island": ' + b"9" * 5000 + b"}",
         "'cards_per_island' must be an integer from 1 to 6, not a 5000-digit number"),
        (json.dumps({**TRIANGLE, "islands": [{"name": "A", "xy": [True, 1]}, {"name": "B"}, {"name": "C"}]}).encode(),
         "islands[0].xy must be a pair of finite numbers"),
        (json.dumps({**TRIANGLE, "islands": [{"name": "A", "xy": [float("nan"), 1]}, {"name": "B"},
                                             {"name": "C"}]}).encode(),
         "islands[0].xy must be a pair of finite numbers"),
    ],
    ids=["not-utf8", "deeply-nested", "huge-number", "boolean-xy", "nan-xy"],
)
def test_R1_a_board_file_that_is_not_a_board_is_a_board_error(tmp_path, content, message):
    """A board file of the wrong encoding, shape or values is refused with its reason, never a crash."""
    path = tmp_path / "board.json"
    path.write_bytes(content)
    with pytest.raises(BoardError) as err:
        load_board(str(path))
    assert str(err.value).startswith(f"board {str(path)!r}: {message}")


# -- R2 absolute majority -------------------------------------------------------------


@pytest.mark.parametrize(
    "island, links, held, controls",
    [
        ("DALI", ["ALOA-DALI", "DALI-ELOI"], 2, True),  # 2 of 3
        ("DALI", ["ALOA-DALI"], 1, False),
        ("BAFI", ["ALOA-BAFI", "BAFI-COCO", "BAFI-GUMO"], 3, True),  # 3 of 5
        ("BAFI", ["ALOA-BAFI", "BAFI-COCO"], 2, False),
        ("ORO", ["BAFI-ORO", "COCO-ORO", "FALU-ORO", "IKA-ORO"], 4, True),  # 4 of 7
        ("ORO", ["BAFI-ORO", "COCO-ORO", "FALU-ORO"], 3, False),
    ],
)
def test_R2_more_than_half_of_the_links_controls_the_island(impl, island, links, held, controls):
    pos = table(impl, bridges={link: "blue" for link in links})
    assert pos.controller_of(island) == ("blue" if controls else None)


def test_R2_control_follows_the_bridges_at_every_moment(impl):
    """Control is never stored: losing a bridge loses the island at once."""
    pos = table(impl, bridges={"ALOA-DALI": "red", "DALI-ELOI": "red", "ALOA-BAFI": "green"},
                hands={"green": ["ALOA", "DALI"]}, to_move="green")
    assert pos.controller_of("DALI") == "red"
    pos.play("ALOA-DALI/ALOA+DALI")
    assert pos.controller_of("DALI") is None


# -- R3 setup ---------------------------------------------------------------------------


def test_R3_four_cards_dealt_one_revealed_by_each_then_four_face_up(impl):
    pos = Position.new(players=3, seed=2024, engine=impl)
    doc = pos.to_json()
    assert doc["round"] == 0 and doc["to_move"] == "red"
    assert [len(doc["hands"][c]["cards"]) for c in COLORS[:3]] == [4, 4, 4]
    revealed = []
    for color in COLORS[:3]:
        assert pos.to_move == color
        options = pos.move_strings()
        assert options and all(m.startswith("reveal ") for m in options)
        revealed.append(options[0].split()[1])
        pos.play(options[0])
    doc = pos.to_json()
    # With three players the deck turns up the fourth face-up card.
    assert doc["face_up"][:3] == revealed and len(doc["face_up"]) == 4
    assert [len(doc["hands"][c]["cards"]) for c in COLORS[:3]] == [3, 3, 3]
    assert doc["round"] == 1 and doc["to_move"] == "red"


# -- R4 the play phase --------------------------------------------------------------------


def test_R4_place_puts_a_bridge_on_a_free_link_of_the_card_island(impl):
    """Betty's first example: ALOA on ALOA-BAFI, then DALI on ALOA-DALI, then she takes RASI."""
    pos = table(impl, hands={"red": ["ALOA", "DALI", "KULU", "NALU"]},
                face_up=["RASI", "MOKU", "PAHU", "GUMO"], deck=["HILO", "LANI"])
    assert sorted(builds(pos)) == sorted(
        ["ALOA-BAFI/ALOA", "ALOA-COCO/ALOA", "ALOA-DALI/ALOA", "ALOA-DALI/DALI", "ALOA-ELOI/ALOA",
         "ALOA-GUMO/ALOA", "DALI-ELOI/DALI", "DALI-IKA/DALI", "ELOI-KULU/KULU", "FALU-KULU/KULU",
         "IKA-KULU/KULU", "HILO-NALU/NALU", "NALU-ORO/NALU", "NALU-PAHU/NALU"]
    )
    pos.play("ALOA-BAFI/ALOA")
    pos.play("DALI-ALOA/DALI")  # either order on input
    assert bridges_of(pos) == {"ALOA-BAFI": "red", "ALOA-DALI": "red"}
    pos.play("take RASI")
    doc = pos.to_json()
    assert doc["face_up"] == ["HILO", "MOKU", "PAHU", "GUMO"]  # the gap filled from the deck top
    assert doc["hands"]["red"]["cards"] == ["KULU", "NALU", "RASI"]
    assert doc["discard"]["open"][-2:] == ["ALOA", "DALI"]
    assert doc["to_move"] == "green"


def test_R4_swap_pays_two_cards_naming_the_ends_of_the_link(impl):
    """Mateo's example: ALOA+ALOA, BAFI+BAFI or ALOA+BAFI swap the ALOA-BAFI bridge."""
    pos = table(impl, to_move="green", bridges={"ALOA-BAFI": "red"},
                hands={"green": ["ALOA", "ALOA", "BAFI", "BAFI"]})
    swaps = [m for m in builds(pos) if m.startswith("ALOA-BAFI/") and "+" in m]
    assert swaps == ["ALOA-BAFI/ALOA+ALOA", "ALOA-BAFI/ALOA+BAFI", "ALOA-BAFI/BAFI+BAFI"]
    pos.play("ALOA-BAFI/ALOA+BAFI")
    assert bridges_of(pos) == {"ALOA-BAFI": "green"}
    assert pos.to_json()["hands"]["green"]["cards"] == ["ALOA", "BAFI"]


def test_R4_no_swap_of_an_own_bridge_nor_with_one_card(impl):
    pos = table(impl, bridges={"ALOA-BAFI": "red", "ALOA-COCO": "green"}, hands={"red": ["ALOA", "ALOA", "COCO"]})
    assert not [m for m in builds(pos) if m.startswith("ALOA-BAFI/")]
    assert [m for m in builds(pos) if m.startswith("ALOA-COCO/")] == ["ALOA-COCO/ALOA+ALOA", "ALOA-COCO/ALOA+COCO"]
    single = table(impl, bridges={"ALOA-COCO": "green"}, hands={"red": ["ALOA"]})
    assert not [m for m in builds(single) if m.startswith("ALOA-COCO/")]


def test_R4_discard_only_instead_of_playing_and_then_only_drawing(impl):
    pos = table(impl, hands={"red": ["ALOA", "KULU"]}, face_up=["RASI", "MOKU", "PAHU", "GUMO"])
    assert moves_of(pos, "discard") == ["discard ALOA", "discard KULU"]
    pos.play("discard KULU")
    assert pos.move_strings() == ["take GUMO", "take MOKU", "take PAHU", "take RASI", "draw"]
    played = table(impl, hands={"red": ["ALOA", "KULU"]})
    played.play("ALOA-BAFI/ALOA")
    assert moves_of(played, "discard") == []


def test_R4_a_player_starting_with_five_cards_must_shed_one(impl):
    pos = table(impl, hands={"red": ["ALOA", "BAFI", "COCO", "DALI", "KULU"]})
    assert not moves_of(pos, "take") and not moves_of(pos, "draw")
    with pytest.raises(MoveError):
        pos.play("draw")
    pos.play("ALOA-BAFI/BAFI")
    assert moves_of(pos, "take") and "draw" in pos.move_strings()


# -- R5 the draw phase ---------------------------------------------------------------------


def test_R5_drawing_the_top_card_ends_the_turn(impl):
    pos = table(impl, hands={"red": ["ALOA"]}, deck=["ORO", "HILO"])
    pos.play("draw")
    doc = pos.to_json()
    assert doc["hands"]["red"] == {"cards": ["ALOA", "ORO"], "public": []}
    assert doc["deck"] == ["HILO"] and doc["to_move"] == "green"


def test_R5_a_face_up_take_is_known_to_everyone(impl):
    pos = table(impl, hands={"red": ["ALOA"]}, face_up=["RASI", "MOKU", "PAHU", "GUMO"], deck=["HILO"])
    pos.play("take MOKU")
    doc = pos.to_json()
    assert doc["hands"]["red"] == {"cards": ["ALOA", "MOKU"], "public": ["MOKU"]}
    assert doc["face_up"] == ["RASI", "HILO", "PAHU", "GUMO"] and doc["deck"] == []


def test_R5_taking_one_of_two_alike_face_up_cards_refills_the_first(impl):
    pos = table(impl, hands={"red": ["ALOA"]}, face_up=["RASI", "MOKU", "RASI", "GUMO"], deck=["HILO", "LANI"])
    assert moves_of(pos, "take") == ["take GUMO", "take MOKU", "take RASI"]  # one choice per island
    pos.play("take RASI")
    assert pos.to_json()["face_up"] == ["HILO", "MOKU", "RASI", "GUMO"]


def test_R4_R5_an_empty_hand_can_only_draw(impl):
    pos = table(impl, hands={"red": []}, face_up=["RASI", "MOKU", "PAHU", "GUMO"], deck=["HILO"])
    assert pos.move_strings() == ["take GUMO", "take MOKU", "take PAHU", "take RASI", "draw"]


# -- R6 taking control -----------------------------------------------------------------------


def test_R6_betty_takes_dali_with_eloi_dali(impl):
    """Betty (red) holds ALOA-DALI; her ELOI card on ELOI-DALI gives her 2 of DALI's 3 links."""
    pos = table(impl, bridges={"ALOA-BAFI": "green", "ALOA-DALI": "red"}, hands={"red": ["ELOI"]})
    assert pos.controller_of("DALI") is None
    pos.play("ELOI-DALI/ELOI")
    assert pos.controller_of("DALI") == "red"
    assert bridges_of(pos) == {"ALOA-BAFI": "green", "ALOA-DALI": "red", "DALI-ELOI": "red"}


def test_R6_mateo_takes_aloa_and_betty_loses_dali(impl):
    """Mateo (green, holding ALOA-BAFI) builds ALOA-COCO and ELOI-ALOA: 3 of ALOA's 5 links.
    Betty's ALOA-DALI goes, so she keeps only DALI-ELOI and loses DALI."""
    pos = table(impl, to_move="green", bridges={"ALOA-BAFI": "green", "ALOA-DALI": "red", "DALI-ELOI": "red"},
                hands={"green": ["ALOA", "ELOI"]})
    assert pos.controller_of("DALI") == "red"
    pos.play("ALOA-COCO/ALOA")
    assert pos.controller_of("ALOA") is None and "ALOA-DALI" in bridges_of(pos)
    pos.play("ELOI-ALOA/ELOI")
    assert pos.controller_of("ALOA") == "green"
    assert bridges_of(pos) == {"ALOA-BAFI": "green", "ALOA-COCO": "green", "ALOA-ELOI": "green", "DALI-ELOI": "red"}
    assert pos.controller_of("DALI") is None


def test_R6_removal_happens_only_when_the_majority_is_new(impl):
    """Rivals may build again on an island already controlled; a further bridge of the controller
    does not clear them."""
    pos = table(impl, bridges={"ALOA-BAFI": "red", "ALOA-COCO": "red", "ALOA-DALI": "red", "ALOA-GUMO": "blue"},
                hands={"red": ["ALOA"]})
    assert pos.controller_of("ALOA") == "red"
    pos.play("ALOA-ELOI/ALOA")
    assert bridges_of(pos)["ALOA-GUMO"] == "blue"


def test_R6_both_ends_are_checked_in_island_order(impl):
    """One bridge can win both ends: DALI (2 of 3) and ELOI (3 of 5) are both cleared."""
    pos = table(impl, bridges={"ALOA-DALI": "red", "ALOA-ELOI": "red", "ELOI-KULU": "red",
                               "DALI-IKA": "green", "COCO-ELOI": "blue", "ELOI-FALU": "yellow"},
                hands={"red": ["DALI"]})
    pos.play("DALI-ELOI/DALI")
    assert pos.controller_of("DALI") == "red" and pos.controller_of("ELOI") == "red"
    assert bridges_of(pos) == {"ALOA-DALI": "red", "ALOA-ELOI": "red", "DALI-ELOI": "red", "ELOI-KULU": "red"}


def test_R6_removed_bridges_never_create_a_majority(impl):
    """Clearing ALOA drops yellow's ALOA-GUMO: GUMO is left 2-2-0, and nobody gains it."""
    pos = table(impl, to_move="green",
                bridges={"ALOA-BAFI": "green", "ALOA-COCO": "green", "ALOA-GUMO": "yellow",
                         "BAFI-GUMO": "blue", "GUMO-IKA": "blue", "GUMO-MOKU": "yellow"},
                hands={"green": ["ALOA"]})
    pos.play("ALOA-ELOI/ALOA")
    assert "ALOA-GUMO" not in bridges_of(pos)
    assert pos.controller_of("GUMO") is None


# -- R7 relative majority ------------------------------------------------------------------------


def bafi_at_one_each(impl: Engine) -> Position:
    """Everyone has one bridge to BAFI; Mateo (green) holds RASI and ORO cards."""
    return table(impl, to_move="green",
                 bridges={"ALOA-BAFI": "blue", "BAFI-COCO": "green", "BAFI-GUMO": "yellow", "BAFI-ORO": "red"},
                 hands={"green": ["RASI", "ORO"]})


def test_R7_mateo_fills_bafi_and_removes_bettys_bridge(impl):
    pos = bafi_at_one_each(impl)
    pos.play("RASI-BAFI/RASI")
    assert pos.to_json()["turn"]["remove_on"] == ["BAFI"]
    assert pos.controller_of("BAFI") is None
    # 2-1-1-1: any rival bridge may go, and nothing else may be done first.
    assert pos.move_strings() == ["remove ALOA-BAFI", "remove BAFI-GUMO", "remove BAFI-ORO"]
    pos.play("remove BAFI-ORO")
    assert "BAFI-ORO" not in bridges_of(pos)
    # The next bridge on the freed link turns the relative majority into control.
    pos.play("BAFI-ORO/ORO")
    assert pos.controller_of("BAFI") == "green"
    assert bridges_of(pos) == {"BAFI-COCO": "green", "BAFI-ORO": "green", "BAFI-RASI": "green"}


def test_R7_the_removal_cannot_be_skipped(impl):
    pos = bafi_at_one_each(impl)
    pos.play("RASI-BAFI/RASI")
    for move in ("BAFI-ORO/ORO", "take " + pos.to_json()["face_up"][0], "draw"):
        with pytest.raises(MoveError):
            pos.play(move)


def test_R7_no_removal_while_a_link_is_free(impl):
    pos = table(impl, to_move="green", bridges={"ALOA-BAFI": "blue", "BAFI-COCO": "green", "BAFI-GUMO": "yellow"},
                hands={"green": ["RASI"]})
    pos.play("RASI-BAFI/RASI")
    assert pos.to_json()["turn"]["remove_on"] == []


def test_R7_a_swap_that_fills_the_island_counts(impl):
    """Swapping the last rival bridge is also filling: 2-1-1-1 after it."""
    pos = table(impl, to_move="green",
                bridges={"ALOA-BAFI": "blue", "BAFI-COCO": "green", "BAFI-GUMO": "yellow", "BAFI-ORO": "red",
                         "BAFI-RASI": "blue"},
                hands={"green": ["RASI", "BAFI"]})
    pos.play("BAFI-RASI/BAFI+RASI")
    assert pos.move_strings() == ["remove ALOA-BAFI", "remove BAFI-GUMO", "remove BAFI-ORO"]


@pytest.mark.parametrize(
    "bridges, last, removable",
    [
        # 3-2-2 on ORO: the leader removes any rival bridge.
        ({"BAFI-ORO": "green", "COCO-ORO": "green", "FALU-ORO": "red", "IKA-ORO": "red", "NALU-ORO": "blue",
          "ORO-PAHU": "blue"}, "ORO-RASI",
         ["remove FALU-ORO", "remove IKA-ORO", "remove NALU-ORO", "remove ORO-PAHU"]),
        # 3-2-1-1 on ORO.
        ({"BAFI-ORO": "green", "COCO-ORO": "green", "FALU-ORO": "red", "IKA-ORO": "red", "NALU-ORO": "blue",
          "ORO-PAHU": "yellow"}, "ORO-RASI",
         ["remove FALU-ORO", "remove IKA-ORO", "remove NALU-ORO", "remove ORO-PAHU"]),
    ],
    ids=["3-2-2", "3-2-1-1"],
)
def test_R7_a_relative_majority_on_oro_removes_any_rival(impl, bridges, last, removable):
    pos = table(impl, to_move="green", bridges=bridges, hands={"green": ["ORO"]})
    pos.play(f"{last}/ORO")
    assert pos.move_strings() == removable


@pytest.mark.parametrize(
    "bridges, last, card, removable",
    [
        # 2-2-1 on a large island: only the single bridge (yellow's) may go.
        ({"ALOA-BAFI": "green", "BAFI-COCO": "red", "BAFI-GUMO": "red", "BAFI-ORO": "yellow"}, "BAFI-RASI",
         "RASI", ["remove BAFI-ORO"]),
        # 3-3-1 on ORO.
        ({"BAFI-ORO": "green", "COCO-ORO": "green", "FALU-ORO": "red", "IKA-ORO": "red", "NALU-ORO": "red",
          "ORO-PAHU": "blue"}, "ORO-RASI", "ORO", ["remove ORO-PAHU"]),
        # 2-2-2-1 on ORO.
        ({"BAFI-ORO": "green", "COCO-ORO": "red", "FALU-ORO": "red", "IKA-ORO": "blue", "NALU-ORO": "blue",
          "ORO-PAHU": "yellow"}, "ORO-RASI", "ORO", ["remove ORO-PAHU"]),
    ],
    ids=["2-2-1", "3-3-1", "2-2-2-1"],
)
def test_R7_a_tie_for_the_most_removes_a_single_bridge(impl, bridges, last, card, removable):
    pos = table(impl, to_move="green", bridges=bridges, hands={"green": [card]})
    pos.play(f"{last}/{card}")
    assert pos.move_strings() == removable
    pos.play(removable[0])
    assert pos.to_json()["turn"]["remove_on"] == []


def test_R7_filling_an_island_without_leading_changes_nothing(impl):
    # Green fills BAFI at 1-2-2: it trails.
    trailing = table(impl, to_move="green",
                     bridges={"ALOA-BAFI": "red", "BAFI-COCO": "red", "BAFI-GUMO": "blue", "BAFI-ORO": "blue"},
                     hands={"green": ["RASI"]})
    trailing.play("BAFI-RASI/RASI")
    assert trailing.to_json()["turn"]["remove_on"] == []
    # Green fills ORO at 2-2-3: tied with red, but blue has the most.
    behind = table(impl, to_move="green",
                   bridges={"BAFI-ORO": "green", "COCO-ORO": "red", "FALU-ORO": "red", "IKA-ORO": "blue",
                            "NALU-ORO": "blue", "ORO-PAHU": "blue"},
                   hands={"green": ["ORO"]})
    behind.play("ORO-RASI/ORO")
    assert behind.to_json()["turn"]["remove_on"] == []


def test_R7_islands_with_three_links_never_trigger(impl):
    pos = table(impl, to_move="green", bridges={"ALOA-DALI": "red", "DALI-ELOI": "blue"}, hands={"green": ["IKA"]})
    pos.play("DALI-IKA/IKA")
    assert pos.to_json()["turn"]["remove_on"] == []


def test_R7_removals_pending_on_both_ends_come_in_island_order(impl):
    """ALOA-BAFI fills ALOA and BAFI at once, green leading 2-1-1-1 on each: two removals, ALOA's
    first (it comes first in the board's island order), then BAFI's, and nothing else meanwhile."""
    pos = table(impl, to_move="green", hands={"green": ["ALOA", "BAFI"]},
                bridges={"ALOA-COCO": "green", "ALOA-DALI": "red", "ALOA-ELOI": "blue", "ALOA-GUMO": "yellow",
                         "BAFI-COCO": "green", "BAFI-GUMO": "red", "BAFI-ORO": "blue", "BAFI-RASI": "yellow"})
    pos.play("ALOA-BAFI/ALOA")
    assert pos.to_json()["turn"]["remove_on"] == ["ALOA", "BAFI"]
    assert pos.move_strings() == ["remove ALOA-DALI", "remove ALOA-ELOI", "remove ALOA-GUMO"]
    with pytest.raises(MoveError):
        pos.play("remove BAFI-ORO")  # BAFI waits its turn
    pos.play("remove ALOA-ELOI")
    assert pos.move_strings() == ["remove BAFI-GUMO", "remove BAFI-ORO", "remove BAFI-RASI"]
    pos.play("remove BAFI-ORO")
    assert pos.to_json()["turn"]["remove_on"] == []
    assert "draw" in pos.move_strings() and "BAFI-ORO/BAFI" in builds(pos)


def test_R6_on_one_end_and_R7_on_the_other(impl):
    """ALOA-BAFI gives green 3 of ALOA's 5 links (control: rivals cleared off ALOA) and fills BAFI at
    2-1-1-1 (a relative majority: one removal there)."""
    pos = table(impl, to_move="green", hands={"green": ["ALOA"]},
                bridges={"ALOA-COCO": "green", "ALOA-DALI": "green", "ALOA-ELOI": "blue", "ALOA-GUMO": "yellow",
                         "BAFI-COCO": "green", "BAFI-GUMO": "red", "BAFI-ORO": "blue", "BAFI-RASI": "yellow"})
    pos.play("ALOA-BAFI/ALOA")
    assert pos.controller_of("ALOA") == "green"
    assert "ALOA-ELOI" not in bridges_of(pos) and "ALOA-GUMO" not in bridges_of(pos)
    assert pos.to_json()["turn"]["remove_on"] == ["BAFI"]
    assert pos.move_strings() == ["remove BAFI-GUMO", "remove BAFI-ORO", "remove BAFI-RASI"]


def test_R7_a_swap_on_a_full_island_that_turns_a_tie_into_a_lead_removes_again(impl):
    """ORO full at 2-2-2-1; green swaps a red bridge: 3-1-2-1, strictly the most, so one more removal."""
    pos = table(impl, to_move="green", hands={"green": ["ORO", "ORO"]},
                bridges={"BAFI-ORO": "green", "COCO-ORO": "green", "FALU-ORO": "red", "IKA-ORO": "red",
                         "NALU-ORO": "blue", "ORO-PAHU": "blue", "ORO-RASI": "yellow"})
    pos.play("FALU-ORO/ORO+ORO")
    assert pos.controller_of("ORO") is None
    assert pos.move_strings() == ["remove IKA-ORO", "remove NALU-ORO", "remove ORO-PAHU", "remove ORO-RASI"]


def test_R7_R13_a_removal_needs_no_bridge_in_stock(impl):
    """Green builds its twentieth bridge (tabletop) and fills BAFI 2-1-1-1: the removal is still due,
    then green, out of stock, can build nothing more."""
    elsewhere = ["ALOA-COCO", "ALOA-DALI", "ALOA-ELOI", "ALOA-GUMO", "COCO-ELOI", "COCO-FALU", "COCO-ORO",
                 "DALI-ELOI", "DALI-IKA", "ELOI-FALU", "ELOI-KULU", "FALU-IKA", "FALU-KULU", "FALU-ORO", "GUMO-IKA",
                 "GUMO-MOKU", "GUMO-PAHU", "HILO-LANI"]
    bridges = {link: "green" for link in elsewhere}
    bridges.update({"ALOA-BAFI": "blue", "BAFI-COCO": "green", "BAFI-GUMO": "yellow", "BAFI-ORO": "red"})
    pos = table(impl, preset="tabletop", to_move="green", bridges=bridges, hands={"green": ["RASI", "ORO"]})
    pos.play("BAFI-RASI/RASI")  # bridge 20 of 20
    assert pos.move_strings() == ["remove ALOA-BAFI", "remove BAFI-GUMO", "remove BAFI-ORO"]
    pos.play("remove BAFI-ORO")
    assert builds(pos) == [] and "draw" in pos.move_strings()


# -- R8 immediate win ----------------------------------------------------------------------------

TEN_ISLANDS = {
    link: "green"
    for link in ["ALOA-ELOI", "BAFI-ORO", "BAFI-RASI", "DALI-ELOI", "DALI-IKA", "ELOI-KULU", "HILO-LANI",
                 "HILO-NALU", "HILO-PAHU", "IKA-KULU", "IKA-ORO", "LANI-RASI", "NALU-PAHU", "ORO-PAHU", "ORO-RASI"]
}  # green controls DALI ELOI HILO IKA KULU LANI NALU ORO PAHU RASI


def test_R8_an_eleventh_island_wins_at_once(impl):
    # Round 2, so that the first scoring has given points to rank the others by.
    pos = table(impl, round=2, to_move="green", bridges=TEN_ISLANDS, hands={"green": ["ALOA", "ALOA"]},
                scores={"red": 4, "blue": 9, "yellow": 4, "green": 2})
    controlled = [x for x in ORO.islands if pos.controller_of(x) == "green"]
    assert len(controlled) == 10
    pos.play("ALOA-BAFI/ALOA")  # BAFI: 3 of 5
    assert pos.is_over
    assert pos.outcome == {"ranking": ["green", "blue", "red", "yellow"], "winner": "green",
                           "reason": "eleven islands"}
    assert pos.move_strings() == []


def test_R8_the_others_tied_on_points_rank_in_seat_order(impl):
    pos = table(impl, round=2, to_move="green", bridges=TEN_ISLANDS, hands={"green": ["ALOA"]},
                scores={"red": 4, "blue": 4, "yellow": 9, "green": 2})
    pos.play("ALOA-BAFI/ALOA")
    assert pos.outcome["ranking"] == ["green", "yellow", "red", "blue"]


def test_R8_a_tenth_island_is_not_enough(impl):
    pos = table(impl, to_move="green", bridges=TEN_ISLANDS, hands={"green": ["ALOA"]})
    pos.play("ALOA-COCO/ALOA")
    assert not pos.is_over and pos.outcome is None


# -- R9 the end of the first round -------------------------------------------------------------


def test_R9_the_last_card_ends_the_round_scores_and_reshuffles(impl):
    pos = table(impl, to_move="blue", face_up=["RASI"], deck=[], seed=99,
                bridges={"ALOA-DALI": "red", "DALI-ELOI": "red"}, hands={"blue": ["KULU"], "red": ["ORO"]})
    before = pos.to_json()
    discards = Counter(before["discard"]["open"])
    pos.play("take RASI")
    doc = pos.to_json()
    assert doc["round"] == 2
    assert doc["scores"]["red"] == 1  # DALI, 2 of 3: one link not held (R11, no bonus)
    assert Counter(doc["face_up"] + doc["deck"]) == discards
    assert len(doc["face_up"]) == 4 and doc["discard"]["open"] == []
    # Bridges and hands stay; the next seat continues.
    assert doc["bridges"] == before["bridges"] and doc["hands"]["red"] == before["hands"]["red"]
    assert doc["to_move"] == "yellow"


def test_R9_the_reshuffle_is_fixed_by_the_seed(impl):
    def after_reshuffle(seed: int) -> list[str]:
        pos = table(impl, to_move="blue", face_up=["RASI"], deck=[], seed=seed)
        pos.play("take RASI")
        return pos.to_json()["face_up"] + pos.to_json()["deck"]

    assert after_reshuffle(5) == after_reshuffle(5)
    assert after_reshuffle(5) != after_reshuffle(6)


def reshuffle_table(impl: Engine) -> Position:
    """Blue takes the last face-up card of round 1; red and green have one face-down discard each."""
    doc = table(impl, to_move="blue", face_up=["RASI"], deck=[], seed=99, hands={"blue": ["KULU"]}).to_json()
    opened = doc["discard"]["open"]
    opened.remove("ALOA")
    opened.remove("BAFI")
    doc["discard"].update(hidden=2, hidden_by={"red": ["ALOA"], "green": ["BAFI"], "blue": [], "yellow": []})
    return Position.from_json(doc, engine=impl)


def seen_out(went_in: Counter, unseen: int, cards: list[str]) -> tuple[Counter, int]:
    """What a player knows of the deck after seeing ``cards`` come out of it: each is one it saw go in, if
    there is one of its island, or else one it could not see."""
    went_in = Counter(went_in)
    for card in cards:
        if went_in[card]:
            went_in[card] -= 1
        elif unseen:
            unseen -= 1
    return +went_in, unseen


def knowledge(pos: Position) -> dict[str, tuple[Counter, int]]:
    return {c: (Counter(k["cards"]), k["unseen"]) for c, k in pos.to_json().get("reshuffle", {}).items()}


def test_R9_each_player_knows_which_cards_went_into_the_new_deck(impl):
    """The open discards and the player's own face-down ones go in before its eyes; the others' face-down
    discards are cards it could not see.  The cards turned face-up come out before everyone's eyes."""
    pos = reshuffle_table(impl)
    opened = Counter(pos.to_json()["discard"]["open"])
    pos.play("take RASI")
    doc = pos.to_json()
    assert "reshuffle" not in table(impl).to_json()  # round 1: no reshuffle yet
    went_in = {"red": (opened + Counter(["ALOA"]), 1), "green": (opened + Counter(["BAFI"]), 1),
               "blue": (opened, 2), "yellow": (opened, 2)}
    assert knowledge(pos) == {c: seen_out(cards, unseen, doc["face_up"]) for c, (cards, unseen) in went_in.items()}


def test_R9_a_blind_draw_is_seen_by_the_drawer_alone_a_refill_by_everyone(impl):
    pos = reshuffle_table(impl)
    pos.play("take RASI")  # yellow moves next, in round 2
    before, top = knowledge(pos), pos.to_json()["deck"][0]
    pos.play("draw")
    after = knowledge(pos)
    assert after["yellow"] == seen_out(*before["yellow"], [top])
    assert all(after[c] == before[c] for c in ("red", "green", "blue"))
    # Red takes a face-up card: the card that fills the gap comes out before every player.
    doc = pos.to_json()
    taken, refill = doc["face_up"][0], doc["deck"][0]
    pos.play(f"take {taken}")
    assert knowledge(pos) == {c: seen_out(*after[c], [refill]) for c in after}


def test_R9_what_went_into_the_deck_is_forgotten_when_it_runs_out(impl):
    pos = reshuffle_table(impl)
    pos.play("take RASI")
    assert "reshuffle" in pos.to_json()
    while pos.to_json()["deck"]:
        moves = pos.move_strings()
        pos.play("draw" if "draw" in moves else next(m for m in moves if m.startswith("discard")))
    assert "reshuffle" not in pos.to_json() and pos.round == 2


# -- R10 the final round -------------------------------------------------------------------------


def test_R10_the_second_run_out_starts_the_final_round_with_the_next_player(impl):
    pos = table(impl, round=2, to_move="blue", face_up=["RASI"], deck=[], hands={"blue": ["KULU"]})
    pos.play("take RASI")
    assert pos.round == "final" and pos.to_move == "yellow"
    assert sorted(pos.move_strings()) == sorted(["end", *builds(pos)])


def test_R10_the_passing_example_with_12_10_7_and_6_points(impl):
    """Seat order Mateo (green, 7), Betty (red, 12), Adam (yellow, 10), Kayla (blue, 6)."""
    pos = table(impl, players=["green", "red", "yellow", "blue"], round="final", to_move="green",
                scores={"green": 7, "red": 12, "yellow": 10, "blue": 6})
    assert "pass" in pos.move_strings()
    pos.play("pass")  # Betty and Adam have more points and have not played
    assert pos.to_move == "red"
    assert "pass" not in pos.move_strings()  # nobody has more than Betty
    pos.play("end")
    assert pos.to_move == "yellow"
    assert "pass" not in pos.move_strings()  # Betty, the only richer player, has played
    with pytest.raises(MoveError):
        pos.play("pass")
    pos.play("end")
    assert pos.to_move == "blue"
    assert "pass" in pos.move_strings()  # Mateo has more points and has not played
    pos.play("pass")
    assert pos.to_move == "green"
    assert "pass" not in pos.move_strings()  # only Kayla is left, with fewer points
    pos.play("end")
    assert pos.to_move == "blue"
    assert pos.move_strings() == ["end"]
    pos.play("end")
    assert pos.is_over
    assert pos.outcome["ranking"] == ["red", "yellow", "green", "blue"]


def test_R10_a_player_may_pass_again_while_a_richer_player_is_still_to_play(impl):
    """Blue (3) passes, red (5) passes, green (9) plays; blue passes again since red is still to play."""
    pos = table(impl, players=["blue", "red", "green"], round="final", to_move="blue",
                scores={"blue": 3, "red": 5, "green": 9})
    pos.play("pass")
    pos.play("pass")
    assert pos.to_move == "green" and "pass" not in pos.move_strings()
    pos.play("end")
    assert pos.to_move == "blue" and "pass" in pos.move_strings()
    pos.play("pass")
    assert pos.to_move == "red" and pos.to_json()["final_round"] == {"done": ["green"], "passed": ["blue", "red"]}
    pos.play("end")
    pos.play("end")
    assert pos.outcome["ranking"] == ["green", "red", "blue"]


def test_R10_a_final_turn_has_only_the_play_phase(impl):
    pos = table(impl, round="final", hands={"red": ["ALOA", "BAFI", "COCO", "DALI", "ELOI"]},
                final_round={"done": [], "passed": []})
    kinds = {m.split()[0] if "/" not in m else "build" for m in pos.move_strings()}
    assert kinds == {"build", "end"}
    pos.play("ALOA-BAFI/ALOA")
    pos.play("DALI-ELOI/DALI")
    assert "pass" not in pos.move_strings()  # the turn has begun
    pos.play("end")
    assert pos.to_move == "green"
    assert pos.to_json()["final_round"]["done"] == ["red"]
    assert pos.to_json()["hands"]["red"]["cards"] == ["BAFI", "COCO", "ELOI"]  # cards are kept


# -- R11 scoring --------------------------------------------------------------------------------


def first_scoring(impl: Engine, bridges: dict[str, str]) -> dict[str, int]:
    pos = table(impl, to_move="blue", face_up=["RASI"], deck=[], bridges=bridges)
    pos.play("take RASI")
    assert pos.round == 2
    return pos.scores


def final_scoring(impl: Engine, bridges: dict[str, str]) -> dict[str, int]:
    pos = table(impl, round="final", to_move="yellow", bridges=bridges,
                final_round={"done": ["red", "green", "blue"], "passed": []})
    pos.play("end")
    assert pos.is_over
    return pos.scores


def test_R11_adam_scores_bafi_2_then_3(impl):
    """Adam (yellow) holds 3 of BAFI's links, Mateo (green) one, and one is free."""
    bafi = {"ALOA-BAFI": "yellow", "BAFI-COCO": "yellow", "BAFI-GUMO": "yellow", "BAFI-ORO": "green"}
    assert first_scoring(impl, bafi) == {"red": 0, "green": 0, "blue": 0, "yellow": 2}
    assert final_scoring(impl, bafi) == {"red": 0, "green": 0, "blue": 0, "yellow": 3}


ISLAND_LINKS = {
    "DALI": ["ALOA-DALI", "DALI-ELOI", "DALI-IKA"],
    "BAFI": ["ALOA-BAFI", "BAFI-COCO", "BAFI-GUMO", "BAFI-ORO", "BAFI-RASI"],
    "ORO": ["BAFI-ORO", "COCO-ORO", "FALU-ORO", "IKA-ORO", "NALU-ORO", "ORO-PAHU", "ORO-RASI"],
}


@pytest.mark.parametrize(
    "island, held, first, final",
    [
        ("DALI", 2, 1, 2), ("DALI", 3, 0, 1),
        ("BAFI", 3, 2, 3), ("BAFI", 4, 1, 2), ("BAFI", 5, 0, 1),
        ("ORO", 4, 3, 4), ("ORO", 5, 2, 3), ("ORO", 6, 1, 2), ("ORO", 7, 0, 1),
    ],
)
def test_R11_the_scoring_table(impl, island, held, first, final):
    """The rulebook's table: the links not held, plus one in the final scoring.  A single bridge
    on each neighbour never controls it, so only ``island`` scores."""
    bridges = {link: "yellow" for link in ISLAND_LINKS[island][:held]}
    assert first_scoring(impl, bridges)["yellow"] == first
    assert final_scoring(impl, bridges)["yellow"] == final


def test_R11_free_and_rival_links_both_count(impl):
    bridges = {"ALOA-BAFI": "yellow", "BAFI-COCO": "yellow", "BAFI-GUMO": "yellow", "BAFI-ORO": "red",
               "BAFI-RASI": "blue"}
    assert first_scoring(impl, bridges) == {"red": 0, "green": 0, "blue": 0, "yellow": 2}


# -- R12 the winner -----------------------------------------------------------------------------


def test_R12_most_points_wins_and_ties_go_to_the_earlier_final_turn(impl):
    pos = table(impl, round="final", to_move="yellow", scores={"red": 8, "green": 5, "blue": 8, "yellow": 8},
                final_round={"done": ["blue", "green", "red"], "passed": []})
    pos.play("end")
    assert pos.outcome == {"ranking": ["blue", "red", "yellow", "green"], "winner": "blue", "reason": "points"}


# -- R13 presets ---------------------------------------------------------------------------------

TWENTY = {
    link: "red"
    for link in ["ALOA-BAFI", "ALOA-COCO", "ALOA-DALI", "ALOA-ELOI", "BAFI-COCO", "BAFI-GUMO", "BAFI-ORO",
                 "BAFI-RASI", "COCO-ELOI", "COCO-FALU", "COCO-ORO", "DALI-ELOI", "DALI-IKA", "ELOI-FALU",
                 "ELOI-KULU", "HILO-MOKU", "HILO-PAHU", "LANI-MOKU", "NALU-PAHU", "ORO-RASI"]
}


def test_R13_tabletop_a_color_without_bridges_in_stock_cannot_build(impl):
    pos = table(impl, preset="tabletop", bridges={**TWENTY, "GUMO-IKA": "green"},
                hands={"red": ["GUMO", "GUMO", "IKA"]})
    assert builds(pos) == []
    assert moves_of(pos, "discard")
    unlimited = table(impl, bridges={**TWENTY, "GUMO-IKA": "green"}, hands={"red": ["GUMO", "GUMO", "IKA"]})
    assert "ALOA-GUMO/GUMO" in builds(unlimited) and "GUMO-IKA/GUMO+IKA" in builds(unlimited)


def test_R13_tabletop_a_swapped_out_bridge_returns_to_its_owner(impl):
    """Green has all 20 bridges out; red swaps one of them, so green can build again."""
    green = {link: "green" for link in TWENTY}
    pos = table(impl, preset="tabletop", bridges=green, hands={"red": ["ALOA", "BAFI"], "green": ["GUMO"]})
    pos.play("ALOA-BAFI/ALOA+BAFI")
    pos.play("draw")
    assert pos.to_move == "green"
    assert "ALOA-GUMO/GUMO" in builds(pos)


def test_R13_tabletop_bridges_removed_by_a_takeover_return_to_stock(impl):
    """Green takes GUMO and clears red's BAFI-GUMO: red, out of stock before, may build again."""
    pos = table(impl, preset="tabletop", players=["green", "red", "blue", "yellow"], to_move="green",
                bridges={**TWENTY, "GUMO-IKA": "green", "GUMO-MOKU": "green"},
                hands={"green": ["GUMO"], "red": ["KULU"]})
    pos.play("ALOA-GUMO/GUMO")
    assert pos.controller_of("GUMO") == "green" and "BAFI-GUMO" not in bridges_of(pos)
    pos.play("draw")
    assert pos.to_move == "red"
    assert "FALU-KULU/KULU" in builds(pos)
