"""The routes that change the fixed terrain and read scene files (FastAPI's TestClient)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from arbitre.api.hosts import LOOPBACK
from arbitre.api.live import table as live_module
from arbitre.api.live.demo import DemoSource, demo_setup
from arbitre.api.live.table import LiveTable, TableConfig
from arbitre.api.main import create_app
from arbitre.api.routes import terrain as terrain_routes
from arbitre.api.settings import UnloadableSettings, save_terrain
from arbitre.calibration.errors import CalibrationError
from arbitre.files import load_yaml
from arbitre.rules.scene import parse_scene

TOKEN = "secret-token"
# TestClient sends "Host: testserver": the name this server is started to answer to.
TEST_HOSTS = [*LOOPBACK, "testserver"]
HEADERS = {"X-Arbitre-Token": TOKEN}
ARBITRE_YAML = """\
# The club's table.
camera: camera.yaml
table: table.yaml
roster: roster.yaml
ruleset: choc-base-6
options: {unit_mm: 100, terrain_cost: double}   # 1 M = 10 cm; woods cost double
terrain:
  - {id: bois, kind: wood, polygon_mm: [[400, 420], [520, 400], [540, 520], [420, 540]]}
# where the frames come from
source: {camera_index: 0}
"""
# A wood strip 40 mm wide (x 360-400) across the Sergent's way east (he stands at 330, 300).
STRIP = {
    "id": "strip",
    "kind": "wood",
    "polygon_mm": [[360, 250], [400, 250], [400, 350], [360, 350]],
}


def _live(config_path: Path | None) -> LiveTable:
    setup = demo_setup()
    live = LiveTable(
        TableConfig(
            setup.camera,
            setup.table,
            setup.roster,
            options={"unit_mm": 100, "terrain_cost": "double"},
            terrain=setup.terrain,
            config_path=config_path,
        ),
        DemoSource(move_every_s=1e9),  # nobody walks during the tests
    )
    for _ in range(3):
        assert live.step()
    return live


@pytest.fixture()
def table(tmp_path: Path) -> Iterator[tuple[TestClient, LiveTable, Path]]:
    config = tmp_path / "arbitre.yaml"
    config.write_text(ARBITRE_YAML, encoding="utf-8")
    live = _live(config)
    with TestClient(create_app(live, token=TOKEN, run_loop=False, hosts=TEST_HOSTS)) as client:
        yield client, live, config


@pytest.fixture(scope="module")
def demo() -> Iterator[tuple[TestClient, LiveTable]]:
    live = _live(None)
    with TestClient(create_app(live, token=TOKEN, run_loop=False, hosts=TEST_HOSTS)) as client:
        yield client, live


def _pieces(extra: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    base = [dict(piece) for piece in demo_setup().terrain]
    return base + ([extra] if extra else [])


# ---- PUT /api/terrain -----------------------------------------------------------------


def test_changing_the_terrain_needs_the_token(
    table: tuple[TestClient, LiveTable, Path],
) -> None:
    client, live, config = table
    body = {"terrain": _pieces(STRIP)}
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
    reply = client.put("/api/terrain", json=body, headers=HEADERS)
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
        headers={**HEADERS, "content-type": "application/json"},
    )
    assert reply.status_code == 422
    assert isinstance(reply.json()["detail"], str) and "JSON" in reply.json()["detail"]


def test_new_terrain_is_saved_keeping_the_other_keys_and_comments(
    table: tuple[TestClient, LiveTable, Path],
) -> None:
    client, live, config = table
    before_version = live.state()["terrain_version"]
    reply = client.put("/api/terrain", json={"terrain": _pieces(STRIP)}, headers=HEADERS)
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
    assert data == {**before, "terrain": _pieces(STRIP)}
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
    assert client.put("/api/terrain", json={"terrain": _pieces(STRIP)}, headers=HEADERS).is_success
    state = client.get("/api/state").json()
    assert [t["id"] for t in state["terrain"]] == ["bois", "rocher", "strip"]
    assert [t["id"] for t in client.get("/api/scene").json()["terrain"]][-1] == "strip"
    after = client.post("/api/ask", json=move).json()
    assert after["cost_mm"] == pytest.approx(165, abs=1)


def test_removing_every_piece_is_allowed(table: tuple[TestClient, LiveTable, Path]) -> None:
    client, _, config = table
    assert client.put("/api/terrain", json={"terrain": []}, headers=HEADERS).is_success
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
    reply = client.put("/api/terrain", json={"terrain": _pieces(STRIP)}, headers=HEADERS)
    assert reply.status_code == 500
    assert reply.json()["detail"] == f"{config}: cannot write the file (No space left on device)"
    assert config.read_text(encoding="utf-8") == ARBITRE_YAML
    assert [t["id"] for t in live.state()["terrain"]] == ["bois", "rocher"]
    ((temporary, text),) = seen
    assert Path(temporary).parent == config.parent
    assert yaml.safe_load(text)["terrain"][-1]["id"] == "strip"
    assert not Path(temporary).exists()
    assert [p.name for p in config.parent.iterdir()] == ["arbitre.yaml"]


def test_a_write_failing_midway_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "arbitre.yaml"
    config.write_text(ARBITRE_YAML, encoding="utf-8")

    def failing_fsync(descriptor: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(CalibrationError, match="cannot write the file"):
        save_terrain(config, _pieces(STRIP))
    assert config.read_text(encoding="utf-8") == ARBITRE_YAML
    assert [p.name for p in tmp_path.iterdir()] == ["arbitre.yaml"]


@pytest.mark.parametrize(
    "text",
    [
        # no terrain yet: the block is added at the end
        "camera: c.yaml\ntable: t.yaml\nroster: r.yaml\n",
        # list items at the key's own indentation, a comment before the next key
        "camera: c.yaml\nterrain:\n- {id: a, kind: wood, polygon_mm: [[0, 0], [9, 0], [0, 9]]}\n"
        "\n# the roster\nroster: r.yaml\ntable: t.yaml\n",
        # a flow mapping at the top: written again from its data
        "{camera: c.yaml, table: t.yaml, roster: r.yaml, terrain: []}\n",
    ],
)
def test_saving_terrain_keeps_every_other_key(tmp_path: Path, text: str) -> None:
    config = tmp_path / "arbitre.yaml"
    config.write_text(text, encoding="utf-8")
    save_terrain(config, [STRIP])
    written = config.read_text(encoding="utf-8")
    assert yaml.safe_load(written) == {**yaml.safe_load(text), "terrain": [STRIP]}
    if "# the roster" in text:
        assert "# the roster\nroster: r.yaml" in written


def test_without_arbitre_yaml_the_change_lasts_until_restart(
    demo: tuple[TestClient, LiveTable],
) -> None:
    client, live = demo
    try:
        reply = client.put("/api/terrain", json={"terrain": _pieces(STRIP)}, headers=HEADERS)
        assert reply.status_code == 200
        assert reply.json()["saved"] is False and reply.json()["file"] is None
        assert "until the server stops" in reply.json()["message"]
        assert client.get("/api/state").json()["terrain"][-1] == STRIP
    finally:
        live.use_terrain(_pieces())


# ---- scene files ----------------------------------------------------------------------


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


def test_a_question_on_a_bad_scene_is_a_one_line_422(demo: tuple[TestClient, LiveTable]) -> None:
    client, _ = demo
    reply = client.post(
        "/api/ask",
        json={"question": "distance", "args": ["a", "b"], "scene": {"ruleset": "cb6"}},
    )
    assert reply.status_code == 422
    assert reply.json()["detail"] == "scene: table: missing"


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
        reply = client.put("/api/options", json={"options": {"unit_mm": 120}}, headers=HEADERS)
        replies["options"] = reply.status_code

    def save_terrain() -> None:
        reply = client.put("/api/terrain", json={"terrain": _pieces(STRIP)}, headers=HEADERS)
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


def _nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("attrs", "words"),
    [
        # in arbitre.yaml a piece's attrs' values lie at level 4 (the file 0, terrain 1,
        # the piece 2, attrs 3): 37 nested lists reach level 40
        ({"deep": _nested(37)}, "nested deeper than 40 levels"),
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
    body = {"terrain": _pieces({**STRIP, "attrs": attrs})}
    written: list[object] = []  # refused before the save is ever tried (nothing dumped)
    monkeypatch.setattr(terrain_routes, "save_terrain", lambda *given: written.append(given))
    reply = client.put("/api/terrain", json=body, headers=HEADERS)
    assert written == []
    assert reply.status_code == 422, reply.text
    assert words in reply.json()["detail"]
    assert config.read_text(encoding="utf-8") == ARBITRE_YAML
    assert [t["id"] for t in live.state()["terrain"]] == ["bois", "rocher"]


def test_a_saved_terrain_is_read_back_as_the_server_s_start_reads_it(
    tmp_path: Path, yaml_backend: str
) -> None:
    # One level less than the bound: saved, and the bounded reader the start uses reads
    # the file back whole; one level more is refused and the file kept.
    config = tmp_path / "arbitre.yaml"
    config.write_text(ARBITRE_YAML, encoding="utf-8")
    save_terrain(config, [{**STRIP, "attrs": {"deep": _nested(35)}}])
    assert load_yaml(config.read_text(encoding="utf-8"))["terrain"][0]["attrs"]["deep"]
    saved = config.read_text(encoding="utf-8")
    with pytest.raises(UnloadableSettings, match="nested deeper than 40 levels"):
        save_terrain(config, [{**STRIP, "attrs": {"deep": _nested(37)}}])
    assert config.read_text(encoding="utf-8") == saved


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
    live = _live(None)
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
