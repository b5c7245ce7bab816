"""The Kanaloa family's side of fitting the models of rollouts cut short (``kanaloa.tools.cutfit``).

``FAMILY_FIT`` is the registry's ``cutfit`` face of Kanaloa and Kahuna: the rule sets
of ``cut_models.json`` (``kanaloa.play.cut``), and the sample games, played to
the end by the core's heuristic playout policy for every seat, the policy the
rollouts play.  Each game is dealt from ``seed + g``; its moves come from
SplitMix64 output ``2g`` of the stream seeded with ``seed`` and its samples, a
tenth of its states after the setup (R3), chosen by output ``2g + 1``
(``CoreState.sampled_playout``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..rules.core import POLICY_HEURISTIC, CoreState, CutModel
from ..rules.engine import load_engine
from ..rules.registry import game_types
from ..rules.ruleset import Parameter, Ruleset
from ..rules.state import ROUND_SETUP
from .cut import FITTED_POLICY, MODELS_FORMAT, entry_params, read_models
from .evaluation import Samples

if TYPE_CHECKING:
    from .records import GameRecord

SAMPLE_SHARE = 0.1  # of the states after the setup, in the playout policy's games
RECORD_SHARE = 0.5  # of those of a recorded game (few games, each dear to play)
FACE = "kanaloa.play.cut_fit:FAMILY_FIT"  # the registry's cutfit face of the games this file serves


def _splitmix(seed: int, count: int) -> list[int]:
    """The first ``count`` outputs of SplitMix64 seeded with ``seed``."""
    out, state = [], seed & 0xFFFFFFFFFFFFFFFF
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        out.append(z ^ (z >> 31))
    return out


def _value(parameter: Parameter, choice: str) -> object:
    """A parameter's choice as ``load_game`` takes it: a number for an ``int`` parameter, a truth value for a
    ``flag``, else the text."""
    if parameter.kind == "int":
        return int(choice)
    if parameter.kind == "flag":
        return choice == "true"
    return choice


class FamilyFit:
    """The ``Fitting`` of ``kanaloa.tools.cutfit`` for ``cut_models.json``."""

    models_format = MODELS_FORMAT
    policy = FITTED_POLICY
    default_games = 60_000
    default_seed = 10_000_000

    def rule_sets(self) -> list[Ruleset]:
        """Every rule set of each game this face serves, on its default board: every combination of the
        parameters that take one of a few values (players, preset, gods), in the registry's order."""
        out: list[Ruleset] = []
        for game in game_types():
            if game.faces.get("cutfit") != FACE:
                continue
            chosen = [p for p in game.parameters if p.choices]
            for values in itertools.product(*(p.choices for p in chosen)):
                rules = game.load(**{p.name: _value(p, v) for p, v in zip(chosen, values, strict=True)})
                assert isinstance(rules, Ruleset)
                out.append(rules)
        return out

    def shape(self, ruleset: Ruleset) -> tuple[int, int, int]:
        buckets, width = CutModel.shape(ruleset.code, ruleset.players)
        return int(buckets), int(width), len(CutModel.feature_names(ruleset.code, 4))

    def feature_names(self, ruleset: Ruleset) -> list[str]:
        return list(CutModel.feature_names(ruleset.code, ruleset.players))

    def head(self, ruleset: Ruleset) -> dict[str, Any]:
        return {"game": ruleset.game, **ruleset.record_params()}

    def samples(self, ruleset: Ruleset, games: int, seed: int) -> Samples:
        engine = load_engine("core")
        streams = _splitmix(seed, 2 * games)
        out = Samples([], [], [], [], [])
        for g in range(games):
            state = engine.deal(ruleset, seed + g)
            assert isinstance(state, CoreState)
            taken = state.sampled_playout(streams[2 * g], POLICY_HEURISTIC, streams[2 * g + 1], SAMPLE_SHARE)
            shares = [0.0] * ruleset.players
            if state.winner >= 0:
                shares[state.winner] = 1.0
            points = [float(p) for p in state.scores]
            for phase, features, color_features in taken:
                out.phases.append(phase)
                out.features.append(features)
                out.shares.append(shares)
                out.color_features.append(color_features)
                out.points.append(points)
        return out

    def record_samples(self, ruleset: Ruleset, records: Sequence[GameRecord], seed: int) -> Samples:
        """Each record's game dealt again and its moves played; a state after the setup is a sample with chance
        ``RECORD_SHARE``, drawn from SplitMix64 output ``g`` of the stream seeded with ``seed`` for the ``g``-th
        record; the result is the record's."""
        from ..position import deal_position

        streams = _splitmix(seed, len(records))
        out = Samples([], [], [], [], [])
        for g, rec in enumerate(records):
            if rec.ruleset != ruleset:
                raise ValueError(f"{rec.source or f'record {g}'}: a game of {rec.ruleset.describe()}, not of "
                                 f"{ruleset.describe()}")
            pick = random.Random(streams[g])
            pos = deal_position(ruleset, rec.seed, load_engine("core"))
            taken = []
            for move in rec.moves:
                state = pos.state
                assert isinstance(state, CoreState)
                if state.round != ROUND_SETUP and not state.is_over and pick.random() < RECORD_SHARE:
                    phase, features = state.cut_features()
                    taken.append((phase, features, state.color_features()))
                pos.play(move)
            shares = [float(rec.won(seat)) for seat in range(ruleset.players)]
            points = [float(p) for p in pos.state.scores]
            for phase, features, color_features in taken:
                out.phases.append(phase)
                out.features.append(features)
                out.shares.append(shares)
                out.color_features.append(color_features)
                out.points.append(points)
        return out

    def check(self, entry: dict[str, Any]) -> None:
        read_models({"format": MODELS_FORMAT, "models": [entry]})
        entry_params(entry)


FAMILY_FIT = FamilyFit()
