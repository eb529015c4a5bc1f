"""``arbitre snapshot``: the live table, or a running server's, saved as a scene file."""

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from arbitre.api.cli.common import (
    SOURCE_OPTIONS,
    Sources,
    bad_input_exits_2,
    fail,
    given,
    live_table,
    options_given,
    source_options,
    write_scene,
)
from arbitre.api.limits import in_time
from arbitre.rules.answers import counted


@bad_input_exits_2
@source_options()
def snapshot(
    out: Annotated[Path, typer.Option(help="scene.yaml to write")],
    server: Annotated[
        str | None, typer.Option(help="a running server, e.g. http://127.0.0.1:8000")
    ] = None,
    demo: Annotated[bool, typer.Option("--demo", help="the built-in demo table")] = False,
    config: Annotated[Path | None, typer.Option(help="arbitre.yaml")] = None,
    sources: Sources = SOURCE_OPTIONS,  # --camera-index, --video, ...
    frames: Annotated[
        int, typer.Option(help="frames to track before saving, 1 to 1000", min=1, max=1000)
    ] = 15,
    force: Annotated[bool, typer.Option("--force", help="overwrite the file if it exists")] = False,
) -> None:
    """Save the live table as a scene file that `arbitre ask` reads.

    The scene is checked by the scene reader before it is written, through a temporary
    file: a wrong answer or a failed write leaves an existing file as it was.
    """
    from arbitre.files import refuse_overwrite

    refuse_overwrite(out, force=force)
    if server is not None:
        chosen = given({"--demo": demo, "--config": config, **options_given(sources)})
        if chosen:
            raise fail(f"--server gives the scene: no {' or '.join(chosen)} with it")
        document = _scene_from_server(server)
    else:
        live = live_table(config, demo, sources)
        got = sum(live.step() for _ in range(frames))
        live.stop()
        if not got:
            raise fail(live.source.no_frame())
        if not live.located_frames:
            raise fail(
                f"{live.source.description}: the table was not found in {counted(got, 'frame')} "
                "(no anchors seen): nothing written"
            )
        document = live.scene_document()

    write_scene(out, document, force=force)
    typer.echo(f"{out}: {counted(len(document['figures']), 'figure')}")


SERVER_DEADLINE_S = 20.0
"""How long ``snapshot --server`` waits for the whole scene (10 s for each read)."""


def _fetched(address: str, limit: int) -> bytes:
    """At most ``limit`` bytes of the answer at ``address``; `TimeoutError` when it has
    not all come within `SERVER_DEADLINE_S` (a server sending a byte now and then)."""
    import urllib.request

    def fetch() -> bytes:
        with urllib.request.urlopen(address, timeout=10) as reply:
            return bytes(reply.read(limit))

    try:
        return in_time(fetch, SERVER_DEADLINE_S)
    except TimeoutError:
        raise TimeoutError(address) from None


def _scene_from_server(server: str) -> dict[str, Any]:
    """The data of the scene a running server gives (``GET /api/scene``), checked by the
    scene reader; anything else is one line naming the address."""
    import urllib.error
    import urllib.request

    from arbitre.rules.errors import SceneError
    from arbitre.rules.scene import MAX_SCENE_BYTES, parse_scene

    address = server.rstrip("/") + "/api/scene"
    if not address.startswith(("http://", "https://")):
        raise fail(f"{server}: expected a server address such as http://127.0.0.1:8000")
    try:
        body = _fetched(address, MAX_SCENE_BYTES + 1)
    except TimeoutError:
        raise fail(f"{address}: no scene within {SERVER_DEADLINE_S:g} s") from None
    except urllib.error.HTTPError as error:
        raise fail(f"{address}: no scene (HTTP {error.code} {error.reason})") from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", None) or error
        raise fail(f"{address}: no scene ({' '.join(str(reason).split())[:200]})") from None
    if len(body) > MAX_SCENE_BYTES:
        raise fail(f"{address}: the answer is larger than a scene can be")
    try:
        document = json.loads(body)
    except (ValueError, RecursionError):
        raise fail(f"{address}: the answer is not JSON; is this an arbitre server?") from None
    try:
        parse_scene(document, source=address)
    except SceneError as error:
        where = f"{error.field}: " if error.field else ""
        raise fail(
            f"{address}: the answer is not a scene ({where}{error.problem[:200]}); "
            "is this an arbitre server?"
        ) from None
    except RecursionError:
        raise fail(f"{address}: the answer is not a scene (nested too deeply)") from None
    return dict(document)
