"""``arbitre bench serve``'s club section: several cameras tracking 80 figures at once.

A club's 6 x 4 ft table (the simulator's ``club1080`` and ``club4k`` presets, 80
figures) is watched by two cameras at opposite long edges, each measured in a process of
its own, while the table's state is made ten times a second as for the page's clients.
Each camera's frames measured per second are set against the same camera measured
alone in the same run (the baseline), and against the frame rate a club needs: 15 frames
a second from each 1080p camera, 8 from each 4K one.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from arbitre.api.live.table import LiveTable, TableConfig
from arbitre.calibration.progress import Steps
from arbitre.calibration.simulated import setup_of
from arbitre.vision.simulate import club_cameras, preset, render
from arbitre.vision.sources import FrameSource

FIGURES = 80
STATE_EVERY_S = 0.1  # the state is made as often as the page's clients get it
WARM_UP_S = 2.0


@dataclass(frozen=True, slots=True)
class Cameras:
    """A set-up measured: which preset, and the frames a second each camera must keep."""

    label: str
    preset: str
    target_fps: float


SET_UPS = (Cameras("two 1080p", "club1080", 15.0), Cameras("two 4K", "club4k", 8.0))


class _Webcam(FrameSource):
    """A still camera's frames: the rendered picture with one of three noise patterns, each
    frame a new picture (as a webcam's are, the sensor's noise differing)."""

    def __init__(self, image: NDArray[np.uint8], seed: int, description: str) -> None:
        rng = np.random.default_rng(seed)
        self._frames = [
            np.clip(image + rng.normal(0.0, 2.0, image.shape).astype(np.int16), 0, 255).astype(
                np.uint8
            )
            for _ in range(3)
        ]
        self._count = 0
        self.description = description

    def read(self) -> NDArray[np.uint8] | None:
        self._count += 1
        return self._frames[self._count % len(self._frames)]


def run_cameras_bench(
    seconds: float, steps: Steps | None = None, set_ups: tuple[Cameras, ...] = SET_UPS
) -> list[dict[str, Any]]:
    """Each set-up (default `SET_UPS`): each camera's frames a second with both running
    (and the state made ten times a second), and the first camera's alone, in the same
    run. ``steps`` advances three times a set-up."""
    rows = []
    for setup in set_ups:
        scene = preset(setup.preset, seed=0, figures=FIGURES)
        intrinsics, table, roster = setup_of(scene)
        images = [
            render(camera, scene.scene, scene.options).image for camera in club_cameras(scene)
        ]
        sources = [_Webcam(image, k, f"camera {k + 1}") for k, image in enumerate(images)]
        if steps is not None:
            steps.advance()
        alone, _ = _both(TableConfig(intrinsics, table, roster), sources[:1], seconds, steps)
        both, figures = _both(
            TableConfig(intrinsics, table, roster, more_cameras=(intrinsics,)),
            sources,
            seconds,
            steps,
        )
        rows.append(
            {
                "set_up": setup.label,
                "figures": FIGURES,
                "fps_alone": alone[0],
                "fps_each": both,
                "ratio": min(both) / alone[0] if alone[0] else 0.0,
                "target_fps": setup.target_fps,
                "figures_tracked": figures,
            }
        )
    return rows


def _both(
    config: TableConfig, sources: Sequence[FrameSource], seconds: float, steps: Steps | None
) -> tuple[list[float], int]:
    """Each camera's measured frames a second over ``seconds`` (after a warm-up), the state
    made every `STATE_EVERY_S`; and the figures the table tracked at the end."""
    live = LiveTable(config, sources, max_fps=None, processes=True)
    live.start()
    try:
        _stated(live, WARM_UP_S)
        start = [camera.frames_processed for camera in live.cameras]
        began = time.perf_counter()
        _stated(live, seconds)
        spent = time.perf_counter() - began
        rates = [
            (camera.frames_processed - first) / spent
            for camera, first in zip(live.cameras, start, strict=True)
        ]
        figures = len(live.state()["figures"])
    finally:
        live.stop()
    if steps is not None:
        steps.advance()
    return rates, figures


def _stated(live: LiveTable, seconds: float) -> None:
    """Make the table's state every `STATE_EVERY_S` for ``seconds``."""
    end = time.perf_counter() + seconds
    while (now := time.perf_counter()) < end:
        live.state()
        time.sleep(max(0.0, min(STATE_EVERY_S - (time.perf_counter() - now), end - now)))


def cameras_lines(rows: list[dict[str, Any]]) -> list[str]:
    """The club section of the report, each set-up with its targets met (ok) or not."""
    lines = [f"club table, {FIGURES} figures, each camera in a process of its own:"]
    for row in rows:
        each = ", ".join(f"{fps:.1f}" for fps in row["fps_each"])
        ok = min(row["fps_each"]) >= row["target_fps"]
        lines.append(
            f"  {row['set_up']}: {each} fps each (target >= {row['target_fps']:g}), one alone "
            f"{row['fps_alone']:.1f} fps (ratio {row['ratio']:.2f}); "
            f"{row['figures_tracked']} figures tracked  {'ok' if ok else 'MISS'}"
        )
    return lines
