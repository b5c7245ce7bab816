"""kanaloa: a Monte Carlo search engine for the board game Kanaloa.

The rules run in the compiled core ``kanaloa_core`` (reached through
``kanaloa.core``); the package holds the board data, the plain data model of a
game state, the move encoding and the layers built on them.  Importing the
package itself loads none of them.
"""

__version__ = "0.1.0"
