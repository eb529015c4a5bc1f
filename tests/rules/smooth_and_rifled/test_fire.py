"""Smooth & Rifled's fire: bands, nearest targets and cover, with the rule book's worked
examples (seed 004)."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.scene import parse_scene
from arbitre.rules.smooth_and_rifled.dice import TO_HIT, band_of
from tests.rules.smooth_and_rifled.scenes import answer_json, square, sr_scene


def test_shoot_the_nearest_target_first_is_a_warning() -> None:
    # n is nearer than t and in sight: a warning; a cavalry target behind infantry is the
    # book's exception.
    figures = [
        {
            "id": "s",
            "side": "b",
            "x_mm": 100,
            "y_mm": 100,
            "facing_deg": 90,
            "attrs": {"weapon": {"medium_range_cm": 30}},
        },
        {"id": "n", "side": "r", "x_mm": 200, "y_mm": 200, "type": "infantry"},
        {"id": "t", "side": "r", "x_mm": 100, "y_mm": 400, "type": "infantry"},
        {"id": "horse", "side": "r", "x_mm": 0 + 20, "y_mm": 420, "type": "cavalry"},
    ]
    scene = sr_scene(figures)
    first = answer_json(scene, "fire", "s", "t")
    assert first["allowed"] is True
    assert any("nearest target" in w and "n (" in w for w in first["warnings"])
    assert not any(
        "nearest target" in w for w in answer_json(scene, "fire", "s", "horse")["warnings"]
    )


def test_a_target_at_the_edge_of_a_marsh_is_too_close_to_call_for_cover() -> None:
    # S&R §6.2.3: "Une figurine est également à couvert si elle se trouve en terrain
    # difficile". t stands 0.5 mm inside a marsh (x 300-400), placed within 1 mm (its
    # sigma): whether it has cover, and so whether the 5s and 6s are re-rolled, is in
    # doubt. 5 mm further in (margin 5.5 > 2 x 1) it is in cover for certain.
    marsh = {
        "id": "marsh",
        "kind": "difficult",
        "polygon_mm": [[300, 300], [400, 300], [400, 400], [300, 400]],
    }
    shooter = {
        "id": "s",
        "side": "b",
        "x_mm": 100,
        "y_mm": 350,
        "facing_deg": 0,
        "attrs": {"weapon": {"medium_range_cm": 30}},
    }
    for x, doubt in ((300.5, True), (305.5, False)):
        target = {"id": "t", "side": "r", "x_mm": x, "y_mm": 350, "sigma_mm": 1.0}
        answer = answer_json(sr_scene([shooter, target], terrain=[marsh]), "fire", "s", "t")
        assert answer["cover"] == ["marsh"] and answer["cover_weight"] == "light"
        cover = [m for m in answer["margins"] if m["what"] == "shelter"]
        assert [m["margin_mm"] for m in cover] == [pytest.approx(x - 300.0)]
        assert answer["message"].startswith("too close to call") is doubt, answer["message"]


def test_musket_at_36_cm_needs_a_9() -> None:
    # §6.2.1: "un fusil (30/2) tire sur un Confédéré à 36cm. La portée Moyenne est dépassée
    # (plus de 30cm), mais on reste à portée Longue (moins de 60cm) ... besoin d'un 9".
    assert band_of(360.0, 300.0, extreme=False) == "long"
    assert TO_HIT["long"] == 9
    # Two 25 mm bases whose centres are 385 mm apart are 36 cm apart edge to edge.
    scene = sr_scene(
        [
            {
                "id": "union",
                "side": "blue",
                "x_mm": 100,
                "y_mm": 100,
                "facing_deg": 90,
                "attrs": {"weapon": {"medium_range_cm": 30, "reload": 2}},
            },
            {"id": "reb", "side": "grey", "x_mm": 100, "y_mm": 485},
        ]
    )
    answer = answer_json(scene, "fire", "union", "reb")
    assert (answer["distance_units"], answer["band"], answer["to_hit_2d6"]) == (36.0, "long", 9)
    # In 15 mm games every distance is halved: R = 15 cm, long range ends at 30 cm.
    small = parse_scene(
        {
            "ruleset": "sr",
            "options": {"scale": "15mm"},
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": scene_figures(scene),
        }
    )
    assert answer_json(small, "fire", "union", "reb")["reasons"] == ["out_of_range"]


def scene_figures(scene: Any) -> list[dict[str, Any]]:
    return [
        {
            "id": f.id,
            "side": f.side,
            "x_mm": f.x_mm,
            "y_mm": f.y_mm,
            "facing_deg": f.facing_deg,
            "attrs": dict(f.attrs),
        }
        for f in scene.figures
    ]


def _rifles(group: bool, *, sniper: bool = False, rifled: bool = True) -> Any:
    """Three blue figures with rifles (R = 30 cm) facing +y; red at 80 cm from the leader."""
    weapon = {"medium_range_cm": 30, "reload": 2, "rifled": rifled}
    figures: list[dict[str, Any]] = [
        {
            "id": f"r{k}",
            "side": "blue",
            "unit": "rifles",
            "x_mm": 100 + 30 * k,
            "y_mm": 100,
            "facing_deg": 90,
            "attrs": {"leader": group and k == 0, "weapon": weapon, "sniper": sniper},
        }
        for k in range(3)
    ]
    # 80 cm edge to edge from r1 (130, 100): centre at y = 100 + 800 + 25 = 925 is off a
    # 900 mm table, so the table is deeper.
    figures.append({"id": "t", "side": "red", "x_mm": 130, "y_mm": 925})
    return sr_scene(figures, table={"width_mm": 1200, "depth_mm": 1200})


def test_extreme_range_only_for_snipers_and_the_aimed_fire_of_rifle_groups() -> None:
    # §6.2.1: "Portée Extrême : Portée Moyenne X 3 (seulement possible pour les Tireurs
    # d'Elite et le tir visé des Groupes armés de fusils)". The target is 80 cm from r1:
    # beyond long range (2R = 60 cm), within extreme (3R = 90 cm).
    lone = answer_json(_rifles(group=False), "fire", "r1", "t", aimed=True)
    assert lone["distance_units"] == pytest.approx(80.0)
    assert (lone["allowed"], lone["reasons"], lone["band"]) == (False, ["out_of_range"], None)
    assert answer_json(_rifles(group=False), "fire", "r1", "t")["reasons"] == ["out_of_range"]
    # The same rifles as a group (r0 leads r1, r2), aiming: extreme, 13+.
    volley = answer_json(_rifles(group=True), "fire", "rifles", "t", aimed=True)
    assert (volley["allowed"], volley["band"], volley["to_hit_2d6"]) == (True, "extreme", 13)
    # The group without aiming, or with smooth-bore weapons, stays at 2R.
    assert answer_json(_rifles(group=True), "fire", "rifles", "t")["reasons"] == ["out_of_range"]
    smooth = answer_json(_rifles(group=True, rifled=False), "fire", "rifles", "t", aimed=True)
    assert smooth["reasons"] == ["out_of_range"]
    # A sniper alone reaches extreme range, aimed or not.
    sniper = answer_json(_rifles(group=False, sniper=True), "fire", "r1", "t")
    assert (sniper["allowed"], sniper["band"]) == (True, "extreme")


def _rifle_and_target() -> list[dict[str, Any]]:
    """A rifleman ``a`` at (500, 100) facing +y (front edge at y 110), sure to 0.4 mm, and
    an infantry target ``t`` 20 cm ahead, sure to 0.9 mm."""
    return [
        square(
            "a",
            "union",
            500,
            100,
            90,
            type="infantry",
            attrs={"weapon": {"medium_range_cm": 30}},
            sigma_mm=0.4,
        ),
        {**square("t", "csa", 500, 300, 270, type="infantry"), "sigma_mm": 0.9},
    ]


@pytest.mark.parametrize(("hedge_y", "counts"), [(140.0, True), (139.5, False)])
def test_an_obstacle_exactly_3_cm_from_the_shooter_gives_cover(
    hedge_y: float, counts: bool
) -> None:
    # §6.2.3: "les obstacles à moins de 3cm du tireur ne comptent pas". The shooter's
    # front edge is at y 110: a hedge at y 140 is exactly 3 cm away and counts (partial
    # cover against a level 1 hedge); at 139.5 it is 2.95 cm away and does not. Either way
    # the answer says how far the hedge is from those 3 cm, as sure as the shooter's
    # position (0.4 mm; the target's 0.9 mm has no part in it).
    scene = sr_scene(
        _rifle_and_target(),
        terrain=[
            {
                "id": "hedge",
                "kind": "obstacle",
                "level": 1,
                "line_mm": [[400, hedge_y], [600, hedge_y]],
            }
        ],
    )
    fire = answer_json(scene, "fire", "a", "t")
    assert fire["cover"] == (["hedge"] if counts else [])
    (margin,) = [m for m in fire["margins"] if m["what"] == "cover"]
    assert margin["margin_mm"] == pytest.approx(abs(hedge_y - 140.0), abs=1e-6)
    assert margin["sigma_mm"] == pytest.approx(0.4)


def test_an_obstacle_at_3_cm_behind_which_a_wall_covers_anyway_is_no_doubt() -> None:
    # The hedge is exactly 3 cm from the shooter (counted, by a hair); a level 2 wall
    # farther on gives the target total cover whether the hedge counts or not. The cover
    # is certain: no margin for it, where the hedge alone gives one of 0 mm.
    scene = sr_scene(
        _rifle_and_target(),
        terrain=[
            {"id": "hedge", "kind": "obstacle", "level": 1, "line_mm": [[400, 140], [600, 140]]},
            {"id": "wall", "kind": "obstacle", "level": 2, "line_mm": [[400, 220], [600, 220]]},
        ],
    )
    fire = answer_json(scene, "fire", "a", "t")
    assert fire["cover"] == ["hedge", "wall"]
    assert not [m for m in fire["margins"] if m["what"] == "cover"]
