"""The live table's state over HTTP: health, state, scene, the WebSocket, and options
changed with the token, in range, until the server stops."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arbitre.api.live.demo import DemoSource, demo_setup
from arbitre.api.live.table import LiveTable, TableConfig
from arbitre.api.main import create_app
from arbitre.rules.scene import parse_scene
from tests.api.routes.served import AUTH, TEST_HOSTS, TOKEN, Unplugged, served_demo
from tests.api.still_demo import still_demo


@pytest.fixture(scope="module")
def demo() -> Iterator[tuple[TestClient, LiveTable, DemoSource]]:
    with served_demo() as served:
        yield served


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


@pytest.fixture(scope="module")
def still() -> Iterator[tuple[TestClient, LiveTable]]:
    with still_demo(TOKEN, max_streams=0) as served:
        yield served


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"unit_mm": 1e308}, "unit_mm: numbers are at most 100000 in size, got 1e+308"),
        ({"unit_mm": -1e6}, "numbers are at most 100000"),
        ({"unit_mm": 0.01}, "unit_mm: a length is 0 or at least 1 mm, got 0.01"),
        ({"surface": "hex", "hex_mm": 2}, "hex_mm: a cell is at least 10 mm, got 2"),
        ({"unit_mm": {"a": 1}}, "unit_mm: expected a number, true/false"),
        ({"unit_mm": "x" * 500}, "text of at most 100 characters"),
        ({"grid_origin_mm": [1, "a"]}, "a list of numbers expected"),
        ({"unit_mm": -1}, "unit_mm"),  # in range here, refused by the rules (> 0)
        ({"teleport": 1}, "teleport"),  # no such option: the rules name it
    ],
)
def test_options_out_of_range_are_422_and_change_nothing(
    still: tuple[TestClient, LiveTable], options: dict[str, Any], fragment: str
) -> None:
    client, live = still
    reply = client.put("/api/options", json={"options": options}, headers=AUTH)
    assert reply.status_code == 422, reply.text
    detail = reply.json()["detail"]
    assert fragment in detail and "\n" not in detail and len(detail) <= 300
    assert dict(live.config.options) == {"unit_mm": 100}


def test_after_a_refused_option_reach_still_answers(still: tuple[TestClient, LiveTable]) -> None:
    client, _ = still
    refused = client.put("/api/options", json={"options": {"unit_mm": 1e308}}, headers=AUTH)
    assert refused.status_code == 422
    reply = client.post("/api/ask", json={"question": "reach", "args": ["Sergent"]})
    assert reply.status_code == 200
    assert reply.json()["area_mm2"] > 0


def test_a_change_of_options_lasts_until_the_server_stops(
    still: tuple[TestClient, LiveTable],
) -> None:
    client, live = still
    try:
        reply = client.put("/api/options", json={"options": {"unit_mm": 150}}, headers=AUTH)
        assert reply.status_code == 200
        body = reply.json()
        assert body["options"] == {"unit_mm": 150}
        assert body["saved"] is False and "until the server stops" in body["message"]
        assert client.get("/api/state").json()["unit_mm"] == 150
    finally:
        live.set_options({"unit_mm": 100})


def test_null_takes_an_option_away(still: tuple[TestClient, LiveTable]) -> None:
    client, live = still
    try:
        reply = client.put("/api/options", json={"options": {"thickness_mm": 40}}, headers=AUTH)
        assert reply.json()["options"] == {"unit_mm": 100, "thickness_mm": 40}
        reply = client.put("/api/options", json={"options": {"thickness_mm": None}}, headers=AUTH)
        assert reply.status_code == 200, reply.text
        assert reply.json()["options"] == {"unit_mm": 100}
        assert "thickness_mm" not in client.get("/api/scene").json()["options"]
    finally:
        live.set_options({"unit_mm": 100})


def test_a_key_that_is_no_text_is_named_readably(still: tuple[TestClient, LiveTable]) -> None:
    client, _ = still
    body = '{"options": {"\\ud800": 1}}'  # a lone surrogate: no UTF-8 text
    got = client.put(
        "/api/options", content=body, headers={**AUTH, "content-type": "application/json"}
    )
    assert got.status_code == 422
    assert got.json()["detail"].startswith("body.options.???: Input should be a valid string")
