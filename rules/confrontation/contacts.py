"""Base contact: the edge gap between two bases and every contact of a scene."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from arbitre.rules.confrontation.options import ConfrontationOptions, options_of
from arbitre.rules.geometry import pairs_within, signed_gap_mm
from arbitre.rules.model import Base, Figure, Scene, centres_mm


@dataclass(frozen=True, slots=True)
class Contacts:
    """Every pair of figures in base contact, with its edge gap (scene figure indices)."""

    gaps_mm: Mapping[tuple[int, int], float]
    enemies: tuple[tuple[int, ...], ...]  # per figure: the enemies touching its base

    def touching(self, i: int, j: int) -> bool:
        return (min(i, j), max(i, j)) in self.gaps_mm


def base_of(figure: Figure, options: ConfrontationOptions) -> Base:
    """A figure's base; a round base of ``base_mm`` when the scene gives none."""
    return figure.base if figure.base is not None else Base.round(options.base_mm)


def edge_gap_mm(a: Figure, b: Figure, options: ConfrontationOptions) -> float:
    """Gap between two bases, edge to edge (negative when round bases overlap).

    >>> o = ConfrontationOptions()
    >>> edge_gap_mm(Figure("a", "x", 0, 0), Figure("b", "y", 30, 40), o)
    25.0
    """
    return signed_gap_mm(a, base_of(a, options), b, base_of(b, options))


@functools.lru_cache(maxsize=16)
def find_contacts(scene: Scene) -> Contacts:
    """The base contacts of a scene, found once per scene (a spatial index on the centres)."""
    options = options_of(scene)
    figures = scene.figures
    gaps: dict[tuple[int, int], float] = {}
    enemies: list[list[int]] = [[] for _ in figures]
    if len(figures) >= 2:
        xy = centres_mm(figures)
        radii = np.array([base_of(f, options).radius_mm for f in figures])
        reach_mm = 2.0 * float(radii.max()) + options.contact_tolerance_mm
        for i, j in pairs_within(xy, reach_mm).tolist():
            gap = edge_gap_mm(figures[i], figures[j], options)
            if gap <= options.contact_tolerance_mm:
                gaps[(i, j)] = gap
                if scene.are_enemies(figures[i].side, figures[j].side):
                    enemies[i].append(j)
                    enemies[j].append(i)
    return Contacts(gaps, tuple(tuple(sorted(e)) for e in enemies))
