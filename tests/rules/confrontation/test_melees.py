"""rules/confrontation/melees.py: the melees of a scene, each with its splits and proposal."""

from __future__ import annotations

import math
import time
from typing import Any

import pytest

from arbitre.rules.model import Scene
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene
from tests.rules.confrontation.scenes import fig, scene_of


def test_two_sides_always_have_a_split_and_three_may_not() -> None:
    # a, b, c mutually hostile and all touching: duels leave the third alone, and a
    # against b and c is not allowed (b and c are enemies): no split.
    scene = scene_of(
        fig("a", "red", 100, 100),
        fig("b", "blue", 125, 100),
        fig("c", "green", 112.5, 100 + 12.5 * math.sqrt(3)),
    )
    melee = ask(scene, "melees", []).to_json()["melees"][0]
    assert melee["figures"] == ["a", "b", "c"]
    assert melee["partitions"] == [] and melee["proposal"] is None
    assert "no legal split" in melee["reason"]
    assert "b and c are enemies" in melee["reason"]
    # Make green an ally of blue: now a fights b and c together.
    allied = parse_scene(
        {
            "ruleset": "confrontation",
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": [
                fig("a", "red", 100, 100),
                fig("b", "blue", 125, 100),
                fig("c", "green", 112.5, 100 + 12.5 * math.sqrt(3)),
            ],
            "allies": [["blue", "green"]],
        }
    )
    assert ask(allied, "melees", []).to_json()["melees"][0]["partitions"] == [[["a", "b", "c"]]]


def test_the_enumeration_is_capped() -> None:
    # Two facing ranks of 10, staggered so each figure touches two enemies: a zigzag path
    # of 20 figures; its splits are many more than 5.
    figures = []
    for k in range(10):
        figures.append(fig(f"b{k}", "blue", 100 + 25 * k, 400))
        figures.append(fig(f"r{k}", "red", 112.5 + 25 * k, 400 + 12.5 * math.sqrt(3)))
    melee = ask(scene_of(*figures, max_partitions=5), "melees", []).to_json()["melees"][0]
    assert melee["count"] == 5 and melee["truncated"] is True
    assert melee["proposal"] is not None


def _star(leaves: int) -> Scene:
    """One red figure touched by ``leaves`` blue figures that touch nothing else."""
    figures = [fig("c", "red", 600, 450)]
    for k in range(leaves):
        angle = 2 * math.pi * k / leaves
        x, y = 600 + 25 * math.cos(angle), 450 + 25 * math.sin(angle)
        figures.append(fig(f"l{k}", "blue", x, y))
    return scene_of(*figures)


@pytest.mark.parametrize("leaves", [24, 60])
def test_a_star_melee_has_one_split_found_at_once(leaves: int) -> None:
    # Each leaf's only enemy is c, so every leaf is in c's combat: one split, c against
    # all (c rolls 1 + leaves dice). It took 5 s at 20 leaves, minutes at 24, when every
    # subset of c's enemies was tried.
    started = time.perf_counter()
    melee = ask(_star(leaves), "melees", []).to_json()["melees"][0]
    assert time.perf_counter() - started < 5.0
    assert melee["count"] == 1 and melee["truncated"] is False and melee["exhausted"] is False
    assert melee["partitions"] == [[["c", *(f"l{k}" for k in range(leaves))]]]
    assert melee["proposal"]["dice"]["c"] == 1 + leaves


def test_a_melee_of_more_than_300_figures_is_refused_clearly() -> None:
    # Two ranks of 160 figures, each touching the two enemies facing it: one melee of 320.
    figures = []
    for k in range(160):
        figures.append(
            fig(f"b{k}", "blue", 5 + 7 * k, 400, base={"shape": "round", "diameter_mm": 5})
        )
        figures.append(
            fig(f"r{k}", "red", 8.5 + 7 * k, 405, base={"shape": "round", "diameter_mm": 5})
        )
    answer = ask(scene_of(*figures), "melees", []).to_json()
    (melee,) = answer["melees"]
    assert len(melee["figures"]) == 320 and melee["partitions"] == []
    assert melee["reason"] == (
        "320 figures in one melee, more than the 300 whose splits are searched: split it by hand"
    )
    dice = ask(scene_of(*figures), "dice", ["b0"]).to_json()
    assert dice["message"].startswith("the melee of b0 was not split (320 figures")


def _clusters_of_sixty() -> list[dict[str, Any]]:
    """60 figures in 10 melees of 6: a figure ringed by five touching ones of both sides."""
    figures = []
    for c in range(10):
        cx, cy = 100 + (c % 5) * 200, 200 + (c // 5) * 300
        figures.append(fig(f"c{c}", "blue", cx, cy))
        for k in range(5):
            angle = 2 * math.pi * k / 6
            side = "red" if k % 2 == 0 else "blue"
            x, y = cx + 25 * math.cos(angle), cy + 25 * math.sin(angle)
            figures.append(fig(f"c{c}_{k}", side, x, y))
    return figures


def _one_melee_of_sixty() -> list[dict[str, Any]]:
    """60 figures packed in one melee, rows alternating sides: every figure touches
    up to four enemies."""
    figures = []
    for k in range(60):
        row, col = divmod(k, 8)
        x = 100 + 25 * col + 12.5 * (row % 2)
        y = 100 + 12.5 * math.sqrt(3) * row
        figures.append(fig(f"f{k}", "blue" if row % 2 else "red", x, y))
    return figures


def test_ten_melees_of_six_are_each_split_every_way() -> None:
    # Each ring: a blue centre touching five, red at 0, 120, 240 degrees and blue at 60,
    # 180 (the sixth place, 300, empty). (Their time is `arbitre bench rules`' business.)
    melees = ask(scene_of(*_clusters_of_sixty()), "melees", []).to_json()["melees"]
    assert len(melees) == 10
    for melee in melees:
        assert len(melee["figures"]) == 6 and not melee["truncated"] and not melee["exhausted"]
        combats = melee["proposal"]["combats"]
        assert sorted(f for combat in combats for f in combat) == sorted(melee["figures"])


def test_one_melee_of_sixty_gets_a_proposal_for_every_figure() -> None:
    # Sixty figures packed in alternating rows: too many splits to list (truncated), but
    # the search finishes and proposes one split in which every figure fights once.
    (melee,) = ask(scene_of(*_one_melee_of_sixty()), "melees", []).to_json()["melees"]
    assert len(melee["figures"]) == 60 and melee["truncated"] and not melee["exhausted"]
    fighting = [f for combat in melee["proposal"]["combats"] for f in combat]
    assert sorted(fighting) == sorted(melee["figures"])
