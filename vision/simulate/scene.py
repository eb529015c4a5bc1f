"""The items of a simulated scene (table, marker cards, bodies) and the helpers that place them.

A marker is a flat printed card whose centre is at height ``z_mm``: the
black square of side ``size_mm`` with a white quiet zone of one module around
it. Printed upright its top edge points to +y, so its first corner (OpenCV's
top-left) is at ``(x - s/2, y + s/2)``; ``rotation_deg`` turns it
counter-clockwise, and ``tilt_deg`` tips it about a horizontal axis through its
centre (a card glued slightly askew). A `SimArea` is a terrain piece: a
textured polygon on the table, or the flat top of a hill. `figure` gives the
bodies of a figure carrying a marker, `anchors` the flat markers near a
table's corners.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Sequence
from typing import Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from arbitre.vision.errors import VisionError
from arbitre.vision.simulate.camera import FloatArray

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


@dataclasses.dataclass(frozen=True, slots=True)
class SimMarker:
    """A printed marker card, its centre at height ``z_mm``; ``size_mm``: its black square's side.

    ``tilt_deg`` tips the card about the horizontal axis through its centre that points
    towards ``tilt_axis_deg`` (table frame, counter-clockwise from +x; right-handed, so
    a positive tilt about +x raises the card's +y side).
    """

    id: int
    x_mm: float
    y_mm: float
    z_mm: float = 0.0
    size_mm: float = 20.0
    rotation_deg: float = 0.0
    tilt_deg: float = 0.0
    tilt_axis_deg: float = 0.0

    def corners_mm(self) -> FloatArray:
        """The black square's corners (4, 3) in table mm, OpenCV order (top-left first)."""
        half = self.size_mm / 2.0
        local = np.array([[-half, half], [half, half], [half, -half], [-half, -half]])
        return self.place(local)

    def frame(self) -> FloatArray:
        """The card's axes in the table frame (3, 3): columns +x (right), +y (top), normal."""
        angle = math.radians(self.rotation_deg)
        c, s = math.cos(angle), math.sin(angle)
        turn = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
        if self.tilt_deg == 0.0:
            return turn
        axis = math.radians(self.tilt_axis_deg)
        rvec = math.radians(self.tilt_deg) * np.array([math.cos(axis), math.sin(axis), 0.0])
        tip, _ = cv2.Rodrigues(rvec)
        return np.asarray(tip @ turn, dtype=np.float64)

    def place(self, local_xy: FloatArray) -> FloatArray:
        """Points (N, 2) in the card's own frame (mm from its centre) -> (N, 3) table mm."""
        local = np.column_stack([local_xy, np.zeros(len(local_xy))])
        return np.asarray(local @ self.frame().T + [self.x_mm, self.y_mm, self.z_mm])


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
class SimArea:
    """A terrain piece: the polygon ``outline_mm`` ((N, 2) table mm) of textured ground.

    ``height_mm`` > 0 makes it a hill: a flat top at that height with upright sides.
    """

    outline_mm: tuple[tuple[float, float], ...]
    height_mm: float = 0.0
    colour_bgr: Colour = (60.0, 95.0, 70.0)


@dataclasses.dataclass(frozen=True, slots=True)
class SimPiece:
    """A terrain piece carrying a marker: what a roster would say of it.

    ``outline_mm``: its polygon (``kind`` an area) or its line (``line`` True: a hedge or
    wall) in the marker's frame -- mm from the card's centre, +y the way its top edge
    points on the table, +x to its right. ``area`` is what the camera sees of it.
    """

    marker: SimMarker
    kind: str
    outline_mm: tuple[tuple[float, float], ...]
    area: SimArea
    line: bool = False

    def heading_deg(self) -> float:
        """The way the card's top edge points, seen from above (it may be tilted)."""
        up = self.marker.frame()[:, 1]
        return math.degrees(math.atan2(up[1], up[0])) % 360.0

    def outline_on_table(self) -> FloatArray:
        """The piece's outline (N, 2) in table mm: its place, by its marker, on the table."""
        return piece_to_table(self.marker, self.outline_mm)


def piece_to_table(marker: SimMarker, local_mm: Sequence[tuple[float, float]]) -> FloatArray:
    """Points (N, 2) of a piece's frame (mm from ``marker``'s centre, +y the way its top edge
    points seen from above, +x to its right) -> (N, 2) table mm."""
    up_3d = marker.frame()[:, 1]
    angle = math.atan2(up_3d[1], up_3d[0])
    up = np.array([math.cos(angle), math.sin(angle)])
    right = np.array([up[1], -up[0]])
    local = np.asarray(local_mm, dtype=np.float64).reshape(-1, 2)
    return np.asarray([marker.x_mm, marker.y_mm] + local[:, :1] * right + local[:, 1:] * up)


@dataclasses.dataclass(frozen=True, slots=True)
class SimTable:
    """The table top: the rectangle [0, width_mm] x [0, depth_mm] at z = 0."""

    width_mm: float
    depth_mm: float
    colour_bgr: Colour = (70.0, 112.0, 84.0)


@dataclasses.dataclass(frozen=True, slots=True)
class SimScene:
    """A table with its markers (anchors are markers at z = 0), the bodies that carry them
    and its terrain pieces."""

    table: SimTable
    markers: tuple[SimMarker, ...] = ()
    bodies: tuple[SimBody, ...] = ()
    dictionary_name: str = "DICT_4X4_250"
    areas: tuple[SimArea, ...] = ()
    pieces: tuple[SimPiece, ...] = ()
    """The terrain pieces carrying markers (their markers and areas are in ``markers``
    and ``areas`` too)."""


def local_to_table(
    local_xy: FloatArray, x_mm: float, y_mm: float, z_mm: float, rotation_deg: float
) -> FloatArray:
    """Local (N, 2) points turned counter-clockwise and moved to (x, y, z): (N, 3) table mm."""
    angle = math.radians(rotation_deg)
    c, s = math.cos(angle), math.sin(angle)
    xy = local_xy @ np.array([[c, s], [-s, c]]) + [x_mm, y_mm]
    return np.column_stack([xy, np.full(len(xy), float(z_mm))])


def table_to_local(
    points_xy: FloatArray, x_mm: float, y_mm: float, rotation_deg: float
) -> FloatArray:
    """Table (N, 2) points in an item's frame (its centre at 0, its axes turned by rotation_deg)."""
    angle = math.radians(rotation_deg)
    c, s = math.cos(angle), math.sin(angle)
    return np.asarray((points_xy - [x_mm, y_mm]) @ np.array([[c, -s], [s, c]]), dtype=np.float64)


@functools.lru_cache(maxsize=16)
def marker_card(dictionary_name: str, marker_id: int) -> NDArray[np.bool_]:
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


def card_side_mm(marker: SimMarker, modules: int) -> float:
    """Side of the whole card: the black square plus one module of quiet zone on each side."""
    return marker.size_mm * modules / (modules - 2)


def figure(marker: SimMarker, colour_bgr: Colour = FIGURE_COLOURS_BGR[0]) -> tuple[SimBody, ...]:
    """The bodies of a figure carrying ``marker`` on its head: a 25 mm base and a body.

    A marker at z = 0 is a flat token and has no body. The body's top is just under
    the card's lowest corner, so the card hides it from above even when tilted.
    """
    if marker.z_mm <= 0.0:
        return ()
    drop = marker.size_mm / math.sqrt(2.0) * math.sin(math.radians(abs(marker.tilt_deg)))
    top = max(marker.z_mm - drop - 0.3, 0.1)
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
