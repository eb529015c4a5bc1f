"""Reading the YAML files of `calibration`, with errors that name the file and the field.

Every file is read by `arbitre.files.read_bounded` (a regular file, at most
`MAX_FILE_BYTES`) and parsed by `arbitre.files.load_yaml` (no aliases, a bounded nesting
and number of values), so a device, a FIFO, a huge or deeply nested file is one line.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pydantic
import yaml

from arbitre.calibration.errors import CalibrationFileError
from arbitre.files import MAX_YAML_BYTES, BoundedLoader, FileReadError, load_yaml, read_bounded
from arbitre.nearest import first_error, hint

MAX_FILE_BYTES = MAX_YAML_BYTES
"""The largest camera, board, table or roster file read."""


def read_text(path: str | Path) -> str:
    """The text of a file, or a `CalibrationFileError` saying why it cannot be read."""
    source = str(path)
    try:
        raw = read_bounded(path, MAX_FILE_BYTES)
    except FileReadError as error:
        raise CalibrationFileError(source, "", f"cannot read the file ({error.reason})") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CalibrationFileError(source, "", "not a text file (it is not UTF-8)") from None


def parse_yaml(text: str, source: str, loader: type[BoundedLoader] = BoundedLoader) -> Any:
    """Parse YAML text; a syntax error, an alias, a nesting deeper than 40 levels or too
    many values become a `CalibrationFileError` giving the line."""
    try:
        return load_yaml(text, loader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or "invalid YAML"
        raise CalibrationFileError(source, where, f"not valid YAML ({problem})") from None


def read_mapping(path: str | Path) -> dict[str, Any]:
    """Read a YAML file whose top level must be a mapping."""
    source = str(path)
    data = parse_yaml(read_text(path), source)
    if not isinstance(data, Mapping):
        kind = "empty" if data is None else f"a {type(data).__name__}"
        raise CalibrationFileError(source, "", f"expected a mapping of fields, the file is {kind}")
    return {str(key): value for key, value in data.items()}


def field_path(location: tuple[int | str, ...]) -> str:
    """``('anchors', 2, 'x_mm')`` -> ``'anchors[2].x_mm'``."""
    text = ""
    for part in location:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


class FieldProblem(ValueError):
    """Raised inside a pydantic validator to name the field at fault and the problem."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


def file_error(
    source: str, error: pydantic.ValidationError, model: type[pydantic.BaseModel]
) -> CalibrationFileError:
    """The first problem of a pydantic validation error of ``model``, as one line naming
    file and field, and the nearest word ``model`` knows to a mistyped one."""
    first = first_error(error)
    meant = hint(first, model)
    cause = first.get("ctx", {}).get("error")
    if isinstance(cause, FieldProblem):
        prefix = field_path(tuple(first["loc"]))
        field = f"{prefix}.{cause.field}" if prefix and cause.field else prefix or cause.field
        return CalibrationFileError(source, field, cause.problem)
    location = tuple(
        part for part in first["loc"] if not (isinstance(part, str) and part.endswith("Spec"))
    )
    kind = first["type"]
    if kind == "missing":
        problem = "missing"
    elif kind == "extra_forbidden":
        problem = f"unknown field{meant}"
    else:
        message = str(first["msg"])
        message = message.removeprefix("Value error, ")
        problem = f"{message[:1].lower()}{message[1:]}, got {first.get('input')!r}{meant}"
    return CalibrationFileError(source, field_path(location), problem)
