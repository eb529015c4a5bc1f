"""POST /api/ask: answers on the live table or on a scene given with the question, its
options checked like the command line's (422 naming the option), and its refusals."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from arbitre.api.live.demo import DemoSource
from arbitre.api.live.table import LiveTable
from tests.api.routes.served import TOKEN, served_demo
from tests.api.still_demo import still_demo

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "cb6-skirmish.yaml"
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


@pytest.fixture(scope="module")
def demo() -> Iterator[tuple[TestClient, LiveTable, DemoSource]]:
    with served_demo() as served:
        yield served


def _figures(client: TestClient) -> dict[str, dict[str, Any]]:
    return {f["id"]: f for f in client.get("/api/state").json()["figures"]}


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


@pytest.fixture(scope="module")
def still() -> Iterator[tuple[TestClient, LiveTable]]:
    with still_demo(TOKEN, max_streams=0) as served:
        yield served


def test_a_refusal_of_the_rules_gives_its_code_for_other_languages(
    still: tuple[TestClient, LiveTable],
) -> None:
    # the demo's groups are alpins, verts...: "alpin" is one letter short of alpins
    client, _ = still
    got = client.post("/api/ask", json={"question": "distance", "args": ["alpin", "verts"]})
    assert got.status_code == 422
    body = got.json()
    assert body["detail"].startswith("unknown figure or group 'alpin' (did you mean 'alpins'")
    assert body["code"] == "unknown_figure_or_group"
    assert body["params"]["name"] == "'alpin'" and body["params"]["nearest"][0] == "alpins"
    # a refusal without a code is the English line alone, as before
    bad = client.post("/api/ask", json={"question": "distance", "args": ["a"], "extras": {"x": 1}})
    assert bad.status_code == 422 and set(bad.json()) <= {"detail", "code", "params"}


def test_a_question_on_a_bad_scene_is_a_one_line_422(still: tuple[TestClient, LiveTable]) -> None:
    client, _ = still
    reply = client.post(
        "/api/ask",
        json={"question": "distance", "args": ["a", "b"], "scene": {"ruleset": "cb6"}},
    )
    assert reply.status_code == 422
    assert reply.json()["detail"] == "scene: table: missing"
