"""The bounds of a search's budget and of worker processes, in one place.

The command's options (``--iterations``, ``--time``, ``--workers``), the
bot specs' keys (``iterations``, ``time``) and the web app's hints all
check against these, so that no budget runs for ever and no worker count
floods the machine:

- ``MAX_ITERATIONS``: a search (a hint, a bot's move) runs at most
  1,000,000,000 iterations; the hint runs about 45,000 a second on one core,
  so that is some hours on one core;
- ``MAX_SECONDS``: a search thinks for at most 86,400 seconds, a day;
- ``max_workers()``: at most ``WORKERS_PER_CORE`` (4) worker processes per
  CPU core this process may use (8 on two cores).  Worker count 0 means one
  per core (``default_workers``), the same for every command.

``SettingError`` names the parameter at fault (``iterations``, ``seconds``,
``workers``, ``top``...), never a command-line option: the command words it
as its option (``SettingError.worded``), the web app as its request's field.

A search at least ``LONG_ITERATIONS`` iterations or ``LONG_SECONDS``
seconds long is *long*: when standard error is not a terminal (where no
progress line is drawn) the command says what it will do before it starts
(``long_search``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ..errors import KanaloaError, OptionError, brief
from .pools import default_workers

MAX_ITERATIONS = 1_000_000_000
MAX_SECONDS = 86_400.0  # a day
WORKERS_PER_CORE = 4
LONG_ITERATIONS = 200_000  # about 5 s of the hint on one core
LONG_SECONDS = 5.0
# A game analysis's default budget for each of its searches (``kanaloa.play.analysis``): here, with the other
# bounds, so that the command's help can say it without loading the search.
ANALYSIS_ITERATIONS = 10_000

_UNSET = object()


class SettingError(KanaloaError):
    """A setting of a search or of its workers that cannot be: ``parameter`` names it, ``why`` says why.

    ``str()`` is ``PARAMETER VALUE: WHY`` (``iterations 0: must be ...``);
    ``parameters`` holds more than one name when the fault is their
    combination (``iterations and seconds: give one budget, not both``).
    """

    def __init__(self, parameters: str | tuple[str, ...], why: str, value: object = _UNSET) -> None:
        self.parameters = (parameters,) if isinstance(parameters, str) else tuple(parameters)
        self.parameter = self.parameters[0]
        self.why = why
        self.value = None if value is _UNSET else value
        self._shown = value is not _UNSET
        super().__init__(self._text(self.parameters))

    def _text(self, labels: tuple[str, ...]) -> str:
        shown = f" {_shown(self.value)}" if self._shown else ""
        return f"{' and '.join(labels)}{shown}: {self.why}"

    def worded(self, labels: Mapping[str, str]) -> OptionError:
        """The same error with each parameter called by its name in ``labels`` (``--time`` for ``seconds``)."""
        return OptionError(self._text(tuple(labels.get(p, p) for p in self.parameters)))


def _shown(value: object) -> str:
    """A value in a message: a whole number as it is, anything else as ``errors.brief`` quotes it."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value.bit_length() > 128:  # too long to show (and past what ``str`` takes beyond 4,300 digits)
            return f"(a whole number of {value.bit_length()} bits)"
        return str(value)
    return brief(value)


def number(value: float) -> str:
    """A bound for people: ``1,000,000,000``, ``86,400``."""
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,}"


def max_workers() -> int:
    """The most worker processes a command may start: ``WORKERS_PER_CORE`` per core this process may use."""
    return WORKERS_PER_CORE * default_workers()


def check_iterations(value: object, parameter: str = "iterations") -> int:
    """``value`` as an iteration budget: a whole number from 1 to ``MAX_ITERATIONS``; else ``SettingError``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ITERATIONS:
        raise SettingError(parameter, f"must be a whole number from 1 to {number(MAX_ITERATIONS)}", value)
    return value


def check_seconds(value: object, parameter: str = "seconds") -> float:
    """``value`` as a time budget: a number of seconds above 0, at most ``MAX_SECONDS``; else ``SettingError``."""
    if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
            or not 0 < value <= MAX_SECONDS):
        raise SettingError(parameter, f"must be a number of seconds above 0 and at most {number(MAX_SECONDS)} "
                                      f"(a day)", value)
    return float(value)


def check_one_budget(iterations: object, seconds: object) -> tuple[int | None, float | None]:
    """At most one of the two budgets, each checked; both at once is a ``SettingError``."""
    if iterations is not None and seconds is not None:
        raise SettingError(("iterations", "seconds"), "give one budget, not both")
    return (None if iterations is None else check_iterations(iterations),
            None if seconds is None else check_seconds(seconds))


def worker_count(value: object, parameter: str = "workers") -> int:
    """``value`` as a number of worker processes: 0 (one per core) up to ``max_workers()``, or the text of
    one (a command's ``--workers``); else ``SettingError``."""
    count = value
    if isinstance(value, str):
        try:
            count = int(value.strip())
        except ValueError:
            count = None
    top = max_workers()
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= top:
        shown = count if isinstance(count, int) and not isinstance(count, bool) else value
        raise SettingError(parameter, f"must be a whole number from 0 to {top} (0: one per core; at most "
                                      f"{WORKERS_PER_CORE} per core, and this process may use "
                                      f"{default_workers()})", shown)
    return count or default_workers()


def long_search(iterations: int | None, seconds: float | None) -> bool:
    """Whether a search of this budget is long (see the module docstring)."""
    return (iterations is not None and iterations >= LONG_ITERATIONS) or (seconds is not None
                                                                          and seconds >= LONG_SECONDS)


def budget_text(iterations: int | None, seconds: float | None) -> str:
    """A budget for people: ``2,000,000 iterations`` or ``30 s``."""
    if iterations is not None:
        return f"{iterations:,} iterations"
    return f"{seconds:g} s"
