"""The live table: frames in, tracked figure positions and rules answers out.

A background thread reads the source, locates the markers of each frame
(`arbitre.calibration.frame.locate_frame`, the same chain as ``arbitre locate``), feeds
the figure tracker and publishes a new state; an ``on_frame`` callback (the TUIO
output of `arbitre.api.tuio`) gets the tracks of every frame. When the source gives
no frame, the state goes stale (positions kept, never deleted) and the source is
retried every few seconds; the server stays up. A frame the source gives again (the
same picture) is not measured twice, and when no new frame has come for a while the
state says so (``source.ok`` false, ``source.frame_age_s``), even if a read hangs.
"""

from __future__ import annotations

import math
import threading
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from arbitre.api.desk import LastScene
from arbitre.calibration.anchors import AnchorMemory
from arbitre.calibration.camera import CameraIntrinsics
from arbitre.calibration.errors import CalibrationError
from arbitre.calibration.frame import Frame, locate_frame
from arbitre.calibration.locate import LocatedMarker, LocateResult
from arbitre.calibration.table import Roster, RosterFigure, Table
from arbitre.rules.answers import Answer
from arbitre.rules.errors import QuestionError, RulesError, SceneError
from arbitre.rules.model import Scene
from arbitre.rules.questions import ask
from arbitre.rules.registry import find_ruleset
from arbitre.rules.scene import parse_scene
from arbitre.vision.detect import MarkerTracker, diagonal_intersection
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


@dataclass(frozen=True, slots=True)
class TableConfig:
    """Everything the live table needs besides its source."""

    camera: CameraIntrinsics
    table: Table
    roster: Roster
    ruleset: str = "choc-base-6"
    options: Mapping[str, Any] = field(default_factory=dict)
    terrain: Sequence[Mapping[str, Any]] = ()
    allies: Sequence[Sequence[str]] = ()
    # The arbitre.yaml the table was read from, where terrain changes are saved (None:
    # the demo table, whose changes last until the server stops).
    config_path: Path | None = None
    # Averaging frames removes noise, not the errors every frame shares (calibration,
    # a marker not quite above the base's centre): positions given to the rules never
    # claim to be surer than this.
    sigma_floor_mm: float = 0.3
    # A marker glued a little off its base's centre: each figure's own error, along every
    # direction, whatever else is known (it does not cancel between two figures).
    own_floor_mm: float = 0.2


@dataclass(slots=True)
class _Latest:
    """The newest frame and what was measured in it (guarded by the table's lock)."""

    image: NDArray[np.uint8] | None = None
    frame: Frame | None = None
    image_px: dict[int, tuple[float, float]] = field(default_factory=dict)


class LiveTable:
    """A source, the measuring chain and the tracker, with a thread-safe state."""

    def __init__(
        self,
        config: TableConfig,
        source: FrameSource,
        *,
        clock: Callable[[], float] = time.monotonic,
        timer: Callable[[], float] = time.perf_counter,
        max_fps: float | None = 30.0,
        retry_s: float = RETRY_S,
        stale_after_s: float = STALE_AFTER_S,
        on_frame: Callable[[tuple[Track, ...]], None] | None = None,
    ) -> None:
        find_ruleset(config.ruleset)  # fail early on a bad ruleset name
        self.config = config
        self.terrain_version = 0
        """How many times the fixed terrain was replaced; a state tells the version it holds."""
        self.settings_lock = threading.RLock()
        """Held while the settings (options, terrain) change: each change reads, checks and
        writes them whole, and a caller saving them to a file holds it over both."""
        self.on_frame = on_frame  # e.g. a TuioSender: gets the tracks after every step
        self.max_fps = max_fps
        self.retry_s = retry_s
        self.stale_after_s = stale_after_s
        self.source = source
        self._clock = clock
        self._timer = timer  # times the measuring of each frame: the processing capacity
        self._started = clock()
        self._lock = threading.Lock()
        self._figures = FigureTracker()
        self._markers = MarkerTracker(
            config.table.dictionary,
            camera_matrix=config.camera.camera_matrix,
            dist_coeffs=config.camera.dist_coeffs,
            scan_beside=True,  # the periodic full scan never holds a frame up
        )
        self._latest = _Latest()
        self._frame_number = 0
        self._processed = 0
        self._source_ok = True
        self._source_message = "starting"
        self._anchors_seen: tuple[int, ...] = ()  # in view in the last frame
        self._anchors_held: tuple[int, ...] = ()  # the table was posed from
        self._shared_errors: tuple[str, ...] = ()  # the terms of the latest located frame
        self._anchors = AnchorMemory(config.table.anchor_ids)
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
        # The last scene made from the tracks, with what was derived from it: a table
        # whose figures have not moved (to the positions' rounding) reuses both, and with
        # them every cache the rules keep per scene (groups, gaps, hulls, paths).
        self._last_scene = LastScene()

    # --- the loop ----------------------------------------------------------------------

    def start(self) -> None:
        """Run the loop in a background thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="live-table", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self.source.close()

    @property
    def frames_processed(self) -> int:
        """New frames measured since the table started (a repeated picture counts once)."""
        return self._processed

    def _run(self) -> None:
        while not self._stop.is_set():
            started = self._clock()
            processed = self._processed
            if not self.step():
                self._stop.wait(self.retry_s)
                self.source.reopen()
                continue
            spent = self._clock() - started
            # a recording plays at the pace it was made, never faster than max_fps
            period = max(1 / self.max_fps if self.max_fps else 0.0, self.source.pace_s or 0.0)
            if period:
                self._stop.wait(max(0.0, period - spent))
            elif self._processed == processed:  # the same picture again: do not spin
                self._stop.wait(0.005)

    def step(self) -> bool:
        """Process one frame from the source; False when the source gave none.

        Then ``on_frame``, when set, gets the tracks (every one stale when the frame
        showed no table or there was no frame); it must return at once.
        """
        got = self._read_and_process()
        if self.on_frame is not None:
            self.on_frame(self.tracks())
        return got

    def _read_and_process(self) -> bool:
        try:
            image = self.source.read()
        except Exception as error:  # a driver failing mid-stream must not kill the loop
            image = None
            self._source_message = f"{self.source.description}: {error}"
        now = self._clock() - self._started
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
            frame = locate_frame(
                image,
                self.config.camera,
                self.config.table,
                self.config.roster,
                tracker=self._markers,
                anchors=self._anchors,
            )
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
            anchors = self.config.table.anchor_ids
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
                            _shared(located.shared_errors, m),
                        )
                        for m in (*located.markers, *(p.marker for p in located.terrain))
                    ],
                    again=again,
                )
            else:
                self._reprojection_px = None
                self._figures.lost(now)
            self._latest = _Latest(
                image,
                frame,
                {
                    m.id: _point(diagonal_intersection(m.image_corners_px))
                    for m in frame.detections.markers
                },
            )

    # --- what the API shows ------------------------------------------------------------

    def tracks(self) -> tuple[Track, ...]:
        with self._lock:
            return self._figures.tracks(self._clock() - self._started)

    def state(self) -> dict[str, Any]:
        """The ``/api/state`` object (see docs/formats.md)."""
        with self._lock:
            now = self._clock() - self._started
            tracks = self._figures.tracks(now)
            image_px = dict(self._latest.image_px)
            frame_number = self._frame_number
            source = self._source_health(now)
            anchors_seen = list(self._anchors_seen)
            anchors_held = list(self._anchors_held)
            moved = self._moved_at is not None and now - self._moved_at < MOVED_SHOWN_S
            reprojection = self._reprojection_px
        terrain_version = self.terrain_version  # before the terrain is read (set_terrain)
        ruleset = find_ruleset(self.config.ruleset)
        figures = []
        for track in tracks:
            if self.config.roster.terrain_by_marker(track.marker) is not None:
                continue  # a terrain marker is never a figure
            who = self.config.roster.by_marker(track.marker)
            figures.append(
                {
                    "id": who.id if who else f"marker{track.marker}",
                    "marker": track.marker,
                    "name": who.name if who else None,
                    "side": who.side if who else None,
                    "group": who.group if who else None,
                    "reference": who.reference if who else False,
                    "type": who.type if who else None,
                    "wounded": who.wounded if who else False,
                    "height_known": who is not None and who.marker_height_mm is not None,
                    "x_mm": round(track.x_mm, 2),
                    "y_mm": round(track.y_mm, 2),
                    "sigma_mm": round(track.sigma_mm, 3),
                    "heading_deg": round(track.heading_deg, 1),
                    "base": dict(who.base) if who and who.base is not None else None,
                    "stale": track.stale,
                    "age_s": round(track.age_s, 2),
                    "settled": track.settled,
                    "image_px": list(image_px[track.marker]) if track.marker in image_px else None,
                }
            )
        problem: str | None = None
        try:
            scene = self._scene_from(tracks)
            groups = self._groups_of(scene) if scene is not None else None
        except RulesError as error:  # e.g. a roster the ruleset refuses: say so, keep serving
            scene, groups, problem = None, None, str(error)
        unit = ruleset.unit(scene) if scene is not None else None
        grid = ruleset.grid(scene) if scene is not None else None
        return {
            "frame": frame_number,
            "time": round(now, 3),
            "figures": figures,
            "table": {
                "width_mm": self.config.table.width_mm,
                "depth_mm": self.config.table.depth_mm,
            },
            "terrain": terrain_of(self.config, tracks),
            "terrain_version": terrain_version,
            "ruleset": ruleset.name,
            "questions": sorted(ruleset.questions()),
            "unit": unit.name if unit else None,
            "unit_mm": unit.mm if unit else None,
            "grid": grid,
            "groups": groups["groups"] if groups else {},
            "group_warnings": groups["warnings"] if groups else [],
            "source": source,
            "anchors_seen": anchors_seen,
            "anchors_held": anchors_held,
            "camera_moved": moved,
            "table_reprojection_px": reprojection,
            "image_size": list(self.config.camera.image_size),
            "fps": source["delivered_fps"],
            "problem": problem,
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

    def set_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Use new ruleset options, checked first on the current table (RulesError if bad)."""
        with self.settings_lock:
            parse_scene(
                {**self._document(self.tracks()), "options": dict(options), "figures": []},
                source="options",
            )
            self.config = replace(self.config, options=dict(options))
        return dict(options)

    def check_terrain(self, terrain: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """The terrain as plain data, checked by the rules' scene parser (RulesError if bad)."""
        pieces = [dict(piece) for piece in terrain]
        clash = self.config.roster.clashing_terrain(str(piece.get("id")) for piece in pieces)
        if clash is not None:
            raise SceneError("terrain", "", clash)
        parse_scene(
            {**self._document(self.tracks()), "terrain": pieces, "figures": []}, source="terrain"
        )
        return pieces

    def set_terrain(self, terrain: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """Use new fixed terrain from the next state and question on (RulesError if bad)."""
        with self.settings_lock:
            pieces = self.check_terrain(terrain)
            self.use_terrain(pieces)
        return pieces

    def use_terrain(self, pieces: Sequence[Mapping[str, Any]]) -> None:
        """Use terrain that `check_terrain` has passed (the caller holds `settings_lock`
        from that check on)."""
        with self.settings_lock:
            self.config = replace(self.config, terrain=tuple(dict(p) for p in pieces))
            self.terrain_version += 1  # after the terrain: a state of this version holds it

    def scene(self) -> Scene | None:
        """The live table as a rules scene (None before any figure was seen)."""
        return self._scene_from(self.tracks())

    def scene_document(self) -> dict[str, Any]:
        """The live table as the data of a ``scene.yaml``."""
        return self._document(self.tracks())

    def _document(self, tracks: Sequence[Track]) -> dict[str, Any]:
        with self._lock:
            shared_errors = self._shared_errors
        return scene_document(self.config, tracks, shared_errors)

    def _scene_from(self, tracks: Sequence[Track]) -> Scene | None:
        """The scene of these tracks: the last one made when its document is the same."""
        if not tracks:
            return None
        return self._last_scene.scene(self._document(tracks), "live table")

    def _groups_of(self, scene: Scene) -> dict[str, Any]:
        """The ``groups`` answer of a scene (kept with the last scene made)."""
        return self._last_scene.derived(scene, "groups", lambda: ask(scene, "groups", []).to_json())

    def ask(
        self, question: str, args: Sequence[str], extras: Mapping[str, Any] | None = None
    ) -> tuple[Answer, dict[str, Any]]:
        """Answer a rules question on the live table, saying which positions it used."""
        tracks = self.tracks()
        scene = self._scene_from(tracks)
        if scene is None:
            raise QuestionError("no figure has been seen on the table yet")
        return ask(scene, question, args, extras), self._about(tracks)

    def question_input(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """What a question on the live table needs, as plain data for another process:
        the scene's document and which positions it holds (`ask`'s second part)."""
        tracks = self.tracks()
        if not tracks:
            raise QuestionError("no figure has been seen on the table yet")
        return self._document(tracks), self._about(tracks)

    def _about(self, tracks: Sequence[Track]) -> dict[str, Any]:
        return {
            "positions": "settled" if all(t.settled for t in tracks) else "moving",
            "moving": [_figure_id(t, self.config.roster) for t in tracks if not t.settled],
            "stale": [_figure_id(t, self.config.roster) for t in tracks if t.stale],
        }

    def jpeg(self, *, overlays: bool = True, quality: int = 80) -> bytes | None:
        """The newest frame as JPEG, with the located markers drawn. A frame that is no
        longer live (the source gave nothing new for a while) carries a red banner
        saying so, drawings or not."""
        with self._lock:
            image = None if self._latest.image is None else self._latest.image.copy()
            frame = self._latest.frame
            health = self._source_health(self._clock() - self._started)
        if image is None:
            return None
        if overlays and frame is not None:
            draw_overlays(image, frame, self.config.roster)
        if not health["ok"]:
            draw_banner(image, health["message"])
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return bytes(data) if ok else None


def terrain_of(config: TableConfig, tracks: Sequence[Track]) -> list[dict[str, Any]]:
    """The fixed terrain of arbitre.yaml, then every piece placed by its marker's track
    (a piece whose marker is hidden keeps its last place, ``stale``)."""
    features = [dict(t) for t in config.terrain]
    for track in tracks:
        piece = config.roster.terrain_by_marker(track.marker)
        if piece is not None:
            placed = piece.placed(track.x_mm, track.y_mm, track.heading_deg)
            features.append({**placed, "marker": track.marker, "stale": track.stale})
    return features


def scene_document(
    config: TableConfig, tracks: Sequence[Track], shared_errors: tuple[str, ...]
) -> dict[str, Any]:
    """The data of a ``scene.yaml`` for these tracks: the roster's figures on the table,
    the terrain, and the errors the figures share (``shared_errors``: the terms of the
    latest located frame)."""
    table = config.table
    figures = []
    for track in tracks:
        if config.roster.terrain_by_marker(track.marker) is not None:
            continue
        if not (0 <= track.x_mm <= table.width_mm and 0 <= track.y_mm <= table.depth_mm):
            continue
        who = config.roster.by_marker(track.marker)
        figures.append(_scene_figure(track, who, config, shared_errors))
    document: dict[str, Any] = {
        "ruleset": config.ruleset,
        "options": dict(config.options),
        "table": {"width_mm": table.width_mm, "depth_mm": table.depth_mm},
        "figures": figures,
    }
    if any("shared_mm" in figure for figure in figures):
        document["shared_errors"] = list(shared_errors)
    terrain = [
        {k: v for k, v in feature.items() if k not in ("marker", "stale")}
        for feature in terrain_of(config, tracks)
    ]
    if terrain:
        document["terrain"] = terrain
    if config.allies:
        document["allies"] = [list(a) for a in config.allies]
    return document


def located_tracks(
    markers: Sequence[LocatedMarker], shared_errors: tuple[str, ...], min_sigma_mm: float
) -> tuple[Track, ...]:
    """Tracks of markers located in one picture (or fused from several views), as the
    tracker would give after one frame: a photo made into a scene."""
    tracks = []
    for marker in markers:
        shared = _shared(shared_errors, marker)
        sigma = max(marker.sigma_mm, min_sigma_mm)
        tracks.append(
            Track(
                marker=marker.id,
                x_mm=marker.x_mm,
                y_mm=marker.y_mm,
                sigma_mm=sigma,
                heading_deg=marker.heading_deg % 360.0,
                stale=False,
                age_s=0.0,
                settled=True,
                still_s=0.0,
                last_seen_s=0.0,
                shared=shared,
                own_cov_mm2=marker.own_cov_mm2 if shared is not None else None,
            )
        )
    return tuple(tracks)


def _point(xy: NDArray[np.float64]) -> tuple[float, float]:
    return float(xy[0]), float(xy[1])


POSITION_STEP_MM = 0.05
"""The live table's figures are placed to this step in its scenes."""


def _on_step(value_mm: float) -> float:
    """A position to the nearest `POSITION_STEP_MM`, written as such (99.85, never
    99.85000000000001).

    >>> _on_step(99.8731), _on_step(19.9504)
    (99.85, 19.95)
    """
    return round(round(value_mm / POSITION_STEP_MM) * POSITION_STEP_MM, 2)


def _figure_id(track: Track, roster: Roster) -> str:
    who = roster.by_marker(track.marker)
    return who.id if who else f"marker{track.marker}"


def _shared(errors: tuple[str, ...], marker: LocatedMarker) -> Shared | None:
    """What a located marker shares with the others of its frame (None if nothing)."""
    if not errors or marker.own_cov_mm2 is None:
        return None
    (hxx, hxy), (_, hyy) = marker.height_cov_mm2
    (oxx, oxy), (_, oyy) = marker.own_cov_mm2
    noise = ((oxx - hxx, oxy - hxy), (oxy - hxy, oyy - hyy))
    return Shared(errors, marker.shared_mm, marker.height_cov_mm2, noise)


SHARED_DECIMALS = 3
"""A live scene's shared moves are written to a thousandth of a mm: a still figure's
come out the same from frame to frame (its scene is not read again), and what the
rounding leaves in a measure between two figures is a few thousandths of a mm."""


def _floored(own: tuple[tuple[float, float], tuple[float, float]], floor_mm: float) -> list[Any]:
    """A figure's own covariance, never surer than ``floor_mm`` along any direction (a
    marker not quite above its base's centre: each figure's own, whatever the rest),
    to 0.001 mm²: at least 0.04 mm² along every direction (0.2 mm), that is within
    0.003 mm of its sigma, and a still figure's averaged noise, which moves by
    hundred-thousandths from frame to frame, seldom changes it (its scene is not read
    again).

    >>> _floored(((0.01, 0.0), (0.0, 0.5)), 0.3)
    [[0.09, 0.0], [0.0, 0.58]]
    """
    (xx, xy), (_, yy) = own
    smallest = 0.5 * ((xx + yy) - math.hypot(xx - yy, 2.0 * xy))
    raised = max(floor_mm**2 - smallest, 0.0)
    xx, yy = round(xx + raised, 3), round(yy + raised, 3)
    xy = math.copysign(min(round(abs(xy), 3), math.sqrt(xx * yy)), xy)  # still a covariance
    return [[xx, xy], [xy, yy]]


def _scene_figure(
    track: Track, who: RosterFigure | None, config: TableConfig, shared_errors: tuple[str, ...]
) -> dict[str, Any]:
    """A scene.yaml figure for a tracked marker (roster fields when the roster knows it).

    Its shared errors are written when they are the terms of the latest located frame
    (``shared_errors``; a figure last seen before the anchors changed is written as
    independent). ``sigma_mm`` is never under the table's ``sigma_floor_mm``, and the own
    covariance never under its ``own_floor_mm`` along any direction (`_floored`)."""
    figure: dict[str, Any] = {
        "id": who.id if who else f"marker{track.marker}",
        "side": (who.side if who and who.side else "unknown"),
        # To a twentieth of a mm (the positions are never surer than sigma_floor_mm): a
        # still figure's averaged position keeps its value from frame to frame.
        "x_mm": _on_step(track.x_mm),
        "y_mm": _on_step(track.y_mm),
        "facing_deg": round(track.heading_deg, 1),
        "sigma_mm": round(max(track.sigma_mm, config.sigma_floor_mm), 2),
    }
    if track.shared is not None and track.own_cov_mm2 is not None and shared_errors:
        if track.shared.errors == shared_errors:
            figure["shared_mm"] = [
                [round(dx, SHARED_DECIMALS), round(dy, SHARED_DECIMALS)]
                for dx, dy in track.shared.moves_mm
            ]
            figure["own_cov_mm2"] = _floored(track.own_cov_mm2, config.own_floor_mm)
    if who is not None:
        for key in ("group", "type", "unit"):
            if getattr(who, key) is not None:
                figure[key] = getattr(who, key)
        if who.reference:
            figure["reference"] = True
        if who.wounded:
            figure["wounded"] = True
        if who.base is not None:
            figure["base"] = dict(who.base)
        if who.marker_height_mm is not None:
            figure["marker_height_mm"] = who.marker_height_mm
        if who.attrs:
            figure["attrs"] = dict(who.attrs)
    return figure


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
