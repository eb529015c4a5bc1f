"""The scenes the calibration tests share.

The tripod: a wide-angle 1080p camera over a 1200 x 900 mm table with four anchors, and
where it sees table points (``seen``); two terrain pieces carrying markers, in a roster;
located markers as the rules' figures, for tests that measure between them.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from arbitre.calibration.camera import CameraIntrinsics
from arbitre.calibration.locate import LocatedMarker
from arbitre.calibration.pose import TablePose
from arbitre.calibration.table import Anchor, Roster, Table, roster_from_mapping
from arbitre.rules.model import Figure

# The tripod scene of the issue: a 1080p camera with a wide-angle lens (k1 = -0.25) on a tripod
# just off the edge of a 1200 x 900 mm table, its optical centre 1054 mm above the table at
# (600, -200), looking at the table's centre (tilted about 32 degrees from straight down).
CAMERA = CameraIntrinsics(
    (1920, 1080),
    np.array([[1000.0, 0, 960.0], [0, 1000.0, 540.0], [0, 0, 1]]),
    np.array([-0.25, 0, 0, 0, 0]),
)
TABLE = Table(
    1200,
    900,
    "DICT_4X4_250",
    tuple(
        Anchor(i, x, y, 40)
        for i, (x, y) in enumerate([(35, 35), (1165, 35), (1165, 865), (35, 865)])
    ),
)
CAMERA_CENTRE_MM = np.array([600.0, -200.0, 1054.0])


def look_at(centre_mm: NDArray[np.float64], target_mm: tuple[float, float, float]) -> TablePose:
    """The pose of a camera at ``centre_mm`` looking at ``target_mm``, image right = +x."""
    forward = np.asarray(target_mm) - centre_mm
    forward /= np.linalg.norm(forward)
    right = np.array([1.0, 0.0, 0.0]) - forward[0] * forward
    right /= np.linalg.norm(right)
    rotation = np.vstack([right, np.cross(forward, right), forward])
    return TablePose.from_rvec_tvec(cv2.Rodrigues(rotation)[0], -rotation @ centre_mm)


TRUE_POSE = look_at(CAMERA_CENTRE_MM, (600.0, 450.0, 0.0))


def marker_corners_mm(
    x: float, y: float, z: float, side: float, heading_deg: float
) -> NDArray[np.float64]:
    """A horizontal square marker at height z whose top edge points to ``heading_deg``."""
    return Anchor(0, x, y, side, rotation_deg=heading_deg - 90.0).corners_mm() + [0, 0, z]


def seen(points_mm: NDArray[np.float64], camera: CameraIntrinsics = CAMERA) -> NDArray[np.float64]:
    return TRUE_POSE.project(points_mm, camera)


def anchor_detections(camera: CameraIntrinsics = CAMERA) -> dict[int, NDArray[np.float64]]:
    return {a.id: seen(a.corners_mm(), camera) for a in TABLE.anchors}


WOOD = {
    "marker": 60,
    "id": "wood1",
    "kind": "wood",
    "marker_height_mm": 0,
    "polygon_mm": [[-100, -60], [100, -60], [100, 60], [-100, 60]],
}
HEDGE = {
    "marker": 61,
    "id": "hedge1",
    "kind": "obstacle",
    "level": 1,
    "marker_height_mm": 30,
    "line_mm": [[-150, 0], [150, 0]],
}


def terrain_roster() -> Roster:
    """Figure 17 on a 54 mm head, the wood (marker 60) and the hedge (marker 61)."""
    return roster_from_mapping(
        {
            "figures": [{"marker": 17, "name": "Dupont", "marker_height_mm": 54}],
            "terrain": [WOOD, HEDGE],
        }
    )


def figure_of(marker: LocatedMarker) -> Figure:
    """A figure (id: the marker's id) where the marker is, with its sigma, the moves of the
    errors it shares with the other markers of its answer, and its own covariance."""
    return Figure(
        str(marker.id),
        "x",
        marker.x_mm,
        marker.y_mm,
        sigma_mm=marker.sigma_mm,
        shared_mm=marker.shared_mm,
        own_cov_mm2=marker.own_cov_mm2,
    )
