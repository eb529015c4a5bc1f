"""Inputs and answers of the pathing queries, and the checks that reject malformed input.

Obstacles, costly regions, the field they stand on and the path returned; all
lengths and coordinates are table mm.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Final, TypeVar, cast

import numpy as np
import numpy.typing as npt
import shapely

# Arrays used throughout the package: coordinates and lengths in table mm, flags, indices.
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.intp]


TOLERANCE_MM: Final[float] = 1e-6
"""Distance by which a path may approach a grown obstacle and still count as touching."""


def _finite_float(value: object, name: str) -> float:
    """Return ``value`` as a finite float or raise ``ValueError``."""
    try:
        number = float(cast(float, value))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a number, got {value!r}") from exc
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return number


def _check_polygon(polygon: object, name: str) -> shapely.Polygon:
    """Return ``polygon`` if it is a valid, non-empty shapely Polygon."""
    if not isinstance(polygon, shapely.Polygon):
        raise ValueError(f"{name} must be a shapely Polygon, got {polygon!r}")
    if polygon.is_empty:
        raise ValueError(f"{name} must not be empty, got {polygon!r}")
    if not np.all(np.isfinite(shapely.get_coordinates(polygon))):
        raise ValueError(f"{name} must have finite coordinates, got {polygon!r}")
    if not polygon.is_valid or polygon.area <= 0.0:
        raise ValueError(f"{name} must be a valid polygon with an area, got {polygon!r}")
    return polygon


@dataclass(frozen=True, slots=True, eq=False)
class DiscHull:
    """A blocking obstacle: the convex hull of a set of discs (one disc = a round figure
    base; several = a group footprint).

    ``discs`` is an ``(N, 3)`` float64 array of ``x_mm, y_mm, radius_mm`` with N >= 1.
    """

    discs: FloatArray
    ident: str

    def __post_init__(self) -> None:
        try:
            array = np.array(self.discs, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"discs must be numbers, got {self.discs!r}") from exc
        if array.ndim == 1 and array.shape[0] == 3:
            array = array.reshape(1, 3)
        if array.ndim != 2 or array.shape[1] != 3 or array.shape[0] < 1:
            raise ValueError(f"discs must have shape (N, 3) with N >= 1, got {self.discs!r}")
        if not np.all(np.isfinite(array)):
            raise ValueError(f"discs must be finite, got {self.discs!r}")
        if np.any(array[:, 2] < 0.0):
            raise ValueError(f"disc radii must be >= 0, got {self.discs!r}")
        array.setflags(write=False)
        object.__setattr__(self, "discs", array)
        object.__setattr__(self, "ident", str(self.ident))


@dataclass(frozen=True, slots=True)
class BlockingPolygon:
    """A blocking obstacle given as a polygon (impassable terrain), possibly non-convex,
    maybe with holes."""

    polygon: shapely.Polygon
    ident: str

    def __post_init__(self) -> None:
        _check_polygon(self.polygon, "polygon")
        object.__setattr__(self, "ident", str(self.ident))


@dataclass(frozen=True, slots=True)
class CostlyRegion:
    """Terrain where each mm of path costs ``factor`` mm (difficult ground: factor 2).

    The mover pays while its base overlaps the terrain: the path finder grows
    ``polygon`` by the mover's radius. With ``grown`` the polygon is already the set of
    centres where the base overlaps the terrain (its caller grew it by the base's own
    shape, a rectangle kept at its facing say) and is taken as it is.
    """

    polygon: shapely.Polygon
    factor: float
    ident: str
    grown: bool = False

    def __post_init__(self) -> None:
        _check_polygon(self.polygon, "polygon")
        factor = _finite_float(self.factor, "factor")
        if factor < 1.0:
            raise ValueError(f"factor must be >= 1, got {self.factor!r}")
        object.__setattr__(self, "factor", factor)
        object.__setattr__(self, "ident", str(self.ident))
        object.__setattr__(self, "grown", bool(self.grown))

    def overlap(self, radius_mm: float) -> shapely.Geometry:
        """The centres at which a base of ``radius_mm`` pays the factor.

        >>> wood = CostlyRegion(shapely.box(0, 0, 10, 10), 2.0, "wood")
        >>> wood.overlap(2.0).bounds
        (-2.0, -2.0, 12.0, 12.0)
        >>> CostlyRegion(shapely.box(0, 0, 10, 10), 2.0, "wood", grown=True).overlap(2.0).bounds
        (0.0, 0.0, 10.0, 10.0)
        """
        return self.polygon if self.grown else base_overlap(self.polygon, radius_mm)


def base_overlap(geometry: shapely.Geometry, radius_mm: float) -> shapely.Geometry:
    """Where a base of ``radius_mm`` centred overlaps ``geometry``: the geometry grown by
    the radius, with square corners (how costly ground is charged).

    >>> base_overlap(shapely.box(0, 0, 10, 10), 2.0).bounds
    (-2.0, -2.0, 12.0, 12.0)
    """
    if radius_mm <= 0.0:
        return geometry
    return geometry.buffer(radius_mm, join_style="mitre")


@dataclass(frozen=True, slots=True)
class Field:
    """The table ``[0, width_mm] x [0, depth_mm]`` with its obstacles and costly regions."""

    width_mm: float
    depth_mm: float
    hulls: tuple[DiscHull, ...] = ()
    polygons: tuple[BlockingPolygon, ...] = ()
    costly: tuple[CostlyRegion, ...] = ()

    def __post_init__(self) -> None:
        for name in ("width_mm", "depth_mm"):
            value = _finite_float(getattr(self, name), name)
            if value <= 0.0:
                raise ValueError(f"{name} must be > 0, got {getattr(self, name)!r}")
            object.__setattr__(self, name, value)
        for name, kind in (
            ("hulls", DiscHull),
            ("polygons", BlockingPolygon),
            ("costly", CostlyRegion),
        ):
            items = tuple(getattr(self, name))
            for item in items:
                if not isinstance(item, kind):
                    raise ValueError(f"{name} must hold {kind.__name__} items, got {item!r}")
            object.__setattr__(self, name, items)
        # Ground off the table cannot touch a mover on it: what lies further off than
        # `OFF_TABLE_MM` is cut away, so that a wood reaching kilometres beyond the table
        # costs what its part on the table costs (its edges are sampled, and ray casts
        # cross them).
        near = shapely.box(
            -OFF_TABLE_MM, -OFF_TABLE_MM, self.width_mm + OFF_TABLE_MM, self.depth_mm + OFF_TABLE_MM
        )
        object.__setattr__(self, "polygons", _on_table(self.polygons, near))
        object.__setattr__(self, "costly", _on_table(self.costly, near))


Terrain = Field

OFF_TABLE_MM: Final[float] = 500.0
"""How far beyond the table's edges a field keeps its obstacles and costly ground: more
than any base reaches over an edge."""

_Cut = TypeVar("_Cut", BlockingPolygon, CostlyRegion)


def _on_table(items: tuple[_Cut, ...], near: shapely.Polygon) -> tuple[_Cut, ...]:
    """``items`` cut to ``near`` (the table and a margin); one cut in several parts gives
    as many items, one wholly beyond it none.

    >>> near = shapely.box(0, 0, 10, 10)
    >>> wide = BlockingPolygon(shapely.box(-5, 2, 1e6, 4), "wall")
    >>> [item.polygon.bounds for item in _on_table((wide,), near)]
    [(0.0, 2.0, 10.0, 4.0)]
    """
    kept: list[_Cut] = []
    for item in items:
        if near.contains(item.polygon):
            kept.append(item)
            continue
        cut = item.polygon.intersection(near)
        parts = getattr(cut, "geoms", (cut,))
        kept.extend(
            replace(item, polygon=part)
            for part in parts
            if isinstance(part, shapely.Polygon) and part.area > 0.0 and part.is_valid
        )
    return tuple(kept)


@dataclass(frozen=True, slots=True, eq=False)
class Path:
    """The answer of :func:`shortest_path`.

    ``points_mm`` is a ``(K, 2)`` polyline from start to goal (arcs sampled every
    2 degrees); ``blocked_by`` names the obstacles that the straight segment from
    start to goal crosses.
    """

    found: bool
    cost_mm: float
    length_mm: float
    points_mm: FloatArray
    blocked_by: tuple[str, ...]


def as_point(value: object, name: str) -> tuple[float, float]:
    """Return ``value`` as a finite ``(x, y)`` pair or raise ``ValueError``."""
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be an (x, y) pair in mm, got {value!r}") from exc
    if array.shape != (2,):
        raise ValueError(f"{name} must be an (x, y) pair in mm, got {value!r}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return float(array[0]), float(array[1])


def as_length(value: object, name: str) -> float:
    """Return ``value`` as a finite, non-negative length or raise ``ValueError``."""
    number = _finite_float(value, name)
    if number < 0.0:
        raise ValueError(f"{name} must be >= 0, got {value!r}")
    return number


def is_plus_inf(value: object) -> bool:
    """Whether ``value`` is positive infinity."""
    try:
        return float(cast(float, value)) == math.inf
    except (TypeError, ValueError):
        return False


@dataclass(frozen=True, slots=True)
class Departures:
    """Free tangent segments leaving one node (or one circle with one winding)."""

    target: IntArray  # index into the scene's target arrays
    t1x: FloatArray
    t1y: FloatArray
    t2x: FloatArray
    t2y: FloatArray
    phi1: FloatArray  # departure angle on the source circle
    run1: IntArray
    off1: FloatArray
    phi2: FloatArray  # arrival angle on the target circle
    run2: IntArray
    off2: FloatArray
    length: FloatArray
    cost: FloatArray
