"""Printed sheets: the right markers, at exactly the size asked for, with the check bar."""

from __future__ import annotations

import base64
import re
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from arbitre.calibration.board import Board
from arbitre.calibration.errors import CalibrationError
from arbitre.calibration.printing import (
    PAGE_MARGIN_MM,
    PAPERS,
    Page,
    aruco_dictionary,
    board_orientation,
    board_sheet,
    find_paper,
    marker_sheets,
    parse_ids,
    svg,
    write_pages,
)

PX_PER_MM = 12.0
PT_PER_MM = 72 / 25.4
CHARUCO_7X5 = Board("charuco", 7, 5, 30.0, 22.0, "DICT_5X5_100")


def _raster(page: Page) -> np.ndarray:
    """The page drawn at 12 px/mm (black rectangles, arrows and cut lines, dashes and all,
    on white), to check it with a detector."""
    image = np.full(
        (round(page.height_mm * PX_PER_MM), round(page.width_mm * PX_PER_MM)), 255, np.uint8
    )
    for r in page.rects:
        x0, y0 = round(r.x * PX_PER_MM), round(r.y * PX_PER_MM)
        x1, y1 = round((r.x + r.w) * PX_PER_MM), round((r.y + r.h) * PX_PER_MM)
        image[y0:y1, x0:x1] = 0
    for polygon in page.polygons:
        points = np.round(np.array(polygon.points) * PX_PER_MM * 16).astype(np.int32)
        cv2.fillPoly(image, [points], 0, lineType=cv2.LINE_8, shift=4)
    for line in page.lines:
        start, end = np.array([line.x0, line.y0]), np.array([line.x1, line.y1])
        length = float(np.linalg.norm(end - start))
        dash, gap = line.dash_mm or (length, 0.0)
        along = 0.0
        while along < length:  # each dash a filled quadrilateral, the line's width across
            a = start + (end - start) * along / length
            b = start + (end - start) * min(along + dash, length) / length
            across = np.array([-(end - start)[1], (end - start)[0]]) / length * line.width_mm / 2
            quad = np.array([a + across, b + across, b - across, a - across]) * PX_PER_MM
            cv2.fillPoly(image, [np.round(quad * 16).astype(np.int32)], 0, shift=4)
            along += dash + gap
    return image


def _page_sizes_pt(data: bytes) -> list[tuple[float, float]]:
    """Every page's MediaBox (width, height) in PostScript points."""
    boxes = re.findall(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    return [(float(w), float(h)) for w, h in boxes]


def _page_contents(data: bytes) -> list[bytes]:
    """The drawing operators of each page (reportlab writes them ASCII85 + Flate encoded)."""
    contents = []
    for match in re.finditer(
        rb"/Filter \[ /ASCII85Decode /FlateDecode \][^>]*>>\s*stream\r?\n(.*?)endstream",
        data,
        re.S,
    ):
        encoded = match.group(1).strip().removesuffix(b"~>")
        contents.append(zlib.decompress(base64.a85decode(encoded)))
    return contents


def _has_check_bar(content: bytes) -> bool:
    """A filled rectangle 100 mm (283.46 pt) wide and the words that go with it."""
    widths = re.findall(rb"n [\d.-]+ [\d.-]+ ([\d.]+) [\d.]+ re f", content)
    return any(abs(float(w) - 100 * PT_PER_MM) < 0.01 for w in widths) and (
        b"this bar must measure 100 mm" in content
    )


def _inside_margins(page: Page) -> bool:
    """Nothing drawn in the margins (but for the check bar's end ticks, 0.3 mm wide,
    which straddle the end of the bar: 0.15 mm tolerated)."""
    slack = 0.15 + 1e-9
    return all(
        r.x >= PAGE_MARGIN_MM - slack
        and r.y >= PAGE_MARGIN_MM - slack
        and r.x + r.w <= page.width_mm - PAGE_MARGIN_MM + slack
        and r.y + r.h <= page.height_mm - PAGE_MARGIN_MM + slack
        for r in page.rects
    )


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
        # A range expanded before it is checked would fill the memory (or never end).
        (lambda: parse_ids("0-9999999999999"), "ids must look like"),
        (lambda: parse_ids("0-999999999"), "at most 1,000 marker ids"),
        (lambda: parse_ids("\u0663"), "ids must look like"),  # an Arabic-Indic 3
        (lambda: parse_ids("0-249,0-249"), "marker id 0 is given twice"),
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
    # 5 x 7 squares (150 x 210 mm) fit upright on A4.
    board = Board(
        "charuco",
        squares_x=5,
        squares_y=7,
        square_mm=30.0,
        marker_mm=22.0,
        dictionary="DICT_5X5_100",
    )
    image = _raster(board_sheet(board))
    detector = cv2.aruco.CharucoDetector(board.charuco_board())
    corners, ids, _, marker_ids = detector.detectBoard(image)
    # 5 x 7 squares: 4 x 6 = 24 inner corners, and 17 markers in the white squares.
    assert ids is not None and len(ids) == 24
    assert marker_ids is not None and len(marker_ids) == 17
    # Neighbouring corners are one square (30 mm) apart on the page.
    order = np.argsort(ids.ravel())
    first, second = corners[order][0, 0], corners[order][1, 0]
    assert np.linalg.norm(second - first) / PX_PER_MM == pytest.approx(30.0, abs=0.1)


@pytest.mark.parametrize(("name", "size_pt"), [("a4", (595.28, 841.89)), ("letter", (612, 792))])
def test_every_page_is_the_paper_with_its_check_bar(
    tmp_path: Path, name: str, size_pt: tuple[float, float]
) -> None:
    # A4 is 210 x 297 mm = 595.28 x 841.89 pt; US Letter 215.9 x 279.4 mm = 8.5 x 11 in
    # = 612 x 792 pt (72 pt to the inch).
    markers = tmp_path / "markers.pdf"
    write_pages(
        marker_sheets(list(range(120)), 25.0, "DICT_4X4_250", paper=find_paper(name)), markers
    )
    board = tmp_path / "board.pdf"
    write_pages([board_sheet(CHARUCO_7X5, find_paper(name))], board)
    for path, pages in ((markers, None), (board, 1)):
        data = path.read_bytes()
        sizes = _page_sizes_pt(data)
        assert len(sizes) == (pages or len(sizes)) and len(sizes) >= 1
        assert all(size == pytest.approx(size_pt, abs=0.01) for size in sizes)
        contents = _page_contents(data)
        assert len(contents) == len(sizes)
        assert all(_has_check_bar(content) for content in contents)
    assert len(_page_sizes_pt(markers.read_bytes())) > 1


def test_markers_are_laid_out_on_letter_paper() -> None:
    pages = marker_sheets(list(range(120)), 25.0, "DICT_4X4_250", paper=find_paper("letter"))
    assert {(p.width_mm, p.height_mm) for p in pages} == {(215.9, 279.4)}
    assert all(_inside_margins(p) for p in pages)
    with pytest.raises(CalibrationError, match="does not fit on US Letter paper"):
        marker_sheets([1], 200.0, "DICT_4X4_50", paper=find_paper("letter"))


def test_a_board_too_wide_for_a4_is_turned_whole_and_exact() -> None:
    # 7 x 5 squares of 30 mm: 210 x 150 mm. Upright it needs 210 + 2 x 12 mm margins across
    # an A4 page 210 mm wide: no. Turned, 150 + 24 = 174 <= 210 across, and 12 + 210 + 24
    # (caption and check bar) + 12 = 258 <= 297 down: yes.
    assert board_orientation(CHARUCO_7X5, find_paper("a4")) == "turned"
    page = board_sheet(CHARUCO_7X5, find_paper("a4"))
    assert (page.width_mm, page.height_mm) == (210.0, 297.0)
    assert _inside_margins(page)
    assert any("turned" in t.text for t in page.texts)

    image = _raster(page)
    detector = cv2.aruco.CharucoDetector(CHARUCO_7X5.charuco_board())
    corners, ids, _, marker_ids = detector.detectBoard(image)
    # The whole board is found (a mirrored one would show no marker of its dictionary):
    # 6 x 4 = 24 corners and 17 markers.
    assert ids is not None and len(ids) == 24
    assert marker_ids is not None and len(marker_ids) == 17
    points = corners.reshape(-1, 2)[np.argsort(ids.ravel())] / PX_PER_MM
    grid = points.reshape(4, 6, 2)  # corner k is row k // 6, column k % 6 of the board
    along_x = np.diff(grid, axis=1)
    along_y = np.diff(grid, axis=0)
    # Turned a quarter turn: the board's x runs down the page, its y runs right to left,
    # one 30 mm square per corner, to a tenth of a millimetre.
    assert np.allclose(along_x, [0.0, 30.0], atol=0.1)
    assert np.allclose(along_y, [-30.0, 0.0], atol=0.1)


def test_a_board_that_fits_upright_stays_upright() -> None:
    # 5 x 7 squares of 30 mm: 150 x 210 mm, 150 + 24 <= 210 across, 12 + 210 + 24 <= 285 down.
    board = Board("chessboard", squares_x=5, squares_y=7, square_mm=30.0)
    assert board_orientation(board, find_paper("a4")) == "upright"
    page = board_sheet(board, find_paper("a4"))
    top_left = min(page.rects, key=lambda r: (r.y, r.x))
    assert (top_left.x, top_left.y, top_left.w) == (30.0, 12.0, 30.0)  # (210 - 150) / 2


@pytest.mark.parametrize(
    ("name", "largest"),
    [
        # 10 x 7 squares of 40 mm (400 x 280 mm). Room on A4: 210 - 2 x 12 = 186 mm across,
        # 297 - 2 x 12 - 24 (caption, check bar) = 249 mm down. Upright: min(186 / 10,
        # 249 / 7) = 18.6 mm; turned: min(186 / 7, 249 / 10) = 24.9 mm -> 24.5 mm.
        ("a4", "24.5"),
        # Letter: 215.9 - 24 = 191.9 across, 279.4 - 48 = 231.4 down. Turned: min(191.9 / 7,
        # 231.4 / 10) = 23.14 mm -> 23 mm (upright: 19.19 mm).
        ("letter", "23"),
    ],
)
def test_a_board_too_big_for_the_paper_is_refused_with_the_largest_square(
    name: str, largest: str
) -> None:
    board = Board("chessboard", squares_x=10, squares_y=7, square_mm=40.0)
    with pytest.raises(CalibrationError, match=rf"the largest square that fits is {largest} mm$"):
        board_sheet(board, find_paper(name))
    # ... and that size does fit, turned; half a millimetre more does not.
    fitting = Board("chessboard", squares_x=10, squares_y=7, square_mm=float(largest))
    assert board_orientation(fitting, find_paper(name)) == "turned"
    with pytest.raises(CalibrationError):
        board_orientation(
            Board("chessboard", squares_x=10, squares_y=7, square_mm=float(largest) + 0.5),
            find_paper(name),
        )


def test_papers_by_name() -> None:
    assert find_paper("A4") is PAPERS["a4"]
    assert (find_paper("letter").width_mm, find_paper("letter").height_mm) == (215.9, 279.4)
    with pytest.raises(CalibrationError, match="unknown paper 'a3'; expected a4 or letter"):
        find_paper("a3")


def test_writing_pages_reports_progress(tmp_path: Path) -> None:
    pages = marker_sheets(list(range(120)), 25.0, "DICT_4X4_250")
    seen: list[tuple[int, int]] = []
    write_pages(
        pages, tmp_path / "sheet.pdf", progress=lambda done, total: seen.append((done, total))
    )
    assert seen == [(k, len(pages)) for k in range(1, len(pages) + 1)]


def test_a_printed_chessboard_has_its_inner_corners() -> None:
    image = _raster(board_sheet(Board("chessboard", squares_x=10, squares_y=7, square_mm=20.0)))
    found, corners = cv2.findChessboardCorners(image, (9, 6))
    assert found
    steps = np.linalg.norm(np.diff(corners.reshape(6, 9, 2), axis=1), axis=2) / PX_PER_MM
    assert np.allclose(steps, 20.0, atol=0.15)


@pytest.mark.parametrize("name", ["sheet.pdf", "sheet.svg"])
def test_a_sheet_is_written_whole_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    path = tmp_path / name
    path.write_bytes(b"the sheet printed last week")
    pages = marker_sheets([1, 2], 20.0, "DICT_4X4_50")

    def disk_full(_descriptor: int) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr("arbitre.files.os.fsync", disk_full)
        with pytest.raises(CalibrationError) as error:
            write_pages(pages, path)
    assert str(error.value) == f"{path}: cannot write the file (No space left on device)"
    assert path.read_bytes() == b"the sheet printed last week"
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]

    with pytest.raises(FileExistsError, match="pass --force"):
        write_pages(pages, path, overwrite=False)
    assert path.read_bytes() == b"the sheet printed last week"
    write_pages(pages, path)
    assert path.read_bytes().startswith(b"%PDF-" if name.endswith(".pdf") else b"<?xml")


def test_a_pdf_made_incomplete_is_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from reportlab.pdfgen import canvas

    def save_half(self: canvas.Canvas) -> None:  # a PDF library stopping half-way
        self._filename.write(b"%PDF-1.4\n% half a file")

    monkeypatch.setattr(canvas.Canvas, "save", save_half)
    path = tmp_path / "sheet.pdf"
    with pytest.raises(
        CalibrationError, match="sheet.pdf: not written: the PDF made is incomplete"
    ):
        write_pages(marker_sheets([1], 20.0, "DICT_4X4_50"), path)
    assert not path.exists() and list(tmp_path.iterdir()) == []
