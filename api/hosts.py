"""Which host names the server answers to, and the guard that refuses the others.

A page from another site may make the browser send requests to the server: with DNS
rebinding its own name points at this machine, so the request's ``Host`` header names
that site; a WebSocket opened from it carries the site in ``Origin``. Requests are
served only when ``Host`` (and ``Origin``, when present) is a trusted name: the
loopback names, the address served (with ``0.0.0.0`` or ``::``, this machine's
addresses and names), and the names given with ``serve --allowed-host``.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from arbitre.api.bodies import send_detail

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
ALL_INTERFACES = frozenset({"0.0.0.0", "::", ""})
SHOWN_CHARS = 60  # at most this much of a refused name is quoted back

# Routable addresses that are never contacted: a UDP socket "connected" to them only
# asks the system which local address its route would leave from.
_PROBE = {socket.AF_INET: "192.0.2.1", socket.AF_INET6: "2001:db8::1"}


class HostError(ValueError):
    """A name given to ``--allowed-host`` that is not a host name or address."""


def normal_host(name: str) -> str:
    """A host name as compared: lower case, without IPv6 brackets or a trailing dot.

    >>> normal_host("[::1]"), normal_host("Table.Local.")
    ('::1', 'table.local')
    """
    name = name.strip().lower().rstrip(".")
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    return name


def check_host_name(name: str) -> str:
    """``name`` normalised when it is a bare host name or IP address, else `HostError`.

    >>> check_host_name("Arbitre.Local")
    'arbitre.local'
    >>> check_host_name("http://evil.example")
    Traceback (most recent call last):
    ...
    arbitre.api.hosts.HostError: --allowed-host: expected a host name or address \
without scheme, port or path, got 'http://evil.example'
    """
    host = normal_host(name)
    try:
        ipaddress.ip_address(host)
        return host
    except ValueError:
        pass
    labels = host.split(".")
    if (
        not host
        or len(host) > 253
        or not all(0 < len(label) <= 63 for label in labels)
        or not all(c.isalnum() or c in "-_" for label in labels for c in label)
    ):
        raise HostError(
            "--allowed-host: expected a host name or address without scheme, port or "
            f"path, got {name[:SHOWN_CHARS]!r}"
        )
    return host


def host_of_header(value: str) -> str | None:
    """The host part of a ``Host`` header (``name``, ``name:port``, ``[v6]:port``).

    >>> host_of_header("[::1]:8000"), host_of_header("LocalHost:80"), host_of_header("")
    ('::1', 'localhost', None)
    """
    value = value.strip()
    if value.startswith("["):
        end = value.find("]")
        return normal_host(value[1:end]) if end > 1 else None
    host = value.rsplit(":", 1)[0] if value.count(":") == 1 else value
    return normal_host(host) or None


def host_of_origin(value: str) -> str | None:
    """The host of an ``Origin`` header (``scheme://host[:port]``); None for ``null``.

    >>> host_of_origin("http://[::1]:8000"), host_of_origin("null")
    ('::1', None)
    """
    try:
        parts = urlsplit(value.strip())
        host = parts.hostname
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not host:
        return None
    return normal_host(host)


def machine_addresses() -> list[str]:
    """This machine's names and addresses other computers may reach it by (no request
    leaves the machine): the addresses its routes leave from, those of its host name,
    the host name itself and ``NAME.local`` (mDNS)."""
    found: list[str] = []
    for family, probe in _PROBE.items():
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))
                found.append(str(udp.getsockname()[0]))
        except OSError:
            pass
    name = socket.gethostname()
    try:
        found += [str(info[4][0]) for info in socket.getaddrinfo(name, None)]
    except OSError:
        pass
    if name:
        found += [name, f"{name}.local"]
    unique: list[str] = []
    for address in found:
        host = normal_host(address.split("%", 1)[0])  # no IPv6 zone index
        if host and host not in unique and host not in ALL_INTERFACES:
            unique.append(host)
    return unique


def lan_address() -> str | None:
    """The IPv4 address this machine's LAN route leaves from (for a URL to show), if any.

    None when there is no such route or only a loopback one.
    """
    for host in machine_addresses():
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            continue
        if address.version == 4 and not address.is_loopback and not address.is_link_local:
            return host
    return None


def trusted_hosts(served: str, allowed: Iterable[str] = ()) -> frozenset[str]:
    """The names a server listening on ``served`` answers to, with ``allowed`` added.

    >>> sorted(trusted_hosts("127.0.0.1", ["arbitre.club"]))
    ['127.0.0.1', '::1', 'arbitre.club', 'localhost']
    """
    names = set(LOOPBACK) | {check_host_name(name) for name in allowed}
    host = normal_host(served)
    if host in ALL_INTERFACES:
        names |= set(machine_addresses())
    else:
        names.add(host)
    return frozenset(names)


class TrustedHostGuard:
    """ASGI middleware: HTTP 400 when ``Host`` is not trusted (or a request's ``Origin``
    names an untrusted site); a WebSocket from an untrusted ``Origin`` is closed before
    it is accepted (the browser sees HTTP 403)."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str]) -> None:
        self.app = app
        self.hosts = frozenset(normal_host(h) for h in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        problem = self.problem(Headers(scope=scope))
        if problem is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": problem[:120]})
        else:
            await send_detail(send, 400, problem, close=True)

    def problem(self, headers: Headers) -> str | None:
        """Why a request with these headers is refused, or None."""
        raw = headers.get("host", "")
        host = host_of_header(raw)
        if host is None or host not in self.hosts:
            return (
                f"host {raw[:SHOWN_CHARS]!r} is not one this server answers to "
                "(start it with --allowed-host NAME to add a name)"
            )
        origin = headers.get("origin")
        if origin is not None and host_of_origin(origin) not in self.hosts:
            return f"origin {origin[:SHOWN_CHARS]!r} is not a page of this server"
        return None
