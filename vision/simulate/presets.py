"""The ready scenes of the accuracy benchmark: `preset` by name, one of `PRESETS`."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np
import shapely

from arbitre.vision.errors import VisionError
from arbitre.vision.simulate.camera import Camera, look_at
from arbitre.vision.simulate.render import Render, RenderOptions, render
from arbitre.vision.simulate.scene import (
    FIGURE_COLOURS_BGR,
    SimArea,
    SimBody,
    SimMarker,
    SimPiece,
    SimScene,
    SimTable,
    anchors,
    figure,
    piece_to_table,
)

PRESETS = ("overhead", "tripod", "4k", "harsh")

HARD_PRESETS = ("tilted4k", "shaken")

CLUB_PRESETS = ("club4k", "club1080")
"""A club's 6 x 4 ft table seen from the middle of a long edge (`club_cameras` adds the
camera at the opposite edge): 80 figures with 15-18 mm markers at 0-54 mm, tipped by
up to 4 degrees."""
"""Views at the edge of what can be read (the recall bench): every marker imaged at 2 px
a module or more should be found."""
MIN_SCALE = 0.25  # below, the anchors at the corners of the shrunk table would overlap

PIECE_REACH_MM = 200.0
"""How far a simulated terrain piece reaches from its marker (its farthest vertex)."""

PIECE_TILT_DEG = 4.0
"""Terrain markers are glued tipped by up to this much (uniformly drawn), degrees."""

_TIPPED_ABOVE_MM = 5.0
"""Figures' cards this high or more may be tipped (one lower lies flat on its base)."""

FIRST_PIECE_ID = 200
PIECE_KINDS = ("wood", "hill", "hedge")
_PIECE_HEIGHTS_MM = {"wood": 0.0, "hill": 40.0, "hedge": 25.0}
_HEDGE_WIDTH_MM = 16.0


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
    marker_range_mm: tuple[float, float] | None = None  # each figure's drawn in this range
    tilt_max_deg: float = 0.0  # figures' cards tipped by up to this much


_OVERHEAD = _PresetGeometry(
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
)

# A club's 6 x 4 ft table from the middle of a long edge: a 4K camera on a tripod 1.1 m up,
# 30 cm back from the edge, looking at a point 30 cm short of the table's centre; 15 to 18 mm
# markers on figures 0 to 54 mm tall, tipped by up to 4 degrees.
_CLUB_4K = _PresetGeometry(
    image_size=(3840, 2160),
    focal_px=2000.0,
    dist_coeffs=(-0.05, 0.02, 0.0, 0.0, 0.0),
    eye_offset_mm=(0.0, -910.0, 1100.0),
    target_offset_mm=(0.0, -300.0, 0.0),
    table_mm=(1830.0, 1220.0),
    marker_mm=18.0,
    heights_mm=None,
    height_range_mm=(0.0, 54.0),
    options=RenderOptions(blur_sigma_px=1.0, noise_sigma=2.0, jpeg_quality=90),
    marker_range_mm=(15.0, 18.0),
    tilt_max_deg=4.0,
)

_GEOMETRY: dict[str, _PresetGeometry] = {
    "overhead": _OVERHEAD,
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
    # The overhead scene in poor light.
    "harsh": dataclasses.replace(
        _OVERHEAD,
        options=RenderOptions(
            brightness=0.45, gradient=0.5, blur_sigma_px=1.0, noise_sigma=6.0, jpeg_quality=75
        ),
    ),
    # A club's 6 x 4 ft table seen from its long edge (as club4k): 16 mm markers on
    # figures 20 to 32 mm tall (a quarter flat), none tipped; 2 to 6 px a module from the
    # far corners to the near edge, 1 px of lens blur (a 4K webcam's lens is no sharper).
    "tilted4k": dataclasses.replace(
        _CLUB_4K,
        marker_mm=16.0,
        height_range_mm=(20.0, 32.0),
        marker_range_mm=None,
        tilt_max_deg=0.0,
    ),
    "club4k": _CLUB_4K,
    # The same table in 1080p through the same lens: half the pixels a module.
    "club1080": dataclasses.replace(
        _CLUB_4K,
        image_size=(1920, 1080),
        focal_px=1000.0,
        options=RenderOptions(blur_sigma_px=0.7, noise_sigma=2.0, jpeg_quality=90),
    ),
    # The overhead table, the camera shaken: 5 px of motion blur, a soft lens, noise, JPEG.
    "shaken": dataclasses.replace(
        _OVERHEAD,
        options=RenderOptions(motion_px=5.0, blur_sigma_px=0.8, noise_sigma=3.0, jpeg_quality=85),
    ),
}


def preset(
    name: str,
    *,
    scale: float = 1.0,
    figures: int | None = None,
    pieces: int = 0,
    seed: int = 0,
) -> Preset:
    """A scene of the issue's accuracy benchmark.

    ``overhead``: 1080p webcam 1 m straight over a 90 x 60 cm table, 20 mm markers
    at 0-32 mm (a quarter of them flat); ``tripod``: 1080p wide-angle (k1 = -0.25)
    80 cm up at the table's near edge, tilted 35 degrees, over 120 x 90 cm, 25 mm
    markers at 0 or 54 mm; ``4k``: 3840 x
    2160 at 1.8 m over 180 x 120 cm, 18 mm markers; ``harsh``: the overhead scene
    dim, with a light gradient, blur (1 px), noise (6 levels) and JPEG 75. Hard views
    (`HARD_PRESETS`): ``tilted4k``, a 183 x 122 cm (6 x 4 ft) table seen by a 4K camera
    from the middle of its long edge, 1.1 m up, 16 mm markers at 2 to 6 px a module, a
    lens blur of 1 px; ``shaken``, the overhead scene with 5 px of motion blur in a random
    direction and a lens blur of 0.8 px.
    Every scene has anchors 0-3 (40 mm, flat) near the table's corners and
    ``figures`` markers (default 20 x scale^2) with ids from 10 at random places,
    turns and heights drawn from ``seed``.

    ``pieces`` adds terrain pieces carrying markers (ids from 200), in turn a wood
    (flecked ground), a hill (40 mm high, its marker on top) and a hedge (a 25 mm
    strip, its marker on top), each reaching `PIECE_REACH_MM` from its marker, the
    marker glued tipped by up to `PIECE_TILT_DEG`. Figures keep off hills and hedges.

    ``scale`` < 1 renders a smaller image of a proportionally smaller table, seen
    from the same place by a camera with the same focal length (its distortion
    rescaled so the image keeps its shape): markers keep their size in pixels,
    only the field of view and the number of figures shrink.
    """
    geometry = _GEOMETRY.get(name)
    if geometry is None:
        raise VisionError(
            f"unknown simulator preset {name!r}; expected one of "
            f"{', '.join(PRESETS + HARD_PRESETS + CLUB_PRESETS)}"
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
    placed = _random_pieces(table, geometry, pieces, rng)
    markers, bodies = _random_figures(table, corner_anchors, geometry, count, rng, placed)
    piece_markers = tuple(p.marker for p in placed)
    scene = SimScene(
        table,
        corner_anchors + piece_markers + markers,
        bodies,
        areas=tuple(p.area for p in placed),
        pieces=placed,
    )
    options = dataclasses.replace(
        geometry.options,
        gradient_deg=float(rng.uniform(0.0, 360.0)),
        motion_deg=float(rng.uniform(0.0, 180.0)),
        seed=seed,
    )
    return Preset(name, camera, scene, options)


def _random_figures(
    table: SimTable,
    corner_anchors: Sequence[SimMarker],
    geometry: _PresetGeometry,
    count: int,
    rng: np.random.Generator,
    pieces: Sequence[SimPiece] = (),
) -> tuple[tuple[SimMarker, ...], tuple[SimBody, ...]]:
    """Figures 10, 11, ... at random free places, turns and heights, with their bodies,
    clear of the anchors, the pieces' markers and the raised pieces."""
    margin = min(50.0, table.width_mm / 4.0, table.depth_mm / 4.0)
    spacing = max(40.0, 1.6 * geometry.marker_mm)
    taken = [np.array([a.x_mm, a.y_mm]) for a in (*corner_anchors, *(p.marker for p in pieces))]
    clearances = [35.0 + spacing / 2.0] * len(taken)
    raised = shapely.union_all(
        [shapely.Polygon(p.area.outline_mm) for p in pieces if p.area.height_mm > 0.0]
    ).buffer(20.0)
    markers: list[SimMarker] = []
    bodies: list[SimBody] = []
    for _ in range(200 * max(count, 1)):
        if len(markers) == count:
            break
        xy = rng.uniform([margin, margin], [table.width_mm - margin, table.depth_mm - margin])
        if any(np.hypot(*(xy - p)) < c for p, c in zip(taken, clearances, strict=True)):
            continue
        if shapely.contains_xy(raised, xy[0], xy[1]):
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
        if geometry.marker_range_mm is not None:  # drawn only here: other presets keep theirs
            tilt = float(rng.uniform(0.0, geometry.tilt_max_deg))
            marker = dataclasses.replace(
                marker,
                size_mm=round(float(rng.uniform(*geometry.marker_range_mm)), 1),
                # a card lying on the table (or a base) lies flat on it
                tilt_deg=round(tilt, 2) if z >= _TIPPED_ABOVE_MM else 0.0,
                tilt_axis_deg=round(float(rng.uniform(0.0, 360.0)), 1),
            )
        colour = FIGURE_COLOURS_BGR[int(rng.integers(len(FIGURE_COLOURS_BGR)))]
        markers.append(marker)
        bodies.extend(figure(marker, colour))
        taken.append(xy)
        clearances.append(spacing)
    return tuple(markers), tuple(bodies)


def _random_pieces(
    table: SimTable, geometry: _PresetGeometry, count: int, rng: np.random.Generator
) -> tuple[SimPiece, ...]:
    """``count`` terrain pieces (wood, hill, hedge in turn) with their markers, at random
    places and turns, each wholly on the table; fewer when the table has no room."""
    reach = PIECE_REACH_MM
    low = np.array([reach + 10.0, reach + 10.0])
    high = np.array([table.width_mm, table.depth_mm]) - low
    if count <= 0 or np.any(high < low):
        return ()
    pieces: list[SimPiece] = []
    for _ in range(200 * count):
        if len(pieces) == count:
            break
        xy = rng.uniform(low, high)
        if any(np.hypot(xy[0] - p.marker.x_mm, xy[1] - p.marker.y_mm) < reach for p in pieces):
            continue
        kind = PIECE_KINDS[len(pieces) % len(PIECE_KINDS)]
        height = _PIECE_HEIGHTS_MM[kind]
        marker = SimMarker(
            FIRST_PIECE_ID + len(pieces),
            round(float(xy[0]), 2),
            round(float(xy[1]), 2),
            height + (3.0 if kind == "wood" else 1.0),  # on a wood's base, on a top
            geometry.marker_mm,
            round(float(rng.uniform(0.0, 360.0)), 1),
            tilt_deg=round(float(rng.uniform(0.0, PIECE_TILT_DEG)), 2),
            tilt_axis_deg=round(float(rng.uniform(0.0, 360.0)), 1),
        )
        outline: tuple[tuple[float, float], ...]
        if kind == "hedge":
            way = rng.uniform(0.0, 2.0 * math.pi)
            end = reach * np.array([math.cos(way), math.sin(way)])
            outline = ((float(-end[0]), float(-end[1])), (float(end[0]), float(end[1])))
            strip = shapely.LineString(outline).buffer(_HEDGE_WIDTH_MM / 2.0, cap_style="flat")
            local = strip.exterior.coords[:-1]
        else:
            outline = _blob(reach, rng)
            local = outline
        on_table = piece_to_table(marker, local)
        area = SimArea(tuple((float(x), float(y)) for x, y in on_table), height)
        others = [p.area for p in pieces if p.area.height_mm > 0.0] + (
            [area] if height > 0.0 else []
        )
        markers = [p.marker for p in pieces] + [marker]
        if any(
            shapely.contains_xy(shapely.Polygon(a.outline_mm).buffer(25.0), m.x_mm, m.y_mm)
            for a in others
            for m in markers
            if m.z_mm < a.height_mm + 1.0
        ):
            continue  # a raised piece would hide a marker
        pieces.append(SimPiece(marker, kind, outline, area, line=kind == "hedge"))
    return tuple(pieces)


def _blob(reach: float, rng: np.random.Generator) -> tuple[tuple[float, float], ...]:
    """A star-shaped outline of 7 vertices around its marker, the farthest ``reach`` away."""
    angles = np.sort(rng.uniform(0.0, 2.0 * math.pi, 7))
    radii = rng.uniform(0.55 * reach, reach, 7)
    radii[int(rng.integers(7))] = reach
    return tuple(
        (round(float(r * math.cos(a)), 2), round(float(r * math.sin(a)), 2))
        for a, r in zip(angles, radii, strict=True)
    )


def club_cameras(club: Preset) -> tuple[Camera, Camera]:
    """A preset's camera and the same camera at the opposite edge of its table, looking
    back across it (carried half a turn round the table's centre)."""
    table = club.scene.table
    return club.camera, club.camera.around((table.width_mm / 2.0, table.depth_mm / 2.0), 180.0)
