"""The error answers routes give: every 4xx a route gives is documented in the OpenAPI
schema as one line of detail (each one provoked here)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arbitre.api.live.table import LiveTable
from tests.api.still_demo import still_demo

TOKEN = "secret"
AUTH = {"X-Arbitre-Token": TOKEN}


@pytest.fixture(scope="module")
def demo() -> Iterator[tuple[TestClient, LiveTable]]:
    with still_demo(TOKEN, max_streams=0) as served:
        yield served


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
