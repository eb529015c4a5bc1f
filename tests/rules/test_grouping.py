"""Groups looked up by their name or a figure's (arbitre.rules.grouping)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from arbitre.rules.errors import UnknownName
from arbitre.rules.grouping import Grouping
from arbitre.rules.model import Figure, Scene, Table


@dataclass(frozen=True)
class Group:
    name: str
    ids: tuple[str, ...]


SCENE = Scene(
    "test",
    None,
    Table(600.0, 400.0),
    tuple(
        Figure(ident, "blue", 100.0 + 50 * k, 100.0) for k, ident in enumerate(("a1", "a2", "b1"))
    ),
)
ALPHA, BRAVO = Group("alpha", ("a1", "a2")), Group("bravo", ("b1",))
GROUPING = Grouping((ALPHA, BRAVO), ("b1 stands alone",))


def test_a_group_is_found_by_its_name() -> None:
    assert GROUPING.by_name("bravo") is BRAVO
    assert GROUPING.by_name("a1") is None  # a figure's name is not a group's
    assert GROUPING.named(SCENE, "alpha") is ALPHA


def test_a_figure_s_name_stands_for_its_group() -> None:
    assert GROUPING.of_figure("a2") is ALPHA
    assert GROUPING.named(SCENE, "a2") is ALPHA
    assert GROUPING.named(SCENE, "b1") is BRAVO


def test_a_group_named_like_a_figure_wins() -> None:
    # A group called "b1" is looked up before the figure b1 (in the group bravo).
    odd = Grouping((ALPHA, Group("b1", ("a1",)), BRAVO), ())
    assert odd.named(SCENE, "b1").ids == ("a1",)


def test_an_unknown_name_names_the_nearest_figures_and_groups() -> None:
    with pytest.raises(UnknownName) as caught:
        GROUPING.named(SCENE, "alpah")
    assert str(caught.value) == "unknown figure or group 'alpah' (did you mean 'alpha'?)"
    assert caught.value.code == "unknown_figure_or_group"
