"""Where many independent tasks run: in this process, in a pool of worker processes, or on a Dask cluster.

A tournament plays its games (``kanaloa.play.simulate``) and a soak its
chunks of games (``kanaloa.tools.soak``) through one of three runners, each a
generator of results:

- ``serial(task, items, *shared)``: one after the other, in this process;
- ``process_pool(task, items, workers, *shared)``: in ``workers`` processes
  (``multiprocessing``, its default start method).  ``shared`` is handed to
  each worker once, when it starts, and every task runs
  ``task(*shared, item)`` there.  Items are taken from ``items`` only as
  the pool's task pipe has room, so an endless iterator is fine, and results
  come back as they finish (``ordered=True``: in the order of ``items``).
  Workers ignore Ctrl-C (``kanaloa.play.interrupt``); closing the generator
  (after the last result, an interrupt or an error) terminates the pool, so
  no task is left running;
- ``dask(task, items, address, *shared)``: on the Dask distributed cluster
  whose scheduler is at ``address`` (the ``cluster`` extra, and kanaloa
  installed on every worker), with a bounded window of tasks in flight;
  ``check_scheduler`` checks the address before any client exists.
  Closing the generator cancels what is still in flight.

``default_workers()`` is the number of CPU cores this process may use: what
``--workers 0`` means everywhere (``kanaloa.play.limits``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, TypeVar

from ..errors import OptionError, quote
from .interrupt import ignore_in_worker

SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss")  # how a Dask scheduler is reached over a network
DASK_WINDOW = 4  # tasks in flight per thread of the cluster

T = TypeVar("T")
R = TypeVar("R")


def default_workers() -> int:
    """The CPU cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def serial(task: Callable[..., R], items: Iterable[T], *shared: Any) -> Generator[R, None, None]:
    """``task(*shared, item)`` for each item, in this process, in order."""
    for item in items:
        yield task(*shared, item)


# What a worker process of ``process_pool`` runs: set once per worker by ``_worker_init``.
_WORKER: tuple[Callable[..., Any], tuple[Any, ...]] | None = None


def _worker_init(task: Callable[..., Any], shared: tuple[Any, ...]) -> None:
    ignore_in_worker()
    global _WORKER
    _WORKER = (task, shared)


def _worker_call(item: Any) -> Any:
    if _WORKER is None:  # pragma: no cover - the pool's initializer always runs first
        raise RuntimeError("worker process started without its task")
    task, shared = _WORKER
    return task(*shared, item)


def process_pool(task: Callable[..., R], items: Iterable[T], workers: int, *shared: Any,
                 ordered: bool = False) -> Generator[R, None, None]:
    """``task(*shared, item)`` for each item, on ``workers`` processes (see the module docstring)."""
    import multiprocessing

    pool = multiprocessing.get_context().Pool(workers, _worker_init, (task, shared))
    try:
        # The pool takes items from the iterator only as its task pipe has room: a bounded window.
        run = pool.imap if ordered else pool.imap_unordered
        yield from run(_worker_call, items, chunksize=1)
        pool.close()
    finally:
        pool.terminate()  # on an interrupt or an error: stop every task in flight now
        pool.join()


def check_scheduler(address: object) -> None:
    """Check, without connecting, that Dask is installed and ``address`` reads as a scheduler's address.

    The address is ``[SCHEME://]HOST:PORT`` with a scheme of
    ``SCHEDULER_SCHEMES`` (``tcp`` when none is given).

    Raises ``OptionError`` naming ``--scheduler`` otherwise.  An address
    that is not text (a cluster object) is left to ``distributed.Client``.
    """
    try:
        from distributed.comm.addressing import get_address_host_port, parse_address
    except ImportError:
        raise OptionError("--scheduler: Dask is not installed; install the cluster extra: "
                          "pip install 'kanaloa[cluster]'") from None
    if not isinstance(address, str):
        return
    where = f"--scheduler {quote(address)}"
    expected = "expected [SCHEME://]HOST:PORT with a SCHEME of tcp (the default), tls, ws or wss, e.g. tcp://host:8786"
    if not address.strip():
        raise OptionError(f"{where}: empty; {expected}")
    try:
        scheme, _ = parse_address(address)
        if scheme not in SCHEDULER_SCHEMES:
            raise ValueError(f"unknown scheme {quote(scheme)}")
        _, port = get_address_host_port(address)
        if not 0 < port < 65536:
            raise ValueError(f"port {port} is not within 1 to 65535")
    except (ValueError, TypeError) as exc:
        raise OptionError(f"{where}: not a scheduler's address ({exc}); {expected}") from None
    if scheme in ("tls", "wss"):
        from distributed.security import Security

        if Security().get_connection_args("client").get("ssl_context") is None:
            raise OptionError(f"{where}: {scheme}:// needs the TLS settings of the Dask configuration "
                              f"(distributed.comm.tls), and none are set")


def dask(task: Callable[..., R], items: Iterator[T], address: Any, *shared: Any) -> Generator[R, None, None]:
    """``task(*shared, item)`` for each item, on the Dask cluster at ``address``, as they finish."""
    check_scheduler(address)  # a Client that fails half-built reports errors of its own when collected
    from distributed import Client, as_completed

    try:
        client = Client(address, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise OptionError(f"--scheduler {quote(str(address))}: cannot connect to a Dask scheduler there "
                          f"({exc})") from None
    in_flight: set = set()
    try:
        threads = sum(client.nthreads().values()) or 1
        # A bounded window of tasks in flight: the scheduler is not flooded, an interrupt has
        # little to cancel, and nothing is kept of the results already passed on.
        first = [client.submit(task, *shared, item, pure=False) for item in _take(items, DASK_WINDOW * threads)]
        in_flight.update(first)
        running = as_completed(first, loop=client.loop)
        for future in running:
            in_flight.discard(future)
            yield future.result()
            for item in _take(items, 1):
                nxt = client.submit(task, *shared, item, pure=False)
                in_flight.add(nxt)
                running.add(nxt)
    finally:
        client.cancel(list(in_flight))
        client.close()


def _take(it: Iterator[T], n: int) -> list[T]:
    out: list[T] = []
    for _ in range(n):
        try:
            out.append(next(it))
        except StopIteration:
            break
    return out
