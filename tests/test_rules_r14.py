"""Might of the Gods, the variant with god tokens, rule by rule (R14.1-R14.10), with the notes of the rule texts.

Each test builds a small state of the variant (``StateData`` with ``gods`` set) on ``oro`` and plays
action codes through an engine state, once per implementation (the ``engine`` fixture below): the
readable reference and the compiled core.  Red is seat 0 and moves first, then green, blue and
yellow (seats 1 to 3); with two players seat 0 plays red and blue, seat 1 green and yellow.
docs/engine.md "Might of the Gods (R14)" pins down every detail.  The tests of what each player
knows (R14.10) check ``known[observer][seat]`` for the user of a token, its victim, the receiver of
a gift and a third party; the no-cheating tests ask the core's determinisation (the reference has
none).  The explanations of illegal moves and of unreachable states (``why_illegal``,
``why_unreachable``) are the reference's alone.  The property tests at the end play many seeded
random games through the reference.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
from collections import Counter

import pytest

from conftest import ENGINES, REFERENCE, action_name, build_state, link_of, ruleset_of, scramble_bridges, state_deal
from game_helpers import card_totals, check_reasons, reason_template, record_steps
from kanaloa.rules import actions as A
from kanaloa.rules.board import load_board
from kanaloa.rules.engine import Engine
from kanaloa.rules.gods import claim, kane_points, token_list
from kanaloa.rules.reference import ReferenceState, why_illegal, why_unreachable
from kanaloa.rules.rng import SplitMix64
from kanaloa.rules.ruleset import make_ruleset
from kanaloa.rules.state import (
    GAME_KAHUNA,
    GOD_NAMES,
    GOD_TOKENS,
    GODS_ISLANDS,
    KANALOA,
    KANE,
    KU,
    LONO,
    NO_COLOR,
    NO_GOD,
    NO_OWNER,
    PELE,
    PRESET_TABLETOP,
    PRESET_YUCATA,
    ROUND_1,
    ROUND_2,
    ROUND_FINAL,
    ROUND_OVER,
    ROUND_SETUP,
    StateData,
    n_colors,
)

ORO = load_board("oro")
KAHUNA = load_board("kahuna")
RED, GREEN, BLUE, YELLOW = 0, 1, 2, 3
NAMES = ("red", "green", "blue", "yellow")
TOKEN = {name: kind for kind, name in enumerate(GOD_NAMES)}
# The tokens of the tables below, island by island (ALOA ... RASI): 8 KANE, 2 of each other kind.
LAYOUT = ("KANE", "KANALOA", "KU", "KANE", "PELE", "LONO", "KANE", "KANE",
          "KANALOA", "KANE", "KU", "PELE", "KANE", "KANE", "LONO", "KANE")
END = A.encode(A.END)
DRAW = A.encode(A.DRAW)
PELE_ = A.encode(A.PELE)
LONO_ = A.encode(A.LONO)


@pytest.fixture(params=["reference", "core"])
def engine(request) -> Engine:
    """Each test using it runs once per implementation."""
    return ENGINES[request.param]


@pytest.fixture
def core() -> Engine:
    """The compiled core, for what only it has (determinisation)."""
    return ENGINES["core"]


def island(name: str) -> int:
    index = ORO.find_island(name)
    assert index is not None, name
    return index


def counts(names: list[str]) -> list[int]:
    out = [0] * ORO.n_islands
    for name in names:
        out[island(name)] += 1
    return out


def table(
    engine: Engine,
    *,
    players: int = 4,
    round: int = ROUND_2,
    to_move: int = RED,
    bridges: dict[str, int] | None = None,
    hands: dict[int, list[str]] | None = None,
    public: dict[int, list[str]] | None = None,
    known: dict[tuple[int, int], list[str]] | None = None,
    face_up: list[str] | None = None,
    deck: list[str] | None = None,
    scores: list[int] | None = None,
    owned: dict[int, list[str]] | None = None,
    tokens: dict[str, str | None] | None = None,
    played: int = 0,
    over_limit: bool = False,
    final_done: list[int] | None = None,
):
    """A state of the variant on ``oro``: bridges as ``{"ALOA-BAFI": RED}``, hands by seat.

    The tokens lie as ``LAYOUT`` says, changed by ``tokens`` (``{"ALOA": "KU"}``, or None for a token
    already claimed); each token in ``owned`` comes off an island not named in ``tokens``.  Each
    observer knows of each other hand its public part, unless ``known`` says more
    (``{(GREEN, RED): ["ALOA"]}``: what green knows of red's hand).  In rounds 1 and 2 the face-up row
    and the deck default to HILO, IKA, LANI, MOKU and NALU, PAHU, RASI; in the final round both are
    empty.  Every other card lies on the open discard pile.
    """
    early = round in (ROUND_1, ROUND_2)
    data = build_state(
        ORO, players, round=round, to_move=to_move, bridges=bridges, hands=hands, public=public,
        face_up=face_up if face_up is not None else (["HILO", "IKA", "LANI", "MOKU"] if early else []),
        deck=deck if deck is not None else (["NALU", "PAHU", "RASI"] if early else []),
        scores=scores if scores is not None else [0] * n_colors(players),
    )
    data.gods = True
    layout = [TOKEN[name] for name in LAYOUT]
    for name, token in (tokens or {}).items():
        layout[island(name)] = NO_GOD if token is None else TOKEN[token]
    data.gods_owned = [[0] * len(GOD_NAMES) for _ in range(players)]
    for seat, names in (owned or {}).items():
        for name in names:
            data.gods_owned[seat][TOKEN[name]] += 1
    named = {island(name) for name in tokens or {}}
    for kind, total in enumerate(GOD_TOKENS):
        kept = sum(row[kind] for row in data.gods_owned)
        free = [i for i in range(ORO.n_islands) if layout[i] == kind and i not in named]
        while layout.count(kind) + kept > total and free:
            layout[free.pop()] = NO_GOD
    data.god_on = layout
    data.known = [[list(data.public[s]) if o != s else [0] * ORO.n_islands for s in range(players)]
                  for o in range(players)]
    for (observer, seat), cards in (known or {}).items():
        data.known[observer][seat] = counts(cards)
    data.played = played
    data.over_limit = over_limit
    if round == ROUND_FINAL:
        data.final_done = list(final_done or [])
    return engine.from_data(ORO, data)


def place(link: str, card: str, slot: int = 0) -> int:
    """A place on ``link`` paid with ``card``, or with ``"KANALOA"`` (R14.5)."""
    paid = A.JOKER if card == "KANALOA" else island(card)
    return A.with_slot(A.encode(A.PLACE, link_of(ORO, link), paid), slot)


def swap(link: str, cards: str, slot: int = 0) -> int:
    """A swap of the bridge on ``link`` paid with ``cards`` ("ALOA+BAFI", "KANALOA+BAFI", "KANALOA+KANALOA")."""
    k = link_of(ORO, link)
    a, b = ORO.links[k]
    first, second = cards.split("+")
    if first == "KANALOA":
        combo = A.SWAP_JJ if second == "KANALOA" else (A.SWAP_JA if island(second) == a else A.SWAP_JB)
    else:
        paid = (island(first), island(second))
        combo = next(c for c in (A.SWAP_AA, A.SWAP_AB, A.SWAP_BB) if A.swap_cards((a, b), c) == paid)
    return A.with_slot(A.encode(A.SWAP, k, combo), slot)


def ku(seat: int) -> int:
    return A.encode(A.KU, seat)


def steal(card: str) -> int:
    return A.encode(A.STEAL, island(card))


def give(seat: int, card: str) -> int:
    return A.encode(A.GIVE, island(card), seat)


def take(card: str) -> int:
    return A.encode(A.TAKE, island(card))


def discard(card: str) -> int:
    return A.encode(A.DISCARD, island(card))


def play(state, *actions: int) -> None:
    for action in actions:
        legal = state.legal_actions()
        assert action in legal, f"{action_name(ORO, action)} not in {[action_name(ORO, a) for a in legal]}"
        state.apply(action)


def kinds(state) -> set[int]:
    return {A.kind_of(a) for a in state.legal_actions()}


def token_moves(state) -> list[int]:
    """The legal moves that use a token: KU, PELE, LONO and the builds paid with KANALOA."""
    return [a for a in state.legal_actions() if uses_token(a)]


def uses_token(action: int) -> bool:
    kind = A.kind_of(action)
    return (kind in (A.KU, A.PELE, A.LONO) or (kind == A.PLACE and A.build_arg(action) == A.JOKER)
            or (kind == A.SWAP and A.build_arg(action) >= A.SWAP_JA))


def hand(state, seat: int) -> list[int]:
    return state.to_data().hands[seat]


def knows(state, observer: int, seat: int) -> list[int]:
    """What ``observer`` knows of ``seat``'s hand (R14.10)."""
    return state.to_data().known[observer][seat]


ALL_TOKENS = ["KANALOA", "KU", "PELE", "LONO"]


# -- R14.1 tokens and the deal --------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R14_1_sixteen_tokens_laid_after_the_cards_from_the_same_stream(engine, players):
    seed = 14_001
    plain = engine.deal(make_ruleset(players=players, board=ORO), seed).to_data()
    data = engine.deal(make_ruleset(players=players, gods=True, board=ORO), seed).to_data()
    assert (data.hands, data.deck, data.round, data.to_move) == (plain.hands, plain.deck, ROUND_SETUP, 0)
    rng = SplitMix64(plain.rng)
    tokens = [KANE] * 8 + [KANALOA] * 2 + [KU] * 2 + [PELE] * 2 + [LONO] * 2
    rng.shuffle(tokens)
    assert data.gods and data.god_on == tokens and data.rng == rng.state  # token i on island i
    assert Counter(data.god_on) == {KANE: 8, KANALOA: 2, KU: 2, PELE: 2, LONO: 2}
    assert data.gods_owned == [[0] * 5 for _ in range(players)]
    assert data.known == [[[0] * 16 for _ in range(players)] for _ in range(players)]
    assert (data.ku_target, data.pele_gifts, data.lono_draw, data.over_limit) == (-1, [], False, False)


def test_R14_1_the_tokens_follow_the_seed(engine):
    def god_on(seed: int) -> tuple[int, ...]:
        return tuple(engine.deal(make_ruleset(gods=True, board=ORO), seed).to_data().god_on)

    assert god_on(3) == god_on(3)
    assert len({god_on(seed) for seed in range(12)}) > 1
    assert token_list() == [KANE] * 8 + [KANALOA] * 2 + [KU] * 2 + [PELE] * 2 + [LONO] * 2
    assert GODS_ISLANDS == ORO.n_islands == 16


def test_R14_1_the_tokens_lie_face_up_through_the_setup(engine):
    state = engine.deal(make_ruleset(players=3, gods=True, board=ORO), 8)
    dealt = state.to_data().god_on
    while state.round == ROUND_SETUP:
        assert {A.kind_of(a) for a in state.legal_actions()} == {A.REVEAL}
        state.apply(state.legal_actions()[0])
    data = state.to_data()
    assert data.round == ROUND_1 and data.god_on == dealt and len(data.face_up) == 4


def test_R14_1_the_variant_needs_a_board_of_16_islands(engine):
    with pytest.raises(ValueError, match="16"):
        state_deal(engine, KAHUNA, 3, PRESET_YUCATA, 1, gods=True)  # 12 islands
    with pytest.raises(ValueError, match="Kahuna"):
        state_deal(engine, KAHUNA, 2, PRESET_YUCATA, 1, game=GAME_KAHUNA, gods=True)
    data = REFERENCE.deal(make_ruleset(players=3, board=KAHUNA), 1).to_data()  # Kanaloa's rules on a 12-island board
    data.gods, data.god_on = True, token_list()[:12]
    data.gods_owned = [[0] * 5 for _ in range(3)]
    data.known = [[[0] * 12 for _ in range(3)] for _ in range(3)]
    with pytest.raises(ValueError, match="16"):
        engine.from_data(KAHUNA, data)


def test_R14_1_the_reference_names_the_board_it_refuses():
    with pytest.raises(ValueError, match=r"^board: Might of the Gods puts one of its 16 god tokens on each island; "
                                         r"board kahuna has 12 islands \(R14\.1\)$"):
        state_deal(REFERENCE, KAHUNA, 3, PRESET_YUCATA, 1, gods=True)
    with pytest.raises(ValueError, match=r"^gods: Might of the Gods is a variant of Kanaloa, not of Kahuna"):
        state_deal(REFERENCE, KAHUNA, 2, PRESET_YUCATA, 1, game=GAME_KAHUNA, gods=True)


def test_R14_1_without_the_variant_nothing_changes(engine):
    data = engine.deal(make_ruleset(board=ORO), 5).to_data()
    assert not data.gods and data.god_on == [] and data.gods_owned == [] and data.known == []
    state = engine.deal(make_ruleset(board=ORO), 5)
    rng = random.Random(5)
    while not state.is_over:
        legal = state.legal_actions()
        assert not any(uses_token(a) or A.kind_of(a) in (A.STEAL, A.GIVE) for a in legal)
        state.apply(rng.choice(legal))


# -- R14.2 claiming -----------------------------------------------------------------------------------


def test_R14_2_the_first_control_claims_the_token(engine):
    """Red's third bridge on COCO gives it control: green's bridge is swept, red takes COCO's KU."""
    state = table(engine, round=ROUND_1, bridges={"ALOA-COCO": RED, "BAFI-COCO": RED, "COCO-ORO": GREEN},
                  hands={RED: ["ELOI", "ELOI"]})
    play(state, place("COCO-ELOI", "ELOI"))
    data = state.to_data()
    assert state.controller_of(island("COCO")) == RED
    assert data.bridges[link_of(ORO, "COCO-ORO")] == NO_OWNER
    assert data.god_on[island("COCO")] == NO_GOD and data.gods_owned[RED] == [0, 0, 1, 0, 0]
    assert data.god_on[island("ELOI")] == PELE  # one red bridge there: no control, no token
    assert data.scores == [0, 0, 0, 0]


def test_R14_2_one_build_claims_both_ends(engine):
    """DALI-ELOI gives red DALI (2 of 3, its KANE) and ELOI (3 of 5, its PELE)."""
    state = table(engine, round=ROUND_1, bridges={"ALOA-DALI": RED, "ALOA-ELOI": RED, "COCO-ELOI": RED},
                  hands={RED: ["DALI"]})
    play(state, place("DALI-ELOI", "DALI"))
    data = state.to_data()
    assert data.god_on[island("DALI")] == data.god_on[island("ELOI")] == NO_GOD
    assert data.scores[RED] == 1 and data.gods_owned[RED][PELE] == 1


def test_R14_2_a_swap_claims_too(engine):
    state = table(engine, round=ROUND_1, bridges={"ALOA-COCO": RED, "BAFI-COCO": RED, "COCO-ELOI": GREEN},
                  hands={RED: ["COCO", "ELOI"]})
    play(state, swap("COCO-ELOI", "COCO+ELOI"))
    assert state.to_data().gods_owned[RED][KU] == 1


def test_R14_2_the_token_never_returns(engine):
    """COCO's token is gone (claimed earlier): whoever controls COCO next gets nothing."""
    state = table(engine, bridges={"ALOA-COCO": GREEN, "BAFI-COCO": GREEN}, hands={GREEN: ["ELOI"]},
                  tokens={"COCO": None}, to_move=GREEN, owned={RED: ["KU"]})
    play(state, place("COCO-ELOI", "ELOI"))
    data = state.to_data()
    assert state.controller_of(island("COCO")) == GREEN
    assert data.gods_owned[GREEN] == [0, 0, 0, 0, 0] and data.gods_owned[RED][KU] == 1


def test_R14_2_a_player_may_own_several_tokens_of_a_kind(engine):
    state = table(engine, round=ROUND_1, bridges={"ALOA-COCO": RED, "BAFI-COCO": RED}, hands={RED: ["ELOI"]},
                  owned={RED: ["KU"]}, tokens={"COCO": "KU"})
    play(state, place("COCO-ELOI", "ELOI"))
    assert state.to_data().gods_owned[RED][KU] == 2


def test_R14_2_a_relative_majority_claims_nothing(engine):
    """R7's removal is no control: ELOI full, red and green 2 each, blue 1: blue loses its bridge, the
    token stays."""
    state = table(engine, round=ROUND_1, bridges={"ALOA-ELOI": GREEN, "COCO-ELOI": GREEN, "DALI-ELOI": BLUE,
                                                  "ELOI-FALU": RED}, hands={RED: ["KULU"]})
    play(state, place("ELOI-KULU", "KULU"))
    assert state.legal_actions() == [A.encode(A.REMOVE, link_of(ORO, "DALI-ELOI"))]
    play(state, A.encode(A.REMOVE, link_of(ORO, "DALI-ELOI")))
    data = state.to_data()
    assert data.god_on[island("ELOI")] == PELE and data.gods_owned[RED] == [0] * 5


def test_R14_2_with_two_players_the_player_owns_what_either_color_claims(engine):
    """Blue, red's second color, takes COCO: the KU is red's player's, and red uses it with either color."""
    state = table(engine, players=2, round=ROUND_2, bridges={"ALOA-COCO": BLUE, "BAFI-COCO": BLUE},
                  hands={RED: ["ELOI", "ALOA"], GREEN: ["ORO"]})
    play(state, place("COCO-ELOI", "ELOI", slot=1))
    data = state.to_data()
    assert data.gods_owned == [[0, 0, 1, 0, 0], [0, 0, 0, 0, 0]] and data.turn_color == BLUE
    assert ku(GREEN) in state.legal_actions()


# -- R14.3 KANE --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, owned_links, link, points", [
    ("DALI", ["ALOA-DALI"], "DALI-IKA", 1),  # 3 links
    ("ALOA", ["ALOA-BAFI", "ALOA-COCO"], "ALOA-DALI", 2),  # 5 links
    ("ORO", ["BAFI-ORO", "COCO-ORO", "FALU-ORO"], "IKA-ORO", 3),  # ORO's 7
])
def test_R14_3_kane_scores_at_once_by_the_islands_size(engine, name, owned_links, link, points):
    state = table(engine, round=ROUND_1, bridges=dict.fromkeys(owned_links, RED), hands={RED: [name]})
    play(state, place(link, name))
    data = state.to_data()
    assert data.scores == [points, 0, 0, 0] and data.god_on[island(name)] == NO_GOD
    assert data.gods_owned[RED] == [0] * 5  # KANE leaves the game: nobody keeps it
    assert kane_points(ORO.size(island(name))) == points


def test_R14_3_kane_scores_for_the_color_that_claims_it(engine):
    """With two players, blue (seat 0's second color) claims ALOA's KANE: blue scores, red does not."""
    state = table(engine, players=2, round=ROUND_1, bridges={"ALOA-BAFI": BLUE, "ALOA-COCO": BLUE},
                  hands={RED: ["ALOA"]})
    play(state, place("ALOA-DALI", "ALOA", slot=1))
    assert state.scores == [0, 0, 2, 0]


def test_R14_3_note_kane_in_the_final_round_still_scores(engine):
    """Claiming is no use of a token: red takes ALOA in its final turn and scores KANE's 2 at once, then
    3 more in the final scoring (2 links not held, +1)."""
    state = table(engine, round=ROUND_FINAL, bridges={"ALOA-BAFI": RED, "ALOA-COCO": RED},
                  hands={RED: ["ALOA"], GREEN: ["ORO"]})
    play(state, place("ALOA-DALI", "ALOA"))
    assert state.scores[RED] == 2
    for _ in range(4):
        play(state, END)
    assert state.is_over and state.scores[RED] == 2 + 3


# -- R14.4 using tokens: round 2 only, once, in the play phase ------------------------------------------


def owner_of_everything(engine, round: int, **kwargs):
    """Red owns one token of each usable kind; green's bridge on ALOA-BAFI may be swapped."""
    return table(engine, round=round, owned={RED: ALL_TOKENS}, bridges={"ALOA-BAFI": GREEN},
                 hands={RED: ["ALOA", "ALOA", "COCO"], GREEN: ["ORO"], BLUE: ["GUMO"], YELLOW: ["ELOI"]}, **kwargs)


def test_R14_4_tokens_are_used_in_round_2(engine):
    state = owner_of_everything(engine, ROUND_2)
    used = token_moves(state)
    assert {A.kind_of(a) for a in used} == {A.PLACE, A.SWAP, A.KU, A.PELE, A.LONO}
    assert [a for a in used if A.kind_of(a) == A.KU] == [ku(GREEN), ku(BLUE), ku(YELLOW)]
    assert swap("ALOA-BAFI", "KANALOA+ALOA") in used and swap("ALOA-BAFI", "KANALOA+KANALOA") not in used


def test_R14_4_no_token_is_used_in_round_1(engine):
    state = owner_of_everything(engine, ROUND_1)
    assert token_moves(state) == [] and kinds(state) == {A.PLACE, A.SWAP, A.DISCARD, A.TAKE, A.DRAW}


def test_R14_4_note_no_token_is_used_in_the_final_round(engine):
    state = owner_of_everything(engine, ROUND_FINAL)
    assert token_moves(state) == [] and kinds(state) == {A.PLACE, A.SWAP, A.END}


def test_R14_4_no_token_is_used_after_a_discard(engine):
    state = owner_of_everything(engine, ROUND_2)
    play(state, discard("COCO"))
    assert token_moves(state) == [] and kinds(state) == {A.TAKE, A.DRAW}


def test_R14_4_no_token_is_used_while_a_removal_is_due(engine):
    state = table(engine, owned={RED: ALL_TOKENS}, bridges={"ALOA-ELOI": GREEN, "COCO-ELOI": GREEN,
                                                            "DALI-ELOI": BLUE, "ELOI-FALU": RED},
                  hands={RED: ["KULU", "ALOA"], GREEN: ["ORO"]})
    play(state, place("ELOI-KULU", "KULU"))
    assert state.legal_actions() == [A.encode(A.REMOVE, link_of(ORO, "DALI-ELOI"))]


def test_R14_4_note_a_token_claimed_in_round_2_is_used_the_same_turn(engine):
    state = table(engine, bridges={"ALOA-COCO": RED, "BAFI-COCO": RED}, hands={RED: ["ELOI"], GREEN: ["ORO", "GUMO"]})
    assert token_moves(state) == []
    play(state, place("COCO-ELOI", "ELOI"), ku(GREEN), steal("ORO"))
    assert hand(state, RED) == counts(["ORO"]) and state.to_move == RED


def test_R14_4_each_token_is_used_once_then_leaves_the_game(engine):
    state = table(engine, owned={RED: ["LONO"]}, hands={RED: ["ALOA"]})
    play(state, LONO_)
    assert state.to_data().gods_owned[RED] == [0] * 5
    play(state, take("HILO"))
    assert LONO_ not in state.legal_actions() and A.LONO not in kinds(state)


def test_R14_4_only_the_owner_uses_a_token(engine):
    state = table(engine, owned={GREEN: ALL_TOKENS}, hands={RED: ["ALOA"], GREEN: ["ORO"]})
    assert token_moves(state) == []
    play(state, DRAW)
    assert state.to_move == GREEN and len(token_moves(state)) > 0


# -- R14.5 KANALOA --------------------------------------------------------------------------------------


def test_R14_5_kanaloa_places_a_bridge_on_any_free_link(engine):
    state = table(engine, owned={RED: ["KANALOA"]}, bridges={"ALOA-BAFI": GREEN}, hands={RED: ["NALU"]})
    jokers = [a for a in state.legal_actions() if A.kind_of(a) == A.PLACE and A.build_arg(a) == A.JOKER]
    assert jokers == [place(ORO.link_name(k), "KANALOA") for k in range(ORO.n_links) if k != link_of(ORO, "ALOA-BAFI")]
    before = state.to_data()
    play(state, place("GUMO-MOKU", "KANALOA"))
    data = state.to_data()
    assert data.bridges[link_of(ORO, "GUMO-MOKU")] == RED and data.gods_owned[RED][KANALOA] == 0
    assert data.hands == before.hands and data.discard_open == before.discard_open  # no card, no discard
    assert data.played == 0 and discard("NALU") in state.legal_actions()  # R4's discard stays open


def test_R14_5_kanaloa_and_a_card_of_either_end_swap(engine):
    state = table(engine, owned={RED: ["KANALOA"]}, bridges={"ALOA-BAFI": GREEN}, hands={RED: ["BAFI"]})
    swaps = [a for a in state.legal_actions() if A.kind_of(a) == A.SWAP]
    assert swaps == [swap("ALOA-BAFI", "KANALOA+BAFI")]  # no ALOA card, only one KANALOA
    play(state, swap("ALOA-BAFI", "KANALOA+BAFI"))
    data = state.to_data()
    assert data.bridges[link_of(ORO, "ALOA-BAFI")] == RED and data.hands[RED] == counts([])
    assert data.discard_open[-1] == island("BAFI") and data.played == 1 and data.gods_owned[RED][KANALOA] == 0
    assert A.DISCARD not in kinds(state)


def test_R14_5_two_kanaloa_swap_without_a_card(engine):
    state = table(engine, owned={RED: ["KANALOA", "KANALOA"]}, bridges={"ALOA-BAFI": GREEN}, hands={RED: ["NALU"]})
    play(state, swap("ALOA-BAFI", "KANALOA+KANALOA"))
    data = state.to_data()
    assert data.bridges[link_of(ORO, "ALOA-BAFI")] == RED and data.gods_owned[RED][KANALOA] == 0
    assert data.played == 0 and data.hands[RED] == counts(["NALU"])


def test_R14_5_a_kanaloa_build_takes_control_and_claims(engine):
    state = table(engine, owned={RED: ["KANALOA"]}, bridges={"ALOA-COCO": RED, "BAFI-COCO": RED, "COCO-ORO": BLUE})
    play(state, place("COCO-ELOI", "KANALOA"))
    data = state.to_data()
    assert state.controller_of(island("COCO")) == RED and data.bridges[link_of(ORO, "COCO-ORO")] == NO_OWNER
    assert data.gods_owned[RED] == [0, 0, 1, 0, 0]


def test_R14_5_with_two_players_a_kanaloa_build_chooses_the_turns_color(engine):
    state = table(engine, players=2, owned={RED: ["KANALOA"]}, hands={RED: ["NALU"], GREEN: ["ORO"]})
    play(state, place("GUMO-MOKU", "KANALOA", slot=1))
    data = state.to_data()
    assert data.turn_color == BLUE and data.played == 0
    assert place("HILO-NALU", "NALU", slot=1) in state.legal_actions()
    assert place("HILO-NALU", "NALU") not in state.legal_actions()


# -- R14.6 KU ----------------------------------------------------------------------------------------------


def test_R14_6_ku_names_another_player_who_holds_a_card(engine):
    state = table(engine, owned={RED: ["KU"]}, hands={RED: ["ALOA"], GREEN: ["ORO"], YELLOW: ["ELOI"]})
    assert [a for a in state.legal_actions() if A.kind_of(a) == A.KU] == [ku(GREEN), ku(YELLOW)]  # blue has none


def test_R14_6_ku_shows_the_whole_hand_then_a_card_is_taken(engine):
    state = table(engine, owned={RED: ["KU"]}, hands={RED: ["ALOA"], GREEN: ["ORO", "ORO", "GUMO"]},
                  public={GREEN: ["GUMO"]})
    play(state, ku(GREEN))
    data = state.to_data()
    assert data.ku_target == GREEN and data.gods_owned[RED][KU] == 0
    assert data.known[RED][GREEN] == counts(["ORO", "ORO", "GUMO"])
    assert state.legal_actions() == [steal("GUMO"), steal("ORO")]  # nothing else until the card is taken
    play(state, steal("ORO"))
    data = state.to_data()
    assert data.hands[RED] == counts(["ALOA", "ORO"]) and data.hands[GREEN] == counts(["ORO", "GUMO"])
    assert data.ku_target == -1 and state.to_move == RED and A.PLACE in kinds(state)


# -- R14.7 PELE --------------------------------------------------------------------------------------------


def expected_pele_takes(data: StateData, user: int) -> list[tuple[int, int]]:
    """(victim, island) of each of PELE's takes, drawn as docs/engine.md says."""
    rng = SplitMix64(data.rng)
    takes = []
    for step in range(1, data.players):
        victim = (user + step) % data.players
        cards = [x for x, n in enumerate(data.hands[victim]) for _ in range(n)]
        if cards:
            takes.append((victim, cards[rng.below(len(cards))]))
    return takes


def test_R14_7_pele_takes_a_random_card_from_every_other_player_who_holds_one(engine):
    state = table(engine, owned={RED: ["PELE"]}, hands={RED: ["ALOA"], GREEN: ["ORO", "GUMO", "KULU"],
                                                        YELLOW: ["ELOI", "FALU"]})
    before = state.to_data()
    takes = expected_pele_takes(before, RED)
    assert [victim for victim, _ in takes] == [GREEN, YELLOW]  # blue holds no card
    play(state, PELE_)
    data = state.to_data()
    assert data.pele_gifts == [GREEN, YELLOW] and data.gods_owned[RED][PELE] == 0 and data.rng != before.rng
    assert data.hands[RED] == counts(["ALOA", *(ORO.islands[x] for _, x in takes)])
    for victim, x in takes:
        assert data.hands[victim][x] == before.hands[victim][x] - 1


def test_R14_7_the_takes_follow_the_chance_stream(engine):
    """Different seeds (chance states) take different cards from the same hands."""
    seen = set()
    for seed in range(12):
        state = table(engine, owned={RED: ["PELE"]}, hands={RED: ["ALOA"], GREEN: ["ORO", "GUMO", "KULU", "NALU"]})
        data = state.to_data()
        data.rng = seed
        state = engine.from_data(ORO, data)
        play(state, PELE_)
        lost = [x for x in range(ORO.n_islands) if data.hands[GREEN][x] > hand(state, GREEN)[x]]
        assert expected_pele_takes(data, RED) == [(GREEN, lost[0])]
        seen.add(lost[0])
    assert len(seen) > 1


def test_R14_7_gifts_go_back_one_to_each_in_seat_order_after_the_user(engine):
    """Blue (seat 2) uses PELE: it gives back to yellow, then red, then green, any card of its hand."""
    state = table(engine, to_move=BLUE, owned={BLUE: ["PELE"]},
                  hands={BLUE: ["ALOA"], GREEN: ["ORO"], YELLOW: ["ELOI"], RED: ["GUMO"]})
    play(state, PELE_)
    assert state.to_data().pele_gifts == [YELLOW, RED, GREEN]
    assert hand(state, BLUE) == counts(["ALOA", "ORO", "ELOI", "GUMO"])
    assert state.legal_actions() == [give(YELLOW, c) for c in ("ALOA", "ELOI", "GUMO", "ORO")]
    play(state, give(YELLOW, "ORO"), give(RED, "ALOA"))
    assert state.legal_actions() == [give(GREEN, "ELOI"), give(GREEN, "GUMO")]
    play(state, give(GREEN, "GUMO"))
    data = state.to_data()
    assert data.pele_gifts == [] and state.to_move == BLUE
    assert (data.hands[YELLOW], data.hands[RED], data.hands[GREEN], data.hands[BLUE]) == (
        counts(["ORO"]), counts(["ALOA"]), counts(["GUMO"]), counts(["ELOI"]))


# -- R14.8 LONO --------------------------------------------------------------------------------------------


def test_R14_8_lono_takes_an_extra_face_up_card_and_the_turn_goes_on(engine):
    state = table(engine, owned={RED: ["LONO"]}, hands={RED: ["ALOA"]})
    play(state, LONO_)
    assert state.to_data().lono_draw
    assert state.legal_actions() == [take("HILO"), take("IKA"), take("LANI"), take("MOKU"), DRAW]
    play(state, take("LANI"))
    data = state.to_data()
    assert state.to_move == RED and not data.lono_draw and data.hands[RED] == counts(["ALOA", "LANI"])
    assert data.face_up == [island(x) for x in ("HILO", "IKA", "NALU", "MOKU")]  # refilled at once
    assert data.public[RED] == counts(["LANI"])
    play(state, place("HILO-LANI", "LANI"))  # it may be played at once
    assert state.to_data().played == 1


def test_R14_8_lono_takes_the_decks_top(engine):
    state = table(engine, owned={RED: ["LONO"]}, hands={RED: ["ALOA"]})
    play(state, LONO_, DRAW)
    data = state.to_data()
    assert data.hands[RED] == counts(["ALOA", "NALU"]) and data.public[RED] == counts([])
    assert data.deck == [island("PAHU"), island("RASI")] and state.to_move == RED


def test_R14_8_lono_needs_a_card_to_take(engine):
    state = table(engine, owned={RED: ["LONO"]}, hands={RED: ["ALOA"]}, deck=[], face_up=[])
    assert LONO_ not in state.legal_actions() and END in state.legal_actions()
    state = table(engine, owned={RED: ["LONO"]}, hands={RED: ["ALOA"]}, deck=[], face_up=["NALU"])
    assert LONO_ in state.legal_actions()


def test_R14_8_when_lono_empties_the_deck_and_row_end_ends_the_turn_and_the_round(engine):
    state = table(engine, owned={RED: ["LONO"]}, hands={RED: ["ALOA"], GREEN: ["ORO"]}, deck=[], face_up=["NALU"])
    play(state, LONO_, take("NALU"))
    assert state.to_move == RED and state.round == ROUND_2
    assert END in state.legal_actions() and not kinds(state) & {A.TAKE, A.DRAW}
    play(state, place("HILO-NALU", "NALU"), END)
    assert state.round == ROUND_FINAL and state.to_move == GREEN


# -- R14.9 the hand limit -----------------------------------------------------------------------------------


def test_R14_9_note_a_hand_above_5_during_the_turn(engine):
    state = table(engine, owned={RED: ["KU"]}, hands={RED: ["ALOA", "ALOA", "BAFI", "COCO", "DALI"],
                                                      GREEN: ["ORO"]})
    play(state, ku(GREEN), steal("ORO"))
    data = state.to_data()
    assert data.hand_size(RED) == 6 and data.over_limit


def test_R14_9_the_play_phase_still_ends_with_at_most_4_cards(engine):
    """Six cards after KU: no draw yet; one card played, one discarded although a card was played, then
    only the draw; the next turn has no exception left."""
    state = table(engine, owned={RED: ["KU"]}, hands={RED: ["ALOA", "ALOA", "BAFI", "COCO", "DALI"],
                                                      GREEN: ["ORO", "GUMO"]})
    play(state, ku(GREEN), steal("ORO"))
    assert not kinds(state) & {A.TAKE, A.DRAW}
    play(state, place("ALOA-ELOI", "ALOA"))
    assert state.to_data().played == 1 and A.DISCARD in kinds(state)  # R14.9: even after playing
    play(state, discard("DALI"))
    assert kinds(state) == {A.TAKE, A.DRAW}  # no more builds or token uses
    play(state, DRAW)
    assert not state.to_data().over_limit and state.to_move == GREEN


def test_R14_9_discards_one_at_a_time_down_to_4(engine):
    state = table(engine, owned={RED: ["KU", "LONO"]}, hands={RED: ["ALOA", "ALOA", "BAFI", "COCO", "DALI"],
                                                              GREEN: ["ORO"]})
    play(state, LONO_, DRAW, ku(GREEN), steal("ORO"), place("ALOA-ELOI", "ALOA"))
    assert state.to_data().hand_size(RED) == 6
    play(state, discard("BAFI"))
    assert kinds(state) == {A.DISCARD}
    play(state, discard("COCO"))
    assert state.to_data().hand_size(RED) == 4 and kinds(state) == {A.TAKE, A.DRAW}


def test_R14_9_no_discard_after_playing_without_a_token_above_the_limit(engine):
    state = table(engine, hands={RED: ["ALOA", "BAFI", "COCO", "DALI", "ELOI"]})
    play(state, place("ALOA-BAFI", "ALOA"))
    assert A.DISCARD not in kinds(state)  # R4
    state = table(engine, owned={RED: ["KU"]}, hands={RED: ["ALOA", "BAFI", "COCO", "DALI"], GREEN: ["ORO"]})
    play(state, ku(GREEN), steal("ORO"), place("ALOA-BAFI", "ALOA"))
    assert state.to_data().over_limit and A.DISCARD not in kinds(state)  # back at 4: nothing to bring down
    assert kinds(state) >= {A.TAKE, A.DRAW}


def test_R14_9_end_with_nothing_to_draw_also_needs_a_hand_of_at_most_4(engine):
    state = table(engine, owned={RED: ["LONO"]}, hands={RED: ["ALOA", "BAFI", "COCO", "DALI", "ELOI"],
                                                        GREEN: ["ORO"]}, deck=[], face_up=["NALU"])
    play(state, LONO_, take("NALU"))
    assert END not in state.legal_actions() and A.DISCARD in kinds(state)
    play(state, discard("NALU"))
    assert state.legal_actions() == [discard(x) for x in ("ALOA", "BAFI", "COCO", "DALI", "ELOI")]
    play(state, discard("ELOI"))
    assert state.legal_actions() == [END]
    play(state, END)
    assert state.round == ROUND_FINAL


def test_R14_9_pele_only_when_another_player_holds_a_card_and_ku_only_on_one_who_does(engine):
    state = table(engine, owned={RED: ["PELE", "KU"]}, hands={RED: ["ALOA"]})
    assert token_moves(state) == []
    state = table(engine, owned={RED: ["PELE", "KU"]}, hands={RED: ["ALOA"], YELLOW: ["ORO"]})
    assert token_moves(state) == [ku(YELLOW), PELE_]


# -- R14.10 what each player knows --------------------------------------------------------------------------


def test_R14_10_a_face_up_take_is_seen_by_every_other_player(engine):
    state = table(engine, hands={RED: ["ALOA"]}, known={(GREEN, RED): ["ALOA"]})
    play(state, take("HILO"))
    data = state.to_data()
    assert data.public[RED] == counts(["HILO"])
    assert data.known[GREEN][RED] == counts(["ALOA", "HILO"])
    assert data.known[BLUE][RED] == data.known[YELLOW][RED] == counts(["HILO"])
    assert data.known[RED][RED] == counts([])  # a player keeps no record of its own hand


def test_R14_10_a_card_played_is_seen_leaving(engine):
    state = table(engine, hands={RED: ["ALOA", "ALOA", "GUMO"]}, public={RED: ["ALOA"]},
                  known={(GREEN, RED): ["ALOA", "ALOA", "GUMO"]})
    play(state, place("ALOA-BAFI", "ALOA"))
    data = state.to_data()
    assert data.public[RED] == counts([])
    assert data.known[GREEN][RED] == counts(["ALOA", "GUMO"]) and data.known[BLUE][RED] == counts([])


def test_R14_10_a_face_down_discard_leaves_one_fewer_of_every_island(engine):
    state = table(engine, hands={RED: ["ALOA", "ALOA", "GUMO"]}, public={RED: ["ALOA"]},
                  known={(GREEN, RED): ["ALOA", "ALOA", "GUMO"]})
    play(state, discard("ALOA"))
    data = state.to_data()
    assert data.known[GREEN][RED] == counts(["ALOA"])  # which card went is not seen
    assert data.public[RED] == data.known[BLUE][RED] == counts([])


KU_HANDS = {RED: ["ALOA"], GREEN: ["ORO", "ORO", "GUMO"], BLUE: ["ELOI"], YELLOW: ["FALU"]}


def test_R14_10_ku_user_sees_the_whole_hand_and_keeps_seeing_it(engine):
    state = table(engine, owned={RED: ["KU"]}, hands=KU_HANDS, public={GREEN: ["GUMO"]})
    play(state, ku(GREEN))
    assert knows(state, RED, GREEN) == counts(["ORO", "ORO", "GUMO"])
    play(state, steal("ORO"))
    assert knows(state, RED, GREEN) == counts(["ORO", "GUMO"]) == hand(state, GREEN)


def test_R14_10_ku_victim_sees_which_card_it_lost(engine):
    state = table(engine, owned={RED: ["KU"]}, hands=KU_HANDS, public={GREEN: ["GUMO"]})
    play(state, ku(GREEN))
    assert knows(state, GREEN, RED) == counts([])  # KU shows green nothing of red's hand
    play(state, steal("ORO"))
    assert knows(state, GREEN, RED) == counts(["ORO"])


def test_R14_10_ku_third_party_sees_a_card_leave_not_which(engine):
    state = table(engine, owned={RED: ["KU"]}, hands=KU_HANDS, public={GREEN: ["GUMO"]},
                  known={(BLUE, GREEN): ["ORO", "GUMO"]})
    play(state, ku(GREEN))
    assert knows(state, BLUE, GREEN) == counts(["ORO", "GUMO"])  # KU itself shows blue nothing
    play(state, steal("ORO"))
    data = state.to_data()
    assert data.known[BLUE][GREEN] == counts([]) and data.known[YELLOW][GREEN] == counts([])
    assert data.public[GREEN] == counts([])  # what every player knows: one fewer of every island
    assert data.known[BLUE][RED] == data.known[YELLOW][RED] == counts([])  # red's new card is unseen


PELE_HANDS = {RED: ["ALOA", "NALU"], GREEN: ["ORO"], BLUE: ["GUMO", "GUMO"], YELLOW: []}


def pele_table(engine, **kwargs):
    """Red uses PELE: green (one ORO) and blue (two GUMO) are its victims, each take is certain;
    yellow holds no card and is a third party."""
    return table(engine, owned={RED: ["PELE"]}, hands=PELE_HANDS, **kwargs)


def test_R14_10_pele_user_knows_the_cards_it_took(engine):
    state = pele_table(engine, known={(RED, BLUE): ["GUMO"]})
    play(state, PELE_)
    data = state.to_data()
    assert data.hands[RED] == counts(["ALOA", "NALU", "ORO", "GUMO"])
    assert data.known[RED][GREEN] == counts([]) and data.known[RED][BLUE] == counts([])  # it saw them leave


def test_R14_10_pele_victim_sees_which_card_it_lost_and_the_others_do_not(engine):
    state = pele_table(engine, known={(GREEN, BLUE): ["GUMO", "GUMO"], (YELLOW, BLUE): ["GUMO"]})
    play(state, PELE_)
    data = state.to_data()
    assert data.known[GREEN][RED] == counts(["ORO"]) and data.known[BLUE][RED] == counts(["GUMO"])
    assert data.known[GREEN][BLUE] == counts(["GUMO"])  # green, another victim, saw one card leave blue
    assert data.known[YELLOW][BLUE] == counts([]) and data.known[YELLOW][RED] == counts([])


def test_R14_10_pele_gift_receiver_and_giver_know_the_card_and_the_others_do_not(engine):
    state = pele_table(engine, public={RED: ["NALU"]})
    play(state, PELE_, give(GREEN, "NALU"))
    data = state.to_data()
    assert data.known[GREEN][RED] == counts(["ORO"]) and data.known[RED][GREEN] == counts(["NALU"])
    # Blue knew red held NALU (public) and its own GUMO; it saw a card leave red, not which: one fewer of each.
    assert data.known[BLUE][RED] == data.known[YELLOW][RED] == data.public[RED] == counts([])
    assert data.known[BLUE][GREEN] == data.known[YELLOW][GREEN] == counts([])  # nor what green received
    play(state, give(BLUE, "ORO"))
    data = state.to_data()
    assert data.known[RED][BLUE] == counts(["ORO"]) and data.hands[BLUE] == counts(["GUMO", "ORO"])
    assert data.known[GREEN][RED] == counts([])  # green saw a card leave red, not that it was ORO


def test_R14_10_lono_extra_card_face_up_is_seen_by_all_and_from_the_deck_by_nobody(engine):
    state = table(engine, owned={RED: ["LONO", "LONO"]}, hands={RED: ["ALOA"]})
    play(state, LONO_, take("IKA"))
    data = state.to_data()
    assert all(data.known[o][RED] == counts(["IKA"]) for o in (GREEN, BLUE, YELLOW))
    assert data.public[RED] == counts(["IKA"])
    play(state, LONO_, DRAW)  # the deck's top, PAHU (NALU took IKA's place): seen by the user alone
    data = state.to_data()
    assert data.hands[RED] == counts(["ALOA", "IKA", "PAHU"])
    assert all(data.known[o][RED] == counts(["IKA"]) for o in (GREEN, BLUE, YELLOW))


def test_R14_10_a_card_paid_with_kanaloa_is_seen_leaving_and_kanaloa_alone_changes_nothing(engine):
    state = table(engine, owned={RED: ["KANALOA", "KANALOA"]}, bridges={"ALOA-BAFI": GREEN, "GUMO-MOKU": BLUE},
                  hands={RED: ["BAFI", "GUMO"]}, public={RED: ["BAFI"]}, known={(GREEN, RED): ["BAFI", "GUMO"]})
    play(state, swap("ALOA-BAFI", "KANALOA+BAFI"))
    data = state.to_data()
    assert data.public[RED] == counts([]) and data.known[GREEN][RED] == counts(["GUMO"])
    assert data.known[BLUE][RED] == counts([])
    play(state, place("DALI-IKA", "KANALOA"))
    assert state.to_data().known == data.known


def test_R14_10_with_two_players_what_every_player_knows_is_still_one_fewer_of_each(engine):
    """With two players the victim knows exactly; ``public`` stays the record of what everyone knows."""
    state = table(engine, players=2, owned={RED: ["KU"]}, hands={RED: ["ALOA"], GREEN: ["ORO", "GUMO"]},
                  public={GREEN: ["ORO", "GUMO"]})
    play(state, ku(GREEN), steal("ORO"))
    data = state.to_data()
    assert data.known[RED][GREEN] == counts(["GUMO"]) and data.known[GREEN][RED] == counts(["ORO"])
    assert data.public[GREEN] == counts([])


def test_R14_10_nothing_else_is_inferred(engine):
    """Green knew red held ALOA; red discards face-down: green keeps no ALOA, although red may still
    hold one (it held two)."""
    state = table(engine, hands={RED: ["ALOA", "ALOA"]}, known={(GREEN, RED): ["ALOA"]})
    play(state, discard("ALOA"))
    assert knows(state, GREEN, RED) == counts([]) and hand(state, RED) == counts(["ALOA"])


# -- R14.10 no cheating: the determinisation samples from exactly the viewer's knowledge --------------------


def ku_pair(core: Engine):
    """Two states right after red's KU on green that differ only in one card of green's hand (swapped
    with a deck card): red saw the hand, blue and yellow did not."""
    base = dict(owned={RED: ["KU"]}, hands={RED: ["ALOA"], GREEN: ["ORO", "GUMO"], BLUE: ["ELOI"],
                                            YELLOW: ["FALU"]}, deck=["NALU", "PAHU", "RASI"])
    first = table(core, **base)
    base["hands"] = {**base["hands"], GREEN: ["ORO", "PAHU"]}
    base["deck"] = ["NALU", "GUMO", "RASI"]
    second = table(core, **base)
    for state in (first, second):
        play(state, ku(GREEN))
    return first, second


def cards_of(state, viewer: int, seed: int) -> StateData:
    """A determinisation of ``state`` for ``viewer``, less what the other players know of each hand
    (``test_R14_10_a_sample_hides_what_the_others_know`` asks for that part)."""
    return dataclasses.replace(state.determinise(viewer, seed).to_data(), known=[])


def test_R14_10_after_ku_only_the_user_samples_the_real_hand(core):
    first, second = ku_pair(core)
    for seed in range(20):
        assert cards_of(first, BLUE, seed) == cards_of(second, BLUE, seed)
        assert cards_of(first, YELLOW, seed) == cards_of(second, YELLOW, seed)
        assert first.determinise(RED, seed).to_data().hands[GREEN] == hand(first, GREEN)
        assert second.determinise(RED, seed).to_data().hands[GREEN] == hand(second, GREEN)
    blue_sees = {tuple(first.determinise(BLUE, seed).to_data().hands[GREEN]) for seed in range(20)}
    assert len(blue_sees) > 1  # blue's samples of green's hand vary: blue does not know it


def gift_pair(core: Engine):
    """Two states after red's PELE and its gift to green, one giving NALU, the other PAHU: the cards
    that went are known to red and green only."""
    states = []
    for gift in ("NALU", "PAHU"):
        state = table(core, owned={RED: ["PELE"]}, hands={RED: ["NALU", "PAHU"], GREEN: ["ORO"], BLUE: ["GUMO"]},
                      deck=["HILO", "RASI", "DALI"])
        play(state, PELE_, give(GREEN, gift))
        states.append(state)
    return states


def test_R14_10_after_a_pele_gift_the_receiver_and_giver_know_the_card_and_the_others_do_not(core):
    first, second = gift_pair(core)
    assert hand(first, GREEN) != hand(second, GREEN)
    for seed in range(20):
        for viewer in (BLUE, YELLOW):
            assert cards_of(first, viewer, seed) == cards_of(second, viewer, seed)
        for state, gift in ((first, "NALU"), (second, "PAHU")):
            assert state.determinise(RED, seed).to_data().hands[GREEN][island(gift)] == 1  # the giver
            assert state.determinise(GREEN, seed).to_data().hands[GREEN] == hand(state, GREEN)  # the receiver
            assert state.determinise(GREEN, seed).to_data().hands[RED][island("ORO")] >= 1  # what PELE took


def test_R14_10_a_sample_hides_what_the_others_know(core):
    """What red learnt of green's hand by KU, or green of the gift it received, is not the viewer's:
    the whole samples of blue and yellow are the same for both states of each pair."""
    for first, second in (ku_pair(core), gift_pair(core)):
        for viewer in (BLUE, YELLOW):
            for seed in range(20):
                assert first.determinise(viewer, seed).to_data() == second.determinise(viewer, seed).to_data()


def test_R14_10_determinisation_keeps_what_the_viewer_knows(core):
    """After a face-up take, a steal and a gift, every sample keeps each viewer's ``known`` of every hand."""
    state = table(core, owned={RED: ["KU", "PELE"]}, hands={RED: ["ALOA", "BAFI"], GREEN: ["ORO", "GUMO"],
                                                            BLUE: ["ELOI", "ELOI"], YELLOW: ["FALU"]})
    play(state, ku(GREEN), steal("GUMO"), PELE_, give(GREEN, "GUMO"))
    data = state.to_data()
    for viewer in range(4):
        for seed in range(10):
            sample = state.determinise(viewer, seed).to_data()
            assert sample.known[viewer] == data.known[viewer] and sample.hands[viewer] == data.hands[viewer]
            for seat in range(4):
                assert all(k <= h for k, h in zip(data.known[viewer][seat], sample.hands[seat], strict=True))


# -- the reference's explanations: why_illegal and why_unreachable ---------------------------------------------


def reasons(state, *actions: int, hand_known: bool = True) -> list[str | None]:
    return [why_illegal(state, a, NAMES, hand_known) for a in actions]


def test_why_illegal_names_the_rule_of_each_token_use():
    r1 = owner_of_everything(REFERENCE, ROUND_1)
    assert reasons(r1, ku(GREEN), PELE_, LONO_, place("GUMO-MOKU", "KANALOA")) == [
        "KU is used in round 2 only, not in round 1 (R14.4)",
        "PELE is used in round 2 only, not in round 1 (R14.4)",
        "LONO is used in round 2 only, not in round 1 (R14.4)",
        "KANALOA is used in round 2 only, not in round 1 (R14.4)"]
    final = owner_of_everything(REFERENCE, ROUND_FINAL)
    assert why_illegal(final, ku(GREEN), NAMES) == "no god token is used in the final round: KU was for round 2 (R14.4)"
    r2 = owner_of_everything(REFERENCE, ROUND_2)
    assert reasons(r2, ku(GREEN), PELE_, LONO_, place("GUMO-MOKU", "KANALOA")) == [None] * 4
    assert why_illegal(r2, ku(RED), NAMES) == "red cannot use KU on itself: it names another player (R14.6)"
    assert why_illegal(r2, swap("ALOA-BAFI", "KANALOA+KANALOA"), NAMES) == (
        "red owns one KANALOA; a swap paid with KANALOA+KANALOA needs two (R14.5)")
    assert why_illegal(r2, steal("ORO"), NAMES) == (
        "no KU is pending: 'steal' takes a card from the hand a KU showed (R14.6)")
    assert why_illegal(r2, give(GREEN, "ALOA"), NAMES) == (
        "no PELE gift is pending: 'give' hands a card back after PELE (R14.7)")
    play(r2, discard("COCO"))
    assert why_illegal(r2, ku(GREEN), NAMES) == (
        "red has discarded this turn: no god token is used after a discard (R14.4)")
    nobody = table(REFERENCE, owned={GREEN: ALL_TOKENS}, hands={RED: ["ALOA"]}, to_move=GREEN, deck=[], face_up=[])
    assert reasons(nobody, ku(RED), ku(BLUE), PELE_, LONO_) == [
        None,
        "blue holds no card; KU names a player who holds one (R14.6, R14.9)",
        None,
        "the deck and the face-up cards are empty: LONO has nothing to take (R14.8)"]
    alone = table(REFERENCE, owned={RED: ["PELE"]}, hands={RED: ["ALOA"]})
    assert why_illegal(alone, PELE_, NAMES) == (
        "nobody else holds a card; PELE is used only when another player holds one (R14.7, R14.9)")
    assert why_illegal(alone, ku(GREEN), NAMES) == "red owns no KU token (R14.4)"


def test_why_illegal_while_a_token_use_is_pending():
    state = table(REFERENCE, owned={RED: ["KU", "PELE", "LONO"]}, hands=KU_HANDS)
    play(state, ku(GREEN))
    assert reasons(state, DRAW, steal("ELOI"), steal("ORO")) == [
        "red must first take a card from green's hand: 'steal CARD' (R14.6)", "green has no ELOI card (R14.6)", None]
    assert why_illegal(state, steal("ELOI"), NAMES, hand_known=False) is None  # the hand KU showed is unknown
    play(state, steal("ORO"), PELE_)
    assert state.to_data().pele_gifts == [GREEN, BLUE, YELLOW]
    assert reasons(state, DRAW, give(BLUE, "ALOA"), give(GREEN, "NALU")) == [
        "red must first give a card back to green: 'give green CARD' (R14.7)",
        "PELE's gifts go in seat order after red: green is next, not blue (R14.7)",
        "red has no NALU card"]
    for receiver in (GREEN, BLUE, YELLOW):
        card = ORO.islands[next(x for x in range(16) if hand(state, RED)[x])]
        play(state, give(receiver, card))
    play(state, LONO_)
    assert reasons(state, place("ALOA-BAFI", "ALOA"), take("NALU"), take("HILO")) == [
        "red must first take LONO's extra card: 'take CARD' or 'draw' (R14.8)",
        "no NALU among the face-up cards (HILO, IKA, LANI, MOKU)", None]


def test_why_illegal_of_the_hand_limit_and_the_turns_end():
    state = table(REFERENCE, owned={RED: ["KU"]}, hands={RED: ["ALOA", "ALOA", "BAFI", "COCO", "DALI"],
                                                         GREEN: ["ORO"]})
    play(state, ku(GREEN), steal("ORO"))
    assert why_illegal(state, DRAW, NAMES) == "the hand holds 6 cards; play or discard first (R4)"
    play(state, discard("ALOA"))
    assert why_illegal(state, DRAW, NAMES) == "the hand holds 5 cards; discard down to 4 first (R14.9)"
    assert why_illegal(state, place("BAFI-COCO", "BAFI"), NAMES) == (
        "red has discarded this turn; only more discards, down to 4 cards, remain (R14.9)")
    state = table(REFERENCE, owned={RED: ["KU"]}, hands={RED: ["ALOA", "BAFI", "COCO", "DALI"], GREEN: ["ORO"]})
    play(state, ku(GREEN), steal("ORO"), place("ALOA-BAFI", "ALOA"))
    assert why_illegal(state, discard("BAFI"), NAMES) == (
        "red holds 4 cards; after playing, a face-down discard only brings a hand that a token left above 4 down "
        "to 4 (R14.9)")
    assert why_illegal(state, END, NAMES) == (
        "'end' belongs to the final round (R10), or ends a round-2 turn when nothing is left to draw (R14.8)")
    empty = table(REFERENCE, hands={RED: ["ALOA", "BAFI", "COCO", "DALI", "ELOI"]}, deck=[], face_up=[],
                  over_limit=True)
    assert why_illegal(empty, END, NAMES) == (
        "the hand holds 5 cards; it must hold at most 4 when the turn ends (R4, R14.9)")
    assert why_illegal(empty, DRAW, NAMES) == "the hand holds 5 cards; play or discard first (R4)"
    play(empty, place("ALOA-BAFI", "ALOA"))
    assert why_illegal(empty, END, NAMES) is None
    assert why_illegal(empty, DRAW, NAMES) == "the deck and the face-up cards are empty: 'end' ends the turn (R14.8)"


def test_why_illegal_of_malformed_codes_of_the_variant():
    state = table(REFERENCE, owned={RED: ALL_TOKENS}, hands={RED: ["ALOA"], GREEN: ["ORO"]})
    assert why_illegal(state, A.encode(A.KU, 4), NAMES) == "'ku' names a player: this game has no player 4"
    assert why_illegal(state, A.encode(A.GIVE, 3, 9), NAMES) == "'give' names a player: this game has no player 9"
    assert why_illegal(state, A.encode(A.STEAL, 16), NAMES) == "board oro has no island 16"
    assert why_illegal(state, A.encode(A.PELE, 1), NAMES) == "'pele' names nothing"
    assert why_illegal(state, A.encode(A.PLACE, 40, A.JOKER), NAMES) == "board oro has no link 40"
    assert why_illegal(state, A.encode(15), NAMES) == "15 is no kind of action"
    plain = ReferenceState.deal(ORO, 3, PRESET_YUCATA, 7)  # without the variant its codes name nothing
    assert why_illegal(plain, PELE_, NAMES) == "12 is no kind of action"


def unreachable(changes=None, **kwargs) -> tuple[str, str] | None:
    """``why_unreachable`` for a round-2 state of the variant, changed by ``changes(data)``."""
    data = table(REFERENCE, **kwargs).to_data()
    if changes is not None:
        changes(data)
    return why_unreachable(ReferenceState(ORO, data), NAMES)


def test_why_unreachable_accepts_states_of_the_variant():
    assert unreachable(hands={RED: ["ALOA"]}, owned={RED: ALL_TOKENS}) is None
    assert unreachable(round=ROUND_1, scores=[3, 2, 0, 0], tokens={"ORO": None, "ALOA": None}) is None  # KANE


def test_why_unreachable_refuses_impossible_tokens():
    def set_(field, value):
        return lambda d: setattr(d, field, value)

    found = unreachable(set_("god_on", [KU] * 16))
    assert found is not None and found[0] == "gods" and "(R14.1)" in found[1]
    assert unreachable(owned={RED: ["KU", "KU"]}, tokens={"COCO": "KU"})[0] == "gods"
    assert unreachable(lambda d: d.gods_owned[RED].__setitem__(KANE, 1), tokens={"ALOA": None}) == (
        "gods.owned", "red owns KANE; KANE scores when it is claimed and is never kept (R14.3)")
    assert unreachable(round=ROUND_1, tokens={"COCO": None}) == (
        "gods.owned", "1 KU used in round 1; tokens are used in round 2 only (R14.4)")
    assert unreachable(bridges={"ALOA-COCO": RED, "BAFI-COCO": RED, "COCO-ELOI": RED}) == (
        "gods.on_islands", "red controls COCO, but its KU is still there: the first control claims it (R14.2)")
    assert unreachable(round=ROUND_1, scores=[5, 0, 0, 0], tokens={"ALOA": None})[0] == "scores.red"


def test_why_unreachable_refuses_the_variant_on_a_board_without_16_islands():
    data = REFERENCE.deal(make_ruleset(players=3, board=KAHUNA), 1).to_data()
    data.gods, data.god_on = True, token_list()[:12]
    data.gods_owned = [[0] * 5 for _ in range(3)]
    data.known = [[[0] * 12 for _ in range(3)] for _ in range(3)]
    assert why_unreachable(ReferenceState(KAHUNA, data), NAMES) == (
        "board", "Might of the Gods puts one of its 16 god tokens on each island; board kahuna has 12 islands (R14.1)")
    plain = REFERENCE.deal(make_ruleset(players=3, board=ORO), 1).to_data()
    plain.god_on = token_list()
    assert why_unreachable(ReferenceState(ORO, plain), NAMES)[0] == "rules.gods"


def test_why_unreachable_refuses_knowledge_outside_public_and_the_hand():
    assert unreachable(hands={RED: ["ALOA"]}, known={(GREEN, RED): ["ALOA", "ALOA"]}) == (
        "hands.red.known", "green knows 2 ALOA card(s) in red's hand, which holds 1, 0 of them known to all; what a "
                           "player knows lies between the two (R14.10)")
    assert unreachable(hands={RED: ["ALOA"]}, public={RED: ["ALOA"]},
                       known={(GREEN, RED): []})[0] == "hands.red.known"
    assert unreachable(lambda d: d.known[RED][RED].__setitem__(0, 1), hands={RED: ["ALOA"]}) == (
        "hands.red.known", "red sees its own hand; it keeps no knowledge of it (R14.10)")


def test_why_unreachable_refuses_inconsistent_pending_fields():
    def with_(**fields):
        def change(d):
            for name, value in fields.items():
                setattr(d, name, value)
        return change

    kw = dict(hands={RED: ["ALOA"], GREEN: ["ORO"], BLUE: ["GUMO"]})
    ku_ok = table(REFERENCE, owned={RED: ["KU"]}, **kw)
    play(ku_ok, ku(GREEN))
    assert why_unreachable(ku_ok, NAMES) is None
    assert unreachable(with_(ku_target=RED), **kw) == ("turn.ku_target", "KU names another player, not red (R14.6)")
    assert unreachable(with_(ku_target=YELLOW), **kw) == (
        "turn.ku_target", "yellow holds no card; KU names a player who holds one (R14.6)")
    assert unreachable(with_(ku_target=GREEN), **kw) == (
        "hands.green.known", "KU has just shown red the whole hand of green (R14.6)")
    assert unreachable(with_(pele_gifts=[BLUE, GREEN]), **kw)[0] == "turn.pele_gifts"
    assert unreachable(with_(pele_gifts=[GREEN, BLUE]), **kw) == (
        "turn.pele_gifts", "red holds fewer cards than the 2 gifts it owes (R14.7)")
    assert unreachable(with_(lono_draw=True, pele_gifts=[GREEN]), **kw) == (
        "turn.pele_gifts", "a token's action is finished before another token is used (R14.4)")
    assert unreachable(with_(lono_draw=True), round=ROUND_1, **kw) == (
        "turn.lono_draw", "god tokens are used in round 2 only, so nothing of theirs is pending now (R14.4)")
    assert unreachable(with_(lono_draw=True, discarded=True), **kw) == (
        "turn.lono_draw", "no token is used after a discard or while a removal is due (R7, R14.4)")


def test_why_unreachable_allows_what_only_tokens_make():
    """Six cards with the exception, a discard after playing, a KANALOA build without a card played,
    an empty deck and row in the middle of a round-2 turn."""
    six = ["ALOA", "ALOA", "BAFI", "COCO", "DALI", "ELOI"]
    assert unreachable(hands={RED: six}, over_limit=True) is None
    assert unreachable(hands={RED: six})[0] == "hands.red"
    assert unreachable(lambda d: setattr(d, "discarded", True), hands={RED: six[:4]}, played=1,
                       over_limit=True) is None
    assert unreachable(lambda d: setattr(d, "discarded", True), hands={RED: six[:4]}, played=1)[0] == "turn.discarded"
    assert unreachable(players=2, bridges={"GUMO-MOKU": BLUE}, hands={RED: ["ALOA"]},
                       changes=lambda d: setattr(d, "turn_color", BLUE)) is None
    assert unreachable(hands={RED: ["ALOA"]}, deck=[], face_up=[]) is None
    assert unreachable(round=ROUND_1, hands={RED: ["ALOA"]}, deck=[], face_up=[])[0] == "face_up"


# -- property tests: many random games through the reference ------------------------------------------------

PROPERTY_GAMES = 120
CROWDED_GAMES = 40
MOVE_CAP = 3000


def random_game(seed: int, crowded: bool = False) -> list[tuple[StateData, list[int], int]]:
    """``(state, legal moves, move played)`` of each step of a seeded random game of the variant (2, 3 or
    4 players, both presets; a crowded game starts with the bridges scrambled after the setup), and the
    final state with its empty list."""
    players = (2, 3, 4)[seed % 3]
    preset = PRESET_YUCATA if seed % 2 == 0 else PRESET_TABLETOP
    rng = random.Random(seed)

    def crowd_after_the_setup(state: ReferenceState) -> None:
        if crowded and state.data.round == ROUND_1 and all(b == NO_OWNER for b in state.data.bridges):
            scramble_bridges(state.data, rng)  # then each controlled island's token goes to its controller
            for i in range(ORO.n_islands):
                if state.controller_of(i) != NO_OWNER:
                    claim(state, i, state.controller_of(i))

    state = ReferenceState.deal(ORO, players, preset, seed, gods=True)
    return record_steps(state, rng, seed, MOVE_CAP, end=-1, before_move=crowd_after_the_setup)


@functools.cache
def games() -> tuple[tuple[int, list], ...]:
    return (tuple((seed, random_game(seed)) for seed in range(14_000, 14_000 + PROPERTY_GAMES))
            + tuple((seed, random_game(seed, crowded=True)) for seed in range(15_000, 15_000 + CROWDED_GAMES)))


def tokens_used(action: int) -> tuple[int, int]:
    """(kind, how many) of the tokens ``action`` uses, or (-1, 0)."""
    kind = A.kind_of(action)
    if kind in (A.KU, A.PELE, A.LONO):
        return {A.KU: KU, A.PELE: PELE, A.LONO: LONO}[kind], 1
    if kind in (A.PLACE, A.SWAP) and uses_token(action):
        return KANALOA, 2 if A.build_arg(action) == A.SWAP_JJ else 1
    return -1, 0


def test_random_games_end_with_sorted_moves_listed_until_then():
    for seed, steps in games():
        for data, legal, _ in steps[:-1]:
            assert legal and legal == sorted(set(legal)), (seed, data)
        last, legal, _ = steps[-1]
        assert last.round == ROUND_OVER and legal == [] and sorted(last.ranking) == list(range(last.players))


def test_random_games_conserve_cards_and_tokens():
    for seed, steps in games():
        used = [0] * len(GOD_NAMES)
        for data, _, action in steps:
            assert card_totals(data, ORO) == [ORO.cards_per_island] * ORO.n_islands, seed
            for kind, total in enumerate(GOD_TOKENS):
                on_board = data.god_on.count(kind)
                kept = sum(row[kind] for row in data.gods_owned)
                gone = total - on_board
                assert kept + used[kind] == (0 if kind == KANE else gone), (seed, GOD_NAMES[kind], data)
            kind, n = tokens_used(action)
            if n:
                used[kind] += n


def test_random_games_keep_what_each_player_knows_between_public_and_the_hand():
    for seed, steps in games():
        for data, _, _ in steps:
            for observer, seat in itertools.product(range(data.players), repeat=2):
                known = data.known[observer][seat]
                if observer == seat:
                    assert not any(known), (seed, data)
                else:
                    assert all(p <= k <= h for p, k, h in zip(data.public[seat], known, data.hands[seat],
                                                               strict=True)), (seed, observer, seat, data)


def test_random_games_use_tokens_only_in_round_2_and_hands_stay_in_bounds():
    for seed, steps in games():
        for data, legal, _ in steps:
            if any(uses_token(a) for a in legal):
                assert data.round == ROUND_2 and not data.discarded and not data.remove_on, seed
            if data.round != ROUND_2:
                assert not data.over_limit and not data.lono_draw and data.ku_target == -1 and not data.pele_gifts
            for seat in range(data.players):
                if seat != data.to_move or not (data.over_limit or data.pele_gifts):
                    assert data.hand_size(seat) <= 5, (seed, data)


def test_random_games_reach_every_token_and_rule_of_the_variant():
    played = Counter()
    kane_scored = 0
    for _, steps in games():
        for (before, _, action), (after, _, _) in itertools.pairwise(steps):
            kind = A.kind_of(action)
            played[kind] += 1
            if uses_token(action) and kind in (A.PLACE, A.SWAP):
                played[("kanaloa", A.build_arg(action))] += 1
            if kind == A.DISCARD and before.played:
                played["discard after playing (R14.9)"] += 1
            if kind == A.END and before.round == ROUND_2:
                played["end without a draw (R14.8)"] += 1
            if kind in (A.TAKE, A.DRAW) and before.lono_draw and after.to_move == before.to_move:
                played["LONO's card"] += 1
            if before.round == ROUND_FINAL and after.god_on.count(KANE) < before.god_on.count(KANE):
                played["KANE in the final round"] += 1
            kane_scored += before.round == ROUND_1 and sum(after.scores) > sum(before.scores)
    wanted = [A.KU, A.STEAL, A.PELE, A.GIVE, A.LONO, ("kanaloa", A.JOKER), ("kanaloa", A.SWAP_JA),
              ("kanaloa", A.SWAP_JB), ("kanaloa", A.SWAP_JJ), "discard after playing (R14.9)",
              "end without a draw (R14.8)", "LONO's card", "KANE in the final round"]
    assert all(played[w] > 0 for w in wanted), {w: played[w] for w in wanted}
    assert kane_scored > 0


def test_random_game_states_are_reachable_and_explained():
    """Every sampled state of a game from the deal passes ``why_unreachable``; ``why_illegal`` explains
    exactly the illegal codes of every kind, in crowded games too (seen from outside, a reason still
    means the code is illegal)."""
    chosen = games()[:12] + games()[PROPERTY_GAMES : PROPERTY_GAMES + 6]
    for seed, steps in chosen:
        players = steps[0][0].players
        codes = gods_codes(players)
        for data, legal, _ in steps[::4] + [s for s in steps if s[0].round == ROUND_2][::2] + steps[-1:]:
            state = ReferenceState(ORO, data)
            if seed < 15_000:  # a crowded game's scrambled board is no state a game reaches
                assert why_unreachable(state, NAMES) is None, (seed, data, why_unreachable(state, NAMES))
            check_reasons(state, legal, codes, NAMES, ORO, seed)


def gods_codes(players: int) -> list[int]:
    """Every code of every kind on ``oro``: builds of both slots paid with cards or KANALOA, and the
    token actions naming every seat and island."""
    codes = []
    for link, ends in enumerate(ORO.links):
        for slot in (0, 1):
            codes += [A.with_slot(A.encode(A.PLACE, link, x), slot) for x in (*ends, A.JOKER)]
            codes += [A.with_slot(A.encode(A.SWAP, link, c), slot) for c in range(6)]
        codes.append(A.encode(A.REMOVE, link))
    for x in range(ORO.n_islands):
        codes += [A.encode(kind, x) for kind in (A.DISCARD, A.TAKE, A.REVEAL, A.STEAL)]
        codes += [A.encode(A.GIVE, x, seat) for seat in range(players)]
    codes += [ku(seat) for seat in range(players)]
    return [*codes, DRAW, END, A.encode(A.PASS), PELE_, LONO_]


def test_random_game_states_meet_the_reasons_of_the_variant():
    seen = set()
    for _, steps in games()[:12]:
        codes = gods_codes(steps[0][0].players)
        for data, _, _ in [s for s in steps if s[0].round == ROUND_2][::3]:
            state = ReferenceState(ORO, data)
            reasons = (why_illegal(state, a, NAMES) for a in codes)
            seen |= {reason_template(r, ORO, NAMES) for r in reasons if r is not None and "R14" in r}
    assert seen >= {
        "C has discarded this turn: no god token is used after a discard (RN.N)",
        "C must first give a card back to C: 'give C CARD' (RN.N)",
        "C must first take LONO's extra card: 'take CARD' or 'draw' (RN.N)",
        "C must first take a card from C's hand: 'steal CARD' (RN.N)",
        "C owns no KANALOA token (RN.N)",
        "PELE's gifts go in seat order after C: C is next, not C (RN.N)",
        "no KU is pending: 'steal' takes a card from the hand a KU showed (RN.N)",
        "no PELE gift is pending: 'give' hands a card back after PELE (RN.N)",
    }, seen


def test_the_same_seed_gives_the_same_game():
    assert random_game(14_003) == random_game(14_003)


def test_the_engines_agree_on_the_property_games():
    """The core plays the property games to the same states."""
    core = ENGINES["core"]
    for seed, steps in games()[:40]:
        first = steps[0][0]
        state = core.deal(ruleset_of(ORO, first.players, first.preset, gods=True), seed)
        for data, legal, action in steps:
            assert state.to_data() == data and list(state.legal_actions()) == legal, seed
            if action >= 0:
                state.apply(action)


def test_R14_1_a_two_player_game_keeps_tokens_per_player(engine):
    """A 2-player game of the variant: four colors score, two players own tokens."""
    data = engine.deal(make_ruleset(players=2, gods=True, board=ORO), 9).to_data()
    assert len(data.scores) == 4 and len(data.gods_owned) == 2 and data.turn_color == NO_COLOR
