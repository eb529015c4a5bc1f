"""What a camera sees of a table, rendered with exact ground truth.

The renderer works by inverse mapping. Every sample point of the output image
(the distorted image a real camera delivers) is undistorted to a ray, and the
ray is intersected with the table, the marker cards and the figures' bodies;
the nearest hit gives the sample's colour. Pixels near any item (and along the
table's edge) are sampled on a regular ``s x s`` grid and box-filtered, so the
edges of a marker sit where ``cv2.projectPoints`` puts them, to a few
hundredths of a pixel. Lighting, blur, noise and JPEG compression are applied
to the finished image.

Frames (see docs/conventions.md):

- table: millimetres, origin at a table corner, x along the width, y along the
  depth, z up from the surface;
- camera: OpenCV's (x right, y down, z forward); a pose is the table -> camera
  transform ``X_cam = R(rvec) @ X_table + tvec``, in mm;
- image: pixels, origin top-left, the centre of the top-left pixel at (0, 0).

A marker is a flat printed card parallel to the table at height ``z_mm``: the
black square of side ``size_mm`` with a white quiet zone of one module around
it. Printed upright its top edge points to +y, so its first corner (OpenCV's
top-left) is at ``(x - s/2, y + s/2)``; ``rotation_deg`` turns it
counter-clockwise. Only numpy and OpenCV are used, and nothing from the rest
of the project: every input is a plain value.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Mapping, Sequence
from typing import Literal

import cv2
import numpy as np
from numpy.typing import ArrayLike, NDArray

from vision.errors import VisionError

FloatArray = NDArray[np.float64]
Colour = tuple[float, float, float]

PAPER_BGR: Colour = (232.0, 234.0, 234.0)
INK_BGR: Colour = (20.0, 20.0, 22.0)
SURROUND_BGR: Colour = (48.0, 46.0, 44.0)
FIGURE_COLOURS_BGR: tuple[Colour, ...] = (
    (40.0, 40.0, 150.0),
    (150.0, 70.0, 40.0),
    (60.0, 110.0, 60.0),
    (90.0, 90.0, 95.0),
    (50.0, 80.0, 120.0),
    (120.0, 120.0, 40.0),
)
PRESETS = ("overhead", "tripod", "4k", "harsh")
MIN_SCALE = 0.25  # below, the anchors at the corners of the shrunk table would overlap

_LIGHT_DIRECTION = np.array([0.35, -0.45, 0.82]) / np.linalg.norm([0.35, -0.45, 0.82])
_UNDISTORT_CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 100, 1e-9)
_VISIBLE_FRACTION = 0.999


def _vector(values: ArrayLike, length: int, name: str) -> FloatArray:
    """A float64 vector of the given length, or VisionError."""
    array = np.asarray(values, dtype=np.float64).reshape(-1)
    if array.shape != (length,) or not np.all(np.isfinite(array)):
        raise VisionError(f"{name} must be {length} finite numbers, got {values!r}")
    return array


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Camera:
    """A camera: OpenCV intrinsics and its pose over the table.

    ``camera_matrix`` (3, 3) and ``dist_coeffs`` (n,) in OpenCV's model and order
    (n = 0, 4, 5, 8, 12 or 14); ``image_size`` is (width, height) px; ``rvec`` and
    ``tvec`` (3,) are the table -> camera transform, mm.
    """

    camera_matrix: FloatArray
    dist_coeffs: FloatArray
    image_size: tuple[int, int]
    rvec: FloatArray
    tvec: FloatArray

    def __post_init__(self) -> None:
        matrix = np.asarray(self.camera_matrix, dtype=np.float64)
        if matrix.shape != (3, 3) or not np.all(np.isfinite(matrix)):
            raise VisionError(f"camera_matrix must be 3x3, got shape {matrix.shape!r}")
        dist = np.asarray(self.dist_coeffs, dtype=np.float64).reshape(-1)
        if dist.size not in (0, 4, 5, 8, 12, 14):
            raise VisionError(f"dist_coeffs must have 0, 4, 5, 8, 12 or 14 values, got {dist.size}")
        width, height = (int(v) for v in self.image_size)
        if width <= 0 or height <= 0:
            raise VisionError(f"image_size must be positive, got {self.image_size!r}")
        for name, value in (
            ("camera_matrix", matrix),
            ("dist_coeffs", dist),
            ("rvec", _vector(self.rvec, 3, "rvec")),
            ("tvec", _vector(self.tvec, 3, "tvec")),
        ):
            value.setflags(write=False)
            object.__setattr__(self, name, value)
        object.__setattr__(self, "image_size", (width, height))

    @property
    def rotation(self) -> FloatArray:
        """R (3, 3) of the table -> camera transform."""
        matrix, _ = cv2.Rodrigues(self.rvec)
        return np.asarray(matrix, dtype=np.float64)

    @property
    def position_mm(self) -> FloatArray:
        """The camera's optical centre (3,) in table mm."""
        return np.asarray(-self.rotation.T @ self.tvec, dtype=np.float64)

    def project(self, points_mm: ArrayLike, *, distorted: bool = True) -> FloatArray:
        """Project table points to the image.

        Parameters
        ----------
        points_mm : (N, 3) table mm
        distorted : False gives the ideal pinhole image of the same camera matrix

        Returns
        -------
        (N, 2) image px
        """
        points = np.asarray(points_mm, dtype=np.float64).reshape(-1, 3)
        dist = self.dist_coeffs if distorted else np.zeros(0)
        pixels, _ = cv2.projectPoints(points, self.rvec, self.tvec, self.camera_matrix, dist)
        return np.asarray(pixels, dtype=np.float64).reshape(-1, 2)


def look_at(
    eye_mm: ArrayLike, target_mm: ArrayLike, up: ArrayLike = (0.0, 1.0, 0.0)
) -> tuple[FloatArray, FloatArray]:
    """The pose (rvec, tvec) of a camera at ``eye_mm`` looking at ``target_mm``.

    ``up`` (table frame) is the direction that appears upwards in the image. Both
    returned vectors are (3,) and describe the table -> camera transform.

    >>> rvec, tvec = look_at((450, 300, 1000), (450, 300, 0))
    >>> np.round(cv2.Rodrigues(rvec)[0] @ [450, 400, 0] + tvec, 6)
    array([   0., -100., 1000.])
    """
    eye = _vector(eye_mm, 3, "eye_mm")
    forward = _vector(target_mm, 3, "target_mm") - eye
    up_vector = _vector(up, 3, "up")
    right = np.cross(forward, up_vector)
    if np.linalg.norm(forward) == 0.0 or np.linalg.norm(right) < 1e-9 * np.linalg.norm(forward):
        raise VisionError("look_at: the view direction is zero or parallel to 'up'")
    forward /= np.linalg.norm(forward)
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    rotation = np.stack([right, down, forward])
    rvec, _ = cv2.Rodrigues(rotation)
    return np.asarray(rvec, dtype=np.float64).reshape(3), -rotation @ eye


@dataclasses.dataclass(frozen=True, slots=True)
class SimMarker:
    """A printed marker card lying flat at height ``z_mm``; ``size_mm``: its black square's side."""

    id: int
    x_mm: float
    y_mm: float
    z_mm: float = 0.0
    size_mm: float = 20.0
    rotation_deg: float = 0.0

    def corners_mm(self) -> FloatArray:
        """The black square's corners (4, 3) in table mm, OpenCV order (top-left first)."""
        half = self.size_mm / 2.0
        local = np.array([[-half, half], [half, half], [half, -half], [-half, -half]])
        return _place(local, self.x_mm, self.y_mm, self.z_mm, self.rotation_deg)


@dataclasses.dataclass(frozen=True, slots=True)
class SimBody:
    """A solid standing on the table: a vertical cylinder (diameter ``width_mm``) or a box."""

    shape: Literal["cylinder", "box"]
    x_mm: float
    y_mm: float
    width_mm: float
    height_mm: float
    depth_mm: float = 0.0
    rotation_deg: float = 0.0
    colour_bgr: Colour = (90.0, 90.0, 95.0)


@dataclasses.dataclass(frozen=True, slots=True)
class SimTable:
    """The table top: the rectangle [0, width_mm] x [0, depth_mm] at z = 0."""

    width_mm: float
    depth_mm: float
    colour_bgr: Colour = (70.0, 112.0, 84.0)


@dataclasses.dataclass(frozen=True, slots=True)
class SimScene:
    """A table with its markers (anchors are markers at z = 0) and the bodies that carry them."""

    table: SimTable
    markers: tuple[SimMarker, ...] = ()
    bodies: tuple[SimBody, ...] = ()
    dictionary_name: str = "DICT_4X4_250"


@dataclasses.dataclass(frozen=True, slots=True)
class RenderOptions:
    """How the picture is taken.

    ``brightness`` scales the exposure (1 well lit, 0.45 dim); ``gradient`` is the
    relative fall-off of the light across the image (0.5: from 1.5x on one side to
    0.5x on the other), rising towards ``gradient_deg`` (image frame, counter-
    clockwise from +u as seen on screen); ``blur_sigma_px`` is a Gaussian optical
    blur; ``noise_sigma`` Gaussian sensor noise in grey levels; ``jpeg_quality``
    None for a lossless image. ``supersample`` is the side of the sample grid per
    pixel near items; ``seed`` seeds the noise.
    """

    supersample: int = 4
    brightness: float = 1.0
    gradient: float = 0.0
    gradient_deg: float = 30.0
    blur_sigma_px: float = 0.0
    noise_sigma: float = 0.0
    jpeg_quality: int | None = None
    seed: int = 0


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class MarkerTruth:
    """Where a marker really is, in the table and in the image.

    ``corners_px``/``centre_px`` are in the delivered (distorted) image,
    ``*_undistorted_px`` in the ideal pinhole image of the same camera matrix.
    ``visible_fraction`` is the share of the card's in-image samples that nothing
    hides; ``in_image`` says the whole card (with its quiet zone) is inside the image.
    """

    id: int
    centre_mm: FloatArray
    corners_mm: FloatArray
    centre_px: FloatArray
    corners_px: FloatArray
    centre_undistorted_px: FloatArray
    corners_undistorted_px: FloatArray
    visible_fraction: float
    in_image: bool

    @property
    def visible(self) -> bool:
        """Wholly in the image and hidden by nothing: a detector should find it."""
        return self.in_image and self.visible_fraction >= _VISIBLE_FRACTION


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Render:
    """A rendered frame: ``image`` (H, W, 3) uint8 BGR and the truth per marker id."""

    image: NDArray[np.uint8]
    truth: Mapping[int, MarkerTruth]

    def visible_ids(self) -> frozenset[int]:
        """Ids of the markers a detector should find."""
        return frozenset(i for i, t in self.truth.items() if t.visible)

    def seen_ids(self) -> frozenset[int]:
        """Ids of the markers of which at least a part shows in the image."""
        return frozenset(i for i, t in self.truth.items() if t.visible_fraction > 0.0)


@dataclasses.dataclass(frozen=True, slots=True)
class Preset:
    """A ready scene: camera, table and picture options."""

    name: str
    camera: Camera
    scene: SimScene
    options: RenderOptions

    def render(self, options: RenderOptions | None = None) -> Render:
        """Render the preset, with its own options unless others are given."""
        return render(self.camera, self.scene, self.options if options is None else options)


def _place(
    local_xy: FloatArray, x_mm: float, y_mm: float, z_mm: float, rotation_deg: float
) -> FloatArray:
    """Local (N, 2) points turned counter-clockwise and moved to (x, y, z): (N, 3) table mm."""
    angle = math.radians(rotation_deg)
    c, s = math.cos(angle), math.sin(angle)
    xy = local_xy @ np.array([[c, s], [-s, c]]) + [x_mm, y_mm]
    return np.column_stack([xy, np.full(len(xy), float(z_mm))])


def _to_local(points_xy: FloatArray, x_mm: float, y_mm: float, rotation_deg: float) -> FloatArray:
    """Table (N, 2) points in an item's frame (its centre at 0, its axes turned by rotation_deg)."""
    angle = math.radians(rotation_deg)
    c, s = math.cos(angle), math.sin(angle)
    return np.asarray((points_xy - [x_mm, y_mm]) @ np.array([[c, -s], [s, c]]), dtype=np.float64)


@functools.lru_cache(maxsize=16)
def _marker_card(dictionary_name: str, marker_id: int) -> NDArray[np.bool_]:
    """The card's modules, True where white: the marker with a one-module quiet zone."""
    dictionary = _dictionary(dictionary_name)
    bits = dictionary.markerSize + 2
    if not 0 <= marker_id < len(dictionary.bytesList):
        raise VisionError(
            f"marker id {marker_id} is not in {dictionary_name} "
            f"(ids 0-{len(dictionary.bytesList) - 1})"
        )
    image = dictionary.generateImageMarker(marker_id, bits, borderBits=1)
    card = np.pad(np.asarray(image) > 127, 1, constant_values=True)
    card.setflags(write=False)
    return card


def _dictionary(name: str) -> cv2.aruco.Dictionary:
    """A predefined OpenCV dictionary by name."""
    code = getattr(cv2.aruco, name, None) if name.startswith("DICT_") else None
    if not isinstance(code, int):
        raise VisionError(f"unknown ArUco dictionary {name!r}")
    return cv2.aruco.getPredefinedDictionary(code)


def _card_side_mm(marker: SimMarker, modules: int) -> float:
    """Side of the whole card: the black square plus one module of quiet zone on each side."""
    return marker.size_mm * modules / (modules - 2)


@functools.lru_cache(maxsize=2)
def _pixel_rays_cached(
    matrix_bytes: bytes, dist_bytes: bytes, width: int, height: int
) -> NDArray[np.float32]:
    """Normalised undistorted coordinates (H, W, 2) of every pixel centre."""
    matrix = np.frombuffer(matrix_bytes, dtype=np.float64).reshape(3, 3)
    dist = np.frombuffer(dist_bytes, dtype=np.float64)
    u, v = np.meshgrid(np.arange(width, dtype=np.float64), np.arange(height, dtype=np.float64))
    normalised = _undistort(np.column_stack([u.ravel(), v.ravel()]), matrix, dist)
    grid = normalised.astype(np.float32).reshape(height, width, 2)
    grid.setflags(write=False)
    return grid


def _sample_rays(
    grid: NDArray[np.float32],
    rows: NDArray[np.intp],
    cols: NDArray[np.intp],
    ox: FloatArray,
    oy: FloatArray,
) -> FloatArray:
    """Normalised coordinates (N * S, 2) of S sub-pixel samples in each of N pixels.

    The undistortion map is smooth: at a pixel centre plus its derivative (central
    differences of the exact map) times the offset, it is off by under 1e-3 px
    for any offset within the pixel, even with a wide-angle lens.
    """
    height, width = grid.shape[:2]
    left, right = np.maximum(cols - 1, 0), np.minimum(cols + 1, width - 1)
    up, down = np.maximum(rows - 1, 0), np.minimum(rows + 1, height - 1)
    centre = grid[rows, cols].astype(np.float64)
    du = (grid[rows, right] - grid[rows, left]).astype(np.float64) / (right - left)[:, None]
    dv = (grid[down, cols] - grid[up, cols]).astype(np.float64) / (down - up)[:, None]
    samples = (
        centre[:, None, :] + ox[None, :, None] * du[:, None, :] + oy[None, :, None] * dv[:, None, :]
    )
    return np.asarray(samples.reshape(-1, 2), dtype=np.float64)


def _undistort(pixels: FloatArray, matrix: FloatArray, dist: FloatArray) -> FloatArray:
    """Image px (N, 2) -> normalised pinhole coordinates (N, 2), iterated to 1e-9 px."""
    if len(pixels) == 0:
        return np.zeros((0, 2))
    points = cv2.undistortPoints(
        pixels.reshape(-1, 1, 2), matrix, dist, criteria=_UNDISTORT_CRITERIA
    )
    return np.asarray(points, dtype=np.float64).reshape(-1, 2)


class _Rays:
    """Rays through a set of image points, in the table frame: origin + lam * directions."""

    def __init__(self, camera: Camera, normalised: NDArray[np.floating]) -> None:
        rotation = camera.rotation
        self.origin = camera.position_mm
        n = normalised.reshape(-1, 2).astype(np.float64)
        self.directions = n[:, :1] * rotation[0] + n[:, 1:] * rotation[1] + rotation[2]

    def plane_hits(self, z_mm: float) -> tuple[FloatArray, FloatArray]:
        """Ray parameter (N,) at the plane z = z_mm (inf when missed) and hit points (N, 2)."""
        dz = self.directions[:, 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            lam = np.where(dz < 0.0, (z_mm - self.origin[2]) / dz, np.inf)
        lam = np.where(lam > 0.0, lam, np.inf)
        finite = np.where(np.isfinite(lam), lam, 0.0)
        xy = self.origin[:2] + finite[:, None] * self.directions[:, :2]
        return lam, xy

    def subset(self, index: NDArray[np.intp]) -> _Rays:
        """The rays at the given indices."""
        rays = object.__new__(_Rays)
        rays.origin = self.origin
        rays.directions = self.directions[index]
        return rays


def _shade(colour: Colour, normals: FloatArray) -> NDArray[np.float32]:
    """Lambert shading of a body's colour, (N, 3) normals -> (N, 3) BGR."""
    light = 0.55 + 0.45 * np.clip(normals @ _LIGHT_DIRECTION, 0.0, 1.0)
    return np.asarray(light[:, None] * np.asarray(colour), dtype=np.float32)


def _hit_card(
    rays: _Rays, marker: SimMarker, card: NDArray[np.bool_]
) -> tuple[FloatArray, NDArray[np.float32]]:
    """Ray parameters (N,) (inf when missed) and colours (N, 3) of a marker card."""
    modules = card.shape[0]
    side = _card_side_mm(marker, modules)
    lam, xy = rays.plane_hits(marker.z_mm)
    local = _to_local(xy, marker.x_mm, marker.y_mm, marker.rotation_deg)
    inside = np.all(np.abs(local) <= side / 2.0, axis=1) & np.isfinite(lam)
    module = side / modules
    col = np.clip(np.floor((local[:, 0] + side / 2.0) / module), 0, modules - 1).astype(np.intp)
    row = np.clip(np.floor((side / 2.0 - local[:, 1]) / module), 0, modules - 1).astype(np.intp)
    white = card[row, col]
    colours = np.where(white[:, None], np.array(PAPER_BGR), np.array(INK_BGR))
    return np.where(inside, lam, np.inf), colours.astype(np.float32)


def _hit_body(rays: _Rays, body: SimBody) -> tuple[FloatArray, NDArray[np.float32]]:
    """Ray parameters (N,) (inf when missed) and shaded colours (N, 3) of a body."""
    top_lam, top_xy = rays.plane_hits(body.height_mm)
    local_top = _to_local(top_xy, body.x_mm, body.y_mm, body.rotation_deg)
    origin = _to_local(rays.origin[None, :2], body.x_mm, body.y_mm, body.rotation_deg)[0]
    angle = math.radians(body.rotation_deg)
    c, s = math.cos(angle), math.sin(angle)
    d = rays.directions
    dx = d[:, 0] * c + d[:, 1] * s
    dy = -d[:, 0] * s + d[:, 1] * c
    if body.shape == "cylinder":
        radius = body.width_mm / 2.0
        on_top = np.hypot(local_top[:, 0], local_top[:, 1]) <= radius
        a = dx * dx + dy * dy
        b = 2.0 * (origin[0] * dx + origin[1] * dy)
        cc = origin @ origin - radius * radius
        disc = b * b - 4.0 * a * cc
        with np.errstate(invalid="ignore", divide="ignore"):
            side_lam = (-b - np.sqrt(disc)) / (2.0 * a)
        side_xy = origin + np.nan_to_num(side_lam)[:, None] * np.column_stack([dx, dy])
        normal_xy = side_xy / radius
    elif body.shape == "box":
        half = np.array([body.width_mm / 2.0, max(body.depth_mm, 1e-9) / 2.0])
        on_top = np.all(np.abs(local_top) <= half, axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            enter_x = np.minimum((-half[0] - origin[0]) / dx, (half[0] - origin[0]) / dx)
            enter_y = np.minimum((-half[1] - origin[1]) / dy, (half[1] - origin[1]) / dy)
            exit_x = np.maximum((-half[0] - origin[0]) / dx, (half[0] - origin[0]) / dx)
            exit_y = np.maximum((-half[1] - origin[1]) / dy, (half[1] - origin[1]) / dy)
        side_lam = np.maximum(enter_x, enter_y)
        side_lam = np.where(side_lam <= np.minimum(exit_x, exit_y), side_lam, np.nan)
        x_face = enter_x >= enter_y
        normal_xy = np.column_stack(
            [np.where(x_face, -np.sign(dx), 0.0), np.where(x_face, 0.0, -np.sign(dy))]
        )
    else:
        raise VisionError(f"body shape must be 'cylinder' or 'box', got {body.shape!r}")
    side_z = rays.origin[2] + np.nan_to_num(side_lam) * d[:, 2]
    on_side = (
        np.isfinite(side_lam) & (side_lam > 0.0) & (side_z >= 0.0) & (side_z <= body.height_mm)
    )
    on_top &= np.isfinite(top_lam)
    lam = np.where(on_top, top_lam, np.where(on_side, side_lam, np.inf))
    world_normal_xy = normal_xy @ np.array([[c, s], [-s, c]])
    normals = np.where(
        on_top[:, None],
        np.array([0.0, 0.0, 1.0]),
        np.column_stack([world_normal_xy, np.zeros(len(lam))]),
    )
    return lam, _shade(body.colour_bgr, normals)


def _outline_mm(item: SimMarker | SimBody, modules: int) -> FloatArray:
    """Points (N, 3) table mm whose image bounds the item's image."""
    if isinstance(item, SimMarker):
        half = _card_side_mm(item, modules) / 2.0
        t = np.linspace(-half, half, 5)
        ring = np.concatenate(
            [
                np.column_stack([t, np.full(5, half)]),
                np.column_stack([t, np.full(5, -half)]),
                np.column_stack([np.full(5, half), t]),
                np.column_stack([np.full(5, -half), t]),
            ]
        )
        return _place(ring, item.x_mm, item.y_mm, item.z_mm, item.rotation_deg)
    angles = np.linspace(0.0, 2.0 * math.pi, 24, endpoint=False)
    if item.shape == "cylinder":
        ring = (
            np.column_stack([np.cos(angles), np.sin(angles)])
            * item.width_mm
            / 2.0
            / math.cos(math.pi / 24)
        )
    else:
        hw, hd = item.width_mm / 2.0, item.depth_mm / 2.0
        ring = np.array([[-hw, -hd], [hw, -hd], [hw, hd], [-hw, hd], [0, -hd], [0, hd]])
    bottom = _place(ring, item.x_mm, item.y_mm, 0.0, item.rotation_deg)
    top = _place(ring, item.x_mm, item.y_mm, item.height_mm, item.rotation_deg)
    return np.concatenate([bottom, top])


def _pixel_box(camera: Camera, points_mm: FloatArray) -> tuple[int, int, int, int] | None:
    """Pixel rectangle (x0, y0, x1, y1), end-exclusive, around the image of the points."""
    width, height = camera.image_size
    in_camera = points_mm @ camera.rotation.T + camera.tvec
    if np.any(in_camera[:, 2] <= 1e-6):
        return (0, 0, width, height)
    pixels = camera.project(points_mm)
    low = np.floor(pixels.min(axis=0)).astype(int) - 3
    high = np.ceil(pixels.max(axis=0)).astype(int) + 4
    x0, y0 = max(int(low[0]), 0), max(int(low[1]), 0)
    x1, y1 = min(int(high[0]), width), min(int(high[1]), height)
    if x0 >= x1 or y0 >= y1:
        return None
    return (x0, y0, x1, y1)


def _table_colours(
    rays: _Rays, table: SimTable
) -> tuple[FloatArray, NDArray[np.float32], NDArray[np.bool_]]:
    """Ray parameters (N,), colours (N, 3) and on-table flags (N,) of the background."""
    lam, xy = rays.plane_hits(0.0)
    on_table = (
        np.isfinite(lam)
        & (xy[:, 0] >= 0.0)
        & (xy[:, 0] <= table.width_mm)
        & (xy[:, 1] >= 0.0)
        & (xy[:, 1] <= table.depth_mm)
    )
    colours = np.where(on_table[:, None], np.array(table.colour_bgr), np.array(SURROUND_BGR))
    return np.where(on_table, lam, np.inf), colours.astype(np.float32), on_table


def _lighting(size: tuple[int, int], options: RenderOptions) -> NDArray[np.float32]:
    """Illumination (H, W): brightness times a linear gradient across the image."""
    width, height = size
    u = (np.arange(width) - (width - 1) / 2.0) / max(width / 2.0, 1.0)
    v = (np.arange(height) - (height - 1) / 2.0) / max(width / 2.0, 1.0)
    angle = math.radians(options.gradient_deg)
    ramp = u[None, :] * math.cos(angle) - v[:, None] * math.sin(angle)
    ramp /= max(float(np.abs(ramp).max()), 1e-9)
    return (options.brightness * (1.0 + options.gradient * ramp)).astype(np.float32)


def _sample_offsets(s: int) -> tuple[FloatArray, FloatArray]:
    """Sub-pixel offsets (s*s,) x and y on a rotated grid: s x s strata, s*s distinct rows, columns.

    Every column and every row of the fine grid holds one sample, so an edge along
    either image axis is measured to 1/(2 s^2) px, not 1/(2 s).
    """
    k = np.arange(s * s)
    i, j = np.divmod(k, s)
    return (k + 0.5) / (s * s) - 0.5, (j * s + i + 0.5) / (s * s) - 0.5


def render(camera: Camera, scene: SimScene, options: RenderOptions | None = None) -> Render:
    """Render the scene as the camera sees it, with the truth of every marker.

    Returns
    -------
    Render: ``image`` (H, W, 3) uint8 BGR; ``truth`` by marker id.
    """
    options = RenderOptions() if options is None else options
    if options.supersample < 1:
        raise VisionError(f"supersample must be at least 1, got {options.supersample!r}")
    ids = [m.id for m in scene.markers]
    if len(set(ids)) != len(ids):
        raise VisionError(f"marker ids must be unique in a simulated scene, got {sorted(ids)!r}")
    width, height = camera.image_size
    cards = [_marker_card(scene.dictionary_name, m.id) for m in scene.markers]
    modules = cards[0].shape[0] if cards else 8

    grid = _pixel_rays_cached(
        camera.camera_matrix.tobytes(), camera.dist_coeffs.tobytes(), width, height
    )
    _, background, on_table = _table_colours(_Rays(camera, grid), scene.table)
    image = background.reshape(height, width, 3).copy()

    items: list[SimMarker | SimBody] = [*scene.markers, *scene.bodies]
    boxes = [_pixel_box(camera, _outline_mm(item, modules)) for item in items]
    fine = np.zeros((height, width), dtype=np.uint8)
    table_mask = on_table.reshape(height, width).astype(np.uint8)
    kernel = np.ones((3, 3), np.uint8)
    fine[cv2.dilate(table_mask, kernel) != cv2.erode(table_mask, kernel)] = 1
    for box in boxes:
        if box is not None:
            x0, y0, x1, y1 = box
            fine[y0:y1, x0:x1] = 1
    rows, cols = np.nonzero(fine)
    pixel_index = np.full((height, width), -1, dtype=np.intp)
    pixel_index[rows, cols] = np.arange(len(rows))

    s = options.supersample
    ox, oy = _sample_offsets(s)
    rays = _Rays(camera, _sample_rays(grid, rows, cols, ox, oy))
    depth, colour, _ = _table_colours(rays, scene.table)
    owner = np.full(len(depth), -1, dtype=np.intp)
    card_samples = np.zeros(len(items), dtype=np.int64)
    per_pixel = np.arange(s * s)

    for k, (item, box) in enumerate(zip(items, boxes, strict=True)):
        if box is None:
            continue
        x0, y0, x1, y1 = box
        index = (pixel_index[y0:y1, x0:x1].reshape(-1)[:, None] * (s * s) + per_pixel).ravel()
        subset = rays.subset(index)
        if isinstance(item, SimMarker):
            lam, item_colour = _hit_card(subset, item, cards[k])
            card_samples[k] = int(np.isfinite(lam).sum())
            # A card lies on whatever is at its height: it wins ties.
            nearer = np.isfinite(lam) & (lam <= depth[index] * (1.0 + 1e-9))
        else:
            lam, item_colour = _hit_body(subset, item)
            nearer = lam < depth[index]
        chosen = index[nearer]
        depth[chosen] = lam[nearer]
        colour[chosen] = item_colour[nearer]
        owner[chosen] = k

    image[rows, cols] = colour.reshape(-1, s * s, 3).mean(axis=1)
    shown = np.bincount(owner[owner >= 0], minlength=len(items))
    picture = _finish(image, options)
    truth = {
        m.id: _truth(camera, m, modules, shown[k], card_samples[k])
        for k, m in enumerate(scene.markers)
    }
    return Render(image=picture, truth=truth)


def _finish(linear: NDArray[np.float32], options: RenderOptions) -> NDArray[np.uint8]:
    """Light, blur, add noise, quantise and compress the albedo image (H, W, 3)."""
    height, width = linear.shape[:2]
    image: NDArray[np.float32] = linear * _lighting((width, height), options)[:, :, None]
    if options.blur_sigma_px > 0.0:
        image = np.asarray(cv2.GaussianBlur(image, (0, 0), options.blur_sigma_px), np.float32)
    if options.noise_sigma > 0.0:
        rng = np.random.default_rng(options.seed)
        image = image + rng.normal(0.0, options.noise_sigma, image.shape).astype(np.float32)
    result = np.asarray(np.clip(np.rint(image), 0, 255), dtype=np.uint8)
    if options.jpeg_quality is not None:
        ok, encoded = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, options.jpeg_quality])
        if not ok:
            raise VisionError(f"cannot encode JPEG at quality {options.jpeg_quality!r}")
        result = np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR), dtype=np.uint8)
    return result


def _truth(
    camera: Camera, marker: SimMarker, modules: int, shown: int, card_samples: int
) -> MarkerTruth:
    """The truth of one marker, given how many of its card's samples show."""
    corners = marker.corners_mm()
    centre = np.array([marker.x_mm, marker.y_mm, marker.z_mm])
    points = np.vstack([centre, corners])
    distorted = camera.project(points)
    ideal = camera.project(points, distorted=False)
    half = _card_side_mm(marker, modules) / 2.0
    card = _place(
        np.array([[-half, half], [half, half], [half, -half], [-half, -half]]),
        marker.x_mm,
        marker.y_mm,
        marker.z_mm,
        marker.rotation_deg,
    )
    in_camera = card @ camera.rotation.T + camera.tvec
    card_px = camera.project(card)
    width, height = camera.image_size
    in_image = bool(
        np.all(in_camera[:, 2] > 0.0)
        and np.all(card_px >= 1.0)
        and np.all(card_px[:, 0] <= width - 2.0)
        and np.all(card_px[:, 1] <= height - 2.0)
    )
    arrays = (centre, corners, distorted[0], distorted[1:], ideal[0], ideal[1:])
    for array in arrays:
        array.setflags(write=False)
    return MarkerTruth(
        marker.id,
        *arrays,
        visible_fraction=float(shown / card_samples) if card_samples else 0.0,
        in_image=in_image,
    )


def figure(marker: SimMarker, colour_bgr: Colour = FIGURE_COLOURS_BGR[0]) -> tuple[SimBody, ...]:
    """The bodies of a figure carrying ``marker`` on its head: a 25 mm base and a body.

    A marker at z = 0 is a flat token and has no body. The body's top is just under
    the card, so the card hides it from above.
    """
    if marker.z_mm <= 0.0:
        return ()
    top = max(marker.z_mm - 0.3, 0.1)
    base = SimBody("cylinder", marker.x_mm, marker.y_mm, 25.0, min(3.0, top), colour_bgr=colour_bgr)
    body = SimBody(
        "cylinder", marker.x_mm, marker.y_mm, 0.6 * marker.size_mm, top, colour_bgr=colour_bgr
    )
    return (base, body)


def anchors(
    table: SimTable, size_mm: float = 40.0, inset_mm: float = 35.0
) -> tuple[SimMarker, ...]:
    """Markers 0-3, flat, near the table's corners (counter-clockwise from the origin)."""
    w, d, i = table.width_mm, table.depth_mm, inset_mm
    places = ((i, i), (w - i, i), (w - i, d - i), (i, d - i))
    return tuple(SimMarker(k, x, y, 0.0, size_mm) for k, (x, y) in enumerate(places))


@dataclasses.dataclass(frozen=True, slots=True)
class _PresetGeometry:
    """A preset at scale 1: camera, table, markers and picture."""

    image_size: tuple[int, int]
    focal_px: float
    dist_coeffs: tuple[float, ...]
    eye_offset_mm: tuple[float, float, float]
    target_offset_mm: tuple[float, float, float]
    table_mm: tuple[float, float]
    marker_mm: float
    heights_mm: tuple[float, ...] | None
    height_range_mm: tuple[float, float]
    options: RenderOptions


_GEOMETRY: dict[str, _PresetGeometry] = {
    "overhead": _PresetGeometry(
        image_size=(1920, 1080),
        focal_px=1400.0,
        dist_coeffs=(-0.06, 0.04, 0.0, 0.0, 0.0),
        eye_offset_mm=(0.0, 0.0, 1000.0),
        target_offset_mm=(0.0, 0.0, 0.0),
        table_mm=(900.0, 600.0),
        marker_mm=20.0,
        heights_mm=None,
        height_range_mm=(20.0, 32.0),
        options=RenderOptions(),
    ),
    # 80 cm up, 11 cm behind the near edge, looking at the table's centre: tilted 35 degrees.
    "tripod": _PresetGeometry(
        image_size=(1920, 1080),
        focal_px=1000.0,
        dist_coeffs=(-0.25, 0.06, 0.0004, -0.0003, 0.0),
        eye_offset_mm=(0.0, -560.0, 800.0),
        target_offset_mm=(0.0, 0.0, 0.0),
        table_mm=(1200.0, 900.0),
        marker_mm=25.0,
        heights_mm=(0.0, 54.0),
        height_range_mm=(0.0, 0.0),
        options=RenderOptions(),
    ),
    "4k": _PresetGeometry(
        image_size=(3840, 2160),
        focal_px=2700.0,
        dist_coeffs=(-0.03, 0.01, 0.0, 0.0, 0.0),
        eye_offset_mm=(0.0, 0.0, 1800.0),
        target_offset_mm=(0.0, 0.0, 0.0),
        table_mm=(1800.0, 1200.0),
        marker_mm=18.0,
        heights_mm=None,
        height_range_mm=(20.0, 32.0),
        options=RenderOptions(),
    ),
    "harsh": _PresetGeometry(
        image_size=(1920, 1080),
        focal_px=1400.0,
        dist_coeffs=(-0.06, 0.04, 0.0, 0.0, 0.0),
        eye_offset_mm=(0.0, 0.0, 1000.0),
        target_offset_mm=(0.0, 0.0, 0.0),
        table_mm=(900.0, 600.0),
        marker_mm=20.0,
        heights_mm=None,
        height_range_mm=(20.0, 32.0),
        options=RenderOptions(
            brightness=0.45, gradient=0.5, blur_sigma_px=1.0, noise_sigma=6.0, jpeg_quality=75
        ),
    ),
}


def preset(name: str, *, scale: float = 1.0, figures: int | None = None, seed: int = 0) -> Preset:
    """A scene of the issue's accuracy benchmark.

    ``overhead``: 1080p webcam 1 m straight over a 90 x 60 cm table, 20 mm markers
    at 0-32 mm (a quarter of them flat); ``tripod``: 1080p wide-angle (k1 = -0.25)
    80 cm up at the table's near edge, tilted 35 degrees, over 120 x 90 cm, 25 mm
    markers at 0 or 54 mm; ``4k``: 3840 x
    2160 at 1.8 m over 180 x 120 cm, 18 mm markers; ``harsh``: the overhead scene
    dim, with a light gradient, blur (1 px), noise (6 levels) and JPEG 75.
    Every scene has anchors 0-3 (40 mm, flat) near the table's corners and
    ``figures`` markers (default 20 x scale^2) with ids from 10 at random places,
    turns and heights drawn from ``seed``.

    ``scale`` < 1 renders a smaller image of a proportionally smaller table, seen
    from the same place by a camera with the same focal length (its distortion
    rescaled so the image keeps its shape): markers keep their size in pixels,
    only the field of view and the number of figures shrink.
    """
    geometry = _GEOMETRY.get(name)
    if geometry is None:
        raise VisionError(
            f"unknown simulator preset {name!r}; expected one of {', '.join(PRESETS)}"
        )
    if not MIN_SCALE <= scale <= 1.0:
        raise VisionError(f"scale must be between {MIN_SCALE} and 1, got {scale!r}")
    width = max(int(round(geometry.image_size[0] * scale)), 16)
    height = max(int(round(geometry.image_size[1] * scale)), 16)
    f = geometry.focal_px
    matrix = np.array([[f, 0.0, (width - 1) / 2.0], [0.0, f, (height - 1) / 2.0], [0.0, 0.0, 1.0]])
    k1, k2, p1, p2, k3 = geometry.dist_coeffs
    dist = np.array([k1 / scale**2, k2 / scale**4, p1 / scale, p2 / scale, k3 / scale**6])
    table = SimTable(geometry.table_mm[0] * scale, geometry.table_mm[1] * scale)
    centre = np.array([table.width_mm / 2.0, table.depth_mm / 2.0, 0.0])
    rvec, tvec = look_at(
        centre + geometry.eye_offset_mm, centre + geometry.target_offset_mm, (0.0, 1.0, 0.0)
    )
    camera = Camera(matrix, dist, (width, height), rvec, tvec)
    count = figures if figures is not None else max(4, int(round(20 * scale * scale)))
    rng = np.random.default_rng(seed)
    corner_anchors = anchors(table)
    markers, bodies = _random_figures(table, corner_anchors, geometry, count, rng)
    scene = SimScene(table, corner_anchors + markers, bodies)
    options = dataclasses.replace(
        geometry.options, gradient_deg=float(rng.uniform(0.0, 360.0)), seed=seed
    )
    return Preset(name, camera, scene, options)


def _random_figures(
    table: SimTable,
    corner_anchors: Sequence[SimMarker],
    geometry: _PresetGeometry,
    count: int,
    rng: np.random.Generator,
) -> tuple[tuple[SimMarker, ...], tuple[SimBody, ...]]:
    """Figures 10, 11, ... at random free places, turns and heights, with their bodies."""
    margin = min(50.0, table.width_mm / 4.0, table.depth_mm / 4.0)
    spacing = max(40.0, 1.6 * geometry.marker_mm)
    taken = [np.array([a.x_mm, a.y_mm]) for a in corner_anchors]
    clearances = [35.0 + spacing / 2.0] * len(taken)
    markers: list[SimMarker] = []
    bodies: list[SimBody] = []
    for _ in range(200 * max(count, 1)):
        if len(markers) == count:
            break
        xy = rng.uniform([margin, margin], [table.width_mm - margin, table.depth_mm - margin])
        if any(np.hypot(*(xy - p)) < c for p, c in zip(taken, clearances, strict=True)):
            continue
        if geometry.heights_mm is not None:
            z = float(rng.choice(geometry.heights_mm))
        else:
            low, high = geometry.height_range_mm
            z = 0.0 if rng.uniform() < 0.25 else round(float(rng.uniform(low, high)), 1)
        marker = SimMarker(
            10 + len(markers),
            round(float(xy[0]), 2),
            round(float(xy[1]), 2),
            z,
            geometry.marker_mm,
            round(float(rng.uniform(0.0, 360.0)), 1),
        )
        colour = FIGURE_COLOURS_BGR[int(rng.integers(len(FIGURE_COLOURS_BGR)))]
        markers.append(marker)
        bodies.extend(figure(marker, colour))
        taken.append(xy)
        clearances.append(spacing)
    return tuple(markers), tuple(bodies)


def render_plane(
    camera: Camera, texture: NDArray[np.uint8], mm_per_px: float, *, supersample: int = 2
) -> NDArray[np.uint8]:
    """What ``camera`` sees of a flat printed sheet lying on the plane z = 0.

    The sheet's pixel (u, v) covers the plane's point (u, v) x ``mm_per_px``, so an
    image made by OpenCV's ``generateImage`` of a board is the board laid with its
    object points where OpenCV puts them. Around the sheet the plane is mid-grey.
    Each output pixel is the mean of ``supersample``² rays through it, each traced
    back through the lens model and onto the plane.

    Parameters
    ----------
    camera : the camera; its pose is the plane -> camera transform
    texture : (H, W) uint8 grey sheet
    mm_per_px : size of one sheet pixel on the plane

    Returns
    -------
    (height, width) uint8 grey image
    """
    width, height = camera.image_size
    s = max(int(supersample), 1)
    rays = _pixel_rays(
        camera.camera_matrix.tobytes(), camera.dist_coeffs.tobytes(), (width, height), s
    )
    rotation_t = camera.rotation.T
    centre = camera.position_mm
    directions = np.column_stack([rays, np.ones(len(rays))]) @ rotation_t.T
    with np.errstate(divide="ignore", invalid="ignore"):
        depth = -centre[2] / directions[:, 2]
    points = centre[None, :2] + depth[:, None] * directions[:, :2]
    behind = ~(depth > 0)
    map_x = (points[:, 0] / mm_per_px).astype(np.float32)
    map_y = (points[:, 1] / mm_per_px).astype(np.float32)
    map_x[behind] = -1e6
    fine = cv2.remap(
        texture,
        map_x.reshape(height * s, width * s),
        map_y.reshape(height * s, width * s),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=128,
    )
    return np.asarray(
        cv2.resize(fine, (width, height), interpolation=cv2.INTER_AREA), dtype=np.uint8
    )


@functools.lru_cache(maxsize=4)
def _pixel_rays(
    matrix_bytes: bytes, dist_bytes: bytes, size: tuple[int, int], supersample: int
) -> FloatArray:
    """Normalised rays (H*s*W*s, 2) through a grid of sub-pixel centres, for one camera."""
    width, height = size
    matrix = np.frombuffer(matrix_bytes).reshape(3, 3)
    dist = np.frombuffer(dist_bytes)
    u, v = np.meshgrid(
        (np.arange(width * supersample) + 0.5) / supersample - 0.5,
        (np.arange(height * supersample) + 0.5) / supersample - 0.5,
    )
    pixels = np.stack([u.ravel(), v.ravel()], axis=1).reshape(-1, 1, 2)
    rays = cv2.undistortPoints(
        pixels,
        matrix,
        dist,
        criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-10),
    )
    return np.asarray(rays, dtype=np.float64).reshape(-1, 2)
