"""The rules engines as typed objects: the compiled core and the readable reference.

Both engines implement the *engine state protocol* (``EngineState`` below) and
agree move for move.  They differ only in the board object their states take:
the core wants its own ``kanaloa_core.CoreBoard`` tables, the reference the
``Board`` itself.  An ``Engine`` hides that difference, in the manner of
``pyspiel.load_game``::

    from kanaloa import load_game
    from kanaloa.rules.engine import load_engine
    engine = load_engine("reference")          # or "core", the default
    state = engine.deal(load_game("kanaloa", players=4), seed=1)
    kahuna = engine.deal(load_game("kahuna"), seed=1)  # R16
    gods = engine.deal(load_game("kanaloa", gods=True), seed=1)  # R14

A rule set (``kanaloa.rules.ruleset.Ruleset``) says what to deal; the state
classes' own ``deal(board, players, preset, seed, game, gods)`` are the
engines' low-level entry, for the rules layer and its tests.

- ``CORE`` (``"core"``): ``kanaloa_core.CoreState``, fast; what search and
  simulation use;
- ``REFERENCE`` (``"reference"``): ``kanaloa.rules.reference.ReferenceState``, plain
  Python, the oracle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import OptionError
from .board import Board
from .state import GAME_KANALOA, StateData

if TYPE_CHECKING:
    from typing_extensions import Self

    from .ruleset import Ruleset

ENGINE_NAMES = ("core", "reference")


class EngineState(Protocol):
    """What every engine's state offers (the core's ``CoreState``, the reference's ``ReferenceState``)."""

    def to_data(self) -> StateData: ...

    def copy(self) -> Self: ...

    def legal_actions(self) -> list[int]: ...

    def apply(self, action: int) -> None: ...

    def counts_on(self, island: int) -> list[int]: ...

    def controller_of(self, island: int) -> int: ...

    def points_if_scored(self, final: bool = False) -> list[int]: ...

    @property
    def players(self) -> int: ...

    @property
    def to_move(self) -> int: ...

    @property
    def round(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def scores(self) -> list[int]: ...

    @property
    def winner(self) -> int: ...

    @property
    def ranking(self) -> list[int]: ...


@dataclass(frozen=True)
class Engine:
    """One implementation of the rules.

    ``state_cls`` is the state class; ``board_for`` turns a ``Board`` into
    what that class takes as its board.
    """

    name: str
    state_cls: Any
    board_for: Callable[[Board], Any]

    def deal(self, ruleset: Ruleset, seed: int) -> EngineState:
        """A new game of ``ruleset`` dealt from ``seed``: Kanaloa in the setup (R3), with the gods their tokens
        on the islands (R14.1), or Kahuna in round 1 (R16.2).

        The game is passed on to the state class only for Kahuna and ``gods`` only when set, so that a
        state class that plays Kanaloa alone still deals it.
        """
        options: dict[str, Any] = {}
        if ruleset.code != GAME_KANALOA:
            options["game"] = ruleset.code
        if ruleset.gods:
            options["gods"] = True
        board = self.board_for(ruleset.board)
        state: EngineState = self.state_cls.deal(board, ruleset.players, ruleset.preset_code, seed, **options)
        return state

    def from_data(self, board: Board, data: StateData) -> EngineState:
        """A state holding a copy of ``data``."""
        state: EngineState = self.state_cls.from_data(self.board_for(board), data)
        return state

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"<Engine {self.name}>"


_LOADED: dict[str, Engine] = {}


def engine_of(engine: Engine | str | None) -> Engine:
    """``engine`` itself, the engine it names (``"core"``, ``"reference"``: what every game's position class
    takes), or for None the core; ``load_engine``'s errors otherwise."""
    if isinstance(engine, Engine):
        return engine
    return load_engine("core" if engine is None else engine)


def load_engine(name: str = "core") -> Engine:
    """The engine called ``name`` (``"core"`` or ``"reference"``).

    Raises ``OptionError`` for an unknown name, and ``ImportError`` with the
    build command when the compiled core is asked for but not built.
    """
    engine = _LOADED.get(name)
    if engine is not None:
        return engine
    if name == "reference":
        from .reference import ReferenceState

        engine = Engine("reference", ReferenceState, lambda board: board)
    elif name == "core":
        from .core import CoreState, core_board  # ImportError with build advice when missing

        engine = Engine("core", CoreState, core_board)
    else:
        raise OptionError(f"engine {name!r}: unknown; choose one of {', '.join(ENGINE_NAMES)}")
    _LOADED[name] = engine
    return engine
