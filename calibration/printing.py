"""Printable sheets: figure and anchor markers, calibration boards, exact to the millimetre.

A sheet is laid out once as vector shapes in page millimetres (origin at the
page's top-left corner, y down), then written as SVG or PDF. Every marker is
drawn module by module from OpenCV's own bit pattern, so its printed side is
exactly the size asked for; each sheet carries a 100 mm check bar and the words
"print at 100 %" so a user can check the printer did not scale it.

Each marker is printed on its own card: the black square, its white quiet zone
(`quiet_zone_mm`), its caption under the quiet zone, and dashed cut lines round it all,
`CUT_CLEARANCE_MM` outside the quiet zone. An anchor's card also has an arrow over the
marker pointing to its top edge, and the anchor sheet opens with a set-up guide: a plan of
the table to scale with its origin corner and each anchor at its place (`anchor_sheets`).

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
from arbitre.calibration.table import Anchor
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
CHECK_BAR_ROOM_MM = 14.0
"""Kept free over the bottom margin for the check bar, its ticks and its words."""

QUIET_ZONE_MODULES = 2
"""White kept round a marker's black square, in modules (and at least `QUIET_ZONE_MIN_MM`).
The detector reads the quiet zone over the first module out from the border
(`arbitre.vision.edges.read_cells`) and measures each side 0.8 module either way; the second
module keeps it white under a card cut or glued a little askew."""
QUIET_ZONE_MIN_MM = 3.0
CUT_CLEARANCE_MM = 1.0
"""From the quiet zone's outer edge to a cut line's middle: the line's own half width and a
cut that wanders off the line, outside the quiet zone still."""
CUT_LINE_MM = 0.2
"""Width of a cut line."""
CUT_DASH_MM = (2.0, 1.5)
"""A cut line's dash and gap."""
CAPTION_MM = LABEL_MM + 1.5
"""Height of the strip under a marker's quiet zone that holds its caption."""
ARROW_STRIP_MM = 8.0
"""Height of the strip over an anchor's quiet zone that holds its arrow and words."""


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
    """A line of text whose baseline starts at (x, y), page mm, written along ``angle_deg``
    (counter-clockwise on the page as one reads it; 90 reads upwards)."""

    x: float
    y: float
    text: str
    size_mm: float = LABEL_MM
    angle_deg: float = 0.0


@dataclass(frozen=True, slots=True)
class Line:
    """A black line from (x0, y0) to (x1, y1), page mm, ``width_mm`` wide; dashed when
    ``dash_mm`` gives (dash, gap)."""

    x0: float
    y0: float
    x1: float
    y1: float
    width_mm: float = CUT_LINE_MM
    dash_mm: tuple[float, float] | None = None


@dataclass(frozen=True, slots=True)
class Polygon:
    """A filled black polygon, its corners in order, page mm."""

    points: tuple[tuple[float, float], ...]


@dataclass(slots=True)
class Page:
    """One page of vector shapes."""

    width_mm: float = A4_MM[0]
    height_mm: float = A4_MM[1]
    rects: list[Rect] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    polygons: list[Polygon] = field(default_factory=list)


def text_width_mm(text: str, size_mm: float) -> float:
    """How long ``text`` is set in Helvetica ``size_mm`` high, mm.

    >>> round(text_width_mm("origin (0, 0)", 3.0), 2)
    15.17
    """
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return float(stringWidth(text, "Helvetica", size_mm))


def fitting_size_mm(text: str, room_mm: float, largest_mm: float = LABEL_MM) -> float:
    """The text height, at most ``largest_mm``, at which ``text`` is ``room_mm`` long or less."""
    return min(largest_mm, room_mm / max(text_width_mm(text, 1.0), 1e-9))


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


def quiet_zone_mm(size_mm: float, dictionary: cv2.aruco.Dictionary) -> float:
    """The white kept round a marker of side ``size_mm``: `QUIET_ZONE_MODULES` modules, at
    least `QUIET_ZONE_MIN_MM`.

    >>> quiet_zone_mm(15.0, aruco_dictionary("DICT_4X4_250"))  # 6 modules of 2.5 mm
    5.0
    >>> quiet_zone_mm(6.0, aruco_dictionary("DICT_4X4_250"))
    3.0
    """
    module_mm = size_mm / (dictionary.markerSize + 2)
    return max(QUIET_ZONE_MODULES * module_mm, QUIET_ZONE_MIN_MM)


@dataclass(frozen=True, slots=True)
class Card:
    """Where a marker of side ``size_mm`` goes on its card, mm from the card's top-left corner.

    From the top: the arrow strip (anchors only) or `CUT_CLEARANCE_MM`, the quiet zone, the
    marker, the quiet zone, `CUT_CLEARANCE_MM`, the caption strip; across: the clearance,
    the quiet zone, the marker, the quiet zone, the clearance.
    """

    size_mm: float
    quiet_mm: float
    arrow: bool

    @property
    def pad_mm(self) -> float:
        """From a cut line at the side to the black square."""
        return self.quiet_mm + CUT_CLEARANCE_MM

    @property
    def top_mm(self) -> float:
        """From the top cut line to the black square."""
        return (ARROW_STRIP_MM if self.arrow else CUT_CLEARANCE_MM) + self.quiet_mm

    @property
    def width_mm(self) -> float:
        """From the left cut line to the right one."""
        return self.size_mm + 2 * self.pad_mm

    @property
    def height_mm(self) -> float:
        """From the top cut line to the bottom one."""
        return self.top_mm + self.size_mm + self.pad_mm + CAPTION_MM


def draw_cut_lines(page: Page, x_mm: float, y_mm: float, width_mm: float, height_mm: float) -> None:
    """Dashed cut lines round a card whose top-left corner is (x_mm, y_mm); a side another
    card has drawn already (cards side by side share it) is drawn once."""
    x1, y1 = x_mm + width_mm, y_mm + height_mm
    drawn = {(round(c.x0, 6), round(c.y0, 6), round(c.x1, 6), round(c.y1, 6)) for c in page.lines}
    for side in (
        (x_mm, y_mm, x1, y_mm),
        (x1, y_mm, x1, y1),
        (x_mm, y1, x1, y1),
        (x_mm, y_mm, x_mm, y1),
    ):
        if tuple(round(v, 6) for v in side) not in drawn:
            page.lines.append(Line(*side, width_mm=CUT_LINE_MM, dash_mm=CUT_DASH_MM))


def arrow(
    tip: tuple[float, float], tail: tuple[float, float], head_mm: float, shaft_mm: float
) -> Polygon:
    """A filled arrow from ``tail`` to ``tip`` (page mm): a head ``head_mm`` long and as wide,
    on a shaft ``shaft_mm`` wide.

    >>> arrow((0.0, 0.0), (0.0, 10.0), 4.0, 1.0).points  # pointing up the page (y down)
    ((0.0, 0.0), (2.0, 4.0), (0.5, 4.0), (0.5, 10.0), (-0.5, 10.0), (-0.5, 4.0), (-2.0, 4.0))
    """
    length = math.hypot(tip[0] - tail[0], tip[1] - tail[1])
    ux, uy = (tip[0] - tail[0]) / length, (tip[1] - tail[1]) / length  # along, tail to tip
    nx, ny = -uy, ux  # across

    def at(along: float, across: float) -> tuple[float, float]:
        """The point ``along`` back from the tip and ``across`` to the side, tidied."""
        x = tip[0] - ux * along + nx * across
        y = tip[1] - uy * along + ny * across
        return (round(x, 9) + 0.0, round(y, 9) + 0.0)

    head, half = min(head_mm, length), shaft_mm / 2
    return Polygon(
        (
            at(0.0, 0.0),
            at(head, head_mm / 2),
            at(head, half),
            at(length, half),
            at(length, -half),
            at(head, -half),
            at(head, -head_mm / 2),
        )
    )


def marker_sheets(
    ids: Sequence[int],
    size_mm: float,
    dictionary_name: str,
    *,
    labels: Sequence[str] = (),
    tops: Sequence[str] = (),
    paper: Paper = A4,
) -> list[Page]:
    """Pages of markers of side ``size_mm``, each on its card (`Card`) with its id and
    dictionary under it and dashed cut lines round it, outside its quiet zone.

    ``labels`` adds words to each caption; with ``tops``, each card has an arrow over its
    marker pointing to the marker's top edge, and these words beside it. As many pages of
    ``paper`` as needed, each with its check bar.
    """
    if not math.isfinite(size_mm) or size_mm <= 0:
        raise CalibrationError(f"marker size must be a positive number of mm, got {size_mm!r}")
    dictionary = aruco_dictionary(dictionary_name)
    modules = [marker_modules(dictionary, marker_id) for marker_id in ids]
    card = Card(size_mm, quiet_zone_mm(size_mm, dictionary), arrow=bool(tops))
    usable_w = paper.width_mm - 2 * PAGE_MARGIN_MM
    usable_h = paper.height_mm - 2 * PAGE_MARGIN_MM - CHECK_BAR_ROOM_MM
    if card.width_mm > usable_w or card.height_mm > usable_h:
        raise CalibrationError(f"a {size_mm:g} mm marker does not fit on {paper}")
    columns = int(usable_w // card.width_mm)
    rows = int(usable_h // card.height_mm)
    pages: list[Page] = []
    for index, (marker_id, grid) in enumerate(zip(ids, modules, strict=True)):
        slot = index % (columns * rows)
        if slot == 0:
            pages.append(Page(paper.width_mm, paper.height_mm))
            draw_check_bar(pages[-1], PAGE_MARGIN_MM, paper.height_mm - PAGE_MARGIN_MM - 6.0)
        page = pages[-1]
        row, column = divmod(slot, columns)
        card_x = PAGE_MARGIN_MM + column * card.width_mm
        card_y = PAGE_MARGIN_MM + row * card.height_mm
        x, y = card_x + card.pad_mm, card_y + card.top_mm
        draw_marker(page, grid, x, y, size_mm)
        draw_cut_lines(page, card_x, card_y, card.width_mm, card.height_mm)
        label = labels[index] if index < len(labels) else ""
        caption = f"{marker_id} {dictionary_name} {size_mm:g} mm" + (f" {label}" if label else "")
        caption_mm = fitting_size_mm(caption, card.width_mm - 1.0)
        # The caption's strip starts under the quiet zone and the clearance; its capitals
        # (0.72 of the size) start 0.5 mm below that, its descenders stay in the strip.
        baseline = y + size_mm + card.pad_mm + 0.5 + 0.75 * caption_mm
        page.texts.append(Text(card_x + 0.5, baseline, caption, caption_mm))
        if tops:
            draw_top_arrow(page, card_x, card_y, card.width_mm, tops[index % len(tops)])
    return pages


def draw_top_arrow(page: Page, card_x: float, card_y: float, card_w: float, words: str) -> None:
    """The arrow of an anchor's card, in the strip over its quiet zone: it points up the page,
    to the marker's top edge, over the marker's middle; ``words`` to its right."""
    middle = card_x + card_w / 2
    # Tip 1.5 mm under the cut line, tail 1 mm over the quiet zone: 5.5 mm long.
    page.polygons.append(
        arrow((middle, card_y + 1.5), (middle, card_y + ARROW_STRIP_MM - 1.0), 3.0, 0.8)
    )
    room = card_x + card_w - 0.5 - (middle + 2.5)
    size = fitting_size_mm(words, room)
    page.texts.append(Text(middle + 2.5, card_y + 5.0, words, size))


PLAN_MAX_MM = (172.0, 110.0)
"""The most room the set-up guide's plan of the table takes, across and down the page."""
PLAN_LEFT_MM = 8.0
"""Room left of the plan for the +y arrow; as much again on the right, for the depth."""


def plan_scale(width_mm: float, depth_mm: float, room_mm: tuple[float, float]) -> float:
    """The smallest round ratio (1, 2, 2.5 or 5 times a power of ten, at least 1) at which
    a ``width_mm x depth_mm`` table fits ``room_mm`` (across, down).

    >>> plan_scale(1200, 900, (172, 110))  # 1:10 -> 120 x 90 mm
    10.0
    >>> plan_scale(1830, 1220, (172, 110))  # 1:10 -> 183 mm across, too wide; 1:20 fits
    20.0
    """
    needed = max(width_mm / room_mm[0], depth_mm / room_mm[1], 1.0)
    power = 10.0 ** math.floor(math.log10(needed))
    for step in (1.0, 2.0, 2.5, 5.0, 10.0):
        if step * power >= needed - 1e-9:
            return step * power
    raise AssertionError("unreachable: 10 x the power of ten is at least what is needed")


def _facing(rotation_deg: float) -> str:
    """The way an anchor's top edge points on the table, turned ``rotation_deg``.

    >>> [_facing(r) for r in (0, 90, -90, 180, 30)]
    ['+y', '-x', '+x', '-y', '120 deg from +x']
    """
    angle = (90.0 + rotation_deg) % 360.0
    named = {0.0: "+x", 90.0: "+y", 180.0: "-x", 270.0: "-y"}
    return named.get(round(angle, 9), f"{angle:g} deg from +x")


def wrapped(text: str, room_mm: float, size_mm: float) -> list[str]:
    """``text`` cut into lines no longer than ``room_mm`` at ``size_mm``, between words."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width_mm(f"{lines[-1]} {word}", size_mm) <= room_mm:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def anchor_guide(
    width_mm: float,
    depth_mm: float,
    dictionary_name: str,
    anchors: Sequence[Anchor],
    paper: Paper = A4,
) -> Page:
    """The set-up guide: the table seen from above, to a round scale (`plan_scale`), +x to
    the right and +y up the page, as the web page's map shows it: the origin corner
    (0, 0) marked at the bottom left, the width and depth written, each anchor at its place
    with its id, position and an arrow to its top edge; then how to cut and glue them.
    """
    for name, value in (("width_mm", width_mm), ("depth_mm", depth_mm)):
        if not math.isfinite(value) or value <= 0:
            raise CalibrationError(f"{name} must be a positive number of mm, got {value!r}")
    if not anchors:
        raise CalibrationError("an anchor sheet needs at least one anchor")
    page = Page(paper.width_mm, paper.height_mm)
    room = (
        min(PLAN_MAX_MM[0], paper.width_mm - 2 * PAGE_MARGIN_MM - 2 * PLAN_LEFT_MM),
        PLAN_MAX_MM[1],
    )
    scale = plan_scale(width_mm, depth_mm, room)
    plan_w, plan_d = width_mm / scale, depth_mm / scale
    left = PAGE_MARGIN_MM + PLAN_LEFT_MM + (room[0] - plan_w) / 2
    top = PAGE_MARGIN_MM + 21.0
    bottom = top + plan_d

    def on_page(x_mm: float, y_mm: float) -> tuple[float, float]:
        """A table point (mm, y up) on the plan (page mm, y down)."""
        return left + x_mm / scale, bottom - y_mm / scale

    sizes = sorted({a.size_mm for a in anchors})
    page.texts.append(Text(PAGE_MARGIN_MM, PAGE_MARGIN_MM + 5.0, "Gluing the anchors", 6.0))
    about = (
        f"The {width_mm:g} x {depth_mm:g} mm table seen from above, to scale 1:{scale:g}"
        f" (1 mm here is {scale:g} mm on the table); {len(anchors)} anchors of "
        f"{' or '.join(f'{s:g}' for s in sizes)} mm, {dictionary_name}."
    )
    size = fitting_size_mm(about, paper.width_mm - 2 * PAGE_MARGIN_MM)
    page.texts.append(Text(PAGE_MARGIN_MM, PAGE_MARGIN_MM + 11.0, about, size))
    # The table's outline, its origin corner and its axes.
    corners = [
        on_page(0, 0),
        on_page(width_mm, 0),
        on_page(width_mm, depth_mm),
        on_page(0, depth_mm),
    ]
    for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1], strict=True):
        page.lines.append(Line(x0, y0, x1, y1, width_mm=0.5))
    origin_x, origin_y = corners[0]
    page.polygons.append(
        Polygon(
            tuple(
                (
                    origin_x + 1.6 * math.cos(k * math.pi / 8),
                    origin_y + 1.6 * math.sin(k * math.pi / 8),
                )
                for k in range(16)
            )
        )
    )
    axis = min(25.0, plan_w * 0.4, plan_d * 0.6)
    page.polygons.append(
        arrow((origin_x + axis, origin_y + 3.5), (origin_x, origin_y + 3.5), 2.5, 0.4)
    )
    page.texts.append(Text(origin_x + axis + 1.0, origin_y + 4.5, "+x", 3.0))
    page.polygons.append(
        arrow((origin_x - 3.5, origin_y - axis), (origin_x - 3.5, origin_y), 2.5, 0.4)
    )
    page.texts.append(Text(origin_x - 5.0, origin_y - axis - 1.5, "+y", 3.0))
    page.texts.append(
        Text(origin_x - 3.5, origin_y + 9.0, "origin (0, 0): the corner where x and y start", 3.0)
    )
    across = f"width {width_mm:g} mm (x)"
    page.texts.append(
        Text(left + (plan_w - text_width_mm(across, 3.0)) / 2, top - 5.5, across, 3.0)
    )
    down = f"depth {depth_mm:g} mm (y)"
    page.texts.append(
        Text(left + plan_w + 4.5, bottom - (plan_d - text_width_mm(down, 3.0)) / 2, down, 3.0, 90.0)
    )
    # Each anchor: its square to scale (2 mm at least), an arrow from its centre out
    # through its top edge, and its id and place towards the table's middle.
    for anchor in anchors:
        x, y = on_page(anchor.x_mm, anchor.y_mm)
        half = max(anchor.size_mm / scale, 2.0) / 2
        turn = math.radians(anchor.rotation_deg)
        square = [(-half, half), (half, half), (half, -half), (-half, -half)]  # table axes
        points = [
            (
                x + u * math.cos(turn) - v * math.sin(turn),
                y - (u * math.sin(turn) + v * math.cos(turn)),
            )
            for u, v in square
        ]
        for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True):
            page.lines.append(Line(x0, y0, x1, y1, width_mm=0.3))
        up = (-math.sin(turn), -math.cos(turn))  # the top edge's way, page axes
        reach = half + 3.0
        page.polygons.append(arrow((x + up[0] * reach, y + up[1] * reach), (x, y), 1.8, 0.35))
        words = f"{anchor.id}: x {anchor.x_mm:g}, y {anchor.y_mm:g}"
        size = 2.6
        long = text_width_mm(words, size)
        far = anchor.y_mm > depth_mm / 2  # near the top of the plan: the words under it
        if abs(anchor.x_mm - width_mm / 2) < width_mm / 6:  # a middle: the words centred,
            text_x = x - long / 2  # clear of its arrow
            text_y = y + half + 3.0 if far else y - half - 4.5
        else:  # a corner: the words beside it, towards the middle
            text_x = x - half - 1.5 - long if anchor.x_mm > width_mm / 2 else x + half + 1.5
            text_y = y + half + 3.0 if far else y - half - 1.5
        page.texts.append(Text(text_x, text_y, words, size))
    # How to set them: one numbered step after another, under the plan.
    facing = {_facing(a.rotation_deg) for a in anchors}
    way = (
        "to +y, away from you (as on the plan)"
        if facing == {"+y"}
        else "the way its arrow on the plan points"
    )
    steps = [
        "Print at 100 % (no 'fit to page'): the bar at the foot of every page must measure 100 mm.",
        "Cut each anchor out along its dashed lines. Keep the white margin round the black"
        " square whole: the camera needs it.",
        "Find the origin corner: stand at one of the table's two edges along its width (x)."
        f" The corner at your left is (0, 0); x runs to your right, 0 to {width_mm:g} mm, and"
        f" y away from you, 0 to {depth_mm:g} mm.",
        "Glue each anchor flat, its centre at its x, y (mm from the origin corner, written on"
        f" its card), its arrow pointing {way}. The arrow marks the marker's top edge; the"
        " printed number is under the marker, on the bottom edge's side.",
        "Measure where each centre really is and correct x_mm, y_mm in table.yaml.",
    ]
    step_mm = 3.2
    line_y = bottom + 18.0
    text_room = paper.width_mm - 2 * PAGE_MARGIN_MM - 6.0
    for number, step in enumerate(steps, start=1):
        page.texts.append(Text(PAGE_MARGIN_MM, line_y, f"{number}.", step_mm))
        for line in wrapped(step, text_room, step_mm):
            page.texts.append(Text(PAGE_MARGIN_MM + 6.0, line_y, line, step_mm))
            line_y += step_mm * 1.45
        line_y += step_mm * 0.6
    draw_check_bar(page, PAGE_MARGIN_MM, paper.height_mm - PAGE_MARGIN_MM - 6.0)
    return page


def anchor_sheets(
    width_mm: float,
    depth_mm: float,
    dictionary_name: str,
    anchors: Sequence[Anchor],
    paper: Paper = A4,
) -> list[Page]:
    """The anchor sheet: the set-up guide (`anchor_guide`), then the anchors, each on its
    card with an arrow to its top edge and where to glue its centre."""
    pages = [anchor_guide(width_mm, depth_mm, dictionary_name, anchors, paper)]
    for size_mm in sorted({a.size_mm for a in anchors}):
        group = [a for a in anchors if a.size_mm == size_mm]
        pages += marker_sheets(
            [a.id for a in group],
            size_mm,
            dictionary_name,
            labels=[f"glue its centre at x={a.x_mm:g}, y={a.y_mm:g} mm" for a in group],
            tops=[f"top edge: to {_facing(a.rotation_deg)}" for a in group],
            paper=paper,
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
    parts.extend(
        '<polygon points="' + " ".join(f"{x:.4f},{y:.4f}" for x, y in p.points) + '"/>'
        for p in page.polygons
    )
    parts.append("</g>")
    parts.extend(
        f'<line x1="{c.x0:.4f}" y1="{c.y0:.4f}" x2="{c.x1:.4f}" y2="{c.y1:.4f}" '
        f'stroke="black" stroke-width="{c.width_mm:g}"'
        + (f' stroke-dasharray="{c.dash_mm[0]:g} {c.dash_mm[1]:g}"' if c.dash_mm else "")
        + "/>"
        for c in page.lines
    )
    parts.extend(
        f'<text x="{t.x:.3f}" y="{t.y:.3f}" font-family="Helvetica, Arial, sans-serif" '
        f'font-size="{t.size_mm:.3f}"'
        + (f' transform="rotate({-t.angle_deg:g} {t.x:.3f} {t.y:.3f})"' if t.angle_deg else "")
        + f">{escape(t.text)}</text>"
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
        for p in page.polygons:
            outline = pdf.beginPath()
            (x, y), *rest = p.points
            outline.moveTo(x * mm, (page.height_mm - y) * mm)
            for x, y in rest:
                outline.lineTo(x * mm, (page.height_mm - y) * mm)
            outline.close()
            pdf.drawPath(outline, stroke=0, fill=1)
        for c in page.lines:
            pdf.setLineWidth(c.width_mm * mm)
            pdf.setDash([c.dash_mm[0] * mm, c.dash_mm[1] * mm] if c.dash_mm else [], 0)
            pdf.line(
                c.x0 * mm, (page.height_mm - c.y0) * mm, c.x1 * mm, (page.height_mm - c.y1) * mm
            )
        for t in page.texts:
            pdf.setFont("Helvetica", t.size_mm * mm)
            if t.angle_deg:
                pdf.saveState()
                pdf.translate(t.x * mm, (page.height_mm - t.y) * mm)
                pdf.rotate(t.angle_deg)
                pdf.drawString(0, 0, t.text)
                pdf.restoreState()
            else:
                pdf.drawString(t.x * mm, (page.height_mm - t.y) * mm, t.text)
        pdf.showPage()
        steps.advance()
    if pdf is None:
        raise CalibrationError("nothing to print")
    pdf.save()
    _write(path, buffer.getvalue(), _check_pdf, overwrite)
