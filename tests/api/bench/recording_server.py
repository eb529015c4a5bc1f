"""An HTTP server on the loopback that answers each path as the test says and records the
bodies it was sent, for the clients of ``arbitre bench serve``."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Recorded:
    """What the server was sent: the JSON bodies of its POSTs, in order."""

    def __init__(self) -> None:
        self.bodies: list[Any] = []
        self.lock = threading.Lock()


@contextmanager
def recording_server(answers: dict[str, int]) -> Iterator[tuple[int, Recorded]]:
    """The port of a server answering path ``p`` with status ``answers[p]`` (a 503 with
    ``Retry-After: 1``; an unknown path 404), and what it records."""
    recorded = Recorded()

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            status = answers.get(self.path, 404)
            self.send_response(status)
            if status == 503:
                self.send_header("Retry-After", "1")
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")

        def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
            self._answer()

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"null")
            with recorded.lock:
                recorded.bodies.append(body)
            self._answer()

        def log_message(self, *_args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], recorded
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
