"""kanaloa: a Monte Carlo search engine for the board game Kanaloa.

The package is built in layers; each uses only the ones listed before it
(``tests/test_layers.py`` checks every import):

- ``rules``: the board data, the game state, the move encoding, the compiled
  rules core (``kanaloa_core``) and the readable reference rules;
- ``position``: the Python API over a game (``Position``), its JSON format
  and the move notation;
- ``search``: game-agnostic tree searches over a small game protocol (it
  uses no other part of the package);
- ``play``: Kanaloa behind that protocol, the bots, hints and tournaments;
- ``tools``: benchmarks, the differential soak and the fuzzer;
- ``interfaces``: the ``kanaloa`` command and its terminal display.

``errors`` holds the one error family every layer raises.  Importing the
package itself loads none of them.
"""

__version__ = "0.1.0"
