"""rules/choc_base_6/questions.py: one question table for both surfaces, each summed up in
its own terms."""

from __future__ import annotations

from arbitre.rules.choc_base_6 import ChocBase6Neutral
from arbitre.rules.choc_base_6.grid_questions import GRID
from arbitre.rules.choc_base_6.questions import cb6_questions
from arbitre.rules.questions import ask
from tests.rules.choc_base_6.scenes import fig, grid_scene, neutral_scene, td_figure

NEUTRAL = ChocBase6Neutral()


def test_both_surfaces_ask_the_same_questions_in_their_own_words() -> None:
    neutral, grid = cb6_questions(NEUTRAL, grid=False), cb6_questions(GRID, grid=True)
    assert list(neutral) == list(grid)
    assert neutral["distance"].summary == "reference-to-reference distance"
    assert grid["distance"].summary == "cells between two groups"
    assert (neutral["move"].args, grid["move"].args) == (("A", "X", "Y"), ("A", "X", "Y"))
    # Each question is answered by the surface it was made for.
    assert neutral["reach"].answerer == NEUTRAL.reach
    assert grid["reach"].answerer == GRID.reach


def test_initiative_is_another_name_for_the_turn_order() -> None:
    # Blue has two groups, red one: blue plays first (§3), on either surface.
    neutral = neutral_scene(
        td_figure("a", "blue", 100, 100),
        td_figure("a2", "blue", 100, 500),
        td_figure("b", "red", 500, 500),
    )
    grid = grid_scene(
        "square",
        fig("a", "blue", (25, 25)),
        fig("a2", "blue", (125, 25)),
        fig("b", "red", (225, 225)),
    )
    for scene in (neutral, grid):
        first = ask(scene, "initiative", []).to_json()
        assert first == ask(scene, "turn-order", []).to_json()  # the same answer, word for word
        assert first["first"] == "blue"
