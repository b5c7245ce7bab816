"""Move hints (`kanaloa hint`): legal, honest about what the mover knows, seeded, within budget.

The positions are dealt from seeds and played forward with seeded random
moves, so every test replays exactly.
"""

from __future__ import annotations

import json
import random
import time
from importlib import resources

import pytest
from click.testing import CliRunner

from kanaloa.errors import OptionError, PositionError
from kanaloa.rules.state import ROUND_1

ITERATIONS = 300


def midgame(seed: int = 5, moves: int = 30, players: int = 4):
    """A full position in round 1: dealt from ``seed``, then ``moves`` seeded random moves."""
    from kanaloa.position import Position

    pos = Position.new(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        pos.push(rng.choice(pos.state.legal_actions()))
    assert pos.state.round == ROUND_1
    return pos


def finished(seed: int = 3):
    from kanaloa.position import Position

    pos = Position.new(players=3, seed=seed)
    rng = random.Random(seed)
    while not pos.is_over:
        pos.push(rng.choice(pos.state.legal_actions()))
    return pos


def hint_of(pos, **options):
    from kanaloa.play.hint import hint

    options.setdefault("iterations", ITERATIONS)
    return hint(pos, **options)


# -- the hint itself -----------------------------------------------------------


@pytest.mark.parametrize("seed, players", [(1, 4), (5, 4), (8, 4), (1, 2), (5, 2)])
def test_the_hint_and_its_plan_are_legal(seed, players):
    """The move is legal; the plan is playable move after move and ends the turn (R5); with two players
    its builds name their color (R15.3)."""
    pos = midgame(seed, players=players)
    found = hint_of(pos)
    assert found.move in pos.move_strings()
    assert found.plan[0] == found.move
    mover = pos.to_move
    for text in found.plan:
        assert pos.to_move == mover, f"the plan {found.plan} runs past {mover}'s turn"
        assert text in pos.move_strings(), f"{text!r} of the plan {found.plan} is not legal"
        pos.play(text)
    assert pos.to_move != mover or pos.is_over, f"the plan {found.plan} stops before the turn ends"


def test_candidates_are_the_most_visited_moves_with_win_chances():
    pos = midgame(2)
    found = hint_of(pos, top=3)
    assert len(found.candidates) == 3
    assert found.candidates[0].move == found.move
    visits = [c.visits for c in found.candidates]
    assert visits == sorted(visits, reverse=True)
    assert all(0.0 <= c.win <= 1.0 for c in found.candidates)
    legal = pos.move_strings()
    assert all(c.move in legal for c in found.candidates)
    assert found.iterations >= ITERATIONS


def test_same_seed_same_hint_and_another_seed_searches_differently():
    pos = midgame(4)
    a, b = hint_of(pos, seed=7), hint_of(pos, seed=7)
    assert (a.move, a.plan, a.candidates, a.iterations) == (b.move, b.plan, b.candidates, b.iterations)
    c = hint_of(pos, seed=8)
    assert c.candidates != a.candidates


@pytest.mark.parametrize("players", [4, 2])
def test_no_cheating_hidden_cards_do_not_change_the_hint(players):
    """Two full positions that differ only in cards the mover cannot see give the same hint."""
    from kanaloa.play.hint import hint_state
    from kanaloa.rules.engine import load_engine

    pos = midgame(6, players=players)
    data = pos.data
    me = data.to_move
    other = next(s for s in range(data.players) if s != me and sum(data.hands[s]) > sum(data.public[s]))
    # Trade one of the other player's unseen cards for a deck card of another island.
    x = next(i for i in range(data.n_islands) if data.hands[other][i] > data.public[other][i])
    j = next(j for j, y in enumerate(data.deck) if y != x)
    y = data.deck[j]
    altered = data.copy()
    altered.hands[other][x] -= 1
    altered.hands[other][y] += 1
    altered.deck[j] = x
    altered.deck.reverse()  # the deck order is unknown too
    altered.rng ^= 0xDEADBEEF  # and so is the future reshuffle
    true_state = load_engine().from_data(pos.board, data)
    other_state = load_engine().from_data(pos.board, altered)
    a = hint_state(true_state, pos.board, iterations=ITERATIONS, seed=3, colors=pos.colors)
    b = hint_state(other_state, pos.board, iterations=ITERATIONS, seed=3, colors=pos.colors)
    assert (a.move, a.plan, a.candidates) == (b.move, b.plan, b.candidates)


@pytest.mark.parametrize("players", [4, 2])
def test_a_full_position_and_the_movers_view_give_the_same_hint(players):
    pos = midgame(9, players=players)
    view = pos.as_viewer(pos.to_move)
    a, b = hint_of(pos, seed=1), hint_of(view, seed=1)
    assert (a.move, a.plan, a.candidates) == (b.move, b.plan, b.candidates)


def test_the_time_budget_is_honoured():
    pos = midgame(3)
    started = time.perf_counter()
    found = hint_of(pos, iterations=None, seconds=0.3)
    elapsed = time.perf_counter() - started
    assert found.seconds <= 0.3 + 0.05
    assert elapsed <= 0.3 + 0.15
    assert found.iterations > 10


def test_a_hint_at_setup_reveals_a_card_from_the_hand():
    """R3: in round 0 the hint is which card to set aside face-up."""
    from kanaloa.position import Position

    pos = Position.new(players=3, seed=11)
    found = hint_of(pos)
    assert found.move.startswith("reveal ")
    assert found.plan == [found.move]


# -- errors ----------------------------------------------------------------------


def test_no_hint_for_a_finished_game():
    with pytest.raises(PositionError, match="over"):
        hint_of(finished())


def test_no_hint_when_the_movers_hand_is_unknown():
    pos = midgame(5)
    someone_else = next(c for c in pos.colors if c != pos.to_move)
    with pytest.raises(PositionError, match="hand is unknown"):
        hint_of(pos.as_viewer(someone_else))


@pytest.mark.parametrize(
    "budget, named",
    [({"iterations": 0}, "--iterations"), ({"iterations": -5}, "--iterations"),
     ({"iterations": None, "seconds": 0.0}, "--time"), ({"iterations": None, "seconds": float("nan")}, "--time"),
     ({"iterations": 10, "seconds": 1.0}, "one budget"), ({"top": 0}, "--top")],
)
def test_a_bad_budget_is_refused(budget, named):
    with pytest.raises(OptionError, match=named):
        hint_of(midgame(5), **budget)


# -- the command -------------------------------------------------------------------


def run(args, stdin=None):
    from kanaloa.interfaces.cli import cli

    return CliRunner().invoke(cli, args, input=stdin)


def test_command_prints_move_plan_and_candidates(tmp_path):
    path = tmp_path / "mid.json"
    pos = midgame(7)
    path.write_text(pos.dumps())
    result = run(["hint", str(path), "--iterations", "200", "--top", "2"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("move: ") and lines[0][6:] in pos.move_strings()
    assert lines[1].startswith("plan: " + lines[0][6:])
    assert lines[2] == "candidates:" and len(lines) == 6
    assert "win" in lines[3] and lines[5].startswith("2")


def test_command_json_has_the_documented_keys():
    pos = midgame(7).as_viewer(midgame(7).to_move)
    result = run(["hint", "-", "--iterations", "200", "--seed", "4", "--json"], stdin=pos.dumps())
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert set(doc) >= {"move", "plan", "candidates", "iterations", "seconds"}
    assert doc["plan"][0] == doc["move"]
    assert all(set(c) >= {"move", "visits", "win"} for c in doc["candidates"])
    again = json.loads(run(["hint", "-", "--iterations", "200", "--seed", "4", "--json"], stdin=pos.dumps()).stdout)
    assert (again["move"], again["plan"], again["candidates"]) == (doc["move"], doc["plan"], doc["candidates"])


@pytest.mark.parametrize(
    "args, message",
    [
        (["--iterations", "0"], "error: --iterations 0"),
        (["--time", "-1"], "error: --time -1"),
        (["--iterations", "10", "--time", "1"], "error: --iterations and --time"),
        (["--top", "0"], "error: --top 0"),
    ],
)
def test_command_bad_budget_is_one_error_line_with_status_2(tmp_path, args, message):
    path = tmp_path / "mid.json"
    path.write_text(midgame(5).dumps())
    result = run(["hint", str(path), *args])
    assert result.exit_code == 2
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1
    assert "Traceback" not in result.output


def test_command_refuses_a_finished_game_and_an_unknown_hand(tmp_path):
    over = tmp_path / "over.json"
    over.write_text(finished().dumps())
    result = run(["hint", str(over)])
    assert result.exit_code == 2 and result.stderr.startswith("error: round: the game is over")
    pos = midgame(5)
    view = tmp_path / "view.json"
    view.write_text(pos.as_viewer(next(c for c in pos.colors if c != pos.to_move)).dumps())
    result = run(["hint", str(view)])
    assert result.exit_code == 2 and result.stderr.startswith("error: viewer:")
    assert result.stderr.count("\n") == 1


def test_the_bundled_example_gets_a_hint():
    """The README's first command: a hint on the bundled mid-game viewer position."""
    example = resources.files("kanaloa").joinpath("examples/midgame.json")
    result = run(["hint", str(example), "--iterations", "200"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("move: ")


def test_no_hint_while_a_viewer_position_waits_for_the_face_up_record():
    """R3: after the last reveal a viewer position needs the face-up cards recorded before any move."""
    from kanaloa.position import Position, WaitingError

    view = Position.new(players=3, seed=12).as_viewer("red")
    view.play(view.move_strings()[0])
    view.play("green: reveal")
    view.play("blue: reveal")
    assert view.waiting is not None
    with pytest.raises(WaitingError, match="faceup"):
        hint_of(view)
