"""A knocked-over figure put back where it stood, from the journal: the live table uses
the pinned place until the camera sees the figure there again, or it is released."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arbitre.api.hosts import LOOPBACK
from arbitre.api.live.demo import DemoSource, demo_config
from arbitre.api.live.journal import Journal
from arbitre.api.live.table import PIN_RELEASE_MM, LiveTable, Pin
from arbitre.api.main import create_app
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene
from tests.api.clock import Clock

CAVALIER = 13  # the demo's cavalier carries marker 13


def _settled_demo() -> tuple[LiveTable, DemoSource, Clock]:
    clock = Clock()
    source = DemoSource(move_every_s=1e9)
    live = LiveTable(demo_config(), source, clock=clock)
    for _ in range(30):
        clock.now += 1 / 30
        assert live.step()
    return live, source, clock


def _figure(state: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(f for f in state["figures"] if f["id"] == name)
    return found


def test_a_pinned_figure_stands_at_its_pin_in_the_state_the_scene_and_answers() -> None:
    live, _, _ = _settled_demo()
    live.pin(Pin(CAVALIER, 300.0, 200.0, 45.0, 0.8, 1000.0))
    state = live.state()
    cavalier = _figure(state, "Cavalier")
    assert (cavalier["x_mm"], cavalier["y_mm"], cavalier["pinned"]) == (300.0, 200.0, True)
    assert cavalier["stale"] is False and cavalier["settled"] is True
    assert not _figure(state, "Sergent")["pinned"]
    (pin,) = state["pins"]
    assert (pin["figure"], pin["x_mm"], pin["y_mm"], pin["time"]) == (
        "Cavalier",
        300.0,
        200.0,
        1000.0,
    )
    document = live.scene_document()
    placed = next(f for f in document["figures"] if f["id"] == "Cavalier")
    assert (placed["x_mm"], placed["y_mm"], placed["facing_deg"], placed["sigma_mm"]) == (
        300.0, 200.0, 45.0, 0.8,
    )  # fmt: skip
    assert "shared_mm" not in placed  # independent of the camera's frame
    # an answer rests on the pinned place, and says so for the figures it is about
    answer, about = live.ask("distance", ["cavalier", "section"])
    expected = ask(parse_scene(document), "distance", ["cavalier", "section"])
    assert answer.to_json()["distance_mm"] == expected.to_json()["distance_mm"]
    assert about["pinned"] == ["Cavalier"]
    assert live.ask("distance", ["alpins", "section"])[1]["pinned"] == []


def test_a_pin_is_released_once_the_camera_sees_the_figure_near_it() -> None:
    live, _, _ = _settled_demo()
    seen = _figure(live.state(), "Cavalier")
    x_mm, y_mm = seen["x_mm"], seen["y_mm"]
    # pinned 40 mm from where the camera sees it (knocked over, lying further off): kept
    live.pin(Pin(CAVALIER, x_mm + 40.0, y_mm, 90.0, 0.5, 1.0))
    assert _figure(live.state(), "Cavalier")["x_mm"] == pytest.approx(x_mm + 40.0)
    assert [p.marker for p in live.pins()] == [CAVALIER]
    # pinned 6 mm from it (put back by hand, about where it stood): the camera takes over
    assert 6.0 < PIN_RELEASE_MM
    version = live.pins_version
    live.pin(Pin(CAVALIER, x_mm + 6.0 / math.sqrt(2), y_mm + 6.0 / math.sqrt(2), 90.0, 0.5, 1.0))
    cavalier = _figure(live.state(), "Cavalier")
    assert live.pins() == () and live.pins_version == version + 2  # pinned, then released
    assert (cavalier["x_mm"], cavalier["y_mm"], cavalier["pinned"]) == (x_mm, y_mm, False)


def test_a_pin_of_a_figure_the_camera_does_not_see_stays_until_released() -> None:
    live, _, _ = _settled_demo()
    live.pin(Pin(99, 450.0, 300.0, 0.0, 0.5, 1.0))  # a marker never seen: added at its pin
    assert _figure(live.state(), "marker99")["pinned"] is True
    assert live.release(99) is True
    assert live.release(99) is False
    assert all(f["id"] != "marker99" for f in live.state()["figures"])


# --- over HTTP ---------------------------------------------------------------------------------

TOKEN = "secret"


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[tuple[TestClient, LiveTable, DemoSource, Clock]]:
    live, source, clock = _settled_demo()
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
    served: tuple[TestClient, LiveTable, DemoSource, Clock],
) -> None:
    client, live, source, clock = served
    stood = _figure(client.get("/api/journal/states/1").json()["scene"], "Cavalier")
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
    knocked = _figure(live.state(), "Cavalier")
    assert math.hypot(knocked["x_mm"] - stood["x_mm"], knocked["y_mm"] - stood["y_mm"]) > 30
    assert _pin(client, None, figure="Cavalier", state=1).status_code == 403
    pinned = _pin(client, figure="Cavalier", state=1)
    assert pinned.status_code == 200, pinned.text
    assert pinned.json()["pinned"] == "Cavalier" and pinned.json()["from"] == "settled state 1"
    state = client.get("/api/state").json()
    cavalier = _figure(state, "Cavalier")
    assert (cavalier["x_mm"], cavalier["y_mm"], cavalier["pinned"]) == (
        stood["x_mm"], stood["y_mm"], True,
    )  # fmt: skip
    answer = client.post("/api/ask", json={"question": "distance", "args": ["cavalier", "verts"]})
    assert answer.json()["pinned"] == ["Cavalier"]
    assert client.get("/api/journal/pins").json()["pins"][0]["figure"] == "Cavalier"
    # released by the player: the camera's place again
    released = client.delete("/api/journal/pins/Cavalier", headers={"X-Arbitre-Token": TOKEN})
    assert released.status_code == 200 and released.json()["pins"] == []
    assert _figure(client.get("/api/state").json(), "Cavalier")["x_mm"] == knocked["x_mm"]
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
    served: tuple[TestClient, LiveTable, DemoSource, Clock],
    body: dict[str, Any],
    status: int,
    says: str,
) -> None:
    client, live, _, _ = served
    answer = _pin(client, **body)
    assert answer.status_code == status, answer.text
    assert says in answer.json()["detail"]
    assert live.pins() == ()
