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

from collections.abc import Callable, Sequence
from typing import Any, cast

from ..errors import BoardError, MoveError, OptionError, PositionError, brief, quote
from ..rules import actions as A
from ..rules.board import Board, load_board
from ..rules.engine import Engine, EngineState, load_engine
from ..rules.reference import ReferenceState, seat_standing, why_illegal, why_not_mover_color
from ..rules.state import (
    DEAL,
    GAME_KAHUNA,
    GAME_KANALOA,
    GAME_NAMES,
    GAMES,
    GODS_ISLANDS,
    KAHUNA_DEAL,
    KAHUNA_FACE_UP,
    KAHUNA_PLAYERS,
    NO_OWNER,
    PRESET_YUCATA,
    PRESETS,
    REASON_NAMES,
    ROUND_NAMES,
    TWO_PLAYERS,
    StateData,
    seat_of_color,
)
from . import notation as N
from . import viewer as V
from .format import DEFAULT_PAIRS, FORMAT, SEED_LIMIT, dumps, is_int, pair_colors, parse_json, read, render
from .notation import COLORS, KAHUNA_COLORS, KANALOA, Move, color_order, parse_move, seat_colors

__all__ = ["FORMAT", "Position", "WaitingError"]

# Moves whose record may leave out the card (another player's, unseen), and their action kinds.
_KIND_OF_RECORD = {N.DISCARD: A.DISCARD, N.REVEAL: A.REVEAL, N.STEAL: A.STEAL, N.GIVE: A.GIVE}


def color_pairs(text: str) -> tuple[tuple[str, str], ...]:
    """The ``--colors`` option of a 2-player game, ``red+blue,green+yellow``, as pairs by seat.

    Raises ``OptionError`` naming ``--colors`` for another shape, a color
    that is not one of the game's, or a color named twice (``format.pair_colors``).
    """
    where = f"--colors {quote(text)}"
    shape = "write each player's two colors joined by '+', the players by ',': red+blue,green+yellow"
    parts = text.split(",")
    if len(parts) != TWO_PLAYERS:
        raise OptionError(f"{where}: {len(parts)} player(s); a 2-player game has 2; {shape}")
    pairs = []
    for part in parts:
        pair = [c.strip().lower() for c in part.split("+")]
        if len(pair) != 2 or not all(pair):
            raise OptionError(f"{where}: {quote(part.strip())} is not two colors; {shape}")
        pairs.append((pair[0], pair[1]))
    pair_colors(pairs, where, OptionError)
    return tuple(pairs)


class WaitingError(MoveError):
    """The viewer position waits for a ``faceup`` record before any other move."""


class Position:
    """A game state with the rules of the engine and the knowledge of a viewer (or all).

    Build one with ``Position.new`` or ``Position.from_json``; see the module
    docstring for viewer positions and waiting.
    """

    __slots__ = ("_game", "_gods", "_players", "_state", "_viewer", "_wait", "_wait_kind", "board", "colors",
                 "engine")

    def __init__(self, board: Board, engine: Engine, colors: tuple[str, ...], viewer: int | None,
                 state: EngineState | None = None, wait: StateData | None = None,
                 wait_kind: V.WaitKind | None = None, players: int | None = None,
                 game: int = GAME_KANALOA, gods: bool = False) -> None:
        self.board = board
        self.engine = engine
        self.colors = colors
        self._players = len(colors) if players is None else players
        self._viewer = viewer
        self._state = state
        self._wait = wait
        self._wait_kind = wait_kind
        self._game = game
        self._gods = gods

    # -- construction -------------------------------------------------------

    @classmethod
    def new(cls, players: int | None = None, seed: int = 0, preset: str = "yucata", board: str | Board | None = None,
            engine: Engine | None = None, colors: Sequence[Sequence[str]] | None = None,
            game: str = "kanaloa", gods: bool = False) -> Position:
        """A freshly dealt full position in the setup (R3), dealt from ``seed``.

        ``players`` is 4 by default.  ``colors`` gives each player's two
        colors in a 2-player game (R15.1), by seat, first color first:
        ``(("red", "blue"), ("green", "yellow"))`` by default.  ``board`` is
        ``oro`` by default.

        ``game="kahuna"`` deals Kahuna (R16.2) instead, in round 1: 2 players,
        white and black, on board ``kahuna`` by default; it has no presets
        (``preset`` stays ``"yucata"``, the default) and no ``colors``.

        ``gods=True`` deals Kanaloa with Might of the Gods (R14.1): the cards
        as without it, then a god token on each island; the board must have
        16 islands.

        Raises ``OptionError`` for a bad game, player count, seed, preset,
        colors or gods (a board without 16 islands, Kahuna) and
        ``BoardError`` for a bad board.
        """
        if not isinstance(game, str) or game not in GAMES:
            raise OptionError(f"game {brief(game)}: unknown; choose one of {', '.join(GAMES)}")
        if not isinstance(gods, bool):
            raise OptionError(f"gods {brief(gods)}: must be true (Might of the Gods, R14) or false")
        if GAMES[game] == GAME_KAHUNA:
            if gods:
                raise OptionError("gods: Might of the Gods is a variant of Kanaloa, not of Kahuna (R14, R16.9)")
            return cls._new_kahuna(players, seed, preset, board, engine, colors)
        players = 4 if players is None else players
        board = "oro" if board is None else board
        if not is_int(players) or players not in (2, 3, 4):
            raise OptionError(f"players {brief(players)}: the game is for 2, 3 or 4 players")
        if players == TWO_PLAYERS:
            names = pair_colors(DEFAULT_PAIRS if colors is None else colors, "colors", OptionError)
        elif colors is not None:
            raise OptionError(f"colors: only a 2-player game gives each player two colors (R15.1); with {players} "
                              f"players each plays one color")
        else:
            names = COLORS[:players]
        if not is_int(seed) or not 0 <= seed < SEED_LIMIT:
            raise OptionError(f"seed {brief(seed)}: must be an integer from 0 to 2**64-1")
        if not isinstance(preset, str) or preset not in PRESETS:
            raise OptionError(f"preset {brief(preset)}: unknown; choose one of {', '.join(PRESETS)}")
        bd = board if isinstance(board, Board) else load_board(board)
        if gods:
            cls._check_gods_board(bd)
        engine = engine or load_engine()
        try:
            state = engine.deal(bd, players, PRESETS[preset], seed, gods=gods)
        except ValueError:  # the engine's only refusal of checked options: too few cards for every hand (R3)
            raise OptionError(f"players {players}: {players} hands of {DEAL} cards need more than the "
                              f"{bd.n_cards} cards of board {bd.name} (R3)") from None
        return cls(bd, engine, names, None, state, players=players, gods=gods)

    @staticmethod
    def _check_gods_board(bd: Board) -> None:
        """R14.1: a game with the gods needs a board of 16 islands, none of them called KANALOA (R14.5)."""
        if bd.n_islands != GODS_ISLANDS:
            raise OptionError(f"board {bd.name}: Might of the Gods lays one of its {GODS_ISLANDS} god tokens on each "
                              f"island (R14.1); the board has {bd.n_islands} islands")
        if bd.find_island(KANALOA) is not None:
            raise OptionError(f"board {bd.name}: an island is called {KANALOA}, the name of a god token: a build "
                              f"could not say which it pays (R14.5)")

    @classmethod
    def _new_kahuna(cls, players: int | None, seed: int, preset: str, board: str | Board | None,
                    engine: Engine | None, colors: Sequence[Sequence[str]] | None) -> Position:
        """A freshly dealt full position of Kahuna (R16.2), in round 1; see ``new``."""
        if players is not None and (not is_int(players) or players != KAHUNA_PLAYERS):
            raise OptionError(f"players {brief(players)}: Kahuna is for 2 players, white and black (R16.1)")
        if colors is not None:
            raise OptionError("colors: in Kahuna each player plays one color, white or black (R16.1); only a 2-player "
                              "game of Kanaloa gives each player two colors (R15.1)")
        if not is_int(seed) or not 0 <= seed < SEED_LIMIT:
            raise OptionError(f"seed {brief(seed)}: must be an integer from 0 to 2**64-1")
        if preset != "yucata":
            raise OptionError(f"preset {brief(preset)}: Kahuna has no presets (R13 does not apply, R16.9); each "
                              f"player has 25 bridges (R16.1)")
        bd = board if isinstance(board, Board) else load_board("kahuna" if board is None else board)
        engine = engine or load_engine()
        try:
            state = engine.deal(bd, KAHUNA_PLAYERS, PRESET_YUCATA, seed, game=GAME_KAHUNA)
        except ValueError:  # the engine's only refusal of checked options: too few cards (R16.2)
            need = KAHUNA_PLAYERS * KAHUNA_DEAL + KAHUNA_FACE_UP
            raise OptionError(f"board {bd.name}: Kahuna deals {KAHUNA_DEAL} cards to each of 2 players and turns "
                              f"{KAHUNA_FACE_UP} face-up, {need} cards; the board has {bd.n_cards} (R16.2)") from None
        return cls(bd, engine, KAHUNA_COLORS, None, state, players=KAHUNA_PLAYERS, game=GAME_KAHUNA)

    @classmethod
    def from_json(cls, obj: str | bytes | bytearray | dict[str, Any], engine: Engine | None = None,
                  boards: Callable[[str], Board] = load_board) -> Position:
        """Read a ``kanaloa-position/1`` document (text or parsed JSON).

        ``boards`` gives the board the ``board`` field names (by default a
        built-in board or a board file, ``load_board``; a server passes one
        that reads no file).  Raises ``PositionError`` naming the first bad
        field and saying why (``kanaloa.position.format``).
        """
        doc = parse_json(obj) if isinstance(obj, (str, bytes, bytearray)) else obj
        got = read(doc, boards)
        engine = engine or load_engine()
        players, game, gods = got.data.players, got.data.game, got.data.gods
        if got.wait is not None:
            return cls(got.board, engine, got.colors, got.viewer, None, got.data, got.wait, players=players,
                       game=game, gods=gods)
        return cls(got.board, engine, got.colors, got.viewer, engine.from_data(got.board, got.data),
                   players=players, game=game, gods=gods)

    def copy(self) -> Position:
        """An independent copy."""
        return Position(
            self.board, self.engine, self.colors, self._viewer,
            None if self._state is None else self._state.copy(),
            None if self._wait is None else self._wait.copy(), self._wait_kind, self._players, self._game,
            self._gods,
        )

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
        board = self.board
        return Position.from_json(render(board, self.colors, self._data(), seat), self.engine, boards=lambda _: board)

    # -- what the position holds --------------------------------------------

    @property
    def game(self) -> str:
        """The rule set: ``"kanaloa"`` or ``"kahuna"`` (R16)."""
        return GAME_NAMES[self._game]

    @property
    def gods(self) -> bool:
        """Whether the game is played with Might of the Gods (R14)."""
        return self._gods

    @property
    def players(self) -> tuple[str, ...]:
        """The players in seat order, each named by its (first) color."""
        return self.colors[: self._players]

    def colors_of(self, player: str) -> tuple[str, ...]:
        """The colors ``player`` plays, its first color first: one, or two in a 2-player game (R15.1).

        Raises ``PositionError`` when ``player`` names no player.
        """
        seat = self.seat_of("player", player)
        if seat is None:
            raise PositionError(f"player: {brief(player)} is not playing (the players are {', '.join(self.players)})")
        return seat_colors(self.colors, self._players, seat, self._game)

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
            owner = self.players[seat_of_color(self.colors.index(name), self._players)]
            raise PositionError(f"{field}: {name} is {owner}'s second color; a player is named by its first color, "
                                f"{owner} (R15.1)")
        return None

    @property
    def live(self) -> EngineState:
        """The engine state to read the table from (bridges, control, scores, the turn).

        It is ``state`` itself, or while the position waits for a ``faceup``
        record, a reference state over the waiting state.  Read it; play
        through ``play`` and ``push``.
        """
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
    def data(self) -> StateData:
        """A fresh copy of the complete (for a viewer: filled-in) game state."""
        return self._wait.copy() if self._wait is not None else self._data()

    @property
    def state(self) -> EngineState:
        """The engine state itself (not a copy): what the position holds, checked once when it was read.

        In a viewer position it is the filled-in state.  Raises
        ``WaitingError`` while the position waits for a ``faceup`` record.
        """
        if self._state is None:
            raise WaitingError(self.waiting)
        return self._state

    def state_for(self, engine: Engine) -> EngineState:
        """The state in ``engine``: the position's own when it runs on ``engine``, else a converted copy.

        Nothing is checked again.  Raises ``WaitingError`` while the position
        waits for a ``faceup`` record.
        """
        state = self.state
        if engine is self.engine:
            return state
        return engine.from_data(self.board, state.to_data())

    @property
    def viewer(self) -> str | None:
        """The color whose knowledge this is, or None for a full position."""
        return None if self._viewer is None else self.colors[self._viewer]

    @property
    def to_move(self) -> str | None:
        """The color to move; None once the game is over."""
        live = self.live
        return None if live.is_over else self.colors[live.to_move]

    @property
    def round(self) -> int | str:
        """``0``, ``1``, ``2``, ``"final"`` or ``"over"``, as in JSON (in Kahuna ``1``, ``2``, ``3``,
        ``"final"`` or ``"over"``)."""
        return cast("int | str", ROUND_NAMES[self.live.round])

    @property
    def is_over(self) -> bool:
        return self.live.is_over

    @property
    def scores(self) -> dict[str, int]:
        """Points per color (with two players, each player's first color and then its second)."""
        points = self.live.scores
        return {self.colors[c]: points[c] for c in color_order(self._players, self._game)}

    @property
    def pairs(self) -> dict[str, tuple[int, int]] | None:
        """In a 2-player game, each player's score (R15.5): the points of its weaker color, then of its
        other color; None with 3 or 4 players and in Kahuna (one color each, R16.1)."""
        if self._players != TWO_PLAYERS or self._game != GAME_KANALOA:
            return None
        points = self.live.scores
        out = {}
        for seat, player in enumerate(self.players):
            weak, strong = seat_standing(points, seat, self._players)
            out[player] = (weak, strong)
        return out

    @property
    def outcome(self) -> dict[str, Any] | None:
        """None until the game is over; then ``{"ranking", "winner", "reason"}`` (R8, R12); the winner is
        None when a game of Kahuna ends without one (R16.7)."""
        live = self.live
        if not live.is_over:
            return None
        return {
            "ranking": [self.colors[s] for s in live.ranking],
            "winner": self.colors[live.winner] if live.winner >= 0 else None,
            "reason": REASON_NAMES[live.to_data().reason],
        }

    @property
    def waiting(self) -> str | None:
        """None, or why the position waits for a ``faceup`` record and how to write it."""
        if self._wait is None or self._wait_kind is None:
            return None
        return V.waiting_message(self.board, self._wait, self._wait_kind)

    def controller_of(self, island: str) -> str | None:
        """The color with an absolute majority on ``island`` (R2), or None.

        Raises ``BoardError`` for an island the board does not have.
        """
        i = self.board.find_island(island) if isinstance(island, str) else None
        if i is None:
            raise BoardError(f"board {self.board.name}: no island {brief(island)}")
        owner = self.live.controller_of(i)
        return None if owner == NO_OWNER else self.colors[owner]

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
        builders = self._builders(st.to_move)
        return [Move.from_action(a, self.board, builders=builders, game=self._game, players=self.players)
                for a in st.legal_actions()]

    def _builders(self, seat: int) -> tuple[str, ...]:
        """The names of the colors ``seat`` builds with (two with two players of Kanaloa)."""
        return seat_colors(self.colors, self._players, seat, self._game)

    def move_of(self, action: int) -> Move:
        """The move of action code ``action`` by the player to move, in notation (a 2-player build with
        its color)."""
        return Move.from_action(action, self.board, builders=self._builders(self.live.to_move), game=self._game,
                                players=self.players)

    def parse(self, move: Move | str) -> Move:
        """``move`` read in this position's game (its notation, R16.3 in Kahuna, the gods' moves with R14);
        raises ``MoveError``."""
        return parse_move(move, self.board, self._game, self._gods)

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
        move and giving the reason; the position is then unchanged.
        """
        quoted = N.QuotedMove(move.strip() if isinstance(move, str) else str(move))
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
        if self._players == TWO_PLAYERS and self._game == GAME_KANALOA:
            self._check_two_player_color(mv, mover, fail)
        elif mv.color is not None and mv.color != self.colors[mover]:
            raise fail(f"it is {self.colors[mover]}'s turn, not {mv.color}'s")
        if mv.kind == N.FACEUP:
            if self._viewer is None:
                raise fail("a full position turns cards face-up itself; 'faceup' records are for viewer positions")
            raise fail("no cards wait to be turned face-up")
        self._check_named_players(mv, mover, fail)
        if self._viewer is None:
            self._play_full(mv, fail)
        else:
            self._play_seen(mv, self._viewer, fail)

    def _check_two_player_color(self, mv: Move, mover: int, fail: Callable[[str], MoveError]) -> None:
        """R15.3: a build names its color, and the reference says whether the mover builds with it (R15.1);
        any other move names at most the player."""
        player = self.players[mover]
        if mv.kind in (N.PLACE, N.SWAP):
            if mv.color is None:
                mine = self._builders(mover)
                raise fail(f"a build of a 2-player game names its color: '{mine[0]}: {mv.without_color()}' or "
                           f"'{mine[1]}: {mv.without_color()}' (R15.3)")
            reason = why_not_mover_color(ReferenceState(self.board, self._data()), self.colors.index(mv.color),
                                         self.colors)
            if reason is not None:
                raise fail(reason)
        elif mv.color is not None and mv.color != player and mv.kind != N.FACEUP:
            if mv.color in self.players:
                raise fail(f"it is {player}'s turn, not {mv.color}'s")
            article = "an" if mv.kind[0] in "aeiou" else "a"
            raise fail(f"only a build names a second color; {article} {mv.kind} is the player's move: write "
                       f"'{player}: {mv.without_color()}' or '{mv.without_color()}'")

    def _check_named_players(self, mv: Move, mover: int, fail: Callable[[str], MoveError]) -> None:
        """The players a god token's move names (``ku``, ``give``, ``pele takes``) play, each named by its
        first color (R15.1)."""
        named = ([mv.target] if mv.target is not None else []) + [who for who, _ in mv.takes]
        for name in named:
            if name in self.players:
                continue
            if name in self.colors:
                owner = self.players[seat_of_color(self.colors.index(name), self._players)]
                raise fail(f"{name} is {owner}'s second color; a player is named by its first color, {owner} (R15.1)")
            raise fail(f"{name} is not playing (the players are {', '.join(self.players)})")

    def _record_action(self, mv: Move, d: StateData) -> int:
        """The action of a move whose card is left out (another player's, unseen, or not named yet): a card
        of the hand it comes from stands for it."""
        kind = _KIND_OF_RECORD[mv.kind]
        viewer = self._viewer
        if kind == A.STEAL:  # the card comes from the hand KU showed
            return A.encode(A.STEAL, V.stand_in(d, d.ku_target, viewer) if d.ku_target >= 0 else 0)
        card = V.stand_in(d, d.to_move, viewer)
        if kind == A.GIVE:
            return A.encode(A.GIVE, card, self.players.index(str(mv.target)))
        return A.encode(kind, card)

    def _why(self, data: StateData, action: int, hand_known: bool = True) -> str | None:
        """The reference's reason for refusing ``action`` in ``data`` (``why_illegal``)."""
        return why_illegal(ReferenceState(self.board, data), action, self.colors, hand_known)

    def _play_full(self, mv: Move, fail: Callable[[str], MoveError]) -> None:
        """A move in a full position: every card is known, so records of unseen cards do not apply."""
        state = self.state
        if mv.kind in _KIND_OF_RECORD and not mv.cards:
            # The card is not named: only the reasons about the kind of move and the hand's size apply.
            reason = self._why(state.to_data(), self._record_action(mv, state.to_data()), hand_known=False)
            shape = f"give {mv.target} CARD" if mv.kind == N.GIVE else f"{mv.kind} CARD"
            raise fail(reason or f"name the card: '{shape}'")
        action = mv.to_action(self.board, self._builders(state.to_move), self.players)
        if action not in state.legal_actions():
            raise fail(self._why(state.to_data(), action) or "not a legal move here")
        if mv.kind == N.DRAW and mv.cards:
            raise fail("this position knows the deck; write 'draw'")
        if mv.kind == N.TAKE and mv.refill is not None:
            raise fail(f"this position knows the deck; write 'take {mv.cards[0]}'")
        if mv.kind == N.KU and mv.seen:
            raise fail(f"this position knows every hand; write 'ku {mv.target}'")
        if mv.kind == N.PELE and (mv.takes or mv.cards):
            raise fail("this position draws PELE's takes from its seed (R14.7); write 'pele'")
        state.apply(action)

    def _play_seen(self, mv: Move, viewer: int, fail: Callable[[str], MoveError]) -> None:
        """A move in a viewer position: the rules first, then the record against what the viewer knows."""
        board = self.board
        d = self.state.to_data()
        mover = d.to_move
        if mv.kind in _KIND_OF_RECORD and not mv.cards:
            # A card the viewer does not see (or the viewer's own, not named yet): a card of the
            # filled-in hand stands for it, and only what is known of the hand, its size, counts.
            action, hand_known = self._record_action(mv, d), False
        else:
            # Another color's hand is seen from outside: its cards are the record's business (below).
            action, hand_known = mv.to_action(board, self._builders(mover), self.players), mover == viewer
        reason = self._why(d, action, hand_known)
        if reason is not None:
            raise fail(reason)
        changed, action = V.record(board, self.colors, viewer, d, mv, fail, self._builders(mover))
        state = self.engine.from_data(board, d) if changed else self.state.copy()
        if action not in state.legal_actions():
            raise fail(self._why(d, action) or "not a legal move here")
        before = state.round
        state.apply(action)
        if state.round != before:
            after = state.to_data()
            kind = V.enter_wait(after, d, viewer)
            if kind is not None:
                self._state, self._wait, self._wait_kind = None, after, kind
                return
        self._state = state

    def _play_faceup(self, mv: Move, fail: Callable[[str], MoveError]) -> None:
        """The only move of a waiting position: the ``faceup`` record."""
        assert self._wait is not None and self._wait_kind is not None and self._viewer is not None
        if mv.kind != N.FACEUP:
            raise fail(f"the position waits: {self.waiting}")
        if mv.color is not None:
            raise fail("a 'faceup' record is no color's move; write it without a color")
        d = self._wait.copy()
        V.apply_faceup(self.board, self.colors, self._viewer, d, self._wait_kind, mv, fail)
        self._state = self.engine.from_data(self.board, d)
        self._wait = self._wait_kind = None

    # -- output ---------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The position in ``kanaloa-position/1`` (a fresh dict, canonical)."""
        return render(self.board, self.colors, self._data(), self._viewer)

    def dumps(self) -> str:
        """``to_json()`` as indented, stable JSON text (short lists and objects on one line)."""
        return dumps(self.to_json())

    def __repr__(self) -> str:
        who = f"seen by {self.viewer}" if self._viewer is not None else "full"
        moving = "game over" if self.is_over else f"{self.to_move} to move"
        return f"<Position {self.board.name} round {self.round!r}, {moving}, {who}>"
