"""POST /api/ask checks a question's options like the command line: 422 naming the option."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from tests.api.still_demo import still_demo

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "cb6-skirmish.yaml"
SCENE = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with still_demo() as (test_client, _):
        yield test_client


def _impact(client: TestClient, extras: Any) -> Any:
    body = {"question": "impact", "args": ["alpins", "verts"], "extras": extras, "scene": SCENE}
    return client.post("/api/ask", json=body)


@pytest.mark.parametrize(
    ("extras", "detail"),
    [
        ({"die": "abc"}, "a die shows 1 to 6, got 'abc' (option die of impact)"),
        ({"die": 3.5}, "a die shows 1 to 6, got 3.5 (option die of impact)"),
        ({"die": True}, "a die shows 1 to 6, got true (option die of impact)"),
        ({"bonus": [1]}, "a whole number -100 to 100, got [1] (option bonus of impact)"),
        ({"action": "charge"}, "one of fire, close, got 'charge' (option action of impact)"),
    ],
)
def test_a_bad_option_is_422_naming_it(client: TestClient, extras: Any, detail: str) -> None:
    reply = _impact(client, extras)
    assert reply.status_code == 422
    assert reply.json()["detail"] == detail


def test_a_good_option_is_answered(client: TestClient) -> None:
    # alpins in close combat: chef, alp2 CR (PI 2 each), alp3 wounded CR (PI 1): 5; die 2 -> 3.
    reply = _impact(client, {"action": "close", "die": 2})
    assert reply.status_code == 200
    assert (reply.json()["pi"], reply.json()["impact"]) == (5, 3)


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({"question": "x" * 65}, "body.question: String should have at most 64 characters"),
        ({"question": "groups", "args": ["a"] * 9}, "body.args: List should have at most 8"),
        ({"question": "groups", "args": ["a" * 201]}, "body.args[0]: String should have at"),
        (
            {"question": "groups", "extras": {f"k{n}": n for n in range(17)}},
            "body.extras: Dictionary should have at most 16",
        ),
    ],
)
def test_oversized_questions_are_refused_before_the_rules(
    client: TestClient, body: dict[str, Any], detail: str
) -> None:
    reply = client.post("/api/ask", json={**body, "scene": SCENE})
    assert reply.status_code == 422
    assert reply.json()["detail"].startswith(detail)
