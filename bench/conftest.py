"""Fixtures of the benchmark suite: the rule sets, the reference positions, and rates per unit of work.

Run it with ``pytest bench/`` (settings in ``bench/pytest.ini``): one table
per group, each row timing one implementation or one position.  The rule sets
come from the registry (every registered game's example rule sets and those its
``bench`` face times), the reference positions and every seed from
``kanaloa.tools.benchmark``, so the suite times what ``kanaloa bench``
reports.  After the tables, a summary turns each benchmark's best round into a
rate of its own unit (games, moves, determinisations, iterations per second).
"""

from __future__ import annotations

import pytest

from kanaloa.rules.registry import game_types
from kanaloa.rules.ruleset import Ruleset
from kanaloa.tools.benchmark import PHASES, PLAYERS, BenchPosition, bench_position, game_bench, position_ruleset

POSITION_IDS = [f"{p}p-{phase}" for p in PLAYERS for phase in PHASES]


def bench_rulesets() -> list[Ruleset]:
    """Every registered game's example rule sets and the rule sets its bench face times in C, each once."""
    out: list[Ruleset] = []
    for game in game_types():
        for rules in [*game.example_rulesets(), *(b.ruleset for b in game_bench(game).batches)]:
            if rules not in out:
                out.append(rules)
    return out


def rules_id(rules: Ruleset) -> str:
    """A short test id of a rule set: ``kanaloa-4p-yucata``, ``kanaloa-2p-tabletop-gods``, ``kahuna-2p``."""
    params = rules.params()
    preset = f"-{params['preset']}" if "preset" in params else ""
    return f"{rules.game}-{rules.players}p{preset}{'-gods' if params.get('gods') else ''}"


# Benchmarks that asked for rates: (the pytest-benchmark fixture, [(units per call, unit), ...]).
# The fixture's stats are filled in once it has run; the summary reads them at the end.
_RATES: list[tuple[object, list[tuple[float, str]]]] = []


@pytest.fixture(scope="session")
def positions() -> dict[str, BenchPosition]:
    """Every reference position by name, ``3p-start`` ... ``4p-final``."""
    return {f"{p}p-{phase}": bench_position(position_ruleset(p), phase) for p in PLAYERS for phase in PHASES}


@pytest.fixture(params=POSITION_IDS)
def position(request, positions) -> BenchPosition:
    """Each reference position in turn."""
    return positions[request.param]


@pytest.fixture
def rate():
    """``rate(benchmark, units, unit)``: report this benchmark as ``units`` of ``unit`` per call (repeatable)."""

    def record(benchmark, units: float, unit: str) -> None:
        benchmark.extra_info[f"{unit}_per_call"] = units
        for fixture, rates in _RATES:
            if fixture is benchmark:
                rates.append((units, unit))
                return
        _RATES.append((benchmark, [(units, unit)]))

    return record


@pytest.hookimpl(trylast=True)  # after pytest-benchmark's own tables
def pytest_terminal_summary(terminalreporter) -> None:
    rows = []
    for fixture, rates in _RATES:
        meta = getattr(fixture, "stats", None)
        if not meta or meta.stats.min <= 0:  # not run (--benchmark-disable, --benchmark-skip, a failure)
            continue
        best = meta.stats.min
        shown = ", ".join(f"{_human(units / best)} {unit}/s" for units, unit in rates)
        rows.append((meta.group or "", meta.name, shown))
    if not rows:
        return
    terminalreporter.section("rates per unit of work (best round, CPU time)")
    for group in sorted({g for g, _, _ in rows}):
        terminalreporter.write_line(group)
        for g, name, shown in sorted(rows):
            if g == group:
                terminalreporter.write_line(f"  {name:<52} {shown}")


def _human(value: float) -> str:
    return f"{value / 1e6:.2f}M" if value >= 1e6 else f"{value:,.0f}"
