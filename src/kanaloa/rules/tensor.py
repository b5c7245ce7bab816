"""A game of the Kanaloa family as numbers, for learning: its ``tensor`` face (``kanaloa.rules.registry``).

``FamilyTensor(ruleset)`` is what ``kanaloa.pettingzoo`` and its batched
games ask of a rule set of Kanaloa (with its presets, two players and the
gods) or Kahuna, all of it from the compiled core:

* **Actions** are the core's action codes (``kanaloa.rules.actions``)
  numbered densely: ``codes`` lists every code a game of the rule set can
  use, ascending (``action_codes``), and an action is its index there.  The
  core's ``ActionTable`` holds the numbering; ``legal_mask(state, out)``
  marks the legal actions of the player to move.
* **The observation** of a seat is the core's ``CoreState.observe``: one
  flat float32 array whose ``fields`` are what that seat knows, the knowledge
  of its viewer position (docs/engine.md "Knowledge"), every seat and color
  counted from the viewer.  docs/pettingzoo.md describes each field;
  ``Field.text`` says the same in a line.
* **Returns** (R12): 1 to the winner, 0 to every other seat; where each
  player plays two colors the R15.5 winner; nobody wins where the rule set
  may end without a winner (Kahuna's R16.8).
* ``batch(n, seed)`` is the core's ``CoreBatch``: ``n`` games stepped
  together in C, observed and masked by the very same functions.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import actions as A
from .core import CoreState, core_board, kanaloa_core
from .ruleset import Ruleset

__all__ = ["INFINITE", "FamilyTensor", "Field", "action_codes", "describe_fields"]

INFINITE = math.inf  # the bound of a field no rule bounds (scores)


@dataclass(frozen=True)
class Field:
    """One block of an observation: ``name``, its ``shape`` (its numbers in row-major order), the greatest
    value it may hold (``high``; every field is 0 or more) and what it holds, for people (``text``)."""

    name: str
    shape: tuple[int, ...]
    high: float
    text: str

    @property
    def size(self) -> int:
        return math.prod(self.shape)


def describe_fields(fields: Sequence[Field]) -> list[str]:
    """An observation's fields for people: one line each, its name, where it lies, its shape and its text."""
    lines, at = [], 0
    for f in fields:
        shape = " x ".join(str(k) for k in f.shape)
        lines.append(f"{f.name:<16} [{at}:{at + f.size}] {shape:<10} {f.text}")
        at += f.size
    return lines


def action_codes(rs: Ruleset) -> list[int]:
    """Every action code a game of rule set ``rs`` can use, ascending (``kanaloa.rules.actions``)."""
    board, jokers = rs.board, rs.joker is not None
    slots = (0, 1) if rs.pairs else (0,)  # a build's color slot: two where each player plays two colors (R15.3)
    combos = (A.SWAP_AA, A.SWAP_AB, A.SWAP_BB) + ((A.SWAP_JA, A.SWAP_JB, A.SWAP_JJ) if jokers else ())
    codes = set()
    for k, (a, b) in enumerate(board.links):
        for slot in slots:
            for paid in (a, b) + ((A.JOKER,) if jokers else ()):
                codes.add(A.encode(A.PLACE, k, paid | slot << A.SLOT_BIT))
            for combo in combos:
                codes.add(A.encode(A.SWAP, k, combo | slot << A.SLOT_BIT))
        for combo in (A.SWAP_AA, A.SWAP_AB, A.SWAP_BB) if rs.removal_pays else (0,):  # R16.3: a removal pays two
            codes.add(A.encode(A.REMOVE, k, combo))
    for x in range(board.n_islands):
        codes.update((A.encode(A.DISCARD, x), A.encode(A.TAKE, x), A.encode(A.REVEAL, x)))
    codes.update((A.encode(A.DRAW), A.encode(A.END), A.encode(A.PASS)))
    if rs.tokens:
        codes.update((A.encode(A.PELE), A.encode(A.LONO)))
        for seat in range(rs.players):
            codes.add(A.encode(A.KU, seat))
            for x in range(board.n_islands):
                codes.update((A.encode(A.STEAL, x), A.encode(A.GIVE, x, seat)))
    return sorted(codes)


def _fields(rs: Ruleset, sizes: dict[str, int]) -> tuple[Field, ...]:
    """The fields the core lays out (``sizes``: name -> size, in order), with their shapes, bounds and texts."""
    board = rs.board
    n, links, p = board.n_islands, len(board.links), rs.players
    colors = len(rs.colors_of(0)) * p
    cards, per = board.n_islands * board.cards_per_island, board.cards_per_island
    kinds = len(rs.tokens) if rs.tokens else 0
    others = p - 1
    known: dict[str, tuple[tuple[int, ...], float, str]] = {
        "bridges": ((colors, links), 1, "1 where the link holds a bridge of the color"),
        "hand": ((n,), per, "the viewer's cards, per island"),
        "hand_public": ((n,), per, "the viewer's cards every player knows of (taken face-up, not yet played)"),
        "known_hands": ((others, n), per, "per other seat, the cards the viewer knows it holds: the public ones, "
                                          "with the gods also those it saw (R14.10)"),
        "hand_sizes": ((p,), cards, "each seat's number of cards"),
        "face_up": ((sizes["face_up"] // n, n), 1, "the face-up row, slot by slot: 1 at the card's island"),
        "open_discards": ((n,), per, "the cards paid since the last reshuffle, per island"),
        "own_hidden": ((n,), per, "the viewer's face-down discards since the last reshuffle, per island"),
        "hidden_others": ((1,), cards, "how many face-down discards the other seats made since then"),
        "deck_size": ((1,), cards, "cards in the deck"),
        "deck_known": ((n,), per, "the cards the viewer saw go into the deck at the last reshuffle and has "
                                  "not seen come out since (docs/engine.md \"What a reshuffle reveals\")"),
        "deck_unseen": ((1,), cards, "how many cards of that reshuffle the viewer could not see"),
        "setup_card": ((n,), 1, "1 at the island of the card the viewer set aside (R3), while it lies aside"),
        "setup_done": ((p,), 1, "1 for each seat that has set a card aside (R3)"),
        "scores": ((colors,), INFINITE, "each color's points"),
        "round": ((sizes["round"],), 1, "1 at the round: setup, 1, 2, final, over, 3 (Kahuna's third deck)"),
        "to_move": ((p,), 1, "1 at the seat to move (none once the game is over)"),
        "played": ((1,), cards, "cards played this turn"),
        "discarded": ((1,), 1, "1 once the player to move has discarded this turn"),
        "skipped": ((1,), 1, "1 when the last turn ended without a draw (Kahuna, R16.5)"),
        "removals": ((sizes["removals"] // n, n), 1, "the islands where an R7 removal is owed, in order: 1 at "
                                                     "the island"),
        "final_done": ((p,), 1, "1 for each seat that has taken its final turn (R10)"),
        "final_passed": ((p,), 1, "1 for each seat that has passed in the final round (R10)"),
        "winner": ((p,), 1, "1 at the winner, once the game is over"),
        "turn_color": ((len(rs.colors_of(0)),), 1, "1 at the slot of the color the mover builds with this turn "
                                                    "(R15.3)"),
        "god_tokens": ((n, kinds), 1, "per island, 1 at the kind of the god token on it (R14.1)"),
        "gods_owned": ((p, kinds), 2, "per seat, its unused tokens of each kind (R14.2)"),
        "public_hands": ((others, n), per, "per other seat, its public cards"),
        "known_by_others": ((others, n), per, "per other seat, the viewer's cards it knows of (R14.10)"),
        "ku_target": ((p,), 1, "1 at the seat whose hand a KU showed, while the steal is owed (R14.6)"),
        "pele_gifts": ((others, p), 1, "the seats still owed a gift after PELE, in order: 1 at the seat (R14.7)"),
        "lono_draw": ((1,), 1, "1 while LONO's extra card is still to take (R14.8)"),
        "over_limit": ((1,), 1, "1 when a token use this turn left the hand above 4 (R14.9)"),
    }
    out = []
    for name, size in sizes.items():
        shape, high, text = known[name]
        if math.prod(shape) != size:
            raise ImportError(f"kanaloa_core lays out {size} numbers for field {name}, the package {shape}: rebuild it")
        out.append(Field(name, shape, float(high), text))
    return tuple(out)


class FamilyTensor:
    """The Kanaloa family's ``tensor`` face for one rule set (module docstring)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.board = core_board(ruleset.board)
        self.codes: tuple[int, ...] = tuple(action_codes(ruleset))
        self.table = kanaloa_core.ActionTable(list(self.codes))
        layout = kanaloa_core.observation_layout(self.board, ruleset.players, ruleset.code, ruleset.gods)
        self.fields = _fields(ruleset, dict(layout))
        self.observation_size = sum(f.size for f in self.fields)
        self.players = ruleset.players

    @property
    def n_actions(self) -> int:
        return len(self.codes)

    def deal(self, seed: int) -> CoreState:
        """A new game of the rule set dealt from ``seed``, in the core (as the position face deals it)."""
        rs = self.ruleset
        return CoreState.deal(self.board, rs.players, rs.preset_code, seed, rs.code, rs.gods)

    def action_of(self, code: int) -> int:
        """The action (index) of an action code; ValueError for a code the rule set cannot use."""
        index: int = self.table.index(code)
        if index < 0:
            raise ValueError(f"action code {code}: not an action of this rule set")
        return index

    def code_of(self, action: int) -> int:
        """The action code of an action (index); ValueError outside 0 .. n_actions - 1."""
        code: int = self.table.code(action)
        return code

    def observe(self, state: CoreState, viewer: int, out: Any) -> None:
        """Write what ``viewer`` knows of ``state`` into ``out`` (float32, ``observation_size`` numbers)."""
        state.observe(viewer, out)

    def legal_mask(self, state: CoreState, out: Any) -> int:
        """Mark the legal actions of the player to move in ``out`` (int8, ``n_actions``); how many there are."""
        legal: int = state.legal_mask(self.table, out)
        return legal

    def returns(self, state: CoreState) -> list[float]:
        """Each seat's return once the game is over (module docstring); zeros before."""
        winner = state.winner if state.is_over else -1
        return [1.0 if seat == winner else 0.0 for seat in range(self.players)]

    def batch(self, n: int, seed: int) -> Any:
        """``n`` games stepped together in C (``kanaloa_core.CoreBatch``), dealt from ``seed``."""
        rs = self.ruleset
        return kanaloa_core.CoreBatch(self.board, rs.players, rs.preset_code, rs.code, rs.gods, n, seed, self.table)

    def describe(self) -> list[str]:
        """The observation's fields for people (``describe_fields``)."""
        return describe_fields(self.fields)
