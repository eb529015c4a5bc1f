"""Refusals say their reasons in words; the JSON answers keep the reason codes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from arbitre.rules.answers import Reason
from arbitre.rules.choc_base_6.reasons import NEUTRAL_REASON_WORDS as CB6_NEUTRAL_WORDS
from arbitre.rules.choc_base_6.reasons import REASON_WORDS as CB6_WORDS
from arbitre.rules.confrontation.reasons import REASON_WORDS as CONFRONTATION_WORDS
from arbitre.rules.mbt.reasons import REASON_WORDS as MBT_WORDS
from arbitre.rules.musg.reasons import REASON_WORDS as MUSG_WORDS
from arbitre.rules.questions import ask
from arbitre.rules.scene import load_scene, parse_scene
from arbitre.rules.smooth_and_rifled.reasons import REASON_WORDS as SR_WORDS
from tests.rules.reasons_in_code import reasons_named

ROOT = Path(__file__).parents[2]
GOLDEN = Path(__file__).parent / "golden"

# Every code but no_reference, which the CB6 docs have its warning and errors name.
CODES = re.compile(
    r"\b("
    + "|".join(r.value for r in Reason if "_" in r.value and r.value != "no_reference")
    + r")\b"
)


@pytest.mark.parametrize(
    ("scene", "question", "words", "codes"),
    [
        # loin is 4 squares away, beyond 3 C, and no archer is a sniper.
        (
            "cb6-square-archers.yaml",
            ["fire", "archers", "loin"],
            "archers may not shoot at loin (4 C): out of range",
            ["out_of_range"],
        ),
        # (250, 420) lies beyond the hedge (y = 330) and 22.1 cm of a 12 cm first move.
        (
            "smooth-and-rifled-skirmish.yaml",
            ["move", "u1", "250", "420"],
            "u1 may not move there: crosses an obstacle, over the allowance (22.1 cm, "
            "allowance 12 cm)",
            ["obstacle_crossing", "over_allowance"],
        ),
        # hoplites are no archers, 4.40 graduations (> 2) away and not in front.
        (
            "mbt-battle.yaml",
            ["fire", "hoplites1", "perses2"],
            "hoplites1 may not shoot at perses2 (4.40 graduations): not an archer, slinger "
            "or chariot, out of range, outside the arc of fire",
            ["no_shooters", "out_of_range", "not_in_arc"],
        ),
    ],
)
def test_a_refusal_gives_words_and_codes(
    scene: str, question: list[str], words: str, codes: list[str]
) -> None:
    answer = ask(load_scene(ROOT / "examples" / scene), question[0], question[1:])
    assert answer.message.splitlines()[0] == words
    assert answer.to_json()["reasons"] == codes


def _golden_answers() -> list[Any]:
    cases = []
    for path in sorted(GOLDEN.glob("*.yaml")):
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        for index, item in enumerate(document["expect"]):
            cases.append(pytest.param(document["scene"], item, id=f"{path.stem}-{index}"))
    return cases


@pytest.mark.parametrize(("scene", "item"), _golden_answers())
def test_no_golden_sentence_shows_a_reason_code(scene: dict[str, Any], item: Any) -> None:
    # Every golden question is answered (test_golden asks each): none is skipped here.
    question, *args = [str(a) for a in item["ask"]]
    answer = ask(parse_scene(scene), question, args, item.get("extras"))
    assert answer.message
    assert CODES.search(answer.message) is None, answer.message


RULES = ROOT / "rules"
SENTENCES = ("fire_message", "move_message")
SHARED = [RULES / "answers.py", RULES / "ruleset.py"]  # verdicts every rule system calls

# Each table of reason words, and the code whose reasons it words: a whole rule system,
# or the functions that make the sentences the table serves (CB6's neutral surface words
# its shots and moves with its own table).
WORD_TABLES = {
    "choc_base_6": (CB6_WORDS, "choc_base_6/*.py", ()),
    "choc_base_6 neutral": (CB6_NEUTRAL_WORDS, "choc_base_6/neutral.py", SENTENCES),
    "smooth_and_rifled": (SR_WORDS, "smooth_and_rifled/*.py", ()),
    "musg": (MUSG_WORDS, "musg/*.py", ()),
    "mbt": (MBT_WORDS, "mbt/*.py", ()),
    "confrontation": (CONFRONTATION_WORDS, "confrontation/*.py", ()),
}


@pytest.mark.parametrize("table", sorted(WORD_TABLES))
def test_every_reason_a_rule_system_gives_has_words(table: str) -> None:
    words, pattern, calling = WORD_TABLES[table]
    named = reasons_named(RULES.glob(pattern), calling, SHARED)
    assert named, table
    assert named <= set(words), sorted(named - set(words))
    assert all(words.values()) and not any("_" in text for text in words.values())


def test_reasons_are_read_from_the_code_only(tmp_path: Path) -> None:
    source = tmp_path / "module.py"
    source.write_text(
        '''"""Refuses with Reason.NO_SAVE (a docstring)."""

# Reason.NOT_IN_ARC was given here once (a comment).
WHY = "Reason.TOO_EARLY"  # a string


def refuse(reasons: list) -> str:
    reasons.append(Reason.LINE_BLOCKED)
    return sentence(reasons)


def other(reasons: list) -> None:
    reasons.append(Reason.OFF_TABLE)
''',
        encoding="utf-8",
    )
    assert reasons_named([source]) == {Reason.LINE_BLOCKED, Reason.OFF_TABLE}
    assert reasons_named([source], ("sentence",)) == {Reason.LINE_BLOCKED}
    assert reasons_named([source], ("other",)) == {Reason.OFF_TABLE}
    shared = tmp_path / "shared.py"
    shared.write_text("def sentence(reasons):\n    return Reason.NOT_VISIBLE\n", encoding="utf-8")
    assert reasons_named([source], ("sentence",), [shared]) == {
        Reason.LINE_BLOCKED,
        Reason.NOT_VISIBLE,
    }
