"""The WebSocket clients of ``arbitre bench serve``: all connected before the bench
starts, each reading the state the server pushes."""

from __future__ import annotations

import multiprocessing
import queue
import threading

from arbitre.api.bench.ws_load import run_clients
from tests.api.real_server import real_server


def test_every_client_joins_and_reads_the_state() -> None:
    # The server sends the state to each client as it connects (its loop does not run
    # here, so nothing more): three clients read at least three messages.
    received: queue.Queue[int] = queue.Queue()
    ready, stop = multiprocessing.Event(), multiprocessing.Event()
    with real_server("t") as port:
        threading.Timer(1.0, stop.set).start()
        run_clients(port, 3, ready, stop, received)  # type: ignore[arg-type]
    assert ready.is_set()
    assert received.get_nowait() >= 3
