"""Cannonball Colony as numbers, for learning: its ``tensor`` face (``kanaloa.rules.registry``, R20).

``CannonballTensor(rules)`` answers what ``kanaloa.pettingzoo`` asks of a rule set, from the compiled core
(``cannonball_core``):

* **Actions**: ``kind * spaces + space`` for the six kinds that name a space (land, fire, road, fort,
  cannon, blockade), then ``end`` and ``pass``: the numbering of the game's OpenSpiel face
  (``action_codes``).  The island's grid is the same for every game of a rule set (R20.1: its tiles and
  player count fix it), so the space is fixed.
* **The observation**: the core's ``CoreState.observe``.  Nothing is hidden (R20), so a seat's observation
  is the whole state with its own seat first; docs/pettingzoo.md describes each field.
* **Returns** (R20.10): ``1/k`` to each of the ``k`` seats sharing the victory, 0 to the others.
* No batched core: ``batch`` is None.
"""

from __future__ import annotations

from typing import Any

from ..rules.tensor import INFINITE, Field, describe_fields
from .core import CoreState, observation_layout
from .reference import victory_shares
from .ruleset import CannonballRules
from .state import END, LAND, PASS, encode

__all__ = ["CannonballTensor", "action_codes"]

SPACE_KINDS = range(LAND, END)  # the kinds of action that name a space


def action_codes(spaces: int) -> list[int]:
    """The action codes of an island of ``spaces`` spaces in the dense numbering: every kind that names a
    space, space by space, then ``end`` and ``pass``."""
    return [encode(kind, space) for kind in SPACE_KINDS for space in range(spaces)] + [encode(END), encode(PASS)]


class CannonballTensor:
    """Cannonball Colony's ``tensor`` face for one rule set (module docstring)."""

    def __init__(self, rules: CannonballRules) -> None:
        if CoreState is None:  # pragma: no cover - depends on how the checkout was installed
            raise ImportError("the compiled core 'cannonball_core' is not built: run `pip install .`")
        self.ruleset = rules
        self.players = rules.players
        start = rules.new_game(0)
        self.columns, self.rows = start.columns, start.rows
        self.spaces = start.spaces
        self.codes: tuple[int, ...] = tuple(action_codes(self.spaces))
        self._index = {code: i for i, code in enumerate(self.codes)}
        layout = observation_layout(self.players, self.columns, self.rows)
        self.fields = self._fields(dict(layout))
        self.observation_size = sum(f.size for f in self.fields)

    def _fields(self, sizes: dict[str, int]) -> tuple[Field, ...]:
        p, grid = self.players, (self.rows, self.columns)
        supply = float(self.ruleset.road_tiles)
        known: dict[str, tuple[tuple[int, ...], float, str]] = {
            "terrain": ((4, *grid), 1, "per terrain (grass, forest, lake, mountain), 1 on its spaces (R20.1)"),
            "boards": ((p, *grid), 1, "per seat, 1 on the spaces of its landing board (R20.1)"),
            "roads": (grid, 1, "1 where a road tile lies"),
            "forts": ((p, *grid), 1, "per seat, 1 where its forts stand"),
            "cannons": ((p, *grid), 1, "per seat, 1 where its cannons stand (R20.9)"),
            "blockades": ((p, *grid), 1, "per seat, 1 where its blockade stands"),
            "ships": ((p, *grid), 1, "per seat, 1 on its ship's landing space (R20.4)"),
            "earned": ((p, 3), 1, "per seat, 1 for each piece earned: first cannon, second cannon, blockade (R20.8)"),
            "supply": ((1,), supply, "road tiles left in the supply (R20.3)"),
            "fired": ((1,), 1, "1 once the mover has shot this turn (R20.6)"),
            "grass_roads": ((1,), 1, "1 after a first grass road, while the turn stays open for a second (R20.6)"),
            "passes": ((1,), INFINITE, "turns in a row that ended with a pass (R20.10)"),
            "round": ((3,), 1, "1 at the round: landing, play, over"),
            "to_move": ((p,), 1, "1 at the seat to move (none once the game is over)"),
            "winners": ((p,), 1, "1 at every seat sharing the victory, once the game is over (R20.10)"),
        }
        out = []
        for name, size in sizes.items():
            shape, high, text = known[name]
            field = Field(name, shape, float(high), text)
            if field.size != size:
                raise ImportError(f"cannonball_core lays out {size} numbers for field {name}, the package "
                                  f"{shape}: rebuild it")
            out.append(field)
        return tuple(out)

    @property
    def n_actions(self) -> int:
        return len(self.codes)

    def deal(self, seed: int) -> Any:
        """A new game of the rule set, its island laid out from ``seed``, in the core."""
        start = self.ruleset.new_game(seed)
        if (start.columns, start.rows) != (self.columns, self.rows):  # pragma: no cover - R20.1 fixes the grid
            raise ValueError(f"seed {seed}: the island is {start.columns} x {start.rows}, not the rule set's "
                             f"{self.columns} x {self.rows}")
        return CoreState.from_data(start)

    def action_of(self, code: int) -> int:
        """The action (index) of an action code; ValueError for a code of no space of this island."""
        try:
            return self._index[code]
        except (KeyError, TypeError):
            raise ValueError(f"action code {code!r}: not an action on this island") from None

    def code_of(self, action: int) -> int:
        """The action code of an action (index); ValueError outside 0 .. n_actions - 1."""
        if isinstance(action, bool) or not hasattr(action, "__index__") or not 0 <= action < len(self.codes):
            raise ValueError(f"action: must be from 0 to {len(self.codes) - 1}, not {action!r}")
        return self.codes[action.__index__()]

    def observe(self, state: Any, viewer: int, out: Any) -> None:
        """Write the state as ``viewer`` sees it into ``out`` (float32, ``observation_size`` numbers)."""
        state.observe(viewer, out)

    def legal_mask(self, state: Any, out: Any) -> int:
        """Mark the legal actions of the player to move in ``out`` (int8, ``n_actions``); how many there are."""
        legal: int = state.legal_mask(out)
        return legal

    def returns(self, state: Any) -> list[float]:
        """Each seat's share of the victory once the game is over (module docstring); zeros before."""
        return victory_shares(list(state.winners) if state.is_over else [], self.players)

    def batch(self, n: int, seed: int) -> None:
        """No batched core for this game."""
        return None

    def describe(self) -> list[str]:
        """The observation's fields for people (``describe_fields``)."""
        return describe_fields(self.fields)
