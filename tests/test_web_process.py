"""A real ``kanaloa serve`` killed and loaded (``web_process``): nothing acknowledged is ever lost, and many
games at once are all answered.

- The server is killed with SIGKILL at random moments while games of the
  Play mode (bots and a person) and tables (a whole real game told) are
  followed over HTTP, and started again on the same database each time:
  every move that was answered before a kill is there after it, in order,
  and the game goes on from there.
- Several games at once (bots, a person's moves, hints, tables) over HTTP
  on 127.0.0.1: every request is answered, none with a 5xx, and the server's
  memory stays flat from round to round.
"""

from __future__ import annotations

from web_process import kill_run, load_run


def test_killed_at_random_moments_nothing_acknowledged_is_lost(tmp_path):
    report = kill_run(tmp_path / "games.sqlite3", kills=12, seed=32)
    assert report.kills == 12
    assert report.lost == 0
    assert report.acknowledged > 200  # the kills fell in the middle of real games
    assert report.finished >= 1 and report.games >= 2  # a game played to its end across kills, and a new one begun


def test_several_games_at_once_are_all_answered_with_memory_flat(tmp_path):
    report = load_run(tmp_path / "games.sqlite3", games=6, rounds=4, seed=33, moves=30, hint=100)
    assert report.errors == []
    assert set(report.statuses) <= {200, 201}, report.statuses
    assert report.requests == sum(report.statuses.values()) > 300
    # after the first round (imports, caches), memory grows by less than a tenth over the rounds that follow
    first, last = report.rss_kib[1], report.rss_kib[-1]
    assert last < first * 1.1, report.rss_kib
