"""The hint on the whole tactical suite at its default budget: how many puzzles it finds, and how fast.

The suite (``src/kanaloa/examples/tactics.json``, docs/commands.md "The tactical
suite file") holds positions whose correct first moves were found exhaustively.
The share of puzzles the hint finds is the figure that matters here; it goes
into ``benchmark.extra_info`` (``share``, ``found``, ``puzzles``, the share of
each kind and the ids missed), which ``pytest bench/ --benchmark-json FILE``
writes out.  ``kanaloa tactics`` prints the same run for people.  The time of
a round is the hint's time on the whole suite, one hint per puzzle.
"""

from __future__ import annotations

from kanaloa.tools.tactics import load_suite, run_suite

SEED = 0


def test_tactical_suite_at_the_default_budget(benchmark, rate):
    suite = load_suite()
    benchmark.group = "tactical suite, the hint's default budget"
    rate(benchmark, len(suite.puzzles), "puzzles")
    report = benchmark.pedantic(run_suite, args=(suite,), kwargs={"seed": SEED}, rounds=1, warmup_rounds=0)
    assert len(report.results) == len(suite.puzzles)
    benchmark.extra_info["share"] = round(report.share, 4)
    benchmark.extra_info["found"] = report.found
    benchmark.extra_info["puzzles"] = len(report.results)
    for kind, row in report.kinds().items():
        benchmark.extra_info[f"share_{kind}"] = row["share"]
    benchmark.extra_info["misses"] = [r.id for r in report.misses]
