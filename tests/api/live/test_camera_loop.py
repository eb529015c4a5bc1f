"""One camera watching the table (`arbitre.api.live.camera_loop`): a repeated picture is not
a new frame, an old frame is never reported as live, a lost source is retried, and
/api/health gives the frames delivered per second apart from what the pipeline could
process."""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient
from numpy.typing import NDArray

from arbitre.api.live.demo import DemoSource, demo_config, demo_setup
from arbitre.api.live.table import LiveTable, TableConfig
from arbitre.api.main import create_app
from arbitre.vision.sources import FolderSource, FrameSource
from tests.api.clock import Clock
from tests.api.live.stuck import Stuck


class Timer(Clock):
    """A timer for which measuring each frame takes ``per_frame_s``: it advances by that
    each time it is read (the table reads it before and after measuring a frame)."""

    def __init__(self, per_frame_s: float) -> None:
        super().__init__()
        self.per_frame_s = per_frame_s

    def __call__(self) -> float:
        self.now += self.per_frame_s
        return self.now

        self.last = self.inner.read()
        return self.last


@pytest.fixture(scope="module")
def config() -> TableConfig:
    setup = demo_setup()
    return TableConfig(setup.camera, setup.table, setup.roster, options={"unit_mm": 100})


def test_a_repeated_picture_is_measured_once_and_grows_old(config: TableConfig) -> None:
    clock, source = Clock(), Stuck()
    live = LiveTable(config, source, clock=clock)
    assert live.step() and live.frames_processed == 1
    source.mode = "repeat"
    for _ in range(5):
        clock.now += 0.5
        assert live.step()  # the source is there ...
    assert live.frames_processed == 1  # ... but gave nothing new
    state = live.state()
    # 2.5 s without a new frame, more than the 2 s a live source may pause.
    assert state["source"]["ok"] is False
    assert state["source"]["message"] == "test camera: no new frame for 2.5 s"
    assert state["source"]["frame_age_s"] == 2.5
    assert state["source"]["delivered_fps"] == 0.0 and state["fps"] == 0.0
    assert len(state["figures"]) == 7  # kept where they were

    source.mode = "live"
    assert live.step() and live.frames_processed == 2
    back = live.state()["source"]
    assert back["ok"] is True and back["message"] == "ok" and back["frame_age_s"] == 0.0


def test_a_hung_read_is_reported_even_though_no_step_ends(config: TableConfig) -> None:
    clock = Clock()
    live = LiveTable(config, Stuck(), clock=clock, stale_after_s=1.0)
    assert live.step()
    clock.now = 0.9
    assert live.state()["source"]["ok"] is True
    clock.now = 1.2  # the loop is stuck in read(): only the clock moves
    source = live.state()["source"]
    assert source["ok"] is False and source["frame_age_s"] == 1.2
    assert source["message"] == "test camera: no new frame for 1.2 s"


def test_no_frame_at_all_is_not_live_either(config: TableConfig) -> None:
    clock, source = Clock(), Stuck()
    source.mode = "nothing"
    live = LiveTable(config, source, clock=clock)
    assert live.state()["source"]["frame_age_s"] is None
    clock.now = 3.0
    state = live.state()["source"]
    assert state["ok"] is False and state["message"] == "test camera: no frame yet for 3.0 s"
    assert state["capacity_fps"] is None and state["delivered_fps"] == 0.0


def test_a_slow_source_is_given_twice_its_interval(config: TableConfig, tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "table.png"), Stuck().inner.read())
    clock = Clock()
    live = LiveTable(config, FolderSource(tmp_path, hold_s=5.0), clock=clock)
    assert live.step()
    clock.now = 9.0  # the folder shows each picture 5 s: 10 s before it is late
    assert live.state()["source"]["ok"] is True
    clock.now = 10.5
    assert live.state()["source"]["ok"] is False


def test_delivered_and_capacity_are_apart(config: TableConfig) -> None:
    # Frames come every 0.25 s (4 per second) and each takes 0.05 s to measure: the
    # pipeline could take 1 / 0.05 = 20 per second.
    clock, timer = Clock(), Timer(per_frame_s=0.05)
    live = LiveTable(config, Stuck(), clock=clock, timer=timer)
    for index in range(16):  # t = 0, 0.25, ..., 3.75
        clock.now = index * 0.25
        assert live.step()
    source = live.state()["source"]
    # In the last 2 s, (1.75, 3.75]: the frames of 2.0, 2.25, ..., 3.75, 8 of them: 8 / 2 s.
    assert source["delivered_fps"] == 4.0
    assert source["capacity_fps"] == pytest.approx(20.0, abs=0.05)
    assert source["ok"] is True and source["frame_age_s"] == 0.0
    assert live.state()["fps"] == 4.0

    clock.now = 4.75  # one second without a frame: half the window is empty
    assert live.state()["source"]["delivered_fps"] == 2.0  # (2.75, 4.75]: 4 frames / 2 s


def test_the_first_seconds_are_counted_from_the_first_frame(config: TableConfig) -> None:
    clock = Clock()
    live = LiveTable(config, Stuck(), clock=clock)
    clock.now = 10.0
    assert live.step()
    assert live.state()["source"]["delivered_fps"] == 0.0  # one frame: no rate yet
    clock.now = 10.5
    assert live.step()
    assert live.state()["source"]["delivered_fps"] == 2.0  # 1 interval of 0.5 s


def test_health_reports_both_rates(config: TableConfig) -> None:
    clock, timer = Clock(), Timer(per_frame_s=0.1)
    live = LiveTable(config, Stuck(), clock=clock, timer=timer)
    for index in range(3):
        clock.now = index * 0.5
        assert live.step()
    app = create_app(live, token="t", run_loop=False)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        body = client.get("/api/health").json()
    assert body["status"] == "ok" and body["frame"] == 3
    assert body["source"]["delivered_fps"] == 2.0  # 2 intervals in 1 s
    assert body["source"]["capacity_fps"] == pytest.approx(10.0, abs=0.05)
    assert body["fps"] == 2.0
    assert body["source"]["ok"] is True and body["source"]["frame_age_s"] == 0.0


def test_an_old_frame_is_served_with_a_banner_saying_so(config: TableConfig) -> None:
    clock, source = Clock(), Stuck()
    live = LiveTable(config, source, clock=clock)
    assert live.step()
    fresh = _decoded(live.jpeg(overlays=False))
    source.mode = "repeat"
    clock.now += 3.0  # no new frame for 3 s: no longer live
    assert live.step()
    old = _decoded(live.jpeg(overlays=False))
    band = max(24, old.shape[0] // 20)  # the banner's height: 36 px on the 720-line demo
    # The band turns red (BGR: red well above blue); the rest of the picture is the same.
    top_old, top_fresh = old[:band].mean(axis=(0, 1)), fresh[:band].mean(axis=(0, 1))
    assert top_old[2] > top_old[0] + 60 and abs(top_fresh[2] - top_fresh[0]) < 30
    assert np.abs(old[band + 4 :].astype(int) - fresh[band + 4 :]).mean() < 2.0


def _decoded(data: bytes | None) -> NDArray[np.uint8]:
    assert data is not None
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    return np.asarray(image, dtype=np.uint8)


def test_a_recording_is_read_at_the_pace_it_was_made(tmp_path: Path) -> None:
    # A video made at 10 frames a second is read a frame every 0.1 s (it was read at the
    # live loop's 30 a second, so figures settled three times too soon); a webcam, or a
    # file whose rate OpenCV cannot tell, as fast as it comes.
    from arbitre.vision.sources import CaptureSource

    video = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    for _ in range(3):
        writer.write(np.zeros((48, 64, 3), np.uint8))
    writer.release()
    recording = CaptureSource(str(video))
    try:
        assert recording.pace_s == pytest.approx(0.1)
    finally:
        recording.close()
    missing = CaptureSource(str(tmp_path / "gone.avi"))
    assert missing.pace_s is None
    missing.close()


def test_a_folder_of_one_photo_stays_as_sure_as_one_photo(
    config: TableConfig, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The photo is measured at each showing (the table stays live), but showing it ten
    # times is one measure, not ten: no figure grows surer than the first showing made it.
    import arbitre.vision.sources as sources

    now = [0.0]
    monkeypatch.setattr(sources.time, "monotonic", lambda: now[0])
    cv2.imwrite(str(tmp_path / "table.png"), Stuck().inner.read())
    clock = Clock()
    live = LiveTable(config, FolderSource(tmp_path, hold_s=1.0), clock=clock)
    assert live.step()
    first = {f["id"]: f["sigma_mm"] for f in live.state()["figures"]}
    for showing in range(1, 10):
        now[0] = clock.now = float(showing)
        assert live.step()
    assert live.frames_processed == 10 and live.state()["source"]["ok"] is True
    assert {f["id"]: f["sigma_mm"] for f in live.state()["figures"]} == first


class Flaky(FrameSource):
    """A stream that drops after a few frames and comes back after two retries."""

    description = "flaky stream"

    def __init__(self, inner: FrameSource) -> None:
        self.inner = inner
        self.reads = 0
        self.reopens = 0

    def read(self) -> NDArray[np.uint8] | None:
        self.reads += 1
        lost = 3 <= self.reads and self.reopens < 2
        return None if lost else self.inner.read()

    def reopen(self) -> bool:
        self.reopens += 1
        return self.reopens >= 2


def test_the_loop_retries_a_lost_source_and_carries_on() -> None:
    source = Flaky(DemoSource(move_every_s=1e9))
    live = LiveTable(
        demo_config(),
        source,
        max_fps=None,
        retry_s=0.05,
    )
    live.start()
    try:
        deadline = time.monotonic() + 20
        while live.frames_processed < 6 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        live.stop()
    assert source.reopens == 2  # lost twice, back at the second retry
    assert live.frames_processed >= 6
    state = live.state()
    assert state["source"]["ok"] is True
    assert len(state["figures"]) == 7


class Garbled(FrameSource):
    """A capture card giving frames of the wrong kind (float images)."""

    description = "garbled card"

    def read(self) -> NDArray[np.uint8] | None:
        return np.zeros((720, 1280, 3), dtype=np.float32)  # type: ignore[return-value]


def test_a_frame_the_pipeline_cannot_read_goes_stale_not_down() -> None:
    setup = demo_setup()
    live = LiveTable(TableConfig(setup.camera, setup.table, setup.roster), Garbled())
    assert live.step() is False
    state = live.state()
    assert state["source"]["ok"] is False
    assert state["source"]["message"].startswith("garbled card: ")
