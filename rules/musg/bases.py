"""Bases as the rules see them: footprints, gaps and distances (table mm), and figure attributes."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import shapely

from arbitre.rules.answers import Unit
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Base, BaseShape, Figure, Scene, disc
from arbitre.rules.musg.book import (
    BOUNDS_SLACK_MM,
    NUMBERS,
    RANKS,
    TOUCH_MM,
    Weapon,
    _positive,
    parse_weapon,
)
from arbitre.rules.musg.options import MusgOptions


def _base(figure: Figure, options: MusgOptions) -> Base:
    return figure.base if figure.base is not None else Base.round(options.base_diameter_mm)


def _footprint(figure: Figure, options: MusgOptions) -> shapely.Polygon:
    return _base(figure, options).footprint(figure.x_mm, figure.y_mm, figure.facing_deg)


@dataclass(frozen=True, slots=True, eq=False)
class Footprints:
    """A scene's bases as polygons, built once, with their bounding boxes (table mm)."""

    figures: tuple[Figure, ...]
    polygons: np.ndarray  # (N,) shapely.Polygon, in the order of ``figures``
    bounds: np.ndarray  # (N, 4) min x, min y, max x, max y
    index: Mapping[str, int]

    def of(self, figure: Figure, options: MusgOptions) -> shapely.Polygon:
        """A figure's footprint: the scene's own, built afresh for a figure not in it."""
        k = self.index.get(figure.id)
        if k is not None and self.figures[k] is figure:
            return self.polygons[k]
        return _footprint(figure, options)

    def near(self, box: tuple[float, float, float, float]) -> np.ndarray:
        """Which footprints (N,) have a bounding box within reach of ``box`` (min x, min y,
        max x, max y)."""
        low_x, low_y, high_x, high_y = box
        b = self.bounds
        return np.asarray(
            (b[:, 0] <= high_x + BOUNDS_SLACK_MM)
            & (b[:, 2] >= low_x - BOUNDS_SLACK_MM)
            & (b[:, 1] <= high_y + BOUNDS_SLACK_MM)
            & (b[:, 3] >= low_y - BOUNDS_SLACK_MM)
        )


@functools.lru_cache(maxsize=16)
def _footprints(scene: Scene, options: MusgOptions) -> Footprints:
    figures = scene.figures
    polygons = np.empty(len(figures), dtype=object)
    polygons[:] = [_footprint(f, options) for f in figures]
    bounds = np.asarray(shapely.bounds(polygons), dtype=np.float64).reshape(-1, 4)
    index: dict[str, int] = {}
    for k, f in enumerate(figures):
        index.setdefault(f.id, k)
    return Footprints(figures, polygons, bounds, index)


def _footprint_at(figure: Figure, xy: np.ndarray, options: MusgOptions) -> shapely.Polygon:
    base = _base(figure, options)
    if base.shape is BaseShape.ROUND:
        return disc(float(xy[0]), float(xy[1]), base.width_mm / 2)
    return base.footprint(float(xy[0]), float(xy[1]), figure.facing_deg)


def _radius(figure: Figure, options: MusgOptions) -> float:
    return _base(figure, options).radius_mm


def _gap(a: Figure, b: Figure, options: MusgOptions) -> float:
    """Gap between two bases (0 when they touch or overlap)."""
    base_a, base_b = _base(a, options), _base(b, options)
    if base_a.shape is BaseShape.ROUND and base_b.shape is BaseShape.ROUND:
        centres = float(np.hypot(*(a.xy - b.xy)))
        return max(0.0, centres - base_a.radius_mm - base_b.radius_mm)
    return float(shapely.distance(_footprint(a, options), _footprint(b, options)))


def _measure(a: Figure, b: Figure, options: MusgOptions) -> float:
    """A distance as the rules measure it: base edge to base edge, or centre to centre."""
    if options.measure == "centre":
        return float(np.hypot(*(a.xy - b.xy)))
    return _gap(a, b, options)


def _overlap_beyond(a: shapely.Geometry, b: shapely.Geometry, options: MusgOptions) -> bool:
    """Whether two bases overlap by more than the contact tolerance (a touch is no overlap)."""
    half = options.contact_tolerance_mm / 2.0
    if half > 0.0:
        a, b = a.buffer(-half), b.buffer(-half)
    return bool(a.intersection(b).area > TOUCH_MM)


def _move_pas(figure: Figure) -> float:
    if "move_pas" not in figure.attrs:
        raise QuestionError(f"figure {figure.id!r}: attrs.move_pas is missing (its move in pas)")
    return _positive(figure.attrs["move_pas"], f"figure {figure.id!r}: attrs.move_pas")


def _weapon(figure: Figure) -> Weapon | None:
    raw = figure.attrs.get("weapon")
    if raw is None:
        return None
    try:
        return parse_weapon(raw, "attrs.weapon")
    except ValueError as error:
        raise QuestionError(f"figure {figure.id!r}: {error}") from None


def _rank_index(figure: Figure) -> int | None:
    rank = figure.attrs.get("rank")
    return RANKS.index(rank) if rank in RANKS else None


def _attention_chef(
    scene: Scene, target: Figure, options: MusgOptions, unit: Unit
) -> tuple[str, ...]:
    """Friends of a chief within 1 pas who may take a shot meant for it."""
    if target.attrs.get("rank") != "chief":
        return ()
    reach_mm = unit.to_mm(NUMBERS.attention_chef_pas)
    near = [
        (_measure(target, other, options), other.id)
        for other in scene.figures
        if other.id != target.id and not scene.are_enemies(target.side, other.side)
    ]
    return tuple(ident for d, ident in sorted(near) if d <= reach_mm)
