"""An example: a small policy trained with plain NumPy against the ``greedy`` bot, through ``GameBatch``.

    python -m kanaloa.pettingzoo.train --game kahuna --games 64 --rounds 30 --eval-games 256 --seed 1

The policy is linear: for the seat it plays, each action's score is the
observation (the game's ``tensor`` face, each field scaled by its bound)
times that action's weights, and it plays the legal actions with the softmax
of their scores.  It starts at zero weights, that is uniformly random legal
play.  Every round plays ``--games`` games at once in the batched core
against the game's ``greedy`` player (its ``greedy`` face, ``--greedy-width``
states a decision) in every other seat, the policy's seat alternating from
game to game, and then moves the weights along REINFORCE's gradient: each of
its choices made more likely by how far the game's result (1 won, 0 lost)
lies above the round's mean, in standard deviations.  Its win share is measured before and after, on the same
``--eval-games`` games (dealt from ``--seed``), with the greedy bot's and the
policy's draws seeded alike, so the two figures differ by the training alone.

Everything random flows from ``--seed``.  The figures of docs/pettingzoo.md
were made by the command above.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .batch import GameBatch

__all__ = ["LinearPolicy", "Result", "evaluate", "main", "play_round", "train"]

SCORE_SCALE = 30.0  # the scale of a field no rule bounds (scores)


class LinearPolicy:
    """A softmax over the legal actions of linear scores of the scaled observation (module docstring)."""

    def __init__(self, batch: GameBatch) -> None:
        highs = [f.high if np.isfinite(f.high) and f.high > 0 else SCORE_SCALE for f in batch.tensor.fields]
        self.scale = np.concatenate([np.full(f.size, 1.0 / h, np.float32)
                                     for f, h in zip(batch.tensor.fields, highs, strict=True)])
        self.weights = np.zeros((batch.observation_size + 1, batch.n_actions), np.float32)  # the last row: bias

    def features(self, observations: np.ndarray) -> np.ndarray:
        """The scaled observations, with a constant 1 for the bias."""
        x = observations * self.scale
        return np.concatenate([x, np.ones((len(x), 1), np.float32)], axis=1)

    def probabilities(self, features: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Each row's probability of each action: the softmax of the legal actions' scores, 0 for the others."""
        scores = features @ self.weights
        scores = np.where(masks != 0, scores, -np.inf)
        scores -= scores.max(axis=1, keepdims=True)
        p = np.exp(scores)
        return p / p.sum(axis=1, keepdims=True)

    def choose(self, features: np.ndarray, masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        p = self.probabilities(features, masks)
        u = rng.random((len(p), 1))
        return np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1)


@dataclass
class Result:
    """What a round of games gave the policy: wins (a shared victory counts its share), games played, and its
    choices with the result of the game each was made in."""

    wins: float = 0.0
    games: int = 0
    choices: list[tuple[np.ndarray, np.ndarray, int, float]] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0


def play_round(policy: LinearPolicy, game: str, params: dict[str, Any], games: int, seed: int, width: int,
               learn: bool) -> Result:
    """Play ``games`` games at once (``GameBatch`` dealt from ``seed``), the policy in seat ``i % players`` of
    game ``i`` and the game's greedy player in the others; each game's first result counts."""
    batch = GameBatch(game, games, seed, **params)
    rs = batch.ruleset
    greedy = rs.game_type.face("greedy")(rs, width)
    rng, draws = np.random.default_rng(seed), random.Random(seed)
    seat = np.arange(games) % batch.players
    done = np.zeros(games, bool)
    pending: list[list[tuple[np.ndarray, np.ndarray, int]]] = [[] for _ in range(games)]
    result = Result()
    while not done.all():
        actions = batch.random_actions()  # what a slot whose game is over plays: nothing counts any more
        ours = np.flatnonzero(~done & (batch.to_move == seat))
        if len(ours):
            x = policy.features(batch.observations[ours])
            chosen = policy.choose(x, batch.action_masks[ours], rng)
            actions[ours] = chosen
            if learn:
                for row, i in enumerate(ours):
                    pending[i].append((x[row], batch.action_masks[i].copy(), int(chosen[row])))
        for i in np.flatnonzero(~done & (batch.to_move != seat)):
            actions[i] = batch.action_of(greedy.choose(batch.state(int(i)), draws))
        _, _, rewards, dones = batch.step(actions)
        for i in np.flatnonzero(dones & ~done):
            won = float(rewards[i, seat[i]])
            result.wins += won
            result.games += 1
            result.choices.extend((x, mask, a, won) for x, mask, a in pending[i])
            done[i] = True
    return result


def learn_from(policy: LinearPolicy, result: Result, rate: float) -> None:
    """One REINFORCE step: each choice made more likely by how far its game's result (1 won, 0 lost) lies above
    the round's mean, in standard deviations of the round's results (a round all won or all lost moves
    nothing)."""
    if not result.choices:
        return
    x = np.stack([c[0] for c in result.choices])
    masks = np.stack([c[1] for c in result.choices])
    taken = np.array([c[2] for c in result.choices])
    results = np.array([c[3] for c in result.choices], np.float32)
    spread = float(results.std())
    if spread == 0.0:
        return
    advantage = (results - results.mean()) / spread
    p = policy.probabilities(x, masks)
    p[np.arange(len(taken)), taken] -= 1.0  # the gradient of log p(taken) is onehot - p
    policy.weights -= rate * (x.T @ (p * advantage[:, None])) / len(taken)


def evaluate(policy: LinearPolicy, game: str, params: dict[str, Any], games: int, seed: int, width: int) -> Result:
    return play_round(policy, game, params, games, seed, width, learn=False)


def train(game: str, params: dict[str, Any], games: int, rounds: int, eval_games: int, width: int, rate: float,
          seed: int, say: Callable[[str], None]) -> tuple[Result, Result]:
    """Measure, train for ``rounds`` rounds, measure again; (before, after)."""
    probe = GameBatch(game, 1, seed, **params)
    policy = LinearPolicy(probe)
    say(f"{probe.ruleset.describe()}: a linear policy against greedy (width {width}), {games} games a round")
    before = evaluate(policy, game, params, eval_games, seed, width)
    say(f"before training: {before.wins:g} wins in {before.games} games ({100 * before.share:.1f}%)")
    for r in range(rounds):
        started = time.process_time()
        result = play_round(policy, game, params, games, seed + 1 + r * games, width, learn=True)
        learn_from(policy, result, rate)
        say(f"round {r + 1}/{rounds}: win share {100 * result.share:.1f}% over {result.games} games, "
            f"{len(result.choices)} choices learnt from ({time.process_time() - started:.1f} s)")
    after = evaluate(policy, game, params, eval_games, seed, width)
    say(f"after training: {after.wins:g} wins in {after.games} games ({100 * after.share:.1f}%)")
    return before, after


def _positive(most: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer, not {text!r}") from None
        if not 1 <= value <= most:
            raise argparse.ArgumentTypeError(f"must be from 1 to {most}, not {value}")
        return value
    return parse


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # one line, status 2, as the kanaloa command's errors
        self.exit(2, f"error: {message}\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _Parser(prog="python -m kanaloa.pettingzoo.train",
                     description="Train a linear policy with plain NumPy against the greedy bot through the batched "
                                 "API, and print its win share before and after.")
    parser.add_argument("--game", default="kahuna", help="a registered game with a batched core (default kahuna)")
    parser.add_argument("--players", type=_positive(4), help="its player count (default: the game's)")
    parser.add_argument("--games", type=_positive(4096), default=64, help="games a round (default 64)")
    parser.add_argument("--rounds", type=_positive(10_000), default=10, help="rounds (default 10)")
    parser.add_argument("--eval-games", type=_positive(4096), default=64,
                        help="games measured before and after (default 64)")
    parser.add_argument("--greedy-width", type=_positive(100_000), default=20,
                        help="states the greedy bot may look at per decision (default 20)")
    parser.add_argument("--rate", type=float, default=1.0, help="the learning rate (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of every deal and draw (default 1)")
    args = parser.parse_args(argv)
    if not np.isfinite(args.rate) or args.rate <= 0:
        parser.error(f"--rate: must be a positive number, not {args.rate}")
    if not 0 <= args.seed < 2**63:
        parser.error(f"--seed: must be from 0 to 2**63-1, not {args.seed}")
    params = {} if args.players is None else {"players": args.players}
    try:
        GameBatch(args.game, 1, args.seed, **params)
    except ValueError as exc:
        parser.error(f"--game {args.game}: {exc}")
    train(args.game, params, args.games, args.rounds, args.eval_games, args.greedy_width, args.rate, args.seed,
          lambda line: print(line, flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
