"""The MBT ruleset object: its options, scene checks and questions, each answered by its
module's function."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import shapely

from arbitre.rules.answers import ContactAnswer, Unit
from arbitre.rules.errors import SceneError
from arbitre.rules.lazy import deferred_module
from arbitre.rules.mbt.answers import MbtContactAnswer
from arbitre.rules.mbt.book import TYPES
from arbitre.rules.mbt.combat import combat_answer, edge_or_corner, facing_answer
from arbitre.rules.mbt.options import MbtOptions, options_of, unit_of
from arbitre.rules.mbt.plates import contact_gap, plate_named, plate_pair
from arbitre.rules.model import BaseShape, Scene
from arbitre.rules.ruleset import (
    Gap,
    Measure,
    MeasuringRuleset,
    Question,
    check_attr_flags,
    check_attr_number,
)

if TYPE_CHECKING:  # the modules of the handlers, loaded when a question first needs them
    from arbitre.rules.mbt import moves, panic, shooting, victory
else:
    moves = deferred_module("arbitre.rules.mbt.moves")
    panic = deferred_module("arbitre.rules.mbt.panic")
    shooting = deferred_module("arbitre.rules.mbt.shooting")
    victory = deferred_module("arbitre.rules.mbt.victory")


MAX_BASE_FIGURES = 100
"""The most figures a base may carry (``attrs.figures``; the book's bases hold 1 to 4)."""


class Mbt(MeasuringRuleset):
    """MBT: rectangular bases with a facing, distances in graduations."""

    name = "mbt"
    aliases = ("mini-bataille-terrestre",)
    options_model = MbtOptions

    def unit(self, scene: Scene) -> Unit:
        return unit_of(scene)

    def validate(self, scene: Scene) -> None:
        for index, figure in enumerate(scene.figures):
            where = f"figures[{index}]"
            if figure.base is None or figure.base.shape is not BaseShape.RECT:
                raise SceneError(
                    scene.source, f"{where}.base", "MBT bases are rectangles: {shape: rect, ...}"
                )
            if figure.type not in TYPES:
                raise SceneError(
                    scene.source,
                    f"{where}.type",
                    f"expected one of {', '.join(TYPES)}, got {figure.type!r}",
                )
            check_attr_flags(
                scene, index, figure, ("heavy", "general", "elephant", "archer", "chariot")
            )
            if figure.attrs.get("figures") is not None:
                count = f"a count of figures 0 to {MAX_BASE_FIGURES}"
                value = figure.attrs["figures"]
                check_attr_number(
                    scene, figure, f"{where}.attrs.figures", value, 0, MAX_BASE_FIGURES, count,
                    whole=True,
                )  # fmt: skip

    def questions(self) -> Mapping[str, Question]:
        return {
            "distance": Question(
                "distance", ("A", "B"), "closest points of two bases", self.distance
            ),
            "contact": Question("contact", ("A", "B"), "edge or corner contact", self.contact),
            "facing": Question(
                "facing",
                ("A", "B"),
                "face to face, or how B turns",
                facing_answer,
            ),
            "combat": Question("combat", ("A", "B"), "the combat of A against B", combat_answer),
            "fire": Question("fire", ("A", "B"), "may archers A shoot at B", shooting.fire_answer),
            "panic": Question(
                "panic",
                ("A",),
                "where the panicking elephant A goes, what it tramples",
                panic.panic_answer,
            ),
            "move": Question("move", ("A", "X", "Y"), "may A move to (X, Y) mm", moves.move_answer),
            "reach": Question("reach", ("A",), "where may A move", moves.reach_answer),
            "groups": Question("groups", (), "bases in contact and aligned", moves.groups_answer),
            "victory": Question(
                "victory", (), "who has won: losses, objectives, generals", victory.victory_answer
            ),
        }

    # --- measures ----------------------------------------------------------------------

    def measure(self, scene: Scene, a: str, b: str) -> Measure:
        first, second = plate_named(scene, a), plate_named(scene, b)
        gap = float(shapely.distance(first.polygon(), second.polygon()))
        return Measure(first.figure, second.figure, gap, "rect")

    def gap(self, scene: Scene, a: str, b: str) -> Gap:
        """The gap between two different bases' rectangles, against the contact tolerance."""
        first, second = plate_pair(scene, a, b)
        return contact_gap(first, second, options_of(scene))

    def detailed_contact(self, scene: Scene, answer: ContactAnswer, found: Gap) -> MbtContactAnswer:
        """By an edge or a corner, and which edges."""
        return edge_or_corner(answer, found, options_of(scene))
