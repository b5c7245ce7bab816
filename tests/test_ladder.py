"""The ladder: the rating fits on data with known answers, the groups and seats of the schedule, the move-log
hash, and ``kanaloa ladder`` in every game.

The games are played by ``random`` and ``greedy`` bots (distinct specs through
``:seed=N``), which are fast; what is tested is the machinery, not strength.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from fractions import Fraction

import pytest

from cli_helpers import run, user_error
from kanaloa.errors import OptionError
from kanaloa.play.ladder import (
    MAX_BOTS,
    LadderTotals,
    default_games,
    group_order,
    make_ladder,
    run_ladder,
)
from kanaloa.play.ratings import ELO_PER_NAT, Rankings, fit_ratings, tie_orders
from kanaloa.play.records import GameRecord, MoveLog, moves_sha256
from kanaloa.play.simulate import run_tournament
from kanaloa.play.tournament import make_tournament, play_game
from test_docs import documented_keys

FIVE = ["random", "greedy", "random:seed=1", "greedy:seed=1", "random:seed=2"]


def elo(ratio: float) -> float:
    return 400 * math.log10(ratio)


# -- the fit ------------------------------------------------------------------------------


def test_plackett_luce_recovers_the_strengths_of_data_that_are_their_expectation():
    # Strengths 4, 2, 1: each order's count is 105 times its Plackett-Luce chance (8/21, 4/21, 8/35, 2/35, 2/21,
    # 1/21), so the score equations hold at the strengths themselves: the fit is 400 log10 of them, exactly.
    data = {(0, 1, 2): 40, (0, 2, 1): 20, (1, 0, 2): 24, (1, 2, 0): 6, (2, 0, 1): 10, (2, 1, 0): 5}
    fit = fit_ratings(3, data, prior=0, anchor=2)
    assert fit.ratings == pytest.approx((elo(4), elo(2), 0.0), abs=1e-6)
    mean = fit_ratings(3, data, prior=0)  # the same differences, their mean at 0
    third = (elo(4) + elo(2)) / 3
    assert mean.ratings == pytest.approx((elo(4) - third, elo(2) - third, -third), abs=1e-6)


def test_two_players_are_bradley_terry_on_the_elo_scale_with_the_hand_computed_error():
    # 30 wins to 10: g0 / g1 = 3; the observed information of the difference is n p (1 - p) = 40 * 3/4 * 1/4.
    fit = fit_ratings(2, {(0, 1): 30, (1, 0): 10}, prior=0, anchor=1)
    assert fit.ratings[0] == pytest.approx(elo(3), abs=1e-6)
    assert fit.errors[0] == pytest.approx(ELO_PER_NAT / math.sqrt(40 * 0.75 * 0.25), rel=1e-6)
    assert fit.errors[1] == 0.0 and fit.interval(1) == (0.0, 0.0)  # the anchor
    mean = fit_ratings(2, {(0, 1): 30, (1, 0): 10}, prior=0)
    assert mean.ratings == pytest.approx((elo(3) / 2, -elo(3) / 2), abs=1e-6)
    assert mean.errors[0] == pytest.approx(fit.errors[0] / 2, rel=1e-6)


def test_a_bot_that_always_wins_is_rated_higher_and_finite_thanks_to_the_prior():
    fit = fit_ratings(2, {(0, 1): 20})
    assert fit.ratings[0] > 0 > fit.ratings[1] and all(math.isfinite(r) for r in fit.ratings)
    assert fit.ratings[0] - fit.ratings[1] > 400  # 20 wins in 20 games: far apart
    more = fit_ratings(2, {(0, 1): 200})
    assert more.ratings[0] > fit.ratings[0]  # more evidence, further apart
    with pytest.raises(ValueError, match="does not converge"):
        fit_ratings(2, {(0, 1): 20}, prior=0)  # no maximum without the prior


def test_symmetric_data_give_equal_ratings():
    cyclic = {(0, 1, 2): 5, (1, 2, 0): 5, (2, 0, 1): 5}
    fit = fit_ratings(3, cyclic)
    assert fit.ratings == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)
    assert fit.errors[0] == pytest.approx(fit.errors[1]) == pytest.approx(fit.errors[2])
    assert fit_ratings(2, {(0, 1): 7, (1, 0): 7}).ratings == pytest.approx((0.0, 0.0), abs=1e-9)


def test_the_prior_pulls_ratings_together_without_changing_their_order():
    data = {(0, 1, 2): 6, (1, 0, 2): 3, (1, 2, 0): 2, (2, 1, 0): 1}
    plain = fit_ratings(3, data, prior=0)
    pulled = fit_ratings(3, data, prior=1)
    order = sorted(range(3), key=lambda i: -plain.ratings[i])
    assert order == sorted(range(3), key=lambda i: -pulled.ratings[i])
    spread = lambda f: max(f.ratings) - min(f.ratings)
    assert 0 < spread(pulled) < spread(plain)


def test_intervals_contain_the_estimate_and_the_anchor_holds():
    data = {(0, 1, 2, 3): 4, (1, 0, 3, 2): 3, (2, 3, 0, 1): 2, (3, 2, 1, 0): 1, (0, 2, 1, 3): 2}
    fit = fit_ratings(4, data)
    assert sum(fit.ratings) == pytest.approx(0.0, abs=1e-9)
    for i in range(4):
        low, high = fit.interval(i)
        assert low < fit.ratings[i] < high
        assert high - low == pytest.approx(2 * 1.959964 * fit.errors[i])
    pinned = fit_ratings(4, data, anchor=3)
    assert pinned.ratings[3] == 0.0 and pinned.interval(3) == (0.0, 0.0)
    for i in range(4):  # the same differences whatever the anchor
        assert pinned.ratings[i] - pinned.ratings[0] == pytest.approx(fit.ratings[i] - fit.ratings[0], abs=1e-6)


def test_a_tie_counts_each_order_of_the_shared_place_equally():
    assert tie_orders([(2,), (0, 1)]) == [((2, 0, 1), Fraction(1, 2)), ((2, 1, 0), Fraction(1, 2))]
    three = tie_orders([(0, 1, 2), (3,)])
    assert len(three) == 6 and sum(w for _, w in three) == 1 and all(o[-1] == 3 for o, _ in three)
    # A draw is half a win to each: 10 wins and 10 draws are 15 wins and 5 losses.
    ties = Rankings()
    for _ in range(10):
        ties.add([(0,), (1,)])
        ties.add([(0, 1)])
    assert fit_ratings(2, ties).ratings == pytest.approx(fit_ratings(2, {(0, 1): 15, (1, 0): 5}).ratings)


def test_rankings_do_not_depend_on_the_order_games_come_in():
    games = [[(0,), (1,), (2,)], [(2, 1), (0,)], [(1,), (0, 2)], [(0, 1, 2)]] * 3
    one, two = Rankings(), Rankings()
    for places in games:
        one.add(places)
    for places in reversed(games):
        two.add(places)
    assert one.items() == two.items()
    assert sum(w for _, w in one.items()) == pytest.approx(len(games))


def test_the_fit_refuses_what_is_no_data_of_its_players():
    with pytest.raises(ValueError, match="no order of distinct players"):
        fit_ratings(2, {(0, 0): 1})
    with pytest.raises(ValueError, match="no order of distinct players"):
        fit_ratings(2, {(0, 2): 1})
    with pytest.raises(ValueError, match="anchor"):
        fit_ratings(2, {(0, 1): 1}, anchor=2)


# -- the schedule ------------------------------------------------------------------------


@pytest.mark.parametrize(("bots", "seats"), [(7, 4), (5, 2), (6, 3), (4, 4)])
def test_a_cycle_of_groups_holds_every_group_once_and_every_pair_meets_equally(bots, seats):
    order = group_order(bots, seats)
    assert sorted(order) == list(itertools.combinations(range(bots), seats))
    pairs = Counter(p for g in order for p in itertools.combinations(g, 2))
    assert len(pairs) == math.comb(bots, 2) and len(set(pairs.values())) == 1
    assert len(set(Counter(b for g in order for b in g).values())) == 1
    # Within the cycle, every prefix keeps the pairs' meetings close (the greedy order: least met first).
    met: Counter = Counter()
    for group in order:
        met.update(itertools.combinations(group, 2))
        counts = [met[p] for p in itertools.combinations(range(bots), 2)]
        assert max(counts) - min(counts) <= 3
    assert group_order(bots, seats, 3) == order[:3]


def test_in_every_deal_each_bot_of_its_group_sits_in_each_seat_once():
    lad = make_ladder([*FIVE, "greedy:seed=2", "random:seed=3"], 4 * 40, seed=1)
    assert lad.cycle == 35 and len(lad.groups) == 35
    for deal in range(lad.deals):
        seatings = [lad.seat_bots(deal * 4 + r) for r in range(4)]
        group = lad.group_of(deal)
        for seat in range(4):
            assert sorted(s[seat] for s in seatings) == list(group)
        for rotation, seating in enumerate(seatings):  # group bot i sits in seat (i + r) mod 4
            assert [seating[(i + rotation) % 4] for i in range(4)] == list(group)
        assert len({lad.deal_seed(deal * 4 + r) for r in range(4)}) == 1
    assert lad.group_of(35) == lad.group_of(0)  # the cycle starts again


def test_default_games_are_whole_cycles_of_at_least_25_deals():
    assert default_games(4, 4) == 100
    assert default_games(7, 4) == 4 * 35
    assert default_games(3, 2) == 2 * 27
    assert make_ladder(FIVE[:2], None, 1, game="kahuna").games == 50


def test_as_many_bots_as_seats_play_the_games_of_simulate():
    bots = FIVE[:4]
    lad = make_ladder(bots, 8, seed=9)
    sim = run_tournament(make_tournament(bots, 8, seed=9))
    assert [play_game(lad, g) for g in range(8)] == sim.records


@pytest.fixture(scope="module")
def kahuna_run():
    """A Kahuna ladder of three bots, 12 games (two cycles of the three pairs)."""
    records: list[GameRecord] = []
    lad = make_ladder(["random", "greedy", "random:seed=1"], 12, seed=4, game="kahuna")
    return run_ladder(lad, on_record=records.append), records


def test_the_hash_is_the_documented_sha256_of_the_moves_in_game_order(kahuna_run):
    result, records = kahuna_run
    h = hashlib.sha256()
    for record in sorted(records, key=lambda r: r.index):
        h.update((json.dumps(list(record.moves), separators=(",", ":")) + "\n").encode())
    assert result.totals.log.hexdigest() == h.hexdigest() == moves_sha256(reversed(records))
    assert result.to_json()["moves_sha256"] == h.hexdigest()


def test_move_log_hashes_in_game_order_with_gaps_last():
    lad = make_ladder(FIVE[:2], 6, seed=3, game="kahuna")
    records = [play_game(lad, g) for g in range(6)]
    log = MoveLog()
    for g in (2, 0, 5, 1):
        log.add(records[g])
    assert log.hexdigest() == moves_sha256([records[g] for g in (0, 1, 2, 5)])
    assert log.next_game == 3


def test_the_totals_recomputed_from_the_records_give_the_same_ratings(kahuna_run):
    result, records = kahuna_run
    again = LadderTotals(result.ladder)
    for record in reversed(records):
        again.add(record)
    assert again.rankings.items() == result.totals.rankings.items()
    assert again.log.hexdigest() == result.totals.log.hexdigest()
    assert sum(again.met[0]) == 8 and again.met[0][1] == again.met[0][2] == 4  # every pair met in 4 games


def test_shared_places_count_as_ties_in_the_totals():
    lad = make_ladder(["random", "greedy"], 2, seed=1, game="kahuna")
    record = play_game(lad, 0)
    drawn = GameRecord(record.index, record.ruleset, record.seed, record.lineup, record.bot_seeds, record.moves,
                       record.scores, (1, 2), -1, record.reason)  # a game without a winner (R16.7)
    assert drawn.placings() == [(0, 1)]
    totals = LadderTotals(lad)
    totals.add(drawn)
    assert totals.score[0][1] == totals.score[1][0] == Fraction(1, 2)
    assert dict(totals.rankings.weights) == {(0, 1): Fraction(1, 2), (1, 0): Fraction(1, 2)}


# -- the command --------------------------------------------------------------------------


def ladder_json(*args: str) -> dict:
    result = run("ladder", *args, "--json", "--no-progress")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def comparable(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in ("seconds", "workers", "scheduler")}


def test_ladder_json_is_the_documented_document_and_the_same_seed_gives_the_same_games(tmp_path):
    out = tmp_path / "games.jsonl"
    doc = ladder_json("--bots", ",".join(FIVE), "--games", "20", "--seed", "7", "--out", str(out))
    assert list(doc) == documented_keys("ladder --json")
    assert list(doc["bots"][0]) == documented_keys("A rated bot")
    assert list(doc["pairs"][0]) == documented_keys("A pair of bots")
    assert doc["format"] == "kanaloa-ladder/1" and doc["games"] == doc["planned"] == 20
    assert [b["rating"] for b in doc["bots"]] == sorted((b["rating"] for b in doc["bots"]), reverse=True)
    assert sum(b["rating"] for b in doc["bots"]) == pytest.approx(0.0, abs=0.05)  # the mean at 0
    assert all(b["ci95"][0] <= b["rating"] <= b["ci95"][1] for b in doc["bots"])
    assert sum(p["games"] for p in doc["pairs"]) == 20 * 6  # every game of 4 seats holds 6 pairs
    assert doc["groups"] == 5 and doc["deals"] == 5
    # The hash, recomputed from the --out file as docs/commands.md says.
    lines = out.read_text(encoding="utf-8").splitlines()
    h = hashlib.sha256()
    for line in lines:
        h.update((json.dumps(json.loads(line)["moves"], separators=(",", ":")) + "\n").encode())
    assert h.hexdigest() == doc["moves_sha256"]
    if shutil.which("jq"):
        jq = subprocess.run(f"jq -c .moves {out} | sha256sum", shell=True, capture_output=True, text=True,
                            check=True)
        assert jq.stdout.split()[0] == doc["moves_sha256"]
    again = ladder_json("--bots", ",".join(FIVE), "--games", "20", "--seed", "7", "--workers", "2")
    assert comparable(again) == comparable(doc)
    other = ladder_json("--bots", ",".join(FIVE), "--games", "20", "--seed", "8")
    assert other["moves_sha256"] != doc["moves_sha256"]


def test_ladder_summary_ranks_the_bots_and_ends_with_the_line_that_checks_a_rerun():
    result = run("ladder", "--bots", "random,greedy,random:seed=1", "--players", "2", "--games", "12", "--seed",
                 "3", "--anchor", "random", "--no-progress")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("ladder of 3 bots: 12 games, 6 deals x 2 seat rotations, 3 groups of 2 taking turns, "
                               "2 whole cycles; Kanaloa, 2 players with two colors each")
    assert "random at 0" in lines[2]
    head = next(i for i, line in enumerate(lines) if line.lstrip().startswith("#"))
    assert lines[head].split()[:4] == ["#", "bot", "games", "rating"]
    table = lines[head + 1: head + 4]
    assert table[0].split()[1] == "greedy"
    assert next(line for line in table if line.split()[1] == "random").split()[3] == "+0"
    assert lines[-1].startswith("12 games, seed 3, moves sha256 ") and len(lines[-1].split()[-1]) == 64
    assert result.stderr == ""


@pytest.mark.parametrize(("game", "args"), [
    ("kahuna", ["--game", "kahuna", "--bots", "random,greedy", "--games", "4"]),
    ("cannonball", ["--game", "cannonball", "--players", "3", "--bots", "random,greedy,random:seed=1,greedy:seed=1",
                    "--games", "6"]),
    ("kanaloa", ["--players", "3", "--gods", "--preset", "tabletop", "--bots", "random,greedy,random:seed=1",
                 "--games", "3"]),
], ids=["kahuna", "cannonball 3 players", "gods tabletop 3 players"])
def test_ladder_plays_every_game_of_the_registry(game, args):
    doc = ladder_json(*args, "--seed", "2")
    bots = args[args.index("--bots") + 1].split(",")
    assert doc["game"] == game and doc["games"] == doc["planned"]
    assert sorted(b["spec"] for b in doc["bots"]) == sorted(bots)
    assert doc["groups"] == math.comb(len(bots), doc["players"])


def test_ladder_without_seed_says_which_it_used_and_that_seed_plays_the_same_games():
    first = run("ladder", "--bots", "random,greedy", "--game", "kahuna", "--games", "2", "--json", "--no-progress")
    assert first.exit_code == 0, first.output
    said = first.stderr.strip()
    assert said.startswith("kanaloa: playing the ladder with --seed ")
    seed = said.split()[-1]
    again = ladder_json("--bots", "random,greedy", "--game", "kahuna", "--games", "2", "--seed", seed)
    assert again["moves_sha256"] == json.loads(first.stdout)["moves_sha256"]


@pytest.mark.parametrize(("args", "fragments"), [
    (["--bots", "random"], ["--bots 'random'", "at least 2 bots"]),
    (["--bots", "random,greedy,random"], ["'random' is named twice"]),
    (["--bots", "random,,greedy"], ["--bots", "none empty"]),
    (["--bots", "random,nosuch"], ["bot spec 'nosuch'", "unknown bot"]),
    (["--bots", ",".join(f"random:seed={i}" for i in range(MAX_BOTS + 1))], ["17 bots", f"at most {MAX_BOTS}"]),
    (["--bots", "random,greedy"], ["2 bots for the 4 seats of a Kanaloa game", "--players 2"]),
    (["--bots", "random,greedy", "--players", "3"], ["2 bots for --players 3", "name at least 3"]),
    (["--bots", "random,greedy", "--players", "2", "--games", "3"], ["--games 3", "multiple of 2", "try 2 or 4"]),
    (["--bots", "random,greedy", "--players", "2", "--games", "0"], ["--games 0", "positive whole number"]),
    (["--bots", "random,greedy", "--game", "kahuna", "--players", "3"], ["--players 3", "Kahuna is for 2 players"]),
    (["--bots", "random,greedy", "--game", "kahuna", "--anchor", "pimc"], ["--anchor 'pimc'", "not one of --bots"]),
    (["--bots", "random,greedy", "--game", "kahuna", "--workers", "2", "--scheduler", "tcp://h:1"],
     ["--workers 2", "cannot be combined with --scheduler"]),
    (["--bots", "random,greedy", "--game", "kahuna", "--scheduler", "nope://x"], ["--scheduler 'nope://x'"]),
    (["--bots", "random,greedy", "--game", "kahuna", "--workers", "999"], ["--workers 999"]),
    (["--bots", "random,greedy", "--game", "cannonball", "--players", "2", "--gods"],
     ["--gods", "Cannonball Colony has no such parameter"]),
])
def test_ladder_bad_options_are_one_line_errors(args, fragments):
    user_error(run("ladder", *args, "--seed", "1"), *fragments)


def test_ladder_out_file_that_cannot_be_written(tmp_path):
    user_error(run("ladder", "--bots", "random,greedy", "--game", "kahuna", "--seed", "1", "--out",
                   str(tmp_path / "no" / "such.jsonl")), "--out", "cannot write it")


def test_make_ladder_names_the_option_at_fault():
    with pytest.raises(OptionError, match="--seed"):
        make_ladder(FIVE, 20, seed=-1)
    with pytest.raises(OptionError, match="--games"):
        make_ladder(FIVE, 21, seed=1)


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="sends Ctrl-C to a process group")
def test_ctrl_c_stops_the_ladder_with_the_ratings_of_the_finished_games(tmp_path):
    out = tmp_path / "games.jsonl"
    cmd = [sys.executable, "-m", "kanaloa", "ladder", "--bots", ",".join(FIVE), "--games", "4000000", "--seed",
           "1", "--workers", "2", "--out", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (out.exists() and out.stat().st_size > 20_000):
        time.sleep(0.1)
    assert proc.poll() is None, proc.communicate()
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, (stdout, stderr)
    assert "Traceback" not in stderr
    assert stdout.startswith("interrupted: ")
    finished = int(stdout.split()[1])
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == finished > 0
    assert "95% interval" in stdout
    h = hashlib.sha256()
    for record in records:
        h.update((json.dumps(record["moves"], separators=(",", ":")) + "\n").encode())
    assert stdout.splitlines()[-1] == f"{finished} games, seed 1, moves sha256 {h.hexdigest()}"


def test_a_ladder_without_finished_games_has_no_ratings_yet():
    from kanaloa.play.ladder import LadderRun
    from kanaloa.play.simulate import Ran

    lad = make_ladder(FIVE, 20, seed=1)
    empty = LadderRun(lad, LadderTotals(lad), Ran(True, 0.0, 1, None))
    doc = empty.to_json()
    assert doc["games"] == 0 and doc["interrupted"] and [b["spec"] for b in doc["bots"]] == FIVE
    assert all(b["rating"] is None and b["ci95"] == [None, None] for b in doc["bots"])
    assert empty.summary().startswith("interrupted: 0 of 20 games finished")
    assert doc["moves_sha256"] == hashlib.sha256().hexdigest()  # of no game at all



def test_a_ladder_measures_bots_and_so_may_seat_the_seer():
    doc = ladder_json("--bots", "random,seer:iterations=10", "--game", "kahuna", "--games", "2", "--seed", "1")
    assert sorted(b["spec"] for b in doc["bots"]) == ["random", "seer:iterations=10"] and doc["games"] == 2
