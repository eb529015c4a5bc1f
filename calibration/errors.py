"""The errors of `calibration`: malformed input, never an expected failure.

An expected failure (a calibration with too few usable views, a table pose from
too few anchors) is a value carrying its message; these exceptions are raised
only for bad input: a camera file with a 3x2 matrix, a roster with a duplicate
marker, an image size the intrinsics cannot serve.
"""

from __future__ import annotations


class CalibrationError(ValueError):
    """Base class of every error raised by `calibration`. The message is one line."""


class CalibrationFileError(CalibrationError):
    """A file (camera.yaml, board.yaml, table.yaml, roster.yaml ...) that is not valid.

    The message names the file and the field::

        camera.yaml: camera_matrix: expected 3x3, got 3x2
    """

    def __init__(self, source: str, field: str, problem: str) -> None:
        self.source = source
        self.field = field
        self.problem = problem
        where = f"{source}: {field}" if field else source
        super().__init__(_one_line(f"{where}: {problem}"))


def _one_line(text: str) -> str:
    return " ".join(text.split())
