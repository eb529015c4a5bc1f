"""WebSocket clients for ``arbitre bench serve``, run in a process of their own.

Kept apart from the rest of `api` so the process that holds the clients imports
nothing heavy: the time the bench measures is the server's, not the clients' start-up.
"""

from __future__ import annotations

import asyncio
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event

import websockets


def run_clients(port: int, count: int, ready: Event, stop: Event, received: Queue[int]) -> None:
    """Connect ``count`` clients to /api/ws, say when all are in, read until ``stop``."""
    received.put(asyncio.run(_clients(port, count, ready, stop)))


async def _clients(port: int, count: int, ready: Event, stop: Event) -> int:
    connected = asyncio.Event()
    joined = 0
    messages = 0

    async def client() -> None:
        nonlocal joined, messages
        async with websockets.connect(f"ws://127.0.0.1:{port}/api/ws", max_size=None) as ws:
            joined += 1
            if joined == count:
                connected.set()
            while not stop.is_set():
                try:
                    await asyncio.wait_for(ws.recv(), timeout=0.2)
                    messages += 1
                except TimeoutError:
                    continue

    tasks = [asyncio.create_task(client()) for _ in range(count)]
    await connected.wait()
    ready.set()
    await asyncio.gather(*tasks)
    return messages
