"""Balance reports: what many recorded games say of a game's balance, as one self-contained HTML page.

``kanaloa report RECORDS...`` (and ``kanaloa simulate --report FILE``) reads
game records (``kanaloa.play.records``, ``kanaloa-game/1``), replays each to
its final position and writes the page: win share by seat with 95%
intervals against the fair share and a chi-square test of equal seats (is
there an advantage in going first?), score distributions, game length, how
often each place of the game ends held (the position protocol's
``holders()``, whatever the game), how the games ended, and each bot's
results where the bots differ.  docs/commands.md "report" is the reference
for users.

A report shows one *record set* (games of one rule set by one lineup of
bots, in any seat order), or two side by side with their differences and
the intervals of the differences (``page``).  ``tally`` counts a set,
``figures`` draws the plots with matplotlib (the optional extra
``report``), ``page`` writes the HTML.  The statistics are
``kanaloa.play.stats``': Wilson intervals, Newcombe's interval of a
difference of shares, normal intervals of means and of their differences,
Pearson's chi-square tests.

Nothing here names a game: the rule set describes itself, names its seats,
its reasons and its score, and the positions say who holds what.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .figures import check_matplotlib
from .page import Page
from .tally import Sets, Tally, lineup_text, ruleset_key, set_key

__all__ = ["Page", "Sets", "Tally", "check_matplotlib", "default_labels", "report_html", "set_key"]


def _value_text(name: str, value: Any) -> str:
    """One parameter of a rule set for a label: ``gods`` or ``no gods`` for a flag, ``players 3`` otherwise."""
    if isinstance(value, bool):
        return name if value else f"no {name}"
    if isinstance(value, list):
        value = ",".join(str(v) for v in value)
    return f"{name} {value}"


def default_labels(sets: Sequence[Tally]) -> list[str]:
    """What the page calls each set when the user names none.

    One set: its rule set's description.  Two: what tells them apart: the
    game where the games differ, else the rule-set parameters that differ
    (``gods`` and ``no gods``, ``preset yucata`` and ``preset tabletop``),
    else the bots (``greedy x4``), else where their records were read (the
    first input of each); ``A`` and ``B`` if even those agree.
    """
    if len(sets) == 1:
        return [sets[0].ruleset.describe()]
    a, b = sets
    if a.ruleset.game != b.ruleset.game:
        labels = [t.ruleset.title for t in sets]
    elif ruleset_key(a.ruleset) != ruleset_key(b.ruleset):
        pa, pb = a.ruleset.record_params(), b.ruleset.record_params()
        differ = [k for k in dict.fromkeys([*pa, *pb]) if json.dumps(pa.get(k)) != json.dumps(pb.get(k))]
        labels = [", ".join(_value_text(k, p.get(k)) for k in differ) for p in (pa, pb)]
    elif sorted(a.lineup) != sorted(b.lineup):
        labels = [lineup_text(t.lineup) for t in sets]
    else:
        labels = [t.sources[0] if len(t.sources) == 1 else f"{t.sources[0]} and {len(t.sources) - 1} more"
                  for t in sets]
    return labels if labels[0] != labels[1] else ["A", "B"]


def report_html(sets: Sequence[Tally], labels: Sequence[str] | None = None, title: str | None = None) -> str:
    """The report page of one or two tallies (``labels``: ``default_labels`` when None)."""
    return Page(sets, list(labels) if labels is not None else default_labels(sets), title).html()
