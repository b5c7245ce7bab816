"""Cannonball Colony in ``kanaloa simulate`` and ``kanaloa replay`` (R20): the same tournaments, records and
statistics as Kanaloa's, reached through the registry, with the game's own score and shared victories.

The tournament machinery itself (rotations, seeds, workers, streaming) is tested with Kanaloa in
test_simulate.py; what is tested here is that a second game plugs into it: every bot plays it, its
results are read from its positions, a victory shared by k countries (R20.10) counts 1/k of a win to
each, and its records replay.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

import kanaloa.cannonball
from cli_helpers import run
from cli_helpers import user_error as assert_user_error
from kanaloa.cannonball.position import CannonballPosition
from kanaloa.cannonball.ruleset import make_cannonball
from kanaloa.play.bots import openspiel_installed
from kanaloa.play.records import GameRecord, replay
from kanaloa.play.simulate import run_tournament
from kanaloa.play.stats import SeatOutcome, bot_table, wilson_interval
from kanaloa.play.tournament import make_tournament, play_game, play_seated_game

GAME = "cannonball"
TILES = Path(kanaloa.cannonball.__file__).parent / "tiles"
COUNTRIES = ("france", "spain", "portugal", "england")  # R20.3, seats 0-3 by default
# Three random bots of their own seeds, seed 7: game 47 ends with all three level on 3 forts after every
# tie-break (R20.10), a victory shared three ways (found by playing the tournament; see the test).
THREE_WAY = (["random:seed=0", "random:seed=1", "random:seed=2"], 48, 7, 47)


def simulate_json(*args: str) -> dict:
    result = run("simulate", "--game", GAME, "--seed", "1", "--no-progress", "--json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def records_of(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def three_way():
    """The tournament with a three-way shared victory, played here."""
    lineup, games, seed, _ = THREE_WAY
    return run_tournament(make_tournament(lineup, games, seed, game=GAME))


# -- simulate: 2, 3 and 4 countries ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulate_plays_every_player_count_with_random_and_greedy(players, tmp_path):
    """R20.1: 2, 3 or 4 countries, a tile each; the lineup's length is the number of players."""
    lineup = ",".join(["greedy"] + ["random"] * (players - 1))
    out = tmp_path / "games.jsonl"
    doc = simulate_json("--bots", lineup, "--games", str(2 * players), "--out", str(out))
    assert (doc["games"], doc["players"], doc["game"], doc["deals"]) == (2 * players, players, GAME, 2)
    assert doc["colors"] == list(COUNTRIES[:players])
    assert doc["score"] == "forts"
    assert (doc["preset"], doc["board"], doc["gods"]) == (None, None, False)
    assert doc["parameters"]["countries"] == list(COUNTRIES[:players])
    assert sum(doc["reasons"].values()) == doc["games"]
    assert set(doc["reasons"]) == {"ten-forts", "supply", "all-passed"}
    # Every game's victory adds up to one win, shared or not (R20.10).
    assert sum(bot["wins"] for bot in doc["bots"]) == pytest.approx(doc["games"])
    greedy, randoms = doc["bots"]
    assert (greedy["spec"], greedy["copies"], randoms["copies"]) == ("greedy", 1, players - 1)
    assert greedy["win_share"] > randoms["win_share"]  # one move of lookahead beats chance
    assert greedy["ci95"][0] <= greedy["win_share"] <= greedy["ci95"][1]
    records = records_of(out)
    assert [r["game"] for r in records] == list(range(2 * players))
    for r in records:
        assert r["ruleset"] == GAME and r["colors"] == r["countries"] == list(COUNTRIES[:players])
        assert r["moves"][0].startswith("land ")  # R20.4: the game starts with the landings
        assert sorted(r["ranks"]) == list(range(1, players + 1))


def test_the_summary_counts_forts_and_how_games_ended():
    result = run("simulate", "--game", GAME, "--bots", "greedy,random", "--games", "4", "--seed", "3",
                 "--no-progress")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "4 games: 2 deals x 2 seat rotations, seed 3; Cannonball Colony, 2 players: france, spain"
    assert "the victory shared (R20.10)" in lines[1] and "the last road tile was laid (R20.10)" in lines[1]
    assert "mean forts" in lines[3] and "mean points" not in lines[3]


def test_the_same_seed_plays_the_same_records(tmp_path):
    first, second, other = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    args = ("--bots", "greedy,random,random", "--games", "6")
    simulate_json(*args, "--out", str(first))
    simulate_json(*args, "--out", str(second), "--workers", "2")  # any number of workers plays the same games
    assert first.read_bytes() == second.read_bytes()
    result = run("simulate", "--game", GAME, *args, "--seed", "2", "--no-progress", "--out", str(other))
    assert result.exit_code == 0, result.output
    assert [r["seed"] for r in records_of(other)] != [r["seed"] for r in records_of(first)]


@pytest.mark.parametrize("spec", ["ismcts:iterations=40", "hint:iterations=40", "pimc:iterations=40:dets=2"])
def test_the_search_bots_play_it(spec):
    """Nothing is hidden (R20): the searches' determinisations are the state itself."""
    t = make_tournament([spec, "random"], 2, seed=5, game=GAME)
    for game in range(t.games):
        record = play_game(t, game)
        assert record.length == len(record.moves) and record.reason in t.ruleset.reasons
        assert replay(record).is_over


@pytest.mark.skipif(not openspiel_installed(), reason="needs the optional extra openspiel")
def test_openspiel_mcts_plays_it_and_openspiel_ismcts_is_refused():
    t = make_tournament(["openspiel-mcts:iterations=20", "random"], 2, seed=5, game=GAME)
    assert replay(play_game(t, 0)).is_over
    assert assert_user_error(run("simulate", "--game", GAME, "--bots", "openspiel-ismcts,random", "--games", "2",
                                 "--seed", "1")) == (
        "error: bot spec 'openspiel-ismcts': OpenSpiel's ISMCTS plays only games that hide something, and "
        "Cannonball Colony hides nothing; openspiel-mcts searches it")
    assert assert_user_error(run("simulate", "--game", GAME, "--bots", "openspiel-mcts:rollout=core,random",
                                 "--games", "2", "--seed", "1")) == (
        "error: bot spec 'openspiel-mcts:rollout=core': rollout=core plays rollouts in the Kanaloa core, which "
        "Cannonball Colony's OpenSpiel game has not; use rollout=python")


def test_a_game_is_played_on_the_position_face_and_read_from_its_outcome():
    """The record's result is the final position's: its forts (R20.7), ranking, winners and reason (R20.10)."""
    rules = make_cannonball(players=3)
    t = make_tournament(["greedy", "random", "random"], 3, seed=9, game=GAME)
    record = play_game(t, 1)
    _, final = play_seated_game(t.ruleset, record.seed, record.lineup, record.bot_seeds)
    position = CannonballPosition.deal(rules, record.seed)
    for move in record.moves:
        position.play(move)
    assert position.data == final.to_data()
    outcome = position.outcome
    assert record.scores == tuple(position.data.forts_on_island(seat) for seat in range(3))
    assert [COUNTRIES[seat] for seat in sorted(range(3), key=lambda s: record.ranks[s])] == outcome["ranking"]
    assert [COUNTRIES[seat] for seat in record.winners] == outcome["winners"]
    assert record.reason == outcome["reason"]


# -- shared victories (R20.10): 1/k of a win to each ----------------------------------------------


def test_a_victory_shared_three_ways_counts_a_third_to_each(three_way):
    _, games, _, shared_game = THREE_WAY
    record = three_way.records[shared_game]
    assert record.winners == (0, 1, 2) and record.winner == -1  # R20.10: still level, they share it
    assert record.scores[0] == record.scores[1] == record.scores[2]
    assert [record.won(seat) for seat in range(3)] == [Fraction(1, 3)] * 3
    doc = record.to_json()
    assert (doc["winner"], doc["winners"]) == (None, [0, 1, 2])
    # Every game gives one win in all, so the wins of the table add up to the games exactly.
    rows = three_way.table()
    assert sum(row.wins for row in rows) == games
    shared = [r for r in three_way.records if len(r.winners) > 1]
    assert three_way.to_json()["shared"] == len(shared) >= 1
    for row in rows:
        expected = sum(r.won(seat) for r in three_way.records for seat, spec in enumerate(r.lineup)
                       if spec == row.spec)
        assert row.wins == expected
        assert row.win_share == pytest.approx(float(expected) / row.games)
        assert row.ci95 == wilson_interval(expected, row.games)
    assert any(Fraction(row.wins).denominator == 3 for row in rows)


def test_a_shared_win_enters_the_table_and_the_interval_as_its_share():
    """Two games: a sole win, then a victory shared by both seats: 1.5 wins of 2 for the first bot."""
    outcomes = [SeatOutcome("a", 0, 10, 1, True), SeatOutcome("b", 1, 7, 2, False),
                SeatOutcome("a", 1, 6, 1, Fraction(1, 2)), SeatOutcome("b", 0, 6, 2, Fraction(1, 2))]
    a, b = bot_table(["a", "b"], 2, outcomes)
    assert (a.wins, b.wins) == (Fraction(3, 2), Fraction(1, 2))
    assert (a.win_share, b.win_share) == (0.75, 0.25)
    assert [s.wins for s in a.by_seat] == [1, Fraction(1, 2)]
    assert a.to_json(["france", "spain"])["wins"] == 1.5
    # Wilson's interval with the fractional count: the score interval of p = 0.75 over 2 trials.
    low, high = wilson_interval(Fraction(3, 2), 2)
    assert (low, high) == pytest.approx((0.1979, 0.9733), abs=1e-4)
    assert wilson_interval(Fraction(1, 1), 2) == wilson_interval(1, 2)


def test_the_summary_shows_fractional_wins(three_way):
    text = three_way.summary()
    row = next(r for r in three_way.table() if Fraction(r.wins).denominator == 3)
    assert f"{float(row.wins):.2f}" in text
    assert f"the victory shared (R20.10) {three_way.to_json()['shared']}" in text


# -- records: kanaloa-game/1, replayed ----------------------------------------------------------


def test_a_record_replays_on_the_command_line(three_way, tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text("".join(r.dumps() + "\n" for r in three_way.records), encoding="utf-8")
    record = three_way.records[THREE_WAY[3]]
    result = run("replay", str(path), "--game", str(record.index))
    assert result.exit_code == 0, result.output
    final = json.loads(result.stdout)
    assert final["round"] == "over"
    assert final["result"]["winners"] == ["france", "spain", "portugal"]
    at = run("replay", str(path), "--game", str(record.index), "--at", "3")
    assert at.exit_code == 0, at.output
    assert CannonballPosition.from_json(at.stdout) == replay(record, at=3)
    assert len(replay(record, at=0).data.ships) == 3


def test_a_record_keeps_its_countries_and_tiles(tmp_path):
    """R20.2, R20.3: a record deals its game again from the tiles and countries it was played with."""
    tile = tmp_path / "my-meadow.json"
    meadow = json.loads((TILES / "meadow.json").read_text(encoding="utf-8"))
    tile.write_text(json.dumps({**meadow, "name": "my-meadow"}), encoding="utf-8")
    out = tmp_path / "games.jsonl"
    doc = simulate_json("--bots", "greedy,random", "--games", "2", "--countries", "england,portugal",
                        "--tiles", f"{tile},ridge", "--out", str(out))
    assert doc["colors"] == ["england", "portugal"]
    for record in records_of(out):
        assert record["countries"] == ["england", "portugal"]
        assert record["tiles"] == [str(tile), "ridge"]
        pos = replay(json.dumps(record))
        assert pos.players == ("england", "portugal") and pos.is_over
    # By hand: the record's ``kanaloa new`` command deals the game again, and its moves play it to the end.
    record = GameRecord.from_json(out.read_text(encoding="utf-8").splitlines()[1])
    command = record.new_command().split()
    assert command[:3] == ["kanaloa", "new", "--game"] and f"{tile},ridge" in command
    dealt = run(*command[1:])
    assert dealt.exit_code == 0, dealt.output
    moves = tmp_path / "record.json"
    moves.write_text(record.dumps(), encoding="utf-8")
    played = run("play", "-", "--moves-file", str(moves), input=dealt.stdout)
    assert played.exit_code == 0, played.output
    assert CannonballPosition.from_json(played.stdout) == replay(record)


def test_the_record_keys_are_the_documented_ones(three_way):
    from test_docs import documented_keys

    doc = three_way.records[0].to_json()
    common = [k for k in documented_keys("Game records", "docs/records.md") if k not in ("board", "preset")]
    more = documented_keys("Game records of Cannonball Colony games", "docs/records.md")
    assert list(doc) == common + more
    assert GameRecord.from_json(three_way.records[0].dumps()) == three_way.records[0]


def _changed(record: GameRecord, change) -> str:
    doc = record.to_json()
    change(doc)
    return json.dumps(doc) + "\n"


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.pop("winners"), "missing field 'winners' (the seats sharing the victory, R20.10)"),
        (lambda d: d.update(winners=[2, 0, 1]), "field 'winners' must list the seats sharing the victory, from 0 "
                                                "to 2, in seat order and each once, not [2, 0, 1]"),
        (lambda d: d.update(winners=[]), "field 'winners' must list the seats sharing the victory, from 0 to 2, "
                                         "in seat order and each once, not []"),
        (lambda d: d.update(winner=1), "field 'winner' is 1, but 'winners' is [0, 1, 2]; 'winner' is the one seat "
                                       "of 'winners', or null when they share the victory (R20.10)"),
        (lambda d: d.update(winners=[1]), "field 'winner' is null, which only a shared victory leaves (R20.10), "
                                          "but 'winners' is [1]"),
        (lambda d: d.update(countries=["france", "mars", "spain"]),
         "field 'countries': 'mars' is not a country of the game; the countries are france, spain, portugal, "
         "england (R20.3)"),
        (lambda d: d.pop("tiles"), "missing field 'tiles'"),
        (lambda d: d.update(tiles="meadow"), "field 'tiles' must be a list of names (text), not \"meadow\""),
        (lambda d: d.update(gods=True), "field 'gods' is a parameter of Kanaloa and Kahuna, not of Cannonball "
                                        "Colony, whose records name the rule set by players, countries, tiles"),
        (lambda d: d.update(gods=False), "field 'gods' is a parameter of Kanaloa and Kahuna, not of Cannonball "
                                         "Colony"),
        (lambda d: d.update(preset="yucata"), "field 'preset' is a parameter of Kanaloa and Kahuna, not of "
                                              "Cannonball Colony"),
        (lambda d: d.update(board="oro"), "field 'board' is a parameter of Kanaloa and Kahuna, not of Cannonball "
                                          "Colony"),
        (lambda d: d.update(bogus=1), "unknown field 'bogus'; a kanaloa-game/1 record has only the fields of its "
                                      "format"),
        (lambda d: d.update(length=-1), "field 'length' must be the number of moves, "),
        (lambda d: d.update(length="47"), "field 'length' must be a whole number, not \"47\""),
        (lambda d: d.pop("length"), "missing field 'length'"),
        (lambda d: d["lineup"].__setitem__(1, "foo"), "field 'lineup' seat 1: bot spec 'foo': unknown bot 'foo'"),
        (lambda d: d["bot_seeds"].__setitem__(0, -1), "field 'bot_seeds' seat 0: must be from 0 to 2**64-1, not -1"),
        (lambda d: d.update(color_scores={"france": 1}), "field 'color_scores' belongs to games where each player "
                                                         "plays two colors; in Cannonball Colony each player is "
                                                         "one country (R20.3)"),
    ],
)
def test_a_bad_record_is_refused_naming_the_field(three_way, change, message):
    text = _changed(three_way.records[THREE_WAY[3]], change)
    assert assert_user_error(run("replay", "-", input=text)).startswith(
        f"error: RECORDS (standard input) line 1: {message}")


@pytest.mark.parametrize(
    "change, field, said, played",
    [
        (lambda d: d.update(winners=[0, 1], winner=None), "winners", "[0, 1]", "[0, 1, 2]"),
        (lambda d: d.update(scores=[9, 9, 9]), "scores", "[9, 9, 9]", "[3, 3, 3]"),
        (lambda d: d.update(reason="all-passed"), "reason", '"all-passed"', '"supply"'),
    ],
)
def test_replay_refuses_a_result_that_is_not_the_games(three_way, change, field, said, played):
    text = _changed(three_way.records[THREE_WAY[3]], change)
    assert assert_user_error(run("replay", "-", input=text)) == (
        f"error: RECORDS (standard input) line 1: field {field!r} says {said}, but the game its moves play ends "
        f"with {played}")


def test_a_family_record_with_winners_is_refused():
    t = make_tournament(["random", "random"], 2, seed=1)
    text = _changed(play_game(t, 0), lambda d: d.update(winners=[0]))
    assert assert_user_error(run("replay", "-", input=text)) == (
        "error: RECORDS (standard input) line 1: field 'winners' belongs to games whose players may share the "
        "victory; in Kanaloa they never do (R12)")


# -- bad options: one line each -------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bots", "random"], "error: --bots 'random': 1 bot(s), one per seat; Cannonball Colony is for 2, 3 or 4 "
                               "players, a tile each (R20.1) (repeat a spec to seat it more than once)"),
        (["--bots", "random,random", "--players", "3"], "error: --players 3: --bots names 2 bots"),
        (["--bots", "random,random", "--preset", "tabletop"],
         "error: --preset: Cannonball Colony has no such parameter; its parameters are players, countries, tiles"),
        (["--bots", "random,random", "--gods"], "error: --gods: Cannonball Colony has no such parameter"),
        (["--bots", "random,random", "--countries", "france,france"],
         "error: --countries: france twice; each player is a country of its own (R20.3)"),
        (["--bots", "random,random", "--countries", "france"],
         "error: --countries: 1 countries for 2 players; name one a player (R20.3)"),
        (["--bots", "random,random", "--tiles", "meadow"],
         "error: --tiles: 1 tile for 2 players; the island has one a player (R20.1)"),
        (["--bots", "random,random", "--games", "3"], "error: --games 3: must be a multiple of 2"),
        (["--bots", "random,greedy:width=0"], "error: bot spec 'greedy:width=0': key 'width' must be at least 1"),
    ],
)
def test_bad_options_are_refused_with_one_line(args, message):
    line = assert_user_error(run("simulate", "--game", GAME, "--seed", "1", "--no-progress", *args))
    assert line.startswith(message), line
