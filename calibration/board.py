"""Calibration targets: ``board.yaml`` (see ``docs/formats.md``) and the OpenCV boards it describes.

::

    type: charuco            # charuco | chessboard
    squares_x: 7             # squares along the board's width
    squares_y: 5             # squares along its height
    square_mm: 30
    marker_mm: 22            # charuco only
    dictionary: DICT_5X5_100 # charuco only
    legacy_pattern: false    # optional, charuco with an even squares_y only (see below)

A chessboard is also counted in squares: the usual "9x6" chessboard (9 x 6 inner corners)
is ``squares_x: 10, squares_y: 7``.

**ChArUco layouts.** OpenCV 4.6 changed where the markers of a ChArUco board with an
*even* number of rows (``squares_y``) go; boards printed by older OpenCV versions (or by
tools following them) use the *legacy* layout. For an odd ``squares_y`` both layouts are the
same. Detecting a board with the wrong layout finds its markers but no ChArUco corner, so
with ``legacy_pattern`` left out `arbitre.calibration.intrinsics` tries both layouts on an even-row
board and keeps the one that finds corners; set it to pin one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import cv2
import numpy as np
import pydantic
from numpy.typing import NDArray
from pydantic import BaseModel, ConfigDict, Field

from arbitre.calibration._files import FieldProblem, file_error, read_mapping
from arbitre.calibration.errors import CalibrationError
from arbitre.vision.detect import dictionary
from arbitre.vision.errors import VisionError

BoardType = Literal["charuco", "chessboard"]


def aruco_dictionary_names() -> tuple[str, ...]:
    """The names of OpenCV's predefined ArUco dictionaries (``DICT_4X4_50`` ...)."""
    return tuple(
        sorted(
            name
            for name in dir(cv2.aruco)
            if name.startswith("DICT_") and isinstance(getattr(cv2.aruco, name), int)
        )
    )


def aruco_dictionary(name: str) -> cv2.aruco.Dictionary:
    """OpenCV's predefined dictionary ``name``; `CalibrationError` naming the choices if unknown."""
    try:
        return dictionary(name)
    except VisionError:
        raise CalibrationError(
            f"unknown ArUco dictionary {name!r}; expected one of "
            f"{', '.join(aruco_dictionary_names())}"
        ) from None


def dictionary_size(name: str) -> int:
    """How many markers the dictionary ``name`` holds."""
    return int(aruco_dictionary(name).bytesList.shape[0])


@dataclass(frozen=True, slots=True)
class Board:
    """A calibration target; lengths in mm.

    >>> board = Board("chessboard", squares_x=10, squares_y=7, square_mm=25.0)
    >>> board.inner_corners
    (9, 6)
    >>> board.chessboard_points_mm()[[0, 1, 9]].tolist()
    [[0.0, 0.0, 0.0], [25.0, 0.0, 0.0], [0.0, 25.0, 0.0]]
    """

    type: BoardType
    squares_x: int
    squares_y: int
    square_mm: float
    marker_mm: float | None = None
    dictionary: str | None = None
    legacy_pattern: bool | None = None

    def __post_init__(self) -> None:
        try:
            _BoardFile.model_validate(
                {name: getattr(self, name) for name in _BoardFile.model_fields}
            )
        except pydantic.ValidationError as error:
            raise file_error("Board", error, _BoardFile) from None

    @property
    def inner_corners(self) -> tuple[int, int]:
        """Inner chessboard corners ``(columns, rows)``."""
        return self.squares_x - 1, self.squares_y - 1

    @property
    def layout_is_ambiguous(self) -> bool:
        """A ChArUco board with an even ``squares_y`` whose layout is not pinned."""
        return self.type == "charuco" and self.squares_y % 2 == 0 and self.legacy_pattern is None

    def charuco_board(self, legacy_pattern: bool | None = None) -> cv2.aruco.CharucoBoard:
        """The OpenCV board, in mm (object points and poses come out in mm).

        ``legacy_pattern`` overrides the board's own setting; unset, the current layout is
        used.
        """
        if self.type != "charuco" or self.marker_mm is None or self.dictionary is None:
            raise ValueError(f"a {self.type} board has no ChArUco layout")
        board = cv2.aruco.CharucoBoard(
            (self.squares_x, self.squares_y),
            float(self.square_mm),
            float(self.marker_mm),
            aruco_dictionary(self.dictionary),
        )
        legacy = self.legacy_pattern if legacy_pattern is None else legacy_pattern
        board.setLegacyPattern(bool(legacy))
        return board

    def chessboard_points_mm(self) -> NDArray[np.float64]:
        """Inner corners of the board, shape ``(N, 3)``, mm, z = 0.

        In the order ``cv2.findChessboardCorners`` returns them: row by row, ``k`` at
        ``(square * (k % columns), square * (k // columns), 0)``.
        """
        columns, rows = self.inner_corners
        k = np.arange(columns * rows)
        points = np.zeros((k.size, 3))
        points[:, 0] = self.square_mm * (k % columns)
        points[:, 1] = self.square_mm * (k // columns)
        return points


def load_board(path: str | Path) -> Board:
    """Read ``board.yaml``; a bad file is a `CalibrationFileError` naming the field."""
    source = str(path)
    return board_from_mapping(read_mapping(path), source)


def board_from_mapping(data: dict[str, Any], source: str = "board.yaml") -> Board:
    """Validate the fields of ``board.yaml`` already parsed."""
    try:
        spec = _BoardFile.model_validate(data)
    except pydantic.ValidationError as error:
        raise file_error(source, error, _BoardFile) from None
    return Board(
        type=spec.type,
        squares_x=spec.squares_x,
        squares_y=spec.squares_y,
        square_mm=spec.square_mm,
        marker_mm=spec.marker_mm,
        dictionary=spec.dictionary,
        legacy_pattern=spec.legacy_pattern,
    )


_Squares = Annotated[int, Field(ge=3, le=200, strict=True)]
_Length = Annotated[float, Field(ge=1, le=1000, allow_inf_nan=False)]
"""A square's or a marker's side: 1 mm (the least a printer and a camera resolve) to 1 m."""


class _BoardFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    type: BoardType
    squares_x: _Squares
    squares_y: _Squares
    square_mm: _Length
    marker_mm: _Length | None = None
    dictionary: str | None = None
    legacy_pattern: bool | None = None

    @pydantic.field_validator("dictionary")
    @classmethod
    def _known_dictionary(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                aruco_dictionary(value)
            except ValueError as error:
                raise FieldProblem("", str(error)) from None
        return value

    @pydantic.model_validator(mode="after")
    def _fields_fit_the_type(self) -> _BoardFile:
        if self.type == "chessboard":
            for name in ("marker_mm", "dictionary", "legacy_pattern"):
                if getattr(self, name) is not None:
                    raise FieldProblem(name, "a chessboard has no markers; remove this field")
            return self
        if self.marker_mm is None:
            raise FieldProblem("marker_mm", "missing")
        if self.dictionary is None:
            raise FieldProblem("dictionary", "missing")
        if self.marker_mm >= self.square_mm:
            raise FieldProblem(
                "marker_mm",
                f"must be smaller than square_mm ({self.square_mm:g}), got {self.marker_mm:g}",
            )
        needed = self.squares_x * self.squares_y // 2
        available = dictionary_size(self.dictionary)
        if needed > available:
            raise FieldProblem(
                "dictionary",
                f"{self.dictionary} has {available} markers, the board needs {needed}",
            )
        return self
