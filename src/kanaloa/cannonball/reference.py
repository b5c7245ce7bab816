"""Cannonball Colony's rules in plain Python (R20.3-R20.10): the readable reference the compiled core follows.

A ``ReferenceState`` wraps one ``CannonballData`` (``kanaloa.cannonball.state``)
and plays integer actions (``state.encode(kind, space)``) on it.  The rules are
written once, as functions that say why a move is not allowed
(``landing_problem``, ``road_problem``, ``fort_problem`` ...): ``why_illegal``
asks them about one move, and ``legal_actions`` asks them about every
candidate move (roads next to the network, pieces on it), so that the two
agree as long as the candidates hold every legal move; the tests check that
over every action code.  The geometry the rules need (neighbours, the island's
edge, a space touching another player's board) is kept here too, so this
module depends on nothing but the state's contract.

The turn (R20.6, with the project's decisions where R20 leaves it open):

* the landing round: the seats land in seat order (``land SPACE``); a seat with
  no legal landing space passes (it then has no ship and, with no network,
  passes for the rest of the game; the built-in tiles never lead there), and
  such a landing pass does not count towards the all-passed end, which counts
  play turns only;
* a play turn: an optional ``fire SPACE`` first, then exactly one build, or
  ``pass`` when no build is legal; after a first grass road the turn stays open
  (``grass_roads == 1``) only while a second grass road is legal, and then the
  legal moves are every second grass road and ``end``;
* the game ends at once with the last road tile, or when a player has all ten
  forts on the island, or when every player in a row has passed without a shot
  (R20.10).

Messages name players by country (``COUNTRIES``, seat order, R20.3) and spaces
like ``c7``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

from kanaloa.cannonball.state import (
    ACTION_WORDS,
    BLOCKADE,
    BLOCKADE_BUILD,
    BLOCKADES,
    CANNON_1,
    CANNON_2,
    CANNON_BUILD,
    COUNTRIES,
    EARNED_AT,
    EARNED_PIECES,
    END,
    FIRE,
    FOREST,
    FORT_BUILD,
    FORT_SPACING,
    FORTS,
    GRASS,
    LAND,
    LANDING_SPACING,
    MAX_SPACES,
    MOUNTAIN,
    NO_SPACE,
    NOBODY,
    OUTSIDE,
    PASS,
    REASON_ALL_PASSED,
    REASON_SUPPLY,
    REASON_TEN_FORTS,
    ROAD,
    ROUND_LANDING,
    ROUND_OVER,
    ROUND_PLAY,
    TERRAIN_NAMES,
    CannonballData,
    decode,
    encode,
    space_name,
)
from kanaloa.errors import MoveError

__all__ = [
    "ReferenceState",
    "action_text",
    "around",
    "country",
    "decide",
    "fort_distance",
    "in_range",
    "landing_spaces",
    "manhattan",
    "neighbours",
    "network",
    "on_edge",
    "shots_from",
    "touches_other_board",
    "why_illegal",
]

SPACE_KINDS = (LAND, FIRE, ROAD, FORT_BUILD, CANNON_BUILD, BLOCKADE_BUILD)  # the kinds that name a space
BUILD_KINDS = (ROAD, FORT_BUILD, CANNON_BUILD, BLOCKADE_BUILD)
CANNON_BITS = (CANNON_1, CANNON_2)


# -- names ------------------------------------------------------------------------------------------


def country(seat: int) -> str:
    """The country a seat plays (R20.3: seats 0-3 take france, spain, portugal, england in that order)."""
    return COUNTRIES[seat] if 0 <= seat < len(COUNTRIES) else f"seat {seat}"


def action_text(d: CannonballData, action: int) -> str:
    """The notation of an action: ``road c5``, ``end``, ``pass``; a code naming no move is shown as a number."""
    kind, space = decode(action)
    if action < 0 or kind >= len(ACTION_WORDS):
        return f"action {action}"
    if kind in (END, PASS):
        return ACTION_WORDS[kind] if space == 0 else f"action {action}"
    if space >= d.spaces:
        return f"{ACTION_WORDS[kind]} (space {space})"
    return f"{ACTION_WORDS[kind]} {space_name(space, d.columns)}"


def _name(d: CannonballData, space: int) -> str:
    return space_name(space, d.columns)


def _terrain_text(d: CannonballData, space: int) -> str:
    """``a lake``, ``a forest space``, ``outside the island``: what a space is, for a message."""
    terrain = d.terrain[space]
    if terrain == OUTSIDE:
        return "outside the island"
    if terrain in (GRASS, FOREST):
        return f"a {TERRAIN_NAMES[terrain]} space"
    return f"a {TERRAIN_NAMES[terrain]}"


# -- geometry (R20.1) ---------------------------------------------------------------------------------


def neighbours(d: CannonballData, space: int) -> list[int]:
    """The spaces of the grid orthogonally next to ``space`` (up to 4; outside spaces included)."""
    row, column = divmod(space, d.columns)
    result = []
    if row > 0:
        result.append(space - d.columns)
    if row < d.rows - 1:
        result.append(space + d.columns)
    if column > 0:
        result.append(space - 1)
    if column < d.columns - 1:
        result.append(space + 1)
    return result


def around(d: CannonballData, space: int) -> list[int]:
    """The spaces of the grid orthogonally or diagonally next to ``space`` (up to 8)."""
    row, column = divmod(space, d.columns)
    result = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            r, c = row + dr, column + dc
            if (dr or dc) and 0 <= r < d.rows and 0 <= c < d.columns:
                result.append(r * d.columns + c)
    return result


def manhattan(d: CannonballData, a: int, b: int) -> int:
    """Steps between two spaces counted along rows and columns, whatever lies between (R20.4)."""
    ra, ca = divmod(a, d.columns)
    rb, cb = divmod(b, d.columns)
    return abs(ra - rb) + abs(ca - cb)


def on_edge(d: CannonballData, space: int) -> bool:
    """Whether a side of ``space`` lies on the island's outline: a neighbour off the grid or outside (R20.4)."""
    near = neighbours(d, space)
    return len(near) < 4 or any(d.terrain[n] == OUTSIDE for n in near)


def touches_other_board(d: CannonballData, space: int, seat: int) -> bool:
    """Whether ``space`` touches an island space of another landing board, even diagonally (R20.4)."""
    return any(d.terrain[n] != OUTSIDE and d.board_of[n] not in (seat, NOBODY) for n in around(d, space))


# -- the network (R20.5) ------------------------------------------------------------------------------


def _blocks(d: CannonballData, seat: int, space: int) -> bool:
    """Whether ``space`` can be neither entered nor passed by ``seat``'s network: an opponent's fort or any
    blockade stands there (R20.5)."""
    return d.blockade[space] != NOBODY or d.fort[space] not in (NOBODY, seat)


def network(d: CannonballData, seat: int) -> set[int]:
    """Every road space ``seat`` is connected to (R20.5).

    The fill starts from the seat's ship space (once it holds a road) and from
    each of its forts, and steps orthogonally through road spaces, never into a
    space holding an opponent's fort or any blockade (the seat's own too).  Own
    forts, cannons and every ship let it through.
    """
    starts = [space for space in range(d.spaces) if d.fort[space] == seat]
    ship = d.ships[seat] if 0 <= seat < len(d.ships) else NO_SPACE
    if ship != NO_SPACE and d.road[ship]:
        starts.append(ship)
    reached: set[int] = set()
    queue = deque(space for space in starts if not _blocks(d, seat, space))
    reached.update(queue)
    while queue:
        space = queue.popleft()
        for n in neighbours(d, space):
            if n not in reached and d.road[n] and not _blocks(d, seat, n):
                reached.add(n)
                queue.append(n)
    return reached


def next_to_network(d: CannonballData, seat: int) -> set[int]:
    """The spaces orthogonally next to ``seat``'s network and not on it (R20.5)."""
    net = network(d, seat)
    return {n for space in net for n in neighbours(d, space) if n not in net}


# -- forts' spacing (R20.7) ---------------------------------------------------------------------------


def fort_distance(d: CannonballData, a: int, b: int) -> int | None:
    """The fewest orthogonal steps from ``a`` to ``b`` through road and forest spaces, whatever stands on
    them, ``a`` and ``b`` themselves counting as road spaces; None when no such path exists (R20.7)."""
    if a == b:
        return 0
    steps = {a: 0}
    queue = deque([a])
    while queue:
        space = queue.popleft()
        for n in neighbours(d, space):
            if n in steps:
                continue
            if n == b:
                return steps[space] + 1
            if d.road[n] or d.terrain[n] == FOREST:
                steps[n] = steps[space] + 1
                queue.append(n)
    return None


# -- range (R20.9) ------------------------------------------------------------------------------------


def shots_from(d: CannonballData, cannon: int) -> set[int]:
    """The spaces a cannon on ``cannon`` hits: along its row and its column both ways, up to but not
    including a mountain, a blockade, an outside space or the grid's end (R20.9).  Lakes and every other
    piece let the shot through; the cannon's own space is not hit."""
    row, column = divmod(cannon, d.columns)
    hit: set[int] = set()
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        r, c = row + dr, column + dc
        while 0 <= r < d.rows and 0 <= c < d.columns:
            space = r * d.columns + c
            if d.terrain[space] in (MOUNTAIN, OUTSIDE) or d.blockade[space] != NOBODY:
                break
            hit.add(space)
            r, c = r + dr, c + dc
    return hit


def in_range(d: CannonballData, seat: int) -> set[int]:
    """Every space hit by one of ``seat``'s cannons on the island (R20.9)."""
    hit: set[int] = set()
    for space in range(d.spaces):
        if d.cannon[space] == seat:
            hit |= shots_from(d, space)
    return hit


def _enemy_cannon_on(d: CannonballData, seat: int, space: int) -> int | None:
    """The space of an opponent's cannon that has ``space`` in range, the lowest such; None when none has."""
    for cannon in range(d.spaces):
        owner = d.cannon[cannon]
        if owner not in (NOBODY, seat) and space in shots_from(d, cannon):
            return cannon
    return None


# -- mats and earned pieces (R20.7, R20.8) --------------------------------------------------------------


def cannons_earned(d: CannonballData, seat: int) -> int:
    return sum(1 for bit in CANNON_BITS if d.earned[seat] & bit)


def cannons_built(d: CannonballData, seat: int) -> int:
    return sum(1 for owner in d.cannon if owner == seat)


def blockades_built(d: CannonballData, seat: int) -> int:
    return sum(1 for owner in d.blockade if owner == seat)


def earn(d: CannonballData, seat: int) -> None:
    """Earn what the mat space just uncovered shows (R20.8): the 3rd fort on the island earns cannon 1, the
    6th cannon 2, the 8th the blockade, each only the first time; an earned piece is never lost."""
    forts = d.forts_on_island(seat)
    for piece in EARNED_PIECES:
        if forts == EARNED_AT[piece] and not d.earned[seat] & piece:
            d.earned[seat] |= piece


# -- landing (R20.4) ----------------------------------------------------------------------------------


def landing_problem(d: CannonballData, seat: int, space: int) -> str | None:
    """Why ``seat`` may not land on ``space``; None when it may (R20.4).

    A landing space is on the seat's own landing board, grass or forest, on
    the island's edge, more than 4 steps from every ship already landed, and
    touches no space of another board, not even diagonally.
    """
    who, where = country(seat), _name(d, space)
    if d.board_of[space] != seat:
        owner = d.board_of[space]
        if owner == NOBODY:
            return f"{where} is not on the island; {who} lands on its own landing board (R20.4)"
        return f"{where} is on {country(owner)}'s landing board; {who} lands on its own (R20.4)"
    terrain = d.terrain[space]
    if terrain not in (GRASS, FOREST):
        return f"{where} is {_terrain_text(d, space)}; a ship lands on grass or forest (R20.4)"
    if not on_edge(d, space):
        return f"{where} is not on the island's edge (R20.4)"
    for other, ship in enumerate(d.ships):
        if ship != NO_SPACE and other != seat and manhattan(d, space, ship) <= LANDING_SPACING:
            steps = manhattan(d, space, ship)
            return (
                f"{where} is {steps} steps from {country(other)}'s landing space at {_name(d, ship)}; landing spaces"
                f" keep more than {LANDING_SPACING} apart (R20.4)"
            )
    if touches_other_board(d, space, seat):
        return f"{where} touches another player's landing board; a landing space touches no other tile (R20.4)"
    return None


def landing_spaces(d: CannonballData, seat: int) -> list[int]:
    """Every space ``seat`` may land on now, in space order (R20.4)."""
    return [space for space in range(d.spaces) if landing_problem(d, seat, space) is None]


# -- building (R20.5-R20.8) ---------------------------------------------------------------------------


def _first_road_due(d: CannonballData, seat: int) -> int | None:
    """The seat's ship space while it holds no road yet: its first build must be a road there (R20.4)."""
    ship = d.ships[seat]
    if ship != NO_SPACE and not d.road[ship]:
        return ship
    return None


def road_problem(
    d: CannonballData, seat: int, space: int, second: bool = False, net: set[int] | None = None
) -> str | None:
    """Why ``seat`` may not lay a road on ``space`` now; None when it may (R20.5, R20.6).

    A road goes on grass or forest with no road yet, next to the seat's
    network, and never on another player's landing space; a seat whose ship
    space is still bare lays its first road there.  ``second`` asks about the
    second grass road of a turn, which must be on grass too.  ``net`` is the
    seat's network when the caller has it already.
    """
    who, where = country(seat), _name(d, space)
    if d.supply <= 0:
        return "no road tiles are left (R20.3)"
    terrain = d.terrain[space]
    if terrain not in (GRASS, FOREST):
        what = _terrain_text(d, space)
        return f"{where} is {what}; roads go on grass or forest, lakes and mountains take nothing (R20.6)"
    if second and terrain != GRASS:
        return f"{where} is a forest space; the second road of a turn goes on grass (R20.6)"
    if d.road[space]:
        return f"{where} already holds a road (R20.6)"
    for other, ship in enumerate(d.ships):
        if ship == space and other != seat:
            return f"{where} is {country(other)}'s landing space; only {country(other)} lays its road (R20.4)"
    due = _first_road_due(d, seat)
    if due is not None:
        if space == due:
            return None
        return f"{who}'s first build is a road on its landing space {_name(d, due)} (R20.4)"
    net = network(d, seat) if net is None else net
    if not net and d.ships[seat] == NO_SPACE:
        return f"{who} has no ship and so no network to build from (R20.4, R20.5)"
    if not any(n in net for n in neighbours(d, space)):
        return f"{where} is not next to {who}'s network (R20.5)"
    return None


def _empty_connected_problem(d: CannonballData, seat: int, space: int, piece: str, net: set[int] | None) -> str | None:
    """Why ``space`` is not an empty connected road space for ``seat``'s ``piece``; None when it is (R20.6)."""
    who, where = country(seat), _name(d, space)
    due = _first_road_due(d, seat)
    if due is not None:
        return f"{who}'s first build is a road on its landing space {_name(d, due)} (R20.4)"
    if not d.road[space]:
        return f"{where} holds no road; a {piece} goes on an empty connected road space (R20.6)"
    for label, owners in (("fort", d.fort), ("cannon", d.cannon), ("blockade", d.blockade)):
        if owners[space] != NOBODY:
            return f"{where} holds {country(owners[space])}'s {label}; a {piece} goes on an empty road space (R20.6)"
    for other, ship in enumerate(d.ships):
        if ship == space:
            return f"{where} holds {country(other)}'s ship; a {piece} goes on an empty road space (R20.6)"
    if space not in (network(d, seat) if net is None else net):
        return f"{where} is not connected to {who}'s network (R20.5)"
    return None


def _range_problem(d: CannonballData, seat: int, space: int, piece: str) -> str | None:
    """Why a ``piece`` may not stand on ``space`` for being in an opponent cannon's range (R20.7, R20.9)."""
    cannon = _enemy_cannon_on(d, seat, space)
    if cannon is None:
        return None
    rule = "R20.7, R20.9" if piece == "fort" else "R20.9"
    return (
        f"{_name(d, space)} is in range of {country(d.cannon[cannon])}'s cannon at {_name(d, cannon)};"
        f" a {piece} is never built in an opponent cannon's range ({rule})"
    )


def fort_problem(d: CannonballData, seat: int, space: int, net: set[int] | None = None) -> str | None:
    """Why ``seat`` may not build its next fort on ``space``; None when it may (R20.7).

    The seat has a fort left on its mat; the space is an empty connected road
    space; every path through road and forest spaces to each of the seat's
    other forts is longer than 3 steps (forts with no such path do not limit
    each other); and no opponent's cannon has the space in range.
    """
    who, where = country(seat), _name(d, space)
    if d.forts_on_island(seat) >= FORTS:
        return f"{who} has no fort left on its mat (R20.7)"
    problem = _empty_connected_problem(d, seat, space, "fort", net)
    if problem is not None:
        return problem
    for other in range(d.spaces):
        if d.fort[other] == seat and manhattan(d, space, other) <= FORT_SPACING:  # no path is shorter
            steps = fort_distance(d, space, other)
            if steps is not None and steps <= FORT_SPACING:
                return (
                    f"{where} is {steps} steps from {who}'s fort at {_name(d, other)}; forts keep more than"
                    f" {FORT_SPACING} apart (R20.7)"
                )
    return _range_problem(d, seat, space, "fort")


def cannon_problem(d: CannonballData, seat: int, space: int, net: set[int] | None = None) -> str | None:
    """Why ``seat`` may not build a cannon on ``space``; None when it may (R20.8, R20.9): an earned cannon
    not built yet, on an empty connected road space outside every opponent cannon's range."""
    who = country(seat)
    earned, built = cannons_earned(d, seat), cannons_built(d, seat)
    if earned == 0:
        return f"{who} has earned no cannon yet; the 3rd fort on the island earns the first (R20.8)"
    if built >= earned:
        if earned < len(CANNON_BITS):
            return f"{who}'s earned cannon is built; the 6th fort on the island earns the second (R20.8)"
        return f"{who} has built both its cannons (R20.3, R20.8)"
    problem = _empty_connected_problem(d, seat, space, "cannon", net)
    if problem is not None:
        return problem
    return _range_problem(d, seat, space, "cannon")


def blockade_problem(d: CannonballData, seat: int, space: int, net: set[int] | None = None) -> str | None:
    """Why ``seat`` may not build its blockade on ``space``; None when it may (R20.8): earned, not built, on
    an empty connected road space (any range)."""
    who = country(seat)
    if not d.earned[seat] & BLOCKADE:
        return f"{who} has not earned its blockade; the 8th fort on the island earns it (R20.8)"
    if blockades_built(d, seat) >= BLOCKADES:
        return f"{who}'s blockade is already built (R20.3, R20.8)"
    return _empty_connected_problem(d, seat, space, "blockade", net)


def build_problem(d: CannonballData, seat: int, kind: int, space: int, net: set[int] | None = None) -> str | None:
    """Why ``seat`` may not make the build ``kind`` on ``space`` as the build of its turn (R20.6)."""
    if kind == ROAD:
        return road_problem(d, seat, space, net=net)
    if kind == FORT_BUILD:
        return fort_problem(d, seat, space, net)
    if kind == CANNON_BUILD:
        return cannon_problem(d, seat, space, net)
    return blockade_problem(d, seat, space, net)


def _build_candidates(d: CannonballData, seat: int, net: set[int]) -> Iterable[tuple[int, int]]:
    """(kind, space) pairs that may be legal builds: roads next to the network ``net`` (or on the bare ship
    space), pieces on the network.  Every legal build is among them; ``build_problem`` decides."""
    due = _first_road_due(d, seat)
    if due is not None:
        yield ROAD, due
        return
    for space in sorted({n for s in net for n in neighbours(d, s) if n not in net}):
        yield ROAD, space
    for space in sorted(net):
        for kind in (FORT_BUILD, CANNON_BUILD, BLOCKADE_BUILD):
            yield kind, space


def legal_builds(d: CannonballData, seat: int) -> list[int]:
    """Every build ``seat`` may make now, as sorted actions (R20.6)."""
    net = network(d, seat)
    return sorted(
        encode(kind, space)
        for kind, space in _build_candidates(d, seat, net)
        if build_problem(d, seat, kind, space, net) is None
    )


def second_roads(d: CannonballData, seat: int) -> list[int]:
    """Every space a second grass road may go on now: grass next to the network as it now stands (R20.6)."""
    net = network(d, seat)
    near = sorted({n for s in net for n in neighbours(d, s) if n not in net})
    return [space for space in near if road_problem(d, seat, space, second=True, net=net) is None]


# -- firing (R20.6 step 1, R20.9) -----------------------------------------------------------------------


def fire_problem(d: CannonballData, seat: int, space: int) -> str | None:
    """Why ``seat`` may not fire at ``space``; None when it may (R20.6, R20.9): at most one shot a turn,
    before the build, at an opponent's fort in range of one of the seat's cannons on the island.  A build
    ends the turn, so every cannon standing when a turn begins was built on an earlier turn: a new cannon
    never fires on the turn it is built."""
    who, where = country(seat), _name(d, space)
    if d.fired:
        return f"{who} has fired already this turn; one shot a turn (R20.6)"
    if cannons_built(d, seat) == 0:
        return f"{who} has no cannon on the island to fire (R20.6)"
    owner = d.fort[space]
    if owner == NOBODY:
        return f"{where} holds no fort; a cannon fires at an opponent's fort (R20.6)"
    if owner == seat:
        return f"{where} is {who}'s own fort; a cannon fires at an opponent's fort (R20.6)"
    if space not in in_range(d, seat):
        return f"{where} is not in range of {who}'s cannons (R20.9)"
    return None


# -- the end (R20.10) ---------------------------------------------------------------------------------


def _key(d: CannonballData, seat: int) -> tuple[int, int, int]:
    """The ranking key of a seat, smallest best (R20.10): most forts on the island, then fewest forts on its
    own landing board, then fewest cannons and blockades on the island."""
    forts = d.forts_on_island(seat)
    at_home = sum(1 for space in range(d.spaces) if d.fort[space] == seat and d.board_of[space] == seat)
    pieces = cannons_built(d, seat) + blockades_built(d, seat)
    return (-forts, at_home, pieces)


def decide(d: CannonballData) -> tuple[list[int], list[int]]:
    """``(winners, ranking)`` of the game as it stands (R20.10).

    A player with all 10 forts on the island wins alone and ranks first;
    otherwise the winners are every seat sharing the best key (``_key``), in
    seat order.  The ranking is every seat by key, then seat, after a
    ten-fort winner when there is one.
    """
    seats = range(d.players)
    ordered = sorted(seats, key=lambda seat: (_key(d, seat), seat))
    complete = [seat for seat in seats if d.forts_on_island(seat) >= FORTS]
    if complete:
        winner = complete[0]
        return [winner], [winner] + [seat for seat in ordered if seat != winner]
    best = _key(d, ordered[0])
    return [seat for seat in seats if _key(d, seat) == best], ordered


def victory_shares(winners: Sequence[int], players: int) -> list[float]:
    """What each seat gets of a victory (R20.10): ``1/k`` to each of the ``k`` winners sharing it, 0 to the
    others; all 0 while there is no winner."""
    share = 1.0 / len(winners) if winners else 0.0
    return [share if seat in winners else 0.0 for seat in range(players)]


def _finish(d: CannonballData, reason: int) -> None:
    """End the game now for ``reason`` (R20.10)."""
    d.winners, d.ranking = decide(d)
    d.reason = reason
    d.round = ROUND_OVER
    d.to_move = NOBODY
    d.fired = False
    d.grass_roads = 0


# -- legality ------------------------------------------------------------------------------------------


def _malformed(d: CannonballData, action: int) -> str | None:
    """Why ``action`` names no move at all on this island; None when it names one."""
    kind, space = decode(action)
    if action < 0 or kind >= len(ACTION_WORDS):
        return f"{action} is not an action code (kinds 0-{len(ACTION_WORDS) - 1} times {MAX_SPACES} plus a space)"
    if kind in (END, PASS):
        if space != 0:
            return f"{action} is not an action code: {ACTION_WORDS[kind]} names no space"
        return None
    if space >= d.spaces:
        return f"{ACTION_WORDS[kind]} names space {space}, off the {d.columns}x{d.rows} island"
    return None


def why_illegal(d: CannonballData, action: int) -> str | None:
    """Why the player to move may not play ``action`` in ``d``; None when it is legal (R20.4-R20.10).

    ``legal_actions`` is exactly the actions this answers None for.
    """
    shape = _malformed(d, action)
    if shape is not None:
        return shape
    kind, space = decode(action)
    word = ACTION_WORDS[kind]
    if d.round == ROUND_OVER:
        return "the game is over (R20.10)"
    seat = d.to_move
    who = country(seat)
    if d.round == ROUND_LANDING:
        if kind == LAND:
            return landing_problem(d, seat, space)
        if kind == PASS:
            spaces = landing_spaces(d, seat)
            if spaces:
                return f"{who} may land (e.g. land {_name(d, spaces[0])}); pass only with no landing space left (R20.4)"
            return None
        return f"{word} during the landing round; each player lands its ship first (R20.4)"
    if kind == LAND:
        return "the ships have landed; the landing round is over (R20.4)"
    if d.grass_roads:
        if kind == END:
            return None
        if kind == ROAD:
            return road_problem(d, seat, space, second=True)
        return f"{word} after a first grass road: only a second grass road or end (R20.6)"
    if kind == END:
        return "end only after a first grass road, to leave out the second (R20.6)"
    if kind == FIRE:
        return fire_problem(d, seat, space)
    if kind == PASS:
        builds = legal_builds(d, seat)
        if builds:
            return f"{who} can build (e.g. {action_text(d, builds[0])}); pass only when no build is legal (R20.6)"
        return None
    return build_problem(d, seat, kind, space)


def all_actions(d: CannonballData) -> list[int]:
    """Every action code that names a move on this island, sorted (legal or not)."""
    codes = [encode(kind, space) for kind in SPACE_KINDS for space in range(d.spaces)]
    return sorted([*codes, encode(END), encode(PASS)])


def legal_actions(d: CannonballData) -> list[int]:
    """The legal actions of the player to move, sorted; empty once the game is over (R20.4-R20.10)."""
    if d.round == ROUND_OVER:
        return []
    seat = d.to_move
    if d.round == ROUND_LANDING:
        spaces = landing_spaces(d, seat)
        return [encode(LAND, space) for space in spaces] if spaces else [encode(PASS)]
    if d.grass_roads:
        return sorted([encode(ROAD, space) for space in second_roads(d, seat)] + [encode(END)])
    actions = legal_builds(d, seat) or [encode(PASS)]
    if not d.fired and cannons_built(d, seat):
        targets = in_range(d, seat)
        actions += [encode(FIRE, space) for space in sorted(targets) if d.fort[space] not in (NOBODY, seat)]
    return sorted(actions)


# -- playing -------------------------------------------------------------------------------------------


def _end_turn(d: CannonballData, passed: bool) -> None:
    """Close the mover's turn and hand it to the next seat (R20.6); count the passes (R20.10)."""
    if passed and not d.fired:
        d.passes += 1
    else:
        d.passes = 0
    d.to_move = (d.to_move + 1) % d.players
    d.fired = False
    d.grass_roads = 0
    if d.passes >= d.players:
        _finish(d, REASON_ALL_PASSED)


def _lay_road(d: CannonballData, space: int) -> bool:
    """Lay a road tile from the supply; True when that was the last one and the game is over (R20.10)."""
    d.road[space] = True
    d.supply -= 1
    if d.supply <= 0:
        _finish(d, REASON_SUPPLY)
        return True
    return False


def play(d: CannonballData, action: int) -> None:
    """Play a legal ``action`` on ``d`` in place (R20.4-R20.10); ``apply`` checks legality first."""
    kind, space = decode(action)
    seat = d.to_move
    if d.round == ROUND_LANDING:
        if kind == LAND:
            d.ships[seat] = space
        if seat == d.players - 1:
            d.round, d.to_move = ROUND_PLAY, 0
        else:
            d.to_move = seat + 1
        return
    if kind not in (PASS, END):
        d.passes = 0  # a shot or a build starts the count of passes in a row again, at once (R20.10)
    if kind == FIRE:
        d.fort[space] = NOBODY  # back to its owner's mat; the road stays (R20.6)
        d.fired = True
        return
    if kind == PASS:
        _end_turn(d, passed=True)
        return
    if kind == END:
        _end_turn(d, passed=False)
        return
    if kind == ROAD:
        first_grass = d.terrain[space] == GRASS and not d.grass_roads
        if _lay_road(d, space):
            return
        if first_grass and second_roads(d, seat):
            d.grass_roads = 1  # the turn stays open for a second grass road (R20.6)
            return
        _end_turn(d, passed=False)
        return
    if kind == FORT_BUILD:
        d.fort[space] = seat
        if d.forts_on_island(seat) >= FORTS:
            _finish(d, REASON_TEN_FORTS)
            return
        earn(d, seat)
    elif kind == CANNON_BUILD:
        d.cannon[space] = seat
    else:
        d.blockade[space] = seat
    _end_turn(d, passed=False)


class ReferenceState:
    """A Cannonball Colony game in plain Python: a ``CannonballData`` and the rules that move it (R20)."""

    def __init__(self, data: CannonballData) -> None:
        self.data = data

    @classmethod
    def from_data(cls, d: CannonballData) -> ReferenceState:
        """A state holding a copy of ``d`` (nothing is validated)."""
        return cls(d.copy())

    def to_data(self) -> CannonballData:
        """A copy of the state's data."""
        return self.data.copy()

    def copy(self) -> ReferenceState:
        return type(self).from_data(self.data)

    def legal_actions(self) -> list[int]:
        return legal_actions(self.data)

    def why_illegal(self, action: int) -> str | None:
        return why_illegal(self.data, action)

    def apply(self, action: int) -> None:
        """Play ``action``; a MoveError (a ValueError) naming the move and the reason when it is illegal."""
        reason = why_illegal(self.data, action)
        if reason is not None:
            mover = country(self.data.to_move) if self.data.to_move != NOBODY else "nobody"
            raise MoveError(f"{mover}: {action_text(self.data, action)} is illegal: {reason}")
        play(self.data, action)

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
    def winners(self) -> list[int]:
        return list(self.data.winners)

    @property
    def ranking(self) -> list[int]:
        return list(self.data.ranking)

    @property
    def reason(self) -> int:
        return self.data.reason

    @property
    def supply(self) -> int:
        return self.data.supply
