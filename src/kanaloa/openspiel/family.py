"""The Kanaloa family's games as OpenSpiel games, backed by the compiled rules core: their ``openspiel`` face.

Importing this module (as ``import kanaloa.openspiel`` does) registers with
``pyspiel`` each game of ``kanaloa.rules.registry`` whose ``openspiel`` face
is this module's ``game_for``: ``python_kanaloa`` (Kanaloa, R1-R15, with
Might of the Gods, R14) and ``python_kahuna`` (Kahuna, R16), through
``kanaloa.openspiel.register_game``.

A game's parameters are its registry parameters with ``seed``
(``pyspiel.load_game("python_kanaloa(players=3,gods=True)")``), as
``kanaloa.openspiel`` makes them for every game: ``colors`` joins its seats
with ``;`` there (``colors=red+blue;green+yellow``).  Every other question
goes to the rule set.  ``game_for(ruleset)`` (the ``openspiel`` face) makes
the game of a rule set already made.  The seed never changes which
games can happen or how likely they are: it only fixes the order in which the
core keeps the cards no chance node has decided yet, so that a game replayed
with the chance outcomes of ``Position.deal(ruleset, seed)`` is, state for
state, that position's game (the conformance tests rely on it).

The game (docs/openspiel.md has the whole contract):

* **Sequential, imperfect information, explicit chance.**  The deal is a
  chance node per card dealt to a hand or turned face-up (and per god token
  laid, R14.1); every card that comes off the deck (a draw, a take's refill,
  the setup's top-up) is a chance node when it comes off; a reshuffle (R9,
  R16.6) is a chance node per card it turns face-up; PELE's takes (R14.7) are
  a chance node per player robbed.  A chance outcome is the island of the card
  (or the kind of the token), with probability proportional to how many such
  cards are left where it is drawn from.
* **Actions** are the core's action codes (``kanaloa.rules.actions``)
  numbered densely: ``game.action_of(code)`` and ``game.code_of(action)``.
* **Information state and observation** of a player: the player's viewer
  position (docs/positions.md "Viewer positions"), as compact JSON: what that player
  knows, as a viewer position keeps it (docs/engine.md "Knowledge").
  A viewer position keeps what can be known now, not the history, so the
  string does not grow with the game; two histories that leave a player
  with the same knowledge give the same string.  While chance nodes are
  pending after a move, the string is the position before the move, the move,
  and the outcomes that player sees.
* ``resample_from_infostate(player, sampler)`` is the core's determinisation
  (docs/engine.md "Knowledge"), seeded by one draw of ``sampler``.
* **Returns** (R12): 1 for the winner, 0 for every other player; where each
  player plays two colors the R15.5 winner; nobody wins where the rule set
  may end without a winner (Kahuna's R16.8).
* Serialization is OpenSpiel's own for Python games: the game's parameters,
  the history and the state's attributes (the core state pickled).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pyspiel

from ..errors import KanaloaError
from ..position.api import Position
from ..position.format import render
from ..position.notation import Move
from ..rules import actions as A
from ..rules.core import CoreState, core_board
from ..rules.gods import stream_for_pele_takes
from ..rules.reference import reshuffle_knowledge, seen_leave_deck
from ..rules.registry import GameType, game_types
from ..rules.ruleset import Ruleset
from ..rules.state import StateData
from ..rules.tensor import action_codes
from . import GameRef, RegisteredGame, player_action_ids, register_game, spiel_game_type, spiel_name, spiel_params

__all__ = ["SpielGame", "SpielState", "core_returns", "family_game_type", "game_for", "served_games"]

FACE = f"{__name__}:game_for"  # the registry's openspiel face this module serves

# OpenSpiel's max_game_length, in moves and chance outcomes: the card supply bounds a game far below it (random
# games on ``oro`` average about 250, the longest of 3,000 had 299; docs/openspiel.md).
MAX_GAME_LENGTH = 20_000

# What a pending chance node decides.
_DEAL, _DRAW, _FACE_UP, _PELE = "deal", "draw", "face-up", "pele"


def served_games() -> list[GameType]:
    """The registered games whose OpenSpiel face is this module, in registration order."""
    return [g for g in game_types() if g.faces.get("openspiel") == FACE]


def action_universe(rs: Ruleset) -> list[int]:
    """Every action code a game of rule set ``rs`` can use, ascending: the numbering of the game's ``tensor``
    face too (``kanaloa.rules.tensor.action_codes``), so an action is the same number in both."""
    return action_codes(rs)


class SpielGame(RegisteredGame):
    """The OpenSpiel game of one rule set, dealt from ``seed``; states come from ``new_initial_state``.

    Made by ``game_for(ruleset, seed)``, or by ``pyspiel.load_game("python_<name>(...)")`` from the registry's
    parameters.  ``ruleset`` is the rule set every question goes to.
    """

    # Its states hold the compiled core (``SpielState.core``), which can play a random rollout in C
    # (``kanaloa.play.openspiel_search.CoreRolloutEvaluator``).
    core_rollouts = True

    def __init__(self, ruleset: Ruleset, seed: int = 0) -> None:
        g = ruleset.game_type
        try:
            start = Position.deal(ruleset, seed)
        except KanaloaError as exc:
            raise ValueError(f"{spiel_name(g.name)}: {exc}") from None
        self.ruleset = ruleset
        self.board = ruleset.board
        self.players = ruleset.players
        self.core_board = core_board(self.board)
        self.start = start.state.to_data()
        # The deal's chance nodes: how many deal cards (to hands, then face-up), and the cards they draw from;
        # then, with the gods, a token on each island (R14.1).
        self.deal_cards = sum(sum(h) for h in self.start.hands) + len(self.start.face_up)
        self.deal_tokens = len(self.start.god_on)
        self.supply = _counts(SpielState._deal_sequence(self.start), self.board.n_islands)
        self.codes = action_universe(ruleset)
        self.ids = {code: i for i, code in enumerate(self.codes)}
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.codes),
            max_chance_outcomes=max(self.board.n_islands, len(ruleset.tokens)),
            num_players=ruleset.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None if ruleset.may_end_without_winner else 1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(family_game_type(g), info, spiel_params(ruleset, seed))

    def new_initial_state(self) -> SpielState:
        """The game before the deal: a chance node."""
        return SpielState(self)

    def state_of(self, core: CoreState) -> SpielState:
        """A state at ``core`` (a complete state of this game's rule set), as if reached by play: a player
        node, or terminal.  Its history is empty: it starts where the core state stands."""
        state = SpielState(self)
        state._core = core.copy()
        state._deal = None
        return state

    def action_of(self, code: int) -> int:
        """The OpenSpiel action of a core action code."""
        try:
            return self.ids[code]
        except KeyError:
            raise ValueError(f"action code {code}: not an action of {self.get_type().short_name}") from None

    def code_of(self, action: int) -> int:
        """The core action code of an OpenSpiel action."""
        return self.codes[action]



def game_for(ruleset: Ruleset, seed: int = 0) -> SpielGame:
    """The OpenSpiel game of ``ruleset`` (the registry's ``openspiel`` face), dealt from ``seed``."""
    return SpielGame(ruleset, seed)


@dataclass
class _Pending:
    """Chance nodes that follow a player's move: ``kind`` is what they decide, ``code`` the move, ``chosen``
    the outcomes so far, ``need`` how many there are (PELE: one per seat of ``victims``), ``before`` the core
    state before the move (whose view the players keep meanwhile); ``reshuffled`` is set when the move's
    draws end with a reshuffle, whose face-up cards come next."""

    kind: str
    code: int
    need: int
    before: CoreState
    chosen: list[int] = field(default_factory=list)
    victims: list[int] = field(default_factory=list)
    reshuffled: bool = False
    earlier: _Pending | None = None  # the chance nodes of the same move decided before these (a draw's)


class SpielState(pyspiel.State):
    """A state of a ``SpielGame``: a core state, and what the chance nodes pending next decide.

    ``_deal`` is the list of outcomes chosen so far while the deal lasts, then None.  ``_pending`` is
    None at a player node, else the chance nodes a move opened (``_Pending``).
    """

    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        self._setup = GameRef(game)
        self._core: CoreState = CoreState.from_data(game.core_board, game.start)
        self._deal: list[int] | None = []
        self._pending: _Pending | None = None
        self._keys: dict[int, str] = {}
        self._counts: list[int] | None = None  # the chance node's outcome counts, once asked for

    # -- the OpenSpiel state API --------------------------------------------------------

    def current_player(self) -> int:
        if self._deal is not None or self._pending is not None:
            return pyspiel.PlayerId.CHANCE
        if self._core.is_over:
            return pyspiel.PlayerId.TERMINAL
        return self._core.to_move

    def is_terminal(self) -> bool:
        return self._deal is None and self._pending is None and self._core.is_over

    # ``is_chance_node`` and ``legal_actions`` answer in Python what OpenSpiel's own methods would
    # compute by calling back into this class (``current_player``, ``_legal_actions``,
    # ``chance_outcomes``): the same answers, without the round trips through C++ that a search's
    # rollouts pay at every action.  A test demands that both agree.

    def is_chance_node(self) -> bool:
        return self._deal is not None or self._pending is not None

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (None: the player to move); at a chance node, its outcomes."""
        if self.is_chance_node():
            return [x for x, n in enumerate(self._chance_counts()) if n]  # for any player, as OpenSpiel's
        return player_action_ids(self._core, player, self._setup.game.ids)

    def _legal_actions(self, player: int) -> list[int]:
        return self.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        counts = self._chance_counts()
        total = sum(counts)
        return [(x, n / total) for x, n in enumerate(counts) if n]

    def _apply_action(self, action: int) -> None:
        self._keys = {}
        if self._deal is not None:
            self._deal_card(action)
        elif self._pending is not None:
            self._decide(action)
        else:
            self._move(self._setup.game.codes[action])
        self._counts = None  # after the move: checking an outcome reads the node's counts

    def _action_to_string(self, player: int, action: int) -> str:
        game = self._setup.game
        if player == pyspiel.PlayerId.CHANCE:
            kind = self._pending.kind if self._pending is not None else _DEAL
            if kind == _DEAL and self._deal is not None and len(self._deal) >= self._setup.game.deal_cards:
                return f"token {game.ruleset.tokens[action]}"
            return f"card {game.board.islands[action]}"
        code = game.code_of(action)
        return str(Move.from_action(code, game.ruleset, seat=player))

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._setup.game.players
        return core_returns(self._core, self._setup.game.players)

    def information_state_string(self, player: int | None = None) -> str:
        return self._key(self.current_player() if player is None else player)

    def observation_string(self, player: int | None = None) -> str:
        return self._key(self.current_player() if player is None else player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpielState:
        """A state drawn from what ``player_id`` knows: the core's determinisation (at a player node),
        seeded by one draw of ``probability_sampler``."""
        return self.resample(player_id, int(probability_sampler() * (1 << 53)))

    def resample(self, player: int, seed: int) -> SpielState:
        """The core's determinisation for ``player`` from ``seed``, as a new state (with an empty history).
        Only a player node or a terminal state can be resampled."""
        if self._deal is not None or self._pending is not None:
            raise ValueError("resample: only a player node or a terminal state can be resampled")
        return self._setup.game.state_of(self._core.determinise(player, seed))

    def __str__(self) -> str:
        game = self._setup.game
        if self._deal is not None:
            return f"deal {self._deal_text(None)}"
        text = json.dumps(render(game.ruleset, self._core.to_data(), None), separators=(",", ":"))
        if self._pending is not None:
            p = self._pending
            text += f" | pending {p.kind} after {p.code} {p.chosen}"
        return text

    # -- the core behind it ----------------------------------------------------------

    @property
    def chance_kind(self) -> str | None:
        """What the chance node decides: ``"deal"`` (a card dealt or turned up, or a god token laid),
        ``"draw"`` (a card off the deck: a draw, a take's refill, the setup's top-up), ``"face-up"`` (a card a
        reshuffle turns up) or ``"pele"`` (the card PELE takes from the next player robbed); None elsewhere."""
        if self._deal is not None:
            return _DEAL
        return None if self._pending is None else self._pending.kind

    @property
    def core(self) -> CoreState:
        """A copy of the core state (at a chance node: the state so far)."""
        return self._core.copy()

    # -- information states ------------------------------------------------------------

    def _key(self, player: int) -> str:
        key = self._keys.get(player)
        if key is None:
            key = self._keys[player] = self._make_key(player)
        return key

    def _make_key(self, player: int) -> str:
        game = self._setup.game
        if not 0 <= player < game.players:
            raise ValueError(f"player {player}: not a player of this game")
        if self._deal is not None:
            return f"deal {self._deal_text(player)}"
        core, tail = self._core, ""
        if self._pending is not None:
            core = self._pending.before
            p: _Pending | None = self._pending
            while p is not None:
                seen = [c if self._sees(player, p, k) else -1 for k, c in enumerate(p.chosen)]
                # R3: a card set aside stays hidden from the others until every card is (then it lies face-up).
                move = p.code if player == core.to_move or A.kind_of(p.code) != A.REVEAL else A.REVEAL << 16
                tail = f"|{p.kind} {move} {seen}" + tail
                p = p.earlier
        view = render(game.ruleset, core.to_data(), player)
        return json.dumps(view, separators=(",", ":")) + tail

    @staticmethod
    def _sees(player: int, p: _Pending, k: int) -> bool:
        """Whether ``player`` sees the ``k``-th outcome of the pending chance nodes ``p``."""
        mover = p.before.to_move
        if p.kind == _PELE:
            return player in (mover, p.victims[k])  # the robbed player and PELE's user (R14.7)
        if p.kind == _DRAW and A.kind_of(p.code) == A.DRAW:
            return player == mover  # R5: a blind draw; a take's refill and the setup's top-up lie face-up
        return True

    def _deal_text(self, player: int | None) -> str:
        """The deal so far, as ``player`` sees it (None: everything)."""
        assert self._deal is not None
        seen = []
        for k, x in enumerate(self._deal):
            slot = self._deal_slot(k)
            seen.append(x if player is None or slot[0] != "hand" or slot[1] == player else -1)
        return str(seen)

    # -- the deal --------------------------------------------------------------------

    def _deal_slot(self, k: int) -> tuple[str, int]:
        """What the ``k``-th outcome of the deal decides: ("hand", seat), ("face-up", i) or ("token", island)."""
        start = self._setup.game.start
        for seat, hand in enumerate(start.hands):
            if k < sum(hand):
                return ("hand", seat)
            k -= sum(hand)
        if k < len(start.face_up):
            return ("face-up", k)
        return ("token", k - len(start.face_up))

    @staticmethod
    def _deal_sequence(d: StateData) -> list[int]:
        """The cards of a dealt state in the order the deal's chance nodes decide them: the hands seat by
        seat (island order within a hand), the face-up row, then the deck (cards no node decides yet)."""
        cards = [x for hand in d.hands for x, n in enumerate(hand) for _ in range(n)]
        return cards + list(d.face_up) + list(d.deck)

    def _chance_counts(self) -> list[int]:
        """How many cards (or tokens) of each kind the pending chance node may turn up, computed once per node."""
        if self._counts is None:
            self._counts = self._count_outcomes()
        return self._counts

    def _count_outcomes(self) -> list[int]:
        game = self._setup.game
        if self._deal is not None:
            k = len(self._deal)
            n_cards = self._setup.game.deal_cards
            if k < n_cards:
                left = list(game.supply)
                for x in self._deal:
                    left[x] -= 1
                return left
            tokens = list(game.ruleset.token_counts)
            for token in self._deal[n_cards:]:
                tokens[token] -= 1
            return tokens
        p = self._pending
        assert p is not None
        if p.kind == _DRAW:
            return self._core.deck_counts(len(p.chosen))
        if p.kind == _FACE_UP:
            d = self._core.to_data()
            return _counts((list(d.face_up) + list(d.deck))[len(p.chosen):], game.board.n_islands)
        return list(self._core.to_data().hands[p.victims[len(p.chosen)]])  # _PELE

    def _deal_card(self, outcome: int) -> None:
        assert self._deal is not None
        self._check_outcome(outcome)
        self._deal.append(outcome)
        n_cards = self._setup.game.deal_cards
        game = self._setup.game
        if len(self._deal) < n_cards + game.deal_tokens:
            return
        d = game.start.copy()
        seq = _arrange(self._deal_sequence(d), self._deal[:n_cards])
        at = 0
        for seat, hand in enumerate(d.hands):
            size = sum(hand)
            d.hands[seat] = _counts(seq[at : at + size], game.board.n_islands)
            at += size
        if game.deal_tokens:
            d.god_on = _arrange(list(d.god_on), self._deal[n_cards:])
        d.face_up = seq[at : at + len(d.face_up)]
        d.deck = seq[at + len(d.face_up) :]
        self._core = CoreState.from_data(game.core_board, d)
        self._deal = None

    # -- moves and the chance nodes they open ------------------------------------------------

    def _move(self, code: int) -> None:
        core = self._core
        after = core.copy()
        after.apply(code)
        if A.kind_of(code) == A.PELE:
            victims = after.to_data().pele_gifts  # the core's own list of the players PELE robbed (R14.7)
            if victims:
                self._pending = _Pending(_PELE, code, len(victims), core.copy(), victims=list(victims))
                return
        reshuffled = after.chance_stream != core.chance_stream
        drawn = core.deck_size if reshuffled else core.deck_size - after.deck_size
        if drawn > 0:
            self._pending = _Pending(_DRAW, code, drawn, core.copy(), reshuffled=reshuffled)
            return
        self._core = after
        if reshuffled:
            self._open_face_up(code, core)

    def _decide(self, outcome: int) -> None:
        p = self._pending
        assert p is not None
        self._check_outcome(outcome)
        game = self._setup.game
        if p.kind == _DRAW:
            self._core.put_on_deck(len(p.chosen), outcome)
        elif p.kind == _FACE_UP:
            d = self._core.to_data()
            seq = _arrange(list(d.face_up) + list(d.deck), [*p.chosen, outcome], start=len(p.chosen))
            d.face_up, d.deck = seq[: len(d.face_up)], seq[len(d.face_up) :]
            # What each player saw go into the deck, less the row as it now lies (docs/engine.md "What a
            # reshuffle reveals"): the core took off the cards its own shuffle turned up.
            d.pile, d.pile_unseen = reshuffle_knowledge(p.before.to_data())
            for card in d.face_up:
                seen_leave_deck(d, range(d.players), card)
            self._core = CoreState.from_data(game.core_board, d)
        p.chosen.append(outcome)
        if len(p.chosen) < p.need:
            return
        self._pending = None
        if p.kind == _DRAW:
            self._core.apply(p.code)
            if p.reshuffled:
                self._open_face_up(p.code, p.before, earlier=p)
        elif p.kind == _PELE:
            d = self._core.to_data()
            stream = stream_for_pele_takes(d, dict(zip(p.victims, p.chosen, strict=True)))
            if stream is None:  # pragma: no cover - a stream for hands of at most 5 is found in ~125 tries
                raise RuntimeError("no chance stream draws PELE's takes")
            d.rng = stream
            self._core = CoreState.from_data(game.core_board, d)
            self._core.apply(p.code)

    def _open_face_up(self, code: int, before: CoreState, earlier: _Pending | None = None) -> None:
        """After a reshuffle: one chance node per card it turned face-up, when it turned up any and the game
        goes on (Kahuna's R16.8 can end it in the same move)."""
        if self._core.is_over:
            return
        n = len(self._core.to_data().face_up)
        if n:
            self._pending = _Pending(_FACE_UP, code, n, before, earlier=earlier)

    def _check_outcome(self, outcome: int) -> None:
        counts = self._chance_counts()
        if not 0 <= outcome < len(counts) or counts[outcome] == 0:
            raise ValueError(f"chance outcome {outcome}: not possible here (the outcomes are "
                             f"{[x for x, n in enumerate(counts) if n]})")


def core_returns(core: CoreState, players: int) -> list[float]:
    """The returns of a finished core state (R12): 1 for the winner (with 2 players R15.5's; a Kahuna
    game may have none), 0 for the others."""
    winner = core.winner
    return [1.0 if seat == winner else 0.0 for seat in range(players)]


def _counts(cards: list[int], n: int) -> list[int]:
    out = [0] * n
    for x in cards:
        out[x] += 1
    return out


def _arrange(seq: list[int], chosen: list[int], start: int = 0) -> list[int]:
    """``seq`` with ``chosen[i]`` at position ``i`` (for ``i >= start``), each brought there by exchange with
    the first equal item at or after ``i``; positions before ``start`` already hold theirs."""
    out = list(seq)
    for i in range(start, len(chosen)):
        j = out.index(chosen[i], i)
        out[i], out[j] = out[j], out[i]
    return out


def family_game_type(g: GameType) -> pyspiel.GameType:
    """OpenSpiel's description of the family's game ``g`` (``kanaloa.openspiel.spiel_game_type``): explicit
    chance, imperfect information, returns that add up to 1 unless the game may end without a winner (R16.7)."""
    general = g.load().may_end_without_winner
    return spiel_game_type(g, chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
                           information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
                           utility=pyspiel.GameType.Utility.GENERAL_SUM if general
                           else pyspiel.GameType.Utility.CONSTANT_SUM)


for _g in served_games():  # python_kanaloa, python_kahuna
    register_game(_g, SpielGame, family_game_type(_g))
