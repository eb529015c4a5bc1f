"""The built-in demo table: a simulated camera over a Choc Base 6 skirmish."""

from __future__ import annotations

from arbitre.api.live.demo import DemoSource


def test_the_demo_camera_says_when_its_frames_come_round_again() -> None:
    # A still picture with three noise patterns: the first three frames are new, the
    # fourth is the first again; a figure that walks makes a new picture.
    demo = DemoSource(move_every_s=1e9)
    seen = []
    for _ in range(5):
        assert demo.read() is not None
        seen.append(demo.again)
    assert seen == [False, False, False, True, True]
