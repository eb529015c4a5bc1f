"""The Confrontation ruleset object: its options, scene checks and measures; its other
questions are answered by `combats` and `pursuit`, imported when first asked."""

from __future__ import annotations

from collections.abc import Mapping

from arbitre.rules.answers import (
    ContactAnswer,
    DistanceAnswer,
    Margin,
    Unit,
    with_certainty,
)
from arbitre.rules.confrontation.book import NUMBERS, ConfrontationOptions, _options
from arbitre.rules.confrontation.contacts import edge_gap_mm
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Scene, sigma_between
from arbitre.rules.options import MAX_OPTION_MM
from arbitre.rules.ruleset import Question, Ruleset, check_attr_number, figure_named

_HERE = "arbitre.rules.confrontation"

MIN_MOU_CM = 1.0
"""The shortest MOU a figure may carry: the book's MOU are a handful of cm, and half of
a speck would pursue nowhere."""

MAX_MOU_CM = MAX_OPTION_MM / NUMBERS.cm_mm
"""The longest MOU a figure may carry: 100 m (10,000 cm), the largest table."""

MAX_INI = 100
"""The largest INI a figure may carry (the book's run from 0 to about 10)."""


class Confrontation(Ruleset):
    """Confrontation 3: base contact, melees split into combats, combat dice, pursuit."""

    name = "confrontation"
    aliases = ("confrontation3", "conf")
    options_model = ConfrontationOptions

    def unit(self, scene: Scene) -> Unit:
        return Unit("cm", NUMBERS.cm_mm)

    def validate(self, scene: Scene) -> None:
        for index, figure in enumerate(scene.figures):
            where = f"figures[{index}].attrs"
            if figure.attrs.get("mou_cm") is not None:
                mou = f"a MOU of {MIN_MOU_CM:g} to {MAX_MOU_CM:g} cm"
                value = figure.attrs["mou_cm"]
                check_attr_number(
                    scene, figure, f"{where}.mou_cm", value, MIN_MOU_CM, MAX_MOU_CM, mou
                )
            if figure.attrs.get("ini") is not None:
                ini = f"an INI, a whole number 0 to {MAX_INI}"
                value = figure.attrs["ini"]
                check_attr_number(scene, figure, f"{where}.ini", value, 0, MAX_INI, ini, whole=True)

    def questions(self) -> Mapping[str, Question]:
        return {
            "distance": Question("distance", ("A", "B"), "edge-to-edge distance", self.distance),
            "contact": Question("contact", ("A", "B"), "are two bases touching", self.contact),
            "melees": Question(
                "melees", (), "every legal split of the melees", f"{_HERE}.combats:melees_answer"
            ),
            "dice": Question("dice", ("A",), "combat dice of A", f"{_HERE}.combats:dice_answer"),
            "initiative": Question(
                "initiative",
                ("A",),
                "initiative of the combat of A",
                f"{_HERE}.combats:initiative_answer",
            ),
            "pursuit": Question(
                "pursuit", ("A",), "pursuit move of A", f"{_HERE}.pursuit:pursuit_answer"
            ),
        }

    # --- questions ---------------------------------------------------------------------

    def distance(self, scene: Scene, a: str, b: str) -> DistanceAnswer:
        first, second = figure_named(scene, a), figure_named(scene, b)
        gap_mm = max(0.0, edge_gap_mm(first, second, _options(scene)))
        sigma = sigma_between(first, second)
        unit = self.unit(scene)
        units = unit.from_mm(gap_mm)
        return DistanceAnswer(
            question="distance",
            message=f"{a} to {b}: {units:.1f} cm edge to edge ({gap_mm:.1f} mm)"
            + (f" ± {sigma:.1f} mm" if sigma else ""),
            a=a,
            b=b,
            distance_mm=gap_mm,
            distance_units=units,
            unit=unit.name,
            mode="edge",
            sigma_mm=sigma,
        )

    def contact(self, scene: Scene, a: str, b: str) -> ContactAnswer:
        options = _options(scene)
        first, second = figure_named(scene, a), figure_named(scene, b)
        if first.id == second.id:
            raise QuestionError(f"{a!r} and {b!r} are the same figure")
        gap_mm = edge_gap_mm(first, second, options)
        tolerance = options.contact_tolerance_mm
        touching = gap_mm <= tolerance
        margin = Margin("contact", abs(tolerance - gap_mm), sigma_between(first, second))
        verdict = "in base contact" if touching else "not in contact"
        text = (
            f"{a} and {b} are {verdict}: gap {max(gap_mm, 0.0):.1f} mm "
            f"(contact up to {tolerance:g} mm)"
        )
        return ContactAnswer(
            question="contact",
            message=with_certainty(text, margin),
            margins=(margin,),
            a=a,
            b=b,
            contact=touching,
            gap_mm=max(gap_mm, 0.0),
            threshold_mm=tolerance,
        )
