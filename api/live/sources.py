"""The kinds of frame source, in one table that arbitre.yaml, the command line and the
live table read.

A kind is a key of arbitre.yaml's ``source:`` (``source: {video: game.mp4}``), the option
of ``serve`` and ``snapshot`` of the same name with dashes (``--video``), and how its
`FrameSource` is opened from the value given. `SOURCE_KINDS` lists them;
`arbitre.api.settings.SourceSpec` (the ``source:`` mapping) has one field per kind, and
`open_source` opens the one given.
A new kind of source is one entry of `SOURCE_KINDS` (docs/adding-a-frame-source.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arbitre.vision.errors import VisionError

if TYPE_CHECKING:
    from arbitre.vision.sources import FrameSource


@dataclass(frozen=True, slots=True)
class SourceKind:
    """One kind of frame source: its key, its command-line option and how it opens."""

    key: str
    """The key under ``source:`` in arbitre.yaml; the option is the same with dashes
    (``camera_index``: ``--camera-index``)."""
    value_type: type[int] | type[str] | type[Path]
    """What the option takes; a `Path` is written as text in arbitre.yaml, relative to it."""
    help: str
    """The option's help."""
    opens: Callable[[Any, Path], FrameSource]
    """The source of a value, a path in it relative to the folder given."""
    title: str
    """How ``arbitre check`` names it before the value: ``webcam 0``, ``video game.mp4``."""
    served_help: str | None = None
    """The option's help in ``serve``, which runs for as long as the table is watched,
    when it says more there (a video loops)."""
    bounds: tuple[int, int] | None = None
    """The smallest and largest number the option takes."""

    @property
    def option(self) -> str:
        """The command-line option: ``--camera-index``."""
        return "--" + self.key.replace("_", "-")


MAX_CAMERA_INDEX = 63
"""The largest webcam index taken (OpenCV crashes on a negative one)."""

VIDEO_DEADLINE_S = 20.0
"""How long a video may take to open: a pipe waits for its writer."""


def _webcam(index: int, _base: Path) -> FrameSource:
    from arbitre.vision.sources import CaptureSource

    return CaptureSource(index)


def _video(name: str | Path, base: Path) -> FrameSource:
    """A video file, or a pipe a video comes through, opened within `VIDEO_DEADLINE_S`."""
    from arbitre.api.limits import in_time
    from arbitre.vision.sources import CaptureSource

    path = base / name
    if not path.exists():
        raise VisionError(f"{path}: no such file")
    if path.is_dir():
        raise VisionError(f"{path}: a folder; give its images with --folder")
    try:
        source = in_time(lambda: CaptureSource(str(path)), VIDEO_DEADLINE_S)
    except TimeoutError:
        raise VisionError(
            f"{path}: no video came within {VIDEO_DEADLINE_S:g} s (a pipe nobody writes to?)"
        ) from None
    if not source.is_open():
        source.close()
        raise VisionError(f"{path}: not a video OpenCV can read")
    return source


def _folder(name: str | Path, base: Path) -> FrameSource:
    from arbitre.vision.sources import FolderSource

    return FolderSource(base / name)


def _stream(url: str, _base: Path) -> FrameSource:
    from arbitre.vision.sources import CaptureSource

    return CaptureSource(url)


SOURCE_KINDS: tuple[SourceKind, ...] = (
    SourceKind(
        "camera_index",
        int,
        "webcam index, 0 to 63",
        _webcam,
        "webcam",
        bounds=(0, MAX_CAMERA_INDEX),
    ),
    SourceKind("video", Path, "a video file", _video, "video", "a video file (loops)"),
    SourceKind("folder", Path, "a folder of images", _folder, "folder"),
    SourceKind("url", str, "a network stream URL", _stream, "url"),
)
"""Every kind of frame source, in the order the options are listed."""


def find_kind(key: str) -> SourceKind:
    """The kind of source whose key (under ``source:``) is ``key``."""
    return next(kind for kind in SOURCE_KINDS if kind.key == key)


def open_source(given: tuple[SourceKind, Any] | None, base: Path) -> FrameSource:
    """The frame source of a kind and its value (a path relative to ``base``); none
    given: the first webcam found."""
    if given is not None:
        kind, value = given
        return kind.opens(value, base)
    from arbitre.vision.sources import CaptureSource, camera_indices

    found = camera_indices()
    if not found:
        raise VisionError(
            "no source given and no camera found (tried webcams 0-3); try `arbitre serve --demo`"
        )
    return CaptureSource(found[0])
