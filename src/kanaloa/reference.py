"""The readable reference implementation of the rules (R1-R13).

``ReferenceState`` plays the game over a plain ``StateData`` exactly as
``docs/engine.md`` describes it, one small function per rule.  It is written
for clarity, not speed: it is the oracle the compiled core
(``kanaloa_core.CoreState``) is tested against move for move, and both expose
the same *engine state protocol* (``kanaloa.engine.EngineState``: ``from_data``,
``deal``, ``to_data``, ``copy``, ``legal_actions``, ``apply``, the board
questions ``counts_on`` and ``controller_of``, and the ``players``,
``to_move``, ``round``, ``is_over``, ``scores``, ``winner``, ``ranking``
properties).  The board's tables (the links of each island, their number)
come from the ``Board`` itself.

Colors are seats: seat ``s`` owns the bridges marked ``s`` in
``StateData.bridges``.
"""

from __future__ import annotations

from . import actions as A
from .board import Board
from .rng import SplitMix64
from .state import (
    DEAL,
    FACE_UP,
    HAND_LIMIT,
    NO_CARD,
    NO_OWNER,
    PRESET_TABLETOP,
    REASON_ELEVEN,
    REASON_POINTS,
    ROUND_1,
    ROUND_2,
    ROUND_FINAL,
    ROUND_OVER,
    ROUND_SETUP,
    TABLETOP_BRIDGES,
    WIN_ISLANDS,
    StateData,
)


def copy_data(data: StateData) -> StateData:
    """A fresh, independent copy of ``data`` (cheaper than a deep copy)."""
    return StateData(
        n_islands=data.n_islands,
        players=data.players,
        preset=data.preset,
        round=data.round,
        to_move=data.to_move,
        bridges=list(data.bridges),
        hands=[list(h) for h in data.hands],
        public=[list(p) for p in data.public],
        hidden_by=[list(h) for h in data.hidden_by],
        deck=list(data.deck),
        face_up=list(data.face_up),
        discard_open=list(data.discard_open),
        scores=list(data.scores),
        played=data.played,
        discarded=data.discarded,
        remove_on=list(data.remove_on),
        final_done=list(data.final_done),
        final_passed=list(data.final_passed),
        setup_chosen=list(data.setup_chosen),
        ranking=list(data.ranking),
        winner=data.winner,
        reason=data.reason,
        rng=data.rng,
    )


class ReferenceState:
    """A game state with the rules applied in plain Python; see the module docstring.

    ``apply`` is unchecked: the caller must pass an action from
    ``legal_actions()``.
    """

    __slots__ = ("board", "data")

    def __init__(self, board: Board, data: StateData) -> None:
        self.board = board
        self.data = data

    # -- construction -------------------------------------------------------

    @classmethod
    def from_data(cls, board: Board, data: StateData) -> "ReferenceState":
        """A state holding an independent copy of ``data``."""
        return cls(board, copy_data(data))

    @classmethod
    def deal(cls, board: Board, players: int, preset: int, seed: int) -> "ReferenceState":
        """A new game in setup (round 0), dealt from ``seed`` (R3, docs/engine.md "Dealing").

        Raises ``ValueError`` when the board has too few cards to deal every hand (as the core does).
        """
        if players * DEAL > board.n_cards:
            raise ValueError(f"players: {players} hands of {DEAL} need more than the board's {board.n_cards} cards")
        data = StateData.empty(board.n_islands, board.n_links, players, preset)
        rng = SplitMix64(seed)
        deck = [i for i in range(board.n_islands) for _ in range(board.cards_per_island)]
        rng.shuffle(deck)
        for seat in range(players):
            for island in deck[seat * DEAL : (seat + 1) * DEAL]:
                data.hands[seat][island] += 1
        data.deck = deck[players * DEAL :]
        data.rng = rng.state
        return cls(board, data)

    def to_data(self) -> StateData:
        return copy_data(self.data)

    def copy(self) -> "ReferenceState":
        return ReferenceState(self.board, copy_data(self.data))

    # -- protocol properties ------------------------------------------------

    @property
    def players(self) -> int:
        return self.data.players

    @property
    def to_move(self) -> int:
        return self.data.to_move

    @property
    def round(self) -> int:
        return self.data.round

    @property
    def is_over(self) -> bool:
        return self.data.round == ROUND_OVER

    @property
    def scores(self) -> list[int]:
        return list(self.data.scores)

    @property
    def winner(self) -> int:
        return self.data.winner

    @property
    def ranking(self) -> list[int]:
        return list(self.data.ranking)

    # -- board questions (R1, R2) -------------------------------------------

    def count_on(self, island: int, color: int) -> int:
        """How many links of ``island`` hold a bridge of ``color``."""
        bridges = self.data.bridges
        return sum(1 for k in self.board.links_of[island] if bridges[k] == color)

    def counts_on(self, island: int) -> list[int]:
        """Bridges per color on the links of ``island``."""
        counts = [0] * self.data.players
        bridges = self.data.bridges
        for k in self.board.links_of[island]:
            if bridges[k] != NO_OWNER:
                counts[bridges[k]] += 1
        return counts

    def has_free_link(self, island: int) -> bool:
        bridges = self.data.bridges
        return any(bridges[k] == NO_OWNER for k in self.board.links_of[island])

    def controller_of(self, island: int) -> int:
        """The color with an absolute majority on ``island``, or ``NO_OWNER`` (R2)."""
        size = self.board.sizes[island]
        for color, n in enumerate(self.counts_on(island)):
            if is_absolute_majority(n, size):
                return color
        return NO_OWNER

    def islands_controlled(self, color: int) -> int:
        """How many islands ``color`` controls (R2, used by R8)."""
        return sum(
            1
            for i in range(self.board.n_islands)
            if is_absolute_majority(self.count_on(i, color), self.board.sizes[i])
        )

    def bridges_in_stock(self, color: int) -> int | None:
        """Bridges ``color`` may still build in the tabletop preset; None when unlimited (R13)."""
        if self.data.preset != PRESET_TABLETOP:
            return None
        return TABLETOP_BRIDGES - self.data.bridges.count(color)

    def points_if_scored(self, final: bool = False) -> list[int]:  # R11
        """Per color, what a scoring of the islands now would add; ``final`` adds the final +1 per island.

        Without ``final`` it is the scoring at the end of round 1 (R9).
        """
        points = [0] * self.data.players
        for island, size in enumerate(self.board.sizes):
            owner = self.controller_of(island)
            if owner != NO_OWNER:
                points[owner] += island_value(size, self.count_on(island, owner), final)
        return points

    # -- legal moves --------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """Every legal action of the player to move, sorted by code; [] once the game is over."""
        d = self.data
        if d.round == ROUND_OVER:
            return []
        if d.round == ROUND_SETUP:
            moves = self._reveal_moves()
        elif d.remove_on:
            moves = self._removal_moves()
        elif d.round == ROUND_FINAL:
            moves = self._build_moves() + [A.encode(A.END)]
            if self._may_pass():
                moves.append(A.encode(A.PASS))
        elif d.discarded:
            moves = self._draw_moves()
        else:
            moves = self._build_moves() + self._discard_moves() + self._draw_moves()
        moves.sort()
        return moves

    def _reveal_moves(self) -> list[int]:  # R3
        hand = self.data.hands[self.data.to_move]
        return [A.encode(A.REVEAL, x) for x in range(self.board.n_islands) if hand[x] > 0]

    def _removal_moves(self) -> list[int]:  # R7
        island = self.data.remove_on[0]
        eligible = removable_colors(self.counts_on(island), self.data.to_move)
        bridges = self.data.bridges
        return [A.encode(A.REMOVE, k) for k in self.board.links_of[island] if bridges[k] in eligible]

    def _build_moves(self) -> list[int]:  # R4 place and swap, R13 stock
        d = self.data
        me = d.to_move
        stock = self.bridges_in_stock(me)
        if stock is not None and stock <= 0:
            return []
        hand = d.hands[me]
        moves = []
        for k, (a, b) in enumerate(self.board.links):
            owner = d.bridges[k]
            if owner == NO_OWNER:
                for x in (a, b):
                    if hand[x] > 0:
                        moves.append(A.encode(A.PLACE, k, x))
            elif owner != me:
                for combo in (A.SWAP_AA, A.SWAP_AB, A.SWAP_BB):
                    if can_pay(hand, A.swap_cards((a, b), combo)):
                        moves.append(A.encode(A.SWAP, k, combo))
        return moves

    def _discard_moves(self) -> list[int]:  # R4: only before any card is played
        d = self.data
        if d.played != 0:
            return []
        hand = d.hands[d.to_move]
        return [A.encode(A.DISCARD, x) for x in range(self.board.n_islands) if hand[x] > 0]

    def _draw_moves(self) -> list[int]:  # R5, with the R4 hand limit
        d = self.data
        if d.hand_size(d.to_move) > HAND_LIMIT:
            return []
        moves = [A.encode(A.TAKE, x) for x in sorted(set(d.face_up))]
        if d.deck:
            moves.append(A.encode(A.DRAW))
        return moves

    def _may_pass(self) -> bool:  # R10
        d = self.data
        me = d.to_move
        return d.played == 0 and any(
            seat != me and seat not in d.final_done and d.scores[seat] > d.scores[me] for seat in range(d.players)
        )

    # -- applying moves -----------------------------------------------------

    def apply(self, action: int) -> None:
        """Play ``action`` for the player to move.  Unchecked: it must be legal."""
        kind, a, b = A.kind_of(action), A.arg_a(action), A.arg_b(action)
        if kind == A.PLACE:
            self.place(a, b)
        elif kind == A.SWAP:
            self.swap(a, b)
        elif kind == A.REMOVE:
            self.remove_pending(a)
        elif kind == A.DISCARD:
            self.discard(a)
        elif kind == A.TAKE:
            self.take(a)
        elif kind == A.DRAW:
            self.draw()
        elif kind == A.END:
            self.end_final_turn()
        elif kind == A.PASS:
            self.pass_final_turn()
        elif kind == A.REVEAL:
            self.reveal(a)
        else:
            raise ValueError(f"unknown action code {action}")

    def reveal(self, island: int) -> None:  # R3
        """The mover sets ``island`` aside; after the last seat, the setup ends."""
        d = self.data
        d.hands[d.to_move][island] -= 1
        d.setup_chosen[d.to_move] = island
        if d.to_move + 1 < d.players:
            d.to_move += 1
        else:
            self.finish_setup()

    def finish_setup(self) -> None:  # R3
        """The chosen cards go face-up in seat order, topped up to 4 from the deck."""
        d = self.data
        d.face_up = list(d.setup_chosen)
        while len(d.face_up) < FACE_UP and d.deck:
            d.face_up.append(d.deck.pop(0))
        d.setup_chosen = [NO_CARD] * d.players
        d.round = ROUND_1
        d.to_move = 0

    def pay(self, island: int) -> None:  # R4
        """The mover plays a card of ``island`` face-up onto the discard pile."""
        d = self.data
        me = d.to_move
        d.hands[me][island] -= 1
        if d.public[me][island] > 0:
            d.public[me][island] -= 1
        d.discard_open.append(island)
        d.played += 1

    def place(self, link: int, card: int) -> None:  # R4 place
        self.pay(card)
        self.data.bridges[link] = self.data.to_move
        self.resolve_build(link)

    def swap(self, link: int, combo: int) -> None:  # R4 swap
        for card in A.swap_cards(self.board.links[link], combo):
            self.pay(card)
        self.data.bridges[link] = self.data.to_move
        self.resolve_build(link)

    def resolve_build(self, link: int) -> None:
        """After a place or swap on ``link``: R6 then R7 on each end (island order), then R8."""
        for island in sorted(self.board.links[link]):
            self.take_control(island)
            self.check_relative_majority(island)
        self.check_immediate_win()

    def take_control(self, island: int) -> None:  # R6
        """A new absolute majority of the mover clears every other color's bridges off ``island``."""
        d = self.data
        me = d.to_move
        n = self.count_on(island, me)
        size = self.board.sizes[island]
        # The build added exactly one bridge of the mover here, so n - 1 is the count just before.
        if is_absolute_majority(n, size) and not is_absolute_majority(n - 1, size):
            for k in self.board.links_of[island]:
                if d.bridges[k] not in (NO_OWNER, me):
                    d.bridges[k] = NO_OWNER

    def check_relative_majority(self, island: int) -> None:  # R7
        """Queue a removal on a full large island where the mover leads or ties without control."""
        d = self.data
        me = d.to_move
        size = self.board.sizes[island]
        if size < 5 or self.has_free_link(island):
            return
        counts = self.counts_on(island)
        n = counts[me]
        if is_absolute_majority(n, size):
            return
        others = [c for color, c in enumerate(counts) if color != me]
        m = max(others, default=0)
        if n > m or (n == m and 1 in others):
            d.remove_on.append(island)

    def check_immediate_win(self) -> None:  # R8
        """Eleven controlled islands end the game at once for the mover."""
        d = self.data
        me = d.to_move
        if self.islands_controlled(me) < WIN_ISLANDS:
            return
        others = sorted((seat for seat in range(d.players) if seat != me), key=lambda s: (-d.scores[s], s))
        d.ranking = [me] + others
        d.winner = me
        d.reason = REASON_ELEVEN
        d.round = ROUND_OVER

    def remove_pending(self, link: int) -> None:  # R7
        """The mover removes the chosen bridge for the first pending island."""
        self.data.bridges[link] = NO_OWNER
        self.data.remove_on.pop(0)

    def discard(self, island: int) -> None:  # R4 face-down discard
        d = self.data
        me = d.to_move
        d.hands[me][island] -= 1
        # Others cannot tell which card went, so at most one fewer of each known card remains known.
        d.public[me] = [p - 1 if p > 0 else 0 for p in d.public[me]]
        d.hidden_by[me][island] += 1
        d.discarded = True

    def take(self, island: int) -> None:  # R5 face-up card
        d = self.data
        me = d.to_move
        d.hands[me][island] += 1
        d.public[me][island] += 1
        slot = d.face_up.index(island)
        if d.deck:
            d.face_up[slot] = d.deck.pop(0)
        else:
            del d.face_up[slot]
        self.end_turn()

    def draw(self) -> None:  # R5 blind draw
        d = self.data
        d.hands[d.to_move][d.deck.pop(0)] += 1
        self.end_turn()

    def end_turn(self) -> None:
        """After the draw: reset the turn, end the round if the cards ran out (R9, R10), next seat."""
        d = self.data
        d.played = 0
        d.discarded = False
        if not d.deck and not d.face_up:
            if d.round == ROUND_1:
                self.end_first_round()
            else:
                self.start_final_round()
        d.to_move = (d.to_move + 1) % d.players

    def end_first_round(self) -> None:  # R9
        """Scoring 1, then the discards become the new deck and 4 cards go face-up."""
        d = self.data
        self.score(final=False)
        self.reshuffle_discards()
        d.round = ROUND_2
        if not d.deck and not d.face_up:
            # Nothing came back: the second run-out has happened already.
            self.start_final_round()

    def reshuffle_discards(self) -> None:  # R9
        """Every discard, listed in island order, shuffled by the state's stream into the deck."""
        d = self.data
        counts = [0] * self.board.n_islands
        for island in d.discard_open:
            counts[island] += 1
        for seat_hidden in d.hidden_by:
            for island, n in enumerate(seat_hidden):
                counts[island] += n
        deck = [island for island, n in enumerate(counts) for _ in range(n)]
        rng = SplitMix64(d.rng)
        rng.shuffle(deck)
        d.rng = rng.state
        d.discard_open = []
        d.hidden_by = [[0] * self.board.n_islands for _ in range(d.players)]
        d.face_up = deck[:FACE_UP]
        d.deck = deck[FACE_UP:]

    def start_final_round(self) -> None:  # R10
        d = self.data
        d.round = ROUND_FINAL
        d.final_done = []
        d.final_passed = []

    def pass_final_turn(self) -> None:  # R10
        """The mover takes its final turn later; the next seat that has not played goes."""
        d = self.data
        if d.to_move not in d.final_passed:
            d.final_passed.append(d.to_move)
        d.to_move = self.next_final_seat(d.to_move)

    def end_final_turn(self) -> None:  # R10
        d = self.data
        me = d.to_move
        d.final_done.append(me)
        if me in d.final_passed:
            d.final_passed.remove(me)
        d.played = 0
        if len(d.final_done) == d.players:
            self.finish_game()
        else:
            d.to_move = self.next_final_seat(me)

    def next_final_seat(self, seat: int) -> int:  # R10
        """The next seat after ``seat``, in seat order, that has not taken its final turn."""
        d = self.data
        for step in range(1, d.players + 1):
            candidate = (seat + step) % d.players
            if candidate not in d.final_done:
                return candidate
        raise AssertionError("every seat has taken its final turn")

    def finish_game(self) -> None:  # R11 final scoring, R12 ranking
        d = self.data
        self.score(final=True)
        turn_order = {seat: i for i, seat in enumerate(d.final_done)}
        d.ranking = sorted(range(d.players), key=lambda s: (-d.scores[s], turn_order[s]))
        d.winner = d.ranking[0]
        d.reason = REASON_POINTS
        d.round = ROUND_OVER

    def score(self, final: bool) -> None:  # R11
        """Each controller scores the links of its island it does not hold, +1 in the final scoring."""
        for color, points in enumerate(self.points_if_scored(final)):
            self.data.scores[color] += points


def is_absolute_majority(count: int, size: int) -> bool:  # R2
    """True when ``count`` bridges are more than half of an island's ``size`` links."""
    return 2 * count > size


def island_value(size: int, held: int, final: bool) -> int:  # R11
    """Points for controlling an island of ``size`` links holding ``held`` of them."""
    return size - held + (1 if final else 0)


def removable_colors(counts: list[int], mover: int) -> set[int]:  # R7
    """The colors whose bridges the mover may remove, given bridges per color on the island."""
    n = counts[mover]
    others = {color: c for color, c in enumerate(counts) if color != mover and c > 0}
    top = max(others.values(), default=0)
    if n > top:
        return set(others)
    if n == top:
        return {color for color, c in others.items() if c == 1}
    return set()


def can_pay(hand: list[int], cards: tuple[int, int]) -> bool:  # R4 swap
    """True when ``hand`` holds both ``cards`` (two of one island when they are equal)."""
    a, b = cards
    if a == b:
        return hand[a] >= 2
    return hand[a] >= 1 and hand[b] >= 1
