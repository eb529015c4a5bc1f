"""The demo table served by a real uvicorn server, with the options `arbitre serve` gives
it, for tests that speak HTTP over a raw socket (the test client reads a whole request
before the app sees it)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from arbitre.api.connections import SERVER_OPTIONS
from arbitre.api.live.demo import DemoSource, demo_config
from arbitre.api.live.table import LiveTable
from arbitre.api.main import create_app
from tests.api.ports import free_port


def still_live() -> LiveTable:
    """The demo table, nobody walking, one frame in."""
    live = LiveTable(
        demo_config(),
        DemoSource(move_every_s=1e9),
    )
    assert live.step()
    return live


@contextmanager
def real_server(token: str) -> Iterator[int]:
    """The port of a uvicorn server of the demo table (token ``token``) at 127.0.0.1."""
    free = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(still_live(), token=token, run_loop=False),
            host="127.0.0.1",
            port=free,
            log_level="warning",
            **SERVER_OPTIONS,
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield free
    finally:
        server.should_exit = True
        thread.join(timeout=10)
