"""``Ruleset``: one game of the Kanaloa family with its parameters, checked once, asked by every layer.

A rule set is made once, from the parameters of a game (``load_game`` in
``kanaloa.rules.registry``, or ``make_ruleset`` here), and every
combination is checked there, with one message per rule: the player count
(R3, R15, R16.1), the preset (R13, R16.9), the gods (R14.1, R14.5, R16.9),
the board and its cards (R1, R3, R16.2) and the players' colors (R15.1,
R16.1).  After that nothing above the rules asks which game it serves: it
asks the rule set what it needs to know.

- **Seats and colors.**  ``colors`` names the colors by index, as
  ``kanaloa.rules.state`` numbers them: the players' first colors in seat
  order, then (two players of Kanaloa, R15.1) their second colors.
  ``seat_names`` are the players, each named by its first color;
  ``colors_of(seat)`` and ``seat_of(color)`` map between them;
  ``color_order`` is the order of a scores table (each player's colors
  together).  ``palette`` is every color the game may name.
- **The deal and the table.**  ``deal_size``, ``face_up_size``,
  ``hand_limit`` (R4: most cards when leaving the play phase),
  ``hand_most`` (most cards a hand may hold to draw: R4's 5, Kahuna's 5),
  ``bridges_per_color`` (None when unlimited, R13, R16.1).
- **What the rules have.**  ``rounds`` (the round codes a position may be in)
  and their names, ``reasons`` (how a game may end), ``has_setup`` (R3),
  ``has_pass`` (R10), ``has_swap`` (R4), ``removal_pays`` (R16.3),
  ``owes_removals`` (R7), ``pairs`` (R15.1), ``may_skip_draw`` (R16.5),
  ``may_end_without_winner`` (R16.7), ``tokens`` (R14.1),
  ``scores_islands`` (R16.6: a scoring counts islands, not links).  Where
  a rule set lacks something another one has, ``lacks(feature)`` says why,
  in the words a message quotes.
- **Rules to cite.**  ``rule_of(event)`` names the rule id of an event
  (``"reshuffle"``, ``"scoring"``, ``"final"``, ``"deal"``...), for messages
  and pictures.
- **Documents.**  ``document_game`` (the value of a position's ``game`` field,
  None where it is left out), ``rules_document`` (its ``rules`` field),
  ``turn_keys``, ``final_round_keys``.
- **Standings.**  ``standing(scores, seat)``: what ranks a seat (R12, R15.5).
- **For the soak.**  ``crowded(data, stream)`` (a crowded board, where the
  rare endings come up) and ``state_checks(state)`` (an engine state's
  answers against its own data), as every game's rule set offers them.
- **For people and programs.**  ``title``, ``describe()``, ``params()`` (the
  parameters that make this rule set again) and ``to_json()`` (for the web
  page, which so hard-codes no rule number).

``ParameterError`` (an ``OptionError``) names the parameter at fault, the
value and why; a caller that calls the parameter something else (a
command-line option, a field of a document) words it its own way from
``parameter`` and ``why``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import OptionError, brief
from .board import Board, load_board
from .state import (
    DEAL,
    FACE_UP,
    GAME_KAHUNA,
    GAME_KANALOA,
    GOD_NAMES,
    GOD_TOKENS,
    GODS_ISLANDS,
    HAND_LIMIT,
    KAHUNA_BRIDGES,
    KAHUNA_DEAL,
    KAHUNA_FACE_UP,
    KAHUNA_HAND,
    KAHUNA_PLAYERS,
    PRESET_NAMES,
    PRESETS,
    REASON_ELEVEN,
    REASON_NAMES,
    REASON_NO_BRIDGES,
    REASON_POINTS,
    ROUND_1,
    ROUND_2,
    ROUND_3,
    ROUND_FINAL,
    ROUND_NAMES,
    ROUND_OVER,
    ROUND_SETUP,
    TABLETOP_BRIDGES,
    TWO_PLAYERS,
    WIN_ISLANDS,
    StateData,
    colors_of_seat,
    n_colors,
)

if TYPE_CHECKING:
    from .engine import Engine, EngineState
    from .registry import GameType
    from .rng import SplitMix64

KANALOA_COLORS = ("red", "green", "blue", "yellow")  # the colors of Kanaloa, in default seat order
KAHUNA_COLORS = ("white", "black")  # R16.1: Kahuna's two colors, in default seat order
DEFAULT_PAIRS = (("red", "blue"), ("green", "yellow"))  # R15.1: the two players' colors by default
JOKER_NAME = GOD_NAMES[1]  # R14.5: KANALOA, the token a build may name as a card
HAND_MOST = HAND_LIMIT + 1  # R4, R5: a hand of 5 must play or discard before it draws
SEED_LIMIT = 1 << 64  # seeds are 64-bit (SplitMix64)
CROWD_OWN, CROWD_FREE = 0.45, 0.25  # a crowded board's links: the share given to color 0, and left free

KANALOA_GAME, KAHUNA_GAME = "kanaloa", "kahuna"  # the games of the family, as the registry names them
_CODE = {KANALOA_GAME: GAME_KANALOA, KAHUNA_GAME: GAME_KAHUNA}
_TITLE = {KANALOA_GAME: "Kanaloa", KAHUNA_GAME: "Kahuna"}
_ROUNDS = {KANALOA_GAME: (ROUND_SETUP, ROUND_1, ROUND_2, ROUND_FINAL, ROUND_OVER),
           KAHUNA_GAME: (ROUND_1, ROUND_2, ROUND_3, ROUND_FINAL, ROUND_OVER)}
_REASONS = {KANALOA_GAME: (REASON_POINTS, REASON_ELEVEN), KAHUNA_GAME: (REASON_POINTS, REASON_NO_BRIDGES)}
_TURN_KEYS = {KANALOA_GAME: ("played", "discarded", "remove_on"), KAHUNA_GAME: ("played", "discarded", "skipped_draw")}
GOD_TURN_KEYS = ("ku_target", "pele_gifts", "lono_draw", "over_limit")  # R14.6-R14.9: what a token use leaves
_RULE_OF_TURN_KEY = {"ku_target": "R14.6", "pele_gifts": "R14.7", "lono_draw": "R14.8", "over_limit": "R14.9"}
# The rule ids of the events messages and pictures cite, per game.
_RULES = {
    KANALOA_GAME: {"deal": "R3", "reshuffle": "R9", "scoring": "R11", "final scoring": "R11", "final": "R10",
                   "winner": "R12", "hand": "R4", "stock": "R13", "control": "R2", "draw": "R5", "eleven islands": "R8",
                   "points": "R12"},
    KAHUNA_GAME: {"deal": "R16.2", "reshuffle": "R16.6", "scoring": "R16.6", "final scoring": "R16.7",
                  "final": "R16.7", "winner": "R16.7", "hand": "R16.5", "stock": "R16.1", "control": "R16.4",
                  "draw": "R16.5", "no bridges": "R16.8", "points": "R16.7"},
}
_TOKEN_RULES = {"tokens": "R14.4", "over_limit": "R14.9", "claim": "R14.2"}  # with the gods (R14)
# How a game ended, in words for people, by reason (``result.reason``).
_ENDED = {"points": "on points", "eleven islands": "by eleven islands",
          "no bridges": "by a player left without bridges"}
# What one rule set lacks and another has: the feature, and why it is absent, for messages.
_LACKS_IN_KAHUNA = {
    "setup": "Kahuna has no setup: 3 cards are dealt to each player and 3 turned face-up (R16.2)",
    "round:0": "Kahuna has no setup round: the cards are dealt and play begins in round 1 (R16.2)",
    "move:reveal": "Kahuna has no setup choice: 3 cards are dealt to each player and 3 turned face-up (R16.2)",
    "move:pass": "Kahuna has no pass: each player takes one final turn, in turn, and ends it with 'end' (R16.7)",
    "final_round.passed": "Kahuna has no pass: each player takes one final turn, in turn (R16.7)",
    "move:swap": "Kahuna has no swap (R16.3)",
    "tokens": "Kahuna has no god tokens: Might of the Gods is a variant of Kanaloa (R14, R16.9)",
    "move:tokens": "Kahuna has no god tokens: Might of the Gods is a variant of Kanaloa (R14, R16.9)",
    "turn.remove_on": ("Kahuna owes no removal after a build: R7 does not apply (R16.9); a removal there is a move "
                       "paying two cards (R16.3)"),
    "turn.color": ("in Kahuna each player builds with its one color (R16.1); 'turn.color' is the color of a turn "
                   "in Kanaloa's 2-player game (R15.3)"),
    "colors": ("in Kahuna each player plays one color, white or black (R16.1); only a 2-player game of Kanaloa "
               "gives each player two colors (R15.1)"),
    "reason:eleven islands": "Kahuna has no immediate win (R8 does not apply, R16.9)",
    "rules.preset": "Kahuna has no presets (R13 does not apply, R16.9); each player has 25 bridges (R16.1)",
    "rules.gods": "Might of the Gods is a variant of Kanaloa, not of Kahuna (R14, R16.9)",
    "tactics": ("the tactical suite holds Kanaloa's puzzles: eleven islands (R8), removals (R7) and the last "
                "final turn (R10); Kahuna has none of these rules (R16.9)"),
}
_LACKS_IN_KANALOA = {
    "round:3": "round 3 is Kahuna's (R16.6): a Kahuna position says \"game\": \"kahuna\"",
    "turn.skipped_draw": ("a Kanaloa turn always ends with a draw (R5); only Kahuna skips one (R16.5): a Kahuna "
                          "position says \"game\": \"kahuna\""),
    "reason:no bridges": "only a game of Kahuna ends when a player has no bridge left (R16.8)",
    "no_winner": "a game of Kanaloa always has a winner (R12); only Kahuna may end without one (R16.7)",
    "removal_pays": "a removal paying two cards is Kahuna's, R16.3",
}


class BoardName(str):
    """A board's own name, shown as it is in a message (``board oro: ...``), where a user's text is quoted."""

    def __repr__(self) -> str:
        return str(self)


class ParameterError(OptionError):
    """A parameter of a game cannot be, alone or with the others: ``parameter`` names it, ``why`` says why.

    ``str()`` is ``PARAMETER VALUE: WHY`` (the value left out when there is
    none to show); callers that call the parameter otherwise (``--players``,
    ``rules.preset``) word it from ``parameter``, ``value`` and ``why``.
    """

    def __init__(self, parameter: str, why: str, value: object = None, shown: bool = False) -> None:
        self.parameter = parameter
        self.why = why
        self.value = value
        self.shown = shown  # whether the value belongs in the message
        super().__init__(f"{parameter} {brief(value)}: {why}" if shown else f"{parameter}: {why}")

    def worded(self, label: str, error: type[OptionError] | None = None) -> OptionError:
        """The same error with the parameter called ``label`` (``--preset``, ``rules.preset``)."""
        cls = error or OptionError
        return cls(f"{label}: {self.why}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Parameter:
    """One parameter of a game: its name, what it takes, its default and what it means (``kanaloa games``)."""

    name: str
    takes: str  # for people: "2, 3 or 4", "yucata or tabletop", "true or false", "a board name or file"
    default: str  # for people: "4", "oro", "by the player count"
    help: str
    choices: tuple[str, ...] = ()
    kind: str = "text"  # what a command-line option of it takes: "int", "flag" (true when given) or "text"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "takes": self.takes, "default": self.default, "help": self.help,
                               "kind": self.kind}
        if self.choices:
            out["choices"] = list(self.choices)
        return out


@dataclass(frozen=True)
class Ruleset:
    """One game of the Kanaloa family with its parameters (see the module docstring).

    Build one with ``make_ruleset`` (or ``kanaloa.load_game``), which checks
    every parameter; the fields are then consistent, and everything else is
    derived from them.
    """

    game: str  # "kanaloa" or "kahuna"
    players: int
    preset: str  # "yucata" or "tabletop" (Kahuna: "yucata", it has no presets)
    gods: bool  # Might of the Gods (R14)
    board: Board
    colors: tuple[str, ...]  # the color names by color index
    _n_colors: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_n_colors", n_colors(self.players, _CODE[self.game]))

    # -- identity --------------------------------------------------------------------------

    @property
    def code(self) -> int:
        """The rule set's code in ``StateData.game``."""
        return _CODE[self.game]

    @property
    def preset_code(self) -> int:
        return PRESETS[self.preset]

    @property
    def game_type(self) -> GameType:
        """The registry's entry of this game."""
        from .registry import game_type

        return game_type(self.game)

    @property
    def title(self) -> str:
        """``Kanaloa``, ``Kahuna``."""
        return _TITLE[self.game]

    def describe(self) -> str:
        """One line for people: ``Kanaloa, 4 players, yucata preset, on board oro``."""
        if self.game == KAHUNA_GAME:
            return f"{self.title}, white against black, on board {self.board.name}"
        parts = [self.title, f"{self.players} players" + (" with two colors each" if self.pairs else ""),
                 f"{self.preset} preset"]
        if self.gods:
            parts.append("Might of the Gods")
        return ", ".join(parts) + f", on board {self.board.name}"

    def params(self) -> dict[str, Any]:
        """The parameters that make this rule set again with ``load_game(self.game, **params)``."""
        out: dict[str, Any] = {"players": self.players, "board": self.board.source,
                               "colors": ",".join("+".join(self.color_names_of(s)) for s in range(self.players))}
        if self.game == KANALOA_GAME:
            out["preset"] = self.preset
            out["gods"] = self.gods
        return out

    def record_params(self) -> dict[str, Any]:
        """The parameters a game record (``kanaloa.play.records``) and ``simulate``'s summary name this rule set
        by, as JSON values: the board's name (or file), the players, the preset (``yucata`` in Kahuna, which has
        none) and the gods.  ``load_game(self.game, **record_params())``, the board loaded from its name,
        makes it again with the default colors."""
        return {"board": self.board.source, "players": self.players, "preset": self.preset, "gods": self.gods}

    # -- seats and colors (R15.1, R16.1) ---------------------------------------------------------

    @property
    def n_colors(self) -> int:
        """How many colors are in play: one a seat, or two a seat with two players of Kanaloa (R15.1)."""
        return self._n_colors

    @property
    def pairs(self) -> bool:
        """True when every player plays two colors (R15.1)."""
        return self._n_colors != self.players


    @property
    def seat_names(self) -> tuple[str, ...]:
        """The players in seat order, each named by its first color."""
        return self.colors[: self.players]

    @property
    def palette(self) -> tuple[str, ...]:
        """Every color the game may name, in default seat order."""
        return KAHUNA_COLORS if self.game == KAHUNA_GAME else KANALOA_COLORS

    @property
    def other_palette(self) -> tuple[str, ...]:
        """The colors of the family's other game (named in messages: "white and black are Kahuna's")."""
        return KANALOA_COLORS if self.game == KAHUNA_GAME else KAHUNA_COLORS

    def why_not_color(self, name: object, document: bool = False) -> str | None:
        """Why ``name`` is not a color of this game (naming the family's game whose color it is), or None; with
        ``document``, for a position document, also how a position of that game says so."""
        return _why_not_color(self.game, name, document)

    def colors_of(self, seat: int) -> tuple[int, ...]:
        """The color indexes ``seat`` plays, its first color first."""
        return colors_of_seat(seat, self.players, self.code)

    @property
    def seat_colors(self) -> tuple[str, ...]:
        """The color each seat is drawn in (a chart's lines): its first color."""
        return tuple(self.colors[self.colors_of(seat)[0]] for seat in range(self.players))

    def color_names_of(self, seat: int) -> tuple[str, ...]:
        """The names of the colors ``seat`` plays, its first color first."""
        return tuple(self.colors[c] for c in self.colors_of(seat))

    def seat_of(self, color: int) -> int:
        """The seat that plays color ``color``."""
        return color % self.players

    @property
    def color_order(self) -> list[int]:
        """The color indexes player by player, each player's first color first (the order of ``scores``)."""
        return [c for s in range(self.players) for c in self.colors_of(s)]

    def standing(self, scores: Sequence[int], seat: int) -> tuple[int, ...]:  # R12, R15.5
        """What ranks ``seat``, greater is better: its points, or with two colors each the pair (points of the
        weaker color, points of the other)."""
        if not self.pairs:
            return (scores[seat],)
        weak, strong = sorted(scores[c] for c in self.colors_of(seat))
        return (weak, strong)

    @property
    def score_name(self) -> str:
        """What a seat's score counts, for tables of results: ``points`` (R11, R12; Kahuna R16.6, R16.7)."""
        return "points"

    # -- the deal and the table ------------------------------------------------------------------

    @property
    def deal_size(self) -> int:
        """Cards dealt to each hand (R3; Kahuna R16.2)."""
        return KAHUNA_DEAL if self.game == KAHUNA_GAME else DEAL

    @property
    def face_up_size(self) -> int:
        """Cards face-up beside the deck (R3, R9; Kahuna R16.2, R16.6)."""
        return KAHUNA_FACE_UP if self.game == KAHUNA_GAME else FACE_UP

    @property
    def hand_limit(self) -> int:
        """Most cards a hand may hold when the turn's play ends (R4); Kahuna's most a hand holds (R16.5)."""
        return KAHUNA_HAND if self.game == KAHUNA_GAME else HAND_LIMIT

    @property
    def setup_hand(self) -> int:
        """Cards in a hand when play begins: the deal less the card set aside (R3), or the deal (R16.2)."""
        return self.deal_size - 1 if self.has_setup else self.deal_size

    @property
    def bridges_per_color(self) -> int | None:
        """Bridges each color has: None when unlimited (yucata, R13), 20 (tabletop, R13), 25 (Kahuna, R16.1)."""
        if self.game == KAHUNA_GAME:
            return KAHUNA_BRIDGES
        return TABLETOP_BRIDGES if self.preset == "tabletop" else None

    @property
    def win_islands(self) -> int | None:
        """Islands whose control wins at once (R8), or None where no such win exists (Kahuna, R16.9)."""
        return None if self.game == KAHUNA_GAME else WIN_ISLANDS

    # -- what the rules have ---------------------------------------------------------------------

    @property
    def rounds(self) -> tuple[int, ...]:
        """The round codes a position of this game may be in (``kanaloa.rules.state``)."""
        return _ROUNDS[self.game]

    @property
    def deck_rounds(self) -> tuple[int, ...]:
        """The rounds played with a deck: 1 and 2 (R9), or Kahuna's 1, 2 and 3 (R16.6)."""
        return tuple(r for r in self.rounds if r not in (ROUND_SETUP, ROUND_FINAL, ROUND_OVER))

    @property
    def reshuffled_rounds(self) -> tuple[int, ...]:
        """The rounds whose deck a reshuffle made (R9, R16.6)."""
        return self.deck_rounds[1:]

    @staticmethod
    def round_name(code: int) -> int | str:
        """A round as positions name it: ``0``, ``1``, ``2``, ``3``, ``"final"`` or ``"over"``."""
        name: int | str = ROUND_NAMES[code]  # type: ignore[assignment]
        return name

    def next_scoring_is_final(self, round_code: int) -> bool:
        """Whether the next scoring from round ``round_code`` is the game's final one: from the last round played
        with a deck on (round 2 and the final round, R10, R11; Kahuna's round 3 and final round, R16.7)."""
        return round_code not in (ROUND_SETUP, *self.deck_rounds[:-1])

    def reason_text(self, reason: str) -> str:
        """How a game that ended for ``reason`` ended, for people: ``on points``, ``by eleven islands`` (R8)."""
        return _ENDED.get(reason, f"by {reason}")

    @property
    def no_winner_reason(self) -> str | None:
        """Why a game may end without a winner: its final scoring, on ``points`` (R16.7); None where every game
        has a winner."""
        return REASON_NAMES[REASON_POINTS] if self.may_end_without_winner else None

    @property
    def final_round(self) -> int:
        """The round code of the final round, each player's last turn (R10; Kahuna R16.7)."""
        return ROUND_FINAL

    @property
    def reasons(self) -> tuple[str, ...]:
        """How a game may end, as ``result.reason`` names it (R8, R12; Kahuna R16.7, R16.8)."""
        return tuple(REASON_NAMES[r] for r in _REASONS[self.game])

    @property
    def has_setup(self) -> bool:
        """Whether the game begins with a setup, each player revealing a card (R3)."""
        return ROUND_SETUP in self.rounds

    @property
    def has_pass(self) -> bool:
        """Whether a final turn may be passed (R10); Kahuna's may not (R16.7)."""
        return self.game == KANALOA_GAME

    @property
    def has_swap(self) -> bool:
        """Whether a build may swap a bridge (R4); Kahuna removes and places instead (R16.3)."""
        return self.game == KANALOA_GAME

    @property
    def removal_pays(self) -> bool:
        """Whether a removal is a move paying two cards (R16.3), rather than owed after a build (R7)."""
        return self.game == KAHUNA_GAME

    @property
    def owes_removals(self) -> bool:
        """Whether a build may leave removals owed on islands (R7, ``turn.remove_on``)."""
        return self.game == KANALOA_GAME

    @property
    def may_skip_draw(self) -> bool:
        """Whether a turn may end without a draw (R16.5, ``turn.skipped_draw``)."""
        return self.game == KAHUNA_GAME

    @property
    def may_end_without_winner(self) -> bool:
        """Whether a game may end with no winner (R16.7)."""
        return self.game == KAHUNA_GAME

    @property
    def shares_victory(self) -> bool:
        """Whether several players may share the victory: never in the family, every game has one winner or
        none (R12, R16.7)."""
        return False

    @property
    def scores_islands(self) -> bool:
        """Whether a scoring counts the islands each controls (R16.6, R16.7) rather than links (R11)."""
        return self.game == KAHUNA_GAME

    @property
    def tokens(self) -> tuple[str, ...]:
        """The god tokens' kinds, ``KANE`` ... ``LONO`` (R14.1); empty without the gods."""
        return GOD_NAMES if self.gods else ()

    @property
    def token_counts(self) -> tuple[int, ...]:
        """How many tokens of each kind the game has, in the order of ``tokens`` (R14.1); empty without the gods."""
        return GOD_TOKENS if self.gods else ()

    @property
    def joker(self) -> str | None:
        """The token a build may name as a card, ``KANALOA_GAME`` (R14.5), or None without the gods."""
        return JOKER_NAME if self.gods else None

    def rule_of(self, event: str) -> str:
        """The rule id of ``event`` in this game: ``deal``, ``reshuffle``, ``scoring``, ``final``, ``winner``,
        ``hand``, ``stock``, ``control``, ``draw``, a reason the game may end (``reasons``), and with the gods
        ``tokens`` (when a token is used), ``over_limit`` (a hand a token left above the limit), ``claim``."""
        return self.rules_cited()[event]

    def rules_cited(self) -> dict[str, str]:
        """Every event ``rule_of`` names, with its rule id."""
        cited = dict(_RULES[self.game])
        if self.gods:
            cited.update(_TOKEN_RULES)
        return cited

    def how_the_winner_is_decided(self) -> str:
        """For people: how the final scoring's winner is found (R12, R15.5; Kahuna's tie-breaks, R16.7)."""
        if self.game == KAHUNA_GAME:
            return "most points, then the higher final scoring, then with no points more bridges on the board (R16.7)"
        if self.pairs:
            return "the greater pair of points, the weaker color's first, then the earlier final turn (R15.5, R12)"
        return "most points, then the earlier final turn (R12)"

    @property
    def token_rounds(self) -> tuple[int, ...]:
        """The rounds in which a god token may be used: round 2 only (R14.4); none without the gods."""
        return (ROUND_2,) if self.gods else ()

    @property
    def face_up_at_deal(self) -> int:
        """Cards turned face-up when the cards are dealt: none before a setup (the row is filled after it, R3),
        else the face-up row (R16.2)."""
        return 0 if self.has_setup else self.face_up_size

    def lacks(self, feature: str) -> str | None:
        """Why this game has no ``feature`` another game of the family has, or None when it has it.

        Features: ``setup``, ``round:N`` (a round by its name), ``move:WORD``,
        ``turn.KEY``, ``final_round.passed``, ``colors`` (two colors each),
        ``tokens``, ``reason:NAME``, ``rules.preset``, ``rules.gods``,
        ``no_winner``, ``removal_pays``, ``tactics`` (puzzles of the tactical suite, ``kanaloa tactics``).
        """
        if self.game == KAHUNA_GAME:
            return _LACKS_IN_KAHUNA.get(feature)
        if feature in _LACKS_IN_KANALOA:
            return _LACKS_IN_KANALOA[feature]
        players = self.players
        if feature == "turn.color" and not self.pairs:
            return (f"only a 2-player game chooses a color each turn (R15.3); with {players} players each plays its "
                    f"one color")
        if feature == "colors" and not self.pairs:
            return (f"only a 2-player game gives each player two colors (R15.1); with {players} players each plays "
                    f"one color")
        if feature == "move:tokens" and not self.gods:
            return "this game is played without the gods"
        god_key = feature.startswith("turn.") and feature[5:] in GOD_TURN_KEYS
        if (feature == "tokens" or god_key) and not self.gods:
            key = feature[5:]
            rule = f" ({_RULE_OF_TURN_KEY[key]})" if key in _RULE_OF_TURN_KEY else " (R14)"
            what = "god tokens" if feature == "tokens" else "a token's action pending"
            return f"only a game of Might of the Gods has {what}{rule}: its rules say \"gods\": true"
        return None

    # -- documents (kanaloa-position/1) ------------------------------------------------------------

    @property
    def document_game(self) -> str | None:
        """A position's ``game`` field: written for Kahuna, left out for Kanaloa (its default)."""
        return None if self.game == KANALOA_GAME else self.game

    def rules_document(self) -> dict[str, Any] | None:
        """A position's ``rules`` field, or None where the game has no rule options (Kahuna, R16.9)."""
        if self.game == KAHUNA_GAME:
            return None
        doc: dict[str, Any] = {"preset": self.preset}
        if self.gods:
            doc["gods"] = True
        return doc

    @property
    def turn_keys(self) -> tuple[str, ...]:
        """The keys of a position's ``turn`` field."""
        keys: tuple[str, ...] = _TURN_KEYS[self.game]
        if self.pairs:
            keys += ("color",)
        if self.gods:
            keys += GOD_TURN_KEYS
        return keys

    @property
    def final_round_keys(self) -> tuple[str, ...]:
        """The keys of a position's ``final_round`` field (R10; nobody passes in Kahuna, R16.7)."""
        return ("done", "passed") if self.has_pass else ("done",)

    # -- the engines --------------------------------------------------------------------------------

    def empty_state(self) -> StateData:
        """A state of this game with no bridge and no card anywhere (the caller fills it in)."""
        b = self.board
        return StateData.empty(b.n_islands, b.n_links, self.players, self.preset_code, self.code)

    def deal(self, engine: Engine, seed: int) -> EngineState:
        """A new game dealt from ``seed`` on ``engine`` (``Engine.deal``)."""
        return engine.deal(self, seed)

    def crowded(self, data: StateData, stream: SplitMix64) -> StateData:
        """A crowded board for the soak (``kanaloa soak``): a copy of ``data`` (a dealt state of this rule set)
        with every link given a bridge at random from ``stream``, where eleven islands (R8), removals (R7) and
        an empty stock (R13) come up far more often than in random play.

        Each link goes to color 0 (a share ``CROWD_OWN``), stays free (``CROWD_FREE``), or goes to another
        color (any of the four with two players of Kanaloa), none past the bridges a color has (R13, R16.1);
        the cards are not touched.
        """
        out = data.copy()
        cap = self.bridges_per_color or len(out.bridges)
        held = [0] * self.n_colors
        for k in range(len(out.bridges)):
            x = stream.next() / 2.0**64
            if x < CROWD_OWN:
                owner = 0
            elif x < CROWD_OWN + CROWD_FREE:
                owner = -1
            else:
                owner = 1 + stream.below(self.n_colors - 1)
            if owner >= 0 and held[owner] >= cap:
                owner = -1
            if owner >= 0:
                held[owner] += 1
            out.bridges[k] = owner
        return out

    def state_checks(self, state: EngineState) -> list[tuple[str, Any, Any]]:
        """What an engine state answers against what its exported data says: ``(name, answer, from the data)``
        for its player to move, round, end, scores, winner and ranking (the soak demands they agree)."""
        data = state.to_data()
        return [("to_move", state.to_move, data.to_move), ("round", state.round, data.round),
                ("is_over", state.is_over, data.round == ROUND_OVER), ("scores", list(state.scores), data.scores),
                ("winner", state.winner, data.winner), ("ranking", list(state.ranking), data.ranking)]

    # -- for the web page ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """What a page needs to know of the game to draw and edit it, no rule number hard-coded there."""
        return {
            "game": self.game,
            "title": self.title,
            "description": self.describe(),
            "players": list(self.seat_names),
            "colors": {name: list(self.color_names_of(s)) for s, name in enumerate(self.seat_names)},
            "palette": list(self.palette),
            "preset": self.preset if self.game == KANALOA_GAME else None,
            "gods": self.gods,
            "board": self.board.source,
            "deal": self.deal_size,
            "setup_hand": self.setup_hand,
            "face_up": self.face_up_size,
            "hand_limit": self.hand_limit,
            "bridges": self.bridges_per_color,
            "win_islands": self.win_islands,
            "has_setup": self.has_setup,
            "has_pass": self.has_pass,
            "has_swap": self.has_swap,
            "pairs": self.pairs,
            "tokens": list(self.tokens),
            "token_rounds": list(self.token_rounds),
            "joker": self.joker,
            "scores_islands": self.scores_islands,
            "may_skip_draw": self.may_skip_draw,
            "removal_pays": self.removal_pays,
            "face_up_at_deal": self.face_up_at_deal,
            "reasons": list(self.reasons),
            "rules": self.rules_cited(),
        }


# -- making a rule set: every combination checked, one message per rule ------------------------------


def make_ruleset(game: str = KANALOA_GAME, *, players: object = None, preset: object = None, gods: object = None,
                 board: object = None, colors: object = None) -> Ruleset:
    """The rule set of ``game`` (``kanaloa`` or ``kahuna``) with these parameters, each checked.

    ``players`` is 4 by default (Kahuna: 2); ``preset`` ``yucata``; ``gods``
    false; ``board`` a built-in name, a file path or a ``Board`` (``oro``, or
    ``kahuna`` for Kahuna); ``colors`` each player's colors in seat order,
    written ``red+blue,green+yellow`` (two players of Kanaloa) or
    ``green,red,blue``, or as a sequence of per-seat sequences (by default the
    palette in order, R15.1's pairs with two players).

    Raises ``ParameterError`` naming the first parameter at fault and the rule,
    and ``BoardError`` for a board that cannot be read.
    """
    if game not in _CODE:
        raise ParameterError("game", f"unknown; choose one of {', '.join(_CODE)}", game, shown=True)
    kahuna = game == KAHUNA_GAME
    # players (R3, R15, R16.1)
    if players is None:
        players = KAHUNA_PLAYERS if kahuna else 4
    if kahuna and (not _is_int(players) or players != KAHUNA_PLAYERS):
        raise ParameterError("players", "Kahuna is for 2 players, white and black (R16.1)", players, shown=True)
    if not _is_int(players) or players not in (2, 3, 4):
        raise ParameterError("players", "the game is for 2, 3 or 4 players", players, shown=True)
    assert isinstance(players, int)
    # preset (R13, R16.9)
    if preset is None:
        preset = "yucata"
    if kahuna and preset != PRESET_NAMES[0]:
        raise ParameterError("preset", _LACKS_IN_KAHUNA["rules.preset"], preset, shown=True)
    if not isinstance(preset, str) or preset not in PRESETS:
        raise ParameterError("preset", f"unknown; choose one of {', '.join(PRESETS)} (R13)", preset, shown=True)
    # gods (R14, R16.9)
    if gods is None:
        gods = False
    if not isinstance(gods, bool):
        raise ParameterError("gods", "must be true (Might of the Gods, R14) or false", gods, shown=True)
    if kahuna and gods:
        raise ParameterError("gods", _LACKS_IN_KAHUNA["rules.gods"])
    # board (R1) and what the game needs of it (R3, R14.1, R14.5, R16.2)
    if board is None:
        board = KAHUNA_GAME if kahuna else "oro"
    if isinstance(board, str):
        bd = load_board(board)
    elif isinstance(board, Board):
        bd = board
    else:
        raise ParameterError("board", "must be a built-in board name or a board file's path", board, shown=True)
    if gods:
        check_gods_board(bd)
    if kahuna:
        need = KAHUNA_PLAYERS * KAHUNA_DEAL + KAHUNA_FACE_UP
        if bd.n_cards < need:
            raise ParameterError("board", f"Kahuna deals {KAHUNA_DEAL} cards to each of 2 players and turns "
                                          f"{KAHUNA_FACE_UP} face-up, {need} cards; the board has {bd.n_cards} (R16.2)",
                                 BoardName(bd.name), shown=True)
    elif players * DEAL > bd.n_cards:
        raise ParameterError("players", f"{players} hands of {DEAL} cards need more than the {bd.n_cards} cards of "
                                        f"board {bd.name} (R3)", players, shown=True)
    names = _color_names(game, players, colors)
    return Ruleset(game, players, preset, gods, bd, names)


def check_gods_board(bd: Board) -> None:  # R14.1, R14.5
    """Might of the Gods lays one token on each of 16 islands, and no island may share the joker's name."""
    if bd.n_islands != GODS_ISLANDS:
        raise ParameterError("board", f"Might of the Gods lays one of its {GODS_ISLANDS} god tokens on each island "
                                      f"(R14.1); the board has {bd.n_islands} islands", BoardName(bd.name), shown=True)
    if bd.find_island(JOKER_NAME) is not None:
        raise ParameterError("board", f"an island is called {JOKER_NAME}, the name of a god token: a build could not "
                                      f"say which it pays (R14.5)", BoardName(bd.name), shown=True)


def default_palette() -> tuple[str, ...]:
    """The colors of the registry's default game (Kanaloa), in default seat order."""
    return KANALOA_COLORS


def palettes() -> tuple[str, ...]:
    """Every color a game of the family may name, each once: the colors ``--viewer`` and move prefixes take."""
    return KANALOA_COLORS + KAHUNA_COLORS


def color_text(per_seat: Sequence[Sequence[str]]) -> str:
    """Colors per seat as the parameter writes them: ``red+blue,green+yellow``."""
    return ",".join("+".join(seat) for seat in per_seat)


def _per_seat(colors: object) -> list[list[str]]:
    """``colors`` as per-seat lists of names: from ``"red+blue,green+yellow"`` or a sequence of sequences."""
    if isinstance(colors, str):
        return [[c.strip().lower() for c in seat.split("+")] for seat in colors.split(",")]
    if isinstance(colors, Sequence) and all(isinstance(s, (list, tuple)) for s in colors):
        return [list(s) for s in colors]
    if isinstance(colors, Sequence) and all(isinstance(s, str) for s in colors):
        return [[s] for s in colors]
    raise ParameterError("colors", "give each player's colors in seat order, e.g. red+blue,green+yellow",
                         colors, shown=True)


def _color_names(game: str, players: int, colors: object) -> tuple[str, ...]:
    """The color names by index (R15.1, R16.1), from each seat's colors; checked."""
    pairs = game == KANALOA_GAME and players == TWO_PLAYERS
    palette = KAHUNA_COLORS if game == KAHUNA_GAME else KANALOA_COLORS
    if colors is None:
        if pairs:
            return (DEFAULT_PAIRS[0][0], DEFAULT_PAIRS[1][0], DEFAULT_PAIRS[0][1], DEFAULT_PAIRS[1][1])
        return palette[:players]
    seats = _per_seat(colors)
    shape = ("write each player's two colors joined by '+', the players by ',': red+blue,green+yellow" if pairs
             else f"name one color per player, in seat order, e.g. {','.join(palette[:players])}")
    width = {len(s) for s in seats}
    if not pairs and any(n > 1 for n in width):
        why = (_LACKS_IN_KAHUNA["colors"] if game == KAHUNA_GAME else
               f"only a 2-player game gives each player two colors (R15.1); with {players} players each plays one "
               f"color")
        raise ParameterError("colors", why)
    if len(seats) != players:
        raise ParameterError("colors", f"{len(seats)} player(s); this game has {players}; {shape}", color_text(seats),
                             shown=True)
    bad = next((s for s in seats if len(s) != (2 if pairs else 1) or not all(s)), None)
    if bad is not None:
        what = "two colors" if pairs else "a color"
        raise ParameterError("colors", f"{brief('+'.join(bad))} is not {what}; {shape}", color_text(seats),
                             shown=True)
    for seat in seats:
        for c in seat:
            not_color = _why_not_color(game, c)
            if not_color is not None:
                raise ParameterError("colors", not_color)
    names = tuple(s[0] for s in seats) + (tuple(s[1] for s in seats) if pairs else ())
    for i, c in enumerate(names):
        if c in names[:i]:
            if pairs:
                places = [j for j, x in enumerate(names) if x == c][:2]
                whose = ("both players' first color" if places[1] < players else
                         " and ".join(f"{names[j % players]}'s {'first' if j < players else 'second'} color"
                                      for j in places))
                raise ParameterError("colors", f"{c} is named twice ({whose}); each color belongs to one player")
            raise ParameterError("colors", f"{c} is named twice; each player plays its own color")
    return names


def _why_not_color(game: str, name: object, document: bool = False) -> str | None:
    """Why ``name`` is no color of ``game`` (R16.1 for the family's other game's colors), or None; with
    ``document``, how a position of the other game says which it is."""
    palette = KAHUNA_COLORS if game == KAHUNA_GAME else KANALOA_COLORS
    if isinstance(name, str) and name in palette:
        return None
    other = KANALOA_COLORS if game == KAHUNA_GAME else KAHUNA_COLORS
    if isinstance(name, str) and name in other:
        other_game = KANALOA_GAME if game == KAHUNA_GAME else KAHUNA_GAME
        listed = f"{', '.join(other[:-1])} and {other[-1]}"
        says = ""
        if document and other_game == KAHUNA_GAME:  # a Kanaloa position leaves its game out
            says = f": a {_TITLE[other_game]} position says \"game\": \"{other_game}\""
        return (f"{brief(name)} is not a color of {_TITLE[game]} ({', '.join(palette)}); {listed} are "
                f"{_TITLE[other_game]}'s{says} (R16.1)")
    return f"{brief(name)} is not a color of {_TITLE[game]} ({', '.join(palette)})" + (
        " (R16.1)" if game == KAHUNA_GAME else "")


def parameters(game: str) -> tuple[Parameter, ...]:
    """The parameters of ``game`` with their defaults, for ``kanaloa games`` and ``--help``."""
    board = Parameter("board", "a built-in board name or a board file's path",
                      KAHUNA_GAME if game == KAHUNA_GAME else "oro", "the islands, links and cards (R1)")
    if game == KAHUNA_GAME:
        return (
            Parameter("players", "2", "2", "Kahuna is for 2 players, white and black (R16.1)", ("2",), "int"),
            board,
            Parameter("colors", "white,black or black,white", "white,black",
                      "the players' colors in seat order; the first moves first (R16.1)"),
        )
    return (
        Parameter("players", "2, 3 or 4", "4", "players (R3); with 2 each plays two colors (R15.1)",
                  ("2", "3", "4"), "int"),
        Parameter("preset", "yucata or tabletop", "yucata",
                  "yucata: unlimited bridges; tabletop: 20 bridges a color (R13)", tuple(PRESETS)),
        Parameter("gods", "true or false", "false",
                  "Might of the Gods: a god token on each of the board's 16 islands (R14)", ("false", "true"),
                  "flag"),
        board,
        Parameter("colors", "COLOR,... or A+B,C+D with 2 players", "red,green,blue,yellow; red+blue,green+yellow",
                  "each player's colors in seat order, the first moving first: one each, e.g. green,red,blue; "
                  "with 2 players two each, its first color first, e.g. red+blue,green+yellow (R15.1)"),
    )


def ruleset_for_state(board: Board, data: StateData, colors: Sequence[str] | None = None) -> Ruleset:
    """The rule set a ``StateData`` plays (its game, players, preset and gods), on ``board``; ``colors`` by
    index, or the game's defaults.  Raises ``ParameterError`` as ``make_ruleset`` does."""
    game = KAHUNA_GAME if data.game == GAME_KAHUNA else KANALOA_GAME
    names: object = None
    if colors is not None:
        rs = make_ruleset(game, players=data.players, board=board)
        names = [[colors[c] for c in rs.colors_of(s)] for s in range(data.players)]
    preset = PRESET_NAMES[data.preset]
    if game == KAHUNA_GAME:
        return make_ruleset(game, players=data.players, board=board, colors=names)
    return make_ruleset(game, players=data.players, preset=preset, gods=bool(data.gods), board=board, colors=names)


def labelled(error: ParameterError, labels: Mapping[str, str], error_type: type[OptionError]) -> OptionError:
    """``error`` worded with the caller's name for its parameter (``labels``, the parameter's own name else)."""
    return error.worded(labels.get(error.parameter, error.parameter), error_type)
