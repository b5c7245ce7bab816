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

**Might of the Gods (R14).**  What the viewer knows of another hand is its
knowledge of it (``StateData.known[viewer][seat]``, R14.10), which holds
the public part and may hold more; it takes ``public``'s place everywhere
above.  What the other players know is not the viewer's: it is filled in
as the public part, except that the user of a KU whose steal is pending
knows the hand it saw.  The gods' records (``kanaloa.position.notation``):

- ``ku green sees ALOA ORO RASI`` (the viewer's own KU) exchanges cards so
  that green's filled-in hand is the one shown;
- another player's steal or gift that the viewer does not see (``red:
  steal``, ``red: give green``) takes a card of the filled-in hand, as a
  face-down discard does; one it sees, from another hand (the receiver's
  ``red: give green ORO``), is exchanged into that hand first;
- PELE's takes are chance drawn from the state's stream (R14.7).  A viewer
  position has no seed; where the viewer sees a take (its own PELE, ``pele
  takes green:ALOA blue:KULU``, or the card PELE takes from it, ``red: pele
  takes ALOA``), the seen cards are exchanged into the hands they are taken
  from and the filled-in state's stream is set to one whose draws take
  them (the engine takes the ``below(size)``-th card of each hand in island
  order, docs/engine.md).  ``red: pele`` (the viewer holds no card) draws
  from the stream as it is.

Unseen slots: ``("hand", seat)`` for the part of another seat's hand the
viewer does not know, ``("chosen", seat)`` for another seat's setup choice,
``("hidden", seat)`` for another seat's face-down discards, ``("deck",
index)``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Literal

from ..errors import MoveError
from ..rules import actions
from ..rules import gods as gods_rules
from ..rules.board import Board
from ..rules.reference import ReferenceState, came_out, knows_of_deck, reshuffle_knowledge, turn_up_face_up
from ..rules.ruleset import Ruleset
from ..rules.state import NO_CARD, NO_COLOR, ROUND_1, ROUND_OVER, ROUND_SETUP, StateData
from . import notation
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


def seen_part(d: StateData, viewer: int | None, seat: int) -> list[int]:
    """What ``viewer`` knows of ``seat``'s hand: with the gods its knowledge of it (R14.10), else (and with no
    viewer) the public part."""
    return d.known[viewer][seat] if d.gods and viewer is not None else d.public[seat]


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
    known_hands = [d.hands[s] if s == viewer else seen_part(d, viewer, s) for s in range(d.players)]
    for part in known_hands + d.hidden_by:
        for i, n in enumerate(part):
            pool[i] -= n
    for group in (d.face_up, d.discard_open, [x for x in d.setup_chosen if x >= 0]):
        for i in group:
            pool[i] -= 1
    cards = iter([i for i, n in enumerate(pool) for _ in range(n)])
    for s in range(d.players):
        if s != viewer:
            hand = list(seen_part(d, viewer, s))
            for _ in range(sizes[s] - sum(hand)):
                hand[next(cards)] += 1
            d.hands[s] = hand
    for s in range(d.players):
        if d.setup_chosen[s] == UNSEEN_CHOICE:
            d.setup_chosen[s] = next(cards)
    others = [s for s in range(d.players) if s != viewer]
    for _ in range(hidden - d.hidden_count()):
        d.hidden_by[others[0]][next(cards)] += 1
    d.deck = [next(cards) for _ in range(deck_count)]
    if d.gods and d.ku_target >= 0 and d.to_move != viewer:
        # R14.6: the user of a KU whose steal is pending saw the whole hand (the others' knowledge is the
        # public part, as the reader fills it in).
        d.known[d.to_move][d.ku_target] = list(d.hands[d.ku_target])


def view_of(rs: Ruleset, full: StateData, viewer: int) -> tuple[StateData, WaitKind | None]:
    """What ``viewer`` knows of the complete state ``full``, filled in: exactly the state a viewer position
    reading ``full``'s document as the viewer sees it holds, without writing and reading the document.

    What the document leaves out for a viewer is cleared (the other hands but their known part, the
    deck's order, the others' face-down discards and setup choices, the others' knowledge, the seed;
    and once the game is over, the turn and the final round), then ``fill_in`` deals the unseen cards.
    Returns the state and the kind of wait (None: a reachable complete state never waits).
    """
    d = full.copy()
    n, seats = d.n_islands, range(d.players)
    sizes = [d.hand_size(s) for s in seats]
    deck_count, hidden = len(d.deck), d.hidden_count()
    for s in seats:
        if s != viewer:
            d.hands[s] = [0] * n
            d.hidden_by[s] = [0] * n
            if d.setup_chosen[s] != NO_CARD:
                d.setup_chosen[s] = UNSEEN_CHOICE
        if d.gods:  # R14.10: the viewer's knowledge is its own; the others' is the public part
            for o in seats:
                if o != viewer and o != s:
                    d.known[o][s] = list(d.public[s])
    d.deck = []
    d.rng = 0
    over = d.round == ROUND_OVER
    if d.pile and not over and knows_of_deck(d.pile[viewer], d.pile_unseen[viewer]):
        d.pile = [row if o == viewer else [0] * n for o, row in enumerate(d.pile)]
        d.pile_unseen = [k if o == viewer else 0 for o, k in enumerate(d.pile_unseen)]
    else:
        d.pile, d.pile_unseen = [], []
    if over:
        d.to_move = d.ranking[0]
        d.played, d.discarded, d.remove_on, d.turn_color, d.skipped = 0, False, [], NO_COLOR, False
        d.ku_target, d.pele_gifts, d.lono_draw, d.over_limit = -1, [], False, False
        d.final_done, d.final_passed = [], []
    wait: WaitKind | None = None
    if d.round == ROUND_SETUP and all(x != NO_CARD for x in d.setup_chosen):
        wait = WAIT_SETUP
    elif not d.face_up and deck_count > 0 and d.round in rs.deck_rounds:
        wait = WAIT_RESHUFFLE
    fill_in(rs.board, viewer, d, sizes, deck_count, hidden)
    return d, wait


def stand_in(d: StateData, seat: int, viewer: int | None = None) -> int:
    """A card of ``seat``'s filled-in hand to stand for one ``viewer`` does not see it give up.

    One of the hand's part the viewer does not know where there is one;
    island 0 for an empty hand (the rules then refuse the move, whatever
    card it names).
    """
    hand, known = d.hands[seat], seen_part(d, viewer, seat)
    for pick in (lambda x: hand[x] > known[x], lambda x: hand[x] > 0):
        x = next((x for x in range(len(hand)) if pick(x)), None)
        if x is not None:
            return x
    return 0


# -- records of the moves the viewer sees ------------------------------------------------


def record(rs: Ruleset, viewer: int, d: StateData, mv: Move, fail: Fail) -> tuple[bool, int]:
    """Check the viewer's record of ``mv`` (by the color to move) and make the filled-in ``d`` agree with it.

    Returns whether ``d`` changed and the action to apply.  Raises
    ``fail(...)`` when the record does not fit the position or is
    impossible for what the viewer knows.  The rules have been asked first.
    """
    board, colors = rs.board, rs.colors
    me = d.to_move
    own = me == viewer
    name, seer = colors[me], colors[viewer]
    kind = mv.kind
    changed = False
    if kind in notation.GOD_KINDS:
        changed, action = _record_god_move(board, colors, viewer, d, mv, fail)
        return changed, mv.to_action(rs, me) if action is None else action
    if kind == notation.DRAW:
        if not own and mv.cards:
            raise fail(f"{seer} does not see the card {name} draws; write 'draw'")
        if own and not mv.cards:
            raise fail(f"name the card {seer} draws: 'draw CARD'")
        if own:
            changed = _bring_to_deck_top(board, colors, viewer, d, mv.cards[0], fail, "draw")
    elif kind == notation.TAKE:
        if not d.deck and mv.refill is not None:
            raise fail("the deck is empty; nothing refills the gap")
        if d.deck and mv.refill is None:
            raise fail(f"the deck refills the gap; write 'take {mv.cards[0]} refill CARD' with the card turned up")
        if d.deck and mv.refill is not None:
            changed = _bring_to_deck_top(board, colors, viewer, d, mv.refill, fail, "refill")
    elif kind in (notation.DISCARD, notation.REVEAL):
        what = "discards face-down" if kind == notation.DISCARD else "sets aside"
        _check_shown(own, bool(mv.cards), fail, f"name the card: '{kind} CARD'",
                     f"{seer} does not see which card {name} {what}; write '{kind}'")
        if not own:
            # The card stays unseen: any card of the filled-in hand stands for it.
            code = actions.DISCARD if kind == notation.DISCARD else actions.REVEAL
            return False, actions.encode(code, stand_in(d, me, viewer))
    elif kind in (notation.PLACE, notation.SWAP, notation.REMOVE) and mv.paid and not own:  # R16.3: a removal pays
        changed = _bring_to_hand(board, colors, viewer, d, me, mv, fail)
    return changed, mv.to_action(rs, me)


def _check_shown(sees: bool, shown: bool, fail: Fail, name_it: str, unseen: str) -> None:
    """A record names the cards of a move exactly when the viewer sees them: ``name_it`` is the error when
    the viewer sees them and the record does not name them, ``unseen`` when it names cards the viewer
    cannot see."""
    if sees and not shown:
        raise fail(name_it)
    if shown and not sees:
        raise fail(unseen)


def _record_god_move(board: Board, colors: tuple[str, ...], viewer: int, d: StateData, mv: Move,
                     fail: Fail) -> tuple[bool, int | None]:
    """``record`` for the god tokens' moves (R14.6-R14.8; module docstring): whether ``d`` changed, and the
    action when it is not the move's own (a card the viewer does not see, stood in for)."""
    me = d.to_move
    own = me == viewer
    name, seer = colors[me], colors[viewer]
    players = colors[: d.players]
    kind = mv.kind
    if kind == notation.KU:
        target = players.index(str(mv.target))
        _check_shown(own, bool(mv.seen), fail,
                     f"name the cards {seer} sees in {mv.target}'s hand: 'ku {mv.target} sees CARD ...' (R14.6)",
                     f"only the user of KU sees the hand; {seer} writes '{name}: ku {mv.target}' (R14.6)")
        return (_make_hand(board, colors, viewer, d, target, mv, fail) if own else False), None
    if kind == notation.STEAL:
        victim = d.ku_target
        sees = own or viewer == victim
        _check_shown(sees, bool(mv.cards), fail, f"name the card {name} takes: '{name}: steal CARD' (R14.6)",
                     f"{seer} does not see which card {name} takes from {players[victim]}; write '{name}: steal' "
                     f"(R14.10)")
        return False, None if sees else actions.encode(actions.STEAL, stand_in(d, victim, viewer))
    if kind == notation.GIVE:
        receiver = players.index(str(mv.target))
        sees = own or viewer == receiver
        _check_shown(sees, bool(mv.cards), fail, f"name the card {name} gives: '{name}: give {mv.target} CARD' (R14.7)",
                     f"{seer} does not see the card {name} gives {mv.target}; write '{name}: give {mv.target}' "
                     f"(R14.10)")
        if not sees:
            return False, actions.encode(actions.GIVE, stand_in(d, me, viewer), receiver)
        return (False if own else _bring_to_hand(board, colors, viewer, d, me, mv, fail)), None
    if kind == notation.PELE:
        return _record_pele(board, colors, viewer, d, mv, fail), None
    return False, None  # LONO: its extra card is an R5 record of its own


def _make_hand(board: Board, colors: tuple[str, ...], viewer: int, d: StateData, seat: int, mv: Move,
               fail: Fail) -> bool:
    """Exchange unknown cards so that ``seat``'s filled-in hand is the one a KU record shows (R14.6)."""
    want = [0] * board.n_islands
    for card in mv.seen:
        want[_island(board, card)] += 1
    hand, known = d.hands[seat], seen_part(d, viewer, seat)
    name, seer = colors[seat], colors[viewer]
    if sum(want) != sum(hand):
        raise fail(f"{name} holds {sum(hand)} card(s); KU shows them all, not {sum(want)} (R14.6)")
    lacking = [x for x in range(board.n_islands) if known[x] > want[x]]
    if lacking:
        shown = " ".join(card_names(board, known))
        raise fail(f"{seer} knows that {name}'s hand holds {shown}, and the cards named lack "
                   f"{board.islands[lacking[0]]} (R14.10)")
    changed = False
    for x in range(board.n_islands):
        while hand[x] < want[x]:
            y = next(y for y in range(board.n_islands) if hand[y] > want[y])  # an unknown card: want covers known
            src = _find_unseen(d, viewer, x, skip={("hand", seat)})
            if src is None:
                plural = "s" if want[x] > 1 else ""
                raise fail(f"{name} cannot hold {want[x]} {board.islands[x]} card{plural}: {seer} knows where every "
                           f"other {board.islands[x]} card is")
            _exchange(d, src, x, ("hand", seat), y)
            changed = True
    return changed


def _island(board: Board, card: str) -> int:
    x = board.find_island(card)
    assert x is not None  # a parsed move names islands of its board
    return x


def _record_pele(board: Board, colors: tuple[str, ...], viewer: int, d: StateData, mv: Move, fail: Fail) -> bool:
    """The viewer's record of PELE (R14.7): make the filled-in state's takes those the viewer sees."""
    me = d.to_move
    name, seer = colors[me], colors[viewer]
    players = colors[: d.players]
    victims = gods_rules.pele_victims(d)
    want: dict[int, int] = {}
    if me == viewer:
        form = "pele takes " + " ".join(f"{players[v]}:CARD" for v in victims)
        if not mv.takes:
            raise fail(f"name the card PELE takes from each player who holds one: '{form}' (R14.7)")
        for who, card in mv.takes:
            v = players.index(who)
            if v == me:
                raise fail(f"PELE takes from the other players, not from {who} (R14.7)")
            if v not in victims:
                raise fail(f"{who} holds no card, so PELE takes nothing from it (R14.7)")
            want[v] = _island(board, card)
        missing = [players[v] for v in victims if v not in want]
        if missing:
            raise fail(f"PELE also takes a card from {', '.join(missing)}; name each: '{form}' (R14.7)")
    elif viewer in victims:
        if mv.takes or not mv.cards:
            raise fail(f"{seer} sees the card PELE takes from it, and only that one: write '{name}: pele takes "
                       f"CARD' (R14.7, R14.10)")
        x = _island(board, mv.cards[0])
        if d.hands[viewer][x] == 0:
            raise fail(f"{seer} holds no {mv.cards[0]} card for PELE to take")
        want[viewer] = x
    elif mv.takes or mv.cards:
        raise fail(f"{seer} holds no card, so PELE takes none from it and it sees none of the takes; write "
                   f"'{name}: pele' (R14.10)")
    if not want:
        return False
    reserved: dict[int, list[int]] = {}
    for v in victims:  # the seen cards into the hands they are taken from
        if v in want and v != viewer:
            _bring_card(board, colors, viewer, d, v, want[v], reserved, fail)
            reserved.setdefault(v, [0] * board.n_islands)[want[v]] += 1
    stream = gods_rules.stream_for_pele_takes(d, want)
    if stream is None:  # pragma: no cover - one stream in at most 125 fits
        raise fail("no chance stream draws the takes recorded")
    d.rng = stream
    return True


def _bring_card(board: Board, colors: tuple[str, ...], viewer: int, d: StateData, seat: int, x: int,
                reserved: dict[int, list[int]], fail: Fail) -> None:
    """Exchange an unknown card so that ``seat``'s filled-in hand holds a card of island ``x``; the cards
    ``reserved`` for each seat stay where they are."""
    hand = d.hands[seat]
    if hand[x] > 0:
        return
    name, seer, card = colors[seat], colors[viewer], board.islands[x]
    keep = [k + r for k, r in zip(seen_part(d, viewer, seat), reserved.get(seat, [0] * board.n_islands),
                                 strict=True)]
    y = next((y for y in range(board.n_islands) if hand[y] > keep[y]), None)
    if y is None:
        raise fail(f"{seer} knows {name}'s whole hand, {' '.join(card_names(board, hand))}, and it holds no {card} "
                   f"(R14.10)")
    src = _find_unseen(d, viewer, x, skip={("hand", seat)}, reserved=reserved)
    if src is None:
        raise fail(f"{name} cannot hold a {card} card: {seer} knows where every {card} card is")
    _exchange(d, src, x, ("hand", seat), y)


def _cannot_pay(board: Board, colors: tuple[str, ...], viewer: int, d: StateData, seat: int, mv: Move) -> str | None:
    """Why ``seat``'s hand, seen by ``viewer`` (its size and public part), cannot pay ``mv``'s cards."""
    need = Counter(board.find_island(c) for c in mv.paid)
    public = seen_part(d, viewer, seat)
    size, known = d.hand_size(seat), sum(public)
    from_unseen = sum(max(0, n - public[x]) for x, n in need.items() if x is not None)
    if from_unseen <= size - known:
        return None
    name = colors[seat]
    shown = " ".join(card_names(board, public))
    them = "them" if known == size else f"{known} of them"
    return (f"{name} holds {size} card(s) and {colors[viewer]} knows {them} ({shown}), so {name} cannot pay "
            f"{'+'.join(mv.paid)}")


def _bring_to_hand(board: Board, colors: tuple[str, ...], viewer: int, d: StateData, seat: int, mv: Move,
                   fail: Fail) -> bool:
    """Exchange unknown cards so that ``seat``'s filled-in hand can pay ``mv``'s cards."""
    why = _cannot_pay(board, colors, viewer, d, seat, mv)
    if why is not None:
        raise fail(why)
    need: Counter[int] = Counter()
    for card in mv.paid:
        need[_island(board, card)] += 1
    hand, public = d.hands[seat], seen_part(d, viewer, seat)
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
    check_went_in(board, colors[viewer], viewer, d, [x], fail)
    if d.deck[0] == x:
        return False
    src = _find_unseen(d, viewer, x, skip={("deck", 0)})
    if src is None:
        noun = "drawn" if what == "draw" else "turned up"
        raise fail(f"{card} cannot be the card {noun}: {colors[viewer]} knows where every {card} card is")
    _exchange(d, src, x, ("deck", 0), d.deck[0])
    return True


def check_went_in(board: Board, seen: str, viewer: int, d: StateData, cards: list[int], fail: Fail) -> None:
    """Refuse cards said to come out of the deck that the viewer knows did not go into it at the last
    reshuffle (docs/engine.md "What a reshuffle reveals"): each must be one it saw go in and has not seen
    come out, or one of those it could not see."""
    if not d.pile:
        return
    went_in, unseen = list(d.pile[viewer]), d.pile_unseen[viewer]
    for x in cards:
        left = came_out(went_in, unseen, x)
        if left is not None:
            unseen = left
        else:
            name = board.islands[x]
            raise fail(f"{name} cannot come from the deck: {seen} saw every card that went into it at the "
                       f"reshuffle, and no {name} is left among them")


# -- waiting for the cards turned face-up --------------------------------------------------


def enter_wait(rs: Ruleset, after: StateData, before: StateData, viewer: int) -> WaitKind | None:
    """After a move in a viewer position: turn ``after`` back into a wait where the deck turned up unseen cards.

    ``after`` is the state the engine reached from ``before`` (the
    viewer's filled-in state); it is changed in place into the waiting
    state of the module docstring.  After a reshuffle the viewer keeps what
    it saw go into the deck (``reshuffle_knowledge`` of ``before``), and
    nothing of the others' knowledge, which the filled-in cards would
    make up.  Returns the kind of wait, or None (``after`` then unchanged).
    """
    before_round = before.round
    if before_round == ROUND_SETUP and after.round == ROUND_1:
        # R3: the chosen cards (seat order) and the top-up lie face-up; the viewer has not seen them.
        n = after.players
        after.setup_chosen = list(after.face_up[:n])
        after.deck = after.face_up[n:] + after.deck
        after.face_up = []
        after.round = ROUND_SETUP
        after.to_move = 0
        return WAIT_SETUP
    if before_round != after.round and after.round in rs.reshuffled_rounds and after.face_up:
        # R9, R16.6: the reshuffled deck turned cards face-up; unseen until recorded.
        after.deck = after.face_up + after.deck
        after.face_up = []
        pile, unseen = reshuffle_knowledge(before)
        if pile and knows_of_deck(pile[viewer], unseen[viewer]):
            after.pile = [row if o == viewer else [0] * len(row) for o, row in enumerate(pile)]
            after.pile_unseen = [n if o == viewer else 0 for o, n in enumerate(unseen)]
        else:
            after.pile, after.pile_unseen = [], []
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


def waiting_message(rs: Ruleset, d: StateData, kind: str) -> str:
    """Why the position waits for a ``faceup`` record, and how to write it."""
    k = faceup_count(rs.board, d, kind)
    template = "faceup " + " ".join(["CARD"] * k)
    if kind == WAIT_SETUP:
        return f"every player has chosen its card; record the {k} cards turned face-up with '{template}' (R3)"
    rule = rs.rule_of("reshuffle")
    return f"the deck turned up {k} unseen card(s); record them with '{template}' ({rule})"


def apply_faceup(rs: Ruleset, viewer: int, d: StateData, kind: str, mv: Move, fail: Fail) -> None:
    """The ``faceup`` record ends the wait: the named cards go face-up in ``d`` (changed in place)."""
    board, colors = rs.board, rs.colors
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
    check_went_in(board, seen, viewer, d, [x for x in deck_cards if x is not None], fail)
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


def _find_unseen(d: StateData, viewer: int, card: int, skip: set[Slot],
                 reserved: dict[int, list[int]] | None = None) -> Slot | None:
    """An unseen slot other than ``skip`` holding ``card``: deck (bottom up), discards, hands (less the cards
    ``reserved`` in them), choices."""
    for i in range(len(d.deck) - 1, -1, -1):
        if d.deck[i] == card and ("deck", i) not in skip:
            return ("deck", i)
    for seat in range(d.players):
        if seat != viewer and d.hidden_by[seat][card] > 0 and ("hidden", seat) not in skip:
            return ("hidden", seat)
    for seat in range(d.players):
        kept = seen_part(d, viewer, seat)[card] + (reserved[seat][card] if reserved and seat in reserved else 0)
        if seat != viewer and d.hands[seat][card] > kept and ("hand", seat) not in skip:
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
            if kind == "hand" and d.gods:  # R14.10: nobody knows more of a hand than it holds
                for rows in d.known:
                    rows[i][out] = min(rows[i][out], counts[out])

