"""Several cameras, one table: two views of a 6 x 4 ft table's half from opposite edges.

The ``tilted4k`` preset at half scale (a 915 x 610 mm table seen in 4K-sized pixels
from the middle of a long edge, 1.1 m up) is rendered as its camera sees it and as a
second camera, the same one carried round to the opposite edge, sees it. Each view is
located alone, then the two are fused (`arbitre.calibration.fuse`).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from arbitre.api.cli import app
from arbitre.calibration.camera import CameraIntrinsics, save_camera
from arbitre.calibration.frame import locate_frame
from arbitre.calibration.fuse import DISAGREE_CHI2, FusedResult, fuse, term_names
from arbitre.calibration.locate import LocateResult
from arbitre.calibration.simulated import setup_of, write_setup
from arbitre.vision.simulate import Render, preset, render

runner = CliRunner()


@pytest.fixture(scope="module")
def two_views(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    scene = preset("tilted4k", scale=0.5, seed=2, figures=24)
    centre = (scene.scene.table.width_mm / 2.0, scene.scene.table.depth_mm / 2.0)
    cameras = (scene.camera, scene.camera.around(centre, 180.0))
    renders = [render(camera, scene.scene, scene.options) for camera in cameras]
    intrinsics, table, roster = setup_of(scene)
    results = []
    for picture in renders:
        located = locate_frame(picture.image, intrinsics, table, roster).located
        assert isinstance(located, LocateResult)
        results.append(located)
    folder = tmp_path_factory.mktemp("two")
    files = write_setup(scene, folder)
    images = []
    for k, picture in enumerate(renders):
        path = folder / f"view{k}.png"
        cv2.imwrite(str(path), picture.image)
        images.append(path)
    return {
        "renders": renders,
        "views": results,
        "fused": fuse(results),
        "files": files,
        "images": images,
        "intrinsics": intrinsics,
    }


def _error(marker: object, picture: Render) -> float:
    truth = picture.truth[marker.id].centre_mm  # type: ignore[attr-defined]
    return float(np.hypot(marker.x_mm - truth[0], marker.y_mm - truth[1]))  # type: ignore[attr-defined]


def test_each_camera_keeps_its_own_terms_and_they_share_the_anchors(
    two_views: dict[str, object],
) -> None:
    views: list[LocateResult] = two_views["views"]  # type: ignore[assignment]
    names = term_names(views)
    assert "0:pose_rx" in names and "1:pose_rx" in names and "0:fx" in names
    # one table, one printer: the anchors' slides and the print scale once each
    assert names.count("anchor_0_x") == 1 and names.count("print_scale") == 1
    assert not any(name.startswith(("0:anchor", "1:anchor")) for name in names)


def test_every_marker_is_placed_once_from_the_views_that_saw_it(
    two_views: dict[str, object],
) -> None:
    views: list[LocateResult] = two_views["views"]  # type: ignore[assignment]
    fused: FusedResult = two_views["fused"]  # type: ignore[assignment]
    renders: list[Render] = two_views["renders"]  # type: ignore[assignment]
    seen = [{m.id for m in view.markers} for view in views]
    assert [m.marker.id for m in fused.markers] == sorted(seen[0] | seen[1])
    both = seen[0] & seen[1]
    assert len(both) >= 10
    assert fused.warnings == ()
    errors, ratios = [], []
    for entry in fused.markers:
        marker = entry.marker
        assert entry.views == tuple(k for k in (0, 1) if marker.id in seen[k])
        assert len(marker.shared_mm) == len(fused.shared_errors)
        if marker.id in both:
            alone = [next(m for m in view.markers if m.id == marker.id) for view in views]
            # two views are surer than the surer one alone
            assert marker.sigma_mm <= min(m.sigma_mm for m in alone) + 1e-9
        error = _error(marker, renders[0])
        errors.append(error)
        ratios.append(error / marker.sigma_mm)
    assert float(np.median(errors)) < 0.3
    assert max(ratios) < 3.0
    # the quick check of a set-up: the markers both saw, placed a fraction of a mm apart,
    # within what their uncertainties allow
    assert [a.id for a in fused.agreement] == sorted(both)
    assert float(np.median([a.apart_mm for a in fused.agreement])) < 0.5
    assert max(a.apart_sigma for a in fused.agreement) ** 2 < DISAGREE_CHI2


def test_a_view_that_disagrees_is_left_out_with_a_warning(
    two_views: dict[str, object],
) -> None:
    views: list[LocateResult] = two_views["views"]  # type: ignore[assignment]
    renders: list[Render] = two_views["renders"]  # type: ignore[assignment]
    common = sorted({m.id for m in views[0].markers} & {m.id for m in views[1].markers})
    moved_id = common[0]
    # view 1 places that marker 20 mm off (a figure knocked between the two photos)
    shifted = [
        dataclasses.replace(m, x_mm=m.x_mm + 20.0) if m.id == moved_id else m
        for m in views[1].markers
    ]
    fused = fuse([views[0], dataclasses.replace(views[1], markers=tuple(shifted))])
    (warning,) = fused.warnings
    moved = next(a for a in fused.agreement if a.id == moved_id)
    assert 19.0 < moved.apart_mm < 21.0 and moved.apart_sigma**2 > DISAGREE_CHI2
    assert warning.startswith(f"marker {moved_id}: views 0, 1 place it further apart")
    entry = next(m for m in fused.markers if m.marker.id == moved_id)
    assert len(entry.views) == 1
    # taken from the surer view: the true place if it is view 0's, 20 mm off if view 1's
    expected = 0.0 if entry.views == (0,) else 20.0
    assert abs(_error(entry.marker, renders[0]) - expected) < 1.0
    assert DISAGREE_CHI2 > 11.0


def test_locate_fuses_two_photos_as_the_contract_says(
    two_views: dict[str, object], tmp_path: Path
) -> None:
    files = two_views["files"]
    images: list[Path] = two_views["images"]  # type: ignore[assignment]
    intrinsics: CameraIntrinsics = two_views["intrinsics"]  # type: ignore[assignment]
    second_camera = tmp_path / "camera-b.yaml"
    save_camera(intrinsics, second_camera)  # the same model of camera, calibrated apart
    args = [
        "locate",
        str(images[0]),
        str(images[1]),
        "--camera",
        str(files.camera),  # type: ignore[attr-defined]
        "--camera",
        str(second_camera),
        "--table",
        str(files.table),  # type: ignore[attr-defined]
        "--roster",
        str(files.roster),  # type: ignore[attr-defined]
    ]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.stdout + result.stderr
    answer = json.loads(result.stdout)
    assert answer["anchors_seen"][0] and answer["anchors_seen"][1]
    assert len(answer["table_reprojection_px"]) == 2
    assert len(answer["image_size"]) == 2
    fused: FusedResult = two_views["fused"]  # type: ignore[assignment]
    assert [m["id"] for m in answer["markers"]] == [m.marker.id for m in fused.markers]
    assert all(m["views"] in ([0], [1], [0, 1]) for m in answer["markers"])
    assert answer["shared_errors"] == list(fused.shared_errors)
    text = runner.invoke(app, args)
    assert text.exit_code == 0
    assert f"fused: {len(fused.markers)} markers" in text.stdout
    assert f"seen in two photos: {len(fused.agreement)} markers" in text.stdout
    assert len(answer["agreement"]) == len(fused.agreement)
    scene_file = tmp_path / "both.yaml"
    made = runner.invoke(app, [*args, "--scene", str(scene_file)])
    assert made.exit_code == 0, made.stderr
    asked = runner.invoke(app, ["ask", str(scene_file), "groups", "--json"])
    assert asked.exit_code == 0, asked.stderr
    wrong = runner.invoke(app, [*args[:5], *args[7:]])  # one --camera for two photos
    assert wrong.exit_code == 2
    assert "give one --camera per photo, in order: 2 photos, 1 --camera" in wrong.stderr


def test_of_three_views_the_one_that_disagrees_is_left_out(
    two_views: dict[str, object],
) -> None:
    # A third photo, view 0 again but placing one marker 20 mm off: views 0 and 1 agree,
    # view 2 disagrees with both and is left out; the marker rests on views 0 and 1.
    views: list[LocateResult] = two_views["views"]  # type: ignore[assignment]
    common = sorted({m.id for m in views[0].markers} & {m.id for m in views[1].markers})
    moved_id = common[-1]
    shifted = tuple(
        dataclasses.replace(m, y_mm=m.y_mm + 20.0) if m.id == moved_id else m
        for m in views[0].markers
    )
    fused = fuse([views[0], views[1], dataclasses.replace(views[0], markers=shifted)])
    (warning,) = fused.warnings
    assert warning.endswith("taken from views 0, 1")
    entry = next(m for m in fused.markers if m.marker.id == moved_id)
    assert entry.views == (0, 1)


def test_the_photos_say_where_they_place_each_anchor(two_views: dict[str, object]) -> None:
    # The simulated anchors lie exactly where table.yaml says: each photo places each anchor
    # it sees within a few tenths of a mm of it (each sees the near edge's two).
    fused = two_views["fused"]
    assert isinstance(fused, FusedResult)
    assert [a.id for a in fused.anchors] == [0, 1, 2, 3]
    for anchor in fused.anchors:
        seen = [off for off in anchor.off_mm if off is not None]
        assert seen and all(off < 0.5 for off in seen), anchor
        assert anchor.apart_mm is None or anchor.apart_mm < 0.5


def test_an_anchor_glued_off_its_place_shows_in_every_photo() -> None:
    # Two cameras over a 360 x 240 mm table, from opposite sides, each seeing the four
    # anchors (1.4 px a mm). table.yaml puts anchor 1 8 mm further along x than it was
    # glued: 11 px off, more than the 3 px an anchor may disagree by, so each photo's pose
    # rests on the other three, and each places anchor 1 where it is: 8 mm from
    # table.yaml's place, the two photos within a few tenths of a mm of each other. The
    # anchor is wrong, not a camera.
    scene = preset("overhead", scale=0.4, seed=5)
    centre = (scene.scene.table.width_mm / 2.0, scene.scene.table.depth_mm / 2.0)
    intrinsics, table, roster = setup_of(scene)
    moved = dataclasses.replace(
        table,
        anchors=tuple(
            dataclasses.replace(a, x_mm=a.x_mm + 8.0) if a.id == 1 else a for a in table.anchors
        ),
    )
    views = []
    for camera in (scene.camera, scene.camera.around(centre, 180.0)):
        picture = render(camera, scene.scene, scene.options)
        located = locate_frame(picture.image, intrinsics, moved, roster).located
        assert isinstance(located, LocateResult)
        assert located.pose.anchors_used == (0, 2, 3)
        views.append(located)
    checks = {a.id: a for a in fuse(views).anchors}
    assert all(off is not None and off == pytest.approx(8.0, abs=0.5) for off in checks[1].off_mm)
    assert checks[1].apart_mm is not None and checks[1].apart_mm < 0.5
    for anchor in (0, 2, 3):
        assert all(off is not None and off < 0.5 for off in checks[anchor].off_mm)
