"""``arbitre print``: sheets of markers and boards at their exact size, on the paper asked for."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbitre.api.cli import app
from tests.api.cli.invoke import board_yaml, quiet, refused, run


def _media_boxes(path: Path) -> list[tuple[float, float]]:
    boxes = re.findall(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", path.read_bytes())
    return [(float(w), float(h)) for w, h in boxes]


CHARUCO_7X5 = "type: charuco\nsquares_x: 7\nsquares_y: 5\nsquare_mm: 30\nmarker_mm: 22\n"
CHARUCO_7X5 += "dictionary: DICT_5X5_100\n"


def test_a_7x5_board_of_30_mm_squares_is_turned_on_a4(tmp_path: Path) -> None:
    out = tmp_path / "board.pdf"
    code, stdout, _ = run(
        "print", "board", str(board_yaml(tmp_path, CHARUCO_7X5)), "--out", str(out)
    )
    assert code == 0
    assert "A4 paper (210 x 297 mm), board turned to fit" in stdout
    # A4 upright, in points: 210 mm = 595.28 pt, 297 mm = 841.89 pt.
    assert _media_boxes(out) == [pytest.approx((595.28, 841.89), abs=0.01)]


def test_letter_paper(tmp_path: Path) -> None:
    board = board_yaml(tmp_path, CHARUCO_7X5)
    out = tmp_path / "board.pdf"
    code, stdout, _ = run("print", "board", str(board), "--out", str(out), "--paper", "letter")
    assert code == 0 and "US Letter paper (215.9 x 279.4 mm)" in stdout
    # 8.5 x 11 in at 72 pt to the inch.
    assert _media_boxes(out) == [pytest.approx((612.0, 792.0), abs=0.01)]

    sheet = tmp_path / "markers.pdf"
    code, stdout, stderr = run(
        "print", "markers", "--ids", "0-119", "--size-mm", "25", "--out", str(sheet),
        "--paper", "letter",
    )  # fmt: skip
    assert code == 0 and quiet(stdout, stderr)
    boxes = _media_boxes(sheet)
    assert len(boxes) > 1 and f"{len(boxes)} pages of US Letter paper" in stdout
    assert all(box == pytest.approx((612.0, 792.0), abs=0.01) for box in boxes)

    # the anchor sheet of `table init` too (docs/setup.md: --paper on every printed sheet)
    table = tmp_path / "table.yaml"
    code, _, stderr = run(
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
    board = board_yaml(tmp_path, "type: chessboard\nsquares_x: 10\nsquares_y: 7\nsquare_mm: 40\n")
    code, stdout, stderr = run("print", "board", str(board), "--out", str(tmp_path / "b.pdf"))
    assert code == 2 and stdout == ""
    assert stderr.count("\n") == 1 and "Traceback" not in stderr
    assert stderr.startswith("arbitre: a 10 x 7 board of 40 mm squares (400 x 280 mm)")
    assert stderr.rstrip().endswith("the largest square that fits is 24.5 mm")
    assert not (tmp_path / "b.pdf").exists()


@pytest.mark.parametrize("command", ["board", "markers"])
def test_an_unknown_paper_exits_2(tmp_path: Path, command: str) -> None:
    args = (
        ["board", str(board_yaml(tmp_path, CHARUCO_7X5))]
        if command == "board"
        else ["markers", "--ids", "1", "--size-mm", "20"]
    )
    code, _, stderr = run("print", *args, "--out", str(tmp_path / "x.pdf"), "--paper", "a3")
    assert code == 2
    assert stderr == "arbitre: unknown paper 'a3'; expected a4 or letter\n"


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


def test_print_keeps_an_existing_sheet_unless_forced(tmp_path: Path) -> None:
    sheet = tmp_path / "markers.svg"
    sheet.write_text("<svg>mine</svg>", encoding="utf-8")
    markers = ("print", "markers", "--ids", "1-3", "--size-mm", "20", "--out", str(sheet))
    assert run(*markers)[0::2] == (2, refused(sheet))
    assert sheet.read_text(encoding="utf-8") == "<svg>mine</svg>"
    code, _, stderr = run(*markers, "--force")
    assert code == 0, stderr
    assert "1 DICT_4X4_250 20 mm" in sheet.read_text(encoding="utf-8")

    board = tmp_path / "board.yaml"
    board.write_text("type: chessboard\nsquares_x: 5\nsquares_y: 4\nsquare_mm: 30\n")
    out = tmp_path / "board.pdf"
    out.write_bytes(b"%PDF- mine")
    assert run("print", "board", str(board), "--out", str(out))[0::2] == (2, refused(out))
    assert out.read_bytes() == b"%PDF- mine"
    assert run("print", "board", str(board), "--out", str(out), "--force")[0] == 0
    assert out.read_bytes() != b"%PDF- mine"
