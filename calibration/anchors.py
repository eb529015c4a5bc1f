"""The anchors as a camera that does not move has seen them: a table pose that outlives a hand.

A live camera stands still for hours, and so do the anchors glued to the table; what
changes from frame to frame is which anchors an arm hides. `AnchorMemory` keeps, for
one camera, where each anchor's corners lie in its image (a running mean over the frames
that saw it), so that every frame is posed from all the anchors seen since the camera was
last moved: a frame with one, two or every anchor hidden is posed as well as a clear one,
and a figure that did not move does not move on the map.

A bumped camera is told apart from a hand or a bad detection by agreement: it moves every
anchor it sees, at once, and keeps them moved. When at least two anchors in view (and most
of them) lie more than `MOVED_PX` from where they were held, for `MOVED_FRAMES` frames in a
row, the memory starts again from the anchors of that frame, and says so. An anchor that
stays moved alone for `TAKEN_IN_FRAMES` frames (a small bump that moved only the anchors
far from its axis by more than `MOVED_PX`) is taken in where it is now. While no anchor in
view agrees with the memory, the frame is doubtful: the camera may be moving.

The corner noise of a held anchor is the noise of the frames that saw it, not less: the
frames of a still camera see the same pixels, and their errors do not average out.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]

MOVED_PX = 2.0
"""How far (px, the farthest corner) an anchor in view may lie from where it is held before
it counts as moved: well above a detection's noise (about 0.1 px), well below what a
camera bumped by half a degree does (about 10 px on a 1080p view)."""

MOVED_FRAMES = 3
"""Frames in a row in which the anchors in view have moved before the camera is taken as
moved (a tenth of a second at 30 frames a second)."""

TAKEN_IN_FRAMES = 30
"""Frames in a row (a second at 30 frames a second) after which an anchor seen moved, alone,
is held where it is now."""

FOLLOW = 0.1
"""How much of an anchor's new corners each frame takes in: the mean follows a slow drift
(a tripod settling) over a few dozen frames."""


@dataclass(slots=True)
class _Held:
    corners: FloatArray  # (4, 2) image px, the running mean
    noise_px: float  # the corner noise of the frames that saw it
    moved_frames: int = 0  # frames in a row in which it was seen moved


@dataclass(frozen=True, slots=True)
class Posing:
    """What a frame is posed from: every held anchor's corners and their noise, and whether
    the memory started again from this frame (the camera moved)."""

    corners: dict[int, FloatArray]
    noise_px: dict[int, float]
    moved: bool
    doubtful: bool = False
    """No anchor in view agrees with the memory (one at least moved): the camera may be
    moving, and what this frame places is not to be trusted."""


@dataclass(slots=True)
class AnchorMemory:
    """Where one camera has seen the anchors of its table (see the module's docstring).

    >>> memory = AnchorMemory({0, 1})
    >>> square = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]])
    >>> first = memory.pose_from({0: square, 1: square + 100, 7: square + 50}, {})
    >>> sorted(first.corners)  # marker 7 is no anchor
    [0, 1]
    >>> hidden = memory.pose_from({1: square + 100}, {})  # a hand over anchor 0
    >>> sorted(hidden.corners), hidden.moved
    ([0, 1], False)
    """

    anchor_ids: Collection[int]
    moved_px: float = MOVED_PX
    moved_frames: int = MOVED_FRAMES
    follow: float = FOLLOW
    _held: dict[int, _Held] = field(default_factory=dict)
    _moving: int = 0  # frames in a row in which the anchors in view have moved
    _size: tuple[int, int] | None = None  # the frames' size, when told

    def pose_from(
        self,
        seen: Mapping[int, FloatArray],
        noise_px: Mapping[int, float],
        size: tuple[int, int] | None = None,
    ) -> Posing:
        """Take in one frame's markers (image corners by id; only anchors are kept) and give
        the anchors to pose it from. ``noise_px`` is each marker's corner noise (1 sigma,
        px; 0.15 px for a marker it does not name). A frame of another ``size`` (width,
        height) than the last starts the memory again: its pixels are not the same."""
        resized = size is not None and self._size is not None and size != self._size
        if size is not None:
            self._size = size
        if resized and self._held:
            self._held.clear()
            self._moving = 0
            posing = self.pose_from(seen, noise_px)
            return Posing(posing.corners, posing.noise_px, True, doubtful=False)
        in_view = {
            marker: np.asarray(corners, dtype=np.float64).reshape(4, 2)
            for marker, corners in seen.items()
            if marker in self.anchor_ids
        }
        compared = [marker for marker in in_view if marker in self._held]
        moved = [
            marker
            for marker in compared
            if _farthest(in_view[marker], self._held[marker].corners) > self.moved_px
        ]
        if compared:  # a frame with nothing to compare neither confirms nor clears a move
            together = len(moved) >= 2 and 2 * len(moved) > len(compared)
            self._moving = self._moving + 1 if together else 0
        restarted = self._moving >= self.moved_frames
        if restarted:
            self._held.clear()
            self._moving = 0
            moved = []
        doubtful = bool(moved) and len(moved) == len(compared)
        for marker, corners in in_view.items():
            noise = float(noise_px.get(marker, 0.15))
            held = self._held.get(marker)
            if held is None:
                self._held[marker] = _Held(corners.copy(), noise)
            elif marker not in moved:
                held.corners += self.follow * (corners - held.corners)
                held.noise_px += self.follow * (noise - held.noise_px)
                held.moved_frames = 0
            else:  # not taken in until the camera is found moved, or it stays moved alone
                held.moved_frames += 1
                if held.moved_frames >= TAKEN_IN_FRAMES:
                    self._held[marker] = _Held(corners.copy(), noise)
        return Posing(
            {marker: held.corners.copy() for marker, held in self._held.items()},
            {marker: held.noise_px for marker, held in self._held.items()},
            restarted,
            doubtful=doubtful,
        )


def _farthest(a: FloatArray, b: FloatArray) -> float:
    """The largest distance between corresponding corners (px)."""
    return float(np.max(np.linalg.norm(a - b, axis=1)))
