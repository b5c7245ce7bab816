"""The readable reference implementation of the rules (R1-R13, R14 Might of the Gods, R15 for two players, and
R16 Kahuna).

``ReferenceState`` plays the game over a plain ``StateData`` exactly as
``docs/engine.md`` describes it, one small function per rule.  It is written
for clarity, not speed: it is the oracle the compiled core
(``kanaloa_core.CoreState``) is tested against move for move, and both expose
the same *engine state protocol* (``kanaloa.rules.engine.EngineState``: ``from_data``,
``deal``, ``to_data``, ``copy``, ``legal_actions``, ``apply``, the board
questions ``counts_on`` and ``controller_of``, and the ``players``,
``to_move``, ``round``, ``is_over``, ``scores``, ``winner``, ``ranking``
properties).  The board's tables (the links of each island, their number)
come from the ``Board`` itself.

Colors are numbered apart from seats (``kanaloa.rules.state``): with 3 or 4
players seat ``s`` plays the one color ``s``; with two players (R15) seat ``s``
plays colors ``s`` and ``s + 2``, building with one of them per turn
(``StateData.turn_color``).  ``StateData.bridges`` and ``scores`` are per
color; the board questions (``counts_on``, ``controller_of``,
``points_if_scored``) answer per color; ``winner`` and ``ranking`` are seats.

Kahuna (R16, ``StateData.game == GAME_KAHUNA``) is a second rule set on the
same state: its rules live in ``kanaloa.rules.kahuna``, one function per rule,
and ``ReferenceState`` hands a Kahuna state's moves to them.  Its two seats
play one color each.

Might of the Gods (R14, ``StateData.gods``) is a variant of Kanaloa: its rules
live in ``kanaloa.rules.gods``.  ``ReferenceState`` hands it the variant's own
moves (token uses, builds paid with KANALOA) and calls it from the Kanaloa
events the variant changes: claiming a token on a new absolute majority (R6),
and what each player knows of each hand (R14.10) when a card is paid, taken
face-up or discarded face-down.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..errors import shorten
from . import actions as A
from . import gods as gods_rules
from . import kahuna
from .board import Board
from .rng import SplitMix64
from .state import (
    DEAL,
    FACE_UP,
    GAME_KAHUNA,
    GAME_KANALOA,
    GAMES,
    HAND_LIMIT,
    KAHUNA_BRIDGES,
    KAHUNA_FACE_UP,
    NO_CARD,
    NO_COLOR,
    NO_OWNER,
    PRESET_TABLETOP,
    REASON_ELEVEN,
    REASON_NO_BRIDGES,
    REASON_POINTS,
    ROUND_1,
    ROUND_2,
    ROUND_3,
    ROUND_FINAL,
    ROUND_OVER,
    ROUND_SETUP,
    TABLETOP_BRIDGES,
    TWO_PLAYERS,
    WIN_ISLANDS,
    StateData,
    colors_of_seat,
    n_colors,
    seat_of_color,
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
    def from_data(cls, board: Board, data: StateData) -> ReferenceState:
        """A state holding an independent copy of ``data``.

        Raises ``ValueError`` for a game of Might of the Gods on a board without 16 islands (R14.1).
        """
        if data.gods:
            gods_rules.check_board(board)
        return cls(board, data.copy())

    @classmethod
    def deal(cls, board: Board, players: int, preset: int, seed: int, game: int = GAME_KANALOA,
             gods: bool = False) -> ReferenceState:
        """A new game in setup (round 0), dealt from ``seed`` (R3, docs/engine.md "Dealing").

        Two players are dealt as three or four (R15.2): 4 cards each, one revealed by each, and
        the deck fills the face-up row to 4 when the setup ends (``finish_setup``).  With
        ``game=GAME_KAHUNA`` the game is Kahuna, dealt straight into round 1 (R16.2,
        ``kanaloa.rules.kahuna.deal``).  With ``gods`` it is a game of Might of the Gods, its
        tokens laid on the islands after the cards are dealt (R14.1, ``kanaloa.rules.gods.deal``).

        Raises ``ValueError`` when the board has too few cards to deal every hand (as the core does),
        for a Kahuna game that is not for 2 players in the yucata preset, and for Might of the Gods
        on a board without 16 islands or in Kahuna; the message begins with the field at fault.
        """
        if gods:
            gods_rules.check_game(game)
            return cls(board, gods_rules.deal(board, players, preset, seed))
        if game == GAME_KAHUNA:
            return cls(board, kahuna.deal(board, players, preset, seed))
        if game != GAME_KANALOA:
            raise ValueError(f"game: {game} is not one of {', '.join(f'{v} ({k})' for k, v in GAMES.items())}")
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
        return self.data.copy()

    def copy(self) -> ReferenceState:
        return ReferenceState(self.board, self.data.copy())

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

    @property
    def n_colors(self) -> int:
        """How many colors are in play: one per seat, or four with two players of Kanaloa (R15.1, R16.1)."""
        return n_colors(self.data.players, self.data.game)

    @property
    def is_kahuna(self) -> bool:
        """True when the state plays Kahuna's rules (R16)."""
        return self.data.game == GAME_KAHUNA

    # -- colors (R15) -------------------------------------------------------

    def colors_of(self, seat: int) -> tuple[int, ...]:  # R15.1, R16.1
        """The colors ``seat`` builds with, its first color first: one, or two with two players of Kanaloa."""
        return colors_of_seat(seat, self.data.players, self.data.game)

    def open_colors(self) -> tuple[int, ...]:  # R15.3
        """The colors the mover may build with now.

        With 3 or 4 players, its one color.  With two players, both of its
        colors until the turn's first place or swap has chosen one, then
        that one only.
        """
        d = self.data
        if d.turn_color != NO_COLOR:
            return (d.turn_color,)
        return self.colors_of(d.to_move)

    def acting_color(self) -> int:  # R7, R15.3
        """The color whose build queued the pending removals: the color of the turn (with two
        players, the one its first build chose) or the mover's first color."""
        d = self.data
        return d.turn_color if d.turn_color != NO_COLOR else d.to_move

    def standing(self, seat: int) -> tuple[int, ...]:  # R12, R15.5, R16.7
        """What ranks ``seat`` (more is better): ``(points,)``, or with two players of Kanaloa the pair
        (points of its weaker color, points of its stronger color).  In Kahuna it is ``(points,)``;
        the final ranking's tie-breaks (R16.7) are ``kanaloa.rules.kahuna.result_keys``."""
        return seat_standing(self.data.scores, seat, self.data.players, self.data.game)

    # -- board questions (R1, R2) -------------------------------------------

    def count_on(self, island: int, color: int) -> int:
        """How many links of ``island`` hold a bridge of ``color``."""
        bridges = self.data.bridges
        return sum(1 for k in self.board.links_of[island] if bridges[k] == color)

    def counts_on(self, island: int) -> list[int]:
        """Bridges per color on the links of ``island`` (one entry per color, R15.1)."""
        counts = [0] * self.n_colors
        bridges = self.data.bridges
        for k in self.board.links_of[island]:
            if bridges[k] != NO_OWNER:
                counts[bridges[k]] += 1
        return counts

    def has_free_link(self, island: int) -> bool:
        bridges = self.data.bridges
        return any(bridges[k] == NO_OWNER for k in self.board.links_of[island])

    def controller_of(self, island: int) -> int:
        """The color with an absolute majority on ``island``, or ``NO_OWNER`` (R2; a color, R15.1)."""
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
        """Bridges ``color`` may still build in the tabletop preset; None when unlimited (R13).
        In Kahuna every player has 25 (R16.1)."""
        if self.is_kahuna:
            return KAHUNA_BRIDGES - self.data.bridges.count(color)
        if self.data.preset != PRESET_TABLETOP:
            return None
        return TABLETOP_BRIDGES - self.data.bridges.count(color)

    def points_if_scored(self, final: bool = False) -> list[int]:  # R11
        """Per color, what a scoring of the islands now would add; ``final`` adds the final +1 per island.

        Without ``final`` it is the scoring at the end of round 1 (R9).  With two players each
        color scores on its own (R15.1).  In Kahuna it is ``kanaloa.rules.kahuna.points_if_scored``:
        the scoring that ends the current round, the interim one in rounds 1 and 2 (R16.6), the
        final one (R16.7) from round 3 on or with ``final``.
        """
        if self.is_kahuna:
            return kahuna.points_if_scored(self, final)
        points = [0] * self.n_colors
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
        if d.game == GAME_KAHUNA:
            return kahuna.legal_actions(self)
        if d.round == ROUND_SETUP:
            moves = self._reveal_moves()
        elif d.gods and gods_rules.pending(d):  # R14.6-R14.8: a steal, a gift or LONO's card first
            moves = gods_rules.pending_moves(self)
        elif d.remove_on:
            moves = self._removal_moves()
        elif d.round == ROUND_FINAL:
            moves = [*self._build_moves(), A.encode(A.END)]
            if self._may_pass():
                moves.append(A.encode(A.PASS))
        elif d.gods:  # R14.4-R14.9: rounds 1 and 2 of Might of the Gods
            moves = gods_rules.play_phase_moves(self)
        elif d.discarded:
            moves = self._draw_moves()
        else:
            moves = self._build_moves() + self._discard_moves() + self._draw_moves()
        moves.sort()
        return moves

    def _reveal_moves(self) -> list[int]:  # R3
        hand = self.data.hands[self.data.to_move]
        return [A.encode(A.REVEAL, x) for x in range(self.board.n_islands) if hand[x] > 0]

    def _removal_moves(self) -> list[int]:  # R7, R15.4
        island = self.data.remove_on[0]
        eligible = removable_colors(self.counts_on(island), self.acting_color())
        bridges = self.data.bridges
        return [A.encode(A.REMOVE, k) for k in self.board.links_of[island] if bridges[k] in eligible]

    def _build_moves(self) -> list[int]:  # R4 place and swap, R13 stock, R15.3 the turn's color
        hand = self.data.hands[self.data.to_move]
        return [A.with_slot(action, slot)
                for slot, color in self.building_colors() for action in self._builds_of(color, hand)]

    def building_colors(self) -> list[tuple[int, int]]:  # R13 stock, R15.3 the turn's color
        """``(slot, color)`` for each color the mover may build with now: one the turn allows
        (R15.3), with a bridge in stock (R13)."""
        open_now = self.open_colors()
        colors = []
        for slot, color in enumerate(self.colors_of(self.data.to_move)):
            if color not in open_now:
                continue  # R15.3: the turn's first build chose the other color
            stock = self.bridges_in_stock(color)
            if stock is not None and stock <= 0:
                continue
            colors.append((slot, color))
        return colors

    def _builds_of(self, color: int, hand: list[int]) -> list[int]:  # R4, R15.4
        """Every place and swap ``hand`` pays for ``color``: a place on any free link, a swap of a
        bridge of any other color (with two players, the player's other color included)."""
        moves = []
        for k, (a, b) in enumerate(self.board.links):
            owner = self.data.bridges[k]
            if owner == NO_OWNER:
                for x in (a, b):
                    if hand[x] > 0:
                        moves.append(A.encode(A.PLACE, k, x))
            elif owner != color:
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

    def _may_pass(self) -> bool:  # R10, R15.6
        """Before acting, the mover may pass while a seat ranked above it (more points, or with two
        players a greater pair) is still to take its final turn; equal standings never pass."""
        d = self.data
        me = d.to_move
        mine = self.standing(me)
        return d.played == 0 and any(
            seat != me and seat not in d.final_done and self.standing(seat) > mine for seat in range(d.players)
        )

    # -- applying moves -----------------------------------------------------

    def apply(self, action: int) -> None:
        """Play ``action`` for the player to move.  Unchecked: it must be legal."""
        if self.data.game == GAME_KAHUNA:
            kahuna.apply(self, action)
            return
        if self.data.gods and gods_rules.is_variant_move(self.data, action):
            gods_rules.apply(self, action)
            return
        kind, a = A.kind_of(action), A.arg_a(action)
        if kind == A.PLACE:
            self.place(a, A.build_arg(action), self.colors_of(self.data.to_move)[A.build_slot(action)])
        elif kind == A.SWAP:
            self.swap(a, A.build_arg(action), self.colors_of(self.data.to_move)[A.build_slot(action)])
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
        if d.gods:
            gods_rules.see_paid(d, me, island)  # R14.10
        d.discard_open.append(island)
        d.played += 1

    def place(self, link: int, card: int, color: int | None = None) -> None:  # R4 place
        """Pay ``card`` and build ``color`` (by default the mover's first color) on the free ``link``."""
        color = self.choose_color(color)
        self.pay(card)
        self.data.bridges[link] = color
        self.resolve_build(link, color)

    def swap(self, link: int, combo: int, color: int | None = None) -> None:  # R4 swap
        """Pay the two cards of ``combo``; ``color`` (by default the mover's first) replaces the bridge on ``link``."""
        color = self.choose_color(color)
        for card in A.swap_cards(self.board.links[link], combo):
            self.pay(card)
        self.data.bridges[link] = color
        self.resolve_build(link, color)

    def choose_color(self, color: int | None) -> int:  # R15.3
        """The color a place or swap builds with; with two players it becomes the turn's color."""
        d = self.data
        if color is None:
            color = d.to_move
        if d.players == TWO_PLAYERS:
            d.turn_color = color
        return color

    def resolve_build(self, link: int, color: int) -> None:
        """After a place or swap of ``color`` on ``link``: R6 then R7 on each end (island order), then R8."""
        for island in sorted(self.board.links[link]):
            self.take_control(island, color)
            self.check_relative_majority(island, color)
        self.check_immediate_win(color)

    def take_control(self, island: int, color: int) -> None:  # R6, R15.4
        """A new absolute majority of ``color`` clears every other color's bridges off ``island``
        (with two players, those of the player's other color too)."""
        d = self.data
        n = self.count_on(island, color)
        size = self.board.sizes[island]
        # The build added exactly one bridge of ``color`` here, so n - 1 is the count just before.
        if is_absolute_majority(n, size) and not is_absolute_majority(n - 1, size):
            for k in self.board.links_of[island]:
                if d.bridges[k] not in (NO_OWNER, color):
                    d.bridges[k] = NO_OWNER
            if d.gods:
                gods_rules.claim(self, island, color)  # R14.2, R14.3

    def check_relative_majority(self, island: int, color: int) -> None:  # R7, R15.4
        """Queue a removal on a full large island where ``color`` leads or ties without control.

        Every other color is a rival here, the player's other color included (R15.4).
        """
        d = self.data
        size = self.board.sizes[island]
        if size < 5 or self.has_free_link(island):
            return
        counts = self.counts_on(island)
        n = counts[color]
        if is_absolute_majority(n, size):
            return
        others = [c for other, c in enumerate(counts) if other != color]
        m = max(others, default=0)
        if n > m or (n == m and 1 in others):
            d.remove_on.append(island)

    def check_immediate_win(self, color: int) -> None:  # R8, R15.7
        """Eleven islands controlled by ``color`` end the game at once: its player wins.

        The other seats rank by their standing (points, or with two players the pair of R15.5),
        then by seat order (R12).
        """
        d = self.data
        if self.islands_controlled(color) < WIN_ISLANDS:
            return
        winner = seat_of_color(color, d.players)
        others = sorted((seat for seat in range(d.players) if seat != winner),
                        key=lambda s: ([-x for x in self.standing(s)], s))
        d.ranking = [winner, *others]
        d.winner = winner
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
        if d.gods:
            gods_rules.see_face_down_discard(d, me)  # R14.10
        d.hidden_by[me][island] += 1
        d.discarded = True

    def take(self, island: int) -> None:  # R5 face-up card
        self.take_card(island)
        self.end_turn()

    def draw(self) -> None:  # R5 blind draw
        self.draw_card()
        self.end_turn()

    def take_card(self, island: int) -> None:  # R5, R16.5
        """The mover takes the first face-up ``island``, known to all; the deck's top card takes its place."""
        d = self.data
        me = d.to_move
        d.hands[me][island] += 1
        d.public[me][island] += 1
        if d.gods:
            gods_rules.see_face_up_take(d, me, island)  # R14.10
        slot = d.face_up.index(island)
        if d.deck:
            d.face_up[slot] = d.deck.pop(0)
            seen_leave_deck(d, range(d.players), d.face_up[slot])
        else:
            del d.face_up[slot]

    def draw_card(self) -> None:  # R5, R16.5
        """The mover draws the deck's top card, unseen by the others."""
        d = self.data
        card = d.deck.pop(0)
        d.hands[d.to_move][card] += 1
        seen_leave_deck(d, [d.to_move], card)

    def end_turn(self) -> None:
        """After the draw: reset the turn, end the round if the cards ran out (R9, R10), next seat."""
        d = self.data
        d.played = 0
        d.discarded = False
        d.turn_color = NO_COLOR  # R15.3: the next turn chooses again
        if d.gods:
            gods_rules.clear_turn(d)  # R14.8, R14.9
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

    def reshuffle_discards(self, face_up: int = FACE_UP) -> None:  # R9, R16.6
        """Every discard, listed in island order, shuffled by the state's stream into the deck;
        ``face_up`` cards (4, or 3 in Kahuna) are turned up from its top.  Each player knows which of
        the deck's cards it saw go in (``reshuffle_knowledge``)."""
        d = self.data
        d.pile, d.pile_unseen = reshuffle_knowledge(d)
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
        d.face_up = deck[:face_up]
        d.deck = deck[face_up:]
        for card in d.face_up:
            seen_leave_deck(d, range(d.players), card)

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
        d.turn_color = NO_COLOR
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

    def finish_game(self) -> None:  # R11 final scoring, R12 ranking, R15.5
        """Final scoring; seats rank by standing (points, or the pair of R15.5), then by the
        earlier final turn."""
        d = self.data
        self.score(final=True)
        turn_order = {seat: i for i, seat in enumerate(d.final_done)}
        d.ranking = sorted(range(d.players), key=lambda s: ([-x for x in self.standing(s)], turn_order[s]))
        d.winner = d.ranking[0]
        d.reason = REASON_POINTS
        d.round = ROUND_OVER

    def score(self, final: bool) -> None:  # R11, R15.1
        """Each controlling color scores the links of its island it does not hold, +1 in the final scoring."""
        for color, points in enumerate(self.points_if_scored(final)):
            self.data.scores[color] += points


def is_absolute_majority(count: int, size: int) -> bool:  # R2
    """True when ``count`` bridges are more than half of an island's ``size`` links."""
    return 2 * count > size


def island_value(size: int, held: int, final: bool) -> int:  # R11
    """Points for controlling an island of ``size`` links holding ``held`` of them."""
    return size - held + (1 if final else 0)


def seat_standing(scores: list[int], seat: int, players: int,
                  game: int = GAME_KANALOA) -> tuple[int, ...]:  # R12, R15.5, R16.7
    """What ranks ``seat``, greater is better: ``(points,)`` with 3 or 4 players and in Kahuna; with
    two players of Kanaloa, the pair (points of the seat's color with fewer points, points of its
    other color)."""
    if players != TWO_PLAYERS or game != GAME_KANALOA:
        return (scores[seat],)
    weak, strong = sorted(scores[c] for c in colors_of_seat(seat, players))
    return (weak, strong)


def removable_colors(counts: list[int], mover: int) -> set[int]:  # R7, R15.4
    """The colors whose bridges the ``mover`` color may remove, given bridges per color on the
    island (with two players, the player's other color is one of them)."""
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


# -- explanations: why an action is illegal, why a state is unreachable ----------------
#
# These two functions put into words what ``ReferenceState`` decides.  Whoever needs a reason
# (checked play, the position reader) asks them instead of deciding a rule again; the property
# test ``tests/test_why_illegal.py`` holds ``why_illegal`` to ``legal_actions`` on every action
# code of the notation.


def color_names(players: int, names: Sequence[str], game: int = GAME_KANALOA) -> tuple[str, ...]:
    """The name of every color (R15.1), from ``names`` by color.

    Color ``c`` is numbered as in ``StateData``, so a seat's name, the name
    of its first color, is ``names[seat]`` in every game.  ``names`` may
    also give the seats alone (two names in a 2-player game of Kanaloa): each
    second color is then called after its player ("red's second color").
    In Kahuna (R16.1) the colors are the seats'.
    """
    names = tuple(names)
    missing = range(len(names), n_colors(players, game))
    return names + tuple(f"{names[seat_of_color(c, players)]}'s second color" for c in missing)


class Undecided:
    """What a rule set's step of ``why_illegal`` returns when the next step decides (``UNDECIDED``)."""


UNDECIDED = Undecided()


def why_illegal(state: ReferenceState, action: int, names: Sequence[str], hand_known: bool = True) -> str | None:
    """Why the player to move may not play ``action`` in ``state``; None when it is legal.

    ``names`` are the colors by color number, for the message (see
    ``color_names``; with 3 or 4 players, the colors by seat).  With
    ``hand_known`` false the mover's hand is seen from outside, as another
    player at the table sees it: only its size is known, so a reason that
    depends on which cards it holds is not given (the action may then be
    illegal all the same; with ``hand_known`` true, None means exactly that
    ``action`` is in ``state.legal_actions()``).

    Every rule set shares the first steps (a code that names no action, a
    second color where each plays one, a finished game); then Kahuna's
    rules answer (``kahuna.why_not``), or Kanaloa's (``why_not_kanaloa``),
    which the gods' variant joins at the steps it changes.
    """
    d = state.data
    names = color_names(d.players, names, d.game)
    kind, a, arg = A.kind_of(action), A.arg_a(action), A.arg_b(action)
    slot = 0
    if kind in (A.PLACE, A.SWAP):
        slot, arg = A.build_slot(action), A.build_arg(action)
    kahuna_rules = d.game == GAME_KAHUNA
    malformed = kahuna.malformed if kahuna_rules else gods_rules.malformed if d.gods else _malformed
    shape = malformed(state.board, d.players, kind, a, arg)
    if shape is not None:
        return shape
    if slot and state.n_colors == d.players:  # R15.1, R16.1: each player plays one color
        if kahuna_rules:
            return "each Kahuna player builds with its one color; a build names no second color (R16.1)"
        return f"with {d.players} players each plays one color; only a 2-player game builds with a second color (R15.1)"
    if d.round == ROUND_OVER:
        return "the game is over"
    if kahuna_rules:
        return kahuna.why_not(state, kind, a, arg, names, hand_known)
    return why_not_kanaloa(state, kind, a, arg, slot, names, hand_known)


def why_not_kanaloa(state: ReferenceState, kind: int, a: int, arg: int, slot: int, names: tuple[str, ...],
                    hand_known: bool) -> str | None:  # R3-R10, R14
    """Kanaloa's steps of ``why_illegal`` (the game not over, the code well formed); with the gods, the
    variant's steps join them: what a token use left pending, the uses themselves, its play phase."""
    d = state.data
    variant = gods_rules if d.gods else None
    if d.round == ROUND_SETUP:  # R3
        if kind != A.REVEAL:
            return "in the setup each color first reveals one card: 'reveal CARD' (R3)"
        return _why_unpaid(state, [a], names, hand_known)
    if kind == A.REVEAL:
        return "cards are revealed only in the setup (R3)"
    if variant is not None:  # R14.6-R14.8: a token's action pending
        found = variant.why_not_pending(state, kind, a, arg, names, hand_known)
        if found is not UNDECIDED:
            return found
    if d.remove_on:  # R7
        return _why_not_removable(state, kind, a, names)
    if kind == A.REMOVE:
        return "no removal is pending (R7)"
    if variant is not None:  # R14.4-R14.9
        token = variant.token_used_by(kind, arg)
        if token is not None:
            return variant.why_not_token_use(state, kind, token, a, arg, slot, names, hand_known)
    if d.round == ROUND_FINAL:  # R10
        return _why_not_in_final_round(state, kind, a, arg, slot, names, hand_known)
    if variant is not None:
        return variant.why_not_in_play_phase(state, kind, a, arg, slot, names, hand_known)
    return _why_not_in_play_phase(state, kind, a, arg, slot, names, hand_known)


def _why_not_in_play_phase(state: ReferenceState, kind: int, a: int, arg: int, slot: int, names: tuple[str, ...],
                           hand_known: bool) -> str | None:  # R4, R5
    """Rounds 1 and 2, no removal pending: why a build, a discard or a draw is illegal; None when legal."""
    d = state.data
    board = state.board
    me = d.to_move
    name = names[me]
    if kind in (A.END, A.PASS):
        return f"'{A.KIND_NAMES[kind]}' belongs to the final round (R10)"
    if d.discarded and kind in (A.PLACE, A.SWAP, A.DISCARD):
        return f"{name} has discarded this turn; only 'take' or 'draw' remain (R4)"
    if kind == A.DISCARD:
        if d.played:
            return f"{name} has already played a card this turn; a face-down discard replaces playing (R4)"
        return _why_unpaid(state, [a], names, hand_known)
    if kind in (A.TAKE, A.DRAW):  # R5, with the R4 hand limit
        held = d.hand_size(me)
        if held > HAND_LIMIT:
            return f"the hand holds {held} cards; play or discard first (R4)"
        return why_not_drawn(state, kind, a, "R5")
    return _why_not_built(state, kind, a, _build_cards(board, kind, a, arg), slot, names, hand_known)


def why_not_drawn(state: ReferenceState, kind: int, island: int, rule: str) -> str | None:  # R5, R14.8, R16.5
    """Why a take of ``island`` or a blind draw cannot be made from the table (no such card face-up, an empty
    deck); None when it can.  ``rule`` is the draw's rule, cited for the empty deck."""
    d = state.data
    if kind == A.TAKE and island not in d.face_up:
        shown = ", ".join(state.board.islands[x] for x in d.face_up) or "none"
        return f"no {state.board.islands[island]} among the face-up cards ({shown})"
    if kind == A.DRAW and not d.deck:
        return f"the deck is empty; take a face-up card ({rule})"
    return None


def _build_cards(board: Board, kind: int, link: int, arg: int) -> list[int]:  # R4
    """The cards a place (its one card) or a swap (its combination) on ``link`` pays."""
    return [arg] if kind == A.PLACE else list(A.swap_cards(board.links[link], arg))


def _why_not_in_final_round(state: ReferenceState, kind: int, a: int, arg: int, slot: int, names: tuple[str, ...],
                            hand_known: bool) -> str | None:  # R10, R15.6
    """In the final round, no removal pending: why ``kind`` is illegal; None when it is legal."""
    d = state.data
    name = names[d.to_move]
    if kind in (A.TAKE, A.DRAW):
        return "the final round has no draw phase (R10)"
    if kind == A.DISCARD:
        return "there is no discard in the final round (R10)"
    if kind == A.PASS:
        if state._may_pass():
            return None
        if d.played:
            return f"{name} has already played a card this turn, so it may not pass (R10)"
        if d.players == TWO_PLAYERS:
            return _why_no_pass_2p(state, names)
        return (f"no color with more points than {name} is still to take its final turn, "
                f"so {name} may not pass (R10)")
    if kind == A.END:
        return None
    return _why_not_built(state, kind, a, _build_cards(state.board, kind, a, arg), slot, names, hand_known)


def _why_not_built(state: ReferenceState, kind: int, link: int, cards: list[int], slot: int, names: tuple[str, ...],
                   hand_known: bool) -> str | None:  # R4, R13, R15.3
    """Why a place or a swap on ``link`` paying ``cards``, built with the mover's color in ``slot``, is
    illegal, the turn allowing builds; None when it is legal."""
    d = state.data
    board = state.board
    me = d.to_move
    name = names[me]
    color = state.colors_of(me)[slot]
    if d.turn_color not in (NO_COLOR, color):
        return (f"{name} builds with {names[d.turn_color]} this turn, not {names[color]}: a turn builds with "
                f"one color only (R15.3)")
    link_name = board.link_name(link)
    owner = d.bridges[link]
    if kind == A.PLACE and owner != NO_OWNER:
        return f"{link_name} already holds {names[owner]}'s bridge; a swap pays two cards"
    if kind == A.SWAP and owner == NO_OWNER:
        return f"{link_name} holds no bridge to swap; a place pays one card"
    if kind == A.SWAP and owner == color:
        return f"{link_name} already holds {names[color]}'s own bridge"
    stock = state.bridges_in_stock(color)
    if stock is not None and stock <= 0:
        return f"{names[color]} has no bridge left in stock (R13)"
    return _why_unpaid(state, cards, names, hand_known)


def why_not_mover_color(state: ReferenceState, color: int, names: Sequence[str]) -> str | None:  # R15.1, R16.1
    """Why the player to move may not build with ``color`` (a color number), as a move that names
    its color does (``blue: LINK/CARD``); None when ``color`` is one of the mover's colors (in
    Kahuna, the mover's one color).

    Which of the mover's colors the turn allows is ``why_illegal``'s question (R15.3).
    """
    d = state.data
    names = color_names(d.players, names, d.game)
    mine = state.colors_of(d.to_move)
    if color in mine:
        return None
    own = " and ".join(names[c] for c in mine)
    rule = "R16.1" if state.is_kahuna else "R15.1"
    if not 0 <= color < state.n_colors:
        return f"this game has no color {color}; {names[d.to_move]} builds with {own} ({rule})"
    return (f"{names[color]} is {names[seat_of_color(color, d.players)]}'s color; {names[d.to_move]} "
            f"builds with {own} ({rule})")


def _why_no_pass_2p(state: ReferenceState, names: tuple[str, ...]) -> str:  # R15.6
    """Why the mover, who has not played this turn, may not pass in a 2-player final round."""
    d = state.data
    me = d.to_move
    other = 1 - me
    if other in d.final_done:
        return f"{names[other]} has taken its final turn, so {names[me]} may not pass (R15.6)"
    mine, theirs = state.standing(me), state.standing(other)
    if mine == theirs:
        return f"{names[me]} and {names[other]} have equal pairs {_pair(mine)}, so nobody passes (R15.6)"
    return (f"{names[me]}'s pair {_pair(mine)} is greater than {names[other]}'s {_pair(theirs)}; only the player "
            f"with the smaller pair may pass (R15.6)")


def _pair(standing: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(x) for x in standing) + ")"


def _malformed(board: Board, players: int, kind: int, a: int, arg: int) -> str | None:
    """A reason when the code names no action on ``board`` (an unknown kind, link, island or combination)."""
    if kind in (A.PLACE, A.SWAP, A.REMOVE):
        if a >= board.n_links:
            return f"board {board.name} has no link {a}"
        if kind == A.PLACE and arg not in board.links[a]:
            return f"a place pays a card of an end of {board.link_name(a)}"
        if kind == A.SWAP and arg not in (A.SWAP_AA, A.SWAP_AB, A.SWAP_BB):
            return f"a swap on {board.link_name(a)} pays two cards of its ends"
        if kind == A.REMOVE and arg:
            return "a removal names only its link"
        return None
    if kind in (A.DISCARD, A.TAKE, A.REVEAL):
        if a >= board.n_islands or arg:
            return f"board {board.name} has no island {a}"
        return None
    if kind in (A.DRAW, A.END, A.PASS):
        return None if a == arg == 0 else f"'{A.KIND_NAMES[kind]}' names nothing"
    return f"{kind} is no kind of action"


def _why_unpaid(state: ReferenceState, cards: list[int], names: tuple[str, ...], hand_known: bool,
                pays_two: str = "a swap") -> str | None:
    """Why the mover cannot give up ``cards`` (R3 reveal, R4 pay or discard, R16.3 removal); None when it can.

    ``pays_two`` names the move that pays two cards, for the message seen from outside."""
    d = state.data
    me = d.to_move
    name = names[me]
    if not cards:  # R14.5: a build paid with KANALOA alone
        return None
    if not hand_known:
        held = d.hand_size(me)
        if held == 0:
            return f"{name} holds no card"
        if held < len(cards):
            return f"{name} holds {held} card; {pays_two} pays two"
        return None
    hand = d.hands[me]
    for card in dict.fromkeys(cards):  # in the order the move names them
        need, have = cards.count(card), hand[card]
        if have < need:
            island = state.board.islands[card]
            return f"{name} has no {island} card" if have == 0 else f"{name} needs two {island} cards and holds one"
    return None


def _why_not_removable(state: ReferenceState, kind: int, link: int, names: tuple[str, ...]) -> str | None:
    """With a removal pending (R7): why ``kind`` on ``link`` is not the removal due; None when it is.

    The removal belongs to the color that built (with two players, the turn's color): its own
    bridges stay, the player's other color may lose one (R15.4).
    """
    d = state.data
    board = state.board
    me = state.acting_color()
    name = names[d.to_move]
    island = d.remove_on[0]
    where = board.islands[island]
    if kind != A.REMOVE:
        return f"{name} must first remove a bridge on {where} (R7): 'remove LINK'"
    link_name = board.link_name(link)
    if island not in board.links[link]:
        return f"the pending removal is on {where}; {link_name} is not one of its links (R7)"
    owner = d.bridges[link]
    if owner == NO_OWNER:
        return f"{link_name} holds no bridge"
    if owner == me:
        return f"{names[me]} cannot remove its own bridge (R7)"
    counts = state.counts_on(island)
    if owner in removable_colors(counts, me):
        return None
    if counts[me] == max(c for color, c in enumerate(counts) if color != me):
        return (f"{names[me]} is tied for the most bridges on {where}, so only a color with a single bridge "
                f"there may lose one (R7)")
    return f"{names[me]} does not lead on {where}, so it removes nothing there (R7)"


def max_points(board: Board, final: bool) -> int:  # R11
    """The most one scoring can give one color on ``board``: every island held by the smallest majority."""
    return sum(island_value(board.size(i), board.size(i) // 2 + 1, final) for i in range(board.n_islands))


def why_unreachable(
    state: ReferenceState, names: Sequence[str], face_up_pending: bool = False
) -> tuple[str, str] | None:
    """Why no game reaches ``state``: ``(field, reason)``, or None when nothing rules it out.

    The checks are those that keep a state playable: it has a legal move, or
    the game is over.  ``field`` is where the position format
    (``kanaloa-position/1``) holds the offending part, ``names`` the colors by
    color number (``color_names``; a seat is named by its first color,
    ``names[seat]``).  ``face_up_pending`` describes a state whose newly turned face-up
    cards are still on top of the deck, unrecorded: right after the setup,
    every color having chosen (R3), or right after the reshuffle (R9).
    """
    d = state.data
    names = color_names(d.players, names, d.game)
    found = gods_rules.unreachable_fields(state)
    if found is not None:
        return found
    if d.game == GAME_KAHUNA:
        return kahuna.why_unreachable(state, names, face_up_pending)
    found = _unreachable_kahuna_fields(state)
    if found is not None:
        return found
    if d.gods:  # R14: the tokens, what each player knows, what a token use leaves pending
        found = gods_rules.why_unreachable(state, names)
        if found is not None:
            return found
    for check in (_unreachable_cards, _unreachable_turn, _unreachable_round):
        found = check(state, names, face_up_pending)
        if found is not None:
            return found
    colors = range(state.n_colors)
    for color in colors:
        stock = state.bridges_in_stock(color)
        if stock is not None and stock < 0:
            return "bridges", (f"{names[color]} has {d.bridges.count(color)} bridges; the tabletop preset gives "
                               f"{TABLETOP_BRIDGES} per color (R13)")
    if d.round != ROUND_OVER:
        for color in colors:
            held = state.islands_controlled(color)
            if held >= WIN_ISLANDS:
                return "bridges", f"{names[color]} controls {held} islands; the game would be over (R8)"
    return None


_Found = tuple[str, str] | None


def _unreachable_kahuna_fields(state: ReferenceState) -> _Found:
    """What only Kahuna has (R16): a third round, a skipped draw, the no-bridges ending."""
    d = state.data
    if d.game != GAME_KANALOA:
        return "game", f"{d.game} is not one of {', '.join(f'{v} ({k})' for k, v in GAMES.items())}"
    if d.round == ROUND_3:
        return "round", "Kanaloa has rounds 1 and 2 before the final round; round 3 is Kahuna's (R9, R10, R16.6)"
    if d.skipped:
        return "turn.skipped_draw", "a Kanaloa turn always ends with a draw (R5); only Kahuna skips one (R16.5)"
    if d.round == ROUND_OVER and d.reason == REASON_NO_BRIDGES:
        return "result.reason", "'no bridges' ends only a game of Kahuna (R16.8)"
    return None


def _unreachable_cards(state: ReferenceState, names: tuple[str, ...], pending: bool) -> _Found:
    """Hands, face-up cards and scores within what the rules allow (R4, R5, R11)."""
    d = state.data
    board = state.board
    most = HAND_LIMIT + 1  # R4, R5: at most 4 after the play phase, then one card drawn
    for seat in range(d.players):
        if d.hand_size(seat) > most and not gods_rules.lifts_hand_limit(d, seat):  # R14.9
            return f"hands.{names[seat]}", f"{d.hand_size(seat)} cards; a hand holds at most {most} (R4, R5)"
    if len(d.face_up) > FACE_UP:
        return "face_up", f"{len(d.face_up)} cards; at most {FACE_UP} lie face-up (R5)"
    limit = {ROUND_SETUP: 0, ROUND_1: 0, ROUND_2: max_points(board, False), ROUND_FINAL: max_points(board, False),
             ROUND_OVER: max_points(board, False) + max_points(board, True)}[d.round]
    kane = gods_rules.kane_bound(state)  # R14.3: KANE scores at once, in any round
    if kane and d.round != ROUND_SETUP:
        limit += kane
        if d.round == ROUND_1:
            for c in range(state.n_colors):
                if d.scores[c] > kane:
                    return f"scores.{names[c]}", (f"{shorten(str(d.scores[c]))} points before the first scoring; "
                                                  f"only KANE scores in round 1, {kane} at most here (R9, R14.3)")
    for c in range(state.n_colors):
        color, points = names[c], d.scores[c]
        shown = shorten(str(points))
        if points > limit and d.round in (ROUND_SETUP, ROUND_1):
            return f"scores.{color}", (f"{shown} points before the first scoring; nobody scores before round 1 "
                                       f"ends (R9, R11)")
        if points > limit:
            return f"scores.{color}", (f"{shown} points; by round {_round_name(d.round)} a color can have at most "
                                       f"{limit} on board {board.name} (R11)")
    return None


def _round_name(rnd: int) -> str:
    return {ROUND_SETUP: "0", ROUND_1: "1", ROUND_2: "2", ROUND_FINAL: "final", ROUND_OVER: "over"}[rnd]


def _unreachable_turn(state: ReferenceState, names: tuple[str, ...], pending: bool) -> _Found:
    """The turn so far: removals due (R7), the discard (R4) and the hand the turn began with (R4, R5)."""
    d = state.data
    board = state.board
    for island in d.remove_on:
        where = board.islands[island]
        if board.size(island) < 5:
            return "turn.remove_on", (f"{where} has {board.size(island)} links; removals (R7) happen only on "
                                      f"islands of 5 or more")
        if state.has_free_link(island):
            return "turn.remove_on", f"{where} has a free link; a removal (R7) follows only when every link is taken"
    if d.discarded and d.played and not (d.gods and d.over_limit):  # R14.9: a token use allows it
        return "turn.discarded", "a color that discarded face-down has played no card (R4)"
    most = HAND_LIMIT + 1
    held = d.hand_size(d.to_move)
    began = held + d.played + int(d.discarded)
    if d.gods and d.discarded and held > HAND_LIMIT and not d.over_limit:
        return "turn.discarded", (f"{names[d.to_move]} holds {held} cards after a face-down discard; only a hand a "
                                  f"token left above {HAND_LIMIT} keeps more than {HAND_LIMIT} (R4, R14.9)")
    if began > most and not gods_rules.tokens_may_have_acted(d):
        shed = f"played {shorten(str(d.played))}" + (" and discarded 1" if d.discarded else "")
        return "turn", (f"{names[d.to_move]} holds {held} card(s) having {shed} this turn, so it began the turn "
                        f"with {shorten(str(began))}; a hand holds at most {most} (R4, R5)")
    found = _unreachable_color(state, names)
    if found is not None:
        return found
    found = _unreachable_removals(state, names)
    if found is not None:
        return found
    if d.round in (ROUND_SETUP, ROUND_FINAL) and d.discarded:
        return "turn.discarded", "a face-down discard happens only in rounds 1 and 2 (R4, R10)"
    if d.round == ROUND_SETUP and (d.played or d.remove_on):
        return "turn", "no card is played during the setup (R3)"
    return None


def _unreachable_color(state: ReferenceState, names: tuple[str, ...]) -> _Found:
    """The turn's color (R15.3): chosen by the turn's first build, with two players only, one of the mover's."""
    d = state.data
    field = "turn.color"
    if d.turn_color == NO_COLOR:
        if d.players == TWO_PLAYERS and d.played:
            return field, (f"{names[d.to_move]} has played {d.played} card(s) this turn, so its first place or swap "
                           f"chose the turn's color (R15.3)")
        return None
    if d.players != TWO_PLAYERS:
        return field, f"with {d.players} players each plays one color; only a 2-player turn chooses one (R15.3)"
    if d.turn_color not in state.colors_of(d.to_move):
        shown = names[d.turn_color] if 0 <= d.turn_color < len(names) else str(d.turn_color)
        return field, f"{shown} is not a color of {names[d.to_move]} (R15.1)"
    if not d.played and not gods_rules.tokens_may_have_acted(d):  # R14.5: KANALOA builds without a card
        return field, "the turn's first place or swap chooses its color (R15.3), but turn.played is 0"
    return None


def _unreachable_removals(state: ReferenceState, names: tuple[str, ...]) -> _Found:
    """``remove_on`` must be what the last place or swap queued (R7), by the color that built."""
    d = state.data
    board = state.board
    me = state.acting_color()
    name = names[me]
    pending = d.remove_on
    if not pending:
        return None
    field = "turn.remove_on"
    if d.played == 0 and not gods_rules.tokens_may_have_acted(d):  # R14.5: KANALOA builds without a card
        return field, "a removal (R7) follows a place or swap, but turn.played is 0"
    if len(pending) > 2 or len(set(pending)) != len(pending):
        return field, "one place or swap queues at most one removal on each end of its link (R7)"
    if len(pending) == 2:
        link = board.find_link(*pending)
        if link is None or d.bridges[link] != me:
            return field, (f"{board.islands[pending[0]]} and {board.islands[pending[1]]} are not the ends of a "
                           f"bridge of {name}: one build queues removals only on the ends of its link (R7)")
        if pending[0] > pending[1]:
            return field, "removals are queued in the board's island order (R7)"
    for island in pending:
        counts = state.counts_on(island)
        where = board.islands[island]
        if state.controller_of(island) == me:
            return field, f"{name} controls {where}; a removal (R7) is due only without an absolute majority"
        if not removable_colors(counts, me):
            top = max(c for color, c in enumerate(counts) if color != me)
            return field, (f"{name} has {counts[me]} bridge(s) on {where} against {top}: it neither leads nor ties "
                           f"with a single rival bridge to remove (R7)")
    return None


def _unreachable_round(state: ReferenceState, names: tuple[str, ...], pending: bool) -> _Found:
    """What each round looks like: the setup (R3), the face-up row (R5, R9), the final round (R10), the result."""
    d = state.data
    if d.round == ROUND_SETUP:
        return _unreachable_setup(state, names, pending)
    if d.round == ROUND_FINAL:
        for seat in d.final_passed:
            if seat in d.final_done:
                return "final_round.passed", f"{names[seat]} has already taken its final turn"
        if d.to_move in d.final_done:
            return "to_move", f"{names[d.to_move]} has already taken its final turn (R10)"
        if d.deck:
            return "deck", f"{len(d.deck)} card(s) left; the final round has no deck (R10)"
        if d.face_up:
            return "face_up", f"{len(d.face_up)} card(s) left; the final round has no face-up cards (R10)"
        return None
    if d.round == ROUND_OVER:
        return _unreachable_result(state, names)
    if len(d.face_up) < FACE_UP and d.deck:
        # Only a reshuffle (R9) turns cards up in round 2; until they are recorded the row is empty.
        fresh = not (d.played or d.discarded or d.remove_on)
        if not (pending and d.round == ROUND_2 and not d.face_up and fresh):
            return "face_up", (f"{len(d.face_up)} cards while the deck is not empty; the deck keeps {FACE_UP} "
                               f"cards face-up (R5)")
    elif pending:
        return "face_up", "no face-up card waits to be recorded: the deck turned none up (R9)"
    if not d.face_up and not d.deck and not gods_rules.tokens_may_have_acted(d):  # R14.8: LONO may empty them
        return "face_up", (f"the deck and the face-up cards are both empty; round {d.round} would have ended "
                           f"(R9, R10)")
    return None


def _unreachable_setup(state: ReferenceState, names: tuple[str, ...], pending: bool) -> _Found:
    """R3: colors choose in seat order; nothing is built, known or discarded yet."""
    d = state.data
    n = d.players
    chosen = [seat for seat in range(n) if d.setup_chosen[seat] != NO_CARD]
    k = len(chosen)
    if chosen != list(range(k)):
        return "setup.chosen", (f"colors choose in seat order (R3): expected {list(names[:k])}, "
                                f"not {[names[s] for s in chosen]}")
    if k < n:
        if pending:
            return "setup.chosen", f"{names[k]} has not chosen yet; the face-up cards are turned only after (R3)"
        if d.to_move != k:
            return "to_move", f"{names[k]} is the next to choose in the setup (R3), not {names[d.to_move]}"
    elif not pending:
        return "setup.chosen", "every color has chosen; the chosen cards would already lie face-up (R3)"
    elif d.to_move != 0:
        return "to_move", f"after the setup {names[0]} moves first (R3), not {names[d.to_move]}"
    if d.face_up:
        return "face_up", "no card lies face-up before the setup ends (R3)"
    if any(owner != NO_OWNER for owner in d.bridges):
        return "bridges", "no bridge is built during the setup (R3)"
    for seat in range(n):
        color = names[seat]
        want = DEAL - (1 if seat < k else 0)
        held = d.hand_size(seat)
        if held != want:
            why = "less the one it has set aside" if seat < k else "and has not chosen yet"
            return f"hands.{color}", f"{held} card(s); in the setup {color} holds the {DEAL} dealt, {why} (R3)"
        if any(d.public[seat]):
            return f"hands.{color}.public", "nobody has taken a face-up card during the setup (R3)"
    if d.discard_open or d.hidden_count():
        return "discard", "nothing is discarded during the setup (R3)"
    return None


def _unreachable_result(state: ReferenceState, names: tuple[str, ...]) -> _Found:
    """The result must be the one the rules give for these bridges and scores (R8, R10, R12, R15.5, R15.7)."""
    d = state.data
    held = [state.islands_controlled(color) for color in range(state.n_colors)]
    if d.reason == REASON_ELEVEN:
        best = max(state.colors_of(d.winner), key=lambda c: held[c])  # R15.7: either color of the winner
        if held[best] < WIN_ISLANDS:
            return "result.reason", f"'eleven islands' but {names[best]} controls {held[best]} islands (R8)"
        rest = sorted((s for s in range(d.players) if s != d.winner),
                      key=lambda s: ([-x for x in state.standing(s)], s))
        if d.ranking[1:] != rest:
            order = ", ".join(names[s] for s in [d.winner, *rest])
            return "result.ranking", (f"after an immediate win the others rank by points, then seat order: {order} "
                                      f"(R12)")
        return None
    strong = [c for c in range(state.n_colors) if held[c] >= WIN_ISLANDS]
    if strong:
        return "result.reason", (f"'points' but {names[strong[0]]} controls {held[strong[0]]} islands: the game "
                                 f"ended at once by R8")
    if d.deck or d.face_up:
        return "result.reason", ("'points' ends the game after the final round, when the deck and the face-up "
                                 "cards are gone (R10)")
    for a, z in zip(d.ranking, d.ranking[1:], strict=False):
        if d.players == TWO_PLAYERS and state.standing(a) < state.standing(z):
            return "result.ranking", (f"{names[a]} (pair {_pair(state.standing(a))}) ranks above {names[z]} (pair "
                                      f"{_pair(state.standing(z))}); the greater pair wins (R15.5)")
        if d.scores[a] < d.scores[z] and d.players != TWO_PLAYERS:
            return "result.ranking", (f"{names[a]} ({d.scores[a]} points) ranks above {names[z]} ({d.scores[z]} "
                                      f"points); most points wins (R12)")
    return None


def turn_up_face_up(state: ReferenceState) -> None:  # R3, R9, R16.6
    """Turn cards from the top of the deck face-up until the row is full (``FACE_UP``, or Kahuna's
    ``KAHUNA_FACE_UP``) or the deck is empty."""
    d = state.data
    size = KAHUNA_FACE_UP if d.game == GAME_KAHUNA else FACE_UP
    while len(d.face_up) < size and d.deck:
        d.face_up.append(d.deck.pop(0))
        seen_leave_deck(d, range(d.players), d.face_up[-1])


# -- what a reshuffle reveals (docs/engine.md "What a reshuffle reveals") --------------------------


def reshuffle_knowledge(d: StateData) -> tuple[list[list[int]], list[int]]:
    """What each player knows of the deck the discards of ``d`` are about to become (R9, R16.6).

    Player ``o`` saw the open discards and its own face-down ones go in
    (``pile[o]``, counts per island), and knows how many face-down discards of
    the others it could not see (``pile_unseen[o]``).
    """
    open_counts = [0] * d.n_islands
    for island in d.discard_open:
        open_counts[island] += 1
    hidden = sum(sum(row) for row in d.hidden_by)
    pile = [[n + own for n, own in zip(open_counts, d.hidden_by[o], strict=True)] for o in range(d.players)]
    unseen = [hidden - sum(d.hidden_by[o]) for o in range(d.players)]
    if not any(knows_of_deck(row, n) for row, n in zip(pile, unseen, strict=True)):
        return [], []  # nothing was discarded: nothing to know
    return pile, unseen


def knows_of_deck(went_in: list[int], unseen: int) -> bool:
    """Whether one player's entry (its ``pile`` row and ``pile_unseen``) says anything of the deck."""
    return bool(unseen) or any(went_in)


def came_out(went_in: list[int], unseen: int, card: int) -> int | None:
    """One player sees ``card`` come out of the deck: one of the cards it saw go in (taken off ``went_in``,
    in place), or else one of those it could not see.  Returns what is left unseen, or None when the card
    can be neither (the player knows it did not go in)."""
    if went_in[card]:
        went_in[card] -= 1
        return unseen
    return unseen - 1 if unseen else None


def seen_leave_deck(d: StateData, observers: Iterable[int], card: int) -> None:
    """Each of ``observers`` sees ``card`` come out of the deck: one of the cards it saw go in at the last
    reshuffle, or else one of those it could not see.  Once the deck is empty, or nobody knows anything
    more of it, the tables are empty again, as before the first reshuffle."""
    if not d.pile:
        return
    for o in observers:
        left = came_out(d.pile[o], d.pile_unseen[o], card)
        if left is not None:
            d.pile_unseen[o] = left
    if not d.deck or not any(knows_of_deck(row, n) for row, n in zip(d.pile, d.pile_unseen, strict=True)):
        d.pile, d.pile_unseen = [], []
