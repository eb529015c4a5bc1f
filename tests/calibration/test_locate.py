"""Height-corrected table coordinates: synthetic round trips with a tilted wide-angle camera,
the cost of ignoring the height worked by hand, the uncertainty, the ``arbitre locate`` JSON,
terrain pieces placed by their marker, and the real ChArUco photos measured on their board."""

from __future__ import annotations

import dataclasses
import json
import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from arbitre.calibration.camera import CameraIntrinsics, load_camera
from arbitre.calibration.errors import CalibrationError
from arbitre.calibration.locate import (
    RAISED_HEIGHT_SIGMA_MM,
    LocateResult,
    inverse_2x2,
    largest_eigenvalue,
    locate_markers,
    pixels_to_table,
    place_markers,
)
from arbitre.calibration.pose import PoseFailure, TablePose, estimate_table_pose
from arbitre.calibration.table import Anchor, Roster, RosterFigure, Table, roster_from_mapping
from arbitre.rules.model import sigma_between
from arbitre.vision.tracking import FigureTracker, Observation
from tests.calibration.scenes import (
    CAMERA,
    TABLE,
    WOOD,
    anchor_detections,
    figure_of,
    marker_corners_mm,
    seen,
    terrain_roster,
)

REAL = Path(os.environ.get("ARBITRE_REAL_DATA", "/nonexistent"))  # set by tests/conftest.py
TUTORIAL = REAL / "opencv-aruco-charuco-tutorial"
needs_real_data = pytest.mark.skipif(not REAL.is_dir(), reason="shared/data/real is not present")


@pytest.fixture(scope="module")
def pose() -> TablePose:
    estimated = estimate_table_pose(anchor_detections(), CAMERA, TABLE, corner_noise_px=0.0)
    assert isinstance(estimated, TablePose)
    return estimated


def test_markers_at_their_heights_are_found_to_a_hundredth_of_a_mm(pose: TablePose) -> None:
    rng = np.random.default_rng(7)
    n = 60
    truth = np.column_stack([rng.uniform(40, 1160, n), rng.uniform(40, 860, n)])
    heights = np.tile([0.0, 32.0, 54.0], n // 3)
    headings = rng.uniform(0, 360, n)
    corners = np.array(
        [
            seen(marker_corners_mm(x, y, h, 25.0, a))
            for (x, y), h, a in zip(truth, heights, headings, strict=True)
        ]
    )
    placed = place_markers(corners, heights, CAMERA, pose, corner_noise_px=0.0)
    assert placed.valid.all()
    errors = np.linalg.norm(placed.xy_mm - truth, axis=1)
    for height in (0.0, 32.0, 54.0):
        assert errors[heights == height].max() < 0.01
    turn = (placed.heading_deg - headings + 180.0) % 360.0 - 180.0
    assert np.abs(turn).max() < 0.01
    assert placed.sigma_mm.max() < 1e-6  # no pixel noise, an exact pose: no uncertainty


def test_ignoring_the_height_costs_tens_of_mm(pose: TablePose) -> None:
    """The ray from the camera through a marker at height h, continued to the table, lands
    beyond the marker by h * d / (H - h), where d is the marker's horizontal distance from the
    point under the camera and H the camera's height (similar triangles).

    Camera at (600, -200), H = 1054 mm; markers at h = 54 mm, so H - h = 1000 mm.
    - Marker at (600, 800): d = 1000 mm, straight away from the camera along +y;
      offset = 54 * 1000 / 1000 = 54 mm: read at z = 0 it lands at (600, 854).
    - Marker at (300, 400): from (600, -200) the direction is (-300, 600), d = 670.82 mm;
      offset = 54 * 670.82 / 1000 = 36.22 mm, along (-300, 600) / 670.82 = (-0.4472, 0.8944):
      (300 - 16.20, 400 + 32.40) = (283.80, 432.40).
    """
    truth = np.array([[600.0, 800.0], [300.0, 400.0]])
    corners = np.array([seen(marker_corners_mm(x, y, 54.0, 25.0, 90.0)) for x, y in truth])

    right = place_markers(corners, 54.0, CAMERA, pose, corner_noise_px=0.0)
    assert np.abs(right.xy_mm - truth).max() < 0.01

    wrong = place_markers(corners, 0.0, CAMERA, pose, corner_noise_px=0.0)
    assert wrong.xy_mm[0] == pytest.approx([600.0, 854.0], abs=0.01)
    assert wrong.xy_mm[1] == pytest.approx([283.80, 432.40], abs=0.01)
    offsets = np.linalg.norm(wrong.xy_mm - truth, axis=1)
    assert offsets == pytest.approx([54.0, 36.22], abs=0.01)


def test_a_marker_seen_aslant_is_as_uncertain_as_its_shortest_side(pose: TablePose) -> None:
    # A 40 mm marker (sides of about 36 px) squashed across the image to 15 px between
    # two of its sides (as a marker seen at a grazing angle): its corners are pinned by
    # that short side, and on real tables such corners stray 0.3-0.6 px; the corner noise
    # grows by 20 / 15, not by 20 / its mean side (about 25 px: no growth at all).
    near = seen(marker_corners_mm(600, 100, 0, 40, 90))
    centre = near.mean(axis=0)
    sides = np.linalg.norm(near - np.roll(near, -1, axis=0), axis=1)
    across = (near[1] - near[0]) / sides[0]  # along the first side
    squash = 15.0 / sides[0]
    aslant = centre + (near - centre) + np.outer((near - centre) @ across, across) * (squash - 1)
    short = np.linalg.norm(aslant - np.roll(aslant, -1, axis=0), axis=1)
    assert short.min() == pytest.approx(15.0, abs=0.5) and short.mean() > 20
    placed = place_markers(np.array([near, aslant]), 0.0, CAMERA, pose, corner_noise_px=0.2)
    assert sides.min() > 20
    assert placed.sigma_mm[1] == pytest.approx(placed.sigma_mm[0] * 20 / short.min(), rel=0.02)


def test_pixels_map_to_the_table_below_them(pose: TablePose) -> None:
    points = np.array([[100.0, 200.0, 0.0], [900.0, 700.0, 32.0]])
    xy = pixels_to_table(seen(points), points[:, 2], CAMERA, pose)
    assert np.abs(xy - points[:, :2]).max() < 1e-6
    with pytest.raises(CalibrationError, match="does not map to the table"):
        pixels_to_table([[960.0, 540.0]], 2000.0, CAMERA, pose)  # a plane above the camera


def test_the_uncertainty_grows_with_distance_and_for_small_markers(pose: TablePose) -> None:
    near = seen(marker_corners_mm(600, 100, 0, 25, 90))
    far = seen(marker_corners_mm(600, 850, 0, 25, 90))
    near_small = seen(marker_corners_mm(600, 100, 0, 12, 90))
    corners = np.array([near, far, near_small])
    placed = place_markers(corners, 0.0, CAMERA, pose, corner_noise_px=0.2)
    sigma_near, sigma_far, sigma_near_small = placed.sigma_mm
    assert 0 < sigma_near < sigma_far
    assert sigma_near < sigma_near_small
    # Markers whose shortest side is under 20 px get their corner noise scaled by
    # 20 / that side.
    side_px = np.linalg.norm(corners - np.roll(corners, -1, axis=1), axis=2).min(axis=1)
    assert side_px[0] > 20 > side_px[2]
    assert sigma_near_small == pytest.approx(sigma_near * 20 / side_px[2], rel=0.02)
    no_noise = place_markers(corners, 0.0, CAMERA, pose, corner_noise_px=0.0)
    assert no_noise.sigma_mm.max() < 1e-9


def test_sigma_matches_the_scatter_of_noisy_measurements() -> None:
    """Monte Carlo: corners of anchors and markers perturbed by 0.3 px (1 sigma per axis);
    the spread of the measured positions matches the sigma_mm reported (the lens, the
    anchors and the heights are told exact here: only the pixels are uncertain)."""
    camera = CameraIntrinsics(
        CAMERA.image_size, CAMERA.camera_matrix, CAMERA.dist_coeffs, covariance=np.zeros((9, 9))
    )
    table = dataclasses.replace(TABLE, anchor_tolerance_mm=0.0, print_scale_sigma=0.0)
    rng = np.random.default_rng(11)
    noise_px = 0.3
    truth = [(300.0, 300.0, 54.0), (900.0, 700.0, 0.0)]
    clean = {10 + k: seen(marker_corners_mm(x, y, z, 25, 90)) for k, (x, y, z) in enumerate(truth)}
    anchors = anchor_detections()
    roster = Roster(
        tuple(
            RosterFigure(10 + k, f"f{k}", f"f{k}", marker_height_mm=z)
            for k, (_, _, z) in enumerate(truth)
        )
    )
    positions: list[list[tuple[float, float]]] = [[], []]
    sigmas: list[list[float]] = [[], []]
    for _ in range(300):
        frame = {i: c + rng.normal(0, noise_px, c.shape) for i, c in {**anchors, **clean}.items()}
        result = locate_markers(
            frame, camera, table, roster, corner_noise_px=noise_px, height_sigma_mm=0.0
        )
        assert isinstance(result, LocateResult)
        for k, marker in enumerate(result.markers):
            positions[k].append((marker.x_mm, marker.y_mm))
            sigmas[k].append(marker.sigma_mm)
    for k, (x, y, _) in enumerate(truth):
        errors = np.array(positions[k]) - (x, y)
        worst_direction_sd = float(np.sqrt(np.linalg.eigvalsh(np.cov(errors.T))[-1]))
        assert 0.7 < float(np.median(sigmas[k])) / worst_direction_sd < 1.4


def test_a_still_camera_s_pose_error_is_not_averaged_away() -> None:
    """Monte Carlo: a still camera sees the anchors with the same corner errors frame after
    frame (0.3 px drawn once per trial), and the figure's head stands where it stands (its
    height off the roster's by 2 mm, 1 sigma, drawn once per trial); the marker's corners
    get fresh errors (0.3 px each frame); the tracker averages 30 frames. Across trials
    the spread of the tracked positions matches the tracked sigma: the pose's and the
    height's errors, the same in every frame, are kept whole (averaged as if they were
    fresh each frame, the sigma was several times too small)."""
    camera = CameraIntrinsics(
        CAMERA.image_size, CAMERA.camera_matrix, CAMERA.dist_coeffs, covariance=np.zeros((9, 9))
    )
    table = dataclasses.replace(TABLE, anchor_tolerance_mm=0.0, print_scale_sigma=0.0)
    rng = np.random.default_rng(17)
    noise_px = 0.3
    x, y, z = 300.0, 300.0, 54.0
    roster = Roster((RosterFigure(10, "f", "f", marker_height_mm=z),))
    errors: list[tuple[float, float]] = []
    sigmas: list[float] = []
    for _ in range(120):
        anchors = {i: c + rng.normal(0, noise_px, c.shape) for i, c in anchor_detections().items()}
        # the figure's head is not quite where the roster says (RAISED_HEIGHT_SIGMA_MM)
        clean = seen(marker_corners_mm(x, y, z + rng.normal(0, RAISED_HEIGHT_SIGMA_MM), 25, 90))
        tracker = FigureTracker()
        for frame in range(30):
            marker = clean + rng.normal(0, noise_px, clean.shape)
            result = locate_markers(
                {**anchors, 10: marker}, camera, table, roster, corner_noise_px=noise_px
            )
            assert isinstance(result, LocateResult)
            (m,) = result.markers
            tracker.update(
                frame / 30.0,
                [Observation(10, m.x_mm, m.y_mm, m.sigma_mm, m.heading_deg, m.shared_sigma_mm)],
            )
        (track,) = tracker.tracks()
        errors.append((track.x_mm - x, track.y_mm - y))
        sigmas.append(track.sigma_mm)
    worst_direction_sd = float(np.sqrt(np.linalg.eigvalsh(np.cov(np.array(errors).T))[-1]))
    assert 0.7 < float(np.median(sigmas)) / worst_direction_sd < 1.5


LENS_SIGMA_PX = np.array([3.0, 3.0, 3.0, 3.0])  # fx, fy, cx, cy


def _located_under_model_errors(
    truth: list[tuple[float, float, float]], trials: int, seed: int
) -> list[LocateResult]:
    """Exact pixels, but the real camera, the glued anchors and the print scale differ from
    what the files say by their stated sigmas (lens 3 px on fx, fy, cx, cy; anchors 0.7 mm;
    prints 0.5 %): ``trials`` located frames of markers 10, 11, ... at ``truth``."""
    rng = np.random.default_rng(seed)
    covariance = np.zeros((9, 9))
    covariance[:4, :4] = np.diag(LENS_SIGMA_PX**2)
    camera = CameraIntrinsics(
        CAMERA.image_size, CAMERA.camera_matrix, CAMERA.dist_coeffs, covariance=covariance
    )
    table = dataclasses.replace(TABLE, anchor_tolerance_mm=0.7, print_scale_sigma=0.005)
    roster = Roster(
        tuple(
            RosterFigure(10 + k, f"f{k}", f"f{k}", marker_height_mm=z)
            for k, (_, _, z) in enumerate(truth)
        )
    )
    results = []
    for _ in range(trials):
        k_true = CAMERA.camera_matrix.copy()
        k_true[[0, 1, 0, 1], [0, 1, 2, 2]] += rng.normal(0, LENS_SIGMA_PX)
        real = CameraIntrinsics(CAMERA.image_size, k_true, CAMERA.dist_coeffs)
        scale = 1.0 + rng.normal(0, table.print_scale_sigma)
        frame = {
            a.id: seen(
                Anchor(
                    a.id,
                    a.x_mm + rng.normal(0, table.anchor_tolerance_mm),
                    a.y_mm + rng.normal(0, table.anchor_tolerance_mm),
                    a.size_mm * scale,
                ).corners_mm(),
                real,
            )
            for a in TABLE.anchors
        }
        for k, (x, y, z) in enumerate(truth):
            frame[10 + k] = seen(marker_corners_mm(x, y, z, 25, 90), real)
        result = locate_markers(
            frame, camera, table, roster, corner_noise_px=0.0, height_sigma_mm=0.0
        )
        assert isinstance(result, LocateResult)
        results.append(result)
    return results


def test_sigma_owns_the_lens_the_anchors_and_the_print_scale() -> None:
    """Monte Carlo: the spread of the measured positions matches sigma_mm (first-order
    propagation through the refitted pose; the errors are kept small enough that every
    anchor still agrees with the pose)."""
    truth = [(300.0, 300.0, 54.0), (900.0, 700.0, 0.0), (600.0, 450.0, 20.0)]
    results = _located_under_model_errors(truth, 300, seed=5)
    for k, (x, y, _) in enumerate(truth):
        errors = np.array([(r.markers[k].x_mm, r.markers[k].y_mm) for r in results]) - (x, y)
        sigmas = [r.markers[k].sigma_mm for r in results]
        worst_direction_sd = float(np.sqrt(np.linalg.eigvalsh(np.cov(errors.T))[-1]))
        assert 0.75 < float(np.median(sigmas)) / worst_direction_sd < 1.33


def test_the_error_of_a_distance_owns_what_its_two_markers_share() -> None:
    """Monte Carlo, as above: the same lens, anchors and prints move neighbours alike, so the
    distance between two markers is much surer than either position. Its spread matches
    the sigma the rules compute through the shared errors (`sigma_between`), where the
    markers taken as independent would claim 4 times more or worse. Pairs: two flat
    markers 40 mm apart (contact), two head markers 54 mm high 60 mm apart across the
    view, and two flat ones 300 mm apart (a range: less of the error is shared)."""
    truth = [
        (600.0, 450.0, 0.0),
        (640.0, 450.0, 0.0),
        (300.0, 300.0, 54.0),
        (300.0, 360.0, 54.0),
        (450.0, 600.0, 0.0),
        (750.0, 600.0, 0.0),
    ]
    results = _located_under_model_errors(truth, 300, seed=6)
    assert all(len(m.shared_mm) == len(r.shared_errors) for r in results for m in r.markers)
    # 6 pose terms, 4 anchors x 2 slides, the print scale, 9 lens parameters
    assert len(results[0].shared_errors) == 6 + 8 + 1 + 9
    independent = []
    for first in (0, 2, 4):
        (x1, y1, _), (x2, y2, _) = truth[first], truth[first + 1]
        true_distance = float(np.hypot(x2 - x1, y2 - y1))
        errors, joint, apart = [], [], []
        for result in results:
            a, b = (figure_of(result.markers[first + k]) for k in (0, 1))
            errors.append(float(np.hypot(b.x_mm - a.x_mm, b.y_mm - a.y_mm)) - true_distance)
            joint.append(sigma_between(a, b))
            apart.append(float(np.hypot(a.sigma_mm, b.sigma_mm)))
        spread = float(np.std(errors))
        assert 0.75 < float(np.median(joint)) / spread < 1.33, (first, spread, np.median(joint))
        independent.append(float(np.median(apart)) / spread)
    assert min(independent[:2]) > 4.0, independent


def test_a_markers_own_and_shared_parts_make_its_sigma() -> None:
    # sigma_mm is the worst direction of own_cov_mm2 + S^T S (docs/formats.md)
    frame: dict[int, Any] = dict(anchor_detections())
    frame[17] = seen(marker_corners_mm(412.3, 230.9, 54.0, 25, 87.5))
    roster = Roster((RosterFigure(17, "a", "a", marker_height_mm=54.0),))
    result = locate_markers(frame, CAMERA, TABLE, roster, corner_noise_px=0.2)
    assert isinstance(result, LocateResult)
    (marker,) = result.markers
    moves = np.array(marker.shared_mm)
    covariance = np.array(marker.own_cov_mm2) + moves.T @ moves
    assert np.sqrt(np.linalg.eigvalsh(covariance)[-1]) == pytest.approx(marker.sigma_mm, rel=1e-9)
    # The height's 2 mm are the marker's own. The camera centre (600, -200, 1054) sees the
    # head (412.3, 230.9, 54) 470 mm aside and 1000 mm below: each mm of height moves the
    # point found by 0.47 mm, so 2 mm by 0.94 mm (the pixel noise adds little).
    own_worst = float(np.sqrt(np.linalg.eigvalsh(np.array(marker.own_cov_mm2))[-1]))
    assert 0.93 < own_worst < 0.97


def test_locate_answers_the_contract_json() -> None:
    frame: dict[int, Any] = dict(anchor_detections())
    frame[17] = seen(marker_corners_mm(412.3, 230.9, 54.0, 25, 87.5))
    frame[99] = seen(marker_corners_mm(800.0, 500.0, 0.0, 25, 180.0))
    roster = Roster(
        (RosterFigure(17, "Sgt Dupont", "Sgt Dupont", side="blue", marker_height_mm=54.0),)
    )
    result = locate_markers(frame, CAMERA, TABLE, roster)
    assert isinstance(result, LocateResult)
    payload = json.loads(json.dumps(result.to_json()))
    assert payload["image_size"] == [1920, 1080]
    assert payload["anchors_seen"] == [0, 1, 2, 3]
    assert payload["table_reprojection_px"] < 0.001
    assert [m["id"] for m in payload["markers"]] == [17, 99]  # anchors are not listed
    dupont, stranger = payload["markers"]
    assert set(dupont) == {
        "id",
        "figure",
        "x_mm",
        "y_mm",
        "z_mm",
        "height_known",
        "heading_deg",
        "sigma_mm",
        "shared_mm",
        "own_cov_mm2",
    }
    assert len(payload["shared_errors"]) == len(dupont["shared_mm"]) == len(stranger["shared_mm"])
    assert all(len(move) == 2 for move in dupont["shared_mm"])
    assert dupont["figure"] == "Sgt Dupont" and dupont["height_known"] is True
    assert (dupont["x_mm"], dupont["y_mm"], dupont["z_mm"]) == (412.3, 230.9, 54.0)
    assert dupont["heading_deg"] == 87.5
    # No pixel noise here; what is left is the lens (1 % of fx unstated by this camera)
    # and the anchors (0.5 mm, 0.5 % prints, table.yaml's defaults): millimetres, not 0.
    assert 0.5 < dupont["sigma_mm"] < 5
    assert stranger["figure"] is None and stranger["height_known"] is False
    assert (stranger["x_mm"], stranger["y_mm"], stranger["z_mm"]) == (800.0, 500.0, 0.0)


def test_a_resized_frame_is_located_with_rescaled_intrinsics() -> None:
    small = CAMERA.for_image_size((960, 540))
    frame: dict[int, Any] = anchor_detections(small)
    frame[5] = seen(marker_corners_mm(250.0, 640.0, 32.0, 25, 90), small)
    roster = Roster((RosterFigure(5, "a", "a", marker_height_mm=32.0),))
    result = locate_markers(frame, CAMERA, TABLE, roster, image_size=(960, 540))
    assert isinstance(result, LocateResult)
    assert result.image_size == (960, 540)
    marker = result.markers[0]
    assert (marker.x_mm, marker.y_mm) == pytest.approx((250.0, 640.0), abs=0.01)
    with pytest.raises(CalibrationError, match="another aspect ratio"):
        locate_markers(frame, CAMERA, TABLE, roster, image_size=(640, 480))


def test_too_few_anchors_in_view_is_a_failure_naming_them() -> None:
    frame: dict[int, Any] = {
        3: anchor_detections()[3],
        17: seen(marker_corners_mm(400, 400, 0, 25, 90)),
    }
    failure = locate_markers(frame, CAMERA, TABLE)
    assert isinstance(failure, PoseFailure)
    assert failure.message.startswith("anchors seen: 3; the table pose needs at least 2")


@needs_real_data
@pytest.mark.parametrize("corner_set", ["expected_markers", "expected_markers_subpix"])
def test_real_charuco_photos_measure_marker_centres_on_the_board(corner_set: str) -> None:
    """README of the tutorial photos: with 4 markers as anchors and the published calibration,
    a homography puts the other markers' centres within 0.28-0.68 mm (mean) and 1.72 mm (max)
    of the board layout. The pose + ray (z = 0) measurement must do as well: mean within
    0.15 mm of that reference, max under 2 mm, and every heading within 3.5 degrees of the
    board's (90: the board's markers are printed upright). The headings allow for cards
    glued tilted (calibration/heading.py): four corners from OpenCV's tutorial, noisier
    than the default noise assumed, let the fit tip a flat card, which costs up to 3.2
    degrees here against 2.3 for the flat measurement; through arbitre's own detector
    (tests/calibration/test_sigma_real.py) every heading is within 1.5 degrees."""
    expected = json.loads((TUTORIAL / "expected.json").read_text(encoding="utf-8"))
    camera = load_camera(TUTORIAL / "tutorial_camera_charuco.yml")
    # Board frame (OpenCV): origin top-left, y down, 280 mm tall. Table frame: y up, so
    # (x, y_table) = (x, 280 - y_board); a marker's top-left corner is then at (x - s/2, y + s/2).
    centres = {
        m["id"]: (m["centre_mm"][0], 280.0 - m["centre_mm"][1])
        for m in expected["boards"]["charuco_5x7"]["markers"]
    }
    checked = 0
    for check in expected["plane_measurement_check"]["results"]:
        if check["corners"] != corner_set or check["undistorted_with"] is None:
            continue
        anchors = tuple(Anchor(i, *centres[i], 20.0) for i in check["anchors"])
        table = Table(200, 280, "DICT_6X6_250", anchors)
        image = expected["images"][check["image"]]
        frame = {m["id"]: m["corners"] for m in image[corner_set]["markers"]}
        result = locate_markers(frame, camera, table)
        assert isinstance(result, LocateResult), check["image"]
        assert result.pose.anchors_used == tuple(sorted(check["anchors"]))
        errors = [
            np.hypot(m.x_mm - centres[m.id][0], m.y_mm - centres[m.id][1]) for m in result.markers
        ]
        assert len(errors) == check["n_measured"]
        assert np.mean(errors) <= check["centre_error_mm_mean"] + 0.15, check["image"]
        assert max(errors) < 2.0, check["image"]
        assert all(abs(m.heading_deg - 90.0) < 3.5 for m in result.markers)
        checked += 1
    assert checked == 5


def test_the_2x2_inverse_and_eigenvalue_agree_with_numpy_and_leave_it_the_odd_cases() -> None:
    rng = np.random.default_rng(8)
    # lens Jacobians: about the focal length on the diagonal, a little off it
    jacobians = 1000.0 * (np.eye(2) + rng.normal(0.0, 0.2, (500, 2, 2)))
    np.testing.assert_allclose(inverse_2x2(jacobians), np.linalg.inv(jacobians), rtol=1e-12)
    spread = rng.normal(0.0, 1.0, (500, 2, 3)) * rng.uniform(1e-3, 1e3, (500, 1, 1))
    covariances = spread @ np.transpose(spread, (0, 2, 1))
    covariances[:, 0, 1] += 1.0  # an upper triangle that disagrees: both read the lower one
    np.testing.assert_allclose(
        largest_eigenvalue(covariances), np.linalg.eigvalsh(covariances)[:, -1], rtol=1e-13
    )
    with pytest.raises(np.linalg.LinAlgError):
        inverse_2x2(np.array([[[1.0, 2.0], [2.0, 4.0]]]))
    odd = np.array([[[np.nan, 0.0], [0.0, 1.0]], [[np.inf, 0.0], [0.0, 1.0]]])
    np.testing.assert_array_equal(inverse_2x2(odd), np.linalg.inv(odd))
    np.testing.assert_array_equal(largest_eigenvalue(odd), np.linalg.eigvalsh(odd)[:, -1])


# Terrain pieces carrying a marker: placed by their marker, listed apart from the figures.


def test_locate_places_the_pieces_and_lists_them_apart_from_the_figures() -> None:
    frame = dict(anchor_detections())
    frame[17] = seen(marker_corners_mm(412.3, 230.9, 54.0, 25, 87.5))
    frame[60] = seen(marker_corners_mm(600.0, 450.0, 0.0, 40, 30.0))
    frame[61] = seen(marker_corners_mm(300.0, 700.0, 30.0, 30, 90.0))
    result = locate_markers(frame, CAMERA, TABLE, terrain_roster())
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
