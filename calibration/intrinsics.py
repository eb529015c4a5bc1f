"""Camera calibration from views of a ChArUco board or a chessboard.

`calibrate_camera` finds the board in each image, rejects the images it cannot use (each with
its reason), runs ``cv2.calibrateCamera`` and drops the views that do not fit the others
before a final run. Too few usable views is an expected failure: a `CalibrationFailure`
value carrying its message, never an exception. So is a degenerate calibration: views that
repeat one another count once (`SAME_VIEW_PX`), and a result the views did not constrain
(a focal length no lens has, fx and fy far apart, a focal length uncertain by more than
25 %) is refused rather than written, however small its RMS.

Board corners:

- ChArUco: ``cv2.aruco.CharucoDetector.detectBoard``. OpenCV before 4.14 returns the
  ChArUco corners shifted by +0.5 px in u and v (opencv/opencv#25539); the shift is removed
  here for those versions, so every version gives the same corners.
- Chessboard: ``cv2.findChessboardCorners`` refined by ``cv2.cornerSubPix`` with a (5, 5)
  half-window (a wider window pulls the corners of small squares off by pixels), falling back
  to ``cv2.findChessboardCornersSB``. ``board.yaml`` counts squares; a chessboard counted by
  its inner corners (the usual "9x6" board written ``squares_x: 9, squares_y: 6``) is caught
  on the first few images, before the slow search in all of them: ``findChessboardCornersSB``
  would find part of the board and the calibration would come out wrong.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from arbitre.calibration.board import Board
from arbitre.calibration.camera import CameraIntrinsics
from arbitre.calibration.errors import CalibrationError
from arbitre.calibration.progress import Progress, Steps
from arbitre.vision.images import ImageReadError, read_image

FloatArray = NDArray[np.float64]

MIN_CHARUCO_CORNERS = 6
"""Fewest ChArUco corners a view needs to be used."""

RECOMMENDED_VIEWS = 10
"""Below this many views the result carries a warning: the intrinsics are poorly constrained."""

SAME_VIEW_PX = 2.0
"""Two views whose shared corners all lie within this many pixels of each other are one
view (the same photo twice, or the camera and board not moved): the second adds nothing."""

MIN_FIELD_OF_VIEW_DEG = 1.0
MAX_FIELD_OF_VIEW_DEG = 170.0
"""A focal length giving a field of view outside these, across the image's width (fx) or
height (fy), is no lens's: the views did not constrain the camera."""

MIN_TILT_DEG = 10.0
"""Least tilt of the board to the image plane some view must have: a board seen square-on
shows no foreshortening, and only foreshortening measures the focal length."""

MIN_SPREAD_DEG = 10.0
"""Below this angle between the board's directions in any two views, the result carries a
warning: planes (nearly) parallel to one another constrain the camera as one plane does."""

MAX_PIXEL_ASPECT = 1.5
"""Largest ratio of fx to fy (or fy to fx): anamorphic video modes reach 4:3."""

MAX_FOCAL_UNCERTAINTY = 0.25
"""Largest relative 1-sigma uncertainty of fx or fy a calibration may keep."""

COUNT_CHECK_IMAGES = 3
"""How many images are searched for a chessboard one square larger each way than board.yaml
says, to catch counts of inner corners written as counts of squares."""

_SUBPIX_HALF_WINDOW = (5, 5)
_SUBPIX_CRITERIA = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 30, 1e-4)
_CHESSBOARD_FLAGS = (
    cv2.CALIB_CB_ADAPTIVE_THRESH + cv2.CALIB_CB_NORMALIZE_IMAGE + cv2.CALIB_CB_FAST_CHECK
)
_CHESSBOARD_SB_FLAGS = cv2.CALIB_CB_EXHAUSTIVE + cv2.CALIB_CB_ACCURACY


def _opencv_version() -> tuple[int, int]:
    match = re.match(r"(\d+)\.(\d+)", cv2.__version__)
    return (int(match.group(1)), int(match.group(2))) if match else (0, 0)


CHARUCO_HALF_PIXEL_BIAS = _opencv_version() < (4, 14)
"""True when this OpenCV's ChArUco corners carry the +0.5 px bias fixed in 4.14."""


@dataclass(frozen=True, slots=True)
class RejectedImage:
    """An image left out of a calibration, and why (``"board not found"`` ...)."""

    name: str
    reason: str

    def to_json(self) -> dict[str, str]:
        """``{"image": name, "reason": reason}``."""
        return {"image": self.name, "reason": self.reason}


@dataclass(frozen=True, slots=True, eq=False)
class BoardView:
    """The board corners found in one image.

    Attributes
    ----------
    image_points_px:
        ``(N, 2)`` float64, pixels of the (distorted) image.
    object_points_mm:
        ``(N, 3)`` float64, the same corners on the board, mm, z = 0.
    corner_ids:
        ``(N,)`` int, ChArUco corner ids, or the chessboard corner index.
    markers_found:
        ArUco markers of the board seen (0 for a chessboard).
    """

    name: str
    image_size: tuple[int, int]
    image_points_px: FloatArray
    object_points_mm: FloatArray
    corner_ids: NDArray[np.int64]
    markers_found: int = 0


@dataclass(frozen=True, slots=True)
class CalibrationResult:
    """A successful calibration.

    ``per_view_rms_px`` and ``corners_per_view`` follow ``images_used``;
    ``std_fx_fy_cx_cy_px`` holds the 1-sigma uncertainties OpenCV estimates for fx, fy, cx,
    cy; ``legacy_pattern`` is the ChArUco layout used (None for a chessboard).
    """

    intrinsics: CameraIntrinsics
    rms_px: float
    images_used: tuple[str, ...]
    images_rejected: tuple[RejectedImage, ...]
    per_view_rms_px: tuple[float, ...]
    corners_per_view: tuple[int, ...]
    std_fx_fy_cx_cy_px: tuple[float, float, float, float]
    legacy_pattern: bool | None
    warnings: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The answer of ``arbitre calibrate camera --json`` (see ``docs/formats.md``).

        ``images_used`` lists the names of the images used; ``images_rejected`` holds
        ``{"image", "reason"}`` objects.
        """
        return {
            "rms_px": round(self.rms_px, 4),
            "images_used": list(self.images_used),
            "images_rejected": [r.to_json() for r in self.images_rejected],
            "camera_matrix": [[float(v) for v in row] for row in self.intrinsics.camera_matrix],
            "dist_coeffs": [float(v) for v in self.intrinsics.dist_coeffs],
            "image_size": list(self.intrinsics.image_size),
            "per_view_rms_px": [round(v, 4) for v in self.per_view_rms_px],
            "corners_per_view": list(self.corners_per_view),
            "std_fx_fy_cx_cy_px": [round(v, 4) for v in self.std_fx_fy_cx_cy_px],
            "warnings": list(self.warnings),
        }


@dataclass(frozen=True, slots=True)
class CalibrationFailure:
    """A calibration that could not be made (too few usable views ...); ``message`` says why."""

    message: str
    images_used: tuple[str, ...]
    images_rejected: tuple[RejectedImage, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"error": message, "images_used": [...], "images_rejected": [...]}``."""
        return {
            "error": self.message,
            "images_used": list(self.images_used),
            "images_rejected": [r.to_json() for r in self.images_rejected],
        }


ImageInput = Mapping[str, NDArray[Any]] | Iterable[tuple[str, NDArray[Any] | None]]
"""Named images: a mapping name -> image, or (name, image) pairs; an image may be None
(unreadable), which rejects it."""


def find_board(
    image: NDArray[Any], board: Board, *, name: str = "image", legacy_pattern: bool | None = None
) -> BoardView | RejectedImage:
    """Find the board's corners in one image (greyscale, BGR or BGRA, 8-bit).

    ``legacy_pattern`` overrides the board's ChArUco layout setting.

    Returns
    -------
    BoardView | RejectedImage
        The corners, or the reason the image cannot be used.
    """
    grey = _grey(image)
    if isinstance(grey, str):
        return RejectedImage(name, grey)
    size = (int(grey.shape[1]), int(grey.shape[0]))
    if board.type == "chessboard":
        return _find_chessboard(grey, board, name, size)
    return _find_charuco(grey, board, name, size, legacy_pattern)


def calibrate_camera(
    images: ImageInput,
    board: Board,
    *,
    flags: int = 0,
    min_views: int = 3,
    max_view_rms_px: float = 1.0,
    progress: Progress | None = None,
    unreadable: Mapping[str, str] | None = None,
) -> CalibrationResult | CalibrationFailure:
    """Calibrate a camera from named images of ``board``.

    Parameters
    ----------
    images:
        Named 8-bit images (greyscale, BGR or BGRA); None for an image that could not be read.
        A name given again is rejected (the same file counts once), and counted among the
        images given.
    board:
        The calibration target.
    flags:
        ``cv2.CALIB_*`` flags for ``cv2.calibrateCamera`` (0: fx, fy, cx, cy, k1, k2, p1, p2, k3
        all free).
    min_views:
        Fewest usable views; fewer is a `CalibrationFailure`.
    max_view_rms_px:
        A view whose reprojection RMS exceeds both this and 4 times the median view's is
        rejected as not fitting the others, and the calibration run again without it.
    progress:
        Told ``(done, total)`` after each image searched for the board (twice each for a
        ChArUco board of unknown layout) and after the fit, the last step.
    unreadable:
        Why each image given as None could not be read (``cannot read the image (...)``),
        by name; otherwise its reason is ``cannot read the image``.

    Returns
    -------
    CalibrationResult | CalibrationFailure
        The intrinsics with their RMS error and the images used and rejected, or why no
        calibration could be made.

    Raises
    ------
    CalibrationError
        For a chessboard, when the first images show one square more each way than
        ``board`` has: board.yaml counts its inner corners instead of its squares.

    The images must all have the same size; the most common size among them is kept and
    the others are rejected ("image size 640x480 differs from 1280x720").
    """
    named = list(images.items()) if isinstance(images, Mapping) else list(images)
    reasons = unreadable or {}
    rejected: list[RejectedImage] = []
    readable: list[tuple[str, NDArray[Any]]] = []
    order: dict[str, int] = {}
    for index, (name, image) in enumerate(named):
        if name in order:
            rejected.append(RejectedImage(name, "given more than once: the same file counts once"))
            continue
        order[name] = index
        if image is None:
            rejected.append(RejectedImage(name, reasons.get(name, "cannot read the image")))
        elif image.size == 0:
            rejected.append(RejectedImage(name, "empty image"))
        else:
            readable.append((name, image))
    if readable:
        sizes = Counter((int(img.shape[1]), int(img.shape[0])) for _, img in readable)
        best = max(sizes.values())
        size = next(
            (int(img.shape[1]), int(img.shape[0]))
            for _, img in readable
            if sizes[(int(img.shape[1]), int(img.shape[0]))] == best
        )
        kept: list[tuple[str, NDArray[Any]]] = []
        for name, image in readable:
            this = (int(image.shape[1]), int(image.shape[0]))
            if this == size:
                kept.append((name, image))
            else:
                reason = f"image size {this[0]}x{this[1]} differs from {size[0]}x{size[1]}"
                rejected.append(RejectedImage(name, reason))
        readable = kept

    if board.type == "chessboard":
        _check_square_counts(readable[:COUNT_CHECK_IMAGES], board)
    layouts = _layouts(board)
    steps = Steps(len(readable) * len(layouts) + 1, progress)
    views, layout_rejects, legacy = _find_views(readable, board, layouts, steps)
    rejected.extend(layout_rejects)
    result = _calibrate(
        views, rejected, board, legacy, order, len(named), flags, min_views, max_view_rms_px
    )
    steps.advance()
    return result


def calibrate_camera_from_files(
    paths: Sequence[str | Path], board: Board, **options: Any
) -> CalibrationResult | CalibrationFailure:
    """`calibrate_camera` on image files; an unreadable file is rejected with its reason,
    and a file given more than once is read once (the others are rejected).

    ``options`` go to `calibrate_camera` (``flags``, ``progress`` ...).
    """
    named: list[tuple[str, NDArray[Any] | None]] = []
    unreadable: dict[str, str] = {}
    read: dict[str, NDArray[np.uint8] | None] = {}
    for path in paths:
        name = str(path)
        if name not in read:
            read[name], problem = read_grey_image(path)
            if problem:
                unreadable[name] = problem
        named.append((name, read[name]))
    return calibrate_camera(named, board, unreadable=unreadable, **options)


def read_grey_image(path: str | Path) -> tuple[NDArray[np.uint8] | None, str]:
    """An image file as 8-bit greyscale, or None and the reason it cannot be read, by
    `arbitre.vision.images.read_image`, the reader of every image."""
    try:
        return read_image(path, grey=True), ""
    except ImageReadError as error:
        return None, error.reason


# ---------------------------------------------------------------------------------------------


def _grey(image: NDArray[Any]) -> NDArray[np.uint8] | str:
    """An 8-bit single-channel copy of ``image``, or the reason it cannot be used."""
    if image.size == 0:
        return "empty image"
    if image.dtype != np.uint8:
        return f"unsupported pixel type {image.dtype} (expected 8-bit)"
    if image.ndim == 2:
        return np.ascontiguousarray(image)
    if image.ndim == 3 and image.shape[2] == 1:
        return np.ascontiguousarray(image[:, :, 0])
    if image.ndim == 3 and image.shape[2] == 3:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    if image.ndim == 3 and image.shape[2] == 4:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY), dtype=np.uint8)
    return f"unsupported image shape {image.shape}"


def _find_chessboard(
    grey: NDArray[np.uint8], board: Board, name: str, size: tuple[int, int]
) -> BoardView | RejectedImage:
    pattern = board.inner_corners
    found, corners = cv2.findChessboardCorners(grey, pattern, flags=_CHESSBOARD_FLAGS)
    if found:
        corners = cv2.cornerSubPix(grey, corners, _SUBPIX_HALF_WINDOW, (-1, -1), _SUBPIX_CRITERIA)
    else:
        found, corners = cv2.findChessboardCornersSB(grey, pattern, flags=_CHESSBOARD_SB_FLAGS)
    if not found or corners is None:
        return RejectedImage(name, "board not found")
    points = np.asarray(corners, dtype=np.float64).reshape(-1, 2)
    object_points = board.chessboard_points_mm()
    return BoardView(name, size, points, object_points, np.arange(len(points), dtype=np.int64))


def _find_charuco(
    grey: NDArray[np.uint8],
    board: Board,
    name: str,
    size: tuple[int, int],
    legacy_pattern: bool | None,
) -> BoardView | RejectedImage:
    cv_board = board.charuco_board(legacy_pattern)
    detector = cv2.aruco.CharucoDetector(cv_board)
    corners, ids, _marker_corners, marker_ids = detector.detectBoard(grey)
    markers = 0 if marker_ids is None else len(marker_ids)
    count = 0 if ids is None else len(ids)
    if markers == 0 and count == 0:
        return RejectedImage(name, "board not found")
    if count < MIN_CHARUCO_CORNERS:
        return RejectedImage(
            name,
            f"only {count} ChArUco corners (need {MIN_CHARUCO_CORNERS}), "
            f"{markers} board markers seen",
        )
    corner_ids = np.asarray(ids, dtype=np.int64).reshape(-1)
    if cv_board.checkCharucoCornersCollinear(corner_ids.astype(np.int32).reshape(-1, 1)):
        return RejectedImage(name, f"the {count} ChArUco corners found lie on one line")
    points = np.asarray(corners, dtype=np.float64).reshape(-1, 2)
    if CHARUCO_HALF_PIXEL_BIAS:
        points = points - 0.5
    chessboard = np.asarray(cv_board.getChessboardCorners(), dtype=np.float64).reshape(-1, 3)
    return BoardView(name, size, points, chessboard[corner_ids], corner_ids, markers)


def _check_square_counts(images: list[tuple[str, NDArray[Any]]], board: Board) -> None:
    """`CalibrationError` if the images show a chessboard one square larger each way.

    Each image is searched with ``cv2.findChessboardCorners`` only (a few milliseconds when
    the board is there), first with the board's own counts: found so, the counts are right.
    """
    # One square more each way has the board's squares as its inner corners.
    larger_inner = (board.squares_x, board.squares_y)
    for _name, image in images:
        grey = _grey(image)
        if isinstance(grey, str):
            continue
        if cv2.findChessboardCorners(grey, board.inner_corners, flags=_CHESSBOARD_FLAGS)[0]:
            return
        if cv2.findChessboardCorners(grey, larger_inner, flags=_CHESSBOARD_FLAGS)[0]:
            columns, rows = board.squares_x + 1, board.squares_y + 1
            raise CalibrationError(
                "the board file counts squares, not inner corners: these images show a "
                f"chessboard of {columns} x {rows} squares ({board.squares_x} x "
                f"{board.squares_y} inner corners); write squares_x: {columns}, "
                f"squares_y: {rows}"
            )


def _layouts(board: Board) -> list[bool | None]:
    """The ChArUco layouts to try (legacy or not); ``[None]`` for a chessboard."""
    if board.type == "chessboard":
        return [None]
    if board.layout_is_ambiguous:
        return [False, True]
    return [bool(board.legacy_pattern)]


def _find_views(
    readable: list[tuple[str, NDArray[Any]]],
    board: Board,
    layouts: list[bool | None],
    steps: Steps,
) -> tuple[list[BoardView], list[RejectedImage], bool | None]:
    """Views of the board; for an even-row ChArUco board of unknown layout, the better layout."""
    best: tuple[list[BoardView], list[RejectedImage], bool | None] = ([], [], layouts[0])
    best_corners = -1
    for legacy in layouts:
        views: list[BoardView] = []
        rejects: list[RejectedImage] = []
        for name, image in readable:
            found = find_board(image, board, name=name, legacy_pattern=legacy)
            steps.advance()
            if isinstance(found, RejectedImage):
                rejects.append(found)
            else:
                views.append(found)
        corners = sum(len(v.image_points_px) for v in views)
        if corners > best_corners:
            best, best_corners = (views, rejects, legacy), corners
    return best


def _calibrate(
    views: list[BoardView],
    rejected: list[RejectedImage],
    board: Board,
    legacy: bool | None,
    order: Mapping[str, int],
    given: int,
    flags: int,
    min_views: int,
    max_view_rms_px: float,
) -> CalibrationResult | CalibrationFailure:
    def by_input_order(items: list[RejectedImage]) -> tuple[RejectedImage, ...]:
        return tuple(sorted(items, key=lambda r: order.get(r.name, len(order))))

    def failure(message: str) -> CalibrationFailure:
        return CalibrationFailure(message, tuple(v.name for v in views), by_input_order(rejected))

    views = _distinct_views(views, rejected)
    if len(views) < min_views:
        message = (
            f"only {len(views)} of {given} images can be used (need {min_views})"
            + _rejection_summary(rejected)
        )
        if (
            board.type == "charuco"
            and board.squares_y % 2 == 0
            and board.legacy_pattern is not None
            and any("ChArUco corners" in r.reason for r in rejected)
        ):
            message += (
                "; markers were seen without ChArUco corners: is legacy_pattern right in "
                "board.yaml?"
            )
        return failure(message)

    try:
        fit = _run_calibration(views, flags)
        errors = np.asarray(fit[4], dtype=np.float64).reshape(-1)
        median = float(np.median(errors))
        limit = max(max_view_rms_px, 4.0 * median)
        outliers = [i for i, e in enumerate(errors) if e > limit]
        if outliers and len(views) - len(outliers) >= min_views:
            for i in outliers:
                rejected.append(
                    RejectedImage(
                        views[i].name,
                        f"view error {errors[i]:.2f} px does not fit the others "
                        f"(median {median:.2f} px)",
                    )
                )
            views = [v for i, v in enumerate(views) if i not in outliers]
            fit = _run_calibration(views, flags)
        rms, matrix, coeffs, std, per_view, covariance, normals = fit
        intrinsics = CameraIntrinsics(
            views[0].image_size, matrix, coeffs.reshape(-1), rms, covariance
        )
    except (cv2.error, CalibrationError) as error:
        detail = str(error).strip().splitlines()[-1] if str(error).strip() else "no detail"
        return failure(f"the calibration did not converge ({detail})")

    std_values = np.asarray(std, dtype=np.float64).reshape(-1)
    std4 = (
        float(std_values[0]),
        float(std_values[1]),
        float(std_values[2]),
        float(std_values[3]),
    )
    problem = why_degenerate(intrinsics, std4, normals)
    if problem is not None:
        return failure(
            f"{problem}; the {len(views)} views do not constrain the camera (RMS "
            f"{rms:.3g} px); take {RECOMMENDED_VIEWS} or more photos of the board from "
            "varied angles and distances"
        )
    warnings = _warnings(views, intrinsics, std4, board, legacy, normals)
    return CalibrationResult(
        intrinsics=intrinsics,
        rms_px=float(rms),
        images_used=tuple(v.name for v in views),
        images_rejected=by_input_order(rejected),
        per_view_rms_px=tuple(float(e) for e in np.asarray(per_view).reshape(-1)),
        corners_per_view=tuple(len(v.image_points_px) for v in views),
        std_fx_fy_cx_cy_px=std4,
        legacy_pattern=legacy,
        warnings=warnings,
    )


def _distinct_views(views: list[BoardView], rejected: list[RejectedImage]) -> list[BoardView]:
    """The views less those that repeat an earlier one (each added to ``rejected``)."""
    kept: list[BoardView] = []
    for view in views:
        twin = next((k for k in kept if _same_view(view, k)), None)
        if twin is None:
            kept.append(view)
        else:
            reason = f"the same view as {twin.name} (every corner within {SAME_VIEW_PX:g} px)"
            rejected.append(RejectedImage(view.name, reason))
    return kept


def _same_view(a: BoardView, b: BoardView) -> bool:
    """Whether two views show the board where it was: most corners shared, none moved
    by `SAME_VIEW_PX` or more."""
    _, in_a, in_b = np.intersect1d(a.corner_ids, b.corner_ids, return_indices=True)
    if len(in_a) < max(4, min(len(a.corner_ids), len(b.corner_ids)) / 2):
        return False
    moved = np.abs(a.image_points_px[in_a] - b.image_points_px[in_b]).max()
    return bool(moved < SAME_VIEW_PX)


MAX_FOLD_SHARE = 0.25
"""A lens model folding back within this share of the way to the image's corners is
refused (fitted nonsense); one folding farther out only draws a warning."""


def why_degenerate(
    intrinsics: CameraIntrinsics,
    std4: tuple[float, float, float, float],
    normals: FloatArray,
) -> str | None:
    """Why a calibration's intrinsics cannot describe a camera, or None when they can.

    ``normals`` is the board's normal in each view (``(k, 3)``, camera frame).

    >>> wide = CameraIntrinsics((640, 480), [[8e9, 0, 320], [0, 8e9, 240], [0, 0, 1]], [0] * 5)
    >>> why_degenerate(wide, (1.0, 1.0, 1.0, 1.0), np.array([[0.0, 0.5, 0.866]]))
    'fx = 8e+09 px gives a field of view of 4.58e-06 deg across 640 px (a lens gives 1-170 deg)'
    """
    tilts = _tilts_deg(normals)
    if len(tilts) and float(tilts.max()) < MIN_TILT_DEG:
        return (
            f"the board faces the camera square-on in every view (tilted {float(tilts.max()):.1f}"
            f" deg at most, need {MIN_TILT_DEG:g}), which leaves the focal length free"
        )
    width, height = intrinsics.image_size
    for name, focal, side in (("fx", intrinsics.fx, width), ("fy", intrinsics.fy, height)):
        fov = 2.0 * math.degrees(math.atan(side / 2.0 / focal))
        if not MIN_FIELD_OF_VIEW_DEG <= fov <= MAX_FIELD_OF_VIEW_DEG:
            return (
                f"{name} = {focal:.4g} px gives a field of view of {fov:.3g} deg across "
                f"{side} px (a lens gives {MIN_FIELD_OF_VIEW_DEG:g}-{MAX_FIELD_OF_VIEW_DEG:g} deg)"
            )
    ratio = max(intrinsics.fx / intrinsics.fy, intrinsics.fy / intrinsics.fx)
    if ratio > MAX_PIXEL_ASPECT:
        return (
            f"fx = {intrinsics.fx:.4g} px and fy = {intrinsics.fy:.4g} px differ by a factor "
            f"{ratio:.2f} (pixels are at most {MAX_PIXEL_ASPECT:g} times taller than wide)"
        )
    relative = max(std4[0] / intrinsics.fx, std4[1] / intrinsics.fy)
    if not math.isfinite(relative) or relative > MAX_FOCAL_UNCERTAINTY:
        return f"the focal length is uncertain to +-{100 * relative:.0f} % (1 sigma)"
    fold = _radial_fold(intrinsics)
    if fold is not None and fold[0] < MAX_FOLD_SHARE * fold[1]:
        return (
            f"the lens distortion folds back {fold[0]:.2g} from the image's centre, far inside "
            f"its corners ({fold[1]:.2g} away, normalised): no lens does that"
        )
    return None


def _radial_fold(intrinsics: CameraIntrinsics) -> tuple[float, float] | None:
    """Where the lens's radial distortion stops growing inside the image, and how far the
    image's farthest corner is (normalised radii), or None when it grows all the way.

    A lens bends rays by the radius ``r`` from the image's centre: the distorted radius
    is ``r (1 + k1 r^2 + k2 r^4 + k3 r^6) / (1 + k4 r^2 + k5 r^4 + k6 r^6)``. Where it
    stops growing, two directions land on one pixel: the model is wrong from there out.

    >>> camera = [[1000, 0, 960], [0, 1000, 540], [0, 0, 1]]
    >>> _radial_fold(CameraIntrinsics((1920, 1080), camera, [-0.25, 0.06, 0, 0, 0])) is None
    True

    With k3 = -3e5 the radius r (1 - 3e5 r^6) stops growing where 1 - 7 x 3e5 r^6 = 0,
    r = 0.088, far inside the corners at hypot(0.96, 0.54) = 1.10:

    >>> folded = CameraIntrinsics((1920, 1080), camera, [0, 0, 0, 0, -3e5])
    >>> [round(r, 3) for r in _radial_fold(folded)]
    [0.088, 1.101]
    """
    k = np.zeros(8)
    given = np.asarray(intrinsics.dist_coeffs, dtype=np.float64).reshape(-1)[:8]
    k[: len(given)] = given
    k1, k2, _p1, _p2, k3, k4, k5, k6 = k
    width, height = intrinsics.image_size
    matrix = np.asarray(intrinsics.camera_matrix, dtype=np.float64)
    u = np.array([0.0, width - 1.0, 0.0, width - 1.0])
    v = np.array([0.0, 0.0, height - 1.0, height - 1.0])
    reach = float(
        np.max(np.hypot((u - matrix[0, 2]) / matrix[0, 0], (v - matrix[1, 2]) / matrix[1, 1]))
    )
    r = np.linspace(0.0, 4.0 * reach, 8001)[1:]
    r2 = r * r
    bent = r * (1 + r2 * (k1 + r2 * (k2 + r2 * k3))) / (1 + r2 * (k4 + r2 * (k5 + r2 * k6)))
    out = np.flatnonzero(bent >= reach)
    inside = int(out[0]) if len(out) else len(r) - 1
    falls = np.flatnonzero(np.diff(bent[: inside + 1]) <= 0)
    if len(falls) or not len(out):
        return (float(r[falls[0]]) if len(falls) else float(r[-1])), reach
    return None


def _run_calibration(
    views: list[BoardView], flags: int
) -> tuple[float, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:
    """RMS, camera matrix, distortion, OpenCV's standard deviations of the intrinsics,
    per-view RMS, covariance of ``(fx, fy, cx, cy, *coeffs)``, and the board's normal in
    each view (``(k, 3)``, camera frame)."""
    object_points = [v.object_points_mm.astype(np.float32) for v in views]
    image_points = [v.image_points_px.astype(np.float32) for v in views]
    result = cv2.calibrateCameraExtended(
        object_points,
        image_points,
        views[0].image_size,
        np.eye(3),
        np.zeros(5),
        flags=flags,
    )
    rms, matrix, coeffs, rvecs, tvecs, std_intrinsics, _std_extrinsics, per_view = result
    camera_matrix = np.asarray(matrix, dtype=np.float64)
    dist_coeffs = np.asarray(coeffs, dtype=np.float64).reshape(-1)
    std = np.asarray(std_intrinsics, dtype=np.float64).reshape(-1)
    covariance = _intrinsics_covariance(views, camera_matrix, dist_coeffs, rvecs, tvecs, std)
    normals = np.array([cv2.Rodrigues(np.asarray(r, np.float64))[0][:, 2] for r in rvecs])
    return (
        float(rms),
        camera_matrix,
        dist_coeffs,
        std,
        np.asarray(per_view, dtype=np.float64),
        covariance,
        normals.reshape(-1, 3),
    )


def _intrinsics_covariance(
    views: list[BoardView],
    matrix: FloatArray,
    coeffs: FloatArray,
    rvecs: Sequence[Any],
    tvecs: Sequence[Any],
    std: FloatArray,
) -> FloatArray:
    """The covariance of ``(fx, fy, cx, cy, *coeffs)``, correlations included.

    OpenCV reports only the standard deviations. This is the same least-squares estimate
    in full: ``s^2 (J^T J)^-1`` over every view's corners, with the views' poses as the
    other unknowns, keeping the block of the intrinsics. Parameters the calibration held
    fixed (standard deviation 0) get no variance.
    """
    count = 4 + len(coeffs)
    free = np.ones(count, dtype=bool)
    free[: min(count, len(std))] = std[:count] > 0
    rows: list[FloatArray] = []
    residuals: list[FloatArray] = []
    for k, view in enumerate(views):
        points = view.object_points_mm.reshape(-1, 1, 3).astype(np.float64)
        projected, jacobian = cv2.projectPoints(points, rvecs[k], tvecs[k], matrix, coeffs)
        jac = np.asarray(jacobian, dtype=np.float64)
        block = np.zeros((len(jac), count + 6 * len(views)))
        block[:, :count] = jac[:, 6 : 6 + count]
        block[:, count + 6 * k : count + 6 * k + 6] = jac[:, :6]
        rows.append(block)
        residuals.append(view.image_points_px.reshape(-1) - projected.reshape(-1))
    jac_all = np.concatenate(rows)
    keep = np.concatenate([free, np.ones(6 * len(views), dtype=bool)])
    jac_all = jac_all[:, keep]
    residual = np.concatenate(residuals)
    dof = max(len(residual) - jac_all.shape[1], 1)
    variance = float(residual @ residual) / dof
    inverse = np.linalg.pinv(jac_all.T @ jac_all)
    kept = int(free.sum())
    covariance = np.zeros((count, count))
    index = np.flatnonzero(free)
    covariance[np.ix_(index, index)] = variance * inverse[:kept, :kept]
    return (covariance + covariance.T) / 2.0


def _tilts_deg(normals: FloatArray) -> FloatArray:
    """The angle of the board to the image plane in each view, degrees."""
    tilts: FloatArray = np.degrees(np.arccos(np.clip(np.abs(normals[:, 2]), 0.0, 1.0)))
    return tilts


def _spread_deg(normals: FloatArray) -> float:
    """The largest angle between the board's directions in two views, degrees."""
    cosines = np.clip(np.abs(normals @ normals.T), 0.0, 1.0)
    return float(np.degrees(np.arccos(cosines.min())))


def _warnings(
    views: list[BoardView],
    intrinsics: CameraIntrinsics,
    std4: tuple[float, float, float, float],
    board: Board,
    legacy: bool | None,
    normals: FloatArray,
) -> tuple[str, ...]:
    warnings: list[str] = []
    if len(views) < RECOMMENDED_VIEWS:
        warnings.append(
            f"only {len(views)} views: the focal length and distortion are poorly "
            f"constrained; use {RECOMMENDED_VIEWS} or more views from varied angles"
        )
    spread = _spread_deg(normals)
    if spread < MIN_SPREAD_DEG:
        warnings.append(
            f"the board is turned the same way in every view (within {spread:.1f} deg): the "
            "focal length rests on one direction; tilt it the other ways too"
        )
    relative = max(std4[0] / intrinsics.fx, std4[1] / intrinsics.fy)
    if relative > 0.01:
        warnings.append(f"the focal length is uncertain to +-{100 * relative:.1f} % (1 sigma)")
    fold = _radial_fold(intrinsics)
    if fold is not None:
        warnings.append(
            f"the lens model folds back {fold[0] / fold[1]:.0%} of the way to the image's "
            "corners: positions beyond are unreliable; add views with the board near the corners"
        )
    if board.layout_is_ambiguous and legacy:
        warnings.append(
            "the board was found with the legacy ChArUco layout: add `legacy_pattern: true` "
            "to board.yaml"
        )
    return tuple(warnings)


def _rejection_summary(rejected: list[RejectedImage]) -> str:
    if not rejected:
        return ""
    shown = "; ".join(f"{r.name}: {r.reason}" for r in rejected[:5])
    more = f"; and {len(rejected) - 5} more" if len(rejected) > 5 else ""
    return f"; rejected {shown}{more}"
