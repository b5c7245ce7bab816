"""Kahuna (R16): the compiled core against the readable reference, move by move.

As ``test_differential.py`` does for Kanaloa: seeded random Kahuna games are
played through ``kanaloa_core.CoreState`` and ``ReferenceState`` side by side
from the same deal, and after every move both must offer the identical
legal-move list and export equal ``StateData``.  Crowded boards, loaded
through ``from_data``, reach what random play from the deal rarely does: an
empty stock of 25 bridges (R16.1) and the early end (R16.8).
"""

from __future__ import annotations

import random

import pytest

from kanaloa.rules import actions as A
from kanaloa.rules.board import Board, load_board
from kanaloa.rules.ruleset import make_ruleset
from kanaloa.rules.state import (
    KAHUNA_BRIDGES,
    NO_OWNER,
    REASON_NO_BRIDGES,
    REASON_POINTS,
    ROUND_2,
    StateData,
)
from test_differential import play_side_by_side

GAMES = 2048  # random Kahuna games from the deal
CHUNKS = 8
CROWDED_GAMES = 256


@pytest.fixture(scope="module")
def kahuna() -> Board:
    return load_board("kahuna")


def deal_both(board, core_engine, reference_engine, seed):
    rules = make_ruleset("kahuna", board=board)
    return core_engine.deal(rules, seed), reference_engine.deal(rules, seed)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_core_matches_reference_on_random_kahuna_games(kahuna, core_engine, reference_engine, chunk):
    per_test = GAMES // CHUNKS
    played: list[int] = []
    reasons = set()
    for i in range(per_test):
        seed = 7000 + chunk * per_test + i
        core, ref = deal_both(kahuna, core_engine, reference_engine, seed)
        play_side_by_side(kahuna, core_engine, reference_engine, core, ref, seed, random.Random(seed), played)
        reasons.add(ref.to_data().reason)
    kinds = {A.kind_of(a) for a in played}
    assert {A.PLACE, A.REMOVE, A.DISCARD, A.TAKE, A.DRAW, A.END} <= kinds, f"kinds played: {sorted(kinds)}"
    assert REASON_POINTS in reasons


def crowd(data: StateData, rng: random.Random) -> None:
    """Fill the board at random, seat 0 favoured and capped at its 25 bridges (R16.1); seat 1 gets
    few bridges, often only one or two; half of the states are moved to round 2, where losing
    the last bridge ends the game (R16.8).  Card places are untouched."""
    few = rng.choice((1, 2, 3, 6))
    held = [0, 0]
    for k in range(len(data.bridges)):
        x = rng.random()
        owner = 0 if x < 0.9 else (1 if x < 0.96 else NO_OWNER)
        if owner == 1 and held[1] >= few:
            owner = NO_OWNER
        if owner == 0 and held[0] >= KAHUNA_BRIDGES:
            owner = NO_OWNER
        if owner >= 0:
            held[owner] += 1
        data.bridges[k] = owner
    if held[1] == 0:  # R16.8 would already have ended a game in round 2
        k = data.bridges.index(NO_OWNER) if NO_OWNER in data.bridges else 0
        if data.bridges[k] == 0:
            held[0] -= 1
        data.bridges[k] = 1
    if rng.random() < 0.5:
        data.round = ROUND_2


def test_core_matches_reference_from_crowded_kahuna_boards(kahuna, core_engine, reference_engine):
    early = 0
    full_stock = 0
    for i in range(CROWDED_GAMES):
        seed = 900_000 + i
        rng = random.Random(seed)
        dealt = reference_engine.deal(make_ruleset("kahuna", board=kahuna), seed).to_data()
        crowd(dealt, rng)
        full_stock += dealt.bridges.count(0) >= KAHUNA_BRIDGES
        core = core_engine.from_data(kahuna, dealt)
        ref = reference_engine.from_data(kahuna, dealt)
        play_side_by_side(kahuna, core_engine, reference_engine, core, ref, seed, rng)
        early += ref.to_data().reason == REASON_NO_BRIDGES
    assert early > 0, "no crowded game ended early (R16.8); the crowding no longer reaches it"
    assert full_stock > 0, "no crowded game began with all 25 bridges of a seat on the board (R16.1)"
