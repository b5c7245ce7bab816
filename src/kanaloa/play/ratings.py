"""Ratings from the rankings of games: a Plackett-Luce fit on the Elo scale, with 95% intervals.

``kanaloa ladder`` rates its bots with ``fit_ratings``; nothing here knows
about games or bots beyond numbered players and the order they finished in.

**The model.**  Player ``i`` has a rating ``R_i``, and a strength
``g_i = 10 ** (R_i / 400)``.  A game's result is the order its players
finished in, best first.  Its chance under the Plackett-Luce model is that of
picking the best among all of them with chances in proportion to their
strengths, then the second best among the rest in the same way, and so on:
``P(o_1 > o_2 > ... > o_m) = prod over t < m of g_{o_t} / (g_{o_t} + ... +
g_{o_m})``.  With two players this is the Bradley-Terry model, and
``P(i beats j) = 1 / (1 + 10 ** ((R_j - R_i) / 400))`` is Elo's formula.
With more players, the chance that ``i`` finishes above ``j`` is still that
same expression (a property of the model), so a difference of ratings reads
the same at every player count: 100 points more is finishing above the other
64% of the time.

**Ties.**  A place that ``k`` players share counts as each of its ``k!``
orders, each with a weight of ``1 / k!``: two tied players are each half a
win above the other, as Elo counts a draw.  Weights are exact fractions, so
the data (and the fit) do not depend on the order in which games are added.

**The prior.**  A player that won (or lost) every game has no finite
maximum-likelihood rating.  Each player therefore also plays ``prior``
virtual drawn games (default 1) against a virtual player of rating 0: the
fit is the mode of the posterior, finite for any data.  With a hundred games
a player this moves a rating by a few points at most; it pulls ratings a
little towards each other, never past one another.

**The fit.**  Newton's method on the logarithms of the strengths, from all
ratings equal, each step shortened by halves until the log-posterior grows
(it is concave, so the fit is its one maximum).  It stops once no rating
moves by more than ``10**-9`` of a point.

**Intervals.**  The observed information: the negative Hessian of the log
posterior at the fit, inverted, gives the covariance of the log strengths;
a rating's standard error is that of its difference to the anchor, and its
95% interval the rating plus and minus 1.959964 standard errors.  It treats
the games as independent; rotated seats on duplicate deals make them, if
anything, less variable than that.

**The anchor.**  Only differences of ratings are measured.  The scale is
pinned by the mean of the ratings (0 by default: ``anchor=None``), or by one
player whose rating is 0 (its interval is then ``[0, 0]``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .stats import Z95

ELO_PER_NAT = 400 / math.log(10)  # rating points per unit of log strength
PRIOR = 1.0  # virtual drawn games each player plays against a virtual player of rating 0
TOLERANCE = 1e-9  # rating points: the fit stops once no rating moves more
MAX_STEPS = 200  # Newton steps; a fit that needs more does not converge (data without a maximum)

Order = tuple[int, ...]


@dataclass(frozen=True)
class Fit:
    """Ratings on the Elo scale, one per player, with their standard errors, as ``fit_ratings`` fits them."""

    ratings: tuple[float, ...]
    errors: tuple[float, ...]
    anchor: int | None
    steps: int

    def interval(self, player: int, z: float = Z95) -> tuple[float, float]:
        """The 95% interval of ``player``'s rating: the rating plus and minus ``z`` standard errors."""
        r, e = self.ratings[player], self.errors[player]
        return r - z * e, r + z * e


def tie_orders(places: Sequence[Sequence[int]]) -> list[tuple[Order, Fraction]]:
    """Every full order of the players that ``places`` (best first, each a group of players tied there) allows,
    with its weight: each of the ``k!`` orders of a place of ``k`` counts ``1 / k!``; the weights add up to 1."""
    orders: list[tuple[Order, Fraction]] = [((), Fraction(1))]
    for place in places:
        perms = list(itertools.permutations(place))
        share = Fraction(1, len(perms))
        orders = [(order + perm, weight * share) for order, weight in orders for perm in perms]
    return orders


class Rankings:
    """The orders games finished in, counted: each distinct order once, with the sum of its weights.

    What it keeps grows with the number of distinct orders, not of games
    (seven players in groups of four finish in at most 840 orders).
    """

    def __init__(self) -> None:
        self.weights: dict[Order, Fraction] = {}

    def add(self, places: Sequence[Sequence[int]]) -> None:
        """Count one game: its players by place, best first (``tie_orders``)."""
        for order, weight in tie_orders(places):
            self.weights[order] = self.weights.get(order, Fraction(0)) + weight

    def items(self) -> list[tuple[Order, float]]:
        """The orders and their weights, in a fixed order (sorted), whatever order the games came in."""
        return [(order, float(w)) for order, w in sorted(self.weights.items())]


def fit_ratings(players: int, rankings: Rankings | Mapping[Order, float] | Iterable[tuple[Order, float]],
                prior: float = PRIOR, anchor: int | None = None) -> Fit:
    """Fit the Plackett-Luce ratings of ``players`` players (numbered from 0) to ``rankings`` (see the module
    docstring): orders, best first, with their weights.

    ``prior`` is the virtual drawn games of each player (0: the plain
    maximum-likelihood fit, which exists only when no group of players
    always finished above the others; ``ValueError`` otherwise).  ``anchor``
    is the player rated 0, or None for ratings whose mean is 0.
    """
    if players < 2:
        raise ValueError(f"fit_ratings: need at least 2 players, got {players}")
    if anchor is not None and not 0 <= anchor < players:
        raise ValueError(f"fit_ratings: anchor {anchor} is not a player of 0..{players - 1}")
    if prior < 0 or not math.isfinite(prior):
        raise ValueError(f"fit_ratings: prior must be 0 or more, got {prior}")
    if isinstance(rankings, Rankings):
        data = rankings.items()
    elif isinstance(rankings, Mapping):
        data = [(tuple(o), float(w)) for o, w in rankings.items()]
    else:
        data = [(tuple(o), float(w)) for o, w in rankings]
    for order, weight in data:
        if len(set(order)) != len(order) or not all(0 <= p < players for p in order) or weight < 0:
            raise ValueError(f"fit_ratings: {order} (weight {weight}) is no order of distinct players of "
                             f"0..{players - 1} with a weight of 0 or more")
    # Without the prior the scale is free: player 0's log strength is held at 0 while fitting.
    free = list(range(players)) if prior > 0 else list(range(1, players))
    theta = [0.0] * players
    value, grad, hess = _derivatives(theta, data, prior, players)
    steps = 0
    while True:
        if steps >= MAX_STEPS:
            raise ValueError("fit_ratings: the fit does not converge: some players finished above the others in "
                             "every game, and without a prior their ratings have no maximum")
        steps += 1
        step = _solve([[-hess[i][j] for j in free] for i in free], [grad[i] for i in free])
        if step is None:
            raise ValueError("fit_ratings: the data do not tie the players together (a player, or a group, "
                             "met no other)")
        length = 1.0
        while True:
            trial = theta[:]
            for i, d in zip(free, step, strict=True):
                trial[i] += length * d
            t_value, t_grad, t_hess = _derivatives(trial, data, prior, players)
            if t_value >= value - 1e-12 * (1 + abs(value)) or length < 1e-6:
                break
            length /= 2
        moved = max((abs(length * d) for d in step), default=0.0) * ELO_PER_NAT
        theta, value, grad, hess = trial, t_value, t_grad, t_hess
        if moved < TOLERANCE:
            break
    covariance = _inverse([[-hess[i][j] for j in free] for i in free])
    if covariance is None:
        raise ValueError("fit_ratings: the data do not tie the players together (a player, or a group, met no other)")
    cov = [[0.0] * players for _ in range(players)]
    for a, i in enumerate(free):
        for b, j in enumerate(free):
            cov[i][j] = covariance[a][b]
    if anchor is None:
        shift = sum(theta) / players
        contrasts = [[(1.0 if j == i else 0.0) - 1.0 / players for j in range(players)] for i in range(players)]
    else:
        shift = theta[anchor]
        contrasts = [[(1.0 if j == i else 0.0) - (1.0 if j == anchor else 0.0) for j in range(players)]
                     for i in range(players)]
    ratings = tuple(ELO_PER_NAT * (t - shift) for t in theta)
    errors = []
    for c in contrasts:
        var = sum(c[i] * cov[i][j] * c[j] for i in range(players) for j in range(players) if c[i] and c[j])
        errors.append(ELO_PER_NAT * math.sqrt(max(var, 0.0)))
    if anchor is not None:
        ratings = tuple(0.0 if i == anchor else r for i, r in enumerate(ratings))
        errors[anchor] = 0.0
    return Fit(ratings, tuple(errors), anchor, steps)


def _derivatives(theta: Sequence[float], data: Sequence[tuple[Order, float]], prior: float,
                 players: int) -> tuple[float, list[float], list[list[float]]]:
    """The log posterior at ``theta`` (log strengths), its gradient and its Hessian."""
    value = 0.0
    grad = [0.0] * players
    hess = [[0.0] * players for _ in range(players)]
    for order, weight in data:
        if not weight or len(order) < 2:
            continue
        top = max(theta[p] for p in order)
        strengths = [math.exp(theta[p] - top) for p in order]
        for t in range(len(order) - 1):
            rest = order[t:]
            gs = strengths[t:]
            total = sum(gs)
            value += weight * (theta[order[t]] - top - math.log(total))
            grad[order[t]] += weight
            shares = [g / total for g in gs]
            for a, p in enumerate(rest):
                grad[p] -= weight * shares[a]
                hess[p][p] -= weight * shares[a]
                for b, q in enumerate(rest):
                    hess[p][q] += weight * shares[a] * shares[b]
    if prior > 0:
        for i in range(players):
            x = theta[i]
            softplus = x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))  # log(1 + e^x)
            share = 1.0 / (1.0 + math.exp(-x))
            value += prior * (x / 2 - softplus)
            grad[i] += prior * (0.5 - share)
            hess[i][i] -= prior * share * (1.0 - share)
    return value, grad, hess


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float] | None:
    """``x`` with ``matrix x = vector`` (Gaussian elimination with partial pivoting); None when singular."""
    n = len(vector)
    rows = [[*row, vector[i]] for i, row in enumerate(matrix)]
    scale = max((abs(x) for row in matrix for x in row), default=0.0) or 1.0
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(rows[r][c]))
        if abs(rows[pivot][c]) <= 1e-12 * scale:
            return None
        rows[c], rows[pivot] = rows[pivot], rows[c]
        for r in range(c + 1, n):
            f = rows[r][c] / rows[c][c]
            if f:
                for j in range(c, n + 1):
                    rows[r][j] -= f * rows[c][j]
    x = [0.0] * n
    for c in range(n - 1, -1, -1):
        x[c] = (rows[c][n] - sum(rows[c][j] * x[j] for j in range(c + 1, n))) / rows[c][c]
    return x


def _inverse(matrix: list[list[float]]) -> list[list[float]] | None:
    """The inverse of ``matrix``, column by column; None when singular."""
    n = len(matrix)
    columns = []
    for j in range(n):
        col = _solve(matrix, [1.0 if i == j else 0.0 for i in range(n)])
        if col is None:
            return None
        columns.append(col)
    return [[columns[j][i] for j in range(n)] for i in range(n)]
