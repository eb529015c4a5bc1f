"""The tracks of several cameras fused into one per marker (arbitre.api.live.fused_tracks)."""

from __future__ import annotations

import math

import pytest

from arbitre.api.live.fused_tracks import Disagreement, fuse_tracks
from arbitre.vision.tracking import Shared, Track


def track(
    marker: int = 10,
    x: float = 100.0,
    y: float = 50.0,
    sigma: float = 0.2,
    *,
    stale: bool = False,
    settled: bool = True,
    seen: float = 1.0,
    shared: Shared | None = None,
) -> Track:
    own = None
    if shared is not None:
        (nxx, nxy), (_, nyy) = shared.noise_cov_mm2
        (hxx, hxy), (_, hyy) = shared.lasting_cov_mm2
        own = ((nxx + hxx, nxy + hxy), (nxy + hxy, nyy + hyy))
    return Track(
        marker, x, y, sigma, 90.0, stale, 0.0 if not stale else 2.0, settled, 3.0, seen, shared, own
    )


def test_one_camera_s_tracks_are_its_own() -> None:
    shared = Shared(("pose_rx",), ((0.1, 0.0),), (0.0, 0.0), ((0.04, 0.0), (0.0, 0.04)))
    tracks = (track(shared=shared), track(11, stale=True))
    fused = fuse_tracks([(tracks, ("pose_rx",))])
    assert fused.tracks == tracks
    assert fused.shared_errors == ("pose_rx",)
    assert fused.views == {10: (0,)}  # the stale one is seen by no camera now


def test_two_settled_views_are_weighted_by_their_variances() -> None:
    # Independent views (no shared terms): weights 1/0.2^2 = 25 and 1/0.4^2 = 6.25, so
    # x = (25 * 100 + 6.25 * 101) / 31.25 = 100.2 and sigma = 1 / sqrt(31.25) = 0.1789.
    fused = fuse_tracks([((track(sigma=0.2),), ()), ((track(x=101.0, sigma=0.4),), ())])
    (one,) = fused.tracks
    assert one.x_mm == pytest.approx(100.2)
    assert one.y_mm == pytest.approx(50.0)
    assert one.sigma_mm == pytest.approx(1 / math.sqrt(31.25))
    assert fused.views == {10: (0, 1)}
    assert fused.disagreements == ()


def test_views_further_apart_than_their_uncertainty_keep_the_surer() -> None:
    # 5 mm apart, their difference's sigma sqrt(0.2^2 + 0.4^2) = 0.45 mm: 11 sigma.
    fused = fuse_tracks([((track(sigma=0.2),), ()), ((track(x=105.0, sigma=0.4),), ())])
    assert fused.tracks[0].x_mm == pytest.approx(100.0)
    assert fused.disagreements == (Disagreement(10, (0, 1), (0,)),)


def test_a_moving_figure_follows_the_view_that_saw_it_last() -> None:
    first = track(x=100.0, settled=False, seen=1.00)
    second = track(x=140.0, settled=False, seen=1.03)
    fused = fuse_tracks([((first,), ()), ((second,), ())])
    assert fused.tracks[0].x_mm == 140.0
    # one view still settled at the old place, the other seeing it moved: the newer wins
    fused = fuse_tracks([((track(seen=1.00),), ()), ((second,), ())])
    assert fused.tracks[0].x_mm == 140.0


def test_a_view_that_lost_the_marker_leaves_it_to_the_others() -> None:
    hidden = track(x=100.0, stale=True, seen=0.5)
    seen = track(x=100.3, seen=1.0)
    fused = fuse_tracks([((hidden,), ()), ((seen,), ())])
    assert fused.tracks[0].x_mm == 100.3 and not fused.tracks[0].stale
    assert fused.views == {10: (1,)}
    # seen by none now: the last camera that saw it keeps it, stale
    fused = fuse_tracks([((hidden,), ()), ((track(x=100.3, stale=True, seen=0.8),), ())])
    assert fused.tracks[0].x_mm == 100.3 and fused.tracks[0].stale
    assert fused.views == {10: ()}


def test_shared_terms_are_named_after_their_camera_and_anchors_are_one_term() -> None:
    noise = ((0.04, 0.0), (0.0, 0.04))
    terms = ("pose_rx", "anchor_0_x")
    a = Shared(terms, ((0.1, 0.0), (0.2, 0.0)), (0.0, 0.0), noise)
    b = Shared(terms, ((0.0, 0.1), (0.3, 0.0)), (0.0, 0.0), noise)
    fused = fuse_tracks([((track(11, shared=a),), terms), ((track(12, shared=b),), terms)])
    assert fused.shared_errors == ("0:pose_rx", "1:pose_rx", "anchor_0_x")
    by_marker = {t.marker: t for t in fused.tracks}
    assert by_marker[11].shared is not None and by_marker[12].shared is not None
    assert by_marker[11].shared.moves_mm == ((0.1, 0.0), (0.0, 0.0), (0.2, 0.0))
    assert by_marker[12].shared.moves_mm == ((0.0, 0.0), (0.0, 0.1), (0.3, 0.0))


def test_a_marker_both_see_counts_a_shared_anchor_once() -> None:
    # Both views rest on anchor 0, which moves the marker 1 mm along x in both: the fused
    # marker moves 1 mm with it (weights sum to I), not 1/sqrt(2) mm as if independent.
    # Their own noises (0.04 mm^2 each) average to 0.02 mm^2.
    noise = ((0.04, 0.0), (0.0, 0.04))
    shared = Shared(("anchor_0_x",), ((1.0, 0.0),), (0.0, 0.0), noise)
    view = track(shared=shared, sigma=math.sqrt(1.04))
    fused = fuse_tracks([((view,), ("anchor_0_x",)), ((view,), ("anchor_0_x",))])
    (one,) = fused.tracks
    assert one.shared is not None and one.own_cov_mm2 is not None
    assert one.shared.moves_mm[0] == pytest.approx((1.0, 0.0))
    assert one.own_cov_mm2[0][0] == pytest.approx(0.02)
    assert one.sigma_mm == pytest.approx(math.sqrt(1.02))


def test_a_leaning_figure_seen_from_opposite_sides_cancels_its_height_doubt() -> None:
    # A marker's height doubt moves it away from each camera: +1 mm along y for the camera
    # at y < 0, -1 mm for the one opposite. Equal weights: the fused height move is 0.
    noise = ((0.01, 0.0), (0.0, 0.01))
    near = Shared(("pose_rx",), ((0.0, 0.0),), (0.0, 1.0), noise)
    far = Shared(("pose_rx",), ((0.0, 0.0),), (0.0, -1.0), noise)
    fused = fuse_tracks(
        [((track(shared=near),), ("pose_rx",)), ((track(shared=far),), ("pose_rx",))]
    )
    (one,) = fused.tracks
    assert one.shared is not None
    assert one.shared.height_move_mm == pytest.approx((0.0, 0.0))
    assert one.sigma_mm == pytest.approx(math.sqrt(0.005))


def test_a_worse_view_erring_the_same_way_does_not_dilute_the_surer() -> None:
    # Along x (y alike): camera 0's own noise 0.01 mm^2, camera 1's 4 mm^2, and both rest
    # on one anchor that moves the marker 1 mm. Joint covariance C = [[1.01, 1], [1, 5]];
    # generalised least squares: C^-1 1 is (5 - 1, 1.01 - 1) / det = (4, 0.01) / 4.05, so
    # the weights are (4, 0.01) / 4.01 and the variance 1 / (1^T C^-1 1) = 4.05 / 4.01:
    # sigma 1.00498 mm, a hair under camera 0's alone (sqrt(1.01) = 1.00499). Weighting
    # each view by its own covariance as if independent gave (0.832, 0.168): 1.058 mm.
    terms = ("anchor_0_x",)
    sure = Shared(terms, ((1.0, 0.0),), (0.0, 0.0), ((0.01, 0.0), (0.0, 0.01)))
    loose = Shared(terms, ((1.0, 0.0),), (0.0, 0.0), ((4.0, 0.0), (0.0, 4.0)))
    fused = fuse_tracks(
        [
            ((track(x=100.0, shared=sure, sigma=math.sqrt(1.01)),), terms),
            ((track(x=102.0, shared=loose, sigma=math.sqrt(5.0)),), terms),
        ]
    )
    (one,) = fused.tracks
    assert one.x_mm == pytest.approx(100.0 + 2.0 * 0.01 / 4.01)
    assert one.shared is not None and one.shared.moves_mm[0] == pytest.approx((1.0, 0.0))
    assert one.sigma_mm == pytest.approx(math.sqrt(4.05 / 4.01))


def test_cameras_with_other_anchors_in_view_share_only_the_common_terms() -> None:
    # Camera 0 rests on anchors 0 and 4, camera 1 on anchors 4 and 2: anchor 4's term is
    # one column both move; each camera's pose term is its own.
    noise = ((0.01, 0.0), (0.0, 0.01))
    first = ("pose_rx", "anchor_0_x", "anchor_4_x")
    second = ("pose_rx", "anchor_4_x", "anchor_2_x")
    a = Shared(first, ((0.1, 0.0), (0.2, 0.0), (0.3, 0.0)), (0.0, 0.0), noise)
    b = Shared(second, ((0.0, 0.1), (0.4, 0.0), (0.5, 0.0)), (0.0, 0.0), noise)
    fused = fuse_tracks([((track(11, shared=a),), first), ((track(12, shared=b),), second)])
    assert fused.shared_errors == (
        "0:pose_rx",
        "1:pose_rx",
        "anchor_0_x",
        "anchor_4_x",
        "anchor_2_x",
    )
    by_marker = {t.marker: t for t in fused.tracks}
    assert by_marker[11].shared is not None and by_marker[12].shared is not None
    assert by_marker[11].shared.moves_mm == ((0.1, 0.0), (0, 0), (0.2, 0.0), (0.3, 0.0), (0, 0))
    assert by_marker[12].shared.moves_mm == ((0, 0), (0.0, 0.1), (0, 0), (0.4, 0.0), (0.5, 0.0))


def test_a_track_from_before_its_camera_s_anchors_changed_is_taken_as_independent() -> None:
    # Its terms are not its camera's latest: its moves could not be placed among them.
    noise = ((0.01, 0.0), (0.0, 0.01))
    old = Shared(("pose_rx", "anchor_0_x"), ((0.1, 0.0), (0.2, 0.0)), (0.0, 0.0), noise)
    now = ("pose_rx", "anchor_4_x")
    fused = fuse_tracks([((track(11, shared=old, stale=True),), now), ((), now)])
    (one,) = fused.tracks
    assert one.shared is None and one.own_cov_mm2 is None
    assert one.x_mm == 100.0 and one.stale
