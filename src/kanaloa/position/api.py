"""``Position``: the Python API over a game state seen by someone.

A position is a game state seen by someone:

- a **full** position knows every card (the deck order, every hand, every
  face-down discard); simulations and tests use it;
- a **viewer** position holds what one color knows at the table.  Inside it
  keeps a complete engine state in which every card the viewer cannot see is
  filled in one deterministic way (``kanaloa.position.viewer``); printing it shows
  only what the viewer knows.

A ``Position`` holds a live engine state (``kanaloa.rules.engine``) and reads its
properties from it.  The rules are the engines' alone: a move is played when
the engine lists it, and the reasons for refusing one come from the reference
(``kanaloa.rules.reference.why_illegal``).  The JSON format, its reader and its
writer are in ``kanaloa.position.format``; the bookkeeping of viewer
positions (filling in, records of others' moves, waiting) in
``kanaloa.position.viewer``.

**Waiting.**  A viewer does not see the cards the deck turns face-up at the
end of the setup (R3: the other colors' chosen cards and the top-up) or after
the reshuffle (R9).  The position then *waits*: ``waiting`` holds a message,
``legal_moves()`` raises ``WaitingError`` (a ``MoveError``) with it, and the
only playable move is the record ``faceup CARD CARD CARD CARD`` (fewer when
fewer cards are turned up), in the order they lie: after the setup the
chosen cards in seat order, then the cards from the deck.

In a viewer position ``legal_moves()`` lists the viewer's choices: ``take X``
and ``draw`` stand for the choice, while ``play`` needs the record of what the
deck turned up (``take X refill Y`` when the deck fills the gap, ``draw Y``).
Only the viewer's own moves can be listed; another color's hand is not known.

**Kahuna (R16).**  ``Position.new(game="kahuna")`` deals Kahuna, the
2-player predecessor game, on its own board: white against black, one color
each, straight into round 1.  ``game`` says which game a position plays.
Moves are read and written in that game's notation
(``kanaloa.position.notation``): ``remove LINK/CARD+CARD`` and ``end`` to
skip the draw.  A viewer waits for the 3 cards turned face-up after each of
Kahuna's two reshuffles (R16.6).  Kahuna's two players are not R15's: they
have no pairs and no turn color.

**Might of the Gods (R14).**  ``Position.new(gods=True)`` deals Kanaloa
with the god tokens on a board of 16 islands; ``gods`` says whether a
position plays the variant.  Its moves are read and written in the
notation of ``kanaloa.position.notation`` (``ALOA-BAFI/KANALOA``, ``ku
green``, ``steal ALOA``, ``pele``, ``give green ORO``, ``lono``).  A viewer
position keeps what the viewer knows of each other hand (R14.10) and
learns from the records of the token moves (``ku green sees ALOA ORO
RASI``, ``red: steal``, ``pele takes green:ALOA blue:KULU``, ``red: pele
takes ALOA``, ``red: give green``; ``kanaloa.position.viewer``).

**Two players (R15).**  Each player plays two colors and is named by its
first.  ``colors`` names the colors by index (``kanaloa.rules.state``: the
players' first colors in seat order, then their second colors) and
``players`` the players in seat order; with 3 or 4 players both are the
colors in seat order.  Every place and swap names the color it builds with
(``blue: ALOA-BAFI/ALOA``); ``legal_moves`` lists them so.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from ..errors import BoardError, MoveError, OptionError, PositionError, brief, quote
from ..rules import actions
from ..rules.board import Board, load_board
from ..rules.engine import Engine, EngineState, engine_of
from ..rules.reference import ReferenceState, why_illegal, why_not_mover_color
from ..rules.registry import load_game
from ..rules.ruleset import SEED_LIMIT, ParameterError, Ruleset
from ..rules.state import NO_OWNER, REASON_NAMES, ROUND_NAMES, StateData
from . import notation
from . import viewer as viewing
from .format import FORMAT, dumps, is_int, parse_json, read, render
from .notation import Move, parse_move

if TYPE_CHECKING:
    from ..rules.rng import SplitMix64

__all__ = ["FORMAT", "Position", "WaitingError"]

# Moves whose record may leave out the card (another player's, unseen), and their action kinds.
_KIND_OF_RECORD = {notation.DISCARD: actions.DISCARD, notation.REVEAL: actions.REVEAL,
                   notation.STEAL: actions.STEAL, notation.GIVE: actions.GIVE}


def color_pairs(text: str) -> tuple[tuple[str, str], ...]:
    """The ``--colors`` option of a 2-player game, ``red+blue,green+yellow``, as pairs by seat.

    Raises ``OptionError`` naming ``--colors`` for another shape, a color
    that is not one of the game's, or a color named twice (the rule set's checks, R15.1).
    """
    try:
        rs = load_game("kanaloa", players=2, colors=text)
    except ParameterError as exc:
        raise OptionError(f"--colors {quote(text)}: {exc.why}") from None
    first, second = rs.color_names_of(0), rs.color_names_of(1)
    return ((first[0], first[1]), (second[0], second[1]))


class WaitingError(MoveError):
    """The viewer position waits for a ``faceup`` record before any other move."""


class Position:
    """A game state with the rules of the engine and the knowledge of a viewer (or all).

    Build one with ``Position.new``, ``Position.deal`` or ``Position.from_json``;
    see the module docstring for viewer positions and waiting.
    """

    __slots__ = ("_state", "_viewer", "_wait", "_wait_kind", "engine", "ruleset")

    def __init__(self, ruleset: Ruleset, engine: Engine, viewer: int | None, state: EngineState | None = None,
                 wait: StateData | None = None, wait_kind: viewing.WaitKind | None = None) -> None:
        self.ruleset = ruleset
        self.engine = engine
        self._viewer = viewer
        self._state = state
        self._wait = wait
        self._wait_kind = wait_kind

    # -- construction -------------------------------------------------------

    @classmethod
    def new(cls, players: int | None = None, seed: int = 0, preset: str = "yucata", board: str | Board | None = None,
            engine: Engine | None = None, colors: Sequence[Sequence[str]] | str | None = None,
            game: str = "kanaloa", gods: bool = False) -> Position:
        """A freshly dealt full position of ``game`` (``kanaloa.load_game``'s parameters), dealt from ``seed``.

        Kanaloa begins in the setup (R3), with 4 players, the yucata preset
        and board ``oro`` by default; ``colors`` gives each player's colors in
        seat order (two each in a 2-player game, R15.1: by default
        ``(("red", "blue"), ("green", "yellow"))``).  ``gods=True`` deals
        Might of the Gods (R14.1).  ``game="kahuna"`` deals Kahuna (R16.2) in
        round 1: white and black on board ``kahuna``.

        Raises ``OptionError`` (a ``ParameterError`` naming the parameter) for a
        bad game, player count, seed, preset, colors or gods, and ``BoardError``
        for a bad board.
        """
        if not isinstance(game, str):
            raise OptionError(f"game {brief(game)}: unknown; choose one of kanaloa, kahuna")
        ruleset = load_game(game, players=players, preset=preset, gods=gods, board=board, colors=colors)
        return cls.deal(ruleset, seed, engine)

    @classmethod
    def deal(cls, ruleset: Ruleset, seed: int = 0, engine: Engine | str | None = None) -> Position:
        """A freshly dealt full position of ``ruleset``, dealt from ``seed`` (R3, R14.1, R15.2, R16.2).

        ``engine``: an ``Engine``, its name (``"core"``, ``"reference"``) or None (the core).
        """
        if not is_int(seed) or not 0 <= seed < SEED_LIMIT:
            raise OptionError(f"seed {brief(seed)}: must be an integer from 0 to 2**64-1")
        engine = engine_of(engine)
        return cls(ruleset, engine, None, engine.deal(ruleset, seed))

    @classmethod
    def from_json(cls, obj: str | bytes | bytearray | dict[str, Any], engine: Engine | str | None = None,
                  boards: Callable[[str], Board] = load_board) -> Position:
        """Read a ``kanaloa-position/1`` document (text or parsed JSON).

        ``boards`` gives the board the ``board`` field names (by default a
        built-in board or a board file, ``load_board``; a server passes one
        that reads no file).  Raises ``PositionError`` naming the first bad
        field and saying why (``kanaloa.position.format``).
        """
        doc = parse_json(obj) if isinstance(obj, (str, bytes, bytearray)) else obj
        ruleset, viewer, data, wait = read(doc, boards)
        engine = engine_of(engine)
        if wait is not None:
            return cls(ruleset, engine, viewer, None, data, wait)
        return cls(ruleset, engine, viewer, engine.from_data(ruleset.board, data))

    def copy(self) -> Position:
        """An independent copy."""
        return Position(
            self.ruleset, self.engine, self._viewer,
            None if self._state is None else self._state.copy(),
            None if self._wait is None else self._wait.copy(), self._wait_kind,
        )

    def on(self, engine: Engine | str) -> Position:
        """A copy of this position whose state lives in ``engine`` (an ``Engine`` or its name; nothing is
        checked again)."""
        engine = engine_of(engine)
        if engine is self.engine:
            return self.copy()
        state = None if self._state is None else engine.from_data(self.board, self._state.to_data())
        wait = None if self._wait is None else self._wait.copy()
        return Position(self.ruleset, engine, self._viewer, state, wait, self._wait_kind)

    def crowded(self, stream: SplitMix64) -> Position:
        """A new full position on the same engine: this one's state with bridges scattered over every link
        from ``stream`` (``Ruleset.crowded``), for the soak's crowded starts."""
        if self._viewer is not None:
            raise PositionError("viewer: only a full position can be crowded")
        data = self.ruleset.crowded(self._data(), stream)
        return Position(self.ruleset, self.engine, None, self.engine.from_data(self.board, data))

    def as_viewer(self, color: str) -> Position:
        """This position as ``color`` sees it (a viewer position); with two players ``color`` names the
        player by its first color.

        Raises ``PositionError`` when ``color`` is not playing, or when this
        is already another color's view.
        """
        seat = self.seat_of("viewer", color)
        if seat is None:
            raise PositionError(f"viewer: {brief(color)} is not playing (the colors are {', '.join(self.players)})")
        if self._viewer is not None:
            if self._viewer != seat:
                raise PositionError(
                    f"viewer: this position is {self.viewer}'s view; it cannot show what {color} knows"
                )
            return self.copy()
        seen, wait = viewing.view_of(self.ruleset, self._data(), seat)
        if wait is not None:
            return Position(self.ruleset, self.engine, seat, None, seen, wait)
        return Position(self.ruleset, self.engine, seat, self.engine.from_data(self.board, seen))

    # -- what the position holds --------------------------------------------

    @property
    def board(self) -> Board:
        return self.ruleset.board

    @property
    def colors(self) -> tuple[str, ...]:
        """The color names by color index (the players' first colors in seat order, then their second ones)."""
        return self.ruleset.colors

    @property
    def players(self) -> tuple[str, ...]:
        """The players in seat order, each named by its (first) color."""
        return self.ruleset.seat_names

    def colors_of(self, player: str) -> tuple[str, ...]:
        """The colors ``player`` plays, its first color first: one, or two in a 2-player game (R15.1).

        Raises ``PositionError`` when ``player`` names no player.
        """
        seat = self.seat_of("player", player)
        if seat is None:
            raise PositionError(f"player: {brief(player)} is not playing (the players are {', '.join(self.players)})")
        return self.ruleset.color_names_of(seat)

    def seat_of(self, field: str, name: Any) -> int | None:
        """The seat of the player called ``name``, or None when it names nobody.

        A player's second color (two players) is an error naming ``field``:
        a player is named by its first color.
        """
        if not isinstance(name, str):
            return None
        if name in self.players:
            return self.players.index(name)
        if name in self.colors:
            owner = self.players[self.ruleset.seat_of(self.colors.index(name))]
            raise PositionError(f"{field}: {name} is {owner}'s second color; a player is named by its first color, "
                                f"{owner} (R15.1)")
        return None

    @property
    def state(self) -> EngineState:
        """The engine state itself (not a copy): what the position holds, checked once when it was read.

        In a viewer position it is the filled-in state.  Raises
        ``WaitingError`` while the position waits for a ``faceup`` record.
        """
        if self._state is None:
            raise WaitingError(self.waiting)
        return self._state

    def _read(self) -> EngineState:
        """The state to read the table from: ``state``, or while the position waits a reference state over the
        waiting state (read only)."""
        if self._state is not None:
            return self._state
        assert self._wait is not None
        return ReferenceState(self.board, self._wait)

    def _data(self) -> StateData:
        if self._wait is not None:
            return self._wait
        assert self._state is not None
        return self._state.to_data()

    @property
    def viewer(self) -> str | None:
        """The color whose knowledge this is, or None for a full position."""
        return None if self._viewer is None else self.colors[self._viewer]

    @property
    def to_move(self) -> str | None:
        """The color to move; None once the game is over."""
        read = self._read()
        return None if read.is_over else self.colors[read.to_move]

    @property
    def round(self) -> int | str:
        """``0``, ``1``, ``2``, ``"final"`` or ``"over"``, as in JSON (in Kahuna ``1``, ``2``, ``3``,
        ``"final"`` or ``"over"``)."""
        return cast("int | str", ROUND_NAMES[self._read().round])

    @property
    def is_over(self) -> bool:
        return self._read().is_over

    @property
    def scores(self) -> dict[str, int]:
        """Points per color (with two players, each player's first color and then its second)."""
        points = self._read().scores
        return {self.colors[c]: points[c] for c in self.ruleset.color_order}

    @property
    def pairs(self) -> dict[str, tuple[int, int]] | None:
        """Where each player plays two colors, each player's score (R15.5): the points of its weaker color,
        then of its other color; None where each plays one color."""
        if not self.ruleset.pairs:
            return None
        points = self._read().scores
        out = {}
        for seat, player in enumerate(self.players):
            weak, strong = self.ruleset.standing(points, seat)
            out[player] = (weak, strong)
        return out

    @property
    def seat_scores(self) -> tuple[int, ...]:
        """Each seat's score, in seat order, as the rule set's ``score_name`` counts it: its points, or where
        each player plays two colors its weaker color's (R12, R15.5)."""
        points = self._read().scores
        return tuple(self.ruleset.standing(points, seat)[0] for seat in range(self.ruleset.players))

    @property
    def outcome(self) -> dict[str, Any] | None:
        """None until the game is over; then ``{"ranking", "winner", "reason"}`` (R8, R12); the winner is
        None when the game ends without one (R16.7)."""
        read = self._read()
        if not read.is_over:
            return None
        return {
            "ranking": [self.colors[s] for s in read.ranking],
            "winner": self.colors[read.winner] if read.winner >= 0 else None,
            "reason": REASON_NAMES[read.to_data().reason],
        }

    @property
    def waiting(self) -> str | None:
        """None, or why the position waits for a ``faceup`` record and how to write it."""
        if self._wait is None or self._wait_kind is None:
            return None
        return viewing.waiting_message(self.ruleset, self._wait, self._wait_kind)

    def _island(self, island: str) -> int:
        i = self.board.find_island(island) if isinstance(island, str) else None
        if i is None:
            raise BoardError(f"board {self.board.name}: no island {brief(island)}")
        return i

    def controller_of(self, island: str) -> str | None:
        """The color with an absolute majority on ``island`` (R2), or None.

        Raises ``BoardError`` for an island the board does not have.
        """
        owner = self._read().controller_of(self._island(island))
        return None if owner == NO_OWNER else self.colors[owner]

    def holders(self) -> dict[str, str | None]:
        """Who holds each place of the game now, for the balance report (``kanaloa report``): every island of
        the board, in the board's order, mapped to the player (named as in ``players``) whose color controls
        it (R2; Kahuna R16.4), or None when no color does.  Where each player plays two colors (R15) an island
        a player's second color controls is that player's too."""
        read = self._read()
        out: dict[str, str | None] = {}
        for index, name in enumerate(self.board.islands):
            owner = read.controller_of(index)
            out[name] = None if owner == NO_OWNER else self.players[self.ruleset.seat_of(owner)]
        return out

    def counts_on(self, island: str) -> dict[str, int]:
        """The bridges of each color on ``island``'s links, by color name (every color, zeros included).

        Raises ``BoardError`` for an island the board does not have.
        """
        counts = self._read().counts_on(self._island(island))
        return {self.colors[c]: counts[c] for c in self.ruleset.color_order}

    def points_if_scored(self, final: bool = False) -> dict[str, int]:
        """What a scoring now would give each color (R11, with ``final`` the final scoring's +1; Kahuna R16.6,
        R16.7)."""
        points = self._read().points_if_scored(final)
        return {self.colors[c]: points[c] for c in self.ruleset.color_order}

    # -- moves ----------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """The legal moves of the player to move, in action-code order ([] once over).

        Raises ``WaitingError`` while waiting for a ``faceup`` record, and
        ``MoveError`` in a viewer position when another color is to move
        (its hand is not known).
        """
        st = self.state
        if st.is_over:
            return []
        if self._viewer is not None and st.to_move != self._viewer:
            mover = self.colors[st.to_move]
            raise MoveError(f"moves: {mover}'s hand is not known to {self.viewer}'s position, so its moves "
                            f"cannot be listed; play its moves as they happen")
        seat = st.to_move
        return [Move.from_action(a, self.ruleset, seat) for a in st.legal_actions()]

    def move_of(self, action: int) -> Move:
        """The move of action code ``action`` by the player to move, in notation (a 2-player build with
        its color)."""
        return Move.from_action(action, self.ruleset, self._read().to_move)

    def parse(self, move: Move | str) -> Move:
        """``move`` read in this position's game (the rule set's notation); raises ``MoveError``."""
        return parse_move(move, self.ruleset)

    def decision_of(self, move: Move | str) -> int:
        """The action code of the choice that ``move`` records for the player to move: the legal action whose
        move (``move_of``) is ``move`` without what a record adds to the choice, the mover's name, the card
        an own draw brought, the card the deck turned up after a take, what a god token showed (a 2-player
        build keeps its color, which is part of the choice, R15.3).  This is the move as a search of the
        mover's view plays it.  Raises ``MoveError`` when the move is none of the mover's legal moves (or
        the position waits for a face-up record).
        """
        mv = self.parse(move)
        if self.is_over or self._wait is not None:
            raise MoveError(f"move {notation.QuotedMove(str(mv))!r}: no player is to choose a move here")
        keep_color = self.ruleset.pairs and mv.kind in (notation.PLACE, notation.SWAP)
        choice = dataclasses.replace(mv, refill=None, seen=(), takes=(), color=mv.color if keep_color else None,
                                     cards=() if mv.kind == notation.DRAW else mv.cards)
        for action in self.state.legal_actions():
            if self.move_of(action) == choice:
                return action
        raise MoveError(f"move {notation.QuotedMove(str(mv))!r}: not one of {self.to_move}'s legal moves")

    def record_of(self, move: Move | str, viewer: str) -> str:
        """The move ``move`` of this full position as ``viewer`` (a player, by its first color) writes it down at
        the table: the record a viewer position of that player takes for it (docs/records.md "Records in a
        viewer position"), in the notation of ``move_of`` (no mover's name, a 2-player build with its color).

        The mover's own record is the move itself with what the deck or a token showed it: the refill of a
        take, the card an own draw brought, the hand a ``ku`` showed, the cards PELE took.  Another player's
        leaves out what ``viewer`` does not see: a setup reveal's card, a face-down discard's, a draw's, a
        steal's unless ``viewer`` was robbed, a gift's unless it went to ``viewer``, the hand a ``ku`` showed,
        PELE's takes but ``viewer``'s own card; a take's refill is turned up for everyone.

        Raises ``PositionError`` for a viewer position (it does not know what the others see) or a
        ``viewer`` who is not playing, ``MoveError`` for a move that is not legal here or that names what
        only a record adds (``take X refill Y``, ``draw Y``, ``ku X sees ...``, ``pele takes ...``).
        """
        if self._viewer is not None:
            raise PositionError(f"viewer: this position is {self.viewer}'s view; only a full position knows how "
                                f"each player records a move")
        seat = self.seat_of("viewer", viewer)
        if seat is None:
            raise PositionError(f"viewer: {brief(viewer)} is not playing (the players are {', '.join(self.players)})")
        mv = self.parse(move)

        def fail(why: str) -> MoveError:
            return MoveError(f"move {notation.QuotedMove(str(mv))!r}: {why}")

        if self.is_over:
            raise fail("the game is over")
        state = self.state
        d = state.to_data()
        if mv.color is not None and mv.color not in self.ruleset.color_names_of(d.to_move):
            raise fail(f"it is {self.players[d.to_move]}'s turn, not {mv.color}'s")
        if mv.kind in _KIND_OF_RECORD and not mv.cards:
            shape = f"give {mv.target} CARD" if mv.kind == notation.GIVE else f"{mv.kind} CARD"
            raise fail(f"a move of a full position names its card: '{shape}'")
        added = self._record_added(mv)
        if added is not None:
            raise fail(added)
        action = mv.to_action(self.ruleset, d.to_move)
        if action not in state.legal_actions():
            raise fail(self._why(d, action) or "not a legal move here")
        return str(self._record_for(action, d, seat))

    def _record_for(self, action: int, d: StateData, seat: int) -> Move:
        """The record of the legal ``action`` (the state's data ``d``) that the player in ``seat`` writes."""
        full = self.move_of(action)
        own = d.to_move == seat
        kind, a, b = actions.kind_of(action), actions.arg_a(action), actions.arg_b(action)
        isl = self.board.islands
        if kind in (actions.REVEAL, actions.DISCARD, actions.DRAW):
            if not own:
                return dataclasses.replace(full, cards=())
            return dataclasses.replace(full, cards=(isl[d.deck[0]],)) if kind == actions.DRAW and d.deck else full
        if kind == actions.TAKE:
            return dataclasses.replace(full, refill=isl[d.deck[0]]) if d.deck else full
        if kind == actions.KU:
            hand = tuple(isl[x] for x, n in enumerate(d.hands[a]) for _ in range(n))
            return dataclasses.replace(full, seen=hand) if own else full
        if kind == actions.STEAL:
            return full if own or d.ku_target == seat else dataclasses.replace(full, cards=())
        if kind == actions.GIVE:
            return full if own or b == seat else dataclasses.replace(full, cards=())
        if kind == actions.PELE:
            # The cards PELE takes are drawn by the state's chance stream: the state after the move tells them.
            after = self.state.copy()
            after.apply(action)
            hands = after.to_data().hands
            taken: dict[int, str] = {}
            for step in range(1, d.players):
                other = (d.to_move + step) % d.players
                lost = [x for x, (n, m) in enumerate(zip(d.hands[other], hands[other], strict=True)) if m < n]
                if lost:
                    taken[other] = isl[lost[0]]
            if own:
                return dataclasses.replace(full, takes=tuple((self.players[v], card) for v, card in taken.items()))
            return dataclasses.replace(full, cards=(taken[seat],)) if seat in taken else full
        return full

    def move_strings(self) -> list[str]:
        """``legal_moves()`` in notation."""
        return [str(m) for m in self.legal_moves()]

    def push(self, action: int) -> None:
        """Apply an integer action code at once, **unchecked**.

        The caller guarantees that ``action`` is in the engine's legal
        actions; an illegal one corrupts the state silently.  Only full
        positions take it (a viewer position needs the records of ``play``).
        """
        if self._viewer is not None:
            raise MoveError(f"action {action}: a viewer position takes moves through play(), with records")
        self.state.apply(action)

    def play(self, move: Move | str) -> None:
        """Apply one move, checked, in place.

        ``move`` is a ``Move`` or its notation.  Malformed, illegal or (in a
        viewer position) impossible moves raise ``MoveError`` quoting the
        move and giving the reason; the position is then unchanged.  A legal
        move is checked against the engine's legal moves alone; the reference
        rules are asked only to say why a move is refused.
        """
        quoted = notation.QuotedMove(move.strip() if isinstance(move, str) else str(move))
        mv = self.parse(move)

        def fail(why: str) -> MoveError:
            return MoveError(f"move {quoted!r}: {why}")

        if self.is_over:
            raise fail("the game is over")
        if self._wait is not None:
            self._play_faceup(mv, fail)
            return
        mover = self.state.to_move
        if mv.color is not None and mv.color not in self.colors:
            raise fail(f"{mv.color} is not playing (the colors are {', '.join(self.colors)})")
        if self.ruleset.pairs:
            self._check_pair_color(mv, mover, fail)
        elif mv.color is not None and mv.color != self.colors[mover]:
            raise fail(f"it is {self.colors[mover]}'s turn, not {mv.color}'s")
        if mv.kind == notation.FACEUP:
            if self._viewer is None:
                raise fail("a full position turns cards face-up itself; 'faceup' records are for viewer positions")
            raise fail("no cards wait to be turned face-up")
        self._check_named_players(mv, fail)
        if self._viewer is None:
            self._play_full(mv, fail)
        else:
            self._play_seen(mv, self._viewer, fail)

    def _check_pair_color(self, mv: Move, mover: int, fail: Callable[[str], MoveError]) -> None:
        """R15.3: a build names its color, one of the mover's two (R15.1); any other move names at most the
        player.  Whether the turn may build with that color is the rules' (``_play_full``)."""
        player = self.players[mover]
        if mv.kind in (notation.PLACE, notation.SWAP):
            mine = self.ruleset.color_names_of(mover)
            if mv.color is None:
                raise fail(f"a build of a 2-player game names its color: '{mine[0]}: {mv.without_color()}' or "
                           f"'{mine[1]}: {mv.without_color()}' (R15.3)")
            if mv.color not in mine:
                reason = why_not_mover_color(ReferenceState(self.board, self._data()), self.colors.index(mv.color),
                                             self.colors)
                raise fail(reason or f"{mv.color} is not one of {player}'s colors (R15.1)")
        elif mv.color is not None and mv.color != player and mv.kind != notation.FACEUP:
            if mv.color in self.players:
                raise fail(f"it is {player}'s turn, not {mv.color}'s")
            article = "an" if mv.kind[0] in "aeiou" else "a"
            raise fail(f"only a build names a second color; {article} {mv.kind} is the player's move: write "
                       f"'{player}: {mv.without_color()}' or '{mv.without_color()}'")

    def _check_named_players(self, mv: Move, fail: Callable[[str], MoveError]) -> None:
        """The players a god token's move names (``ku``, ``give``, ``pele takes``) play, each named by its
        first color (R15.1)."""
        named = ([mv.target] if mv.target is not None else []) + [who for who, _ in mv.takes]
        for name in named:
            if name in self.players:
                continue
            if name in self.colors:
                owner = self.players[self.ruleset.seat_of(self.colors.index(name))]
                raise fail(f"{name} is {owner}'s second color; a player is named by its first color, {owner} (R15.1)")
            raise fail(f"{name} is not playing (the players are {', '.join(self.players)})")

    def _record_action(self, mv: Move, d: StateData) -> int:
        """The action of a move whose card is left out (another player's, unseen, or not named yet): a card
        of the hand it comes from stands for it."""
        kind = _KIND_OF_RECORD[mv.kind]
        viewer = self._viewer
        if kind == actions.STEAL:  # the card comes from the hand KU showed
            return actions.encode(actions.STEAL, viewing.stand_in(d, d.ku_target, viewer) if d.ku_target >= 0 else 0)
        card = viewing.stand_in(d, d.to_move, viewer)
        if kind == actions.GIVE:
            return actions.encode(actions.GIVE, card, self.players.index(str(mv.target)))
        return actions.encode(kind, card)

    def _why(self, data: StateData, action: int, hand_known: bool = True) -> str | None:
        """The reference's reason for refusing ``action`` in ``data`` (``why_illegal``): asked only on the way
        to an error."""
        return why_illegal(ReferenceState(self.board, data), action, self.colors, hand_known)

    def _play_full(self, mv: Move, fail: Callable[[str], MoveError]) -> None:
        """A move in a full position: every card is known, so records of unseen cards do not apply."""
        state = self.state
        if mv.kind in _KIND_OF_RECORD and not mv.cards:
            # The card is not named: only the reasons about the kind of move and the hand's size apply.
            d = state.to_data()
            reason = self._why(d, self._record_action(mv, d), hand_known=False)
            shape = f"give {mv.target} CARD" if mv.kind == notation.GIVE else f"{mv.kind} CARD"
            raise fail(reason or f"name the card: '{shape}'")
        action = mv.to_action(self.ruleset, state.to_move)
        if action not in state.legal_actions():
            raise fail(self._why(state.to_data(), action) or "not a legal move here")
        added = self._record_added(mv)
        if added is not None:
            raise fail(added)
        state.apply(action)

    @staticmethod
    def _record_added(mv: Move) -> str | None:
        """Why a full position refuses ``mv``: it names what only a viewer's record adds to a move (a draw's
        card, a take's refill, a ``ku``'s hand, PELE's takes), which the full position knows itself."""
        if mv.kind == notation.DRAW and mv.cards:
            return "this position knows the deck; write 'draw'"
        if mv.kind == notation.TAKE and mv.refill is not None:
            return f"this position knows the deck; write 'take {mv.cards[0]}'"
        if mv.kind == notation.KU and mv.seen:
            return f"this position knows every hand; write 'ku {mv.target}'"
        if mv.kind == notation.PELE and (mv.takes or mv.cards):
            return "this position draws PELE's takes from its seed (R14.7); write 'pele'"
        return None

    def _play_seen(self, mv: Move, viewer: int, fail: Callable[[str], MoveError]) -> None:
        """A move in a viewer position: the rules first, then the record against what the viewer knows.

        A move the filled-in state allows needs no reason: whatever the
        rules could refuse it for, without knowing the hidden cards, would
        refuse it in the filled-in state too.  Only a move the filled-in
        state refuses is asked of the reference (its hidden cards may be
        filled in otherwise, below, or the rules refuse it with a reason).
        """
        state = self.state
        d = state.to_data()
        mover = d.to_move
        if mv.kind in _KIND_OF_RECORD and not mv.cards:
            # A card the viewer does not see (or the viewer's own, not named yet): a card of the
            # filled-in hand stands for it, and only what is known of the hand, its size, counts.
            action, hand_known = self._record_action(mv, d), False
        else:
            # Another color's hand is seen from outside: its cards are the record's business (below).
            action, hand_known = mv.to_action(self.ruleset, mover), mover == viewer
        if action not in state.legal_actions():
            reason = self._why(d, action, hand_known)
            if reason is not None:
                raise fail(reason)
        changed, action = viewing.record(self.ruleset, viewer, d, mv, fail)
        after = self.engine.from_data(self.board, d) if changed else state.copy()
        if action not in after.legal_actions():
            raise fail(self._why(d, action) or "not a legal move here")
        before = after.round
        after.apply(action)
        if after.round != before:
            reached = after.to_data()
            kind = viewing.enter_wait(self.ruleset, reached, d, viewer)
            if kind is not None:
                self._state, self._wait, self._wait_kind = None, reached, kind
                return
        self._state = after

    def _play_faceup(self, mv: Move, fail: Callable[[str], MoveError]) -> None:
        """The only move of a waiting position: the ``faceup`` record."""
        assert self._wait is not None and self._wait_kind is not None and self._viewer is not None
        if mv.kind != notation.FACEUP:
            raise fail(f"the position waits: {self.waiting}")
        if mv.color is not None:
            raise fail("a 'faceup' record is no color's move; write it without a color")
        d = self._wait.copy()
        viewing.apply_faceup(self.ruleset, self._viewer, d, self._wait_kind, mv, fail)
        self._state = self.engine.from_data(self.board, d)
        self._wait = self._wait_kind = None

    # -- output ---------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The position in ``kanaloa-position/1`` (a fresh dict, canonical)."""
        return render(self.ruleset, self._data(), self._viewer)

    def dumps(self) -> str:
        """``to_json()`` as indented, stable JSON text (short lists and objects on one line)."""
        return dumps(self.to_json())

    def _repr_svg_(self) -> str:
        """The position's SVG picture (the game's ``svg`` face), which Jupyter shows for a position."""
        svg: str = self.ruleset.game_type.face("svg")(self)
        return svg

    def __repr__(self) -> str:
        who = f"seen by {self.viewer}" if self._viewer is not None else "full"
        moving = "game over" if self.is_over else f"{self.to_move} to move"
        return f"<Position {self.board.name} round {self.round!r}, {moving}, {who}>"
