"""The compiled core against the readable reference, move by move.

Thousands of seeded random games are played through ``kanaloa_core.CoreState``
and ``ReferenceState`` side by side from the same ``deal``.  After every move
both must offer the identical legal-move list and export equal ``StateData``;
the protocol properties must agree with the data.  The move is drawn from the
list by ``random.Random(seed)``, so any failure replays from its seed alone.
2-player games (R15: two colors per player, builds naming their color) are
played the same way.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from conftest import action_name, ruleset_of, scramble_bridges
from kanaloa.rules import actions as A
from kanaloa.rules.state import PRESET_TABLETOP, PRESET_YUCATA, REASON_ELEVEN, ROUND_OVER, StateData

GAMES = 2048  # spread evenly over 3 and 4 players and both presets (64 per test)
CHUNKS = 8  # games per test = GAMES / (4 * CHUNKS)
SCRAMBLED_GAMES = 240
GAMES_2P = 1024  # 2-player games (R15), spread evenly over both presets: GAMES_2P / (2 * CHUNKS) per test
SCRAMBLED_GAMES_2P = 120
MOVE_CAP = 2000


def first_difference(core: StateData, ref: StateData) -> str:
    """The first field (in declaration order) where two states differ, with both values."""
    for f in dataclasses.fields(StateData):
        a, b = getattr(core, f.name), getattr(ref, f.name)
        if a != b:
            return f"field {f.name!r}: core={a!r} reference={b!r}"
    return "no field differs"


def check_protocol(state, data: StateData, side: str, where: str) -> None:
    """The protocol properties must say what the exported data says."""
    assert state.to_move == data.to_move, f"{where}: {side}.to_move"
    assert state.round == data.round, f"{where}: {side}.round"
    assert state.is_over == (data.round == ROUND_OVER), f"{where}: {side}.is_over"
    assert list(state.scores) == data.scores, f"{where}: {side}.scores"
    assert state.winner == data.winner, f"{where}: {side}.winner"
    assert list(state.ranking) == data.ranking, f"{where}: {side}.ranking"


def play_side_by_side(board, core_engine, reference_engine, core, ref, seed: int, rng: random.Random,
                      played: list[int] | None = None) -> int:
    """Play ``core`` and ``ref`` in lockstep until the end; return the number of moves (and append
    them to ``played`` if given)."""
    where = f"seed {seed}, after the deal"
    move = 0
    while True:
        core_data, ref_data = core.to_data(), ref.to_data()
        assert core_data == ref_data, f"{where}: {first_difference(core_data, ref_data)}"
        check_protocol(core, core_data, "core", where)
        check_protocol(ref, ref_data, "reference", where)
        core_moves, ref_moves = core.legal_actions(), ref.legal_actions()
        assert list(core_moves) == ref_moves, (
            f"{where}: legal moves differ: only core {sorted(set(core_moves) - set(ref_moves))}, "
            f"only reference {sorted(set(ref_moves) - set(core_moves))}, order core {list(core_moves)} "
            f"reference {ref_moves}"
        )
        if ref.is_over:
            assert ref_moves == [], f"{where}: moves listed after the game ended"
            return move
        assert ref_moves, f"{where}: no legal move but the game is not over"
        assert move < MOVE_CAP, f"seed {seed}: no end after {MOVE_CAP} moves"
        action = rng.choice(ref_moves)
        if played is not None:
            played.append(action)
        move += 1
        where = f"seed {seed}, move {move}, action {action_name(board, action)}"
        core.apply(action)
        ref.apply(action)


def game_setup(index: int) -> tuple[int, int, int]:
    """(seed, players, preset) of differential game ``index``: the four kinds in turn."""
    players = 3 + index % 2
    preset = PRESET_YUCATA if (index // 2) % 2 == 0 else PRESET_TABLETOP
    return 1000 + index, players, preset


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("kind", range(4), ids=["3p-yucata", "4p-yucata", "3p-tabletop", "4p-tabletop"])
def test_core_matches_reference_on_random_games(oro, core_engine, reference_engine, kind, chunk):
    per_test = GAMES // (4 * CHUNKS)
    for i in range(per_test):
        index = kind + 4 * (chunk * per_test + i)
        seed, players, preset = game_setup(index)
        core = core_engine.deal(ruleset_of(oro, players, preset), seed)
        ref = reference_engine.deal(ruleset_of(oro, players, preset), seed)
        play_side_by_side(oro, core_engine, reference_engine, core, ref, seed, random.Random(seed))


@pytest.mark.parametrize("kind", range(4), ids=["3p-yucata", "4p-yucata", "3p-tabletop", "4p-tabletop"])
def test_core_matches_reference_from_crowded_boards(oro, core_engine, reference_engine, kind):
    """Random play rarely reaches eleven islands (R8) or an empty stock (R13): start from
    boards already full of bridges, seat 0 favoured, loaded through ``from_data``."""
    eleven = 0
    for i in range(SCRAMBLED_GAMES // 4):
        index = kind + 4 * i
        seed, players, preset = game_setup(index)
        seed += 500_000
        rng = random.Random(seed)
        dealt = reference_engine.deal(ruleset_of(oro, players, preset), seed).to_data()
        scramble_bridges(dealt, rng)
        core = core_engine.from_data(oro, dealt)
        ref = reference_engine.from_data(oro, dealt)
        play_side_by_side(oro, core_engine, reference_engine, core, ref, seed, rng)
        eleven += ref.to_data().reason == REASON_ELEVEN
    assert eleven > 0, "no crowded game ended by R8; the scramble no longer reaches it"


def game_setup_2p(index: int) -> tuple[int, int]:
    """(seed, preset) of 2-player differential game ``index``: the two presets in turn."""
    return 3000 + index, PRESET_YUCATA if index % 2 == 0 else PRESET_TABLETOP


def second_color_builds(actions: list[int]) -> int:
    """How many places and swaps among ``actions`` build with a player's second color (R15)."""
    return sum(1 for a in actions if A.kind_of(a) in (A.PLACE, A.SWAP) and A.build_slot(a) == 1)


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("kind", range(2), ids=["2p-yucata", "2p-tabletop"])
def test_core_matches_reference_on_random_2_player_games(oro, core_engine, reference_engine, kind, chunk):
    per_test = GAMES_2P // (2 * CHUNKS)
    played: list[int] = []
    for i in range(per_test):
        seed, preset = game_setup_2p(kind + 2 * (chunk * per_test + i))
        core = core_engine.deal(ruleset_of(oro, 2, preset), seed)
        ref = reference_engine.deal(ruleset_of(oro, 2, preset), seed)
        play_side_by_side(oro, core_engine, reference_engine, core, ref, seed, random.Random(seed), played)
    assert second_color_builds(played) > 0, "no game built with a second color"


@pytest.mark.parametrize("kind", range(2), ids=["2p-yucata", "2p-tabletop"])
def test_core_matches_reference_on_crowded_2_player_boards(oro, core_engine, reference_engine, kind):
    """As ``test_core_matches_reference_from_crowded_boards``, with all four colors of a 2-player
    game on the board (R15.4 takeovers and removals of a player's other color, R15.7)."""
    eleven = 0
    for i in range(SCRAMBLED_GAMES_2P // 2):
        seed, preset = game_setup_2p(kind + 2 * i)
        seed += 500_000
        rng = random.Random(seed)
        dealt = reference_engine.deal(ruleset_of(oro, 2, preset), seed).to_data()
        scramble_bridges(dealt, rng)
        core = core_engine.from_data(oro, dealt)
        ref = reference_engine.from_data(oro, dealt)
        play_side_by_side(oro, core_engine, reference_engine, core, ref, seed, rng)
        eleven += ref.to_data().reason == REASON_ELEVEN
    assert eleven > 0, "no crowded 2-player game ended by R8; the scramble no longer reaches it"


def test_first_difference_names_the_field():
    """The mismatch report must point at the first differing field."""
    a = StateData.empty(2, 1, 3)
    b = a.copy()
    b.deck = [1]
    b.scores = [0, 1, 0]
    assert first_difference(a, b) == "field 'deck': core=[] reference=[1]"
    assert first_difference(a, a.copy()) == "no field differs"
