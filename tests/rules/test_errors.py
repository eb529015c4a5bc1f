"""The rules' errors: one hierarchy of ValueErrors, messages of one line, bad values
shown short (arbitre.rules.errors)."""

from __future__ import annotations

from arbitre.rules.errors import (
    SHOWN_CHARS,
    QuestionError,
    RulesError,
    SceneError,
    UnknownName,
    UnsupportedRuleset,
    error_fields,
    shown,
    stopped_after,
)


def test_a_bad_value_is_shown_short() -> None:
    assert shown("x" * 10_000).startswith("'xxx") and len(shown("x" * 10_000)) < 50
    assert len(shown([[[[[1] * 1000]]]] * 1000)) < 80
    assert shown(float("inf")) == "inf"


def test_every_error_is_a_value_error_of_the_rules() -> None:
    for kind in (SceneError, UnsupportedRuleset, QuestionError, UnknownName):
        assert issubclass(kind, RulesError)
    assert issubclass(RulesError, ValueError)
    assert issubclass(UnknownName, QuestionError)


def test_a_scene_error_names_the_file_and_the_field() -> None:
    error = SceneError("table.yaml", "figures[2].x_mm", "expected a number")
    assert str(error) == "table.yaml: figures[2].x_mm: expected a number"
    assert (error.source, error.field, error.problem) == (
        "table.yaml",
        "figures[2].x_mm",
        "expected a number",
    )
    assert str(SceneError("table.yaml", "", "empty file")) == "table.yaml: empty file"


def test_an_unsupported_ruleset_lists_the_known_ones_and_the_nearest() -> None:
    assert str(UnsupportedRuleset("chess")) == "unsupported ruleset: 'chess'"
    error = UnsupportedRuleset("mgb", ["cb6", "mbt"], ["mbt"])
    assert str(error) == "unsupported ruleset: 'mgb' (did you mean 'mbt'?); known: cb6, mbt"
    assert error.nearest == ["mbt"]


def test_a_question_error_carries_its_code_and_words() -> None:
    error = QuestionError("F must be a whole number", "not_whole", name="F")
    assert (error.code, error.params) == ("not_whole", {"name": "F"})
    assert (QuestionError("bad").code, QuestionError("bad").params) == (None, {})


def test_an_unknown_name_says_what_is_near_it_in_words_and_params() -> None:
    # "verst" is one swap from "verts"; "f1" and "alpins" are far from it.
    error = UnknownName("figure", "verst", ["alpins", "verts", "f1"])
    assert str(error) == "unknown figure 'verst' (did you mean 'verts'?)"
    assert error.code == "unknown_figure"
    assert error.params == {"name": "'verst'", "nearest": ["verts"]}
    far = UnknownName("figure or group", "x" * 300, ["x"])
    assert far.nearest == [] and len(str(far)) < 120


def test_a_value_too_long_to_show_is_cut_at_80_characters() -> None:
    # A list of 6 long strings: each cut to 40 characters, the whole to 80 (77 + "...").
    said = shown(["y" * 100] * 6)
    assert len(said) == SHOWN_CHARS == 80 and said.endswith("...")


def test_a_value_whose_repr_fails_is_still_shown_short() -> None:
    class Broken:
        def __repr__(self) -> str:
            raise ValueError("no")

    said = shown(Broken())
    assert said.startswith("<Broken instance at ") and len(said) < SHOWN_CHARS


def test_error_fields_keep_the_first_line_and_the_code() -> None:
    assert error_fields(SceneError("s.yaml", "table", "missing\nsee docs")) == {
        "detail": "s.yaml: table: missing"
    }
    assert error_fields(UnknownName("figure", "zz", [])) == {
        "detail": "unknown figure 'zz'",
        "code": "unknown_figure",
        "params": {"name": "'zz'", "nearest": []},
    }


def test_a_question_given_up_says_after_how_long() -> None:
    assert stopped_after(2.5) == "stopped after 2.5 s: the scene is too costly for this question"
