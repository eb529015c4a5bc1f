"""The errors of the rules core: bad input, never a rules verdict.

A question the rules answer "no" to is a normal answer carrying reasons; these
exceptions are raised only when the input itself is malformed.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of every error raised by `rules`."""


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
    """A ruleset name that the registry does not know."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"unsupported ruleset: {name!r}")


class QuestionError(RulesError):
    """A malformed question: unknown question, wrong arguments, unknown figure or group."""
