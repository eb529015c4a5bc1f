"""The web page in a real browser: Debian's chromium, headless, driven by Playwright.

The server runs the demo table (``arbitre serve --demo``) in a subprocess. The test
taps figures on the page's map as a player would, reads the answers the page shows
and checks them against ``/api/state`` and ``POST /api/ask``.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from arbitre.api.i18n import catalogue

ROOT = Path(__file__).resolve().parents[3]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
START_TIMEOUT_S = 40.0
ANSWER_TIMEOUT_MS = 10_000
SETTLE_TIMEOUT_S = 10.0
TOLERANCE_MM = 0.5
# The page's colours for an allowed and a refused shot (style.css --allowed, --refused).
GREEN = (30, 158, 62)
RED = (214, 40, 40)


# ---- the server ---------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return json.loads(reply.read())


def _post_json(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.loads(reply.read())


def _wait_until_serving(base: str, process: subprocess.Popen[str]) -> None:
    """Until the demo table answers with figures; fails with the server's output if it dies."""
    deadline = time.monotonic() + START_TIMEOUT_S
    last = "no answer"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = process.stdout.read() if process.stdout else ""
            pytest.fail(f"arbitre serve --demo exited with {process.returncode}:\n{output}")
        try:
            health = _get_json(base + "api/health")
            if health.get("status") == "ok" and health.get("figures", 0) >= 2:
                return
            last = json.dumps(health)
        except (urllib.error.URLError, ConnectionError, ValueError) as error:
            last = str(error)
        time.sleep(0.2)
    pytest.fail(f"arbitre serve --demo not ready after {START_TIMEOUT_S:g} s: {last}")


@contextlib.contextmanager
def _serving(arguments: list[str]) -> Iterator[str]:
    """``arbitre serve ARGUMENTS`` on a free port, until the block ends: its address."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "arbitre", "serve", *arguments, "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}/"
    try:
        _wait_until_serving(base, process)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout:
            process.stdout.close()


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with _serving(["--demo"]) as base:
        yield base


# ---- the browser --------------------------------------------------------------------


def _playwright() -> Any:
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} not found: the browser test needs Debian's chromium "
            "(apt-get install -y chromium)",
            pytrace=False,
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("playwright for Python is missing (pip install playwright)", pytrace=False)
    return sync_playwright


@contextmanager
def launched_chromium() -> Iterator[Any]:
    """Debian's chromium, headless, driven by Playwright; closed when the block ends."""
    sync_playwright = _playwright()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def browser_page(server: str) -> Iterator[tuple[Any, list[str]]]:
    sync_playwright = _playwright()
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.add_init_script("localStorage.setItem('arbitre.lang', 'en')")
        # The camera stream never ends, so the page is ready when its DOM is.
        page.goto(server, wait_until="domcontentloaded")
        page.wait_for_selector('[data-testid="map-figure"]', timeout=15_000)
        try:
            yield page, errors
        finally:
            browser.close()


def _tap_on_map(page: Any, figure_id: str) -> None:
    """Tap the centre of a figure's circle on the map, as a finger would."""
    centre = page.evaluate(
        """(id) => {
            const node = [...document.querySelectorAll('[data-testid="map-figure"]')]
                .find((n) => n.dataset.id === id);
            if (!node) return null;
            const box = node.querySelector('.body').getBoundingClientRect();
            return [box.x + box.width / 2, box.y + box.height / 2];
        }""",
        figure_id,
    )
    assert centre is not None, f"figure {figure_id!r} is not drawn on the map"
    page.mouse.click(*centre)


def _ask_on_page(page: Any, mode: str, first: str, second: str) -> dict[str, str]:
    """Pick a mode, tap two figures on the map, wait for the answer; the panel's data."""
    page.click(f'[data-testid="mode-{mode}"]')
    question = "distance" if mode == "distance" else "fire"
    _tap_on_map(page, first)
    _tap_on_map(page, second)
    page.wait_for_function(
        """(question) => document.querySelector('[data-testid="result"]')
               .dataset.question === question""",
        arg=question,
        timeout=ANSWER_TIMEOUT_MS,
    )
    panel: dict[str, str] = page.evaluate(
        """() => ({...document.querySelector('[data-testid="result"]').dataset,
                  headline: document.querySelector('[data-testid="result-headline"]')
                      .textContent})"""
    )
    return panel


def _positions(state: dict[str, Any], ids: tuple[str, ...]) -> dict[str, tuple[float, float]]:
    return {f["id"]: (f["x_mm"], f["y_mm"]) for f in state["figures"] if f["id"] in ids}


def _moved(before: dict[str, Any], after: dict[str, Any], ids: tuple[str, ...]) -> bool:
    """Whether one of the figures walked between two states (the demo's figures walk)."""
    start, end = _positions(before, ids), _positions(after, ids)
    settled = all(f["settled"] for f in after["figures"] if f["id"] in ids)
    return not settled or any(math.dist(start[i], end[i]) > TOLERANCE_MM for i in ids)


def _still_figures(server: str) -> list[dict[str, Any]]:
    """The figures standing still, once at least two do (a walk settles within seconds)."""
    deadline = time.monotonic() + SETTLE_TIMEOUT_S
    while True:
        figures = [
            f for f in _get_json(server + "api/state")["figures"] if f["settled"] and not f["stale"]
        ]
        if len(figures) >= 2 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert len(figures) >= 2, f"the demo table shows too few still figures: {figures}"
    return figures


def _two_settled_figures(server: str) -> tuple[str, str]:
    """Two still figures of different sides (a shooter and a target for the fire test)."""
    figures = _still_figures(server)
    first = next((f for f in figures if f.get("type") == "TD"), figures[0])
    others = [f for f in figures if f["side"] != first["side"]] or [
        f for f in figures if f["id"] != first["id"]
    ]
    second = min(
        others, key=lambda f: math.dist((f["x_mm"], f["y_mm"]), (first["x_mm"], first["y_mm"]))
    )
    return first["id"], second["id"]


# ---- the tests ----------------------------------------------------------------------

SHOWN_DISTANCE = re.compile(r"([\d.,]+)\s+(\S+)\s+\(([\d.,]+)\s*mm\)")


def _number(text: str) -> float:
    return float(text.replace(",", "."))


def _check_distance(page: Any, server: str, ids: tuple[str, str]) -> tuple[bool, str]:
    """Measure on the page; (agrees, why not) against /api/state and POST /api/ask."""
    before = _get_json(server + "api/state")
    panel = _ask_on_page(page, "distance", *ids)
    after = _get_json(server + "api/state")
    answer = _post_json(server + "api/ask", {"question": "distance", "args": list(ids)})
    found = SHOWN_DISTANCE.search(panel["headline"])
    assert found, f"no distance in the page's answer: {panel['headline']!r}"
    shown_units, unit, shown_mm = _number(found[1]), found[2], _number(found[3])
    where = _positions(after, ids)
    from_state = math.dist(where[ids[0]], where[ids[1]])
    problems = []
    if abs(shown_mm - from_state) > TOLERANCE_MM:
        problems.append(f"shown {shown_mm} mm, /api/state positions give {from_state:.2f} mm")
    if abs(shown_mm - answer["distance_mm"]) > TOLERANCE_MM:
        problems.append(f"shown {shown_mm} mm, POST /api/ask gives {answer['distance_mm']} mm")
    if abs(shown_units - answer["distance_units"]) > 0.01 or unit != answer["unit"]:
        problems.append(
            f"shown {shown_units} {unit}, POST /api/ask gives "
            f"{answer['distance_units']} {answer['unit']}"
        )
    if problems and not _moved(before, after, ids):
        pytest.fail(f"{panel['headline']!r}: " + "; ".join(problems))
    return not problems, "; ".join(problems)


def test_distance_between_two_tapped_figures_is_the_tables(
    server: str, browser_page: tuple[Any, list[str]]
) -> None:
    page, errors = browser_page
    for _ in range(2):  # a figure may walk while it is measured: then once more
        ids = _two_settled_figures(server)
        page.click('[data-testid="clear"]')
        agrees, why = _check_distance(page, server, ids)
        if agrees:
            break
    else:
        pytest.fail(f"the distance shown disagrees twice, figures walking: {why}")
    line = page.locator('[data-testid="map"] [data-testid="answer-line"]')
    assert line.count() == 1 and line.get_attribute("data-kind") == "distance"
    assert not errors, f"errors in the page: {errors}"


def test_no_two_names_shown_on_the_camera_view_cover_each_other(
    browser_page: tuple[Any, list[str]],
) -> None:
    # Five figures 12 image pixels apart in a row, drawn by the page's own code on a
    # camera view 640 px wide: as on the map, every name is shown (off its figure, with a
    # leader line, where there is no room beside it), no two cover each other, and the
    # picked figure's is whole.
    page, errors = browser_page
    found = page.evaluate(
        """async () => {
            const draw = await import("./static/draw.js");
            const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
            svg.setAttribute("style", "position: fixed; left: 0; top: 0; width: 640px");
            document.body.append(svg);
            const view = draw.createCamera(svg);
            const figures = [0, 1, 2, 3, 4].map((k) => ({
                id: `fig${k}`, name: `Figure ${k}`, side: "a", stale: false, settled: true,
                image_px: [600 + 12 * k, 300],
            }));
            const overlay = {picks: ["fig3"], blocked: new Set(), cover: new Set(), line: null};
            draw.renderCamera(view, {image_size: [1280, 720], figures}, () => "#888", overlay);
            const labels = [...svg.querySelectorAll(".label")];
            const shown = labels.filter((l) => l.style.visibility !== "hidden");
            const boxes = shown.map((l) => l.getBoundingClientRect());
            const covered = boxes.some((a, i) => boxes.slice(i + 1).some((b) =>
                a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom));
            const names = shown.map((l) => l.textContent);
            svg.remove();
            return {covered, names, all: labels.length};
        }"""
    )
    assert found["all"] == 5 and found["covered"] is False, found
    assert "Figure 3" in found["names"] and len(found["names"]) == 5, found
    assert not errors, f"errors in the page: {errors}"


def test_on_a_wide_screen_the_answer_sits_right_under_the_map(
    server: str, browser_page: tuple[Any, list[str]]
) -> None:
    page, _ = browser_page

    def box(selector: str) -> dict[str, float]:
        found = page.locator(selector).bounding_box()
        assert found is not None, f"{selector} is not shown"
        return dict(found)

    table = box(".map-view")
    answer = box('[data-testid="result"]')
    camera = box(".camera-view")
    figures = box(".figures")
    # Two columns at 1280 px: the map and the answer on the left, the camera and the
    # figure list on the right ...
    assert camera["x"] >= table["x"] + table["width"]
    assert figures["x"] >= table["x"] + table["width"]
    # ... and the answer right under the map (the sections are 0.75 rem = 12 px apart),
    # not pushed down below the camera and the figure list beside it.
    assert answer["x"] == pytest.approx(table["x"], abs=1)
    assert 0 <= answer["y"] - (table["y"] + table["height"]) <= 16


@contextlib.contextmanager
def _phone(server: str, desktop: Any, width: int, height: int) -> Iterator[Any]:
    """The page on a touch-only phone of ``width`` x ``height`` px, in the same browser;
    fails if the page raised an error."""
    errors: list[str] = []
    context = desktop.context.browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=True, has_touch=True, locale="en-US"
    )
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.add_init_script("localStorage.setItem('arbitre.lang', 'en')")
        page.goto(server, wait_until="domcontentloaded")
        page.wait_for_selector('[data-testid="map-figure"]', timeout=15_000)
        yield page
    finally:
        context.close()
    assert not errors, f"errors in the page: {errors}"


def test_on_a_phone_turned_sideways_the_map_and_the_answer_are_seen_together(
    server: str, browser_page: tuple[Any, list[str]]
) -> None:
    # An 844 x 390 phone held sideways: one screen holds the map and, beside it, the
    # answer to a question asked on it.
    with _phone(server, browser_page[0], 844, 390) as page:
        first, second = _two_settled_figures(server)
        for figure in (first, second):
            page.tap(f'[data-testid="figure-button"][data-id="{figure}"]')
        page.wait_for_function(
            """() => document.querySelector('[data-testid="result"]')
                   .dataset.question === 'distance'""",
            timeout=ANSWER_TIMEOUT_MS,
        )
        # The title bar scrolled away; the mode buttons stay at the top.
        title = page.locator("header.top").bounding_box()
        assert title is not None
        page.evaluate("(y) => window.scrollTo(0, y)", title["height"])
        modes = page.locator("nav.modes").bounding_box()
        table = page.locator('[data-testid="map"]').bounding_box()
        answer = page.locator('[data-testid="result"]').bounding_box()
        assert modes is not None and table is not None and answer is not None
        assert answer["x"] >= table["x"] + table["width"]  # side by side
        below = modes["y"] + modes["height"]
        assert table["y"] >= below and table["y"] + table["height"] <= 390  # the whole map
        assert below <= answer["y"] < 390 - 40  # and the answer's first lines


def _stroke_colour(page: Any) -> tuple[int, int, int]:
    stroke = page.evaluate(
        """() => getComputedStyle(document.querySelector(
               '[data-testid="map"] [data-testid="answer-line"]')).stroke"""
    )
    found = re.match(r"rgba?\((\d+),\s*(\d+),\s*(\d+)", stroke)
    assert found, f"the line's colour is not an rgb() colour: {stroke!r}"
    return int(found[1]), int(found[2]), int(found[3])


def test_sideways_a_scene_file_leaves_the_map_most_of_the_screen(
    server: str, browser_page: tuple[Any, list[str]]
) -> None:
    # The same phone with a scene file shown: its flag shares the hint's row, and the
    # map fills the screen below the sticky bar (214 px of 390 when the flag took a row
    # of its own and the map's height was reckoned for the tallest bar).
    examples = ROOT / "examples"
    with _phone(server, browser_page[0], 844, 390) as page:
        page.set_input_files('[data-testid="scene-file"]', str(examples / "cb6-skirmish.yaml"))
        page.wait_for_selector('[data-testid="scene-flag"]:not([hidden])', timeout=5_000)
        title = page.locator("header.top").bounding_box()
        assert title is not None
        page.evaluate("(y) => window.scrollTo(0, y)", title["height"])
        bar = page.locator("nav.modes").bounding_box()
        flag = page.locator('[data-testid="scene-flag"]').bounding_box()
        hint = page.locator('[data-testid="hint"]').bounding_box()
        table = page.locator('[data-testid="map"]').bounding_box()
        assert bar is not None and flag is not None and hint is not None and table is not None
        assert flag["y"] < hint["y"] + hint["height"] and hint["y"] < flag["y"] + flag["height"]
        assert table["y"] >= bar["y"] + bar["height"] and table["y"] + table["height"] <= 390
        assert table["height"] >= 250


def _view_box(page: Any) -> list[float]:
    box: str = page.get_attribute('[data-testid="map"]', "viewBox")
    return [float(v) for v in box.split()]


def test_the_map_zooms_on_the_figure_picked_and_drags_without_asking(
    browser_page: tuple[Any, list[str]],
) -> None:
    # The skirmish scene (1200 x 900 mm, still figures): sergent (560, 520) and v4
    # (590, 550) of the greens stand 42 mm apart, a finger's width on the whole map.
    page, errors = browser_page
    page.set_input_files('[data-testid="scene-file"]', str(ROOT / "examples/cb6-skirmish.yaml"))
    page.wait_for_selector('[data-testid="scene-flag"]:not([hidden])', timeout=5_000)
    try:
        page.click('[data-testid="mode-distance"]')
        whole = _view_box(page)
        assert page.is_disabled('[data-testid="map-zoom-out"]')
        # The buttons share the title's row, above the map: over its corner they hid a
        # figure standing there, and took its taps.
        buttons = page.locator('[data-testid="map-zoom-in"]').bounding_box()
        table = page.locator('[data-testid="map"]').bounding_box()
        assert buttons is not None and table is not None
        assert buttons["y"] + buttons["height"] <= table["y"]
        page.click('[data-testid="figure-button"][data-id="sergent"]')
        page.click('[data-testid="map-zoom-in"]')
        page.click('[data-testid="map-zoom-in"]')
        box = _view_box(page)
        # Four times closer: a quarter of the width, centred on sergent (560, 900 - 520
        # on the map, whose y runs down).
        assert box[2] == pytest.approx(whole[2] / 4) and box[3] == pytest.approx(whole[3] / 4)
        assert box[0] + box[2] / 2 == pytest.approx(560.0)
        assert box[1] + box[3] / 2 == pytest.approx(380.0)
        assert not page.is_disabled('[data-testid="map-zoom-whole"]')
        # Taps land on the figures shown: v4 is the second pick, and the distance asked.
        _tap_on_map(page, "v4")
        page.wait_for_function(
            """() => document.querySelector('[data-testid="result"]').dataset.question
                   === 'distance'""",
            timeout=ANSWER_TIMEOUT_MS,
        )
        picked = '[data-testid="map-figure"][data-id="{}"]'
        assert page.get_attribute(picked.format("v4"), "data-pick") == "2"
        headline = page.text_content('[data-testid="result-headline"]')
        # A drag moves the map 120 px along (in map units, 120 px over the pixels per
        # unit) and asks nothing: the picks and the answer stay.
        svg = page.locator('[data-testid="map"]').bounding_box()
        assert svg is not None
        per_unit = svg["width"] / box[2]
        x, y = svg["x"] + svg["width"] / 2, svg["y"] + svg["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x - 60, y, steps=4)
        page.mouse.move(x - 120, y, steps=4)
        page.mouse.up()
        moved = _view_box(page)
        assert moved[0] - box[0] == pytest.approx(120 / per_unit, rel=0.02)
        assert moved[1] == pytest.approx(box[1]) and moved[2] == pytest.approx(box[2])
        assert page.get_attribute(picked.format("v4"), "data-pick") == "2"
        assert page.text_content('[data-testid="result-headline"]') == headline
        # "0" on the focused map, as the button, shows the whole table again.
        page.focus('[data-testid="map"]')
        page.keyboard.press("0")
        assert _view_box(page) == pytest.approx(whole)
        assert page.is_disabled('[data-testid="map-zoom-whole"]')
    finally:
        page.click('[data-testid="scene-flag-back"]')
    assert not errors, f"errors in the page: {errors}"


def test_fire_line_is_green_when_allowed_and_red_when_refused(
    server: str, browser_page: tuple[Any, list[str]], tmp_path: Path
) -> None:
    page, errors = browser_page
    for attempt in range(2):
        shooter, target = _two_settled_figures(server)
        before = _get_json(server + "api/state")
        page.click('[data-testid="clear"]')
        panel = _ask_on_page(page, "fire", shooter, target)
        answer = _post_json(server + "api/ask", {"question": "fire", "args": [shooter, target]})
        after = _get_json(server + "api/state")
        if panel["allowed"] == str(answer["allowed"]).lower():
            break
        if attempt or not _moved(before, after, (shooter, target)):
            pytest.fail(
                f"the page says allowed={panel['allowed']}, POST /api/ask says "
                f"{answer['allowed']} ({answer['message']})"
            )
    allowed = panel["allowed"] == "true"
    assert _stroke_colour(page) == (GREEN if allowed else RED)
    uncertain = panel["certain"] == "false"
    assert page.locator('[data-testid="too-close"]').is_visible() == uncertain
    expected = "may fire at" if allowed else "may not fire at"
    assert expected in panel["headline"], panel["headline"]
    _screenshot(page, tmp_path)
    assert not errors, f"errors in the page: {errors}"


def test_french_at_the_click_of_a_button(server: str, browser_page: tuple[Any, list[str]]) -> None:
    french = catalogue()["fr"]
    page, errors = browser_page
    toggle = page.locator('[data-testid="lang-toggle"]')
    toggle.click()
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.locator('[data-testid="mode-fire"]').text_content() == "Tir"
    # An answer in French: the catalogue's words, a decimal comma.
    page.click('[data-testid="mode-distance"]')
    assert page.locator('[data-testid="hint"]').text_content() == french["hint.distance.0"]
    panel = _ask_on_page(page, "distance", *_two_settled_figures(server))
    found = SHOWN_DISTANCE.search(panel["headline"])
    assert found and "," in found[1] + found[3] and "." not in found[1] + found[3], panel
    assert " : " in panel["headline"], panel["headline"]
    details = page.locator('[data-testid="result-details"] li').all_text_contents()
    assert details and details[0].startswith(french["detail.mode"].split("{")[0]), details
    toggle.click()
    assert page.locator('[data-testid="mode-fire"]').text_content() == "Fire"
    assert not errors, f"errors in the page: {errors}"


def test_the_rules_notes_are_worded_in_french_too(browser_page: tuple[Any, list[str]]) -> None:
    # The skirmish scene: chef's alpins shoot at sergent's greens 3.41 M away, beyond 3 M,
    # where only the sniper's PI counts; the rules' note comes in French.
    french = catalogue()["fr"]
    page, errors = browser_page
    page.set_input_files('[data-testid="scene-file"]', str(ROOT / "examples/cb6-skirmish.yaml"))
    page.wait_for_selector('[data-testid="scene-flag"]:not([hidden])', timeout=5_000)
    toggle = page.locator('[data-testid="lang-toggle"]')
    toggle.click()
    try:
        _ask_on_page(page, "fire", "chef", "sergent")
        details = page.locator('[data-testid="result-details"] li').all_text_contents()
        note = french["warning.snipers_only"].replace("{units}", "3").replace("{unit}", "M")
        wanted = french["detail.warnings"].replace("{text}", note)
        assert [d.replace("\u00a0", " ") for d in details][-1] == wanted, details
    finally:
        toggle.click()
        page.click('[data-testid="scene-flag-back"]')
    assert not errors, f"errors in the page: {errors}"


def _screenshot(page: Any, tmp_path: Path) -> None:
    """Save the page as shown: in the test's tmp dir, and where ARBITRE_SCREENSHOT says."""
    shot = tmp_path / "page.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    wanted = os.environ.get("ARBITRE_SCREENSHOT")
    if wanted:
        Path(wanted).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, wanted)


def test_on_a_phone_a_tap_picks_a_figure_and_move_mode_draws_where_it_may_go(
    server: str, browser_page: tuple[Any, list[str]]
) -> None:
    # A 390 x 844 phone, touch only, in the same browser.
    with _phone(server, browser_page[0], 390, 844) as page:
        # One column: the map takes the phone's width (less the page's margins).
        box = page.locator('[data-testid="map"]').bounding_box()
        assert box is not None and box["width"] > 390 * 0.8
        mover, _ = _two_settled_figures(server)
        page.tap('[data-testid="mode-move"]')
        centre = page.evaluate(
            """(id) => {
                const node = [...document.querySelectorAll('[data-testid="map-figure"]')]
                    .find((n) => n.dataset.id === id);
                const b = node.querySelector('.body').getBoundingClientRect();
                return [b.x + b.width / 2, b.y + b.height / 2];
            }""",
            mover,
        )
        page.touchscreen.tap(*centre)
        page.wait_for_selector('[data-testid="map"] [data-testid="reach"]', timeout=10_000)
        assert page.locator('[data-testid="result"]').get_attribute("data-question") == "reach"
        # A tap towards the middle of the map, clear of the figure's own (finger-sized)
        # tap target, asks for a move there.
        middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        away = (middle[0] - centre[0], middle[1] - centre[1])
        norm = math.hypot(*away) or 1.0
        page.touchscreen.tap(centre[0] + 45 * away[0] / norm, centre[1] + 45 * away[1] / norm)
        page.wait_for_function(
            """() => document.querySelector('[data-testid="result"]')
                   .dataset.question === 'move'""",
            timeout=ANSWER_TIMEOUT_MS,
        )
        legal = page.locator('[data-testid="result"]').get_attribute("data-legal")
        assert legal in ("true", "false")


def test_a_move_destination_can_be_chosen_with_the_keyboard(
    server: str, browser_page: tuple[Any, list[str]]
) -> None:
    # No pointer: the mover is picked from the figure list with Enter, then on the map the
    # arrow keys move the destination (5 mm a press, 25 mm with Shift) and Enter asks.
    page, errors = browser_page
    mover, _ = _two_settled_figures(server)
    page.click('[data-testid="mode-move"]')
    page.focus(f'[data-testid="figure-button"][data-id="{mover}"]')
    page.keyboard.press("Enter")
    page.wait_for_selector('[data-testid="map"] [data-testid="reach"]', timeout=10_000)
    start = next(f for f in _get_json(server + "api/state")["figures"] if f["id"] == mover)
    page.focus('[data-testid="map"]')

    def destination() -> tuple[float, float]:
        hint = page.locator('[data-testid="hint"]').text_content() or ""
        found = re.search(r"x (-?\d+(?:\.\d+)?), y (-?\d+(?:\.\d+)?)", hint)
        assert found, hint
        return float(found[1]), float(found[2])

    page.keyboard.press("ArrowRight")  # from the mover, 5 mm right
    x0, y0 = destination()
    assert math.dist((x0 - 5.0, y0), (start["x_mm"], start["y_mm"])) < 1.0
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Shift+ArrowUp")
    # One more step right and one leap up: x + 5 mm, y + 25 mm (the table's y runs up).
    x, y = destination()
    assert (x, y) == pytest.approx((x0 + 5.0, y0 + 25.0), abs=0.051)
    page.keyboard.press("Enter")
    page.wait_for_function(
        """() => document.querySelector('[data-testid="result"]').dataset.question === 'move'""",
        timeout=ANSWER_TIMEOUT_MS,
    )
    details = (page.locator('[data-testid="result-details"]').text_content() or "").replace(
        "\xa0", " "
    )
    assert f"x {x:.1f} mm, y {y:.1f} mm" in details, details
    page.click('[data-testid="clear"]')
    assert not errors


def test_a_knocked_camera_is_said_on_the_page(browser_page: tuple[Any, list[str]]) -> None:
    """The state says ``camera_moved`` for 3 s after the camera was knocked (see
    tests/api/live/test_table.py): here the server's messages are passed on to a new
    tab with that flag set, and its status line says so, in English and in French."""
    page, _ = browser_page

    def knocked(message: str | bytes) -> str | bytes:
        if isinstance(message, bytes):
            return message
        state = json.loads(message)
        if isinstance(state, dict) and "figures" in state:
            state["camera_moved"] = True
        return json.dumps(state)

    def relay(socket: Any) -> None:
        server = socket.connect_to_server()
        server.on_message(lambda message: socket.send(knocked(message)))
        socket.on_message(lambda message: server.send(message))

    tab = page.context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.route_web_socket(re.compile(r".*/api/ws.*"), relay)
    tab.add_init_script("localStorage.setItem('arbitre.lang', 'en')")
    words = catalogue()
    try:
        tab.goto(page.url, wait_until="domcontentloaded")
        assert words["en"]["status.moved"] == "camera moved: re-measuring the table"
        # The status line may show before the first state has come through the relay:
        # wait for the words rather than read them once.
        said = """(said) => (document.querySelector('[data-testid="source-detail"]')
            ?.textContent ?? '').includes(said)"""
        tab.wait_for_function(said, arg=words["en"]["status.moved"], timeout=15_000)
        tab.click('[data-testid="lang-toggle"]')
        tab.wait_for_function(said, arg=words["fr"]["status.moved"], timeout=5_000)
    finally:
        tab.close()
    assert not errors, f"errors in the page: {errors}"
