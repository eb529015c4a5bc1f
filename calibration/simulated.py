"""The set-up files of a simulated table: camera.yaml, table.yaml and roster.yaml.

A simulator scene (`arbitre.vision.simulate`) knows its camera, anchors and figure
markers exactly; writing them as the files a user would write lets the whole
chain — files, detection, pose, location — run on it as on a real table.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from arbitre.calibration.camera import CameraIntrinsics, save_camera
from arbitre.calibration.table import Roster, Table, roster_from_mapping, table_from_mapping
from arbitre.files import write_atomically
from arbitre.vision.simulate import Preset

ANCHOR_IDS = frozenset({0, 1, 2, 3})
_PIECE_KINDS = {"wood": "wood", "hill": "difficult", "hedge": "obstacle"}
"""The simulator's pieces as roster terrain kinds (a hill is difficult ground, level 1)."""


@dataclass(frozen=True, slots=True)
class SetupFiles:
    camera: Path
    table: Path
    roster: Path


def setup_of(preset: Preset) -> tuple[CameraIntrinsics, Table, Roster]:
    """The preset's camera, table and roster, as loaded from its files."""
    table, roster = _documents(preset)
    return _intrinsics(preset), table_from_mapping(table), roster_from_mapping(roster)


def write_setup(preset: Preset, folder: Path) -> SetupFiles:
    """Write the preset's camera, table (anchors 0-3) and roster (its terrain pieces and
    every other marker as a figure)."""
    folder.mkdir(parents=True, exist_ok=True)
    files = SetupFiles(folder / "camera.yaml", folder / "table.yaml", folder / "roster.yaml")
    save_camera(_intrinsics(preset), files.camera)
    table, roster = _documents(preset)
    write_atomically(files.table, yaml.safe_dump(table, sort_keys=False))
    write_atomically(files.roster, yaml.safe_dump(roster, sort_keys=False))
    return files


def _intrinsics(preset: Preset) -> CameraIntrinsics:
    camera = preset.camera
    return CameraIntrinsics(camera.image_size, camera.camera_matrix, camera.dist_coeffs)


def _documents(preset: Preset) -> tuple[dict[str, Any], dict[str, Any]]:
    """table.yaml and roster.yaml of the preset, as plain data."""
    scene = preset.scene
    table = {
        "width_mm": scene.table.width_mm,
        "depth_mm": scene.table.depth_mm,
        "dictionary": scene.dictionary_name,
        "anchors": [
            {
                "id": m.id,
                "x_mm": m.x_mm,
                "y_mm": m.y_mm,
                "size_mm": m.size_mm,
                "rotation_deg": m.rotation_deg,
            }
            for m in scene.markers
            if m.id in ANCHOR_IDS
        ],
    }
    piece_ids = {p.marker.id for p in scene.pieces}
    roster: dict[str, Any] = {
        "figures": [
            {"marker": m.id, "name": f"figure {m.id}", "marker_height_mm": m.z_mm}
            for m in scene.markers
            if m.id not in ANCHOR_IDS and m.id not in piece_ids
        ]
    }
    if scene.pieces:
        roster["terrain"] = [
            {
                "marker": p.marker.id,
                "id": f"{p.kind}{p.marker.id}",
                "kind": _PIECE_KINDS.get(p.kind, "difficult"),
                "marker_height_mm": p.marker.z_mm,
                **({"level": 1} if p.area.height_mm > 0.0 else {}),
                "line_mm" if p.line else "polygon_mm": [list(v) for v in p.outline_mm],
            }
            for p in scene.pieces
        ]
    return table, roster
