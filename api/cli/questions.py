"""``arbitre rulesets`` and ``arbitre questions``: what the rule systems answer."""

from typing import Annotated

import typer

from arbitre.api.cli.common import bad_input_exits_2


def rulesets() -> None:
    """List the rule systems arbitre knows."""
    from arbitre.rules.registry import find_ruleset, ruleset_names

    for name in ruleset_names():
        ruleset = find_ruleset(name)
        aliases = ", ".join(ruleset.aliases)
        typer.echo(f"{name}" + (f" (also: {aliases})" if aliases else ""))


@bad_input_exits_2
def questions(
    ruleset: Annotated[
        str | None, typer.Argument(help="a rule system (all of them when not given)")
    ] = None,
) -> None:
    """List the questions `arbitre ask` (and the page) answers, with their arguments."""
    from arbitre.rules.registry import find_ruleset, ruleset_names

    names = [find_ruleset(ruleset).name] if ruleset is not None else ruleset_names()
    for index, name in enumerate(names):
        if index:
            typer.echo()
        typer.echo(f"{name}:")
        found = find_ruleset(name).questions()
        width = max(len(" ".join((q.name, *q.args))) for q in found.values())
        for question in sorted(found.values(), key=lambda q: q.name):
            call = " ".join((question.name, *question.args))
            typer.echo(f"  {call:<{width}}  {question.summary}")
