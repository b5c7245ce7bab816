"""Cannonball Colony's ``hint`` face: what a hint asks of the game beyond the search protocol (R20).

``kanaloa.play.hint`` searches any registered game through its ``search``
face and asks this one (``CannonballHint``) what to say about the result:

* ``state_of(position)``: the state to search, the position's state in the
  default engine (the compiled core when it is built);
* ``move_name(ruleset, state, action)``: an action in the notation
  (``road c2``, ``fire d5``);
* ``gains(ruleset, before, after, mover)``: what the plan gains for the
  mover, a ``CannonballGain``: its forts on the island (R20.7), the cannons
  it has earned (R20.8), and the forts its rivals have on the island (a shot
  takes one away, R20.9);
* ``plan_end(state)``: the state a plan ends in, as two orders of a plan are
  compared (the whole state: nothing in it is unordered).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .format import move_text
from .reference import cannons_earned
from .search import engine_data
from .state import CannonballData


@dataclass(frozen=True)
class Holding:
    """What the mover has at one moment: forts on the island, cannons earned, and its rivals' forts there."""

    forts: int
    cannons: int
    rival_forts: int

    @classmethod
    def of(cls, d: CannonballData, seat: int) -> Holding:
        rivals = sum(d.forts_on_island(other) for other in range(d.players) if other != seat)
        return cls(d.forts_on_island(seat), cannons_earned(d, seat), rivals)

    def to_json(self) -> dict[str, int]:
        return {"forts": self.forts, "cannons": self.cannons, "rival_forts": self.rival_forts}


@dataclass(frozen=True)
class CannonballGain:
    """The mover before (``now``) and after the plan (``after``)."""

    now: Holding
    after: Holding

    def to_json(self) -> dict[str, Any]:
        return {"now": self.now.to_json(), "after": self.after.to_json()}

    def describe(self) -> str:
        """``forts 3 -> 4, cannons earned 1 -> 1, rivals' forts 5 -> 4 (R20.7-R20.9)``."""
        now, after = self.now, self.after
        return (f"forts {now.forts} -> {after.forts}, cannons earned {now.cannons} -> {after.cannons}, "
                f"rivals' forts {now.rival_forts} -> {after.rival_forts} (R20.7-R20.9)")


class CannonballHint:
    """The game's answers to the hint (module docstring)."""

    @staticmethod
    def state_of(position: Any) -> Any:
        return position.on(None).state

    @staticmethod
    def move_name(ruleset: Any, state: Any, action: int) -> str:
        return move_text(action, ruleset.countries, engine_data(state))

    @staticmethod
    def gains(ruleset: Any, before: Any, after: Any, mover: int) -> dict[str, CannonballGain]:
        return {ruleset.countries[mover]: CannonballGain(Holding.of(engine_data(before), mover),
                                                         Holding.of(engine_data(after), mover))}

    @staticmethod
    def plan_end(state: Any) -> CannonballData:
        return engine_data(state).copy()


CANNONBALL_HINT = CannonballHint()
