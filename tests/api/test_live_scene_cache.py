"""The live table makes its rules scene again only when the figures moved, and then
reads again only the figures that moved.

The demo table's figures stand still (their walks switched off): frame after frame,
their averaged positions stay within a twentieth of a millimetre (the step the live
scene places them to), so the state and the questions reuse one scene, and with it the
rules' per-scene caches. A figure that walks gives a new scene.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from arbitre.api.live.demo import DemoSource, demo_setup
from arbitre.api.live.table import POSITION_STEP_MM, LiveTable, TableConfig
from arbitre.calibration.frame import locate_frame
from arbitre.calibration.locate import LocateResult
from arbitre.rules import scene as scene_module
from arbitre.rules.model import sigma_between


@pytest.fixture
def table() -> tuple[LiveTable, DemoSource]:
    setup = demo_setup()
    source = DemoSource(move_every_s=1e9)
    live = LiveTable(
        TableConfig(setup.camera, setup.table, setup.roster, options={"unit_mm": 100}), source
    )
    for _ in range(70):  # let the averages settle: the window (60 frames) is full
        assert live.step()
    return live, source


def test_a_still_table_is_parsed_once(
    table: tuple[LiveTable, DemoSource], monkeypatch: pytest.MonkeyPatch
) -> None:
    live, _source = table
    parsed = []
    real_parse = scene_module.parse_scene
    monkeypatch.setattr(
        scene_module, "parse_scene", lambda *a, **k: parsed.append(1) or real_parse(*a, **k)
    )
    first = live.scene()
    live.state()
    live.ask("distance", ["alpins", "verts"])
    assert live.scene() is first
    assert len(parsed) == 1
    # Positions are on the step: x = k * 0.05 mm.
    for figure in live.scene_document()["figures"]:
        steps = figure["x_mm"] / POSITION_STEP_MM
        assert abs(steps - round(steps)) < 1e-6


def test_a_figure_that_walks_makes_a_new_scene_of_the_others(
    table: tuple[LiveTable, DemoSource],
) -> None:
    live, source = table
    first, before = live.scene(), live.scene_document()
    assert first is not None
    source.move_every_s = 0.0  # the next frame: one figure walks a few centimetres
    assert live.step()
    source.move_every_s = 1e9
    for _ in range(40):  # the tracker follows it and settles
        assert live.step()
    second, after = live.scene(), live.scene_document()
    assert second is not first
    moved = [
        f.id
        for f, g in zip(first.figures, second.figures, strict=True)
        if abs(f.x_mm - g.x_mm) + abs(f.y_mm - g.y_mm) > 10
    ]
    assert len(moved) == 1
    # The others were not read again where their entries are the same: the same figures,
    # with the same outlines. (A still figure's entry may change now and then: its
    # averaged noise, written to 0.001 mm², can cross a rounding step.)
    pairs = zip(first.figures, second.figures, before["figures"], after["figures"], strict=True)
    same = [(f, g) for f, g, a, b in pairs if a == b]
    assert all(f is g for f, g in same)
    assert len(same) >= len(first.figures) - 2


def test_the_live_scene_carries_the_errors_its_figures_share(
    table: tuple[LiveTable, DemoSource],
) -> None:
    live, _source = table
    document = live.scene_document()
    names = document["shared_errors"]
    assert names[:6] == ["pose_rx", "pose_ry", "pose_rz", "pose_tx", "pose_ty", "pose_tz"]
    scene = live.scene()
    assert scene is not None and scene.shared_errors == tuple(names)
    for entry, figure in zip(document["figures"], scene.figures, strict=True):
        assert len(entry["shared_mm"]) == len(names)
        # sigma_mm is the worst direction of the own and shared parts together (to the
        # 0.01 mm sigma_mm is written to, and the 10 % a still figure's shared errors may
        # lag the latest frame's)
        moves = np.array(entry["shared_mm"])
        whole = np.array(entry["own_cov_mm2"]) + moves.T @ moves
        assert np.sqrt(np.linalg.eigvalsh(whole)[-1]) == pytest.approx(entry["sigma_mm"], rel=0.1)
        assert figure.shared_mm == tuple(tuple(pair) for pair in entry["shared_mm"])
    # Two neighbours share most of their errors, and a measure between them cancels
    # them: what is left is about their own parts (each head's 2 mm of height, and the
    # 0.3 mm every figure keeps along every direction), where taken as independent they
    # would claim much more (measured 0.86 mm against 1.41 mm).
    first, second = min(
        itertools.combinations(scene.figures, 2),
        key=lambda pair: np.hypot(pair[0].x_mm - pair[1].x_mm, pair[0].y_mm - pair[1].y_mm),
    )
    way = np.array([second.x_mm - first.x_mm, second.y_mm - first.y_mm])
    way /= np.hypot(*way)
    own = np.sqrt(way @ (first.own_covariance + second.own_covariance) @ way)
    assert sigma_between(first, second) <= 1.1 * own
    assert sigma_between(first, second) < 0.7 * np.hypot(first.sigma_mm, second.sigma_mm)
    # What the live table keeps of a still figure's shared errors is what its latest
    # frame says (within the 10 % a still figure's may lag): never the same errors
    # counted the other way (a camera looking straight down is half a turn from the
    # table, where the pose's parameters can be written two ways).
    config = live.config
    image = live.source.read()
    located = locate_frame(image, config.camera, config.table, config.roster).located
    assert isinstance(located, LocateResult)
    assert located.shared_errors == tuple(names)
    for marker in located.markers:
        who = config.roster.by_marker(marker.id)
        assert who is not None
        entry = next(e for e in document["figures"] if e["id"] == who.id)
        kept, now = np.array(entry["shared_mm"]), np.array(marker.shared_mm)
        assert np.abs(kept - now).max() <= 0.1 * np.linalg.norm(now) + 0.002, who.id
