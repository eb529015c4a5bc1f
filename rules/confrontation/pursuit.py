"""Confrontation's pursuit: where a figure may go after its combat, half its MOU.

A pursuit is not a reach (it is asked after a won combat, goes half the MOU rounded up to
the cm and names the enemies still touching, in a sentence of its own), so it makes its
answer from the same area search (`pathing.reachable_area`, `area_answer`), not with
`reach_answer_of`, which answers ``reach`` in the reach's words, and it has no move to a
point for `allowance_verdict` to judge.
"""

from __future__ import annotations

import numpy as np

from arbitre.rules import pathing
from arbitre.rules.answers import Said, area_text, warning_lines
from arbitre.rules.confrontation.answers import PursuitAnswer
from arbitre.rules.confrontation.book import BLOCKING_TERRAIN, NUMBERS
from arbitre.rules.confrontation.contacts import base_of, doubtful_pairs, find_contacts
from arbitre.rules.confrontation.dice import pursuit_distance_cm
from arbitre.rules.confrontation.options import options_of
from arbitre.rules.errors import QuestionError
from arbitre.rules.geometry import area_answer
from arbitre.rules.model import Scene
from arbitre.rules.ruleset import figure_named
from arbitre.rules.terrain import terrain_cost_notes, terrain_costs, terrain_regions


def pursuit_answer(scene: Scene, a: str) -> PursuitAnswer:
    """Where A may pursue: half its MOU, rounded up, around the other figures and terrain."""
    options = options_of(scene)
    figure = figure_named(scene, a)
    mou = figure.attrs.get("mou_cm")
    if mou is None:
        raise QuestionError(f"figure {a!r}: attrs.mou_cm is needed for a pursuit")
    pursuit_cm = pursuit_distance_cm(float(mou))
    pursuit_mm = pursuit_cm * NUMBERS.cm_mm
    radius_mm = base_of(figure, options).radius_mm
    hulls = tuple(
        pathing.DiscHull(np.array([[f.x_mm, f.y_mm, base_of(f, options).radius_mm]]), f.id)
        for f in scene.figures
        if f.id != figure.id
    )
    costs = terrain_costs(options.terrain_cost)
    polygons, costly = terrain_regions(scene, BLOCKING_TERRAIN, costs)
    ground = pathing.Field(scene.table.width_mm, scene.table.depth_mm, hulls, polygons, costly)
    area = pathing.reachable_area(ground, figure.xy, radius_mm, pursuit_mm)
    found = area_answer(area)
    index = scene.figures.index(figure)
    engaged = tuple(scene.figures[k].id for k in find_contacts(scene).enemies[index])
    notes = terrain_cost_notes(options.terrain_cost)
    warnings: list[str] = list(notes)
    if engaged:
        warnings.append(
            Said(
                "still_touching",
                "{figure} still touches {others}: it may pursue out of the melee (no "
                "disengagement test) or stay and engage them",
                figure=a,
                others=", ".join(engaged),
            )
        )
    doubtful = doubtful_pairs(scene, {a})
    if doubtful:  # « déjà au contact » or « libre de tout adversaire »: two cases
        warnings.append(
            Said(
                "pursuit_contact_too_close",
                "too close to call whether {pairs} touch: measure by hand, it decides whether "
                "{figure} pursues still in contact with an enemy or free of any",
                pairs=", ".join(doubtful),
                figure=a,
            )
        )
    return PursuitAnswer(
        question="pursuit",
        message=f"{a} may pursue {pursuit_cm} cm (half of MOU {mou:g}, rounded up): "
        f"{area_text(found.area_mm2)} within reach" + warning_lines(warnings),
        mover=a,
        area_mm2=found.area_mm2,
        polygons_mm=found.polygons_mm,
        holes_mm=found.holes_mm,
        allowance_mm=pursuit_mm,
        allowance_units=float(pursuit_cm),
        unit="cm",
        mou_cm=float(mou),
        pursuit_cm=pursuit_cm,
        pursuit_mm=pursuit_mm,
        engaged=engaged,
        warnings=tuple(warnings),
    )
