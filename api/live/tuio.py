"""TUIO 1.1 output: the figures on the live table as ``/tuio/2Dobj`` objects over UDP.

Tabletop software that speaks TUIO (reacTIVision's clients, TUIO libraries for Unity,
Processing, openFrameworks ...) sees each figure as a tagged object. Every frame the
live table processes, `TuioSender` gives the tracked figures session ids, `tuio_messages`
turns them into one frame's messages (source, alive, one set per figure, fseq) and
`tuio_bundle` packs them into one OSC bundle, sent as one UDP datagram.

Axes: TUIO's (0, 0) is the top-left corner of its picture, y pointing down. The table
is drawn as the web page draws it, seen from above with its origin corner at the
bottom left: ``x = x_mm / width_mm``, ``y = 1 - y_mm / depth_mm``, so the table's
origin is TUIO's (0, 1) and the corner (width_mm, depth_mm) is TUIO's (1, 0). The
angle ``a`` turns from TUIO's +x towards its +y (clockwise on the picture), radians in
[0, 2π): ``a = radians(-facing_deg)`` wrapped, so a figure facing +y (90°, up the
picture) has ``a = 3π/2``.

Ids: the class id is the figure's marker id. A figure gets a new session id when it
enters the alive list and keeps it while it is seen in every frame; a figure not seen
in the latest frame (arbitre's *stale* figures, which keep their last place) or off
the table leaves the alive list, and comes back with a new session id, as a tangible
lifted and put down again does in TUIO. The tracker gives no velocities: X, Y, A, m
and r are always 0.
"""

from __future__ import annotations

import logging
import math
import socket
import threading
from collections.abc import Iterable, Mapping, Sequence

from pythonosc import osc_bundle, osc_bundle_builder, osc_message_builder, udp_client

from arbitre.vision.tracking import Track

PROFILE = "/tuio/2Dobj"
SOURCE = "arbitre"
DEFAULT_PORT = 3333  # the port TUIO clients listen on unless told otherwise
_INT32_MAX = 2**31 - 1
# 2π rounds up to 6.2831855 in the 32-bit float OSC carries: the largest float32 below
# it keeps a sent angle inside [0, 2π).
_MAX_ANGLE_RAD = 6.2831850051879883

TuioArgument = str | int | float
TuioMessage = tuple[TuioArgument, ...]  # the arguments of one /tuio/2Dobj message

log = logging.getLogger(__name__)


class TuioError(ValueError):
    """A TUIO target that cannot be used (malformed, port out of range, unknown host)."""


def tuio_angle_rad(facing_deg: float) -> float:
    """TUIO's angle of a table facing: radians in [0, 2π), clockwise on TUIO's picture.

    >>> tuio_angle_rad(0.0), round(tuio_angle_rad(90.0) / math.pi, 6)
    (0.0, 1.5)
    >>> round(tuio_angle_rad(270.0) / math.pi, 6), round(tuio_angle_rad(-30.0), 6)
    (0.5, 0.523599)
    """
    degrees = -facing_deg % 360.0
    angle_rad = 0.0 if degrees >= 360.0 else math.radians(degrees)
    return min(angle_rad, _MAX_ANGLE_RAD)


def tuio_messages(
    figures: Mapping[int, Track],
    width_mm: float,
    depth_mm: float,
    fseq: int,
    *,
    source: str | None = SOURCE,
) -> list[TuioMessage]:
    """One frame's ``/tuio/2Dobj`` messages, in the order TUIO 1.1 gives them.

    Parameters
    ----------
    figures:
        The figures alive in this frame, by session id; each track's position in table
        mm must lie on the table (``[0, width_mm] x [0, depth_mm]``).
    width_mm, depth_mm:
        The table's size, mm.
    fseq:
        The frame sequence number, increasing from frame to frame.
    source:
        The name in the ``source`` message, or None for no such message.

    Returns
    -------
    list of tuple
        The arguments of each message: ``("source", name)`` when a source is given,
        ``("alive", s...)``, one ``("set", s, i, x, y, a, X, Y, A, m, r)`` per figure,
        then ``("fseq", fseq)``; session ids ascending. Ids are ints, the rest floats
        (see the module's notes for the axes).

    >>> track = Track(17, 300.0, 225.0, 0.1, 90.0, False, 0.0, True, 1.0, 1.0)
    >>> for message in tuio_messages({5: track}, 1200.0, 900.0, 42):
    ...     print(message)
    ('source', 'arbitre')
    ('alive', 5)
    ('set', 5, 17, 0.25, 0.75, 4.71238898038469, 0.0, 0.0, 0.0, 0.0, 0.0)
    ('fseq', 42)
    """
    sessions = sorted(figures)
    messages: list[TuioMessage] = [("source", source)] if source is not None else []
    messages.append(("alive", *map(int, sessions)))
    for session in sessions:
        track = figures[session]
        x = float(track.x_mm) / width_mm
        y = 1.0 - float(track.y_mm) / depth_mm
        angle_rad = tuio_angle_rad(float(track.heading_deg))
        messages.append(
            ("set", int(session), int(track.marker), x, y, angle_rad, 0.0, 0.0, 0.0, 0.0, 0.0)
        )
    messages.append(("fseq", int(fseq)))
    return messages


def tuio_bundle(messages: Iterable[TuioMessage]) -> bytes:
    """The messages as the bytes of one OSC bundle (time tag "immediately"), ints as
    int32, floats as float32, strings as OSC strings."""
    return _bundle(messages).dgram


def _bundle(messages: Iterable[TuioMessage]) -> osc_bundle.OscBundle:
    bundle = osc_bundle_builder.OscBundleBuilder(osc_bundle_builder.IMMEDIATELY)
    for arguments in messages:
        message = osc_message_builder.OscMessageBuilder(address=PROFILE)
        for argument in arguments:
            if isinstance(argument, str):
                message.add_arg(argument, message.ARG_TYPE_STRING)
            elif isinstance(argument, int):
                message.add_arg(argument, message.ARG_TYPE_INT)
            else:
                message.add_arg(argument, message.ARG_TYPE_FLOAT)
        bundle.add_content(message.build())
    return bundle.build()


def resolve_target(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[v6 address]:PORT`` for IPv6) as the IP address and port to send to.

    The host is looked up once, here, so that sending never waits for a name server.
    Raises TuioError when the text is not HOST:PORT, the port is not 1-65535 or the
    host is unknown.

    >>> resolve_target("127.0.0.1:3333")
    ('127.0.0.1', 3333)
    >>> resolve_target("localhost")
    Traceback (most recent call last):
    ...
    arbitre.api.live.tuio.TuioError: --tuio takes HOST:PORT (e.g. 127.0.0.1:3333), got 'localhost'
    """
    host, colon, port_text = text.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not colon or not host or not port_text.isdigit():
        raise TuioError(f"--tuio takes HOST:PORT (e.g. 127.0.0.1:{DEFAULT_PORT}), got {text!r}")
    port = int(port_text)
    if not 1 <= port <= 65535:
        raise TuioError(f"--tuio port must be 1-65535, got {port_text!r}")
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_DGRAM)
    except (OSError, UnicodeError) as error:
        raise TuioError(f"--tuio host {host!r} not found ({error})") from None
    return str(found[0][4][0]), port


class TuioSender:
    """Sends each frame's figures as one TUIO bundle over UDP: a `LiveTable` ``on_frame``.

    Calling the sender only hands the frame's tracks to its own thread and returns: the
    camera loop never waits for a bundle to be built or sent. When frames come faster
    than they go out, the thread sends the newest and skips the others (fseq counts the
    bundles sent). ``host`` is an IP address (see `resolve_target`). Sending never
    raises: a failure is logged once, and again only after a bundle went through.
    """

    def __init__(
        self,
        host: str,
        port: int,
        width_mm: float,
        depth_mm: float,
        *,
        source: str | None = SOURCE,
    ) -> None:
        self.target = (host, port)
        self.width_mm = width_mm
        self.depth_mm = depth_mm
        self.source = source
        self._client = udp_client.UDPClient(host, port)
        self._sessions: dict[int, int] = {}  # marker -> session id, for the figures alive
        self._last_session = 0
        self._fseq = 0
        self._failing = False
        self._ready = threading.Condition()
        self._pending: tuple[Track, ...] | None = None  # the newest frame not yet sent
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="tuio-sender", daemon=True)
        self._thread.start()

    def __call__(self, tracks: Sequence[Track]) -> None:
        """Have the frame of these tracks sent (it replaces a frame still waiting)."""
        with self._ready:
            self._pending = tuple(tracks)
            self._ready.notify()

    def frame(self, tracks: Sequence[Track]) -> list[TuioMessage]:
        """The next frame's messages: session ids kept or given, fseq one more (no I/O)."""
        alive: dict[int, Track] = {}
        sessions: dict[int, int] = {}
        for track in tracks:
            on_table = 0.0 <= track.x_mm <= self.width_mm and 0.0 <= track.y_mm <= self.depth_mm
            if track.stale or not on_table:
                continue
            session = self._sessions.get(track.marker)
            if session is None:
                self._last_session = self._last_session % _INT32_MAX + 1
                session = self._last_session
            sessions[track.marker] = session
            alive[session] = track
        self._sessions = sessions
        self._fseq = self._fseq % _INT32_MAX + 1
        return tuio_messages(alive, self.width_mm, self.depth_mm, self._fseq, source=self.source)

    def send(self, tracks: Sequence[Track]) -> None:
        """Build the next frame's bundle and send it now, in the caller's thread."""
        try:
            self._client.send(_bundle(self.frame(tracks)))
        except (OSError, osc_message_builder.BuildError, osc_bundle_builder.BuildError) as error:
            if not self._failing:
                log.warning("TUIO to %s:%d failed (%s); still trying", *self.target, error)
            self._failing = True
        else:
            self._failing = False

    def close(self) -> None:
        """Stop the thread (a frame still waiting is not sent) and close the socket."""
        with self._ready:
            self._closed = True
            self._ready.notify()
        self._thread.join(timeout=5)
        self._client.close()

    def _run(self) -> None:
        while True:
            with self._ready:
                while self._pending is None and not self._closed:
                    self._ready.wait()
                tracks, self._pending = self._pending, None
                if self._closed or tracks is None:
                    return
            self.send(tracks)


__all__ = [
    "TuioError",
    "TuioSender",
    "resolve_target",
    "tuio_angle_rad",
    "tuio_bundle",
    "tuio_messages",
]
