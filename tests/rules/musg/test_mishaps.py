"""M.U.S.G. shooting accidents: exploding black-powder weapons (``explosion``), a bow's
stray missile (``stray``)."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.errors import QuestionError
from arbitre.rules.questions import ask
from tests.rules.musg.scenes import musg_scene, walkers


def test_bad_options_of_an_explosion_are_question_errors() -> None:
    scene = walkers()
    with pytest.raises(QuestionError, match="strength"):
        ask(scene, "explosion", ["a"], {"strength": 13})
    with pytest.raises(QuestionError, match="artillery"):
        ask(scene, "explosion", ["a"], {"artillery": "big"})


@pytest.mark.parametrize("extras", [{}, {"die": 1}, {"die": 1, "artillery": True, "strength": 8}])
def test_an_explosion_needs_a_weapon(extras: dict[str, Any]) -> None:
    # a carries nothing: whatever the die or the profile given, nothing can explode.
    scene = musg_scene([{"id": "a", "side": "x", "x_mm": 100, "y_mm": 100}])
    with pytest.raises(QuestionError, match=r"^'a' carries no weapon \(attrs.weapon\)"):
        ask(scene, "explosion", ["a"], extras)


@pytest.mark.parametrize(
    ("kind", "named"), [("bow", "bow"), ("crossbow", "crossbow"), ("thrown", "thrown weapon")]
)
def test_a_bow_does_not_explode(kind: str, named: str) -> None:
    # "Dans le cas de l'utilisation d'armes à feu à poudre noire [...] Sur un 1, l'arme
    # explose"; "Dans le cas d'armes de jet ou de tir sans poudre (arc, arbalète), on
    # trace une ligne du tireur à la cible": a bow's accident is a stray missile.
    weapon = {"kind": kind, "range_pas": 24, "strength": 3}
    scene = musg_scene(
        [{"id": "a", "side": "x", "x_mm": 100, "y_mm": 100, "attrs": {"weapon": weapon}}]
    )
    for extras in ({}, {"die": 1}, {"die": 1, "artillery": True}):
        with pytest.raises(
            QuestionError, match=rf"^the {named} of 'a' does not explode.*ask stray"
        ):
            ask(scene, "explosion", ["a"], extras)


@pytest.mark.parametrize(
    ("attrs", "says"),
    [
        ({}, r"^'a' carries no weapon"),
        (
            {"weapon": {"kind": "musket", "range_pas": 18, "black_powder": True}},
            r"^the musket of 'a' is no bow, crossbow or thrown weapon .*ask explosion a",
        ),
        ({"weapon": {"kind": "rifle", "range_pas": 24}}, r"only archaic weapons"),
    ],
)
def test_only_a_bow_a_crossbow_or_a_thrown_weapon_sends_a_stray_missile(
    attrs: dict[str, Any], says: str
) -> None:
    scene = musg_scene(
        [
            {"id": "a", "side": "x", "x_mm": 100, "y_mm": 100, "attrs": attrs},
            {"id": "b", "side": "y", "x_mm": 400, "y_mm": 100},
        ]
    )
    with pytest.raises(QuestionError, match=says):
        ask(scene, "stray", ["a", "b"])


def test_a_stray_missile_takes_a_die_per_figure_on_the_line_at_most() -> None:
    bow = {"weapon": {"kind": "bow", "range_pas": 24}}
    scene = musg_scene(
        [
            {"id": "a", "side": "x", "x_mm": 100, "y_mm": 100, "attrs": bow},
            {"id": "m", "side": "y", "x_mm": 250, "y_mm": 100},
            {"id": "b", "side": "y", "x_mm": 400, "y_mm": 100},
        ]
    )
    with pytest.raises(
        QuestionError, match=r"^dice: at most one die for each figure .*\(m\), got 2$"
    ):
        ask(scene, "stray", ["a", "b"], {"dice": [1, 6]})
    with pytest.raises(QuestionError, match="same figure"):
        ask(scene, "stray", ["a", "a"])
    # Nobody on the line from a to m: the missile takes no one, whatever is rolled.
    answer = ask(scene, "stray", ["a", "m"]).to_json()
    assert (answer["interposed"], answer["hit"], answer["lost"]) == ([], None, True)
