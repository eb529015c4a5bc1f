"""Run ``arbitre`` as a user does: through its console entry point, in this process."""

from __future__ import annotations

import sys
from unittest import mock

from typer.testing import CliRunner

from arbitre.api.cli import main


def run_console(*argv: str) -> tuple[int, str, str]:
    """``arbitre ARGV...`` through the console entry point: (status, stdout, stderr)."""
    runner = CliRunner()
    with runner.isolation() as (out, err, _), mock.patch.object(sys, "argv", ["arbitre", *argv]):
        try:
            main()
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
        else:
            code = 0
        return code, out.getvalue().decode(), err.getvalue().decode()
