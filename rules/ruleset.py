"""What every rule system offers: options, validation, a unit and the questions it answers."""

from __future__ import annotations

import itertools
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Protocol, TypeVar

import pydantic

from arbitre.rules.answers import (
    Answer,
    ContactAnswer,
    DistanceAnswer,
    Margin,
    Unit,
    counted,
    in_units,
    with_certainty,
)
from arbitre.rules.errors import QuestionError, SceneError, UnknownName
from arbitre.rules.lazy import Deferred
from arbitre.rules.model import Figure, Scene, sigma_between
from arbitre.rules.options import bind_options, shown

OptionsT = TypeVar("OptionsT")


@dataclass(frozen=True, slots=True)
class Question:
    """A question a ruleset answers: its argument names and the function answering it.

    The handler takes the scene, one ``str`` per argument, then its options as keyword
    parameters with defaults, each annotated with a type of `arbitre.rules.options` (or a
    ``Literal`` of choices) that says what it takes. Every rule system declares its
    questions this way, in its ``questions()`` table, naming the function itself, or, for
    a function of a module that should load only when its question is asked, naming it
    through a `arbitre.rules.lazy.deferred_module` (a `Deferred`).
    """

    name: str
    args: tuple[str, ...]
    summary: str
    answerer: Callable[..., Answer] | Deferred

    @property
    def handler(self) -> Callable[..., Answer]:
        """The function answering the question (its module imported if need be)."""
        if isinstance(self.answerer, Deferred):
            handler: Callable[..., Answer] = self.answerer.resolve()
            return handler
        return self.answerer


@dataclass(frozen=True, slots=True)
class Measure:
    """A length a rule system measures between two of its things (figures or groups):
    the figures it is measured from, whose uncertainties count, the length in mm, and how
    it was measured (``mode``: ``reference``, ``head``, ``edge``, ``centre``, ``rect``)."""

    first: Figure
    second: Figure
    mm: float
    mode: str


@dataclass(frozen=True, slots=True)
class Gap:
    """How far apart two things are for contact: the figures measured, their gap in mm
    (negative when their bases overlap, as the rule system reports it) and the gap up to
    which (or under which, `Ruleset.contact_up_to`) they touch."""

    first: Figure
    second: Figure
    gap_mm: float
    threshold_mm: float
    sigma_mm: float | None = None
    """The gap's 1-sigma when it is not measured along the line between the two figures
    (MBT's rectangles meet along their edges); None: along it."""

    def margin(self) -> Margin:
        """How far the gap lies from the threshold, with its uncertainty."""
        sigma = sigma_between(self.first, self.second) if self.sigma_mm is None else self.sigma_mm
        return Margin("contact", abs(self.threshold_mm - self.gap_mm), sigma)


class Ruleset(ABC):
    """Base of the rule systems: each names itself (``name``, ``aliases``), gives its
    options' model, its unit and its questions (`MeasuringRuleset` answers distance and
    contact for those that measure the open table in millimetres)."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    options_model: ClassVar[type[pydantic.BaseModel]]
    """The ``options:`` a scene may give, with their defaults."""

    def parse_options(self, raw: Mapping[str, Any]) -> Any:
        """Validate a scene's ``options:`` (raise pydantic.ValidationError when bad)."""
        return self.options_model.model_validate(dict(raw))

    def validate(self, scene: Scene) -> None:
        """Check what the rule system needs of a scene (raise SceneError when bad); by
        default nothing beyond what every scene is checked for."""
        return None

    @abstractmethod
    def unit(self, scene: Scene) -> Unit:
        """The unit the scene is measured in (its options may set its length)."""

    def grid(self, scene: Scene) -> dict[str, Any] | None:
        """The cells laid on the table when the scene plays on a grid, for drawing them:
        ``kind`` (``hex`` or ``square``), ``cell_mm`` (centre to centre), ``origin_mm``
        (the centre of cell 0, 0), ``rotation_deg`` (counter-clockwise) and ``pointy``
        (hexes with neighbours along the grid's x axis). None on open ground."""
        return None

    @abstractmethod
    def questions(self) -> Mapping[str, Question]:
        """Every question the rule system answers, by name."""

    @cached_property
    def known_questions(self) -> Mapping[str, Question]:
        """`questions`, made once: the table `ask` looks a question up in."""
        return self.questions()

    def ask(
        self,
        scene: Scene,
        question: str,
        args: Sequence[str],
        extras: Mapping[str, Any] | None = None,
    ) -> Answer:
        """Answer ``question`` with positional ``args`` and keyword ``extras`` (e.g. ``die``).

        Each extra is checked against the option the handler declares, typed with
        `arbitre.rules.options` (strict: a die is an integer 1 to 6, a flag true or false);
        a bad question, argument or option is one `QuestionError` line.
        """
        if not isinstance(question, str):
            raise QuestionError(f"a question is a name, got {shown(question)}")
        known = self.known_questions
        if question not in known:
            names = ", ".join(sorted(known))
            raise QuestionError(
                f"unknown question {shown(question)} for {self.name} (known: {names})",
                "unknown_question",
                question=shown(question),
                ruleset=self.name,
                known=names,
            )
        spec = known[question]
        if (
            not isinstance(args, Sequence)
            or isinstance(args, str | bytes)
            or not all(isinstance(arg, str) for arg in args)
        ):
            raise QuestionError(f"{question}'s arguments are words, got {shown(args)}")
        if len(args) != len(spec.args):
            wanted = " ".join(spec.args) if spec.args else "no arguments"
            raise QuestionError(
                f"{question} takes {counted(len(spec.args), 'argument')} ({wanted}), "
                f"got {shown(list(args))}",
                "argument_count",
                question=question,
                count=len(spec.args),
                wanted=" ".join(spec.args),
                given=shown(list(args)),
            )
        for name, arg in zip(spec.args, args, strict=True):
            if len(arg) > MAX_ARGUMENT:
                raise QuestionError(f"{name} is {len(arg):,} characters long: not a name or number")
        handler = spec.handler
        options = bind_options(question, handler, extras)
        return handler(scene, *args, **options)


class MeasuringRuleset(Ruleset):
    """A rule system that measures the open table in millimetres: it says how (`measure`,
    `gap`), and the distance and contact questions are answered here, alike for all."""

    contact_up_to: ClassVar[bool] = True
    """Whether two things exactly at the contact threshold touch ("contact up to"), or only
    under it (Choc Base 6: "contact under")."""

    @abstractmethod
    def measure(self, scene: Scene, a: str, b: str) -> Measure:
        """What ``distance A B`` measures, as the book says to."""

    @abstractmethod
    def gap(self, scene: Scene, a: str, b: str) -> Gap:
        """What ``contact A B`` compares with the contact threshold, as the book says to."""

    def distance(self, scene: Scene, a: str, b: str) -> DistanceAnswer:
        """How far apart A and B are, measured as `measure` says, in the scene's unit."""
        measured = self.measure(scene, a, b)
        unit = self.unit(scene)
        units = unit.from_mm(measured.mm)
        sigma = sigma_between(measured.first, measured.second)
        return DistanceAnswer(
            question="distance",
            message=f"{a} to {b}: {in_units(units, unit.name)} ({measured.mm:.1f} mm, "
            f"{measured.mode})" + (f" ± {sigma:.1f} mm" if sigma else ""),
            a=a,
            b=b,
            distance_mm=measured.mm,
            distance_units=units,
            unit=unit.name,
            mode=measured.mode,
            sigma_mm=sigma,
        )

    def contact(self, scene: Scene, a: str, b: str) -> ContactAnswer:
        """Whether A and B are in contact: their `gap` against its threshold, and the
        margin between them, "too close to call" within its uncertainty."""
        found = self.gap(scene, a, b)
        gap_mm, threshold_mm = found.gap_mm, found.threshold_mm
        touching = gap_mm <= threshold_mm if self.contact_up_to else gap_mm < threshold_mm
        margin = found.margin()
        verdict = "in contact" if touching else "not in contact"
        apart = f"gap {gap_mm:.1f} mm" if gap_mm >= 0.0 else f"overlapping by {-gap_mm:.1f} mm"
        rule = "up to" if self.contact_up_to else "under"
        answer = ContactAnswer(
            question="contact",
            message=with_certainty(
                f"{a} and {b} are {verdict}: {apart} (contact {rule} {threshold_mm:g} mm)",
                margin,
            ),
            margins=(margin,),
            a=a,
            b=b,
            contact=touching,
            gap_mm=gap_mm,
            threshold_mm=threshold_mm,
        )
        return self.detailed_contact(scene, answer, found)

    def detailed_contact(self, scene: Scene, answer: ContactAnswer, found: Gap) -> ContactAnswer:
        """The contact answer with what the rule system says of a contact beyond it (MBT:
        by an edge or a corner, and which edges), from the `gap` ``found``; by default the
        answer itself."""
        return answer


MAX_ARGUMENT = 200
"""The longest argument a question takes (a figure id, a group name, a number)."""

_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
_WHOLE = re.compile(r"[+-]?[0-9]+")

MAX_COORDINATE_MM = 1_000_000.0
"""The farthest a coordinate argument may lie from the table's origin (1 km)."""


def coordinate_mm(text: str, name: str) -> float:
    """A question's coordinate argument, in mm: a plain decimal number.

    Only digits, one optional sign and one optional decimal point are read: not
    ``5_00`` (which Python's float() reads as 500), ``1e3``, ``inf`` or ``nan``.

    >>> coordinate_mm("12.5", "X")
    12.5
    """
    stripped = text.strip() if isinstance(text, str) else text
    if not isinstance(stripped, str) or not _DECIMAL.fullmatch(stripped) or len(stripped) > 40:
        raise QuestionError(
            f"{name} must be a number of millimetres, got {shown(text)} (plain digits: 12.5)"
        )
    value = float(stripped)
    if not abs(value) <= MAX_COORDINATE_MM:
        raise QuestionError(
            f"{name} must lie within {MAX_COORDINATE_MM:,.0f} mm of the table, got {shown(text)}"
        )
    return value


def whole_number(text: str, name: str) -> int:
    """A question's whole-number argument: digits with an optional sign.

    >>> whole_number("12", "F")
    12
    """
    stripped = text.strip() if isinstance(text, str) else text
    if not isinstance(stripped, str) or not _WHOLE.fullmatch(stripped) or len(stripped) > 12:
        raise QuestionError(f"{name} must be a whole number like 3, got {shown(text)}")
    return int(stripped)


def check_attr_number(
    scene: Scene,
    figure: Figure,
    field: str,
    value: object,
    low: float,
    high: float,
    expected: str,
    *,
    whole: bool = False,
) -> None:
    """Refuse a figure's number (an ``attrs`` value) that is not ``low`` to ``high``, or not
    a number (a flag is none), or not whole when ``whole``: a `SceneError` naming the field
    and the figure, ``figure 'x': expected <expected>, got <value>``."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or (whole and not isinstance(value, int))
        or not low <= value <= high
    ):
        raise SceneError(
            scene.source, field, f"figure {figure.id!r}: expected {expected}, got {shown(value)}"
        )


def check_attr_flags(scene: Scene, index: int, figure: Figure, names: Iterable[str]) -> None:
    """Refuse a figure's flag (an ``attrs`` value among ``names``, when given) that is not
    true or false: a word such as "no" would read as yes, and null is no answer either.
    A `SceneError` naming the field and the figure."""
    for name in names:
        value = figure.attrs.get(name, False)
        if not isinstance(value, bool):
            raise SceneError(
                scene.source,
                f"figures[{index}].attrs.{name}",
                f"figure {figure.id!r}: expected true or false, got {shown(value)}",
            )


def scene_options(scene: Scene, kind: type[OptionsT]) -> OptionsT:
    """The scene's options, which must be of the ruleset's own type ``kind``."""
    options = scene.options
    if not isinstance(options, kind):
        raise TypeError(f"expected {kind.__name__} options, got {type(options).__name__}")
    return options


class _Named(Protocol):
    @property
    def name(self) -> str: ...


def unknown_figure_or_group(scene: Scene, groups: Iterable[_Named], name: str) -> UnknownName:
    """The error for a name no figure or group of ``scene`` has (``groups``: its groups),
    with the nearest that some have."""
    known = itertools.chain((f.id for f in scene.figures), (g.name for g in groups))
    return UnknownName("figure or group", name, known)


def figure_named(scene: Scene, name: str) -> Figure:
    """The figure called ``name``; `QuestionError` when there is none."""
    figure = scene.figure(name)
    if figure is None:
        raise UnknownName("figure", name, (f.id for f in scene.figures))
    return figure
