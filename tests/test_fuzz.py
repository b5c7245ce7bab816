"""The fuzzer (``kanaloa.tools.fuzz``, ``kanaloa fuzz``): a short bounded run over every target, and the
fuzzer's own checks, each shown to fire on a planted mistake."""

from __future__ import annotations

import json
import os

import pytest

from cli_helpers import run
from kanaloa.errors import MoveError
from kanaloa.interfaces.cli import cli
from kanaloa.position import Position, documents, read_position
from kanaloa.position.notation import Move
from kanaloa.rules.registry import game_types
from kanaloa.tools import fuzz
from kanaloa.tools.fuzz import TARGETS, build_corpus, replay_run, run_fuzz, run_one

RUNS = 500  # per target: about a second in all
SEED = 2026

@pytest.fixture(scope="module")
def short_run(tmp_path_factory):
    return run_fuzz(TARGETS, SEED, runs=RUNS, save_dir=str(tmp_path_factory.mktemp("findings")), command=cli)


def test_a_short_run_of_every_target_finds_nothing(short_run):
    for name in TARGETS:
        stats = short_run.targets[name]
        assert stats.runs == RUNS
        # the damage leaves some inputs valid, so the checks of what is accepted run too
        assert stats.accepted >= RUNS // 50, (name, stats)
        assert stats.refused >= RUNS // 2, (name, stats)
    assert short_run.total_findings == 0, "\n".join(f.reproducer() + "\n" + f.detail for f in short_run.findings)


def test_runs_repeat_from_the_seed(tmp_path):
    first = run_fuzz(("positions", "moves"), 7, runs=60, save_dir=str(tmp_path), command=cli)
    again = run_fuzz(("positions", "moves"), 7, runs=60, save_dir=str(tmp_path), command=cli)
    assert [t.to_json() | {"seconds": 0} for t in first.targets.values()] == [
        t.to_json() | {"seconds": 0} for t in again.targets.values()]
    assert first.kinds == again.kinds


def test_a_planted_crash_is_a_finding_with_a_reproducer(monkeypatch, tmp_path):
    honest = documents.parse_json

    def planted(obj):
        if isinstance(obj, bytes):  # only the fuzzer hands bytes in
            raise TypeError("planted")
        return honest(obj)

    monkeypatch.setattr(documents, "parse_json", planted)
    saved = tmp_path / "found"
    report = run_fuzz(("positions",), SEED, runs=40, save_dir=str(saved), command=cli)
    crashes = [f for f in report.findings if f.category == "TypeError"]
    assert crashes, report.summary()
    found = crashes[0]
    assert found.entry == "read_position" and found.problem == "TypeError: planted"
    # the innermost place in the package: where the planted function was called from
    assert found.where.startswith("position/documents.py:") and found.where.endswith(" in read_position")
    assert "raise TypeError(\"planted\")" in found.detail
    # the input is saved as it was fed in, and the reproducer names it and the run
    with open(found.saved, "rb") as fh:
        data = fh.read()
    with pytest.raises(TypeError, match="planted"):
        read_position(data)
    text = found.reproducer()
    assert f"positions run {found.run} (seed {SEED})" in text and found.saved in text
    assert f"replay: kanaloa fuzz --target positions --seed {SEED} --run {found.run}" in text
    assert report.targets["positions"].findings == sum(n for k, n in report.kinds.items())

    # the run repeats alone, through the library and through the command
    again = replay_run("positions", SEED, found.run, str(tmp_path / "again"), command=cli)
    assert again.finding is not None and again.finding.problem == found.problem
    result = run("fuzz", "--target", "positions", "--seed", str(SEED), "--run", str(found.run),
                 "--save", str(tmp_path / "cli"))
    assert result.exit_code == 1, result.output
    assert "TypeError: planted" in result.stdout and "Traceback" in result.stdout

    # a whole fuzz run through the command reports it with status 1
    result = run("fuzz", "--target", "positions", "--runs", "40", "--seed", str(SEED), "--save", str(tmp_path / "c2"))
    assert result.exit_code == 1, result.output
    assert f"replay: kanaloa fuzz --target positions --seed {SEED} --run {found.run}" in result.stdout
    assert os.listdir(tmp_path / "c2")


@pytest.fixture(scope="module")
def corpus():
    return build_corpus(SEED)


def test_the_corpus_holds_positions_of_every_registered_game(corpus):
    """Every example rule set and every player count of every registered game, in full and (where the game
    hides something) as a player sees it, from the deal to a game over; and viewer positions waiting for the
    cards turned up after a setup."""
    def table(rules):
        return rules.game, tuple(sorted(rules.params().items()))

    full = {table(s.position.ruleset) for s in corpus.samples if s.position.viewer is None}
    seen = {table(s.position.ruleset) for s in corpus.samples if s.position.viewer is not None}
    for game in game_types():
        for rules in game.example_rulesets():
            assert table(rules) in full, rules.describe()
            assert (table(rules) in seen) == (rules.lacks("viewer") is None), rules.describe()
        counts = next(p.choices for p in game.parameters if p.name == "players")
        assert {str(r.players) for r in (s.position.ruleset for s in corpus.samples) if r.game == game.name} == set(
            counts)
        over = [s for s in corpus.samples if s.position.ruleset.game == game.name and s.position.is_over]
        assert over, game.name
    waiting = [s.position for s in corpus.samples if s.position.waiting is not None]
    assert waiting and all(p.ruleset.has_setup for p in waiting)
    assert corpus.palette == ["red", "green", "blue", "yellow", "white", "black", "france", "spain", "portugal",
                              "england"]


def _findings(target: str, corpus, runs: int, workdir) -> list:
    found = [run_one(target, SEED, r, corpus, str(workdir), cli).finding for r in range(runs)]
    return [f for f in found if f is not None]


def test_an_accepted_position_without_moves_is_a_finding(monkeypatch, corpus, tmp_path):
    monkeypatch.setattr(Position, "legal_moves", lambda self: [])
    found = _findings("positions", corpus, 60, tmp_path)
    assert any("is not over, does not wait, and" in f.problem and "has no legal move" in f.problem
               for f in found), [f.problem for f in found]


def test_a_position_that_does_not_read_back_is_a_finding(monkeypatch, corpus, tmp_path):
    honest = Position.dumps

    def drifting(self):  # each writing moves the chance stream on by one
        doc = json.loads(honest(self))
        if "seed" in doc:
            doc["seed"] = (doc["seed"] + 1) % 2**64
        return json.dumps(doc)

    monkeypatch.setattr(Position, "dumps", drifting)
    found = _findings("moves", corpus, 60, tmp_path)
    assert any("dumps() reads back as a different document" in f.problem or "does not read back" in f.problem
               for f in found), [f.problem for f in found]


def test_an_error_message_on_several_lines_is_a_finding(monkeypatch, corpus, tmp_path):
    honest = Move.parse.__func__

    def two_lines(cls, text, rules, *args):
        try:
            return honest(cls, text, rules, *args)
        except MoveError as exc:
            raise MoveError(f"{exc}\nsecond line") from None

    monkeypatch.setattr(Move, "parse", classmethod(two_lines))
    found = _findings("moves", corpus, 30, tmp_path)
    assert found and all(f.category == "MoveError message spans several lines" for f in found)


def test_a_run_that_takes_too_long_is_a_finding(monkeypatch, corpus, tmp_path):
    import time

    monkeypatch.setattr(fuzz, "RUN_SECONDS", 0.05)
    monkeypatch.setattr(Position, "copy", lambda self: time.sleep(1))
    found = run_one("moves", SEED, 0, corpus, str(tmp_path)).finding
    assert found is not None and found.category == "too slow" and "more than 0.05 s" in found.problem


def test_runs_go_through_the_command_only_when_it_is_handed_in(monkeypatch, corpus, tmp_path):
    """The fuzzer sits below the command line: it tries the command it is given, and no other."""
    from click.testing import CliRunner

    calls = []
    honest = CliRunner.invoke

    def counting(self, command, *args, **kwargs):
        calls.append(command)
        return honest(self, command, *args, **kwargs)

    monkeypatch.setattr(CliRunner, "invoke", counting)
    runs = [fuzz.CLI_EVERY * k + fuzz.CLI_EVERY - 1 for k in range(3)]  # the runs that go through a command
    for r in runs:
        run_one("moves", SEED, r, corpus, str(tmp_path))
    assert calls == []
    for r in runs:
        run_one("moves", SEED, r, corpus, str(tmp_path), cli)
    assert calls and all(command is cli for command in calls)


def test_the_command_reports_in_json(tmp_path):
    result = run("fuzz", "--target", "moves", "--runs", "20", "--seed", "3", "--json", "--save", str(tmp_path))
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["seed"] == 3 and doc["runs"] == 20 and doc["findings"] == 0
    assert doc["targets"]["moves"]["runs"] == 20
    assert doc["targets"]["moves"]["accepted"] + doc["targets"]["moves"]["refused"] == 20


def test_the_command_refuses_bad_options():
    from cli_helpers import user_error

    user_error(run("fuzz", "--runs", "3", "--seconds", "1"), "--runs/--seconds")
    user_error(run("fuzz", "--seconds", "nan"), "--seconds")
    user_error(run("fuzz", "--run", "3", "--seed", "1"), "--run 3", "--target")
    user_error(run("fuzz", "--target", "nothing"), "--target")


# -- Cannonball Colony (R20): its documents and moves, through its position class --------------------------


def test_the_corpus_holds_cannonball_positions_and_moves_with_the_mover_s_name(corpus):
    games = [s for s in corpus.samples if s.game == "cannonball"]
    assert {s.position.ruleset.players for s in games} == {2, 3, 4}
    assert {s.doc["round"] for s in games} == {"landing", "play", "over"} == set(corpus.rounds["cannonball"])
    assert all(s.doc["game"] == "cannonball" and s.position.viewer is None for s in games)
    playing = next(s for s in games if s.doc["round"] == "play")
    mover = playing.position.to_move
    assert set(playing.position.move_strings()) <= set(playing.moves)
    assert any(m.startswith(f"{mover}: ") for m in playing.moves)
    # the table entries a mutation gives a Cannonball document are the game's own names: spaces, countries
    assert {"france", "spain", "c7"} <= set(corpus.names["cannonball"])
    assert "ALOA-BAFI" not in corpus.names["cannonball"]


def test_cannonball_documents_and_moves_are_fuzzed_and_refused_in_one_line(corpus, tmp_path):
    """Damaged Cannonball positions and moves go to its own reader and notation: some are accepted and
    checked, the others refused with a one-line PositionError or MoveError, none with a traceback."""
    refusals = {"positions": set(), "moves": set()}
    accepted = dict.fromkeys(refusals, 0)
    for target in refusals:
        for r in range(1500):
            result = run_one(target, SEED, r, corpus, str(tmp_path))
            assert result.finding is None, result.finding.reproducer() + result.finding.detail
            doc = result.payload["position"]
            text = doc if isinstance(doc, (str, bytes)) else json.dumps(doc) if fuzz._dumps(doc) else ""
            if '"cannonball"' not in str(text):
                continue
            if result.accepted:
                accepted[target] += 1
            elif result.refusal:
                refusals[target].add(result.refusal.split(":", 1)[0])
    assert accepted["positions"] > 5 and accepted["moves"] > 5, accepted
    assert refusals["positions"] == {"PositionError"} and refusals["moves"] <= {"MoveError", "PositionError"}
    assert "MoveError" in refusals["moves"]


def test_a_planted_crash_in_cannonball_s_reader_is_a_finding(monkeypatch, corpus, tmp_path):
    from kanaloa.cannonball import position as cannonball_position

    honest = cannonball_position.read_position

    def planted(doc):
        if doc.get("supply") == 0:
            raise KeyError("planted")
        return honest(doc)

    monkeypatch.setattr(cannonball_position, "read_position", planted)
    found = _findings("positions", corpus, 400, tmp_path)
    assert found and {f.problem for f in found} == {"KeyError: 'planted'"}
    assert all(f.entry.startswith("read_position") and f.where.startswith("cannonball/position.py:")
               and "planted" in f.detail for f in found)


def test_a_cannonball_move_error_on_several_lines_is_a_finding(monkeypatch, corpus, tmp_path):
    from kanaloa.cannonball import position as cannonball_position

    honest = cannonball_position.parse_move

    def two_lines(text, countries, d):
        try:
            return honest(text, countries, d)
        except MoveError as exc:
            raise MoveError(f"{exc}\nsecond line") from None

    monkeypatch.setattr(cannonball_position, "parse_move", two_lines)
    found = _findings("moves", corpus, 300, tmp_path)
    assert found and {f.category for f in found} == {"MoveError message spans several lines"}


def test_the_data_files_of_every_game_are_fuzzed_tile_files_too(corpus):
    """The boards target damages every registered game's data files (its ``files`` face): the family's
    board files and Cannonball Colony's tile files (R20.2), each read by its game's own reader."""
    from kanaloa.cannonball.island import BUILTIN_TILES, TILE_FILES
    from kanaloa.rules.board import BOARD_FILES, BUILTIN_BOARDS

    assert fuzz.data_files() == [BOARD_FILES, TILE_FILES]
    assert [g.name for g in fuzz.games_of(BOARD_FILES)] == ["kanaloa", "kahuna"]
    assert sorted(corpus.files) == sorted([f"board:{b}" for b in BUILTIN_BOARDS] + [f"tile:{t}" for t in BUILTIN_TILES])
    assert corpus.files["tile:meadow"][1]["format"] == "cannonball-tile/1"
    # a tile played in a game of any player count is always on the island, beside built-in tiles of other names
    tile = TILE_FILES.from_dict({**corpus.files["tile:meadow"][1], "name": "bluffs"}, "mine")
    assert [t if isinstance(t, str) else t.name for t in TILE_FILES.value(tile, 3)] == ["bluffs", "clearing",
                                                                                         "crossing"]
    assert TILE_FILES.option("my-tile.json", 2) == "my-tile.json,bluffs"


def test_a_planted_crash_in_the_tile_reader_is_a_finding(corpus, tmp_path):
    from kanaloa.cannonball import island
    from kanaloa.rules.datafile import DataFiles

    honest = island.tile_from_dict

    def planted(data, source):
        if isinstance(data, dict) and data.get("description") == "":
            raise IndexError("planted")
        return honest(data, source)

    faulty = DataFiles(**{**island.TILE_FILES.__dict__, "from_dict": planted})  # the face with a faulty reader
    planted_corpus = fuzz.Corpus(corpus.samples, {"tile:meadow": (faulty, corpus.files["tile:meadow"][1])},
                                 corpus.strings, corpus.docs, corpus.palette, corpus.names, corpus.rounds, corpus.keys)
    found = [run_one("boards", SEED, r, planted_corpus, str(tmp_path)).finding for r in range(400)]
    found = [f for f in found if f is not None]
    assert found and {f.problem for f in found} == {"IndexError: planted"}
    assert {f.entry for f in found} == {"test_fuzz.planted"}
