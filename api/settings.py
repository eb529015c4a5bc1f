"""``arbitre.yaml``: one file for the live table (camera, table, roster, ruleset, source)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pydantic
import yaml
from pydantic import BaseModel, ConfigDict, Field

from arbitre.api.live import TableConfig
from arbitre.calibration.camera import load_camera
from arbitre.calibration.errors import CalibrationError
from arbitre.calibration.table import load_roster, load_table


class SourceSpec(BaseModel):
    """Where frames come from: exactly one of the fields."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    camera_index: int | None = None
    video: str | None = None
    folder: str | None = None
    url: str | None = None


class Settings(BaseModel):
    """The fields of arbitre.yaml; file paths are relative to the file itself."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    camera: str
    table: str
    roster: str
    ruleset: str = "choc-base-6"
    options: dict[str, Any] = Field(default_factory=dict)
    terrain: list[dict[str, Any]] = Field(default_factory=list)
    allies: list[list[str]] = Field(default_factory=list)
    source: SourceSpec | None = None


def load_settings(path: str | Path) -> tuple[Settings, TableConfig]:
    """Read arbitre.yaml and the files it names."""
    where = Path(path)
    try:
        data = yaml.safe_load(where.read_text(encoding="utf-8"))
    except OSError as error:
        raise CalibrationError(f"{where}: cannot read the file ({error.strerror})") from None
    except yaml.YAMLError as error:
        raise CalibrationError(f"{where}: malformed YAML ({error})".splitlines()[0]) from None
    try:
        settings = Settings.model_validate(data if isinstance(data, dict) else {})
    except pydantic.ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(p) for p in first["loc"])
        raise CalibrationError(f"{where}: {field}: {first['msg']}") from None
    base = where.parent
    config = TableConfig(
        camera=load_camera(base / settings.camera),
        table=load_table(base / settings.table),
        roster=load_roster(base / settings.roster),
        ruleset=settings.ruleset,
        options=settings.options,
        terrain=tuple(settings.terrain),
        allies=tuple(tuple(a) for a in settings.allies),
    )
    return settings, config
