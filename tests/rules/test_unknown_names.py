"""A name no figure or group has is refused with the nearest names the scene has: a
player who types "alpin" for the group "alpins" is told which one was meant."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbitre.rules.errors import QuestionError, UnknownName
from arbitre.rules.questions import ask
from arbitre.rules.registry import find_ruleset
from arbitre.rules.scene import load_scene

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    ("example", "question", "args", "said"),
    [
        # the groups alpins and verts, the figures chef, alp2, alp3...: "alpin" is one
        # letter short of alpins, and alp2/alp3 share "alp" (ratio 2*3/(5+4) = 0.67)
        (
            "cb6-skirmish.yaml",
            "distance",
            ["alpin", "verts"],
            "unknown figure or group 'alpin' (did you mean 'alpins' or 'alp3'?)",
        ),
        # S&R figures sgt, u1, u2 and unit line: "sgtt" is sgt and a letter
        ("smooth-and-rifled-skirmish.yaml", "fire", ["sgtt", "u1"], "(did you mean 'sgt'"),
        # M.U.S.G. has no groups: the nearest figure ids, two as near (6 of 7 letters),
        # the later in the alphabet first as difflib orders ties
        (
            "musg-skirmish.yaml",
            "distance",
            ["goblin3", "guard"],
            "(did you mean 'goblin2' or 'goblin1'?)",
        ),
        # nothing near: no guess
        (
            "musg-skirmish.yaml",
            "distance",
            ["zzz", "guard"],
            "unknown figure 'zzz'",
        ),
    ],
)
def test_an_unknown_name_says_which_was_meant(
    example: str, question: str, args: list[str], said: str
) -> None:
    scene = load_scene(EXAMPLES / example)
    with pytest.raises(QuestionError) as refused:
        ask(scene, question, args)
    assert said in str(refused.value)
    assert isinstance(refused.value, UnknownName)
    if "did you mean" not in said:
        assert str(refused.value) == said


def test_a_long_name_is_not_looked_up() -> None:
    # 10,000 characters: shown cut, never compared with every figure's id
    refused = UnknownName("figure", "a" * 10_000, ["a" * 50])
    assert refused.nearest == [] and len(str(refused)) < 120


def test_an_unknown_ruleset_lists_the_known_ones() -> None:
    with pytest.raises(Exception, match=r"did you mean 'smooth-and-rifled'\?\); known: ") as bad:
        find_ruleset("smoth-and-rifled")
    assert str(bad.value).endswith(
        "known: choc-base-6, confrontation, mbt, musg, smooth-and-rifled"
    )
