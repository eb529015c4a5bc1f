"""HTTP clients for ``arbitre bench serve``, run in a process of their own (as phones
would be other machines): each sends one request again and again until told to stop.

Kept apart from the server's modules so that the clients' process imports nothing heavy.
"""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from multiprocessing.synchronize import Event

Latencies = dict[str, list[float]]
"""The seconds each answer took, by its HTTP status ("failed": no answer)."""


def send_until_stopped(
    count: int,
    request: Callable[[int], urllib.request.Request],
    ready: Event,
    stop: Event,
    *,
    polite: bool = True,
    once: bool = False,
) -> Latencies:
    """``count`` clients, client ``k`` sending ``request(k)`` again and again from when
    they are all started (``ready`` is set) until ``stop``.

    A ``polite`` client waits as long as a 503's ``Retry-After`` asks (at most a second);
    a hostile one sends again at once. With ``once``, each client sends one request.
    """
    latencies: Latencies = {}
    lock = threading.Lock()

    def client(index: int) -> None:
        while not stop.is_set():
            start = time.perf_counter()
            try:
                with urllib.request.urlopen(request(index), timeout=60) as response:
                    response.read()
                    status = str(response.status)
            except urllib.error.HTTPError as error:
                status = str(error.code)
                if polite and error.code == 503:
                    stop.wait(min(float(error.headers.get("Retry-After", "1")), 1.0))
            except OSError:
                status = "failed"
            with lock:
                latencies.setdefault(status, []).append(time.perf_counter() - start)
            if once:
                return

    threads = [threading.Thread(target=client, args=(k,), daemon=True) for k in range(count)]
    for thread in threads:
        thread.start()
    ready.set()
    stop.wait()
    for thread in threads:
        thread.join(timeout=65)
    return latencies
