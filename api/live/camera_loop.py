"""One camera watching the table: its source, its own measuring chain and tracker.

A background thread reads the source, locates the markers of each frame
(`arbitre.calibration.frame.locate_frame`, the same chain as ``arbitre locate``) from
the pose this camera holds (its own `AnchorMemory`), and feeds this camera's figure
tracker. When the source gives no frame, its tracks go stale (positions kept, never
deleted) and the source is retried every few seconds. A frame the source gives again
(the same picture) is not measured twice, and when no new frame has come for a while
the camera says so (``ok`` false, ``frame_age_s``), even if a read hangs.

`arbitre.api.live.table.LiveTable` runs one `CameraLoop` per camera and fuses their tracks.
"""

from __future__ import annotations

import threading
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from arbitre.api.live.measuring import CameraMeasure, MeasuringProcess
from arbitre.calibration.camera import CameraIntrinsics
from arbitre.calibration.errors import CalibrationError
from arbitre.calibration.frame import Frame
from arbitre.calibration.locate import LocatedMarker, LocateResult
from arbitre.calibration.table import Roster, Table
from arbitre.vision.detect import diagonal_intersections
from arbitre.vision.errors import VisionError
from arbitre.vision.sources import FrameSource
from arbitre.vision.tracking import FigureTracker, Observation, Shared, Track

RETRY_S = 3.0
MIN_SIGMA_MM = 1e-3  # a measurement is never exact
MOVED_SHOWN_S = 3.0
"""How long the state says the camera moved (and the table was posed afresh) after it did."""
STALE_AFTER_S = 2.0
"""With no new frame for this long (or twice a slow source's own interval), the source is
not ok: the newest frame is old, whatever the source says."""
RATE_WINDOW_S = 2.0
"""Delivered frames per second are counted over the last this many seconds."""
STREAM_WIDTH_PX = 1920
"""Pictures for the page are never wider than this (a 4K frame is shrunk: the page shows
it a few hundred pixels wide, and encoding 4K ten times a second costs a core)."""


@dataclass(slots=True)
class _Latest:
    """The newest frame and what was measured in it (guarded by the camera's lock)."""

    image: NDArray[np.uint8] | None = None
    frame: Frame | None = None
    image_px: dict[int, tuple[float, float]] = field(default_factory=dict)


class CameraLoop:
    """A camera's source, measuring chain and tracker, with a thread-safe state.

    ``now`` gives the table's time in seconds (every camera of a table shares it, so
    their tracks' times compare); ``on_step`` is called after every step (the table's
    fusion and outputs); ``timer`` times the measuring of each frame.
    """

    def __init__(
        self,
        camera: CameraIntrinsics,
        table: Table,
        roster: Roster,
        source: FrameSource,
        *,
        now: Callable[[], float],
        timer: Callable[[], float] = time.perf_counter,
        max_fps: float | None = 30.0,
        retry_s: float = RETRY_S,
        stale_after_s: float = STALE_AFTER_S,
        on_step: Callable[[], None] | None = None,
        name: str = "live-table",
        process: bool = False,
    ) -> None:
        self.camera = camera
        self.table = table
        self.roster = roster
        self.source = source
        self.max_fps = max_fps
        self.retry_s = retry_s
        self.stale_after_s = stale_after_s
        self.on_step = on_step
        self.name = name
        self._now = now
        self._timer = timer
        self._lock = threading.Lock()
        self._figures = FigureTracker()
        self._latest = _Latest()
        self._frame_number = 0
        self._steps = 0
        self._processed = 0
        self._source_ok = True
        self._source_message = "starting"
        self._anchors_seen: tuple[int, ...] = ()  # in view in the last frame
        self._anchors_held: tuple[int, ...] = ()  # the table was posed from
        self._shared_errors: tuple[str, ...] = ()  # the terms of the latest located frame
        self._moved_at: float | None = None
        self.located_frames = 0
        """Frames in which the table was found (its anchors seen)."""
        self._reprojection_px: float | None = None
        self._last_image: NDArray[np.uint8] | None = None  # the source's last frame, as given
        self._new_frame_times: deque[float] = deque()  # of the last RATE_WINDOW_S
        self._first_frame_at: float | None = None
        self._processing_s: float | None = None  # moving average of the time to measure one
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        # The camera's tracker and pose memory, kept from frame to frame; with ``process``,
        # in a process of the camera's own (`arbitre.api.live.measuring`).
        self._measure = (MeasuringProcess if process else CameraMeasure)(camera, table, roster)

    # --- the loop ----------------------------------------------------------------------

    def start(self) -> None:
        """Run the loop in a background thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self.source.close()
        self._measure.close()

    @property
    def frames_processed(self) -> int:
        """New frames measured since the camera started (a repeated picture counts once)."""
        return self._processed

    @property
    def steps(self) -> int:
        """Steps taken (a frame read, or none given): what the camera says may have
        changed since a step before."""
        return self._steps

    @property
    def frame_number(self) -> int:
        """Frames taken into the state (located or not)."""
        return self._frame_number

    def _run(self) -> None:
        clock = time.monotonic
        while not self._stop.is_set():
            started = clock()
            processed = self._processed
            if not self.step():
                if self._stop.wait(self.retry_s):
                    break  # stopped meanwhile: the source is closed, never opened again
                self.source.reopen()
                continue
            spent = clock() - started
            # a recording plays at the pace it was made, never faster than max_fps
            period = max(1 / self.max_fps if self.max_fps else 0.0, self.source.pace_s or 0.0)
            if period:
                self._stop.wait(max(0.0, period - spent))
            elif self._processed == processed:  # the same picture again: do not spin
                self._stop.wait(0.005)

    def step(self) -> bool:
        """Process one frame from the source; False when the source gave none.

        Then ``on_step``, when set, is called (the table's tracks are every one of this
        camera's stale when the frame showed no table or there was no frame).
        """
        got = self._read_and_process()
        self._steps += 1
        if self.on_step is not None:
            self.on_step()
        return got

    def _read_and_process(self) -> bool:
        try:
            image = self.source.read()
        except Exception as error:  # a driver failing mid-stream must not kill the loop
            image = None
            self._source_message = f"{self.source.description}: {error}"
        now = self._now()
        if image is None:
            with self._lock:
                self._source_ok = False
                if self._source_message in ("starting", "ok"):
                    self._source_message = self.source.no_frame()
                self._figures.lost(now)
            return False
        if image is self._last_image:  # the same picture again: nothing new to measure
            return True
        self._last_image = image
        with self._lock:
            times = self._new_frame_times
            times.append(now)
            while times[0] <= now - RATE_WINDOW_S:
                times.popleft()
            if self._first_frame_at is None:
                self._first_frame_at = now
        measuring = self._timer()
        try:
            frame = self._measure.locate(image)
        except (VisionError, CalibrationError) as error:  # a frame it cannot read
            with self._lock:
                self._source_ok = False
                self._source_message = f"{self.source.description}: {error}"
                self._figures.lost(now)
            return False
        self.process(now, image, frame, again=self.source.again)
        spent = self._timer() - measuring
        with self._lock:
            self._processed += 1
            average = self._processing_s
            self._processing_s = spent if average is None else 0.9 * average + 0.1 * spent
        return True

    def process(
        self, now: float, image: NDArray[np.uint8], frame: Frame, *, again: bool = False
    ) -> None:
        """Take one located frame into the state (``again``: a picture seen before, see
        `FrameSource.again`)."""
        with self._lock:
            self._source_ok = True
            self._source_message = "ok"
            self._frame_number += 1
            located = frame.located
            anchors = self.table.anchor_ids
            self._anchors_seen = tuple(
                sorted(m.id for m in frame.detections.markers if m.id in anchors)
            )
            self._anchors_held = located.anchors_seen
            if frame.camera_moved:  # what was measured from the old pose is forgotten
                self._moved_at = now
                self._figures = FigureTracker()
            if frame.pose_doubtful:
                pass  # the camera may be moving: the places stay as they were
            elif isinstance(located, LocateResult):
                self.located_frames += 1
                self._reprojection_px = located.pose.reprojection_px
                self._shared_errors = located.shared_errors
                self._figures.update(
                    now,
                    [
                        Observation(
                            m.id,
                            m.x_mm,
                            m.y_mm,
                            max(m.sigma_mm, MIN_SIGMA_MM),
                            m.heading_deg,
                            min(m.shared_sigma_mm, max(m.sigma_mm, MIN_SIGMA_MM)),
                            shared_of(located.shared_errors, m),
                        )
                        for m in (*located.markers, *(p.marker for p in located.terrain))
                    ],
                    again=again,
                )
            else:
                self._reprojection_px = None
                self._figures.lost(now)
            self._latest = _Latest(image, frame, _centres(frame))

    # --- what it shows -----------------------------------------------------------------

    def tracks(self, now: float | None = None) -> tuple[tuple[Track, ...], tuple[str, ...]]:
        """This camera's tracks at ``now`` (the table's time; its clock by default), and the
        shared terms of its latest located frame."""
        with self._lock:
            at = self._now() if now is None else now
            return self._figures.tracks(at), self._shared_errors

    def image_px(self) -> dict[int, tuple[float, float]]:
        """Where each marker of the newest frame is in the picture (pixels)."""
        with self._lock:
            return dict(self._latest.image_px)

    def view(self, now: float | None = None) -> dict[str, Any]:
        """What the live state says of this camera (docs/formats.md, ``cameras``)."""
        with self._lock:
            at = self._now() if now is None else now
            health = self._source_health(at)
            return {
                **health,
                "anchors_seen": list(self._anchors_seen),
                "anchors_held": list(self._anchors_held),
                "fps": health["delivered_fps"],
                "frame": self._frame_number,
                "camera_moved": self._moved_at is not None and at - self._moved_at < MOVED_SHOWN_S,
                "table_reprojection_px": self._reprojection_px,
                "image_size": list(self.camera.image_size),
            }

    def _source_health(self, now: float) -> dict[str, Any]:
        """``{description, ok, message, frame_age_s, delivered_fps, capacity_fps}`` (under
        the lock): ``ok`` is false when the last read gave nothing or no new frame came
        for `stale_after_s` (twice a slow source's interval when that is longer)."""
        recent = [t for t in self._new_frame_times if t > now - RATE_WINDOW_S]
        last = self._new_frame_times[-1] if self._new_frame_times else None
        interval = self.source.frame_interval_s
        patience = max(self.stale_after_s, 2.0 * interval if interval else 0.0)
        waited = now - (last if last is not None else 0.0)
        ok, message = self._source_ok, self._source_message
        if ok and waited > patience:
            ok = False
            what = "no new frame" if last is not None else "no frame yet"
            message = f"{self.source.description}: {what} for {waited:.1f} s"
        delivered = len(recent) / RATE_WINDOW_S  # frames of the last RATE_WINDOW_S seconds
        first = self._first_frame_at
        if first is not None and first > now - RATE_WINDOW_S:  # running for less than that
            span = recent[-1] - recent[0] if len(recent) >= 2 else 0.0
            delivered = (len(recent) - 1) / span if span > 0 else 0.0
        capacity = 1.0 / max(self._processing_s, 1e-6) if self._processing_s else None
        return {
            "description": self.source.description,
            "ok": ok,
            "message": message,
            "frame_age_s": None if last is None else round(max(now - last, 0.0), 3),
            "delivered_fps": round(delivered, 1),
            "capacity_fps": None if capacity is None else round(capacity, 1),
        }

    def jpeg(
        self, *, overlays: bool = True, quality: int = 80, max_width: int | None = None
    ) -> bytes | None:
        """The newest frame as JPEG, with the located markers drawn (no wider than
        ``max_width``, when given). A frame that is no longer live (the source gave
        nothing new for a while) carries a red banner saying so, drawings or not."""
        with self._lock:
            image = None if self._latest.image is None else self._latest.image.copy()
            frame = self._latest.frame
            health = self._source_health(self._now())
        if image is None:
            return None
        if overlays and frame is not None:
            draw_overlays(image, frame, self.roster)
        if max_width is not None and image.shape[1] > max_width:
            height = round(image.shape[0] * max_width / image.shape[1])
            image = cv2.resize(image, (max_width, height), interpolation=cv2.INTER_AREA).astype(
                np.uint8, copy=False
            )
        if not health["ok"]:
            draw_banner(image, health["message"])
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return bytes(data) if ok else None


def shared_of(errors: tuple[str, ...], marker: LocatedMarker) -> Shared | None:
    """What a located marker shares with the others of its frame (None if nothing)."""
    if not errors or marker.own_cov_mm2 is None:
        return None
    (hxx, hxy), (_, hyy) = marker.height_cov_mm2
    (oxx, oxy), (_, oyy) = marker.own_cov_mm2
    noise = ((oxx - hxx, oxy - hxy), (oxy - hxy, oyy - hyy))
    return Shared(errors, marker.shared_mm, marker.height_move_mm, noise)


def _centres(frame: Frame) -> dict[int, tuple[float, float]]:
    """Where each marker of a frame is in the picture: its diagonals' intersection, px."""
    markers = frame.detections.markers
    if not markers:
        return {}
    corners = np.array([m.image_corners_px for m in markers], dtype=np.float64)
    centres = diagonal_intersections(corners).tolist()
    return {m.id: (x, y) for m, (x, y) in zip(markers, centres, strict=True)}


def _ascii(text: str) -> str:
    """The text without accents: OpenCV's Hershey fonts draw ASCII only."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore")
    return plain.decode("ascii")


def draw_banner(image: NDArray[np.uint8], text: str) -> None:
    """A red band across the top of the picture with ``text`` (an old frame, say)."""
    height = max(24, image.shape[0] // 20)
    image[:height] = (0.35 * image[:height] + [0, 0, 160]).astype(np.uint8)
    scale = height / 40.0
    origin = (8, int(height * 0.72))
    cv2.putText(image, _ascii(text), origin, cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), 2)


def draw_overlays(image: NDArray[np.uint8], frame: Frame, roster: Roster) -> None:
    """Outline each detected marker and write its figure's name beside it (in place)."""
    for marker in frame.detections.markers:
        corners = np.round(marker.image_corners_px).astype(np.int32)
        cv2.polylines(image, [corners], True, (0, 220, 255), 2, cv2.LINE_AA)
        who = roster.by_marker(marker.id)
        label = _ascii(who.name) if who else str(marker.id)
        x, y = int(corners[:, 0].max()) + 4, int(corners[:, 1].min())
        cv2.putText(image, label, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(
            image, label, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1, cv2.LINE_AA
        )
