"""Where questions wait their turn: a few workers, a short queue, "busy" beyond it.

Questions are answered off the event loop and off the camera's thread, by at most
``workers`` workers at once; up to ``waiting`` more wait for a worker. One more is
refused at once (`Busy`: the route answers 503 with ``Retry-After``), so a crowd of
questions cannot starve the camera loop nor queue up answers nobody will wait for.
A question still unanswered after ``time_limit_s`` is given up (`TooLong`): a worker
process is stopped and another started, so one costly question (a scene crowded with
hundreds of obstacles, say) cannot hold the desk for minutes.

The workers are threads, or (``processes=True``, what ``arbitre serve`` uses)
processes of their own: rules questions are mostly Python, which holds the
interpreter's lock, and a thread answering them slows the camera's thread down; a
process runs beside it on another core. A worker process yields to the camera: it runs
at a lower priority, and under a flood of questions it rests as long as each question
took before the next, so the camera keeps its share of a small machine; it ends by
itself if the server is killed outright. A process is
given the scene as plain data (`answer_scene`), keeps the last one it parsed (a still
table is parsed once) and writes the answer's JSON itself.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from arbitre.api.limits import QUESTION_MEMORY_BYTES, cap_memory, too_costly
from arbitre.rules.errors import RulesError, error_fields, stopped_after
from arbitre.rules.model import Scene
from arbitre.rules.questions import ask
from arbitre.rules.registry import find_ruleset
from arbitre.rules.scene import SceneReader

T = TypeVar("T")

WORKERS = 1
WAITING = 8
RETRY_AFTER_S = 1
TIME_LIMIT_S = 10.0
LOAD_LIMIT_S = 120.0
"""How long a question waits for its worker to load (the path search compiled afresh, on
a first start, takes ~10 s on a slow machine) before its own time limit starts."""


class Busy(Exception):
    """Every worker is answering and the queue is full."""


class TooLong(Exception):
    """A question took longer than the desk's time limit and was given up."""

    def __init__(self, limit_s: float) -> None:
        super().__init__(stopped_after(limit_s))
        self.limit_s = limit_s


class QuestionDesk:
    """Runs questions on its workers; ``workers`` answer at once, ``waiting`` queue."""

    def __init__(
        self,
        workers: int = WORKERS,
        waiting: int = WAITING,
        *,
        processes: bool = False,
        time_limit_s: float = TIME_LIMIT_S,
    ) -> None:
        if workers < 1 or waiting < 0 or not time_limit_s > 0:
            raise ValueError(
                f"need workers >= 1, waiting >= 0 and a time limit > 0, "
                f"got {workers}, {waiting}, {time_limit_s}"
            )
        self.workers = workers
        self.capacity = workers + waiting
        self.processes = processes
        self.time_limit_s = time_limit_s
        self._executor: Executor | None = None
        self._load: Callable[[], object] | None = None
        self._ready: Future[object] | None = None  # the workers' loading, while it runs
        self._lock = threading.Lock()
        self._taken = 0

    @property
    def taken(self) -> int:
        """Questions being answered or waiting."""
        with self._lock:
            return self._taken

    def _pool(self) -> Executor:
        with self._lock:
            if self._executor is None:
                if self.processes:
                    # forkserver: a clean process, not a copy of this threaded one.
                    context = multiprocessing.get_context("forkserver")
                    self._executor = ProcessPoolExecutor(
                        self.workers,
                        mp_context=context,
                        initializer=_start_worker,
                        initargs=(os.getpid(), self._load),
                    )
                    if self._load is not None:  # a worker starts (and loads) at once
                        self._ready = self._executor.submit(_nothing)
                else:
                    self._executor = ThreadPoolExecutor(self.workers, "question")
            return self._executor

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` computed on a worker (picklable, for processes); `Busy` when
        the desk is full, `TooLong` past the time limit.

        A question holds its place until its worker is done with it: a thread cannot be
        stopped, so one given up still counts until it ends; a process is stopped.
        """
        with self._lock:
            if self._taken >= self.capacity:
                raise Busy
            self._taken += 1
        pool = self._pool()
        await self._loaded()
        try:
            future = (
                pool.submit(_in_turn, _clock(), work, *args)
                if self.processes
                else pool.submit(work, *args)
            )
        except BaseException:  # a pool shut down or broken meanwhile
            self._release()
            self._forget(pool)
            raise Busy from None
        future.add_done_callback(self._release)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), self.time_limit_s)
        except TimeoutError:
            if self.processes:
                self._stop(pool)
            raise TooLong(self.time_limit_s) from None
        except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh
            self._forget(pool)
            raise Busy from None
        except asyncio.CancelledError:
            if future.cancelled():  # its pool was stopped (another question was given up)
                raise Busy from None
            raise  # the request itself was cancelled: the client left

    async def _loaded(self) -> None:
        """Wait (up to `LOAD_LIMIT_S`) for the workers to load what questions need: a
        question's time limit counts its own work, not a worker's start."""
        with self._lock:
            ready = self._ready
        if ready is None or ready.done():
            return
        try:
            await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(ready)), LOAD_LIMIT_S)
        except Exception:  # a failed or slow load: the question tries all the same
            pass

    def _release(self, _done: object = None) -> None:
        with self._lock:
            self._taken -= 1

    def _forget(self, pool: Executor) -> None:
        """Start a new pool for the next question, if ``pool`` is still the current one."""
        with self._lock:
            if self._executor is pool:
                self._executor = None
        pool.shutdown(wait=False, cancel_futures=True)

    def _stop(self, pool: Executor) -> None:
        """Stop the worker processes of ``pool``: the questions they hold fail (their
        clients get `Busy`) and the next question starts a new pool."""
        # The standard library stops a pool's workers only from Python 3.14
        # (`terminate_workers`); before, its processes are at hand here (until shutdown).
        processes = list((getattr(pool, "_processes", None) or {}).values())
        self._forget(pool)
        for process in processes:
            process.kill()

    def prepare(self, work: Callable[[], object]) -> None:
        """Start the workers and have them run ``work`` (loading what questions need)
        before the first question, which waits for it; nothing is answered.

        A worker process runs ``work`` as it starts (the first, and one replaced after a
        question was given up), before its memory cap closes on what it then holds."""
        with self._lock:
            self._load = work
        try:
            pool = self._pool()  # a pool of processes starts one, which loads at once
            if not self.processes:
                ready = pool.submit(work)
                with self._lock:
                    self._ready = ready
        except RuntimeError:  # shut down meanwhile: the next question starts afresh
            pass

    def close(self) -> None:
        """Stop taking questions; worker processes are stopped at once (what they were
        doing, a question or `prepare`'s loading, is of no use to anybody now)."""
        with self._lock:
            executor = self._executor
        if executor is None:
            return
        if self.processes:
            self._stop(executor)
        else:
            self._forget(executor)


class LastScene:
    """The last scene read from a table's data, with answers derived from it.

    The scene is read by a `SceneReader`: while the data stay the same it is the same
    scene (and with it every cache the rules keep per scene); when figures move, only
    they are read again.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._reader = SceneReader()
        self._scene: Scene | None = None
        self._derived: dict[str, Any] = {}

    def scene(self, document: Mapping[str, Any], source: str) -> Scene:
        """The scene of ``document``: the last one read when the data are the same."""
        with self._lock:
            if self._reader.source != source:
                self._reader = SceneReader(source)
            reader = self._reader
        scene = reader.read(document)
        with self._lock:
            if scene is not self._scene:
                self._scene, self._derived = scene, {}
        return scene

    def derived(self, scene: Scene, name: str, compute: Callable[[], T]) -> T:
        """``compute()``, kept under ``name`` while ``scene`` is the last one parsed."""
        with self._lock:
            if scene is self._scene and name in self._derived:
                kept: T = self._derived[name]
                return kept
        value = compute()
        with self._lock:
            if scene is self._scene:
                self._derived[name] = value
        return value


_LAST = LastScene()  # in a worker process: the last scene it was given


WORKER_NICENESS = 10
"""How much lower than the server's the worker processes' priority is, where the system
has priorities: when questions and the camera want the same cores, the camera wins."""


ORPHAN_CHECK_S = 1.0
"""How often a worker process looks whether the server that started it is still there."""


WORKER_LOAD_BYTES = 300_000_000
"""What a worker may take to load what its questions need (the path search's compiled
loops take about 120 MB)."""


def _nothing() -> None:
    """A task that only starts a worker process (which loads as it starts)."""


def _start_worker(server_pid: int, load: Callable[[], object] | None = None) -> None:
    """A worker process's start: its priority lowered (`WORKER_NICENESS`, where the
    system can), a watch that ends it once the server is gone (killed outright, it
    could not stop its workers, which would wait for questions for ever), ``load`` run,
    and its memory capped to `QUESTION_MEMORY_BYTES` beyond what it then holds
    (`arbitre.api.limits`)."""
    if hasattr(os, "nice"):
        try:
            os.nice(WORKER_NICENESS)
        except OSError:  # not allowed here: the worker runs at the server's priority
            pass
    watch = threading.Thread(target=_end_with, args=(server_pid,), name="arbitre-watch")
    watch.daemon = True
    watch.start()
    # a question past its memory fails with MemoryError (one line), the worker lives on
    cap_memory(QUESTION_MEMORY_BYTES + WORKER_LOAD_BYTES)  # the load's bound
    if load is not None:
        try:
            load()
        except MemoryError:  # its questions load what they need (within their cap)
            pass
    cap_memory(QUESTION_MEMORY_BYTES)  # tighter: from what the worker holds once loaded


def _end_with(server_pid: int) -> None:
    while True:
        time.sleep(ORPHAN_CHECK_S)
        try:
            os.kill(server_pid, 0)  # no signal: only whether the process is there
        except ProcessLookupError:
            os._exit(0)
        except OSError:  # there, but another user's: not ours to judge
            pass


REST_SHARE = 1.0
"""A worker process rests this share of its last question's time before the next one:
under a flood of questions it works at most half the time, and the camera's process, on
a machine of two cores, keeps its share of them (the answers wait a little longer)."""
MAX_REST_S = 1.0
"""The longest rest, whatever the last question cost; a question that has waited in the
queue this long already is answered without one (its time limit counts the queue)."""
_clock = time.monotonic
_sleep = time.sleep

_LAST_QUESTION = [0.0, 0.0]  # in a worker process: when its last question ended, and its time


def _in_turn(asked: float, work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` in a worker process, once it has rested after its last question
    (``asked``: when the question was put to the desk, on the system's monotonic clock)."""
    ended, took = _LAST_QUESTION
    now = _clock()
    rest = min(ended + REST_SHARE * took - now, MAX_REST_S - (now - asked))
    if rest > 0.0:
        _sleep(rest)
    start = _clock()
    try:
        return work(*args)
    finally:
        end = _clock()
        _LAST_QUESTION[:] = [end, end - start]


def load_path_search() -> None:
    """Compile (or load) the path search's loops: what `QuestionDesk.prepare` is given,
    so that the first reachable area or move does not wait for them."""
    from arbitre.rules.pathing.kernels import warm

    warm()


def about_question(
    about: Mapping[str, Any],
    scene: Scene,
    args: Sequence[str],
    groups: Mapping[str, Sequence[str]],
) -> dict[str, Any]:
    """``about`` (which positions the live table's answer rests on: `positions`, `moving`,
    `stale`, `pinned`) narrowed to the figures the question is about: those its arguments name, by
    id, side or declared group or unit, and the members of the groups they name
    (``groups``: each group's figure ids, as the ``groups`` question gives them). A
    question naming none of them (``groups`` itself) is about every figure."""
    names = set(args)
    concerned = {f.id for f in scene.figures if names & {f.id, f.group, f.unit, f.side}}
    for name in names & set(groups):
        concerned.update(groups[name])
    if not concerned:
        return dict(about)
    moving = [name for name in about.get("moving", []) if name in concerned]
    stale = [name for name in about.get("stale", []) if name in concerned]
    positions = "moving" if moving else "settled"
    narrowed = {**about, "positions": positions, "moving": moving, "stale": stale}
    if "pinned" in about:  # figures put back by hand (`arbitre.api.live.table.Pin`)
        narrowed["pinned"] = [name for name in about["pinned"] if name in concerned]
    return narrowed


def groups_answer(scene: Scene, kept: LastScene | None = None) -> dict[str, Any] | None:
    """The ``groups`` answer's JSON of ``scene`` (kept with the last scene of ``kept``,
    when given); None for a rule system without groups (M.U.S.G., Confrontation)."""
    if "groups" not in find_ruleset(scene.ruleset).known_questions:
        return None

    def compute() -> dict[str, Any]:
        return ask(scene, "groups", []).to_json()

    return compute() if kept is None else kept.derived(scene, "groups", compute)


def groups_of(scene: Scene, kept: LastScene | None = None) -> Mapping[str, Sequence[str]]:
    """Each group's figure ids, as the ``groups`` question gives them (none for a rule
    system without groups, or a scene it refuses)."""
    try:
        found = groups_answer(scene, kept)
    except RulesError:
        return {}
    return found["groups"] if found else {}


def answer_scene(
    document: Mapping[str, Any],
    question: str,
    args: Sequence[str],
    extras: Mapping[str, Any],
    source: str,
    about: Mapping[str, Any],
) -> tuple[bool, bytes | dict[str, Any]]:
    """Parse a scene's data and answer a question on it: ``(True, the answer's JSON with
    ``about`` added, as the bytes of the HTTP body)``, or ``(False, the refusal's body)``
    (`arbitre.rules.errors.error_fields`) when the rules refuse. Run in a worker process,
    which writes the JSON too: the server's process, which the camera's thread shares, only
    passes it on."""
    try:
        scene = _LAST.scene(document, source)
        found = ask(scene, question, args, extras).to_json()
        if about.get("positions") != "scene":
            about = about_question(about, scene, args, groups_of(scene, _LAST))
    except RulesError as error:
        return False, error_fields(error)
    except MemoryError:  # past the worker's memory (`cap_memory`)
        return False, {"detail": too_costly(question)}
    return True, json_body({**found, **about})


def json_body(content: Any) -> bytes:
    """``content`` as a JSON response body, written as FastAPI writes one."""
    return json.dumps(
        content, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")
    ).encode("utf-8")
