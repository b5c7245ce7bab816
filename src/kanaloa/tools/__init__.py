"""Measurement and verification tools: ``benchmark`` (``kanaloa bench``), ``soak`` and ``fuzz``.

They may use every layer below the command line (``kanaloa.rules``,
``kanaloa.position``, ``kanaloa.search``, ``kanaloa.play``).  Importing the
package loads none of its modules.
"""
