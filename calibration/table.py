"""``table.yaml`` (the table and its anchor markers) and ``roster.yaml`` (who carries which
marker), see ``docs/formats.md``.

Anchor orientation: printed upright, a marker's top edge points to +y. Its corners in OpenCV's
order (top-left, top-right, bottom-right, bottom-left of the printed marker) are then, seen from
above (z up) with side ``s`` centred on ``(x, y)``::

    TL (x - s/2, y + s/2)    TR (x + s/2, y + s/2)
    BL (x - s/2, y - s/2)    BR (x + s/2, y - s/2)

``rotation_deg`` turns the marker counter-clockwise about its centre.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
import pydantic
from numpy.typing import NDArray
from pydantic import BaseModel, ConfigDict, Field

from arbitre.bounds import LONGEST_MM
from arbitre.calibration._files import FieldProblem, file_error, read_mapping
from arbitre.calibration.board import aruco_dictionary, dictionary_size
from arbitre.calibration.errors import CalibrationFileError
from arbitre.names import one_line_name
from arbitre.outlines import outline_problem

DEFAULT_DICTIONARY = "DICT_4X4_250"

MAX_LENGTH_MM = LONGEST_MM
"""The longest length table.yaml and roster.yaml may give (a table's side, an anchor's
place, a base, a terrain outline): 100 m, as in a scene."""

MAX_MARKER_HEIGHT_MM = 1_000.0
"""The highest a marker may stand above the table (a figure's head, a hill's top): 1 m.
Higher, it would stand at the camera, not on a figure."""

_Place = Annotated[float, Field(ge=-MAX_LENGTH_MM, le=MAX_LENGTH_MM, allow_inf_nan=False)]
_Positive = Annotated[float, Field(gt=0, le=MAX_LENGTH_MM, allow_inf_nan=False)]
_Height = Annotated[float, Field(ge=0, le=MAX_MARKER_HEIGHT_MM, allow_inf_nan=False)]
_Degrees = Annotated[float, Field(ge=-360, le=360, allow_inf_nan=False)]
_MarkerId = Annotated[int, Field(ge=0, strict=True)]


@dataclass(frozen=True, slots=True)
class Anchor:
    """A marker glued flat on the table (z = 0): centre ``(x_mm, y_mm)``, side ``size_mm``."""

    id: int
    x_mm: float
    y_mm: float
    size_mm: float
    rotation_deg: float = 0.0

    def corners_mm(self) -> NDArray[np.float64]:
        """The four corners in OpenCV's order, table frame, shape ``(4, 3)``, mm, z = 0.

        >>> Anchor(0, x_mm=35, y_mm=35, size_mm=40).corners_mm()[:, :2].tolist()
        [[15.0, 55.0], [55.0, 55.0], [55.0, 15.0], [15.0, 15.0]]
        >>> turned = Anchor(0, x_mm=0, y_mm=0, size_mm=2, rotation_deg=90).corners_mm()
        >>> np.round(turned[:, :2], 9).tolist()  # the top-left corner swings to (-1, -1)
        [[-1.0, -1.0], [-1.0, 1.0], [1.0, 1.0], [1.0, -1.0]]
        """
        half = self.size_mm / 2.0
        local = np.array([[-half, half], [half, half], [half, -half], [-half, -half]])
        angle = math.radians(self.rotation_deg)
        cos, sin = math.cos(angle), math.sin(angle)
        rotation = np.array([[cos, -sin], [sin, cos]])
        corners = np.zeros((4, 3))
        corners[:, :2] = local @ rotation.T + (self.x_mm, self.y_mm)
        return corners


DEFAULT_ANCHOR_TOLERANCE_MM = 0.5
"""1-sigma error of where an anchor is glued, along each axis, mm (ruler and care)."""

DEFAULT_PRINT_SCALE_SIGMA = 0.005
"""1-sigma relative error of a printed marker's size (a printer at "100 %": about 0.5 %)."""


@dataclass(frozen=True, slots=True)
class Table:
    """The table: a ``width_mm x depth_mm`` rectangle, the marker dictionary and the anchors.

    ``anchor_tolerance_mm`` and ``print_scale_sigma`` say how well the anchors are known:
    the 1-sigma error of each anchor's glued position (per axis) and of the printed
    markers' scale. Both widen every located marker's ``sigma_mm``.
    """

    width_mm: float
    depth_mm: float
    dictionary: str
    anchors: tuple[Anchor, ...]
    anchor_tolerance_mm: float = DEFAULT_ANCHOR_TOLERANCE_MM
    print_scale_sigma: float = DEFAULT_PRINT_SCALE_SIGMA

    @property
    def anchor_ids(self) -> frozenset[int]:
        """The ids of the anchors."""
        return frozenset(a.id for a in self.anchors)

    def anchor(self, marker_id: int) -> Anchor | None:
        """The anchor with this id, or None."""
        return next((a for a in self.anchors if a.id == marker_id), None)


@dataclass(frozen=True, slots=True)
class RosterFigure:
    """One figure of ``roster.yaml`` and the marker it carries.

    ``marker_height_mm`` is the height of the marker above the table; None when the roster
    does not give it (the marker is then located at z = 0 and reported ``height_known:
    false``). ``id`` is the figure's id in a scene (its name unless given).
    """

    marker: int
    name: str
    id: str
    side: str | None = None
    group: str | None = None
    reference: bool = False
    marker_height_mm: float | None = None
    base: Mapping[str, Any] | None = None
    type: str | None = None
    unit: str | None = None
    wounded: bool = False
    attrs: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RosterTerrain:
    """A terrain piece of ``roster.yaml`` that carries a marker: its outline in its own frame.

    The piece's frame: millimetres from the marker's centre, +y along the marker's top
    edge (the way its number reads), +x to the marker's right. Exactly one of
    ``polygon_mm`` (an area) and ``line_mm`` (a linear obstacle) is given.
    """

    marker: int
    id: str
    kind: str
    marker_height_mm: float = 0.0
    level: int | None = None
    polygon_mm: tuple[tuple[float, float], ...] | None = None
    line_mm: tuple[tuple[float, float], ...] | None = None

    def placed(self, x_mm: float, y_mm: float, heading_deg: float) -> dict[str, Any]:
        """The piece as a scene's terrain feature, its marker at ``(x_mm, y_mm)`` with its
        top edge towards ``heading_deg``.

        >>> hedge = RosterTerrain(61, "hedge1", "obstacle", level=1, line_mm=((0, 0), (0, 100)))
        >>> hedge.placed(300, 200, 0.0)["line_mm"]  # its +y turned to the table's +x
        [[300.0, 200.0], [400.0, 200.0]]
        """
        angle = math.radians(heading_deg)
        up = (math.cos(angle), math.sin(angle))  # the piece's +y on the table
        right = (up[1], -up[0])  # its +x: a quarter turn clockwise from +y

        def place(points: tuple[tuple[float, float], ...]) -> list[list[float]]:
            return [
                [
                    round(x_mm + px * right[0] + py * up[0], 6),
                    round(y_mm + px * right[1] + py * up[1], 6),
                ]
                for px, py in points
            ]

        feature: dict[str, Any] = {"id": self.id, "kind": self.kind}
        if self.level is not None:
            feature["level"] = self.level
        if self.polygon_mm is not None:
            feature["polygon_mm"] = place(self.polygon_mm)
        if self.line_mm is not None:
            feature["line_mm"] = place(self.line_mm)
        return feature


@dataclass(frozen=True, slots=True)
class Roster:
    """The figures of ``roster.yaml``, each with a distinct marker, and its terrain pieces.

    ``source`` names the file they were read from, in the errors found later (a figure
    carrying an anchor's marker, `check_roster_against_table`).
    """

    figures: tuple[RosterFigure, ...]
    terrain: tuple[RosterTerrain, ...] = ()
    source: str = field(default="roster.yaml", compare=False)

    def by_marker(self, marker_id: int) -> RosterFigure | None:
        """The figure carrying this marker, or None (a terrain piece's marker is no figure)."""
        return next((f for f in self.figures if f.marker == marker_id), None)

    def clashing_terrain(self, ids: Iterable[str]) -> str | None:
        """Why fixed terrain pieces of these ``ids`` cannot stand beside the roster's
        pieces, one of which has the same id; None when none has.

        >>> wood = RosterTerrain(30, "wood1", "wood", polygon_mm=((0, 0), (9, 0), (0, 9)))
        >>> Roster((), (wood,)).clashing_terrain(["hill", "wood1"])[:40]
        "'wood1' is also the id of the roster's t"
        """
        for ident in ids:
            piece = next((t for t in self.terrain if t.id == ident), None)
            if piece is not None:
                return (
                    f"{ident!r} is also the id of the roster's terrain piece on marker"
                    f" {piece.marker}: give one of them another id"
                )
        return None

    def terrain_by_marker(self, marker_id: int) -> RosterTerrain | None:
        """The terrain piece carrying this marker, or None."""
        return next((t for t in self.terrain if t.marker == marker_id), None)


def load_table(path: str | Path) -> Table:
    """Read ``table.yaml``; a bad file is a `CalibrationFileError` naming the field."""
    return table_from_mapping(read_mapping(path), str(path))


def table_from_mapping(data: dict[str, Any], source: str = "table.yaml") -> Table:
    """Validate the fields of ``table.yaml`` already parsed."""
    try:
        spec = _TableFile.model_validate(data)
    except pydantic.ValidationError as error:
        raise file_error(source, error, _TableFile) from None
    anchors = tuple(Anchor(a.id, a.x_mm, a.y_mm, a.size_mm, a.rotation_deg) for a in spec.anchors)
    return Table(
        spec.width_mm,
        spec.depth_mm,
        spec.dictionary,
        anchors,
        spec.anchor_tolerance_mm,
        spec.print_scale_sigma,
    )


def load_roster(path: str | Path) -> Roster:
    """Read ``roster.yaml``; a bad file is a `CalibrationFileError` naming the field."""
    return roster_from_mapping(read_mapping(path), str(path))


def roster_from_mapping(data: dict[str, Any], source: str = "roster.yaml") -> Roster:
    """Validate the fields of ``roster.yaml`` already parsed."""
    try:
        spec = _RosterFile.model_validate(data)
    except pydantic.ValidationError as error:
        raise file_error(source, error, _RosterFile) from None
    figures = tuple(
        RosterFigure(
            marker=f.marker,
            name=f.name,
            id=f.id if f.id is not None else f.name,
            side=f.side,
            group=f.group,
            reference=f.reference,
            marker_height_mm=f.marker_height_mm,
            base=None if f.base is None else f.base.model_dump(),
            type=f.type,
            unit=f.unit,
            wounded=f.wounded,
            attrs=dict(f.attrs),
        )
        for f in spec.figures
    )
    terrain = tuple(
        RosterTerrain(
            marker=t.marker,
            id=t.id,
            kind=t.kind,
            marker_height_mm=t.marker_height_mm,
            level=t.level,
            polygon_mm=None if t.polygon_mm is None else tuple(t.polygon_mm),
            line_mm=None if t.line_mm is None else tuple(t.line_mm),
        )
        for t in spec.terrain
    )
    return Roster(figures, terrain, source)


def check_roster_against_table(
    roster: Roster, table: Table, roster_source: str | None = None
) -> None:
    """Raise `CalibrationFileError` if a figure carries an anchor's marker or an id the
    table's dictionary does not have; the error names ``roster_source``, by default the
    file the roster was read from."""
    roster_source = roster.source if roster_source is None else roster_source
    size = dictionary_size(table.dictionary)
    carriers: list[tuple[str, RosterFigure | RosterTerrain]] = [
        (f"figures[{i}].marker", f) for i, f in enumerate(roster.figures)
    ]
    carriers += [(f"terrain[{i}].marker", t) for i, t in enumerate(roster.terrain)]
    anchor_ids = table.anchor_ids
    for where, figure in carriers:
        if figure.marker in anchor_ids:
            raise CalibrationFileError(
                roster_source, where, f"marker {figure.marker} is an anchor of the table"
            )
        if figure.marker >= size:
            raise CalibrationFileError(
                roster_source,
                where,
                f"marker {figure.marker} is not in {table.dictionary} (ids 0-{size - 1})",
            )


# ---------------------------------------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _AnchorSpec(_Strict):
    id: _MarkerId
    x_mm: _Place
    y_mm: _Place
    size_mm: _Positive
    rotation_deg: _Degrees = 0.0


class _TableFile(_Strict):
    width_mm: _Positive
    depth_mm: _Positive
    dictionary: str = DEFAULT_DICTIONARY
    anchors: Annotated[list[_AnchorSpec], Field(min_length=2)]
    anchor_tolerance_mm: Annotated[float, Field(ge=0, le=100, allow_inf_nan=False)] = (
        DEFAULT_ANCHOR_TOLERANCE_MM
    )
    print_scale_sigma: Annotated[float, Field(ge=0, le=0.5, allow_inf_nan=False)] = (
        DEFAULT_PRINT_SCALE_SIGMA
    )

    @pydantic.field_validator("dictionary")
    @classmethod
    def _known_dictionary(cls, value: str) -> str:
        try:
            aruco_dictionary(value)
        except ValueError as error:
            raise FieldProblem("", str(error)) from None
        return value

    @pydantic.model_validator(mode="after")
    def _distinct_anchors_in_the_dictionary(self) -> _TableFile:
        _reject_duplicates([a.id for a in self.anchors], "anchors", "id", "anchor id")
        size = dictionary_size(self.dictionary)
        for index, anchor in enumerate(self.anchors):
            if anchor.id >= size:
                raise FieldProblem(
                    f"anchors[{index}].id",
                    f"marker {anchor.id} is not in {self.dictionary} (ids 0-{size - 1})",
                )
        return self


class _RoundBase(_Strict):
    shape: Literal["round"]
    diameter_mm: _Positive


class _SquareBase(_Strict):
    shape: Literal["square"]
    side_mm: _Positive


class _RectBase(_Strict):
    shape: Literal["rect"]
    width_mm: _Positive
    depth_mm: _Positive


_BaseSpec = Annotated[_RoundBase | _SquareBase | _RectBase, Field(discriminator="shape")]


class _FigureSpec(_Strict):
    marker: _MarkerId
    name: Annotated[str, Field(min_length=1)]
    id: Annotated[str, Field(min_length=1)] | None = None
    side: str | None = None
    group: str | None = None
    reference: bool = False
    marker_height_mm: _Height | None = None
    base: _BaseSpec | None = None
    type: str | None = None
    unit: str | None = None
    wounded: bool = False
    attrs: dict[str, Any] = Field(default_factory=dict)

    @pydantic.field_validator("name", "id", "side", "group", "type", "unit", mode="before")
    @classmethod
    def _names_are_text(cls, value: Any) -> Any:
        # YAML reads `group: 1` as an int; names are text.
        is_number = isinstance(value, int | float) and not isinstance(value, bool)
        return str(value) if is_number else value

    @pydantic.field_validator("name", "id", "side", "group", "type", "unit")
    @classmethod
    def _names_are_one_line(cls, value: str | None) -> str | None:
        return None if value is None else one_line_name(value)


_Point = tuple[_Place, _Place]


class _TerrainSpec(_Strict):
    marker: _MarkerId
    id: Annotated[str, Field(min_length=1), pydantic.AfterValidator(one_line_name)]
    kind: Literal["difficult", "impassable", "obstacle", "wood", "building"]
    marker_height_mm: _Height = 0.0
    level: Annotated[int, Field(ge=1, le=3, strict=True)] | None = None
    polygon_mm: Annotated[list[_Point], Field(min_length=3, max_length=1000)] | None = None
    line_mm: Annotated[list[_Point], Field(min_length=2, max_length=1000)] | None = None

    @pydantic.model_validator(mode="after")
    def _one_outline(self) -> _TerrainSpec:
        if (self.polygon_mm is None) == (self.line_mm is None):
            raise FieldProblem("", "give exactly one of polygon_mm (an area) and line_mm (a line)")
        if self.line_mm is not None and self.kind != "obstacle":
            raise FieldProblem("line_mm", f"only an obstacle is a line, not a {self.kind}")
        problem = outline_problem(self.polygon_mm, self.line_mm)
        if problem is not None:
            raise FieldProblem(*problem)
        return self


class _RosterFile(_Strict):
    figures: list[_FigureSpec] = Field(default_factory=list)
    terrain: list[_TerrainSpec] = Field(default_factory=list)

    @pydantic.model_validator(mode="after")
    def _distinct_markers_and_ids(self) -> _RosterFile:
        _reject_duplicates([f.marker for f in self.figures], "figures", "marker", "marker")
        _reject_duplicates([t.marker for t in self.terrain], "terrain", "marker", "marker")
        figure_markers = {f.marker for f in self.figures}
        for index, piece in enumerate(self.terrain):
            if piece.marker in figure_markers:
                raise FieldProblem(
                    f"terrain[{index}].marker",
                    f"marker {piece.marker} is a figure's: a terrain marker is never a figure",
                )
        _reject_duplicates([t.id for t in self.terrain], "terrain", "id", "id")
        ids = [f.id if f.id is not None else f.name for f in self.figures]
        fields = ["id" if f.id is not None else "name" for f in self.figures]
        seen: dict[str, int] = {}
        for index, (figure_id, field_name) in enumerate(zip(ids, fields, strict=True)):
            if figure_id in seen:
                raise FieldProblem(
                    f"figures[{index}].{field_name}",
                    f"duplicate figure {figure_id!r} (also figures[{seen[figure_id]}])",
                )
            seen[figure_id] = index
        groups = {f.group for f in self.figures if f.group is not None}
        for index, (figure, figure_id) in enumerate(zip(self.figures, ids, strict=True)):
            if figure_id in groups and figure.group != figure_id:
                raise FieldProblem(
                    f"figures[{index}].{fields[index]}",
                    f"{figure_id!r} names this figure and also group {figure_id!r}, which it "
                    "is not in: a question could not tell them apart; rename one",
                )
        return self


def _reject_duplicates(values: Sequence[int | str], items: str, field_name: str, what: str) -> None:
    """Name the first item whose ``field_name`` repeats an earlier one's."""
    seen: dict[int | str, int] = {}
    for index, value in enumerate(values):
        if value in seen:
            shown = repr(value) if isinstance(value, str) else str(value)
            raise FieldProblem(
                f"{items}[{index}].{field_name}",
                f"duplicate {what} {shown} (also {items}[{seen[value]}])",
            )
        seen[value] = index
