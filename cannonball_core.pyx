# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled rules core of Cannonball Colony (R20), as /work/notes' decisions and docs pin them down.

A complete game state is one C struct (``CBState``): the island's fixed
masks, the pieces on it and the turn.  The island has at most 144 spaces
(12 x 12), so every set of spaces is a bitboard of three 64-bit words
(``BB``): space ``i`` is bit ``i % 64`` of word ``i // 64``, with the space
numbering of ``kanaloa.cannonball.state`` (``row * columns + column``, row 0
at the bottom).  Copying a state is a struct copy.

Invariants of a ``CBState`` (made by ``from_data``, kept by ``apply_move``):
- every bitboard is zero past ``n_spaces``; pieces stand only on island spaces.
- ``net[s]`` is seat ``s``'s network (R20.5): the road spaces reachable from
  its ship's space (when that holds a road) and from its forts by orthogonal
  steps through road spaces that hold no opponent fort and no blockade.  It
  is kept up to date incrementally: a new road, or a fort leaving a space,
  can only add a component (a flood from that space); a new fort or blockade
  can only cut, so the networks that held its space are filled again.
- ``hit[s]`` is the union of the ranges of seat ``s``'s cannons (R20.9); it
  changes only when a cannon or a blockade is built.

Legal moves are produced as one bitboard per kind of move (land, fire, road,
fort, cannon, blockade) plus the ``end`` and ``pass`` flags (``Moves``); the
sorted list of action codes is those bits in kind order, then ascending
space, so a uniform random pick is "the k-th set bit" and needs no list.
Playouts (``playout_state``) run in C without the GIL on their own
SplitMix64 stream (the algorithm of ``kanaloa.rules.rng``).  A search's
rollout may be cut short (``playout_cut``) and the state it reached judged
by a ``CutModel`` from each seat's ``cut_features`` in the phase of the game
(``cut_bucket``): search knowledge, not rules (docs/cannonball.md,
"Rollouts cut short").

Choices beyond the shared decisions:
- a ``pass`` in the landing round (a seat with no legal landing space, which
  the built-in tiles never cause) hands the landing to the next seat and does
  not count towards ``passes``: that counter is for turns of play (R20.10);
- ``passes`` goes back to 0 at the shot or build itself, not when the turn
  ends, so a state in the middle of a turn already shows it;
- a fort shot and built again could in principle repeat for ever, so a
  playout stops after ``MAX_PLAYOUT_MOVES`` moves (no real game comes near).
"""

from libc.math cimport exp
from libc.stdint cimport int8_t, int16_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memset

from kanaloa.cannonball import state as _cb
from kanaloa.cannonball.state import CannonballData

from kanaloa_bits cimport lowest_bit, popcount  # the bit counts both cores use


# Game constants; checked at import against kanaloa.cannonball.state.
cdef enum:
    GRASS = 0
    FOREST = 1
    LAKE = 2
    MOUNTAIN = 3
    OUTSIDE = 4
    MAX_COLUMNS = 12
    MAX_ROWS = 12
    MAX_SPACES = 144
    MAX_PLAYERS = 4
    FORTS = 10
    CANNON_1 = 1
    CANNON_2 = 2
    BLOCKADE = 4
    FORT_SPACING = 3
    LANDING_SPACING = 4
    ROUND_LANDING = 0
    ROUND_PLAY = 1
    ROUND_OVER = 2
    REASON_NONE = -1
    REASON_TEN_FORTS = 0
    REASON_SUPPLY = 1
    REASON_ALL_PASSED = 2
    NO_SPACE = -1
    NOBODY = -1
    LAND = 0
    FIRE = 1
    ROAD = 2
    FORT_BUILD = 3
    CANNON_BUILD = 4
    BLOCKADE_BUILD = 5
    END = 6
    PASS = 7
    BOARD_KINDS = 6         # the kinds of move that name a space: LAND ... BLOCKADE_BUILD
    CUT_FEATURES = 15       # per seat, see cut_features
    CUT_BUCKETS = 8         # the phases a cut model is fitted for, see cut_bucket

cdef int EARNED_AT_CANNON_1 = 3, EARNED_AT_CANNON_2 = 6, EARNED_AT_BLOCKADE = 8


cdef inline int road_tiles(int players) noexcept nogil:
    """The shared supply of road tiles at the start (R20.3): 50, 70 or 90."""
    return 10 + 20 * players


def _check_constants():
    ours = {
        "GRASS": GRASS, "FOREST": FOREST, "LAKE": LAKE, "MOUNTAIN": MOUNTAIN, "OUTSIDE": OUTSIDE,
        "MAX_COLUMNS": MAX_COLUMNS, "MAX_ROWS": MAX_ROWS, "MAX_SPACES": MAX_SPACES, "MAX_PLAYERS": MAX_PLAYERS,
        "FORTS": FORTS, "CANNON_1": CANNON_1, "CANNON_2": CANNON_2, "BLOCKADE": BLOCKADE,
        "FORT_SPACING": FORT_SPACING, "LANDING_SPACING": LANDING_SPACING,
        "ROUND_LANDING": ROUND_LANDING, "ROUND_PLAY": ROUND_PLAY, "ROUND_OVER": ROUND_OVER,
        "REASON_NONE": REASON_NONE, "REASON_TEN_FORTS": REASON_TEN_FORTS, "REASON_SUPPLY": REASON_SUPPLY,
        "REASON_ALL_PASSED": REASON_ALL_PASSED, "NO_SPACE": NO_SPACE, "NOBODY": NOBODY,
        "LAND": LAND, "FIRE": FIRE, "ROAD": ROAD, "FORT_BUILD": FORT_BUILD, "CANNON_BUILD": CANNON_BUILD,
        "BLOCKADE_BUILD": BLOCKADE_BUILD, "END": END, "PASS": PASS,
    }
    for name, value in ours.items():
        if getattr(_cb, name) != value:
            raise ImportError(f"cannonball_core: {name} is {value} here but {getattr(_cb, name)} in the state module")
    at = {CANNON_1: EARNED_AT_CANNON_1, CANNON_2: EARNED_AT_CANNON_2, BLOCKADE: EARNED_AT_BLOCKADE}
    if dict(_cb.EARNED_AT) != at:
        raise ImportError("cannonball_core: EARNED_AT differs from the state module's")
    if {p: road_tiles(p) for p in range(_cb.MIN_PLAYERS, MAX_PLAYERS + 1)} != dict(_cb.ROAD_TILES):
        raise ImportError("cannonball_core: the road tiles differ from the state module's ROAD_TILES")


_check_constants()

# The playout stream of game g in CoreState.random_games is SplitMix64(seed + g).
cdef uint64_t GOLDEN = 0x9E3779B97F4A7C15ULL


# ---------------------------------------------------------------------------
# Bitboards of three words
# ---------------------------------------------------------------------------

cdef struct BB:
    uint64_t w[3]


cdef inline BB bb_zero() noexcept nogil:
    cdef BB r
    r.w[0] = 0
    r.w[1] = 0
    r.w[2] = 0
    return r


cdef inline BB bb_bit(int i) noexcept nogil:
    cdef BB r = bb_zero()
    r.w[i >> 6] = 1ULL << (i & 63)
    return r


cdef inline bint bb_has(BB a, int i) noexcept nogil:
    return (a.w[i >> 6] >> (i & 63)) & 1


cdef inline void bb_set(BB* a, int i) noexcept nogil:
    a.w[i >> 6] |= 1ULL << (i & 63)


cdef inline void bb_clear(BB* a, int i) noexcept nogil:
    a.w[i >> 6] &= ~(1ULL << (i & 63))


cdef inline BB bb_and(BB a, BB b) noexcept nogil:
    cdef BB r
    r.w[0] = a.w[0] & b.w[0]
    r.w[1] = a.w[1] & b.w[1]
    r.w[2] = a.w[2] & b.w[2]
    return r


cdef inline BB bb_or(BB a, BB b) noexcept nogil:
    cdef BB r
    r.w[0] = a.w[0] | b.w[0]
    r.w[1] = a.w[1] | b.w[1]
    r.w[2] = a.w[2] | b.w[2]
    return r


cdef inline BB bb_andnot(BB a, BB b) noexcept nogil:
    """a minus b."""
    cdef BB r
    r.w[0] = a.w[0] & ~b.w[0]
    r.w[1] = a.w[1] & ~b.w[1]
    r.w[2] = a.w[2] & ~b.w[2]
    return r


cdef inline bint bb_any(BB a) noexcept nogil:
    return (a.w[0] | a.w[1] | a.w[2]) != 0


cdef inline bint bb_eq(BB a, BB b) noexcept nogil:
    return ((a.w[0] ^ b.w[0]) | (a.w[1] ^ b.w[1]) | (a.w[2] ^ b.w[2])) == 0


cdef inline int bb_count(BB a) noexcept nogil:
    return popcount(a.w[0]) + popcount(a.w[1]) + popcount(a.w[2])


cdef inline BB bb_up(BB a, int k) noexcept nogil:
    """Every bit moved k spaces higher (0 < k < 64); bits past the top word fall off."""
    cdef BB r
    r.w[2] = (a.w[2] << k) | (a.w[1] >> (64 - k))
    r.w[1] = (a.w[1] << k) | (a.w[0] >> (64 - k))
    r.w[0] = a.w[0] << k
    return r


cdef inline BB bb_down(BB a, int k) noexcept nogil:
    """Every bit moved k spaces lower (0 < k < 64); bits below space 0 fall off."""
    cdef BB r
    r.w[0] = (a.w[0] >> k) | (a.w[1] << (64 - k))
    r.w[1] = (a.w[1] >> k) | (a.w[2] << (64 - k))
    r.w[2] = a.w[2] >> k
    return r


cdef inline int bb_nth(BB a, int k) noexcept nogil:
    """The space of the k-th set bit (0-based, ascending); a must hold more than k bits."""
    cdef int word = 0, c
    cdef uint64_t x
    while True:
        c = popcount(a.w[word])
        if k < c:
            break
        k -= c
        word += 1
    x = a.w[word]
    while k > 0:
        x &= x - 1
        k -= 1
    return (word << 6) + lowest_bit(x)


# ---------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------

cdef struct CBState:
    # the island (fixed for the game)
    int8_t players
    int8_t columns
    int8_t rows
    int16_t n_spaces
    BB valid                        # the grid's spaces 0 ... n_spaces - 1
    BB grass
    BB forest
    BB lake
    BB mountain
    BB outside
    BB island                       # every space that is not OUTSIDE
    BB edge                         # island spaces with a side on the outline (R20.4)
    BB stop                         # mountain | outside: where a line of fire always ends (R20.9)
    BB board[MAX_PLAYERS]           # each seat's landing board (R20.1)
    BB near_other[MAX_PLAYERS]      # spaces of a seat's board touching another board, diagonals too (R20.4)
    BB row_mask[MAX_ROWS]
    BB col_mask[MAX_COLUMNS]
    # pieces
    BB road
    BB fort[MAX_PLAYERS]
    BB cannon[MAX_PLAYERS]
    BB blockade[MAX_PLAYERS]
    int16_t ships[MAX_PLAYERS]      # NO_SPACE before landing
    uint8_t earned[MAX_PLAYERS]     # CANNON_1 | CANNON_2 | BLOCKADE bits (R20.8)
    # derived (see the module docstring)
    BB net[MAX_PLAYERS]
    BB hit[MAX_PLAYERS]
    # the turn and the result
    int16_t supply
    int8_t round
    int8_t to_move
    int8_t fired
    int8_t grass_roads
    int8_t passes
    int8_t reason
    int8_t n_winners
    int8_t winners[MAX_PLAYERS]
    int8_t ranking[MAX_PLAYERS]


cdef struct Moves:
    BB kind[BOARD_KINDS]            # LAND ... BLOCKADE_BUILD: the spaces each kind may name
    int8_t end
    int8_t pass_
    int count


# -- small queries ------------------------------------------------------------------------------

cdef inline BB neighbours(const CBState* s, BB a) noexcept nogil:
    """The spaces orthogonally next to some space of a (a's own spaces only where they neighbour another)."""
    cdef BB r = bb_or(bb_up(bb_andnot(a, s.col_mask[s.columns - 1]), 1), bb_down(bb_andnot(a, s.col_mask[0]), 1))
    r = bb_or(r, bb_or(bb_up(a, s.columns), bb_down(a, s.columns)))
    return bb_and(r, s.valid)


cdef inline BB all_of(const BB* per_seat, int players) noexcept nogil:
    cdef BB r = per_seat[0]
    cdef int p
    for p in range(1, players):
        r = bb_or(r, per_seat[p])
    return r


cdef inline BB others_of(const BB* per_seat, int players, int seat) noexcept nogil:
    cdef BB r = bb_zero()
    cdef int p
    for p in range(players):
        if p != seat:
            r = bb_or(r, per_seat[p])
    return r


cdef inline BB ship_spaces(const CBState* s, int skip) noexcept nogil:
    """The landed ships' spaces, leaving out seat ``skip`` (NOBODY: none left out)."""
    cdef BB r = bb_zero()
    cdef int p
    for p in range(s.players):
        if p != skip and s.ships[p] != NO_SPACE:
            bb_set(&r, s.ships[p])
    return r


cdef inline BB passable(const CBState* s, int seat) noexcept nogil:
    """Road spaces ``seat``'s network may enter: no opponent fort and no blockade (R20.5)."""
    return bb_andnot(bb_andnot(s.road, others_of(s.fort, s.players, seat)), all_of(s.blockade, s.players))


cdef inline BB flood_from(const CBState* s, BB region, BB frontier, BB through) noexcept nogil:
    """``region`` grown by everything of ``through`` reachable from ``frontier`` (a part of region) by
    orthogonal steps inside ``through``: each step expands only the spaces added by the step before."""
    while bb_any(frontier):
        frontier = bb_andnot(bb_and(neighbours(s, frontier), through), region)
        region = bb_or(region, frontier)
    return region


cdef inline BB flood(const CBState* s, BB seeds, BB through) noexcept nogil:
    """Everything of ``through`` reachable from ``seeds & through`` by orthogonal steps inside ``through``."""
    cdef BB start = bb_and(seeds, through)
    return flood_from(s, start, start, through)


cdef inline BB network_from_scratch(const CBState* s, int seat) noexcept nogil:
    """R20.5: the flood from the ship's space (when it holds a road) and the seat's forts."""
    cdef BB seeds = s.fort[seat]
    if s.ships[seat] != NO_SPACE:
        bb_set(&seeds, s.ships[seat])
    return flood(s, seeds, passable(s, seat))


cdef inline void grow_networks(CBState* s, int space) noexcept nogil:
    """``space`` just became passable for some seats (a new road, a fort gone): join it where it touches."""
    cdef BB nb = neighbours(s, bb_bit(space))
    cdef int p
    for p in range(s.players):
        if bb_has(s.net[p], space):
            continue
        if bb_any(bb_and(nb, s.net[p])) or s.ships[p] == space:
            s.net[p] = flood_from(s, bb_or(s.net[p], bb_bit(space)), bb_bit(space), passable(s, p))


cdef inline void cut_networks(CBState* s, int space) noexcept nogil:
    """``space`` may have become impassable for some seats (a fort, a blockade): fill those networks again."""
    cdef int p
    for p in range(s.players):
        if bb_has(s.net[p], space):
            s.net[p] = network_from_scratch(s, p)


cdef inline BB cannon_range(const CBState* s, int space, BB stop) noexcept nogil:
    """R20.9: the spaces along the cannon's row and column, each line ending before ``stop`` or the grid's end."""
    cdef BB r = bb_zero()
    cdef int cols = s.columns, row = space // cols, col = space % cols, i
    i = space + 1
    while i < (row + 1) * cols and not bb_has(stop, i):
        bb_set(&r, i)
        i += 1
    i = space - 1
    while i >= row * cols and not bb_has(stop, i):
        bb_set(&r, i)
        i -= 1
    i = space + cols
    while i < s.n_spaces and not bb_has(stop, i):
        bb_set(&r, i)
        i += cols
    i = space - cols
    while i >= 0 and not bb_has(stop, i):
        bb_set(&r, i)
        i -= cols
    return r


cdef void compute_hits(CBState* s) noexcept nogil:
    cdef BB stop = bb_or(s.stop, all_of(s.blockade, s.players)), c
    cdef int p, space
    for p in range(s.players):
        s.hit[p] = bb_zero()
        c = s.cannon[p]
        while bb_any(c):
            space = bb_nth(c, 0)
            bb_clear(&c, space)
            s.hit[p] = bb_or(s.hit[p], cannon_range(s, space, stop))


cdef inline BB fort_zone(const CBState* s, int seat) noexcept nogil:
    """Spaces at most FORT_SPACING steps from one of the seat's forts through road or forest spaces (R20.7)."""
    cdef BB through = bb_or(s.road, s.forest)
    cdef BB zone = s.fort[seat]
    cdef int step
    for step in range(FORT_SPACING):
        zone = bb_or(zone, bb_and(neighbours(s, zone), through))
    return zone


cdef inline int forts_on_island(const CBState* s, int seat) noexcept nogil:
    return bb_count(s.fort[seat])


cdef inline BB road_targets(const CBState* s, int seat, BB terrain) noexcept nogil:
    """Spaces of ``terrain`` next to the seat's network with no road, not another player's ship space."""
    return bb_andnot(bb_and(neighbours(s, s.net[seat]), terrain), bb_or(s.road, ship_spaces(s, seat)))


cdef inline bint may_land(const CBState* s, int seat, int space) noexcept nogil:
    """R20.4 as decided: own board, grass or forest, on the edge, far from landed ships, touching no other tile."""
    cdef int p, d, cols = s.columns
    if not bb_has(s.board[seat], space) or not bb_has(s.edge, space) or bb_has(s.near_other[seat], space):
        return False
    if not (bb_has(s.grass, space) or bb_has(s.forest, space)):
        return False
    for p in range(s.players):
        if s.ships[p] != NO_SPACE:
            d = abs(s.ships[p] // cols - space // cols) + abs(s.ships[p] % cols - space % cols)
            if d <= LANDING_SPACING:
                return False
    return True


cdef void legal_moves(const CBState* s, Moves* m) noexcept nogil:
    """Every legal move of the player to move, as bitboards per kind (R20.4-R20.10 as decided)."""
    cdef int k, seat = s.to_move, space, n_cannons
    cdef BB empty, opp_hit, builds, cand
    for k in range(BOARD_KINDS):
        m.kind[k] = bb_zero()
    m.end = 0
    m.pass_ = 0
    m.count = 0
    if s.round == ROUND_OVER:
        return
    if s.round == ROUND_LANDING:
        cand = bb_and(bb_and(s.board[seat], s.edge), bb_or(s.grass, s.forest))
        cand = bb_andnot(cand, s.near_other[seat])
        while bb_any(cand):
            space = bb_nth(cand, 0)
            bb_clear(&cand, space)
            if may_land(s, seat, space):
                bb_set(&m.kind[LAND], space)
        m.count = bb_count(m.kind[LAND])
        if m.count == 0:
            m.pass_ = 1
            m.count = 1
        return
    if s.grass_roads == 1:
        m.kind[ROAD] = road_targets(s, seat, s.grass)
        m.end = 1
        m.count = bb_count(m.kind[ROAD]) + 1
        return
    if not s.fired:
        m.kind[FIRE] = bb_and(s.hit[seat], others_of(s.fort, s.players, seat))
    if s.ships[seat] != NO_SPACE and not bb_has(s.road, s.ships[seat]):
        bb_set(&m.kind[ROAD], s.ships[seat])  # the first build: a road on the own ship space (R20.4)
    elif bb_any(s.net[seat]):
        m.kind[ROAD] = road_targets(s, seat, bb_or(s.grass, s.forest))
        empty = bb_andnot(s.net[seat], bb_or(bb_or(all_of(s.fort, s.players), all_of(s.cannon, s.players)),
                                             bb_or(all_of(s.blockade, s.players), ship_spaces(s, NOBODY))))
        if bb_any(empty):
            opp_hit = others_of(s.hit, s.players, seat)
            if forts_on_island(s, seat) < FORTS:
                m.kind[FORT_BUILD] = bb_andnot(empty, bb_or(opp_hit, fort_zone(s, seat)))
            n_cannons = popcount(s.earned[seat] & (CANNON_1 | CANNON_2))
            if bb_count(s.cannon[seat]) < n_cannons:
                m.kind[CANNON_BUILD] = bb_andnot(empty, opp_hit)
            if (s.earned[seat] & BLOCKADE) and not bb_any(s.blockade[seat]):
                m.kind[BLOCKADE_BUILD] = empty
    builds = bb_or(bb_or(m.kind[ROAD], m.kind[FORT_BUILD]), bb_or(m.kind[CANNON_BUILD], m.kind[BLOCKADE_BUILD]))
    if not bb_any(builds):
        m.pass_ = 1
    m.count = bb_count(m.kind[FIRE]) + bb_count(m.kind[ROAD]) + bb_count(m.kind[FORT_BUILD])
    m.count += bb_count(m.kind[CANNON_BUILD]) + bb_count(m.kind[BLOCKADE_BUILD]) + m.pass_


cdef inline int move_at(const Moves* m, int index) noexcept nogil:
    """The action code at ``index`` of the sorted legal list (0 <= index < m.count)."""
    cdef int k, c
    for k in range(BOARD_KINDS):
        c = bb_count(m.kind[k])
        if index < c:
            return k * MAX_SPACES + bb_nth(m.kind[k], index)
        index -= c
    if m.end:
        return END * MAX_SPACES
    return PASS * MAX_SPACES


cdef inline bint is_legal(const Moves* m, int action) noexcept nogil:
    cdef int kind = action // MAX_SPACES, space = action % MAX_SPACES
    if action < 0:
        return False
    if kind < BOARD_KINDS:
        return bb_has(m.kind[kind], space)
    if space != 0:
        return False
    if kind == END:
        return m.end != 0
    if kind == PASS:
        return m.pass_ != 0
    return False


# -- the result ----------------------------------------------------------------------------------

cdef inline bint key_less(const CBState* s, int a, int b) noexcept nogil:
    """Seat a's key comes before seat b's: more forts on the island, fewer on its own board, fewer cannons
    and blockades on the island, then the lower seat (R20.10)."""
    cdef int fa = forts_on_island(s, a), fb = forts_on_island(s, b), x, y
    if fa != fb:
        return fa > fb
    x = bb_count(bb_and(s.fort[a], s.board[a]))
    y = bb_count(bb_and(s.fort[b], s.board[b]))
    if x != y:
        return x < y
    x = bb_count(s.cannon[a]) + bb_count(s.blockade[a])
    y = bb_count(s.cannon[b]) + bb_count(s.blockade[b])
    if x != y:
        return x < y
    return a < b


cdef inline bint same_key(const CBState* s, int a, int b) noexcept nogil:
    """Seats a and b have the same key (R20.10's three counts), so they would share a victory."""
    return (forts_on_island(s, a) == forts_on_island(s, b)
            and bb_count(bb_and(s.fort[a], s.board[a])) == bb_count(bb_and(s.fort[b], s.board[b]))
            and bb_count(s.cannon[a]) + bb_count(s.blockade[a]) == bb_count(s.cannon[b]) + bb_count(s.blockade[b]))


cdef void finish(CBState* s, int reason, int sole_winner) noexcept nogil:
    """End the game (R20.10): winners, ranking, reason; round over, nobody to move."""
    cdef int order[MAX_PLAYERS]
    cdef int i, j, t, n = s.players, first = 0
    for i in range(n):
        order[i] = i
    for i in range(1, n):  # insertion sort by (key, seat)
        t = order[i]
        j = i - 1
        while j >= 0 and key_less(s, t, order[j]):
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = t
    if sole_winner != NOBODY:
        s.ranking[0] = sole_winner
        j = 1
        for i in range(n):
            if order[i] != sole_winner:
                s.ranking[j] = order[i]
                j += 1
        s.winners[0] = sole_winner
        s.n_winners = 1
    else:
        for i in range(n):
            s.ranking[i] = order[i]
        s.n_winners = 0
        for i in range(n):  # seat order
            if same_key(s, i, order[first]):
                s.winners[s.n_winners] = i
                s.n_winners += 1
    s.reason = reason
    s.round = ROUND_OVER
    s.to_move = NOBODY
    s.fired = 0
    s.grass_roads = 0


cdef inline void end_turn(CBState* s) noexcept nogil:
    s.fired = 0
    s.grass_roads = 0
    s.to_move = (s.to_move + 1) % s.players


cdef void apply_move(CBState* s, int action) noexcept nogil:
    """Apply a legal action (the caller has checked it) for the player to move."""
    cdef int kind = action // MAX_SPACES, space = action % MAX_SPACES, seat = s.to_move, p, n, piece
    cdef BB second
    if kind == LAND:
        s.ships[seat] = space
        if seat == s.players - 1:
            s.round = ROUND_PLAY
            s.to_move = 0
        else:
            s.to_move = seat + 1
    elif kind == PASS:
        if s.round == ROUND_LANDING:  # no landing space: no ship (an edge case the built-in tiles never make)
            if seat == s.players - 1:
                s.round = ROUND_PLAY
                s.to_move = 0
            else:
                s.to_move = seat + 1
            return
        if s.fired:
            s.passes = 0
        else:
            s.passes += 1
        end_turn(s)
        if s.passes >= s.players:
            finish(s, REASON_ALL_PASSED, NOBODY)
    elif kind == END:
        end_turn(s)
    elif kind == FIRE:
        s.fired = 1
        s.passes = 0
        for p in range(s.players):
            if bb_has(s.fort[p], space):  # back to its owner's mat; its road stays (R20.6)
                bb_clear(&s.fort[p], space)
                s.net[p] = network_from_scratch(s, p)  # the owner loses a seed of its network
        grow_networks(s, space)  # the others may now pass the space
    elif kind == ROAD:
        bb_set(&s.road, space)
        s.supply -= 1
        s.passes = 0
        grow_networks(s, space)
        if s.supply <= 0:
            finish(s, REASON_SUPPLY, NOBODY)
            return
        if s.grass_roads == 0 and bb_has(s.grass, space):
            second = road_targets(s, seat, s.grass)
            if bb_any(second):
                s.grass_roads = 1
                return
        end_turn(s)
    elif kind == FORT_BUILD:
        bb_set(&s.fort[seat], space)
        s.passes = 0
        for p in range(s.players):
            if p != seat and bb_has(s.net[p], space):
                s.net[p] = network_from_scratch(s, p)
        n = forts_on_island(s, seat)
        if n >= FORTS:
            finish(s, REASON_TEN_FORTS, seat)
            return
        piece = (CANNON_1 if n == EARNED_AT_CANNON_1 else CANNON_2 if n == EARNED_AT_CANNON_2
                 else BLOCKADE if n == EARNED_AT_BLOCKADE else 0)
        s.earned[seat] |= piece
        end_turn(s)
    elif kind == CANNON_BUILD:
        bb_set(&s.cannon[seat], space)
        s.passes = 0
        compute_hits(s)
        end_turn(s)
    elif kind == BLOCKADE_BUILD:
        bb_set(&s.blockade[seat], space)
        s.passes = 0
        cut_networks(s, space)
        compute_hits(s)
        end_turn(s)


# ---------------------------------------------------------------------------
# Playouts
# ---------------------------------------------------------------------------

cdef inline uint64_t sm_next(uint64_t* state) noexcept nogil:
    """SplitMix64, the algorithm of kanaloa.rules.rng."""
    state[0] += GOLDEN
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int sm_below(uint64_t* state, int n) noexcept nogil:
    return <int>(sm_next(state) % <uint64_t>n)


cdef inline int pick_in(BB a, uint64_t* rng) noexcept nogil:
    """A space of a (not empty) drawn uniformly."""
    return bb_nth(a, sm_below(rng, bb_count(a)))


cdef inline BB at_least_two(const CBState* s, BB open_) noexcept nogil:
    """The spaces with at least two orthogonal neighbours in ``open_``."""
    cdef BB e = bb_and(bb_down(bb_andnot(open_, s.col_mask[0]), 1), s.valid)   # neighbour to the right
    cdef BB w = bb_and(bb_up(bb_andnot(open_, s.col_mask[s.columns - 1]), 1), s.valid)  # to the left
    cdef BB n = bb_down(open_, s.columns)   # above
    cdef BB so = bb_and(bb_up(open_, s.columns), s.valid)  # below
    cdef BB r = bb_or(bb_and(e, w), bb_and(e, n))
    r = bb_or(r, bb_or(bb_and(e, so), bb_and(w, n)))
    return bb_or(r, bb_or(bb_and(w, so), bb_and(n, so)))


cdef int pick_road(const CBState* s, BB roads, uint64_t* rng) noexcept nogil:
    """Roads toward open land: grass first (it may bring a second road), and among each terrain the spaces
    with at least two open neighbours (grass or forest without road), at random."""
    cdef BB open_ = bb_andnot(bb_or(s.grass, s.forest), bb_or(s.road, ship_spaces(s, NOBODY)))
    cdef BB good = at_least_two(s, open_), part
    part = bb_and(bb_and(roads, s.grass), good)
    if not bb_any(part):
        part = bb_and(roads, s.grass)
    if not bb_any(part):
        part = bb_and(roads, good)
    if not bb_any(part):
        part = roads
    return pick_in(part, rng)


cdef int pick_heuristic(const CBState* s, const Moves* m, uint64_t* rng) noexcept nogil:
    """The heuristic playout policy, cheap and simple:

    one move in 8 is uniform over the legal moves (so that no line repeats for
    ever); otherwise, in this order: a shot when one is legal (a random
    target); a second grass road when the turn is open for one; a fort
    (a random legal space); a cannon on the space that has the most opponent
    forts in range, when one has any; a road (``pick_road``); a cannon or a
    blockade anywhere legal; ``end`` or ``pass``.
    """
    cdef int best = -1, best_hits = 0, space, hits
    cdef BB c, stop, opp_forts
    if (sm_next(rng) & 7) == 0:
        return move_at(m, sm_below(rng, m.count))
    if bb_any(m.kind[LAND]):
        return LAND * MAX_SPACES + pick_in(m.kind[LAND], rng)
    if bb_any(m.kind[FIRE]):
        return FIRE * MAX_SPACES + pick_in(m.kind[FIRE], rng)
    if s.grass_roads == 1 and bb_any(m.kind[ROAD]):
        return ROAD * MAX_SPACES + pick_road(s, m.kind[ROAD], rng)
    if bb_any(m.kind[FORT_BUILD]):
        return FORT_BUILD * MAX_SPACES + pick_in(m.kind[FORT_BUILD], rng)
    if bb_any(m.kind[CANNON_BUILD]):
        stop = bb_or(s.stop, all_of(s.blockade, s.players))
        opp_forts = others_of(s.fort, s.players, s.to_move)
        c = m.kind[CANNON_BUILD]
        while bb_any(c):
            space = bb_nth(c, 0)
            bb_clear(&c, space)
            hits = bb_count(bb_and(cannon_range(s, space, stop), opp_forts))
            if hits > best_hits:
                best, best_hits = space, hits
        if best >= 0:
            return CANNON_BUILD * MAX_SPACES + best
    if bb_any(m.kind[ROAD]):
        return ROAD * MAX_SPACES + pick_road(s, m.kind[ROAD], rng)
    if bb_any(m.kind[CANNON_BUILD]):
        return CANNON_BUILD * MAX_SPACES + pick_in(m.kind[CANNON_BUILD], rng)
    if bb_any(m.kind[BLOCKADE_BUILD]):
        return BLOCKADE_BUILD * MAX_SPACES + pick_in(m.kind[BLOCKADE_BUILD], rng)
    return END * MAX_SPACES if m.end else PASS * MAX_SPACES


# A fort shot and built again could in principle go on for ever; a playout stops after this many moves.
cdef long long MAX_PLAYOUT_MOVES = 100000


cdef inline int pick_move(const CBState* s, const Moves* m, uint64_t* rng, bint heuristic) noexcept nogil:
    """The playout policy's move: ``pick_heuristic``, or uniform (``legal[next() % len(legal)]``)."""
    if heuristic:
        return pick_heuristic(s, m, rng)
    return move_at(m, sm_below(rng, m.count))


cdef long long playout_state(CBState* s, uint64_t seed, bint heuristic, long long limit) noexcept nogil:
    """Play ``s`` on the stream SplitMix64(seed) to its end, or until ``limit`` moves are played (at most
    ``MAX_PLAYOUT_MOVES``); the number of moves played.

    Uniform play takes ``legal[next() % len(legal)]`` of the sorted legal list at every step.  The moves
    do not depend on ``limit``: a playout cut short is the start of the whole one.
    """
    cdef uint64_t rng = seed
    cdef long long moves = 0
    cdef Moves m
    if limit > MAX_PLAYOUT_MOVES:
        limit = MAX_PLAYOUT_MOVES
    while s.round != ROUND_OVER and moves < limit:
        legal_moves(s, &m)
        apply_move(s, pick_move(s, &m, &rng, heuristic))
        moves += 1
    return moves


# ---------------------------------------------------------------------------
# Rollouts cut short (search, not rules; docs/cannonball.md "Rollouts cut short")
# ---------------------------------------------------------------------------

CUT_FEATURE_NAMES = ("forts", "forts_at_home", "pieces", "threatened_forts", "targets", "cannons_ready",
                     "blockade_ready", "network", "frontier", "frontier_sites", "fort_spaces", "fort_room",
                     "open_room", "territory", "seats_to_move")


cdef inline int cut_bucket(const CBState* s) noexcept nogil:
    """The phase of a state: 0 in the landing round (R20.4); then 1 ... CUT_BUCKETS - 1 by the share of the
    road tiles laid (R20.3), in equal parts: ``1 + (CUT_BUCKETS - 1) * laid // total``.  The supply ends
    the game with its last tile (R20.10), so the phase says how far the game has come; a finished game is
    in the last phase."""
    cdef int total = road_tiles(s.players), laid
    if s.round == ROUND_LANDING:
        return 0
    if s.round == ROUND_OVER:
        return CUT_BUCKETS - 1
    laid = total - s.supply
    if laid < 0:
        laid = 0
    if laid >= total:
        laid = total - 1
    return 1 + (CUT_BUCKETS - 1) * laid // total


cdef void territory(const CBState* s, int* out) noexcept nogil:
    """``out[seat]``: the free land nearer to the seat than to any other: grass or forest spaces without a
    road or a ship that the seat's network (or its bare landing space) reaches in fewer steps through such
    spaces than every other seat does (a tie is nobody's).  Each seat's steps are counted as if the others'
    roads to come did not stand in the way."""
    cdef BB free = bb_andnot(bb_or(s.grass, s.forest), bb_or(s.road, ship_spaces(s, NOBODY)))
    cdef BB reach[MAX_PLAYERS]
    cdef BB front[MAX_PLAYERS]
    cdef BB others
    cdef int p, q, n = s.players
    cdef bint growing = True
    for p in range(n):
        reach[p] = s.net[p]
        if s.ships[p] != NO_SPACE:
            bb_set(&reach[p], s.ships[p])
        front[p] = reach[p]
        out[p] = 0
    while growing:
        growing = False
        for p in range(n):
            front[p] = bb_andnot(bb_and(neighbours(s, front[p]), free), reach[p])
        for p in range(n):
            reach[p] = bb_or(reach[p], front[p])
            if bb_any(front[p]):
                growing = True
        for p in range(n):
            others = bb_zero()
            for q in range(n):
                if q != p:
                    others = bb_or(others, reach[q])
            out[p] += bb_count(bb_andnot(front[p], others))


cdef inline BB near_forts(const CBState* s, int seat, BB through) noexcept nogil:
    """The spaces at most FORT_SPACING steps from one of the seat's forts by orthogonal steps whose spaces on
    the way (not the last) are in ``through``: where a fort of the seat could not stand if the space held a
    road (R20.7 counts through road and forest spaces)."""
    cdef BB zone = s.fort[seat]
    cdef int step
    for step in range(FORT_SPACING - 1):
        zone = bb_or(zone, bb_and(neighbours(s, zone), through))
    return bb_or(zone, neighbours(s, zone))


cdef void cut_features(const CBState* s, double* f) noexcept nogil:
    """``f[seat * CUT_FEATURES + k]`` (``CUT_FEATURE_NAMES``), for every seat as if it were to build now:

    0 ``forts`` on the island (R20.7, what R20.10 counts first); 1 ``forts_at_home``, those on its own
    landing board, and 2 ``pieces``, its cannons and blockades on the island (R20.10's tie-breaks, fewer
    better); 3 ``threatened_forts``, its forts in range of an opponent's cannon (a shot sends one back,
    R20.6, R20.9); 4 ``targets``, opponent forts in range of its cannons; 5 ``cannons_ready``, cannons
    earned and not built, 6 ``blockade_ready``, the blockade earned and not built (R20.8); 7 ``network``,
    its road spaces (R20.5); 8 ``frontier``, the spaces a road of it may go on (grass or forest next to the
    network, no road, no other ship); 9 ``frontier_sites``, those where that road would be more than 3
    steps from each of its forts (through road and forest) and out of opponents' range: a fort site next
    turn; 10 ``fort_spaces``, where a fort of it may go now (an empty connected road space, spaced from its
    forts, out of opponents' range; none with 10 forts or before its first road, R20.6, R20.7);
    11 ``fort_room``, the grass and forest spaces with no piece or ship, out of opponents' range and more
    than 3 steps through grass and forest from each of its forts: where forts may yet stand once roads
    reach them; 12 ``open_room``, those of them without a road yet; 13 ``territory``; 14 ``seats_to_move``,
    seats until it moves (0: the player to move; 0 for all once the game is over)."""
    cdef BB land = bb_or(s.grass, s.forest)
    cdef BB through = bb_or(s.road, s.forest)
    cdef BB taken = bb_or(bb_or(all_of(s.fort, s.players), all_of(s.cannon, s.players)),
                          bb_or(all_of(s.blockade, s.players), ship_spaces(s, NOBODY)))
    cdef BB opp_hit, frontier, room
    cdef int area[MAX_PLAYERS]
    cdef int seat, k
    territory(s, area)
    for seat in range(s.players):
        k = seat * CUT_FEATURES
        opp_hit = others_of(s.hit, s.players, seat)
        frontier = road_targets(s, seat, land)
        f[k + 0] = bb_count(s.fort[seat])
        f[k + 1] = bb_count(bb_and(s.fort[seat], s.board[seat]))
        f[k + 2] = bb_count(s.cannon[seat]) + bb_count(s.blockade[seat])
        f[k + 3] = bb_count(bb_and(s.fort[seat], opp_hit))
        f[k + 4] = bb_count(bb_and(s.hit[seat], others_of(s.fort, s.players, seat)))
        f[k + 5] = popcount(s.earned[seat] & (CANNON_1 | CANNON_2)) - bb_count(s.cannon[seat])
        f[k + 6] = 1 if (s.earned[seat] & BLOCKADE) and not bb_any(s.blockade[seat]) else 0
        f[k + 7] = bb_count(s.net[seat])
        f[k + 8] = bb_count(frontier)
        f[k + 9] = bb_count(bb_andnot(frontier, bb_or(opp_hit, near_forts(s, seat, through))))
        f[k + 10] = 0
        if bb_count(s.fort[seat]) < FORTS and s.ships[seat] != NO_SPACE and bb_has(s.road, s.ships[seat]):
            f[k + 10] = bb_count(bb_andnot(bb_andnot(s.net[seat], taken), bb_or(opp_hit, fort_zone(s, seat))))
        room = bb_andnot(bb_andnot(land, taken), bb_or(opp_hit, near_forts(s, seat, land)))
        f[k + 11] = bb_count(room)
        f[k + 12] = bb_count(bb_andnot(room, s.road))
        f[k + 13] = area[seat]
        f[k + 14] = (seat - s.to_move + s.players) % s.players if s.to_move != NOBODY else 0


cdef class CutModel:
    """What a rollout cut short is worth: for each phase (``cut_bucket``), weights of each seat's features
    (``cut_features``, ``CUT_FEATURES`` numbers).

    ``win[b]`` (``CUT_FEATURES`` numbers): a seat's win chance is the softmax
    over the seats of the weighted sum of its features.  ``points[b]``
    (``CUT_FEATURES`` + 1, the last a constant): a seat's expected forts on
    the island at the end.  ``players``: the player count it was fitted for.
    Fitted from the playout policy's own games (``kanaloa.tools.cutfit``).
    """

    cdef double win[CUT_BUCKETS][CUT_FEATURES]
    cdef double points[CUT_BUCKETS][CUT_FEATURES + 1]
    cdef readonly int players

    def __init__(self, players, win, points):
        cdef int b, k
        self.players = _int(players, "players", _cb.MIN_PLAYERS, MAX_PLAYERS)
        for name, rows, width in (("win", win, CUT_FEATURES), ("points", points, CUT_FEATURES + 1)):
            if not isinstance(rows, (list, tuple)) or len(rows) != CUT_BUCKETS:
                raise ValueError(f"{name}: must be {CUT_BUCKETS} rows, one a phase")
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
    def shape():
        """(phases, features): the rows a model has and the features of a seat each row weighs."""
        return CUT_BUCKETS, CUT_FEATURES

    @staticmethod
    def feature_names():
        """The names of a seat's features, in order (``cut_features``)."""
        return list(CUT_FEATURE_NAMES)

    def weights(self):
        """(win rows, points rows) as lists, as they were given."""
        return ([[self.win[b][k] for k in range(CUT_FEATURES)] for b in range(CUT_BUCKETS)],
                [[self.points[b][k] for k in range(CUT_FEATURES + 1)] for b in range(CUT_BUCKETS)])


cdef void cut_estimate(const CBState* s, CutModel model, double* chances, double* expected) noexcept:
    """The model's win chance and expected final forts for each seat of ``s``."""
    cdef double f[MAX_PLAYERS * CUT_FEATURES]
    cdef double top = -1e300, total = 0.0, v, x
    cdef int seat, k, bucket = cut_bucket(s)
    cut_features(s, f)
    for seat in range(s.players):
        v = 0.0
        x = model.points[bucket][CUT_FEATURES]
        for k in range(CUT_FEATURES):
            v += model.win[bucket][k] * f[seat * CUT_FEATURES + k]
            x += model.points[bucket][k] * f[seat * CUT_FEATURES + k]
        chances[seat] = v
        expected[seat] = x
        if v > top:
            top = v
    for seat in range(s.players):
        chances[seat] = exp(chances[seat] - top)
        total += chances[seat]
    for seat in range(s.players):
        chances[seat] /= total


# ---------------------------------------------------------------------------
# Python API
# ---------------------------------------------------------------------------

def _int(value, name, lo, hi):
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"{name}: {value!r} is not an integer from {lo} to {hi}")
    return value


def _int_list(values, name, length, lo, hi):
    if not isinstance(values, (list, tuple)) or len(values) != length:
        raise ValueError(f"{name}: expected a list of {length} entries")
    return [_int(v, f"{name}[{i}]", lo, hi) for i, v in enumerate(values)]


def _seed64(seed):
    """A stream's seed as SplitMix64 takes it: any integer, kept modulo 2**64."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed: {seed!r} is not an integer")
    return seed & 0xFFFFFFFFFFFFFFFF


def _bool(value, name):
    if not isinstance(value, bool):
        raise ValueError(f"{name}: {value!r} is not true or false")
    return value


cdef list _spaces_of(BB a, int n):
    return [i for i in range(n) if bb_has(a, i)]


def _action_name(action, columns):
    if isinstance(action, bool) or not isinstance(action, int) or action < 0 or action >= 8 * MAX_SPACES:
        return repr(action)
    kind, space = divmod(action, MAX_SPACES)
    word = _cb.ACTION_WORDS[kind]
    if kind >= END:
        return f"{action} ({word})"
    return f"{action} ({word} {_cb.space_name(space, columns)})" if space < MAX_SPACES else repr(action)


cdef void set_island(CBState* s, list terrain, list board_of) noexcept:
    """The fixed masks of the island (valid, terrain, edge, boards, rows, columns)."""
    cdef int cols = s.columns, rows = s.rows, n = s.n_spaces, i, r, c, dr, dc, rr, cc, j, p
    cdef BB* masks[5]
    s.valid = bb_zero()
    s.grass = bb_zero()
    s.forest = bb_zero()
    s.lake = bb_zero()
    s.mountain = bb_zero()
    s.outside = bb_zero()
    masks[0] = &s.grass
    masks[1] = &s.forest
    masks[2] = &s.lake
    masks[3] = &s.mountain
    masks[4] = &s.outside
    for r in range(MAX_ROWS):
        s.row_mask[r] = bb_zero()
    for c in range(MAX_COLUMNS):
        s.col_mask[c] = bb_zero()
    for p in range(MAX_PLAYERS):
        s.board[p] = bb_zero()
        s.near_other[p] = bb_zero()
    for i in range(n):
        bb_set(&s.valid, i)
        bb_set(masks[<int>terrain[i]], i)
        bb_set(&s.row_mask[i // cols], i)
        bb_set(&s.col_mask[i % cols], i)
        if board_of[i] != NOBODY:
            bb_set(&s.board[<int>board_of[i]], i)
    s.island = bb_andnot(s.valid, s.outside)
    s.stop = bb_or(s.mountain, s.outside)
    s.edge = bb_zero()
    for i in range(n):
        if terrain[i] == OUTSIDE:
            continue
        r, c = i // cols, i % cols
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            rr, cc = r + dr, c + dc
            if not (0 <= rr < rows and 0 <= cc < cols) or terrain[rr * cols + cc] == OUTSIDE:
                bb_set(&s.edge, i)
        for dr in range(-1, 2):
            for dc in range(-1, 2):
                rr, cc = r + dr, c + dc
                if (dr or dc) and 0 <= rr < rows and 0 <= cc < cols:
                    j = rr * cols + cc
                    if terrain[j] != OUTSIDE and board_of[j] != board_of[i]:
                        bb_set(&s.near_other[<int>board_of[i]], i)



# -- learning: a seat's observation as numbers, the actions numbered densely (kanaloa.pettingzoo) -------------

# An observation is one flat float32 array of fields, in the order of OBS_FIELD_NAMES; nothing is hidden in this
# game (R20), so every seat sees the whole state, its own seat first: seat ``(viewer + r) % players`` is the
# viewer's r-th.  A plane is one number per space of the grid (``row * columns + column``).  docs/pettingzoo.md
# says what each field holds.  An action is ``kind * spaces + space`` for the kinds that name a space, then
# ``end`` and ``pass``: the dense numbering of ``kanaloa.cannonball.tensor``.

OBS_FIELD_NAMES = ("terrain", "boards", "roads", "forts", "cannons", "blockades", "ships", "earned", "supply",
                   "fired", "grass_roads", "passes", "round", "to_move", "winners")
cdef enum:
    OBS_TERRAINS = 4     # grass, forest, lake, mountain (outside the island: none)
    OBS_ROUNDS = 3       # landing, play, over


def observation_layout(players, columns, rows):
    """The fields of the observation of a game of ``players`` on a ``columns`` x ``rows`` grid, in order: a
    list of (name, size)."""
    cdef int p = _int(players, "players", _cb.MIN_PLAYERS, MAX_PLAYERS)
    cdef int n = _int(columns, "columns", 1, MAX_COLUMNS) * _int(rows, "rows", 1, MAX_ROWS)
    sizes = (OBS_TERRAINS * n, p * n, n, p * n, p * n, p * n, p * n, p * 3, 1, 1, 1, 1, OBS_ROUNDS, p, p)
    return list(zip(OBS_FIELD_NAMES, sizes))


cdef inline int obs_size(const CBState* s) noexcept nogil:
    return (OBS_TERRAINS + 5 * s.players + 1) * s.n_spaces + 3 * s.players + 4 + OBS_ROUNDS + 2 * s.players


ctypedef fused plane_cell:  # a plane of observations (float) or of a legal-move mask (int8_t)
    float
    int8_t


cdef inline void write_plane(BB a, plane_cell* out) noexcept nogil:
    """Set ``out[i]`` to 1 for every space ``i`` of ``a``; the other cells are left as they are."""
    cdef int w
    cdef uint64_t bits
    for w in range(3):
        bits = a.w[w]
        while bits:
            out[64 * w + lowest_bit(bits)] = 1
            bits &= bits - 1


cdef void observe_state(const CBState* s, int v, float* out) noexcept nogil:
    """Write the state as seat ``v`` sees it into ``out[:obs_size(s)]`` (the fields of OBS_FIELD_NAMES)."""
    cdef int n = s.n_spaces, p = s.players, r, t, k
    cdef float* o = out
    memset(out, 0, obs_size(s) * sizeof(float))
    write_plane(s.grass, o)
    write_plane(s.forest, o + n)
    write_plane(s.lake, o + 2 * n)
    write_plane(s.mountain, o + 3 * n)
    o += OBS_TERRAINS * n
    for r in range(p):
        write_plane(s.board[(v + r) % p], o + r * n)
    o += p * n
    write_plane(s.road, o)
    o += n
    for r in range(p):
        t = (v + r) % p
        write_plane(s.fort[t], o + r * n)
        write_plane(s.cannon[t], o + (p + r) * n)
        write_plane(s.blockade[t], o + (2 * p + r) * n)
        if s.ships[t] != NO_SPACE:
            o[(3 * p + r) * n + s.ships[t]] = 1.0
    o += 4 * p * n
    for r in range(p):
        t = (v + r) % p
        o[3 * r] = (s.earned[t] & CANNON_1) != 0
        o[3 * r + 1] = (s.earned[t] & CANNON_2) != 0
        o[3 * r + 2] = (s.earned[t] & BLOCKADE) != 0
    o += 3 * p
    o[0] = s.supply
    o[1] = s.fired
    o[2] = s.grass_roads
    o[3] = s.passes
    o += 4
    o[s.round] = 1.0
    o += OBS_ROUNDS
    if s.round != ROUND_OVER:
        o[(s.to_move - v + p) % p] = 1.0
    o += p
    for k in range(s.n_winners):
        o[(s.winners[k] - v + p) % p] = 1.0


cdef int write_mask(const CBState* s, int8_t* mask) noexcept nogil:
    """Zero ``mask`` (``BOARD_KINDS * spaces + 2`` entries) and set every legal action's index; how many."""
    cdef Moves m
    cdef int k, n = s.n_spaces
    legal_moves(s, &m)
    memset(mask, 0, BOARD_KINDS * n + 2)
    for k in range(BOARD_KINDS):
        write_plane(m.kind[k], mask + k * n)
    mask[BOARD_KINDS * n] = m.end
    mask[BOARD_KINDS * n + 1] = m.pass_
    return m.count


cdef class CoreState:
    """A complete Cannonball Colony state in C (R20); the engine state protocol.

    Made by ``from_data``; ``apply`` checks legality (ValueError naming the action).
    """

    cdef CBState st
    cdef object _seed  # the position's seed (R20.2: it chose the layout; nothing in the rules reads it)

    def __init__(self, *args, **kwargs):
        raise TypeError("CoreState is made by CoreState.from_data(data)")

    @staticmethod
    def from_data(d):
        """The state described by ``d`` (a ``CannonballData``); ValueError names the first bad field."""
        cdef CoreState out = CoreState.__new__(CoreState)
        cdef CBState* s = &out.st
        cdef int players, cols, rows, n, i, p, seat
        if not isinstance(d, CannonballData):
            raise ValueError(f"data: expected a CannonballData, not {type(d).__name__}")
        players = _int(d.players, "players", _cb.MIN_PLAYERS, MAX_PLAYERS)
        cols = _int(d.columns, "columns", 1, MAX_COLUMNS)
        rows = _int(d.rows, "rows", 1, MAX_ROWS)
        n = cols * rows
        terrain = _int_list(d.terrain, "terrain", n, GRASS, OUTSIDE)
        board_of = _int_list(d.board_of, "board_of", n, NOBODY, players - 1)
        for i in range(n):
            if (terrain[i] == OUTSIDE) != (board_of[i] == NOBODY):
                raise ValueError(f"board_of[{i}]: {board_of[i]} on {_cb.TERRAIN_NAMES[terrain[i]]} "
                                 "(a space outside the island has no board, every other one has one)")
        s.players, s.columns, s.rows, s.n_spaces = players, cols, rows, n
        set_island(s, terrain, board_of)
        if isinstance(d.seed, bool) or not isinstance(d.seed, int):
            raise ValueError(f"seed: {d.seed!r} is not an integer")
        out._seed = d.seed
        s.round = _int(d.round, "round", ROUND_LANDING, ROUND_OVER)
        over = s.round == ROUND_OVER
        s.to_move = _int(d.to_move, "to_move", NOBODY, NOBODY) if over else _int(d.to_move, "to_move", 0, players - 1)
        ships = _int_list(d.ships, "ships", players, NO_SPACE, n - 1)
        road = d.road
        if not isinstance(road, (list, tuple)) or len(road) != n:
            raise ValueError(f"road: expected a list of {n} entries")
        fort = _int_list(d.fort, "fort", n, NOBODY, players - 1)
        cannon = _int_list(d.cannon, "cannon", n, NOBODY, players - 1)
        blockade = _int_list(d.blockade, "blockade", n, NOBODY, players - 1)
        earned = _int_list(d.earned, "earned", players, 0, CANNON_1 | CANNON_2 | BLOCKADE)
        s.road = bb_zero()
        for p in range(MAX_PLAYERS):
            s.fort[p] = bb_zero()
            s.cannon[p] = bb_zero()
            s.blockade[p] = bb_zero()
            s.net[p] = bb_zero()
            s.hit[p] = bb_zero()
            s.ships[p] = NO_SPACE
            s.earned[p] = 0
        for seat in range(players):
            if ships[seat] != NO_SPACE and terrain[ships[seat]] not in (GRASS, FOREST):
                raise ValueError(f"ships[{seat}]: space {ships[seat]} is not grass or forest")
            if ships[seat] != NO_SPACE and ships[seat] in ships[:seat]:
                raise ValueError(f"ships[{seat}]: space {ships[seat]} holds another ship")
            s.ships[seat] = ships[seat]
            s.earned[seat] = earned[seat]
        for i in range(n):
            if _bool(road[i], f"road[{i}]"):
                if terrain[i] not in (GRASS, FOREST):
                    raise ValueError(f"road[{i}]: a road on {_cb.TERRAIN_NAMES[terrain[i]]}")
                bb_set(&s.road, i)
            pieces = (fort[i] != NOBODY) + (cannon[i] != NOBODY) + (blockade[i] != NOBODY)
            if pieces and not road[i]:
                raise ValueError(f"fort/cannon/blockade[{i}]: a piece on a space without a road")
            if pieces > 1 or (pieces and i in ships):
                raise ValueError(f"fort/cannon/blockade[{i}]: more than one piece on the space")
            if fort[i] != NOBODY:
                bb_set(&s.fort[<int>fort[i]], i)
            if cannon[i] != NOBODY:
                bb_set(&s.cannon[<int>cannon[i]], i)
            if blockade[i] != NOBODY:
                bb_set(&s.blockade[<int>blockade[i]], i)
        for seat in range(players):
            if bb_count(s.fort[seat]) > FORTS:
                raise ValueError(f"fort: seat {seat} has more than {FORTS} forts")
            if bb_count(s.cannon[seat]) > popcount(s.earned[seat] & (CANNON_1 | CANNON_2)):
                raise ValueError(f"cannon: seat {seat} has more cannons than it earned")
            if bb_count(s.blockade[seat]) > (1 if s.earned[seat] & BLOCKADE else 0):
                raise ValueError(f"blockade: seat {seat} has more blockades than it earned")
        s.supply = _int(d.supply, "supply", 0, 10000)
        s.fired = _bool(d.fired, "fired")
        s.grass_roads = _int(d.grass_roads, "grass_roads", 0, 1)
        s.passes = _int(d.passes, "passes", 0, players)
        s.reason = _int(d.reason, "reason", REASON_NONE, REASON_ALL_PASSED)
        s.n_winners = 0
        for i in range(MAX_PLAYERS):
            s.winners[i] = NOBODY
            s.ranking[i] = NOBODY
        if over:
            winners = d.winners
            if not isinstance(winners, (list, tuple)) or not 1 <= len(winners) <= players:
                raise ValueError("winners: expected a list of 1 to players seats")
            for i, seat in enumerate(_int_list(winners, "winners", len(winners), 0, players - 1)):
                s.winners[i] = seat
            s.n_winners = len(winners)
            ranking = _int_list(d.ranking, "ranking", players, 0, players - 1)
            if sorted(ranking) != list(range(players)):
                raise ValueError("ranking: not every seat once")
            for i in range(players):
                s.ranking[i] = ranking[i]
            if s.reason == REASON_NONE:
                raise ValueError("reason: a finished game needs one")
        else:
            if d.winners or d.ranking:
                raise ValueError("winners/ranking: only once the game is over")
            if s.reason != REASON_NONE:
                raise ValueError("reason: only once the game is over")
        for seat in range(players):
            s.net[seat] = network_from_scratch(s, seat)
        compute_hits(s)
        return out

    def to_data(self):
        """This state as a ``CannonballData``."""
        cdef CBState* s = &self.st
        cdef int n = s.n_spaces, i, p
        terrain = [GRASS] * n
        board_of = [NOBODY] * n
        fort = [NOBODY] * n
        cannon = [NOBODY] * n
        blockade = [NOBODY] * n
        for i in range(n):
            terrain[i] = (FOREST if bb_has(s.forest, i) else LAKE if bb_has(s.lake, i) else
                          MOUNTAIN if bb_has(s.mountain, i) else OUTSIDE if bb_has(s.outside, i) else GRASS)
            for p in range(s.players):
                if bb_has(s.board[p], i):
                    board_of[i] = p
                if bb_has(s.fort[p], i):
                    fort[i] = p
                if bb_has(s.cannon[p], i):
                    cannon[i] = p
                if bb_has(s.blockade[p], i):
                    blockade[i] = p
        over = s.round == ROUND_OVER
        return CannonballData(
            players=s.players, columns=s.columns, rows=s.rows, terrain=terrain, board_of=board_of,
            seed=self._seed, round=s.round, to_move=s.to_move,
            ships=[s.ships[p] for p in range(s.players)],
            road=[bool(bb_has(s.road, i)) for i in range(n)],
            fort=fort, cannon=cannon, blockade=blockade,
            earned=[s.earned[p] for p in range(s.players)],
            supply=s.supply, fired=bool(s.fired), grass_roads=s.grass_roads, passes=s.passes,
            winners=[s.winners[i] for i in range(s.n_winners)] if over else [],
            ranking=[s.ranking[i] for i in range(s.players)] if over else [],
            reason=s.reason,
        )

    def copy(self):
        """An independent copy (a struct copy)."""
        cdef CoreState out = CoreState.__new__(CoreState)
        out.st = self.st
        out._seed = self._seed
        return out

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        return (CoreState.from_data, (self.to_data(),))

    def legal_actions(self):
        """The legal actions of the player to move, ascending (``state.encode`` codes); [] once over."""
        cdef Moves m
        cdef int i
        legal_moves(&self.st, &m)
        return [move_at(&m, i) for i in range(m.count)]

    def is_legal(self, action):
        """Whether ``action`` is among ``legal_actions()``."""
        cdef Moves m
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < 8 * MAX_SPACES:
            return False
        legal_moves(&self.st, &m)
        return bool(is_legal(&m, action))

    def apply(self, action):
        """Play ``action`` for the player to move; ValueError naming it when it is not legal now."""
        cdef Moves m
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < 8 * MAX_SPACES:
            raise ValueError(f"action {action!r}: not an action code")
        legal_moves(&self.st, &m)
        if not is_legal(&m, action):
            why = "the game is over" if self.st.round == ROUND_OVER else "not a legal move now"
            raise ValueError(f"action {_action_name(action, self.st.columns)}: {why}")
        apply_move(&self.st, action)

    @property
    def players(self):
        return self.st.players

    @property
    def columns(self):
        return self.st.columns

    @property
    def rows(self):
        return self.st.rows

    @property
    def to_move(self):
        return self.st.to_move

    @property
    def round(self):
        return self.st.round

    @property
    def is_over(self):
        return self.st.round == ROUND_OVER

    @property
    def winners(self):
        return [self.st.winners[i] for i in range(self.st.n_winners)] if self.st.round == ROUND_OVER else []

    @property
    def ranking(self):
        return [self.st.ranking[i] for i in range(self.st.players)] if self.st.round == ROUND_OVER else []

    @property
    def reason(self):
        return self.st.reason

    @property
    def supply(self):
        return self.st.supply

    @property
    def passes(self):
        return self.st.passes

    @property
    def fired(self):
        return bool(self.st.fired)

    @property
    def grass_roads(self):
        return self.st.grass_roads

    @property
    def forts(self):
        """Each seat's forts on the island (R20.7), in seat order."""
        return [forts_on_island(&self.st, p) for p in range(self.st.players)]

    def network(self, seat):
        """The spaces of ``seat``'s network (R20.5), ascending."""
        seat = _int(seat, "seat", 0, self.st.players - 1)
        return _spaces_of(self.st.net[<int>seat], self.st.n_spaces)

    def in_range(self, seat):
        """The spaces in range of ``seat``'s cannons (R20.9), ascending."""
        seat = _int(seat, "seat", 0, self.st.players - 1)
        return _spaces_of(self.st.hit[<int>seat], self.st.n_spaces)

    def check_derived(self):
        """Whether the kept networks and ranges equal ones computed afresh (a test of the incremental updates)."""
        cdef CBState fresh = self.st
        cdef int p
        for p in range(fresh.players):
            fresh.net[p] = network_from_scratch(&fresh, p)
        compute_hits(&fresh)
        for p in range(fresh.players):
            if not bb_eq(fresh.net[p], self.st.net[p]) or not bb_eq(fresh.hit[p], self.st.hit[p]):
                return False
        return True

    # -- learning (kanaloa.pettingzoo) ----------------------------------------

    def observation_size(self) -> int:
        """How many numbers ``observe`` writes (``observation_layout`` of this state's game)."""
        return obs_size(&self.st)

    def observe(self, viewer, float[::1] out not None):
        """Write the state as ``viewer`` sees it (everything, its own seat first) into ``out`` (float32,
        ``observation_size()`` numbers).  ValueError for another viewer or another length of ``out``."""
        cdef int v = _int(viewer, "viewer", 0, self.st.players - 1)
        if out.shape[0] != obs_size(&self.st):
            raise ValueError(f"out: must hold {obs_size(&self.st)} numbers, not {out.shape[0]}")
        observe_state(&self.st, v, &out[0])

    def legal_mask(self, int8_t[::1] out not None):
        """Set ``out[i]`` (int8) to 1 for every legal action's index (``kind * spaces + space``, then ``end``
        and ``pass``) and to 0 elsewhere; return how many are legal.  ValueError for another length."""
        cdef int need = BOARD_KINDS * self.st.n_spaces + 2
        if out.shape[0] != need:
            raise ValueError(f"out: must hold {need} entries, one per action, not {out.shape[0]}")
        return write_mask(&self.st, &out[0])

    def heuristic_action(self, seed):
        """The move the heuristic playout policy (``pick_heuristic``) plays here on the stream
        SplitMix64(seed); None once the game is over."""
        cdef uint64_t rng = _seed64(seed)
        cdef Moves m
        if self.st.round == ROUND_OVER:
            return None
        legal_moves(&self.st, &m)
        return pick_heuristic(&self.st, &m, &rng)

    def playout(self, seed, heuristic=False):
        """Play a copy of this state to the end in C, on the stream SplitMix64(seed); this state is unchanged.

        Uniform play (the default) takes ``legal[next() % len(legal)]`` of the sorted legal list at every
        move; ``heuristic`` plays ``pick_heuristic``'s policy.  Returns the number of moves played.
        """
        cdef uint64_t s0 = _seed64(seed)
        cdef bint h = bool(heuristic)
        cdef CBState work = self.st
        cdef long long moves
        with nogil:
            moves = playout_state(&work, s0, h, MAX_PLAYOUT_MOVES)
        return moves

    def rollout(self, seed, heuristic=False):
        """Play this state itself to the end in C, as ``playout`` plays its copy (the same stream and policy):
        a search's rollout.  Returns the number of moves played."""
        cdef uint64_t s0 = _seed64(seed)
        cdef bint h = bool(heuristic)
        cdef long long moves
        with nogil:
            moves = playout_state(&self.st, s0, h, MAX_PLAYOUT_MOVES)
        return moves

    def random_games(self, n, seed, heuristic=False):
        """Play ``n`` whole games from this state (game g: ``playout(seed + g)``), all in C; the total moves."""
        cdef long long games = _int(n, "n", 0, 1 << 62), g, moves = 0
        cdef uint64_t s0 = _seed64(seed)
        cdef bint h = bool(heuristic)
        cdef CBState work
        with nogil:
            for g in range(games):
                work = self.st
                moves += playout_state(&work, s0 + <uint64_t>g, h, MAX_PLAYOUT_MOVES)
        return moves

    def cut_features(self):
        """(phase, features of every seat) as a cut model judges this state (``cut_bucket``, ``cut_features``)."""
        cdef double f[MAX_PLAYERS * CUT_FEATURES]
        cdef int seat, k
        cut_features(&self.st, f)
        return cut_bucket(&self.st), [[f[seat * CUT_FEATURES + k] for k in range(CUT_FEATURES)]
                                      for seat in range(self.st.players)]

    def _check_model(self, CutModel model):
        if model.players != self.st.players:
            raise ValueError(f"model: fitted for {model.players} players; this game has {self.st.players}")

    def estimate(self, CutModel model not None):
        """(each seat's win chance, each seat's expected final forts) that ``model`` gives this state, as
        ``playout_cut`` would after its moves.  Raises ValueError for a model of another player count, and
        for a finished game."""
        cdef double chances[MAX_PLAYERS]
        cdef double expected[MAX_PLAYERS]
        cdef int seat
        self._check_model(model)
        if self.st.round == ROUND_OVER:
            raise ValueError("estimate: the game is over")
        cut_estimate(&self.st, model, chances, expected)
        return ([chances[seat] for seat in range(self.st.players)],
                [expected[seat] for seat in range(self.st.players)])

    def playout_cut(self, seed, heuristic, plies, CutModel model not None):
        """Play this state itself on as ``rollout(seed, heuristic)`` would, but at most ``plies`` moves; None
        if the game ended, else ``estimate(model)`` of the state reached.

        Raises ValueError (before any move) for a model of another player count or a bad argument.
        """
        cdef uint64_t s0 = _seed64(seed)
        cdef bint h = _bool(heuristic, "heuristic")
        cdef long long n = _int(plies, "plies", 0, 1 << 62)
        cdef double chances[MAX_PLAYERS]
        cdef double expected[MAX_PLAYERS]
        cdef int seat
        self._check_model(model)
        with nogil:
            playout_state(&self.st, s0, h, n)
        if self.st.round == ROUND_OVER:
            return None
        cut_estimate(&self.st, model, chances, expected)
        return ([chances[seat] for seat in range(self.st.players)],
                [expected[seat] for seat in range(self.st.players)])

    def sampled_playout(self, seed, heuristic, sample_seed, double share):
        """Play this state itself to the end as ``rollout(seed, heuristic)`` does and return ``cut_features()``
        of the states on the way (this one included, the finished game not) that SplitMix64(``sample_seed``)
        picks, each with chance ``share``: the samples ``kanaloa.tools.cutfit`` fits the models to."""
        cdef uint64_t rng = _seed64(seed), pick = _seed64(sample_seed), limit
        cdef bint h = _bool(heuristic, "heuristic")
        cdef long long moves = 0
        cdef Moves m
        if not 0.0 <= share <= 1.0:
            raise ValueError(f"share: must be between 0 and 1, not {share!r}")
        limit = <uint64_t>(share * 4294967296.0)
        out = []
        while self.st.round != ROUND_OVER and moves < MAX_PLAYOUT_MOVES:
            if (sm_next(&pick) >> 32) < limit:
                out.append(self.cut_features())
            legal_moves(&self.st, &m)
            apply_move(&self.st, pick_move(&self.st, &m, &rng, h))
            moves += 1
        return out
