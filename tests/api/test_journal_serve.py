"""``arbitre serve`` keeps the game journal: where, when, and that a kill -9 loses nothing
answered a second before it."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import cv2
import pytest
import yaml
from typer.testing import CliRunner

from arbitre.api.cli import app
from arbitre.api.live.journal import Journal, JournalReader
from arbitre.calibration.simulated import write_setup
from arbitre.vision.simulate import preset
from tests.console import run_console

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


@pytest.fixture()
def club(tmp_path: Path) -> Path:
    """arbitre.yaml of a simulated table (four figures), fed by a folder of one frame."""
    folder = tmp_path / "club"
    folder.mkdir()
    scene = preset("overhead", scale=0.4, seed=5)
    write_setup(scene, folder)
    (folder / "frames").mkdir()
    cv2.imwrite(str(folder / "frames" / "0001.png"), scene.render().image)
    settings = {
        "camera": "camera.yaml",
        "table": "table.yaml",
        "roster": "roster.yaml",
        "ruleset": "choc-base-6",
        "options": {"unit_mm": 100},
        "source": {"folder": "frames"},
    }
    (folder / "arbitre.yaml").write_text(yaml.safe_dump(settings), encoding="utf-8")
    return folder / "arbitre.yaml"


# --- which journal serve keeps ----------------------------------------------------------


@pytest.fixture()
def started(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What uvicorn.run was given (no server is started)."""
    import uvicorn

    seen: dict[str, Any] = {}

    def run(application: Any, **options: Any) -> None:
        seen["app"] = application

    monkeypatch.setattr(uvicorn, "run", run)
    return seen


def _kept(seen: dict[str, Any]) -> Journal | None:
    journal: Journal | None = seen["app"].state.journal
    return journal


def _port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_serve_config_keeps_a_journal_beside_arbitre_yaml(
    club: Path, started: dict[str, Any]
) -> None:
    result = runner.invoke(app, ["serve", "--config", str(club), "--port", str(_port())])
    assert result.exit_code == 0, result.output
    journal = _kept(started)
    assert journal is not None and journal.path == club.parent / "journal.sqlite"
    assert journal.frame_width_px == 1280
    assert f"arbitre: journal {journal.path} (0 questions kept)" in result.stdout
    journal.close()


def test_journal_chooses_the_file_and_no_journal_keeps_none(
    club: Path, started: dict[str, Any], tmp_path: Path
) -> None:
    chosen = tmp_path / "evenings" / "tuesday.sqlite"
    chosen.parent.mkdir()
    argv = ["serve", "--config", str(club), "--port", str(_port())]
    result = runner.invoke(app, [*argv, "--journal", str(chosen), "--journal-frame-width", "0"])
    assert result.exit_code == 0, result.output
    journal = _kept(started)
    assert journal is not None and journal.path == chosen and journal.frame_width_px == 0
    journal.close()
    result = runner.invoke(app, [*argv, "--no-journal"])
    assert result.exit_code == 0, result.output
    assert _kept(started) is None
    assert "arbitre: journal" not in result.stdout
    assert not (club.parent / "journal.sqlite").exists()


def test_the_demo_keeps_a_journal_only_when_asked(started: dict[str, Any], tmp_path: Path) -> None:
    result = runner.invoke(app, ["serve", "--demo", "--port", str(_port())])
    assert result.exit_code == 0, result.output
    assert _kept(started) is None
    result = runner.invoke(
        app, ["serve", "--demo", "--port", str(_port()), "--journal", str(tmp_path / "d.sqlite")]
    )
    assert result.exit_code == 0, result.output
    journal = _kept(started)
    assert journal is not None and journal.path == tmp_path / "d.sqlite"
    journal.close()


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (["--journal", "{tmp}/j.sqlite", "--no-journal"], "--journal PATH or --no-journal"),
        (["--journal", "{tmp}"], "a directory, not a journal file"),
        (["--journal", "{tmp}/notes.txt"], "not an arbitre journal"),
        (["--journal", "{tmp}/missing/j.sqlite"], "cannot open the journal"),
        (["--journal-frame-width", "-1"], "--journal-frame-width"),
    ],
)
def test_a_journal_serve_cannot_keep_is_one_line_and_exit_2(
    club: Path, started: dict[str, Any], tmp_path: Path, extra: list[str], says: str
) -> None:
    (tmp_path / "notes.txt").write_text("not a database, far from it " * 40)
    argv = [part.replace("{tmp}", str(tmp_path)) for part in extra]
    code, _, err = run_console("serve", "--config", str(club), "--port", str(_port()), *argv)
    assert code == 2, err
    assert says in err and len(err.strip().splitlines()) == 1
    assert "app" not in started


# --- a kill -9 loses nothing answered a second before ---------------------------------------

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
    port = _port()
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
