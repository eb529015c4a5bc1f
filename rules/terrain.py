"""Terrain as the path finder sees it: what blocks a move and what costs more to cross."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

import numpy as np
import shapely

from arbitre.rules import pathing
from arbitre.rules.answers import Said
from arbitre.rules.geometry import overlap_centres_of
from arbitre.rules.model import Scene, TerrainKind

TerrainCost = Literal["none", "double"]
"""The option ``terrain_cost`` of the rule systems whose books give terrain no cost (Choc
Base 6, Confrontation): ``none`` as the book says, or the house rule ``double``."""

HOUSE_RULE_COSTS: Mapping[TerrainKind, float] = {TerrainKind.DIFFICULT: 2.0, TerrainKind.WOOD: 2.0}
"""What woods and difficult ground cost to cross under the house rule ``terrain_cost: double``."""


def terrain_costs(terrain_cost: TerrainCost) -> Mapping[TerrainKind, float]:
    """The terrain a move pays more to cross, with its factor, under ``terrain_cost``.

    >>> terrain_costs("none"), terrain_costs("double")[TerrainKind.WOOD]
    ({}, 2.0)
    """
    return HOUSE_RULE_COSTS if terrain_cost == "double" else {}


def terrain_cost_notes(terrain_cost: TerrainCost) -> tuple[Said, ...]:
    """What a move answered under ``terrain_cost`` says of it: the house rule, named.

    >>> terrain_cost_notes("double")[0].code, terrain_cost_notes("none")
    ('house_rule_terrain_cost', ())
    """
    if terrain_cost == "none":
        return ()
    return (
        Said(
            "house_rule_terrain_cost",
            "house rule terrain_cost: woods and difficult ground cost double "
            "(the book gives terrain no cost)",
        ),
    )


def grown_by_base(
    regions: Iterable[pathing.CostlyRegion], outline: np.ndarray
) -> tuple[pathing.CostlyRegion, ...]:
    """Costly regions as the centres where a base of this ``outline`` (its corners about
    its centre, (V, 2), at the facing it keeps along the move) overlaps them: taken as
    they are by the path finder (``grown``), not grown by the disc round the base.

    >>> wood = pathing.CostlyRegion(shapely.box(0, 0, 100, 100), 2.0, "wood")
    >>> base = np.array([[20.0, 10], [-20, 10], [-20, -10], [20, -10]])
    >>> [(r.polygon.bounds, r.grown) for r in grown_by_base([wood], base)]
    [((-20.0, -10.0, 120.0, 110.0), True)]
    """
    given = list(regions)
    grown = overlap_centres_of(np.array([r.polygon for r in given], dtype=object), outline)
    parts, owner = shapely.get_parts(grown, return_index=True)
    return tuple(
        pathing.CostlyRegion(part, given[k].factor, given[k].ident, grown=True)
        for part, k in zip(parts, owner, strict=True)
        if isinstance(part, shapely.Polygon) and part.area > 0.0
    )


def terrain_regions(
    scene: Scene,
    blocking: Iterable[TerrainKind],
    costly: Mapping[TerrainKind, float],
) -> tuple[tuple[pathing.BlockingPolygon, ...], tuple[pathing.CostlyRegion, ...]]:
    """The scene's area terrain of the ``blocking`` kinds, and of the ``costly`` kinds with
    their cost factors (linear obstacles are left to the rule systems that use them)."""
    polygons = tuple(
        pathing.BlockingPolygon(feature.geometry, feature.id)
        for feature in scene.terrain_of(blocking)
        if isinstance(feature.geometry, shapely.Polygon)
    )
    regions = tuple(
        pathing.CostlyRegion(feature.geometry, costly[feature.kind], feature.id)
        for feature in scene.terrain_of(costly)
        if isinstance(feature.geometry, shapely.Polygon)
    )
    return polygons, regions


def straight_cost_mm(
    field: pathing.Field, start: np.ndarray, goal: np.ndarray, radius_mm: float = 0.0
) -> float:
    """Cost of the straight segment start-goal, ignoring what blocks it (costly ground counted
    while a base of ``radius_mm`` overlaps it, as the path finder counts it).

    >>> wood = pathing.CostlyRegion(shapely.box(10, -5, 20, 5), 2.0, "wood")
    >>> straight_cost_mm(pathing.Field(100, 100, costly=(wood,)), np.zeros(2), np.array([30, 0]))
    40.0
    >>> field = pathing.Field(100, 100, costly=(wood,))
    >>> straight_cost_mm(field, np.zeros(2), np.array([30, 0]), radius_mm=2.0)  # 14 mm in it
    44.0
    """
    segment = shapely.LineString([start, goal])
    extra = sum(
        (region.factor - 1.0) * segment.intersection(region.overlap(radius_mm)).length
        for region in field.costly
    )
    return float(segment.length + extra)
