"""Loading scene.yaml: valid scenes load, every kind of bad input is one clear error."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from arbitre.rules.errors import SceneError
from arbitre.rules.scene import load_scene, parse_scene
from tests.rules.small_scenes import figure_data, scene_of

GOOD = """\
ruleset: choc-base-6
options: {surface: neutral, unit_mm: 100}
table: {width_mm: 1200, depth_mm: 900}
figures:
  - {id: a1, side: blue, group: A, reference: true, x_mm: 100, y_mm: 200, type: TD}
  - {id: a2, side: blue, group: A, x_mm: 130, y_mm: 200, type: CR, wounded: true,
     base: {shape: round, diameter_mm: 25}, sigma_mm: 0.3, attrs: {pa_bonus: 1}}
terrain:
  - {id: wood1, kind: wood, polygon_mm: [[300, 300], [500, 300], [500, 450], [300, 450]]}
  - {id: wall, kind: obstacle, line_mm: [[600, 100], [600, 300]], level: 2}
allies: [[blue, green]]
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "scene.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_valid_scene_loads(tmp_path: Path) -> None:
    scene = load_scene(_write(tmp_path, GOOD))
    assert scene.ruleset == "choc-base-6"
    assert [f.id for f in scene.figures] == ["a1", "a2"]
    a2 = scene.figures[1]
    assert (a2.wounded, a2.sigma_mm, a2.attrs["pa_bonus"]) == (True, 0.3, 1)
    assert a2.base is not None and a2.base.radius_mm == 12.5
    assert scene.terrain[0].geometry.area == 200 * 150
    assert not scene.are_enemies("blue", "green")
    assert scene.are_enemies("blue", "red")


def test_the_alias_is_accepted_and_named_in_full(tmp_path: Path) -> None:
    scene = load_scene(_write(tmp_path, GOOD.replace("ruleset: choc-base-6", "ruleset: cb6")))
    assert scene.ruleset == "choc-base-6"


@pytest.mark.parametrize(
    ("change", "field", "problem"),
    [
        (("allies:", "alies:"), "alies", "unknown key"),
        (
            ("table: {width_mm: 1200, depth_mm: 900}", "table: {width_mm: 1200}"),
            "table.depth_mm",
            "missing",
        ),
        (("x_mm: 130", "x_mm: .nan"), "figures[1].x_mm", "finite"),
        (("x_mm: 130", "x_mm: .inf"), "figures[1].x_mm", "finite"),
        (("x_mm: 130", "x_mm: 1250"), "figures[1].x_mm", "off the table"),
        (("y_mm: 200, type: TD", "y_mm: -5, type: TD"), "figures[0].y_mm", "off the table"),
        (("id: a2", "id: a1"), "figures[1].id", "duplicate id 'a1'"),
        (("ruleset: choc-base-6", "ruleset: chess"), "ruleset", "unsupported ruleset: 'chess'"),
        (("unit_mm: 100", "unit_mm: -100"), "options.unit_mm", "greater than or equal to 1"),
        # A unit of 1e-300 mm would make every answer a number of 300 digits.
        (("unit_mm: 100", "unit_mm: 1.0e-300"), "options.unit_mm", "greater than or equal to 1"),
        (("sigma_mm: 0.3", "sigma_mm: 1.0e+300"), "figures[1].sigma_mm", "less than or equal"),
        # YAML 1.1 would read 2:10 as 130 and 0x82 as 130: here they are text.
        (("x_mm: 130", "x_mm: 2:10"), "figures[1].x_mm", "valid number, got '2:10'"),
        (("x_mm: 130", "x_mm: 0x82"), "figures[1].x_mm", "valid number, got '0x82'"),
        (("x_mm: 130", "x_mm: 130, x_mm: 131"), "line 6", "'x_mm' is given twice"),
        (("x_mm: 130", "x_mm: " + "9" * 500), "line 6", "a number of 500 digits"),
        (("id: a2", 'id: "a\\u0085b"'), "figures[1].id", "one line of text"),
        (
            ("blue, group: A, x_mm: 130", '"b\\x00e", group: A, x_mm: 130'),
            "figures[1].side",
            "one line",
        ),
        (("pa_bonus: 1", 'pa_bonus: 1, note: "\\x07"'), "figures[1].attrs", "control characters"),
        (("unit_mm: 100", "unit_mm: 100, colour: red"), "options.colour", "unknown key"),
        (("surface: neutral", "surface: hex"), "options.hex_mm", "required"),
        (("surface: neutral", "surface: hexagons"), "options.surface", "hexagons"),
        (("type: CR", "type: archer"), "figures[1].type", "'TD' or 'CR'"),
        (("pa_bonus: 1", "pa_bonus: lots"), "figures[1].attrs.pa_bonus", "integer"),
        (("diameter_mm: 25", "diameter_mm: 0"), "figures[1].base.diameter_mm", "greater than 0"),
        (("shape: round", "shape: star"), "figures[1].base", "shape"),
        (("kind: wood", "kind: lava"), "terrain[0].kind", "lava"),
        (
            ("[[300, 300], [500, 300], [500, 450], [300, 450]]", "[[300, 300], [500, 300]]"),
            "terrain[0].polygon_mm",
            "at least 3 points",
        ),
        (
            (
                "[[300, 300], [500, 300], [500, 450], [300, 450]]",
                "[[300, 300], [500, 450], [500, 300], [300, 450]]",
            ),
            "terrain[0].polygon_mm",
            "not a simple polygon",
        ),
        (
            ("kind: obstacle, line_mm", "kind: wood, line_mm"),
            "terrain[1].line_mm",
            "only obstacles",
        ),
    ],
)
def test_bad_scenes_name_the_file_and_field(
    tmp_path: Path, change: tuple[str, str], field: str, problem: str
) -> None:
    old, new = change
    assert old in GOOD
    path = _write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(SceneError) as caught:
        load_scene(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: {field}: "), message
    assert problem in message
    assert "\n" not in message


def test_malformed_yaml_names_the_line(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD.replace("figures:\n", "figures:\n  - {id: [\n"))
    with pytest.raises(SceneError, match=r"scene.yaml: line \d+: malformed YAML"):
        load_scene(path)


def test_a_missing_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(SceneError, match="cannot read the file"):
        load_scene(tmp_path / "nowhere.yaml")


def test_only_a_regular_file_is_read(tmp_path: Path) -> None:
    # A pipe nobody writes to would keep the reader waiting, /dev/zero would never end.
    pipe = tmp_path / "pipe.yaml"
    os.mkfifo(pipe)
    with pytest.raises(SceneError, match=r"pipe.yaml: not a regular file: a device, a pipe"):
        load_scene(pipe)
    with pytest.raises(SceneError, match=r"^/dev/zero: not a regular file: a device, a pipe"):
        load_scene("/dev/zero")
    with pytest.raises(SceneError, match=r": a directory, not a file$"):
        load_scene(tmp_path)


def test_a_scene_that_is_not_a_mapping(tmp_path: Path) -> None:
    with pytest.raises(SceneError, match="expected a mapping at the top level, got list"):
        load_scene(_write(tmp_path, "- 1\n- 2\n"))


def test_a_group_without_reference_loads(tmp_path: Path) -> None:
    # CB6 groups are made by proximity (ANNEXE 2); a reference figure can be eliminated
    # (§2.2): the scene loads, and only questions measured from that reference refuse.
    from arbitre.rules.questions import ask

    for text in (
        GOOD.replace("reference: true, ", ""),
        GOOD.replace("group: A, reference: true, ", "").replace("group: A, ", ""),
    ):
        answer = ask(load_scene(_write(tmp_path, text)), "groups", []).to_json()
        (name,) = answer["groups"]
        assert answer["groups"][name] == ["a1", "a2"]
        assert answer["references"] == {name: None}
        assert any("has no reference figure" in w for w in answer["warnings"])


def test_a_group_with_two_references_is_an_error(tmp_path: Path) -> None:
    text = GOOD.replace("group: A, x_mm: 130", "group: A, reference: true, x_mm: 130")
    with pytest.raises(SceneError, match=r"figures\[1\].reference: group 'A' has several"):
        load_scene(_write(tmp_path, text))


SMALL = "ruleset: cb6\ntable: {width_mm: 900, depth_mm: 600}\n"


@pytest.mark.parametrize(
    ("content", "says"),
    [
        # Latin-1 bytes of "café": not UTF-8.
        (
            (SMALL + "figures: [{id: caf\xe9, side: a, x_mm: 1, y_mm: 1}]\n").encode("latin-1"),
            "not UTF-8",
        ),
        # UTF-16: the same refusal, not a crash.
        ((SMALL + "figures: []\n").encode("utf-16"), "not UTF-8"),
        # A billion laughs in a few hundred bytes: aliases are refused before expanding.
        (
            (
                SMALL + "figures: []\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a]\n"
            ).encode(),
            "aliases",
        ),
        # 2,000 nested lists would exhaust the stack.
        ((SMALL + "figures: " + "[" * 2000 + "]" * 2000 + "\n").encode(), "nested deeper than 40"),
        # A table of 1e308 mm, or an infinite one.
        (b"ruleset: cb6\ntable: {width_mm: 1e308, depth_mm: 600}\nfigures: []\n", "100000"),
        (b"ruleset: cb6\ntable: {width_mm: .inf, depth_mm: 600}\nfigures: []\n", "width_mm"),
    ],
)
def test_a_hostile_scene_file_is_one_short_line(
    tmp_path: Path, content: bytes, says: str, yaml_backend: str
) -> None:
    path = tmp_path / "scene.yaml"
    path.write_bytes(content)
    with pytest.raises(SceneError) as caught:
        load_scene(path)
    message = str(caught.value)
    assert says in message
    assert "\n" not in message and len(message) < 300


def _many(count: int, what: str) -> dict[str, Any]:
    data: dict[str, Any] = {
        "ruleset": "cb6",
        "table": {"width_mm": 1200, "depth_mm": 900},
        "figures": [],
    }
    if what == "figures":
        data["figures"] = [
            {"id": f"f{k}", "side": "blue", "x_mm": 10, "y_mm": 10} for k in range(count)
        ]
    else:
        data["terrain"] = [
            {"id": f"t{k}", "kind": "wood", "polygon_mm": [[0, 0], [10, 0], [10, 10]]}
            for k in range(count)
        ]
    return data


@pytest.mark.parametrize("what", ["figures", "terrain"])
def test_a_scene_holds_at_most_1000_figures_and_terrain_pieces(what: str) -> None:
    assert len(getattr(parse_scene(_many(1000, what)), what)) == 1000
    with pytest.raises(SceneError) as caught:
        parse_scene(_many(1001, what))
    assert str(caught.value) == f"<scene>: {what}: at most 1000 items, got 1001"


@pytest.mark.parametrize(
    "ruleset", ["choc-base-6", "smooth-and-rifled", "musg", "mbt", "confrontation"]
)
def test_a_figure_called_like_a_group_it_is_not_in_is_refused(ruleset: str) -> None:
    # "distance y z" would read z as group z (whose reference is y itself): 0 mm between
    # figures 848.5 mm apart. Whatever the rules, the scene is refused, naming both.
    base = {"shape": "rect", "width_mm": 25, "depth_mm": 25} if ruleset == "mbt" else None
    figures: list[dict[str, Any]] = [
        {"id": "y", "side": "a", "x_mm": 100, "y_mm": 100, "group": "z", "reference": True},
        {"id": "w", "side": "a", "x_mm": 300, "y_mm": 100, "group": "z"},
        {"id": "z", "side": "a", "x_mm": 700, "y_mm": 700},
    ]
    if base is not None:  # MBT's figures stand on rectangles, as infantry or cavalry
        figures = [{**f, "base": base, "type": "infantry"} for f in figures]
    document = {"ruleset": ruleset, "table": {"width_mm": 1200, "depth_mm": 900}}
    with pytest.raises(SceneError) as refused:
        parse_scene({**document, "figures": figures})
    assert "figures[2].id" in str(refused.value)
    assert "'z' names this figure and also group 'z' ('y', 'w')" in str(refused.value)
    # a group may be named after a figure in it (a group of one, or its leader)
    figures[2]["group"] = "z"
    figures[0]["group"] = figures[1]["group"] = "x"
    scene = parse_scene({**document, "figures": figures})
    assert [f.group for f in scene.figures] == ["x", "x", "z"]


def test_an_obstacle_line_of_one_point_is_refused() -> None:
    document = {
        "ruleset": "choc-base-6",
        "table": {"width_mm": 1200, "depth_mm": 900},
        "figures": [],
        "terrain": [{"id": "wall", "kind": "obstacle", "line_mm": [[300, 300], [300, 300]]}],
    }
    with pytest.raises(SceneError, match=r"terrain\[0\]\.line_mm: a line of no length"):
        parse_scene(document)


# --- booleans are not numbers, and other values out of bounds ---------------------------


@pytest.mark.parametrize(
    ("figure", "field"),
    [
        (figure_data("a", "blue", True, 100), "figures[0].x_mm"),
        (figure_data("a", "blue", 100, 100, facing_deg=False), "figures[0].facing_deg"),
        (figure_data("a", "blue", 100, 100, sigma_mm=True), "figures[0].sigma_mm"),
        (figure_data("a", "blue", 100, 100, reference=1), "figures[0].reference"),
        (figure_data("a", "blue", 100, 100, x_mm="100"), "figures[0].x_mm"),
    ],
)
def test_a_scene_never_reads_a_boolean_as_a_number(figure: dict[str, Any], field: str) -> None:
    with pytest.raises(SceneError, match=re.escape(f"<scene>: {field}: ")):
        scene_of("cb6", figure)


@pytest.mark.parametrize("facing", [1e300, -400.0, 361.0])
def test_a_facing_is_an_angle_of_at_most_a_turn(facing: float) -> None:
    # fmod(1e300, 360) is 0: such a figure faced east without a word.
    with pytest.raises(SceneError, match=re.escape("figures[0].facing_deg: ")):
        scene_of("sr", figure_data("a", "blue", 300, 300, facing_deg=facing))


@pytest.mark.parametrize("key", ["\n", "a\u0085b", "x" * 300])
def test_an_odd_option_name_is_quoted_on_one_line(key: str) -> None:
    # Found by the fuzzing: options: {"\n": null} made a two-line message.
    with pytest.raises(SceneError) as refused:
        scene_of("cb6", figure_data("a", "blue", 300, 300), **{key: None})
    message = str(refused.value)
    assert "unknown key (a typo?)" in message and len(message.splitlines()) == 1
    assert len(message) < 200


def test_a_base_larger_than_the_table_is_refused() -> None:
    # A 99,999 mm square on a 1,200 x 900 mm table fired at "0.0 cm, short range".
    huge = {"shape": "square", "side_mm": 99_999}
    with pytest.raises(SceneError, match=re.escape("figures[0].base: a base of 99999 x 99999 mm")):
        scene_of("sr", figure_data("a", "blue", 300, 300, base=huge))
    scene_of("sr", figure_data("a", "blue", 300, 300, base={"shape": "square", "side_mm": 1200}))
