"""Cannonball Colony's rollouts cut short: the core's cut features, phases and ``CutModel``, the shipped models
and their reader, the search adapter's ``cut``, and fitting through the ``cutfit`` face (docs/cannonball.md,
"Rollouts cut short").

The features are checked against the reference implementation's own counting (R20.5-R20.10), the estimate
against the model's formula written out in Python, the shipped models against games they were not fitted on.
"""

from __future__ import annotations

import copy
import json
import math
import random
import re
from collections import deque
from importlib import resources

import pytest
from click.testing import CliRunner

from kanaloa.cannonball.core import CoreState, CutModel

pytestmark = pytest.mark.skipif(CoreState is None, reason="the compiled core cannonball_core is not built")

# The modules below need the core (the reader refuses a file without it); imported after the mark.
from kanaloa.cannonball.cut import (  # noqa: E402
    MODELS_FILE,
    MODELS_FORMAT,
    model_for_island,
    read_models,
    ruleset_key,
    shipped_models,
)
from kanaloa.cannonball.cut_fit import CANNONBALL_FIT  # noqa: E402
from kanaloa.cannonball.island import Tile, builtin_tiles, load_tile  # noqa: E402
from kanaloa.cannonball.reference import (  # noqa: E402
    ReferenceState,
    cannons_built,
    cannons_earned,
    fort_distance,
    fort_problem,
    in_range,
    neighbours,
    network,
    victory_shares,
)
from kanaloa.cannonball.ruleset import make_cannonball  # noqa: E402
from kanaloa.cannonball.search import cannonball_search  # noqa: E402
from kanaloa.cannonball.state import (  # noqa: E402
    BLOCKADE,
    FOREST,
    FORT_SPACING,
    GRASS,
    NO_SPACE,
    NOBODY,
    ROAD_TILES,
    ROUND_LANDING,
    ROUND_OVER,
    CannonballData,
)
from kanaloa.play.bots import parse_bot_spec  # noqa: E402
from kanaloa.play.settings import HINT_SETTINGS  # noqa: E402
from kanaloa.rules.registry import game_type  # noqa: E402

PHASES, FEATURES = CutModel.shape()
NAMES = CutModel.feature_names()


def played(players: int, seed: int, moves: int, uniform_every: int = 0) -> CoreState:
    """A game dealt from ``seed`` after ``moves`` moves of the heuristic policy (every ``uniform_every``-th a
    uniformly random one, for other states than the policy makes), or at its end."""
    state = CoreState.from_data(make_cannonball(players=players).new_game(seed))
    rng = random.Random(seed)
    for i in range(moves):
        if state.is_over:
            break
        legal = state.legal_actions()
        if uniform_every and i % uniform_every == 0:
            state.apply(legal[rng.randrange(len(legal))])
        else:
            state.apply(state.heuristic_action(rng.getrandbits(63)))
    return state


def zeros_model(players: int) -> CutModel:
    return CutModel(players, [[0.0] * FEATURES] * PHASES, [[0.0] * (FEATURES + 1)] * PHASES)


# -- the features and the phases, counted the reference's way ----------------------------------------------


def _steps_within(d: CannonballData, start: int, through: set[int], limit: int) -> set[int]:
    """The spaces at most ``limit`` orthogonal steps from ``start`` whose spaces on the way (not the last)
    are in ``through``."""
    seen, queue = {start: 0}, deque([start])
    while queue:
        space = queue.popleft()
        if seen[space] == limit or (space != start and space not in through):
            continue
        for n in neighbours(d, space):
            if n not in seen:
                seen[n] = seen[space] + 1
                queue.append(n)
    return set(seen)


def _distances(d: CannonballData, sources: set[int], through: set[int]) -> dict[int, int]:
    seen = dict.fromkeys(sources, 0)
    queue = deque(sources)
    while queue:
        space = queue.popleft()
        for n in neighbours(d, space):
            if n in through and n not in seen:
                seen[n] = seen[space] + 1
                queue.append(n)
    return seen


def reference_features(d: CannonballData) -> list[list[float]]:
    """Every seat's cut features (``CutModel.feature_names``), counted with the reference's rules."""
    players, spaces = d.players, range(d.spaces)
    land = {x for x in spaces if d.terrain[x] in (GRASS, FOREST)}
    ships = {ship for ship in d.ships if ship != NO_SPACE}
    taken = ships | {x for x in spaces if d.fort[x] != NOBODY or d.cannon[x] != NOBODY or d.blockade[x] != NOBODY}
    nets = [network(d, seat) for seat in range(players)]
    ranges = [in_range(d, seat) for seat in range(players)]
    free = {x for x in land if not d.road[x] and x not in ships}
    reach = []
    for seat in range(players):
        sources = set(nets[seat]) | ({d.ships[seat]} if d.ships[seat] != NO_SPACE else set())
        reach.append(_distances(d, sources, free))
    rows = []
    for seat in range(players):
        own = [x for x in spaces if d.fort[x] == seat]
        opp_range = set().union(*(ranges[o] for o in range(players) if o != seat))
        others_ships = {ship for o, ship in enumerate(d.ships) if o != seat and ship != NO_SPACE}
        frontier = {n for x in nets[seat] for n in neighbours(d, x)
                    if n in land and not d.road[n] and n not in others_ships}
        sites = {x for x in frontier - opp_range
                 if all((steps := fort_distance(d, x, fort)) is None or steps > FORT_SPACING for fort in own)}
        near = set().union(*(_steps_within(d, fort, land, FORT_SPACING) for fort in own))
        room = land - taken - opp_range - near
        mine = 0
        for x in free:
            if x in reach[seat] and all(x not in reach[o] or reach[o][x] > reach[seat][x]
                                        for o in range(players) if o != seat):
                mine += 1
        to_move = 0 if d.round == ROUND_OVER else (seat - d.to_move) % players
        rows.append([
            len(own),
            sum(1 for x in own if d.board_of[x] == seat),
            cannons_built(d, seat) + sum(1 for owner in d.blockade if owner == seat),
            sum(1 for x in own if x in opp_range),
            sum(1 for x in ranges[seat] if d.fort[x] not in (NOBODY, seat)),
            cannons_earned(d, seat) - cannons_built(d, seat),
            1 if d.earned[seat] & BLOCKADE and seat not in d.blockade else 0,
            len(nets[seat]),
            len(frontier),
            len(sites),
            sum(1 for x in spaces if fort_problem(d, seat, x, nets[seat]) is None),
            len(room),
            len(room - {x for x in spaces if d.road[x]}),
            mine,
            to_move,
        ])
    return rows


def test_the_feature_names_are_the_cores_and_fifteen():
    assert len(NAMES) == FEATURES == 15
    assert NAMES[0] == "forts" and NAMES[-1] == "seats_to_move"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cut_features_are_the_reference_counts(players):
    """Over games of the heuristic policy mixed with random moves, from the landing round to the last tiles:
    every feature of every seat as the reference counts it."""
    checked = 0
    seen: set[int] = set()
    rows: list[list[float]] = []
    length = {2: 74, 3: 108, 4: 140}[players]  # about the moves of a game
    for seed in range(8):
        for share in (0.01, 0.15, 0.35, 0.55, 0.75, 0.85, 0.95):
            state = played(players, 100 * players + seed, int(share * length), uniform_every=3 if seed % 2 else 0)
            if state.is_over:
                continue
            d = state.to_data()
            phase, features = state.cut_features()
            assert features == reference_features(d), (seed, share)
            seen.add(phase)
            rows.extend(features)
            checked += 1
    assert checked >= 40
    assert len(seen) >= 5
    # Every feature was something else than 0 somewhere (forts under fire and the blockade too).
    assert [name for k, name in enumerate(NAMES) if not any(row[k] for row in rows)] == []


def test_the_features_of_a_finished_game_and_of_the_landing_round():
    state = played(2, 3, 10_000)
    assert state.is_over
    phase, features = state.cut_features()
    assert phase == PHASES - 1 and features == reference_features(state.to_data())
    assert all(row[NAMES.index("seats_to_move")] == 0 for row in features)
    start = played(3, 3, 1)  # seat 0 has landed
    phase, features = start.cut_features()
    assert phase == 0 and features == reference_features(start.to_data())
    assert [row[NAMES.index("seats_to_move")] for row in features] == [2, 0, 1]


@pytest.mark.parametrize("players", [2, 4])
def test_the_phases_follow_the_landing_round_and_the_road_tiles_laid(players):
    """Phase 0 is the landing round (R20.4); then the road tiles laid (R20.3) in seven equal parts."""
    total = ROAD_TILES[players]
    seen = set()
    for seed in range(4):
        state = played(players, seed, 0)
        rng = random.Random(seed)
        while not state.is_over:
            phase, _ = state.cut_features()
            if state.round == ROUND_LANDING:
                assert phase == 0
            else:
                assert phase == 1 + (PHASES - 1) * (total - state.supply) // total
            seen.add(phase)
            state.apply(state.heuristic_action(rng.getrandbits(63)))
    assert seen == set(range(PHASES))


# -- the estimate ------------------------------------------------------------------------------------------


def _shipped_entries() -> list[dict]:
    return json.loads(resources.files("kanaloa.cannonball").joinpath(MODELS_FILE).read_text("utf-8"))["models"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_estimate_and_playout_cut_are_the_models_formula(players):
    rules = make_cannonball(players=players)
    model = shipped_models()[ruleset_key(rules)]
    entry = next(e for e in _shipped_entries() if e["players"] == players)
    assert model.weights() == (entry["win"], entry["points"])
    checked = 0
    for seed in range(12):
        state = played(players, seed, 4 + 5 * seed)
        cut = state.copy()
        result = cut.playout_cut(seed, True, 15, model)
        if result is None:
            assert cut.is_over
            continue
        assert result == cut.estimate(model)
        wins, points = result
        phase, features = cut.cut_features()
        scores = [sum(w * f for w, f in zip(entry["win"][phase], row, strict=True)) for row in features]
        top = max(scores)
        total = sum(math.exp(s - top) for s in scores)
        assert wins == pytest.approx([math.exp(s - top) / total for s in scores], abs=1e-12)
        assert sum(wins) == pytest.approx(1.0)
        assert points == pytest.approx([sum(w * f for w, f in zip(entry["points"][phase], [*row, 1.0], strict=True))
                                        for row in features], abs=1e-9)
        checked += 1
    assert checked >= 8


def test_a_cut_is_the_start_of_the_rollout():
    """A cut as long as the whole rollout or longer ends the game as the rollout does (None); one move
    shorter leaves it one move before that end; a cut of 0 judges the state itself and leaves it alone."""
    model = zeros_model(3)
    for seed in range(6):
        state = played(3, seed, 20)
        whole = state.copy()
        moves = whole.rollout(seed, True)
        for plies in (moves, moves + 1, 10**9):
            cut = state.copy()
            assert cut.playout_cut(seed, True, plies, model) is None
            assert cut.to_data() == whole.to_data()
        short = state.copy()
        assert short.playout_cut(seed, True, moves - 1, model) is not None
        assert not short.is_over
        uniform, cut = state.copy(), state.copy()
        moves = uniform.rollout(seed, False)
        assert cut.playout_cut(seed, False, moves, model) is None
        assert cut.to_data() == uniform.to_data()
    state = played(3, 1, 40)
    before = state.to_data()
    assert state.playout_cut(5, True, 0, model) == ([1 / 3] * 3, [0.0] * 3)
    assert state.to_data() == before


def test_a_model_of_forts_alone_favours_the_seat_with_most_forts():
    phases, width = CutModel.shape()
    win = [[1.0 if k == 0 else 0.0 for k in range(width)]] * phases
    points = [[2.0 if k == 0 else 0.0 for k in range(width)] + [1.0]] * phases
    model = CutModel(4, win, points)
    state = next(s for seed in range(20) if len(set((s := played(4, seed, 90)).forts)) > 1)
    wins, expected = state.estimate(model)
    assert expected == [2.0 * f + 1.0 for f in state.forts]
    assert wins.index(max(wins)) == state.forts.index(max(state.forts))


# -- refusals ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players, win, points, message", [
    (1, None, None, r"players: 1 is not an integer from 2 to 4"),
    (5, None, None, r"players: 5 is not an integer from 2 to 4"),
    ("2", None, None, r"players: '2' is not an integer"),
    (True, None, None, r"players: True is not an integer"),
    (2, "win", None, rf"win: must be {PHASES} rows, one a phase"),
    (2, [[0.0] * FEATURES] * (PHASES - 1), None, rf"win: must be {PHASES} rows"),
    (2, None, [[0.0] * FEATURES] * PHASES, rf"points\[0\]: must be {FEATURES + 1} numbers"),
    (2, [[0.0] * FEATURES] * (PHASES - 1) + [[0.0] * (FEATURES - 1)], None, rf"win\[{PHASES - 1}\]: must be"),
    (2, [[math.nan] + [0.0] * (FEATURES - 1)] * PHASES, None, r"win\[0\]\[0\]: must be a finite number, not nan"),
    (2, None, [[0.0] * FEATURES + [math.inf]] * PHASES, rf"points\[0\]\[{FEATURES}\]: must be a finite number"),
    (2, [["x"] + [0.0] * (FEATURES - 1)] * PHASES, None, r"win\[0\]\[0\]: must be a finite number, not 'x'"),
    (2, [[True] + [0.0] * (FEATURES - 1)] * PHASES, None, r"win\[0\]\[0\]: must be a finite number, not True"),
])
def test_cut_model_refuses_malformed_weights(players, win, points, message):
    win = [[0.0] * FEATURES] * PHASES if win is None else win
    points = [[0.0] * (FEATURES + 1)] * PHASES if points is None else points
    with pytest.raises(ValueError, match=f"^{message}"):
        CutModel(players, win, points)


def test_a_model_of_another_player_count_and_bad_arguments_are_refused():
    state = played(3, 2, 30)
    before = state.to_data()
    for players in (2, 4):
        with pytest.raises(ValueError, match=rf"^model: fitted for {players} players; this game has 3$"):
            state.playout_cut(1, True, 10, zeros_model(players))
        with pytest.raises(ValueError, match=rf"^model: fitted for {players} players; this game has 3$"):
            state.estimate(zeros_model(players))
    model = zeros_model(3)
    with pytest.raises(ValueError, match=r"^plies: -1 is not an integer"):
        state.playout_cut(1, True, -1, model)
    with pytest.raises(ValueError, match=r"^plies: 2.5 is not an integer"):
        state.playout_cut(1, True, 2.5, model)
    with pytest.raises(ValueError, match=r"^heuristic: 1 is not true or false"):
        state.playout_cut(1, 1, 10, model)
    with pytest.raises(ValueError, match=r"^seed: 'x' is not an integer"):
        state.playout_cut("x", True, 10, model)
    with pytest.raises(TypeError):
        state.playout_cut(1, True, 10, None)
    with pytest.raises(ValueError, match=r"^share: must be between 0 and 1, not 1.5"):
        state.sampled_playout(1, True, 2, 1.5)
    assert state.to_data() == before  # nothing was played
    over = played(3, 2, 10_000)
    with pytest.raises(ValueError, match=r"^estimate: the game is over$"):
        over.estimate(model)


def _entry(**changes):
    entry = copy.deepcopy(_shipped_entries()[0])
    for key, value in changes.items():
        if value is KeyError:
            del entry[key]
        else:
            entry[key] = value
    return entry


@pytest.mark.parametrize("document, message", [
    ({"format": "kanaloa-cut-models/2", "models": []}, r"^format: must be 'cannonball-cut-models/1'$"),
    ([], r"^format: must be"),
    ({"format": MODELS_FORMAT, "models": {}}, r"^models: must be a list$"),
    ({"format": MODELS_FORMAT, "models": [3]}, r"^models\[0\]: must be an object$"),
    ({"format": MODELS_FORMAT, "models": [_entry(win=KeyError)]}, r"^models\[0\]: win is missing$"),
    ({"format": MODELS_FORMAT, "models": [_entry(tiles=KeyError)]}, r"^models\[0\]: tiles is missing$"),
    ({"format": MODELS_FORMAT, "models": [_entry(game="kanaloa")]},
     r"^models\[0\]: game: must be 'cannonball', not 'kanaloa'$"),
    ({"format": MODELS_FORMAT, "models": [_entry(players=5)]}, r"^models\[0\]: players 5: Cannonball Colony is for 2"),
    ({"format": MODELS_FORMAT, "models": [_entry(tiles=["meadow", "atlantis"])]},
     r"^models\[0\]: tiles: tile 'atlantis'"),
    ({"format": MODELS_FORMAT, "models": [_entry(policy="random")]},
     r"^models\[0\]: policy: must be 'heuristic', the rollouts' policy, not 'random'$"),
    ({"format": MODELS_FORMAT, "models": [_entry(games=-1)]},
     r"^models\[0\]: games: must be a whole number, 0 or more, not -1$"),
    ({"format": MODELS_FORMAT, "models": [_entry(seed="7")]},
     r"^models\[0\]: seed: must be a whole number, 0 or more, not '7'$"),
    ({"format": MODELS_FORMAT, "models": [_entry(features=["forts"])]},
     r"^models\[0\]: features: must be forts, forts_at_home, .*, the core's features in order$"),
    ({"format": MODELS_FORMAT, "models": [_entry(win=[[0.0] * FEATURES] * 3)]},
     rf"^models\[0\]: win: must be {PHASES} rows"),
    ({"format": MODELS_FORMAT, "models": [_entry(points=[[0.0] * (FEATURES + 1)] * (PHASES - 1) + [[1e9] * 16])]},
     rf"^models\[0\]: points\[{PHASES - 1}\]\[0\]: must be a finite number, not 1000000000.0$"),
    ({"format": MODELS_FORMAT, "models": [_entry(), _entry(players=3), _entry(tiles=list(reversed(builtin_tiles())))]},
     r"^models\[2\]: a second model for 2 players on the same tiles$"),
])
def test_read_models_names_the_entry_and_the_field(document, message):
    with pytest.raises(ValueError, match=message):
        read_models(document)


def test_a_broken_shipped_file_is_refused_when_a_cutting_search_is_made(tmp_path, monkeypatch):
    import kanaloa.cannonball.cut as cut

    entry = _entry(policy="random")
    (tmp_path / MODELS_FILE).write_text(json.dumps({"format": MODELS_FORMAT, "models": [entry]}), "utf-8")
    monkeypatch.setattr(cut.resources, "files", lambda package: tmp_path)
    cut.shipped_models.cache_clear()
    try:
        cannonball_search(cut=0)  # no cut: the file is not read
        cannonball_search("random", cut=40)
        with pytest.raises(ValueError, match=r"^cut_models.json: models\[0\]: policy: must be 'heuristic'"):
            cannonball_search(cut=40)
    finally:
        cut.shipped_models.cache_clear()


# -- the shipped models ------------------------------------------------------------------------------------


def test_the_shipped_models_cover_two_three_and_four_players_on_the_builtin_tiles():
    models = shipped_models()
    assert sorted(key[0] for key in models) == [2, 3, 4]
    for entry in _shipped_entries():
        assert entry["tiles"] == builtin_tiles()
        assert entry["games"] == CANNONBALL_FIT.default_games and entry["seed"] == CANNONBALL_FIT.default_seed
        assert entry["features"] == NAMES and entry["policy"] == "heuristic"
        assert entry["samples"] > 100_000


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_shipped_models_beat_even_chances_late_in_games_they_were_not_fitted_on(players):
    """Held-out games (dealt from a seed far from the fitting's): per phase, the model's log loss of each
    seat's share of the victory (R20.10) against the even chances' log(players); late in a game well below,
    and the expected forts closer to the final ones than their mean is."""
    rules = make_cannonball(players=players)
    model = shipped_models()[ruleset_key(rules)]
    win, points = model.weights()
    samples = CANNONBALL_FIT.samples(rules, 150, 7_777_777_777)
    loss = [0.0] * PHASES
    count = [0] * PHASES
    squared = [0.0] * PHASES
    finals: list[list[float]] = [[] for _ in range(PHASES)]
    for phase, features, shares, final in zip(samples.phases, samples.features, samples.shares, samples.points,
                                              strict=True):
        scores = [sum(w * f for w, f in zip(win[phase], row, strict=True)) for row in features]
        top = max(scores)
        total = sum(math.exp(s - top) for s in scores)
        loss[phase] -= sum(t * (s - top - math.log(total)) for t, s in zip(shares, scores, strict=True))
        count[phase] += 1
        for row, forts in zip(features, final, strict=True):
            guess = sum(w * f for w, f in zip(points[phase], [*row, 1.0], strict=True))
            squared[phase] += (guess - forts) ** 2
            finals[phase].append(forts)
    even = math.log(players)
    for phase in (PHASES - 3, PHASES - 2, PHASES - 1):
        assert count[phase] > 100
        assert loss[phase] / count[phase] < even * (0.95 if phase == PHASES - 3 else 0.85), phase
    last = PHASES - 1
    mean = sum(finals[last]) / len(finals[last])
    assert squared[last] < 0.5 * sum((f - mean) ** 2 for f in finals[last])


# -- the sampled playout -----------------------------------------------------------------------------------


def test_the_sampled_playout_is_the_rollout_and_its_samples_are_seeded():
    state = played(4, 9, 12)
    whole = state.copy()
    moves = whole.rollout(31, True)
    first, again, other = state.copy(), state.copy(), state.copy()
    taken = first.sampled_playout(31, True, 77, 0.2)
    assert taken == again.sampled_playout(31, True, 77, 0.2)
    assert first.to_data() == again.to_data() == whole.to_data()
    assert taken != other.sampled_playout(31, True, 78, 0.2)
    assert 0 < len(taken) < moves
    every = state.copy().sampled_playout(31, True, 77, 1.0)
    assert len(every) == moves and every[0] == state.cut_features()
    assert state.copy().sampled_playout(31, True, 77, 0.0) == []
    assert all(sample in every for sample in taken)


def test_fitting_samples_give_each_winner_its_share():
    rules = make_cannonball(players=4)
    samples = CANNONBALL_FIT.samples(rules, 60, 123)
    assert samples == CANNONBALL_FIT.samples(rules, 60, 123)
    assert all(sum(shares) == pytest.approx(1.0) for shares in samples.shares)
    shares = {tuple(s) for s in samples.shares}
    assert any(sorted(s)[-1] < 1.0 for s in shares), "a shared victory (R20.10) came up"
    for shares_row, points in zip(samples.shares, samples.points, strict=True):
        best = [seat for seat, s in enumerate(shares_row) if s > 0]
        assert shares_row == victory_shares(best, 4)
        assert all(points[seat] == max(points) for seat in best)  # the winners have the most forts (R20.10)
    assert samples.features == samples.color_features


# -- the search adapter ------------------------------------------------------------------------------------


def test_the_adapter_cuts_heuristic_rollouts_where_a_model_fits():
    for players in (2, 3, 4):
        state = played(players, 4, 8)
        game = cannonball_search(cut=40)
        world = game.wrap(state.copy())
        assert world.model is shipped_models()[ruleset_key(make_cannonball(players=players))]
        twin = world.clone()
        assert twin.model is world.model
        twin.rollout(11)
        assert twin.estimate is not None and twin.is_terminal() and not twin.state.is_over
        assert twin.returns() == twin.estimate[0] and twin.points() == twin.estimate[1]
        expected = state.copy()
        assert expected.playout_cut(11, True, 40, world.model) == twin.estimate
        margins = twin.margins()
        forts = twin.estimate[1]
        assert margins[0] == pytest.approx(max(-1.0, min(1.0, (forts[0] - max(forts[1:])) / 10)))
    # without a cut, with random rollouts: to the end
    for game in (cannonball_search(cut=0), cannonball_search("random", cut=40)):
        world = game.wrap(played(2, 4, 8))
        assert world.model is None
        world.rollout(11)
        assert world.estimate is None and world.state.is_over


def test_no_cut_on_the_reference_engine_nor_on_an_island_of_other_tiles():
    state = played(2, 4, 8)
    world = cannonball_search(cut=40, engine=ReferenceState).wrap(state.to_data())
    assert world.model is None
    world.rollout(3)
    assert world.state.is_over
    # An island with a tile the models were not fitted on: rollouts play to the end.
    meadow = load_tile("meadow")
    odd = Tile("odd", tuple(row.replace("l", "g") for row in meadow.rows))
    rules = make_cannonball(players=2, tiles=[odd, "ridge"])
    assert model_for_island(2, rules.new_game(1).terrain) is None
    world = cannonball_search(cut=40).wrap(CoreState.from_data(rules.new_game(1)))
    assert world.model is None
    # The built-in tiles in another order, turned as the seed draws them: a model fits.
    rules = make_cannonball(players=2, tiles=["twin-lakes", "bluffs", "marsh"])
    assert all(cannonball_search(cut=40).wrap(CoreState.from_data(rules.new_game(seed))).model is not None
               for seed in range(8))


def test_the_hint_cuts_its_rollouts_and_cut_0_does_not():
    rules = make_cannonball(players=2)
    state = played(2, 6, 10)
    assert HINT_SETTINGS.cut == 40
    assert HINT_SETTINGS.game(rules).wrap(state.copy()).model is not None
    for spec, cut in (("hint:time=0.05", True), ("hint:time=0.05:cut=0", False), ("ismcts:iterations=10", False)):
        bot = parse_bot_spec(spec)
        bot.start(rules, 0)
        assert (bot.game.wrap(state.copy()).model is not None) is cut, spec
    bot = parse_bot_spec("hint:iterations=60")
    bot.start(rules, 0)
    assert bot.choose(state.copy()) in state.legal_actions()


# -- fitting through the registry --------------------------------------------------------------------------


def test_heldout_loss_of_even_chances_is_log_players():
    pytest.importorskip("numpy")
    from kanaloa.tools.cutfit import heldout_loss

    samples = CANNONBALL_FIT.samples(make_cannonball(players=3), 20, 9)
    rows = heldout_loss(samples, [[0.0] * FEATURES] * PHASES)
    assert [phase for phase, *_ in rows] == sorted(set(samples.phases))
    assert sum(count for _, count, _, _ in rows) == len(samples.phases)
    assert all(loss == pytest.approx(math.log(3)) and even == pytest.approx(math.log(3)) for *_, loss, even in rows)


def test_the_cutfit_face_is_the_games():
    assert game_type("cannonball").face("cutfit") is CANNONBALL_FIT
    rules = CANNONBALL_FIT.rule_sets()
    assert [r.players for r in rules] == [2, 3, 4]
    assert CANNONBALL_FIT.shape(rules[0]) == (PHASES, FEATURES, FEATURES)
    assert CANNONBALL_FIT.head(rules[1]) == {"game": "cannonball", "players": 3, "tiles": builtin_tiles()}


def test_cutfit_refits_a_small_sample_byte_for_byte(tmp_path):
    pytest.importorskip("numpy")
    from kanaloa.tools.cutfit import main

    texts = []
    for name in ("a.json", "b.json"):
        out = tmp_path / name
        result = CliRunner().invoke(main, ["--game", "cannonball", "--only", "players=2", "--games", "150",
                                           "--seed", "5", "--out", str(out)])
        assert result.exit_code == 0, result.output
        texts.append(out.read_bytes())
    assert texts[0] == texts[1]
    document = json.loads(texts[0])
    assert document["format"] == MODELS_FORMAT
    [entry] = document["models"]
    assert (entry["players"], entry["games"], entry["seed"]) == (2, 150, 5)
    models = read_models(document)
    assert list(models) == [ruleset_key(make_cannonball(players=2))]
    # Forts on the island count for the winner late in the game (R20.10).
    assert entry["win"][PHASES - 1][NAMES.index("forts")] > 0
    result = CliRunner().invoke(main, ["--game", "cannonball", "--only", "players=2", "--games", "150",
                                       "--seed", "5", "--heldout", "40", "--out", str(tmp_path / "h.json")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "h.json").read_bytes() == texts[0]  # the check changes nothing in the file
    assert "held out: 40 games dealt from seed 155" in result.output
    assert re.search(r"phase 7: \d+ samples, log loss 0\.\d{4}, even chances 0\.6931 \(-\d+\.\d%\)", result.output)
    result = CliRunner().invoke(main, ["--game", "cannonball", "--only", "preset=yucata", "--out",
                                       str(tmp_path / "c.json")])
    assert result.exit_code == 2 and "'preset' names no parameter" in result.output
