"""The Smooth & Rifled ruleset: its questions and measures.

Each other question is answered in its own module (`fire`, `moves`, `templates`, ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from arbitre.rules.answers import (
    GroupsAnswer,
    Unit,
    counted,
    warning_lines,
)
from arbitre.rules.errors import QuestionError, SceneError, shown
from arbitre.rules.lazy import deferred_module
from arbitre.rules.model import Figure, Scene
from arbitre.rules.ruleset import (
    MAX_COORDINATE_MM,
    Gap,
    Measure,
    MeasuringRuleset,
    Question,
    check_attr_flags,
    check_attr_number,
)
from arbitre.rules.smooth_and_rifled.bases import figure_gap_mm
from arbitre.rules.smooth_and_rifled.book import (
    FIGURE_TYPES,
    UNIT,
    va_first,
    va_last,
    weapon_range_cm,
)
from arbitre.rules.smooth_and_rifled.groups import find_groups, resolve
from arbitre.rules.smooth_and_rifled.options import SmoothAndRifledOptions, options_of

FLAGS = (
    "ambush",
    "fired",
    "hero",
    "fanatic",
    "ferocious",
    "guard",
    "impetuous",
    "leader",
    "light",
    "loose_order",
    "melee_weapon",
    "musician",
    "pikes",
    "rapid",
    "rifled",
    "scout",
    "senior_officer",
    "shaken",
    "shield",
    "skirmisher",
    "sniper",
    "standard",
    "terrain",
    "veteran",
)

if TYPE_CHECKING:  # the modules of the handlers, loaded when a question first needs them
    from arbitre.rules.smooth_and_rifled import (
        fire,
        gun_moves,
        moves,
        opportunity,
        scenario,
        support,
        tables,
        templates,
        withdrawal,
    )
else:
    fire = deferred_module("arbitre.rules.smooth_and_rifled.fire")
    gun_moves = deferred_module("arbitre.rules.smooth_and_rifled.gun_moves")
    moves = deferred_module("arbitre.rules.smooth_and_rifled.moves")
    opportunity = deferred_module("arbitre.rules.smooth_and_rifled.opportunity")
    scenario = deferred_module("arbitre.rules.smooth_and_rifled.scenario")
    support = deferred_module("arbitre.rules.smooth_and_rifled.support")
    tables = deferred_module("arbitre.rules.smooth_and_rifled.tables")
    templates = deferred_module("arbitre.rules.smooth_and_rifled.templates")
    withdrawal = deferred_module("arbitre.rules.smooth_and_rifled.withdrawal")


"""The figures' attrs that are true or false."""


class SmoothAndRifled(MeasuringRuleset):
    """Smooth & Rifled: individual figures and groups, measured edge to edge in cm."""

    name = "smooth-and-rifled"
    aliases = ("sr", "s&r", "smooth&rifled", "smooth-rifled")
    options_model = SmoothAndRifledOptions

    def unit(self, scene: Scene) -> Unit:
        return UNIT

    def validate(self, scene: Scene) -> None:
        for index, figure in enumerate(scene.figures):
            where = f"figures[{index}]"
            if figure.type is not None and figure.type not in FIGURE_TYPES:
                raise SceneError(
                    scene.source,
                    f"{where}.type",
                    f"Smooth & Rifled figures are {', '.join(FIGURE_TYPES)}, got {figure.type!r}",
                )
            try:
                weapon_range_cm(figure)
            except QuestionError as error:
                raise SceneError(scene.source, f"{where}.attrs.weapon", str(error)) from None
            gun = figure.attrs.get("gun")
            if gun is not None and gun not in ("light", "medium"):
                raise SceneError(
                    scene.source, f"{where}.attrs.gun", f"'light' or 'medium', got {gun!r}"
                )
            muzzle = figure.attrs.get("muzzle_mm")
            if muzzle is not None and not _is_point(muzzle):
                raise SceneError(
                    scene.source,
                    f"{where}.attrs.muzzle_mm",
                    f"figure {figure.id!r}: expected [x, y], numbers within "
                    f"{MAX_COORDINATE_MM:,.0f} mm of the table's corner, got {shown(muzzle)}",
                )
            if figure.attrs.get("va") is not None:
                try:
                    va_last(figure)
                    va_first(figure)
                except QuestionError as error:
                    raise SceneError(scene.source, f"{where}.attrs.va", str(error)) from None
            check_attr_flags(scene, index, figure, FLAGS)
            weapon = figure.attrs.get("weapon")
            if isinstance(weapon, Mapping):
                rifled = weapon.get("rifled", False)
                if not isinstance(rifled, bool):
                    raise SceneError(
                        scene.source,
                        f"{where}.attrs.weapon.rifled",
                        f"figure {figure.id!r}: expected true or false, got {shown(rifled)}",
                    )
                if "reload" in weapon:
                    check_attr_number(
                        scene,
                        figure,
                        f"{where}.attrs.weapon.reload",
                        weapon["reload"],
                        0,
                        10,
                        "a whole number of actions, 0 to 10",
                        whole=True,
                    )
            c = figure.attrs.get("combat")
            if c is not None and (isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= 6):
                raise SceneError(
                    scene.source, f"{where}.attrs.combat", f"an integer 1-6, got {c!r}"
                )

    def questions(self) -> Mapping[str, Question]:
        return {
            "distance": Question("distance", ("A", "B"), "edge-to-edge distance", self.distance),
            "contact": Question("contact", ("A", "B"), "are two bases in contact", self.contact),
            "groups": Question("groups", (), "the groups on the table", self.groups),
            "fire": Question("fire", ("A", "B"), "may A shoot at B", fire.fire_question),
            "opportunity": Question(
                "opportunity",
                ("A", "B"),
                "may A fire at moving B in opportunity",
                opportunity.opportunity_question,
            ),
            "move": Question(
                "move", ("A", "X", "Y"), "may A move to (X, Y) mm", moves.move_question
            ),
            "reach": Question(
                "reach", ("A",), "where may A move in one action", moves.reach_question
            ),
            "charge": Question("charge", ("A", "B"), "may A charge B", moves.charge_question),
            "roundshot": Question(
                "roundshot",
                ("A", "B"),
                "round shot of gun A at B",
                templates.roundshot_question,
            ),
            "canister": Question(
                "canister", ("A",), "canister of gun A", templates.canister_question
            ),
            "explosion": Question(
                "explosion",
                ("X", "Y"),
                "an ammunition box exploding at (X, Y)",
                templates.explosion_question,
            ),
            "damage": Question(
                "damage",
                ("A", "B"),
                "damage roll of A's hit on B",
                tables.damage_question,
            ),
            "volley": Question(
                "volley", ("A", "B"), "volley of group A at B", tables.volley_question
            ),
            "morale": Question(
                "morale",
                ("SIDE",),
                "moral value and break point",
                tables.morale_question,
            ),
            "melee": Question(
                "melee", ("A", "B"), "melee dice of A against B", tables.melee_question
            ),
            "save": Question(
                "save",
                ("A",),
                "who takes a hit on A (Leader's save)",
                support.save_question,
            ),
            "rally": Question(
                "rally",
                ("A",),
                "actions shaken A needs to rally",
                support.rally_question,
            ),
            "standard": Question(
                "standard",
                ("A",),
                "may standard-bearer A's unit re-roll morale",
                support.standard_question,
            ),
            "objective": Question(
                "objective",
                ("SIDE", "X", "Y"),
                "does SIDE hold the objective",
                scenario.objective_question,
            ),
            "deployment": Question(
                "deployment",
                ("SIDE",),
                "is SIDE inside its deployment zone",
                scenario.deployment_question,
            ),
            "rescue": Question(
                "rescue",
                ("SIDE", "A"),
                "has SIDE brought figure A into its zone (scenario 2)",
                scenario.rescue_question,
            ),
            "assault": Question(
                "assault",
                ("SIDE",),
                "SIDE defending scenario 4's fortified position",
                scenario.assault_question,
            ),
            "withdrawal": Question(
                "withdrawal",
                ("A", "B"),
                "A's fall-back from B's charge",
                withdrawal.withdrawal_question,
            ),
            "dive": Question(
                "dive",
                ("A", "B"),
                "may foot A dive under B's cavalry charge",
                withdrawal.dive_question,
            ),
            "spot": Question(
                "spot", ("A", "B"), "may A spot ambush marker B", support.spot_question
            ),
            "gun": Question(
                "gun",
                ("A",),
                "are gun A's crew and ammunition near",
                support.gun_question,
            ),
            "gunmove": Question(
                "gunmove",
                ("A", "X", "Y"),
                "may gun A's crew move it to (X, Y) mm",
                gun_moves.gunmove_question,
            ),
        }

    # --- measures ------------------------------------------------------------------------

    def measure(self, scene: Scene, a: str, b: str) -> Measure:
        first, second, gap = _closest(scene, a, b)
        return Measure(first, second, gap, "edge")

    def gap(self, scene: Scene, a: str, b: str) -> Gap:
        first, second, gap = _closest(scene, a, b)
        return Gap(first, second, gap, options_of(scene).contact_tolerance_mm)

    def groups(self, scene: Scene) -> GroupsAnswer:
        grouping = find_groups(scene)
        formed = [g for g in grouping.groups if g.formed]
        listing = ", ".join(f"{g.name} ({len(g.figures)})" for g in formed) or "none"
        alone = len(grouping.groups) - len(formed)
        return GroupsAnswer(
            question="groups",
            message=f"{counted(len(formed), 'group')}: {listing}; "
            f"{counted(alone, 'figure')} acting alone" + warning_lines(grouping.warnings),
            groups={g.name: list(g.ids) for g in grouping.groups},
            references={g.name: g.leader.id if g.leader else None for g in grouping.groups},
            sides={g.name: g.side for g in grouping.groups},
            warnings=grouping.warnings,
        )


def _closest(scene: Scene, a: str, b: str) -> tuple[Figure, Figure, float]:
    """The two closest figures of A and B (figures or groups) and their edge gap."""
    first = _members(scene, a)
    second = _members(scene, b)
    if {f.id for f in first} & {f.id for f in second}:
        raise QuestionError(f"{a!r} and {b!r} share figures")
    return min(
        ((f, g, figure_gap_mm(scene, f, g)) for f in first for g in second),
        key=lambda item: item[2],
    )


def _members(scene: Scene, name: str) -> list[Figure]:
    group, figure = resolve(scene, name)
    return list(group.figures) if group is not None else [figure]


def _is_point(value: object) -> bool:
    """``[x, y]``: two numbers (not booleans) within `MAX_COORDINATE_MM` of the origin."""
    return (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(
            not isinstance(v, bool)
            and isinstance(v, int | float)
            and -MAX_COORDINATE_MM <= v <= MAX_COORDINATE_MM
            for v in value
        )
    )
