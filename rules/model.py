"""The table state the rules reason about: figures, terrain, sides.

Everything here is in table millimetres (see ``docs/conventions.md``): x along
the table's width, y along its depth, angles in degrees counter-clockwise from +x.
These are plain frozen values; `arbitre.rules.scene` builds them from ``scene.yaml``.
"""

from __future__ import annotations

import functools
import math
import operator
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, TypeVar

import numpy as np
import shapely
from shapely import affinity

T = TypeVar("T")


class BaseShape(StrEnum):
    ROUND = "round"
    SQUARE = "square"
    RECT = "rect"


@dataclass(frozen=True, slots=True)
class Base:
    """A figure's base. ``width_mm`` runs along the front, ``depth_mm`` along the facing.

    A round base has ``width_mm == depth_mm ==`` its diameter.
    """

    shape: BaseShape
    width_mm: float
    depth_mm: float

    @classmethod
    def round(cls, diameter_mm: float) -> Base:
        return cls(BaseShape.ROUND, diameter_mm, diameter_mm)

    @property
    def radius_mm(self) -> float:
        """Radius of the smallest disc around the base's centre that holds the base."""
        if self.shape is BaseShape.ROUND:
            return self.width_mm / 2
        return math.hypot(self.width_mm, self.depth_mm) / 2

    def footprint(self, x_mm: float, y_mm: float, facing_deg: float) -> shapely.Polygon:
        """The base's outline on the table, centred on (x_mm, y_mm), front towards facing_deg.

        Outlines are kept (the last `OUTLINES_KEPT` made): a figure that has not moved
        since the last table state is not outlined again.

        >>> round(Base.round(25).footprint(0, 0, 0).area, 0)
        491.0
        >>> Base(BaseShape.RECT, 60, 30).footprint(100, 100, 90).bounds
        (70.0, 85.0, 130.0, 115.0)
        >>> Base.round(25).footprint(5, 5, 0) is Base.round(25).footprint(5.0, 5.0, 90)
        True
        """
        facing = 0.0 if self.shape is BaseShape.ROUND else float(facing_deg)
        return _outline(self, float(x_mm), float(y_mm), facing)


OUTLINES_KEPT = 4096
"""How many base outlines are kept for reuse (a few table states of the largest scene)."""


class KeptByIdentity(Generic[T]):
    """Values derived from a few objects (figures, a scene's options), kept while those very
    objects come back: on a live table a figure that did not move keeps its `Figure` from
    one state to the next (`arbitre.rules.scene.SceneReader`), so what was derived from
    it alone need not be derived again. At most ``size`` values are kept, the oldest
    leaving first; a kept value holds its objects, so their ids are not reused while it
    is kept.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._lock = threading.Lock()  # for changes; a lookup is one dict read
        self._kept: dict[tuple[int, ...], tuple[tuple[object, ...], T]] = {}
        _ALL_KEPT.append(self)

    def get(self, objects: tuple[object, ...]) -> T | None:
        """The value kept for exactly these objects, or None."""
        kept = self._kept.get(tuple(map(id, objects)))
        if kept is None or not all(map(operator.is_, kept[0], objects)):
            return None
        return kept[1]

    def keep(self, objects: tuple[object, ...], value: T) -> None:
        """Keep ``value`` as derived from ``objects``."""
        with self._lock:
            self._kept[tuple(map(id, objects))] = (objects, value)
            while len(self._kept) > self._size:
                del self._kept[next(iter(self._kept))]

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


_ALL_KEPT: list[KeptByIdentity[Any]] = []


def forget_kept() -> None:
    """Drop the kept outlines and every value kept by identity (to time a start from
    nothing)."""
    _outline.cache_clear()
    for kept in _ALL_KEPT:
        kept.clear()


@functools.lru_cache(maxsize=OUTLINES_KEPT)
def _outline(base: Base, x_mm: float, y_mm: float, facing_deg: float) -> shapely.Polygon:
    if base.shape is BaseShape.ROUND:
        return disc(x_mm, y_mm, base.width_mm / 2)
    # Unrotated, the base faces +x: depth along x, front width along y.
    half_d, half_w = base.depth_mm / 2, base.width_mm / 2
    box = shapely.box(-half_d, -half_w, half_d, half_w)
    turned = affinity.rotate(box, facing_deg, origin=(0, 0), use_radians=False)
    return affinity.translate(turned, x_mm, y_mm)


DISC_QUAD_SEGMENTS = 32


def disc(x_mm: float, y_mm: float, radius_mm: float) -> shapely.Polygon:
    """A disc as a fine polygon (128 sides: its area is within 0.05 % of the circle's)."""
    return shapely.Point(x_mm, y_mm).buffer(radius_mm, quad_segs=DISC_QUAD_SEGMENTS)


@dataclass(frozen=True, slots=True)
class Figure:
    """One figure on the table."""

    id: str
    side: str
    x_mm: float
    y_mm: float
    group: str | None = None
    reference: bool = False
    facing_deg: float = 90.0
    base: Base | None = None
    unit: str | None = None
    type: str | None = None
    wounded: bool = False
    sigma_mm: float = 0.0
    attrs: Mapping[str, Any] = field(default_factory=dict)

    @property
    def xy(self) -> np.ndarray:
        """Position as a float64 array of shape (2,), table mm."""
        return np.array([self.x_mm, self.y_mm], dtype=np.float64)


def centres_mm(figures: Iterable[Figure]) -> np.ndarray:
    """The figures' positions, float64 (N, 2), table mm.

    >>> centres_mm([Figure("a", "x", 1, 2), Figure("b", "x", 3.5, 4)]).tolist()
    [[1.0, 2.0], [3.5, 4.0]]
    """
    return np.array([(f.x_mm, f.y_mm) for f in figures], dtype=np.float64).reshape(-1, 2)


class TerrainKind(StrEnum):
    DIFFICULT = "difficult"
    IMPASSABLE = "impassable"
    OBSTACLE = "obstacle"
    WOOD = "wood"
    BUILDING = "building"


@dataclass(frozen=True, slots=True)
class TerrainFeature:
    """A terrain feature: an area (``polygon_mm``) or, for linear obstacles, a line."""

    id: str
    kind: TerrainKind
    geometry: shapely.Polygon | shapely.LineString
    level: int | None = None
    attrs: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Table:
    width_mm: float
    depth_mm: float

    def contains(self, x_mm: float, y_mm: float) -> bool:
        return 0.0 <= x_mm <= self.width_mm and 0.0 <= y_mm <= self.depth_mm


@dataclass(frozen=True, slots=True, eq=False)
class Scene:
    """A validated table state.

    ``options`` is the ruleset's own options object (see each ruleset module).
    Scenes compare and hash by identity, so derived facts (groups) can be cached.
    """

    ruleset: str
    options: Any
    table: Table
    figures: tuple[Figure, ...]
    terrain: tuple[TerrainFeature, ...] = ()
    allies: frozenset[frozenset[str]] = frozenset()
    source: str = "<scene>"

    def figure(self, figure_id: str) -> Figure | None:
        for candidate in self.figures:
            if candidate.id == figure_id:
                return candidate
        return None

    def are_enemies(self, side_a: str, side_b: str) -> bool:
        """Sides are enemies unless they are the same side or declared allies."""
        if side_a == side_b:
            return False
        return frozenset((side_a, side_b)) not in self.allies

    def terrain_of(self, kinds: Iterable[TerrainKind]) -> tuple[TerrainFeature, ...]:
        wanted = set(kinds)
        return tuple(feature for feature in self.terrain if feature.kind in wanted)
