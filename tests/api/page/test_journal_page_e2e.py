"""The page's Journal view in a real browser (Debian's chromium, headless): the evening's
questions listed newest first and filtered by figure, one opened with its answer, its
picture and the map as they were, and the slider replaying the settled states.

The server runs the demo table with a journal (``arbitre serve --demo --journal PATH``),
whose figures walk every 8 s: the map shown from the journal differs from the live one.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.page.test_page_e2e import launched_chromium

ROOT = Path(__file__).resolve().parents[3]
START_TIMEOUT_S = 40.0
WALK_TIMEOUT_S = 30.0
TIMEOUT_MS = 15_000


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return json.loads(reply.read())


def _ask(base: str, question: str, *args: str) -> Any:
    body = json.dumps({"question": question, "args": list(args)}).encode()
    request = urllib.request.Request(
        base + "api/ask", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``arbitre serve --demo --journal`` on a free port, three questions asked: its
    address with the start-up token (``?token=...``)."""
    journal = tmp_path_factory.mktemp("journal") / "journal.sqlite"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "arbitre", "serve", "--demo", "--journal", str(journal)]
        + ["--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}/"
    try:
        token = ""
        while process.stdout and not token:  # the start-up lines come before the server
            line = process.stdout.readline()
            assert line, "serve printed no token"
            token = line.split("?token=")[1].strip() if "?token=" in line else ""
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if process.poll() is not None:
                pytest.fail(f"serve exited: {process.stdout.read() if process.stdout else ''}")
            try:
                if _get(base + "api/health").get("figures", 0) >= 7:
                    break
            except (urllib.error.URLError, ConnectionError, ValueError):
                pass
            assert time.monotonic() < deadline, "the demo table gave no figures in time"
            time.sleep(0.2)
        _ask(base, "distance", "alpins", "verts")
        _ask(base, "fire", "alpins", "verts")
        _ask(base, "reach", "cavalier")
        yield f"{base}?token={token}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout:
            process.stdout.close()


def _map_positions(page: Any) -> dict[str, tuple[float, float]]:
    """Where the map draws each figure, in map units: (x_mm, depth_mm - y_mm)."""
    drawn: dict[str, list[float]] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('[data-testid="map-figure"]')]
            .map((node) => [node.dataset.id, node.getAttribute('transform')
                .match(/translate\\(([-\\d.]+) ([-\\d.]+)\\)/).slice(1).map(Number)]))"""
    )
    return {name: (x, y) for name, (x, y) in drawn.items()}


def _drawn_as(scene: dict[str, Any]) -> dict[str, tuple[float, float]]:
    depth = scene["table"]["depth_mm"]
    return {f["id"]: (f["x_mm"], depth - f["y_mm"]) for f in scene["figures"]}


def _same_places(page: Any, scene: dict[str, Any]) -> bool:
    drawn, wanted = _map_positions(page), _drawn_as(scene)
    return set(drawn) == set(wanted) and all(
        abs(drawn[k][0] - wanted[k][0]) < 0.01 and abs(drawn[k][1] - wanted[k][1]) < 0.01
        for k in wanted
    )


def _wait_for_places(page: Any, scene: dict[str, Any]) -> None:
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not _same_places(page, scene):
        assert time.monotonic() < deadline, (_map_positions(page), _drawn_as(scene))
        time.sleep(0.1)


def test_the_journal_view_lists_opens_and_replays_the_evening(server: str) -> None:
    page_url, server = server, server.split("?")[0]
    # a figure walks 8 s after the start: once it has come to rest, two settled states
    deadline = time.monotonic() + WALK_TIMEOUT_S
    while len(_get(server + "api/journal/states")["states"]) < 2:
        assert time.monotonic() < deadline, "no figure came to rest again"
        time.sleep(0.5)
    asked = [_get(server + f"api/journal/{k}") for k in (1, 2, 3)]
    states = _get(server + "api/journal/states")["states"]
    with launched_chromium() as browser:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.add_init_script("localStorage.setItem('arbitre.lang', 'en')")
        page.goto(page_url, wait_until="domcontentloaded")
        page.wait_for_selector('[data-testid="journal"]:not([hidden])', timeout=TIMEOUT_MS)
        items = page.locator('[data-testid="journal-item"]')
        # newest first, each with its answer in words
        assert [items.nth(k).get_attribute("data-id") for k in range(3)] == ["3", "2", "1"]
        assert asked[1]["message"] in items.nth(1).inner_text()
        assert page.get_by_test_id("journal-stats").inner_text().startswith("3 questions, ")
        # filtered by figure: only the reach is about the cavalier
        page.get_by_test_id("journal-figure").select_option("Cavalier")
        page.wait_for_function(
            "() => document.querySelectorAll('[data-testid=\"journal-item\"]').length === 1"
        )
        assert items.first.get_attribute("data-id") == "3"
        page.get_by_test_id("journal-figure").select_option("")
        page.wait_for_function(
            "() => document.querySelectorAll('[data-testid=\"journal-item\"]').length === 3"
        )
        # the fire question opened: its answer, its picture, the map as it was
        page.locator('[data-testid="journal-item"][data-id="2"]').click()
        page.wait_for_selector('[data-testid="journal-entry"][data-id="2"]', timeout=TIMEOUT_MS)
        assert page.get_by_test_id("journal-entry-answer").inner_text() == asked[1]["message"]
        page.wait_for_function(
            "() => document.querySelector('[data-testid=\"journal-frame\"]').naturalWidth > 0"
        )
        assert (
            page.evaluate(
                "() => document.querySelector('[data-testid=\"journal-frame\"]').naturalWidth"
            )
            == 1280
        )  # the demo camera's width: within the default 1280 px
        _wait_for_places(page, asked[1]["scene"])
        result = page.get_by_test_id("result")
        assert result.get_attribute("data-question") == "fire"
        assert result.get_attribute("data-allowed") == str(asked[1]["answer"]["allowed"]).lower()
        assert page.get_by_test_id("scene-flag").is_visible()
        assert "Journal: question 2 at" in page.get_by_test_id("scene-flag-text").inner_text()
        live = _get(server + "api/scene")
        assert not _same_places(page, live)  # a figure has walked since: not the live table
        # the slider replays the settled states, the first and the last
        page.get_by_test_id("journal-refresh").click()
        slider = page.get_by_test_id("journal-slider")
        page.wait_for_function(
            "(n) => Number(document.querySelector('[data-testid=\"journal-slider\"]').max) >= n",
            arg=len(states) - 1,
        )
        for index in (0, len(states) - 1):
            slider.fill(str(index))  # a range input: sets its value and fires "input"
            state = _get(server + f"api/journal/states/{states[index]['id']}")
            _wait_for_places(page, state["scene"])
            said = page.get_by_test_id("journal-slider-time").inner_text()
            assert said.endswith(
                f"settled state {index + 1} of {int(slider.get_attribute('max')) + 1}"
            )
        assert "Journal: the table at" in page.get_by_test_id("scene-flag-text").inner_text()
        # the figure that walked, put back where the first state had it (with the token)
        first, last = (_drawn_as(_get(server + f"api/journal/states/{states[k]['id']}")["scene"])
                       for k in (0, -1))  # fmt: skip
        walker = max(
            first, key=lambda k: abs(first[k][0] - last[k][0]) + abs(first[k][1] - last[k][1])
        )
        slider.fill("0")
        _wait_for_places(page, _get(server + f"api/journal/states/{states[0]['id']}")["scene"])
        page.get_by_test_id("journal-pin-figure").select_option(walker)
        page.get_by_test_id("journal-pin").click()
        page.wait_for_selector(f'[data-testid="journal-pinned"][data-figure="{walker}"]')
        pinned = next(f for f in _get(server + "api/state")["figures"] if f["id"] == walker)
        depth = _get(server + "api/scene")["table"]["depth_mm"]
        assert pinned["pinned"] and (pinned["x_mm"], depth - pinned["y_mm"]) == pytest.approx(
            first[walker], abs=0.01
        )
        # back to the live table: the pinned figure is marked on the map and in the list
        page.get_by_test_id("scene-flag-back").click()
        assert page.get_by_test_id("scene-flag").is_hidden()
        assert page.get_by_test_id("journal-entry").is_hidden()
        page.wait_for_selector(
            f'[data-testid="map-figure"][data-id="{walker}"][data-pinned="true"]'
        )
        assert (
            "put back by hand"
            in page.locator(f'[data-testid="figure-button"][data-id="{walker}"]').inner_text()
        )
        # released: the camera places it again
        page.locator(f'[data-testid="journal-release"][data-figure="{walker}"]').click()
        page.wait_for_selector(f'[data-testid="map-figure"][data-id="{walker}"]:not([data-pinned])')
        assert _get(server + "api/state")["pins"] == []
        assert errors == []
