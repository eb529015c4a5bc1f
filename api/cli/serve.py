"""``arbitre serve``: the live table, its HTTP API and the web page."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from arbitre.api.cli.common import (
    SOURCE_OPTIONS,
    Sources,
    bad_input_exits_2,
    fail,
    live_table,
    source_options,
)
from arbitre.rules.answers import counted

if TYPE_CHECKING:
    from arbitre.api.live.journal import Journal


@bad_input_exits_2
@source_options(served=True)
def serve(
    demo: Annotated[bool, typer.Option("--demo", help="the built-in demo table")] = False,
    demo_club: Annotated[
        bool,
        typer.Option(
            "--demo-club", help="the built-in club table: 6 x 4 ft, two simulated cameras"
        ),
    ] = False,
    config: Annotated[Path | None, typer.Option(help="arbitre.yaml")] = None,
    sources: Sources = SOURCE_OPTIONS,  # --camera-index, --video, ...
    host: Annotated[
        str, typer.Option(help="address to listen on; 0.0.0.0 for phones on the same network")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port, 1 to 65535", min=1, max=65535)] = 8000,
    tuio: Annotated[
        str | None,
        typer.Option(
            help="also send the figures as TUIO 1.1 /tuio/2Dobj to HOST:PORT (UDP), e.g. "
            "127.0.0.1:3333",
            metavar="HOST:PORT",
        ),
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-host",
            help="also answer to this host name or address (repeatable), e.g. a name "
            "players type; others get HTTP 400",
            metavar="NAME",
        ),
    ] = None,
    journal: Annotated[
        Path | None,
        typer.Option(
            help="keep the game journal (every question and answer, the table as it was) in "
            "this SQLite file; by default journal.sqlite beside --config's arbitre.yaml, none "
            "for the demo tables",
            metavar="PATH",
        ),
    ] = None,
    no_journal: Annotated[bool, typer.Option("--no-journal", help="keep no game journal")] = False,
    journal_frame_width: Annotated[
        int,
        typer.Option(
            help="the journal's camera pictures are no wider than this, in pixels (0: no pictures)",
            min=0,
            max=7680,
            metavar="PX",
        ),
    ] = 1280,
    journal_keep_days: Annotated[
        float | None,
        typer.Option(
            help="delete what the journal holds from more than this many days ago, at start",
            min=0.0,
            max=36500.0,
            metavar="DAYS",
        ),
    ] = None,
    journal_max_mb: Annotated[
        float | None,
        typer.Option(
            help="the journal's data never take more than this many MB: the oldest entries "
            "go first",
            min=1.0,
            max=1e6,
            metavar="MB",
        ),
    ] = None,
) -> None:
    """Run the live table: camera loop, HTTP API and the web page.

    With `--config`, every question asked of the live table is kept with its answer, the
    table and the camera's picture in `journal.sqlite` beside arbitre.yaml (read it with
    `arbitre journal list|show|export`); `--journal PATH` chooses the file (and keeps one
    for `--demo` too), `--no-journal` keeps none.
    """
    import secrets

    import uvicorn

    from arbitre.api.hosts import ALL_INTERFACES, HostError, lan_address, trusted_hosts
    from arbitre.api.live.desk import QuestionDesk
    from arbitre.api.live.tuio import TuioError, TuioSender, resolve_target
    from arbitre.api.main import create_app
    from arbitre.api.settings import journal_beside

    try:
        tuio_target = resolve_target(tuio) if tuio is not None else None
        hosts = trusted_hosts(host, allowed_host or ())
    except (TuioError, HostError) as error:
        raise fail(str(error)) from None
    if journal is not None and no_journal:
        raise fail("--journal PATH or --no-journal, not both")
    _check_listening(host, port)  # before a camera or a video is waited on
    live = live_table(config, demo, sources, demo_club)
    try:
        kept = _journal(
            None if no_journal else journal or (journal_beside(config) if config else None),
            journal_frame_width,
            journal_keep_days,
            journal_max_mb,
        )
    except OSError:  # a file it cannot keep: the sources opened are closed again
        live.stop()
        raise
    sender: TuioSender | None = None
    if tuio_target is not None:
        table = live.config.table
        sender = TuioSender(*tuio_target, table.width_mm, table.depth_mm)
        live.on_frame = sender
    token = secrets.token_urlsafe(12)
    app_ = create_app(
        live, token=token, hosts=hosts, desk=QuestionDesk(processes=True), journal=kept
    )
    everywhere = host in ALL_INTERFACES
    shown = (lan_address() or "127.0.0.1") if everywhere else host
    shown = f"[{shown}]" if ":" in shown else shown  # an IPv6 address in a URL
    described = " + ".join(source.description for source in live.sources)
    typer.echo(f"arbitre: {described} on http://{shown}:{port}/ (API docs /docs)")
    typer.echo(f"arbitre: to change settings, open http://{shown}:{port}/?token={token}")
    if everywhere:
        typer.echo("arbitre: anyone on this network may view; changes need the token")
    if sender is not None:
        typer.echo(f"arbitre: TUIO /tuio/2Dobj to {tuio} (UDP), each frame")
    if kept is not None:
        held = kept.stats()
        typer.echo(
            f"arbitre: journal {kept.path} ({counted(held['questions'], 'question')} kept); "
            "read it with arbitre journal list"
        )
    for source in live.sources:
        if not source.is_open():
            typer.echo(
                f"arbitre: warning: {source.description} gives no picture yet"
                f" ({source.advice or 'it is tried again every few seconds'})"
            )
    from arbitre.api.settings import without_height

    heights = without_height(live.config)
    if heights is not None:
        typer.echo(f"arbitre: warning: {heights}")
    from arbitre.api.connections import SERVER_OPTIONS

    try:
        uvicorn.run(app_, host=host, port=port, log_level="warning", **SERVER_OPTIONS)
    finally:
        if sender is not None:
            sender.close()


def _journal(
    path: Path | None, frame_width_px: int, keep_days: float | None, max_mb: float | None
) -> "Journal | None":
    """The game journal at ``path`` (None: none kept), opened before the server starts:
    a file it cannot keep is one line and exit 2."""
    if path is None:
        return None
    from arbitre.api.live.journal import Journal

    return Journal(
        path,
        frame_width_px=frame_width_px,
        keep_days=keep_days,
        max_bytes=None if max_mb is None else round(max_mb * 1_000_000),
    )


def _check_listening(host: str, port: int) -> None:
    """Refuse at once, in one line, an address the server could not listen on (a port
    taken by another server, an address of another machine), before the table starts."""
    import errno
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
            probe.bind(address)
    except (OSError, UnicodeError) as error:
        reason = getattr(error, "strerror", None) or error
        taken = getattr(error, "errno", None) == errno.EADDRINUSE
        advice = f": another server uses it; try --port {port + 1}" if taken else ""
        raise fail(f"cannot listen on {host}:{port} ({reason}){advice}") from None
