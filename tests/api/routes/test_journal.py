"""The journal over HTTP: questions asked of the live table are journaled, and read back
with ``GET /api/journal``, its entries, pictures and settled states; a knocked figure
pinned where a settled state had it."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from arbitre.api.hosts import LOOPBACK
from arbitre.api.live.demo import DemoSource, demo_config
from arbitre.api.live.desk import QuestionDesk
from arbitre.api.live.journal import Journal
from arbitre.api.live.table import LiveTable
from arbitre.api.main import create_app
from tests.api.clock import Clock
from tests.api.settled_demo import CAVALIER, figure_of, settled_demo
from tests.api.still_demo import still_demo


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[tuple[TestClient, LiveTable, Journal]]:
    """The demo table, its figures settled (1 s of frames), served with a journal whose
    pictures are 640 px wide."""
    clock = Clock()
    live = LiveTable(demo_config(), DemoSource(move_every_s=1e9), clock=clock)
    for _ in range(30):
        clock.now += 1 / 30
        assert live.step()
    journal = Journal(tmp_path / "journal.sqlite", frame_width_px=640)
    app = create_app(live, run_loop=False, hosts=[*LOOPBACK, "testserver"], journal=journal)
    with TestClient(app) as client:
        yield client, live, journal


def _ask(client: TestClient, question: str, *args: str, **body: Any) -> Any:
    return client.post("/api/ask", json={"question": question, "args": list(args), **body})


def test_a_question_on_the_live_table_is_journaled_whole(
    served: tuple[TestClient, LiveTable, Journal],
) -> None:
    client, live, journal = served
    asked = _ask(client, "fire", "alpins", "verts")
    assert asked.status_code == 200
    assert journal.flush()
    listed = client.get("/api/journal").json()
    (entry,) = listed["questions"]
    assert (entry["id"], entry["question"], entry["args"], entry["status"]) == (
        1, "fire", ["alpins", "verts"], 200,
    )  # fmt: skip
    assert entry["message"] == asked.json()["message"] and entry["frame"]
    # alpins: its group's figure; verts: the green side's three figures
    assert entry["figures"] == ["Capitaine", "Chef alpin", "Grenadier", "Éclaireur"]
    assert listed["journal"]["questions"] == 1 and listed["journal"]["frames"] == 1
    assert listed["journal"]["file"] == "journal.sqlite" and listed["next_before"] is None
    whole = client.get("/api/journal/1").json()
    assert whole["answer"] == asked.json()  # the answer as the client got it
    assert whole["scene"] == live.scene_document()  # the table it was asked on (still)
    picture = client.get("/api/journal/1/frame.jpg")
    assert picture.status_code == 200 and picture.headers["content-type"] == "image/jpeg"
    image = cv2.imdecode(np.frombuffer(picture.content, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (360, 640, 3)  # the demo's 1280 x 720 camera, 640 px wide


def test_a_refusal_is_journaled_a_question_on_a_given_scene_is_not(
    served: tuple[TestClient, LiveTable, Journal],
) -> None:
    client, live, journal = served
    refused = _ask(client, "distance", "nobody", "verts")
    assert refused.status_code == 422
    on_a_file = _ask(client, "distance", "alpins", "verts", scene=live.scene_document())
    assert on_a_file.status_code == 200 and on_a_file.json()["positions"] == "scene"
    journal.flush()
    (entry,) = client.get("/api/journal").json()["questions"]
    assert entry["status"] == 422 and entry["message"] == refused.json()["detail"]
    assert client.get("/api/journal/1").json()["answer"] == refused.json()


def test_the_list_pages_newest_first_and_filters_by_figure(
    served: tuple[TestClient, LiveTable, Journal],
) -> None:
    client, _, journal = served
    for args in (["alpins", "verts"], ["Cavalier"], ["alpins", "tireurs"], ["Cavalier"], []):
        assert _ask(client, "distance" if len(args) == 2 else "reach", *args).status_code in (
            200, 422,
        )  # fmt: skip
    journal.flush()
    first = client.get("/api/journal?limit=2").json()
    assert [q["id"] for q in first["questions"]] == [5, 4] and first["next_before"] == 4
    second = client.get("/api/journal?limit=2&before=4").json()
    assert [q["id"] for q in second["questions"]] == [3, 2] and second["next_before"] == 2
    last = client.get("/api/journal?limit=2&before=2").json()
    assert [q["id"] for q in last["questions"]] == [1] and last["next_before"] is None
    # the cavalier: named twice, and the reach naming nobody is about every figure
    cavalier = client.get("/api/journal", params={"figure": "Cavalier"}).json()
    assert [q["id"] for q in cavalier["questions"]] == [5, 4, 2]


def test_settled_states_replay_the_table(served: tuple[TestClient, LiveTable, Journal]) -> None:
    client, live, _ = served
    deadline = time.monotonic() + 10
    states: list[dict[str, Any]] = []
    while not states and time.monotonic() < deadline:  # the rest watch looks 4 times a second
        time.sleep(0.1)
        states = client.get("/api/journal/states").json()["states"]
    (first,) = states
    assert first["id"] == 1 and len(first["figures"]) == 7
    state = client.get("/api/journal/states/1").json()
    assert state["scene"] == live.scene_document()


@pytest.mark.parametrize(
    ("path", "status", "says"),
    [
        ("/api/journal/99", 404, "no question 99 in the journal"),
        ("/api/journal/99/frame.jpg", 404, "no question 99 in the journal"),
        ("/api/journal/states/99", 404, "no settled state 99 in the journal"),
        ("/api/journal/0", 404, "no question 0 in the journal"),
        ("/api/journal/99999999999999999999999", 404, "in the journal"),
        ("/api/journal/abc", 422, "question_id"),
        ("/api/journal?limit=0", 422, "limit"),
        ("/api/journal?limit=201", 422, "limit"),
        ("/api/journal?before=x", 422, "before"),
        ("/api/journal/states?limit=0", 422, "limit"),
    ],
)
def test_unknown_entries_are_404_and_bad_parameters_422_in_one_line(
    served: tuple[TestClient, LiveTable, Journal], path: str, status: int, says: str
) -> None:
    client, _, _ = served
    answer = client.get(path)
    assert answer.status_code == status, answer.text
    detail = answer.json()["detail"]
    assert says in detail and "\n" not in detail


def test_a_question_kept_without_its_picture_says_so(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite", frame_width_px=0)  # no pictures
    with still_demo(journal=journal) as (client, _):
        assert _ask(client, "distance", "alpins", "verts").status_code == 200
        journal.flush()
        assert client.get("/api/journal").json()["questions"][0]["frame"] is False
        answer = client.get("/api/journal/1/frame.jpg")
        assert answer.status_code == 404
        assert answer.json()["detail"] == "no picture kept for question 1"


def test_a_server_without_a_journal_says_so() -> None:
    with still_demo() as (client, _):
        for path in ("/api/journal", "/api/journal/1", "/api/journal/states"):
            answer = client.get(path)
            assert answer.status_code == 404
            assert answer.json()["detail"].startswith("no journal: this server keeps none")


def test_a_question_given_up_at_the_time_limit_is_journaled_as_refused(
    tmp_path: Path,
) -> None:
    # A desk whose time limit (1 ms) no question meets: the answer is the 422 of a
    # question given up, and the journal keeps it so, with the table it was asked on.
    clock = Clock()
    live = LiveTable(demo_config(), DemoSource(move_every_s=1e9), clock=clock)
    for _ in range(30):
        clock.now += 1 / 30
        assert live.step()
    journal = Journal(tmp_path / "journal.sqlite", frame_width_px=0)
    desk = QuestionDesk(workers=1, time_limit_s=0.001)
    app = create_app(
        live, run_loop=False, hosts=[*LOOPBACK, "testserver"], journal=journal, desk=desk
    )
    with TestClient(app) as client:
        refused = _ask(client, "reach", "alpins")
        assert refused.status_code == 422 and refused.json()["detail"].startswith("reach: ")
        assert journal.flush()
        (entry,) = client.get("/api/journal").json()["questions"]
        assert (entry["question"], entry["status"]) == ("reach", 422)
        assert entry["message"] == refused.json()["detail"]
        assert client.get("/api/journal/1").json()["scene"] == live.scene_document()
    desk.close()


# A knocked-over figure put back where it stood, from the journal: the live table uses
# the pinned place until the camera sees the figure there again, or it is released.

TOKEN = "secret"


@pytest.fixture()
def pinning(tmp_path: Path) -> Iterator[tuple[TestClient, LiveTable, DemoSource, Clock]]:
    live, source, clock = settled_demo()
    journal = Journal(tmp_path / "journal.sqlite", frame_width_px=0)
    app = create_app(
        live, token=TOKEN, run_loop=False, hosts=[*LOOPBACK, "testserver"], journal=journal
    )
    with TestClient(app) as client:
        deadline = time.monotonic() + 10
        while not client.get("/api/journal/states").json()["states"]:
            assert time.monotonic() < deadline, "no settled state journaled"
            time.sleep(0.1)
        yield client, live, source, clock


def _pin(client: TestClient, token: str | None = TOKEN, **body: Any) -> Any:
    headers = {"X-Arbitre-Token": token} if token else {}
    return client.post("/api/journal/pins", json=body, headers=headers)


def test_a_knocked_figure_is_put_back_where_a_settled_state_had_it(
    pinning: tuple[TestClient, LiveTable, DemoSource, Clock],
) -> None:
    client, live, source, clock = pinning
    stood = figure_of(client.get("/api/journal/states/1").json()["scene"], "Cavalier")
    # the cavalier is knocked: the demo moves him 40 to 90 mm and he settles there
    before = source.positions_mm()[CAVALIER]
    while source.positions_mm()[CAVALIER] == before:
        source.move_every_s = 0.0
        clock.now += 1 / 30
        live.step()
    source.move_every_s = 1e9
    for _ in range(30):
        clock.now += 1 / 30
        live.step()
    knocked = figure_of(live.state(), "Cavalier")
    assert math.hypot(knocked["x_mm"] - stood["x_mm"], knocked["y_mm"] - stood["y_mm"]) > 30
    assert _pin(client, None, figure="Cavalier", state=1).status_code == 403
    pinned = _pin(client, figure="Cavalier", state=1)
    assert pinned.status_code == 200, pinned.text
    assert pinned.json()["pinned"] == "Cavalier" and pinned.json()["from"] == "settled state 1"
    state = client.get("/api/state").json()
    cavalier = figure_of(state, "Cavalier")
    assert (cavalier["x_mm"], cavalier["y_mm"], cavalier["pinned"]) == (
        stood["x_mm"], stood["y_mm"], True,
    )  # fmt: skip
    answer = client.post("/api/ask", json={"question": "distance", "args": ["cavalier", "verts"]})
    assert answer.json()["pinned"] == ["Cavalier"]
    assert client.get("/api/journal/pins").json()["pins"][0]["figure"] == "Cavalier"
    # released by the player: the camera's place again
    released = client.delete("/api/journal/pins/Cavalier", headers={"X-Arbitre-Token": TOKEN})
    assert released.status_code == 200 and released.json()["pins"] == []
    assert figure_of(client.get("/api/state").json(), "Cavalier")["x_mm"] == knocked["x_mm"]
    again = client.delete("/api/journal/pins/Cavalier", headers={"X-Arbitre-Token": TOKEN})
    assert again.status_code == 404 and again.json()["detail"] == "figure 'Cavalier' is not pinned"


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"figure": "Cavalier", "state": 99}, 404, "nothing journaled for settled state 99"),
        ({"figure": "Cavalier", "question": 5}, 404, "nothing journaled for question 5"),
        ({"figure": "Nobody", "state": 1}, 422, "figure 'Nobody' is not on the table of"),
        ({"figure": "Cavalier"}, 422, "give one of state, question or at"),
        ({"figure": "Cavalier", "state": 1, "question": 1}, 422, "give one of"),
        ({"figure": "Cavalier", "at": 0.0}, 404, "nothing journaled for the journal at"),
        ({"figure": "Cavalier", "state": 0}, 422, "state"),
    ],
)
def test_a_pin_the_journal_cannot_give_is_refused_in_one_line(
    pinning: tuple[TestClient, LiveTable, DemoSource, Clock],
    body: dict[str, Any],
    status: int,
    says: str,
) -> None:
    client, live, _, _ = pinning
    answer = _pin(client, **body)
    assert answer.status_code == status, answer.text
    assert says in answer.json()["detail"]
    assert live.pins() == ()
