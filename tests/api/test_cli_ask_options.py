"""``arbitre ask`` with the issue's bad options and arguments: one line each, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.console import run_console

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CB6 = str(EXAMPLES / "cb6-skirmish.yaml")
MUSG = str(EXAMPLES / "musg-skirmish.yaml")
SR = str(EXAMPLES / "smooth-and-rifled-skirmish.yaml")
MBT = str(EXAMPLES / "mbt-battle.yaml")


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (
            ("ask", CB6, "impact", "alpins", "verts", "--with", "die=abc"),
            "a die shows 1 to 6, got 'abc' (option die of impact)",
        ),
        (
            ("ask", CB6, "impact", "alpins", "verts", "--with", "die=3.5"),
            "a die shows 1 to 6, got 3.5 (option die of impact)",
        ),
        (
            ("ask", CB6, "impact", "alpins", "verts", "--with", "die=true"),
            "a die shows 1 to 6, got true (option die of impact)",
        ),
        (  # YAML 1.1 would read yes as true: a flag is true or false only
            ("ask", MBT, "move", "cavaliers", "600", "420", "--with", "as_group=yes"),
            "only true or false, got 'yes' (option as_group of move)",
        ),
        (
            ("ask", CB6, "impact", "alpins", "verts", "--with", "bonus=.nan"),
            "a whole number -100 to 100, got nan (option bonus of impact)",
        ),
        (
            ("ask", MUSG, "initiative", "--with", "henchmen=7"),
            "a count per side, each 0 to 1000: {blue: 2, red: 4}, got 7 "
            "(option henchmen of initiative)",
        ),
        (("ask", MUSG, "damage", "3", "3", "--die", "0"), "a die shows 1 to 6, got 0"),
        (
            ("ask", CB6, "move", "alpins", "5_00", "300"),
            "X must be a number of millimetres, got '5_00' (plain digits: 12.5)",
        ),
        (
            ("ask", SR, "melee", "c1", "u1", "--with", "rolls_a=[1, 2, 3]"),
            "rolls_a was given without rolls_b: give both sides' dice, or neither",
        ),
    ],
)
def test_the_issue_examples_are_one_line(argv: tuple[str, ...], line: str) -> None:
    code, out, err = run_console(*argv)
    assert (code, out) == (2, "")
    assert err.startswith(f"arbitre: {line}") and err.count("\n") == 1


def test_a_good_melee_with_both_rolls_answers() -> None:
    # c1 (csa, C 4) against u1 (union, C 4), c1 charging: 3d6 each, hits on 4+.
    # c1 rolls 4, 5, 1 -> 2 hits; u1 rolls 6, 1, 1 -> 1 hit: c1 beats u1.
    code, out, _ = run_console(
        "ask", SR, "melee", "c1", "u1", "--with", "rolls_a=4,5,1", "--with", "rolls_b=[6,1,1]"
    )
    assert code == 0
    assert "c1 beats u1" in out


@pytest.mark.parametrize("item", ["a\nb=3", "die =3", "=3", "die"])
def test_a_with_key_must_be_a_name(item: str) -> None:
    code, _, err = run_console("ask", CB6, "groups", "--with", item)
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("arbitre: --with takes KEY=VALUE, got ")
