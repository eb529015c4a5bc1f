"""``arbitre snapshot``: the live table, or a running server's, saved as a scene file."""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import cv2
import pytest
import yaml
from typer.testing import CliRunner

from arbitre.api.cli import app
from arbitre.rules.scene import load_scene
from arbitre.vision.simulate import Render
from tests.api.cli.invoke import disk_full, refused, run
from tests.api.simulated_club import add_second_camera, placed_as_rendered, write_club

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "cb6-skirmish.yaml"
SCENE = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
runner = CliRunner()


def test_snapshot_of_the_demo_table_is_a_scene_ask_reads(tmp_path: Path) -> None:
    scene = tmp_path / "scene.yaml"
    code, out, _ = run("snapshot", "--demo", "--frames", "3", "--out", str(scene))
    assert code == 0
    assert out.strip() == f"{scene}: 7 figures"
    code, out, _ = run("ask", str(scene), "groups", "--json")
    assert code == 0
    assert len(json.loads(out)["groups"]) == 7  # every demo figure leads a group


class _Handler(BaseHTTPRequestHandler):
    """``/good/api/scene``: a scene; ``/other/api/scene``: other JSON; ``/page/api/scene``:
    a web page; ``/trickle/api/scene``: a byte now and then; anything else: 404."""

    answers = {
        "/good/api/scene": ("application/json", json.dumps(SCENE).encode()),
        "/other/api/scene": ("application/json", b'{"status": "ok", "frame": 12}'),
        "/page/api/scene": ("text/html", b"<html><body>router admin</body></html>"),
    }

    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        if self.path == "/trickle/api/scene":  # a byte every 0.2 s of a 60-byte answer
            self.send_response(200)
            self.send_header("Content-Length", "60")
            self.end_headers()
            try:
                for _ in range(60):
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(0.2)
            except OSError:
                pass
            return
        kind, body = self.answers.get(self.path, ("application/json", b""))
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_snapshot_from_a_server_writes_the_scene_it_gave(server: str, tmp_path: Path) -> None:
    out = tmp_path / "scene.yaml"
    code, stdout, stderr = run("snapshot", "--server", f"{server}/good", "--out", str(out))
    assert code == 0, stderr
    assert stdout == f"{out}: {len(SCENE['figures'])} figures\n"
    assert [f.id for f in load_scene(out).figures] == [f["id"] for f in SCENE["figures"]]


@pytest.mark.parametrize(
    ("route", "problem"),
    [
        ("other", "the answer is not a scene (ruleset: "),
        ("page", "the answer is not JSON; is this an arbitre server?"),
        ("nothing", "no scene (HTTP 404 Not Found)"),
    ],
)
def test_snapshot_from_a_wrong_route_leaves_the_file(
    server: str, tmp_path: Path, route: str, problem: str
) -> None:
    out = tmp_path / "scene.yaml"
    out.write_text("the scene of last week\n", encoding="utf-8")
    code, stdout, stderr = run(
        "snapshot", "--server", f"{server}/{route}", "--out", str(out), "--force"
    )
    assert (code, stdout) == (2, "")
    assert stderr.startswith(f"arbitre: {server}/{route}/api/scene: {problem}")
    assert stderr.count("\n") == 1 and "Traceback" not in stderr
    assert out.read_text(encoding="utf-8") == "the scene of last week\n"


def test_snapshot_keeps_an_existing_scene_unless_forced(server: str, tmp_path: Path) -> None:
    out = tmp_path / "scene.yaml"
    out.write_text("the scene of last week\n", encoding="utf-8")
    args = ("snapshot", "--server", f"{server}/good", "--out", str(out))
    assert run(*args)[0::2] == (2, refused(out))
    assert out.read_text(encoding="utf-8") == "the scene of last week\n"
    assert run(*args, "--force")[0] == 0
    assert len(load_scene(out).figures) == len(SCENE["figures"])


def test_an_interrupted_snapshot_leaves_the_old_scene_whole(
    server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "scene.yaml"
    out.write_text("the scene of last week\n", encoding="utf-8")
    monkeypatch.setattr("arbitre.files.os.fsync", disk_full)
    code, _, stderr = run("snapshot", "--server", f"{server}/good", "--out", str(out), "--force")
    assert (code, stderr) == (
        2,
        f"arbitre: {out}: cannot write the file (No space left on device)\n",
    )
    assert out.read_text(encoding="utf-8") == "the scene of last week\n"
    assert [p.name for p in tmp_path.iterdir()] == ["scene.yaml"]


def test_snapshot_from_a_server_that_trickles_gives_up_in_time(
    server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arbitre.api.cli import snapshot

    monkeypatch.setattr(snapshot, "SERVER_DEADLINE_S", 1.0)  # each byte comes well within 10 s
    out = tmp_path / "scene.yaml"
    # The whole answer takes 12 s; only the deadline gives this line.
    code, _, stderr = run("snapshot", "--server", f"{server}/trickle", "--out", str(out))
    assert (code, stderr) == (2, f"arbitre: {server}/trickle/api/scene: no scene within 1 s\n")
    assert not out.exists()


def test_snapshot_of_something_not_a_server_is_one_line(tmp_path: Path) -> None:
    code, _, stderr = run("snapshot", "--server", "ftp://example", "--out", str(tmp_path / "s"))
    assert code == 2
    assert stderr == (
        "arbitre: ftp://example: expected a server address such as http://127.0.0.1:8000\n"
    )


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Render]:
    """arbitre.yaml, camera/table/roster files and a folder with one frame of a table."""
    return write_club(tmp_path_factory.mktemp("club"))


def test_snapshot_from_the_configured_source(table: tuple[Path, Render], tmp_path: Path) -> None:
    config, render = table
    out = tmp_path / "scene.yaml"
    result = runner.invoke(
        app, ["snapshot", "--config", str(config), "--frames", "3", "--out", str(out)]
    )
    assert result.exit_code == 0, result.stderr
    placed_as_rendered(out, render, 0.5)
    # The saved scene is one `arbitre ask` reads.
    answer = runner.invoke(app, ["ask", str(out), "groups"])
    assert answer.exit_code == 0


def test_snapshot_of_frames_without_the_table_writes_nothing(
    table: tuple[Path, Render], tmp_path: Path
) -> None:
    config, render = table
    blank = tmp_path / "blank"
    blank.mkdir()
    cv2.imwrite(str(blank / "0001.png"), render.image * 0 + 128)  # a grey frame, no anchor
    out = tmp_path / "scene.yaml"
    argv = ["snapshot", "--config", str(config), "--folder", str(blank), "--out", str(out)]
    result = runner.invoke(app, [*argv, "--frames", "3"])
    assert result.exit_code == 2
    assert "the table was not found in 3 frames" in result.stderr
    assert not out.exists()


@pytest.fixture(scope="module")
def two_cameras(table: tuple[Path, Render]) -> tuple[Path, Render, Render]:
    """The same table seen also from its opposite edge: arbitre.yaml with ``cameras:``."""
    path, second = add_second_camera(table[0])
    return path, table[1], second


def test_snapshot_from_two_cameras_fuses_what_each_saw(
    two_cameras: tuple[Path, Render, Render], tmp_path: Path
) -> None:
    config, first, second = two_cameras
    out = tmp_path / "scene.yaml"
    result = runner.invoke(
        app, ["snapshot", "--config", str(config), "--frames", "3", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    scene = yaml.safe_load(out.read_text())
    figures = {f["id"]: f for f in scene["figures"]}
    visible = {i for i in (*first.visible_ids(), *second.visible_ids()) if i >= 10}
    assert {f"figure {i}" for i in visible} == set(figures)
    for marker in visible:
        truth = first.truth[marker].centre_mm
        placed = figures[f"figure {marker}"]
        assert math.hypot(placed["x_mm"] - truth[0], placed["y_mm"] - truth[1]) < 1.0
    assert "0:pose_rx" in scene["shared_errors"] and "1:pose_rx" in scene["shared_errors"]
