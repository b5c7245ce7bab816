"""Kanaloa as a game for the searches: the compiled rules core behind the search protocol.

The searches of ``kanaloa.search`` know no game; they reach one only through
``kanaloa.search.protocol.SearchState``, in the manner of OpenSpiel's ``State``.
``KanaloaGame`` and ``KanaloaSearchState`` put the compiled core
(``kanaloa_core.CoreState``) behind that protocol:

* moves are the core's action codes, its legal lists sorted by code;
* ``resample`` is the core's determinisation (docs/engine.md "Knowledge"),
  with what a reshuffle reveals unless the game says otherwise;
* ``rollout`` plays to the end inside the core with one of its playout
  policies (``POLICY_HEURISTIC`` by default, ``POLICY_RANDOM``); with
  ``cut`` it stops after that many moves where a cut model fits
  (``kanaloa.play.cut``), and the state, finished for the search, returns
  the model's win chances and expected final points (docs/engine.md
  "Rollouts cut short");
* a face-down discard (R4) shows nothing of its card, so every discard of
  another player has one public key, ``HIDDEN_DISCARD``;
* ``priors`` are the core's heuristic move scores (``move_values``, the
  scores its heuristic playout policy compares) mapped to [0, 1] by
  ``prior_of``; another player's hidden discard takes the discard score;
* ``points()`` is the score of every color (R11), 4 entries with two players;
* ``returns()`` is 1 for the winner (R8, or R12 with its tie-break; with two
  players R15.5's pair) and 0 for the others, ``margins()`` the point margin
  over the best other player (with two players: of the weaker colors, the
  pair's first entries), over ``MARGIN_SCALE`` and clipped to [-1, 1].

Players are seats: with two players each seat plays two colors (R15), but
the search sees two players, each with one result.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Sequence

import cython

from ..rules import actions as A
from ..rules.core import POLICY_HEURISTIC, POLICY_RANDOM, CoreState, CutModel
from ..rules.reference import seat_standing
from ..search.protocol import Action
from .cut import cut_model_for, shipped_models, state_model_key

__all__ = [
    "HIDDEN_DISCARD",
    "MARGIN_SCALE",
    "POLICIES",
    "POLICY_HEURISTIC",
    "POLICY_RANDOM",
    "KanaloaGame",
    "KanaloaSearchState",
]

_PLACE, _SWAP = A.PLACE, A.SWAP  # the builds (R4), adjacent codes
assert _SWAP == _PLACE + 1
# R4: every face-down discard of another player looks alike to the observer.
HIDDEN_DISCARD: Action = A.encode(A.DISCARD, 0xFF)
# R14.6, R14.7: the card another player steals after KU, or gives after PELE, is seen only by the two players.
_STEAL, _GIVE = 11, 13  # the action kinds (kanaloa.rules.actions)
HIDDEN_STEAL: Action = A.encode(_STEAL, 0xFF)
HIDDEN_GIVE: Action = A.encode(_GIVE, 0xFF)
_FIRST_DISCARD, _AFTER_DISCARDS = A.encode(A.DISCARD), A.encode(A.DISCARD + 1)
POLICIES = {"heuristic": POLICY_HEURISTIC, "random": POLICY_RANDOM}  # the core's playout policies, by name
# A point margin this large or larger counts as a complete rout in ``margins()``.
MARGIN_SCALE = 20.0
# ``prior_of``: the core's move scores from PRIOR_LOW (prior 0) to PRIOR_LOW + PRIOR_SPAN (prior 1).
PRIOR_LOW = -8.0
PRIOR_SPAN = 40.0
DISCARD_VALUE = -4  # the core's score of a face-down discard (VALUE_DISCARD)


def prior_of(value: float) -> float:
    """A core move score as a prior in [0, 1]: a discard 0.1, nothing gained 0.2, a takeover about 0.8."""
    p = (value - PRIOR_LOW) / PRIOR_SPAN
    return 1.0 if p > 1.0 else (0.0 if p < 0.0 else p)


# ``prior_of`` for every integer score the core gives, looked up rather than computed in the search's loop.
_TABLE_LOW, _TABLE_HIGH = -64, 192
_PRIOR_TABLE = [prior_of(v) for v in range(_TABLE_LOW, _TABLE_HIGH)]


def _priors(values: list[int]) -> list[float]:
    table: list = _PRIOR_TABLE
    low: cython.long = _TABLE_LOW
    high: cython.long = _TABLE_HIGH
    return [table[v - low] if low <= v < high else prior_of(v) for v in values]


def _discards(moves: list[int]) -> tuple[int, int]:
    """Where the discards lie in a legal list (sorted by code, so they are one run): (start, end)."""
    lo = bisect_left(moves, _FIRST_DISCARD)
    return lo, bisect_left(moves, _AFTER_DISCARDS, lo)


def near_links(links: Sequence[tuple[int, int]], n_islands: int) -> list[int]:
    """For every link, the bitmask of the links whose builds may interact with a build on it.

    A place or swap on link A-B acts on the links of A and B only: its bridge,
    the sweeps of R6, the removal R7 may ask for.  A build on a link with no
    end on A, B or a neighbour of theirs shares no link with those, reads no
    count they change, and so commutes with it (docs/hints.md, "the same
    plan").  The mask marks every other link: those with an end in A, B or
    their neighbours.
    """
    neighbours: list[set[int]] = [set() for _ in range(n_islands)]
    for a, b in links:
        neighbours[a].add(b)
        neighbours[b].add(a)
    masks = []
    for a, b in links:
        near = {a, b} | neighbours[a] | neighbours[b]
        masks.append(sum(1 << k for k, (x, y) in enumerate(links) if x in near or y in near))
    return masks


class KanaloaGame:
    """The Kanaloa rules core as a protocol game.

    ``policy`` is the core's playout policy for rollouts
    (``POLICY_HEURISTIC`` by default, ``POLICY_RANDOM`` for uniform moves).

    With ``one_order`` the states offer one order of builds that commute:
    right after a build of the player to move, its legal moves leave out
    the builds that commute with it (``near_links``) and have a smaller
    action code.  The same positions are reached with those builds first,
    so a search explores each set of such builds once instead of in every
    order.  Before the first move of a search nothing is left out: moves
    made before it cannot be reordered.

    ``reshuffle``: determinisations deal the deck after a reshuffle from the
    cards the player saw go into it (docs/engine.md "What a reshuffle
    reveals"); False deals it from all unknown cards alike, as the earlier
    engine did.

    ``cut``: a rollout stops after this many moves and the cut model of the
    state's game, board, preset, gods and player count judges it (``cut_model``); 0, or
    no model for the game, plays rollouts to the end.  The models are fitted
    to the heuristic policy's games, so random rollouts are never cut.
    """

    __slots__ = ("_near", "cut", "one_order", "policy", "reshuffle")

    def __init__(self, policy: int = POLICY_HEURISTIC, one_order: bool = False, reshuffle: bool = True,
                 cut: object = 0) -> None:
        if policy not in (POLICY_RANDOM, POLICY_HEURISTIC):
            raise ValueError(f"unknown playout policy {policy}")
        # ``cut`` is annotated ``object`` so that the compiled module checks it here rather than convert
        # it on entry (where 2.5 would become 2).
        if not isinstance(cut, int) or isinstance(cut, bool) or cut < 0:
            raise ValueError(f"cut {cut!r}: must be a whole number of moves, 0 or more")
        self.cut = cut
        if cut and policy == POLICY_HEURISTIC:
            shipped_models()  # a broken models file is refused here, not in the middle of a search
        self.policy = policy
        self.one_order = one_order
        self.reshuffle = reshuffle
        self._near: dict[tuple[tuple[int, int], ...], list[int]] = {}

    def wrap(self, core_state: CoreState) -> KanaloaSearchState:
        """The protocol view of a ``kanaloa_core.CoreState`` (shared, not copied)."""
        return KanaloaSearchState(self, core_state)

    def cut_model(self, core_state: CoreState) -> CutModel | None:
        """The cut model that judges this game's rollouts from ``core_state``, or None (they play to the end):
        with ``cut``, heuristic rollouts, and a model fitted for the state's game, board, preset and
        player count (``kanaloa.play.cut``: every rule set of Kanaloa on ``oro``, and Kahuna)."""
        if not self.cut or self.policy != POLICY_HEURISTIC:
            return None
        return cut_model_for(state_model_key(core_state))

    def near(self, core_state: CoreState) -> list[int] | None:
        """``near_links`` of the state's board (kept per board), or None without ``one_order``."""
        if not self.one_order:
            return None
        board = core_state.board
        links = tuple(board.links)
        masks = self._near.get(links)
        if masks is None:
            masks = self._near[links] = near_links(links, board.n_islands)
        return masks


def family_search(policy: str = "heuristic", one_order: bool = False, reshuffle: bool = True,
                  cut: int = 0) -> KanaloaGame:
    """The Kanaloa family's ``search`` face (``kanaloa.rules.registry``): the adapter a search bot plays with,
    its playout policy named (``heuristic`` or ``random``)."""
    return KanaloaGame(POLICIES[policy], one_order, reshuffle, cut)


@cython.cclass
class KanaloaSearchState:
    """A ``SearchState`` over one ``kanaloa_core.CoreState``.

    The wrapped ``core`` is mutated by ``apply_action`` and ``rollout``; use
    ``clone`` to keep an original.  ``last`` is the build just made by the
    player to move, while it keeps the move (-1: none), and ``near`` the
    game's ``near_links`` masks when it offers one order of commuting
    builds (else None).  ``model`` is the game's ``cut_model`` for the
    state (None: rollouts play to the end), and ``estimate`` what it said
    of the state after a rollout cut short: (win chances, expected final
    points), else None.  Such a state is finished for the search: it is
    ``is_terminal``, ``returns`` its win chances and ``points`` its
    expected points; play on it no further.
    """

    core = cython.declare(object, visibility="public")
    game = cython.declare(object, visibility="public")
    near = cython.declare(object, visibility="public")
    model = cython.declare(object, visibility="public")
    estimate = cython.declare(object, visibility="public")
    last = cython.declare(cython.longlong, visibility="public")

    def __init__(self, game: KanaloaGame, core: CoreState, near: list[int] | bool | None = True,
                 model: CutModel | bool | None = True) -> None:
        self.game = game
        self.core = core
        # (True: look them up; the states made here pass them on, as a state's board and players never change)
        self.near = game.near(core) if near is True else near
        self.model = game.cut_model(core) if model is True else model
        self.estimate = None
        self.last = -1

    def num_players(self) -> int:
        return self.core.players

    def current_player(self) -> int:
        return self.core.to_move

    def legal_actions(self) -> list[Action]:
        moves: list = self.core.legal_actions()
        if self.last < 0:
            return moves
        return [moves[i] for i in self._kept(moves)]

    def _kept(self, moves: list) -> list[int]:
        """The indices of ``moves`` offered after the build ``last``: all but the builds with a smaller code
        on links far from its link (``KanaloaGame``, ``one_order``)."""
        last: cython.longlong = self.last
        near: cython.ulonglong = self.near[(last >> 8) & 0xFF]
        kept: list = []
        i: cython.Py_ssize_t
        code: cython.longlong
        kind: cython.longlong
        for i in range(len(moves)):
            code = moves[i]
            kind = code >> 16
            if code < last and _PLACE <= kind <= _SWAP and not (near >> ((code >> 8) & 0xFF)) & 1:
                continue
            kept.append(i)
        return kept

    def apply_action(self, action: Action) -> None:
        core = self.core
        if self.near is None:
            core.apply(action)
            return
        mover = core.to_move
        core.apply(action)
        kind = action >> 16
        self.last = action if _PLACE <= kind <= _SWAP and core.to_move == mover else -1

    def clone(self) -> KanaloaSearchState:
        twin = KanaloaSearchState(self.game, self.core.copy(), self.near, self.model)
        twin.last = self.last
        return twin

    def is_terminal(self) -> bool:
        return self.estimate is not None or self.core.is_over

    def returns(self) -> list[float]:
        """1 for the winner (R8, or R12 with its tie-break), 0 for the others; zeros while playing; after a
        rollout cut short, the model's win chances."""
        if self.estimate is not None:
            return list(self.estimate[0])
        core = self.core
        result = [0.0] * core.players
        winner = core.winner
        if winner >= 0:
            result[winner] = 1.0
        return result

    def margins(self) -> list[float]:
        """Each player's points minus the best other player's, over ``MARGIN_SCALE``, clipped to [-1, 1].

        With two players a player's points are those of its weaker color (R15.5).  After a rollout cut
        short the colors' points are the cut model's expected final points.
        """
        points = list(self.estimate[1]) if self.estimate is not None else self.core.scores
        players = self.core.players
        if len(points) == players:  # one color per seat (3 or 4 players, Kahuna)
            scores = list(points)
        else:
            scores = [seat_standing(points, seat, players)[0] for seat in range(players)]
        result = []
        for seat, own in enumerate(scores):
            best_other = max(s for other, s in enumerate(scores) if other != seat)
            m = (own - best_other) / MARGIN_SCALE
            result.append(1.0 if m > 1.0 else (max(m, -1.0)))
        return result

    def resample(self, player: int, seed: int) -> KanaloaSearchState:
        """A determinisation from ``player``'s knowledge (docs/engine.md "Knowledge")."""
        return KanaloaSearchState(self.game, self.core.determinise(player, seed, self.game.reshuffle), self.near,
                            self.model)

    def rollout(self, seed: int) -> None:
        """Play to the end in the core with the game's playout policy (no Python per move); with the game's
        ``cut``, stop after that many moves where a cut model applies and keep its estimate."""
        game = self.game
        if self.model is None:
            self.core.playout(seed, game.policy)
        else:
            self.estimate = self.core.playout_cut(seed, game.policy, game.cut, self.model)

    def public_actions(self, observer: int) -> list[Action]:
        """Legal moves as ``observer`` tells them apart: another player's discards are one key (R4), and so
        are the cards another player steals or gives where the observer is neither of the two (R14.10)."""
        if self.core.to_move == observer:
            return self.legal_actions()
        moves = self.core.legal_actions()
        if moves and (moves[0] >> 16) in (_STEAL, _GIVE):  # (one cheap test on the search's hot path)
            hidden = self._hidden_key(moves, observer)
            if hidden >= 0:
                return [hidden]
        lo, hi = _discards(moves)
        if hi > lo:
            moves[lo:hi] = [HIDDEN_DISCARD]  # the run of discards becomes its one key
        return moves

    def _hidden_key(self, moves: list, observer: int) -> Action:
        """With the gods: the one key of a steal or gift ``observer`` does not see (R14.6, R14.7), else -1."""
        if not moves:
            return -1
        kind = moves[0] >> 16
        if kind == _GIVE:
            return HIDDEN_GIVE if observer != (moves[0] & 0xFF) else -1
        if kind == _STEAL:
            return HIDDEN_STEAL if observer != self.core.ku_target else -1
        return -1

    def priors(self, observer: int) -> list[float]:
        """``prior_of`` the core's score of every move of ``public_actions(observer)``, in that order."""
        core = self.core
        values = _priors(core.move_values())
        if core.to_move == observer:
            if self.last >= 0:
                return [values[i] for i in self._kept(core.legal_actions())]
            return values
        moves = core.legal_actions()
        if moves and (moves[0] >> 16) in (_STEAL, _GIVE) and self._hidden_key(moves, observer) >= 0:
            return [prior_of(0)]
        lo, hi = _discards(moves)
        if hi > lo:
            values[lo:hi] = [prior_of(DISCARD_VALUE)]
        return values

    def points(self) -> list[float]:
        """The score of every color (R11); after a rollout cut short, the cut model's expected final points."""
        if self.estimate is not None:
            return list(self.estimate[1])
        return [float(p) for p in self.core.scores]

    def apply_public(self, key: Action, observer: int, rng: random.Random) -> Action:
        """Apply a move with public ``key``; a hidden discard becomes one of the hand's cards at random."""
        core = self.core
        if key == HIDDEN_DISCARD:
            moves = core.legal_actions()
            lo, hi = _discards(moves)
            key = moves[lo + rng.randrange(hi - lo)]
        elif key in (HIDDEN_STEAL, HIDDEN_GIVE):
            moves = core.legal_actions()
            key = moves[rng.randrange(len(moves))]
        core.apply(key)
        self.last = -1
        return key
