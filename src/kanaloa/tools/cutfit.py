"""Fit the models of rollouts cut short, for every game that has them (docs/engine.md "Rollouts cut short").

A game offers its models through the registry's ``cutfit`` face: a ``Fitting``
that names the rule sets of its shipped models file, plays sample games for
one of them and checks an entry against its core.  The fitting itself is the
same for every game: per phase, the win weights maximise the likelihood of
the game's result (each seat's share of the victory) under a softmax over the
seats (Newton's method with a small ridge), and the point weights are least
squares of each seat's final points.

    python -m kanaloa.tools.cutfit --game kanaloa --out src/kanaloa/play/cut_models.json

writes the shipped models of the Kanaloa family (Kanaloa's rule sets and
Kahuna's, in one file) again, byte for byte, from their seeds;
``--only players=4,preset=yucata`` fits a part of a file, and ``--games`` and
``--seed`` another sample (an experiment's, docs/strength.md).  ``--heldout N``
also plays N games the fit has not seen (dealt after its own, from ``seed +
games`` on) and reports, per phase, the model's log loss of each seat's share
of the victory beside that of even chances (``log(players)``); the file
written is the same with it or without it.

needs numpy (installed with the ``openspiel`` extra).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from typing import Any

import click

from ..play.evaluation import Fitting, Samples
from ..rules.board import BoardError
from ..rules.registry import ParameterError, game_names, game_type
from ..rules.ruleset import Ruleset

__all__ = ["Fitting", "Samples", "fit", "heldout_loss", "main", "model_entry", "models_text", "softmax_weights"]

RIDGE = 1e-3  # per sample, on the win weights


def fit(samples: Samples, shape: tuple[int, int, int]) -> tuple[list[list[float]], list[list[float]]]:
    """(win weights of a seat's features, point weights of a color's features and a constant) per phase; a phase
    without samples gets zeros (even chances).  Samples without a winner count towards the points only."""
    import numpy as np

    buckets, width, color_width = shape
    phases = np.array(samples.phases)
    features = np.array(samples.features, dtype=float)
    shares = np.array(samples.shares, dtype=float)
    color_features = np.array(samples.color_features, dtype=float)
    points = np.array(samples.points, dtype=float)
    win_rows, point_rows = [], []
    for b in range(buckets):
        mask = phases == b
        x, t, s = features[mask], shares[mask], points[mask]
        if len(s) == 0:
            win_rows.append([0.0] * width)
            point_rows.append([0.0] * (color_width + 1))
            continue
        won = t.sum(axis=1) > 0
        win_rows.append([round(float(v), 5) for v in softmax_weights(x[won], t[won])])
        flat = color_features[mask].reshape(-1, color_width)
        design = np.concatenate([flat, np.ones((len(flat), 1))], axis=1)
        coef = np.linalg.lstsq(design, s.reshape(-1), rcond=None)[0]
        point_rows.append([round(float(v), 5) for v in coef])
    return win_rows, point_rows


def softmax_weights(x: Any, t: Any) -> Any:
    """The weights ``w`` that maximise ``sum_n sum_c t[n, c] log softmax_c(x[n] @ w)`` less a ridge of
    ``RIDGE`` per sample (Newton's method); ``x`` is samples x seats x features, ``t`` each seat's share."""
    import numpy as np

    n, _, width = x.shape
    w = np.zeros(width)
    if n == 0:
        return w
    target = np.einsum("nc,nck->k", t, x)
    for _ in range(50):
        z = x @ w
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        mean = (p[:, :, None] * x).sum(axis=1)
        grad = target - mean.sum(axis=0) - RIDGE * n * w
        hess = (np.einsum("nc,nck,ncl->kl", p, x, x) - mean.T @ mean) + RIDGE * n * np.eye(width)
        step = np.linalg.solve(hess, grad)
        w += step
        if np.abs(step).max() < 1e-9:
            break
    return w


def heldout_loss(samples: Samples, win: Sequence[Sequence[float]]) -> list[tuple[int, int, float, float]]:
    """Per phase with samples that have a winner: (phase, samples, the mean log loss of each seat's share of the
    victory under the softmax of ``win``'s weights, the mean log loss of even chances, ``log(seats)``)."""
    import numpy as np

    phases = np.array(samples.phases)
    features = np.array(samples.features, dtype=float)
    shares = np.array(samples.shares, dtype=float)
    out = []
    for b, row in enumerate(win):
        mask = (phases == b) & (shares.sum(axis=1) > 0) if len(phases) else phases == b
        if not mask.any():
            continue
        z = features[mask] @ np.array(row, dtype=float)
        z -= z.max(axis=1, keepdims=True)
        log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        loss = float(-(shares[mask] * log_p).sum(axis=1).mean())
        out.append((b, int(mask.sum()), loss, float(np.log(features.shape[1]))))
    return out


def model_entry(fitting: Fitting, ruleset: Ruleset, games: int, seed: int) -> dict[str, Any]:
    """One entry of a models file: the fitted weights and how they were made."""
    samples = fitting.samples(ruleset, games, seed)
    win, points = fit(samples, fitting.shape(ruleset))
    entry = {**fitting.head(ruleset), "policy": fitting.policy, "games": games, "seed": seed,
             "samples": len(samples.phases), "features": fitting.feature_names(ruleset), "win": win, "points": points}
    fitting.check(entry)
    return entry


def records_entry(fitting: Fitting, path: str, seed: int) -> dict[str, Any]:
    """The entry fitted to the recorded games of ``path`` (one rule set's, ``kanaloa-game/1``): ``games`` is
    their number and ``records`` the SHA-256 of their moves (``kanaloa.play.records.moves_sha256``), so the
    entry names the games it learnt from."""
    from ..errors import OptionError
    from ..play.records import moves_sha256, read_records

    try:
        with open(path, "rb") as fh:
            records = list(read_records(fh, f"--records {path!r}"))
    except OptionError as exc:
        raise click.UsageError(str(exc)) from None
    if not records:
        raise click.BadParameter(f"{path!r} holds no game record", param_hint="--records")
    ruleset = records[0].ruleset
    if not hasattr(fitting, "record_samples"):
        raise click.BadParameter(f"{ruleset.title}'s models are fitted to its playout policy's games only",
                                 param_hint="--records")
    try:
        samples = fitting.record_samples(ruleset, records, seed)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--records") from None
    win, points = fit(samples, fitting.shape(ruleset))
    entry = {**fitting.head(ruleset), "policy": fitting.policy, "games": len(records), "seed": seed,
             "samples": len(samples.phases), "records": moves_sha256(records),
             "features": fitting.feature_names(ruleset), "win": win, "points": points}
    fitting.check(entry)
    return entry


def models_text(fitting: Fitting, entries: Sequence[dict[str, Any]]) -> str:
    """A models file as text: one line per row of weights, so that a refit reads well in a diff."""
    parts = []
    for entry in entries:
        head = ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in entry.items() if k not in ("win", "points"))
        rows = {k: ",\n".join(f"    {json.dumps(row)}" for row in entry[k]) for k in ("win", "points")}
        parts.append(f'  {{{head},\n   "win": [\n{rows["win"]}\n   ],\n   "points": [\n{rows["points"]}\n   ]}}')
    return f'{{"format": {json.dumps(fitting.models_format)}, "models": [\n' + ",\n".join(parts) + "\n]}\n"


def parse_only(text: str) -> dict[str, str]:
    """``players=4,preset=yucata`` as a dict; raises ``click.BadParameter`` for a part without ``=``."""
    out: dict[str, str] = {}
    for part in text.split(","):
        key, eq, value = part.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise click.BadParameter(f"{part!r} must be KEY=VALUE, e.g. players=4", param_hint="--only")
        out[key.strip()] = value.strip()
    return out


def selected(fitting: Fitting, only: Sequence[str]) -> list[Ruleset]:
    """The rule sets of the file that some ``--only`` filter matches (all of them without one), in the file's
    order: a filter matches a rule set whose entry has every ``KEY=VALUE`` of it.  A key no entry has, or a
    filter that matches nothing, raises ``click.BadParameter``; a key only some entries have (Kahuna's have no
    ``preset`` or ``gods``) leaves out the others."""
    rule_sets = fitting.rule_sets()
    if not only:
        return rule_sets
    heads = [fitting.head(rules) for rules in rule_sets]
    known = list(dict.fromkeys(key for head in heads for key in head))
    keep: list[Ruleset] = []
    for text in only:
        wanted = parse_only(text)
        unknown = [key for key in wanted if key not in known]
        if unknown:
            raise click.BadParameter(f"{unknown[0]!r} names no parameter of the file's entries "
                                     f"(they have {', '.join(known)})", param_hint="--only")
        matches = [rules for rules, head in zip(rule_sets, heads, strict=True)
                   if all(key in head and json.dumps(head[key]).strip('"') == value for key, value in wanted.items())]
        if not matches:
            raise click.BadParameter(f"{text!r} matches none of the file's rule sets", param_hint="--only")
        keep.extend(r for r in matches if r not in keep)
    return [r for r in rule_sets if r in keep]


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--game", default="kanaloa", show_default=True, type=click.Choice(list(game_names())),
              help="The game whose models file to fit (Kanaloa's file holds Kahuna's models too).")
@click.option("--only", multiple=True, metavar="KEY=VALUE,...",
              help="Fit only the file's rule sets with these parameters, e.g. players=4,gods=false (repeat the "
                   "option for several).")
@click.option("--games", type=click.IntRange(1), default=None,
              help="Sample games per rule set.  [default: the game's, 60000 for Kanaloa]")
@click.option("--seed", type=click.IntRange(0), default=None,
              help="Deal seed of the first game; the sample choice flows from it too.  [default: the game's]")
@click.option("--records", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Fit one model to these recorded games instead (kanaloa-game/1 lines of one rule set, e.g. a "
                   "search's own games from 'kanaloa simulate --out'); --games and --only do not apply.")
@click.option("--out", type=click.Path(dir_okay=False, writable=True), required=True,
              help="Where to write the models (JSON).")
@click.option("--heldout", type=click.IntRange(1), default=None, metavar="GAMES",
              help="Also play GAMES games the fit has not seen (dealt from seed + games on) and report each phase's "
                   "log loss against even chances (stderr; the file is the same).")
def main(game: str, only: tuple[str, ...], games: int | None, seed: int | None, records: str | None,
         out: str, heldout: int | None) -> None:
    """Fit the models of rollouts cut short for GAME's rule sets and write them as a models file.

    By default the samples come from games the rollouts' own playout policy plays against itself; with
    --records, from recorded games (expert iteration: a search's games teach the model that judges its
    rollouts).
    """
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise click.UsageError("numpy is needed: pip install numpy (or the 'openspiel' extra)") from None
    try:
        fitting: Fitting = game_type(game).face("cutfit")
    except KeyError:
        raise click.BadParameter(f"{game} has no models of rollouts cut short", param_hint="--game") from None
    try:
        rule_sets = selected(fitting, only)
    except (BoardError, ParameterError) as exc:  # pragma: no cover - the file's own rule sets load
        raise click.UsageError(str(exc)) from None
    n = fitting.default_games if games is None else games
    s = fitting.default_seed if seed is None else seed
    if records is not None:
        if only or games is not None or heldout is not None:
            raise click.BadParameter("cannot be combined with --only, --games or --heldout: the records are the "
                                     "sample", param_hint="--records")
        started = time.perf_counter()
        entry = records_entry(fitting, records, s)
        print(f"{entry['games']} recorded games, {entry['samples']} samples, {time.perf_counter() - started:.0f} s",
              file=sys.stderr)
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(models_text(fitting, [entry]))
        return
    entries = []
    for rules in rule_sets:
        started = time.perf_counter()
        entries.append(model_entry(fitting, rules, n, s))
        print(f"{rules.describe()}: {n} games, {entries[-1]['samples']} samples, "
              f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
        if heldout is not None:
            print(f"  held out: {heldout} games dealt from seed {s + n}", file=sys.stderr)
            for phase, count, loss, even in heldout_loss(fitting.samples(rules, heldout, s + n), entries[-1]["win"]):
                print(f"  phase {phase}: {count} samples, log loss {loss:.4f}, even chances {even:.4f} "
                      f"({100 * (loss / even - 1):+.1f}%)", file=sys.stderr)
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(models_text(fitting, entries))


if __name__ == "__main__":  # pragma: no cover
    main()
