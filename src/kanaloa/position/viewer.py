"""The bookkeeping of a viewer position: what one color knows, kept in a complete state.

A viewer position (``kanaloa.position``) keeps a complete ``StateData`` in
which every card the viewer cannot see is *filled in* one deterministic way.
This module does that filling in and keeps it consistent with what the viewer
learns, without deciding any rule (the engines do that):

**Filling in.**  The unknown pool (every card the viewer cannot place, as
counts per island, docs/engine.md "Knowledge") is dealt in island order into:
the other hands' non-public parts (seat order), the other colors' setup
choices, the others' face-down discards (all of them counted under the first
other color in seat order: a viewer knows only their total), then the deck.

**Records.**  When another color's move shows a card (``green:
ALOA-BAFI/ALOA``), a take's refill or the viewer's own draw names one, or a
``faceup`` record lists some, the card is exchanged into place from another
unknown slot first.  If no unknown card of that island exists the move is
impossible for what the viewer knows, and ``MoveError`` says why.

**Waiting.**  A viewer does not see the cards the deck turns face-up at the
end of the setup (R3: the other colors' chosen cards and the top-up) or
after the reshuffle (R9; in Kahuna after each of its two reshuffles,
R16.6).  The position then waits for a ``faceup`` record.
While it waits, its state is the moment before those cards lie face-up, as
the position format writes it: after the setup every chosen card still set
aside and seat 0 to move in round 0; after the reshuffle no card face-up
yet.  The record lists the cards in the order they lie: the chosen cards in
seat order, then the cards from the deck.

Unseen slots: ``("hand", seat)`` for the non-public part of another seat's
hand, ``("chosen", seat)`` for another seat's setup choice, ``("hidden",
seat)`` for another seat's face-down discards, ``("deck", index)``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Literal

from ..errors import MoveError
from ..rules import actions as A
from ..rules.board import Board
from ..rules.reference import ReferenceState, turn_up_face_up
from ..rules.state import GAME_KAHUNA, ROUND_1, ROUND_2, ROUND_3, ROUND_SETUP, StateData
from . import notation as N
from .notation import Move

WaitKind = Literal["setup", "reshuffle"]
WAIT_SETUP: WaitKind = "setup"
WAIT_RESHUFFLE: WaitKind = "reshuffle"
UNSEEN_CHOICE = -2  # a setup choice the viewer has not seen, until it is filled in

Slot = tuple[str, int]
Fail = Callable[[str], MoveError]


def card_names(board: Board, counts: list[int]) -> list[str]:
    """A count-per-island multiset as card names in island order."""
    return [board.islands[i] for i, n in enumerate(counts) for _ in range(n)]


# -- filling in ------------------------------------------------------------------------


def fill_in(board: Board, viewer: int, d: StateData, sizes: list[int], deck_count: int, hidden: int) -> None:
    """Deal the viewer's unknown pool, in island order, into the unseen slots (module docstring).

    ``d`` holds what the viewer knows: its own hand, the public part of the
    others', ``UNSEEN_CHOICE`` for unseen setup choices, its own face-down
    discards; ``sizes`` are the hand sizes, ``deck_count`` and ``hidden`` the
    deck's and the face-down discards' totals.  The cards must add up to the
    board's supply (the caller checks).
    """
    pool = [board.cards_per_island] * board.n_islands
    known_hands = [d.hands[s] if s == viewer else d.public[s] for s in range(d.players)]
    for part in known_hands + d.hidden_by:
        for i, n in enumerate(part):
            pool[i] -= n
    for group in (d.face_up, d.discard_open, [x for x in d.setup_chosen if x >= 0]):
        for i in group:
            pool[i] -= 1
    cards = iter([i for i, n in enumerate(pool) for _ in range(n)])
    for s in range(d.players):
        if s != viewer:
            hand = list(d.public[s])
            for _ in range(sizes[s] - sum(d.public[s])):
                hand[next(cards)] += 1
            d.hands[s] = hand
    for s in range(d.players):
        if d.setup_chosen[s] == UNSEEN_CHOICE:
            d.setup_chosen[s] = next(cards)
    others = [s for s in range(d.players) if s != viewer]
    for _ in range(hidden - d.hidden_count()):
        d.hidden_by[others[0]][next(cards)] += 1
    d.deck = [next(cards) for _ in range(deck_count)]


def stand_in(d: StateData, seat: int) -> int:
    """A card of ``seat``'s filled-in hand to stand for one the viewer does not see it give up.

    One of the hand's unseen part where there is one; island 0 for an empty
    hand (the rules then refuse the move, whatever card it names).
    """
    hand, public = d.hands[seat], d.public[seat]
    for pick in (lambda x: hand[x] > public[x], lambda x: hand[x] > 0):
        x = next((x for x in range(len(hand)) if pick(x)), None)
        if x is not None:
            return x
    return 0


# -- records of the moves the viewer sees ------------------------------------------------


def record(board: Board, colors: tuple[str, ...], viewer: int, d: StateData, mv: Move, fail: Fail,
           builders: tuple[str, ...] | None = None) -> tuple[bool, int]:
    """Check the viewer's record of ``mv`` (by the color to move) and make the filled-in ``d`` agree with it.

    ``colors`` names the colors by index (the players' first); ``builders``
    the mover's colors, which a 2-player build names (R15).  Returns whether
    ``d`` changed and the action to apply.  Raises ``fail(...)`` when the
    record does not fit the position or is impossible for what the viewer
    knows.  The rules have been asked first.
    """
    me = d.to_move
    own = me == viewer
    name, seer = colors[me], colors[viewer]
    kind = mv.kind
    changed = False
    if kind == N.DRAW:
        if not own and mv.cards:
            raise fail(f"{seer} does not see the card {name} draws; write 'draw'")
        if own and not mv.cards:
            raise fail(f"name the card {seer} draws: 'draw CARD'")
        if own:
            changed = _bring_to_deck_top(board, colors, viewer, d, mv.cards[0], fail, "draw")
    elif kind == N.TAKE:
        if not d.deck and mv.refill is not None:
            raise fail("the deck is empty; nothing refills the gap")
        if d.deck and mv.refill is None:
            raise fail(f"the deck refills the gap; write 'take {mv.cards[0]} refill CARD' with the card turned up")
        if d.deck and mv.refill is not None:
            changed = _bring_to_deck_top(board, colors, viewer, d, mv.refill, fail, "refill")
    elif kind in (N.DISCARD, N.REVEAL):
        if own and not mv.cards:
            raise fail(f"name the card: '{kind} CARD'")
        if not own and mv.cards:
            what = "discards face-down" if kind == N.DISCARD else "sets aside"
            raise fail(f"{seer} does not see which card {name} {what}; write '{kind}'")
        if not own:
            # The card stays unseen: any card of the filled-in hand stands for it.
            return False, A.encode(A.DISCARD if kind == N.DISCARD else A.REVEAL, stand_in(d, me))
    elif kind in (N.PLACE, N.SWAP, N.REMOVE) and mv.cards and not own:  # a Kahuna removal pays two (R16.3)
        changed = _bring_to_hand(board, colors, viewer, d, me, mv, fail)
    return changed, mv.to_action(board, builders)


def _cannot_pay(board: Board, colors: tuple[str, ...], viewer: int, d: StateData, seat: int, mv: Move) -> str | None:
    """Why ``seat``'s hand, seen by ``viewer`` (its size and public part), cannot pay ``mv``'s cards."""
    need = Counter(board.find_island(c) for c in mv.cards)
    public = d.public[seat]
    size, known = d.hand_size(seat), sum(public)
    from_unseen = sum(max(0, n - public[x]) for x, n in need.items() if x is not None)
    if from_unseen <= size - known:
        return None
    name = colors[seat]
    shown = " ".join(card_names(board, public))
    them = "them" if known == size else f"{known} of them"
    return (f"{name} holds {size} card(s) and {colors[viewer]} knows {them} ({shown}), so {name} cannot pay "
            f"{'+'.join(mv.cards)}")


def _bring_to_hand(board: Board, colors: tuple[str, ...], viewer: int, d: StateData, seat: int, mv: Move,
                   fail: Fail) -> bool:
    """Exchange unknown cards so that ``seat``'s filled-in hand can pay ``mv``'s cards."""
    why = _cannot_pay(board, colors, viewer, d, seat, mv)
    if why is not None:
        raise fail(why)
    need: Counter[int] = Counter()
    for card in mv.cards:
        x = board.find_island(card)
        assert x is not None  # a parsed move names islands of its board
        need[x] += 1
    hand, public = d.hands[seat], d.public[seat]
    name = colors[seat]
    changed = False
    for x, n in sorted(need.items()):
        while hand[x] < n:
            # A card of the hand's unseen part that the move does not need goes out in exchange; one
            # exists, since the unseen part is large enough to pay (above).
            y = next(y for y in range(board.n_islands) if hand[y] > max(need.get(y, 0), public[y]))
            src = _find_unseen(d, viewer, x, skip={("hand", seat)})
            if src is None:
                qty = "an" if n == 1 else "two"
                raise fail(f"{name} cannot hold {qty} {board.islands[x]} card{'s' if n > 1 else ''}: "
                           f"{colors[viewer]} knows where every other {board.islands[x]} card is")
            _exchange(d, src, x, ("hand", seat), y)
            changed = True
    return changed


def _bring_to_deck_top(board: Board, colors: tuple[str, ...], viewer: int, d: StateData, card: str, fail: Fail,
                       what: str) -> bool:
    """Make the filled-in deck's top card ``card`` (the viewer saw it drawn or turned up)."""
    x = board.find_island(card)
    assert x is not None  # a parsed move names islands of its board
    if d.deck[0] == x:
        return False
    src = _find_unseen(d, viewer, x, skip={("deck", 0)})
    if src is None:
        noun = "drawn" if what == "draw" else "turned up"
        raise fail(f"{card} cannot be the card {noun}: {colors[viewer]} knows where every {card} card is")
    _exchange(d, src, x, ("deck", 0), d.deck[0])
    return True


# -- waiting for the cards turned face-up --------------------------------------------------


def enter_wait(after: StateData, before_round: int) -> WaitKind | None:
    """After a move in a viewer position: turn ``after`` back into a wait where the deck turned up unseen cards.

    ``after`` is the state the engine reached from a state in round
    ``before_round``; it is changed in place into the waiting state of the
    module docstring.  Returns the kind of wait, or None (``after`` then
    unchanged).
    """
    if before_round == ROUND_SETUP and after.round == ROUND_1:
        # R3: the chosen cards (seat order) and the top-up lie face-up; the viewer has not seen them.
        n = after.players
        after.setup_chosen = list(after.face_up[:n])
        after.deck = after.face_up[n:] + after.deck
        after.face_up = []
        after.round = ROUND_SETUP
        after.to_move = 0
        return WAIT_SETUP
    if before_round != after.round and after.round in (ROUND_2, ROUND_3) and after.face_up:
        # R9, R16.6: the reshuffled deck turned cards face-up; unseen until recorded.
        after.deck = after.face_up + after.deck
        after.face_up = []
        return WAIT_RESHUFFLE
    return None


def _turn_up(board: Board, d: StateData, kind: str) -> None:
    """Lay the waiting cards face-up, as the rules do (the setup's end, R3, or the reshuffle's, R9, R16.6)."""
    state = ReferenceState(board, d)
    if kind == WAIT_SETUP:
        state.finish_setup()
    else:
        turn_up_face_up(state)  # 4 cards, or Kahuna's 3 (R16.6)


def faceup_count(board: Board, d: StateData, kind: str) -> int:
    """How many cards the awaited ``faceup`` record names."""
    after = d.copy()
    _turn_up(board, after, kind)
    return len(after.face_up) - len(d.face_up)


def waiting_message(board: Board, d: StateData, kind: str) -> str:
    """Why the position waits for a ``faceup`` record, and how to write it."""
    k = faceup_count(board, d, kind)
    template = "faceup " + " ".join(["CARD"] * k)
    if kind == WAIT_SETUP:
        return f"every player has chosen its card; record the {k} cards turned face-up with '{template}' (R3)"
    rule = "R16.6" if d.game == GAME_KAHUNA else "R9"
    return f"the deck turned up {k} unseen card(s); record them with '{template}' ({rule})"


def apply_faceup(board: Board, colors: tuple[str, ...], viewer: int, d: StateData, kind: str, mv: Move,
                 fail: Fail) -> None:
    """The ``faceup`` record ends the wait: the named cards go face-up in ``d`` (changed in place)."""
    want = [board.find_island(c) for c in mv.cards]
    k = faceup_count(board, d, kind)
    if len(want) != k:
        raise fail(f"{k} card(s) are turned face-up; name {'all ' if k > 1 else ''}{k}")
    fixed: set[Slot] = set()
    seen = colors[viewer]
    deck_cards = want
    if kind == WAIT_SETUP:
        n = d.players
        for seat, x in enumerate(want[:n]):
            assert x is not None
            if seat == viewer:
                if d.setup_chosen[viewer] != x:
                    raise fail(f"card {seat + 1} is {seen}'s chosen card {board.islands[d.setup_chosen[viewer]]}, "
                               f"not {board.islands[x]}")
                continue
            _bring(board, seen, viewer, d, x, ("chosen", seat), fixed, fail,
                   f"{board.islands[x]} cannot be {colors[seat]}'s chosen card")
        deck_cards = want[n:]
    for j, x in enumerate(deck_cards):
        assert x is not None
        _bring(board, seen, viewer, d, x, ("deck", j), fixed, fail, f"{board.islands[x]} cannot come from the deck")
    before = len(d.face_up)
    _turn_up(board, d, kind)
    assert d.face_up[before:] == want, "the record and the rules lay the cards in the same order"


def _bring(board: Board, seen: str, viewer: int, d: StateData, x: int, target: Slot, fixed: set[Slot], fail: Fail,
           what: str) -> None:
    """Make unseen slot ``target`` hold card ``x``; then fix it."""
    if _slot_card(d, target) != x:
        src = _find_unseen(d, viewer, x, skip=fixed | {target})
        if src is None:
            raise fail(f"{what}: {seen} knows where every {board.islands[x]} card is")
        _exchange(d, src, x, target, _slot_card(d, target))
    fixed.add(target)


# -- unseen slots -----------------------------------------------------------------------------


def _slot_card(d: StateData, slot: Slot) -> int:
    """The card in a single-card slot (deck place or setup choice)."""
    kind, i = slot
    return d.deck[i] if kind == "deck" else d.setup_chosen[i]


def _find_unseen(d: StateData, viewer: int, card: int, skip: set[Slot]) -> Slot | None:
    """An unseen slot other than ``skip`` holding ``card``: deck (bottom up), discards, hands, choices."""
    for i in range(len(d.deck) - 1, -1, -1):
        if d.deck[i] == card and ("deck", i) not in skip:
            return ("deck", i)
    for seat in range(d.players):
        if seat != viewer and d.hidden_by[seat][card] > 0 and ("hidden", seat) not in skip:
            return ("hidden", seat)
    for seat in range(d.players):
        if seat != viewer and d.hands[seat][card] > d.public[seat][card] and ("hand", seat) not in skip:
            return ("hand", seat)
    for seat in range(d.players):
        if seat != viewer and d.setup_chosen[seat] == card and ("chosen", seat) not in skip:
            return ("chosen", seat)
    return None


def _exchange(d: StateData, src: Slot, x: int, dst: Slot, y: int) -> None:
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

