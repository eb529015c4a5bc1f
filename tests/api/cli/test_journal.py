"""``arbitre journal list|show|export``: a journal file read without a server."""

from __future__ import annotations

import csv
import datetime
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from arbitre.api.live.journal import Asked, Journal, Picture, Rested
from tests.console import run_console


def _local(text: str) -> float:
    """A local date and time as seconds since 1970 (the CLI reads --at in local time)."""
    return datetime.datetime.fromisoformat(text).astimezone().timestamp()


def _scene(a1: tuple[float, float], b1: tuple[float, float]) -> dict[str, Any]:
    return {
        "ruleset": "choc-base-6",
        "options": {"unit_mm": 100},
        "table": {"width_mm": 1200, "depth_mm": 900},
        "figures": [
            {"id": "a1", "side": "blue", "group": "A", "reference": True,
             "x_mm": a1[0], "y_mm": a1[1]},
            {"id": "b1", "side": "red", "group": "B", "reference": True,
             "x_mm": b1[0], "y_mm": b1[1]},
        ],
    }  # fmt: skip


START = _scene((100, 100), (700, 100))  # 600 mm apart
AT_2030 = _scene((100, 100), (400, 100))  # 300 mm
AT_2100 = _scene((100, 100), (400, 500))  # 3-4-5: 500 mm
PAST_MIDNIGHT = _scene((100, 100), (100, 200))  # 100 mm


def _answer(message: str) -> str:
    return json.dumps({"question": "distance", "message": message})


@pytest.fixture()
def evening(tmp_path: Path) -> Path:
    """An evening from 20:00 to 00:30 the next day: three questions, two settled states."""
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    journal.add(Rested(_local("2025-05-01T20:00:00"), ("a1", "b1"), START))
    journal.add(
        Asked(_local("2025-05-01T20:30:00"), "distance", ("a1", "b1"), {}, 200,
              _answer("a1 to b1: 3.00 M"), AT_2030, Picture(b"\xff\xd8jpeg\xff\xd9", 4, 3))
    )  # fmt: skip
    journal.add(Rested(_local("2025-05-01T21:00:00"), ("b1",), AT_2100))
    journal.add(
        Asked(_local("2025-05-01T21:14:05"), "fire", ("nobody", "b1"), {}, 422,
              json.dumps({"detail": "unknown figure or group 'nobody'"}), AT_2100)
    )  # fmt: skip
    journal.add(
        Asked(_local("2025-05-02T00:30:00"), "reach", ("a1",), {}, 200,
              _answer("a1 may reach 0.5 m²"), PAST_MIDNIGHT)
    )  # fmt: skip
    journal.close()
    return path


def _ok(*argv: str) -> str:
    code, out, err = run_console(*argv)
    assert code == 0, err
    assert err == ""
    return out


def _refused(*argv: str) -> str:
    code, out, err = run_console(*argv)
    assert code == 2, (out, err)
    assert len(err.strip().splitlines()) == 1, err
    return err


def test_list_shows_the_questions_newest_first(evening: Path) -> None:
    lines = _ok("journal", "list", str(evening)).splitlines()
    assert lines[0].startswith(f"{evening}: 3 questions, 2 settled states, 1 picture, ")
    assert lines[0].endswith(", 2025-05-01 20:00:00 to 2025-05-02 00:30:00")
    assert [line.split()[0] for line in lines[1:]] == ["3", "2", "1"]
    assert lines[1].endswith("2025-05-02 00:30:00  reach a1: a1 may reach 0.5 m²")
    assert lines[2].endswith("fire nobody b1: refused: unknown figure or group 'nobody'")
    assert lines[3].endswith("2025-05-01 20:30:00  distance a1 b1: a1 to b1: 3.00 M")
    # about b1: the distance and the refused fire; --json for scripts
    listed = json.loads(_ok("journal", "list", str(evening), "--figure", "b1", "--json"))
    assert [q["id"] for q in listed["questions"]] == [2, 1]
    assert listed["journal"]["questions"] == 3
    paged = json.loads(
        _ok("journal", "list", str(evening), "--before", "3", "--limit", "1", "--json")
    )
    assert [q["id"] for q in paged["questions"]] == [2]


def test_show_gives_a_question_or_a_state_whole(evening: Path, tmp_path: Path) -> None:
    shown = json.loads(_ok("journal", "show", str(evening), "1", "--json"))
    assert shown["answer"] == {"question": "distance", "message": "a1 to b1: 3.00 M"}
    assert shown["scene"] == AT_2030 and shown["figures"] == ["a1", "b1"]
    words = _ok("journal", "show", str(evening), "1", "--frame", str(tmp_path / "f.jpg"))
    assert "question 1 at 2025-05-01 20:30:00: distance a1 b1: a1 to b1: 3.00 M" in words
    assert "  b1: x 400 mm, y 100 mm" in words
    assert (tmp_path / "f.jpg").read_bytes() == b"\xff\xd8jpeg\xff\xd9"
    state = _ok("journal", "show", str(evening), "2", "--state")
    assert "settled state 2 at 2025-05-01 21:00:00" in state and "came to rest: b1" in state
    assert "no question 9" in _refused("journal", "show", str(evening), "9")
    assert "no picture was kept for question 2" in _refused(
        "journal", "show", str(evening), "2", "--frame", str(tmp_path / "g.jpg")
    )
    assert not (tmp_path / "g.jpg").exists()


@pytest.mark.parametrize(
    ("moment", "scene", "distance_mm"),
    [
        (["--at", "21:10"], AT_2100, 500.0),  # the settled state of 21:00
        (["--at", "20:45:00"], AT_2030, 300.0),  # the question of 20:30
        (["--at", "2025-05-01T20:10"], START, 600.0),  # the first settled state
        (["--at", "00:30"], PAST_MIDNIGHT, 100.0),  # past midnight: the next day
        (["--at", "23:00"], AT_2100, 500.0),  # the refused fire's table, at 21:14
        (["--question", "1"], AT_2030, 300.0),
        (["--state", "1"], START, 600.0),
    ],
)
def test_export_writes_the_table_of_a_moment_that_ask_reads(
    evening: Path, tmp_path: Path, moment: list[str], scene: dict[str, Any], distance_mm: float
) -> None:
    out = tmp_path / "then.yaml"
    said = _ok("journal", "export", str(evening), *moment, "--scene", str(out))
    assert said.startswith(f"{out}: the table at 2025-") and said.endswith("2 figures\n")
    assert yaml.safe_load(out.read_text(encoding="utf-8")) == scene
    answer = json.loads(_ok("ask", str(out), "distance", "a1", "b1", "--json"))
    assert answer["distance_mm"] == pytest.approx(distance_mm)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.sqlite", "then.yaml"]


def test_export_keeps_an_existing_file_unless_force(evening: Path, tmp_path: Path) -> None:
    out = tmp_path / "then.yaml"
    out.write_text("mine\n")
    err = _refused("journal", "export", str(evening), "--at", "21:10", "--scene", str(out))
    assert "already exists; pass --force" in err
    assert out.read_text() == "mine\n"
    _ok("journal", "export", str(evening), "--at", "21:10", "--scene", str(out), "--force")
    assert yaml.safe_load(out.read_text())["figures"][1]["y_mm"] == 500


def test_export_writes_every_question_as_csv_or_json(evening: Path, tmp_path: Path) -> None:
    assert _ok("journal", "export", str(evening), "--questions", str(tmp_path / "q.csv")) == (
        f"{tmp_path / 'q.csv'}: 3 questions\n"
    )
    with (tmp_path / "q.csv").open(newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert [row["id"] for row in rows] == ["1", "2", "3"]  # oldest first
    assert json.loads(rows[1]["args"]) == ["nobody", "b1"] and rows[1]["status"] == "422"
    assert json.loads(rows[0]["answer"])["message"] == "a1 to b1: 3.00 M"
    assert float(rows[2]["time"]) == _local("2025-05-02T00:30:00")
    _ok("journal", "export", str(evening), "--questions", str(tmp_path / "q.json"))
    every = json.loads((tmp_path / "q.json").read_text(encoding="utf-8"))["questions"]
    assert [q["question"] for q in every] == ["distance", "fire", "reach"]
    assert every[2]["scene"] == PAST_MIDNIGHT


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--at", "19:00", "--scene", "{tmp}/s.yaml"], "nothing journaled at or before 19:00"),
        (["--at", "teatime", "--scene", "{tmp}/s.yaml"], "--at: expected HH:MM[:SS]"),
        (["--scene", "{tmp}/s.yaml"], "--scene needs one moment"),
        (["--at", "21:00", "--question", "1", "--scene", "{tmp}/s.yaml"], "needs one moment"),
        (["--question", "9", "--scene", "{tmp}/s.yaml"], "no question 9"),
        (["--questions", "{tmp}/q.txt"], "write the questions as a .csv or a .json file"),
        (["--questions", "{tmp}/q.csv", "--at", "21:00"], "no --at with it"),
        (["--questions", "{tmp}/q.csv", "--scene", "{tmp}/s.yaml"], "export --scene OUT.yaml"),
        ([], "export --scene OUT.yaml"),
    ],
)
def test_bad_export_input_is_one_line_and_exit_2(
    evening: Path, tmp_path: Path, argv: list[str], says: str
) -> None:
    argv = [part.replace("{tmp}", str(tmp_path)) for part in argv]
    assert says in _refused("journal", "export", str(evening), *argv)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.sqlite"]


def test_a_file_that_is_no_journal_is_one_line_and_exit_2(tmp_path: Path) -> None:
    assert "no such journal file" in _refused("journal", "list", str(tmp_path / "none.sqlite"))
    (tmp_path / "scene.yaml").write_text("figures: []\n" * 200)
    assert "not an arbitre journal" in _refused("journal", "list", str(tmp_path / "scene.yaml"))
