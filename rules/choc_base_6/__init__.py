"""Choc Base 6 (rule book ANNEXE 1-2): groups of 1-6 figures.

A scene's ``surface`` option picks how distances are counted: in M from the
reference figures' heads on a neutral surface, or in cells on a hex or square
grid (H or C).

Modules
-------
:mod:`~arbitre.rules.choc_base_6.ruleset` holds :class:`ChocBase6`, which answers
neutral-surface scenes with :mod:`~arbitre.rules.choc_base_6.neutral` and hands hex and
square scenes to :mod:`~arbitre.rules.choc_base_6.grid_questions`; both surfaces answer the
one table of :mod:`~arbitre.rules.choc_base_6.questions`.
:mod:`~arbitre.rules.choc_base_6.book` holds the book's numbers, figure potentials and
the impact arithmetic shared by both surfaces, :mod:`~arbitre.rules.choc_base_6.options` a
scene's options and :mod:`~arbitre.rules.choc_base_6.reasons` the words of its reasons;
:mod:`~arbitre.rules.choc_base_6.activation` the turn order (§3) and regrouping (§4.2),
also shared.

On a neutral surface, :mod:`~arbitre.rules.choc_base_6.neutral_groups` finds the groups and
their footprints, :mod:`~arbitre.rules.choc_base_6.neutral_obstacles` what stands
between them, and :mod:`~arbitre.rules.choc_base_6.neutral_messages` words the answers.
On a grid, :mod:`~arbitre.rules.choc_base_6.grid` lays the cells on the table,
:mod:`~arbitre.rules.choc_base_6.grid_groups` finds a group per cell,
:mod:`~arbitre.rules.choc_base_6.grid_ground` searches the cells a move or a shot may
cross, and :mod:`~arbitre.rules.choc_base_6.grid_answers` holds the answer types.
"""

from arbitre.rules.choc_base_6.book import (
    BLOCKING_TERRAIN,
    CLOSE_COMBAT_TYPE,
    NUMBERS,
    SHOOTER_TYPE,
    TOUCH_MM,
    GroupLike,
    Numbers,
    figure_pa,
    figure_pi,
    figure_pj,
    impact,
    impact_answer,
    impact_distribution,
    is_sniper,
    potentials_answer,
)
from arbitre.rules.choc_base_6.neutral import ChocBase6Neutral
from arbitre.rules.choc_base_6.neutral_groups import (
    Footprints,
    Group,
    Grouping,
    find_groups,
    footprint_discs,
    group_footprints,
)
from arbitre.rules.choc_base_6.options import ChocBase6Options, options_of
from arbitre.rules.choc_base_6.ruleset import ChocBase6

__all__ = [
    "BLOCKING_TERRAIN",
    "CLOSE_COMBAT_TYPE",
    "NUMBERS",
    "SHOOTER_TYPE",
    "TOUCH_MM",
    "ChocBase6",
    "ChocBase6Neutral",
    "ChocBase6Options",
    "Footprints",
    "Group",
    "GroupLike",
    "Grouping",
    "Numbers",
    "figure_pa",
    "figure_pi",
    "figure_pj",
    "find_groups",
    "footprint_discs",
    "group_footprints",
    "impact",
    "impact_answer",
    "impact_distribution",
    "is_sniper",
    "options_of",
    "potentials_answer",
]
