"""``StateData``: the plain-Python picture of a complete game state.

It is the exchange format between the layers: the compiled core imports and
exports it (``kanaloa_core.CoreState.from_data`` / ``to_data``), the reference
implementation works on it directly, and positions (JSON) are read into it and
written from it.  Two equal ``StateData`` values are the same game state; the
differential tests compare them field by field.

Seats are numbered from 0 in play order.  Colors are numbered apart from
seats: with 3 or 4 players seat ``s`` plays the one color ``s``; with 2
players (R15) there are 4 colors and seat ``s`` plays colors ``s`` and
``s + 2`` (``colors_of_seat``), so color ``c`` belongs to seat
``seat_of_color(c, players) = c % players``.  Islands and links are board
indices.  Card multisets are lists of counts per island (length
``board.n_islands``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

ROUND_SETUP, ROUND_1, ROUND_2, ROUND_FINAL, ROUND_OVER = 0, 1, 2, 3, 4
ROUND_3 = 5  # Kahuna (R16.6): the third deck, after the second interim scoring
ROUND_NAMES = {ROUND_SETUP: 0, ROUND_1: 1, ROUND_2: 2, ROUND_3: 3, ROUND_FINAL: "final", ROUND_OVER: "over"}

GAME_KANALOA, GAME_KAHUNA = 0, 1
GAMES = {"kanaloa": GAME_KANALOA, "kahuna": GAME_KAHUNA}
GAME_NAMES = {v: k for k, v in GAMES.items()}

PRESET_YUCATA, PRESET_TABLETOP = 0, 1
PRESETS = {"yucata": PRESET_YUCATA, "tabletop": PRESET_TABLETOP}
PRESET_NAMES = {v: k for k, v in PRESETS.items()}
TABLETOP_BRIDGES = 20  # R13: bridges per color in the tabletop preset

REASON_NONE, REASON_POINTS, REASON_ELEVEN, REASON_NO_BRIDGES = 0, 1, 2, 3
REASON_NAMES = {REASON_POINTS: "points", REASON_ELEVEN: "eleven islands", REASON_NO_BRIDGES: "no bridges"}

TWO_PLAYERS = 2  # R15: each of the two players plays two colors
COLORS_PER_SEAT_2P = 2
HAND_LIMIT = 4  # R4: at most 4 cards when leaving the play phase
FACE_UP = 4  # R3, R5, R9: face-up cards beside the deck
DEAL = 4  # R3: cards dealt to each player
WIN_ISLANDS = 11  # R8
NO_CARD = -1
NO_OWNER = -1
NO_COLOR = -1

# Kahuna (R16): 2 players with one color each, 3 cards dealt, 3 face-up, hands of at most 5,
# 25 bridges per player, interim scorings worth 1 and 2 points.
KAHUNA_PLAYERS = 2
KAHUNA_DEAL = 3
KAHUNA_FACE_UP = 3
KAHUNA_HAND = 5
KAHUNA_BRIDGES = 25
KAHUNA_INTERIM_POINTS = (1, 2)  # the first and the second interim scoring (R16.6)

# Might of the Gods (R14): token kinds, and how many of each lie on the board at the deal.
KANE, KANALOA, KU, PELE, LONO = range(5)
GOD_NAMES = ("KANE", "KANALOA", "KU", "PELE", "LONO")
GOD_TOKENS = (8, 2, 2, 2, 2)  # R14.1: 16 tokens, one per island
GODS_ISLANDS = 16
NO_GOD = -1


def n_colors(players: int, game: int = GAME_KANALOA) -> int:
    """How many colors a game of ``players`` plays: 4 with two players of Kanaloa (R15.1), else one per
    seat (Kahuna's two players play one color each, R16.1)."""
    return 2 * players if players == TWO_PLAYERS and game == GAME_KANALOA else players


def seat_of_color(color: int, players: int) -> int:
    """The seat that plays ``color``."""
    return color % players


def colors_of_seat(seat: int, players: int, game: int = GAME_KANALOA) -> tuple[int, ...]:
    """The colors ``seat`` plays, its first color first: ``(s,)``, or ``(s, s + 2)`` with two players
    of Kanaloa (R15.1)."""
    return (seat, seat + players) if players == TWO_PLAYERS and game == GAME_KANALOA else (seat,)


@dataclass
class StateData:
    """A complete game state; every card's place is known.

    ``bridges[k]`` is the color owning link ``k`` or ``NO_OWNER``, and
    ``scores[c]`` the points of color ``c`` (one entry per color, see the
    module docstring); everything else is per seat.  ``turn_color`` is the
    color the player to move builds with this turn, chosen by the turn's
    first place or swap (R15.3), or ``NO_COLOR``; it is only ever set with
    two players.
    ``hands[s]``, ``public[s]`` and ``hidden_by[s]`` are counts per island:
    the hand, the part of it every player knows (R5 face-up takes), and the
    face-down discards seat ``s`` made since the last reshuffle.
    ``pile[o]`` (counts per island) and ``pile_unseen[o]`` are what player
    ``o`` knows of the deck after a reshuffle (R9, R16.6): the cards it saw
    go into the deck then and has not seen come out of it since, and how
    many cards of that reshuffle it could not see (the others' face-down
    discards), less those it has since seen come out (docs/engine.md "What
    a reshuffle reveals").  Both are empty while nobody knows anything of
    the kind (before the first reshuffle).
    ``deck`` lists islands top first; ``face_up`` and ``discard_open`` keep
    their order.  ``setup_chosen[s]`` is the island seat ``s`` set aside in
    R3, or ``NO_CARD``.  ``rng`` is the SplitMix64 state for chance events.
    ``ranking`` (seats, best first), ``winner`` (a seat) and ``reason`` are
    set when the game is over.

    ``game`` is ``GAME_KANALOA`` or ``GAME_KAHUNA`` (R16; docs/engine.md
    "Kahuna"); ``skipped`` is Kahuna's record that the last turn ended
    without a draw (R16.5), always False in Kanaloa.

    Might of the Gods (R14, ``gods``; docs/engine.md "Might of the Gods"):
    ``god_on`` (per island, a token kind or ``NO_GOD``), ``gods_owned``
    (per seat, unused tokens per kind), ``known`` (per observer and seat,
    what the observer knows of the hand), and what a token use leaves
    pending: ``ku_target``, ``pele_gifts``, ``lono_draw``, ``over_limit``.
    Without the variant these are empty, -1 or False.
    """

    n_islands: int
    players: int
    preset: int = PRESET_YUCATA
    round: int = ROUND_SETUP
    to_move: int = 0
    bridges: list[int] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)
    public: list[list[int]] = field(default_factory=list)
    hidden_by: list[list[int]] = field(default_factory=list)
    pile: list[list[int]] = field(default_factory=list)
    pile_unseen: list[int] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)
    face_up: list[int] = field(default_factory=list)
    discard_open: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    played: int = 0
    discarded: bool = False
    turn_color: int = NO_COLOR
    remove_on: list[int] = field(default_factory=list)
    final_done: list[int] = field(default_factory=list)
    final_passed: list[int] = field(default_factory=list)
    setup_chosen: list[int] = field(default_factory=list)
    ranking: list[int] = field(default_factory=list)
    winner: int = -1
    reason: int = REASON_NONE
    rng: int = 0
    game: int = GAME_KANALOA
    skipped: bool = False
    gods: bool = False
    god_on: list[int] = field(default_factory=list)
    gods_owned: list[list[int]] = field(default_factory=list)
    known: list[list[list[int]]] = field(default_factory=list)
    ku_target: int = -1
    pele_gifts: list[int] = field(default_factory=list)
    lono_draw: bool = False
    over_limit: bool = False

    @classmethod
    def empty(cls, n_islands: int, n_links: int, players: int, preset: int = PRESET_YUCATA,
              game: int = GAME_KANALOA) -> StateData:
        """A state with no bridge and no card anywhere (the caller fills it in)."""
        z = lambda: [0] * n_islands
        return cls(
            n_islands=n_islands,
            players=players,
            preset=preset,
            game=game,
            bridges=[NO_OWNER] * n_links,
            hands=[z() for _ in range(players)],
            public=[z() for _ in range(players)],
            hidden_by=[z() for _ in range(players)],
            scores=[0] * n_colors(players, game),
            setup_chosen=[NO_CARD] * players,
        )

    def copy(self) -> StateData:
        """A fresh, independent copy (cheaper than a deep copy: every field is a number or a list of them)."""
        return StateData(
            n_islands=self.n_islands,
            players=self.players,
            preset=self.preset,
            round=self.round,
            to_move=self.to_move,
            bridges=list(self.bridges),
            hands=[list(h) for h in self.hands],
            public=[list(p) for p in self.public],
            hidden_by=[list(h) for h in self.hidden_by],
            pile=[list(p) for p in self.pile],
            pile_unseen=list(self.pile_unseen),
            deck=list(self.deck),
            face_up=list(self.face_up),
            discard_open=list(self.discard_open),
            scores=list(self.scores),
            played=self.played,
            discarded=self.discarded,
            turn_color=self.turn_color,
            remove_on=list(self.remove_on),
            final_done=list(self.final_done),
            final_passed=list(self.final_passed),
            setup_chosen=list(self.setup_chosen),
            ranking=list(self.ranking),
            winner=self.winner,
            reason=self.reason,
            rng=self.rng,
            game=self.game,
            skipped=self.skipped,
            gods=self.gods,
            god_on=list(self.god_on),
            gods_owned=[list(o) for o in self.gods_owned],
            known=[[list(row) for row in obs] for obs in self.known],
            ku_target=self.ku_target,
            pele_gifts=list(self.pele_gifts),
            lono_draw=self.lono_draw,
            over_limit=self.over_limit,
        )

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat])

    def hidden_count(self) -> int:
        return sum(sum(h) for h in self.hidden_by)
