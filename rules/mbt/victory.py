"""Victory: the losses each side has inflicted, the objectives captured, the generals taken.

"Sera déclaré vainqueur le premier joueur prenant le général de l'adversaire, ou ayant
infligé 3 pertes à son adversaire." (Principes du jeu) "De même, il est possible de
désigner des objectifs, qui peuvent valoir 1, 2 ou 3 pertes en cas de capture."
(Mouvements)
"""

from __future__ import annotations

import shapely

from arbitre.nearest import nearest_words
from arbitre.rules.answers import Margin, Said, with_certainty
from arbitre.rules.mbt.answers import VictoryAnswer
from arbitre.rules.mbt.book import NUMBERS
from arbitre.rules.mbt.options import options_of
from arbitre.rules.mbt.plates import plates_of
from arbitre.rules.model import Scene


def victory_answer(scene: Scene) -> VictoryAnswer:
    """Who has won: a side that took the enemy's general, or inflicted 3 losses.

    A side's losses are its bases missing from the table (``bases_per_side`` less those
    on it: the book gives every player the same number) and the worth of the objectives
    its enemies hold; its general is taken when ``bases_per_side`` is given and none of its
    bases left is a general. The sides are those on the table and those ``sides`` names: a
    side with no base left has lost them all. An objective is held by a side with a base on
    its point (within the contact tolerance) and no enemy base there."""
    options = options_of(scene)
    plates = plates_of(scene)
    on_table = {p.figure.side for p in plates}
    sides = sorted(on_table | set(options.sides))
    holders: dict[str, str | None] = {}
    margins: list[Margin] = []
    for objective in options.objectives:
        point = shapely.Point(objective.x_mm, objective.y_mm)
        near: dict[str, tuple[float, float]] = {}  # side: its nearest base's gap, sigma
        for plate in plates:
            gap = float(shapely.distance(plate.polygon(), point))
            side = plate.figure.side
            if side not in near or gap < near[side][0]:
                near[side] = (gap, plate.figure.sigma_mm)
        for side, (gap, sigma) in near.items():
            what = f"objective {objective.id}: {side}"
            margins.append(Margin(what, abs(options.contact_tolerance_mm - gap), sigma))
        on = [
            side for side in sides if side in near and near[side][0] <= options.contact_tolerance_mm
        ]
        holders[objective.id] = on[0] if len(on) == 1 else None
    lost_bases = {
        side: (
            0
            if options.bases_per_side is None
            else max(0, options.bases_per_side - sum(p.figure.side == side for p in plates))
        )
        for side in sides
    }
    general_taken = {
        side: options.bases_per_side is not None
        and not any(p.figure.side == side and p.figure.attrs.get("general") for p in plates)
        for side in sides
    }
    losses = {
        side: lost_bases[side]
        + sum(o.worth for o in options.objectives if holders[o.id] not in (None, side))
        for side in sides
    }
    beaten = [
        side for side in sides if losses[side] >= NUMBERS.losses_to_win or general_taken[side]
    ]
    winners = [side for side in sides if beaten and all(b != side for b in beaten)]
    warnings: list[str] = []
    if options.bases_per_side is None:
        warnings.append(
            Said(
                "victory_give_bases",
                "give bases_per_side (the bases each player set up) to count the bases "
                "lost and see a general taken",
            )
        )
    if options.bases_per_side is not None and len(sides) == 1:
        warnings.append(
            Said(
                "victory_give_sides",
                "only {side} has bases on the table: give sides (every player's side) to "
                "count a side that has none left",
                side=sides[0],
            )
        )
    warnings.extend(_sides_warnings(on_table, options.sides))
    winner = winners[0] if len(winners) == 1 and len(beaten) == len(sides) - 1 else None
    if winner is None and beaten and len(beaten) == len(sides):
        warnings.append(
            Said(
                "victory_both",
                "every side has lost: the first to win wins (the book: le premier)",
            )
        )
    counted = ", ".join(
        f"{side} {losses[side]} lost" + (", general taken" if general_taken[side] else "")
        for side in sides
    )
    if winner is None and beaten and len(beaten) == len(sides):
        text = f"every side is beaten ({counted}): the first to beat the other has won"
    elif winner is None and beaten:  # three sides or more: one beaten, the others not yet
        verb = "is" if len(beaten) == 1 else "are"
        text = f"{' and '.join(beaten)} {verb} beaten, but no side has won yet ({counted})"
    elif winner is None:
        text = f"no side has won yet ({counted})"
    else:
        text = f"{winner} has won ({counted})"
    return VictoryAnswer(
        question="victory",
        message=with_certainty(text, *margins) if margins else text,
        margins=tuple(margins),
        winner=winner,
        losses=losses,
        bases_lost=lost_bases,
        general_taken=general_taken,
        objectives=holders,
        losses_to_win=NUMBERS.losses_to_win,
        warnings=tuple(warnings),
    )


def _sides_warnings(on_table: set[str], listed: tuple[str, ...]) -> list[str]:
    """Say a side named in ``sides`` looks like a slip for a side on the table (it would
    count as a side with no base left), and a side on the table is missing from ``sides``.
    """
    if not listed:
        return []
    warnings: list[str] = []
    named: set[str] = set()
    for side in sorted(set(listed) - on_table):
        for near in nearest_words(side, on_table, count=1):
            named.add(near)
            warnings.append(
                Said(
                    "victory_side_unknown",
                    "no base is of the side '{side}' named in sides (did you mean '{near}'?): "
                    "it counts as a side with no base left",
                    side=side,
                    near=near,
                )
            )
    for side in sorted(on_table - set(listed) - named):
        warnings.append(
            Said(
                "victory_side_not_listed",
                "{side} has bases on the table but is not among sides ({sides})",
                side=side,
                sides=", ".join(listed),
            )
        )
    return warnings
