"""Tournament statistics on hand-made results: Wilson intervals, win shares, points, ranks, seats.

R12 (and R8) name exactly one winner per game, so every hand-made game below
has exactly one ``won`` seat and ranks 1..players.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kanaloa.play.stats import (
    Z95,
    Moments,
    SeatOutcome,
    bot_table,
    chi_square_sf,
    format_share,
    format_table,
    homogeneity,
    mean_difference,
    seat_equality,
    share_difference,
    wilson_interval,
)

# -- Wilson score interval ------------------------------------------------------------


def test_z_is_the_two_sided_95_percent_normal_quantile():
    # Phi(z) = 0.975  <=>  erf(z / sqrt 2) = 0.95
    assert math.erf(Z95 / math.sqrt(2)) == pytest.approx(0.95, abs=1e-6)


# Expected ends from the other closed form, (2np + z^2 -/+ z sqrt(z^2 + 4np(1-p))) / (2(n + z^2)).
@pytest.mark.parametrize(
    "wins, trials, low, high",
    [
        (5, 10, 0.236593, 0.763407),  # the textbook 5 of 10
        (0, 10, 0.0, 0.277533),  # no win: the upper end is z^2 / (n + z^2)
        (10, 10, 0.722467, 1.0),
        (62, 100, 0.522098, 0.709024),
        (1, 4, 0.045587, 0.699358),
        (250, 1000, 0.224153, 0.277760),
    ],
)
def test_wilson_interval_known_values(wins, trials, low, high):
    lo, hi = wilson_interval(wins, trials)
    assert lo == pytest.approx(low, abs=1e-6)
    assert hi == pytest.approx(high, abs=1e-6)


def test_wilson_interval_of_no_games_is_everything():
    assert wilson_interval(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("wins, trials", [(-1, 10), (11, 10), (0, -1)])
def test_wilson_interval_rejects_impossible_counts(wins, trials):
    with pytest.raises(ValueError, match="wins"):
        wilson_interval(wins, trials)


@given(st.integers(1, 5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_interval_holds_the_share_and_mirrors_losses(case):
    wins, trials = case
    lo, hi = wilson_interval(wins, trials)
    assert 0.0 <= lo <= wins / trials <= hi <= 1.0
    # Counting losses instead of wins mirrors the interval around 1/2.
    mlo, mhi = wilson_interval(trials - wins, trials)
    assert lo == pytest.approx(1 - mhi, abs=1e-12)
    assert hi == pytest.approx(1 - mlo, abs=1e-12)


def test_wilson_interval_narrows_with_more_games():
    widths = [hi - lo for lo, hi in (wilson_interval(n // 4, n) for n in (8, 80, 800, 8000))]
    assert widths == sorted(widths, reverse=True)


# -- the per-bot table ---------------------------------------------------------------------


def game(*seats: tuple[str, int, int]) -> list[SeatOutcome]:
    """One game from (spec, points, rank) per seat; rank 1 is the single winner (R12)."""
    assert sorted(rank for _, _, rank in seats) == list(range(1, len(seats) + 1))
    return [SeatOutcome(spec, seat, points, rank, rank == 1) for seat, (spec, points, rank) in enumerate(seats)]


# Three games of a three-seat lineup A, B, B with rotated seats.
HAND_MADE = [
    *game(("A", 30, 1), ("B", 20, 2), ("B", 10, 3)),
    *game(("B", 25, 1), ("A", 24, 2), ("B", 5, 3)),
    *game(("B", 12, 3), ("B", 14, 2), ("A", 40, 1)),
]


def test_table_has_one_row_per_distinct_spec_in_lineup_order():
    rows = bot_table(["A", "B", "B"], 3, HAND_MADE)
    assert [(r.spec, r.copies) for r in rows] == [("A", 1), ("B", 2)]


def test_single_bot_row_on_known_results():
    a = bot_table(["A", "B", "B"], 3, HAND_MADE)[0]
    assert (a.games, a.wins) == (3, 2)
    assert a.win_share == pytest.approx(2 / 3)
    assert a.ci95 == pytest.approx(wilson_interval(2, 3))
    assert a.ci95 == pytest.approx((0.207660, 0.938508), abs=1e-6)
    assert a.mean_points == pytest.approx((30 + 24 + 40) / 3)
    assert a.mean_rank == pytest.approx((1 + 2 + 1) / 3)
    # A sat once in each seat and won from seats 0 and 2.
    assert [(s.seat, s.games, s.wins) for s in a.by_seat] == [(0, 1, 1), (1, 1, 0), (2, 1, 1)]
    assert [s.win_share for s in a.by_seat] == [1.0, 0.0, 1.0]


def test_repeated_spec_counts_player_games():
    b = bot_table(["A", "B", "B"], 3, HAND_MADE)[1]
    # Two B seats per game: 6 player-games, of which B won one.
    assert (b.games, b.wins, b.copies) == (6, 1, 2)
    assert b.win_share == pytest.approx(1 / 6)
    assert b.ci95 == pytest.approx(wilson_interval(1, 6))
    assert b.mean_points == pytest.approx((20 + 10 + 25 + 5 + 12 + 14) / 6)
    assert b.mean_rank == pytest.approx((2 + 3 + 1 + 3 + 3 + 2) / 6)
    assert [(s.games, s.wins) for s in b.by_seat] == [(2, 1), (2, 0), (2, 0)]


def test_one_winner_per_game_makes_the_shares_add_up():
    rows = bot_table(["A", "B", "B"], 3, HAND_MADE)
    assert sum(r.wins for r in rows) == 3  # R12: one winner in each of the three games
    assert sum(r.win_share * r.games for r in rows) == pytest.approx(3)


def test_table_does_not_depend_on_the_order_of_results():
    assert bot_table(["A", "B", "B"], 3, HAND_MADE) == bot_table(["A", "B", "B"], 3, HAND_MADE[::-1])


def test_a_seat_never_taken_has_no_share():
    rows = bot_table(["A", "B", "C", "D"], 4, game(("A", 9, 1), ("B", 8, 2), ("C", 7, 3), ("D", 6, 4)))
    assert rows[0].by_seat[0].win_share == 1.0
    assert rows[0].by_seat[1].win_share is None
    assert format_share(rows[0].by_seat[1].win_share) == "-"


def test_no_games_at_all_gives_empty_rows():
    rows = bot_table(["A", "B", "C"], 3, [])
    assert [(r.games, r.wins, r.win_share, r.mean_points, r.ci95) for r in rows] == [(0, 0, 0.0, 0.0, (0.0, 1.0))] * 3


def test_results_of_a_bot_outside_the_lineup_are_refused():
    with pytest.raises(ValueError, match="'Z' is not in the lineup"):
        bot_table(["A", "B", "C"], 3, [SeatOutcome("Z", 0, 1, 1, True)])


def test_json_row_has_the_documented_keys():
    a = bot_table(["A", "B", "B"], 3, HAND_MADE)[0].to_json(["red", "green", "blue"])
    assert {"spec", "games", "wins", "win_share", "ci95", "mean_points", "mean_rank"} <= set(a)
    assert a["ci95"] == pytest.approx(list(wilson_interval(2, 3)))
    assert a["by_seat"][2] == {"seat": 2, "color": "blue", "games": 1, "wins": 1, "win_share": 1.0}


def test_table_for_people_shows_shares_intervals_and_seats():
    text = format_table(bot_table(["A", "B", "B"], 3, HAND_MADE), ["red", "green", "blue"])
    header, a, b = text.splitlines()
    assert header.split()[:4] == ["bot", "games", "wins", "win"]
    assert header.split()[-3:] == ["red", "green", "blue"]
    assert a.split() == ["A", "3", "2", "66.7%", "20.8%-93.9%", "31.33", "1.33", "100.0%", "0.0%", "100.0%"]
    assert b.split()[:3] == ["B", "(x2)", "6"]


# -- comparing shares and means (the balance report) ------------------------------------------


# Newcombe (1998), table II, method 10: the hybrid score interval of p1 - p2.
@pytest.mark.parametrize(
    "a, n, b, m, low, high",
    [
        (56, 70, 48, 80, 0.0524, 0.3339),
        (9, 10, 3, 10, 0.1705, 0.8090),
        (6, 7, 2, 7, 0.0582, 0.8062),
        (5, 56, 0, 29, -0.0381, 0.1926),
        (0, 10, 0, 20, -0.1611, 0.2775),
        (10, 10, 0, 20, 0.6791, 1.0),
    ],
)
def test_share_difference_is_newcombes_hybrid_score_interval(a, n, b, m, low, high):
    d, lo, hi = share_difference(a, n, b, m)
    assert d == pytest.approx(a / n - b / m)
    assert (lo, hi) == (pytest.approx(low, abs=1e-4), pytest.approx(high, abs=1e-4))


def test_share_difference_without_trials_on_a_side_is_the_whole_range():
    assert share_difference(3, 10, 0, 0) == (0.0, -1.0, 1.0)


def test_moments_give_the_mean_the_sample_variance_and_the_normal_interval():
    m = Moments()
    for value in (2, 4, 4, 4, 5, 5, 7, 9):
        m.add(value)
    assert (m.count, m.total, m.squares) == (8, 40, 232)
    assert m.mean == 5.0
    assert m.variance == pytest.approx(32 / 7)
    low, high = m.interval()
    assert (low, high) == (pytest.approx(5 - Z95 * math.sqrt(32 / 7 / 8)), pytest.approx(5 + Z95 * math.sqrt(4 / 7)))
    assert Moments().interval() == (-math.inf, math.inf)
    one = Moments()
    one.add(3)
    assert one.variance == 0.0 and one.interval() == (3.0, 3.0)


def test_mean_difference_uses_welchs_standard_error():
    a, b = Moments(), Moments()
    for value in (10, 12, 14):
        a.add(value)
    for value in (7, 8, 9, 10):
        b.add(value)
    d, low, high = mean_difference(a, b)
    half = Z95 * math.sqrt(4 / 3 + (5 / 3) / 4)
    assert (d, low, high) == (pytest.approx(3.5), pytest.approx(3.5 - half), pytest.approx(3.5 + half))
    assert mean_difference(a, Moments()) == (0.0, -math.inf, math.inf)


# The 5% and 1% points of the chi-square distribution (any table), and exact small cases.
@pytest.mark.parametrize(
    "x, df, p",
    [(3.841459, 1, 0.05), (5.991465, 2, 0.05), (7.814728, 3, 0.05), (9.487729, 4, 0.05), (11.070498, 5, 0.05),
     (6.634897, 1, 0.01), (9.210340, 2, 0.01), (11.344867, 3, 0.01), (2.0, 2, math.exp(-1)), (0.0, 3, 1.0)],
)
def test_chi_square_sf_known_values(x, df, p):
    assert chi_square_sf(x, df) == pytest.approx(p, abs=1e-6)


def test_chi_square_sf_needs_a_degree_of_freedom():
    with pytest.raises(ValueError, match="df must be 1 or more"):
        chi_square_sf(1.0, 0)


def test_seat_equality_on_hand_made_wins():
    # 100 wins over 4 seats, 25 expected each: (15^2 + 5^2 + 5^2 + 15^2) / 25 = 20
    test = seat_equality([40, 30, 20, 10])
    assert (test.statistic, test.df) == (pytest.approx(20.0), 3)
    assert test.p_value == pytest.approx(chi_square_sf(20.0, 3)) and test.p_value < 0.001
    even = seat_equality([25, 25, 25, 25])
    assert (even.statistic, even.p_value) == (0.0, 1.0)
    shared = seat_equality([Fraction(1, 2), Fraction(1, 2), 1])  # a shared victory counts its shares
    assert shared.statistic == pytest.approx(((0.5 - 2 / 3) ** 2 * 2 + (1 / 3) ** 2) / (2 / 3))
    assert seat_equality([0, 0]) is None and seat_equality([5]) is None


def test_homogeneity_of_two_sets_wins_by_seat():
    # the 2 x 2 table [[30, 20], [20, 30]]: every expected count 25, X^2 = 4 * 25 / 25 = 4
    test = homogeneity([30, 20], [20, 30])
    assert (test.statistic, test.df) == (pytest.approx(4.0), 1)
    assert test.p_value == pytest.approx(0.0455, abs=1e-4)
    assert homogeneity([30, 20], [60, 40]).statistic == pytest.approx(0.0)
    assert homogeneity([30, 20, 10], [20, 30]) is None  # not the same seats
    assert homogeneity([30, 0], [20, 0]) is None  # a seat without a win in either
