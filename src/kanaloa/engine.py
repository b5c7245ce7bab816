"""Choosing a rules engine: the compiled core or the readable reference.

Both implement the *engine state protocol* (``from_data``, ``deal``,
``to_data``, ``copy``, ``legal_actions``, ``apply`` and the ``to_move``,
``round``, ``is_over``, ``scores``, ``winner``, ``ranking`` properties) and
agree move for move.  They differ in the board object they take: the core
wants its own ``kanaloa_core.CoreBoard`` tables, the reference the ``Board``.
``impl`` names one of them everywhere in the Python API:

- ``"core"``: ``kanaloa_core.CoreState`` (fast; what search and simulation use);
- ``"reference"``: ``kanaloa.reference.ReferenceState`` (plain Python, the oracle).
"""

from __future__ import annotations

from typing import Any

from .board import Board
from .errors import OptionError
from .state import StateData

IMPLS = ("core", "reference")


def _check(impl: str) -> None:
    if impl not in IMPLS:
        raise OptionError(f"engine {impl!r}: unknown implementation; choose one of {', '.join(IMPLS)}")


def state_class(impl: str = "core") -> Any:
    """The engine state class of ``impl``; raises ``OptionError`` for an unknown name."""
    _check(impl)
    if impl == "reference":
        from .reference import ReferenceState

        return ReferenceState
    from .core import CoreState  # raises ImportError with build advice when the core is missing

    return CoreState


def engine_board(board: Board, impl: str = "core") -> Any:
    """What ``state_class(impl)`` takes as its board: the core's cached tables or ``board`` itself."""
    _check(impl)
    if impl == "reference":
        return board
    from .core import core_board

    return core_board(board)


def deal_state(board: Board, players: int, preset: int, seed: int, impl: str = "core") -> Any:
    """A new engine state in setup (R3), dealt from ``seed`` by ``impl``."""
    return state_class(impl).deal(engine_board(board, impl), players, preset, seed)


def state_from_data(board: Board, data: StateData, impl: str = "core") -> Any:
    """An engine state of ``impl`` holding a copy of ``data``."""
    return state_class(impl).from_data(engine_board(board, impl), data)
