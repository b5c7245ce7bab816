"""The PettingZoo environments of every registered game: ``GameEnv`` (AEC) and ``GameParallelEnv``.

An environment plays one game of a rule set at a time (``load_game(game,
**params)``), on the game's compiled core, and asks the game's ``tensor``
face for everything game-specific: the action space, the observation and
the returns.  Nothing here knows a game.

* **Agents** are ``player_0`` ... ``player_{n-1}``, the seats in order
  (``infos`` name each seat's player: ``seat_name``).  The agent selected is
  the seat to move; a turn of several actions (Kanaloa's places before a
  draw) is several steps of the same agent.
* **Observations** are dicts: ``observation``, a float32 array of exactly
  what the agent knows (``tensor.fields``, docs/pettingzoo.md), and
  ``action_mask``, int8, 1 at the agent's legal actions (all 0 for an agent
  not to move).
* **Actions** are ``Discrete(n_actions)``: the game's action codes numbered
  densely.  An illegal action is refused: nothing is played, the agent's
  reward for the step is ``illegal_reward`` (-1 by default), its info holds
  ``illegal_action``, and it is asked again.
* **Rewards** come at the end (R12; R20.10): 1 to the winner, 0 to the
  others, ``1/k`` each where ``k`` seats share the victory.
* **Chance** is inside: ``reset(seed=s)`` deals the game ``kanaloa new
  --seed s`` deals (the core keeps the deck and its stream); ``reset()``
  without a seed deals the next seed after the last game's, and the first
  game of an environment never seeded is seed 0.
* ``max_cycles`` (None: no limit) truncates a game after that many steps,
  played or refused.
* ``render_mode``: ``"ansi"`` returns the terminal picture (the game's
  ``display`` face), ``"svg"`` the SVG picture (its ``svg`` face).

``GameParallelEnv`` is the same game through PettingZoo's parallel API: each
step takes an action from every live agent and plays the one of the agent to
move; the others' actions are not read (their masks are all 0).  One
parallel step is one step of the game, so ``max_cycles`` counts the same.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from ..errors import KanaloaError
from ..rules.registry import game_type
from ..rules.rng import MASK64

__all__ = ["RENDER_MODES", "GameEnv", "GameParallelEnv", "agent_name"]

RENDER_MODES = ("ansi", "svg")
ILLEGAL_REWARD = -1.0


def agent_name(seat: int) -> str:
    """The agent of seat ``seat``: ``player_0``."""
    return f"player_{seat}"


def _check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) <= MASK64:
        raise ValueError(f"seed: must be an integer from 0 to 2**64-1, not {seed!r}")
    return int(seed)


class _Game:
    """What both APIs share: the rule set, its faces, the game being played and the arrays it writes."""

    def __init__(self, game: str, render_mode: str | None, max_cycles: int | None, illegal_reward: float,
                 params: dict[str, Any]) -> None:
        g = game_type(game)  # ParameterError (a ValueError) naming the game for an unknown name
        try:
            self.ruleset = g.load(**params)
        except KanaloaError as exc:
            raise ValueError(f"{g.name}: {exc}") from None
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode: {render_mode!r} is not one of {', '.join(RENDER_MODES)} (or None)")
        if max_cycles is not None and (isinstance(max_cycles, bool) or not isinstance(max_cycles, int)
                                       or max_cycles < 1):
            raise ValueError(f"max_cycles: must be a positive integer or None, not {max_cycles!r}")
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float)) \
                or not np.isfinite(illegal_reward):
            raise ValueError(f"illegal_reward: must be a finite number, not {illegal_reward!r}")
        self.game_type = g
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.illegal_reward = float(illegal_reward)
        self.tensor = g.face("tensor")(self.ruleset)
        self.players = self.ruleset.players
        self.agents_all = [agent_name(s) for s in range(self.players)]
        self.seat_of = {a: s for s, a in enumerate(self.agents_all)}
        n, size = self.tensor.n_actions, self.tensor.observation_size
        high = np.concatenate([np.full(f.size, f.high, np.float32) for f in self.tensor.fields])
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low=0.0, high=high, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8)}) for a in self.agents_all}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.agents_all}
        self.mask = np.zeros(n, np.int8)  # the mover's, kept up to date
        self.next_seed = 0
        self.position: Any = None
        self.steps = 0

    def deal(self, seed: int | None) -> None:
        seed = self.next_seed if seed is None else _check_seed(seed)
        self.next_seed = (seed + 1) & MASK64
        self.seed = seed
        self.position = self.game_type.face("position").deal(self.ruleset, seed, "core")
        self.state = self.position.state
        self.steps = 0
        self.tensor.legal_mask(self.state, self.mask)

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        obs = np.empty(self.tensor.observation_size, np.float32)
        self.tensor.observe(self.state, seat, obs)
        mask = self.mask.copy() if seat == self.state.to_move and not self.state.is_over else \
            np.zeros(self.tensor.n_actions, np.int8)
        return {"observation": obs, "action_mask": mask}

    def play(self, action: Any) -> bool:
        """Play the mover's ``action`` if it is legal (True), else nothing (False); ValueError for a value that
        is no action at all."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"action: must be an integer from 0 to {self.tensor.n_actions - 1}, not {action!r}")
        a = int(action)
        if not 0 <= a < self.tensor.n_actions:
            raise ValueError(f"action: must be from 0 to {self.tensor.n_actions - 1}, not {a}")
        self.steps += 1
        if not self.mask[a]:
            return False
        self.state.apply(self.tensor.code_of(a))
        self.tensor.legal_mask(self.state, self.mask)
        return True

    @property
    def truncated(self) -> bool:
        return self.max_cycles is not None and self.steps >= self.max_cycles and not self.state.is_over

    def returns(self) -> list[float]:
        result: list[float] = self.tensor.returns(self.state)
        return result

    def render(self) -> str | None:
        if self.render_mode is None or self.position is None:
            return None
        if self.render_mode == "ansi":
            text: str = self.game_type.face("display")(self.position, use_color=False)
            return text
        svg: str = self.game_type.face("svg")(self.position)
        return svg

    def metadata(self) -> dict[str, Any]:
        """PettingZoo's metadata of the environment: its render modes and its name (``kanaloa_v0``)."""
        return {"render_modes": list(RENDER_MODES), "name": f"{self.game_type.name}_v0", "is_parallelizable": False}

    def infos(self) -> dict[str, dict[str, Any]]:
        names = self.ruleset.seat_names
        return {a: {"seat_name": names[s]} for s, a in enumerate(self.agents_all)}


class _Holder:
    """What both environments keep of their game: the ``_Game``, the metadata, the render mode, the agents."""

    def _hold(self, game: str, render_mode: str | None, max_cycles: int | None, illegal_reward: float,
              params: dict[str, Any]) -> None:
        self._game = _Game(game, render_mode, max_cycles, illegal_reward, params)
        self.metadata = self._game.metadata()
        self.render_mode = render_mode
        self.possible_agents = list(self._game.agents_all)
        self.agents: list[str] = []

    @property
    def ruleset(self) -> Any:
        """The rule set played."""
        return self._game.ruleset


class GameEnv(_Holder, AECEnv):
    """A registered game as a PettingZoo AEC environment (module docstring).

    ``GameEnv("kanaloa", players=3, gods=True)``: the game's name and its registry parameters (``kanaloa
    games``), then ``render_mode``, ``max_cycles`` and ``illegal_reward``.  A bad parameter is a ValueError
    naming it.
    """

    def __init__(self, game: str, render_mode: str | None = None, max_cycles: int | None = None,
                 illegal_reward: float = ILLEGAL_REWARD, **params: Any) -> None:
        super().__init__()
        self._hold(game, render_mode, max_cycles, illegal_reward, params)

    @property
    def tensor(self) -> Any:
        """The game's ``tensor`` face for the rule set: the fields, the action codes."""
        return self._game.tensor

    @property
    def position(self) -> Any:
        """The game as a position (the game's ``position`` face): what ``render`` draws."""
        return self._game.position

    def observation_space(self, agent: str) -> spaces.Space:
        return self._game.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._game.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: from ``seed``, or the seed after the last game's (module docstring); ``options``
        are not read."""
        game = self._game
        game.deal(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = game.infos()
        self.agent_selection = self.possible_agents[game.state.to_move]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self._game.observe(self._game.seat_of[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        played = game.play(action)
        self.infos = game.infos()
        if not played:
            self.rewards[agent] = game.illegal_reward
            self.infos[agent]["illegal_action"] = int(action)
        if game.state.is_over:
            for a, r in zip(self.agents, game.returns(), strict=True):
                self.rewards[a] += r
                self.terminations[a] = True
        elif game.truncated:
            for a in self.agents:
                self.truncations[a] = True
        else:
            self.agent_selection = self.possible_agents[game.state.to_move]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The game as ``render_mode`` draws it (None without one)."""
        return self._game.render()

    def close(self) -> None:
        """Nothing to let go of: the game lives in this process."""


class GameParallelEnv(_Holder, ParallelEnv):
    """A registered game through PettingZoo's parallel API (module docstring); the same parameters as
    ``GameEnv``."""

    def __init__(self, game: str, render_mode: str | None = None, max_cycles: int | None = None,
                 illegal_reward: float = ILLEGAL_REWARD, **params: Any) -> None:
        self._hold(game, render_mode, max_cycles, illegal_reward, params)

    def observation_space(self, agent: str) -> spaces.Space:
        return self._game.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._game.action_spaces[agent]

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {a: self._game.observe(self._game.seat_of[a]) for a in self.agents}

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self._game.deal(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), self._game.infos()

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool],
                                                       dict[str, bool], dict[str, dict[str, Any]]]:
        """Play the action of the agent to move (``actions`` must hold one for it); the others' are not read."""
        game = self._game
        if not self.agents:
            raise ValueError("step: the game is over; reset it")
        mover = self.possible_agents[game.state.to_move]
        if mover not in actions:
            raise ValueError(f"actions: no action for {mover}, the agent to move")
        rewards = dict.fromkeys(self.agents, 0.0)
        infos = game.infos()
        if not game.play(actions[mover]):
            rewards[mover] = game.illegal_reward
            infos[mover]["illegal_action"] = int(actions[mover])
        over, cut = game.state.is_over, game.truncated
        if over:
            for a, r in zip(self.agents, game.returns(), strict=True):
                rewards[a] += r
        observations = self._observations()
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, cut)
        if over or cut:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self._game.render()

    def close(self) -> None:
        """Nothing to let go of."""
