"""Camera files: camera.yaml, OpenCV FileStorage and ROS camera_info load; bad files are one
clear line naming the file and the field; intrinsics follow a resized frame."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from arbitre.calibration.camera import CameraIntrinsics, load_camera, save_camera
from arbitre.calibration.errors import CalibrationError, CalibrationFileError

REAL = Path(os.environ.get("ARBITRE_REAL_DATA", "/nonexistent"))  # set by tests/conftest.py
needs_real_data = pytest.mark.skipif(not REAL.is_dir(), reason="shared/data/real is not present")

GOOD = """\
image_size: [1920, 1080]
camera_matrix: [[1400.5, 0, 961.2], [0, 1401.0, 538.7], [0, 0, 1]]
dist_coeffs: [-0.25, 0.08, 0.001, -0.0005, -0.01]
rms_px: 0.31
"""

ROS = """\
image_width: 1280
image_height: 720
camera_name: webcam
camera_matrix:
  rows: 3
  cols: 3
  data: [900.0, 0.0, 640.5, 0.0, 901.0, 360.5, 0.0, 0.0, 1.0]
distortion_model: plumb_bob
distortion_coefficients:
  rows: 1
  cols: 5
  data: [-0.1, 0.02, 0.0, 0.0, 0.0]
rectification_matrix:
  rows: 3
  cols: 3
  data: [1, 0, 0, 0, 1, 0, 0, 0, 1]
projection_matrix:
  rows: 3
  cols: 4
  data: [900, 0, 640.5, 0, 0, 901, 360.5, 0, 0, 0, 1, 0]
"""


def _write(tmp_path: Path, text: str, name: str = "camera.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_camera_yaml_loads(tmp_path: Path) -> None:
    camera = load_camera(_write(tmp_path, GOOD))
    assert camera.image_size == (1920, 1080)
    assert (camera.fx, camera.fy, camera.cx, camera.cy) == (1400.5, 1401.0, 961.2, 538.7)
    assert camera.dist_coeffs.tolist() == [-0.25, 0.08, 0.001, -0.0005, -0.01]
    assert camera.rms_px == 0.31


def test_save_then_load_is_exact(tmp_path: Path) -> None:
    camera = load_camera(_write(tmp_path, GOOD))
    path = tmp_path / "out" / "camera.yaml"
    path.parent.mkdir()
    save_camera(camera, path)
    again = load_camera(path)
    assert again.image_size == camera.image_size
    assert np.array_equal(again.camera_matrix, camera.camera_matrix)
    assert np.array_equal(again.dist_coeffs, camera.dist_coeffs)
    assert again.rms_px == camera.rms_px


@needs_real_data
def test_opencv_filestorage_chessboard_reference_loads() -> None:
    camera = load_camera(REAL / "opencv-chessboard-9x6" / "left_intrinsics.yml")
    # The values of left_intrinsics.yml, as its README lists them.
    assert camera.image_size == (640, 480)
    assert camera.fx == pytest.approx(535.9157, abs=1e-4)
    assert camera.fy == pytest.approx(535.9157, abs=1e-4)
    assert (camera.cx, camera.cy) == pytest.approx((342.2832, 235.5708), abs=1e-4)
    assert camera.dist_coeffs[0] == pytest.approx(-0.266373, abs=1e-6)
    assert camera.rms_px == pytest.approx(0.3926, abs=1e-4)


@needs_real_data
def test_opencv_filestorage_charuco_tutorial_loads() -> None:
    camera = load_camera(REAL / "opencv-aruco-charuco-tutorial" / "tutorial_camera_charuco.yml")
    assert camera.image_size == (640, 480)
    assert (camera.fx, camera.fy) == pytest.approx((452.511, 456.767), abs=1e-3)
    assert (camera.cx, camera.cy) == pytest.approx((317.703, 277.752), abs=1e-3)
    assert camera.dist_coeffs.tolist() == pytest.approx(
        [0.121369, -1.085466, 0.000118, -0.000462, 2.954259], abs=1e-6
    )


@needs_real_data
def test_opencv_file_without_image_size_needs_one() -> None:
    path = REAL / "opencv-aruco-charuco-tutorial" / "tutorial_camera_params.yml"
    with pytest.raises(CalibrationFileError, match=r"tutorial_camera_params.yml: image_width: "):
        load_camera(path)
    camera = load_camera(path, image_size=(640, 480))
    assert camera.fx == pytest.approx(628.158)
    assert camera.dist_coeffs.size == 5  # a 5x1 matrix in the file


def test_ros_camera_info_loads(tmp_path: Path) -> None:
    camera = load_camera(_write(tmp_path, ROS, "camera_info.yaml"))
    assert camera.image_size == (1280, 720)
    assert (camera.fx, camera.fy, camera.cx, camera.cy) == (900.0, 901.0, 640.5, 360.5)
    assert camera.dist_coeffs.tolist() == [-0.1, 0.02, 0.0, 0.0, 0.0]
    assert camera.rms_px is None


def test_ros_fisheye_is_refused(tmp_path: Path) -> None:
    text = ROS.replace("plumb_bob", "equidistant")
    with pytest.raises(CalibrationFileError, match=r"distortion_model: 'equidistant'"):
        load_camera(_write(tmp_path, text))


def test_opencv_filestorage_xml_written_by_opencv_loads(tmp_path: Path) -> None:
    import cv2

    path = tmp_path / "camera.xml"
    matrix = np.array([[500.0, 0.0, 320.5], [0.0, 501.0, 240.25], [0.0, 0.0, 1.0]])
    coeffs = np.array([[0.1], [-0.2], [0.001], [0.002], [0.05]])
    storage = cv2.FileStorage(str(path), cv2.FILE_STORAGE_WRITE)
    storage.write("image_width", 640)
    storage.write("image_height", 480)
    storage.write("camera_matrix", matrix)
    storage.write("distortion_coefficients", coeffs)
    storage.write("avg_reprojection_error", 0.25)
    storage.release()
    camera = load_camera(path)
    assert camera.image_size == (640, 480)
    assert camera.camera_matrix.tolist() == matrix.tolist()
    assert camera.dist_coeffs.tolist() == coeffs.ravel().tolist()
    assert camera.rms_px == 0.25


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("<?xml version='1.0'?><!DOCTYPE x [<!ENTITY a 'aaaa'>]><opencv_storage/>", ""),
        ("<opencv_storage><camera_matrix>", ""),
        ("<storage/>", "storage"),
        (
            "<opencv_storage><camera_matrix type_id='opencv-matrix'><rows>3</rows>"
            "</camera_matrix></opencv_storage>",
            "camera_matrix",
        ),
    ],
)
def test_a_bad_opencv_xml_file_is_one_line(tmp_path: Path, text: str, field: str) -> None:
    path = tmp_path / "camera.xml"
    path.write_text(text)
    with pytest.raises(CalibrationFileError) as caught:
        load_camera(path)
    assert "\n" not in str(caught.value)
    assert str(caught.value).startswith(f"{path}: {field}")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            GOOD.replace(
                "[[1400.5, 0, 961.2], [0, 1401.0, 538.7], [0, 0, 1]]", "[[1, 0], [0, 1], [0, 0]]"
            ),
            r"^camera.yaml: camera_matrix: expected 3x3, got 3x2$",
        ),
        (
            GOOD.replace("[-0.25, 0.08, 0.001, -0.0005, -0.01]", "[0, 0, 0, 0, 0, 0]"),
            r"^camera.yaml: dist_coeffs: expected 4, 5, 8, 12 or 14 values, got 6$",
        ),
        (
            GOOD.replace("[[1400.5,", "[[-1400.5,"),
            r"^camera.yaml: camera_matrix: fx must be positive, got -1400.5$",
        ),
        (
            GOOD.replace("dist_coeffs: [-0.25, 0.08, 0.001, -0.0005, -0.01]\n", ""),
            r"^camera.yaml: dist_coeffs: missing$",
        ),
        (  # no lens: a broken file, said so (not "no 2 anchors agree" later)
            GOOD.replace("[-0.25, 0.08,", "[-1.0e+300, 0.08,"),
            r"^camera.yaml: dist_coeffs: values must be finite, within ±1,000,000, got \[-1e\+300",
        ),
        (
            GOOD.replace("image_size: [1920, 1080]\n", ""),
            r"^camera.yaml: image_size: missing$",
        ),
        (
            GOOD.replace("[1920, 1080]", "[1920, 0]"),
            r"^camera.yaml: image_size: expected \[width, height\]",
        ),
        (
            GOOD.replace("[[1400.5, 0, 961.2]", "[[1400.5, 0, .nan]"),
            r"^camera.yaml: camera_matrix: values must be finite",
        ),
        (
            GOOD.replace("[1920, 1080]", "[640, 480]"),
            r"^camera.yaml: camera_matrix: principal point \(961.2, 538.7\) lies outside",
        ),
        (GOOD + "focal: 3\n", r"^camera.yaml: focal: unknown field$"),
        (GOOD.replace("rms_px: 0.31", "rms_px: low"), r"^camera.yaml: rms_px: expected a number"),
        ("camera_matrix: [[1, 0, 0]\n", r"^camera.yaml: line 2: not valid YAML"),
        ("", r"^camera.yaml: expected a mapping of fields, the file is empty$"),
        (
            GOOD.replace("1400.5", "1.0e+308"),
            r"^camera.yaml: camera_matrix: fx 1e\+308 px gives a field of view of 0° across "
            r"the 1920 px image, outside 1°-179°: no lens has it$",
        ),
        (
            GOOD.replace("1401.0", "0.001"),
            r"^camera.yaml: camera_matrix: fy 0.001 px gives a field of view of 180° across "
            r"the 1080 px image",
        ),
        (
            GOOD.replace("[1920, 1080]", "[200000, 1080]"),
            r"^camera.yaml: image_size: 200000 px is larger than any camera's image "
            r"\(at most 100,000\)$",
        ),
    ],
)
def test_a_bad_camera_file_is_one_line_naming_file_and_field(
    tmp_path: Path, text: str, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, text)
    with pytest.raises(CalibrationFileError, match=message) as raised:
        load_camera("camera.yaml")
    assert "\n" not in str(raised.value)


def test_a_bad_ros_matrix_names_its_field(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, ROS.replace("cols: 3\n  data: [900.0", "cols: 2\n  data: [900.0"), "info.yaml")
    with pytest.raises(CalibrationFileError, match=r"^info.yaml: camera_matrix.data: expected 3x2"):
        load_camera("info.yaml")


def test_an_unreadable_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(CalibrationFileError, match=r"nothing.yaml: cannot read the file \(No such"):
        load_camera(tmp_path / "nothing.yaml")
    binary = tmp_path / "camera.yaml"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    with pytest.raises(CalibrationFileError, match=r"camera.yaml: not a text file"):
        load_camera(binary)


def _camera(size: tuple[int, int], cx: float, cy: float) -> CameraIntrinsics:
    matrix = np.array([[1000, 0, cx], [0, 1002, cy], [0, 0, 1]], dtype=float)
    return CameraIntrinsics(size, matrix, np.array([-0.2, 0.05, 0, 0, 0]))


def test_a_resized_frame_rescales_the_matrix_about_pixel_centres() -> None:
    camera = _camera((1920, 1080), 959.5, 539.5)
    half = camera.for_image_size((960, 540))
    # Worked by hand: s = 0.5; fx' = 500, fy' = 501; cx' = 0.5 * (959.5 + 0.5) - 0.5 = 479.5,
    # cy' = 0.5 * (539.5 + 0.5) - 0.5 = 269.5 (the image centre stays the image centre).
    assert (half.fx, half.fy, half.cx, half.cy) == (500.0, 501.0, 479.5, 269.5)
    assert np.array_equal(half.dist_coeffs, camera.dist_coeffs)
    assert half.image_size == (960, 540)
    assert camera.for_image_size((1920, 1080)) is camera


def test_a_resized_frame_sees_the_same_rays() -> None:
    """A point's pixel in the resized frame is where cv2.resize puts the original pixel."""
    import cv2

    camera = _camera((1280, 720), 650.3, 351.9)
    small = camera.for_image_size((854, 480))  # 720 * 854 / 1280 = 480.4: one pixel of rounding
    points = np.array([[[0.3, -0.2, 1.0]], [[-0.5, 0.25, 2.0]]])
    zero = np.zeros(3)
    big_px = cv2.projectPoints(points, zero, zero, camera.camera_matrix, camera.dist_coeffs)[0]
    small_px = cv2.projectPoints(points, zero, zero, small.camera_matrix, small.dist_coeffs)[0]
    scale = np.array([854 / 1280, 480 / 720])
    expected = (big_px.reshape(-1, 2) + 0.5) * scale - 0.5
    assert np.allclose(small_px.reshape(-1, 2), expected, atol=1e-9)


def test_another_aspect_ratio_is_refused() -> None:
    camera = _camera((1920, 1080), 960, 540)
    with pytest.raises(CalibrationError, match=r"image size 640x480 has another aspect ratio"):
        camera.for_image_size((640, 480))


def test_intrinsics_are_validated_when_built_in_code() -> None:
    with pytest.raises(CalibrationError, match=r"dist_coeffs: expected 4, 5, 8, 12 or 14"):
        CameraIntrinsics((640, 480), np.eye(3), np.zeros(3))
    camera = _camera((1920, 1080), 960, 540)
    with pytest.raises(ValueError, match="read-only"):
        camera.camera_matrix[0, 0] = 3.0


def _disk_full(_descriptor: int) -> None:
    raise OSError(28, "No space left on device")


def test_a_failed_save_leaves_the_old_camera_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _write(tmp_path, GOOD)
    wider = CameraIntrinsics((3840, 2160), [[2800, 0, 1920], [0, 2800, 1080], [0, 0, 1]], [0] * 5)
    monkeypatch.setattr("arbitre.files.os.fsync", _disk_full)
    with pytest.raises(CalibrationFileError) as error:
        save_camera(wider, path)
    assert str(error.value) == f"{path}: cannot write the file (No space left on device)"
    assert path.read_text(encoding="utf-8") == GOOD
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no temporary left


def test_save_without_overwrite_keeps_an_existing_camera(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD)
    camera = CameraIntrinsics((640, 480), [[500, 0, 320], [0, 500, 240], [0, 0, 1]], [0] * 5)
    with pytest.raises(FileExistsError, match="already exists; pass --force"):
        save_camera(camera, path, overwrite=False)
    assert path.read_text(encoding="utf-8") == GOOD
    save_camera(camera, path)  # overwrite is the default for the library
    assert load_camera(path).fx == 500.0
