"""The moves of failed command tests: the 1d3 pas of "Subir un tir" and "Subir une charge",
the walk away of "Envie de charger" (where the figure goes, and whether the way lets it go
the whole distance), and the table edge a figure routed at the end of the turn heads for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from arbitre.rules import pathing
from arbitre.rules.answers import Margin, Reason, Unit, in_units, warning_lines, with_certainty
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Figure, Scene
from arbitre.rules.musg.answers import BalkAnswer, FleeAnswer, ReactionAnswer
from arbitre.rules.musg.bases import (
    base_radius_mm,
    footprint_at,
    footprint_of,
    move_pas_of,
    overlaps_beyond_contact,
)
from arbitre.rules.musg.book import (
    BLOCKING_TERRAIN,
    COSTLY_TERRAIN,
    COVER_TERRAIN,
    NUMBERS,
    TOUCH_MM,
)
from arbitre.rules.musg.dice import as_whole_number
from arbitre.rules.musg.morale import urge_to_charge_notes
from arbitre.rules.musg.moves import cut_path
from arbitre.rules.musg.options import MusgOptions, options_of, unit_of
from arbitre.rules.options import D3
from arbitre.rules.ruleset import figure_named
from arbitre.rules.terrain import straight_cost_mm, terrain_regions

BISECTIONS = 40  # halvings of the way when finding where a slide stops (way / 2^40)
LOOK_BEYOND_PAS = 1.0  # how far past the die's distance a free way is checked (margin)


@dataclass(frozen=True, slots=True)
class Slide:
    """A straight slide of a figure's base: how far it goes freely and what stops it."""

    free_mm: float
    blocked_by: tuple[str, ...]


def slide(
    scene: Scene, mover: Figure, direction: np.ndarray, length_mm: float, options: MusgOptions
) -> Slide:
    """How far ``mover``'s base slides along the unit vector ``direction`` (2,), up to
    ``length_mm``: other bases (beyond the contact tolerance), impassable ground,
    buildings and the table edge stop it."""
    start = mover.xy

    def sweep(t: float) -> shapely.Geometry:
        end = start + t * length_mm * direction
        return shapely.convex_hull(
            shapely.union(footprint_at(mover, start, options), footprint_at(mover, end, options))
        )

    # Only what the whole slide's sweep meets can stop a part of it (the part's sweep
    # lies inside the whole one's): the rest of the table is never looked at again.
    whole = sweep(1.0)
    shapely.prepare(whole)
    others = [
        (f.id, base)
        for f in scene.figures
        if f.id != mover.id
        for base in (footprint_of(f, options),)
        if whole.intersects(base)
    ]
    walls = [
        (t.id, t.geometry)
        for t in scene.terrain_of(BLOCKING_TERRAIN)
        if isinstance(t.geometry, shapely.Polygon) and whole.intersects(t.geometry)
    ]

    def stoppers(t: float) -> list[str]:
        end = start + t * length_mm * direction
        swept = sweep(t)
        found = []
        minx, miny, maxx, maxy = footprint_at(mover, end, options).bounds
        if minx < 0 or miny < 0 or maxx > scene.table.width_mm or maxy > scene.table.depth_mm:
            found.append("table edge")
        found += [i for i, g in walls if swept.intersection(g).area > TOUCH_MM]
        found += [i for i, g in others if overlaps_beyond_contact(swept, g, options)]
        return found

    if not stoppers(1.0):
        return Slide(length_mm, ())
    low, high = 0.0, 1.0
    for _ in range(BISECTIONS):
        middle = (low + high) / 2
        if stoppers(middle):
            high = middle
        else:
            low = middle
    return Slide(low * length_mm, tuple(stoppers(high)))


def _pair(scene: Scene, a: str, b: str) -> tuple[MusgOptions, Unit, Figure, Figure]:
    """The scene's options and unit, and the two figures a reaction is about (not one)."""
    first, second = figure_named(scene, a), figure_named(scene, b)
    if first.id == second.id:
        raise QuestionError(f"{a!r} and {b!r} are the same figure")
    return options_of(scene), unit_of(scene), first, second


def _d3(value: Any) -> int:
    number = as_whole_number(value, "die")
    if not 1 <= number <= 3:
        raise QuestionError(f"die: a 1d3 shows 1 to 3, got {value!r}")
    return number


def _away(figure: Figure, source: Figure) -> np.ndarray:
    """The unit vector (2,) from ``source``'s centre through ``figure``'s: "en arrière"."""
    offset = figure.xy - source.xy
    length = float(np.hypot(*offset))
    if length == 0.0:
        raise QuestionError(f"{figure.id!r} and {source.id!r} stand on the same point")
    return np.asarray(offset / length, dtype=np.float64)


def _faces(die: Any) -> list[int]:
    return [1, 2, 3] if die is None else [_d3(die)]


def under_fire_answer(scene: Scene, a: str, b: str, die: D3 | None = None) -> ReactionAnswer:
    """Where A, shot at by B, goes when it fails "Subir un tir": 1d3 pas to the nearest
    cover, or back (away from B) when no cover is within the die's distance.

    "le personnage visé doit se déplacer soit de 1d3 pas vers le couvert le plus proche
    soit en arrière s'il n'y a pas de couvert à la distance indiquée par le dé."
    """
    options, unit, figure, shooter = _pair(scene, a, b)
    base = footprint_of(figure, options)
    covers = sorted(
        (float(shapely.distance(base, t.geometry)), t.id, t.geometry)
        for t in scene.terrain_of(COVER_TERRAIN)
        if not t.geometry.intersects(base)
    )
    back = _away(figure, shooter)
    moves: list[dict[str, Any]] = []
    margins: list[Margin] = []
    for face in _faces(die):
        reach_mm = unit.to_mm(face)
        if covers:
            margins.append(
                Margin(f"cover within {face} paces", abs(reach_mm - covers[0][0]), figure.sigma_mm)
            )
        if covers and covers[0][0] <= reach_mm:
            gap, ident, geometry = covers[0]
            target = np.asarray(
                shapely.get_coordinates(shapely.shortest_line(base, geometry))[1],
                dtype=np.float64,
            )
            nearest = np.asarray(
                shapely.get_coordinates(shapely.shortest_line(base, geometry))[0],
                dtype=np.float64,
            )
            step = target - nearest
            length = float(np.hypot(*step))
            way = step / length if length > 0 else back
            moved = slide(scene, figure, way, length, options)
            moves.append(_move(face, unit, figure, way, moved, length, "cover", ident))
        else:
            moved = slide(scene, figure, back, reach_mm, options)
            moves.append(_move(face, unit, figure, back, moved, reach_mm, "back", None))
            margins.append(_way_margin(scene, figure, back, reach_mm, moved, options, unit))
    text = f"{a} fails its test under {b}'s fire: " + "; ".join(_move_text(m) for m in moves)
    return _reaction("under_fire", text, margins, a, b, die, moves, unit)


def under_charge_answer(scene: Scene, a: str, b: str, die: D3 | None = None) -> ReactionAnswer:
    """Where A, charged by B, goes when it fails "Subir une charge" and rolls 5 or 6: 1d3
    pas back from the charge; if it cannot go the whole distance it loses 1 resistance
    should B reach contact.

    "il lance 1d6 et sur 5 ou 6 il peut effectuer un déplacement de 1d3 pas en arrière de
    la charge. S'il ne peut pas reculer du score indiqué par le dé, il perd 1 à sa
    résistance si le personnage qui le charge arrive au contact."
    """
    options, unit, figure, charger = _pair(scene, a, b)
    back = _away(figure, charger)
    moves: list[dict[str, Any]] = []
    margins: list[Margin] = []
    for face in _faces(die):
        reach_mm = unit.to_mm(face)
        moved = slide(scene, figure, back, reach_mm, options)
        entry = _move(face, unit, figure, back, moved, reach_mm, "back", None)
        entry["resistance_penalty"] = 0 if entry["full"] else NUMBERS.charge_recoil_penalty
        moves.append(entry)
        margins.append(_way_margin(scene, figure, back, reach_mm, moved, options, unit))
    text = f"{a}, charged by {b}, steps back: " + "; ".join(_move_text(m) for m in moves)
    return _reaction("under_charge", text, margins, a, b, die, moves, unit)


def urge_to_charge_answer(scene: Scene, a: str, b: str) -> BalkAnswer:
    """Where A goes when it fails "Envie de charger" wanting to charge B: a walk of its
    whole move straight away from B, for the charge's PA.

    "S'il rate, il n'a pas le cran pour charger et doit transformer sa charge en un
    déplacement à l'opposé du personnage qu'il désirait charger. Par contre, il perd les
    PA d'une charge, et il ne peut pas courir." A move that may not be a run is a walk
    ("Marcher, 1 PA. Les personnages se déplace de la totalité de sont mouvement"):
    difficult ground and woods cost two pas a pace ("Un pas de déplacement en terrain
    difficile « brûle » deux pas de Mvt"); bases, impassable ground, buildings and the
    table edge stop it short.
    """
    options, unit, figure, target = _pair(scene, a, b)
    if not scene.are_enemies(figure.side, target.side):  # a charge is on enemies
        return BalkAnswer(
            question="urge_to_charge",
            message=f"{a} does not balk at charging {b}: {b} is not an enemy",
            figure=a,
            target=b,
            reasons=(Reason.TARGET_NOT_ENEMY,),
            destination_mm=(figure.x_mm, figure.y_mm),
            unit=unit.name,
        )
    warnings = urge_to_charge_notes(figure, target)
    away = _away(figure, target)
    allowance_units = move_pas_of(figure) * NUMBERS.move_factor["walk"]
    allowance_mm = unit.to_mm(allowance_units)
    radius_mm = base_radius_mm(figure, options)
    _, costly = terrain_regions(scene, BLOCKING_TERRAIN, COSTLY_TERRAIN)
    ground = pathing.Field(scene.table.width_mm, scene.table.depth_mm, costly=costly)
    far = np.array([figure.xy, figure.xy + allowance_mm * away])
    wanted_mm = float(np.hypot(*(cut_path(ground, far, allowance_mm, radius_mm)[-1] - far[0])))
    moved = slide(scene, figure, away, wanted_mm, options)
    end = figure.xy + moved.free_mm * away
    cost_mm = straight_cost_mm(ground, figure.xy, end, radius_mm)
    margin = _way_margin(scene, figure, away, wanted_mm, moved, options, unit)
    points = NUMBERS.action_points["charge"]
    text = (
        f"{a}, failing to charge {b}, walks {in_units(unit.from_mm(moved.free_mm), 'pas')}"
        f" straight away from {b} to ({end[0]:.0f}, {end[1]:.0f}) for {points} PA"
        " (the charge's), and may not run"
    )
    if moved.blocked_by:
        text += f"; stopped by {', '.join(moved.blocked_by)}"
    return BalkAnswer(
        question="urge_to_charge",
        message=with_certainty(text, margin) + warning_lines(warnings),
        margins=(margin,),
        figure=a,
        target=b,
        action_points=points,
        allowance_mm=allowance_mm,
        allowance_units=allowance_units,
        destination_mm=(float(end[0]), float(end[1])),
        moved_mm=moved.free_mm,
        moved_units=unit.from_mm(moved.free_mm),
        cost_mm=cost_mm,
        cost_units=unit.from_mm(cost_mm),
        full=not moved.blocked_by,
        blocked_by=moved.blocked_by,
        unit=unit.name,
        warnings=tuple(warnings),
    )


def flee_answer(scene: Scene, a: str) -> FleeAnswer:
    """The table edge A heads for when it fails its end-of-turn test: "Chaque personnage
    ayant raté ce test devront se diriger vers le bord de table le plus proche et ne
    pourront pas charger ou tirer sur un ennemi. S'ils ne sont pas sortis de la surface de
    jeu à la fin du tour suivant, ils peuvent retenter un test de commandement." (Fin du
    tour). The nearest edge is the one A's base stands closest to; the margin, how much
    nearer it is than the next one."""
    options = options_of(scene)
    unit = unit_of(scene)
    figure = figure_named(scene, a)
    low_x, low_y, high_x, high_y = footprint_of(figure, options).bounds
    gaps = {
        "x0": low_x,
        "x_max": scene.table.width_mm - high_x,
        "y0": low_y,
        "y_max": scene.table.depth_mm - high_y,
    }
    depth = {"x0": high_x - low_x, "x_max": high_x - low_x, "y0": high_y - low_y}
    depth["y_max"] = depth["y0"]
    nearest, second = sorted(gaps, key=lambda edge: (gaps[edge], edge))[:2]
    off_mm = gaps[nearest] + depth[nearest]
    margin = Margin("nearest edge", gaps[second] - gaps[nearest], figure.sigma_mm)
    text = (
        f"{a} heads for the nearest table edge, {nearest}: its base stands "
        f"{in_units(unit.from_mm(gaps[nearest]), 'pas')} from it, "
        f"{in_units(unit.from_mm(off_mm), 'pas')} to be off the table; it may neither "
        "charge nor shoot at an enemy"
    )
    return FleeAnswer(
        question="flee",
        message=with_certainty(text, margin),
        margins=(margin,),
        figure=a,
        edge=nearest,
        gap_mm=gaps[nearest],
        gap_units=unit.from_mm(gaps[nearest]),
        off_mm=off_mm,
        off_units=unit.from_mm(off_mm),
        gaps_mm=gaps,
        unit=unit.name,
    )


def _reaction(
    question: str,
    text: str,
    margins: list[Margin],
    a: str,
    b: str,
    die: Any,
    moves: list[dict[str, Any]],
    unit: Unit,
) -> ReactionAnswer:
    """The answer of a reaction move, with its three narrowest margins."""
    kept = tuple(sorted(margins, key=lambda m: m.margin_mm)[:3])
    return ReactionAnswer(
        question=question,
        message=with_certainty(text, *kept),
        margins=kept,
        figure=a,
        source=b,
        die=None if die is None else moves[0]["die"],
        moves=tuple(moves),
        unit=unit.name,
    )


def _way_margin(
    scene: Scene,
    figure: Figure,
    way: np.ndarray,
    reach_mm: float,
    moved: Slide,
    options: MusgOptions,
    unit: Unit,
) -> Margin:
    """How far the slide's stop lies from the die's distance: short of it when blocked,
    beyond it (looked at up to ``LOOK_BEYOND_PAS`` further) when free."""
    if moved.blocked_by:
        return Margin("way back", reach_mm - moved.free_mm, figure.sigma_mm)
    further = slide(scene, figure, way, reach_mm + unit.to_mm(LOOK_BEYOND_PAS), options)
    return Margin("way back", further.free_mm - reach_mm, figure.sigma_mm)


def _move(
    face: int,
    unit: Unit,
    figure: Figure,
    way: np.ndarray,
    moved: Slide,
    wanted_mm: float,
    kind: str,
    cover: str | None,
) -> dict[str, Any]:
    end = figure.xy + moved.free_mm * way
    full = not moved.blocked_by or moved.free_mm >= wanted_mm
    return {
        "die": face,
        "kind": kind,
        "cover": cover,
        "destination_mm": [float(end[0]), float(end[1])],
        "moved_mm": moved.free_mm,
        "moved_units": unit.from_mm(moved.free_mm),
        "full": bool(full),
        "blocked_by": list(moved.blocked_by),
    }


def _move_text(move: dict[str, Any]) -> str:
    where = f"to cover ({move['cover']})" if move["kind"] == "cover" else "back"
    x, y = move["destination_mm"]
    moved = in_units(move["moved_units"], "pas")
    text = f"die {move['die']}: {where} {moved} to ({x:.0f}, {y:.0f})"
    if move["blocked_by"]:
        text += f", stopped by {', '.join(move['blocked_by'])}"
    if move.get("resistance_penalty"):
        text += f", -{move['resistance_penalty']} resistance if the charger reaches contact"
    return text
