"""What every rule system offers: options, validation, a unit and the questions it answers."""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from arbitre.rules.answers import Answer, Unit
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Figure, Scene

OptionsT = TypeVar("OptionsT")


@dataclass(frozen=True, slots=True)
class Question:
    """A question a ruleset answers: its argument names and the method answering it."""

    name: str
    args: tuple[str, ...]
    summary: str
    handler: Callable[..., Answer]


class Ruleset:
    """Base of the rule systems. Subclasses set ``name``, ``aliases`` and their questions."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()

    def parse_options(self, raw: Mapping[str, Any]) -> Any:
        """Validate a scene's ``options:`` (raise pydantic.ValidationError when bad)."""
        raise NotImplementedError

    def validate(self, scene: Scene) -> None:
        """Check what the rule system needs of a scene (raise SceneError when bad)."""

    def unit(self, scene: Scene) -> Unit:
        raise NotImplementedError

    def questions(self) -> Mapping[str, Question]:
        raise NotImplementedError

    def ask(
        self,
        scene: Scene,
        question: str,
        args: Sequence[str],
        extras: Mapping[str, Any] | None = None,
    ) -> Answer:
        """Answer ``question`` with positional ``args`` and keyword ``extras`` (e.g. ``die``)."""
        known = self.questions()
        if question not in known:
            names = ", ".join(sorted(known))
            raise QuestionError(f"unknown question {question!r} for {self.name} (known: {names})")
        spec = known[question]
        if len(args) != len(spec.args):
            wanted = " ".join(spec.args) if spec.args else "no arguments"
            raise QuestionError(
                f"{question} takes {len(spec.args)} argument(s) ({wanted}), got {list(args)!r}"
            )
        options = dict(extras or {})
        try:
            inspect.signature(spec.handler).bind(scene, *args, **options)
        except TypeError:
            taken = [
                name
                for name, parameter in inspect.signature(spec.handler).parameters.items()
                if parameter.kind is inspect.Parameter.KEYWORD_ONLY
                or (parameter.default is not inspect.Parameter.empty)
            ]
            raise QuestionError(
                f"{question} does not take {', '.join(sorted(options))}"
                + (f" (it takes: {', '.join(taken)})" if taken else " (it takes no options)")
            ) from None
        return spec.handler(scene, *args, **options)


def coordinate_mm(text: str, name: str) -> float:
    """A question's coordinate argument, in mm.

    >>> coordinate_mm("12.5", "X")
    12.5
    """
    try:
        value = float(text)
    except ValueError:
        raise QuestionError(f"{name} must be a number of millimetres, got {text!r}") from None
    if not math.isfinite(value):
        raise QuestionError(f"{name} must be finite, got {text!r}")
    return value


def scene_options(scene: Scene, kind: type[OptionsT]) -> OptionsT:
    """The scene's options, which must be of the ruleset's own type ``kind``."""
    options = scene.options
    if not isinstance(options, kind):
        raise TypeError(f"expected {kind.__name__} options, got {type(options).__name__}")
    return options


def figure_named(scene: Scene, name: str) -> Figure:
    """The figure called ``name``; `QuestionError` when there is none."""
    figure = scene.figure(name)
    if figure is None:
        raise QuestionError(f"unknown figure {name!r}")
    return figure
