"""Cannonball Colony's bench face (``kanaloa.cannonball.bench``, R20): what ``kanaloa bench`` times for the game.

Its random games are the driver's (``kanaloa.tools.benchmark``): game ``g`` of a batch laid out from
``seed + g``, its moves ``legal[next() % len(legal)]`` of ``SplitMix64((seed + g) ^ MOVE_SALT)``, the same in C,
through the positions and in the reference.  The signature covers the 24 games of the package's differential
tests; the batches in C start from one island; the probe's search position comes back from its seed.
"""

from __future__ import annotations

import pytest

from kanaloa.cannonball import bench as CB
from kanaloa.cannonball.core import CoreState
from kanaloa.cannonball.island import new_game
from kanaloa.cannonball.reference import ReferenceState
from kanaloa.rules.registry import game_type, load_game
from kanaloa.rules.rng import SplitMix64
from kanaloa.tools import benchmark as B

pytestmark = pytest.mark.skipif(CoreState is None, reason="the compiled Cannonball core is not built")

SIGNATURE = 2309  # moves in the 24 signature games, pinned: a change to the rules or the layout changes it


def uniform_game(engine, players: int, seed: int) -> int:
    """One random game as the bench defines it, played move by move through ``engine`` with the bench's own
    move stream (``benchmark.play_random``): the moves made."""
    return B.play_random(engine.from_data(new_game(players, seed)), seed ^ CB.MOVE_SALT)


def test_the_face_is_the_registry_s_and_lists_the_game_s_workloads():
    bench = B.game_bench(game_type("cannonball"))
    assert bench == CB.workloads(game_type("cannonball"))
    assert [(b.ruleset.players, b.playouts_key) for b in bench.batches] == [
        (4, "cannonball_playouts_per_s"), (3, "cannonball_playouts_3p_per_s"), (2, "cannonball_playouts_2p_per_s"),
        (4, "cannonball_heuristic_playouts_per_s"), (3, "cannonball_heuristic_playouts_3p_per_s"),
        (2, "cannonball_heuristic_playouts_2p_per_s")]
    assert [s.suffix for s in bench.same_games] == ["_cannonball"]
    assert [s.key for s in bench.signatures] == ["signature_cannonball"] and bench.probe is not None


def test_the_signature_is_the_24_games_of_the_differential_tests_the_same_in_every_engine():
    """Eight islands of each player count, laid out from seeds 0 to 7, played to the end (R20.10)."""
    sig = B.signature_sets()["signature_cannonball"]
    assert [rs.players for rs in sig.rulesets] == [2, 3, 4] and (sig.games, sig.seed) == (8, 0)
    assert sig.total_games == 24 and sig.rules == "R20"
    by_hand = {engine: sum(uniform_game(engine, p, seed) for p in (2, 3, 4) for seed in range(8))
               for engine in (CoreState, ReferenceState)}
    assert {impl: sig.moves(impl) for impl in B.IMPLS} == dict.fromkeys(B.IMPLS, SIGNATURE)
    assert by_hand == {CoreState: SIGNATURE, ReferenceState: SIGNATURE}


def test_the_games_in_c_are_the_games_played_move_by_move():
    """``core_games`` plays in C what the positions and the reference play from Python, game by game."""
    rules = load_game("cannonball", players=3)
    for g in range(3):
        seed = B.RATIO_SEED + g
        moves = CB.core_games(rules, 1, seed)
        assert moves == uniform_game(CoreState, 3, seed) == B.play_games(rules, 1, seed, "reference")
        assert moves == B.play_games_api(rules, 1, seed) == B.play_games(rules, 1, seed, "core")
    assert CB.core_games(rules, 4, 10) == sum(CB.core_games(rules, 1, 10 + g) for g in range(4))


def test_the_batches_in_c_start_from_one_island_with_either_policy():
    rules = load_game("cannonball", players=4)
    start = CoreState.from_data(new_game(4, CB.LAYOUT_SEED))
    uniform = CB.games_from_start(rules, False, 20, 5)
    assert uniform == sum(start.playout(5 + g) for g in range(20))
    heuristic = CB.games_from_start(rules, True, 20, 5)
    assert heuristic == sum(start.playout(5 + g, True) for g in range(20)) and heuristic != uniform
    assert not start.is_over  # the games were played on copies


def test_the_search_position_comes_back_from_its_seed_and_the_search_runs_there():
    rules = load_game("cannonball", players=4)
    state, line = CB.search_position(rules)
    again, line_again = CB.search_position(rules)
    assert state.to_data() == again.to_data() and line == line_again and len(line) == CB.LINE_MOVES
    replay = CoreState.from_data(new_game(4, CB.SEARCH_SEED))
    stream = SplitMix64(CB.SEARCH_SEED ^ CB.MOVE_SALT)
    for _ in range(CB.SEARCH_MOVES):
        legal = replay.legal_actions()
        replay.apply(legal[stream.below(len(legal))])
    assert replay.to_data() == state.to_data()
    assert CB.run_mcts(state, 30) == 30 and state.to_data() == again.to_data()  # searched on a copy


def test_a_tiny_bench_of_the_game_alone_reports_every_figure(monkeypatch):
    tiny = B.Budget(batch_games=20, ratio_games=8, runs=1, seconds=0.0, reference_runs=1, ismcts_iterations=20,
                    ismcts_runs=1, positions=(), op_calls=10)
    monkeypatch.setattr(B, "QUICK", tiny)
    report = B.run_bench(quick=True, games=[game_type("cannonball")])
    doc = report.to_json()
    for key in ("cannonball_playouts_per_s", "cannonball_heuristic_moves_2p_per_s", "ratio_cannonball_playouts_per_s",
                "api_cannonball_playouts_per_s", "reference_ratio_cannonball", "cannonball_mcts_iterations_per_s"):
        assert doc[key] > 0, key
    assert doc["signature_cannonball"] == SIGNATURE and doc["engines_agree"] is True
    assert set(doc["positions"]["cannonball-4p"]) == {"legal_actions", "apply", "copy"}
    text = report.table()
    assert text.startswith("kanaloa bench: Cannonball Colony; quick run")
    for fragment in ("Cannonball Colony, 2 players, heuristic", "The same 2 random 4-player Cannonball Colony games",
                     "MCTS, 20 iterations, heuristic rollouts", "cannonball-4p",
                     f"Cannonball Colony signature (R20): {SIGNATURE} moves in 24 seeded games"):
        assert fragment in text, fragment
