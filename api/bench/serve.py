"""``arbitre bench serve``: the pipeline's frame rate with 20 WebSocket clients vs none.

The demo table runs uncapped (as fast as the machine processes frames) behind a
real uvicorn server; its frame rate is measured with no client, then with N
clients reading every state pushed on ``/api/ws``, in the same run.
"""

from __future__ import annotations

import multiprocessing
import socket
import threading
import time
from typing import Any

import uvicorn

from arbitre.api.bench.ws_load import run_clients
from arbitre.api.demo import DemoSource, demo_setup
from arbitre.api.live import LiveTable, TableConfig
from arbitre.api.main import create_app

TARGET_RATIO = 0.9  # the frame rate stays within 10 % of its rate with no client


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _rate(live: LiveTable, seconds: float) -> float:
    start_frames, start = live.frames_processed, time.perf_counter()
    time.sleep(seconds)
    return (live.frames_processed - start_frames) / (time.perf_counter() - start)


def run_serve_bench(clients: int = 20, seconds: float = 8.0) -> dict[str, Any]:
    """Frames per second with no client and with ``clients`` WebSocket clients."""
    setup = demo_setup()
    live = LiveTable(
        TableConfig(
            setup.camera, setup.table, setup.roster, options={"unit_mm": 100}, terrain=setup.terrain
        ),
        DemoSource(),
        max_fps=None,
    )
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(live),
            host="127.0.0.1",
            port=port,
            log_level="warning",
            ws_per_message_deflate=False,
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.05)
        time.sleep(1.0)  # warm up
        alone = _rate(live, seconds)
        # The clients run in a process of their own, as phones would be other machines;
        # the measure starts once every client is connected.
        context = multiprocessing.get_context("spawn")
        ready, stop = context.Event(), context.Event()
        received: Any = context.Queue()
        process = context.Process(target=run_clients, args=(port, clients, ready, stop, received))
        process.start()
        if not ready.wait(timeout=60):
            raise RuntimeError("the WebSocket clients could not connect")
        loaded = _rate(live, seconds)
        stop.set()
        messages = int(received.get(timeout=30))
        process.join(timeout=10)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    return {
        "clients": clients,
        "fps_alone": alone,
        "fps_loaded": loaded,
        "ratio": loaded / alone if alone else 0.0,
        "messages": messages,
    }


def report_lines(report: dict[str, Any]) -> list[str]:
    """The report as one line, with the target met (ok) or missed (MISS)."""
    verdict = "ok" if report["ratio"] >= TARGET_RATIO else "MISS"
    return [
        f"demo pipeline: {report['fps_alone']:.1f} fps alone, {report['fps_loaded']:.1f} "
        f"fps with {report['clients']} WebSocket clients ({report['messages']} states "
        f"pushed): ratio {report['ratio']:.2f} (target >= {TARGET_RATIO:.2f}) {verdict}"
    ]
