"""The ``arbitre`` command line: answers on stdout, bad input as one line and exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from arbitre.api.cli import app, ask
from tests.api.crowded import crowded_table
from tests.console import run_console

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "cb6-skirmish.yaml"
runner = CliRunner()


def _run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_fire_as_json_on_the_example() -> None:
    code, out, _ = _run("ask", str(EXAMPLE), "fire", "alpins", "verts", "--json")
    assert code == 0
    answer = json.loads(out)
    # chef (300, 300) to sergent (560, 520): hypot(260, 220) = 340.59 mm = 3.41 M:
    # beyond 3 M, only the sniper (tireur) may shoot.
    assert answer["allowed"] is True
    assert answer["band"] == "sniper"
    assert answer["shooters"] == ["tireur"]
    assert answer["distance_mm"] == pytest.approx(340.588, abs=1e-3)
    assert answer["unit"] == "M"
    assert set(answer) >= {
        "reasons",
        "distance_units",
        "blocked_by",
        "cover",
        "warnings",
        "margin_mm",
        "certain",
        "message",
    }


def test_human_answer_is_one_sentence() -> None:
    code, out, _ = _run("ask", str(EXAMPLE), "distance", "alpins", "verts")
    assert code == 0
    # chef (300, 300) to sergent (560, 520), the two groups' reference figures:
    # hypot(260, 220) = 340.59 mm = 3.41 M of 100 mm, measured reference to reference
    assert out.strip() == "alpins to verts: 3.41 M (340.6 mm, reference)"


def test_the_human_answer_gives_its_warnings_too() -> None:
    # 3.41 M: beyond 3 M only the sniper shoots (see above), which the answer warns of;
    # the page and --lang fr show it, the English line must not drop it.
    code, out, _ = _run("ask", str(EXAMPLE), "fire", "alpins", "verts")
    assert code == 0
    assert out.splitlines() == [
        "alpins may shoot at verts at 3.41 M, PI 2",
        "warning: beyond 3 M only the snipers' PI counts",
    ]


def test_a_negative_coordinate_is_an_argument_not_an_option() -> None:
    # y = -3 mm lies off the 0-900 mm table: a move there is refused, not misread.
    code, out, err = _run("ask", str(EXAMPLE), "move", "alpins", "300", "-3")
    assert (code, err) == (0, "")
    assert out.strip() == "alpins may not move there: the destination is off the table"


def test_impact_with_a_die() -> None:
    # alpins: chef, alp2 CR, alp3 wounded CR -> close-combat PI 2 + 2 + 1 = 5; die 2 -> 3.
    code, out, _ = _run(
        "ask",
        str(EXAMPLE),
        "impact",
        "alpins",
        "verts",
        "--action",
        "close",
        "--die",
        "2",
        "--json",
    )
    assert code == 0
    assert (json.loads(out)["pi"], json.loads(out)["impact"]) == (5, 3)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("fire", "nobody", "verts"), "unknown figure or group 'nobody'"),
        (("teleport", "alpins"), "unknown question 'teleport'"),
        (("fire", "alpins"), "fire takes 2 arguments (A B), got ['alpins']"),
        (("move", "alpins", "east", "10"), "X must be a number of millimetres, got 'east'"),
        (("impact", "alpins", "verts", "--die", "9"), "a die shows 1 to 6, got 9"),
    ],
)
def test_bad_questions_exit_2_with_one_line(args: tuple[str, ...], message: str) -> None:
    code, out, err = _run("ask", str(EXAMPLE), *args)
    assert code == 2
    assert out == ""
    assert err.startswith(f"arbitre: {message}")
    assert len(err.strip().splitlines()) == 1


def test_a_bad_scene_exits_2(tmp_path: Path) -> None:
    scene = tmp_path / "scene.yaml"
    scene.write_text(EXAMPLE.read_text().replace("unit_mm: 100", "unit_mm: zero"))
    code, _, err = _run("ask", str(scene), "groups")
    assert code == 2
    assert err.startswith(f"arbitre: {scene}: options.unit_mm: ")
    assert len(err.strip().splitlines()) == 1


def test_the_console_script_never_shows_a_traceback(tmp_path: Path) -> None:
    missing = tmp_path / "missing.yaml"
    result = subprocess.run(
        [sys.executable, "-m", "arbitre", "ask", str(missing), "groups"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().startswith(f"arbitre: {missing}: cannot read the file")


def test_rulesets_lists_choc_base_6() -> None:
    code, out, _ = _run("rulesets")
    assert code == 0
    assert "choc-base-6 (also: cb6" in out


def test_snapshot_of_the_demo_table_is_a_scene_ask_reads(tmp_path: Path) -> None:
    scene = tmp_path / "scene.yaml"
    code, out, _ = _run("snapshot", "--demo", "--frames", "3", "--out", str(scene))
    assert code == 0
    assert out.strip() == f"{scene}: 7 figures"
    code, out, _ = _run("ask", str(scene), "groups", "--json")
    assert code == 0
    assert len(json.loads(out)["groups"]) == 7  # every demo figure leads a group


def test_serve_without_a_source_or_config_says_what_to_do() -> None:
    code, _, err = _run("serve")
    assert code == 2
    assert "--demo" in err


def test_other_question_options_go_through_with() -> None:
    # alpins: close-combat PI 5 (chef, alp2 CR; alp3 wounded CR); die 3 -> 5 - 3 = 2.
    code, out, _ = _run(
        "ask",
        str(EXAMPLE),
        "impact",
        "alpins",
        "verts",
        "--with",
        "die=3",
        "--action",
        "close",
        "--json",
    )
    assert code == 0
    assert json.loads(out)["impact"] == 2
    code, _, err = _run("ask", str(EXAMPLE), "impact", "alpins", "verts", "--with", "colour=red")
    assert code == 2
    assert err.strip() == "arbitre: impact does not take colour (it takes: action, die, bonus)"
    code, _, err = _run("ask", str(EXAMPLE), "groups", "--with", "oops")
    assert code == 2
    assert "--with takes KEY=VALUE" in err


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["ask"], "Missing argument 'scene'. (see arbitre ask --help)"),
        (
            ["ask", "examples/cb6-skirmish.yaml", "impact", "alpins", "verts", "--die", "abc"],
            "Invalid value for '--die'",
        ),
        (["nosuch"], "No such command 'nosuch'."),
        # A 5,000-character value: the line is "arbitre: " (9) + at most 400 + " (see
        # arbitre ask --help)" (24), under 440 characters, whether or not Typer's version
        # quotes the value.
        (
            ["ask", "examples/cb6-skirmish.yaml", "impact", "a", "b", "--die", "9x" * 2500],
            "Invalid value for '--die'",
        ),
    ],
)
def test_a_usage_error_is_one_line_and_exit_2(args: list[str], says: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "arbitre", *args], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("arbitre: ") and says in lines[0]
    assert len(lines[0]) < 440
    assert "╭" not in result.stderr  # not Typer's box


@pytest.mark.parametrize(
    "value", ["die=[1,", "die=[&a 1, *a]", "die=" + "[" * 100 + "]" * 100, "die=\udcff"]
)
def test_a_malformed_with_value_is_one_line_and_exit_2(value: str) -> None:
    scene = str(ROOT / "examples" / "cb6-skirmish.yaml")
    result = CliRunner().invoke(app, ["ask", scene, "impact", "alpins", "verts", "--with", value])
    assert result.exit_code == 2
    assert result.stderr.startswith("arbitre: --with die") and result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "rules", "--figures", "0"],
        ["bench", "rules", "--figures", "100000000"],
        ["bench", "rules", "--seed", "-1"],
        ["bench", "vision", "--frames", "0"],
        ["bench", "serve", "--seconds", "nan"],
        ["bench", "serve", "--askers", "-3"],
        ["print", "markers", "--ids", "1", "--size-mm", "1e-300", "--out", "m.pdf"],
    ],
)
def test_numbers_out_of_range_are_one_line_before_any_work(argv: list[str]) -> None:
    code, out, err = run_console(*argv)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and err.startswith("arbitre: "), err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (
            ["ask", str(EXAMPLE), "impact", "alpins", "verts", "--with", "die=3", "--die", "4"],
            "arbitre: --die and --with die= are both given\n",
        ),
        (
            [
                "ask",
                str(EXAMPLE),
                "impact",
                "alpins",
                "verts",
                "--with",
                "die=3",
                "--with",
                "die=4",
            ],
            "arbitre: --with die= is given twice\n",
        ),
        (
            ["serve", "--demo", "--config", "arbitre.yaml"],
            "arbitre: --demo is a table of its own: give it or --config, not both\n",
        ),
        (
            ["snapshot", "--demo", "--server", "http://127.0.0.1:9", "--out", "never.yaml"],
            "arbitre: --server gives the scene: no --demo with it\n",
        ),
    ],
)
def test_options_that_contradict_each_other_are_refused(argv: list[str], says: str) -> None:
    # Which one would win is no way to answer: the user is told, nothing is done.
    assert run_console(*argv) == (2, "", says)


def test_a_question_past_the_time_limit_is_given_up(tmp_path: Path) -> None:
    scene = tmp_path / "crowded.yaml"
    scene.write_text(json.dumps(crowded_table()), encoding="utf-8")  # JSON is YAML too
    # Minutes of work if it ran to its end; only the time limit gives this line.
    code, out, err = run_console("ask", str(scene), "reach", "f0", "--time-limit", "1")
    assert (code, out) == (2, "")
    assert err == (
        "arbitre: reach: stopped after 1 s: the scene is too costly for this question "
        "(see --time-limit)\n"
    )


def test_an_alarm_lost_once_still_stops_the_work(capsys: pytest.CaptureFixture[str]) -> None:
    """The first ring is lost, as when it lands in an object's __del__ (Python prints and
    ignores what that raises): the alarm rings again a tenth of a second later and the work
    stops with its one line, not after its 5 s (a single ring would let it run them)."""
    lost = []
    started = time.monotonic()
    with pytest.raises(typer.Exit) as stopped, ask._time_limit(0.05, "stopped after 0.05 s"):
        while time.monotonic() < started + 5.0:
            try:
                time.sleep(0.01)
            except ask._OutOfTime:
                if lost:
                    raise
                lost.append(time.monotonic() - started)
    assert stopped.value.exit_code == 2 and len(lost) == 1
    assert "stopped after 0.05 s" in capsys.readouterr().err


def test_the_path_search_is_loaded_before_the_time_limit_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Once after installing, loading the path search's loops compiles them: seconds on a
    # slow machine. Here that takes 1.5 s, past a limit of 1 s, and the reach (a few ms
    # on the example table) is still answered: the limit is the question's alone.
    import time

    from arbitre.rules.pathing import kernels

    loaded = []
    monkeypatch.setattr(kernels, "warm", lambda: (time.sleep(1.5), loaded.append(True)))
    code, out, err = run_console("ask", str(EXAMPLE), "reach", "cavalier", "--time-limit", "1")
    assert (code, err, loaded) == (0, "", [True])
    assert out.startswith("cavalier may move anywhere in ")


def test_an_alarm_wrapped_by_a_compiled_caller_still_stops_the_work(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A ring landing inside numba's dispatcher comes back as a SystemError whose cause is
    the ring (the dispatcher returns as if nothing was raised): it is the time limit's line,
    not "cannot do this"; any other SystemError is left alone."""

    def compiled_caller() -> None:
        try:
            time.sleep(5.0)
        except ask._OutOfTime as ring:
            raise SystemError("CPUDispatcher returned a result with an exception set") from ring

    with pytest.raises(typer.Exit) as stopped, ask._time_limit(0.05, "stopped after 0.05 s"):
        compiled_caller()
    assert stopped.value.exit_code == 2
    assert capsys.readouterr().err == "arbitre: stopped after 0.05 s\n"
    with pytest.raises(SystemError, match="not a ring"), ask._time_limit(5.0, "never"):
        raise SystemError("not a ring")
