"""The game journal: every question of the evening with its answer, the table it was asked
on and the camera's picture, and the table each time a figure came to rest.

One SQLite file per table (``journal.sqlite`` beside arbitre.yaml by default), in WAL
mode, every commit synced (``synchronous=FULL``): what was committed survives a kill -9
or a power cut. The live table never waits for it: `Journal` takes entries into a queue
that one writer thread empties, a batch per transaction, a few milliseconds after each
answer. The queue is bounded for pictures: beyond `MAX_PENDING` entries waiting, a
question is kept without its picture (counted in ``dropped_frames``), never dropped.
`RestWatch` looks at the tracks a few times a second and journals the table's scene when
a figure has come to rest (its track ``settled``, at a new place or facing). `JournalReader`
reads a journal back (the HTTP routes, ``arbitre journal``); a file of an older schema
is brought up to date when opened (`open_journal`). The tables are in docs/formats.md.
"""

from __future__ import annotations

import json
import math
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from arbitre.api.live.table import Latest, LiveTable, scene_document
from arbitre.calibration.table import Roster
from arbitre.vision.tracking import Track

SCHEMA_VERSION = 2
"""The layout of the file this arbitre writes (``PRAGMA user_version``); older files are
brought up to it when opened, newer ones refused."""
APPLICATION_ID = 0x61726269
"""``PRAGMA application_id`` of a journal: the bytes ``arbi``."""
FRAME_WIDTH_PX = 1280
"""The journal's pictures are no wider than this by default (``--journal-frame-width``)."""
JPEG_QUALITY = 80
MAX_PENDING = 32
"""Entries waiting for the writer beyond which a question is kept without its picture."""
MAX_WAITING = 1000
"""Entries waiting beyond which a settled state is dropped too (a disk that hangs):
questions are always kept."""
REST_POLL_S = 0.25
"""How often `RestWatch` looks whether a figure came to rest."""
REST_MOVE_MM = 0.5
"""A settled figure this far from where it last came to rest has come to rest anew (the
tracker counts shifts from 1 mm as moves)."""
REST_TURN_DEG = 2.0
"""... or turned this much."""
BUSY_TIMEOUT_MS = 5000
"""How long a reader or the writer waits for the other's lock."""
PAGE_LIMIT = 200
"""The most questions (or settled states: `STATES_LIMIT`) one read lists."""
STATES_LIMIT = 10_000


class JournalError(OSError):
    """A journal file that cannot be opened or read: one line naming the file."""


# --- the file --------------------------------------------------------------------------


def _script(db: sqlite3.Connection, statements: str) -> None:
    """Run SQL statements one by one, within the transaction begun (``executescript``
    would commit it first)."""
    for statement in statements.split(";"):
        if statement.strip():
            db.execute(statement)


def _create_v1(db: sqlite3.Connection) -> None:
    """Schema 1: the questions, their pictures and the settled states."""
    _script(
        db,
        """
        CREATE TABLE frames (
            id INTEGER PRIMARY KEY,
            time REAL NOT NULL,
            camera INTEGER NOT NULL,
            width_px INTEGER NOT NULL,
            height_px INTEGER NOT NULL,
            jpeg BLOB NOT NULL
        );
        CREATE TABLE questions (
            id INTEGER PRIMARY KEY,
            time REAL NOT NULL,
            question TEXT NOT NULL,
            args TEXT NOT NULL,
            extras TEXT NOT NULL,
            status INTEGER NOT NULL,
            answer TEXT NOT NULL,
            scene TEXT NOT NULL,
            frame_id INTEGER REFERENCES frames(id) ON DELETE SET NULL
        );
        CREATE INDEX questions_time ON questions(time);
        CREATE TABLE settled (
            id INTEGER PRIMARY KEY,
            time REAL NOT NULL,
            scene TEXT NOT NULL
        );
        CREATE INDEX settled_time ON settled(time);
        """,
    )


def _v1_to_v2(db: sqlite3.Connection) -> None:
    """Schema 2: the figures each question is about (for ``?figure=``), filled from the
    questions already there, and which figures came to rest in each settled state."""
    _script(
        db,
        """
        CREATE TABLE question_figures (
            question_id INTEGER NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
            figure TEXT NOT NULL,
            PRIMARY KEY (figure, question_id)
        ) WITHOUT ROWID;
        CREATE INDEX question_figures_question ON question_figures(question_id);
        ALTER TABLE settled ADD COLUMN figures TEXT NOT NULL DEFAULT '[]';
        """,
    )
    rows = db.execute("SELECT id, args, scene FROM questions").fetchall()
    for question_id, args, scene in rows:
        named = figures_asked(_loaded(scene, {}), _loaded(args, []))
        db.executemany(
            "INSERT INTO question_figures (question_id, figure) VALUES (?, ?)",
            [(question_id, name) for name in named],
        )


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_create_v1, _v1_to_v2)
"""``MIGRATIONS[k]`` brings a file of schema k to schema k + 1 (0: a new, empty file)."""


def open_journal(path: str | Path, *, create: bool = False) -> sqlite3.Connection:
    """A connection to the journal at ``path``, its schema brought up to `SCHEMA_VERSION`
    (in one transaction: a migration that fails leaves the file as it was).

    ``create``: a missing file is made (in WAL mode); otherwise it is an error. Raises
    `JournalError` (one line naming the file) for a missing file, a file that is no
    SQLite database or no arbitre journal, or one written by a newer arbitre.
    """
    where = Path(path)
    if where.is_dir():
        raise JournalError(f"{where}: a directory, not a journal file")
    if not create and not where.exists():
        raise JournalError(f"{where}: no such journal file")
    mode = "rwc" if create else "rw"
    try:
        db = sqlite3.connect(
            f"{where.resolve().as_uri()}?mode={mode}",
            uri=True,
            isolation_level=None,  # transactions are begun and committed here
            check_same_thread=False,  # opened by one thread, used by the writer's
            timeout=BUSY_TIMEOUT_MS / 1000,
        )
    except sqlite3.Error as error:
        raise JournalError(f"{where}: cannot open the journal ({error})") from None
    try:
        _bring_up_to_date(db, where)
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA synchronous = FULL")  # a commit is on the disk when it returns
    except sqlite3.DatabaseError as error:
        db.close()
        raise JournalError(f"{where}: not an arbitre journal ({error})") from None
    except JournalError:
        db.close()
        raise
    return db


def _bring_up_to_date(db: sqlite3.Connection, where: Path) -> None:
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    application = int(db.execute("PRAGMA application_id").fetchone()[0])
    tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    if application != APPLICATION_ID and (application != 0 or tables or version):
        raise JournalError(f"{where}: an SQLite file, but not an arbitre journal")
    if version > SCHEMA_VERSION:
        raise JournalError(
            f"{where}: a journal of schema {version}, written by a newer arbitre "
            f"(this one reads up to {SCHEMA_VERSION})"
        )
    if version == SCHEMA_VERSION:
        return
    if version == 0:  # a new file: its settings come before any table
        db.execute("PRAGMA auto_vacuum = INCREMENTAL")
        db.execute("PRAGMA journal_mode = WAL")
    db.execute("BEGIN IMMEDIATE")
    try:
        if int(db.execute("PRAGMA user_version").fetchone()[0]) == version:  # not done meanwhile
            for migrate in MIGRATIONS[version:]:
                migrate(db)
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("COMMIT")
    except sqlite3.Error as error:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise JournalError(
            f"{where}: cannot bring the journal from schema {version} to {SCHEMA_VERSION} "
            f"({error}); the file is as it was"
        ) from None


def _loaded(text: str | None, default: Any) -> Any:
    """JSON text read back (``default`` for none or a damaged one)."""
    if text is None:
        return default
    try:
        return json.loads(text)
    except ValueError:
        return default


def _json_text(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def figures_asked(document: Mapping[str, Any], args: Sequence[Any]) -> list[str]:
    """The ids of the scene's figures a question is about: those its arguments name by
    id, group, unit or side; every figure for a question that names none (``groups``).

    >>> scene = {"figures": [{"id": "a1", "group": "A", "side": "blue"},
    ...                      {"id": "b1", "group": "B", "side": "red"}]}
    >>> figures_asked(scene, ["A", "250", "300"]), figures_asked(scene, [])
    (['a1'], ['a1', 'b1'])
    """
    names = {str(arg) for arg in args}
    figures = [f for f in document.get("figures", []) if isinstance(f, Mapping) and "id" in f]
    named = [
        str(f["id"])
        for f in figures
        if names & {str(f.get(key)) for key in ("id", "group", "unit", "side") if key in f}
    ]
    return sorted(set(named or [str(f["id"]) for f in figures]))


def used_bytes(db: sqlite3.Connection) -> int:
    """The bytes the journal's data take in its file (pages in use, free ones left out)."""
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    free = db.execute("PRAGMA freelist_count").fetchone()[0]
    return int((pages - free) * page_size)


def prune(
    db: sqlite3.Connection, *, before: float | None = None, max_bytes: int | None = None
) -> int:
    """Delete what was journaled before the time ``before`` (seconds since 1970), then the
    oldest entries (a twentieth at a time, their pictures with them) while the data take
    more than ``max_bytes``; the file then gives the freed pages back to the disk. The
    count of questions and settled states deleted."""
    deleted = 0
    db.execute("BEGIN IMMEDIATE")
    try:
        if before is not None:
            deleted += _delete_up_to(db, before, inclusive=False)
        while max_bytes is not None and used_bytes(db) > max_bytes:
            times = db.execute(
                "SELECT time FROM questions UNION ALL SELECT time FROM settled ORDER BY time"
            ).fetchall()
            if not times:
                frames = db.execute("DELETE FROM frames").rowcount
                if not frames:
                    break
                continue
            cut = times[max(len(times) // 20, 1) - 1][0]
            deleted += _delete_up_to(db, cut, inclusive=True)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    db.execute("PRAGMA incremental_vacuum").fetchall()  # one page a step: every step
    return deleted


def _delete_up_to(db: sqlite3.Connection, cut: float, *, inclusive: bool) -> int:
    """Delete the entries of time before ``cut`` (or at it), and pictures no longer shown."""
    sign = "<=" if inclusive else "<"
    deleted = db.execute(f"DELETE FROM questions WHERE time {sign} ?", (cut,)).rowcount
    deleted += db.execute(f"DELETE FROM settled WHERE time {sign} ?", (cut,)).rowcount
    db.execute(
        f"DELETE FROM frames WHERE time {sign} ? AND id NOT IN "
        "(SELECT frame_id FROM questions WHERE frame_id IS NOT NULL)",
        (cut,),
    )
    return int(deleted)


# --- what is journaled -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Picture:
    """A camera's picture as the journal keeps it: JPEG, no wider than it was told."""

    jpeg: bytes
    width_px: int
    height_px: int
    camera: int = 0
    time: float = 0.0


@dataclass(frozen=True, slots=True)
class Asked:
    """A question asked of the live table, with its answer (``answer``: the JSON the API
    gave, or its refusal's ``{"detail": ...}`` with ``status`` 422) and the scene it was
    answered on (``scene``: the data of a scene.yaml)."""

    time: float
    question: str
    args: tuple[str, ...]
    extras: Mapping[str, Any]
    status: int
    answer: str
    scene: Mapping[str, Any]
    picture: Picture | None = None


@dataclass(frozen=True, slots=True)
class Rested:
    """The table once figures came to rest: their ids and the table's scene."""

    time: float
    figures: tuple[str, ...]
    scene: Mapping[str, Any]


Entry = Asked | Rested


class Journal:
    """The journal being written: a queue of entries and the thread that writes them.

    The file is opened (made or brought up to date) at once, so a bad path fails before
    the server starts. ``frame_width_px`` bounds the pictures' width (0: no pictures);
    ``keep_days`` deletes, as the journal opens, what is older; ``max_bytes`` deletes the
    oldest entries whenever the data grow past it.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        frame_width_px: int = FRAME_WIDTH_PX,
        jpeg_quality: int = JPEG_QUALITY,
        keep_days: float | None = None,
        max_bytes: int | None = None,
        max_pending: int = MAX_PENDING,
        wall: Callable[[], float] = time.time,
    ) -> None:
        if frame_width_px < 0 or max_pending < 0:
            raise ValueError(f"need a frame width and max_pending >= 0, got {frame_width_px}")
        self.path = Path(path)
        self.frame_width_px = frame_width_px
        self.jpeg_quality = jpeg_quality
        self.max_bytes = max_bytes
        self.max_pending = max_pending
        self.wall = wall
        self._db = open_journal(self.path, create=True)
        if keep_days is not None or max_bytes is not None:
            before = None if keep_days is None else wall() - keep_days * 86400.0
            prune(self._db, before=before, max_bytes=max_bytes)
        self._counts = _counts(self._db)
        self._used_bytes = used_bytes(self._db)
        self._changed = threading.Condition()
        self._pending: list[Entry] = []
        self._taken = 0  # entries taken into the queue
        self._done = 0  # entries written (or failed)
        self._closing = False
        self._thread: threading.Thread | None = None
        self._last_frame: tuple[Picture, int] | None = None  # (picture, its row) last written
        self._pictures: Latest[Picture | None] = Latest()
        self.dropped_frames = 0
        """Questions kept without their picture: the writer was behind."""
        self.dropped_states = 0
        """Settled states not kept: the writer was far behind."""
        self.failed = 0
        """Entries the file refused (a full disk): the last reason in ``last_error``."""
        self.last_error: str | None = None
        self._work_lock = threading.Lock()
        self._work_s = 0.0

    @property
    def work_s(self) -> float:
        """The processor time spent on the journal's work so far (`working`), seconds."""
        with self._work_lock:
            return self._work_s

    @contextmanager
    def working(self) -> Iterator[None]:
        """Count the processor time this thread spends in the block as the journal's work
        (`stats`' ``work_s``): what the journal takes from the camera, whatever the load
        of the rest of the machine."""
        start = time.thread_time()
        try:
            yield
        finally:
            spent = time.thread_time() - start
            with self._work_lock:
                self._work_s += spent

    # --- taking entries ----------------------------------------------------------------

    def picture(self, live: LiveTable, camera: int = 0) -> Picture | None:
        """The camera's newest frame as the journal keeps it (made once a frame, however
        many questions are asked on it); None without pictures or before any frame."""
        if not self.frame_width_px:
            return None
        loop = live.cameras[camera]
        key = (id(live), camera, loop.frame_number)
        return self._pictures.get(key, lambda: self._encoded(live, camera))

    def _encoded(self, live: LiveTable, camera: int) -> Picture | None:
        with self.working():
            jpeg = live.jpeg(
                overlays=False,
                quality=self.jpeg_quality,
                camera=camera,
                max_width=self.frame_width_px,
            )
        if jpeg is None:
            return None
        width, height = live.config.cameras[camera].image_size
        shown = min(width, self.frame_width_px)
        return Picture(jpeg, shown, round(height * shown / width), camera, self.wall())

    def add(self, entry: Entry) -> None:
        """Queue an entry for the writer; never waits. Beyond `max_pending` entries waiting
        a question loses its picture, beyond `MAX_WAITING` a settled state is dropped."""
        with self._changed:
            if self._closing:
                return
            waiting = len(self._pending)
            if isinstance(entry, Rested) and waiting >= max(MAX_WAITING, self.max_pending):
                self.dropped_states += 1
                return
            if isinstance(entry, Asked) and entry.picture is not None:
                if waiting >= self.max_pending:
                    self.dropped_frames += 1
                    entry = replace(entry, picture=None)
            self._pending.append(entry)
            self._taken += 1
            self._changed.notify_all()

    def flush(self, timeout_s: float = 10.0) -> bool:
        """Wait until every entry queued so far is written; False if ``timeout_s`` passed."""
        with self._changed:
            wanted = self._taken
            if self._thread is None:  # not started: written here
                batch, self._pending = self._pending, []
                with self.working():
                    self._write(batch)
                self._done += len(batch)
                return True
            return self._changed.wait_for(lambda: self._done >= wanted, timeout_s)

    # --- the writer --------------------------------------------------------------------

    def start(self) -> None:
        """Start the writer thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="journal", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Write what is queued, stop the writer and close the file."""
        with self._changed:
            self._closing = True
            self._changed.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=30)
            self._thread = None
        else:
            self.flush()
        self._db.close()

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: bool(self._pending) or self._closing)
                batch, self._pending = self._pending, []
                closing = self._closing
            if batch:
                with self.working():
                    self._write(batch)
            with self._changed:
                self._done += len(batch)
                self._changed.notify_all()
            if closing and not batch:
                return

    def _write(self, batch: Sequence[Entry]) -> None:
        """Write a batch in one transaction (synced to disk when committed)."""
        if not batch:
            return
        counts = dict(self._counts)
        last_frame = self._last_frame
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for entry in batch:
                    if isinstance(entry, Asked):
                        last_frame = self._write_question(entry, last_frame, counts)
                    else:
                        self._db.execute(
                            "INSERT INTO settled (time, scene, figures) VALUES (?, ?, ?)",
                            (entry.time, _json_text(entry.scene), _json_text(entry.figures)),
                        )
                        counts["settled"] += 1
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
            self._counts, self._last_frame = counts, last_frame
            if self.max_bytes is not None and used_bytes(self._db) > self.max_bytes:
                prune(self._db, max_bytes=self.max_bytes)
                self._counts = _counts(self._db)
                self._last_frame = None
            self._used_bytes = used_bytes(self._db)
        except (sqlite3.Error, ValueError) as error:  # a full disk, a file gone read-only
            self.failed += len(batch)
            self.last_error = str(error)
            self._last_frame = None

    def _write_question(
        self, entry: Asked, last_frame: tuple[Picture, int] | None, counts: dict[str, int]
    ) -> tuple[Picture, int] | None:
        frame_id: int | None = None
        if entry.picture is not None:
            if last_frame is not None and last_frame[0] is entry.picture:
                frame_id = last_frame[1]  # asked on the same picture as the last question
            else:
                picture = entry.picture
                cursor = self._db.execute(
                    "INSERT INTO frames (time, camera, width_px, height_px, jpeg) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (
                        picture.time,
                        picture.camera,
                        picture.width_px,
                        picture.height_px,
                        picture.jpeg,
                    ),
                )
                frame_id = int(cursor.lastrowid or 0)
                last_frame = (picture, frame_id)
                counts["frames"] += 1
        cursor = self._db.execute(
            "INSERT INTO questions (time, question, args, extras, status, answer, scene, "
            "frame_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                entry.time,
                entry.question,
                _json_text(list(entry.args)),
                _json_text(dict(entry.extras)),
                entry.status,
                entry.answer,
                _json_text(entry.scene),
                frame_id,
            ),
        )
        question_id = cursor.lastrowid
        self._db.executemany(
            "INSERT INTO question_figures (question_id, figure) VALUES (?, ?)",
            [(question_id, name) for name in figures_asked(entry.scene, entry.args)],
        )
        counts["questions"] += 1
        return last_frame

    def stats(self) -> dict[str, Any]:
        """What the journal holds and how its writing goes (no file read: counted as
        written)."""
        with self._changed:
            pending = len(self._pending)
        return {
            "file": self.path.name,
            "size_bytes": _file_bytes(self.path),
            "data_bytes": self._used_bytes,
            **self._counts,
            "pending": pending,
            "dropped_frames": self.dropped_frames,
            "dropped_states": self.dropped_states,
            "failed": self.failed,
            "last_error": self.last_error,
            "work_s": self.work_s,
        }


def _counts(db: sqlite3.Connection) -> dict[str, int]:
    return {
        table: int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
        for table in ("questions", "settled", "frames")
    }


def _file_bytes(path: Path) -> int:
    """The journal's size on disk: the file and its write-ahead log."""
    total = 0
    for part in (path, path.with_name(path.name + "-wal")):
        try:
            total += part.stat().st_size
        except OSError:
            pass
    return total


# --- figures at rest -------------------------------------------------------------------


Rest = tuple[float, float, float]
"""Where a figure last came to rest: x_mm, y_mm, heading_deg."""


def came_to_rest(tracks: Sequence[Track], rested: Mapping[int, Rest]) -> list[int]:
    """The markers that have come to rest since ``rested`` (where each marker last came to
    rest): seen and settled, and never at rest before, or `REST_MOVE_MM` from where it
    last was, or turned `REST_TURN_DEG`.

    >>> still = Track(10, 100.0, 50.0, 0.1, 90.0, False, 0.0, True, 1.0, 5.0)
    >>> came_to_rest([still], {}), came_to_rest([still], {10: (100.2, 50.0, 90.5)})
    ([10], [])
    >>> moving = Track(11, 300.0, 50.0, 0.1, 90.0, False, 0.0, False, 0.1, 5.0)
    >>> came_to_rest([moving, still], {10: (99.0, 50.0, 90.0)})
    [10]
    """
    markers = []
    for track in tracks:
        if track.stale or not track.settled:
            continue
        before = rested.get(track.marker)
        if before is None:
            markers.append(track.marker)
            continue
        x_mm, y_mm, heading_deg = before
        turned = abs((track.heading_deg - heading_deg + 180.0) % 360.0 - 180.0)
        if math.hypot(track.x_mm - x_mm, track.y_mm - y_mm) >= REST_MOVE_MM or (
            turned >= REST_TURN_DEG
        ):
            markers.append(track.marker)
    return markers


def name_of(marker: int, roster: Roster) -> str:
    """The id a marker goes by: its figure's or terrain piece's, else ``marker17``."""
    figure = roster.by_marker(marker)
    if figure is not None:
        return figure.id
    piece = roster.terrain_by_marker(marker)
    return piece.id if piece is not None else f"marker{marker}"


class RestWatch:
    """Journals the live table's scene each time a figure comes to rest (`came_to_rest`),
    looking every ``every_s`` in a thread of its own."""

    def __init__(self, live: LiveTable, journal: Journal, *, every_s: float = REST_POLL_S) -> None:
        self.live = live
        self.journal = journal
        self.every_s = every_s
        self._rested: dict[int, Rest] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def check(self) -> Rested | None:
        """Look once: the settled state journaled, if a figure came to rest."""
        with self.journal.working():
            return self._check()

    def _check(self) -> Rested | None:
        fused = self.live.fused()
        markers = came_to_rest(fused.tracks, self._rested)
        if not markers:
            return None
        for track in fused.tracks:
            if track.settled and not track.stale:
                self._rested[track.marker] = (track.x_mm, track.y_mm, track.heading_deg)
        roster = self.live.config.roster
        entry = Rested(
            self.journal.wall(),
            tuple(name_of(marker, roster) for marker in markers),
            scene_document(self.live.config, fused.tracks, fused.shared_errors),
        )
        self.journal.add(entry)
        return entry

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="journal-rest", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            try:
                self.check()
            except Exception as error:  # a rest missed must never stop the watch
                self.journal.last_error = f"rest watch: {error}"


# --- reading it back -------------------------------------------------------------------


def _when(seconds: float) -> str:
    """A journal time as local ISO 8601 text, to the second, with its offset."""
    import datetime

    moment = datetime.datetime.fromtimestamp(seconds).astimezone()
    return moment.isoformat(timespec="seconds")


class JournalReader:
    """A journal file read back: its questions, pictures and settled states.

    Opening brings a file of an older schema up to date (`open_journal`); every read is
    one query. Use it as a context manager, or `close` it.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._db = open_journal(self.path)
        self._db.row_factory = sqlite3.Row

    def __enter__(self) -> JournalReader:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def _rows(self, sql: str, parameters: Sequence[Any] = ()) -> list[sqlite3.Row]:
        try:
            return self._db.execute(sql, tuple(parameters)).fetchall()
        except sqlite3.Error as error:
            raise JournalError(f"{self.path}: cannot read the journal ({error})") from None

    def stats(self) -> dict[str, Any]:
        """How many questions, settled states and pictures the journal holds, its size,
        and the time of its first and last entry (None when empty)."""
        (row,) = self._rows(
            "SELECT (SELECT count(*) FROM questions) AS questions, "
            "(SELECT count(*) FROM settled) AS settled, (SELECT count(*) FROM frames) AS frames, "
            "(SELECT min(time) FROM (SELECT time FROM questions UNION ALL "
            "SELECT time FROM settled)) AS first, "
            "(SELECT max(time) FROM (SELECT time FROM questions UNION ALL "
            "SELECT time FROM settled)) AS last"
        )
        return {
            "file": self.path.name,
            "size_bytes": _file_bytes(self.path),
            "data_bytes": used_bytes(self._db),
            "questions": row["questions"],
            "settled": row["settled"],
            "frames": row["frames"],
            "first": row["first"],
            "last": row["last"],
        }

    def questions(
        self, *, before: int | None = None, limit: int = 50, figure: str | None = None
    ) -> list[dict[str, Any]]:
        """The questions newest first (of id below ``before``, about ``figure``), at most
        ``limit``: each's id, time, question, arguments, status, message, the figures it is
        about and whether it has a picture."""
        join = "JOIN question_figures f ON f.question_id = q.id AND f.figure = ?" if figure else ""
        parameters: list[Any] = [figure] if figure else []
        where = ""
        if before is not None:
            where = "WHERE q.id < ?"
            parameters.append(before)
        rows = self._rows(
            f"SELECT q.id, q.time, q.question, q.args, q.extras, q.status, q.frame_id, "
            f"json_extract(q.answer, '$.message') AS message, "
            f"json_extract(q.answer, '$.detail') AS detail, "
            f"{_FIGURES} AS figures "
            f"FROM questions q {join} {where} ORDER BY q.id DESC LIMIT ?",
            [*parameters, max(0, min(limit, PAGE_LIMIT))],
        )
        return [self._summary(row) for row in rows]

    def all_questions(self) -> Iterator[dict[str, Any]]:
        """Every question oldest first, whole (answer and scene), for an export."""
        last = 0
        while True:
            rows = self._rows(
                f"SELECT {_QUESTION_COLUMNS} FROM questions q WHERE q.id > ? "
                "ORDER BY q.id LIMIT 200",
                [last],
            )
            if not rows:
                return
            for row in rows:
                yield self._whole(row)
            last = rows[-1]["id"]

    @staticmethod
    def _summary(row: sqlite3.Row) -> dict[str, Any]:
        return {
            "id": row["id"],
            "time": row["time"],
            "at": _when(row["time"]),
            "question": row["question"],
            "args": _loaded(row["args"], []),
            "extras": _loaded(row["extras"], {}),
            "status": row["status"],
            "message": row["message"] if row["message"] is not None else row["detail"],
            "figures": _loaded(row["figures"], []),
            "frame": row["frame_id"] is not None,
        }

    def question(self, question_id: int) -> dict[str, Any] | None:
        """A question whole: its summary, the answer and the scene it was asked on (None
        for an id the journal does not hold)."""
        rows = self._rows(
            f"SELECT {_QUESTION_COLUMNS} FROM questions q WHERE q.id = ?", [question_id]
        )
        return self._whole(rows[0]) if rows else None

    def _whole(self, row: sqlite3.Row) -> dict[str, Any]:
        answer = _loaded(row["answer"], {})
        return {
            **self._summary(row),
            "answer": answer,
            "scene": _loaded(row["scene"], {}),
        }

    def frame(self, question_id: int) -> bytes | None:
        """The JPEG picture a question was asked on (None: no such question or picture)."""
        rows = self._rows(
            "SELECT f.jpeg FROM questions q JOIN frames f ON f.id = q.frame_id WHERE q.id = ?",
            [question_id],
        )
        return bytes(rows[0]["jpeg"]) if rows else None

    def states(
        self, *, after: int | None = None, limit: int = STATES_LIMIT
    ) -> list[dict[str, Any]]:
        """The settled states oldest first (of id above ``after``), at most ``limit``:
        each's id, time and the figures that came to rest."""
        rows = self._rows(
            "SELECT id, time, figures FROM settled WHERE id > ? ORDER BY id LIMIT ?",
            [after or 0, max(0, min(limit, STATES_LIMIT))],
        )
        return [self._rested(row) for row in rows]

    @staticmethod
    def _rested(row: sqlite3.Row) -> dict[str, Any]:
        return {
            "id": row["id"],
            "time": row["time"],
            "at": _when(row["time"]),
            "figures": _loaded(row["figures"], []),
        }

    def state(self, state_id: int) -> dict[str, Any] | None:
        """A settled state whole, with its scene (None for an id the journal lacks)."""
        rows = self._rows("SELECT id, time, figures, scene FROM settled WHERE id = ?", [state_id])
        return {**self._rested(rows[0]), "scene": _loaded(rows[0]["scene"], {})} if rows else None

    def scene_at(self, moment: float) -> dict[str, Any] | None:
        """The table as the journal last knew it at ``moment`` (seconds since 1970): the
        newest settled state or question's scene at or before it, as
        ``{"kind": "settled" or "question", "id", "time", "at", "scene"}``; None when the
        journal holds nothing that early."""
        rows = self._rows(
            "SELECT 'settled' AS kind, id, time, scene FROM "
            "(SELECT id, time, scene FROM settled WHERE time <= ? ORDER BY time DESC LIMIT 1) "
            "UNION ALL SELECT 'question', id, time, scene FROM "
            "(SELECT id, time, scene FROM questions WHERE time <= ? ORDER BY time DESC LIMIT 1) "
            "ORDER BY time DESC LIMIT 1",
            [moment, moment],
        )
        if not rows:
            return None
        row = rows[0]
        return {
            "kind": row["kind"],
            "id": row["id"],
            "time": row["time"],
            "at": _when(row["time"]),
            "scene": _loaded(row["scene"], {}),
        }


_FIGURES = (
    "(SELECT json_group_array(figure) FROM (SELECT figure FROM question_figures g "
    "WHERE g.question_id = q.id ORDER BY figure))"
)
"""The figures a question is about, as a JSON list in their order."""
_QUESTION_COLUMNS = (
    "q.id, q.time, q.question, q.args, q.extras, q.status, q.frame_id, q.answer, q.scene, "
    "json_extract(q.answer, '$.message') AS message, "
    "json_extract(q.answer, '$.detail') AS detail, "
    f"{_FIGURES} AS figures"
)
