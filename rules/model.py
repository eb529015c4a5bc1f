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
    shared_mm: tuple[tuple[float, float], ...] = ()
    own_cov_mm2: tuple[tuple[float, float], tuple[float, float]] | None = None

    @property
    def xy(self) -> np.ndarray:
        """Position as a float64 array of shape (2,), table mm."""
        return np.array([self.x_mm, self.y_mm], dtype=np.float64)

    @property
    def own_covariance(self) -> np.ndarray:
        """``(2, 2)`` mm²: the part of this position's error no other figure shares.

        ``own_cov_mm2`` when given; else isotropic, what ``sigma_mm`` leaves beside the
        shared part: ``own² I`` with ``own² = max(sigma_mm² - trace(S Sᵀ) / 2, 0)``.

        >>> Figure("a", "x", 0, 0, sigma_mm=0.5, shared_mm=((0.3, 0.0), (0.0, 0.3))
        ...        ).own_covariance.round(4).tolist()
        [[0.16, 0.0], [0.0, 0.16]]
        """
        if self.own_cov_mm2 is not None:
            return np.array(self.own_cov_mm2, dtype=np.float64)
        shared = float(np.sum(np.square(self.shared_mm))) / 2.0
        return max(self.sigma_mm**2 - shared, 0.0) * np.eye(2)


def sigma_between(one: Figure, other: Figure, along: Iterable[float] | None = None) -> float:
    """1-sigma of a measure between two figures' positions (a distance, a gap), mm: the
    measure moves by ``u · (e₂ - e₁)`` for position errors ``e`` and its direction ``u``
    (``along``; default the line from ``one`` to ``other``). See `sigma_of`.

    Two figures 0.5 mm sure each, 0.4 mm of it shared and the same in both: 0.42 mm
    apart (0.3 mm own each), not 0.71 mm as if independent:

    >>> s = ((0.4, 0.0), (0.0, 0.4))
    >>> a = Figure("a", "x", 0, 0, sigma_mm=0.5, shared_mm=s)
    >>> b = Figure("b", "x", 30, 0, sigma_mm=0.5, shared_mm=s)
    >>> c = Figure("c", "x", 9, 9, sigma_mm=0.5)
    >>> round(sigma_between(a, b), 3), round(sigma_between(a, c), 3)
    (0.424, 0.707)
    """
    if along is None:
        along = (other.x_mm - one.x_mm, other.y_mm - one.y_mm)
    return sigma_of(((one, -1.0), (other, 1.0)), along)


def sigma_across_line(start: Figure, end: Figure, other: Figure) -> float:
    """1-sigma of ``other``'s distance from the segment ``start``-``end`` (a line of fire
    and a figure near it), mm: across the line, ``other``'s error less the line's at the
    point nearest it (``1 - t`` of ``start``'s and ``t`` of ``end``'s, ``t`` where
    ``other`` falls along the segment); beyond an end, its distance from that end. See
    `sigma_of`.

    >>> f = [Figure(n, "x", x, y, sigma_mm=0.3) for n, x, y in (("p", 0, 0), ("q", 300, 0),
    ...                                                            ("r", 100, 20))]
    >>> round(sigma_across_line(*f), 3)
    0.374
    """
    dx, dy = end.x_mm - start.x_mm, end.y_mm - start.y_mm
    length2 = dx * dx + dy * dy
    if not length2 > 0.0:
        return sigma_between(start, other)
    t = ((other.x_mm - start.x_mm) * dx + (other.y_mm - start.y_mm) * dy) / length2
    if t <= 0.0:  # beyond an end: the distance is to that end
        return sigma_between(start, other)
    if t >= 1.0:
        return sigma_between(end, other)
    return sigma_of(((start, t - 1.0), (end, -t), (other, 1.0)), (-dy, dx))


def sigma_of(terms: Iterable[tuple[Figure, float]], along: Iterable[float]) -> float:
    """1-sigma of a measure that moves by ``u · Σ wᵢ eᵢ`` for the position errors ``eᵢ``
    of the figures in ``terms`` (``(figure, wᵢ)``), ``u`` the direction ``along``, mm.

    Without shared errors (a scene that gives none, or figures measured apart: not the
    same number of terms in all), the errors are independent: ``sqrt(Σ wᵢ² σᵢ²)``. With
    them (``shared_mm``, the matrix ``S`` of each figure), the variance is
    ``Σ wᵢ² u·Cᵢu + |uᵀ Σ wᵢ Sᵢ|²``, ``C`` each figure's `Figure.own_covariance`: what
    moves all figures alike (the lens, the table pose, an anchor glued off, the print
    scale) cancels in a difference. With no direction (a zero vector), the worst one.

    A third figure's distance from the line between two others, a third of the way
    along: it moves with its own error, less 2/3 of the first's and 1/3 of the second's
    (across the line):

    >>> f = [Figure(n, "x", 0, 0, sigma_mm=0.3) for n in "pqr"]
    >>> round(sigma_of(zip(f, (-2 / 3, -1 / 3, 1.0)), (0.0, 1.0)), 3)
    0.374
    """
    pairs = list(terms)
    counts = {len(figure.shared_mm) for figure, _ in pairs}
    if 0 in counts or len(counts) != 1:
        return math.sqrt(sum((w * figure.sigma_mm) ** 2 for figure, w in pairs))
    own = np.sum([w * w * figure.own_covariance for figure, w in pairs], axis=0)
    shared = np.sum(
        [w * np.asarray(figure.shared_mm, dtype=np.float64) for figure, w in pairs], axis=0
    )
    covariance = np.asarray(own + shared.T @ shared, dtype=np.float64)
    direction = np.asarray(list(along), dtype=np.float64)
    length = float(np.hypot(*direction))
    if not (math.isfinite(length) and length > 0.0):
        return math.sqrt(max(float(np.linalg.eigvalsh(covariance)[-1]), 0.0))
    unit = direction / length
    return math.sqrt(max(float(unit @ covariance @ unit), 0.0))


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
    shared_errors: tuple[str, ...] = ()
    """The names of the error terms the figures' ``shared_mm`` give (docs/formats.md)."""

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
