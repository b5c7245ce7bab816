"""The tactical suite (``kanaloa tactics``): positions whose best first move is known exactly.

A puzzle is a position where the player to move can make sure of winning before its turn ends,
but not with every legal move: eleven islands this turn (R8, R15.7), the last final turn of the
game (R10-R12), or a pending removal (R7) whose choice decides the win.  The answer comes from
trying every sequence of the mover's own moves with the reference rules
(``kanaloa.tools.tactics``).  These tests hold the solver to small tables whose answer is plain
from the rules, check every shipped puzzle (it loads, it was reached by a real game, solving it
again gives its answer, its winning line wins), check that the hint finds most of them on a small
budget, and check the command.
"""

from __future__ import annotations

import io
import json
from dataclasses import replace
from importlib import resources

import pytest

from cli_helpers import run, user_error
from conftest import build_state, hide_swap
from kanaloa.errors import OptionError
from kanaloa.position import Position
from kanaloa.position.notation import Move
from kanaloa.rules.board import load_board
from kanaloa.rules.engine import load_engine
from kanaloa.rules.registry import load_game
from kanaloa.rules.state import ROUND_1, ROUND_2, ROUND_FINAL, StateData
from kanaloa.tools import tactics as T
from kanaloa.tools.tactics import Outcome

ORO = load_board("oro")
SUITE = T.load_suite()
PUZZLES = SUITE.puzzles
IDS = [p.id for p in PUZZLES]


def by_move(solution: T.TurnSolution, players: int = 4) -> dict[str, Outcome]:
    """The solution's outcome of every first move, keyed by its notation."""
    rules = load_game("kanaloa", players=players)
    return {str(Move.from_action(a, rules, seat=solution.mover)): v for a, v in solution.values.items()}


def best_moves(solution: T.TurnSolution, players: int = 4) -> set[str]:
    return {m for m, v in by_move(solution, players).items() if v == solution.outcome}


# -- the solver on tables whose answer is plain from the rules ----------------------------------------

# Green (seat 1) controls DALI ELOI HILO IKA KULU LANI NALU ORO PAHU RASI: ten islands.
TEN_ISLANDS = {link: 1 for link in ["ALOA-ELOI", "BAFI-ORO", "BAFI-RASI", "DALI-ELOI", "DALI-IKA", "ELOI-KULU",
                                    "HILO-LANI", "HILO-NALU", "HILO-PAHU", "IKA-KULU", "IKA-ORO", "LANI-RASI",
                                    "NALU-PAHU", "ORO-PAHU", "ORO-RASI"]}
ROW = {"face_up": ["COCO", "FALU", "GUMO", "MOKU"], "deck": ["COCO", "FALU", "GUMO", "MOKU"]}


def test_R8_one_place_takes_the_eleventh_island_and_only_it_wins():
    data = build_state(ORO, to_move=1, bridges=TEN_ISLANDS, hands={1: ["ALOA"]}, **ROW)
    solution = T.solve_turn(ORO, data)
    assert solution.kind == "eleven" and solution.outcome == Outcome.WIN and solution.is_puzzle
    assert best_moves(solution) == {"ALOA-BAFI/ALOA"}  # BAFI: 3 of 5 links
    outcomes = by_move(solution)
    # Another free ALOA link, a discard, a take or a draw leaves the game going on.
    assert {m for m, v in outcomes.items() if v == Outcome.OPEN} == {
        "ALOA-COCO/ALOA", "ALOA-DALI/ALOA", "ALOA-GUMO/ALOA", "discard ALOA", "take COCO", "take FALU",
        "take GUMO", "take MOKU", "draw"}
    assert [str(Move.from_action(a, load_game("kanaloa"))) for a in solution.line] == ["ALOA-BAFI/ALOA"]


def test_R8_a_swap_needs_both_cards_so_spending_either_first_gives_the_win_away():
    """Red holds three of BAFI's links; green's only way to an eleventh island is the swap paid with ALOA+BAFI."""
    bridges = {**TEN_ISLANDS, "ALOA-BAFI": 0, "BAFI-COCO": 0, "BAFI-GUMO": 0}
    data = build_state(ORO, to_move=1, bridges=bridges, hands={1: ["ALOA", "BAFI"]}, **ROW)
    solution = T.solve_turn(ORO, data)
    assert best_moves(solution) == {"ALOA-BAFI/ALOA+BAFI"}
    outcomes = by_move(solution)
    assert outcomes["ALOA-COCO/ALOA"] == Outcome.OPEN and outcomes["discard BAFI"] == Outcome.OPEN


def test_the_answer_does_not_depend_on_a_card_the_mover_cannot_see():
    data = build_state(ORO, to_move=1, bridges=TEN_ISLANDS, hands={1: ["ALOA"], 0: ["COCO", "FALU"]}, **ROW)
    assert T.solve_turn(ORO, data).values == T.solve_turn(ORO, hide_swap(data, 0)).values


def test_R15_7_the_second_color_wins_and_building_with_the_first_gives_it_away():
    """Two players: blue, red's second color, controls ten islands; the turn's first build chooses the color."""
    blue = {link: 2 for link in TEN_ISLANDS}
    data = build_state(ORO, 2, to_move=0, bridges=blue, hands={0: ["ALOA"]}, scores=[0, 0, 0, 0], **ROW)
    solution = T.solve_turn(ORO, data)
    outcomes = by_move(solution, players=2)
    assert best_moves(solution, players=2) == {"blue: ALOA-BAFI/ALOA"}
    assert outcomes["red: ALOA-BAFI/ALOA"] == Outcome.OPEN  # red builds this turn (R15.3), blue no more


def last_turn(red: int, *, hand: list[str], bridges: dict[str, int], played: int = 0,
              remove_on: list[str] | None = None) -> StateData:
    """Red's last final turn (R10) of a 3-player game: green and blue have ended theirs; green has 3 points."""
    data = build_state(ORO, 3, round=ROUND_FINAL, to_move=0, bridges=bridges, hands={0: hand},
                       scores=[red, 3, 0])
    data.final_done = [1, 2]
    data.played = played
    data.remove_on = [ORO.find_island(x) for x in remove_on or []]
    return data


# Green holds DALI (2 of 3: 2 points in the final scoring, R11); blue holds NALU-PAHU, and red HILO-NALU.
LAST_TURN_BOARD = {"ALOA-DALI": 1, "DALI-ELOI": 1, "NALU-PAHU": 2, "HILO-NALU": 0}


def test_R11_the_last_final_turn_is_won_by_the_build_that_takes_an_island():
    """Red has 4 points, green 3 + 2.  NALU-ORO gives red NALU (2 of 3, R6 clears blue): 4 + 2 beats 5."""
    data = last_turn(4, hand=["NALU", "KULU"], bridges=LAST_TURN_BOARD)
    solution = T.solve_turn(ORO, data)
    assert solution.kind == "last-turn" and solution.is_puzzle
    outcomes = by_move(solution, players=3)
    assert outcomes["NALU-ORO/NALU"] == Outcome.WIN
    assert outcomes["end"] == Outcome.LOSS  # 4 against green's 5
    # Spending the KULU card elsewhere first keeps the win: NALU-ORO can still follow.
    assert best_moves(solution, players=3) == {"NALU-ORO/NALU", "ELOI-KULU/KULU", "FALU-KULU/KULU",
                                               "IKA-KULU/KULU"}


def test_R12_a_tie_is_lost_by_the_last_player_to_take_a_final_turn():
    """With 3 points red only ties green (5 against 5), and a tie goes to the earlier final turn."""
    solution = T.solve_turn(ORO, last_turn(3, hand=["NALU", "KULU"], bridges=LAST_TURN_BOARD))
    assert set(solution.values.values()) == {Outcome.LOSS}
    assert not solution.is_puzzle


# ORO is full: red 3 (BAFI, FALU, RASI), green 2 (NALU, COCO), blue 2 (IKA, PAHU); green holds NALU by
# NALU-ORO and HILO-NALU, and red DALI by ALOA-DALI and DALI-ELOI.
FULL_ORO = {"BAFI-ORO": 0, "FALU-ORO": 0, "ORO-RASI": 0, "NALU-ORO": 1, "COCO-ORO": 1, "IKA-ORO": 2,
            "ORO-PAHU": 2, "HILO-NALU": 1, "ALOA-DALI": 0, "DALI-ELOI": 0}


def test_R7_the_removal_that_breaks_a_rival_island_elsewhere_decides_the_last_turn():
    """Red leads ORO 3 to 2 without a majority and must remove a rival bridge there.  Only NALU-ORO costs
    green NALU (its other end): red 2 + DALI 2 = 4 then beats green's 3; otherwise green's 3 + 2 wins."""
    data = last_turn(2, hand=[], bridges=FULL_ORO, played=1, remove_on=["ORO"])
    solution = T.solve_turn(ORO, data)
    assert solution.kind == "removal"
    assert by_move(solution, players=3) == {
        "remove COCO-ORO": Outcome.LOSS, "remove IKA-ORO": Outcome.LOSS, "remove NALU-ORO": Outcome.WIN,
        "remove ORO-PAHU": Outcome.LOSS}
    assert [str(Move.from_action(a, load_game("kanaloa"))) for a in solution.line] == ["remove NALU-ORO", "end"]


def test_a_position_far_from_eleven_islands_is_no_puzzle():
    """In the middle of round 1 every move leaves the game going on: nothing is certain yet."""
    from kanaloa.examples import example_text

    solution = T.solve_position(Position.from_json(example_text("midgame")))
    assert solution.outcome == Outcome.OPEN and not solution.is_puzzle
    assert set(solution.best) == set(solution.values)


class UnboundedSolver(T.TurnSolver):
    """The solver without its shortcut (a state that cannot reach eleven islands is open at once)."""

    def _may_reach_eleven(self, state) -> bool:
        return True


@pytest.mark.parametrize("pid", [p.id for p in PUZZLES if p.kind != "last-turn"])
def test_the_eleven_island_shortcut_changes_no_answer(pid):
    position = next(p for p in PUZZLES if p.id == pid).load()
    state = position.on(load_engine("reference")).state
    assert UnboundedSolver(state.copy()).solve().values == T.solve_position(position).values


def test_decisive_removals_inside_a_turn_are_collected_with_the_moves_that_lead_there():
    """Red's last final turn with a card for ORO: the place fills ORO and leaves the removal of the test above."""
    bridges = {**FULL_ORO}
    del bridges["ORO-RASI"]
    data = last_turn(2, hand=["RASI"], bridges=bridges)
    solution = T.solve_turn(ORO, data, collect_removals=True)
    rules = load_game("kanaloa")
    assert [[str(Move.from_action(a, rules)) for a in r.path] for r in solution.removals] == [["ORO-RASI/RASI"]]
    (removal,) = solution.removals
    assert (removal.wins, removal.legal) == (1, 4) and removal.data.remove_on == [ORO.find_island("ORO")]


# -- the shipped suite -----------------------------------------------------------------------------------


def test_the_suite_has_each_kind_at_least_eight_times_and_every_player_count():
    counts = {kind: sum(p.kind == kind for p in PUZZLES) for kind in T.KINDS}
    assert all(n >= 8 for n in counts.values()), counts
    assert len(PUZZLES) >= 30
    assert {p.players for p in PUZZLES} == {2, 3, 4}
    assert all(len({p.players for p in PUZZLES if p.kind == kind}) >= 2 for kind in T.KINDS)
    assert len(set(IDS)) == len(IDS) and all(p.id.startswith(p.kind + "-") for p in PUZZLES)
    doc = json.loads((resources.files("kanaloa") / T.SUITE_RESOURCE).read_text("utf-8"))
    assert doc["format"] == T.SUITE_FORMAT and doc["counts"] == counts
    assert doc["generator"]["command"] == "kanaloa tactics --generate --seed 0 --games 3000 --per-kind 15"


@pytest.mark.parametrize("pid", IDS)
def test_every_puzzle_is_seen_by_the_mover_and_discriminates(pid):
    puzzle = PUZZLES[IDS.index(pid)]
    position = puzzle.load()
    assert position.viewer == position.to_move and len(position.players) == puzzle.players
    legal = position.move_strings()
    assert len(legal) == puzzle.legal
    assert len(set(puzzle.best)) == len(puzzle.best) and set(puzzle.best) < set(legal)
    assert len(puzzle.best) <= T.MAX_SHARE * puzzle.legal and puzzle.legal >= T.MIN_LEGAL
    data = position.state.to_data()
    if puzzle.kind == "removal":
        assert data.remove_on and all(m.startswith("remove ") for m in legal)
    elif puzzle.kind == "last-turn":
        assert data.round == ROUND_FINAL and len(data.final_done) == puzzle.players - 1 and not data.remove_on
    else:
        assert not data.remove_on and not T.is_last_final_turn(data)
        assert data.round in (ROUND_1, ROUND_2, ROUND_FINAL)


@pytest.mark.parametrize("pid", IDS)
def test_solving_every_puzzle_again_gives_its_answer(pid):
    puzzle = PUZZLES[IDS.index(pid)]
    position = puzzle.load()
    solution = T.solve_position(position)
    assert solution.kind == puzzle.kind and solution.outcome == Outcome.WIN
    assert tuple(str(position.move_of(a)) for a in solution.best) == puzzle.best
    assert len(solution.values) == puzzle.legal


@pytest.mark.parametrize("pid", IDS)
def test_every_stored_line_wins_when_played(pid):
    puzzle = PUZZLES[IDS.index(pid)]
    position = puzzle.load()
    mover = position.to_move
    assert puzzle.line[0] in puzzle.best
    for move in puzzle.line:
        position.play(move)
    assert position.is_over and position.outcome["winner"] == mover
    if puzzle.kind == "eleven":
        assert position.outcome["reason"] == "eleven islands"
    assert mover in puzzle.why and f"a winning line: {', '.join(puzzle.line)}." in puzzle.why


@pytest.mark.parametrize("pid", IDS)
def test_every_puzzle_was_reached_by_its_recorded_game(pid):
    """The deal and the moves of ``source`` lead to the puzzle, and the full position has the same answer."""
    puzzle = PUZZLES[IDS.index(pid)]
    source = puzzle.source
    position = Position.new(players=source["players"], seed=source["deal_seed"], preset=source["preset"])
    for move in source["moves"]:
        position.play(move)
    assert position.as_viewer(position.to_move).to_json() == puzzle.position
    full = T.solve_position(position)
    assert tuple(str(position.move_of(a)) for a in full.best) == puzzle.best


# -- the hint on the suite ---------------------------------------------------------------------------

SMALL_BUDGET = 2000


@pytest.fixture(scope="module")
def small_budget_report() -> T.SuiteReport:
    return T.run_suite(SUITE, iterations=SMALL_BUDGET, seed=0)


def test_the_hint_finds_most_puzzles_at_a_small_budget(small_budget_report):
    """At 2,000 iterations the hint finds at least 70% of the suite, where a move drawn at random would
    find about a fifth; the last final turn and the removals, at least 80% each."""
    report = small_budget_report
    chance = sum(len(p.best) / p.legal for p in PUZZLES) / len(PUZZLES)
    assert chance < 0.25
    assert report.share >= 0.7, report.summary()
    kinds = report.kinds()
    assert kinds["last-turn"]["share"] >= 0.8 and kinds["removal"]["share"] >= 0.8, report.summary()
    assert [r.id for r in report.results] == IDS
    assert all(r.iterations >= SMALL_BUDGET for r in report.results)


def test_the_runner_is_seeded_and_counts_a_move_outside_the_answer_as_a_miss(small_budget_report):
    found = next(r for r in small_budget_report.results if r.found)
    puzzle = PUZZLES[IDS.index(found.id)]
    again = T.run_puzzle(puzzle, iterations=SMALL_BUDGET, seed=0)
    assert (again.move, again.found) == (found.move, True)
    wrong = replace(puzzle, best=tuple(m for m in puzzle.load().move_strings() if m != found.move))
    report = T.run_suite(T.Suite((wrong,), {}), iterations=SMALL_BUDGET, seed=0)
    assert report.found == 0 and [r.id for r in report.misses] == [puzzle.id]
    assert f"{puzzle.id}: the hint plays {found.move}" in report.summary()


# -- the generator --------------------------------------------------------------------------------------


def test_the_generator_is_reproducible_and_keeps_only_discriminating_puzzles():
    first = T.generate(seed=5, games=36, per_kind=2)
    assert first.dumps() == T.generate(seed=5, games=36, per_kind=2).dumps()
    assert first.puzzles, "36 games gave no puzzle"
    assert first.generator["command"] == "kanaloa tactics --generate --seed 5 --games 36 --per-kind 2"
    games_of_kind = [(p.kind, p.source["game"]) for p in first.puzzles]
    assert len(set(games_of_kind)) == len(games_of_kind)  # one puzzle of a kind per game
    for puzzle in first.puzzles:
        position = puzzle.load()
        solution = T.solve_position(position)
        assert tuple(str(position.move_of(a)) for a in solution.best) == puzzle.best
        assert len(puzzle.best) <= T.MAX_SHARE * puzzle.legal
    assert T.Suite.from_json(json.loads(first.dumps())) == first


def test_the_generator_refuses_bad_settings():
    with pytest.raises(OptionError, match="--games 0: must be a whole number of at least 1"):
        T.generate(games=0)
    with pytest.raises(OptionError, match="--seed -1"):
        T.generate(seed=-1)


# -- the command ------------------------------------------------------------------------------------------


def test_tactics_reports_the_share_found_per_kind():
    result = run("tactics", "--kind", "last-turn", "--iterations", "300", "--no-progress")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    count = sum(p.kind == "last-turn" for p in PUZZLES)
    assert lines[0] == f"tactical suite (bundled): {count} puzzles, hints with 300 iterations, seed 0"
    assert lines[2].split()[0] == "last-turn" and lines[3].split()[0] == "all"
    assert lines[-1].startswith("searched in ")
    assert result.stderr == ""


def test_tactics_says_what_it_will_do_before_a_run_that_is_piped():
    """Into a pipe or a log (no terminal), the run says on stderr what it will do before the first hint."""
    count = sum(p.kind == "last-turn" for p in PUZZLES)
    result = run("tactics", "--kind", "last-turn", "--iterations", "2000")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        f"kanaloa tactics: {count} puzzles of the bundled suite, a hint of 2,000 iterations each, seed 0; then a "
        f"progress line every 30 s"]


@pytest.mark.parametrize("seconds, said", [
    (None, "a hint of 2 s each (about 30 s in all)"),  # the hint's default budget
    (5.0, "a hint of 5 s each (about 1 min 15 s in all)"),
])
def test_tactics_says_how_long_a_timed_run_takes(seconds, said):
    from kanaloa.interfaces.cli import _suite_plan

    assert _suite_plan(15, "bundled", None, seconds, 3) == f"15 puzzles of the bundled suite, {said}, seed 3"
    assert _suite_plan(1, "my.json", 100, None, 0) == (
        "1 puzzle of suite 'my.json', a hint of 100 iterations each, seed 0")


def test_tactics_progress_lines_count_the_puzzles_and_the_time_left():
    """A line every 30 s into a log, or one line redrawn on a terminal: puzzles done of all, rate, time left."""
    now = [0.0]
    log = io.StringIO()
    meter = T.SuiteProgress(45, log, "lines", clock=lambda: now[0])
    now[0] = 20.0
    meter.update(10)  # not yet 30 s: nothing
    now[0] = 33.0
    meter.update(15)
    now[0] = 81.0
    meter.update(45)  # the last: the report follows
    meter.close()
    assert log.getvalue() == (
        "15/45 puzzles  [#########...................]  0.45 puzzles/s  00:33 elapsed  01:06 left\n")
    now[0] = 0.0
    terminal = io.StringIO()
    meter = T.SuiteProgress(45, terminal, "bar", clock=lambda: now[0])
    now[0] = 22.0
    meter.update(12)
    line = "12/45 puzzles  [#######.....................]  0.55 puzzles/s  00:22 elapsed  01:01 left"
    assert terminal.getvalue() == f"\r{line}\x1b[K"


def test_tactics_json_lists_every_result_and_the_misses():
    from test_docs import documented_keys

    result = run("tactics", "--kind", "removal", "--kind", "eleven", "--iterations", "300", "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert list(doc) == documented_keys("tactics --json")
    assert list(doc["kinds"]) == ["eleven", "removal"]
    assert list(doc["kinds"]["eleven"]) == documented_keys("A kind of puzzle")
    assert list(doc["results"][0]) == documented_keys("A puzzle's result")
    assert doc["puzzles"] == len(doc["results"]) == sum(p.kind in ("eleven", "removal") for p in PUZZLES)
    assert doc["found"] == sum(r["found"] for r in doc["results"])
    assert doc["misses"] == [r["id"] for r in doc["results"] if not r["found"]]
    assert (doc["iterations"], doc["time"], doc["seed"], doc["suite"]) == (300, None, 3, "bundled")
    for r in doc["results"]:
        assert r["found"] == (r["move"] in r["best"])


def test_tactics_generates_a_suite_that_it_can_run(tmp_path):
    from test_docs import documented_keys

    out = tmp_path / "suite.json"
    result = run("tactics", "--generate", "--games", "24", "--per-kind", "1", "--seed", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert list(doc) == documented_keys("The tactical suite file")
    assert list(doc["puzzles"][0]) == documented_keys("A puzzle")
    assert list(doc["puzzles"][0]["source"]) == documented_keys("Where a puzzle comes from")
    said = result.stderr.splitlines()  # not a terminal: what it will do first, then what it wrote
    assert said[0] == ("kanaloa tactics: solving the turns of 24 seeded games for puzzles, up to 1 of each kind; "
                       "then a progress line every 30 s")
    assert len(said) == 2 and said[1].startswith(f"kanaloa: wrote {len(doc['puzzles'])} puzzles (")
    printed = run("tactics", "--generate", "--games", "24", "--per-kind", "1", "--seed", "2")
    assert printed.stdout == out.read_text(encoding="utf-8")
    ran = run("tactics", "--suite", str(out), "--iterations", "200", "--json")
    assert ran.exit_code == 0, ran.output
    assert json.loads(ran.stdout)["puzzles"] == len(doc["puzzles"])


@pytest.mark.parametrize(("args", "message"), [
    (["--kind", "fork"], "error: --kind 'fork': unknown; choose one of eleven, last-turn, removal"),
    (["--iterations", "0"], "error: --iterations 0: must be a whole number from 1 to 1,000,000,000"),
    (["--time", "-1"], "error: --time -1.0: must be a number of seconds above 0 and at most 86,400 (a day)"),
    (["--iterations", "10", "--time", "1"], "error: --iterations and --time: give one budget, not both"),
    (["--iterations", "ten"], "error: --iterations 'ten': must be a whole number"),
    (["--generate", "--iterations", "10"], "error: --iterations: only for running a suite; --generate builds one"),
    (["--generate", "--kind", "eleven"], "error: --kind: only for running a suite; --generate builds one"),
    (["--generate", "--json"], "error: --json: --generate always prints the suite as JSON"),
    (["--out", "suite.json"], "error: --out: only with --generate"),
    (["--games", "10"], "error: --games: only with --generate"),
    (["--generate", "--games", "0"], "error: --games 0: must be a whole number of at least 1"),
    (["--suite", "no-such-suite.json"], "error: --suite 'no-such-suite.json': no such file"),
])
def test_tactics_refuses_bad_options_in_one_line(args, message):
    assert user_error(run("tactics", *args)) == message


def test_tactics_refuses_a_file_that_is_no_suite_and_a_kind_it_lacks(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "kanaloa-position/1"}))
    user_error(run("tactics", "--suite", str(bad)), "not a tactical suite")
    doc = SUITE.to_json()
    doc["puzzles"] = [p for p in doc["puzzles"] if p["kind"] == "eleven"][:1]
    only = tmp_path / "only.json"
    only.write_text(json.dumps(doc))
    user_error(run("tactics", "--suite", str(only), "--kind", "removal"),
               "--kind removal: the suite", "holds no puzzle of that kind")
    doc["puzzles"][0]["position"]["round"] = 7
    only.write_text(json.dumps(doc))
    user_error(run("tactics", "--suite", str(only)), "puzzle 0 ('eleven-01'): position: round")
    user_error(run("tactics", "--suite", str(tmp_path)), "is a directory, not a tactical suite")
    with pytest.raises(OptionError, match="no such file"):
        T.load_suite(tmp_path / "missing.json")


def test_tactics_reads_a_suite_from_standard_input():
    doc = SUITE.to_json()
    doc["puzzles"] = [p for p in doc["puzzles"] if p["kind"] == "last-turn"][:2]
    result = run("tactics", "--suite", "-", "--iterations", "200", "--json", input=json.dumps(doc))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["suite"] == "-"
    assert [r["id"] for r in json.loads(result.stdout)["results"]] == [p["id"] for p in doc["puzzles"]]


# -- which games: the puzzles are Kanaloa's ------------------------------------------------------------------


def test_the_suite_serves_kanaloa_and_refuses_another_game_with_its_reason():
    assert T.check_game("kanaloa").name == T.SUITE_GAME == "kanaloa"
    assert {load_game("kanaloa", **p).game for p in ({}, {"players": 2})} == {T.SUITE_GAME}
    assert user_error(run("tactics", "--game", "kahuna")).startswith(
        "error: --game kahuna: the tactical suite holds Kanaloa's puzzles: eleven islands (R8), removals (R7)")
    assert user_error(run("tactics", "--game", "chess", "--generate")) == (
        "error: --game 'chess': unknown; choose one of kanaloa, kahuna, cannonball")


def test_cannonball_colony_has_no_puzzles_and_says_why_in_one_line(tmp_path):
    """A Cannonball turn is one build after at most one shot (R20.6): a win within it is a single move, so
    the suite's exact puzzles do not fit; asked for the game, or handed its position, tactics says so."""
    why = load_game("cannonball").lacks("tactics")
    assert why and "one build after at most one shot (R20.6)" in why and 'docs/cannonball.md, "Tactics"' in why
    for args in (["--game", "cannonball"], ["--game", "cannonball", "--generate"]):
        assert user_error(run("tactics", *args)) == f"error: --game cannonball: {why}"
    doc = SUITE.to_json()
    doc["puzzles"] = doc["puzzles"][:1]
    doc["puzzles"][0]["position"] = json.loads(run("new", "--game", "cannonball", "--players", "3").stdout)
    doc["puzzles"][0]["players"] = 3
    suite = tmp_path / "cannonball.json"
    suite.write_text(json.dumps(doc))
    assert user_error(run("tactics", "--suite", str(suite))).endswith(f"puzzle 0 ('{doc['puzzles'][0]['id']}'): "
                                                                      f"position: {why}")
