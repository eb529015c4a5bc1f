"""``arbitre serve``: the URL it prints, the host names it answers to and the game journal
it keeps (no server is started: uvicorn.run is replaced by a recorder)."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from arbitre.api import hosts
from arbitre.api.cli import app
from arbitre.api.connections import HeadInTime
from arbitre.api.live.journal import Journal
from arbitre.vision.simulate import Render
from tests.api.cli.invoke import run
from tests.api.ports import free_port
from tests.api.simulated_club import write_club
from tests.console import run_console

runner = CliRunner()


@pytest.fixture()
def started(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What uvicorn.run was given; this machine is 10.1.2.3, named salle."""
    import uvicorn

    seen: dict[str, Any] = {}

    def run(application: Any, **options: Any) -> None:
        seen["app"], seen["options"] = application, options

    monkeypatch.setattr(uvicorn, "run", run)
    monkeypatch.setattr(hosts, "machine_addresses", lambda: ["10.1.2.3", "salle", "salle.local"])
    return seen


def _status(application: Any, host: str) -> int:
    return TestClient(application).get("/api/health", headers={"host": host}).status_code


def test_serving_on_every_interface_prints_the_lan_address(started: dict[str, Any]) -> None:
    result = runner.invoke(app, ["serve", "--demo", "--host", "0.0.0.0", "--port", "8123"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].endswith("on http://10.1.2.3:8123/ (API docs /docs)")
    assert lines[1].startswith("arbitre: to change settings, open http://10.1.2.3:8123/?token=")
    assert "127.0.0.1" not in result.stdout
    assert started["options"]["host"] == "0.0.0.0"
    assert started["options"]["ws_max_size"] == 65_536  # clients only listen
    assert started["options"]["http"] is HeadInTime  # a slow request head loses its connection
    # Phones open it by the address or the machine's name; another name is refused.
    assert _status(started["app"], "10.1.2.3:8123") == 200
    assert _status(started["app"], "salle.local:8123") == 200
    assert _status(started["app"], "localhost:8123") == 200
    assert _status(started["app"], "evil.example:8123") == 400


def test_allowed_host_names_are_answered_to(started: dict[str, Any]) -> None:
    result = runner.invoke(
        app,
        ["serve", "--demo", "--allowed-host", "Table.Club", "--allowed-host", "192.168.5.5"],
    )
    assert result.exit_code == 0, result.output
    assert "on http://127.0.0.1:8000/" in result.stdout  # served on the loopback only
    assert _status(started["app"], "table.club") == 200
    assert _status(started["app"], "192.168.5.5:8000") == 200
    assert _status(started["app"], "10.1.2.3") == 400  # not served on that address


def test_a_bad_allowed_host_is_one_line_and_exit_2(started: dict[str, Any]) -> None:
    result = runner.invoke(app, ["serve", "--demo", "--allowed-host", "http://table.club/"])
    assert result.exit_code == 2
    assert result.stderr.strip().count("\n") == 0
    assert "--allowed-host: expected a host name or address" in result.stderr
    assert "app" not in started  # never started


def test_an_ipv6_address_is_bracketed_in_the_url(started: dict[str, Any]) -> None:
    result = runner.invoke(app, ["serve", "--demo", "--host", "::1"])
    assert result.exit_code == 0, result.output
    assert "on http://[::1]:8000/" in result.stdout
    assert _status(started["app"], "[::1]:8000") == 200


def test_a_port_taken_is_one_line_and_exit_2_before_the_table_starts(
    started: dict[str, Any],
) -> None:

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = run_console("serve", "--demo", "--port", str(port))
    assert code == 2
    assert out == ""  # no URL printed for a server that cannot start
    assert err == (
        f"arbitre: cannot listen on 127.0.0.1:{port} (Address already in use): another server "
        f"uses it; try --port {port + 1}\n"
    )
    assert "app" not in started


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--port", "70000"], "--port"),
        (["--port", "0"], "--port"),
        (["--camera-index", "-5"], "--camera-index"),  # OpenCV crashes on a negative one
        (["--demo", "--host", "999.1.1.1"], "cannot listen on 999.1.1.1:8000"),
    ],
)
def test_a_bad_address_or_camera_is_one_line_and_exit_2(
    started: dict[str, Any], argv: list[str], says: str
) -> None:
    code, out, err = run_console("serve", *argv)
    assert code == 2, err
    assert says in err and len(err.splitlines()) == 1
    assert "app" not in started


def test_serve_without_a_source_or_config_says_what_to_do() -> None:
    code, _, err = run("serve")
    assert code == 2
    assert "--demo" in err


@pytest.fixture()
def club(tmp_path: Path) -> Path:
    """arbitre.yaml of a simulated table (four figures), fed by a folder of one frame."""
    folder = tmp_path / "club"
    folder.mkdir()
    return write_club(folder)[0]


def _kept(seen: dict[str, Any]) -> Journal | None:
    journal: Journal | None = seen["app"].state.journal
    return journal


def test_serve_config_keeps_a_journal_beside_arbitre_yaml(
    club: Path, started: dict[str, Any]
) -> None:
    result = runner.invoke(app, ["serve", "--config", str(club), "--port", str(free_port())])
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
    argv = ["serve", "--config", str(club), "--port", str(free_port())]
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
    result = runner.invoke(app, ["serve", "--demo", "--port", str(free_port())])
    assert result.exit_code == 0, result.output
    assert _kept(started) is None
    result = runner.invoke(
        app,
        ["serve", "--demo", "--port", str(free_port()), "--journal", str(tmp_path / "d.sqlite")],
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
    code, _, err = run_console("serve", "--config", str(club), "--port", str(free_port()), *argv)
    assert code == 2, err
    assert says in err and len(err.strip().splitlines()) == 1
    assert "app" not in started


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Render]:
    """arbitre.yaml, camera/table/roster files and a folder with one frame of a table."""
    return write_club(tmp_path_factory.mktemp("club"))


def test_serve_warns_of_roster_figures_without_a_height(
    table: tuple[Path, Render], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # figure 10's marker sits 23.4 mm up; a roster that forgets it places the marker as if
    # it lay on the table: serve says so when it starts.
    import shutil
    import socket

    import uvicorn

    config, _ = table
    club = tmp_path / "club"
    shutil.copytree(config.parent, club)
    roster = club / "roster.yaml"
    roster.write_text(roster.read_text().replace("  marker_height_mm: 23.4\n", "", 1))
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = runner.invoke(
        app, ["serve", "--config", str(club / "arbitre.yaml"), "--port", str(port)]
    )
    assert result.exit_code == 0, result.stderr
    warnings = [line for line in result.stdout.splitlines() if "warning" in line]
    assert warnings == [
        "arbitre: warning: no marker_height_mm in the roster for figure 10: their markers are"
        " placed as if lying on the table (a marker on a head then lands tens of mm off)"
    ]


def test_a_camera_that_gives_no_picture_says_what_to_check(
    table: tuple[Path, Render], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No webcam 9 on this machine: serve starts (the camera is tried again every few
    # seconds) but says so, and what to check; snapshot stops with the same advice.
    import socket

    import uvicorn

    config, _ = table
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    served = runner.invoke(
        app, ["serve", "--config", str(config), "--camera-index", "9", "--port", str(port)]
    )
    assert served.exit_code == 0, served.stderr
    assert "arbitre: warning: camera 9 gives no picture yet (is it plugged in" in served.stdout
    snapped = runner.invoke(
        app,
        ["snapshot", "--config", str(config), "--camera-index", "9", "--frames", "1"]
        + ["--out", str(tmp_path / "scene.yaml")],
    )
    assert snapped.exit_code == 2
    assert snapped.stderr.startswith("arbitre: camera 9: no frame (is it plugged in")
