"""Height-corrected table coordinates of markers, from pixels and the table pose.

A figure marker sits at a known height ``h`` above the table (``marker_height_mm`` in
``roster.yaml``). The camera ray through the marker's centre is intersected with the plane
``z = h``; the point reported is the one directly below, ``(x, y)`` on the table. No pose is
estimated per figure marker: small markers facing the camera flip between mirror poses from
frame to frame, while the ray through their centre is stable.

Steps, for each marker (vectorised over N markers):

1. undistort the 4 corners to normalised camera coordinates (OpenCV's first guess, then
   Newton steps on ``cv2.projectPoints`` until the reprojection matches to 1e-9 px);
2. the centre is the intersection of the diagonals in the undistorted image (the exact image of
   the square's centre under perspective);
3. rays ``d = R^T (x, y, 1)`` from the camera centre ``C`` meet ``z = h`` at
   ``C + (h - C_z) / d_z * d``;
4. the heading is the direction of the marker's top edge on the table: the midpoint of corners
   0-1 minus the midpoint of corners 3-2, each corner intersected with the same plane, in
   degrees counter-clockwise from +x (90 for a marker printed upright, see ``table.py``).

Uncertainty (``sigma_mm``) is described in `place_markers`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import ArrayLike, NDArray

from arbitre.calibration.camera import CameraIntrinsics
from arbitre.calibration.errors import CalibrationError
from arbitre.calibration.heading import tilted_headings
from arbitre.calibration.pose import (
    DEFAULT_CORNER_NOISE_PX,
    MAX_ANCHOR_ERROR_PX,
    MIN_ANCHORS,
    PoseFailure,
    RejectedAnchor,
    TablePose,
    estimate_table_pose,
    marker_corners,
)
from arbitre.calibration.table import Roster, RosterTerrain, Table, check_roster_against_table
from arbitre.vision.detect import diagonal_intersections

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

RAISED_HEIGHT_SIGMA_MM = 2.0
"""1-sigma error of a raised marker's height as the roster gives it (a figure's head:
how the figure stands and leans, how its marker sits), mm; a marker at height 0 lies on
the table."""

SMALL_MARKER_PX = 20.0
"""Markers with a side shorter than this (pixels) get a proportionally larger corner noise."""

_NEWTON_TOLERANCE_PX = 1e-9
_CONVERGED_PX = 1e-6


@dataclass(frozen=True, slots=True, eq=False)
class MarkerPlacement:
    """Where N markers are on the table (all arrays follow the input's order).

    Attributes
    ----------
    xy_mm:
        ``(N, 2)`` table mm, the point directly below each marker's centre.
    heading_deg:
        ``(N,)`` direction of each marker's top edge, degrees CCW from +x, in [0, 360).
    sigma_mm:
        ``(N,)`` 1-sigma position uncertainty, mm (see `place_markers`).
    valid:
        ``(N,)`` False where a marker could not be placed; ``reasons`` says why, and the other
        arrays hold 0 there.
    shared_sigma_mm:
        ``(N,)`` the part of ``sigma_mm`` that every frame shares (the table pose fitted to
        the anchors, which a still camera sees the same way each frame; the lens, the
        anchors' placement, the print scale, the marker's height): averaging frames does
        not reduce it.
    shared_errors, shared_mm, own_cov_mm2:
        The errors the markers share (docs/formats.md, "Errors shared between markers"):
        the names of k independent unit-variance terms; ``(N, k, 2)`` how far one sigma of
        each moves each marker, mm; ``(N, 2, 2)`` each marker's own covariance, mm² (its
        centre's pixel noise and its height's doubt). A marker's covariance is
        ``own_cov_mm2 + Sᵀ S`` with ``S = shared_mm[i]``; two markers' covary by
        ``S_iᵀ S_j``.
    height_move_mm:
        ``(N, 2)`` how far one sigma of its height's doubt moves it (along its camera
        ray, away from the camera for a marker higher than said): part of its own error,
        which every frame repeats (the rest, the pixel noise, averages out over frames)
        and every camera sees (the figure leans the same way for all).
    """

    xy_mm: FloatArray
    heading_deg: FloatArray
    sigma_mm: FloatArray
    valid: BoolArray
    reasons: tuple[str, ...]
    shared_sigma_mm: FloatArray = field(default_factory=lambda: np.zeros(0))
    shared_errors: tuple[str, ...] = ()
    shared_mm: FloatArray = field(default_factory=lambda: np.zeros((0, 0, 2)))
    own_cov_mm2: FloatArray = field(default_factory=lambda: np.zeros((0, 2, 2)))
    height_move_mm: FloatArray = field(default_factory=lambda: np.zeros((0, 2)))


@dataclass(frozen=True, slots=True)
class LocatedMarker:
    """One figure marker on the table (an entry of ``arbitre locate``'s ``markers``)."""

    id: int
    figure: str | None
    x_mm: float
    y_mm: float
    z_mm: float
    height_known: bool
    heading_deg: float
    sigma_mm: float
    shared_sigma_mm: float = 0.0  # the part of sigma_mm every frame shares (not in the JSON)
    shared_mm: tuple[tuple[float, float], ...] = ()
    own_cov_mm2: tuple[tuple[float, float], tuple[float, float]] | None = None
    height_move_mm: tuple[float, float] = (0.0, 0.0)  # not in the JSON: see MarkerPlacement

    @property
    def height_cov_mm2(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """The part of ``own_cov_mm2`` its height's doubt makes."""
        dx, dy = self.height_move_mm
        return (dx * dx, dx * dy), (dx * dy, dy * dy)

    def to_json(self) -> dict[str, Any]:
        """The contract's marker object (mm to 0.001, degrees to 0.01; shared moves to
        0.0001 mm and the own covariance to 1e-6 mm², as they are small)."""
        answer: dict[str, Any] = {
            "id": self.id,
            "figure": self.figure,
            "x_mm": round(self.x_mm, 3),
            "y_mm": round(self.y_mm, 3),
            "z_mm": round(self.z_mm, 3),
            "height_known": self.height_known,
            "heading_deg": round(self.heading_deg, 2),
            "sigma_mm": round(self.sigma_mm, 3),
            "shared_mm": [[round(dx, 4), round(dy, 4)] for dx, dy in self.shared_mm],
        }
        if self.own_cov_mm2 is not None:
            answer["own_cov_mm2"] = [[round(v, 6) for v in row] for row in self.own_cov_mm2]
        return answer


@dataclass(frozen=True, slots=True)
class RejectedMarker:
    """A figure marker seen but not placed on the table, and why."""

    id: int
    reason: str


@dataclass(frozen=True, slots=True)
class PlacedTerrain:
    """A terrain piece of the roster placed on the table by its marker (``marker``)."""

    piece: RosterTerrain
    marker: LocatedMarker

    def feature(self) -> dict[str, Any]:
        """The piece as a scene's terrain feature, in table mm."""
        return self.piece.placed(self.marker.x_mm, self.marker.y_mm, self.marker.heading_deg)

    def to_json(self) -> dict[str, Any]:
        """An entry of ``arbitre locate``'s ``terrain`` (docs/formats.md)."""
        return {**self.feature(), "marker": self.piece.marker}


@dataclass(frozen=True, slots=True)
class AnchorPlace:
    """Where a photo places an anchor's centre on the table (flat, from its own pose), and
    how far that is from where table.yaml says the anchor is (``off_mm``): an anchor glued
    off its place, or a pose the anchors do not agree on, shows here."""

    id: int
    x_mm: float
    y_mm: float
    off_mm: float

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "x_mm": round(self.x_mm, 2),
            "y_mm": round(self.y_mm, 2),
            "off_mm": round(self.off_mm, 2),
        }


@dataclass(frozen=True, slots=True)
class LocateResult:
    """The answer of ``arbitre locate``: the table pose and the figure markers on the table."""

    image_size: tuple[int, int]
    pose: TablePose
    markers: tuple[LocatedMarker, ...]
    markers_rejected: tuple[RejectedMarker, ...] = ()
    terrain: tuple[PlacedTerrain, ...] = ()
    shared_errors: tuple[str, ...] = ()
    anchors_placed: tuple[AnchorPlace, ...] = ()

    @property
    def anchors_seen(self) -> tuple[int, ...]:
        """Ids of the anchors detected in the image."""
        return self.pose.anchors_seen

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``arbitre locate`` (``docs/formats.md``), plus ``anchors_used``,
        ``anchors_rejected`` and ``markers_rejected``."""
        return {
            "image_size": list(self.image_size),
            "anchors_seen": list(self.pose.anchors_seen),
            "table_reprojection_px": round(self.pose.reprojection_px, 3),
            "shared_errors": list(self.shared_errors),
            "markers": [m.to_json() for m in self.markers],
            "anchors_used": list(self.pose.anchors_used),
            "anchors_rejected": [r.to_json() for r in self.pose.anchors_rejected],
            "markers_rejected": [{"id": r.id, "reason": r.reason} for r in self.markers_rejected],
            "terrain": [piece.to_json() for piece in self.terrain],
            "anchors_placed": [place.to_json() for place in self.anchors_placed],
        }


def locate_markers(
    detections: Mapping[int, ArrayLike],
    intrinsics: CameraIntrinsics,
    table: Table,
    roster: Roster | None = None,
    *,
    image_size: tuple[int, int] | None = None,
    corner_noise_px: float | Mapping[int, float] = DEFAULT_CORNER_NOISE_PX,
    height_sigma_mm: float | None = None,
    min_anchors: int = MIN_ANCHORS,
    max_anchor_error_px: float = MAX_ANCHOR_ERROR_PX,
) -> LocateResult | PoseFailure:
    """Locate every figure marker of one frame on the table.

    Parameters
    ----------
    detections:
        Marker id -> its 4 corners ``(4, 2)``, pixels of the original (distorted) image,
        OpenCV's corner order; one entry per id (duplicates are resolved upstream).
    intrinsics:
        The camera; rescaled to ``image_size`` if the frame has another size (same aspect).
    table, roster:
        The anchors; the figures and the heights of their markers. A marker missing from the
        roster (or without ``marker_height_mm``) is located at z = 0 with
        ``height_known=False``.
    image_size:
        ``(width, height)`` of the frame; default: the calibrated size.
    corner_noise_px:
        1-sigma corner noise, pixels (one value, or per marker id); see `place_markers`.
    height_sigma_mm:
        1-sigma uncertainty of the roster heights, added to ``sigma_mm`` (and shared by
        every frame); default `RAISED_HEIGHT_SIGMA_MM` for a marker above the table, 0
        for one on it.
    min_anchors, max_anchor_error_px:
        See `arbitre.calibration.pose.estimate_table_pose`.

    Returns
    -------
    LocateResult | PoseFailure
        The markers (anchors are not listed), or why there is no table pose in this frame
        (naming the anchors seen).
    """
    size = intrinsics.image_size if image_size is None else image_size
    camera = intrinsics.for_image_size(size)
    if roster is not None:
        check_roster_against_table(roster, table)
    if isinstance(corner_noise_px, Mapping):
        anchor_noises = [
            corner_noise_px.get(i, DEFAULT_CORNER_NOISE_PX)
            for i in table.anchor_ids
            if i in detections
        ]
        anchor_noise = float(np.median(anchor_noises)) if anchor_noises else DEFAULT_CORNER_NOISE_PX
    else:
        anchor_noise = float(corner_noise_px)
    pose = estimate_table_pose(
        detections,
        camera,
        table,
        min_anchors=min_anchors,
        max_anchor_error_px=max_anchor_error_px,
        corner_noise_px=anchor_noise,
    )
    if isinstance(pose, PoseFailure):
        return pose
    return locate_with_pose(
        detections,
        camera,
        pose,
        table,
        roster,
        corner_noise_px=corner_noise_px,
        height_sigma_mm=height_sigma_mm,
    )


def locate_with_pose(
    detections: Mapping[int, ArrayLike],
    intrinsics: CameraIntrinsics,
    pose: TablePose,
    table: Table,
    roster: Roster | None = None,
    *,
    corner_noise_px: float | Mapping[int, float] = DEFAULT_CORNER_NOISE_PX,
    height_sigma_mm: float | None = None,
) -> LocateResult:
    """`locate_markers` with a table pose already known (e.g. kept from an earlier frame).

    ``intrinsics`` must be at the frame's size.
    """
    anchor_ids = table.anchor_ids
    ids = sorted(i for i in detections if i not in anchor_ids)
    corners = np.array([marker_corners(i, detections[i]) for i in ids]).reshape(-1, 4, 2)
    figures = [None if roster is None else roster.by_marker(i) for i in ids]
    pieces = [None if roster is None else roster.terrain_by_marker(i) for i in ids]
    heights: list[float | None] = [
        piece.marker_height_mm if piece is not None else None if f is None else f.marker_height_mm
        for f, piece in zip(figures, pieces, strict=True)
    ]
    heights_mm = np.array([0.0 if h is None else h for h in heights])
    if height_sigma_mm is None:  # how sure a raised marker's height is; a flat one's is
        height_sigma = np.where(heights_mm > 0.0, RAISED_HEIGHT_SIGMA_MM, 0.0)
    else:
        height_sigma = np.full(len(ids), float(height_sigma_mm))
    if isinstance(corner_noise_px, Mapping):
        noise = np.array([corner_noise_px.get(i, DEFAULT_CORNER_NOISE_PX) for i in ids])
    else:
        noise = np.full(len(ids), float(corner_noise_px))
    placement = place_markers(
        corners,
        heights_mm,
        intrinsics,
        pose,
        corner_noise_px=noise,
        height_sigma_mm=height_sigma,
        anchor_tolerance_mm=table.anchor_tolerance_mm,
        print_scale_sigma=table.print_scale_sigma,
        intrinsics_covariance=calibration_covariance(intrinsics),
    )
    markers: list[LocatedMarker] = []
    terrain: list[PlacedTerrain] = []
    rejected: list[RejectedMarker] = []
    # as Python floats, read once (indexing numpy arrays one number at a time is slow)
    xy, z = placement.xy_mm.tolist(), heights_mm.tolist()
    heading, sigma = placement.heading_deg.tolist(), placement.sigma_mm.tolist()
    shared = placement.shared_sigma_mm.tolist()
    moves, own = placement.shared_mm.tolist(), placement.own_cov_mm2.tolist()
    height_moves = placement.height_move_mm.tolist()
    for k, marker_id in enumerate(ids):
        if not placement.valid[k]:
            rejected.append(RejectedMarker(marker_id, placement.reasons[k]))
            continue
        figure = figures[k]
        located = LocatedMarker(
            id=marker_id,
            figure=None if figure is None else figure.name,
            x_mm=xy[k][0],
            y_mm=xy[k][1],
            z_mm=z[k],
            height_known=heights[k] is not None,
            heading_deg=heading[k],
            sigma_mm=sigma[k],
            shared_sigma_mm=shared[k],
            shared_mm=tuple((dx, dy) for dx, dy in moves[k]),
            own_cov_mm2=_pair_of_pairs(own[k]),
            height_move_mm=(height_moves[k][0], height_moves[k][1]),
        )
        piece = pieces[k]
        if piece is None:
            markers.append(located)
        else:
            terrain.append(PlacedTerrain(piece, located))
    return LocateResult(
        intrinsics.image_size,
        pose,
        tuple(markers),
        tuple(rejected),
        tuple(terrain),
        placement.shared_errors,
        _anchor_places(detections, intrinsics, pose, table),
    )


def _anchor_places(
    detections: Mapping[int, ArrayLike], intrinsics: CameraIntrinsics, pose: TablePose, table: Table
) -> tuple[AnchorPlace, ...]:
    """Each anchor seen, placed flat on the table from its centre in the image."""
    anchors = [a for a in table.anchors if a.id in detections]
    if not anchors:
        return ()
    corners = np.array([marker_corners(a.id, detections[a.id]) for a in anchors])
    try:
        placed = pixels_to_table(diagonal_intersections(corners), 0.0, intrinsics, pose).tolist()
    except CalibrationError:  # an anchor's ray misses the table: no place to give
        return ()
    return tuple(
        AnchorPlace(a.id, x, y, math.hypot(x - a.x_mm, y - a.y_mm))
        for a, (x, y) in zip(anchors, placed, strict=True)
    )


UNKNOWN_FOCAL_SIGMA = 0.01
"""1-sigma relative error of fx and fy assumed for a camera file that does not say (1 %)."""

UNKNOWN_PRINCIPAL_SIGMA = 0.01
"""1-sigma error of cx, cy assumed for a camera file that does not say, as a share of the
image's width and height."""

UNKNOWN_FOCAL_CORRELATION = 0.98
"""The correlation of the errors of fx and fy assumed for a camera file that does not say.
A calibration knows the pixels' aspect far better than the focal length: fx and fy err
together. Both real calibrations of the project's test photographs (13 chessboard views,
fx to 0.08 %; 4 ChArUco views, fx to 3.5 %) have them correlated by 0.98."""


def calibration_covariance(intrinsics: CameraIntrinsics) -> FloatArray:
    """The covariance of ``(fx, fy, cx, cy, *dist_coeffs)``: the calibration's own when the
    camera file has it (``arbitre calibrate camera`` writes it), else one from
    `UNKNOWN_FOCAL_SIGMA`, `UNKNOWN_FOCAL_CORRELATION` and `UNKNOWN_PRINCIPAL_SIGMA` (the
    distortion coefficients taken as exact).

    >>> from arbitre.calibration.camera import CameraIntrinsics
    >>> camera = CameraIntrinsics((1920, 1080), [[1000, 0, 960], [0, 1000, 540], [0, 0, 1]],
    ...                           [0, 0, 0, 0, 0])
    >>> covariance = calibration_covariance(camera)
    >>> covariance[:2, :2].tolist(), np.sqrt(np.diag(covariance)[2:4]).round(1).tolist()
    ([[100.0, 98.0], [98.0, 100.0]], [19.2, 10.8])
    """
    if intrinsics.covariance is not None:
        return np.asarray(intrinsics.covariance, dtype=np.float64)
    width, height = intrinsics.image_size
    covariance = np.zeros((4 + len(intrinsics.dist_coeffs),) * 2)
    focal = UNKNOWN_FOCAL_SIGMA * np.array([intrinsics.fx, intrinsics.fy])
    covariance[:2, :2] = np.outer(focal, focal) * [
        [1.0, UNKNOWN_FOCAL_CORRELATION],
        [UNKNOWN_FOCAL_CORRELATION, 1.0],
    ]
    covariance[2, 2] = (UNKNOWN_PRINCIPAL_SIGMA * width) ** 2
    covariance[3, 3] = (UNKNOWN_PRINCIPAL_SIGMA * height) ** 2
    return covariance


def place_markers(
    corners_px: ArrayLike,
    heights_mm: ArrayLike,
    intrinsics: CameraIntrinsics,
    pose: TablePose,
    *,
    corner_noise_px: ArrayLike = DEFAULT_CORNER_NOISE_PX,
    height_sigma_mm: ArrayLike = 0.0,
    anchor_tolerance_mm: float = 0.0,
    print_scale_sigma: float = 0.0,
    intrinsics_covariance: ArrayLike | None = None,
) -> MarkerPlacement:
    """Place N markers on the table from their corners and heights.

    Parameters
    ----------
    corners_px:
        ``(N, 4, 2)`` corners in pixels of the original (distorted) image, OpenCV's order.
    heights_mm:
        ``(N,)`` (or one number) height of each marker above the table, mm.
    intrinsics, pose:
        The camera (at the image's size) and the table pose.
    corner_noise_px:
        ``(N,)`` or one number: 1-sigma noise of a corner along each image axis, pixels, e.g.
        the corner refinement residual (default 0.15 px).
    height_sigma_mm:
        ``(N,)`` or one number: 1-sigma uncertainty of the heights, mm.
    anchor_tolerance_mm, print_scale_sigma:
        How well the anchors the pose rests on are known: 1-sigma error of each one's
        glued position (per axis, mm) and of the printed markers' scale (relative).
    intrinsics_covariance:
        ``(4 + n, 4 + n)`` covariance of ``(fx, fy, cx, cy, *dist_coeffs)``
        (`calibration_covariance`), or None to leave the lens out.

    Returns
    -------
    MarkerPlacement
        Positions, headings and uncertainties.

    **What sigma_mm means.** It is one standard deviation, in mm, of the horizontal position
    along its least certain direction: the square root of the largest eigenvalue of the 2x2
    covariance of ``(x_mm, y_mm)``. That covariance is the sum of

    - the centre's pixel noise through the ray-plane Jacobian ``d(x, y)/d(u, v)``: the centre
      averages 4 corners, so its noise is ``s_c / 2`` per axis, where the corner noise
      ``s_c = corner_noise_px * max(1, SMALL_MARKER_PX / side_px)`` grows for markers whose
      shortest side is small in pixels (small, or seen aslant);
    - the table pose's uncertainty (``pose.covariance``, from the anchors' residuals) through
      ``d(x, y)/d(rvec, tvec)``: it grows with few anchors, or anchors on one line. A still
      camera sees the anchors the same way every frame, so this part is shared: averaging
      frames does not reduce it;
    - the height uncertainty through ``d(x, y)/dh``;
    - what the pose and the rays rest on but the image cannot tell: the lens
      (``intrinsics_covariance``), the anchors' glued positions and the print scale. Each
      moves the marker's ray and the pose fitted to the anchors (``dp = -(A^T A)^-1 A^T B
      dq`` with ``A`` and ``B`` the anchor corners' Jacobians in the pose and in that
      source), and the marker moves with both.

    The terms are first-order (linearised) and assume independent Gaussian errors. With
    zero corner noise, a perfectly fitting pose and nothing else uncertain, sigma_mm is 0.
    """
    corners = np.asarray(corners_px, dtype=np.float64).reshape(-1, 4, 2)
    n = len(corners)
    heights = np.broadcast_to(np.asarray(heights_mm, dtype=np.float64), (n,)).copy()
    noise = np.broadcast_to(np.asarray(corner_noise_px, dtype=np.float64), (n,)).copy()
    height_sigma = np.broadcast_to(np.asarray(height_sigma_mm, dtype=np.float64), (n,)).copy()
    if not (np.all(np.isfinite(corners)) and np.all(np.isfinite(heights))):
        raise CalibrationError("marker corners and heights must be finite")
    uncertainties = (anchor_tolerance_mm, print_scale_sigma)
    if (
        np.any(noise < 0)
        or not np.all(np.isfinite(noise))
        or np.any(height_sigma < 0)
        or not np.all(np.isfinite(height_sigma))
        or not all(math.isfinite(u) and u >= 0 for u in uncertainties)
    ):
        raise CalibrationError("noise and uncertainties must be finite and >= 0")
    if n == 0:
        empty = np.zeros((0,))
        return MarkerPlacement(
            np.zeros((0, 2)), empty, empty.copy(), np.zeros(0, bool), (), empty.copy()
        )
    sources = _ModelSources(
        anchor_tolerance_mm,
        print_scale_sigma,
        None
        if intrinsics_covariance is None
        else np.asarray(intrinsics_covariance, dtype=np.float64),
    )

    normalised, _, corner_undistorted = _undistort(corners.reshape(-1, 2), intrinsics)
    normalised = normalised.reshape(n, 4, 2)
    undistorted_ok = np.all(corner_undistorted.reshape(n, 4), axis=1)

    centre = diagonal_intersections(normalised)
    rotation, camera_centre = pose.rotation, pose.camera_centre_mm
    centre_xy, centre_ok = _rays_to_plane(centre, heights, rotation, camera_centre)
    corner_xy, corner_ok = _rays_to_plane(
        normalised.reshape(-1, 2), np.repeat(heights, 4), rotation, camera_centre
    )
    corner_xy = corner_xy.reshape(n, 4, 2)
    top = (corner_xy[:, 0] + corner_xy[:, 1]) / 2 - (corner_xy[:, 3] + corner_xy[:, 2]) / 2
    flat_heading = np.degrees(np.arctan2(top[:, 1], top[:, 0])) % 360.0

    diagonal_ok = np.all(np.isfinite(centre), axis=1)
    plane_ok = centre_ok & corner_ok.reshape(n, 4).all(axis=1)
    valid = undistorted_ok & diagonal_ok & plane_ok

    heading = flat_heading.copy()
    if np.any(valid):
        sides = np.linalg.norm(corner_xy - corner_xy[:, [3, 0, 1, 2]], axis=2)
        heading[valid] = tilted_headings(
            normalised[valid],
            centre_xy[valid],
            heights[valid],
            rotation,
            camera_centre,
            noise[valid],
            float(intrinsics.fx + intrinsics.fy) / 2.0,
            flat_heading[valid],
            sides[valid].mean(axis=1) / 2.0,
        )

    names = _shared_names(pose, intrinsics, sources)
    errors = _Errors(
        np.zeros(n),
        np.zeros(n),
        np.zeros((n, len(names), 2)),
        np.zeros((n, 2, 2)),
        np.zeros((n, 2)),
    )
    if np.any(valid):
        found = _errors(
            corners[valid],
            centre[valid],
            heights[valid],
            noise[valid],
            height_sigma[valid],
            intrinsics,
            pose,
            sources,
        )
        for name in ("sigma_mm", "frames_shared_mm", "shared_mm", "own_cov_mm2", "height_move_mm"):
            getattr(errors, name)[valid] = getattr(found, name)
    reasons = tuple(
        ""
        if valid[k]
        else "outside the calibrated lens model"
        if not undistorted_ok[k]
        else "degenerate corners"
        if not diagonal_ok[k]
        else "its ray does not meet the plane of its height in front of the camera"
        for k in range(n)
    )
    xy = np.where(valid[:, None], centre_xy, 0.0)
    return MarkerPlacement(
        xy,
        np.where(valid, heading, 0.0),
        errors.sigma_mm,
        valid,
        reasons,
        errors.frames_shared_mm,
        names,
        errors.shared_mm,
        errors.own_cov_mm2,
        errors.height_move_mm,
    )


def pixels_to_table(
    pixels_px: ArrayLike, heights_mm: ArrayLike, intrinsics: CameraIntrinsics, pose: TablePose
) -> FloatArray:
    """The table points directly below the points at ``heights_mm`` seen at ``pixels_px``.

    Parameters
    ----------
    pixels_px:
        ``(N, 2)`` pixels of the original (distorted) image.
    heights_mm:
        ``(N,)`` or one number: the height of each point above the table, mm.

    Returns
    -------
    ``(N, 2)`` float64 table mm.

    Raises
    ------
    CalibrationError
        If a pixel lies outside the lens model or its ray misses the plane in front of the
        camera.
    """
    pixels = np.asarray(pixels_px, dtype=np.float64).reshape(-1, 2)
    heights = np.broadcast_to(np.asarray(heights_mm, dtype=np.float64), (len(pixels),))
    normalised, _, ok = _undistort(pixels, intrinsics)
    xy, plane_ok = _rays_to_plane(normalised, heights, pose.rotation, pose.camera_centre_mm)
    bad = np.flatnonzero(~(ok & plane_ok))
    if bad.size:
        k = int(bad[0])
        raise CalibrationError(
            f"pixel {pixels[k].tolist()} at height {float(heights[k]):g} mm does not map to the "
            "table (outside the lens model, or its ray misses the plane)"
        )
    return xy


# ---------------------------------------------------------------------------------------------


def _undistort(
    pixels: FloatArray, intrinsics: CameraIntrinsics
) -> tuple[FloatArray, FloatArray, BoolArray]:
    """Normalised coordinates ``(M, 2)`` of distorted pixels, with ``d(pixel)/d(normalised)``
    ``(M, 2, 2)`` and whether each converged on the lens model's invertible side."""
    m = len(pixels)
    k, d = intrinsics.camera_matrix, intrinsics.dist_coeffs
    guess = cv2.undistortPoints(pixels.reshape(-1, 1, 2), k, d)
    xy = np.asarray(guess, dtype=np.float64).reshape(m, 2)
    jac = np.zeros((m, 2, 2))
    residual = np.full(m, np.inf)
    for _ in range(20):
        projected, jac = _project_normalised(xy, intrinsics)
        error = pixels - projected
        residual = np.linalg.norm(error, axis=1)
        if np.all(residual < _NEWTON_TOLERANCE_PX):
            break
        det = jac[:, 0, 0] * jac[:, 1, 1] - jac[:, 0, 1] * jac[:, 1, 0]
        safe = np.abs(det) > 1e-12
        step = np.zeros_like(xy)
        inverse_det = np.where(safe, 1.0 / np.where(safe, det, 1.0), 0.0)
        step[:, 0] = (jac[:, 1, 1] * error[:, 0] - jac[:, 0, 1] * error[:, 1]) * inverse_det
        step[:, 1] = (-jac[:, 1, 0] * error[:, 0] + jac[:, 0, 0] * error[:, 1]) * inverse_det
        xy = xy + step
    det = jac[:, 0, 0] * jac[:, 1, 1] - jac[:, 0, 1] * jac[:, 1, 0]
    ok = (residual < _CONVERGED_PX) & (det > 0) & np.all(np.isfinite(xy), axis=1)
    return xy, jac, ok


def _project_normalised(
    xy: FloatArray, intrinsics: CameraIntrinsics
) -> tuple[FloatArray, FloatArray]:
    """Pixels of normalised points and ``d(pixel)/d(normalised)``, ``(M, 2)`` and
    ``(M, 2, 2)``: the camera-frame point ``(x, y, 1)`` moved by ``tvec`` is the point moved."""
    points = np.column_stack([xy, np.ones(len(xy))]).reshape(-1, 1, 3)
    zero = np.zeros(3)
    projected, jacobian = cv2.projectPoints(
        points, zero, zero, intrinsics.camera_matrix, intrinsics.dist_coeffs
    )
    jac = np.asarray(jacobian, dtype=np.float64)[:, 3:5].reshape(len(xy), 2, 2)
    return np.asarray(projected, dtype=np.float64).reshape(-1, 2), jac


def _rays_to_plane(
    normalised: FloatArray, heights: FloatArray, rotation: FloatArray, camera_centre: FloatArray
) -> tuple[FloatArray, BoolArray]:
    """Where the rays through normalised points meet ``z = height``: ``(M, 2)`` and ok.

    Leading axes of ``normalised`` ``(..., M, 2)``, ``rotation`` ``(..., 3, 3)`` and
    ``camera_centre`` ``(..., 3)`` broadcast: several poses, or several sets of points,
    in one call.
    """
    ones = np.ones(normalised.shape[:-1] + (1,))
    rays = np.concatenate([normalised, ones], axis=-1) @ rotation  # rows of R^T d
    dz = rays[..., 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = (heights - camera_centre[..., None, 2]) / dz
    ok = np.isfinite(scale) & (scale > 0) & np.all(np.isfinite(normalised), axis=-1)
    scale = np.where(ok, scale, 0.0)
    xy = camera_centre[..., None, :2] + scale[..., None] * rays[..., :2]
    return xy, ok


@dataclass(frozen=True, slots=True)
class _ModelSources:
    """What a placement rests on besides the image: anchors, print scale, lens."""

    anchor_tolerance_mm: float
    print_scale_sigma: float
    intrinsics_covariance: FloatArray | None

    @property
    def any(self) -> bool:
        lens = self.intrinsics_covariance is not None and bool(np.any(self.intrinsics_covariance))
        return self.anchor_tolerance_mm > 0 or self.print_scale_sigma > 0 or lens


@dataclass(frozen=True, slots=True)
class _Errors:
    """What `_errors` finds for N markers (see `MarkerPlacement`)."""

    sigma_mm: FloatArray  # (N,)
    frames_shared_mm: FloatArray  # (N,) what averaging frames leaves
    shared_mm: FloatArray  # (N, k, 2) what the markers share, per unit term
    own_cov_mm2: FloatArray  # (N, 2, 2) what each has alone
    height_move_mm: FloatArray  # (N, 2) one sigma of its height's doubt


_POSE_TERMS = ("pose_rx", "pose_ry", "pose_rz", "pose_tx", "pose_ty", "pose_tz")
_LENS_TERMS = (  # OpenCV's order
    *("fx", "fy", "cx", "cy", "k1", "k2", "p1", "p2", "k3", "k4", "k5", "k6"),
    *("s1", "s2", "s3", "s4", "tau_x", "tau_y"),
)


def _shared_names(
    pose: TablePose, intrinsics: CameraIntrinsics, sources: _ModelSources
) -> tuple[str, ...]:
    """The names of the shared error terms, in `_errors`' order: the pose's six, each
    anchor's slides along x and y, the print scale, the lens's parameters."""
    names = list(_POSE_TERMS)
    if len(pose.anchor_corners_mm):
        if sources.anchor_tolerance_mm > 0:
            names += [f"anchor_{a}_{axis}" for a in pose.anchors_used for axis in "xy"]
        if sources.print_scale_sigma > 0:
            names.append("print_scale")
        lens = sources.intrinsics_covariance
        if lens is not None and np.any(lens):
            names += list(_LENS_TERMS[: len(lens)])
    return tuple(names)


def _square_root(covariance: FloatArray) -> FloatArray:
    """The symmetric square root ``L`` of a covariance (``L Lᵀ = covariance``): its
    column i is how the i-th parameter's own doubt, with what it drags along, moves all."""
    values, vectors = np.linalg.eigh((covariance + covariance.T) / 2.0)
    return np.asarray((vectors * np.sqrt(np.maximum(values, 0.0))) @ vectors.T, dtype=np.float64)


def _errors(
    corners: FloatArray,
    centre: FloatArray,
    heights: FloatArray,
    noise: FloatArray,
    height_sigma_mm: FloatArray,
    intrinsics: CameraIntrinsics,
    pose: TablePose,
    sources: _ModelSources,
) -> _Errors:
    """Each marker's error: 1-sigma along its worst direction, mm; the part every frame
    shares (the pose, the heights and the model's sources); the moves of the terms all
    markers share; its own covariance (see `MarkerPlacement`)."""
    n = len(corners)
    rotation, camera_centre = pose.rotation, pose.camera_centre_mm

    # d(x, y)/d(normalised centre), by central differences.
    step = 1e-6
    offsets = np.array([[step, 0.0], [-step, 0.0], [0.0, step], [0.0, -step]])
    moved, _ = _rays_to_plane(centre + offsets[:, None, :], heights, rotation, camera_centre)
    d_plane = np.stack([moved[0] - moved[1], moved[2] - moved[3]], axis=-1) / (2 * step)
    # d(normalised)/d(pixel) at the centre: the inverse of the projection's Jacobian there.
    _, centre_jacobian = _project_normalised(centre, intrinsics)
    j_pixel = d_plane @ inverse_2x2(centre_jacobian)

    edges = np.linalg.norm(corners - corners[:, [1, 2, 3, 0]], axis=2)
    side_px = edges.min(axis=1)  # a marker seen aslant is pinned by its shortest side
    corner_sigma = noise * np.maximum(1.0, SMALL_MARKER_PX / np.maximum(side_px, 1e-9))
    centre_sigma = corner_sigma / 2.0
    own = (centre_sigma**2)[:, None, None] * (j_pixel @ np.transpose(j_pixel, (0, 2, 1)))

    # The pose: d(x, y)/d(rvec, tvec) by central differences.
    pose_covariance = np.asarray(pose.covariance, dtype=np.float64)
    j_pose = np.zeros((n, 2, 6))
    if np.any(pose_covariance) or sources.any:
        deltas = np.array([1e-7, 1e-7, 1e-7, 1e-4, 1e-4, 1e-4])
        shifts = np.concatenate([np.diag(deltas), np.diag(-deltas)])
        shifted = np.concatenate([pose.rvec, pose.tvec]) + shifts  # (12, 6): +, then -
        rotations = np.array([cv2.Rodrigues(row[:3])[0] for row in shifted], dtype=np.float64)
        cameras = -(np.transpose(rotations, (0, 2, 1)) @ shifted[:, 3:, None])[..., 0]
        moved, _ = _rays_to_plane(centre, heights, rotations, cameras)
        j_pose = np.transpose((moved[:6] - moved[6:]) / (2 * deltas)[:, None, None], (1, 2, 0))
    # The pose's own error is shared too, between markers (one pose places them all) and
    # between frames: the anchors do not move, and on a still camera their corners come
    # out the same way frame after frame, so averaging frames leaves it.
    moves = [j_pose @ _square_root(pose_covariance)]  # (n, 2, 6)
    if len(pose.anchor_corners_mm):
        moves.append(_model_moves(centre, d_plane, j_pose, intrinsics, pose, sources))
    shared = np.concatenate(moves, axis=2)  # (n, 2, k)
    shared_covariance = shared @ np.transpose(shared, (0, 2, 1))

    if np.any(height_sigma_mm > 0):
        # a figure stands (and its marker sits) the same way in every frame, but not as
        # its neighbours do: its own, and shared between frames
        # d(x, y)/dh: the ray's horizontal run per unit of its rise
        rays = np.column_stack([centre, np.ones(n)]) @ rotation
        height_move = height_sigma_mm[:, None] * rays[:, :2] / rays[:, 2:3]
    else:
        height_move = np.zeros((n, 2))
    height = height_move[:, :, None] * height_move[:, None, :]
    own += height

    largest = largest_eigenvalue(own + shared_covariance)
    largest_shared = largest_eigenvalue(shared_covariance + height)
    return _Errors(
        np.sqrt(np.maximum(largest, 0.0)),
        np.sqrt(np.maximum(largest_shared, 0.0)),
        np.transpose(shared, (0, 2, 1)),
        own,
        height_move,
    )


def _pair_of_pairs(rows: list[list[float]]) -> tuple[tuple[float, float], tuple[float, float]]:
    """A 2 x 2 matrix as nested tuples (a frozen marker's field)."""
    return (rows[0][0], rows[0][1]), (rows[1][0], rows[1][1])


def inverse_2x2(matrices: FloatArray) -> FloatArray:
    """The inverses of ``(N, 2, 2)`` matrices, by their adjugate over their determinant.

    np.linalg.inv spends most of its time at this size checking and dispatching; a
    singular or non-finite matrix is still left to it, so that it raises (or gives NaN)
    as before.
    """
    a, b = matrices[:, 0, 0], matrices[:, 0, 1]
    c, d = matrices[:, 1, 0], matrices[:, 1, 1]
    det = a * d - b * c
    if not (np.isfinite(det) & (det != 0.0)).all():
        return np.asarray(np.linalg.inv(matrices), dtype=np.float64)
    adjugate = np.stack([d, -b, -c, a], axis=1).reshape(-1, 2, 2)
    return np.asarray(adjugate / det[:, None, None], dtype=np.float64)


def largest_eigenvalue(matrices: FloatArray) -> FloatArray:
    """The largest eigenvalue of each symmetric ``(N, 2, 2)`` matrix: half the trace plus
    half the distance between the roots. Like np.linalg.eigvalsh, it reads the lower
    triangle; a non-finite matrix is left to eigvalsh, which decides what it gives."""
    if not np.isfinite(matrices).all():
        return np.asarray(np.linalg.eigvalsh(matrices)[:, -1], dtype=np.float64)
    a, b, d = matrices[:, 0, 0], matrices[:, 1, 0], matrices[:, 1, 1]
    return np.asarray(0.5 * ((a + d) + np.hypot(a - d, 2.0 * b)), dtype=np.float64)


def _model_moves(
    centre: FloatArray,
    d_plane: FloatArray,
    j_pose: FloatArray,
    intrinsics: CameraIntrinsics,
    pose: TablePose,
    sources: _ModelSources,
) -> FloatArray:
    """``(N, 2, m)``: how one sigma of each of the model's sources moves each marker, in
    the order of `_shared_names` (each anchor's slide along x and y, the print scale, the
    lens's parameters, each with what it drags along).

    A source ``q`` moves the anchor corners' projections by ``B dq``; the pose refitted
    to them moves by ``dp = -(A^T A)^-1 A^T B dq``; a marker moves by ``P dp`` (``P`` =
    ``j_pose``), and for the lens also by ``D dn``, its ray turning by ``dn = -(dpi/dn)^-1
    (dpi/dq) dq`` for the same pixel (``D`` = ``d_plane``).
    """
    corners = pose.anchor_corners_mm
    projected = cv2.projectPoints(
        corners.reshape(-1, 1, 3),
        pose.rvec,
        pose.tvec,
        intrinsics.camera_matrix,
        intrinsics.dist_coeffs,
    )[1]
    jacobian = np.asarray(projected, dtype=np.float64)
    a = jacobian[:, :6]
    refit = -np.linalg.pinv(a.T @ a) @ a.T  # (6, 2k): dp per unit of projection moved
    j_translation = jacobian[:, 3:6].reshape(-1, 2, 3)  # d(corner pixel)/d(corner, camera)
    rotation = pose.rotation
    n = len(centre)

    # One column of ``b`` per source: how far one sigma of it moves the anchors'
    # projections (an anchor sliding along x or y, the print scale).
    blocks = len(corners) // 4
    columns: list[FloatArray] = []
    if sources.anchor_tolerance_mm > 0:
        # per corner (4k, 2, 2): its pixel's move as its anchor slides along table x and y
        sliding = j_translation[: 4 * blocks] @ rotation[:, :2]
        for k in range(blocks):
            for axis in range(2):
                b = np.zeros((len(corners), 2))
                b[4 * k : 4 * k + 4] = sliding[4 * k : 4 * k + 4, :, axis]
                columns.append(sources.anchor_tolerance_mm * b.reshape(-1))
    if sources.print_scale_sigma > 0:
        block = corners[: 4 * blocks].reshape(blocks, 4, 3)
        outward = (block - block.mean(axis=1, keepdims=True)) @ rotation.T  # camera frame, per unit
        b = np.zeros((len(corners), 2))
        b[: 4 * blocks] = (j_translation[: 4 * blocks] @ outward.reshape(-1, 3, 1))[:, :, 0]
        columns.append(sources.print_scale_sigma * b.reshape(-1))
    moves = [j_pose @ (refit @ np.column_stack(columns))] if columns else []
    lens = sources.intrinsics_covariance
    if lens is not None and np.any(lens):
        count = len(lens)
        b_lens = jacobian[:, 6 : 6 + count]  # (2k, count): d(anchor pixel)/d(intrinsics)
        # d(normalised ray of each marker)/d(intrinsics), at its centre's pixel
        points = np.column_stack([centre, np.ones(n)]).reshape(-1, 1, 3)
        zero = np.zeros(3)
        marker_jacobian = np.asarray(
            cv2.projectPoints(points, zero, zero, intrinsics.camera_matrix, intrinsics.dist_coeffs)[
                1
            ],
            dtype=np.float64,
        ).reshape(n, 2, -1)
        d_pixel_d_ray = marker_jacobian[:, :, 3:5]
        d_pixel_d_lens = marker_jacobian[:, :, 6 : 6 + count]
        d_ray = -(inverse_2x2(d_pixel_d_ray) @ d_pixel_d_lens)  # (n, 2, count)
        through_pose = j_pose @ (refit @ b_lens)
        total = through_pose + d_plane @ d_ray  # (n, 2, count)
        moves.append(total @ _square_root(lens))
    return np.concatenate(moves, axis=2) if moves else np.zeros((n, 2, 0))


__all__ = [
    "UNKNOWN_FOCAL_CORRELATION",
    "UNKNOWN_FOCAL_SIGMA",
    "UNKNOWN_PRINCIPAL_SIGMA",
    "LocateResult",
    "LocatedMarker",
    "MarkerPlacement",
    "PlacedTerrain",
    "PoseFailure",
    "RejectedAnchor",
    "RejectedMarker",
    "TablePose",
    "calibration_covariance",
    "locate_markers",
    "locate_with_pose",
    "pixels_to_table",
    "place_markers",
]
