"""The pose of the table in the camera, from the anchors seen in one frame.

The pose is estimated again on every frame from every visible anchor corner (4 per anchor),
so a camera that was bumped recovers by itself. It is the rigid transform
``X_camera = R X_table + t`` (table mm to camera mm).

**Outliers are whole anchors.** A wrong anchor (moved since ``table.yaml`` was measured, or a
misread id) moves all four of its corners together, so hypotheses are made from pairs of
anchors (8 corners, ``cv2.SOLVEPNP_IPPE``) and from all anchors together; the hypothesis with
which most anchors agree (every corner within ``max_anchor_error_px``) is refined on those
anchors with ``cv2.solvePnPRefineLM``, and the agreement is checked again against the refined
pose. The anchors that still disagree are reported with their error.

**At least two anchors.** The four corners of a single anchor do give a pose, but a weak one:
a small square seen from afar fits two mirror poses almost equally well (the flips that make
per-figure marker poses useless) and any corner error tilts the whole table about that one
marker. Two anchors (8 corners spread across the table) fix the pose; three or more also let
a wrong anchor be found and set aside. With exactly two, only a gross disagreement (a misread
id, a marker turned) is caught: an anchor displaced by a few centimetres bends the pose to fit
(8 corners leave 2 redundant measurements), which shows only as a larger
``reprojection_px``. ``min_anchors=1`` is accepted for tests and emergencies.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import ArrayLike, NDArray

from arbitre.calibration.camera import CameraIntrinsics
from arbitre.calibration.errors import CalibrationError
from arbitre.calibration.table import Table

FloatArray = NDArray[np.float64]

MIN_ANCHORS = 2
"""Fewest anchors the table pose is estimated from (see the module's docstring)."""

MAX_ANCHOR_ERROR_PX = 3.0
"""An anchor whose corners reproject further than this from where they were seen disagrees."""

DEFAULT_CORNER_NOISE_PX = 0.15
"""Assumed 1-sigma noise of a refined marker corner, per image axis, pixels."""

_REFINE_CRITERIA = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 50, 1e-12)


@dataclass(frozen=True, slots=True)
class RejectedAnchor:
    """An anchor seen but left out of the pose, and why."""

    id: int
    reason: str

    def to_json(self) -> dict[str, int | str]:
        """``{"id": id, "reason": reason}``."""
        return {"id": self.id, "reason": self.reason}


@dataclass(frozen=True, slots=True, eq=False)
class TablePose:
    """Where the table is in the camera: ``X_camera = rotation @ X_table + tvec`` (mm).

    Attributes
    ----------
    rvec, tvec:
        ``(3,)`` Rodrigues rotation (rad) and translation (mm), as OpenCV's solvePnP.
    rotation:
        ``(3, 3)`` the same rotation as a matrix.
    camera_centre_mm:
        ``(3,)`` the camera's optical centre in the table frame, ``-rotation.T @ tvec``.
    anchors_seen, anchors_used:
        Ids of the table's anchors detected, and of those the pose rests on (sorted).
    anchors_rejected:
        Anchors seen that disagree with the pose, with the reason.
    reprojection_px:
        RMS distance, pixels, between the used anchor corners as seen and as reprojected.
    covariance:
        ``(6, 6)`` covariance of ``(rvec, tvec)`` (rad, mm) from the corners' residuals
        (floored by the assumed corner noise): ``s^2 (A^T A)^-1`` with ``A`` the Jacobian
        of the reprojected corners.
    anchor_corners_mm:
        ``(4k, 3)`` the table corners of the anchors used, four per anchor in the order of
        ``anchors_used``: what the pose was fitted to.
    """

    rvec: FloatArray
    tvec: FloatArray
    rotation: FloatArray
    camera_centre_mm: FloatArray
    anchors_seen: tuple[int, ...]
    anchors_used: tuple[int, ...]
    anchors_rejected: tuple[RejectedAnchor, ...]
    reprojection_px: float
    covariance: FloatArray
    anchor_corners_mm: FloatArray = field(default_factory=lambda: np.zeros((0, 3)))

    @classmethod
    def from_rvec_tvec(
        cls,
        rvec: ArrayLike,
        tvec: ArrayLike,
        *,
        anchors_seen: tuple[int, ...] = (),
        anchors_used: tuple[int, ...] = (),
        anchors_rejected: tuple[RejectedAnchor, ...] = (),
        reprojection_px: float = 0.0,
        covariance: ArrayLike | None = None,
        anchor_corners_mm: ArrayLike | None = None,
    ) -> TablePose:
        """A pose from OpenCV's ``rvec, tvec`` (table to camera, mm)."""
        r = np.asarray(rvec, dtype=np.float64).reshape(3).copy()
        t = np.asarray(tvec, dtype=np.float64).reshape(3).copy()
        rotation = np.asarray(cv2.Rodrigues(r)[0], dtype=np.float64)
        centre = -rotation.T @ t
        cov = np.zeros((6, 6)) if covariance is None else np.asarray(covariance, np.float64)
        corners = np.zeros((0, 3)) if anchor_corners_mm is None else anchor_corners_mm
        corners = np.asarray(corners, dtype=np.float64).reshape(-1, 3).copy()
        for array in (r, t, rotation, centre, cov, corners):
            array.setflags(write=False)
        return cls(
            r,
            t,
            rotation,
            centre,
            anchors_seen,
            anchors_used,
            anchors_rejected,
            float(reprojection_px),
            cov,
            corners,
        )

    def project(self, points_mm: ArrayLike, intrinsics: CameraIntrinsics) -> FloatArray:
        """Project table points into the (distorted) image.

        Parameters
        ----------
        points_mm:
            ``(N, 3)`` table frame, mm.

        Returns
        -------
        ``(N, 2)`` float64 pixels.
        """
        points = np.asarray(points_mm, dtype=np.float64).reshape(-1, 3)
        return _project(points, self.rvec, self.tvec, intrinsics)


@dataclass(frozen=True, slots=True)
class PoseFailure:
    """No table pose in this frame: ``message`` says which anchors were seen and why."""

    message: str
    anchors_seen: tuple[int, ...]
    anchors_rejected: tuple[RejectedAnchor, ...] = ()

    def to_json(self) -> dict[str, object]:
        """``{"error": message, "anchors_seen": [...], "anchors_rejected": [...]}``."""
        return {
            "error": self.message,
            "anchors_seen": list(self.anchors_seen),
            "anchors_rejected": [r.to_json() for r in self.anchors_rejected],
        }


def marker_corners(marker_id: int, corners_px: ArrayLike) -> FloatArray:
    """One marker's corners as ``(4, 2)`` float64 pixels; accepts OpenCV's ``(1, 4, 2)``."""
    try:
        array = np.asarray(corners_px, dtype=np.float64)
    except (TypeError, ValueError):
        raise CalibrationError(
            f"marker {marker_id}: expected 4 corners (u, v) in pixels, got {corners_px!r}"
        ) from None
    if array.size != 8:
        raise CalibrationError(
            f"marker {marker_id}: expected 4 corners (u, v) in pixels, got shape {array.shape}"
        )
    array = array.reshape(4, 2)
    if not np.isfinite(array).all():
        raise CalibrationError(f"marker {marker_id}: corners must be finite, got {array.tolist()}")
    return array


def estimate_table_pose(
    detections: Mapping[int, ArrayLike],
    intrinsics: CameraIntrinsics,
    table: Table,
    *,
    min_anchors: int = MIN_ANCHORS,
    max_anchor_error_px: float = MAX_ANCHOR_ERROR_PX,
    corner_noise_px: float = DEFAULT_CORNER_NOISE_PX,
) -> TablePose | PoseFailure:
    """The table pose from the anchors among ``detections``.

    Parameters
    ----------
    detections:
        Marker id -> its 4 corners ``(4, 2)`` in pixels of the original (distorted) image, in
        OpenCV's order (top-left, top-right, bottom-right, bottom-left of the printed marker).
        Ids that are not anchors are ignored.
    intrinsics:
        The camera, at the size of the image the corners come from.
    table:
        The anchors' positions.
    min_anchors:
        Fewest anchors the pose may rest on (default 2, see the module's docstring).
    max_anchor_error_px:
        An anchor whose corners reproject further than this disagrees with the pose.
    corner_noise_px:
        Assumed 1-sigma corner noise per axis; the floor of the pose covariance.

    Returns
    -------
    TablePose | PoseFailure
        The pose, or a failure naming the anchors seen.
    """
    if min_anchors < 1:
        raise CalibrationError(f"min_anchors must be at least 1, got {min_anchors!r}")
    anchors = {a.id: a for a in table.anchors}
    seen = tuple(sorted(i for i in detections if i in anchors))
    object_points = {i: anchors[i].corners_mm() for i in seen}
    image_points = {i: marker_corners(i, detections[i]) for i in seen}
    all_ids = ", ".join(str(a.id) for a in table.anchors)

    if len(seen) < min_anchors:
        seen_text = _ids_text(seen)
        return PoseFailure(
            f"anchors seen: {seen_text}; the table pose needs at least {min_anchors} of the "
            f"table's anchors ({all_ids})",
            seen,
        )

    best = _best_hypothesis(seen, object_points, image_points, intrinsics, max_anchor_error_px)
    if best is None or len(best[2]) < min_anchors:
        rejected = () if best is None else _rejections(seen, best[2], best[3], max_anchor_error_px)
        agreeing = 0 if best is None else len(best[2])
        return PoseFailure(
            f"anchors seen: {_ids_text(seen)}; no {min_anchors} of them agree on one table pose "
            f"(largest agreeing set: {agreeing}); check their positions in table.yaml",
            seen,
            rejected,
        )
    rvec, tvec, used, errors = best
    for _ in range(3):
        rvec, tvec = _refine(used, object_points, image_points, intrinsics, rvec, tvec)
        errors = _anchor_errors(seen, object_points, image_points, intrinsics, rvec, tvec)
        now_used = tuple(i for i in seen if errors[i] <= max_anchor_error_px)
        if now_used == used:
            break
        if len(now_used) < min_anchors:
            break
        used = now_used

    rvec = canonical_rvec(rvec)
    obj = np.concatenate([object_points[i] for i in used])
    img = np.concatenate([image_points[i] for i in used])
    residuals = img - _project(obj, rvec, tvec, intrinsics)
    reprojection = float(np.sqrt(np.mean(np.sum(residuals**2, axis=1))))
    covariance = _pose_covariance(obj, residuals, intrinsics, rvec, tvec, corner_noise_px)
    return TablePose.from_rvec_tvec(
        rvec,
        tvec,
        anchors_seen=seen,
        anchors_used=used,
        anchors_rejected=_rejections(seen, used, errors, max_anchor_error_px),
        reprojection_px=reprojection,
        covariance=covariance,
        anchor_corners_mm=obj,
    )


HALF_TURN_BAND = 0.5
"""Rotations within this (rad) of a half turn get `canonical_rvec`'s one vector."""


def canonical_rvec(rvec: FloatArray) -> FloatArray:
    """One Rodrigues vector for each rotation near a half turn.

    A camera looking straight down is turned half a turn from the table's frame, where
    ``r`` and ``r (|r| - 2 pi) / |r|`` are the same rotation: the solver gives one or the
    other from frame to frame. The pose's covariance and every error moved along its
    parameters flip sign with them, so that errors kept from two frames would no longer
    cancel. Within `HALF_TURN_BAND` of a half turn, the vector on the side of
    `_HALF_TURN_SIDE` is taken (a direction no common set-up's axis lies across from:
    a camera looking straight down turns about an axis near the table's plane at half
    its yaw, which would meet that side's edge only at a yaw of about -127 degrees).

    >>> canonical_rvec(np.array([-3.1, 0.0, 0.01])).round(4).tolist()
    [3.1832, -0.0, -0.0103]
    >>> canonical_rvec(np.array([0.3, -0.2, 0.1])).tolist()  # far from a half turn
    [0.3, -0.2, 0.1]
    """
    r = np.asarray(rvec, dtype=np.float64).reshape(3)
    angle = float(np.linalg.norm(r))
    if angle < math.pi - HALF_TURN_BAND:
        return r
    axis = r / angle
    if float(axis @ _HALF_TURN_SIDE) >= 0.0:
        return r
    return np.asarray(axis * (angle - 2.0 * math.pi), dtype=np.float64)


_HALF_TURN_SIDE = np.array([1.0, 0.5, 0.25])


# ---------------------------------------------------------------------------------------------


def _ids_text(ids: tuple[int, ...]) -> str:
    return "none" if not ids else ", ".join(str(i) for i in ids)


def _project(
    points: FloatArray, rvec: FloatArray, tvec: FloatArray, intrinsics: CameraIntrinsics
) -> FloatArray:
    projected, _ = cv2.projectPoints(
        points.reshape(-1, 1, 3), rvec, tvec, intrinsics.camera_matrix, intrinsics.dist_coeffs
    )
    return np.asarray(projected, dtype=np.float64).reshape(-1, 2)


def _anchor_errors(
    ids: tuple[int, ...],
    object_points: Mapping[int, FloatArray],
    image_points: Mapping[int, FloatArray],
    intrinsics: CameraIntrinsics,
    rvec: FloatArray,
    tvec: FloatArray,
) -> dict[int, float]:
    """Largest corner reprojection error of each anchor, pixels (inf behind the camera)."""
    obj = np.concatenate([object_points[i] for i in ids])
    rotation = np.asarray(cv2.Rodrigues(rvec)[0], dtype=np.float64)
    depth = (obj @ rotation.T + tvec)[:, 2]
    distances = np.linalg.norm(
        _project(obj, rvec, tvec, intrinsics) - np.concatenate([image_points[i] for i in ids]),
        axis=1,
    )
    in_front = np.all(depth.reshape(-1, 4) > 0, axis=1)
    largest = np.where(in_front, distances.reshape(-1, 4).max(axis=1), np.inf)
    return dict(zip(ids, largest.tolist(), strict=True))


def _solve(
    ids: tuple[int, ...],
    object_points: Mapping[int, FloatArray],
    image_points: Mapping[int, FloatArray],
    intrinsics: CameraIntrinsics,
) -> tuple[FloatArray, FloatArray] | None:
    obj = np.concatenate([object_points[i] for i in ids])
    img = np.concatenate([image_points[i] for i in ids])
    try:
        ok, rvec, tvec = cv2.solvePnP(
            obj, img, intrinsics.camera_matrix, intrinsics.dist_coeffs, flags=cv2.SOLVEPNP_IPPE
        )
    except cv2.error:
        return None
    if not ok:
        return None
    return (
        np.asarray(rvec, dtype=np.float64).reshape(3),
        np.asarray(tvec, dtype=np.float64).reshape(3),
    )


def _best_hypothesis(
    seen: tuple[int, ...],
    object_points: Mapping[int, FloatArray],
    image_points: Mapping[int, FloatArray],
    intrinsics: CameraIntrinsics,
    max_error_px: float,
) -> tuple[FloatArray, FloatArray, tuple[int, ...], dict[int, float]] | None:
    """The pose hypothesis most anchors agree with: (rvec, tvec, agreeing ids, errors)."""
    subsets: list[tuple[int, ...]] = [seen]
    if len(seen) >= 3:
        subsets.extend(itertools.combinations(seen, 2))
    elif len(seen) == 2:
        subsets.extend((i,) for i in seen)
    best: tuple[FloatArray, FloatArray, tuple[int, ...], dict[int, float]] | None = None
    best_key: tuple[int, float] = (-1, 0.0)
    for subset in subsets:
        solved = _solve(subset, object_points, image_points, intrinsics)
        if solved is None:
            continue
        rvec, tvec = solved
        errors = _anchor_errors(seen, object_points, image_points, intrinsics, rvec, tvec)
        agreeing = tuple(i for i in seen if errors[i] <= max_error_px)
        key = (len(agreeing), -sum(errors[i] for i in agreeing))
        if key > best_key:
            best, best_key = (rvec, tvec, agreeing, errors), key
        if len(agreeing) == len(seen) and subset == seen:
            break  # every anchor agrees with the pose of all of them
    return best


def _refine(
    ids: tuple[int, ...],
    object_points: Mapping[int, FloatArray],
    image_points: Mapping[int, FloatArray],
    intrinsics: CameraIntrinsics,
    rvec: FloatArray,
    tvec: FloatArray,
) -> tuple[FloatArray, FloatArray]:
    obj = np.concatenate([object_points[i] for i in ids])
    img = np.concatenate([image_points[i] for i in ids])
    r, t = cv2.solvePnPRefineLM(
        obj,
        img,
        intrinsics.camera_matrix,
        intrinsics.dist_coeffs,
        rvec.copy().reshape(3, 1),
        tvec.copy().reshape(3, 1),
        criteria=_REFINE_CRITERIA,
    )
    return np.asarray(r, np.float64).reshape(3), np.asarray(t, np.float64).reshape(3)


def _pose_covariance(
    obj: FloatArray,
    residuals: FloatArray,
    intrinsics: CameraIntrinsics,
    rvec: FloatArray,
    tvec: FloatArray,
    corner_noise_px: float,
) -> FloatArray:
    _, jacobian = cv2.projectPoints(
        obj.reshape(-1, 1, 3), rvec, tvec, intrinsics.camera_matrix, intrinsics.dist_coeffs
    )
    a = np.asarray(jacobian, dtype=np.float64)[:, :6]
    dof = max(2 * len(obj) - 6, 1)
    variance = max(float(np.sum(residuals**2)) / dof, corner_noise_px**2)
    return np.asarray(variance * np.linalg.pinv(a.T @ a), dtype=np.float64)


def _rejections(
    seen: tuple[int, ...], used: tuple[int, ...], errors: Mapping[int, float], limit_px: float
) -> tuple[RejectedAnchor, ...]:
    rejected: list[RejectedAnchor] = []
    for i in seen:
        if i in used:
            continue
        error = errors.get(i, float("inf"))
        if error == float("inf"):
            reason = "behind the camera in the pose of the other anchors"
        else:
            reason = f"corners {error:.1f} px from the pose of the other anchors (> {limit_px:g})"
        rejected.append(RejectedAnchor(i, reason))
    return tuple(rejected)
