"""The report's page: one self-contained HTML file, its tables and its plots (``figures``) inline.

The page needs nothing beyond itself: the style is in a ``<style>``
element, every plot is an inline ``<svg>``, and there is no script, no
font, no image and no link to fetch.  It reads in any browser, offline,
and prints.  Every figure is a ``<figure class="plot">`` whose ``id`` is
the plot's name (``plot-seats``...), holding its ``<svg>`` and a
``<figcaption>``.

The sections, with one record set or two side by side (the first called
A, the second B, differences A minus B):

- **The games**: each set's rule set, bots, games, deals and sources.
- **Seat advantage**: win share by seat with 95% Wilson intervals against
  the fair share, and Pearson's chi-square test of equal seats; with two
  sets of the same seats, each seat's difference with Newcombe's interval
  and the chi-square test that both sets spread their wins alike.
- **Scores**, **Game length**: distributions, means with normal
  intervals, differences of means with theirs.
- **Places held at the end**: each place's share of games ending held,
  and by which seat (``holders()`` of the game's positions).
- **How the games ended**: each reason's share.
- **Bots**: the per-bot table of ``kanaloa simulate``, where the bots of a
  set differ.
"""

from __future__ import annotations

import html
import math
import statistics
from collections.abc import Sequence
from fractions import Fraction

from ..stats import (
    BotStats,
    ChiSquare,
    Moments,
    format_share,
    format_wins,
    homogeneity,
    mean_difference,
    seat_equality,
    share_difference,
    wilson_interval,
)
from ..totals import ended
from . import figures
from .tally import Tally, lineup_text

STYLE = """
body { font-family: "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; color: #222; margin: 0;
       background: #fafafa; line-height: 1.45; }
main { max-width: 60rem; margin: 0 auto; padding: 1.5rem 1.5rem 3rem; background: #fff; }
h1 { font-size: 1.6rem; margin: 0 0 0.4rem; }
h2 { font-size: 1.25rem; margin: 2.2rem 0 0.6rem; border-bottom: 1px solid #ddd; padding-bottom: 0.2rem; }
p.lead { color: #555; margin-top: 0; }
p.verdict { background: #f1f5fb; border-left: 4px solid #1f5fa8; padding: 0.5rem 0.8rem; }
table { border-collapse: collapse; margin: 0.8rem 0; font-size: 0.88rem; }
th, td { padding: 0.22rem 0.6rem; border-bottom: 1px solid #e6e6e6; text-align: right; vertical-align: top; }
th:first-child, td:first-child { text-align: left; }
thead th { border-bottom: 2px solid #bbb; }
td.text { text-align: left; }
span.set-a { color: #1f5fa8; font-weight: bold; }
span.set-b { color: #c8423b; font-weight: bold; }
.small { color: #666; font-size: 0.82rem; }
figure.plot { margin: 1rem 0; }
figure.plot svg { display: block; max-width: 100%; height: auto; }
figcaption { color: #555; font-size: 0.85rem; margin-top: 0.3rem; }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _share(wins: Fraction | int, games: int) -> str:
    return format_share(float(wins) / games if games else None)


def _interval(low: float, high: float) -> str:
    return f"[{format_share(low)}, {format_share(high)}]"


def _points(d: float) -> str:
    """A difference of shares in percentage points, signed: ``+3.2``."""
    return f"{100 * d:+.1f}"


def _difference(d: float, low: float, high: float) -> str:
    """``+3.2 pp [-1.0, +7.4]``: a difference of shares and its interval, in percentage points."""
    return f"{_points(d)} pp [{_points(low)}, {_points(high)}]"


def _number(x: float, digits: int = 2) -> str:
    return "-" if not math.isfinite(x) else f"{x:.{digits}f}"


def _mean(m: Moments) -> str:
    low, high = m.interval()
    return f"{_number(m.mean)} [{_number(low)}, {_number(high)}]" if m.count else "-"


def _mean_difference(a: Moments, b: Moments) -> str:
    d, low, high = mean_difference(a, b)
    return f"{d:+.2f} [{low:+.2f}, {high:+.2f}]" if a.count and b.count else "-"


def _p(p: float) -> str:
    return "p < 0.0001" if p < 0.0001 else f"p = {p:.2g}"


def _chi_square(test: ChiSquare) -> str:
    return (f"chi-square {test.statistic:.2f} with {test.df} degree{'s' * (test.df > 1)} of freedom, "
            f"{_p(test.p_value)}")


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], text_columns: int = 1) -> str:
    """An HTML table; the cells are HTML already (escape text before), the first ``text_columns`` flush
    left."""
    out = ["<table>", "<thead><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr></thead>", "<tbody>"]
    for row in rows:
        cells = [f'<td class="text">{c}</td>' if i < text_columns else f"<td>{c}</td>" for i, c in enumerate(row)]
        out.append("<tr>" + "".join(cells) + "</tr>")
    out += ["</tbody>", "</table>"]
    return "\n".join(out)


def _figure(name: str, svg: str, caption: str) -> str:
    return (f'<figure class="plot" id="{name}">\n{svg}\n<figcaption id="{name}-caption">{caption}</figcaption>\n'
            f"</figure>")


class Page:
    """The report of one or two tallies with their labels (module docstring)."""

    def __init__(self, sets: Sequence[Tally], labels: Sequence[str], title: str | None = None) -> None:
        if len(sets) not in (1, 2) or len(labels) != len(sets):
            raise ValueError("a report has one or two record sets, each with its label")
        self.sets = list(sets)
        self.labels = list(labels)
        self.pair = len(sets) == 2
        self.title = title or ("Balance report: " + " vs ".join(labels))
        self.svgs = {name: plot(self.sets, self.labels) for name, plot in figures.plots_of(self.sets)}

    # -- pieces ---------------------------------------------------------------------------------

    def _tag(self, k: int) -> str:
        """How the page names set ``k`` in a pair: a colored A or B."""
        return f'<span class="set-{"ab"[k]}">{"AB"[k]}</span>' if self.pair else ""

    def _named(self, k: int) -> str:
        return f"{self._tag(k)} {_e(self.labels[k])}" if self.pair else _e(self.labels[k])

    def _plot(self, name: str, caption: str) -> str:
        return _figure(name, self.svgs[name], caption) if name in self.svgs else ""

    def _same_seats(self) -> bool:
        return self.pair and self.sets[0].players == self.sets[1].players

    @staticmethod
    def fair(t: Tally) -> float:
        """The share of the games each seat would win were no seat better placed: the games with a winner,
        divided among the seats."""
        return float(t.decided) / t.games / t.players if t.games else 0.0

    # -- sections -------------------------------------------------------------------------------

    def games(self) -> str:
        head = ["", *(self._named(k) for k in range(len(self.sets)))]
        rows = [
            ["rule set", *(_e(t.ruleset.describe()) for t in self.sets)],
            ["bots", *(_e(lineup_text(t.lineup)) for t in self.sets)],
            ["records", *(str(t.games + t.repeats) for t in self.sets)],
            ["games counted", *(self._counted(t) for t in self.sets)],
            ["deals", *(self._deals(t) for t in self.sets)],
            ["mean moves", *(_number(t.length_moments.mean, 1) for t in self.sets)],
        ]
        if any(t.ruleset.may_end_without_winner for t in self.sets):
            rows.append(["games without a winner", *(f"{t.no_winner} ({_share(t.no_winner, t.games)})"
                                                     for t in self.sets)])
        if any(t.ruleset.shares_victory for t in self.sets):
            rows.append(["shared victories", *(f"{t.shared} ({_share(t.shared, t.games)})" for t in self.sets)])
        rows.append(["read from", *("<br>".join(_e(s) for s in t.sources) for t in self.sets)])
        return self._section("games", "The games", _table(head, rows, text_columns=len(head)))

    @staticmethod
    def _counted(t: Tally) -> str:
        if not t.repeats:
            return str(t.games)
        return (f"{t.games}: {t.repeats} records repeat a game of their deal move for move (identical bots that "
                f"decide alike play the same game in every seat rotation), and each game counts once")

    @staticmethod
    def _deals(t: Tally) -> str:
        text = str(t.deals)
        if t.incomplete_deals:
            text += (f" ({t.incomplete_deals} without all {t.players} seat rotations, as an interrupted run "
                     f"leaves them: their seats are not balanced)")
        return text

    def seats(self) -> str:
        parts = [f'<p class="verdict">{self._seat_verdict(k)}</p>' for k in range(len(self.sets))]
        if self._same_seats():
            parts.append(f'<p class="verdict">{self._homogeneity_verdict()}</p>')
        fair = "; ".join(f"{self._tag(k)} {format_share(self.fair(t))}".strip() for k, t in enumerate(self.sets))
        parts.append(self._plot("plot-seats", f"Win share by seat, with 95% intervals (Wilson). The dashed line is "
                                              f"the fair share, the games with a winner divided among the seats "
                                              f"({fair}). Seat 0 moves first."))
        if self._same_seats():
            a, b = self.sets
            head = ["seat", "player", f"{self._tag(0)} win share [95%]", f"{self._tag(1)} win share [95%]",
                    "A minus B [95%]"]
            rows = []
            for s in range(a.players):
                rows.append([str(s), _e(" / ".join(dict.fromkeys(t.seats[s] for t in self.sets))),
                             self._seat_share(a, s), self._seat_share(b, s),
                             _difference(*share_difference(a.wins(s), a.games, b.wins(s), b.games))])
            parts.append(_table(head, rows, text_columns=2))
            parts.append(self._plot("plot-seat-difference", "Each seat's win share in A minus that in B, with 95% "
                                                            "intervals (Newcombe's hybrid score interval); an "
                                                            "interval that misses 0 is a difference beyond "
                                                            "chance."))
        for k, t in enumerate(self.sets):
            if self._same_seats():
                break
            head = ["seat", "player", "wins", "win share", "95% interval", "minus the fair share", "mean rank"]
            rows = [[str(s), _e(t.seats[s]), format_wins(t.wins(s)), _share(t.wins(s), t.games),
                     _interval(*wilson_interval(t.wins(s), t.games)),
                     f"{_points(float(t.wins(s)) / t.games - self.fair(t))} pp", _number(t.seat_ranks[s] / t.games)]
                    for s in range(t.players)]
            if self.pair:
                parts.append(f"<p>{self._named(k)}</p>")
            parts.append(_table(head, rows, text_columns=2))
        return self._section("seats", "Seat advantage", "\n".join(parts))

    @staticmethod
    def _seat_share(t: Tally, s: int) -> str:
        return f"{_share(t.wins(s), t.games)} {_interval(*wilson_interval(t.wins(s), t.games))}"

    def _seat_verdict(self, k: int) -> str:
        t = self.sets[k]
        lead = f"{self._tag(k)} " if self.pair else ""
        test = seat_equality([t.wins(s) for s in range(t.players)])
        if test is None:
            return f"{lead}No game has a winner, so the seats cannot be compared."
        fair = self.fair(t)
        above = [t.seats[s] for s in range(t.players) if wilson_interval(t.wins(s), t.games)[0] > fair]
        below = [t.seats[s] for s in range(t.players) if wilson_interval(t.wins(s), t.games)[1] < fair]
        best = max(range(t.players), key=lambda s: (t.seat_wins[s], -s))
        best_text = (f"Seat {best} ({_e(t.seats[best])}) wins most often: {_share(t.wins(best), t.games)} of the "
                     f"games {_interval(*wilson_interval(t.wins(best), t.games))}, against a fair share of "
                     f"{format_share(fair)}.")
        stat = _chi_square(test)
        if test.p_value < 0.05:
            verdict = f"The seats do not win equally often ({stat})."
        else:
            verdict = (f"No seat advantage shows in {t.games} games ({stat}): the differences are within chance, "
                       f"though one smaller than the intervals could still hide.")
        sides = []
        if above:
            sides.append(f"above the fair share beyond chance: {_e(', '.join(above))}")
        if below:
            sides.append(f"below it: {_e(', '.join(below))}")
        return f"{lead}{verdict} {best_text}" + (f" Seats {'; '.join(sides)}." if sides else "")

    def _homogeneity_verdict(self) -> str:
        a, b = self.sets
        test = homogeneity([a.wins(s) for s in range(a.players)], [b.wins(s) for s in range(b.players)])
        if test is None:
            return "The two sets' wins by seat cannot be compared: a set, or a seat in both, has no win."
        stat = _chi_square(test)
        if test.p_value < 0.05:
            return f"A and B spread their wins over the seats differently ({stat})."
        return f"A and B spread their wins over the seats alike, as far as these games tell ({stat})."

    def scores(self) -> str:
        names = dict.fromkeys(t.ruleset.score_name for t in self.sets)
        score = " / ".join(names)
        comparable = self._same_seats() and len(names) == 1
        head = ["seat", *(f"{self._tag(k)} mean {_e(t.ruleset.score_name)} [95%]".strip()
                          for k, t in enumerate(self.sets))]
        if comparable:
            head.append("A minus B [95%]")
        rows = []
        for s in range(max(t.players for t in self.sets)):
            row = [_e(" / ".join(dict.fromkeys(t.seats[s] for t in self.sets if s < t.players))) + f" (seat {s})"]
            row += [_mean(t.score_moments[s]) if s < t.players else "-" for t in self.sets]
            if comparable:
                row.append(_mean_difference(self.sets[0].score_moments[s], self.sets[1].score_moments[s]))
            rows.append(row)
        body = [self._plot("plot-scores", f"The final {_e(score)} of each seat: the share of the games ending with "
                                          f"each score" + (", A and B side by side." if self.pair else ".")),
                _table(head, rows), '<p class="small">Means with 95% normal intervals; differences of means with '
                                    "95% normal intervals (Welch's standard error).</p>"]
        return self._section("scores", "Scores", "\n".join(body))

    def lengths(self) -> str:
        head = ["", *(self._named(k) for k in range(len(self.sets)))]
        rows = [["mean moves [95%]", *(_mean(t.length_moments) for t in self.sets)],
                ["median", *(_number(_median(t), 1) for t in self.sets)],
                ["shortest", *(str(min(t.lengths)) for t in self.sets)],
                ["longest", *(str(max(t.lengths)) for t in self.sets)]]
        if self.pair:
            rows.append(["A minus B, mean [95%]", _mean_difference(self.sets[0].length_moments,
                                                                   self.sets[1].length_moments), ""])
        body = [self._plot("plot-lengths", "Game length in moves, every move of the record counted: the share of "
                                           "the games of each length, the means dashed."),
                _table(head, rows)]
        return self._section("lengths", "Game length", "\n".join(body))

    def places(self) -> str:
        if "plot-places" not in self.svgs:
            return ""
        parts = [self._plot("plot-places", "How often each place ends held, and by whom: the share of the games at "
                                           "whose end each seat held it, the rest by nobody.")]
        same = self.pair and self.sets[0].place_names() == self.sets[1].place_names()
        if same:
            a, b = self.sets
            head = ["place", f"{self._tag(0)} held [95%]", f"{self._tag(1)} held [95%]", "A minus B [95%]"]
            rows = [[_e(p), self._held(a, p), self._held(b, p),
                     _difference(*share_difference(a.held(p), a.games, b.held(p), b.games))]
                    for p in a.place_names()]
            parts.append(_table(head, rows))
        else:
            for k, t in enumerate(self.sets):
                head = ["place", "held [95%]", *(_e(seat) for seat in t.seats), "nobody"]
                rows = [[_e(p), self._held(t, p), *(_share(t.held_by(p, s), t.games) for s in range(t.players)),
                         _share(t.games - t.held(p), t.games)] for p in t.place_names()]
                if self.pair:
                    parts.append(f"<p>{self._named(k)}</p>")
                parts.append(_table(head, rows))
        parts.append('<p class="small">Which places a game has, and what holding one means, is the game\'s own '
                     "(its positions' holders); the report's documentation lists them for every game.</p>")
        return self._section("places", "Places held at the end", "\n".join(parts))

    @staticmethod
    def _held(t: Tally, place: str) -> str:
        return f"{_share(t.held(place), t.games)} {_interval(*wilson_interval(t.held(place), t.games))}"

    def reasons(self) -> str:
        reasons = figures.reason_labels(self.sets)
        head = ["how the game ended", *(f"{self._tag(k)} games [95%]".strip() for k in range(len(self.sets)))]
        if self.pair:
            head.append("A minus B [95%]")
        rows = []
        for reason in reasons:
            t0 = next(t for t in self.sets if reason in t.reasons)
            row = [_e(ended(t0.ruleset, reason))]
            row += [f"{t.reasons[reason]} ({_share(t.reasons[reason], t.games)}) "
                    f"{_interval(*wilson_interval(t.reasons[reason], t.games))}" for t in self.sets]
            if self.pair:
                a, b = self.sets
                row.append(_difference(*share_difference(a.reasons[reason], a.games, b.reasons[reason], b.games)))
            rows.append(row)
        body = [self._plot("plot-reasons", "How the games ended: the share of each way, with 95% intervals "
                                           "(Wilson)."), _table(head, rows)]
        return self._section("reasons", "How the games ended", "\n".join(body))

    def bots(self) -> str:
        if "plot-bots" not in self.svgs:
            return ""
        parts = [self._plot("plot-bots", "Each bot's win share over the games it played (a bot seated several times "
                                         "counts each seat), with 95% intervals (Wilson); the dashed line is "
                                         "1 / players.")]
        for k, t in enumerate(self.sets):
            if self.pair:
                parts.append(f"<p>{self._named(k)}</p>")
            parts.append(_bot_table(t))
        if self.pair:
            a, b = ({row.spec: row for row in t.bot_rows()} for t in self.sets)
            common = [spec for spec in figures.bot_specs(self.sets) if spec in a and spec in b]
            if common:
                rows = [[_e(spec), _difference(*share_difference(a[spec].wins, a[spec].games, b[spec].wins,
                                                                 b[spec].games))] for spec in common]
                parts.append(_table(["bot", "win share, A minus B [95%]"], rows))
        return self._section("bots", "Bots", "\n".join(parts))

    @staticmethod
    def _section(anchor: str, heading: str, body: str) -> str:
        return f'<section id="{anchor}">\n<h2>{heading}</h2>\n{body}\n</section>'

    def html(self) -> str:
        sets = " and ".join(f"{self._named(k)} ({t.games} games)" for k, t in enumerate(self.sets))
        lead = (f"{sets}, side by side; differences are A minus B." if self.pair else
                f"{sets}.")
        sections = [self.games(), self.seats(), self.scores(), self.lengths(), self.places(), self.reasons(),
                    self.bots()]
        body = "\n".join(s for s in sections if s)
        return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
                f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
                f"<title>{_e(self.title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n"
                f"<h1>{_e(self.title)}</h1>\n<p class=\"lead\">{lead}</p>\n{body}\n"
                f'<p class="small">Made by kanaloa report from game records (kanaloa-game/1). The intervals treat '
                f"the games as independent trials, which the seat rotations of one deal only roughly are.</p>\n"
                f"</main>\n</body>\n</html>\n")


def _median(t: Tally) -> float:
    return float(statistics.median(sorted(t.lengths.elements()))) if t.lengths else math.nan


def _bot_table(t: Tally) -> str:
    rows: list[BotStats] = t.bot_rows()
    head = ["bot", "games", "wins", "win share", "95% interval", f"mean {_e(t.ruleset.score_name)}", "mean rank",
            *(_e(seat) for seat in t.seats)]
    body = [[_e(row.spec if row.copies == 1 else f"{row.spec} (x{row.copies})"), str(row.games),
             format_wins(row.wins), format_share(row.win_share), _interval(*row.ci95), _number(row.mean_points),
             _number(row.mean_rank), *(format_share(s.win_share) for s in row.by_seat)] for row in rows]
    return _table(head, body)
