"""The searches of the web app (hints, bots' moves): a bounded pool, so that no game's long search stalls the
others and no request waits without an answer.

At most ``threads`` searches run at once, in threads of their own (the
moves of every game keep the app's other threads); at most ``waiting``
more wait for a thread, each for at most ``wait`` seconds.  A search
beyond that, or one that waited its time, is refused at once with a
one-line ``Busy`` (HTTP 503) that says what the server is doing and when
to try again, and nothing is changed.  A search that can stop (a hint: its
``stop`` event) stops when it is cancelled (``POST .../hint/cancel``) or
when the browser that asked for it goes away, and answers with what it
found so far.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from .analyses import Busy

T = TypeVar("T")

WAITING = 8  # searches that may wait for a thread, at most
WAIT_SECONDS = 60.0  # how long one may wait
POLL_SECONDS = 0.25  # how often a running search looks whether its browser went away


class SearchPool:
    """At most ``threads`` searches at once, ``waiting`` more waiting at most ``wait`` seconds (module
    docstring)."""

    def __init__(self, threads: int, waiting: int = WAITING, wait: float = WAIT_SECONDS) -> None:
        self.threads = threads
        self.waiting = waiting
        self.wait = wait
        self.running = 0
        self.queued = 0
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="kanaloa-search")
        self._slots: asyncio.Semaphore | None = None

    def status(self) -> dict[str, int]:
        return {"running": self.running, "waiting": self.queued, "threads": self.threads, "queue": self.waiting}

    async def run(self, fn: Callable[[], T], stop: threading.Event | None = None, request: Any = None) -> T:
        """``fn()`` in a search thread.  Raises ``Busy`` when the pool and its queue are full, or when no thread
        came free within ``wait`` seconds; with ``stop`` and ``request``, sets ``stop`` when the request's
        browser goes away."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.threads)
        if self.running + self.queued >= self.threads + self.waiting:
            raise Busy(f"the server is busy: {self.running} searches running and {self.queued} waiting, as many as "
                       f"it takes; try again in a moment")
        self.queued += 1
        try:
            await asyncio.wait_for(self._slots.acquire(), timeout=self.wait)
        except TimeoutError:
            raise Busy(f"the server is busy: no search thread came free in {self.wait:g} s (each runs one "
                       f"search: a hint or a bot's move); try again in a moment") from None
        finally:
            self.queued -= 1
        self.running += 1
        try:
            future = asyncio.get_running_loop().run_in_executor(self.executor, fn)
            if stop is not None and request is not None:
                while not future.done():
                    await asyncio.wait({future}, timeout=POLL_SECONDS)
                    if not future.done() and await request.is_disconnected():
                        stop.set()  # nobody waits for this hint any more: it ends at its next look
                        break
            return await future
        finally:
            self.running -= 1
            self._slots.release()

    def shutdown(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


__all__ = ["POLL_SECONDS", "WAITING", "WAIT_SECONDS", "SearchPool"]
