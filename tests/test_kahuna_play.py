"""Kahuna (R16) above the rules: the core's playouts and heuristic, the bots, the search behind
hints, bot-vs-bot tournaments and their records, and the benchmark's Kahuna figures.

The rules themselves are tested in ``test_rules_r16.py`` and the two engines
against each other in ``test_differential.py``.
"""

from __future__ import annotations

import random

import pytest

import kanaloa_core
from cli_helpers import run
from cli_helpers import user_error as assert_user_error
from kanaloa.errors import OptionError
from kanaloa.play import records as R
from kanaloa.play import simulate as S
from kanaloa.play import tournament as T
from kanaloa.play.bots import parse_bot_spec
from kanaloa.play.game import KanaloaGame
from kanaloa.play.hint import hint_state
from kanaloa.position import Position
from kanaloa.rules import actions as A
from kanaloa.rules.board import load_board
from kanaloa.rules.core import core_board
from kanaloa.rules.registry import load_game
from kanaloa.rules.ruleset import ruleset_for_state
from kanaloa.rules.state import (
    GAME_KAHUNA,
    KAHUNA_BRIDGES,
    NO_OWNER,
    PRESET_TABLETOP,
    PRESET_YUCATA,
    REASON_NO_BRIDGES,
    ROUND_1,
    ROUND_2,
    ROUND_OVER,
)
from kanaloa.search import ISMCTS
from kanaloa.tools import benchmark as B
from play_helpers import SMALL, play_out


@pytest.fixture(scope="module")
def kahuna():
    return load_board("kahuna")


def deal(board, seed: int):
    return kanaloa_core.CoreState.deal(core_board(board), 2, PRESET_YUCATA, seed, game=GAME_KAHUNA)


def play(board, specs, seed: int):
    """One Kahuna game of the bots ``specs`` (by seat) from deal ``seed``; the final core state."""
    return play_out(board, deal(board, seed), specs, seed, 2000)


def black_down_to_one_bridge(board, last: int, white_bridge: int):
    """Deal 3 after the first scoring (round 2), white to move: black's only bridge is on link ``last``,
    white's on link ``white_bridge``, and white holds both ends of ``last``, so it may remove it (R16.3)."""
    data = deal(board, 3).to_data()
    data.round = ROUND_2
    data.bridges = [NO_OWNER] * board.n_links
    data.bridges[last] = 1
    data.bridges[white_bridge] = 0
    a, b = board.links[last]
    spare = [x for x in range(board.n_islands) if data.hands[0][x] > 0]
    for x in spare[:2]:
        data.hands[0][x] -= 1
        data.deck.append(x)
    data.deck.remove(a)
    data.deck.remove(b)
    data.hands[0][a] += 1
    data.hands[0][b] += 1
    return kanaloa_core.CoreState.from_data(core_board(board), data)


# -- the core: dealing checks, playouts, heuristic ---------------------------------------------------


def test_the_core_deals_kahuna_only_for_two_players_and_without_a_preset(kahuna):
    tables = core_board(kahuna)
    with pytest.raises(ValueError, match="players: Kahuna is a game for 2 players"):
        kanaloa_core.CoreState.deal(tables, 3, PRESET_YUCATA, 1, game=GAME_KAHUNA)
    with pytest.raises(ValueError, match="preset: Kahuna has no tabletop preset"):
        kanaloa_core.CoreState.deal(tables, 2, PRESET_TABLETOP, 1, game=GAME_KAHUNA)
    with pytest.raises(ValueError, match="game: must be from 0 to 1"):
        kanaloa_core.CoreState.deal(tables, 2, PRESET_YUCATA, 1, game=2)


@pytest.mark.parametrize("policy", [kanaloa_core.POLICY_RANDOM, kanaloa_core.POLICY_HEURISTIC])
def test_playouts_end_every_kahuna_game_with_the_cards_intact(kahuna, policy):
    for seed in range(200):
        state = deal(kahuna, seed)
        state.playout(seed, policy)
        data = state.to_data()
        assert data.round == ROUND_OVER and len(data.ranking) == 2
        cards = [sum(h) for h in data.hands] + [len(data.deck), len(data.face_up), len(data.discard_open),
                                                 sum(sum(h) for h in data.hidden_by)]
        assert sum(cards) == kahuna.n_cards
        assert all(sum(h) <= 5 for h in data.hands)  # R16.5


def test_random_games_in_c_play_the_same_games_as_move_by_move(kahuna):
    games, moves = kanaloa_core.random_games(core_board(kahuna), 2, PRESET_YUCATA, 20, 5, GAME_KAHUNA)
    assert games == 20
    assert moves == B.play_games(load_game("kahuna", board=kahuna), 20, 5)


def test_the_heuristic_scores_a_move_that_leaves_the_opponent_without_bridges_first(kahuna):
    """R16.8: after the first scoring, removing the opponent's last bridge wins at once; the playout
    policy and the search's priors must see that."""
    last = 0
    state = black_down_to_one_bridge(kahuna, last, 5)
    moves, values = state.legal_actions(), state.move_values()
    best = moves[values.index(max(values))]
    assert A.kind_of(best) == A.REMOVE and A.arg_a(best) == last
    after = state.copy()
    after.apply(best)
    assert after.is_over and after.winner == 0 and after.to_data().reason == REASON_NO_BRIDGES


def test_no_place_is_offered_with_all_25_bridges_on_the_board(kahuna):
    """R16.1: a player with no bridge left in stock cannot place, but may still remove."""
    data = deal(kahuna, 4).to_data()
    data.bridges = [0] * KAHUNA_BRIDGES + [1, NO_OWNER]
    data.round = ROUND_1
    state = kanaloa_core.CoreState.from_data(core_board(kahuna), data)
    assert not [a for a in state.legal_actions() if A.kind_of(a) == A.PLACE]


# -- the bots and the search ------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(SMALL))
def test_every_bot_finishes_whole_kahuna_games_in_both_seats(kahuna, name):
    for seed in range(2):
        specs = [SMALL[name], "random"] if seed % 2 == 0 else ["random", SMALL[name]]
        state = play(kahuna, specs, seed)
        assert state.is_over and sorted(state.ranking) == [0, 1]


def test_greedy_beats_random_at_kahuna(kahuna):
    wins = sum(play(kahuna, ["greedy", "random"] if s % 2 == 0 else ["random", "greedy"], 50 + s).winner
               == s % 2 for s in range(10))
    assert wins >= 8


@pytest.mark.parametrize("name", ["random", "greedy", "pimc", "ismcts", "hint"])
def test_a_kahuna_bot_plays_the_same_whatever_it_cannot_see(kahuna, name):
    """The opponent's unseen cards and the deck order do not change a bot's choice."""
    state = deal(kahuna, 9)
    rng = random.Random(9)
    while True:
        state.apply(rng.choice(state.legal_actions()))
        data = state.to_data()
        other = 1 - data.to_move
        if sum(data.hands[other]) > sum(data.public[other]) and len(data.deck) > 2:
            break
    twin = data.copy()
    hidden = next(x for x in range(kahuna.n_islands) if twin.hands[other][x] > twin.public[other][x])
    swap_in = next(x for x in twin.deck if x != hidden)
    twin.hands[other][hidden] -= 1
    twin.hands[other][swap_in] += 1
    twin.deck[twin.deck.index(swap_in)] = hidden
    twin.deck.reverse()
    choices = []
    for s in (state, kanaloa_core.CoreState.from_data(core_board(kahuna), twin)):
        bot = parse_bot_spec(SMALL[name])
        bot.start(ruleset_for_state(kahuna, twin), 5)
        choices.append(bot.choose(s))
    assert choices[0] == choices[1]


def test_the_search_wins_at_once_where_it_can(kahuna):
    """ISMCTS over Kahuna: a removal that leaves the opponent without bridges after the first scoring
    (R16.8) ends the game with the mover's win, and the search proves it."""
    state = black_down_to_one_bridge(kahuna, 0, 7)
    result = ISMCTS(c=0.7, seed=1).search(KanaloaGame().wrap(state), 400)
    best = result.best_action
    assert A.kind_of(best) == A.REMOVE and A.arg_a(best) == 0
    assert result.candidates()[0].proven


def test_a_hint_on_a_kahuna_position_names_its_moves_in_kahuna_notation(kahuna):
    from kanaloa.rules.engine import load_engine

    pos = Position.new(game="kahuna", seed=12)
    hint = hint_state(pos.on(load_engine("core")).state, kahuna, iterations=300, seed=1, colors=pos.colors)
    assert hint.move in pos.move_strings()
    assert set(hint.gains) == {pos.to_move}
    assert set(hint.expected_points) == {"white", "black"}


# -- tournaments and records -------------------------------------------------------------------------


def test_a_kahuna_tournament_records_replay_to_the_same_end(kahuna):
    t = T.make_tournament(["greedy", "random:seed=3"], 6, seed=8, game="kahuna")
    assert t.ruleset.board.name == "kahuna" and t.ruleset.seat_names == ("white", "black")
    run_ = S.run_tournament(t, keep_records=True)
    assert run_.games == 6
    for record in run_.records:
        doc = record.to_json()
        assert doc["ruleset"] == "kahuna" and doc["colors"] == ["white", "black"]
        again = R.GameRecord.from_json(record.dumps())
        assert again == record
        pos = R.replay(again)
        assert pos.is_over
        assert doc["reason"] in ("points", "no bridges")
    assert "--game kahuna" in run_.records[0].new_command()
    assert "Kahuna" in run_.summary()
    summary = run_.to_json()
    assert summary["game"] == "kahuna" and set(summary["reasons"]) == {"points", "no bridges"}


def test_a_kahuna_record_without_a_winner_reads_back(kahuna):
    t = T.make_tournament(["random:seed=1", "random:seed=2"], 2, seed=1, game="kahuna")
    record = T.play_game(t, 0)
    doc = record.to_json()
    doc["winner"] = None
    doc["reason"] = "points"
    assert R.GameRecord.from_json(doc).winner == -1
    doc["reason"] = "no bridges"
    with pytest.raises(OptionError, match="field 'winner' is null"):
        R.GameRecord.from_json(doc)
    doc["reason"] = "eleven islands"
    doc["winner"] = 0
    with pytest.raises(OptionError, match="field 'reason' must be one of points, no bridges"):
        R.GameRecord.from_json(doc)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"bots": ["random"] * 3, "games": 3}, "3 bot\\(s\\), one per seat; Kahuna is for 2 players"),
    ({"bots": ["random"] * 2, "games": 2, "preset": "tabletop"}, "Kahuna has no presets"),
    ({"bots": ["random"] * 2, "games": 2, "game": "kahoona"}, "--game 'kahoona': unknown"),
])
def test_kahuna_tournaments_refuse_what_kahuna_has_not(kwargs, message):
    kwargs = {"seed": 1, "game": "kahuna", **kwargs}
    with pytest.raises(OptionError, match=message):
        T.make_tournament(kwargs.pop("bots"), kwargs.pop("games"), **kwargs)


def test_simulate_plays_kahuna_from_the_command_line():
    out = run("simulate", "--game", "kahuna", "--bots", "greedy,random", "--games", "4", "--seed", "3",
              "--workers", "1", "--json")
    import json

    summary = json.loads(out.stdout)
    assert summary["game"] == "kahuna" and summary["games"] == 4
    assert [row["spec"] for row in summary["bots"]] == ["greedy", "random"]


def test_simulate_refuses_a_kahuna_lineup_of_three():
    assert_user_error(run("simulate", "--game", "kahuna", "--bots", "random,random,random", "--games", "3"),
                      "Kahuna is for 2 players")


# -- the benchmark ---------------------------------------------------------------------------------------

# The Kahuna signature moves only with Kahuna's rules (R16).
EXPECTED_SIGNATURE_KAHUNA = 1006


def test_the_kahuna_signature_is_the_same_in_every_engine_and_pinned(kahuna):
    assert [rs.board for rs in B.signature_sets()["signature_kahuna"].rulesets] == [kahuna]
    core = B.signature("signature_kahuna", "core")
    assert core == B.signature("signature_kahuna", "reference") == B.signature("signature_kahuna", "api")
    assert core == EXPECTED_SIGNATURE_KAHUNA


def test_a_kahuna_disagreement_is_reported():
    report = B.BenchReport(board="oro", quick=True, signatures={
        "signature_kahuna": B.Tally("Kahuna signature", 8, {"core": 5, "reference": 6}, "R16")})
    assert not report.agrees
    assert "Kahuna signature core 5, reference 6" in report.table()
