"""``arbitre table init``: a new table.yaml and its anchor sheet, never over a user's file
without --force, never half written."""

from __future__ import annotations

import base64
import re
import zlib
from pathlib import Path

import pytest

from arbitre.calibration.table import load_table
from tests.api.cli.invoke import refused, run

HAND_CORRECTED = "# measured with a tape: anchor 1 is 2 mm off\nwidth_mm: 1200\n"


def test_table_init_keeps_a_hand_corrected_table_unless_forced(tmp_path: Path) -> None:
    table, sheet = tmp_path / "table.yaml", tmp_path / "table-anchors.pdf"
    size = ("--width-mm", "1200", "--depth-mm", "900", "--out", str(table))
    code, stdout, stderr = run("table", "init", *size)
    assert code == 0, stderr
    assert stdout.startswith(f"{table}: 1200 x 900 mm table")
    assert sheet.read_bytes().startswith(b"%PDF-")

    table.write_text(HAND_CORRECTED, encoding="utf-8")
    code, stdout, stderr = run("table", "init", *size)
    assert (code, stdout, stderr) == (2, "", refused(table))
    assert table.read_text(encoding="utf-8") == HAND_CORRECTED

    code, _, stderr = run("table", "init", *size, "--force")
    assert code == 0, stderr
    assert load_table(table).width_mm == 1200


def test_a_club_table_gets_anchors_at_the_middles_of_its_long_edges(tmp_path: Path) -> None:
    # 6 x 4 ft: 1830 x 1220 mm, 1.5 m long or more, so two more anchors by default, at
    # (1830 / 2, 35) and (1830 / 2, 1220 - 35); --anchors 4 keeps the corners alone.
    size = ("--width-mm", "1830", "--depth-mm", "1220")
    code, stdout, stderr = run("table", "init", *size, "--out", str(tmp_path / "club.yaml"))
    assert code == 0, stderr
    assert "4-5 at the middles of the long edges" in stdout
    anchors = load_table(tmp_path / "club.yaml").anchors
    assert [(a.id, a.x_mm, a.y_mm) for a in anchors][4:] == [(4, 915, 35), (5, 915, 1185)]
    code, _, stderr = run(
        "table", "init", *size, "--anchors", "4", "--out", str(tmp_path / "four.yaml")
    )
    assert code == 0, stderr
    assert len(load_table(tmp_path / "four.yaml").anchors) == 4
    code, _, stderr = run("table", "init", *size, "--anchors", "5", "--out", str(tmp_path / "x"))
    assert code == 2 and stderr == "arbitre: --anchors takes 4 or 6, not 5\n"
    assert not (tmp_path / "x").exists()


def test_table_init_checks_the_sheet_too_before_writing_anything(tmp_path: Path) -> None:
    table, sheet = tmp_path / "table.yaml", tmp_path / "anchors.svg"
    sheet.write_text("<svg/>", encoding="utf-8")
    code, _, stderr = run(
        "table", "init", "--width-mm", "600", "--depth-mm", "600",
        "--out", str(table), "--sheet", str(sheet),
    )  # fmt: skip
    assert (code, stderr) == (2, refused(sheet))
    assert not table.exists()  # nothing written: the table.yaml did not exist before
    assert sheet.read_text(encoding="utf-8") == "<svg/>"


@pytest.mark.parametrize(
    ("table", "sheet", "says"),
    [
        (
            "table.yaml",
            "anchors.png",
            "anchors.png: write the anchor sheet as a .pdf file (it has two pages)",
        ),
        ("table.pdf", "table.pdf", "table.pdf: the sheet and table.yaml must be two files"),
    ],
)
def test_table_init_with_a_sheet_it_cannot_write_writes_nothing(
    tmp_path: Path, table: str, sheet: str, says: str
) -> None:
    code, _, stderr = run(
        "table", "init", "--width-mm", "1200", "--depth-mm", "900",
        "--out", str(tmp_path / table), "--sheet", str(tmp_path / sheet),
    )  # fmt: skip
    assert code == 2 and says in stderr, stderr
    assert list(tmp_path.iterdir()) == []


def test_table_init_on_a_full_disk_leaves_no_sheet_without_its_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arbitre.calibration import setup

    def full(*_args: object, **_keywords: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(setup, "write_table", full)
    code, _, stderr = run(
        "table", "init", "--width-mm", "1200", "--depth-mm", "900",
        "--out", str(tmp_path / "table.yaml"),
    )  # fmt: skip
    assert code == 2 and "No space left on device" in stderr
    assert list(tmp_path.iterdir()) == []


def test_table_init_with_a_bad_dictionary_writes_nothing(tmp_path: Path) -> None:
    table = tmp_path / "table.yaml"
    code, _, stderr = run(
        "table", "init", "--width-mm", "1200", "--depth-mm", "900", "--out", str(table),
        "--dictionary", "DICT_9X9_1",
    )  # fmt: skip
    assert code == 2 and "unknown ArUco dictionary 'DICT_9X9_1'" in stderr
    assert stderr.count("\n") == 1 and "Traceback" not in stderr
    assert list(tmp_path.iterdir()) == []


def test_an_anchor_over_the_table_edge_says_which_inset_fits(tmp_path: Path) -> None:
    # 100 mm anchors with the default 35 mm inset would hang 15 mm over the edge: the
    # message names the option and the smallest inset that fits (half the anchor).
    code, stdout, stderr = run(
        "table", "init", "--width-mm", "1200", "--depth-mm", "900", "--anchor-size-mm", "100",
        "--out", str(tmp_path / "table.yaml"),
    )  # fmt: skip
    assert code == 2 and stdout == ""
    assert stderr == (
        "arbitre: inset 35 mm would put a 100 mm anchor over the table's edge"
        " (--inset-mm 50 or more)\n"
    )
    assert not list(tmp_path.iterdir())


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
    code, _, stderr = run(
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
    code, stdout, stderr = run(
        "table", "init", "--width-mm", "1200", "--depth-mm", "900",
        "--out", str(table), "--sheet", str(sheet),
    )  # fmt: skip
    assert (code, stdout) == (2, "")
    assert stderr == f"arbitre: {sheet}: write the anchor sheet as a .pdf file (it has two pages)\n"
    assert list(tmp_path.iterdir()) == []
