"""The built-in demo table: a simulated camera over a Choc Base 6 skirmish.

A 1280 x 720 webcam hangs 1 m over a 90 x 60 cm table with anchors at its
corners. Each group's reference figure carries a 20 mm marker on its head; now
and then one of them walks a few centimetres. Frames come from the simulator and
go through exactly the same pipeline as a real camera's.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from arbitre.api.live.table import TableConfig
from arbitre.calibration.camera import CameraIntrinsics
from arbitre.calibration.table import Roster, Table, roster_from_mapping, table_from_mapping
from arbitre.vision.simulate import (
    FIGURE_COLOURS_BGR,
    Camera,
    RenderOptions,
    SimMarker,
    SimScene,
    SimTable,
    anchors,
    figure,
    look_at,
    render,
)
from arbitre.vision.sources import FrameSource

Figure = tuple[int, str, str, str, str, float, float, float, dict[str, Any]]
"""(marker, name, side, group, type, head height mm, x, y, extra attributes)"""


TABLE_MM = (900.0, 600.0)
MARKER_MM = 20.0
FIGURES: tuple[Figure, ...] = (  # (marker, name, side, group, type, height, x, y, attrs)
    (10, "Chef alpin", "blancs", "alpins", "CR", 32.0, 180.0, 170.0, {}),
    (11, "Tireur d'élite", "blancs", "tireurs", "TD", 30.0, 150.0, 400.0, {"sniper": True}),
    (12, "Sergent", "blancs", "section", "TD", 30.0, 330.0, 300.0, {}),
    (13, "Cavalier", "blancs", "cavalier", "CR", 45.0, 120.0, 520.0, {"pa_bonus": 2}),
    (14, "Capitaine", "verts", "verts", "TD", 30.0, 640.0, 330.0, {}),
    (15, "Éclaireur", "verts", "eclaireurs", "TD", 28.0, 560.0, 130.0, {}),
    (16, "Grenadier", "verts", "grenadiers", "CR", 30.0, 760.0, 470.0, {}),
)
TERRAIN: tuple[dict[str, Any], ...] = (
    {
        "id": "bois",
        "kind": "wood",
        "polygon_mm": [[400.0, 420.0], [520.0, 400.0], [540.0, 520.0], [420.0, 540.0]],
    },
    {
        "id": "rocher",
        "kind": "impassable",
        "polygon_mm": [[440.0, 200.0], [490.0, 190.0], [500.0, 250.0], [450.0, 260.0]],
    },
)


@dataclass(frozen=True, slots=True)
class DemoSetup:
    """What a user would have written for this table: camera, table, roster, terrain."""

    camera: CameraIntrinsics
    table: Table
    roster: Roster
    terrain: tuple[dict[str, Any], ...]


def demo_camera() -> Camera:
    """The simulated webcam: 1280 x 720, fx = fy = 930 px, mild barrel, 1 m up."""
    width, height, focal = 1280, 720, 930.0
    matrix = np.array(
        [[focal, 0.0, (width - 1) / 2], [0.0, focal, (height - 1) / 2], [0.0, 0.0, 1.0]]
    )
    centre = (TABLE_MM[0] / 2, TABLE_MM[1] / 2)
    rvec, tvec = look_at((*centre, 1000.0), (*centre, 0.0))
    return Camera(matrix, np.array([-0.05, 0.02, 0.0, 0.0, 0.0]), (width, height), rvec, tvec)


def demo_setup() -> DemoSetup:
    camera = demo_camera()
    return setup_of(camera, anchors(SimTable(*TABLE_MM)), FIGURES, TABLE_MM, "demo", TERRAIN)


def setup_of(
    camera: Camera,
    anchor_markers: Sequence[SimMarker],
    figures: Sequence[Figure],
    table_mm: tuple[float, float],
    name: str,
    terrain: tuple[dict[str, Any], ...] = (),
) -> DemoSetup:
    """What a user would have written for a simulated table: its camera's intrinsics, the
    table with its anchors, the roster (each figure its group's reference, on its own)."""
    table = table_from_mapping(
        {
            "width_mm": table_mm[0],
            "depth_mm": table_mm[1],
            "dictionary": "DICT_4X4_250",
            "anchors": [
                {"id": a.id, "x_mm": a.x_mm, "y_mm": a.y_mm, "size_mm": a.size_mm}
                for a in anchor_markers
            ],
        },
        f"{name} table",
    )
    roster = roster_from_mapping(
        {
            "figures": [
                {
                    "marker": marker,
                    "name": who,
                    "side": side,
                    "group": group,
                    "reference": True,
                    "type": kind,
                    "marker_height_mm": height,
                    "attrs": {"alone": True, **attrs},
                }
                for marker, who, side, group, kind, height, _x, _y, attrs in figures
            ]
        },
        f"{name} roster",
    )
    intrinsics = CameraIntrinsics(camera.image_size, camera.camera_matrix, camera.dist_coeffs)
    return DemoSetup(intrinsics, table, roster, terrain)


def demo_config() -> TableConfig:
    """The demo table as the live table runs it: its set-up, 1 M = 100 mm, its terrain."""
    setup = demo_setup()
    return TableConfig(
        setup.camera, setup.table, setup.roster, options={"unit_mm": 100}, terrain=setup.terrain
    )


class DemoSource(FrameSource):
    """Frames of the demo table; a figure walks every ``move_every_s`` seconds.

    The picture is rendered again only when something moved; in between, each frame
    is the last picture with one of a few noise patterns, as a still webcam gives: once
    the patterns come round again the frame is one seen before (`again`).
    """

    description = "demo table"

    def __init__(self, *, move_every_s: float = 8.0, seed: int = 0) -> None:
        self.camera = demo_camera()
        self.move_every_s = move_every_s
        self._rng = np.random.default_rng(seed)
        self._markers = {
            marker: SimMarker(marker, x, y, height, MARKER_MM, float(self._rng.uniform(-20, 20)))
            for marker, _n, _s, _g, _k, height, x, y, _a in FIGURES
        }
        self._colours = {
            marker: FIGURE_COLOURS_BGR[0 if side == "blancs" else 1 % len(FIGURE_COLOURS_BGR)]
            for marker, _n, side, *_ in FIGURES
        }
        self._picture = self._render()
        self._noise = [
            self._rng.normal(0.0, 2.0, self._picture.shape).astype(np.int16) for _ in range(3)
        ]
        self._frame = 0
        self._since_render = 0  # frames given of the current picture
        self._last_move = time.monotonic()

    def move_camera(self, camera: Camera) -> None:
        """The camera knocked to ``camera``: the frames from now on are seen from there."""
        self.camera = camera
        self._picture = self._render()
        self._since_render = 0

    def positions_mm(self) -> dict[int, tuple[float, float]]:
        """Where each figure's head truly is: the demo's ground truth."""
        return {m.id: (m.x_mm, m.y_mm) for m in self._markers.values()}

    def _scene(self) -> SimScene:
        table = SimTable(*TABLE_MM)
        markers = tuple(self._markers.values())
        bodies = tuple(b for m in markers for b in figure(m, self._colours[m.id]))
        return SimScene(table, anchors(table) + markers, bodies)

    def _render(self) -> NDArray[np.uint8]:
        return render(self.camera, self._scene(), RenderOptions(supersample=2)).image

    def _walk(self) -> None:
        marker = self._markers[int(self._rng.choice(list(self._markers)))]
        for _ in range(20):
            angle = self._rng.uniform(0, 2 * np.pi)
            step = self._rng.uniform(40.0, 90.0)
            x, y = marker.x_mm + step * np.cos(angle), marker.y_mm + step * np.sin(angle)
            if not (80 <= x <= TABLE_MM[0] - 80 and 80 <= y <= TABLE_MM[1] - 80):
                continue
            if all(
                np.hypot(x - o.x_mm, y - o.y_mm) > 60
                for o in self._markers.values()
                if o.id != marker.id
            ):
                self._markers[marker.id] = replace(marker, x_mm=float(x), y_mm=float(y))
                self._picture = self._render()
                self._since_render = 0
                return

    def read(self) -> NDArray[np.uint8] | None:
        now = time.monotonic()
        if now - self._last_move >= self.move_every_s:
            self._last_move = now
            self._walk()
        self._frame += 1
        self.again = self._since_render >= len(self._noise)
        self._since_render += 1
        noisy = self._picture + self._noise[self._frame % len(self._noise)]
        frame: NDArray[np.uint8] = np.clip(noisy, 0, 255).astype(np.uint8)
        return frame
