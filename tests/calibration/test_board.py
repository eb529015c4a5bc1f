"""board.yaml: ChArUco and chessboard targets load; bad files name the field."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from arbitre.calibration.board import Board, load_board
from arbitre.calibration.errors import CalibrationFileError

CONTRACT_EXAMPLE = """\
type: charuco
squares_x: 7
squares_y: 5
square_mm: 30
marker_mm: 22
dictionary: DICT_5X5_100
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "board.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_contract_example_loads_as_an_opencv_board(tmp_path: Path) -> None:
    board = load_board(_write(tmp_path, CONTRACT_EXAMPLE))
    assert board == Board("charuco", 7, 5, 30.0, 22.0, "DICT_5X5_100")
    cv_board = board.charuco_board()
    assert cv_board.getChessboardSize() == (7, 5)
    assert cv_board.getSquareLength() == 30.0
    corners = np.asarray(cv_board.getChessboardCorners())
    assert len(corners) == 6 * 4  # inner corners of 7 x 5 squares
    assert corners[1].tolist() == [60.0, 30.0, 0.0]  # mm, the second inner corner


def test_a_chessboard_counts_squares(tmp_path: Path) -> None:
    text = "type: chessboard\nsquares_x: 10\nsquares_y: 7\nsquare_mm: 25\n"
    board = load_board(_write(tmp_path, text))
    assert board.inner_corners == (9, 6)
    points = board.chessboard_points_mm()
    assert points.shape == (54, 3)
    assert points[10].tolist() == [25.0, 25.0, 0.0]  # second row, second column


def test_an_even_row_charuco_board_has_two_layouts(tmp_path: Path) -> None:
    board = load_board(_write(tmp_path, CONTRACT_EXAMPLE.replace("squares_y: 5", "squares_y: 6")))
    assert board.layout_is_ambiguous
    current = np.asarray(board.charuco_board(legacy_pattern=False).getObjPoints())
    legacy = np.asarray(board.charuco_board(legacy_pattern=True).getObjPoints())
    assert not np.array_equal(current, legacy)
    pinned = load_board(_write(tmp_path, CONTRACT_EXAMPLE + "legacy_pattern: true\n"))
    assert not pinned.layout_is_ambiguous
    assert pinned.charuco_board().getLegacyPattern()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("marker_mm: 22", "marker_mm: 30"), r"marker_mm: must be smaller than square_mm \(30\)"),
        (("marker_mm: 22\n", ""), r"marker_mm: missing"),
        (("DICT_5X5_100", "DICT_5X5_7"), r"dictionary: unknown ArUco dictionary 'DICT_5X5_7'"),
        (("squares_x: 7", "squares_x: 7.5"), r"squares_x: input should be a valid integer"),
        (
            ("square_mm: 30", "square_mm: 0"),
            r"square_mm: input should be greater than or equal to 1",
        ),
        (
            ("square_mm: 30", "square_mm: 1.0e+300"),
            r"square_mm: input should be less than or equal to 1000",
        ),
        (("marker_mm: 22", "marker_mm: 0.5"), r"marker_mm: input should be greater than or equal"),
        (("type: charuco", "type: circles"), r"type: input should be 'charuco' or 'chessboard'"),
        (("type: charuco", "type: charuco\nsquare_size: 3"), r"square_size: unknown field"),
        (("type: charuco", "type: chessboard"), r"marker_mm: a chessboard has no markers"),
    ],
)
def test_a_bad_board_file_names_the_field(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: tuple[str, str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, CONTRACT_EXAMPLE.replace(*change))
    with pytest.raises(CalibrationFileError, match="^board.yaml: " + message):
        load_board("board.yaml")


def test_a_dictionary_too_small_for_the_board_is_refused(tmp_path: Path) -> None:
    # 15 x 7 squares hold 15 * 7 // 2 = 52 markers; DICT_4X4_50 has 50.
    text = CONTRACT_EXAMPLE.replace("squares_x: 7", "squares_x: 15").replace("5X5_100", "4X4_50")
    with pytest.raises(
        CalibrationFileError, match=r"dictionary: DICT_4X4_50 has 50 markers, the board needs 52"
    ):
        load_board(_write(tmp_path, text.replace("squares_y: 5", "squares_y: 7")))
