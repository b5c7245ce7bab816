"""``why_illegal`` against ``legal_actions``: over many states of seeded random games, every action
code a move of the notation can express is explained exactly when it is illegal.

The states come from 3- and 4-player games in both presets, some with their bridges scrambled
(``scramble_bridges``) so that removals (R7), immediate wins (R8) and an empty stock (R13) turn up
often.  Each state is asked twice: with the mover's hand known (a reason exactly when the action is
illegal) and seen from outside (a reason only when the action is illegal whatever the hand holds).
"""

from __future__ import annotations

import functools
import random
import re

import pytest

from conftest import action_name, scramble_bridges
from kanaloa.position.notation import COLORS, Move
from kanaloa.rules import actions as A
from kanaloa.rules.board import Board, load_board
from kanaloa.rules.reference import ReferenceState, why_illegal
from kanaloa.rules.state import PRESET_TABLETOP, PRESET_YUCATA, ROUND_1, ROUND_2, ROUND_SETUP

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


def test_the_action_codes_are_those_of_the_notation():
    """Each code reads as a move and that move's notation gives the code back."""
    for action in ACTIONS:
        move = Move.from_action(action, ORO)
        assert Move.parse(str(move), ORO).to_action(ORO) == action
    assert len(set(ACTIONS)) == len(ACTIONS) == 37 * 6 + 16 * 3 + 3


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


@pytest.mark.parametrize("seed, players, preset, scrambled", GAMES)
def test_a_reason_exactly_when_the_action_is_illegal(seed, players, preset, scrambled):
    names = COLORS[:players]
    for state in sampled_states(seed, players, preset, scrambled):
        legal = set(state.legal_actions())
        for action in ACTIONS:
            reason = why_illegal(state, action, names)
            assert (reason is None) == (action in legal), (seed, state.data, action_name(ORO, action), reason)
            outside = why_illegal(state, action, names, hand_known=False)
            if outside is not None:  # seen from outside, a reason still means the action is illegal
                assert action not in legal, (seed, state.data, action_name(ORO, action), outside)
            elif reason is not None:  # and only reasons about the cards held go unsaid
                assert " has no " in reason or " needs two " in reason, reason


def _template(reason: str) -> str:
    """A reason with its colors, islands and numbers taken out."""
    reason = re.sub(r"\b(red|green|blue|yellow)\b", "C", reason)
    reason = re.sub(r"\b(" + "|".join(ORO.islands) + r")\b", "I", reason)
    return re.sub(r"\(I(, I)*\)", "(...)", re.sub(r"\d+", "N", reason))


def test_the_sampled_states_meet_every_reason():
    """The games above reach every reason ``why_illegal`` gives for a well-formed action."""
    seen = set()
    for seed, players, preset, scrambled in GAMES:
        for state in sampled_states(seed, players, preset, scrambled):
            for action in ACTIONS:
                reason = why_illegal(state, action, COLORS[:players])
                if reason is not None:
                    seen.add(_template(reason))
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
    }


def test_a_finished_game_and_malformed_codes_are_explained():
    state = ReferenceState.deal(ORO, 3, PRESET_YUCATA, 7)
    assert state.data.round == ROUND_SETUP
    names = COLORS[:3]
    assert why_illegal(state, A.encode(A.PLACE, ORO.n_links, 0), names) == "board oro has no link 37"
    assert why_illegal(state, A.encode(A.TAKE, 40), names) == "board oro has no island 40"
    assert why_illegal(state, A.encode(12), names) == "12 is no kind of action"
    rng = random.Random(7)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    assert all(why_illegal(state, action, names) == "the game is over" for action in ACTIONS)
