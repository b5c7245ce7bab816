"""Helpers that the rule tests of several rule sets share: recorded random games, the card count of a
state, the check of ``why_illegal`` against the legal moves and the template of an explanation."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import Any

from conftest import action_name
from kanaloa.rules.board import Board
from kanaloa.rules.reference import why_illegal
from kanaloa.rules.state import NO_CARD, StateData


def record_steps(state, rng: random.Random, seed: int, move_cap: int, end: Any = None,
                 before_move: Callable[[Any], None] | None = None) -> list[tuple[StateData, list[int], Any]]:
    """Play ``state`` with moves drawn by ``rng`` until no move is left: ``(state, legal moves, move
    played)`` before every move, the last step the final state with its empty list and ``end``.

    ``before_move(state)`` runs before each step asks for the legal moves.  Fails (naming ``seed``)
    when the game has not ended within ``move_cap`` moves."""
    steps: list[tuple[StateData, list[int], Any]] = []
    while True:
        if before_move is not None:
            before_move(state)
        legal = state.legal_actions()
        if not legal:
            steps.append((state.to_data(), legal, end))
            return steps
        assert len(steps) < move_cap, f"seed {seed}: no end within {move_cap} moves"
        action = rng.choice(legal)
        steps.append((state.to_data(), legal, action))
        state.apply(action)


def card_totals(data: StateData, board: Board) -> list[int]:
    """The cards of each island wherever they are: deck, face-up row, open discards, the cards chosen in
    the setup, and each seat's hand with what it has discarded face down."""
    total = [0] * board.n_islands
    for x in data.deck + data.face_up + data.discard_open + [c for c in data.setup_chosen if c != NO_CARD]:
        total[x] += 1
    for seat in range(data.players):
        for x in range(board.n_islands):
            total[x] += data.hands[seat][x] + data.hidden_by[seat][x]
    return total


def reason_template(reason: str, board: Board, colors: Sequence[str]) -> str:
    """An explanation with its colors (``C``), islands (``I``, a list of them ``(...)``) and numbers
    (``N``) taken out, so that the reasons of many states can be collected as kinds."""
    reason = re.sub(r"\b(" + "|".join(colors) + r")\b", "C", reason)
    reason = re.sub(r"\b(" + "|".join(board.islands) + r")\b", "I", reason)
    return re.sub(r"\(I(, I)*\)", "(...)", re.sub(r"\d+", "N", reason))


def check_reasons(state, legal: Sequence[int], codes: Sequence[int], names: Sequence[str], board: Board,
                  seed: int) -> None:
    """``why_illegal`` gives a reason for exactly those of ``codes`` that are not in ``legal``; seen from
    outside (the hand unknown) a reason still means the code is illegal, and only reasons about the
    cards held go unsaid."""
    allowed = set(legal)
    for action in codes:
        reason = why_illegal(state, action, names)
        assert (reason is None) == (action in allowed), (seed, state.data, action_name(board, action), reason)
        outside = why_illegal(state, action, names, hand_known=False)
        if outside is not None:
            assert action not in allowed, (seed, state.data, action_name(board, action), outside)
        elif reason is not None:
            assert " has no " in reason or " needs two " in reason, reason
