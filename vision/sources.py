"""Where frames come from: a webcam, a video file, a folder of images, a network stream.

Every source gives frames through `FrameSource.read`, which returns None when no
frame can be had right now (a camera unplugged, a stream lost, a file gone); the live
loop then marks the table stale and retries the source every few seconds with
`FrameSource.reopen`. A source that has no new picture yet may give its last one again,
as the very same array object: the live table counts it once, never as a new frame. A
source that shows the very same picture anew (a folder's image come round again) says
so with `FrameSource.again`: the table looks at it, but takes its measures as no new
evidence.
"""

from __future__ import annotations

import abc
import hashlib
import math
import time
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from arbitre.vision.errors import VisionError
from arbitre.vision.images import read_image

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
CATCH_UP_S = 2.0
"""The most recording time a video source passes over at once to keep to its clock."""


class FrameSource(abc.ABC):
    """A stream of BGR frames."""

    description: str = "source"
    frame_interval_s: float | None = None
    """Seconds between new pictures when the source is known to be slow on purpose (a
    folder's images are each held a while); None for a camera or a stream."""
    pace_s: float | None = None
    """Seconds between the frames of a recording, to be read at the pace it was made (a
    video file); None for a live source, read as fast as it gives frames."""
    advice: str = ""
    """What to check when the source gives no frame (said after "no frame")."""
    again: bool = False
    """Whether the picture `read` gave last shows the very image an earlier one did (a
    file shown again): measuring it again is no new evidence, unlike a still camera's
    new frame, whose noise is its own."""

    def is_open(self) -> bool:
        """Whether the source could be opened (a webcam that is there, a file it reads)."""
        return True

    def no_frame(self) -> str:
        """What to say when the source gives no frame: which source, and what to check."""
        advice = f" ({self.advice})" if self.advice else ""
        return f"{self.description}: no frame{advice}"

    @abc.abstractmethod
    def read(self) -> NDArray[np.uint8] | None:
        """The next frame, or None when the source gives none now (it may come back).

        Giving the previous frame again means "nothing new": return the same object.
        """

    def reopen(self) -> bool:
        """Try to get the source back after it failed; True when it is back."""
        return True

    def close(self) -> None:  # noqa: B027 - a source with nothing to release keeps this
        """Release the device or file."""


class CaptureSource(FrameSource):
    """A webcam index, a video file or a network stream URL, through OpenCV's VideoCapture.

    A video file loops at its end, so a recorded table can be replayed for ever (its
    frames, from the second round on, are `again`: no new evidence). It plays
    at the pace it was made: where measuring a frame takes longer than the recording's
    frame interval, the frames of the time spent are passed over (up to
    `CATCH_UP_S` of them), so the table keeps to the recording's clock.
    """

    def __init__(self, target: int | str, *, loop: bool = True) -> None:
        self.target = target
        self.loop = loop
        self.description = f"camera {target}" if isinstance(target, int) else str(target)
        if isinstance(target, int):
            self.advice = (
                "is it plugged in, and not in use by another program? --camera-index"
                " chooses another, --demo plays without one"
            )
        elif "://" in target:
            self.advice = "is the address right, and is the stream sending?"
        self._capture = self._open()
        fps = float(self._capture.get(cv2.CAP_PROP_FPS) or 0.0)
        if isinstance(target, str) and Path(target).is_file() and 1.0 <= fps <= 240.0:
            self.pace_s = 1.0 / fps
        self._played: tuple[float, int] | None = None  # when the recording began, frames read

    def _open(self) -> cv2.VideoCapture:
        return cv2.VideoCapture(self.target)

    def read(self) -> NDArray[np.uint8] | None:
        self._catch_up()
        ok, frame = self._capture.read()
        if not ok and self.loop and isinstance(self.target, str) and Path(self.target).is_file():
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            self._played = None
            self.again = True  # the recording's frames, seen on its first round
            ok, frame = self._capture.read()
        if ok and self.pace_s is not None:
            began, frames = self._played or (time.monotonic(), 0)
            self._played = (began, frames + 1)
        return np.asarray(frame, dtype=np.uint8) if ok and frame is not None else None

    def _catch_up(self) -> None:
        """Pass over the frames of a recording whose time has gone by unread; when more
        than `CATCH_UP_S` has (the table paused), play on from here instead."""
        if self.pace_s is None or self._played is None:
            return
        began, frames = self._played
        behind = int((time.monotonic() - began) / self.pace_s) - frames
        if behind <= 0:
            return
        if behind * self.pace_s > CATCH_UP_S:
            self._played = (time.monotonic() - frames * self.pace_s, frames)
            return
        for _ in range(behind):
            if not self._capture.grab():
                break
            frames += 1
        self._played = (began, frames)

    def is_open(self) -> bool:
        """Whether OpenCV opened the target (a file it cannot read as video is not)."""
        return bool(self._capture.isOpened())

    def reopen(self) -> bool:
        self._capture.release()
        self._capture = self._open()
        self._played = None
        self.again = False
        return self.is_open()

    def close(self) -> None:
        self._capture.release()


class FolderSource(FrameSource):
    """The images of a folder in name order, each shown ``hold_s`` seconds, looping.

    While an image is shown, `read` gives the same array again (nothing new), as long as
    its file is still there and unchanged: a file removed or replaced is never served
    from memory. Each showing is a new picture, an image come round again included: a
    folder of one image is a still table seen every ``hold_s``; but an image shown
    before (the same pixels, under its own name or another's, among the files listed)
    is `again`, no new evidence. `reopen` lists the
    folder again, so a folder emptied and filled with other files (or removed and made
    again) is shown from its new files.
    """

    def __init__(self, folder: str | Path, *, hold_s: float = 1.0) -> None:
        self.folder = Path(folder)
        if not math.isfinite(hold_s) or hold_s <= 0:
            raise VisionError(f"hold_s must be a positive number of seconds, got {hold_s!r}")
        self.hold_s = hold_s
        self.frame_interval_s = hold_s
        self.description = f"folder {self.folder}"
        self._paths = self._list()
        if not self._paths:
            raise VisionError(f"{self.folder}: no images ({', '.join(IMAGE_SUFFIXES)})")
        self._start = time.monotonic()
        self._cache: tuple[tuple[Path, int, int, int, int], NDArray[np.uint8]] | None = None
        self._shown: dict[Path, bytes] = {}  # the digest of each file's last version shown

    def _list(self) -> list[Path]:
        if not self.folder.is_dir():
            raise VisionError(f"{self.folder}: not a folder")
        return sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)

    def read(self) -> NDArray[np.uint8] | None:
        if not self._paths:
            return None
        shown = int((time.monotonic() - self._start) / self.hold_s)
        path = self._paths[shown % len(self._paths)]
        try:
            status = path.stat()
        except OSError:  # removed (or the folder with it): nothing to show
            self._cache = None
            return None
        # Each showing is a new picture, the same image come round again included (a
        # folder of one image is a table seen every hold_s, as a still camera's is).
        key = (path, status.st_mtime_ns, status.st_size, status.st_ino, shown)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        self._cache = None
        try:
            image = read_image(path)  # a truncated JPEG or a pixel bomb is no frame
        except VisionError:
            return None
        self._cache = (key, image)
        # its shape and type too: two pictures of one colour may hold the same bytes
        picture = hashlib.blake2b(f"{image.shape} {image.dtype}".encode(), digest_size=16)
        picture.update(np.ascontiguousarray(image).data)
        digest = picture.digest()
        self.again = digest in self._shown.values()
        self._shown[path] = digest
        return self._cache[1]

    def reopen(self) -> bool:
        """List the folder again; True when it holds images."""
        self._cache = None
        try:
            self._paths = self._list()
        except (VisionError, OSError):
            self._paths = []
        listed = set(self._paths)  # the files gone from the folder are forgotten
        self._shown = {path: key for path, key in self._shown.items() if path in listed}
        self._start = time.monotonic()
        return bool(self._paths)


def camera_indices(candidates: Sequence[int] = range(4)) -> list[int]:
    """Webcam indices that open and give a frame."""
    found = []
    for index in candidates:
        capture = cv2.VideoCapture(index)
        try:
            if capture.isOpened() and capture.read()[0]:
                found.append(index)
        finally:
            capture.release()
    return found
