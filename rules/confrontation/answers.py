"""The answer types of Confrontation's questions: melees, dice, initiative, passes of arms,
pursuit."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from arbitre.rules.answers import Answer, ReachAnswer, Reason
from arbitre.rules.confrontation.melees import Melee


@dataclass(frozen=True, slots=True)
class MeleesAnswer(Answer):
    melees: tuple[Melee, ...] = ()
    truncated: bool = False
    warnings: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data = Answer.to_json(dataclasses.replace(self, melees=()))
        data["melees"] = [melee.to_json() for melee in self.melees]
        return data


@dataclass(frozen=True, slots=True)
class DiceAnswer(Answer):
    figure: str = ""
    dice: int = 0
    opponents: tuple[str, ...] = ()
    combat: tuple[str, ...] = ()
    partition: int | None = None
    from_proposal: bool = False
    dice_by_figure: dict[str, int] = field(default_factory=dict)
    reasons: tuple[Reason, ...] = ()
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class InitiativeAnswer(Answer):
    figure: str = ""
    combat: tuple[str, ...] = ()
    partition: int | None = None
    camps: dict[str, dict[str, Any]] = field(default_factory=dict)
    winner: str | None = None
    odds: dict[str, int] = field(default_factory=dict)
    reasons: tuple[Reason, ...] = ()
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PassesAnswer(Answer):
    """The passes of arms of a combat: ``passes``, each a list of attacks (``attacker``,
    ``attacks``, ``targets``, ``choose``: the player picks ``attacks`` of the targets),
    their ``count``, each fighter's ``attack_dice`` and ``defence_dice``, and the camp that
    attacks first in each (``first``: A's, ``own``, or ``opponents``; null when not given)."""

    figure: str = ""
    combat: tuple[str, ...] = ()
    partition: int | None = None
    dice_by_figure: dict[str, int] = field(default_factory=dict)
    attack_dice: dict[str, int] = field(default_factory=dict)
    defence_dice: dict[str, int] = field(default_factory=dict)
    passes: tuple[tuple[dict[str, Any], ...], ...] = ()
    count: int = 0
    first: str | None = None
    reasons: tuple[Reason, ...] = ()
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PursuitAnswer(ReachAnswer):
    mou_cm: float = 0.0
    pursuit_cm: int = 0
    pursuit_mm: float = 0.0
    engaged: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
