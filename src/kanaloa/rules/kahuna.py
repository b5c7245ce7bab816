"""Kahuna (R16), the 2-player predecessor of Kanaloa, in the readable reference implementation.

A Kahuna game is a ``StateData`` with ``game == GAME_KAHUNA``; ``ReferenceState``
hands its moves to the functions here, which play it exactly as docs/engine.md
"Kahuna (R16)" describes, one small function per rule.  Everything that rule
set does not change is Kanaloa's (``ReferenceState``'s own methods): paying a
card, the face-down discard, taking and drawing, the reshuffle of the discards.

In short: two seats, one color each (color ``s`` is seat ``s``: white, then
black), 25 bridges each; 3 cards dealt, 3 face-up, hands of at most 5.  A
turn plays cards one at a time (a place pays one card, a removal of an
opponent bridge two), then draws one card or skips the draw (never twice in a
row).  Gaining control of an island sweeps the opponent's bridges off it.
Three decks: after the first two, an interim scoring (1, then 2 points to the
player controlling more islands); after the third, one last turn each and the
final scoring (the difference in islands).  From round 2 on, a player with no
bridge on the board loses at once.

There is no setup round, no swap, no removal after a build (R7), no
immediate win (R8), no tabletop preset (R13) (R16.9) and no pass (R16.7).

``points_if_scored`` answers with Kahuna's scorings: what the scoring that
ends the current round would add now, the interim scoring in rounds 1 and 2
(R16.6), the final scoring from round 3 on (R16.7); with ``final``, the final
scoring in any round.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import actions as A
from . import reference as ref  # the module, not its names: reference imports this one too
from .board import Board
from .rng import SplitMix64
from .state import (
    GAME_KAHUNA,
    KAHUNA_BRIDGES,
    KAHUNA_DEAL,
    KAHUNA_FACE_UP,
    KAHUNA_HAND,
    KAHUNA_INTERIM_POINTS,
    KAHUNA_PLAYERS,
    NO_CARD,
    NO_COLOR,
    NO_OWNER,
    PRESET_NAMES,
    PRESET_YUCATA,
    REASON_NO_BRIDGES,
    REASON_POINTS,
    ROUND_1,
    ROUND_2,
    ROUND_3,
    ROUND_FINAL,
    ROUND_NAMES,
    ROUND_OVER,
    ROUND_SETUP,
    StateData,
)

if TYPE_CHECKING:
    from .reference import ReferenceState

PLAY_ROUNDS = (ROUND_1, ROUND_2, ROUND_3)  # the rounds with a deck (R16.6)
COMBOS = (A.SWAP_AA, A.SWAP_AB, A.SWAP_BB)  # the card pairs that pay a removal (R16.3)
NEXT_ROUND = {ROUND_1: ROUND_2, ROUND_2: ROUND_3}


# -- R16.2 setup ---------------------------------------------------------------------------------


def deal(board: Board, players: int, preset: int, seed: int) -> StateData:  # R16.1, R16.2
    """A new Kahuna game in round 1, dealt from ``seed``: the deck shuffled as in Kanaloa, 3 cards
    to seat 0, then 3 to seat 1, then 3 face-up; the rest is the deck.

    Raises ``ValueError`` unless ``players`` is 2 and ``preset`` yucata, and when the board has
    fewer than the 9 cards the deal needs.
    """
    if players != KAHUNA_PLAYERS:
        raise ValueError(f"players: Kahuna is a game for {KAHUNA_PLAYERS} players, not {players} (R16.1)")
    if preset != PRESET_YUCATA:
        shown = PRESET_NAMES.get(preset, str(preset))
        raise ValueError(f"preset: Kahuna is played with the yucata preset only, not {shown} (R16.9)")
    needed = players * KAHUNA_DEAL + KAHUNA_FACE_UP
    if board.n_cards < needed:
        raise ValueError(f"board: Kahuna deals {players} hands of {KAHUNA_DEAL} and {KAHUNA_FACE_UP} face-up cards, "
                         f"{needed} in all, more than the board's {board.n_cards} cards (R16.2)")
    data = StateData.empty(board.n_islands, board.n_links, players, preset, GAME_KAHUNA)
    rng = SplitMix64(seed)
    deck = [i for i in range(board.n_islands) for _ in range(board.cards_per_island)]
    rng.shuffle(deck)
    for seat in range(players):
        for island in deck[seat * KAHUNA_DEAL : (seat + 1) * KAHUNA_DEAL]:
            data.hands[seat][island] += 1
    dealt = players * KAHUNA_DEAL
    data.face_up = deck[dealt : dealt + KAHUNA_FACE_UP]
    data.deck = deck[dealt + KAHUNA_FACE_UP :]
    data.round = ROUND_1
    data.rng = rng.state
    return data


def opponent(seat: int) -> int:
    """The other seat (and color) of a Kahuna game."""
    return 1 - seat


# -- legal moves -----------------------------------------------------------------------------------


def legal_actions(state: ReferenceState) -> list[int]:
    """Every legal action of the player to move in a Kahuna game, sorted by code; [] once over."""
    d = state.data
    if d.round == ROUND_OVER:
        return []
    if d.round == ROUND_FINAL:  # R16.7: one last turn of building, no draw
        moves = place_moves(state) + removal_moves(state) + [A.encode(A.END)]
    elif d.discarded:  # R16.5: a discard must be followed by a draw, and may be by more discards
        moves = discard_moves(state) + draw_moves(state)
    else:
        moves = place_moves(state) + removal_moves(state) + discard_moves(state) + draw_moves(state)
        if may_skip_draw(state):
            moves.append(A.encode(A.END))
    moves.sort()
    return moves


def place_moves(state: ReferenceState) -> list[int]:  # R16.3 place, R16.1 stock
    """``PLACE(k, x)`` for each free link ``k`` and each end ``x`` of it in the hand, while the mover
    has a bridge left of its 25."""
    d = state.data
    me = d.to_move
    stock = state.bridges_in_stock(me)
    if stock is not None and stock <= 0:
        return []
    hand = d.hands[me]
    return [A.encode(A.PLACE, k, x)
            for k, ends in enumerate(state.board.links) if d.bridges[k] == NO_OWNER
            for x in ends if hand[x] > 0]


def removal_moves(state: ReferenceState) -> list[int]:  # R16.3 remove
    """``REMOVE(k, c)`` for each link ``k`` holding the opponent's bridge and each pair of cards
    ``c`` (``AA``, ``AB``, ``BB``, ends in the board file's order) the hand can pay."""
    d = state.data
    hand = d.hands[d.to_move]
    theirs = opponent(d.to_move)
    return [A.encode(A.REMOVE, k, combo)
            for k, ends in enumerate(state.board.links) if d.bridges[k] == theirs
            for combo in COMBOS if ref.can_pay(hand, A.swap_cards(ends, combo))]


def discard_moves(state: ReferenceState) -> list[int]:  # R16.5
    """``DISCARD(x)`` for each card in hand: after a discard (more may follow), or when the turn
    began with 5 cards and none has been played."""
    d = state.data
    me = d.to_move
    if not d.discarded and (d.played != 0 or d.hand_size(me) != KAHUNA_HAND):
        return []
    hand = d.hands[me]
    return [A.encode(A.DISCARD, x) for x in range(state.board.n_islands) if hand[x] > 0]


def draw_moves(state: ReferenceState) -> list[int]:  # R16.5
    """``TAKE(x)`` for each distinct face-up island and ``DRAW`` from a non-empty deck; a hand of 5
    cannot draw."""
    d = state.data
    if d.hand_size(d.to_move) >= KAHUNA_HAND:
        return []
    moves = [A.encode(A.TAKE, x) for x in sorted(set(d.face_up))]
    if d.deck:
        moves.append(A.encode(A.DRAW))
    return moves


def may_skip_draw(state: ReferenceState) -> bool:  # R16.5
    """A turn may end without a draw (``END``) unless the opponent skipped its last draw."""
    return not state.data.skipped


# -- applying moves --------------------------------------------------------------------------------


def apply(state: ReferenceState, action: int) -> None:
    """Play ``action`` for the player to move.  Unchecked: it must be legal.  After every move the
    early end (R16.8) is checked."""
    d = state.data
    kind, a, b = A.kind_of(action), A.arg_a(action), A.arg_b(action)
    if kind == A.PLACE:
        place(state, a, b)
    elif kind == A.REMOVE:
        remove(state, a, b)
    elif kind == A.DISCARD:
        state.discard(a)  # R16.5: face-down, as in Kanaloa (R4)
    elif kind == A.TAKE:
        state.take_card(a)
        end_turn(state, skipped=False)
    elif kind == A.DRAW:
        state.draw_card()
        end_turn(state, skipped=False)
    elif kind == A.END and d.round == ROUND_FINAL:
        end_final_turn(state)
    elif kind == A.END:
        end_turn(state, skipped=True)
    else:
        raise ValueError(f"action code {action} is no move of Kahuna")
    check_no_bridges(state)


def place(state: ReferenceState, link: int, card: int) -> None:  # R16.3 place, R16.4
    """Pay ``card`` and put the mover's bridge on the free ``link``; an end of it whose control the
    mover thereby gains is swept of the opponent's bridges (ends in island order)."""
    d = state.data
    me = d.to_move
    state.pay(card)
    d.bridges[link] = me
    for island in sorted(state.board.links[link]):
        gain_control(state, island, me)


def gain_control(state: ReferenceState, island: int, color: int) -> None:  # R16.4
    """When the bridge just built gives ``color`` control of ``island`` (it did not have it before),
    every opponent bridge on the links of ``island`` goes back to its owner.  Already controlling
    sweeps nothing."""
    d = state.data
    n = state.count_on(island, color)
    size = state.board.sizes[island]
    if ref.is_absolute_majority(n, size) and not ref.is_absolute_majority(n - 1, size):
        for k in state.board.links_of[island]:
            if d.bridges[k] == opponent(color):
                d.bridges[k] = NO_OWNER


def remove(state: ReferenceState, link: int, combo: int) -> None:  # R16.3 remove
    """Pay the two cards of ``combo`` (``A`` before ``B``); the opponent's bridge on ``link`` goes back
    to its owner.  The freed link is not built on: that would be a separate place."""
    for card in A.swap_cards(state.board.links[link], combo):
        state.pay(card)
    state.data.bridges[link] = NO_OWNER


def end_turn(state: ReferenceState, skipped: bool) -> None:  # R16.5, R16.6, R16.7
    """After a take or a draw (``skipped`` false) or a skipped draw (``skipped`` true): the turn
    resets; a run-out of the deck and the face-up cards ends the round; the other seat moves."""
    d = state.data
    d.played = 0
    d.discarded = False
    d.skipped = skipped
    # A reshuffle that brings nothing back is the next run-out at once, hence the loop.
    while d.round in PLAY_ROUNDS and not d.deck and not d.face_up:
        if d.round == ROUND_3:
            start_final_round(state)
        else:
            interim_scoring(state)
            state.reshuffle_discards(face_up=KAHUNA_FACE_UP)
            d.round = NEXT_ROUND[d.round]
    d.to_move = opponent(d.to_move)


def islands_held(state: ReferenceState) -> list[int]:  # R16.4, R16.6
    """How many islands each seat controls (control is derived: more than half of the links)."""
    return [state.islands_controlled(seat) for seat in range(KAHUNA_PLAYERS)]


def interim_points(held: list[int], worth: int) -> list[int]:  # R16.6
    """The interim scoring: ``worth`` points to the seat controlling more islands; a tie scores nothing."""
    points = [0] * KAHUNA_PLAYERS
    if held[0] != held[1]:
        points[0 if held[0] > held[1] else 1] = worth
    return points


def final_points(held: list[int]) -> list[int]:  # R16.7
    """The final scoring: the seat controlling more islands scores the difference."""
    return [max(0, held[seat] - held[opponent(seat)]) for seat in range(KAHUNA_PLAYERS)]


def interim_worth(rnd: int) -> int:  # R16.6
    """What the interim scoring at the end of round ``rnd`` is worth: 1 after round 1, 2 after round 2."""
    return KAHUNA_INTERIM_POINTS[rnd - ROUND_1]


def interim_scoring(state: ReferenceState) -> None:  # R16.6
    """The scoring at the end of round 1 (1 point) or round 2 (2 points)."""
    d = state.data
    for seat, points in enumerate(interim_points(islands_held(state), interim_worth(d.round))):
        d.scores[seat] += points


def points_if_scored(state: ReferenceState, final: bool) -> list[int]:  # R16.6, R16.7
    """Per seat, what a scoring of the islands now would add: the interim scoring that ends round 1
    or 2, or the final scoring, with ``final`` or from round 3 on (the next scoring being the final one)."""
    held = islands_held(state)
    if not final and state.data.round in (ROUND_1, ROUND_2):
        return interim_points(held, interim_worth(state.data.round))
    return final_points(held)


def start_final_round(state: ReferenceState) -> None:  # R16.7
    """The third run-out: one last turn each, without a draw, the other seat first."""
    d = state.data
    d.round = ROUND_FINAL
    d.final_done = []
    d.final_passed = []


def end_final_turn(state: ReferenceState) -> None:  # R16.7
    """``END`` in the final round: the mover's last turn is over; after both, the final scoring."""
    d = state.data
    me = d.to_move
    d.final_done.append(me)
    d.played = 0
    if len(d.final_done) == KAHUNA_PLAYERS:
        finish_game(state)
    else:
        d.to_move = opponent(me)


def result_keys(scores: list[int], final: list[int], bridges: list[int]) -> list[tuple[int, int, int]]:  # R16.7
    """What ranks each seat after the final scoring, greater is better: points, then the final
    scoring's points, then, only when both have 0 points, bridges on the board."""
    both_zero = all(points == 0 for points in scores)
    return [(scores[s], final[s], bridges[s] if both_zero else 0) for s in range(KAHUNA_PLAYERS)]


def ranking_of(keys: list[tuple[int, int, int]]) -> tuple[int, list[int]]:  # R16.7
    """``(winner, ranking)`` for the seats' ``keys``: nobody wins (``-1``, ranking ``[0, 1]``) when the
    two are equal on every key."""
    if keys[0] == keys[1]:
        return -1, [0, 1]
    ranking = sorted(range(KAHUNA_PLAYERS), key=lambda s: keys[s], reverse=True)
    return ranking[0], ranking


def finish_game(state: ReferenceState) -> None:  # R16.7
    """The final scoring, then the ranking and the winner (or none)."""
    d = state.data
    final = final_points(islands_held(state))
    for seat, points in enumerate(final):
        d.scores[seat] += points
    on_board = [d.bridges.count(seat) for seat in range(KAHUNA_PLAYERS)]
    d.winner, d.ranking = ranking_of(result_keys(d.scores, final, on_board))
    d.reason = REASON_POINTS
    d.round = ROUND_OVER


def check_no_bridges(state: ReferenceState) -> None:  # R16.8
    """From round 2 on (after the first scoring), a seat with no bridge on the board loses at once;
    when neither has one, nobody wins.  ``played``, ``discarded`` and ``skipped`` keep their values."""
    d = state.data
    if d.round not in (ROUND_2, ROUND_3, ROUND_FINAL):
        return
    bare = [seat for seat in range(KAHUNA_PLAYERS) if d.bridges.count(seat) == 0]
    if not bare:
        return
    d.winner, d.ranking = no_bridges_result(bare)
    d.reason = REASON_NO_BRIDGES
    d.round = ROUND_OVER


def no_bridges_result(bare: list[int]) -> tuple[int, list[int]]:  # R16.8
    """``(winner, ranking)`` when the seats ``bare`` have no bridge on the board."""
    if len(bare) == KAHUNA_PLAYERS:
        return -1, [0, 1]
    winner = opponent(bare[0])
    return winner, [winner, bare[0]]


# -- explanations: why an action is illegal, why a state is unreachable ------------------------------


def why_not(state: ReferenceState, kind: int, a: int, arg: int, names: Sequence[str],
            hand_known: bool) -> str | None:  # R16.2-R16.7
    """Kahuna's steps of ``reference.why_illegal`` (the shared first steps passed: the code names an action,
    no second color, the game not over): why the player to move may not play it; None when it is legal.
    ``names`` are the colors by seat; with ``hand_known`` false only the hand's size is known."""
    d = state.data
    if kind == A.REVEAL:
        return "Kahuna has no setup: nobody reveals a card (R16.2)"
    if kind == A.SWAP:
        return "Kahuna has no swap: remove the opponent's bridge with two cards, then place on the free link (R16.3)"
    if kind == A.PASS:
        return "Kahuna has no 'pass': each player takes its one final turn in turn (R16.7)"
    if d.round == ROUND_FINAL:  # R16.7
        if kind in (A.TAKE, A.DRAW):
            return "the final round has no draw (R16.7)"
        if kind == A.DISCARD:
            return "there is no discard in the final round (R16.7)"
        if kind == A.END:
            return None
    else:
        found = _why_not_in_turn(state, kind, a, names, hand_known)
        if found is not None or kind not in (A.PLACE, A.REMOVE):
            return found
    return _why_not_built(state, kind, a, arg, names, hand_known)


def _why_not_in_turn(state: ReferenceState, kind: int, a: int, names: Sequence[str],
                     hand_known: bool) -> str | None:  # R16.5
    """In rounds 1 to 3: why a discard, a draw or a skipped draw is illegal now (None when legal), or
    why a place or removal is (None when the turn still allows building)."""
    d = state.data
    me = d.to_move
    name = names[me]
    held = d.hand_size(me)
    if d.discarded and kind in (A.PLACE, A.REMOVE):
        return f"{name} has discarded this turn; only more discards, 'take' or 'draw' remain (R16.5)"
    if kind == A.END:
        if d.discarded:
            return f"{name} has discarded this turn, so it must draw: 'take CARD' or 'draw' (R16.5)"
        if d.skipped:
            return f"{names[opponent(me)]} skipped its last draw, so {name} must draw this turn (R16.5)"
        return None
    if kind == A.DISCARD:
        if not d.discarded and d.played:
            return f"{name} has already played a card this turn; a face-down discard replaces playing (R16.5)"
        if not d.discarded and held != KAHUNA_HAND:
            return (f"{name} holds {held} card(s); only a turn begun with {KAHUNA_HAND} cards may discard, "
                    f"before playing any (R16.5)")
        return ref._why_unpaid(state, [a], tuple(names), hand_known)
    if kind in (A.TAKE, A.DRAW):
        if held >= KAHUNA_HAND:
            return f"a hand of {KAHUNA_HAND} cannot draw; play or discard first (R16.5)"
        return ref.why_not_drawn(state, kind, a, "R16.5")
    return None


def _why_not_built(state: ReferenceState, kind: int, link: int, arg: int, names: Sequence[str],
                   hand_known: bool) -> str | None:  # R16.1, R16.3
    """Why a place or a removal on ``link`` is illegal, the turn allowing builds; None when legal."""
    d = state.data
    board = state.board
    me = d.to_move
    name = names[me]
    link_name = board.link_name(link)
    owner = d.bridges[link]
    if kind == A.PLACE:
        if owner == opponent(me):
            return f"{link_name} holds {names[owner]}'s bridge; remove it with two cards first (R16.3)"
        if owner != NO_OWNER:
            return f"{link_name} already holds {names[owner]}'s bridge"
        stock = state.bridges_in_stock(me)
        if stock is not None and stock <= 0:
            return f"{name} has all its {KAHUNA_BRIDGES} bridges on the board (R16.1)"
        return ref._why_unpaid(state, [arg], tuple(names), hand_known)
    if owner == NO_OWNER:
        return f"{link_name} holds no bridge"
    if owner == me:
        return f"{name} cannot remove its own bridge (R16.3)"
    cards = list(A.swap_cards(board.links[link], arg))
    return ref._why_unpaid(state, cards, tuple(names), hand_known, pays_two="a removal")


def malformed(board: Board, players: int, kind: int, a: int, arg: int) -> str | None:
    """A reason when the code names no action on ``board``; a Kahuna removal names the two cards paid."""
    if kind == A.REMOVE:
        if a >= board.n_links:
            return f"board {board.name} has no link {a}"
        if arg not in COMBOS:
            return f"a removal on {board.link_name(a)} pays two cards of its ends (R16.3)"
        return None
    return ref._malformed(board, players, kind, a, arg)


_Found = tuple[str, str] | None


def why_unreachable(state: ReferenceState, names: Sequence[str], face_up_pending: bool = False) -> _Found:
    """Why no game of Kahuna reaches ``state``: ``(field, reason)``, or None when nothing rules it out.

    As ``kanaloa.rules.reference.why_unreachable`` (which calls this one for a Kahuna state):
    ``names`` are the colors by seat; ``face_up_pending`` describes a state right after a reshuffle
    (R16.6) whose new face-up cards are still on top of the deck.
    """
    names = tuple(names)
    for check in (_unreachable_game, _unreachable_cards, _unreachable_bridges, _unreachable_turn):
        found = check(state, names)
        if found is not None:
            return found
    found = _unreachable_round(state, names, face_up_pending)
    if found is not None:
        return found
    return _unreachable_scores(state, names)


def _unreachable_game(state: ReferenceState, names: tuple[str, ...]) -> _Found:  # R16.1, R16.2, R16.9
    """What Kahuna never has: other than 2 players, the tabletop preset, a setup, a second color,
    removals after a build, passes."""
    d = state.data
    if d.players != KAHUNA_PLAYERS:
        return "players", f"Kahuna is a game for {KAHUNA_PLAYERS} players, not {d.players} (R16.1)"
    if d.preset != PRESET_YUCATA:
        return "rules.preset", "Kahuna is played with the yucata preset only: 25 bridges each (R16.1, R16.9)"
    if d.round == ROUND_SETUP:
        return "round", "Kahuna has no setup round: the deal starts round 1 (R16.2)"
    if any(card != NO_CARD for card in d.setup_chosen):
        return "setup.chosen", "Kahuna has no setup: nobody sets a card aside (R16.2)"
    if d.turn_color != NO_COLOR:
        return "turn.color", "each Kahuna player builds with its one color; a turn chooses none (R16.1)"
    if d.remove_on:
        return "turn.remove_on", "Kahuna queues no removal after a build: R7 does not apply (R16.9)"
    if d.final_passed:
        return "final_round.passed", "Kahuna has no 'pass': each player takes its one final turn in turn (R16.7)"
    return None


def _unreachable_cards(state: ReferenceState, names: tuple[str, ...]) -> _Found:  # R16.2, R16.5
    """Hands of at most 5, at most 3 face-up cards."""
    d = state.data
    for seat in range(KAHUNA_PLAYERS):
        held = d.hand_size(seat)
        if held > KAHUNA_HAND:
            return f"hands.{names[seat]}", f"{held} cards; a Kahuna hand holds at most {KAHUNA_HAND} (R16.5)"
    if len(d.face_up) > KAHUNA_FACE_UP:
        return "face_up", f"{len(d.face_up)} cards; at most {KAHUNA_FACE_UP} lie face-up (R16.2)"
    return None


def _unreachable_bridges(state: ReferenceState, names: tuple[str, ...]) -> _Found:  # R16.1, R16.8
    """At most 25 bridges each; from round 2 on, while the game goes on, at least one each."""
    d = state.data
    for seat in range(KAHUNA_PLAYERS):
        built = d.bridges.count(seat)
        if built > KAHUNA_BRIDGES:
            return "bridges", f"{names[seat]} has {built} bridges; each Kahuna player has {KAHUNA_BRIDGES} (R16.1)"
    if d.round in (ROUND_2, ROUND_3, ROUND_FINAL):
        for seat in range(KAHUNA_PLAYERS):
            if d.bridges.count(seat) == 0:
                return "bridges", (f"{names[seat]} has no bridge on the board; after the first scoring that ends "
                                   f"the game at once (R16.8)")
    return None


def _unreachable_turn(state: ReferenceState, names: tuple[str, ...]) -> _Found:  # R16.5, R16.7
    """The turn so far: a discard only from a hand of 5 and instead of playing; the hand the turn
    began with; no skipped draw or discard in the final round."""
    d = state.data
    me = d.to_move
    name = names[me]
    held = d.hand_size(me)
    if d.round == ROUND_FINAL and d.discarded:
        return "turn.discarded", "there is no discard in the final round (R16.7)"
    if d.round == ROUND_FINAL and d.skipped:
        return "turn.skipped_draw", "the final round begins after a draw and has no draw to skip (R16.7)"
    if d.discarded and d.played:
        return "turn.discarded", "a player who discards face-down has played no card this turn (R16.5)"
    if d.discarded and held >= KAHUNA_HAND:
        return "turn.discarded", (f"{name} holds {held} cards after a face-down discard; a discard is made from a "
                                  f"hand of {KAHUNA_HAND} (R16.5)")
    began = held + d.played
    if began > KAHUNA_HAND:
        return "turn", (f"{name} holds {held} card(s) having played {d.played} this turn, so it began the turn with "
                        f"{began}; a hand holds at most {KAHUNA_HAND} (R16.5)")
    return None


def _unreachable_round(state: ReferenceState, names: tuple[str, ...], pending: bool) -> _Found:  # R16.5-R16.7
    """The face-up row (refilled at once, R16.5), the run-outs (R16.6), the final round and the result."""
    d = state.data
    if d.round == ROUND_OVER:
        return _unreachable_result(state, names)
    if d.round == ROUND_FINAL:
        if len(d.final_done) >= KAHUNA_PLAYERS or len(set(d.final_done)) != len(d.final_done):
            return "final_round.done", "after both final turns the game is over (R16.7)"
        if d.to_move in d.final_done:
            return "to_move", f"{names[d.to_move]} has already taken its final turn (R16.7)"
        if d.deck:
            return "deck", f"{len(d.deck)} card(s) left; the final round has no deck (R16.7)"
        if d.face_up:
            return "face_up", f"{len(d.face_up)} card(s) left; the final round has no face-up cards (R16.7)"
        if pending:
            return "face_up", "no face-up card waits to be recorded in the final round (R16.7)"
        return None
    if len(d.face_up) < KAHUNA_FACE_UP and d.deck:
        # Only a reshuffle (R16.6) turns cards up in rounds 2 and 3; until they are recorded the row is empty.
        fresh = not (d.played or d.discarded or d.skipped)
        if not (pending and d.round in (ROUND_2, ROUND_3) and not d.face_up and fresh):
            return "face_up", (f"{len(d.face_up)} cards while the deck is not empty; a taken face-up card is "
                               f"replaced at once (R16.5)")
    elif pending:
        return "face_up", "no face-up card waits to be recorded: the deck turned none up (R16.6)"
    if not d.face_up and not d.deck:
        return "face_up", (f"the deck and the face-up cards are both empty; round {ROUND_NAMES[d.round]} would "
                           f"have ended (R16.6, R16.7)")
    return None


def _interim_totals(rounds_scored: int) -> set[tuple[int, int]]:  # R16.6
    """Every pair of scores the first ``rounds_scored`` interim scorings can give."""
    totals = {(0, 0)}
    for worth in KAHUNA_INTERIM_POINTS[:rounds_scored]:
        totals = {(a + da, b + db) for a, b in totals for da, db in ((0, 0), (worth, 0), (0, worth))}
    return totals


SCORINGS_BEFORE = {ROUND_1: 0, ROUND_2: 1, ROUND_3: 2, ROUND_FINAL: 2, ROUND_OVER: 2}


def _unreachable_scores(state: ReferenceState, names: tuple[str, ...]) -> _Found:  # R16.6, R16.7
    """Scores the interim scorings (and, once the game is over by points, the final scoring) can give."""
    d = state.data
    scores = tuple(d.scores)
    extra = ""
    if d.round == ROUND_OVER and d.reason == REASON_POINTS:
        final = final_points(islands_held(state))
        scores = tuple(s - f for s, f in zip(d.scores, final, strict=True))
        extra = f" (less the final scoring's {final[0]} and {final[1]})"
    done = SCORINGS_BEFORE.get(d.round, 2)
    if scores in _interim_totals(done):
        return None
    shown = f"{names[0]} {d.scores[0]} and {names[1]} {d.scores[1]} points{extra}"
    if done == 0:
        return "scores", f"{shown}; nobody scores before the first scoring (R16.6)"
    if done == 1:
        return "scores", f"{shown}; the first scoring gives 1 point to one player at most (R16.6)"
    return "scores", f"{shown}; the interim scorings give 1, then 2 points, each to one player at most (R16.6)"


def _unreachable_result(state: ReferenceState, names: tuple[str, ...]) -> _Found:  # R16.7, R16.8
    """The result must be the one the rules give for these bridges and scores."""
    d = state.data
    on_board = [d.bridges.count(seat) for seat in range(KAHUNA_PLAYERS)]
    bare = [seat for seat in range(KAHUNA_PLAYERS) if on_board[seat] == 0]
    if d.reason == REASON_NO_BRIDGES:
        if not bare:
            return "result.reason", "'no bridges' but both players have bridges on the board (R16.8)"
        winner, ranking = no_bridges_result(bare)
        why = "(R16.8)"
    elif d.reason == REASON_POINTS:
        if bare:
            return "result.reason", (f"'points' but {names[bare[0]]} has no bridge on the board: the game ended "
                                     f"at once by R16.8")
        if d.deck or d.face_up:
            return "result.reason", ("'points' ends the game after the final round, when the deck and the "
                                     "face-up cards are gone (R16.7)")
        final = final_points(islands_held(state))
        winner, ranking = ranking_of(result_keys(d.scores, final, on_board))
        why = "(most points, then the final scoring's points, then with 0 points each the bridges; R16.7)"
    else:
        return "result.reason", "a game of Kahuna ends by points (R16.7) or by 'no bridges' (R16.8)"
    if d.winner != winner:
        shown = names[winner] if winner >= 0 else "nobody"
        return "result.winner", f"{shown} wins {why}"
    if d.ranking != ranking:
        return "result.ranking", f"the ranking is {', '.join(names[s] for s in ranking)} {why}"
    return None
