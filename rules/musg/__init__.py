"""M.U.S.G. - Multi Universe Skirmishes Game (rule book "Les règles de jeu").

Individual characters; distances in pas (paces), ``pace_mm`` long (default one
inch, 25.4 mm). Readings chosen where the book is silent (see ``docs/rules/musg.md``):

* distances run base edge to base edge (option ``measure: edge``), or centre to
  centre (``measure: centre``); a figure without a base stands on a disc of
  ``base_diameter_mm``; contact is a gap of at most ``contact_tolerance_mm``;
* difficult ground and woods cost two paces a pace; impassable ground and
  buildings block; obstacles (fences, walls) do not slow a move;
* a charge must end, within its 1.5 moves, with the mover's base touching an enemy's,
  else it is a run (2 PA) along the charge's way;
* the line of sight runs from the shooter's centre (its eye), in plan, however high
  either figure stands (the book gives elevation no rule); the hidden fraction
  of the target is the part of the angle its base spans at the eye that the
  shadows of obstacles, woods, buildings and other figures cover (only what lies
  between the shooter and the target casts a shadow; features under the
  shooter's own base are looked over); the target is in cover when more than
  half is hidden, and out of sight when buildings hide it whole;
* each obstacle in cover gets one cover roll, by the range band of the distance
  from the shooter to the obstacle: 3+ short, 4+ medium, 5+ long;
* a weapon's bands come from its profile (``short_pas``, ``medium_pas``,
  ``long_pas``), or thirds of ``range_pas``.

Modules
-------
:mod:`~arbitre.rules.musg.ruleset` holds :class:`Musg`, whose questions are answered by
:mod:`~arbitre.rules.musg.fire` (with :mod:`~arbitre.rules.musg.sight` for line of sight and
cover), :mod:`~arbitre.rules.musg.moves` (moves and reach), :mod:`~arbitre.rules.musg.support`
(leaving a melee, allies and leaders), :mod:`~arbitre.rules.musg.morale` (when the command
tests are due), :mod:`~arbitre.rules.musg.reactions` (the moves of failed tests: 1d3 pas under
fire and under a charge, the walk away of a figure not daring to charge, the table edge a
routed figure heads for),
:mod:`~arbitre.rules.musg.mishaps` (shooting accidents: exploding black-powder weapons, a bow's
stray missile) and :mod:`~arbitre.rules.musg.dice` (initiative and damage).
:mod:`~arbitre.rules.musg.book` holds the book's numbers,
:mod:`~arbitre.rules.musg.options` a scene's options and its questions' typed options,
:mod:`~arbitre.rules.musg.bases` the figures' bases and the measures between them,
:mod:`~arbitre.rules.musg.answers` the answer types and :mod:`~arbitre.rules.musg.reasons`
the words of their reasons.
"""

from typing import TYPE_CHECKING

from arbitre.rules.lazy import exported_lazily
from arbitre.rules.musg.bases import Footprints
from arbitre.rules.musg.book import (
    BANDS,
    BLOCKING_TERRAIN,
    BOUNDS_SLACK_MM,
    BOW_KINDS,
    COSTLY_TERRAIN,
    COVER_TERRAIN,
    DAMAGE_TABLE,
    NUMBERS,
    RANKS,
    TABLE_MAX,
    TOUCH_MM,
    Numbers,
    Weapon,
    cover_roll_needed,
    parse_weapon,
)
from arbitre.rules.musg.options import MODES, Length, MusgOptions
from arbitre.rules.musg.ruleset import Musg

if TYPE_CHECKING:
    from arbitre.rules.musg.answers import (
        CoverRoll,
        DamageAnswer,
        InitiativeAnswer,
        LeaveAnswer,
        MusgFireAnswer,
        MusgMoveAnswer,
        MusgReachAnswer,
        SupportAnswer,
    )
    from arbitre.rules.musg.dice import damage_needed, damages, dice_passing, initiative_order
    from arbitre.rules.musg.sight import Sight, angular_interval, figures_on_line, line_of_sight

__all__ = [
    "BANDS",
    "BLOCKING_TERRAIN",
    "BOUNDS_SLACK_MM",
    "BOW_KINDS",
    "COSTLY_TERRAIN",
    "COVER_TERRAIN",
    "DAMAGE_TABLE",
    "MODES",
    "NUMBERS",
    "RANKS",
    "TABLE_MAX",
    "TOUCH_MM",
    "CoverRoll",
    "DamageAnswer",
    "Footprints",
    "InitiativeAnswer",
    "LeaveAnswer",
    "Length",
    "Musg",
    "MusgFireAnswer",
    "MusgMoveAnswer",
    "MusgOptions",
    "MusgReachAnswer",
    "Numbers",
    "Sight",
    "SupportAnswer",
    "Weapon",
    "angular_interval",
    "cover_roll_needed",
    "damage_needed",
    "damages",
    "dice_passing",
    "figures_on_line",
    "initiative_order",
    "line_of_sight",
    "parse_weapon",
]

__getattr__ = exported_lazily(
    __name__,
    {
        "answers": (
            "CoverRoll",
            "DamageAnswer",
            "InitiativeAnswer",
            "LeaveAnswer",
            "MusgFireAnswer",
            "MusgMoveAnswer",
            "MusgReachAnswer",
            "SupportAnswer",
        ),
        "dice": ("damage_needed", "damages", "dice_passing", "initiative_order"),
        "sight": ("Sight", "angular_interval", "figures_on_line", "line_of_sight"),
    },
)
