"""Where a board's islands go in a picture: checks of a drawing, and a clean drawing computed from a rough one.

A board file gives each island a point (``xy``); the rules never read them
(R1), pictures do.  Points are on the board file's own scale; a picture
scales them to fit (``kanaloa.interfaces.svg``), and islands are drawn as
circles whose radius grows with their link count (``island_radius``, in the
units of a board spanning ``CANVAS - 2 * MARGIN``, as the built-in boards do).

- ``crossing_links`` lists the pairs of links whose straight lines cross (or
  run along each other); ``distance_to_segment`` measures how far an island
  is from a link's line, so a check can see a link that runs through an
  island it does not touch.
- ``planar_layout`` computes a clean drawing from a rough crossing-free one.
  The rough drawing only says which faces (regions) the board has.  The
  island with the most links (the *hub*, ORO on ``oro``) goes to the middle:
  the longest face that does not touch the hub becomes the outer rim, placed
  on a circle, and every other island starts at the mean of its neighbours
  (Tutte's barycentric drawing, free of crossings for a 3-connected planar
  board).  Then seeded simulated annealing moves one island at a time: it
  never accepts a move that makes two links cross, and it lowers a cost that
  pulls the hub to the middle, keeps islands apart and away from the links
  they do not touch, and evens out link lengths.  Last, the drawing is turned
  so that the hub is the island nearest the middle and the board fills the
  square best, and scaled to the 0-100 canvas.  The built-in boards'
  coordinates were made this way (``kanaloa board NAME --layout``).

Everything is deterministic: the same board and seed give the same points.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from ..rules.board import Board

Point = tuple[float, float]

CANVAS = 100.0  # layouts fill a square of this side ...
MARGIN = 5.0  # ... keeping this far from its edges, as the built-in boards do
MIDDLE = (CANVAS / 2, CANVAS / 2)
RIM = CANVAS / 2 - MARGIN  # islands stay within this distance of the middle while annealing

# Room a picture needs, in canvas units: between two islands' circles, and between a circle and a link
# that does not touch its island.
ISLAND_GAP = 4.0
LINK_GAP = 2.5
ANNEAL_STEPS = 30_000


def island_radius(links: int) -> float:
    """The radius of an island of ``links`` links, in canvas units: 3.5 for 3 links, 4.5 for 5, 5.5 for 7."""
    return 2.0 + 0.5 * links


def _orient(a: Point, b: Point, c: Point) -> float:
    """Twice the signed area of the triangle abc: > 0 on one side of a->b, < 0 on the other."""
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _within_box(a: Point, b: Point, p: Point) -> bool:
    """``p``, collinear with a and b, lies within the box of the segment ab."""
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def segments_meet(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether the closed segments ab and cd have a point in common."""
    d1, d2, d3, d4 = _orient(c, d, a), _orient(c, d, b), _orient(a, b, c), _orient(a, b, d)
    if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
        return True
    return ((d1 == 0 and _within_box(c, d, a)) or (d2 == 0 and _within_box(c, d, b))
            or (d3 == 0 and _within_box(a, b, c)) or (d4 == 0 and _within_box(a, b, d)))


def links_cross(board: Board, xy: Sequence[Point], k: int, m: int) -> bool:
    """Links ``k`` and ``m`` cross: without a common island their lines meet; with one, they leave it in
    the same direction (one runs along the other)."""
    a, b = board.links[k]
    c, d = board.links[m]
    shared = {a, b} & {c, d}
    if not shared:
        return segments_meet(xy[a], xy[b], xy[c], xy[d])
    hub = shared.pop()
    h, p, q = xy[hub], xy[b if a == hub else a], xy[d if c == hub else c]
    return _orient(h, p, q) == 0 and (p[0] - h[0]) * (q[0] - h[0]) + (p[1] - h[1]) * (q[1] - h[1]) > 0


def crossing_links(board: Board, xy: Sequence[Point] | None = None) -> list[tuple[str, str]]:
    """The pairs of links (by name, ``A-B``) whose lines cross when drawn between ``xy`` (default: the
    board's points), in link order."""
    points = board.xy if xy is None else xy
    return [(board.link_name(k), board.link_name(m))
            for k in range(board.n_links) for m in range(k + 1, board.n_links)
            if links_cross(board, points, k, m)]


def _nearest_on_segment(p: Point, a: Point, b: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return a[0] + t * dx, a[1] + t * dy


def distance_to_segment(p: Point, a: Point, b: Point) -> float:
    """The distance from ``p`` to the segment ab."""
    return math.dist(p, _nearest_on_segment(p, a, b))


def box_middle(xy: Sequence[Point]) -> Point:
    """The middle of the box around ``xy``."""
    xs = [p[0] for p in xy]
    ys = [p[1] for p in xy]
    return (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2


def hub_island(board: Board) -> int:
    """The island a layout puts in the middle: the one with the most links, the first of them in file order."""
    return max(range(board.n_islands), key=lambda i: (board.size(i), -i))


def neighbours(board: Board) -> list[list[int]]:
    """The islands linked to each island, in link order."""
    out: list[list[int]] = [[] for _ in range(board.n_islands)]
    for a, b in board.links:
        out[a].append(b)
        out[b].append(a)
    return out


def faces(board: Board, xy: Sequence[Point]) -> list[list[int]]:
    """The faces of a crossing-free drawing, each as the islands around it in order.

    Every link is walked once in each direction; arriving at ``v`` from
    ``u``, the walk leaves along the link next to ``v-u`` in the order of
    angles around ``v``.  (For a drawing with crossings the result means
    nothing.)
    """
    def angles_around(v: int, linked: list[int]) -> list[int]:
        return sorted(linked, key=lambda w: math.atan2(xy[w][1] - xy[v][1], xy[w][0] - xy[v][0]))

    around = [angles_around(v, ns) for v, ns in enumerate(neighbours(board))]
    walked: set[tuple[int, int]] = set()
    found = []
    for a, b in board.links:
        for start in ((a, b), (b, a)):
            face = []
            u, v = start
            while (u, v) not in walked:
                walked.add((u, v))
                face.append(u)
                ring = around[v]
                u, v = v, ring[(ring.index(u) - 1) % len(ring)]
            if face:
                found.append(face)
    return found


def _on_circle(count: int, radius: float) -> list[Point]:
    """``count`` points evenly spread on a circle of ``radius`` about the middle of the canvas."""
    return [(MIDDLE[0] + radius * math.cos(2 * math.pi * j / count - math.pi / 2),
             MIDDLE[1] + radius * math.sin(2 * math.pi * j / count - math.pi / 2)) for j in range(count)]


def barycentric(board: Board, fixed: dict[int, Point]) -> list[Point]:
    """Tutte's drawing: every island not in ``fixed`` at the mean of its neighbours (Gauss-Seidel sweeps)."""
    linked = neighbours(board)
    xy: list[Point] = [fixed.get(i, MIDDLE) for i in range(board.n_islands)]
    free = [i for i in range(board.n_islands) if i not in fixed]
    for _ in range(10_000):
        moved = 0.0
        for i in free:
            ns = linked[i]
            new = (sum(xy[w][0] for w in ns) / len(ns), sum(xy[w][1] for w in ns) / len(ns))
            moved = max(moved, abs(new[0] - xy[i][0]) + abs(new[1] - xy[i][1]))
            xy[i] = new
        if moved < 1e-10:
            break
    return xy


class _Cost:
    """The annealing's cost, split by island so that a move is priced by the terms it changes."""

    def __init__(self, board: Board, xy: list[Point]) -> None:
        self.board = board
        self.xy = xy
        self.hub = hub_island(board)
        self.radius = [island_radius(board.size(i)) for i in range(board.n_islands)]
        self.length = 0.9 * math.sqrt(math.pi * RIM ** 2 / board.n_islands)  # about the spacing in the circle

    def crossings(self, i: int) -> int:
        """How many pairs of links cross where one of them touches island ``i``."""
        board = self.board
        mine = board.links_of[i]
        return sum(1 for k in mine for m in range(board.n_links)
                   if m != k and not (m in mine and m < k) and links_cross(board, self.xy, k, m))

    def of(self, i: int) -> float:
        """The terms that involve island ``i``."""
        board, xy, radius = self.board, self.xy, self.radius
        p = xy[i]
        # The hub in the middle of the picture: of the box around the islands, which every move may shift.
        cost = 5.0 * math.dist(xy[self.hub], box_middle(xy)) ** 2
        for j in range(board.n_islands):
            if j != i:
                d = math.dist(p, xy[j])
                cost += 30.0 / max(d, 0.1)  # islands spread over the canvas
                short = radius[i] + radius[j] + ISLAND_GAP - d
                if short > 0:
                    cost += 20.0 * short * short
        for a, b in board.links:
            if i in (a, b):
                cost += 0.1 * (math.dist(xy[a], xy[b]) - self.length) ** 2
                for j in range(board.n_islands):
                    if j not in (a, b):
                        short = radius[j] + LINK_GAP - distance_to_segment(xy[j], xy[a], xy[b])
                        if short > 0:
                            cost += 20.0 * short * short
            else:
                short = radius[i] + LINK_GAP - distance_to_segment(p, xy[a], xy[b])
                if short > 0:
                    cost += 20.0 * short * short
        return cost


def _anneal(board: Board, xy: list[Point], seed: int, steps: int) -> list[Point]:
    """Seeded simulated annealing of ``xy`` (see the module docstring); no move adds a crossing."""
    rng = random.Random(seed)
    cost = _Cost(board, xy)
    hot, cold = 3.0, 0.005
    cooling = (cold / hot) ** (1 / steps)
    heat = hot
    for _ in range(steps):
        i = rng.randrange(board.n_islands)
        old = xy[i]
        before, crossed = cost.of(i), cost.crossings(i)
        spread = 0.3 + 6.0 * heat / hot
        x, y = old[0] + rng.gauss(0, spread), old[1] + rng.gauss(0, spread)
        out = math.dist((x, y), MIDDLE)
        if out > RIM:  # back onto the rim's circle
            x, y = MIDDLE[0] + (x - MIDDLE[0]) * RIM / out, MIDDLE[1] + (y - MIDDLE[1]) * RIM / out
        xy[i] = (x, y)
        if cost.crossings(i) > crossed:
            xy[i] = old
            continue
        rise = cost.of(i) - before
        if rise > 0 and rng.random() >= math.exp(-rise / heat):
            xy[i] = old
        heat *= cooling
    return xy


def fit(xy: Sequence[Point], side: float = CANVAS, margin: float = MARGIN) -> list[Point]:
    """``xy`` moved and scaled (keeping its shape) so that its larger extent fills a square of ``side``
    less ``margin`` on each edge, centred on it, rounded to a tenth."""
    xs = [p[0] for p in xy]
    ys = [p[1] for p in xy]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    scale = (side - 2 * margin) / span
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    return [(round(side / 2 + (x - cx) * scale, 1), round(side / 2 + (y - cy) * scale, 1)) for x, y in xy]


def _turned(xy: Sequence[Point], degrees: int) -> list[Point]:
    angle = math.radians(degrees)
    c, s = math.cos(angle), math.sin(angle)
    mx, my = MIDDLE
    return [(mx + (x - mx) * c - (y - my) * s, my + (x - mx) * s + (y - my) * c) for x, y in xy]


def nearest_to_middle(xy: Sequence[Point]) -> int:
    """The index of the point nearest the middle of the box around ``xy`` (the first of equals)."""
    middle = box_middle(xy)
    return min(range(len(xy)), key=lambda i: (math.dist(xy[i], middle), i))


def _oriented(board: Board, xy: Sequence[Point]) -> list[Point]:
    """``xy`` turned by the whole degree that puts the hub nearest the middle of the box around the islands
    and leaves the smallest box (the largest picture), then fitted to the canvas."""
    hub = hub_island(board)

    def rank(degrees: int) -> tuple[bool, float, int]:
        turned = _turned(xy, degrees)
        xs = [p[0] for p in turned]
        ys = [p[1] for p in turned]
        return nearest_to_middle(turned) != hub, max(max(xs) - min(xs), max(ys) - min(ys)), degrees

    best = min(range(0, 360), key=rank)
    return fit(_turned(xy, best))


def planar_layout(board: Board, xy: Sequence[Point] | None = None, seed: int = 0,
                  steps: int = ANNEAL_STEPS) -> list[Point]:
    """A clean crossing-free drawing of ``board`` on the 0-100 canvas (see the module docstring), from the
    crossing-free drawing ``xy`` (default: the board's points), which gives the board's faces.

    Raises ``ValueError`` naming two crossing links when ``xy`` has some, and
    when the result has (a board that is not 3-connected may lead there).
    """
    start = list(board.xy if xy is None else xy)
    crossed = crossing_links(board, start)
    if crossed:
        raise ValueError(f"its links {crossed[0][0]} and {crossed[0][1]} cross; draw it without crossings first")
    hub = hub_island(board)
    found = faces(board, start)
    away = [f for f in found if hub not in f] or found
    rim = max(away, key=len)  # the longest face the hub is not on, the first found of those
    drawn = barycentric(board, dict(zip(rim, _on_circle(len(rim), RIM), strict=True)))
    drawn = _oriented(board, _anneal(board, drawn, seed, steps))
    crossed = crossing_links(board, drawn)
    if crossed:
        raise ValueError(f"no clean drawing found: links {crossed[0][0]} and {crossed[0][1]} cross")
    return drawn
