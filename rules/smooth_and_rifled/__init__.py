"""Smooth & Rifled: skirmishes of individual figures.

Every measure is base edge to base edge, in cm (28 mm figures; ``scale: 15mm``
halves every distance). Readings chosen where the book is silent or ambiguous are
listed in ``docs/rules/smooth-and-rifled.md``; the main ones:

* groups follow the text of §3.0 (``group_rule: chain_and_radius``): a member is
  chained to the Leader's group by gaps of at most 3 cm (8 cm in loose order) and
  lies within 10 cm of the Leader (20 cm with a musician); ``chain_or_radius``
  follows the worked example of §3.1 instead;
* the line of fire and the cover test use the segment between the two centres;
* a group firing is a volley: its own members never block its line, each shooter
  uses the 90 degree group arc from its own facing;
* woods: sight reaches 5 cm into a wood (a figure inside is seen only within 5 cm
  of the edge, a line may run at most 5 cm through a wood holding neither figure);
* linear obstacles block an infantry or artillery move (stop at it, then spend an
  action to cross): a move that must cross one, or ends astride one, answers
  ``obstacle_crossing``; the move mode ``cross`` is the action that crosses it.

Modules
-------
:mod:`~arbitre.rules.smooth_and_rifled.ruleset` holds :class:`SmoothAndRifled`, whose
questions are answered by :mod:`~arbitre.rules.smooth_and_rifled.fire` (bands, arcs, lines
and cover, with :mod:`~arbitre.rules.smooth_and_rifled.geometry`),
:mod:`~arbitre.rules.smooth_and_rifled.moves` (moves, reach and charges, with
:mod:`~arbitre.rules.smooth_and_rifled.obstacles` for linear obstacles),
:mod:`~arbitre.rules.smooth_and_rifled.opportunity` (opportunity fire),
:mod:`~arbitre.rules.smooth_and_rifled.templates` (artillery fire),
:mod:`~arbitre.rules.smooth_and_rifled.gun_moves` (guns moved by their crews) and
:mod:`~arbitre.rules.smooth_and_rifled.tables` (damage, volleys, morale, melee, with the dice
arithmetic of :mod:`~arbitre.rules.smooth_and_rifled.dice`),
:mod:`~arbitre.rules.smooth_and_rifled.support` (saves, rally, standards, guns' crews, ambushes),
:mod:`~arbitre.rules.smooth_and_rifled.scenario` (objective, deployment) and
:mod:`~arbitre.rules.smooth_and_rifled.withdrawal` (falling back before a charge).
:mod:`~arbitre.rules.smooth_and_rifled.book` holds the book's numbers,
:mod:`~arbitre.rules.smooth_and_rifled.options` a scene's options and those questions take,
:mod:`~arbitre.rules.smooth_and_rifled.reasons` the words of its reasons,
:mod:`~arbitre.rules.smooth_and_rifled.bases` the bases and the gaps between them,
:mod:`~arbitre.rules.smooth_and_rifled.groups` the groups around Leaders, and
:mod:`~arbitre.rules.smooth_and_rifled.answers` the answer types.
"""

from typing import TYPE_CHECKING

from arbitre.rules.lazy import exported_lazily
from arbitre.rules.smooth_and_rifled.book import NUMBERS
from arbitre.rules.smooth_and_rifled.options import SmoothAndRifledOptions
from arbitre.rules.smooth_and_rifled.ruleset import SmoothAndRifled

if TYPE_CHECKING:
    from arbitre.rules.smooth_and_rifled.answers import (
        SRChargeAnswer,
        SRFireAnswer,
        SRMoveAnswer,
    )

__all__ = [
    "NUMBERS",
    "SRChargeAnswer",
    "SRFireAnswer",
    "SRMoveAnswer",
    "SmoothAndRifled",
    "SmoothAndRifledOptions",
]

__getattr__ = exported_lazily(
    __name__, {"answers": ("SRChargeAnswer", "SRFireAnswer", "SRMoveAnswer")}
)
