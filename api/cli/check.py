"""``arbitre check``: an arbitre.yaml and the files it names, read as ``serve`` reads them."""

from pathlib import Path
from typing import Annotated

import typer

from arbitre.api.cli.common import bad_input_exits_2


@bad_input_exits_2
def check(
    config: Annotated[Path, typer.Argument(help="arbitre.yaml")],
) -> None:
    """Check an arbitre.yaml and every file it names, as `serve --config` does before it
    starts, and say what it sets up (no camera is opened)."""
    from arbitre.api.settings import load_settings, summary, without_height

    settings, table_config = load_settings(config)
    for line in summary(settings, table_config):
        typer.echo(line)
    heights = without_height(table_config)
    if heights is not None:
        typer.echo(f"warning: {heights}")
    typer.echo(f"{config}: ready")
