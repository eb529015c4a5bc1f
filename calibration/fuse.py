"""Several cameras, one table: the markers each view located, fused in table mm.

Each camera finds its own pose from the anchors it sees and locates the markers it sees
(`arbitre.calibration.locate`); a marker seen by several is then placed once:

- **Terms.** The errors a view's markers share (its pose, its lens) are that camera's
  own: in the fused answer they are named after it (``"0:pose_rx"``, ``"1:fx"``). The
  anchors' placement and the print scale are the same for every camera (one table, one
  printer): ``anchor_3_x`` or ``print_scale`` stays one term, which every view that
  rests on it moves.
- **Weights.** The views of one marker are averaged with the generalised least-squares
  weights of their joint covariance (`_weights`): the surer view counts more, along
  each direction, and what two views share (an anchor both rest on) is not taken as
  independent evidence. The fused marker's shared moves are ``sum W_i S_i``: the
  terms two views share (an anchor both rest on) are counted once, not as if
  independent. Its own covariance is ``sum W_i P_i W_i^T + h h^T``, ``P_i`` each view's
  pixel noise (the cameras' own, independent) and ``h = sum W_i h_i`` its height's
  doubt (one figure leans one way for every camera).
- **Disagreement.** Two views of a marker disagree when their places are further apart
  than their difference's covariance allows (``d^T D^-1 d`` over `DISAGREE_CHI2`, about
  3.4 sigma in 2 D). Of three or more, the view that disagrees with the most others is
  left out until the rest agree; of two, the marker is taken from the surer alone
  (smallest sigma). A warning names the marker and the views.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from arbitre.calibration.locate import LocatedMarker, LocateResult, PlacedTerrain

FloatArray = NDArray[np.float64]

DISAGREE_CHI2 = 11.83
"""Two views disagree when the squared Mahalanobis distance between their places passes
this: the 99.73 % point of a chi-square with 2 degrees of freedom (3 sigma in one D)."""

COMMON_TERMS = ("anchor_", "print_scale")
"""Terms every camera shares: the anchors' placement and the print scale (by name start)."""


@dataclass(frozen=True, slots=True)
class FusedMarker:
    """One marker placed from every view that saw it (``views``: their indexes)."""

    marker: LocatedMarker
    views: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {**self.marker.to_json(), "views": list(self.views)}


@dataclass(frozen=True, slots=True)
class Agreement:
    """How far apart the first two views that saw a marker place it: mm, and in sigmas of
    their difference. A set-up whose cameras agree places every marker both see within a
    few tenths of a mm and about one sigma: the quick check before a game."""

    id: int
    apart_mm: float
    apart_sigma: float


@dataclass(frozen=True, slots=True)
class AnchorAgreement:
    """How the views place one anchor: each view's distance from where table.yaml says it
    is (``off_mm``, None for a view that did not see it) and how far apart the first two
    views that saw it place it (``apart_mm``, None when one view saw it). Each view's pose
    rests on the anchors: a few tenths of a mm is a set-up that is right; an anchor
    several mm off in every view was glued off its place (or table.yaml is wrong)."""

    id: int
    off_mm: tuple[float | None, ...]
    apart_mm: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "off_mm": [None if off is None else round(off, 2) for off in self.off_mm],
            "apart_mm": None if self.apart_mm is None else round(self.apart_mm, 2),
        }


@dataclass(frozen=True, slots=True)
class FusedResult:
    """The table as several views locate it: ``views`` each camera's own answer (in the
    order of the images), ``markers`` and ``terrain`` fused, ``warnings`` the views left
    out of a marker, the names of the shared terms, and how far apart the views place
    each marker two of them saw (``agreement``) and each anchor (``anchors``)."""

    views: tuple[LocateResult, ...]
    markers: tuple[FusedMarker, ...]
    terrain: tuple[PlacedTerrain, ...]
    shared_errors: tuple[str, ...]
    warnings: tuple[str, ...]
    agreement: tuple[Agreement, ...] = ()
    anchors: tuple[AnchorAgreement, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``arbitre locate`` with several images (docs/formats.md)."""
        return {
            "image_size": [list(v.image_size) for v in self.views],
            "anchors_seen": [list(v.pose.anchors_seen) for v in self.views],
            "anchors_used": [list(v.pose.anchors_used) for v in self.views],
            "table_reprojection_px": [round(v.pose.reprojection_px, 3) for v in self.views],
            "shared_errors": list(self.shared_errors),
            "markers": [m.to_json() for m in self.markers],
            "markers_rejected": [
                {"id": r.id, "reason": r.reason, "view": k}
                for k, v in enumerate(self.views)
                for r in v.markers_rejected
            ],
            "terrain": [piece.to_json() for piece in self.terrain],
            "warnings": list(self.warnings),
            "agreement": [
                {
                    "id": a.id,
                    "apart_mm": round(a.apart_mm, 3),
                    "apart_sigma": round(a.apart_sigma, 2),
                }
                for a in self.agreement
            ],
            "anchor_agreement": [a.to_json() for a in self.anchors],
        }


def term_names(views: Sequence[LocateResult]) -> tuple[str, ...]:
    """The fused answer's shared terms (`fused_terms` of the views' terms)."""
    return fused_terms([view.shared_errors for view in views])


def fused_terms(terms: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """The shared terms of several views fused: each view's own terms under its index,
    then the terms all views share (anchors, print scale), each once, in order of
    appearance.

    >>> fused_terms([("pose_rx", "anchor_0_x"), ("pose_rx", "anchor_0_x", "print_scale")])
    ('0:pose_rx', '1:pose_rx', 'anchor_0_x', 'print_scale')
    """
    own: list[str] = []
    common: list[str] = []
    for k, names in enumerate(terms):
        for name in names:
            if name.startswith(COMMON_TERMS):
                if name not in common:
                    common.append(name)
            else:
                own.append(fused_name(name, k))
    return (*own, *common)


def fuse(views: Sequence[LocateResult]) -> FusedResult:
    """Fuse what several views located (see the module's notes)."""
    names = term_names(views)
    column = {name: k for k, name in enumerate(names)}
    seen: dict[int, list[tuple[int, LocatedMarker]]] = {}
    pieces: dict[int, PlacedTerrain] = {}
    for k, view in enumerate(views):
        for marker in view.markers:
            seen.setdefault(marker.id, []).append((k, marker))
        for piece in view.terrain:
            seen.setdefault(piece.marker.id, []).append((k, piece.marker))
            pieces.setdefault(piece.marker.id, piece)
    warnings: list[str] = []
    agreement: list[Agreement] = []
    markers: list[FusedMarker] = []
    terrain: list[PlacedTerrain] = []
    for marker_id in sorted(seen):
        found = [(k, _in_terms(m, views[k], k, column)) for k, m in seen[marker_id]]
        if len(found) > 1:
            apart_mm, apart_sigma = _apart(found[0][1], found[1][1])
            agreement.append(Agreement(marker_id, apart_mm, apart_sigma))
        place, used, apart = combine(found)
        surest = min((m for k, m in seen[marker_id] if k in used), key=lambda m: m.sigma_mm)
        fused = _placed(surest, place)
        if apart:
            kept = "view" if len(used) == 1 else "views"
            warnings.append(
                f"marker {marker_id}: views {', '.join(map(str, apart))} place it further "
                f"apart than their uncertainties allow; taken from {kept} "
                f"{', '.join(map(str, used))}"
            )
        if marker_id in pieces:
            terrain.append(PlacedTerrain(pieces[marker_id].piece, fused))
        else:
            markers.append(FusedMarker(fused, tuple(used)))
    return FusedResult(
        tuple(views),
        tuple(markers),
        tuple(terrain),
        names,
        tuple(warnings),
        tuple(agreement),
        _anchor_agreement(views),
    )


def _anchor_agreement(views: Sequence[LocateResult]) -> tuple[AnchorAgreement, ...]:
    """Each anchor some view saw: how far each view places it from table.yaml's place, and
    how far apart the first two views that saw it place it."""
    places = [{a.id: a for a in view.anchors_placed} for view in views]
    checks = []
    for anchor in sorted({i for placed in places for i in placed}):
        seen = [placed[anchor] for placed in places if anchor in placed]
        apart = (
            math.hypot(seen[1].x_mm - seen[0].x_mm, seen[1].y_mm - seen[0].y_mm)
            if len(seen) > 1
            else None
        )
        off = tuple(placed[anchor].off_mm if anchor in placed else None for placed in places)
        checks.append(AnchorAgreement(anchor, off, apart))
    return tuple(checks)


@dataclass(frozen=True, slots=True)
class Placement:
    """One view's place of a marker in the fused answer's terms: ``xy`` (table mm), the
    moves of the shared terms ``moves`` (k, 2), its pixel noise ``pixel`` (2, 2) and its
    height's move ``height`` (2,) (one height doubt for every camera: the figure leans
    one way). A fused place is a `Placement` too."""

    xy: FloatArray
    moves: FloatArray
    pixel: FloatArray
    height: FloatArray

    @property
    def own(self) -> FloatArray:
        """Its own covariance: the pixel noise and the height's doubt."""
        own = self.pixel + np.outer(self.height, self.height)
        return np.asarray((own + own.T) / 2.0, dtype=np.float64)

    @property
    def covariance(self) -> FloatArray:
        return np.asarray(self.own + self.moves.T @ self.moves, dtype=np.float64)

    @property
    def sigma_mm(self) -> float:
        """1 sigma along its worst direction."""
        return _worst(self.covariance)


def _in_terms(
    marker: LocatedMarker, view: LocateResult, index: int, column: dict[str, int]
) -> Placement:
    """A view's marker with its shared moves placed in the fused answer's terms."""
    moves = np.zeros((len(column), 2))
    for name, move in zip(view.shared_errors, marker.shared_mm, strict=True):
        moves[column[fused_name(name, index)]] = move
    height = np.array(marker.height_move_mm, dtype=np.float64)
    own = (
        np.array(marker.own_cov_mm2, dtype=np.float64)
        if marker.own_cov_mm2 is not None
        else marker.sigma_mm**2 * np.eye(2)
    )
    pixel = own - np.outer(height, height)
    return Placement(np.array([marker.x_mm, marker.y_mm]), moves, pixel, height)


def fused_name(term: str, view: int) -> str:
    """A view's shared term as the fused answer names it: its own under its index
    (``"1:pose_rx"``), one every camera shares as it is (``"anchor_3_x"``)."""
    return term if term.startswith(COMMON_TERMS) else f"{view}:{term}"


def combine(found: Sequence[tuple[int, Placement]]) -> tuple[Placement, list[int], list[int]]:
    """One marker from its views: the fused place, the views used, and the views that
    disagreed (empty when they all agree).

    While two views disagree, the view that disagrees with the most others (then by the
    larger sum of squared sigmas) is left out, as long as three or more are left; of two
    that disagree, the surer is kept alone.
    """
    views = list(found)
    involved: set[int] = set()
    while True:
        apart = {
            (a, b): _apart(first, second)[1] ** 2
            for (a, first), (b, second) in itertools.combinations(views, 2)
        }
        against = {a: b for a, b in apart.items() if b > DISAGREE_CHI2}
        if not against:
            break
        involved.update(k for pair in against for k in pair)
        if len(views) == 2:
            k, best = min(views, key=lambda item: item[1].sigma_mm)
            return best, [k], sorted(involved)
        worst = max((k for k, _ in views), key=lambda k: _blame(k, against))
        views = [item for item in views if item[0] != worst]
    if len(views) == 1:
        return views[0][1], [views[0][0]], sorted(involved)
    places = [view for _, view in views]
    weighted = list(zip(_weights(places), places, strict=True))
    return _weighted(weighted), [k for k, _ in views], sorted(involved)


def _weights(views: Sequence[Placement]) -> list[FloatArray]:
    """The best weights (2 x 2 each, summing to I) of views of one point whose errors are
    correlated through the terms they share: generalised least squares,
    ``W = (H^T C^-1 H)^-1 H^T C^-1`` with ``C`` the views' joint covariance (each view's
    pixel noise its own; ``S_i^T S_j + h_i h_j^T`` between two views) and ``H`` the
    stacked identities. Views that shared nothing would be weighted by the inverses of
    their covariances; a term both share (an anchor) is not averaged away, so the surer
    view is not diluted by a worse one that errs the same way."""
    count = len(views)
    joint = np.zeros((2 * count, 2 * count))
    for i, a in enumerate(views):
        for j, b in enumerate(views):
            block = a.moves.T @ b.moves + np.outer(a.height, b.height)
            joint[2 * i : 2 * i + 2, 2 * j : 2 * j + 2] = block + (a.pixel if i == j else 0.0)
    stacked = np.tile(np.eye(2), (count, 1))
    solved = np.linalg.solve(joint, stacked)  # C^-1 H
    weights = np.linalg.solve(stacked.T @ solved, solved.T)  # (2, 2 count)
    return [np.asarray(weights[:, 2 * i : 2 * i + 2]) for i in range(count)]


def _blame(view: int, against: dict[tuple[int, int], float]) -> tuple[int, float]:
    """How many views disagree with ``view``, and the sum of those disagreements (χ²)."""
    mine = [chi2 for pair, chi2 in against.items() if view in pair]
    return len(mine), sum(mine)


def _apart(first: Placement, second: Placement) -> tuple[float, float]:
    """How far apart two views place a marker: mm, and in sigmas of their difference
    (its Mahalanobis distance: what the two views share, an anchor both rest on,
    cancels in it)."""
    moves = second.moves - first.moves
    height = second.height - first.height
    spread = first.pixel + second.pixel + moves.T @ moves + np.outer(height, height)
    d = second.xy - first.xy
    return float(np.hypot(*d)), math.sqrt(max(float(d @ np.linalg.solve(spread, d)), 0.0))


def _weighted(weighted: list[tuple[FloatArray, Placement]]) -> Placement:
    """The weighted sum of views (weights 2 x 2, summing to I): its shared moves and
    height's move are the weighted sums, its pixel noise the sum of the weighted noises
    (the cameras' own are independent)."""
    xy = np.sum([w @ view.xy for w, view in weighted], axis=0)
    moves = np.sum([view.moves @ w.T for w, view in weighted], axis=0)
    height = np.sum([w @ view.height for w, view in weighted], axis=0)
    pixel = np.sum([w @ view.pixel @ w.T for w, view in weighted], axis=0)
    return Placement(xy, moves, pixel, height)


def _placed(marker: LocatedMarker, place: Placement) -> LocatedMarker:
    """``marker`` at a fused place, with its errors."""
    own = place.own
    shared = place.moves.T @ place.moves
    height = place.height
    return replace(
        marker,
        x_mm=float(place.xy[0]),
        y_mm=float(place.xy[1]),
        sigma_mm=_worst(own + shared),
        shared_sigma_mm=_worst(shared + np.outer(height, height)),
        shared_mm=tuple((float(dx), float(dy)) for dx, dy in place.moves),
        own_cov_mm2=((float(own[0, 0]), float(own[0, 1])), (float(own[1, 0]), float(own[1, 1]))),
        height_move_mm=(float(height[0]), float(height[1])),
    )


def _worst(covariance: FloatArray) -> float:
    """1 sigma along a covariance's worst direction."""
    return math.sqrt(max(float(np.linalg.eigvalsh(covariance)[-1]), 0.0))


__all__ = [
    "DISAGREE_CHI2",
    "Agreement",
    "AnchorAgreement",
    "FusedMarker",
    "FusedResult",
    "Placement",
    "combine",
    "fuse",
    "fused_name",
    "fused_terms",
    "term_names",
]
