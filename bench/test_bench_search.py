"""One ISMCTS decision at a fixed number of iterations, as hints run it (heuristic playouts in C)."""

from __future__ import annotations

import pytest

from kanaloa.tools.benchmark import run_ismcts

ITERATIONS = 1000


@pytest.mark.parametrize("name", ["4p-start", "4p-mid-round-1", "3p-mid-round-1", "4p-round-2"])
def test_ismcts_decision(benchmark, positions, name, rate):
    """ISMCTS for the player to move: determinise, walk the tree, roll out in C, back up."""
    position = positions[name]
    benchmark.group = f"ISMCTS, {ITERATIONS} iterations"
    rate(benchmark, ITERATIONS, "iterations")
    result = benchmark.pedantic(run_ismcts, args=(position, ITERATIONS), rounds=3, warmup_rounds=1)
    assert result.iterations == ITERATIONS
    assert result.best_action in position.state().legal_actions()


OPENSPIEL_ITERATIONS = 200


@pytest.mark.parametrize("name", ["4p-mid-round-1"])
def test_openspiel_ismcts_decision(benchmark, positions, name, rate):
    """OpenSpiel's Python ISMCTS (random rollouts) on the same position, through ``kanaloa.openspiel``."""
    pytest.importorskip("pyspiel")
    from kanaloa.tools.benchmark import run_openspiel_ismcts

    position = positions[name]
    benchmark.group = f"OpenSpiel's ISMCTS, {OPENSPIEL_ITERATIONS} iterations (beside ours above)"
    rate(benchmark, OPENSPIEL_ITERATIONS, "iterations")
    ran = benchmark.pedantic(run_openspiel_ismcts, args=(position, OPENSPIEL_ITERATIONS), rounds=1,
                             warmup_rounds=0)
    assert ran == OPENSPIEL_ITERATIONS
