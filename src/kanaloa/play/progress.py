"""The progress of a long run on standard error: how much is done, the rate, the time taken and the time left.

``Progress`` counts finished items (games of ``simulate`` and ``soak``,
puzzles, positions) out of a known total and shows them as
``37/100 games  [##########..................]  2.41 games/s  00:15 elapsed  00:26 left``:

- ``"bar"`` redraws that one line in place, at most ten times a second
  (for a terminal);
- ``"lines"`` prints it as a plain line at most every ``interval`` seconds
  (for logs: a short run stays silent);
- ``"off"`` prints nothing;
- ``"auto"`` (the default) is ``"bar"`` on a terminal, else ``"lines"``.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from typing import IO

MODES = ("bar", "lines", "off")


def clock_text(seconds: float) -> str:
    """``MM:SS``, or ``H:MM:SS`` from an hour on; ``--:--`` when unknown (infinite)."""
    if not math.isfinite(seconds):
        return "--:--"
    s = round(seconds)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


class Progress:
    """Items done out of ``total``, the rate and the time left, on ``stream`` (standard error by default).

    ``unit`` names the items (``games``, ``puzzles``); ``mode`` is one of
    the module docstring's.
    """

    WIDTH = 28

    def __init__(self, total: int, stream: IO[str] | None = None, mode: str = "auto",
                 interval: float = 30.0, clock: Callable[[], float] = time.monotonic, unit: str = "games") -> None:
        self.total = total
        self.stream = sys.stderr if stream is None else stream
        if mode == "auto":
            mode = "bar" if getattr(self.stream, "isatty", lambda: False)() else "lines"
        if mode not in MODES:
            raise ValueError(f"progress mode {mode!r}: expected auto, bar, lines or off")
        self.mode = mode
        self.interval = interval
        self.clock = clock
        self.unit = unit
        self.start = clock()
        self.done = 0
        self.last_shown = self.start
        self.drawn = False

    def line(self) -> str:
        """The progress text: ``37/100 games  [####....]  2.41 games/s  00:15 elapsed  00:26 left``."""
        elapsed = self.clock() - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else math.inf
        filled = self.WIDTH * self.done // self.total if self.total else self.WIDTH
        bar = "#" * filled + "." * (self.WIDTH - filled)
        return (f"{self.done}/{self.total} {self.unit}  [{bar}]  {rate:.2f} {self.unit}/s  "
                f"{clock_text(elapsed)} elapsed  {clock_text(left)} left")

    def update(self, done: int | None = None) -> None:
        """Count one more finished item (or set the count to ``done``) and show it when due."""
        self.done = self.done + 1 if done is None else done
        if self.mode == "off":
            return
        now = self.clock()
        if self.mode == "bar":
            if now - self.last_shown >= 0.1 or self.done == self.total or not self.drawn:
                self.stream.write("\r" + self.line() + "\x1b[K")
                self.stream.flush()
                self.drawn = True
                self.last_shown = now
        elif now - self.last_shown >= self.interval and self.done < self.total:
            self.stream.write(self.line() + "\n")
            self.stream.flush()
            self.last_shown = now

    def close(self) -> None:
        """End the live line so that what follows starts on a fresh one."""
        if self.mode == "bar" and self.drawn:
            self.stream.write("\r" + self.line() + "\x1b[K\n")
            self.stream.flush()
            self.drawn = False
