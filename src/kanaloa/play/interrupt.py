"""Ctrl-C, taken the same way by every command: the first one stops the work, which keeps what it finished.

Every ``kanaloa`` command runs inside a ``CtrlC`` (the command line enters
one around each command), and the long work inside a command enters its own,
which takes over SIGINT from the outer one while it runs:

- **Work that waits** (``CtrlC()``): a tournament or a soak waiting for its
  worker processes or playing games in this process.  The first Ctrl-C
  raises ``KeyboardInterrupt`` at once, as Python's own handler does, except
  inside ``holding()``: a short section that must not be cut in two (a game
  added to the totals *and* written out) holds it back and raises it when
  the section ends.  The work catches it, stops its workers and returns what
  finished, with ``interrupted`` set.  Its clean-up runs inside
  ``holding(reraise=False)``, so that a second Ctrl-C cannot cut it short.
- **Work that polls** (``CtrlC(polled=True)``): a search, which asks its
  ``stop`` every few iterations.  The first Ctrl-C only sets ``stopped``:
  the search ends and returns the best found so far, with ``interrupted``
  set.  A second one makes ``check()`` raise ``KeyboardInterrupt`` (in the
  work's own code, where it asks, never inside a finaliser) and gives SIGINT
  back to the handler before, which takes any further one.

The command then exits with status 130: with its report of what finished
(``hint``, ``simulate``, ``soak``), or with ``error: interrupted`` where the
work keeps nothing (``tactics``, ``steadiness`` and the others).

Worker processes ignore SIGINT (``ignore_in_worker``): a terminal's Ctrl-C
reaches the whole process group, the main process decides, and a worker
that took it too would print a traceback of its own.

A ``CtrlC`` takes SIGINT only on the main thread, and only from Python's
own handler (``signal.default_int_handler``) or from another ``CtrlC``; under
an ignored or a custom handler (a program that embeds kanaloa) it changes
nothing, and ``stopped`` stays False.  The handler before comes back when the
``with`` block ends.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any


class CtrlC:
    """Ctrl-C while the ``with`` block runs; see the module docstring.

    ``stopped`` is True once a Ctrl-C came.  ``enabled=False`` makes the
    block change nothing (a search that is not the command's own).
    """

    def __init__(self, polled: bool = False, enabled: bool = True) -> None:
        self.polled = polled
        self.enabled = enabled
        self.stopped = False  # a first Ctrl-C came (set from the signal handler: a plain attribute, no lock)
        self.again = False  # polled work: a second one came
        self._held = False
        self._pending = False
        self._previous: Any = None
        self._handler = self._on_sigint  # one bound method, so that it can be told apart from others
        self._installed = False

    def __enter__(self) -> CtrlC:
        if self.enabled and threading.current_thread() is threading.main_thread():
            current = signal.getsignal(signal.SIGINT)
            if current is signal.default_int_handler or isinstance(getattr(current, "__self__", None), CtrlC):
                self._previous = signal.signal(signal.SIGINT, self._handler)
                self._installed = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, self._previous)
            self._installed = False

    def _on_sigint(self, signum: int, frame: Any) -> None:
        if self.polled:
            if self.stopped:
                self.again = True
                signal.signal(signal.SIGINT, self._previous)  # a third one goes to the handler before
            self.stopped = True
            return
        self.stopped = True
        if self._held:
            self._pending = True
        else:
            raise KeyboardInterrupt

    def check(self) -> bool:
        """For polled work: whether to stop (a Ctrl-C came); raises ``KeyboardInterrupt`` after a second one."""
        if self.again:
            raise KeyboardInterrupt
        return self.stopped

    @contextlib.contextmanager
    def holding(self, reraise: bool = True) -> Iterator[None]:
        """A section a Ctrl-C does not cut in two: one that comes inside is raised when it ends (or, with
        ``reraise=False``, dropped: for clean-up after the work stopped)."""
        held, self._held = self._held, True
        try:
            yield
        finally:
            self._held = held
            pending, self._pending = self._pending, False
            if pending and reraise and not held:
                raise KeyboardInterrupt
            self._pending = self._pending or (pending and held)


def ignore_in_worker() -> None:
    """In a worker process: ignore SIGINT, which the main process handles for it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
