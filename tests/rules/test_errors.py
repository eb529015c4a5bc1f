"""The rules' errors: one hierarchy of ValueErrors, messages of one line, bad values
shown short (arbitre.rules.errors)."""

from __future__ import annotations

from arbitre.rules.errors import shown


def test_a_bad_value_is_shown_short() -> None:
    assert shown("x" * 10_000).startswith("'xxx") and len(shown("x" * 10_000)) < 50
    assert len(shown([[[[[1] * 1000]]]] * 1000)) < 80
    assert shown(float("inf")) == "inf"
