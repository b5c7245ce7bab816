"""The report's plots: matplotlib figures written as SVG, to stand inline in the page.

matplotlib is the optional extra ``report`` (``pip install 'kanaloa[report]'``):
``check_matplotlib`` says so in one line where it is missing, and nothing
imports it before a plot is drawn.  The figures are made with
``matplotlib.figure.Figure`` alone, never ``pyplot``, so no backend is
chosen and nothing global changes; every setting a figure needs is given in
an ``rc_context`` around it (``STYLE``).

The same tallies give the same SVG, byte for byte: the hash salt of the ids
is fixed, the text is kept as text (``svg.fonttype`` ``none``: no glyph
outlines, which the browser draws in its own sans-serif font), no date or
creator is written, and the XML prologue and metadata are dropped.  Every
id in a picture, and every reference to one, is prefixed with the plot's
name, so that the pictures of one page never share an id.

Each ``*_plot`` function takes the tallies (one record set, or two side by
side) and their labels and returns the plot's SVG text; ``PLOTS`` lists
them by name, in the page's order.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from ...errors import OptionError
from ..stats import share_difference, wilson_interval
from .tally import Tally

EXTRA = "pip install 'kanaloa[report]'"
STYLE: dict[Any, Any] = {
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": 9.0,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.axisbelow": True,
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    "legend.frameon": False,
    "legend.fontsize": 8.0,
}
# Seats and sets are told apart by these colors (the seats' own names, such as white, would not show).
SEAT_COLORS = ("#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02")
SET_COLORS = ("#1f5fa8", "#c8423b")
NOBODY_COLOR = "#d9d9d9"
WIDTH = 7.2  # inches: the page's column


def check_matplotlib(where: str) -> None:
    """Raise ``OptionError`` naming ``where`` when matplotlib, the extra ``report``, is not installed."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise OptionError(f"{where}: needs the report extra: {EXTRA} (matplotlib is not installed)") from None


def render(name: str, draw: Callable[[Any], None], height: float) -> str:
    """The SVG of a figure ``WIDTH`` by ``height`` inches that ``draw(figure)`` fills, its ids prefixed with
    ``name`` (module docstring)."""
    import matplotlib
    from matplotlib.figure import Figure

    settings: dict[Any, Any] = {**STYLE, "svg.hashsalt": f"kanaloa-report-{name}"}
    with matplotlib.rc_context(settings):
        figure = Figure(figsize=(WIDTH, height), layout="constrained")
        draw(figure)
        out = io.StringIO()
        figure.savefig(out, format="svg", metadata={"Date": None, "Creator": None})
    return _inline(out.getvalue(), name)


_ID = re.compile(r'\bid="([^"]+)"')
_REFERENCE = re.compile(r'(url\(#|xlink:href="#|href="#)([^)"]+)')


def _inline(svg: str, name: str) -> str:
    """A standalone SVG made fit to stand in an HTML page: from ``<svg`` on, without its metadata, every id
    and reference prefixed with ``name``."""
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", svg, count=1, flags=re.S)
    svg = _ID.sub(lambda m: f'id="{name}-{m.group(1)}"', svg)
    svg = _REFERENCE.sub(lambda m: f"{m.group(1)}{name}-{m.group(2)}", svg)
    return svg.replace("<svg ", f'<svg class="plot-svg" role="img" aria-labelledby="{name}-caption" ', 1).strip()


def _percent(axis: Any) -> None:
    from matplotlib.ticker import PercentFormatter

    axis.set_major_formatter(PercentFormatter(1.0, decimals=0))


def _legend(sets: Sequence[Tally], label: str) -> str:
    """A series' legend entry: the set's label beside another set, none for a set alone."""
    return label if len(sets) > 1 else "_nolegend_"


def _offsets(count: int, spread: float = 0.32) -> list[float]:
    """Where each of ``count`` series stands around a category's place."""
    if count == 1:
        return [0.0]
    return [spread * (k / (count - 1) - 0.5) for k in range(count)]


def seat_names(sets: Sequence[Tally]) -> list[str]:
    """The seats' tick labels: the seats' names where every set names them alike, else ``seat 0``..."""
    most = max(t.players for t in sets)
    names = {t.seats for t in sets}
    if len(names) == 1:
        return [f"{name}\nseat {s}" for s, name in enumerate(sets[0].seats)]
    return [f"seat {s}" for s in range(most)]


def _errorbar(ax: Any, xs: Sequence[float], shares: Sequence[float], intervals: Sequence[tuple[float, float]],
              color: str, label: str, horizontal: bool = False) -> None:
    low = [p - lo for p, (lo, _) in zip(shares, intervals, strict=True)]
    high = [hi - p for p, (_, hi) in zip(shares, intervals, strict=True)]
    if horizontal:
        ax.errorbar(shares, xs, xerr=[low, high], fmt="o", capsize=3, color=color, label=label, clip_on=False)
    else:
        ax.errorbar(xs, shares, yerr=[low, high], fmt="o", capsize=4, color=color, label=label, clip_on=False)


def _share_axes(ax: Any, ticks: Sequence[str], ylabel: str, legend: str) -> None:
    """The axes of a plot of win shares, one column a tick: the columns, shares in percent from 0, the legend."""
    ax.set_xticks(range(len(ticks)), ticks)
    ax.set_xlim(-0.6, len(ticks) - 0.4)
    ax.set_ylim(bottom=0)
    _percent(ax.yaxis)
    ax.set_ylabel(ylabel)
    ax.legend(loc=legend)


def seats_plot(sets: Sequence[Tally], labels: Sequence[str]) -> str:
    """Win share by seat, with 95% Wilson intervals, against the fair share ``1 / players``."""

    def draw(figure: Any) -> None:
        ax = figure.subplots()
        offsets = _offsets(len(sets))
        fair_drawn: set[int] = set()
        for k, t in enumerate(sets):
            xs = [s + offsets[k] for s in range(t.players)]
            shares = [float(t.wins(s)) / t.games for s in range(t.players)]
            intervals = [wilson_interval(t.wins(s), t.games) for s in range(t.players)]
            _errorbar(ax, xs, shares, intervals, SET_COLORS[k], _legend(sets, labels[k]))
            if t.players not in fair_drawn:
                fair_drawn.add(t.players)
                ax.hlines(1 / t.players, -0.45, t.players - 0.55, colors="#555555", linestyles="dashed",
                          label=f"fair share, 1/{t.players}")
        _share_axes(ax, seat_names(sets), "games won", "lower right")

    return render("plot-seats", draw, 3.2)


def seat_difference_plot(sets: Sequence[Tally], labels: Sequence[str]) -> str:
    """The difference of two sets' win shares, seat by seat, with Newcombe's 95% intervals."""
    first, second = sets

    def draw(figure: Any) -> None:
        ax = figure.subplots()
        rows = []
        for s in range(first.players):
            rows.append(share_difference(first.wins(s), first.games, second.wins(s), second.games))
        ys = list(range(first.players))
        _errorbar(ax, ys, [d for d, _, _ in rows], [(lo, hi) for _, lo, hi in rows], SET_COLORS[0],
                  "_nolegend_", horizontal=True)
        ax.set_title(f"{labels[0]} minus {labels[1]}", fontsize=9)
        ax.axvline(0.0, color="#555555", linestyle="dashed", linewidth=1)
        ax.set_yticks(ys, [name.replace("\n", ", ") for name in seat_names(sets)])
        ax.invert_yaxis()
        _percent(ax.xaxis)
        ax.set_xlabel("difference of win shares (percentage points)")

    return render("plot-seat-difference", draw, 0.45 * first.players + 1.3)


def _bins(values: Sequence[int], most: int = 40) -> list[float]:
    """Bin edges for whole numbers from the least to the greatest of ``values``: at most ``most`` bins of a
    whole width, each centred on its numbers."""
    low, high = min(values), max(values)
    width = max(1, math.ceil((high - low + 1) / most))
    count = math.ceil((high - low + 1) / width)
    return [low - 0.5 + width * k for k in range(count + 1)]


def _shares(counts: dict[int, int], edges: Sequence[float]) -> list[float]:
    """The share of ``counts``' games in each bin of ``edges``."""
    total = sum(counts.values())
    out = [0.0] * (len(edges) - 1)
    width = edges[1] - edges[0]
    for value, n in sorted(counts.items()):  # in one order, so that the sums are the same to the last bit
        out[min(len(out) - 1, int((value - edges[0]) // width))] += n / total
    return out


def scores_plot(sets: Sequence[Tally], labels: Sequence[str]) -> str:
    """The distribution of final scores, seat by seat; two sets side by side on the same axes."""
    values = [v for t in sets for counts in t.scores for v in counts]
    edges = _bins(values)

    def draw(figure: Any) -> None:
        axes = figure.subplots(1, len(sets), sharex=True, sharey=True, squeeze=False)[0]
        for ax, t, label in zip(axes, sets, labels, strict=True):
            for s, counts in enumerate(t.scores):
                ax.stairs(_shares(counts, edges), edges, color=SEAT_COLORS[s % len(SEAT_COLORS)], linewidth=1.4,
                          label=f"{t.seats[s]} (seat {s})")
            ax.set_xlabel(f"final {t.ruleset.score_name}")
            if len(sets) > 1:
                ax.set_title(label, fontsize=9)
            ax.legend(loc="upper right")
        _percent(axes[0].yaxis)
        axes[0].set_ylabel("games")

    return render("plot-scores", draw, 3.0)


def lengths_plot(sets: Sequence[Tally], labels: Sequence[str]) -> str:
    """The distribution of game lengths (moves), each set's mean marked."""
    edges = _bins([v for t in sets for v in t.lengths])

    def draw(figure: Any) -> None:
        ax = figure.subplots()
        for k, (t, label) in enumerate(zip(sets, labels, strict=True)):
            ax.stairs(_shares(t.lengths, edges), edges, color=SET_COLORS[k], linewidth=1.4, label=_legend(sets, label),
                      fill=len(sets) == 1, alpha=0.85)
            ax.axvline(t.length_moments.mean, color=SET_COLORS[k], linestyle="dashed", linewidth=1,
                       label=f"mean, {t.length_moments.mean:.1f}")
        _percent(ax.yaxis)
        ax.set_xlabel("moves in the game")
        ax.set_ylabel("games")
        ax.legend(loc="upper right")

    return render("plot-lengths", draw, 2.8)


def places_plot(sets: Sequence[Tally], labels: Sequence[str]) -> str:
    """How often each place ends held, and by which seat: stacked bars, the rest held by nobody."""
    names = [t.place_names() for t in sets]
    same = all(n == names[0] for n in names)
    rows = max(len(n) for n in names)

    def draw(figure: Any) -> None:
        axes = figure.subplots(1, len(sets), sharey=same, squeeze=False)[0]
        for ax, t, label in zip(axes, sets, labels, strict=True):
            places = t.place_names()
            if not places:  # a game without places, beside one with them
                ax.set_axis_off()
                ax.text(0.5, 0.5, f"{label}: no places", ha="center", va="center", transform=ax.transAxes)
                continue
            ys = list(range(len(places)))
            left = [0.0] * len(places)
            for s, seat in enumerate(t.seats):
                widths = [t.held_by(p, s) / t.games for p in places]
                ax.barh(ys, widths, left=left, color=SEAT_COLORS[s % len(SEAT_COLORS)], label=seat, height=0.7)
                left = [a + b for a, b in zip(left, widths, strict=True)]
            ax.barh(ys, [1 - x for x in left], left=left, color=NOBODY_COLOR, label="nobody", height=0.7)
            ax.set_yticks(ys, places)
            ax.set_ylim(len(places) - 0.5, -0.5)
            ax.set_xlim(0, 1)
            ax.grid(axis="y", visible=False)
            _percent(ax.xaxis)
            ax.set_xlabel("games ending with the place held")
            if len(sets) > 1:
                ax.set_title(label, fontsize=9)
        handles, legend = max((ax.get_legend_handles_labels() for ax in axes), key=lambda found: len(found[1]))
        if legend:
            figure.legend(handles, legend, loc="outside lower center", ncols=len(legend))

    return render("plot-places", draw, 0.24 * rows + 1.4)


def reason_labels(sets: Sequence[Tally]) -> dict[str, str]:
    """Every way the sets' games ended, in order, with its text for people (``on points``)."""
    out: dict[str, str] = {}
    for t in sets:
        for reason in t.reason_list():
            out.setdefault(reason, t.ruleset.reason_text(reason))
    return out


def reasons_plot(sets: Sequence[Tally], labels: Sequence[str]) -> str:
    """How the games ended: the share of each reason, with 95% Wilson intervals."""
    reasons = reason_labels(sets)

    def draw(figure: Any) -> None:
        ax = figure.subplots()
        offsets = _offsets(len(sets))
        for k, (t, label) in enumerate(zip(sets, labels, strict=True)):
            xs = [i + offsets[k] for i in range(len(reasons))]
            counts = [t.reasons[r] for r in reasons]
            shares = [n / t.games for n in counts]
            ax.bar(xs, shares, width=0.6 if len(sets) == 1 else 0.3, color=SET_COLORS[k], alpha=0.35,
                   label=_legend(sets, label))
            _errorbar(ax, xs, shares, [wilson_interval(n, t.games) for n in counts], SET_COLORS[k],
                      "_nolegend_")
        ax.set_xticks(range(len(reasons)), list(reasons.values()))
        ax.set_ylim(0, 1)
        _percent(ax.yaxis)
        ax.set_ylabel("games")
        if len(sets) > 1:
            ax.legend(loc="best")

    return render("plot-reasons", draw, 2.6)


def bot_specs(sets: Sequence[Tally]) -> list[str]:
    """Every bot spec of the sets, in the order of their lineups."""
    return list(dict.fromkeys(spec for t in sets for spec in t.lineup))


def bots_plot(sets: Sequence[Tally], labels: Sequence[str]) -> str:
    """Each bot's win share (per player-game), with 95% Wilson intervals, against the fair share."""
    specs = bot_specs(sets)

    def draw(figure: Any) -> None:
        ax = figure.subplots()
        offsets = _offsets(len(sets))
        fair_drawn: set[int] = set()
        for k, (t, label) in enumerate(zip(sets, labels, strict=True)):
            rows = {row.spec: row for row in t.bot_rows()}
            here = [i for i, spec in enumerate(specs) if spec in rows]
            _errorbar(ax, [i + offsets[k] for i in here], [rows[specs[i]].win_share for i in here],
                      [rows[specs[i]].ci95 for i in here], SET_COLORS[k], _legend(sets, label))
            if t.players not in fair_drawn:
                fair_drawn.add(t.players)
                ax.axhline(1 / t.players, color="#555555", linestyle="dashed", linewidth=1,
                           label=f"fair share, 1/{t.players}")
        _share_axes(ax, [_wrap(spec) for spec in specs], "player-games won", "upper right")

    return render("plot-bots", draw, 3.0)


def _wrap(spec: str, width: int = 22) -> str:
    """A long bot spec broken after its commas, so that tick labels do not run into each other."""
    lines, line = [], ""
    for part in re.split(r"(?<=[,:])", spec):
        if line and len(line) + len(part) > width:
            lines.append(line)
            line = ""
        line += part
    return "\n".join([*lines, line])


# The plots, by name, in the page's order, with whether a report of these sets has each.
def plots_of(sets: Sequence[Tally]) -> list[tuple[str, Callable[[Sequence[Tally], Sequence[str]], str]]]:
    out: list[tuple[str, Callable[[Sequence[Tally], Sequence[str]], str]]] = [("plot-seats", seats_plot)]
    if len(sets) == 2 and sets[0].players == sets[1].players:
        out.append(("plot-seat-difference", seat_difference_plot))
    out += [("plot-scores", scores_plot), ("plot-lengths", lengths_plot)]
    if any(t.places for t in sets):
        out.append(("plot-places", places_plot))
    out.append(("plot-reasons", reasons_plot))
    if any(t.distinct_bots > 1 for t in sets):
        out.append(("plot-bots", bots_plot))
    return out
