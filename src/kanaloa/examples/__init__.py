"""Example positions shipped with the package (``kanaloa-position/1`` JSON).

- ``midgame.json``: a four-player game in the middle of round 1, seen by red,
  the color to move (a viewer position: what red knows at the table).

Read one with ``example_text(name)`` and ``Position.from_json``.

The directory also holds ``tactics.json``, the tactical suite (not a
position: a ``kanaloa-tactics/1`` document of positions with their exact best
first moves), which ``kanaloa.tools.tactics.load_suite`` reads and
``kanaloa tactics`` runs.
"""

from __future__ import annotations

from importlib import resources

EXAMPLES = ("midgame",)


def example_text(name: str) -> str:
    """The JSON text of the example position ``name`` (see ``EXAMPLES``)."""
    if name not in EXAMPLES:
        raise KeyError(f"no example position {name!r}; the examples are {', '.join(EXAMPLES)}")
    return resources.files(__name__).joinpath(f"{name}.json").read_text("utf-8")
