"""Smooth & Rifled: a scene's options (``options:``), with their defaults, and the options
questions take (``--with``), typed (see `arbitre.rules.options`).

The ``scale: 15mm`` option halves every distance of the rules.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from arbitre.rules.model import Scene
from arbitre.rules.options import GapMm, Takes
from arbitre.rules.ruleset import scene_options
from arbitre.rules.smooth_and_rifled.book import MM_PER_CM

Action = Literal["first", "later"]
"""The ``action`` option of moves and charges: the activation's first action or a later one."""
ActionIndex = Annotated[int, Field(ge=1, le=3), Takes("the action's rank, 1, 2 or 3")]
"""The ``action_index`` option: which action of the activation (3: running)."""
Calibre = Literal["light", "medium"]
"""The ``calibre`` option of ``explosion``: a gun of the book's ``GUNS``."""
Edge = Literal["x0", "x_max", "y0", "y_max"]
"""The ``edge`` option of ``deployment``: the table edge a side deploys along."""
DeploymentScenario = Literal["standard", "assault"]
"""The ``scenario`` option of ``deployment``: Annexe I's standard zones, or scenario 4's
attackers (from several edges, scouts no further)."""
GameFormat = Literal["small", "medium"]
"""The ``game_format`` option of ``objective``: the Annexe I format (« Petit », « Moyen »)."""
Turn = Annotated[int, Field(ge=1, le=1000), Takes("a turn's number, a whole number 1 to 1000")]
"""The ``turn`` option of ``objective``."""
LengthCm = Annotated[
    float,
    Field(gt=0, le=1000, allow_inf_nan=False, strict=True),
    Takes("a length in cm, a number above 0 and at most 1000"),
]
"""The ``length_cm`` option of ``roundshot``: the strip's length rolled, in cm."""
VaLast = Annotated[
    int, Field(ge=1, le=6), Takes("the last number of the spotter's VA, a whole number 1 to 6")
]
"""The ``va`` option of ``spot``."""


class SmoothAndRifledOptions(BaseModel):
    """``options:`` of a Smooth & Rifled scene."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    scale: Literal["28mm", "15mm"] = "28mm"
    contact_tolerance_mm: GapMm = 2.0
    loose_order: bool = False
    group_rule: Literal["chain_and_radius", "chain_or_radius"] = "chain_and_radius"
    leader_radius_cm: Annotated[float, Field(gt=0, allow_inf_nan=False, le=10_000, strict=True)] = (
        10.0
    )
    leader_triple: Literal["same_face", "five_or_six"] = "same_face"
    """Which volley dice expose a close-order group's Leader (§6.2.5, « un triple 5 ou 6 »):
    three 5s or three 6s (the reading chosen), or ``five_or_six``: three dice each a 5 or 6."""
    cavalry_behind_foot: Literal["priority", "over_foot"] = "priority"
    """What §6.2's « à l'exception des cavaliers, qui peuvent être pris pour cible si ils sont
    derrière des fantassins » excepts: the nearest-target priority only (the reading
    chosen), or ``over_foot``: a mounted target may be shot over figures on foot, which do
    not block the line to it."""
    volley_chain: Literal["skip", "stop"] = "skip"
    """Where a volley's extra hits on a loose-order group go when the figure nearest the last
    one hit may not be hit by the volley (out of its arc or sight, §6.2.5): the next nearest
    that may (the reading chosen), or ``stop``: the chain ends there and the hit is lost (the
    worked example: « Le prochain devrait être G ... La quatrième touche est perdue »)."""
    save_substitute: Literal["friend", "any"] = "friend"
    """Who takes a saved hit (§6.2.8, « la figurine la plus proche »): the nearest friend
    (the reading chosen), or ``any``: the nearest figure whatever its side."""
    impetuous_vs_mounted: Literal["none", "mounted_only"] = "none"
    """Who keeps the impetuous die charging a mounted enemy: nobody (§6.7.1, « sauf si la
    figurine ennemie est montée », the reading chosen), or ``mounted_only``: impetuous
    cavalry does (§8.0, « L'infanterie ne dispose de ce bonus que contre de l'infanterie »)."""

    @property
    def scale_factor(self) -> float:
        """Factor applied to every distance of the rules (15 mm games halve them)."""
        return 0.5 if self.scale == "15mm" else 1.0

    def mm(self, rule_cm: float) -> float:
        """A distance of the rule book (cm at 28 mm) as table millimetres at this scale.

        >>> SmoothAndRifledOptions(scale="15mm").mm(12)
        60.0
        """
        return rule_cm * MM_PER_CM * self.scale_factor

    def mm_or(self, rule_cm: float, small_scale_cm: float | None) -> float:
        """A distance the book gives for both scales: its own 15 mm value when it has one.

        >>> small, large = SmoothAndRifledOptions(scale="15mm"), SmoothAndRifledOptions()
        >>> small.mm_or(25, 15), large.mm_or(25, 15)
        (150.0, 250.0)
        """
        if self.scale == "15mm" and small_scale_cm is not None:
            return small_scale_cm * MM_PER_CM
        return self.mm(rule_cm)


def options_of(scene: Scene) -> SmoothAndRifledOptions:
    """A Smooth & Rifled scene's options."""
    return scene_options(scene, SmoothAndRifledOptions)
