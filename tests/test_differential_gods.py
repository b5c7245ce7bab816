"""Might of the Gods (R14): the compiled core against the readable reference, move by move.

As ``test_differential.py`` does for Kanaloa: seeded random games of the variant are played through
``kanaloa_core.CoreState`` and ``ReferenceState`` side by side from the same deal, and after every
move both must offer the identical legal-move list and export equal ``StateData`` (the tokens, what
each player knows, what a token use leaves pending, the chance stream after PELE's takes).  Games
with 3 and 4 players in both presets, and with 2 players.  Crowded boards, loaded through
``from_data`` with each controlled island's token already claimed, reach what random play from the
deal rarely does: an immediate win (R8) and tokens claimed late.  Skipped while the core does not
deal the variant.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from conftest import ruleset_of, scramble_bridges
from kanaloa.rules import actions as A
from kanaloa.rules.engine import Engine
from kanaloa.rules.gods import claim
from kanaloa.rules.reference import ReferenceState
from kanaloa.rules.state import NO_OWNER, PRESET_TABLETOP, PRESET_YUCATA, REASON_ELEVEN
from test_differential import play_side_by_side

GAMES = 1024  # 3 and 4 players, both presets: GAMES / (4 * CHUNKS) per test
CHUNKS = 8
GAMES_2P = 256  # 2 players, both presets: GAMES_2P / (2 * CHUNKS) per test
CROWDED_GAMES = 160
CROWDED_GAMES_2P = 64
KINDS = ["3p-yucata", "4p-yucata", "3p-tabletop", "4p-tabletop"]


@pytest.fixture(scope="module")
def core(core_engine) -> Engine:
    return core_engine


def game_setup(index: int) -> tuple[int, int, int]:
    """(seed, players, preset) of differential game ``index``: the four kinds in turn."""
    players = 3 + index % 2
    preset = PRESET_YUCATA if (index // 2) % 2 == 0 else PRESET_TABLETOP
    return 14_000_000 + index, players, preset


def token_kinds(played: list[int]) -> Counter:
    """How often each token action (and each build paid with KANALOA) was played."""
    seen: Counter = Counter()
    for action in played:
        kind = A.kind_of(action)
        if kind in (A.KU, A.STEAL, A.PELE, A.GIVE, A.LONO):
            seen[A.KIND_NAMES[kind]] += 1
        elif kind == A.PLACE and A.build_arg(action) == A.JOKER:
            seen["place/KANALOA"] += 1
        elif kind == A.SWAP and A.build_arg(action) >= A.SWAP_JA:
            seen["swap/KANALOA"] += 1
    return seen


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("kind", range(4), ids=KINDS)
def test_core_matches_reference_on_random_gods_games(oro, core, reference_engine, kind, chunk):
    per_test = GAMES // (4 * CHUNKS)
    played: list[int] = []
    for i in range(per_test):
        seed, players, preset = game_setup(kind + 4 * (chunk * per_test + i))
        first = core.deal(ruleset_of(oro, players, preset, gods=True), seed)
        second = reference_engine.deal(ruleset_of(oro, players, preset, gods=True), seed)
        play_side_by_side(oro, core, reference_engine, first, second, seed, random.Random(seed), played)
    seen = token_kinds(played)
    assert seen["ku"] and seen["pele"] and seen["lono"] and seen["place/KANALOA"], seen


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("preset", [PRESET_YUCATA, PRESET_TABLETOP], ids=["2p-yucata", "2p-tabletop"])
def test_core_matches_reference_on_random_2_player_gods_games(oro, core, reference_engine, preset, chunk):
    per_test = GAMES_2P // (2 * CHUNKS)
    played: list[int] = []
    for i in range(per_test):
        seed = 15_000_000 + 2 * (chunk * per_test + i) + preset
        first = core.deal(ruleset_of(oro, 2, preset, gods=True), seed)
        second = reference_engine.deal(ruleset_of(oro, 2, preset, gods=True), seed)
        play_side_by_side(oro, core, reference_engine, first, second, seed, random.Random(seed), played)
    assert token_kinds(played)["ku"] > 0


def crowded_deal(oro, reference_engine, players: int, preset: int, seed: int, rng: random.Random):
    """A dealt game of the variant with its bridges scrambled, each controlled island's token claimed
    by its controller (KANE scoring at once), as if each had been won in play."""
    data = reference_engine.deal(ruleset_of(oro, players, preset, gods=True), seed).to_data()
    scramble_bridges(data, rng)
    state = ReferenceState(oro, data)
    for island in range(oro.n_islands):
        holder = state.controller_of(island)
        if holder != NO_OWNER:
            claim(state, island, holder)
    return state.data


@pytest.mark.parametrize("players", [2, 3, 4])
def test_core_matches_reference_from_crowded_gods_boards(oro, core, reference_engine, players):
    games = CROWDED_GAMES_2P if players == 2 else CROWDED_GAMES // 2
    eleven = 0
    used_in_round_2 = 0
    for i in range(games):
        seed, preset = 16_000_000 + 10 * i + players, PRESET_YUCATA if i % 2 == 0 else PRESET_TABLETOP
        rng = random.Random(seed)
        dealt = crowded_deal(oro, reference_engine, players, preset, seed, rng)
        first = core.from_data(oro, dealt)
        second = reference_engine.from_data(oro, dealt)
        played: list[int] = []
        play_side_by_side(oro, core, reference_engine, first, second, seed, rng, played)
        eleven += second.to_data().reason == REASON_ELEVEN
        used_in_round_2 += sum(token_kinds(played).values()) > 0
    assert eleven > 0, "no crowded game ended by R8; the scramble no longer reaches it"
    assert used_in_round_2 > 0, "no crowded game used a token"


def test_the_seeds_cover_every_kind_of_game():
    kinds = Counter(game_setup(i)[1:] for i in range(GAMES))
    assert kinds == {(3, PRESET_YUCATA): 256, (4, PRESET_YUCATA): 256, (3, PRESET_TABLETOP): 256,
                     (4, PRESET_TABLETOP): 256}
    assert GAMES + GAMES_2P >= 1000
