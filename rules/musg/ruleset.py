"""The M.U.S.G. ruleset: its options, scene checks and questions, each answered by its
module's function."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from arbitre.rules.answers import (
    Unit,
)
from arbitre.rules.errors import QuestionError, SceneError
from arbitre.rules.lazy import deferred_module
from arbitre.rules.model import Figure, Scene
from arbitre.rules.musg.bases import contact_gap_mm, measured_mm
from arbitre.rules.musg.book import NUMBERS, RANKS, TABLE_MAX, parse_weapon
from arbitre.rules.musg.options import MusgOptions, options_of, unit_of
from arbitre.rules.options import MAX_OPTION_MM, MIN_LENGTH_MM
from arbitre.rules.ruleset import (
    Gap,
    Measure,
    MeasuringRuleset,
    Question,
    check_attr_number,
    figure_named,
)

if TYPE_CHECKING:  # the modules of the handlers, loaded when a question first needs them
    from arbitre.rules.musg import dice, fire, mishaps, morale, moves, reactions, support
else:
    dice = deferred_module("arbitre.rules.musg.dice")
    fire = deferred_module("arbitre.rules.musg.fire")
    mishaps = deferred_module("arbitre.rules.musg.mishaps")
    morale = deferred_module("arbitre.rules.musg.morale")
    moves = deferred_module("arbitre.rules.musg.moves")
    reactions = deferred_module("arbitre.rules.musg.reactions")
    support = deferred_module("arbitre.rules.musg.support")


MIN_MOVE_PAS = 1.0
"""The shortest move a figure may carry: the book's moves are a few pas."""

WEAPON_PAS = ("short_pas", "medium_pas", "long_pas", "range_pas")
"""The lengths of a weapon's profile, in pas."""


class Musg(MeasuringRuleset):
    """M.U.S.G.: characters measured in pas, edge to edge."""

    name = "musg"
    aliases = ("m.u.s.g.", "multi-universe-skirmishes-game")
    options_model = MusgOptions

    def unit(self, scene: Scene) -> Unit:
        return unit_of(scene)

    def validate(self, scene: Scene) -> None:
        for index, figure in enumerate(scene.figures):
            where = f"figures[{index}].attrs"
            rank = figure.attrs.get("rank")
            if rank is not None and rank not in RANKS:
                raise SceneError(
                    scene.source,
                    f"{where}.rank",
                    f"expected one of {', '.join(RANKS)}, got {rank!r}",
                )
            if "move_pas" in figure.attrs:
                _check_pas(
                    scene, figure, f"{where}.move_pas", figure.attrs["move_pas"], MIN_MOVE_PAS
                )
            if "weapon" in figure.attrs:
                weapon = figure.attrs["weapon"]
                try:
                    parse_weapon(weapon, "weapon")
                except ValueError as error:
                    field_name, _, problem = str(error).partition(": ")
                    raise SceneError(scene.source, f"{where}.{field_name}", problem) from None
                for key in WEAPON_PAS:
                    if key in weapon:
                        _check_pas(scene, figure, f"{where}.weapon.{key}", weapon[key], 0.0)
            if "command" in figure.attrs:
                check_attr_number(
                    scene,
                    figure,
                    f"{where}.command",
                    figure.attrs["command"],
                    0,
                    NUMBERS.command_most,
                    f"a whole number 0 to {NUMBERS.command_most}",
                    whole=True,
                )
            for key, low in (("resistance", 1), ("armour", 0)):
                check_attr_number(
                    scene,
                    figure,
                    f"{where}.{key}",
                    figure.attrs.get(key, low),
                    low,
                    TABLE_MAX,
                    f"a whole number {low} to {TABLE_MAX}",
                    whole=True,
                )

    def questions(self) -> Mapping[str, Question]:
        return {
            "distance": Question("distance", ("A", "B"), "distance in pas", self.distance),
            "contact": Question("contact", ("A", "B"), "are two bases touching", self.contact),
            "fire": Question("fire", ("A", "B"), "may A shoot at B; cover rolls", fire.fire_answer),
            "move": Question("move", ("A", "X", "Y"), "may A move to (X, Y) mm", moves.move_answer),
            "run": Question("run", ("A", "X", "Y"), "may A run to (X, Y) mm", moves.run_answer),
            "charge": Question(
                "charge", ("A", "X", "Y"), "may A charge to (X, Y)", moves.charge_answer
            ),
            "reach": Question("reach", ("A",), "where may A move", moves.reach_answer),
            "leave": Question("leave", ("A",), "the cost of leaving a melee", support.leave_answer),
            "support": Question(
                "support", ("A",), "allies and leaders near A", support.support_answer
            ),
            "initiative": Question("initiative", (), "who starts the turn", dice.initiative_answer),
            "damage": Question("damage", ("F", "R"), "the damage roll F vs R", dice.damage_answer),
            "tests": Question(
                "tests",
                ("A", "B"),
                "the command tests A takes facing B",
                morale.tests_answer,
            ),
            "under_fire": Question(
                "under_fire",
                ("A", "B"),
                "A flees B's fire 1d3 pas",
                reactions.under_fire_answer,
            ),
            "under_charge": Question(
                "under_charge",
                ("A", "B"),
                "A, charged by B, steps back 1d3 pas",
                reactions.under_charge_answer,
            ),
            "urge_to_charge": Question(
                "urge_to_charge",
                ("A", "B"),
                "A, not daring to charge B, walks away",
                reactions.urge_to_charge_answer,
            ),
            "flee": Question(
                "flee",
                ("A",),
                "the table edge A heads for, its end-of-turn test failed",
                reactions.flee_answer,
            ),
            "explosion": Question(
                "explosion",
                ("A",),
                "who A's exploding black-powder weapon hits",
                mishaps.explosion_answer,
            ),
            "stray": Question(
                "stray",
                ("A", "B"),
                "who takes A's bow missile at B on a 1",
                mishaps.stray_answer,
            ),
        }

    # --- measures ----------------------------------------------------------------------

    def measure(self, scene: Scene, a: str, b: str) -> Measure:
        first, second = figure_named(scene, a), figure_named(scene, b)
        options = options_of(scene)
        return Measure(first, second, measured_mm(first, second, options), options.measure)

    def gap(self, scene: Scene, a: str, b: str) -> Gap:
        first, second = figure_named(scene, a), figure_named(scene, b)
        if first.id == second.id:
            raise QuestionError(f"{a!r} and {b!r} are the same figure")
        options = options_of(scene)
        return Gap(
            first, second, contact_gap_mm(first, second, options), options.contact_tolerance_mm
        )


def _check_pas(scene: Scene, figure: Figure, where: str, value: object, least: float) -> None:
    """A length in pas: at least ``least`` pas and 1 mm, at most 100 m (the largest table)."""
    pace_mm = options_of(scene).pace_mm
    longest = MAX_OPTION_MM / pace_mm
    shortest = max(least, MIN_LENGTH_MM / pace_mm)
    expected = f"{shortest:.3g} to {longest:.4g} pas (at most 100 m)"
    check_attr_number(scene, figure, where, value, shortest, longest, expected)
