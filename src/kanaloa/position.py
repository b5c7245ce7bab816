"""``Position``: the Python API over a game state, and the ``kanaloa-position/1`` format.

A position is a game state seen by someone:

- a **full** position knows every card (the deck order, every hand, every
  face-down discard); simulations and tests use it;
- a **viewer** position holds what one color knows at the table.  Inside it
  keeps a complete engine state in which every card the viewer cannot see is
  filled in one deterministic way (see *Filling in* below); printing it shows
  only what the viewer knows.

JSON fields (INTERFACE.md "Position format"; everything listed there holds).
The choices that document leaves open are made here:

``setup`` (only in round ``0``)::

    {"chosen": ["red", "green"], "cards": {"red": "DALI", "green": "ORO"}}

  ``chosen`` lists the colors that have set their card aside, in seat order
  (seats choose in turn, R3, so it is always the first seats); ``cards`` gives
  every chosen card in a full position and only the viewer's own in a viewer
  position.  ``to_move`` is the next color to choose.

``hands.<color>``: ``{"cards": [...], "public": [...]}`` where the position
  knows the hand, ``{"count": N, "public": [...]}`` otherwise.  ``count`` may
  also be given beside ``cards`` (it must agree); ``public`` defaults to ``[]``.

``discard.hidden_by``: printed for every color in a full position (empty
  lists included), for the viewer alone in a viewer position.

``seed`` (full positions only): the state of the chance stream
  (``StateData.rng``) from which later reshuffles (R9) are drawn.  It
  defaults to ``0`` when absent.

Optional on input, with defaults: ``rules`` (yucata), ``viewer`` (null),
``bridges`` ({}), ``discard`` (empty), ``scores`` (0 each), ``turn`` (nothing
played), ``final_round`` ({"done": [], "passed": []}), ``setup``
({"chosen": []}), ``seed`` (0).  Unknown fields are errors.  Output is
canonical: cards sorted in the board's island order within hands, ``public``
and ``hidden_by``; bridges keyed by link name in the board file's order; the
deck top first; ``face_up`` and ``discard.open`` in their real order.

**Filling in** (viewer positions).  The unknown pool (every card the viewer
cannot place, as counts per island, docs/engine.md "Knowledge") is dealt in
island order into: the other hands' non-public parts (seat order), the other
colors' setup choices, the others' face-down discards (all of them counted
under the first other color in seat order: a viewer knows only their total),
then the deck.  When another color's move shows a card (``green:
ALOA-BAFI/ALOA``), a take's refill or the viewer's own draw names one, or a
``faceup`` record lists some, the card is exchanged into place from another
unknown slot first; if no unknown card of that island exists the move is
impossible and ``play`` raises ``MoveError``.

**Waiting.**  A viewer does not see the cards the deck turns face-up at the
end of the setup (R3: the other colors' chosen cards and the top-up) or after
a reshuffle (R9).  The position then *waits*: ``waiting`` holds a message,
``legal_moves()`` raises ``WaitingError`` (a ``MoveError``) with it, and the
only playable move is the record ``faceup CARD CARD CARD CARD`` (fewer when
fewer cards are turned up), in the order they lie: after the setup the
chosen cards in seat order, then the cards from the deck.  In JSON a waiting
position is round ``0`` with every color chosen (``to_move`` is then the
first color), or round 2 with no ``face_up`` card while the deck is not
empty and the turn has not begun.

**Consistency.**  Beyond each field's type, a position must be one the rules
can reach: in the setup each hand holds the 4 dealt cards less the one set
aside, with nothing known or discarded (R3); no color has points before round
1 ends, nor more than the scorings can give (R11); the player to move began
the turn with at most 5 cards (hand + ``played`` + a discard, R4, R5);
``remove_on`` lists what the last place or swap queued (R7: at most the two
ends of the mover's link, in island order, where the mover leads or ties with
a single rival bridge, after a card was played); the final round has no deck
and no face-up cards (R10); a ``result`` agrees with the bridges and scores
(R8, R12).  Such checks keep every accepted position playable: it has a legal
move, or it is over, or it waits for a record.

In a viewer position ``legal_moves()`` lists the viewer's choices: ``take X``
and ``draw`` stand for the choice, while ``play`` needs the record of what the
deck turned up (``take X refill Y`` when the deck fills the gap, ``draw Y``).
Only the viewer's own moves can be listed; another color's hand is not known.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from . import actions as A
from . import notation as N
from .board import Board, load_board
from .engine import Engine, EngineState, load_engine
from .errors import BoardError, MoveError, OptionError, PositionError
from .notation import COLORS, Move, parse_move
from .state import (
    DEAL,
    FACE_UP,
    HAND_LIMIT,
    NO_CARD,
    NO_OWNER,
    PRESET_NAMES,
    PRESET_TABLETOP,
    PRESETS,
    REASON_ELEVEN,
    REASON_NAMES,
    ROUND_1,
    ROUND_2,
    ROUND_FINAL,
    ROUND_NAMES,
    ROUND_OVER,
    ROUND_SETUP,
    TABLETOP_BRIDGES,
    WIN_ISLANDS,
    StateData,
)

FORMAT = "kanaloa-position/1"
MAX_HAND = HAND_LIMIT + 1  # R4, R5: at most 4 after the play phase, then one card drawn
FIELDS = (
    "format", "board", "rules", "players", "viewer", "to_move", "round", "bridges", "hands",
    "face_up", "deck", "discard", "scores", "turn", "final_round", "setup", "result", "seed",
)
_ROUND_OF_NAME = {name: code for code, name in ROUND_NAMES.items()}
_REASON_OF_NAME = {name: code for code, name in REASON_NAMES.items()}
_SEED_LIMIT = 1 << 64

WAIT_SETUP, WAIT_RESHUFFLE = "setup", "reshuffle"


class WaitingError(MoveError):
    """The viewer position waits for a ``faceup`` record before any other move."""


def _fail(field: str, why: str) -> PositionError:
    return PositionError(f"{field}: {why}")


class _DuplicateKey(Exception):
    """A JSON object names one key twice (the standard parser would keep the last silently)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def _parse_json(text: str | bytes | bytearray) -> Any:
    """Parse position text; anything that is not a JSON document is a ``PositionError``."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8-sig")  # JSON text is UTF-8 (RFC 8259); a BOM is tolerated
        except UnicodeDecodeError as exc:
            raise _fail("position", f"not UTF-8 text (byte {exc.start} cannot be decoded)") from None
    try:
        return json.loads(text, object_pairs_hook=_unique_keys)
    except _DuplicateKey as exc:
        raise _fail("position", f"the key {_brief(exc.args[0])} appears twice in one object; a position says "
                                f"each thing once") from None
    except json.JSONDecodeError as exc:
        raise _fail("position", f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    except RecursionError:
        raise _fail("position", "not a position: the JSON is nested far too deeply") from None
    except ValueError as exc:  # e.g. a number with thousands of digits
        raise _fail("position", f"not valid JSON ({exc})") from None


def _brief(value: Any) -> str:
    """``repr(value)`` cut short, so that a message quoting user input stays one readable line."""
    text = repr(value)
    return text if len(text) <= 60 else text[:56] + " ..."


def _json_type(value: Any) -> str:
    """The JSON name of the type of ``value`` (what a user wrote), for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Position:
    """A game state with the rules of the engine and the knowledge of a viewer (or all).

    Build one with ``Position.new`` or ``Position.from_json``; see the module
    docstring for the format, viewer positions and waiting.
    """

    __slots__ = ("board", "engine", "colors", "_viewer", "_state", "_wait", "_wait_kind")

    def __init__(self, board: Board, engine: Engine, colors: tuple[str, ...], viewer: int | None,
                 state: EngineState | None = None, wait: StateData | None = None,
                 wait_kind: str | None = None) -> None:
        self.board = board
        self.engine = engine
        self.colors = colors
        self._viewer = viewer
        self._state = state
        self._wait = wait
        self._wait_kind = wait_kind

    # -- construction -------------------------------------------------------

    @classmethod
    def new(cls, players: int = 4, seed: int = 0, preset: str = "yucata", board: str | Board = "oro",
            engine: Engine | None = None) -> "Position":
        """A freshly dealt full position in the setup (R3), dealt from ``seed``.

        Raises ``OptionError`` for a bad player count, seed or preset and
        ``BoardError`` for a bad board.
        """
        if not _is_int(players) or players not in (3, 4):
            raise OptionError(f"players {players!r}: the game is for 3 or 4 players")
        if not _is_int(seed) or not 0 <= seed < _SEED_LIMIT:
            raise OptionError(f"seed {seed!r}: must be an integer from 0 to 2**64-1")
        if not isinstance(preset, str) or preset not in PRESETS:
            raise OptionError(f"preset {preset!r}: unknown; choose one of {', '.join(PRESETS)}")
        bd = board if isinstance(board, Board) else load_board(board)
        if players * DEAL > bd.n_cards:
            raise OptionError(f"players {players}: {players} hands of {DEAL} cards need more than the "
                              f"{bd.n_cards} cards of board {bd.name} (R3)")
        engine = engine or load_engine()
        state = engine.deal(bd, players, PRESETS[preset], seed)
        return cls(bd, engine, COLORS[:players], None, state)

    @classmethod
    def from_json(cls, obj: str | bytes | dict, engine: Engine | None = None) -> "Position":
        """Read a ``kanaloa-position/1`` document (text or parsed JSON).

        Raises ``PositionError`` naming the first bad field and saying why.
        """
        if isinstance(obj, (str, bytes, bytearray)):
            obj = _parse_json(obj)
        board, colors, viewer, data, wait_kind = _Reader(obj).read()
        engine = engine or load_engine()
        if wait_kind is not None:
            return cls(board, engine, colors, viewer, None, data, wait_kind)
        return cls(board, engine, colors, viewer, engine.from_data(board, data))

    def copy(self) -> "Position":
        """An independent copy."""
        return Position(
            self.board, self.engine, self.colors, self._viewer,
            None if self._state is None else self._state.copy(),
            None if self._wait is None else self._wait.copy(), self._wait_kind,
        )

    def as_viewer(self, color: str) -> "Position":
        """This position as ``color`` sees it (a viewer position).

        Raises ``PositionError`` when ``color`` is not playing, or when this
        is already another color's view.
        """
        if color not in self.colors:
            raise PositionError(f"viewer: {color!r} is not playing (the colors are {', '.join(self.colors)})")
        seat = self.colors.index(color)
        if self._viewer is not None:
            if self._viewer != seat:
                raise PositionError(
                    f"viewer: this position is {self.viewer}'s view; it cannot show what {color} knows"
                )
            return self.copy()
        return Position.from_json(_render(self.board, self.colors, self._data(), seat), self.engine)

    # -- what the position holds --------------------------------------------

    def _data(self) -> StateData:
        return self._wait if self._wait is not None else self._state.to_data()

    @property
    def data(self) -> StateData:
        """A fresh copy of the complete (for a viewer: filled-in) game state."""
        return self._wait.copy() if self._wait is not None else self._state.to_data()

    @property
    def state(self) -> Any:
        """The engine state itself (not a copy), for the search.

        In a viewer position it is the filled-in state.  Raises
        ``WaitingError`` while the position waits for a ``faceup`` record.
        """
        if self._state is None:
            raise WaitingError(self.waiting)
        return self._state

    @property
    def viewer(self) -> str | None:
        """The color whose knowledge this is, or None for a full position."""
        return None if self._viewer is None else self.colors[self._viewer]

    @property
    def to_move(self) -> str:
        return self.colors[self._data().to_move]

    @property
    def round(self) -> int | str:
        """``0``, ``1``, ``2``, ``"final"`` or ``"over"``, as in JSON."""
        return ROUND_NAMES[self._data().round]

    @property
    def is_over(self) -> bool:
        return self._data().round == ROUND_OVER

    @property
    def scores(self) -> dict[str, int]:
        d = self._data()
        return {c: d.scores[s] for s, c in enumerate(self.colors)}

    @property
    def outcome(self) -> dict | None:
        """None until the game is over; then ``{"ranking", "winner", "reason"}`` (R8, R12)."""
        d = self._data()
        if d.round != ROUND_OVER:
            return None
        return {
            "ranking": [self.colors[s] for s in d.ranking],
            "winner": self.colors[d.winner],
            "reason": REASON_NAMES[d.reason],
        }

    @property
    def waiting(self) -> str | None:
        """None, or why the position waits for a ``faceup`` record and how to write it."""
        if self._wait_kind is None:
            return None
        k = _faceup_count(self._wait, self._wait_kind)
        template = "faceup " + " ".join(["CARD"] * k)
        if self._wait_kind == WAIT_SETUP:
            return (f"every color has chosen its card; record the {k} cards turned face-up "
                    f"with '{template}' (R3)")
        return f"the deck turned up {k} unseen card(s); record them with '{template}' (R9)"

    def controller_of(self, island: str) -> str | None:
        """The color with an absolute majority on ``island`` (R2), or None.

        Raises ``BoardError`` for an island the board does not have.
        """
        i = self.board.find_island(island) if isinstance(island, str) else None
        if i is None:
            raise BoardError(f"board {self.board.name}: no island {island!r}")
        owner = _controller(self.board, self._data().bridges, i, len(self.colors))
        return None if owner == NO_OWNER else self.colors[owner]

    # -- moves ----------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """The legal moves of the player to move, in action-code order ([] once over).

        Raises ``WaitingError`` while waiting for a ``faceup`` record, and
        ``MoveError`` in a viewer position when another color is to move
        (its hand is not known).
        """
        if self._state is None:
            raise WaitingError(self.waiting)
        st = self._state
        if st.is_over:
            return []
        if self._viewer is not None and st.to_move != self._viewer:
            mover = self.colors[st.to_move]
            raise MoveError(f"moves: {mover}'s hand is not known to {self.viewer}'s position, so its moves "
                            f"cannot be listed; play its moves as they happen")
        return [Move.from_action(a, self.board) for a in st.legal_actions()]

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
        self._state.apply(action)

    def play(self, move: Move | str) -> None:
        """Apply one move, checked, in place.

        ``move`` is a ``Move`` or its notation.  Malformed, illegal or (in a
        viewer position) impossible moves raise ``MoveError`` quoting the
        move and giving the reason; the position is then unchanged.
        """
        quoted = N.QuotedMove(move.strip() if isinstance(move, str) else str(move))
        mv = parse_move(move, self.board)

        def fail(why: str) -> MoveError:
            return MoveError(f"move {quoted!r}: {why}")

        d = self.data
        if d.round == ROUND_OVER:
            raise fail("the game is over")
        if self._wait is not None:
            if mv.kind != N.FACEUP:
                raise fail(f"the position waits: {self.waiting}")
            if mv.color is not None:
                raise fail("a 'faceup' record is no color's move; write it without a color")
            self._apply_faceup(d, mv, fail)
            return
        mover = d.to_move
        if mv.color is not None:
            if mv.color not in self.colors:
                raise fail(f"{mv.color} is not playing (the colors are {', '.join(self.colors)})")
            if mv.color != self.colors[mover]:
                raise fail(f"it is {self.colors[mover]}'s turn, not {mv.color}'s")
        if mv.kind == N.FACEUP:
            if self._viewer is None:
                raise fail("a full position turns cards face-up itself; 'faceup' records are for viewer positions")
            raise fail("no cards wait to be turned face-up")
        own = self._viewer is None or mover == self._viewer
        reason = self._rule_violation(d, mv, cards_known=own)
        if reason:
            raise fail(reason)
        if self._viewer is None:
            self._check_full_form(mv, fail)
            changed, action = False, mv.to_action(self.board)
        else:
            changed, action = self._record(d, mv, fail)
        state = self.engine.from_data(self.board, d) if changed else self._state.copy()
        if action not in state.legal_actions():
            raise fail("not a legal move here")
        before = d.round
        state.apply(action)
        if self._viewer is not None:
            self._enter_waiting(state, before)
        else:
            self._state = state

    # -- checked play: the reasons ------------------------------------------

    def _name(self, seat: int) -> str:
        return self.colors[seat]

    def _rule_violation(self, d: StateData, mv: Move, cards_known: bool) -> str | None:
        """Why ``mv`` breaks the rules in ``d``, or None.  Cards in hand count only if known."""
        b = self.board
        me = d.to_move
        name = self._name(me)
        kind = mv.kind
        isl = lambda n: b.find_island(n)  # noqa: E731
        if d.round == ROUND_SETUP:
            if kind != N.REVEAL:
                return "in the setup each color first reveals one card: 'reveal CARD' (R3)"
            if mv.cards and cards_known and d.hands[me][isl(mv.cards[0])] == 0:
                return f"{name} has no {mv.cards[0]} card"
            return None
        if kind == N.REVEAL:
            return "cards are revealed only in the setup (R3)"
        if d.remove_on:
            island = d.remove_on[0]
            if kind != N.REMOVE:
                return f"{name} must first remove a bridge on {b.islands[island]} (R7): 'remove LINK'"
            link = A.arg_a(mv.to_action(b))
            link_name = b.link_name(link)
            if island not in b.links[link]:
                return f"the pending removal is on {b.islands[island]}; {link_name} is not one of its links (R7)"
            owner = d.bridges[link]
            if owner == NO_OWNER:
                return f"{link_name} holds no bridge"
            if owner == me:
                return f"{name} cannot remove its own bridge (R7)"
            counts = _counts_on(b, d.bridges, island, d.players)
            top = max(c for s, c in enumerate(counts) if s != me)
            if counts[me] == top and counts[owner] != 1:
                return (f"{name} is tied for the most bridges on {b.islands[island]}, so only a color with a "
                        f"single bridge there may lose one (R7)")
            if counts[me] < top:
                return f"{name} does not lead on {b.islands[island]}, so it removes nothing there (R7)"
            return None
        if kind == N.REMOVE:
            return "no removal is pending (R7)"
        if d.round == ROUND_FINAL:
            if kind in (N.TAKE, N.DRAW):
                return "the final round has no draw phase (R10)"
            if kind == N.DISCARD:
                return "there is no discard in the final round (R10)"
            if kind == N.PASS:
                if d.played:
                    return f"{name} has already played a card this turn, so it may not pass (R10)"
                if not any(s != me and s not in d.final_done and d.scores[s] > d.scores[me]
                           for s in range(d.players)):
                    return (f"no color with more points than {name} is still to take its final turn, "
                            f"so {name} may not pass (R10)")
                return None
            if kind == N.END:
                return None
        else:
            if kind in (N.END, N.PASS):
                return f"'{kind}' belongs to the final round (R10)"
            if d.discarded and kind in (N.PLACE, N.SWAP, N.DISCARD):
                return f"{name} has discarded this turn; only 'take' or 'draw' remain (R4)"
            if kind == N.DISCARD and d.played:
                return f"{name} has already played a card this turn; a face-down discard replaces playing (R4)"
            if kind in (N.TAKE, N.DRAW):
                held = d.hand_size(me)
                if held > HAND_LIMIT:
                    return f"the hand holds {held} cards; play or discard first (R4)"
                if kind == N.TAKE and isl(mv.cards[0]) not in d.face_up:
                    shown = ", ".join(b.islands[x] for x in d.face_up) or "none"
                    return f"no {mv.cards[0]} among the face-up cards ({shown})"
                if kind == N.DRAW and not d.deck:
                    return "the deck is empty; take a face-up card (R5)"
                return None
        if kind in (N.PLACE, N.SWAP):
            link = A.arg_a(mv.to_action(b))
            link_name = b.link_name(link)
            owner = d.bridges[link]
            if kind == N.PLACE and owner != NO_OWNER:
                return f"{link_name} already holds {self._name(owner)}'s bridge; a swap pays two cards"
            if kind == N.SWAP and owner == NO_OWNER:
                return f"{link_name} holds no bridge to swap; a place pays one card"
            if kind == N.SWAP and owner == me:
                return f"{link_name} already holds {name}'s own bridge"
            if d.preset == PRESET_TABLETOP and d.bridges.count(me) >= TABLETOP_BRIDGES:
                return f"{name} has no bridge left in stock (R13)"
        if cards_known and kind in (N.PLACE, N.SWAP, N.DISCARD) and mv.cards:
            for card, need in Counter(mv.cards).items():
                have = d.hands[me][isl(card)]
                if have < need:
                    if have == 0:
                        return f"{name} has no {card} card"
                    return f"{name} needs two {card} cards and holds one"
        return None

    def _check_full_form(self, mv: Move, fail) -> None:
        """In a full position every card is known: records of unseen cards do not apply."""
        if mv.kind in (N.DISCARD, N.REVEAL) and not mv.cards:
            raise fail(f"name the card: '{mv.kind} CARD'")
        if mv.kind == N.DRAW and mv.cards:
            raise fail("this position knows the deck; write 'draw'")
        if mv.kind == N.TAKE and mv.refill is not None:
            raise fail(f"this position knows the deck; write 'take {mv.cards[0]}'")

    # -- viewer positions: records and filling in ---------------------------

    def _record(self, d: StateData, mv: Move, fail) -> tuple[bool, int]:
        """Check a viewer position's record of ``mv`` and make the filled-in ``d`` agree with it.

        Returns whether ``d`` changed and the action to apply.  Raises
        ``fail(...)`` when the record does not fit this position or is
        impossible for what the viewer knows.
        """
        b = self.board
        v = self._viewer
        me = d.to_move
        own = me == v
        name, viewer = self._name(me), self._name(v)
        kind = mv.kind
        changed = False
        if kind == N.DRAW:
            if not own and mv.cards:
                raise fail(f"{viewer} does not see the card {name} draws; write 'draw'")
            if own and not mv.cards:
                raise fail(f"name the card {viewer} draws: 'draw CARD'")
            if own:
                changed = self._bring_to_deck_top(d, mv.cards[0], fail, "draw")
        elif kind == N.TAKE:
            if not d.deck and mv.refill is not None:
                raise fail("the deck is empty; nothing refills the gap")
            if d.deck and mv.refill is None:
                raise fail(f"the deck refills the gap; write 'take {mv.cards[0]} refill CARD' "
                           f"with the card turned up")
            if d.deck:
                changed = self._bring_to_deck_top(d, mv.refill, fail, "refill")
        elif kind in (N.DISCARD, N.REVEAL):
            if own and not mv.cards:
                raise fail(f"name the card: '{kind} CARD'")
            if not own and mv.cards:
                what = "discards face-down" if kind == N.DISCARD else "sets aside"
                raise fail(f"{viewer} does not see which card {name} {what}; write '{kind}'")
            if not own:
                # The card stays unseen: any card of the filled-in hand stands for it,
                # one of its unseen part where there is one.
                hand, public = d.hands[me], d.public[me]
                x = next((x for x in range(b.n_islands) if hand[x] > public[x]), None)
                if x is None:
                    x = next(x for x in range(b.n_islands) if hand[x] > 0)
                return False, A.encode(A.DISCARD if kind == N.DISCARD else A.REVEAL, x)
        elif kind in (N.PLACE, N.SWAP) and not own:
            changed = self._bring_to_hand(d, me, [b.find_island(c) for c in mv.cards], mv, fail)
        return changed, mv.to_action(b)

    def _bring_to_hand(self, d: StateData, seat: int, cards: list[int], mv: Move, fail) -> bool:
        """Exchange unknown cards so that ``seat``'s filled-in hand can pay ``cards``."""
        b = self.board
        need = Counter(cards)
        hand, public = d.hands[seat], d.public[seat]
        name = self._name(seat)
        changed = False
        for x, n in sorted(need.items()):
            while hand[x] < n:
                # A card of the hand's unseen part that the move does not need goes out in exchange.
                y = next((y for y in range(b.n_islands) if hand[y] > max(need.get(y, 0), public[y])), None)
                if y is None:
                    known = " ".join(_names(b, public)) or "nothing"
                    raise fail(f"{name} holds {d.hand_size(seat)} card(s) and {self.viewer} knows them "
                               f"({known}), so {name} cannot pay {'+'.join(mv.cards)}")
                src = _find_unseen(d, v=self._viewer, card=x, skip={("hand", seat)})
                if src is None:
                    qty = "an" if n == 1 else "two"
                    raise fail(f"{name} cannot hold {qty} {b.islands[x]} card{'s' if n > 1 else ''}: "
                               f"{self.viewer} knows where every other {b.islands[x]} card is")
                _exchange(d, src, x, ("hand", seat), y)
                changed = True
        return changed

    def _bring_to_deck_top(self, d: StateData, card: str, fail, what: str) -> bool:
        x = self.board.find_island(card)
        if d.deck[0] == x:
            return False
        src = _find_unseen(d, v=self._viewer, card=x, skip={("deck", 0)})
        if src is None:
            noun = "drawn" if what == "draw" else "turned up"
            raise fail(f"{card} cannot be the card {noun}: {self.viewer} knows where every {card} card is")
        _exchange(d, src, x, ("deck", 0), d.deck[0])
        return True

    def _enter_waiting(self, state: Any, before: int) -> None:
        """After a move in a viewer position: wait where the deck turned up unseen cards."""
        after = state.round
        if before == ROUND_SETUP and after == ROUND_1:
            # R3: the chosen cards and the top-up went face-up; the viewer has not seen them yet.
            d = state.to_data()
            n = d.players
            d.setup_chosen = list(d.face_up[:n])
            d.deck = d.face_up[n:] + d.deck
            d.face_up = []
            d.round = ROUND_SETUP
            d.to_move = 0
            self._state, self._wait, self._wait_kind = None, d, WAIT_SETUP
        elif before == ROUND_1 and after == ROUND_2:
            # R9: the reshuffled deck turned cards face-up; unseen until recorded.
            d = state.to_data()
            d.deck = d.face_up + d.deck
            d.face_up = []
            self._state, self._wait, self._wait_kind = None, d, WAIT_RESHUFFLE
        else:
            self._state = state

    def _apply_faceup(self, d: StateData, mv: Move, fail) -> None:
        """The ``faceup`` record ends the wait: the named cards go face-up."""
        b = self.board
        v = self._viewer
        want = [b.find_island(c) for c in mv.cards]
        k = _faceup_count(d, self._wait_kind)
        if len(want) != k:
            raise fail(f"{k} card(s) are turned face-up; name {'all ' if k > 1 else ''}{k}")
        fixed: set = set()
        if self._wait_kind == WAIT_SETUP:
            n = d.players
            for seat in range(n):
                x = want[seat]
                if seat == v:
                    if d.setup_chosen[v] != x:
                        raise fail(f"card {seat + 1} is {self.viewer}'s chosen card "
                                   f"{b.islands[d.setup_chosen[v]]}, not {b.islands[x]}")
                    continue
                self._bring(d, x, ("chosen", seat), fixed, fail,
                            f"{b.islands[x]} cannot be {self._name(seat)}'s chosen card")
            for j, x in enumerate(want[n:]):
                self._bring(d, x, ("deck", j), fixed, fail, f"{b.islands[x]} cannot come from the deck")
            # R3: chosen cards in seat order, topped up from the deck; seat 0 starts round 1.
            d.face_up = want
            d.deck = d.deck[k - n:]
            d.setup_chosen = [NO_CARD] * n
            d.round = ROUND_1
            d.to_move = 0
        else:
            for j, x in enumerate(want):
                self._bring(d, x, ("deck", j), fixed, fail, f"{b.islands[x]} cannot come from the deck")
            d.face_up = d.face_up + want  # R9: turned up from the top of the new deck
            d.deck = d.deck[k:]
        self._state = self.engine.from_data(b, d)
        self._wait = self._wait_kind = None

    def _bring(self, d: StateData, x: int, target: tuple, fixed: set, fail, what: str) -> None:
        """Make unseen slot ``target`` hold card ``x``; then fix it."""
        if _slot_card(d, target) != x:
            src = _find_unseen(d, v=self._viewer, card=x, skip=fixed | {target})
            if src is None:
                raise fail(f"{what}: {self.viewer} knows where every {self.board.islands[x]} card is")
            _exchange(d, src, x, target, _slot_card(d, target))
        fixed.add(target)

    # -- output ---------------------------------------------------------------

    def to_json(self) -> dict:
        """The position in ``kanaloa-position/1`` (a fresh dict, canonical)."""
        return _render(self.board, self.colors, self._data(), self._viewer)

    def dumps(self) -> str:
        """``to_json()`` as indented, stable JSON text (short lists and objects on one line)."""
        return _format(self.to_json(), 0) + "\n"

    def __repr__(self) -> str:
        who = f"seen by {self.viewer}" if self._viewer is not None else "full"
        return f"<Position {self.board.name} round {self.round!r}, {self.to_move} to move, {who}>"


# -- helpers over StateData --------------------------------------------------------


def _names(board: Board, counts: list[int]) -> list[str]:
    """A count-per-island multiset as card names in island order."""
    return [board.islands[i] for i, n in enumerate(counts) for _ in range(n)]


def _counts_on(board: Board, bridges: list[int], island: int, players: int) -> list[int]:
    counts = [0] * players
    mask = board.island_links[island]
    for k, owner in enumerate(bridges):
        if owner != NO_OWNER and mask >> k & 1:
            counts[owner] += 1
    return counts


def _controller(board: Board, bridges: list[int], island: int, players: int) -> int:
    """The seat with an absolute majority on ``island`` (R2), or NO_OWNER."""
    size = board.size(island)
    for seat, n in enumerate(_counts_on(board, bridges, island, players)):
        if 2 * n > size:
            return seat
    return NO_OWNER


def _faceup_count(d: StateData, kind: str) -> int:
    """How many cards the awaited ``faceup`` record names."""
    if kind == WAIT_SETUP:
        return min(FACE_UP, d.players + len(d.deck))
    return min(FACE_UP - len(d.face_up), len(d.deck))


# Unseen slots of a viewer position: ("hand", seat) for the non-public part of
# another seat's hand, ("chosen", seat) for another seat's setup choice,
# ("hidden", seat) for another seat's face-down discards, ("deck", index).


def _slot_card(d: StateData, slot: tuple) -> int:
    """The card in a single-card slot (deck place or setup choice)."""
    kind, i = slot
    return d.deck[i] if kind == "deck" else d.setup_chosen[i]


def _find_unseen(d: StateData, v: int, card: int, skip: set) -> tuple | None:
    """An unseen slot other than ``skip`` holding ``card``: deck (bottom up), discards, hands, choices."""
    for i in range(len(d.deck) - 1, -1, -1):
        if d.deck[i] == card and ("deck", i) not in skip:
            return ("deck", i)
    for seat in range(d.players):
        if seat != v and d.hidden_by[seat][card] > 0 and ("hidden", seat) not in skip:
            return ("hidden", seat)
    for seat in range(d.players):
        if seat != v and d.hands[seat][card] > d.public[seat][card] and ("hand", seat) not in skip:
            return ("hand", seat)
    for seat in range(d.players):
        if seat != v and d.setup_chosen[seat] == card and ("chosen", seat) not in skip:
            return ("chosen", seat)
    return None


def _exchange(d: StateData, src: tuple, x: int, dst: tuple, y: int) -> None:
    """Card ``x`` moves from slot ``src`` to slot ``dst``; card ``y`` goes the other way."""
    for slot, out, into in ((src, x, y), (dst, y, x)):
        kind, i = slot
        if kind == "deck":
            d.deck[i] = into
        elif kind == "chosen":
            d.setup_chosen[i] = into
        else:
            counts = d.hands[i] if kind == "hand" else d.hidden_by[i]
            counts[out] -= 1
            counts[into] += 1


# -- writing JSON --------------------------------------------------------------------


def _render(board: Board, colors: tuple[str, ...], d: StateData, viewer: int | None) -> dict:
    """``d`` as a ``kanaloa-position/1`` document, showing what ``viewer`` (or everyone) knows."""
    isl = board.islands
    full = viewer is None
    doc: dict[str, Any] = {
        "format": FORMAT,
        "board": board.source,
        "rules": {"preset": PRESET_NAMES[d.preset]},
        "players": list(colors),
        "viewer": None if full else colors[viewer],
        "to_move": colors[d.to_move],
        "round": ROUND_NAMES[d.round],
        "bridges": {board.link_name(k): colors[o] for k, o in enumerate(d.bridges) if o != NO_OWNER},
    }
    hands = {}
    for s, c in enumerate(colors):
        if full or s == viewer:
            hands[c] = {"cards": _names(board, d.hands[s]), "public": _names(board, d.public[s])}
        else:
            hands[c] = {"count": d.hand_size(s), "public": _names(board, d.public[s])}
    doc["hands"] = hands
    doc["face_up"] = [isl[x] for x in d.face_up]
    doc["deck"] = [isl[x] for x in d.deck] if full else {"count": len(d.deck)}
    seen = range(d.players) if full else (viewer,)
    doc["discard"] = {
        "open": [isl[x] for x in d.discard_open],
        "hidden": d.hidden_count(),
        "hidden_by": {colors[s]: _names(board, d.hidden_by[s]) for s in seen},
    }
    doc["scores"] = {c: d.scores[s] for s, c in enumerate(colors)}
    doc["turn"] = {"played": d.played, "discarded": d.discarded, "remove_on": [isl[x] for x in d.remove_on]}
    if d.round == ROUND_FINAL:
        doc["final_round"] = {"done": [colors[s] for s in d.final_done],
                              "passed": [colors[s] for s in d.final_passed]}
    elif d.round == ROUND_SETUP:
        chosen = [s for s in range(d.players) if d.setup_chosen[s] != NO_CARD]
        doc["setup"] = {
            "chosen": [colors[s] for s in chosen],
            "cards": {colors[s]: isl[d.setup_chosen[s]] for s in chosen if full or s == viewer},
        }
    elif d.round == ROUND_OVER:
        doc["result"] = {"ranking": [colors[s] for s in d.ranking], "winner": colors[d.winner],
                         "reason": REASON_NAMES[d.reason]}
    if full:
        doc["seed"] = d.rng
    return doc


def _format(value: Any, level: int) -> str:
    """Indented JSON; a list or object that fits on its line stays on one line."""
    flat = json.dumps(value, ensure_ascii=False)
    if level > 0 and len(flat) + 2 * level <= 96:
        return flat
    pad, inner = "  " * level, "  " * (level + 1)
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k)}: {_format(v, level + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and value and any(isinstance(v, (dict, list)) for v in value):
        items = [f"{inner}{_format(v, level + 1)}" for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return flat


# -- reading JSON ---------------------------------------------------------------------


class _Reader:
    """Validates a position document and builds its (filled-in) ``StateData``."""

    def __init__(self, doc: Any) -> None:
        self.doc = doc

    def read(self) -> tuple[Board, tuple[str, ...], int | None, StateData, str | None]:
        doc = self.doc
        if not isinstance(doc, dict):
            raise _fail("position", f"must be a JSON object, not {_json_type(doc)}")
        for key in doc:
            if key not in FIELDS:
                raise _fail(str(key), f"unknown field (the fields are {', '.join(FIELDS)})")
        if "format" not in doc:
            raise _fail("format", f"missing; a position starts with \"format\": \"{FORMAT}\"")
        if doc["format"] != FORMAT:
            raise _fail("format", f"{_brief(doc['format'])} is not {_brief(FORMAT)}")
        for key in ("board", "players", "to_move", "round", "hands", "face_up", "deck"):
            if key not in doc:
                raise _fail(key, "missing")
        board_name = doc["board"]
        if not isinstance(board_name, str) or not board_name:
            raise _fail("board", f"must be a built-in board name or a file path, not {_brief(board_name)}")
        try:
            self.board = board = load_board(board_name)
        except BoardError as exc:
            raise PositionError(str(exc)) from None
        preset = self._preset(doc.get("rules", {}))
        colors = self._players(doc["players"])
        self.colors = colors
        n = len(colors)
        viewer = doc.get("viewer")
        if viewer is not None:
            if viewer not in colors:
                raise _fail("viewer", f"{_brief(viewer)} is not playing (the colors are {', '.join(colors)})")
            viewer = colors.index(viewer)
        self.viewer = viewer
        full = viewer is None
        rnd = doc["round"]
        # 1.0 or true would hash like 1: only the integers and the two names are rounds.
        if not (isinstance(rnd, str) or _is_int(rnd)) or rnd not in _ROUND_OF_NAME:
            raise _fail("round", f"{_brief(rnd)} is not one of 0, 1, 2, \"final\", \"over\"")
        rnd = _ROUND_OF_NAME[rnd]
        to_move = self._color("to_move", doc["to_move"])

        d = StateData.empty(board.n_islands, board.n_links, n, preset)
        d.round, d.to_move = rnd, to_move
        self._bridges(d, doc.get("bridges", {}))
        counts = self._hands(d, doc["hands"])
        self.sizes = counts
        d.face_up = self._cards("face_up", doc["face_up"])
        if len(d.face_up) > FACE_UP:
            raise _fail("face_up", f"{len(d.face_up)} cards; at most {FACE_UP} lie face-up (R5)")
        deck_count = self._deck(d, doc["deck"])
        hidden = self._discard(d, doc.get("discard", {}))
        self._scores(d, doc.get("scores", {}))
        self._turn(d, doc.get("turn", {}))
        wait_kind = self._round_fields(d, doc, deck_count, hidden)
        if "seed" in doc:
            if not full:
                raise _fail("seed", "a viewer position has no seed (it would reveal the deck)")
            seed = doc["seed"]
            if not _is_int(seed) or not 0 <= seed < _SEED_LIMIT:
                raise _fail("seed", f"{_brief(seed)} must be an integer from 0 to 2**64-1")
            d.rng = seed
        self._rules_of_play(d)
        self._card_totals(d, counts, deck_count, hidden)
        if not full:
            self._fill_in(d, counts, deck_count, hidden)
        return board, colors, viewer, d, wait_kind

    # fields

    def _preset(self, rules: Any) -> int:
        if not isinstance(rules, dict):
            raise _fail("rules", f"must be an object like {{\"preset\": \"yucata\"}}, not {_brief(rules)}")
        for key in rules:
            if key != "preset":
                raise _fail(f"rules.{key}", "unknown field (rules has only 'preset')")
        preset = rules.get("preset", "yucata")
        if not isinstance(preset, str) or preset not in PRESETS:
            raise _fail("rules.preset", f"{_brief(preset)} is not one of {', '.join(PRESETS)} (R13)")
        return PRESETS[preset]

    def _players(self, players: Any) -> tuple[str, ...]:
        if not isinstance(players, list) or not all(isinstance(c, str) for c in players):
            raise _fail("players", "must be a list of colors in seat order")
        if len(players) not in (3, 4):
            raise _fail("players", f"{len(players)} colors; the game is for 3 or 4 players")
        for c in players:
            if c not in COLORS:
                raise _fail("players", f"{_brief(c)} is not a color ({', '.join(COLORS)})")
        if len(set(players)) != len(players):
            raise _fail("players", f"{_brief(players)} names a color twice")
        return tuple(players)

    def _color(self, field: str, value: Any) -> int:
        if value not in self.colors:
            raise _fail(field, f"{_brief(value)} is not playing (the colors are {', '.join(self.colors)})")
        return self.colors.index(value)

    def _cards(self, field: str, value: Any) -> list[int]:
        if not isinstance(value, list):
            raise _fail(field, f"must be a list of cards (island names), not {_brief(value)}")
        out = []
        for item in value:
            i = self.board.find_island(item) if isinstance(item, str) else None
            if i is None:
                raise _fail(field, f"{_brief(item)} is not an island of board {self.board.name}")
            out.append(i)
        return out

    def _multiset(self, field: str, value: Any) -> list[int]:
        counts = [0] * self.board.n_islands
        for i in self._cards(field, value):
            counts[i] += 1
        return counts

    def _count(self, field: str, value: Any) -> int:
        if not _is_int(value) or value < 0:
            raise _fail(field, f"{_brief(value)} must be a whole number, 0 or more")
        return value

    def _object(self, field: str, value: Any, keys: tuple[str, ...]) -> dict:
        if not isinstance(value, dict):
            raise _fail(field, f"must be an object, not {_brief(value)}")
        for key in value:
            if key not in keys:
                raise _fail(f"{field}.{key}", f"unknown field ({field} has {', '.join(keys)})")
        return value

    def _bridges(self, d: StateData, bridges: Any) -> None:
        b = self.board
        if not isinstance(bridges, dict):
            raise _fail("bridges", "must be an object mapping links ('ALOA-BAFI') to colors")
        for name, color in bridges.items():
            field = f"bridges.{name}"
            parts = name.split("-")
            ends = [b.find_island(p) for p in parts] if len(parts) == 2 else [None]
            if None in ends:
                raise _fail(field, f"not a link of board {b.name} (write two islands joined by '-')")
            k = b.find_link(*ends)
            if k is None:
                raise _fail(field, f"no link between {b.islands[ends[0]]} and {b.islands[ends[1]]}")
            if d.bridges[k] != NO_OWNER:
                raise _fail(field, f"{b.link_name(k)} is given twice")
            d.bridges[k] = self._color(field, color)

    def _hands(self, d: StateData, hands: Any) -> list[int]:
        """Fill hands and public; return every hand's card count."""
        if not isinstance(hands, dict):
            raise _fail("hands", "must be an object with one hand per color")
        for c in hands:
            if c not in self.colors:
                raise _fail(f"hands.{c}", f"{_brief(c)} is not playing")
        sizes = []
        for s, c in enumerate(self.colors):
            field = f"hands.{c}"
            if c not in hands:
                raise _fail("hands", f"missing the hand of {c}")
            hand = self._object(field, hands[c], ("cards", "count", "public"))
            public = self._multiset(f"{field}.public", hand.get("public", []))
            known = self.viewer is None or self.viewer == s
            if known and "cards" not in hand:
                who = "a full position" if self.viewer is None else f"{self.colors[self.viewer]}'s own view"
                raise _fail(f"{field}.cards", f"missing; {who} knows this hand's cards")
            if not known and "cards" in hand:
                raise _fail(f"{field}.cards", f"{self.colors[self.viewer]} cannot see {c}'s cards; "
                                               f"give 'count' and 'public'")
            if "cards" in hand:
                cards = self._multiset(f"{field}.cards", hand["cards"])
                size = sum(cards)
                if "count" in hand and self._count(f"{field}.count", hand["count"]) != size:
                    raise _fail(f"{field}.count", f"{hand['count']} but 'cards' lists {size}")
                if any(p > h for p, h in zip(public, cards)):
                    raise _fail(f"{field}.public", f"{_names(self.board, public)} is not part of the cards "
                                                   f"{_names(self.board, cards)}")
                d.hands[s] = cards
            else:
                if "count" not in hand:
                    raise _fail(f"{field}.count", "missing; give 'count' where 'cards' is absent")
                size = self._count(f"{field}.count", hand["count"])
                if sum(public) > size:
                    raise _fail(f"{field}.public", f"{sum(public)} known cards in a hand of {size}")
            if size > MAX_HAND:
                raise _fail(field, f"{size} cards; a hand holds at most {MAX_HAND} (R4, R5)")
            d.public[s] = public
            sizes.append(size)
        return sizes

    def _deck(self, d: StateData, deck: Any) -> int:
        if self.viewer is None:
            if not isinstance(deck, list):
                raise _fail("deck", "a full position lists the deck's cards, top first")
            d.deck = self._cards("deck", deck)
            return len(d.deck)
        if not isinstance(deck, dict):
            raise _fail("deck", "a viewer position gives only {\"count\": N} (the viewer cannot see the deck)")
        self._object("deck", deck, ("count",))
        if "count" not in deck:
            raise _fail("deck.count", "missing")
        return self._count("deck.count", deck["count"])

    def _discard(self, d: StateData, discard: Any) -> int:
        """Fill the open discards and the known face-down ones; return the face-down total."""
        discard = self._object("discard", discard, ("open", "hidden", "hidden_by"))
        d.discard_open = self._cards("discard.open", discard.get("open", []))
        by = discard.get("hidden_by", {})
        if not isinstance(by, dict):
            raise _fail("discard.hidden_by", "must be an object mapping colors to their face-down discards")
        for c, cards in by.items():
            field = f"discard.hidden_by.{c}"
            s = self._color(field, c)
            if self.viewer is not None and s != self.viewer:
                raise _fail(field, f"{self.colors[self.viewer]} cannot see {c}'s face-down discards")
            d.hidden_by[s] = self._multiset(field, cards)
        named = d.hidden_count()
        hidden = self._count("discard.hidden", discard.get("hidden", named))
        if self.viewer is None and hidden != named:
            raise _fail("discard.hidden", f"{hidden} but hidden_by names {named} face-down discards")
        if hidden < named:
            raise _fail("discard.hidden", f"{hidden} but {self.colors[self.viewer]} alone discarded {named}")
        return hidden

    def _scores(self, d: StateData, scores: Any) -> None:
        if not isinstance(scores, dict):
            raise _fail("scores", "must be an object mapping colors to points")
        b = self.board
        # R11: a controller holds more than half of an island's links, so one scoring gives at
        # most ceil(size / 2) - 1 points per island; the final scoring adds 1 per island.
        one_scoring = sum((b.size(i) + 1) // 2 - 1 for i in range(b.n_islands))
        limit = {ROUND_SETUP: 0, ROUND_1: 0, ROUND_2: one_scoring, ROUND_FINAL: one_scoring,
                 ROUND_OVER: 2 * one_scoring + b.n_islands}[d.round]
        for c, pts in scores.items():
            s = self._color(f"scores.{c}", c)
            d.scores[s] = self._count(f"scores.{c}", pts)
            if pts > limit and d.round in (ROUND_SETUP, ROUND_1):
                raise _fail(f"scores.{c}", f"{pts} points before the first scoring; nobody scores before "
                                           f"round 1 ends (R9, R11)")
            if pts > limit:
                raise _fail(f"scores.{c}", f"{_brief(pts)} points; by round {ROUND_NAMES[d.round]} a color "
                                           f"can have at most {limit} on board {b.name} (R11)")

    def _turn(self, d: StateData, turn: Any) -> None:
        turn = self._object("turn", turn, ("played", "discarded", "remove_on"))
        d.played = self._count("turn.played", turn.get("played", 0))
        discarded = turn.get("discarded", False)
        if not isinstance(discarded, bool):
            raise _fail("turn.discarded", f"{_brief(discarded)} must be true or false")
        d.discarded = discarded
        d.remove_on = self._cards("turn.remove_on", turn.get("remove_on", []))
        b = self.board
        for i in d.remove_on:
            name = b.islands[i]
            if b.size(i) < 5:
                raise _fail("turn.remove_on", f"{name} has {b.size(i)} links; removals (R7) happen only on "
                                              f"islands of 5 or more")
            if any(d.bridges[k] == NO_OWNER for k in range(b.n_links) if b.island_links[i] >> k & 1):
                raise _fail("turn.remove_on", f"{name} has a free link; a removal (R7) follows only when "
                                              f"every link is taken")
        if d.discarded and d.played:
            raise _fail("turn.discarded", "a color that discarded face-down has played no card (R4)")
        # R4, R5: every turn starts with at most 5 cards, and only playing or discarding sheds them.
        held = self.sizes[d.to_move]
        began = held + d.played + int(d.discarded)
        if began > MAX_HAND:
            shed = f"played {d.played}" + (" and discarded 1" if d.discarded else "")
            raise _fail("turn", f"{self.colors[d.to_move]} holds {held} card(s) having {shed} this turn, so it "
                                f"began the turn with {began}; a hand holds at most {MAX_HAND} (R4, R5)")
        self._pending_removals(d)
        if d.round in (ROUND_SETUP, ROUND_FINAL) and d.discarded:
            raise _fail("turn.discarded", "a face-down discard happens only in rounds 1 and 2 (R4, R10)")
        if d.round == ROUND_SETUP and (d.played or d.remove_on):
            raise _fail("turn", "no card is played during the setup (R3)")

    def _pending_removals(self, d: StateData) -> None:
        """``turn.remove_on`` must be what the last place or swap queued (R7)."""
        b = self.board
        me = d.to_move
        name = self.colors[me]
        pending = d.remove_on
        if not pending:
            return
        if d.played == 0:
            raise _fail("turn.remove_on", "a removal (R7) follows a place or swap, but turn.played is 0")
        if len(pending) > 2 or len(set(pending)) != len(pending):
            raise _fail("turn.remove_on", "one place or swap queues at most one removal on each end of its "
                                          "link (R7)")
        if len(pending) == 2:
            k = b.find_link(*pending)
            if k is None or d.bridges[k] != me:
                raise _fail("turn.remove_on", f"{b.islands[pending[0]]} and {b.islands[pending[1]]} are not "
                                              f"the ends of a bridge of {name}: one build queues removals "
                                              f"only on the ends of its link (R7)")
            if pending[0] > pending[1]:
                raise _fail("turn.remove_on", "removals are queued in the board's island order (R7)")
        for i in pending:
            counts = _counts_on(b, d.bridges, i, d.players)
            n = counts[me]
            rivals = [c for s, c in enumerate(counts) if s != me]
            top = max(rivals)
            island = b.islands[i]
            if 2 * n > b.size(i):
                raise _fail("turn.remove_on", f"{name} controls {island}; a removal (R7) is due only without "
                                              f"an absolute majority")
            if n < top or (n == top and 1 not in rivals):
                raise _fail("turn.remove_on", f"{name} has {n} bridge(s) on {island} against {top}: it neither "
                                              f"leads nor ties with a single rival bridge to remove (R7)")

    def _round_fields(self, d: StateData, doc: dict, deck_count: int, hidden: int) -> str | None:
        """Read final_round, setup and result; return the kind of wait, if any."""
        colors = self.colors
        rnd = d.round
        for key, wanted in (("final_round", ROUND_FINAL), ("setup", ROUND_SETUP), ("result", ROUND_OVER)):
            if key in doc and rnd != wanted:
                raise _fail(key, f"only a position whose round is {ROUND_NAMES[wanted]!r} has it")
        wait_kind = None
        if rnd == ROUND_FINAL:
            fr = self._object("final_round", doc.get("final_round", {}), ("done", "passed"))
            d.final_done = self._colors("final_round.done", fr.get("done", []))
            d.final_passed = self._colors("final_round.passed", fr.get("passed", []))
            for s in d.final_passed:
                if s in d.final_done:
                    raise _fail("final_round.passed", f"{colors[s]} has already taken its final turn")
            if d.to_move in d.final_done:
                raise _fail("to_move", f"{colors[d.to_move]} has already taken its final turn (R10)")
            # R10: the final round begins once the deck and the face-up cards have run out again.
            if deck_count:
                raise _fail("deck", f"{deck_count} card(s) left; the final round has no deck (R10)")
            if d.face_up:
                raise _fail("face_up", f"{len(d.face_up)} card(s) left; the final round has no face-up cards (R10)")
        elif rnd == ROUND_SETUP:
            setup = self._object("setup", doc.get("setup", {}), ("chosen", "cards"))
            chosen = self._colors("setup.chosen", setup.get("chosen", []))
            k = len(chosen)
            if chosen != list(range(k)):
                raise _fail("setup.chosen", f"colors choose in seat order (R3): expected "
                                            f"{list(colors[:k])}, not {[colors[s] for s in chosen]}")
            cards = setup.get("cards", {})
            if not isinstance(cards, dict):
                raise _fail("setup.cards", "must be an object mapping colors to the card each set aside")
            for c, card in cards.items():
                field = f"setup.cards.{c}"
                s = self._color(field, c)
                if s not in chosen:
                    raise _fail(field, f"{c} has not chosen yet")
                if self.viewer is not None and s != self.viewer:
                    raise _fail(field, f"{colors[self.viewer]} cannot see {c}'s chosen card")
                d.setup_chosen[s] = self._cards(field, [card])[0]
            for s in chosen:
                if d.setup_chosen[s] == NO_CARD and (self.viewer is None or s == self.viewer):
                    raise _fail("setup.cards", f"missing {colors[s]}'s chosen card")
                if d.setup_chosen[s] == NO_CARD:
                    d.setup_chosen[s] = -2  # unseen; filled in later
            if k < len(colors):
                if d.to_move != k:
                    raise _fail("to_move", f"{colors[k]} is the next to choose in the setup (R3), "
                                           f"not {colors[d.to_move]}")
            elif self.viewer is None:
                raise _fail("setup.chosen", "every color has chosen; the chosen cards would already lie face-up (R3)")
            else:
                if d.to_move != 0:
                    raise _fail("to_move", f"after the setup {colors[0]} moves first (R3), not {colors[d.to_move]}")
                wait_kind = WAIT_SETUP
            if d.face_up:
                raise _fail("face_up", "no card lies face-up before the setup ends (R3)")
            if any(o != NO_OWNER for o in d.bridges):
                raise _fail("bridges", "no bridge is built during the setup (R3)")
            # R3: each color holds the cards dealt to it, less the one it has set aside.
            for s, c in enumerate(colors):
                want = DEAL - (1 if s < k else 0)
                if self.sizes[s] != want:
                    why = "less the one it has set aside" if s < k else "and has not chosen yet"
                    raise _fail(f"hands.{c}", f"{self.sizes[s]} card(s); in the setup {c} holds the {DEAL} "
                                              f"dealt, {why} (R3)")
                if any(d.public[s]):
                    raise _fail(f"hands.{c}.public", "nobody has taken a face-up card during the setup (R3)")
            if d.discard_open or hidden:
                raise _fail("discard", "nothing is discarded during the setup (R3)")
        elif rnd == ROUND_OVER:
            if "result" not in doc:
                raise _fail("result", "missing; a finished game gives its ranking, winner and reason")
            res = self._object("result", doc["result"], ("ranking", "winner", "reason"))
            for key in ("ranking", "winner", "reason"):
                if key not in res:
                    raise _fail(f"result.{key}", "missing")
            d.ranking = self._colors("result.ranking", res["ranking"])
            if sorted(d.ranking) != list(range(len(colors))):
                raise _fail("result.ranking", f"must list every color once, not {_brief(res['ranking'])}")
            d.winner = self._color("result.winner", res["winner"])
            if d.winner != d.ranking[0]:
                raise _fail("result.winner", f"{res['winner']} is not first in the ranking")
            if not isinstance(res["reason"], str) or res["reason"] not in _REASON_OF_NAME:
                raise _fail("result.reason", f"{_brief(res['reason'])} is not one of "
                                             f"{', '.join(repr(r) for r in _REASON_OF_NAME)}")
            d.reason = _REASON_OF_NAME[res["reason"]]
            self._result_agrees(d, deck_count)
        elif len(d.face_up) < FACE_UP and deck_count > 0:
            # A viewer waits for the cards a reshuffle (R9) turned up: in round 2, with nothing
            # face-up yet and the turn not begun.  Anything else is a bad face_up.
            fresh = not (d.played or d.discarded or d.remove_on)
            if self.viewer is None or rnd != ROUND_2 or d.face_up or not fresh:
                raise _fail("face_up", f"{len(d.face_up)} cards while the deck is not empty; the deck keeps "
                                       f"{FACE_UP} cards face-up (R5)")
            wait_kind = WAIT_RESHUFFLE
        elif not d.face_up and deck_count == 0:
            raise _fail("face_up", f"the deck and the face-up cards are both empty; round {rnd} would have "
                                   f"ended (R9, R10)")
        return wait_kind

    def _result_agrees(self, d: StateData, deck_count: int) -> None:
        """The result must be the one the rules give for these bridges and scores (R8, R10, R12)."""
        b = self.board
        colors = self.colors
        held = [sum(1 for i in range(b.n_islands) if _controller(b, d.bridges, i, d.players) == s)
                for s in range(d.players)]
        if d.reason == REASON_ELEVEN:
            if held[d.winner] < WIN_ISLANDS:
                raise _fail("result.reason", f"'eleven islands' but {colors[d.winner]} controls "
                                             f"{held[d.winner]} islands (R8)")
            rest = sorted((s for s in range(d.players) if s != d.winner), key=lambda s: (-d.scores[s], s))
            if d.ranking[1:] != rest:
                raise _fail("result.ranking", f"after an immediate win the others rank by points, then seat "
                                              f"order: {', '.join(colors[s] for s in [d.winner] + rest)} (R12)")
            return
        strong = [s for s in range(d.players) if held[s] >= WIN_ISLANDS]
        if strong:
            raise _fail("result.reason", f"'points' but {colors[strong[0]]} controls {held[strong[0]]} islands: "
                                         f"the game ended at once by R8")
        if deck_count or d.face_up:
            raise _fail("result.reason", "'points' ends the game after the final round, when the deck and "
                                         "the face-up cards are gone (R10)")
        for a, z in zip(d.ranking, d.ranking[1:]):
            if d.scores[a] < d.scores[z]:
                raise _fail("result.ranking", f"{colors[a]} ({d.scores[a]} points) ranks above {colors[z]} "
                                              f"({d.scores[z]} points); most points wins (R12)")

    def _colors(self, field: str, value: Any) -> list[int]:
        if not isinstance(value, list):
            raise _fail(field, f"must be a list of colors, not {_brief(value)}")
        seats = [self._color(field, c) for c in value]
        if len(set(seats)) != len(seats):
            raise _fail(field, f"{_brief(value)} names a color twice")
        return seats

    def _rules_of_play(self, d: StateData) -> None:
        """R8 and R13 limits on the bridges."""
        b = self.board
        if d.preset == PRESET_TABLETOP:
            for s, c in enumerate(self.colors):
                if d.bridges.count(s) > TABLETOP_BRIDGES:
                    raise _fail("bridges", f"{c} has {d.bridges.count(s)} bridges; the tabletop preset gives "
                                           f"{TABLETOP_BRIDGES} per color (R13)")
        if d.round != ROUND_OVER:
            for s, c in enumerate(self.colors):
                held = sum(1 for i in range(b.n_islands) if _controller(b, d.bridges, i, d.players) == s)
                if held >= WIN_ISLANDS:
                    raise _fail("bridges", f"{c} controls {held} islands; the game would be over (R8)")

    def _card_totals(self, d: StateData, sizes: list[int], deck_count: int, hidden: int) -> None:
        """Per island, the cards must add up to the board's supply (R1)."""
        b = self.board
        cpi = b.cards_per_island
        known = [0] * b.n_islands
        seen_hands = range(d.players) if self.viewer is None else (self.viewer,)
        for s in range(d.players):
            part = d.hands[s] if s in seen_hands else d.public[s]
            for i, n in enumerate(part):
                known[i] += n
        for group in (d.face_up, d.discard_open, d.deck if self.viewer is None else []):
            for i in group:
                known[i] += 1
        for s in range(d.players):
            for i, n in enumerate(d.hidden_by[s]):
                known[i] += n
        for x in d.setup_chosen:
            if x >= 0:
                known[x] += 1
        for i, n in enumerate(known):
            if n > cpi or (self.viewer is None and n != cpi):
                raise _fail("cards", f"the position holds {n} {b.islands[i]} cards; board {b.name} has "
                                     f"{cpi} of each island")
        total = (sum(sizes) + len(d.face_up) + deck_count + len(d.discard_open) + hidden
                 + sum(1 for x in d.setup_chosen if x != NO_CARD))
        if total != b.n_cards:
            raise _fail("cards", f"the position accounts for {total} cards; board {b.name} has {b.n_cards}")

    def _fill_in(self, d: StateData, sizes: list[int], deck_count: int, hidden: int) -> None:
        """Deal the viewer's unknown pool, in island order, into the unseen slots (module docstring)."""
        b = self.board
        v = self.viewer
        pool = [b.cards_per_island] * b.n_islands
        known_hands = [d.hands[s] if s == v else d.public[s] for s in range(d.players)]
        for part in known_hands + d.hidden_by:
            for i, n in enumerate(part):
                pool[i] -= n
        for group in (d.face_up, d.discard_open, [x for x in d.setup_chosen if x >= 0]):
            for i in group:
                pool[i] -= 1
        cards = iter([i for i, n in enumerate(pool) for _ in range(n)])
        for s in range(d.players):
            if s != v:
                hand = list(d.public[s])
                for _ in range(sizes[s] - sum(d.public[s])):
                    hand[next(cards)] += 1
                d.hands[s] = hand
        for s in range(d.players):
            if d.setup_chosen[s] == -2:
                d.setup_chosen[s] = next(cards)
        others = [s for s in range(d.players) if s != v]
        for _ in range(hidden - d.hidden_count()):
            d.hidden_by[others[0]][next(cards)] += 1
        d.deck = [next(cards) for _ in range(deck_count)]
