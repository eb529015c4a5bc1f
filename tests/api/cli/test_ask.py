"""``arbitre ask``: answers on stdout, bad input as one line and exit 2, within a time limit."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from arbitre.api.cli import app, ask
from tests.api.cli.invoke import run
from tests.api.crowded import crowded_table
from tests.console import run_console

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "cb6-skirmish.yaml"
EXAMPLES = ROOT / "examples"
CB6 = str(EXAMPLES / "cb6-skirmish.yaml")
MUSG = str(EXAMPLES / "musg-skirmish.yaml")
SR = str(EXAMPLES / "smooth-and-rifled-skirmish.yaml")
MBT = str(EXAMPLES / "mbt-battle.yaml")


def test_fire_as_json_on_the_example() -> None:
    code, out, _ = run("ask", str(EXAMPLE), "fire", "alpins", "verts", "--json")
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
    code, out, _ = run("ask", str(EXAMPLE), "distance", "alpins", "verts")
    assert code == 0
    # chef (300, 300) to sergent (560, 520), the two groups' reference figures:
    # hypot(260, 220) = 340.59 mm = 3.41 M of 100 mm, measured reference to reference
    assert out.strip() == "alpins to verts: 3.41 M (340.6 mm, reference)"


def test_the_human_answer_gives_its_warnings_too() -> None:
    # 3.41 M: beyond 3 M only the sniper shoots (see above), which the answer warns of;
    # the page and --lang fr show it, the English line must not drop it.
    code, out, _ = run("ask", str(EXAMPLE), "fire", "alpins", "verts")
    assert code == 0
    assert out.splitlines() == [
        "alpins may shoot at verts at 3.41 M, PI 2",
        "warning: beyond 3 M only the snipers' PI counts",
    ]


def test_a_negative_coordinate_is_an_argument_not_an_option() -> None:
    # y = -3 mm lies off the 0-900 mm table: a move there is refused, not misread.
    code, out, err = run("ask", str(EXAMPLE), "move", "alpins", "300", "-3")
    assert (code, err) == (0, "")
    assert out.strip() == "alpins may not move there: the destination is off the table"


def test_impact_with_a_die() -> None:
    # alpins: chef, alp2 CR, alp3 wounded CR -> close-combat PI 2 + 2 + 1 = 5; die 2 -> 3.
    code, out, _ = run(
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
    code, out, err = run("ask", str(EXAMPLE), *args)
    assert code == 2
    assert out == ""
    assert err.startswith(f"arbitre: {message}")
    assert len(err.strip().splitlines()) == 1


def test_a_bad_scene_exits_2(tmp_path: Path) -> None:
    scene = tmp_path / "scene.yaml"
    scene.write_text(EXAMPLE.read_text().replace("unit_mm: 100", "unit_mm: zero"))
    code, _, err = run("ask", str(scene), "groups")
    assert code == 2
    assert err.startswith(f"arbitre: {scene}: options.unit_mm: ")
    assert len(err.strip().splitlines()) == 1


def test_other_question_options_go_through_with() -> None:
    # alpins: close-combat PI 5 (chef, alp2 CR; alp3 wounded CR); die 3 -> 5 - 3 = 2.
    code, out, _ = run(
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
    code, _, err = run("ask", str(EXAMPLE), "impact", "alpins", "verts", "--with", "colour=red")
    assert code == 2
    assert err.strip() == (
        "arbitre: impact does not take colour (it takes: action, die, bonus, bonus_to)"
    )
    code, _, err = run("ask", str(EXAMPLE), "groups", "--with", "oops")
    assert code == 2
    assert "--with takes KEY=VALUE" in err


@pytest.mark.parametrize(
    "value", ["die=[1,", "die=[&a 1, *a]", "die=" + "[" * 100 + "]" * 100, "die=\udcff"]
)
def test_a_malformed_with_value_is_one_line_and_exit_2(value: str) -> None:
    scene = str(ROOT / "examples" / "cb6-skirmish.yaml")
    result = CliRunner().invoke(app, ["ask", scene, "impact", "alpins", "verts", "--with", value])
    assert result.exit_code == 2
    assert result.stderr.startswith("arbitre: --with die") and result.stderr.count("\n") == 1


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
    with pytest.raises(typer.Exit) as stopped, ask.within_time_limit(0.05, "stopped after 0.05 s"):
        while time.monotonic() < started + 5.0:
            try:
                time.sleep(0.01)
            except ask.OutOfTime:
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
        except ask.OutOfTime as ring:
            raise SystemError("CPUDispatcher returned a result with an exception set") from ring

    with pytest.raises(typer.Exit) as stopped, ask.within_time_limit(0.05, "stopped after 0.05 s"):
        compiled_caller()
    assert stopped.value.exit_code == 2
    assert capsys.readouterr().err == "arbitre: stopped after 0.05 s\n"
    with pytest.raises(SystemError, match="not a ring"), ask.within_time_limit(5.0, "never"):
        raise SystemError("not a ring")


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (
            ("ask", CB6, "impact", "alpins", "verts", "--with", "die=abc"),
            "a die shows 1 to 6, got 'abc' (option die of impact)",
        ),
        (
            ("ask", CB6, "impact", "alpins", "verts", "--with", "die=3.5"),
            "a die shows 1 to 6, got 3.5 (option die of impact)",
        ),
        (
            ("ask", CB6, "impact", "alpins", "verts", "--with", "die=true"),
            "a die shows 1 to 6, got true (option die of impact)",
        ),
        (  # YAML 1.1 would read yes as true: a flag is true or false only
            ("ask", MBT, "move", "cavaliers", "600", "420", "--with", "as_group=yes"),
            "only true or false, got 'yes' (option as_group of move)",
        ),
        (
            ("ask", CB6, "impact", "alpins", "verts", "--with", "bonus=.nan"),
            "a whole number -100 to 100, got nan (option bonus of impact)",
        ),
        (
            ("ask", MUSG, "initiative", "--with", "henchmen=7"),
            "a count per side, each 0 to 1000: {blue: 2, red: 4}, got 7 "
            "(option henchmen of initiative)",
        ),
        (("ask", MUSG, "damage", "3", "3", "--die", "0"), "a die shows 1 to 6, got 0"),
        (
            ("ask", CB6, "move", "alpins", "5_00", "300"),
            "X must be a number of millimetres, got '5_00' (plain digits: 12.5)",
        ),
        (
            ("ask", SR, "melee", "c1", "u1", "--with", "rolls_a=[1, 2, 3]"),
            "rolls_a was given without rolls_b: give both sides' dice, or neither",
        ),
    ],
)
def test_the_issue_examples_are_one_line(argv: tuple[str, ...], line: str) -> None:
    code, out, err = run_console(*argv)
    assert (code, out) == (2, "")
    assert err.startswith(f"arbitre: {line}") and err.count("\n") == 1


def test_a_good_melee_with_both_rolls_answers() -> None:
    # c1 (csa, C 4) against u1 (union, C 4), c1 charging: 3d6 each, hits on 4+.
    # c1 rolls 4, 5, 1 -> 2 hits; u1 rolls 6, 1, 1 -> 1 hit: c1 beats u1.
    code, out, _ = run_console(
        "ask", SR, "melee", "c1", "u1", "--with", "rolls_a=4,5,1", "--with", "rolls_b=[6,1,1]"
    )
    assert code == 0
    assert "c1 beats u1" in out


@pytest.mark.parametrize("item", ["a\nb=3", "die =3", "=3", "die"])
def test_a_with_key_must_be_a_name(item: str) -> None:
    code, _, err = run_console("ask", CB6, "groups", "--with", item)
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("arbitre: --with takes KEY=VALUE, got ")
