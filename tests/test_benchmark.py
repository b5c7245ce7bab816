"""The benchmark's behaviour, never its timings: signature, reference positions, same work, ``kanaloa bench``.

The signature is the move total of a fixed set of seeded random games; every
engine (the core in C, the core driven from Python, the reference) must play
exactly those games.  The reference positions must come back identical from
their seeds and sit in the phase they are named after.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import kanaloa_core
from kanaloa.interfaces.cli import cli
from kanaloa.rules.core import core_board
from kanaloa.rules.engine import load_engine
from kanaloa.rules.rng import SplitMix64
from kanaloa.rules.state import PRESET_TABLETOP, PRESET_YUCATA, ROUND_1, ROUND_2, ROUND_FINAL, ROUND_OVER
from kanaloa.tools import benchmark as B

# the machine keys of bench --json that README.md "Benchmarks" names
DOCUMENTED_KEYS = ("playouts_per_s", "moves_per_s", "ismcts_iterations_per_s", "reference_ratio")


def test_signature_is_the_same_in_every_engine_and_on_every_run(oro):
    """Whole games in C, the core move by move, and the reference play the same games (R1-R13 alike)."""
    core = B.signature(oro, "core")
    assert core == B.signature(oro, "reference") == B.signature(oro, "api")
    assert core == B.signature(oro, "core")
    assert core > 100 * B.signature_games()  # whole games, not a few moves each


def test_signature_is_the_move_total_of_the_documented_games(oro):
    """Game g of each (players, preset) is dealt from SIGNATURE_SEED + g and played by random_games."""
    tables = core_board(oro)
    expected = sum(kanaloa_core.random_games(tables, players, preset, B.SIGNATURE_GAMES, B.SIGNATURE_SEED)[1]
                   for players, preset in B.SIGNATURE_SET)
    assert B.signature(oro) == expected
    assert B.signature_games() == B.SIGNATURE_GAMES * len(B.SIGNATURE_SET) == 32


def test_signature_rejects_an_unknown_engine(oro):
    with pytest.raises(ValueError, match="impl 'fast'"):
        B.signature(oro, "fast")


@pytest.mark.parametrize("players, preset", [(3, PRESET_TABLETOP), (4, PRESET_YUCATA)])
def test_same_seeded_games_in_every_engine(oro, players, preset):
    """The ratio's 'same work': equal move totals game by game, whichever engine plays them."""
    for g in range(3):
        seed = B.RATIO_SEED + g
        moves = B.core_games(oro, players, preset, 1, seed)
        assert moves == B.play_games(oro, players, preset, 1, seed, load_engine("core"))
        assert moves == B.play_games(oro, players, preset, 1, seed, load_engine("reference"))
        assert moves == B.play_games_api(oro, players, preset, 1, seed)


def test_different_deals_give_a_different_move_total(oro):
    """The total moves with the games played: it is a fingerprint of them, not a constant."""
    assert B.core_games(oro, 4, PRESET_YUCATA, 8, 1) != B.core_games(oro, 4, PRESET_YUCATA, 8, 2)


def test_play_random_ends_the_game(oro):
    state = load_engine().deal(oro, 4, PRESET_YUCATA, 5)
    moves = B.play_random(state, 5 ^ kanaloa_core.PLAYOUT_SALT)
    assert state.is_over and state.round == ROUND_OVER and state.winner >= 0
    assert moves == B.core_games(oro, 4, PRESET_YUCATA, 1, 5)


@pytest.fixture(scope="module")
def positions(oro):
    return B.bench_positions(oro)


def test_reference_positions_come_back_identical_from_their_seeds(oro, positions):
    assert [p.name for p in positions] == [f"{n}p-{phase}" for n in (3, 4) for phase in B.PHASES]
    assert B.bench_positions(oro) == positions
    assert B.bench_positions(oro, engine=load_engine("reference")) == positions


def test_reference_positions_replay_from_the_deal(oro, positions):
    """Each position is its seed's deal after ``moves`` random moves of the move stream (R3 onward)."""
    for p in positions:
        state = load_engine("reference").deal(oro, p.players, PRESET_YUCATA, p.seed)
        stream = SplitMix64(p.seed ^ kanaloa_core.PLAYOUT_SALT)
        for _ in range(p.moves):
            legal = state.legal_actions()
            state.apply(legal[stream.below(len(legal))])
        assert state.to_data() == p.state.to_data(), p.name
        for action in p.line:  # the recorded continuation is the same game going on
            legal = state.legal_actions()
            assert action == legal[stream.below(len(legal))], p.name
            state.apply(action)


def test_reference_positions_are_at_a_turn_start_in_their_phase(oro, positions):
    """start: round 1 after the R3 reveals; mid-round-1: half the deck gone; round-2: after R9; final: R10."""
    for p in positions:
        d = p.state.to_data()
        assert d.played == 0 and not d.discarded and not d.remove_on, p.name
        assert p.line, p.name
    by_name = {p.name: p for p in positions}
    for n in (3, 4):
        start, mid, two, final = (by_name[f"{n}p-{phase}"].data for phase in B.PHASES)
        assert start.round == ROUND_1 and start.to_move == 0 and len(start.face_up) == 4
        assert sum(start.hand_size(s) for s in range(n)) == 3 * n  # every hand gave one card to the row (R3)
        assert mid.round == ROUND_1 and 2 * len(mid.deck) <= len(start.deck)
        assert two.round == ROUND_2
        assert final.round == ROUND_FINAL and not final.final_done


def test_unknown_phase_is_refused(oro):
    with pytest.raises(ValueError, match="phase 'end'"):
        B.bench_position(oro, 4, "end")


def test_targets_report_met_and_unmet():
    report = B.BenchReport(board="oro", quick=True, figures={"playouts_per_s": 25_000.0, "reference_ratio": 50.0})
    targets = report.targets()
    assert targets["playouts_per_s"]["met"] is True
    assert targets["reference_ratio"]["met"] is False
    assert targets["ismcts_iterations_per_s"]["met"] is None  # not measured


def test_a_disagreement_between_engines_is_reported():
    report = B.BenchReport(board="oro", quick=True, signature=10,
                           signature_by_engine={"core": 10, "api": 10, "reference": 11})
    assert not report.agrees
    assert "MISMATCH" in report.table()
    assert report.to_json()["engines_agree"] is False


@pytest.fixture(scope="module")
def quick_json():
    result = CliRunner().invoke(cli, ["bench", "--quick", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_bench_quick_json_has_the_documented_keys(quick_json, oro):
    for key in DOCUMENTED_KEYS:
        assert key in quick_json
    for key in ("playouts_per_s", "moves_per_s", "reference_ratio"):
        assert quick_json[key] > 0
    assert quick_json["moves_per_s"] > quick_json["playouts_per_s"]
    assert quick_json["ismcts_iterations_per_s"] > 0
    assert quick_json["signature"] == B.signature(oro)
    assert quick_json["engines_agree"] is True
    assert set(quick_json["signature_by_engine"]) == {"core", "api", "reference"}
    assert quick_json["quick"] is True
    assert set(quick_json["targets"]) == set(B.TARGETS)


def test_bench_prints_a_table_for_people(monkeypatch, oro):
    """The text form names every figure and the signature (run on a tiny budget: behaviour, not speed)."""
    tiny = B.Budget(batch_games=20, ratio_games=2, runs=1, seconds=0.0, reference_runs=1, ismcts_iterations=20,
                    ismcts_runs=1, positions=((3, "start"),), op_calls=10)
    monkeypatch.setattr(B, "QUICK", tiny)
    result = CliRunner().invoke(cli, ["bench", "--quick"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for fragment in ("games/s", "reference_ratio", "determinisations", "ISMCTS, 20 iterations", "3p-start",
                     f"signature: {B.signature(oro)} moves in 32 seeded games"):
        assert fragment in out, fragment
    assert result.stderr == ""  # progress lines only for the full run


def test_bench_rejects_unknown_options():
    result = CliRunner().invoke(cli, ["bench", "--fast"])
    assert result.exit_code == 2
    assert result.stderr.strip().startswith("error: ") and "--fast" in result.stderr


# The signature of the rules as they stand. Like a chess engine's bench node
# count, it must change only when a commit means to change the rules'
# behaviour; such a commit updates this number and says so in its message.
EXPECTED_SIGNATURE = 5216


def test_signature_is_pinned(oro):
    assert B.signature(oro) == EXPECTED_SIGNATURE


# -- two players (R15) --------------------------------------------------------------------------


def test_the_2_player_signature_is_the_same_in_every_engine(oro):
    core = B.signature_2p(oro, "core")
    assert core == B.signature_2p(oro, "reference") == B.signature_2p(oro, "api")
    assert core > 100 * B.signature_2p_games()  # whole games
    assert B.signature_2p_games() == B.SIGNATURE_GAMES * len(B.SIGNATURE_SET_2P) == 16


# The 2-player signature moves only with the rules of R15; the one above only with those of 3 and 4 players.
EXPECTED_SIGNATURE_2P = 2816


def test_the_2_player_signature_is_pinned(oro):
    assert B.signature_2p(oro) == EXPECTED_SIGNATURE_2P


def test_bench_reports_2_player_games_in_every_engine(quick_json, oro):
    for key in ("playouts_2p_per_s", "ratio_2p_playouts_per_s", "api_2p_playouts_per_s",
                "reference_2p_playouts_per_s", "reference_ratio_2p"):
        assert quick_json[key] > 0, key
    assert quick_json["signature_2p"] == B.signature_2p(oro)
    assert set(quick_json["signature_2p_by_engine"]) == {"core", "api", "reference"}
    moves = quick_json["ratio_moves_2p"]
    assert moves["core"] == moves["api"] == moves["reference"] > 0


def test_a_2_player_disagreement_is_reported():
    report = B.BenchReport(board="oro", quick=True, signature=10, signature_by_engine={"core": 10, "reference": 10},
                           signature_2p=5, signature_2p_by_engine={"core": 5, "reference": 6})
    assert not report.agrees
    assert "2-player signature core 5, reference 6" in report.table()
