"""The route that changes the fixed terrain from the page, saved into arbitre.yaml
(FastAPI's TestClient)."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from arbitre.api.live import table as live_module
from arbitre.api.live.table import LiveTable
from arbitre.api.main import create_app
from arbitre.api.routes import terrain as terrain_routes
from tests.api.club_config import ARBITRE_YAML, STRIP, club_live, nested, pieces
from tests.api.routes.served import AUTH, TEST_HOSTS, TOKEN


@pytest.fixture()
def table(tmp_path: Path) -> Iterator[tuple[TestClient, LiveTable, Path]]:
    config = tmp_path / "arbitre.yaml"
    config.write_text(ARBITRE_YAML, encoding="utf-8")
    live = club_live(config)
    with TestClient(create_app(live, token=TOKEN, run_loop=False, hosts=TEST_HOSTS)) as client:
        yield client, live, config


@pytest.fixture(scope="module")
def demo() -> Iterator[tuple[TestClient, LiveTable]]:
    live = club_live(None)
    with TestClient(create_app(live, token=TOKEN, run_loop=False, hosts=TEST_HOSTS)) as client:
        yield client, live


# ---- PUT /api/terrain -----------------------------------------------------------------


def test_changing_the_terrain_needs_the_token(
    table: tuple[TestClient, LiveTable, Path],
) -> None:
    client, live, config = table
    body = {"terrain": pieces(STRIP)}
    assert client.put("/api/terrain", json=body).status_code == 403
    wrong = client.put("/api/terrain", json=body, headers={"X-Arbitre-Token": "guess"})
    assert wrong.status_code == 403
    assert "token" in wrong.json()["detail"]
    assert config.read_text(encoding="utf-8") == ARBITRE_YAML
    assert [t["id"] for t in live.state()["terrain"]] == ["bois", "rocher"]


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({}, "terrain: Field required"),
        ({"terrain": "wood"}, "terrain: Input should be a valid list"),
        ({"terrain": [], "colour": "green"}, "colour"),
        (
            {"terrain": [{"id": "w", "kind": "forest", "polygon_mm": [[0, 0], [9, 0], [0, 9]]}]},
            "terrain[0].kind",
        ),
        (
            {"terrain": [{"id": "w", "kind": "wood", "polygon_mm": [[0, 0], [9, 0]]}]},
            "a polygon needs at least 3 points",
        ),
        (
            {"terrain": [{"id": "w", "kind": "wood", "line_mm": [[0, 0], [9, 0]]}]},
            "only obstacles may be lines",
        ),
        (
            {
                "terrain": [
                    {"id": "w", "kind": "wood", "polygon_mm": [[0, 0], [90, 90], [90, 0], [0, 90]]}
                ]
            },
            "not a simple polygon",
        ),
        ({"terrain": [STRIP, STRIP]}, "duplicate id 'strip'"),
        (
            {"terrain": [{"id": "h", "kind": "obstacle", "level": 7, "line_mm": [[0, 0], [9, 0]]}]},
            "terrain[0].level",
        ),
    ],
)
def test_bad_terrain_is_a_one_line_422_and_changes_nothing(
    table: tuple[TestClient, LiveTable, Path], body: dict[str, Any], fragment: str
) -> None:
    client, live, config = table
    reply = client.put("/api/terrain", json=body, headers=AUTH)
    assert reply.status_code == 422
    detail = reply.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail, detail
    assert fragment in detail
    assert config.read_text(encoding="utf-8") == ARBITRE_YAML
    assert [t["id"] for t in live.state()["terrain"]] == ["bois", "rocher"]


def test_a_body_that_is_not_json_is_a_one_line_422(
    table: tuple[TestClient, LiveTable, Path],
) -> None:
    client, _, _ = table
    reply = client.put(
        "/api/terrain",
        content=b"{terrain: [",
        headers={**AUTH, "content-type": "application/json"},
    )
    assert reply.status_code == 422
    assert isinstance(reply.json()["detail"], str) and "JSON" in reply.json()["detail"]


def test_new_terrain_is_saved_keeping_the_other_keys_and_comments(
    table: tuple[TestClient, LiveTable, Path],
) -> None:
    client, live, config = table
    before_version = live.state()["terrain_version"]
    reply = client.put("/api/terrain", json={"terrain": pieces(STRIP)}, headers=AUTH)
    assert reply.status_code == 200, reply.text
    assert reply.json()["saved"] is True and reply.json()["file"] == str(config)
    # States from now on hold the new terrain and say so: a page may set aside the
    # terrain of a state made before the save, which holds an older version.
    assert reply.json()["terrain_version"] == before_version + 1
    state = live.state()
    assert state["terrain_version"] == before_version + 1
    assert state["terrain"] == reply.json()["terrain"]
    text = config.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    before = yaml.safe_load(ARBITRE_YAML)
    assert data == {**before, "terrain": pieces(STRIP)}
    assert list(data) == list(before)  # same keys, same order
    for comment in ("# The club's table.", "# 1 M = 10 cm", "# where the frames come from"):
        assert comment in text
    assert not [p for p in config.parent.iterdir() if p.name != "arbitre.yaml"]


def test_the_next_state_and_question_use_the_new_terrain(
    table: tuple[TestClient, LiveTable, Path],
) -> None:
    client, _, _ = table
    move = {"question": "move", "args": ["Sergent", "430", "300"]}
    # The Sergent stands at (330, 300): 100 mm to go east, 1 M. His base (radius 12.5)
    # is in the wood strip (x 360..400) from x 347.5 to 412.5, which costs double under
    # the table's house rule (terrain_cost: double):
    # 35 + 2 x 65 = 165 mm; going round the strip's ends (the base clear of them at
    # y 237.5 or 362.5) is longer: 2 x hypot(17.5, 62.5) + 65 = 194.8 mm.
    before = client.post("/api/ask", json=move).json()
    assert before["cost_mm"] == pytest.approx(100, abs=1)
    assert client.put("/api/terrain", json={"terrain": pieces(STRIP)}, headers=AUTH).is_success
    state = client.get("/api/state").json()
    assert [t["id"] for t in state["terrain"]] == ["bois", "rocher", "strip"]
    assert [t["id"] for t in client.get("/api/scene").json()["terrain"]][-1] == "strip"
    after = client.post("/api/ask", json=move).json()
    assert after["cost_mm"] == pytest.approx(165, abs=1)


def test_removing_every_piece_is_allowed(table: tuple[TestClient, LiveTable, Path]) -> None:
    client, _, config = table
    assert client.put("/api/terrain", json={"terrain": []}, headers=AUTH).is_success
    assert client.get("/api/state").json()["terrain"] == []
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    assert data["terrain"] == [] and data["source"] == {"camera_index": 0}


def test_a_failing_write_leaves_the_old_file_and_the_live_terrain(
    table: tuple[TestClient, LiveTable, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, live, config = table
    seen: list[tuple[str, str]] = []

    def failing_replace(src: str, dst: str) -> None:
        # The new text is complete in the temporary file beside arbitre.yaml when it
        # would be renamed: only the rename itself fails here.
        seen.append((src, Path(src).read_text(encoding="utf-8")))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    reply = client.put("/api/terrain", json={"terrain": pieces(STRIP)}, headers=AUTH)
    assert reply.status_code == 500
    assert reply.json()["detail"] == f"{config}: cannot write the file (No space left on device)"
    assert config.read_text(encoding="utf-8") == ARBITRE_YAML
    assert [t["id"] for t in live.state()["terrain"]] == ["bois", "rocher"]
    ((temporary, text),) = seen
    assert Path(temporary).parent == config.parent
    assert yaml.safe_load(text)["terrain"][-1]["id"] == "strip"
    assert not Path(temporary).exists()
    assert [p.name for p in config.parent.iterdir()] == ["arbitre.yaml"]


def test_without_arbitre_yaml_the_change_lasts_until_restart(
    demo: tuple[TestClient, LiveTable],
) -> None:
    client, live = demo
    try:
        reply = client.put("/api/terrain", json={"terrain": pieces(STRIP)}, headers=AUTH)
        assert reply.status_code == 200
        assert reply.json()["saved"] is False and reply.json()["file"] is None
        assert "until the server stops" in reply.json()["message"]
        assert client.get("/api/state").json()["terrain"][-1] == STRIP
    finally:
        live.use_terrain(pieces())


# ---- scene files ----------------------------------------------------------------------


def test_a_terrain_saved_while_options_change_is_kept(
    table: tuple[TestClient, LiveTable, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # An option change checks the new options on the table (parse_scene) before using
    # them; a terrain saved meanwhile must not be undone when it writes the options back
    # (it wrote back the settings it had read before: the save answered 200 and
    # arbitre.yaml held the new terrain, the live table the old one).
    client, live, config = table
    inside, go = threading.Event(), threading.Event()
    checked = live_module.parse_scene

    def slow_check(data: Any, *, source: str = "<scene>") -> Any:
        if source == "options":
            inside.set()
            go.wait(5)
        return checked(data, source=source)

    monkeypatch.setattr(live_module, "parse_scene", slow_check)
    replies: dict[str, int] = {}

    def change_options() -> None:
        reply = client.put("/api/options", json={"options": {"unit_mm": 120}}, headers=AUTH)
        replies["options"] = reply.status_code

    def save_terrain() -> None:
        reply = client.put("/api/terrain", json={"terrain": pieces(STRIP)}, headers=AUTH)
        replies["terrain"] = reply.status_code

    first = threading.Thread(target=change_options)
    first.start()
    assert inside.wait(5)
    second = threading.Thread(target=save_terrain)
    second.start()
    second.join(0.5)  # waits for the option change, or is done before it ends
    go.set()
    first.join(5)
    second.join(5)
    assert replies == {"options": 200, "terrain": 200}
    assert live.config.terrain[-1]["id"] == STRIP["id"] and live.config.options["unit_mm"] == 120
    assert yaml.safe_load(config.read_text(encoding="utf-8"))["terrain"][-1]["id"] == STRIP["id"]
    assert live.state()["terrain"][-1]["id"] == STRIP["id"]


@pytest.mark.parametrize(
    ("attrs", "words"),
    [
        # in arbitre.yaml a piece's attrs' values lie at level 4 (the file 0, terrain 1,
        # the piece 2, attrs 3): 37 nested lists reach level 40
        ({"deep": nested(37)}, "nested deeper than 40 levels"),
        ({"many": list(range(160_000))}, "more than 150,000 values"),
    ],
)
def test_a_terrain_the_next_start_would_refuse_is_refused_now(
    table: tuple[TestClient, LiveTable, Path],
    attrs: dict[str, Any],
    words: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client, live, config = table
    body = {"terrain": pieces({**STRIP, "attrs": attrs})}
    written: list[object] = []  # refused before the save is ever tried (nothing dumped)
    monkeypatch.setattr(terrain_routes, "save_terrain", lambda *given: written.append(given))
    reply = client.put("/api/terrain", json=body, headers=AUTH)
    assert written == []
    assert reply.status_code == 422, reply.text
    assert words in reply.json()["detail"]
    assert config.read_text(encoding="utf-8") == ARBITRE_YAML
    assert [t["id"] for t in live.state()["terrain"]] == ["bois", "rocher"]


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
