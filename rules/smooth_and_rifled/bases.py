"""Smooth & Rifled: figures' bases and the gaps between them.

Figures stand on 2x2 cm square or 25 mm round bases; a figure without a ``base`` has a
25 mm round one. Every gap is base edge to base edge.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any, overload

import numpy as np
import shapely

from arbitre.rules.answers import Reason
from arbitre.rules.errors import UnknownName
from arbitre.rules.geometry import base_gaps_mm, pair_gaps_mm
from arbitre.rules.model import Base, BaseShape, Figure, Scene, TerrainKind, centres_mm
from arbitre.rules.smooth_and_rifled.book import NUMBERS

_DEFAULT_BASE = Base.round(NUMBERS.default_base_mm)


def base_of(figure: Figure) -> Base:
    """The figure's base, a 25 mm round one when the scene gives none."""
    return figure.base if figure.base is not None else _DEFAULT_BASE


def footprint(figure: Figure) -> shapely.Polygon:
    return base_of(figure).footprint(figure.x_mm, figure.y_mm, figure.facing_deg)


class Footprints:
    """The figures' footprints, in ``scene.figures`` order, each made the first time it is
    asked for: ``prints[i]`` a polygon, ``prints[[i, j]]`` an object array of them."""

    def __init__(self, figures: Sequence[Figure]) -> None:
        self._figures = figures
        self._made: dict[int, shapely.Polygon] = {}

    def __len__(self) -> int:
        return len(self._figures)

    def _one(self, index: int) -> shapely.Polygon:
        made = self._made.get(index)
        if made is None:
            made = self._made[index] = footprint(self._figures[index])
        return made

    @overload
    def __getitem__(self, index: int | np.integer[Any]) -> shapely.Polygon: ...

    @overload
    def __getitem__(self, index: Sequence[int] | np.ndarray) -> np.ndarray: ...

    def __getitem__(
        self, index: int | np.integer[Any] | Sequence[int] | np.ndarray
    ) -> shapely.Polygon | np.ndarray:
        if isinstance(index, (int, np.integer)):
            return self._one(int(index))
        return np.array([self._one(int(i)) for i in index] + [None], dtype=object)[:-1]


@functools.lru_cache(maxsize=16)
def footprints(scene: Scene) -> Footprints:
    """Every figure's footprint, in ``scene.figures`` order (made when first needed)."""
    return Footprints(scene.figures)


def index_of(scene: Scene, figure_id: str) -> int:
    index = _indices(scene).get(figure_id)
    if index is None:
        raise UnknownName("figure", figure_id, (f.id for f in scene.figures))
    return index


@functools.lru_cache(maxsize=16)
def _indices(scene: Scene) -> dict[str, int]:
    """Each figure's place in ``scene.figures`` (the first, should two share an id)."""
    indices: dict[str, int] = {}
    for index, figure in enumerate(scene.figures):
        indices.setdefault(figure.id, index)
    return indices


class Gaps:
    """Edge-to-edge gaps between a scene's figures, mm, each measured when first asked for
    (`arbitre.rules.geometry.base_gaps_mm`: closed form where a base is round)."""

    def __init__(self, scene: Scene) -> None:
        bases = [base_of(f) for f in scene.figures]
        self._radii = np.array(
            [b.width_mm / 2 if b.shape is BaseShape.ROUND else np.nan for b in bases]
        )
        self._xy = centres_mm(scene.figures)
        self._prints = footprints(scene)
        self._rows: dict[int, np.ndarray] = {}

    def row(self, index: int) -> np.ndarray:
        """Gaps (N,) from one figure to every figure (0 to itself)."""
        row = self._rows.get(index)
        if row is None:
            row = self._rows[index] = self.block([index], None)[0]
        return row

    def block(self, rows: Sequence[int], cols: Sequence[int] | None) -> np.ndarray:
        """Gaps (len(rows), len(cols)) from the figures ``rows`` to the figures ``cols``
        (to every figure when ``cols`` is None)."""
        return base_gaps_mm(self._xy, self._radii, self._prints, rows, cols)

    def blocks(self, sets: Sequence[Sequence[int]]) -> list[np.ndarray]:
        """The gaps among each set of figures, (len(set), len(set)) each, measured at once."""
        firsts = [np.repeat(ids, len(ids)) for ids in sets]
        seconds = [np.tile(ids, len(ids)) for ids in sets]
        if not sets:
            return []
        gaps = pair_gaps_mm(
            self._xy, self._radii, self._prints, np.concatenate(firsts), np.concatenate(seconds)
        )
        ends = np.cumsum([len(ids) ** 2 for ids in sets])[:-1]
        return [
            block.reshape(len(ids), len(ids))
            for ids, block in zip(sets, np.split(gaps, ends), strict=True)
        ]

    def pair(self, a: int, b: int) -> float:
        """The gap between two figures."""
        row = self._rows.get(a)
        return float(row[b] if row is not None else self.block([a], [b])[0, 0])


@functools.lru_cache(maxsize=16)
def gaps_of(scene: Scene) -> Gaps:
    """The scene's gaps, measured as questions ask for them."""
    return Gaps(scene)


def figure_gap_mm(scene: Scene, a: Figure, b: Figure) -> float:
    """Edge-to-edge gap between two figures of a scene, mm."""
    return gaps_of(scene).pair(index_of(scene, a.id), index_of(scene, b.id))


OVERLAP_MM2 = 1e-3
"""Bases overlapping by less than this (mm²) only touch."""


def place_refusals(
    scene: Scene,
    figure: Figure,
    xy: np.ndarray,
    away: Sequence[str],
    blocking: Iterable[TerrainKind],
) -> list[Reason]:
    """Why the figure's base may not stand at ``xy`` (2,) mm, at its facing: off the table, on
    ground of the ``blocking`` kinds, or on another figure (those of ``away`` leave)."""
    spot = base_of(figure).footprint(float(xy[0]), float(xy[1]), figure.facing_deg)
    minx, miny, maxx, maxy = spot.bounds
    reasons: list[Reason] = []
    if minx < 0 or miny < 0 or maxx > scene.table.width_mm or maxy > scene.table.depth_mm:
        reasons.append(Reason.OFF_TABLE)
    ground = [
        t.geometry for t in scene.terrain_of(blocking) if isinstance(t.geometry, shapely.Polygon)
    ]
    if any(spot.intersection(g).area > OVERLAP_MM2 for g in ground):
        reasons.append(Reason.IMPASSABLE)
    prints = footprints(scene)
    if any(
        f.id not in away and spot.intersection(prints[i]).area > OVERLAP_MM2
        for i, f in enumerate(scene.figures)
    ):
        reasons.append(Reason.DESTINATION_OCCUPIED)
    return reasons
