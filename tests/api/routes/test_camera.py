"""The camera view: a JPEG snapshot and an MJPEG stream of each camera, one JPEG encoder for
every client, and a cap on open streams."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import ExitStack

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from arbitre.api.hosts import LOOPBACK
from arbitre.api.live.demo import DemoSource, demo_setup
from arbitre.api.live.demo_club import ClubTable
from arbitre.api.live.table import LiveTable, TableConfig
from arbitre.api.main import create_app
from arbitre.api.routes.camera import SharedJpeg
from tests.api.clock import Clock
from tests.api.club_cameras import Unpluggable, run, watched
from tests.api.routes.served import served_demo


class CountingEncoder:
    """Stands for ``LiveTable.jpeg``: picture n is b"jpeg n"; counts what it made."""

    def __init__(self) -> None:
        self.calls: list[bool] = []

    def __call__(self, overlays: bool, camera: int = 0) -> bytes:
        time.sleep(0.005)  # encoding takes a while
        self.calls.append(overlays)
        return f"jpeg {len(self.calls)}".encode()


async def _watch(shared: SharedJpeg, overlays: bool, count: int) -> list[bytes]:
    seen: list[bytes] = []
    pictures = shared.pictures(overlays)
    async for data in pictures:
        seen.append(data)
        if len(seen) == count:
            break
    await pictures.aclose()
    return seen


def test_five_clients_share_one_encoder() -> None:
    encoder = CountingEncoder()
    shared = SharedJpeg(encoder, every_s=0.02)

    async def scenario() -> list[list[bytes]]:
        seen = await asyncio.gather(*(_watch(shared, False, 3) for _ in range(5)))
        await asyncio.sleep(0.1)  # everyone left: the encoder stops
        return list(seen)

    seen = asyncio.run(scenario())
    # Five clients joined together and took 3 pictures each: 3 JPEGs made, not 15 (a 4th
    # may be under way when the last client leaves), and every client got the same ones.
    assert 3 <= len(encoder.calls) <= 4
    assert all(pictures == [b"jpeg 1", b"jpeg 2", b"jpeg 3"] for pictures in seen)
    made = len(encoder.calls)
    asyncio.run(asyncio.sleep(0.05))
    assert len(encoder.calls) == made  # nobody watches: nothing is encoded


def test_a_slow_client_gets_the_newest_picture_and_holds_nobody_back() -> None:
    encoder = CountingEncoder()
    shared = SharedJpeg(encoder, every_s=0.01)

    async def scenario() -> tuple[list[bytes], list[bytes]]:
        slow_pictures = shared.pictures(False)
        first = await anext(slow_pictures)
        fast = await _watch(shared, False, 5)  # meanwhile the slow client reads nothing
        second = await anext(slow_pictures)
        await slow_pictures.aclose()
        return [first, second], fast

    slow, fast = asyncio.run(scenario())
    assert slow[0] == b"jpeg 1"
    assert len(fast) == 5
    # The slow client skipped the pictures it was too slow for: its next one is newer
    # than every one the fast client saw.
    assert int(slow[1].split()[1]) >= int(fast[-1].split()[1])


def test_pictures_with_and_without_drawings_are_encoded_apart() -> None:
    encoder = CountingEncoder()
    shared = SharedJpeg(encoder, every_s=0.01)

    async def scenario() -> None:
        await asyncio.gather(_watch(shared, True, 2), _watch(shared, False, 2))

    asyncio.run(scenario())
    assert encoder.calls.count(True) >= 2 and encoder.calls.count(False) >= 2


@pytest.fixture()
def client() -> Iterator[TestClient]:
    setup = demo_setup()
    live = LiveTable(
        TableConfig(setup.camera, setup.table, setup.roster), DemoSource(move_every_s=1e9)
    )
    assert live.step()
    app = create_app(live, run_loop=False, hosts=[*LOOPBACK, "testserver"], max_streams=2)
    with TestClient(app) as test_client:
        yield test_client


def _first_part(chunks: Iterator[bytes]) -> bytes:
    """The stream's first part (the iterator is kept: dropping it closes the stream)."""
    head = b""
    for chunk in chunks:
        head += chunk
        if b"\xff\xd9" in head:  # the JPEG's end-of-image marker
            break
    return head


def test_streams_past_the_cap_are_503_and_a_closed_one_frees_its_place(
    client: TestClient,
) -> None:
    shared: SharedJpeg = client.app.state.shared_jpeg  # type: ignore[attr-defined]
    with client.stream("GET", "/api/stream.mjpg") as first:
        with client.stream("GET", "/api/stream.mjpg?overlays=false") as second:
            assert first.status_code == second.status_code == 200
            first_chunks, second_chunks = first.iter_bytes(), second.iter_bytes()
            assert _first_part(first_chunks).startswith(b"--frame\r\nContent-Type: image/jpeg")
            assert _first_part(second_chunks).startswith(b"--frame\r\nContent-Type: image/jpeg")
            third = client.get("/api/stream.mjpg")
            assert third.status_code == 503
            assert third.json()["detail"].startswith("2 camera streams are open already")
            assert shared.open_streams == 2
        assert shared.open_streams == 1  # the second one gave its place back
        with client.stream("GET", "/api/stream.mjpg") as again:
            assert again.status_code == 200
    assert shared.open_streams == 0


def test_four_clients_of_the_stream_share_each_jpeg(client: TestClient) -> None:
    shared: SharedJpeg = client.app.state.shared_jpeg  # type: ignore[attr-defined]
    shared.max_streams, shared.every_s = 4, 1.0  # one picture a second: all in one picture
    with ExitStack() as stack:
        replies = [stack.enter_context(client.stream("GET", "/api/stream.mjpg")) for _ in range(4)]
        chunks = [reply.iter_bytes() for reply in replies]
        parts = [_first_part(each) for each in chunks]
        assert shared.open_streams == 4
        made = shared.encoded
    assert all(part == parts[0] for part in parts) and len(parts[0]) > 1000
    # Four clients, one picture each: encoded once (twice if a second went by meanwhile),
    # not four times.
    assert 1 <= made <= 2


@pytest.fixture(scope="module")
def demo() -> Iterator[tuple[TestClient, LiveTable, DemoSource]]:
    with served_demo() as served:
        yield served


def test_snapshot_is_the_camera_frame(demo: tuple[TestClient, LiveTable, DemoSource]) -> None:
    client, _, _ = demo
    reply = client.get("/api/snapshot.jpg")
    assert reply.headers["content-type"] == "image/jpeg"
    image = cv2.imdecode(np.frombuffer(reply.content, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (720, 1280, 3)


def test_mjpeg_stream_sends_jpeg_parts(demo: tuple[TestClient, LiveTable, DemoSource]) -> None:
    client, _, _ = demo
    with client.stream("GET", "/api/stream.mjpg") as reply:
        assert reply.headers["content-type"] == "multipart/x-mixed-replace; boundary=frame"
        head = b""
        for chunk in reply.iter_bytes():
            head += chunk
            if len(head) > 2000:
                break
    assert head.startswith(b"--frame\r\nContent-Type: image/jpeg\r\n")
    assert b"\r\n\r\n\xff\xd8" in head  # the JPEG's start-of-image marker after the headers


@pytest.fixture()
def two_cameras() -> Iterator[tuple[LiveTable, list[Unpluggable], Clock]]:
    with watched(ClubTable(seed=1)) as table:  # nobody walks, no arm
        yield table


def test_each_camera_s_view_is_served_and_a_camera_it_lacks_is_404(
    two_cameras: tuple[LiveTable, list[Unpluggable], Clock],
) -> None:
    live, _, clock = two_cameras
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
