"""The HTTP app (`arbitre.api.main`): its OpenAPI docs served from this server alone, every
error one short line of JSON, and HEAD answered wherever GET is."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arbitre.api.live.demo import DemoSource
from arbitre.api.live.table import LiveTable
from arbitre.api.main import short
from tests.api.routes.served import AUTH, TOKEN, served_demo
from tests.api.still_demo import still_demo


@pytest.fixture(scope="module")
def demo() -> Iterator[tuple[TestClient, LiveTable, DemoSource]]:
    with served_demo() as served:
        yield served


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


@pytest.fixture(scope="module")
def still() -> Iterator[tuple[TestClient, LiveTable]]:
    with still_demo(TOKEN, max_streams=0) as served:
        yield served


def test_a_long_detail_is_one_short_line(still: tuple[TestClient, LiveTable]) -> None:
    client, _ = still
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


@pytest.mark.parametrize(
    ("bad_range", "status", "detail"),
    [
        ("bytes=abc", 400, "Range header: range must be requested"),
        ("bytes=999999999-", 416, "Requested Range Not Satisfiable"),
    ],
)
def test_a_bad_range_on_a_static_file_is_json_like_every_error(
    still: tuple[TestClient, LiveTable], bad_range: str, status: int, detail: str
) -> None:
    client, _ = still
    got = client.get("/static/app.js", headers={"Range": bad_range})
    assert got.status_code == status
    assert got.json() == {"detail": detail}
    assert client.get("/static/app.js", headers={"Range": "bytes=0-9"}).status_code == 206


@pytest.mark.parametrize("path", ["/", "/api/health", "/api/state", "/api/scene", "/static/app.js"])
def test_head_is_answered_wherever_get_is(still: tuple[TestClient, LiveTable], path: str) -> None:
    client, _ = still
    head, get = client.head(path), client.get(path)
    assert (head.status_code, get.status_code) == (200, 200)
    assert head.content == b""
    assert head.headers["content-type"] == get.headers["content-type"]
    assert client.head("/api/ask").status_code == 405  # POST only: still not allowed


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
