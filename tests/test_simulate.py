"""Bot-vs-bot tournaments: rotated seats, seeds, records that replay, workers, a cluster, the command.

The games are played by ``random`` bots with distinct seeds (``random:seed=N``),
so that each lineup entry is a spec of its own and can be followed from seat
to seat; what is tested here is the tournament machinery, not bot strength.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter

import pytest

from cli_helpers import run
from cli_helpers import user_error as assert_user_error
from kanaloa.errors import OptionError
from kanaloa.play import tournament as T
from kanaloa.play.bots import Bot
from kanaloa.play.pools import default_workers
from kanaloa.play.progress import Progress
from kanaloa.play.records import GameRecord, RecordWriter, replay
from kanaloa.play.simulate import run_tournament
from kanaloa.play.streams import stream_output
from kanaloa.play.totals import TournamentRun
from kanaloa.play.tournament import make_tournament, play_game, play_seated_game, schedule, time_budgeted
from kanaloa.position import Position
from kanaloa.rules.registry import load_game
from kanaloa.rules.rng import SplitMix64

FOUR = ["random:seed=1", "random:seed=2", "random:seed=3", "random:seed=4"]
THREE = FOUR[:3]
HUGE = 4_000_000_000_000  # games: a list of their indexes would take 32 TB


def comparable(summary: dict) -> dict:
    """A ``--json`` summary without what depends on the machine or the way it ran."""
    return {k: v for k, v in summary.items() if k not in ("seconds", "workers", "scheduler")}


@pytest.fixture(scope="module")
def small_run():
    """Eight games of four distinct random bots (two deals, four rotations each), played here."""
    return run_tournament(make_tournament(FOUR, 8, seed=2024))


# -- the schedule: rotations and seeds ---------------------------------------------------


@pytest.mark.parametrize("lineup", [THREE, FOUR], ids=["3 players", "4 players"])
def test_rotation_every_bot_sits_in_every_seat_equally_often(lineup):
    p = len(lineup)
    t = make_tournament(lineup, 5 * p, seed=1)
    sittings = Counter((spec, seat) for g in range(t.games) for seat, spec in enumerate(t.seating(g)))
    assert sittings == {(spec, seat): 5 for spec in lineup for seat in range(p)}


def test_rotation_each_deal_is_played_once_per_rotation_of_the_lineup():
    t = make_tournament(FOUR, 12, seed=1)
    for deal in range(t.deals):
        games = range(4 * deal, 4 * deal + 4)
        # R3: the same shuffle for every rotation of one deal ...
        assert len({t.deal_seed(g) for g in games}) == 1
        # ... and each rotation shifts the lineup one seat further: bot i sits in seat (i + r) mod 4.
        for g in games:
            r = t.rotation_of(g)
            assert all(t.seating(g)[(i + r) % 4] == spec for i, spec in enumerate(FOUR))
    assert len({t.deal_seed(4 * d) for d in range(t.deals)}) == t.deals


def test_rotation_holds_in_the_played_records(small_run):
    sittings = Counter((spec, seat) for rec in small_run.records for seat, spec in enumerate(rec.lineup))
    assert sittings == {(spec, seat): 2 for spec in FOUR for seat in range(4)}
    assert [rec.index for rec in small_run.records] == list(range(8))
    assert [(rec.deal, rec.rotation) for rec in small_run.records] == [(g // 4, g % 4) for g in range(8)]


def test_deal_seeds_are_the_splitmix_stream_of_the_tournament_seed():
    stream = SplitMix64(99)
    expected = [stream.next() for _ in range(5)]
    assert [stream_output(99, d) for d in range(5)] == expected
    t = make_tournament(THREE, 15, seed=99)
    assert [t.deal_seed(3 * d) for d in range(5)] == expected


def test_bot_seeds_are_the_salted_stream_of_the_tournament_seed():
    """Seat s of game g starts with output 4g + s of the stream seeded with the seed XOR BOT_SALT
    (kanaloa.play.streams, the one place every tool takes its seeds from)."""
    from kanaloa.play.streams import BOT_SALT, SEED_STRIDE, bot_seed, deal_seed

    t = make_tournament(THREE, 6, seed=99)
    assert SEED_STRIDE == 4
    assert t.bot_seeds(5) == tuple(stream_output(99 ^ BOT_SALT, 4 * 5 + s) for s in range(3))
    assert t.bot_seeds(5)[2] == bot_seed(99, 5, 2) and t.deal_seed(5) == deal_seed(99, 1)


def test_seeds_depend_only_on_the_tournament_seed_and_the_game_index():
    short = make_tournament(FOUR, 4, seed=5)
    long = make_tournament(FOUR, 12, seed=5)
    other = make_tournament(FOUR, 4, seed=6)
    assert [play_game(long, g) for g in range(4)] == [play_game(short, g) for g in range(4)]
    assert short.deal_seed(0) != other.deal_seed(0)
    seeds = [s for g in range(long.games) for s in long.bot_seeds(g)]
    assert len(set(seeds)) == len(seeds)  # every seat of every game has a seed of its own


def test_bots_are_fresh_for_every_game_so_order_does_not_matter():
    t = make_tournament(FOUR, 8, seed=3)
    forward = [play_game(t, g) for g in range(8)]
    backward = [play_game(t, g) for g in reversed(range(8))][::-1]
    assert forward == backward


# -- one game and its record ----------------------------------------------------------------


def test_record_r12_names_one_winner_who_ranks_first(small_run):
    for rec in small_run.records:
        assert sorted(rec.ranks) == [1, 2, 3, 4]
        assert rec.ranks[rec.winner] == 1
        assert rec.reason in ("points", "eleven islands")
        if rec.reason == "points":  # R12: most points first
            order = sorted(range(4), key=lambda s: rec.ranks[s])
            assert [rec.scores[s] for s in order] == sorted(rec.scores, reverse=True)


def test_record_schema(small_run):
    doc = json.loads(small_run.records[5].dumps())
    assert list(doc) == ["format", "game", "deal", "rotation", "board", "players", "preset", "seed", "colors",
                         "lineup", "bot_seeds", "moves", "length", "scores", "ranks", "winner", "reason"]
    assert doc["format"] == "kanaloa-game/1"
    assert (doc["game"], doc["deal"], doc["rotation"], doc["players"]) == (5, 1, 1, 4)
    assert doc["colors"] == ["red", "green", "blue", "yellow"]
    assert doc["lineup"] == [FOUR[3], FOUR[0], FOUR[1], FOUR[2]]
    assert doc["length"] == len(doc["moves"])
    assert doc["moves"][0].startswith("reveal ")  # R3: the game starts at the setup
    assert GameRecord.from_json(small_run.records[5].dumps()) == small_run.records[5]


def test_records_replay_to_the_same_final_position(small_run):
    t = small_run.tournament
    for rec in small_run.records[::3]:
        _, final = play_seated_game(t.ruleset, rec.seed, rec.lineup, rec.bot_seeds)
        replayed = replay(rec)
        assert replayed.is_over
        assert replayed.state.to_data() == final.to_data()
        assert list(replayed.scores.values()) == list(rec.scores)
        assert replayed.outcome["winner"] == rec.ruleset.seat_names[rec.winner]


def test_record_replays_through_new_and_play_on_the_command_line(small_run, tmp_path):
    rec = small_run.records[2]
    # The library's replay equals the game as played (test above); the command line must print it.
    expected = replay(rec).dumps()
    line = tmp_path / "game.json"
    line.write_text(rec.dumps() + "\n")
    dealt = run(*rec.new_command().split()[1:])
    assert dealt.exit_code == 0, dealt.output
    replayed = run("play", "-", "--moves-file", str(line), input=dealt.stdout)
    assert replayed.exit_code == 0, replayed.output
    assert Position.from_json(replayed.stdout).dumps() == expected
    assert json.loads(replayed.stdout)["result"]["winner"] == rec.ruleset.seat_names[rec.winner]


@pytest.fixture()
def records_file(small_run, tmp_path):
    """The eight games of ``small_run`` as ``simulate --out`` writes them."""
    path = tmp_path / "games.jsonl"
    path.write_text("".join(rec.dumps() + "\n" for rec in small_run.records))
    return str(path)


def test_replay_prints_the_final_position_of_the_chosen_game(small_run, records_file):
    for rec in small_run.records[1::3]:
        result = run("replay", records_file, "--game", str(rec.index))
        assert result.exit_code == 0, result.output
        assert result.stdout == replay(rec).dumps() + "\n"
        assert json.loads(result.stdout)["result"]["winner"] == rec.ruleset.seat_names[rec.winner]


def test_replay_at_a_move_prints_the_position_after_that_many_moves(small_run, records_file):
    rec = small_run.records[6]
    expected = Position.new(players=4, seed=rec.seed)
    assert run("replay", records_file, "--game", "6", "--at", "0").stdout == expected.dumps() + "\n"
    for move in rec.moves[:40]:
        expected.play(move)
    assert run("replay", records_file, "--game", "6", "--at", "40").stdout == expected.dumps() + "\n"
    last = run("replay", records_file, "--game", "6", "--at", str(rec.length))
    assert last.stdout == replay(rec).dumps() + "\n"


def test_replay_of_a_file_with_one_game_needs_no_game_number(small_run):
    rec = small_run.records[3]
    result = run("replay", "-", input=rec.dumps() + "\n")
    assert result.exit_code == 0, result.output
    assert result.stdout == replay(rec).dumps() + "\n"


def test_replay_errors_name_the_option_or_the_line(small_run, records_file, tmp_path):
    rec = small_run.records[0]
    assert assert_user_error(run("replay", records_file)) == (
        f"error: --game: RECORDS {records_file!r} holds more than one game (games 0, 1, ...); choose one with "
        f"--game N")
    assert assert_user_error(run("replay", records_file, "--game", "8")) == (
        f"error: --game 8: RECORDS {records_file!r} holds no game 8 (games 0 to 7)")
    assert assert_user_error(run("replay", records_file, "--game", "0", "--at", str(rec.length + 1))) == (
        f"error: --at {rec.length + 1}: game 0 has {rec.length} moves; give 0 (the deal) to {rec.length}")
    assert assert_user_error(run("replay", "-", input="\n\n")) == (
        "error: RECORDS (standard input): holds no game record")
    bad = json.loads(rec.dumps())
    bad["moves"][0] = "draw"
    assert assert_user_error(run("replay", "-", input="\n" + json.dumps(bad))) == (
        f"error: RECORDS (standard input): game 0, move 1 of {rec.length}: move 'draw': in the setup each color "
        f"first reveals one card: 'reveal CARD' (R3)")


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.pop("moves"), "missing field 'moves'"),
        (lambda d: d.update(players=True), "field 'players' must be a whole number, not true"),
        (lambda d: d.update(players=5), "field 'players' 5: the game is for 2, 3 or 4 players"),
        (lambda d: d.update(moves="draw"), "field 'moves' must be a list of moves (text), not \"draw\""),
        (lambda d: d.update(scores=[1, 2]), "field 'scores' must have one entry per seat (4), not 2"),
        (lambda d: d.update(preset="casual"), "field 'preset' \"casual\": unknown; choose one of yucata, tabletop "
                                              "(R13)"),
        (lambda d: d.update(seed=-1), "field 'seed' must be from 0 to 2**64-1, not -1"),
        (lambda d: d.pop("colors"), "missing field 'colors'"),
        (lambda d: d.update(colors="red"), "field 'colors' must be a list of colors (text), not \"red\""),
        (lambda d: d.update(colors=["red", "green", "blue", "pink"]),
         "field 'colors' must be [\"red\", \"green\", \"blue\", \"yellow\"] (each seat's color in a 4-player game), "
         "not [\"red\", \"green\", \"blue\", \"pink\"]"),
        (lambda d: d.update(colors=["red", "green", "blue"]),
         "field 'colors' must be [\"red\", \"green\", \"blue\", \"yellow\"] (each seat's color in a 4-player game), "
         "not [\"red\", \"green\", \"blue\"]"),
        (lambda d: d.update(deal=7), "field 'deal' must be 0 for game 0 of 4 players (game // players), not 7"),
        (lambda d: d.update(deal="0"), "field 'deal' must be a whole number, not \"0\""),
        (lambda d: d.update(rotation=-1), "field 'rotation' must be 0 for game 0 of 4 players (game % players), "
                                          "not -1"),
        (lambda d: d.update(game=-1), "field 'game' must be 0 or more, not -1"),
        (lambda d: d.update(format="kanaloa-position/1"),
         "not a game record (a JSON object with \"format\": \"kanaloa-game/1\"); expected one game record per "
         "line, as 'kanaloa simulate --out' writes them"),
    ],
)
def test_replay_of_a_line_that_is_no_record(small_run, change, message):
    doc = json.loads(small_run.records[0].dumps())
    change(doc)
    assert assert_user_error(run("replay", "-", input="\n" + json.dumps(doc) + "\n")) == (
        f"error: RECORDS (standard input) line 2: {message}")


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(length="x"), "field 'length' must be a whole number, not \"x\""),
        (lambda d: d.update(length={}), "field 'length' must be a whole number, not {{}}"),
        (lambda d: d.update(length=-1), "field 'length' must be the number of moves, {moves}, not -1"),
        (lambda d: d.update(length=d["length"] + 1), "field 'length' must be the number of moves, {moves}, not "
                                                     "{more}"),
        (lambda d: d.pop("length"), "missing field 'length'"),
        (lambda d: d.update(bogus=1), "unknown field 'bogus'; a kanaloa-game/1 record has only the fields of its "
                                      "format (docs/records.md \"Game records\")"),
        (lambda d: d.update(countries=["france", "spain", "portugal", "england"]),
         "field 'countries' is a parameter of Cannonball Colony, not of Kanaloa, whose records name the rule set "
         "by board, players, preset, gods"),
        (lambda d: d.update(tiles=["meadow"]), "field 'tiles' is a parameter of Cannonball Colony, not of Kanaloa"),
        (lambda d: d["lineup"].__setitem__(2, "foo"), "field 'lineup' seat 2: bot spec 'foo': unknown bot 'foo'; "
                                                      "expected one of random, greedy"),
        (lambda d: d["lineup"].__setitem__(0, "greedy:width=0"), "field 'lineup' seat 0: bot spec 'greedy:width=0': "
                                                                 "key 'width' must be at least 1, not '0'"),
        (lambda d: d["bot_seeds"].__setitem__(1, -1), "field 'bot_seeds' seat 1: must be from 0 to 2**64-1, not -1"),
        (lambda d: d["bot_seeds"].__setitem__(3, 2**64), "field 'bot_seeds' seat 3: must be from 0 to 2**64-1, not "
                                                         "18446744073709551616"),
        (lambda d: d["bot_seeds"].__setitem__(0, 1.5), "field 'bot_seeds' must be a list of whole numbers, not"),
    ],
)
def test_a_record_is_refused_for_a_key_it_cannot_have_or_a_length_bot_or_seed_that_is_not_its_games(
        small_run, change, message):
    """No key of a record is ignored, and none is taken on trust: ``length`` counts ``moves``, each seat's
    bot is a spec that parses, each bot seed a 64-bit seed."""
    doc = json.loads(small_run.records[0].dumps())
    change(doc)
    moves = len(doc["moves"])
    text = "\n" + json.dumps(doc) + "\n"
    assert assert_user_error(run("replay", "-", input=text)).startswith(
        f"error: RECORDS (standard input) line 2: {message.format(moves=moves, more=moves + 1)}")


def test_a_record_names_bots_whose_optional_extra_is_not_installed(small_run, monkeypatch):
    """A replay plays no bot: a record of OpenSpiel's bots is read where OpenSpiel is not installed, while a
    tournament of them is refused there."""
    from kanaloa.play import bots

    monkeypatch.setattr(bots, "openspiel_installed", lambda: False)
    doc = json.loads(small_run.records[0].dumps())
    doc["lineup"] = ["openspiel-mcts", "openspiel-ismcts:iterations=5", "random", "human"]
    assert GameRecord.from_json(doc).lineup == tuple(doc["lineup"])
    with pytest.raises(OptionError, match="needs the optional extra openspiel"):
        bots.parse_bot_spec("openspiel-mcts")


@pytest.mark.parametrize(
    "options",
    [
        ["--bots", "random,random,random,random"],
        ["--bots", "random,greedy,random"],
        ["--bots", "random,random"],
        ["--bots", "random,random,random", "--preset", "tabletop"],
        ["--bots", "random,random,random,random", "--gods"],
        ["--bots", "random,random", "--gods"],
        ["--game", "kahuna", "--bots", "random,greedy"],
        ["--game", "cannonball", "--bots", "random,random"],
        ["--game", "cannonball", "--bots", "greedy,random,random,random"],
    ],
    ids=["kanaloa 4", "kanaloa 3", "kanaloa 2", "tabletop", "gods 4", "gods 2", "kahuna", "cannonball 2",
         "cannonball 4"],
)
def test_every_record_simulate_writes_replays(tmp_path, options):
    """The reader is strict, and what the writer writes is what it reads: every game of every kind replays."""
    out = tmp_path / "games.jsonl"
    players = len(options[options.index("--bots") + 1].split(","))
    result = run("simulate", *options, "--games", str(players), "--seed", "5", "--out", str(out), "--no-progress")
    assert result.exit_code == 0, result.output
    for game in range(players):
        replayed = run("replay", str(out), "--game", str(game))
        assert replayed.exit_code == 0, replayed.output
        assert json.loads(replayed.stdout)["round"] == "over"


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["scores"].__setitem__(0, d["scores"][0] + 1), "field 'scores' says {said}, but the game its "
                                                                    "moves play ends with {was}"),
        (lambda d: d.update(ranks=d["ranks"][::-1]), "field 'ranks' says {said}, but the game its moves play ends "
                                                     "with {was}"),
        (lambda d: d.update(winner=(d["winner"] + 1) % 4), "field 'winner' says {said}, but the game its moves play "
                                                           "ends with {was}"),
    ],
)
def test_replay_refuses_a_record_whose_result_is_not_its_games(small_run, tmp_path, change, message):
    """The record's winner and scores were taken on trust; they are now those of the game its moves play."""
    rec = small_run.records[1]
    doc = json.loads(rec.dumps())
    change(doc)
    key = message.split("'")[1]
    lines = [r.dumps() for r in small_run.records[:3]]
    lines[1] = json.dumps(doc)
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(lines) + "\n")
    said, was = json.dumps(doc[key]), json.dumps(json.loads(rec.dumps())[key])
    assert assert_user_error(run("replay", str(path), "--game", "1")) == (
        f"error: RECORDS {str(path)!r} line 2: " + message.format(said=said, was=was))
    # the other games of the file replay as ever
    assert run("replay", str(path), "--game", "0").exit_code == 0


def test_replay_refuses_a_record_whose_reason_is_not_its_games(small_run):
    rec = next(r for r in small_run.records if r.reason == "points")
    doc = json.loads(rec.dumps())
    doc["reason"] = "eleven islands"
    assert assert_user_error(run("replay", "-", "--game", str(rec.index), input=json.dumps(doc) + "\n")) == (
        "error: RECORDS (standard input) line 1: field 'reason' says \"eleven islands\", but the game its moves play "
        "ends with \"points\"")


def test_replay_refuses_a_record_whose_moves_stop_before_the_end(small_run):
    doc = json.loads(small_run.records[0].dumps())
    doc["moves"] = doc["moves"][:-1]
    doc["length"] = len(doc["moves"])
    assert assert_user_error(run("replay", "-", input=json.dumps(doc) + "\n")) == (
        f"error: RECORDS (standard input) line 1: field 'moves': the game is not over after its "
        f"{len(doc['moves'])} moves, but the record gives its result")
    # --at checks the whole record too: the position of move 10 of a record that lies is not printed
    assert_user_error(run("replay", "-", "--at", "10", input=json.dumps(doc) + "\n"), "field 'moves'")


def test_replay_checks_the_record_in_the_library_too(small_run):
    rec = small_run.records[2]
    liar = dataclasses.replace(rec, winner=(rec.winner + 1) % 4)
    with pytest.raises(OptionError, match=f"^game 2: field 'winner' says {liar.winner}, but the game its moves play "
                                          f"ends with {rec.winner}$"):
        replay(liar)
    assert replay(liar, at=5, check=False).state.to_data() == replay(rec, at=5).state.to_data()


def test_replay_refuses_a_file_with_the_same_game_twice(small_run, tmp_path):
    """Two runs appended to one file held game 0 twice, and replay took the first without a word."""
    path = tmp_path / "twice.jsonl"
    path.write_text("".join(r.dumps() + "\n" for r in small_run.records[:3]) + "\n"
                    + small_run.records[0].dumps() + "\n")
    message = (f"error: RECORDS {str(path)!r} line 5: game 0 again, after line 1; a file holds each game once")
    assert assert_user_error(run("replay", str(path), "--game", "0")) == message
    assert assert_user_error(run("replay", str(path), "--game", "2")) == message  # the whole file is read
    alone = tmp_path / "alone.jsonl"
    alone.write_text(small_run.records[4].dumps() + "\n" + small_run.records[4].dumps() + "\n")
    assert assert_user_error(run("replay", str(alone))) == (
        f"error: RECORDS {str(alone)!r} line 2: game 4 again, after line 1; a file holds each game once")


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(gods=True, board="kahuna"),
         "field 'board' kahuna: Might of the Gods lays one of its 16 god tokens on each island (R14.1); the board "
         "has 12 islands"),
        (lambda d: d.update(ruleset="kahuna"), "field 'players' 4: Kahuna is for 2 players, white and black (R16.1)"),
        (lambda d: d.update(ruleset="chess"), "field 'ruleset' \"chess\": unknown; choose one of kanaloa, kahuna, "
                                              "cannonball"),
        (lambda d: d.update(ruleset=7), "field 'ruleset' must be text, not 7"),
        (lambda d: d.update(gods="yes"), "field 'gods' must be true or false, not \"yes\""),
        (lambda d: d.update(winner=None), "field 'winner' must be a whole number, not null; a game of Kanaloa always "
                                          "has a winner (R12)"),
    ],
)
def test_a_record_whose_rule_set_cannot_be_is_refused_naming_the_field(small_run, change, message):
    """The rule set checks the combination (make_ruleset); the record words its reasons with its own fields."""
    doc = json.loads(small_run.records[0].dumps())
    change(doc)
    assert assert_user_error(run("replay", "-", input=json.dumps(doc) + "\n")).startswith(
        f"error: RECORDS (standard input) line 1: {message}")


def test_a_record_holds_its_rule_set(small_run):
    rec = small_run.records[0]
    assert rec.ruleset == small_run.tournament.ruleset == load_game("kanaloa", players=4)
    assert (rec.index, rec.deal, rec.rotation) == (0, 0, 0)
    assert rec.new_command() == f"kanaloa new --seed {rec.seed} --players 4 --preset yucata --board oro"


def test_the_record_format_is_defined_once_and_docs_list_its_keys():
    """docs/records.md describes kanaloa-game/1; the example of kanaloa.play.records' docstring has the keys it
    lists, in order, and neither the docstring nor the command's help describes the format again."""
    from kanaloa.play import records
    from test_docs import documented_keys

    example = re.search(r"::\n\n(.*?)\n\n", records.__doc__, re.S).group(1)
    keys = re.findall(r'"(\w+)":', example)
    assert keys == documented_keys("Game records", "docs/records.md")
    for heading in ("Game records of 2-player games", "Game records of games with the gods",
                    "Game records of Kahuna games"):
        for key in documented_keys(heading, "docs/records.md"):
            assert f"``{key}``" in records.__doc__  # named in the pointer to the page, not described
    shown = " ".join(run("simulate", "--help").stdout.split())
    assert '"Game records"' in shown and '"bot_seeds"' not in shown


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_replay_reads_a_line_no_further_than_the_input_limit():
    assert assert_user_error(run("replay", "/dev/zero")) == (
        "error: RECORDS '/dev/zero' line 1: larger than the 4 MiB input limit; expected one game record per line")


def test_play_with_a_moves_file_of_several_games_points_to_replay(small_run, records_file):
    """A user who replays a recorded game reaches for ``play --moves-file`` first."""
    dealt = run(*small_run.records[0].new_command().split()[1:]).stdout
    assert assert_user_error(run("play", "-", "--moves-file", records_file, input=dealt)) == (
        f"error: --moves-file {records_file!r}: holds several game records, one per line; replay one with "
        f"'kanaloa replay {records_file} --game N'")


def test_moves_file_may_also_be_plain_lines_followed_by_more_moves(small_run, tmp_path):
    rec = small_run.records[0]
    moves = tmp_path / "moves.txt"
    moves.write_text("# the first two setup choices\n" + "\n".join(rec.moves[:2]) + "\n\n")
    dealt = run(*rec.new_command().split()[1:]).stdout
    pos_file = tmp_path / "pos.json"
    pos_file.write_text(dealt)
    result = run("play", str(pos_file), "--moves-file", str(moves), rec.moves[2])
    assert result.exit_code == 0, result.output
    expected = Position.from_json(dealt)
    for move in rec.moves[:3]:
        expected.play(move)
    assert Position.from_json(result.stdout).dumps() == expected.dumps()


def test_moves_file_errors(tmp_path):
    dealt = tmp_path / "pos.json"
    dealt.write_text(run("new", "--seed", "1").stdout)
    assert_user_error(run("play", str(dealt), "--moves-file", str(tmp_path / "none.txt")), "--moves-file", "no such")
    bad = tmp_path / "bad.json"
    bad.write_text('{"moves": [1, 2]}')
    assert_user_error(run("play", str(dealt), "--moves-file", str(bad)), "--moves-file", "list of moves")
    assert_user_error(run("play", "-", "--moves-file", "-", input="{}"), "--moves-file '-'", "standard input")
    assert_user_error(run("play", str(dealt)), "no moves given")


def test_a_bot_choosing_an_illegal_move_is_caught(monkeypatch):
    class Cheat(Bot):
        def choose(self, state) -> int:
            return 0  # no action has code 0

    monkeypatch.setattr(T, "parse_bot_spec", lambda spec, **_: Cheat(spec))
    with pytest.raises(RuntimeError, match="chose illegal action 0"):
        play_seated_game(load_game("kanaloa"), 1, FOUR, (1, 2, 3, 4))


# -- running: workers, a cluster, records in order ----------------------------------------------


def test_same_seed_same_results_for_one_and_two_workers(small_run):
    two = run_tournament(small_run.tournament, workers=2)
    assert two.records == small_run.records
    assert comparable(two.to_json()) == comparable(small_run.to_json())
    assert not two.interrupted


def test_searching_bots_play_the_same_games_in_any_worker(tmp_path):
    # greedy and ismcts draw their own random numbers (determinisations, playouts): all from the bot seeds.
    t = make_tournament(["greedy", "random", "ismcts:iterations=20", "random"], 4, seed=77)
    one = run_tournament(t, workers=1)
    two = run_tournament(t, workers=2)
    assert one.records == two.records
    assert comparable(one.to_json()) == comparable(two.to_json())


def test_workers_zero_means_one_per_core():
    one = run("simulate", "--bots", ",".join(THREE), "--games", "6", "--seed", "5", "--json")
    every_core = run("simulate", "--bots", ",".join(THREE), "--games", "6", "--seed", "5", "--json",
                     "--workers", "0")
    assert every_core.exit_code == 0, every_core.output
    assert json.loads(every_core.stdout)["workers"] == default_workers()
    assert comparable(json.loads(every_core.stdout)) == comparable(json.loads(one.stdout))


def test_the_schedule_is_made_one_game_at_a_time():
    t = make_tournament(FOUR, HUGE, seed=1)
    games = schedule(t)
    assert iter(games) is games  # an iterator, not a list
    assert [next(games) for _ in range(3)] == [0, 1, 2]
    assert list(schedule(t, first=HUGE - 2)) == [HUGE - 2, HUGE - 1]
    assert (t.deal_of(HUGE - 1), t.rotation_of(HUGE - 1)) == (HUGE // 4 - 1, 3)


class StopAfter:
    """An ``on_record`` that interrupts the run (as Ctrl-C would) once ``n`` games have finished."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.seen: list[int] = []

    def __call__(self, record: GameRecord) -> None:
        self.seen.append(record.index)
        if len(self.seen) == self.n:
            raise KeyboardInterrupt


@pytest.mark.parametrize("workers", [1, 2])
def test_a_huge_tournament_starts_at_once_and_keeps_no_more_than_its_totals(workers):
    import tracemalloc

    t = make_tournament(FOUR, HUGE, seed=1)
    stop = StopAfter(6)
    tracemalloc.start()
    try:
        run_ = run_tournament(t, workers=workers, on_record=stop, keep_records=False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000  # bytes: the games in flight and the totals, nothing per planned game
    assert run_.interrupted and run_.games == 6 and run_.records == []
    assert run_.to_json()["planned"] == HUGE
    # The totals are those of the very games that finished, whichever they were.
    played = [play_game(t, g) for g in stop.seen]
    assert comparable(run_.to_json()) == comparable(TournamentRun(t, played, True, 0.0, workers).to_json())


def test_streamed_totals_equal_the_totals_of_the_kept_records(small_run):
    streamed = run_tournament(small_run.tournament, keep_records=False)
    assert streamed.records == []
    assert comparable(streamed.to_json()) == comparable(small_run.to_json())
    assert streamed.summary().splitlines()[3:] == small_run.summary().splitlines()[3:]


def test_record_writer_keeps_game_order():
    t = make_tournament(THREE, 6, seed=8)
    records = [play_game(t, g) for g in range(6)]
    out = io.StringIO()
    writer = RecordWriter(out)
    for g in (2, 0, 5, 1):
        writer.add(records[g])
    # Games 0..2 are written as soon as they are complete; 5 waits for 3 and 4.
    assert [json.loads(x)["game"] for x in out.getvalue().splitlines()] == [0, 1, 2]
    writer.finish()
    assert [json.loads(x)["game"] for x in out.getvalue().splitlines()] == [0, 1, 2, 5]


def test_same_results_on_a_local_dask_cluster(small_run):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        on_cluster = run_tournament(small_run.tournament, scheduler=cluster.scheduler_address)
        result = run("simulate", "--bots", ",".join(FOUR), "--games", "8", "--seed", "2024", "--json",
                     "--scheduler", cluster.scheduler_address)
    assert on_cluster.records == small_run.records
    assert comparable(on_cluster.to_json()) == comparable(small_run.to_json())
    assert result.exit_code == 0, result.output
    assert comparable(json.loads(result.stdout)) == comparable(small_run.to_json())


# -- the command ----------------------------------------------------------------------------------


def test_simulate_json_has_the_documented_keys():
    result = run("simulate", "--bots", "random,random:seed=7,random", "--games", "6", "--seed", "4", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["games"] == 6
    assert [b["spec"] for b in doc["bots"]] == ["random", "random:seed=7"]
    for bot in doc["bots"]:
        assert {"spec", "games", "wins", "win_share", "ci95", "mean_points", "mean_rank"} <= set(bot)
        assert bot["ci95"][0] <= bot["win_share"] <= bot["ci95"][1]
    # "random" fills two seats: 12 player-games; R12 gives one winner per game.
    assert [(b["games"], b["copies"]) for b in doc["bots"]] == [(12, 2), (6, 1)]
    assert sum(b["wins"] for b in doc["bots"]) == 6
    assert (doc["planned"], doc["interrupted"], doc["seed"], doc["players"]) == (6, False, 4, 3)


def test_simulate_out_files_are_identical_for_one_and_two_workers(tmp_path):
    outputs = []
    for workers in ("1", "2"):
        path = tmp_path / f"games{workers}.jsonl"
        result = run("simulate", "--bots", ",".join(FOUR), "--games", "8", "--seed", "11",
                     "--workers", workers, "--out", str(path))
        assert result.exit_code == 0, result.output
        outputs.append(path.read_text())
        # The summary for people: the table with one row per bot and the seats' colors.
        assert "95% interval" in result.stdout and "yellow" in result.stdout
        assert all(spec in result.stdout for spec in FOUR)
    assert outputs[0] == outputs[1]
    lines = [json.loads(x) for x in outputs[0].splitlines()]
    assert [x["game"] for x in lines] == list(range(8))


def test_simulate_default_games_is_25_deals():
    result = run("simulate", "--bots", ",".join(THREE), "--seed", "1", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 75


def test_simulate_without_seed_says_which_seed_it_used():
    result = run("simulate", "--bots", ",".join(THREE), "--games", "3", "--json")
    assert result.exit_code == 0, result.output
    seed = json.loads(result.stdout)["seed"]
    assert f"--seed {seed}" in result.stderr


@pytest.mark.parametrize(
    "args, fragments",
    [
        (["--bots", "random,nosuchbot,random"], ["bot spec 'nosuchbot'", "unknown bot"]),
        (["--bots", "random,greedy:width=0,random"], ["'greedy:width=0'", "width", "at least 1"]),
        (["--bots", "random,ismcts:iterations=10:time=1,random"], ["'time' cannot be combined"]),
        (["--bots", "random,,random"], ["--bots", "none empty"]),
        (["--bots", "random"], ["--bots", "1 bot(s)", "2, 3 or 4"]),
        (["--bots", "random,random,random,random,random"], ["5 bot(s)", "2, 3 or 4"]),
        (["--bots", "random,random,random", "--players", "4"], ["--players 4", "3 bots"]),
        (["--bots", "random,random,random", "--games", "10"], ["--games 10", "multiple of 3", "9 or 12"]),
        (["--bots", "random,random,random,random", "--games", "2"], ["--games 2", "multiple of 4", "try 4"]),
        (["--bots", "random,random,random", "--games", "0"], ["--games 0", "positive"]),
        (["--bots", "random,random,random", "--games", "x"], ["--games 'x'", "must be a whole number"]),
        (["--bots", "random,random,random", "--seed", "-1"], ["--seed"]),
        (["--bots", "random,random,random", "--workers", "-2"], ["--workers"]),
        (["--bots", "random,random,random", "--preset", "casual"], ["--preset", "casual"]),
        (["--bots", "random,random,random", "--board", "nowhere.json"], ["board 'nowhere.json'"]),
        (["--bots", "random,random,random", "--workers", "2", "--scheduler", "tcp://x:1"],
         ["--workers 2", "--scheduler"]),
        (["--bots", "random,random,random", "--scheduler", "notanaddress::"],
         ["--scheduler 'notanaddress::'", "not a scheduler's address"]),
        (["--games", "3"], ["--bots"]),
    ],
)
def test_simulate_bad_bots_and_options_are_one_line_errors(args, fragments):
    assert_user_error(run("simulate", "--seed", "1", *args), *fragments)


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--bots", "random,nosuchbot,random"], "unknown bot"),
        (["--bots", ",".join(THREE), "--games", "10"], "--games 10"),
        (["--bots", ",".join(THREE), "--board", "nowhere.json"], "board 'nowhere.json'"),
        (["--bots", ",".join(THREE), "--scheduler", "notaurl"], "--scheduler 'notaurl'"),
        (["--bots", ",".join(THREE), "--out", "/no/such/dir/games.jsonl"], "--out"),
    ],
)
def test_simulate_checks_every_option_before_announcing_a_seed(args, fragment):
    """Without --seed the command names the seed it drew; it used to do so before refusing an option."""
    assert_user_error(run("simulate", *args), fragment)  # the error is the only line on stderr


@pytest.mark.parametrize(
    "address, message",
    [
        ("notaurl", "error: --scheduler 'notaurl': not a scheduler's address (missing port number in address "
                    "'notaurl'); expected [SCHEME://]HOST:PORT with a SCHEME of tcp (the default), tls, ws or wss, "
                    "e.g. tcp://host:8786"),
        ("http://host:8786", "error: --scheduler 'http://host:8786': not a scheduler's address (unknown scheme "
                             "'http'); expected [SCHEME://]HOST:PORT with a SCHEME of tcp (the default), tls, ws or "
                             "wss, e.g. tcp://host:8786"),
        ("tcp://host:99999", "error: --scheduler 'tcp://host:99999': not a scheduler's address (port 99999 is not "
                             "within 1 to 65535); expected [SCHEME://]HOST:PORT with a SCHEME of tcp (the default), "
                             "tls, ws or wss, e.g. tcp://host:8786"),
        ("", "error: --scheduler '': empty; expected [SCHEME://]HOST:PORT with a SCHEME of tcp (the default), tls, "
             "ws or wss, e.g. tcp://host:8786"),
    ],
)
def test_simulate_bad_scheduler_address_is_one_line_and_nothing_after_it(address, message):
    """``--scheduler notaurl`` printed its error, then a traceback from the half-built Dask client's
    ``__del__`` 20 s later; the address is now checked before any client exists.  Run as a process of
    its own so that whatever the interpreter prints on its way out is seen."""
    pytest.importorskip("distributed")
    cmd = [sys.executable, "-m", "kanaloa", "simulate", "--bots", ",".join(THREE), "--scheduler", address]
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == message + "\n"
    assert proc.stdout == ""
    assert time.monotonic() - start < 15


def test_simulate_out_file_that_cannot_be_written(tmp_path):
    target = tmp_path / "missing" / "games.jsonl"
    assert_user_error(run("simulate", "--bots", ",".join(THREE), "--games", "3", "--seed", "1",
                          "--out", str(target)), "--out", "cannot write")


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bots", "ismcts:iterations=99999999999999999999,random"],
         "error: bot spec 'ismcts:iterations=99999999999999999999': key 'iterations' must be at most 1,000,000,000, "
         "not '99999999999999999999'"),
        (["--bots", "hint:time=100000,random"],
         "error: bot spec 'hint:time=100000': key 'time' must be at most 86,400, not '100000'"),
        (["--bots", "random,random", "--workers", "1000"],
         "error: --workers 1000: must be a whole number from 0 to {top} (0: one per core; at most 4 per core, and "
         "this process may use {cores})"),
        (["--bots", "random,random", "--workers", "two"],
         "error: --workers 'two': must be a whole number from 0 to {top} (0: one per core; at most 4 per core, "
         "and this process may use {cores})"),
    ],
)
def test_simulate_budgets_and_workers_beyond_their_bounds_are_refused_at_once(args, message):
    """ismcts:iterations=10**20 was accepted and played until killed, silently when piped."""
    from kanaloa.play.limits import max_workers

    started = time.monotonic()
    shown = assert_user_error(run("simulate", "--seed", "1", "--games", "2", *args))
    assert shown == message.format(top=max_workers(), cores=default_workers())
    assert time.monotonic() - started < 10


def test_simulate_says_before_a_long_silence_what_its_bots_search(monkeypatch):
    """Piped, the progress lines come every 30 s and only as games finish; a bot that searches long a move is
    announced first."""
    from kanaloa.play import simulate as simulate_module
    from kanaloa.play.limits import LONG_ITERATIONS

    played = {}

    def fake(t, **options):
        played.update(options)
        return run_tournament(make_tournament(["random", "random"], 2, seed=1), workers=1)

    monkeypatch.setattr(simulate_module, "run_tournament", fake)
    spec = f"ismcts:iterations={LONG_ITERATIONS}"
    result = run("simulate", "--bots", f"{spec},random", "--games", "2", "--seed", "1", "--workers", "2")
    assert result.exit_code == 0, result.output
    assert result.stderr == (f"kanaloa simulate: 2 games on 2 workers; bot '{spec}' searches {LONG_ITERATIONS:,} "
                             f"iterations a move, so a game may take long; progress every 30 s\n")
    assert played["workers"] == 2
    quiet = run("simulate", "--bots", "ismcts:iterations=1000,random", "--games", "2", "--seed", "1")
    assert quiet.stderr == ""


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"bots": ["random"] * 2, "games": 2, "preset": "casual"},
         "--preset 'casual': unknown; choose one of yucata, tabletop (R13)"),
        ({"bots": ["random"] * 3, "games": 3, "gods": True, "board": "kahuna"},
         "--board kahuna: Might of the Gods lays one of its 16 god tokens on each island (R14.1); the board has 12 "
         "islands"),
        ({"bots": ["random"] * 2, "games": 2, "game": "kahuna", "gods": True},
         "--gods: Might of the Gods is a variant of Kanaloa, not of Kahuna (R14, R16.9)"),
        ({"bots": ["random"] * 3, "games": 3, "players": 3, "game": "kahuna"},
         "--players 3: Kahuna is for 2 players, white and black (R16.1)"),
        ({"bots": ["random"] * 5, "games": 5},
         "--bots 'random,random,random,random,random': 5 bot(s), one per seat; the game is for 2, 3 or 4 players "
         "(repeat a spec to seat it more than once)"),
        ({"bots": ["random"] * 2, "games": 2, "game": "chess"}, "--game 'chess': unknown; choose one of kanaloa, "
                                                                "kahuna"),
    ],
)
def test_a_tournament_words_its_rule_sets_refusals_with_the_options(kwargs, message):
    """The rule set checks every combination once (make_ruleset); the tournament names the option."""
    with pytest.raises(OptionError) as caught:
        make_tournament(kwargs.pop("bots"), kwargs.pop("games"), seed=1, **kwargs)
    assert str(caught.value).startswith(message), str(caught.value)


def test_a_tournament_holds_its_rule_set():
    t = make_tournament(["random"] * 2, 2, seed=1, preset="tabletop")
    assert t.ruleset == load_game("kanaloa", players=2, preset="tabletop")
    given = make_tournament(["random"] * 3, 3, seed=1, ruleset=load_game("kanaloa", players=3, gods=True))
    assert given.ruleset.gods and play_game(given, 0).ruleset is given.ruleset
    with pytest.raises(OptionError, match="2 bot\\(s\\) for a game of 3 players"):
        make_tournament(["random"] * 2, 2, seed=1, ruleset=load_game("kanaloa", players=3))


def test_time_budgets_are_flagged_as_not_reproducible():
    assert time_budgeted("ismcts:time=0.5")
    assert not time_budgeted("ismcts:iterations=50")
    assert not time_budgeted("random")


def test_make_tournament_rejects_a_non_integer_game_count():
    with pytest.raises(OptionError, match="--games"):
        make_tournament(FOUR, 8.0, seed=1)


# -- progress ------------------------------------------------------------------------------------


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_progress_bar_shows_games_rate_and_time_left():
    clock, out = FakeClock(), io.StringIO()
    bar = Progress(100, out, "bar", clock=clock)
    clock.now = 10.0
    bar.update(25)
    line = out.getvalue()
    assert line.startswith("\r25/100 games  [#######.....................]")
    assert "2.50 games/s" in line and "00:10 elapsed" in line and "00:30 left" in line
    bar.close()
    assert out.getvalue().endswith("\n")


def test_progress_lines_are_occasional_and_silent_for_short_runs():
    clock, out = FakeClock(), io.StringIO()
    lines = Progress(10, out, "lines", interval=30.0, clock=clock)
    for done in range(1, 6):
        clock.now = done * 5.0
        lines.update()
    assert out.getvalue() == ""  # 25 s: nothing yet
    clock.now = 31.0
    lines.update()
    assert out.getvalue().splitlines() == [lines.line()]
    assert lines.line().startswith("6/10 games")


def test_progress_off_prints_nothing():
    out = io.StringIO()
    off = Progress(5, out, "off")
    for _ in range(5):
        off.update()
    off.close()
    assert out.getvalue() == ""


def test_progress_auto_draws_a_bar_only_on_a_terminal():
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert Progress(5, Terminal()).mode == "bar"
    assert Progress(5, io.StringIO()).mode == "lines"


# -- Ctrl-C ----------------------------------------------------------------------------------------


def _ctrl_c() -> None:
    os.kill(os.getpid(), signal.SIGINT)


def test_one_ctrl_c_mechanism_for_work_that_waits():
    """kanaloa.play.interrupt.CtrlC: the first Ctrl-C raises at once, but never inside holding(); a second one
    during the clean-up is dropped; the handler before comes back."""
    from kanaloa.play.interrupt import CtrlC

    before = signal.getsignal(signal.SIGINT)
    done = []
    with pytest.raises(KeyboardInterrupt), CtrlC() as ctrl_c:
        with ctrl_c.holding():
            _ctrl_c()
            done.append("the held section ends")
        done.append("never")
    assert done == ["the held section ends"] and ctrl_c.stopped
    with CtrlC() as ctrl_c, ctrl_c.holding(reraise=False):
        _ctrl_c()  # in the clean-up: dropped
    assert signal.getsignal(signal.SIGINT) is before


def test_one_ctrl_c_mechanism_for_work_that_polls():
    """The first Ctrl-C only says stop, a second makes check() raise, a third goes to the handler before."""
    from kanaloa.play.interrupt import CtrlC

    before = signal.getsignal(signal.SIGINT)
    with CtrlC(polled=True) as ctrl_c:
        assert not ctrl_c.check()
        _ctrl_c()
        assert ctrl_c.check() and ctrl_c.stopped
        _ctrl_c()
        with pytest.raises(KeyboardInterrupt):
            ctrl_c.check()
        with pytest.raises(KeyboardInterrupt):
            _ctrl_c()  # the handler before: Python's own
    assert signal.getsignal(signal.SIGINT) is before
    with CtrlC(polled=True, enabled=False) as off:  # a search that is not the command's own changes nothing
        assert signal.getsignal(signal.SIGINT) is before and not off.check()


def test_ctrl_c_leaves_an_ignored_or_custom_handler_alone():
    from kanaloa.play.interrupt import CtrlC

    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with CtrlC() as ctrl_c:
            _ctrl_c()  # ignored, as the process asked
        assert not ctrl_c.stopped
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_run_stops_at_a_ctrl_c_with_the_games_it_finished():
    t = make_tournament(FOUR, HUGE, seed=1)
    seen = []

    def interrupt_after_three(record):
        seen.append(record.index)
        if len(seen) == 3:
            _ctrl_c()  # inside the held section: the game is counted and passed on first

    result = run_tournament(t, on_record=interrupt_after_three, keep_records=True)
    assert result.interrupted and result.games == 3 and [r.index for r in result.records] == seen == [0, 1, 2]



def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as fh:
            return [int(x) for x in fh.read().split()]
    except OSError:
        return []


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads worker processes from /proc")
@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_stops_cleanly_and_prints_the_finished_games(workers, tmp_path):
    out = tmp_path / "games.jsonl"
    # Far more games than can finish before the interrupt: 4 * 10**12, whose schedule must stream (it was a
    # list once, and the command died of a MemoryError before playing a game).
    cmd = [sys.executable, "-m", "kanaloa", "simulate", "--bots", ",".join(FOUR), "--games", str(HUGE),
           "--seed", "1", "--workers", workers, "--out", str(out)]
    # A shell's background job inherits SIGINT ignored; give the command a terminal's default instead.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    workers_seen: list[int] = []
    while time.monotonic() < deadline:
        workers_seen = _children(proc.pid)
        if (len(workers_seen) >= int(workers) or workers == "1") and out.exists() and out.stat().st_size:
            break
        time.sleep(0.1)
    time.sleep(0.5)
    assert proc.poll() is None, proc.communicate()
    # A terminal's Ctrl-C reaches the whole foreground process group: the parent and its workers.
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, (stdout, stderr)
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert stdout.startswith("interrupted: ")
    finished = int(stdout.split()[1])
    assert 0 < finished < HUGE
    assert f"interrupted: {finished} of {HUGE} games finished" in stdout
    assert "95% interval" in stdout
    records = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(records) == finished
    assert [r["game"] for r in records] == sorted(r["game"] for r in records)
    assert not any(_alive(pid) for pid in workers_seen)


# -- two players (R15) --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def two_player_run():
    """Six 2-player games of two distinct random bots (three deals, both rotations each)."""
    return run_tournament(make_tournament(FOUR[:2], 6, seed=2025))


def test_2_player_records_rank_by_the_pair_and_replay(two_player_run):
    """R15.5: the ranks follow the (weaker, stronger) pair on points; each record replays to its end."""
    t = two_player_run.tournament
    assert t.players == 2 and t.ruleset.seat_names == ("red", "green")
    for rec in two_player_run.records:
        assert sorted(rec.ranks) == [1, 2] and rec.ranks[rec.winner] == 1
        pairs = [tuple(sorted((rec.color_scores[seat], rec.color_scores[seat + 2]))) for seat in range(2)]
        assert list(rec.scores) == [pair[0] for pair in pairs]
        if rec.reason == "points":
            assert pairs[rec.winner] >= pairs[1 - rec.winner]
        _, final = play_seated_game(t.ruleset, rec.seed, rec.lineup, rec.bot_seeds)
        replayed = replay(rec)
        assert replayed.state.to_data() == final.to_data()
        assert replayed.pairs == dict(zip(rec.ruleset.seat_names, pairs, strict=True))
        assert GameRecord.from_json(rec.dumps()) == rec


def test_2_player_seats_rotate_within_each_deal(two_player_run):
    records = two_player_run.records
    for deal in range(3):
        first, second = records[2 * deal], records[2 * deal + 1]
        assert first.seed == second.seed and (first.rotation, second.rotation) == (0, 1)
        assert second.lineup == first.lineup[::-1]
    rows = two_player_run.table()
    assert [s.games for row in rows for s in row.by_seat] == [3, 3, 3, 3]


def test_replay_refuses_a_2_player_record_whose_color_scores_are_not_its_games(two_player_run):
    """R15: a 2-player record gives every color's points too; they are checked against the game like the rest."""
    rec = two_player_run.records[0]
    doc = json.loads(rec.dumps())
    doc["color_scores"]["blue"] += 1
    said = json.dumps(doc["color_scores"])
    was = json.dumps(json.loads(rec.dumps())["color_scores"])
    assert assert_user_error(run("replay", "-", input=json.dumps(doc) + "\n")) == (
        f"error: RECORDS (standard input) line 1: field 'color_scores' says {said}, but the game its moves play "
        f"ends with {was}")
