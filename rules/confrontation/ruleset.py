"""The Confrontation ruleset object: its options, scene checks and measures; its other
questions are answered by `combats`, `passes` and `pursuit`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from arbitre.rules.answers import (
    Unit,
)
from arbitre.rules.confrontation.book import NUMBERS
from arbitre.rules.confrontation.contacts import edge_gap_mm
from arbitre.rules.confrontation.options import ConfrontationOptions, options_of
from arbitre.rules.errors import QuestionError
from arbitre.rules.lazy import deferred_module
from arbitre.rules.model import Scene
from arbitre.rules.options import MAX_OPTION_MM
from arbitre.rules.ruleset import (
    Gap,
    Measure,
    MeasuringRuleset,
    Question,
    check_attr_number,
    figure_named,
)

if TYPE_CHECKING:  # the modules of the handlers, loaded when a question first needs them
    from arbitre.rules.confrontation import combats, passes, pursuit
else:
    combats = deferred_module("arbitre.rules.confrontation.combats")
    passes = deferred_module("arbitre.rules.confrontation.passes")
    pursuit = deferred_module("arbitre.rules.confrontation.pursuit")


MIN_MOU_CM = 1.0
"""The shortest MOU a figure may carry: the book's MOU are a handful of cm, and half of
a speck would pursue nowhere."""

MAX_MOU_CM = MAX_OPTION_MM / NUMBERS.cm_mm
"""The longest MOU a figure may carry: 100 m (10,000 cm), the largest table."""

MAX_INI = 100
"""The largest INI a figure may carry (the book's run from 0 to about 10)."""


class Confrontation(MeasuringRuleset):
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
                "melees", (), "every legal split of the melees", combats.melees_answer
            ),
            "dice": Question("dice", ("A",), "combat dice of A", combats.dice_answer),
            "initiative": Question(
                "initiative",
                ("A",),
                "initiative of the combat of A",
                combats.initiative_answer,
            ),
            "passes": Question(
                "passes", ("A",), "passes of arms of the combat of A", passes.passes_answer
            ),
            "pursuit": Question("pursuit", ("A",), "pursuit move of A", pursuit.pursuit_answer),
        }

    # --- questions ---------------------------------------------------------------------

    def measure(self, scene: Scene, a: str, b: str) -> Measure:
        first, second = figure_named(scene, a), figure_named(scene, b)
        gap_mm = max(0.0, edge_gap_mm(first, second, options_of(scene)))
        return Measure(first, second, gap_mm, "edge")

    def gap(self, scene: Scene, a: str, b: str) -> Gap:
        first, second = figure_named(scene, a), figure_named(scene, b)
        if first.id == second.id:
            raise QuestionError(f"{a!r} and {b!r} are the same figure")
        options = options_of(scene)
        return Gap(first, second, edge_gap_mm(first, second, options), options.contact_tolerance_mm)
