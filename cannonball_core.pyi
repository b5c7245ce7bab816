"""Typed stub of Cannonball Colony's compiled rules core ``cannonball_core`` (built from ``cannonball_core.pyx``)."""

from collections.abc import Sequence
from typing import Any

from kanaloa.cannonball.state import CannonballData

class CutModel:
    """What a rollout cut short is worth: per phase, win weights of a seat's features and point weights."""

    players: int
    def __init__(self, players: int, win: Sequence[Sequence[float]], points: Sequence[Sequence[float]]) -> None: ...
    @staticmethod
    def shape() -> tuple[int, int]:
        """(phases, features per seat)."""
    @staticmethod
    def feature_names() -> list[str]: ...
    def weights(self) -> tuple[list[list[float]], list[list[float]]]: ...

OBS_FIELD_NAMES: tuple[str, ...]

def observation_layout(players: int, columns: int, rows: int) -> list[tuple[str, int]]:
    """The fields of an observation, in order: (name, size)."""

class CoreState:
    """A complete Cannonball Colony state in C (R20)."""

    @staticmethod
    def from_data(d: CannonballData) -> CoreState: ...
    def to_data(self) -> CannonballData: ...
    def copy(self) -> CoreState: ...
    def __copy__(self) -> CoreState: ...
    def __deepcopy__(self, memo: dict[int, Any]) -> CoreState: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    def legal_actions(self) -> list[int]: ...
    def is_legal(self, action: int) -> bool: ...
    def apply(self, action: int) -> None:
        """Play a legal action; ValueError naming it otherwise."""
    @property
    def players(self) -> int: ...
    @property
    def columns(self) -> int: ...
    @property
    def rows(self) -> int: ...
    @property
    def to_move(self) -> int: ...
    @property
    def round(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def winners(self) -> list[int]: ...
    @property
    def ranking(self) -> list[int]: ...
    @property
    def reason(self) -> int: ...
    @property
    def supply(self) -> int: ...
    @property
    def passes(self) -> int: ...
    @property
    def fired(self) -> bool: ...
    @property
    def grass_roads(self) -> int: ...
    def network(self, seat: int) -> list[int]: ...
    def in_range(self, seat: int) -> list[int]: ...
    def check_derived(self) -> bool:
        """Whether the kept networks and ranges equal ones computed afresh (for tests)."""
    def observation_size(self) -> int: ...
    def observe(self, viewer: int, out: Any) -> None:
        """Write the state as ``viewer`` sees it into ``out`` (float32, ``observation_size()`` numbers)."""
    def legal_mask(self, out: Any) -> int:
        """Mark the legal actions' indices in ``out`` (int8); how many are legal."""
    def heuristic_action(self, seed: int) -> int | None:
        """The heuristic playout policy's move here on SplitMix64(seed); None once over."""
    def playout(self, seed: int, heuristic: bool = ...) -> int:
        """Play a copy to the end in C on SplitMix64(seed); this state is unchanged; the number of moves."""
    def rollout(self, seed: int, heuristic: bool = ...) -> int:
        """Play this state itself to the end in C (a search's rollout); the number of moves played."""
    def random_games(self, n: int, seed: int, heuristic: bool = ...) -> int:
        """Game g is ``playout(seed + g, heuristic)`` from this state; the total moves of the n games."""
    @property
    def forts(self) -> list[int]:
        """Each seat's forts on the island."""
    def cut_features(self) -> tuple[int, list[list[float]]]:
        """(phase, features of every seat) as a cut model judges this state."""
    def estimate(self, model: CutModel) -> tuple[list[float], list[float]]:
        """(win chance, expected final forts) of every seat by ``model``."""
    def playout_cut(self, seed: int, heuristic: bool, plies: int,
                    model: CutModel) -> tuple[list[float], list[float]] | None:
        """At most ``plies`` moves of ``rollout``; None if the game ended, else ``estimate(model)``."""
    def sampled_playout(self, seed: int, heuristic: bool, sample_seed: int,
                        share: float) -> list[tuple[int, list[list[float]]]]:
        """Play to the end and return ``cut_features()`` of the states a sample stream picks."""
