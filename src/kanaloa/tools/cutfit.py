"""Fit the models of rollouts cut short (``kanaloa.play.cut``) from the heuristic policy's own games.

Games are dealt from ``seed`` on and played to the end
by the core's heuristic playout policy for every seat (the policy the rollouts play).  A
tenth of their states in rounds 1, 2 and the final round, chosen from the
same seed, become samples: the state's phase and cut features
(``CoreState.cut_features``), the game's winner and its final points.  Per
phase, the win weights maximise the likelihood of the winner under a
softmax over the players (Newton's method with a small ridge), and the
point weights are least squares of each player's final points.

    python -m kanaloa.tools.cutfit --out src/kanaloa/play/cut_models.json

(the defaults: 3 and 4 players, both presets) writes the shipped models again, weight for weight.

needs numpy (installed with the ``openspiel`` extra).
"""

from __future__ import annotations

import json
import random
import sys
import time
from dataclasses import dataclass
from typing import Any

import click

from ..play.cut import FITTED_POLICY, MODELS_FORMAT
from ..rules.board import BoardError
from ..rules.core import POLICY_HEURISTIC, CoreState, CutModel
from ..rules.engine import load_engine
from ..rules.registry import ParameterError, game_type, load_game
from ..rules.ruleset import Ruleset

SAMPLE_SHARE = 0.1  # of the states in rounds 1, 2 and the final round
RIDGE = 1e-3        # per sample, on the win weights
DEFAULT_GAMES = 60_000
DEFAULT_SEED = 10_000_000
GAME = "kanaloa"  # the game whose rollouts the models cut short (kanaloa.play.cut)
# The presets (R13), as the registry lists the parameter.
PRESET_CHOICES = next(p.choices for p in game_type(GAME).parameters if p.name == "preset")


@dataclass
class Samples:
    """Per sample: phase, features per color, winner seat, final points per color."""

    phases: list[int]
    features: list[list[list[float]]]
    winners: list[int]
    points: list[list[float]]


def rules_of(board_name: str, players: int, preset: str) -> Ruleset:
    """The rule set the models of ``players`` and ``preset`` on ``board_name`` are fitted on; raises
    ``ParameterError`` (and ``BoardError``) as ``load_game`` does."""
    return load_game(GAME, players=players, preset=preset, board=board_name)


def play_samples(board_name: str, players: int, preset: str, games: int, seed: int) -> Samples:
    """Samples from ``games`` games of ``preset`` dealt with seeds ``seed``, ``seed + 1``, ... (heuristic
    policy)."""
    rules = rules_of(board_name, players, preset)
    engine = load_engine("core")
    rng = random.Random(seed)
    out = Samples([], [], [], [])
    for g in range(games):
        state = engine.deal(rules, seed + g)
        assert isinstance(state, CoreState)
        taken = []
        while not state.is_over:
            if state.round != 0 and rng.random() < SAMPLE_SHARE:
                taken.append(state.cut_features())
            state.apply(state.pick_action(rng.getrandbits(63), POLICY_HEURISTIC))
        for phase, features in taken:
            out.phases.append(phase)
            out.features.append(features)
            out.winners.append(state.winner)
            out.points.append([float(p) for p in state.scores])
    return out


def fit(samples: Samples) -> tuple[list[list[float]], list[list[float]]]:
    """(win weights, point weights) per phase; a phase without samples gets zeros (even chances)."""
    import numpy as np

    buckets, width = CutModel.shape()
    phases = np.array(samples.phases)
    features = np.array(samples.features, dtype=float)
    winners = np.array(samples.winners)
    points = np.array(samples.points, dtype=float)
    win_rows, point_rows = [], []
    for b in range(buckets):
        mask = phases == b
        x, y, s = features[mask], winners[mask], points[mask]
        if len(y) == 0:
            win_rows.append([0.0] * width)
            point_rows.append([0.0] * (width + 1))
            continue
        w = np.zeros(width)
        n = len(y)
        for _ in range(50):
            z = x @ w
            z -= z.max(axis=1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(axis=1, keepdims=True)
            mean = (p[:, :, None] * x).sum(axis=1)
            grad = (x[np.arange(n), y] - mean).sum(axis=0) - RIDGE * n * w
            hess = (np.einsum("nc,nck,ncl->kl", p, x, x) - mean.T @ mean) + RIDGE * n * np.eye(width)
            step = np.linalg.solve(hess, grad)
            w += step
            if np.abs(step).max() < 1e-9:
                break
        flat = x.reshape(-1, width)
        design = np.concatenate([flat, np.ones((len(flat), 1))], axis=1)
        coef = np.linalg.lstsq(design, s.reshape(-1), rcond=None)[0]
        win_rows.append([round(float(v), 5) for v in w])
        point_rows.append([round(float(v), 5) for v in coef])
    return win_rows, point_rows


def model_entry(board_name: str, players: int, preset: str, games: int, seed: int) -> dict[str, Any]:
    """One entry of ``cut_models.json``: the fitted weights and how they were made."""
    samples = play_samples(board_name, players, preset, games, seed)
    win, points = fit(samples)
    CutModel(players, win, points)  # refuses what the core would refuse
    return {"board": board_name, "preset": preset, "policy": FITTED_POLICY, "players": players,
            "games": games, "seed": seed,
            "samples": len(samples.phases), "win": win, "points": points}


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--board", default="oro", show_default=True, help="Built-in board name or board file.")
@click.option("--players", "player_counts", type=click.IntRange(3, 4), multiple=True, default=(3, 4),
              show_default=True, help="Player counts to fit (repeat the option).")
@click.option("--preset", "presets", type=click.Choice(list(PRESET_CHOICES)), multiple=True, default=PRESET_CHOICES,
              show_default=True, help="Presets (R13) to fit (repeat the option).")
@click.option("--games", type=click.IntRange(1), default=DEFAULT_GAMES, show_default=True,
              help="Heuristic self-play games per player count.")
@click.option("--seed", type=click.IntRange(0), default=DEFAULT_SEED, show_default=True,
              help="Deal seed of the first game; the sample choice flows from it too.")
@click.option("--out", type=click.Path(dir_okay=False, writable=True), required=True,
              help="Where to write the models (JSON).")
def main(board: str, player_counts: tuple[int, ...], presets: tuple[str, ...], games: int, seed: int,
         out: str) -> None:
    """Fit the models of rollouts cut short and write them as cut_models.json."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise click.UsageError("numpy is needed: pip install numpy (or the 'openspiel' extra)") from None
    try:
        for preset in presets:
            for players in player_counts:
                rules_of(board, players, preset)
    except BoardError as exc:
        raise click.BadParameter(str(exc), param_hint="--board") from None
    except ParameterError as exc:
        raise click.BadParameter(exc.why, param_hint=f"--{exc.parameter}") from None
    entries = []
    for preset in presets:
        for players in player_counts:
            started = time.perf_counter()
            entries.append(model_entry(board, players, preset, games, seed))
            print(f"{board}, {preset}, {players} players: {games} games, {entries[-1]['samples']} samples, "
                  f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(models_text(entries))


def models_text(entries: list[dict[str, Any]]) -> str:
    """``cut_models.json`` as text: one line per row of weights, so that a refit reads well in a diff."""
    parts = []
    for entry in entries:
        head = ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in entry.items() if k not in ("win", "points"))
        rows = {k: ",\n".join(f"    {json.dumps(row)}" for row in entry[k]) for k in ("win", "points")}
        parts.append(f'  {{{head},\n   "win": [\n{rows["win"]}\n   ],\n   "points": [\n{rows["points"]}\n   ]}}')
    return f'{{"format": {json.dumps(MODELS_FORMAT)}, "models": [\n' + ",\n".join(parts) + "\n]}\n"


if __name__ == "__main__":  # pragma: no cover
    main()
