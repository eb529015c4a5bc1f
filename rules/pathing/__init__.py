"""Exact shortest paths and reachable areas for a disc-shaped mover on a table.

Model
-----
The mover is a disc of radius ``r``; the problem is solved for its centre in the
configuration space, where every obstacle is grown by ``r``:

* a :class:`DiscHull` (the convex hull of figure bases) becomes the convex hull of
  its discs with radii ``R_i + r``;
* a :class:`BlockingPolygon` becomes ``polygon ⊕ disc(r)``;
* the table edge keeps the centre inside ``[r, W - r] x [r, D - r]``.

Touching is allowed: a centre or a path may come within
:data:`TOLERANCE_MM` of a grown obstacle's boundary from outside.

Shortest paths are exact (no grid): a tangent visibility graph whose nodes are the
start, the goal, tangent points on the grown discs (hull discs, and discs of
radius ``r`` around the convex corners of polygons) and points on the boundaries
of costly regions. Edges are free tangent segments and free arcs; the free arcs
of every circle are found exactly from its intersections with the other grown
obstacles and the table edge. The graph is searched lazily with A* (Dijkstra for
reachable areas), only over what a path within the allowance can reach (an
ellipse with the start and goal as foci, or a disc around the start). Lengths
count arcs as ``r * theta``; ``points_mm`` samples arcs every 2 degrees.

Costly regions
--------------
A mover pays a :class:`CostlyRegion`'s ``factor`` for each mm its centre moves while
its disc overlaps the region: the region is grown by the mover's radius (square
corners), wherever the path starts or ends. Where regions overlap the highest factor
applies. A grown region's boundary belongs to it: a path may skirt it at normal cost
(the limit of paths just outside it), but where the table edge or an obstacle leaves
no room beside the boundary, running along it costs the factor. Segment costs are
exact (clipped against the regions). Paths may bend on region boundaries: the boundary nodes are the
regions' vertices, points every few mm along their edges and the points where a
boundary meets a grown obstacle. Every bend of the path found on a boundary, and
every point where one of its straight pieces crosses a boundary, is then moved
along the boundary by bounded 1-D minimisations until the cost changes by less
than 1e-4 mm, which recovers the refraction of the optimum. When costly regions
shape the path, the search is repeated in a corridor around it with boundary points
every 2 mm, and the cheaper answer is kept.

Very detailed polygons
----------------------
A blocking polygon or a costly region of more vertices than a budget (128 each,
4,096 for a field) is replaced, for the search, by an outline that contains it
(:func:`~arbitre.rules.pathing.outline.path_outline`): a path found never enters the
original, nor pays less than it asks.

Obstacles overlapped at the start or at the goal
------------------------------------------------
An obstacle that the mover's disc already overlaps at the start (or at the goal)
does not trap it: for that query the obstacle blocks only with its raw,
un-grown shape. If the centre itself lies inside the raw obstacle, the obstacle
is ignored. A start whose disc overhangs the table edge may stay as close to that
edge as it already is; a goal must have its whole disc on the table.

Modules
-------
:mod:`~arbitre.rules.pathing.model` holds the inputs and answers; the queries are
:mod:`~arbitre.rules.pathing.search` (:func:`shortest_path`) and
:mod:`~arbitre.rules.pathing.reach` (:func:`reachable_area`). Below them,
:mod:`~arbitre.rules.pathing.prepare` and :mod:`~arbitre.rules.pathing.query` set a query up,
:mod:`~arbitre.rules.pathing.scene` and :mod:`~arbitre.rules.pathing.arcs` build what it can
meet, :mod:`~arbitre.rules.pathing.graph` searches it, :mod:`~arbitre.rules.pathing.legs` and
:mod:`~arbitre.rules.pathing.refraction` turn the result into a path, and
:mod:`~arbitre.rules.pathing.cast` and :mod:`~arbitre.rules.pathing.rays` outline reachable areas;
:mod:`~arbitre.rules.pathing.primitives` holds the vectorised geometry they share, and
:mod:`~arbitre.rules.pathing.kernels` the tests they make thousands of times, as compiled
loops (numba; compiled on first use and cached).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arbitre.rules.pathing.model import (
    TOLERANCE_MM,
    BlockingPolygon,
    CostlyRegion,
    DiscHull,
    Field,
    Path,
    Terrain,
    base_overlap,
)

if TYPE_CHECKING:
    from arbitre.rules.pathing.reach import reachable_area
    from arbitre.rules.pathing.search import shortest_path

__all__ = [
    "TOLERANCE_MM",
    "base_overlap",
    "BlockingPolygon",
    "CostlyRegion",
    "DiscHull",
    "Field",
    "Path",
    "Terrain",
    "reachable_area",
    "shortest_path",
]


def __getattr__(name: str) -> Any:
    """The two queries, imported when first used: a command that only measures distances
    never loads the path search."""
    query: Any
    if name == "reachable_area":
        from arbitre.rules.pathing import reach

        query = reach.reachable_area
    elif name == "shortest_path":
        from arbitre.rules.pathing import search

        query = search.shortest_path
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = query
    return query
