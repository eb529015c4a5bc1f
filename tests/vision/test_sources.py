"""Frame sources: a folder recreated with new files recovers; a file gone or changed is
never served from memory; a held image is given again as the same object (nothing new)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from arbitre.vision.errors import VisionError
from arbitre.vision.sources import FolderSource


def _image(path: Path, grey: int) -> Path:
    cv2.imwrite(str(path), np.full((8, 12, 3), grey, np.uint8))
    return path


def test_a_held_image_is_given_again_as_the_same_object(tmp_path: Path) -> None:
    _image(tmp_path / "a.png", 50)
    source = FolderSource(tmp_path, hold_s=60.0)
    first = source.read()
    assert first is not None and int(first[0, 0, 0]) == 50
    assert source.read() is first  # nothing new: the live table counts it once


def test_a_folder_of_one_image_shows_it_anew_each_hold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One photo of a table, held 1 s: each second it is a new picture (as a still
    # camera's frames are), so the live table stays live and its figures settle; it was
    # given once, then "no new frame" for ever.
    import arbitre.vision.sources as sources

    now = [100.0]
    monkeypatch.setattr(sources.time, "monotonic", lambda: now[0])
    _image(tmp_path / "table.png", 70)
    source = FolderSource(tmp_path, hold_s=1.0)
    first = source.read()
    now[0] += 0.5
    assert source.read() is first  # still the same showing: nothing new
    now[0] += 0.6
    second = source.read()
    assert second is not None and second is not first and int(second[0, 0, 0]) == 70


def test_a_folder_recreated_with_new_names_recovers(tmp_path: Path) -> None:
    folder = tmp_path / "shots"
    folder.mkdir()
    _image(folder / "a.png", 50)
    source = FolderSource(folder, hold_s=60.0)
    assert source.read() is not None

    shutil.rmtree(folder)  # the folder removed and made again with other files
    folder.mkdir()
    _image(folder / "b.png", 200)
    assert source.read() is None  # a.png is gone: its picture is not served from memory
    assert source.reopen() is True  # the live loop reopens a source that gave nothing
    again = source.read()
    assert again is not None and int(again[0, 0, 0]) == 200


def test_a_file_changed_in_place_is_read_again(tmp_path: Path) -> None:
    path = _image(tmp_path / "a.png", 50)
    source = FolderSource(tmp_path, hold_s=60.0)
    first = source.read()
    _image(path, 120)
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))  # another time than the first file's
    second = source.read()
    assert second is not first and second is not None and int(second[0, 0, 0]) == 120


def test_an_emptied_folder_gives_nothing_until_it_has_images(tmp_path: Path) -> None:
    path = _image(tmp_path / "a.png", 50)
    source = FolderSource(tmp_path, hold_s=60.0)
    assert source.read() is not None
    path.unlink()
    assert source.read() is None
    assert source.reopen() is False and source.read() is None
    shutil.rmtree(tmp_path)
    assert source.reopen() is False and source.read() is None  # no folder at all
    tmp_path.mkdir()
    _image(tmp_path / "c.jpg", 90)
    assert source.reopen() is True
    back = source.read()
    assert back is not None and abs(int(back[0, 0, 0]) - 90) <= 2  # JPEG


@pytest.mark.parametrize("hold_s", [0.0, -1.0, float("nan"), float("inf")])
def test_the_hold_is_a_positive_number_of_seconds(tmp_path: Path, hold_s: float) -> None:
    _image(tmp_path / "a.png", 50)
    with pytest.raises(VisionError, match="hold_s must be a positive number of seconds"):
        FolderSource(tmp_path, hold_s=hold_s)


def test_the_folder_interval_is_its_hold(tmp_path: Path) -> None:
    _image(tmp_path / "a.png", 50)
    assert FolderSource(tmp_path, hold_s=4.0).frame_interval_s == 4.0


def test_an_image_shown_again_is_said_to_be_seen_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A folder of one photo: each showing is a new picture (the table stays live), but
    # from the second on it is the same image again, no new evidence for the tracker.
    import arbitre.vision.sources as sources

    now = [100.0]
    monkeypatch.setattr(sources.time, "monotonic", lambda: now[0])
    path = _image(tmp_path / "table.png", 70)
    source = FolderSource(tmp_path, hold_s=1.0)
    first = source.read()
    assert first is not None and source.again is False
    now[0] += 1.0
    second = source.read()
    assert second is not None and second is not first and source.again is True
    _image(path, 90)  # the photo replaced by another: new evidence
    os.utime(path, ns=(1, 1))
    now[0] += 1.0
    third = source.read()
    assert third is not None and int(third[0, 0, 0]) == 90 and source.again is False


def test_a_recording_measured_slowly_keeps_to_its_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A 10 fps recording (frame k is grey 5 k): read at 0 s, then again 0.55 s later
    # (measuring took that long), it gives frame 5, the one due then, not frame 1.
    import arbitre.vision.sources as sources

    video = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    for k in range(40):
        writer.write(np.full((48, 64, 3), 5 * k, np.uint8))
    writer.release()
    now = [50.0]
    monkeypatch.setattr(sources.time, "monotonic", lambda: now[0])
    recording = sources.CaptureSource(str(video))
    try:

        def grey() -> float:
            frame = recording.read()
            assert frame is not None
            return float(frame.mean())

        assert grey() == pytest.approx(0.0, abs=2.0)
        now[0] += 0.1
        assert grey() == pytest.approx(5.0, abs=2.0)  # on time: the next frame
        now[0] += 0.45  # 0.55 s in: frame 5 is due
        assert grey() == pytest.approx(25.0, abs=2.0)
        now[0] += 30.0  # paused far longer than it catches up: it plays on from there
        assert grey() == pytest.approx(30.0, abs=2.0)
    finally:
        recording.close()


def test_a_photo_overwritten_again_and_again_is_remembered_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A camera tool that keeps writing latest.jpg: each version is new once, and the
    # source remembers only the file's last version (not one entry a write for ever).
    import arbitre.vision.sources as sources

    now = [0.0]
    monkeypatch.setattr(sources.time, "monotonic", lambda: now[0])
    path = tmp_path / "latest.png"
    _image(path, 10)
    source = FolderSource(tmp_path, hold_s=1.0)
    for version in range(1, 6):
        now[0] += 1.0
        _image(path, 10 + 10 * version)
        os.utime(path, ns=(version * 10**9, version * 10**9))
        assert source.read() is not None and source.again is False
    now[0] += 1.0
    assert source.read() is not None and source.again is True
    assert len(source._shown) == 1


def test_a_recording_played_round_again_is_no_new_evidence(tmp_path: Path) -> None:
    video = tmp_path / "short.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    for k in range(4):
        writer.write(np.full((48, 64, 3), 40 * k, np.uint8))
    writer.release()
    import arbitre.vision.sources as sources

    recording = sources.CaptureSource(str(video))
    try:
        seen = []
        for _ in range(6):
            assert recording.read() is not None
            seen.append(recording.again)
        assert seen == [False, False, False, False, True, True]
    finally:
        recording.close()


def test_the_same_photo_under_another_name_is_no_new_evidence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a.png and b.png hold the same pixels, c.png others: shown in turn a, b, c, a, only
    # a (the first time) and c are new pictures.
    import arbitre.vision.sources as sources

    now = [0.0]
    monkeypatch.setattr(sources.time, "monotonic", lambda: now[0])
    _image(tmp_path / "a.png", 40)
    shutil.copy(tmp_path / "a.png", tmp_path / "b.png")
    _image(tmp_path / "c.png", 80)
    source = FolderSource(tmp_path, hold_s=1.0)
    seen = []
    for _ in range(4):
        assert source.read() is not None
        seen.append(source.again)
        now[0] += 1.0
    assert seen == [False, True, False, True]


def test_pictures_of_one_colour_but_other_sizes_are_new_pictures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 40 x 60 and 60 x 40 black pictures hold the same bytes, but are two pictures.
    import arbitre.vision.sources as sources

    now = [0.0]
    monkeypatch.setattr(sources.time, "monotonic", lambda: now[0])
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((40, 60, 3), np.uint8))
    cv2.imwrite(str(tmp_path / "b.png"), np.zeros((60, 40, 3), np.uint8))
    source = FolderSource(tmp_path, hold_s=1.0)
    seen = []
    for _ in range(2):
        assert source.read() is not None
        seen.append(source.again)
        now[0] += 1.0
    assert seen == [False, False]
