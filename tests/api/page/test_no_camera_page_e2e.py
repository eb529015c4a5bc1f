"""A camera that stops, on the page (a real browser: Debian's chromium, Playwright).

The players read one plain sentence where the picture was, and keep the table as last
seen on the map and in the figure list; the source's message, with its command-line
advice, waits behind a tap for the operator. Served in this process: the demo table
behind a camera the test stops and starts again.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from arbitre.api.live.demo import DemoSource, demo_config
from arbitre.api.live.table import LiveTable
from arbitre.vision.sources import FrameSource

from .test_page_e2e import _get_json, launched_chromium
from .test_terrain_page_e2e import serving

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
ADVICE = (
    "is it plugged in, and not in use by another program? --camera-index chooses another,"
    " --demo plays without one"
)
LOST_TIMEOUT_MS = 15_000  # a camera giving nothing is lost at once; its state comes within 1 s


class Unplugged(FrameSource):
    """The demo camera, until it is unplugged (`plugged = False`): then no frame at all."""

    description = "camera 0"
    advice = ADVICE

    def __init__(self) -> None:
        self.inner = DemoSource(move_every_s=1e9)
        self.plugged = True

    def read(self) -> NDArray[np.uint8] | None:
        return self.inner.read() if self.plugged else None

    def reopen(self) -> bool:
        return self.plugged


@pytest.fixture(scope="module")
def camera() -> Unplugged:
    return Unplugged()


@pytest.fixture(scope="module")
def server(camera: Unplugged) -> Iterator[str]:
    with serving(LiveTable(demo_config(), camera)) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as chromium:
        yield chromium


def _state_is(page: Any, state: str) -> None:
    page.wait_for_function(
        "(state) => document.querySelector('[data-testid=\"source-status\"]')"
        ".dataset.state === state",
        arg=state,
        timeout=LOST_TIMEOUT_MS,
    )


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_stopped_camera_is_said_plainly_and_the_table_stays(
    server: str, camera: Unplugged, browser: Any, viewport: dict[str, int]
) -> None:
    context = browser.new_context(viewport=viewport, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script("localStorage.setItem('arbitre.lang', 'en')")
    page.goto(server, wait_until="domcontentloaded")
    try:
        _state_is(page, "ok")
        frame = page.locator('[data-testid="camera-frame"]')
        lost = page.locator('[data-testid="camera-lost"]')
        assert frame.is_visible() and lost.is_hidden()
        seen = sorted(f["id"] for f in _get_json(server + "api/state")["figures"])
        assert len(seen) == 7

        camera.plugged = False
        _state_is(page, "lost")
        # no empty black box: the picture's place holds one sentence for the players
        assert frame.is_hidden()
        assert lost.is_visible()
        assert page.locator('[data-testid="camera-lost-text"]').inner_text() == (
            "The camera has stopped: the map shows the table as it was last seen."
        )
        assert page.locator('[data-testid="source-text"]').inner_text() == "camera lost"
        # nothing for the operator in the bar at the top, nor open below at first
        assert page.locator('[data-testid="source-detail"]').is_hidden()
        message = page.locator('[data-testid="camera-lost-message"]')
        assert message.is_hidden()
        page.click('[data-testid="camera-lost-details"] summary')
        assert message.is_visible()
        assert message.inner_text() == f"camera 0: no frame ({ADVICE})"
        # the table as last seen, on the map and in the list
        drawn = page.locator('[data-testid="map-figure"]').evaluate_all(
            "(nodes) => nodes.map((n) => n.dataset.id)"
        )
        listed = page.locator('[data-testid="figure-button"]').evaluate_all(
            "(nodes) => nodes.map((n) => n.dataset.id)"
        )
        assert sorted(drawn) == seen and sorted(listed) == seen
        # nothing wider than the screen: the advice wraps within it
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= viewport["width"]
        box = message.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        # in French too
        page.click('[data-testid="lang-toggle"]')
        assert page.locator('[data-testid="camera-lost-text"]').inner_text() == (
            "La caméra s'est arrêtée : le plan montre la table telle qu'elle a été vue en dernier."
        )
        assert page.locator('[data-testid="camera-lost-details"] summary').inner_text() == (
            "Détails pour l'opérateur"
        )
        page.click('[data-testid="lang-toggle"]')

        # plugged in again: the picture is back in its place
        camera.plugged = True
        _state_is(page, "ok")
        page.wait_for_function(
            "() => !document.querySelector('[data-testid=\"camera-frame\"]').hidden",
            timeout=LOST_TIMEOUT_MS,
        )
        assert lost.is_hidden()
    finally:
        camera.plugged = True
        context.close()
    assert not errors, f"errors in the page: {errors}"
