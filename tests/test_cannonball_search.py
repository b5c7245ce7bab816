"""Cannonball Colony behind the search protocol (kanaloa.cannonball.search) and its greedy player
(kanaloa.cannonball.greedy), on the reference rules and, when it is built, on the compiled core (R20)."""

from __future__ import annotations

import inspect
import random
from typing import Any

import pytest

from kanaloa.cannonball.core import CoreState
from kanaloa.cannonball.greedy import GreedyCannonball, move_scores
from kanaloa.cannonball.island import new_game
from kanaloa.cannonball.reference import ReferenceState, play
from kanaloa.cannonball.search import (
    CannonballGame,
    CannonballSearchState,
    cannonball_search,
    default_engine,
    engine_data,
)
from kanaloa.cannonball.state import (
    BLOCKADE,
    CANNON_1,
    CANNON_2,
    CANNON_BUILD,
    FIRE,
    FORT_BUILD,
    GRASS,
    NO_SPACE,
    NOBODY,
    REASON_SUPPLY,
    REASON_TEN_FORTS,
    ROAD,
    ROUND_PLAY,
    CannonballData,
    decode,
    encode,
)
from kanaloa.search import ISMCTS, MCTS


def _engines() -> list[Any]:
    """The reference, and the compiled core where it is built."""
    return [ReferenceState] + ([] if CoreState is None else [CoreState])


ENGINES = _engines()
ENGINE_IDS = [engine.__name__ for engine in ENGINES]


# -- hand-drawn positions ---------------------------------------------------------------------------------

COLUMNS, ROWS = 6, 12


def _at(column: int, row: int) -> int:
    return row * COLUMNS + column


# Seat 0's nine forts, each on a road space of its own with grass around (no path links them, R20.7), and
# a road from the fort at e5 up to e9: e9 is four steps from it, the one space a tenth fort may take.
NINE_FORTS = [_at(c, r) for r in (0, 2, 4) for c in (0, 2, 4)]
CHAIN = [_at(4, 5), _at(4, 6), _at(4, 7), _at(4, 8)]
TENTH = CHAIN[-1]
# Seat 1's nine forts, apart from each other and from seat 0's road, on seat 0's landing board (as the
# whole island is but seat 1's landing space): seat 1 wins the tie-break of R20.10 (fewer forts at home).
RIVAL_FORTS = [_at(c, r) for r, columns in ((9, (1, 3, 5)), (10, (0, 2, 4)), (11, (1, 3, 5))) for c in columns]


def nine_forts(supply: int = 1) -> CannonballData:
    """Two players on an all-grass 6 x 12 island in the play round, seat 0 to move: both with nine forts
    on the island, seat 0 with one fort build left (on ``TENTH``, which wins at once, R20.10) besides roads,
    cannons and its blockade; seat 1 with roads only.  With the last road tile left, any other move of seat
    0 loses: its road ends the game, and else seat 1's road does, seat 1 winning the tie-break."""
    spaces = COLUMNS * ROWS
    ships = [_at(5, 0), _at(0, 9)]
    d = CannonballData(
        players=2, columns=COLUMNS, rows=ROWS, terrain=[GRASS] * spaces,
        board_of=[1 if space == ships[1] else 0 for space in range(spaces)], seed=0, round=ROUND_PLAY,
        to_move=0, ships=ships, road=[False] * spaces, fort=[NOBODY] * spaces,
        cannon=[NOBODY] * spaces, blockade=[NOBODY] * spaces, earned=[CANNON_1 | CANNON_2 | BLOCKADE, 0],
        supply=supply)
    for space in [*NINE_FORTS, *CHAIN, *RIVAL_FORTS, *ships]:
        d.road[space] = True
    for seat, forts in enumerate((NINE_FORTS, RIVAL_FORTS)):
        for space in forts:
            d.fort[space] = seat
    return d


def landed(players: int, seed: int, supply: int | None = None) -> CannonballData:
    """A new game after its landing round, each seat on its first legal landing space."""
    s = ReferenceState(new_game(players, seed))
    while s.round != ROUND_PLAY:
        s.apply(s.legal_actions()[0])
    d = s.to_data()
    if supply is not None:
        d.supply = supply
    return d


# -- the adapter ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES, ids=ENGINE_IDS)
def test_whole_games_with_mcts(engine: Any) -> None:
    for players, seed, policy in ((2, 3, "heuristic"), (3, 5, "random"), (4, 8, "heuristic")):
        game = cannonball_search(policy, engine=engine)
        data = new_game(players, seed)
        data.supply = 20 if engine is ReferenceState else data.supply  # a shorter game on the slow engine
        world = game.wrap(data)
        moves = 0
        while not world.is_terminal():
            search = MCTS(seed=moves) if moves % 2 else ISMCTS(seed=moves, prior=0.5)
            action = search.search(world, iterations=6).best_action
            assert action in world.legal_actions()
            world.apply_action(action)
            moves += 1
        assert moves > players
        returns = world.returns()
        assert sum(returns) == pytest.approx(1.0)
        assert all(r >= 0 for r in returns)
        assert len(world.points()) == players and all(-1 <= m <= 1 for m in world.margins())


@pytest.mark.parametrize("engine", ENGINES, ids=ENGINE_IDS)
def test_clone_independence(engine: Any) -> None:
    world = cannonball_search(engine=engine).wrap(landed(2, 11))
    before, moves = engine_data(world.state), world.legal_actions()
    twin = world.clone()
    twin.apply_action(twin.legal_actions()[0])
    assert engine_data(world.state) == before and world.legal_actions() == moves
    other = world.resample(1, 99)
    assert engine_data(other.state) == before  # nothing is hidden: a sample is the state itself
    other.rollout(5)
    assert other.is_terminal() and not world.is_terminal()
    assert engine_data(world.state) == before


@pytest.mark.parametrize("engine", ENGINES, ids=ENGINE_IDS)
def test_rollouts_are_seeded(engine: Any) -> None:
    for policy in ("heuristic", "random"):
        world = cannonball_search(policy, engine=engine).wrap(landed(3, 2))
        ends = []
        for _ in range(2):
            twin = world.clone()
            twin.rollout(1234)
            assert twin.is_terminal()
            ends.append(engine_data(twin.state))
        assert ends[0] == ends[1]


@pytest.mark.parametrize("engine", ENGINES, ids=ENGINE_IDS)
def test_returns_sum_to_one_and_shared_victories_split(engine: Any) -> None:
    game = cannonball_search("random", engine=engine)
    for seed in range(6):
        world = game.wrap(landed(2 + seed % 3, seed))
        assert world.returns() == [0.0] * world.num_players()  # nothing yet while the game is on
        world.rollout(seed)
        assert sum(world.returns()) == pytest.approx(1.0)
    for players in (2, 3, 4):
        # The last road tile ends the game with nothing built: every key is equal and all share (R20.10).
        world = game.wrap(landed(players, 4, supply=1))
        world.apply_action(world.legal_actions()[0])
        assert world.is_terminal() and world.state.reason == REASON_SUPPLY
        assert world.state.winners == list(range(players))
        assert world.returns() == pytest.approx([1.0 / players] * players)


def test_protocol_faces_of_a_perfect_information_game() -> None:
    world = cannonball_search().wrap(nine_forts())
    moves = world.legal_actions()
    assert world.public_actions(1) == moves and world.public_actions(0) == moves
    priors = world.priors(1)
    assert len(priors) == len(moves) and all(0 <= p <= 1 for p in priors)
    fort = moves.index(encode(FORT_BUILD, TENTH))
    assert priors[fort] == max(priors)
    assert world.points() == [9.0, 9.0] and world.margins() == [0.0, 0.0]
    assert world.apply_public(encode(FORT_BUILD, TENTH), 1, random.Random(0)) == encode(FORT_BUILD, TENTH)
    assert world.is_terminal() and world.state.reason == REASON_TEN_FORTS
    assert world.returns() == [1.0, 0.0]


@pytest.mark.parametrize("engine", ENGINES, ids=ENGINE_IDS)
def test_mcts_finds_the_tenth_fort(engine: Any) -> None:
    world = cannonball_search(engine=engine).wrap(nine_forts())
    forts = [a for a in world.legal_actions() if decode(a)[0] == FORT_BUILD]
    assert forts == [encode(FORT_BUILD, TENTH)]  # one fort build among roads, cannons and the blockade
    assert len(world.legal_actions()) > 10
    road = next(a for a in world.legal_actions() if decode(a)[0] == ROAD)
    lost = world.clone()
    lost.apply_action(road)
    assert lost.returns() == [0.0, 1.0]  # the last road tile: seat 1 wins the tie-break
    for policy in ("heuristic", "random"):
        result = cannonball_search(policy, engine=engine).wrap(nine_forts()).clone()
        found = MCTS(seed=3).search(result, iterations=300)
        assert found.best_action == encode(FORT_BUILD, TENTH)
    assert engine_data(world.state).forts_on_island(0) == 9  # the search left the state alone


def test_factory_mirrors_the_family_search_face() -> None:
    family = pytest.importorskip("kanaloa.play.game").family_search
    ours = list(inspect.signature(cannonball_search).parameters)
    assert ours[: len(inspect.signature(family).parameters)] == list(inspect.signature(family).parameters)
    game = cannonball_search("random", False, True, 40)  # as the hint's settings call it, a cut included
    assert isinstance(game, CannonballGame) and game.policy == "random"
    assert game.engine is default_engine()
    assert isinstance(game.wrap(nine_forts()), CannonballSearchState)
    with pytest.raises(ValueError, match="policy"):
        cannonball_search("clever")
    with pytest.raises(ValueError, match="cut"):
        cannonball_search(cut=-1)
    with pytest.raises(ValueError, match="cut"):
        cannonball_search(cut=2.5)


class _Rolling(ReferenceState):
    """An engine with a rollout of its own, as the compiled core has: it plays the state itself to the end."""

    calls = 0

    def rollout(self, seed: int, heuristic: bool = False) -> int:
        type(self).calls += 1
        rng, moves = random.Random(seed), 0
        while not self.is_over:
            legal = self.legal_actions()
            play(self.data, legal[rng.randrange(len(legal))])
            moves += 1
        return moves


def test_rollout_uses_the_engine_s_own_rollout_and_else_plays_in_python() -> None:
    for engine in (_Rolling, ReferenceState):
        game = cannonball_search(engine=engine)
        world = game.wrap(landed(2, 6))
        _Rolling.calls = 0
        for seed in range(3):
            twin = world.clone()
            twin.rollout(seed)
            assert twin.is_terminal() and not world.is_terminal()
        assert _Rolling.calls == (3 if engine is _Rolling else 0)


def test_the_core_s_rollout_plays_the_state_itself_as_its_playout_plays_a_copy() -> None:
    core = pytest.importorskip("cannonball_core")
    state = core.CoreState.from_data(landed(2, 6))
    twin = state.copy()
    moves = state.playout(5, True)
    assert twin.rollout(5, True) == moves and twin.is_over and not state.is_over


# -- the greedy player ------------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES, ids=ENGINE_IDS)
def test_greedy_prefers_a_fort_to_a_road(engine: Any) -> None:
    state = engine.from_data(nine_forts())
    moves = state.legal_actions()
    assert any(decode(a)[0] == ROAD for a in moves) and any(decode(a)[0] == CANNON_BUILD for a in moves)
    assert GreedyCannonball().choose(state, random.Random(0)) == encode(FORT_BUILD, TENTH)
    assert engine_data(state) == nine_forts()  # the player changes nothing


@pytest.mark.parametrize("engine", ENGINES, ids=ENGINE_IDS)
def test_greedy_shoots_when_it_can(engine: Any) -> None:
    d = nine_forts()
    d.cannon[CHAIN[1]] = 0  # seat 0's cannon on e7 covers column e upward
    target = _at(4, 10)  # seat 1's fort on e11, in range
    state = engine.from_data(d)
    assert encode(FIRE, target) in state.legal_actions()
    greedy = GreedyCannonball(None, 400)
    assert greedy.choose(state, random.Random(1)) == encode(FIRE, target)
    state.apply(encode(FIRE, target))
    assert greedy.choose(state, random.Random(1)) == encode(FORT_BUILD, TENTH)  # then the build


def test_greedy_shoots_the_leader_first() -> None:
    # Three players on an all-grass island; seat 0's cannon on b1 has both forts of row 1 in range: spain's
    # (one fort on the island) and portugal's (three, the leader).
    spaces = COLUMNS * ROWS
    d = CannonballData(
        players=3, columns=COLUMNS, rows=ROWS, terrain=[GRASS] * spaces,
        board_of=[min(space // (spaces // 3), 2) for space in range(spaces)], seed=0, round=ROUND_PLAY,
        to_move=0, ships=[_at(0, 0), NO_SPACE, NO_SPACE], road=[False] * spaces, fort=[NOBODY] * spaces,
        cannon=[NOBODY] * spaces, blockade=[NOBODY] * spaces, earned=[CANNON_1, 0, 0], supply=30)
    d.cannon[_at(1, 0)] = 0
    for space, owner in ((_at(3, 0), 1), (_at(5, 0), 2), (_at(0, 10), 2), (_at(3, 10), 2)):
        d.fort[space] = owner
    for space in (_at(0, 0), _at(1, 0), _at(3, 0), _at(5, 0), _at(0, 10), _at(3, 10)):
        d.road[space] = True
    state = ReferenceState(d)
    shots = sorted(a for a in state.legal_actions() if decode(a)[0] == FIRE)
    assert shots == [encode(FIRE, _at(3, 0)), encode(FIRE, _at(5, 0))]
    assert GreedyCannonball().choose(state, random.Random(0)) == encode(FIRE, _at(5, 0))


def test_greedy_scores_follow_the_tiers() -> None:
    d = nine_forts()
    for space in RIVAL_FORTS:  # nothing of seat 1 in reach of seat 0's cannons
        d.fort[space], d.road[space] = NOBODY, False
    moves = ReferenceState(d).legal_actions()
    scores = dict(zip(moves, move_scores(d, moves), strict=True))
    fort = scores[encode(FORT_BUILD, TENTH)]
    assert all(fort > score for action, score in scores.items() if decode(action)[0] != FORT_BUILD)
    roads = [score for action, score in scores.items() if decode(action)[0] == ROAD]
    idle = [score for action, score in scores.items() if decode(action)[0] == CANNON_BUILD]
    assert roads and idle and min(roads) > max(idle)  # a cannon covering nothing is worth less than a road


def test_greedy_beats_random() -> None:
    greedy, wins = GreedyCannonball(), 0.0
    for seed in range(40):
        state, rng, seat = ReferenceState(new_game(2, seed)), random.Random(seed), seed % 2
        while not state.is_over:
            moves = state.legal_actions()
            state.apply(greedy.choose(state, rng) if state.to_move == seat else moves[rng.randrange(len(moves))])
        if seat in state.winners:
            wins += 1.0 / len(state.winners)
    assert wins / 40 > 0.6


def test_greedy_lands_on_a_legal_space_and_changes_nothing() -> None:
    state = ReferenceState(new_game(2, 1))
    greedy, rng = GreedyCannonball(), random.Random(2)
    action = greedy.choose(state, rng)
    assert action in state.legal_actions()
    assert state.to_data().ships[0] == NO_SPACE  # choosing a landing changes nothing
