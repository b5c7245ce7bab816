"""Playing the game: the search adapter, bots, hints and bot-vs-bot tournaments.

- ``game``: Kanaloa behind the search protocol (``kanaloa.search.protocol``),
  the one place where the searches meet the compiled rules core;
- ``bots``: players that choose a move, built from specs such as
  ``ismcts:iterations=1000``;
- ``seer``: a search state whose every determinisation is the true state, for the bot ``seer``, an upper
  bound for measurement that nothing advising a player may use;
- ``hint``: the best move for the player to move, from what that player knows;
- ``parallel``: root-parallel search on worker processes, their trees merged (for hints);
- ``tournament``: tournaments (the lineup, rotations, seeds) and the game runner;
- ``records``: game records, ``kanaloa-game/1`` (the format's reference), reading, writing and replaying
  them;
- ``pools``: where many tasks run: this process, worker processes, a Dask cluster;
- ``simulate``: running a tournament on a pool, its totals summed as games finish;
- ``totals``: those totals and a run's figures (the summary, ``simulate --json``);
- ``stats``: win shares, points and ranks of a tournament;
- ``streams``: every seed a run of many games derives from its seed (tournaments, soak, fuzz, tactics);
- ``progress``: the progress line of a long run;
- ``interrupt``: Ctrl-C, the same way in every command;
- ``limits``: the bounds of search budgets and worker counts, and the error naming the parameter.

This layer builds on ``kanaloa.rules``, ``kanaloa.position`` and
``kanaloa.search``; importing the package loads none of its modules.
"""
