"""The live table: frames in, tracked figure positions and rules answers out.

Each camera watching the table has its own loop (`arbitre.api.live.camera_loop`): a
background thread reads its source, locates the markers of each frame (the same chain
as ``arbitre locate``) from the pose that camera holds, and feeds its figure tracker.
The table's figures are the cameras' tracks fused (`arbitre.api.live.fused_tracks`); an
``on_frame`` callback (the TUIO output of `arbitre.api.live.tuio`) gets them after every
frame. When a source gives no frame, what only that camera saw goes stale (positions
kept, never deleted) and the source is retried every few seconds; the other cameras
and the server go on. The state says how each camera is (``cameras``) and whether all
are live (``source.ok``).
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Generic, TypeVar

import numpy as np
from numpy.typing import NDArray

from arbitre.api.live.camera_loop import (
    MIN_SIGMA_MM,
    MOVED_SHOWN_S,
    RETRY_S,
    STALE_AFTER_S,
    CameraLoop,
    shared_of,
)
from arbitre.api.live.desk import LastScene, about_question, groups_answer, groups_of
from arbitre.api.live.fused_tracks import Disagreement, FusedTracks, fuse_tracks
from arbitre.api.live.terrain_rules import terrain_read
from arbitre.calibration.camera import CameraIntrinsics
from arbitre.calibration.frame import Frame
from arbitre.calibration.locate import LocatedMarker
from arbitre.calibration.table import Roster, RosterFigure, Table
from arbitre.files import beyond_bounds
from arbitre.rules.answers import Answer, counted
from arbitre.rules.errors import QuestionError, RulesError, SceneError
from arbitre.rules.model import Scene
from arbitre.rules.questions import ask
from arbitre.rules.registry import find_ruleset
from arbitre.rules.scene import parse_scene
from arbitre.vision.sources import FrameSource
from arbitre.vision.tracking import Track

T = TypeVar("T")


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
    # The table's other cameras (``cameras:`` in arbitre.yaml), after ``camera``.
    more_cameras: tuple[CameraIntrinsics, ...] = ()

    @property
    def cameras(self) -> tuple[CameraIntrinsics, ...]:
        """Every camera watching the table, the first one first."""
        return (self.camera, *self.more_cameras)


PIN_RELEASE_MM = 10.0
"""A pinned figure seen again this near where it was pinned is released: the camera's
place takes over."""


@dataclass(frozen=True, slots=True)
class Pin:
    """A figure put back by hand where it stood (a knocked-over figure, from the game
    journal): the live table uses this place until the camera sees the figure again
    within `PIN_RELEASE_MM` of it, or the player releases it. ``time``: when it stood
    there (seconds since 1970)."""

    marker: int
    x_mm: float
    y_mm: float
    facing_deg: float
    sigma_mm: float
    time: float


class LiveTable:
    """The table watched by one camera or several: each camera's loop
    (`arbitre.api.live.camera_loop.CameraLoop`), their tracks fused
    (`arbitre.api.live.fused_tracks`), the rules' settings, with a thread-safe state.

    ``source`` is one frame source, or one per camera of ``config.cameras`` (in order).
    With ``processes``, each camera's frames are located in a process of its own
    (`arbitre.api.live.measuring`): several cameras then measure side by side, not in turns.
    """

    def __init__(
        self,
        config: TableConfig,
        source: FrameSource | Sequence[FrameSource],
        *,
        clock: Callable[[], float] = time.monotonic,
        timer: Callable[[], float] = time.perf_counter,
        max_fps: float | None = 30.0,
        retry_s: float = RETRY_S,
        stale_after_s: float = STALE_AFTER_S,
        on_frame: Callable[[tuple[Track, ...]], None] | None = None,
        processes: bool = False,
    ) -> None:
        find_ruleset(config.ruleset)  # fail early on a bad ruleset name
        sources = [source] if isinstance(source, FrameSource) else list(source)
        if len(sources) != len(config.cameras):
            raise ValueError(
                f"{counted(len(config.cameras), 'camera')} and {counted(len(sources), 'source')}"
            )
        self.config = config
        self.terrain_version = 0
        """How many times the fixed terrain was replaced; a state tells the version it holds."""
        self.settings_lock = threading.RLock()
        """Held while the settings (options, terrain) change: each change reads, checks and
        writes them whole, and a caller saving them to a file holds it over both."""
        self.on_frame = on_frame  # e.g. a TuioSender: gets the tracks after every step
        self._clock = clock
        self._started = clock()
        self._on_frame_lock = threading.Lock()  # the cameras' threads call it one at a time
        self.cameras = tuple(
            CameraLoop(
                camera,
                config.table,
                config.roster,
                each,
                now=self._now,
                timer=timer,
                max_fps=max_fps,
                retry_s=retry_s,
                stale_after_s=stale_after_s,
                on_step=self._stepped,
                name="live-table" if k == 0 else f"live-table-{k}",
                process=processes,
            )
            for k, (camera, each) in enumerate(zip(config.cameras, sources, strict=True))
        )
        """One loop per camera, in the order of ``config.cameras``."""
        self._recent_state: Latest[dict[str, Any]] = Latest()
        self._recent_document: Latest[dict[str, Any]] = Latest()
        self._recent_state_json: Latest[bytes] = Latest()
        self._recent_document_json: Latest[bytes] = Latest()
        self._recent_jpegs: dict[tuple[bool, int], Latest[bytes | None]] = {
            (overlays, k): Latest() for overlays in (False, True) for k in range(len(sources))
        }
        self._pins: dict[int, Pin] = {}  # by marker
        self._pins_lock = threading.Lock()
        self.pins_version = 0
        """How many times a figure was pinned or released."""
        # The last scene made from the tracks, with what was derived from it: a table
        # whose figures have not moved (to the positions' rounding) reuses both, and with
        # them every cache the rules keep per scene (groups, gaps, hulls, paths).
        self._last_scene = LastScene()

    def recent_state(self) -> dict[str, Any]:
        """The state, made once for every caller asking within a tenth of a second while
        nothing changed (no camera stepped, the settings the same): however many clients
        ask, the state is made at most once a step and ten times a second, one at a time,
        never beside itself on every server thread (the camera's process would starve)."""
        return self._recent_state.get(self._change_key(), self.state)

    def recent_state_json(self) -> bytes:
        """`recent_state` as JSON, written once for every caller of the same state."""
        key = self._change_key()
        return self._recent_state_json.get(
            key, lambda: _json(self._recent_state.get(key, self.state))
        )

    def recent_document(self) -> dict[str, Any]:
        """The scene document, made as `recent_state` is."""
        return self._recent_document.get(self._change_key(), self.scene_document)

    def recent_document_json(self) -> bytes:
        """`recent_document` as JSON, written once for every caller of the same table."""
        key = self._change_key()
        return self._recent_document_json.get(
            key, lambda: _json(self._recent_document.get(key, self.scene_document))
        )

    def recent_jpeg(self, *, overlays: bool = True, camera: int = 0) -> bytes | None:
        """`jpeg`, encoded as `recent_state` is made: once a step and a tenth of a second."""
        if not 0 <= camera < len(self.cameras):
            raise IndexError(f"no camera {camera}: the table has {len(self.cameras)}")
        pictures = self._recent_jpegs[(overlays, camera)]
        return pictures.get(self._change_key(), lambda: self.jpeg(overlays=overlays, camera=camera))

    def _change_key(self) -> tuple[object, ...]:
        """What a state depends on besides the time within a tenth of a second."""
        steps = tuple(camera.steps for camera in self.cameras)
        time_key = int(self._now() * 10.0)
        return (id(self.config), self.terrain_version, self.pins_version, steps, time_key)

    def _now(self) -> float:
        """The table's time: seconds since it started (every camera's tracks use it)."""
        return self._clock() - self._started

    # --- the loops ---------------------------------------------------------------------

    @property
    def source(self) -> FrameSource:
        """The first camera's source (the only one of a one-camera table)."""
        return self.cameras[0].source

    @property
    def sources(self) -> tuple[FrameSource, ...]:
        return tuple(camera.source for camera in self.cameras)

    def start(self) -> None:
        """Run each camera's loop in a background thread."""
        for camera in self.cameras:
            camera.start()

    def stop(self) -> None:
        for camera in self.cameras:
            camera.stop()

    @property
    def frames_processed(self) -> int:
        """New frames measured since the table started, all cameras together (a
        repeated picture counts once)."""
        return sum(camera.frames_processed for camera in self.cameras)

    @property
    def located_frames(self) -> int:
        """Frames in which the table was found (its anchors seen), all cameras together."""
        return sum(camera.located_frames for camera in self.cameras)

    def step(self) -> bool:
        """Process one frame from each camera's source; False when none gave one.

        After each camera's frame, ``on_frame``, when set, gets the table's tracks
        (a camera's every one stale when its frame showed no table or there was no
        frame); it must return at once.
        """
        got = [camera.step() for camera in self.cameras]
        return any(got)

    def _stepped(self) -> None:
        if self.on_frame is not None:
            with self._on_frame_lock:
                self.on_frame(self.tracks())

    def process(
        self,
        now: float,
        image: NDArray[np.uint8],
        frame: Frame,
        *,
        again: bool = False,
        camera: int = 0,
    ) -> None:
        """Take one located frame of a camera into the state (``again``: a picture seen
        before, see `FrameSource.again`)."""
        self.cameras[camera].process(now, image, frame, again=again)

    # --- what the API shows ------------------------------------------------------------

    def fused(self) -> FusedTracks:
        """The table's tracks now: every camera's, fused, a pinned figure at its pin."""
        now = self._now()
        return self._with_pins(fuse_tracks([camera.tracks(now) for camera in self.cameras]))

    # --- figures put back by hand ------------------------------------------------------

    def pin(self, pin: Pin) -> None:
        """Use ``pin``'s place for its figure until the camera sees it there again (or
        `release`)."""
        with self._pins_lock:
            self._pins[pin.marker] = pin
            self.pins_version += 1

    def release(self, marker: int) -> bool:
        """Let the camera place a pinned figure again; False if it was not pinned."""
        with self._pins_lock:
            released = self._pins.pop(marker, None) is not None
            if released:
                self.pins_version += 1
        return released

    def pins(self) -> tuple[Pin, ...]:
        """The figures pinned now, by marker."""
        with self._pins_lock:
            return tuple(self._pins[marker] for marker in sorted(self._pins))

    def _with_pins(self, fused: FusedTracks) -> FusedTracks:
        """The tracks with each pinned figure at its pin (independent of the others, sure to
        its pin's sigma); a pin whose figure the camera sees again within `PIN_RELEASE_MM`
        of it is released first."""
        with self._pins_lock:
            if not self._pins:
                return fused
            tracks = {track.marker: track for track in fused.tracks}
            for marker, pin in list(self._pins.items()):
                seen = tracks.get(marker)
                if seen is not None and not seen.stale:
                    if math.hypot(seen.x_mm - pin.x_mm, seen.y_mm - pin.y_mm) <= PIN_RELEASE_MM:
                        del self._pins[marker]  # back where it stood: the camera takes over
                        self.pins_version += 1
                        continue
                tracks[marker] = Track(
                    marker=marker,
                    x_mm=pin.x_mm,
                    y_mm=pin.y_mm,
                    sigma_mm=pin.sigma_mm,
                    heading_deg=pin.facing_deg % 360.0,
                    stale=False,
                    age_s=0.0,
                    settled=True,
                    still_s=0.0,
                    last_seen_s=seen.last_seen_s if seen is not None else 0.0,
                )
        return replace(fused, tracks=tuple(tracks.values()))

    def pinned_markers(self) -> frozenset[int]:
        """The markers of the figures pinned now."""
        with self._pins_lock:
            return frozenset(self._pins)

    def tracks(self) -> tuple[Track, ...]:
        return self.fused().tracks

    def state(self) -> dict[str, Any]:
        """The ``/api/state`` object (see docs/formats.md)."""
        now = self._now()
        fused = self.fused()
        tracks = fused.tracks
        cameras = [camera.view(now) for camera in self.cameras]
        pictured = [camera.image_px() for camera in self.cameras]
        first = cameras[0]
        terrain_version = self.terrain_version  # before the terrain is read (use_terrain)
        ruleset = find_ruleset(self.config.ruleset)
        pins = self.pins()
        pinned = {pin.marker for pin in pins}
        figures = []
        for track in tracks:
            if self.config.roster.terrain_by_marker(track.marker) is not None:
                continue  # a terrain marker is never a figure
            who = self.config.roster.by_marker(track.marker)
            px = [list(seen[track.marker]) if track.marker in seen else None for seen in pictured]
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
                    "image_px": px[0],
                    "views_px": px,
                    "views": list(fused.views.get(track.marker, ())),
                    "pinned": track.marker in pinned,
                }
            )
        problem: str | None = None
        try:
            scene = self._scene_from(fused)
            groups = groups_answer(scene, self._last_scene) if scene is not None else None
        except RulesError as error:  # e.g. a roster the ruleset refuses: say so, keep serving
            scene, groups, problem = None, None, str(error)
        unit = ruleset.unit(scene) if scene is not None else None
        grid = ruleset.grid(scene) if scene is not None else None
        source = _health(cameras)
        return {
            "frame": sum(camera["frame"] for camera in cameras),
            "time": round(now, 3),
            "figures": figures,
            "table": {
                "width_mm": self.config.table.width_mm,
                "depth_mm": self.config.table.depth_mm,
            },
            "terrain": terrain_of(self.config, tracks),
            "terrain_version": terrain_version,
            "ruleset": ruleset.name,
            "questions": sorted(ruleset.known_questions),
            "terrain_rules": terrain_read(ruleset.name, self.config.options),
            "unit": unit.name if unit else None,
            "unit_mm": unit.mm if unit else None,
            "grid": grid,
            "groups": groups["groups"] if groups else {},
            "group_warnings": groups["warnings"] if groups else [],
            "source": source,
            "cameras": cameras,
            "anchors_seen": first["anchors_seen"],
            "anchors_held": first["anchors_held"],
            "camera_moved": any(camera["camera_moved"] for camera in cameras),
            "table_reprojection_px": first["table_reprojection_px"],
            "image_size": first["image_size"],
            "fps": source["delivered_fps"],
            "problem": problem,
            "camera_warnings": [
                _disagreement_text(d, self.config.roster) for d in fused.disagreements
            ],
            "pins": self.state_pins(pins),
        }

    def state_pins(self, pins: Sequence[Pin] | None = None) -> list[dict[str, Any]]:
        """The pinned figures as the state gives them (those of now by default)."""
        return [
            {
                "figure": _figure_id_of(pin.marker, self.config.roster),
                "marker": pin.marker,
                "x_mm": round(pin.x_mm, 2),
                "y_mm": round(pin.y_mm, 2),
                "facing_deg": round(pin.facing_deg, 1),
                "sigma_mm": round(pin.sigma_mm, 3),
                "time": pin.time,
            }
            for pin in (self.pins() if pins is None else pins)
        ]

    def set_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Use new ruleset options, checked first on the current table (RulesError if bad)."""
        with self.settings_lock:
            parse_scene(
                {**self._document(self.fused()), "options": dict(options), "figures": []},
                source="options",
            )
            self.config = replace(self.config, options=dict(options))
        return dict(options)

    def check_terrain(self, terrain: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """The terrain as plain data, checked by the rules' scene parser (RulesError if bad)."""
        pieces = [dict(piece) for piece in terrain]
        # what arbitre.yaml could not hold (its terrain list lies one level deep) is
        # refused before anything else is done with it: counting stops at the bound
        too_much = beyond_bounds(pieces, depth=1)
        if too_much is not None:
            raise SceneError("terrain", "", too_much)
        clash = self.config.roster.clashing_terrain(str(piece.get("id")) for piece in pieces)
        if clash is not None:
            raise SceneError("terrain", "", clash)
        parse_scene(
            {**self._document(self.fused()), "terrain": pieces, "figures": []}, source="terrain"
        )
        return pieces

    def use_terrain(self, pieces: Sequence[Mapping[str, Any]]) -> None:
        """Use terrain that `check_terrain` has passed (the caller holds `settings_lock`
        from that check on)."""
        with self.settings_lock:
            self.config = replace(self.config, terrain=tuple(dict(p) for p in pieces))
            self.terrain_version += 1  # after the terrain: a state of this version holds it

    def scene(self) -> Scene | None:
        """The live table as a rules scene (None before any figure was seen)."""
        return self._scene_from(self.fused())

    def scene_document(self) -> dict[str, Any]:
        """The live table as the data of a ``scene.yaml``."""
        return self._document(self.fused())

    def _document(self, fused: FusedTracks) -> dict[str, Any]:
        return scene_document(self.config, fused.tracks, fused.shared_errors)

    def _scene_from(self, fused: FusedTracks) -> Scene | None:
        """The scene of these tracks: the last one made when its document is the same."""
        if not fused.tracks:
            return None
        return self._last_scene.scene(self._document(fused), "live table")

    def ask(
        self, question: str, args: Sequence[str], extras: Mapping[str, Any] | None = None
    ) -> tuple[Answer, dict[str, Any]]:
        """Answer a rules question on the live table, saying which positions it used."""
        fused = self.fused()
        scene = self._scene_from(fused)
        if scene is None:
            raise QuestionError("no figure has been seen on the table yet", "no_figure_yet")
        answer = ask(scene, question, args, extras)
        groups = groups_of(scene, self._last_scene)
        return answer, about_question(self._about(fused.tracks), scene, args, groups)

    def question_input(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """What a question on the live table needs, as plain data for another process:
        the scene's document and which positions it holds (`ask`'s second part)."""
        fused = self.fused()
        if not fused.tracks:
            raise QuestionError("no figure has been seen on the table yet", "no_figure_yet")
        return self._document(fused), self._about(fused.tracks)

    def _about(self, tracks: Sequence[Track]) -> dict[str, Any]:
        pinned = self.pinned_markers()
        roster = self.config.roster
        return {
            "positions": "settled" if all(t.settled for t in tracks) else "moving",
            "moving": [_figure_id(t, roster) for t in tracks if not t.settled],
            "stale": [_figure_id(t, roster) for t in tracks if t.stale],
            "pinned": [_figure_id(t, roster) for t in tracks if t.marker in pinned],
        }

    def jpeg(
        self,
        *,
        overlays: bool = True,
        quality: int = 80,
        camera: int = 0,
        max_width: int | None = None,
    ) -> bytes | None:
        """A camera's newest frame as JPEG (`CameraLoop.jpeg`); IndexError for a camera
        the table does not have."""
        if not 0 <= camera < len(self.cameras):
            raise IndexError(f"no camera {camera}: the table has {len(self.cameras)}")
        return self.cameras[camera].jpeg(overlays=overlays, quality=quality, max_width=max_width)


def _json(data: Any) -> bytes:
    """Data as the API's JSON (what FastAPI would write for it)."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


class Latest(Generic[T]):
    """A value made once for every caller asking with the same key: one caller makes it
    while the others wait, then they all get it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._made: tuple[object, T] | None = None

    def get(self, key: object, make: Callable[[], T]) -> T:
        with self._lock:
            if self._made is not None and self._made[0] == key:
                return self._made[1]
            value = make()
            self._made = (key, value)
            return value


def _disagreement_text(disagreement: Disagreement, roster: Roster) -> str:
    """A still figure the cameras place too far apart, in words (cameras counted from 1).

    >>> _disagreement_text(Disagreement(12, (0, 1, 2), (1, 2)), Roster(()))
    'marker12: cameras 1, 2 and 3 disagree beyond their uncertainties; taken from 2 and 3'
    """
    who = roster.by_marker(disagreement.marker)
    name = who.id if who else f"marker{disagreement.marker}"
    return (
        f"{name}: cameras {_and(disagreement.apart)} disagree beyond their uncertainties; "
        f"taken from {_and(disagreement.used)}"
    )


def _and(cameras: Sequence[int]) -> str:
    """Camera indexes counted from 1, as words: ``1``, ``1 and 2``, ``1, 2 and 3``."""
    names = [str(k + 1) for k in cameras]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _health(cameras: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The table's source health from its cameras': one camera's own; of several, ok
    when every camera is, the stopped ones' messages, the slowest rate."""
    if len(cameras) == 1:
        keys = ("description", "ok", "message", "frame_age_s", "delivered_fps", "capacity_fps")
        return {key: cameras[0][key] for key in keys}
    lost = [f"camera {k + 1}: {c['message']}" for k, c in enumerate(cameras) if not c["ok"]]
    ages = [c["frame_age_s"] for c in cameras if c["frame_age_s"] is not None]
    capacities = [c["capacity_fps"] for c in cameras if c["capacity_fps"] is not None]
    return {
        "description": " + ".join(str(c["description"]) for c in cameras),
        "ok": not lost,
        "message": "; ".join(lost) if lost else "ok",
        "frame_age_s": max(ages) if ages else None,
        "delivered_fps": min(c["delivered_fps"] for c in cameras),
        "capacity_fps": min(capacities) if len(capacities) == len(cameras) else None,
    }


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
        shared = shared_of(shared_errors, marker)
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
    return _figure_id_of(track.marker, roster)


def _figure_id_of(marker: int, roster: Roster) -> str:
    who = roster.by_marker(marker)
    return who.id if who else f"marker{marker}"


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
            moves = np.round(np.array(track.shared.moves_mm, dtype=np.float64), SHARED_DECIMALS)
            figure["shared_mm"] = (moves + 0.0).tolist()  # + 0.0: no -0.0 written
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


__all__ = [
    "MIN_SIGMA_MM",
    "MOVED_SHOWN_S",
    "PIN_RELEASE_MM",
    "LiveTable",
    "Pin",
    "TableConfig",
    "located_tracks",
    "scene_document",
    "terrain_of",
]
