"""M.U.S.G.'s own question options (henchmen, damage) and weapon attributes, checked strictly."""

from __future__ import annotations

import pytest

from arbitre.rules.errors import SceneError
from arbitre.rules.questions import ask
from tests.rules.small_scenes import figure_data, refusal, scene_of

MUSG = scene_of(
    "musg",
    figure_data("m", "blue", 300, 300, attrs={"move_pas": 4, "rank": "henchman"}),
    figure_data("n", "red", 600, 300, attrs={"move_pas": 4}),
)


def test_musg_henchmen_is_a_count_per_side() -> None:
    message = refusal(MUSG, "initiative", [], {"henchmen": 7})
    assert message.endswith(", got 7 (option henchmen of initiative)")
    assert message.startswith("a count per side, each 0 to 1000")
    # blue has one henchman (m) counted from the ranks; henchmen: {red: 3} overrides red's 0.
    answer = ask(MUSG, "initiative", [], {"henchmen": {"red": 3}}).to_json()
    assert answer["henchmen"] == {"blue": 1, "red": 3}


def test_musg_damage_refuses_a_die_of_0() -> None:
    assert refusal(MUSG, "damage", ["3", "3"], {"die": 0}) == (
        "a die shows 1 to 6, got 0 (option die of damage)"
    )
    # strength 3 against resistance 3 needs 4+ (the book's table): a 4 damages, a 3 does not.
    assert ask(MUSG, "damage", ["3", "3"], {"die": 4}).to_json()["damage"] is True
    assert ask(MUSG, "damage", ["3", "3"], {"die": 3}).to_json()["damage"] is False


@pytest.mark.parametrize("text", ["1_2", "3.0", " ", "0x3", "٣"])
def test_musg_damage_reads_plain_whole_numbers_only(text: str) -> None:
    assert "F must be a whole number" in refusal(MUSG, "damage", [text, "3"], {})


def test_a_musg_weapon_takes_range_pas_or_the_bands_not_both() -> None:
    # {range_pas: 12, long_pas: 20} kept 12 and dropped the 20 without a word.
    weapon = {"kind": "bow", "range_pas": 12, "long_pas": 20}
    with pytest.raises(SceneError, match=r"attrs\.weapon: give range_pas or the bands"):
        scene_of(
            "musg", figure_data("a", "blue", 300, 300, attrs={"move_pas": 4, "weapon": weapon})
        )
