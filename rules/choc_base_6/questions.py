"""Choc Base 6's question table, one for both surfaces: the neutral table measures in M,
a grid counts cells, and each answers every question its own way."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from arbitre.rules.answers import Answer
from arbitre.rules.ruleset import Question


class Surface(Protocol):
    """What a CB6 surface answers (`ChocBase6Neutral`, `ChocBase6Grid`)."""

    @property
    def distance(self) -> Callable[..., Answer]: ...
    @property
    def contact(self) -> Callable[..., Answer]: ...
    @property
    def fire(self) -> Callable[..., Answer]: ...
    @property
    def move(self) -> Callable[..., Answer]: ...
    @property
    def reach(self) -> Callable[..., Answer]: ...
    @property
    def groups(self) -> Callable[..., Answer]: ...
    @property
    def impact(self) -> Callable[..., Answer]: ...
    @property
    def potentials(self) -> Callable[..., Answer]: ...
    @property
    def regroup(self) -> Callable[..., Answer]: ...
    @property
    def turn_order(self) -> Callable[..., Answer]: ...


def cb6_questions(surface: Surface, *, grid: bool) -> dict[str, Question]:
    """The questions a surface answers, summed up in its own terms (M or cells)."""

    def said(neutral: str, on_grid: str) -> str:
        return on_grid if grid else neutral

    return {
        "distance": Question(
            "distance",
            ("A", "B"),
            said("reference-to-reference distance", "cells between two groups"),
            surface.distance,
        ),
        "contact": Question(
            "contact",
            ("A", "B"),
            said("are two groups in contact", "are two groups neighbours"),
            surface.contact,
        ),
        "fire": Question("fire", ("A", "B"), "may group A shoot at group B", surface.fire),
        "move": Question(
            "move",
            ("A", "X", "Y"),
            said("may A move to (X, Y) mm", "may A move to the cell of (X, Y)"),
            surface.move,
        ),
        "reach": Question(
            "reach", ("A",), said("where may A move", "the cells A may move to"), surface.reach
        ),
        "groups": Question(
            "groups", (), said("the groups on the table", "the groups on the grid"), surface.groups
        ),
        "impact": Question("impact", ("A", "B"), "the impact of A on B", surface.impact),
        "potentials": Question(
            "potentials", ("A",), "PJ, PA and PI of a group", surface.potentials
        ),
        "regroup": Question(
            "regroup", ("A", "B"), "may two friendly groups regroup", surface.regroup
        ),
        "turn-order": Question("turn-order", (), "who plays first this turn", surface.turn_order),
        "initiative": Question("initiative", (), "who plays first this turn", surface.turn_order),
    }
