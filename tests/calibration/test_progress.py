"""Steps: counts a long call's steps and tells its progress callback, never past the total."""

from __future__ import annotations

from arbitre.calibration.progress import Steps


def test_each_step_is_told_with_the_total() -> None:
    seen: list[tuple[int, int]] = []
    steps = Steps(4, lambda done, total: seen.append((done, total)))
    steps.advance()
    steps.advance(2)
    steps.advance()
    assert seen == [(1, 4), (3, 4), (4, 4)]
    assert (steps.done, steps.total) == (4, 4)


def test_steps_past_the_total_stop_at_it() -> None:
    # 2 + 3 steps of a call of 4: the callback is told 2, then 4 (not 5).
    seen: list[tuple[int, int]] = []
    steps = Steps(4, lambda done, total: seen.append((done, total)))
    steps.advance(2)
    steps.advance(3)
    assert seen == [(2, 4), (4, 4)]


def test_a_call_of_no_steps_counts_one_so_done_never_exceeds_total() -> None:
    # A total of 0 (an empty folder) is counted as 1: the callback's 0 < done <= total holds.
    seen: list[tuple[int, int]] = []
    steps = Steps(0, lambda done, total: seen.append((done, total)))
    steps.advance()
    assert seen == [(1, 1)]


def test_without_a_callback_the_steps_are_still_counted() -> None:
    steps = Steps(3, None)
    steps.advance(2)
    assert (steps.done, steps.total) == (2, 3)
