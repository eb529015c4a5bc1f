"""Golden scenes: each file of tests/rules/golden holds a scene and the answers expected.

Every expectation was worked out by hand; the working is in the file's comments.
A file lists ``expect:`` items: ``ask: [question, args...]``, optional ``extras``
(keyword options such as ``die``), ``answer`` (a subset of the JSON answer; numbers
match to ``tolerance``, default 0.01 mm), ``warnings_contain`` (substrings that must
each appear in a warning), ``warnings_lack`` (substrings no warning may hold) and
``message_starts``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import yaml

from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene
from tests.rules.reasons_in_code import reasons_named

GOLDEN = Path(__file__).parent / "golden"
CASES = [
    pytest.param(path, index, item, id=f"{path.stem}-{index}-{item['ask'][0]}")
    for path in sorted(GOLDEN.glob("*.yaml"))
    for index, item in enumerate(yaml.safe_load(path.read_text(encoding="utf-8"))["expect"])
]


def _matches(actual: Any, expected: Any, tolerance: float) -> bool:
    if isinstance(expected, bool) or expected is None or isinstance(expected, str):
        return actual == expected
    if isinstance(expected, int | float):
        return (
            isinstance(actual, int | float)
            and not isinstance(actual, bool)
            and math.isclose(actual, expected, abs_tol=tolerance)
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(_matches(a, e, tolerance) for a, e in zip(actual, expected, strict=True))
        )
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and set(actual) == {str(k) for k in expected}
            and all(_matches(actual[str(k)], e, tolerance) for k, e in expected.items())
        )
    raise TypeError(f"unexpected value in a golden file: {expected!r}")


@pytest.mark.parametrize(("path", "index", "item"), CASES)
def test_golden(path: Path, index: int, item: dict[str, Any]) -> None:
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    scene = parse_scene(document["scene"], source=path.name)
    question, *args = [str(a) for a in item["ask"]]
    answer = ask(scene, question, args, item.get("extras"))
    data = answer.to_json()
    tolerance = float(item.get("tolerance", 0.01))
    for key, expected in item.get("answer", {}).items():
        assert key in data, f"{key!r} missing from {data}"
        assert _matches(data[key], expected, tolerance), (
            f"{key}: expected {expected!r}, got {data[key]!r}\n{answer.message}"
        )
    for fragment in item.get("warnings_contain", []):
        assert any(fragment in warning for warning in data["warnings"]), data["warnings"]
    for fragment in item.get("warnings_lack", []):
        assert not any(fragment in warning for warning in data["warnings"]), data["warnings"]
    if "message_starts" in item:
        assert answer.message.startswith(item["message_starts"]), answer.message


# Each rule system's modules, and the prefix of its golden files.
RULE_SYSTEMS = {
    "choc-base-6 (neutral)": (
        ["choc_base_6/neutral*.py", "choc_base_6/activation.py"],
        ("cb6-",),
    ),
    "choc-base-6 (grids)": (["choc_base_6/grid*.py"], ("cb6-grid",)),
    "smooth-and-rifled": (["smooth_and_rifled/*.py"], ("smooth-and-rifled-",)),
    "musg": (["musg/*.py"], ("musg-",)),
    "mbt": (["mbt/*.py"], ("mbt-",)),
    "confrontation": (["confrontation/*.py"], ("confrontation-",)),
}


@pytest.mark.parametrize("system", sorted(RULE_SYSTEMS))
def test_every_reason_code_a_rule_system_gives_is_in_its_golden_scenes(system: str) -> None:
    from arbitre import rules

    patterns, prefixes = RULE_SYSTEMS[system]
    folder = Path(rules.__file__).parent
    modules = [module for pattern in patterns for module in folder.glob(pattern)]
    # with the reasons of the verdicts every rule system shares that its code calls
    # (answers.allowance_verdict: path_blocked, over_allowance)
    shared = [folder / "answers.py", folder / "ruleset.py"]
    given = {reason.value for reason in reasons_named(modules, shared=shared)}
    seen: set[str] = set()
    for path, _index, item in (case.values for case in CASES):
        if path.name.startswith(prefixes):
            seen.update(item.get("answer", {}).get("reasons", []))
    assert given, f"no reason codes found for {system}"
    assert given <= seen, sorted(given - seen)
