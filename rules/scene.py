"""Load ``scene.yaml`` (see ``docs/formats.md``) into a validated `arbitre.rules.model.Scene`.

Every problem is a `SceneError` naming the file and the field::

    scene.yaml: figures[1].x_mm: 1250.0 is off the table (width 1200.0 mm)

This module is the only place in `rules` that reads a file. Its annotations are objects,
not text (no ``from __future__ import annotations``): pydantic reads the models' fields at
each start, and would evaluate text there.
"""

import copy
import dataclasses
import itertools
import pickle
import re
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

import pydantic
import shapely
import yaml
from pydantic import BaseModel, ConfigDict, Field

from arbitre.bounds import LONGEST_MM
from arbitre.files import (
    MAX_YAML_NESTING,
    MAX_YAML_VALUES,
    BoundedLoader,
    FileReadError,
    load_yaml,
    read_bounded,
)
from arbitre.names import NOT_IN_NAMES, NOT_IN_TEXT, one_line_name
from arbitre.nearest import first_error, hint
from arbitre.outlines import outline_problem
from arbitre.rules.errors import RulesError, SceneError
from arbitre.rules.model import (
    Base,
    BaseShape,
    Figure,
    Scene,
    Table,
    TerrainFeature,
    TerrainKind,
)
from arbitre.rules.options import shown

# Numbers are strict: YAML's `true` is never read as 1 mm (nor "12" as 12).
Finite = Annotated[float, Field(allow_inf_nan=False, strict=True)]
Angle = Annotated[float, Field(allow_inf_nan=False, strict=True, ge=-360.0, le=360.0)]
"""An angle in degrees, -360 to 360 (as an option's ``facing_deg``): 1e300 is no facing."""
Positive = Annotated[float, Field(gt=0, le=LONGEST_MM, allow_inf_nan=False, strict=True)]
NonNegative = Annotated[float, Field(ge=0, le=LONGEST_MM, allow_inf_nan=False, strict=True)]
Flag = Annotated[bool, Field(strict=True)]


def _plain_data(value: Any) -> Any:
    """``value`` (the data of ``attrs``) if its keys are names and its strings text."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str) and NOT_IN_TEXT.search(item):
            raise ValueError("text without control characters (but tabs and newlines)")
        if isinstance(item, dict):
            for key in item:
                if isinstance(key, str) and NOT_IN_NAMES.search(key):
                    raise ValueError("keys are names, one line without control characters")
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return value


Signed = Annotated[float, Field(ge=-LONGEST_MM, le=LONGEST_MM, allow_inf_nan=False, strict=True)]
"""A length that may be negative (a shared error's move), at most 100 m either way."""

MAX_SHARED_ERRORS = 256
"""The most shared error terms a scene may name (a table of 100 anchors has 208)."""

SharedMoves = Annotated[list[tuple[Signed, Signed]], Field(max_length=MAX_SHARED_ERRORS)]


def _covariance(value: tuple[tuple[float, float], tuple[float, float]]) -> Any:
    """A 2 x 2 covariance: symmetric, with no negative variance along any direction."""
    (xx, xy), (yx, yy) = value
    scale = max(abs(xx), abs(yy), abs(xy), abs(yx), 1e-300)
    if abs(xy - yx) > 1e-9 * scale:
        raise ValueError("a symmetric 2 x 2 matrix [[xx, xy], [xy, yy]]")
    if xx < 0 or yy < 0 or xy * xy > xx * yy + 1e-9 * scale * scale:
        raise ValueError("a covariance: xx >= 0, yy >= 0 and xy^2 <= xx yy")
    return value


Covariance = Annotated[
    tuple[tuple[Signed, Signed], tuple[Signed, Signed]], pydantic.AfterValidator(_covariance)
]

Name = Annotated[str, Field(min_length=1), pydantic.AfterValidator(one_line_name)]
"""An id, side, group or other name: one line of text."""

Attrs = Annotated[dict[str, Any], pydantic.AfterValidator(_plain_data)]


class _Strict(BaseModel):
    # Each model's validator is built when first used: reading a scene builds SceneSpec's
    # alone (with its parts inside), the scene reader's FigureSpec's when a figure moves.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class RoundBaseSpec(_Strict):
    shape: Literal["round"]
    diameter_mm: Positive


class SquareBaseSpec(_Strict):
    shape: Literal["square"]
    side_mm: Positive


class RectBaseSpec(_Strict):
    shape: Literal["rect"]
    width_mm: Positive
    depth_mm: Positive


BaseSpec = Annotated[RoundBaseSpec | SquareBaseSpec | RectBaseSpec, Field(discriminator="shape")]


class FigureSpec(_Strict):
    id: Name
    side: Name
    x_mm: Finite
    y_mm: Finite
    group: Name | None = None
    reference: Flag = False
    facing_deg: Angle = 90.0
    base: BaseSpec | None = None
    unit: Name | None = None
    type: Name | None = None
    wounded: Flag = False
    sigma_mm: NonNegative = 0.0
    marker_height_mm: NonNegative | None = None
    attrs: Attrs = Field(default_factory=dict)
    shared_mm: SharedMoves | None = None
    own_cov_mm2: Covariance | None = None

    @pydantic.field_validator("id", "side", "group", "unit", "type", mode="before")
    @classmethod
    def _names_are_text(cls, value: Any) -> Any:
        # YAML reads `group: 1` as an int; names are text.
        return (
            str(value) if isinstance(value, int | float) and not isinstance(value, bool) else value
        )


MAX_TABLE_MM = LONGEST_MM
"""The largest table side a scene may give (100 m)."""

TableSide = Annotated[float, Field(gt=0, le=MAX_TABLE_MM, allow_inf_nan=False, strict=True)]
Coordinate = Annotated[
    float, Field(ge=-10 * MAX_TABLE_MM, le=10 * MAX_TABLE_MM, allow_inf_nan=False, strict=True)
]


MAX_FIGURES = 1000
"""The most figures a scene may hold (every question answers in seconds up to it)."""

MAX_TERRAIN = 1000
"""The most terrain pieces a scene may hold."""

MAX_POINTS = 20_000
"""The most points one terrain piece's outline may have."""

Outline = Annotated[list[tuple[Coordinate, Coordinate]], Field(max_length=MAX_POINTS)]


class TerrainSpec(_Strict):
    id: Name
    kind: TerrainKind
    polygon_mm: Outline | None = None
    line_mm: Outline | None = None
    level: Annotated[int, Field(ge=1, le=3, strict=True)] | None = None
    attrs: Attrs = Field(default_factory=dict)


class TableSpec(_Strict):
    width_mm: TableSide
    depth_mm: TableSide


class SceneSpec(_Strict):
    ruleset: Name
    options: dict[str, Any] = Field(default_factory=dict)
    table: TableSpec
    figures: Annotated[list[FigureSpec], Field(max_length=MAX_FIGURES)]
    terrain: Annotated[list[TerrainSpec], Field(max_length=MAX_TERRAIN)] = Field(
        default_factory=list
    )
    allies: list[list[Name]] = Field(default_factory=list)
    shared_errors: Annotated[list[Name], Field(max_length=MAX_SHARED_ERRORS)] | None = None


MAX_SCENE_BYTES = 10_000_000
"""A scene file larger than this is refused (a table of 1,000 figures is about 200 kB)."""

MAX_NESTING = MAX_YAML_NESTING
"""Deepest nesting of lists and mappings a scene file may have (a scene needs about 6)."""

MAX_VALUES = MAX_YAML_VALUES
"""The most values (numbers, texts, lists and mappings) a scene file may hold: reading
them takes about 2 s. A table of 1,000 figures holds about 15,000, and 40,000 points of
terrain outline 120,000."""


class _SceneLoader(BoundedLoader):
    """The bounded loader of every file arbitre reads (no aliases, bounded nesting and
    size), with keys given once and numbers and flags as JSON writes them."""

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        """A mapping whose keys are each given once (YAML lets the last one win, silently)."""
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, str | int | float | bool) or key is None:
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"{shown(key)} is given twice", key_node.start_mark
                    )
                seen.add(key)
        return super().construct_mapping(node, deep)

    def construct_decimal(self, node: Any) -> int:
        """An integer written in decimal (YAML 1.1 would read 010 as 8 and 1:30 as 90)."""
        text = self.construct_scalar(node)
        digits = text.lstrip("+-")
        if len(digits) > _MAX_DIGITS:
            raise yaml.constructor.ConstructorError(
                None, None, f"a number of {len(digits)} digits", node.start_mark
            )
        return int(text)


_MAX_DIGITS = 400
"""The most digits an integer may have (a float holds up to about 10**308)."""

# Numbers and flags as YAML 1.2 and JSON write them, and no others: `1e3` is a number
# (YAML 1.1 reads text), `010` is 10 (YAML 1.1: 8); `0x10`, `1:30` and dates are text
# (YAML 1.1: 16, 90, a date); `yes` is no flag (YAML 1.1 reads yes, no, on, off as flags).
_NUMBERS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:timestamp")
_FLAGS = "tag:yaml.org,2002:bool"
_SceneLoader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag not in (*_NUMBERS, _FLAGS)]
    for first, resolvers in BoundedLoader.yaml_implicit_resolvers.items()
}
_SceneLoader.add_implicit_resolver(
    _FLAGS, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
_SceneLoader.add_implicit_resolver(
    "tag:yaml.org,2002:int", re.compile(r"^[-+]?[0-9]+$"), list("-+0123456789")
)
_SceneLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(
        r"^(?:[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
    ),
    list("-+0123456789."),
)
_SceneLoader.add_constructor("tag:yaml.org,2002:int", _SceneLoader.construct_decimal)


def load_scene(path: str | Path) -> Scene:
    """Read and validate a scene file (UTF-8 YAML, or JSON)."""
    source = str(path)
    try:  # a regular file only (a pipe or /dev/zero could keep it waiting for ever)
        raw = read_bounded(path, MAX_SCENE_BYTES)
    except FileReadError as error:
        why = f"cannot read the file ({error.reason})" if error.missing else error.reason
        raise SceneError(source, "", why) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SceneError(
            source, "", f"not UTF-8 text (byte {error.start}): save the file as UTF-8"
        ) from None
    return parse_scene(read_scene_text(text, source), source=source)


def read_scene_text(text: str, source: str = "<scene>") -> Any:
    """The data of a scene's YAML (or JSON) text, refusing aliases and deep nesting."""
    try:
        return load_yaml(text, _SceneLoader)  # a safe loader: no objects built
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else ""
        problem = str(
            getattr(error, "problem", None) or str(error).splitlines()[0] or "malformed YAML"
        )[:120]
        raise SceneError(source, where, f"malformed YAML: {problem}") from None


def parse_scene(data: Any, *, source: str = "<scene>") -> Scene:
    """Validate a scene given as plain data (what ``yaml.safe_load`` gives)."""
    from arbitre.rules.registry import (
        find_ruleset,  # the registry imports the rulesets, which import us
    )

    if not isinstance(data, Mapping):
        raise SceneError(
            source, "", f"expected a mapping at the top level, got {type(data).__name__}"
        )
    try:
        spec = SceneSpec.model_validate(data)
    except pydantic.ValidationError as error:
        raise _scene_error(source, error, model=SceneSpec) from None
    try:
        ruleset = find_ruleset(spec.ruleset)
    except RulesError as error:
        raise SceneError(source, "ruleset", str(error)) from None
    try:
        options = ruleset.parse_options(spec.options)
    except pydantic.ValidationError as error:
        raise _scene_error(source, error, "options", ruleset.options_model) from None

    table = Table(spec.table.width_mm, spec.table.depth_mm)
    shared = () if spec.shared_errors is None else tuple(spec.shared_errors)
    figures = tuple(
        _figure(source, index, item, table, len(shared)) for index, item in enumerate(spec.figures)
    )
    _check_names(source, figures)
    terrain = tuple(_terrain(source, index, item) for index, item in enumerate(spec.terrain))
    _check_unique(source, "terrain", [feature.id for feature in terrain])
    allies = frozenset(
        frozenset(pair)
        for sides in spec.allies
        for pair in itertools.combinations(sorted(set(sides)), 2)
    )
    scene = Scene(
        ruleset=ruleset.name,
        options=options,
        table=table,
        figures=figures,
        terrain=terrain,
        allies=allies,
        source=source,
        shared_errors=shared,
    )
    ruleset.validate(scene)
    return scene


_Key = bytes | str
"""A figure entry (or the rest of a state) as `SceneReader` compares them."""


class SceneReader:
    """Reads the successive states of one table (a live table's scene, ten times a second).

    A figure whose entry is the same as in the last state read keeps its `Figure`: only
    the figures that moved (or changed) are validated again, and the outlines the rules
    made of the others are reused (see `arbitre.rules.model.Base.footprint`). A state
    identical to the last one gives the same `Scene` object, with every fact the rules
    derived from it. Anything else that changed (table, options, terrain, allies) makes
    the whole scene be read again. The scene and the errors are those of `parse_scene`.
    """

    def __init__(self, source: str = "<scene>") -> None:
        self.source = source
        self._lock = threading.Lock()
        self._setting: _Key | None = None  # everything but the figures (`_key`)
        self._keys: list[_Key] = []  # the last state's figure entries (`_key`)
        self._figures: dict[_Key, Figure] = {}  # each of them: its Figure
        self._scene: Scene | None = None

    def read(self, data: Any) -> Scene:
        """The scene of ``data`` (plain data, as `parse_scene` takes)."""
        with self._lock:
            return self._read(data)

    def _read(self, data: Any) -> Scene:
        entries = data.get("figures") if isinstance(data, Mapping) else None
        if not isinstance(entries, list) or not 0 < len(entries) <= MAX_FIGURES:
            return self._parse(data, None, [])
        setting = _key({key: value for key, value in data.items() if key != "figures"})
        keys = [_key(entry) for entry in entries]
        last = self._scene
        if last is None or setting != self._setting:
            return self._parse(data, setting, keys)
        if keys == self._keys:
            return last
        try:
            scene = self._patch(last, keys, entries)
        except (pydantic.ValidationError, SceneError):
            return self._parse(data, setting, keys)  # raises parse_scene's first error
        return self._keep(setting, keys, scene)

    def _patch(self, last: Scene, keys: list[_Key], entries: list[Any]) -> Scene:
        """``last`` with these figure entries, only the new ones validated."""
        from arbitre.rules.registry import find_ruleset

        figures = []
        for index, (key, entry) in enumerate(zip(keys, entries, strict=True)):
            figure = self._figures.get(key)
            if figure is None:
                spec = FigureSpec.model_validate(entry)
                figure = _figure(self.source, index, spec, last.table, len(last.shared_errors))
            figures.append(figure)
        _check_names(self.source, figures)
        scene = dataclasses.replace(last, figures=tuple(figures))
        find_ruleset(scene.ruleset).validate(scene)
        return scene

    def _parse(self, data: Any, setting: _Key | None, keys: list[_Key]) -> Scene:
        scene = parse_scene(data, source=self.source)
        if setting is None:
            return scene
        return self._keep(setting, keys, scene)

    def _keep(self, setting: _Key, keys: list[_Key], scene: Scene) -> Scene:
        self._setting, self._scene, self._keys = setting, scene, keys
        self._figures = dict(zip(keys, scene.figures, strict=True))
        return scene


def _key(value: Any) -> _Key:
    """Plain data as bytes that tell apart what the scene reader would (``1``, ``1.0`` and
    ``True``; a changed order of keys only reads an entry again): pickled, so equal bytes
    are equal data of the same types; as text when pickle refuses a value."""
    try:
        return pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, ValueError):
        return repr(value)


def _scene_error(
    source: str,
    error: pydantic.ValidationError,
    prefix: str = "",
    model: type[pydantic.BaseModel] | None = None,
) -> SceneError:
    """The first problem of ``error`` (validating ``model``, when known: the nearest
    word it knows is named) as one line naming the file and the field."""
    first = first_error(error)
    meant = "" if model is None else hint(first, model)
    parts: list[str] = [prefix] if prefix else []
    for item in first["loc"]:
        if isinstance(item, int):
            parts[-1:] = [f"{parts[-1]}[{item}]"] if parts else [f"[{item}]"]
        elif item not in {"round", "square", "rect"}:  # pydantic's discriminator tags
            key = str(item)
            # a key with a line break or a control character is quoted: one line always
            parts.append(key if key.isprintable() and len(key) <= 40 else shown(item))
    field = ".".join(parts)
    kind = first["type"]
    if kind == "value_error":  # one of ours: the message alone, without pydantic's prefix
        message = str(first["msg"]).removeprefix("Value error, ")
        return SceneError(source, field, f"{message}, got {shown(first.get('input'))}")
    if kind == "extra_forbidden":
        return SceneError(source, field, f"unknown key{meant or ' (a typo?)'}")
    if kind == "missing":
        return SceneError(source, field, "missing")
    if kind == "too_long":
        context = first.get("ctx", {})
        return SceneError(
            source,
            field,
            f"at most {context.get('max_length')} items, got {context.get('actual_length')}",
        )
    return SceneError(source, field, f"{first['msg']}, got {shown(first.get('input'))}{meant}")


def _figure(source: str, index: int, spec: FigureSpec, table: Table, shared: int) -> Figure:
    """The figure of ``spec``; ``shared``: how many shared errors the scene names."""
    where = f"figures[{index}]"
    if spec.shared_mm is not None and len(spec.shared_mm) != shared:
        said = (
            f"{len(spec.shared_mm)} pairs, but the scene's shared_errors names {shared}"
            if shared
            else "given, but the scene names no shared_errors"
        )
        raise SceneError(source, f"{where}.shared_mm", said)
    for axis, value, limit, name in (
        ("x_mm", spec.x_mm, table.width_mm, "width"),
        ("y_mm", spec.y_mm, table.depth_mm, "depth"),
    ):
        if not 0.0 <= value <= limit:
            raise SceneError(
                source, f"{where}.{axis}", f"{value!r} is off the table ({name} {limit!r} mm)"
            )
    base = _base(spec.base)
    longest = max(table.width_mm, table.depth_mm)
    if base is not None and max(base.width_mm, base.depth_mm) > longest:
        raise SceneError(
            source,
            f"{where}.base",
            f"a base of {base.width_mm:g} x {base.depth_mm:g} mm is larger than the table"
            f" ({longest:g} mm at most)",
        )
    attrs = copy.deepcopy(spec.attrs)  # the figure's own: the caller's data may change
    if spec.marker_height_mm is not None:
        attrs.setdefault("marker_height_mm", spec.marker_height_mm)
    return Figure(
        id=spec.id,
        side=spec.side,
        x_mm=spec.x_mm,
        y_mm=spec.y_mm,
        group=spec.group,
        reference=spec.reference,
        facing_deg=spec.facing_deg,
        base=base,
        unit=spec.unit,
        type=spec.type,
        wounded=spec.wounded,
        sigma_mm=spec.sigma_mm,
        attrs=attrs,
        shared_mm=() if spec.shared_mm is None else tuple(spec.shared_mm),
        own_cov_mm2=spec.own_cov_mm2,
    )


def _base(spec: RoundBaseSpec | SquareBaseSpec | RectBaseSpec | None) -> Base | None:
    if spec is None:
        return None
    if isinstance(spec, RoundBaseSpec):
        return Base.round(spec.diameter_mm)
    if isinstance(spec, SquareBaseSpec):
        return Base(BaseShape.SQUARE, spec.side_mm, spec.side_mm)
    return Base(BaseShape.RECT, spec.width_mm, spec.depth_mm)


def _terrain(source: str, index: int, spec: TerrainSpec) -> TerrainFeature:
    where = f"terrain[{index}]"
    if (spec.polygon_mm is None) == (spec.line_mm is None):
        raise SceneError(source, where, "give exactly one of polygon_mm and line_mm")
    if spec.line_mm is not None and spec.kind is not TerrainKind.OBSTACLE:
        raise SceneError(source, f"{where}.line_mm", "only obstacles may be lines")
    problem = outline_problem(spec.polygon_mm, spec.line_mm)
    if problem is not None:
        field, words = problem
        raise SceneError(source, f"{where}.{field}", words)
    geometry: shapely.Polygon | shapely.LineString
    if spec.polygon_mm is not None:
        geometry = shapely.Polygon(spec.polygon_mm)
    else:
        assert spec.line_mm is not None
        geometry = shapely.LineString(spec.line_mm)
    return TerrainFeature(spec.id, spec.kind, geometry, spec.level, copy.deepcopy(spec.attrs))


def _check_names(source: str, figures: Sequence[Figure]) -> None:
    """Every figure id and group name unique among both: a question names a figure or a
    group, and a figure called like a group it is not in would be read as that group.
    A figure may give its group its own id (a group of one, or named after its leader)."""
    _check_unique(source, "figures", [figure.id for figure in figures])
    groups = {figure.group for figure in figures if figure.group is not None}
    for index, figure in enumerate(figures):
        if figure.id in groups and figure.group != figure.id:
            members = [f.id for f in figures if f.group == figure.id]
            raise SceneError(
                source,
                f"figures[{index}].id",
                f"{figure.id!r} names this figure and also group {figure.id!r} "
                f"({', '.join(map(repr, members[:3]))}{' ...' if len(members) > 3 else ''}), "
                "which it is not in: a question could not tell them apart; rename one",
            )


def _check_unique(source: str, what: str, ids: list[str]) -> None:
    seen: dict[str, int] = {}
    for index, ident in enumerate(ids):
        if ident in seen:
            raise SceneError(
                source,
                f"{what}[{index}].id",
                f"duplicate id {ident!r} (also {what}[{seen[ident]}])",
            )
        seen[ident] = index
