"""``CannonballPosition``: Cannonball Colony's position class, the game's "position" face (R20).

A position holds a rule set (``CannonballRules``) and a live engine state:
the compiled core's ``CoreState`` when it is built, otherwise (or when asked
for) the reference's ``ReferenceState``.  It offers what the command line and
``kanaloa.position.documents`` ask of a game's position: ``deal`` and
``from_json`` to make one, ``to_json`` and ``dumps`` to write it,
``to_move``, ``is_over``, ``outcome`` and ``holders`` to read it, ``legal_moves``,
``move_strings``, ``play`` and ``push`` to move it.

Nothing is hidden in Cannonball Colony (R20 has no hidden cards; every piece
stands on the island): every position is a full position, ``viewer`` and
``waiting`` are always None, and ``as_viewer`` refuses.  The rules are the
engine's: a move is played when the engine lists it, and the reason for
refusing one comes from the reference (``format.why_not``), as a
``MoveError`` of one line naming the move and the rule.  The document and
the notation are ``kanaloa.cannonball.format``'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kanaloa.cannonball.core import CoreState
from kanaloa.cannonball.format import move_text, parse_move, read_position, why_not, write_position
from kanaloa.cannonball.reference import ReferenceState
from kanaloa.cannonball.ruleset import CannonballRules, make_cannonball
from kanaloa.cannonball.state import NOBODY, REASON_NAMES, ROUND_NAMES, CannonballData
from kanaloa.errors import MoveError, OptionError, PositionError, brief
from kanaloa.position.format import dumps, is_int
from kanaloa.rules.engine import Engine

if TYPE_CHECKING:
    from kanaloa.rules.rng import SplitMix64

__all__ = ["ENGINE_NAMES", "CannonballPosition"]

ENGINE_NAMES = ("core", "reference")
HIDES_NOTHING = "viewer: Cannonball Colony hides nothing; every player sees the whole position"


def engine_name(engine: object) -> str:
    """The engine a position plays on: ``"core"``, ``"reference"``, or for None the core when it is built.

    A Kanaloa ``Engine`` (what the layers above hand every game's position
    class) chooses by its name.  Raises ``OptionError`` for another name and
    ``ImportError`` with the build advice when the core is asked for but not
    built.
    """
    if engine is None:
        return "core" if CoreState is not None else "reference"
    name = engine.name if isinstance(engine, Engine) else engine
    if name not in ENGINE_NAMES:
        raise OptionError(f"engine {brief(name)}: unknown; choose one of {', '.join(ENGINE_NAMES)}")
    if name == "core" and CoreState is None:
        raise ImportError("the compiled rules core 'cannonball_core' is not built: run `pip install .` from the "
                          "kanaloa checkout (or `pip install -e .` for development) to compile it")
    return str(name)


def state_of(engine: str, d: CannonballData) -> Any:
    """A state of ``engine`` holding a copy of ``d``."""
    if engine == "core":
        return CoreState.from_data(d)
    return ReferenceState.from_data(d)


class CannonballPosition:
    """A Cannonball Colony game state with the rules of an engine (module docstring).

    Build one with ``deal`` or ``from_json``.
    """

    __slots__ = ("_state", "engine", "ruleset")

    __hash__ = None  # type: ignore[assignment]  # mutable: equal positions may later differ

    def __init__(self, ruleset: CannonballRules, engine: str, state: Any) -> None:
        self.ruleset = ruleset
        self.engine = engine  # "core" or "reference"
        self._state = state

    # -- construction -------------------------------------------------------

    @classmethod
    def deal(cls, ruleset: CannonballRules, seed: int = 0, engine: object = None) -> CannonballPosition:
        """A new game of ``ruleset``, its island laid out from ``seed``, in the landing round (R20.1-R20.4).

        ``engine``: ``"core"``, ``"reference"`` or None (the core when it is
        built).  Raises ``OptionError`` for a bad seed or engine.
        """
        if not isinstance(ruleset, CannonballRules):
            raise OptionError(f"ruleset: {brief(ruleset)} is not a Cannonball Colony rule set (make_cannonball "
                              f"makes one)")
        name = engine_name(engine)
        return cls(ruleset, name, state_of(name, ruleset.new_game(seed)))

    @classmethod
    def from_json(cls, doc: dict[str, Any] | str | bytes | bytearray, engine: object = None,
                  boards: object = None) -> CannonballPosition:
        """The position a ``kanaloa-position/1`` document of Cannonball Colony holds (text or parsed JSON).

        The countries come from the document's ``players``; the rule set is
        ``make_cannonball(players=..., countries=...)``.  A document does not
        say which tiles its island was drawn from (the island itself is in
        it), so the rule set's ``tiles`` are the built-in set whatever tiles
        the game was dealt with; nothing but a new deal reads them.
        ``boards`` is accepted for the registry's face and unused: the island
        has no board file.  Raises ``PositionError`` naming the first bad
        field (``format.read_position``).
        """
        countries, d = read_position(doc)
        name = engine_name(engine)
        ruleset = make_cannonball(players=len(countries), countries=list(countries))
        return cls(ruleset, name, state_of(name, d))

    def copy(self) -> CannonballPosition:
        """An independent copy on the same engine."""
        return CannonballPosition(self.ruleset, self.engine, self._state.copy())

    def on(self, engine: object) -> CannonballPosition:
        """A copy of this position on ``engine`` (``"core"``, ``"reference"``, or None for the core when it is
        built; nothing is checked again).  Raises ``OptionError`` for another engine."""
        name = engine_name(engine)
        if name == self.engine:
            return self.copy()
        return CannonballPosition(self.ruleset, name, state_of(name, self.data))

    def crowded(self, stream: SplitMix64) -> CannonballPosition:
        """A new position on the same engine: this new game's island crowded with roads from ``stream``
        (``CannonballRules.crowded``), for the soak's crowded starts."""
        return CannonballPosition(self.ruleset, self.engine, state_of(self.engine, self.ruleset.crowded(
            self.data, stream)))

    def as_viewer(self, name: str) -> CannonballPosition:
        """Always a ``PositionError``: there is nothing a player does not see (R20)."""
        raise PositionError(HIDES_NOTHING)

    # -- what the position holds --------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        """The countries in seat order (R20.3)."""
        return self.ruleset.countries

    @property
    def state(self) -> Any:
        """The engine state itself (not a copy)."""
        return self._state

    @property
    def data(self) -> CannonballData:
        """A copy of the state as plain data."""
        data: CannonballData = self._state.to_data()
        return data

    @property
    def viewer(self) -> None:
        """Always None: every position is a full one."""
        return None

    @property
    def waiting(self) -> None:
        """Always None: no card is ever turned face-up unseen."""
        return None

    @property
    def round(self) -> str:
        """``"landing"``, ``"play"`` or ``"over"``, as in the document (R20.4, R20.10)."""
        return ROUND_NAMES[self._state.round]

    @property
    def to_move(self) -> str | None:
        """The country to move; None once the game is over."""
        return None if self._state.is_over else self.players[self._state.to_move]

    @property
    def is_over(self) -> bool:
        return bool(self._state.is_over)

    @property
    def seat_scores(self) -> tuple[int, ...]:
        """Each seat's forts on the island, in seat order (R20.7): the score the end compares first (R20.10),
        the rule set's ``score_name``."""
        d = self.data
        return tuple(d.forts_on_island(seat) for seat in range(d.players))

    def holders(self) -> dict[str, str | None]:
        """Who holds each place of the game now, for the balance report (``kanaloa report``).

        The game has no majorities (R20): its places are the players' tiles,
        each one's landing board (R20.1), named ``france's board`` after its
        seat's country, in seat order.  A board is held by the country with
        the most forts standing on it (R20.7), or by nobody (None) when no
        fort stands there or two countries tie for the most: the measure of
        the game that answers what an island's control answers in Kanaloa,
        whether the players keep to their own ground or take a rival's.
        """
        d = self.data
        forts = [[0] * d.players for _ in range(d.players)]  # forts[board][owner]
        for space, owner in enumerate(d.fort):
            board = d.board_of[space]
            if owner != NOBODY and board != NOBODY:
                forts[board][owner] += 1
        out: dict[str, str | None] = {}
        for board, counts in enumerate(forts):
            most = max(counts)
            leaders = [seat for seat, n in enumerate(counts) if n == most]
            out[f"{self.players[board]}'s board"] = self.players[leaders[0]] if most and len(leaders) == 1 else None
        return out

    @property
    def outcome(self) -> dict[str, Any] | None:
        """None until the game is over; then ``{"winner", "winners", "ranking", "reason"}`` (R20.10).

        ``winners`` lists every country sharing the victory, in seat order;
        ``winner`` is the only one, or None when the victory is shared.
        """
        st = self._state
        if not st.is_over:
            return None
        winners = [self.players[s] for s in st.winners]
        return {
            "winner": winners[0] if len(winners) == 1 else None,
            "winners": winners,
            "ranking": [self.players[s] for s in st.ranking],
            "reason": REASON_NAMES[st.reason],
        }

    # -- moves ----------------------------------------------------------------

    def legal_moves(self) -> list[int]:
        """The legal action codes of the player to move, sorted ([] once over)."""
        return list(self._state.legal_actions())

    def move_strings(self) -> list[str]:
        """``legal_moves()`` in notation (``road c2``)."""
        d = self.data
        return [move_text(action, self.players, d) for action in self._state.legal_actions()]

    def move_of(self, action: int) -> str:
        """The notation of action code ``action``; ``MoveError`` for a code naming no move."""
        return move_text(action, self.players, self.data)

    def parse(self, move: str) -> str:
        """The move ``move`` names here (``road C2``, ``france: road c2``), in the notation ``move_strings``
        writes (``road c2``); only its form is checked, not whether it is legal.  Raises ``MoveError``
        naming the move and why (``format.parse_move``)."""
        d = self.data
        return move_text(parse_move(move, self.players, d), self.players, d)

    def decision_of(self, move: str) -> int:
        """The action code of ``move`` for the player to move (a record adds nothing to a choice here: nothing
        is hidden, R20); ``MoveError`` when it is none of the legal moves."""
        text = self.parse(move)
        for action in self.legal_moves():
            if self.move_of(action) == text:
                return action
        raise MoveError(f"move {brief(text)}: not one of {self.to_move}'s legal moves")

    def record_of(self, move: str, viewer: str) -> str:
        """The move ``move`` as ``viewer`` (a country) records it at the table: the move itself, in the notation
        ``move_strings`` writes, since nothing is hidden (R20).  Raises ``PositionError`` for a country that is
        not playing and ``MoveError`` for a move that is none of the legal moves (or once the game is over)."""
        if viewer not in self.players:
            raise PositionError(f"viewer: {brief(viewer)} is not playing (the countries are "
                                f"{', '.join(self.players)})")
        if self.is_over:
            raise MoveError(f"move {brief(self.parse(move))}: the game is over")
        return self.move_of(self.decision_of(move))

    def play(self, move: str) -> None:
        """Apply one move given in notation (``road c2``, ``france: fort c2``), checked, in place.

        A malformed or illegal move raises ``MoveError`` naming the move and
        why (the rule's reason for an illegal one); the position is then
        unchanged.
        """
        text = move.strip() if isinstance(move, str) else move
        d = self.data
        action = parse_move(text, self.players, d)
        if action not in self._state.legal_actions():
            raise MoveError(why_not(text, self.players, d) or f"move {brief(text)}: not a legal move here")
        self._state.apply(action)

    def push(self, action: int) -> None:
        """Apply an action code, checked: a ``MoveError`` naming the move and the rule when it is illegal,
        or naming the code when it names no move."""
        if not is_int(action) or action not in self._state.legal_actions():
            d = self.data
            text = move_text(action, self.players, d)  # a MoveError for a code naming no move
            raise MoveError(why_not(text, self.players, d) or f"move {brief(text)}: not a legal move here")
        self._state.apply(action)

    # -- output ---------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The position's document (a fresh dict, canonical; ``format.write_position``)."""
        return write_position(self.players, self.data)

    def dumps(self) -> str:
        """``to_json()`` as indented, stable JSON text, as every position is written."""
        return dumps(self.to_json())

    def __eq__(self, other: object) -> bool:
        """The same game: the same countries and the same state, whatever the engine."""
        if not isinstance(other, CannonballPosition):
            return NotImplemented
        return self.players == other.players and self.data == other.data

    def _repr_svg_(self) -> str:
        """The position's SVG picture (the game's ``svg`` face), which Jupyter shows for a position."""
        svg: str = self.ruleset.game_type.face("svg")(self)
        return svg

    def __repr__(self) -> str:
        moving = "game over" if self.is_over else f"{self.to_move} to move"
        return f"<CannonballPosition {', '.join(self.players)}, round {self.round!r}, {moving}, {self.engine}>"
