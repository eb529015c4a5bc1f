"""The options of a question (``--with KEY=VALUE``, HTTP ``extras``): one typed layer.

A question's handler declares its options as keyword parameters with a default,
annotated with the types below (or a rule system's own, built alike); `bind_options`
validates what a user gives against them with pydantic in strict mode, so that a die
is an integer 1 to 6 (not ``3.5``, ``true`` or ``"abc"``), a flag is ``true`` or
``false`` (not ``1`` or ``"yes"``) and every number is finite and bounded. A bad value
is one `QuestionError` line naming the option and what it takes::

    a die shows 1 to 6, got 0 (option die of damage)

Each type carries a `Takes`: what it takes, in words, for that line and for the
documentation (`options_table`).
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Literal

import pydantic
from pydantic import BeforeValidator, Field, TypeAdapter

from arbitre.bounds import LONGEST_MM
from arbitre.rules.errors import QuestionError
from arbitre.rules.errors import shown as shown  # one short repr for every message


@dataclass(frozen=True, slots=True)
class Takes:
    """What an option takes, in words: ``a die shows 1 to 6``."""

    text: str


MAX_COUNT = 1000
"""The largest count an option may give (hits, henchmen)."""

MAX_DICE = 60
"""The most dice one option may list."""

MAX_SIDES = 64
"""The most sides a per-side option may name."""

MAX_NAME = 100
"""The longest name an option may give."""

_DIGITS = re.compile(r"[0-9]{1,3}")


def _name_text(value: object) -> object:
    """YAML reads ``blue: 3`` fine but ``1: 3`` with an integer key; names are text."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


def _dice_list(value: object) -> object:
    """``3,5`` or ``3 5`` (text) and a lone ``3`` become a list of faces; the rest is
    left to the strict check."""
    if isinstance(value, int) and not isinstance(value, bool):
        return [value]
    if isinstance(value, str):
        parts = value.replace(",", " ").split()
        if parts and all(_DIGITS.fullmatch(part) for part in parts):
            return [int(part) for part in parts]
    if isinstance(value, tuple):
        return list(value)
    return value


def _side_pairs(value: object) -> object:
    """``blue:3,red:5`` (text) becomes ``{"blue": 3, "red": 5}``; the rest is left to the
    strict check."""
    if not isinstance(value, str):
        return value
    pairs: dict[str, object] = {}
    for item in value.split(","):
        name, colon, roll = item.strip().partition(":")
        if not colon or not name.strip() or not _DIGITS.fullmatch(roll.strip()):
            return value
        pairs[name.strip()] = int(roll.strip())
    return pairs


_Face = Annotated[int, Field(ge=1, le=6)]
_Name = Annotated[str, BeforeValidator(_name_text), Field(min_length=1, max_length=MAX_NAME)]
_Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]

Die = Annotated[int, Field(ge=1, le=6), Takes("a die shows 1 to 6")]
"""A die the players rolled: an integer 1 to 6."""

D3 = Annotated[int, Field(ge=1, le=3), Takes("a 1d3 shows 1 to 3")]
"""A 1d3 the players rolled: an integer 1 to 3."""

Dice = Annotated[
    list[_Face],
    BeforeValidator(_dice_list),
    Field(min_length=1, max_length=MAX_DICE),
    Takes(f"dice show 1 to 6: a list like [3, 5] (or 3,5), at most {MAX_DICE}"),
]
"""Dice the players rolled, in order: a list of integers 1 to 6."""

SideDice = Annotated[
    dict[_Name, _Face],
    BeforeValidator(_side_pairs),
    Field(max_length=MAX_SIDES),
    Takes("a die per side, each 1 to 6: {blue: 3, red: 5} (or blue:3,red:5)"),
]
"""A die for each side: ``{side: 1..6}``."""

SideCounts = Annotated[
    dict[_Name, _Count],
    Field(max_length=MAX_SIDES),
    Takes(f"a count per side, each 0 to {MAX_COUNT}: {{blue: 2, red: 4}}"),
]
"""A count for each side: ``{side: 0..MAX_COUNT}``."""

Flag = Annotated[bool, Takes("only true or false")]
"""Yes or no: ``true`` or ``false`` only."""

Count = Annotated[int, Field(ge=0, le=MAX_COUNT), Takes(f"a whole number 0 to {MAX_COUNT}")]
"""A count: an integer 0 to `MAX_COUNT`."""

Bonus = Annotated[int, Field(ge=-100, le=100), Takes("a whole number -100 to 100")]
"""A bonus or a malus added to a total: an integer -100 to 100."""

Degrees = Annotated[
    float,
    Field(ge=-360, le=360, allow_inf_nan=False),
    Takes("an angle in degrees, a number -360 to 360"),
]
"""An angle in degrees, counter-clockwise from +x: a finite number -360 to 360."""

Name = Annotated[_Name, Takes("a name (text)")]
"""A side's or a figure's name: text of 1 to `MAX_NAME` characters."""


# --- numbers of a scene's options (``options:``), strict alike: never a boolean -------------

MAX_OPTION_MM = LONGEST_MM
"""The longest length a scene's option may give (100 m, the largest table)."""

MIN_LENGTH_MM = 1.0
"""The shortest length a scene's option may give: about what a camera sees (a smaller
unit would only turn every answer into a number of hundreds of digits)."""

LengthMm = Annotated[
    float, Field(ge=MIN_LENGTH_MM, le=MAX_OPTION_MM, allow_inf_nan=False, strict=True)
]
"""A length in mm, `MIN_LENGTH_MM` to `MAX_OPTION_MM`."""

GapMm = Annotated[float, Field(ge=0, le=MAX_OPTION_MM, allow_inf_nan=False, strict=True)]
"""A gap or tolerance in mm, 0 to `MAX_OPTION_MM`."""

FiniteNumber = Annotated[
    float, Field(ge=-MAX_OPTION_MM, le=MAX_OPTION_MM, allow_inf_nan=False, strict=True)
]
"""Any number within `MAX_OPTION_MM` either way (a position in mm, an angle in degrees),
the bound `PUT /api/options` sets on every number."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a question: its name, what it takes, its default and its validator."""

    name: str
    takes: str
    default: object
    adapter: TypeAdapter[Any]

    def validate(self, value: object, question: str) -> object:
        """The value checked (strict) and converted; `QuestionError` naming the option."""
        try:
            return self.adapter.validate_python(value, strict=True)
        except pydantic.ValidationError:
            raise QuestionError(
                f"{self.takes}, got {shown(value)} (option {self.name} of {question})"
            ) from None
        except (ValueError, TypeError, RecursionError):  # huge ints, odd objects
            raise QuestionError(
                f"{self.takes}, got a value that is not one (option {self.name} of {question})"
            ) from None


def question_options(handler: Callable[..., Any]) -> dict[str, OptionSpec]:
    """The options a question's handler declares: its keyword parameters with a default.

    Raises TypeError when an option is not annotated with a type that says what it
    takes (a `Takes`, or a ``Literal`` of choices): every option must be typed.
    """
    return _options_of(getattr(handler, "__func__", handler))


@cache
def _options_of(function: Callable[..., Any]) -> dict[str, OptionSpec]:
    hints = typing.get_type_hints(function, include_extras=True)
    found: dict[str, OptionSpec] = {}
    for parameter in inspect.signature(function).parameters.values():
        if parameter.default is inspect.Parameter.empty:
            continue
        annotation = hints.get(parameter.name)
        takes = _takes(annotation)
        if annotation is None or takes is None:
            raise TypeError(
                f"{function.__qualname__}: option {parameter.name!r} has no typed annotation "
                "saying what it takes (use a type of arbitre.rules.options)"
            )
        found[parameter.name] = OptionSpec(
            parameter.name, takes, parameter.default, TypeAdapter(annotation)
        )
    return found


def _takes(annotation: object) -> str | None:
    """The words of an option's type: its `Takes`, or its choices when a ``Literal``."""
    if annotation is None:
        return None
    arms = [arm for arm in typing.get_args(annotation) if arm is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(arms) == 1:
        return _takes(arms[0])
    if typing.get_origin(annotation) is Annotated:
        said = [item.text for item in annotation.__metadata__ if isinstance(item, Takes)]  # type: ignore[attr-defined]
        if said:
            return said[-1]
        return _takes(typing.get_args(annotation)[0])
    if typing.get_origin(annotation) is Literal:
        choices = [str(choice) for choice in typing.get_args(annotation)]
        return "one of " + ", ".join(choices)
    return None


def bind_options(
    question: str, handler: Callable[..., Any], extras: Mapping[str, object] | None
) -> dict[str, object]:
    """The options given to a question, each checked against the handler's declaration.

    Raises `QuestionError` for an option the question does not take, or a value that is
    not what the option takes (one line naming the option).
    """
    if extras is None or (isinstance(extras, Mapping) and not extras):
        return {}
    if not isinstance(extras, Mapping):
        raise QuestionError(f"a question's options are KEY: VALUE pairs, got {shown(extras)}")
    declared = question_options(handler)
    unknown = [key for key in extras if not isinstance(key, str) or key not in declared]
    if unknown:
        names = ", ".join(sorted(_option_name(key) for key in unknown))
        taken = ", ".join(declared)
        raise QuestionError(
            f"{question} does not take {names[:200]}"
            + (f" (it takes: {taken})" if taken else " (it takes no options)")
        )
    return {key: declared[key].validate(value, question) for key, value in extras.items()}


def _option_name(key: object) -> str:
    """An option's name as given: bare when it reads as one, else quoted and short."""
    if isinstance(key, str) and key.isidentifier() and len(key) <= 40:
        return key
    return shown(key)


def options_table(questions: Iterable[tuple[str, Callable[..., Any]]]) -> str:
    """A markdown table of every option of ``questions``: question, option, takes, default."""
    lines = ["| question | option | takes | default |", "|---|---|---|---|"]
    for name, handler in questions:
        for option in question_options(handler).values():
            default = "none" if option.default is None else f"`{_yaml(option.default)}`"
            lines.append(f"| `{name}` | `{option.name}` | {option.takes} | {default} |")
    return "\n".join(lines)


def _yaml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
