"""The game journal's file: what is written, read back, migrated, bounded and pruned, and
nothing answered lost to a kill -9 of the server keeping it."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from arbitre.api.live.demo import DemoSource, demo_config
from arbitre.api.live.journal import (
    SCHEMA_VERSION,
    Asked,
    Journal,
    JournalError,
    JournalReader,
    Picture,
    Rested,
    RestWatch,
)
from arbitre.api.live.table import LiveTable
from tests.api.clock import Clock
from tests.api.ports import free_port
from tests.api.simulated_club import write_club

SCENE: dict[str, Any] = {
    "ruleset": "choc-base-6",
    "table": {"width_mm": 1200, "depth_mm": 900},
    "figures": [
        {"id": "a1", "side": "blue", "group": "A", "x_mm": 100, "y_mm": 100},
        {"id": "a2", "side": "blue", "group": "A", "x_mm": 130, "y_mm": 100},
        {"id": "b1", "side": "red", "group": "B", "x_mm": 600, "y_mm": 400},
    ],
}


def _asked(
    time: float, question: str = "distance", args: tuple[str, ...] = ("A", "B"), **more: Any
) -> Asked:
    answer = json.dumps({"question": question, "message": f"{question} at {time:g}"})
    return Asked(time, question, args, {}, 200, answer, more.pop("scene", SCENE), **more)


def _picture(size: int = 100, fill: int = 1) -> Picture:
    return Picture(bytes([fill]) * size, 640, 360, 0, 0.0)


def test_a_new_journal_is_a_wal_sqlite_file_of_the_current_schema(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    Journal(path).close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA application_id").fetchone()[0] == 0x61726269  # "arbi"
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == {"questions", "frames", "settled", "question_figures"}


def test_questions_are_read_back_newest_first_paged_and_by_figure(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    journal.add(_asked(100.0))  # A and B: a1, a2, b1
    journal.add(_asked(101.0, "reach", ("a1",)))  # a1 only
    journal.add(_asked(102.0, "groups", ()))  # names none: about every figure
    journal.add(_asked(103.0, "move", ("b1", "250", "300")))  # b1 (the numbers name none)
    assert journal.flush()
    assert journal.stats()["questions"] == 4
    journal.close()
    with JournalReader(tmp_path / "j.sqlite") as reader:
        listed = reader.questions()
        assert [q["id"] for q in listed] == [4, 3, 2, 1]
        assert [q["question"] for q in listed] == ["move", "groups", "reach", "distance"]
        assert listed[0]["args"] == ["b1", "250", "300"]
        assert listed[0]["message"] == "move at 103"
        assert listed[0]["figures"] == ["b1"]
        assert listed[3]["figures"] == ["a1", "a2", "b1"]
        # paged: the two before id 3
        assert [q["id"] for q in reader.questions(before=3, limit=2)] == [2, 1]
        assert [q["id"] for q in reader.questions(limit=1)] == [4]
        # a1 is named by the distance (its group A), the reach and the groups question
        assert [q["id"] for q in reader.questions(figure="a1")] == [3, 2, 1]
        assert [q["id"] for q in reader.questions(figure="b1")] == [4, 3, 1]
        assert reader.questions(figure="nobody") == []
        whole = reader.question(2)
        assert whole is not None
        assert whole["answer"] == {"question": "reach", "message": "reach at 101"}
        assert whole["scene"] == SCENE
        assert reader.question(99) is None


def test_questions_asked_on_the_same_picture_share_one_frame(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    first, second = _picture(fill=1), _picture(fill=2)
    journal.add(_asked(1.0, picture=first))
    journal.add(_asked(2.0, picture=first))  # the camera had no new frame meanwhile
    journal.add(_asked(3.0, picture=second))
    journal.add(_asked(4.0))  # no picture
    journal.flush()
    assert journal.stats()["frames"] == 2
    journal.close()
    with JournalReader(tmp_path / "j.sqlite") as reader:
        assert reader.frame(1) == reader.frame(2) == bytes([1]) * 100
        assert reader.frame(3) == bytes([2]) * 100
        assert reader.frame(4) is None
        assert [q["frame"] for q in reader.questions()] == [False, True, True, True]


def test_a_writer_behind_drops_pictures_never_questions(tmp_path: Path) -> None:
    # Not started: nothing is written until flush, so the queue fills. Two entries may
    # wait with their pictures; the third and fourth questions are kept without theirs.
    journal = Journal(tmp_path / "j.sqlite", max_pending=2)
    for k in range(4):
        journal.add(_asked(float(k), picture=_picture(fill=k)))
    assert journal.stats()["pending"] == 4
    assert journal.dropped_frames == 2
    journal.flush()
    stats = journal.stats()
    assert (stats["questions"], stats["frames"], stats["dropped_frames"]) == (4, 2, 2)
    journal.close()
    with JournalReader(tmp_path / "j.sqlite") as reader:
        assert [q["frame"] for q in reader.questions()] == [False, False, True, True]


def test_the_writer_thread_writes_what_several_threads_queue(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    journal.start()

    def ask(first: int) -> None:
        for k in range(25):
            journal.add(_asked(float(first + k)))

    threads = [threading.Thread(target=ask, args=(100 * n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert journal.flush(timeout_s=10)
    journal.close()
    with sqlite3.connect(tmp_path / "j.sqlite") as db:
        times = sorted(row[0] for row in db.execute("SELECT time FROM questions"))
    assert times == sorted(float(100 * n + k) for n in range(4) for k in range(25))


def test_the_table_at_a_moment_is_the_latest_state_or_question_before_it(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    moved = {**SCENE, "figures": [{**SCENE["figures"][0], "x_mm": 500}]}
    journal.add(Rested(10.0, ("a1", "a2", "b1"), SCENE))
    journal.add(_asked(20.0, scene=moved))
    journal.add(Rested(30.0, ("a1",), SCENE))
    journal.close()
    with JournalReader(tmp_path / "j.sqlite") as reader:
        assert reader.scene_at(5.0) is None  # nothing journaled yet
        at_15, at_25, at_30 = reader.scene_at(15.0), reader.scene_at(25.0), reader.scene_at(30.0)
        assert at_15 is not None and (at_15["kind"], at_15["id"]) == ("settled", 1)
        assert at_25 is not None and (at_25["kind"], at_25["id"]) == ("question", 1)
        assert at_25["scene"] == moved
        assert at_30 is not None and (at_30["kind"], at_30["id"]) == ("settled", 2)
        assert [(s["id"], s["figures"]) for s in reader.states()] == [
            (1, ["a1", "a2", "b1"]),
            (2, ["a1"]),
        ]
        assert [s["id"] for s in reader.states(after=1)] == [2]
        state = reader.state(2)
        assert state is not None and state["scene"] == SCENE
        assert reader.state(3) is None


# --- settled states from the live table ---------------------------------------------------


def _run(live: LiveTable, clock: Clock, frames: int) -> None:
    for _ in range(frames):
        clock.now += 1 / 30
        assert live.step()


def test_a_state_is_journaled_when_a_figure_comes_to_rest(tmp_path: Path) -> None:
    clock = Clock()
    source = DemoSource(move_every_s=1e9)
    live = LiveTable(demo_config(), source, clock=clock)
    journal = Journal(tmp_path / "j.sqlite", frame_width_px=0)
    watch = RestWatch(live, journal)
    _run(live, clock, 3)
    assert watch.check() is None  # seen for 0.1 s: not settled yet (0.7 s)
    _run(live, clock, 25)  # 0.93 s: every figure still for more than 0.7 s
    first = watch.check()
    assert first is not None
    assert sorted(first.figures) == sorted(f.id for f in live.config.roster.figures)
    assert {f["id"] for f in first.scene["figures"]} == set(first.figures)
    _run(live, clock, 10)
    assert watch.check() is None  # nothing moved: nothing new
    # one figure walks 40 to 90 mm: once it has settled at its new place, a state says so
    before = source.positions_mm()
    source.move_every_s = 0.0
    _run(live, clock, 1)
    source.move_every_s = 1e9
    (walker,) = [m for m, place in source.positions_mm().items() if place != before[m]]
    _run(live, clock, 2)
    assert watch.check() is None  # seen at its new place, not settled there yet
    _run(live, clock, 25)
    second = watch.check()
    assert second is not None
    assert second.figures == (live.config.roster.by_marker(walker).id,)  # type: ignore[union-attr]
    moved = {f["id"]: f for f in second.scene["figures"]}[second.figures[0]]
    x_mm, y_mm = source.positions_mm()[walker]
    assert abs(moved["x_mm"] - x_mm) < 3 and abs(moved["y_mm"] - y_mm) < 3
    journal.close()
    with JournalReader(tmp_path / "j.sqlite") as reader:
        assert [len(s["figures"]) for s in reader.states()] == [7, 1]


# --- older, newer and foreign files --------------------------------------------------------

V1 = """
CREATE TABLE frames (id INTEGER PRIMARY KEY, time REAL NOT NULL, camera INTEGER NOT NULL,
    width_px INTEGER NOT NULL, height_px INTEGER NOT NULL, jpeg BLOB NOT NULL);
CREATE TABLE questions (id INTEGER PRIMARY KEY, time REAL NOT NULL, question TEXT NOT NULL,
    args TEXT NOT NULL, extras TEXT NOT NULL, status INTEGER NOT NULL, answer TEXT NOT NULL,
    scene TEXT NOT NULL, frame_id INTEGER REFERENCES frames(id) ON DELETE SET NULL);
CREATE INDEX questions_time ON questions(time);
CREATE TABLE settled (id INTEGER PRIMARY KEY, time REAL NOT NULL, scene TEXT NOT NULL);
CREATE INDEX settled_time ON settled(time);
PRAGMA application_id = 1634886249;  -- 0x61726269, "arbi"
PRAGMA user_version = 1;
"""


def _v1_file(path: Path) -> None:
    """A journal as schema 1 wrote it: no question_figures table, no settled.figures."""
    db = sqlite3.connect(path)
    db.executescript(V1)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("INSERT INTO frames VALUES (1, 5.0, 0, 4, 3, x'ffd8ffd9')")
    db.execute(
        "INSERT INTO questions VALUES (1, 5.0, 'fire', '[\"a2\", \"B\"]', '{}', 200, "
        '\'{"allowed": true, "message": "a2 may shoot at B"}\', ?, 1)',
        (json.dumps(SCENE),),
    )
    db.execute("INSERT INTO settled VALUES (1, 4.0, ?)", (json.dumps(SCENE),))
    db.commit()
    db.close()


def test_a_journal_of_schema_1_still_opens_and_is_brought_up_to_date(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    _v1_file(path)
    with JournalReader(path) as reader:
        (question,) = reader.questions()
        assert (question["question"], question["args"]) == ("fire", ["a2", "B"])
        assert question["message"] == "a2 may shoot at B"
        # the figures each question is about, filled in from its arguments: a2, and b1 (B)
        assert question["figures"] == ["a2", "b1"]
        assert [q["id"] for q in reader.questions(figure="b1")] == [1]
        assert reader.frame(1) == bytes.fromhex("ffd8ffd9")
        (state,) = reader.states()  # which figures came to rest: not known in schema 1
        assert (state["id"], state["time"], state["figures"]) == (1, 4.0, [])
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    # and the server writes on after the old entries
    journal = Journal(path)
    journal.add(_asked(6.0, "reach", ("a1",)))
    journal.close()
    with JournalReader(path) as reader:
        assert [q["id"] for q in reader.questions(figure="a1")] == [2]


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda p: p.write_text("figures: []\n"), "not an arbitre journal"),
        (lambda p: _sqlite(p, "CREATE TABLE notes (text TEXT)"), "not an arbitre journal"),
        (
            lambda p: _sqlite(p, "PRAGMA application_id = 1634886249; PRAGMA user_version = 7"),
            "a journal of schema 7, written by a newer arbitre (this one reads up to 2)",
        ),
        (lambda p: p.mkdir(), "a directory, not a journal file"),
        (lambda p: None, "no such journal file"),
    ],
)
def test_a_file_that_is_no_journal_this_arbitre_reads_is_one_line(
    tmp_path: Path, make: Any, says: str
) -> None:
    path = tmp_path / "j.sqlite"
    make(path)
    with pytest.raises(JournalError) as refused:
        JournalReader(path)
    assert str(refused.value).startswith(f"{path}: ")
    assert says in str(refused.value) and "\n" not in str(refused.value)


def _sqlite(path: Path, script: str) -> None:
    db = sqlite3.connect(path)
    db.executescript(script)
    db.close()


# --- bounded -----------------------------------------------------------------------------------

DAY_S = 86400.0


def test_old_evenings_are_pruned_when_the_journal_opens(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    journal = Journal(path)
    journal.add(_asked(1000.0, picture=_picture(fill=1)))
    journal.add(Rested(1001.0, ("a1",), SCENE))
    journal.add(_asked(1000.0 + 3 * DAY_S, picture=_picture(fill=2)))
    journal.close()
    # two days kept, three days later: the first evening goes, its picture with it
    Journal(path, keep_days=2, wall=lambda: 1000.0 + 3 * DAY_S + 60).close()
    with JournalReader(path) as reader:
        stats = reader.stats()
        assert (stats["questions"], stats["settled"], stats["frames"]) == (1, 0, 1)
        assert reader.frame(2) == bytes([2]) * 100


def test_a_journal_over_its_size_drops_its_oldest_entries(tmp_path: Path) -> None:
    # Pictures of 40 kB each, a bound of 400 kB: the data never stay above it, and what
    # is left is the newest questions, every one whole with its picture.
    path = tmp_path / "j.sqlite"
    journal = Journal(path, max_bytes=400_000)
    for k in range(40):
        journal.add(_asked(float(k), picture=_picture(40_000, fill=k)))
        journal.flush()
        assert journal.stats()["data_bytes"] <= 400_000
    journal.close()
    with JournalReader(path) as reader:
        kept = reader.questions()
        assert 5 <= len(kept) < 10
        assert kept[0]["id"] == 40
        ids = [q["id"] for q in kept]
        assert ids == list(range(40, 40 - len(kept), -1))  # the newest, none missing
        assert all(reader.frame(i) == bytes([i - 1]) * 40_000 for i in ids)
    assert path.stat().st_size < 1_000_000  # the freed pages given back to the disk


# --- the documented schema ---------------------------------------------------------------------


def _layout(db: sqlite3.Connection) -> dict[str, Any]:
    """Each table's columns (name, type, not null, default, key), indexes and references."""
    names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    return {
        name: (
            db.execute(f"PRAGMA table_info({name})").fetchall(),
            sorted(row[1] for row in db.execute(f"PRAGMA index_list({name})")),
            db.execute(f"PRAGMA foreign_key_list({name})").fetchall(),
        )
        for name in sorted(names)
    }


def test_docs_formats_gives_the_journal_s_schema_as_it_is(tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parents[3] / "docs" / "formats.md").read_text("utf-8")
    section = text[text.index("## journal.sqlite: the game journal") :]
    schema = section[
        section.index("```sql\n") + 7 : section.index("\n```", section.index("```sql"))
    ]
    documented = sqlite3.connect(":memory:")
    documented.executescript(schema)
    Journal(tmp_path / "j.sqlite").close()
    with sqlite3.connect(tmp_path / "j.sqlite") as real:
        assert _layout(documented) == _layout(real)


def _crowded_scene(figures: int) -> dict[str, Any]:
    """A live table's scene of ``figures`` figures, each with the 12 shared error terms and
    the own covariance a camera's scene carries (what makes a scene large)."""
    terms = ["fx", "fy", "cx", "cy", "k1", "pose_rx", "pose_ry", "pose_rz", "pose_tx",
             "pose_ty", "pose_tz", "print_scale"]  # fmt: skip
    return {
        "ruleset": "choc-base-6",
        "options": {"unit_mm": 100},
        "table": {"width_mm": 1830, "depth_mm": 1220},
        "shared_errors": terms,
        "figures": [
            {"id": f"figure {k}", "side": "blue" if k % 2 else "red", "group": f"g{k // 4}",
             "x_mm": 100.05 + 37.35 * k, "y_mm": 200.45 + 11.15 * k, "facing_deg": 87.5,
             "sigma_mm": 0.31, "shared_mm": [[0.021, -0.013]] * len(terms),
             "own_cov_mm2": [[0.058, 0.004], [0.004, 0.061]], "base": {"shape": "round",
             "diameter_mm": 25}, "marker_height_mm": 54.0, "type": "TD"}
            for k in range(figures)
        ],
    }  # fmt: skip


def test_an_evening_of_the_issue_stays_under_300_mb(tmp_path: Path) -> None:
    # An evening: 4 hours, 600 questions each on a picture of its own, 2,000 settled
    # states, on a club table of 40 figures. A 1280 px webcam picture is 120-150 kB at
    # quality 80 (the tests' real photos, brought to 1280 px): 250 kB each is generous.
    # A tenth of the evening is written; the whole is ten times it (each entry stands
    # alone), and must stay under 300 MB: 600 x 250 kB = 150 MB of pictures, and the
    # scenes, about 20 kB each, 2,600 x 20 kB = 52 MB: about 200 MB.
    path = tmp_path / "evening.sqlite"
    journal = Journal(path)
    journal.start()
    scene = _crowded_scene(40)
    answer = json.dumps({"question": "fire", "message": "x" * 300, "margins": [{}] * 5})
    for k in range(60):
        journal.add(
            Asked(float(k), "fire", ("g1", "g2"), {}, 200, answer, scene,
                  Picture(bytes([k]) * 250_000, 1280, 720))
        )  # fmt: skip
        for j in range(3 if k % 3 else 4):  # 200 settled states among the 60 questions
            journal.add(Rested(k + j / 4, ("figure 1",), scene))
        journal.flush()  # minutes apart in an evening: the writer is never behind
    journal.close()
    with JournalReader(path) as reader:
        stats = reader.stats()
    assert (stats["questions"], stats["settled"], stats["frames"]) == (60, 200, 60)
    evening_mb = 10 * stats["size_bytes"] / 1e6
    assert 150 < evening_mb < 300, evening_mb


ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture()
def club(tmp_path: Path) -> Path:
    """arbitre.yaml of a simulated table (four figures), fed by a folder of one frame."""
    folder = tmp_path / "club"
    folder.mkdir()
    return write_club(folder)[0]


START_TIMEOUT_S = 60.0


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as reply:
        return json.loads(reply.read())


def _ask(base: str, question: str, *args: str) -> tuple[int, Any]:
    body = json.dumps({"question": question, "args": list(args)}).encode()
    request = urllib.request.Request(
        base + "api/ask", data=body, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _wait_for_figures(base: str, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"arbitre serve exited: {process.stdout.read() if process.stdout else ''}")
        try:
            if _get(base + "api/health").get("figures", 0) >= 4:
                return
        except (urllib.error.URLError, ConnectionError, ValueError):
            pass
        time.sleep(0.2)
    pytest.fail("arbitre serve gave no figures in time")


def test_a_kill_9_loses_no_question_answered_a_second_before(club: Path) -> None:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "arbitre", "serve", "--config", str(club), "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}/"
    asked: list[tuple[str, list[str], int, Any]] = []
    try:
        _wait_for_figures(base, process)
        pairs = [("figure 10", "figure 12"), ("figure 11", "figure 13"), ("figure 12", "figure 13")]
        for k in range(12):
            a, b = pairs[k % len(pairs)]
            status, answer = _ask(base, "distance", a, b)
            assert status == 200, answer
            asked.append(("distance", [a, b], status, answer))
        status, refusal = _ask(base, "distance", "nobody", "figure 10")  # refused: kept too
        assert status == 422
        asked.append(("distance", ["nobody", "figure 10"], status, refusal))
        time.sleep(1.2)
        late = [_ask(base, "groups") for _ in range(3)]  # a moment before the kill
        assert all(status == 200 for status, _ in late)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
        if process.stdout:
            process.stdout.close()
    with JournalReader(club.parent / "journal.sqlite") as reader:
        kept = list(reader.all_questions())
        assert len(kept) >= len(asked)
        for (question, args, status, answer), entry in zip(asked, kept, strict=False):
            assert (entry["question"], entry["args"], entry["status"]) == (question, args, status)
            assert entry["answer"] == answer  # the whole answer, as the client got it
            assert {f["id"] for f in entry["scene"]["figures"]} == {
                f"figure {n}" for n in (10, 11, 12, 13)
            }
            assert entry["frame"]
        assert reader.frame(1) is not None and reader.frame(1)[:2] == b"\xff\xd8"  # a JPEG
        assert reader.stats()["settled"] >= 1  # the figures came to rest as the table started


def test_the_journal_counts_the_processor_time_of_its_work(tmp_path: Path) -> None:
    # What `arbitre bench serve` bounds the camera's loss by: processor time, not the
    # time on the clock, so a wait (a synced write, a sleep) is no work.
    journal = Journal(tmp_path / "journal.sqlite")
    assert journal.stats()["work_s"] == 0.0
    with journal.working():
        end = time.thread_time() + 0.05
        while time.thread_time() < end:  # 50 ms of processor
            pass
    with journal.working():
        time.sleep(0.2)  # 200 ms on the clock, next to none of processor
    assert 0.05 <= journal.work_s < 0.1
    journal.close()
