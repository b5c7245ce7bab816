"""Playing the game: the search adapter, bots, hints and bot-vs-bot tournaments.

- ``game``: Kanaloa behind the search protocol (``kanaloa.search.protocol``),
  the one place where the searches meet the compiled rules core;
- ``bots``: players that choose a move, built from specs such as
  ``ismcts:iterations=1000``;
- ``hint``: the best move for the player to move, from what that player knows;
- ``parallel``: root-parallel search on worker processes, their trees merged (for hints);
- ``simulate``: tournaments (schedule, game runner, worker processes, Dask,
  game records);
- ``stats``: win shares, points and ranks of a tournament.

This layer builds on ``kanaloa.rules``, ``kanaloa.position`` and
``kanaloa.search``; importing the package loads none of its modules.
"""
