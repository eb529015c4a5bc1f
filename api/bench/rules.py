"""``arbitre bench rules``: question times on a generated table.

Each question's median time is reported in milliseconds, against its target,
and as a ratio to a baseline timed in the same run (all pairwise centre
distances of the table's figures with scipy), so runs on a busy machine can
be compared.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import shapely
from scipy.spatial.distance import pdist

from arbitre.calibration.progress import Progress, Steps
from arbitre.rules.choc_base_6 import find_groups
from arbitre.rules.model import Figure, Scene
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene

TARGETS_MS = {"fire": 2.0, "move": 20.0, "reach": 50.0, "groups": 20.0}


def generated_scene(figures: int = 200, terrain: int = 50, seed: int = 1) -> Scene:
    """A CB6 table of 1200 x 900 mm with groups of 1-6 figures and random terrain.

    Terrain polygons are convex, 40-140 mm across: a third impassable, the rest
    difficult ground or woods, which the table plays at double cost (the house rule
    ``terrain_cost: double``: the book gives terrain no cost, but a path search through
    costly ground is the hardest a table asks). Figures never stand on impassable ground.
    """
    rng = np.random.default_rng(seed)
    width, depth = 1200.0, 900.0
    features: list[dict[str, Any]] = []
    blocked: list[shapely.Geometry] = []
    kinds = ("impassable", "difficult", "wood")
    for index in range(terrain):
        centre = rng.uniform([60, 60], [width - 60, depth - 60])
        angles = np.sort(rng.uniform(0, 2 * np.pi, 7))
        radii = rng.uniform(20, 70, 7)
        points = centre + np.column_stack([np.cos(angles), np.sin(angles)]) * radii[:, None]
        polygon = shapely.convex_hull(shapely.MultiPoint(points))
        kind = kinds[index % 3]
        if kind == "impassable":
            blocked.append(polygon)
        coords = [[round(x, 2), round(y, 2)] for x, y in polygon.exterior.coords[:-1]]
        features.append({"id": f"t{index}", "kind": kind, "polygon_mm": coords})
    blocking = shapely.union_all(blocked).buffer(15) if blocked else shapely.Polygon()

    placed: list[dict[str, Any]] = []
    taken = np.empty((0, 2))
    group_number = 0
    for _attempt in range(200 * figures):
        if len(placed) >= figures:
            break
        size = min(int(rng.integers(1, 7)), figures - len(placed))
        side = ("blue", "red")[group_number % 2]
        origin = rng.uniform([40, 40], [width - 40, depth - 40])
        crew = [origin + [30.0 * (k % 3), 30.0 * (k // 3)] for k in range(size)]
        spots = np.array(crew)
        if (
            np.any(spots < 15)
            or np.any(spots > [width - 15, depth - 15])
            or shapely.intersects(blocking, shapely.points(spots)).any()
            or (len(taken) and np.min(np.hypot(*(taken[:, None] - spots[None]).T)) < 60)
        ):
            continue
        name = f"g{group_number}"
        for k, (x, y) in enumerate(crew):
            placed.append(
                {
                    "id": f"{name}f{k}",
                    "side": side,
                    "group": name,
                    "reference": k == 0,
                    "x_mm": round(float(x), 2),
                    "y_mm": round(float(y), 2),
                    "type": "TD" if k % 2 == 0 else "CR",
                }
            )
        taken = np.vstack([taken, spots])
        group_number += 1
    else:
        raise ValueError(f"cannot place {figures} figures on a {width:g} x {depth:g} mm table")
    data = {
        "ruleset": "choc-base-6",
        "options": {"unit_mm": 100, "terrain_cost": "double"},
        "table": {"width_mm": width, "depth_mm": depth},
        "figures": placed,
        "terrain": features,
    }
    return parse_scene(data, source="<bench>")


def _median_ms(run: Callable[[int], object], repeat: int, steps: Steps | None = None) -> float:
    """Median time of ``run(0)`` ... ``run(repeat - 1)``; each run is a step."""
    times = []
    for index in range(repeat):
        start = time.perf_counter()
        run(index)
        times.append((time.perf_counter() - start) * 1e3)
        if steps is not None:
            steps.advance()
    return statistics.median(times)


RULESET_QUESTIONS = (
    ("smooth-and-rifled", "fire"),
    ("musg", "fire"),
    ("mbt", "fire"),
    ("confrontation", "melees"),
)


def run_rules_bench(
    figures: int,
    terrain: int,
    repeat: int,
    seed: int,
    *,
    progress: Progress | None = None,
    cli_repeat: int = 5,
    growth_repeat: int = 3,
) -> dict[str, Any]:
    """Time fire, move, reach and groups on a generated table, how question times grow
    with the table (`arbitre.api.bench.growth`, ``growth_repeat`` runs per size) and the
    command line's cold start (``cli_repeat`` runs per rule system); 0 leaves either out.

    ``progress`` is told ``(done, total)`` after each question timed.
    """
    steps = Steps((len(TARGETS_MS) + len(RULESET_QUESTIONS)) * repeat, progress)
    scene = generated_scene(figures, terrain, seed)
    groups = find_groups(scene).groups
    rng = np.random.default_rng(seed + 1)
    pairs = [tuple(rng.choice(len(groups), 2, replace=False)) for _ in range(repeat)]
    xy = np.array([f.xy for f in scene.figures])

    def fire(i: int) -> object:
        a, b = pairs[i]
        return ask(scene, "fire", [groups[a].name, groups[b].name])

    blocked = shapely.union_all([t.geometry for t in scene.terrain if t.kind == "impassable"])
    goals = [
        _free_goal(scene, xy, blocked, groups[pairs[i][0]].reference.xy, rng) for i in range(repeat)
    ]

    def move(i: int) -> object:
        # Destinations where a figure may stand, so every move searches a path.
        goal = goals[i]
        return ask(scene, "move", [groups[pairs[i][0]].name, f"{goal[0]:.1f}", f"{goal[1]:.1f}"])

    def reach(i: int) -> object:
        return ask(scene, "reach", [groups[pairs[i][0]].name])

    def regroup(i: int) -> object:
        # A fresh scene each time: groups are cached per scene object.
        fresh = dataclasses.replace(scene, figures=tuple(_copy(f) for f in scene.figures))
        return ask(fresh, "groups", [])

    baseline_ms = _median_ms(lambda i: pdist(xy), max(repeat, 30))
    rows = []
    for name, run in (("fire", fire), ("move", move), ("reach", reach), ("groups", regroup)):
        median = _median_ms(run, repeat, steps)
        rows.append(
            {
                "question": name,
                "median_ms": median,
                "target_ms": TARGETS_MS[name],
                "ratio": median / baseline_ms,
            }
        )
    from arbitre.api.bench.cli_start import cli_start_report
    from arbitre.api.bench.growth import growth_report

    return {
        **({"cli": cli_start_report(cli_repeat)} if cli_repeat > 0 else {}),
        **({"growth": growth_report(repeat=growth_repeat)} if growth_repeat > 0 else {}),
        "rulesets": run_rulesets_bench(60, repeat, seed, steps),
        "figures": len(scene.figures),
        "terrain": len(scene.terrain),
        "groups": len(groups),
        "baseline": "scipy pdist of all figure centres",
        "baseline_ms": baseline_ms,
        "questions": rows,
    }


def _free_goal(
    scene: Scene,
    xy: np.ndarray,
    blocked: shapely.Geometry,
    start: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """A point about 180 mm from ``start`` clear of every figure and impassable ground."""
    for _ in range(1000):
        angle = rng.uniform(0, 2 * np.pi)
        goal = start + rng.uniform(120.0, 220.0) * np.array([np.cos(angle), np.sin(angle)])
        inside = np.all(goal >= 20) and np.all(
            goal <= [scene.table.width_mm - 20, scene.table.depth_mm - 20]
        )
        if (
            inside
            and np.min(np.hypot(*(xy - goal).T)) > 40
            and shapely.distance(blocked, shapely.Point(goal)) > 15
        ):
            return goal
    raise ValueError("no free destination found on the generated table")


def _copy(figure: Figure) -> Figure:
    return dataclasses.replace(figure)


def report_lines(report: dict[str, Any]) -> list[str]:
    """The report as text, one line per question."""
    lines = [
        f"table: {report['figures']} figures, {report['terrain']} terrain polygons, "
        f"{report['groups']} groups; baseline {report['baseline_ms']:.3f} ms "
        f"({report['baseline']})"
    ]
    for row in report["questions"]:
        verdict = "ok" if row["median_ms"] <= row["target_ms"] else "SLOW"
        lines.append(
            f"{row['question']:>8}: median {row['median_ms']:8.3f} ms  "
            f"(x{row['ratio']:.1f} baseline; target {row['target_ms']:g} ms) {verdict}"
        )
    for row in report.get("rulesets", []):
        verdict = "ok" if row["median_ms"] <= row["target_ms"] else "SLOW"
        lines.append(
            f"{row['ruleset']:>17} {row['question']} ({row['figures']} figures): median "
            f"{row['median_ms']:8.3f} ms  (target {row['target_ms']:g} ms) {verdict}"
        )
    if "growth" in report:
        from arbitre.api.bench.growth import growth_lines

        lines += growth_lines(report["growth"])
    if "cli" in report:
        from arbitre.api.bench.cli_start import cli_start_lines

        lines += cli_start_lines(report["cli"])
    return lines


RULESET_TARGETS_MS = {"fire": 2.0, "melees": 50.0}


def ruleset_scene(ruleset: str, figures: int = 60, seed: int = 1) -> Scene:
    """A table (1200 x 900, larger for many figures) of ``figures`` figures for ``ruleset``,
    in clusters of 2-4.

    Clusters stand on a coarse grid (no two closer than 100 mm). For Confrontation
    the figures of a cluster alternate sides in base contact, so every cluster is a
    melee; for the others a cluster is one side's unit or group.
    """
    data = ruleset_scene_data(ruleset, figures, seed)
    return parse_scene(data, source=f"<bench {ruleset}>")


def ruleset_scene_data(
    ruleset: str, figures: int = 60, seed: int = 1, terrain: int = 0
) -> dict[str, Any]:
    """The scene of `ruleset_scene` as the data of a scene.yaml, with ``terrain`` convex
    polygons 30-70 mm across (impassable, difficult and woods in turn) in the lanes
    between the rows of clusters, where no figure stands."""
    rng = np.random.default_rng(seed)
    # Room for every cluster: at least 1200 x 900, wider and deeper for large tables.
    columns = max(9, math.ceil(math.sqrt(figures / 2 * 4 / 3)))
    rows = max(7, math.ceil(figures / 2 / columns))
    width, depth = 230 + 110 * columns, 230 + 110 * rows
    spots = [(x, y) for x in range(120, width - 100, 110) for y in range(120, depth - 100, 110)]
    rng.shuffle(spots)
    placed: list[dict[str, Any]] = []
    cluster = 0
    while len(placed) < figures:
        cx, cy = spots[cluster]
        size = min(int(rng.integers(2, 5)), figures - len(placed))
        side = ("blue", "red")[cluster % 2]
        for k in range(size):
            figure: dict[str, Any] = {
                "id": f"c{cluster}f{k}",
                "side": side,
                "x_mm": cx + 25.0 * k,
                "y_mm": float(cy),
            }
            figure.update(_ruleset_fields(ruleset, cluster, k, side))
            placed.append(figure)
        cluster += 1
    table = {"width_mm": max(1200, width), "depth_mm": max(900, depth)}
    features = []
    for index in range(terrain):
        cx, cy = spots[int(rng.integers(len(spots)))]
        centre = np.array([cx + rng.uniform(0.0, 80.0), cy + 55.0])
        angles = np.sort(rng.uniform(0, 2 * np.pi, 7))
        points = (
            centre
            + np.column_stack([np.cos(angles), np.sin(angles)]) * rng.uniform(15, 35, 7)[:, None]
        )
        polygon = shapely.convex_hull(shapely.MultiPoint(points))
        coords = [[round(x, 2), round(y, 2)] for x, y in polygon.exterior.coords[:-1]]
        kind = ("impassable", "difficult", "wood")[index % 3]
        features.append({"id": f"t{index}", "kind": kind, "polygon_mm": coords})
    data: dict[str, Any] = {"ruleset": ruleset, "table": table, "figures": placed}
    if features:
        data["terrain"] = features
    return data


def question_arguments(question: str, data: dict[str, Any]) -> list[str]:
    """Arguments of ``question`` on a `ruleset_scene_data` table: none for ``melees``, the
    first cluster alone for ``reach``, else two clusters (Choc Base 6: the groups of the
    first two clusters; the others: the first and the last figure placed)."""
    ids = [f["id"] for f in data["figures"]]
    first, last = ("g0", "g1") if data["ruleset"] == "choc-base-6" else (ids[0], ids[-1])
    return [] if question == "melees" else [first] if question == "reach" else [first, last]


def _ruleset_fields(ruleset: str, cluster: int, k: int, side: str) -> dict[str, Any]:
    """What each rule system needs of a figure to shoot (or, Confrontation, to fight)."""
    facing = 90.0 if side == "blue" else 270.0
    if ruleset == "choc-base-6":
        return {"group": f"g{cluster}", "type": "TD", "reference": k == 0}
    if ruleset == "smooth-and-rifled":
        return {
            "unit": f"u{cluster}",
            "type": "infantry",
            "facing_deg": facing,
            "attrs": {"leader": k == 0, "weapon": {"medium_range_cm": 30, "reload": 2}},
        }
    if ruleset == "musg":
        return {
            "attrs": {
                "rank": "chief" if k == 0 else "henchman",
                "move_pas": 5,
                "weapon": {"kind": "bow", "range_pas": 24},
            }
        }
    if ruleset == "mbt":
        return {
            "type": "infantry",
            "facing_deg": facing,
            "base": {"shape": "rect", "width_mm": 20, "depth_mm": 10},
            "attrs": {"archer": True},
        }
    if ruleset == "confrontation":
        return {"side": ("blue", "red")[k % 2], "attrs": {"ini": 2, "mou_cm": 10}}
    raise ValueError(f"no bench table for {ruleset!r}")


def run_rulesets_bench(
    figures: int, repeat: int, seed: int, steps: Steps | None = None
) -> list[dict[str, Any]]:
    """``fire`` for every shooting ruleset, ``melees`` for Confrontation, on 60 figures."""
    rows = []
    for ruleset, question in RULESET_QUESTIONS:
        scene = ruleset_scene(ruleset, figures, seed)
        ids = [f.id for f in scene.figures]
        rng = np.random.default_rng(seed)
        pairs = [rng.choice(len(ids), 2, replace=False) for _ in range(repeat)]

        def run(
            i: int,
            scene: Scene = scene,
            question: str = question,
            ids: list[str] = ids,
            pairs: list[np.ndarray] = pairs,
        ) -> object:
            if question == "melees":
                fresh = dataclasses.replace(scene, figures=tuple(_copy(f) for f in scene.figures))
                return ask(fresh, "melees", [])
            a, b = pairs[i]
            return ask(scene, question, [ids[a], ids[b]])

        median = _median_ms(run, repeat, steps)
        rows.append(
            {
                "ruleset": ruleset,
                "question": question,
                "figures": len(ids),
                "median_ms": median,
                "target_ms": RULESET_TARGETS_MS[question],
            }
        )
    return rows
