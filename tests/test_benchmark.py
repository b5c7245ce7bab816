"""The benchmark's behaviour, never its timings: signature, reference positions, same work, ``kanaloa bench``.

The signature is the move total of a fixed set of seeded random games; every
engine (the core in C, the core driven from Python, the reference) must play
exactly those games.  The reference positions must come back identical from
their seeds and sit in the phase they are named after.  The benchmark knows no
game: it runs what each registered game's ``bench`` face lists.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import kanaloa_core
from kanaloa.interfaces.cli import cli
from kanaloa.rules.core import core_board
from kanaloa.rules.engine import load_engine
from kanaloa.rules.registry import game_types, load_game
from kanaloa.rules.rng import SplitMix64
from kanaloa.rules.state import ROUND_1, ROUND_2, ROUND_FINAL, ROUND_OVER
from kanaloa.tools import benchmark as B

# the machine keys bench --json must always print (the command's contract)
DOCUMENTED_KEYS = ("playouts_per_s", "moves_per_s", "ismcts_iterations_per_s", "reference_ratio")
# and those docs/benchmarks.md names besides (OpenSpiel's only with its extra)
README_KEYS = ("signature", "signature_2p", "playouts_2p_per_s", "reference_ratio_2p", "kahuna_playouts_per_s",
               "reference_ratio_kahuna", "signature_kahuna")
OPENSPIEL_KEYS = ("openspiel_ismcts_iterations_per_s", "openspiel_ismcts_core_iterations_per_s")


def test_signature_is_the_same_in_every_engine_and_on_every_run():
    """Whole games in C, the core move by move, and the reference play the same games (R1-R13 alike)."""
    core = B.signature("signature", "core")
    assert core == B.signature("signature", "reference") == B.signature("signature", "api")
    assert core == B.signature("signature", "core")
    assert core > 100 * B.signature_sets()["signature"].total_games  # whole games, not a few moves each


def test_signature_is_the_move_total_of_the_documented_games(oro):
    """Game g of each (players, preset) is dealt from SIGNATURE_SEED + g and played by random_games."""
    main = B.signature_sets()["signature"]
    assert [(rs.players, rs.preset, rs.gods, rs.board) for rs in main.rulesets] == [
        (3, "yucata", False, oro), (3, "tabletop", False, oro), (4, "yucata", False, oro), (4, "tabletop", False, oro)]
    tables = core_board(oro)
    expected = sum(kanaloa_core.random_games(tables, rs.players, rs.preset_code, B.SIGNATURE_GAMES,
                                             B.SIGNATURE_SEED)[1] for rs in main.rulesets)
    assert B.signature() == expected
    assert main.total_games == B.SIGNATURE_GAMES * len(main.rulesets) == 32


def test_signature_rejects_an_unknown_engine_and_an_unknown_signature():
    with pytest.raises(ValueError, match="impl 'fast'"):
        B.signature("signature", "fast")
    with pytest.raises(ValueError, match="signature 'signature_9p': choose one of signature, signature_2p, "):
        B.signature("signature_9p")


def test_every_registered_game_lists_its_workloads_in_its_bench_face():
    """The driver runs what the faces list: each game's rule sets are its own, and no key is listed twice."""
    keys: list[str] = []
    for game, bench in B.all_benches():
        assert bench == game.face("bench")(game)  # what the face lists, asked once
        for b in bench.batches:
            assert b.ruleset.game == game.name
            keys += [b.playouts_key, b.moves_key]
        for same in bench.same_games:
            assert same.ruleset.game == game.name
            keys.append(f"reference_ratio{same.suffix}")
        for s in bench.signatures:
            assert s.rulesets and all(rs.game == game.name for rs in s.rulesets)
            keys.append(s.key)
    assert len(keys) == len(set(keys))
    assert {g.name for g, _ in B.all_benches()} == {g.name for g in game_types()}
    assert set(B.signature_sets()) == {"signature", "signature_2p", "signature_gods", "signature_kahuna",
                                       "signature_cannonball"}


@pytest.mark.parametrize("params", [{"players": 3, "preset": "tabletop"}, {"players": 4}])
def test_same_seeded_games_in_every_engine(params):
    """The ratio's 'same work': equal move totals game by game, whichever engine plays them."""
    rules = load_game("kanaloa", **params)
    for g in range(3):
        seed = B.RATIO_SEED + g
        moves = B.core_games(rules, 1, seed)
        assert moves == B.play_games(rules, 1, seed, load_engine("core"))
        assert moves == B.play_games(rules, 1, seed, load_engine("reference"))
        assert moves == B.play_games_api(rules, 1, seed)


def test_different_deals_give_a_different_move_total():
    """The total moves with the games played: it is a fingerprint of them, not a constant."""
    rules = load_game("kanaloa", players=4)
    assert B.core_games(rules, 8, 1) != B.core_games(rules, 8, 2)


def test_play_random_ends_the_game():
    rules = load_game("kanaloa", players=4)
    state = load_engine().deal(rules, 5)
    moves = B.play_random(state, 5 ^ kanaloa_core.PLAYOUT_SALT)
    assert state.is_over and state.round == ROUND_OVER and state.winner >= 0
    assert moves == B.core_games(rules, 1, 5)


@pytest.fixture(scope="module")
def positions():
    return B.bench_positions()


def test_reference_positions_come_back_identical_from_their_seeds(positions):
    assert [p.name for p in positions] == [f"{n}p-{phase}" for n in (3, 4) for phase in B.PHASES]
    assert B.bench_positions() == positions
    assert B.bench_positions(engine=load_engine("reference")) == positions


def test_reference_positions_replay_from_the_deal(positions):
    """Each position is its seed's deal after ``moves`` random moves of the move stream (R3 onward)."""
    for p in positions:
        assert (p.ruleset.players, p.ruleset.preset, p.ruleset.board.name) == (p.players, "yucata", "oro")
        state = load_engine("reference").deal(p.ruleset, p.seed)
        stream = SplitMix64(p.seed ^ kanaloa_core.PLAYOUT_SALT)
        for _ in range(p.moves):
            legal = state.legal_actions()
            state.apply(legal[stream.below(len(legal))])
        assert state.to_data() == p.data, p.name
        for action in p.line:  # the recorded continuation is the same game going on
            legal = state.legal_actions()
            assert action == legal[stream.below(len(legal))], p.name
            state.apply(action)


def test_reference_positions_are_at_a_turn_start_in_their_phase(positions):
    """start: round 1 after the R3 reveals; mid-round-1: half the deck gone; round-2: after R9; final: R10."""
    for p in positions:
        d = p.data
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


def test_unknown_phase_is_refused():
    with pytest.raises(ValueError, match="phase 'end'"):
        B.bench_position(B.position_ruleset(4), "end")


def test_targets_report_met_and_unmet():
    report = B.BenchReport(board="oro", quick=True, figures={"playouts_per_s": 25_000.0, "reference_ratio": 50.0})
    targets = report.targets()
    assert targets["playouts_per_s"]["met"] is True
    assert targets["reference_ratio"]["met"] is False
    assert targets["ismcts_iterations_per_s"]["met"] is None  # not measured


def test_a_disagreement_between_engines_is_reported():
    report = B.BenchReport(board="oro", quick=True,
                           signatures={"signature": B.Tally("signature", 32, {"core": 10, "api": 10, "reference": 11})})
    assert not report.agrees
    assert "MISMATCH" in report.table()
    assert report.to_json()["engines_agree"] is False


@pytest.fixture(scope="module")
def quick_json():
    result = CliRunner().invoke(cli, ["bench", "--quick", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_bench_quick_json_has_the_documented_keys(quick_json):
    for key in DOCUMENTED_KEYS + README_KEYS:
        assert key in quick_json, key
    from kanaloa.play.bots import openspiel_installed

    if openspiel_installed():
        for key in OPENSPIEL_KEYS:
            assert quick_json[key] > 0, key
    for key in ("playouts_per_s", "moves_per_s", "reference_ratio"):
        assert quick_json[key] > 0
    if B.pettingzoo_installed():  # random play for learning: the AEC loop and the batched API (docs/pettingzoo.md)
        assert quick_json["aec_steps_per_s"] > 0 and quick_json["batch_steps_per_s"] > quick_json["aec_steps_per_s"]
        assert quick_json["batch_games"] == B.QUICK.batch_slots
    assert quick_json["moves_per_s"] > quick_json["playouts_per_s"]
    assert quick_json["ismcts_iterations_per_s"] > 0
    assert quick_json["signature"] == B.signature()
    assert quick_json["engines_agree"] is True
    assert set(quick_json["signature_by_engine"]) == {"core", "api", "reference"}
    assert quick_json["quick"] is True
    assert set(quick_json["targets"]) == set(B.bench_targets()) == {
        "playouts_per_s", "determinisations_per_s", "reference_ratio", "ismcts_iterations_per_s",
        "kahuna_playouts_per_s", "batch_steps_per_s"}


def test_bench_prints_a_table_for_people(monkeypatch):
    """The text form names every figure and the signature (run on a tiny budget: behaviour, not speed)."""
    tiny = B.Budget(batch_games=20, ratio_games=2, runs=1, seconds=0.0, reference_runs=1, ismcts_iterations=20,
                    ismcts_runs=1, positions=((3, "start"),), op_calls=10)
    monkeypatch.setattr(B, "QUICK", tiny)
    result = CliRunner().invoke(cli, ["bench", "--quick"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for fragment in ("games/s", "reference_ratio", "determinisations", "ISMCTS, 20 iterations", "3p-start",
                     "the PettingZoo AEC loop", "the batched API, 1024 games a call",
                     f"signature: {B.signature()} moves in 32 seeded games"):
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


def test_signature_is_pinned():
    assert B.signature() == EXPECTED_SIGNATURE


# Every registered game's signatures, each pinned: the base game (R1-R13), two players (R15), the gods (R14),
# Kahuna (R16) and Cannonball Colony (R20).  Each moves only with the rules it covers.
EXPECTED_SIGNATURES = {"signature": 5216, "signature_2p": 2816, "signature_gods": 2740, "signature_kahuna": 1006,
                       "signature_cannonball": 2309}


def test_every_signature_is_pinned_and_reported(quick_json):
    assert {key: B.signature(key) for key in B.signature_sets()} == EXPECTED_SIGNATURES
    for key, moves in EXPECTED_SIGNATURES.items():
        assert quick_json[key] == moves
        assert quick_json[f"{key}_by_engine"] == {"core": moves, "api": moves, "reference": moves}
        assert quick_json[f"{key}_games"] == B.signature_sets()[key].total_games
    for suffix in ("", "_2p", "_gods", "_kahuna", "_cannonball"):
        moves = quick_json[f"ratio_moves{suffix}"]
        assert moves["core"] == moves["api"] == moves["reference"] > 0, suffix
        assert quick_json[f"ratio_games{suffix}"] > 0


# -- two players (R15) --------------------------------------------------------------------------


def test_the_2_player_signature_is_the_same_in_every_engine():
    core = B.signature("signature_2p", "core")
    assert core == B.signature("signature_2p", "reference") == B.signature("signature_2p", "api")
    two = B.signature_sets()["signature_2p"]
    assert core > 100 * two.total_games  # whole games
    assert [(rs.players, rs.preset, rs.pairs) for rs in two.rulesets] == [(2, "yucata", True), (2, "tabletop", True)]
    assert two.total_games == B.SIGNATURE_GAMES * 2 == 16


# The 2-player signature moves only with the rules of R15; the one above only with those of 3 and 4 players.
EXPECTED_SIGNATURE_2P = 2816


def test_the_2_player_signature_is_pinned():
    assert B.signature("signature_2p") == EXPECTED_SIGNATURE_2P


def test_bench_reports_2_player_games_in_every_engine(quick_json):
    for key in ("playouts_2p_per_s", "ratio_2p_playouts_per_s", "api_2p_playouts_per_s",
                "reference_2p_playouts_per_s", "reference_ratio_2p"):
        assert quick_json[key] > 0, key
    assert quick_json["signature_2p"] == B.signature("signature_2p")
    assert set(quick_json["signature_2p_by_engine"]) == {"core", "api", "reference"}
    moves = quick_json["ratio_moves_2p"]
    assert moves["core"] == moves["api"] == moves["reference"] > 0


def test_a_2_player_disagreement_is_reported():
    report = B.BenchReport(board="oro", quick=True, signatures={
        "signature": B.Tally("signature", 32, {"core": 10, "reference": 10}),
        "signature_2p": B.Tally("2-player signature", 16, {"core": 5, "reference": 6}, "R15")})
    assert not report.agrees
    assert "2-player signature core 5, reference 6" in report.table()


# -- Cannonball Colony (R20), through its own bench face ------------------------------------------


def test_bench_reports_cannonball_colony_in_every_engine(quick_json):
    for key in ("cannonball_playouts_per_s", "cannonball_moves_3p_per_s", "cannonball_heuristic_playouts_2p_per_s",
                "ratio_cannonball_playouts_per_s", "api_cannonball_playouts_per_s",
                "reference_cannonball_playouts_per_s", "reference_ratio_cannonball",
                "cannonball_mcts_iterations_per_s"):
        assert quick_json[key] > 0, key
    assert "cannonball-4p" in quick_json["positions"]
