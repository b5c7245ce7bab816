"""The example of docs/pettingzoo.md at a small size: a linear policy trained with NumPy against greedy through
``GameBatch`` (``python -m kanaloa.pettingzoo.train``), its win share before and after, and its refusals."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

pytest.importorskip("pettingzoo")

from kanaloa.pettingzoo import train as T

SMALL = ["--games", "4", "--rounds", "2", "--eval-games", "4", "--greedy-width", "4", "--seed", "3"]


def run(args, capsys):
    status = T.main(args)
    return status, capsys.readouterr().out


def test_the_example_trains_and_reports_the_win_share_before_and_after(capsys):
    status, out = run(SMALL, capsys)
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("Kahuna, white against black")
    assert lines[0].endswith("a linear policy against greedy (width 4), 4 games a round")
    assert re.fullmatch(r"before training: [\d.]+ wins in 4 games \(\d+\.\d%\)", lines[1])
    assert lines[2].startswith("round 1/2: win share") and lines[3].startswith("round 2/2: win share")
    assert re.fullmatch(r"after training: [\d.]+ wins in 4 games \(\d+\.\d%\)", lines[4])


def test_the_example_is_the_same_from_the_same_seed(capsys):
    _, first = run(SMALL, capsys)
    _, again = run(SMALL, capsys)
    untimed = lambda text: re.sub(r"\(\d+\.\d s\)", "", text)
    assert untimed(first) == untimed(again)


def test_learning_moves_the_weights_towards_the_choices_of_games_won():
    """One REINFORCE step from zero weights: the action taken in a won game gains, in a lost game loses."""
    batch = T.GameBatch("kahuna", 1, 1)
    policy = T.LinearPolicy(batch)
    x = policy.features(batch.observations[:1])[0]
    mask = batch.action_masks[0].copy()
    legal = [int(a) for a in mask.nonzero()[0][:2]]
    result = T.Result(wins=1, games=2, choices=[(x, mask, legal[0], 1.0), (x, mask, legal[1], 0.0)])
    T.learn_from(policy, result, 1.0)
    p = policy.probabilities(policy.features(batch.observations[:1]), batch.action_masks[:1])[0]
    assert p[legal[0]] > p[legal[1]]


@pytest.mark.parametrize(("args", "message"), [
    (["--games", "0"], "error: argument --games: must be from 1 to 4096, not 0"),
    (["--rounds", "x"], "error: argument --rounds: must be an integer, not 'x'"),
    (["--rate", "-1"], "error: --rate: must be a positive number, not -1.0"),
    (["--seed", "-2"], "error: --seed: must be from 0 to 2**63-1, not -2"),
    (["--game", "cannonball"], "error: --game cannonball: cannonball: Cannonball Colony has no batched core"),
    (["--game", "kahuna", "--players", "3"], "error: --game kahuna: kahuna: players"),
])
def test_a_bad_option_is_one_line_and_status_2(args, message):
    done = subprocess.run([sys.executable, "-m", "kanaloa.pettingzoo.train", *args], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith(message) and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr
