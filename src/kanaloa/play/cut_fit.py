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

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..rules.core import POLICY_HEURISTIC, CoreState, CutModel
from ..rules.engine import load_engine
from ..rules.registry import load_game
from ..rules.rng import SplitMix64
from ..rules.ruleset import Ruleset
from ..rules.state import ROUND_SETUP
from .cut import FITTED_POLICY, MODEL_GAMES, MODELS_FORMAT, entry_params, read_models
from .evaluation import Samples

if TYPE_CHECKING:
    from .records import GameRecord

SAMPLE_SHARE = 0.1  # of the states after the setup, in the playout policy's games
RECORD_SHARE = 0.5  # of those of a recorded game (few games, each dear to play)
BOARD = "oro"


def _splitmix(seed: int, count: int) -> list[int]:
    """The first ``count`` outputs of SplitMix64 seeded with ``seed``."""
    stream = SplitMix64(seed)
    return [stream.next() for _ in range(count)]


class FamilyFit:
    """The ``Fitting`` of ``kanaloa.tools.cutfit`` for ``cut_models.json``."""

    models_format = MODELS_FORMAT
    policy = FITTED_POLICY
    default_games = 60_000
    default_seed = 10_000_000

    def rule_sets(self) -> list[Ruleset]:
        kanaloa, kahuna = MODEL_GAMES
        out = [load_game(kanaloa, players=players, preset=preset, gods=gods, board=BOARD)
               for preset in ("yucata", "tabletop") for gods in (False, True) for players in (2, 3, 4)]
        return [*out, load_game(kahuna)]

    def shape(self, ruleset: Ruleset) -> tuple[int, int, int]:
        buckets, width = CutModel.shape(ruleset.code, ruleset.players)
        return int(buckets), int(width), len(CutModel.feature_names(ruleset.code, 4))

    def feature_names(self, ruleset: Ruleset) -> list[str]:
        return list(CutModel.feature_names(ruleset.code, ruleset.players))

    def head(self, ruleset: Ruleset) -> dict[str, Any]:
        """The game, board and players, then the rule set's other parameters (Kanaloa's preset and gods) but its
        colors: the models are the same whatever the colors are called."""
        params = ruleset.params()
        params.pop("colors")
        head: dict[str, Any] = {"game": ruleset.game, "board": params.pop("board"), "players": params.pop("players")}
        head.update(params)
        return head

    def samples(self, ruleset: Ruleset, games: int, seed: int) -> Samples:
        engine = load_engine("core")
        streams = _splitmix(seed, 2 * games)
        out = Samples([], [], [], [], [])
        players = ruleset.players
        for g in range(games):
            state = engine.deal(ruleset, seed + g)
            assert isinstance(state, CoreState)
            taken = state.sampled_playout(streams[2 * g], POLICY_HEURISTIC, streams[2 * g + 1], SAMPLE_SHARE)
            shares = [0.0] * players
            if state.winner >= 0:
                shares[state.winner] = 1.0
            points = [float(p) for p in state.scores]
            out.add_game(taken, shares, points)
        return out

    def record_samples(self, ruleset: Ruleset, records: Sequence[GameRecord], seed: int) -> Samples:
        """Each record's game dealt again and its moves played; a state after the setup is a sample with chance
        ``RECORD_SHARE``, drawn from SplitMix64 output ``g`` of the stream seeded with ``seed`` for the ``g``-th
        record; the result is the record's."""
        from ..position import deal_position

        streams = _splitmix(seed, len(records))
        engine = load_engine("core")
        out = Samples([], [], [], [], [])
        for g, rec in enumerate(records):
            if rec.ruleset != ruleset:
                raise ValueError(f"{rec.source or f'record {g}'}: a game of {rec.ruleset.describe()}, not of "
                                 f"{ruleset.describe()}")
            pick = random.Random(streams[g])
            pos = deal_position(ruleset, rec.seed, engine)
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
            out.add_game(taken, shares, points)
        return out

    def check(self, entry: dict[str, Any]) -> None:
        read_models({"format": MODELS_FORMAT, "models": [entry]})
        entry_params(entry)


FAMILY_FIT = FamilyFit()
