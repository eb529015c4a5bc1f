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
    Line,
    Page,
    Text,
    anchor_sheets,
    aruco_dictionary,
    board_orientation,
    board_sheet,
    find_paper,
    marker_sheets,
    parse_ids,
    svg,
    text_width_mm,
    write_pages,
)
from arbitre.calibration.setup import corner_anchors
from arbitre.calibration.table import Anchor
from arbitre.vision.detect import detect_markers

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


# Cards, cut lines and the anchor sheet.

PT = 72 / 25.4  # PostScript points a millimetre


def _anchors_1200_x_900() -> list[Anchor]:
    return [Anchor(**a) for a in corner_anchors(1200, 900, 40, 35)]


def _squares(page: Page) -> list[tuple[int, np.ndarray]]:
    """The markers found on the page drawn with its cut lines and arrows: (id, corners
    (4, 2) page mm in OpenCV's order, top-left first), by id."""
    found = detect_markers(_raster(page), "DICT_4X4_250")
    return [(m.id, m.corners_px / PX_PER_MM) for m in found.markers]


def _clear_of(line: Line, box: tuple[float, float, float, float]) -> bool:
    """Whether a straight line, its width included, keeps out of a box (x0, y0, x1, y1)."""
    half = line.width_mm / 2
    if line.x0 == line.x1:  # upright
        top, low = sorted((line.y0, line.y1))
        return not (box[0] - half < line.x0 < box[2] + half and top < box[3] and low > box[1])
    assert line.y0 == line.y1  # cut lines run along the page's sides
    left, right = sorted((line.x0, line.x1))
    return not (box[1] - half < line.y0 < box[3] + half and left < box[2] and right > box[0])


def test_a_card_s_cut_lines_are_where_worked_out() -> None:
    # DICT_4X4_250, 15 mm: 6 modules of 2.5 mm, a quiet zone of 2 modules = 5 mm, cut lines
    # 1 mm further out: 6 mm from the black square at the sides and top. The caption's strip
    # (4.5 mm) under it: a card 15 + 2 x 6 = 27 mm wide and 6 + 15 + 6 + 4.5 = 31.5 mm high.
    # The first card's top-left corner is at the page margin (12, 12): its marker at
    # (18, 18)-(33, 33), its cut lines at x = 12 and 39, y = 12 and 43.5.
    page = marker_sheets([10, 11], 15.0, "DICT_4X4_250")[0]
    top_row = [r for r in page.rects if r.w == pytest.approx(15.0)]
    assert (top_row[0].x, top_row[0].y) == pytest.approx((18.0, 18.0))
    cuts = {(round(c.x0, 9), round(c.y0, 9), round(c.x1, 9), round(c.y1, 9)) for c in page.lines}
    first = {(12, 12, 39, 12), (39, 12, 39, 43.5), (12, 43.5, 39, 43.5), (12, 12, 12, 43.5)}
    # The second card, to its right, shares the line x = 39 and adds three: its marker at
    # (45, 18), its far side at 39 + 27 = 66.
    second = {(39, 12, 66, 12), (66, 12, 66, 43.5), (39, 43.5, 66, 43.5)}
    assert cuts == first | second
    assert len(page.lines) == 7  # the shared side drawn once
    assert all(c.dash_mm == (2.0, 1.5) and c.width_mm == 0.2 for c in page.lines)
    assert 'stroke-dasharray="2 1.5"' in svg(page)


@pytest.mark.parametrize(
    ("size_mm", "quiet_mm"),
    [
        (6.0, 3.0),  # 1 mm modules: 2 modules = 2 mm, less than the 3 mm kept at least
        (15.0, 5.0),  # 2.5 mm modules
        (40.0, 40 / 6 * 2),  # 6.67 mm modules
    ],
)
def test_cut_lines_never_enter_a_marker_s_quiet_zone(size_mm: float, quiet_mm: float) -> None:
    for page in marker_sheets(list(range(60)), size_mm, "DICT_4X4_250"):
        squares = _squares(page)
        assert len(squares) == len({i for i, _ in squares}) > 0
        for _, corners in squares:
            (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
            assert x1 - x0 == pytest.approx(size_mm, abs=0.1)
            quiet = (x0 - quiet_mm, y0 - quiet_mm, x1 + quiet_mm, y1 + quiet_mm)
            assert all(_clear_of(c, quiet) for c in page.lines)
            # ... and cut lines close round it, a millimetre outside the quiet zone
            # (to the detector's tenth of a millimetre) at the sides and the top.
            sides = {
                "left": [c.x0 for c in page.lines if c.x0 == c.x1 and c.x0 < x0],
                "right": [c.x0 for c in page.lines if c.x0 == c.x1 and c.x0 > x1],
                "top": [c.y0 for c in page.lines if c.y0 == c.y1 and c.y0 < y0],
            }
            assert x0 - max(sides["left"]) == pytest.approx(quiet_mm + 1.0, abs=0.1)
            assert min(sides["right"]) - x1 == pytest.approx(quiet_mm + 1.0, abs=0.1)
            assert y0 - max(sides["top"]) == pytest.approx(quiet_mm + 1.0, abs=0.1)
            assert any(c.y0 == c.y1 and c.y0 > y1 + quiet_mm for c in page.lines)


def _text_box(text: Text) -> tuple[float, float, float, float]:
    """A line of text's extent on the page: capitals 0.75 of its size over the baseline,
    descenders 0.25 under it."""
    width = text_width_mm(text.text, text.size_mm)
    return (text.x, text.y - 0.75 * text.size_mm, text.x + width, text.y + 0.25 * text.size_mm)


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("anchors", [False, True])
def test_captions_and_arrows_stay_out_of_the_quiet_zone_and_on_the_card(anchors: bool) -> None:
    # 15 mm markers have a 5 mm quiet zone; a caption set in it used to start 2.5 mm under
    # the marker. The caption now starts under the quiet zone and the cut's clearance.
    if anchors:
        table = [Anchor(i, 100.0 * i, 50.0, 40.0) for i in range(6)]
        pages = anchor_sheets(1000, 500, "DICT_4X4_250", table)[1:]
        quiet_mm = 40 / 6 * 2
    else:
        pages = marker_sheets(list(range(40)), 15.0, "DICT_4X4_250", labels=["Sgt Dupont"] * 40)
        quiet_mm = 5.0
    for page in pages:
        squares = [c for _, c in _squares(page)]
        zones = [(*(c.min(axis=0) - quiet_mm), *(c.max(axis=0) + quiet_mm)) for c in squares]
        marks = [_text_box(t) for t in page.texts if "print at 100 %" not in t.text]
        marks += [(*np.min(p.points, axis=0), *np.max(p.points, axis=0)) for p in page.polygons]
        # a caption each; an anchor's card also its arrow and the words beside it
        assert len(marks) == len(squares) * (3 if anchors else 1)
        assert not any(_overlap(mark, zone) for mark in marks for zone in zones)
        # every mark inside the cut lines of one card: between two upright cut lines and
        # two level ones, none crossing it
        for mark in marks:
            assert all(_clear_of(c, mark) for c in page.lines)


def test_an_anchor_s_arrow_points_to_its_top_edge() -> None:
    # DICT_4X4_250, 40 mm: modules of 6.667 mm, a quiet zone of 13.333 mm; the card's top:
    # an 8 mm strip for the arrow, then the quiet zone. First card at (12, 12): its marker's
    # top-left corner at (12 + 1 + 13.333, 12 + 8 + 13.333) = (26.333, 33.333), its middle
    # x = 46.333. The arrow: tip 1.5 mm under the cut line (y = 13.5), tail 1 mm over the
    # quiet zone (y = 12 + 7 = 19), on x = 46.333, pointing up the page.
    guide, cards = anchor_sheets(1200, 900, "DICT_4X4_250", _anchors_1200_x_900())
    assert len(cards.polygons) == 4
    arrow = cards.polygons[0]
    assert arrow.points[0] == pytest.approx((46.333, 13.5), abs=1e-3)  # the tip
    ys = [y for _, y in arrow.points]
    assert max(ys) == pytest.approx(19.0) and min(ys) == pytest.approx(13.5)
    assert any("top edge: to +y" == t.text for t in cards.texts)
    # The detector reads each marker the right way up: its top edge (corners 0 and 1,
    # OpenCV's top-left and top-right) faces the arrow, which stands over its middle.
    tips = sorted((p.points[0] for p in cards.polygons), key=lambda tip: (tip[1], tip[0]))
    squares = dict(_squares(cards))
    assert sorted(squares) == [0, 1, 2, 3]
    for marker_id, tip in zip([0, 1, 2, 3], tips, strict=True):
        corners = squares[marker_id]
        top_middle = (corners[0] + corners[1]) / 2
        assert top_middle[0] == pytest.approx(tip[0], abs=0.1)
        assert top_middle[1] - tip[1] == pytest.approx(33.333 - 13.5, abs=0.1)
        assert detect_markers(_raster(cards), "DICT_4X4_250").get(marker_id).heading_deg == (
            pytest.approx(90.0, abs=0.5)
        )
    captions = [t.text for t in cards.texts if "glue" in t.text]
    assert captions[0] == "0 DICT_4X4_250 40 mm glue its centre at x=35, y=35 mm"


def test_the_guide_draws_the_table_to_scale_with_its_origin_and_anchors() -> None:
    # 1200 x 900 mm in at most 170 x 110 mm (A4: 210 - 2 x 12 - 2 x 8 = 170 across): 1:10,
    # a plan of 120 x 90 mm. Across, it is centred in the 170 mm after the 8 mm left of it:
    # left = 12 + 8 + (170 - 120) / 2 = 45; top = 12 + 21 = 33, bottom = 33 + 90 = 123.
    # Table (x, y) -> page (45 + x / 10, 123 - y / 10): the origin at (45, 123), the
    # bottom-left corner of the plan; (1200, 900) at (165, 33), its top-right.
    guide = anchor_sheets(1200, 900, "DICT_4X4_250", _anchors_1200_x_900())[0]
    outline = [c for c in guide.lines if c.width_mm == 0.5]
    assert {(c.x0, c.y0, c.x1, c.y1) for c in outline} == {
        (45, 123, 165, 123),  # y = 0, along x
        (165, 123, 165, 33),
        (165, 33, 45, 33),
        (45, 33, 45, 123),  # x = 0, along y
    }
    origin = next(p for p in guide.polygons if len(p.points) == 16)
    assert np.mean(origin.points, axis=0) == pytest.approx((45.0, 123.0))
    # The axes' arrows start at the origin: +x to the right, under the plan; +y up, left.
    arrows = {p.points[0]: p for p in guide.polygons if len(p.points) == 7}
    assert (45 + 25, 123 + 3.5) in arrows and (45 - 3.5, 123 - 25) in arrows
    # Each anchor: 40 mm -> a 4 mm square; anchor 2 at (1165, 865) -> (161.5, 36.5), its
    # arrow from its centre out through its top edge: 2 + 3 = 5 mm up, tip (161.5, 31.5).
    assert (161.5, 31.5) == pytest.approx(next(t for t in arrows if t[1] < 32))
    square = [c for c in guide.lines if c.width_mm == 0.3]
    assert len(square) == 4 * 4
    assert (159.5, 34.5, 163.5, 34.5) in {(c.x0, c.y0, c.x1, c.y1) for c in square}
    words = [t.text for t in guide.texts]
    for expected in (
        "0: x 35, y 35",
        "2: x 1165, y 865",
        "width 1200 mm (x)",
        "depth 900 mm (y)",
        "origin (0, 0): the corner where x and y start",
    ):
        assert expected in words
    assert next(t for t in guide.texts if t.text == "depth 900 mm (y)").angle_deg == 90
    steps = " ".join(words)
    assert "to scale 1:10 (1 mm here is 10 mm on the table)" in steps
    assert "The corner at your left is (0, 0); x runs to your right, 0 to 1200 mm" in steps
    assert "its arrow pointing to +y, away from you" in steps
    assert "side above" not in steps


def test_a_turned_anchor_s_arrow_turns_on_the_plan_and_its_card_says_so() -> None:
    # rotation_deg 90: the top edge, +y when upright, turned counter-clockwise to -x. A
    # 600 x 400 table: 1:5 (600 / 170 = 3.5, 400 / 110 = 3.6 -> 5), a 120 x 80 mm plan at
    # left 12 + 8 + 25 = 45, bottom 33 + 80 = 113. The anchor at (300, 200) -> (105, 73);
    # 40 mm -> 8 mm, half 4; its arrow reaches 4 + 3 = 7 mm to the left: tip (98, 73).
    turned = Anchor(7, 300.0, 200.0, 40.0, rotation_deg=90.0)
    guide, card = anchor_sheets(600, 400, "DICT_4X4_250", [turned])
    tips = [p.points[0] for p in guide.polygons if len(p.points) == 7]
    assert (98.0, 73.0) in [pytest.approx(t) for t in tips]
    assert "top edge: to -x" in [t.text for t in card.texts]
    assert "the way its arrow on the plan points" in " ".join(t.text for t in guide.texts)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(("width_mm", "depth_mm"), [(1200, 900), (1830, 1220), (600, 1800)])
def test_the_guide_fits_its_page(paper: str, width_mm: float, depth_mm: float) -> None:
    anchors = [Anchor(**a) for a in corner_anchors(width_mm, depth_mm, 40, 35, edge_middles=True)]
    guide = anchor_sheets(width_mm, depth_mm, "DICT_4X4_250", anchors, find_paper(paper))[0]
    assert _inside_margins(guide)
    bar_top = guide.height_mm - PAGE_MARGIN_MM - 6.0 - 4.0  # the check bar's tallest ticks
    for text in guide.texts:
        x0, y0, x1, y1 = _text_box(text)
        if text.angle_deg == 90:  # read upwards: its length runs up the page from (x, y)
            x0, y0, x1, y1 = text.x - 0.75 * text.size_mm, text.y - (x1 - x0), text.x, text.y
        assert PAGE_MARGIN_MM <= x0 and x1 <= guide.width_mm - PAGE_MARGIN_MM, text
        assert PAGE_MARGIN_MM <= y0, text
        assert y1 <= bar_top or "print at 100 %" in text.text, text


def _operators(content: bytes) -> tuple[list[tuple[float, ...]], list[list[tuple[float, float]]]]:
    """The stroked lines (x0, y0, x1, y1, width, dash) and filled polygons of a page's PDF
    drawing operators, in points (origin at the bottom-left corner, y up)."""
    tokens = re.findall(rb"\((?:\\.|[^\\)])*\)|\[[^\]]*\]|[-\d.]+|/\w+|[A-Za-z*']+", content)
    stack: list[bytes] = []
    width, dash = 1.0, 0.0
    path: list[tuple[float, float]] = []
    lines: list[tuple[float, ...]] = []
    polygons: list[list[tuple[float, float]]] = []
    for token in tokens:
        if re.fullmatch(rb"[-\d.]+|\(.*\)|\[.*\]|/\w+", token, re.S):
            stack.append(token)
            continue
        if token == b"w":
            width = float(stack[-1])
        elif token == b"d":
            dash = float(stack[-2].strip(b"[]").split()[0]) if stack[-2] != b"[]" else 0.0
        elif token in (b"m", b"l"):
            path.append((float(stack[-2]), float(stack[-1])))
        elif token == b"S":
            lines.append((*path[0], *path[1], width, dash))
        elif token == b"f*":
            polygons.append(path)
        if token in (b"n", b"S", b"f*"):
            path = []
        stack = []
    return lines, polygons


def test_the_pdf_holds_the_guide_the_arrows_and_the_cut_lines(tmp_path: Path) -> None:
    path = tmp_path / "anchors.pdf"
    write_pages(anchor_sheets(1200, 900, "DICT_4X4_250", _anchors_1200_x_900()), path)
    guide, cards = _page_contents(path.read_bytes())
    # The guide: its words, the plan's x = 0 side from the origin (45, 123) mm up to
    # (45, 33) mm, 0.5 mm wide: in points, y up from the foot of the 297 mm page,
    # (45, 297 - 123 = 174) mm = (127.56, 493.23) pt to (127.56, 264 mm = 748.35 pt).
    for words in (b"Gluing the anchors", b"origin \\(0, 0\\)", b"width 1200 mm \\(x\\)"):
        assert words in guide
    lines, polygons = _operators(guide)
    assert (127.56, 748.35, 127.56, 493.23, 0.5 * PT) in [
        pytest.approx(line[:5], abs=0.01) for line in lines
    ]
    # The origin's dot, 16 points round (45, 174) mm = (127.56, 493.23) pt.
    dots = [p for p in polygons if len(p) == 16]
    assert len(dots) == 1 and np.mean(dots[0], axis=0) == pytest.approx((127.56, 493.23), abs=0.01)
    # The cards' page: the first card's top cut line, dashed 2 mm (5.67 pt), at y = 12 mm
    # (297 - 12 = 285 mm = 807.87 pt) from x = 12 mm (34.02 pt) to 12 + 68.667 mm =
    # 80.667 mm (228.66 pt); its arrow's tip at (46.333, 297 - 13.5 = 283.5) mm =
    # (131.34, 803.62) pt.
    lines, polygons = _operators(cards)
    assert (34.02, 807.87, 228.66, 807.87, 0.2 * PT, 2.0 * PT) in [
        pytest.approx(line, abs=0.01) for line in lines
    ]
    cut = [line for line in lines if line[5] > 0]
    assert len(cut) == 12  # 2 x 2 cards of 4 sides, 4 shared: 16 - 4
    tips = [p[0] for p in polygons if len(p) == 7]
    assert len(tips) == 4 and (131.34, 803.62) in [pytest.approx(t, abs=0.01) for t in tips]
