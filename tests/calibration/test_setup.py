"""table.yaml from `arbitre table init`: anchors at the corners, read back before it is
written, never half-written, never over a hand-corrected file unasked."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbitre.calibration.errors import CalibrationFileError
from arbitre.calibration.setup import corner_anchors, write_table
from arbitre.calibration.table import load_table


def test_the_table_written_is_the_table_read(tmp_path: Path) -> None:
    path = tmp_path / "table.yaml"
    write_table(path, 1200, 900, "DICT_4X4_250", corner_anchors(1200, 900, 40, 35))
    table = load_table(path)
    assert (table.width_mm, table.depth_mm, table.dictionary) == (1200, 900, "DICT_4X4_250")
    # anchors 35 mm in from each corner, counter-clockwise from the origin
    assert [(a.id, a.x_mm, a.y_mm) for a in table.anchors] == [
        (0, 35, 35),
        (1, 1165, 35),
        (2, 1165, 865),
        (3, 35, 865),
    ]


def test_a_table_its_reader_refuses_is_never_written(tmp_path: Path) -> None:
    path = tmp_path / "table.yaml"
    path.write_text("# corrected by hand\n", encoding="utf-8")
    with pytest.raises(CalibrationFileError, match=r"table.yaml: dictionary: unknown ArUco"):
        write_table(path, 1200, 900, "DICT_9X9_1", corner_anchors(1200, 900, 40, 35))
    assert path.read_text(encoding="utf-8") == "# corrected by hand\n"


def test_without_overwrite_a_hand_corrected_table_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "table.yaml"
    path.write_text("# corrected by hand\n", encoding="utf-8")
    anchors = corner_anchors(1200, 900, 40, 35)
    with pytest.raises(FileExistsError, match="table.yaml: already exists; pass --force"):
        write_table(path, 1200, 900, "DICT_4X4_250", anchors, overwrite=False)
    assert path.read_text(encoding="utf-8") == "# corrected by hand\n"


def test_a_failed_write_leaves_the_old_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "table.yaml"
    path.write_text("# corrected by hand\n", encoding="utf-8")

    def disk_full(_descriptor: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("arbitre.files.os.fsync", disk_full)
    with pytest.raises(CalibrationFileError) as error:
        write_table(path, 1200, 900, "DICT_4X4_250", corner_anchors(1200, 900, 40, 35))
    assert str(error.value) == f"{path}: cannot write the file (No space left on device)"
    assert [p.name for p in tmp_path.iterdir()] == ["table.yaml"]
    assert path.read_text(encoding="utf-8") == "# corrected by hand\n"
