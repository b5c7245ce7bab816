"""Move hints (`kanaloa hint`): legal, honest about what the mover knows, seeded, within budget.

The positions are dealt from seeds and played forward with seeded random
moves, so every test replays exactly.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from importlib import resources

import pytest
from click.testing import CliRunner

from kanaloa.errors import PositionError
from kanaloa.play.hint import COMPLETION_SHARE
from kanaloa.play.limits import MAX_ITERATIONS, MAX_SECONDS, SettingError, max_workers
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
    assert len(found.candidates) >= 3 and all(c.about_equal for c in found.candidates[3:])
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
    data = pos.state.to_data()
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


def test_the_time_budget_is_honoured(monkeypatch):
    """A hint with a time budget stops when its budget is spent, by the clock it reads.  The clock here
    advances 20 microseconds a reading, whatever else the machine does, so the check is exact: the hint
    ends within a few readings of 0.3 s, and after at least the search's share of it (the rest is kept for
    completing the plan), having searched all along."""
    tick = 20e-6
    readings = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(readings) * tick)
    found = hint_of(midgame(3), iterations=None, seconds=0.3)
    assert 0.3 * (1 - COMPLETION_SHARE) <= found.seconds <= 0.3 + 10 * tick
    assert found.iterations > 1000


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
    "budget, message",
    [({"iterations": 0}, "iterations 0: must be a whole number from 1 to 1,000,000,000"),
     ({"iterations": -5}, "iterations -5: must be a whole number from 1 to 1,000,000,000"),
     ({"iterations": MAX_ITERATIONS + 1}, "iterations 1000000001: must be a whole number from 1 to 1,000,000,000"),
     ({"iterations": None, "seconds": 0.0}, "seconds 0.0: must be a number of seconds above 0 and at most 86,400"),
     ({"iterations": None, "seconds": float("nan")}, "seconds nan: must be a number of seconds above 0"),
     ({"iterations": None, "seconds": MAX_SECONDS * 2}, "seconds 172800.0: must be a number of seconds above 0"),
     ({"iterations": 10, "seconds": 1.0}, "iterations and seconds: give one budget, not both"),
     ({"top": 0}, "top 0: must be a whole number of at least 1")],
)
def test_a_bad_budget_is_refused_naming_the_parameter(budget, message):
    """The hint names its own parameters; only the command words them as its options (below)."""
    with pytest.raises(SettingError) as caught:
        hint_of(midgame(5), **budget)
    assert str(caught.value).startswith(message), str(caught.value)


# -- the command -------------------------------------------------------------------


def run(args, stdin=None):
    from kanaloa.interfaces.cli import cli

    return CliRunner().invoke(cli, args, input=stdin)


def test_command_prints_move_plan_and_candidates(tmp_path):
    path = tmp_path / "mid.json"
    pos = midgame(7)
    path.write_text(pos.dumps())
    result = run(["hint", str(path), "--iterations", "200", "--top", "2", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""  # not a terminal: no progress line
    lines = result.stdout.splitlines()
    assert lines[0].startswith("move: ") and lines[0][6:] in pos.move_strings()
    assert lines[1].startswith("plan: " + lines[0][6:])
    assert lines[2].startswith("candidates:") and lines[2].split()[1:] == ["win", "95%", "interval", "visits"]
    rows = lines[3:lines.index(next(line for line in lines[3:] if line[:1] not in ("~", " ")))]
    assert len(rows) >= 2 and rows[0][0] == "~" and rows[0][2:].startswith(lines[0][6:] + " ")
    assert all(row.split()[-1].isdigit() and "%" in row for row in rows)
    after = lines[3 + len(rows):]
    assert after[0].endswith("about equal: the search cannot tell them apart") or \
        after[0] == "no other move is about equal to the best (~)"
    assert after[1].startswith(f"plan gains for {pos.to_move}: islands ")
    assert after[2].startswith(f"expected final points after {lines[0][6:]}: red ")
    assert re.fullmatch(r"\d+ iterations in \d+\.\d\d s on 1 worker", after[3]) and len(after) == 4


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


# -- settings, workers and determinism ----------------------------------------------


def test_the_hint_searches_with_the_one_set_of_settings():
    """``HINT_SETTINGS`` is what a hint searches with, and the keyword overrides replace single values."""
    from kanaloa.play.hint import HINT_SETTINGS, SearchSettings

    pos = midgame(4)
    plain = hint_of(pos, seed=2)
    same = hint_of(pos, seed=2, settings=SearchSettings(**vars(HINT_SETTINGS)))
    assert (plain.plan, plain.candidates) == (same.plan, same.candidates)
    wider = hint_of(pos, seed=2, c=HINT_SETTINGS.c + 1.0)
    assert wider.candidates != plain.candidates
    with pytest.raises(SettingError, match="search settings: c must be non-negative"):
        hint_of(pos, c=-1.0)
    with pytest.raises(SettingError, match="search settings: unknown playout policy"):
        hint_of(pos, policy=99)


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_the_same_seed_iterations_and_workers_give_the_same_hint(workers):
    pos = midgame(4)
    a, b = hint_of(pos, seed=7, workers=workers), hint_of(pos, seed=7, workers=workers)
    assert a.to_json() | {"seconds": 0} == b.to_json() | {"seconds": 0}
    assert a.workers == workers and not a.interrupted


def test_two_workers_search_differently_but_as_much():
    """Two workers split the iterations and find a legal hint of the same kind as one worker does."""
    pos = midgame(4)
    one, two = hint_of(pos, seed=7, workers=1), hint_of(pos, seed=7, workers=2)
    assert two.candidates != one.candidates
    assert two.workers == 2 and two.move in pos.move_strings() and two.plan[0] == two.move
    assert sum(c.visits for c in hint_of(pos, seed=7, workers=2, top=1000).candidates) == ITERATIONS
    assert set(two.expected_points) == set(one.expected_points) == set(pos.colors)


def test_fewer_iterations_than_workers_use_fewer_workers():
    found = hint_of(midgame(4), iterations=2, workers=3)
    assert found.workers == 2


def test_the_merged_statistics_add_up():
    """Root visits, availability, wins and points of the merged tree are the workers' sums."""
    from kanaloa.play import parallel
    from kanaloa.play.family_hint import FAMILY_HINT
    from kanaloa.play.hint import HINT_SETTINGS

    position = midgame(4)
    core = FAMILY_HINT.state_of(position)
    seeds, shares = [11, 12], parallel.split_iterations(401, 2)
    assert shares == [201, 200]
    merged = parallel.run(core, position.ruleset, HINT_SETTINGS, seeds, shares, None)
    assert merged.iterations == 401 == merged.root.visits == sum(c.visits for c in merged.candidates())
    alone = [parallel.run(core, position.ruleset, HINT_SETTINGS, [seed], [share], None)
             for seed, share in zip(seeds, shares, strict=True)]
    for child in merged.root.children.values():
        parts = [a.root.children[child.action] for a in alone if child.action in a.root.children]
        assert child.visits == sum(p.visits for p in parts)
        assert child.wins == pytest.approx(sum(p.wins for p in parts))
        assert child.avail == sum(p.avail for p in parts)
        assert child.points == pytest.approx([sum(x) for x in zip(*(p.points for p in parts), strict=True)])
    assert merged.points == pytest.approx([sum(a.root.points[i] for a in alone) / 401 for i in range(4)])
    assert merged.nodes == sum(a.nodes for a in alone)


def test_pack_keeps_the_movers_line_and_prunes_rare_nodes():
    from kanaloa.play.parallel import merge, pack
    from kanaloa.search import Node, SearchResult

    def node(action, player, visits, *children):
        n = Node(action, player)
        n.visits, n.wins, n.wins2, n.reward = visits, visits / 2, visits / 2, visits / 2
        n.children = {c.action: c for c in children}
        return n

    deep = node(9, 0, 1, node(10, 0, 1))
    other = node(7, 1, 40, node(8, 0, 40))  # another player's move: a leaf of the summary
    root = node(-1, -1, 1000, node(1, 0, 600, node(2, 0, 500, other, deep)), node(3, 0, 0))
    packed = pack(SearchResult(root, 0, 1000, 1.0), keep=0.01)
    tree = merge([packed, packed])
    assert set(tree.children) == {1, 3} and tree.visits == 2000
    two = tree.children[1].children[2]
    assert two.visits == 1000 and two.wins == 500 and two.wins2 == 500
    assert set(two.children) == {7} and not two.children[7].children  # 9 had 1 visit of 1000: pruned
    assert SearchResult(tree, 0, 2000, 1.0).principal_line() == [1, 2]
    # A proven win is kept however rarely it was visited, and one worker's proof holds in the sum.
    deep.proven = deep.children[10].proven = True
    proven = merge([pack(SearchResult(root, 0, 1000, 1.0), keep=0.01), packed])
    won = proven.children[1].children[2].children[9]
    assert won.proven and won.children[10].proven
    assert SearchResult(proven, 0, 2000, 1.0).principal_line() == [1, 2, 9, 10]


def test_a_spawned_worker_finds_what_a_forked_one_does(monkeypatch):
    """The start method makes no difference: the same seeds give the same merged tree."""
    import multiprocessing

    from kanaloa.play import parallel

    pos = midgame(4)
    forked = hint_of(pos, seed=3, workers=2)
    monkeypatch.setattr(parallel, "_context", lambda: multiprocessing.get_context("spawn"))
    spawned = hint_of(pos, seed=3, workers=2)
    assert spawned.to_json() | {"seconds": 0} == forked.to_json() | {"seconds": 0}


@pytest.mark.parametrize("workers", [-1, 1.5, "2x", True, max_workers() + 1])
def test_a_bad_worker_count_is_refused(workers):
    with pytest.raises(SettingError, match=r"^workers .*: must be a whole number from 0 to \d+ \(0: one per core; "
                                           r"at most 4 per core"):
        hint_of(midgame(5), workers=workers)


def test_zero_workers_means_one_per_core():
    from kanaloa.play.pools import default_workers

    assert hint_of(midgame(5), workers=0).workers == default_workers()


def test_the_node_cap_bounds_every_workers_tree():
    from kanaloa.play.hint import HINT_SETTINGS

    capped = dataclasses.replace(HINT_SETTINGS, max_nodes=150)
    for workers in (1, 2):
        found = hint_of(midgame(5), iterations=3000, settings=capped, workers=workers)
        assert 150 * workers - 10 <= found.nodes <= 150 * workers
        assert found.move in midgame(5).move_strings() and found.iterations >= 3000
    assert hint_of(midgame(5), iterations=3000).nodes > 1000


# -- honest output ---------------------------------------------------------------------


def test_about_equal_is_a_z_test_with_a_visit_floor():
    from kanaloa.play.hint import about_equal
    from kanaloa.search import Candidate

    best = Candidate(1, 1000, 0.40, 0.40, 0.0155)
    assert about_equal(best, best)
    # The difference's standard error is sqrt(0.0155² + 0.02²) = 0.0253; 1.96 of it is 0.0496.
    assert about_equal(best, Candidate(2, 600, 0.351, 0.351, 0.02))
    assert not about_equal(best, Candidate(2, 600, 0.349, 0.349, 0.02))
    assert about_equal(best, Candidate(2, 600, 0.449, 0.449, 0.02))  # better but not told apart
    # A wide interval from few visits is not equality: under 5% of the best's visits never is.
    assert not about_equal(best, Candidate(3, 49, 0.40, 0.40, 0.07))
    assert about_equal(best, Candidate(3, 50, 0.40, 0.40, 0.07))
    lost = Candidate(4, 100, 0.0, 0.0, 0.0)
    assert about_equal(lost, Candidate(5, 100, 0.0, 0.0, 0.0))
    assert not about_equal(lost, Candidate(5, 100, 0.01, 0.01, 0.0))


def own_builds(state):
    """The mover's legal places and swaps (R4), as action codes."""
    from kanaloa.rules import actions as A

    return [a for a in state.legal_actions() if A.kind_of(a) in (A.PLACE, A.SWAP)]


def far_apart(board, a, b):
    """Whether the islands of builds ``a`` and ``b`` are two or more links apart (no island or link shared)."""
    from kanaloa.rules import actions as A

    def near(action):
        link = A.arg_a(action)
        ends = set(board.links[link])
        return ends | {x for x, y in board.links if y in ends} | {y for x, y in board.links if x in ends}

    return not near(a) & set(board.links[A.arg_a(b)])


def leaves_a_removal(state, action) -> bool:
    """Whether ``action`` leaves an R7 removal to make, which comes before any other action."""
    after = state.copy()
    after.apply(action)
    return bool(after.to_data().remove_on)


def test_builds_on_far_apart_islands_may_be_played_in_either_order():
    """R4 to R6 act on the islands of a build and their links only: two builds two links apart commute,
    unless one leaves an R7 removal, which must come next."""
    from kanaloa.play.hint import same_plan

    found = removals = 0
    for seed in range(40):
        pos = midgame(seed, moves=24)
        state = pos.state
        for a in own_builds(state):
            after = state.copy()
            after.apply(a)
            if after.to_move != state.to_move or after.is_over or leaves_a_removal(state, a):
                continue
            for b in own_builds(after):
                if far_apart(pos.board, a, b) and state.is_legal(b):
                    if leaves_a_removal(state, b):
                        assert not same_plan(state, [a, b], b)  # b first: the removal must come next
                        removals += 1
                    else:
                        assert same_plan(state, [a, b], b), (seed, a, b)
                        found += 1
    assert found > 20 and removals > 0


def test_a_build_that_needs_the_first_one_is_not_the_same_plan_first():
    """R6: a place that takes a small island sweeps a rival bridge off one of its links, and the next
    place goes on that link: it is not legal first, so the two moves do not commute."""
    from kanaloa.play.hint import same_plan
    from kanaloa.rules import actions as A
    from kanaloa.rules.core import CoreState, core_board

    pos = midgame(5, moves=12)
    board, d = pos.board, pos.state.to_data()
    me, rival = d.to_move, (d.to_move + 1) % 4
    dali = board.islands.index("DALI")  # 3 links: 2 bridges are a majority (R2)
    mine, theirs, free = [k for k, ends in enumerate(board.links) if dali in ends]
    bridges = list(d.bridges)
    bridges[mine], bridges[theirs], bridges[free] = me, rival, -1
    hands, deck = [list(h) for h in d.hands], list(d.deck)
    for island, n in enumerate(hands[me]):  # the mover's cards go to the deck; two DALI cards come back
        deck += [island] * n
    deck.remove(dali)
    deck.remove(dali)
    hands[me] = [2 if island == dali else 0 for island in range(board.n_islands)]
    public = [list(p) for p in d.public]
    public[me] = [0] * board.n_islands
    state = CoreState.from_data(core_board(board), dataclasses.replace(d, bridges=bridges, hands=hands, deck=deck,
                                                                      public=public))
    take = next(a for a in own_builds(state) if A.arg_a(a) == free)
    after = state.copy()
    after.apply(take)
    assert after.to_data().bridges[theirs] == -1  # swept (R6)
    follow = next(a for a in own_builds(after) if A.arg_a(a) == theirs)
    assert not state.is_legal(follow)
    assert not same_plan(state, [take, follow], follow)
    assert not same_plan(state, [take, follow], take)  # the first move is not a later one


def test_only_a_later_move_of_the_plan_is_the_same_plan():
    from kanaloa.play.hint import same_plan

    state = midgame(3).state
    found = hint_of(midgame(3), iterations=2000)
    line = list(found.actions)
    assert not same_plan(state, line, line[0])
    assert not same_plan(state, line, -1)
    if len(line) > 1:
        assert not same_plan(state, line, line[-1]) or len(line) == 1  # the turn-ending take or draw


def test_later_moves_of_the_plan_are_about_equal_and_marked():
    """Seeds split one plan's visits over the orders of its builds; a later move of the plan that may be
    played first is about equal to the best, whatever its statistics, and the command marks it =."""
    from kanaloa.play.hint import same_plan
    from kanaloa.position import Position

    pos = Position.from_json(json.loads(resources.files("kanaloa.examples").joinpath("midgame.json").read_text()))
    for seed in range(60):  # the first seed whose plan has builds that commute (20 with the settings now)
        found = hint_of(pos, iterations=6000, top=1000, seed=seed)
        same = [c for c in found.candidates if c.same_plan]
        if same:
            break
    else:
        pytest.fail("no seed gave a plan with builds that commute")
    line = list(found.actions)
    state = pos.state
    for c in found.candidates:
        code = next(a for a, name in zip(line, found.plan, strict=True) if name == c.move) \
            if c.move in found.plan else None
        assert c.same_plan == (code is not None and same_plan(state, line, code))
        if c.same_plan:
            assert c.about_equal and c.move in found.about_equal and c.move in found.plan[1:]
    result = run(["hint", "-", "--iterations", "6000", "--top", "1000", "--workers", "1", "--seed", str(seed)],
                 stdin=pos.dumps())
    assert result.exit_code == 0, result.output
    for c in same:
        assert re.search(rf"^= {re.escape(c.move)} ", result.stdout, re.M)
    assert "= a later move of the plan: played first, the plan reaches the same position" in result.stdout


def test_candidates_show_intervals_and_every_move_about_equal_to_the_best():
    from kanaloa.play.hint import ERROR_SCALE, about_equal

    found = hint_of(midgame(2), iterations=6000, top=1)
    best = found.candidates[0]
    assert best.move == found.move and best.about_equal and found.about_equal[0] == best.move
    assert [c.move for c in found.candidates if c.about_equal] == list(found.about_equal)
    assert len(found.about_equal) > 1  # at this budget some moves are not told apart
    assert all(c.about_equal for c in found.candidates[1:])  # beyond --top 1: only those about equal
    for c in found.candidates:
        lo, hi = c.interval
        assert lo == pytest.approx(max(0.0, c.win - 1.96 * c.error))
        assert hi == pytest.approx(min(1.0, c.win + 1.96 * c.error))
        # ERROR_SCALE times the results' spread: the binomial error at most (its results are 0 or 1 where the
        # games were played to the end, win chances between where the rollouts were cut short)
        assert 0.0 < c.error <= ERROR_SCALE * (c.win * (1 - c.win) / c.visits) ** 0.5 + 1e-12
        assert (about_equal(best, c) or c.same_plan) == c.about_equal
    everyone = hint_of(midgame(2), iterations=6000, top=1000)
    unequal = [c for c in everyone.candidates if not c.about_equal]
    assert unequal and all(not about_equal(best, c) and not c.same_plan for c in unequal)
    assert everyone.about_equal == found.about_equal


@pytest.mark.parametrize("players", [4, 2])
def test_the_gains_say_what_the_plan_takes(players):
    """The gains agree with the position after the plan, on the positions of the first seeds until two of their
    plans have taken an island.

    (Which plans take one depends on the search's settings: with those of now, seeds 38 and 60 with four players,
    24 and 25 with two.)"""

    def standing(p, color):
        live = p.state
        c = p.colors.index(color)
        final = p.round not in (0, 1)
        return (sum(1 for i in range(p.board.n_islands) if live.controller_of(i) == c), p.scores[color],
                live.points_if_scored(final)[c])

    taken = []
    for seed in range(200):
        pos = midgame(seed, players=players)
        found = hint_of(pos, seed=1)
        mover = pos.to_move
        assert list(found.gains) == list(pos.colors_of(mover))
        before = {color: standing(pos, color) for color in found.gains}
        for move in found.plan:
            pos.play(move)
        for color, gain in found.gains.items():
            now, after = gain.now, gain.after
            assert (now.islands, now.score, now.if_scored) == before[color], seed
            assert (after.islands, after.score, after.if_scored) == standing(pos, color), seed
        if any(g.after.islands > g.now.islands and g.after.if_scored > g.now.if_scored for g in found.gains.values()):
            taken.append(seed)
            if len(taken) == 2:
                break
    else:
        pytest.fail(f"the plans of 200 positions took an island {len(taken)} times, not 2")


def test_the_gains_in_the_final_round_count_the_final_scoring():
    """R10, R11: in the final round the islands would score with the final +1 each; the plan that ends
    the game leaves nothing more to score, and the score after it is the final score."""
    from kanaloa.position import Position

    pos = Position.new(players=3, seed=2)
    rng = random.Random(2)
    while pos.round != "final":
        pos.push(rng.choice(pos.state.legal_actions()))
    while not pos.is_over:
        found = hint_of(pos, iterations=100)
        (color, gain), = found.gains.items()
        c = pos.colors.index(color)
        assert gain.now.if_scored == pos.state.points_if_scored(True)[c] > pos.state.points_if_scored(False)[c] or \
            gain.now.islands == 0
        for move in found.plan:
            pos.play(move)
    assert (gain.after.score, gain.after.if_scored) == (pos.scores[color], 0)


def test_expected_points_name_every_color():
    pos = midgame(1, players=2)
    found = hint_of(pos)
    assert list(found.expected_points) == list(pos.scores)  # each player's first color, then its second
    for c in found.candidates:
        assert list(c.points) == list(pos.scores)
        assert all(0 <= p <= 200 for p in c.points.values())
    # The whole search's mean is the visit-weighted mean of its moves'.
    everyone = hint_of(pos, top=1000)
    for color in pos.scores:
        weighted = sum(c.points[color] * c.visits for c in everyone.candidates) / ITERATIONS
        assert everyone.expected_points[color] == pytest.approx(weighted)


# -- anytime: progress and stopping --------------------------------------------------------


@pytest.mark.parametrize("workers", [1, 2])
def test_progress_is_reported_while_searching(workers):
    from kanaloa.play.hint import format_progress

    pos = midgame(3)
    seen = []
    # A long budget that the search gives up once it has reported three times: however loaded the machine,
    # it reports (about every PROGRESS_EVERY seconds) until it is stopped.
    found = hint_of(pos, iterations=None, seconds=60, progress=seen.append, workers=workers,
                    stop=lambda: len(seen) >= 3)
    assert len(seen) >= 3 and found.interrupted
    assert [p.iterations for p in seen] == sorted(p.iterations for p in seen) and seen[-1].iterations > 100
    assert all(p.move in pos.move_strings() and 0.0 <= p.win <= 1.0 for p in seen)
    assert seen[-1].iterations <= found.iterations
    text = format_progress(seen[-1])
    assert text.startswith(f"searching: {seen[-1].iterations:,} iterations, ") and seen[-1].move in text


def test_the_progress_line_is_drawn_only_on_a_terminal():
    import io

    from kanaloa.interfaces.cli import _HintMeter
    from kanaloa.play.hint import HintProgress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    early, later = HintProgress(500, 0.5, "draw", 0.25), HintProgress(2000, 1.5, "draw", 0.25)
    pipe = _HintMeter(io.StringIO(), expect_long=True)
    assert not pipe.live
    tty = _HintMeter(Terminal(), expect_long=False)
    assert tty.live
    tty.show(early)
    assert tty.stream.getvalue() == ""  # a search under a second shows nothing
    tty.show(later)
    assert tty.stream.getvalue() == "\rsearching: 2,000 iterations, 1.5 s; best so far draw (win 25.0%)\x1b[K"
    tty.close()
    assert tty.stream.getvalue().endswith("\r\x1b[K")
    long = _HintMeter(Terminal(), expect_long=True)
    long.show(early)
    assert "500 iterations" in long.stream.getvalue()
    # Never wider than the terminal (80 columns when its width cannot be read): a wrapped line would not redraw.
    long.show(HintProgress(2000, 1.5, "blue: HILO-RASI/HILO+RASI" * 3, 0.25))
    assert len(long.stream.getvalue().split("\r")[-1]) == 79 + len("\x1b[K")


@pytest.mark.parametrize("workers", [1, 2])
def test_stop_ends_the_search_with_the_best_so_far(workers):
    pos = midgame(3)
    started = time.perf_counter()
    found = hint_of(pos, iterations=None, seconds=30, workers=workers,
                    stop=lambda: time.perf_counter() - started > 0.3)
    assert time.perf_counter() - started < 3
    assert found.interrupted and found.iterations > 16
    assert found.move in pos.move_strings()
    check_plan_ends_the_turn(pos, found.plan)


def check_plan_ends_the_turn(pos, plan):
    mover = pos.to_move
    for move in plan:
        assert pos.to_move == mover
        pos.play(move)
    assert pos.to_move != mover or pos.is_over


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_stops_the_search_and_a_second_one_aborts(workers):
    """In the process: the first SIGINT stops the search (the hint comes back), a second raises
    KeyboardInterrupt; the previous handler is back afterwards, and no worker is left running."""
    import multiprocessing

    before = signal.getsignal(signal.SIGINT)
    pos = midgame(3)

    def interrupt(times):
        def on_progress(p):
            for _ in range(times):
                os.kill(os.getpid(), signal.SIGINT)
        return on_progress

    found = hint_of(pos, iterations=None, seconds=30, workers=workers, progress=interrupt(1), interruptible=True)
    assert found.interrupted and found.seconds < 5 and found.move in pos.move_strings()
    assert signal.getsignal(signal.SIGINT) is before
    with pytest.raises(KeyboardInterrupt):
        hint_of(pos, iterations=None, seconds=30, workers=workers, progress=interrupt(2), interruptible=True)
    assert signal.getsignal(signal.SIGINT) is before
    assert not multiprocessing.active_children()


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.parametrize("workers, as_json", [(2, True), (1, False)])
def test_ctrl_c_prints_the_hint_found_so_far_with_status_130(tmp_path, workers, as_json):
    """The command on a terminal: its progress line shows on standard error; Ctrl-C then stops the search,
    the line is erased, and the hint found so far is printed with exit status 130."""
    import select

    path = tmp_path / "mid.json"
    pos = midgame(3)
    path.write_text(pos.dumps())
    args = [sys.executable, "-m", "kanaloa", "hint", str(path), "--time", "30", "--workers", str(workers)]
    terminal, stderr = os.openpty()
    proc = subprocess.Popen(args + (["--json"] if as_json else []), stdout=subprocess.PIPE, stderr=stderr,
                            text=True)
    os.close(stderr)
    shown = b""
    give_up = time.monotonic() + 60
    while b"searching: " not in shown and time.monotonic() < give_up and proc.poll() is None:
        if select.select([terminal], [], [], 0.2)[0]:
            try:
                shown += os.read(terminal, 4096)
            except OSError:  # the command closed its standard error: it ended
                break
    assert b"searching: " in shown and b"best so far " in shown, shown
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    while select.select([terminal], [], [], 0.1)[0]:
        try:
            chunk = os.read(terminal, 4096)
        except OSError:  # the other end is closed
            break
        if not chunk:
            break
        shown += chunk
    os.close(terminal)
    assert proc.returncode == 130, shown
    assert shown.endswith(b"\r\x1b[K") and b"error" not in shown  # the live line erased, nothing else said
    if as_json:
        doc = json.loads(out)
        assert doc["interrupted"] is True and doc["workers"] == workers
        assert doc["move"] in pos.move_strings() and doc["seconds"] < 20
    else:
        assert out.startswith("move: ")
        assert re.search(r"^search interrupted after \d+ iterations \([\d.]+ s on 1 worker\): the best found so far$",
                         out, re.M)


# -- the command: new options and keys -------------------------------------------------------


@pytest.mark.parametrize("value", ["-2", "1.5", "two", "", str(max_workers() + 1)])
def test_command_bad_workers_is_one_error_line_with_status_2(tmp_path, value):
    path = tmp_path / "mid.json"
    path.write_text(midgame(5).dumps())
    result = run(["hint", str(path), "--iterations", "50", "--workers", value])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --workers ") and result.stderr.count("\n") == 1
    assert f"must be a whole number from 0 to {max_workers()} (0: one per core; at most 4 per core" in result.stderr
    assert "Traceback" not in result.output


def test_command_workers_zero_means_one_per_core_as_in_every_command():
    from kanaloa.play.pools import default_workers

    result = run(["hint", "-", "--iterations", "200", "--workers", "0", "--json"], stdin=midgame(5).dumps())
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["workers"] == default_workers()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--iterations", "99999999999999999999999"],
         "error: --iterations 99999999999999999999999: must be a whole number from 1 to 1,000,000,000"),
        (["--time", "1e400"], "error: --time inf: must be a number of seconds above 0 and at most 86,400 (a day)"),
        (["--time", "86401"], "error: --time 86401.0: must be a number of seconds above 0 and at most 86,400 (a day)"),
    ],
)
def test_command_budgets_beyond_their_bounds_are_refused_at_once(tmp_path, args, message):
    """A budget of 10**22 iterations was accepted and searched until killed, silently when piped."""
    path = tmp_path / "mid.json"
    path.write_text(midgame(5).dumps())
    started = time.monotonic()
    result = run(["hint", str(path), *args])
    assert result.exit_code == 2 and result.stderr == message + "\n"
    assert time.monotonic() - started < 10


def test_command_says_what_a_long_search_will_take_when_stderr_is_no_terminal(tmp_path, monkeypatch):
    from kanaloa.play import hint as hint_module
    from kanaloa.play.limits import LONG_ITERATIONS

    seen = {}

    def spy(position, **options):
        seen.update(options)
        return real(position, **{**options, "iterations": 100, "seconds": None})

    real = hint_module.hint
    monkeypatch.setattr(hint_module, "hint", spy)
    path = tmp_path / "mid.json"
    path.write_text(midgame(5).dumps())
    result = run(["hint", str(path), "--iterations", str(2 * LONG_ITERATIONS), "--workers", "2"])
    assert result.exit_code == 0, result.output
    assert result.stderr == f"kanaloa hint: searching {2 * LONG_ITERATIONS:,} iterations on 2 workers...\n"
    assert seen["iterations"] == 2 * LONG_ITERATIONS
    short = run(["hint", str(path), "--iterations", "100", "--workers", "2"])
    assert short.exit_code == 0 and short.stderr == ""  # a short search says nothing
    timed = run(["hint", str(path), "--time", "30", "--workers", "1"])
    assert timed.stderr == "kanaloa hint: searching 30 s on 1 worker...\n"


def test_command_json_has_the_new_keys():
    pos = midgame(7)
    result = run(["hint", "-", "--iterations", "400", "--seed", "4", "--workers", "2", "--json"], stdin=pos.dumps())
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["workers"] == 2 and doc["interrupted"] is False and doc["nodes"] > 0
    assert doc["about_equal"][0] == doc["move"]
    assert [c["move"] for c in doc["candidates"] if c["about_equal"]] == doc["about_equal"]
    first = doc["candidates"][0]
    assert first["interval"][0] <= first["win"] <= first["interval"][1] and first["error"] > 0
    assert list(first["points"]) == list(doc["expected_points"]) == list(pos.scores)
    assert list(doc["gains"]) == [pos.to_move]
    assert doc["gains"][pos.to_move] == {
        "now": doc["gains"][pos.to_move]["now"], "after": doc["gains"][pos.to_move]["after"]}
    assert set(doc["gains"][pos.to_move]["now"]) == {"islands", "score", "if_scored"}


def test_command_help_states_the_defaults_the_code_uses():
    from kanaloa.play.hint import ABOUT_EQUAL_MIN_SHARE, DEFAULT_SECONDS, HINT_SETTINGS, NODE_BYTES

    text = " ".join(run(["hint", "--help"]).stdout.split())
    assert f"takes {DEFAULT_SECONDS:g} seconds on all cores" in text
    assert f"[default: {DEFAULT_SECONDS:g}, when no --iterations is given]" in text
    assert f"at least {ABOUT_EQUAL_MIN_SHARE:.0%} of the best's visits" in text
    megabytes = HINT_SETTINGS.max_nodes * NODE_BYTES // 1_000_000
    assert f"stops growing at {HINT_SETTINGS.max_nodes:,} nodes (about {megabytes} MB)" in text


def test_command_defaults_to_two_seconds_on_every_core(tmp_path, monkeypatch):
    from kanaloa.play import hint as hint_module

    seen = {}
    real = hint_module.hint

    def spy(position, **options):
        seen.update(options)
        return real(position, **{**options, "seconds": 0.2})

    monkeypatch.setattr(hint_module, "hint", spy)
    from kanaloa.play import limits

    monkeypatch.setattr(limits, "default_workers", lambda: 3)
    path = tmp_path / "mid.json"
    path.write_text(midgame(5).dumps())
    result = run(["hint", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert seen["seconds"] == hint_module.DEFAULT_SECONDS == 2.0 and seen["iterations"] is None
    assert seen["workers"] == 3 and json.loads(result.stdout)["workers"] == 3


def test_the_readme_shows_what_the_command_prints():
    """The README's hint example is the real output of its command (all but the time it took)."""
    import shlex
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    block = re.search(r"^```console\n\$ (kanaloa hint .*?)\n(.*?)^```", readme, re.M | re.S)
    assert block, "README.md has no console example of kanaloa hint"
    args = shlex.split(block.group(1))[1:]
    assert "--iterations" in args and "--workers" in args  # a reproducible run
    root = Path(__file__).resolve().parent.parent
    args = [str(root / a) if a.endswith(".json") else a for a in args]
    result = run(args)
    assert result.exit_code == 0, result.output
    shown, printed = block.group(2).splitlines(), result.stdout.splitlines()
    assert printed[:-1] == shown[:-1]
    timing = re.compile(r"(\d+) iterations in [\d.]+ s on (\d+) workers?")
    assert timing.fullmatch(printed[-1]).groups() == timing.fullmatch(shown[-1]).groups()


@pytest.mark.parametrize("puzzle_id", ["eleven-01", "eleven-02", "eleven-03", "eleven-08"])
def test_a_win_this_turn_is_proven_played_and_said(puzzle_id):
    """R8: where eleven islands are within reach this turn, the hint proves the win, suggests a move of it
    first, plays the whole winning line as its plan, and says "wins for certain"."""
    from kanaloa.position import Position
    from kanaloa.tools.tactics import load_suite

    puzzle = next(p for p in load_suite().puzzles if p.id == puzzle_id)
    pos = Position.from_json(puzzle.position)
    mover = pos.to_move
    found = hint_of(pos, iterations=5000, seed=1)
    first = found.candidates[0]
    assert first.proven and first.move == found.move and found.move in puzzle.best
    assert found.about_equal == tuple(c.move for c in found.candidates if c.proven)
    for move in found.plan:
        pos.play(move)
    assert pos.is_over and pos.outcome["reason"] == "eleven islands"
    assert pos.outcome["winner"] == mover
    text = run(["hint", "--iterations", "5000", "--workers", "1", "-"], stdin=json.dumps(puzzle.position)).stdout
    assert f"{found.move}" in text and "wins for certain" in text.splitlines()[3]
