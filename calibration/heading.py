"""Which way a marker points on the table, allowing for a card glued a little tilted.

Projecting a marker's four corners down their rays onto the plane of its height and
taking the way from its bottom edge to its top edge is exact for a card lying flat. A
card glued a few degrees askew (normal on a figure's head or a terrain piece) has
corners above and below that plane; seen obliquely, each ray then meets the plane
beside its corner, and the heading turns by up to several degrees, which moves a point
200 mm from the marker by several millimetres.

`tilted_headings` fits the card's pose instead: its centre is where the ray of its
image centre meets the plane of its height (exact for a tilted card too: the crossing
of a square's diagonals is kept by perspective), and four parameters are fitted to the
four corners, by Gauss-Newton from the flat solution:

- ``phi``: the way the card's +y axis points before it is tipped;
- ``a, b``: the tip, a rotation vector ``(a, b, 0)`` in the table frame;
- ``s``: half the side of the black square, mm.

The residuals are the corners' reprojection errors in pixels over their noise, and the
tip has a prior: zero mean, `CARD_TILT_SIGMA_DEG` per axis. A small or distant marker
barely shows its tilt (and has a mirror solution tipped the other way); the prior keeps
such a card near flat, while a large or obliquely seen one is fitted to what it shows.

The heading is then measured as for a flat card, on the fitted card's plane instead of
the horizontal one: the corners' rays meet that plane, and the way from the bottom
edge's midpoint to the top edge's, seen from above, is the heading. A card fitted flat
gets exactly the flat measurement.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]

CARD_TILT_SIGMA_DEG = 3.0
"""1-sigma tilt of a glued marker card about each horizontal axis, degrees."""

_ITERATIONS = 6
_STEP = 1e-6
_CONVERGED = np.array([1e-10, 1e-10, 1e-10, 1e-7])
"""A step this small in every parameter (radians, and mm for the half side) ends the fit."""
_LOCAL_CORNERS = np.array([[-1.0, 1.0], [1.0, 1.0], [1.0, -1.0], [-1.0, -1.0]])
"""A square's corners in OpenCV's order (top-left first), in half sides."""
_UNTIPPED_AXIS = np.array([[1.0], [0.0]])
"""The axis `_tip` takes for a card that is not tipped (any would do: the angle is 0)."""


def tilted_headings(
    normalised: FloatArray,
    centre_xy: FloatArray,
    heights_mm: FloatArray,
    rotation: FloatArray,
    camera_centre_mm: FloatArray,
    corner_noise_px: FloatArray,
    focal_px: float,
    flat_heading_deg: FloatArray,
    half_side_mm: FloatArray,
    tilt_sigma_deg: float = CARD_TILT_SIGMA_DEG,
) -> FloatArray:
    """Headings (N,) in degrees [0, 360) of N markers whose cards may be tilted.

    ``normalised``: (N, 4, 2) undistorted normalised corners; ``centre_xy`` (N, 2) and
    ``heights_mm`` (N,): each card's centre on the table; ``rotation`` and
    ``camera_centre_mm``: the table pose (``X_cam = rotation @ (X - camera_centre)``);
    ``corner_noise_px`` (N,): 1-sigma corner noise; ``flat_heading_deg`` and
    ``half_side_mm`` (N,): the flat solution the fit starts from.
    """
    n = len(normalised)
    if n == 0:
        return np.zeros(0)
    centre = np.column_stack([centre_xy, heights_mm])
    params = np.column_stack([np.radians(flat_heading_deg), np.zeros(n), np.zeros(n), half_side_mm])
    weight = focal_px / np.maximum(corner_noise_px, 1e-3)
    prior = 1.0 / math.radians(max(tilt_sigma_deg, 1e-6))
    observed = normalised.reshape(n, 8)
    # Each step evaluates the residuals at the parameters and at a central difference
    # either side of each of them: nine sets of every card, in one call.
    steps = np.array([_STEP, _STEP, _STEP, _STEP * 1e3])
    nudges, spans, damping = np.diag(steps), 2.0 * steps[:, None, None], 1e-9 * np.eye(4)
    offsets = np.concatenate([np.zeros((1, 4)), nudges, -nudges]).T[:, :, None]
    centres9 = np.concatenate([centre.T] * 9, axis=1)
    observed9, weight9 = np.concatenate([observed] * 9), np.concatenate([weight] * 9)
    for _ in range(_ITERATIONS):
        nine = (params.T[:, None, :] + offsets).reshape(4, 9 * n)
        values = _residuals(
            nine, centres9, rotation, camera_centre_mm, observed9, weight9, prior
        ).reshape(9, n, -1)
        residual = values[0]
        # (n, 10, 4): each card's residuals' derivatives by its parameters
        jacobian = ((values[1:5] - values[5:]) / spans).transpose(1, 2, 0)
        normal = np.einsum("nrk,nrl->nkl", jacobian, jacobian) + damping
        gradient = np.einsum("nrk,nr->nk", jacobian, residual)
        delta = np.linalg.solve(normal, -gradient[:, :, None])[:, :, 0]
        if not np.isfinite(delta).all():  # a card whose step failed keeps its parameters
            finite = np.all(np.isfinite(delta), axis=1)
            delta = np.where(finite[:, None], delta, 0.0)
        params = params + delta
        if (np.abs(delta) <= _CONVERGED).all():
            break
    # The corners' rays meet the fitted card's plane; its top edge's way, seen from above.
    normal = _card_axes(params.T)[2].T
    directions = np.concatenate([normalised, np.ones((n, 4, 1))], axis=2) @ rotation
    reach = _dot(centre - camera_centre_mm, normal)
    along = _dot(directions, normal[:, None, :])
    with np.errstate(divide="ignore", invalid="ignore"):
        corners = camera_centre_mm + (reach[:, None] / along)[:, :, None] * directions
    up = (corners[:, 0] + corners[:, 1] - corners[:, 3] - corners[:, 2])[:, :2]
    fitted = np.degrees(np.arctan2(up[:, 1], up[:, 0])) % 360.0
    return np.asarray(np.where(np.isfinite(fitted), fitted, flat_heading_deg), dtype=np.float64)


# The fit evaluates its residuals at nine points per card on every step, on a few dozen
# cards, where a numpy call costs more than its arithmetic. The helpers below hold each
# component of the cards' vectors in one row, ``(3, M)`` for M cards, and spell out the
# small sums (first component first) rather than call einsum or multiply stacks of 3 x 3
# matrices, a dozen times slower here.


def _dot(a: FloatArray, b: FloatArray) -> FloatArray:
    """``a . b`` over the last axis (of length 3), summed from the first component."""
    return np.asarray(a[..., 0] * b[..., 0] + a[..., 1] * b[..., 1] + a[..., 2] * b[..., 2])


def _card_axes(params: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Each card's +x, +y and normal, (3, M) each, from ``(phi, a, b, s)`` (4, M)."""
    tip = _tip(params[1:3])
    sin, cos = np.sin(params[0]), np.cos(params[0])
    # The card turned so its +y points to phi: +x is a quarter turn clockwise from it.
    x_axis = tip[:, 0] * sin - tip[:, 1] * cos
    y_axis = tip[:, 0] * cos + tip[:, 1] * sin
    return x_axis, y_axis, tip[:, 2]


def _tip(ab: FloatArray) -> FloatArray:
    """Rotations (3, 3, M) by the horizontal rotation vectors ``(a, b, 0)`` (Rodrigues),
    from ``(a, b)`` (2, M)."""
    angle = np.hypot(ab[0], ab[1])
    tipped = angle > 1e-12
    axis = np.where(tipped, ab / np.where(tipped, angle, 1.0), _UNTIPPED_AXIS)
    c, s = np.cos(angle), np.sin(angle)
    outer = axis[:, None] * axis * (1.0 - c)  # k k^T (1 - cos)
    cross = axis * s
    minus = -cross
    return np.concatenate(
        [c + outer[0, 0], outer[0, 1], cross[1]]
        + [outer[1, 0], c + outer[1, 1], minus[0]]
        + [minus[1], cross[0], c]
    ).reshape((3, 3) + angle.shape)


def _residuals(
    params: FloatArray,
    centre: FloatArray,
    rotation: FloatArray,
    camera_centre_mm: FloatArray,
    observed: FloatArray,
    weight: FloatArray,
    prior: float,
) -> FloatArray:
    """(M, 10): the 8 corner errors in units of their noise, then the tilt's prior terms,
    of M cards at ``params`` (4, M) centred at ``centre`` (3, M)."""
    x_axis, y_axis, _ = _card_axes(params)
    # The half sides along +x and +y, (2, 3 M), then each corner: centre plus or minus each.
    sides = (np.concatenate([x_axis, y_axis]) * params[3]).reshape(2, -1)
    corners = centre + (_LOCAL_CORNERS @ sides).reshape(4, 3, -1)
    in_camera = (corners - camera_centre_mm[:, None]).transpose(2, 0, 1).reshape(-1, 3) @ rotation.T
    projected = in_camera[:, :2] / in_camera[:, 2:3]
    errors = (projected.reshape(-1, 8) - observed) * weight[:, None]
    return np.concatenate([errors, (params[1:3] * prior).T], axis=1)
