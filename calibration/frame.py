"""One camera frame to table millimetres: detect the markers, pose the table, place the figures.

This is the whole measuring chain behind ``arbitre locate`` and the live table:
`arbitre.vision.detect` finds the markers, `arbitre.calibration.pose` finds the table from its
anchors and `arbitre.calibration.locate` intersects each figure marker's ray with the plane
of its height. A photo is posed from the anchors it shows; a live camera's frames from the
anchors it has shown since it last moved (`arbitre.calibration.anchors`), so that an arm
over the anchors changes nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from arbitre.calibration.anchors import AnchorMemory
from arbitre.calibration.camera import CameraIntrinsics
from arbitre.calibration.locate import LocateResult, locate_markers
from arbitre.calibration.pose import DEFAULT_CORNER_NOISE_PX, PoseFailure
from arbitre.calibration.table import Roster, Table
from arbitre.vision.detect import DetectionResult, MarkerTracker, detect_markers


@dataclass(frozen=True, slots=True)
class Frame:
    """What one frame measured: the detections and the located markers (or why not)."""

    detections: DetectionResult
    located: LocateResult | PoseFailure
    camera_moved: bool = False
    """The anchors in view had all moved: the table was posed afresh from this frame."""
    pose_doubtful: bool = False
    """No anchor in view agrees with where the camera had seen it (the camera may be
    moving): the frame was posed as before, and its places are not to be trusted."""

    def to_json(self) -> dict[str, Any]:
        """The ``arbitre locate`` JSON, plus ``duplicates`` (ids seen twice, not placed)."""
        data = dict(self.located.to_json())
        data["duplicates"] = list(self.detections.duplicates)
        return data


def corner_noise_px(detections: DetectionResult) -> dict[int, float]:
    """A corner-noise estimate (1 sigma, px) per marker from its edge fit.

    Half the RMS edge-point residual (each corner comes from two fitted sides of 16
    points each), never below the default floor, which also stands in when the
    sides could not be re-measured.
    """
    return {
        m.id: max(DEFAULT_CORNER_NOISE_PX, 0.5 * m.edge_residual_px)
        if math.isfinite(m.edge_residual_px)
        else DEFAULT_CORNER_NOISE_PX
        for m in detections.markers
    }


def locate_frame(
    image: NDArray[Any],
    camera: CameraIntrinsics,
    table: Table,
    roster: Roster | None = None,
    *,
    tracker: MarkerTracker | None = None,
    anchors: AnchorMemory | None = None,
) -> Frame:
    """Detect and locate the markers of one frame (grey or BGR, uint8).

    A ``tracker`` (built for this camera and table) follows markers between frames;
    without one, the whole frame is scanned. ``anchors`` (this camera's) poses the frame
    from every anchor seen since the camera last moved; without it, from those it shows.
    """
    height, width = image.shape[:2]
    intrinsics = camera.for_image_size((width, height))
    if tracker is not None:
        detections = tracker.update(image)
    else:
        detections = detect_markers(
            image,
            table.dictionary,
            camera_matrix=intrinsics.camera_matrix,
            dist_coeffs=intrinsics.dist_coeffs,
        )
    corners = {m.id: np.asarray(m.image_corners_px) for m in detections.markers}
    noise = corner_noise_px(detections)
    moved = doubtful = False
    if anchors is not None:
        posing = anchors.pose_from(corners, noise, (width, height))
        held = anchors.anchor_ids
        corners = {m: c for m, c in corners.items() if m not in held}
        corners.update(posing.corners)
        noise.update(posing.noise_px)
        moved, doubtful = posing.moved, posing.doubtful
    located = locate_markers(
        corners,
        intrinsics,
        table,
        roster,
        image_size=(width, height),
        corner_noise_px=noise,
    )
    return Frame(detections, located, moved, doubtful)
