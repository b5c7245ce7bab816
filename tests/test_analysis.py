"""Game analysis (``kanaloa.play.analysis``, ``kanaloa analyse``): each move judged from its mover's view, graded
by its loss of win chance, with a chart; for every rule set."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from importlib import resources

import pytest

from cli_helpers import run, user_error
from kanaloa import load_game
from kanaloa.errors import MoveError, OptionError
from kanaloa.interfaces.chart import win_chart
from kanaloa.play.analysis import (
    BLUNDER,
    FORMAT,
    GRADES,
    INACCURACY,
    MISTAKE,
    analyse_game,
    analyse_record,
    grade_of,
)
from kanaloa.play.limits import SettingError
from kanaloa.play.records import GameRecord
from kanaloa.position import deal_position
from viewer_helpers import record as viewer_record

ITERATIONS = 300  # small: these tests check what is judged and how, not how well
SVG = "{http://www.w3.org/2000/svg}"

# Every rule set the registry lists as an example of its game, by a name for the test ids.
RULE_SETS = {
    "4p": ("kanaloa", {"players": 4}),
    "3p-tabletop": ("kanaloa", {"players": 3, "preset": "tabletop"}),
    "2p": ("kanaloa", {"players": 2}),
    "4p-gods": ("kanaloa", {"players": 4, "gods": True}),
    "kahuna": ("kahuna", {}),
    "cannonball": ("cannonball", {"players": 3}),
}


def random_game(game: str, params: dict, seed: int, moves: int | None = None):
    """A game of the rule set dealt from ``seed`` and played by seeded random moves: (deal, moves played,
    final position); to its end, or ``moves`` moves."""
    rs = load_game(game, **params)
    start = deal_position(rs, seed)
    pos = start.copy()
    rng = random.Random(seed)
    played: list[str] = []
    while not pos.is_over and (moves is None or len(played) < moves):
        action = rng.choice(pos.state.legal_actions())
        played.append(str(pos.move_of(action)))
        pos.push(action)
    return start, played, pos


def records_file(tmp_root: str, name: str) -> str:
    game, params = RULE_SETS[name]
    rs = load_game(game, **params)
    _, played, final = random_game(game, params, 11)
    rec = GameRecord.of_game(rs, 11, ["random"] * rs.players, list(range(rs.players)), played, final)
    path = f"{tmp_root}/{name}.jsonl"
    with open(path, "w") as fh:
        fh.write(rec.dumps() + "\n")
    return path


# -- grades ------------------------------------------------------------------------------------------------------


def test_grades_follow_the_loss_thresholds():
    def grade(loss: float, error: float = 0.0, **flags) -> str:
        options = {"best": False, "forced": False, "threw_proof": False, **flags}
        return grade_of(loss, error, **options)

    assert grade(0.0, best=True) == "best"
    assert grade(INACCURACY - 0.001) == "good"
    assert grade(INACCURACY) == "inaccuracy"
    assert grade(MISTAKE - 0.001) == "inaccuracy"
    assert grade(MISTAKE) == "mistake"
    assert grade(BLUNDER - 0.001) == "mistake"
    assert grade(BLUNDER) == "blunder"
    assert grade(0.5, forced=True) == "forced"
    assert grade(0.0, threw_proof=True) == "blunder"  # a proven win thrown away, whatever the estimates


def test_a_loss_within_the_noise_is_good():
    assert grade_of(0.15, 0.1, best=False, forced=False, threw_proof=False) == "good"  # 0.15 < 1.96 * 0.1
    assert grade_of(0.15, 0.05, best=False, forced=False, threw_proof=False) == "mistake"


# -- what is judged ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_every_rule_set_is_analysed_move_by_move(name):
    game, params = RULE_SETS[name]
    start, played, _ = random_game(game, params, 5, moves=24)
    found = analyse_game(start, played, iterations=ITERATIONS, seed=1)
    assert [r.move for r in found.reviews] == played
    assert found.players == tuple(start.ruleset.seat_names)
    for r in found.reviews:
        assert r.analysed and r.grade in GRADES
        assert 0.0 <= r.after <= 1.0 and 0.0 <= r.before <= 1.0
        assert r.loss == pytest.approx(max(0.0, r.before - r.after))
        assert r.best and r.plan and r.plan[0] == r.best
        assert (r.grade == "forced") == (r.choices == 1)
        if r.grade == "best":
            assert r.loss == 0.0
    total = sum(sum(s.grades.values()) for s in found.summaries)
    assert total == len(played)
    doc = found.to_json()
    assert doc["format"] == FORMAT and doc["game"] == game and len(doc["moves"]) == len(played)


def test_the_move_played_and_the_engines_move_are_named_in_the_games_notation():
    start, played, _ = random_game("kanaloa", {"players": 2}, 8, moves=12)
    found = analyse_game(start, played, iterations=ITERATIONS, seed=2)
    pos = start.copy()
    for r, move in zip(found.reviews, played, strict=True):
        assert r.move == str(pos.parse(move))
        assert r.best in pos.move_strings()  # a 2-player build names its color (R15.3), as the moves do
        pos.play(move)


def _unseen_altered(pos):
    """A full position that differs from ``pos`` only in what its mover cannot know: one hidden card of
    another player traded with a deck card of another island, the deck order reversed, the seed changed; None
    when no other player holds a card the mover cannot see."""
    doc = pos.to_json()
    mover = doc["to_move"]
    for other, hand in doc["hands"].items():
        if other == mover:
            continue
        hidden = list(hand["cards"])
        for card in hand["public"]:
            hidden.remove(card)
        swap = next((i for i, c in enumerate(doc["deck"]) if hidden and c != hidden[0]), None)
        if hidden and swap is not None:
            card = hidden[0]
            hand["cards"].remove(card)
            hand["cards"].append(doc["deck"][swap])
            hand["cards"].sort()
            doc["deck"][swap] = card
            break
    else:
        return None  # no other player holds a card the mover cannot see
    doc["deck"].reverse()
    doc["seed"] = (doc["seed"] ^ 0xDEADBEEF) % (1 << 64)
    return type(pos).from_json(doc)


@pytest.mark.parametrize("name", ["4p", "2p", "kahuna", "4p-gods"])
def test_only_the_movers_knowledge_is_used(name):
    """Two games that differ only in cards the mover cannot see give that mover's moves the same grades."""
    game, params = RULE_SETS[name]
    start, played, _ = random_game(game, params, 21)
    pos = start.copy()
    for move in played:  # on to a position where the mover has a choice and another player a hidden card
        pos.play(move)
        if len(pos.legal_moves()) > 1 and len(played) > 20 and _unseen_altered(pos) is not None:
            break
    mover = pos.to_move
    turn = []  # the mover's moves up to the end of its turn
    walk = pos.copy()
    rng = random.Random(3)
    while not walk.is_over and walk.to_move == mover and len(turn) < 4:
        action = rng.choice(walk.state.legal_actions())
        turn.append(str(walk.move_of(action)))
        walk.push(action)
    other = _unseen_altered(pos)
    assert other is not None and other.to_json() != pos.to_json()
    a = analyse_game(pos, turn, iterations=ITERATIONS, seed=9)
    b = analyse_game(other, turn, iterations=ITERATIONS, seed=9)
    assert [r.to_json() for r in a.reviews] == [r.to_json() for r in b.reviews]
    assert all(r.player == mover for r in a.reviews)


def test_a_viewer_game_grades_only_the_viewers_moves():
    start, played, _ = random_game("kanaloa", {"players": 3}, 6, moves=30)
    viewer = "green"
    view = start.as_viewer(viewer)
    full = start.copy()
    follow = view.copy()
    seen_moves = []
    for move in played:
        action = next(a for a in full.state.legal_actions() if str(full.move_of(a)) == move)
        seen_moves.append(viewer_record(full, action, viewer))
        full.push(action)
        follow.play(seen_moves[-1])
        if follow.waiting:  # the viewer writes down the cards turned face up (R3)
            shown_up = follow.to_json()["face_up"]
            seen_moves.append("faceup " + " ".join(full.to_json()["face_up"][len(shown_up):]))
            follow.play(seen_moves[-1])
    found = analyse_game(view, seen_moves, iterations=ITERATIONS, seed=4)
    assert any(r.player is None and r.move.startswith("faceup ") for r in found.reviews)
    assert found.viewer == viewer
    judged = [r for r in found.reviews if r.analysed]
    assert judged and all(r.player == viewer for r in judged)
    for r in found.reviews:
        if r.player is None:
            assert not r.analysed and r.why == "the cards turned face up, no move"
        elif r.player != viewer:
            assert not r.analysed and r.grade is None and r.before is None
            assert r.why == f"{r.player}'s hand is unknown to {viewer}'s view"
    assert [s.moves for s in found.summaries if s.player != viewer] == [0, 0]


def test_a_record_names_the_choice_it_made_and_more():
    """``decision_of``: a viewer's record of its own move carries what the choice brought (the card drawn, the
    card turned up); the choice is the move without it, as the search of the mover's view plays it."""
    start, played, _ = random_game("kanaloa", {"players": 3}, 6, moves=3)
    full = start.copy()
    for move in played:
        full.play(move)
    while not any(full.move_of(a).kind == "draw" for a in full.state.legal_actions()):
        full.push(full.state.legal_actions()[0])
    mover = full.to_move
    view = full.as_viewer(mover)
    actions = full.state.legal_actions()
    draw = next(a for a in actions if full.move_of(a).kind == "draw")
    take = next(a for a in actions if full.move_of(a).kind == "take")
    for action in (draw, take):
        written = viewer_record(full, action, mover)
        assert written.startswith(f"{mover}: ") and (" refill " in written or written.count(" ") >= 2)
        assert view.decision_of(written) == action
        assert full.decision_of(str(full.move_of(action))) == action
    with pytest.raises(MoveError, match="not one of"):
        view.decision_of("reveal ALOA")


def test_a_planted_blunder_is_graded_a_blunder_and_the_proven_win_is_shown():
    """The tactical suite's first puzzle: red wins at once with eleven islands (R8) by one first move of 11.
    Its game is played to the puzzle, then another first move, then on to the end: that move throws the
    proven win away."""
    suite = json.loads(resources.files("kanaloa.examples").joinpath("tactics.json").read_text())
    puzzle = next(p for p in suite["puzzles"] if p["id"] == "eleven-01")
    source = puzzle["source"]
    rs = load_game("kanaloa", players=source["players"], preset=source["preset"])
    pos = deal_position(rs, source["deal_seed"])
    moves = list(source["moves"])
    for move in moves:
        pos.play(move)
    at = len(moves)
    bad = next(m for m in pos.move_strings() if m not in puzzle["best"])
    pos.play(bad)
    moves.append(bad)
    rng = random.Random(1)
    while not pos.is_over:
        action = rng.choice(pos.state.legal_actions())
        moves.append(str(pos.move_of(action)))
        pos.push(action)
    rec = GameRecord.of_game(rs, source["deal_seed"], source["seating"], source["bot_seeds"], moves, pos)
    found = analyse_record(rec, iterations=5000, seed=3, first=at + 1, last=at + 1)
    review = found.reviews[at]
    assert review.move == bad
    assert review.grade == "blunder"
    assert review.proven and review.before == 1.0
    assert review.best in puzzle["best"]
    assert review.plan[0] == review.best
    assert found.summaries[0].turning_points == (at,)
    # The moves around it were walked through, not judged.
    assert not found.reviews[at - 1].analysed and found.reviews[at - 1].why == "outside the moves analysed"


def test_keeping_a_proven_win_another_way_is_no_blunder():
    """At the end of a game the mover may end it at once with its win, or build first and end it then: both
    keep the win."""
    rs = load_game("kanaloa", players=4)
    for seed in range(40, 80):
        start, played, final = random_game("kanaloa", {"players": 4}, seed)
        pos = start.copy()
        for move in played[:-1]:
            pos.play(move)
        if final.outcome["winner"] != pos.to_move or len(pos.legal_moves()) < 2:
            continue
        found = analyse_game(pos, played[-1:], iterations=2000, seed=1)
        assert found.reviews[0].grade != "blunder"
        return
    pytest.skip(f"no game of {rs.describe()} ended with its winner's own choice")


# -- seeds and workers -------------------------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_analysis_on_any_number_of_workers():
    start, played, _ = random_game("kahuna", {}, 3, moves=16)
    one = analyse_game(start, played, iterations=ITERATIONS, seed=5, workers=1).to_json()
    two = analyse_game(start, played, iterations=ITERATIONS, seed=5, workers=2).to_json()
    assert one.pop("workers") == 1 and two.pop("workers") == 2
    assert one == two
    other = analyse_game(start, played, iterations=ITERATIONS, seed=6).to_json()
    assert other["moves"] != one["moves"]


def test_progress_counts_the_judged_moves():
    start, played, _ = random_game("kanaloa", {"players": 3}, 3, moves=10)
    seen = []
    analyse_game(start, played, iterations=50, seed=1, first=3, last=6, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]


# -- errors ------------------------------------------------------------------------------------------------------


def test_bad_settings_and_moves_are_refused_naming_them():
    start, played, _ = random_game("kanaloa", {"players": 4}, 3, moves=5)
    with pytest.raises(SettingError, match="iterations 0"):
        analyse_game(start, played, iterations=0)
    with pytest.raises(SettingError, match="iterations and seconds"):
        analyse_game(start, played, iterations=10, seconds=1.0)
    with pytest.raises(SettingError, match="first 6: must be a move number from 1 to 5"):
        analyse_game(start, played, iterations=10, first=6)
    with pytest.raises(SettingError, match="first and last: the first move to analyse, 4, comes after the last, 2"):
        analyse_game(start, played, iterations=10, first=4, last=2)
    with pytest.raises(OptionError, match="no move to analyse"):
        analyse_game(start, [], iterations=10)
    with pytest.raises(MoveError, match="move 3 of 3"):
        analyse_game(start, [*played[:2], "ALOA-BAFI/NALU"], iterations=10)


# -- the chart ---------------------------------------------------------------------------------------------------


def test_the_chart_is_svg_with_a_line_a_player_and_a_mark_a_graded_move():
    start, played, _ = random_game("kanaloa", {"players": 4}, 9, moves=60)
    found = analyse_game(start, played, iterations=ITERATIONS, seed=2)
    text = win_chart(found)
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg" and root.get("class") == "kanaloa-chart"
    lines = [e for e in root.iter(f"{SVG}path") if e.get("class") == "line"]
    assert sorted(e.get("data-player") for e in lines) == sorted(found.players)
    assert all(e.get("pointer-events") == "none" for e in lines)  # a click on a line reaches the column under it
    marks = [e for e in root.iter(f"{SVG}circle") if (e.get("class") or "").startswith("mark ")]
    graded = [r for r in found.reviews if r.grade in ("inaccuracy", "mistake", "blunder")]
    assert [int(e.get("data-move")) for e in marks] == [r.index for r in graded]
    assert all(e.get("class") == f"mark {r.grade}" for e, r in zip(marks, graded, strict=True))
    hits = [e for e in root.iter(f"{SVG}rect") if e.get("class") == "move-hit"]
    assert [int(e.get("data-move")) for e in hits] == list(range(len(played)))
    assert win_chart(found.to_json()) == text  # the same analysis, the same bytes


# -- the command -------------------------------------------------------------------------------------------------


def test_analyse_a_recorded_game(tmp_path):
    path = records_file(str(tmp_path), "kahuna")
    out = run("analyse", path, "--iterations", "100", "--no-progress", "--json", "--svg", str(tmp_path / "c.svg"))
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert doc["format"] == FORMAT and doc["game"] == "kahuna" and doc["record"] == 0
    assert doc["result"]["reason"] in ("points", "no bridges")
    ET.parse(tmp_path / "c.svg")
    people = run("analyse", path, "--iterations", "100", "--no-progress", "--from", "3", "--to", "8")
    assert people.exit_code == 0, people.output
    assert "player" in people.stdout and "mean loss" in people.stdout
    assert "6 analysed" in people.stdout.splitlines()[0]


def test_analyse_a_position_and_its_moves(tmp_path):
    start, played, _ = random_game("cannonball", {"players": 2}, 4, moves=6)
    position = tmp_path / "p.json"
    position.write_text(start.dumps())
    moves = tmp_path / "moves.txt"
    moves.write_text("\n".join(played[:3]) + "\n")
    out = run("analyse", str(position), *played[3:], "--moves-file", str(moves), "--iterations", "50", "--json",
              "--no-progress")
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert [m["move"] for m in doc["moves"]] == played and doc["game"] == "cannonball"


def test_analyse_refuses_bad_input_in_one_line(tmp_path):
    two = tmp_path / "two.jsonl"
    start, played, final = random_game("kanaloa", {"players": 2}, 2)
    rs = start.ruleset
    recs = [GameRecord.of_game(rs, 2, ["random"] * 2, [0, 1], played, final, index=i) for i in (0, 1)]
    two.write_text("".join(r.dumps() + "\n" for r in recs))
    position = tmp_path / "p.json"
    position.write_text(start.dumps())
    bad_record = tmp_path / "bad.jsonl"
    doc = recs[0].to_json()
    doc["moves"] = ["reveal NOPE", *doc["moves"][1:]]
    bad_record.write_text(json.dumps(doc) + "\n")
    cases = [
        (("analyse", str(two)), ["--game", "holds more than one game"]),
        (("analyse", str(two), "--game", "7"), ["--game 7", "holds no game 7 (games 0 to 1)"]),
        (("analyse", str(two), "--game", "0", "reveal ALOA"), ["MOVE", "holds game records"]),
        (("analyse", str(position), "--game", "1"), ["--game 1", "not a file of game records"]),
        (("analyse", str(position)), ["MOVE", "no moves given"]),
        (("analyse", str(position), "reveal NOPE"), ["move 1 of 1", "NOPE"]),
        (("analyse", str(two), "--game", "0", "--iterations", "0"), ["--iterations 0"]),
        (("analyse", str(two), "--game", "0", "--iterations", "5", "--time", "1"), ["--iterations and --time"]),
        (("analyse", str(two), "--game", "0", "--from", "9999"), ["--from 9999", "must be a move number"]),
        (("analyse", str(two), "--game", "0", "--json", "--svg", "-"), ["--svg '-'", "--json"]),
        (("analyse", str(two), "--game", "0", "--workers", "x"), ["--workers"]),
        (("analyse", str(tmp_path / "none.jsonl")), ["no such file"]),
        (("analyse", str(bad_record)), [str(bad_record), "move 1"]),
    ]
    for args, fragments in cases:
        user_error(run(*args), *fragments)
    empty = tmp_path / "empty.json"
    empty.write_text("\n")
    user_error(run("analyse", str(empty), "reveal ALOA"), "empty input")


def test_ctrl_c_keeps_the_moves_finished():
    start, played, _ = random_game("kanaloa", {"players": 3}, 3, moves=10)

    def progress(done: int, total: int) -> None:
        if done == 3:
            raise KeyboardInterrupt

    found = analyse_game(start, played, iterations=50, seed=1, progress=progress, interruptible=True)
    assert found.interrupted and found.to_json()["interrupted"]
    assert [r.analysed for r in found.reviews] == [True] * 3 + [False] * 7
    assert found.reviews[5].why == "not analysed: the analysis was interrupted"
    with pytest.raises(KeyboardInterrupt):
        analyse_game(start, played, iterations=50, seed=1, progress=progress)


def test_a_light_color_is_drawn_dark_enough_to_see():
    """Kahuna's white plays on white paper: its line and its marks take the color's dark edge."""
    from kanaloa.interfaces.svgtags import COLOR_DARK, COLOR_FILL

    start, played, _ = random_game("kahuna", {}, 4, moves=30)
    root = ET.fromstring(win_chart(analyse_game(start, played, iterations=ITERATIONS, seed=1)))
    strokes = {e.get("data-player"): e.get("stroke") for e in root.iter(f"{SVG}path") if e.get("class") == "line"}
    assert strokes == {"white": COLOR_DARK["white"], "black": COLOR_FILL["black"]}


def test_a_few_agreeing_results_do_not_make_a_certain_estimate():
    from kanaloa.play.analysis import FEW_VISITS, _pooled
    from kanaloa.search.ismcts import Node

    few = Node(1, 0)
    few.visits, few.wins, few.wins2 = 3, 3.0, 3.0  # three wins in three visits
    _, win, error = _pooled([few])
    assert win == 1.0 and error > 0.3  # Laplace: (3 + 1) / (3 + 2) = 0.8, sqrt(0.16 / 3) = 0.23, widened
    many = Node(1, 0)
    many.visits, many.wins, many.wins2 = FEW_VISITS, float(FEW_VISITS), float(FEW_VISITS)
    assert _pooled([many])[2] == 0.0  # from FEW_VISITS on, the results' own spread
