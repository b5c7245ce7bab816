# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled rules core of kanaloa: Kanaloa (R1-R13), two players (R15), Might of the Gods (R14) and
Kahuna (R16), as docs/engine.md pins them down.

A complete game state is one C struct (``CState``); the board's tables are
another (``BoardTables``), owned by a ``CoreBoard`` that every state points to.
Copying a state is a struct copy.  Legal-move generation, applying moves,
random playouts and determinisation are ``noexcept nogil`` C functions over
those structs; the Python classes validate what enters once and trust it after.

Invariants of a ``CState`` (checked by ``from_data``, kept by ``apply``):
- ``bridges[c]`` is the bitboard of the links holding a bridge of color ``c``;
  no link is set in two colors.
- every card of the board is in exactly one place: a hand, a setup choice, a
  face-down discard, the open discards, the face-up row or the deck
  ``deck[deck_top:deck_end]`` (top first).
- ``public_cards[s][x] <= hands[s][x]`` and ``hand_size[s]`` is the sum of
  ``hands[s]``; ``hands[s][x]`` is 0 for every ``x`` past the board's islands
  (``islands_in_hand`` reads 8 islands at a time).

Colors are kept apart from seats (``color_of_seat`` / ``seat_of_color``).
With 3 or 4 players every seat plays one color and both tables are the
identity.  With 2 players (R15) there are 4 colors: seat ``s`` plays colors
``s`` (slot 0) and ``s + 2`` (slot 1); bridges, control, scores and the
immediate win are per color, and a turn builds with one color only, the one
its first place or swap chose (``turn_color``, R15.3).
- ``turn_color`` is ``NO_COLOR`` with 3 or 4 players, and with 2 players
  whenever no card was played this turn.

Might of the Gods (R14, ``gods``) is a variant of Kanaloa over the same
struct: a token on each of the 16 islands (``god_token``), the tokens each
seat owns (``gods_owned``), what each observer knows of each hand
(``known``, R14.10), and what a token use leaves pending (``ku_target``,
``pele_gifts``, ``lono_draw``, ``over_limit``).  Its moves and their effects
are the ``gods_`` functions; claiming a token joins the taking of control
(R6, R14.2), and PELE's takes are drawn from the state's stream (R14.7).
- ``god_token``, ``gods_owned`` and ``known`` are all zero or ``NO_GOD``
  without the variant, and ``known[o][s]`` lies between ``public_cards[s]``
  and ``hands[s]`` for ``o != s``.

Kahuna (R16, ``game == GAME_KAHUNA``) is a second rule set over the same
struct: two seats with one color each (so ``n_colors == n_players`` and the
R15 paths never run), a face-up row of 3 (``face_up_cap``), hands of at most
5, and ``skipped`` recording that the last turn ended without a draw.  Its
move generation and application are the ``kahuna_`` functions; dealing,
paying, discards, takes, draws, reshuffles, control by popcount and
determinisation are shared.

Which rule set a state plays, and every combination of its options, is
checked by ``kanaloa.rules.ruleset`` before a game is dealt; the checks here
guard the module's own entry points.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport free, malloc
from libc.math cimport exp

from kanaloa.rules import actions as _actions
from kanaloa.rules import board as _board
from kanaloa.rules import state as _state
from kanaloa.rules.state import StateData

from kanaloa_bits cimport lowest_bit, popcount  # the bit counts both cores use


# Capacities of the fixed-size arrays; CoreBoard and from_data refuse anything larger.
cpdef enum:
    MAX_ISLANDS = 32
    MAX_LINKS = 64
    MAX_SEATS = 4
    MAX_COLORS = 4
    MAX_CARDS = 192
    MAX_PENDING = 4     # R7 removals waiting; one place or swap adds at most 2
    MAX_ACTIONS = 448   # > 6 per link (3 swaps per color, 2 colors: R15) + 1 per island + 4 takes + draw + scratch

# Playout policies (CoreState.playout, rollout_scores, pick_action).
cpdef enum:
    POLICY_RANDOM = 0       # uniform over the legal moves
    POLICY_HEURISTIC = 1    # the cheap heuristic of move_value, with some randomness

# Game constants; the module checks at import that they agree with kanaloa.rules.state and kanaloa.rules.actions.
cdef enum:
    PLACE = 1
    SWAP = 2
    REMOVE = 3
    DISCARD = 4
    TAKE = 5
    DRAW = 6
    END = 7
    PASS = 8
    REVEAL = 9
    KU = 10                 # R14.6: a = the target seat
    STEAL = 11              # R14.6: a = the island taken
    PELE = 12               # R14.7
    GIVE = 13               # R14.7: a = the island given, b = the receiving seat
    LONO = 14               # R14.8
    LAST_KIND = 14
    JOKER = 64              # R14.5: a place paid with KANALOA (in b)
    SWAP_JA = 3             # R14.5: KANALOA and a card of A
    SWAP_JB = 4             # R14.5: KANALOA and a card of B
    SWAP_JJ = 5             # R14.5: two KANALOA
    SWAP_AA = 0
    SWAP_AB = 1
    SWAP_BB = 2

    ROUND_SETUP = 0
    ROUND_1 = 1
    ROUND_2 = 2
    ROUND_FINAL = 3
    ROUND_OVER = 4
    ROUND_3 = 5             # Kahuna's third deck (R16.6)

    GAME_KANALOA = 0
    GAME_KAHUNA = 1

    PRESET_YUCATA = 0
    PRESET_TABLETOP = 1
    TABLETOP_BRIDGES = 20   # R13

    REASON_NONE = 0
    REASON_POINTS = 1
    REASON_ELEVEN = 2
    REASON_NO_BRIDGES = 3   # Kahuna's early end (R16.8)

    HAND_LIMIT = 4          # R4
    FACE_UP = 4             # R3, R5, R9
    DEAL = 4                # R3
    WIN_ISLANDS = 11        # R8
    NO_CARD = -1
    NO_GOD = -1
    NO_COLOR = -1
    TWO_PLAYERS = 2         # R15: each of two players plays two colors
    SLOT_BIT = 7            # R15: bit of a place's or swap's b naming the color slot
    SLOT_FLAG = 128         # 1 << SLOT_BIT
    ARG_MASK = 127          # b without the slot

    KAHUNA_DEAL = 3         # R16.2
    KAHUNA_FACE_UP = 3      # R16.2, R16.5, R16.6
    KAHUNA_HAND = 5         # R16.5
    KAHUNA_BRIDGES = 25     # R16.1

    GOD_KANE = 0            # R14.1: the token kinds
    GOD_KANALOA = 1
    GOD_KU = 2
    GOD_PELE = 3
    GOD_LONO = 4
    GOD_KINDS = 5
    GODS_ISLANDS = 16       # R14.1: one token per island

# The move stream of game g in random_games is SplitMix64((seed + g) ^ PLAYOUT_SALT), so that it
# does not replay the dealing stream SplitMix64(seed + g).
cdef uint64_t C_PLAYOUT_SALT = 0x5851F42D4C957F2DULL
PLAYOUT_SALT = C_PLAYOUT_SALT

cdef uint64_t MASK64 = 0xFFFFFFFFFFFFFFFFULL


def _check_constants():
    expected = {
        "PLACE": (PLACE, _actions.PLACE), "SWAP": (SWAP, _actions.SWAP), "REMOVE": (REMOVE, _actions.REMOVE),
        "DISCARD": (DISCARD, _actions.DISCARD), "TAKE": (TAKE, _actions.TAKE), "DRAW": (DRAW, _actions.DRAW),
        "END": (END, _actions.END), "PASS": (PASS, _actions.PASS), "REVEAL": (REVEAL, _actions.REVEAL),
        "SWAP_AA": (SWAP_AA, _actions.SWAP_AA), "SWAP_AB": (SWAP_AB, _actions.SWAP_AB),
        "SWAP_BB": (SWAP_BB, _actions.SWAP_BB),
        "ROUND_SETUP": (ROUND_SETUP, _state.ROUND_SETUP), "ROUND_1": (ROUND_1, _state.ROUND_1),
        "ROUND_2": (ROUND_2, _state.ROUND_2), "ROUND_FINAL": (ROUND_FINAL, _state.ROUND_FINAL),
        "ROUND_OVER": (ROUND_OVER, _state.ROUND_OVER), "ROUND_3": (ROUND_3, _state.ROUND_3),
        "GAME_KANALOA": (GAME_KANALOA, _state.GAME_KANALOA), "GAME_KAHUNA": (GAME_KAHUNA, _state.GAME_KAHUNA),
        "REASON_NO_BRIDGES": (REASON_NO_BRIDGES, _state.REASON_NO_BRIDGES),
        "KAHUNA_DEAL": (KAHUNA_DEAL, _state.KAHUNA_DEAL), "KAHUNA_FACE_UP": (KAHUNA_FACE_UP, _state.KAHUNA_FACE_UP),
        "KAHUNA_HAND": (KAHUNA_HAND, _state.KAHUNA_HAND), "KAHUNA_BRIDGES": (KAHUNA_BRIDGES, _state.KAHUNA_BRIDGES),
        "GOD_KANE": (GOD_KANE, _state.KANE), "GOD_KANALOA": (GOD_KANALOA, _state.KANALOA), "GOD_KU": (GOD_KU, _state.KU),
        "GOD_PELE": (GOD_PELE, _state.PELE), "GOD_LONO": (GOD_LONO, _state.LONO),
        "GODS_ISLANDS": (GODS_ISLANDS, _state.GODS_ISLANDS), "NO_GOD": (NO_GOD, _state.NO_GOD),
        "PRESET_YUCATA": (PRESET_YUCATA, _state.PRESET_YUCATA),
        "PRESET_TABLETOP": (PRESET_TABLETOP, _state.PRESET_TABLETOP),
        "TABLETOP_BRIDGES": (TABLETOP_BRIDGES, _state.TABLETOP_BRIDGES),
        "REASON_NONE": (REASON_NONE, _state.REASON_NONE), "REASON_POINTS": (REASON_POINTS, _state.REASON_POINTS),
        "REASON_ELEVEN": (REASON_ELEVEN, _state.REASON_ELEVEN),
        "HAND_LIMIT": (HAND_LIMIT, _state.HAND_LIMIT), "FACE_UP": (FACE_UP, _state.FACE_UP),
        "DEAL": (DEAL, _state.DEAL), "WIN_ISLANDS": (WIN_ISLANDS, _state.WIN_ISLANDS),
        "NO_CARD": (NO_CARD, _state.NO_CARD), "NO_OWNER": (-1, _state.NO_OWNER),
        "NO_COLOR": (NO_COLOR, _state.NO_COLOR), "TWO_PLAYERS": (TWO_PLAYERS, _state.TWO_PLAYERS),
        "SLOT_BIT": (SLOT_BIT, _actions.SLOT_BIT), "SLOT_FLAG": (SLOT_FLAG, _actions.with_slot(0, 1)),
        "MAX_ISLANDS": (MAX_ISLANDS, _board.MAX_ISLANDS), "MAX_LINKS": (MAX_LINKS, _board.MAX_LINKS),
        "MAX_CARDS": (MAX_CARDS, _board.MAX_CARDS),
    }
    for players in range(2, MAX_SEATS + 1):
        colors = _state.n_colors(players)
        expected[f"n_colors({players})"] = (2 * players if players == TWO_PLAYERS else players, colors)
        for c in range(colors):
            expected[f"seat_of_color({c}, {players})"] = (c % players, _state.seat_of_color(c, players))
    wrong = [name for name, (core, py) in expected.items() if core != py]
    if wrong:
        raise ImportError(f"kanaloa_core disagrees with the kanaloa package on {', '.join(wrong)}: rebuild it")


_check_constants()


# ---------------------------------------------------------------------------
# C data
# ---------------------------------------------------------------------------

ctypedef struct BoardTables:
    int n_islands
    int n_links
    int cards_per_island
    int n_cards
    uint64_t all_links                  # bits 0 .. n_links-1
    int win_bridges                     # R8 needs at least this many bridges of one color
    uint64_t island_links[MAX_ISLANDS]  # R1: bit k set when link k touches the island
    int island_size[MAX_ISLANDS]        # R1: number of links
    int link_a[MAX_LINKS]               # link ends in the board file's order (swap combos)
    int link_b[MAX_LINKS]
    int link_lo[MAX_LINKS]              # link ends in island order (R6/R7 resolution, sorted places)
    int link_hi[MAX_LINKS]


ctypedef struct CState:
    const BoardTables* board
    uint64_t bridges[MAX_COLORS]        # one bitboard per color over the links
    uint64_t rng                        # SplitMix64 state: the chance stream (reshuffles, R9)
    int32_t scores[MAX_COLORS]          # per color (R11; R15.1)
    uint8_t hands[MAX_SEATS][MAX_ISLANDS]
    uint8_t public_cards[MAX_SEATS][MAX_ISLANDS]   # what every player knows is in the hand
    uint8_t hidden_by[MAX_SEATS][MAX_ISLANDS]      # face-down discards since the last reshuffle
    uint8_t pile[MAX_SEATS][MAX_ISLANDS]  # [observer][island]: seen go into the deck at the last reshuffle, not seen out
    uint8_t pile_unseen[MAX_SEATS]        # [observer]: cards of that reshuffle it could not see, not matched since
    uint8_t hand_size[MAX_SEATS]
    uint8_t deck[MAX_CARDS]             # deck[deck_top] is the top card
    uint8_t discard_open[MAX_CARDS]     # open discards, in the order they were paid
    int16_t deck_top
    int16_t deck_end
    int16_t n_open
    int16_t played                      # cards played this turn
    int8_t face_up[FACE_UP]
    int8_t n_face_up
    int8_t face_up_cap                  # the row's size: FACE_UP, or KAHUNA_FACE_UP
    int8_t game                         # GAME_KANALOA or GAME_KAHUNA (R16)
    int8_t skipped                      # Kahuna (R16.5): the last turn ended without a draw
    int8_t n_players
    int8_t n_colors
    int8_t preset
    int8_t round
    int8_t to_move
    int8_t discarded
    int8_t turn_color                   # R15.3: the color this turn builds with, or NO_COLOR
    int8_t color_of_seat[MAX_SEATS]
    int8_t seat_of_color[MAX_COLORS]
    int8_t god_token[MAX_ISLANDS]       # R14.1: the token on each island, or NO_GOD
    int8_t gods                         # R14: the variant is on
    uint8_t gods_owned[MAX_SEATS][GOD_KINDS]     # R14.2: unused tokens per seat and kind
    uint8_t known[MAX_SEATS][MAX_SEATS][GODS_ISLANDS]  # R14.10: [observer][seat][island], gods games only
    int8_t ku_target                    # R14.6: the seat a KU showed, whose card is still to take, or -1
    int8_t pele_gifts[MAX_SEATS]        # R14.7: the seats still owed a gift, in order
    int8_t n_gifts
    int8_t lono_draw                    # R14.8: LONO's extra card is still to take
    int8_t over_limit                   # R14.9: a token use this turn left the hand above 4
    int8_t remove_on[MAX_PENDING]       # R7: islands with a removal pending, in order
    int8_t n_remove
    int8_t final_done[MAX_SEATS]        # R10: seats in the order they took their final turn
    int8_t n_done
    int8_t final_passed[MAX_SEATS]
    int8_t n_passed
    int8_t setup_chosen[MAX_SEATS]      # R3: the card set aside, or NO_CARD
    int8_t ranking[MAX_SEATS]           # R12: best first, once the game is over
    int8_t n_ranking
    int8_t winner
    int8_t reason


# A place the determinisation benchmark writes its samples to, so that the work cannot be optimised away.
cdef CState _sample_sink


# ---------------------------------------------------------------------------
# SplitMix64 (the same stream as kanaloa.rules.rng)
# ---------------------------------------------------------------------------

cdef inline uint64_t sm_next(uint64_t* state) noexcept nogil:
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint32_t sm_below(uint64_t* state, uint32_t n) noexcept nogil:
    return <uint32_t>(sm_next(state) % n)


cdef inline void sm_skip(uint64_t* state, uint64_t draws) noexcept nogil:
    """Move the stream on by ``draws`` draws whose values are not needed (each adds the same constant)."""
    state[0] += draws * 0x9E3779B97F4A7C15ULL


cdef inline void shuffle_cards(uint8_t* items, int n, uint64_t* rng) noexcept nogil:
    """Fisher-Yates from the last index down, as SplitMix64.shuffle does."""
    cdef int i, j
    cdef uint8_t t
    i = n - 1
    while i > 0:
        j = sm_below(rng, i + 1)
        t = items[i]
        items[i] = items[j]
        items[j] = t
        i -= 1


# ---------------------------------------------------------------------------
# Small queries
# ---------------------------------------------------------------------------

cdef inline int32_t encode(int kind, int a, int b) noexcept nogil:
    return (kind << 16) | (a << 8) | b


cdef inline uint64_t occupied_links(const CState* s) noexcept nogil:
    cdef uint64_t occ = 0
    cdef int o
    for o in range(s.n_colors):
        occ |= s.bridges[o]
    return occ


cdef inline uint64_t nonzero_bytes(uint64_t w) noexcept nogil:
    """A bit per byte of ``w`` (lowest byte first) that is not 0."""
    # Each byte's top bit set iff the byte is not 0, then the 8 top bits gathered into one byte.
    w = (((w & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | w) & 0x8080808080808080ULL
    return ((w >> 7) * 0x0102040810204080ULL) >> 56


cdef inline uint32_t islands_in_hand(const CState* s, int seat, uint32_t* pairs) noexcept nogil:
    """A bit per island of which ``seat`` holds a card; ``pairs`` gets those it holds two or more of.

    Reads the hand 8 islands at a time (``hands`` is 0 past the board's islands).
    """
    cdef uint64_t w, held = 0, two = 0
    cdef int i
    for i in range((s.board.n_islands + 7) >> 3):
        memcpy(&w, &s.hands[seat][8 * i], 8)
        held |= nonzero_bytes(w) << (8 * i)
        two |= nonzero_bytes(w & 0xFEFEFEFEFEFEFEFEULL) << (8 * i)
    pairs[0] = <uint32_t>two
    return <uint32_t>held


cdef inline uint64_t hand_reach(const BoardTables* b, uint32_t held, uint32_t pairs, uint64_t* payable) noexcept nogil:
    """The links with an end named by a card of ``held`` (islands in hand), for R4 places; ``payable``
    gets those a swap can pay for: both ends in hand, or an end held twice (``pairs``)."""
    cdef uint64_t links, reach = 0, both = 0
    while held:
        links = b.island_links[lowest_bit(held)]
        both |= reach & links  # a link touches two islands: both are in hand
        reach |= links
        held &= held - 1
    while pairs:
        both |= b.island_links[lowest_bit(pairs)]
        pairs &= pairs - 1
    payable[0] = both
    return reach


cdef inline int bridges_on(const CState* s, int color, int island) noexcept nogil:
    return popcount(s.bridges[color] & s.board.island_links[island])


cdef inline bint has_majority(const CState* s, int color, int island) noexcept nogil:
    """R2: more than half of the island's links."""
    return 2 * bridges_on(s, color, island) > s.board.island_size[island]


cdef inline int islands_controlled(const CState* s, int color) noexcept nogil:
    cdef int x, n = 0
    for x in range(s.board.n_islands):
        n += has_majority(s, color, x)
    return n


cdef inline int controller_of(const CState* s, int island) noexcept nogil:
    """The color with an absolute majority on ``island`` (R2), or -1."""
    cdef int o
    for o in range(s.n_colors):
        if has_majority(s, o, island):
            return o
    return -1


cdef inline int rival_counts(const CState* s, int color, uint64_t links, int* rivals, bint* single) noexcept nogil:
    """On the island whose links are ``links``: the most bridges any color other than ``color``
    has (returned), their total (``rivals``) and whether one of them has exactly one (``single``)."""
    cdef int o, cnt, top = 0
    rivals[0] = 0
    single[0] = False
    for o in range(s.n_colors):
        if o != color:
            cnt = popcount(s.bridges[o] & links)
            rivals[0] += cnt
            if cnt > top:
                top = cnt
            if cnt == 1:
                single[0] = True
    return top


cdef inline bint has_stock(const CState* s, int color) noexcept nogil:
    """R13: in the tabletop preset a color places or swaps only with a bridge in stock."""
    return s.preset != PRESET_TABLETOP or popcount(s.bridges[color]) < TABLETOP_BRIDGES


cdef inline bint seat_done(const CState* s, int seat) noexcept nogil:
    cdef int i
    for i in range(s.n_done):
        if s.final_done[i] == seat:
            return True
    return False


cdef inline int next_seat_not_done(const CState* s, int seat) noexcept nogil:
    """R10: the next seat after ``seat`` (wrapping, possibly ``seat`` itself) without a final turn."""
    cdef int i, t
    for i in range(1, s.n_players + 1):
        t = (seat + i) % s.n_players
        if not seat_done(s, t):
            return t
    return seat


cdef inline bint seat_ahead(const CState* s, int a, int b) noexcept nogil:
    """Whether seat ``a``'s score is strictly greater than seat ``b``'s: points (R12), or with
    2 players the pair (weaker color's points, stronger color's points) compared in order (R15.5)."""
    cdef int32_t a_lo, a_hi, b_lo, b_hi
    if s.n_colors == s.n_players:
        return s.scores[a] > s.scores[b]
    a_lo = s.scores[a]
    a_hi = s.scores[a + TWO_PLAYERS]
    if a_lo > a_hi:
        a_lo, a_hi = a_hi, a_lo
    b_lo = s.scores[b]
    b_hi = s.scores[b + TWO_PLAYERS]
    if b_lo > b_hi:
        b_lo, b_hi = b_hi, b_lo
    return a_lo > b_lo or (a_lo == b_lo and a_hi > b_hi)


cdef inline bint may_pass(const CState* s) noexcept nogil:
    """R10, R15.6: some other seat with a strictly greater score has not taken its final turn."""
    cdef int t, me = s.to_move
    if s.played != 0:
        return False
    for t in range(s.n_players):
        if t != me and seat_ahead(s, t, me) and not seat_done(s, t):
            return True
    return False


# ---------------------------------------------------------------------------
# Dealing (R3)
# ---------------------------------------------------------------------------

cdef void reset_state(CState* s, const BoardTables* b, int players, int preset, int game) noexcept nogil:
    """An empty table in setup: no card anywhere, no bridge; one color per seat (R1-R13, R16.1), or
    two with 2 players of Kanaloa: seat ``s`` plays colors ``s`` and ``s + 2`` (R15.1)."""
    cdef int x, seat, c
    memset(s, 0, sizeof(CState))
    s.board = b
    s.n_players = players
    s.n_colors = 2 * players if players == TWO_PLAYERS and game == GAME_KANALOA else players
    s.preset = preset
    s.game = game
    s.face_up_cap = KAHUNA_FACE_UP if game == GAME_KAHUNA else FACE_UP
    s.round = ROUND_SETUP
    s.winner = -1
    s.turn_color = NO_COLOR
    for seat in range(MAX_SEATS):
        s.setup_chosen[seat] = NO_CARD
        s.color_of_seat[seat] = seat
    for c in range(MAX_COLORS):
        s.seat_of_color[c] = c % players
    for x in range(MAX_ISLANDS):
        s.god_token[x] = NO_GOD
    s.ku_target = -1


cdef inline void seen_leave_deck(CState* s, int o, int x) noexcept nogil:
    """Observer ``o`` sees a card of ``x`` come out of the deck (docs/engine.md "What a reshuffle reveals"):
    one of the cards it saw go in, or else one of those it could not see."""
    if s.pile[o][x]:
        s.pile[o][x] -= 1
    elif s.pile_unseen[o]:
        s.pile_unseen[o] -= 1


cdef inline void deck_left(CState* s) noexcept nogil:
    """A card came out of the deck: once it is empty, there is nothing left to know of it."""
    if s.deck_top == s.deck_end:
        memset(s.pile, 0, sizeof(s.pile))
        memset(s.pile_unseen, 0, sizeof(s.pile_unseen))


cdef inline void turn_up(CState* s, int i) noexcept nogil:
    """The deck's top card goes face-up at slot ``i``, seen by every player."""
    cdef int o, x = s.deck[s.deck_top]
    s.face_up[i] = x
    s.deck_top += 1
    for o in range(s.n_players):
        seen_leave_deck(s, o, x)
    deck_left(s)


cdef inline void refill_face_up(CState* s) noexcept nogil:
    while s.n_face_up < s.face_up_cap and s.deck_top < s.deck_end:
        turn_up(s, s.n_face_up)
        s.n_face_up += 1


cdef void deal_state(CState* s, const BoardTables* b, int players, int preset, uint64_t seed,
                     int game, bint gods=False) noexcept nogil:
    """docs/engine.md "Dealing": shuffle the cards in island order, 4 to each seat from the top
    (R3; the same with 2 players, R15.2).  Kahuna (R16.2): 3 to each seat, then 3 face-up, and
    play begins in round 1."""
    cdef int x, i, n = 0, seat, deal = KAHUNA_DEAL if game == GAME_KAHUNA else DEAL
    reset_state(s, b, players, preset, game)
    for x in range(b.n_islands):
        for i in range(b.cards_per_island):
            s.deck[n] = x
            n += 1
    s.rng = seed
    shuffle_cards(s.deck, n, &s.rng)
    s.deck_end = n
    for seat in range(players):
        for i in range(deal):
            s.hands[seat][s.deck[s.deck_top]] += 1
            s.deck_top += 1
        s.hand_size[seat] = deal
    if game == GAME_KAHUNA:
        refill_face_up(s)
        s.round = ROUND_1
    if gods:
        deal_gods(s)


cdef void deal_gods(CState* s) noexcept nogil:
    """R14.1: the 16 tokens in kind order (8 KANE, 2 each of the others), shuffled with the state's stream
    after the cards, token i on island i."""
    cdef uint8_t tokens[GODS_ISLANDS]
    cdef int x, n = 0, k, i
    cdef int counts[GOD_KINDS]
    counts[0] = 8
    for k in range(1, GOD_KINDS):
        counts[k] = 2
    for k in range(GOD_KINDS):
        for i in range(counts[k]):
            tokens[n] = k
            n += 1
    shuffle_cards(tokens, n, &s.rng)
    s.gods = True
    for x in range(GODS_ISLANDS):
        s.god_token[x] = tokens[x]


# ---------------------------------------------------------------------------
# Legal moves (sorted by action code)
# ---------------------------------------------------------------------------

# The heuristic playouts want every legal move's score (``move_value``) beside it.  ``list_moves``
# writes both in one pass when given a ``values`` array: the places on a link share one score, as do
# its swap combos, and the other kinds score from what the pass already knows.  ``legal_moves`` is
# the same pass without scores; ``value_moves`` is the specification the scores must match.


cdef inline int emit(int32_t* out, int* values, int n, int32_t code, int value, bint keep) noexcept nogil:
    """Write ``code`` (and ``value`` if ``values`` is not NULL) at index ``n``; return ``n + 1`` if
    ``keep``, else ``n``, so that the next entry overwrites it: candidates cost no branch to mispredict
    (``out`` has room for one entry past the last legal one)."""
    out[n] = code
    if values:
        values[n] = value
    return n + keep


cdef inline int one_color_builds(const CState* s, int32_t* out, int n, int* values, uint64_t reach,
                                 uint64_t payable, uint64_t occ, uint64_t mine, int32_t flag) noexcept nogil:
    """R4 place and swap for one building color, appended to ``out[:n]``; return the new count.

    ``reach``/``payable`` are the hand's links (``hand_reach``), ``occ`` the
    occupied links, ``mine`` the building color's bridges, ``flag`` its
    color slot in b (0, or ``SLOT_FLAG`` for a 2-player second color, R15.3).
    With ``values``, the scores go beside the codes (``list_moves``).
    """
    cdef const BoardTables* b = s.board
    cdef const uint8_t* hand = s.hands[s.to_move]
    cdef int k, lo, hi, v = 0, slot = flag >> SLOT_BIT
    cdef bint aa, ab, bb
    cdef uint64_t bits
    # R4 place: a free link and a card naming one of its ends.
    bits = reach & b.all_links & ~occ
    while bits:
        k = lowest_bit(bits)
        bits &= bits - 1
        lo = b.link_lo[k]
        hi = b.link_hi[k]
        if values:
            v = build_value(s, PLACE, k, slot, occ)
        n = emit(out, values, n, encode(PLACE, k, lo) | flag, v, hand[lo] != 0)
        n = emit(out, values, n, encode(PLACE, k, hi) | flag, v, hand[hi] != 0)
    # R4 swap: another color's link and two cards naming its ends.
    bits = payable & occ & ~mine
    while bits:
        k = lowest_bit(bits)
        bits &= bits - 1
        lo = b.link_a[k]
        hi = b.link_b[k]
        aa = hand[lo] >= 2
        ab = (hand[lo] != 0) & (hand[hi] != 0)
        bb = hand[hi] >= 2
        if values:
            v = build_value(s, SWAP, k, slot, occ)
        n = emit(out, values, n, encode(SWAP, k, SWAP_AA) | flag, v, aa)
        n = emit(out, values, n, encode(SWAP, k, SWAP_AB) | flag, v, ab)
        n = emit(out, values, n, encode(SWAP, k, SWAP_BB) | flag, v, bb)
    return n


cdef int legal_builds_2p(const CState* s, int32_t* out, int n, uint32_t held, uint32_t pairs,
                         int* values) noexcept nogil:
    """R4 place and swap with 2 players (R15.3, R15.4), appended to ``out[:n]``; return the new count.

    Each build names its color slot (``SLOT_FLAG`` in b): before the turn's
    first build both of the mover's colors may build, after it only
    ``turn_color``; a color without stock builds nothing (R13).  A swap takes
    any link not of the building color, the mover's other color included.
    Per link the codes come out ascending: slot 0's before slot 1's.
    ``held`` and ``pairs`` are the hand's islands (``islands_in_hand``).  With
    ``values``, the scores go beside the codes (``list_moves``).
    """
    cdef const BoardTables* b = s.board
    cdef int seat = s.to_move, k, lo, hi, c0 = seat, c1 = seat + TWO_PLAYERS, v0 = 0, v1 = 0
    cdef const uint8_t* hand = s.hands[seat]
    cdef bint ok0, ok1, aa, ab, bb
    cdef int32_t code
    cdef uint64_t occ, bits, reach, payable
    ok0 = (s.turn_color == NO_COLOR or s.turn_color == c0) and has_stock(s, c0)
    ok1 = (s.turn_color == NO_COLOR or s.turn_color == c1) and has_stock(s, c1)
    if not ok0 and not ok1:
        return n
    reach = hand_reach(b, held, pairs, &payable)
    occ = occupied_links(s)
    if ok0 and ok1:
        # Both colors open: per link, slot 0's codes then slot 1's.
        bits = reach & b.all_links & ~occ
        while bits:
            k = lowest_bit(bits)
            bits &= bits - 1
            lo = b.link_lo[k]
            hi = b.link_hi[k]
            code = encode(PLACE, k, lo)
            if values:
                v0 = build_value(s, PLACE, k, 0, occ)
                v1 = build_value(s, PLACE, k, 1, occ)
            n = emit(out, values, n, code, v0, hand[lo] != 0)
            n = emit(out, values, n, code + (hi - lo), v0, hand[hi] != 0)
            n = emit(out, values, n, code | SLOT_FLAG, v1, hand[lo] != 0)
            n = emit(out, values, n, (code + (hi - lo)) | SLOT_FLAG, v1, hand[hi] != 0)
        bits = payable & occ
        while bits:
            k = lowest_bit(bits)
            bits &= bits - 1
            lo = b.link_a[k]
            hi = b.link_b[k]
            aa = hand[lo] >= 2
            ab = (hand[lo] != 0) & (hand[hi] != 0)
            bb = hand[hi] >= 2
            code = encode(SWAP, k, SWAP_AA)
            if not (s.bridges[c0] >> k) & 1:
                if values:
                    v0 = build_value(s, SWAP, k, 0, occ)
                n = emit(out, values, n, code, v0, aa)
                n = emit(out, values, n, code + SWAP_AB, v0, ab)
                n = emit(out, values, n, code + SWAP_BB, v0, bb)
            if not (s.bridges[c1] >> k) & 1:
                if values:
                    v1 = build_value(s, SWAP, k, 1, occ)
                n = emit(out, values, n, code | SLOT_FLAG, v1, aa)
                n = emit(out, values, n, (code + SWAP_AB) | SLOT_FLAG, v1, ab)
                n = emit(out, values, n, (code + SWAP_BB) | SLOT_FLAG, v1, bb)
        return n
    # One color open: as with 3 or 4 players, its slot flagged.
    if ok0:
        return one_color_builds(s, out, n, values, reach, payable, occ, s.bridges[c0], 0)
    return one_color_builds(s, out, n, values, reach, payable, occ, s.bridges[c1], SLOT_FLAG)


cdef inline int building_color(const CState* s) noexcept nogil:
    """The color the mover's builds and R7 removals count for: its one color, or with 2 players
    the turn's chosen color (R15.3)."""
    if s.turn_color != NO_COLOR:
        return s.turn_color
    return s.color_of_seat[s.to_move]


cdef int list_moves(const CState* s, int32_t* out, int* values) noexcept nogil:
    """Write the legal actions of the player to move into ``out`` (ascending); return how many.

    ``values`` is NULL, or an array as large as ``out`` that receives each
    action's heuristic score, equal to ``move_value`` of it.
    """
    if s.gods and s.round != ROUND_OVER:
        return gods_moves(s, out, values)
    return base_moves(s, out, values)


cdef int base_moves(const CState* s, int32_t* out, int* values) noexcept nogil:
    """``list_moves`` of every game but Might of the Gods, which adds to it (``gods_moves``)."""
    cdef const BoardTables* b = s.board
    cdef int n = 0, seat = s.to_move, c, x, k, o, mine, top, rivals, v = 0
    cdef bint single
    cdef const uint8_t* hand = s.hands[seat]
    cdef uint64_t occ, bits, eligible, island, reach, payable
    cdef uint32_t seen, held, pairs

    if s.round == ROUND_OVER:
        return 0
    if s.game == GAME_KAHUNA:
        return kahuna_moves(s, out, values)
    if s.round == ROUND_SETUP:
        for x in range(b.n_islands):
            n = emit(out, values, n, encode(REVEAL, x, 0), VALUE_END, hand[x] != 0)
        return n
    c = building_color(s)

    if s.n_remove > 0:
        # R7: remove one bridge of an eligible color from the first pending island.
        island = b.island_links[s.remove_on[0]]
        mine = popcount(s.bridges[c] & island)
        top = rival_counts(s, c, island, &rivals, &single)
        eligible = 0
        for o in range(s.n_colors):
            if o != c and (mine > top or (mine == top and popcount(s.bridges[o] & island) == 1)):
                eligible |= s.bridges[o]
        bits = eligible & island
        while bits:
            k = lowest_bit(bits)
            bits &= bits - 1
            if values:
                v = remove_value(s, k)
            n = emit(out, values, n, encode(REMOVE, k, 0), v, True)
        return n

    occ = occupied_links(s)
    if s.round == ROUND_FINAL or not s.discarded:
        held = islands_in_hand(s, seat, &pairs)
        if s.n_colors != s.n_players:
            n = legal_builds_2p(s, out, n, held, pairs, values)
        elif has_stock(s, c):
            reach = hand_reach(b, held, pairs, &payable)
            n = one_color_builds(s, out, n, values, reach, payable, occ, s.bridges[c], 0)
        if s.round == ROUND_FINAL:
            # R10: no discard and no draw; the turn ends when the player says so, or is postponed.
            n = emit(out, values, n, encode(END, 0, 0), VALUE_END, True)
            if may_pass(s):
                n = emit(out, values, n, encode(PASS, 0, 0), VALUE_PASS, True)
            return n
        if s.played == 0:
            while held:
                n = emit(out, values, n, encode(DISCARD, lowest_bit(held), 0), VALUE_DISCARD, True)
                held &= held - 1
        if s.hand_size[seat] > HAND_LIMIT:
            return n

    # R5: take a face-up card or draw, ending the turn.
    return draw_moves(s, out, n, values, occ)


cdef inline int draw_moves(const CState* s, int32_t* out, int n, int* values, uint64_t occ) noexcept nogil:
    """R5 (R14.8, R16.5): a ``TAKE`` per distinct face-up island, then ``DRAW`` if the deck holds a card,
    appended to ``out[:n]``; with ``values``, their scores beside them (``occ``: the occupied links)."""
    cdef uint32_t seen = 0
    cdef int x
    for x in range(s.n_face_up):
        seen |= 1u << s.face_up[x]
    while seen:
        x = lowest_bit(seen)
        seen &= seen - 1
        n = emit(out, values, n, encode(TAKE, x, 0), take_value(s, x, occ) if values else 0, True)
    if s.deck_top < s.deck_end:
        n = emit(out, values, n, encode(DRAW, 0, 0), VALUE_DRAW, True)
    return n


cdef int legal_moves(const CState* s, int32_t* out) noexcept nogil:
    """Write the legal actions of the player to move into ``out`` (ascending); return how many."""
    return list_moves(s, out, NULL)


cdef bint is_legal_action(const CState* s, int32_t action) noexcept nogil:
    cdef int32_t buf[MAX_ACTIONS]
    cdef int i, n = legal_moves(s, buf)
    for i in range(n):
        if buf[i] == action:
            return True
    return False


cdef bint well_formed(const CState* s, int32_t action) noexcept nogil:
    """Whether ``action`` names things that exist on this board (the cheap guard of ``apply``)."""
    cdef const BoardTables* b = s.board
    cdef int kind = action >> 16, a = (action >> 8) & 0xFF, arg = action & 0xFF
    if action < 0 or kind > (LAST_KIND if s.gods else REVEAL):
        return False
    if kind >= KU:  # R14: only with the gods (checked above)
        if kind == KU:
            return a < s.n_players and arg == 0
        if kind == STEAL:
            return a < b.n_islands and arg == 0
        if kind == GIVE:
            return a < b.n_islands and arg < s.n_players
        return a == 0 and arg == 0
    if s.game == GAME_KAHUNA:
        # R16.3, R16.9: places, removals paid with a combo of cards, discards, takes, draws and END.
        if kind == PLACE:
            return a < b.n_links and (arg == b.link_a[a] or arg == b.link_b[a])
        if kind == REMOVE:
            return a < b.n_links and arg <= SWAP_BB
        if kind == DISCARD or kind == TAKE:
            return a < b.n_islands and arg == 0
        return (kind == DRAW or kind == END) and a == 0 and arg == 0
    if kind == PLACE or kind == SWAP:
        if arg & SLOT_FLAG:
            if s.n_colors == s.n_players:
                return False  # only a 2-player build names a color slot (R15)
            arg &= ARG_MASK
        if kind == PLACE:
            return a < b.n_links and (arg == b.link_a[a] or arg == b.link_b[a] or (s.gods and arg == JOKER))
        return a < b.n_links and (arg <= SWAP_BB or (s.gods and arg <= SWAP_JJ))
    if kind == REMOVE:
        return a < b.n_links and arg == 0
    if kind == DISCARD or kind == TAKE or kind == REVEAL:
        return a < b.n_islands and arg == 0
    return kind >= DRAW and a == 0 and arg == 0


# ---------------------------------------------------------------------------
# Applying moves
# ---------------------------------------------------------------------------

cdef inline void known_one_fewer(CState* s, int seat, int x) noexcept nogil:
    """R14.10: every other observer sees a card of ``x`` leave ``seat``'s hand."""
    cdef int o
    for o in range(s.n_players):
        if o != seat:
            s.known[o][seat][x] -= s.known[o][seat][x] != 0


cdef inline void known_one_fewer_each(CState* s, int seat, int skip) noexcept nogil:
    """R14.10: a card left ``seat``'s hand unseen by every observer but ``skip`` (and ``seat``): they keep one
    card fewer of every island they knew there."""
    cdef int o, y
    for o in range(s.n_players):
        if o != seat and o != skip:
            for y in range(GODS_ISLANDS):
                s.known[o][seat][y] -= s.known[o][seat][y] != 0


cdef void move_card_seen(CState* s, int src, int dst, int x) noexcept nogil:
    """R14.6, R14.7: a card of ``x`` goes from ``src``'s hand to ``dst``'s, seen by both; the others see a card
    leave ``src`` but not which (R14.10)."""
    cdef int y
    if s.hands[src][x] == 0:
        return  # only reachable through an illegal action
    s.hands[src][x] -= 1
    s.hand_size[src] -= 1
    s.hands[dst][x] += 1
    s.hand_size[dst] += 1
    s.known[dst][src][x] -= s.known[dst][src][x] != 0
    s.known[src][dst][x] += 1
    known_one_fewer_each(s, src, dst)
    for y in range(s.board.n_islands):
        s.public_cards[src][y] -= s.public_cards[src][y] != 0


cdef inline void pay_card(CState* s, int seat, int x) noexcept nogil:
    """R4: a played card leaves the hand (and its public part) for the open discards."""
    if s.hands[seat][x] == 0:
        return  # only reachable through an illegal action; keep the card totals intact
    s.hands[seat][x] -= 1
    s.hand_size[seat] -= 1
    s.public_cards[seat][x] -= s.public_cards[seat][x] != 0  # one known card fewer, if any was known
    if s.gods:
        known_one_fewer(s, seat, x)
    s.discard_open[s.n_open] = x
    s.n_open += 1
    s.played += 1


cdef void discard_card(CState* s, int seat, int x) noexcept nogil:
    """R4, R16.5: a card of ``x`` discarded face-down; others do not see which card went, so every
    known card of the hand becomes uncertain by one."""
    cdef int y
    if s.hands[seat][x] == 0:
        return
    s.hands[seat][x] -= 1
    s.hand_size[seat] -= 1
    for y in range(s.board.n_islands):
        s.public_cards[seat][y] -= s.public_cards[seat][y] != 0
    if s.gods:
        known_one_fewer_each(s, seat, -1)
    s.hidden_by[seat][x] += 1
    s.discarded = True


cdef void take_card(CState* s, int seat, int x) noexcept nogil:
    """R5, R16.5: the first face-up card of ``x`` goes to the hand, seen by all; the deck's top fills
    the gap at once, or the row shrinks when the deck is empty."""
    cdef int i, o
    # The first face-up card equal to x (the row holds at most FACE_UP), or n_face_up if none.
    cdef uint32_t found = 1u << s.n_face_up
    for i in range(FACE_UP):
        found |= <uint32_t>((i < s.n_face_up) & (s.face_up[i] == x)) << i
    i = lowest_bit(found)
    if i < s.n_face_up:
        s.hands[seat][x] += 1
        s.public_cards[seat][x] += 1
        s.hand_size[seat] += 1
        if s.gods:
            for o in range(s.n_players):
                if o != seat:
                    s.known[o][seat][x] += 1
        if s.deck_top < s.deck_end:
            turn_up(s, i)
        else:
            s.n_face_up -= 1
            while i < s.n_face_up:
                s.face_up[i] = s.face_up[i + 1]
                i += 1


cdef inline void draw_card(CState* s, int seat) noexcept nogil:
    """R5, R16.5: the deck's top card goes to the hand, unseen by the others."""
    cdef int x
    if s.deck_top < s.deck_end:
        x = s.deck[s.deck_top]
        s.hands[seat][x] += 1
        s.hand_size[seat] += 1
        s.deck_top += 1
        seen_leave_deck(s, seat, x)
        deck_left(s)


cdef void rank_by_points(CState* s, const int8_t* order, int n, int first) noexcept nogil:
    """Fill ``ranking`` with the seats ``order[:n]``, entries from ``first`` on stably sorted by score,
    highest first (``seat_ahead``)."""
    cdef int i, j
    cdef int8_t t
    if n > MAX_SEATS:
        n = MAX_SEATS  # never: there are at most MAX_SEATS seats
    for i in range(n):
        s.ranking[i] = order[i]
    for i in range(first + 1, n):
        t = s.ranking[i]
        j = i - 1
        while j >= first and seat_ahead(s, t, s.ranking[j]):
            s.ranking[j + 1] = s.ranking[j]
            j -= 1
        s.ranking[j + 1] = t
    s.n_ranking = n


cdef void win_by_islands(CState* s, int color) noexcept nogil:
    """R8, R12: the immediate winner first, then the others by points, then by seat.

    With 2 players (R15.7) ``color``'s seat wins; the other seat is second.
    """
    cdef int8_t order[MAX_SEATS]
    cdef int seat, n = 1, w = s.seat_of_color[color]
    order[0] = w
    for seat in range(MAX_SEATS):  # (bounded by the array, not n_players, for the compiler's sake)
        if seat < s.n_players and seat != w and n < MAX_SEATS:
            order[n] = seat
            n += 1
    rank_by_points(s, order, n, 1)
    s.winner = w
    s.reason = REASON_ELEVEN
    s.round = ROUND_OVER


cdef void claim_token(CState* s, int island, int c) noexcept nogil:
    """R14.2, R14.3: the first control of ``island`` claims its token for color ``c``'s player; a KANE scores
    at once (1 for 3 links, 2 for 5, 3 for 7) and leaves the game."""
    cdef int kind = s.god_token[island], size = s.board.island_size[island]
    s.god_token[island] = NO_GOD
    if kind == GOD_KANE:
        s.scores[c] += (size - 1) // 2 if size >= 3 else 1
    else:
        s.gods_owned[s.seat_of_color[c]][kind] += 1


cdef void resolve_link(CState* s, int link, int c) noexcept nogil:
    """R6, R7, R8 after a bridge of the mover's color ``c`` went on ``link`` (place or swap).

    Every other color is a rival here, the mover's other one included (R15.4).
    """
    cdef const BoardTables* b = s.board
    cdef int e, island, size, n, o, top, rivals
    cdef bint single
    cdef uint64_t links
    for e in range(2):
        island = b.link_lo[link] if e == 0 else b.link_hi[link]
        links = b.island_links[island]
        size = b.island_size[island]
        n = popcount(s.bridges[c] & links)
        if 2 * n > size:
            # R6: a majority new with this bridge sweeps every other color off the island.
            if 2 * (n - 1) <= size:
                for o in range(s.n_colors):
                    if o != c:
                        s.bridges[o] &= ~links
                if s.god_token[island] != NO_GOD:
                    claim_token(s, island, c)
        elif size >= 5 and (occupied_links(s) & links) == links:
            # R7: the island is full and the mover leads or ties: a removal is owed.
            top = rival_counts(s, c, links, &rivals, &single)
            if (n > top or (n == top and single)) and s.n_remove < MAX_PENDING:
                s.remove_on[s.n_remove] = island
                s.n_remove += 1
    if popcount(s.bridges[c]) >= b.win_bridges and islands_controlled(s, c) >= WIN_ISLANDS:
        win_by_islands(s, c)


cdef void island_points(const CState* s, int bonus, int32_t* points) noexcept nogil:
    """R11: add to ``points[color]`` what each controller scores: the links it does not hold (+ bonus per island)."""
    cdef int x, o, size
    for x in range(s.board.n_islands):
        o = controller_of(s, x)
        if o >= 0:
            size = s.board.island_size[x]
            points[o] += size - bridges_on(s, o, x) + bonus


cdef inline void score_islands(CState* s, int bonus) noexcept nogil:
    """R9 scoring 1 (bonus 0) and R11 final scoring (bonus 1): the island points go onto the scores."""
    island_points(s, bonus, s.scores)


cdef void start_final_round(CState* s) noexcept nogil:
    s.round = ROUND_FINAL
    s.n_done = 0
    s.n_passed = 0


cdef void reshuffle(CState* s) noexcept nogil:
    """R9: open and face-down discards, listed in island order, shuffled into a new deck.

    Each player sees the open discards and its own face-down ones go in, and how many face-down discards
    of the others it could not see (``pile``, ``pile_unseen``; docs/engine.md "What a reshuffle reveals")."""
    cdef int counts[MAX_ISLANDS]
    cdef int x, i, seat, o, n = 0, hidden = 0
    for x in range(s.board.n_islands):
        counts[x] = 0
    for i in range(s.n_open):
        counts[s.discard_open[i]] += 1
    for seat in range(s.n_players):
        for x in range(s.board.n_islands):
            hidden += s.hidden_by[seat][x]
    for o in range(s.n_players):
        s.pile_unseen[o] = hidden
        for x in range(s.board.n_islands):
            s.pile[o][x] = counts[x] + s.hidden_by[o][x]
            s.pile_unseen[o] -= s.hidden_by[o][x]
    for seat in range(s.n_players):
        for x in range(s.board.n_islands):
            counts[x] += s.hidden_by[seat][x]
            s.hidden_by[seat][x] = 0
    for x in range(s.board.n_islands):
        for i in range(counts[x]):
            s.deck[n] = x
            n += 1
    shuffle_cards(s.deck, n, &s.rng)
    s.deck_top = 0
    s.deck_end = n
    s.n_open = 0
    refill_face_up(s)


cdef void end_turn(CState* s) noexcept nogil:
    """After a take or draw: round ends (R9, R10), then the next seat."""
    s.played = 0
    s.discarded = False
    s.turn_color = NO_COLOR
    s.over_limit = False
    s.lono_draw = False
    if s.deck_top == s.deck_end and s.n_face_up == 0:
        if s.round == ROUND_1:
            score_islands(s, 0)  # R9 scoring 1
            reshuffle(s)
            s.round = ROUND_2
            if s.deck_top == s.deck_end and s.n_face_up == 0:
                start_final_round(s)  # nothing came back: the second run-out is immediate
        elif s.round == ROUND_2:
            start_final_round(s)  # R10
    s.to_move = 0 if s.to_move + 1 == s.n_players else s.to_move + 1  # the next seat (no division)


cdef void end_final_turn(CState* s) noexcept nogil:
    """R10 END: the mover's final turn is over; after the last one, final scoring (R11, R12)."""
    cdef int i, j, seat = s.to_move
    if not seat_done(s, seat):
        s.final_done[s.n_done] = seat
        s.n_done += 1
    j = 0
    for i in range(s.n_passed):
        if s.final_passed[i] != seat:
            s.final_passed[j] = s.final_passed[i]
            j += 1
    s.n_passed = j
    s.played = 0
    s.turn_color = NO_COLOR
    if s.n_done >= s.n_players:
        score_islands(s, 1)
        rank_by_points(s, s.final_done, s.n_done, 0)  # ties: earlier final turn first (R12, R15.5)
        s.winner = s.ranking[0]
        s.reason = REASON_POINTS
        s.round = ROUND_OVER
    else:
        s.to_move = next_seat_not_done(s, seat)


cdef void apply_move(CState* s, int32_t action) noexcept nogil:
    """Apply a legal action (docs/engine.md "Applying moves").

    Unchecked: an illegal but well-formed action leaves a meaningless state,
    never an out-of-bounds write, and the card totals still hold.
    """
    cdef const BoardTables* b = s.board
    cdef int kind = action >> 16, a = (action >> 8) & 0xFF, arg = action & 0xFF
    cdef int seat = s.to_move, c, o, i
    cdef uint64_t bit
    if s.round == ROUND_OVER:
        return
    if s.game == GAME_KAHUNA:
        kahuna_apply(s, action)
        return
    c = s.color_of_seat[seat]
    if kind == PLACE or kind == SWAP:
        if s.n_colors != s.n_players:
            if arg & SLOT_FLAG:
                c += TWO_PLAYERS  # R15: the mover's second color
            s.turn_color = c  # R15.3: the turn's builds keep this color
        arg &= ARG_MASK
    if kind == PLACE:
        if arg == JOKER:
            s.gods_owned[seat][GOD_KANALOA] -= s.gods_owned[seat][GOD_KANALOA] != 0  # R14.5: not a card
        else:
            pay_card(s, seat, arg)
        s.bridges[c] |= 1ULL << a
        resolve_link(s, a, c)
    elif kind == SWAP:
        if arg >= SWAP_JA:
            # R14.5: KANALOA pays for one card (two with SWAP_JJ), the other is a card of A or B.
            s.gods_owned[seat][GOD_KANALOA] -= s.gods_owned[seat][GOD_KANALOA] != 0
            if arg == SWAP_JA:
                pay_card(s, seat, b.link_a[a])
            elif arg == SWAP_JB:
                pay_card(s, seat, b.link_b[a])
            else:
                s.gods_owned[seat][GOD_KANALOA] -= s.gods_owned[seat][GOD_KANALOA] != 0
        elif arg == SWAP_AA:
            pay_card(s, seat, b.link_a[a])
            pay_card(s, seat, b.link_a[a])
        elif arg == SWAP_AB:
            pay_card(s, seat, b.link_a[a])
            pay_card(s, seat, b.link_b[a])
        else:
            pay_card(s, seat, b.link_b[a])
            pay_card(s, seat, b.link_b[a])
        bit = 1ULL << a
        for o in range(s.n_colors):
            s.bridges[o] &= ~bit
        s.bridges[c] |= bit
        resolve_link(s, a, c)
    elif kind == REMOVE:
        bit = 1ULL << a
        for o in range(s.n_colors):
            s.bridges[o] &= ~bit
        if s.n_remove > 0:
            for i in range(1, s.n_remove):
                s.remove_on[i - 1] = s.remove_on[i]
            s.n_remove -= 1
    elif kind == DISCARD:
        discard_card(s, seat, a)
    elif kind == TAKE:
        take_card(s, seat, a)
        if s.lono_draw:
            s.lono_draw = False  # R14.8: LONO's extra card; the turn goes on
            check_over_limit(s)
        else:
            end_turn(s)
    elif kind == DRAW:
        draw_card(s, seat)
        if s.lono_draw:
            s.lono_draw = False
            check_over_limit(s)
        else:
            end_turn(s)
    elif kind == END:
        if s.round == ROUND_FINAL:
            end_final_turn(s)
        else:
            end_turn(s)  # R14.8: a round-2 turn with nothing left to draw
    elif kind >= KU:
        gods_apply(s, action)
    elif kind == PASS:
        for i in range(s.n_passed):
            if s.final_passed[i] == seat:
                break
        else:
            s.final_passed[s.n_passed] = seat
            s.n_passed += 1
        s.to_move = next_seat_not_done(s, seat)
    elif kind == REVEAL:
        if s.hands[seat][a] == 0 or s.setup_chosen[seat] != NO_CARD:
            return
        s.hands[seat][a] -= 1
        s.hand_size[seat] -= 1
        s.setup_chosen[seat] = a
        for i in range(s.n_players):
            if s.setup_chosen[i] == NO_CARD:
                s.to_move = (seat + 1) % s.n_players
                return
        # R3: everyone has chosen; the chosen cards go face-up in seat order, the deck tops up to 4.
        for i in range(s.n_players):  # n_players <= MAX_SEATS == FACE_UP
            s.face_up[i] = s.setup_chosen[i]
            s.setup_chosen[i] = NO_CARD
        s.n_face_up = s.n_players
        refill_face_up(s)
        s.round = ROUND_1
        s.to_move = 0


# ---------------------------------------------------------------------------
# Playouts
# ---------------------------------------------------------------------------

# The heuristic policy (1) scores each legal move with the cheap terms below and plays the best
# (ties broken at random); one move in HEURISTIC_EPSILON_IN is uniform instead, so that playouts
# stay varied.  Scores are small integers; 0 is "nothing gained".
cdef enum:
    HEURISTIC_EPSILON_IN = 8
    VALUE_TAKEOVER = 24     # R6: a new majority sweeps the rivals off the island...
    VALUE_SWEPT = 4         # ...plus this per rival bridge swept
    VALUE_OWN_ISLAND = -6   # a bridge on an island already held only lowers its score (R11)
    VALUE_PER_BRIDGE = 2    # per bridge already there: building towards a majority
    VALUE_R7_REMOVAL = 6    # filling the island while leading earns a removal (R7)
    VALUE_RIVAL_LOSS = 4    # a swap takes a rival bridge...
    VALUE_BREAK_CONTROL = 8 # ...or a removal/swap ends a rival's control of an island
    VALUE_SECOND_CARD = -3  # a swap costs two cards
    VALUE_DRAW = 2
    VALUE_TAKE_USEFUL = 3   # a face-up card naming an island with a free link
    VALUE_TAKE_OTHER = 1
    VALUE_DISCARD = -4      # rarely: only when every play is worse
    VALUE_PASS = 2          # R10: moving later in the final round is an advantage
    VALUE_END = 0
    VALUE_WEAK_COLOR = 8    # R15.5: with 2 players, building with the color that has fewer points
    VALUE_JOKER = -2        # R14.5: a build paid with KANALOA spends the token
    VALUE_KU = 5            # R14.6, R14.7, R14.8: a token use gains a card
    VALUE_PELE = 4
    VALUE_LONO = 3


# With 2 players the same terms judge each of the mover's two colors, the other color counting as
# the mover's own: sweeping it (R6), swapping it or removing it (R7) is a loss, not a gain.


cdef inline int bridge_value(const CState* s, int c, int mate, int island, uint64_t occupied) noexcept nogil:
    """What one more bridge of color ``c`` on ``island`` is worth to it (place or swap); ``mate`` is
    the mover's other color (2 players) or -1; ``occupied`` the links holding a bridge.

    Written as selects rather than early returns: the cases follow the board,
    not a pattern a branch predictor could learn.
    """
    cdef uint64_t links = s.board.island_links[island]
    cdef int size = s.board.island_size[island]
    cdef int n = popcount(s.bridges[c] & links), top, rivals, v
    cdef bint single
    rivals = popcount(occupied & links) - n  # every other color's bridges on the island
    v = VALUE_PER_BRIDGE * n
    if (size >= 5) & (size - n - rivals == 1):  # (one branch, not two)
        # The island's last free link (rare): R7 owes a removal if c then leads or ties.
        top = rival_counts(s, c, links, &rivals, &single)
        if n + 1 > top or (n + 1 == top and single):
            v += VALUE_R7_REMOVAL
    if mate >= 0:  # the mover's other color is swept too (R15.4): a loss, not a gain
        rivals -= 2 * popcount(s.bridges[mate] & links)
    v = VALUE_TAKEOVER + VALUE_SWEPT * rivals if 2 * (n + 1) > size else v
    return VALUE_OWN_ISLAND if 2 * n > size else v


cdef inline int control_lost(const CState* s, int color, int island) noexcept nogil:
    """VALUE_BREAK_CONTROL if taking one bridge of ``color`` from ``island`` ends its majority (R2)."""
    cdef int cnt = bridges_on(s, color, island), size = s.board.island_size[island]
    return VALUE_BREAK_CONTROL if 2 * cnt > size and 2 * (cnt - 1) <= size else 0


cdef inline int owner_of(const CState* s, int link) noexcept nogil:
    cdef int o
    for o in range(s.n_colors):
        if (s.bridges[o] >> link) & 1:
            return o
    return -1


cdef inline int build_value(const CState* s, int kind, int link, int slot, uint64_t occupied) noexcept nogil:
    """The score of a place (``kind`` PLACE) or swap (SWAP) on ``link`` by the mover's color ``slot``
    (0, or 1 for the second color with 2 players); ``occupied`` are the links holding a bridge.  The
    cards paid do not count: every place and every swap combo on a link scores the same."""
    cdef const BoardTables* b = s.board
    cdef int c = s.color_of_seat[s.to_move], mate = -1, v, o
    if s.n_colors != s.n_players:
        mate = c + TWO_PLAYERS
        if slot:
            c, mate = mate, c
    v = bridge_value(s, c, mate, b.link_lo[link], occupied) + bridge_value(s, c, mate, b.link_hi[link], occupied)
    if kind == SWAP:
        o = owner_of(s, link)
        if o >= 0 and o == mate:  # R15.4: the mover's own other color gives way
            v += VALUE_SECOND_CARD - VALUE_RIVAL_LOSS
            v -= control_lost(s, o, b.link_lo[link]) + control_lost(s, o, b.link_hi[link])
        else:
            v += VALUE_RIVAL_LOSS + VALUE_SECOND_CARD
            if o >= 0:
                v += control_lost(s, o, b.link_lo[link]) + control_lost(s, o, b.link_hi[link])
    if mate >= 0 and s.scores[c] < s.scores[mate]:
        v += VALUE_WEAK_COLOR
    return v


cdef int remove_value(const CState* s, int link) noexcept nogil:
    """The score of an R7 removal of the bridge on ``link``: hurt the strongest rival, best where it
    also costs them an island."""
    cdef const BoardTables* b = s.board
    cdef int o = owner_of(s, link), island, other
    if o < 0:
        return 0
    island = s.remove_on[0]
    other = b.link_hi[link] if b.link_lo[link] == island else b.link_lo[link]
    if s.seat_of_color[o] == s.to_move:  # R15.4: a bridge of the mover's other color
        return -VALUE_RIVAL_LOSS - VALUE_PER_BRIDGE * bridges_on(s, o, island) - control_lost(s, o, other)
    return s.scores[o] + VALUE_PER_BRIDGE * bridges_on(s, o, island) + control_lost(s, o, other)


cdef inline int take_value(const CState* s, int island, uint64_t occupied) noexcept nogil:
    """The score of taking a face-up card of ``island`` (R5), ``occupied`` being the links with a bridge."""
    return VALUE_TAKE_USEFUL if s.board.island_links[island] & ~occupied else VALUE_TAKE_OTHER


cdef int move_value(const CState* s, int32_t action) noexcept nogil:
    """The heuristic score of a legal ``action`` for the player to move (see the VALUE_ constants)."""
    cdef int kind = action >> 16, a = (action >> 8) & 0xFF, arg
    cdef bint joker
    if s.game == GAME_KAHUNA:
        return kahuna_value(s, action)
    if kind == PLACE or kind == SWAP:
        arg = action & ARG_MASK
        joker = (kind == PLACE and arg == JOKER) or (kind == SWAP and arg >= SWAP_JA)
        return build_value(s, kind, a, (action >> SLOT_BIT) & 1 if s.n_colors != s.n_players else 0,
                           occupied_links(s)) + (VALUE_JOKER if joker else 0)
    if kind >= KU:
        if kind == KU:
            return VALUE_KU
        if kind == PELE:
            return VALUE_PELE
        if kind == LONO:
            return VALUE_LONO
        if kind == STEAL:
            return take_value(s, a, occupied_links(s))
        return -take_value(s, a, occupied_links(s))  # GIVE: the least useful card
    if kind == REMOVE:
        return remove_value(s, a)
    if kind == TAKE:
        return take_value(s, a, occupied_links(s))
    if kind == DRAW:
        return VALUE_DRAW
    if kind == DISCARD:
        return VALUE_DISCARD
    if kind == PASS:
        return VALUE_PASS
    return VALUE_END  # END, and REVEAL: any card will do


cdef void value_moves(const CState* s, const int32_t* moves, int n, int* values) noexcept nogil:
    """``values[i]`` = ``move_value`` of ``moves[i]``, one action at a time: the specification that
    ``list_moves`` with scores must match (``CoreState.move_values``)."""
    cdef int i
    for i in range(n):
        values[i] = move_value(s, moves[i])


cdef int best_move(const int* values, int n, uint64_t* rng) noexcept nogil:
    """The heuristic choice among ``n`` > 1 scored moves: the best score, ties broken at random.

    As documented, the list is walked keeping the best score so far, and at
    each move that ties it (the t-th so far) a draw ``below(t) == 0`` makes it
    the pick.  For up to 64 moves the same draws are made a quicker way: a
    first pass without branches finds the first move with the best score of
    all and marks the ties met along the way.  The draws at ties before that
    move only move the stream on (the move replaces what they chose), so they
    are skipped without computing them; the draws at ties with the best score
    after it are made in order and decide the pick.
    """
    cdef int i, v, best = values[0], first = 0, pick = 0, ties = 1
    cdef uint64_t tied = 0, later
    if n > 64:
        for i in range(1, n):
            v = values[i]
            if v > best:
                best = v
                pick = i
                ties = 1
            elif v == best:
                ties += 1
                if sm_below(rng, ties) == 0:  # a uniform choice among the best so far
                    pick = i
        return pick
    for i in range(1, n):
        v = values[i]
        tied |= <uint64_t>(v == best) << i
        first = i if v > best else first
        best = v if v > best else best
    sm_skip(rng, popcount(tied & ((1ULL << first) - 1)))
    pick = first
    later = tied & ~((2ULL << first) - 1)
    while later:
        i = lowest_bit(later)
        later &= later - 1
        ties += 1
        if sm_below(rng, ties) == 0:
            pick = i
    return pick


cdef int choose_move(const CState* s, int policy, uint64_t* rng, int32_t* moves, int* values,
                     int* n_moves) noexcept nogil:
    """List the legal moves into ``moves`` (their number into ``n_moves``) and return the index of the
    one ``policy`` plays, drawing from ``rng`` (0 when there is none).

    ``POLICY_RANDOM`` plays ``moves[below(n)]``.  ``POLICY_HEURISTIC`` plays
    a lone move with one draw ``below(1)``; otherwise a first draw
    ``below(HEURISTIC_EPSILON_IN) == 0`` makes the move uniform
    (``below(n)``), and else it is ``best_move`` over the scores
    (``move_value``, written beside the moves by ``list_moves``).  That first
    draw is made before listing, so that the uniform moves skip the scores,
    and taken back when the list holds fewer than two moves.
    """
    cdef uint64_t before = rng[0]
    cdef bint scored
    cdef int n
    if policy == POLICY_RANDOM:
        n = legal_moves(s, moves)
        n_moves[0] = n
        return sm_below(rng, n) if n > 0 else 0
    scored = sm_below(rng, HEURISTIC_EPSILON_IN) != 0
    n = list_moves(s, moves, values if scored else NULL)
    n_moves[0] = n
    if n <= 1:
        rng[0] = before
        return sm_below(rng, n) if n > 0 else 0
    if not scored:
        return sm_below(rng, n)
    return best_move(values, n, rng)


cdef long long playout_state(CState* s, uint64_t seed, int policy, long long plies=-1) noexcept nogil:
    """Play to the end of the game with ``policy``, or at most ``plies`` moves when that is 0 or more; return
    the number of moves made.

    The moves are drawn from their own stream SplitMix64(seed); chance events
    keep using the state's ``rng``.  Policy 0 plays ``legal[next() % n]`` of
    the sorted legal list; policy 1, see ``choose_move``.  Stops early only
    on a state with no legal move, which the rules never produce.
    """
    cdef int32_t buf[MAX_ACTIONS]
    cdef int values[MAX_ACTIONS]
    cdef uint64_t rng = seed
    cdef long long moves = 0
    cdef int i, n
    while s.round != ROUND_OVER and moves != plies:
        i = choose_move(s, policy, &rng, buf, values, &n)
        if n == 0:
            break
        apply_move(s, buf[i])
        moves += 1
    return moves


# ---------------------------------------------------------------------------
# Rollouts cut short (search, not rules; docs/engine.md "Rollouts cut short")
# ---------------------------------------------------------------------------

DEF CUT_FEATURES = 11    # per color, see color_features
DEF CUT_WIDTH = 22       # per seat: the features of each of its colors (two with 2 players, R15.1)
DEF CUT_BUCKETS = 7      # the phases a model is fitted for, see cut_bucket

CUT_FEATURE_NAMES = ("banked", "scored_now", "islands", "bridges", "hand", "seats_to_move", "near_control",
                     "near_control_in_hand", "threatened_bridges", "buildable_links", "god_tokens")


cdef inline int cut_bucket(const CState* s) noexcept nogil:
    """The phase of a cut state.  Kanaloa: rounds 1 and 2 each in three parts by the cards left in the deck
    (more than 3/8 of all cards, more than 3/16, fewer), then the final round (6).  Kahuna: each of its three
    decks (R16.6) in two parts (more than half of all cards left, fewer; after a reshuffle, more than a
    quarter), then the final round (6)."""
    cdef int left = s.deck_end - s.deck_top, cards = s.board.n_cards
    if s.round == ROUND_FINAL or s.round == ROUND_OVER:
        return 6
    if s.game == GAME_KAHUNA:
        if s.round == ROUND_1:
            return 0 if 2 * left > cards else 1
        return (2 if s.round == ROUND_2 else 4) + (0 if 4 * left > cards else 1)
    return (0 if s.round == ROUND_1 else 3) + (0 if 8 * left > 3 * cards else (1 if 16 * left > 3 * cards else 2))


cdef inline int cut_colors_per_seat(int game, int players) noexcept nogil:
    return 2 if game == GAME_KANALOA and players == TWO_PLAYERS else 1


cdef void color_features(const CState* s, double* f) noexcept nogil:
    """``f[color * CUT_FEATURES + k]`` (``CUT_FEATURE_NAMES``): 0 points banked; 1 the points a scoring now
    would give (Kanaloa: R11 with its bonus; Kahuna: R16.7's difference of islands); 2 islands controlled;
    3 bridges; 4 cards in the hand of the color's seat; 5 seats until that seat moves; 6 islands one bridge
    short of the color's majority with a free link; 7 those of them the hand can build on now (a free link
    with an end it holds a card of, R4); 8 the color's bridges on islands another color is one bridge short
    of taking (R6 would sweep them); 9 free links the hand can build on; 10 unused god tokens (R14.2)."""
    cdef const BoardTables* b = s.board
    cdef int32_t now[MAX_COLORS]
    cdef uint64_t occ = occupied_links(s), free, payable
    cdef uint64_t reach[MAX_SEATS]
    cdef uint32_t near[MAX_COLORS]
    cdef uint32_t held, pairs
    cdef int c, o, x, k, n = s.n_colors, seat, size, cnt, top = 0
    cdef int ctrl[MAX_COLORS]
    for c in range(n):
        now[c] = 0
        near[c] = 0
        ctrl[c] = islands_controlled(s, c)
    for seat in range(s.n_players):
        held = islands_in_hand(s, seat, &pairs)
        reach[seat] = hand_reach(b, held, pairs, &payable)
    if s.game == GAME_KAHUNA:
        for c in range(n):
            if ctrl[c] > top:
                top = ctrl[c]
        for c in range(n):
            cnt = 0
            for o in range(n):
                if o != c and ctrl[o] > cnt:
                    cnt = ctrl[o]
            now[c] = ctrl[c] - cnt if ctrl[c] > cnt else 0
    else:
        island_points(s, 1, now)
    for x in range(b.n_islands):
        free = b.island_links[x] & ~occ
        if not free:
            continue
        size = b.island_size[x]
        for o in range(n):
            cnt = popcount(s.bridges[o] & b.island_links[x])
            if 2 * cnt <= size and 2 * (cnt + 1) > size:
                near[o] |= 1u << x
    for c in range(n):
        seat = s.seat_of_color[c]
        k = c * CUT_FEATURES
        f[k + 0] = s.scores[c]
        f[k + 1] = now[c]
        f[k + 2] = ctrl[c]
        f[k + 3] = popcount(s.bridges[c])
        f[k + 4] = s.hand_size[seat]
        f[k + 5] = (seat - s.to_move + s.n_players) % s.n_players
        f[k + 6] = popcount(near[c])
        cnt = 0
        held = near[c]
        while held:
            x = lowest_bit(held)
            held &= held - 1
            cnt += (b.island_links[x] & ~occ & reach[seat]) != 0
        f[k + 7] = cnt
        pairs = 0
        for o in range(n):
            if o != c:
                pairs |= near[o]
        cnt = 0
        while pairs:
            x = lowest_bit(pairs)
            pairs &= pairs - 1
            cnt += popcount(s.bridges[c] & b.island_links[x])
        f[k + 8] = cnt
        f[k + 9] = popcount(reach[seat] & b.all_links & ~occ)
        f[k + 10] = 0
        if s.gods:
            for o in range(GOD_KINDS):
                f[k + 10] += s.gods_owned[seat][o]


cdef int cut_features(const CState* s, const double* g, double* f) noexcept nogil:
    """``f[seat * width + k]``, the features a model weighs for each seat, from ``g``, the state's
    ``color_features``; return ``width``.  With one color a seat, its color's; with two (R15.1), those of the
    color with fewer points (banked plus a scoring now; the first color on a tie) and then the other's, as
    R15.5 ranks a player by the weaker."""
    cdef int seat, c, k, a, bb, per = cut_colors_per_seat(s.game, s.n_players)
    for seat in range(s.n_players):
        if per == 1:
            c = s.color_of_seat[seat]
            for k in range(CUT_FEATURES):
                f[seat * CUT_FEATURES + k] = g[c * CUT_FEATURES + k]
            continue
        a = seat
        bb = seat + s.n_players
        if g[bb * CUT_FEATURES] + g[bb * CUT_FEATURES + 1] < g[a * CUT_FEATURES] + g[a * CUT_FEATURES + 1]:
            a, bb = bb, a
        for k in range(CUT_FEATURES):
            f[seat * 2 * CUT_FEATURES + k] = g[a * CUT_FEATURES + k]
            f[seat * 2 * CUT_FEATURES + CUT_FEATURES + k] = g[bb * CUT_FEATURES + k]
    return per * CUT_FEATURES


cdef class CutModel:
    """What a rollout cut short is worth: for each phase (``cut_bucket``), weights of each seat's features
    (``cut_features``: ``width`` numbers a seat).

    ``win[b]`` (``width`` numbers): a seat's win chance is the softmax over the
    seats of the weighted sum of its features.  ``points[b]`` (``CUT_FEATURES``
    + 1, the last a constant): a color's expected final points, from its own
    ``color_features``.  ``players``, ``game`` (``GAME_KANALOA``
    or ``GAME_KAHUNA``) and ``gods``: the games it was fitted for.  Fitted from
    the heuristic policy's own games (``kanaloa.tools.cutfit``).
    """

    cdef double win[CUT_BUCKETS][CUT_WIDTH]
    cdef double points[CUT_BUCKETS][CUT_FEATURES + 1]
    cdef readonly int players
    cdef readonly int game
    cdef readonly bint gods
    cdef readonly int width

    def __init__(self, players, win, points, game=GAME_KANALOA, gods=False):
        cdef int b, k
        self.game = _as_int(game, "game", GAME_KANALOA, GAME_KAHUNA)
        if not isinstance(gods, bool):
            raise ValueError(f"gods: must be true or false, not {gods!r}")
        self.gods = gods
        if self.game == GAME_KAHUNA and gods:
            raise ValueError("gods: Kahuna has no gods (R16)")
        self.players = _as_int(players, "players", TWO_PLAYERS, MAX_SEATS)
        if self.game == GAME_KAHUNA and self.players != TWO_PLAYERS:
            raise ValueError("players: Kahuna is for 2 players (R16.1)")
        self.width = CutModel.shape(self.game, self.players)[1]
        for name, rows, width in (("win", win, self.width), ("points", points, CUT_FEATURES + 1)):
            if not isinstance(rows, (list, tuple)) or len(rows) != CUT_BUCKETS:
                raise ValueError(f"{name}: must be {CUT_BUCKETS} rows")
            for b, row in enumerate(rows):
                if not isinstance(row, (list, tuple)) or len(row) != width:
                    raise ValueError(f"{name}[{b}]: must be {width} numbers")
                for k, x in enumerate(row):
                    if isinstance(x, bool) or not isinstance(x, (int, float)) or x != x or abs(x) > 1e6:
                        raise ValueError(f"{name}[{b}][{k}]: must be a finite number, not {x!r}")
                    if name == "win":
                        self.win[b][k] = x
                    else:
                        self.points[b][k] = x

    @staticmethod
    def shape(game=GAME_KANALOA, players=4):
        """(buckets, width): the rows a model of ``game`` with ``players`` has and the features each row weighs
        per seat (``CUT_FEATURES`` per color of the seat)."""
        return CUT_BUCKETS, cut_colors_per_seat(game, players) * CUT_FEATURES

    @staticmethod
    def feature_names(game=GAME_KANALOA, players=4):
        """The names of the ``width`` features a seat has, in order (``weak_``/``strong_`` with two colors)."""
        if cut_colors_per_seat(game, players) == 1:
            return list(CUT_FEATURE_NAMES)
        return [f"weak_{n}" for n in CUT_FEATURE_NAMES] + [f"strong_{n}" for n in CUT_FEATURE_NAMES]


cdef void cut_estimate(const CState* s, CutModel model, double* chances, double* expected) noexcept:
    """The model's win chance for each seat of ``s`` and expected final points for each color."""
    cdef double f[MAX_SEATS * CUT_WIDTH]
    cdef double g[MAX_COLORS * CUT_FEATURES]
    cdef double top = -1e300, total = 0.0, v, x
    cdef int seat, c, k, w, bucket = cut_bucket(s)
    color_features(s, g)
    w = cut_features(s, g, f)
    for c in range(s.n_colors):
        x = model.points[bucket][CUT_FEATURES]
        for k in range(CUT_FEATURES):
            x += model.points[bucket][k] * g[c * CUT_FEATURES + k]
        expected[c] = x
    for seat in range(s.n_players):
        v = 0.0
        for k in range(w):
            v += model.win[bucket][k] * f[seat * w + k]
        chances[seat] = v
        if v > top:
            top = v
    for seat in range(s.n_players):
        chances[seat] = exp(chances[seat] - top)
        total += chances[seat]
    for seat in range(s.n_players):
        chances[seat] /= total


# ---------------------------------------------------------------------------
# Kahuna (R16; docs/engine.md "Kahuna")
# ---------------------------------------------------------------------------

cdef inline bint kahuna_may_draw(const CState* s, int seat) noexcept nogil:
    """R16.5: a hand of 5 cannot draw."""
    return s.hand_size[seat] < KAHUNA_HAND


cdef int kahuna_moves(const CState* s, int32_t* out, int* values) noexcept nogil:
    """Kahuna's legal actions of the player to move into ``out`` (ascending); return how many.

    Places (R16.3; only with a bridge in stock, R16.1), removals paid with two
    cards naming the ends of an opponent's link, face-down discards (a turn
    begun with 5 cards and nothing played, and after a discard), takes and
    draws below 5 cards, and ``END`` (skipping the draw, refused right after
    the opponent skipped, R16.5; in the final round, ending the last turn).
    """
    cdef const BoardTables* b = s.board
    cdef int n = 0, seat = s.to_move, k, lo, hi, x
    cdef const uint8_t* hand = s.hands[seat]
    cdef uint64_t bits, reach = 0
    cdef uint32_t held, pairs, seen
    cdef bint discards
    held = islands_in_hand(s, seat, &pairs)
    if not s.discarded:
        seen = held
        while seen:
            reach |= b.island_links[lowest_bit(seen)]
            seen &= seen - 1
        if popcount(s.bridges[seat]) < KAHUNA_BRIDGES:
            bits = reach & b.all_links & ~occupied_links(s)
            while bits:
                k = lowest_bit(bits)
                bits &= bits - 1
                lo = b.link_lo[k]
                hi = b.link_hi[k]
                n = emit(out, NULL, n, encode(PLACE, k, lo), 0, hand[lo] != 0)
                n = emit(out, NULL, n, encode(PLACE, k, hi), 0, hand[hi] != 0)
        bits = reach & s.bridges[1 - seat]
        while bits:
            k = lowest_bit(bits)
            bits &= bits - 1
            lo = b.link_a[k]
            hi = b.link_b[k]
            n = emit(out, NULL, n, encode(REMOVE, k, SWAP_AA), 0, hand[lo] >= 2)
            n = emit(out, NULL, n, encode(REMOVE, k, SWAP_AB), 0, (hand[lo] != 0) & (hand[hi] != 0))
            n = emit(out, NULL, n, encode(REMOVE, k, SWAP_BB), 0, hand[hi] >= 2)
        if s.round == ROUND_FINAL:
            n = emit(out, NULL, n, encode(END, 0, 0), 0, True)
            if values:
                value_moves(s, out, n, values)
            return n
        discards = s.played == 0 and s.hand_size[seat] == KAHUNA_HAND
    else:
        discards = True
    if discards:
        seen = held
        while seen:
            n = emit(out, NULL, n, encode(DISCARD, lowest_bit(seen), 0), 0, True)
            seen &= seen - 1
    if kahuna_may_draw(s, seat):
        n = draw_moves(s, out, n, NULL, 0)
    if not s.discarded and not s.skipped:
        n = emit(out, NULL, n, encode(END, 0, 0), 0, True)
    if values:
        value_moves(s, out, n, values)
    return n


cdef void kahuna_check_bridges(CState* s) noexcept nogil:
    """R16.8: after the first scoring, a seat with no bridge on the board loses at once (both
    without one: the game ends with no winner)."""
    cdef bint none0, none1
    if s.round != ROUND_2 and s.round != ROUND_3 and s.round != ROUND_FINAL:
        return
    none0 = s.bridges[0] == 0
    none1 = s.bridges[1] == 0
    if not (none0 or none1):
        return
    if none0 and none1:
        s.winner = -1
        s.ranking[0] = 0
        s.ranking[1] = 1
    else:
        s.winner = 1 if none0 else 0
        s.ranking[0] = s.winner
        s.ranking[1] = 1 - s.winner
    s.n_ranking = 2
    s.reason = REASON_NO_BRIDGES
    s.round = ROUND_OVER


cdef void kahuna_interim_scoring(CState* s, int points) noexcept nogil:
    """R16.6: the seat controlling more islands scores ``points``; a tie scores nothing."""
    cdef int a = islands_controlled(s, 0), b = islands_controlled(s, 1)
    if a > b:
        s.scores[0] += points
    elif b > a:
        s.scores[1] += points


cdef void kahuna_end_turn(CState* s, bint skipped) noexcept nogil:
    """After a take, a draw or a skipped draw: a run-out scores and reshuffles (R16.6) or, the third
    time, begins the final round (R16.7); then the other seat moves; then R16.8."""
    s.played = 0
    s.discarded = False
    s.skipped = skipped
    while s.deck_top == s.deck_end and s.n_face_up == 0:
        if s.round == ROUND_1 or s.round == ROUND_2:
            kahuna_interim_scoring(s, 1 if s.round == ROUND_1 else 2)
            reshuffle(s)
            s.round = ROUND_2 if s.round == ROUND_1 else ROUND_3
        else:
            s.round = ROUND_FINAL
            s.n_done = 0
            s.n_passed = 0
            break
    s.to_move = 1 - s.to_move
    kahuna_check_bridges(s)


cdef void kahuna_end_final_turn(CState* s) noexcept nogil:
    """R16.7: after both final turns, the seat controlling more islands scores the difference; most
    points wins, then the final scoring's points, then, both at 0 points, more bridges."""
    cdef int seat = s.to_move, c0, c1, f0, f1, w = -1
    if not seat_done(s, seat):
        s.final_done[s.n_done] = seat
        s.n_done += 1
    s.played = 0
    if s.n_done < 2:
        s.to_move = 1 - seat
        return
    c0 = islands_controlled(s, 0)
    c1 = islands_controlled(s, 1)
    f0 = c0 - c1 if c0 > c1 else 0
    f1 = c1 - c0 if c1 > c0 else 0
    s.scores[0] += f0
    s.scores[1] += f1
    if s.scores[0] != s.scores[1]:
        w = 0 if s.scores[0] > s.scores[1] else 1
    elif f0 != f1:
        w = 0 if f0 > f1 else 1
    elif s.scores[0] == 0 and popcount(s.bridges[0]) != popcount(s.bridges[1]):
        w = 0 if popcount(s.bridges[0]) > popcount(s.bridges[1]) else 1
    s.winner = w
    s.ranking[0] = w if w >= 0 else 0
    s.ranking[1] = 1 - s.ranking[0]
    s.n_ranking = 2
    s.reason = REASON_POINTS
    s.round = ROUND_OVER


cdef void kahuna_apply(CState* s, int32_t action) noexcept nogil:
    """Apply a legal Kahuna action (docs/engine.md "Kahuna"); unchecked, as ``apply_move``."""
    cdef const BoardTables* b = s.board
    cdef int kind = action >> 16, a = (action >> 8) & 0xFF, arg = action & 0xFF
    cdef int seat = s.to_move, e, island, n
    cdef uint64_t links
    if kind == PLACE:
        pay_card(s, seat, arg)
        s.bridges[seat] |= 1ULL << a
        for e in range(2):
            island = b.link_lo[a] if e == 0 else b.link_hi[a]
            links = b.island_links[island]
            n = popcount(s.bridges[seat] & links)
            if 2 * n > b.island_size[island] and 2 * (n - 1) <= b.island_size[island]:
                s.bridges[1 - seat] &= ~links  # R16.4: control gained sweeps the opponent's bridges
        kahuna_check_bridges(s)
    elif kind == REMOVE:
        # R16.3: two cards naming the link's ends, in combo order, remove the opponent's bridge.
        pay_card(s, seat, b.link_a[a] if arg != SWAP_BB else b.link_b[a])
        pay_card(s, seat, b.link_b[a] if arg != SWAP_AA else b.link_a[a])
        s.bridges[1 - seat] &= ~(1ULL << a)
        kahuna_check_bridges(s)
    elif kind == DISCARD:
        discard_card(s, seat, a)
    elif kind == TAKE:
        take_card(s, seat, a)
        kahuna_end_turn(s, False)
    elif kind == DRAW:
        draw_card(s, seat)
        kahuna_end_turn(s, False)
    elif kind == END:
        if s.round == ROUND_FINAL:
            kahuna_end_final_turn(s)
        else:
            kahuna_end_turn(s, True)


# Kahuna's heuristic scores (the playout policy and the search's priors): control counts, not links.
cdef enum:
    KAHUNA_VALUE_WIN = 100      # R16.8: the move leaves the opponent without a bridge
    KAHUNA_VALUE_SKIP = -1      # drawing is usually worth more than skipping


cdef int kahuna_island_gain(const CState* s, int seat, int island, uint64_t occupied) noexcept nogil:
    """What one more bridge of ``seat`` on ``island`` is worth: control gained (plus the sweep), a
    step towards it, or a spare bridge on an island already held (a removal then costs no control)."""
    cdef uint64_t links = s.board.island_links[island]
    cdef int size = s.board.island_size[island]
    cdef int n = popcount(s.bridges[seat] & links), rivals = popcount(s.bridges[1 - seat] & links)
    if 2 * n > size:
        return 1 if 2 * (n - 1) <= size else VALUE_OWN_ISLAND
    if 2 * (n + 1) > size:
        return VALUE_TAKEOVER + VALUE_SWEPT * rivals
    return VALUE_PER_BRIDGE * n - (VALUE_PER_BRIDGE * rivals if 2 * rivals > size - 2 else 0)


cdef int kahuna_value(const CState* s, int32_t action) noexcept nogil:
    """The heuristic score of a legal Kahuna ``action`` for the player to move."""
    cdef const BoardTables* b = s.board
    cdef int kind = action >> 16, a = (action >> 8) & 0xFF, seat = s.to_move, v, e, island, cnt
    cdef uint64_t occupied, swept = 0, links, opp = s.bridges[1 - seat]
    if kind == PLACE:
        occupied = occupied_links(s)
        v = 0
        for e in range(2):
            island = b.link_lo[a] if e == 0 else b.link_hi[a]
            links = b.island_links[island]
            v += kahuna_island_gain(s, seat, island, occupied)
            cnt = popcount(s.bridges[seat] & links) + 1
            if 2 * cnt > b.island_size[island] and 2 * (cnt - 1) <= b.island_size[island]:
                swept |= opp & links
        if s.round != ROUND_1 and opp and swept == opp:
            v += KAHUNA_VALUE_WIN
        return v
    if kind == REMOVE:
        v = VALUE_RIVAL_LOSS + VALUE_SECOND_CARD
        for e in range(2):
            island = b.link_lo[a] if e == 0 else b.link_hi[a]
            v += control_lost(s, 1 - seat, island)
        if s.round != ROUND_1 and popcount(opp) == 1:
            v += KAHUNA_VALUE_WIN
        return v
    if kind == TAKE:
        return take_value(s, a, occupied_links(s))
    if kind == DRAW:
        return VALUE_DRAW
    if kind == DISCARD:
        return VALUE_DISCARD
    return KAHUNA_VALUE_SKIP if s.round != ROUND_FINAL else VALUE_END



# ---------------------------------------------------------------------------
# Might of the Gods (R14; docs/engine.md "Might of the Gods")
# ---------------------------------------------------------------------------

cdef inline void sort_moves(int32_t* out, int n) noexcept nogil:
    """Insertion sort of a nearly sorted move list."""
    cdef int i, j
    cdef int32_t t
    for i in range(1, n):
        t = out[i]
        j = i - 1
        while j >= 0 and out[j] > t:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = t


cdef inline bint may_use_tokens(const CState* s) noexcept nogil:
    """R14.4: in round 2, in the play phase (no discard made, no R7 removal pending)."""
    return s.round == ROUND_2 and not s.discarded and s.n_remove == 0


cdef int joker_builds(const CState* s, int32_t* out, int n, int c, int32_t flag) noexcept nogil:
    """R14.5: the builds KANALOA pays for, with color ``c`` (slot ``flag``), appended to ``out[:n]``."""
    cdef const BoardTables* b = s.board
    cdef int seat = s.to_move, k, owned = s.gods_owned[seat][GOD_KANALOA]
    cdef const uint8_t* hand = s.hands[seat]
    cdef uint64_t occ = occupied_links(s), bits
    if owned == 0 or not has_stock(s, c):
        return n
    bits = b.all_links & ~occ
    while bits:
        k = lowest_bit(bits)
        bits &= bits - 1
        out[n] = encode(PLACE, k, JOKER) | flag
        n += 1
    bits = occ & ~s.bridges[c]
    while bits:
        k = lowest_bit(bits)
        bits &= bits - 1
        n = emit(out, NULL, n, encode(SWAP, k, SWAP_JA) | flag, 0, hand[b.link_a[k]] != 0)
        n = emit(out, NULL, n, encode(SWAP, k, SWAP_JB) | flag, 0, hand[b.link_b[k]] != 0)
        n = emit(out, NULL, n, encode(SWAP, k, SWAP_JJ) | flag, 0, owned >= 2)
    return n


cdef int gods_moves(const CState* s, int32_t* out, int* values) noexcept nogil:
    """The legal moves of a game with the gods (docs/engine.md "Might of the Gods", "Legal moves")."""
    cdef int n = 0, seat = s.to_move, x, t, c
    cdef const uint8_t* hand = s.hands[seat]
    if s.ku_target >= 0:
        # R14.6: take one card of the hand KU showed.
        for x in range(s.board.n_islands):
            n = emit(out, NULL, n, encode(STEAL, x, 0), 0, s.hands[s.ku_target][x] != 0)
    elif s.n_gifts > 0:
        # R14.7: give one card to the next player PELE took from.
        for x in range(s.board.n_islands):
            n = emit(out, NULL, n, encode(GIVE, x, s.pele_gifts[0]), 0, hand[x] != 0)
    elif s.lono_draw:
        n = draw_moves(s, out, n, NULL, 0)  # R14.8: LONO's extra card, a face-up card or the deck's top
    elif s.discarded and s.hand_size[seat] > HAND_LIMIT:
        # R14.9: after a discard the hand goes on down to 4, one card at a time.
        for x in range(s.board.n_islands):
            n = emit(out, NULL, n, encode(DISCARD, x, 0), 0, hand[x] != 0)
    else:
        n = base_moves(s, out, NULL)
        if may_use_tokens(s):
            if s.n_colors != s.n_players:  # R15.3: the open colors of a 2-player turn
                for t in range(2):
                    c = seat + TWO_PLAYERS * t
                    if s.turn_color == NO_COLOR or s.turn_color == c:
                        n = joker_builds(s, out, n, c, SLOT_FLAG * t)
            else:
                n = joker_builds(s, out, n, s.color_of_seat[seat], 0)
            if s.gods_owned[seat][GOD_KU]:
                for t in range(s.n_players):
                    n = emit(out, NULL, n, encode(KU, t, 0), 0, t != seat and s.hand_size[t] > 0)
            if s.gods_owned[seat][GOD_PELE]:
                for t in range(s.n_players):
                    if t != seat and s.hand_size[t] > 0:
                        out[n] = encode(PELE, 0, 0)
                        n += 1
                        break
            if s.gods_owned[seat][GOD_LONO] and (s.deck_top < s.deck_end or s.n_face_up > 0):
                out[n] = encode(LONO, 0, 0)
                n += 1
            if s.over_limit and s.played > 0 and s.hand_size[seat] > HAND_LIMIT:
                for x in range(s.board.n_islands):  # R14.9: a discard even after playing cards
                    n = emit(out, NULL, n, encode(DISCARD, x, 0), 0, hand[x] != 0)
        if (s.round == ROUND_2 and s.n_remove == 0 and s.deck_top == s.deck_end and s.n_face_up == 0
                and s.hand_size[seat] <= HAND_LIMIT):
            out[n] = encode(END, 0, 0)  # R14.8: LONO emptied the deck and the row, so no draw ends the turn
            n += 1
        sort_moves(out, n)
    if values:
        value_moves(s, out, n, values)
    return n


cdef inline void check_over_limit(CState* s) noexcept nogil:
    """R14.9: a token use that left the hand above 4 opens the discard even after playing cards."""
    if s.hand_size[s.to_move] > HAND_LIMIT:
        s.over_limit = True


cdef void gods_apply(CState* s, int32_t action) noexcept nogil:
    """Apply the actions only the gods have (KU, STEAL, PELE, GIVE, LONO)."""
    cdef int kind = action >> 16, a = (action >> 8) & 0xFF, seat = s.to_move, i, v, r, x
    if kind == KU:
        s.gods_owned[seat][GOD_KU] -= s.gods_owned[seat][GOD_KU] != 0
        for x in range(GODS_ISLANDS):
            s.known[seat][a][x] = s.hands[a][x]  # R14.6: the whole hand is shown to the user
        s.ku_target = a
    elif kind == STEAL:
        move_card_seen(s, s.ku_target, seat, a)
        s.ku_target = -1
        check_over_limit(s)
    elif kind == PELE:
        s.gods_owned[seat][GOD_PELE] -= s.gods_owned[seat][GOD_PELE] != 0
        s.n_gifts = 0
        for i in range(1, s.n_players):
            v = (seat + i) % s.n_players
            if s.hand_size[v] == 0:
                continue
            r = sm_below(&s.rng, s.hand_size[v])  # R14.7: a card at random, from the chance stream
            x = 0
            while r >= s.hands[v][x]:
                r -= s.hands[v][x]
                x += 1
            move_card_seen(s, v, seat, x)
            s.pele_gifts[s.n_gifts] = v
            s.n_gifts += 1
    elif kind == GIVE:
        if s.n_gifts > 0:
            move_card_seen(s, seat, s.pele_gifts[0], a)
            for i in range(1, s.n_gifts):
                s.pele_gifts[i - 1] = s.pele_gifts[i]
            s.n_gifts -= 1
            if s.n_gifts == 0:
                check_over_limit(s)
    elif kind == LONO:
        s.gods_owned[seat][GOD_LONO] -= s.gods_owned[seat][GOD_LONO] != 0
        s.lono_draw = True


# ---------------------------------------------------------------------------
# Determinisation (docs/engine.md "Knowledge")
# ---------------------------------------------------------------------------

cdef inline int sure_of(const CState* s, int viewer, int seat, int x) noexcept nogil:
    """How many cards of ``x`` ``viewer`` knows to be in ``seat``'s hand: the public ones, or with the gods the
    viewer's own knowledge (R14.10)."""
    return s.known[viewer][seat][x] if s.gods else s.public_cards[seat][x]


cdef void determinise_state(CState* out, const CState* s, int viewer, uint64_t seed,
                            bint use_pile=True) noexcept nogil:
    """``out`` = ``s`` with every card ``viewer`` cannot see dealt afresh from SplitMix64(seed).

    The unknown pool (other hands beyond their public part, other seats' setup
    choices and face-down discards, the deck) is gathered as counts per island,
    so its order in ``s`` cannot leak; it is listed in island order, shuffled,
    and dealt back into the same slots in the documented order.

    After a reshuffle the viewer knows which cards went into the deck (``pile``, ``pile_unseen``): the deck
    is then dealt first, from those cards (docs/engine.md "What a reshuffle reveals"), and the rest of the
    pool goes to the other slots.  ``use_pile`` False ignores that knowledge (the earlier engine).
    """
    cdef uint8_t cards[MAX_CARDS]
    cdef uint8_t inn[MAX_CARDS]
    cdef uint8_t rest[MAX_CARDS]
    cdef int pool[MAX_ISLANDS]
    cdef int n_isl = s.board.n_islands, seat, x, i, n = 0, j = 0, unknown
    cdef int n_in = 0, n_rest = 0, k, d = s.deck_end - s.deck_top, from_rest
    cdef bint knows_pile = False
    cdef uint64_t rng = seed
    out[0] = s[0]
    for x in range(n_isl):
        pool[x] = 0
    for seat in range(s.n_players):
        if seat == viewer:
            continue
        for x in range(n_isl):
            pool[x] += s.hands[seat][x] - sure_of(s, viewer, seat, x) + s.hidden_by[seat][x]
        if s.setup_chosen[seat] != NO_CARD:
            pool[s.setup_chosen[seat]] += 1
    for i in range(s.deck_top, s.deck_end):
        pool[s.deck[i]] += 1
    if d > 0 and use_pile:
        knows_pile = s.pile_unseen[viewer] != 0
        for x in range(n_isl):
            knows_pile |= s.pile[viewer][x] != 0
    if not knows_pile:
        for x in range(n_isl):
            for i in range(pool[x]):
                cards[n] = x
                n += 1
        shuffle_cards(cards, n, &rng)
    else:
        # The cards the viewer saw go into the deck, as many as are still unknown to it, and as many of the
        # others as it could not see go in: the deck is drawn from these, topped up from the rest if short.
        for x in range(n_isl):
            k = s.pile[viewer][x] if s.pile[viewer][x] < pool[x] else pool[x]
            for i in range(k):
                inn[n_in] = x
                n_in += 1
            for i in range(pool[x] - k):
                rest[n_rest] = x
                n_rest += 1
        shuffle_cards(rest, n_rest, &rng)
        for i in range(s.pile_unseen[viewer] if s.pile_unseen[viewer] < n_rest else n_rest):
            n_rest -= 1
            inn[n_in] = rest[n_rest]
            n_in += 1
        shuffle_cards(inn, n_in, &rng)
        k = d if d < n_in else n_in  # deck cards from inn; the other d - k from the end of rest
        from_rest = d - k
        for i in range(n_rest - from_rest):
            cards[n] = rest[i]
            n += 1
        for i in range(k, n_in):
            cards[n] = inn[i]
            n += 1
        shuffle_cards(cards, n, &rng)  # everything but the deck, to be dealt below
        for i in range(k):
            cards[n] = inn[i]
            n += 1
        for i in range(n_rest - from_rest, n_rest):
            cards[n] = rest[i]
            n += 1
        shuffle_cards(&cards[n - d], d, &rng)
    # Other hands, seat order: the public part stays, the rest is dealt.
    for seat in range(s.n_players):
        if seat == viewer:
            continue
        unknown = s.hand_size[seat]
        for x in range(n_isl):
            out.hands[seat][x] = sure_of(s, viewer, seat, x)
            unknown -= out.hands[seat][x]
        for i in range(unknown):
            out.hands[seat][cards[j]] += 1
            j += 1
    for seat in range(MAX_SEATS):  # (bounded by the array, not n_players, for the compiler's sake)
        if seat < s.n_players and seat != viewer and s.setup_chosen[seat] != NO_CARD:
            out.setup_chosen[seat] = cards[j]
            j += 1
    for seat in range(s.n_players):
        if seat == viewer:
            continue
        unknown = 0
        for x in range(n_isl):
            unknown += s.hidden_by[seat][x]
            out.hidden_by[seat][x] = 0
        for i in range(unknown):
            out.hidden_by[seat][cards[j]] += 1
            j += 1
    out.deck_top = 0
    out.deck_end = n - j
    for i in range(n - j):
        out.deck[i] = cards[j + i]
    out.rng = sm_next(&rng)
    # What the others saw go into the deck includes their own face-down discards: not the viewer's to know.
    for i in range(s.n_players):
        if i != viewer:
            out.pile_unseen[i] = 0
            for x in range(n_isl):
                out.pile[i][x] = 0
    if s.gods:
        # R14.10: what another observer knows of a third hand is its own, not the viewer's: in the sample it is
        # the public part.  What others know of the viewer's hand the viewer saw them learn, so it stays.
        for i in range(s.n_players):
            if i == viewer:
                continue
            for seat in range(s.n_players):
                if seat != viewer and seat != i:
                    for x in range(GODS_ISLANDS):
                        out.known[i][seat][x] = s.public_cards[seat][x]


# ---------------------------------------------------------------------------
# Learning: a viewer's observation as numbers, the actions numbered densely (kanaloa.pettingzoo)
# ---------------------------------------------------------------------------

# An observation is one flat float32 array of fields, each a block of numbers about one thing, laid out in
# the order of OBS_FIELD_NAMES; a field a rule set lacks (the gods' without the variant, the turn color
# without pairs) has no numbers.  Every seat and color is counted from the viewer: seat ``(viewer + r) %
# players`` is the viewer's r-th, and a color of that seat in slot k (R15.1) is ``k * players + r``.  What
# a field holds is in docs/pettingzoo.md; it holds exactly what the viewer knows (docs/engine.md
# "Knowledge"), and nothing it cannot know.

cdef enum:
    OBS_BRIDGES = 0
    OBS_HAND
    OBS_HAND_PUBLIC
    OBS_KNOWN_HANDS
    OBS_HAND_SIZES
    OBS_FACE_UP
    OBS_OPEN_DISCARDS
    OBS_OWN_HIDDEN
    OBS_HIDDEN_OTHERS
    OBS_DECK_SIZE
    OBS_DECK_KNOWN
    OBS_DECK_UNSEEN
    OBS_SETUP_CARD
    OBS_SETUP_DONE
    OBS_SCORES
    OBS_ROUND
    OBS_TO_MOVE
    OBS_PLAYED
    OBS_DISCARDED
    OBS_SKIPPED
    OBS_REMOVALS
    OBS_FINAL_DONE
    OBS_FINAL_PASSED
    OBS_WINNER
    OBS_TURN_COLOR          # R15.3, where each player plays two colors
    OBS_GOD_TOKENS          # R14, with the gods only from here on
    OBS_GODS_OWNED
    OBS_PUBLIC_HANDS
    OBS_KNOWN_BY_OTHERS
    OBS_KU_TARGET
    OBS_PELE_GIFTS
    OBS_LONO_DRAW
    OBS_OVER_LIMIT
    OBS_N_FIELDS
    OBS_ROUNDS = 6          # ROUND_SETUP ... ROUND_3
    MAX_UNIVERSE = 1024     # action codes a rule set may number (806 with two players and the gods)

OBS_FIELD_NAMES = ("bridges", "hand", "hand_public", "known_hands", "hand_sizes", "face_up", "open_discards",
                   "own_hidden", "hidden_others", "deck_size", "deck_known", "deck_unseen", "setup_card",
                   "setup_done", "scores", "round", "to_move", "played", "discarded", "skipped", "removals",
                   "final_done", "final_passed", "winner", "turn_color", "god_tokens", "gods_owned",
                   "public_hands", "known_by_others", "ku_target", "pele_gifts", "lono_draw", "over_limit")


ctypedef struct ObsLayout:
    int at[OBS_N_FIELDS + 1]   # where each field starts; at[OBS_N_FIELDS] is the size
    int size


cdef void obs_layout(ObsLayout* L, int n_islands, int n_links, int players, int colors, int face_up_cap,
                     bint gods) noexcept nogil:
    """The fields' places in the observation of a game of this shape (module section above)."""
    cdef int sizes[OBS_N_FIELDS]
    cdef int f, at = 0, n = n_islands, p = players
    sizes[OBS_BRIDGES] = colors * n_links
    sizes[OBS_HAND] = n
    sizes[OBS_HAND_PUBLIC] = n
    sizes[OBS_KNOWN_HANDS] = (p - 1) * n
    sizes[OBS_HAND_SIZES] = p
    sizes[OBS_FACE_UP] = face_up_cap * n
    sizes[OBS_OPEN_DISCARDS] = n
    sizes[OBS_OWN_HIDDEN] = n
    sizes[OBS_HIDDEN_OTHERS] = 1
    sizes[OBS_DECK_SIZE] = 1
    sizes[OBS_DECK_KNOWN] = n
    sizes[OBS_DECK_UNSEEN] = 1
    sizes[OBS_SETUP_CARD] = n
    sizes[OBS_SETUP_DONE] = p
    sizes[OBS_SCORES] = colors
    sizes[OBS_ROUND] = OBS_ROUNDS
    sizes[OBS_TO_MOVE] = p
    sizes[OBS_PLAYED] = 1
    sizes[OBS_DISCARDED] = 1
    sizes[OBS_SKIPPED] = 1
    sizes[OBS_REMOVALS] = MAX_PENDING * n
    sizes[OBS_FINAL_DONE] = p
    sizes[OBS_FINAL_PASSED] = p
    sizes[OBS_WINNER] = p
    sizes[OBS_TURN_COLOR] = colors // p if colors != p else 0
    sizes[OBS_GOD_TOKENS] = n * GOD_KINDS if gods else 0
    sizes[OBS_GODS_OWNED] = p * GOD_KINDS if gods else 0
    sizes[OBS_PUBLIC_HANDS] = (p - 1) * n if gods else 0
    sizes[OBS_KNOWN_BY_OTHERS] = (p - 1) * n if gods else 0
    sizes[OBS_KU_TARGET] = p if gods else 0
    sizes[OBS_PELE_GIFTS] = (p - 1) * p if gods else 0
    sizes[OBS_LONO_DRAW] = 1 if gods else 0
    sizes[OBS_OVER_LIMIT] = 1 if gods else 0
    for f in range(OBS_N_FIELDS):
        L.at[f] = at
        at += sizes[f]
    L.at[OBS_N_FIELDS] = at
    L.size = at


cdef inline void state_layout(const CState* s, ObsLayout* L) noexcept nogil:
    obs_layout(L, s.board.n_islands, s.board.n_links, s.n_players, s.n_colors, s.face_up_cap, s.gods)


cdef void observe_state(const CState* s, const ObsLayout* L, int v, float* out) noexcept nogil:
    """Write what seat ``v`` knows of ``s`` into ``out[:L.size]`` (the fields of OBS_FIELD_NAMES).

    What ``v`` cannot know (the other hands beyond what it knows of them, the deck's order, the others'
    face-down discards and setup choices, what the others know of a third hand) is never read."""
    cdef const BoardTables* b = s.board
    cdef int n = b.n_islands, p = s.n_players, r, t, x, c, i, k
    cdef uint64_t bits
    cdef float* o
    memset(out, 0, L.size * sizeof(float))
    # relative seat of t: (t - v + p) % p; relative color of c: (c // p) * p + relative seat of (c % p)
    o = out + L.at[OBS_BRIDGES]
    for c in range(s.n_colors):
        k = (c // p) * p + (c % p - v + p) % p
        bits = s.bridges[c]
        while bits:
            o[k * b.n_links + lowest_bit(bits)] = 1.0
            bits &= bits - 1
    for x in range(n):
        out[L.at[OBS_HAND] + x] = s.hands[v][x]
        out[L.at[OBS_HAND_PUBLIC] + x] = s.public_cards[v][x]
        out[L.at[OBS_OWN_HIDDEN] + x] = s.hidden_by[v][x]
    for r in range(1, p):
        t = (v + r) % p
        o = out + L.at[OBS_KNOWN_HANDS] + (r - 1) * n
        for x in range(n):
            o[x] = sure_of(s, v, t, x)  # the public part, or with the gods what v knows (R14.10)
            out[L.at[OBS_HIDDEN_OTHERS]] += s.hidden_by[t][x]
        if s.gods:
            o = out + L.at[OBS_PUBLIC_HANDS] + (r - 1) * n
            for x in range(n):
                o[x] = s.public_cards[t][x]
            o = out + L.at[OBS_KNOWN_BY_OTHERS] + (r - 1) * n
            for x in range(n):
                o[x] = s.known[t][v][x]
    for t in range(p):
        r = (t - v + p) % p
        out[L.at[OBS_HAND_SIZES] + r] = s.hand_size[t]
        if s.setup_chosen[t] != NO_CARD:
            out[L.at[OBS_SETUP_DONE] + r] = 1.0
        if s.gods:
            for k in range(GOD_KINDS):
                out[L.at[OBS_GODS_OWNED] + r * GOD_KINDS + k] = s.gods_owned[t][k]
    for i in range(s.n_face_up):
        out[L.at[OBS_FACE_UP] + i * n + s.face_up[i]] = 1.0
    for i in range(s.n_open):
        out[L.at[OBS_OPEN_DISCARDS] + s.discard_open[i]] += 1.0
    out[L.at[OBS_DECK_SIZE]] = s.deck_end - s.deck_top
    if s.round != ROUND_OVER:  # what v saw go into the deck (docs/engine.md "What a reshuffle reveals")
        for x in range(n):
            out[L.at[OBS_DECK_KNOWN] + x] = s.pile[v][x]
        out[L.at[OBS_DECK_UNSEEN]] = s.pile_unseen[v]
    if s.setup_chosen[v] != NO_CARD:
        out[L.at[OBS_SETUP_CARD] + s.setup_chosen[v]] = 1.0
    for c in range(s.n_colors):
        out[L.at[OBS_SCORES] + (c // p) * p + (c % p - v + p) % p] = s.scores[c]
    out[L.at[OBS_ROUND] + s.round] = 1.0
    if s.round != ROUND_OVER:
        out[L.at[OBS_TO_MOVE] + (s.to_move - v + p) % p] = 1.0
    out[L.at[OBS_PLAYED]] = s.played
    out[L.at[OBS_DISCARDED]] = s.discarded
    out[L.at[OBS_SKIPPED]] = s.skipped
    for i in range(s.n_remove):
        out[L.at[OBS_REMOVALS] + i * n + s.remove_on[i]] = 1.0
    for i in range(s.n_done):
        out[L.at[OBS_FINAL_DONE] + (s.final_done[i] - v + p) % p] = 1.0
    for i in range(s.n_passed):
        out[L.at[OBS_FINAL_PASSED] + (s.final_passed[i] - v + p) % p] = 1.0
    if s.round == ROUND_OVER and s.winner >= 0:
        out[L.at[OBS_WINNER] + (s.winner - v + p) % p] = 1.0
    if s.n_colors != p and s.turn_color != NO_COLOR:
        out[L.at[OBS_TURN_COLOR] + s.turn_color // p] = 1.0  # the slot of the mover's color this turn
    if s.gods:
        for x in range(n):
            if s.god_token[x] != NO_GOD:
                out[L.at[OBS_GOD_TOKENS] + x * GOD_KINDS + s.god_token[x]] = 1.0
        if s.ku_target >= 0:
            out[L.at[OBS_KU_TARGET] + (s.ku_target - v + p) % p] = 1.0
        for i in range(s.n_gifts):
            out[L.at[OBS_PELE_GIFTS] + i * p + (s.pele_gifts[i] - v + p) % p] = 1.0
        out[L.at[OBS_LONO_DRAW]] = s.lono_draw
        out[L.at[OBS_OVER_LIMIT]] = s.over_limit


def observation_layout(CoreBoard board not None, players, game=GAME_KANALOA, gods=False):
    """The fields of the observation of a game of ``players`` on ``board`` (``game``, ``gods``), in order:
    a list of (name, size) of the fields it has (``OBS_FIELD_NAMES``)."""
    players, _, game = _check_game_shape(board, players, PRESET_YUCATA, game)
    _check_gods(board, game, gods)
    cdef ObsLayout L
    cdef int colors = 2 * players if players == TWO_PLAYERS and game == GAME_KANALOA else players
    obs_layout(&L, board.tables.n_islands, board.tables.n_links, players, colors,
               KAHUNA_FACE_UP if game == GAME_KAHUNA else FACE_UP, bool(gods))
    return [(OBS_FIELD_NAMES[f], L.at[f + 1] - L.at[f]) for f in range(OBS_N_FIELDS) if L.at[f + 1] > L.at[f]]


ctypedef struct ActionIndex:
    int n
    int32_t codes[MAX_UNIVERSE]
    int16_t first[4096]        # (code >> 8), that is kind << 8 | a (kind < 16) -> the first index with it, or -1


cdef inline int action_index(const ActionIndex* t, int32_t code) noexcept nogil:
    """The index of ``code`` in the table, or -1.  Codes sharing kind and ``a`` are next to each other (the
    table is sorted) and few (at most 12), so a short walk from the first one finds it."""
    cdef int i, key = code >> 8
    if code < 0 or key >= (1 << 12):
        return -1
    i = t.first[key]
    if i < 0:
        return -1
    while i < t.n and (t.codes[i] >> 8) == key:
        if t.codes[i] == code:
            return i
        i += 1
    return -1


cdef class ActionTable:
    """The action codes a rule set can use, numbered densely from 0 (the action space of
    ``kanaloa.pettingzoo``): ``codes`` ascending, as ``kanaloa.rules.tensor.action_codes`` lists them.

    Raises ValueError for a list that is not strictly ascending, holds a code no action can have, or holds
    more than MAX_UNIVERSE codes."""

    cdef ActionIndex t

    def __init__(self, codes):
        cdef int i, key
        codes = _as_list(codes, "codes", 1, MAX_UNIVERSE)
        memset(&self.t, 0, sizeof(ActionIndex))
        for key in range(1 << 12):
            self.t.first[key] = -1
        for i, code in enumerate(codes):
            code = _as_int(code, f"codes[{i}]", 0, (1 << 20) - 1)  # kind < 16
            if i and code <= self.t.codes[i - 1]:
                raise ValueError(f"codes[{i}]: {code} does not come after {self.t.codes[i - 1]}; the codes must "
                                 f"ascend")
            self.t.codes[i] = code
            if self.t.first[code >> 8] < 0:
                self.t.first[code >> 8] = i
        self.t.n = len(codes)

    def __len__(self):
        return self.t.n

    def index(self, code):
        """The index of action ``code``, or -1 when the table does not hold it."""
        if isinstance(code, bool) or not hasattr(code, "__index__"):
            return -1
        code = code.__index__()
        return action_index(&self.t, code) if 0 <= code < (1 << 24) else -1

    def code(self, index):
        """The action code of ``index`` (ValueError outside 0 .. len - 1)."""
        return self.t.codes[_as_int(index, "action", 0, self.t.n - 1)]

    @property
    def codes(self):
        return [self.t.codes[i] for i in range(self.t.n)]

    def __reduce__(self):
        return (ActionTable, (self.codes,))


cdef int write_mask(const CState* s, const ActionIndex* t, int8_t* mask, int16_t* legal,
                    int* missing) noexcept nogil:
    """Zero ``mask[:t.n]`` and set the index of every legal action of ``s``; ``legal`` (when not NULL) gets
    the indices, ascending.  Returns how many; ``missing`` gets a legal code the table lacks, or -1."""
    cdef int32_t buf[MAX_ACTIONS]
    cdef int i, k, n = legal_moves(s, buf)
    memset(mask, 0, t.n)
    missing[0] = -1
    for i in range(n):
        k = action_index(t, buf[i])
        if k < 0:
            missing[0] = buf[i]
            return i
        mask[k] = 1
        if legal:
            legal[i] = k
    return n


# ---------------------------------------------------------------------------
# Validation at the edge (Python objects in, trusted C structs out)
# ---------------------------------------------------------------------------

cdef tuple _pile_fields(object data, int players, int n_isl, int per_island, int n_cards):
    """``pile`` and ``pile_unseen`` (what each player saw go into the deck at the last reshuffle), both
    given or both empty (nothing known), as full tables."""
    if not data.pile and not data.pile_unseen:
        return [[0] * n_isl for _ in range(players)], [0] * players
    if not data.pile or not data.pile_unseen:
        raise ValueError("pile, pile_unseen: give both or neither")
    return (_count_rows(data.pile, "pile", players, n_isl, per_island),
            _int_list(data.pile_unseen, "pile_unseen", players, players, 0, n_cards))


cdef object _as_int(object value, str field, object lo, object hi):
    """``value`` as an int in [lo, hi]; ValueError naming ``field`` otherwise."""
    if type(value) is not int:  # the common case, a plain int, skips the general checks
        if isinstance(value, bool) or not hasattr(value, "__index__"):
            raise ValueError(f"{field}: must be an integer, not {value!r}")
        value = value.__index__()
    if not lo <= value <= hi:
        raise ValueError(f"{field}: must be from {lo} to {hi}, not {value}")
    return value


def _as_list(value, str field, min_len, max_len):
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{field}: must be a list, not {type(value).__name__}")
    if not min_len <= len(value) <= max_len:
        if min_len == max_len:
            raise ValueError(f"{field}: must hold {min_len} entries, not {len(value)}")
        raise ValueError(f"{field}: must hold {min_len} to {max_len} entries, not {len(value)}")
    return value


cdef object _seed(object value):
    """Any integer seed, reduced to 64 bits as kanaloa.rules.rng.SplitMix64 does."""
    if type(value) is not int:
        if isinstance(value, bool) or not hasattr(value, "__index__"):
            raise ValueError(f"seed: must be an integer, not {value!r}")
        value = value.__index__()
    return value & MASK64


cdef object _policy(object value):
    return _as_int(value, "policy", POLICY_RANDOM, POLICY_HEURISTIC)


def _int_list(value, str field, min_len, max_len, lo, hi):
    return [_as_int(v, f"{field}[{i}]", lo, hi) for i, v in enumerate(_as_list(value, field, min_len, max_len))]


def _count_rows(value, str field, int players, int n_islands, int most):
    """One list of card counts per island for each seat."""
    rows = _as_list(value, field, players, players)
    return [_int_list(row, f"{field}[{i}]", n_islands, n_islands, 0, most) for i, row in enumerate(rows)]


def _seat_list(value, str field, int players):
    seats = _int_list(value, field, 0, players, 0, players - 1)
    if len(set(seats)) != len(seats):
        raise ValueError(f"{field}: names a seat twice: {seats}")
    return seats


cdef class CoreBoard:
    """The board's tables for the core: link bitboards per island, sizes, link ends (R1).

    ``links`` are pairs of island indices in the board file's order.  Raises
    ValueError when the board exceeds the core's capacities (MAX_ISLANDS,
    MAX_LINKS, MAX_CARDS) or is malformed.
    """

    cdef BoardTables tables
    cdef tuple _links

    def __init__(self, n_islands, cards_per_island, links):
        cdef int k, x, a, b
        n_islands = _as_int(n_islands, "n_islands", 2, MAX_ISLANDS)
        cards_per_island = _as_int(cards_per_island, "cards_per_island", 1, MAX_CARDS // n_islands)
        links = _as_list(links, "links", 1, MAX_LINKS)
        memset(&self.tables, 0, sizeof(BoardTables))
        seen = set()
        pairs = []
        for k, pair in enumerate(links):
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise ValueError(f"links[{k}]: must be a pair of island indices, not {pair!r}")
            a = _as_int(pair[0], f"links[{k}][0]", 0, n_islands - 1)
            b = _as_int(pair[1], f"links[{k}][1]", 0, n_islands - 1)
            if a == b:
                raise ValueError(f"links[{k}]: joins island {a} to itself")
            if (min(a, b), max(a, b)) in seen:
                raise ValueError(f"links[{k}]: the link {a}-{b} appears twice")
            seen.add((min(a, b), max(a, b)))
            pairs.append((a, b))
            self.tables.link_a[k] = a
            self.tables.link_b[k] = b
            self.tables.link_lo[k] = min(a, b)
            self.tables.link_hi[k] = max(a, b)
            self.tables.island_links[a] |= 1ULL << k
            self.tables.island_links[b] |= 1ULL << k
            self.tables.all_links |= 1ULL << k
        for x in range(n_islands):
            self.tables.island_size[x] = popcount(self.tables.island_links[x])
            if self.tables.island_size[x] == 0:
                raise ValueError(f"island {x}: has no link")
        # R8 prefilter: each bridge touches two islands, so majorities on the WIN_ISLANDS
        # cheapest islands need at least half their summed majority counts in bridges.
        needs = sorted(self.tables.island_size[x] // 2 + 1 for x in range(n_islands))
        if n_islands >= WIN_ISLANDS:
            self.tables.win_bridges = (sum(needs[:WIN_ISLANDS]) + 1) // 2
        else:
            self.tables.win_bridges = MAX_LINKS + 1  # never reachable
        self.tables.n_islands = n_islands
        self.tables.n_links = len(pairs)
        self.tables.cards_per_island = cards_per_island
        self.tables.n_cards = n_islands * cards_per_island
        self._links = tuple(pairs)

    @property
    def n_islands(self) -> int:
        return self.tables.n_islands

    @property
    def n_links(self) -> int:
        return self.tables.n_links

    @property
    def cards_per_island(self) -> int:
        return self.tables.cards_per_island

    @property
    def n_cards(self) -> int:
        return self.tables.n_cards

    @property
    def links(self) -> list:
        """Link ends as island indices, in the board file's order."""
        return list(self._links)

    def island_links(self, int island) -> int:
        """The bitboard of the links of ``island``."""
        if not 0 <= island < self.tables.n_islands:
            raise ValueError(f"island {island}: not on this board")
        return self.tables.island_links[island]

    def size(self, int island) -> int:
        """The number of links of ``island`` (R1)."""
        if not 0 <= island < self.tables.n_islands:
            raise ValueError(f"island {island}: not on this board")
        return self.tables.island_size[island]

    def __reduce__(self):
        return (CoreBoard, (self.tables.n_islands, self.tables.cards_per_island, list(self._links)))

    def __repr__(self):
        return (f"CoreBoard(n_islands={self.tables.n_islands}, cards_per_island={self.tables.cards_per_island}, "
                f"n_links={self.tables.n_links})")


def _check_game_shape(CoreBoard board, players, preset, game=GAME_KANALOA):
    game = _as_int(game, "game", GAME_KANALOA, GAME_KAHUNA)
    players = _as_int(players, "players", 2, MAX_SEATS)
    preset = _as_int(preset, "preset", PRESET_YUCATA, PRESET_TABLETOP)
    if game == GAME_KAHUNA:
        if players != TWO_PLAYERS:
            raise ValueError(f"players: Kahuna is a game for 2 players (R16.1), not {players}")
        if preset != PRESET_YUCATA:
            raise ValueError("preset: Kahuna has no tabletop preset (R16.9)")
        if players * KAHUNA_DEAL + KAHUNA_FACE_UP > board.tables.n_cards:
            raise ValueError(f"players: 2 hands of {KAHUNA_DEAL} and {KAHUNA_FACE_UP} face-up cards need more than "
                             f"the board's {board.tables.n_cards} cards")
        return players, preset, game
    if players * DEAL > board.tables.n_cards:
        raise ValueError(f"players: {players} hands of {DEAL} need more than the board's {board.tables.n_cards} cards")
    return players, preset, game


def _gods_fields(data, bint kahuna, int players, int n_isl, hands, public):
    """The checked fields of Might of the Gods (R14), or None without the variant (then they must be empty)."""
    if not isinstance(data.gods, (bool, int)) or data.gods not in (0, 1):
        raise ValueError(f"gods: must be True or False, not {data.gods!r}")
    if not data.gods:
        if (data.god_on or data.gods_owned or data.known or data.ku_target != -1 or data.pele_gifts
                or data.lono_draw or data.over_limit):
            raise ValueError("gods: the god tokens' fields are set, but the variant is off (R14)")
        return None
    if kahuna:
        raise ValueError("gods: Might of the Gods is a variant of Kanaloa, not of Kahuna (R16.9)")
    if n_isl != GODS_ISLANDS:
        raise ValueError(f"gods: the variant needs a board of {GODS_ISLANDS} islands, one token each (R14.1), "
                         f"not {n_isl}")
    god_on = _int_list(data.god_on, "god_on", n_isl, n_isl, NO_GOD, GOD_KINDS - 1)
    owned = [_int_list(row, f"gods_owned[{i}]", GOD_KINDS, GOD_KINDS, 0, 2)
             for i, row in enumerate(_as_list(data.gods_owned, "gods_owned", players, players))]
    limits = (8, 2, 2, 2, 2)
    for k in range(GOD_KINDS):
        held = god_on.count(k) + sum(row[k] for row in owned)
        if held > limits[k]:
            raise ValueError(f"gods: {held} tokens of kind {k} on the board and owned, the game has {limits[k]} "
                             f"(R14.1)")
    if any(row[GOD_KANE] for row in owned):
        raise ValueError("gods_owned: a KANE is never owned, it scores when claimed (R14.3)")
    known_rows = _as_list(data.known, "known", players, players)
    known = []
    for o, rows in enumerate(known_rows):
        table = _count_rows(rows, f"known[{o}]", players, n_isl, 255)
        for seat in range(players):
            for x in range(n_isl):
                if seat == o and table[seat][x]:
                    raise ValueError(f"known[{o}][{seat}]: a player's knowledge of its own hand is not stored")
                if seat != o and not public[seat][x] <= table[seat][x] <= hands[seat][x]:
                    raise ValueError(f"known[{o}][{seat}][{x}]: {table[seat][x]} must lie between the public "
                                     f"{public[seat][x]} and the hand's {hands[seat][x]} (R14.10)")
        known.append(table)
    ku_target = _as_int(data.ku_target, "ku_target", -1, players - 1)
    gifts = _seat_list(data.pele_gifts, "pele_gifts", players)
    for flag in ("lono_draw", "over_limit"):
        value = getattr(data, flag)
        if not isinstance(value, (bool, int)) or value not in (0, 1):
            raise ValueError(f"{flag}: must be True or False, not {value!r}")
    return god_on, owned, known, ku_target, gifts, bool(data.lono_draw), bool(data.over_limit)


def _check_gods(CoreBoard board, int game, gods):
    if not isinstance(gods, (bool, int)) or gods not in (0, 1):
        raise ValueError(f"gods: must be True or False, not {gods!r}")
    if gods and game == GAME_KAHUNA:
        raise ValueError("gods: Might of the Gods is a variant of Kanaloa, not of Kahuna (R16.9)")
    if gods and board.tables.n_islands != GODS_ISLANDS:
        raise ValueError(f"gods: the variant needs a board of {GODS_ISLANDS} islands, one token each (R14.1), not "
                         f"{board.tables.n_islands}")


def _restore_state(CoreBoard board, data):
    return CoreState.from_data(board, data)


cdef class CoreState:
    """A complete game state in C; see the module docstring for its invariants.

    Made by ``deal`` or ``from_data``; ``apply`` is unchecked (see its docstring).
    """

    cdef CState st
    cdef readonly CoreBoard board

    def __init__(self, *args, **kwargs):
        raise TypeError("CoreState is made by CoreState.deal(...) or CoreState.from_data(...)")

    @staticmethod
    cdef CoreState _blank(CoreBoard board):
        cdef CoreState out = CoreState.__new__(CoreState)
        out.board = board
        out.st.board = &board.tables
        return out

    @classmethod
    def deal(cls, CoreBoard board not None, players, preset, seed, game=GAME_KANALOA, gods=False):
        """A new game in setup (R3, R15.2), dealt from SplitMix64(seed) (docs/engine.md "Dealing"); with
        ``game`` GAME_KAHUNA a Kahuna game in round 1 (R16.2); with ``gods`` the god tokens on the islands
        (R14.1)."""
        players, preset, game = _check_game_shape(board, players, preset, game)
        _check_gods(board, game, gods)
        cdef uint64_t s0 = _seed(seed)
        cdef CoreState out = CoreState._blank(board)
        deal_state(&out.st, &board.tables, players, preset, s0, game, bool(gods))
        return out

    @classmethod
    def from_data(cls, CoreBoard board not None, data):
        """The state described by ``data`` (a ``StateData``); ValueError names the first bad field."""
        cdef BoardTables* b = &board.tables
        cdef CoreState out
        cdef CState* s
        cdef int n_isl = b.n_islands, n_cards = b.n_cards, seat, x, k, i
        if _as_int(data.n_islands, "n_islands", 0, MAX_ISLANDS) != n_isl:
            raise ValueError(f"n_islands: the board has {n_isl} islands, not {data.n_islands}")
        game = _as_int(data.game, "game", GAME_KANALOA, GAME_KAHUNA)
        players = _as_int(data.players, "players", 2, MAX_SEATS)
        preset = _as_int(data.preset, "preset", PRESET_YUCATA, PRESET_TABLETOP)
        round_ = _as_int(data.round, "round", ROUND_SETUP, ROUND_3)
        to_move = _as_int(data.to_move, "to_move", 0, players - 1)
        kahuna = game == GAME_KAHUNA
        if kahuna:
            if players != TWO_PLAYERS:
                raise ValueError(f"players: Kahuna is a game for 2 players (R16.1), not {players}")
            if preset != PRESET_YUCATA:
                raise ValueError("preset: Kahuna has no tabletop preset (R16.9)")
            if round_ == ROUND_SETUP:
                raise ValueError("round: Kahuna has no setup round (R16.2)")
        elif round_ == ROUND_3:
            raise ValueError("round: only Kahuna has a third round (R16.6)")
        if not isinstance(data.skipped, (bool, int)) or data.skipped not in (0, 1):
            raise ValueError(f"skipped: must be True or False, not {data.skipped!r}")
        if data.skipped and not kahuna:
            raise ValueError("skipped: only Kahuna lets a player skip the draw (R16.5)")
        colors = 2 * players if players == TWO_PLAYERS and not kahuna else players
        bridges = _int_list(data.bridges, "bridges", b.n_links, b.n_links, -1, colors - 1)
        hands = _count_rows(data.hands, "hands", players, n_isl, n_cards)
        public = _count_rows(data.public, "public", players, n_isl, n_cards)
        hidden_by = _count_rows(data.hidden_by, "hidden_by", players, n_isl, n_cards)
        for seat in range(players):
            for x in range(n_isl):
                if public[seat][x] > hands[seat][x]:
                    raise ValueError(f"public[{seat}][{x}]: {public[seat][x]} known cards but only "
                                     f"{hands[seat][x]} in the hand")
        deck = _int_list(data.deck, "deck", 0, n_cards, 0, n_isl - 1)
        face_up = _int_list(data.face_up, "face_up", 0, KAHUNA_FACE_UP if kahuna else FACE_UP, 0, n_isl - 1)
        discard_open = _int_list(data.discard_open, "discard_open", 0, n_cards, 0, n_isl - 1)
        scores = _int_list(data.scores, "scores", colors, colors, -(1 << 30), 1 << 30)
        played = _as_int(data.played, "played", 0, n_cards)
        if not isinstance(data.discarded, (bool, int)) or data.discarded not in (0, 1):
            raise ValueError(f"discarded: must be True or False, not {data.discarded!r}")
        turn_color = _as_int(data.turn_color, "turn_color", NO_COLOR, colors - 1)
        if turn_color != NO_COLOR:
            if kahuna:
                raise ValueError(f"turn_color: Kahuna's players play one color each (R16.1), so no turn chooses "
                                 f"one, not {turn_color}")
            if players != TWO_PLAYERS:
                raise ValueError(f"turn_color: only a 2-player game chooses a color per turn (R15.3), "
                                 f"not {turn_color} with {players} players")
            if turn_color % players != to_move:
                raise ValueError(f"turn_color: color {turn_color} is not a color of seat {to_move}, the player "
                                 f"to move (R15.1)")
        if players == TWO_PLAYERS and not kahuna and round_ in (ROUND_1, ROUND_2, ROUND_FINAL):
            if turn_color != NO_COLOR and played == 0 and not data.gods:  # (KANALOA builds pay no card, R14.5)
                raise ValueError(f"turn_color: color {turn_color} is chosen, but no card was played this turn; "
                                 f"the turn's first place or swap chooses it (R15.3)")
            if turn_color == NO_COLOR and played > 0:
                raise ValueError(f"turn_color: {played} card(s) played this turn, so the turn's first build "
                                 f"chose a color (R15.3)")
        remove_on = _int_list(data.remove_on, "remove_on", 0, MAX_PENDING, 0, n_isl - 1)
        final_done = _seat_list(data.final_done, "final_done", players)
        final_passed = _seat_list(data.final_passed, "final_passed", players)
        setup_chosen = _int_list(data.setup_chosen, "setup_chosen", players, players, NO_CARD, n_isl - 1)
        ranking = _seat_list(data.ranking, "ranking", players)
        if ranking and len(ranking) != players:
            raise ValueError(f"ranking: must be empty or list all {players} seats, not {ranking}")
        winner = _as_int(data.winner, "winner", -1, players - 1)
        reason = _as_int(data.reason, "reason", REASON_NONE, REASON_NO_BRIDGES)
        if kahuna:
            if remove_on or final_passed or any(c != NO_CARD for c in setup_chosen) or reason == REASON_ELEVEN:
                raise ValueError("remove_on, final_passed, setup_chosen, reason: Kahuna has no R7 removal, "
                                 "no pass, no setup and no eleven-island win (R16.9)")
        elif reason == REASON_NO_BRIDGES:
            raise ValueError("reason: only Kahuna ends when a player has no bridge left (R16.8)")
        gods = _gods_fields(data, kahuna, players, n_isl, hands, public)
        seen_in, seen_in_unseen = _pile_fields(data, players, n_isl, b.cards_per_island, n_cards)
        rng = _as_int(data.rng, "rng", 0, MASK64)

        # Every card of the board is somewhere, exactly once (R1, R3).
        totals = [0] * n_isl
        for rows in (hands, hidden_by):
            for row in rows:
                for x in range(n_isl):
                    totals[x] += row[x]
        for pile in (deck, face_up, discard_open, [c for c in setup_chosen if c != NO_CARD]):
            for x in pile:
                totals[x] += 1
        for x in range(n_isl):
            if totals[x] != b.cards_per_island:
                raise ValueError(f"cards of island {x}: {totals[x]} in the state, the board has "
                                 f"{b.cards_per_island}")

        out = CoreState._blank(board)
        s = &out.st
        reset_state(s, b, players, preset, game)
        s.skipped = bool(data.skipped)
        s.round = round_
        s.to_move = to_move
        for k in range(b.n_links):
            if bridges[k] >= 0:
                s.bridges[bridges[k]] |= 1ULL << k
        for seat in range(players):
            for x in range(n_isl):
                s.hands[seat][x] = hands[seat][x]
                s.public_cards[seat][x] = public[seat][x]
                s.hidden_by[seat][x] = hidden_by[seat][x]
                s.hand_size[seat] += hands[seat][x]
                s.pile[seat][x] = seen_in[seat][x]
            s.pile_unseen[seat] = seen_in_unseen[seat]
            s.setup_chosen[seat] = setup_chosen[seat]
        for k in range(colors):
            s.scores[k] = scores[k]
        s.turn_color = turn_color
        for i, x in enumerate(deck):
            s.deck[i] = x
        s.deck_top = 0
        s.deck_end = len(deck)
        for i, x in enumerate(face_up):
            s.face_up[i] = x
        s.n_face_up = len(face_up)
        for i, x in enumerate(discard_open):
            s.discard_open[i] = x
        s.n_open = len(discard_open)
        s.played = played
        s.discarded = bool(data.discarded)
        for i, x in enumerate(remove_on):
            s.remove_on[i] = x
        s.n_remove = len(remove_on)
        for i, x in enumerate(final_done):
            s.final_done[i] = x
        s.n_done = len(final_done)
        for i, x in enumerate(final_passed):
            s.final_passed[i] = x
        s.n_passed = len(final_passed)
        for i, x in enumerate(ranking):
            s.ranking[i] = x
        s.n_ranking = len(ranking)
        s.winner = winner
        s.reason = reason
        s.rng = <uint64_t>rng
        if gods is not None:
            god_on, owned, known, ku_target, gifts, lono_draw, over_limit = gods
            s.gods = True
            for x in range(n_isl):
                s.god_token[x] = god_on[x]
            for seat in range(players):
                for k in range(GOD_KINDS):
                    s.gods_owned[seat][k] = owned[seat][k]
                for i in range(players):
                    for x in range(n_isl):
                        s.known[seat][i][x] = known[seat][i][x]
            s.ku_target = ku_target
            for i, x in enumerate(gifts):
                s.pele_gifts[i] = x
            s.n_gifts = len(gifts)
            s.lono_draw = lono_draw
            s.over_limit = over_limit
        return out

    def to_data(self):
        """A fresh ``StateData`` of this state.

        Raises AssertionError if two colors hold the same link: a broken
        invariant of the core, never a user error.
        """
        cdef const CState* s = &self.st
        cdef int n_isl = s.board.n_islands, seat, x, k, o, p
        cdef bint knows_pile = False
        for o in range(s.n_players):
            knows_pile |= s.pile_unseen[o] != 0
            for x in range(n_isl):
                knows_pile |= s.pile[o][x] != 0
        for o in range(s.n_colors):
            for p in range(o + 1, s.n_colors):
                if s.bridges[o] & s.bridges[p]:
                    raise AssertionError(f"colors {o} and {p} share links (bitboard {s.bridges[o] & s.bridges[p]:#x})")
        bridges = [-1] * s.board.n_links
        for o in range(s.n_colors):
            for k in range(s.board.n_links):
                if (s.bridges[o] >> k) & 1:
                    bridges[k] = o
        return StateData(
            n_islands=n_isl,
            players=s.n_players,
            preset=s.preset,
            round=s.round,
            to_move=s.to_move,
            bridges=bridges,
            hands=[[s.hands[seat][x] for x in range(n_isl)] for seat in range(s.n_players)],
            public=[[s.public_cards[seat][x] for x in range(n_isl)] for seat in range(s.n_players)],
            hidden_by=[[s.hidden_by[seat][x] for x in range(n_isl)] for seat in range(s.n_players)],
            pile=[[s.pile[o][x] for x in range(n_isl)] for o in range(s.n_players)] if knows_pile else [],
            pile_unseen=[s.pile_unseen[o] for o in range(s.n_players)] if knows_pile else [],
            deck=[s.deck[k] for k in range(s.deck_top, s.deck_end)],
            face_up=[s.face_up[k] for k in range(s.n_face_up)],
            discard_open=[s.discard_open[k] for k in range(s.n_open)],
            scores=[s.scores[o] for o in range(s.n_colors)],
            played=s.played,
            discarded=bool(s.discarded),
            turn_color=s.turn_color,
            remove_on=[s.remove_on[k] for k in range(s.n_remove)],
            final_done=[s.final_done[k] for k in range(s.n_done)],
            final_passed=[s.final_passed[k] for k in range(s.n_passed)],
            setup_chosen=[s.setup_chosen[seat] for seat in range(s.n_players)],
            ranking=[s.ranking[k] for k in range(s.n_ranking)],
            winner=s.winner,
            reason=s.reason,
            rng=s.rng,
            game=s.game,
            skipped=bool(s.skipped),
            gods=bool(s.gods),
            god_on=[s.god_token[x] for x in range(n_isl)] if s.gods else [],
            gods_owned=[[s.gods_owned[seat][k] for k in range(GOD_KINDS)] for seat in range(s.n_players)]
            if s.gods else [],
            known=[[[s.known[o][seat][x] for x in range(n_isl)] for seat in range(s.n_players)]
                   for o in range(s.n_players)] if s.gods else [],
            ku_target=s.ku_target,
            pele_gifts=[s.pele_gifts[k] for k in range(s.n_gifts)],
            lono_draw=bool(s.lono_draw),
            over_limit=bool(s.over_limit),
        )

    def copy(self):
        """An independent copy (a struct copy; the board is shared)."""
        cdef CoreState out = CoreState._blank(self.board)
        out.st = self.st
        return out

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        return (_restore_state, (self.board, self.to_data()))

    def legal_actions(self):
        """The legal actions of the player to move, ascending; [] once the game is over."""
        cdef int32_t buf[MAX_ACTIONS]
        cdef int i, n = legal_moves(&self.st, buf)
        return [buf[i] for i in range(n)]

    def is_legal(self, action) -> bool:
        """Whether ``action`` is among ``legal_actions()``."""
        if isinstance(action, bool) or not hasattr(action, "__index__"):
            return False
        action = action.__index__()
        if not 0 <= action < (1 << 24):
            return False
        return is_legal_action(&self.st, <int32_t>action)

    def apply(self, action):
        """Apply ``action``, which the caller guarantees to be legal (unchecked, for speed).

        Only a cheap guard runs: ValueError if the code names a link, island or
        combo that does not exist.  A well-formed illegal action gives a
        meaningless state (use ``is_legal`` first when in doubt) but never
        breaks memory or the card totals.
        """
        if type(action) is not int:  # the common case, a plain int, skips the general checks
            if isinstance(action, bool) or not hasattr(action, "__index__"):
                raise ValueError(f"action {action!r}: not an action code")
            action = action.__index__()
        if not 0 <= action < (1 << 24) or not well_formed(&self.st, <int32_t>action):
            raise ValueError(f"action {action}: not an action code for this board")
        apply_move(&self.st, <int32_t>action)

    def playout(self, seed, policy=POLICY_RANDOM):
        """Play to the end of the game, in C, without the GIL.

        Moves come from their own stream SplitMix64(seed); chance events keep
        using the state's.  Policy 0 (``POLICY_RANDOM``) plays
        ``legal[next() % len(legal)]`` of the sorted legal list at every step.
        Policy 1 (``POLICY_HEURISTIC``) plays the move with the best cheap
        heuristic score (R6 takeovers first, then swaps and R7 removals that
        hurt the strongest rival, bridges on contested islands; draws and takes
        when nothing pays; rarely a discard), ties at random, and one move in
        8 uniformly at random.  With 2 players it judges each build for the
        color it names: sweeping, swapping or removing the player's other
        color is a loss, and the color with fewer points is preferred (R15.5).
        """
        cdef uint64_t s0 = _seed(seed)
        cdef int pol = _policy(policy)
        with nogil:
            playout_state(&self.st, s0, pol)

    def cut_features(self):
        """(phase, features of every seat) as ``playout_cut`` judges this state's win chances (``CutModel``)."""
        cdef double f[MAX_SEATS * CUT_WIDTH]
        cdef double g[MAX_COLORS * CUT_FEATURES]
        cdef int w
        color_features(&self.st, g)
        w = cut_features(&self.st, g, f)
        return cut_bucket(&self.st), [[f[seat * w + k] for k in range(w)] for seat in range(self.st.n_players)]

    def color_features(self):
        """The features of every color, from which ``playout_cut`` judges its final points (``CutModel``)."""
        cdef double g[MAX_COLORS * CUT_FEATURES]
        color_features(&self.st, g)
        return [[g[c * CUT_FEATURES + k] for k in range(CUT_FEATURES)] for c in range(self.st.n_colors)]

    def _check_model(self, CutModel model):
        if model.game != self.st.game or model.players != self.st.n_players or model.gods != bool(self.st.gods):
            raise ValueError(f"model: fitted for {'Kahuna' if model.game == GAME_KAHUNA else 'Kanaloa'} with "
                             f"{model.players} players{' and the gods' if model.gods else ''}; this game is "
                             f"{'Kahuna' if self.st.game == GAME_KAHUNA else 'Kanaloa'} with {self.st.n_players} "
                             f"players{' and the gods' if self.st.gods else ''}")

    def playout_cut(self, seed, policy, plies, CutModel model not None):
        """Play at most ``plies`` moves as ``playout(seed, policy)`` would; None if the game ended, else
        (each seat's estimated win chance, each color's expected final points) from ``model``.

        Raises ValueError unless ``model`` was fitted for this state's game, player count and gods.
        """
        cdef uint64_t s0 = _seed(seed)
        cdef int pol = _policy(policy)
        cdef long long n = _as_int(plies, "plies", 0, 1 << 62)
        cdef double chances[MAX_SEATS]
        cdef double expected[MAX_COLORS]
        cdef int seat
        self._check_model(model)
        with nogil:
            playout_state(&self.st, s0, pol, n)
        if self.st.round == ROUND_OVER:
            return None
        cut_estimate(&self.st, model, chances, expected)
        return ([chances[seat] for seat in range(self.st.n_players)],
                [expected[c] for c in range(self.st.n_colors)])

    def estimate(self, CutModel model not None):
        """(each seat's win chance, each color's expected final points) that ``model`` gives this state, as
        ``playout_cut`` would after its moves; raises ValueError as it does, and for a finished game."""
        cdef double chances[MAX_SEATS]
        cdef double expected[MAX_COLORS]
        cdef int seat
        self._check_model(model)
        if self.st.round == ROUND_OVER:
            raise ValueError("estimate: the game is over")
        cut_estimate(&self.st, model, chances, expected)
        return ([chances[seat] for seat in range(self.st.n_players)],
                [expected[c] for c in range(self.st.n_colors)])

    def sampled_playout(self, seed, policy, sample_seed, double share):
        """Play to the end as ``playout(seed, policy)`` does and return the ``cut_features`` of the states on
        the way (the setup of R3 excepted, and this state included) that SplitMix64(``sample_seed``) picks,
        each with chance ``share``, as (phase, features of every seat, ``color_features`` of every color): the
        samples ``kanaloa.tools.cutfit`` fits the models to."""
        cdef uint64_t rng = _seed(seed), pick = _seed(sample_seed)
        cdef int pol = _policy(policy)
        cdef int32_t buf[MAX_ACTIONS]
        cdef int values[MAX_ACTIONS]
        cdef double f[MAX_SEATS * CUT_WIDTH]
        cdef double g[MAX_COLORS * CUT_FEATURES]
        cdef int i, n, w, seat, k, c
        cdef uint64_t limit
        if not 0.0 <= share <= 1.0:
            raise ValueError(f"share: must be between 0 and 1, not {share!r}")
        limit = <uint64_t>(share * 4294967296.0)
        out = []
        while self.st.round != ROUND_OVER:
            if self.st.round != ROUND_SETUP and (sm_next(&pick) >> 32) < limit:
                color_features(&self.st, g)
                w = cut_features(&self.st, g, f)
                out.append((cut_bucket(&self.st),
                            [[f[seat * w + k] for k in range(w)] for seat in range(self.st.n_players)],
                            [[g[c * CUT_FEATURES + k] for k in range(CUT_FEATURES)] for c in range(self.st.n_colors)]))
            i = choose_move(&self.st, pol, &rng, buf, values, &n)
            if n == 0:
                break
            apply_move(&self.st, buf[i])
        return out

    def rollout_scores(self, seed, policy=POLICY_RANDOM):
        """(final scores per color, winner seat) of ``playout(seed, policy)`` played on a copy; this state
        is unchanged."""
        cdef uint64_t s0 = _seed(seed)
        cdef int pol = _policy(policy)
        cdef CState end = self.st
        with nogil:
            playout_state(&end, s0, pol)
        return [end.scores[i] for i in range(end.n_colors)], end.winner

    def pick_action(self, seed, policy=POLICY_RANDOM):
        """The move ``policy`` would play here, drawing from SplitMix64(seed).

        Raises ValueError when there is no legal move (the game is over).
        """
        cdef int32_t buf[MAX_ACTIONS]
        cdef int values[MAX_ACTIONS]
        cdef uint64_t rng = _seed(seed)
        cdef int pol = _policy(policy)
        cdef int n, i = choose_move(&self.st, pol, &rng, buf, values, &n)
        if n == 0:
            raise ValueError("pick_action: no legal move, the game is over")
        return buf[i]

    def move_values(self):
        """The heuristic playout policy's score of every legal action, in ``legal_actions()`` order.

        The scores are the small integers ``POLICY_HEURISTIC`` compares (0 is
        "nothing gained", a takeover scores about 24); a search may use them
        as prior knowledge of which moves are worth trying first.
        """
        cdef int32_t buf[MAX_ACTIONS]
        cdef int values[MAX_ACTIONS]
        cdef int i, n = legal_moves(&self.st, buf)
        value_moves(&self.st, buf, n, values)
        return [values[i] for i in range(n)]

    # -- learning (kanaloa.pettingzoo) ----------------------------------------

    def observation_size(self) -> int:
        """How many numbers ``observe`` writes: the size of ``observation_layout`` for this state's game."""
        cdef ObsLayout L
        state_layout(&self.st, &L)
        return L.size

    def observe(self, viewer, float[::1] out not None):
        """Write what ``viewer`` knows of this state into ``out`` (float32, ``observation_size()`` numbers): the
        fields of ``observation_layout``, every seat and color counted from the viewer (docs/pettingzoo.md).
        Nothing the viewer cannot know is read, so two states it cannot tell apart give the same numbers.
        ValueError for another viewer or another length of ``out``."""
        cdef int v = _as_int(viewer, "viewer", 0, self.st.n_players - 1)
        cdef ObsLayout L
        state_layout(&self.st, &L)
        if out.shape[0] != L.size:
            raise ValueError(f"out: must hold {L.size} numbers, not {out.shape[0]}")
        observe_state(&self.st, &L, v, &out[0])

    def legal_mask(self, ActionTable table not None, int8_t[::1] out not None):
        """Set ``out[i]`` (int8) to 1 for the index in ``table`` of every legal action and to 0 elsewhere;
        return how many actions are legal.  ValueError when ``out`` is not ``len(table)`` long, or when a
        legal action is not in ``table`` (a table of another rule set)."""
        cdef int missing, n
        if out.shape[0] != table.t.n:
            raise ValueError(f"out: must hold {table.t.n} entries, one per action of the table, not {out.shape[0]}")
        n = write_mask(&self.st, &table.t, &out[0], NULL, &missing)
        if missing >= 0:
            raise ValueError(f"action {missing}: legal here but not in the table, which is another rule set's")
        return n

    def determinise(self, viewer, seed, pile=True):
        """A state sampled uniformly among the card layouts ``viewer`` cannot tell from this one.

        Everything ``viewer`` knows stays (own hand and face-down discards,
        public cards, face-up row, open discards, every count, bridges, scores,
        turn); the unknown cards are dealt afresh from SplitMix64(seed) and the
        chance stream is replaced (docs/engine.md "Knowledge").  Two states
        that differ only in what ``viewer`` cannot see give the same sample.
        After a reshuffle the deck is dealt from the cards ``viewer`` saw go
        into it (docs/engine.md "What a reshuffle reveals"); ``pile`` False
        deals it from all unknown cards alike, as the earlier engine did.
        """
        cdef int seat = _as_int(viewer, "viewer", 0, self.st.n_players - 1)
        cdef uint64_t s0 = _seed(seed)
        cdef CoreState out = CoreState._blank(self.board)
        determinise_state(&out.st, &self.st, seat, s0, bool(pile))
        return out

    # -- chance made explicit (kanaloa.openspiel) ------------------------------

    @property
    def deck_size(self) -> int:
        """Cards in the deck."""
        return self.st.deck_end - self.st.deck_top

    @property
    def chance_stream(self) -> int:
        """The state of the chance stream (``StateData.rng``): it moves at every shuffle of two cards or
        more and at PELE's takes, and nowhere else."""
        return self.st.rng

    def deck_counts(self, start=0):
        """Cards per island in the deck from position ``start`` (0 is the top) to its bottom."""
        cdef CState* s = &self.st
        cdef int first = _as_int(start, "start", 0, s.deck_end - s.deck_top)
        counts = [0] * s.board.n_islands
        cdef int i
        for i in range(s.deck_top + first, s.deck_end):
            counts[s.deck[i]] += 1
        return counts

    def put_on_deck(self, index, island) -> bool:
        """Make the deck's card at position ``index`` (0 is the top) an ``island`` card by exchanging it
        with the first ``island`` card at or below that position; False, and nothing changed, when there is
        none.  The cards above ``index`` stay where they are, so a chance event can fix the top cards one
        by one.  Nothing else in the state changes: a caller deciding the order of a hidden deck keeps
        every rule intact."""
        cdef CState* s = &self.st
        cdef int at = s.deck_top + _as_int(index, "index", 0, s.deck_end - s.deck_top - 1)
        cdef int x = _as_int(island, "island", 0, s.board.n_islands - 1)
        cdef int i
        cdef uint8_t held
        for i in range(at, s.deck_end):
            if s.deck[i] == x:
                held = s.deck[at]
                s.deck[at] = s.deck[i]
                s.deck[i] = held
                return True
        return False

    def shuffle_chance(self, seed):
        """Make what chance still holds uniformly random again, from SplitMix64(``seed``): shuffle the deck's
        cards into a uniform order, then replace the chance stream (``StateData.rng``) with the next output
        of the same generator, so that later reshuffles and PELE's takes are fresh too.  Nothing else in
        the state changes.  After ``put_on_deck`` has fixed cards one by one, the order below them is no
        longer uniform (the exchanged card moved down); a caller that goes on to play from the state
        with the core's own chance (``playout``) calls this first."""
        cdef uint64_t rng = _seed(seed)
        cdef CState* s = &self.st
        shuffle_cards(&s.deck[s.deck_top], s.deck_end - s.deck_top, &rng)
        s.rng = sm_next(&rng)

    # -- board questions (R1, R2, R11) -------------------------------------

    def counts_on(self, int island):
        """Bridges per color on the links of ``island`` (ValueError for an island not on the board)."""
        cdef const CState* s = &self.st
        cdef int o
        if not 0 <= island < s.board.n_islands:
            raise ValueError(f"island {island}: not on this board")
        return [bridges_on(s, o, island) for o in range(s.n_colors)]

    def controller_of(self, int island) -> int:
        """The color with an absolute majority on ``island`` (R2), or -1."""
        cdef const CState* s = &self.st
        if not 0 <= island < s.board.n_islands:
            raise ValueError(f"island {island}: not on this board")
        return controller_of(s, island)

    def points_if_scored(self, final=False):
        """Per color, the points a scoring of the islands now would add (R11; Kahuna: R16.6, R16.7).

        With ``final`` each controlled island also gives the final scoring's
        +1; without, it is the scoring at the end of round 1 (R9).  The
        scores themselves are unchanged.
        """
        cdef int32_t points[MAX_COLORS]
        cdef int o, a, b
        memset(points, 0, sizeof(points))
        if self.st.game == GAME_KAHUNA:
            # R16.6, R16.7: the interim scoring of this round (1 or 2 points to the seat with more
            # islands), or with ``final`` (and from round 3 on) the difference of the counts.
            a = islands_controlled(&self.st, 0)
            b = islands_controlled(&self.st, 1)
            if final or not (self.st.round == ROUND_1 or self.st.round == ROUND_2):
                points[0] = a - b if a > b else 0
                points[1] = b - a if b > a else 0
            elif a != b:
                points[0 if a > b else 1] = 1 if self.st.round == ROUND_1 else 2
            return [points[0], points[1]]
        island_points(&self.st, 1 if final else 0, points)
        return [points[o] for o in range(self.st.n_colors)]

    # -- game properties ----------------------------------------------------

    @property
    def players(self) -> int:
        return self.st.n_players

    @property
    def game(self) -> int:
        """GAME_KANALOA or GAME_KAHUNA (R16)."""
        return self.st.game

    @property
    def skipped(self) -> bool:
        """Kahuna (R16.5): whether the last turn ended without a draw."""
        return bool(self.st.skipped)

    @property
    def gods(self) -> bool:
        """Whether the god tokens are in play (R14)."""
        return bool(self.st.gods)

    @property
    def ku_target(self) -> int:
        """The seat whose hand a KU just showed, while the steal is pending (R14.6), or -1."""
        return self.st.ku_target

    @property
    def preset(self) -> int:
        return self.st.preset

    @property
    def to_move(self) -> int:
        return self.st.to_move

    @property
    def round(self) -> int:
        return self.st.round

    @property
    def is_over(self) -> bool:
        return self.st.round == ROUND_OVER

    @property
    def n_colors(self) -> int:
        """How many colors play: one per seat, or 4 with 2 players (R15.1)."""
        return self.st.n_colors

    @property
    def turn_color(self) -> int:
        """The color the player to move builds with this turn (R15.3), or -1 (NO_COLOR)."""
        return self.st.turn_color

    @property
    def scores(self) -> list:
        """Points per color (R11): one entry per seat, or per color with 2 players (R15.1)."""
        return [self.st.scores[i] for i in range(self.st.n_colors)]

    @property
    def winner(self) -> int:
        return self.st.winner

    @property
    def ranking(self) -> list:
        return [self.st.ranking[i] for i in range(self.st.n_ranking)]

    def __repr__(self):
        return (f"<CoreState players={self.st.n_players} round={self.st.round} to_move={self.st.to_move} "
                f"scores={self.scores}>")


def determinisations(CoreState state not None, viewer, n, seed):
    """Draw ``n`` determinisations of ``state`` for ``viewer`` (seeds seed, seed+1, ...) in C; return n.

    The samples are thrown away: this measures the sampling speed.
    """
    cdef int seat = _as_int(viewer, "viewer", 0, state.st.n_players - 1)
    cdef long long count = _as_int(n, "n", 0, 1 << 62), i
    cdef uint64_t s0 = _seed(seed)
    with nogil:
        for i in range(count):
            determinise_state(&_sample_sink, &state.st, seat, s0 + <uint64_t>i)
    return count


def random_games(CoreBoard board not None, players, preset, games, seed, game=GAME_KANALOA, gods=False):
    """Deal ``games`` games and play each to the end with uniform random legal moves, all in C
    (any number of players the core takes: 2 (R15), 3 or 4; or Kahuna with ``game`` GAME_KAHUNA).

    Game ``g`` is ``CoreState.deal(board, players, preset, seed + g, game)`` followed
    by ``playout((seed + g) ^ PLAYOUT_SALT)``.  Returns (games, total moves).
    """
    players, preset, game = _check_game_shape(board, players, preset, game)
    _check_gods(board, game, gods)
    cdef bint with_gods = bool(gods)
    cdef long long n_games = _as_int(games, "games", 0, 1 << 62)
    cdef uint64_t s0 = _seed(seed)
    cdef int n_players = players, pre = preset, kind = game
    cdef long long g, moves = 0
    cdef uint64_t game_seed
    cdef CState st
    with nogil:
        for g in range(n_games):
            game_seed = s0 + <uint64_t>g
            deal_state(&st, &board.tables, n_players, pre, game_seed, kind, with_gods)
            moves += playout_state(&st, game_seed ^ C_PLAYOUT_SALT, POLICY_RANDOM)
    return n_games, moves


# ---------------------------------------------------------------------------
# Many games stepped together (kanaloa.pettingzoo.GameBatch)
# ---------------------------------------------------------------------------

cdef enum:
    MASK_WORDS = MAX_UNIVERSE // 64   # a game's legal action indices as bits


cdef class CoreBatch:
    """``n`` games of one rule set held in C and stepped together with one call: the batched core behind
    ``kanaloa.pettingzoo.GameBatch``, which owns the arrays it writes into.

    Game slot ``i`` deals its games from the stream SplitMix64(seed + i): its first game from the stream's
    first draw, each next one, when the last is over, from the next draw, so every game of the batch is
    ``CoreState.deal(board, players, preset, <that draw>, game, gods)``.  ``random_actions`` draws from a
    second stream per slot, SplitMix64((seed + i) ^ PLAYOUT_SALT).  Chance keeps each state's own stream.

    After ``reset`` and each ``step`` the arrays hold, per slot, the observation of the player to move
    (``observe``), the legal mask over ``table`` (``legal_mask``) and that player's seat; ``step`` also
    writes the step's rewards per seat (1 to the winner of a game it ended, R12, R15.5, none where the game
    ends without one, R16.8) and whether it ended a game, whose slot it then deals afresh.  The arrays are
    checked at every call; inside, nothing touches a Python object.
    """

    cdef CState* states
    cdef uint64_t* deals           # [slot]: the stream of the slot's deal seeds
    cdef uint64_t* streams         # [slot]: the stream of random_actions
    cdef int16_t* legal            # [slot * MAX_ACTIONS + k]: the k-th legal action index, ascending
    cdef int16_t* n_legal          # [slot]
    cdef uint64_t* legal_bits      # [slot * MASK_WORDS + w]: the legal action indices as bits
    cdef long long* finished       # [slot]: games the slot has finished since reset
    cdef ActionTable table
    cdef ObsLayout layout
    cdef readonly CoreBoard board
    cdef readonly int n
    cdef readonly int players
    cdef readonly int n_actions
    cdef readonly int observation_size
    cdef int preset, kind
    cdef bint with_gods, ready
    cdef uint64_t seed0

    def __cinit__(self, *args, **kwargs):
        self.states = NULL
        self.deals = self.streams = self.legal_bits = NULL
        self.legal = self.n_legal = NULL
        self.finished = NULL

    def __init__(self, CoreBoard board not None, players, preset, game, gods, n, seed, ActionTable table not None):
        cdef CState probe
        players, preset, game = _check_game_shape(board, players, preset, game)
        _check_gods(board, game, gods)
        self.n = _as_int(n, "n", 1, 1 << 20)
        self.board = board
        self.players, self.preset, self.kind, self.with_gods = players, preset, game, bool(gods)
        self.seed0 = _seed(seed)
        self.table = table
        self.n_actions = table.t.n
        deal_state(&probe, &board.tables, players, preset, 0, game, self.with_gods)
        state_layout(&probe, &self.layout)
        self.observation_size = self.layout.size
        self.states = <CState*>malloc(self.n * sizeof(CState))
        self.deals = <uint64_t*>malloc(self.n * sizeof(uint64_t))
        self.streams = <uint64_t*>malloc(self.n * sizeof(uint64_t))
        self.legal = <int16_t*>malloc(self.n * MAX_ACTIONS * sizeof(int16_t))
        self.n_legal = <int16_t*>malloc(self.n * sizeof(int16_t))
        self.legal_bits = <uint64_t*>malloc(self.n * MASK_WORDS * sizeof(uint64_t))
        self.finished = <long long*>malloc(self.n * sizeof(long long))
        if (not self.states or not self.deals or not self.streams or not self.legal or not self.n_legal
                or not self.legal_bits or not self.finished):
            raise MemoryError(f"n: no memory for {self.n} games")
        self.ready = False

    def __dealloc__(self):
        free(self.states)
        free(self.deals)
        free(self.streams)
        free(self.legal)
        free(self.n_legal)
        free(self.legal_bits)
        free(self.finished)

    cdef int _check(self, float[:, ::1] obs, int8_t[:, ::1] mask, int8_t[::1] to_move) except -1:
        if obs.shape[0] != self.n or obs.shape[1] != self.observation_size:
            raise ValueError(f"observations: must be {self.n} x {self.observation_size}, not "
                             f"{obs.shape[0]} x {obs.shape[1]}")
        if mask.shape[0] != self.n or mask.shape[1] != self.n_actions:
            raise ValueError(f"masks: must be {self.n} x {self.n_actions}, not {mask.shape[0]} x {mask.shape[1]}")
        if to_move.shape[0] != self.n:
            raise ValueError(f"to_move: must hold {self.n} entries, not {to_move.shape[0]}")
        return 0

    cdef int _refresh(self, int i, float* obs, int8_t* mask, int8_t* to_move) noexcept nogil:
        """Slot ``i``'s legal actions, mask, observation and mover, after a move or a deal; the legal code
        missing from the table, or -1."""
        cdef CState* s = &self.states[i]
        cdef int16_t* legal = &self.legal[i * MAX_ACTIONS]
        cdef uint64_t* bits = &self.legal_bits[i * MASK_WORDS]
        cdef int k, missing, n = write_mask(s, &self.table.t, mask, legal, &missing)
        self.n_legal[i] = n
        memset(bits, 0, MASK_WORDS * sizeof(uint64_t))
        for k in range(n):
            bits[legal[k] >> 6] |= 1ULL << (legal[k] & 63)
        observe_state(s, &self.layout, s.to_move, obs)
        to_move[i] = s.to_move
        return missing

    cdef inline void _deal(self, int i) noexcept nogil:
        deal_state(&self.states[i], &self.board.tables, self.players, self.preset, sm_next(&self.deals[i]),
                   self.kind, self.with_gods)

    def reset(self, float[:, ::1] obs not None, int8_t[:, ::1] mask not None, int8_t[::1] to_move not None):
        """Deal every slot's first game again (the streams start over) and write the arrays."""
        cdef int i, missing = -1, m
        self._check(obs, mask, to_move)
        with nogil:
            for i in range(self.n):
                self.deals[i] = self.seed0 + <uint64_t>i
                self.streams[i] = (self.seed0 + <uint64_t>i) ^ C_PLAYOUT_SALT
                self.finished[i] = 0
                self._deal(i)
                m = self._refresh(i, &obs[i, 0], &mask[i, 0], &to_move[0])
                if m >= 0:
                    missing = m
        self.ready = True
        if missing >= 0:
            raise ValueError(f"action {missing}: legal but not in the table, which is another rule set's")

    def step(self, const int64_t[::1] actions not None, float[:, ::1] obs not None, int8_t[:, ::1] mask not None,
             float[:, ::1] rewards not None, int8_t[::1] done not None, int8_t[::1] to_move not None):
        """Play ``actions[i]`` (an index of the table) in slot ``i``, for every slot, and write the arrays.

        Every action is checked first: ValueError naming the first slot whose action is not legal there,
        and then no game has moved."""
        cdef int i, p, missing = -1, m, bad = -1
        cdef long long a
        cdef CState* s
        self._check(obs, mask, to_move)
        if actions.shape[0] != self.n:
            raise ValueError(f"actions: must hold {self.n} entries, one per game, not {actions.shape[0]}")
        if rewards.shape[0] != self.n or rewards.shape[1] != self.players:
            raise ValueError(f"rewards: must be {self.n} x {self.players}, not {rewards.shape[0]} x "
                             f"{rewards.shape[1]}")
        if done.shape[0] != self.n:
            raise ValueError(f"done: must hold {self.n} entries, not {done.shape[0]}")
        if not self.ready:
            raise ValueError("step: reset the batch first")
        with nogil:
            for i in range(self.n):
                a = actions[i]
                if a < 0 or a >= self.n_actions or not (self.legal_bits[i * MASK_WORDS + (a >> 6)] >> (a & 63)) & 1:
                    bad = i
                    break
        if bad >= 0:
            a = actions[bad]
            legal = [self.legal[bad * MAX_ACTIONS + i] for i in range(self.n_legal[bad])]
            shown = ", ".join(str(x) for x in legal[:12]) + (", ..." if len(legal) > 12 else "")
            if not 0 <= a < self.n_actions:
                raise ValueError(f"actions[{bad}]: {a} is no action; the actions are 0 to {self.n_actions - 1}")
            raise ValueError(f"actions[{bad}]: {a} is not legal in game {bad}, where seat "
                             f"{self.states[bad].to_move} may play {shown}")
        with nogil:
            for i in range(self.n):
                s = &self.states[i]
                apply_move(s, self.table.t.codes[actions[i]])
                for p in range(self.players):
                    rewards[i, p] = 0.0
                done[i] = s.round == ROUND_OVER
                if done[i]:
                    if s.winner >= 0:
                        rewards[i, s.winner] = 1.0
                    self.finished[i] += 1
                    self._deal(i)
                m = self._refresh(i, &obs[i, 0], &mask[i, 0], &to_move[0])
                if m >= 0:
                    missing = m
        if missing >= 0:
            raise ValueError(f"action {missing}: legal but not in the table, which is another rule set's")

    def random_actions(self, int64_t[::1] out not None):
        """Write into ``out`` a uniformly random legal action (index) for every slot, from the slot's move
        stream: ``legal[below(len(legal))]`` of its legal indices, ascending."""
        cdef int i
        if out.shape[0] != self.n:
            raise ValueError(f"out: must hold {self.n} entries, one per game, not {out.shape[0]}")
        if not self.ready:
            raise ValueError("random_actions: reset the batch first")
        with nogil:
            for i in range(self.n):
                out[i] = self.legal[i * MAX_ACTIONS + sm_below(&self.streams[i], self.n_legal[i])]

    def state(self, index):
        """A copy of the state of slot ``index`` (a ``CoreState``)."""
        cdef int i = _as_int(index, "game", 0, self.n - 1)
        cdef CoreState out = CoreState._blank(self.board)
        if not self.ready:
            raise ValueError("state: reset the batch first")
        out.st = self.states[i]
        return out

    def finished_games(self, index):
        """How many games slot ``index`` has finished since ``reset``."""
        return self.finished[_as_int(index, "game", 0, self.n - 1)]
