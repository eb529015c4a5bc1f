"""The Confrontation ruleset object: its options, scene checks and questions."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from arbitre.rules import pathing
from arbitre.rules.answers import (
    ContactAnswer,
    DistanceAnswer,
    Margin,
    Reason,
    Unit,
    area_text,
    combined_sigma,
    with_certainty,
)
from arbitre.rules.confrontation.answers import (
    DiceAnswer,
    InitiativeAnswer,
    MeleesAnswer,
    PursuitAnswer,
)
from arbitre.rules.confrontation.book import (
    BLOCKING_TERRAIN,
    COSTLY_TERRAIN,
    NUMBERS,
    ConfrontationOptions,
    Partition,
    _options,
)
from arbitre.rules.confrontation.contacts import base_of, edge_gap_mm, find_contacts
from arbitre.rules.confrontation.dice import (
    _check_die,
    _ini,
    dice_of_split,
    initiative_odds,
    initiative_score,
    pursuit_distance_cm,
)
from arbitre.rules.confrontation.melees import _combat_of, _in_melee, find_melees
from arbitre.rules.errors import QuestionError, SceneError
from arbitre.rules.geometry import ring_points
from arbitre.rules.model import Scene
from arbitre.rules.options import Die
from arbitre.rules.ruleset import Question, Ruleset, figure_named
from arbitre.rules.terrain import terrain_regions


class Confrontation(Ruleset):
    """Confrontation 3: base contact, melees split into combats, combat dice, pursuit."""

    name = "confrontation"
    aliases = ("confrontation3", "conf")

    def parse_options(self, raw: Mapping[str, Any]) -> ConfrontationOptions:
        return ConfrontationOptions.model_validate(dict(raw))

    def unit(self, scene: Scene) -> Unit:
        return Unit("cm", NUMBERS.cm_mm)

    def validate(self, scene: Scene) -> None:
        for index, figure in enumerate(scene.figures):
            mou = figure.attrs.get("mou_cm")
            if mou is not None and (
                isinstance(mou, bool)
                or not isinstance(mou, int | float)
                or not math.isfinite(mou)
                or mou <= 0
            ):
                raise SceneError(
                    scene.source,
                    f"figures[{index}].attrs.mou_cm",
                    f"expected a positive number of cm, got {mou!r}",
                )
            ini = figure.attrs.get("ini")
            if ini is not None and (isinstance(ini, bool) or not isinstance(ini, int)):
                raise SceneError(
                    scene.source, f"figures[{index}].attrs.ini", f"expected an integer, got {ini!r}"
                )

    def questions(self) -> Mapping[str, Question]:
        return {
            "distance": Question("distance", ("A", "B"), "edge-to-edge distance", self.distance),
            "contact": Question("contact", ("A", "B"), "are two bases touching", self.contact),
            "melees": Question("melees", (), "every legal split of the melees", self.melees),
            "dice": Question("dice", ("A",), "combat dice of A", self.dice),
            "initiative": Question(
                "initiative", ("A",), "initiative of the combat of A", self.initiative
            ),
            "pursuit": Question("pursuit", ("A",), "pursuit move of A", self.pursuit),
        }

    # --- questions ---------------------------------------------------------------------

    def distance(self, scene: Scene, a: str, b: str) -> DistanceAnswer:
        first, second = figure_named(scene, a), figure_named(scene, b)
        gap_mm = max(0.0, edge_gap_mm(first, second, _options(scene)))
        sigma = combined_sigma(first.sigma_mm, second.sigma_mm)
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
        margin = Margin(
            "contact", abs(tolerance - gap_mm), combined_sigma(first.sigma_mm, second.sigma_mm)
        )
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

    def melees(self, scene: Scene) -> MeleesAnswer:
        melees = find_melees(scene)
        lines = []
        for melee in melees:
            head = ", ".join(melee.figures)
            if not melee.partitions:
                lines.append(f"melee {head}: {melee.reason}")
                continue
            more = "+" if melee.truncated else ""
            proposal = "; ".join(_combat_words(c) for c in melee.proposal or ())
            lines.append(
                f"melee {head}: {len(melee.partitions)}{more} way(s) to split; proposed: {proposal}"
                + (f" ({melee.reason})" if melee.exhausted else "")
            )
        text = f"{len(melees)} melee(s)" + "".join(f"\n{line}" for line in lines)
        return MeleesAnswer(
            question="melees",
            message=text,
            melees=melees,
            truncated=any(m.truncated for m in melees),
        )

    def dice(self, scene: Scene, a: str, partition: Partition | None = None) -> DiceAnswer:
        figure = figure_named(scene, a)
        found = _combat_of(scene, figure.id, partition)
        if found is None:
            engaged = _in_melee(scene, figure.id)
            return DiceAnswer(
                question="dice",
                message=f"the melee of {a} {_unsplit(scene, figure.id)}: no combat dice"
                if engaged
                else f"{a} is in contact with no enemy: no combat, no combat dice",
                figure=a,
                reasons=() if engaged else (Reason.NOT_IN_CONTACT,),
            )
        combat, index, from_proposal = found
        dice = dice_of_split([combat])
        opponents = _opponents(combat, figure.id)
        where = "the proposed split" if from_proposal else f"split {index}"
        return DiceAnswer(
            question="dice",
            message=f"{a} rolls {dice[figure.id]} combat dice (1 + {len(opponents)} "
            f"opponent(s): {', '.join(opponents)}) in {where}",
            figure=a,
            dice=dice[figure.id],
            opponents=opponents,
            combat=combat,
            partition=index,
            from_proposal=from_proposal,
            dice_by_figure=dice,
        )

    def initiative(
        self,
        scene: Scene,
        a: str,
        partition: Partition | None = None,
        die: Die | None = None,
        opponent_die: Die | None = None,
    ) -> InitiativeAnswer:
        figure = figure_named(scene, a)
        found = _combat_of(scene, figure.id, partition)
        if found is None:
            engaged = _in_melee(scene, figure.id)
            return InitiativeAnswer(
                question="initiative",
                message=f"the melee of {a} {_unsplit(scene, figure.id)}: no combat"
                if engaged
                else f"{a} is in contact with no enemy: no combat",
                figure=a,
                reasons=() if engaged else (Reason.NOT_IN_CONTACT,),
            )
        combat, index, _ = found
        members = [figure_named(scene, ident) for ident in combat]
        own = [f for f in members if not scene.are_enemies(figure.side, f.side)]
        other = [f for f in members if scene.are_enemies(figure.side, f.side)]
        camps: dict[str, dict[str, Any]] = {}
        for key, camp, roll in (("own", own, die), ("opponents", other, opponent_die)):
            best = max(camp, key=lambda f: (_ini(f), -combat.index(f.id)))
            score = initiative_score(_ini(best), len(camp))
            entry: dict[str, Any] = {
                "figures": [f.id for f in camp],
                "roller": best.id,
                "ini": _ini(best),
                "bonus": len(camp) - 1,
                "score": score,
            }
            if roll is not None:
                _check_die(roll)
                entry["die"] = roll
                entry["total"] = score + roll
            camps[key] = entry
        odds = initiative_odds(camps["own"]["score"], camps["opponents"]["score"])
        winner: str | None = None
        own_camp, their_camp = camps["own"], camps["opponents"]
        if "total" in own_camp and "total" in their_camp:
            if own_camp["total"] != their_camp["total"]:
                winner = "own" if own_camp["total"] > their_camp["total"] else "opponents"
                text = (
                    f"{'the camp of ' + a if winner == 'own' else 'the opponents of ' + a} "
                    f"win the initiative {max(own_camp['total'], their_camp['total'])} "
                    f"to {min(own_camp['total'], their_camp['total'])}"
                )
            else:
                winner = "tie"
                text = f"initiative tied at {own_camp['total']}"
        else:
            text = (
                f"initiative of {a}'s camp: {own_camp['roller']} INI {own_camp['ini']} "
                f"+ {own_camp['bonus']} + 1D6 against {their_camp['roller']} INI "
                f"{their_camp['ini']} + {their_camp['bonus']} + 1D6; "
                f"wins {odds['win']}/36, ties {odds['tie']}/36"
            )
        return InitiativeAnswer(
            question="initiative",
            message=text,
            figure=a,
            combat=combat,
            partition=index,
            camps=camps,
            winner=winner,
            odds=odds,
        )

    def pursuit(self, scene: Scene, a: str) -> PursuitAnswer:
        options = _options(scene)
        figure = figure_named(scene, a)
        mou = figure.attrs.get("mou_cm")
        if mou is None:
            raise QuestionError(f"figure {a!r}: attrs.mou_cm is needed for a pursuit")
        pursuit_cm = pursuit_distance_cm(float(mou))
        pursuit_mm = pursuit_cm * NUMBERS.cm_mm
        radius_mm = base_of(figure, options).radius_mm
        hulls = tuple(
            pathing.DiscHull(np.array([[f.x_mm, f.y_mm, base_of(f, options).radius_mm]]), f.id)
            for f in scene.figures
            if f.id != figure.id
        )
        polygons, costly = terrain_regions(scene, BLOCKING_TERRAIN, COSTLY_TERRAIN)
        ground = pathing.Field(scene.table.width_mm, scene.table.depth_mm, hulls, polygons, costly)
        area = pathing.reachable_area(ground, figure.xy, radius_mm, pursuit_mm)
        pieces = list(getattr(area, "geoms", [area])) if not area.is_empty else []
        index = scene.figures.index(figure)
        engaged = tuple(scene.figures[k].id for k in find_contacts(scene).enemies[index])
        warnings = []
        if engaged:
            warnings.append(
                f"{a} still touches {', '.join(engaged)}: it may pursue out of the melee "
                "(no disengagement test) or stay and engage them"
            )
        return PursuitAnswer(
            question="pursuit",
            message=f"{a} may pursue {pursuit_cm} cm (half of MOU {mou:g}, rounded up): "
            f"{area_text(area.area)} within reach",
            mover=a,
            area_mm2=float(area.area),
            polygons_mm=tuple(ring_points(p.exterior.coords) for p in pieces),
            holes_mm=tuple(tuple(ring_points(h.coords) for h in p.interiors) for p in pieces),
            allowance_mm=pursuit_mm,
            allowance_units=float(pursuit_cm),
            unit="cm",
            mou_cm=float(mou),
            pursuit_cm=pursuit_cm,
            pursuit_mm=pursuit_mm,
            engaged=engaged,
            warnings=tuple(warnings),
        )


def _unsplit(scene: Scene, figure_id: str) -> str:
    """Why the melee of a figure gives it no combat: no legal split, or none found."""
    for melee in find_melees(scene):
        if figure_id in melee.figures and melee.exhausted:
            return f"was not split ({melee.reason})"
    return "has no legal split"


def _opponents(combat: Sequence[str], figure_id: str) -> tuple[str, ...]:
    centre, *others = combat
    return tuple(others) if figure_id == centre else (centre,)


def _combat_words(combat: Sequence[str]) -> str:
    centre, *others = combat
    return f"{centre} vs {' + '.join(others)}"
