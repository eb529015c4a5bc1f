"""Reading image files: the one reader of every photo arbitre is given.

`read_image` reads a regular file of at most `MAX_IMAGE_BYTES` (`arbitre.files`: a device
or a FIFO is refused at once, never read or waited on), looks at the size the file's header
declares before decoding anything (PNG, JPEG, BMP, GIF, WebP, TIFF), and refuses more than
`MAX_IMAGE_PIXELS`: a small file claiming 60000 x 60000 pixels would take OpenCV gigabytes
and minutes, or stop it with an error. The pixels are decoded from memory by
``cv2.imdecode``, which refuses a truncated JPEG where ``cv2.imread`` would return the part
it could read. Every refusal is an `ImageReadError`, one line naming the file.
"""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from arbitre.files import FileReadError, read_bounded
from arbitre.vision.errors import VisionError

MAX_IMAGE_BYTES = 512_000_000
"""The largest image file read (a 50-megapixel PNG is about 100 MB)."""

MAX_IMAGE_PIXELS = 200_000_000
"""The most pixels an image may have: the largest camera sensors (200 megapixels) take
about 2 s to decode and 600 MB of memory."""


class ImageReadError(VisionError):
    """An image file that cannot be read; the message names it, in one line.

    ``reason`` is the same without the file's name, as a rejected image's reason:
    ``cannot read the image (not a readable image: an unknown format or a damaged file)``.
    """

    def __init__(self, path: str | Path, reason: str, message: str | None = None) -> None:
        super().__init__(message or f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason


def read_image(path: str | Path, *, grey: bool = False) -> NDArray[np.uint8]:
    """An image file as an 8-bit BGR array (H, W, 3), or grey (H, W) when ``grey``.

    Raises
    ------
    ImageReadError
        One line naming the file: missing, a directory, not a regular file, too large,
        more than `MAX_IMAGE_PIXELS`, not an image OpenCV decodes, or damaged (a truncated
        JPEG).
    """
    name = str(path)
    try:
        data = read_bounded(path, MAX_IMAGE_BYTES)
    except FileReadError as error:
        reason = f"cannot read the image ({error.reason})"
        if error.missing:
            raise ImageReadError(name, reason, f"{name}: no such image file") from None
        if error.folder:
            raise ImageReadError(name, reason, f"{name}: a directory, not an image file") from None
        raise ImageReadError(name, reason) from None
    return decode_image(data, name, grey=grey)


def decode_image(data: bytes, name: str, *, grey: bool = False) -> NDArray[np.uint8]:
    """The pixels of an image file's bytes, or an `ImageReadError` naming ``name``."""

    def refused(detail: str) -> ImageReadError:
        return ImageReadError(name, f"cannot read the image ({detail})")

    if not data:
        raise refused("not a readable image: an empty file")
    size = declared_size(data)
    if size is not None and size[0] * size[1] > MAX_IMAGE_PIXELS:
        raise refused(
            f"its header claims {size[0]}x{size[1]} pixels, more than {MAX_IMAGE_PIXELS:,}"
        )
    flags = cv2.IMREAD_GRAYSCALE if grey else cv2.IMREAD_COLOR
    try:
        image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), flags)
    except cv2.error:  # e.g. more pixels than OpenCV's own limit, in a format not read above
        raise refused("OpenCV refuses it: too large or damaged") from None
    if image is None or image.size == 0:
        raise refused("not a readable image: an unknown format or a damaged file")
    return np.asarray(image, dtype=np.uint8)


def declared_size(data: bytes) -> tuple[int, int] | None:
    """``(width, height)`` as the header of a PNG, JPEG, BMP, GIF, WebP or TIFF file
    declares it, without decoding the pixels; None for another format or a header that
    does not say.

    >>> header = b"\\x89PNG\\r\\n\\x1a\\n" + bytes(4) + b"IHDR"
    >>> declared_size(header + (60000).to_bytes(4, "big") + (40000).to_bytes(4, "big"))
    (60000, 40000)
    >>> declared_size(b"not an image") is None
    True
    """
    try:
        if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR":
            return _pair(struct.unpack(">II", data[16:24]))
        if data.startswith(b"\xff\xd8"):
            return _jpeg_size(data)
        if data.startswith(b"BM"):
            width, height = struct.unpack("<ii", data[18:26])
            return _pair((abs(width), abs(height)))
        if data.startswith((b"GIF87a", b"GIF89a")):
            return _pair(struct.unpack("<HH", data[6:10]))
        if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
            return _webp_size(data)
        if data.startswith((b"II*\x00", b"MM\x00*")):
            return _tiff_size(data)
    except struct.error:  # a header cut short: left to the decoder
        return None
    return None


def _pair(values: tuple[int, ...]) -> tuple[int, int]:
    return int(values[0]), int(values[1])


_JPEG_FRAMES = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
"""The JPEG markers that start a frame (SOFn): they give its height and width."""


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # markers without a length
            at += 2
            continue
        (length,) = struct.unpack(">H", data[at + 2 : at + 4])
        if marker in _JPEG_FRAMES:
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return int(width), int(height)
        if marker == 0xDA or length < 2:  # the scan starts before any frame: not a JPEG
            return None
        at += 2 + length
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X":
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return width, height
    if chunk == b"VP8L":
        (bits,) = struct.unpack("<I", data[21:25])
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8 ":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    return None


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    order = "<" if data.startswith(b"II") else ">"
    (first,) = struct.unpack(order + "I", data[4:8])
    (count,) = struct.unpack(order + "H", data[first : first + 2])
    found: dict[int, int] = {}
    for index in range(min(count, 1000)):
        at = first + 2 + 12 * index
        tag, kind = struct.unpack(order + "HH", data[at : at + 4])
        if tag in (256, 257):  # ImageWidth, ImageLength: a SHORT or a LONG
            code = order + ("H" if kind == 3 else "I")
            (found[tag],) = struct.unpack(code, data[at + 8 : at + 8 + struct.calcsize(code)])
    if 256 in found and 257 in found:
        return found[256], found[257]
    return None
