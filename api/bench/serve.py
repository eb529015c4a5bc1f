"""``arbitre bench serve``: the pipeline's frame rate with 20 WebSocket clients vs none.

The demo table runs uncapped (as fast as the machine processes frames) behind a
real uvicorn server; its frame rate is measured with no client, then with N
clients reading every state pushed on ``/api/ws``, in the same run. Then the journal
section: the demo table served again with a game journal (as ``serve --config`` keeps
one), its frame rate while a client asks 50 questions a minute, each journaled with its
picture, against its frame rate while no question is asked, turn and turn about; and the
same with no journal, to tell the journal's cost from the questions'. Then
the club section (`arbitre.api.bench.cameras`): two cameras over a 6 x 4 ft table.
"""

from __future__ import annotations

import multiprocessing
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn

from arbitre.api.bench.ask_load import run_askers, run_paced_askers
from arbitre.api.bench.cameras import SET_UPS, cameras_lines, run_cameras_bench
from arbitre.api.bench.flood import FLOODS, Flood, run_flood
from arbitre.api.bench.memory import PeakMemory
from arbitre.api.bench.ws_load import run_clients
from arbitre.api.connections import SERVER_OPTIONS
from arbitre.api.live.demo import DemoSource, demo_config
from arbitre.api.live.desk import QuestionDesk
from arbitre.api.live.journal import Journal
from arbitre.api.live.table import LiveTable
from arbitre.api.main import create_app
from arbitre.calibration.progress import Progress, Steps

TARGET_RATIO = 0.9  # the frame rate stays within 10 % of its rate with no client
TARGET_QUESTIONS_RATIO = 0.7  # ... and within 30 % while questions pour in
TARGET_P95_S = 2.0  # the questions answered take at most this long (95th percentile)
TARGET_FLOOD_RATIO = 0.7  # ... and within 30 % while hostile clients flood an endpoint
TARGET_FLOOD_MEMORY_MB = 500  # the server and its workers take at most this much more
TARGET_JOURNAL_RATIO = 0.95  # ... and within 5 % while 50 questions a minute are journaled
JOURNALED_PER_MINUTE = 50.0
WARM_UP_S = 1.0
TICK_S = 0.1  # progress is told every tenth of a second of the measure


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait(seconds: float, steps: Steps) -> None:
    """Sleep ``seconds``, one step every `TICK_S`."""
    end = time.perf_counter() + seconds
    for _ in range(_ticks(seconds)):
        time.sleep(max(0.0, min(TICK_S, end - time.perf_counter())))
        steps.advance()
    time.sleep(max(0.0, end - time.perf_counter()))


def _ticks(seconds: float) -> int:
    return max(1, round(seconds / TICK_S))


def _rate(live: LiveTable, seconds: float, steps: Steps) -> float:
    return _fps([_frames(live, seconds, steps)])


def run_serve_bench(
    clients: int = 20,
    seconds: float = 8.0,
    *,
    askers: int = 50,
    cameras: bool = True,
    floods: bool = True,
    journal: bool = True,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Frames per second with no client, with ``clients`` WebSocket clients, and with
    ``askers`` clients asking questions without pause (``reach`` and ``fire``).

    With ``cameras``, the club section too (`arbitre.api.bench.cameras`): two cameras
    tracking 80 figures, each measured in a process of its own.

    ``progress`` is told ``(done, total)`` every tenth of a second of the warm-up and
    the three measures, and at each step of the club section.

    With ``floods``, hostile clients send each request of `FLOODS` (a 1,000-figure scene
    file to read, the state, the picture, the scene, a costly question; then a burst of
    a hundred costly questions): the frame rate under each, the share of the time the
    source stayed ok, and the most memory the server took beyond what it held before.

    With ``journal``, the demo table served again with a game journal: its frame rate while
    a client asks `JOURNALED_PER_MINUTE` questions a minute, each journaled with its
    picture, against the same server's while no question is asked (turn and turn about),
    what the journal kept, and the same measure with no journal.
    """
    club_steps = 3 * len(SET_UPS) if cameras else 0
    flood_steps = len(FLOODS) * _ticks(seconds) if floods else 0
    journal_turn_steps = 2 * JOURNAL_ROUNDS * _ticks(journal_turn_s(seconds))
    journal_steps = 2 * (_ticks(WARM_UP_S) + journal_turn_steps) if journal else 0
    steps = Steps(
        _ticks(WARM_UP_S) + 3 * _ticks(seconds) + flood_steps + journal_steps + club_steps,
        progress,
    )
    live = LiveTable(
        demo_config(),
        DemoSource(),
        max_fps=None,
    )
    with _served(live) as port:
        _wait(WARM_UP_S, steps)
        alone = _rate(live, seconds, steps)
        # The clients run in a process of their own, as phones would be other machines;
        # the measure starts once every client is connected.
        context = multiprocessing.get_context("spawn")
        loaded, received = _rate_beside(
            context, run_clients, (port, clients), live, seconds, steps, "WebSocket clients"
        )
        messages = int(received)
        questions = _under_questions(context, port, live, askers, seconds, steps)
        flooded = [
            _under_flood(context, port, live, flood, seconds, steps)
            for flood in (FLOODS if floods else ())
        ]
    journaled = _journaling(seconds, steps) if journal else None
    club = run_cameras_bench(seconds, steps) if cameras else []
    return {
        **({"journal": journaled} if journaled else {}),
        "floods": [{**row, "ratio": row["fps"] / alone if alone else 0.0} for row in flooded],
        "cameras": club,
        "clients": clients,
        "fps_alone": alone,
        "fps_loaded": loaded,
        "ratio": loaded / alone if alone else 0.0,
        "messages": messages,
        **({"questions": {**questions, "ratio": questions["fps"] / alone}} if alone else {}),
    }


@contextmanager
def _served(live: LiveTable, journal: Journal | None = None) -> Iterator[int]:
    """The live table served by a real uvicorn server (questions answered by worker
    processes, as ``arbitre serve`` does) until the block ends: its port."""
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(live, desk=QuestionDesk(processes=True), journal=journal),
            host="127.0.0.1",
            port=port,
            log_level="warning",
            **SERVER_OPTIONS,
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.05)
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=10)


JOURNAL_ROUNDS = 12
"""The journal's measure alternates this many times between no question and questions
asked at a table's pace: a load that comes and goes on the machine weighs on both alike."""
JOURNAL_SPAN = 3.0
"""The journal's measure asks for this many times the other measures' ``seconds`` (and is
quiet as long): at 50 questions a minute, a turn of a second holds none or two, and one
question more or less in a turn would decide its ratio."""


def journal_turn_s(seconds: float) -> float:
    """How long each quiet and each asking turn of the journal's measure lasts."""
    return JOURNAL_SPAN * seconds / JOURNAL_ROUNDS


def _journaling(seconds: float, steps: Steps) -> dict[str, Any]:
    """The demo table served with a journal (a temporary file, pictures 1280 px wide): its
    frame rate while a client asks `JOURNALED_PER_MINUTE` questions a minute, each
    journaled, against its rate while it asks none, turn and turn about; the processor
    time the journal's own work took meanwhile; then the same with no journal, the
    control that tells the journal's cost from the questions'."""
    with tempfile.TemporaryDirectory(prefix="arbitre-bench-") as folder:
        journal = Journal(Path(folder) / "journal.sqlite")
        kept_run = _paced_turns(journal, seconds, steps)
        kept = journal.stats()  # the server has stopped: everything queued is written
    control_run = _paced_turns(None, seconds, steps)
    turns = kept_run.turns
    ratio = _turns_ratio(turns)
    control = _turns_ratio(control_run.turns)
    return {
        "per_minute": JOURNALED_PER_MINUTE,
        "turns": len(turns),
        "turn_s": journal_turn_s(seconds),
        "fps_quiet": _fps(quiet for quiet, _ in turns),
        "fps": _fps(asked for _, asked in turns),
        "ratio": ratio,
        "spread": _spread(turns),
        "ratio_no_journal": control,
        "journal_cost": ratio / control if control else 0.0,
        "work_s": kept_run.work_s,
        "measured_s": kept_run.seconds,
        "ratio_bound": 1.0 - kept_run.work_s / kept_run.seconds,
        "answered": len(kept_run.latencies.get("200", [])),
        "other": sum(len(v) for k, v in kept_run.latencies.items() if k != "200"),
        "journaled": kept["questions"],
        "pictures": kept["frames"],
        "dropped_frames": kept["dropped_frames"],
        "settled": kept["settled"],
        "size_bytes": kept["size_bytes"],
    }


Turn = tuple[int, float]
"""The frames the camera loop processed in a turn, and the turn's length in seconds."""


@dataclass(frozen=True)
class PacedRun:
    """One server's turns (`_paced_turns`)."""

    turns: list[tuple[Turn, Turn]]
    """Each round's quiet turn and asking turn."""
    latencies: Any
    """The questions' latencies by status."""
    seconds: float
    """How long the turns took in all."""
    work_s: float
    """The processor time the journal's work took through the turns (0 with none)."""


def _paced_turns(journal: Journal | None, seconds: float, steps: Steps) -> PacedRun:
    """The demo table served (with ``journal`` if any), `JOURNAL_ROUNDS` rounds of a quiet
    turn and a turn of questions at a table's pace.

    Two things that are not the questions must weigh on both kinds of turn alike. A
    figure walks once a turn: a walk (a fresh picture to render and read) every 8 s
    would land in the same kind of turn each time. And the rounds go quiet-asking,
    asking-quiet, in turn: the machine warming up through the measure favours neither."""
    turn_s = journal_turn_s(seconds)
    live = LiveTable(demo_config(), DemoSource(move_every_s=turn_s), max_fps=None)
    with _served(live, journal) as port:
        _wait(WARM_UP_S, steps)
        context = multiprocessing.get_context("spawn")
        asking, ready, stop = context.Event(), context.Event(), context.Event()
        results: Any = context.Queue()
        asker = context.Process(
            target=run_paced_askers,
            args=(port, JOURNALED_PER_MINUTE, asking, ready, stop, results),
        )
        asker.start()
        if not ready.wait(timeout=60):
            raise RuntimeError("the question client could not start")
        work_before, start = (journal.work_s if journal else 0.0), time.perf_counter()
        turns = []
        for round_ in range(JOURNAL_ROUNDS):
            if round_ % 2 == 0:
                quiet = _frames(live, turn_s, steps)
            asking.set()
            asked = _frames(live, turn_s, steps)
            asking.clear()
            if round_ % 2 == 1:
                quiet = _frames(live, turn_s, steps)
            turns.append((quiet, asked))
        elapsed = time.perf_counter() - start
        work = (journal.work_s if journal else 0.0) - work_before
        stop.set()
        latencies = results.get(timeout=90)
        asker.join(timeout=10)
    return PacedRun(turns, latencies, elapsed, work)


def _frames(live: LiveTable, seconds: float, steps: Steps) -> Turn:
    start_frames, start = live.frames_processed, time.perf_counter()
    _wait(seconds, steps)
    return live.frames_processed - start_frames, time.perf_counter() - start


def _fps(turns: Iterable[Turn]) -> float:
    """The frame rate over ``turns`` taken together.

    >>> _fps([(60, 1.0), (30, 1.0)])
    45.0
    """
    frames, seconds = map(sum, zip(*turns, strict=True))
    return frames / seconds if seconds > 0 else 0.0


def _turns_ratio(turns: list[tuple[Turn, Turn]]) -> float:
    """The asking turns' frame rate over the quiet turns', all turns taken together: a
    frame more or less at a turn's ends weighs a few in a thousand, not one in sixty.

    >>> round(_turns_ratio([((60, 1.0), (57, 1.0)), ((62, 1.0), (58, 1.0))]), 3)  # 115 / 122
    0.943
    """
    quiet = _fps(quiet for quiet, _ in turns)
    return _fps(asked for _, asked in turns) / quiet if quiet > 0 else 0.0


def _spread(turns: list[tuple[Turn, Turn]]) -> tuple[float, float]:
    """The quartiles of the turns' own ratios (asking over the quiet turn before it): how
    much the machine's load moved while measuring.

    >>> _spread([((10, 1.0), (9, 1.0)), ((10, 1.0), (10, 1.0)), ((10, 1.0), (11, 1.0))])
    (0.95, 1.05)
    """
    ratios = [(a / sa) / (q / sq) for (q, sq), (a, sa) in turns if q > 0 and sa > 0]
    if len(ratios) < 2:
        return (ratios[0], ratios[0]) if ratios else (0.0, 0.0)
    low, _, high = statistics.quantiles(ratios, n=4, method="inclusive")
    return low, high


def _rate_beside(
    context: Any,
    clients: Callable[..., None],
    args: tuple[Any, ...],
    live: LiveTable,
    seconds: float,
    steps: Steps,
    what: str,
) -> tuple[float, Any]:
    """The frame rate while ``clients(*args, ready, stop, results)`` runs in a process of
    its own (as phones would be other machines), measured once it says it is ready; and
    what it sent back when stopped."""
    ready, stop = context.Event(), context.Event()
    results: Any = context.Queue()
    process = context.Process(target=clients, args=(*args, ready, stop, results))
    process.start()
    if not ready.wait(timeout=60):
        raise RuntimeError(f"the {what} could not start")
    fps = _rate(live, seconds, steps)
    stop.set()
    sent = results.get(timeout=90)
    process.join(timeout=10)
    return fps, sent


def _under_questions(
    context: Any, port: int, live: LiveTable, askers: int, seconds: float, steps: Steps
) -> dict[str, Any]:
    """The frame rate while ``askers`` clients ask questions without pause, and how the
    questions fared: answered, refused as busy (503), their latencies."""
    fps, latencies = _rate_beside(
        context, run_askers, (port, askers), live, seconds, steps, "question clients"
    )
    answered = sorted(latencies.get("200", []))
    return {
        "askers": askers,
        "fps": fps,
        "answered": len(answered),
        "busy": len(latencies.get("503", [])),
        "other": sum(len(v) for k, v in latencies.items() if k not in ("200", "503")),
        "p95_s": answered[int(0.95 * (len(answered) - 1))] if answered else None,
    }


def _under_flood(
    context: Any, port: int, live: LiveTable, flood: Flood, seconds: float, steps: Steps
) -> dict[str, Any]:
    """The frame rate while ``flood``'s clients send its requests, the share of tenths of
    a second the source was ok, the answers by status, and the most memory the server
    and its workers took beyond what they held before (MB)."""
    ready, stop = context.Event(), context.Event()
    results: Any = context.Queue()
    process = context.Process(target=run_flood, args=(port, flood, ready, stop, results))
    process.start()
    with PeakMemory(leave_out=process.pid) as memory:
        if not ready.wait(timeout=60):
            raise RuntimeError("the flooding clients could not start")
        start_frames, start = live.frames_processed, time.perf_counter()
        ok: list[bool] = []
        for _ in range(_ticks(seconds)):
            time.sleep(TICK_S)
            ok.append(bool(live.recent_state()["source"]["ok"]))
            steps.advance()
        fps = (live.frames_processed - start_frames) / (time.perf_counter() - start)
        stop.set()
        answers = results.get(timeout=90)
    process.join(timeout=10)
    return {
        "endpoint": flood.name,
        "clients": flood.clients,
        "once": flood.once,
        "fps": fps,
        "source_ok": sum(ok) / len(ok),
        "answers": answers,
        "memory_mb": None if memory.beyond_start is None else memory.beyond_start / 1e6,
    }


def report_lines(report: dict[str, Any]) -> list[str]:
    """The report as one line, with the target met (ok) or missed (MISS)."""
    verdict = "ok" if report["ratio"] >= TARGET_RATIO else "MISS"
    lines = [
        f"demo pipeline: {report['fps_alone']:.1f} fps alone, {report['fps_loaded']:.1f} "
        f"fps with {report['clients']} WebSocket clients ({report['messages']} states "
        f"pushed): ratio {report['ratio']:.2f} (target >= {TARGET_RATIO:.2f}) {verdict}"
    ]
    asked = report.get("questions")
    if asked:
        p95 = asked["p95_s"]
        ok = asked["ratio"] >= TARGET_QUESTIONS_RATIO and p95 is not None and p95 <= TARGET_P95_S
        lines.append(
            f"  with {asked['askers']} clients asking without pause: {asked['fps']:.1f} fps, "
            f"ratio {asked['ratio']:.2f} (target >= {TARGET_QUESTIONS_RATIO:.2f}); "
            f"{asked['answered']} answered (p95 "
            f"{'-' if p95 is None else f'{p95:.2f}'} s, target <= {TARGET_P95_S:g} s), "
            f"{asked['busy']} told to retry (503), {asked['other']} other  "
            f"{'ok' if ok else 'MISS'}"
        )
    for row in report.get("floods", []):
        memory = row["memory_mb"]
        ok = row["ratio"] >= TARGET_FLOOD_RATIO and row["source_ok"] == 1.0
        ok = ok and (memory is None or memory <= TARGET_FLOOD_MEMORY_MB)
        answers = ", ".join(f"{n} x {status}" for status, n in sorted(row["answers"].items()))
        how = "at once, once each," if row["once"] else "without pause"
        lines.append(
            f"  {row['clients']} clients {how} on {row['endpoint']}: {row['fps']:.1f} fps, "
            f"ratio {row['ratio']:.2f} (target >= {TARGET_FLOOD_RATIO:.2f}), source ok "
            f"{row['source_ok']:.0%} of the time, server "
            f"{'(not measured here)' if memory is None else f'+{memory:.0f} MB'} (target <= "
            f"+{TARGET_FLOOD_MEMORY_MB} MB) ({answers})  {'ok' if ok else 'MISS'}"
        )
    kept = report.get("journal")
    if kept:
        lines.extend(journal_lines(kept))
    if report.get("cameras"):
        lines.extend(cameras_lines(report["cameras"]))
    return lines


def journal_lines(kept: dict[str, Any]) -> list[str]:
    """The journal section's lines: the verdict rests on the processor time the journal's
    work took (it can take no more than that from the camera loop), which the machine's
    other load does not move; the frame rates measured show beside it."""
    ok = kept["ratio_bound"] >= TARGET_JOURNAL_RATIO and kept["journaled"] == kept["answered"]
    low, high = kept["spread"]
    per_question = kept["work_s"] / kept["answered"] if kept["answered"] else 0.0
    return [
        f"  journal on, {kept['per_minute']:g} questions a minute: its own work took "
        f"{kept['work_s'] * 1e3:.0f} ms of processor in {kept['measured_s']:.0f} s "
        f"({per_question * 1e3:.1f} ms a question, pictures and settled states included): "
        f"the camera loop keeps at least {kept['ratio_bound']:.3f} of its frame rate "
        f"(target >= {TARGET_JOURNAL_RATIO:.2f}); {kept['answered']} answered, "
        f"{kept['journaled']} journaled with {kept['pictures']} pictures "
        f"({kept['dropped_frames']} dropped), {kept['settled']} settled states, "
        f"{kept['size_bytes'] / 1e6:.1f} MB  {'ok' if ok else 'MISS'}",
        f"    measured: {kept['fps']:.1f} fps asking, {kept['fps_quiet']:.1f} asking none, "
        f"ratio {kept['ratio']:.3f} ({kept['turns']} turns of {kept['turn_s']:.1f} s each way, "
        f"half of them between {low:.2f} and {high:.2f}); with no journal "
        f"{kept['ratio_no_journal']:.3f}: what this machine's other load moves",
    ]
