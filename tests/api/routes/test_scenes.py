"""Scene files on the page: the live table saved as scene.yaml, a scene file read back and
answered on."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from arbitre.api.live.table import LiveTable
from arbitre.api.main import create_app
from arbitre.rules.scene import parse_scene
from tests.api.club_config import club_live
from tests.api.routes.served import TEST_HOSTS, TOKEN


@pytest.fixture(scope="module")
def demo() -> Iterator[tuple[TestClient, LiveTable]]:
    live = club_live(None)
    with TestClient(create_app(live, token=TOKEN, run_loop=False, hosts=TEST_HOSTS)) as client:
        yield client, live


def test_the_live_table_downloads_as_a_scene_file(demo: tuple[TestClient, LiveTable]) -> None:
    client, _ = demo
    reply = client.get("/api/scene.yaml")
    assert reply.status_code == 200
    assert reply.headers["content-disposition"] == 'attachment; filename="scene.yaml"'
    data = yaml.safe_load(reply.text)
    assert len(parse_scene(data, source="scene.yaml").figures) == 7
    assert {t["id"] for t in data["terrain"]} == {"bois", "rocher"}


def test_a_scene_file_is_read_and_answered_on(demo: tuple[TestClient, LiveTable]) -> None:
    client, _ = demo
    data = yaml.safe_load(client.get("/api/scene.yaml").text)
    # What if the Sergent stood 40 mm east of the Capitaine's column? Move him.
    sergent = next(f for f in data["figures"] if f["id"] == "Sergent")
    sergent["x_mm"], sergent["y_mm"] = 300.0, 200.0
    text = yaml.safe_dump(data, allow_unicode=True)
    read = client.post("/api/scene/read?name=what-if.yaml", content=text.encode())
    assert read.status_code == 200, read.text
    view = read.json()["view"]
    assert view["unit"] == "M" and view["unit_mm"] == 100
    assert view["grid"] is None  # the demo plays on open ground
    assert {f["id"]: (f["x_mm"], f["y_mm"]) for f in view["figures"]}["Sergent"] == (300, 200)
    assert view["groups"]["section"] == ["Sergent"]
    # Sergent (300, 200) to Capitaine: the Capitaine's position is the live one.
    capitaine = next(f for f in data["figures"] if f["id"] == "Capitaine")
    expected = ((capitaine["x_mm"] - 300) ** 2 + (capitaine["y_mm"] - 200) ** 2) ** 0.5
    answer = client.post(
        "/api/ask",
        json={
            "question": "distance",
            "args": ["Sergent", "Capitaine"],
            "scene": read.json()["scene"],
        },
    ).json()
    assert answer["distance_mm"] == pytest.approx(expected, abs=0.01)
    assert answer["positions"] == "scene"
    live = client.post("/api/ask", json={"question": "distance", "args": ["Sergent", "Capitaine"]})
    assert live.json()["distance_mm"] != pytest.approx(expected, abs=1)
    assert live.json()["positions"] in ("settled", "moving")


def test_a_grid_scene_says_how_its_cells_lie(demo: tuple[TestClient, LiveTable]) -> None:
    # A square mat of 40 mm turned 30 deg about cell 0,0 at (100, 60): the view gives the
    # page what it needs to draw the cells where the rules count them.
    client, _ = demo
    text = (
        "ruleset: cb6\noptions: {surface: square, square_mm: 40, grid_origin_mm: [100, 60],"
        " grid_rotation_deg: 30}\ntable: {width_mm: 600, depth_mm: 400}\n"
        "figures: [{id: a, side: red, x_mm: 100, y_mm: 60}]\n"
    )
    read = client.post("/api/scene/read?name=mat.yaml", content=text.encode())
    assert read.status_code == 200, read.text
    assert read.json()["view"]["grid"] == {
        "kind": "square",
        "cell_mm": 40.0,
        "origin_mm": [100.0, 60.0],
        "rotation_deg": 30.0,
        "pointy": True,
    }
    assert client.get("/api/state").json()["grid"] is None


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (
            "ruleset: choc-base-6\ntable: {width_mm: 900}\nfigures: []\n",
            "mine.yaml: table.depth_mm: missing",
        ),
        ("ruleset: choc-base-6\nfigures: [\n", "mine.yaml: line 3"),
        ("just words\n", "mine.yaml: expected a mapping"),
        (
            "ruleset: chess\ntable: {width_mm: 900, depth_mm: 600}\nfigures: []\n",
            "unsupported ruleset",
        ),
        (
            "ruleset: cb6\ntable: {width_mm: 900, depth_mm: 600}\n"
            "figures: [{id: a, side: x, x_mm: 950, y_mm: 10}]\n",
            "figures[0].x_mm",
        ),
    ],
)
def test_a_bad_scene_file_is_a_one_line_422(
    demo: tuple[TestClient, LiveTable], text: str, fragment: str
) -> None:
    client, _ = demo
    reply = client.post("/api/scene/read?name=mine.yaml", content=text.encode())
    assert reply.status_code == 422
    detail = reply.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail and fragment in detail, detail


def test_the_scene_file_route_is_documented_as_yaml(demo: tuple[TestClient, LiveTable]) -> None:
    client, _ = demo
    documented = client.get("/openapi.json").json()["paths"]["/api/scene.yaml"]["get"]
    assert list(documented["responses"]["200"]["content"]) == ["application/yaml"]
    reply = client.get("/api/scene.yaml")
    assert reply.headers["content-type"].startswith("application/yaml")
    assert yaml.safe_load(reply.text)["ruleset"] == "choc-base-6"


def test_scene_files_are_read_by_the_question_desk_never_more_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One worker and no place to wait: of three files sent at once, one is read and two
    # are told to retry; none is read on the camera's own threads.
    from arbitre.api.live.desk import QuestionDesk
    from arbitre.api.routes import scenes

    reading = threading.Event()
    camera_threads: list[str] = []

    def slow_read(text: str, source: str) -> tuple[bool, dict[str, Any] | str]:
        camera_threads.append(threading.current_thread().name)
        reading.set()
        time.sleep(1.0)
        return True, {"scene": {}, "view": {}}

    monkeypatch.setattr(scenes, "read_scene_file", slow_read)
    live = club_live(None)
    desk = QuestionDesk(workers=1, waiting=0)
    app = create_app(live, token=TOKEN, run_loop=False, hosts=TEST_HOSTS, desk=desk)
    replies: list[Any] = []
    with TestClient(app) as client:

        def send() -> None:
            replies.append(client.post("/api/scene/read", content=b"ruleset: musg"))

        first = threading.Thread(target=send)
        first.start()
        assert reading.wait(5.0)
        others = [threading.Thread(target=send) for _ in range(2)]
        for thread in others:
            thread.start()
        for thread in [first, *others]:
            thread.join()
    codes = sorted(reply.status_code for reply in replies)
    assert codes == [200, 503, 503]
    busy = [reply for reply in replies if reply.status_code == 503]
    assert all(reply.headers["retry-after"] == "1" for reply in busy)
    assert camera_threads and all(name.startswith("question") for name in camera_threads)


EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


@pytest.mark.parametrize("name", ["musg-skirmish.yaml", "confrontation-melee.yaml"])
def test_a_scene_of_a_rule_system_without_groups_reads_without_a_problem(
    demo: tuple[TestClient, LiveTable], name: str
) -> None:
    client, _ = demo
    text = (EXAMPLES / name).read_bytes()
    got = client.post(f"/api/scene/read?name={name}", content=text)
    assert got.status_code == 200, got.text
    assert got.json()["view"]["problem"] is None
    assert got.json()["view"]["figures"]


def test_a_file_name_keeps_no_line_break_in_a_message(
    demo: tuple[TestClient, LiveTable],
) -> None:
    client, _ = demo
    got = client.post("/api/scene/read?name=what-if.yaml%0Aextra%ff", content=b"ruleset: cb6")
    assert got.status_code == 422
    assert got.json()["detail"] == "what-if.yamlextra: table: missing"
