"""Rollouts cut short: the core's cut features and ``CutModel``, the shipped models, the game adapter's
``cut``, and the fitting tool (docs/engine.md "Rollouts cut short").

The features are checked against the reference implementation's own
counting (R2, R11); the estimate against the model's formula written out in
Python; the shipped models against games they were not fitted on.
"""

from __future__ import annotations

import json
import math
import random
import re

import pytest
from click.testing import CliRunner

from kanaloa.errors import OptionError
from kanaloa.play.bots import parse_bot_spec as make_bot
from kanaloa.play.cut import MODELS_FORMAT, cut_model_for, model_key, read_models, shipped_models
from kanaloa.play.game import KanaloaGame
from kanaloa.play.settings import HINT_SETTINGS
from kanaloa.rules.board import load_board
from kanaloa.rules.core import POLICY_HEURISTIC, POLICY_RANDOM, CoreState, CutModel, core_board
from kanaloa.rules.reference import ReferenceState
from kanaloa.rules.ruleset import make_ruleset
from kanaloa.rules.state import GAME_KAHUNA, PRESET_TABLETOP, PRESET_YUCATA, seat_of_color
from kanaloa.search import ISMCTS

BUCKETS, FEATURES = CutModel.shape()


def played(board, players: int, seed: int, moves: int, gods: bool = False, game: int = 0,
           preset: int = PRESET_YUCATA) -> CoreState:
    """A game dealt from ``seed`` after ``moves`` heuristic moves (or at its end)."""
    state = CoreState.deal(core_board(board), players, preset, seed, game, gods)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(state.pick_action(rng.getrandbits(63), POLICY_HEURISTIC))
    return state


def oro_key(oro, players: int, preset: int = PRESET_YUCATA):
    return model_key(0, False, oro.links, oro.cards_per_island, players, preset)


def flat_model(players: int, win_row: list[float], points_row: list[float]) -> CutModel:
    return CutModel(players, [win_row] * BUCKETS, [points_row] * BUCKETS)


# -- the features and the phases -------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_cut_features_are_the_reference_counts(oro, players):
    """Per color: points banked, R11's points if the game were scored now (with the final +1), islands
    controlled (R2), bridges, cards in hand, seats until its player moves."""
    checked = 0
    for seed in range(12):
        for moves in (5, 40, 80, 120, 160):
            state = played(oro, players, seed, moves)
            if state.is_over or state.round == 0:
                continue
            data = state.to_data()
            ref = ReferenceState.from_data(oro, data)
            now = ref.points_if_scored(final=True)
            _, features = state.cut_features()
            for color, row in enumerate(features):
                seat = seat_of_color(color, players)
                assert row == [data.scores[color], now[color], ref.islands_controlled(color),
                               data.bridges.count(color), data.hand_size(seat),
                               (seat - data.to_move) % players], (seed, moves, color)
            checked += 1
    assert checked > 30


def test_the_phases_follow_round_and_deck(oro):
    """Rounds 1 and 2 in three parts by the cards left in the deck (more than 18 of oro's 48, more than 9,
    fewer), the final round last."""
    seen = set()
    for seed in range(6):
        state = played(oro, 4, seed, 0)
        while not state.is_over:
            if state.round in (1, 2, 3):
                phase, _ = state.cut_features()
                left = state.deck_size
                if state.round == 3:
                    expected = 6
                else:
                    expected = (0 if state.round == 1 else 3) + (0 if left > 18 else 1 if left > 9 else 2)
                assert phase == expected
                seen.add(phase)
            state.apply(state.pick_action(seed, POLICY_HEURISTIC))
    assert seen == set(range(BUCKETS))


# -- the estimate ---------------------------------------------------------------------


def test_playout_cut_is_the_models_formula(oro):
    model = shipped_models()[oro_key(oro, 4)]
    entry = next(e for e in json.loads(_shipped_text())["models"] if e["players"] == 4)
    for seed in range(20):
        state = played(oro, 4, seed, 30 + 5 * seed)
        cut = state.copy()
        result = cut.playout_cut(seed, POLICY_HEURISTIC, 12, model)
        if result is None:
            assert cut.is_over
            continue
        wins, points = result
        phase, features = cut.cut_features()
        scores = [sum(w * f for w, f in zip(entry["win"][phase], row, strict=True)) for row in features]
        top = max(scores)
        total = sum(math.exp(s - top) for s in scores)
        assert wins == pytest.approx([math.exp(s - top) / total for s in scores], abs=1e-12)
        assert sum(wins) == pytest.approx(1.0)
        weights = entry["points"][phase]
        assert points == pytest.approx([sum(w * f for w, f in zip(weights, [*row, 1.0], strict=True))
                                        for row in features], abs=1e-9)


def _shipped_text() -> str:
    from importlib import resources

    return resources.files("kanaloa.play").joinpath("cut_models.json").read_text("utf-8")


def test_a_cut_longer_than_the_game_is_the_playout(oro):
    model = flat_model(4, [0.0] * FEATURES, [0.0] * (FEATURES + 1))
    for seed in range(8):
        state = played(oro, 4, seed, 20)
        whole, cut = state.copy(), state.copy()
        whole.playout(seed, POLICY_HEURISTIC)
        assert cut.playout_cut(seed, POLICY_HEURISTIC, 10**9, model) is None
        assert cut.to_data() == whole.to_data()


def test_a_cut_of_zero_moves_judges_the_state_itself(oro):
    """Only the bridges weigh here (feature 3): the color with the most bridges has the best chance."""
    model = flat_model(4, [0.0, 0.0, 0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 1.0])
    state = played(oro, 4, 3, 60)
    before = state.to_data()
    wins, points = state.playout_cut(0, POLICY_HEURISTIC, 0, model)
    assert state.to_data() == before
    bridges = [before.bridges.count(c) for c in range(4)]
    assert points == [2.0 * b + 1.0 for b in bridges]
    assert wins.index(max(wins)) == bridges.index(max(bridges))


def test_playout_cut_refuses_a_game_the_model_was_not_fitted_for(oro):
    four = flat_model(4, [0.0] * FEATURES, [0.0] * (FEATURES + 1))
    with pytest.raises(ValueError, match="fitted for 4 players, one color each; this game has 3 players"):
        played(oro, 3, 1, 10).playout_cut(1, POLICY_HEURISTIC, 5, four)
    with pytest.raises(ValueError, match="this game has 2 players and 4 colors"):
        played(oro, 2, 1, 10).playout_cut(1, POLICY_HEURISTIC, 5, four)
    with pytest.raises(ValueError, match="without the gods"):
        played(oro, 4, 1, 10, gods=True).playout_cut(1, POLICY_HEURISTIC, 5, four)
    with pytest.raises(ValueError, match="plies"):
        played(oro, 4, 1, 10).playout_cut(1, POLICY_HEURISTIC, -1, four)


@pytest.mark.parametrize(("args", "message"), [
    ((2, [[0.0] * FEATURES] * BUCKETS, [[0.0] * (FEATURES + 1)] * BUCKETS), "players"),
    ((4, [[0.0] * FEATURES] * (BUCKETS - 1), [[0.0] * (FEATURES + 1)] * BUCKETS), f"win: must be {BUCKETS} rows"),
    ((4, [[0.0] * FEATURES] * BUCKETS, [[0.0] * FEATURES] * BUCKETS), f"points\\[0\\]: must be {FEATURES + 1}"),
    ((4, [[0.0] * (FEATURES - 1) + [float("nan")]] * BUCKETS, [[0.0] * (FEATURES + 1)] * BUCKETS),
     f"win\\[0\\]\\[{FEATURES - 1}\\]: must be a finite number"),
    ((4, [[0.0] * (FEATURES - 1) + [True]] * BUCKETS, [[0.0] * (FEATURES + 1)] * BUCKETS), "must be a finite"),
    ((4, "weights", [[0.0] * (FEATURES + 1)] * BUCKETS), "win: must be"),
])
def test_cut_model_refuses_malformed_weights(args, message):
    with pytest.raises(ValueError, match=message):
        CutModel(*args)


# -- the shipped models ------------------------------------------------------------


def test_the_shipped_models_cover_oro_with_three_and_four_players(oro):
    assert cut_model_for(oro_key(oro, 4)).players == 4
    assert cut_model_for(oro_key(oro, 3)).players == 3
    assert cut_model_for(oro_key(oro, 2)) is None
    # The tabletop preset (R13) has models of its own, fitted to its own games.
    assert cut_model_for(oro_key(oro, 4, PRESET_TABLETOP)).players == 4
    assert cut_model_for(oro_key(oro, 3, PRESET_TABLETOP)).players == 3
    assert cut_model_for(oro_key(oro, 3, PRESET_TABLETOP)) is not cut_model_for(oro_key(oro, 3))
    kahuna = load_board("kahuna")
    assert cut_model_for(model_key(1, False, kahuna.links, kahuna.cards_per_island, 2, PRESET_YUCATA)) is None


@pytest.mark.parametrize("preset", [PRESET_YUCATA, PRESET_TABLETOP])
@pytest.mark.parametrize("players", [3, 4])
def test_the_shipped_models_predict_games_they_were_not_fitted_on(oro, players, preset):
    """On heuristic games dealt from seeds far from the fitting's, the model's win chances beat even chances
    (log loss) and name the winner more often than chance from the middle of round 2 on."""
    model = cut_model_for(oro_key(oro, players, preset))
    rng = random.Random(7)
    late_loss, even_loss, hits, n = 0.0, 0.0, 0, 0
    for g in range(150):
        state = CoreState.deal(core_board(oro), players, preset, 900_000_000 + g)
        snaps = []
        while not state.is_over:
            if state.round in (2, 3) and rng.random() < 0.1:
                snaps.append(state.copy())
            state.apply(state.pick_action(rng.getrandbits(63), POLICY_HEURISTIC))
        for snap in snaps:
            if snap.cut_features()[0] < 4:
                continue
            wins, _ = snap.playout_cut(0, POLICY_HEURISTIC, 0, model)
            late_loss -= math.log(max(wins[state.winner], 1e-12))
            even_loss += math.log(players)
            hits += wins.index(max(wins)) == state.winner
            n += 1
    assert n > 300
    assert late_loss < 0.8 * even_loss
    assert hits / n > 1.5 / players


ENTRY = {"board": "oro", "preset": "yucata", "policy": "heuristic", "players": 4,
         "win": [[0.0] * FEATURES] * BUCKETS, "points": [[0.0] * (FEATURES + 1)] * BUCKETS}


@pytest.mark.parametrize(("document", "message"), [
    ({"format": "other"}, "format: must be"),
    ({"format": MODELS_FORMAT, "models": {}}, "models: must be a list"),
    ({"format": MODELS_FORMAT, "models": [3]}, r"models\[0\]: must be an object"),
    ({"format": MODELS_FORMAT, "models": [{**ENTRY, "win": []}]}, r"models\[0\]: win: must be 7 rows"),
    ({"format": MODELS_FORMAT, "models": [{k: v for k, v in ENTRY.items() if k != "points"}]},
     r"models\[0\]: points is missing"),
    ({"format": MODELS_FORMAT, "models": [{**ENTRY, "policy": "random"}]},
     r"models\[0\]: policy: must be 'heuristic'"),
    ({"format": MODELS_FORMAT, "models": [{**ENTRY, "preset": "home"}]},
     r"models\[0\]: preset 'home': unknown; choose one of yucata, tabletop \(R13\)"),
    ({"format": MODELS_FORMAT, "models": [{**ENTRY, "players": "four"}]}, r"models\[0\]: players"),
    ({"format": MODELS_FORMAT, "models": [{**ENTRY, "board": "atlantis"}]}, r"models\[0\]: .*atlantis"),
])
def test_read_models_names_what_is_wrong(document, message):
    with pytest.raises(ValueError, match=message):
        read_models(document)


def test_read_models_refuses_two_models_for_one_game():
    entry = next(e for e in json.loads(_shipped_text())["models"] if e["players"] == 4)
    with pytest.raises(ValueError, match=r"models\[1\]: a second model for oro, yucata, 4 players"):
        read_models({"format": MODELS_FORMAT, "models": [entry, entry]})


# -- the game adapter and the bots --------------------------------------------------


def test_the_game_cuts_only_where_a_model_fits(oro):
    game = KanaloaGame(cut=10)
    assert game.cut_model(played(oro, 4, 1, 10)) is not None
    assert game.cut_model(played(oro, 3, 1, 10)) is not None
    assert game.cut_model(played(oro, 2, 1, 10)) is None
    assert game.cut_model(played(oro, 4, 1, 10, gods=True)) is None
    assert game.cut_model(played(load_board("kahuna"), 2, 1, 10, game=GAME_KAHUNA)) is None
    tabletop = cut_model_for(oro_key(oro, 4, PRESET_TABLETOP))
    assert game.cut_model(played(oro, 4, 1, 10, preset=PRESET_TABLETOP)) is tabletop
    # The models are fitted to the heuristic policy's games: random rollouts play to the end.
    assert KanaloaGame(POLICY_RANDOM, cut=10).cut_model(played(oro, 4, 1, 10)) is None
    assert KanaloaGame(cut=0).cut_model(played(oro, 4, 1, 10)) is None
    with pytest.raises(ValueError, match="cut -1: must be a whole number of moves, 0 or more"):
        KanaloaGame(cut=-1)


@pytest.mark.parametrize("cut", [2.5, True, "3", None])
def test_a_cut_that_is_not_a_whole_number_is_refused(cut):
    # Compiled or plain, the game checks the type itself: nothing is rounded or converted.
    with pytest.raises(ValueError, match=re.escape(f"cut {cut!r}: must be a whole number of moves, 0 or more")):
        KanaloaGame(cut=cut)


def test_a_cut_rollout_backs_up_the_estimate(oro):
    """After a cut rollout the state counts as finished for the search: its returns are the estimated win
    chances, its points the expected final points, and its margins follow those points."""
    state = KanaloaGame(cut=5).wrap(played(oro, 4, 2, 20))
    state.rollout(11)
    assert state.is_terminal() and not state.core.is_over
    wins = state.returns()
    assert sum(wins) == pytest.approx(1.0) and all(0.0 < w < 1.0 for w in wins)
    points = state.points()
    assert points == state.estimate[1]
    best = max(range(4), key=points.__getitem__)
    assert state.margins()[best] >= 0.0


def test_two_player_rollouts_still_play_to_the_end(oro):
    state = KanaloaGame(cut=5).wrap(played(oro, 2, 2, 20))
    state.rollout(11)
    assert state.core.is_over and state.estimate is None
    assert sorted(state.returns()) == [0.0, 1.0]


def test_a_search_with_cut_rollouts_backs_up_estimates(oro):
    """Early in the game every rollout is cut: the results are win chances, not 0 or 1, so a move's error
    is their spread (smaller than the binomial one), and the points are the model's."""
    state = played(oro, 4, 5, 30)
    cut = ISMCTS(seed=3, points=True).search(KanaloaGame(cut=20).wrap(state.copy()), iterations=400)
    whole = ISMCTS(seed=3, points=True).search(KanaloaGame().wrap(state.copy()), iterations=400)
    for child in cut.root.children.values():
        assert child.wins != round(child.wins)  # a sum of win chances
    best = cut.candidates()[0]
    assert 0.0 < best.win < 1.0 and len(best.points) == 4
    assert best.error < 0.9 * math.sqrt(best.win * (1 - best.win) / best.visits)
    node = cut.root.children[best.action]  # the error is the spread of the results kept in wins2
    assert best.error == pytest.approx(math.sqrt((node.wins2 / node.visits - best.win ** 2) / node.visits))
    plain = whole.candidates()[0]
    assert plain.error == pytest.approx(math.sqrt(plain.win * (1 - plain.win) / plain.visits))
    assert len(cut.points) == 4 and cut.points != whole.points


def test_the_bot_key_cut(oro):
    assert make_bot("hint:cut=20").search_options["cut"] == 20
    assert make_bot("ismcts:cut=0").search_options["cut"] == 0
    assert make_bot("pimc:cut=8").search_options["cut"] == 8
    assert make_bot("hint").search_options["cut"] == HINT_SETTINGS.cut
    started = make_bot("hint:cut=20")
    started.start(make_ruleset("kanaloa"), 1)
    assert started.game.cut == 20
    with pytest.raises(OptionError, match="cut"):
        make_bot("hint:cut=-2")


# -- the fitting tool -------------------------------------------------------------------


def test_fitting_is_reproducible_and_learns_the_winner(oro, tmp_path):
    pytest.importorskip("numpy")
    from kanaloa.tools.cutfit import fit, main, play_samples

    samples = play_samples("oro", 4, "yucata", 40, 5)
    assert samples == play_samples("oro", 4, "yucata", 40, 5)
    win, points = fit(samples)
    assert (win, points) == fit(samples)
    assert len(win) == BUCKETS and all(len(r) == FEATURES for r in win)
    assert win[6][1] > 0  # in the final round, the points a scoring now would give count for the winner
    out = tmp_path / "models.json"
    result = CliRunner().invoke(main, ["--players", "3", "--preset", "yucata", "--games", "20", "--seed", "1",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    models = read_models(json.loads(out.read_text()))
    assert [m.players for m in models.values()] == [3]
    # By default: 3 and 4 players, and the tabletop preset (R13: 20 bridges a color) gets models of its own.
    result = CliRunner().invoke(main, ["--games", "10", "--seed", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    models = read_models(json.loads(out.read_text()))
    assert sorted((key[4], key[5]) for key in models) == sorted(
        (players, preset) for players in (3, 4) for preset in (PRESET_YUCATA, PRESET_TABLETOP))


def test_fitting_refuses_an_unknown_board():
    pytest.importorskip("numpy")
    from kanaloa.tools.cutfit import main

    result = CliRunner().invoke(main, ["--board", "atlantis", "--out", "x.json"])
    assert result.exit_code == 2
    assert "--board" in result.output


def test_fitting_refuses_a_board_without_the_cards_for_the_players(tmp_path):
    """R3: four hands of four cards need 16 cards; the board's rule set refuses it before any game is played."""
    pytest.importorskip("numpy")
    from importlib import resources

    from kanaloa.tools.cutfit import main

    doc = json.loads(resources.files("kanaloa.boards").joinpath("kahuna.json").read_text("utf-8"))
    doc["cards_per_island"] = 1  # 12 cards
    board = tmp_path / "small.json"
    board.write_text(json.dumps(doc), encoding="utf-8")
    result = CliRunner().invoke(main, ["--board", str(board), "--players", "4", "--out", str(tmp_path / "x.json")])
    assert result.exit_code == 2
    assert "Invalid value for --players: 4 hands of 4 cards need more than the 12 cards of board kahuna (R3)" in (
        result.output)
    assert not (tmp_path / "x.json").exists()
