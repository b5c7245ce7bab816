"""Running a tournament: its games on a runner, their totals summed up as they finish, their records passed on.

``run_tournament`` plays every game of a ``kanaloa.play.tournament.Tournament``
in this process (``workers=1``), in a pool of worker processes, or on a Dask
distributed cluster (``scheduler=ADDRESS``, needs the ``cluster`` extra and
``kanaloa`` installed on every worker); the runners are
``kanaloa.play.pools``'.  The run streams: game indexes come from
``schedule``, an iterator, and are handed out as workers have room; each
finished game is added to running totals (``kanaloa.play.totals.Totals``)
and passed on (``on_record``: ``kanaloa.play.records.RecordWriter`` puts the
records back in game order), so memory does not grow with the number of
games (a run of 4,000,000,000,000 starts at once).  The totals are exact
integer sums, so the summary does not depend on the order in which games
finish.

Ctrl-C stops the run (``kanaloa.play.interrupt``): worker processes are
terminated (they ignore the interrupt themselves, so none prints a
traceback), cluster tasks cancelled, and the games finished so far are
returned with ``interrupted`` set.  A game counts once it is both in the
totals and passed on: the interrupt waits for the pair, so the two always
agree.

``run_games`` is that loop alone, for any run that seats its bots through
``kanaloa.play.tournament.Seated``: ``run_tournament`` sums up a
tournament with it, ``kanaloa.play.ladder`` a ladder of groups of bots, and
``kanaloa.play.sprt`` a sequential test that stops the run once it decides.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass

from .interrupt import CtrlC
from .limits import worker_count
from .pools import dask, process_pool, serial
from .records import GameRecord
from .totals import Totals, TournamentRun
from .tournament import Seated, Tournament, play_game, schedule


@dataclass(frozen=True)
class Ran:
    """How a run of games went: whether Ctrl-C stopped it, its wall time, its worker processes (0 on a
    cluster) and the cluster's scheduler, if any."""

    interrupted: bool
    seconds: float
    workers: int
    scheduler: str | None


def run_games(subject: Seated, games: Iterator[int], take: Callable[[GameRecord], bool | None], workers: int = 1,
              scheduler=None, planned: int | None = None) -> Ran:
    """Play the games of ``subject`` whose indexes ``games`` yields (taken one at a time, as workers have room:
    an endless iterator is fine) on the runner of ``workers`` and ``scheduler`` (as ``run_tournament``), and
    hand each finished game to ``take``.  ``planned``, when known, is how many games ``games`` yields: no
    more worker processes are started than that.

    ``take`` is called in this process, in the order games finish, inside a
    section that Ctrl-C does not cut in two (``CtrlC.holding``): whatever it
    counts and writes of a game, it does whole.  When it returns True the run
    stops there: the games still in flight are dropped and the workers
    stopped.  Ctrl-C stops the run the same way, with ``interrupted`` set.
    This is the one loop every kind of run plays its games in (``kanaloa
    simulate``, ``ladder`` and ``sprt``).
    """
    workers = worker_count(workers)
    source: Generator[GameRecord, None, None]
    if scheduler is not None:
        source = dask(play_game, games, scheduler, subject)
    elif workers == 1 or planned == 1:
        source = serial(play_game, games, subject)
    else:
        source = process_pool(play_game, games, workers if planned is None else min(workers, planned), subject)
    interrupted = False
    start = time.perf_counter()
    with CtrlC() as ctrl_c:
        try:
            for record in source:
                with ctrl_c.holding():
                    if take(record):
                        break
        except KeyboardInterrupt:
            interrupted = True
        finally:
            with ctrl_c.holding(reraise=False):  # a second Ctrl-C must not cut the clean-up short
                source.close()
    where = None if scheduler is None else (scheduler if isinstance(scheduler, str) else str(scheduler))
    return Ran(interrupted, time.perf_counter() - start, workers if scheduler is None else 0, where)


def run_tournament(t: Tournament, workers: int = 1, scheduler=None,
                   on_record: Callable[[GameRecord], None] | None = None, keep_records: bool = True) -> TournamentRun:
    """Play every game of ``t`` and return the totals (and records) of those that finished.

    ``workers`` > 1 plays in that many processes (0: one per core,
    ``kanaloa.play.limits``); ``scheduler`` (an address such as
    ``tcp://host:8786``, or anything ``distributed.Client`` takes) plays on a
    Dask cluster instead.  The games stream: they are taken from
    ``schedule(t)`` as workers have room for them and summed up as they
    finish, so memory does not grow with ``t.games`` unless ``keep_records``
    keeps every record (the default; a long run passes False and writes the
    records out through ``on_record``).  ``on_record`` is called in this
    process for each finished game, in the order games finish.  Ctrl-C
    (``KeyboardInterrupt``) stops the run and returns what finished, with
    ``interrupted`` set.  Raises ``kanaloa.play.limits.SettingError`` for a
    bad worker count.
    """
    totals = Totals(t)
    kept: dict[int, GameRecord] = {}

    def take(record: GameRecord) -> None:
        # A game counts once it is both in the totals and passed on (written to --out): an interrupt
        # waits for the pair, so the two always agree.
        totals.add(record)
        if keep_records:
            kept[record.index] = record
        if on_record is not None:
            on_record(record)

    ran = run_games(t, schedule(t), take, workers, scheduler, planned=t.games)
    records = [kept[g] for g in sorted(kept)]
    return TournamentRun(t, records, ran.interrupted, ran.seconds, ran.workers, ran.scheduler, totals)
