"""MBT - Mini-bataille terrestre (rule book version 1.1).

Rectangular bases with a facing; distances in graduations (``graduation_mm``,
default 25 mm) between the closest points of the rectangles. Readings chosen
where the book is silent (see ``docs/rules/mbt.md``):

* two bases are in contact when their gap is at most ``contact_tolerance_mm``;
  an *edge* contact has two edges parallel (within ``align_tolerance_deg``), on
  one line and overlapping; any other contact is a *corner* contact;
* face to face: the two front edges in edge contact, facings opposite;
* a move takes the cheapest way of the base's centre round the other bases (their
  rectangles), impassable ground and the table edge, the base kept at its facing and
  seen, against them, as its own rectangle at that facing; the centre's path counts
  double (``difficult_factor``) while the rectangle, at its facing, overlaps difficult
  ground; a base may end its move at another facing (``facing_deg``), turning free on
  its centre where it ends, or where it starts when it has no room there;
  woods are what the scenario says (``woods_for_cavalry``, default impassable;
  ``woods_for_infantry``, default difficult);
* a base named alone moves at its own pace; its group moves as one (the rectangle
  holding its bases, at the slowest pace) only when asked (``as_group``);
* a panicking elephant goes by its die, keeping its facing, its base's depth
  (``panic_distance``), trampling the bases it enters and stopping against an
  elephant, which panics next;
* a recoil moves the loser straight back by its depth; it is blocked by the
  table edge, impassable ground, any other base in the way, or by ending in
  contact with an enemy's front edge;
* a shooter's target must lie at least partly in the strip ahead of its front
  edge between the lines extending its sides (``arc: front``), or in the 90°
  arc centred on its facing (``arc: 90``); chariots shoot all round.

Modules
-------
:mod:`~arbitre.rules.mbt.ruleset` holds :class:`Mbt` (its distance and contact are the
shared ones, the contact told by an edge or a corner), whose questions are answered by
:mod:`~arbitre.rules.mbt.combat` (facing, points, combat, recoil),
:mod:`~arbitre.rules.mbt.shooting`, :mod:`~arbitre.rules.mbt.moves` (moves, reach,
groups) and :mod:`~arbitre.rules.mbt.panic` (elephants).
:mod:`~arbitre.rules.mbt.book` holds the book's numbers, :mod:`~arbitre.rules.mbt.options`
a scene's options and unit, :mod:`~arbitre.rules.mbt.reasons` the words of its reasons,
:mod:`~arbitre.rules.mbt.plates` the bases as rectangles (edges, contact, alignment,
groups, the ground a base may not enter) and :mod:`~arbitre.rules.mbt.answers` the answer
types.
"""

from typing import TYPE_CHECKING

from arbitre.rules.lazy import exported_lazily
from arbitre.rules.mbt.book import NUMBERS, Numbers
from arbitre.rules.mbt.options import MbtOptions
from arbitre.rules.mbt.plates import Plate, edge_contact, penetration_mm
from arbitre.rules.mbt.ruleset import Mbt

if TYPE_CHECKING:
    from arbitre.rules.mbt.answers import (
        CombatAnswer,
        FacingAnswer,
        MbtContactAnswer,
        MbtFireAnswer,
        MbtMoveAnswer,
        MbtReachAnswer,
        Side,
    )
    from arbitre.rules.mbt.combat import base_figures, combat_points, outcome, recoil_blockers
    from arbitre.rules.mbt.moves import move_allowance

__all__ = [
    "NUMBERS",
    "CombatAnswer",
    "FacingAnswer",
    "Mbt",
    "MbtContactAnswer",
    "MbtFireAnswer",
    "MbtMoveAnswer",
    "MbtOptions",
    "MbtReachAnswer",
    "Numbers",
    "Plate",
    "Side",
    "base_figures",
    "combat_points",
    "edge_contact",
    "move_allowance",
    "outcome",
    "penetration_mm",
    "recoil_blockers",
]

__getattr__ = exported_lazily(
    __name__,
    {
        "answers": (
            "CombatAnswer",
            "FacingAnswer",
            "MbtContactAnswer",
            "MbtFireAnswer",
            "MbtMoveAnswer",
            "MbtReachAnswer",
            "Side",
        ),
        "combat": ("base_figures", "combat_points", "outcome", "recoil_blockers"),
        "moves": ("move_allowance",),
    },
)
