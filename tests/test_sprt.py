"""The sequential test: its formulas on known inputs, a game's score, the deals counted in order, and
``kanaloa sprt`` with its decisions, its live line and its errors.

``greedy`` is far stronger than ``random``: a test of greedy against random
accepts H1 within a few deals, and random against itself accepts H0 once
the hypotheses are far apart.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import signal
import subprocess
import sys
import time

import pytest

from cli_helpers import run, user_error
from kanaloa.errors import OptionError
from kanaloa.play.records import GameRecord, moves_sha256
from kanaloa.play.sprt import (
    Hypotheses,
    LiveLine,
    SprtRun,
    Trials,
    elo_of_score,
    game_score,
    llr,
    run_sprt,
    score_of_elo,
)
from kanaloa.play.tournament import make_tournament, play_game
from test_docs import documented_keys

# -- the formulas -------------------------------------------------------------------------


def test_llr_on_known_inputs():
    # n (s1 - s0) (2 m - s0 - s1) / (2 v)
    assert llr(100, 0.6, 0.1, 0.5, 0.6) == pytest.approx(100 * 0.1 * 0.1 / 0.2)
    assert llr(100, 0.55, 0.1, 0.5, 0.6) == pytest.approx(0.0, abs=1e-12)  # the midpoint: no evidence either way
    assert llr(400, 0.5, 0.2, 0.5, 0.52) == pytest.approx(400 * 0.02 * -0.02 / 0.4)
    assert llr(0, 0.9, 0.1, 0.5, 0.6) == 0.0
    with pytest.raises(ValueError):
        llr(3, 0.5, 0.0, 0.5, 0.6)


def test_bounds_are_walds():
    lower, upper = Hypotheses(alpha=0.05, beta=0.05).bounds
    assert (lower, upper) == pytest.approx((-math.log(19), math.log(19)))
    lower, upper = Hypotheses(alpha=0.01, beta=0.2).bounds
    assert (lower, upper) == pytest.approx((math.log(0.2 / 0.99), math.log(0.8 / 0.01)))


def test_elo_and_score_are_each_others_inverse():
    assert score_of_elo(0) == 0.5 and elo_of_score(0.5) == 0.0
    assert score_of_elo(400) == pytest.approx(10 / 11)
    for elo in (-300.0, -10.0, 35.0, 800.0):
        assert elo_of_score(score_of_elo(elo)) == pytest.approx(elo)
    assert elo_of_score(1.0) is None and elo_of_score(0.0) is None


def test_the_variance_is_shrunk_towards_a_quarter_with_the_weight_of_two_deals():
    trials = Trials()
    assert trials.mean == 0.5 and trials.variance == 0.25 and trials.llr(Hypotheses()) == 0.0
    for score in (1.0, 0.5, 0.75, 0.25):
        trials.add(score)
    own = sum(s * s for s in (1.0, 0.5, 0.75, 0.25)) / 4 - 0.625 ** 2
    assert trials.mean == 0.625
    assert trials.variance == pytest.approx((4 * own + 2 * 0.25) / 6)
    h = Hypotheses(0, 50)
    assert trials.llr(h) == pytest.approx(llr(4, 0.625, trials.variance, h.s0, h.s1))
    same = Trials()
    for _ in range(10):
        same.add(1.0)
    assert same.variance == pytest.approx(0.5 / 12)  # equal scores: only the shrinking is left, and the LLR finite
    elo, low, high = same.elo()
    assert elo is None and high is None and low is not None and low > 0


def test_hypotheses_refuse_what_cannot_be_tested():
    for kwargs, message in [
        ({"elo0": 10, "elo1": 10}, "--elo1 10: must be above --elo0 10"),
        ({"elo0": 5, "elo1": -5}, "--elo1 -5: must be above --elo0 5"),
        ({"alpha": 0.0}, "--alpha 0: must be a chance above 0 and below 0.5"),
        ({"beta": 0.5}, "--beta 0.5: must be a chance above 0 and below 0.5"),
        ({"beta": math.nan}, "--beta nan"),
        ({"elo1": math.inf}, "--elo1 inf: must be a number of Elo from -1000 to 1000"),
        ({"elo0": -1500.0}, "--elo0 -1500"),
    ]:
        with pytest.raises(OptionError, match=message):
            Hypotheses(**kwargs).check()


# -- a game's score -----------------------------------------------------------------------------


def _record(ruleset_game: str, players: int, ranks, winner: int, winners=()) -> GameRecord:
    t = make_tournament(["random"] * players, players, 1, game=ruleset_game)
    rec = play_game(t, 0)
    return GameRecord(rec.index, rec.ruleset, rec.seed, rec.lineup, rec.bot_seeds, rec.moves, rec.scores,
                      tuple(ranks), winner, rec.reason, rec.color_scores, tuple(winners))


def test_a_games_score_is_the_share_of_the_other_seats_finished_above():
    four = _record("kanaloa", 4, (2, 1, 4, 3), 1)
    assert [game_score(four, seat)[0] for seat in range(4)] == [2 / 3, 1.0, 0.0, 1 / 3]
    assert game_score(four, 0)[1:] == (2, 0, 1)
    drawn = _record("kahuna", 2, (1, 2), -1)  # no winner (R16.7): a tie
    assert game_score(drawn, 0) == (0.5, 0, 1, 0) and game_score(drawn, 1)[0] == 0.5
    shared = _record("cannonball", 3, (1, 2, 3), -1, winners=(0, 1))  # seats 0 and 1 share the victory (R20.10)
    assert shared.placings() == [(0, 1), (2,)]
    assert [game_score(shared, s)[0] for s in range(3)] == [0.75, 0.75, 0.0]


# -- runs ----------------------------------------------------------------------------------------


def sprt_json(*args: str) -> dict:
    result = run("sprt", *args, "--json", "--no-progress")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def comparable(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in ("seconds", "workers", "scheduler")}


def test_greedy_against_random_accepts_h1_within_a_few_deals(tmp_path):
    out = tmp_path / "games.jsonl"
    doc = sprt_json("greedy", "random", "--elo1", "100", "--seed", "1", "--out", str(out))
    assert list(doc) == documented_keys("sprt --json")
    assert doc["format"] == "kanaloa-sprt/1" and doc["decision"] == "H1"
    assert doc["llr"] >= doc["bounds"][1] and 0 < doc["deals"] <= 12 and doc["games"] == 4 * doc["deals"]
    assert doc["lineup"] == ["greedy", "random", "random", "random"]
    assert doc["score"] > 0.8 and doc["wins"] + doc["draws"] + doc["losses"] == 3 * doc["games"]
    # --out holds exactly the counted games, in order, and the hash is theirs.
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["game"] for r in records] == list(range(doc["games"]))
    h = hashlib.sha256()
    for r in records:
        h.update((json.dumps(r["moves"], separators=(",", ":")) + "\n").encode())
    assert h.hexdigest() == doc["moves_sha256"]
    # NEW sits in seat r in rotation r.
    assert all(r["lineup"][r["rotation"]] == "greedy" for r in records)


def test_the_same_bot_against_itself_accepts_h0():
    result = run("sprt", "random", "random", "--elo0", "0", "--elo1", "100", "--seed", "3", "--no-progress")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("H0 accepted: NEW does not gain")


def test_deals_are_counted_in_deal_order_whatever_the_workers():
    args = ("greedy", "random:seed=4", "--elo1", "60", "--seed", "2")
    one = sprt_json(*args)
    two = sprt_json(*args, "--workers", "2")
    assert comparable(one) == comparable(two)
    assert one["decision"] == "H1" and one["workers"] == 1 and two["workers"] == 2


def test_a_decision_follows_from_the_deals_in_order_alone():
    t = make_tournament(["greedy", "random", "random", "random"], 4 * 30, seed=5)
    h = Hypotheses(0, 80)
    result = run_sprt(t, h, 4 * 30)
    assert result.decision == "H1"
    again = SprtRun(t, h, 4 * 30)
    for deal in range(result.deals):
        again.count_deal([play_game(t, deal * 4 + r) for r in range(4)])
    assert again.decision == "H1" and again.trials == result.trials
    assert again.log.hexdigest() == result.log.hexdigest() == moves_sha256(
        play_game(t, g) for g in range(result.games))
    shorter = SprtRun(t, h, 4 * 30)
    for deal in range(result.deals - 1):
        shorter.count_deal([play_game(t, deal * 4 + r) for r in range(4)])
    assert shorter.decision == "undecided"  # it stopped at the first deal that crossed


def test_max_games_ends_undecided_with_status_0():
    result = run("sprt", "random", "random:seed=1", "--max-games", "12", "--seed", "1", "--no-progress")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "undecided: --max-games 12 reached before the LLR crossed a bound"
    assert lines[1].startswith("LLR ") and "bounds [-2.944, +2.944]" in lines[1]
    assert lines[2].startswith("12 games, 3 deals x 4 seat rotations: NEW random against 3 x BASE random:seed=1")
    assert "Elo " in lines[3] and "[95%: " in lines[3]
    assert lines[-1].startswith("12 games, seed 1, moves sha256 ")
    doc = sprt_json("random", "random:seed=1", "--max-games", "12", "--seed", "1")
    assert doc["decision"] == "undecided" and doc["games"] == 12 and doc["max_games"] == 12


@pytest.mark.parametrize(("args", "players"), [
    (["--game", "kahuna"], 2),
    (["--players", "2"], 2),
    (["--game", "cannonball", "--players", "3"], 3),
], ids=["kahuna", "2 players", "cannonball 3 players"])
def test_sprt_plays_every_game_of_the_registry(args, players):
    doc = sprt_json("greedy", "random", *args, "--elo1", "150", "--seed", "1", "--max-games", str(players * 20))
    assert doc["players"] == players and len(doc["lineup"]) == players
    assert doc["decision"] == "H1" and doc["games"] == players * doc["deals"]


@pytest.mark.parametrize(("args", "fragments"), [
    (["nosuch", "random"], ["NEW: bot spec 'nosuch'", "unknown bot"]),
    (["random", "greedy:width=0"], ["BASE: bot spec 'greedy:width=0'"]),
    (["random"], ["BASE: missing"]),
    (["random", "greedy", "--elo1", "0"], ["--elo1 0: must be above --elo0 0"]),
    (["random", "greedy", "--elo0", "20", "--elo1", "10"], ["--elo1 10: must be above --elo0 20"]),
    (["random", "greedy", "--alpha", "0"], ["--alpha 0: must be a chance above 0 and below 0.5"]),
    (["random", "greedy", "--alpha", "0.5"], ["--alpha 0.5"]),
    (["random", "greedy", "--beta", "-0.1"], ["--beta -0.1"]),
    (["random", "greedy", "--beta", "x"], ["--beta 'x'"]),
    (["random", "greedy", "--elo1", "5000"], ["--elo1 5000: must be a number of Elo from -1000 to 1000"]),
    (["random", "greedy", "--max-games", "10"], ["--max-games 10", "multiple of 4", "try 8 or 12"]),
    (["random", "greedy", "--max-games", "0"], ["--max-games 0", "positive whole number"]),
    (["random", "greedy", "--game", "kahuna", "--players", "4"], ["--players 4", "Kahuna is for 2 players"]),
    (["random", "greedy", "--workers", "2", "--scheduler", "tcp://h:1"], ["cannot be combined with --scheduler"]),
    (["random", "greedy", "--scheduler", "nope://x"], ["--scheduler 'nope://x'"]),
])
def test_sprt_bad_options_are_one_line_errors(args, fragments):
    user_error(run("sprt", *args, "--seed", "1"), *fragments)


def test_the_live_line_shows_the_score_elo_llr_and_bounds():
    t = make_tournament(["greedy", "random"], 2 * 5, seed=1, game="kahuna")
    clock = iter(float(x) for x in range(40, 4000, 40))
    stream = io.StringIO()
    meter = LiveLine(10, 2, stream, "lines", interval=30.0)
    meter.clock = lambda: next(clock)
    meter.start = meter.last_shown = 0.0

    def deal_done(run_):
        meter.run = run_
        meter.update(run_.deals)

    result = run_sprt(t, Hypotheses(0, 10), 10, on_deal=deal_done)
    lines = stream.getvalue().splitlines()
    assert len(lines) == result.deals - (result.deals == 5)  # a line every 30 s, none at the end
    assert lines[0].startswith("1 deal (2 games)  score ")
    assert "  Elo " in lines[0] and "  LLR " in lines[0] and "[-2.94, +2.94]" in lines[0] and "elapsed" in lines[0]
    bar = io.StringIO()
    live = LiveLine(None, 2, bar, "bar")
    live.run = result
    live.update(result.deals)
    assert bar.getvalue().startswith("\r" + result.status())


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="sends Ctrl-C to a process group")
def test_ctrl_c_stops_the_test_with_the_deals_counted(tmp_path):
    out = tmp_path / "games.jsonl"
    cmd = [sys.executable, "-m", "kanaloa", "sprt", "random", "random:seed=1", "--elo0", "0", "--elo1", "1",
           "--seed", "1", "--workers", "2", "--out", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (out.exists() and out.stat().st_size > 50_000):
        time.sleep(0.1)
    assert proc.poll() is None, proc.communicate()
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, (stdout, stderr)
    assert "Traceback" not in stderr
    lines = stdout.splitlines()
    assert lines[0].startswith("interrupted: ") and lines[1].startswith("undecided: Ctrl-C stopped the run")
    deals = int(lines[0].split()[1])
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["game"] for r in records] == list(range(4 * deals))


def test_ladder_and_sprt_give_the_same_results_on_a_local_dask_cluster():
    distributed = pytest.importorskip("distributed")
    ladder_args = ("ladder", "--bots", "random,greedy,random:seed=1", "--game", "kahuna", "--games", "6", "--seed",
                   "5", "--json", "--no-progress")
    sprt_args = ("sprt", "greedy", "random", "--game", "kahuna", "--elo1", "100", "--seed", "5", "--max-games", "40",
                 "--json", "--no-progress")
    here = [run(*ladder_args), run(*sprt_args)]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        there = [run(*args, "--scheduler", cluster.scheduler_address) for args in (ladder_args, sprt_args)]
    for local, cluster_run in zip(here, there, strict=True):
        assert local.exit_code == cluster_run.exit_code == 0, cluster_run.output
        on_cluster = json.loads(cluster_run.stdout)
        assert comparable(on_cluster) == comparable(json.loads(local.stdout))
        assert on_cluster["scheduler"] == cluster.scheduler_address and on_cluster["workers"] == 0


def test_sprt_measures_bots_and_so_may_seat_the_seer():
    doc = sprt_json("seer:iterations=10", "random", "--game", "kahuna", "--max-games", "2", "--seed", "1")
    assert doc["new"] == "seer:iterations=10" and doc["games"] == 2
    base = sprt_json("random", "seer:iterations=10", "--game", "kahuna", "--max-games", "2", "--seed", "1")
    assert base["base"] == "seer:iterations=10" and base["games"] == 2
