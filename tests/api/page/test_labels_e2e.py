"""Figure names on the map and the camera view, in a real browser (Debian's chromium).

Every figure keeps a name: no two names overlap, each lies wholly inside its view, a name
is shortened only when the whole one finds no room (the whole name then in its
tooltip), on the demo table and on a crowded 24-figure table, on a desktop screen and a
phone's. The figure list goes by side, then by name.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .test_page_e2e import _get_json, _serving, launched_chromium

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SLACK_PX = 0.5  # rounding of the browser's boxes

# A club's crowded table, 900 x 600 mm: thirteen riflemen R1..R13 in a line 30 mm apart
# (11 px apart on a phone), a scout at a field's edge, a sniper beside a horseman, and
# figures standing on a wood's and a field's middles, where the page writes their names
# when nothing stands there (wood1 at (250, 450), difficult1 at (700, 150)).
CROWDED = [
    *[(f"R{k}", "rouges", 150 + 30 * k, 300) for k in range(1, 14)],
    ("Éclaireur", "verts", 640, 150),
    ("Tireur d'élite", "verts", 600, 420),
    ("Cavalier", "verts", 620, 440),
    ("Capitaine", "verts", 700, 470),
    ("Grenadier", "verts", 250, 460),
    ("Porte-drapeau", "verts", 270, 440),
    ("Sergent", "rouges", 230, 430),
    ("Chef alpin", "rouges", 700, 160),
    ("Sapeur", "rouges", 720, 140),
    ("Tambour", "rouges", 860, 580),
    ("Vigie", "verts", 20, 20),
]
CROWDED_SCENE = (
    "ruleset: choc-base-6\n"
    "table: {width_mm: 900, depth_mm: 600}\n"
    "figures:\n"
    + "".join(
        f'  - {{id: "{name}", side: {side}, type: TD, x_mm: {x}, y_mm: {y}}}\n'
        for name, side, x, y in CROWDED
    )
    + "terrain:\n"
    "  - {id: wood1, kind: wood, polygon_mm: [[200, 400], [300, 400], [300, 500], [200, 500]]}\n"
    "  - {id: difficult1, kind: difficult,"
    " polygon_mm: [[650, 100], [750, 100], [750, 200], [650, 200]]}\n"
)

# Each figure of a view: its label's box, its words, whether drawn, its whole name.
LABELS = """([figures, frame]) => {
    const box = (r) => [r.left, r.top, r.right, r.bottom];
    const view = document.querySelector(`[data-testid="${frame}"]`).getBoundingClientRect();
    return {
        view: box(view),
        labels: [...document.querySelectorAll(`[data-testid="${figures}"]`)].map((node) => {
            const label = node.querySelector('.label');
            return {
                id: node.dataset.id,
                text: label.textContent,
                shown: getComputedStyle(label).visibility === 'visible'
                    && getComputedStyle(label).display !== 'none',
                box: box(label.getBoundingClientRect()),
                title: node.querySelector('title')?.textContent ?? null,
            };
        }),
        terrain: [...document.querySelectorAll('.terrain-label')]
            .map((n) => ({id: n.textContent, box: box(n.getBoundingClientRect())})),
        discs: [...document.querySelectorAll(`[data-testid="${figures}"] .body`)]
            .map((n) => box(n.getBoundingClientRect())),
    };
}"""


def _overlap(a: list[float], b: list[float]) -> float:
    """How far two screen boxes [left, top, right, bottom] overlap (the lesser side)."""
    return min(min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1]))


def _check_labels(
    page: Any, figures: str, frame: str, names: dict[str, str], *, whole: bool
) -> dict[str, Any]:
    """Every figure of the view named, no two names overlapping, each inside the view;
    `whole`: no name shortened. The labels and the terrain's names as found."""
    found: dict[str, Any] = page.evaluate(LABELS, [figures, frame])
    labels = found["labels"]
    assert sorted(label["id"] for label in labels) == sorted(names)
    for label in labels:
        name = names[label["id"]]
        assert label["shown"] and label["text"], f"{name!r} has no name shown: {label}"
        assert label["title"] == name  # the whole name, on a hover or a long press
        if whole:
            assert label["text"] == name
        else:
            text = label["text"]
            assert text == name or (text.endswith("…") and name.startswith(text[:-1])), label
        left, top, right, bottom = label["box"]
        v_left, v_top, v_right, v_bottom = found["view"]
        assert right - left > 0 and bottom - top > 0
        assert (
            left >= v_left - SLACK_PX
            and top >= v_top - SLACK_PX
            and right <= v_right + SLACK_PX
            and bottom <= v_bottom + SLACK_PX
        ), f"{name!r} at {label['box']} leaves the view {found['view']}"
    for k, one in enumerate(labels):
        for other in labels[k + 1 :]:
            assert _overlap(one["box"], other["box"]) <= SLACK_PX, (
                f"{names[one['id']]!r} {one['box']} overlaps {names[other['id']]!r} {other['box']}"
            )
    return found


@pytest.fixture(scope="module")
def demo() -> Iterator[str]:
    with _serving(["--demo"]) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as chromium:
        yield chromium


def _open(browser: Any, base: str, viewport: dict[str, int], figures: int) -> tuple[Any, Any]:
    context = browser.new_context(viewport=viewport, locale="en-US")
    page = context.new_page()
    page.add_init_script("localStorage.setItem('arbitre.lang', 'en')")
    page.goto(base, wait_until="domcontentloaded")
    page.wait_for_function(
        "(n) => document.querySelectorAll('[data-testid=\"map-figure\"]').length === n",
        arg=figures,
        timeout=15_000,
    )
    return context, page


def _demo_names(base: str) -> dict[str, str]:
    return {f["id"]: f["name"] for f in _get_json(base + "api/state")["figures"]}


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_demo_figure_is_named_on_the_map_and_the_camera(
    demo: str, browser: Any, viewport: dict[str, int]
) -> None:
    names = _demo_names(demo)
    assert "Cavalier" in names.values() and "Tireur d'élite" in names.values()
    context, page = _open(browser, demo, viewport, len(names))
    try:
        page.wait_for_function(
            "(n) => document.querySelectorAll('[data-testid=\"camera-figure\"]').length === n",
            arg=len(names),
            timeout=15_000,
        )
        found = _check_labels(page, "map-figure", "map", names, whole=True)
        # the wood's and the rock's names stay readable: no figure's name covers them
        for piece in found["terrain"]:
            for label in found["labels"]:
                assert _overlap(piece["box"], label["box"]) <= SLACK_PX, (piece, label)
        _check_labels(page, "camera-figure", "camera-frame", names, whole=False)
    finally:
        context.close()


def test_the_figure_list_goes_by_side_then_by_name(demo: str, browser: Any) -> None:
    # blancs: Cavalier, Chef alpin, Sergent, Tireur d'élite; verts: Capitaine, Éclaireur,
    # Grenadier (É sorts as E)
    context, page = _open(browser, demo, DESKTOP, 7)
    try:
        shown = page.locator('[data-testid="figure-button"] .name').all_inner_texts()
        assert shown == [
            "Cavalier",
            "Chef alpin",
            "Sergent",
            "Tireur d'élite",
            "Capitaine",
            "Éclaireur",
            "Grenadier",
        ]
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_figure_of_a_crowded_table_is_named(
    demo: str, browser: Any, viewport: dict[str, int], tmp_path: Path
) -> None:
    context, page = _open(browser, demo, viewport, 7)
    try:
        scene = tmp_path / "crowded.yaml"
        scene.write_text(CROWDED_SCENE, encoding="utf-8")
        page.set_input_files('[data-testid="scene-file"]', str(scene))
        page.wait_for_function(
            "(n) => document.querySelectorAll('[data-testid=\"map-figure\"]').length === n",
            arg=len(CROWDED),
            timeout=10_000,
        )
        names = {name: name for name, *_ in CROWDED}
        found = _check_labels(page, "map-figure", "map", names, whole=viewport is DESKTOP)
        if viewport is DESKTOP:
            # room enough on a desktop: the wood's and the field's names stay clear of the
            # figures' names and of the figures standing on their middles
            assert sorted(piece["id"] for piece in found["terrain"]) == ["difficult1", "wood1"]
            for piece in found["terrain"]:
                for label in found["labels"]:
                    assert _overlap(piece["box"], label["box"]) <= SLACK_PX, (piece, label)
                for disc in found["discs"]:
                    assert _overlap(piece["box"], disc) <= SLACK_PX, (piece, disc)
    finally:
        context.close()
