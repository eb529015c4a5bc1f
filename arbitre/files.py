"""Files written whole or not at all, and input files read within bounds.

Every file arbitre writes (camera.yaml, table.yaml, a scene snapshot, a printed sheet,
arbitre.yaml) goes through `write_atomically`: a reader, or the user after a crash or a
full disk, sees the old file or the new one, never half of one. What is written can be
checked first (parsed back by its own reader), so a file is never replaced by something
its reader refuses.

Every file arbitre reads (an image, camera.yaml, table.yaml, roster.yaml, board.yaml,
arbitre.yaml) goes through `read_bounded`: only a regular file is read, and only up to a
bound, so a device (``/dev/zero``), a FIFO or a huge file is refused at once instead of
hanging. A YAML file is parsed by `load_yaml`, which refuses aliases, deep nesting and
too many values, each in one line.

This module sits below the four parts of the package and imports none of them.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

_NEW_FILE_MODE = 0o666  # less the process's umask, as for any new file


class FileWriteError(OSError):
    """A file that could not be written; the message names it and says why, in one line:
    ``scene.yaml: cannot write the file (No space left on device)``."""

    def __init__(self, path: str | Path, reason: str) -> None:
        super().__init__(f"{path}: cannot write the file ({reason})")
        self.path = str(path)
        self.reason = reason


class FileReadError(OSError):
    """An input file that cannot be read; the message names it and says why, in one line:
    ``roster.yaml: not a regular file: a device, a pipe or a socket``.

    ``reason`` is the part after the name; ``missing`` and ``folder`` say the file is not
    there or is a folder, for readers that word those cases their own way.
    """

    def __init__(
        self, path: str | Path, reason: str, *, missing: bool = False, folder: bool = False
    ) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason
        self.missing = missing
        self.folder = folder


def read_bounded(path: str | Path, limit: int) -> bytes:
    """The bytes of the regular file ``path``, refusing anything else at once.

    A folder, a device (``/dev/zero``, ``/dev/urandom``), a FIFO or a socket is refused
    without a byte read: the file is opened without waiting (``O_NONBLOCK``, so opening a
    FIFO never blocks) and checked to be a regular file before it is read. A file of more
    than ``limit`` bytes, or one that grows past it while read, is refused too.

    Raises
    ------
    FileReadError
        One line naming the file: ``table.yaml: not a regular file: a device, a pipe or
        a socket``.
    """
    where = str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(where, flags)
    except IsADirectoryError:
        raise FileReadError(where, "a directory, not a file", folder=True) from None
    except FileNotFoundError as error:
        reason = error.strerror or "no such file"
        raise FileReadError(where, reason, missing=True) from None
    except OSError as error:
        raise FileReadError(where, error.strerror or str(error)) from None
    try:
        status = os.fstat(descriptor)
        if stat.S_ISDIR(status.st_mode):
            raise FileReadError(where, "a directory, not a file", folder=True)
        if not stat.S_ISREG(status.st_mode):
            raise FileReadError(where, "not a regular file: a device, a pipe or a socket")
        if status.st_size > limit:
            raise FileReadError(where, f"{status.st_size:,} bytes, more than {limit:,}")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(descriptor, min(limit + 1 - size, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise FileReadError(where, f"more than {limit:,} bytes")
        return b"".join(chunks)
    except FileReadError:
        raise
    except OSError as error:
        raise FileReadError(where, error.strerror or str(error)) from None
    finally:
        os.close(descriptor)


MAX_YAML_BYTES = 10_000_000
"""The largest YAML file `read_yaml` reads (a roster of 1,000 figures is about 150 kB)."""

MAX_YAML_NESTING = 40
"""The deepest nesting of lists and mappings `load_yaml` reads (the files need about 6)."""

MAX_YAML_VALUES = 150_000
"""The most values (numbers, texts, lists and mappings) `load_yaml` reads: about 2 s."""


def beyond_bounds(data: Any, *, depth: int = 0) -> str | None:
    """Why plain data (mappings, lists, scalars) would not be read back by `load_yaml`
    once written, counting as it counts: every mapping, list, key and scalar is a value,
    and ``data`` lies ``depth`` levels deep in its file. None when it would be read.

    It stops at the first bound passed: a huge or deep structure is refused in the time
    it takes to count to the bound, before any of it is written.

    >>> beyond_bounds({"a": [1, 2]}), beyond_bounds([[[0]]], depth=MAX_YAML_NESTING - 2)
    (None, 'nested deeper than 40 levels')
    """
    values = 0
    stack = [(data, depth)]
    while stack:
        node, level = stack.pop()
        values += 1
        if values > MAX_YAML_VALUES:
            return f"more than {MAX_YAML_VALUES:,} values"
        if level >= MAX_YAML_NESTING:
            return f"nested deeper than {MAX_YAML_NESTING} levels"
        if isinstance(node, dict):
            for key, value in node.items():
                stack.append((key, level + 1))
                stack.append((value, level + 1))
        elif isinstance(node, list | tuple):
            stack.extend((item, level + 1) for item in node)
    return None


class _PythonSyntax(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):
    """PyYAML's own reader, scanner and parser, in Python, placed before libyaml's in a
    loader's lineage (see `in_python`). A loader that defines its own ``__init__`` is not
    read this way: this one is called instead."""

    def __init__(self, stream: str | bytes) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        loader: Any = self  # also the composer, constructor and resolver of a loader
        yaml.composer.Composer.__init__(loader)
        yaml.constructor.SafeConstructor.__init__(loader)
        yaml.resolver.Resolver.__init__(loader)


_WITH_LIBYAML = hasattr(yaml, "CSafeLoader")

LIBYAML = _WITH_LIBYAML
"""Whether `load_yaml` scans and parses with libyaml (about ten times faster than PyYAML's
Python parser, which it uses when PyYAML was built without libyaml, or when this is False).
Both read the same data and refuse the same files in the same words."""

if _WITH_LIBYAML:

    class _Reading(yaml.composer.Composer, yaml.CSafeLoader):
        """libyaml scans and parses the text; PyYAML's composer, in Python, makes the nodes,
        so that `BoundedLoader` sees each."""

        def __init__(self, stream: str | bytes) -> None:
            yaml.CSafeLoader.__init__(self, stream)
            yaml.composer.Composer.__init__(self)

else:  # a PyYAML built without libyaml
    _Reading = yaml.SafeLoader  # type: ignore[misc,assignment]


class BoundedLoader(_Reading):
    """A safe YAML loader without aliases (which can multiply a small file a billion
    times), with a bounded nesting (which could exhaust the stack) and a bounded number of
    values (which could take minutes to read). Subclass it to add constructors."""

    _values = 0
    _depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            raise self._refusal("aliases (*name) are not read")
        self._values += 1
        if self._values > MAX_YAML_VALUES:
            raise self._refusal(f"more than {MAX_YAML_VALUES:,} values")
        depth = self._depth
        if depth >= MAX_YAML_NESTING:
            raise self._refusal(f"nested deeper than {MAX_YAML_NESTING} levels")
        self._depth = depth + 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth = depth

    def _refusal(self, problem: str) -> yaml.YAMLError:
        """An error at the event about to be read (its line is reported)."""
        mark = getattr(self.peek_event(), "start_mark", None)
        return yaml.composer.ComposerError(None, None, problem, mark)


def in_python(loader: type[BoundedLoader]) -> type[BoundedLoader]:
    """``loader`` with PyYAML's Python scanner and parser instead of libyaml's: the same
    constructors, resolvers and bounds, read by the other backend."""
    if not _WITH_LIBYAML or issubclass(loader, _PythonSyntax):
        return loader  # already read in Python
    if loader not in _IN_PYTHON:
        _IN_PYTHON[loader] = type(f"{loader.__name__}InPython", (_PythonSyntax, loader), {})
    return _IN_PYTHON[loader]


_IN_PYTHON: dict[type[BoundedLoader], type[BoundedLoader]] = {}


def load_yaml(text: str, loader: type[BoundedLoader] = BoundedLoader) -> Any:
    """The data of YAML text, read by ``loader`` (a `BoundedLoader`).

    Raises `yaml.YAMLError` for text that is not valid YAML or goes past a bound: its
    ``problem`` says what, its ``problem_mark`` where. Text the loader cannot take (a lone
    surrogate) is a `yaml.YAMLError` too. libyaml and PyYAML's Python parser give the same
    data, and refuse a file nested too deep in the same words at the same place.

    Notes
    -----
    libyaml's scanner reads ahead of the parser, by a line or 1,024 characters and sometimes
    further, and the libyaml of PyYAML 6.0.4 and newer stops where the nesting passes its own
    limit (1,000 levels): looking ahead, it can get there before the composer has counted to
    `MAX_YAML_NESTING`. The text before that place is then read again, by libyaml, and what
    stops it is what stops the whole text: the composer's refusal (nested deeper than 40
    levels, at the 41st level) or an error before that place. A text cut inside a key (a
    key over 1,000 levels deep, longer than YAML allows) is refused as nested too deep at
    libyaml's place; PyYAML's parser says where the key grew past 1,024 characters. No text
    is read twice in Python: a 10 MB file is refused as quickly as libyaml reads it.
    """
    if not LIBYAML:
        return _load(text, in_python(loader))
    try:
        return _load(text, loader)
    except yaml.YAMLError as error:
        if "maximum nesting depth" not in str(getattr(error, "problem", "")):
            raise
        end = error.problem_mark.index  # type: ignore[attr-defined]  # a MarkedYAMLError
        too_deep = error
    try:
        _load(text[:end], loader)
    except yaml.composer.ComposerError as refusal:  # the composer's, before that place
        raise refusal from None
    except yaml.YAMLError as first:
        mark = getattr(first, "problem_mark", None)
        if mark is not None and mark.index < end:  # an error before that place
            raise first from None
    # The text before that place ends inside a key: libyaml's place, in arbitre's words.
    too_deep.problem = f"nested deeper than {MAX_YAML_NESTING} levels"  # type: ignore[attr-defined]
    too_deep.context = too_deep.context_mark = None  # type: ignore[attr-defined]
    raise too_deep


def _load(text: str, loader: type[BoundedLoader]) -> Any:
    try:
        return yaml.load(text, Loader=loader)  # a safe loader: no objects built
    except UnicodeEncodeError:  # a lone surrogate (libyaml reads UTF-8 bytes)
        raise _problem("special characters are not allowed") from None
    except RecursionError:  # never with a bounded nesting; a last guard
        raise _problem("nested too deeply") from None


def _problem(problem: str) -> yaml.YAMLError:
    return yaml.error.MarkedYAMLError(problem=problem)


def refuse_overwrite(path: str | Path, *, force: bool) -> None:
    """Refuse to replace an existing file unless ``force``.

    Raises `FileExistsError` with one line naming the file and the command-line option
    that allows it: ``table.yaml: already exists; pass --force to overwrite it``.
    """
    where = Path(path)
    if where.is_dir():  # not even --force replaces a folder by a file
        raise IsADirectoryError(f"{where}: a directory; give a file name")
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
