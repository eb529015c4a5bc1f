"""Trusted host names: requests for another name and sockets from another site refused."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from arbitre.api import hosts as hosts_module
from arbitre.api.hosts import (
    HostError,
    check_host_name,
    host_of_header,
    host_of_origin,
    trusted_hosts,
)
from arbitre.api.live.demo import DemoSource, demo_setup
from arbitre.api.live.table import LiveTable, TableConfig
from arbitre.api.main import create_app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    setup = demo_setup()
    live = LiveTable(
        TableConfig(setup.camera, setup.table, setup.roster, options={"unit_mm": 100}),
        DemoSource(move_every_s=1e9),
    )
    assert live.step()
    # As `serve --host 127.0.0.1 --allowed-host table.club --allowed-host testserver`
    # (testserver: the name TestClient sends).
    app = create_app(
        live,
        token="t",
        run_loop=False,
        hosts=trusted_hosts("127.0.0.1", ["table.club", "testserver"]),
    )
    with TestClient(app) as test_client:
        yield test_client


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1", "127.0.0.1:8000", "localhost:8000", "LOCALHOST", "[::1]:8000", "table.club"],
)
def test_trusted_names_are_served(client: TestClient, host: str) -> None:
    reply = client.get("/api/health", headers={"host": host})
    assert reply.status_code == 200, reply.text


@pytest.mark.parametrize(
    "host",
    [
        "attacker.example",
        "attacker.example:8000",
        "127.0.0.1.attacker.example",  # a rebinding name that starts like a trusted one
        "localhost.",  # normalised to localhost: trusted, see below
        "table.club.evil",
        "",
        "[::2]:8000",
    ],
)
def test_other_names_are_400_in_one_line(client: TestClient, host: str) -> None:
    reply = client.get("/api/state", headers={"host": host})
    if host == "localhost.":  # the trailing dot of a fully qualified name is the same name
        assert reply.status_code == 200
        return
    assert reply.status_code == 400
    detail = reply.json()["detail"]
    assert "\n" not in detail and len(detail) < 200
    assert "--allowed-host" in detail
    assert "figures" not in reply.text  # no state leaked


def test_a_long_host_is_quoted_only_in_part(client: TestClient) -> None:
    reply = client.get("/api/state", headers={"host": "a" * 5000 + ".example"})
    assert reply.status_code == 400
    assert len(reply.json()["detail"]) < 200


def test_a_post_for_another_name_is_refused_before_its_body_is_used(client: TestClient) -> None:
    reply = client.post(
        "/api/ask",
        json={"question": "groups"},
        headers={"host": "attacker.example"},
    )
    assert reply.status_code == 400


def test_the_websocket_from_the_page_of_this_server_is_served(client: TestClient) -> None:
    with client.websocket_connect(
        "/api/ws", headers={"origin": "http://127.0.0.1:8000", "host": "127.0.0.1:8000"}
    ) as socket_:
        assert len(socket_.receive_json()["figures"]) == 7
    # Tools (not browsers) send no Origin: served as well.
    with client.websocket_connect("/api/ws") as socket_:
        assert "figures" in socket_.receive_json()


def _refusal(client: TestClient, headers: dict[str, str]) -> WebSocketDisconnect:
    """How the server refuses a WebSocket opened with ``headers``; fails the test if the
    socket was accepted (the refusal must come before, at the handshake)."""
    accepted = False
    with pytest.raises(WebSocketDisconnect) as refused:
        with client.websocket_connect("/api/ws", headers=headers):
            accepted = True
    assert not accepted, "the socket was accepted before it was closed"
    return refused.value


@pytest.mark.parametrize(
    "origin", ["http://evil.example", "http://evil.example:8000", "null", "file://", "garbage"]
)
def test_a_websocket_from_another_site_is_refused(client: TestClient, origin: str) -> None:
    refused = _refusal(client, {"origin": origin})
    # TrustedHostGuard: closed with 1008 (policy violation) before it is accepted, its
    # reason the guard's sentence.
    assert refused.code == 1008
    assert refused.reason == f"origin {origin!r} is not a page of this server"


def test_a_websocket_for_another_host_is_refused(client: TestClient) -> None:
    refused = _refusal(client, {"host": "attacker.example", "origin": "http://attacker.example"})
    # The host is checked first: its refusal names the host and the option that adds it
    # (107 characters, whole: a close reason is cut at 120).
    assert refused.code == 1008
    assert refused.reason == (
        "host 'attacker.example' is not one this server answers to "
        "(start it with --allowed-host NAME to add a name)"
    )


def test_a_request_from_another_sites_page_is_refused(client: TestClient) -> None:
    # A form or fetch on evil.example posting to the server: the browser names the page.
    reply = client.post(
        "/api/ask", json={"question": "groups"}, headers={"origin": "https://evil.example"}
    )
    assert reply.status_code == 400
    assert "evil.example" in reply.json()["detail"]


def test_host_headers_are_read_like_browsers_send_them() -> None:
    assert host_of_header("Example.COM:80") == "example.com"
    assert host_of_header("[2001:db8::1]:8000") == "2001:db8::1"
    assert host_of_header("[") is None
    assert host_of_origin("https://Table.Club") == "table.club"
    assert host_of_origin("ws://127.0.0.1") is None  # not a page's origin
    assert host_of_origin("http://[::1") is None  # malformed


@pytest.mark.parametrize("bad", ["http://x.example", "x.example:8000", "a b", "", "a/b", "x..y"])
def test_allowed_host_takes_bare_names_only(bad: str) -> None:
    with pytest.raises(HostError) as error:
        check_host_name(bad)
    assert "--allowed-host" in str(error.value)


def test_allowed_host_takes_addresses_and_names() -> None:
    assert check_host_name("[::1]") == "::1"
    assert check_host_name("192.168.1.20") == "192.168.1.20"
    assert check_host_name("Arbitre.Local.") == "arbitre.local"


def test_a_server_on_one_address_answers_to_it_and_the_loopback_names() -> None:
    assert trusted_hosts("192.168.1.20") == {"192.168.1.20", "127.0.0.1", "localhost", "::1"}


def test_a_server_on_every_interface_answers_to_this_machines_addresses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hosts_module.socket, "gethostname", lambda: "salle")
    monkeypatch.setattr(
        hosts_module.socket,
        "getaddrinfo",
        lambda *_: [(socket.AF_INET, socket.SOCK_DGRAM, 0, "", ("10.1.2.3", 0))],
    )
    names = trusted_hosts("0.0.0.0", ["jeu.club"])
    assert {"10.1.2.3", "salle", "salle.local", "jeu.club", "127.0.0.1", "localhost"} <= names
    assert "0.0.0.0" not in names and "attacker.example" not in names


def test_the_lan_address_is_the_first_routable_ipv4_one(monkeypatch: pytest.MonkeyPatch) -> None:
    found = ["127.0.0.1", "fd00::2", "169.254.3.3", "salle", "192.168.1.4", "10.0.0.9"]
    monkeypatch.setattr(hosts_module, "machine_addresses", lambda: found)
    assert hosts_module.lan_address() == "192.168.1.4"
    monkeypatch.setattr(hosts_module, "machine_addresses", lambda: ["127.0.0.1", "salle"])
    assert hosts_module.lan_address() is None  # serve then shows 127.0.0.1
