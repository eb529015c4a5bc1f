"""Files written whole or not at all: a temporary file beside the target, then ``os.replace``.

Every file arbitre writes (camera.yaml, table.yaml, a scene snapshot, a printed sheet,
arbitre.yaml) goes through `write_atomically`: a reader, or the user after a crash or a
full disk, sees the old file or the new one, never half of one. What is written can be
checked first (parsed back by its own reader), so a file is never replaced by something
its reader refuses.

This module sits below the four parts of the package and imports none of them.
"""

from __future__ import annotations

import errno
import os
import secrets
from collections.abc import Callable
from pathlib import Path

_NEW_FILE_MODE = 0o666  # less the process's umask, as for any new file


class FileWriteError(OSError):
    """A file that could not be written; the message names it and says why, in one line:
    ``scene.yaml: cannot write the file (No space left on device)``."""

    def __init__(self, path: str | Path, reason: str) -> None:
        super().__init__(f"{path}: cannot write the file ({reason})")
        self.path = str(path)
        self.reason = reason


def refuse_overwrite(path: str | Path, *, force: bool) -> None:
    """Refuse to replace an existing file unless ``force``.

    Raises `FileExistsError` with one line naming the file and the command-line option
    that allows it: ``table.yaml: already exists; pass --force to overwrite it``.
    """
    where = Path(path)
    if not force and (where.exists() or where.is_symlink()):
        raise _exists(where)


def write_atomically(
    path: str | Path,
    data: str | bytes,
    *,
    validate: Callable[[bytes], object] | None = None,
    overwrite: bool = True,
) -> None:
    """Write ``data`` to ``path`` whole or not at all.

    Parameters
    ----------
    path:
        The file to write; its folder must exist.
    data:
        The content; text is written as UTF-8.
    validate:
        Called on the bytes before anything is written; whatever it raises (the reader's
        own error, naming what is wrong) propagates and the file is left as it was.
    overwrite:
        False refuses (`FileExistsError`) to replace an existing file, even one created
        while this was writing.

    Raises
    ------
    FileWriteError
        The file could not be written (a full disk, no permission, a missing folder):
        one line naming the file. ``path`` is then untouched and no temporary file is left.

    Notes
    -----
    The bytes go to a temporary file in the same folder (``.NAME.XXXXXXXX.tmp``), which is
    flushed and synced to disk, then renamed over ``path`` with ``os.replace`` (atomic on
    one file system); the folder is synced so that the rename survives a power cut. An
    existing file keeps its permissions; a new one gets the usual ones (0666 less the
    umask). A symbolic link is written through: the file it points to is replaced.
    """
    where = Path(path)
    target = where.resolve() if where.is_symlink() else where  # a link's file, not the link
    content = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if validate is not None:
        validate(content)
    if not overwrite and (where.exists() or where.is_symlink()):
        raise _exists(where)
    try:
        mode: int | None = target.stat().st_mode & 0o7777
    except OSError:
        mode = None
    temporary: Path | None = None
    try:
        temporary, descriptor = _create_beside(target)
        with os.fdopen(descriptor, "wb") as out:
            out.write(content)
            out.flush()
            os.fsync(out.fileno())
        if temporary.stat().st_size != len(content):
            raise OSError(errno.EIO, "the written file is shorter than its content")
        if mode is not None:
            os.chmod(temporary, mode)
        if overwrite:
            os.replace(temporary, target)
        else:
            _link_new(temporary, target)
            temporary.unlink(missing_ok=True)
        temporary = None
    except FileExistsError:
        raise _exists(where) from None
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        raise FileWriteError(where, reason) from None
    finally:
        if temporary is not None:
            temporary.unlink(missing_ok=True)
    _sync_folder(target.parent)


def _create_beside(path: Path) -> tuple[Path, int]:
    """A new, empty temporary file in ``path``'s folder, and its open descriptor."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            return temporary, os.open(temporary, flags, _NEW_FILE_MODE)
        except FileExistsError:
            continue
    raise OSError(errno.EEXIST, "no free temporary file name")


def _link_new(temporary: Path, path: Path) -> None:
    """Give ``temporary`` the name ``path``, failing if ``path`` exists (`FileExistsError`).

    A hard link makes the check and the rename one step; a file system without hard links
    gets the check, then the rename.
    """
    try:
        os.link(temporary, path)
    except FileExistsError:
        raise
    except OSError:
        if path.exists() or path.is_symlink():
            raise FileExistsError(errno.EEXIST, "exists", str(path)) from None
        os.replace(temporary, path)


def _exists(path: Path) -> FileExistsError:
    return FileExistsError(f"{path}: already exists; pass --force to overwrite it")


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where the system allows opening folders)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
