"""`SceneReader`: successive states of one table, only what changed read again."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbitre.rules.errors import SceneError
from arbitre.rules.questions import ask
from arbitre.rules.scene import SceneReader, parse_scene


def _table(*figures: dict[str, Any], ruleset: str = "smooth-and-rifled") -> dict[str, Any]:
    return {
        "ruleset": ruleset,
        "table": {"width_mm": 1200, "depth_mm": 800},
        "figures": list(figures),
        "terrain": [
            {"id": "wood", "kind": "wood", "polygon_mm": [[500, 500], [600, 500], [600, 600]]}
        ],
    }


def _figure(ident: str, x: float, y: float, side: str = "red", **more: Any) -> dict[str, Any]:
    return {"id": ident, "side": side, "x_mm": x, "y_mm": y, **more}


def _three() -> dict[str, Any]:
    return _table(
        _figure("a", 100, 100, unit="line", attrs={"rank": "leader"}),
        _figure("b", 120, 100, unit="line"),
        _figure("c", 700, 300, side="blue"),
    )


def test_the_same_state_gives_the_same_scene() -> None:
    reader = SceneReader()
    first = reader.read(_three())
    assert reader.read(_three()) is first


def test_only_the_figure_that_moved_is_read_again() -> None:
    reader = SceneReader()
    before = reader.read(_three())
    moved = _three()
    moved["figures"][1]["x_mm"] = 130.0
    after = reader.read(moved)
    assert after is not before
    assert after.figures[0] is before.figures[0]
    assert after.figures[2] is before.figures[2]
    assert after.figures[1] is not before.figures[1]
    assert (after.figures[1].x_mm, after.figures[1].y_mm) == (130.0, 100.0)
    # The scene is the one the whole data make, and its terrain is kept as it was.
    assert after.figures == parse_scene(moved).figures
    assert after.terrain is before.terrain


def test_a_figure_that_did_not_move_keeps_its_outline() -> None:
    from arbitre.rules.smooth_and_rifled.bases import footprint

    reader = SceneReader()
    before = reader.read(_three())
    moved = _three()
    moved["figures"][2]["y_mm"] = 310.0
    after = reader.read(moved)
    assert footprint(after.figures[0]) is footprint(before.figures[0])
    assert footprint(after.figures[2]).centroid.y == pytest.approx(310.0)


def test_a_change_beside_the_figures_reads_the_whole_scene() -> None:
    reader = SceneReader()
    before = reader.read(_three())
    changed = _three()
    changed["terrain"][0]["kind"] = "impassable"
    after = reader.read(changed)
    assert after.terrain[0].kind == "impassable"
    assert after.figures[0] is not before.figures[0]


def test_a_bad_state_is_refused_as_parse_scene_does_and_the_last_one_stays() -> None:
    reader = SceneReader("live table")
    good = reader.read(_three())
    for bad in (
        {"x_mm": 5000.0},  # off the table
        {"x_mm": True},  # not a number
        {"id": "a"},  # the id of another figure
    ):
        state = _three()
        state["figures"][1].update(bad)
        with pytest.raises(SceneError) as refused:
            reader.read(state)
        with pytest.raises(SceneError) as parsed:
            parse_scene(state, source="live table")
        assert str(refused.value) == str(parsed.value)
    assert reader.read(_three()) is good


RECT = {"shape": "rect", "width_mm": 40, "depth_mm": 20}

# Edits a live table sees: a figure moves, turns, comes, goes, is renamed to another's id,
# leaves the table.
EDITS = st.lists(
    st.tuples(
        st.sampled_from(["move", "turn", "add", "remove", "clash", "off"]),
        st.integers(0, 40),
        st.floats(20, 1180, allow_nan=False),
    ),
    max_size=12,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EDITS, st.sampled_from(["smooth-and-rifled", "choc-base-6", "mbt"]))
def test_every_state_read_is_the_scene_its_data_make(
    edits: list[tuple[str, int, float]], ruleset: str
) -> None:
    # MBT's bases are typed rectangles; the others' default bases are round. Under S&R,
    # units of six with a Leader each, so groups form and break as figures move.
    more = {"base": RECT, "type": "infantry"} if ruleset == "mbt" else {}

    def unit(k: int) -> dict[str, Any]:
        if ruleset != "smooth-and-rifled":
            return {}
        return {"unit": f"u{k // 6}", "attrs": {"leader": k % 6 == 0}}

    state = _table(
        *(
            _figure(f"f{k}", 60 + 40 * (k % 8), 60 + 20 * (k // 8), **more, **unit(k))
            for k in range(24)
        ),
        ruleset=ruleset,
    )
    reader = SceneReader()
    reader.read(state)
    for edit, which, value in edits:
        state = copy.deepcopy(state)
        figures = state["figures"]
        k = which % len(figures)
        if edit == "move":
            figures[k]["x_mm"] = value
        elif edit == "turn":
            figures[k]["facing_deg"] = value
        elif edit == "add":
            figures.append(_figure(f"n{which}", value, 400.0, side="blue", **more))
        elif edit == "remove" and len(figures) > 1:
            figures.pop(k)
        elif edit == "clash":
            figures[k]["id"] = figures[(k + 1) % len(figures)]["id"]
        elif edit == "off":
            figures[k]["y_mm"] = 900.0 + value
        try:
            expected = parse_scene(state)
        except SceneError as error:
            with pytest.raises(SceneError) as refused:
                reader.read(state)
            assert str(refused.value) == str(error)
            continue
        scene = reader.read(state)
        assert scene.figures == expected.figures
        assert ask(scene, "groups", []).to_json() == ask(expected, "groups", []).to_json()


@pytest.mark.parametrize("ruleset", ["smooth-and-rifled", "mbt"])
def test_the_groups_follow_every_figure_that_moves_out_and_back(ruleset: str) -> None:
    # What the rules derived from a unit or a base is kept while its figures stay the same
    # objects; every figure in turn leaves its group (150 mm aside) and comes back, and
    # the groups found on the live table are always those of the state read afresh.
    more = {"base": RECT, "type": "infantry"} if ruleset == "mbt" else {}
    state = _table(
        *(
            _figure(
                f"f{k}",
                60 + 40 * (k % 8),
                60 + 20 * (k // 8),
                unit=f"u{k // 6}",
                attrs={"leader": k % 6 == 0},
                **more,
            )
            for k in range(24)
        ),
        ruleset=ruleset,
    )
    reader = SceneReader()
    first = ask(reader.read(state), "groups", [])
    # S&R: 25 mm bases 40 mm apart in rows of 8, units of 6 led by their first figure
    # (chain 3 cm, radius 10 cm edge to edge): u0 f0-f3, u1 f6-f7, u2 f12-f15, u3 f18-f21.
    # MBT: the 40 x 20 mm bases touch side by side and front to back: one block.
    formed = [ids for ids in first.groups.values() if len(ids) > 1]
    assert [len(ids) for ids in formed] == ([4, 2, 4, 4] if ruleset != "mbt" else [24])
    for k in range(24):
        for shift_mm in (150.0, 0.0):
            moved = copy.deepcopy(state)
            moved["figures"][k]["y_mm"] += shift_mm
            live = ask(reader.read(moved), "groups", []).to_json()
            assert live == ask(parse_scene(moved), "groups", []).to_json()
        assert live == first.to_json()


def test_a_figure_kept_is_not_changed_by_the_callers_data_changing_later() -> None:
    # The caller builds its next state from the same lists: the figure read from the first
    # state keeps what that state said.
    tags = ["scout"]
    first = _three()
    first["figures"][0]["attrs"] = {"tags": tags}
    reader = SceneReader()
    reader.read(first)
    tags.append("veteran")
    again = _three()
    again["figures"][0]["attrs"] = {"tags": ["scout"]}
    again["figures"][2]["x_mm"] = 710.0  # another figure moved
    assert reader.read(again).figures[0].attrs == {"tags": ["scout"]}
