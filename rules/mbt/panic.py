"""Elephant panic: where a panicking elephant goes, the bases it tramples, the elephants it
sets off in turn ("Cas des éléphants")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import shapely

from arbitre.rules.answers import Margin, with_certainty
from arbitre.rules.errors import QuestionError
from arbitre.rules.mbt.answers import PanicAnswer
from arbitre.rules.mbt.book import NUMBERS, TOUCH_MM2
from arbitre.rules.mbt.moves import move_allowance
from arbitre.rules.mbt.options import MbtOptions, options_of, unit_of
from arbitre.rules.mbt.plates import (
    Plate,
    penetration_mm,
    plate_named,
    plates_of,
    terrain_barred_to,
)
from arbitre.rules.model import Scene, sigma_between
from arbitre.rules.options import Dice, Die

Direction = Literal["ahead", "left", "right", "back"]
"""The ``direction`` option of ``panic``: the first elephant's way, instead of its die."""
BISECTIONS = 40  # halvings of the way when finding where an elephant stops (way / 2^40)
KEPT_MARGINS = 3


def panic_direction(plate: Plate, direction: str) -> np.ndarray:
    """The unit vector (2,) of a panic: ahead along the facing, left, right or back.

    >>> from arbitre.rules.model import Base, BaseShape, Figure
    >>> e = Plate.of(Figure("e", "x", 0, 0, facing_deg=90, base=Base(BaseShape.RECT, 40, 40)))
    >>> [panic_direction(e, d).round(6).tolist() for d in ("ahead", "left")]
    [[0.0, 1.0], [-1.0, 0.0]]
    """
    return {
        "ahead": plate.u,
        "left": plate.n,
        "right": -plate.n,
        "back": -plate.u,
    }[direction]


def _is_elephant(plate: Plate) -> bool:
    return bool(plate.figure.attrs.get("elephant", False))


@dataclass(frozen=True, slots=True)
class _Run:
    """One elephant's panic move, worked out on the table as it stands then."""

    to: Plate
    moved_mm: float
    stopped_by: tuple[str, ...]
    trampled: tuple[str, ...]
    elephants: tuple[str, ...]
    margins: tuple[Margin, ...]


def _run(
    scene: Scene,
    elephant: Plate,
    vector: np.ndarray,
    standing: Sequence[Plate],
    options: MbtOptions,
) -> _Run:
    """Slide ``elephant`` along ``vector`` (2,) mm among the bases ``standing``.

    It stops at the table edge, at ground it may not enter and against another elephant
    (which it meets, and which panics); every other base its swept rectangle enters by
    more than the contact tolerance is trampled.
    """
    blocking = terrain_barred_to(scene, elephant.figure, options)
    others = [p for p in standing if p.figure.id != elephant.figure.id]
    elephants = [p for p in others if _is_elephant(p)]
    tolerance = options.contact_tolerance_mm

    def swept(t: float) -> shapely.Geometry:
        return shapely.convex_hull(shapely.union(elephant.polygon(), elephant.polygon(t * vector)))

    def stopper(t: float) -> list[str]:
        hull = swept(t)
        moved = elephant.polygon(t * vector)
        minx, miny, maxx, maxy = moved.bounds
        found = []
        if minx < 0 or miny < 0 or maxx > scene.table.width_mm or maxy > scene.table.depth_mm:
            found.append("table edge")
        found += [i for i, g in blocking if hull.intersection(g).area > TOUCH_MM2]
        found += [p.figure.id for p in elephants if penetration_mm(hull, p.polygon()) > tolerance]
        return found

    low, high = 0.0, 1.0
    stopped_by: list[str] = []
    if stopper(1.0):
        for _ in range(BISECTIONS):
            middle = (low + high) / 2
            if stopper(middle):
                high = middle
            else:
                low = middle
        stopped_by = stopper(high)
    else:
        low = 1.0
    hull = swept(low)
    trampled: list[tuple[float, str]] = []
    met: list[tuple[float, str]] = []
    margins: list[Margin] = []
    for other in others:
        shape = other.polygon()
        depth = penetration_mm(hull, shape)
        reach = depth if depth > 0 else -float(shapely.distance(hull, shape))
        if reach < -tolerance - float(np.hypot(*vector)):
            continue
        order = float((other.centre - elephant.centre) @ vector)
        sigma = sigma_between(elephant.figure, other.figure, along=(0.0, 0.0))  # sideways too
        if _is_elephant(other):
            if other.figure.id in stopped_by:
                met.append((order, other.figure.id))
            continue
        margins.append(Margin(f"trample {other.figure.id}", abs(reach - tolerance), sigma))
        if reach > tolerance:
            trampled.append((order, other.figure.id))
    margins.sort(key=lambda m: m.margin_mm)
    return _Run(
        Plate(
            elephant.figure,
            elephant.centre + low * vector,
            elephant.u,
            elephant.n,
            elephant.width_mm,
            elephant.depth_mm,
        ),
        low * float(np.hypot(*vector)),
        tuple(stopped_by),
        tuple(i for _, i in sorted(trampled)),
        tuple(i for _, i in sorted(met)),
        tuple(margins[:KEPT_MARGINS]),
    )


def panic_answer(
    scene: Scene,
    a: str,
    die: Die | None = None,
    dice: Dice | None = None,
    direction: Direction | None = None,
) -> PanicAnswer:
    """Where the panicking elephant A goes, what it tramples, and the chain of elephants.

    "Un éléphant qui doit reculer panique. On lance un dé afin de définir où il va [...]
    Si l'éléphant rencontre un autre éléphant, ce dernier panique et suit le même
    processus. Si l'éléphant rencontre une ou plusieurs plaquettes, amies ou ennemies, il
    les piétine et les détruit." ``die`` is A's panic die, ``dice`` those of the
    elephants it sets off, in turn; ``direction`` names A's way instead of a die.
    """
    options = options_of(scene)
    unit = unit_of(scene)
    first = plate_named(scene, a)
    if not _is_elephant(first):
        raise QuestionError(f"base {a!r} is not an elephant (attrs.elephant)")
    if direction is not None and die is not None:
        raise QuestionError("give the first elephant's die or its direction, not both")
    rolled = ([] if die is None else [die]) + list(dice or ())
    standing = {p.figure.id: p for p in plates_of(scene)}
    queue = [a]
    runs: list[dict[str, Any]] = []
    destroyed: list[str] = []
    waiting: list[str] = []
    margins: list[Margin] = []
    while queue:
        ident = queue.pop(0)
        elephant = standing[ident]
        if ident == a and direction is not None:
            way, face = str(direction), None
        elif rolled:
            face = rolled.pop(0)
            way = NUMBERS.panic[face]
        else:
            waiting.append(ident)
            continue
        length_mm = (
            elephant.depth_mm
            if options.panic_distance == "depth"
            else unit.to_mm(move_allowance(elephant.figure))
        )
        run = _run(
            scene,
            elephant,
            panic_direction(elephant, way) * length_mm,
            list(standing.values()),
            options,
        )
        standing[ident] = run.to
        for gone in run.trampled:
            standing.pop(gone)
            destroyed.append(gone)
        margins.extend(run.margins)
        done = {r["elephant"] for r in runs} | {ident} | set(queue) | set(waiting)
        fresh = [e for e in run.elephants if e not in done]
        queue.extend(fresh)
        runs.append(
            {
                "elephant": ident,
                "die": face,
                "direction": way,
                "from_mm": [float(v) for v in elephant.centre],
                "to_mm": [float(v) for v in run.to.centre],
                "moved_mm": run.moved_mm,
                "moved_units": unit.from_mm(run.moved_mm),
                "length_mm": length_mm,
                "stopped_by": list(run.stopped_by),
                "trampled": list(run.trampled),
                "sets_off": fresh,
            }
        )
    chain = tuple(r["elephant"] for r in runs)
    text = "; ".join(_run_text(r, unit.from_mm) for r in runs) or f"{a}: roll 1D6 for its panic"
    if waiting and runs:
        text += f"; roll 1D6 for {', '.join(waiting)} (it panics in turn)"
    if not runs:
        text = (
            f"{a} panics: roll 1D6 (1 ahead, 2 left, 3 right, 4-6 back); it tramples every "
            "base it meets, and an elephant it meets panics in turn"
        )
    kept = tuple(sorted(margins, key=lambda m: m.margin_mm)[:KEPT_MARGINS])
    return PanicAnswer(
        question="panic",
        message=with_certainty(text, *kept),
        margins=kept,
        elephant=a,
        runs=tuple(runs),
        chain=chain,
        destroyed=tuple(destroyed),
        waiting=tuple(waiting),
        unit=unit.name,
    )


def _run_text(run: dict[str, Any], units: Any) -> str:
    die = f" (die {run['die']})" if run["die"] is not None else ""
    moved = units(run["moved_mm"])
    text = f"{run['elephant']} goes {run['direction']}{die} {moved:.2f} graduations"
    if run["trampled"]:
        text += f", trampling {', '.join(run['trampled'])}"
    if run["sets_off"]:
        text += f", meeting {', '.join(run['sets_off'])}"
    if run["stopped_by"]:
        text += f", stopped by {', '.join(run['stopped_by'])}"
    return text
