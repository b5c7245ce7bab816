"""Bots: players that choose a move for the seat to move, behind one interface.

``parse_bot_spec`` turns a spec such as ``"ismcts:iterations=1000:c=0.7"`` into
a ``Bot``.  Every bot sees the full engine state it is handed (the engine
state of the game's position, ``kanaloa_core.CoreState`` for the Kanaloa
family) but uses only what its seat knows: the search bots determinise the
state from the mover's knowledge before looking at it (the search protocol's
``resample``; in a game that hides nothing, a copy of the state).

A bot reaches its game only through the rule set and the registry's faces
(``kanaloa.rules.registry``): the greedy bot plays the game's ``greedy``
face, the search bots search its ``search`` face's adapter, the OpenSpiel
bots its ``openspiel`` game.  ``Bot.check(ruleset)`` refuses, before any game
is played, a bot whose game lacks what it needs.

==========  ===============================================================
spec        what it does
==========  ===============================================================
``random``  a uniformly random legal move
``greedy``  looks one whole turn ahead on its own cards (every order of its
            places, swaps and removals, up to ``width`` states) and keeps
            the line whose end scores best under a board heuristic; then
            takes the face-up card it values most, or draws
``pimc``    perfect-information Monte Carlo: ``dets`` determinisations, a
            plain UCT search on each, the root visits summed as votes
``ismcts``  single-observer information-set MCTS (``kanaloa.search``)
``hint``    the engine behind ``kanaloa hint``: ``ismcts`` with the hint's
            settings (``kanaloa.play.settings.HINT_SETTINGS``)
``openspiel-ismcts``
            OpenSpiel's Python ISMCTS as it ships, on the game
            ``kanaloa.openspiel`` registers (the optional extra ``openspiel``)
``openspiel-mcts``
            OpenSpiel's Python MCTS on one determinisation per move
``seer``    for measurement only: ``ismcts`` with its defaults on a state
            that hides nothing, every determinisation the true state
            (``kanaloa.play.seer``)
==========  ===============================================================

The ``seer`` sees what its seat cannot, so it is an upper bound, not a
player: it is in ``MEASUREMENT_BOTS``, not ``BOTS``, and ``parse_bot_spec``
makes it only for a measurement of bots against bots (``measurement=True``:
``kanaloa.play.tournament``, behind ``kanaloa simulate``); anything that plays
for a person or advises one (hints, the web app, the viewer, tactics) is
refused it with one line.  It takes the keys of ``ismcts``; ``reshuffle``
changes nothing for it.

Options (``key=value`` after the name, separated by ``:``):

* every bot: ``seed`` (default 0; ``start`` re-seeds per game);
* ``greedy``: ``width`` (default 400, the states it may look at per decision);
* ``pimc``, ``ismcts`` and ``seer``: ``iterations`` (default 1000) or
  ``time`` (seconds per move), ``c`` (exploration, default 0.7), ``margin`` (weight of
  the point margin in the reward, default 0), ``policy`` (``heuristic`` or
  ``random`` rollouts, default heuristic), ``reshuffle`` (1: after a
  reshuffle the determinisations deal the deck from the cards the bot saw
  go into it, docs/engine.md "What a reshuffle reveals"; default 0, ``hint``
  1), ``cut`` (N > 0: each rollout stops after N moves and a model fitted
  to the playout policy's own games judges the state, docs/engine.md
  "Rollouts cut short"; default 0, plays to the end; ``hint`` 40);
* ``ismcts``, ``hint`` and ``seer``: ``expand`` (visits a tree node needs
  before its moves are expanded, default 1), ``prior`` (weight of the core's heuristic
  move scores as priors, default 0), ``reuse`` (1: keep the tree through the
  turn, default 0), ``root_c`` (exploration at the root, default ``c``),
  ``one_order`` (1: search one order of builds that commute, default 0),
  ``halving`` (1: sequential halving among the root's moves, default 0),
  ``trees`` (independent searches, each with its own seed, that share the
  budget equally; their root statistics are summed as a hint's workers'
  are, default 1), ``turn_only`` (1: the tree holds only the bot's own
  moves up to the end of its turn, default 0);
  ``hint`` has the hint's defaults instead;
* ``pimc``: ``dets`` (determinisations per move, default 10; the budget is
  shared between them);
* ``openspiel-ismcts`` and ``openspiel-mcts``: ``iterations`` (default 1000)
  or ``time``, ``c`` (UCT's exploration, default 2), ``rollout`` (``python``:
  OpenSpiel's own random rollouts, the default; ``core``: the same random
  rollouts played by the compiled core, for matches at an iteration budget);
  docs/openspiel.md.

A move is one atomic action; a move with a single legal choice is played at
once, without search.

Every bot plays 2-player games too (R15): a seat then builds with either of
its two colors, and the greedy heuristic values a player's pair the way R15.5
ranks it, the weaker color first.  Every bot plays Kahuna (R16) as well: the
searches through the core's Kahuna rules and heuristic, and the greedy bot
with a heuristic that counts islands controlled, as Kahuna's scorings do.
Every bot plays every other registered game that has the faces it needs; in
a game that hides nothing, ``ismcts`` is a plain UCT search of the true
state (every determinisation is the state itself), ``pimc`` sums the votes
of ``dets`` such searches, and the options about hidden cards
(``reshuffle``) or about a face's own tables (``cut``, ``one_order``) do
what the game's adapter makes of them.
"""

from __future__ import annotations

import math
import random
import time as _time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import OptionError, brief, quote
from ..search import ISMCTS, MCTS, Node, SearchResult
from .game import POLICIES
from .limits import MAX_ITERATIONS, MAX_SECONDS, number
from .parallel import merge, pack, split_iterations
from .settings import HINT_SETTINGS

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset

# An engine state of any game (``kanaloa_core.CoreState`` for the Kanaloa family): ``legal_actions``,
# ``to_move``, ``is_over``, ``apply``, ``copy``, ``to_data``.
EngineState = Any

POLICY_NAMES = {code: name for name, code in POLICIES.items()}


class Bot:
    """A player.  ``start`` before each game, then ``choose`` for every move of its seat."""

    name = "bot"
    faces: tuple[str, ...] = ()  # the registry faces of its game the bot plays with

    def __init__(self, spec: str, seed: int = 0) -> None:
        self.spec = spec
        self.seed = seed
        self.rng = random.Random(seed)
        self.ruleset: Ruleset | None = None

    def check(self, ruleset: Ruleset) -> None:
        """Refuse (``OptionError`` naming the spec and why) a rule set this bot cannot play: one whose game
        lacks a face it plays with."""
        g = ruleset.game_type
        for role in self.faces:
            if role not in g.faces:
                raise OptionError(f"bot spec {brief(self.spec)}: {self.name} plays a game through its {role} face, "
                                  f"and {g.title} has none")

    def start(self, ruleset: Ruleset, seed: int) -> None:
        """Prepare for a new game of ``ruleset``; every random choice of the game flows from ``seed``."""
        self.ruleset = ruleset
        self.rng = random.Random((self.seed << 32) ^ seed)

    def choose(self, state: EngineState) -> int:
        """The action this bot plays for the seat to move in ``state`` (not modified)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"


class RandomBot(Bot):
    """A uniformly random legal move."""

    name = "random"

    def choose(self, state: EngineState) -> int:
        moves = state.legal_actions()
        return moves[self.rng.randrange(len(moves))]


# -- greedy --------------------------------------------------------------------


class GreedyBot(Bot):
    """One turn of lookahead with a board heuristic: the game's own greedy player (its ``greedy`` face, for
    the Kanaloa family ``kanaloa.play.greedy``), made for each game's rule set."""

    name = "greedy"
    faces = ("greedy",)

    def __init__(self, spec: str, seed: int = 0, width: int = 400) -> None:
        super().__init__(spec, seed)
        self.width = width
        self._player: Any = None

    def start(self, ruleset: Ruleset, seed: int) -> None:
        super().start(ruleset, seed)
        self._player = ruleset.game_type.face("greedy")(ruleset, self.width)

    def choose(self, state: EngineState) -> int:
        if self._player is None:
            raise RuntimeError("GreedyBot.start(ruleset, seed) must be called before choose")
        action: int = self._player.choose(state, self.rng)
        return action


# -- search bots ---------------------------------------------------------------


class SearchBot(Bot):
    """Common options of the search bots: budget, exploration, reward margin, playout policy."""

    faces = ("search",)

    def __init__(self, spec: str, seed: int = 0, iterations: int | None = None, time: float | None = None,
                 c: float = 0.7, margin: float = 0.0, policy: str = "heuristic", reshuffle: int = 0,
                 cut: int = 0) -> None:
        super().__init__(spec, seed)
        if iterations is None and time is None:
            iterations = 1000
        self.iterations = iterations
        self.seconds = time
        self.c = c
        self.margin = margin
        # What the game's search adapter is made with (its ``search`` face, at ``start``).
        self.search_options: dict[str, Any] = {"policy": policy, "reshuffle": bool(reshuffle), "cut": cut,
                                               "one_order": False}
        self._game: Any = None

    def start(self, ruleset: Ruleset, seed: int) -> None:
        super().start(ruleset, seed)
        self._game = ruleset.game_type.face("search")(**self.search_options)

    @property
    def game(self) -> Any:
        """The game's search adapter (``kanaloa.search.protocol`` states from its engine states)."""
        if self._game is None:
            raise RuntimeError(f"{type(self).__name__}.start(ruleset, seed) must be called before choose")
        return self._game


class ISMCTSBot(SearchBot):
    """ISMCTS from the mover's knowledge; a proven win, else the move most visited at the root.

    With ``trees`` = N > 1, N independent searches (each with its own seed)
    share the budget equally, and the move is read from their root
    statistics added up: a move any tree proved a win first, else the most
    visited over all trees.  An iteration budget smaller than N runs one
    search per iteration.

    With ``reuse`` the tree is kept across the atomic moves of a turn: when
    the bot moves again right after its own move and the state is exactly
    the one that move led to (nothing new learned, as after a place, swap,
    removal or discard), the search continues the subtree of that move (each
    tree its own; a tree that never tried the move starts afresh).
    """

    name = "ismcts"

    def __init__(self, spec: str, expand: int = 1, prior: float = 0.0, reuse: int = 0, root_c: float | None = None,
                 one_order: int = 0, halving: int = 0, trees: int = 1, turn_only: int = 0, **options: Any) -> None:
        super().__init__(spec, **options)
        self.search_options["one_order"] = bool(one_order)
        self.expand = expand
        self.prior = prior
        self.reuse = bool(reuse)
        self.root_c = root_c
        self.halving = bool(halving)
        self.trees = trees
        self.turn_only = bool(turn_only)
        # (the state expected next, as data, the subtree of each tree, None where a tree never tried the move)
        self._kept: tuple[Any, list[Node | None]] | None = None

    def start(self, ruleset: Ruleset, seed: int) -> None:
        super().start(ruleset, seed)
        self._kept = None

    def choose(self, state: EngineState) -> int:
        moves = state.legal_actions()
        if len(moves) == 1:
            self._kept = None
            return moves[0]
        roots: list[Node | None] = [None] * self.trees
        if self._kept is not None:
            expected, subtrees = self._kept
            if state.to_data() == expected:
                roots = list(subtrees)
        self._kept = None
        # ``trees`` independent searches share the budget; their root statistics are added up (as the
        # workers of a hint are, ``kanaloa.play.parallel``) and the move is read from the sum.
        iterations = split_iterations(self.iterations, self.trees) if self.iterations is not None else None
        seconds = self.seconds / self.trees if self.seconds is not None else None
        world = self.game.wrap(state)
        results = []
        for t, root in enumerate(roots):
            if iterations is not None and t >= len(iterations):
                break
            search = ISMCTS(c=self.c, margin=self.margin, seed=self.rng.getrandbits(63), expand_after=self.expand,
                            prior=self.prior, root_c=self.root_c, halving=self.halving, turn_only=self.turn_only)
            results.append(search.search(world, iterations[t] if iterations is not None else None, seconds,
                                         root=root))
        if len(results) == 1:
            action = results[0].best_action
        else:
            merged = merge([pack(r) for r in results])
            action = SearchResult(merged, state.to_move, sum(r.iterations for r in results),
                                  sum(r.seconds for r in results)).best_action
        if self.reuse:
            after = state.copy()
            after.apply(action)
            if not after.is_over and after.to_move == state.to_move:
                kept = [r.root.children.get(action) for r in results]
                if any(k is not None for k in kept):
                    self._kept = (after.to_data(), kept)
        return action


class HintBot(ISMCTSBot):
    """The engine behind hints as a bot: ``ismcts`` with ``HINT_SETTINGS`` as its defaults."""

    name = "hint"

    def __init__(self, spec: str, c: float = HINT_SETTINGS.c, margin: float = HINT_SETTINGS.margin,
                 expand: int = HINT_SETTINGS.expand_after, prior: float = HINT_SETTINGS.prior,
                 reuse: int = int(HINT_SETTINGS.reuse), policy: str = POLICY_NAMES[HINT_SETTINGS.policy],
                 root_c: float | None = HINT_SETTINGS.root_c, one_order: int = int(HINT_SETTINGS.one_order),
                 reshuffle: int = int(HINT_SETTINGS.reshuffle), cut: int = HINT_SETTINGS.cut,
                 **options: Any) -> None:
        super().__init__(spec, c=c, margin=margin, expand=expand, prior=prior, reuse=reuse, policy=policy,
                         root_c=root_c, one_order=one_order, reshuffle=reshuffle, cut=cut, **options)


class SeerBot(ISMCTSBot):
    """The ``ismcts`` search, with its defaults (``ISMCTS_SETTINGS``), on a state that hides nothing: every
    determinisation is the true state (``kanaloa.play.seer``).  For measurement only: ``parse_bot_spec``
    makes one only for a measurement (``measurement=True``, ``kanaloa simulate``), and nothing that plays for
    a person or advises one may seat it."""

    name = "seer"  # its defaults are ``ismcts``'s own, so that it is that search and sees more, nothing else

    def start(self, ruleset: Ruleset, seed: int) -> None:
        super().start(ruleset, seed)
        from .seer import SeeingGame  # the one import of the seer's sight (tests/test_seer.py)

        self._game = SeeingGame(self._game)


class PIMCBot(SearchBot):
    """Perfect-information Monte Carlo: plain UCT on several determinisations, visits summed as votes."""

    name = "pimc"

    def __init__(self, spec: str, dets: int = 10, **options: Any) -> None:
        super().__init__(spec, **options)
        self.dets = dets

    def choose(self, state: EngineState) -> int:
        moves = state.legal_actions()
        if len(moves) == 1:
            return moves[0]
        me = state.to_move
        iterations = max(1, self.iterations // self.dets) if self.iterations is not None else None
        seconds = self.seconds / self.dets if self.seconds is not None else None
        votes: dict[int, int] = {}
        for _ in range(self.dets):
            world = self.game.wrap(state).resample(me, self.rng.getrandbits(63))
            search = MCTS(c=self.c, margin=self.margin, seed=self.rng.getrandbits(63))
            for cand in search.search(world, iterations, seconds).candidates():
                votes[cand.action] = votes.get(cand.action, 0) + cand.visits
        return max(votes, key=lambda a: (votes[a], -a))


# -- OpenSpiel's searches -------------------------------------------------------------

OPENSPIEL_INSTALL = 'pip install "kanaloa[openspiel]"'


def openspiel_installed() -> bool:
    """Whether OpenSpiel (``pyspiel``, the optional extra ``openspiel``) can be imported."""
    import importlib.util

    return importlib.util.find_spec("pyspiel") is not None


class OpenSpielBot(Bot):
    """OpenSpiel's own search on the games ``kanaloa.openspiel`` registers (the optional extra ``openspiel``).

    ``iterations`` (1000 by default) or ``time`` per move, ``c`` UCT's exploration constant (2, OpenSpiel's
    example default), ``rollout`` the leaf evaluator: ``python``, OpenSpiel's ``RandomRolloutEvaluator``
    as it ships, or ``core``, the same random rollouts played by the compiled core
    (``openspiel_search.CoreRolloutEvaluator``).  Every random choice flows from the seed a game gives
    the bot.
    """

    faces = ("openspiel",)

    def __init__(self, spec: str, seed: int = 0, iterations: int | None = None, time: float | None = None,
                 c: float = 2.0, rollout: str = "python") -> None:
        super().__init__(spec, seed)
        self.iterations = 1000 if iterations is None and time is None else iterations
        self.seconds = time
        self.c = c
        self.rollout = rollout  # "python" (OpenSpiel's RandomRolloutEvaluator) or "core" (the same, in C)
        self.np_random: Any = None
        self.searched = 0  # iterations run so far, over every move
        self._game: Any = None

    def check(self, ruleset: Ruleset) -> None:
        """Also refuse ``rollout=core`` where the game's OpenSpiel states have no compiled rollout
        (``core_rollouts``)."""
        super().check(ruleset)
        if self.rollout == "core" and not self.game_of(ruleset).core_rollouts:
            raise OptionError(f"bot spec {brief(self.spec)}: rollout=core plays rollouts in the Kanaloa core, "
                              f"which {ruleset.game_type.title}'s OpenSpiel game has not; use rollout=python")

    @staticmethod
    def game_of(ruleset: Ruleset) -> Any:
        """The OpenSpiel game of ``ruleset`` (its game's ``openspiel`` face)."""
        return ruleset.game_type.face("openspiel")(ruleset)

    def start(self, ruleset: Ruleset, seed: int) -> None:
        super().start(ruleset, seed)
        self._game = None
        try:
            import numpy

            from . import openspiel_search  # noqa: F401 - fails early when the extra is missing
        except ImportError:
            raise OptionError(f"bot {self.name}: needs the optional extra openspiel; install it with "
                              f"{OPENSPIEL_INSTALL}") from None
        self.np_random = numpy.random.RandomState(self.rng.getrandbits(32))

    def game_for(self, state: EngineState) -> Any:
        """The game's OpenSpiel game (its ``openspiel`` face) for this game's rule set, made once a game."""
        if self._game is None:
            if self.ruleset is None:
                raise RuntimeError(f"{type(self).__name__}.start(ruleset, seed) must be called before choose")
            self._game = self.game_of(self.ruleset)
        return self._game

    def choose(self, state: EngineState) -> int:
        moves = state.legal_actions()
        if len(moves) == 1:
            return moves[0]
        game = self.game_for(state)
        if self.seconds is None:
            assert self.iterations is not None
            limit, deadline = self.iterations, None
        else:
            limit, deadline = 1 << 62, _time.perf_counter() + self.seconds
        action, ran = self.search(game, state, limit, deadline)
        self.searched += ran
        return int(game.code_of(action))

    def search(self, game: Any, state: EngineState, limit: int, deadline: float | None) -> tuple[int, int]:
        """(OpenSpiel action, iterations run) of the bot's search at ``state``: at most ``limit`` iterations,
        and none begun after ``deadline`` (a ``time.perf_counter`` value) when there is one."""
        raise NotImplementedError


class OpenSpielISMCTSBot(OpenSpielBot):
    """OpenSpiel's Python ``ISMCTSBot`` as it ships: random rollouts, UCT, the most visited move.  Its
    information sets are the viewer positions, its worlds the core's determinisations."""

    name = "openspiel-ismcts"

    def check(self, ruleset: Ruleset) -> None:
        """Also refuse a game of perfect information: OpenSpiel's ISMCTS plays only games that hide
        something."""
        super().check(ruleset)
        if self.game_of(ruleset).get_type().information.name != "IMPERFECT_INFORMATION":  # as ISMCTSBot asserts
            raise OptionError(f"bot spec {brief(self.spec)}: OpenSpiel's ISMCTS plays only games that hide "
                              f"something, and {ruleset.game_type.title} hides nothing; openspiel-mcts searches "
                              f"it")

    def search(self, game: Any, state: EngineState, limit: int, deadline: float | None) -> tuple[int, int]:
        from .openspiel_search import ismcts_move

        return ismcts_move(game, game.state_of(state), self.c, limit, deadline, self.np_random,
                           lambda st, player: st.resample(player, self.rng.getrandbits(63)), self.rollout)


class OpenSpielMCTSBot(OpenSpielBot):
    """OpenSpiel's Python ``MCTSBot`` (UCT, random rollouts) on one determinisation of what the mover knows."""

    name = "openspiel-mcts"

    def search(self, game: Any, state: EngineState, limit: int, deadline: float | None) -> tuple[int, int]:
        from .openspiel_search import mcts_move

        world = game.state_of(state).resample(state.to_move, self.rng.getrandbits(63))
        return mcts_move(game, world, self.c, limit, deadline, self.np_random, self.rollout)


# -- specs ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Option:
    kind: type
    low: float | None = None  # smallest allowed value
    strict: bool = False  # True: the value must be greater than ``low``
    choices: tuple[str, ...] = ()
    high: float | None = None  # greatest allowed value (``kanaloa.play.limits``)


_SEED = _Option(int, 0)
_SEARCH = {
    "seed": _SEED,
    "iterations": _Option(int, 1, high=MAX_ITERATIONS),
    "time": _Option(float, 0.0, strict=True, high=MAX_SECONDS),
    "c": _Option(float, 0.0),
    "margin": _Option(float, 0.0),
    "policy": _Option(str, choices=tuple(POLICIES)),
    "reshuffle": _Option(int, 0),
    "cut": _Option(int, 0),
}
_ISMCTS = {**_SEARCH, "expand": _Option(int, 1), "prior": _Option(float, 0.0), "reuse": _Option(int, 0),
           "root_c": _Option(float, 0.0), "one_order": _Option(int, 0), "halving": _Option(int, 0),
           "trees": _Option(int, 1), "turn_only": _Option(int, 0)}
# OpenSpiel's searches need 2 iterations to have a root with a visited move to play.
_OPENSPIEL = {"seed": _SEED, "iterations": _Option(int, 2, high=MAX_ITERATIONS),
              "time": _Option(float, 0.0, strict=True, high=MAX_SECONDS),
              "c": _Option(float, 0.0), "rollout": _Option(str, choices=("python", "core"))}
BOTS: dict[str, tuple[type, dict[str, _Option]]] = {
    "random": (RandomBot, {"seed": _SEED}),
    "greedy": (GreedyBot, {"seed": _SEED, "width": _Option(int, 1)}),
    "pimc": (PIMCBot, {**_SEARCH, "dets": _Option(int, 1)}),
    "ismcts": (ISMCTSBot, _ISMCTS),
    "hint": (HintBot, _ISMCTS),
    "openspiel-ismcts": (OpenSpielISMCTSBot, _OPENSPIEL),
    "openspiel-mcts": (OpenSpielMCTSBot, _OPENSPIEL),
}
# The bots for measurement only, which see what their seat cannot: ``parse_bot_spec`` makes them only for a
# measurement (``kanaloa simulate``); ``BOTS`` above are the bots anything may seat (the web app lists them).
MEASUREMENT_BOTS: dict[str, tuple[type, dict[str, _Option]]] = {
    "seer": (SeerBot, _ISMCTS),
}


_OPENSPIEL_BOTS = ("openspiel-ismcts", "openspiel-mcts")


def parse_bot_spec(spec: str, playing: bool = True, measurement: bool = False) -> Bot:
    """The bot a spec names, e.g. ``"ismcts:iterations=1000:c=0.7"``.

    Raises ``OptionError`` naming the spec and the bad part: an unknown bot
    or key, a key given twice, a value of the wrong type or out of range,
    and, unless ``playing`` is false (a spec read that no bot will play by,
    such as a game record's lineup), a bot whose optional extra is not
    installed, and a bot for measurement only (``MEASUREMENT_BOTS``: the
    ``seer``, which sees every hand) unless ``measurement`` is true: only a
    measurement of bots against bots (``kanaloa simulate``, ``ladder`` and
    ``sprt``) may seat one, never a game with people or anything that
    advises them.  Long specs, keys and values are quoted cut short
    (``errors.brief``).
    """
    where = f"bot spec {brief(spec)}"
    known = {**BOTS, **MEASUREMENT_BOTS} if measurement or not playing else BOTS
    if not isinstance(spec, str) or not spec.strip():
        raise OptionError(f"{where}: empty; expected one of {', '.join(known)}")
    name, *parts = spec.strip().split(":")
    name = name.strip().lower()
    if name in MEASUREMENT_BOTS and name not in known:
        raise OptionError(f"{where}: {name} sees what its seat cannot (every hand, the order of the deck), so it "
                          f"is for measurement only (kanaloa simulate, ladder and sprt) and cannot play or advise "
                          f"here")
    if name not in known:
        raise OptionError(f"{where}: unknown bot {quote(name)}; expected one of {', '.join(known)}")
    cls, allowed = known[name]
    if playing and name in _OPENSPIEL_BOTS and not openspiel_installed():
        raise OptionError(f"{where}: {name} needs the optional extra openspiel (the open-spiel package); install "
                          f"it with {OPENSPIEL_INSTALL}")
    options: dict[str, int | float | str] = {}
    for part in parts:
        key, sep, text = part.partition("=")
        key, text = key.strip().lower(), text.strip()
        if not sep or not key:
            raise OptionError(f"{where}: option {quote(part)} must be written key=value")
        if key not in allowed:
            raise OptionError(f"{where}: unknown key {quote(key)} for {name}; expected one of {', '.join(allowed)}")
        if key in options:
            raise OptionError(f"{where}: key {quote(key)} is given twice")
        options[key] = _option_value(where, key, text, allowed[key])
    if name in ("pimc", "ismcts", "hint", "seer", *_OPENSPIEL_BOTS) and "iterations" in options and "time" in options:
        raise OptionError(f"{where}: key 'time' cannot be combined with 'iterations'; give one budget")
    if options.get("halving") and int(options.get("trees", 1)) > 1:
        raise OptionError(f"{where}: key 'halving' cannot be combined with 'trees' above 1: each tree's race "
                          f"would choose its own move")
    margin = options.get("margin", 0.0)
    if name in ("pimc", "ismcts", "hint", "seer") and isinstance(margin, float) and margin > 1.0:
        raise OptionError(f"{where}: key 'margin' must be within [0, 1], not {margin}")
    return cls(spec.strip(), **options)


def _option_value(where: str, key: str, text: str, option: _Option) -> int | float | str:
    """The value of ``key=text`` as ``option`` takes it; ``where`` names the spec in errors."""
    if option.choices:
        if text.lower() not in option.choices:
            raise OptionError(f"{where}: key {quote(key)} must be one of {', '.join(option.choices)}, "
                              f"not {quote(text)}")
        return text.lower()
    try:
        value = option.kind(text)
    except ValueError:
        what = "an integer" if option.kind is int else "a number"
        raise OptionError(f"{where}: key {quote(key)} must be {what}, not {quote(text)}") from None
    if option.kind is float and not math.isfinite(value):
        raise OptionError(f"{where}: key {quote(key)} must be a finite number, not {quote(text)}")
    if option.low is not None and (value <= option.low if option.strict else value < option.low):
        bound = f"greater than {option.low:g}" if option.strict else f"at least {option.low:g}"
        raise OptionError(f"{where}: key {quote(key)} must be {bound}, not {quote(text)}")
    if option.high is not None and value > option.high:
        raise OptionError(f"{where}: key {quote(key)} must be at most {number(option.high)}, not {quote(text)}")
    return value


# -- specs for people: the help text, made from the table above ------------------------------

_HINT_ROOT_C = HINT_SETTINGS.c if HINT_SETTINGS.root_c is None else HINT_SETTINGS.root_c
_SPEC_HELP = {
    # bots
    "random": "a uniformly random legal move",
    "greedy": "one turn of lookahead on its own cards, scored by a board heuristic",
    "pimc": "perfect-information Monte Carlo: a tree search on each of several deals of the unseen cards",
    "ismcts": "information-set Monte Carlo tree search from what the player knows",
    "openspiel-ismcts": ("OpenSpiel's ISMCTS bot as it ships (random rollouts, most visits), on the game "
                         "kanaloa.openspiel registers; c defaults to 2, iterations are at least 2; needs the extra "
                         "openspiel"),
    "openspiel-mcts": ("OpenSpiel's MCTS bot on one deal of the unseen cards per move; c defaults to 2, "
                       "iterations are at least 2; needs the extra openspiel"),
    "hint": ("the engine behind 'kanaloa hint': ismcts with the hint's settings as its defaults "
             f"(c={HINT_SETTINGS.c:g}, root_c={_HINT_ROOT_C:g}, prior={HINT_SETTINGS.prior:g}, "
             f"reuse={int(HINT_SETTINGS.reuse)}, one_order={int(HINT_SETTINGS.one_order)}, "
             f"margin={HINT_SETTINGS.margin:g}, expand={HINT_SETTINGS.expand_after}, "
             f"reshuffle={int(HINT_SETTINGS.reshuffle)}, cut={HINT_SETTINGS.cut})"),
    "seer": ("ismcts with its defaults, searching the true state: every determinisation "
             "is the game as it stands (every hand, the deck in its order, the face-down discards, the chance to "
             "come), so its results bound what knowing everything is worth to the same search; reshuffle changes "
             "nothing"),
    # keys
    "seed": "mixed into the seed each game gives the bot",
    "width": "positions looked at per decision",
    "iterations": "search iterations per move; 1000 when no time is given",
    "time": "seconds of search per move, instead of iterations; games then depend on the machine's load",
    "c": "exploration constant of the tree search",
    "margin": "weight of the point margin in the reward, at most 1; 0 plays to win, whatever the margin",
    "policy": "how playouts choose their moves",
    "reshuffle": ("not 0: after a reshuffle, deal the deck of each determinisation from the cards the bot saw go "
                  "into it (docs/engine.md); 0 deals it from all unseen cards alike"),
    "cut": ("not 0: a rollout stops after this many moves and a model fitted to the playout policy's games "
            "judges the state (Kanaloa's rule sets on oro and Kahuna's; docs/engine.md); 0 plays to the end"),
    "expand": "visits a tree node needs before its moves are expanded",
    "prior": "weight of the heuristic move scores that order and bias the search; 0 ignores them",
    "reuse": "not 0: keep the search tree through the moves of the bot's turn",
    "root_c": "exploration constant at the root of the tree search; c when not given",
    "one_order": "not 0: search one order of the builds of a turn that commute, not every order",
    "halving": "not 0: sequential halving among the moves at the root instead of UCB1 there",
    "turn_only": "not 0: the tree holds only the bot's own moves of this turn; rollouts play the rest",
    "trees": ("independent search trees that share the budget; the move is a win any of them proved, else the "
              "most visited over all of them; not with halving"),
    "dets": "deals of the unseen cards searched per move; the budget is shared among them",
    "rollout": ("python: OpenSpiel's own random rollouts; core: the same uniform random rollouts played by the "
                "compiled core, much faster, for matches at an iteration budget"),
}


def bot_summaries() -> dict[str, str]:
    """Each bot anything may seat (``BOTS``, not the measurement bots) with one line on what it plays, as
    ``bot_specs_help`` describes it."""
    return {name: _SPEC_HELP.get(name, name) for name in BOTS}


def _default(cls: type, key: str) -> object:
    """The default of constructor argument ``key`` of bot class ``cls`` (or of a base class), or None."""
    import inspect

    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        param = inspect.signature(init).parameters.get(key)
        if param is not None and param.default is not inspect.Parameter.empty:
            return param.default
    return None


def bot_specs_help(width: int = 76, measurement: bool = False) -> str:
    """The bots and every key of their specs, for ``simulate --help`` and docs/simulations.md.

    Made from ``BOTS`` (names, keys, types, ranges, choices) and the bots'
    constructors (defaults), so it lists exactly what ``parse_bot_spec``
    takes.  With ``measurement`` (the help of a command that measures bots
    against bots), a last paragraph lists the bots for measurement only
    (``MEASUREMENT_BOTS``), whose keys are among those above.  Lines are
    wrapped to ``width`` characters.
    """
    import textwrap

    def entry(head: str, text: str, indent: int) -> list[str]:
        return textwrap.wrap(text, width, initial_indent=f"{head:<{indent}}  ", subsequent_indent=" " * (indent + 2))

    lines = ["A spec is NAME[:KEY=VALUE]..., e.g. ismcts:iterations=2000:c=0.5", ""]
    indent = max(len(name) for name in BOTS)
    keys: dict[str, tuple[type, _Option]] = {}
    for name, (cls, allowed) in BOTS.items():
        lines += entry(name, f"{_SPEC_HELP.get(name, name)}; keys: {', '.join(allowed)}", indent)
        for key, option in allowed.items():
            keys.setdefault(key, (cls, option))
    lines.append("")
    metavars = {int: "N", float: "X", str: "WORD"}
    shown = {key: f"{key}={metavars.get(option.kind, 'VALUE')}" for key, (_, option) in keys.items()}
    indent = max(len(text) for text in shown.values())
    for key, (cls, option) in keys.items():
        if option.choices:
            kind = " or ".join(option.choices)
        else:
            kind = "an integer" if option.kind is int else "a number"
            if option.low is not None:
                kind += f" {'>' if option.strict else '>='} {option.low:g}"
            if option.high is not None:
                kind += f", at most {number(option.high)}"
        default = _default(cls, key)
        if default is not None:
            kind += f"; default {default:g}" if isinstance(default, float) else f"; default {default}"
        lines += entry(shown[key], f"{_SPEC_HELP.get(key, key)} ({kind})", indent)
    if measurement:
        lines += ["", *textwrap.wrap("For measurement only (this command seats them; no hint, web game or "
                                     "viewer ever does):", width), ""]
        indent = max(len(name) for name in BOTS)
        for name, (_, allowed) in MEASUREMENT_BOTS.items():
            assert all(key in keys for key in allowed), f"{name}: a key the list above lacks"
            lines += entry(name, f"{_SPEC_HELP.get(name, name)}; keys: {', '.join(allowed)}", indent)
    return "\n".join(lines)
