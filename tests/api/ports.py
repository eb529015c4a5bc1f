"""A free TCP port on the loopback, for a server a test starts."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port nothing listens on at 127.0.0.1 now (the system's choice)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port
