"""Never confidently wrong: figures rendered a few millimetres from a rule's threshold.

Each case puts a figure at a known distance from where a rule changes its answer -- two
Choc Base 6 groups coming into contact, the 3 M range of a Choc Base 6 fire, the edge
between two Smooth & Rifled range bands, the end of a move's allowance -- renders what
the camera sees, runs the live chain (frames -> markers -> tracker -> scene -> question)
and compares the answer with the one the rules give on the true positions. An answer is
*right*, *too close to call* (some margin within twice its sigma), or *wrong*: certain
and not what the true positions give. The last must never happen.

Each question is asked twice of the same measured table: with the errors the figures
share (what the live table gives the rules) and with the figures taken as independent
(the scene without them: what the rules did before they knew what the figures share).
The markers lie on the table (on the figures' bases) or ride on their heads, whose
height is known to 2 mm.

Where the threshold lies is found on the true positions themselves (bisection on the
distance), so no rule's arithmetic is repeated here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from arbitre.api.live.demo import TABLE_MM, demo_camera, demo_setup
from arbitre.api.live.table import LiveTable, TableConfig
from arbitre.calibration.camera import CameraIntrinsics
from arbitre.calibration.table import Roster, Table, roster_from_mapping
from arbitre.rules.answers import Answer, Checked
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene
from arbitre.vision.simulate import (
    RenderOptions,
    SimMarker,
    SimScene,
    SimTable,
    anchors,
    figure,
    render,
)
from arbitre.vision.sources import FrameSource

MARKER_MM = 20.0
HEAD_MM = 30.0  # a marker riding on a figure's head
HEIGHTS_MM = (0.0, HEAD_MM)  # markers on the bases, on the heads
WEAPON = {"medium_range_cm": 30, "reload": 2}  # a Smooth & Rifled musket
FRAMES = 12  # frames the live table sees before the question


@dataclass(frozen=True, slots=True)
class Case:
    """A question whose answer flips at some distance of B (or of a point) from A."""

    name: str
    ruleset: str
    question: str
    args: tuple[str, ...]  # "{x}", "{y}" stand for the moving point's coordinates
    verdict: tuple[str, ...]  # the answer's fields that make its verdict
    figures: tuple[dict[str, Any], ...]  # roster entries; the first stands at A
    a_mm: tuple[float, float] = (250.0, 300.0)
    direction: tuple[float, float] = (1.0, 0.0)
    moving_marker: int | None = 11  # the marker placed at the distance (None: a point)
    options: dict[str, Any] = field(default_factory=dict)
    search_mm: tuple[float, float] = (10.0, 500.0)


def _figure(marker: int, name: str, side: str, **extra: Any) -> dict[str, Any]:
    return {
        "marker": marker,
        "name": name,
        "side": side,
        "group": name,
        "reference": True,
        **extra,
    }


CASES: tuple[Case, ...] = (
    Case(
        "Choc Base 6 contact",
        "choc-base-6",
        "contact",
        ("a", "b"),
        ("contact",),
        (_figure(10, "a", "blue", type="TD"), _figure(11, "b", "red", type="TD")),
        search_mm=(10.0, 200.0),
    ),
    Case(
        "Choc Base 6 fire at 3 M",
        "choc-base-6",
        "fire",
        ("a", "b"),
        ("allowed",),
        (_figure(10, "a", "blue", type="TD"), _figure(11, "b", "red", type="TD")),
        search_mm=(100.0, 500.0),
    ),
    Case(
        "Smooth & Rifled band edge",
        "smooth-and-rifled",
        "fire",
        ("a", "b"),
        ("band",),
        (
            _figure(10, "a", "blue", type="infantry", attrs={"weapon": WEAPON}),
            _figure(11, "b", "red", type="infantry"),
        ),
        search_mm=(200.0, 400.0),
    ),
    Case(
        "Choc Base 6 move allowance",
        "choc-base-6",
        "move",
        ("a", "{x}", "{y}"),
        ("legal",),
        (_figure(10, "a", "blue", type="TD"),),
        moving_marker=None,
        search_mm=(50.0, 500.0),
    ),
)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One rendered question: how far from its threshold, and how it was answered."""

    case: str
    offset_mm: float
    verdict: tuple[Any, ...]
    truth: tuple[Any, ...]
    certain: bool
    height_mm: float = HEAD_MM
    apart_verdict: tuple[Any, ...] = ()  # the figures taken as independent
    apart_certain: bool = False

    @property
    def kind(self) -> str:
        """``right``, ``too close`` or ``wrong`` (certain, and not the true answer)."""
        return _kind(self.certain, self.verdict, self.truth)

    @property
    def apart_kind(self) -> str:
        """`kind` of the answer with the figures taken as independent."""
        return _kind(self.apart_certain, self.apart_verdict, self.truth)


def _kind(certain: bool, verdict: tuple[Any, ...], truth: tuple[Any, ...]) -> str:
    if not certain:
        return "too close"
    return "right" if verdict == truth else "wrong"


def _verdict(answer: Answer, fields: Sequence[str]) -> tuple[Any, ...]:
    data = answer.to_json()
    return tuple(data.get(name) for name in fields)


def _certain(answer: Answer) -> bool:
    return all(m.certain for m in answer.margins) if isinstance(answer, Checked) else True


def _setup(case: Case, height_mm: float) -> tuple[CameraIntrinsics, Table, Roster]:
    """The demo table's camera and anchors, with the case's figures (their markers at
    ``height_mm``)."""
    demo = demo_setup()
    figures = [{**entry, "marker_height_mm": height_mm} for entry in case.figures]
    roster = roster_from_mapping({"figures": figures}, "certainty roster")
    return demo.camera, demo.table, roster


def _point(case: Case, distance_mm: float) -> tuple[float, float]:
    ux, uy = case.direction
    norm = math.hypot(ux, uy)
    return (
        case.a_mm[0] + distance_mm * ux / norm,
        case.a_mm[1] + distance_mm * uy / norm,
    )


def _true_scene(case: Case, distance_mm: float) -> dict[str, Any]:
    """The scene on the exact positions (sigma 0), as the live table would build it."""
    figures = []
    for entry in case.figures:
        if entry["marker"] == case.moving_marker:
            x, y = _point(case, distance_mm)
        else:
            x, y = case.a_mm
        item = {
            "id": entry["name"],
            "side": entry["side"],
            "group": entry["group"],
            "reference": True,
            "x_mm": x,
            "y_mm": y,
            "sigma_mm": 0.0,
        }
        item["facing_deg"] = _facing_deg(case, entry)
        for key in ("type", "attrs"):
            if key in entry:
                item[key] = entry[key]
        figures.append(item)
    return {
        "ruleset": case.ruleset,
        "options": dict(case.options),
        "table": {"width_mm": TABLE_MM[0], "depth_mm": TABLE_MM[1]},
        "figures": figures,
    }


def _facing_deg(case: Case, entry: dict[str, Any]) -> float:
    """The figure at A faces along the case's direction, the other one back at it."""
    ahead = math.degrees(math.atan2(case.direction[1], case.direction[0]))
    return (ahead if entry["marker"] != case.moving_marker else ahead + 180.0) % 360.0


def _args(case: Case, distance_mm: float) -> list[str]:
    x, y = _point(case, distance_mm)
    return [a.format(x=f"{x:.3f}", y=f"{y:.3f}") for a in case.args]


def true_answer(case: Case, distance_mm: float) -> Answer:
    """The rules' answer on the exact positions."""
    scene = parse_scene(_true_scene(case, distance_mm), source=case.name)
    return ask(scene, case.question, _args(case, distance_mm))


def threshold_mm(case: Case) -> float:
    """Where the verdict changes along the case's direction (to 0.001 mm)."""
    low, high = case.search_mm
    first = _verdict(true_answer(case, low), case.verdict)
    if _verdict(true_answer(case, high), case.verdict) == first:
        raise ValueError(f"{case.name}: the verdict does not change in {case.search_mm} mm")
    while high - low > 1e-3:
        middle = (low + high) / 2.0
        if _verdict(true_answer(case, middle), case.verdict) == first:
            low = middle
        else:
            high = middle
    return (low + high) / 2.0


class _Still(FrameSource):
    """One rendered picture with fresh sensor noise in every frame."""

    description = "rendered table"

    def __init__(self, picture: NDArray[np.uint8], seed: int) -> None:
        self.picture = picture
        self.rng = np.random.default_rng(seed)

    def read(self) -> NDArray[np.uint8] | None:
        noise = self.rng.normal(0.0, 2.0, self.picture.shape)
        return np.clip(self.picture + noise, 0, 255).astype(np.uint8)


def answer_live(
    case: Case, distance_mm: float, seed: int = 0, height_mm: float = HEAD_MM
) -> tuple[Answer, Answer]:
    """The answers of the live chain on a rendered table: the live table's own, and the
    same question on its scene with the figures taken as independent."""
    camera, table, roster = _setup(case, height_mm)
    sim_table = SimTable(*TABLE_MM)
    markers = []
    for entry in case.figures:
        x, y = _point(case, distance_mm) if entry["marker"] == case.moving_marker else case.a_mm
        # printed upright a marker's top points to +y (90 degrees): turn it to the facing
        turn = _facing_deg(case, entry) - 90.0
        markers.append(SimMarker(entry["marker"], x, y, height_mm, MARKER_MM, turn))
    bodies = tuple(b for m in markers for b in figure(m))
    scene = SimScene(sim_table, anchors(sim_table) + tuple(markers), bodies)
    picture = render(demo_camera(), scene, RenderOptions(supersample=2)).image
    ticks = iter(np.arange(0.0, 100.0, 1.0 / 30.0))
    live = LiveTable(
        TableConfig(camera, table, roster, case.ruleset, dict(case.options)),
        _Still(picture, seed),
        clock=lambda: float(next(ticks)),
        max_fps=None,
    )
    for _ in range(FRAMES):
        live.step()
    args = _args(case, distance_mm)
    answer, _ = live.ask(case.question, args)
    document = live.scene_document()
    apart = {key: value for key, value in document.items() if key != "shared_errors"}
    apart["figures"] = [
        {key: value for key, value in entry.items() if key not in ("shared_mm", "own_cov_mm2")}
        for entry in document["figures"]
    ]
    return answer, ask(parse_scene(apart, source=case.name), case.question, args)


OFFSETS_MM = (-3.0, -2.0, -1.0, 1.0, 2.0, 3.0)


def outcomes(
    offsets_mm: Sequence[float] = OFFSETS_MM,
    cases: Sequence[Case] = CASES,
    progress: Callable[[], None] | None = None,
    heights_mm: Sequence[float] = HEIGHTS_MM,
) -> Iterator[Outcome]:
    """Every case at its threshold plus each offset (positive: beyond the threshold),
    markers at each height.

    ``progress`` is called after each rendered question.
    """
    seed = 0
    for height in heights_mm:
        for case in cases:
            edge = threshold_mm(case)
            for offset in offsets_mm:
                distance = edge + offset
                truth = _verdict(true_answer(case, distance), case.verdict)
                answer, apart = answer_live(case, distance, seed=seed, height_mm=height)
                seed += 1
                if progress is not None:
                    progress()
                yield Outcome(
                    case.name,
                    offset,
                    _verdict(answer, case.verdict),
                    truth,
                    _certain(answer),
                    height,
                    _verdict(apart, case.verdict),
                    _certain(apart),
                )


TARGETS = {0.0: 1.0, HEAD_MM: 2.0}
"""How far from the thresholds answers must be certain at least `TARGET_SHARE` of the
time: 1 mm for markers on the bases, 2 mm for markers on the heads (whose height is
known to 2 mm)."""

TARGET_SHARE = 0.9


def certainty_report(
    offsets_mm: Sequence[float] = OFFSETS_MM,
    progress: Callable[[], None] | None = None,
    heights_mm: Sequence[float] = HEIGHTS_MM,
) -> dict[str, Any]:
    """Per marker height and distance from the thresholds: how many answers were certain,
    and wrong, through the errors the figures share and with the figures independent."""
    rows: dict[tuple[float, float], list[Outcome]] = {}
    for outcome in outcomes(offsets_mm, progress=progress, heights_mm=heights_mm):
        rows.setdefault((outcome.height_mm, abs(outcome.offset_mm)), []).append(outcome)
    return {
        "cases": [case.name for case in CASES],
        "by_offset": [
            {
                "height_mm": height,
                "offset_mm": offset,
                "questions": len(found),
                "certain": sum(o.certain for o in found) / len(found),
                "wrong": sum(o.kind == "wrong" for o in found),
                "apart_certain": sum(o.apart_certain for o in found) / len(found),
                "apart_wrong": sum(o.apart_kind == "wrong" for o in found),
                "target": TARGETS.get(height) == offset,
            }
            for (height, offset), found in sorted(rows.items())
        ],
    }
