"""The errors of calibration: one line naming the file and the field, and all ValueErrors."""

from __future__ import annotations

from arbitre.calibration.errors import CalibrationError, CalibrationFileError


def test_a_file_error_names_the_file_then_the_field() -> None:
    error = CalibrationFileError("camera.yaml", "camera_matrix", "expected 3x3, got 3x2")
    assert str(error) == "camera.yaml: camera_matrix: expected 3x3, got 3x2"
    assert (error.source, error.field, error.problem) == (
        "camera.yaml",
        "camera_matrix",
        "expected 3x3, got 3x2",
    )


def test_a_whole_file_s_error_has_no_field() -> None:
    error = CalibrationFileError("roster.yaml", "", "not a text file (it is not UTF-8)")
    assert str(error) == "roster.yaml: not a text file (it is not UTF-8)"


def test_a_problem_over_several_lines_is_told_on_one() -> None:
    # Every run of spaces, tabs and newlines becomes one space.
    error = CalibrationFileError("table.yaml", "anchors[0]", "expected\n  a mapping,\tgot 3")
    assert str(error) == "table.yaml: anchors[0]: expected a mapping, got 3"


def test_every_calibration_error_is_a_value_error() -> None:
    assert issubclass(CalibrationFileError, CalibrationError)
    assert issubclass(CalibrationError, ValueError)
