"""A wood drawn on the map gives cover to a shot, in a real browser (chromium, Playwright).

The demo's camera and figures, played under M.U.S.G., where woods hide (Choc Base 6's
line of fire ignores terrain). The figures stand still so the answers can be worked
out before they are asked. Like the other browser tests, this fails, never skips,
without chromium.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from arbitre.api.live.demo import FIGURES, DemoSource, demo_setup
from arbitre.api.live.table import LiveTable, TableConfig
from arbitre.calibration.table import roster_from_mapping

from .test_page_e2e import CHROMIUM, CHROMIUM_ARGS, _playwright
from .test_terrain_page_e2e import TOKEN, _ask_pair, _tap_table, serving

# The Sergent (blancs) at (330, 300) shoots at the Capitaine (verts) at (640, 330): the
# line of sight runs east, rising 30 mm over 310. Nothing stands or grows between them:
# the demo's wood lies at y 400-540, its rock (impassable, which hides nothing) at
# y 190-260 and x 440-500, where the line is at y 311-317.
SHOOTER, TARGET = "Sergent", "Capitaine"
# A wood drawn across the line at x 460-520 (y 250-390): from the Sergent's eye the
# Capitaine's 25 mm base spans y 318-342 at x 640, i.e. slopes between -0.06 and +0.13,
# which at x 460-520 is y 290-335: wholly inside the wood's y 250-390. The whole base
# is hidden, more than half: in cover, and the wood gets a cover roll.
WOOD_MM = [(460.0, 250.0), (520.0, 250.0), (520.0, 390.0), (460.0, 390.0)]


def musg_roster_mapping() -> dict[str, Any]:
    """The demo's figures as M.U.S.G. characters: 4 pas of move, a 30-pas musket each."""
    return {
        "figures": [
            {
                "marker": marker,
                "name": name,
                "side": side,
                "marker_height_mm": height,
                "attrs": {"move_pas": 4, "weapon": {"kind": "musket", "range_pas": 30}},
            }
            for marker, name, side, _group, _kind, height, _x, _y, _attrs in FIGURES
        ]
    }


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    setup = demo_setup()
    roster = roster_from_mapping(musg_roster_mapping(), "musg roster")
    live = LiveTable(
        TableConfig(setup.camera, setup.table, roster, ruleset="musg", terrain=setup.terrain),
        DemoSource(move_every_s=1e9),
    )
    with serving(live) as base:
        yield base


def test_a_wood_drawn_across_a_shot_gives_the_target_cover(server: str) -> None:
    sync_playwright = _playwright()
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            tab = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            tab.on("pageerror", lambda error: errors.append(str(error)))
            tab.add_init_script("localStorage.setItem('arbitre.lang', 'en')")
            tab.add_init_script("localStorage.setItem('arbitre.camera', 'off')")
            tab.goto(f"{server}?token={TOKEN}", wait_until="domcontentloaded")
            tab.wait_for_selector('[data-testid="map-figure"]', timeout=15_000)

            before = _ask_pair(tab, "fire", SHOOTER, TARGET)
            assert before["allowed"] == "true", before
            assert "Cover" not in before["details"], before

            tab.click('[data-testid="terrain-edit"]')
            tab.select_option('[data-testid="terrain-kind"]', "wood")
            tab.click('[data-testid="terrain-draw-area"]')
            for corner in WOOD_MM:
                _tap_table(tab, *corner)
            tab.click('[data-testid="terrain-finish"]')
            tab.click('[data-testid="terrain-save"]')
            tab.wait_for_selector(
                '[data-testid="terrain-message"][data-kind="saved"]', timeout=5_000
            )

            after = _ask_pair(tab, "fire", SHOOTER, TARGET)
            assert after["allowed"] == "true", after  # a wood hides, it does not block
            assert "Cover: wood1" in after["details"], after
        finally:
            browser.close()
    assert not errors, f"errors in the page: {errors}"
