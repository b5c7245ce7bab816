"""Measurement and verification tools: ``benchmark`` (``kanaloa bench``), ``soak``, ``fuzz`` and ``tactics``.

They may use every layer below the command line (``kanaloa.rules``,
``kanaloa.position``, ``kanaloa.search``, ``kanaloa.play``) but not the
command itself: the command runs them, and the fuzzer is handed the command
it tries by its caller.  Importing the package loads none of its modules.
"""
