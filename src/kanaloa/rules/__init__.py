"""The rules of Kanaloa and their data model: the lowest layer of the package.

- ``board``: boards as data (islands, links, card supply; R1) and the tables
  derived from them;
- ``state``: ``StateData``, the plain picture of a complete game state;
- ``actions``: moves as small integers, the one move encoding;
- ``rng``: SplitMix64, the seeded stream behind every chance event;
- ``reference``: the readable plain-Python rules, the oracle, with ``kahuna``
  (Kahuna, R16) and ``gods`` (the variant Might of the Gods, R14);
- ``core``: the compiled rules core (``kanaloa_core``), reached from the package;
- ``engine``: both rules engines behind one typed object, ``load_engine``.

These modules import only each other, ``kanaloa.errors`` and the standard
library (``core`` also the compiled ``kanaloa_core``, which in turn imports
``board``, ``state`` and ``actions``).  Importing this package loads none of
them, and only ``core`` (or ``load_engine("core")``) loads the compiled core.
"""
