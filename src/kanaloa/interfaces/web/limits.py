"""What one request may ask of the server's searches: the caps of ``kanaloa serve``, documented in docs/web.md.

A request names the budget of a search two ways: a hint's ``iterations``,
and the bot specs of a new game's seats (``kanaloa.play.bots``), whose keys
say how long each of the bot's moves searches.  The play layer bounds both
only by what a command may run (``kanaloa.play.limits``: a billion
iterations, a day), which is far more than a shared server should give one
request: a seat of ``ismcts:time=3600`` would hold one of the server's few
threads for an hour at each of its moves.  So the server caps them
(``RequestCaps``):

- ``iterations``: a hint's iterations, and a bot's iterations per move (its
  default of 1000 included), at most ``kanaloa serve --max-iterations``
  (``DEFAULT_MAX_ITERATIONS`` by default, or the hint budget when that is
  larger);
- ``time``: a bot's seconds per move, at most ``MAX_BOT_SECONDS``;
- ``trees`` (``ismcts``, ``hint``), ``dets`` (``pimc``) and ``width``
  (``greedy``), the keys that make one move's search wider: at most
  ``MAX_TREES``, ``MAX_DETS`` and ``MAX_WIDTH``.  (No bot spec takes a
  number of worker processes: the hints' workers are the server's own
  ``--hint-workers``.)

A value over its cap is refused with a 400 that names the seat or the field
and the cap; it is never lowered in silence, since a game played at another
budget than the one asked would mislead whoever reads its record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...errors import OptionError, brief

if TYPE_CHECKING:
    from ...play.bots import Bot

DEFAULT_MAX_ITERATIONS = 100_000  # about two seconds of the hint's search on one core
MAX_BOT_SECONDS = 10.0
MAX_TREES = 64
MAX_DETS = 1000
MAX_WIDTH = 10_000


@dataclass(frozen=True)
class RequestCaps:
    """The most a request may ask of a search (module docstring)."""

    iterations: int = DEFAULT_MAX_ITERATIONS
    seconds: float = MAX_BOT_SECONDS
    trees: int = MAX_TREES
    dets: int = MAX_DETS
    width: int = MAX_WIDTH

    def hint_iterations(self, count: object) -> int:
        """``count`` as a hint's iterations: a whole number from 1 to the cap; else ``OptionError``."""
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= self.iterations:
            raise OptionError(f"iterations {brief(count)}: must be a whole number from 1 to {self.iterations}, "
                              f"this server's cap (kanaloa serve --max-iterations)")
        return count

    def check_bot(self, bot: Bot) -> None:
        """Refuse (``OptionError``) a bot whose spec asks more than a cap (the caller names the seat)."""
        where = f"bot spec {brief(bot.spec)}"
        iterations = getattr(bot, "iterations", None)
        if iterations is not None and iterations > self.iterations:
            given = "asks" if _keyed(bot, "iterations") else "searches by default"
            raise OptionError(f"{where}: {given} {iterations} iterations a move, over this server's cap of "
                              f"{self.iterations} (kanaloa serve --max-iterations)")
        seconds = getattr(bot, "seconds", None)
        if seconds is not None and seconds > self.seconds:
            raise OptionError(f"{where}: time {seconds:g} is over this server's cap of {self.seconds:g} seconds a "
                              f"move")
        for key, cap in (("trees", self.trees), ("dets", self.dets), ("width", self.width)):
            value = getattr(bot, key, None)
            if isinstance(value, int) and value > cap:
                raise OptionError(f"{where}: {key} {value} is over this server's cap of {cap}")


DEFAULT_CAPS = RequestCaps()  # those of a server started with no --max-iterations, at the default hint budget


def _keyed(bot: Bot, key: str) -> bool:
    """Whether ``bot``'s spec gives ``key`` itself (rather than the bot's default)."""
    return any(part.partition("=")[0].strip().lower() == key for part in bot.spec.split(":")[1:])


def max_iterations_for(hint_iterations: int, asked: int | None) -> int:
    """The server's cap on a request's iterations: ``asked`` (``--max-iterations``), or by default
    ``DEFAULT_MAX_ITERATIONS`` or the hint budget, whichever is larger.  ``OptionError`` when ``asked`` is below
    the hint budget, which every hint of the page asks."""
    if asked is None:
        return max(DEFAULT_MAX_ITERATIONS, hint_iterations)
    if asked < hint_iterations:
        raise OptionError(f"--max-iterations {asked}: below --hint-iterations {hint_iterations}; the cap must let "
                          f"the page ask for its own hints")
    return asked


__all__ = ["DEFAULT_CAPS", "DEFAULT_MAX_ITERATIONS", "MAX_BOT_SECONDS", "MAX_DETS", "MAX_TREES", "MAX_WIDTH",
           "RequestCaps", "max_iterations_for"]
