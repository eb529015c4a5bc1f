"""The commands of the command line, each named by its module before that module loads: a
start imports only the command it runs (`arbitre.api.cli.build_app`), while a type checker
and "go to definition" follow every name here to its command.

The table lives apart from the package's ``__init__``: there, a name such as ``ask`` would
hide the module ``arbitre.api.cli.ask`` from ``from arbitre.api.cli import ask``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbitre.rules.lazy import deferred_module

if TYPE_CHECKING:
    from arbitre.api.cli import (
        ask,
        bench,
        calibrate,
        check,
        journal,
        locate,
        plan,
        printing,
        questions,
        serve,
        snapshot,
        table,
    )
else:  # a start loads only the command it runs (see `build_app`)
    ask = deferred_module("arbitre.api.cli.ask")
    bench = deferred_module("arbitre.api.cli.bench")
    calibrate = deferred_module("arbitre.api.cli.calibrate")
    check = deferred_module("arbitre.api.cli.check")
    journal = deferred_module("arbitre.api.cli.journal")
    locate = deferred_module("arbitre.api.cli.locate")
    plan = deferred_module("arbitre.api.cli.plan")
    printing = deferred_module("arbitre.api.cli.printing")
    questions = deferred_module("arbitre.api.cli.questions")
    serve = deferred_module("arbitre.api.cli.serve")
    snapshot = deferred_module("arbitre.api.cli.snapshot")
    table = deferred_module("arbitre.api.cli.table")

# The commands, in the order --help lists them, then the groups.
COMMANDS = {
    "ask": ask.ask,
    "plan": plan.plan,
    "rulesets": questions.rulesets,
    "questions": questions.questions,
    "check": check.check,
    "locate": locate.locate,
    "serve": serve.serve,
    "snapshot": snapshot.snapshot,
}
GROUPS = {
    "journal": journal.app,
    "bench": bench.app,
    "print": printing.app,
    "calibrate": calibrate.app,
    "table": table.app,
}
