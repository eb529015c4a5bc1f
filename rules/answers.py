"""Answers to rules questions: values carrying their reasons, margins and certainty.

Every answer turns into the JSON object of ``docs/formats.md`` with `to_json`, and
into one short human sentence with its ``message``. The answers of distances, contacts
and groups are here; those of fire, moves, reach, impacts and potentials are in
`arbitre.rules.answer_kinds`, and given here too.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from arbitre.rules.lazy import exported_lazily

if TYPE_CHECKING:
    from arbitre.rules.answer_kinds import FireAnswer as FireAnswer
    from arbitre.rules.answer_kinds import ImpactAnswer as ImpactAnswer
    from arbitre.rules.answer_kinds import MoveAnswer as MoveAnswer
    from arbitre.rules.answer_kinds import PotentialsAnswer as PotentialsAnswer
    from arbitre.rules.answer_kinds import ReachAnswer as ReachAnswer

# The answer types of fire, moves, reach, impacts and potentials, from
# `arbitre.rules.answer_kinds`, imported when one is first used.
__getattr__ = exported_lazily(
    "arbitre.rules",
    {
        "answer_kinds": (
            "FireAnswer",
            "ImpactAnswer",
            "MoveAnswer",
            "PotentialsAnswer",
            "ReachAnswer",
        )
    },
)


class Reason(StrEnum):
    """Why the rules say no. Stable codes: add new ones, never rename one."""

    OUT_OF_RANGE = "out_of_range"
    NO_SHOOTERS = "no_shooters"
    IN_CONTACT_WITH_ENEMY = "in_contact_with_enemy"
    TARGET_IN_CONTACT = "target_in_contact"
    TARGET_NOT_ENEMY = "target_not_enemy"
    LINE_BLOCKED = "line_blocked"
    NOT_IN_ARC = "not_in_arc"
    NOT_VISIBLE = "not_visible"
    OVER_ALLOWANCE = "over_allowance"
    PATH_BLOCKED = "path_blocked"
    DESTINATION_OCCUPIED = "destination_occupied"
    IMPASSABLE = "impassable"
    OFF_TABLE = "off_table"
    NOT_IN_CONTACT = "not_in_contact"
    TARGET_ENGAGED = "target_engaged"
    NOT_FACE_TO_FACE = "not_face_to_face"
    CHARGE_SHORT = "charge_short"
    OBSTACLE_CROSSING = "obstacle_crossing"
    BACKWARDS_TOO_FAR = "backwards_too_far"
    NO_SAVE = "no_save"
    STANDARD_SHAKEN = "standard_shaken"
    TOO_FEW_NEAR = "too_few_near"
    NO_FRIEND_NEAR = "no_friend_near"
    ENEMY_NEAR = "enemy_near"
    TOO_EARLY = "too_early"
    OUTSIDE_ZONE = "outside_zone"
    CREW_TOO_FAR = "crew_too_far"
    AMMUNITION_TOO_FAR = "ammunition_too_far"
    NOT_IN_GRID = "not_in_grid"
    NO_REFERENCE = "no_reference"
    NOT_FRIENDLY = "not_friendly"
    TOO_MANY_FIGURES = "too_many_figures"
    MUST_CLOSE_ORDER = "must_close_order"
    SKIRMISHERS_NO_GROUP_CHARGE = "skirmishers_no_group_charge"
    NOT_AT_OBSTACLE = "not_at_obstacle"
    CROSSING_DEFENDED = "crossing_defended"
    SHAKEN = "shaken"
    TOO_FEW_ACTION_POINTS = "too_few_action_points"


@dataclass(frozen=True, slots=True)
class Unit:
    """A game unit: its name and its length in millimetres."""

    name: str
    mm: float

    def from_mm(self, length_mm: float) -> float:
        """Convert millimetres to this unit.

        >>> Unit("M", 100.0).from_mm(250.0)
        2.5
        """
        return length_mm / self.mm

    def to_mm(self, length_units: float) -> float:
        return length_units * self.mm


@dataclass(frozen=True, slots=True)
class Margin:
    """How far a measure lies from a deciding threshold.

    ``margin_mm`` is positive on the side of the answer given; ``sigma_mm`` is the
    measure's uncertainty (1 sigma). The answer is certain when the margin is at
    least twice the uncertainty.
    """

    what: str
    margin_mm: float
    sigma_mm: float = 0.0

    @property
    def certain(self) -> bool:
        """
        >>> Margin("range", 1.0, 0.3).certain, Margin("range", 0.5, 0.3).certain
        (True, False)
        """
        return abs(self.margin_mm) >= 2.0 * self.sigma_mm


def deciding(margins: Iterable[Margin]) -> Margin | None:
    """The margin closest to flipping its answer (smallest margin less twice its sigma)."""
    return min(margins, key=lambda m: abs(m.margin_mm) - 2.0 * m.sigma_mm, default=None)


def refusing(
    margins: Sequence[Margin], reasons: Iterable[_Code], checks: Mapping[_Code, str]
) -> tuple[Margin, ...]:
    """The margin a refusal rests on: any one of its ``reasons`` refuses alone, so the
    surest decides. A reason with no margin (``checks`` names the margin of each reason
    that has one, or the start of its name: ``range``, ``line``, ``contact A-``...) is
    certain, and so is the refusal: no margin.

    Out of range by 74.7 mm, the nearest figure 51.9 mm from the line: the refusal rests
    on the range (the line does not refuse it); at a friend, nothing is measured:

    >>> checks = {Reason.OUT_OF_RANGE: "range", Reason.LINE_BLOCKED: "line"}
    >>> margins = [Margin("range", -74.7, 2.0), Margin("line", 51.9, 2.0)]
    >>> refusing(margins, [Reason.OUT_OF_RANGE], checks)
    (Margin(what='range', margin_mm=-74.7, sigma_mm=2.0),)
    >>> refusing(margins, [Reason.TARGET_NOT_ENEMY, Reason.OUT_OF_RANGE], checks)
    ()
    """
    named = [checks.get(reason) for reason in reasons]
    if not named or None in named:
        return ()
    failing = [m for m in margins if any(m.what.startswith(str(name)) for name in named)]
    return (max(failing, key=lambda m: abs(m.margin_mm) - 2.0 * m.sigma_mm),) if failing else ()


def least_sure(margins: Iterable[Margin]) -> tuple[Margin, ...]:
    """Of the margins of several refusals (each shooter's, say), the least sure: the
    answer is only as certain as the refusal nearest to going the other way."""
    found = deciding(margins)
    return () if found is None else (found,)


def with_certainty(text: str, *margins: Margin) -> str:
    """Prefix "too close to call" when a margin lies within twice its uncertainty.

    >>> with_certainty("in range", Margin("range", 0.5, 0.4))
    'too close to call: in range (range within 0.5 mm (± 0.4))'
    """
    doubtful = [m for m in margins if not m.certain]
    if not doubtful:
        return text
    what = ", ".join(f"{m.what} within {m.margin_mm:.1f} mm (± {m.sigma_mm:.1f})" for m in doubtful)
    return f"too close to call: {text} ({what})"


def warning_lines(warnings: Iterable[str]) -> str:
    """The warnings as lines to append to a human answer.

    >>> "in range" + warning_lines(["only the snipers' PI counts"])
    "in range\\nwarning: only the snipers' PI counts"
    """
    return "".join(f"\nwarning: {w}" for w in warnings)


_Code = TypeVar("_Code", bound=str)


def in_words(reasons: Iterable[_Code], words: Mapping[_Code, str]) -> str:
    """Reason codes in words, for a sentence: each rule system gives its own ``words``
    (its reasons are `StrEnum` members, which are their codes).

    >>> in_words(["out_of_range", "line_blocked"], {
    ...     "out_of_range": "out of range", "line_blocked": "no clear line of fire"})
    'out of range, no clear line of fire'
    """
    return ", ".join(words[reason] for reason in reasons)


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and its noun, singular for one.

    >>> counted(1, "area"), counted(3, "area"), counted(0, "ally", "allies")
    ('1 area', '3 areas', '0 allies')
    """
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


ENGLISH_UNITS = {"pas": ("pace", "paces"), "graduation": ("graduation", "graduations")}
"""The units English words otherwise than the books (M.U.S.G.'s "pas" are paces), singular
and plural; the others (M, cm, H...) are written the same whatever the number."""


def in_units(value: float, unit: str, spec: str = ".2f") -> str:
    """``value`` written by ``spec``, in ``unit`` as English words it (the answers' JSON
    keeps the books' name in ``unit``).

    >>> in_units(7.9, "pas"), in_units(1, "pas", "g"), in_units(14.84, "graduation")
    ('7.90 paces', '1 pace', '14.84 graduations')
    >>> in_units(3, "M", "g")
    '3 M'
    """
    written = f"{value:{spec}}"
    singular, plural = ENGLISH_UNITS.get(unit, (unit, unit))
    return f"{written} {singular if written == '1' else plural}"


def area_text(area_mm2: float) -> str:
    """An area as players read it, in cm² (100 mm²): a decimal below 100 cm².

    >>> area_text(403_457.0)
    '4035 cm²'
    >>> area_text(1_256.6)
    '12.6 cm²'
    """
    cm2 = area_mm2 / 100.0
    return f"{cm2:.1f} cm²" if cm2 < 100.0 else f"{cm2:.0f} cm²"


def reach_words(mover: str, verb: str, areas: int, area_mm2: float, within: str) -> str:
    """The sentence of a ``reach`` answer: where ``mover`` may ``verb`` ``within`` its
    allowance, or that no place is free.

    >>> reach_words("cavalier", "move", 1, 403_457.0, "within 4 M")
    'cavalier may move anywhere in 1 area of 4035 cm² within 4 M'
    >>> reach_words("a", "move", 0, 0.0, "within 2 M")
    'a may not move anywhere within 2 M: no place it could reach is free'
    """
    if areas == 0 or area_mm2 <= 0.0:
        return f"{mover} may not {verb} anywhere {within}: no place it could reach is free"
    where = f"{counted(areas, 'area')} of {area_text(area_mm2)}"
    return f"{mover} may {verb} anywhere in {where} {within}"


ROUNDING = 1e-9
"""How far two numbers that are equal on paper may differ once computed (a length
worked out in 25.4 mm paces comes back a few 1e-14 off)."""


def at_most(value: float, limit: float) -> bool:
    """Whether a measure is within a limit, one equal to it on paper included.

    >>> 582.2 - 100 - 25 <= 18 * 25.4, at_most(582.2 - 100 - 25, 18 * 25.4)
    (False, True)
    """
    return value <= limit + ROUNDING


def allowance_verdict(
    found: bool,
    cost_mm: float,
    blocked: bool,
    allowance_mm: float,
    straight_cost_mm: Callable[[], float],
) -> Reason | None:
    """Why the cheapest way to a goal does not make a move within its allowance, or None
    when it does: no way at all, or a way dearer than the allowance only because something
    stands across the straight line (``blocked``, and the straight way, costly ground
    counted, would be within it: `path_blocked`), or the goal is simply too far
    (`over_allowance`). A cost equal to the allowance on paper is within it (`at_most`).

    >>> allowance_verdict(True, 200.00000000000003, False, 200.0, lambda: 200.0) is None
    True
    >>> allowance_verdict(True, 260.0, True, 200.0, lambda: 190.0)
    <Reason.PATH_BLOCKED: 'path_blocked'>
    >>> allowance_verdict(True, 260.0, True, 200.0, lambda: 240.0)
    <Reason.OVER_ALLOWANCE: 'over_allowance'>
    """
    if not found:
        return Reason.PATH_BLOCKED
    if at_most(cost_mm, allowance_mm):
        return None
    if blocked and at_most(straight_cost_mm(), allowance_mm):
        return Reason.PATH_BLOCKED
    return Reason.OVER_ALLOWANCE


def combined_sigma(*sigmas_mm: float) -> float:
    """Uncertainty of a difference of independent measures (root sum of squares)."""
    return math.sqrt(sum(s * s for s in sigmas_mm))


class Said(str):
    """A sentence the rules say beside an answer (a warning), in English, that another
    language can say too: its ``code`` (``warning.<code>`` in a catalogue) and the
    ``params`` its English was made from (words, or numbers as written in English).

    >>> note = Said("snipers_only", "beyond {units} {unit} only the snipers' PI counts",
    ...             units=3, unit="M")
    >>> note, note.code, note.params
    ("beyond 3 M only the snipers' PI counts", 'snipers_only', {'units': '3', 'unit': 'M'})
    """

    code: str
    params: dict[str, str]

    def __new__(cls, code: str, english: str, **params: object) -> Said:
        words = {name: str(value) for name, value in params.items()}
        said = super().__new__(cls, english.format(**words))
        said.code = code
        said.params = words
        return said

    def __reduce__(self) -> tuple[Any, ...]:
        return (_said_again, (str(self), self.code, self.params))


def _said_again(text: str, code: str, params: dict[str, str]) -> Said:
    """A `Said` as it was pickled (its English made already)."""
    said = Said(code, "{text}", text=text)
    said.params = params
    return said


@dataclass(frozen=True, slots=True)
class Answer:
    """Common part of every answer."""

    question: str
    message: str

    def to_json(self) -> dict[str, Any]:
        """The JSON object of docs/formats.md (floats rounded to the micrometre); an answer
        with warnings says beside them, in ``warning_codes``, what another language needs
        to word each (`Said`; null for one only said in English)."""
        data = {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}
        warnings = getattr(self, "warnings", ())
        if warnings:
            data["warning_codes"] = [
                {"code": w.code, "params": dict(w.params)} if isinstance(w, Said) else None
                for w in warnings
            ]
        return data


@dataclass(frozen=True, slots=True)
class Checked(Answer):
    """An answer that compared measures with thresholds."""

    margins: tuple[Margin, ...] = ()

    @property
    def margin_mm(self) -> float | None:
        decisive = deciding(self.margins)
        return None if decisive is None else decisive.margin_mm

    @property
    def certain(self) -> bool:
        return all(m.certain for m in self.margins)

    def to_json(self) -> dict[str, Any]:
        data = Answer.to_json(self)
        data["margin_mm"] = _plain(self.margin_mm)
        data["certain"] = self.certain
        return data


@dataclass(frozen=True, slots=True)
class DistanceAnswer(Answer):
    a: str = ""
    b: str = ""
    distance_mm: float = 0.0
    distance_units: float = 0.0
    unit: str = ""
    mode: str = ""
    sigma_mm: float = 0.0


@dataclass(frozen=True, slots=True)
class ContactAnswer(Checked):
    a: str = ""
    b: str = ""
    contact: bool = False
    gap_mm: float = 0.0
    threshold_mm: float = 0.0


@dataclass(frozen=True, slots=True)
class GroupsAnswer(Answer):
    groups: dict[str, list[str]] = field(default_factory=dict)
    references: dict[str, str | None] = field(default_factory=dict)
    sides: dict[str, str] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()


def _plain(value: Any) -> Any:
    """JSON-ready copy: enums to their codes, tuples to lists, floats rounded to 1e-3."""
    kind = type(value)  # the plain types first, as they fill the answers
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is float:
        return round(value, 3) if math.isfinite(value) else None
    if kind is list or kind is tuple:
        return [_plain(v) for v in value]
    if kind is dict:
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, Margin):
        return {
            "what": value.what,
            "margin_mm": _plain(value.margin_mm),
            "sigma_mm": _plain(value.sigma_mm),
            "certain": value.certain,
        }
    if isinstance(value, bool) or value is None or isinstance(value, str | int):
        return value
    if isinstance(value, float | np.floating):
        number = float(value)
        return round(number, 3) if math.isfinite(number) else None
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, Sequence | np.ndarray):
        return [_plain(v) for v in value]
    raise TypeError(f"cannot turn {type(value).__name__} into JSON")
