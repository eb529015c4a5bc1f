"""``arbitre bench serve``: its progress counted in tenths of a second, and the questions
journaled at a table's pace."""

from __future__ import annotations

import pytest

from arbitre.api.bench.serve import report_lines, run_serve_bench


def test_the_serve_bench_counts_tenths_of_a_second() -> None:
    seen: list[tuple[int, int]] = []
    report = run_serve_bench(
        clients=1,
        seconds=0.3,
        askers=2,
        cameras=False,
        floods=False,
        journal=False,
        progress=lambda *step: seen.append(step),
    )
    # 1 s of warm-up and three measures of 0.3 s, in tenths: 10 + 3 + 3 + 3 steps.
    assert seen == [(done, 19) for done in range(1, 20)]
    assert report["clients"] == 1 and report["fps_alone"] > 0
    asked = report["questions"]
    assert asked["askers"] == 2 and asked["other"] == 0


def test_the_serve_bench_journals_the_questions_asked_at_a_table_s_pace() -> None:
    seen: list[tuple[int, int]] = []
    report = run_serve_bench(
        clients=1,
        seconds=2.0,
        askers=1,
        cameras=False,
        floods=False,
        progress=lambda *step: seen.append(step),
    )
    # the first server: 1 s of warm-up and three measures of 2 s (10 + 20 + 20 + 20
    # tenths); then the journal's, twice (with the journal, then with none): 1 s of
    # warm-up and twelve turns without and twelve with questions, each 3 x 2 s / 12 =
    # 0.5 s (10 + 24 x 5 = 130 tenths each)
    assert seen[-1] == (330, 330)
    kept = report["journal"]
    assert (kept["turns"], kept["turn_s"]) == (12, 0.5)
    # 50 questions a minute, one every 1.2 s of the 12 x 0.5 = 6 s asking: five, at 0,
    # 1.2, 2.4, 3.6 and 4.8 s (fewer when the first, which waits for the worker to start,
    # is slow; a sixth when the answers' time pushes the asking past 6 s); all journaled
    assert kept["per_minute"] == 50 and 2 <= kept["answered"] <= 6 and kept["other"] == 0
    assert kept["journaled"] == kept["answered"] and 1 <= kept["pictures"] <= kept["answered"]
    assert kept["fps"] > 0
    assert kept["settled"] >= 1 and kept["size_bytes"] > 0
    low, high = kept["spread"]
    assert 0 < low <= high and kept["ratio_no_journal"] > 0
    assert kept["journal_cost"] == pytest.approx(kept["ratio"] / kept["ratio_no_journal"])
    # the journal's work (a picture and a row a question, a scene a settled state) took
    # some processor, far less than the 24 turns of 0.5 s it was measured over
    assert 0 < kept["work_s"] < 0.5 * kept["measured_s"] and kept["measured_s"] >= 12.0
    assert kept["ratio_bound"] == pytest.approx(1 - kept["work_s"] / kept["measured_s"])
    assert kept["ratio"] > 0 and kept["fps_quiet"] > 0
    assert any(
        line.startswith("  journal on, 50 questions a minute:") for line in report_lines(report)
    )
