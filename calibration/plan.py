"""Planning a table's cameras: how many pixels a marker's module gets, from the geometry.

A marker can be read when each of its modules (a 4 x 4 marker is 6 modules across,
border included) is imaged at least `READABLE_MODULE_PX` wide. Before buying a camera or
printing markers, `plan` says, for cameras on tripods at the middle of a table's long
edges, how wide a module of a given marker is at each place of the table, the smallest
marker every place reads, and whether the anchors are seen well.

The camera model is a pinhole (the lens's distortion changes little here): a camera
``height_mm`` up and ``back_mm`` behind the middle of a long edge, looking at the
point ``aim_mm`` short of the table's centre on the line across it (as the simulator's
club presets do), with the horizontal field of view ``fov_deg``. A marker lies flat at
``marker_height_mm``; its module is its shortest side in the image, over the worst of
two turns (0 and 45 degrees), divided by its modules. A second camera stands at the
opposite edge, looking back; each place takes the better of the two.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from arbitre.bounds import LONGEST_MM
from arbitre.calibration.errors import CalibrationError

FloatArray = NDArray[np.float64]

READABLE_MODULE_PX = 2.0
"""The narrowest module a detector reads, px."""

SENSORS = {"720p": (1280, 720), "1080p": (1920, 1080), "1440p": (2560, 1440), "4k": (3840, 2160)}

GRID_MM = 50.0
"""The table is sampled every this many mm."""


@dataclass(frozen=True, slots=True)
class SetUp:
    """Cameras over a table (see the module's notes); lengths in mm."""

    width_mm: float
    depth_mm: float
    image_size: tuple[int, int] = SENSORS["1080p"]
    fov_deg: float = 88.0
    height_mm: float = 1100.0
    back_mm: float = 300.0
    aim_mm: float = 300.0
    cameras: int = 1
    marker_mm: float = 15.0
    marker_height_mm: float = 0.0
    modules: int = 6

    def __post_init__(self) -> None:
        checks = (
            ("table width, mm", self.width_mm, 0.0 < self.width_mm <= LONGEST_MM),
            ("table depth, mm", self.depth_mm, 0.0 < self.depth_mm <= LONGEST_MM),
            ("field of view, degrees", self.fov_deg, 1.0 <= self.fov_deg <= 170.0),
            ("camera height, mm", self.height_mm, 0.0 < self.height_mm <= LONGEST_MM),
            ("distance behind the edge, mm", self.back_mm, abs(self.back_mm) <= LONGEST_MM),
            ("aim, mm", self.aim_mm, abs(self.aim_mm) <= LONGEST_MM),
            ("marker size, mm", self.marker_mm, 1.0 <= self.marker_mm <= 1000.0),
            ("marker height, mm", self.marker_height_mm, 0.0 <= self.marker_height_mm <= 1000.0),
        )
        for name, value, ok in checks:
            if not (math.isfinite(value) and ok):
                raise CalibrationError(f"{name} out of range: {value!r}")
        if self.cameras not in (1, 2):
            raise CalibrationError(
                f"cameras: 1 or 2 (at opposite long edges), got {self.cameras!r}"
            )
        if self.marker_height_mm >= self.height_mm:
            raise CalibrationError("the markers must be below the cameras")

    @property
    def focal_px(self) -> float:
        return self.image_size[0] / 2.0 / math.tan(math.radians(self.fov_deg) / 2.0)


@dataclass(frozen=True, slots=True)
class Camera:
    """A pinhole camera: ``rotation`` (3, 3) table to camera, ``centre_mm`` (3,)."""

    rotation: FloatArray
    centre_mm: FloatArray
    focal_px: float
    image_size: tuple[int, int]

    def project(self, points_mm: FloatArray) -> tuple[FloatArray, NDArray[np.bool_]]:
        """Pixels (..., 2) of table points (..., 3), and whether each is in front of the
        camera and inside the image."""
        local = (points_mm - self.centre_mm) @ self.rotation.T
        z = local[..., 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            u = self.focal_px * local[..., 0] / z + (self.image_size[0] - 1) / 2.0
            v = self.focal_px * local[..., 1] / z + (self.image_size[1] - 1) / 2.0
        inside = (z > 0) & (u >= 0) & (v >= 0)
        inside &= (u <= self.image_size[0] - 1) & (v <= self.image_size[1] - 1)
        return np.stack([u, v], axis=-1), inside


def cameras_of(setup: SetUp) -> list[Camera]:
    """The set-up's cameras: the middle of the long edge at y = 0 (or x = 0 on a table
    deeper than wide), then the opposite one."""
    wide = setup.width_mm >= setup.depth_mm
    long_side, short_side = (
        (setup.width_mm, setup.depth_mm) if wide else (setup.depth_mm, setup.width_mm)
    )
    found = []
    for k in range(setup.cameras):
        # in the frame of the long side along x: the camera at the short side's edge
        across = -setup.back_mm if k == 0 else short_side + setup.back_mm
        aim = short_side / 2.0 + (-setup.aim_mm if k == 0 else setup.aim_mm)
        eye = np.array([long_side / 2.0, across, setup.height_mm])
        target = np.array([long_side / 2.0, aim, 0.0])
        if not wide:  # back to the table's frame: x and y swapped
            eye, target = eye[[1, 0, 2]], target[[1, 0, 2]]
        found.append(_looking(eye, target, setup))
    return found


def _looking(eye: FloatArray, target: FloatArray, setup: SetUp) -> Camera:
    """A camera at ``eye`` looking at ``target``, the image's rows level with the table."""
    forward = target - eye
    forward /= np.linalg.norm(forward)
    right = np.cross(forward, [0.0, 0.0, 1.0])
    if np.linalg.norm(right) < 1e-9:  # straight down
        right = np.array([1.0, 0.0, 0.0])
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    rotation = np.vstack([right, down, forward])
    return Camera(rotation, eye, setup.focal_px, setup.image_size)


def module_px(
    setup: SetUp, cameras: list[Camera], xy_mm: FloatArray, size_mm: float, z_mm: float
) -> FloatArray:
    """The module width, px, of a marker of side ``size_mm`` lying at each point (N, 2),
    ``z_mm`` up: the best camera's, over the worst of two turns; 0 where no camera sees
    the whole marker."""
    half = size_mm / 2.0
    square = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    best = np.zeros(len(xy_mm))
    for camera in cameras:
        worst = np.full(len(xy_mm), np.inf)
        for turn in (0.0, 45.0):
            c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
            turned = square @ np.array([[c, s], [-s, c]])
            corners = xy_mm[:, None, :] + turned[None]
            points = np.concatenate([corners, np.full(corners.shape[:2] + (1,), z_mm)], axis=2)
            pixels, inside = camera.project(points)
            sides = np.linalg.norm(pixels - np.roll(pixels, -1, axis=1), axis=2).min(axis=1)
            seen = inside.all(axis=1)
            worst = np.minimum(worst, np.where(seen, sides / setup.modules, 0.0))
        best = np.maximum(best, worst)
    return best


def plan(
    setup: SetUp, anchors_mm: list[tuple[float, float, float]] | None = None
) -> dict[str, Any]:
    """What a set-up reads (see the module's notes), as JSON-ready data.

    ``grid``: rows of module widths (px) every `GRID_MM` from the corner at the origin,
    ``readable_share`` of the table at `READABLE_MODULE_PX` or more, ``smallest_marker_mm``
    read everywhere (modules scale with the marker), and each anchor's module width
    (``anchors_mm``: x, y, side).
    """
    cameras = cameras_of(setup)
    xs = np.arange(GRID_MM / 2.0, setup.width_mm, GRID_MM)
    ys = np.arange(GRID_MM / 2.0, setup.depth_mm, GRID_MM)
    grid_x, grid_y = np.meshgrid(xs, ys)
    points = np.column_stack([grid_x.ravel(), grid_y.ravel()])
    widths = module_px(setup, cameras, points, setup.marker_mm, setup.marker_height_mm)
    seen = widths > 0
    smallest = setup.marker_mm * READABLE_MODULE_PX / float(widths.min()) if np.all(seen) else None
    anchors = []
    for x, y, side in anchors_mm or []:
        width = float(module_px(setup, cameras, np.array([[x, y]]), side, 0.0)[0])
        anchors.append({"x_mm": x, "y_mm": y, "module_px": round(width, 2)})
    return {
        "table_mm": [setup.width_mm, setup.depth_mm],
        "cameras": setup.cameras,
        "image_size": list(setup.image_size),
        "focal_px": round(setup.focal_px, 1),
        "camera_height_mm": setup.height_mm,
        "marker_mm": setup.marker_mm,
        "grid_mm": GRID_MM,
        "grid": np.round(widths.reshape(len(ys), len(xs)), 2).tolist(),
        "readable_share": float(np.mean(widths >= READABLE_MODULE_PX)),
        "worst_module_px": round(float(widths.min()), 2),
        "smallest_marker_mm": None if smallest is None else round(smallest, 1),
        "anchors": anchors,
    }


__all__ = ["READABLE_MODULE_PX", "SENSORS", "SetUp", "cameras_of", "module_px", "plan"]
