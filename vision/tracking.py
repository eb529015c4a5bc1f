"""Stable figure positions from a live stream of marker measurements (table mm).

Every frame the measuring chain gives, for each figure marker it saw, a position in
table millimetres with its 1-sigma uncertainty and a heading (an `Observation`).
From frame to frame these jitter by hundredths to tenths of a millimetre, a hand hides
some markers for a while, and the stream itself may stop. `FigureTracker` turns that
stream into what the live table shows, one `Track` per marker:

Smoothing
    A marker's position is the mean of its observations since it last moved, weighted
    by 1/sigma^2 of each one's own (per-frame) part, over at most ``max_window`` of the
    latest of them. Its ``sigma_mm`` combines the sigma of that mean, 1/sqrt(sum of the
    weights) -- n observations of equal sigma divide it by sqrt(n), so 0.3 mm of jitter
    becomes 0.3 / sqrt(60) = 0.04 mm after two seconds at 30 fps -- with the part every
    frame shares (``Observation.shared_sigma_mm``: the pose, the lens, the anchors),
    which does not average out. What a marker's error shares with the other markers of
    its frame (`Shared`) is passed on from its latest observation (so that the markers
    seen in one frame share the same terms), with its own covariance: the covariance of
    the weighted mean of its noise plus what every frame repeats (its height's doubt).
    A picture seen before (a folder's image shown again) is no new evidence: its
    observations are not averaged in. The heading is the
    weighted mean direction of the same observations. Because the window is capped, a
    shift too small to count as a move is followed within ``max_window`` frames.

Jump rule
    An observation is *far* when it lies farther from the smoothed position than
    ``max(jump_sigmas * sqrt(sigma_obs^2 + sigma_track^2), min_jump_mm)``, or when its
    heading differs from the smoothed heading by more than ``min_turn_deg``. A far
    observation is held back, not shown. If the marker's next observation agrees with
    the smoothed position again, the held one was an outlier and is dropped; if it is
    far as well, the figure has moved and its window restarts at once from the new
    observation (together with the held one when the two agree with each other). A
    moved figure therefore shows at its new place one frame late, never more, and a
    single bad frame never moves a figure.

Staleness
    A marker missing from a frame keeps its last position; its track is ``stale``, with
    ``age_s`` the time since it was last seen. A frame without a table pose, or no frame
    at all, is reported with `FigureTracker.lost`: every track goes stale, none is
    deleted. Tracking resumes with the next observations; only `FigureTracker.forget`
    removes a marker.

Settled
    ``still_s`` is the time from the first observation at the current place to the last
    observation; a figure is ``settled`` once ``still_s`` reaches ``settle_s``. A hidden
    figure keeps the ``still_s`` and ``settled`` of its last known place.

Cost: per marker and frame O(1): running sums over a ring of at most ``max_window``
observations, re-summed exactly once every ``max_window`` removals so that rounding does
not accumulate. The tracker is deterministic: the same calls give the same tracks.

>>> tracker = FigureTracker()
>>> for frame in range(30):
...     tracker.update(frame / 30, [Observation(10, 100.0 + (-1) ** frame * 0.1, 50.0, 0.1, 90.0)])
>>> track = tracker.tracks()[0]
>>> round(track.x_mm, 6), round(track.y_mm, 6), round(track.sigma_mm, 4), track.stale
(100.0, 50.0, 0.0183, False)
>>> tracker.lost(1.5)
>>> track = tracker.tracks()[0]
>>> track.stale, round(track.age_s, 4), round(track.x_mm, 6)
(True, 0.5333, 100.0)
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from arbitre.vision.errors import VisionError

# One observation in a window: weight w = 1/sigma^2, then w * dx, w * dy (offsets from the
# window's origin, which keeps the sums small), w * cos, w * sin of the heading, and
# w^2 times its noise covariance's xx, xy, yy (the covariance of the weighted mean).
_Sample = tuple[float, float, float, float, float, float, float, float]


Matrix2 = tuple[tuple[float, float], tuple[float, float]]


@dataclass(frozen=True, slots=True)
class Shared:
    """What one marker's error shares with the others of its frame (docs/formats.md,
    "Errors shared between markers"): the names of the shared terms, how far one sigma
    of each moves the marker (``moves_mm``, one ``(dx, dy)`` per term), and its own
    covariance: the part every frame repeats (its height's doubt, which moves it by
    ``height_move_mm`` at one sigma: signed, as another camera's view of the same figure
    needs it) and this frame's noise (``noise_cov_mm2``), which averaging frames
    reduces."""

    errors: tuple[str, ...]
    moves_mm: tuple[tuple[float, float], ...]
    height_move_mm: tuple[float, float] = (0.0, 0.0)
    noise_cov_mm2: Matrix2 = ((0.0, 0.0), (0.0, 0.0))

    @property
    def lasting_cov_mm2(self) -> Matrix2:
        """The part of its own covariance every frame repeats: its height's doubt."""
        hx, hy = self.height_move_mm
        return ((hx * hx, hx * hy), (hx * hy, hy * hy))


@dataclass(frozen=True, slots=True)
class Observation:
    """One marker measured in one frame.

    ``x_mm``, ``y_mm``: the point of the table below the marker's centre; ``sigma_mm``:
    its 1-sigma uncertainty (> 0); ``heading_deg``: the direction of the marker's top
    edge, counter-clockwise from +x. ``shared_sigma_mm`` is the part of ``sigma_mm``
    that every frame shares (a lens or an anchor slightly off moves the marker the same
    way in every frame): averaging frames reduces only the rest. ``shared``: what its
    error shares with the other markers of the frame, when known.
    """

    marker: int
    x_mm: float
    y_mm: float
    sigma_mm: float
    heading_deg: float
    shared_sigma_mm: float = 0.0
    shared: Shared | None = None

    def __post_init__(self) -> None:
        values = (self.x_mm, self.y_mm, self.sigma_mm, self.heading_deg, self.shared_sigma_mm)
        if (
            not all(math.isfinite(v) for v in values)
            or not self.sigma_mm > 0.0
            or not 0.0 <= self.shared_sigma_mm <= self.sigma_mm
        ):
            raise VisionError(
                f"observation of marker {self.marker!r} needs finite x_mm, y_mm, heading_deg,"
                f" sigma_mm > 0 and 0 <= shared_sigma_mm <= sigma_mm, got {values!r}"
            )

    @property
    def own_sigma_mm(self) -> float:
        """The part of ``sigma_mm`` this frame alone has (kept above 1 % of it)."""
        own2 = self.sigma_mm**2 - self.shared_sigma_mm**2
        return math.sqrt(max(own2, (0.01 * self.sigma_mm) ** 2))


@dataclass(frozen=True, slots=True)
class Track:
    """What the live table shows of one marker.

    ``x_mm``, ``y_mm``: the smoothed position (table mm) and ``sigma_mm`` its 1-sigma
    uncertainty; ``heading_deg`` in [0, 360). ``stale``: not seen in the latest frame;
    ``age_s``: seconds since it was last seen (0 when seen in the latest frame);
    ``still_s``: how long it has been seen at its current place; ``settled``: still for
    at least the tracker's ``settle_s``; ``last_seen_s``: the time of its last
    observation, on the clock of `FigureTracker.update`. ``shared``: what its latest
    observation shared with the others of its frame, and ``own_cov_mm2`` the rest of its
    error (the averaged noise, isotropic, and what every frame repeats), when known.
    """

    marker: int
    x_mm: float
    y_mm: float
    sigma_mm: float
    heading_deg: float
    stale: bool
    age_s: float
    settled: bool
    still_s: float
    last_seen_s: float
    shared: Shared | None = None
    own_cov_mm2: Matrix2 | None = None


class _Marker:
    """One marker's state: the window of observations at its current place, and a held one."""

    __slots__ = (
        "origin_x_mm",
        "origin_y_mm",
        "samples",
        "sum_w",
        "sum_wx",
        "sum_wy",
        "sum_wcos",
        "sum_wsin",
        "sum_w2xx",
        "sum_w2xy",
        "sum_w2yy",
        "removed",
        "x_mm",
        "y_mm",
        "sigma_mm",
        "shared_sigma_mm",
        "shared",
        "own_cov",
        "heading_deg",
        "still_since_s",
        "last_seen_s",
        "last_frame",
        "held",
        "held_s",
        "held_again",
    )

    def __init__(self, observation: Observation, time_s: float, frame: int) -> None:
        self.samples: deque[_Sample] = deque()
        self.origin_x_mm = observation.x_mm
        self.origin_y_mm = observation.y_mm
        self.sum_w = self.sum_wx = self.sum_wy = self.sum_wcos = self.sum_wsin = 0.0
        self.sum_w2xx = self.sum_w2xy = self.sum_w2yy = 0.0
        self.removed = 0
        self.x_mm = observation.x_mm
        self.y_mm = observation.y_mm
        self.sigma_mm = observation.sigma_mm
        self.shared_sigma_mm = observation.shared_sigma_mm
        self.shared = observation.shared
        self.own_cov: Matrix2 | None = None
        self.heading_deg = observation.heading_deg % 360.0
        self.still_since_s = time_s
        self.last_seen_s = time_s
        self.last_frame = frame
        self.held: Observation | None = None
        self.held_s = time_s
        self.held_again = False

    def restart(self, first: Observation, since_s: float) -> None:
        """Empty the window: the marker is at a new place since ``since_s``."""
        self.samples.clear()
        self.origin_x_mm = first.x_mm
        self.origin_y_mm = first.y_mm
        self.sum_w = self.sum_wx = self.sum_wy = self.sum_wcos = self.sum_wsin = 0.0
        self.sum_w2xx = self.sum_w2xy = self.sum_w2yy = 0.0
        self.removed = 0
        self.still_since_s = since_s
        self.held = None

    def add(self, observation: Observation, max_window: int) -> None:
        """Add an observation to the window (dropping the oldest beyond ``max_window``)."""
        own = observation.own_sigma_mm
        w = 1.0 / (own * own)
        heading_rad = math.radians(observation.heading_deg)
        shared = observation.shared
        (nxx, nxy), (_, nyy) = (
            ((own * own, 0.0), (0.0, own * own)) if shared is None else shared.noise_cov_mm2
        )
        sample = (
            w,
            w * (observation.x_mm - self.origin_x_mm),
            w * (observation.y_mm - self.origin_y_mm),
            w * math.cos(heading_rad),
            w * math.sin(heading_rad),
            w * w * nxx,
            w * w * nxy,
            w * w * nyy,
        )
        self.samples.append(sample)
        self._accumulate(sample, 1.0)
        if len(self.samples) > max_window:
            self._accumulate(self.samples.popleft(), -1.0)
            self.removed += 1
            if self.removed >= max_window:
                self._resum()
        self.x_mm = self.origin_x_mm + self.sum_wx / self.sum_w
        self.y_mm = self.origin_y_mm + self.sum_wy / self.sum_w
        self.shared_sigma_mm = observation.shared_sigma_mm
        self.shared = shared  # the latest frame's: every marker seen in it shares its terms
        self.sigma_mm = math.sqrt(1.0 / self.sum_w + self.shared_sigma_mm**2)
        if shared is None:
            self.own_cov = None
        else:  # the weighted mean's noise, and what every frame repeats
            (xx, xy), (_, yy) = shared.lasting_cov_mm2
            scale = 1.0 / (self.sum_w * self.sum_w)
            self.own_cov = (
                (xx + scale * self.sum_w2xx, xy + scale * self.sum_w2xy),
                (xy + scale * self.sum_w2xy, yy + scale * self.sum_w2yy),
            )
        self.heading_deg = math.degrees(math.atan2(self.sum_wsin, self.sum_wcos)) % 360.0

    def _accumulate(self, sample: _Sample, sign: float) -> None:
        """Add (sign 1) or remove (sign -1) a sample from the running sums."""
        w, wx, wy, wcos, wsin, w2xx, w2xy, w2yy = sample
        self.sum_w += sign * w
        self.sum_wx += sign * wx
        self.sum_wy += sign * wy
        self.sum_wcos += sign * wcos
        self.sum_wsin += sign * wsin
        self.sum_w2xx += sign * w2xx
        self.sum_w2xy += sign * w2xy
        self.sum_w2yy += sign * w2yy

    def _resum(self) -> None:
        """Recompute the running sums from the window itself."""
        (
            self.sum_w,
            self.sum_wx,
            self.sum_wy,
            self.sum_wcos,
            self.sum_wsin,
            self.sum_w2xx,
            self.sum_w2xy,
            self.sum_w2yy,
        ) = (math.fsum(s[k] for s in self.samples) for k in range(8))
        self.removed = 0


def _turn_deg(a_deg: float, b_deg: float) -> float:
    """The unsigned angle between two headings, degrees in [0, 180]."""
    return abs((a_deg - b_deg + 180.0) % 360.0 - 180.0)


def _check_time(time_s: float) -> float:
    """``time_s`` as a float, or VisionError when it is not a finite number."""
    value = float(time_s)
    if not math.isfinite(value):
        raise VisionError(f"time_s must be a finite number of seconds, got {time_s!r}")
    return value


class FigureTracker:
    """Stable figure positions from per-frame marker observations (see the module's notes).

    Parameters
    ----------
    settle_s:
        A figure still for at least this long is ``settled``.
    jump_sigmas, min_jump_mm:
        An observation farther than ``max(jump_sigmas * combined sigma, min_jump_mm)`` from
        the smoothed position is far; two far observations in a row make a move.
    max_window:
        The most observations averaged (the latest ones since the figure last moved).
    min_turn_deg:
        A heading further than this from the smoothed one is far too (a figure turned
        where it stands).
    """

    def __init__(
        self,
        *,
        settle_s: float = 0.7,
        jump_sigmas: float = 4.0,
        min_jump_mm: float = 1.0,
        max_window: int = 60,
        min_turn_deg: float = 3.0,
    ) -> None:
        checks = (
            ("settle_s", settle_s, settle_s >= 0.0),
            ("jump_sigmas", jump_sigmas, jump_sigmas > 0.0),
            ("min_jump_mm", min_jump_mm, min_jump_mm >= 0.0),
            ("min_turn_deg", min_turn_deg, 0.0 < min_turn_deg < 180.0),
        )
        for name, value, ok in checks:
            if not (math.isfinite(value) and ok):
                raise VisionError(f"{name} out of range, got {value!r}")
        if isinstance(max_window, bool) or not isinstance(max_window, int) or max_window < 1:
            raise VisionError(f"max_window must be a whole number >= 1, got {max_window!r}")
        self._settle_s = float(settle_s)
        self._jump_sigmas = float(jump_sigmas)
        self._min_jump_mm = float(min_jump_mm)
        self._max_window = max_window
        self._min_turn_deg = float(min_turn_deg)
        self._markers: dict[int, _Marker] = {}
        self._frame = 0
        self._now_s: float | None = None

    def update(
        self, time_s: float, observations: Iterable[Observation], *, again: bool = False
    ) -> None:
        """Take one frame's observations, made at ``time_s`` (seconds, never decreasing).

        Markers not observed keep their place and go stale. A frame ``again`` shows a
        picture seen before (the same image shown anew): its observations keep the
        markers fresh and still move them, but add nothing to the average where they
        stay. Raises VisionError, changing nothing, when the time goes back or a marker
        is observed twice.
        """
        now_s = self._advance(time_s)
        frame: dict[int, Observation] = {}
        for observation in observations:
            if observation.marker in frame:
                raise VisionError(
                    f"marker {observation.marker!r} observed twice in the frame at {time_s!r} s"
                )
            frame[observation.marker] = observation
        self._now_s = now_s
        self._frame += 1
        for marker, observation in frame.items():
            state = self._markers.get(marker)
            if state is None:
                state = _Marker(observation, now_s, self._frame)
                state.add(observation, self._max_window)
                self._markers[marker] = state
            else:
                self._observe(state, observation, now_s, again)

    def lost(self, time_s: float) -> None:
        """A frame at ``time_s`` with no table pose, or no frame: every track goes stale."""
        self._now_s = self._advance(time_s)
        self._frame += 1

    def tracks(self, time_s: float | None = None) -> tuple[Track, ...]:
        """Every marker's track, sorted by marker; ``age_s`` is measured at ``time_s``.

        ``time_s`` defaults to the latest frame's time; an earlier time counts as that.
        """
        if self._now_s is None:
            return ()
        now_s = self._now_s if time_s is None else max(_check_time(time_s), self._now_s)
        return tuple(self._track(m, self._markers[m], now_s) for m in sorted(self._markers))

    def forget(self, marker: int) -> None:
        """Drop a marker's track (nothing happens for a marker without one)."""
        self._markers.pop(marker, None)

    def _advance(self, time_s: float) -> float:
        """The time of a new frame, checked against the previous one."""
        now_s = _check_time(time_s)
        if self._now_s is not None and now_s < self._now_s:
            raise VisionError(
                f"time_s must not go back: got {time_s!r} after a frame at {self._now_s!r}"
            )
        return now_s

    def _observe(self, state: _Marker, observation: Observation, now_s: float, again: bool) -> None:
        """Apply the jump rule to one observation of a known marker (one ``again`` is
        not averaged in where the marker stays)."""
        state.last_seen_s = now_s
        state.last_frame = self._frame
        if not self._far(observation, state):
            state.held = None
            if not again:
                state.add(observation, self._max_window)
            return
        held = state.held
        if held is None:
            state.held = observation
            state.held_s = now_s
            state.held_again = again
            return
        if self._far(observation, held):
            state.restart(observation, now_s)
        else:
            # The move is confirmed; a picture seen before adds nothing to it (one of
            # the two at least is counted: the window starts from it).
            was_again = state.held_again
            state.restart(held, state.held_s)
            if not was_again or again:
                state.add(held, self._max_window)
            if again and state.samples:
                return
        state.add(observation, self._max_window)

    def _far(self, observation: Observation, reference: _Marker | Observation) -> bool:
        """Whether an observation disagrees with a smoothed position or another observation."""
        combined_mm = math.sqrt(observation.sigma_mm**2 + reference.sigma_mm**2)
        limit_mm = max(self._jump_sigmas * combined_mm, self._min_jump_mm)
        distance_mm = math.hypot(
            observation.x_mm - reference.x_mm, observation.y_mm - reference.y_mm
        )
        turn_deg = _turn_deg(observation.heading_deg, reference.heading_deg)
        return distance_mm > limit_mm or turn_deg > self._min_turn_deg

    def _track(self, marker: int, state: _Marker, now_s: float) -> Track:
        """The track of one marker, ages measured at ``now_s``."""
        still_s = state.last_seen_s - state.still_since_s
        return Track(
            marker=marker,
            x_mm=state.x_mm,
            y_mm=state.y_mm,
            sigma_mm=state.sigma_mm,
            heading_deg=state.heading_deg,
            stale=state.last_frame != self._frame,
            age_s=now_s - state.last_seen_s,
            settled=still_s >= self._settle_s,
            still_s=still_s,
            last_seen_s=state.last_seen_s,
            shared=state.shared,
            own_cov_mm2=state.own_cov,
        )


__all__ = ["FigureTracker", "Observation", "Shared", "Track"]
