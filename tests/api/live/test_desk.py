"""The question desk: a few workers, a short queue, 503 with Retry-After beyond it; and
questions answered in a worker process give the same answers as in the server's own."""

from __future__ import annotations

import asyncio
import functools
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from arbitre.api.limits import QUESTION_MEMORY_BYTES
from arbitre.api.live import desk as desk_module
from arbitre.api.live.demo import DemoSource, demo_config
from arbitre.api.live.desk import (
    Busy,
    QuestionDesk,
    TooLong,
    about_question,
    answer_scene,
    groups_of,
)
from arbitre.api.live.table import LiveTable
from arbitre.api.main import create_app
from arbitre.rules.scene import load_scene
from tests.api.crowded import crowded_table

TEST_HOSTS = ("testserver",)


def test_one_more_than_workers_and_queue_is_refused_at_once() -> None:
    # One worker and one place in the queue: two questions are taken, a third is Busy.
    desk = QuestionDesk(workers=1, waiting=1)
    release = threading.Event()

    async def scenario() -> list[Any]:
        first = asyncio.ensure_future(desk.run(release.wait, 10))
        second = asyncio.ensure_future(desk.run(release.wait, 10))
        await asyncio.sleep(0.05)
        assert desk.taken == 2
        with pytest.raises(Busy):
            await desk.run(release.wait, 10)
        release.set()
        return list(await asyncio.gather(first, second))

    assert asyncio.run(scenario()) == [True, True]
    assert desk.taken == 0
    desk.close()


def test_prepared_work_runs_first_and_takes_no_place() -> None:
    # One worker and no queue: the work prepared before any question does not count as
    # one (a question is still taken), and it runs before the question.
    desk = QuestionDesk(workers=1, waiting=0)
    ran: list[str] = []
    desk.prepare(lambda: ran.append("prepared"))
    assert desk.taken == 0

    async def scenario() -> None:
        await desk.run(ran.append, "question")

    asyncio.run(scenario())
    assert ran == ["prepared", "question"] and desk.taken == 0
    desk.close()
    desk.prepare(lambda: ran.append("after close"))  # starts a pool again; no error
    desk.close()


@pytest.fixture(scope="module")
def live() -> LiveTable:
    table = LiveTable(
        demo_config(),
        DemoSource(move_every_s=1e9),
    )
    for _ in range(5):
        assert table.step()
    return table


@pytest.fixture(scope="module")
def in_process(live: LiveTable) -> Iterator[TestClient]:
    app = create_app(live, run_loop=False, hosts=TEST_HOSTS, desk=QuestionDesk(processes=True))
    with TestClient(app) as client:
        yield client


def test_a_worker_process_answers_as_the_server_would(
    live: LiveTable, in_process: TestClient
) -> None:
    for question, args in (("distance", ["alpins", "verts"]), ("reach", ["alpins"])):
        answer, about = live.ask(question, args)
        got = in_process.post("/api/ask", json={"question": question, "args": args})
        assert got.status_code == 200, got.text
        assert got.json() == {**answer.to_json(), **about}


def test_a_worker_process_refuses_as_the_server_would(in_process: TestClient) -> None:
    got = in_process.post("/api/ask", json={"question": "fire", "args": ["alpins", "nobody"]})
    assert got.status_code == 422
    assert "nobody" in got.json()["detail"] and "\n" not in got.json()["detail"]


def test_a_worker_keeps_the_last_scene_it_parsed() -> None:
    document = {
        "ruleset": "musg",
        "table": {"width_mm": 600, "depth_mm": 600},
        "figures": [
            {"id": "a", "side": "x", "x_mm": 100, "y_mm": 100},
            {"id": "b", "side": "y", "x_mm": 100, "y_mm": 200},
        ],
    }
    # Centre to centre 100 mm, bases of 25 mm: 75 mm edge to edge.
    about = {"positions": "scene"}
    ok, first = answer_scene(document, "distance", ["a", "b"], {}, "scene", about)
    assert ok and isinstance(first, bytes)
    body = json.loads(first)
    assert body["distance_mm"] == pytest.approx(75.0) and body["positions"] == "scene"
    ok, again = answer_scene(dict(document), "distance", ["a", "b"], {}, "scene", about)
    assert ok and again == first
    ok, message = answer_scene(document, "distance", ["a", "zz"], {}, "scene", about)
    # the refusal's English, and its code and params for the page's other languages
    assert not ok and message == {
        "detail": "unknown figure 'zz'",
        "code": "unknown_figure",
        "params": {"name": "'zz'", "nearest": []},
    }


def test_a_full_desk_answers_503_with_retry_after(live: LiveTable) -> None:
    desk = QuestionDesk(workers=1, waiting=0)
    release = threading.Event()
    app = create_app(live, run_loop=False, hosts=TEST_HOSTS, desk=desk)
    with TestClient(app) as client:
        blocker = threading.Thread(target=lambda: asyncio.run(desk.run(release.wait, 10)))
        blocker.start()
        try:
            while desk.taken == 0:
                release.wait(0.01)
            got = client.post(
                "/api/ask", json={"question": "distance", "args": ["alpins", "verts"]}
            )
            assert got.status_code == 503
            assert got.headers["Retry-After"] == "1"
            assert "retry" in got.json()["detail"]
        finally:
            release.set()
            blocker.join()
        assert client.post("/api/ask", json={"question": "groups"}).status_code == 200


def test_a_question_past_the_time_limit_is_given_up_and_its_worker_replaced(
    live: LiveTable,
) -> None:
    desk = QuestionDesk(processes=True, time_limit_s=2.0)
    app = create_app(live, run_loop=False, hosts=TEST_HOSTS, desk=desk)
    with TestClient(app) as client:
        # A first question starts the worker, so that the limit counts the answer alone.
        first = client.post("/api/ask", json={"question": "groups"})
        assert first.status_code == 200, first.text
        _assert_room_is_a_question(desk)
        # Minutes of work if it ran to its end; only the time limit says this.
        got = client.post(
            "/api/ask", json={"question": "reach", "args": ["f0"], "scene": crowded_table()}
        )
        assert got.status_code == 422, got.text
        assert got.json()["detail"].startswith("reach: stopped after 2 s")
        # The stopped worker's place is free once its pool has seen it end.
        deadline = time.monotonic() + 10
        while desk.taken and time.monotonic() < deadline:
            time.sleep(0.05)
        assert desk.taken == 0
        # A new worker answers the next question.
        after = client.post("/api/ask", json={"question": "distance", "args": ["alpins", "verts"]})
        assert after.status_code == 200, after.text
        _assert_room_is_a_question(desk)


def _assert_room_is_a_question(desk: QuestionDesk) -> None:
    """The memory ``desk``'s worker may still take (its cap less what it holds) is one
    question's, counted once it has loaded the path search's loops (about 120 MB): were it
    counted from before, as the cap that bounds the load itself is, the room would be
    400 + 300 - 120 = 580 MB."""
    if not sys.platform.startswith("linux"):
        return
    import resource

    async def worker_cap() -> tuple[int, int]:
        pid = await desk.run(os.getpid)
        soft, _ = await desk.run(resource.getrlimit, resource.RLIMIT_DATA)
        return pid, soft

    pid, soft = asyncio.run(worker_cap())
    status = Path(f"/proc/{pid}/status").read_text(encoding="ascii")
    found = re.search(r"VmData:\s+(\d+) kB", status)
    assert found is not None
    room = soft - int(found.group(1)) * 1024
    assert QUESTION_MEMORY_BYTES - 50_000_000 < room <= QUESTION_MEMORY_BYTES


def test_a_thread_given_up_keeps_its_place_until_it_ends() -> None:
    desk = QuestionDesk(workers=1, waiting=0, time_limit_s=0.2)
    release = threading.Event()

    async def scenario() -> None:
        with pytest.raises(TooLong):
            await desk.run(release.wait, 10)
        # The thread still waits: its place is still taken, so the desk is full.
        assert desk.taken == 1
        with pytest.raises(Busy):
            await desk.run(release.wait, 10)
        release.set()
        for _ in range(100):
            if desk.taken == 0:
                break
            await asyncio.sleep(0.01)
        assert desk.taken == 0
        assert await desk.run(release.wait, 10) is True

    asyncio.run(scenario())
    desk.close()


def test_a_worker_rests_as_long_as_its_last_question_took(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A stepped clock: a question of 0.4 s ends at 10.4; the next, asked at 10.5, waits
    # until 10.8 (0.4 s of rest, REST_SHARE 1); after a 5 s question the rest is
    # MAX_REST_S (1 s), not 5; one asked at 30 (rested already) does not wait, nor one
    # that has waited 1 s in the queue already (its time limit counts the queue).
    now = [10.0]
    slept: list[float] = []
    monkeypatch.setattr(desk_module, "_clock", lambda: now[0])
    monkeypatch.setattr(
        desk_module, "_sleep", lambda s: (slept.append(s), now.__setitem__(0, now[0] + s))
    )
    monkeypatch.setattr(desk_module, "_LAST_QUESTION", [0.0, 0.0])

    def question(seconds: float) -> str:
        now[0] += seconds
        return f"took {seconds}"

    assert desk_module._in_turn(now[0], question, 0.4) == "took 0.4" and slept == []
    now[0] = 10.5
    desk_module._in_turn(now[0], question, 5.0)
    assert slept == [pytest.approx(0.3)]
    now[0] += 0.2  # the 5 s question ended at 15.8; asked at 16.0
    desk_module._in_turn(now[0], question, 0.1)
    assert slept[1:] == [pytest.approx(1.0)]
    now[0] = 30.0
    desk_module._in_turn(now[0], question, 0.1)
    assert len(slept) == 2
    # The last ended at 30.1 after 0.1 s: rest until 30.2. One asked at 29.4 and taken at
    # 30.15 has waited 0.75 s (0.25 s of rest allowed): it rests the 0.05 s left.
    now[0] = 30.15
    desk_module._in_turn(29.4, question, 0.5)
    assert slept[2:] == [pytest.approx(0.05)]
    # ended at 30.7 after 0.5 s; asked at 29.0, taken at 30.8: waited 1.8 s, no rest
    now[0] = 30.8
    desk_module._in_turn(29.0, question, 0.1)
    assert len(slept) == 3


def test_worker_processes_run_at_a_lower_priority() -> None:
    desk = QuestionDesk(processes=True)

    async def niceness() -> int:
        return await desk.run(os.nice, 0)

    try:
        assert asyncio.run(niceness()) == os.nice(0) + desk_module.WORKER_NICENESS
    finally:
        desk.close()


def test_closing_stops_the_worker_processes_at_once() -> None:
    # A worker busy for 30 s (as one compiling the path search's loops as the server
    # starts) is stopped when the desk closes, not left running after the server.
    desk = QuestionDesk(processes=True)
    desk.prepare(functools.partial(time.sleep, 30.0))
    deadline = time.monotonic() + 20
    while not (workers := list(getattr(desk._executor, "_processes", {}).values())):
        assert time.monotonic() < deadline, "no worker process started"
        time.sleep(0.05)
    desk.close()
    for worker in workers:
        worker.join(timeout=10)
        assert not worker.is_alive()


def test_worker_processes_end_when_the_server_is_killed_outright(tmp_path: Path) -> None:
    # A server killed with SIGKILL cannot stop its workers: each ends by itself within
    # a few seconds of seeing the server gone (they would wait for questions for ever).
    script = tmp_path / "server.py"
    script.write_text(
        "import os, time\n"
        "from arbitre.api.live.desk import QuestionDesk\n"
        "if __name__ == '__main__':\n"
        "    desk = QuestionDesk(processes=True)\n"
        "    desk.prepare(os.getpid)\n"
        "    while not getattr(desk._executor, '_processes', None):\n"
        "        time.sleep(0.05)\n"
        "    print(*desk._executor._processes, flush=True)\n"
        "    time.sleep(60)\n"
    )
    server = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        workers = [int(pid) for pid in server.stdout.readline().split()]
        assert workers
    finally:
        server.kill()
        server.wait(timeout=10)
    deadline = time.monotonic() + 15
    while any(_running(pid) for pid in workers):
        assert time.monotonic() < deadline, f"workers {workers} outlived the server"
        time.sleep(0.2)


def _running(pid: int) -> bool:
    """Whether a process is alive (a zombie, ended but not yet reaped, is not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_the_questions_waiting_behind_one_given_up_are_told_to_retry() -> None:
    # One worker: the first question outlives the limit and its pool is stopped; the four
    # waiting behind it were never started. They are Busy (503, retry), not an error.
    desk = QuestionDesk(workers=1, waiting=8, processes=True, time_limit_s=1.5)

    async def later(delay_s: float) -> float:
        await asyncio.sleep(delay_s)  # asked 0.5 s after the first: still waiting at 1.5 s
        return await desk.run(_sleep, 0.1)

    async def scenario() -> list[object]:
        await desk.run(_sleep, 0.0)  # the worker started: the limit counts the work alone
        runs = [desk.run(_sleep, 5.0)] + [later(0.5) for _ in range(4)]
        return list(await asyncio.gather(*runs, return_exceptions=True))

    try:
        outcomes = asyncio.run(scenario())
    finally:
        desk.close()
    assert isinstance(outcomes[0], TooLong)
    assert all(isinstance(outcome, Busy) for outcome in outcomes[1:]), outcomes


def test_a_question_asked_while_the_workers_load_waits_for_them_outside_its_limit() -> None:
    # The workers load for 0.6 s (the path search compiled afresh takes ~10 s on a first
    # start); a question of no time asked meanwhile, with a 0.3 s limit, is answered:
    # its limit counts its own work, not the load it waited for.
    desk = QuestionDesk(workers=1, waiting=1, time_limit_s=0.3)
    desk.prepare(lambda: time.sleep(0.6))

    async def scenario() -> float:
        start = time.monotonic()
        assert await desk.run(lambda: 42) == 42
        return time.monotonic() - start

    waited = asyncio.run(scenario())
    desk.close()
    assert waited >= 0.5  # it did wait for the load


# The "still moving" note of an answer names only the figures the question is about: on
# a live table someone is nearly always moving a figure somewhere.

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
SKIRMISH = EXAMPLES / "cb6-skirmish.yaml"

# the groups alpins (chef, alp2, alp3, tireur) and verts (sergent, v2, v3, v4); the
# cavalier alone; the legionnaires legio, l2, l3, a group found by chaining from legio
# (l2 and l3 declare no group: only the groups question says they are legio's)
ABOUT = {"positions": "moving", "moving": ["alp2", "cavalier", "l2"], "stale": ["v3", "l3"]}


def test_a_question_about_two_groups_names_only_their_moving_figures() -> None:
    scene = load_scene(SKIRMISH)
    narrowed = about_question(ABOUT, scene, ["alpins", "verts"], groups_of(scene))
    assert narrowed == {"positions": "moving", "moving": ["alp2"], "stale": ["v3"]}


def test_a_group_found_by_chaining_counts_its_members() -> None:
    scene = load_scene(SKIRMISH)
    narrowed = about_question(ABOUT, scene, ["legio", "cavalier"], groups_of(scene))
    assert narrowed == {"positions": "moving", "moving": ["cavalier", "l2"], "stale": ["l3"]}


def test_a_question_about_still_figures_rests_on_settled_positions() -> None:
    scene = load_scene(SKIRMISH)
    narrowed = about_question(ABOUT, scene, ["chef", "sergent"], groups_of(scene))
    assert narrowed == {"positions": "settled", "moving": [], "stale": []}


def test_a_question_naming_no_figure_is_about_them_all() -> None:
    scene = load_scene(SKIRMISH)
    assert about_question(ABOUT, scene, [], groups_of(scene)) == ABOUT


def test_the_worker_narrows_what_it_is_given() -> None:
    # the path of `arbitre serve`: the worker reads the scene and answers, then narrows
    document = yaml.safe_load(SKIRMISH.read_text(encoding="utf-8"))
    ok, body = answer_scene(document, "distance", ["chef", "v2"], {}, "live table", ABOUT)
    assert ok
    assert b'"positions":"settled","moving":[],"stale":[]' in body.replace(b" ", b"")
