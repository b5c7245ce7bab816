"""The greedy player of the Kanaloa family: one whole turn of lookahead on its own cards, with a board heuristic.

The ``greedy`` bot (``kanaloa.play.bots``) plays a game through the game's
``greedy`` face; this module is the Kanaloa family's (Kanaloa with its
presets, two players and the gods, and Kahuna).  It looks at every order of
the mover's places, swaps and removals up to ``width`` states, keeps the
line whose end scores best under ``BoardHeuristic``, then takes the face-up
card it values most, or draws.  What the game is, it asks the rule set: how
a scoring counts (links, R11, or islands, R16.6), whether there are god
tokens (R14), which colors a seat plays (R15.1).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..rules import actions as A
from ..rules.core import CoreState

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset
    from ..rules.state import StateData

PLAY_KINDS = (A.PLACE, A.SWAP, A.REMOVE)
CARD_VALUE = 0.6  # a card in hand: roughly what one bridge toward a majority is worth
PROGRESS = 0.5  # credit per bridge toward a majority not yet reached
# R15.5: the weight of a player's stronger color beside its weaker one (two players).  At 0.25 a first bridge of
# either color (its PROGRESS on both islands, times this weight) was worth less than the card it costs, so the
# bot never built: docs/strength.md, experiment 29.
STRONGER_COLOR = 0.5
ISLAND_VALUE = 1.5  # where scorings count islands (R16.6, R16.7): an island controlled counts towards each left
# Might of the Gods (R14): what an unused token is worth beside a card in hand (KANE is never owned).
TOKEN_VALUE = (0.0, 1.2 * CARD_VALUE, CARD_VALUE, CARD_VALUE, CARD_VALUE)
# The action kinds of the gods (kanaloa.rules.actions): KU, STEAL, PELE, GIVE, LONO.
_KU, _STEAL, _PELE, _GIVE, _LONO = 10, 11, 12, 13, 14


class BoardHeuristic:
    """A static evaluation of a position for one seat, asked of the engine state.

    Each island a color controls (R2) counts what it would score now with the
    final bonus (R11, the state's ``points_if_scored(final=True)``); each
    bridge on an island the color does not control counts ``PROGRESS`` toward
    it.  That makes an estimate per color.  A seat's standing is its color's
    estimate; with two players (R15.5) it is its weaker color's estimate plus
    ``STRONGER_COLOR`` times its stronger color's, since the weaker color
    decides the winner first.  The value for a seat is its standing minus the
    best other seat's, plus ``CARD_VALUE`` per card in hand.

    Where a scoring counts the islands each controls (Kahuna, R16.6 and
    R16.7) a color's estimate is its points plus ``ISLAND_VALUE`` per island
    it controls, with the same ``PROGRESS`` per bridge on islands it does
    not control.
    """

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.board = ruleset.board

    def estimates(self, state: CoreState) -> list[float]:
        """Points plus the board estimate, per color."""
        islands = self.ruleset.scores_islands
        if islands:
            est = [float(score) for score in state.scores]
        else:
            est = [float(score + points) for score, points in zip(state.scores, state.points_if_scored(True),
                                                                 strict=True)]
        for island in range(self.board.n_islands):
            owner = state.controller_of(island)
            if islands and owner >= 0:
                est[owner] += ISLAND_VALUE
            for color, n in enumerate(state.counts_on(island)):
                if color != owner:
                    est[color] += PROGRESS * n
        return est

    def standings(self, state: CoreState) -> list[float]:
        """Each seat's standing, from the colors' estimates (the class docstring)."""
        est = self.estimates(state)
        rs = self.ruleset
        if not rs.pairs:
            return est
        out = []
        for seat in range(rs.players):
            weak, strong = sorted(est[c] for c in rs.colors_of(seat))
            out.append(weak + STRONGER_COLOR * strong)
        return out

    def value(self, state: CoreState, seat: int, cards_in_hand: int) -> float:
        """How good ``state`` is for ``seat``, who holds ``cards_in_hand`` cards (and, with the gods, its
        unused tokens, ``TOKEN_VALUE`` each)."""
        standing = self.standings(state)
        best_other = max(v for s, v in enumerate(standing) if s != seat)
        tokens = 0.0
        if self.ruleset.tokens:
            tokens = sum(n * worth for n, worth in zip(state.to_data().gods_owned[seat], TOKEN_VALUE, strict=True))
        return standing[seat] - best_other + CARD_VALUE * cards_in_hand + tokens

    def card_value(self, state: CoreState, seat: int, island: int, held: int) -> float:
        """How useful one more card of ``island`` is to ``seat``, who holds ``held`` of them already:
        free links there and its own bridges (of its color with more there, with two players)."""
        counts = state.counts_on(island)
        free = self.board.size(island) - sum(counts)
        mine = max(counts[c] for c in self.ruleset.colors_of(seat))
        return (free > held) * (1.0 + mine) + 0.1 * free


class GreedyPlayer:
    """One turn of lookahead with a board heuristic (see the module docstring), for one game's rule set."""

    def __init__(self, ruleset: Ruleset, width: int = 400) -> None:
        self.ruleset = ruleset
        self.width = width
        self.heuristic = BoardHeuristic(ruleset)

    def choose(self, state: CoreState, rng: random.Random) -> int:
        """The move for the seat to move in ``state`` (not modified); random choices flow from ``rng``."""
        moves = state.legal_actions()
        if len(moves) == 1:
            return moves[0]
        me = state.to_move
        # Only the mover's own cards matter to its play phase; the rest is a sample.
        own = state.determinise(me, rng.getrandbits(63))
        if self.ruleset.tokens:
            token_move = self._token_move(self.heuristic, own, me, moves)
            if token_move is not None:
                return token_move
        line = self._best_line(self.heuristic, own, me)
        if line:
            return line[0]
        return self._end_of_play(self.heuristic, own, me, moves, rng)

    def _best_line(self, h: BoardHeuristic, state: CoreState, me: int) -> list[int]:
        """The best sequence of the mover's places, swaps and removals (possibly empty)."""
        start_data = state.to_data()
        # Stopping at once is an option only where the play phase may end (R4 hand limit, R7 removal).
        may_stop_now = not start_data.remove_on and self._may_stop(state)
        best_value = h.value(state, me, sum(start_data.hands[me])) if may_stop_now else -1e9
        best_line: list[int] = []
        seen = {_key(start_data)}
        frontier: list[tuple[CoreState, list[int]]] = [(state, [])]
        budget = self.width
        while frontier and budget > 0:
            next_frontier: list[tuple[CoreState, list[int]]] = []
            for s, line in frontier:
                for action in s.legal_actions():
                    if action >> 16 not in PLAY_KINDS:
                        continue
                    child = s.copy()
                    child.apply(action)
                    data = child.to_data()
                    key = _key(data)
                    if key in seen:
                        continue
                    seen.add(key)
                    budget -= 1
                    new_line = [*line, action]
                    if child.is_over:
                        if child.winner == me:
                            return new_line  # R8: eleven islands
                        continue
                    if child.to_move == me:
                        if not data.remove_on and self._may_stop(child):
                            v = h.value(child, me, sum(data.hands[me]))
                            if v > best_value:
                                best_value, best_line = v, new_line
                        next_frontier.append((child, new_line))
                    if budget <= 0:
                        break
                if budget <= 0:
                    break
            frontier = next_frontier
        return best_line

    def _token_move(self, h: BoardHeuristic, state: CoreState, me: int, moves: list[int]) -> int | None:
        """Might of the Gods (R14): the cards a token gains come first, before any build. Take the most
        useful card a KU shows, give back the least useful after PELE, and use KU (on the player with the
        most cards), PELE or LONO as soon as they may be used; KANALOA builds are weighed by the lookahead
        like any build, against the token's value."""
        kinds = {a >> 16 for a in moves}
        data = state.to_data()
        if kinds == {_STEAL}:
            victim = data.ku_target
            return max(moves, key=lambda a: (h.card_value(state, me, A.arg_a(a), data.hands[me][A.arg_a(a)]),
                                             data.hands[victim][A.arg_a(a)], -a))
        if kinds == {_GIVE}:
            return min(moves, key=lambda a: (h.card_value(state, me, A.arg_a(a), data.hands[me][A.arg_a(a)] - 1), a))
        if _KU in kinds:
            targets = [a for a in moves if a >> 16 == _KU]
            return max(targets, key=lambda a: (sum(data.hands[A.arg_a(a)]), -a))
        for kind in (_PELE, _LONO):
            if kind in kinds:
                return A.encode(kind)
        return None

    @staticmethod
    def _may_stop(state: CoreState) -> bool:
        """True when the play phase may end here (R4 hand limit, R10 end)."""
        return any(a >> 16 in (A.TAKE, A.DRAW, A.END, A.DISCARD) for a in state.legal_actions())

    def _end_of_play(self, h: BoardHeuristic, state: CoreState, me: int, moves: list[int], rng: random.Random) -> int:
        """No card worth playing: end the final turn (R10), take the best face-up card or draw (R5,
        R16.5), skip the draw where a full hand cannot draw (Kahuna, R16.5), discard the least useful
        card (R4, R16.5), or set it aside at setup (R3)."""
        end = A.encode(A.END)
        draw = A.encode(A.DRAW)
        takes = [a for a in moves if a >> 16 == A.TAKE]
        if end in moves and not takes and draw not in moves:
            return end
        hand = state.to_data().hands[me]

        def usefulness(action: int) -> float:
            return h.card_value(state, me, A.arg_a(action), hand[A.arg_a(action)])

        if takes or draw in moves:
            # A blind draw is worth 0.9; the first face-up card worth more wins (ties: the earlier).
            best, best_value = (draw, 0.9) if draw in moves else (takes[0], usefulness(takes[0]))
            for a in takes:
                v = usefulness(a)
                if v > best_value:
                    best, best_value = a, v
            return best
        # R4 discard with five cards, or R3 the card set aside at setup: the least useful one.
        parting = [a for a in moves if a >> 16 in (A.DISCARD, A.REVEAL)]
        if parting:
            return min(parting, key=lambda a: (usefulness(a), a))
        return moves[rng.randrange(len(moves))]


def _key(data: StateData) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...], int]:
    """What identifies a state within one play phase: bridges, hands, pending removals and the turn's
    color (R15.3)."""
    return (tuple(data.bridges), tuple(map(tuple, data.hands)), tuple(data.remove_on), data.turn_color)
