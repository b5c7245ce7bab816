"""Cannonball Colony's ``bench`` face (R20): what ``kanaloa bench`` times and counts for the game.

``workloads(game)`` returns the ``GameBench`` that ``kanaloa.tools.benchmark``
runs (its module docstring gives the driver and the meaning of every kind of
figure).  For Cannonball Colony:

* **whole random games in C** for 2, 3 and 4 players, with the uniform
  policy (``cannonball_playouts_per_s``, ``cannonball_playouts_3p_per_s``,
  ``cannonball_playouts_2p_per_s``) and with the core's heuristic playout
  policy (``cannonball_heuristic_playouts_per_s`` ...; ``moves`` in place of
  ``playouts`` for moves a second).  Laying an island out is Python work
  (``island.layout``), so these batches time the core alone: every game of
  a batch starts from the one new game on the island laid out from
  ``LAYOUT_SEED`` (R20.1, R20.2), game ``g`` played by
  ``CoreState.random_games`` on ``SplitMix64(seed + g)``, the landing round
  included;
* **the same games in every engine**: 4-player games dealt from
  ``seed + g`` (each a new island), played in C, move by move through
  ``CannonballPosition`` and in the reference (suffix ``_cannonball``:
  ``reference_ratio_cannonball``).  Every engine lays out each island, so
  the C figure here includes that Python work;
* **the signature** (``signature_cannonball``, R20): the moves of 24 seeded
  uniform random games, 8 of each player count, on the islands laid out
  from seeds 0 to 7 (``SIGNATURE_SEED``), the games of the package's
  differential tests (``tests/test_cannonball_differential.py``), played in
  C, through the positions and in the reference alike: they must give the
  same number;
* **the probe**: one MCTS search (``kanaloa.search.mcts``, the search that
  fits a game with nothing hidden, with the search face's heuristic
  rollouts in C) for the player to move at the **search position**, the
  4-player game dealt from ``SEARCH_SEED`` after ``SEARCH_MOVES`` random
  moves (``cannonball_mcts_iterations_per_s``), and single operations there
  (row ``cannonball-4p`` of the table: ``legal_actions``, ``apply`` along the
  game's next ``LINE_MOVES`` moves, a copy included, and ``copy``).

A random game of a batch is the driver's: game ``g`` dealt from ``seed + g``
(``CannonballRules.new_game``), its moves ``legal[next() % len(legal)]`` of
``SplitMix64((seed + g) ^ MOVE_SALT)``, which is what
``CoreState.playout`` plays in C.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from ..rules.registry import GameType, game_type
from ..rules.rng import MASK64, SplitMix64
from ..search.mcts import MCTS
from ..tools.benchmark import (
    Batch,
    Budget,
    GameBench,
    Probe,
    SameGames,
    Say,
    Signature,
    Table,
    best_time,
    replay_line,
)
from .core import CoreState
from .ruleset import GAME, TITLE, CannonballRules
from .search import cannonball_search

__all__ = ["LAYOUT_SEED", "MOVE_SALT", "SEARCH_MOVES", "SEARCH_SEED", "SIGNATURE_SEED", "core_games",
           "search_position", "workloads"]

PLAYERS = (4, 3, 2)  # the player counts of the batches, in the report's order
LAYOUT_SEED = 7  # the island every batch of whole games in C starts from
MOVE_SALT = 0x2545F4914F6CDD1D  # separates a random game's move stream from the seed of its island
SIGNATURE_SEED = 0  # the signature's games of each player count are laid out from seeds 0, 1, ...
SIGNATURE_GAMES = 8  # signature games per player count
SEARCH_SEED = 7  # the search position: the 4-player game dealt from this seed ...
SEARCH_MOVES = 40  # ... after this many random moves (the landing round and nine turns of each player)
SEARCH_SEARCH_SEED = 7  # the seed of the search itself
LINE_MOVES = 40  # moves of the recorded continuation after the search position
POSITION_NAME = "cannonball-4p"  # its row in the table of single operations


def core_games(rules: CannonballRules, games: int, seed: int) -> int:
    """The total moves of ``games`` random games of ``rules`` (module docstring), each laid out from
    ``seed + g`` and played whole in C by ``CoreState.playout``."""
    total = 0
    for g in range(games):
        game_seed = (seed + g) & MASK64
        moves: int = CoreState.from_data(rules.new_game(game_seed)).playout(game_seed ^ MOVE_SALT)
        total += moves
    return total


@functools.cache
def _start(rules: CannonballRules) -> Any:
    """The new game on the island laid out from ``LAYOUT_SEED``, in the core (made once)."""
    return CoreState.from_data(rules.new_game(LAYOUT_SEED))


def games_from_start(rules: CannonballRules, heuristic: bool, games: int, seed: int) -> int:
    """``games`` whole games in C from ``_start(rules)`` (game ``g`` on ``SplitMix64(seed + g)``), with the uniform
    or the heuristic policy; the total moves."""
    moves: int = _start(rules).random_games(games, seed, heuristic)
    return moves


def workloads(game: GameType) -> GameBench:
    """Cannonball Colony's ``bench`` face (``kanaloa.rules.registry``): what ``run_bench`` times and counts for it
    (module docstring)."""
    rules: dict[int, CannonballRules] = {p: game.load(players=p) for p in PLAYERS}

    def batch(players: int, heuristic: bool) -> Batch:
        policy = "_heuristic" if heuristic else ""
        count = "" if players == 4 else f"_{players}p"
        label = f"{TITLE}, {players} players" + (", heuristic" if heuristic else "")
        return Batch(label, rules[players], f"cannonball{policy}_playouts{count}_per_s",
                     f"cannonball{policy}_moves{count}_per_s",
                     games=functools.partial(games_from_start, rules[players], heuristic))

    return GameBench(
        core_games=core_games,
        salt=MOVE_SALT,
        batches=tuple(batch(p, h) for h in (False, True) for p in PLAYERS),
        same_games=(SameGames("_cannonball", f"random 4-player {TITLE} games (R20)", rules[4]),),
        signatures=(Signature("signature_cannonball", f"{TITLE} signature", "R20",
                              tuple(rules[p] for p in sorted(PLAYERS)), SIGNATURE_GAMES, SIGNATURE_SEED),),
        probe=Probe(_measure_search, _write_search),
    )


def search_position(rules: CannonballRules) -> tuple[Any, tuple[int, ...]]:
    """The search position (module docstring) as a core state, and the next ``LINE_MOVES`` moves of the same
    random game."""
    state = CoreState.from_data(rules.new_game(SEARCH_SEED))
    stream = SplitMix64(SEARCH_SEED ^ MOVE_SALT)

    def play(moves: int) -> list[int]:
        played: list[int] = []
        while not state.is_over and len(played) < moves:
            legal = state.legal_actions()
            played.append(legal[stream.below(len(legal))])
            state.apply(played[-1])
        return played

    play(SEARCH_MOVES)
    if state.is_over:  # pragma: no cover - a random game takes far more moves
        raise RuntimeError(f"the game dealt from seed {SEARCH_SEED} ends within {SEARCH_MOVES} moves")
    start = state.copy()
    return start, tuple(play(LINE_MOVES))


def run_mcts(state: Any, iterations: int, seed: int = SEARCH_SEARCH_SEED) -> int:
    """One MCTS search of ``iterations`` iterations with heuristic rollouts from ``state`` (left untouched); the
    iterations it ran."""
    result = MCTS(seed=seed).search(cannonball_search("heuristic").wrap(state.copy()), iterations=iterations)
    ran: int = result.iterations
    return ran


def _measure_search(budget: Budget, say: Say) -> tuple[dict[str, float | None], dict[str, dict[str, float | None]]]:
    """The probe: one MCTS search and single operations at the search position."""
    rules: CannonballRules = game_type(GAME).load(players=4)
    state, line = search_position(rules)
    fig: dict[str, float | None] = {}
    say(f"{TITLE}: MCTS, {budget.ismcts_iterations} iterations")
    run_mcts(state, 50)  # warm up the search code paths
    fig["cannonball_mcts_iterations"] = budget.ismcts_iterations
    t = best_time(lambda: run_mcts(state, budget.ismcts_iterations), budget.ismcts_runs, 0.0)
    fig["cannonball_mcts_iterations_per_s"] = budget.ismcts_iterations / t

    say(f"{TITLE}: single operations at {POSITION_NAME}")
    n = budget.op_calls
    seconds = budget.seconds / 4
    rounds = max(1, n // len(line))

    def legal_batch() -> None:
        for _ in range(n):
            state.legal_actions()

    def replay_batch() -> None:
        for _ in range(rounds):
            replay_line(state.copy(), line)

    def copy_batch() -> None:
        for _ in range(n):
            state.copy()

    ops: dict[str, float | None] = {
        "legal_actions": n / best_time(legal_batch, budget.runs, seconds),
        "apply": rounds * len(line) / best_time(replay_batch, budget.runs, seconds),
        "copy": n / best_time(copy_batch, budget.runs, seconds),
    }
    return fig, {POSITION_NAME: ops}


def _write_search(f: Mapping[str, float | None], t: Table) -> None:
    """The probe's rows for people."""
    t.heading(f"Search in {TITLE} (4 players, after {SEARCH_MOVES} moves, for the player to move)")
    iters = f.get("cannonball_mcts_iterations")
    t.row(f"MCTS, {int(iters) if iters else '-'} iterations, heuristic rollouts", f.get(
        "cannonball_mcts_iterations_per_s"), "iterations/s")
