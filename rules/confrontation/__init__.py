"""Confrontation 3, initiation rules: melees split into combats.

Figures stand on round bases; every distance is measured base edge to base edge,
in cm. Two bases are in contact when the gap between them is at most
``contact_tolerance_mm``. Readings chosen where the book is silent:

* a *melee* is a cluster of figures linked by base contact between enemies;
* a *combat* is a star: one figure (the centre) against one or several enemies
  touching its base; the opponents of a lone figure form one camp, so they may
  not be enemies of each other (this only matters with three or more sides);
* a *split* of a melee puts every figure of it in exactly one combat; `melees`
  lists every split, at most ``max_partitions`` per melee (``truncated: true``
  beyond), or explains why there is none; the search has a budget (``exhausted:
  true`` when it stops on it) and a melee of more than 300 figures is not searched;
* the proposed split is, among the splits listed, the one whose largest combat
  is smallest (the most engaged figure rolls the fewest dice), then the one
  with the most combats (duels first);
* a pursuit (half MOU, rounded up to the cm) goes round other figures' bases and
  impassable ground, and pays double in difficult ground and woods.

Modules
-------
:mod:`~arbitre.rules.confrontation.ruleset` holds :class:`Confrontation` and its measures;
:mod:`~arbitre.rules.confrontation.combats` answers the melees, dice and initiative, and
:mod:`~arbitre.rules.confrontation.pursuit` the pursuit.
:mod:`~arbitre.rules.confrontation.book` holds the book's numbers,
:mod:`~arbitre.rules.confrontation.options` a scene's options and the ``partition`` option,
:mod:`~arbitre.rules.confrontation.answers` the answer types,
:mod:`~arbitre.rules.confrontation.reasons` the words of their reasons,
:mod:`~arbitre.rules.confrontation.contacts` the base contacts,
:mod:`~arbitre.rules.confrontation.partition` the search for the splits of a melee and
the proposal, :mod:`~arbitre.rules.confrontation.melees` the melees of a scene, and
:mod:`~arbitre.rules.confrontation.dice` the dice, initiative and pursuit arithmetic.
"""

from typing import TYPE_CHECKING

from arbitre.rules.confrontation.book import BLOCKING_TERRAIN, NUMBERS, Numbers
from arbitre.rules.confrontation.contacts import Contacts, base_of, edge_gap_mm, find_contacts
from arbitre.rules.confrontation.options import ConfrontationOptions
from arbitre.rules.confrontation.ruleset import Confrontation
from arbitre.rules.lazy import exported_lazily

if TYPE_CHECKING:
    from arbitre.rules.confrontation.answers import (
        DiceAnswer,
        InitiativeAnswer,
        MeleesAnswer,
        PursuitAnswer,
    )
    from arbitre.rules.confrontation.dice import (
        dice_of_split,
        initiative_odds,
        initiative_score,
        pursuit_distance_cm,
    )
    from arbitre.rules.confrontation.melees import Melee, find_melees
    from arbitre.rules.confrontation.partition import (
        Combat,
        MeleeGraph,
        Split,
        best_split,
        combats_of,
        explain_none,
        split_melee,
    )

__all__ = [
    "BLOCKING_TERRAIN",
    "NUMBERS",
    "Combat",
    "Confrontation",
    "ConfrontationOptions",
    "Contacts",
    "DiceAnswer",
    "InitiativeAnswer",
    "Melee",
    "MeleeGraph",
    "MeleesAnswer",
    "Numbers",
    "PursuitAnswer",
    "Split",
    "base_of",
    "best_split",
    "combats_of",
    "dice_of_split",
    "edge_gap_mm",
    "explain_none",
    "find_contacts",
    "find_melees",
    "initiative_odds",
    "initiative_score",
    "pursuit_distance_cm",
    "split_melee",
]

__getattr__ = exported_lazily(
    __name__,
    {
        "answers": ("DiceAnswer", "InitiativeAnswer", "MeleesAnswer", "PursuitAnswer"),
        "dice": ("dice_of_split", "initiative_odds", "initiative_score", "pursuit_distance_cm"),
        "melees": ("Melee", "find_melees"),
        "partition": (
            "Combat",
            "MeleeGraph",
            "Split",
            "best_split",
            "combats_of",
            "explain_none",
            "split_melee",
        ),
    },
)
