"""The HTTP API on the demo table, driven frame by frame (FastAPI's TestClient)."""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient
from numpy.typing import NDArray

from arbitre.api.hosts import LOOPBACK
from arbitre.api.i18n import catalogue
from arbitre.api.live.demo import DemoSource, demo_config, demo_setup
from arbitre.api.live.table import LiveTable, TableConfig
from arbitre.api.main import create_app
from arbitre.rules.scene import parse_scene
from arbitre.vision.sources import FrameSource

TOKEN = "secret-token"
# TestClient sends "Host: testserver": the name this server is started to answer to.
TEST_HOSTS = [*LOOPBACK, "testserver"]


class Unplugged(FrameSource):
    """A camera that gives frames, then none (unplugged), then frames again."""

    description = "test camera"

    def __init__(self, inner: FrameSource) -> None:
        self.inner = inner
        self.plugged = True

    def read(self) -> NDArray[np.uint8] | None:
        return self.inner.read() if self.plugged else None


@pytest.fixture(scope="module")
def demo() -> Iterator[tuple[TestClient, LiveTable, DemoSource]]:
    source = DemoSource(move_every_s=1e9)  # nobody walks during the tests
    live = LiveTable(
        demo_config(),
        Unplugged(source),
    )
    for _ in range(3):
        assert live.step()
    with TestClient(create_app(live, token=TOKEN, run_loop=False, hosts=TEST_HOSTS)) as client:
        yield client, live, source


def _figures(client: TestClient) -> dict[str, dict[str, Any]]:
    return {f["id"]: f for f in client.get("/api/state").json()["figures"]}


def test_health(demo: tuple[TestClient, LiveTable, DemoSource]) -> None:
    client, _, _ = demo
    body = client.get("/api/health").json()
    assert body["status"] == "ok"
    assert body["source"]["ok"] is True
    assert body["figures"] == 7


def test_state_places_every_figure_where_it_stands(
    demo: tuple[TestClient, LiveTable, DemoSource],
) -> None:
    client, _, source = demo
    state = client.get("/api/state").json()
    truth = source.positions_mm()
    assert state["unit"] == "M" and state["unit_mm"] == 100
    assert state["table"] == {"width_mm": 900.0, "depth_mm": 600.0}
    assert state["anchors_seen"] == [0, 1, 2, 3]
    for figure in state["figures"]:
        x, y = truth[figure["marker"]]
        assert math.hypot(figure["x_mm"] - x, figure["y_mm"] - y) < 0.5, figure
        assert figure["stale"] is False
        assert figure["image_px"] is not None
    assert set(state["groups"]) == {f["group"] for f in state["figures"]}


def test_ask_distance_matches_the_state(demo: tuple[TestClient, LiveTable, DemoSource]) -> None:
    client, _, _ = demo
    figures = _figures(client)
    a, b = figures["Chef alpin"], figures["Capitaine"]
    answer = client.post(
        "/api/ask", json={"question": "distance", "args": ["Chef alpin", "Capitaine"]}
    )
    assert answer.status_code == 200
    body = answer.json()
    expected = math.hypot(a["x_mm"] - b["x_mm"], a["y_mm"] - b["y_mm"])
    assert body["distance_mm"] == pytest.approx(expected, abs=0.02)
    assert body["distance_units"] == pytest.approx(expected / 100, abs=1e-3)
    assert body["positions"] in ("settled", "moving")


def test_ask_fire_gives_the_contract_fields(demo: tuple[TestClient, LiveTable, DemoSource]) -> None:
    client, _, _ = demo
    body = client.post(
        "/api/ask", json={"question": "fire", "args": ["Sergent", "Capitaine"]}
    ).json()
    # Sergent (330, 300) to Capitaine (640, 330): hypot(310, 30) = 311.4 mm = 3.11 M > 3 M,
    # and no sniper in the Sergent's group: out of range.
    assert body["allowed"] is False
    assert "out_of_range" in body["reasons"]
    assert {
        "distance_mm",
        "distance_units",
        "unit",
        "band",
        "blocked_by",
        "cover",
        "warnings",
        "margin_mm",
        "certain",
    } <= set(body)


@pytest.mark.parametrize(
    ("payload", "fragment"),
    [
        ({"question": "fire", "args": ["Nobody", "Capitaine"]}, "unknown figure or group"),
        ({"question": "teleport", "args": []}, "unknown question"),
        ({"question": "fire", "args": ["Sergent"]}, "takes 2 argument"),
        (
            {"question": "impact", "args": ["Sergent", "Capitaine"], "extras": {"die": 9}},
            "a die shows 1 to 6",
        ),
        (
            {"question": "impact", "args": ["Sergent", "Capitaine"], "extras": {"colour": 1}},
            "impact does not take colour",
        ),
        ({"question": 3}, "string"),
        ({"args": []}, "question"),
    ],
)
def test_bad_questions_are_4xx_with_detail(
    demo: tuple[TestClient, LiveTable, DemoSource], payload: dict[str, Any], fragment: str
) -> None:
    client, _, _ = demo
    reply = client.post("/api/ask", json=payload)
    assert reply.status_code == 422
    assert fragment in str(reply.json()["detail"])


def test_malformed_body_is_4xx(demo: tuple[TestClient, LiveTable, DemoSource]) -> None:
    client, _, _ = demo
    reply = client.post(
        "/api/ask", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert 400 <= reply.status_code < 500


def test_snapshot_is_the_camera_frame(demo: tuple[TestClient, LiveTable, DemoSource]) -> None:
    client, _, _ = demo
    reply = client.get("/api/snapshot.jpg")
    assert reply.headers["content-type"] == "image/jpeg"
    image = cv2.imdecode(np.frombuffer(reply.content, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (720, 1280, 3)


def test_scene_is_a_scene_file_arbitre_ask_reads(
    demo: tuple[TestClient, LiveTable, DemoSource],
) -> None:
    client, _, _ = demo
    document = client.get("/api/scene").json()
    scene = parse_scene(document, source="snapshot")
    assert len(scene.figures) == 7
    assert all(f.sigma_mm > 0 for f in scene.figures)
    assert {t.id for t in scene.terrain} == {"bois", "rocher"}


def test_options_need_the_token(demo: tuple[TestClient, LiveTable, DemoSource]) -> None:
    client, live, _ = demo
    assert client.put("/api/options", json={"options": {"unit_mm": 150}}).status_code == 403
    wrong = client.put(
        "/api/options", json={"options": {"unit_mm": 150}}, headers={"X-Arbitre-Token": "guess"}
    )
    assert wrong.status_code == 403
    bad = client.put(
        "/api/options", json={"options": {"unit_mm": -1}}, headers={"X-Arbitre-Token": TOKEN}
    )
    assert bad.status_code == 422
    good = client.put(
        "/api/options", json={"options": {"unit_mm": 150}}, headers={"X-Arbitre-Token": TOKEN}
    )
    assert good.status_code == 200
    try:
        assert client.get("/api/state").json()["unit_mm"] == 150
    finally:
        live.set_options({"unit_mm": 100})


def test_websocket_pushes_the_state(demo: tuple[TestClient, LiveTable, DemoSource]) -> None:
    client, _, _ = demo
    with client.websocket_connect("/api/ws") as socket:
        state = socket.receive_json()
    assert len(state["figures"]) == 7


def test_openapi_docs(demo: tuple[TestClient, LiveTable, DemoSource]) -> None:
    client, _, _ = demo
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/health", "/api/state", "/api/ask", "/api/scene", "/api/snapshot.jpg"} <= set(
        paths
    )


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_api_docs_load_only_from_this_server(
    demo: tuple[TestClient, LiveTable, DemoSource], path: str
) -> None:
    client, _, _ = demo
    html = client.get(path).text
    names = re.findall(r"""(?:src|href|spec-url)=["']([^"']+)["']""", html)
    names += re.findall(r"""url: *["']([^"']+)["']""", html)
    assert len(names) >= 3, html  # the script, the style or favicon, the OpenAPI document
    for name in names:
        assert name.startswith("/") and not name.startswith("//"), name
        assert client.get(name).status_code == 200, name


class _PageParts(HTMLParser):
    """The parts of an HTML page the tests look at: its title, the scripts it loads and
    the ``data-testid`` of each element (repeats kept)."""

    def __init__(self) -> None:
        super().__init__()
        self.title = ""
        self.scripts: list[str] = []
        self.test_ids: list[str] = []
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("data-testid"):
            self.test_ids.append(str(found["data-testid"]))
        if tag == "script" and found.get("src"):
            self.scripts.append(str(found["src"]))
        self._in_title = tag == "title"

    def handle_endtag(self, tag: str) -> None:
        self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data


def test_the_page_is_served(demo: tuple[TestClient, LiveTable, DemoSource]) -> None:
    client, _, _ = demo
    reply = client.get("/")
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("text/html")
    page = _PageParts()
    page.feed(reply.text)
    # The title is the catalogue's name of the app, in English (the page's first language).
    assert page.title == catalogue()["en"]["app.title"] == "arbitre"
    # It loads one script, the app, from this server; the app imports the rest.
    assert page.scripts == ["static/app.js"]
    scripts = {"app.js": client.get("/static/app.js")}
    for name in re.findall(r'from "\./([\w-]+\.js)"', scripts["app.js"].text):
        scripts[name] = client.get(f"/static/{name}")
    assert {"dom.js", "draw.js", "editor.js", "i18n.js", "server.js"} <= set(scripts)
    for name, script in scripts.items():
        assert script.status_code == 200, name
        assert "javascript" in script.headers["content-type"], name
    # Each element the scripts look up by its data-testid is on the page, once; app.js
    # also looks up `mode-${mode}` for each of its three modes.
    wanted = {"mode-distance", "mode-fire", "mode-move"}
    for script in scripts.values():
        wanted |= set(re.findall(r'byTestId\("([\w-]+)"\)', script.text))
    assert len(wanted) > 50  # 43 in app.js and 16 in editor.js: the pattern finds them
    missing = sorted(wanted - set(page.test_ids))
    assert not missing, missing
    repeated = sorted({i for i in page.test_ids if page.test_ids.count(i) > 1} & wanted)
    assert not repeated, repeated


def test_an_unplugged_camera_keeps_the_table_stale_and_comes_back(
    demo: tuple[TestClient, LiveTable, DemoSource],
) -> None:
    client, live, _ = demo
    source = live.source
    assert isinstance(source, Unplugged)
    source.plugged = False
    try:
        assert live.step() is False
        state = client.get("/api/state").json()
        assert state["source"]["ok"] is False
        assert len(state["figures"]) == 7  # kept, never deleted
        assert all(f["stale"] for f in state["figures"])
        assert client.get("/api/health").status_code == 200
    finally:
        source.plugged = True
    assert live.step() is True
    state = client.get("/api/state").json()
    assert state["source"]["ok"] is True
    assert not any(f["stale"] for f in state["figures"])


def test_mjpeg_stream_sends_jpeg_parts(demo: tuple[TestClient, LiveTable, DemoSource]) -> None:
    client, _, _ = demo
    with client.stream("GET", "/api/stream.mjpg") as reply:
        assert reply.headers["content-type"] == "multipart/x-mixed-replace; boundary=frame"
        head = b""
        for chunk in reply.iter_bytes():
            head += chunk
            if len(head) > 2000:
                break
    assert head.startswith(b"--frame\r\nContent-Type: image/jpeg\r\n")
    assert b"\r\n\r\n\xff\xd8" in head  # the JPEG's start-of-image marker after the headers


class Flaky(FrameSource):
    """A stream that drops after a few frames and comes back after two retries."""

    description = "flaky stream"

    def __init__(self, inner: FrameSource) -> None:
        self.inner = inner
        self.reads = 0
        self.reopens = 0

    def read(self) -> NDArray[np.uint8] | None:
        self.reads += 1
        lost = 3 <= self.reads and self.reopens < 2
        return None if lost else self.inner.read()

    def reopen(self) -> bool:
        self.reopens += 1
        return self.reopens >= 2


def test_the_loop_retries_a_lost_source_and_carries_on() -> None:
    source = Flaky(DemoSource(move_every_s=1e9))
    live = LiveTable(
        demo_config(),
        source,
        max_fps=None,
        retry_s=0.05,
    )
    live.start()
    try:
        deadline = time.monotonic() + 20
        while live.frames_processed < 6 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        live.stop()
    assert source.reopens == 2  # lost twice, back at the second retry
    assert live.frames_processed >= 6
    state = live.state()
    assert state["source"]["ok"] is True
    assert len(state["figures"]) == 7


class Garbled(FrameSource):
    """A capture card giving frames of the wrong kind (float images)."""

    description = "garbled card"

    def read(self) -> NDArray[np.uint8] | None:
        return np.zeros((720, 1280, 3), dtype=np.float32)  # type: ignore[return-value]


def test_a_frame_the_pipeline_cannot_read_goes_stale_not_down() -> None:
    setup = demo_setup()
    live = LiveTable(TableConfig(setup.camera, setup.table, setup.roster), Garbled())
    assert live.step() is False
    state = live.state()
    assert state["source"]["ok"] is False
    assert state["source"]["message"].startswith("garbled card: ")


def test_a_roster_the_ruleset_refuses_is_reported_not_a_500() -> None:
    # The demo's roster read under S&R: its figures are TD/CR, which S&R does not know.
    setup = demo_setup()
    live = LiveTable(
        TableConfig(setup.camera, setup.table, setup.roster, ruleset="smooth-and-rifled"),
        DemoSource(move_every_s=1e9),
    )
    assert live.step()
    with TestClient(create_app(live, run_loop=False, hosts=TEST_HOSTS)) as client:
        state = client.get("/api/state")
        assert state.status_code == 200
        assert "type" in state.json()["problem"]
        assert len(state.json()["figures"]) == 7
        reply = client.post("/api/ask", json={"question": "groups"})
        assert reply.status_code == 422
        assert "type" in reply.json()["detail"]
