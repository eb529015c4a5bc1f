"""Fuzzing: whatever a careless or hostile user gives, the answer is an answer or one line.

Random question names, arguments and option values (wrong types, NaN, huge integers,
text, nested lists) go to `arbitre.rules.questions.ask` on the example scene of each
rule system; random scene text goes through the scene reader; and random ``arbitre ask``
command lines go through the console entry point. The outcome is always an answer
(JSON-encodable) or one short line — a `RulesError` here, exit status 2 with one line on
stderr there — never another exception, and each case finishes within `CASE_SECONDS`.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbitre.rules.errors import RulesError
from arbitre.rules.model import Scene
from arbitre.rules.options import question_options
from arbitre.rules.questions import ask
from arbitre.rules.registry import find_ruleset
from arbitre.rules.scene import load_scene, parse_scene, read_scene_text
from tests.console import run_console

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SCENE_FILES = (
    "cb6-skirmish.yaml",
    "cb6-hex-skirmish.yaml",
    "confrontation-melee.yaml",
    "mbt-battle.yaml",
    "musg-skirmish.yaml",
    "smooth-and-rifled-skirmish.yaml",
)
SCENES: dict[str, Scene] = {name: load_scene(EXAMPLES / name) for name in SCENE_FILES}

CASE_SECONDS = 10.0
"""The most one fuzzed case may take (every question answers or refuses within it)."""

FUZZ = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _names(scene: Scene) -> list[str]:
    """What a question's arguments may name on ``scene``: figures, groups, sides."""
    names = {f.id for f in scene.figures} | {f.side for f in scene.figures}
    names |= {f.group for f in scene.figures if f.group}
    return sorted(names) or ["nobody"]


def _questions(scene: Scene) -> list[str]:
    return sorted(find_ruleset(scene.ruleset).questions())


def _option_names(scene: Scene) -> list[str]:
    found: set[str] = set()
    for question in find_ruleset(scene.ruleset).questions().values():
        found |= set(question_options(question.handler))
    return sorted(found)


NUMBERS_AS_TEXT = st.one_of(
    st.integers(-2000, 3000).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.sampled_from(["5_00", "1e3", "-0", ".5", "5.", "0x10", "١٢", " 300", "nan", "", "+"]),
)

HOSTILE_TEXT = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["", " ", "\n", "a\nb", "'", "{", "[1,", "*a", "&a 1", "!!python/none"]),
    st.text(min_size=300, max_size=400),
)

VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-10, 10),
        st.integers(),
        st.sampled_from([2**64, -(2**64), 10**400]),
        st.floats(allow_nan=True, allow_infinity=True),
        HOSTILE_TEXT,
        st.sampled_from(["fire", "close", "true", "3", "3,4", "blue:3,red:5", "walk", "x0"]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _choices() -> list[str]:
    """Every choice a question option offers (``fire``, ``walk``, ``x0`` ...)."""
    found: set[str] = set()
    for name in SCENES:
        for question in find_ruleset(SCENES[name].ruleset).questions().values():
            for option in question_options(question.handler).values():
                if option.takes.startswith("one of "):
                    found |= set(option.takes.removeprefix("one of ").split(", "))
    return sorted(found)


@st.composite
def option_values(draw: st.DrawFn, scene: Scene) -> Any:
    """A value an option might take, or nearly, or anything at all."""
    sides = sorted({f.side for f in scene.figures}) or ["blue"]
    plausible = st.one_of(
        st.integers(0, 7),
        st.booleans(),
        st.sampled_from(_choices()),
        st.lists(st.integers(0, 7), min_size=1, max_size=4),
        st.dictionaries(st.sampled_from(sides), st.integers(0, 7), max_size=3),
        st.floats(-400, 400),
    )
    return draw(st.one_of(plausible, plausible, VALUES))


@st.composite
def _argument(draw: st.DrawFn, scene: Scene, slot: str) -> str:
    """A word for the argument ``slot`` of a question: mostly right, sometimes not."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.one_of(NUMBERS_AS_TEXT, HOSTILE_TEXT))
    if slot in ("X", "Y"):
        return str(draw(st.integers(-100, 1300)))
    if slot in ("F", "R"):
        return str(draw(st.integers(-2, 14)))
    if slot == "SIDE":
        return draw(st.sampled_from(sorted({f.side for f in scene.figures}) or ["blue"]))
    names = _names(scene)
    return names[draw(st.integers(0, len(names) - 1)) * 7919 % len(names)]  # spread


@st.composite
def questions(draw: st.DrawFn, scene: Scene) -> tuple[Any, Any, Any]:
    """A question name, its arguments and its options: mostly well formed (so that the
    rules are reached), sometimes not at all."""
    known = find_ruleset(scene.ruleset).questions()
    if draw(st.integers(0, 5)) == 0:  # anything
        word = st.one_of(st.sampled_from(_names(scene)), NUMBERS_AS_TEXT, HOSTILE_TEXT)
        name: Any = draw(st.one_of(st.sampled_from(sorted(known)), HOSTILE_TEXT, st.integers()))
        args: Any = draw(st.one_of(st.lists(st.one_of(word, VALUES), max_size=4), VALUES))
        extras: Any = draw(st.one_of(st.none(), VALUES))
        return name, args, extras
    names = sorted(known)
    name = names[draw(st.integers(0, len(names) - 1)) * 7919 % len(names)]  # spread
    spec = known[name]
    args = [draw(_argument(scene, slot)) for slot in spec.args]
    if draw(st.integers(0, 7)) == 0:  # one argument too many or too few
        args = args[:-1] if args and draw(st.booleans()) else [*args, draw(HOSTILE_TEXT)]
    declared = sorted(question_options(spec.handler))
    key = st.one_of(st.sampled_from(declared), st.text(max_size=8)) if declared else st.text()
    extras = draw(
        st.one_of(
            st.none(),
            st.dictionaries(key, option_values(scene), max_size=3),
            st.dictionaries(st.sampled_from(declared), option_values(scene), max_size=3)
            if declared
            else st.none(),
        )
    )
    return name, args, extras


def _one_line(message: str) -> None:
    assert message and "\n" not in message, repr(message)
    assert len(message) <= 600, f"{len(message)} characters: {message[:200]!r}..."


def _answer_or_one_line(scene: Scene, name: Any, args: Any, extras: Any) -> None:
    started = time.perf_counter()
    try:
        answer = ask(scene, name, args, extras)
    except RulesError as error:
        _one_line(str(error))
    else:
        json.dumps(answer.to_json())  # what the CLI and the HTTP API send
        assert answer.message
    elapsed = time.perf_counter() - started
    assert elapsed < CASE_SECONDS, f"{name!r} {args!r} {extras!r}: {elapsed:.1f} s"


@pytest.mark.parametrize("scene_file", SCENE_FILES)
@settings(FUZZ, max_examples=200)
@given(data=st.data())
def test_any_question_is_answered_or_refused_in_one_line(scene_file: str, data: Any) -> None:
    scene = SCENES[scene_file]
    name, args, extras = data.draw(questions(scene))
    _answer_or_one_line(scene, name, args, extras)


@pytest.mark.parametrize("scene_file", SCENE_FILES)
@settings(FUZZ, max_examples=150)
@given(data=st.data())
def test_each_option_with_any_value(scene_file: str, data: Any) -> None:
    # Every (question, option) pair with a random value, the arguments right: the
    # value reaches the option's check, not an early "unknown figure".
    scene = SCENES[scene_file]
    pairs = [
        (question.name, len(question.args), option)
        for question in find_ruleset(scene.ruleset).questions().values()
        for option in question_options(question.handler)
    ]
    name, arity, option = data.draw(st.sampled_from(pairs))
    args = data.draw(st.lists(st.sampled_from(_names(scene)), min_size=arity, max_size=arity))
    _answer_or_one_line(scene, name, args, {option: data.draw(option_values(scene))})


# --- scene text -------------------------------------------------------------------------

SCENE_TEXTS = [(EXAMPLES / name).read_text(encoding="utf-8") for name in SCENE_FILES]


@st.composite
def scene_texts(draw: st.DrawFn) -> str:
    """Scene YAML: random text, or an example with a line cut, doubled or replaced."""
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(st.text(max_size=200))
    lines = draw(st.sampled_from(SCENE_TEXTS)).splitlines()
    index = draw(st.integers(0, len(lines) - 1))
    line = lines[index]
    if kind == 1:
        key, colon, _ = line.partition(":")
        value = draw(VALUES)
        new = f"{key}{colon} {json.dumps(value, default=str)}" if colon else draw(HOSTILE_TEXT)
        lines[index] = new
    elif kind == 2:
        cut = draw(st.integers(0, len(line)))
        lines[index] = line[:cut] + draw(HOSTILE_TEXT) + line[cut:]
    else:
        del lines[index]
    return "\n".join(lines)


@st.composite
def scene_data(draw: st.DrawFn) -> Any:
    """An example scene's data with one value anywhere replaced by a random one."""
    data = yaml.safe_load(draw(st.sampled_from(SCENE_TEXTS)))
    node: Any = data
    for _ in range(draw(st.integers(1, 5))):
        if isinstance(node, dict) and node:
            key = draw(st.sampled_from(sorted(node, key=str)))
            if not isinstance(node[key], dict | list) or draw(st.booleans()):
                node[key] = draw(VALUES)
                break
            node = node[key]
        elif isinstance(node, list) and node:
            index = draw(st.integers(0, len(node) - 1))
            if not isinstance(node[index], dict | list) or draw(st.booleans()):
                node[index] = draw(VALUES)
                break
            node = node[index]
        else:
            break
    return data


ATTRIBUTES = (
    "alone ambush ammunition_of archer armour chariot combat cover crew_of elephant "
    "elevation_mm fanatic ferocious fired general gun heavy hero impetuous ini leader light "
    "loose_order melee_weapon mou_cm move_pas musician muzzle_mm pa_bonus pi_bonus pikes rank "
    "resistance rifled scout senior_officer shaken skirmisher sniper standard terrain va "
    "veteran weapon"
).split()
"""The figure attributes the rule systems read."""


@st.composite
def attribute_values(draw: st.DrawFn) -> Any:
    weapon = st.fixed_dictionaries(
        {},
        optional={
            key: VALUES
            for key in "kind medium_range_cm range_pas short_pas medium_pas long_pas strength "
            "black_powder artillery reload rifled".split()
        },
    )
    return draw(st.one_of(VALUES, weapon, st.integers(-3, 12), st.floats(-5, 50)))


@st.composite
def scene_with_odd_attributes(draw: st.DrawFn) -> Any:
    """An example scene whose figures carry random values in the attributes read."""
    data = yaml.safe_load(draw(st.sampled_from(SCENE_TEXTS)))
    for _ in range(draw(st.integers(1, 4))):
        figure = draw(st.sampled_from(data["figures"]))
        figure.setdefault("attrs", {})[draw(st.sampled_from(ATTRIBUTES))] = draw(attribute_values())
    return data


def _scene_or_one_line(read: Any) -> None:
    started = time.perf_counter()
    try:
        read()
    except RulesError as error:
        _one_line(str(error))
    assert time.perf_counter() - started < CASE_SECONDS


@settings(FUZZ, max_examples=300)
@given(text=scene_texts())
def test_any_scene_text_is_read_or_refused_in_one_line(text: str) -> None:
    _scene_or_one_line(lambda: parse_scene(read_scene_text(text, "scene.yaml"), source="s"))


@settings(FUZZ, max_examples=300)
@given(data=scene_data())
def test_any_scene_data_is_read_or_refused_in_one_line(data: Any) -> None:
    _scene_or_one_line(lambda: parse_scene(data, source="scene.yaml"))


@settings(FUZZ, max_examples=300)
@given(data=st.data())
def test_any_question_on_a_damaged_scene(data: Any) -> None:
    # A scene with one value changed anywhere (an attribute, a base, an option) that
    # still reads: every question answers or refuses in one line.
    damaged = data.draw(st.one_of(scene_data(), scene_with_odd_attributes()))
    try:
        scene = parse_scene(damaged, source="scene.yaml")
    except RulesError:
        return
    name, args, extras = data.draw(questions(scene))
    _answer_or_one_line(scene, name, args, extras)


@settings(FUZZ, max_examples=50)
@given(raw=st.binary(max_size=300))
def test_any_bytes_are_read_or_refused_in_one_line(raw: bytes, tmp_path_factory: Any) -> None:
    path = tmp_path_factory.mktemp("scene") / "scene.yaml"
    path.write_bytes(raw)
    _scene_or_one_line(lambda: load_scene(path))


# --- the command line -------------------------------------------------------------------


def _with_value(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, float) and not math.isfinite(value):
        return {math.inf: ".inf", -math.inf: "-.inf"}.get(value, ".nan")
    try:
        return json.dumps(value)
    except ValueError:
        return str(value)


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    scene_file = draw(st.sampled_from(SCENE_FILES))
    scene = SCENES[scene_file]
    name, args, _ = draw(questions(scene))
    words = [str(name)] + ([str(a) for a in args] if isinstance(args, list) else [str(args)])
    argv = ["ask", str(EXAMPLES / scene_file), *words]
    for _ in range(draw(st.integers(0, 3))):
        option = draw(st.sampled_from(_option_names(scene) or ["die"]))
        kind = draw(st.integers(0, 4))
        if kind == 0:
            argv += ["--with", f"{option}={_with_value(draw(VALUES))}"]
        elif kind == 1:
            argv += ["--with", draw(HOSTILE_TEXT)]
        elif kind == 2:
            argv += ["--die", draw(st.one_of(NUMBERS_AS_TEXT, HOSTILE_TEXT))]
        elif kind == 3:
            argv += ["--json"]
        else:
            argv += [draw(st.sampled_from(["--bonus", "--action", "--lang", "--nope"]))]
            argv += [draw(st.one_of(NUMBERS_AS_TEXT, HOSTILE_TEXT))]
    return argv


@settings(FUZZ, max_examples=300)
@given(argv=command_lines())
def test_any_ask_command_line_answers_or_exits_2_with_one_line(argv: list[str]) -> None:
    started = time.perf_counter()
    code, out, err = run_console(*argv)
    assert time.perf_counter() - started < CASE_SECONDS
    assert "Traceback" not in err
    if code == 0:
        assert out.strip() and not err, (argv, err)
    else:
        assert code == 2, (argv, code, err)
        assert out == "", (argv, out)
        assert err.startswith("arbitre: ") and err.count("\n") == 1, (argv, err)
        assert len(err) <= 700, (argv, len(err))
