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
package itself loads none of them: ``load_game`` imports the rules when it
is called.

    import kanaloa
    rules = kanaloa.load_game("kanaloa", players=2, gods=True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rules.ruleset import Ruleset

__version__ = "0.1.0"


def load_game(name: str, **params: Any) -> Ruleset:
    """The rule set of the registered game ``name`` with ``params``, every combination checked
    (``kanaloa.rules.registry.load_game``; ``kanaloa games`` lists the games and their parameters).

    Raises ``ParameterError`` naming the parameter at fault, and ``BoardError``
    for a board that cannot be read.
    """
    from .rules.registry import load_game as load

    return load(name, **params)


__all__ = ["__version__", "load_game"]
