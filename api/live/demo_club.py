"""The built-in club table: a 6 x 4 ft table watched by two webcams at opposite edges.

Two 1920 x 1080 webcams stand on tripods 1.1 m up, 30 cm back from the middle of each
long edge, looking across the table (the set-up docs/setup.md describes for a big
table). Six anchors: the corners and the middles of the long edges. Sixteen figures
carry 28 mm markers on their heads (the size `arbitre plan` gives for two 1080p
cameras there). Now and then a figure walks, and an arm reaches over the table,
hiding a few figures from one camera for a few seconds: the other camera still sees
them. The frames come from the simulator and go through exactly the same pipeline as
real cameras'.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from arbitre.api.live.demo import Figure, setup_of
from arbitre.api.live.table import TableConfig
from arbitre.vision.simulate import (
    FIGURE_COLOURS_BGR,
    Camera,
    RenderOptions,
    SimMarker,
    SimScene,
    SimTable,
    anchors,
    arm_over,
    figure,
    look_at,
    render,
)
from arbitre.vision.sources import FrameSource

TABLE_MM = (1830.0, 1220.0)
MARKER_MM = 28.0
ANCHOR_MM = 40.0
INSET_MM = 35.0
CAMERAS = 2
RENDER = RenderOptions(blur_sigma_px=0.7)
"""A webcam's lens: a little soft (the sources add the sensor's noise)."""


def _line(side: str, name: str, first: int, x0: float, y0: float, dy: float) -> list[Figure]:
    """Eight figures of a side in two ranks of four, 160 mm apart."""
    return [
        (
            first + k,
            f"{name} {k + 1}",
            side,
            f"{side}-{k + 1}",
            "TD",
            28.0 + 2.0 * (k % 4),
            x0 + 160.0 * (k % 4) + 40.0 * (k // 4),
            y0 + dy * (k // 4),
            {},
        )
        for k in range(8)
    ]


FIGURES: tuple[Figure, ...] = (
    *_line("bleus", "Fusilier", 10, 260.0, 300.0, 170.0),
    *_line("rouges", "Voltigeur", 20, 1050.0, 920.0, -170.0),
)


def club_camera() -> Camera:
    """The first webcam: 1920 x 1080, fx = fy = 1000 px, mild barrel, on a tripod 1.1 m up
    and 30 cm back from the middle of the near long edge, looking across the table."""
    width, height, focal = 1920, 1080, 1000.0
    matrix = np.array(
        [[focal, 0.0, (width - 1) / 2], [0.0, focal, (height - 1) / 2], [0.0, 0.0, 1.0]]
    )
    centre = np.array([TABLE_MM[0] / 2, TABLE_MM[1] / 2, 0.0])
    rvec, tvec = look_at(centre + (0.0, -910.0, 1100.0), centre + (0.0, -300.0, 0.0), (0, 1, 0))
    return Camera(matrix, np.array([-0.05, 0.02, 0.0, 0.0, 0.0]), (width, height), rvec, tvec)


def club_cameras() -> tuple[Camera, ...]:
    """Both webcams: the first, and the same at the opposite long edge looking back."""
    first = club_camera()
    return (first, first.around((TABLE_MM[0] / 2, TABLE_MM[1] / 2), 180.0))


def club_anchors() -> tuple[SimMarker, ...]:
    """Anchors 0-3 near the corners, 4 and 5 in the middles of the long edges (as
    ``arbitre table init --anchors 6`` places them)."""
    table = SimTable(*TABLE_MM)
    corners = anchors(table, ANCHOR_MM, INSET_MM)
    middle = TABLE_MM[0] / 2
    edges = (
        SimMarker(4, middle, INSET_MM, 0.0, ANCHOR_MM),
        SimMarker(5, middle, TABLE_MM[1] - INSET_MM, 0.0, ANCHOR_MM),
    )
    return (*corners, *edges)


def demo_club_config() -> TableConfig:
    """The club table as the live table runs it: two cameras, 1 M = 100 mm."""
    setup = setup_of(club_camera(), club_anchors(), FIGURES, TABLE_MM, "club demo")
    return TableConfig(
        setup.camera,
        setup.table,
        setup.roster,
        options={"unit_mm": 100},
        more_cameras=(setup.camera,) * (CAMERAS - 1),
    )


class ClubTable:
    """The simulated club table both cameras look at: the figures, who walks, the arm.

    Pictures are rendered in a background thread (about a second for each camera) and
    swapped in when ready, as a real table changes while the cameras go on filming;
    `start` begins the walks and arms, `stop` ends them. An arm over the table is
    painted on one camera's pictures only (`reach_over`).
    """

    def __init__(
        self,
        *,
        move_every_s: float = 8.0,
        arm_every_s: float = 11.0,
        arm_s: float = 4.0,
        seed: int = 0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.cameras = club_cameras()
        self.move_every_s = move_every_s
        self.arm_every_s = arm_every_s
        self.arm_s = arm_s
        self._clock = clock
        self._rng = np.random.default_rng(seed)
        self._markers = {
            marker: SimMarker(marker, x, y, height, MARKER_MM, float(self._rng.uniform(0, 360)))
            for marker, _n, _s, _g, _k, height, x, y, _a in FIGURES
        }
        self._colours = {
            marker: FIGURE_COLOURS_BGR[0 if side == "bleus" else 1]
            for marker, _n, side, *_ in FIGURES
        }
        self._lock = threading.Lock()
        self.version = 0
        """How many times the pictures changed (a walk, an arm reaching or leaving)."""
        self._pictures = [self._render(camera) for camera in self.cameras]
        self._arm: tuple[int, tuple[SimMarker, ...], float] | None = None  # view, under, until
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def positions_mm(self) -> dict[int, tuple[float, float]]:
        """Where each figure's head truly is: the demo's ground truth."""
        with self._lock:
            return {m.id: (m.x_mm, m.y_mm) for m in self._markers.values()}

    def picture(self, view: int) -> tuple[int, NDArray[np.uint8]]:
        """What camera ``view`` sees now (an arm painted over it when one reaches in
        front of it), with the version of the table it shows."""
        with self._lock:
            picture, arm, version = self._pictures[view], self._arm, self.version
        if arm is not None and arm[0] == view:
            picture = arm_over(picture, self.cameras[view], arm[1], margin_px=25)
        return version, picture

    def reach_over(self, view: int, markers: list[int], seconds: float) -> None:
        """An arm over ``markers``, seen by camera ``view`` only, for ``seconds``."""
        with self._lock:
            under = tuple(self._markers[m] for m in markers)
            self._arm = (view, under, self._clock() + seconds)
            self.version += 1

    def walk(self) -> None:
        """One figure walks 5 to 15 cm to a free place (both pictures rendered again)."""
        with self._lock:
            markers = dict(self._markers)
        marker = markers[int(self._rng.choice(list(markers)))]
        for _ in range(20):
            angle = self._rng.uniform(0, 2 * np.pi)
            step = self._rng.uniform(50.0, 150.0)
            x, y = marker.x_mm + step * np.cos(angle), marker.y_mm + step * np.sin(angle)
            if not (120 <= x <= TABLE_MM[0] - 120 and 120 <= y <= TABLE_MM[1] - 120):
                continue
            if all(
                np.hypot(x - o.x_mm, y - o.y_mm) > 70 for o in markers.values() if o.id != marker.id
            ):
                markers[marker.id] = replace(marker, x_mm=float(x), y_mm=float(y))
                pictures = [self._render(camera, markers) for camera in self.cameras]
                with self._lock:
                    self._markers = markers
                    self._pictures = pictures
                    self.version += 1
                return

    def start(self) -> None:
        """Walks and arms from now on, in a background thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="club-demo", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def _run(self) -> None:
        next_walk = self._clock() + self.move_every_s
        next_arm = self._clock() + self.arm_every_s / 2
        while not self._stop.wait(0.2):
            now = self._clock()
            with self._lock:
                if self._arm is not None and now >= self._arm[2]:
                    self._arm = None
                    self.version += 1
            if now >= next_arm:
                next_arm = now + self.arm_every_s
                view = int(self._rng.integers(len(self.cameras)))
                chosen = self._rng.choice(list(self.positions_mm()), size=4, replace=False)
                self.reach_over(view, [int(m) for m in chosen], self.arm_s)
            if now >= next_walk:
                next_walk = now + self.move_every_s
                self.walk()

    def _render(
        self, camera: Camera, markers: dict[int, SimMarker] | None = None
    ) -> NDArray[np.uint8]:
        placed = tuple((self._markers if markers is None else markers).values())
        bodies = tuple(b for m in placed for b in figure(m, self._colours[m.id]))
        scene = SimScene(SimTable(*TABLE_MM), club_anchors() + placed, bodies)
        return render(camera, scene, RENDER).image


class ClubCamera(FrameSource):
    """One camera of the club table: its picture with a webcam's noise. A frame whose
    picture and noise pattern were given before is a picture seen again (`again`)."""

    def __init__(self, table: ClubTable, view: int, *, seed: int = 0) -> None:
        self.table = table
        self.view = view
        self.description = f"demo camera {view + 1}"
        rng = np.random.default_rng(seed + view)
        shape = table.picture(view)[1].shape
        self._noise = [rng.normal(0.0, 2.0, shape).astype(np.int16) for _ in range(3)]
        self._frame = 0
        self._version = -1
        self._since_change = 0

    def read(self) -> NDArray[np.uint8] | None:
        version, picture = self.table.picture(self.view)
        if version != self._version:
            self._version, self._since_change = version, 0
        self._frame += 1
        self.again = self._since_change >= len(self._noise)
        self._since_change += 1
        noisy = picture + self._noise[self._frame % len(self._noise)]
        frame: NDArray[np.uint8] = np.clip(noisy, 0, 255).astype(np.uint8)
        return frame

    def close(self) -> None:
        if self.view == 0:
            self.table.stop()


def club_sources(table: ClubTable) -> list[ClubCamera]:
    """One source per camera of the table."""
    return [ClubCamera(table, view) for view in range(len(table.cameras))]
