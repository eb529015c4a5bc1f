"""Base contact: the edge gap between two bases and every contact of a scene."""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping
from dataclasses import dataclass

import numpy as np

from arbitre.rules.answers import Margin, Said
from arbitre.rules.confrontation.options import ConfrontationOptions, options_of
from arbitre.rules.geometry import pairs_within, signed_gap_mm
from arbitre.rules.model import Base, Figure, Scene, centres_mm, sigma_between


@dataclass(frozen=True, slots=True)
class Contacts:
    """Every pair of figures in base contact, with its edge gap (scene figure indices)."""

    gaps_mm: Mapping[tuple[int, int], float]
    enemies: tuple[tuple[int, ...], ...]  # per figure: the enemies touching its base
    doubtful: tuple[tuple[int, int], ...] = ()
    """Pairs of enemies ``(i, j)``, ``i < j``, whose contact is too close to call: their gap
    within twice its uncertainty of the contact tolerance."""

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
    doubtful: list[tuple[int, int]] = []
    if len(figures) >= 2:
        xy = centres_mm(figures)
        radii = np.array([base_of(f, options).radius_mm for f in figures])
        # a gap's sigma is at most the sum of the two figures': twice it, 4 x the largest
        slack_mm = 4.0 * max(f.sigma_mm for f in figures)
        reach_mm = 2.0 * float(radii.max()) + options.contact_tolerance_mm + slack_mm
        for i, j in pairs_within(xy, reach_mm).tolist():
            gap = edge_gap_mm(figures[i], figures[j], options)
            hostile = scene.are_enemies(figures[i].side, figures[j].side)
            if gap <= options.contact_tolerance_mm:
                gaps[(i, j)] = gap
                if hostile:
                    enemies[i].append(j)
                    enemies[j].append(i)
            margin = abs(options.contact_tolerance_mm - gap)
            if (
                hostile
                and not Margin("contact", margin, sigma_between(figures[i], figures[j])).certain
            ):
                doubtful.append((i, j))
    return Contacts(gaps, tuple(tuple(sorted(e)) for e in enemies), tuple(doubtful))


def doubtful_pairs(scene: Scene, ids: Collection[str] | None = None) -> list[str]:
    """The pairs of enemies (``"a-b"``) whose contact is too close to call, those with a
    figure of ``ids`` (every pair when None)."""
    figures = scene.figures
    return [
        f"{figures[i].id}-{figures[j].id}"
        for i, j in find_contacts(scene).doubtful
        if ids is None or figures[i].id in ids or figures[j].id in ids
    ]


def doubtful_contacts(scene: Scene, ids: Collection[str] | None = None) -> tuple[Said, ...]:
    """A warning naming the pairs of enemies whose contact is too close to call (those with
    a figure of ``ids``; every pair when None): the melees' splits may differ."""
    pairs = doubtful_pairs(scene, ids)
    if not pairs:
        return ()
    return (
        Said(
            "contact_too_close",
            "too close to call whether {pairs} touch: measure by hand, the combats may differ",
            pairs=", ".join(pairs),
        ),
    )
