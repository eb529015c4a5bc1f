"""``arbitre.yaml``: one file for the live table (camera, table, roster, ruleset, source)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pydantic
import yaml
from pydantic import BaseModel, ConfigDict, Field

from arbitre.api.live.sources import SOURCE_KINDS, SourceKind, find_kind
from arbitre.api.live.table import TableConfig, scene_document
from arbitre.calibration.camera import load_camera
from arbitre.calibration.errors import CalibrationError
from arbitre.calibration.table import load_roster, load_table
from arbitre.files import (
    MAX_YAML_BYTES,
    FileReadError,
    FileWriteError,
    beyond_bounds,
    load_yaml,
    read_bounded,
    write_atomically,
)
from arbitre.nearest import first_error, hint
from arbitre.rules.errors import RulesError
from arbitre.rules.registry import find_ruleset
from arbitre.rules.scene import parse_scene
from arbitre.vision.tracking import Track


class _OneSource(BaseModel):
    """What `SourceSpec` does; its fields, one per kind, come from `SOURCE_KINDS`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @pydantic.model_validator(mode="after")
    def _exactly_one(self) -> _OneSource:
        given = [name for name, value in self if value is not None]
        if len(given) != 1:
            *first, last = (kind.key for kind in SOURCE_KINDS)
            names = f"{', '.join(first)} or {last}"
            found = f"got {' and '.join(given)}" if given else "got none"
            raise ValueError(f"give one source: {names} ({found})")
        return self

    def chosen(self) -> tuple[SourceKind, Any]:
        """The kind of source given and its value."""
        key, value = next((key, value) for key, value in self if value is not None)
        return find_kind(key), value


if TYPE_CHECKING:  # a checker sees the methods; the fields are made from the table
    SourceSpec = _OneSource
else:
    SourceSpec = pydantic.create_model(
        "SourceSpec",
        __base__=_OneSource,
        __module__=__name__,
        __doc__="Where frames come from: exactly one of the fields.",
        **{
            kind.key: ((int if kind.value_type is int else str) | None, None)
            for kind in SOURCE_KINDS
        },
    )


class CameraSpec(BaseModel):
    """One of several cameras: its camera.yaml and where its frames come from."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    camera: str
    source: SourceSpec | None = None


MAX_CAMERAS = 8
"""A table is watched by a few cameras: more in arbitre.yaml is a mistake."""


class Settings(BaseModel):
    """The fields of arbitre.yaml; file paths are relative to the file itself. A table
    has ``camera`` (and ``source``), or ``cameras``: one entry per camera."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    camera: str | None = None
    cameras: list[CameraSpec] | None = Field(default=None, min_length=1, max_length=MAX_CAMERAS)
    table: str
    roster: str
    ruleset: str = "choc-base-6"
    options: dict[str, Any] = Field(default_factory=dict)
    terrain: list[dict[str, Any]] = Field(default_factory=list)
    allies: list[list[str]] = Field(default_factory=list)
    source: SourceSpec | None = None

    @pydantic.model_validator(mode="after")
    def _one_way_to_name_cameras(self) -> Settings:
        if self.camera is None and self.cameras is None:
            raise ValueError("give camera: (one camera) or cameras: (several)")
        if self.camera is not None and self.cameras is not None:
            raise ValueError("give camera: (one camera) or cameras: (several), not both")
        if self.cameras is not None and self.source is not None:
            raise ValueError("with cameras:, each camera has its own source: (none at the top)")
        return self

    @property
    def camera_specs(self) -> list[CameraSpec]:
        """Every camera with its source: ``cameras``, or ``camera`` and ``source``."""
        if self.cameras is not None:
            return list(self.cameras)
        return [CameraSpec(camera=str(self.camera), source=self.source)]


JOURNAL_FILE = "journal.sqlite"
"""The game journal's file, beside arbitre.yaml unless ``serve --journal`` says otherwise."""


def journal_beside(config_path: str | Path) -> Path:
    """Where ``serve --config`` keeps the game journal: `JOURNAL_FILE` beside arbitre.yaml.

    >>> journal_beside("club/arbitre.yaml").as_posix()
    'club/journal.sqlite'
    """
    return Path(config_path).with_name(JOURNAL_FILE)


def load_settings(path: str | Path) -> tuple[Settings, TableConfig]:
    """Read arbitre.yaml and the files it names."""
    where = Path(path)
    _text, data = _read_config(where)
    try:
        settings = Settings.model_validate(data if isinstance(data, dict) else {})
    except pydantic.ValidationError as error:
        first = first_error(error)
        field = ".".join(str(p) for p in first["loc"])
        if first["type"] == "extra_forbidden":
            message = f"unknown key{hint(first, Settings) or ' (a typo?)'}"
        else:
            message = str(first["msg"]).removeprefix("Value error, ") + hint(first, Settings)
        raise CalibrationError(f"{where}: {field + ': ' if field else ''}{message}") from None
    base = where.parent
    roster = load_roster(base / settings.roster)
    clash = roster.clashing_terrain(str(piece.get("id")) for piece in settings.terrain)
    if clash is not None:
        raise CalibrationError(f"{where}: terrain: {clash}")
    cameras = [load_camera(base / spec.camera) for spec in settings.camera_specs]
    config = TableConfig(
        camera=cameras[0],
        more_cameras=tuple(cameras[1:]),
        table=load_table(base / settings.table),
        roster=roster,
        ruleset=settings.ruleset,
        options=settings.options,
        terrain=tuple(settings.terrain),
        allies=tuple(tuple(a) for a in settings.allies),
        config_path=where,
    )
    check_rules(config, where)
    return settings, config


def check_rules(config: TableConfig, where: Path) -> None:
    """Refuse, naming the file, what the rules would refuse at every question: a ruleset
    they do not know, options or terrain they do not take, a roster figure whose kind or
    attributes they do not take (each figure is tried alone, in the table's middle)."""
    table = config.table
    middle = (table.width_mm / 2, table.depth_mm / 2)
    tracks = [
        Track(figure.marker, *middle, 1.0, 0.0, False, 0.0, True, 0.0, 0.0)
        for figure in config.roster.figures
    ]
    try:
        parse_scene(scene_document(config, (), ()), source=str(where))
        for track in tracks:
            parse_scene(scene_document(config, (track,), ()), source=str(where))
    except RulesError as error:
        raise CalibrationError(str(error).splitlines()[0]) from None


class UnloadableSettings(CalibrationError):
    """A change arbitre.yaml could not be read back with at the next start: refused."""


def save_terrain(path: str | Path, terrain: Sequence[Mapping[str, Any]]) -> None:
    """Write new fixed terrain into arbitre.yaml, keeping its other keys, atomically.

    Only the top-level ``terrain:`` block is replaced (added at the end when absent),
    so the user's comments elsewhere stay; when the file's layout does not allow that
    (a flow mapping at the top, say), the whole file is written again from its data.
    The text is read back first, then goes through `arbitre.files.write_atomically` (a
    temporary file beside it, flushed and synced, then ``os.replace``): a reader sees
    the old file or the new one, never half of one. The new text is read back first by
    the bounded reader the server's start uses: a change it would refuse (too deep, too
    many values, too large) raises `UnloadableSettings` and leaves the file as it was.
    Raises `CalibrationError` when the file cannot be read or written.
    """
    where = Path(path)
    text, data = _read_config(where)
    if not isinstance(data, dict):
        raise CalibrationError(f"{where}: expected a mapping at the top level")
    pieces = [dict(piece) for piece in terrain]
    wanted = {**data, "terrain": pieces}
    too_much = beyond_bounds(wanted)
    if too_much is not None:
        raise UnloadableSettings(f"{where}: the new terrain would not load again ({too_much})")
    new_text = _with_terrain_block(text, pieces)
    try:
        kept = load_yaml(new_text) == wanted
    except yaml.YAMLError:
        kept = False
    if not kept:
        new_text = yaml.safe_dump(wanted, sort_keys=False, allow_unicode=True)

    def reads_back(data: bytes) -> None:
        """The new file as the server's start reads it: within its size, by the same
        bounded reader, to the same data."""
        if len(data) > MAX_YAML_BYTES:
            raise UnloadableSettings(
                f"{where}: the new terrain would not load again "
                f"(more than {MAX_YAML_BYTES:,} bytes)"
            )
        try:
            same = load_yaml(data.decode("utf-8")) == wanted
        except yaml.YAMLError as error:
            problem = getattr(error, "problem", None) or "not valid YAML"
            raise UnloadableSettings(
                f"{where}: the new terrain would not load again ({problem})"
            ) from None
        if not same:  # never: both texts were made from `wanted`
            raise CalibrationError(f"{where}: the new text does not read back as written")

    try:
        write_atomically(where, new_text, validate=reads_back)
    except FileWriteError as error:
        raise CalibrationError(str(error)) from None


def _read_config(where: Path) -> tuple[str, Any]:
    """The text of arbitre.yaml and its data, read within bounds (`arbitre.files`): a
    device, a FIFO, a huge file, an alias or a deep nesting is one `CalibrationError`."""
    try:
        text = read_bounded(where, MAX_YAML_BYTES).decode("utf-8")
    except FileReadError as error:
        raise CalibrationError(f"{where}: cannot read the file ({error.reason})") from None
    except UnicodeDecodeError:
        raise CalibrationError(f"{where}: not a text file (it is not UTF-8)") from None
    try:
        return text, load_yaml(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where_in = f" line {mark.line + 1}:" if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise CalibrationError(f"{where}:{where_in} malformed YAML ({problem})") from None


def _with_terrain_block(text: str, pieces: list[dict[str, Any]]) -> str:
    """The text with its top-level ``terrain:`` block replaced by ``pieces``.

    The block is the key's line and the lines after it that are indented, list items,
    blank or comments, less the blank lines and comments that open the next key.
    """
    block = yaml.safe_dump(
        {"terrain": pieces}, sort_keys=False, allow_unicode=True, default_flow_style=None
    )
    lines = text.splitlines(keepends=True)
    first = next((i for i, line in enumerate(lines) if _TERRAIN_KEY.match(line)), None)
    if first is None:
        return text + ("" if not text or text.endswith("\n") else "\n") + block
    end = first + 1
    while end < len(lines) and _IN_BLOCK.match(lines[end]):
        end += 1
    while end > first + 1 and _LOOSE.match(lines[end - 1]):
        end -= 1
    return "".join(lines[:first]) + block + "".join(lines[end:])


_TERRAIN_KEY = re.compile(r"terrain\s*:")
_IN_BLOCK = re.compile(r"[ \t]|-|#|\r?\n|$")
_LOOSE = re.compile(r"\s*(#.*)?$")


def without_height(config: TableConfig) -> str | None:
    """The warning for roster figures without ``marker_height_mm`` (None when all have one)."""
    names = [f.name for f in config.roster.figures if f.marker_height_mm is None]
    if not names:
        return None
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return (
        f"no marker_height_mm in the roster for {shown}: their markers are placed as if lying "
        "on the table (a marker on a head then lands tens of mm off)"
    )


def summary(settings: Settings, config: TableConfig) -> list[str]:
    """What an arbitre.yaml sets up, in a few lines: cameras, table, roster, rules (the
    unit as the rule system measures on this table, its options given)."""
    lines = []
    for spec, camera in zip(settings.camera_specs, config.cameras, strict=True):
        width, height = camera.image_size
        rms = "" if camera.rms_px is None else f", calibrated to {camera.rms_px:.2f} px"
        lines.append(
            f"camera: {spec.camera} ({width} x {height} px{rms}), "
            f"source: {_source_words(spec.source)}"
        )
    table = config.table
    anchors = ", ".join(str(a.id) for a in table.anchors)
    lines.append(
        f"table: {settings.table}, {table.width_mm:g} x {table.depth_mm:g} mm, "
        f"{len(table.anchors)} anchors ({anchors}), {table.dictionary}"
    )
    roster = config.roster
    pieces = f", {len(roster.terrain)} terrain pieces on markers" if roster.terrain else ""
    lines.append(f"roster: {settings.roster}, {len(roster.figures)} figures{pieces}")
    ruleset = find_ruleset(config.ruleset)
    unit = ruleset.unit(parse_scene(scene_document(config, (), ())))
    options = ", ".join(f"{k}: {v}" for k, v in config.options.items()) or "none"
    fixed = ", ".join(str(piece.get("id")) for piece in config.terrain) or "none"
    lines.append(f"rules: {ruleset.name}, 1 {unit.name} = {unit.mm:g} mm; options: {options}")
    lines.append(f"terrain: {fixed}")
    return lines


def _source_words(source: SourceSpec | None) -> str:
    if source is None:
        return "none in the file (give one to serve: --camera-index, --video, ...)"
    kind, value = source.chosen()
    return f"{kind.title} {value}"
