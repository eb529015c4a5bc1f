"""``arbitre print``, ``calibrate camera`` and ``bench``: paper sizes, the inner-corner
mistake, and no progress bar when nobody watches a terminal."""

from __future__ import annotations

import base64
import io
import json
import re
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from arbitre.api.cli import app
from arbitre.api.cli.common import progress_bar
from arbitre.vision.simulate import Camera, look_at, render_plane

runner = CliRunner()
BAR_MARKS = ("━", "╸", "\x1b[")  # rich's bar and any terminal escape


def _run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _quiet(*texts: str) -> bool:
    return not any(mark in text for text in texts for mark in BAR_MARKS)


def _media_boxes(path: Path) -> list[tuple[float, float]]:
    boxes = re.findall(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", path.read_bytes())
    return [(float(w), float(h)) for w, h in boxes]


def _board_yaml(folder: Path, text: str) -> Path:
    path = folder / "board.yaml"
    path.write_text(text, encoding="utf-8")
    return path


CHARUCO_7X5 = "type: charuco\nsquares_x: 7\nsquares_y: 5\nsquare_mm: 30\nmarker_mm: 22\n"
CHARUCO_7X5 += "dictionary: DICT_5X5_100\n"


def test_a_7x5_board_of_30_mm_squares_is_turned_on_a4(tmp_path: Path) -> None:
    out = tmp_path / "board.pdf"
    code, stdout, _ = _run(
        "print", "board", str(_board_yaml(tmp_path, CHARUCO_7X5)), "--out", str(out)
    )
    assert code == 0
    assert "A4 paper (210 x 297 mm), board turned to fit" in stdout
    # A4 upright, in points: 210 mm = 595.28 pt, 297 mm = 841.89 pt.
    assert _media_boxes(out) == [pytest.approx((595.28, 841.89), abs=0.01)]


def test_letter_paper(tmp_path: Path) -> None:
    board = _board_yaml(tmp_path, CHARUCO_7X5)
    out = tmp_path / "board.pdf"
    code, stdout, _ = _run("print", "board", str(board), "--out", str(out), "--paper", "letter")
    assert code == 0 and "US Letter paper (215.9 x 279.4 mm)" in stdout
    # 8.5 x 11 in at 72 pt to the inch.
    assert _media_boxes(out) == [pytest.approx((612.0, 792.0), abs=0.01)]

    sheet = tmp_path / "markers.pdf"
    code, stdout, stderr = _run(
        "print", "markers", "--ids", "0-119", "--size-mm", "25", "--out", str(sheet),
        "--paper", "letter",
    )  # fmt: skip
    assert code == 0 and _quiet(stdout, stderr)
    boxes = _media_boxes(sheet)
    assert len(boxes) > 1 and f"{len(boxes)} pages of US Letter paper" in stdout
    assert all(box == pytest.approx((612.0, 792.0), abs=0.01) for box in boxes)

    # the anchor sheet of `table init` too (docs/setup.md: --paper on every printed sheet)
    table = tmp_path / "table.yaml"
    code, _, stderr = _run(
        "table", "init", "--width-mm", "1200", "--depth-mm", "900", "--out", str(table),
        "--paper", "letter",
    )  # fmt: skip
    assert code == 0, stderr
    # the set-up guide, then the four 40 mm anchors' cards on one page
    assert (
        _media_boxes(tmp_path / "table-anchors.pdf")
        == [pytest.approx((612.0, 792.0), abs=0.01)] * 2
    )


def test_a_board_too_big_for_the_paper_exits_2_with_the_largest_square(tmp_path: Path) -> None:
    # 10 x 7 squares of 40 mm on A4 with 12 mm margins and 24 mm for the caption and check
    # bar: turned, min((210 - 24) / 7, (297 - 24 - 24) / 10) = min(26.57, 24.9) -> 24.5 mm.
    board = _board_yaml(tmp_path, "type: chessboard\nsquares_x: 10\nsquares_y: 7\nsquare_mm: 40\n")
    code, stdout, stderr = _run("print", "board", str(board), "--out", str(tmp_path / "b.pdf"))
    assert code == 2 and stdout == ""
    assert stderr.count("\n") == 1 and "Traceback" not in stderr
    assert stderr.startswith("arbitre: a 10 x 7 board of 40 mm squares (400 x 280 mm)")
    assert stderr.rstrip().endswith("the largest square that fits is 24.5 mm")
    assert not (tmp_path / "b.pdf").exists()


@pytest.mark.parametrize("command", ["board", "markers"])
def test_an_unknown_paper_exits_2(tmp_path: Path, command: str) -> None:
    args = (
        ["board", str(_board_yaml(tmp_path, CHARUCO_7X5))]
        if command == "board"
        else ["markers", "--ids", "1", "--size-mm", "20"]
    )
    code, _, stderr = _run("print", *args, "--out", str(tmp_path / "x.pdf"), "--paper", "a3")
    assert code == 2
    assert stderr == "arbitre: unknown paper 'a3'; expected a4 or letter\n"


def _chessboard_photos(folder: Path, views: int = 4) -> list[Path]:
    """A chessboard of 10 x 7 squares of 30 mm (9 x 6 inner corners) photographed by a
    640 x 480 camera from a few angles."""
    px_per_mm = 4
    flat = np.full((7 * 30 * px_per_mm, 10 * 30 * px_per_mm), 255, np.uint8)
    side = 30 * px_per_mm
    for j in range(7):
        for i in range(10):
            if (i + j) % 2 == 0:
                flat[j * side : (j + 1) * side, i * side : (i + 1) * side] = 0
    flat = cv2.copyMakeBorder(flat, 80, 80, 80, 80, cv2.BORDER_CONSTANT, value=255)
    matrix = np.array([[600.0, 0.0, 319.5], [0.0, 600.0, 239.5], [0.0, 0.0, 1.0]])
    paths = []
    for index, (dx, dy) in enumerate([(-120, -60), (110, -50), (-90, 80), (100, 90)][:views]):
        # The board's centre, in the frame of the bordered sheet (20 mm border).
        target = np.array([170.0, 125.0, 0.0])
        rvec, tvec = look_at(target + [dx, dy, -480.0], target, up=(0.1 * index, -1.0, 0.0))
        image = render_plane(Camera(matrix, np.zeros(5), (640, 480), rvec, tvec), flat, 0.25)
        path = folder / f"shot{index}.png"
        cv2.imwrite(str(path), image)
        paths.append(path)
    return paths


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return _chessboard_photos(tmp_path_factory.mktemp("shots"))


def test_a_chessboard_counted_by_its_inner_corners_exits_2_naming_the_squares(
    tmp_path: Path, photos: list[Path]
) -> None:
    board = _board_yaml(tmp_path, "type: chessboard\nsquares_x: 9\nsquares_y: 6\nsquare_mm: 30\n")
    code, stdout, stderr = _run(
        "calibrate", "camera", *map(str, photos), "--board", str(board),
        "--out", str(tmp_path / "camera.yaml"),
    )  # fmt: skip
    assert code == 2 and stdout == ""
    assert stderr == (
        "arbitre: the board file counts squares, not inner corners: these images show a "
        "chessboard of 10 x 7 squares (9 x 6 inner corners); write squares_x: 10, "
        "squares_y: 7\n"
    )


@pytest.mark.parametrize("as_json", [False, True])
def test_calibration_shows_no_progress_bar_off_a_terminal(
    tmp_path: Path, photos: list[Path], as_json: bool
) -> None:
    board = _board_yaml(tmp_path, "type: chessboard\nsquares_x: 10\nsquares_y: 7\nsquare_mm: 30\n")
    code, stdout, stderr = _run(
        "calibrate", "camera", *map(str, photos), "--board", str(board),
        "--out", str(tmp_path / "camera.yaml"), *(["--json"] if as_json else []),
    )  # fmt: skip
    assert code == 0, stderr
    assert _quiet(stdout, stderr)
    if as_json:
        assert len(json.loads(stdout)["images_used"]) == 4
    else:
        assert stdout.startswith(f"{tmp_path / 'camera.yaml'}: RMS ")


@pytest.mark.parametrize("as_json", [False, True])
def test_bench_shows_no_progress_bar_off_a_terminal(as_json: bool) -> None:
    args = ["bench", "rules", "--figures", "20", "--terrain", "4", "--repeat", "1"]
    code, stdout, stderr = _run(*args, *(["--json"] if as_json else []))
    assert code == 0, stderr
    assert _quiet(stdout, stderr)
    if as_json:
        assert {row["question"] for row in json.loads(stdout)["questions"]} >= {"fire", "move"}


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_is_drawn_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    with progress_bar("working") as progress:
        assert progress is not None
        progress(1, 2)
        progress(2, 2)
    assert "━" in terminal.getvalue() and "2/2" in terminal.getvalue()

    with progress_bar("working", quiet=True) as progress:  # --json
        assert progress is None
    monkeypatch.setattr("sys.stderr", io.StringIO())  # not a terminal
    with progress_bar("working") as progress:
        assert progress is None


def test_markers_are_labelled_with_the_roster_s_figures_and_terrain(tmp_path: Path) -> None:
    roster = tmp_path / "roster.yaml"
    roster.write_text(
        "figures:\n  - {marker: 10, name: Dupont}\n"
        "terrain:\n  - {marker: 60, id: wood1, kind: wood,"
        " polygon_mm: [[-50, -50], [50, -50], [50, 50]]}\n"
    )
    out = tmp_path / "markers.svg"
    result = CliRunner().invoke(
        app,
        [
            "print",
            "markers",
            "--ids",
            "10,60,61",
            "--size-mm",
            "20",
            "--out",
            str(out),
            "--roster",
            str(roster),
        ],
    )
    assert result.exit_code == 0, result.output
    svg = out.read_text()
    assert "10 DICT_4X4_250 20 mm Dupont" in svg
    assert "60 DICT_4X4_250 20 mm terrain wood1 (wood)" in svg
    assert "61 DICT_4X4_250 20 mm<" in svg  # in no roster: no label


def _pdf_words(path: Path) -> list[bytes]:
    """The text drawn on each page of a PDF reportlab wrote (ASCII85 + Flate streams)."""
    pages = []
    for match in re.finditer(
        rb"/Filter \[ /ASCII85Decode /FlateDecode \][^>]*>>\s*stream\r?\n(.*?)endstream",
        path.read_bytes(),
        re.S,
    ):
        content = zlib.decompress(base64.a85decode(match.group(1).strip().removesuffix(b"~>")))
        pages.append(b"\n".join(re.findall(rb"\(((?:\\.|[^\\)])*)\) Tj", content)))
    return pages


def test_table_init_s_sheet_opens_with_the_set_up_guide(tmp_path: Path) -> None:
    # 1830 x 1220 mm (6 x 4 ft): six anchors; 1:20 on the plan (1:10 would be 183 mm
    # across, wider than the 170 mm it may take). Page 1 the guide, page 2 the six
    # 40 mm cards (2 across x 3 down, each 68.7 x 80.2 mm), each with its arrow's words.
    table = tmp_path / "table.yaml"
    code, _, stderr = _run(
        "table", "init", "--width-mm", "1830", "--depth-mm", "1220", "--out", str(table)
    )  # fmt: skip
    assert code == 0, stderr
    guide, cards = _pdf_words(tmp_path / "table-anchors.pdf")
    assert b"Gluing the anchors" in guide and b"to scale 1:20" in guide
    assert b"origin \\(0, 0\\): the corner where x and y start" in guide
    assert b"5: x 915, y 1185" in guide
    assert cards.count(b"top edge: to +y") == 6
    assert b"5 DICT_4X4_250 40 mm glue its centre at x=915, y=1185 mm" in cards


def test_table_init_s_sheet_is_a_pdf_an_svg_holds_one_page(tmp_path: Path) -> None:
    # The guide and the cards are two pages: an SVG file, one page, is refused before
    # either file is written.
    table, sheet = tmp_path / "table.yaml", tmp_path / "anchors.svg"
    code, stdout, stderr = _run(
        "table", "init", "--width-mm", "1200", "--depth-mm", "900",
        "--out", str(table), "--sheet", str(sheet),
    )  # fmt: skip
    assert (code, stdout) == (2, "")
    assert stderr == f"arbitre: {sheet}: write the anchor sheet as a .pdf file (it has two pages)\n"
    assert list(tmp_path.iterdir()) == []
