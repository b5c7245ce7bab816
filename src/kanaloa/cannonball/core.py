"""Cannonball Colony's compiled core, reached from the package (R20).

``cannonball_core`` is a top-level extension module built from
``cannonball_core.pyx`` when the package is installed; the layers above the
rules reach it through this module.  ``CoreState`` is None where the core is
not built, and ``default_engine()`` is then the reference; ``CutModel`` (the
models of rollouts cut short, ``kanaloa.cannonball.cut``) is None there too.
"""

from __future__ import annotations

from typing import Any

from .reference import ReferenceState

CoreState: Any
CutModel: Any
observation_layout: Any  # the fields of a seat's observation (kanaloa.cannonball.tensor)
try:
    import cannonball_core
except ImportError:  # pragma: no cover - depends on how the checkout was installed
    CoreState = CutModel = observation_layout = None
else:
    CoreState = cannonball_core.CoreState
    CutModel = cannonball_core.CutModel
    observation_layout = cannonball_core.observation_layout


def default_engine() -> Any:
    """The engine class a caller plays on when it names none: the compiled core's ``CoreState`` where it is
    built, else ``ReferenceState``."""
    return ReferenceState if CoreState is None else CoreState
