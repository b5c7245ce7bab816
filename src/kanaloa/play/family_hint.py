"""The Kanaloa family's ``hint`` face: what a hint asks of the game beyond the search protocol.

``kanaloa.play.hint`` searches any registered game through its ``search``
face; what it says about the result is the game's to say, and this module
says it for Kanaloa and Kahuna (``FamilyHint``):

* ``state_of(position)``: the state to search, the position's state in the
  compiled core (the search runs there), as read: not checked again;
* ``move_name(ruleset, state, action)``: an action in the move notation, as
  the player to move in ``state`` plays it (a 2-player game's builds name
  their color, R15.3);
* ``gains(ruleset, before, after, mover)``: what the plan gains for each
  color of the mover, a ``Gain`` each (islands R2, score, and what the
  islands would score at the next scoring, R11; Kahuna R16.6, R16.7);
* ``plan_end(state)``: the state a plan ends in, as two orders of a plan are
  compared (``kanaloa.play.hint.same_plan``): the order of the open discards
  is left out, as nothing but a reshuffle (R9) uses it and that shuffles them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..position.notation import Move
from ..rules.core import CoreState
from ..rules.engine import load_engine

if TYPE_CHECKING:
    from ..rules.board import Board
    from ..rules.ruleset import Ruleset


@dataclass(frozen=True)
class Standing:
    """What one color has: islands controlled (R2), points so far, and what its islands would score now (R11).

    ``if_scored`` is the next scoring's worth: scoring 1 in round 1, the final
    scoring (+1 an island) in round 2 and the final round, 0 once the game is
    over.
    """

    islands: int
    score: int
    if_scored: int

    def to_json(self) -> dict[str, int]:
        return {"islands": self.islands, "score": self.score, "if_scored": self.if_scored}


@dataclass(frozen=True)
class Gain:
    """A color of the mover before (``now``) and after the plan (``after``); ``scoring`` is the rule of the
    next scoring (R11, or Kahuna's R16.6 and R16.7)."""

    now: Standing
    after: Standing
    scoring: str = field(default="R11", compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"now": self.now.to_json(), "after": self.after.to_json()}

    def describe(self) -> str:
        """``islands 3 -> 4, score 2 -> 2, islands would score 3 -> 5 (R11)``."""
        now, after = self.now, self.after
        return (f"islands {now.islands} -> {after.islands}, score {now.score} -> {after.score}, islands would "
                f"score {now.if_scored} -> {after.if_scored} ({self.scoring})")


def standing(state: CoreState, board: Board, color: int, ruleset: Ruleset) -> Standing:
    """``color``'s islands (R2), score, and what its islands would add at the next scoring (R11): scoring 1
    in round 1, the final scoring (+1 an island) in round 2 and the final round, nothing once the game is over.
    In Kahuna (R16.6, R16.7) the next scoring is the interim one of rounds 1 and 2 (1 or 2 points to the
    player with more islands), then the final one (the difference)."""
    islands = sum(1 for i in range(board.n_islands) if state.controller_of(i) == color)
    worth = 0 if state.is_over else state.points_if_scored(ruleset.next_scoring_is_final(state.round))[color]
    return Standing(islands, state.scores[color], worth)


def scoring_rule(ruleset: Ruleset, round_code: int) -> str:
    """The rule of the next scoring from round ``round_code``: R11 in Kanaloa; Kahuna's interim scorings
    R16.6, its final one R16.7."""
    return ruleset.rule_of("final scoring" if ruleset.next_scoring_is_final(round_code) else "scoring")


class FamilyHint:
    """The family's answers to the hint (module docstring)."""

    @staticmethod
    def state_of(position: Any) -> CoreState:
        state = position.on(load_engine("core")).state
        assert isinstance(state, CoreState)
        return state

    @staticmethod
    def move_name(ruleset: Ruleset, state: CoreState, action: int) -> str:
        return str(Move.from_action(action, ruleset, state.to_move))

    @staticmethod
    def gains(ruleset: Ruleset, before: CoreState, after: CoreState, mover: int) -> dict[str, Gain]:
        rule = scoring_rule(ruleset, before.round)
        return {ruleset.colors[c]: Gain(standing(before, ruleset.board, c, ruleset),
                                        standing(after, ruleset.board, c, ruleset), rule)
                for c in ruleset.colors_of(mover)}

    @staticmethod
    def plan_end(state: CoreState) -> Any:
        data = state.to_data()
        return dataclasses.replace(data, discard_open=sorted(data.discard_open))


FAMILY_HINT = FamilyHint()
