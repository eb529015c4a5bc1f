"""Printable sheets: figure and anchor markers, calibration boards, exact to the millimetre.

A sheet is laid out once as vector shapes in page millimetres (origin at the
page's top-left corner, y down), then written as SVG or PDF. Every marker is
drawn module by module from OpenCV's own bit pattern, so its printed side is
exactly the size asked for; each sheet carries a 100 mm check bar and the words
"print at 100 %" so a user can check the printer did not scale it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

import cv2
import numpy as np

from arbitre.calibration.board import Board, aruco_dictionary
from arbitre.calibration.errors import CalibrationError

A4_MM = (210.0, 297.0)
PAGE_MARGIN_MM = 12.0
CHECK_BAR_MM = 100.0
LABEL_MM = 3.0  # height of the label text


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


def parse_ids(text: str) -> list[int]:
    """Marker ids from text like ``10-49`` or ``0,1,5-7``.

    >>> parse_ids("0,1,5-7")
    [0, 1, 5, 6, 7]
    """
    ids: list[int] = []
    try:
        for part in text.split(","):
            low, dash, high = part.strip().partition("-")
            first, last = int(low), int(high) if dash else int(low)
            if last < first:
                raise ValueError
            ids.extend(range(first, last + 1))
    except ValueError:
        raise CalibrationError(f"ids must look like '10-49' or '0,1,5-7', got {text!r}") from None
    return ids


def marker_sheets(
    ids: Sequence[int], size_mm: float, dictionary_name: str, *, labels: Sequence[str] = ()
) -> list[Page]:
    """Pages of markers of side ``size_mm``, each with its id and dictionary beside it.

    Markers are spaced so every one keeps a white quiet zone of at least two modules.
    """
    if not math.isfinite(size_mm) or size_mm <= 0:
        raise CalibrationError(f"marker size must be a positive number of mm, got {size_mm!r}")
    dictionary = aruco_dictionary(dictionary_name)
    modules = [marker_modules(dictionary, marker_id) for marker_id in ids]
    module_mm = size_mm / (dictionary.markerSize + 2)
    gap = max(2 * module_mm, 3.0)
    cell_w = size_mm + 2 * gap
    cell_h = size_mm + 2 * gap + LABEL_MM + 1.5
    usable_w = A4_MM[0] - 2 * PAGE_MARGIN_MM
    usable_h = A4_MM[1] - 2 * PAGE_MARGIN_MM - 14.0  # room for the check bar
    columns = max(1, int(usable_w // cell_w))
    rows = max(1, int(usable_h // cell_h))
    if cell_w > usable_w or cell_h > usable_h:
        raise CalibrationError(f"a {size_mm:g} mm marker does not fit on an A4 page")
    pages: list[Page] = []
    for index, (marker_id, grid) in enumerate(zip(ids, modules, strict=True)):
        slot = index % (columns * rows)
        if slot == 0:
            pages.append(Page())
            draw_check_bar(pages[-1], PAGE_MARGIN_MM, A4_MM[1] - PAGE_MARGIN_MM - 6.0)
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


def board_sheet(board: Board) -> Page:
    """One page with the calibration board at its exact size, plus the check bar.

    ChArUco markers come from OpenCV's own board layout (object points and ids), the
    black squares are the squares without a marker; a chessboard is squares only.
    The page grows past A4 when the board needs it (print on larger paper, at 100 %).
    """
    width_mm = board.squares_x * board.square_mm
    height_mm = board.squares_y * board.square_mm
    page = Page(
        max(A4_MM[0], width_mm + 2 * PAGE_MARGIN_MM),
        max(A4_MM[1], height_mm + 2 * PAGE_MARGIN_MM + 30.0),
    )
    x0, y0 = (page.width_mm - width_mm) / 2, PAGE_MARGIN_MM
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
                page,
                marker_modules(dictionary, int(marker_id)),
                x0 + float(top_left[0]),
                y0 + float(top_left[1]),
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
    page.rects.extend(
        Rect(x0 + i * board.square_mm, y0 + j * board.square_mm, board.square_mm, board.square_mm)
        for i, j in black
    )
    caption = (
        f"{board.type} {board.squares_x}x{board.squares_y}, squares {board.square_mm:g} mm"
        + (
            f", markers {board.marker_mm:g} mm {board.dictionary}"
            if board.type == "charuco"
            else ""
        )
    )
    page.texts.append(Text(x0, y0 + height_mm + 6.0, caption))
    draw_check_bar(page, x0, y0 + height_mm + 18.0)
    return page


def write_pages(pages: Sequence[Page], path: str | Path) -> None:
    """Write pages as PDF (several pages) or SVG (one page) by the file's suffix."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix == ".svg":
        if len(pages) != 1:
            raise CalibrationError(
                f"{target}: {len(pages)} pages do not fit one SVG file; write a .pdf"
            )
        target.write_text(svg(pages[0]), encoding="utf-8")
    elif suffix == ".pdf":
        write_pdf(pages, target)
    else:
        raise CalibrationError(
            f"{target}: write a .pdf or .svg file, not {suffix or 'no suffix'!r}"
        )


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


def write_pdf(pages: Iterable[Page], path: Path) -> None:
    """Write the pages as a vector PDF (reportlab), one PDF page per page."""
    from reportlab.lib.units import mm
    from reportlab.pdfgen import canvas

    pdf: canvas.Canvas | None = None
    for page in pages:
        if pdf is None:
            pdf = canvas.Canvas(str(path), pagesize=(page.width_mm * mm, page.height_mm * mm))
            pdf.setTitle("arbitre markers")
        pdf.setFillColorRGB(0, 0, 0)
        for r in page.rects:  # PDF's origin is the bottom-left corner, y up
            pdf.rect(
                r.x * mm, (page.height_mm - r.y - r.h) * mm, r.w * mm, r.h * mm, stroke=0, fill=1
            )
        for t in page.texts:
            pdf.setFont("Helvetica", t.size_mm * mm)
            pdf.drawString(t.x * mm, (page.height_mm - t.y) * mm, t.text)
        pdf.showPage()
    if pdf is None:
        raise CalibrationError("nothing to print")
    pdf.save()
