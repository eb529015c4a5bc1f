"""Sub-pixel measurement of a marker's sides, and reading its cells where it is expected.

Each side of a marker is sampled at `EDGE_POINTS` places. At each, the image is
read across the side, 0.8 module (at most 5 px) either way, and the edge is put
at the centroid of the rise from the dark border to the white quiet zone: the
place where a symmetric blur leaves a step edge, whatever its width. Lines are
fitted to the edge points by weighted total least squares (weak and outlying
points dropped) and neighbouring lines intersected to give the corners. The
points are then measured again around the new sides until the corners stay
put, so a marker measured from other start corners ends in the same place.

Arrays: quadrilaterals (N, 4, 2) in image px, corners in OpenCV's order
(top-left, top-right, bottom-right, bottom-left of the printed marker), side k
running from corner k to corner k + 1.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

EDGE_POINTS = 16  # sample points per side
EDGE_STEP_PX = 0.5  # sampling step across a side
EDGE_REACH_MODULES = 0.8  # how far across a side to look, in modules...
EDGE_REACH_MAX_PX = 5.0  # ...and in pixels (an edge blurred by sigma <= 1.5 px fits)
EDGE_MAX_ITERATIONS = 6
# A marker is measured again until no corner moves more than this; each step is about a
# fifth of the last, so its corners are then within a few thousandths of a pixel of where
# they would stay (a step costs a quarter of a millisecond, however few markers take it).
EDGE_CONVERGED_PX = 0.02
EDGE_MIN_STRENGTH = 0.5  # points with a weaker rise than this share of their side's median go
EDGE_OUTLIER_PX = 0.5  # points farther than this (and 3 RMS) from their line go
CELL_SAMPLES = 3  # samples per module, each way, when reading cells

_NEXT = [1, 2, 3, 0]  # corner k + 1 (side k ends there)
_PREVIOUS = [3, 0, 1, 2]  # corner k - 1
_ALONG = np.linspace(0.0, 1.0, EDGE_POINTS)  # the sample points along a side, end to end


@dataclass(frozen=True, slots=True, eq=False)
class EdgeFit:
    """Markers re-measured from their sides.

    ``corners`` (N, 4, 2) image px (the start corners where ``ok`` is False);
    ``residual`` (N,) weighted RMS distance of the edge points from the fitted
    sides, px (NaN where not ``ok``); ``points`` (N, 4, M, 2) and ``weights``
    (N, 4, M) the final edge points, to fit again in the undistorted image.
    """

    corners: FloatArray
    residual: FloatArray
    ok: BoolArray
    points: FloatArray
    weights: FloatArray


def refine_corners(
    image: NDArray[np.float32], start: FloatArray, modules: int, *, wary: bool = True
) -> EdgeFit:
    """Re-measure quadrilaterals (N, 4, 2) from their sides in a float32 grey image (H, W).

    ``modules`` is the marker's side in modules (bits + 2 x border). With
    ``wary`` the first pass keeps to the middle 60 % of each side, in case a
    start corner is far off (a detector's corners); a tracked marker's corners
    from the previous frame need no such care. A marker fails (``ok`` False)
    when a side has under 3 usable points, two neighbouring sides are nearly
    parallel, or a corner moves more than max(2.5 px, 1.5 module).
    """
    count = len(start)
    corners = start.copy()
    ok = np.ones(count, dtype=bool)
    points = np.zeros((count, 4, EDGE_POINTS, 2))
    weights = np.zeros((count, 4, EDGE_POINTS))
    residual = np.full(count, np.nan)
    near_ends = min(max(0.5 / modules, 0.05), 0.3)
    active = np.arange(count)
    for iteration in range(EDGE_MAX_ITERATIONS):
        if len(active) == 0:
            break
        margin = 0.2 if wary and iteration == 0 else near_ends
        current = corners[active]
        found, strength = edge_points(image, current, modules, margin)
        fitted, spread, sound = fit_quadrilaterals(found, strength)
        points[active], weights[active], residual[active] = found, strength, spread
        ok[active] &= sound
        step = np.abs(fitted - current).max(axis=(1, 2), initial=0.0)
        corners[active] = np.where(ok[active, None, None], fitted, current)
        if iteration >= 1 or not wary:
            active = active[ok[active] & (step > EDGE_CONVERGED_PX)]
    moved = np.max(np.hypot(*(corners - start).transpose(2, 0, 1)), axis=1, initial=0.0)
    module = side_lengths(start).mean(axis=1) / modules
    ok &= moved <= np.maximum(2.5, 1.5 * module)
    return EdgeFit(
        corners=np.where(ok[:, None, None], corners, start),
        residual=np.where(ok, residual, np.nan),
        ok=ok,
        points=points,
        weights=weights,
    )


def side_lengths(corners: FloatArray) -> FloatArray:
    """Lengths (N, 4) of the sides 0-1, 1-2, 2-3, 3-0 of quadrilaterals (N, 4, 2)."""
    return np.asarray(np.hypot(*(corners[:, _NEXT] - corners).transpose(2, 0, 1)))


def edge_points(
    image: NDArray[np.float32], corners: FloatArray, modules: int, margin: float
) -> tuple[FloatArray, FloatArray]:
    """Sub-pixel edge points along each side of quadrilaterals (N, 4, 2).

    The points are spread along each side, ``margin`` (a fraction of the side)
    away from its ends.

    Returns
    -------
    points (N, 4, M, 2) image px, and their weights (N, 4, M): the height of the
    dark-to-light rise, 0 for a point to ignore
    """
    edge = corners[:, _NEXT] - corners
    length = np.maximum(np.hypot(edge[..., 0], edge[..., 1]), 1e-9)
    along = edge / length[..., None]
    outward = np.stack([along[..., 1], -along[..., 0]], axis=-1)
    middle = corners + edge / 2.0
    away = middle - corners.mean(axis=1, keepdims=True)
    inward_facing = outward[..., 0] * away[..., 0] + outward[..., 1] * away[..., 1] < 0
    outward = np.where(inward_facing[..., None], -outward, outward)

    x, y = corners[..., 0], corners[..., 1]
    area = 0.5 * np.abs(np.sum(x * y[:, _NEXT] - x[:, _NEXT] * y, axis=1))
    across = area[:, None] / length  # the marker's width across each side, px
    reach = np.clip(EDGE_REACH_MODULES * across / modules, 1.0, EDGE_REACH_MAX_PX)
    fraction = margin + _ALONG * (1.0 - 2.0 * margin)
    base = corners[:, :, None, :] + fraction[:, None] * edge[:, :, None, :]

    half = int(math.ceil(float(reach.max(initial=1.0)) / EDGE_STEP_PX))
    offsets = np.arange(-half, half + 1) * EDGE_STEP_PX
    # The sample places in float32, as remap takes them (and quantises them to 1/32 px).
    start, across = base.astype(np.float32), outward.astype(np.float32)[:, :, None, None]
    step = offsets.astype(np.float32)
    map_x = start[..., 0, None] + step * across[..., 0]
    values = _remap(image, map_x, start[..., 1, None] + step * across[..., 1])

    mid = (offsets[1:] + offsets[:-1]) / 2.0
    within = np.abs(mid) <= reach[:, :, None, None]
    rise = values[..., 1:] - values[..., :-1]
    np.maximum(rise, 0.0, out=rise)
    rise *= within
    strength = rise.sum(axis=-1)
    offset = (rise @ mid) / np.maximum(strength, 1e-12)
    # A profile that misses the side (past a corner, across a glare) has a weak rise.
    strong = strength >= EDGE_MIN_STRENGTH * last_axis_median(strength)
    strength = np.where(strong, strength, 0.0)
    return base + offset[..., None] * outward[:, :, None, :], strength


def last_axis_median(values: FloatArray) -> FloatArray:
    """The median of the last axis, kept as an axis of 1: np.median's value, without its
    checks, which take ten times as long as sorting a few points."""
    count = values.shape[-1]
    ordered = np.sort(values, axis=-1)
    return (ordered[..., (count - 1) // 2, None] + ordered[..., count // 2, None]) / 2.0


def _remap(
    image: NDArray[np.float32], map_x: NDArray[np.floating], map_y: NDArray[np.floating]
) -> FloatArray:
    """Bilinear samples of the image at (map_x, map_y), arrays of one shape (..., K)."""
    columns = map_x.shape[-1]
    values = cv2.remap(
        image,
        np.asarray(map_x, dtype=np.float32).reshape(-1, columns),
        np.asarray(map_y, dtype=np.float32).reshape(-1, columns),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(values, dtype=np.float64).reshape(map_x.shape)


def fit_quadrilaterals(
    points: FloatArray, weights: FloatArray
) -> tuple[FloatArray, FloatArray, BoolArray]:
    """Fit a line to each side's points and intersect neighbouring sides.

    Parameters
    ----------
    points : (N, 4, M, 2) edge points, side k running from corner k to corner k+1
    weights : (N, 4, M)

    Returns
    -------
    corners (N, 4, 2), weighted RMS distance of the kept points from their lines
    (N,), and whether the fit is sound (N,)
    """
    normal, offset, distance = _fit_lines(points, weights)
    spread = np.sqrt((weights * distance**2).sum(axis=-1) / np.maximum(weights.sum(axis=-1), 1e-12))
    limit = np.maximum(3.0 * spread, EDGE_OUTLIER_PX)[..., None]
    kept = np.abs(distance) <= limit
    if not np.all(kept | (weights == 0.0)):  # else the lines are fitted to the same points
        weights = np.where(kept, weights, 0.0)
        normal, offset, distance = _fit_lines(points, weights)
    residual = np.sqrt(
        (weights * distance**2).sum(axis=(1, 2)) / np.maximum(weights.sum(axis=(1, 2)), 1e-12)
    )
    # Corner k is where side k - 1 (normal a, offset c) meets side k (normal b, offset d):
    # the 2 x 2 system [a; b] p = [c; d], solved by Cramer's rule.
    a, c = normal[:, _PREVIOUS], offset[:, _PREVIOUS]
    b, d = normal, offset
    det = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    sound = (np.abs(det) > 0.2).all(axis=1) & ((weights > 0).sum(axis=-1) >= 3).all(axis=1)
    safe = np.where(sound[:, None], det, 1.0)
    corners = np.empty(det.shape + (2,))
    corners[..., 0] = (c * b[..., 1] - a[..., 1] * d) / safe
    corners[..., 1] = (a[..., 0] * d - c * b[..., 0]) / safe
    return corners, residual, sound


def _fit_lines(
    points: FloatArray, weights: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Weighted total-least-squares lines n . p = c through point sets (N, 4, M, 2).

    Returns
    -------
    unit normals n (N, 4, 2), offsets c (N, 4), signed distances of the points (N, 4, M)
    """
    total = np.maximum(weights.sum(axis=-1), 1e-12)
    mean = np.matmul(weights[..., None, :], points)[..., 0, :] / total[..., None]
    dx = points[..., 0] - mean[..., None, 0]
    dy = points[..., 1] - mean[..., None, 1]
    sxx = (weights * dx * dx).sum(axis=-1)
    sxy = (weights * dx * dy).sum(axis=-1)
    syy = (weights * dy * dy).sum(axis=-1)
    # The normal is the direction of least spread: the covariance's smaller eigenvector.
    angle = 0.5 * np.arctan2(2.0 * sxy, sxx - syy)
    normal = np.empty(angle.shape + (2,))
    np.negative(np.sin(angle), out=normal[..., 0])
    np.cos(angle, out=normal[..., 1])
    distance = dx * normal[..., None, 0] + dy * normal[..., None, 1]
    return normal, normal[..., 0] * mean[..., 0] + normal[..., 1] * mean[..., 1], distance


def read_cells(
    image: NDArray[np.float32], corners: FloatArray, modules: int
) -> tuple[FloatArray, FloatArray]:
    """Mean grey level of every module of quadrilaterals (N, 4, 2), and of their quiet zones.

    Each module is read at CELL_SAMPLES^2 points over its middle half; the quiet
    zone at the middle of each module-wide strip outside the black square.

    Returns
    -------
    cells (N, modules, modules), row 0 along the top side; quiet (N,), the median
    of the quiet-zone samples
    """
    values = read_unit_points(image, corners, _cell_samples(modules))
    count = (modules * CELL_SAMPLES) ** 2
    cells = values[:, :count].reshape(len(corners), modules, CELL_SAMPLES, modules, CELL_SAMPLES)
    cells = cells.transpose(0, 1, 3, 2, 4).reshape(len(corners), modules, modules, -1).mean(-1)
    return cells, last_axis_median(values[:, count:])[:, 0]


def read_unit_points(
    image: NDArray[np.float32], corners: FloatArray, homogeneous: FloatArray
) -> FloatArray:
    """Grey levels (N, P) of quadrilaterals (N, 4, 2) at points of the unit square given
    homogeneous (P, 3), (0, 0) at each one's first corner, (1, 0) at its second, through
    each quadrilateral's perspective (bilinear samples)."""
    projected = homogeneous @ _square_to_quadrilaterals(corners).transpose(0, 2, 1)
    pixels = np.asarray(projected[..., :2] / projected[..., 2:], dtype=np.float64)
    return _remap(image, pixels[..., 0], pixels[..., 1])


@functools.cache
def border_inner_samples(modules: int, depth: float = 0.8) -> FloatArray:
    """Points ``depth`` of a module in from the edge of a marker of ``modules`` a side,
    along the middle of each border module but the corners', on its four sides, in the
    unit square, homogeneous (4 (modules - 2), 3): still in the black border for a marker
    of this many modules, already in the data of one with more (a 6 x 6 marker's border
    is 1/8 of its side, a 4 x 4 marker's 1/6). Read-only."""
    along = (np.arange(1, modules - 1) + 0.5) / modules
    near, far = np.full(modules - 2, depth / modules), np.full(modules - 2, 1 - depth / modules)
    u = np.concatenate([along, far, along, near])
    v = np.concatenate([near, along, far, along])
    homogeneous = np.column_stack([u, v, np.ones(len(u))])
    homogeneous.setflags(write=False)
    return homogeneous


@functools.cache
def _cell_samples(modules: int) -> FloatArray:
    """Where `read_cells` reads a marker of ``modules`` a side, in the unit square, homogeneous
    (P, 3): CELL_SAMPLES^2 points in each module row by row, then a point in each module-wide
    strip of the quiet zone (top, right, bottom, left). Read-only: every call shares it."""
    sub = (np.arange(CELL_SAMPLES) + 0.5) / CELL_SAMPLES * 0.5 + 0.25
    within = (np.arange(modules)[:, None] + sub).ravel() / modules
    u, v = np.meshgrid(within, within)
    outside = -0.5 / modules
    strip = (np.arange(modules) + 0.5) / modules
    quiet_u = np.concatenate(
        [strip, np.full(modules, 1 - outside), strip, np.full(modules, outside)]
    )
    quiet_v = np.concatenate(
        [np.full(modules, outside), strip, np.full(modules, 1 - outside), strip]
    )
    unit_points = np.concatenate(
        [np.column_stack([u.ravel(), v.ravel()]), np.column_stack([quiet_u, quiet_v])]
    )
    homogeneous = np.column_stack([unit_points, np.ones(len(unit_points))])
    homogeneous.setflags(write=False)
    return homogeneous


def _square_to_quadrilaterals(corners: FloatArray) -> FloatArray:
    """The homographies (N, 3, 3) taking the unit square's corners (0, 0), (1, 0), (1, 1),
    (0, 1) to quadrilaterals (N, 4, 2), in closed form (Heckbert's square-to-quad) for all
    at once; a degenerate quadrilateral gets non-finite entries."""
    x, y = corners[..., 0], corners[..., 1]
    skew_x, skew_y = x[:, 0] - x[:, 1] + x[:, 2] - x[:, 3], y[:, 0] - y[:, 1] + y[:, 2] - y[:, 3]
    dx1, dx2, dy1, dy2 = x[:, 1] - x[:, 2], x[:, 3] - x[:, 2], y[:, 1] - y[:, 2], y[:, 3] - y[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        den = dx1 * dy2 - dx2 * dy1
        g = (skew_x * dy2 - dx2 * skew_y) / den
        h = (dx1 * skew_y - skew_x * dy1) / den
    rows = [
        [x[:, 1] - x[:, 0] + g * x[:, 1], x[:, 3] - x[:, 0] + h * x[:, 3], x[:, 0]],
        [y[:, 1] - y[:, 0] + g * y[:, 1], y[:, 3] - y[:, 0] + h * y[:, 3], y[:, 0]],
        [g, h, np.ones_like(g)],
    ]
    return np.stack([np.stack(row, axis=-1) for row in rows], axis=-2)
