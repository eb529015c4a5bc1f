"""Square and rectangular bases (MBT, Smooth & Rifled) against brute force.

A base that keeps its facing along a move is a point among obstacles grown by its own
rectangle (`arbitre.rules.base_field`). These tests never look at that field: they put
the rectangle itself at a centre and ask shapely whether it overlaps anything.

* The grown obstacles: a centre lies in an obstacle grown by the base's outline exactly
  when the rectangle there overlaps the obstacle (rotated rectangles, non-convex
  polygons with holes, hulls of discs).
* Soundness, on random tables (bases at any facing, non-convex impassable ground, round
  bases in Smooth & Rifled): at every centre sampled in the ``reach`` area, and at
  every vertex of its outline, the rectangle overlaps no other base nor impassable
  ground by more than 0.05 mm (and 0.01 mm^2), and stays on the table to 0.05 mm. A
  legal ``move`` to a clear goal slides the rectangle along ``path_mm`` without such an
  overlap, and costs the length of that path.
* Completeness and consistency, on tables where every edge runs along x or y (bases at
  0, 90, 180 or 270 degrees, orthogonal polygons, a difficult patch in MBT): a Dijkstra
  on a 1 mm grid of centres, 16 neighbours, whose every step keeps the rectangle,
  grown by 1.17 mm on each side (more than half the longest step, sqrt(5) / 2 mm), clear
  of everything and on the table: its paths are real paths of the base, so its costs
  are upper bounds. A step pays the difficult factor if the grown rectangle overlaps
  the patch at either end. Every node it reaches within the allowance less 1 mm is
  within 1.3 mm of the ``reach`` area (the area's documented error is 0.2 mm or 0.5 %
  of the allowance, rarely up to twice that); ``move`` to a node is legal and costs no
  more than the grid; a goal well inside (outside) the area is legal (not).
* Completeness on tilted tables (the rotated tables of the soundness test): every node
  that the same grid, stepping the tilted rectangle, reaches within the allowance less
  1 mm is within 1.5 mm of the ``reach`` area, and ``move`` to the farthest of them is
  legal and costs no more than the grid.
* Edge cases: contact at the start, an overlap of 1 mm at the start, a move into
  contact front to front (exact at 0 and 90 degrees; at 37 degrees to the 3 decimals
  of a typed goal, within 5e-5 mm: the goal computed in floating point, on the grown
  outline's edge to 1e-14 mm, is refused today), a base touching the table edge at
  37 degrees.

Every table is drawn from a fixed seed: the suite sees the same ones each run.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import shapely
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

from arbitre.rules import pathing
from arbitre.rules.base_field import base_field
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene

WIDTH, DEPTH = 500.0, 400.0
DEPTH_TOL, AREA_TOL = 0.05, 0.01  # an overlap smaller than either is a touch
GROW = math.sqrt(5.0) / 2.0 + 0.05  # the grid's margin round the rectangle, mm
STEPS = [(1, 0), (0, 1), (1, 1), (1, -1), (2, 1), (1, 2), (2, -1), (1, -2)]
MBT_ALLOWANCE = 125.0  # light cavalry: 5 graduations of 25 mm
SR_ALLOWANCE = 120.0  # a single infantryman's first action: 12 cm
Scene = dict[str, Any]
Obstacles = list[shapely.Geometry]


def _json(scene: Any, question: str, *args: object) -> dict[str, Any]:
    return ask(scene, question, [str(a) for a in args], {}).to_json()


def _rects(xs: Any, ys: Any, facing: float, width: float, depth: float) -> Any:
    """The rectangles (an object array) of a base at centres (xs, ys): depth along the
    facing, width across it."""
    x = np.atleast_1d(np.asarray(xs, dtype=np.float64))
    y = np.atleast_1d(np.asarray(ys, dtype=np.float64))
    a = math.radians(facing)
    u = np.array([math.cos(a), math.sin(a)])
    n = np.array([-u[1], u[0]])
    ring = np.array([(1, -1), (1, 1), (-1, 1), (-1, -1), (1, -1)], dtype=np.float64)
    corners = ring[:, :1] * (depth / 2) * u + ring[:, 1:] * (width / 2) * n
    return shapely.polygons(np.stack([x, y], axis=1)[:, None, :] + corners[None])


def _outline(facing: float, width: float, depth: float) -> Any:
    return shapely.get_coordinates(_rects(0.0, 0.0, facing, width, depth)[0])[:-1]


def _offences(
    points: Any, facing: float, width: float, depth: float, obstacles: Obstacles
) -> list[list[object]]:
    """Per centre: the obstacles its rectangle overlaps beyond the tolerance, and
    "table" if it leaves the table by more than DEPTH_TOL."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    rects = _rects(pts[:, 0], pts[:, 1], facing, width, depth)
    inner = shapely.buffer(rects, -DEPTH_TOL, join_style="mitre")
    found: list[list[object]] = [[] for _ in range(len(pts))]
    for k, obstacle in enumerate(obstacles):
        core = obstacle.buffer(-DEPTH_TOL, join_style="mitre")
        deep = shapely.intersects(rects, core) | shapely.intersects(inner, obstacle)
        for i in np.nonzero(deep)[0]:
            if shapely.intersection(rects[i], obstacle).area > AREA_TOL:
                found[i].append(k)
    box = shapely.bounds(rects)
    off = (box[:, 0] < -DEPTH_TOL) | (box[:, 1] < -DEPTH_TOL)
    off |= (box[:, 2] > WIDTH + DEPTH_TOL) | (box[:, 3] > DEPTH + DEPTH_TOL)
    for i in np.nonzero(off)[0]:
        found[i].append("table")
    return found


def _clear(point: Any, facing: float, width: float, depth: float, obstacles: Obstacles) -> bool:
    """Whether the rectangle at ``point`` touches nothing at all and is on the table."""
    rect = _rects(point[0], point[1], facing, width, depth)[0]
    x0, y0, x1, y1 = rect.bounds
    on_table = x0 >= 0 and y0 >= 0 and x1 <= WIDTH and y1 <= DEPTH
    return on_table and not any(rect.intersects(o) for o in obstacles)


def _area(reach: dict[str, Any]) -> Any:
    """The reach answer's area. Its rings, rounded to 3 decimals, may pinch (a ring that
    touches itself at a point): made valid, with only the polygons kept."""
    parts: list[Any] = []
    for shell, holes in zip(reach["polygons_mm"], reach["holes_mm"], strict=True):
        pieces = shapely.get_parts(shapely.make_valid(shapely.Polygon(shell, holes)))
        for piece in pieces:
            parts += [g for g in shapely.get_parts(piece) if isinstance(g, shapely.Polygon)]
    area = shapely.union_all(parts) if parts else shapely.Polygon()
    assert isinstance(area, shapely.Polygon | shapely.MultiPolygon)
    return area


def _inside(area: Any, count: int, rng: np.random.Generator) -> Any:
    """``count`` centres drawn uniformly in the area, and every vertex of its outline."""
    x0, y0, x1, y1 = area.bounds
    drawn: list[Any] = []
    while sum(len(d) for d in drawn) < count:
        c = rng.uniform([x0, y0], [x1, y1], size=(4 * count, 2))
        drawn.append(c[shapely.contains_xy(area, c[:, 0], c[:, 1])])
    return np.vstack([np.vstack(drawn)[:count], shapely.get_coordinates(area.boundary)])


def _grid(
    start: tuple[float, float],
    facing: float,
    width: float,
    depth: float,
    obstacles: Obstacles,
    allowance: float,
    costly: list[tuple[shapely.Geometry, float]] | None = None,
) -> tuple[Any, Any, Any]:
    """Nodes (xs, ys) 1 mm apart aligned on the start, and their costs from it."""
    m = int(allowance + 3)
    offsets = np.arange(-m, m + 1, dtype=np.float64)
    gx, gy = np.meshgrid(start[0] + offsets, start[1] + offsets, indexing="ij")
    xs, ys = gx.ravel(), gy.ravel()
    grown = _rects(xs, ys, facing, width + 2 * GROW, depth + 2 * GROW)
    box = shapely.bounds(grown)
    free = np.hypot(xs - start[0], ys - start[1]) <= allowance + 2
    free &= (box[:, 0] >= 0) & (box[:, 1] >= 0) & (box[:, 2] <= WIDTH) & (box[:, 3] <= DEPTH)
    tree = shapely.STRtree(grown)
    for obstacle in obstacles:
        free[tree.query(obstacle, predicate="intersects")] = False
    factor = np.ones(len(xs))
    for region, f in costly or []:
        hit = tree.query(region, predicate="intersects")
        factor[hit] = np.maximum(factor[hit], f)
    size = 2 * m + 1
    index = np.arange(size * size).reshape(size, size)
    rows, cols, costs = [], [], []
    for di, dj in STEPS:
        a = index[max(0, -di) : size - max(0, di), max(0, -dj) : size - max(0, dj)].ravel()
        b = index[max(0, di) : size + min(0, di), max(0, dj) : size + min(0, dj)].ravel()
        ok = free[a] & free[b]
        rows.append(a[ok])
        cols.append(b[ok])
        costs.append(math.hypot(di, dj) * np.maximum(factor[a[ok]], factor[b[ok]]))
    r, c, w = np.concatenate(rows), np.concatenate(cols), np.concatenate(costs)
    n = size * size
    graph = coo_matrix((np.r_[w, w], (np.r_[r, c], np.r_[c, r])), shape=(n, n)).tocsr()
    assert free[index[m, m]], "the grid's start must be clear by its margin"
    return xs, ys, dijkstra(graph, indices=index[m, m], limit=allowance + 1)


# -- random tables ----------------------------------------------------------------------


def _star(rng: np.random.Generator, cx: float, cy: float) -> shapely.Polygon | None:
    """A non-convex polygon round (cx, cy), 8 to 45 mm out, 3 decimals."""
    k = int(rng.integers(4, 10))
    angle = np.sort(rng.uniform(0, 2 * np.pi, k))
    radius = rng.uniform(8, 45, k)
    points = np.column_stack([cx + radius * np.cos(angle), cy + radius * np.sin(angle)])
    polygon = shapely.Polygon(np.round(points, 3))
    return polygon if polygon.is_valid and polygon.area > 50 else None


def _rect_base(width: float, depth: float) -> dict[str, Any]:
    if width == depth:
        return {"shape": "square", "side_mm": width}
    return {"shape": "rect", "width_mm": width, "depth_mm": depth}


def _rotated_table(seed: int, ruleset: str) -> tuple[Scene, tuple[float, ...], Obstacles]:
    """A mover at a random facing among up to 5 bases at random facings (half of them
    round in Smooth & Rifled) and 3 non-convex impassable polygons, all at least 0.5 mm
    from the mover."""
    rng = np.random.default_rng(seed)
    sizes = [(40.0, 20.0)] if ruleset == "mbt" else [(20.0, 20.0), (40.0, 20.0), (60.0, 30.0)]
    w, d = sizes[int(rng.integers(0, len(sizes)))]
    facing = round(float(rng.uniform(0, 360)), 3)
    sx, sy = (round(float(v), 3) for v in rng.uniform([120, 100], [WIDTH - 120, DEPTH - 100]))
    kind = {"type": "cavalry"} if ruleset == "mbt" else {"type": "infantry"}
    figures: list[dict[str, Any]] = [
        {"id": "m", "side": "blue", "x_mm": sx, "y_mm": sy, "facing_deg": facing}
        | {"base": _rect_base(w, d)}
        | kind
    ]
    obstacles: Obstacles = []
    placed = [_rects(sx, sy, facing, w, d)[0]]
    for _ in range(400):
        if len(figures) == 6:
            break
        x, y = (round(float(v), 3) for v in rng.uniform([sx - 110, sy - 110], [sx + 110, sy + 110]))
        f = round(float(rng.uniform(0, 360)), 3)
        figure: dict[str, Any] = {"id": f"o{len(figures)}", "side": "red", "x_mm": x, "y_mm": y}
        if ruleset == "sr" and rng.random() < 0.5:
            shape = shapely.Point(x, y).buffer(12.5, quad_segs=64)  # the default 25 mm base
        else:
            ow, od = sizes[int(rng.integers(0, len(sizes)))]
            shape = _rects(x, y, f, ow, od)[0]
            figure |= {"facing_deg": f, "base": _rect_base(ow, od)}
            if ruleset == "mbt":
                figure["type"] = "infantry"
        x0, y0, x1, y1 = shape.bounds
        if x0 < 0 or y0 < 0 or x1 > WIDTH or y1 > DEPTH:
            continue
        if any(shape.distance(p) < 0.5 for p in placed):
            continue
        placed.append(shape)
        obstacles.append(shape)
        figures.append(figure)
    terrain: list[dict[str, Any]] = []
    for _ in range(400):
        if len(terrain) == 3:
            break
        cx, cy = rng.uniform([sx - 110, sy - 110], [sx + 110, sy + 110])
        polygon = _star(rng, cx, cy)
        if polygon is None or polygon.distance(placed[0]) < 0.5:
            continue
        ground = "impassable" if ruleset == "mbt" or len(terrain) % 2 else "building"
        corners = shapely.get_coordinates(polygon)[:-1].tolist()
        terrain.append({"id": f"t{len(terrain)}", "kind": ground, "polygon_mm": corners})
        obstacles.append(polygon)
    name = "mbt" if ruleset == "mbt" else "smooth-and-rifled"
    scene = {"ruleset": name, "table": {"width_mm": WIDTH, "depth_mm": DEPTH}}
    scene |= {"figures": figures, "terrain": terrain}
    return scene, (sx, sy, facing, w, d), obstacles


def _orthogonal(rng: np.random.Generator, cx: float, cy: float) -> shapely.Polygon | None:
    """One to three whole-mm boxes joined: an L, a T, a U (any hole filled)."""
    boxes = []
    for _ in range(int(rng.integers(1, 4))):
        x0, y0 = int(cx + rng.integers(-40, 20)), int(cy + rng.integers(-40, 20))
        boxes.append(
            shapely.box(x0, y0, x0 + int(rng.integers(5, 50)), y0 + int(rng.integers(5, 50)))
        )
    union = shapely.union_all(boxes)
    if not isinstance(union, shapely.Polygon):
        return None
    filled = shapely.Polygon(union.exterior)
    return filled if filled.is_valid else None


def _square_table(
    seed: int, ruleset: str
) -> tuple[Scene, tuple[float, ...], Obstacles, list[tuple[shapely.Geometry, float]]]:
    """A table whose every edge runs along x or y: whole-mm centres, facings of 0, 90,
    180 or 270 degrees, orthogonal impassable polygons (and in MBT a difficult patch),
    nothing within 2 mm of the mover."""
    rng = np.random.default_rng(seed)
    facing = float(rng.choice([0, 90, 180, 270]))
    sx, sy = (float(v) for v in rng.integers([120, 100], [int(WIDTH) - 120, int(DEPTH) - 100]))
    if ruleset == "mbt":
        w, d, kind = 40.0, 20.0, {"type": "cavalry"}
    else:
        (w, d), kind = [(20.0, 20.0), (60.0, 30.0)][int(rng.integers(0, 2))], {"type": "infantry"}
    mover = _rects(sx, sy, facing, w, d)[0]
    figures: list[dict[str, Any]] = [
        {"id": "m", "side": "blue", "x_mm": sx, "y_mm": sy, "facing_deg": facing}
        | {"base": _rect_base(w, d)}
        | kind
    ]
    obstacles: Obstacles = []
    for _ in range(400):
        if len(figures) == 6:
            break
        x, y = (float(v) for v in rng.integers([sx - 110, sy - 110], [sx + 110, sy + 110]))
        f = float(rng.choice([0, 90, 180, 270]))
        shape = _rects(x, y, f, 40, 20)[0]
        x0, y0, x1, y1 = shape.bounds
        if x0 < 0 or y0 < 0 or x1 > WIDTH or y1 > DEPTH:
            continue
        if shape.distance(mover) < 2.0 or any(shape.distance(p) < 0.5 for p in obstacles):
            continue  # 2 mm: more than the grid's margin round the mover
        obstacles.append(shape)
        figure = {"id": f"o{len(figures)}", "side": "red", "x_mm": x, "y_mm": y}
        figure |= {"facing_deg": f, "base": _rect_base(40, 20)}
        figures.append(figure | ({"type": "infantry"} if ruleset == "mbt" else {}))
    terrain: list[dict[str, Any]] = []
    for _ in range(400):
        if len(terrain) == 3:
            break
        polygon = _orthogonal(rng, *rng.integers([sx - 110, sy - 110], [sx + 110, sy + 110]))
        if polygon is None or polygon.distance(mover) < 2.0:
            continue
        corners = shapely.get_coordinates(polygon.exterior)[:-1].tolist()
        terrain.append({"id": f"t{len(terrain)}", "kind": "impassable", "polygon_mm": corners})
        obstacles.append(polygon)
    costly: list[tuple[shapely.Geometry, float]] = []
    if ruleset == "mbt":
        patch = _orthogonal(rng, *rng.integers([sx - 60, sy - 60], [sx + 60, sy + 60]))
        if patch is not None:
            corners = shapely.get_coordinates(patch.exterior)[:-1].tolist()
            terrain.append({"id": "mud", "kind": "difficult", "polygon_mm": corners})
            costly.append((patch, 2.0))  # MBT's difficult_factor
    name = "mbt" if ruleset == "mbt" else "smooth-and-rifled"
    scene = {"ruleset": name, "table": {"width_mm": WIDTH, "depth_mm": DEPTH}}
    scene |= {"figures": figures, "terrain": terrain}
    return scene, (sx, sy, facing, w, d), obstacles, costly


def _legal(answer: dict[str, Any]) -> bool:
    """Legal but for Smooth & Rifled's limit on moving backwards (not a matter of ground)."""
    return not [r for r in answer["reasons"] if r != "backwards_too_far"]


def _slide(path: Any) -> Any:
    """Points every 0.25 mm or closer along a polyline."""
    pieces = [
        a + np.linspace(0, 1, max(2, int(np.hypot(*(b - a)) / 0.25) + 2))[:, None] * (b - a)
        for a, b in zip(path[:-1], path[1:], strict=True)
    ]
    return np.vstack(pieces)


# -- the grown obstacles ----------------------------------------------------------------


def test_grown_obstacles_are_the_centres_where_the_rectangle_overlaps() -> None:
    # 36 rectangles (40 x 20, 20 x 20, 60 x 30) at random facings, each with a random
    # non-convex polygon (every fourth with a hole) and a hull of two discs. At 1,500
    # random centres, in the grown outline (table mm: field point less shift_mm) <=>
    # the rectangle there overlaps the obstacle by more than 1e-9 mm^2, wherever the
    # centre is farther than 1e-4 mm from the grown outline's edge (closer, the overlap
    # is a sliver of that depth). The hull's grown discs are drawn as polygons, 1024
    # sides a disc: their outline is only within 0.01 mm. The table shrinks by the
    # rectangle's extent: 500 - (x extent) by 400 - (y extent).
    rng = np.random.default_rng(7)
    checked = 0
    for trial in range(36):
        facing = float(rng.uniform(0, 360))
        width, depth = [(40.0, 20.0), (20.0, 20.0), (60.0, 30.0)][trial % 3]
        outline = _outline(facing, width, depth)
        polygon = None
        while polygon is None:
            polygon = _star(rng, 250, 200)
        if trial % 4 == 0:
            holed = polygon.difference(shapely.Point(250, 200).buffer(4, quad_segs=2))
            polygon = holed if isinstance(holed, shapely.Polygon) else polygon
        discs = np.column_stack(
            [rng.uniform(200, 300, 2), rng.uniform(150, 250, 2), rng.uniform(3, 15, 2)]
        )
        field = base_field(
            WIDTH,
            DEPTH,
            outline,
            polygons=[pathing.BlockingPolygon(polygon, "p")],
            hulls=[pathing.DiscHull(discs, "h")],
        )
        extent = outline.max(axis=0) - outline.min(axis=0)
        assert field.field.width_mm == pytest.approx(WIDTH - extent[0])
        assert field.field.depth_mm == pytest.approx(DEPTH - extent[1])
        back = field.shift_mm
        grown = shapely.union_all(
            [shapely.transform(p.polygon, lambda xy, b=back: xy - b) for p in field.field.polygons]
        )
        (hull,) = field.field.hulls
        centres = hull.discs[:, :2] - back
        grown_hull = shapely.convex_hull(
            shapely.union_all(
                shapely.buffer(shapely.points(centres), hull.discs[:, 2], quad_segs=256)
            )
        )
        own_hull = shapely.convex_hull(
            shapely.union_all(
                shapely.buffer(shapely.points(discs[:, :2]), discs[:, 2], quad_segs=256)
            )
        )
        points = rng.uniform([170, 110], [330, 290], size=(1500, 2))
        rects = _rects(points[:, 0], points[:, 1], facing, width, depth)
        for own, shape, band in ((polygon, grown, 1e-4), (own_hull, grown_hull, 0.01)):
            overlaps = shapely.area(shapely.intersection(rects, own)) > 1e-9
            inside = shapely.contains_xy(shape, points[:, 0], points[:, 1])
            sure = shapely.distance(shape.boundary, shapely.points(points)) > band
            wrong = points[sure & (overlaps != inside)]
            assert len(wrong) == 0, (trial, facing, width, depth, wrong[:3], polygon.wkt)
            checked += int(sure.sum())
    assert checked > 100_000


# -- soundness on rotated tables ----------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "seed"),
    [("mbt", s) for s in (0, 3, 19, 52, 57)] + [("sr", s) for s in (4, 11, 12, 23, 37)],
)
def test_reach_and_moves_of_a_rectangle_are_sound(ruleset: str, seed: int) -> None:
    # Up to 5 other bases at random facings and 3 non-convex impassable polygons (or
    # buildings) around a mover at a random facing, none touching it. Every centre in
    # the reach area (250 drawn, and every vertex of its outline) puts the rectangle
    # clear of them all (overlap < 0.05 mm deep or < 0.01 mm^2) and on the table.
    # Then 12 goals drawn within 130 mm of the start: where ``move`` is legal and the
    # goal's rectangle touches nothing, the rectangle slid along path_mm (every 0.25 mm)
    # stays clear and on the table, and the cost is the length of path_mm (no costly
    # ground here) to the answer's 3 decimals a vertex.
    scene_data, (sx, sy, facing, w, d), obstacles = _rotated_table(seed, ruleset)
    scene = parse_scene(scene_data)
    rng = np.random.default_rng(seed + 1000)
    area = _area(_json(scene, "reach", "m"))
    assert area.area > 1000.0  # the mover is free to go somewhere
    points = _inside(area, 250, rng)
    offences = _offences(points, facing, w, d, obstacles)
    bad = [(p.tolist(), o) for p, o in zip(points, offences, strict=True) if o]
    assert not bad, bad[:5]
    legal_seen = 0
    for gx, gy in np.round(rng.uniform([sx - 130, sy - 130], [sx + 130, sy + 130], (12, 2)), 3):
        answer = _json(scene, "move", "m", gx, gy)
        if not _legal(answer) or not _clear((gx, gy), facing, w, d, obstacles):
            continue
        legal_seen += 1
        path = np.array(answer["path_mm"])
        assert path[0].tolist() == pytest.approx([sx, sy], abs=1e-6)
        assert path[-1].tolist() == pytest.approx([gx, gy], abs=1e-6)
        offences = [o for o in _offences(_slide(path), facing, w, d, obstacles) if o]
        assert not offences, (gx, gy, answer["path_mm"], offences[:3])
        length = float(np.sum(np.hypot(*np.diff(path, axis=0).T)))
        assert answer["cost_mm"] == pytest.approx(length, abs=1e-3 * len(path))
    assert legal_seen >= 1


# -- completeness and consistency on square tables --------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "seed"), [("mbt", s) for s in (1, 5, 8, 13)] + [("sr", s) for s in (2, 6, 9, 14)]
)
def test_reach_and_move_agree_with_a_grid_dijkstra(ruleset: str, seed: int) -> None:
    # The grid (module docstring) reaches its nodes by real paths. Each node it reaches
    # for at most the allowance less 1 mm (MBT light cavalry 125 mm, S&R infantry 120)
    # lies within 1.3 mm of the reach area. Then 10 of its nodes costing up to the
    # allowance + 30 mm, and 6 random goals: a goal whose rectangle touches nothing and
    # lies more than 1.5 mm inside the area is a legal move, more than 1.5 mm outside it
    # an illegal one; a legal move costs at most the grid's cost (+ the answer's
    # rounding, 2e-3 mm), and without difficult ground at least the grid's cost /
    # 1.04 - 3 mm (the grid's directions cost at most 1.0275 times the straight line, its
    # margin a few mm round obstacles); a node the grid reaches for the allowance less
    # 1 mm is a legal move.
    scene_data, (sx, sy, facing, w, d), obstacles, costly = _square_table(seed, ruleset)
    scene = parse_scene(scene_data)
    allowance = MBT_ALLOWANCE if ruleset == "mbt" else SR_ALLOWANCE
    area = _area(_json(scene, "reach", "m"))
    xs, ys, cost = _grid((sx, sy), facing, w, d, obstacles, allowance, costly)
    near = cost <= allowance - 1.0
    nodes = np.column_stack([xs[near], ys[near]])
    assert len(nodes) > 3000
    gaps = shapely.distance(area, shapely.points(nodes))
    assert gaps.max() <= 1.3, (nodes[np.argmax(gaps)].tolist(), float(gaps.max()))
    rng = np.random.default_rng(seed + 2000)
    known = np.nonzero(np.isfinite(cost) & (cost <= allowance + 30))[0]
    picks = [(xs[k], ys[k], cost[k]) for k in rng.choice(known, 10, replace=False)]
    picks += [
        (x, y, math.inf) for x, y in rng.uniform([sx - 130, sy - 130], [sx + 130, sy + 130], (6, 2))
    ]
    for x, y, grid_mm in picks:
        gx, gy = round(float(x), 3), round(float(y), 3)
        answer = _json(scene, "move", "m", gx, gy)
        legal = _legal(answer)
        clear = _clear((gx, gy), facing, w, d, obstacles)
        spot = shapely.Point(gx, gy)
        if clear and area.boundary.distance(spot) > 1.5:
            assert legal == area.contains(spot), (gx, gy, answer["reasons"], grid_mm)
        if legal:
            assert answer["cost_mm"] <= grid_mm + 2e-3, (gx, gy, answer["cost_mm"], grid_mm)
            if not costly and math.isfinite(grid_mm):
                assert answer["cost_mm"] >= grid_mm / 1.04 - 3.0, (gx, gy, answer["cost_mm"])
        elif clear:
            assert grid_mm > allowance - 1.0, (gx, gy, answer["reasons"], grid_mm)


# -- completeness on tilted tables --------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "seed"), [("mbt", s) for s in (0, 35, 38)] + [("sr", s) for s in (16, 19, 30)]
)
def test_reach_and_move_of_a_tilted_rectangle_agree_with_a_grid_dijkstra(
    ruleset: str, seed: int
) -> None:
    # The rotated tables of the soundness test (bases at random facings, non-convex
    # polygons, round bases in Smooth & Rifled) and the grid of the module docstring,
    # whose rectangle, grown by 1.17 mm, keeps the mover's tilted facing: its paths are
    # real paths of the base. Each node it reaches for at most the allowance less 1 mm
    # lies within 1.5 mm of the reach area (the area's error, 0.6 mm at these allowances
    # and rarely twice that, near a corner of free space a chord may cut). A move to the
    # 4 such nodes farthest from the area, and to 4 others, is legal and costs at most the
    # grid's cost (+ the answer's rounding, 2e-3 mm). When a point on a raw polygon's
    # outline counted as inside it (legs along a tilted obstacle's grown outline refused),
    # these areas missed nodes by 9.8 to 45 mm and those moves were refused.
    scene_data, (sx, sy, facing, w, d), obstacles = _rotated_table(seed, ruleset)
    scene = parse_scene(scene_data)
    allowance = MBT_ALLOWANCE if ruleset == "mbt" else SR_ALLOWANCE
    area = _area(_json(scene, "reach", "m"))
    xs, ys, cost = _grid((sx, sy), facing, w, d, obstacles, allowance)
    near = cost <= allowance - 1.0
    nodes, costs = np.column_stack([xs[near], ys[near]]), cost[near]
    assert len(nodes) > 3000
    gaps = shapely.distance(area, shapely.points(nodes))
    assert gaps.max() <= 1.5, (nodes[np.argmax(gaps)].tolist(), float(gaps.max()))
    rng = np.random.default_rng(seed + 3000)
    for k in [*np.argsort(gaps)[-4:], *rng.choice(len(nodes), 4, replace=False)]:
        gx, gy = round(float(nodes[k, 0]), 3), round(float(nodes[k, 1]), 3)
        answer = _json(scene, "move", "m", gx, gy)
        assert _legal(answer), (gx, gy, answer["reasons"], float(costs[k]))
        assert answer["cost_mm"] <= costs[k] + 2e-3, (gx, gy, answer["cost_mm"], float(costs[k]))


# -- edge cases ---------------------------------------------------------------------------


def _mbt(*figures: dict[str, Any]) -> Any:
    return parse_scene(
        {
            "ruleset": "mbt",
            "table": {"width_mm": WIDTH, "depth_mm": DEPTH},
            "figures": list(figures),
        }
    )


def _mbt_base(
    ident: str, side: str, x: float, y: float, facing: float, kind: str
) -> dict[str, Any]:
    base = {"shape": "rect", "width_mm": 40, "depth_mm": 20}
    place = {"id": ident, "side": side, "x_mm": x, "y_mm": y, "facing_deg": facing}
    return place | {"type": kind, "base": base}


def test_a_base_in_contact_at_its_start_slides_along_and_moves_away() -> None:
    # m at (200, 200) facing 90: x 180..220, y 190..210. o at (240, 200) facing 90:
    # x 220..260, their sides in exact contact. m slides 60 mm north along o's side
    # (the centre keeps x = 200, on the edge of o grown by m: x 200..280): legal, 60 mm.
    # It backs 30 mm west, away: legal, 30 mm. It cannot go through o to (300, 200):
    # the way round o grown (x 200..280, y 180..220) goes up its edge to (200, 220), 20
    # mm, along to (280, 220), 80 mm, and to (300, 200), 20 sqrt 2 = 28.284 mm:
    # 128.284 mm > 125: path_blocked, the way round costing 128.284.
    scene = _mbt(
        _mbt_base("m", "blue", 200, 200, 90, "cavalry"),
        _mbt_base("o", "red", 240, 200, 90, "infantry"),
    )
    north = _json(scene, "move", "m", 200, 260)
    assert north["legal"] and north["cost_mm"] == pytest.approx(60.0), north
    west = _json(scene, "move", "m", 170, 200)
    assert west["legal"] and west["cost_mm"] == pytest.approx(30.0), west
    through = _json(scene, "move", "m", 300, 200)
    assert through["reasons"] == ["path_blocked"], through
    assert through["detour_cost_mm"] == pytest.approx(128.284, abs=1e-3), through
    # The reach area runs up to the contact: (201, 240), whose rectangle x 181..221
    # is 1 mm into o's x range but 20 mm north of it (y 230..250 against 190..210),
    # is in it; (205, 200) (5 mm into o) is not.
    area = _area(_json(scene, "reach", "m"))
    assert area.contains(shapely.Point(201, 240)) and area.contains(shapely.Point(199, 200))
    assert not area.contains(shapely.Point(205, 200))


def test_a_base_overlapping_another_by_1_mm_moves_away() -> None:
    # o at (239, 200): x 219..259, 1 mm into m (x 180..220). That overlap is within
    # MBT's 2 mm contact tolerance: m may go no deeper into o than that. m backs
    # 50 mm west (legal, 50 mm) or goes 60 mm south, sliding along o's side with the
    # same 1 mm overlap (legal, 60 mm). A goal well into o, (235, 200), is occupied.
    scene = _mbt(
        _mbt_base("m", "blue", 200, 200, 90, "cavalry"),
        _mbt_base("o", "red", 239, 200, 90, "infantry"),
    )
    west = _json(scene, "move", "m", 150, 200)
    assert west["legal"] and west["cost_mm"] == pytest.approx(50.0), west
    south = _json(scene, "move", "m", 200, 140)
    assert south["legal"] and south["cost_mm"] == pytest.approx(60.0), south
    assert _json(scene, "move", "m", 235, 200)["reasons"] == ["destination_occupied"]


@pytest.mark.parametrize("facing", [90.0, 0.0, 37.0])
def test_a_move_into_contact_with_an_enemy_front_is_legal(facing: float) -> None:
    # The enemy e at (300, 200) faces back along ``facing`` + 180; m faces it from
    # 100 mm further back. Front to front, the centres are 10 + 10 = 20 mm apart: the
    # goal is e's centre + 20 mm along e's facing, rounded to 3 decimals (at 37 deg:
    # (284.027, 187.964), within 5e-5 mm of contact), the start 100 mm further.
    # The straight line is free: legal, 100 mm (to the rounding).
    back = math.radians(facing + 180.0)
    u = np.array([math.cos(back), math.sin(back)])
    goal = np.round(np.array([300.0, 200.0]) + 20 * u, 3)
    start = np.round(goal + 100 * u, 3)
    scene = _mbt(
        _mbt_base("m", "blue", float(start[0]), float(start[1]), facing, "cavalry"),
        _mbt_base("e", "red", 300, 200, facing + 180.0, "infantry"),
    )
    gap = _rects(goal[0], goal[1], facing, 40, 20)[0].distance(
        _rects(300, 200, facing + 180, 40, 20)[0]
    )
    assert gap < 1e-3
    answer = _json(scene, "move", "m", goal[0], goal[1])
    assert answer["legal"], answer
    assert answer["cost_mm"] == pytest.approx(float(np.hypot(*(goal - start))), abs=2e-3)


def test_a_base_touching_the_table_edge_at_37_degrees_moves_and_reaches() -> None:
    # A 40 x 20 base facing 37 deg reaches 10 cos 37 + 20 sin 37 = 20.0227 mm from its
    # centre in x: at x = 20.0227 its corner touches x = 0. It moves east to x = 100
    # (legal, 79.977 mm) and its reach area, centres x >= 20.0227 within 125 mm, is a
    # half disc of pi 125^2 / 2 = 24543.7 mm^2 (less the polygon's chords, a few mm^2)
    # whose left edge is x = 20.0227.
    x = 10 * math.cos(math.radians(37)) + 20 * math.sin(math.radians(37))
    scene = _mbt(_mbt_base("m", "blue", x, 200, 37, "cavalry"))
    answer = _json(scene, "move", "m", 100, 200)
    assert answer["legal"] and answer["cost_mm"] == pytest.approx(100 - x, abs=1e-3), answer
    reach = _json(scene, "reach", "m")
    assert reach["area_mm2"] == pytest.approx(math.pi * 125**2 / 2, abs=15.0)
    area = _area(reach)
    assert area.bounds[0] == pytest.approx(x, abs=1e-3)
