"""Where rays meet the table, a marker card or a body, and the colour each hit shows."""

from __future__ import annotations

import math

import numpy as np
import shapely
from numpy.typing import NDArray

from arbitre.vision.errors import VisionError
from arbitre.vision.simulate.camera import FloatArray
from arbitre.vision.simulate.rays import Rays
from arbitre.vision.simulate.scene import (
    INK_BGR,
    PAPER_BGR,
    SURROUND_BGR,
    Colour,
    SimArea,
    SimBody,
    SimMarker,
    SimTable,
    card_side_mm,
    table_to_local,
)

_LIGHT_DIRECTION = np.array([0.35, -0.45, 0.82]) / np.linalg.norm([0.35, -0.45, 0.82])


def _shade(colour: Colour, normals: FloatArray) -> NDArray[np.float32]:
    """Lambert shading of a body's colour, (N, 3) normals -> (N, 3) BGR."""
    light = 0.55 + 0.45 * np.clip(normals @ _LIGHT_DIRECTION, 0.0, 1.0)
    return np.asarray(light[:, None] * np.asarray(colour), dtype=np.float32)


def hit_card(
    rays: Rays, marker: SimMarker, card: NDArray[np.bool_]
) -> tuple[FloatArray, NDArray[np.float32]]:
    """Ray parameters (N,) (inf when missed) and colours (N, 3) of a marker card."""
    modules = card.shape[0]
    side = card_side_mm(marker, modules)
    if marker.tilt_deg == 0.0:
        lam, xy = rays.plane_hits(marker.z_mm)
        local = table_to_local(xy, marker.x_mm, marker.y_mm, marker.rotation_deg)
    else:
        axes = marker.frame()
        centre = np.array([marker.x_mm, marker.y_mm, marker.z_mm])
        towards = rays.directions @ axes[:, 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            lam = np.where(towards < 0.0, ((centre - rays.origin) @ axes[:, 2]) / towards, np.inf)
        lam = np.where(lam > 0.0, lam, np.inf)
        hits = rays.origin + np.where(np.isfinite(lam), lam, 0.0)[:, None] * rays.directions
        local = (hits - centre) @ axes[:, :2]
    inside = np.all(np.abs(local) <= side / 2.0, axis=1) & np.isfinite(lam)
    module = side / modules
    col = np.clip(np.floor((local[:, 0] + side / 2.0) / module), 0, modules - 1).astype(np.intp)
    row = np.clip(np.floor((side / 2.0 - local[:, 1]) / module), 0, modules - 1).astype(np.intp)
    white = card[row, col]
    colours = np.where(white[:, None], np.array(PAPER_BGR), np.array(INK_BGR))
    return np.where(inside, lam, np.inf), colours.astype(np.float32)


def hit_body(rays: Rays, body: SimBody) -> tuple[FloatArray, NDArray[np.float32]]:
    """Ray parameters (N,) (inf when missed) and shaded colours (N, 3) of a body."""
    top_lam, top_xy = rays.plane_hits(body.height_mm)
    local_top = table_to_local(top_xy, body.x_mm, body.y_mm, body.rotation_deg)
    origin = table_to_local(rays.origin[None, :2], body.x_mm, body.y_mm, body.rotation_deg)[0]
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


def hit_area(rays: Rays, area: SimArea) -> tuple[FloatArray, NDArray[np.float32]]:
    """Ray parameters (N,) (inf when missed) and colours (N, 3) of a terrain piece.

    The ground is textured (3 mm flecks, as flock or sand): the top's colour varies by
    up to 18 %. A hill's upright sides are shaded darker; a side hit is placed at the
    ray's meeting with the table, close enough to order it against the other items.
    """
    polygon = shapely.Polygon(area.outline_mm)
    shapely.prepare(polygon)
    top_lam, top_xy = rays.plane_hits(area.height_mm)
    on_top = np.isfinite(top_lam) & shapely.contains_xy(polygon, top_xy[:, 0], top_xy[:, 1])
    cells = np.floor(top_xy / 3.0)
    fleck = np.sin(cells[:, 0] * 12.9898 + cells[:, 1] * 78.233) * 43758.5453
    fleck -= np.floor(fleck)
    colours = np.asarray(area.colour_bgr) * (0.82 + 0.18 * fleck)[:, None]
    lam = np.where(on_top, top_lam, np.inf)
    if area.height_mm > 0.0:
        base_lam, base_xy = rays.plane_hits(0.0)
        on_side = (
            ~on_top
            & np.isfinite(base_lam)
            & shapely.contains_xy(polygon, base_xy[:, 0], base_xy[:, 1])
        )
        lam = np.where(on_side, base_lam, lam)
        colours = np.where(on_side[:, None], 0.6 * np.asarray(area.colour_bgr), colours)
    return lam, colours.astype(np.float32)


def table_colours(
    rays: Rays, table: SimTable
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
