"""Islands drawn by hand for Cannonball Colony's tests (R20.1): rows of terrain letters, top row first."""

from __future__ import annotations

from kanaloa.cannonball.state import NOBODY, TERRAIN_LETTERS


def drawn_island(rows: list[str], boards: list[str]) -> tuple[int, int, list[int], list[int]]:
    """``(columns, rows, terrain, board_of)`` of the island drawn by ``rows`` (letters ``g f l m .``) with
    each space's landing board drawn by ``boards`` (a seat digit, or ``.``); outside spaces are on no board."""
    columns = len(rows[0])
    terrain, board_of = [], []
    for terrain_row, board_row in zip(reversed(rows), reversed(boards), strict=True):
        assert len(terrain_row) == len(board_row) == columns
        for letter, board in zip(terrain_row, board_row, strict=True):
            terrain.append(TERRAIN_LETTERS.index(letter))
            board_of.append(NOBODY if letter == "." or board == "." else int(board))
    return columns, len(rows), terrain, board_of
