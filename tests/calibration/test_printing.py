"""Printed sheets: the right markers, at exactly the size asked for, with the check bar."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from arbitre.calibration.errors import CalibrationError
from arbitre.calibration.printing import (
    Page,
    aruco_dictionary,
    marker_sheets,
    parse_ids,
    svg,
    write_pages,
)

PX_PER_MM = 12.0


def _raster(page: Page) -> np.ndarray:
    """The page drawn at 12 px/mm (black rectangles on white), to check it with a detector."""
    image = np.full(
        (round(page.height_mm * PX_PER_MM), round(page.width_mm * PX_PER_MM)), 255, np.uint8
    )
    for r in page.rects:
        x0, y0 = round(r.x * PX_PER_MM), round(r.y * PX_PER_MM)
        x1, y1 = round((r.x + r.w) * PX_PER_MM), round((r.y + r.h) * PX_PER_MM)
        image[y0:y1, x0:x1] = 0
    return image


def test_every_marker_is_found_at_its_printed_size() -> None:
    pages = marker_sheets(parse_ids("10-49"), 15.0, "DICT_4X4_250")
    assert len(pages) == 1
    detector = cv2.aruco.ArucoDetector(aruco_dictionary("DICT_4X4_250"))
    corners, ids, _ = detector.detectMarkers(_raster(pages[0]))
    assert ids is not None
    assert sorted(ids.ravel().tolist()) == list(range(10, 50))
    # The black square's side: 15 mm = 180 px at 12 px/mm. Detected corners sit on the
    # outer edge of the black border, to within a pixel.
    sides_px = [np.linalg.norm(c[0][1] - c[0][0]) for c in corners]
    assert np.allclose(np.array(sides_px) / PX_PER_MM, 15.0, atol=0.1)


def test_each_marker_is_labelled_with_its_id_and_dictionary() -> None:
    page = marker_sheets([7, 8], 20.0, "DICT_5X5_100")[0]
    captions = [t.text for t in page.texts]
    assert "7 DICT_5X5_100 20 mm" in captions
    assert "8 DICT_5X5_100 20 mm" in captions
    assert any("print at 100 %" in c for c in captions)


def test_the_check_bar_is_100_mm() -> None:
    page = marker_sheets([1], 20.0, "DICT_4X4_50")[0]
    bar = max(page.rects, key=lambda r: r.w)
    assert bar.w == pytest.approx(100.0)


def test_markers_keep_a_quiet_zone() -> None:
    # 4x4 markers have 6 modules across (border included): a 15 mm marker has 2.5 mm
    # modules, so neighbours must stand at least 2 x 2.5 mm apart.
    page = marker_sheets(list(range(12)), 15.0, "DICT_4X4_250")[0]
    # Every marker's top border row is one 15 mm wide rectangle: their left edges give
    # the columns of markers, and the gap between two columns is what stays white.
    columns = sorted({round(r.x, 3) for r in page.rects if r.w == pytest.approx(15.0)})
    assert len(columns) >= 2
    assert np.all(np.diff(columns) - 15.0 >= 2 * 2.5)


def test_many_markers_spill_onto_more_pages() -> None:
    assert len(marker_sheets(list(range(120)), 30.0, "DICT_4X4_250")) > 1


def test_svg_is_in_millimetres(tmp_path: Path) -> None:
    page = marker_sheets([3], 25.0, "DICT_4X4_250")[0]
    text = svg(page)
    assert 'width="210.0mm" height="297.0mm" viewBox="0 0 210.0 297.0"' in text
    path = tmp_path / "sheet.svg"
    write_pages([page], path)
    assert path.read_text().startswith("<?xml")


def test_pdf_page_is_a4(tmp_path: Path) -> None:
    path = tmp_path / "sheet.pdf"
    write_pages(marker_sheets(list(range(60)), 25.0, "DICT_4X4_250"), path)
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    # A4 in PostScript points: 210 mm = 595.28 pt, 297 mm = 841.89 pt.
    box = re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)", data)
    assert box is not None
    assert float(box.group(1)) == pytest.approx(595.28, abs=0.01)
    assert float(box.group(2)) == pytest.approx(841.89, abs=0.01)
    assert data.count(b"/Type /Page\n") + data.count(b"/Type /Page ") >= 2


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: parse_ids("10-"), "ids must look like"),
        (lambda: parse_ids("9-3"), "ids must look like"),
        (lambda: marker_sheets([300], 15.0, "DICT_4X4_250"), "not in the dictionary"),
        (lambda: marker_sheets([1], 15.0, "DICT_9X9_1"), "unknown ArUco dictionary"),
        (lambda: marker_sheets([1], 400.0, "DICT_4X4_50"), "does not fit"),
        (lambda: marker_sheets([1], -2.0, "DICT_4X4_50"), "positive number"),
        (
            lambda: write_pages(marker_sheets([1], 20.0, "DICT_4X4_50"), Path("x.png")),
            "write a .pdf or .svg",
        ),
    ],
)
def test_bad_requests_are_clear_errors(call: object, message: str) -> None:
    with pytest.raises(CalibrationError, match=message):
        call()  # type: ignore[operator]


def test_a_printed_charuco_board_is_found_whole() -> None:
    from arbitre.calibration.board import Board
    from arbitre.calibration.printing import board_sheet

    board = Board(
        "charuco",
        squares_x=7,
        squares_y=5,
        square_mm=30.0,
        marker_mm=22.0,
        dictionary="DICT_5X5_100",
    )
    image = _raster(board_sheet(board))
    detector = cv2.aruco.CharucoDetector(board.charuco_board())
    corners, ids, _, marker_ids = detector.detectBoard(image)
    # 7 x 5 squares: 6 x 4 = 24 inner corners, and 17 markers in the white squares.
    assert ids is not None and len(ids) == 24
    assert marker_ids is not None and len(marker_ids) == 17
    # Neighbouring corners are one square (30 mm) apart on the page.
    order = np.argsort(ids.ravel())
    first, second = corners[order][0, 0], corners[order][1, 0]
    assert np.linalg.norm(second - first) / PX_PER_MM == pytest.approx(30.0, abs=0.1)


def test_a_printed_chessboard_has_its_inner_corners() -> None:
    from arbitre.calibration.board import Board
    from arbitre.calibration.printing import board_sheet

    image = _raster(board_sheet(Board("chessboard", squares_x=10, squares_y=7, square_mm=20.0)))
    found, corners = cv2.findChessboardCorners(image, (9, 6))
    assert found
    steps = np.linalg.norm(np.diff(corners.reshape(6, 9, 2), axis=1), axis=2) / PX_PER_MM
    assert np.allclose(steps, 20.0, atol=0.15)
