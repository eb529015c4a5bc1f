"""Marker detection: image -> marker ids, corners, centres and headings in pixels.

OpenCV's `ArucoDetector` finds and identifies the markers, in the parts of the
image where a marker can be (`_Scanner` says how); each marker's four sides are
then re-measured to sub-pixel precision and its corners taken as the
intersections of the four fitted lines (`Detection` says how). The outlines OpenCV
finds but cannot read (a blurred marker of 2-3 px a module) are read again from
their re-measured sides (`_Measure.rescued`). Given the
camera's intrinsics, the lines are fitted in the undistorted image, where a
marker's sides are straight and the intersection of its diagonals is its
centre, exactly, whatever the perspective.

Image frame: pixels, origin at the top-left corner, u to the right, v down,
the centre of the top-left pixel at (0, 0) (OpenCV's convention).
"""

from __future__ import annotations

import functools
import math
import os
import threading
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import ArrayLike, NDArray

from arbitre.vision.edges import (
    EdgeFit,
    border_inner_samples,
    fit_quadrilaterals,
    last_axis_median,
    read_cells,
    read_unit_points,
    refine_corners,
    side_lengths,
)
from arbitre.vision.errors import VisionError
from arbitre.vision.images import read_image
from arbitre.vision.lens import undistort_points

FloatArray = NDArray[np.float64]

__all__ = ["read_image"]  # kept here for its callers; it lives in `arbitre.vision.images`


def dictionary(name: str) -> cv2.aruco.Dictionary:
    """One of OpenCV's predefined dictionaries, by name.

    >>> dictionary("DICT_4X4_250").markerSize
    4
    >>> dictionary("DICT_4X4_251")
    Traceback (most recent call last):
    ...
    arbitre.vision.errors.VisionError: unknown ArUco dictionary 'DICT_4X4_251'
    """
    code = getattr(cv2.aruco, name, None) if name.startswith("DICT_") else None
    if not isinstance(code, int):
        raise VisionError(f"unknown ArUco dictionary {name!r}")
    return cv2.aruco.getPredefinedDictionary(code)


def read_dictionary(path: str | Path) -> cv2.aruco.Dictionary:
    """A custom dictionary from an OpenCV FileStorage file (``markersize``, ``nmarkers``, ...)."""
    storage = cv2.FileStorage(str(path), cv2.FILE_STORAGE_READ)
    custom = cv2.aruco.Dictionary()
    try:
        ok = storage.isOpened() and custom.readDictionary(storage.root())
    finally:
        storage.release()
    if not ok:
        raise VisionError(f"{path}: not an OpenCV ArUco dictionary file")
    return custom


def detector_parameters(
    *,
    min_perimeter_rate: float = 0.008,
    threshold_windows_px: tuple[int, int, int] = (3, 23, 10),
) -> cv2.aruco.DetectorParameters:
    """Detector parameters for small markers, with sub-pixel corners and no false ids.

    - ``min_perimeter_rate``: smallest marker perimeter as a fraction of the
      image's longest side. OpenCV's default, 0.03, drops markers under about
      14 px of side in a 1080p frame and 29 px in a 4K one; 0.008 keeps markers
      down to 4 px of side in 1080p, 8 px in 4K (a marker needs about 2 px per
      module to be read anyway).
    - ``threshold_windows_px``: (min, max, step) of the adaptive threshold's
      window sizes: 3, 13 and 23 px, OpenCV's own. Six windows from 3 to 33 px
      found no more markers, on the simulated presets (all found either way),
      OpenCV's tutorial photos (139 of 139) and the small AprilTags (39 of 47),
      and cost 1.8 times as much.
    - Reading: each candidate is warped to 8 px per module (default 4) before its
      bits are read, which reads small markers seen at a slant more reliably.
    - Corners: CORNER_REFINE_SUBPIX, whose window since OpenCV 4.9 is
      ``min(cornerRefinementWinSize, relativeCornerRefinmentWinSize x module)``:
      at most 3 px and half a module, so the window never reaches the marker's
      inner bits. `detect_markers` then re-measures the sides.
    - False ids: ``errorCorrectionRate`` stays at 0.6, which lets DICT_4X4_250
      (1 correctable bit) correct none and larger dictionaries a few bits;
      ``polygonalApproxAccuracyRate`` stays at 0.03 (looser accepts blobs as
      squares). `detect_markers` then reads every marker's cells again from its
      re-measured corners.
    - Close candidates: ``minMarkerDistanceRate`` 0.05 (default 0.125) still groups
      a contour found by several threshold windows, so no marker is reported twice
      (at 0 each window's contour is), but no longer groups a marker with its
      card's outline or with its own black cells. Such a group is read from its
      largest contour first, and a reading that fails is compared with every code
      of the dictionary (a third of a millisecond for DICT_4X4_250): a table's
      regions take a sixth less time, and the simulated presets, the tutorial
      photos and the AprilTags give the same markers and corners.
    """
    low, high, step = threshold_windows_px
    if not (3 <= low <= high and step >= 1 and min_perimeter_rate > 0.0):
        raise VisionError(
            "detector parameters: need 3 <= min window <= max window, step >= 1 and a "
            f"positive perimeter rate, got {threshold_windows_px!r}, {min_perimeter_rate!r}"
        )
    parameters = cv2.aruco.DetectorParameters()
    parameters.minMarkerPerimeterRate = min_perimeter_rate
    parameters.adaptiveThreshWinSizeMin = low
    parameters.adaptiveThreshWinSizeMax = high
    parameters.adaptiveThreshWinSizeStep = step
    parameters.minMarkerDistanceRate = 0.05
    parameters.perspectiveRemovePixelPerCell = 8
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    parameters.cornerRefinementWinSize = 3
    parameters.relativeCornerRefinmentWinSize = 0.5
    parameters.cornerRefinementMaxIterations = 30
    parameters.cornerRefinementMinAccuracy = 0.01
    return parameters


@dataclass(frozen=True, slots=True, eq=False)
class Detection:
    """One marker found in an image.

    - ``corners_px`` (4, 2): the corners of the marker's black square in OpenCV's
      order (top-left, top-right, bottom-right, bottom-left of the printed
      marker). In the undistorted image when the camera was given (an ideal
      pinhole image with the same camera matrix), else in the image as seen.
      Each corner is the intersection of two lines fitted to sub-pixel edge
      points measured along the marker's sides.
    - ``centre_px`` (2,): the intersection of the diagonals, in the same frame:
      the image of the marker's centre, exact under perspective when undistorted.
    - ``heading_deg``: direction from the bottom edge's midpoint to the top
      edge's midpoint, counter-clockwise from +u with v pointing up on screen
      (an upright marker is at 90; for a camera looking straight down with the
      table's +y up in the image, this is the marker's heading on the table).
    - ``side_px``: mean side length in the same frame.
    - ``edge_residual_px``: RMS distance of the measured edge points from the
      fitted sides, in the image as seen: about 0.04 px on a clean image,
      larger with noise, blur, a bent card or partial occlusion; NaN when the
      sides could not be re-measured (the corners are then OpenCV's).
    - ``image_corners_px`` (4, 2): the corners in the image as seen.
    """

    id: int
    corners_px: FloatArray
    centre_px: FloatArray
    heading_deg: float
    side_px: float
    edge_residual_px: float
    image_corners_px: FloatArray


@dataclass(frozen=True, slots=True, eq=False)
class DetectionResult:
    """The markers of one frame.

    ``markers`` holds one detection per id, by increasing id. An id seen more
    than once in the frame is listed in ``duplicates`` and its detections in
    ``duplicate_detections``; it is not in ``markers`` (never averaged).
    ``rejected_count`` counts square candidates that carried no valid id;
    ``undistorted`` says the camera was given (see `Detection`).
    """

    markers: tuple[Detection, ...]
    duplicates: tuple[int, ...]
    duplicate_detections: tuple[Detection, ...]
    rejected_count: int
    undistorted: bool

    @property
    def ids(self) -> tuple[int, ...]:
        """Ids of ``markers``, increasing."""
        return tuple(m.id for m in self.markers)

    def get(self, marker_id: int) -> Detection | None:
        """The detection of a marker id, or None."""
        return next((m for m in self.markers if m.id == marker_id), None)


def as_grey(image: NDArray[np.generic] | None) -> NDArray[np.uint8]:
    """An 8-bit grey image (H, W) from a grey, BGR or BGRA 8-bit image."""
    if image is None or not isinstance(image, np.ndarray) or image.size == 0:
        raise VisionError("empty image")
    if image.dtype != np.uint8:
        raise VisionError(f"image must be 8-bit (uint8), got {image.dtype}")
    if image.ndim == 2:
        return np.asarray(image, dtype=np.uint8)
    if image.ndim == 3 and image.shape[2] == 1:
        return np.asarray(image[:, :, 0], dtype=np.uint8)
    if image.ndim == 3 and image.shape[2] in (3, 4):
        code = cv2.COLOR_BGR2GRAY if image.shape[2] == 3 else cv2.COLOR_BGRA2GRAY
        return np.asarray(cv2.cvtColor(np.asarray(image, dtype=np.uint8), code), dtype=np.uint8)
    raise VisionError(f"image must be grey, BGR or BGRA, got shape {image.shape!r}")


@dataclass(frozen=True, slots=True, eq=False)
class _Camera:
    """Validated intrinsics for undistortion."""

    matrix: FloatArray
    dist: FloatArray


def _camera(camera_matrix: ArrayLike | None, dist_coeffs: ArrayLike | None) -> _Camera | None:
    """Checked intrinsics, or None when no camera matrix is given."""
    if camera_matrix is None:
        if dist_coeffs is not None:
            raise VisionError("dist_coeffs given without camera_matrix")
        return None
    matrix = np.asarray(camera_matrix, dtype=np.float64)
    if matrix.shape != (3, 3) or not np.all(np.isfinite(matrix)):
        raise VisionError(f"camera_matrix must be a finite 3x3 matrix, got shape {matrix.shape!r}")
    dist = np.zeros(0) if dist_coeffs is None else np.asarray(dist_coeffs, dtype=np.float64)
    dist = dist.reshape(-1)
    if dist.size not in (0, 4, 5, 8, 12, 14) or not np.all(np.isfinite(dist)):
        raise VisionError(f"dist_coeffs must have 4, 5, 8, 12 or 14 values, got {dist.size}")
    return _Camera(matrix, dist)


def _as_dictionary(value: cv2.aruco.Dictionary | str) -> cv2.aruco.Dictionary:
    """A dictionary given as such or by name."""
    return dictionary(value) if isinstance(value, str) else value


def detect_markers(
    image: NDArray[np.generic] | None,
    dictionary: cv2.aruco.Dictionary | str,
    parameters: cv2.aruco.DetectorParameters | None = None,
    *,
    camera_matrix: ArrayLike | None = None,
    dist_coeffs: ArrayLike | None = None,
    refine_edges: bool = True,
) -> DetectionResult:
    """Find the markers of a dictionary in an image.

    Parameters
    ----------
    image : (H, W) grey or (H, W, 3) BGR, uint8
    dictionary : an OpenCV dictionary or its name ("DICT_4X4_250")
    parameters : OpenCV detector parameters; `detector_parameters()` when None
    camera_matrix, dist_coeffs : (3, 3) and (n,) OpenCV intrinsics; when given,
        corners and centres are in the undistorted image (same camera matrix)
    refine_edges : re-measure the sides (see `Detection`); False keeps OpenCV's corners
        and scans the whole image in one call (otherwise `_Scanner` says where it looks)

    Returns
    -------
    DetectionResult
    """
    grey = as_grey(image)
    camera = _camera(camera_matrix, dist_coeffs)
    chosen = _as_dictionary(dictionary)
    chosen_parameters = detector_parameters() if parameters is None else parameters
    reader = _CodeReader(chosen, chosen_parameters)
    measure = _Measure(grey, reader, camera, refine_edges)
    if refine_edges:
        scanner = _Scanner(chosen, chosen_parameters, reader.modules)
        raw, ids, rejects = scanner.scan(grey, meanwhile=measure.prepare)
    else:
        detector = cv2.aruco.ArucoDetector(chosen, chosen_parameters)
        corners, found, unread = detector.detectMarkers(grey)
        raw, ids, rejects = _stack_corners(corners), _id_list(found), _stack_corners(unread)
    detections, rejected = measure.detections(raw, ids, rejects)
    return _group(detections, rejected, camera)


def _stack_corners(corners: Sequence[ArrayLike]) -> FloatArray:
    """OpenCV's corner list -> (N, 4, 2) float64."""
    if len(corners) == 0:
        return np.zeros((0, 4, 2))
    return np.asarray(np.stack([np.asarray(c).reshape(4, 2) for c in corners]), dtype=np.float64)


def _id_list(ids: ArrayLike | None) -> list[int]:
    """OpenCV's id array (or None) -> list of int."""
    return [] if ids is None else [int(i) for i in np.asarray(ids).reshape(-1)]


def _group(
    detections: Iterable[Detection], rejected_count: int, camera: _Camera | None
) -> DetectionResult:
    """Sort detections by id, setting apart the ids seen more than once."""
    everything = sorted(detections, key=lambda d: d.id)
    counts = Counter(d.id for d in everything)
    return DetectionResult(
        markers=tuple(d for d in everything if counts[d.id] == 1),
        duplicates=tuple(sorted(i for i, n in counts.items() if n > 1)),
        duplicate_detections=tuple(d for d in everything if counts[d.id] > 1),
        rejected_count=int(rejected_count),
        undistorted=camera is not None,
    )


RESCUED_MODULE_PX = 1.9
"""The smallest module, px, of a marker read from a candidate the detector could not read:
2 px a module is what a code needs, less the measuring error of a side at that size."""

INNER_BORDER_WHITE = 0.1
"""The most of a rescued marker's border, read near its inner edge, that may be light
(`_CodeReader.identify`)."""


class _CodeReader:
    """Reads a marker's cells where its corners put them, and checks them against its id.

    The cells are read at their middles from the re-measured corners, so this
    second reading does not share the detector's errors: a quadrilateral taken
    for a marker (a card's outline, two markers side by side) rarely spells the
    same id twice. Data bits may be wrong no more often than the detector's
    parameters let it correct; of the black border's cells at most 10 % may
    read white, and the quiet zone must be at least 10 grey levels lighter
    than the border.
    """

    def __init__(
        self, dictionary: cv2.aruco.Dictionary, parameters: cv2.aruco.DetectorParameters
    ) -> None:
        self.dictionary = dictionary
        self.bits = dictionary.markerSize
        self.border = parameters.markerBorderBits
        self.modules = self.bits + 2 * self.border
        self.bit_errors = int(dictionary.maxCorrectionBits * parameters.errorCorrectionRate)
        self.border_errors = int(0.1 * (self.modules**2 - self.bits**2))
        self.ring = np.ones((self.modules, self.modules), dtype=bool)
        inner = slice(self.border, self.border + self.bits)
        self.ring[inner, inner] = False
        self._codes: dict[int, NDArray[np.bool_]] = {}
        self._table: NDArray[np.int64] | None = None

    def matches(
        self, image: NDArray[np.float32], corners: FloatArray, ids: Sequence[int]
    ) -> NDArray[np.bool_]:
        """Whether each quadrilateral (N, 4, 2), image px, reads as its id (N,)."""
        if len(ids) == 0:
            return np.zeros(0, dtype=bool)
        cells, quiet = read_cells(image, corners, self.modules)
        black = last_axis_median(cells[:, self.ring])[:, 0]
        threshold = (black + quiet) / 2.0
        inner = slice(self.border, self.border + self.bits)
        white = cells > threshold[:, None, None]
        expected = np.stack([self._code(i) for i in ids])
        bit_errors = (white[:, inner, inner] != expected).sum(axis=(1, 2))
        border_errors = white[:, self.ring].sum(axis=1)
        return np.asarray(
            (quiet - black >= 10.0)
            & (border_errors <= self.border_errors)
            & (bit_errors <= self.bit_errors)
        )

    def identify(
        self, image: NDArray[np.float32], corners: FloatArray
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Read quadrilaterals (N, 4, 2) the detector could not: the id each spells (-1
        for none) and by how many places its corners must turn (``np.roll(corners, turn,
        axis=0)``) to start at the marker's top-left.

        A quadrilateral spells an id when its border is black and its quiet zone light
        as `matches` asks, its border is black near its inner edge as well (at most
        `INNER_BORDER_WHITE` of `border_inner_samples` lighter than the midway grey: on
        the test photos, markers of other dictionaries read as 4 x 4 ones had 19-56 %,
        blurred 4 x 4 markers 6 % at most), and its inner cells, read at their middles
        against the midway grey, are the id's code turned by some quarter turns, with no
        more bit errors than the detector's parameters let it correct (none in
        DICT_4X4_250). Starting
        the corners one place on (``np.roll(corners, -1, axis=0)``) turns the cells read
        by a quarter turn counter-clockwise (`np.rot90`): cells that read as the code
        turned by ``turn`` quarter turns come upright from corners ``turn`` places back.
        """
        count = len(corners)
        unknown = np.full(count, -1, dtype=np.int64)
        if count == 0:
            return unknown, np.zeros(count, dtype=np.int64)
        cells, quiet = read_cells(image, corners, self.modules)
        black = last_axis_median(cells[:, self.ring])[:, 0]
        threshold = (black + quiet) / 2.0
        white = cells > threshold[:, None, None]
        inner = slice(self.border, self.border + self.bits)
        # The border is one module thick: read near its inner edge too, where a marker
        # with more, thinner modules (a 6 x 6 marker read as a 4 x 4 one) has data.
        deep = read_unit_points(image, corners, border_inner_samples(self.modules))
        deep_white = (deep > threshold[:, None]).mean(axis=1)
        sound = (
            (quiet - black >= 10.0)
            & (white[:, self.ring].sum(axis=1) <= self.border_errors)
            & (deep_white <= INNER_BORDER_WHITE)
        )
        words = _packed(white[:, inner, inner])  # (N,)
        table = self._turned_codes()  # (codes, 4): each code turned 0-3 quarter turns
        errors = np.bitwise_count(np.bitwise_xor(words[:, None, None], table[None]))
        flat = errors.reshape(count, -1)
        best = flat.argmin(axis=1)
        read = sound & (flat[np.arange(count), best] <= self.bit_errors)
        return np.where(read, best // 4, unknown), np.where(read, best % 4, 0)

    def _turned_codes(self) -> NDArray[np.int64]:
        """Every code of the dictionary packed into an integer, turned by 0 to 3 quarter
        turns as the cells of a quadrilateral whose corners start that many places on read
        it: (codes, 4)."""
        if self._table is None:
            codes = np.stack([self._code(i) for i in range(len(self.dictionary.bytesList))])
            self._table = np.stack(
                [_packed(np.rot90(codes, turn, axes=(1, 2))) for turn in range(4)], axis=1
            )
        return self._table

    def _code(self, marker_id: int) -> NDArray[np.bool_]:
        """The bits (white = True) of a marker id, upright."""
        code = self._codes.get(marker_id)
        if code is None:
            byte_list = self.dictionary.bytesList[marker_id : marker_id + 1]
            code = np.asarray(
                cv2.aruco.Dictionary.getBitsFromByteList(byte_list, self.bits), dtype=bool
            )
            self._codes[marker_id] = code
        return code


def _packed(bits: NDArray[np.bool_]) -> NDArray[np.int64]:
    """Square bit grids (..., n, n) as integers (...,), row by row, bit k the k-th cell."""
    flat = bits.reshape(*bits.shape[:-2], -1).astype(np.int64)
    return np.asarray((flat << np.arange(flat.shape[-1], dtype=np.int64)).sum(axis=-1))


class _Measure:
    """Turns corners found in one frame into detections."""

    def __init__(
        self, grey: NDArray[np.uint8], reader: _CodeReader, camera: _Camera | None, refine: bool
    ) -> None:
        self.grey = grey
        self.refine = refine
        self.reader = reader
        self.camera = camera

    @functools.cached_property
    def image(self) -> NDArray[np.float32]:
        """The frame in float32, where the sides are re-measured and the cells read."""
        return self.grey.astype(np.float32)

    def prepare(self) -> None:
        """Make the float32 frame now (a scan's helper thread does, once its share is done)."""
        _ = self.image

    def detections(
        self, raw: FloatArray, ids: Sequence[int], candidates: FloatArray | None = None
    ) -> tuple[list[Detection], int]:
        """Detections from a detector's corners (N, 4, 2), and how many candidates were
        left without an id.

        With refinement, a marker whose sides cannot be re-measured keeps the
        detector's corners, and one whose cells do not spell its id is dropped. The
        quadrilaterals the detector found but could not read (``candidates``, M x 4 x 2)
        are read again from their re-measured sides (`rescued`).
        """
        unread = 0 if candidates is None else len(candidates)
        if not self.refine or len(raw) == 0:
            measured = raw if self.camera is None else _undistort(raw, self.camera)
            found = _detections(ids, measured, raw, np.full(len(raw), np.nan))
        else:
            fit = refine_corners(self.image, raw, self.reader.modules)
            keep = self.reader.matches(self.image, fit.corners, ids)
            kept = [i for i, k in zip(ids, keep, strict=True) if k]
            found = self.from_fit(_select(fit, keep), kept)
            unread += len(ids) - len(kept)
        if self.refine and candidates is not None and len(candidates):
            more = self.rescued(candidates, found)
            found += more
            unread -= len(more)
        return found, unread

    def rescued(self, candidates: FloatArray, found: Sequence[Detection]) -> list[Detection]:
        """The markers among quadrilaterals the detector could not read (M, 4, 2).

        OpenCV reads a candidate's cells from the corners of its threshold contour,
        which blur and a module of 2-3 px put off by a good part of a module: on a
        club's table seen from its edge in 4K, with lens blur, it finds the outline of
        nearly every far marker and reads under a third of them. Here each candidate
        whose contour is at least 1.5 px a module, away from the markers found, has its
        sides re-measured and its cells read at their middles
        (`_CodeReader.identify`); a marker so read is kept when its modules are at least
        `RESCUED_MODULE_PX` and its cells spell its id again from its turned corners, as
        a found marker's must (`_CodeReader.matches`). An id read twice within its side
        is kept once.
        """
        modules = self.reader.modules
        # a blurred marker's threshold contour runs inside its edges: a quarter short
        sides = side_lengths(candidates).min(axis=1)
        keep = sides >= 1.5 * modules
        if found and np.any(keep):
            # the contours of markers found (another threshold window, a card's edge,
            # their own black cells) are no new markers
            centres = np.stack([d.image_corners_px.mean(axis=0) for d in found])
            reach = np.array([0.75 * d.side_px for d in found])
            apart = np.hypot(
                *(candidates.mean(axis=1)[:, None, :] - centres[None]).transpose(2, 0, 1)
            )
            keep &= np.all(apart > reach[None], axis=1)
        if not np.any(keep):
            return []
        fit = refine_corners(self.image, candidates[keep], modules)
        corners = fit.corners[fit.ok]
        ids, turns = self.reader.identify(self.image, corners)
        read = ids >= 0
        if not np.any(read):
            return []
        turned = np.stack(
            [np.roll(c, t, axis=0) for c, t in zip(corners[read], turns[read], strict=True)]
        )
        refit = refine_corners(self.image, turned, modules, wary=False)
        read_ids = [int(i) for i in ids[read]]
        large = side_lengths(refit.corners).min(axis=1) >= RESCUED_MODULE_PX * modules
        sound = large & refit.ok & self.reader.matches(self.image, refit.corners, read_ids)
        # an id the detector read elsewhere is no second marker: were it kept, both would
        # be set aside as seen twice, and a real marker (an anchor) lost for the frame
        known = {d.id for d in found}
        sound &= np.array([i not in known for i in read_ids], dtype=bool)
        chosen: list[int] = []
        for k in np.flatnonzero(sound):
            centre = refit.corners[k].mean(axis=0)
            side = float(side_lengths(refit.corners[k][None])[0].mean())
            if not any(
                read_ids[j] == read_ids[k]
                and np.hypot(*(refit.corners[j].mean(axis=0) - centre)) < side
                for j in chosen
            ):
                chosen.append(int(k))
        keep_fit = np.zeros(len(read_ids), dtype=bool)
        keep_fit[chosen] = True
        return self.from_fit(_select(refit, keep_fit), [read_ids[k] for k in chosen])

    def from_fit(self, fit: EdgeFit, ids: Sequence[int]) -> list[Detection]:
        """Detections from re-measured corners, fitted again undistorted when a camera is known."""
        measured = fit.corners
        if self.camera is not None and len(ids):
            undistorted, _, sound = fit_quadrilaterals(
                _undistort(fit.points, self.camera), fit.weights
            )
            plain = _undistort(fit.corners, self.camera)
            measured = np.where((fit.ok & sound)[:, None, None], undistorted, plain)
        return _detections(ids, measured, fit.corners, fit.residual)


def _detections(
    ids: Sequence[int], corners: FloatArray, image_corners: FloatArray, residual: FloatArray
) -> list[Detection]:
    """Detections from corners (N, 4, 2) in the measuring frame and in the image, residuals (N,)."""
    corners = np.array(corners, dtype=np.float64).reshape(-1, 4, 2)
    image_corners = np.array(image_corners, dtype=np.float64).reshape(-1, 4, 2)
    up = (corners[:, 0] + corners[:, 1] - corners[:, 2] - corners[:, 3]) / 2.0
    headings = np.degrees(np.arctan2(-up[:, 1], up[:, 0])) % 360.0
    sides = side_lengths(corners).mean(axis=1)
    centres = diagonal_intersections(corners)
    for array in (corners, image_corners, centres):
        array.setflags(write=False)
    return [
        Detection(
            int(marker_id),
            corners[k],
            centres[k],
            float(headings[k]),
            float(sides[k]),
            float(residual[k]),
            image_corners[k],
        )
        for k, marker_id in enumerate(ids)
    ]


def diagonal_intersections(corners: FloatArray) -> FloatArray:
    """The intersections (N, 2) of the diagonals 0-2 and 1-3 of quadrilaterals (N, 4, 2).

    A degenerate quadrilateral gets the mean of its corners.
    """
    p0, p1, p2, p3 = (corners[:, k] for k in range(4))
    d02, d13, rhs = p2 - p0, p3 - p1, p1 - p0
    det = d13[:, 0] * d02[:, 1] - d02[:, 0] * d13[:, 1]
    degenerate = np.abs(det) < 1e-12 * np.maximum((d02 * d02).sum(axis=1), 1e-300)
    a = (d13[:, 0] * rhs[:, 1] - rhs[:, 0] * d13[:, 1]) / np.where(degenerate, 1.0, det)
    return np.where(degenerate[:, None], corners.mean(axis=1), p0 + a[:, None] * d02)


def diagonal_intersection(corners: FloatArray) -> FloatArray:
    """The intersection (2,) of the diagonals 0-2 and 1-3 of a quadrilateral (4, 2).

    This is the image of the centre of a square seen in perspective. A
    degenerate quadrilateral gets the mean of its corners.

    >>> diagonal_intersection(np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 2.0], [0.0, 2.0]]))
    array([2., 1.])
    """
    quad = np.asarray(corners, dtype=np.float64).reshape(1, 4, 2)
    return np.asarray(diagonal_intersections(quad)[0], dtype=np.float64)


def _undistort(points: FloatArray, camera: _Camera) -> FloatArray:
    """Image px (..., 2) -> undistorted px (..., 2) with the same camera matrix."""
    result = undistort_points(points, camera.matrix, camera.dist, new_matrix=camera.matrix)
    return result.reshape(points.shape)


def _copy_parameters(parameters: cv2.aruco.DetectorParameters) -> cv2.aruco.DetectorParameters:
    """An independent copy of detector parameters."""
    copy = cv2.aruco.DetectorParameters()
    for name in dir(parameters):
        if not name.startswith("_") and not callable(getattr(parameters, name)):
            setattr(copy, name, getattr(parameters, name))
    return copy


Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (end-exclusive), image px


def _merge_boxes(boxes: Iterable[Box]) -> list[Box]:
    """Merge overlapping rectangles until none overlap."""
    merged = list(boxes)
    changed = True
    while changed:
        changed = False
        result: list[Box] = []
        for box in merged:
            for k, other in enumerate(result):
                if (
                    box[0] < other[2]
                    and other[0] < box[2]
                    and box[1] < other[3]
                    and other[1] < box[3]
                ):
                    result[k] = (
                        min(box[0], other[0]),
                        min(box[1], other[1]),
                        max(box[2], other[2]),
                        max(box[3], other[3]),
                    )
                    changed = True
                    break
            else:
                result.append(box)
        merged = result
    return merged


_DARK_KERNEL_PX = 15  # dark lines up to this wide (half-resolution px) stand out
_DARK_CONTRAST = 5  # grey levels darker than their surroundings, at half resolution
_TILE_PX = 8  # regions are gathered in tiles of this side (full-resolution px)
_WHOLE_SHARE = 0.6  # regions covering more of the image than this: scan the whole image
_LARGE_MODULE_PX = 16  # the quarter-resolution pass finds markers with modules this wide or more


class _Scanner:
    """Finds the markers of a whole image with OpenCV's detector, looking only where they can be.

    A marker's black border is a dark line one module wide between light ones (the
    quiet zone of its card, the white cells). Such lines stand out in a black-hat
    (closing minus image, 15 px square) of the half-resolution image by at least
    ``_DARK_CONTRAST`` grey levels when modules are under about 30 px: a border less
    dark than that against its surroundings is too faint for the code reader anyway
    (`_CodeReader` asks for 10 levels at full resolution). The detector then runs,
    with the image's smallest and largest marker in pixels, on each region of 8 px
    tiles where such lines are, widened by half the largest threshold window, the
    detector's border distance and a tile: a marker's border is among the dark lines,
    so its contour stays inside with the threshold windows around it. (Widening each
    region by half its longest side as well found the same markers, on the presets
    and on cards with narrow quiet zones on dark tables, in a third more pixels.)
    Markers with modules of 16 px and more, whose borders a 15 px black-hat may
    miss, are found on a quarter-resolution copy. A plain table or mat leaves most
    of the frame out; a busy picture, or noise stronger than the contrast
    threshold, covers it, and the whole image is scanned at once.
    """

    def __init__(
        self,
        dictionary: cv2.aruco.Dictionary,
        parameters: cv2.aruco.DetectorParameters,
        modules: int,
    ) -> None:
        self.dictionary = dictionary
        self.parameters = parameters
        self.modules = modules
        window = parameters.adaptiveThreshWinSizeMax
        self.margin_px = window // 2 + parameters.minDistanceToBorder + _TILE_PX

    def scan(
        self, grey: NDArray[np.uint8], meanwhile: Callable[[], None] | None = None
    ) -> tuple[FloatArray, list[int], FloatArray]:
        """Detector corners (N, 4, 2), ids and unread candidates (M, 4, 2) of the whole
        image.

        A helper thread runs the quarter-resolution pass while this thread finds the
        regions, then both share them (OpenCV's detector releases the interpreter's
        lock): each thread takes the next region, largest first, until none is left,
        so that neither waits for the other long whatever the regions' markers cost.
        The helper runs ``meanwhile`` (work the caller needs next) while it waits for the
        regions, or once they are all taken, while this thread finishes its last one.
        When the whole image is scanned at once, the helper's findings are left out (the
        whole scan finds them); a scan too small for regions leaves ``meanwhile`` to the
        caller.
        """
        height, width = grey.shape
        whole = [(0, 0, width, height)]
        if self.parameters.useAruco3Detection or min(height, width) < 4 * _TILE_PX:
            return _joined(self._detect(grey, whole))
        half = _halve(grey)
        queue: deque[Box] = deque()
        ready = threading.Event()
        helped = _helper().submit(self._detect_beside, grey, _halve(half), queue, ready, meanwhile)
        try:
            boxes = self._dark_regions(half, (width, height))
            area = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes)
            at_once = area > _WHOLE_SHARE * width * height
            if not at_once:
                queue.extend(
                    sorted(boxes, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]), reverse=True)
                )
        finally:
            ready.set()
        if at_once:
            found = _joined(self._detect(grey, whole))
            helped.result()
            return found
        mine = self._detect(grey, _taken(queue))
        (large, large_ids, large_rejects), theirs = helped.result()
        raw, ids, rejects = _joined(mine + theirs)
        known = list(zip(ids, raw.mean(axis=1), strict=True))
        fresh = [k for k, i in enumerate(large_ids) if not _near(i, large[k], known)]
        return (
            np.concatenate([raw, large[fresh]]),
            ids + [large_ids[k] for k in fresh],
            np.concatenate([rejects, large_rejects]),
        )

    def _dark_regions(self, half: NDArray[np.uint8], size: tuple[int, int]) -> list[Box]:
        """Image boxes around the dark lines of the half-resolution image, merged."""
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (_DARK_KERNEL_PX, _DARK_KERNEL_PX))
        hat = cv2.morphologyEx(half, cv2.MORPH_BLACKHAT, kernel)
        _, dark = cv2.threshold(hat, _DARK_CONTRAST - 1, 255, cv2.THRESH_BINARY)
        # A tile holds dark lines when one of its pixels does: the largest of its block.
        step = _TILE_PX // 2
        block = np.ones((step, step), dtype=np.uint8)
        marked = np.ascontiguousarray(cv2.dilate(dark, block, anchor=(0, 0))[::step, ::step])
        # The boxes of the tiles' 8-connected groups: those of their outer contours (a
        # group within another's hole is inside its box, and merged with it anyway). A
        # lone tile is left out: the smallest marker read, 2 px a module, is 12 px or
        # more across, and its border's dark lines reach into two tiles each way.
        contours, _ = cv2.findContours(marked, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        width, height = size
        boxes = []
        for contour in contours:
            x, y, w, h = cv2.boundingRect(contour)
            if w == h == 1:
                continue
            boxes.append(
                (
                    max(x * _TILE_PX - self.margin_px, 0),
                    max(y * _TILE_PX - self.margin_px, 0),
                    min((x + w) * _TILE_PX + self.margin_px, width),
                    min((y + h) * _TILE_PX + self.margin_px, height),
                )
            )
        return _merge_boxes(boxes)

    def _detect_beside(
        self,
        grey: NDArray[np.uint8],
        quarter: NDArray[np.uint8],
        queue: deque[Box],
        ready: threading.Event,
        meanwhile: Callable[[], None] | None,
    ) -> tuple[tuple[FloatArray, list[int], FloatArray], list[_Found]]:
        """The helper thread's share: the quarter-resolution pass, regions of the queue once
        it is ``ready``, and ``meanwhile``: while it waits for the regions if they are not
        ready yet (otherwise it would idle there), else after its regions."""
        large = self._detect_large(quarter, (grey.shape[1], grey.shape[0]))
        if meanwhile is not None and not ready.is_set():
            meanwhile()
            meanwhile = None
        ready.wait()
        found = self._detect(grey, _taken(queue))
        if meanwhile is not None:
            meanwhile()
        return large, found

    def _detect(self, grey: NDArray[np.uint8], boxes: Iterable[Box]) -> list[_Found]:
        """The detector on each box, keeping the image's smallest and largest marker in px."""
        longest = max(grey.shape)
        parameters = _copy_parameters(self.parameters)
        found = []
        for box in boxes:
            x0, y0, x1, y1 = box
            scale = longest / max(x1 - x0, y1 - y0)
            parameters.minMarkerPerimeterRate = self.parameters.minMarkerPerimeterRate * scale
            parameters.maxMarkerPerimeterRate = self.parameters.maxMarkerPerimeterRate * scale
            detector = cv2.aruco.ArucoDetector(self.dictionary, parameters)
            corners, ids, rejects = detector.detectMarkers(grey[y0:y1, x0:x1])
            moved = _stack_corners(corners) + [x0, y0]
            found.append(_Found(box, moved, _id_list(ids), _stack_corners(rejects) + [x0, y0]))
        return found

    def _detect_large(
        self, quarter: NDArray[np.uint8], size: tuple[int, int]
    ) -> tuple[FloatArray, list[int], FloatArray]:
        """Markers with modules of `_LARGE_MODULE_PX` and more, from a quarter-resolution copy
        (corners, ids and unread candidates in the image)."""
        scale = np.array(size, dtype=np.float64) / quarter.shape[::-1]
        longest = max(size)
        parameters = _copy_parameters(self.parameters)
        smallest_px = max(
            4.0 * self.modules * _LARGE_MODULE_PX, self.parameters.minMarkerPerimeterRate * longest
        )
        parameters.minMarkerPerimeterRate = smallest_px / longest
        detector = cv2.aruco.ArucoDetector(self.dictionary, parameters)
        corners, ids, rejects = detector.detectMarkers(quarter)
        raw = (_stack_corners(corners) + 0.5) * scale - 0.5
        return raw, _id_list(ids), (_stack_corners(rejects) + 0.5) * scale - 0.5


@dataclass(frozen=True, slots=True)
class _Found:
    """What the detector found in one box: corners (N, 4, 2) in the image, ids, and the
    candidates it could not read (M, 4, 2) in the image."""

    box: Box
    corners: FloatArray
    ids: list[int]
    rejects: FloatArray


def _taken(queue: deque[Box]) -> Iterator[Box]:
    """The boxes of a queue that threads share, each box taken by one thread."""
    while True:
        try:
            yield queue.popleft()
        except IndexError:
            return


def _joined(found: Iterable[_Found]) -> tuple[FloatArray, list[int], FloatArray]:
    """Corners (N, 4, 2), ids and unread candidates (M, 4, 2) of boxes' findings, in the
    boxes' order (top to bottom, left to right), whichever thread found them."""
    ordered = sorted(found, key=lambda f: (f.box[1], f.box[0]))
    corners = [f.corners for f in ordered if len(f.ids)]
    raw = np.concatenate(corners) if corners else np.zeros((0, 4, 2))
    rejects = np.concatenate([f.rejects for f in ordered] + [np.zeros((0, 4, 2))])
    return raw, [i for f in ordered for i in f.ids], rejects


@functools.cache
def _helper() -> ThreadPoolExecutor:
    """The thread that scans a frame's regions beside the calling thread."""
    return ThreadPoolExecutor(1, "marker-scan-helper")


os.register_at_fork(after_in_child=_helper.cache_clear)  # a forked child has no such thread


def _halve(image: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """An image at half the resolution, each pixel the mean of (up to) four."""
    height, width = image.shape
    size = ((width + 1) // 2, (height + 1) // 2)
    return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)


def _near(marker_id: int, corners: FloatArray, known: Sequence[tuple[int, FloatArray]]) -> bool:
    """Whether a marker of this id was already found within half its side of these corners."""
    centre = corners.mean(axis=0)
    reach = float(side_lengths(corners[None])[0].mean()) / 2.0
    return any(i == marker_id and np.hypot(*(c - centre)) < reach for i, c in known)


class MarkerTracker:
    """Detects markers frame after frame, looking first where they were.

    Each frame, every marker of the previous frame is re-measured in place from
    its sides and its cells are read again: if they still spell its id (with no
    more bit errors than the detector allows), it is found. A marker not found
    that way is searched for by the detector in a window around its last place
    (widened by ``margin_px``, default half the largest adaptive-threshold
    window plus 4 px and at least the marker's side), with the full scan's
    parameters and the same smallest marker size in pixels. A full scan of the
    frame runs on the first frame, every ``full_scan_every`` frames, and on any
    frame where a marker is still missing or an id shows twice, or whose size
    differs from the last; new markers are picked up by the next full scan.
    Sides are always re-measured, as `detect_markers` does by default.

    With ``scan_beside`` the periodic full scan runs on another thread, beside the
    tracking (OpenCV's detector releases the interpreter's lock): the frame it starts
    on is tracked as usual, and the markers the scan finds that were not tracked are
    followed from the frame after it ends. No frame then waits for a periodic scan; the
    first frame, and a frame where a marker is lost, still scan at once.

    On a still table a tracked marker's corners are those of a full scan to a
    few hundredths of a pixel: both are the fixed point of the same side fit.
    In a tracked frame ``rejected_count`` counts only the windows searched.
    ``frames``, ``full_scans`` and ``last_was_full_scan`` tell what was done.
    """

    def __init__(
        self,
        dictionary: cv2.aruco.Dictionary | str,
        parameters: cv2.aruco.DetectorParameters | None = None,
        *,
        camera_matrix: ArrayLike | None = None,
        dist_coeffs: ArrayLike | None = None,
        full_scan_every: int = 30,
        margin_px: float | None = None,
        scan_beside: bool = False,
    ) -> None:
        if full_scan_every < 1:
            raise VisionError(f"full_scan_every must be at least 1, got {full_scan_every!r}")
        self._dictionary = _as_dictionary(dictionary)
        self._parameters = _copy_parameters(
            detector_parameters() if parameters is None else parameters
        )
        self._camera = _camera(camera_matrix, dist_coeffs)
        self._full_scan_every = full_scan_every
        window = self._parameters.adaptiveThreshWinSizeMax
        self._margin_px = float(window // 2 + 4) if margin_px is None else float(margin_px)
        self._reader = _CodeReader(self._dictionary, self._parameters)
        self._scanner = _Scanner(self._dictionary, self._parameters, self._reader.modules)
        self._window_detectors: dict[int, cv2.aruco.ArucoDetector] = {}
        self._last: tuple[Detection, ...] = ()
        self._last_shape: tuple[int, ...] = ()
        self._since_full_scan = 0
        self._beside = ThreadPoolExecutor(1, "marker-scan") if scan_beside else None
        self._scan: Future[DetectionResult] | None = None
        self._scan_shape: tuple[int, ...] = ()
        self.frames = 0
        self.full_scans = 0
        self.last_was_full_scan = False

    def update(self, image: NDArray[np.generic] | None) -> DetectionResult:
        """Detect the markers of the next frame (same conventions as `detect_markers`)."""
        grey = as_grey(image)
        measure = _Measure(grey, self._reader, self._camera, refine=True)
        self.frames += 1
        result = None
        same_size = grey.shape == self._last_shape
        due = self._since_full_scan + 1 >= self._full_scan_every
        if self._last and same_size and (not due or self._beside is not None):
            result = self._follow(measure)
        self.last_was_full_scan = result is None
        if result is None:
            result = self._scan_now(grey, measure)
            self._since_full_scan = 0
            self.full_scans += 1
            self._scan = None  # a scan running beside is outdated by this one
        elif due:
            self._start_scan(grey)
            self._since_full_scan = 0
        else:
            self._since_full_scan += 1
        self._last = result.markers + self._scanned_beside(result, grey.shape)
        self._last_shape = grey.shape
        return result

    def _scan_now(self, grey: NDArray[np.uint8], measure: _Measure) -> DetectionResult:
        """A full scan of a frame: OpenCV's detector where markers can be, then every side
        re-measured."""
        raw, ids, rejects = self._scanner.scan(grey, meanwhile=measure.prepare)
        detections, rejected = measure.detections(raw, ids, rejects)
        return _group(detections, rejected, self._camera)

    def _start_scan(self, grey: NDArray[np.uint8]) -> None:
        """A full scan of a copy of this frame, on the scanning thread (one at a time)."""
        if self._beside is None or self._scan is not None:
            return
        frame = grey.copy()
        self._scan = self._beside.submit(self._scan_copy, frame)
        self._scan_shape = frame.shape

    def _scan_copy(self, frame: NDArray[np.uint8]) -> DetectionResult:
        return self._scan_now(frame, _Measure(frame, self._reader, self._camera, refine=True))

    def _scanned_beside(
        self, result: DetectionResult, shape: tuple[int, ...]
    ) -> tuple[Detection, ...]:
        """The markers a finished scan found that this frame did not track."""
        scan = self._scan
        if scan is None or not scan.done():
            return ()
        self._scan = None
        self.full_scans += 1
        if shape != self._scan_shape:
            return ()
        scanned = scan.result()
        known = {m.id for m in result.markers} | set(result.duplicates)
        return tuple(m for m in scanned.markers if m.id not in known)

    def close(self) -> None:
        """Stop the scanning thread (a tracker with ``scan_beside``)."""
        if self._beside is not None:
            self._beside.shutdown(wait=False, cancel_futures=True)

    def _follow(self, measure: _Measure) -> DetectionResult | None:
        """The last markers found again in place or in windows; None when one is missing."""
        image = measure.image
        ids = [m.id for m in self._last]
        start = np.stack([m.image_corners_px for m in self._last])
        fit = refine_corners(image, start, self._reader.modules, wary=False)
        found = fit.ok & self._reader.matches(image, fit.corners, ids)
        kept = [i for i, f in zip(ids, found, strict=True) if f]
        detections = measure.from_fit(_select(fit, found), kept)
        lost = [m for m, f in zip(self._last, found, strict=True) if not f]
        rejected = 0
        if lost:
            raw, raw_ids, rejects = self._search_windows(measure.grey, lost)
            fresh = [k for k, i in enumerate(raw_ids) if i not in kept]
            more, rejected = measure.detections(raw[fresh], [raw_ids[k] for k in fresh], rejects)
            more = [d for d in more if d.id not in kept]
            if not {m.id for m in lost} <= {d.id for d in more}:
                return None
            detections += more
        result = _group(detections, rejected, self._camera)
        return None if result.duplicates else result

    def _search_windows(
        self, grey: NDArray[np.uint8], lost: Sequence[Detection]
    ) -> tuple[FloatArray, list[int], FloatArray]:
        """Detector corners (N, 4, 2), ids and unread candidates (M, 4, 2) from windows
        around lost markers."""
        height, width = grey.shape
        boxes = []
        for marker in lost:
            low = marker.image_corners_px.min(axis=0)
            high = marker.image_corners_px.max(axis=0)
            margin = max(self._margin_px, marker.side_px)
            boxes.append(
                (
                    max(int(math.floor(low[0] - margin)), 0),
                    max(int(math.floor(low[1] - margin)), 0),
                    min(int(math.ceil(high[0] + margin)) + 1, width),
                    min(int(math.ceil(high[1] + margin)) + 1, height),
                )
            )
        found: list[FloatArray] = []
        found_ids: list[int] = []
        unread: list[FloatArray] = [np.zeros((0, 4, 2))]
        min_perimeter_px = self._parameters.minMarkerPerimeterRate * max(width, height)
        for x0, y0, x1, y1 in _merge_boxes(boxes):
            detector = self._window_detector(max(x1 - x0, y1 - y0), min_perimeter_px)
            corners, ids, rejects = detector.detectMarkers(grey[y0:y1, x0:x1])
            unread.append(_stack_corners(rejects) + [x0, y0])
            found.extend(_stack_corners(corners) + [x0, y0])
            found_ids.extend(_id_list(ids))
        raw = np.stack(found) if found else np.zeros((0, 4, 2))
        return raw, found_ids, np.concatenate(unread)

    def _window_detector(
        self, longest_side: int, min_perimeter_px: float
    ) -> cv2.aruco.ArucoDetector:
        """A detector for windows of this longest side, keeping the smallest marker's size in px."""
        detector = self._window_detectors.get(longest_side)
        if detector is None:
            parameters = _copy_parameters(self._parameters)
            parameters.minMarkerPerimeterRate = min_perimeter_px / longest_side
            detector = cv2.aruco.ArucoDetector(self._dictionary, parameters)
            self._window_detectors[longest_side] = detector
        return detector


def _select(fit: EdgeFit, keep: NDArray[np.bool_]) -> EdgeFit:
    """The markers of a fit where ``keep`` is True."""
    return EdgeFit(
        fit.corners[keep], fit.residual[keep], fit.ok[keep], fit.points[keep], fit.weights[keep]
    )
