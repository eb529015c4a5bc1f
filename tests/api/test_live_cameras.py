"""A table watched by two cameras: the club demo's 6 x 4 ft table seen from both long
edges, fused into one live state; an arm over some figures in one view, a camera that
stops, and each view through the API."""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient
from numpy.typing import NDArray

from arbitre.api.hosts import LOOPBACK
from arbitre.api.live.demo_club import FIGURES, ClubTable, club_sources, demo_club_config
from arbitre.api.live.table import LiveTable
from arbitre.api.main import create_app
from arbitre.vision.sources import FrameSource
from tests.api.clock import Clock

FRAME_S = 1 / 15  # the table's clock moves this much between two rounds of frames
# The club demo's truth is exact: a fused marker lies within this of it.
FUSED_ERROR_MM = 0.5


class Unpluggable(FrameSource):
    """A camera that can be unplugged: then it gives no frame."""

    def __init__(self, inner: FrameSource) -> None:
        self.inner = inner
        self.description = inner.description
        self.unplugged = False

    def read(self) -> NDArray[np.uint8] | None:
        if self.unplugged:
            return None
        image = self.inner.read()
        self.again = self.inner.again
        return image

    def no_frame(self) -> str:
        return f"{self.description}: unplugged"


@pytest.fixture(scope="module")
def club() -> ClubTable:
    return ClubTable(seed=1)  # nobody walks, no arm: the test moves them (about 3 s)


@pytest.fixture()
def table(club: ClubTable) -> Iterator[tuple[LiveTable, list[Unpluggable], Clock]]:
    clock = Clock()
    sources = [Unpluggable(source) for source in club_sources(club)]
    live = LiveTable(demo_club_config(), sources, clock=clock, max_fps=None)
    yield live, sources, clock
    club.reach_over(0, [], 0.0)  # the arm leaves


def run(live: LiveTable, clock: Clock, rounds: int) -> None:
    for _ in range(rounds):
        live.step()
        clock.now += FRAME_S


def test_both_cameras_see_every_figure_and_their_views_are_fused(
    table: tuple[LiveTable, list[Unpluggable], Clock], club: ClubTable
) -> None:
    live, _, clock = table
    run(live, clock, 15)  # 1 s: every figure settled
    state = live.state()
    assert [c["ok"] for c in state["cameras"]] == [True, True]
    assert [c["anchors_seen"] for c in state["cameras"]] == [[0, 1, 2, 3, 4, 5]] * 2
    assert state["source"]["ok"]
    truth = club.positions_mm()
    figures = {f["marker"]: f for f in state["figures"]}
    assert sorted(figures) == sorted(f[0] for f in FIGURES)
    for marker, figure in figures.items():
        assert figure["views"] == [0, 1] and figure["settled"] and not figure["stale"]
        assert all(px is not None for px in figure["views_px"])
        error = np.hypot(figure["x_mm"] - truth[marker][0], figure["y_mm"] - truth[marker][1])
        assert error < FUSED_ERROR_MM, (marker, error)
    # The scene's errors are each camera's own terms and the table's common ones.
    document = live.scene_document()
    terms = document["shared_errors"]
    assert "0:pose_rx" in terms and "1:pose_rx" in terms and "anchor_4_x" in terms
    assert all(len(f["shared_mm"]) == len(terms) for f in document["figures"])


def test_an_arm_over_figures_in_one_view_leaves_them_to_the_other(
    table: tuple[LiveTable, list[Unpluggable], Clock], club: ClubTable
) -> None:
    live, _, clock = table
    run(live, clock, 15)
    under = [FIGURES[0][0], FIGURES[9][0], FIGURES[12][0]]
    club.reach_over(0, under, 60.0)
    run(live, clock, 5)
    figures = {f["marker"]: f for f in live.state()["figures"]}
    truth = club.positions_mm()
    for marker in under:
        assert figures[marker]["views"] == [1]
        assert not figures[marker]["stale"]
        error = np.hypot(
            figures[marker]["x_mm"] - truth[marker][0], figures[marker]["y_mm"] - truth[marker][1]
        )
        assert error < FUSED_ERROR_MM
    others = [m for m in figures if m not in under]
    assert all(figures[m]["views"] == [0, 1] for m in others)


def test_a_camera_that_stops_leaves_the_other_s_figures_live_and_is_named(
    table: tuple[LiveTable, list[Unpluggable], Clock], club: ClubTable
) -> None:
    live, sources, clock = table
    run(live, clock, 15)
    under = [FIGURES[3][0], FIGURES[4][0]]
    club.reach_over(0, under, 60.0)  # hidden from camera 1 by an arm ...
    run(live, clock, 3)
    sources[1].unplugged = True  # ... and camera 2 stops: nobody sees them now
    run(live, clock, 3)
    state = live.state()
    assert [c["ok"] for c in state["cameras"]] == [True, False]
    assert not state["source"]["ok"]
    assert "camera 2: demo camera 2: unplugged" in state["source"]["message"]
    figures = {f["marker"]: f for f in state["figures"]}
    assert sorted(figures) == sorted(f[0] for f in FIGURES)  # none forgotten
    for marker, figure in figures.items():
        if marker in under:
            assert figure["stale"] and figure["views"] == []
        else:
            assert not figure["stale"] and figure["views"] == [0]
    # a question about one figure no camera sees and one seen: the answer rests on the
    # first's last place, and says so (the stale figures the question is not about are
    # not named)
    hidden, seen = figures[under[0]]["id"], figures[FIGURES[0][0]]["id"]
    answer, about = live.ask("distance", [hidden, seen])
    assert answer.to_json()["distance_mm"] > 0
    assert about["stale"] == [hidden]


def test_each_camera_s_view_is_served_and_a_camera_it_lacks_is_404(
    table: tuple[LiveTable, list[Unpluggable], Clock],
) -> None:
    live, _, clock = table
    run(live, clock, 2)
    app = create_app(live, run_loop=False, hosts=[*LOOPBACK, "testserver"])
    with TestClient(app) as client:
        sizes = []
        for camera in (0, 1):
            reply = client.get(f"/api/snapshot.jpg?camera={camera}&overlays=false")
            assert reply.status_code == 200 and reply.headers["content-type"] == "image/jpeg"
            image = cv2.imdecode(np.frombuffer(reply.content, np.uint8), cv2.IMREAD_COLOR)
            sizes.append(image.shape[:2])
        assert sizes == [(1080, 1920)] * 2
        first = client.get("/api/snapshot.jpg?camera=0&overlays=false").content
        second = client.get("/api/snapshot.jpg?camera=1&overlays=false").content
        assert first != second  # two views, not one twice
        missing = client.get("/api/snapshot.jpg?camera=2")
        assert missing.status_code == 404
        assert missing.json()["detail"] == "no camera 2: the table has 2 cameras (0 to 1)"
        assert client.get("/api/stream.mjpg?camera=5").status_code == 404
        state = client.get("/api/state").json()
        assert [c["description"] for c in state["cameras"]] == ["demo camera 1", "demo camera 2"]
