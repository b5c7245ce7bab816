"""Every registered game as a PettingZoo environment, and many games stepped together in C.

The optional extra ``kanaloa[pettingzoo]`` (PettingZoo, Gymnasium, NumPy).
For each game of ``kanaloa.rules.registry`` this package has a module named
after it, ``<name>_v0``: ``kanaloa_v0``, ``kahuna_v0``, ``cannonball_v0``,
and so for any game registered, each with PettingZoo's three makers::

    from kanaloa.pettingzoo import kanaloa_v0
    env = kanaloa_v0.env(players=3, gods=True, render_mode="ansi")
    env.reset(seed=7)

* ``env(**params)``: the AEC environment (``GameEnv``), the game's registry
  parameters (``kanaloa games``) and ``render_mode``, ``max_cycles``,
  ``illegal_reward``;
* ``raw_env(**params)``: the same (it has no wrapper);
* ``parallel_env(**params)``: the parallel environment (``GameParallelEnv``).

``make_env(game, **params)`` is ``env`` for a game named at run time.
``GameBatch(game, n, seed, **params)`` holds ``n`` games in the game's
compiled core and steps them all with one call on an array of actions
(``kanaloa.pettingzoo.batch``).  docs/pettingzoo.md has the whole contract:
the observation field by field, the actions, the rewards, the batched API
and what it measures.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from ..rules.registry import game_types
from .batch import GameBatch
from .env import GameEnv, GameParallelEnv

__all__ = ["GameBatch", "GameEnv", "GameParallelEnv", "env_modules", "make_env", "make_parallel_env"]

VERSION = "v0"  # the environments' version, in their modules' names


def make_env(game: str, **params: Any) -> GameEnv:
    """The AEC environment of the registered game ``game`` (``GameEnv``)."""
    return GameEnv(game, **params)


def make_parallel_env(game: str, **params: Any) -> GameParallelEnv:
    """The parallel environment of the registered game ``game`` (``GameParallelEnv``)."""
    return GameParallelEnv(game, **params)


def _module_for(game: str, title: str) -> types.ModuleType:
    name = f"{game}_{VERSION}"
    module = types.ModuleType(f"{__name__}.{name}", f"{title} as a PettingZoo environment (kanaloa.pettingzoo).")

    def env(**params: Any) -> GameEnv:
        return GameEnv(game, **params)

    def parallel_env(**params: Any) -> GameParallelEnv:
        return GameParallelEnv(game, **params)

    env.__doc__ = f"The AEC environment of {title}: its parameters, render_mode, max_cycles, illegal_reward."
    parallel_env.__doc__ = f"The parallel environment of {title}, with the parameters of env()."
    module.env = env  # type: ignore[attr-defined]
    module.raw_env = env  # type: ignore[attr-defined]
    module.parallel_env = parallel_env  # type: ignore[attr-defined]
    return module


def env_modules() -> dict[str, types.ModuleType]:
    """The environment module of every registered game, by its name (``kanaloa_v0``...), in registration order."""
    return {m.__name__.rpartition(".")[2]: m for m in _MODULES}


_MODULES = [_module_for(g.name, g.title) for g in game_types()]
for _m in _MODULES:  # ``from kanaloa.pettingzoo import kanaloa_v0`` and ``import kanaloa.pettingzoo.kanaloa_v0``
    sys.modules[_m.__name__] = _m
    globals()[_m.__name__.rpartition(".")[2]] = _m
