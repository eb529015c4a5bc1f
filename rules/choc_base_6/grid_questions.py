"""Choc Base 6 on hex and square grids (rule book §2-§4 and ANNEXE 2).

Grids are laid by :mod:`~arbitre.rules.choc_base_6.grid`; distances are counted in cells.
Readings chosen where the book is silent:

* the figures in one cell form one group (a group occupies one cell); declared
  groups must agree with the cells (else the scene is refused);
* a figure outside the grid still names its cell, but a shot or a move that
  involves it, or a move to a cell outside the grid, is refused with
  ``not_in_grid``;
* hex line of fire: the cells crossed by the segment between the two cells'
  centres, all of them empty (a segment running along a side between two
  cells is clear when either side is); under ``hex_fire: count``, counted like a
  move through empty hexes, as on squares;
* square line of fire: the shot is counted in orthogonal steps through empty
  squares (ANNEXE 2), so it may bend round an occupied square if the count
  stays within range;
* moves: orthogonal steps on squares, steps to a neighbouring hex on hexes,
  through empty cells on the grid; impassable ground and buildings (the cell's
  centre inside) block; difficult ground and woods cost 2 steps to enter under the
  house rule ``terrain_cost: double`` only (the book gives terrain no cost).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from arbitre.rules.answers import (
    ImpactAnswer,
    Margin,
    PotentialsAnswer,
    Reason,
    Said,
    Unit,
    counted,
    warning_lines,
    with_certainty,
)
from arbitre.rules.choc_base_6.activation import (
    RegroupAnswer,
    TurnOrderAnswer,
    regroup_answer,
    turn_order_answer,
)
from arbitre.rules.choc_base_6.book import (
    NUMBERS,
    SHOOTER_TYPE,
    BonusTo,
    ImpactAction,
    figure_pa,
    figure_pi,
    impact_answer,
    is_sniper,
    potentials_answer,
)
from arbitre.rules.choc_base_6.grid import Cell, grid_of
from arbitre.rules.choc_base_6.grid_answers import (
    GridContactAnswer,
    GridDistanceAnswer,
    GridFireAnswer,
    GridGroupsAnswer,
    GridMoveAnswer,
    GridReachAnswer,
)
from arbitre.rules.choc_base_6.grid_ground import Ground, cells_between, square_shot, walk_back
from arbitre.rules.choc_base_6.grid_groups import (
    cell_groups,
    cell_movers,
    cell_text,
    cells_text,
    group_names,
    touches_enemy,
)
from arbitre.rules.choc_base_6.options import options_of
from arbitre.rules.choc_base_6.questions import cb6_questions
from arbitre.rules.choc_base_6.reasons import reason_words
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Scene
from arbitre.rules.options import Bonus, Die, Name, SideDice
from arbitre.rules.ruleset import Question, Ruleset, coordinate_mm
from arbitre.rules.terrain import terrain_cost_notes


class ChocBase6Grid(Ruleset):
    """CB6 on a hex or square grid; `arbitre.rules.choc_base_6.ChocBase6` hands grid scenes here."""

    name = "choc-base-6"

    def unit(self, scene: Scene) -> Unit:
        return grid_of(scene).unit

    def questions(self) -> Mapping[str, Question]:
        return cb6_questions(self, grid=True)

    def distance(self, scene: Scene, a: str, b: str) -> GridDistanceAnswer:
        grouping = cell_groups(scene)
        grid = grouping.grid
        first, second = grouping.named(scene, a), grouping.named(scene, b)
        steps = grid.steps(first.cell, second.cell)
        unit = grid.unit
        return GridDistanceAnswer(
            question="distance",
            message=f"{a} ({cell_text(first.cell)}) to {b} ({cell_text(second.cell)}): "
            f"{steps} {unit.name}",
            a=a,
            b=b,
            distance_mm=unit.to_mm(steps),
            distance_units=float(steps),
            unit=unit.name,
            mode="cells",
            cell_a=first.cell,
            cell_b=second.cell,
            coordinates=grid.coordinates,
        )

    def contact(self, scene: Scene, a: str, b: str) -> GridContactAnswer:
        grouping = cell_groups(scene)
        grid = grouping.grid
        first, second = grouping.named(scene, a), grouping.named(scene, b)
        if first.name == second.name:
            raise QuestionError(f"{a!r} and {b!r} are the same group {first.name!r}")
        steps = grid.steps(first.cell, second.cell)
        touching = steps == 1
        margins = (first.margin, second.margin)
        side = "a side" if grid.kind == "square" else "neighbouring hexes"
        verdict = f"in contact ({side})" if touching else f"not in contact ({steps} cells apart)"
        return GridContactAnswer(
            question="contact",
            message=with_certainty(
                f"{first.name} ({cell_text(first.cell)}) and {second.name} "
                f"({cell_text(second.cell)}) are {verdict}",
                *margins,
            ),
            margins=margins,
            a=a,
            b=b,
            contact=touching,
            gap_mm=grid.unit.to_mm(max(steps - 1, 0)),
            threshold_mm=0.0,
            cell_a=first.cell,
            cell_b=second.cell,
            steps=steps,
        )

    def fire(self, scene: Scene, a: str, b: str) -> GridFireAnswer:
        grouping = cell_groups(scene)
        grid = grouping.grid
        unit = grid.unit
        shooter, target = grouping.named(scene, a), grouping.named(scene, b)
        if shooter.name == target.name:
            raise QuestionError(f"{a!r} and {b!r} are the same group {shooter.name!r}")
        reasons: list[Reason] = []
        warnings: list[str] = []
        if not (shooter.in_grid and target.in_grid):
            reasons.append(Reason.NOT_IN_GRID)
        if not scene.are_enemies(shooter.side, target.side):
            reasons.append(Reason.TARGET_NOT_ENEMY)
        shooters = [f for f in shooter.figures if f.type == SHOOTER_TYPE]
        if not shooters:
            reasons.append(Reason.NO_SHOOTERS)
        if touches_enemy(scene, grouping, shooter):
            reasons.append(Reason.IN_CONTACT_WITH_ENEMY)
        if touches_enemy(scene, grouping, target):
            reasons.append(Reason.TARGET_IN_CONTACT)

        snipers = [f for f in shooters if is_sniper(f)]
        reach = NUMBERS.sniper_range_units if snipers else NUMBERS.range_units
        steps = grid.steps(shooter.cell, target.cell)
        occupied = {cell for cell in grouping.by_cell if cell not in (shooter.cell, target.cell)}
        line: list[Cell]
        blocked_by: list[str] = []
        count = steps
        if grid.kind == "hex" and options_of(scene).hex_fire == "line":
            first, second = grid.hex_lines(shooter.cell, target.cell)
            through, one_side, other_side = grid.hex_shot_cells(shooter.cell, target.cell)
            first_blockers = [c for c in [*through, *one_side] if c in occupied]
            second_blockers = [c for c in [*through, *other_side] if c in occupied]
            line = second if first_blockers and not second_blockers else first
            if first_blockers and second_blockers:
                blocked_by = group_names(
                    grouping, list(dict.fromkeys(first_blockers + second_blockers))
                )
        else:
            route = square_shot(grid, shooter.cell, target.cell, occupied, int(reach))
            if route is None:
                line = []
                if steps <= reach:
                    between = cells_between(grid, shooter.cell, target.cell)
                    blocked_by = group_names(grouping, [c for c in between if c in occupied])
            else:
                line, count = route, len(route) - 1
        if steps > reach:
            reasons.append(Reason.OUT_OF_RANGE)
        elif blocked_by or not line:
            reasons.append(Reason.LINE_BLOCKED)

        counted = shooters
        band: str | None = None
        if Reason.OUT_OF_RANGE not in reasons:
            band = "normal" if count <= NUMBERS.range_units else "sniper"
            if band == "sniper":
                counted = snipers
                warnings.append(
                    Said(
                        "snipers_only",
                        "beyond {units} {unit} only the snipers' PI counts",
                        units=f"{NUMBERS.range_units:g}",
                        unit=unit.name,
                    )
                )
        pi_total = sum(figure_pi(f) for f in counted)
        allowed = not reasons
        margins = (shooter.margin, target.margin)
        if allowed:
            text = (
                f"{shooter.name} may shoot at {target.name} at {count} {unit.name} "
                f"({cells_text(line)}), PI {pi_total}"
            )
        else:
            why = reason_words(reasons)
            extra = f" (blocked by {', '.join(blocked_by)})" if blocked_by else ""
            text = (
                f"{shooter.name} may not shoot at {target.name} ({steps} {unit.name}): {why}{extra}"
            )
        return GridFireAnswer(
            question="fire",
            message=with_certainty(text, *margins),
            margins=margins,
            shooter=shooter.name,
            target=target.name,
            allowed=allowed,
            reasons=tuple(reasons),
            distance_mm=unit.to_mm(count),
            distance_units=float(count),
            unit=unit.name,
            band=band,
            blocked_by=tuple(blocked_by),
            warnings=tuple(warnings),
            shooters=tuple(f.id for f in counted),
            pi=pi_total if allowed else 0,
            cell_shooter=shooter.cell,
            cell_target=target.cell,
            line_cells=tuple(line),
        )

    def move(self, scene: Scene, a: str, x: str, y: str) -> GridMoveAnswer:
        grouping = cell_groups(scene)
        grid = grouping.grid
        unit = grid.unit
        goal_x, goal_y = coordinate_mm(x, "X"), coordinate_mm(y, "Y")
        goal = grid.cell_of(goal_x, goal_y)
        group, movers = cell_movers(scene, grouping, a)
        allowance = min(figure_pa(f) for f in movers)
        staying = len(movers) < len(group.figures)
        ground = Ground.of(scene, grouping, group, staying)
        reasons: list[Reason] = []
        occupant = grouping.by_cell.get(goal)
        if not group.in_grid or not grid.in_grid(goal):
            reasons.append(Reason.NOT_IN_GRID)
        elif goal in ground.blocked:
            reasons.append(Reason.IMPASSABLE)
        if occupant is not None and (occupant.name != group.name or staying):
            reasons.append(Reason.DESTINATION_OCCUPIED)
        path: list[Cell] = []
        cost = math.inf
        blocked_by: list[str] = []
        if not reasons:
            costs, previous = ground.search(group.cell, with_groups=True)
            if goal in costs:
                cost = costs[goal]
                path = walk_back(previous, goal)
            if cost > allowance:
                free_costs, free_previous = ground.search(group.cell, with_groups=False)
                if free_costs.get(goal, math.inf) <= allowance:
                    # Groups in the way make the only way round too long.
                    reasons.append(Reason.PATH_BLOCKED)
                    free_path = walk_back(free_previous, goal)
                    blocked_by = group_names(grouping, [c for c in free_path if c in ground.groups])
                elif math.isinf(cost):  # no way there at all, as on the neutral surface
                    reasons.append(Reason.PATH_BLOCKED)
                else:
                    reasons.append(Reason.OVER_ALLOWANCE)
        legal = not reasons
        margins = (
            group.margin,
            Margin("cell of the destination", grid.boundary_margin_mm(goal_x, goal_y), 0.0),
        )
        cost_units = float(cost) if math.isfinite(cost) else math.inf
        if legal:
            text = (
                f"{a} may move from {cell_text(group.cell)} to {cell_text(goal)}: "
                f"{cost} {unit.name} ({cells_text(path)}), allowance {allowance} {unit.name}"
            )
        else:
            extra = f" (by {', '.join(blocked_by)})" if blocked_by else ""
            shown = f"{cost} {unit.name}" if math.isfinite(cost) else "no way"
            text = (
                f"{a} may not move from {cell_text(group.cell)} to {cell_text(goal)}: "
                f"{reason_words(reasons)}{extra} ({shown}, allowance {allowance} {unit.name})"
            )
        notes = terrain_cost_notes(options_of(scene).terrain_cost)
        return GridMoveAnswer(
            question="move",
            message=with_certainty(text, *margins) + warning_lines(notes),
            margins=margins,
            mover=a,
            legal=legal,
            reasons=tuple(reasons),
            cost_mm=unit.to_mm(cost_units),
            cost_units=cost_units,
            allowance_mm=unit.to_mm(allowance),
            allowance_units=float(allowance),
            unit=unit.name,
            path_mm=tuple(grid.centre(c) for c in path),
            blocked_by=tuple(blocked_by),
            cell_from=group.cell,
            cell_to=goal,
            path_cells=tuple(path),
            warnings=notes,
        )

    def reach(self, scene: Scene, a: str) -> GridReachAnswer:
        grouping = cell_groups(scene)
        grid = grouping.grid
        unit = grid.unit
        group, movers = cell_movers(scene, grouping, a)
        allowance = min(figure_pa(f) for f in movers)
        ground = Ground.of(scene, grouping, group, len(movers) < len(group.figures))
        cells: list[tuple[int, Cell]] = []
        if group.in_grid:
            costs, _ = ground.search(group.cell, with_groups=True, limit=allowance)
            cells = sorted(
                (cost, cell)
                for cell, cost in costs.items()
                if cell != group.cell and cost <= allowance
            )
        polygons = tuple(grid.corners(cell) for _, cell in cells)
        notes = terrain_cost_notes(options_of(scene).terrain_cost)
        return GridReachAnswer(
            question="reach",
            message=f"{a} may move to {counted(len(cells), 'cell')} within {allowance} {unit.name}"
            + (f": {', '.join(cell_text(c) for _, c in cells)}" if cells else "")
            + warning_lines(notes),
            mover=a,
            area_mm2=len(cells) * grid.cell_area_mm2,
            polygons_mm=polygons,
            holes_mm=tuple(() for _ in polygons),
            allowance_mm=unit.to_mm(allowance),
            allowance_units=float(allowance),
            unit=unit.name,
            cell_from=group.cell,
            cells=tuple(cell for _, cell in cells),
            cell_steps=tuple(cost for cost, _ in cells),
            warnings=notes,
        )

    def groups(self, scene: Scene) -> GridGroupsAnswer:
        grouping = cell_groups(scene)
        listing = ", ".join(
            f"{g.name} {cell_text(g.cell)} ({len(g.figures)})" for g in grouping.groups
        )
        return GridGroupsAnswer(
            question="groups",
            message=f"{len(grouping.groups)} groups: {listing}" + warning_lines(grouping.warnings),
            groups={g.name: list(g.ids) for g in grouping.groups},
            references={g.name: g.reference.id if g.reference else None for g in grouping.groups},
            sides={g.name: g.side for g in grouping.groups},
            warnings=grouping.warnings,
            cells={g.name: g.cell for g in grouping.groups},
            coordinates=grouping.grid.coordinates,
        )

    def impact(
        self,
        scene: Scene,
        a: str,
        b: str,
        action: ImpactAction = "fire",
        die: Die | None = None,
        bonus: Bonus = 0,
        bonus_to: BonusTo = "pi",
    ) -> ImpactAnswer:
        grouping = cell_groups(scene)
        attacker, target = (
            grouping.named(scene, a),
            grouping.named(scene, b),
        )
        return impact_answer(
            attacker,
            target,
            action,
            die,
            bonus,
            fire=lambda: self.fire(scene, a, b),
            in_contact=lambda: self.contact(scene, a, b).contact,
            bonus_to=bonus_to,
            enemies=scene.are_enemies(attacker.side, target.side),
        )

    def potentials(self, scene: Scene, a: str) -> PotentialsAnswer:
        grouping = cell_groups(scene)
        group = grouping.named(scene, a)
        return potentials_answer(group, grouping.grid.unit, f" ({cell_text(group.cell)})")

    def regroup(self, scene: Scene, a: str, b: str, manager: Name | None = None) -> RegroupAnswer:
        """Regrouping two friendly groups (§4.2): neighbouring cells, neither touching an enemy."""
        grouping = cell_groups(scene)
        grid = grouping.grid
        first, second = grouping.named(scene, a), grouping.named(scene, b)
        if first.name == second.name:
            raise QuestionError(f"{a!r} and {b!r} are the same group {first.name!r}")
        found: list[tuple[Reason, str]] = []
        if scene.are_enemies(first.side, second.side):
            found.append((Reason.NOT_FRIENDLY, f" ({first.side} and {second.side})"))
        steps = grid.steps(first.cell, second.cell)
        if steps != 1:
            found.append((Reason.NOT_IN_CONTACT, f" ({steps} {grid.unit.name} apart)"))
        for group in (first, second):
            if touches_enemy(scene, grouping, group):
                found.append((Reason.IN_CONTACT_WITH_ENEMY, f" ({group.name})"))
        return regroup_answer(first, second, found, (first.margin, second.margin), (), manager)

    def turn_order(self, scene: Scene, dice: SideDice | None = None) -> TurnOrderAnswer:
        """Who activates first this turn (§3): the side with the most groups; ties by 1D6."""
        grouping = cell_groups(scene)
        return turn_order_answer(grouping.groups, dice, grouping.warnings)


GRID = ChocBase6Grid()
