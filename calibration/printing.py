"""Printable sheets: figure and anchor markers, calibration boards, exact to the millimetre.

A sheet is laid out once as vector shapes in page millimetres (origin at the
page's top-left corner, y down), then written as SVG or PDF. Every marker is
drawn module by module from OpenCV's own bit pattern, so its printed side is
exactly the size asked for; each sheet carries a 100 mm check bar and the words
"print at 100 %" so a user can check the printer did not scale it.

Pages are exactly the paper's size, A4 or US Letter, always upright (portrait), and nothing
is drawn within `PAGE_MARGIN_MM` of an edge: wide enough for the unprintable border of any
office printer, inkjets' wider bottom edge included. A board too wide for the upright paper
is turned a quarter turn on it, as a whole (a rotation, never a mirror), rather than written
on a landscape page: a landscape page prints right only if the print dialog turns it, while
a turned board prints right on any printer. A board that fits neither way is refused with
the largest square size that would fit.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from xml.etree import ElementTree
from xml.sax.saxutils import escape

import cv2
import numpy as np

from arbitre.calibration.board import Board, aruco_dictionary
from arbitre.calibration.errors import CalibrationError
from arbitre.calibration.progress import Progress, Steps
from arbitre.files import FileWriteError, write_atomically

A4_MM = (210.0, 297.0)
LETTER_MM = (215.9, 279.4)
PAGE_MARGIN_MM = 12.0
"""Nothing is drawn closer than this to a page's edge."""
CHECK_BAR_MM = 100.0
LABEL_MM = 3.0  # height of the label text
BOARD_NOTES_MM = 24.0
"""Under a board: its caption (baseline 6 mm below it) and the check bar with its words
(bar 18 mm below, words' baseline 23 mm below, descenders included)."""


@dataclass(frozen=True, slots=True)
class Paper:
    """A sheet of paper, upright; mm."""

    name: str
    width_mm: float
    height_mm: float

    def __str__(self) -> str:
        return f"{self.name} paper ({self.width_mm:g} x {self.height_mm:g} mm)"


PAPERS = {"a4": Paper("A4", *A4_MM), "letter": Paper("US Letter", *LETTER_MM)}
A4 = PAPERS["a4"]


def find_paper(name: str) -> Paper:
    """The paper called ``name`` (``a4``, ``letter``, any case).

    >>> find_paper("Letter").width_mm
    215.9
    >>> find_paper("a3")
    Traceback (most recent call last):
    ...
    arbitre.calibration.errors.CalibrationError: unknown paper 'a3'; expected a4 or letter
    """
    try:
        return PAPERS[name.strip().lower()]
    except KeyError:
        raise CalibrationError(f"unknown paper {name!r}; expected {' or '.join(PAPERS)}") from None


@dataclass(frozen=True, slots=True)
class Rect:
    """A filled black rectangle, page mm (top-left corner, width, height)."""

    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True, slots=True)
class Text:
    """A line of text whose baseline starts at (x, y), page mm."""

    x: float
    y: float
    text: str
    size_mm: float = LABEL_MM


@dataclass(slots=True)
class Page:
    """One page of vector shapes."""

    width_mm: float = A4_MM[0]
    height_mm: float = A4_MM[1]
    rects: list[Rect] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)


def marker_modules(dictionary: cv2.aruco.Dictionary, marker_id: int) -> np.ndarray:
    """The marker's modules, black border included: bool (n, n), True for black."""
    if not 0 <= marker_id < len(dictionary.bytesList):
        raise CalibrationError(
            f"marker id {marker_id} is not in the dictionary "
            f"(ids 0-{len(dictionary.bytesList) - 1})"
        )
    n = dictionary.markerSize + 2
    image = cv2.aruco.generateImageMarker(dictionary, marker_id, n, borderBits=1)
    return np.asarray(image < 128)


def draw_marker(page: Page, modules: np.ndarray, x_mm: float, y_mm: float, side_mm: float) -> None:
    """Draw a marker whose black square has its top-left corner at (x_mm, y_mm).

    Adjacent black modules of a row are merged into one rectangle, so no seam shows.
    """
    n = modules.shape[0]
    module = side_mm / n
    for row in range(n):
        col = 0
        while col < n:
            if not modules[row, col]:
                col += 1
                continue
            start = col
            while col < n and modules[row, col]:
                col += 1
            page.rects.append(
                Rect(x_mm + start * module, y_mm + row * module, (col - start) * module, module)
            )


def draw_check_bar(page: Page, x_mm: float, y_mm: float) -> None:
    """A 100 mm bar with 10 mm ticks and the words "print at 100 %"."""
    page.rects.append(Rect(x_mm, y_mm, CHECK_BAR_MM, 1.0))
    for tick in range(11):
        height = 4.0 if tick % 5 == 0 else 2.5
        page.rects.append(Rect(x_mm + tick * 10.0 - 0.15, y_mm - height, 0.3, height))
    page.texts.append(
        Text(x_mm, y_mm + 5.0, "print at 100 % (no 'fit to page'): this bar must measure 100 mm")
    )


MAX_IDS = 1000
"""The most marker ids a sheet may hold: all of the largest dictionary (DICT_7X7_1000)."""


def parse_ids(text: str) -> list[int]:
    """Marker ids from text like ``10-49`` or ``0,1,5-7``: each once, at most `MAX_IDS`.

    >>> parse_ids("0,1,5-7")
    [0, 1, 5, 6, 7]
    """
    ids: list[int] = []
    for part in text.split(","):
        found = re.fullmatch(r"\s*([0-9]{1,9})\s*(?:-\s*([0-9]{1,9})\s*)?", part, re.ASCII)
        if found is None or (found[2] is not None and int(found[2]) < int(found[1])):
            raise CalibrationError(f"ids must look like '10-49' or '0,1,5-7', got {text!r}")
        first = int(found[1])
        last = int(found[2]) if found[2] is not None else first
        if len(ids) + last - first + 1 > MAX_IDS:
            raise CalibrationError(
                f"at most {MAX_IDS:,} marker ids on a sheet, got more in {text!r}"
            )
        ids.extend(range(first, last + 1))
    seen: set[int] = set()
    for marker in ids:
        if marker in seen:
            raise CalibrationError(f"marker id {marker} is given twice in {text!r}: one each")
        seen.add(marker)
    return ids


def marker_sheets(
    ids: Sequence[int],
    size_mm: float,
    dictionary_name: str,
    *,
    labels: Sequence[str] = (),
    paper: Paper = A4,
) -> list[Page]:
    """Pages of markers of side ``size_mm``, each with its id and dictionary beside it.

    Markers are spaced so every one keeps a white quiet zone of at least two modules; as
    many pages of ``paper`` as needed, each with its check bar.
    """
    if not math.isfinite(size_mm) or size_mm <= 0:
        raise CalibrationError(f"marker size must be a positive number of mm, got {size_mm!r}")
    dictionary = aruco_dictionary(dictionary_name)
    modules = [marker_modules(dictionary, marker_id) for marker_id in ids]
    module_mm = size_mm / (dictionary.markerSize + 2)
    gap = max(2 * module_mm, 3.0)
    cell_w = size_mm + 2 * gap
    cell_h = size_mm + 2 * gap + LABEL_MM + 1.5
    usable_w = paper.width_mm - 2 * PAGE_MARGIN_MM
    usable_h = paper.height_mm - 2 * PAGE_MARGIN_MM - 14.0  # room for the check bar
    columns = max(1, int(usable_w // cell_w))
    rows = max(1, int(usable_h // cell_h))
    if cell_w > usable_w or cell_h > usable_h:
        raise CalibrationError(f"a {size_mm:g} mm marker does not fit on {paper}")
    pages: list[Page] = []
    for index, (marker_id, grid) in enumerate(zip(ids, modules, strict=True)):
        slot = index % (columns * rows)
        if slot == 0:
            pages.append(Page(paper.width_mm, paper.height_mm))
            draw_check_bar(pages[-1], PAGE_MARGIN_MM, paper.height_mm - PAGE_MARGIN_MM - 6.0)
        row, column = divmod(slot, columns)
        x = PAGE_MARGIN_MM + column * cell_w + gap
        y = PAGE_MARGIN_MM + row * cell_h + gap
        draw_marker(pages[-1], grid, x, y, size_mm)
        label = labels[index] if index < len(labels) else ""
        caption = f"{marker_id} {dictionary_name} {size_mm:g} mm" + (f" {label}" if label else "")
        pages[-1].texts.append(
            Text(
                x,
                y + size_mm + gap / 2 + LABEL_MM * 0.8,
                caption,
                min(LABEL_MM, max(1.6, cell_w / max(len(caption), 1) * 1.6)),
            )
        )
    return pages


Orientation = Literal["upright", "turned"]


def board_orientation(board: Board, paper: Paper = A4) -> Orientation:
    """How the board goes on the paper: ``"upright"`` if it fits so, else ``"turned"``.

    The board must fit within the margins with its caption and check bar under it
    (`BOARD_NOTES_MM`). A board that fits neither way is a `CalibrationError` giving the
    largest square size, rounded down to 0.5 mm, that fits on this paper.

    >>> from arbitre.calibration.board import Board
    >>> board_orientation(Board("chessboard", squares_x=7, squares_y=5, square_mm=30.0))
    'turned'
    """
    width_mm = board.squares_x * board.square_mm
    height_mm = board.squares_y * board.square_mm
    if _fits(width_mm, height_mm, paper):
        return "upright"
    if _fits(height_mm, width_mm, paper):
        return "turned"
    room_w = paper.width_mm - 2 * PAGE_MARGIN_MM
    room_h = paper.height_mm - 2 * PAGE_MARGIN_MM - BOARD_NOTES_MM
    upright = min(room_w / board.squares_x, room_h / board.squares_y)
    turned = min(room_w / board.squares_y, room_h / board.squares_x)
    largest = math.floor(max(upright, turned) * 2 + 1e-9) / 2  # >= 0.5 mm: at most 200 squares
    raise CalibrationError(
        f"a {board.squares_x} x {board.squares_y} board of {board.square_mm:g} mm squares "
        f"({width_mm:g} x {height_mm:g} mm) does not fit on {paper} either way round "
        f"({PAGE_MARGIN_MM:g} mm margins, room for the check bar); the largest square "
        f"that fits is {largest:g} mm"
    )


def _fits(width_mm: float, height_mm: float, paper: Paper) -> bool:
    """Whether a board this size, upright, fits on the paper with its notes under it."""
    return (
        width_mm <= paper.width_mm - 2 * PAGE_MARGIN_MM + 1e-9
        and height_mm + BOARD_NOTES_MM <= paper.height_mm - 2 * PAGE_MARGIN_MM + 1e-9
    )


def board_sheet(board: Board, paper: Paper = A4) -> Page:
    """One page with the calibration board at its exact size, plus the check bar.

    ChArUco markers come from OpenCV's own board layout (object points and ids), the
    black squares are the squares without a marker; a chessboard is squares only. The
    board is centred across the page, turned a quarter turn if it fits only so (see
    `board_orientation`).
    """
    turned = board_orientation(board, paper) == "turned"
    width_mm = board.squares_x * board.square_mm
    height_mm = board.squares_y * board.square_mm
    # The board's footprint on the page, and where it starts.
    across, down = (height_mm, width_mm) if turned else (width_mm, height_mm)
    page = Page(paper.width_mm, paper.height_mm)
    x0, y0 = (page.width_mm - across) / 2, PAGE_MARGIN_MM

    def place(r: Rect) -> Rect:
        """A rectangle in board mm (x right, y down) on the page. Turned, the board's top
        edge lies along the page's right side: board (x, y) -> page (H - y, x)."""
        if turned:
            return Rect(x0 + height_mm - r.y - r.h, y0 + r.x, r.h, r.w)
        return Rect(x0 + r.x, y0 + r.y, r.w, r.h)

    shapes = Page(width_mm, height_mm)  # the board alone, in board mm
    with_marker: set[tuple[int, int]] = set()
    if board.type == "charuco":
        layout = board.charuco_board()
        dictionary = layout.getDictionary()
        ids = np.asarray(layout.getIds()).ravel()
        for marker_id, points in zip(ids, layout.getObjPoints(), strict=True):
            corners = np.asarray(points, dtype=np.float64).reshape(4, 3)
            top_left = corners[0]
            centre = corners[:, :2].mean(axis=0)
            with_marker.add((int(centre[0] // board.square_mm), int(centre[1] // board.square_mm)))
            side = float(np.linalg.norm(corners[1] - top_left))
            draw_marker(
                shapes,
                marker_modules(dictionary, int(marker_id)),
                float(top_left[0]),
                float(top_left[1]),
                side,
            )
        black = [
            (i, j)
            for j in range(board.squares_y)
            for i in range(board.squares_x)
            if (i, j) not in with_marker
        ]
    else:
        black = [
            (i, j)
            for j in range(board.squares_y)
            for i in range(board.squares_x)
            if (i + j) % 2 == 0
        ]
    shapes.rects.extend(
        Rect(i * board.square_mm, j * board.square_mm, board.square_mm, board.square_mm)
        for i, j in black
    )
    page.rects.extend(place(r) for r in shapes.rects)
    caption = (
        f"{board.type} {board.squares_x}x{board.squares_y}, squares {board.square_mm:g} mm"
        + (
            f", markers {board.marker_mm:g} mm {board.dictionary}"
            if board.type == "charuco"
            else ""
        )
        + (", turned to fit the paper" if turned else "")
    )
    notes_x = max(PAGE_MARGIN_MM, min(x0, page.width_mm - PAGE_MARGIN_MM - CHECK_BAR_MM))
    page.texts.append(Text(notes_x, y0 + down + 6.0, caption))
    draw_check_bar(page, notes_x, y0 + down + 18.0)
    return page


def write_pages(
    pages: Sequence[Page],
    path: str | Path,
    *,
    progress: Progress | None = None,
    overwrite: bool = True,
) -> None:
    """Write pages as PDF (several pages) or SVG (one page) by the file's suffix.

    The whole document is made first, checked, then written through a temporary file
    beside ``path`` (`arbitre.files`): a sheet is never half-written. ``overwrite=False``
    refuses an existing file (`FileExistsError`). ``progress`` is told
    ``(pages made, pages)`` after each page.
    """
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix == ".svg":
        if len(pages) != 1:
            raise CalibrationError(
                f"{target}: {len(pages)} pages do not fit one SVG file; write a .pdf"
            )
        _write(target, svg(pages[0]).encode("utf-8"), _check_svg, overwrite)
        Steps(1, progress).advance()
    elif suffix == ".pdf":
        write_pdf(pages, target, progress=progress, overwrite=overwrite)
    else:
        raise CalibrationError(
            f"{target}: write a .pdf or .svg file, not {suffix or 'no suffix'!r}"
        )


def _write(path: Path, data: bytes, check: Callable[[bytes], None], overwrite: bool) -> None:
    def validate(content: bytes) -> None:
        try:
            check(content)
        except ValueError as error:
            raise CalibrationError(f"{path}: not written: {error}") from None

    try:
        write_atomically(path, data, validate=validate, overwrite=overwrite)
    except FileWriteError as error:
        raise CalibrationError(str(error)) from None


def _check_svg(data: bytes) -> None:
    """ValueError unless ``data`` is a well-formed SVG document."""
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as error:
        raise ValueError(f"the SVG made is not well-formed XML ({error})") from None
    if root.tag != "{http://www.w3.org/2000/svg}svg":
        raise ValueError(f"the SVG made has root {root.tag!r}")


def _check_pdf(data: bytes) -> None:
    """ValueError unless ``data`` looks like a whole PDF file (header and end marker)."""
    if not data.startswith(b"%PDF-") or b"%%EOF" not in data[-1024:]:
        raise ValueError("the PDF made is incomplete")


def svg(page: Page) -> str:
    """The page as an SVG document whose user unit is the millimetre."""
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{page.width_mm}mm" '
        f'height="{page.height_mm}mm" viewBox="0 0 {page.width_mm} {page.height_mm}">',
        f'<rect x="0" y="0" width="{page.width_mm}" height="{page.height_mm}" fill="white"/>',
        '<g fill="black" shape-rendering="crispEdges">',
    ]
    parts.extend(
        f'<rect x="{r.x:.4f}" y="{r.y:.4f}" width="{r.w:.4f}" height="{r.h:.4f}"/>'
        for r in page.rects
    )
    parts.append("</g>")
    parts.extend(
        f'<text x="{t.x:.3f}" y="{t.y:.3f}" font-family="Helvetica, Arial, sans-serif" '
        f'font-size="{t.size_mm:.3f}">{escape(t.text)}</text>'
        for t in page.texts
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_pdf(
    pages: Sequence[Page],
    path: Path,
    *,
    progress: Progress | None = None,
    overwrite: bool = True,
) -> None:
    """Write the pages as a vector PDF (reportlab), one PDF page per page, each its size.

    The PDF is made in memory, then written as `write_pages` writes.
    """
    from reportlab.lib.units import mm
    from reportlab.pdfgen import canvas

    steps = Steps(len(pages), progress)
    buffer = io.BytesIO()
    pdf: canvas.Canvas | None = None
    for page in pages:
        size = (page.width_mm * mm, page.height_mm * mm)
        if pdf is None:
            pdf = canvas.Canvas(buffer, pagesize=size)
            pdf.setTitle("arbitre markers")
        pdf.setPageSize(size)
        pdf.setFillColorRGB(0, 0, 0)
        for r in page.rects:  # PDF's origin is the bottom-left corner, y up
            pdf.rect(
                r.x * mm, (page.height_mm - r.y - r.h) * mm, r.w * mm, r.h * mm, stroke=0, fill=1
            )
        for t in page.texts:
            pdf.setFont("Helvetica", t.size_mm * mm)
            pdf.drawString(t.x * mm, (page.height_mm - t.y) * mm, t.text)
        pdf.showPage()
        steps.advance()
    if pdf is None:
        raise CalibrationError("nothing to print")
    pdf.save()
    _write(path, buffer.getvalue(), _check_pdf, overwrite)
