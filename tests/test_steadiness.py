"""Steadiness of hints (``kanaloa.tools.steadiness``, ``kanaloa steadiness``): runs with different seeds
agree as far as each says it can tell."""

from __future__ import annotations

import json

import pytest

from cli_helpers import run, user_error
from kanaloa.play.hint import Hint, HintCandidate
from kanaloa.tools.steadiness import (
    PLAYER_CYCLE,
    agreement,
    example_positions,
    measure,
    reference_positions,
)


def made(move: str, *equal: str) -> Hint:
    """A hint whose move is ``move`` and whose about-equal set is ``move`` and ``equal``."""
    cands = [HintCandidate(m, 100, 0.3, 0.01, True) for m in (move, *equal)]
    return Hint(move=move, plan=[move], candidates=cands, iterations=100, seconds=0.1,
                about_equal=(move, *equal))


def test_a_pair_agrees_when_the_first_runs_move_is_about_equal_in_the_second():
    a, b, c = made("X", "Y"), made("Y"), made("Z", "X", "Y")
    # ordered pairs: (a,b) X in {Y}: no; (a,c) X in c: yes; (b,a) Y in a: yes; (b,c) yes; (c,a) Z: no; (c,b) no.
    assert agreement([a, b, c]) == (3, 6)
    assert agreement([a, a]) == (2, 2)


def test_the_reference_positions_are_seeded_viewer_positions_with_a_choice():
    first = reference_positions(6)
    again = reference_positions(6)
    assert [name for name, _ in first] == [name for name, _ in again]
    assert [p.dumps() for _, p in first] == [p.dumps() for _, p in again]
    assert [len(p.players) for _, p in first] == [PLAYER_CYCLE[k % 3] for k in range(6)]
    for _, pos in first:
        assert not pos.is_over and pos.viewer == pos.to_move
        assert len(pos.legal_moves()) >= 2
    assert [p.dumps() for _, p in reference_positions(6, seed=1)] != [p.dumps() for _, p in first]


def test_the_examples_are_the_bundled_positions():
    (name, pos), = example_positions()
    assert name == "example midgame" and pos.viewer == pos.to_move == "red"


def test_measure_counts_every_ordered_pair_and_compares_the_errors():
    positions = example_positions() + reference_positions(2)
    report = measure(positions, (1, 2, 3), iterations=600)
    assert len(report.positions) == 3
    assert report.pairs == 3 * 3 * 2
    for p in report.positions:
        assert len(p.moves) == len(p.about_equal) == 3
        assert all(move in equal for move, equal in zip(p.moves, p.about_equal, strict=True))
        assert 0 <= p.agreeing <= p.pairs == 6
    assert report.share == report.agreeing / report.pairs
    assert report.moves_compared > 0 and report.error_ratio > 0
    same = measure(positions, (1, 2, 3), iterations=600)
    assert same.to_json() == report.to_json()


def test_the_command_prints_the_share_and_each_position():
    result = run("steadiness", "--positions", "1", "--seeds", "2", "--iterations", "300", "--workers", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("example midgame: ") and "pairs agree" in lines[0]
    assert lines[-2].startswith("steadiness: ") and "over 2 positions and 2 seeds" in lines[-2]
    assert lines[-1].startswith("error ratio: ")
    assert "kanaloa steadiness: example midgame: seed 1:" in result.stderr
    doc = json.loads(run("steadiness", "--positions", "0", "--seeds", "2", "--iterations", "300", "--workers", "1",
                         "--json").stdout)
    assert doc["pairs"] == 2 and len(doc["positions"]) == 1


def test_the_reference_positions_can_come_from_other_games():
    args = ["steadiness", "--positions", "1", "--seeds", "2", "--iterations", "200", "--workers", "1", "--json"]
    default = json.loads(run(*args).stdout)["positions"][1]["name"]
    other = json.loads(run(*args, "--positions-seed", "7").stdout)["positions"][1]["name"]
    assert default == reference_positions(1)[0][0]
    assert other == reference_positions(1, seed=7)[0][0] != default


@pytest.mark.parametrize("args, named", [
    (["--positions-seed", "-1"], "--positions-seed"),
    (["--seeds", "1"], "--seeds"),
    (["--positions", "-1"], "--positions"),
    (["--time", "0"], "--time"),
    (["--iterations", "0"], "--iterations"),
    (["--iterations", "5", "--time", "1"], "one budget"),
    (["--workers", "-1"], "--workers -1: must be a whole number from 0 to"),
    (["--workers", "999"], "--workers 999: must be a whole number from 0 to"),
    (["--iterations", str(10**22)], f"--iterations {10**22}: must be a whole number from 1 to 1,000,000,000"),
])
def test_bad_options_are_one_line_errors(args, named):
    user_error(run("steadiness", *args), named)
