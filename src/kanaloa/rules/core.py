"""The compiled rules core, reached from the package.

``kanaloa_core`` is a top-level extension module built from
``kanaloa_core.pyx`` when the package is installed.  This module re-exports it
and keeps one ``CoreBoard`` (the core's board tables) per ``Board``.
"""

from __future__ import annotations

try:
    import kanaloa_core
except ImportError as exc:  # pragma: no cover - depends on how the checkout was installed
    raise ImportError(
        "the compiled rules core 'kanaloa_core' is not built: run `pip install .` from the kanaloa "
        "checkout (or `pip install -e .` for development) to compile it"
    ) from exc

from .board import Board

CoreBoard = kanaloa_core.CoreBoard
CoreState = kanaloa_core.CoreState
CutModel = kanaloa_core.CutModel
random_games = kanaloa_core.random_games
determinisations = kanaloa_core.determinisations
POLICY_RANDOM = kanaloa_core.POLICY_RANDOM
POLICY_HEURISTIC = kanaloa_core.POLICY_HEURISTIC

# id(board) -> (board, tables); holding the board keeps its id from being reused.
_TABLES: dict[int, tuple[Board, kanaloa_core.CoreBoard]] = {}


def core_board(board: Board) -> kanaloa_core.CoreBoard:
    """The core's tables for ``board``, built once per board object.

    Raises ``ValueError`` if the board exceeds the core's capacities.
    """
    cached = _TABLES.get(id(board))
    if cached is None:
        cached = (board, kanaloa_core.CoreBoard(board.n_islands, board.cards_per_island, list(board.links)))
        _TABLES[id(board)] = cached
    return cached[1]
