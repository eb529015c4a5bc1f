"""The table of commands: a start builds the one command it runs, and imports no other."""

from __future__ import annotations

import subprocess
import sys

import typer.main

from arbitre.api.cli import build_app
from arbitre.api.cli.commands import COMMANDS, GROUPS

COMMAND_MODULES = {
    "ask",
    "bench",
    "calibrate",
    "check",
    "journal",
    "locate",
    "plan",
    "printing",
    "questions",
    "serve",
    "snapshot",
    "table",
}


def _names(app: typer.Typer) -> list[str]:
    return list(typer.main.get_command(app).commands)  # in the order they were added


def test_the_whole_command_line_lists_the_commands_then_the_groups() -> None:
    assert _names(build_app()) == [*COMMANDS, *GROUPS]
    assert "ask" in COMMANDS and "journal" in GROUPS  # the table is not empty


def test_a_start_builds_only_the_command_it_runs() -> None:
    assert _names(build_app("rulesets")) == ["rulesets"]
    assert _names(build_app("journal")) == ["journal"]


def test_a_start_imports_no_other_command_s_module() -> None:
    # In a fresh interpreter (this one has imported them all): building `rulesets`
    # loads questions.py (its module) and what every command shares, nothing else.
    probe = (
        "import sys\n"
        "from arbitre.api.cli import build_app\n"
        "build_app('rulesets')\n"
        "print(' '.join(m for m in sys.modules if m.startswith('arbitre.api.cli.')))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    loaded = {name.rsplit(".", 1)[1] for name in run.stdout.split()}
    assert loaded & COMMAND_MODULES == {"questions"}
