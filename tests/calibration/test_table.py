"""table.yaml and roster.yaml: the contract examples load; anchor corners follow the
orientation rule; a terrain piece turns with its marker; duplicates and typos are one line
naming the file and the field."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from arbitre.calibration.errors import CalibrationFileError
from arbitre.calibration.table import (
    Anchor,
    check_roster_against_table,
    load_roster,
    load_table,
    roster_from_mapping,
)
from tests.calibration.scenes import HEDGE, WOOD, terrain_roster

TABLE = """\
width_mm: 1200
depth_mm: 900
dictionary: DICT_4X4_250
anchors:
  - {id: 0, x_mm: 35, y_mm: 35, size_mm: 40}
  - {id: 1, x_mm: 1165, y_mm: 35, size_mm: 40}
  - {id: 2, x_mm: 1165, y_mm: 865, size_mm: 40}
  - {id: 3, x_mm: 35, y_mm: 865, size_mm: 40, rotation_deg: 180}
"""

ROSTER = """\
figures:
  - {marker: 17, name: "Sgt Dupont", side: blue, group: A, reference: true,
     marker_height_mm: 54, base: {shape: round, diameter_mm: 25}, type: TD}
  - {marker: 18, name: Grenadier, side: blue, group: 1, marker_height_mm: 32,
     attrs: {pa_bonus: 1}}
  - {marker: 40, name: Scout, side: red}
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_contract_table_loads(tmp_path: Path) -> None:
    table = load_table(_write(tmp_path, "table.yaml", TABLE))
    assert (table.width_mm, table.depth_mm, table.dictionary) == (1200, 900, "DICT_4X4_250")
    assert [a.id for a in table.anchors] == [0, 1, 2, 3]
    assert table.anchor(3) == Anchor(3, 35, 865, 40, 180)
    assert table.anchor(9) is None


def test_anchor_corners_follow_the_orientation_rule() -> None:
    # docs/formats.md: printed upright, the top edge points to +y; the first corner (OpenCV's
    # top-left) is at (x - s/2, y + s/2); seen from above, the others follow clockwise:
    # top-right (x + s/2, y + s/2), bottom-right (x + s/2, y - s/2), bottom-left (x - s/2, y - s/2).
    corners = Anchor(0, x_mm=100, y_mm=200, size_mm=40).corners_mm()
    assert corners.tolist() == [[80, 220, 0], [120, 220, 0], [120, 180, 0], [80, 180, 0]]
    # Clockwise seen from above (z up) = negative signed area (shoelace formula).
    x, y = corners[:, 0], corners[:, 1]
    assert 0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y) == -1600


def test_rotation_turns_an_anchor_counter_clockwise() -> None:
    # Turned 90 degrees CCW, the top edge points to -x: the top-left corner goes from
    # (x - s/2, y + s/2) to (x - s/2, y - s/2).
    corners = Anchor(0, x_mm=100, y_mm=200, size_mm=40, rotation_deg=90).corners_mm()
    assert np.allclose(corners[:, :2], [[80, 180], [80, 220], [120, 220], [120, 180]])
    half_turn = Anchor(0, x_mm=0, y_mm=0, size_mm=2, rotation_deg=180).corners_mm()
    assert np.allclose(half_turn[0, :2], [1, -1])


def test_the_contract_roster_loads(tmp_path: Path) -> None:
    roster = load_roster(_write(tmp_path, "roster.yaml", ROSTER))
    dupont = roster.by_marker(17)
    assert dupont is not None
    assert (dupont.name, dupont.id, dupont.marker_height_mm) == ("Sgt Dupont", "Sgt Dupont", 54)
    assert dupont.reference and dupont.base == {"shape": "round", "diameter_mm": 25}
    grenadier = roster.by_marker(18)
    assert grenadier is not None and grenadier.group == "1" and grenadier.attrs == {"pa_bonus": 1}
    scout = roster.by_marker(40)
    assert scout is not None and scout.marker_height_mm is None
    assert roster.by_marker(99) is None


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        (
            "table.yaml",
            TABLE.replace("{id: 2,", "{id: 1,"),
            r"^table.yaml: anchors\[2\].id: duplicate anchor id 1 \(also anchors\[1\]\)$",
        ),
        ("table.yaml", TABLE + "height_mm: 3\n", r"^table.yaml: height_mm: unknown field$"),
        (
            "table.yaml",
            TABLE.replace("size_mm: 40}\n  - {id: 1", "size: 40}\n  - {id: 1"),
            # the slip is named, not the field it left missing
            r"^table.yaml: anchors\[0\].size: unknown field \(did you mean 'size_mm'\?\)$",
        ),
        (
            "table.yaml",
            TABLE.replace("{id: 2,", "{id: 300,"),
            r"^table.yaml: anchors\[2\].id: marker 300 is not in DICT_4X4_250 \(ids 0-249\)$",
        ),
        (
            "table.yaml",
            TABLE.replace("width_mm: 1200", "width_mm: -1"),
            r"^table.yaml: width_mm: input should be greater than 0, got -1$",
        ),
        (
            "roster.yaml",
            ROSTER.replace("marker: 40", "marker: 17"),
            r"^roster.yaml: figures\[2\].marker: duplicate marker 17 \(also figures\[0\]\)$",
        ),
        (
            "roster.yaml",
            ROSTER.replace("marker_height_mm: 32", "marker_heigth_mm: 32"),
            r"^roster.yaml: figures\[1\].marker_heigth_mm: unknown field "
            r"\(did you mean 'marker_height_mm'\?\)$",
        ),
        (
            "roster.yaml",
            ROSTER.replace("name: Scout", "name: Grenadier"),
            r"^roster.yaml: figures\[2\].name: duplicate figure 'Grenadier' \(also figures\[1\]\)$",
        ),
        (
            "roster.yaml",
            ROSTER.replace("marker_height_mm: 54", "marker_height_mm: -54"),
            r"^roster.yaml: figures\[0\].marker_height_mm: input should be greater than or equal",
        ),
        ("roster.yaml", "- 1\n- 2\n", r"^roster.yaml: expected a mapping of fields, the file is"),
    ],
)
def test_a_bad_file_is_one_line_naming_file_and_field(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str, message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, name, text)
    load = load_table if name == "table.yaml" else load_roster
    with pytest.raises(CalibrationFileError, match=message) as raised:
        load(name)
    assert "\n" not in str(raised.value)


def test_a_figure_may_not_carry_an_anchor(tmp_path: Path) -> None:
    table = load_table(_write(tmp_path, "table.yaml", TABLE))
    roster = load_roster(_write(tmp_path, "roster.yaml", ROSTER.replace("marker: 40", "marker: 2")))
    with pytest.raises(CalibrationFileError, match=r"figures\[2\].marker: marker 2 is an anchor"):
        check_roster_against_table(roster, table)


def test_a_roster_error_found_later_names_the_file_given(tmp_path: Path) -> None:
    table = load_table(_write(tmp_path, "table.yaml", TABLE))
    path = _write(tmp_path, "r1.yaml", "figures:\n  - {marker: 0, name: a}\n")
    roster = load_roster(path)
    with pytest.raises(CalibrationFileError) as raised:
        check_roster_against_table(roster, table)
    assert str(raised.value) == f"{path}: figures[0].marker: marker 0 is an anchor of the table"


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        (
            "roster.yaml",
            "figures:\n  - {marker: 10, name: a, marker_height_mm: 1e300}\n",
            r"figures\[0\].marker_height_mm: input should be less than or equal to 1000",
        ),
        (
            "roster.yaml",
            "figures:\n  - {marker: 10, name: a, marker_height_mm: 1001.0}\n",
            r"figures\[0\].marker_height_mm: input should be less than or equal to 1000",
        ),
        (
            "roster.yaml",
            "figures:\n  - {marker: 10, name: a, base: {shape: round, diameter_mm: 2.0e+5}}\n",
            r"figures\[0\].base.round.diameter_mm: input should be less than or equal to 100000",
        ),
        (
            "roster.yaml",
            "terrain:\n  - {marker: 60, id: w, kind: wood, marker_height_mm: 5000.0,\n"
            "     polygon_mm: [[0, 0], [100, 0], [0, 100]]}\n",
            r"terrain\[0\].marker_height_mm: input should be less than or equal to 1000",
        ),
        (
            "roster.yaml",
            "terrain:\n  - {marker: 60, id: w, kind: wood,\n"
            "     polygon_mm: [[0, 0], [1.0e+300, 0], [0, 100]]}\n",
            r"terrain\[0\].polygon_mm\[1\]\[0\]: input should be less than or equal to 100000",
        ),
        (
            "table.yaml",
            TABLE.replace("width_mm: 1200", "width_mm: 1.0e+300"),
            r"width_mm: input should be less than or equal to 100000",
        ),
        (
            "table.yaml",
            TABLE.replace("x_mm: 1165, y_mm: 35", "x_mm: -1.0e+9, y_mm: 35"),
            r"anchors\[1\].x_mm: input should be greater than or equal to -100000",
        ),
        (
            "table.yaml",
            TABLE.replace("size_mm: 40}", "size_mm: 1.0e+6}", 1),
            r"anchors\[0\].size_mm: input should be less than or equal to 100000",
        ),
        (
            "table.yaml",
            TABLE.replace("rotation_deg: 180", "rotation_deg: 1.0e+300"),
            r"anchors\[3\].rotation_deg: input should be less than or equal to 360",
        ),
    ],
)
def test_lengths_out_of_any_table_s_range_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str, message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, name, text)
    load = load_table if name == "table.yaml" else load_roster
    with pytest.raises(CalibrationFileError, match=f"^{name}: {message}") as raised:
        load(name)
    assert "\n" not in str(raised.value)


def test_lengths_within_range_still_load(tmp_path: Path) -> None:
    roster = load_roster(
        _write(
            tmp_path, "roster.yaml", "figures:\n  - {marker: 10, name: a, marker_height_mm: 1000}\n"
        )
    )
    assert roster.figures[0].marker_height_mm == 1000
    assert roster.source == str(tmp_path / "roster.yaml")


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('figures:\n  - {marker: 10, name: "a\\nb"}\n', r"figures\[0\].name"),
        ('figures:\n  - {marker: 10, name: a, side: "blue\\u2028red"}\n', r"figures\[0\].side"),
        (
            'terrain:\n  - {marker: 60, id: "w\\x00", kind: wood,\n'
            "     polygon_mm: [[0, 0], [100, 0], [0, 100]]}\n",
            r"terrain\[0\].id",
        ),
    ],
)
def test_names_are_one_line_of_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, field: str
) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, "roster.yaml", text)
    with pytest.raises(
        CalibrationFileError, match=f"^roster.yaml: {field}: a name is one line of text"
    ) as raised:
        load_roster("roster.yaml")
    assert "\n" not in str(raised.value)


def test_a_roster_figure_called_like_a_group_it_is_not_in_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "roster.yaml"
    path.write_text(
        "figures:\n  - {marker: 10, name: y, group: z}\n  - {marker: 11, name: z}\n",
        encoding="utf-8",
    )
    with pytest.raises(CalibrationFileError) as refused:
        load_roster(path)
    assert str(refused.value) == (
        f"{path}: figures[1].name: 'z' names this figure and also group 'z', which it is "
        "not in: a question could not tell them apart; rename one"
    )


@pytest.mark.parametrize(
    ("outline", "words"),
    [
        ("polygon_mm: [[0, 0], [40, 40], [40, 0], [0, 40]]", "not a simple polygon (Self-inters"),
        ("polygon_mm: [[5, 5], [5, 5], [5, 5]]", "not a simple polygon (Too few points"),
        ("polygon_mm: [[0, 0], [20, 0], [40, 0]]", "not a simple polygon (Self-intersection"),
        ("line_mm: [[0, 0], [0, 0]]", "a line of no length"),
    ],
)
def test_a_roster_piece_s_outline_is_checked_where_it_is_read(
    tmp_path: Path, outline: str, words: str
) -> None:
    # A bowtie, three equal points, points on one line, a line of one point: each would
    # load, then refuse every question once the piece's marker is seen.
    kind = "obstacle" if outline.startswith("line") else "wood"
    path = tmp_path / "roster.yaml"
    path.write_text(
        f"terrain:\n  - {{marker: 60, id: piece, kind: {kind}, {outline}}}\n", encoding="utf-8"
    )
    with pytest.raises(CalibrationFileError) as refused:
        load_roster(path)
    field = outline.split(":")[0]
    assert str(refused.value).startswith(f"{path}: terrain[0].{field}: {words}")
    assert "\n" not in str(refused.value)


def test_a_piece_turns_with_its_marker() -> None:
    # Heading 30 degrees: the piece's +y points to (cos 30, sin 30), its +x to
    # (sin 30, -cos 30). The wood's corner (100, 60) from a marker at (600, 450) lands at
    # 600 + 100 sin 30 + 60 cos 30 = 701.96, 450 - 100 cos 30 + 60 sin 30 = 393.40.
    wood = terrain_roster().terrain[0].placed(600.0, 450.0, 30.0)
    assert wood["kind"] == "wood" and "line_mm" not in wood
    assert wood["polygon_mm"][2] == pytest.approx([701.9615, 393.3975], abs=1e-4)


@pytest.mark.parametrize(
    ("terrain", "message"),
    [
        ([{**WOOD, "line_mm": [[0, 0], [1, 0]]}], "exactly one of polygon_mm"),
        ([{**WOOD, "polygon_mm": [[0, 0], [1, 0]]}], "polygon_mm"),
        ([{**HEDGE, "kind": "wood"}], "only an obstacle is a line"),
        ([WOOD, {**HEDGE, "marker": 60}], "duplicate marker 60"),
        ([{**WOOD, "marker": 17}], "a terrain marker is never a figure"),
        ([{**WOOD, "kind": "lava"}], "kind"),
        ([{**WOOD, "polygon_mm": [[0, 0], [1, 0], [float("nan"), 1]]}], "polygon_mm"),
    ],
)
def test_a_bad_piece_is_one_line(terrain: list[dict[str, object]], message: str) -> None:
    with pytest.raises(CalibrationFileError) as caught:
        roster_from_mapping({"figures": [{"marker": 17, "name": "Dupont"}], "terrain": terrain})
    assert message in str(caught.value) and "\n" not in str(caught.value)
