"""TUIO 1.1 output: /tuio/2Dobj bundles of the tracked figures, received on a real UDP socket."""

from __future__ import annotations

import logging
import math
import socket
import struct
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pythonosc.osc_bundle import OscBundle
from pythonosc.osc_message import OscMessage
from pythonosc.osc_packet import OscPacket
from pythonosc.parsing import osc_types
from typer.testing import CliRunner

from arbitre.api.cli import app
from arbitre.api.live.demo import DemoSource, demo_setup
from arbitre.api.live.table import LiveTable, TableConfig
from arbitre.api.live.tuio import (
    TuioError,
    TuioSender,
    resolve_target,
    tuio_angle_rad,
    tuio_bundle,
    tuio_messages,
)
from arbitre.vision.tracking import Track
from tests.api.routes.served import Unplugged

PROFILE = "/tuio/2Dobj"
FLOAT32_EPS = 1e-6  # OSC floats are 32-bit: about 7 significant digits


def _track(
    marker: int, x_mm: float, y_mm: float, facing_deg: float, *, stale: bool = False
) -> Track:
    return Track(marker, x_mm, y_mm, 0.1, facing_deg, stale, 0.0, True, 1.0, 1.0)


def _decode(dgram: bytes) -> list[OscMessage]:
    """The messages of one bundle, in the order they were packed."""
    assert OscBundle.dgram_is_bundle(dgram)
    return list(OscBundle(dgram))


def _type_tags(message: OscMessage) -> str:
    _, index = osc_types.get_string(message.dgram, 0)
    tags, _ = osc_types.get_string(message.dgram, index)
    return str(tags)


def _turn_rad(a: float, b: float) -> float:
    """The unsigned angle between two directions, radians in [0, π]."""
    return abs((a - b + math.pi) % (2 * math.pi) - math.pi)


# --- the pure encoder, worked by hand --------------------------------------------------


def test_a_figure_is_its_share_of_the_table_seen_from_above() -> None:
    # 1200 x 900 table. (300, 450) mm: x = 300 / 1200 = 0.25, y = 1 - 450 / 900 = 0.5.
    # (300, 225) mm: y = 1 - 225 / 900 = 0.75 (near the table's origin edge, low on
    # TUIO's picture). Facing 90° (+y, up the picture) turns 270° clockwise from TUIO's
    # +x: a = 3π/2; facing 0° is a = 0.
    messages = tuio_messages(
        {1: _track(17, 300.0, 450.0, 90.0), 2: _track(18, 300.0, 225.0, 0.0)},
        1200.0,
        900.0,
        7,
    )
    assert messages[0] == ("source", "arbitre")
    assert messages[1] == ("alive", 1, 2)
    assert messages[2] == ("set", 1, 17, 0.25, 0.5, 3 * math.pi / 2, 0.0, 0.0, 0.0, 0.0, 0.0)
    assert messages[3] == ("set", 2, 18, 0.25, 0.75, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    assert messages[4] == ("fseq", 7)


def test_corners_of_the_table() -> None:
    # (0, 0) -> (0, 1 - 0) = (0, 1), TUIO's bottom left; (1200, 900) -> (1, 1 - 1) =
    # (1, 0), the top right; (0, 900) -> (0, 0), TUIO's own origin at the top left.
    figures = {
        1: _track(10, 0.0, 0.0, 0.0),
        2: _track(11, 1200.0, 900.0, 0.0),
        3: _track(12, 0.0, 900.0, 0.0),
    }
    sets = [m for m in tuio_messages(figures, 1200.0, 900.0, 1) if m[0] == "set"]
    assert [(m[3], m[4]) for m in sets] == [(0.0, 1.0), (1.0, 0.0), (0.0, 0.0)]


@pytest.mark.parametrize(
    ("facing_deg", "angle_rad"),
    [
        (0.0, 0.0),
        (90.0, 3 * math.pi / 2),  # up the picture
        (180.0, math.pi),
        (270.0, math.pi / 2),  # down the picture, TUIO's +y
        (30.0, 11 * math.pi / 6),  # 360 - 30 = 330° = 11π/6
        (-45.0, math.pi / 4),  # a facing given below 0 wraps the same way
        (720.0, 0.0),
    ],
)
def test_angle_is_clockwise_radians_on_the_picture(facing_deg: float, angle_rad: float) -> None:
    assert tuio_angle_rad(facing_deg) == pytest.approx(angle_rad, abs=1e-12)


@given(st.floats(-1e6, 1e6, allow_nan=False))
def test_angle_stays_in_0_to_2pi_even_as_a_32_bit_float(facing_deg: float) -> None:
    angle_rad = tuio_angle_rad(facing_deg)
    sent = struct.unpack(">f", struct.pack(">f", angle_rad))[0]
    assert 0.0 <= angle_rad < 2 * math.pi
    assert 0.0 <= sent < 2 * math.pi
    # The direction is the facing's, mirrored by TUIO's downward y: (cos a, sin a) =
    # (cos f, -sin f).
    facing_rad = math.radians(facing_deg)
    assert math.cos(angle_rad) == pytest.approx(math.cos(facing_rad), abs=1e-6)
    assert math.sin(angle_rad) == pytest.approx(-math.sin(facing_rad), abs=1e-6)


def test_the_bundle_carries_the_spec_types_in_order() -> None:
    figures = {4: _track(17, 300.0, 450.0, 90.0), 9: _track(30, 600.0, 100.0, 45.0)}
    messages = _decode(tuio_bundle(tuio_messages(figures, 1200.0, 900.0, 12)))
    assert [m.address for m in messages] == [PROFILE] * 5
    assert [m.params[0] for m in messages] == ["source", "alive", "set", "set", "fseq"]
    # s (string) for the command; session and class ids int32; x y a X Y A m r float32.
    assert [_type_tags(m) for m in messages] == [
        ",ss",
        ",sii",
        ",siiffffffff",
        ",siiffffffff",
        ",si",
    ]
    assert messages[1].params == ["alive", 4, 9]
    session, class_id, x, y, angle = messages[3].params[1:6]
    # 600 / 1200 = 0.5; 1 - 100 / 900 = 0.8889; facing 45° -> 315° = 7π/4.
    assert (session, class_id) == (9, 30)
    assert x == pytest.approx(0.5, abs=FLOAT32_EPS)
    assert y == pytest.approx(1 - 100 / 900, abs=FLOAT32_EPS)
    assert angle == pytest.approx(7 * math.pi / 4, abs=FLOAT32_EPS)
    assert messages[3].params[6:] == [0.0] * 5  # no velocities from the tracker
    assert messages[4].params == ["fseq", 12]


def test_an_empty_table_is_an_empty_alive_list() -> None:
    assert tuio_messages({}, 900.0, 600.0, 3) == [("source", "arbitre"), ("alive",), ("fseq", 3)]
    assert tuio_messages({}, 900.0, 600.0, 3, source=None) == [("alive",), ("fseq", 3)]
    assert [m.params for m in _decode(tuio_bundle([("alive",), ("fseq", 3)]))] == [
        ["alive"],
        ["fseq", 3],
    ]


# --- sessions and frames -----------------------------------------------------------


@pytest.fixture
def sender() -> Iterator[TuioSender]:
    # Nothing listens there: these tests only build frames (TuioSender.frame), or
    # replace the client's send.
    tuio = TuioSender("127.0.0.1", 9, 1200.0, 900.0)
    yield tuio
    tuio.close()


def _alive(messages: list[tuple[Any, ...]]) -> dict[int, int]:
    """marker -> session id of the figures sent in one frame."""
    return {m[2]: m[1] for m in messages if m[0] == "set"}


def test_a_figure_keeps_its_session_while_seen_and_gets_a_new_one_back(
    sender: TuioSender,
) -> None:
    a, b = _track(10, 100.0, 100.0, 0.0), _track(11, 500.0, 400.0, 0.0)
    first = sender.frame([a, b])
    assert _alive(first) == {10: 1, 11: 2}
    assert _alive(sender.frame([a, b])) == {10: 1, 11: 2}
    # 11 hidden by a hand: stale, it keeps its place in arbitre but leaves TUIO's alive list.
    hidden = sender.frame([a, _track(11, 500.0, 400.0, 0.0, stale=True)])
    assert _alive(hidden) == {10: 1}
    assert hidden[1] == ("alive", 1)
    # Seen again: a new session, as a tangible lifted and put down; 10 keeps its own.
    assert _alive(sender.frame([a, b])) == {10: 1, 11: 3}
    fseqs = [m[1] for m in sender.frame([a, b]) if m[0] == "fseq"]
    assert fseqs == [5]  # one more each frame


def test_figures_off_the_table_are_not_sent(sender: TuioSender) -> None:
    off = [_track(12, -5.0, 100.0, 0.0), _track(13, 100.0, 901.0, 0.0)]
    on = _track(14, 1200.0, 0.0, 0.0)  # on the edge counts as on the table
    assert _alive(sender.frame([*off, on])) == {14: 1}


def test_a_failed_send_is_logged_once_and_never_raises(
    sender: TuioSender, caplog: pytest.LogCaptureFixture
) -> None:
    # 1000 figures make a bundle of about 76 kB: more than one UDP datagram can carry.
    crowd = [_track(i, float(i % 1200), 450.0, 0.0) for i in range(1000)]
    with caplog.at_level(logging.WARNING, logger="arbitre.api.live.tuio"):
        sender.send(crowd)
        sender.send(crowd)
        assert len(caplog.records) == 1
        assert "TUIO to 127.0.0.1:9 failed" in caplog.records[0].getMessage()
        sender.send(crowd[:3])  # goes through: the next failure is news again
        sender.send(crowd)
    assert len(caplog.records) == 2


def test_the_camera_loop_never_waits_for_a_send_and_the_newest_frame_wins(
    sender: TuioSender,
) -> None:
    sent: list[bytes] = []
    entered, go = threading.Event(), threading.Event()

    def slow_send(content: OscBundle) -> None:
        entered.set()
        go.wait(5)
        sent.append(content.dgram)

    sender._client.send = slow_send  # type: ignore[method-assign]
    frames = [[_track(10 + n, 100.0, 100.0, 0.0)] for n in range(3)]
    sender(frames[0])
    assert entered.wait(5)  # the sender's thread is stuck in the first send ...
    sender(frames[1])  # ... and these return at once,
    sender(frames[2])  # the third replacing the second
    go.set()
    for _ in range(100):
        if len(sent) == 2:
            break
        threading.Event().wait(0.05)
    markers = [[m.params[2] for m in _decode(d) if m.params[0] == "set"] for d in sent]
    assert markers == [[10], [12]]


# --- a live table sending to a real socket ------------------------------------------


@pytest.fixture(scope="module")
def receiver() -> Iterator[socket.socket]:
    listening = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    listening.bind(("127.0.0.1", 0))
    listening.settimeout(10)
    yield listening
    listening.close()


@pytest.fixture(scope="module")
def live(receiver: socket.socket) -> Iterator[tuple[LiveTable, Unplugged]]:
    setup = demo_setup()
    source = Unplugged(DemoSource(move_every_s=1e9))  # nobody walks during the tests
    table = setup.table
    tuio = TuioSender("127.0.0.1", receiver.getsockname()[1], table.width_mm, table.depth_mm)
    config = TableConfig(setup.camera, table, setup.roster, options={"unit_mm": 100})
    yield LiveTable(config, source, on_frame=tuio), source
    tuio.close()


def _step_and_receive(live: LiveTable, receiver: socket.socket) -> tuple[bool, list[OscMessage]]:
    got = live.step()
    packet = OscPacket(receiver.recv(65536))
    return got, [timed.message for timed in packet.messages]


def _sets(messages: list[OscMessage]) -> dict[int, list[Any]]:
    """The set messages by class id (marker)."""
    return {m.params[2]: m.params for m in messages if m.params[0] == "set"}


def test_each_frame_of_the_live_table_is_one_bundle_of_its_figures(
    live: tuple[LiveTable, Unplugged], receiver: socket.socket
) -> None:
    table, _ = live
    roster_markers = {f.marker for f in table.config.roster.figures}
    fseqs, sessions = [], []
    for _ in range(3):
        got, messages = _step_and_receive(table, receiver)
        assert got
        state = table.state()
        assert {m.address for m in messages} == {PROFILE}
        commands = [m.params[0] for m in messages]
        assert commands == ["source", "alive"] + ["set"] * (len(messages) - 3) + ["fseq"]
        assert messages[0].params == ["source", "arbitre"]
        alive = messages[1].params[1:]
        sets = _sets(messages)
        assert alive == [params[1] for params in sets.values()]
        assert len(set(alive)) == len(alive)
        assert set(sets) == roster_markers == {f["marker"] for f in state["figures"]}
        width, depth = state["table"]["width_mm"], state["table"]["depth_mm"]
        for figure in state["figures"]:
            params = sets[figure["marker"]]
            x, y, angle = params[3:6]
            assert 0.0 <= x <= 1.0 and 0.0 <= y <= 1.0
            # The state rounds x_mm, y_mm to 0.01 mm: 0.005 / 600 < 1e-5.
            assert x == pytest.approx(figure["x_mm"] / width, abs=1e-5)
            assert y == pytest.approx(1 - figure["y_mm"] / depth, abs=1e-5)
            assert 0.0 <= angle < 2 * math.pi
            # heading_deg is rounded to 0.1°: 0.05° = 0.00087 rad.
            assert _turn_rad(angle, math.radians(-figure["heading_deg"])) < 1e-3
        fseqs.append(messages[-1].params[1])
        sessions.append({marker: params[1] for marker, params in sets.items()})
    assert fseqs == sorted(set(fseqs))  # strictly increasing
    assert sessions[0] == sessions[1] == sessions[2]  # seen every frame: same sessions


def test_a_lost_camera_empties_the_alive_list_and_figures_come_back_anew(
    live: tuple[LiveTable, Unplugged], receiver: socket.socket
) -> None:
    table, source = live
    _, before = _step_and_receive(table, receiver)
    source.plugged = False
    try:
        got, lost = _step_and_receive(table, receiver)
    finally:
        source.plugged = True
    assert not got
    # arbitre keeps the stale figures in its state; TUIO is told they are gone.
    assert all(f["stale"] for f in table.state()["figures"])
    assert [m.params for m in lost] == [
        ["source", "arbitre"],
        ["alive"],
        ["fseq", lost[-1].params[1]],
    ]
    assert lost[-1].params[1] > before[-1].params[1]
    _, back = _step_and_receive(table, receiver)
    old, new = _sets(before), _sets(back)
    assert set(new) == set(old)
    assert not {p[1] for p in new.values()} & {p[1] for p in old.values()}
    assert back[-1].params[1] > lost[-1].params[1]


def test_the_running_loop_sends_bundles() -> None:
    setup = demo_setup()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as receiver:
        receiver.bind(("127.0.0.1", 0))
        receiver.settimeout(10)
        port = receiver.getsockname()[1]
        tuio = TuioSender("127.0.0.1", port, setup.table.width_mm, setup.table.depth_mm)
        config = TableConfig(setup.camera, setup.table, setup.roster)
        table = LiveTable(config, DemoSource(move_every_s=1e9), on_frame=tuio)
        table.start()
        try:
            bundles = [_decode(receiver.recv(65536)) for _ in range(3)]
        finally:
            table.stop()
            tuio.close()
    assert [b[-1].params for b in bundles] == [["fseq", 1], ["fseq", 2], ["fseq", 3]]
    assert all(len(_sets(b)) == 7 for b in bundles)


# --- the target and the command line ------------------------------------------------


def test_a_target_is_resolved_once() -> None:
    assert resolve_target("localhost:3333")[1] == 3333
    assert resolve_target("localhost:3333")[0] in ("127.0.0.1", "::1")
    assert resolve_target("[::1]:3333") == ("::1", 3333)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("nonsense", "--tuio takes HOST:PORT (e.g. 127.0.0.1:3333), got 'nonsense'"),
        ("127.0.0.1", "--tuio takes HOST:PORT"),
        (":3333", "--tuio takes HOST:PORT"),
        ("127.0.0.1:port", "--tuio takes HOST:PORT"),
        ("127.0.0.1:0", "--tuio port must be 1-65535, got '0'"),
        ("127.0.0.1:65536", "--tuio port must be 1-65535, got '65536'"),
        ("no-such-host.invalid:3333", "--tuio host 'no-such-host.invalid' not found"),
    ],
)
def test_a_bad_tuio_target_exits_2_with_one_line(value: str, message: str) -> None:
    with pytest.raises(TuioError):
        resolve_target(value)
    result = CliRunner().invoke(app, ["serve", "--demo", "--tuio", value])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert result.stdout == ""  # refused before any camera or server starts
