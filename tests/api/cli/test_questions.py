"""``arbitre rulesets`` and ``arbitre questions``: what the rule systems answer."""

from __future__ import annotations

from arbitre.rules.registry import find_ruleset, ruleset_names
from tests.api.cli.invoke import run
from tests.console import run_console


def test_rulesets_lists_choc_base_6() -> None:
    code, out, _ = run("rulesets")
    assert code == 0
    assert "choc-base-6 (also: cb6" in out


def test_questions_lists_every_question_of_a_rule_system_with_its_arguments() -> None:
    code, out, err = run_console("questions", "mbt")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "mbt:"
    listed = {line.split()[0]: line.split()[1:] for line in lines[1:]}
    known = find_ruleset("mbt").questions()
    assert set(listed) == set(known)
    # "move A X Y    may A move to (X, Y) mm": the arguments, then the summary
    for name, question in known.items():
        assert listed[name][: len(question.args)] == list(question.args)
        assert " ".join(listed[name][len(question.args) :]) == question.summary


def test_questions_without_a_rule_system_lists_them_all() -> None:
    code, out, _ = run_console("questions")
    assert code == 0
    assert [line[:-1] for line in out.splitlines() if line and not line[0].isspace()] == (
        ruleset_names()
    )


def test_questions_of_an_unknown_rule_system_names_the_nearest() -> None:
    code, out, err = run_console("questions", "chocbase")
    assert (code, out) == (2, "")
    assert err.startswith("arbitre: unsupported ruleset: 'chocbase' (did you mean 'choc-base-6'?)")
