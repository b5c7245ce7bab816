"""Might of the Gods (R14), the variant of Kanaloa with god tokens, in the readable reference implementation.

A game of the variant is a Kanaloa ``StateData`` with ``gods`` set.  ``ReferenceState`` hands the
variant's own moves to the functions here, and calls them from the events of Kanaloa that the
variant changes: a card paid, a face-down discard, a face-up take (what each player knows, R14.10),
a new absolute majority (claiming, R14.2) and the end of a turn.  docs/engine.md "Might of the Gods
(R14)" pins down every detail; there is one small function per rule.

In short: 16 tokens lie face up on the 16 islands (8 KANE and 2 each of KANALOA, KU, PELE and
LONO, shuffled at the deal).  The first color to gain control of an island claims its token: KANE
scores at once, the others go to the color's player, who uses each once, in its play phase, in
round 2 only:

- KANALOA is a joker card in a build: ``PLACE(k, JOKER)``, ``SWAP(k, SWAP_JA / SWAP_JB / SWAP_JJ)``;
- KU shows another player's hand, then takes a card of it: ``KU(t)``, then ``STEAL(x)``;
- PELE takes a card at random from every other hand, then gives one back to each, in seat order
  after the user: ``PELE``, then ``GIVE(x, v)`` for each;
- LONO takes an extra card without ending the turn: ``LONO``, then ``TAKE(x)`` or ``DRAW``.

Tokens may raise a hand above 5 during the turn; a player whose hand a token left above 4 may then
discard face-down, one card at a time, down to 4, even after playing (R14.9).  What each player
knows of each other hand is kept per observer in ``StateData.known`` (R14.10), beside ``public``,
what every player knows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import actions as A
from . import reference as ref  # the module, not its names: reference imports this one too
from .board import Board
from .rng import SplitMix64
from .state import (
    GAME_KANALOA,
    GAMES,
    GOD_NAMES,
    GOD_TOKENS,
    GODS_ISLANDS,
    HAND_LIMIT,
    KANALOA,
    KANE,
    KU,
    LONO,
    NO_GOD,
    NO_OWNER,
    PELE,
    ROUND_1,
    ROUND_2,
    ROUND_FINAL,
    ROUND_SETUP,
    StateData,
    seat_of_color,
)

if TYPE_CHECKING:
    from .reference import ReferenceState

KANALOA_COMBOS = (A.SWAP_JA, A.SWAP_JB, A.SWAP_JJ)  # R14.5: swaps paid with KANALOA
TOKEN_ACTIONS = {A.KU: KU, A.PELE: PELE, A.LONO: LONO}  # the actions that use a token (R14.6-R14.8)


# -- R14.1 tokens and the deal -------------------------------------------------------------------


def check_board(board: Board) -> None:  # R14.1
    """Raise ``ValueError`` (naming the field ``board``) unless ``board`` has one island per token."""
    if board.n_islands != GODS_ISLANDS:
        raise ValueError(f"board: Might of the Gods puts one of its {GODS_ISLANDS} god tokens on each island; board "
                         f"{board.name} has {board.n_islands} islands (R14.1)")


def check_game(game: int) -> None:  # R14, R16.9
    """Raise ``ValueError`` (naming the field ``gods``) unless ``game`` is Kanaloa."""
    if game != GAME_KANALOA:
        shown = next((k.capitalize() for k, v in GAMES.items() if v == game), f"game {game}")
        raise ValueError(f"gods: Might of the Gods is a variant of Kanaloa, not of {shown} (R16.9)")


def deal(board: Board, players: int, preset: int, seed: int) -> StateData:  # R3, R14.1
    """A new game of the variant in setup: the cards are dealt exactly as in Kanaloa, then the
    tokens are laid from the same stream.  Raises ``ValueError`` for a board without 16 islands."""
    check_board(board)
    data = ref.ReferenceState.deal(board, players, preset, seed).data
    lay_tokens(data)
    return data


def token_list() -> list[int]:  # R14.1
    """The 16 tokens in kind order: ``[KANE] * 8 + [KANALOA] * 2 + [KU] * 2 + [PELE] * 2 + [LONO] * 2``."""
    return [kind for kind, count in enumerate(GOD_TOKENS) for _ in range(count)]


def lay_tokens(data: StateData) -> None:  # R14.1, R14.10
    """Turn a freshly dealt Kanaloa game into one of the variant: the token list, shuffled by the
    state's stream after the cards, puts token ``i`` on island ``i``; nobody owns a token or knows
    more of another hand than ``public`` says."""
    rng = SplitMix64(data.rng)
    tokens = token_list()
    rng.shuffle(tokens)
    seats = range(data.players)
    data.gods = True
    data.god_on = tokens
    data.gods_owned = [[0] * len(GOD_NAMES) for _ in seats]
    data.known = [[[0] * data.n_islands for _ in seats] for _ in seats]
    data.rng = rng.state


# -- R14.2, R14.3 claiming ------------------------------------------------------------------------


def kane_points(size: int) -> int:  # R14.3
    """What KANE scores on an island of ``size`` links: 1 for 3, 2 for 5, 3 for ORO's 7."""
    return max(1, (size - 1) // 2)


def claim(state: ReferenceState, island: int, color: int) -> None:  # R14.2, R14.3
    """``color`` has just gained control of ``island`` (R6, after its removals): the token still on
    it is claimed.  KANE scores for ``color`` at once, in any round; any other token goes to the
    player of ``color`` (with two players, either color's tokens are its player's)."""
    d = state.data
    token = d.god_on[island]
    if token == NO_GOD:
        return
    d.god_on[island] = NO_GOD
    if token == KANE:
        d.scores[color] += kane_points(state.board.sizes[island])
    else:
        d.gods_owned[seat_of_color(color, d.players)][token] += 1


# -- R14.10 knowledge: what each observer knows of each other hand ----------------------------------


def others(d: StateData, *seats: int) -> list[int]:
    """Every seat but ``seats``, in seat order."""
    return [o for o in range(d.players) if o not in seats]


def one_fewer_of_each(counts: list[int]) -> list[int]:  # R14.10
    """What remains known of a hand after a card left it unseen: one fewer of every island."""
    return [c - 1 if c > 0 else 0 for c in counts]


def see_face_up_take(d: StateData, seat: int, island: int) -> None:  # R5, R14.10
    """Every other player saw ``seat`` take the face-up ``island``."""
    for o in others(d, seat):
        d.known[o][seat][island] += 1


def see_paid(d: StateData, seat: int, island: int) -> None:  # R4, R14.10
    """Every other player saw ``seat`` play a card of ``island``."""
    for o in others(d, seat):
        if d.known[o][seat][island] > 0:
            d.known[o][seat][island] -= 1


def see_face_down_discard(d: StateData, seat: int) -> None:  # R4, R14.9, R14.10
    """Nobody else saw which card ``seat`` discarded face-down."""
    for o in others(d, seat):
        d.known[o][seat] = one_fewer_of_each(d.known[o][seat])


def move_card_seen(d: StateData, giver: int, receiver: int, island: int) -> None:  # R14.6, R14.7, R14.10
    """A card of ``island`` goes from ``giver``'s hand to ``receiver``'s, seen by both of them
    (a steal, one of PELE's takes, a gift).  Every other player, and ``public``, saw a card leave
    ``giver``'s hand, not which."""
    d.hands[giver][island] -= 1
    d.hands[receiver][island] += 1
    if d.known[receiver][giver][island] > 0:
        d.known[receiver][giver][island] -= 1
    d.known[giver][receiver][island] += 1
    for o in others(d, giver, receiver):
        d.known[o][giver] = one_fewer_of_each(d.known[o][giver])
    d.public[giver] = one_fewer_of_each(d.public[giver])


def show_hand(d: StateData, viewer: int, seat: int) -> None:  # R14.6, R14.10
    """KU shows ``viewer`` the whole hand of ``seat``."""
    d.known[viewer][seat] = list(d.hands[seat])


# -- legal moves ------------------------------------------------------------------------------------


def pending(d: StateData) -> bool:  # R14.6-R14.8
    """A token's action is not finished: a steal, a gift or LONO's extra card is due first."""
    return d.ku_target >= 0 or bool(d.pele_gifts) or d.lono_draw


def pending_moves(state: ReferenceState) -> list[int]:  # R14.6-R14.8
    """What a token use leaves to do, before anything else: the steal after KU, then the gifts
    after PELE, then LONO's extra card."""
    d = state.data
    if d.ku_target >= 0:
        return steal_moves(state)
    if d.pele_gifts:
        return give_moves(state)
    return lono_card_moves(state)


def steal_moves(state: ReferenceState) -> list[int]:  # R14.6
    """``STEAL(x)`` for each island in the hand KU showed."""
    d = state.data
    hand = d.hands[d.ku_target]
    return [A.encode(A.STEAL, x) for x in range(state.board.n_islands) if hand[x] > 0]


def give_moves(state: ReferenceState) -> list[int]:  # R14.7
    """``GIVE(x, v)`` for each island in the mover's hand, to the first seat still owed a gift."""
    d = state.data
    hand = d.hands[d.to_move]
    receiver = d.pele_gifts[0]
    return [A.encode(A.GIVE, x, receiver) for x in range(state.board.n_islands) if hand[x] > 0]


def lono_card_moves(state: ReferenceState) -> list[int]:  # R14.8
    """LONO's extra card, as R5 but whatever the hand holds: a face-up card or the deck's top."""
    d = state.data
    moves = [A.encode(A.TAKE, x) for x in sorted(set(d.face_up))]
    if d.deck:
        moves.append(A.encode(A.DRAW))
    return moves


def play_phase_moves(state: ReferenceState) -> list[int]:  # R4, R5, R14.4-R14.9
    """The moves of rounds 1 and 2 when nothing is pending: Kanaloa's, with the discards of R14.9,
    the turn's end when nothing is left to draw (R14.8) and, in round 2, the token uses (R14.4)."""
    d = state.data
    if d.discarded:  # R4, R14.9: more discards while the hand holds more than 4, then the draw
        return limit_discards(state) + draw_moves(state)
    moves = state._build_moves() + discard_moves(state) + draw_moves(state)
    if d.round == ROUND_2:
        moves += kanaloa_builds(state) + ku_moves(state) + pele_moves(state) + lono_moves(state)
    return moves


def hand_discards(state: ReferenceState) -> list[int]:
    hand = state.data.hands[state.data.to_move]
    return [A.encode(A.DISCARD, x) for x in range(state.board.n_islands) if hand[x] > 0]


def above_limit(d: StateData) -> bool:  # R4, R14.9
    return d.hand_size(d.to_move) > HAND_LIMIT


def discard_moves(state: ReferenceState) -> list[int]:  # R4, R14.9
    """A face-down discard: before any card is played (R4), or at any time while a token use left
    the hand above 4 (R14.9)."""
    d = state.data
    if d.played == 0 or (d.over_limit and above_limit(d)):
        return hand_discards(state)
    return []


def limit_discards(state: ReferenceState) -> list[int]:  # R14.9
    """After a face-down discard, more of them while the hand still holds more than 4."""
    return hand_discards(state) if above_limit(state.data) else []


def draw_moves(state: ReferenceState) -> list[int]:  # R5, R14.8
    """R5's draw (with R4's hand limit); in round 2, once LONO has emptied the deck and the face-up
    row, ``END`` ends the turn instead (with the same hand limit)."""
    d = state.data
    moves = state._draw_moves()
    if d.round == ROUND_2 and not d.deck and not d.face_up and not above_limit(d):
        moves.append(A.encode(A.END))
    return moves


def owned(d: StateData, token: int) -> int:
    """How many unused tokens of kind ``token`` the mover owns."""
    return d.gods_owned[d.to_move][token]


def kanaloa_builds(state: ReferenceState) -> list[int]:  # R14.5, R13, R15.3
    """The builds paid with KANALOA, for each color the mover may build with now: a place on any free
    link; a swap of another color's bridge with KANALOA and a card of either end, or with two
    KANALOA."""
    d = state.data
    jokers = owned(d, KANALOA)
    if not jokers:
        return []
    hand = d.hands[d.to_move]
    moves = []
    for slot, color in state.building_colors():
        for k, (a, b) in enumerate(state.board.links):
            owner = d.bridges[k]
            if owner == NO_OWNER:
                combos = [A.JOKER]
            elif owner != color:
                combos = [combo for combo, ok in ((A.SWAP_JA, hand[a] > 0), (A.SWAP_JB, hand[b] > 0),
                                                  (A.SWAP_JJ, jokers >= 2)) if ok]
            else:
                continue
            kind = A.PLACE if owner == NO_OWNER else A.SWAP
            moves += [A.with_slot(A.encode(kind, k, combo), slot) for combo in combos]
    return moves


def ku_moves(state: ReferenceState) -> list[int]:  # R14.6, R14.9
    """``KU(t)`` for each other player ``t`` who holds a card, with a KU owned."""
    d = state.data
    if not owned(d, KU):
        return []
    return [A.encode(A.KU, t) for t in others(d, d.to_move) if d.hand_size(t) > 0]


def pele_moves(state: ReferenceState) -> list[int]:  # R14.7, R14.9
    """``PELE`` with a PELE owned, when another player holds a card."""
    d = state.data
    if owned(d, PELE) and any(d.hand_size(v) > 0 for v in others(d, d.to_move)):
        return [A.encode(A.PELE)]
    return []


def lono_moves(state: ReferenceState) -> list[int]:  # R14.8
    """``LONO`` with a LONO owned, when the deck or the face-up row holds a card."""
    d = state.data
    if owned(d, LONO) and (d.deck or d.face_up):
        return [A.encode(A.LONO)]
    return []


# -- applying moves -----------------------------------------------------------------------------------


def is_variant_move(d: StateData, action: int) -> bool:
    """True for the moves only the variant has, or plays its own way: token uses and what they
    leave pending, builds paid with KANALOA, LONO's extra card and the turn's end in round 2."""
    kind = A.kind_of(action)
    if kind in (A.KU, A.STEAL, A.PELE, A.GIVE, A.LONO):
        return True
    if kind == A.PLACE:
        return A.build_arg(action) == A.JOKER
    if kind == A.SWAP:
        return A.build_arg(action) in KANALOA_COMBOS
    if kind in (A.TAKE, A.DRAW):
        return d.lono_draw
    return kind == A.END and d.round == ROUND_2


def apply(state: ReferenceState, action: int) -> None:
    """Play a move of the variant (``is_variant_move``) for the player to move.  Unchecked: it must
    be legal."""
    d = state.data
    kind, a, b = A.kind_of(action), A.arg_a(action), A.arg_b(action)
    if kind == A.PLACE:
        place_with_kanaloa(state, a, state.colors_of(d.to_move)[A.build_slot(action)])
    elif kind == A.SWAP:
        swap_with_kanaloa(state, a, A.build_arg(action), state.colors_of(d.to_move)[A.build_slot(action)])
    elif kind == A.KU:
        use_ku(state, a)
    elif kind == A.STEAL:
        steal(state, a)
    elif kind == A.PELE:
        use_pele(state)
    elif kind == A.GIVE:
        give(state, a, b)
    elif kind == A.LONO:
        use_lono(state)
    elif kind in (A.TAKE, A.DRAW):
        take_lono_card(state, a if kind == A.TAKE else None)
    elif kind == A.END:
        end_without_draw(state)
    else:
        raise ValueError(f"action code {action} is no move of Might of the Gods")


def spend(d: StateData, token: int, count: int = 1) -> None:  # R14.4
    """The mover uses ``count`` of its ``token``s; they leave the game."""
    d.gods_owned[d.to_move][token] -= count


def note_hand_limit(d: StateData) -> None:  # R14.9
    """After a token use brought cards in: a hand above 4 may be discarded down to 4 this turn."""
    if above_limit(d):
        d.over_limit = True


def kanaloa_cards(ends: tuple[int, int], combo: int) -> tuple[int, ...]:  # R14.5
    """The cards a swap paid with KANALOA pays besides it: one of ``A``, one of ``B``, or none."""
    a, b = ends
    return {A.SWAP_JA: (a,), A.SWAP_JB: (b,), A.SWAP_JJ: ()}[combo]


def place_with_kanaloa(state: ReferenceState, link: int, color: int) -> None:  # R14.5
    """KANALOA pays a place on the free ``link``: no card is played (``played`` stays)."""
    color = state.choose_color(color)
    spend(state.data, KANALOA)
    state.data.bridges[link] = color
    state.resolve_build(link, color)


def swap_with_kanaloa(state: ReferenceState, link: int, combo: int, color: int) -> None:  # R14.5
    """KANALOA and a card of an end, or two KANALOA, pay a swap of the bridge on ``link``."""
    color = state.choose_color(color)
    spend(state.data, KANALOA, 2 if combo == A.SWAP_JJ else 1)
    for card in kanaloa_cards(state.board.links[link], combo):
        state.pay(card)
    state.data.bridges[link] = color
    state.resolve_build(link, color)


def use_ku(state: ReferenceState, target: int) -> None:  # R14.6
    """KU shows the mover ``target``'s hand; a card of it is to be taken next."""
    d = state.data
    spend(d, KU)
    show_hand(d, d.to_move, target)
    d.ku_target = target


def steal(state: ReferenceState, island: int) -> None:  # R14.6
    """The mover takes the card of ``island`` from the hand KU showed (the victim sees which)."""
    d = state.data
    move_card_seen(d, d.ku_target, d.to_move, island)
    d.ku_target = -1
    note_hand_limit(d)


def nth_card(hand: list[int], index: int) -> int:  # R14.7
    """The island of the ``index``-th card of ``hand``, its cards listed in island order."""
    for island, count in enumerate(hand):
        if index < count:
            return island
        index -= count
    raise IndexError("the hand holds fewer cards")


def pele_victims(d: StateData) -> list[int]:  # R14.7
    """The players PELE takes a card from: every other player who holds one, in seat order after the mover."""
    me = d.to_move
    seats = [(me + step) % d.players for step in range(1, d.players)]
    return [v for v in seats if d.hand_size(v) > 0]


def pele_takes(d: StateData, stream: int) -> tuple[dict[int, int], int]:  # R14.7
    """The card PELE takes from each victim when the chance stream is in state ``stream``: one draw per victim,
    in seat order after the mover, ``below(hand size)`` naming the card in island order.  Returns the takes
    (victim to island) and the stream's state after them."""
    rng = SplitMix64(stream)
    takes = {v: nth_card(d.hands[v], rng.below(d.hand_size(v))) for v in pele_victims(d)}
    return takes, rng.state


PELE_TRIES = 1 << 20  # streams tried for takes a viewer recorded; one in at most 125 fits (hands of at most 5)


def stream_for_pele_takes(d: StateData, want: dict[int, int]) -> int | None:  # R14.7
    """A state of the chance stream whose PELE draws take ``want[v]`` from each victim ``v`` it names: the
    state's own first, then the outputs of a stream seeded by it; None if none of ``PELE_TRIES`` does.

    A viewer position has no seed; where the viewer sees takes (its own PELE, or the card taken from it),
    its filled-in state's stream becomes one that draws them."""
    candidates = SplitMix64(d.rng)
    candidate = d.rng
    for _ in range(PELE_TRIES):
        takes, _after = pele_takes(d, candidate)
        if all(takes[v] == x for v, x in want.items()):
            return candidate
        candidate = candidates.next()
    return None


def use_pele(state: ReferenceState) -> None:  # R14.7
    """PELE takes one card at random (from the state's stream) from every other player who holds
    one, in seat order after the mover; each victim sees which card it lost and is owed a gift."""
    d = state.data
    me = d.to_move
    spend(d, PELE)
    takes, d.rng = pele_takes(d, d.rng)
    for victim, island in takes.items():
        move_card_seen(d, victim, me, island)
    d.pele_gifts = list(takes)


def give(state: ReferenceState, island: int, receiver: int) -> None:  # R14.7
    """The mover gives a card of ``island`` back to ``receiver``, the first seat owed one (the
    receiver sees it)."""
    d = state.data
    move_card_seen(d, d.to_move, receiver, island)
    d.pele_gifts.pop(0)
    if not d.pele_gifts:
        note_hand_limit(d)


def use_lono(state: ReferenceState) -> None:  # R14.8
    """LONO: the mover's next take or draw is an extra card."""
    spend(state.data, LONO)
    state.data.lono_draw = True


def take_lono_card(state: ReferenceState, island: int | None) -> None:  # R14.8
    """LONO's extra card: the face-up ``island`` (refilled at once) or, with None, the deck's top; the
    turn goes on."""
    d = state.data
    if island is None:
        state.draw_card()
    else:
        state.take_card(island)
    d.lono_draw = False
    note_hand_limit(d)


def end_without_draw(state: ReferenceState) -> None:  # R14.8, R10
    """``END`` in round 2: LONO left nothing to draw, so the turn ends without a draw (and the round
    with it)."""
    state.end_turn()


def clear_turn(d: StateData) -> None:  # R14.8, R14.9
    """The end of a turn clears what its token uses left: LONO's card and the hand-limit exception."""
    d.lono_draw = False
    d.over_limit = False


# -- explanations: why an action is illegal ----------------------------------------------------------


def malformed(board: Board, players: int, kind: int, a: int, arg: int) -> str | None:
    """A reason when the code names no action of the variant on ``board`` (builds, as
    ``reference._malformed``, may also be paid with KANALOA)."""
    if (kind == A.PLACE and arg == A.JOKER) or (kind == A.SWAP and arg in KANALOA_COMBOS):
        return f"board {board.name} has no link {a}" if a >= board.n_links else None
    if kind == A.KU:
        return None if a < players and arg == 0 else f"'ku' names a player: this game has no player {a}"
    if kind == A.STEAL:
        return None if a < board.n_islands and arg == 0 else f"board {board.name} has no island {a}"
    if kind == A.GIVE:
        if a >= board.n_islands:
            return f"board {board.name} has no island {a}"
        return None if arg < players else f"'give' names a player: this game has no player {arg}"
    if kind in (A.PELE, A.LONO):
        return None if a == arg == 0 else f"'{A.KIND_NAMES[kind]}' names nothing"
    return ref._malformed(board, players, kind, a, arg)


def token_used_by(kind: int, arg: int) -> int | None:
    """The kind of token an action uses: KANALOA for a build paid with it, KU, PELE, LONO; or None."""
    if kind in TOKEN_ACTIONS:
        return TOKEN_ACTIONS[kind]
    if (kind == A.PLACE and arg == A.JOKER) or (kind == A.SWAP and arg in KANALOA_COMBOS):
        return KANALOA
    return None


def why_not_pending(state: ReferenceState, kind: int, a: int, arg: int, names: tuple[str, ...],
                    hand_known: bool) -> str | ref.Undecided | None:  # R14.6-R14.8
    """The variant's step of ``reference.why_illegal`` after the setup: with a token's action pending (KU's
    steal, PELE's gifts, LONO's extra card) whether ``kind`` is it; a steal or gift with none pending is
    refused; else ``reference.UNDECIDED`` (Kanaloa's next steps decide)."""
    d = state.data
    if d.ku_target >= 0:
        return why_not_stolen(state, kind, a, names, hand_known)
    if d.pele_gifts:
        return why_not_given(state, kind, a, arg, names, hand_known)
    if d.lono_draw:
        return why_not_lono_card(state, kind, a, names)
    if kind == A.STEAL:
        return "no KU is pending: 'steal' takes a card from the hand a KU showed (R14.6)"
    if kind == A.GIVE:
        return "no PELE gift is pending: 'give' hands a card back after PELE (R14.7)"
    return ref.UNDECIDED


def why_not_stolen(state: ReferenceState, kind: int, island: int, names: tuple[str, ...],
                   hand_known: bool) -> str | None:  # R14.6
    """With a KU pending: only a steal from the hand it showed."""
    d = state.data
    victim = names[d.ku_target]
    if kind != A.STEAL:
        return f"{names[d.to_move]} must first take a card from {victim}'s hand: 'steal CARD' (R14.6)"
    if d.hands[d.ku_target][island] == 0 and hand_known:
        return f"{victim} has no {state.board.islands[island]} card (R14.6)"
    return None


def why_not_given(state: ReferenceState, kind: int, island: int, receiver: int, names: tuple[str, ...],
                  hand_known: bool) -> str | None:  # R14.7
    """With PELE's gifts pending: only a gift of a card in hand to the first seat still owed one."""
    d = state.data
    due = names[d.pele_gifts[0]]
    if kind != A.GIVE:
        return f"{names[d.to_move]} must first give a card back to {due}: 'give {due} CARD' (R14.7)"
    if receiver != d.pele_gifts[0]:
        return f"PELE's gifts go in seat order after {names[d.to_move]}: {due} is next, not {names[receiver]} (R14.7)"
    return ref._why_unpaid(state, [island], names, hand_known)


def why_not_lono_card(state: ReferenceState, kind: int, island: int, names: tuple[str, ...]) -> str | None:  # R14.8
    """With LONO's extra card pending: only a take or a draw, whatever the hand holds."""
    d = state.data
    if kind not in (A.TAKE, A.DRAW):
        return f"{names[d.to_move]} must first take LONO's extra card: 'take CARD' or 'draw' (R14.8)"
    return ref.why_not_drawn(state, kind, island, "R5")


def why_not_token_use(state: ReferenceState, kind: int, token: int, a: int, arg: int, slot: int,
                      names: tuple[str, ...], hand_known: bool) -> str | None:  # R14.4-R14.9
    """Why a use of ``token`` is illegal now; None when it is legal."""
    d = state.data
    me = d.to_move
    name = names[me]
    god = GOD_NAMES[token]
    if d.round == ROUND_1:
        return f"{god} is used in round 2 only, not in round 1 (R14.4)"
    if d.round == ROUND_FINAL:
        return f"no god token is used in the final round: {god} was for round 2 (R14.4)"
    if d.discarded:
        return f"{name} has discarded this turn: no god token is used after a discard (R14.4)"
    have = d.gods_owned[me][token]
    if have == 0:
        return f"{name} owns no {god} token (R14.4)"
    if kind == A.SWAP and arg == A.SWAP_JJ and have < 2:
        return f"{name} owns one KANALOA; a swap paid with KANALOA+KANALOA needs two (R14.5)"
    if kind == A.KU:
        if a == me:
            return f"{name} cannot use KU on itself: it names another player (R14.6)"
        if d.hand_size(a) == 0:
            return f"{names[a]} holds no card; KU names a player who holds one (R14.6, R14.9)"
        return None
    if kind == A.PELE:
        if not any(d.hand_size(v) > 0 for v in others(d, me)):
            return "nobody else holds a card; PELE is used only when another player holds one (R14.7, R14.9)"
        return None
    if kind == A.LONO:
        if not d.deck and not d.face_up:
            return "the deck and the face-up cards are empty: LONO has nothing to take (R14.8)"
        return None
    cards = list(kanaloa_cards(state.board.links[a], arg)) if kind == A.SWAP else []  # a place: KANALOA alone
    return ref._why_not_built(state, kind, a, cards, slot, names, hand_known)


def why_not_in_play_phase(state: ReferenceState, kind: int, a: int, arg: int, slot: int, names: tuple[str, ...],
                          hand_known: bool) -> str | None:  # R4, R5, R14.8, R14.9
    """Rounds 1 and 2 with nothing pending: why a build, a discard, a draw or the turn's end is
    illegal; None when it is legal."""
    d = state.data
    board = state.board
    me = d.to_move
    name = names[me]
    held = d.hand_size(me)
    nothing_to_draw = not d.deck and not d.face_up
    if kind == A.PASS:
        return "'pass' belongs to the final round (R10)"
    if kind == A.END:
        if d.round != ROUND_2 or not nothing_to_draw:
            return "'end' belongs to the final round (R10), or ends a round-2 turn when nothing is left to draw (R14.8)"
        if held > HAND_LIMIT:
            return f"the hand holds {held} cards; it must hold at most {HAND_LIMIT} when the turn ends (R4, R14.9)"
        return None
    if d.discarded:
        if kind in (A.PLACE, A.SWAP) or (kind == A.DISCARD and held <= HAND_LIMIT):
            if held > HAND_LIMIT:
                return f"{name} has discarded this turn; only more discards, down to {HAND_LIMIT} cards, remain (R14.9)"
            return f"{name} has discarded this turn; only 'take' or 'draw' remain (R4)"
        if kind == A.DISCARD:
            return ref._why_unpaid(state, [a], names, hand_known)
    if kind == A.DISCARD:
        if d.played and not (d.over_limit and held > HAND_LIMIT):
            if d.over_limit:
                return (f"{name} holds {held} cards; after playing, a face-down discard only brings a hand that a "
                        f"token left above {HAND_LIMIT} down to {HAND_LIMIT} (R14.9)")
            return f"{name} has already played a card this turn; a face-down discard replaces playing (R4)"
        return ref._why_unpaid(state, [a], names, hand_known)
    if kind in (A.TAKE, A.DRAW):  # R5, with the R4 hand limit
        if held > HAND_LIMIT:
            if d.discarded:
                return f"the hand holds {held} cards; discard down to {HAND_LIMIT} first (R14.9)"
            return f"the hand holds {held} cards; play or discard first (R4)"
        if kind == A.DRAW and nothing_to_draw:
            return "the deck and the face-up cards are empty: 'end' ends the turn (R14.8)"
        return ref.why_not_drawn(state, kind, a, "R5")
    cards = [arg] if kind == A.PLACE else list(A.swap_cards(board.links[a], arg))
    return ref._why_not_built(state, kind, a, cards, slot, names, hand_known)


# -- explanations: why a state is unreachable ----------------------------------------------------------

_Found = tuple[str, str] | None


def unreachable_fields(state: ReferenceState) -> _Found:  # R14
    """A state without the variant must hold none of its fields; one with it must be of Kanaloa."""
    d = state.data
    if d.gods:
        if d.game != GAME_KANALOA:
            return "rules.gods", "Might of the Gods is a variant of Kanaloa only (R14, R16.9)"
        return None
    if d.god_on or d.gods_owned or d.known:
        return "rules.gods", "only a game of Might of the Gods has god tokens or per-player knowledge (R14)"
    if d.ku_target != -1 or d.pele_gifts or d.lono_draw or d.over_limit:
        return "rules.gods", "only a game of Might of the Gods has a token's action pending (R14)"
    return None


def kane_bound(state: ReferenceState) -> int:  # R14.3
    """The most KANE can have scored for one color: the KANE gone from the board, on the islands of
    greatest worth among those whose token is gone."""
    d = state.data
    if not d.gods:
        return 0
    claimed = sorted((kane_points(state.board.sizes[i]) for i in range(state.board.n_islands)
                      if d.god_on[i] == NO_GOD), reverse=True)
    kanes_gone = GOD_TOKENS[KANE] - d.god_on.count(KANE)
    return sum(claimed[:kanes_gone])


def lifts_hand_limit(d: StateData, seat: int) -> bool:  # R14.9
    """The hand of ``seat`` may hold more than 5 cards now: a token use of its turn brought cards in."""
    return d.gods and seat == d.to_move and (d.over_limit or bool(d.pele_gifts))


def tokens_may_have_acted(d: StateData) -> bool:  # R14.4, R14.5
    """Round 2 of the variant: this turn's token uses (which leave no trace) may have brought cards
    in, built without a card (KANALOA) or emptied the deck (LONO)."""
    return d.gods and d.round == ROUND_2


def why_unreachable(state: ReferenceState, names: tuple[str, ...]) -> _Found:  # R14.1-R14.10
    """Why no game of the variant reaches ``state`` (the checks of R14 alone; the Kanaloa checks,
    with the variant's exceptions, are ``reference.why_unreachable``'s)."""
    for check in (_unreachable_shapes, _unreachable_tokens, _unreachable_known, _unreachable_pending):
        found = check(state, names)
        if found is not None:
            return found
    return None


def _unreachable_shapes(state: ReferenceState, names: tuple[str, ...]) -> _Found:  # R14.1
    d = state.data
    board = state.board
    if board.n_islands != GODS_ISLANDS:
        return "board", (f"Might of the Gods puts one of its {GODS_ISLANDS} god tokens on each island; board "
                         f"{board.name} has {board.n_islands} islands (R14.1)")
    if len(d.god_on) != board.n_islands or any(t != NO_GOD and not 0 <= t < len(GOD_NAMES) for t in d.god_on):
        return "gods.on_islands", f"each of the {board.n_islands} islands holds one token or none (R14.1)"
    if len(d.gods_owned) != d.players or any(len(row) != len(GOD_NAMES) or min(row) < 0 for row in d.gods_owned):
        return "gods.owned", "each player owns a number of tokens of each kind (R14.2)"
    shape_ok = len(d.known) == d.players and all(
        len(rows) == d.players and all(len(row) == board.n_islands for row in rows) for rows in d.known)
    if not shape_ok:
        return "hands", "each player knows a number of cards of each island in each other hand (R14.10)"
    return None


def _unreachable_tokens(state: ReferenceState, names: tuple[str, ...]) -> _Found:  # R14.1-R14.4
    """Tokens: on the board, owned and gone within the counts; claimed on first control; none used
    before round 2; KANE never kept."""
    d = state.data
    board = state.board
    for seat in range(d.players):
        if d.gods_owned[seat][KANE]:
            return "gods.owned", f"{names[seat]} owns KANE; KANE scores when it is claimed and is never kept (R14.3)"
    for kind, total in enumerate(GOD_TOKENS):
        on_board = d.god_on.count(kind)
        kept = sum(d.gods_owned[seat][kind] for seat in range(d.players))
        if on_board + kept > total:
            return "gods", (f"{on_board} {GOD_NAMES[kind]} on the islands and {kept} owned; the game has {total} "
                            f"(R14.1)")
        if kind != KANE and d.round in (ROUND_SETUP, ROUND_1) and on_board + kept < total:
            return "gods.owned", (f"{total - on_board - kept} {GOD_NAMES[kind]} used in round "
                                  f"{ref._round_name(d.round)}; tokens are used in round 2 only (R14.4)")
    if d.round == ROUND_SETUP:
        if sorted(d.god_on) != token_list():
            return "gods.on_islands", "every token lies on its island until a color first controls it (R14.1, R14.2)"
        if any(any(row) for rows in d.known for row in rows):
            return "hands", "nobody has seen a card of another hand during the setup (R3, R14.10)"
    for island in range(board.n_islands):
        holder = state.controller_of(island)
        if holder != NO_OWNER and d.god_on[island] != NO_GOD:
            return "gods.on_islands", (f"{names[holder]} controls {board.islands[island]}, but its "
                                       f"{GOD_NAMES[d.god_on[island]]} is still there: the first control claims it "
                                       f"(R14.2)")
    return None


def _unreachable_known(state: ReferenceState, names: tuple[str, ...]) -> _Found:  # R14.10
    """Each observer knows of each other hand at least its public part and at most the hand; of its
    own hand it keeps no record (it sees it)."""
    d = state.data
    board = state.board
    for seat in range(d.players):
        field = f"hands.{names[seat]}.known"
        for observer in range(d.players):
            known = d.known[observer][seat]
            if observer == seat:
                if any(known):
                    return field, f"{names[seat]} sees its own hand; it keeps no knowledge of it (R14.10)"
                continue
            for x in range(board.n_islands):
                if not d.public[seat][x] <= known[x] <= d.hands[seat][x]:
                    return field, (f"{names[observer]} knows {known[x]} {board.islands[x]} card(s) in "
                                   f"{names[seat]}'s hand, which holds {d.hands[seat][x]}, {d.public[seat][x]} of "
                                   f"them known to all; what a player knows lies between the two (R14.10)")
    return None


def _unreachable_pending(state: ReferenceState, names: tuple[str, ...]) -> _Found:  # R14.4, R14.6-R14.9
    """What a token use leaves pending: in round 2 only, one thing at a time, nothing else due."""
    d = state.data
    me = d.to_move
    if not pending(d) and not d.over_limit:
        return None
    field = ("turn.ku_target" if d.ku_target >= 0 else "turn.pele_gifts" if d.pele_gifts
             else "turn.lono_draw" if d.lono_draw else "turn.over_limit")
    if d.round != ROUND_2:
        return field, "god tokens are used in round 2 only, so nothing of theirs is pending now (R14.4)"
    if sum((d.ku_target >= 0, bool(d.pele_gifts), d.lono_draw)) > 1:
        return field, "a token's action is finished before another token is used (R14.4)"
    if pending(d) and (d.remove_on or d.discarded):
        return field, "no token is used after a discard or while a removal is due (R7, R14.4)"
    if d.ku_target >= 0:
        t = d.ku_target
        if t >= d.players or t == me:
            return field, f"KU names another player, not {names[me]} (R14.6)"
        if d.hand_size(t) == 0:
            return field, f"{names[t]} holds no card; KU names a player who holds one (R14.6)"
        if d.known[me][t] != d.hands[t]:
            return f"hands.{names[t]}.known", f"KU has just shown {names[me]} the whole hand of {names[t]} (R14.6)"
    if d.pele_gifts:
        gifts = d.pele_gifts
        after_me = [(v - me) % d.players for v in gifts]
        if any(not 0 <= v < d.players for v in gifts) or me in gifts or after_me != sorted(set(after_me)):
            return field, f"PELE's gifts go to other players, once each, in seat order after {names[me]} (R14.7)"
        if d.hand_size(me) < len(d.pele_gifts):
            return field, f"{names[me]} holds fewer cards than the {len(d.pele_gifts)} gifts it owes (R14.7)"
    return None
