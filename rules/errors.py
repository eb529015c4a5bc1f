"""The errors of the rules core: bad input, never a rules verdict.

A question the rules answer "no" to is a normal answer carrying reasons; these
exceptions are raised only when the input itself is malformed.
"""

from __future__ import annotations

import math
import reprlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from arbitre.nearest import did_you_mean, nearest_words


class RulesError(ValueError):
    """Base class of every error raised by `rules`.

    ``code`` and ``params``, when the error has them, say it in a form other languages
    can word (`arbitre.api.i18n.phrase_error`); the message is the English.
    """

    code: str | None = None
    params: Mapping[str, Any] = {}


class SceneError(RulesError):
    """A scene file (or a scene built in code) that is not valid.

    The message names the file and the field: ``scene.yaml: figures[2].x_mm: ...``.
    """

    def __init__(self, source: str, field: str, problem: str) -> None:
        self.source = source
        self.field = field
        self.problem = problem
        where = f"{source}: {field}" if field else source
        super().__init__(f"{where}: {problem}")


class UnsupportedRuleset(RulesError):
    """A ruleset name that the registry does not know: the known ones, and the nearest
    (``nearest``, in the order of `nearest_words`)."""

    def __init__(self, name: str, known: Sequence[str] = (), nearest: Sequence[str] = ()) -> None:
        self.name = name
        self.nearest = list(nearest)
        listed = f"; known: {', '.join(known)}" if known else ""
        super().__init__(f"unsupported ruleset: {shown(name)}{did_you_mean(nearest)}{listed}")


class QuestionError(RulesError):
    """A malformed question: unknown question, wrong arguments, unknown figure or group."""

    def __init__(self, message: str, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class UnknownName(QuestionError):
    """A name no figure (or group) of the scene has, with the nearest names it has.

    >>> str(UnknownName("figure or group", "alpin", ["alpins", "verts", "f1"]))
    "unknown figure or group 'alpin' (did you mean 'alpins'?)"
    >>> str(UnknownName("figure", "zz", ["alpins", "verts"]))
    "unknown figure 'zz'"
    """

    def __init__(self, what: str, name: str, known: Iterable[str]) -> None:
        self.what = what
        self.name = name
        self.nearest = nearest_words(name, known)
        super().__init__(
            f"unknown {what} {shown(name)}{did_you_mean(self.nearest)}",
            "unknown_" + what.replace(" ", "_"),
            name=shown(name),
            nearest=self.nearest,
        )


SHOWN_CHARS = 80
"""The longest a bad value is shown in a message."""

_SHORT = reprlib.Repr()
_SHORT.maxstring = 40
_SHORT.maxother = 40
_SHORT.maxlong = 40
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 6
_SHORT.maxlevel = 3


def stopped_after(limit_s: float) -> str:
    """Why a question was given up: the same words from the server and the command line.

    >>> stopped_after(10)
    'stopped after 10 s: the scene is too costly for this question'
    """
    return f"stopped after {limit_s:g} s: the scene is too costly for this question"


def shown(value: object) -> str:
    """A short ``repr`` of a bad value, for a one-line message (never the whole input).

    >>> shown("x" * 100)
    "'xxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxx'"
    >>> shown(10**5000)
    'an integer of about 5001 digits'
    >>> shown(float("nan")), shown(True), shown(None)
    ('nan', 'true', 'null')

    A boolean and None read as the YAML or JSON the user wrote (``true``, ``null``).
    """
    if isinstance(value, bool) or value is None:
        return "null" if value is None else str(value).lower()
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"an integer of about {int(value.bit_length() * math.log10(2)) + 1} digits"
    try:
        text = _SHORT.repr(value)
    except (ValueError, RecursionError, TypeError):
        return f"a {type(value).__name__}"
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "..."


def error_fields(error: Exception) -> dict[str, Any]:
    """What an error says, as plain data another process (or an HTTP refusal) carries: its
    first line as ``detail``, and ``code`` and ``params`` when it has a code.

    >>> error_fields(QuestionError("no figure 'x'", "unknown_figure", name="'x'"))
    {'detail': "no figure 'x'", 'code': 'unknown_figure', 'params': {'name': "'x'"}}
    >>> error_fields(ValueError())
    {'detail': 'ValueError'}
    """
    detail = str(error).splitlines()[0] if str(error) else type(error).__name__
    code = getattr(error, "code", None)
    if not code:
        return {"detail": detail}
    return {"detail": detail, "code": code, "params": dict(getattr(error, "params", {}))}
