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
    prior = np.full(n, 1.0 / math.radians(max(tilt_sigma_deg, 1e-6)))
    observed = normalised.reshape(n, 8)
    # Each step evaluates the residuals at the parameters and at a central difference
    # either side of each of them: nine sets of every card, in one call.
    nudges = np.diag([_STEP, _STEP, _STEP, _STEP * 1e3])
    offsets = np.concatenate([np.zeros((1, 4)), nudges, -nudges])[:, None, :]
    centres9, observed9, weight9, prior9 = (
        np.tile(x, (9,) + (1,) * (x.ndim - 1)) for x in (centre, observed, weight, prior)
    )
    for _ in range(_ITERATIONS):
        nine = (params[None, :, :] + offsets).reshape(9 * n, 4)
        values = _residuals(
            nine, centres9, rotation, camera_centre_mm, observed9, weight9, prior9
        ).reshape(9, n, -1)
        residual = values[0]
        jacobian = np.moveaxis(
            (values[1:5] - values[5:]) / (2.0 * np.diag(nudges))[:, None, None], 0, 2
        )
        normal = np.einsum("nrk,nrl->nkl", jacobian, jacobian) + 1e-9 * np.eye(4)
        gradient = np.einsum("nrk,nr->nk", jacobian, residual)
        delta = np.linalg.solve(normal, -gradient[:, :, None])[:, :, 0]
        finite = np.all(np.isfinite(delta), axis=1)
        params = np.where(finite[:, None], params + delta, params)
        if np.all(np.abs(np.where(finite[:, None], delta, 0.0)) <= _CONVERGED):
            break
    # The corners' rays meet the fitted card's plane; its top edge's way, seen from above.
    normal = _card_axes(params)[:, :, 2]
    directions = np.concatenate([normalised, np.ones((n, 4, 1))], axis=2) @ rotation
    reach = np.einsum("nj,nj->n", centre - camera_centre_mm, normal)
    along = np.einsum("nkj,nj->nk", directions, normal)
    with np.errstate(divide="ignore", invalid="ignore"):
        corners = camera_centre_mm + (reach[:, None] / along)[:, :, None] * directions
    up = (corners[:, 0] + corners[:, 1] - corners[:, 3] - corners[:, 2])[:, :2]
    fitted = np.degrees(np.arctan2(up[:, 1], up[:, 0])) % 360.0
    return np.asarray(np.where(np.isfinite(fitted), fitted, flat_heading_deg), dtype=np.float64)


def _card_axes(params: FloatArray) -> FloatArray:
    """Each card's axes (N, 3, 3), columns +x, +y and normal, from ``(phi, a, b, s)``."""
    phi, a, b = params[:, 0], params[:, 1], params[:, 2]
    # The card turned so its +y points to phi: +x is a quarter turn clockwise from it.
    turn = np.zeros((len(params), 3, 3))
    turn[:, 0, 0], turn[:, 1, 0] = np.sin(phi), -np.cos(phi)
    turn[:, 0, 1], turn[:, 1, 1] = np.cos(phi), np.sin(phi)
    turn[:, 2, 2] = 1.0
    return np.asarray(np.einsum("nij,njk->nik", _tip(a, b), turn), dtype=np.float64)


def _tip(a: FloatArray, b: FloatArray) -> FloatArray:
    """Rotations (N, 3, 3) by the horizontal rotation vectors ``(a, b, 0)`` (Rodrigues)."""
    angle = np.hypot(a, b)
    safe = np.where(angle > 1e-12, angle, 1.0)
    kx, ky = np.where(angle > 1e-12, a / safe, 1.0), np.where(angle > 1e-12, b / safe, 0.0)
    c, s = np.cos(angle), np.sin(angle)
    t = 1.0 - c
    result = np.empty((len(a), 3, 3))
    result[:, 0] = np.column_stack([c + kx * kx * t, kx * ky * t, ky * s])
    result[:, 1] = np.column_stack([kx * ky * t, c + ky * ky * t, -kx * s])
    result[:, 2] = np.column_stack([-ky * s, kx * s, c])
    return result


def _residuals(
    params: FloatArray,
    centre: FloatArray,
    rotation: FloatArray,
    camera_centre_mm: FloatArray,
    observed: FloatArray,
    weight: FloatArray,
    prior: FloatArray,
) -> FloatArray:
    """(N, 10): the 8 corner errors in units of their noise, then the tilt's prior terms."""
    axes = _card_axes(params)[:, :, :2]
    local = _LOCAL_CORNERS[None, :, :] * params[:, 3, None, None]
    corners = centre[:, None, :] + np.einsum("nij,nkj->nki", axes, local)
    in_camera = (corners - camera_centre_mm) @ rotation.T
    projected = in_camera[:, :, :2] / in_camera[:, :, 2:3]
    errors = (projected.reshape(len(params), 8) - observed) * weight[:, None]
    return np.column_stack([errors, params[:, 1:3] * prior[:, None]])
