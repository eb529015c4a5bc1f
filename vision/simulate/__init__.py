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

A marker is a flat printed card whose centre is at height ``z_mm``: the
black square of side ``size_mm`` with a white quiet zone of one module around
it. Printed upright its top edge points to +y, so its first corner (OpenCV's
top-left) is at ``(x - s/2, y + s/2)``; ``rotation_deg`` turns it
counter-clockwise and ``tilt_deg`` tips it (a card glued a little askew). A
`SimArea` is a terrain piece: textured ground, or a hill's flat top. Only
numpy, OpenCV and shapely are used, and nothing from the rest of the project:
every input is a plain value.

Modules
-------
:mod:`~arbitre.vision.simulate.camera` holds :class:`Camera` and :func:`look_at`;
:mod:`~arbitre.vision.simulate.scene` the scene's items (:class:`SimTable`,
:class:`SimMarker`, :class:`SimBody`, :class:`SimArea`, :class:`SimScene`) with :func:`figure` and
:func:`anchors`; :mod:`~arbitre.vision.simulate.render` the renderer :func:`render` and
the truth it returns, helped by :mod:`~arbitre.vision.simulate.rays` (pixels to rays) and
:mod:`~arbitre.vision.simulate.hits` (rays to colours); :mod:`~arbitre.vision.simulate.presets`
the ready scenes (:func:`preset`); :mod:`~arbitre.vision.simulate.plane`
:func:`render_plane`, a flat printed sheet seen by a camera.
"""

from __future__ import annotations

from arbitre.vision.simulate.camera import Camera, FloatArray, look_at
from arbitre.vision.simulate.plane import render_plane
from arbitre.vision.simulate.presets import (
    CLUB_PRESETS,
    HARD_PRESETS,
    MIN_SCALE,
    PRESETS,
    Preset,
    club_cameras,
    preset,
)
from arbitre.vision.simulate.render import MarkerTruth, Render, RenderOptions, arm_over, render
from arbitre.vision.simulate.scene import (
    FIGURE_COLOURS_BGR,
    INK_BGR,
    PAPER_BGR,
    SURROUND_BGR,
    Colour,
    SimArea,
    SimBody,
    SimMarker,
    SimScene,
    SimTable,
    anchors,
    figure,
)

__all__ = [
    "FIGURE_COLOURS_BGR",
    "INK_BGR",
    "MIN_SCALE",
    "PAPER_BGR",
    "CLUB_PRESETS",
    "HARD_PRESETS",
    "PRESETS",
    "SURROUND_BGR",
    "Camera",
    "Colour",
    "FloatArray",
    "MarkerTruth",
    "Preset",
    "Render",
    "RenderOptions",
    "SimArea",
    "SimBody",
    "SimMarker",
    "SimScene",
    "SimTable",
    "anchors",
    "arm_over",
    "figure",
    "look_at",
    "club_cameras",
    "preset",
    "render",
    "render_plane",
]
