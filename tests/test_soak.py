"""The differential soak (``kanaloa.tools.soak``, ``kanaloa soak``): it plays both engines side by side,
finds a planted difference in either the legal moves or the state, says how to replay it, and gives
the same figures for any number of workers."""

from __future__ import annotations

import json
import multiprocessing
import shlex

import pytest

from cli_helpers import run, user_error
from kanaloa.cannonball.position import CannonballPosition
from kanaloa.cannonball.reference import ReferenceState as CannonballReference
from kanaloa.cannonball.ruleset import make_cannonball
from kanaloa.cannonball.state import END as CANNONBALL_END
from kanaloa.cannonball.state import FOREST, GRASS, NO_SPACE, ROAD_TILES, ROUND_PLAY
from kanaloa.cannonball.state import FORT_BUILD as CANNONBALL_FORT
from kanaloa.cannonball.state import decode as cannonball_decode
from kanaloa.cannonball.state import encode as cannonball_encode
from kanaloa.position import Position
from kanaloa.rules import actions as A
from kanaloa.rules import reference
from kanaloa.rules.reference import ReferenceState
from kanaloa.rules.registry import game_types
from kanaloa.rules.rng import SplitMix64
from kanaloa.tools.soak import (
    CROWDED,
    FROM_DEAL,
    JUMP,
    KEPT,
    play_game,
    replay_game,
    run_soak,
    soak_game,
    soak_tables,
)

GAMES = 256  # eight blocks of four games per start cycle, so every start and table comes up


def _new(game) -> list[str]:
    """The arguments of the ``kanaloa new`` command that deals a soak game (its reproducer's)."""
    words = shlex.split(game.new_command())
    assert words[:2] == ["kanaloa", "new"]
    return words[2:]


def _figures(run) -> dict:
    """The soak's JSON without what depends on the machine (time, rate, workers)."""
    doc = run.to_json()
    for key in ("seconds", "games_per_s", "workers"):
        doc.pop(key)
    return doc


@pytest.fixture
def no_pass_in_reference(monkeypatch):
    """The reference never lets a player pass in the final round (R10); the core still does."""
    monkeypatch.setattr(ReferenceState, "_may_pass", lambda self: False)


def test_the_engines_agree_over_a_few_hundred_games_and_the_soak_counts_them():
    soak = run_soak(GAMES, seed=11)
    assert soak.diverged == 0 and soak.divergences == [], soak.summary()
    assert soak.games == GAMES and not soak.stopped and not soak.interrupted
    assert soak.starts == {FROM_DEAL: 192, CROWDED: 32, JUMP: 32}
    assert sum(soak.reasons.values()) == GAMES
    assert soak.reasons["eleven islands"] > 0, "no crowded game ended by eleven islands (R8)"
    assert 100 * GAMES < soak.moves < 250 * GAMES
    # one complete comparison at the start, one per turn handed on, one at the end
    assert GAMES * 2 < soak.states < soak.moves
    assert f"{GAMES} games, {soak.moves} moves, 0 divergences" in soak.summary()
    # each way the games ended, with the rules of the tables that have it (Kahuna's scoring is R16.7)
    assert (f"ended by points (R12, R16.7) {soak.reasons['points']}, by eleven islands (R8) "
            f"{soak.reasons['eleven islands']}") in soak.summary()


def test_each_kind_of_game_is_dealt_from_the_soak_seed():
    games = [soak_game(5, i) for i in range(32)]
    assert [(g.players, g.kind) for g in games[:4]] == [
        (3, "3p-yucata"), (4, "4p-yucata"), (3, "3p-tabletop"), (4, "4p-tabletop")]
    assert [g.start for g in games[::4]] == [FROM_DEAL] * 6 + [CROWDED, JUMP]
    assert len({g.seed for g in games}) == 32
    assert soak_game(5, 7) == games[7] and soak_game(6, 7).seed != games[7].seed


def test_a_wrong_legal_move_list_stops_the_soak_with_a_reproducer_that_replays(no_pass_in_reference):
    soak = run_soak(400, seed=3)
    assert soak.diverged == 1 and soak.stopped
    found = soak.divergences[0]
    # it stops at the first diverging game: every earlier game agreed
    assert soak.games == found.game.index + 1
    assert "only the core has [pass], only the reference []" in found.what
    text = found.reproducer()
    g = found.game
    for fragment in (f"game {g.index} of the soak with seed 3", f"deal seed {g.seed}", f"{g.players} players",
                     f"after {found.move} moves", "moves so far: [", f"replay: kanaloa soak --seed 3 --game {g.index}"):
        assert fragment in text, (fragment, text)

    # the replay command plays the same game to the same point
    again = run("soak", "--seed", "3", "--game", str(g.index))
    assert again.exit_code == 1, again.output
    assert f"after {found.move} moves: {found.what}" in again.stdout
    assert replay_game(3, g.index).divergence == found

    # and the moves so far lead the core to the position where it offers the pass the reference refused
    if g.start != CROWDED:
        assert f"the position (core): {g.new_command()} | kanaloa play - " in text
        dealt = run("new", *_new(g))
        reached = run("play", "-", *found.moves, input=dealt.stdout)
        assert reached.exit_code == 0, reached.output
        assert "pass" in run("moves", "-", input=reached.stdout).stdout.split("\n")


def test_a_wrong_state_is_found_when_the_turn_ends(monkeypatch):
    """A wrong score leaves the legal moves alone for a while; the comparison at the turn's end finds it."""
    honest = reference.island_value
    monkeypatch.setattr(reference, "island_value", lambda size, held, final: honest(size, held, final) + 1)
    soak = run_soak(40, seed=2)
    assert soak.diverged == 1
    found = soak.divergences[0]
    assert found.what.startswith("the states differ in 'scores'"), found.what
    assert found.moves[-1].startswith(("take", "draw", "end")), found.moves[-1]


def test_an_engine_that_raises_is_a_divergence(monkeypatch):
    honest = ReferenceState.apply

    def broken(self, action):
        if A.kind_of(action) == A.DISCARD:
            raise RuntimeError("planted")
        honest(self, action)

    monkeypatch.setattr(ReferenceState, "apply", broken)
    soak = run_soak(40, seed=2)
    assert soak.diverged == 1
    found = soak.divergences[0]
    assert found.what.startswith("an engine raised RuntimeError at test_soak.py:"), found.what
    assert found.what.endswith(": planted")
    assert found.moves[-1].startswith("discard ")


def test_keep_going_plays_every_game_and_counts_every_divergence(no_pass_in_reference):
    soak = run_soak(64, seed=3, keep_going=True)
    assert soak.games == 64 and not soak.stopped
    assert soak.diverged > 1
    assert len(soak.divergences) == min(soak.diverged, KEPT)
    indices = [d.game.index for d in soak.divergences]
    assert indices == sorted(indices)
    assert sum(soak.reasons.values()) == 64 - soak.diverged


def test_the_figures_do_not_depend_on_the_number_of_workers():
    one = run_soak(72, seed=9, workers=1)
    two = run_soak(72, seed=9, workers=2)
    assert two.workers == 2
    assert _figures(one) == _figures(two)


def test_zero_workers_means_one_per_core_and_more_than_four_a_core_are_refused():
    """--workers 0 means one per core in every command (hint refused it once); the bound is 4 a core."""
    from kanaloa.play.limits import SettingError, max_workers
    from kanaloa.play.pools import default_workers

    assert run_soak(8, seed=9, workers=0).workers == default_workers()
    result = run("soak", "--games", "8", "--seed", "4", "--workers", "0", "--json", "--no-progress")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["workers"] == default_workers()
    with pytest.raises(SettingError, match=r"^workers -1: must be a whole number from 0 to"):
        run_soak(8, seed=9, workers=-1)
    assert user_error(run("soak", "--games", "8", "--workers", str(max_workers() + 1))).startswith(
        f"error: --workers {max_workers() + 1}: must be a whole number from 0 to {max_workers()}")


def test_a_soak_of_any_length_starts_at_once():
    """The chunks of games are made one at a time, as the tournament's schedule is."""
    import itertools

    from kanaloa.tools.soak import _chunks

    chunks = _chunks(10**15, 2)
    assert iter(chunks) is chunks and list(itertools.islice(chunks, 2)) == [(0, 250), (250, 500)]


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork",
                    reason="the planted mistake reaches worker processes only when they are forked")
def test_the_first_divergence_is_the_same_for_any_number_of_workers(no_pass_in_reference):
    one = run_soak(200, seed=3, workers=1)
    two = run_soak(200, seed=3, workers=2)
    assert one.diverged == 1
    assert _figures(one) == _figures(two)
    kept_going = [run_soak(48, seed=3, workers=w, keep_going=True) for w in (1, 2)]
    assert _figures(kept_going[0]) == _figures(kept_going[1])


def test_the_command_reports_in_json():
    result = run("soak", "--games", "8", "--seed", "4", "--json", "--no-progress")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["games"] == 8 and doc["divergences"] == 0 and doc["seed"] == 4 and doc["findings"] == []
    assert doc["moves"] > 800 and doc["seconds"] > 0


def test_the_command_replays_one_game_that_agrees():
    result = run("soak", "--seed", "4", "--game", "6")
    assert result.exit_code == 0, result.output
    g = soak_game(4, 6)
    assert result.stdout.startswith(f"game 6 of the soak with seed 4: deal seed {g.seed}, {g.kind}, start: deal; "
                                    f"the engines agree over ")


def test_the_command_refuses_a_replay_without_its_seed():
    user_error(run("soak", "--game", "6"), "--game 6", "--seed")
    user_error(run("soak", "--games", "0"), "--games")


def test_the_soak_plays_two_players_too(no_pass_in_reference):
    """2-player games (R15) are in the cycle, and their reproducers write each build with its color."""
    assert [soak_game(5, i).kind for i in range(6)] == [
        "3p-yucata", "4p-yucata", "3p-tabletop", "4p-tabletop", "2p-yucata", "2p-tabletop"]
    soak = run_soak(96, seed=3, keep_going=True)
    found = next(d for d in soak.divergences if d.game.players == 2 and d.game.start != CROWDED)
    assert any(m.startswith(("blue: ", "yellow: ")) for m in found.moves)
    g = found.game
    dealt = run("new", *_new(g))
    reached = run("play", "-", *found.moves, input=dealt.stdout)
    assert reached.exit_code == 0, reached.output
    assert "pass" in run("moves", "-", input=reached.stdout).stdout.split("\n")


def test_the_soak_plays_every_registered_game(no_pass_in_reference):
    """After the first soaks' tables, every example rule set of every registered game: the gods (R14) and
    Kahuna (R16) too, each dealt as its reproducer's command deals it."""
    tables = soak_tables()
    assert [t for game in game_types() for t in game.example_rulesets() if t not in tables] == []
    kinds = [soak_game(5, i).kind for i in range(len(tables))]
    assert kinds == ["3p-yucata", "4p-yucata", "3p-tabletop", "4p-tabletop", "2p-yucata", "2p-tabletop",
                     "4p-yucata-gods", "3p-tabletop-gods", "2p-yucata-gods", "kahuna-2p",
                     "cannonball-2p", "cannonball-3p", "cannonball-4p"]
    gods, kahuna = soak_game(5, 6), soak_game(5, 9)
    assert gods.new_command() == f"kanaloa new --seed {gods.seed} --players 4 --preset yucata --gods"
    assert kahuna.new_command() == f"kanaloa new --seed {kahuna.seed} --game kahuna --players 2"
    for g in (gods, kahuna):
        dealt = run("new", *_new(g))
        assert dealt.exit_code == 0, dealt.output
        assert Position.from_json(dealt.stdout).ruleset == g.ruleset
        assert replay_game(5, g.index).divergence is None
    # a game with the gods diverges where the reference refuses the pass (Kahuna has none, R16.7)
    soak = run_soak(40, seed=3, keep_going=True)
    found = [d.game.kind for d in soak.divergences]
    assert any(kind.endswith("-gods") for kind in found) and "kahuna-2p" not in found


# -- Cannonball Colony (R20), through its position face ------------------------------------------------------

CANNONBALL = [i for i, t in enumerate(soak_tables()) if t.game == "cannonball"]


def cannonball_games(soak_seed: int, start: str, count: int) -> list:
    """The first ``count`` games of the soak with ``soak_seed`` that deal Cannonball Colony and begin with
    ``start``."""
    found = []
    index = 0
    while len(found) < count:
        g = soak_game(soak_seed, index)
        if g.ruleset.game == "cannonball" and g.start == start:
            found.append(g)
        index += 1
    return found


def test_cannonball_games_are_dealt_as_their_reproducer_s_command_deals_them():
    assert [soak_tables()[i].players for i in CANNONBALL] == [2, 3, 4]
    g = soak_game(5, CANNONBALL[1])
    assert g.kind == "cannonball-3p"
    assert g.new_command() == f"kanaloa new --seed {g.seed} --game cannonball --players 3"
    dealt = run("new", *_new(g))
    assert dealt.exit_code == 0, dealt.output
    assert json.loads(dealt.stdout) == CannonballPosition.deal(g.ruleset, g.seed).to_json()
    assert replay_game(5, g.index).divergence is None


def test_cannonball_s_crowded_island_lands_the_ships_and_scatters_roads():
    """The crowded start: the landing round played (R20.4), roads on free grass and forest only, a supply cut
    to between 1 and the full one (R20.3); the dealt game is left as it was."""
    rules = make_cannonball(players=3)
    data = rules.new_game(11)
    before = data.copy()
    crowded = rules.crowded(data, SplitMix64(4))
    assert data == before
    assert crowded.round == ROUND_PLAY and crowded.to_move == 0 and NO_SPACE not in crowded.ships
    roads = [space for space, road in enumerate(crowded.road) if road]
    assert roads and all(crowded.terrain[space] in (GRASS, FOREST) for space in roads)
    assert not set(roads) & set(crowded.ships)
    assert 1 <= crowded.supply <= ROAD_TILES[3]
    assert crowded == rules.crowded(before, SplitMix64(4))  # from its stream alone


def test_cannonball_crowded_starts_reach_every_ending_and_the_engines_agree():
    """Random play ends every game when the last road tile is laid; from a crowded island ten forts, every
    country passing and shared victories come up too (R20.10)."""
    outcomes = [play_game(g) for g in cannonball_games(2, CROWDED, 45)]
    assert [o.divergence for o in outcomes] == [None] * 45
    reasons = {o.reason for o in outcomes}
    assert reasons == {"ten-forts", "supply", "all-passed"}


def test_a_cannonball_move_only_the_core_offers_is_found_with_a_reproducer_that_replays(monkeypatch):
    """The reference never lets a turn end after its first grass road (R20.6); the core still does."""
    honest = CannonballReference.legal_actions
    monkeypatch.setattr(CannonballReference, "legal_actions",
                        lambda self: [a for a in honest(self) if a != cannonball_encode(CANNONBALL_END)])
    found = next(o.divergence for o in map(play_game, cannonball_games(3, FROM_DEAL, 40))
                 if o.divergence is not None)
    assert "only the core has [end], only the reference []" in found.what, found.what
    g = found.game
    text = found.reproducer()
    assert f"the position (core): {g.new_command()} | kanaloa play - " in text
    reached = run("play", "-", *found.moves, input=run("new", *_new(g)).stdout)
    assert reached.exit_code == 0, reached.output
    assert "end" in run("moves", "-", input=reached.stdout).stdout.split("\n")
    assert any(m.startswith("road ") for m in found.moves) and found.moves[-1].startswith("road ")


def test_a_wrong_cannonball_state_is_found_when_the_turn_ends(monkeypatch):
    """A fort that also takes a road tile (R20.3 says it does not) leaves the legal moves alone; the
    comparison of the states when the turn passes finds it."""
    from kanaloa.cannonball import reference as cannonball_reference

    honest = cannonball_reference.play

    def greedy_fort(d, action):
        honest(d, action)
        if cannonball_decode(action)[0] == CANNONBALL_FORT:
            d.supply -= 1

    monkeypatch.setattr(cannonball_reference, "play", greedy_fort)
    found = next(o.divergence for o in map(play_game, cannonball_games(3, FROM_DEAL, 40))
                 if o.divergence is not None)
    assert found.what.startswith("the states differ in 'supply'"), found.what
    assert found.moves[-1].startswith("fort "), found.moves
