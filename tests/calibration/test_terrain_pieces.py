"""Terrain pieces that carry a marker: read from roster.yaml, placed by their marker."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest

from arbitre.calibration.errors import CalibrationFileError
from arbitre.calibration.locate import LocateResult, locate_markers
from arbitre.calibration.table import Roster, roster_from_mapping

sys.path.insert(0, str(Path(__file__).parent))
from test_locate import CAMERA, TABLE, anchor_detections, marker_corners_mm, seen  # noqa: E402

WOOD = {
    "marker": 60,
    "id": "wood1",
    "kind": "wood",
    "marker_height_mm": 0,
    "polygon_mm": [[-100, -60], [100, -60], [100, 60], [-100, 60]],
}
HEDGE = {
    "marker": 61,
    "id": "hedge1",
    "kind": "obstacle",
    "level": 1,
    "marker_height_mm": 30,
    "line_mm": [[-150, 0], [150, 0]],
}


def roster() -> Roster:
    return roster_from_mapping(
        {
            "figures": [{"marker": 17, "name": "Dupont", "marker_height_mm": 54}],
            "terrain": [WOOD, HEDGE],
        }
    )


def test_a_piece_turns_with_its_marker() -> None:
    # Heading 30 degrees: the piece's +y points to (cos 30, sin 30), its +x to
    # (sin 30, -cos 30). The wood's corner (100, 60) from a marker at (600, 450) lands at
    # 600 + 100 sin 30 + 60 cos 30 = 701.96, 450 - 100 cos 30 + 60 sin 30 = 393.40.
    wood = roster().terrain[0].placed(600.0, 450.0, 30.0)
    assert wood["kind"] == "wood" and "line_mm" not in wood
    assert wood["polygon_mm"][2] == pytest.approx([701.9615, 393.3975], abs=1e-4)


@pytest.mark.parametrize(
    ("terrain", "message"),
    [
        ([{**WOOD, "line_mm": [[0, 0], [1, 0]]}], "exactly one of polygon_mm"),
        ([{**WOOD, "polygon_mm": [[0, 0], [1, 0]]}], "polygon_mm"),
        ([{**HEDGE, "kind": "wood"}], "only an obstacle is a line"),
        ([WOOD, {**HEDGE, "marker": 60}], "duplicate marker 60"),
        ([{**WOOD, "marker": 17}], "a terrain marker is never a figure"),
        ([{**WOOD, "kind": "lava"}], "kind"),
        ([{**WOOD, "polygon_mm": [[0, 0], [1, 0], [float("nan"), 1]]}], "polygon_mm"),
    ],
)
def test_a_bad_piece_is_one_line(terrain: list[dict[str, object]], message: str) -> None:
    with pytest.raises(CalibrationFileError) as caught:
        roster_from_mapping({"figures": [{"marker": 17, "name": "Dupont"}], "terrain": terrain})
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_locate_places_the_pieces_and_lists_them_apart_from_the_figures() -> None:
    frame = dict(anchor_detections())
    frame[17] = seen(marker_corners_mm(412.3, 230.9, 54.0, 25, 87.5))
    frame[60] = seen(marker_corners_mm(600.0, 450.0, 0.0, 40, 30.0))
    frame[61] = seen(marker_corners_mm(300.0, 700.0, 30.0, 30, 90.0))
    result = locate_markers(frame, CAMERA, TABLE, roster())
    assert isinstance(result, LocateResult)
    assert [m.id for m in result.markers] == [17]  # a terrain marker is never a figure
    payload = json.loads(json.dumps(result.to_json()))
    wood, hedge = payload["terrain"]
    assert (wood["id"], wood["marker"], wood["kind"]) == ("wood1", 60, "wood")
    assert wood["polygon_mm"][2] == pytest.approx([701.9615, 393.3975], abs=0.01)
    # Heading 90: the hedge's line runs along the table's x, through its marker at (300, 700).
    assert hedge["level"] == 1
    assert np.array(hedge["line_mm"]) == pytest.approx(np.array([[150, 700], [450, 700]]), abs=0.01)


def test_a_piece_is_placed_to_the_marker_s_own_precision() -> None:
    # 200 mm from a marker whose heading is off by d degrees, a vertex moves 200 d pi/180:
    # exact corners here, so the outline lands to a hundredth of a millimetre.
    far = {**WOOD, "polygon_mm": [[-200, 0], [0, 200], [200, 0]]}
    frame = dict(anchor_detections())
    frame[60] = seen(marker_corners_mm(500.0, 400.0, 0.0, 40, 75.0))
    result = locate_markers(frame, CAMERA, TABLE, roster_from_mapping({"terrain": [far]}))
    assert isinstance(result, LocateResult)
    (piece,) = result.terrain
    up = (math.cos(math.radians(75.0)), math.sin(math.radians(75.0)))
    expected = [500.0 + 200 * up[0], 400.0 + 200 * up[1]]
    assert piece.feature()["polygon_mm"][1] == pytest.approx(expected, abs=0.01)
