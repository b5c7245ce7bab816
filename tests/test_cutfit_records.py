"""Fitting a model to recorded games (``python -m kanaloa.tools.cutfit --records``): the search's own games
can teach the model that judges its rollouts (expert iteration; docs/engine.md "Rollouts cut short")."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kanaloa.interfaces.cli import simulate as simulate_command
from kanaloa.play.cut import read_models
from kanaloa.play.cut_fit import FAMILY_FIT
from kanaloa.play.records import moves_sha256, read_records
from kanaloa.tools.cutfit import main as cutfit


def simulate(tmp_path, name: str, *args: str) -> str:
    out = tmp_path / name
    result = CliRunner().invoke(simulate_command, [*args, "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return str(out)


@pytest.fixture(scope="module")
def kahuna_records(tmp_path_factory) -> str:
    return simulate(tmp_path_factory.mktemp("records"), "kahuna.jsonl", "--game", "kahuna", "--bots",
                    "greedy,random", "--games", "6", "--seed", "3")


def test_a_model_fitted_to_records_names_them_and_reads_back(kahuna_records, tmp_path):
    out = tmp_path / "models.json"
    result = CliRunner().invoke(cutfit, ["--game", "kahuna", "--records", kahuna_records, "--seed", "5",
                                         "--out", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text())
    (entry,) = doc["models"]
    with open(kahuna_records, "rb") as fh:
        records = list(read_records(fh, "records"))
    assert entry["game"] == "kahuna" and entry["games"] == 6 and entry["seed"] == 5
    assert entry["records"] == moves_sha256(records)
    assert entry["samples"] > 100
    assert len(read_models(doc)) == 1
    # the same records and seed fit the same model, byte for byte
    again = tmp_path / "again.json"
    CliRunner().invoke(cutfit, ["--game", "kahuna", "--records", kahuna_records, "--seed", "5", "--out", str(again)])
    assert again.read_bytes() == out.read_bytes()


def test_the_samples_follow_the_recorded_games(kahuna_records):
    with open(kahuna_records, "rb") as fh:
        records = list(read_records(fh, "records"))
    rules = records[0].ruleset
    samples = FAMILY_FIT.record_samples(rules, records, 1)
    assert len(samples.phases) == len(samples.features) == len(samples.shares) == len(samples.points)
    # each sample carries its game's result: the winner's share is 1 (or nobody's, R16.7)
    winners = {tuple(s) for s in samples.shares}
    assert winners <= {(1.0, 0.0), (0.0, 1.0), (0.0, 0.0)}
    assert FAMILY_FIT.record_samples(rules, records, 1).phases == samples.phases
    assert FAMILY_FIT.record_samples(rules, records, 2).phases != samples.phases


def test_records_of_another_rule_set_are_refused(kahuna_records, tmp_path):
    other = simulate(tmp_path, "two.jsonl", "--players", "2", "--bots", "random,random", "--games", "2",
                     "--seed", "1")
    with open(kahuna_records, "rb") as fh:
        kahuna = list(read_records(fh, "records"))
    with open(other, "rb") as fh:
        two = list(read_records(fh, "records"))
    with pytest.raises(ValueError, match=r"a game of Kanaloa, 2 players .*, not of Kahuna"):
        FAMILY_FIT.record_samples(kahuna[0].ruleset, [*kahuna, *two], 1)


def test_a_damaged_records_file_is_one_line(kahuna_records, tmp_path):
    twice = tmp_path / "twice.jsonl"
    with open(kahuna_records) as fh:
        twice.write_text(fh.read() * 2)
    result = CliRunner().invoke(cutfit, ["--game", "kahuna", "--records", str(twice), "--out",
                                         str(tmp_path / "m.json")])
    assert result.exit_code == 2
    assert "game 0 again" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("extra", [["--only", "players=2"], ["--games", "10"], ["--heldout", "10"]])
def test_records_cannot_be_combined_with_a_sample_of_games(kahuna_records, tmp_path, extra):
    result = CliRunner().invoke(cutfit, ["--game", "kahuna", "--records", kahuna_records, *extra, "--out",
                                         str(tmp_path / "m.json")])
    assert result.exit_code == 2
    assert "cannot be combined with --only, --games or --heldout" in result.output


def test_an_empty_records_file_is_refused(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    result = CliRunner().invoke(cutfit, ["--records", str(empty), "--out", str(tmp_path / "m.json")])
    assert result.exit_code == 2
    assert "holds no game record" in result.output


def test_a_game_whose_fitting_takes_no_records_says_so(tmp_path):
    records = simulate(tmp_path, "cb.jsonl", "--game", "cannonball", "--players", "2", "--bots", "random,random",
                       "--games", "2", "--seed", "1")
    result = CliRunner().invoke(cutfit, ["--game", "cannonball", "--records", records, "--out",
                                         str(tmp_path / "m.json")])
    assert result.exit_code == 2
    assert "models are fitted to its playout policy's games only" in result.output
