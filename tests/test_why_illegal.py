"""``why_illegal`` against ``legal_actions``: over many states of seeded random games, every action
code a move of the notation can express is explained exactly when it is illegal.

The states come from 2-, 3- and 4-player games in both presets, some with their bridges scrambled
(``scramble_bridges``) so that removals (R7), immediate wins (R8) and an empty stock (R13) turn up
often.  Each state is asked twice: with the mover's hand known (a reason exactly when the action is
illegal) and seen from outside (a reason only when the action is illegal whatever the hand holds).
Every state is also asked about the builds with a second color (R15): the 2-player moves
``blue: LINK/CARD``, and codes no move of a 3- or 4-player game stands for.
"""

from __future__ import annotations

import functools
import random

import pytest

from conftest import scramble_bridges
from game_helpers import check_reasons, reason_template
from kanaloa.position.notation import Move
from kanaloa.rules import actions as A
from kanaloa.rules.board import Board, load_board
from kanaloa.rules.reference import ReferenceState, why_illegal, why_not_mover_color
from kanaloa.rules.ruleset import make_ruleset
from kanaloa.rules.state import (
    NO_COLOR,
    PRESET_TABLETOP,
    PRESET_YUCATA,
    ROUND_1,
    ROUND_2,
    ROUND_FINAL,
    ROUND_SETUP,
    StateData,
)

ORO = load_board("oro")


def notation_actions(board: Board) -> list[int]:
    """Every action code some move of the notation stands for: all kinds, links, cards and swap combinations."""
    codes = []
    for link, ends in enumerate(board.links):
        codes += [A.encode(A.PLACE, link, x) for x in ends]
        codes += [A.encode(A.SWAP, link, combo) for combo in (A.SWAP_AA, A.SWAP_AB, A.SWAP_BB)]
        codes.append(A.encode(A.REMOVE, link))
    for island in range(board.n_islands):
        codes += [A.encode(kind, island) for kind in (A.DISCARD, A.TAKE, A.REVEAL)]
    codes += [A.encode(A.DRAW), A.encode(A.END), A.encode(A.PASS)]
    return codes


ACTIONS = notation_actions(ORO)
# The same builds with the mover's second color (R15): places and swaps with the slot bit set.
SECOND_COLOR = [A.with_slot(a, 1) for a in ACTIONS if A.kind_of(a) in (A.PLACE, A.SWAP)]
ALL_ACTIONS = ACTIONS + SECOND_COLOR


def names_of(players: int) -> tuple[str, ...]:
    """The default colors by color number: one per seat, or four with two players (R15.1)."""
    return make_ruleset(players=players, board=ORO).colors


def test_the_action_codes_are_those_of_the_notation():
    """Each code reads as a move and that move's notation gives the code back; with two players
    (seat 0 builds with red or blue) every build, of either color, too."""
    four = make_ruleset(board=ORO)
    for action in ACTIONS:
        move = Move.from_action(action, four)
        assert Move.parse(str(move), four).to_action(four, 0) == action
    assert len(set(ACTIONS)) == len(ACTIONS) == 37 * 6 + 16 * 3 + 3
    two = make_ruleset(players=2, board=ORO)  # seat 0 plays red and blue (R15.1)
    for action in ALL_ACTIONS:
        move = Move.from_action(action, two, seat=0)
        assert Move.parse(str(move), two).to_action(two, 0) == action
    assert len(set(ALL_ACTIONS)) == len(ALL_ACTIONS) == len(ACTIONS) + 37 * 5


@functools.cache
def sampled_states(seed: int, players: int, preset: int, scrambled: bool) -> tuple[ReferenceState, ...]:
    """Every other state of a seeded random game, the last one included.

    In a scrambled game the bridges are redrawn now and then in rounds 1 and 2, also in the middle
    of a turn or with a removal pending: states no game reaches, on which the two must agree all
    the same.
    """
    rng = random.Random(seed)
    state = ReferenceState.deal(ORO, players, preset, seed)
    states = []
    moves = 0
    while True:
        if scrambled and state.data.round in (ROUND_1, ROUND_2) and rng.random() < 0.04:
            scramble_bridges(state.data, rng)
        legal = state.legal_actions()
        if moves % 2 == 0 or not legal:
            states.append(state.copy())
        if not legal:  # over, or stuck where scrambled bridges left a removal nobody may make
            return tuple(states)
        state.apply(rng.choice(legal))
        moves += 1


GAMES = [(seed, players, preset, scrambled)
         for seed, (players, preset, scrambled) in enumerate(
             [(p, pr, sc) for p in (3, 4) for pr in (PRESET_YUCATA, PRESET_TABLETOP) for sc in (False, True)] * 4,
             start=100)]
GAMES_2P = [(seed, 2, preset, scrambled)
            for seed, (preset, scrambled) in enumerate(
                [(pr, sc) for pr in (PRESET_YUCATA, PRESET_TABLETOP) for sc in (False, True)] * 4, start=200)]


@pytest.mark.parametrize("seed, players, preset, scrambled", GAMES + GAMES_2P)
def test_a_reason_exactly_when_the_action_is_illegal(seed, players, preset, scrambled):
    names = names_of(players)
    for state in sampled_states(seed, players, preset, scrambled):
        check_reasons(state, state.legal_actions(), ALL_ACTIONS, names, ORO, seed)


def test_the_sampled_states_meet_every_reason():
    """The games above reach every reason ``why_illegal`` gives for a well-formed action."""
    seen = set()
    for seed, players, preset, scrambled in GAMES + GAMES_2P:
        for state in sampled_states(seed, players, preset, scrambled):
            for action in ALL_ACTIONS:
                reason = why_illegal(state, action, names_of(players))
                if reason is not None:
                    seen.add(reason_template(reason, ORO, names_of(4)))  # all four colors
    assert seen == {
        "'end' belongs to the final round (RN)",
        "'pass' belongs to the final round (RN)",
        "C cannot remove its own bridge (RN)",
        "C does not lead on I, so it removes nothing there (RN)",
        "C has already played a card this turn, so it may not pass (RN)",
        "C has already played a card this turn; a face-down discard replaces playing (RN)",
        "C has discarded this turn; only 'take' or 'draw' remain (RN)",
        "C has no I card",
        "C has no bridge left in stock (RN)",
        "C is tied for the most bridges on I, so only a color with a single bridge there may lose one (RN)",
        "C must first remove a bridge on I (RN): 'remove LINK'",
        "C needs two I cards and holds one",
        "I-I already holds C's bridge; a swap pays two cards",
        "I-I already holds C's own bridge",
        "I-I holds no bridge",
        "I-I holds no bridge to swap; a place pays one card",
        "cards are revealed only in the setup (RN)",
        "in the setup each color first reveals one card: 'reveal CARD' (RN)",
        "no I among the face-up cards (...)",
        "no color with more points than C is still to take its final turn, so C may not pass (RN)",
        "no removal is pending (RN)",
        "the deck is empty; take a face-up card (RN)",
        "the final round has no draw phase (RN)",
        "the game is over",
        "the hand holds N cards; play or discard first (RN)",
        "the pending removal is on I; I-I is not one of its links (RN)",
        "there is no discard in the final round (RN)",
        "with N players each plays one color; only a N-player game builds with a second color (RN.N)",
        "C builds with C this turn, not C: a turn builds with one color only (RN.N)",
        "C has taken its final turn, so C may not pass (RN.N)",
        "C's pair (N, N) is greater than C's (N, N); only the player with the smaller pair may pass (RN.N)",
    }


def test_a_finished_game_and_malformed_codes_are_explained():
    state = ReferenceState.deal(ORO, 3, PRESET_YUCATA, 7)
    assert state.data.round == ROUND_SETUP
    names = names_of(3)
    assert why_illegal(state, A.encode(A.PLACE, ORO.n_links, 0), names) == "board oro has no link 37"
    assert why_illegal(state, A.encode(A.TAKE, 40), names) == "board oro has no island 40"
    assert why_illegal(state, A.encode(12), names) == "12 is no kind of action"
    rng = random.Random(7)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    assert all(why_illegal(state, action, names) == "the game is over" for action in ACTIONS)


def two_player_round(round: int = ROUND_1) -> ReferenceState:
    """A 2-player game after its setup, in ``round``, with red (seat 0, red and blue) to move."""
    state = ReferenceState.deal(ORO, 2, PRESET_YUCATA, 31)
    while state.data.round == ROUND_SETUP:
        state.apply(state.legal_actions()[0])
    state.data.round = round
    if round == ROUND_FINAL:
        state.data.deck, state.data.face_up = [], []
    return state


def test_two_player_reasons_name_colors_and_pairs():
    names = names_of(2)
    state = two_player_round(ROUND_FINAL)
    state.data.scores = [9, 5, 5, 9]  # red 9 and blue 5 against green 5 and yellow 9
    equal = "red and green have equal pairs (5, 9), so nobody passes (R15.6)"
    assert why_illegal(state, A.encode(A.PASS), names) == equal
    state.data.scores = [9, 5, 4, 9]  # (4, 9) against (5, 9)
    assert why_illegal(state, A.encode(A.PASS), names) is None
    # A build that names a color not the mover's (R15.1).
    assert why_not_mover_color(state, 2, names) is None
    assert why_not_mover_color(state, 1, names) == "green is green's color; red builds with red and blue (R15.1)"
    assert why_not_mover_color(state, 3, names) == "yellow is green's color; red builds with red and blue (R15.1)"
    assert why_not_mover_color(state, 7, names) == "this game has no color 7; red builds with red and blue (R15.1)"


def test_two_player_builds_after_the_turns_first():
    state = two_player_round()
    hand = state.data.hands[0]
    x = next(i for i in range(ORO.n_islands) if hand[i])
    k = next(k for k, ends in enumerate(ORO.links) if x in ends and state.data.bridges[k] < 0)
    blue_place = A.with_slot(A.encode(A.PLACE, k, x), 1)
    state.apply(blue_place)
    assert state.data.turn_color == 2
    red_builds = [a for a in ACTIONS if A.kind_of(a) in (A.PLACE, A.SWAP)]
    reasons = {why_illegal(state, a, names_of(2)) for a in red_builds}
    assert reasons == {"red builds with blue this turn, not red: a turn builds with one color only (R15.3)"}
    own = A.with_slot(A.encode(A.SWAP, k, A.SWAP_AB), 1)
    assert why_illegal(state, own, names_of(2)) == f"{ORO.link_name(k)} already holds blue's own bridge"
    # Names for the seats alone still explain: a second color is called after its player.
    seats_only = why_illegal(state, own, ("red", "green"))
    assert seats_only == f"{ORO.link_name(k)} already holds red's second color's own bridge"
    data: StateData = state.to_data()
    state.apply(A.encode(A.DRAW))
    assert data.turn_color == 2 and state.data.turn_color == NO_COLOR
