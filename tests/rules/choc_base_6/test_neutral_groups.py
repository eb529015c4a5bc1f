"""rules/choc_base_6/neutral_groups.py: groups on a neutral surface, declared or chained."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from arbitre.rules.choc_base_6.neutral_groups import find_groups, footprint_discs, moving_figures
from arbitre.rules.choc_base_6.options import options_of
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene
from tests.rules.choc_base_6.scenes import PROFILE, neutral_scene, td_figure


@st.composite
def crowds(draw: st.DrawFn) -> dict[str, Any]:
    """Up to ten figures of three sides, some marked reference, on a 400 x 300 table."""
    figures = []
    for k in range(draw(st.integers(2, 10))):
        figures.append(
            {
                "id": f"f{k}",
                "side": draw(st.sampled_from(["blue", "red", "green"])),
                "reference": draw(st.booleans()),
                "x_mm": draw(st.floats(20, 380)),
                "y_mm": draw(st.floats(20, 280)),
            }
        )
    return {
        "ruleset": "cb6",
        "options": {"unit_mm": 100},
        "table": {"width_mm": 400, "depth_mm": 300},
        "figures": figures,
        "allies": [["blue", "green"]],
    }


@PROFILE
@given(crowds())
def test_groups_partition_the_table_and_regroup_is_symmetric(document: dict[str, Any]) -> None:
    scene = parse_scene(document)  # with or without reference figures, the scene loads
    groups = ask(scene, "groups", []).to_json()
    ids = sorted(i for members in groups["groups"].values() for i in members)
    assert ids == sorted(f["id"] for f in document["figures"])  # every figure exactly once
    names = sorted(groups["groups"])
    for a in names:
        for b in names:
            if a < b:
                ab = ask(scene, "regroup", [a, b]).to_json()
                ba = ask(scene, "regroup", [b, a]).to_json()
                assert (ab["allowed"], ab["transfer"], sorted(ab["reasons"])) == (
                    ba["allowed"],
                    ba["transfer"],
                    sorted(ba["reasons"]),
                )
    order = ask(scene, "turn-order", []).to_json()
    counts = order["counts"]
    assert sum(counts.values()) == len(names)
    assert [counts[s] for s in order["order"]] == sorted(counts.values(), reverse=True)


@PROFILE
@given(
    st.lists(
        st.tuples(st.integers(0, 11), st.integers(0, 7), st.sampled_from(["A", "B"])),
        min_size=2,
        max_size=14,
        unique_by=lambda cell: cell[:2],
    )
)
def test_a_declared_group_is_together_when_its_figures_chain_within_two_thicknesses(
    cells: list[tuple[int, int, str]],
) -> None:
    # Figures of two declared groups on a 40 mm lattice: neighbours (40 mm apart) chain,
    # figures two steps apart (80 mm, or 56.6 mm across a diagonal) do not, since a chain's
    # links are shorter than two thicknesses (50 mm). A group is "not together" exactly
    # when its figures do not make one chain among themselves.
    figures = [
        {
            "id": f"f{k}",
            "side": "blue",
            "group": group,
            "reference": k == min(j for j, c in enumerate(cells) if c[2] == group),
            "x_mm": 100 + 40 * i,
            "y_mm": 100 + 40 * j,
            "type": "TD",
        }
        for k, (i, j, group) in enumerate(cells)
    ]
    scene = parse_scene(
        {"ruleset": "cb6", "table": {"width_mm": 800, "depth_mm": 600}, "figures": figures}
    )
    warnings = ask(scene, "groups", []).to_json()["warnings"]
    for group in ("A", "B"):
        places = {(i, j) for i, j, g in cells if g == group}
        if len(places) < 2:
            continue
        reached, stack = {min(places)}, [min(places)]
        while stack:
            i, j = stack.pop()
            for step in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
                if step in places and step not in reached:
                    reached.add(step)
                    stack.append(step)
        apart = any(w.startswith(f"group {group} is not together") for w in warnings)
        assert apart == (reached != places)


def test_loose_figures_chain_into_groups_under_two_thicknesses() -> None:
    # Thickness 25 mm: figures of a side closer than 50 mm chain. a-b-c stand 40 mm apart,
    # one chain led by c; d is 120 mm off, a group of its own. The loose h, 30 mm from the
    # declared G, joins it. x, between the references r1 (25 mm) and r2 (35 mm), joins r1.
    scene = neutral_scene(
        td_figure("a", "blue", 100, 100),
        td_figure("b", "blue", 140, 100),
        td_figure("c", "blue", 180, 100, reference=True),
        td_figure("d", "blue", 300, 100),
        td_figure("g1", "red", 500, 500, group="G", reference=True),
        td_figure("h", "red", 530, 500),
        td_figure("r1", "green", 100, 400, reference=True),
        td_figure("x", "green", 125, 400),
        td_figure("r2", "green", 160, 400, reference=True),
    )
    grouping = find_groups(scene)
    assert {g.name: g.ids for g in grouping.groups} == {
        "G": ("g1", "h"),
        "c": ("a", "b", "c"),
        "d": ("d",),
        "r1": ("r1", "x"),
        "r2": ("r2",),
    }
    assert grouping.warnings == ()


def test_a_group_s_footprint_is_its_figures_or_a_wider_disc_for_one_alone() -> None:
    # A lone figure stands for a group: a disc of 1.5 thicknesses (37.5 mm); marked
    # ``alone`` it is a single figure (half a thickness, 12.5 mm); a group's figures are
    # each half a thickness.
    scene = neutral_scene(
        td_figure("lone", "blue", 100, 100),
        td_figure("single", "blue", 300, 100, attrs={"alone": True}),
        td_figure("p", "red", 500, 100, reference=True),
        td_figure("q", "red", 530, 100),
    )
    options = options_of(scene)
    discs = {g.name: footprint_discs(g, options).tolist() for g in find_groups(scene).groups}
    assert discs == {
        "lone": [[100, 100, 37.5]],
        "single": [[300, 100, 12.5]],
        "p": [[500, 100, 12.5], [530, 100, 12.5]],
    }


def test_a_group_moves_whole_and_a_figure_named_alone_splits_off() -> None:
    scene = neutral_scene(
        td_figure("p", "red", 500, 100, reference=True),
        td_figure("q", "red", 530, 100),
    )
    grouping = find_groups(scene)
    whole, measured = moving_figures(scene, grouping, "p")
    assert ([f.id for f in whole], measured and measured.id) == (["p", "q"], "p")
    alone, measured = moving_figures(scene, grouping, "q")
    assert ([f.id for f in alone], measured and measured.id) == (["q"], "q")
