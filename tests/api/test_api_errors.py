"""Refusals of the HTTP API: options in range, short details, and the OpenAPI schema
listing every 4xx a route gives (each one provoked here)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arbitre.api.live.table import LiveTable
from arbitre.api.main import short
from tests.api.still_demo import still_demo

TOKEN = "secret"
AUTH = {"X-Arbitre-Token": TOKEN}


@pytest.fixture(scope="module")
def demo() -> Iterator[tuple[TestClient, LiveTable]]:
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
    demo: tuple[TestClient, LiveTable], options: dict[str, Any], fragment: str
) -> None:
    client, live = demo
    reply = client.put("/api/options", json={"options": options}, headers=AUTH)
    assert reply.status_code == 422, reply.text
    detail = reply.json()["detail"]
    assert fragment in detail and "\n" not in detail and len(detail) <= 300
    assert dict(live.config.options) == {"unit_mm": 100}


def test_after_a_refused_option_reach_still_answers(demo: tuple[TestClient, LiveTable]) -> None:
    client, _ = demo
    refused = client.put("/api/options", json={"options": {"unit_mm": 1e308}}, headers=AUTH)
    assert refused.status_code == 422
    reply = client.post("/api/ask", json={"question": "reach", "args": ["Sergent"]})
    assert reply.status_code == 200
    assert reply.json()["area_mm2"] > 0


def test_a_change_of_options_lasts_until_the_server_stops(
    demo: tuple[TestClient, LiveTable],
) -> None:
    client, live = demo
    try:
        reply = client.put("/api/options", json={"options": {"unit_mm": 150}}, headers=AUTH)
        assert reply.status_code == 200
        body = reply.json()
        assert body["options"] == {"unit_mm": 150}
        assert body["saved"] is False and "until the server stops" in body["message"]
        assert client.get("/api/state").json()["unit_mm"] == 150
    finally:
        live.set_options({"unit_mm": 100})


def test_a_long_detail_is_one_short_line(demo: tuple[TestClient, LiveTable]) -> None:
    client, _ = demo
    # A figure name of 10 000 characters: the rules quote it, the answer cuts it.
    reply = client.post("/api/ask", json={"question": "distance", "args": ["x" * 10_000, "y"]})
    assert reply.status_code == 422
    detail = reply.json()["detail"]
    assert len(detail) <= 300 and "\n" not in detail
    # An option name of 60 characters (a key of the body) is quoted in part.
    reply = client.put("/api/options", json={"options": {"k" * 60: "x" * 200}}, headers=AUTH)
    assert reply.status_code == 422
    assert len(reply.json()["detail"]) <= 300


def test_short_cuts_to_one_line() -> None:
    assert short("first\nsecond") == "first"
    assert short("abcdef", 5) == "ab..."
    assert short("") == ""


# Each documented refusal, provoked: (method, path, request keywords, status).
PROVOKED = [
    ("get", "/api/health", {"headers": {"host": "evil.example"}}, 400),
    ("get", "/api/state", {"headers": {"host": "evil.example"}}, 400),
    ("get", "/api/scene", {"headers": {"host": "evil.example"}}, 400),
    ("get", "/api/scene.yaml", {"headers": {"host": "evil.example"}}, 400),
    ("post", "/api/ask", {"headers": {"host": "evil.example"}}, 400),
    ("post", "/api/ask", {"json": {"question": "x", "pad": "y" * 2_100_000}}, 413),
    ("post", "/api/ask", {"json": {"question": 3}}, 422),
    ("put", "/api/options", {"json": {"options": {}}}, 403),
    ("put", "/api/options", {"json": {"options": {"u": "y" * 2_100_000}}, "headers": AUTH}, 413),
    ("put", "/api/options", {"json": {"options": {"unit_mm": 1e308}}, "headers": AUTH}, 422),
    ("put", "/api/terrain", {"json": {"terrain": []}}, 403),
    ("put", "/api/terrain", {"json": {"terrain": [{"p": "y" * 2_100_000}]}, "headers": AUTH}, 413),
    ("put", "/api/terrain", {"json": {"terrain": [{"kind": "lava"}]}, "headers": AUTH}, 422),
    ("post", "/api/scene/read", {"content": b"x" * 10_000_001}, 413),
    ("post", "/api/scene/read", {"content": b"figures: 3"}, 422),
    ("get", "/api/snapshot.jpg?overlays=maybe", {}, 422),
    ("get", "/api/stream.mjpg?overlays=maybe", {}, 422),
    ("get", "/api/stream.mjpg", {}, 503),  # max_streams=0 in this app
]


@pytest.mark.parametrize(("method", "path", "keywords", "status"), PROVOKED)
def test_every_refusal_is_given_and_documented(
    demo: tuple[TestClient, LiveTable],
    method: str,
    path: str,
    keywords: dict[str, Any],
    status: int,
) -> None:
    client, _ = demo
    reply = client.request(method.upper(), path, **keywords)
    assert reply.status_code == status, reply.text[:300]
    assert isinstance(reply.json()["detail"], str)
    route = path.split("?")[0]
    documented = client.get("/openapi.json").json()["paths"][route][method]["responses"]
    assert str(status) in documented, sorted(documented)
    schema = documented[str(status)]["content"]["application/json"]["schema"]
    assert schema == {"$ref": "#/components/schemas/Detail"}  # {"detail": str}, not a list


def test_no_route_documents_the_default_422_list(demo: tuple[TestClient, LiveTable]) -> None:
    client, _ = demo
    schema = client.get("/openapi.json").json()
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            for code, answer in operation["responses"].items():
                if code.startswith("4"):
                    body = answer["content"]["application/json"]["schema"]
                    assert body == {"$ref": "#/components/schemas/Detail"}, (path, method, code)


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


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


@pytest.mark.parametrize(
    ("piece", "fragment"),
    [
        ({"attrs": {"x": "\ud800"}}, "terrain[0].attrs: text without control characters"),
        ({"id": "\x85"}, "terrain[0].id: a name is one line of text"),
    ],
)
def test_terrain_with_control_characters_is_422_and_changes_nothing(
    demo: tuple[TestClient, LiveTable], piece: dict[str, Any], fragment: str
) -> None:
    client, live = demo
    before = client.get("/api/state").json()["terrain"]
    wood = {"id": "w", "kind": "wood", "polygon_mm": [[0, 0], [100, 0], [0, 100]], **piece}
    # JSON's own escapes: a lone surrogate is no UTF-8, so json= could not send it.
    body = json.dumps({"terrain": [wood]})
    got = client.put(
        "/api/terrain", content=body, headers={**AUTH, "content-type": "application/json"}
    )
    assert got.status_code == 422, got.text
    assert fragment in got.json()["detail"]
    assert client.get("/api/state").status_code == 200
    assert client.get("/api/state").json()["terrain"] == before


@pytest.mark.parametrize(
    ("bad_range", "status", "detail"),
    [
        ("bytes=abc", 400, "Range header: range must be requested"),
        ("bytes=999999999-", 416, "Requested Range Not Satisfiable"),
    ],
)
def test_a_bad_range_on_a_static_file_is_json_like_every_error(
    demo: tuple[TestClient, LiveTable], bad_range: str, status: int, detail: str
) -> None:
    client, _ = demo
    got = client.get("/static/app.js", headers={"Range": bad_range})
    assert got.status_code == status
    assert got.json() == {"detail": detail}
    assert client.get("/static/app.js", headers={"Range": "bytes=0-9"}).status_code == 206


@pytest.mark.parametrize("path", ["/", "/api/health", "/api/state", "/api/scene", "/static/app.js"])
def test_head_is_answered_wherever_get_is(demo: tuple[TestClient, LiveTable], path: str) -> None:
    client, _ = demo
    head, get = client.head(path), client.get(path)
    assert (head.status_code, get.status_code) == (200, 200)
    assert head.content == b""
    assert head.headers["content-type"] == get.headers["content-type"]
    assert client.head("/api/ask").status_code == 405  # POST only: still not allowed


def test_null_takes_an_option_away(demo: tuple[TestClient, LiveTable]) -> None:
    client, live = demo
    try:
        reply = client.put("/api/options", json={"options": {"thickness_mm": 40}}, headers=AUTH)
        assert reply.json()["options"] == {"unit_mm": 100, "thickness_mm": 40}
        reply = client.put("/api/options", json={"options": {"thickness_mm": None}}, headers=AUTH)
        assert reply.status_code == 200, reply.text
        assert reply.json()["options"] == {"unit_mm": 100}
        assert "thickness_mm" not in client.get("/api/scene").json()["options"]
    finally:
        live.set_options({"unit_mm": 100})


def test_a_key_that_is_no_text_is_named_readably(demo: tuple[TestClient, LiveTable]) -> None:
    client, _ = demo
    body = '{"options": {"\\ud800": 1}}'  # a lone surrogate: no UTF-8 text
    got = client.put(
        "/api/options", content=body, headers={**AUTH, "content-type": "application/json"}
    )
    assert got.status_code == 422
    assert got.json()["detail"].startswith("body.options.???: Input should be a valid string")


def test_an_error_no_route_foresaw_is_one_line_of_json(monkeypatch: pytest.MonkeyPatch) -> None:
    # A fault inside the server (here the live state breaking) is still a JSON answer
    # of one line, not a bare "Internal Server Error" page; the table goes on serving.
    with still_demo(TOKEN, raise_server_exceptions=False) as (client, live):
        healthy = live.state

        def broken() -> dict[str, Any]:
            raise ZeroDivisionError("division by zero")

        monkeypatch.setattr(live, "state", broken)
        reply = client.get("/api/state")
        assert reply.status_code == 500
        assert reply.json() == {"detail": "internal error (ZeroDivisionError); the table goes on"}
        monkeypatch.setattr(live, "state", healthy)
        assert client.get("/api/state").status_code == 200


def test_a_refusal_of_the_rules_gives_its_code_for_other_languages(
    demo: tuple[TestClient, LiveTable],
) -> None:
    # the demo's groups are alpins, verts...: "alpin" is one letter short of alpins
    client, _ = demo
    got = client.post("/api/ask", json={"question": "distance", "args": ["alpin", "verts"]})
    assert got.status_code == 422
    body = got.json()
    assert body["detail"].startswith("unknown figure or group 'alpin' (did you mean 'alpins'")
    assert body["code"] == "unknown_figure_or_group"
    assert body["params"]["name"] == "'alpin'" and body["params"]["nearest"][0] == "alpins"
    # a refusal without a code is the English line alone, as before
    bad = client.post("/api/ask", json={"question": "distance", "args": ["a"], "extras": {"x": 1}})
    assert bad.status_code == 422 and set(bad.json()) <= {"detail", "code", "params"}
