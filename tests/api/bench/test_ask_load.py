"""The clients asking rules questions for ``arbitre bench serve``: the questions in turn,
and the paced client at the pace asked, only while it is asking."""

from __future__ import annotations

import multiprocessing
import queue
import threading
from typing import Any

from arbitre.api.bench.ask_load import QUESTIONS, run_askers, run_paced_askers
from arbitre.api.bench.clients import Latencies
from tests.api.bench.recording_server import recording_server


def _later(seconds: float, event: Any) -> None:
    threading.Timer(seconds, event.set).start()


def test_the_askers_ask_the_questions_in_turn_until_stopped() -> None:
    # Three clients: client k asks QUESTIONS[k % 3], so all three are asked.
    results: queue.Queue[Latencies] = queue.Queue()
    ready, stop = multiprocessing.Event(), multiprocessing.Event()
    with recording_server({"/api/ask": 200}) as (port, recorded):
        _later(0.4, stop)
        run_askers(port, 3, ready, stop, results)  # type: ignore[arg-type]
    latencies = results.get_nowait()
    assert ready.is_set() and list(latencies) == ["200"]
    asked = {(body["question"], tuple(body["args"])) for body in recorded.bodies}
    assert asked == {(question, tuple(args)) for question, args in QUESTIONS}
    assert len(latencies["200"]) == len(recorded.bodies) > 3  # again and again


def test_the_paced_client_asks_at_a_table_s_pace_and_only_while_asking() -> None:
    # 600 a minute: a question every 0.1 s. Asking for 0.5 s: at 0, 0.1, ... 0.4 s,
    # about five (the pace catches up after a slow moment, never runs ahead); then a
    # pause of 0.3 s with nothing asked.
    results: queue.Queue[Latencies] = queue.Queue()
    asking, ready, stop = (multiprocessing.Event() for _ in range(3))
    with recording_server({"/api/ask": 200}) as (port, recorded):
        asking.set()
        threading.Timer(0.5, asking.clear).start()
        _later(0.8, stop)
        run_paced_askers(port, 600.0, asking, ready, stop, results)  # type: ignore[arg-type]
    latencies = results.get_nowait()
    assert ready.is_set()
    assert 4 <= len(recorded.bodies) <= 7
    assert len(latencies["200"]) == len(recorded.bodies)
    firsts = [(body["question"], body["args"]) for body in recorded.bodies[:3]]
    assert firsts == [(question, list(args)) for question, args in QUESTIONS]
