"""Bases as the rules see them: footprints, gaps and distances (table mm), and figure attributes."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import shapely

from arbitre.rules.answers import Unit
from arbitre.rules.errors import QuestionError
from arbitre.rules.geometry import signed_gap_mm
from arbitre.rules.model import Base, BaseShape, Figure, Scene, disc
from arbitre.rules.musg.book import (
    BOUNDS_SLACK_MM,
    NUMBERS,
    RANKS,
    TOUCH_MM,
    Weapon,
    parse_weapon,
    positive_number,
)
from arbitre.rules.musg.options import MusgOptions


def base_of(figure: Figure, options: MusgOptions) -> Base:
    """A figure's base; a round base of ``base_diameter_mm`` when the scene gives none."""
    return figure.base if figure.base is not None else Base.round(options.base_diameter_mm)


def footprint_of(figure: Figure, options: MusgOptions) -> shapely.Polygon:
    """A figure's base where it stands, in table mm."""
    return base_of(figure, options).footprint(figure.x_mm, figure.y_mm, figure.facing_deg)


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
        return footprint_of(figure, options)

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
def scene_footprints(scene: Scene, options: MusgOptions) -> Footprints:
    """Every base of a scene, built once per scene."""
    figures = scene.figures
    polygons = np.empty(len(figures), dtype=object)
    polygons[:] = [footprint_of(f, options) for f in figures]
    bounds = np.asarray(shapely.bounds(polygons), dtype=np.float64).reshape(-1, 4)
    index: dict[str, int] = {}
    for k, f in enumerate(figures):
        index.setdefault(f.id, k)
    return Footprints(figures, polygons, bounds, index)


def footprint_at(figure: Figure, xy: np.ndarray, options: MusgOptions) -> shapely.Polygon:
    """A figure's base moved to ``xy`` (2,) table mm, facing as it does."""
    base = base_of(figure, options)
    if base.shape is BaseShape.ROUND:
        return disc(float(xy[0]), float(xy[1]), base.width_mm / 2)
    return base.footprint(float(xy[0]), float(xy[1]), figure.facing_deg)


def base_radius_mm(figure: Figure, options: MusgOptions) -> float:
    """The radius of a figure's base (of the disc around it, when not round)."""
    return base_of(figure, options).radius_mm


def contact_gap_mm(a: Figure, b: Figure, options: MusgOptions) -> float:
    """Gap between two bases as a contact reports it (negative when round bases overlap)."""
    return signed_gap_mm(a, base_of(a, options), b, base_of(b, options))


def base_gap_mm(a: Figure, b: Figure, options: MusgOptions) -> float:
    """Gap between two bases (0 when they touch or overlap)."""
    return max(0.0, contact_gap_mm(a, b, options))


def measured_mm(a: Figure, b: Figure, options: MusgOptions) -> float:
    """A distance as the rules measure it: base edge to base edge, or centre to centre."""
    if options.measure == "centre":
        return float(np.hypot(*(a.xy - b.xy)))
    return base_gap_mm(a, b, options)


def overlaps_beyond_contact(a: shapely.Geometry, b: shapely.Geometry, options: MusgOptions) -> bool:
    """Whether two bases overlap by more than the contact tolerance (a touch is no overlap)."""
    half = options.contact_tolerance_mm / 2.0
    if half > 0.0:
        a, b = a.buffer(-half), b.buffer(-half)
    return bool(a.intersection(b).area > TOUCH_MM)


def move_pas_of(figure: Figure) -> float:
    """A figure's move in pas (``attrs.move_pas``), which a move question needs."""
    if "move_pas" not in figure.attrs:
        raise QuestionError(f"figure {figure.id!r}: attrs.move_pas is missing (its move in pas)")
    return positive_number(figure.attrs["move_pas"], f"figure {figure.id!r}: attrs.move_pas")


def weapon_of(figure: Figure) -> Weapon | None:
    """A figure's ranged weapon (``attrs.weapon``), None when it carries none."""
    raw = figure.attrs.get("weapon")
    if raw is None:
        return None
    try:
        return parse_weapon(raw, "attrs.weapon")
    except ValueError as error:
        raise QuestionError(f"figure {figure.id!r}: {error}") from None


def command_of(figure: Figure) -> int | None:
    """A figure's Cd (``attrs.command``), None when the scene does not give it."""
    value = figure.attrs.get("command")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise QuestionError(f"{figure.id}: attrs.command must be a whole number, got {value!r}")
    return value


def rank_index(figure: Figure) -> int | None:
    """A figure's rank among `RANKS`, 0 for the lowest; None when it has none."""
    rank = figure.attrs.get("rank")
    return RANKS.index(rank) if rank in RANKS else None


def attention_chef_of(
    scene: Scene, target: Figure, options: MusgOptions, unit: Unit
) -> tuple[str, ...]:
    """Friends of a chief within 1 pas who may take a shot meant for it."""
    if target.attrs.get("rank") != "chief":
        return ()
    reach_mm = unit.to_mm(NUMBERS.attention_chef_pas)
    near = [
        (measured_mm(target, other, options), other.id)
        for other in scene.figures
        if other.id != target.id and not scene.are_enemies(target.side, other.side)
    ]
    return tuple(ident for d, ident in sorted(near) if d <= reach_mm)
