"""The terrain editor and scene files in a real browser (Debian's chromium, Playwright).

The server runs the demo table in this process, its figures standing still (the demo's
walks are switched off), so that every answer can be worked out before it is asked.
Like the other browser tests, these fail, never skip, without chromium.
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import uvicorn
import yaml

from arbitre.api.live.demo import DemoSource, demo_config
from arbitre.api.live.table import LiveTable
from arbitre.api.main import create_app
from arbitre.rules.choc_base_6.grid import grid_of
from arbitre.rules.scene import parse_scene

from .test_page_e2e import CHROMIUM, CHROMIUM_ARGS, _free_port, _get_json, _playwright, _post_json

TOKEN = "e2e-token"
DEPTH_MM = 600.0  # the demo table is 900 x 600 mm
ANSWER_TIMEOUT_MS = 10_000
# The Sergent (a TD, 2 M = 200 mm of move a turn, 1 M = 100 mm) stands at (330, 300).
SERGENT, DESTINATION = "Sergent", (490.0, 300.0)
# A wood drawn across his way east: x 380-440, y 220-380.
WOOD_MM = [(380.0, 220.0), (440.0, 220.0), (440.0, 380.0), (380.0, 380.0)]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    # The demo table under the house rule terrain_cost: double, so that a wood costs a
    # move more (the book gives terrain no cost)
    config = replace(demo_config(), options={"unit_mm": 100, "terrain_cost": "double"})
    live = LiveTable(config, DemoSource(move_every_s=1e9))  # nobody walks: worked answers
    with serving(live) as base:
        yield base


@contextlib.contextmanager
def serving(live: LiveTable) -> Iterator[str]:
    """The live demo table behind a real uvicorn, once its seven figures have settled."""
    port = _free_port()
    config = uvicorn.Config(
        create_app(live, token=TOKEN), host="127.0.0.1", port=port, log_level="warning"
    )
    runner = uvicorn.Server(config)
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 30
    while True:
        try:
            state = _get_json(base + "api/state")
            if len(state["figures"]) == 7 and all(f["settled"] for f in state["figures"]):
                break
        except OSError:
            pass
        if time.monotonic() > deadline:
            pytest.fail("the demo table did not settle in 30 s")
        time.sleep(0.2)
    try:
        yield base
    finally:
        runner.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def page(server: str) -> Iterator[tuple[Any, list[str]]]:
    sync_playwright = _playwright()
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(
            viewport={"width": 1280, "height": 900}, locale="en-US", accept_downloads=True
        )
        tab = context.new_page()
        tab.on("pageerror", lambda error: errors.append(str(error)))
        tab.add_init_script("localStorage.setItem('arbitre.lang', 'en')")
        tab.add_init_script("localStorage.setItem('arbitre.camera', 'off')")
        tab.goto(f"{server}?token={TOKEN}", wait_until="domcontentloaded")
        tab.wait_for_selector('[data-testid="map-figure"]', timeout=15_000)
        try:
            yield tab, errors
        finally:
            browser.close()


def _screen(page: Any, x_mm: float, y_mm: float) -> tuple[float, float]:
    """Where a table point is on the screen (the map draws +y up)."""
    point: list[float] = page.evaluate(
        """([x, y]) => {
            const svg = document.querySelector('[data-testid="map"]');
            const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
            return [p.x, p.y];
        }""",
        [x_mm, DEPTH_MM - y_mm],
    )
    return point[0], point[1]


def _tap_table(page: Any, x_mm: float, y_mm: float) -> None:
    """Tap a table point: placed on the map when the tap lands (the page may have moved
    the map meanwhile: an answer redrawn above it, say), not when it is worked out."""
    x, y = _screen(page, x_mm, y_mm)
    corner = page.evaluate(
        """() => {
            const box = document.querySelector('[data-testid="map"]').getBoundingClientRect();
            return [box.left, box.top];
        }"""
    )
    page.locator('[data-testid="map"]').click(position={"x": x - corner[0], "y": y - corner[1]})


def _tap_figure(page: Any, figure_id: str) -> None:
    node = page.locator(f'[data-testid="map-figure"][data-id="{figure_id}"] .body')
    box = node.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def _wait_for_answer(page: Any, question: str) -> dict[str, str]:
    page.wait_for_function(
        """(q) => document.querySelector('[data-testid="result"]').dataset.question === q""",
        arg=question,
        timeout=ANSWER_TIMEOUT_MS,
    )
    panel: dict[str, str] = page.evaluate(
        """() => ({...document.querySelector('[data-testid="result"]').dataset,
                  headline: document.querySelector('[data-testid="result-headline"]').textContent,
                  details: document.querySelector('[data-testid="result-details"]').textContent})"""
    )
    # the page keeps a number and its unit together (a no-break space): read it plainly
    panel = {key: value.replace("\u00a0", " ") for key, value in panel.items()}
    return panel


def _ask_move(page: Any) -> dict[str, str]:
    page.click('[data-testid="clear"]')
    page.click('[data-testid="mode-move"]')
    _tap_figure(page, SERGENT)
    _wait_for_answer(page, "reach")
    _tap_table(page, *DESTINATION)
    return _wait_for_answer(page, "move")


def _ask_pair(page: Any, mode: str, first: str, second: str) -> dict[str, str]:
    page.click('[data-testid="clear"]')
    page.click(f'[data-testid="mode-{mode}"]')
    _tap_figure(page, first)
    _tap_figure(page, second)
    return _wait_for_answer(page, "fire" if mode == "fire" else "distance")


def _terrain_ids(server: str) -> list[str]:
    return [piece["id"] for piece in _get_json(server + "api/state")["terrain"]]


def _save_terrain(tab: Any) -> None:
    tab.click('[data-testid="terrain-save"]')
    tab.wait_for_selector('[data-testid="terrain-message"][data-kind="saved"]', timeout=5_000)


def _delete_piece_at(tab: Any, server: str, x_mm: float, y_mm: float) -> None:
    """Delete the piece under a table point and save: the demo's own terrain is left."""
    tab.click('[data-testid="terrain-edit"]')
    _tap_table(tab, x_mm, y_mm)
    tab.click('[data-testid="terrain-delete"]')
    _save_terrain(tab)
    assert _terrain_ids(server) == ["bois", "rocher"]


def test_a_wood_drawn_on_the_map_changes_the_answers_at_once(
    server: str, page: tuple[Any, list[str]]
) -> None:
    tab, errors = page
    # Before: 160 mm straight east over open ground, 1.60 M of his 2 M: he may go.
    before = _ask_move(tab)
    assert before["legal"] == "true", before
    assert "1.60 M" in before["details"], before
    # Choc Base 6 fire ignores terrain (only other groups block a line): the Sergent's
    # shot at the Capitaine (640, 330), 3.11 M away (over 3 M), stays refused for range
    # alone, before and after the wood.
    fire = _ask_pair(tab, "fire", SERGENT, "Capitaine")
    assert fire["allowed"] == "false" and "out of range" in fire["details"], fire

    tab.click('[data-testid="terrain-edit"]')
    tab.select_option('[data-testid="terrain-kind"]', "wood")
    tab.click('[data-testid="terrain-draw-area"]')
    for corner in WOOD_MM[:3]:
        _tap_table(tab, *corner)
    _tap_table(tab, 380.0, 360.0)  # the last corner a little low: dragged into place below
    tab.click('[data-testid="terrain-finish"]')
    # The corner's handle, found by where it is: the map is drawn anew with each state,
    # so the handle's element may be a fresh one by the time it is measured.
    tab.wait_for_selector('[data-testid="vertex"][data-index="3"]')
    tab.mouse.move(*_screen(tab, 380.0, 360.0))
    tab.mouse.down()
    tab.mouse.move(*_screen(tab, 380.0, 370.0), steps=3)
    tab.mouse.move(*_screen(tab, *WOOD_MM[3]), steps=3)
    tab.mouse.up()
    # A tap right after the drag counts (only a click the drag itself ends with would
    # not): on open ground it lets the piece go, on the wood it takes it again.
    _tap_table(tab, 700.0, 100.0)
    assert tab.is_disabled('[data-testid="terrain-delete"]')
    _tap_table(tab, 410.0, 300.0)
    assert "wood1" in tab.text_content('[data-testid="terrain-hint"]')
    _save_terrain(tab)
    assert "until the server stops" in tab.text_content('[data-testid="terrain-message"]')
    wood = _get_json(server + "api/state")["terrain"][-1]
    assert wood["id"] == "wood1" and wood["kind"] == "wood"
    for got, wanted in zip(wood["polygon_mm"], WOOD_MM, strict=True):
        assert math.dist(got, wanted) < 3, wood  # taps land within a pixel or two
    assert tab.locator('[data-testid="terrain"][data-id="wood1"]').count() == 1

    # After: his base (radius 12.5) is in the wood from x 367.5 to 452.5: straight
    # through, 75 mm of open ground and 85 mm at double cost make 245 mm; round either end
    # (the base clear of the wood at y 207.5 or 392.5) is longer still,
    # hypot(37.5, 92.5) + 85 + hypot(37.5, 92.5) = 284.6 mm. Over his 200 mm: he may not go.
    after = _ask_move(tab)
    assert after["legal"] == "false", after
    answer = _post_json(
        server + "api/ask",
        {"question": "move", "args": [SERGENT, str(DESTINATION[0]), str(DESTINATION[1])]},
    )
    assert answer["legal"] is False and answer["cost_mm"] == pytest.approx(245, abs=3)

    # Delete the wood again: the move is legal again.
    tab.click('[data-testid="terrain-edit"]')
    _tap_table(tab, 410.0, 300.0)
    assert "wood1" in tab.text_content('[data-testid="terrain-hint"]')
    tab.click('[data-testid="terrain-delete"]')
    _save_terrain(tab)
    assert _terrain_ids(server) == ["bois", "rocher"]
    assert _ask_move(tab)["legal"] == "true"
    assert not errors, f"errors in the page: {errors}"


def test_an_area_drawn_with_the_keyboard_has_the_corners_chosen(
    server: str, page: tuple[Any, list[str]]
) -> None:
    # No pointer for the corners: on the focused map the arrow keys move the corner to
    # come from the table's middle (450, 300), 5 mm a press or 25 with Shift, and Enter
    # adds it.
    tab, errors = page
    tab.click('[data-testid="terrain-edit"]')
    tab.select_option('[data-testid="terrain-kind"]', "difficult")
    tab.click('[data-testid="terrain-draw-area"]')
    tab.focus('[data-testid="map"]')
    for keys in (
        ["Shift+ArrowUp"],  # (450, 325)
        ["Shift+ArrowRight", "Shift+ArrowRight"],  # (500, 325)
        ["Shift+ArrowDown", "ArrowLeft"],  # (495, 300)
    ):
        for key in keys:
            tab.keyboard.press(key)
        tab.keyboard.press("Enter")
    hint = tab.text_content('[data-testid="terrain-hint"]') or ""
    assert "x 495.0, y 300.0" in hint and "(3 so far)" in hint, hint
    tab.click('[data-testid="terrain-finish"]')
    _save_terrain(tab)
    (piece,) = [p for p in _get_json(server + "api/state")["terrain"] if p["kind"] == "difficult"]
    assert piece["polygon_mm"][:3] == [[450.0, 325.0], [500.0, 325.0], [495.0, 300.0]]
    _delete_piece_at(tab, server, 485.0, 318.0)
    assert not errors, f"errors in the page: {errors}"


def test_a_saved_scene_loads_back_answers_questions_and_the_live_table_returns(
    server: str, page: tuple[Any, list[str]], tmp_path: Path
) -> None:
    tab, errors = page
    with tab.expect_download() as download:
        tab.click('[data-testid="scene-save"]')
    saved = tmp_path / "scene.yaml"
    download.value.save_as(saved)
    scene = yaml.safe_load(saved.read_text(encoding="utf-8"))
    assert len(scene["figures"]) == 7 and scene["ruleset"] == "choc-base-6"
    # What if the Sergent stood at (600, 250)? Then hypot(40, 80) = 89.4 mm from the
    # Capitaine (640, 330) instead of hypot(310, 30) = 311.4 mm; worked out below from
    # the Capitaine's measured position, which the scene keeps.
    sergent = next(f for f in scene["figures"] if f["id"] == SERGENT)
    capitaine = next(f for f in scene["figures"] if f["id"] == "Capitaine")
    sergent["x_mm"], sergent["y_mm"] = 600.0, 250.0
    what_if = tmp_path / "what-if.yaml"
    what_if.write_text(yaml.safe_dump(scene, allow_unicode=True), encoding="utf-8")
    tab.set_input_files('[data-testid="scene-file"]', str(what_if))
    tab.wait_for_selector('[data-testid="scene-banner"]:not([hidden])', timeout=5_000)
    assert "what-if.yaml" in tab.text_content('[data-testid="scene-banner"]')
    panel = _ask_pair(tab, "distance", SERGENT, "Capitaine")
    expected = math.hypot(capitaine["x_mm"] - 600.0, capitaine["y_mm"] - 250.0)
    assert float(panel["distanceMm"]) == pytest.approx(expected, abs=0.01)
    # The server's answer on the live table has not changed.
    live = _post_json(server + "api/ask", {"question": "distance", "args": [SERGENT, "Capitaine"]})
    assert live["distance_mm"] > expected + 100

    tab.click('[data-testid="scene-back"]')
    assert tab.locator('[data-testid="scene-banner"]').is_hidden()
    panel = _ask_pair(tab, "distance", SERGENT, "Capitaine")
    assert float(panel["distanceMm"]) == pytest.approx(live["distance_mm"], abs=0.5)
    assert not errors, f"errors in the page: {errors}"


EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _cells_drawn(path: str) -> list[list[tuple[float, float]]]:
    """The outlines of an SVG path made of ``M x y L x y ... Z`` pieces."""
    return [
        [(float(x), float(y)) for x, y in (p.split() for p in piece.split("L"))]
        for piece in path.replace("M", "").split("Z")
        if piece
    ]


def test_a_hex_scene_draws_its_hexes_where_the_rules_lay_them(
    page: tuple[Any, list[str]],
) -> None:
    # examples/cb6-hex-skirmish.yaml: pointy hexes of 50 mm, hex 0,0 centred on (25, 25),
    # so hex (3, 3) is centred on (25 + 50 x 3 + 25 x 3, 25 + 43.30 x 3) = (250, 154.90)
    # (the Indians stand in it); a pointy hex's corners are 50 / sqrt 3 = 28.87 mm from its
    # centre, one straight above it. On the 400 mm deep map (+y down) that centre is at
    # (250, 245.10) and that corner at (250, 216.23).
    tab, errors = page
    tab.set_input_files('[data-testid="scene-file"]', str(EXAMPLES / "cb6-hex-skirmish.yaml"))
    tab.wait_for_selector('[data-testid="scene-banner"]:not([hidden])', timeout=5_000)
    grid = tab.locator('[data-testid="map-grid"]')
    assert grid.get_attribute("data-kind") == "hex"
    cells = _cells_drawn(grid.get_attribute("d") or "")
    assert all(len(cell) == 6 for cell in cells)
    centres = [(sum(x for x, _ in c) / 6, sum(y for _, y in c) / 6) for c in cells]
    found = [
        c for c, (x, y) in zip(cells, centres, strict=True) if math.hypot(x - 250, y - 245.10) < 0.2
    ]
    assert len(found) == 1
    assert min(math.hypot(x - 250, y - 216.23) for x, y in found[0]) < 0.1
    # every hex drawn is one the rules count (its centre on the 600 x 400 table), a whole
    # number of steps from hex 0,0's centre (25, 375 on the map)
    for x, y in centres:
        assert -0.1 <= x <= 600.1 and -0.1 <= y <= 400.1
        r = (375 - y) / 43.301
        q = (x - 25) / 50 - r / 2
        assert abs(r - round(r)) < 0.01 and abs(q - round(q)) < 0.01
    tab.click('[data-testid="scene-back"]')
    assert tab.locator('[data-testid="map-grid"]').count() == 0  # the demo plays on open ground
    assert not errors, f"errors in the page: {errors}"


def test_a_long_thin_table_turned_grid_draws_every_cell_the_rules_count(
    page: tuple[Any, list[str]], tmp_path: Path
) -> None:
    # 20 m by 20 cm of 10 mm squares turned 45 degrees: 40,000 cells' worth of table,
    # whose box in the grid's own axes holds some 2 million cells. Every cell whose
    # centre is on the table is drawn: as many as the rules count.
    tab, errors = page
    scene = {
        "ruleset": "choc-base-6",
        "options": {"surface": "square", "square_mm": 10, "grid_rotation_deg": 45},
        "table": {"width_mm": 20000, "depth_mm": 200},
        "figures": [
            {"id": "a", "side": "x", "x_mm": 100, "y_mm": 100, "reference": True},
            {"id": "b", "side": "y", "x_mm": 19900, "y_mm": 100, "reference": True},
        ],
    }
    path = tmp_path / "long-table.yaml"
    path.write_text(yaml.safe_dump(scene))
    counted = len(grid_of(parse_scene(scene, source="test")).cells_and_centres()[0])
    assert 39_000 < counted < 41_000
    tab.set_input_files('[data-testid="scene-file"]', str(path))
    tab.wait_for_selector('[data-testid="scene-banner"]:not([hidden])', timeout=5_000)
    grid = tab.locator('[data-testid="map-grid"]')
    assert grid.count() == 1 and grid.get_attribute("data-cells") == str(counted)
    tab.click('[data-testid="scene-back"]')
    assert not errors, f"errors in the page: {errors}"


def _show_scene(tab: Any, path: Path, figures: str) -> None:
    """Load on the page a Choc Base 6 scene of a 900 x 600 mm table with ``figures``
    (YAML list items)."""
    path.write_text(
        "ruleset: choc-base-6\ntable: {width_mm: 900, depth_mm: 600}\nfigures:\n" + figures,
        encoding="utf-8",
    )
    tab.set_input_files('[data-testid="scene-file"]', str(path))
    tab.wait_for_selector('[data-testid="scene-banner"]:not([hidden])', timeout=5_000)


def test_figures_close_together_are_chosen_from_a_list(
    page: tuple[Any, list[str]], tmp_path: Path
) -> None:
    # A and B stand 15 mm apart, C 285 mm east of B. On this screen the 900 mm table
    # is about 560 px wide, so A and B are 9 px apart: a tap between them is a close
    # call and the page asks which; C alone is picked at once. B to C: 285 mm.
    tab, errors = page
    _show_scene(
        tab,
        tmp_path / "close.yaml",
        "  - {id: A, side: red, x_mm: 300, y_mm: 300}\n"
        "  - {id: B, side: red, x_mm: 315, y_mm: 300}\n"
        "  - {id: C, side: blue, x_mm: 600, y_mm: 300}\n",
    )
    tab.click('[data-testid="clear"]')
    tab.click('[data-testid="mode-distance"]')
    _tap_table(tab, 307.5, 300)
    chooser = tab.locator('[data-testid="chooser"]')
    chooser.wait_for(state="visible", timeout=5_000)
    offered = tab.locator('[data-testid="chooser-figure"]')
    assert sorted(offered.evaluate_all("(nodes) => nodes.map((n) => n.dataset.id)")) == ["A", "B"]
    tab.click('[data-testid="chooser-figure"][data-id="B"]')
    assert chooser.is_hidden()
    pressed = tab.locator('[data-testid="figure-button"][aria-pressed="true"]')
    assert pressed.evaluate_all("(nodes) => nodes.map((n) => n.dataset.id)") == ["B"]
    _tap_table(tab, 600, 300)
    panel = _wait_for_answer(tab, "distance")
    assert float(panel["distanceMm"]) == pytest.approx(285.0, abs=0.01)
    assert chooser.is_hidden()
    # Escape puts the chooser away, picking nobody.
    tab.click('[data-testid="clear"]')
    _tap_table(tab, 307.5, 300)
    chooser.wait_for(state="visible", timeout=5_000)
    tab.keyboard.press("Escape")
    assert chooser.is_hidden()
    assert pressed.count() == 0
    tab.click('[data-testid="scene-back"]')
    assert not errors, f"errors in the page: {errors}"


def test_a_control_that_hides_itself_hands_the_focus_on(
    page: tuple[Any, list[str]], tmp_path: Path
) -> None:
    # Used from the keyboard, "Back to the live table" disappears with the scene it
    # closes: the focus moves on to a control still shown (it fell to the page's body,
    # and the next Tab started again from the top).
    tab, errors = page
    _show_scene(
        tab,
        tmp_path / "two.yaml",
        "  - {id: A, side: red, x_mm: 300, y_mm: 300}\n"
        "  - {id: B, side: blue, x_mm: 600, y_mm: 300}\n",
    )
    back = tab.locator('[data-testid="scene-flag-back"]')
    back.focus()
    tab.keyboard.press("Enter")
    tab.wait_for_selector('[data-testid="scene-flag"]', state="hidden", timeout=5_000)
    tab.wait_for_function(
        "() => document.activeElement !== document.body"
        " && document.activeElement.offsetParent !== null",
        timeout=2_000,
    )
    focused = tab.evaluate(
        "() => [document.activeElement.dataset.testid,"
        " document.activeElement.offsetParent !== null]"
    )
    assert focused[1] is True and focused[0] != "scene-flag-back", focused
    assert not errors, f"errors in the page: {errors}"


def test_a_bad_scene_file_says_why_in_one_line(page: tuple[Any, list[str]], tmp_path: Path) -> None:
    tab, errors = page
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "ruleset: choc-base-6\ntable: {width_mm: 900, depth_mm: 600}\n"
        "figures: [{id: a, side: x, x_mm: 1500, y_mm: 10}]\n",
        encoding="utf-8",
    )
    tab.set_input_files('[data-testid="scene-file"]', str(bad))
    message = tab.locator('[data-testid="scene-message"][data-kind="refused"]')
    message.wait_for(timeout=5_000)
    text = message.text_content()
    assert "bad.yaml: figures[0].x_mm: 1500.0 is off the table" in text and "\n" not in text
    assert tab.locator('[data-testid="scene-banner"]').is_hidden()
    assert not errors, f"errors in the page: {errors}"


def test_the_token_leaves_the_address_bar_and_stays_for_the_tab(
    server: str, page: tuple[Any, list[str]]
) -> None:
    tab, errors = page
    # Opened as /?token=...: the address bar shows / alone, the settings stay open to it.
    assert tab.url == server
    assert tab.locator('[data-testid="settings"]').is_visible()
    tab.reload(wait_until="domcontentloaded")  # the token is kept for this tab
    tab.wait_for_selector('[data-testid="map-figure"]', timeout=15_000)
    assert tab.url == server
    tab.fill('[data-testid="unit-mm"]', "100")
    tab.click('[data-testid="settings-save"]')
    message = tab.locator('[data-testid="settings-message"]')
    message.wait_for(timeout=5_000)
    tab.wait_for_function(
        """() => document.querySelector('[data-testid="settings-message"]').textContent !== ''"""
    )
    assert "100" in message.text_content()  # saved: the server took the header's token
    # An inch: 25.4 mm (the field took whole numbers only, and "25,4" became 254). On
    # this English page a comma is refused rather than guessed ("1,000" could be a
    # thousand or one); a French page reads "25,4" as 25.4.
    shown = "document.querySelector('[data-testid=\"settings-message\"]').textContent"
    for written, unit_mm in (("25.4", 25.4), ("1,000", None), ("2 5", None), ("100", 100.0)):
        tab.evaluate(f"{shown} = ''")
        tab.fill('[data-testid="unit-mm"]', written)
        tab.click('[data-testid="settings-save"]')
        tab.wait_for_function(f"() => {shown} !== ''")
        if unit_mm is None:
            assert "such as 100 or 25.4" in message.text_content()
        else:
            assert _get_json(server + "api/state")["unit_mm"] == unit_mm
    assert not errors, f"errors in the page: {errors}"


def test_a_scene_shows_the_modes_its_rule_system_answers_and_a_short_move_is_asked(
    page: tuple[Any, list[str]],
) -> None:
    tab, errors = page
    examples = Path(__file__).resolve().parents[3] / "examples"
    # Confrontation has no fire nor move question: its buttons go, rather than a refusal.
    tab.set_input_files('[data-testid="scene-file"]', str(examples / "confrontation-melee.yaml"))
    tab.wait_for_selector('[data-testid="scene-banner"]:not([hidden])', timeout=5_000)
    assert tab.locator('[data-testid="mode-fire"]').is_hidden()
    assert tab.locator('[data-testid="mode-move"]').is_hidden()
    assert tab.locator('[data-testid="mode-distance"]').is_visible()
    # The sticky bar says a scene file is shown, not the camera, wherever the page is.
    flag = tab.locator('[data-testid="scene-flag"]')
    assert flag.is_visible() and "confrontation-melee.yaml" in flag.text_content()
    # Its melees stand base to base: no two names shown on the map cover each other.
    covered = tab.evaluate(
        """() => {
            const boxes = [...document.querySelectorAll('[data-testid="map-figure"] .label')]
                .filter((l) => l.style.visibility !== "hidden")
                .map((l) => l.getBoundingClientRect());
            return boxes.some((a, i) => boxes.slice(i + 1).some((b) =>
                a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom));
        }"""
    )
    assert covered is False
    # M.U.S.G. has both. orc-chief walks 4 pas (101.6 mm): a tap 22 px beside it, well
    # inside the shaded area, asks a move there; it no longer takes the question back.
    tab.set_input_files('[data-testid="scene-file"]', str(examples / "musg-skirmish.yaml"))
    tab.wait_for_function(
        """() => !document.querySelector('[data-testid="mode-fire"]').hidden""", timeout=5_000
    )
    tab.click('[data-testid="mode-move"]')
    _tap_figure(tab, "orc-chief")
    _wait_for_answer(tab, "reach")
    body = tab.locator('[data-testid="map-figure"][data-id="orc-chief"] .body').bounding_box()
    tab.mouse.click(body["x"] + body["width"] / 2 + 22, body["y"] + body["height"] / 2)
    assert _wait_for_answer(tab, "move")["question"] == "move"
    tab.click('[data-testid="scene-flag-back"]')
    assert flag.is_hidden() and tab.locator('[data-testid="mode-fire"]').is_visible()
    # MBT's rectangular bases are drawn as they stand, their front edge marked: the
    # cavalry's 40 x 20 mm base faces 90° (up the table), so its front runs 40 mm
    # across, level on the map, 10 mm above the centre.
    tab.set_input_files('[data-testid="scene-file"]', str(examples / "mbt-battle.yaml"))
    tab.wait_for_selector('[data-testid="map-figure"][data-id="cavaliers"].based', timeout=5_000)
    front = tab.evaluate(
        """() => {
            const n = document.querySelector('[data-testid="map-figure"][data-id="cavaliers"]');
            const l = n.querySelector('.front');
            return ["x1", "y1", "x2", "y2"].map((k) => Number(l.getAttribute(k)));
        }"""
    )
    assert abs(front[2] - front[0]) == pytest.approx(40.0) and front[1] == front[3] == -10.0
    tab.click('[data-testid="scene-flag-back"]')
    assert not errors, f"errors in the page: {errors}"
