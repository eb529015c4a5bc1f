"""Several cameras' tracks of one table, fused into one track per marker.

Each camera tracks the markers it sees (`arbitre.api.live.camera_loop.CameraLoop`); their
frames are not synchronised. The table's figures are the fusion of the newest tracks
of every camera:

- a camera whose track of a marker is stale (not in its latest frame: hidden by an
  arm, or the camera stopped) is left out while another sees the marker; a marker no
  camera sees keeps the track of the camera that saw it last (stale);
- a marker that is moving in some view (its track not yet settled) follows the view
  that saw it last: averaging an old place with a new one would place it nowhere;
- a settled marker seen by several cameras is placed by inverse-covariance weighting
  of their tracks, with what their errors share (`arbitre.calibration.fuse.combine`:
  each camera's pose and lens are its own terms, the anchors' placement and the print
  scale are the table's), and a view that disagrees beyond its uncertainty is left out.

The shared terms of the fused tracks are named as ``arbitre locate`` names them for
several images (``"0:pose_rx"``, ``"anchor_3_x"``): the cameras are the views. One
camera's tracks are its own, unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from arbitre.calibration.fuse import FloatArray, Placement, combine, fused_name, fused_terms
from arbitre.vision.tracking import Shared, Track


@dataclass(frozen=True, slots=True)
class FusedTracks:
    """The table's tracks: one per marker, the names of the terms their errors share,
    which cameras see each marker now (``views``: marker -> camera indexes), and the
    markers whose cameras disagree beyond their uncertainties (``disagreements``)."""

    tracks: tuple[Track, ...]
    shared_errors: tuple[str, ...]
    views: Mapping[int, tuple[int, ...]]
    disagreements: tuple[Disagreement, ...] = ()


@dataclass(frozen=True, slots=True)
class Disagreement:
    """A still marker two cameras or more place further apart than their uncertainties
    allow: the cameras that did (``apart``) and those it was taken from (``used``)."""

    marker: int
    apart: tuple[int, ...]
    used: tuple[int, ...]


CameraTracks = tuple[tuple[Track, ...], tuple[str, ...]]
"""One camera's tracks and the shared terms of its latest located frame."""


def fuse_tracks(cameras: Sequence[CameraTracks]) -> FusedTracks:
    """The table's tracks from each camera's (see the module's notes)."""
    if len(cameras) == 1:
        tracks, errors = cameras[0]
        return FusedTracks(tracks, errors, {t.marker: (0,) for t in tracks if not t.stale})
    names = fused_terms([errors for _, errors in cameras])
    column = {name: k for k, name in enumerate(names)}
    # where each camera's terms go among the fused ones
    rows = [
        np.array([column[fused_name(name, k)] for name in errors], dtype=np.intp)
        for k, (_, errors) in enumerate(cameras)
    ]
    seen: dict[int, list[tuple[int, Track]]] = {}
    for k, (tracks, _) in enumerate(cameras):
        for track in tracks:
            seen.setdefault(track.marker, []).append((k, track))
    fused = []
    views: dict[int, tuple[int, ...]] = {}
    disagreements = []
    for marker in sorted(seen):
        fresh = [(k, t) for k, t in seen[marker] if not t.stale]
        views[marker] = tuple(k for k, _ in fresh)
        pool = fresh or [max(seen[marker], key=lambda kt: kt[1].last_seen_s)]
        if len(pool) == 1 or not all(t.settled for _, t in pool):
            k, track = max(pool, key=lambda kt: kt[1].last_seen_s)
            fused.append(_renamed(track, cameras[k][1], names, rows[k]))
            continue
        places = [(k, _placement(t, cameras[k][1], len(names), rows[k])) for k, t in pool]
        place, used, apart = combine(places)
        if apart:
            disagreements.append(Disagreement(marker, tuple(apart), tuple(used)))
        chosen = [t for k, t in pool if k in used]
        fused.append(_track_at(place, chosen, names))
    return FusedTracks(tuple(fused), names, views, tuple(disagreements))


def _current(track: Track, errors: tuple[str, ...]) -> Shared | None:
    """The track's shared errors when they are its camera's current terms (a track last
    seen before the anchors changed is taken as independent)."""
    shared = track.shared
    if shared is None or track.own_cov_mm2 is None or not errors or shared.errors != errors:
        return None
    return shared


def _moves(shared: Shared, count: int, rows: NDArray[np.intp]) -> FloatArray:
    """A camera's shared moves (its terms) among the ``count`` fused terms, at ``rows``."""
    moves = np.zeros((count, 2))
    if len(rows):
        moves[rows] = shared.moves_mm
    return moves


def _placement(
    track: Track, errors: tuple[str, ...], count: int, rows: NDArray[np.intp]
) -> Placement:
    """A camera's track as a view of its marker in the fused terms."""
    xy = np.array([track.x_mm, track.y_mm])
    shared = _current(track, errors)
    if shared is None or track.own_cov_mm2 is None:
        return Placement(xy, np.zeros((count, 2)), track.sigma_mm**2 * np.eye(2), np.zeros(2))
    height = np.array(shared.height_move_mm, dtype=np.float64)
    pixel = np.array(track.own_cov_mm2, dtype=np.float64) - np.outer(height, height)
    return Placement(xy, _moves(shared, count, rows), pixel, height)


def _renamed(
    track: Track, errors: tuple[str, ...], names: tuple[str, ...], rows: NDArray[np.intp]
) -> Track:
    """One camera's track with its shared errors in the fused terms."""
    shared = _current(track, errors)
    if shared is None:
        return replace(track, shared=None, own_cov_mm2=None)
    moves = _moves(shared, len(names), rows)
    return replace(track, shared=replace(shared, errors=names, moves_mm=_pairs(moves)))


def _track_at(place: Placement, used: Sequence[Track], names: tuple[str, ...]) -> Track:
    """The track of a marker placed from several cameras' settled tracks."""
    surest = min(used, key=lambda t: t.sigma_mm)
    own = place.own
    pixel = place.pixel
    return replace(
        surest,
        x_mm=float(place.xy[0]),
        y_mm=float(place.xy[1]),
        sigma_mm=place.sigma_mm,
        age_s=min(t.age_s for t in used),
        still_s=min(t.still_s for t in used),
        last_seen_s=max(t.last_seen_s for t in used),
        shared=Shared(
            names,
            _pairs(place.moves),
            (float(place.height[0]), float(place.height[1])),
            ((float(pixel[0, 0]), float(pixel[0, 1])), (float(pixel[1, 0]), float(pixel[1, 1]))),
        ),
        own_cov_mm2=((float(own[0, 0]), float(own[0, 1])), (float(own[1, 0]), float(own[1, 1]))),
    )


def _pairs(moves: FloatArray) -> tuple[tuple[float, float], ...]:
    return tuple((dx, dy) for dx, dy in moves.tolist())
