"""The renderer: a scene as a camera sees it (occlusion, light, blur, noise, JPEG), with its truth.

Every sample point of the output image (the distorted image a real camera
delivers) is undistorted to a ray, and the ray is intersected with the table,
the marker cards and the figures' bodies; the nearest hit gives the sample's
colour. Pixels near any item (and along the table's edge) are sampled on a
regular ``s x s`` grid and box-filtered. Lighting, blur, noise and JPEG
compression are applied to the finished image.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping

import cv2
import numpy as np
from numpy.typing import NDArray

from arbitre.vision.errors import VisionError
from arbitre.vision.simulate.camera import Camera, FloatArray
from arbitre.vision.simulate.hits import hit_area, hit_body, hit_card, table_colours
from arbitre.vision.simulate.rays import (
    Rays,
    subpixel_offsets,
    undistorted_grid,
    undistorted_samples,
)
from arbitre.vision.simulate.scene import (
    SimArea,
    SimBody,
    SimMarker,
    SimScene,
    card_side_mm,
    local_to_table,
    marker_card,
)

_VISIBLE_FRACTION = 0.999


@dataclasses.dataclass(frozen=True, slots=True)
class RenderOptions:
    """How the picture is taken.

    ``brightness`` scales the exposure (1 well lit, 0.45 dim); ``gradient`` is the
    relative fall-off of the light across the image (0.5: from 1.5x on one side to
    0.5x on the other), rising towards ``gradient_deg`` (image frame, counter-
    clockwise from +u as seen on screen); ``blur_sigma_px`` is a Gaussian optical
    blur; ``motion_px`` a motion blur, the picture smeared evenly along ``motion_px``
    pixels in the direction ``motion_deg`` (a camera shaken, or a slow shutter while the
    table is bumped); ``noise_sigma`` Gaussian sensor noise in grey levels; ``jpeg_quality``
    None for a lossless image. ``supersample`` is the side of the sample grid per
    pixel near items; ``seed`` seeds the noise.
    """

    supersample: int = 4
    brightness: float = 1.0
    gradient: float = 0.0
    gradient_deg: float = 30.0
    blur_sigma_px: float = 0.0
    motion_px: float = 0.0
    motion_deg: float = 0.0
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

    def module_px(self, modules: int = 6) -> float:
        """How wide its modules are in the delivered image: its shortest side over
        ``modules`` (6 for a 4 x 4 marker with its border)."""
        sides = np.linalg.norm(self.corners_px - np.roll(self.corners_px, -1, axis=0), axis=1)
        return float(sides.min()) / modules


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


def _outline_mm(item: SimArea | SimMarker | SimBody, modules: int) -> FloatArray:
    """Points (N, 3) table mm whose image bounds the item's image."""
    if isinstance(item, SimArea):
        ring = np.asarray(item.outline_mm, dtype=np.float64)
        bottom = np.column_stack([ring, np.zeros(len(ring))])
        return np.concatenate([bottom, bottom + [0.0, 0.0, item.height_mm]])
    if isinstance(item, SimMarker):
        half = card_side_mm(item, modules) / 2.0
        t = np.linspace(-half, half, 5)
        ring = np.concatenate(
            [
                np.column_stack([t, np.full(5, half)]),
                np.column_stack([t, np.full(5, -half)]),
                np.column_stack([np.full(5, half), t]),
                np.column_stack([np.full(5, -half), t]),
            ]
        )
        return item.place(ring)
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
    bottom = local_to_table(ring, item.x_mm, item.y_mm, 0.0, item.rotation_deg)
    top = local_to_table(ring, item.x_mm, item.y_mm, item.height_mm, item.rotation_deg)
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


def arm_over(
    image: NDArray[np.uint8], camera: Camera, markers: Iterable[SimMarker], margin_px: int = 15
) -> NDArray[np.uint8]:
    """``image`` with a grey arm over each of ``markers``: their image, ``margin_px`` wider
    on every side, painted mid-grey (the marker is not seen; what is around it is)."""
    covered = image.copy()
    for marker in markers:
        box = _pixel_box(camera, marker.corners_mm())
        if box is not None:
            x0, y0, x1, y1 = box
            covered[
                max(y0 - margin_px, 0) : y1 + margin_px, max(x0 - margin_px, 0) : x1 + margin_px
            ] = 128
    return covered


def _lighting(size: tuple[int, int], options: RenderOptions) -> NDArray[np.float32]:
    """Illumination (H, W): brightness times a linear gradient across the image."""
    width, height = size
    u = (np.arange(width) - (width - 1) / 2.0) / max(width / 2.0, 1.0)
    v = (np.arange(height) - (height - 1) / 2.0) / max(width / 2.0, 1.0)
    angle = math.radians(options.gradient_deg)
    ramp = u[None, :] * math.cos(angle) - v[:, None] * math.sin(angle)
    ramp /= max(float(np.abs(ramp).max()), 1e-9)
    return (options.brightness * (1.0 + options.gradient * ramp)).astype(np.float32)


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
    cards = [marker_card(scene.dictionary_name, m.id) for m in scene.markers]
    modules = cards[0].shape[0] if cards else 8

    grid = undistorted_grid(
        camera.camera_matrix.tobytes(), camera.dist_coeffs.tobytes(), width, height
    )
    pixel_rays = Rays(camera, grid)
    ground, background, on_table = table_colours(pixel_rays, scene.table)
    # Terrain areas are large: their insides are coloured once per pixel, and only a band
    # along their edges is sampled finely.
    area_edges = np.zeros((height, width), dtype=bool)
    kernel = np.ones((3, 3), np.uint8)
    for area in scene.areas:
        box = _pixel_box(camera, _outline_mm(area, 8))
        if box is None:
            continue
        x0, y0, x1, y1 = box
        flat = (np.arange(y0, y1)[:, None] * width + np.arange(x0, x1)[None, :]).ravel()
        lam, area_colour = hit_area(pixel_rays.subset(flat), area)
        shown_here = lam <= ground[flat] * (1.0 + 1e-9)
        ground[flat[shown_here]] = lam[shown_here]
        background[flat[shown_here]] = area_colour[shown_here]
        mask = np.pad(np.isfinite(lam).reshape(y1 - y0, x1 - x0).astype(np.uint8), 1)
        edge = cv2.dilate(mask, kernel) != cv2.erode(mask, kernel)
        area_edges[y0:y1, x0:x1] |= edge[1:-1, 1:-1]
    image = background.reshape(height, width, 3).copy()

    # Areas first: a card lying on one wins the tie with it, as with the table.
    items: list[SimArea | SimMarker | SimBody] = [*scene.areas, *scene.markers, *scene.bodies]
    boxes = [_pixel_box(camera, _outline_mm(item, modules)) for item in items]
    fine = np.zeros((height, width), dtype=np.uint8)
    table_mask = on_table.reshape(height, width).astype(np.uint8)
    fine[cv2.dilate(table_mask, kernel) != cv2.erode(table_mask, kernel)] = 1
    fine[area_edges] = 1
    for item, box in zip(items, boxes, strict=True):
        if box is not None and not isinstance(item, SimArea):
            x0, y0, x1, y1 = box
            fine[y0:y1, x0:x1] = 1
    rows, cols = np.nonzero(fine)
    pixel_index = np.full((height, width), -1, dtype=np.intp)
    pixel_index[rows, cols] = np.arange(len(rows))

    s = options.supersample
    ox, oy = subpixel_offsets(s)
    rays = Rays(camera, undistorted_samples(grid, rows, cols, ox, oy))
    depth, colour, _ = table_colours(rays, scene.table)
    owner = np.full(len(depth), -1, dtype=np.intp)
    card_samples = np.zeros(len(items), dtype=np.int64)
    per_pixel = np.arange(s * s)

    for k, (item, box) in enumerate(zip(items, boxes, strict=True)):
        if box is None:
            continue
        x0, y0, x1, y1 = box
        in_box = pixel_index[y0:y1, x0:x1].reshape(-1)
        in_box = in_box[in_box >= 0]  # an area's box is sampled finely only along its edges
        index = (in_box[:, None] * (s * s) + per_pixel).ravel()
        subset = rays.subset(index)
        if isinstance(item, SimArea):
            lam, item_colour = hit_area(subset, item)
            nearer = lam <= depth[index] * (1.0 + 1e-9)
        elif isinstance(item, SimMarker):
            lam, item_colour = hit_card(subset, item, cards[k - len(scene.areas)])
            card_samples[k] = int(np.isfinite(lam).sum())
            # A card lies on whatever is at its height: it wins ties.
            nearer = np.isfinite(lam) & (lam <= depth[index] * (1.0 + 1e-9))
        else:
            lam, item_colour = hit_body(subset, item)
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
        for k, m in enumerate(scene.markers, start=len(scene.areas))
    }
    return Render(image=picture, truth=truth)


def _finish(linear: NDArray[np.float32], options: RenderOptions) -> NDArray[np.uint8]:
    """Light, blur, add noise, quantise and compress the albedo image (H, W, 3)."""
    height, width = linear.shape[:2]
    image: NDArray[np.float32] = linear * _lighting((width, height), options)[:, :, None]
    if options.blur_sigma_px > 0.0:
        image = np.asarray(cv2.GaussianBlur(image, (0, 0), options.blur_sigma_px), np.float32)
    if options.motion_px > 0.0:
        image = np.asarray(cv2.filter2D(image, -1, _smear(options)), np.float32)
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


def _smear(options: RenderOptions) -> NDArray[np.float32]:
    """The kernel of a motion blur: a line ``motion_px`` long through the centre,
    ``motion_deg`` from +u, drawn with sub-pixel weights, summing to 1."""
    length = options.motion_px
    half = int(np.ceil(length / 2.0)) + 1
    size = 2 * half + 1
    fine = 8  # drawn at 8 times the resolution, then averaged down
    canvas = np.zeros((size * fine, size * fine), np.float32)
    angle = np.radians(options.motion_deg)
    along = np.array([np.cos(angle), -np.sin(angle)]) * length / 2.0 * fine
    centre = np.array([size * fine / 2.0, size * fine / 2.0])
    start, end = centre - along, centre + along
    shift = 4  # sub-pixel positions for cv2.line
    cv2.line(
        canvas,
        tuple(int(v) for v in np.round(start * 2**shift)),
        tuple(int(v) for v in np.round(end * 2**shift)),
        1.0,
        thickness=1,
        lineType=cv2.LINE_AA,
        shift=shift,
    )
    kernel = canvas.reshape(size, fine, size, fine).sum(axis=(1, 3))
    return np.asarray(kernel / kernel.sum(), np.float32)


def _truth(
    camera: Camera, marker: SimMarker, modules: int, shown: int, card_samples: int
) -> MarkerTruth:
    """The truth of one marker, given how many of its card's samples show."""
    corners = marker.corners_mm()
    centre = np.array([marker.x_mm, marker.y_mm, marker.z_mm])
    points = np.vstack([centre, corners])
    distorted = camera.project(points)
    ideal = camera.project(points, distorted=False)
    half = card_side_mm(marker, modules) / 2.0
    card = marker.place(np.array([[-half, half], [half, half], [half, -half], [-half, -half]]))
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
