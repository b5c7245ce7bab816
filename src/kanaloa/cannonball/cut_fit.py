"""Cannonball Colony's side of fitting the models of rollouts cut short (``kanaloa.tools.cutfit``).

``CANNONBALL_FIT`` is the game's ``cutfit`` face (``kanaloa.rules.registry``):
the rule sets of ``cut_models.json`` (``kanaloa.cannonball.cut``: 2, 3 and 4
players on the built-in tiles) and their sample games, played to the end by
the compiled core's heuristic playout policy for every seat, the policy the
rollouts play.  Game ``g`` of a sample is dealt from ``seed + g`` (its island
laid out from that seed, R20.2); its moves come from output ``2g`` of the
SplitMix64 stream seeded with ``seed``, and its samples, a tenth of its
states (the landing round's too, the finished game's not), are chosen by
output ``2g + 1`` (``CoreState.sampled_playout``).  A sample's result is each
player's share of the victory (R20.10: ``1/k`` for each of ``k`` winners) and
its points are each player's forts on the island at the end.
"""

from __future__ import annotations

from typing import Any

from ..play.evaluation import Samples
from ..rules.rng import SplitMix64
from .core import CoreState, CutModel
from .cut import FITTED_POLICY, MODELS_FORMAT, entry_rules, read_models
from .reference import victory_shares
from .ruleset import CannonballRules, make_cannonball

SAMPLE_SHARE = 0.1  # of the states of a game
PLAYERS = (2, 3, 4)  # the rule sets of the file: each player count on the built-in tiles


class CannonballFit:
    """The ``Fitting`` of ``kanaloa.tools.cutfit`` for Cannonball Colony's ``cut_models.json``."""

    models_format = MODELS_FORMAT
    policy = FITTED_POLICY
    default_games = 40_000
    default_seed = 20_000_000

    def rule_sets(self) -> list[Any]:
        return [make_cannonball(players=players) for players in PLAYERS]

    def _features(self) -> list[str]:
        if CutModel is None:
            raise ValueError("the compiled core (cannonball_core) is not built; fitting plays in it")
        return list(CutModel.feature_names())

    def shape(self, ruleset: Any) -> tuple[int, int, int]:
        self._features()
        phases, width = CutModel.shape()
        return int(phases), int(width), int(width)  # a player's features weigh both its chance and its forts

    def feature_names(self, ruleset: Any) -> list[str]:
        return self._features()

    def head(self, ruleset: Any) -> dict[str, Any]:
        rules = _rules(ruleset)
        tiles = [tile.source or tile.name for tile in rules.tiles]
        return {"game": rules.game, "players": rules.players, "tiles": tiles}

    def samples(self, ruleset: Any, games: int, seed: int) -> Samples:
        rules = _rules(ruleset)
        self._features()
        stream = SplitMix64(seed)
        out = Samples([], [], [], [], [])
        for g in range(games):
            moves, picks = stream.next(), stream.next()
            state = CoreState.from_data(rules.new_game(seed + g))
            taken = state.sampled_playout(moves, True, picks, SAMPLE_SHARE)
            shares = victory_shares(state.winners, rules.players)
            points = [float(f) for f in state.forts]
            out.add_game([(phase, features, features) for phase, features in taken], shares, points)
        return out

    def check(self, entry: dict[str, Any]) -> None:
        read_models({"format": MODELS_FORMAT, "models": [entry]})
        entry_rules(entry)


def _rules(ruleset: Any) -> CannonballRules:
    if not isinstance(ruleset, CannonballRules):
        raise ValueError(f"ruleset: not a rule set of Cannonball Colony ({type(ruleset).__name__})")
    return ruleset


CANNONBALL_FIT = CannonballFit()
