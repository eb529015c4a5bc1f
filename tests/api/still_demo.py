"""The demo table served to a test client, nobody walking: answers stay put."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient

from arbitre.api.hosts import LOOPBACK
from arbitre.api.live.demo import DemoSource, demo_config
from arbitre.api.live.table import LiveTable
from arbitre.api.main import create_app


@contextmanager
def still_demo(
    token: str | None = None, *, raise_server_exceptions: bool = True, **app_options: Any
) -> Iterator[tuple[TestClient, LiveTable]]:
    """A client of the demo table's API (token ``token``, `create_app`'s ``app_options``)
    and the live table, one frame in."""
    live = LiveTable(demo_config(), DemoSource(move_every_s=1e9))
    assert live.step()
    app = create_app(
        live, token=token, run_loop=False, hosts=[*LOOPBACK, "testserver"], **app_options
    )
    with TestClient(app, raise_server_exceptions=raise_server_exceptions) as client:
        yield client, live
