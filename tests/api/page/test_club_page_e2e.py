"""The club table in a real browser: ``arbitre serve --demo-club`` (a 6 x 4 ft table,
two simulated cameras), the page showing each camera's view and the fused map."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import pytest
import yaml

from arbitre.calibration.simulated import write_setup
from arbitre.vision.simulate import preset, render
from tests.api.page.test_page_e2e import (
    CHROMIUM,
    CHROMIUM_ARGS,
    _get_json,
    _playwright,
    _serving,
)

FIGURES = 16  # the club demo's


@pytest.fixture(scope="module")
def club_server() -> Iterator[str]:
    with _serving(["--demo-club"]) as base:
        yield base


def test_the_page_shows_each_camera_and_one_map_of_the_fused_table(club_server: str) -> None:
    sync_playwright = _playwright()
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page: Any = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-US")
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.add_init_script("localStorage.setItem('arbitre.lang', 'en')")
        page.goto(club_server, wait_until="domcontentloaded")
        # one map: every figure once, however many cameras see it
        page.wait_for_function(
            "(n) => document.querySelectorAll('[data-testid=\"map-figure\"]').length === n",
            arg=FIGURES,
            timeout=30_000,
        )
        state = _get_json(club_server + "api/state")
        assert len(state["cameras"]) == 2
        assert len({f["id"] for f in state["figures"]}) == FIGURES
        # one button per camera; the first camera is shown
        picker = page.locator('[data-testid="camera-picker"]')
        assert picker.is_visible()
        assert page.locator('[data-testid="camera-pick-0"]').inner_text() == "Camera 1"
        assert page.locator('[data-testid="camera-pick-0"]').get_attribute("aria-pressed") == "true"
        image = page.locator('[data-testid="camera-img"]')
        assert "camera=" not in (image.get_attribute("src") or "")
        # the second camera's view: its own stream, its pictures arriving, figures drawn on it
        page.click('[data-testid="camera-pick-1"]')
        assert "camera=1" in (image.get_attribute("src") or "")
        assert page.locator('[data-testid="camera-pick-1"]').get_attribute("aria-pressed") == "true"
        page.wait_for_function(
            "() => document.querySelector('[data-testid=\"camera-img\"]').naturalWidth > 0",
            timeout=15_000,
        )
        page.wait_for_function(
            "() => document.querySelectorAll('[data-testid=\"camera-figure\"]').length >= 8",
            timeout=15_000,
        )
        browser.close()
    assert errors == []


def test_a_camera_that_stops_is_named_on_the_page(tmp_path: Path) -> None:
    # Two cameras over one table, each fed by a folder; camera 2's folder is emptied.
    scene = preset("overhead", scale=0.4, seed=5)
    write_setup(scene, tmp_path)
    centre = (scene.scene.table.width_mm / 2, scene.scene.table.depth_mm / 2)
    views = (scene.camera, scene.camera.around(centre, 180.0))
    cameras = []
    for k, camera in enumerate(views):
        (tmp_path / f"frames{k}").mkdir()
        image = render(camera, scene.scene, scene.options).image
        cv2.imwrite(str(tmp_path / f"frames{k}" / "0001.png"), image)
        cameras.append({"camera": "camera.yaml", "source": {"folder": f"frames{k}"}})
    settings = {"table": "table.yaml", "roster": "roster.yaml", "cameras": cameras}
    (tmp_path / "arbitre.yaml").write_text(yaml.safe_dump(settings), encoding="utf-8")
    with _serving(["--config", str(tmp_path / "arbitre.yaml")]) as base:
        sync_playwright = _playwright()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            page: Any = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-US")
            page.add_init_script("localStorage.setItem('arbitre.lang', 'en')")
            page.goto(base, wait_until="domcontentloaded")
            page.wait_for_selector('[data-testid="camera-pick-1"]', timeout=15_000)
            assert page.locator('[data-testid="source-text"]').inner_text() == "camera ok"
            (tmp_path / "frames1" / "0001.png").unlink()
            page.wait_for_function(
                "() => document.querySelector('[data-testid=\"source-text\"]').textContent"
                " === '1 of 2 cameras stopped'",
                timeout=15_000,
            )
            detail = page.locator('[data-testid="source-detail"]').inner_text()
            assert detail.startswith(f"camera 2: folder {tmp_path / 'frames1'}")
            pick = page.locator('[data-testid="camera-pick-1"]')
            assert pick.get_attribute("data-state") == "lost"
            assert pick.inner_text() == "Camera 2 (stopped)"
            figures = _get_json(base + "api/state")["figures"]
            assert figures and not any(f["stale"] for f in figures)  # camera 1 sees them all
            browser.close()
