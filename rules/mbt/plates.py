"""Bases as plates: rectangles, their edges and corners, contact, alignment, groups.

Also the scene's plates built once per scene (``layout_of``) and the ground a base
may not enter.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import shapely

from arbitre.rules.errors import QuestionError
from arbitre.rules.geometry import pairs_within
from arbitre.rules.mbt.book import BLOCKING_TERRAIN, EDGES
from arbitre.rules.mbt.options import MbtOptions
from arbitre.rules.model import Figure, KeptByIdentity, Scene, TerrainKind, sigma_between
from arbitre.rules.ruleset import Gap


@dataclass(frozen=True, slots=True)
class Plate:
    """A base's rectangle: centre, unit facing ``u`` and left normal ``n``, table mm."""

    figure: Figure
    centre: np.ndarray
    u: np.ndarray
    n: np.ndarray
    width_mm: float
    depth_mm: float

    @classmethod
    def of(cls, figure: Figure) -> Plate:
        assert figure.base is not None
        angle = math.radians(figure.facing_deg)
        u = np.array([math.cos(angle), math.sin(angle)])
        return cls(
            figure,
            figure.xy,
            u,
            np.array([-u[1], u[0]]),
            figure.base.width_mm,
            figure.base.depth_mm,
        )

    def corner(self, along: float, across: float) -> np.ndarray:
        """A point of the base: ``along`` in half depths (+1 front), ``across`` in half widths
        (+1 left)."""
        return (
            self.centre + along * self.depth_mm / 2 * self.u + across * self.width_mm / 2 * self.n
        )

    def edge(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """An edge's ends, named front, right, back or left.

        >>> from arbitre.rules.model import Base, BaseShape
        >>> plate = Plate.of(Figure("a", "x", 0, 0, facing_deg=90,
        ...                         base=Base(BaseShape.RECT, 40, 20)))
        >>> [p.round(6).tolist() for p in plate.edge("front")]
        [[20.0, 10.0], [-20.0, 10.0]]
        """
        ends = {
            "front": ((1, -1), (1, 1)),
            "left": ((1, 1), (-1, 1)),
            "back": ((-1, 1), (-1, -1)),
            "right": ((-1, -1), (1, -1)),
        }[name]
        return self.corner(*ends[0]), self.corner(*ends[1])

    def polygon(self, shift: np.ndarray | None = None) -> shapely.Polygon:
        """The rectangle (moved by ``shift``); where it stands, kept while the plate is."""
        if shift is None:
            kept = _OUTLINES.get((self,))
            if kept is None:
                kept = self._outline(np.zeros(2))
                _OUTLINES.keep((self,), kept)
            return kept
        return self._outline(shift)

    def _outline(self, offset: np.ndarray) -> shapely.Polygon:
        points = [self.corner(a, b) + offset for a, b in ((1, -1), (1, 1), (-1, 1), (-1, -1))]
        return shapely.Polygon(points)


_OUTLINES: KeptByIdentity[shapely.Polygon] = KeptByIdentity(4096)
"""The rectangles of the plates of the last few table states."""


def edge_contact(
    a: Plate, b: Plate, tolerance_mm: float, align_deg: float
) -> tuple[str, str, float] | None:
    """The pair of edges in contact (parallel, on one line, overlapping), with the overlap.

    >>> from arbitre.rules.model import Base, BaseShape
    >>> rect = Base(BaseShape.RECT, 40, 20)
    >>> one = Plate.of(Figure("a", "x", 0, 0, facing_deg=90, base=rect))
    >>> two = Plate.of(Figure("b", "y", 10, 20, facing_deg=270, base=rect))
    >>> edge_contact(one, two, 2.0, 5.0)
    ('front', 'front', 30.0)
    """
    best: tuple[str, str, float] | None = None
    cos_limit = math.cos(math.radians(align_deg))
    for name_a in EDGES:
        p, q = a.edge(name_a)
        direction = q - p
        length = float(np.hypot(*direction))
        t = direction / length
        for name_b in EDGES:
            r, s = b.edge(name_b)
            other = s - r
            if abs(float(t @ other)) / float(np.hypot(*other)) < cos_limit:
                continue
            normal = np.array([-t[1], t[0]])
            if max(abs(float((r - p) @ normal)), abs(float((s - p) @ normal))) > tolerance_mm:
                continue
            lo, hi = sorted((float((r - p) @ t), float((s - p) @ t)))
            overlap = min(hi, length) - max(lo, 0.0)
            if overlap > tolerance_mm and (best is None or overlap > best[2]):
                best = (name_a, name_b, round(overlap, 9))
    return best


def penetration_mm(a: shapely.Polygon, b: shapely.Polygon) -> float:
    """How far two convex polygons overlap (the shortest push apart); 0 when apart.

    >>> penetration_mm(shapely.box(0, 0, 10, 10), shapely.box(7, 2, 20, 5))
    3.0
    """
    depth = math.inf
    coords_a = np.asarray(a.exterior.coords)[:-1]
    coords_b = np.asarray(b.exterior.coords)[:-1]
    for coords in (coords_a, coords_b):
        for k in range(len(coords)):
            edge = coords[(k + 1) % len(coords)] - coords[k]
            axis = np.array([-edge[1], edge[0]]) / float(np.hypot(*edge))
            pa, pb = coords_a @ axis, coords_b @ axis
            overlap = min(pa.max() - pb.min(), pb.max() - pa.min())
            if overlap <= 0:
                return 0.0
            depth = min(depth, float(overlap))
    return depth


@dataclass(frozen=True, slots=True, eq=False)
class Layout:
    """A scene's bases, built once: plates, their rectangles and an index by id."""

    plates: tuple[Plate, ...]
    polygons: np.ndarray  # (N,) shapely.Polygon, in the order of ``plates``
    index: Mapping[str, int]

    def polygon(self, plate: Plate) -> shapely.Polygon:
        """A base's rectangle: the scene's own, built afresh for a base not in it."""
        k = self.index.get(plate.figure.id)
        if k is not None and self.plates[k].figure is plate.figure:
            return self.polygons[k]
        return plate.polygon()

    def gaps_mm(self, plate: Plate) -> np.ndarray:
        """Gaps (N,) from every base to ``plate``, mm."""
        return np.asarray(shapely.distance(self.polygons, self.polygon(plate)), dtype=np.float64)


@functools.lru_cache(maxsize=16)
def layout_of(scene: Scene) -> Layout:
    """The scene's plates with their rectangles (built when a question measures gaps)."""
    plates = plates_of(scene)
    polygons = np.empty(len(plates), dtype=object)
    polygons[:] = [p.polygon() for p in plates]
    return Layout(plates, polygons, _plate_index(scene))


@functools.lru_cache(maxsize=16)
def _plate_index(scene: Scene) -> Mapping[str, int]:
    index: dict[str, int] = {}
    for k, figure in enumerate(scene.figures):
        index.setdefault(figure.id, k)
    return index


def plate_named(scene: Scene, name: str) -> Plate:
    """The base called ``name``; `QuestionError` when there is none."""
    index = _plate_index(scene)
    if name not in index:
        raise QuestionError(f"unknown base {name!r}")
    return plates_of(scene)[index[name]]


def plate_pair(scene: Scene, a: str, b: str) -> tuple[Plate, Plate]:
    """The bases A and B, two different ones."""
    if a == b:
        raise QuestionError(f"{a!r} and {b!r} are the same base")
    return plate_named(scene, a), plate_named(scene, b)


_PLATES: KeptByIdentity[Plate] = KeptByIdentity(4096)
"""Each figure's plate, kept while the figure stays the same object (on a live table, the
figures that did not move)."""


@functools.lru_cache(maxsize=16)
def plates_of(scene: Scene) -> tuple[Plate, ...]:
    """Every figure's plate, in ``scene.figures`` order."""
    return tuple(plate_of(f) for f in scene.figures)


def plate_of(figure: Figure) -> Plate:
    """A figure's plate, made once while the figure stays the same object."""
    plate = _PLATES.get((figure,))
    if plate is None:
        plate = Plate.of(figure)
        _PLATES.keep((figure,), plate)
    return plate


def contact_gap(a: Plate, b: Plate, options: MbtOptions) -> Gap:
    """What contact compares for two bases: the gap between their rectangles, mm, and the
    contact tolerance. Rectangles meet along their edges, not along the line between their
    centres: the gap's sigma is taken along its worst direction."""
    gap = float(shapely.distance(a.polygon(), b.polygon()))
    sigma = sigma_between(a.figure, b.figure, along=(0.0, 0.0))
    return Gap(a.figure, b.figure, gap, options.contact_tolerance_mm, sigma)


def contact_kind(a: Plate, b: Plate, options: MbtOptions) -> tuple[str, tuple[str, ...]]:
    """How two bases in contact touch: ``edge`` and the two edges (A's, B's), or ``corner``
    and none."""
    pair = edge_contact(a, b, options.contact_tolerance_mm, options.align_tolerance_deg)
    return ("corner", ()) if pair is None else ("edge", pair[:2])


def _angle_between(a_deg: float, b_deg: float) -> float:
    """Absolute difference of two headings, in [0, 180]."""
    return abs((a_deg - b_deg + 180.0) % 360.0 - 180.0)


def _far_apart(a: Plate, b: Plate, tolerance_mm: float) -> bool:
    """Whether two bases are surely not in contact: their centres further apart than their
    half diagonals and the tolerance (a quick test before the edges are compared)."""
    reach = (math.hypot(a.width_mm, a.depth_mm) + math.hypot(b.width_mm, b.depth_mm)) / 2
    gap_x = float(a.centre[0]) - float(b.centre[0])
    gap_y = float(a.centre[1]) - float(b.centre[1])
    return math.hypot(gap_x, gap_y) > reach + tolerance_mm


def face_to_face(a: Plate, b: Plate, options: MbtOptions) -> bool:
    """Whether two bases have their front edges in edge contact and opposite facings."""
    if _far_apart(a, b, options.contact_tolerance_mm):
        return False
    pair = edge_contact(a, b, options.contact_tolerance_mm, options.align_tolerance_deg)
    return (
        pair is not None
        and pair[:2] == ("front", "front")
        and _angle_between(a.figure.facing_deg + 180.0, b.figure.facing_deg)
        <= options.align_tolerance_deg
    )


def aligned_friends(a: Plate, b: Plate, options: MbtOptions) -> bool:
    """Friends in contact and perfectly aligned: same facing, a whole edge on a whole edge."""
    if a.figure.side != b.figure.side:
        return False
    if _angle_between(a.figure.facing_deg, b.figure.facing_deg) > options.align_tolerance_deg:
        return False
    if _far_apart(a, b, options.contact_tolerance_mm):
        return False
    pair = edge_contact(a, b, options.contact_tolerance_mm, options.align_tolerance_deg)
    if pair is None:
        return False
    full = (
        min(a.width_mm, b.width_mm) if pair[0] in ("front", "back") else min(a.depth_mm, b.depth_mm)
    )
    return pair[2] >= full - options.contact_tolerance_mm


def near_pairs(plates: tuple[Plate, ...], tolerance_mm: float) -> np.ndarray:
    """Index pairs ``(i, j)``, ``i < j``, of the plates that may touch, from a spatial index:
    centres no further apart than the two longest half diagonals and the tolerance, and a
    millimetre more (every pair `_far_apart` does not rule out is among them, whatever
    the rounding)."""
    if len(plates) < 2:
        return np.zeros((0, 2), dtype=np.intp)
    longest = max(math.hypot(p.width_mm, p.depth_mm) for p in plates)
    return pairs_within(np.array([p.centre for p in plates]), longest + tolerance_mm + 1.0)


def group_of(scene: Scene, plate: Plate, options: MbtOptions) -> list[Plate]:
    """A base's group: itself and the bases aligned with it, one after another."""
    plates = plates_of(scene)
    members = [plate]
    seen = {plate.figure.id}
    k = 0
    while k < len(members):
        for other in plates:
            if other.figure.id not in seen and aligned_friends(members[k], other, options):
                seen.add(other.figure.id)
                members.append(other)
        k += 1
    return members


def woods_for(figure: Figure, options: MbtOptions) -> str:
    """What a wood is to this base: ``impassable``, ``difficult`` or ``open`` (options)."""
    if figure.type == "cavalry":
        return options.woods_for_cavalry
    return options.woods_for_infantry


def kinds_barred_to(figure: Figure, options: MbtOptions) -> set[TerrainKind]:
    """Ground a base may not enter: impassable ground, buildings, and woods when the
    scenario says so (by default for cavalry, "bois dense pour les cavaliers")."""
    kinds = set(BLOCKING_TERRAIN)
    if woods_for(figure, options) == "impassable":
        kinds.add(TerrainKind.WOOD)
    return kinds


def terrain_barred_to(
    scene: Scene, figure: Figure, options: MbtOptions
) -> list[tuple[str, shapely.Geometry]]:
    """The terrain a base may not enter (`kinds_barred_to`): each feature's id and shape."""
    kinds = kinds_barred_to(figure, options)
    return [(f.id, f.geometry) for f in scene.terrain if f.kind in kinds]
