"""arbitre.files: a file is written whole or not at all, and never over a user's file unasked."""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arbitre import files
from arbitre.files import FileWriteError, refuse_overwrite, write_atomically


def _left_over(folder: Path) -> list[str]:
    """Temporary files left in the folder (none after any write, good or bad)."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.fixture
def umask_027() -> Iterator[None]:
    old = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(old)


def test_text_and_bytes_are_written_whole(tmp_path: Path) -> None:
    target = tmp_path / "scene.yaml"
    write_atomically(target, "ruleset: mbt\nété: 1\n")
    assert target.read_bytes() == "ruleset: mbt\nété: 1\n".encode()
    write_atomically(target, b"%PDF-1.4 ...")
    assert target.read_bytes() == b"%PDF-1.4 ..."
    assert _left_over(tmp_path) == []


def test_a_replaced_file_keeps_its_permissions_a_new_one_follows_the_umask(
    tmp_path: Path, umask_027: None
) -> None:
    kept = tmp_path / "camera.yaml"
    kept.write_text("old\n")
    kept.chmod(0o600)
    write_atomically(kept, "new\n")
    assert kept.read_text() == "new\n"
    assert kept.stat().st_mode & 0o777 == 0o600
    fresh = tmp_path / "table.yaml"
    write_atomically(fresh, "new\n")
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~0o027  # 0o640


def test_a_write_failing_mid_way_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "scene.yaml"
    target.write_text("the old scene\n")

    def disk_full(_descriptor: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "fsync", disk_full)
    with pytest.raises(FileWriteError) as error:
        write_atomically(target, "figures: []\n" * 1000)
    assert str(error.value) == f"{target}: cannot write the file (No space left on device)"
    assert target.read_text() == "the old scene\n"
    assert _left_over(tmp_path) == []


def test_a_short_write_is_caught_before_the_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "camera.yaml"
    target.write_text("good\n")
    real_fdopen = os.fdopen

    class HalfWriter:
        """Writes half of what it is given and says nothing (a device that lies)."""

        def __init__(self, descriptor: int, mode: str) -> None:
            self.file = real_fdopen(descriptor, mode)

        def __enter__(self) -> HalfWriter:
            return self

        def __exit__(self, *_: Any) -> None:
            self.file.close()

        def write(self, data: bytes) -> int:
            return int(self.file.write(data[: len(data) // 2]))

        def flush(self) -> None:
            self.file.flush()

        def fileno(self) -> int:
            return int(self.file.fileno())

    monkeypatch.setattr(files.os, "fdopen", HalfWriter)
    with pytest.raises(FileWriteError, match="the written file is shorter than its content"):
        write_atomically(target, "image_size: [640, 480]\n")
    assert target.read_text() == "good\n"
    assert _left_over(tmp_path) == []


def test_content_the_validator_refuses_is_never_written(tmp_path: Path) -> None:
    target = tmp_path / "scene.yaml"
    target.write_text("the old scene\n")

    def must_be_yaml_mapping(data: bytes) -> None:
        if not data.startswith(b"ruleset:"):
            raise ValueError(f"not a scene: {data[:10]!r}")

    with pytest.raises(ValueError, match=r"not a scene: b.\{\"detail\":"):
        write_atomically(target, '{"detail": "Not Found"}', validate=must_be_yaml_mapping)
    assert target.read_text() == "the old scene\n"
    write_atomically(target, "ruleset: cb6\n", validate=must_be_yaml_mapping)
    assert target.read_text() == "ruleset: cb6\n"
    assert _left_over(tmp_path) == []


def test_without_overwrite_an_existing_file_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "table.yaml"
    target.write_text("hand-corrected\n")
    with pytest.raises(FileExistsError) as error:
        write_atomically(target, "generated\n", overwrite=False)
    assert str(error.value) == f"{target}: already exists; pass --force to overwrite it"
    assert target.read_text() == "hand-corrected\n"
    write_atomically(tmp_path / "new.yaml", "generated\n", overwrite=False)
    assert (tmp_path / "new.yaml").read_text() == "generated\n"
    assert _left_over(tmp_path) == []


def test_without_overwrite_a_file_created_during_the_write_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "camera.yaml"
    real_fsync = os.fsync

    def someone_else_writes(descriptor: int) -> None:
        real_fsync(descriptor)
        if not target.exists():
            target.write_text("theirs\n")

    monkeypatch.setattr(files.os, "fsync", someone_else_writes)
    with pytest.raises(FileExistsError, match="pass --force"):
        write_atomically(target, "ours\n", overwrite=False)
    assert target.read_text() == "theirs\n"
    assert _left_over(tmp_path) == []


def test_a_symbolic_link_is_written_through(tmp_path: Path) -> None:
    real = tmp_path / "real.yaml"
    real.write_text("old\n")
    link = tmp_path / "camera.yaml"
    link.symlink_to(real)
    write_atomically(link, "new\n")
    assert link.is_symlink() and real.read_text() == "new\n"


def test_a_missing_folder_is_one_line_naming_the_file(tmp_path: Path) -> None:
    target = tmp_path / "nowhere" / "scene.yaml"
    with pytest.raises(FileWriteError) as error:
        write_atomically(target, "x\n")
    assert str(error.value) == f"{target}: cannot write the file (No such file or directory)"
    assert isinstance(error.value, OSError)  # the command line's exit 2 for OSError


def test_refuse_overwrite(tmp_path: Path) -> None:
    target = tmp_path / "table.yaml"
    refuse_overwrite(target, force=False)  # nothing there: fine
    target.write_text("x")
    refuse_overwrite(target, force=True)
    with pytest.raises(FileExistsError) as error:
        refuse_overwrite(target, force=False)
    assert str(error.value) == f"{target}: already exists; pass --force to overwrite it"
    dangling = tmp_path / "gone.yaml"
    dangling.symlink_to(tmp_path / "nothing")
    with pytest.raises(FileExistsError):
        refuse_overwrite(dangling, force=False)
