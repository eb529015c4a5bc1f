"""The ``arbitre`` command line: a thin shell over rules, calibration and vision.

One module per command (``ask.py``, ``serve.py``, ...; ``print``, ``calibrate``, ``table``
and ``bench`` each a module holding its group), what they share in ``common.py``, their
table in ``commands.py``; this module builds the command line from them and runs it
(`main`, `entry`).

Its annotations are objects, not text (no ``from __future__ import annotations``): Typer
reads the parameters of the command it runs at each start, and would compile and evaluate
text there, each several times over.
"""

import os
import sys
from functools import cache
from typing import Annotated, Any, NoReturn

import typer

from arbitre.api.cli import common
from arbitre.api.cli.commands import COMMANDS, GROUPS
from arbitre.rules.lazy import Deferred

LOOSE_ARGUMENTS = {"ask"}
"""Commands whose arguments may look like options (``move A 250 -3``)."""


def build_app(only: str | None = None) -> typer.Typer:
    """The command line; with ``only`` a command's or group's name, that one alone: a start
    reads the parameters of the command it runs, not of the twenty others (their imports
    were a twentieth of a question's start)."""
    app = typer.Typer(
        name="arbitre",
        help="A computer-vision table assistant for miniature wargames.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode="markdown",  # a docstring's lines make paragraphs, re-wrapped
    )
    for name, command in COMMANDS.items():
        if only in (None, name):
            settings = {"ignore_unknown_options": True} if name in LOOSE_ARGUMENTS else None
            app.command(name, context_settings=settings)(_loaded(command))
    for name, group in GROUPS.items():
        if only in (None, name):
            app.add_typer(_loaded(group), name=name)
    app.callback()(_options)  # with it, even one command keeps its name on the line
    return app


def _loaded(entry: Any) -> Any:
    """A command (or group) of `COMMANDS`, its module imported if need be."""
    return entry.resolve() if isinstance(entry, Deferred) else entry


@cache
def _whole_app() -> typer.Typer:
    return build_app()


def __getattr__(name: str) -> typer.Typer:
    """``app``: the whole command line (its help, or a caller's own runner)."""
    if name == "app":
        return _whole_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _version(shown: bool) -> None:
    if shown:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"arbitre {version('arbitre')}")
        except PackageNotFoundError:  # run from a tree that was never installed
            typer.echo("arbitre (not installed: no version)")
        raise typer.Exit()


def _options(
    _shown: Annotated[
        bool,
        typer.Option(
            "--version", help="Show arbitre's version and exit.", callback=_version, is_eager=True
        ),
    ] = False,
) -> None:
    """A computer-vision table assistant for miniature wargames."""


def _unexpected(error: BaseException) -> NoReturn:
    """An error no command turned into its own line: still one line and exit 2 (set
    ``ARBITRE_DEBUG=1`` for the traceback)."""
    if os.environ.get("ARBITRE_DEBUG"):
        raise error
    text = _one_line(str(error), 200)
    typer.echo(f"arbitre: cannot do this: {type(error).__name__}: {text}", err=True)
    sys.exit(2)


def _one_line(text: str, limit: int) -> str:
    """``text`` on one line, its spaces collapsed, cut to ``limit`` characters.

    >>> _one_line("one   two three four", 12)
    'one two thr…'
    >>> _one_line("short", 12)
    'short'
    """
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def entry() -> None:
    """The ``arbitre`` command and ``python -m arbitre``: `main` in a process of its own."""
    common.OWN_PROCESS = True
    main()


def main() -> None:
    """Console entry point: a usage error (a missing argument, a bad option value) is one
    line on stderr and exit status 2, like every other bad input."""
    # arbitre uses no pydantic plugin; looking for them reads the metadata of every
    # installed distribution, a tenth of a question's start (set it to use one).
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    # OpenCV's own warnings (a webcam it cannot open, say) are for its developers: the
    # command says what went wrong in its one line.
    os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
    # and so are FFmpeg's (a file that is no video: "moov atom not found"): quiet
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")
    try:
        named = sys.argv[1] if len(sys.argv) > 1 else None
        app = build_app(named if named in COMMANDS or named in GROUPS else None)
        code = app(prog_name="arbitre", standalone_mode=False)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as error:
        if getattr(error, "exit_code", None) != 2 or not hasattr(error, "format_message"):
            _unexpected(error)
        context = getattr(error, "ctx", None)
        command = context.command_path if context is not None else "arbitre"
        message = _one_line(str(error.format_message()), 400)  # a value may be long
        if message:  # (none when the help was shown for a command given nothing)
            typer.echo(f"arbitre: {message} (see {command} --help)", err=True)
        sys.exit(2)
    sys.exit(code if isinstance(code, int) else 0)
