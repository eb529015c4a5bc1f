"""Image files: every photo is read by one reader, which refuses in one line a file whose
header claims too many pixels, a truncated JPEG, a folder, a device or a FIFO."""

from __future__ import annotations

import os
import struct
import time
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from arbitre.calibration.intrinsics import read_grey_image
from arbitre.vision.detect import read_image
from arbitre.vision.errors import VisionError
from arbitre.vision.images import MAX_IMAGE_PIXELS, ImageReadError, declared_size
from arbitre.vision.sources import FolderSource


def _png_claiming(width: int, height: int) -> bytes:
    """A small PNG file whose header claims ``width x height`` grey pixels."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = zlib.compress(b"\x00" * 4096)
    chunks = chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + chunks


def _photo() -> np.ndarray:
    rng = np.random.default_rng(3)
    return rng.integers(0, 255, (240, 320, 3), dtype=np.uint8)


def test_a_header_claiming_60000_x_60000_pixels_is_refused_in_one_line(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(_png_claiming(60_000, 60_000))
    for grey in (False, True):
        with pytest.raises(ImageReadError) as refused:
            read_image(bomb, grey=grey)
        assert str(refused.value) == (
            f"{bomb}: cannot read the image (its header claims 60000x60000 pixels, "
            f"more than {MAX_IMAGE_PIXELS:,})"
        )
    image, reason = read_grey_image(bomb)
    assert image is None
    assert reason.startswith("cannot read the image (its header claims 60000x60000")


def test_a_jpeg_header_claiming_too_many_pixels_is_refused(tmp_path: Path) -> None:
    ok, encoded = cv2.imencode(".jpg", _photo())
    assert ok
    data = bytearray(encoded.tobytes())
    at = 2
    while data[at + 1] not in (0xC0, 0xC2):  # to the frame header (SOF0 or SOF2)
        at += 2 + int.from_bytes(data[at + 2 : at + 4], "big")
    data[at + 5 : at + 9] = struct.pack(">HH", 65_000, 65_000)
    bomb = tmp_path / "bomb.jpg"
    bomb.write_bytes(bytes(data))
    with pytest.raises(ImageReadError, match="claims 65000x65000 pixels"):
        read_image(bomb)


def test_a_truncated_jpeg_is_refused_by_every_reader(tmp_path: Path) -> None:
    ok, encoded = cv2.imencode(".jpg", _photo())
    assert ok
    truncated = tmp_path / "cut.jpg"
    truncated.write_bytes(encoded.tobytes()[: len(encoded) // 2])
    with pytest.raises(ImageReadError) as refused:
        read_image(truncated)
    assert str(refused.value) == (
        f"{truncated}: cannot read the image (not a readable image: an unknown format or a "
        "damaged file)"
    )
    assert read_grey_image(truncated) == (None, refused.value.reason)


def test_a_folder_is_said_to_be_a_folder(tmp_path: Path) -> None:
    with pytest.raises(VisionError) as refused:
        read_image(tmp_path)
    assert str(refused.value) == f"{tmp_path}: a directory, not an image file"
    with pytest.raises(VisionError, match="no such image file"):
        read_image(tmp_path / "absent.png")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_or_a_device_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "frame.png"
    os.mkfifo(fifo)
    started = time.monotonic()
    for path in (fifo, Path("/dev/zero")):
        with pytest.raises(ImageReadError) as refused:
            read_image(path)
        assert str(refused.value) == (
            f"{path}: cannot read the image (not a regular file: a device, a pipe or a socket)"
        )
        image, reason = read_grey_image(path)
        assert image is None and "not a regular file" in reason
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".bmp", ".webp", ".tiff"])
def test_declared_sizes_are_those_of_the_pixels(suffix: str) -> None:
    ok, encoded = cv2.imencode(suffix, _photo())
    assert ok
    assert declared_size(encoded.tobytes()) == (320, 240)


def test_lossless_webp_and_gif_headers_are_read() -> None:
    ok, encoded = cv2.imencode(".webp", _photo(), [cv2.IMWRITE_WEBP_QUALITY, 101])
    assert ok
    assert declared_size(encoded.tobytes()) == (320, 240)
    gif = b"GIF89a" + struct.pack("<HH", 640, 480) + bytes(10)
    assert declared_size(gif) == (640, 480)
    assert declared_size(b"\xff\xd8\xff") is None  # a header cut short


def test_good_images_read_as_before(tmp_path: Path) -> None:
    photo = _photo()
    path = tmp_path / "frame.png"
    cv2.imwrite(str(path), photo)
    assert np.array_equal(read_image(path), photo)
    grey = read_image(path, grey=True)
    assert grey.shape == (240, 320) and grey.dtype == np.uint8


def test_a_folder_source_gives_no_frame_for_a_damaged_image(tmp_path: Path) -> None:
    ok, encoded = cv2.imencode(".jpg", _photo())
    assert ok
    (tmp_path / "0001.jpg").write_bytes(encoded.tobytes()[: len(encoded) // 2])
    (tmp_path / "0002.png").write_bytes(_png_claiming(60_000, 60_000))
    source = FolderSource(tmp_path, hold_s=1000.0)
    assert source.read() is None  # the truncated JPEG, not the part of it libjpeg read
    source._paths = source._paths[1:]
    assert source.read() is None  # the pixel bomb: no frame, no cv2 error
