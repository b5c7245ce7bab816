"""What a game offers for fitting the models of its rollouts cut short (``kanaloa.tools.cutfit``).

A game's ``cutfit`` face (``kanaloa.rules.registry``) is a ``Fitting``: the rule
sets of its shipped models file, sample games of one of them, and a check of an
entry against its core.  The fitting itself is the same for every game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..rules.ruleset import Ruleset

if TYPE_CHECKING:
    from .records import GameRecord


@dataclass
class Samples:
    """Per sample: its phase, the features of every seat (``features``), each seat's share of the game's
    victory (all zero when nobody won), the features of every color (``color_features``; a color a seat in
    most games) and each color's final points."""

    phases: list[int]
    features: list[list[list[float]]]
    shares: list[list[float]]
    color_features: list[list[list[float]]]
    points: list[list[float]]

    def add_game(self, taken: Sequence[tuple[int, list[list[float]], list[list[float]]]], shares: list[float],
                 points: list[float]) -> None:
        """Add one game's samples, each (phase, features of every seat, features of every color), with the
        game's result: each seat's share of the victory and each color's final points."""
        for phase, features, color_features in taken:
            self.phases.append(phase)
            self.features.append(features)
            self.shares.append(shares)
            self.color_features.append(color_features)
            self.points.append(points)


class Fitting(Protocol):
    """What a game's ``cutfit`` face offers (see the module docstring)."""

    models_format: str   # the file's ``format``
    policy: str          # the playout policy the models are fitted to, and the rollouts play
    default_games: int   # sample games per rule set
    default_seed: int

    def rule_sets(self) -> list[Ruleset]:
        """The rule sets of the shipped models file, in the file's order."""

    def shape(self, ruleset: Ruleset) -> tuple[int, int, int]:
        """(phases, features per seat, features per color) of ``ruleset``'s model."""

    def feature_names(self, ruleset: Ruleset) -> list[str]:
        """The names of the features per seat, in order (a color's are those of a seat with one color)."""

    def head(self, ruleset: Ruleset) -> dict[str, Any]:
        """The keys that name ``ruleset`` in an entry of the file (its game and parameters)."""

    def samples(self, ruleset: Ruleset, games: int, seed: int) -> Samples:
        """Samples from ``games`` games of ``ruleset`` played by ``policy``, dealt from ``seed`` on."""

    def record_samples(self, ruleset: Ruleset, records: Sequence[GameRecord], seed: int) -> Samples:
        """Samples from recorded games of ``ruleset`` (``kanaloa-game/1``, e.g. a search's own games from
        ``kanaloa simulate --out``): each game replayed from its deal, its states chosen from ``seed``."""

    def check(self, entry: dict[str, Any]) -> None:
        """Raise ``ValueError`` for an entry the game's core would refuse."""
