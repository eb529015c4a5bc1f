"""What the commands share: the one-line refusal, the progress bar, the options of the
frame sources and the live table of ``serve`` and ``snapshot``, a scene file written whole."""

import inspect
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import wraps
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, TypeVar

import typer

from arbitre.api.live.sources import SOURCE_KINDS, SourceKind
from arbitre.bounds import LONGEST_MM
from arbitre.calibration.errors import CalibrationError
from arbitre.calibration.progress import Progress
from arbitre.rules.errors import RulesError
from arbitre.vision.errors import VisionError

F = TypeVar("F", bound=Callable[..., Any])

MAX_TABLE_MM = LONGEST_MM
"""The largest table side (100 m), as in a scene."""

OWN_PROCESS = False
"""Whether the command line runs in a process of its own (`arbitre.api.cli.entry`): only
then does it bound the process's memory and end it when a question outlives its time
limit (a program calling `arbitre.api.cli.main` in its own process keeps its bounds)."""


def fail(message: str) -> typer.Exit:
    """Print one line on stderr and give the exit for bad input (status 2)."""
    typer.echo(f"arbitre: {message}", err=True)
    return typer.Exit(code=2)


def bad_input_exits_2(command: F) -> F:
    """Turn the domain errors of a command into one line on stderr and exit status 2."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except BrokenPipeError:
            raise  # the reader went away (`| head`): click ends the command quietly
        except (RulesError, CalibrationError, VisionError, OSError) as error:
            raise fail(str(error)) from None

    return wrapper  # type: ignore[return-value]


@contextmanager
def progress_bar(description: str, *, quiet: bool = False) -> Iterator[Progress | None]:
    """A `Progress` callback drawing a bar on stderr, or None when ``quiet`` (``--json``)
    or stderr is not a terminal; the bar goes away once the work is done."""
    import sys

    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
    from rich.progress import Progress as Bar

    with Bar(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task(description, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def given(options: dict[str, object]) -> list[str]:
    """The names of the options the user gave (a flag set, a value; 0 is a value)."""
    return [name for name, value in options.items() if value is not None and value is not False]


Sources = Mapping[SourceKind, Any]
"""Each kind of frame source and the value its option was given (None when not)."""

SOURCE_OPTIONS: Sources = MappingProxyType({})
"""The default of a command's parameter ``sources``: `source_options` puts the options of
the frame sources in its place."""


def source_options(*, served: bool = False) -> Callable[[F], F]:
    """Give a command an option for each kind of frame source (`SOURCE_KINDS`:
    ``--camera-index``, ``--video`` ...) in the place of its parameter ``sources``, which
    it is then called with: each kind and its value, None when not given. ``served``: the
    options as ``serve`` words them (a video loops there)."""

    def with_options(command: F) -> F:
        signature = inspect.signature(command)
        options = [
            inspect.Parameter(
                kind.key,
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                default=None,
                annotation=Annotated[
                    kind.value_type | None,
                    typer.Option(
                        help=(served and kind.served_help) or kind.help,
                        min=kind.bounds[0] if kind.bounds else None,
                        max=kind.bounds[1] if kind.bounds else None,
                    ),
                ],
            )
            for kind in SOURCE_KINDS
        ]
        parameters = []
        for parameter in signature.parameters.values():
            parameters += options if parameter.name == "sources" else [parameter]

        @wraps(command)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            sources = {kind: kwargs.pop(kind.key) for kind in SOURCE_KINDS}
            return command(*args, sources=sources, **kwargs)

        wrapper.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        wrapper.__annotations__ = {
            **{p.name: p.annotation for p in parameters},
            "return": signature.return_annotation,
        }
        return wrapper  # type: ignore[return-value]

    return with_options


def options_given(sources: Sources) -> dict[str, object]:
    """The sources' options, each with its value: ``{"--video": Path("game.mp4"), ...}``."""
    return {kind.option: value for kind, value in sources.items()}


def live_table(
    config: Path | None,
    demo: bool,
    sources: Sources,
    demo_club: bool = False,
) -> Any:
    """The live table for ``serve`` and ``snapshot``: a demo, or arbitre.yaml and its
    sources (``sources``: each kind of source and the value its option was given)."""
    from arbitre.api.live.sources import open_source
    from arbitre.api.live.table import LiveTable

    flags = {"--demo": demo, "--demo-club": demo_club}
    chosen = given({**flags, **options_given(sources)})
    if len(chosen) > 1:
        raise fail(f"choose one source, not {' and '.join(chosen)}")
    if (demo or demo_club) and config is not None:
        raise fail(f"{chosen[0]} is a table of its own: give it or --config, not both")
    if demo_club:
        from arbitre.api.live.demo_club import ClubTable, club_sources, demo_club_config

        club = ClubTable()
        club.start()
        return LiveTable(demo_club_config(), club_sources(club), processes=True)
    if demo:
        from arbitre.api.live.demo import DemoSource, demo_config

        table_config = demo_config()
        return LiveTable(table_config, DemoSource())
    if config is None:
        raise fail("give --config arbitre.yaml (camera, table, roster), or try --demo")
    from arbitre.api.settings import load_settings

    settings, table_config = load_settings(config)
    in_file = [None if s.source is None else s.source.chosen() for s in settings.camera_specs]
    if len(in_file) > 1:
        if chosen:
            raise fail(
                f"{config} names {len(in_file)} cameras: each one's source is in the file "
                f"(cameras: - {{camera: ..., source: ...}}), not {chosen[0]}"
            )
        opened = [open_source(source, config.parent) for source in in_file]
        # each camera measured in a process of its own: side by side, not in turns
        return LiveTable(table_config, opened, processes=True)
    if chosen:  # a source given on the command line replaces the file's
        kind, value = next((k, v) for k, v in sources.items() if v is not None)
        return LiveTable(table_config, open_source((kind, value), Path()))
    return LiveTable(table_config, open_source(in_file[0], config.parent))


def write_scene(out: Path, document: dict[str, Any], *, force: bool) -> None:
    """Write a scene file through a temporary file, once the scene reader has read it
    back: a wrong scene or a failed write leaves an existing file as it was."""
    import yaml

    from arbitre.files import write_atomically
    from arbitre.rules.errors import SceneError
    from arbitre.rules.scene import parse_scene, read_scene_text

    def reads_back(data: bytes) -> None:
        parse_scene(read_scene_text(data.decode("utf-8"), str(out)), source=str(out))

    # pairs and covariances written [a, b] on one line each
    text = yaml.safe_dump(document, sort_keys=False, allow_unicode=True, default_flow_style=None)
    try:
        write_atomically(out, text, validate=reads_back, overwrite=force)
    except SceneError as error:
        raise fail(f"{out}: not written, the scene does not read back ({error.problem})") from None
