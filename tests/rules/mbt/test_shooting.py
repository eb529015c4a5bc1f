"""MBT shooting: who shoots, how far, the zone a target must stand in (option ``arc``)
(``fire``)."""

from __future__ import annotations

import pytest

from arbitre.rules.questions import ask
from tests.rules.mbt.scenes import base, mbt_scene


def test_the_90_degree_arc_option() -> None:
    # Archers at (200, 200) facing 90: front edge y = 210, x 180..220, its centre
    # (200, 210). A target is in the 90-degree arc when some point of it lies within
    # 45 deg of the facing, seen from the front's centre.
    # (265, 225) spans x 245..285, y 215..235: its best point (245, 235) is 45 right and
    # 25 ahead: atan(45 / 25) = 61 deg -> out of the arc; x >= 245 > 220 -> out of the
    # strip too (the gap, hypot(25, 5) = 25.5 mm, is within range).
    # (235, 245) spans x 215..255, y 235..255: (215, 255) is 15 right, 45 ahead: 18 deg
    # -> in the arc; x 215..220 lies in the strip.
    for x, y, in_arc in ((265, 225, False), (235, 245, True)):
        for arc in ("front", "90"):
            scene = mbt_scene(
                base("R", "blue", 200, 200, 90, "infantry", archer=True),
                base("T", "red", x, y, 270, "infantry"),
                options={"arc": arc},
            )
            answer = ask(scene, "fire", ["R", "T"]).to_json()
            assert ("not_in_arc" not in answer["reasons"]) is in_arc, (x, y, arc)
    # (255, 280) spans x 235..275, y 270..290: (235, 290) is 35 right, 80 ahead: 24 deg
    # -> in the arc, but out of the strip (x >= 235 > 220).
    for arc, refused in (("90", False), ("front", True)):
        scene = mbt_scene(
            base("R", "blue", 200, 200, 90, "infantry", archer=True),
            base("T", "red", 255, 280, 270, "infantry"),
            options={"arc": arc},
        )
        assert ("not_in_arc" in ask(scene, "fire", ["R", "T"]).to_json()["reasons"]) is refused


@pytest.mark.parametrize(
    ("attrs", "y", "reasons"),
    [
        # T (40 x 20, facing 270) at (200, 260) spans y 250..270: 40 mm ahead of R's front
        # edge (y = 210), within the 2 graduations (50 mm) of a shot.
        ({"archer": True}, 260, []),
        ({}, 260, ["no_shooters"]),  # neither archer nor chariot
        # at y 270 T is 50 mm away: in range; at y 271, 51 mm: out of range.
        ({"archer": True}, 270, []),
        ({"archer": True}, 271, ["out_of_range"]),
        # at y 140 T (y 130..150) is 40 mm behind R's back edge (y 190): out of the
        # archers' front, but a chariot shoots all round.
        ({"archer": True}, 140, ["not_in_arc"]),
        ({"chariot": True}, 140, []),
    ],
)
def test_who_shoots_how_far_and_where(attrs: dict[str, bool], y: float, reasons: list[str]) -> None:
    scene = mbt_scene(
        base("R", "blue", 200, 200, 90, "infantry", **attrs),
        base("T", "red", 200, y, 270, "infantry"),
    )
    answer = ask(scene, "fire", ["R", "T"]).to_json()
    assert answer["reasons"] == reasons and answer["allowed"] is (not reasons)
