"""The nearest known word to a mistyped one: "did you mean ...?" in a refusal.

A file with ``rooster:`` for ``roster:``, ``kind: woods`` for ``wood``, a figure called
``alpin`` for the group ``alpins``: the refusal names what was meant. Used by the readers
of every file (scenes, rosters, tables, arbitre.yaml) and by the questions.

This module sits below the four parts of the package and imports none of them.
"""

from __future__ import annotations

import difflib
import re
import typing
from collections.abc import Iterable, Iterator
from typing import Any

import pydantic
from pydantic_core import ErrorDetails

LONGEST = 100
"""A word longer than this is not looked up among the known ones (nothing is that long)."""


def nearest_words(word: str, known: Iterable[str], count: int = 2) -> list[str]:
    """The known words nearest ``word`` (a typing slip, a letter missing or swapped), at
    most ``count``, nearest first; none for a word unlike them all.

    >>> nearest_words("chocbase", ["choc-base-6", "musg", "mbt"])
    ['choc-base-6']
    >>> nearest_words("Kind", ["kind", "side"]), nearest_words("x" * 1000, ["x"])
    (['kind'], [])
    """
    if len(word) > LONGEST:
        return []
    by_case: dict[str, str] = {}
    for candidate in known:
        if len(candidate) <= LONGEST:
            by_case.setdefault(candidate.casefold(), candidate)
    found = difflib.get_close_matches(word.casefold(), by_case, n=count, cutoff=0.6)
    return [by_case[key] for key in found]


def did_you_mean(nearest: Iterable[str]) -> str:
    """`` (did you mean 'a' or 'b'?)``, or nothing when there is no near word.

    >>> did_you_mean(["roster"]), did_you_mean([])
    (" (did you mean 'roster'?)", '')
    """
    words = " or ".join(map(repr, nearest))
    return f" (did you mean {words}?)" if words else ""


def first_error(error: pydantic.ValidationError) -> ErrorDetails:
    """The error to report of a validation's: the first one, but an unknown key before a
    missing one it is a slip for (``rooster:`` is the news, not ``roster: missing``)."""
    errors = error.errors(include_url=False)
    missing = {str(e["loc"][-1]) for e in errors if e["type"] == "missing" and e["loc"]}
    for item in errors:
        if item["type"] == "extra_forbidden" and item["loc"]:
            if nearest_words(str(item["loc"][-1]), missing, count=1):
                return item
    return errors[0]


def hint(item: ErrorDetails, model: type[pydantic.BaseModel]) -> str:
    """What the mistyped word of ``item`` (an error of validating ``model``) was meant to
    be, as `did_you_mean` words it: an unknown key among the keys ``model`` knows, a word
    outside a list of choices among those choices; nothing otherwise."""
    if item["type"] == "extra_forbidden" and item["loc"]:
        return did_you_mean(nearest_words(str(item["loc"][-1]), set(field_names(model))))
    expected = (item.get("ctx") or {}).get("expected")
    if item["type"] in ("literal_error", "enum") and isinstance(expected, str):
        given = item.get("input")
        if isinstance(given, str):
            return did_you_mean(nearest_words(given, re.findall(r"'([^']*)'", expected)))
    return ""


def field_names(model: type[pydantic.BaseModel]) -> Iterator[str]:
    """The names of the fields of ``model`` and of every model inside it."""
    seen: set[type[pydantic.BaseModel]] = set()
    pending = [model]
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        for name, field in current.model_fields.items():
            yield field.alias or name
            pending.extend(_models_in(field.annotation))


def _models_in(annotation: Any) -> Iterator[type[pydantic.BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, pydantic.BaseModel):
        yield annotation
        return
    for inner in typing.get_args(annotation):  # a union, list[...], dict[...]
        yield from _models_in(inner)
