"""The commands that write files: never over a user's file without --force, never half a
file, never something the file's own reader refuses (``table init``, ``calibrate camera``,
``print``, ``snapshot``)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import cv2
import numpy as np
import pytest
import yaml
from typer.testing import CliRunner

from arbitre.api.cli import app
from arbitre.calibration.camera import load_camera
from arbitre.calibration.table import load_table
from arbitre.rules.scene import load_scene
from arbitre.vision.simulate import Camera, look_at, render_plane

ROOT = Path(__file__).resolve().parents[2]
SCENE = yaml.safe_load((ROOT / "examples" / "cb6-skirmish.yaml").read_text(encoding="utf-8"))
HAND_CORRECTED = "# measured with a tape: anchor 1 is 2 mm off\nwidth_mm: 1200\n"


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _refused(path: Path) -> str:
    return f"arbitre: {path}: already exists; pass --force to overwrite it\n"


def _disk_full(_descriptor: int) -> None:
    raise OSError(28, "No space left on device")


# --- table init ------------------------------------------------------------------------------


def test_table_init_keeps_a_hand_corrected_table_unless_forced(tmp_path: Path) -> None:
    table, sheet = tmp_path / "table.yaml", tmp_path / "table-anchors.pdf"
    size = ("--width-mm", "1200", "--depth-mm", "900", "--out", str(table))
    code, stdout, stderr = _run("table", "init", *size)
    assert code == 0, stderr
    assert stdout.startswith(f"{table}: 1200 x 900 mm table")
    assert sheet.read_bytes().startswith(b"%PDF-")

    table.write_text(HAND_CORRECTED, encoding="utf-8")
    code, stdout, stderr = _run("table", "init", *size)
    assert (code, stdout, stderr) == (2, "", _refused(table))
    assert table.read_text(encoding="utf-8") == HAND_CORRECTED

    code, _, stderr = _run("table", "init", *size, "--force")
    assert code == 0, stderr
    assert load_table(table).width_mm == 1200


def test_a_club_table_gets_anchors_at_the_middles_of_its_long_edges(tmp_path: Path) -> None:
    # 6 x 4 ft: 1830 x 1220 mm, 1.5 m long or more, so two more anchors by default, at
    # (1830 / 2, 35) and (1830 / 2, 1220 - 35); --anchors 4 keeps the corners alone.
    size = ("--width-mm", "1830", "--depth-mm", "1220")
    code, stdout, stderr = _run("table", "init", *size, "--out", str(tmp_path / "club.yaml"))
    assert code == 0, stderr
    assert "4-5 at the middles of the long edges" in stdout
    anchors = load_table(tmp_path / "club.yaml").anchors
    assert [(a.id, a.x_mm, a.y_mm) for a in anchors][4:] == [(4, 915, 35), (5, 915, 1185)]
    code, _, stderr = _run(
        "table", "init", *size, "--anchors", "4", "--out", str(tmp_path / "four.yaml")
    )
    assert code == 0, stderr
    assert len(load_table(tmp_path / "four.yaml").anchors) == 4
    code, _, stderr = _run("table", "init", *size, "--anchors", "5", "--out", str(tmp_path / "x"))
    assert code == 2 and stderr == "arbitre: --anchors takes 4 or 6, not 5\n"
    assert not (tmp_path / "x").exists()


def test_table_init_checks_the_sheet_too_before_writing_anything(tmp_path: Path) -> None:
    table, sheet = tmp_path / "table.yaml", tmp_path / "anchors.svg"
    sheet.write_text("<svg/>", encoding="utf-8")
    code, _, stderr = _run(
        "table", "init", "--width-mm", "600", "--depth-mm", "600",
        "--out", str(table), "--sheet", str(sheet),
    )  # fmt: skip
    assert (code, stderr) == (2, _refused(sheet))
    assert not table.exists()  # nothing written: the table.yaml did not exist before
    assert sheet.read_text(encoding="utf-8") == "<svg/>"


@pytest.mark.parametrize(
    ("table", "sheet", "says"),
    [
        (
            "table.yaml",
            "anchors.png",
            "anchors.png: write the anchor sheet as a .pdf file (it has two pages)",
        ),
        ("table.pdf", "table.pdf", "table.pdf: the sheet and table.yaml must be two files"),
    ],
)
def test_table_init_with_a_sheet_it_cannot_write_writes_nothing(
    tmp_path: Path, table: str, sheet: str, says: str
) -> None:
    code, _, stderr = _run(
        "table", "init", "--width-mm", "1200", "--depth-mm", "900",
        "--out", str(tmp_path / table), "--sheet", str(tmp_path / sheet),
    )  # fmt: skip
    assert code == 2 and says in stderr, stderr
    assert list(tmp_path.iterdir()) == []


def test_table_init_on_a_full_disk_leaves_no_sheet_without_its_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arbitre.calibration import setup

    def full(*_args: object, **_keywords: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(setup, "write_table", full)
    code, _, stderr = _run(
        "table", "init", "--width-mm", "1200", "--depth-mm", "900",
        "--out", str(tmp_path / "table.yaml"),
    )  # fmt: skip
    assert code == 2 and "No space left on device" in stderr
    assert list(tmp_path.iterdir()) == []


def test_table_init_with_a_bad_dictionary_writes_nothing(tmp_path: Path) -> None:
    table = tmp_path / "table.yaml"
    code, _, stderr = _run(
        "table", "init", "--width-mm", "1200", "--depth-mm", "900", "--out", str(table),
        "--dictionary", "DICT_9X9_1",
    )  # fmt: skip
    assert code == 2 and "unknown ArUco dictionary 'DICT_9X9_1'" in stderr
    assert stderr.count("\n") == 1 and "Traceback" not in stderr
    assert list(tmp_path.iterdir()) == []


# --- print -----------------------------------------------------------------------------------


def test_print_keeps_an_existing_sheet_unless_forced(tmp_path: Path) -> None:
    sheet = tmp_path / "markers.svg"
    sheet.write_text("<svg>mine</svg>", encoding="utf-8")
    markers = ("print", "markers", "--ids", "1-3", "--size-mm", "20", "--out", str(sheet))
    assert _run(*markers)[0::2] == (2, _refused(sheet))
    assert sheet.read_text(encoding="utf-8") == "<svg>mine</svg>"
    code, _, stderr = _run(*markers, "--force")
    assert code == 0, stderr
    assert "1 DICT_4X4_250 20 mm" in sheet.read_text(encoding="utf-8")

    board = tmp_path / "board.yaml"
    board.write_text("type: chessboard\nsquares_x: 5\nsquares_y: 4\nsquare_mm: 30\n")
    out = tmp_path / "board.pdf"
    out.write_bytes(b"%PDF- mine")
    assert _run("print", "board", str(board), "--out", str(out))[0::2] == (2, _refused(out))
    assert out.read_bytes() == b"%PDF- mine"
    assert _run("print", "board", str(board), "--out", str(out), "--force")[0] == 0
    assert out.read_bytes() != b"%PDF- mine"


# --- calibrate camera ------------------------------------------------------------------------


def _chessboard_photo(folder: Path, name: str, offset: tuple[float, float]) -> Path:
    """A 10 x 7 chessboard of 30 mm squares seen by a 640 x 480 camera (fx = fy = 600 px)
    from 480 mm, moved ``offset`` mm sideways: the board is tilted towards the camera."""
    px_per_mm, side = 4, 30 * 4
    flat = np.full((7 * side, 10 * side), 255, np.uint8)
    for j in range(7):
        for i in range(10):
            if (i + j) % 2 == 0:
                flat[j * side : (j + 1) * side, i * side : (i + 1) * side] = 0
    flat = cv2.copyMakeBorder(flat, 80, 80, 80, 80, cv2.BORDER_CONSTANT, value=255)
    matrix = np.array([[600.0, 0.0, 319.5], [0.0, 600.0, 239.5], [0.0, 0.0, 1.0]])
    target = np.array([170.0, 125.0, 0.0])
    rvec, tvec = look_at(target + [offset[0], offset[1], -480.0], target, up=(0.1, -1.0, 0.0))
    image = render_plane(Camera(matrix, np.zeros(5), (640, 480), rvec, tvec), flat, 1 / px_per_mm)
    path = folder / name
    cv2.imwrite(str(path), image)
    return path


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("shots")
    offsets = [(-120, -60), (110, -50), (-90, 80), (100, 90)]
    return [_chessboard_photo(folder, f"shot{i}.png", xy) for i, xy in enumerate(offsets)]


@pytest.fixture
def board(tmp_path: Path) -> Path:
    path = tmp_path / "board.yaml"
    path.write_text("type: chessboard\nsquares_x: 10\nsquares_y: 7\nsquare_mm: 30\n")
    return path


def test_calibrate_camera_keeps_a_camera_unless_forced(
    tmp_path: Path, shots: list[Path], board: Path
) -> None:
    out = tmp_path / "camera.yaml"
    out.write_text("a good camera\n", encoding="utf-8")
    args = ("calibrate", "camera", *map(str, shots), "--board", str(board), "--out", str(out))
    assert _run(*args)[0::2] == (2, _refused(out))
    assert out.read_text(encoding="utf-8") == "a good camera\n"
    code, _, stderr = _run(*args, "--force")
    assert code == 0, stderr
    assert load_camera(out).fx == pytest.approx(600.0, rel=0.05)


def test_three_identical_photos_are_an_error_and_write_nothing(
    tmp_path: Path, shots: list[Path], board: Path
) -> None:
    out = tmp_path / "camera.yaml"
    out.write_text("a good camera\n", encoding="utf-8")
    copies = []
    for name in ("a.png", "b.png", "c.png"):
        copies.append(tmp_path / name)
        copies[-1].write_bytes(shots[0].read_bytes())
    code, stdout, stderr = _run(
        "calibrate", "camera", *map(str, copies), "--board", str(board), "--out", str(out),
        "--force",
    )  # fmt: skip
    same = f"the same view as {copies[0]} (every corner within 2 px)"
    assert (code, stdout) == (2, "")
    assert stderr == (
        f"arbitre: only 1 of 3 images can be used (need 3); rejected {copies[1]}: {same}; "
        f"{copies[2]}: {same}\n"
    )
    assert out.read_text(encoding="utf-8") == "a good camera\n"


# --- snapshot --------------------------------------------------------------------------------


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
    code, stdout, stderr = _run("snapshot", "--server", f"{server}/good", "--out", str(out))
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
    code, stdout, stderr = _run(
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
    assert _run(*args)[0::2] == (2, _refused(out))
    assert out.read_text(encoding="utf-8") == "the scene of last week\n"
    assert _run(*args, "--force")[0] == 0
    assert len(load_scene(out).figures) == len(SCENE["figures"])


def test_an_interrupted_snapshot_leaves_the_old_scene_whole(
    server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "scene.yaml"
    out.write_text("the scene of last week\n", encoding="utf-8")
    monkeypatch.setattr("arbitre.files.os.fsync", _disk_full)
    code, _, stderr = _run("snapshot", "--server", f"{server}/good", "--out", str(out), "--force")
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
    code, _, stderr = _run("snapshot", "--server", f"{server}/trickle", "--out", str(out))
    assert (code, stderr) == (2, f"arbitre: {server}/trickle/api/scene: no scene within 1 s\n")
    assert not out.exists()


def test_snapshot_of_something_not_a_server_is_one_line(tmp_path: Path) -> None:
    code, _, stderr = _run("snapshot", "--server", "ftp://example", "--out", str(tmp_path / "s"))
    assert code == 2
    assert stderr == (
        "arbitre: ftp://example: expected a server address such as http://127.0.0.1:8000\n"
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["print", "markers", "--ids", "1", "--size-mm", "15", "--force", "--out"],
        ["snapshot", "--demo", "--frames", "1", "--force", "--out"],
    ],
)
def test_a_folder_given_as_the_file_to_write_is_said_to_be_one(
    tmp_path: Path, argv: list[str]
) -> None:
    code, stdout, stderr = _run(*argv, str(tmp_path))
    assert (code, stdout, stderr) == (
        2,
        "",
        f"arbitre: {tmp_path}: a directory; give a file name\n",
    )
    assert list(tmp_path.iterdir()) == []


def test_an_anchor_over_the_table_edge_says_which_inset_fits(tmp_path: Path) -> None:
    # 100 mm anchors with the default 35 mm inset would hang 15 mm over the edge: the
    # message names the option and the smallest inset that fits (half the anchor).
    code, stdout, stderr = _run(
        "table", "init", "--width-mm", "1200", "--depth-mm", "900", "--anchor-size-mm", "100",
        "--out", str(tmp_path / "table.yaml"),
    )  # fmt: skip
    assert code == 2 and stdout == ""
    assert stderr == (
        "arbitre: inset 35 mm would put a 100 mm anchor over the table's edge"
        " (--inset-mm 50 or more)\n"
    )
    assert not list(tmp_path.iterdir())
