"""The figure tracker: steady when still, quick when moved, patient when hidden or cut off."""

from __future__ import annotations

import dataclasses
import doctest
import math
from collections.abc import Sequence

import numpy as np
import pytest

from arbitre.calibration.frame import locate_frame
from arbitre.calibration.locate import LocateResult
from arbitre.calibration.simulated import setup_of
from arbitre.vision import tracking
from arbitre.vision.errors import VisionError
from arbitre.vision.simulate import preset, render
from arbitre.vision.tracking import FigureTracker, Observation, Track

FPS = 30
SETTLE_S = 0.7  # the tracker's default


def _frame_time(frame: int) -> float:
    return frame / FPS


def _by_marker(tracker: FigureTracker, time_s: float | None = None) -> dict[int, Track]:
    return {t.marker: t for t in tracker.tracks(time_s)}


def _miss_mm(track: Track, xy_mm: Sequence[float]) -> float:
    return math.hypot(track.x_mm - xy_mm[0], track.y_mm - xy_mm[1])


def _jittered(
    rng: np.random.Generator, places: dict[int, tuple[float, float]], sigma_mm: float
) -> list[Observation]:
    """One frame's observations of figures at ``places``, with Gaussian noise per axis."""
    noise = rng.normal(0.0, sigma_mm, size=(len(places), 2))
    return [
        Observation(marker, x + float(dx), y + float(dy), sigma_mm, 90.0)
        for (marker, (x, y)), (dx, dy) in zip(places.items(), noise, strict=True)
    ]


def _grid(count: int) -> dict[int, tuple[float, float]]:
    """``count`` figures, ids from 10, 60 mm apart."""
    return {10 + k: (100.0 + 60.0 * (k % 5), 80.0 + 60.0 * (k // 5)) for k in range(count)}


def test_docstring_examples() -> None:
    result = doctest.testmod(tracking, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0


def test_jitter_on_still_figures_is_averaged_away() -> None:
    # 20 still figures measured with sigma 0.3 mm per axis, 3 s at 30 fps. The average of n
    # observations has sigma 0.3 / sqrt(n): over the last 2 s n runs from 31 (0.054 mm) up to
    # the 60 of the window (0.039 mm), so 0.2 mm is at least 3.7 sigma per axis; a raw
    # observation, 0.2 mm being 0.67 sigma, misses it every other frame.
    rng = np.random.default_rng(4)
    places = _grid(20)
    tracker = FigureTracker()
    worst_track_mm, worst_raw_mm = 0.0, 0.0
    for frame in range(3 * FPS):
        now_s = _frame_time(frame)
        observations = _jittered(rng, places, 0.3)
        tracker.update(now_s, observations)
        if now_s < 1.0:
            continue
        tracks = _by_marker(tracker)
        for o in observations:
            truth = places[o.marker]
            worst_track_mm = max(worst_track_mm, _miss_mm(tracks[o.marker], truth))
            worst_raw_mm = max(worst_raw_mm, math.hypot(o.x_mm - truth[0], o.y_mm - truth[1]))
            # Never taken for a move: still since the first frame, settled after 0.7 s.
            assert tracks[o.marker].still_s == pytest.approx(now_s)
            assert tracks[o.marker].settled
    assert worst_track_mm <= 0.2
    assert worst_raw_mm > 0.8
    # The window is full: 60 observations of sigma 0.3 -> 0.3 / sqrt(60) = 0.0387 mm.
    assert tracker.tracks()[0].sigma_mm == pytest.approx(0.3 / math.sqrt(60))


def test_a_hand_hides_figures_for_two_seconds() -> None:
    # Figures 12 and 13 are missing from the frames of 1.0 s to 2.967 s (60 frames).
    rng = np.random.default_rng(5)
    places = _grid(6)
    hidden = {12, 13}
    tracker = FigureTracker()
    before: dict[int, Track] = {}
    for frame in range(4 * FPS):
        now_s = _frame_time(frame)
        covered = FPS <= frame < 3 * FPS
        seen = {m: xy for m, xy in places.items() if not (covered and m in hidden)}
        tracker.update(now_s, _jittered(rng, seen, 0.2))
        tracks = _by_marker(tracker)
        assert sorted(tracks) == sorted(places)  # nobody is ever deleted
        if frame == FPS - 1:
            before = tracks
        if frame == 3 * FPS - 1:  # the last hidden frame: unseen since frame 29, 2 s ago
            assert tracks[12].age_s == pytest.approx(2.0)
        for marker, track in tracks.items():
            if covered and marker in hidden:
                # Last seen at frame 29 (0.967 s): the age is the time since then.
                assert track.stale
                assert track.age_s == pytest.approx(now_s - _frame_time(FPS - 1))
                assert (track.x_mm, track.y_mm) == (before[marker].x_mm, before[marker].y_mm)
                assert track.settled
            else:
                assert not track.stale
                assert track.age_s == 0.0
                if now_s >= 0.5:  # 15 observations or more: 0.2 / sqrt(15) = 0.05 mm sigma
                    assert _miss_mm(track, places[marker]) <= 0.2
    # Back at their places for a second: fresh, steady and settled.
    final = _by_marker(tracker)
    for marker in hidden:
        assert not final[marker].stale
        assert final[marker].settled
        assert _miss_mm(final[marker], places[marker]) <= 0.2


def test_a_figure_moved_50_mm_is_followed_at_once_then_settles() -> None:
    # Figure 10 stands at (100, 100) for 1 s, then at (150, 100) from frame 30 (t = 1 s).
    # Frame 30 is far (50 mm >> max(4 * sqrt(0.1^2 + 0.018^2), 1) = 1 mm) and held back;
    # frame 31 is far too: the figure has moved, and the track restarts from the two new
    # observations (they agree), so it shows the new place one frame late, 0.1 / sqrt(2)
    # = 0.07 mm sigma. Still since 1.0 s, it settles at 1.7 s. Figure 11 never moves.
    rng = np.random.default_rng(6)
    tracker = FigureTracker()
    moved_frame = FPS
    for frame in range(3 * FPS):
        now_s = _frame_time(frame)
        place = (100.0, 100.0) if frame < moved_frame else (150.0, 100.0)
        tracker.update(now_s, _jittered(rng, {10: place, 11: (300.0, 100.0)}, 0.1))
        track, other = _by_marker(tracker)[10], _by_marker(tracker)[11]
        assert not track.stale
        if frame == moved_frame:
            assert _miss_mm(track, (100.0, 100.0)) <= 0.2  # the one frame of lag
            assert track.settled
        elif frame > moved_frame:
            assert _miss_mm(track, place) <= 0.5
            still_s = now_s - _frame_time(moved_frame)
            assert track.still_s == pytest.approx(still_s)
            if still_s < SETTLE_S - 0.5 / FPS:
                assert not track.settled
            elif still_s > SETTLE_S + 0.5 / FPS:
                assert track.settled
        assert other.settled == (now_s >= SETTLE_S)
        if now_s >= 0.5:  # 15 observations or more: 0.1 / sqrt(15) = 0.026 mm sigma
            assert _miss_mm(other, (300.0, 100.0)) <= 0.2
    assert _miss_mm(_by_marker(tracker)[10], (150.0, 100.0)) <= 0.1


def test_a_sliding_figure_is_never_more_than_one_frame_behind() -> None:
    # A hand pushes figure 10 along x at 90 mm/s, 3 mm a frame, for 1 s. Each observation is
    # far from the last place shown (3 mm > 1 mm); a held one is confirmed by the next, so the
    # track shows the current place or the previous one: at most 3 mm (+ noise) behind.
    rng = np.random.default_rng(7)
    tracker = FigureTracker()
    for frame in range(2 * FPS):
        x_mm = 100.0 + 3.0 * min(max(frame - 10, 0), FPS)
        tracker.update(_frame_time(frame), _jittered(rng, {10: (x_mm, 50.0)}, 0.05))
        track = tracker.tracks()[0]
        assert x_mm - 3.3 <= track.x_mm <= x_mm + 0.3
        assert track.y_mm == pytest.approx(50.0, abs=0.3)
    assert tracker.tracks()[0].x_mm == pytest.approx(190.0, abs=0.1)


def test_a_single_outlier_frame_does_not_move_a_settled_figure() -> None:
    # Settled at (100, 100); frame 40 puts it 20 mm off. That observation is held back, and
    # frame 41, back in place, shows it was an outlier: the track never moves by more than
    # the averaging of ordinary observations does (0.1 / sqrt(40) = 0.016 mm a frame).
    rng = np.random.default_rng(8)
    tracker = FigureTracker()
    shown: list[Track] = []
    for frame in range(60):
        observation = _jittered(rng, {10: (100.0, 100.0)}, 0.1)[0]
        if frame == 40:
            observation = dataclasses.replace(observation, x_mm=observation.x_mm + 20.0)
        tracker.update(_frame_time(frame), [observation])
        shown.append(tracker.tracks()[0])
    for track in shown[39:]:
        assert _miss_mm(track, (shown[39].x_mm, shown[39].y_mm)) <= 0.2
        assert track.settled
        assert not track.stale
        assert track.still_s == pytest.approx(track.last_seen_s)  # still since frame 0
    assert (shown[40].x_mm, shown[40].y_mm) == (shown[39].x_mm, shown[39].y_mm)


def test_a_figure_turned_where_it_stands_shows_its_new_heading() -> None:
    # Facing 90 degrees, then turned to 180 at frame 20: shown one frame later, still_s restarts.
    tracker = FigureTracker()
    for frame in range(30):
        heading_deg = 90.0 if frame < 20 else 180.0
        tracker.update(_frame_time(frame), [Observation(10, 50.0, 50.0, 0.1, heading_deg)])
        track = tracker.tracks()[0]
        assert track.heading_deg == pytest.approx(90.0 if frame <= 20 else 180.0)
    assert track.still_s == pytest.approx(_frame_time(29) - _frame_time(20))
    assert not track.settled


def test_a_small_shift_is_followed_within_the_window() -> None:
    # A nudge of 0.6 mm is under the 1 mm jump floor: not a move (the figure stays settled),
    # but the window of 60 observations fills with the new place within 60 frames.
    tracker = FigureTracker()
    for frame in range(200):
        x_mm = 100.0 if frame < 100 else 100.6
        tracker.update(_frame_time(frame), [Observation(10, x_mm, 50.0, 0.05, 90.0)])
        track = tracker.tracks()[0]
        assert track.settled == (frame >= 21)
        if frame == 129:  # 30 of 60 observations at the new place: half way
            assert track.x_mm == pytest.approx(100.3)
    assert track.x_mm == pytest.approx(100.6)
    assert track.still_s == pytest.approx(_frame_time(199))


def test_the_source_drops_for_three_seconds_and_comes_back() -> None:
    rng = np.random.default_rng(9)
    places = _grid(5)
    tracker = FigureTracker()
    for frame in range(FPS):
        tracker.update(_frame_time(frame), _jittered(rng, places, 0.2))
    kept = _by_marker(tracker)
    last_s = _frame_time(FPS - 1)
    # 3 s with no table pose: lost() every frame.
    for frame in range(FPS, 4 * FPS):
        tracker.lost(_frame_time(frame))
        tracks = _by_marker(tracker)
        assert sorted(tracks) == sorted(places)
        for marker, track in tracks.items():
            assert track.stale
            assert track.age_s == pytest.approx(_frame_time(frame) - last_s)
            assert track == dataclasses.replace(
                kept[marker], stale=True, age_s=track.age_s
            )  # nothing else changes
    assert tracks[10].age_s == pytest.approx(3.0)
    # Frames again: fresh at once, at the right places; not moved, so settled.
    for frame in range(4 * FPS, 5 * FPS):
        tracker.update(_frame_time(frame), _jittered(rng, places, 0.2))
        for marker, track in _by_marker(tracker).items():
            assert not track.stale
            assert track.age_s == 0.0
            assert track.settled
            assert _miss_mm(track, places[marker]) <= 0.2


def test_a_camera_bumped_by_two_degrees_moves_no_figure() -> None:
    # A small rendered table (4 figures, anchors 0-3 at the corners). Two frames (two draws
    # of sensor noise) before the bump and two after, each located with its own table pose
    # from the anchors, played in turn at 30 fps for 1 s each.
    scene = preset("overhead", scale=0.35, seed=1)
    intrinsics, table, roster = setup_of(scene)
    figures = {m.id: m for m in scene.scene.markers if m.id >= 10}
    cameras = {"before": scene.camera, "after": scene.camera.turned(2.0)}
    streams: dict[str, list[list[Observation]]] = {}
    for name, camera in cameras.items():
        streams[name] = []
        for noise_seed in (1, 2):
            options = dataclasses.replace(scene.options, noise_sigma=2.0, seed=noise_seed)
            picture = render(camera, scene.scene, options)
            located = locate_frame(picture.image, intrinsics, table, roster).located
            assert isinstance(located, LocateResult)
            assert {m.id for m in located.markers} == set(figures)
            streams[name].append(
                [
                    Observation(m.id, m.x_mm, m.y_mm, m.sigma_mm, m.heading_deg)
                    for m in located.markers
                ]
            )
    # The bump is real: the figures move by some 45 px in the image (1400 px * tan 2 deg
    # = 49 px for a pure pan).
    centres_mm = [[m.x_mm, m.y_mm, m.z_mm] for m in figures.values()]
    shifts_px = cameras["after"].project(centres_mm) - cameras["before"].project(centres_mm)
    assert np.linalg.norm(shifts_px, axis=1).min() > 30.0

    tracker = FigureTracker()
    for frame in range(2 * FPS):
        stream = streams["before" if frame < FPS else "after"]
        now_s = _frame_time(frame)
        tracker.update(now_s, stream[frame % 2])
        tracks = _by_marker(tracker)
        assert sorted(tracks) == sorted(figures)
        for marker, track in tracks.items():
            truth = figures[marker]
            assert _miss_mm(track, (truth.x_mm, truth.y_mm)) <= 0.5
            # A marker's top edge points to +y when unturned: heading = rotation + 90.
            assert _turn(track.heading_deg, truth.rotation_deg + 90.0) <= 0.5
            assert track.still_s == pytest.approx(now_s)  # never taken for a move
            assert track.settled == (now_s >= SETTLE_S)


def _turn(a_deg: float, b_deg: float) -> float:
    return abs((a_deg - b_deg + 180.0) % 360.0 - 180.0)


def test_tracks_are_sorted_and_forget_removes_only_one() -> None:
    tracker = FigureTracker()
    assert tracker.tracks() == ()
    tracker.update(0.0, [Observation(m, 10.0 * m, 5.0, 0.1, 0.0) for m in (31, 12, 20)])
    assert [t.marker for t in tracker.tracks()] == [12, 20, 31]
    tracker.forget(20)
    tracker.forget(99)  # no track: nothing happens
    assert [t.marker for t in tracker.tracks()] == [12, 31]
    # Ages at a later time; an earlier time counts as the latest frame's.
    assert [t.age_s for t in tracker.tracks(2.5)] == [2.5, 2.5]
    assert [t.age_s for t in tracker.tracks(-1.0)] == [0.0, 0.0]
    assert not any(t.stale for t in tracker.tracks(2.5))  # seen in the latest frame


def test_the_same_stream_gives_the_same_tracks() -> None:
    def run() -> tuple[Track, ...]:
        rng = np.random.default_rng(10)
        tracker = FigureTracker()
        for frame in range(90):
            places = _grid(8)
            if frame >= 45:
                places[13] = (400.0, 400.0)
            observations = _jittered(rng, places, 0.3)
            if frame % 7 == 0:
                observations = observations[2:]
            tracker.update(_frame_time(frame), observations)
        return tracker.tracks()

    assert run() == run()


def test_bad_input_is_refused_and_changes_nothing() -> None:
    tracker = FigureTracker()
    tracker.update(1.0, [Observation(10, 1.0, 2.0, 0.1, 0.0)])
    before = tracker.tracks()
    with pytest.raises(VisionError, match="must not go back"):
        tracker.update(0.5, [Observation(10, 5.0, 2.0, 0.1, 0.0)])
    with pytest.raises(VisionError, match="must not go back"):
        tracker.lost(0.5)
    with pytest.raises(VisionError, match="observed twice"):
        tracker.update(2.0, [Observation(10, 5.0, 2.0, 0.1, 0.0)] * 2)
    with pytest.raises(VisionError, match="finite"):
        tracker.update(math.nan, [])
    assert tracker.tracks() == before
    with pytest.raises(VisionError, match="sigma_mm > 0"):
        Observation(10, 1.0, 2.0, 0.0, 0.0)
    with pytest.raises(VisionError, match="finite"):
        Observation(10, math.inf, 2.0, 0.1, 0.0)
    with pytest.raises(VisionError, match="max_window"):
        FigureTracker(max_window=0)
    with pytest.raises(VisionError, match="jump_sigmas"):
        FigureTracker(jump_sigmas=-1.0)


def test_hundreds_of_markers_are_followed() -> None:
    # 300 markers for 30 frames (what it costs is measured by `arbitre bench vision`).
    rng = np.random.default_rng(11)
    places = {
        10 + k: (float(x), float(y)) for k, (x, y) in enumerate(rng.uniform(0, 900, (300, 2)))
    }
    tracker = FigureTracker()
    for frame in range(FPS):
        tracker.update(_frame_time(frame), _jittered(rng, places, 0.3))
    tracks = _by_marker(tracker)
    assert len(tracks) == 300
    # 30 frames of 0.3 mm noise average to 0.3 / sqrt(30) = 0.055 mm per axis: every
    # track within 4 sigma of sqrt(2) axes, 0.31 mm.
    assert max(_miss_mm(tracks[m], xy) for m, xy in places.items()) < 0.31


def test_averaging_reduces_only_the_part_of_sigma_each_frame_has_alone() -> None:
    # 60 observations of sigma 0.5 mm of which 0.4 mm is shared by every frame (the lens,
    # the anchors): the own part is sqrt(0.25 - 0.16) = 0.3 mm, averaged to
    # 0.3 / sqrt(60) = 0.0387 mm; with the shared part, sqrt(0.0387^2 + 0.4^2) = 0.4019.
    tracker = FigureTracker()
    for frame in range(60):
        tracker.update(frame / 30.0, [Observation(7, 100.0, 200.0, 0.5, 0.0, 0.4)])
    (track,) = tracker.tracks()
    assert track.sigma_mm == pytest.approx(math.hypot(0.3 / math.sqrt(60), 0.4), rel=1e-6)


def test_a_shared_part_larger_than_sigma_is_refused() -> None:
    with pytest.raises(VisionError):
        Observation(7, 100.0, 200.0, 0.5, 0.0, 0.6)


def test_a_picture_seen_again_adds_no_evidence_but_still_moves_a_figure() -> None:
    # The same image shown ten times (a folder of one photo) gives ten identical
    # observations: one measure, sigma 0.5 mm, not 0.5 / sqrt(10).
    tracker = FigureTracker()
    seen = Observation(7, 100.0, 200.0, 0.5, 0.0)
    for showing in range(10):
        tracker.update(float(showing), [seen], again=showing > 0)
    (track,) = tracker.tracks()
    assert (track.x_mm, track.y_mm, track.sigma_mm) == (100.0, 200.0, 0.5)
    # A picture seen before with the figure 50 mm on, shown twice: the figure moves
    # (one showing late, as any move does) and the picture counts once: sigma 0.5 mm.
    moved = Observation(7, 150.0, 200.0, 0.5, 0.0)
    tracker.update(10.0, [moved], again=True)
    assert tracker.tracks()[0].x_mm == 100.0
    tracker.update(11.0, [moved], again=True)
    (track,) = tracker.tracks()
    assert (track.x_mm, track.y_mm) == (150.0, 200.0)
    assert track.sigma_mm == 0.5


def test_a_move_confirmed_by_a_new_picture_counts_only_that_one() -> None:
    # The figure moves 50 mm: first seen there in a picture shown before (held, not yet
    # shown), then in a new one. The move is confirmed and the window holds the new
    # picture alone: sigma 0.5 mm, not 0.5 / sqrt(2).
    tracker = FigureTracker()
    tracker.update(0.0, [Observation(7, 100.0, 200.0, 0.5, 0.0)])
    moved = Observation(7, 150.0, 200.0, 0.5, 0.0)
    tracker.update(1.0, [moved], again=True)
    tracker.update(2.0, [dataclasses.replace(moved, x_mm=150.2)])
    (track,) = tracker.tracks()
    assert (track.x_mm, track.sigma_mm) == (150.2, 0.5)
