"""The terrain editor offers what the table's rule system reads, and says in one sentence
what it ignores (a real browser: Debian's chromium, Playwright).

Two demo tables served in this process, nobody walking: one under Choc Base 6 (which
reads no obstacle and no level), one under Smooth & Rifled (which grades an obstacle's
cover by its level).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from arbitre.api.live.demo import DemoSource, demo_config
from arbitre.api.live.table import LiveTable

from .test_page_e2e import _get_json, launched_chromium
from .test_terrain_page_e2e import TOKEN, _save_terrain, _tap_table, serving

KINDS = ["wood", "difficult", "impassable", "building", "obstacle"]


@pytest.fixture(scope="module")
def cb6() -> Iterator[str]:
    with serving(LiveTable(demo_config(), DemoSource(move_every_s=1e9))) as base:
        yield base


@pytest.fixture(scope="module")
def smooth_and_rifled() -> Iterator[str]:
    config = replace(demo_config(), ruleset="smooth-and-rifled", options={})
    with serving(LiveTable(config, DemoSource(move_every_s=1e9))) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as chromium:
        yield chromium


def _editor(browser: Any, base: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script("localStorage.setItem('arbitre.lang', 'en')")
    page.add_init_script("localStorage.setItem('arbitre.camera', 'off')")
    page.goto(f"{base}?token={TOKEN}", wait_until="domcontentloaded")
    page.wait_for_selector('[data-testid="map-figure"]', timeout=15_000)
    return context, page, errors


def _kinds_offered(page: Any) -> list[str]:
    offered: list[str] = page.locator('[data-testid="terrain-kind"] option').evaluate_all(
        "(options) => options.map((o) => o.value)"
    )
    return offered


def test_choc_base_6_offers_no_level_nor_line_and_says_what_it_ignores(
    cb6: str, browser: Any
) -> None:
    # the book gives terrain no cost: woods and difficult ground change nothing either
    # (but under the house rule terrain_cost: double)
    ignored = ["difficult", "obstacle", "wood"]
    assert _get_json(cb6 + "api/state")["terrain_rules"]["ignored_kinds"] == ignored
    context, page, errors = _editor(browser, cb6)
    try:
        said = page.locator('[data-testid="terrain-ignored"]')
        assert said.inner_text() == (
            "Choc Base 6 ignores difficult ground, obstacles (walls, hedges), woods and levels:"
            " they change none of its answers."
        )
        page.click('[data-testid="terrain-edit"]')
        assert _kinds_offered(page) == ["impassable", "building"]
        assert page.locator('[data-testid="terrain-level-label"]').is_hidden()
        assert page.locator('[data-testid="terrain-draw-line"]').is_hidden()
        assert page.locator('[data-testid="terrain-draw-area"]').is_visible()
        page.click('[data-testid="lang-toggle"]')
        assert said.inner_text() == (
            "Choc Base 6 ignore les terrains difficiles, les obstacles (murs, haies), les bois"
            " et les niveaux : ils ne changent aucune de ses réponses."
        )
        page.click('[data-testid="lang-toggle"]')
        page.click('[data-testid="terrain-cancel"]')
    finally:
        context.close()
    assert not errors, f"errors in the page: {errors}"


def test_smooth_and_rifled_offers_every_kind_and_a_level_for_an_obstacle(
    smooth_and_rifled: str, browser: Any
) -> None:
    context, page, errors = _editor(browser, smooth_and_rifled)
    try:
        assert page.locator('[data-testid="terrain-ignored"]').is_hidden()
        page.click('[data-testid="terrain-edit"]')
        assert _kinds_offered(page) == KINDS
        level = page.locator('[data-testid="terrain-level-label"]')
        assert level.is_hidden()  # a wood has no level
        page.click('[data-testid="terrain-draw-line"]')
        assert page.input_value('[data-testid="terrain-kind"]') == "obstacle"
        assert level.is_visible()
        page.select_option('[data-testid="terrain-level"]', "2")
        _tap_table(page, 600.0, 100.0)
        _tap_table(page, 800.0, 100.0)
        page.click('[data-testid="terrain-finish"]')
        page.select_option('[data-testid="terrain-kind"]', "wood")  # a line stays an obstacle
        assert page.get_attribute('[data-testid="terrain-message"]', "data-kind") == "refused"
        _save_terrain(page)
        hedge = _get_json(smooth_and_rifled + "api/state")["terrain"][-1]
        assert (hedge["kind"], hedge["level"], len(hedge["line_mm"])) == ("obstacle", 2, 2)
    finally:
        context.close()
    assert not errors, f"errors in the page: {errors}"
