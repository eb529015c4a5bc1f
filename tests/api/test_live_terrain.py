"""The live table places terrain pieces by their markers and uses them in every question."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.typing import NDArray

from arbitre.api.live.demo import demo_camera
from arbitre.api.live.table import LiveTable, TableConfig
from arbitre.calibration.camera import CameraIntrinsics
from arbitre.calibration.table import roster_from_mapping, table_from_mapping
from arbitre.vision.simulate import RenderOptions, SimMarker, SimScene, SimTable, anchors, render
from arbitre.vision.sources import FrameSource

TABLE_MM = (900.0, 600.0)
# A wood carried by marker 60 at (450, 300), turned 90 degrees (its +y along the table's
# -x): its outline reaches 150 mm from the marker.
WOOD = {
    "marker": 60,
    "id": "wood1",
    "kind": "wood",
    "polygon_mm": [[-100, -150], [100, -150], [100, 150], [-100, 150]],
}


class Pictures(FrameSource):
    """The rendered table, with or without the wood's marker."""

    description = "rendered table"

    def __init__(self) -> None:
        self.hidden = False
        table = SimTable(*TABLE_MM)
        walker = SimMarker(10, 200.0, 300.0, 0.0, 20.0)
        wood = SimMarker(60, 450.0, 300.0, 0.0, 40.0, rotation_deg=90.0)
        camera = demo_camera()
        self.with_wood = render(
            camera,
            SimScene(table, (*anchors(table), walker, wood), ()),
            RenderOptions(supersample=2),
        ).image
        self.without = render(
            camera, SimScene(table, (*anchors(table), walker), ()), RenderOptions(supersample=2)
        ).image

    def read(self) -> NDArray[np.uint8] | None:
        return self.without if self.hidden else self.with_wood


@pytest.fixture(scope="module")
def live() -> tuple[LiveTable, Pictures]:
    camera = demo_camera()
    table = table_from_mapping(
        {
            "width_mm": TABLE_MM[0],
            "depth_mm": TABLE_MM[1],
            "anchors": [
                {"id": a.id, "x_mm": a.x_mm, "y_mm": a.y_mm, "size_mm": a.size_mm}
                for a in anchors(SimTable(*TABLE_MM))
            ],
        }
    )
    roster = roster_from_mapping(
        {
            "figures": [
                {"marker": 10, "name": "a", "side": "blue", "reference": True, "type": "TD"}
            ],
            "terrain": [WOOD],
        }
    )
    source = Pictures()
    ticks = iter(np.arange(0.0, 1000.0, 1.0 / 30.0))
    table_live = LiveTable(
        TableConfig(
            CameraIntrinsics(camera.image_size, camera.camera_matrix, camera.dist_coeffs),
            table,
            roster,
            "choc-base-6",
            {"unit_mm": 100, "terrain_cost": "double"},  # the house rule: woods cost double
        ),
        source,
        clock=lambda: float(next(ticks)),
        max_fps=None,
    )
    for _ in range(10):
        table_live.step()
    return table_live, source


def test_the_piece_is_placed_on_the_table(live: tuple[LiveTable, Pictures]) -> None:
    table_live, _ = live
    state = table_live.state()
    assert [f["id"] for f in state["figures"]] == ["a"]  # the wood's marker is no figure
    (wood,) = state["terrain"]
    assert wood["id"] == "wood1" and wood["marker"] == 60 and wood["stale"] is False
    # Printed upright and turned 90 degrees, the marker's top points to the table's -x:
    # the piece's +y is the table's -x and its +x the table's +y (a quarter turn clockwise
    # from +y). Corner (100, 150) lands at (450 - 150, 300 + 100) = (300, 400).
    assert wood["polygon_mm"][2] == pytest.approx([300.0, 400.0], abs=1.0)


def test_questions_use_the_piece(live: tuple[LiveTable, Pictures]) -> None:
    table_live, _ = live
    # a goes from (200, 300) to (350, 300): the wood spans x 300-600 (its y axis along the
    # table's x) and a's base (radius 12.5) is in it from x = 287.5, so 87.5 mm in the
    # open and 62.5 mm in the wood at twice the cost (the table plays the house rule
    # terrain_cost: double): 212.5 mm.
    answer, _ = table_live.ask("move", ["a", "350", "300"])
    data = answer.to_json()
    assert data["cost_mm"] == pytest.approx(212.5, abs=1.5)


def test_a_hidden_piece_keeps_its_last_place(live: tuple[LiveTable, Pictures]) -> None:
    table_live, source = live
    source.hidden = True
    for _ in range(3):
        table_live.step()
    (wood,) = table_live.state()["terrain"]
    assert wood["stale"] is True
    assert wood["polygon_mm"][2] == pytest.approx([300.0, 400.0], abs=1.0)
    assert table_live.scene_document()["terrain"][0]["id"] == "wood1"
    source.hidden = False
