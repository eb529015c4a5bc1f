"""``arbitre serve``: the URL it prints and the host names it answers to (no server is
started: uvicorn.run is replaced by a recorder)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from arbitre.api import hosts
from arbitre.api.cli import app
from arbitre.api.connections import HeadInTime
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
    import socket

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
