"""One camera frame to table millimetres: detect, pose, place; the corner noise each
marker's edge fit gives; the ``arbitre locate`` JSON with the ids seen twice."""

from __future__ import annotations

import math

import numpy as np

from arbitre.calibration.frame import Frame, corner_noise_px, locate_frame
from arbitre.calibration.locate import LocateResult
from arbitre.calibration.pose import DEFAULT_CORNER_NOISE_PX, PoseFailure
from arbitre.calibration.simulated import setup_of
from arbitre.vision.detect import Detection, DetectionResult
from arbitre.vision.simulate import preset

# A small rendered table (preset "overhead" at 0.35 scale): four anchors near the corners,
# figures 10-13, two of them flat tokens and two on 21.6 and 26.2 mm heads.
SCENE = preset("overhead", scale=0.35, seed=1)
INTRINSICS, TABLE, ROSTER = setup_of(SCENE)
FIGURES = {m.id: m for m in SCENE.scene.markers if m.id >= 10}


def _detection(marker_id: int, edge_residual_px: float) -> Detection:
    square = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]])
    centre = np.array([5.0, 5.0])
    return Detection(marker_id, square, centre, 90.0, 10.0, edge_residual_px, square)


def test_the_corner_noise_is_half_the_edge_residual_never_below_the_floor() -> None:
    # Each corner comes from two fitted sides: half the edge residual, 1.0 px -> 0.5 px.
    # 0.04 px (a clean image) would give 0.02 px, below the floor (0.15 px), which also
    # stands in for a marker whose sides were not measured (NaN).
    assert DEFAULT_CORNER_NOISE_PX == 0.15
    detections = DetectionResult(
        (_detection(4, 1.0), _detection(5, 0.04), _detection(6, math.nan)), (), (), 0, True
    )
    assert corner_noise_px(detections) == {4: 0.5, 5: 0.15, 6: 0.15}


def test_the_json_is_the_located_answer_with_the_ids_seen_twice() -> None:
    failure = PoseFailure("too few anchors", (1,))
    detections = DetectionResult((), (7, 9), (), 0, True)
    assert Frame(detections, failure).to_json() == {
        "error": "too few anchors",
        "anchors_seen": [1],
        "anchors_rejected": [],
        "duplicates": [7, 9],
    }


def test_a_clear_frame_places_every_figure_where_it_stands() -> None:
    # Exact renders: each figure within 0.1 mm of its place, at its height; its heading is
    # the way its top edge points, a quarter turn on from the card's rotation (an upright
    # card's top edge points to +y, 90 degrees).
    frame = locate_frame(SCENE.render().image, INTRINSICS, TABLE, ROSTER)
    assert isinstance(frame.located, LocateResult)
    assert not frame.camera_moved and not frame.pose_doubtful
    placed = {m.id: m for m in frame.located.markers}
    assert sorted(placed) == sorted(FIGURES)
    for marker_id, truth in FIGURES.items():
        found = placed[marker_id]
        assert math.hypot(found.x_mm - truth.x_mm, found.y_mm - truth.y_mm) < 0.1
        turn = (found.heading_deg - (truth.rotation_deg + 90.0) + 180.0) % 360.0 - 180.0
        assert abs(turn) < 0.2
    assert frame.to_json()["duplicates"] == []


def test_an_id_seen_twice_is_listed_and_not_placed() -> None:
    # Figure 10's card (its image at rows 97-141, columns 317-361) pasted a second time
    # on a bare part of the table: no one can say which is figure 10.
    picture = SCENE.render()
    u, v = picture.truth[10].corners_px.T
    assert u.min() > 317 and u.max() < 361 and v.min() > 97 and v.max() < 141
    image = picture.image.copy()
    image[260:304, 380:424] = picture.image[97:141, 317:361]
    frame = locate_frame(image, INTRINSICS, TABLE, ROSTER)
    assert isinstance(frame.located, LocateResult)
    assert [m.id for m in frame.located.markers] == [11, 12, 13]
    assert frame.to_json()["duplicates"] == [10]
