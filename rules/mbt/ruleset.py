"""The MBT ruleset object: its options, scene checks and questions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import shapely

from arbitre.rules.answers import (
    DistanceAnswer,
    GroupsAnswer,
    Unit,
    combined_sigma,
    with_certainty,
)
from arbitre.rules.errors import SceneError
from arbitre.rules.mbt.answers import (
    CombatAnswer,
    FacingAnswer,
    MbtContactAnswer,
    MbtFireAnswer,
    MbtMoveAnswer,
    MbtReachAnswer,
    PanicAnswer,
)
from arbitre.rules.mbt.combat import combat_answer, facing_answer
from arbitre.rules.mbt.moves import groups_answer, move_answer, reach_answer
from arbitre.rules.mbt.numbers import TYPES, MbtOptions, _options, _unit
from arbitre.rules.mbt.panic import Direction, panic_answer
from arbitre.rules.mbt.plates import _contact, _pair, _plate
from arbitre.rules.mbt.shooting import fire_answer
from arbitre.rules.model import BaseShape, Scene
from arbitre.rules.options import Dice, Die, Flag
from arbitre.rules.ruleset import Question, Ruleset


class Mbt(Ruleset):
    """MBT: rectangular bases with a facing, distances in graduations."""

    name = "mbt"
    aliases = ("mini-bataille-terrestre",)

    def parse_options(self, raw: Mapping[str, Any]) -> MbtOptions:
        return MbtOptions.model_validate(dict(raw))

    def unit(self, scene: Scene) -> Unit:
        return _unit(scene)

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
            for key in ("heavy", "general", "elephant", "archer", "chariot"):
                value = figure.attrs.get(key, False)
                if not isinstance(value, bool):
                    raise SceneError(
                        scene.source,
                        f"{where}.attrs.{key}",
                        f"expected true or false, got {value!r}",
                    )
            count = figure.attrs.get("figures")
            if count is not None and (
                isinstance(count, bool) or not isinstance(count, int) or count < 0
            ):
                raise SceneError(
                    scene.source, f"{where}.attrs.figures", f"expected a count, got {count!r}"
                )

    def questions(self) -> Mapping[str, Question]:
        return {
            "distance": Question(
                "distance", ("A", "B"), "closest points of two bases", self.distance
            ),
            "contact": Question("contact", ("A", "B"), "edge or corner contact", self.contact),
            "facing": Question("facing", ("A", "B"), "face to face, or how B turns", self.facing),
            "combat": Question("combat", ("A", "B"), "the combat of A against B", self.combat),
            "fire": Question("fire", ("A", "B"), "may archers A shoot at B", self.fire),
            "panic": Question(
                "panic", ("A",), "where the panicking elephant A goes, what it tramples", self.panic
            ),
            "move": Question("move", ("A", "X", "Y"), "may A move to (X, Y) mm", self.move),
            "reach": Question("reach", ("A",), "where may A move", self.reach),
            "groups": Question("groups", (), "bases in contact and aligned", self.groups),
        }

    # --- measures ----------------------------------------------------------------------

    def distance(self, scene: Scene, a: str, b: str) -> DistanceAnswer:
        first, second = _plate(scene, a), _plate(scene, b)
        unit = self.unit(scene)
        gap = float(shapely.distance(first.polygon(), second.polygon()))
        sigma = combined_sigma(first.figure.sigma_mm, second.figure.sigma_mm)
        return DistanceAnswer(
            question="distance",
            message=f"{a} to {b}: {unit.from_mm(gap):.2f} graduations ({gap:.1f} mm)",
            a=a,
            b=b,
            distance_mm=gap,
            distance_units=unit.from_mm(gap),
            unit=unit.name,
            mode="rect",
            sigma_mm=sigma,
        )

    def contact(self, scene: Scene, a: str, b: str) -> MbtContactAnswer:
        options = _options(scene)
        first, second = _pair(scene, a, b)
        gap, touching, kind, edges, margin = _contact(first, second, options)
        text = (
            f"{a} and {b} touch by {'an edge' if kind == 'edge' else 'a corner'}"
            + (f" ({edges[0]} of {a} on {edges[1]} of {b})" if edges else "")
            if touching
            else f"{a} and {b} are not in contact (gap {gap:.1f} mm)"
        )
        return MbtContactAnswer(
            question="contact",
            message=with_certainty(text, margin),
            margins=(margin,),
            a=a,
            b=b,
            contact=touching,
            gap_mm=gap,
            threshold_mm=options.contact_tolerance_mm,
            kind=kind,
            edges=edges,
        )

    def facing(self, scene: Scene, a: str, b: str) -> FacingAnswer:
        """Whether A and B are face to face; if A contacts B otherwise, how B turns to face A."""
        return facing_answer(scene, a, b)

    # --- combat ------------------------------------------------------------------------

    def combat(
        self,
        scene: Scene,
        a: str,
        b: str,
        die_a: Die | None = None,
        die_b: Die | None = None,
        die_panic: Die | None = None,
    ) -> CombatAnswer:
        return combat_answer(scene, a, b, die_a, die_b, die_panic)

    def fire(
        self, scene: Scene, a: str, b: str, die_a: Die | None = None, die_b: Die | None = None
    ) -> MbtFireAnswer:
        return fire_answer(scene, a, b, die_a, die_b)

    def panic(
        self,
        scene: Scene,
        a: str,
        die: Die | None = None,
        dice: Dice | None = None,
        direction: Direction | None = None,
    ) -> PanicAnswer:
        return panic_answer(scene, a, die, dice, direction)

    # --- moves and groups --------------------------------------------------------------

    def move(self, scene: Scene, a: str, x: str, y: str, as_group: Flag = False) -> MbtMoveAnswer:
        return move_answer(scene, a, x, y, as_group)

    def reach(self, scene: Scene, a: str, as_group: Flag = False) -> MbtReachAnswer:
        return reach_answer(scene, a, as_group)

    def groups(self, scene: Scene) -> GroupsAnswer:
        return groups_answer(scene)
