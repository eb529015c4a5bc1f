"""Fuzzing the HTTP layer: random bodies to every route that takes one, never a 5xx.

Bodies are drawn as JSON values (NaN, Infinity, 400-digit numbers, deep nesting, wrong
types, unknown keys) written as text, so that what Python's json module accepts and
plain JSON does not is tried too. Each request must answer 2xx or 4xx within
`LIMIT_S`; a 4xx detail is one short line. The examples are the same on every run (the
repository's hypothesis profile); ``HYPOTHESIS_PROFILE=explore`` draws new ones.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbitre.api.live.table import LiveTable
from tests.api.still_demo import still_demo

TOKEN = "fuzz"
LIMIT_S = 10.0  # the budget for any one answer
FUZZ = settings(
    max_examples=80,
    deadline=None,  # timed below, with the budget
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

FIGURES = ["Sergent", "Capitaine", "Chef alpin", "Cavalier", "alpins", "verts", "tireurs"]
# The arguments each question takes: a figure or group, or a table coordinate in mm.
ARGS = {
    "distance": ("who", "who"),
    "contact": ("who", "who"),
    "fire": ("who", "who"),
    "move": ("who", "mm", "mm"),
    "reach": ("who",),
    "groups": (),
    "impact": ("who", "who"),
    "potentials": ("who",),
}
QUESTIONS = list(ARGS)
EXTRAS = ["die", "dice", "mode", "as_group", "bonus", "length_cm"]
OPTIONS = ["unit_mm", "thickness_mm", "surface", "hex_mm", "contact_tolerance_mm"]
TERRAIN_KINDS = ["wood", "difficult", "impassable", "obstacle", "building", "lava"]

leaves = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-1000, max_value=1000)
    | st.integers(min_value=-(10**400), max_value=10**400)
    | st.floats()  # NaN and the infinities included
    | st.text(max_size=12)
)
values = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
numbers = st.one_of(
    st.floats(min_value=-2000, max_value=2000), st.floats(), st.integers(-(10**30), 10**30)
)
OFTEN = st.sampled_from([True, True, True, True, False])
deep = st.integers(min_value=30, max_value=3000).map(lambda n: "[" * n + "]" * n)


def _text(value: Any) -> str:
    """A value as Python writes JSON: NaN and Infinity appear as such."""
    return json.dumps(value, allow_nan=True)


def mostly(draw: st.DrawFn, usual: st.SearchStrategy[Any], odd: st.SearchStrategy[Any]) -> Any:
    """Four times in five a value of the usual shape, else an odd one."""
    return draw(usual if draw(OFTEN) else odd)


@st.composite
def questions(draw: st.DrawFn) -> str:
    question = mostly(draw, st.sampled_from(QUESTIONS), values)
    figure = st.one_of(*[st.sampled_from(FIGURES)] * 4, st.text(max_size=10))
    place = st.one_of(*[st.floats(0, 600).map(str)] * 4, numbers.map(str), st.text(max_size=6))
    kinds = ARGS.get(question, ()) if isinstance(question, str) else ()
    usual = st.tuples(*(place if kind == "mm" else figure for kind in kinds))
    body: dict[str, Any] = {
        "question": question,
        "args": mostly(draw, usual.map(list), st.lists(figure, max_size=3) | values),
    }
    if draw(st.booleans()):
        body["extras"] = mostly(
            draw, st.dictionaries(st.sampled_from(EXTRAS), values, max_size=2), values
        )
    if not draw(OFTEN):
        body[draw(st.text(max_size=6))] = draw(values)
    return _text(body) if draw(OFTEN) or draw(OFTEN) else draw(deep)


@st.composite
def options(draw: st.DrawFn) -> str:
    usual = st.dictionaries(
        st.sampled_from(OPTIONS), numbers | st.sampled_from(["hex"]), max_size=2
    )
    chosen = mostly(draw, usual, st.dictionaries(st.text(max_size=8), values, max_size=3) | values)
    return _text({"options": chosen} if draw(OFTEN) else chosen)


@st.composite
def terrain(draw: st.DrawFn) -> str:
    sane = st.floats(0, 900)
    coordinate = st.one_of(sane, sane, sane, numbers)  # three times in four on the table
    point = st.lists(coordinate, min_size=2, max_size=3)
    piece = st.fixed_dictionaries(
        {
            "id": st.text(min_size=1, max_size=6) | values,
            "kind": st.sampled_from(TERRAIN_KINDS) | values,
        },
        optional={
            "polygon_mm": st.lists(point, min_size=3, max_size=8) | values,
            "line_mm": st.lists(point, max_size=4),
            "level": st.integers(-2, 5) | values,
        },
    )
    return _text({"terrain": mostly(draw, st.lists(piece, max_size=3), values)})


@st.composite
def scene_files(draw: st.DrawFn) -> str:
    coordinate = st.floats(0, 600) | numbers | values
    figure = st.fixed_dictionaries(
        {
            "id": st.text(min_size=1, max_size=5),
            "side": st.sampled_from(["a", "b"]),
            "x_mm": coordinate,
            "y_mm": coordinate,
        },
        optional={"base": values, "sigma_mm": numbers},
    )
    scene = st.fixed_dictionaries(
        {
            "ruleset": st.sampled_from(["choc-base-6", "musg", "mbt", "nothing"]) | values,
            "table": st.fixed_dictionaries(
                {"width_mm": st.just(900) | numbers, "depth_mm": st.just(600) | numbers}
            ),
            "figures": st.lists(figure, max_size=4) | values,
        }
    )
    odd = st.text(max_size=200) | deep | values.map(_text)  # anything: YAML reads most
    return mostly(draw, scene.map(_text), odd)


@pytest.fixture(scope="module")
def demo() -> Iterator[tuple[TestClient, LiveTable]]:
    with still_demo(TOKEN, raise_server_exceptions=False) as served:
        yield served


def _usual_args(question: str) -> list[str]:
    """Arguments of the right kinds: the Sergent, then the Capitaine; (300, 300) mm."""
    who = iter(["Sergent", "Capitaine"])
    return ["300" if kind == "mm" else next(who) for kind in ARGS[question]]


def _send(client: TestClient, method: str, path: str, body: str) -> int:
    """Send ``body``; fail on a 5xx, a slow answer or a detail of more than one line."""
    headers = {"content-type": "application/json", "x-arbitre-token": TOKEN}
    started = time.monotonic()
    reply = client.request(method, path, content=body.encode(), headers=headers)
    spent = time.monotonic() - started
    shown = body[:300]
    assert reply.status_code < 500, f"{method} {path} {shown} -> {reply.text[:300]}"
    assert spent < LIMIT_S, f"{method} {path} {shown} took {spent:.1f} s"
    if reply.status_code >= 400:
        detail = reply.json()["detail"]
        assert isinstance(detail, str) and "\n" not in detail and len(detail) <= 300, detail
    return reply.status_code


@settings(FUZZ, max_examples=150)
@given(body=questions())
def test_questions_never_5xx(demo: tuple[TestClient, LiveTable], body: str) -> None:
    client, _ = demo
    _send(client, "POST", "/api/ask", body)


@FUZZ
@given(body=options())
def test_options_never_5xx_nor_break_later_questions(
    demo: tuple[TestClient, LiveTable], body: str
) -> None:
    client, live = demo
    try:
        if _send(client, "PUT", "/api/options", body) == 200:
            # Whatever was taken, the questions still answer.
            for question, args in [("reach", ["Sergent"]), ("fire", ["Sergent", "Capitaine"])]:
                _send(client, "POST", "/api/ask", _text({"question": question, "args": args}))
    finally:
        live.set_options({"unit_mm": 100})


@FUZZ
@given(body=terrain())
def test_terrain_never_5xx(demo: tuple[TestClient, LiveTable], body: str) -> None:
    client, live = demo
    kept = [dict(piece) for piece in live.config.terrain]
    try:
        if _send(client, "PUT", "/api/terrain", body) == 200:
            _send(
                client,
                "POST",
                "/api/ask",
                _text({"question": "move", "args": FIGURES[:1] + ["400", "300"]}),
            )
    finally:
        live.use_terrain(kept)


@FUZZ
@given(body=scene_files())
def test_scene_files_never_5xx(demo: tuple[TestClient, LiveTable], body: str) -> None:
    client, _ = demo
    _send(client, "POST", "/api/scene/read?name=fuzz.yaml", body)


@FUZZ
@given(
    changed=st.dictionaries(
        st.sampled_from(["ruleset", "options", "table", "figures", "terrain", "allies"]),
        values,
        max_size=2,
    ),
    question=st.sampled_from(QUESTIONS),
)
def test_questions_on_a_given_scene_never_5xx(
    demo: tuple[TestClient, LiveTable], changed: dict[str, Any], question: str
) -> None:
    client, live = demo
    document = {**live.scene_document(), **changed}  # the live scene, parts replaced
    _send(
        client,
        "POST",
        "/api/ask",
        _text({"question": question, "args": _usual_args(question), "scene": document}),
    )


@FUZZ
@given(
    host=st.sampled_from(["127.0.0.1:8000", "localhost", "testserver"])
    | st.text(st.characters(min_codepoint=33, max_codepoint=126), max_size=40),
    overlays=st.sampled_from(["true", "false"]) | st.text(max_size=8),
    path=st.sampled_from(["/api/health", "/api/state", "/api/scene", "/api/snapshot.jpg"]),
)
def test_host_names_and_queries_never_5xx(
    demo: tuple[TestClient, LiveTable], host: str, overlays: str, path: str
) -> None:
    client, _ = demo
    started = time.monotonic()
    reply = client.get(path, params={"overlays": overlays}, headers={"host": host})
    assert time.monotonic() - started < LIMIT_S
    assert reply.status_code in (200, 400, 422), (host, overlays, reply.text[:300])
    if reply.status_code == 400:
        assert host not in ("127.0.0.1:8000", "localhost", "testserver")
