"""Setting a table up: anchors at its corners, written as table.yaml (see docs/formats.md)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import yaml

from arbitre.calibration._files import parse_yaml
from arbitre.calibration.errors import CalibrationError, CalibrationFileError
from arbitre.calibration.table import table_from_mapping
from arbitre.files import FileWriteError, write_atomically

EDGE_ANCHORS_FROM_MM = 1500.0
"""A table whose long side is at least this gets two more anchors, at the middles of its
long edges: a camera at one edge sees the far corners small and aslant, and a hand over
a corner leaves the pose fewer anchors to rest on."""


def corner_anchors(
    width_mm: float,
    depth_mm: float,
    size_mm: float,
    inset_mm: float,
    *,
    edge_middles: bool = False,
) -> list[dict[str, Any]]:
    """Anchors 0-3 at the corners, counter-clockwise from the origin, ``inset_mm`` in; with
    ``edge_middles``, 4 and 5 at the middles of the long edges (the near one first).

    >>> [(a["id"], a["x_mm"], a["y_mm"]) for a in corner_anchors(1200, 900, 40, 35)]
    [(0, 35, 35), (1, 1165, 35), (2, 1165, 865), (3, 35, 865)]
    >>> [(a["id"], a["x_mm"], a["y_mm"]) for a in corner_anchors(1830, 1220, 40, 35,
    ...                                                           edge_middles=True)][4:]
    [(4, 915, 35), (5, 915, 1185)]
    """
    for name, value in (
        ("width_mm", width_mm),
        ("depth_mm", depth_mm),
        ("anchor size", size_mm),
        ("inset", inset_mm),
    ):
        if not math.isfinite(value) or value <= 0:
            raise CalibrationError(f"{name} must be a positive number of mm, got {value!r}")
    if inset_mm < size_mm / 2:
        raise CalibrationError(
            f"inset {inset_mm:g} mm would put a {size_mm:g} mm anchor over the table's edge"
            f" (--inset-mm {size_mm / 2:g} or more)"
        )
    if 2 * inset_mm + size_mm > min(width_mm, depth_mm):
        raise CalibrationError(
            f"a {width_mm:g} x {depth_mm:g} mm table is too small for "
            f"anchors {inset_mm:g} mm from its edges"
        )
    corners = [
        (inset_mm, inset_mm),
        (width_mm - inset_mm, inset_mm),
        (width_mm - inset_mm, depth_mm - inset_mm),
        (inset_mm, depth_mm - inset_mm),
    ]
    if edge_middles and width_mm >= depth_mm:
        corners += [(width_mm / 2, inset_mm), (width_mm / 2, depth_mm - inset_mm)]
    elif edge_middles:
        corners += [(inset_mm, depth_mm / 2), (width_mm - inset_mm, depth_mm / 2)]
    return [
        {"id": index, "x_mm": _tidy(x), "y_mm": _tidy(y), "size_mm": _tidy(size_mm)}
        for index, (x, y) in enumerate(corners)
    ]


def write_table(
    path: Path,
    width_mm: float,
    depth_mm: float,
    dictionary: str,
    anchors: list[dict[str, Any]],
    *,
    overwrite: bool = True,
) -> None:
    """Write table.yaml, read back by the table's own reader first, never half-written.

    With ``overwrite=False`` an existing file (perhaps corrected by hand) is kept:
    `FileExistsError`. A file that cannot be written is a `CalibrationFileError`.
    """
    document = {
        "width_mm": _tidy(width_mm),
        "depth_mm": _tidy(depth_mm),
        "dictionary": dictionary,
        "anchors": anchors,
    }
    header = (
        "# The table and its anchor markers (glued flat, top edge towards +y).\n"
        "# Measure where you glued them and correct x_mm, y_mm if they differ.\n"
    )
    text = header + yaml.safe_dump(document, sort_keys=False, default_flow_style=None)

    def reads_back(data: bytes) -> None:
        fields = parse_yaml(data.decode("utf-8"), str(path))
        table_from_mapping(fields if isinstance(fields, dict) else {}, str(path))

    try:
        write_atomically(path, text, validate=reads_back, overwrite=overwrite)
    except FileWriteError as error:
        raise CalibrationFileError(
            str(path), "", f"cannot write the file ({error.reason})"
        ) from None


def _tidy(value: float) -> float | int:
    return int(value) if float(value).is_integer() else float(value)
