"""What people use: the ``kanaloa`` command (``cli``) and its terminal picture of a position (``display``).

The top layer: it may use every layer below it, including ``kanaloa.tools``
for ``kanaloa bench``, ``soak`` and ``fuzz``.  Importing the package loads
none of its modules.
"""
