"""docs/formats.md: every example in it is read by arbitre's own reader for its kind of file.

An example is the fenced block right after an ``<!-- example: KIND -->`` comment. YAML
examples are written to a file and loaded by the real loader; a JSON example's fields
must all be in a real answer of the same kind (and an ``arbitre ask`` example must be
the real answer, value for value, on the page's own scene example).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
import yaml
from typer.testing import CliRunner

from arbitre.api.cli import app
from arbitre.api.settings import load_settings
from arbitre.calibration.board import load_board
from arbitre.calibration.camera import load_camera, save_camera
from arbitre.calibration.table import check_roster_against_table, load_roster, load_table
from arbitre.rules.answers import Reason
from arbitre.rules.questions import ask
from arbitre.rules.scene import load_scene, parse_scene

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "formats.md"
TEXT = DOC.read_text(encoding="utf-8")

MARKER = re.compile(r"<!-- example: (?P<kind>\S+) -->")
EXAMPLE = re.compile(
    r"<!-- example: (?P<kind>\S+) -->\n```(?P<lang>\w*)\n(?P<body>.*?)\n```\n", re.S
)

# Every file users write or read, and every JSON answer, has at least one example.
REQUIRED_KINDS = {
    "camera.yaml",
    "opencv-camera.yml",
    "ros-camera-info.yaml",
    "board.yaml",
    "table.yaml",
    "roster.yaml",
    "roster-terrain.yaml",
    "scene.yaml",
    "arbitre.yaml",
    "locate.json",
    "calibrate-camera.json",
    "ask.json",
    "state.json",
}

# Objects keyed by names the user chose (groups by group name ...): their keys are data,
# not fields, and are not looked for in the real answer.
DATA_KEYED = {"groups", "references", "sides"}

runner = CliRunner()


@dataclass(frozen=True)
class Example:
    kind: str
    body: str
    line: int

    @property
    def name(self) -> str:
        return f"{self.kind}@{self.line}"


def _examples() -> list[Example]:
    return [
        Example(m["kind"], m["body"], TEXT.count("\n", 0, m.start()) + 1)
        for m in EXAMPLE.finditer(TEXT)
    ]


EXAMPLES = _examples()


def _bodies(kind: str) -> list[str]:
    return [e.body for e in EXAMPLES if e.kind == kind]


def _write(folder: Path, name: str, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(body + "\n", encoding="utf-8")
    return path


def _cli(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    answer: dict[str, Any] = json.loads(result.stdout)
    return answer


# --- real answers to compare the JSON examples with -----------------------------------


@pytest.fixture(scope="module")
def scene_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page's scene example, as a file."""
    (body,) = _bodies("scene.yaml")
    return _write(tmp_path_factory.mktemp("scene"), "scene.yaml", body)


@pytest.fixture(scope="module")
def real_locate(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """``arbitre locate --json`` on a simulated table (tilted camera, raised markers)."""
    from arbitre.calibration.simulated import write_setup
    from arbitre.vision.simulate import preset

    folder = tmp_path_factory.mktemp("locate")
    scene = preset("tripod", scale=0.5, seed=3)
    image = folder / "frame.png"
    cv2.imwrite(str(image), scene.render().image)
    files = write_setup(scene, folder)
    # One of the figures' markers carries a wood instead: it is listed under terrain.
    roster = yaml.safe_load(files.roster.read_text(encoding="utf-8"))
    carrier = roster["figures"].pop()
    roster["terrain"] = [
        {
            "marker": carrier["marker"],
            "id": "copse1",
            "kind": "wood",
            "marker_height_mm": carrier.get("marker_height_mm", 0),
            "polygon_mm": [[-100, -60], [100, -60], [100, 60], [-100, 60]],
        }
    ]
    files.roster.write_text(yaml.safe_dump(roster), encoding="utf-8")
    return _cli(
        "locate",
        str(image),
        "--camera",
        str(files.camera),
        "--table",
        str(files.table),
        "--roster",
        str(files.roster),
        "--json",
    )


@pytest.fixture(scope="module")
def real_calibration(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """``arbitre calibrate camera --json`` on rendered views of the page's ChArUco board,
    plus one file that is not an image (rejected)."""
    from arbitre.vision.simulate import Camera, look_at, render_plane

    folder = tmp_path_factory.mktemp("calibrate")
    (charuco,) = [b for b in _bodies("board.yaml") if "type: charuco" in b]
    board_path = _write(folder, "board.yaml", charuco)
    board = load_board(board_path)
    px_per_mm = 6
    width_mm, height_mm = board.squares_x * board.square_mm, board.squares_y * board.square_mm
    sheet = board.charuco_board().generateImage(
        (int(width_mm * px_per_mm), int(height_mm * px_per_mm)), marginSize=0
    )
    matrix = np.array([[560.0, 0.0, 319.5], [0.0, 560.0, 239.5], [0.0, 0.0, 1.0]])
    dist = np.array([-0.2, 0.05, 0.0, 0.0, 0.0])
    centre = (width_mm / 2, height_mm / 2, 0.0)
    rng = np.random.default_rng(1)
    images = []
    for index in range(5):
        eye = (
            centre[0] + rng.uniform(-120, 120),
            centre[1] + rng.uniform(-90, 90),
            -rng.uniform(250, 350),
        )
        rvec, tvec = look_at(eye, centre, up=(rng.uniform(-0.4, 0.4), -1.0, 0.0))
        camera = Camera(matrix, dist, (640, 480), rvec, tvec)
        path = folder / f"view{index}.png"
        cv2.imwrite(str(path), render_plane(camera, sheet, 1 / px_per_mm))
        images.append(str(path))
    notes = _write(folder, "notes.jpg", "not an image")
    out = folder / "camera.yaml"
    answer = _cli(
        "calibrate",
        "camera",
        *images,
        str(notes),
        "--board",
        str(board_path),
        "--out",
        str(out),
        "--json",
    )
    load_camera(out)  # what it wrote is a camera.yaml
    return answer


@pytest.fixture(scope="module")
def real_state() -> dict[str, Any]:
    """The ``/api/state`` object of the demo table after a few frames."""
    from arbitre.api.live.demo import DemoSource, demo_config
    from arbitre.api.live.table import LiveTable

    config = demo_config()
    live = LiveTable(config, DemoSource(move_every_s=1e9))
    for _ in range(2):
        assert live.step()
    state: dict[str, Any] = live.state()
    return state


# --- comparing ------------------------------------------------------------------------


def _assert_fields_within(example: Any, real: Any, where: str) -> None:
    """Every field of the example is a field of the real answer, at every depth."""
    if isinstance(example, dict):
        assert isinstance(real, dict), f"{where}: an object in the example, {real!r} really"
        missing = sorted(set(example) - set(real))
        assert not missing, f"{where}: {missing} not in the real answer {sorted(real)}"
        for key, value in example.items():
            if key not in DATA_KEYED:
                _assert_fields_within(value, real[key], f"{where}.{key}")
    elif isinstance(example, list) and any(isinstance(item, dict) for item in example):
        assert isinstance(real, list), f"{where}: a list in the example, {real!r} really"
        fields = {k: v for item in real if isinstance(item, dict) for k, v in item.items()}
        assert fields, f"{where}: the real answer has no objects here to compare with"
        for index, item in enumerate(example):
            _assert_fields_within(item, fields, f"{where}[{index}]")


def _assert_same_values(example: Any, real: Any, where: str) -> None:
    """The example is the real answer (numbers to the micrometre; sentences may differ)."""
    if isinstance(example, dict):
        assert isinstance(real, dict), where
        for key, value in example.items():
            assert key in real, f"{where}: {key!r} not in the real answer"
            if key != "message":
                _assert_same_values(value, real[key], f"{where}.{key}")
    elif isinstance(example, list):
        assert isinstance(real, list) and len(real) == len(example), f"{where}: {real!r}"
        for index, (mine, theirs) in enumerate(zip(example, real, strict=True)):
            _assert_same_values(mine, theirs, f"{where}[{index}]")
    elif isinstance(example, int | float) and not isinstance(example, bool):
        assert real == pytest.approx(example, abs=1e-3), f"{where}: {real!r}"
    else:
        assert real == example, f"{where}: {real!r}"


def _ask_args(answer: dict[str, Any]) -> list[str]:
    """The command-line arguments of the question an ``arbitre ask`` answer answers."""
    question = answer.get("question")
    if question in ("distance", "contact"):
        return [answer["a"], answer["b"]]
    if question == "fire":
        return [answer["shooter"], answer["target"]]
    if question == "move":
        x, y = answer["path_mm"][-1]
        return [answer["mover"], f"{x:g}", f"{y:g}"]
    if question == "reach":
        return [answer["mover"]]
    if question == "groups":
        return []
    pytest.fail(f"no way to check an answer to {question!r}: teach _ask_args")


# --- one check per kind ----------------------------------------------------------------

Check = Callable[[str, Path, pytest.FixtureRequest], None]


def _camera(body: str, folder: Path, _: pytest.FixtureRequest) -> None:
    camera = load_camera(_write(folder, "camera.yaml", body))
    # The page shows the fields arbitre itself writes.
    written = folder / "written.yaml"
    save_camera(camera, written)
    assert set(yaml.safe_load(written.read_text())) == set(yaml.safe_load(body))


def _foreign_camera(name: str) -> Check:
    def check(body: str, folder: Path, _: pytest.FixtureRequest) -> None:
        camera = load_camera(_write(folder, name, body))
        assert camera.fx > 0 and camera.image_size[0] > 0

    return check


def _board(body: str, folder: Path, _: pytest.FixtureRequest) -> None:
    board = load_board(_write(folder, "board.yaml", body))
    if board.type == "chessboard":
        # The page's worked example: OpenCV's "9x6" chessboard has 9 x 6 inner corners,
        # so 10 x 7 squares.
        assert (board.squares_x, board.squares_y) == (10, 7)
        assert board.inner_corners == (9, 6)


def _table(body: str, folder: Path, _: pytest.FixtureRequest) -> None:
    load_table(_write(folder, "table.yaml", body))


def _roster(body: str, folder: Path, _: pytest.FixtureRequest) -> None:
    roster = load_roster(_write(folder, "roster.yaml", body))
    table = load_table(_write(folder, "table.yaml", _bodies("table.yaml")[0]))
    check_roster_against_table(roster, table)  # no anchor's marker, all in the dictionary


def _roster_terrain(body: str, folder: Path, _: pytest.FixtureRequest) -> None:
    roster = load_roster(_write(folder, "roster.yaml", body))
    pieces = yaml.safe_load(body)["terrain"]
    assert [t.id for t in roster.terrain] == [p["id"] for p in pieces]
    # Each piece, placed by its marker, is a valid terrain feature of a scene.
    features = [t.placed(600.0, 450.0, 90.0) for t in roster.terrain]
    document = {"ruleset": "choc-base-6", "table": {"width_mm": 1200, "depth_mm": 900}}
    parse_scene({**document, "figures": [], "terrain": features})


def _scene(body: str, folder: Path, _: pytest.FixtureRequest) -> None:
    load_scene(_write(folder, "scene.yaml", body))


def _settings(body: str, folder: Path, _: pytest.FixtureRequest) -> None:
    settings = yaml.safe_load(body)
    for field in ("table", "roster"):
        (first, *_) = _bodies(f"{field}.yaml")
        _write(folder, settings[field], first)
    cameras = [c["camera"] for c in settings.get("cameras", [])] or [settings["camera"]]
    for camera in cameras:  # one camera.yaml or several (cameras:)
        _write(folder, camera, _bodies("camera.yaml")[0])
    loaded, config = load_settings(_write(folder, "arbitre.yaml", body))
    # What the live table checks once it has a table to build a scene of.
    table = {"width_mm": config.table.width_mm, "depth_mm": config.table.depth_mm}
    parse_scene(
        {
            "ruleset": loaded.ruleset,
            "options": loaded.options,
            "table": table,
            "figures": [],
            "terrain": loaded.terrain,
            "allies": loaded.allies,
        }
    )


def _answer_like(fixture: str) -> Check:
    def check(body: str, _folder: Path, request: pytest.FixtureRequest) -> None:
        real = request.getfixturevalue(fixture)
        _assert_fields_within(json.loads(body), real, fixture)

    return check


def _ask(body: str, _folder: Path, request: pytest.FixtureRequest) -> None:
    example = json.loads(body)
    scene = request.getfixturevalue("scene_path")
    real = _cli("ask", str(scene), example["question"], *_ask_args(example), "--json")
    _assert_fields_within(example, real, example["question"])
    _assert_same_values(example, real, example["question"])


CHECKS: dict[str, Check] = {
    "camera.yaml": _camera,
    "opencv-camera.yml": _foreign_camera("opencv-camera.yml"),
    "ros-camera-info.yaml": _foreign_camera("ros-camera-info.yaml"),
    "camera.xml": _foreign_camera("camera.xml"),
    "board.yaml": _board,
    "table.yaml": _table,
    "roster.yaml": _roster,
    "roster-terrain.yaml": _roster_terrain,
    "scene.yaml": _scene,
    "arbitre.yaml": _settings,
    "locate.json": _answer_like("real_locate"),
    "calibrate-camera.json": _answer_like("real_calibration"),
    "state.json": _answer_like("real_state"),
    "ask.json": _ask,
}


# --- the tests ---------------------------------------------------------------------------


def test_every_marker_opens_an_example_of_a_known_kind() -> None:
    markers = [m["kind"] for m in MARKER.finditer(TEXT)]
    assert markers == [e.kind for e in EXAMPLES], "a marker not followed by a fenced block"
    unknown = sorted({e.kind for e in EXAMPLES} - set(CHECKS))
    assert not unknown, f"examples of kinds no test reads: {unknown}"


def test_every_kind_of_file_and_answer_has_an_example() -> None:
    missing = sorted(REQUIRED_KINDS - {e.kind for e in EXAMPLES})
    assert not missing, f"docs/formats.md has no example of {missing}"
    boards = {yaml.safe_load(body)["type"] for body in _bodies("board.yaml")}
    assert boards == {"charuco", "chessboard"}
    questions = {json.loads(body)["question"] for body in _bodies("ask.json")}
    assert {"distance", "contact", "fire", "move"} <= questions
    assert len(_bodies("scene.yaml")) == 1  # the scene the ask examples answer on


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_example_is_read_by_the_real_reader(
    example: Example, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    check = CHECKS.get(example.kind)
    if check is None:
        pytest.fail(f"no reader for {example.kind!r} (line {example.line})")
    check(example.body, tmp_path, request)


def test_the_scene_example_answers_as_worked_by_hand(scene_path: Path) -> None:
    scene = load_scene(scene_path)
    # Groups A and R are measured between their reference figures' heads (CB6, 1 M =
    # 100 mm): a1 (100, 200), r1 (280, 440): sqrt(180^2 + 240^2) = sqrt(90000) = 300 mm,
    # 3 M. Their sigmas 0.3 and 0.4 give sqrt(0.09 + 0.16) = 0.5 mm.
    distance = ask(scene, "distance", ["A", "R"]).to_json()
    assert distance["distance_mm"] == pytest.approx(300.0)
    assert (distance["distance_units"], distance["unit"]) == (pytest.approx(3.0), "M")
    assert distance["sigma_mm"] == pytest.approx(0.5)
    # Contact: the gap is 300 - 25 (one thickness) = 275 mm, against a threshold of one
    # thickness, 25 mm: not in contact, by 250 mm.
    contact = ask(scene, "contact", ["A", "R"]).to_json()
    assert (contact["contact"], contact["gap_mm"], contact["margin_mm"]) == (False, 275.0, 250.0)
    # Fire: range 3 M = 300 mm, exactly the distance: allowed with a margin of 0, under
    # 2 sigma = 1 mm, so too close to call. PI: the two TD (a1, a2) with PI 2 each = 4.
    fire = ask(scene, "fire", ["A", "R"])
    answer = fire.to_json()
    assert (answer["allowed"], answer["certain"], answer["pi"]) == (True, False, 4)
    assert answer["margin_mm"] == pytest.approx(0.0)
    assert fire.message.startswith("too close to call")
    # Move to (300, 200): 200 mm straight along y = 200, 2 M (the wood from x = 300 costs
    # nothing more: the book gives terrain no cost); allowance = lowest PA x 1 M, a3 wounded
    # has PA 1: 1 M, 100 mm short.
    move = ask(scene, "move", ["A", "300", "200"]).to_json()
    assert (move["legal"], move["reasons"]) == (False, ["over_allowance"])
    assert (move["cost_mm"], move["allowance_mm"], move["margin_mm"]) == (200.0, 100.0, 100.0)


def test_every_reason_code_is_listed() -> None:
    listed = set(re.findall(r"^\| `([a-z_]+)` \|", TEXT, re.M))
    missing = sorted(code.value for code in Reason if code.value not in listed)
    assert not missing, f"reason codes missing from docs/formats.md: {missing}"


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def test_links_reach_their_headings_and_files() -> None:
    headings = {_slug(h) for h in re.findall(r"^#+ (.+)$", TEXT, re.M)}
    for anchor in re.findall(r"\]\(#([^)]+)\)", TEXT):
        assert anchor in headings, f"#{anchor} is no heading of docs/formats.md"
    for target in re.findall(r"\]\(([^)#:]+\.md)(?:#[^)]*)?\)", TEXT):
        assert (DOC.parent / target).is_file(), f"{target} does not exist"
