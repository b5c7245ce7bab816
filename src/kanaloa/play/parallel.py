"""Root-parallel ISMCTS: independent searches of one position on several cores, their root statistics merged.

A hint with ``workers`` = N runs N searches of the same state at once
(``run``).  Worker w searches with its own seed and its own share of the
iterations; the main process runs worker 0 itself, so N workers keep N cores
busy.  No tree is shared while they search.  When they are done, each worker
sends back a compact summary of its tree (``pack``):

* every root child (the mover's moves) with its visits, availability,
  reward, wins and point sums: what the candidates are read from;
* below them, the mover's own consecutive moves (the rest of the plan), each
  node kept only when it has at least ``KEEP_SHARE`` of the root's visits
  or is a proven win (``kanaloa.search.ismcts``; a win one worker proved
  holds in the merged tree), so a summary stays a few thousand nodes
  however long the search ran; a
  node of another player ends a branch (kept as a leaf, so that the plan
  stops where a single tree's line would).

``merge`` sums the summaries per action key, recursively, into one tree of
``kanaloa.search.Node`` objects, read like any search's tree
(``SearchResult.candidates``, ``principal_line``).  The merge adds the
workers' trees in worker order, so the same seeds and iteration shares give
the same merged tree, bit for bit.

Processes start with the ``fork`` method where there is one (Linux: a
worker starts in milliseconds), else ``spawn``.  Workers ignore Ctrl-C
(SIGINT, ``kanaloa.play.interrupt.ignore_in_worker``): the main process
decides, and stops them by an event that their searches poll (the search's
``stop``), so they still send what they found.
While they search, each worker writes its iteration count and its root
visits and wins into a shared array every ``progress_every`` seconds, from
which the main process reports progress for all of them.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..rules.core import CoreState
from ..search import ISMCTS, Node, SearchResult
from .interrupt import ignore_in_worker

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from ..rules.ruleset import Ruleset

# A node of the plan below the root's children is sent back only with at least this share of the root's
# visits: then each level of the plan keeps at most 1 / KEEP_SHARE nodes, whatever the budget.
KEEP_SHARE = 0.001
POLL_SECONDS = 0.05  # how often the main process looks at its workers while it waits for them

# A packed node: (action, player, visits, avail, reward, wins, wins2, points or None, children, proven).
Packed = tuple[int, int, int, int, float, float, float, "tuple[float, ...] | None", "tuple[Packed, ...]", bool]


class Settings(Protocol):
    """What ``run`` needs of the search settings (``kanaloa.play.settings.SearchSettings``)."""

    def searcher(self, seed: int) -> ISMCTS: ...

    def game(self, ruleset: Ruleset) -> Any: ...


@dataclass(frozen=True)
class Snapshot:
    """Progress of all workers together: iterations so far, and the most visited root move with its win chance."""

    iterations: int
    seconds: float
    action: int
    win: float


@dataclass(frozen=True)
class Report:
    """What a worker sends back: its budget spent and its packed tree."""

    iterations: int
    seconds: float
    nodes: int
    interrupted: bool
    tree: Packed


def split_iterations(iterations: int, workers: int) -> list[int]:
    """``iterations`` shared among ``workers``: ``iterations // workers`` each, the first ``iterations % workers``
    one more; workers that would get none are left out."""
    base, extra = divmod(iterations, workers)
    shares = [base + (1 if w < extra else 0) for w in range(workers)]
    return [s for s in shares if s > 0]


def _points(node: Node) -> tuple[float, ...] | None:
    return tuple(node.points) if node.points else None


def _leaf(node: Node) -> Packed:
    return (node.action, node.player, node.visits, node.avail, node.reward, node.wins, node.wins2, _points(node), (),
            node.proven)


def _own(node: Node, observer: int, floor: int) -> Packed:
    kids = tuple((_own(c, observer, floor) if c.player == observer else _leaf(c))
                 for c in node.children.values() if c.visits >= floor or c.proven)
    return (node.action, node.player, node.visits, node.avail, node.reward, node.wins, node.wins2, _points(node),
            kids, node.proven)


def pack(result: SearchResult, keep: float = KEEP_SHARE) -> Packed:
    """The summary of ``result``'s tree that ``merge`` adds up (see the module docstring)."""
    root = result.root
    floor = max(1, math.ceil(root.visits * keep))
    kids = tuple(_own(c, result.player, floor) for c in root.children.values())
    return (root.action, root.player, root.visits, root.avail, root.reward, root.wins, root.wins2, _points(root),
            kids, root.proven)


def _add(into: Node, packed: Packed) -> None:
    _, _, visits, avail, reward, wins, wins2, points, children, proven = packed
    into.proven = into.proven or proven  # a forced win in one worker's tree is one in every tree
    into.visits += visits
    into.avail += avail
    into.reward += reward
    into.wins += wins
    into.wins2 += wins2
    into.mean = into.reward / into.visits if into.visits else 0.0
    if points is not None:
        into.points = list(points) if into.points is None else [a + b for a, b in zip(into.points, points,
                                                                                       strict=True)]
    for child in children:
        node = into.children.get(child[0])
        if node is None:
            node = into.children[child[0]] = Node(child[0], child[1])
            node.avail = 0
        _add(node, child)


def merge(trees: Sequence[Packed]) -> Node:
    """One tree whose every node holds the sums of the nodes with its action path in ``trees``, added in order."""
    root = Node(-1, -1)
    root.avail = 0
    for tree in trees:
        _add(root, tree)
    return root


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


class _Tally:
    """Root visits and wins per root move, written by a worker into a shared array: [iterations, visits..., wins...]."""

    def __init__(self, moves: Sequence[int], array: Any) -> None:
        self.index = {a: i for i, a in enumerate(moves)}
        self.k = len(moves)
        self.array = array

    def write(self, result: SearchResult) -> None:
        array, k, index = self.array, self.k, self.index
        for child in result.root.children.values():
            i = index.get(child.action)
            if i is not None:
                array[1 + i] = child.visits
                array[1 + k + i] = child.wins
        array[0] = result.iterations


def _worker(conn: Connection, state: CoreState, ruleset: Ruleset, settings: Settings, seed: int,
            iterations: int | None, deadline: float | None, stop: Any, moves: Sequence[int], array: Any,
            progress_every: float) -> None:
    """Worker w > 0: search, then send a ``Report`` (or ``("error", message)``) through ``conn``."""
    ignore_in_worker()  # Ctrl-C is the main process's to handle
    try:
        seconds = None if deadline is None else max(deadline - time.monotonic(), 1e-3)
        tally = _Tally(moves, array) if array is not None else None
        result = settings.searcher(seed).search(
            settings.game(ruleset).wrap(state), iterations, seconds, stop=stop.is_set,
            progress=tally.write if tally is not None else None, progress_every=progress_every)
        conn.send(Report(result.iterations, result.seconds, result.nodes, result.interrupted, pack(result)))
    except BaseException as exc:  # sent back, and raised again there: a worker has no one to tell
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    conn.close()
    # End at once: freeing a large tree node by node would only keep the main process waiting in ``join``.
    os._exit(0)


def run(state: CoreState, ruleset: Ruleset, settings: Settings, seeds: Sequence[int],
        iterations: Sequence[int] | None,
        seconds: float | None, *, stop: Callable[[], bool] | None = None,
        progress: Callable[[Snapshot], None] | None = None, progress_every: float = 0.5) -> SearchResult:
    """Search ``state`` (not modified), a state of ``ruleset``'s game, for its player to move with one worker per
    seed; the merged result.

    ``iterations`` gives each worker's share (as many as ``seeds``), or None
    for a time budget: then every worker searches for ``seconds`` of wall
    time from now.  ``stop`` is asked every few iterations and, once it
    returns True, every worker ends its search; ``progress`` gets a
    ``Snapshot`` of all workers every ``progress_every`` seconds.  With one
    seed the search runs in this process and its own tree is returned;
    with more, the result's tree is ``merge`` of the workers' summaries and
    its ``iterations`` and ``nodes`` are their sums.
    """
    if iterations is not None and len(iterations) != len(seeds):
        raise ValueError(f"{len(seeds)} seeds but {len(iterations)} iteration shares")
    start = time.perf_counter()
    game = settings.game(ruleset)
    searcher = settings.searcher(seeds[0])
    share = iterations[0] if iterations is not None else None
    if len(seeds) == 1:
        progress_1 = None
        if progress is not None:
            report = progress

            def progress_1(result: SearchResult) -> None:
                report(_snapshot(result, start))

        return searcher.search(game.wrap(state), share, seconds, stop=stop, progress=progress_1,
                               progress_every=progress_every)

    ctx = _context()
    deadline = time.monotonic() + seconds if seconds is not None else None
    halt = ctx.Event()
    moves = state.legal_actions()
    arrays = [ctx.Array("d", 1 + 2 * len(moves), lock=False) if progress is not None else None
              for _ in seeds[1:]]
    for stream in (sys.stdout, sys.stderr):  # a forked worker must not write out a copy of what is buffered here
        with contextlib.suppress(OSError, ValueError):
            stream.flush()

    def halted() -> bool:
        if stop is not None and stop():  # asked every time: it may also raise (a second Ctrl-C)
            halt.set()
            return True
        return halt.is_set()

    def tell(mine: SearchResult) -> None:
        if progress is not None:
            progress(_snapshot(mine, start, moves, arrays))

    workers: list[tuple[Any, Connection]] = []
    try:
        for w in range(1, len(seeds)):
            here, there = ctx.Pipe(duplex=False)
            process = ctx.Process(
                target=_worker, name=f"kanaloa-hint-{w}", daemon=True,
                args=(there, state, ruleset, settings, seeds[w], None if iterations is None else iterations[w],
                      deadline, halt, moves, arrays[w - 1], progress_every))
            process.start()
            there.close()
            workers.append((process, here))
        left = None if deadline is None else max(deadline - time.monotonic(), 1e-3)
        mine = searcher.search(game.wrap(state), share, left, stop=halted,
                               progress=tell if progress is not None else None, progress_every=progress_every)
        reports = []
        next_report = time.perf_counter() + progress_every
        for w, (process, conn) in enumerate(workers, 1):
            while not conn.poll(POLL_SECONDS):
                halted()
                if not process.is_alive() and not conn.poll():
                    raise RuntimeError(f"search worker {w} ended without a result (exit code {process.exitcode})")
                if time.perf_counter() >= next_report:
                    tell(mine)
                    next_report = time.perf_counter() + progress_every
            try:
                got = conn.recv()
            except EOFError:
                raise RuntimeError(f"search worker {w} ended without a result "
                                   f"(exit code {process.exitcode})") from None
            if not isinstance(got, Report):
                raise RuntimeError(f"search worker {w} failed: {got[1]}")
            reports.append(got)
            process.join()
    finally:
        halt.set()
        for process, conn in workers:
            conn.close()
            if process.is_alive():
                process.join(1.0)
            if process.is_alive():
                process.terminate()
                process.join()
    root = merge([pack(mine), *(r.tree for r in reports)])
    return SearchResult(root, mine.player, mine.iterations + sum(r.iterations for r in reports),
                        time.perf_counter() - start, mine.nodes + sum(r.nodes for r in reports),
                        mine.interrupted or any(r.interrupted for r in reports))


def _snapshot(mine: SearchResult, start: float, moves: Sequence[int] = (), arrays: Sequence[Any] = ()) -> Snapshot:
    """All workers' progress: this process's tree ``mine`` and the other workers' arrays."""
    totals: dict[int, list[float]] = {}
    for child in mine.root.children.values():
        totals[child.action] = [child.visits, child.wins]
    done = mine.iterations
    k = len(moves)
    for array in arrays:
        if array is None:
            continue
        values = array[:]
        done += int(values[0])
        for i, action in enumerate(moves):
            if values[1 + i]:
                entry = totals.setdefault(action, [0.0, 0.0])
                entry[0] += values[1 + i]
                entry[1] += values[1 + k + i]
    if not totals:
        return Snapshot(done, time.perf_counter() - start, -1, 0.0)
    action, (visits, wins) = min(totals.items(), key=lambda item: (-item[1][0], item[0]))
    return Snapshot(done, time.perf_counter() - start, action, wins / visits if visits else 0.0)
