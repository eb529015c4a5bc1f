"""The "still moving" note of an answer names only the figures the question is about: on
a live table someone is nearly always moving a figure somewhere."""

from __future__ import annotations

from pathlib import Path

import yaml

from arbitre.api.live.desk import about_question, answer_scene, groups_of
from arbitre.rules.scene import load_scene

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SKIRMISH = EXAMPLES / "cb6-skirmish.yaml"
# the groups alpins (chef, alp2, alp3, tireur) and verts (sergent, v2, v3, v4); the
# cavalier alone; the legionnaires legio, l2, l3, a group found by chaining from legio
# (l2 and l3 declare no group: only the groups question says they are legio's)
ABOUT = {"positions": "moving", "moving": ["alp2", "cavalier", "l2"], "stale": ["v3", "l3"]}


def test_a_question_about_two_groups_names_only_their_moving_figures() -> None:
    scene = load_scene(SKIRMISH)
    narrowed = about_question(ABOUT, scene, ["alpins", "verts"], groups_of(scene))
    assert narrowed == {"positions": "moving", "moving": ["alp2"], "stale": ["v3"]}


def test_a_group_found_by_chaining_counts_its_members() -> None:
    scene = load_scene(SKIRMISH)
    narrowed = about_question(ABOUT, scene, ["legio", "cavalier"], groups_of(scene))
    assert narrowed == {"positions": "moving", "moving": ["cavalier", "l2"], "stale": ["l3"]}


def test_a_question_about_still_figures_rests_on_settled_positions() -> None:
    scene = load_scene(SKIRMISH)
    narrowed = about_question(ABOUT, scene, ["chef", "sergent"], groups_of(scene))
    assert narrowed == {"positions": "settled", "moving": [], "stale": []}


def test_a_question_naming_no_figure_is_about_them_all() -> None:
    scene = load_scene(SKIRMISH)
    assert about_question(ABOUT, scene, [], groups_of(scene)) == ABOUT


def test_the_worker_narrows_what_it_is_given() -> None:
    # the path of `arbitre serve`: the worker reads the scene and answers, then narrows
    document = yaml.safe_load(SKIRMISH.read_text(encoding="utf-8"))
    ok, body = answer_scene(document, "distance", ["chef", "v2"], {}, "live table", ABOUT)
    assert ok
    assert b'"positions":"settled","moving":[],"stale":[]' in body.replace(b" ", b"")
