"""The ``arbitre`` command line: a thin shell over rules, calibration and vision.

Its annotations are objects, not text (no ``from __future__ import annotations``): Typer
reads every command's parameters at each start, and would compile and evaluate text there,
each several times over.
"""

import dataclasses
import json
import math
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar, cast

import typer

from arbitre.bounds import LONGEST_MM
from arbitre.calibration.errors import CalibrationError
from arbitre.calibration.progress import Progress
from arbitre.rules.answers import counted
from arbitre.rules.errors import RulesError
from arbitre.vision.errors import VisionError

app = typer.Typer(
    name="arbitre",
    help="A computer-vision table assistant for miniature wargames.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",  # a docstring's lines make paragraphs, re-wrapped
)
bench_app = typer.Typer(help="Measure speed and accuracy.", no_args_is_help=True)
app.add_typer(bench_app, name="bench")
print_app = typer.Typer(
    help="Printable sheets: markers and calibration boards.", no_args_is_help=True
)
app.add_typer(print_app, name="print")
calibrate_app = typer.Typer(help="Calibrate the camera.", no_args_is_help=True)
app.add_typer(calibrate_app, name="calibrate")
table_app = typer.Typer(help="Set up a table: its size and anchor markers.", no_args_is_help=True)
app.add_typer(table_app, name="table")


def _version(shown: bool) -> None:
    if shown:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"arbitre {version('arbitre')}")
        except PackageNotFoundError:  # run from a tree that was never installed
            typer.echo("arbitre (not installed: no version)")
        raise typer.Exit()


@app.callback()
def _options(
    _shown: Annotated[
        bool,
        typer.Option(
            "--version", help="Show arbitre's version and exit.", callback=_version, is_eager=True
        ),
    ] = False,
) -> None:
    """A computer-vision table assistant for miniature wargames."""


F = TypeVar("F", bound=Callable[..., Any])
_T = TypeVar("_T")

MAX_TABLE_MM = LONGEST_MM
"""The largest table side (100 m), as in a scene."""

MAX_CAMERA_INDEX = 63
"""The largest webcam index taken (OpenCV crashes on a negative one)."""


def fail(message: str) -> typer.Exit:
    """Print one line on stderr and give the exit for bad input (status 2)."""
    typer.echo(f"arbitre: {message}", err=True)
    return typer.Exit(code=2)


def bad_input_exits_2(command: F) -> F:
    """Turn the domain errors of a command into one line on stderr and exit status 2."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except BrokenPipeError:
            raise  # the reader went away (`| head`): click ends the command quietly
        except (RulesError, CalibrationError, VisionError, OSError) as error:
            raise fail(str(error)) from None

    return wrapper  # type: ignore[return-value]


@contextmanager
def _progress_bar(description: str, *, quiet: bool = False) -> Iterator[Progress | None]:
    """A `Progress` callback drawing a bar on stderr, or None when ``quiet`` (``--json``)
    or stderr is not a terminal; the bar goes away once the work is done."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
    from rich.progress import Progress as Bar

    with Bar(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task(description, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


PATH_QUESTIONS = frozenset({"move", "reach", "run", "pursuit"})
"""Questions that search paths: a move, a reachable area, M.U.S.G.'s run, Confrontation's
pursuit. (M.U.S.G.'s charge searches one too, but Smooth & Rifled's, a straight line, would
pay for loading the loops for nothing: a first M.U.S.G. charge after installing compiles
them within its own time limit.)"""


@app.command(context_settings={"ignore_unknown_options": True})  # `move A 250 -3`
@bad_input_exits_2
def ask(
    scene: Annotated[Path, typer.Argument(help="scene.yaml to ask about")],
    question: Annotated[
        str,
        typer.Argument(help="distance, fire, move, reach...: `arbitre questions` lists them all"),
    ],
    args: Annotated[list[str] | None, typer.Argument(help="figure ids, group names, mm")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="answer as one JSON object")] = False,
    action: Annotated[
        str | None,
        typer.Option(help="the action: fire or close (impact), first or later (S&R move, charge)"),
    ] = None,
    die: Annotated[int | None, typer.Option(help="the die rolled (1-6)")] = None,
    bonus: Annotated[int | None, typer.Option(help="impact: group bonus")] = None,
    extra: Annotated[
        list[str] | None,
        typer.Option("--with", help="any other option of the question, KEY=VALUE (repeatable)"),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang", envvar="ARBITRE_LANG", help="answer in en (default) or fr, as the page does"
        ),
    ] = None,
    time_limit: Annotated[
        float,
        typer.Option(
            help="give up after this many seconds (a reach across hundreds of obstacles)",
            min=1,
            max=3600,
        ),
    ] = 10.0,
) -> None:
    """Answer a rules question on a scene file."""

    from arbitre.rules.errors import shown, stopped_after
    from arbitre.rules.questions import ask as ask_question
    from arbitre.rules.scene import load_scene, read_scene_text

    language = _answer_language(lang)
    extras: dict[str, Any] = {}
    for item in extra or []:
        key, equals, value = item.partition("=")
        if not equals or not key.isidentifier() or len(key) > 100:
            raise fail(f"--with takes KEY=VALUE, got {shown(item)}")
        if key in extras:
            raise fail(f"--with {key}= is given twice")
        try:  # 3 -> int, 2.5 -> float, true -> bool, [1, 2] -> a list
            extras[key] = read_scene_text(value, f"--with {key}")
        except RulesError as error:
            raise fail(str(error)) from None
    shortcuts: tuple[tuple[str, object], ...] = (("action", action), ("die", die), ("bonus", bonus))
    for name, given in shortcuts:
        if given is not None:
            if name in extras:
                raise fail(f"--{name} and --with {name}= are both given")
            extras[name] = given
    loaded = load_scene(scene)
    if question in PATH_QUESTIONS:
        # The path search's compiled loops, loaded (or, once after installing, compiled:
        # seconds on a slow machine) before the time limit starts.
        from arbitre.rules.pathing.kernels import warm

        warm()
    from arbitre.api.limits import QUESTION_MEMORY_BYTES, cap_memory, too_costly

    if _OWN_PROCESS:  # a process of its own: bound it (a caller's process keeps its own)
        cap_memory(QUESTION_MEMORY_BYTES)
    try:
        with _time_limit(time_limit, f"{question}: {stopped_after(time_limit)} (see --time-limit)"):
            answer = ask_question(loaded, question, args or [], extras)
    except MemoryError:
        raise fail(too_costly(question)) from None
    except RulesError as error:
        if language is None:
            raise
        from arbitre.api.i18n import phrase_error

        raise fail(phrase_error(error, language)) from None
    if as_json or language is None:
        typer.echo(
            json.dumps(answer.to_json()) if as_json else _with_warnings(answer.message, answer)
        )
        return
    from arbitre.api.i18n import phrase_answer

    data = answer.to_json()
    target = _move_target(args or []) if data["question"] == "move" else None
    typer.echo("\n".join(phrase_answer(data, language, target).lines()))


class _OutOfTime(Exception):
    """The alarm of `_time_limit` rang."""


RING_AGAIN_S = 0.1
"""After its time, `_time_limit`'s alarm rings again at this interval until the work stops."""


@contextmanager
def _time_limit(seconds: float, message: str) -> Iterator[None]:
    """Give up the work inside after ``seconds``: one line (``message``) and exit 2.

    The alarm is a signal of the main thread: where there is none (Windows, a thread)
    the work runs to its end."""
    import signal

    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return

    def ring(_signal: int, _frame: object) -> None:
        raise _OutOfTime

    previous = signal.signal(signal.SIGALRM, ring)
    # It rings again every tenth of a second: an exception raised where Python ignores it
    # (an object's __del__ run by the garbage collector) must not let the work run on.
    signal.setitimer(signal.ITIMER_REAL, seconds, RING_AGAIN_S)
    # A signal waits for the compiled loops (NumPy's, the path search's) to return to
    # Python: past `HARD_STOP_S` more, a watch says the same line and ends the process
    # (only a process of its own: never the process of a caller of `app`).
    watch = threading.Timer(seconds + HARD_STOP_S, _hard_stop, args=(message,))
    watch.daemon = True
    if _OWN_PROCESS:
        watch.start()
    try:
        yield
    except _OutOfTime:
        raise fail(message) from None
    finally:
        watch.cancel()
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


HARD_STOP_S = 2.0
"""How long past its time limit a question stuck in compiled loops may run."""


def _hard_stop(message: str) -> None:
    """End the process at once with the time limit's line (exit 2): the work inside is
    in a loop no signal interrupts."""
    sys.stderr.write(f"arbitre: {message}\n")
    sys.stderr.flush()
    sys.stdout.flush()
    os._exit(2)


def _with_warnings(message: str, answer: object) -> str:
    """The answer's message, and a ``warning:`` line for each of its warnings that the
    message does not already give (as the page and ``--lang fr`` show them all)."""
    warnings = getattr(answer, "warnings", None) or ()
    missing = [w for w in warnings if isinstance(w, str) and f"warning: {w}" not in message]
    return message + "".join(f"\nwarning: {w}" for w in missing)


def _answer_language(lang: str | None) -> str | None:
    """The catalogue's language of ``--lang``, or None for the rules' own English words
    (the page's catalogue is read only for another language)."""
    if not lang:
        return None
    from arbitre.api.i18n import DEFAULT_LANGUAGE, LanguageError, find_language
    from arbitre.rules.errors import shown

    try:
        language = find_language(lang)
    except LanguageError as error:
        short = str(error) if len(str(error)) <= 200 else f"unknown language {shown(lang)}"
        raise fail(short) from None
    return None if language == DEFAULT_LANGUAGE else language


def _move_target(args: list[str]) -> tuple[float, float] | None:
    """The destination of ``move A X Y`` in table mm, or None if X Y are not numbers."""
    try:
        return float(args[1]), float(args[2])
    except (IndexError, ValueError):
        return None


@app.command()
@bad_input_exits_2
def plan(
    table: Annotated[str, typer.Option(help="the table, WIDTHxDEPTH in mm, e.g. 1830x1220")],
    camera: Annotated[
        str, typer.Option(help="the camera's picture: 720p, 1080p, 1440p, 4k or WxH")
    ] = "1080p",
    height_mm: Annotated[float, typer.Option(help="the camera's height over the table")] = 1100,
    cameras: Annotated[
        int, typer.Option(help="1, or 2 at the middles of opposite long edges", min=1, max=2)
    ] = 1,
    marker_mm: Annotated[float, typer.Option(help="the figures' markers' side")] = 15.0,
    marker_height_mm: Annotated[
        float, typer.Option(help="how high the markers ride (0: on the bases)")
    ] = 0.0,
    fov_deg: Annotated[float, typer.Option(help="the camera's horizontal field of view")] = 88.0,
    back_mm: Annotated[
        float, typer.Option(help="how far behind the table's edge the tripod stands")
    ] = 300.0,
    anchor_size_mm: Annotated[float, typer.Option(help="the anchors' side")] = 40.0,
    as_json: Annotated[bool, typer.Option("--json", help="the answer as one JSON object")] = False,
) -> None:
    """How many pixels a marker's module gets on each part of the table, from the geometry
    of cameras on tripods at the middle of its long edges, and what would read it all."""
    from arbitre.calibration.plan import READABLE_MODULE_PX, SENSORS, SetUp
    from arbitre.calibration.plan import plan as planned
    from arbitre.calibration.setup import EDGE_ANCHORS_FROM_MM, corner_anchors

    width, depth = _two_lengths(table, "--table")
    size = SENSORS.get(camera.lower()) or _two_lengths(camera, "--camera", whole=True)
    setup = SetUp(
        width,
        depth,
        (int(size[0]), int(size[1])),
        fov_deg,
        height_mm,
        back_mm,
        cameras=cameras,
        marker_mm=marker_mm,
        marker_height_mm=marker_height_mm,
    )
    big = max(width, depth) >= EDGE_ANCHORS_FROM_MM
    anchors = corner_anchors(width, depth, anchor_size_mm, 35.0, edge_middles=big)
    answer = planned(setup, [(a["x_mm"], a["y_mm"], anchor_size_mm) for a in anchors])
    others = {
        "in 4K": dataclasses.replace(setup, image_size=SENSORS["4k"]),
        "with two cameras": dataclasses.replace(setup, cameras=2),
        "two 4K cameras": dataclasses.replace(setup, image_size=SENSORS["4k"], cameras=2),
        "500 mm higher": dataclasses.replace(setup, height_mm=setup.height_mm + 500.0),
    }
    answer["alternatives"] = {
        name: round(planned(other)["readable_share"], 3)
        for name, other in others.items()
        if other != setup
    }
    if as_json:
        typer.echo(json.dumps(answer))
        return
    label = "camera" if cameras == 1 else "cameras at opposite edges"
    typer.echo(
        f"{width:g} x {depth:g} mm table, {cameras} {size[0]}x{size[1]} {label} "
        f"{height_mm:g} mm up, {marker_mm:g} mm markers: {answer['readable_share']:.0%} of "
        f"the table at {READABLE_MODULE_PX:g} px a module or more (worst "
        f"{answer['worst_module_px']:g} px)"
    )
    smallest = answer["smallest_marker_mm"]
    typer.echo(
        f"markers read everywhere: {smallest:g} mm or more"
        if smallest is not None
        else "part of the table is out of every camera's view"
    )
    typer.echo("px a module, every 150 mm, the table seen from above (+y up; '.' under 1):")
    for row in answer["grid"][1::3][::-1]:
        typer.echo("  " + "".join(_cell(value) for value in row[1::3]))
    seen = ", ".join(f"{k} {a['module_px']:g} px" for k, a in enumerate(answer["anchors"]))
    typer.echo(f"anchors ({anchor_size_mm:g} mm): {seen}")
    if answer["readable_share"] < 1.0:
        typer.echo(
            "would read more: "
            + ", ".join(f"{name} {share:.0%}" for name, share in answer["alternatives"].items())
        )


def _two_lengths(text: str, option: str, *, whole: bool = False) -> tuple[float, float]:
    """``AxB`` as two positive numbers (whole ones for an image size)."""
    parts = text.lower().split("x")
    try:
        values = [float(p) for p in parts] if len(parts) == 2 else []
    except ValueError:
        values = []
    if len(values) != 2 or not all(math.isfinite(v) and 0 < v <= MAX_TABLE_MM for v in values):
        raise fail(f"{option}: expected WIDTHxDEPTH, two positive numbers, got {text[:40]!r}")
    if whole and not all(v == int(v) and v <= 100_000 for v in values):
        raise fail(f"{option}: expected a size in whole pixels, got {text[:40]!r}")
    return values[0], values[1]


def _cell(module_px: float) -> str:
    """One character of the plan's map: '.' under 1 px a module, the whole px to 9, '+'."""
    if module_px < 1.0:
        return "."
    return "+" if module_px >= 10.0 else str(int(module_px))


@app.command()
def rulesets() -> None:
    """List the rule systems arbitre knows."""
    from arbitre.rules.registry import find_ruleset, ruleset_names

    for name in ruleset_names():
        ruleset = find_ruleset(name)
        aliases = ", ".join(ruleset.aliases)
        typer.echo(f"{name}" + (f" (also: {aliases})" if aliases else ""))


@app.command()
@bad_input_exits_2
def questions(
    ruleset: Annotated[
        str | None, typer.Argument(help="a rule system (all of them when not given)")
    ] = None,
) -> None:
    """List the questions `arbitre ask` (and the page) answers, with their arguments."""
    from arbitre.rules.registry import find_ruleset, ruleset_names

    names = [find_ruleset(ruleset).name] if ruleset is not None else ruleset_names()
    for index, name in enumerate(names):
        if index:
            typer.echo()
        typer.echo(f"{name}:")
        found = find_ruleset(name).questions()
        width = max(len(" ".join((q.name, *q.args))) for q in found.values())
        for question in sorted(found.values(), key=lambda q: q.name):
            call = " ".join((question.name, *question.args))
            typer.echo(f"  {call:<{width}}  {question.summary}")


@app.command()
@bad_input_exits_2
def check(
    config: Annotated[Path, typer.Argument(help="arbitre.yaml")],
) -> None:
    """Check an arbitre.yaml and every file it names, as `serve --config` does before it
    starts, and say what it sets up (no camera is opened)."""
    from arbitre.api.settings import load_settings, summary, without_height

    settings, table_config = load_settings(config)
    for line in summary(settings, table_config):
        typer.echo(line)
    heights = without_height(table_config)
    if heights is not None:
        typer.echo(f"warning: {heights}")
    typer.echo(f"{config}: ready")


@app.command()
@bad_input_exits_2
def locate(
    images: Annotated[
        list[Path], typer.Argument(help="photos of the table: one per camera", metavar="IMAGE")
    ],
    camera: Annotated[
        list[Path],
        typer.Option(help="camera.yaml (or OpenCV / ROS calibration), one per photo, in order"),
    ],
    table: Annotated[Path, typer.Option(help="table.yaml")],
    roster: Annotated[Path | None, typer.Option(help="roster.yaml")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="the result as one JSON object")] = False,
    scene: Annotated[
        Path | None, typer.Option(help="write the table in this photo as a scene file")
    ] = None,
    ruleset: Annotated[
        str, typer.Option(help="the scene's rule system (with --scene)")
    ] = "choc-base-6",
    force: Annotated[bool, typer.Option("--force", help="overwrite the scene file")] = False,
) -> None:
    """Where are the markers on the table, in mm (height-corrected).

    Several photos of one table, each with its camera's file (--camera once per photo,
    in order), are fused: each marker once, from every view that saw it. With --scene,
    the photo becomes a scene file that `arbitre ask` reads: the roster's figures where
    they stand, with their uncertainty and the errors they share, and the terrain
    pieces seen.
    """
    from arbitre.calibration.camera import load_camera
    from arbitre.calibration.frame import Frame, locate_frame
    from arbitre.calibration.fuse import fuse
    from arbitre.calibration.locate import LocateResult
    from arbitre.calibration.pose import PoseFailure
    from arbitre.calibration.table import Roster, load_roster, load_table
    from arbitre.files import refuse_overwrite
    from arbitre.vision.detect import read_image

    if len(camera) != len(images):
        raise fail(
            f"give one --camera per photo, in order: {counted(len(images), 'photo')}, "
            f"{len(camera)} --camera"
        )
    if scene is not None:
        from arbitre.rules.registry import find_ruleset

        refuse_overwrite(scene, force=force)
        find_ruleset(ruleset)  # a wrong name is said before the photo is read
    the_table = load_table(table)
    the_roster = load_roster(roster) if roster is not None else None
    cameras = [load_camera(path) for path in camera]
    frames: list[Frame] = []
    views: list[LocateResult] = []
    for image, the_camera in zip(images, cameras, strict=True):
        frame = locate_frame(read_image(image), the_camera, the_table, the_roster)
        if isinstance(frame.located, PoseFailure):
            raise fail(f"{image}: {frame.located.message}")
        frames.append(frame)
        views.append(frame.located)
    fused = fuse(views) if len(views) > 1 else None
    if scene is not None:
        from arbitre.api.live import MIN_SIGMA_MM, TableConfig, located_tracks, scene_document

        config = TableConfig(cameras[0], the_table, the_roster or Roster(()), ruleset=ruleset)
        if fused is None:
            markers = (*views[0].markers, *(p.marker for p in views[0].terrain))
            shared_errors = views[0].shared_errors
        else:
            markers = (*(m.marker for m in fused.markers), *(p.marker for p in fused.terrain))
            shared_errors = fused.shared_errors
        tracks = located_tracks(markers, shared_errors, MIN_SIGMA_MM)
        document = scene_document(config, tracks, shared_errors)
        _write_scene(scene, document, force=force)
        if not as_json:
            typer.echo(f"{scene}: {counted(len(document['figures']), 'figure')}")
    if fused is not None:
        if as_json:
            data = fused.to_json()
            data["duplicates"] = [list(f.detections.duplicates) for f in frames]
            typer.echo(json.dumps(data))
        else:
            _say_fused(images, fused)
        return
    image, frame, located = images[0], frames[0], views[0]
    if as_json:
        typer.echo(json.dumps(frame.to_json()))
        return
    typer.echo(
        f"{image}: anchors {', '.join(map(str, located.pose.anchors_used))} "
        f"(reprojection {located.pose.reprojection_px:.2f} px); "
        f"{counted(len(located.markers), 'marker')}"
    )
    for marker in located.markers:
        name = f" {marker.figure}" if marker.figure else ""
        height = f"z {marker.z_mm:g}" if marker.height_known else "z 0: height not given"
        typer.echo(
            f"  {marker.id}{name}: x {marker.x_mm:.1f} mm, y {marker.y_mm:.1f} mm "
            f"± {marker.sigma_mm:.1f} ({height}), heading {marker.heading_deg:.0f}°"
        )
    for piece in located.terrain:
        typer.echo(
            f"  {piece.marker.id} terrain {piece.piece.id}: x {piece.marker.x_mm:.1f} mm, "
            f"y {piece.marker.y_mm:.1f} mm, heading {piece.marker.heading_deg:.0f}°"
        )
    for rejected in located.markers_rejected:
        typer.echo(f"  warning: marker {rejected.id} not placed: {rejected.reason}")
    for left_out in located.pose.anchors_rejected:
        typer.echo(f"  warning: anchor {left_out.id} left out of the pose: {left_out.reason}")
    for duplicate in frame.detections.duplicates:
        typer.echo(f"  warning: marker {duplicate} seen more than once; not placed")
    for anchor in the_table.anchors:
        if anchor.id not in located.pose.anchors_seen:
            typer.echo(
                f"  warning: anchor {anchor.id} not seen (hidden, out of the picture,"
                " or seen too slantwise)"
            )
    if the_roster is not None:
        found = {m.id for m in located.markers} | {p.marker.id for p in located.terrain}
        found |= {r.id for r in located.markers_rejected} | set(frame.detections.duplicates)
        missing = [f"{f.marker} {f.name}" for f in the_roster.figures if f.marker not in found]
        missing += [f"{t.marker} {t.id}" for t in the_roster.terrain if t.marker not in found]
        if missing:
            typer.echo(f"  not seen: {len(missing)} of the roster's markers ({', '.join(missing)})")


@print_app.command("markers")
@bad_input_exits_2
def print_markers(
    ids: Annotated[str, typer.Option(help="marker ids, e.g. 10-49 or 0,1,5-7")],
    size_mm: Annotated[
        float, typer.Option(help="side of the black square, 3 to 500 mm", min=3, max=500)
    ],
    out: Annotated[Path, typer.Option(help="sheet.pdf or sheet.svg")],
    dictionary: Annotated[str, typer.Option(help="ArUco dictionary")] = "DICT_4X4_250",
    paper: Annotated[str, typer.Option(help="paper size: a4 or letter")] = "a4",
    roster: Annotated[
        Path | None,
        typer.Option(help="roster.yaml: label each marker with its figure or terrain piece"),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="overwrite the sheet if it exists")
    ] = False,
) -> None:
    """Print markers at their exact size, each labelled with its id and dictionary."""
    from arbitre.calibration.printing import find_paper, marker_sheets, parse_ids, write_pages
    from arbitre.calibration.table import load_roster
    from arbitre.files import refuse_overwrite

    refuse_overwrite(out, force=force)
    sheet = find_paper(paper)
    marker_ids = parse_ids(ids)
    labels: list[str] = []
    if roster is not None:
        who = load_roster(roster)
        for marker_id in marker_ids:
            figure, piece = who.by_marker(marker_id), who.terrain_by_marker(marker_id)
            labels.append(
                figure.name if figure else f"terrain {piece.id} ({piece.kind})" if piece else ""
            )
    pages = marker_sheets(marker_ids, size_mm, dictionary, labels=labels, paper=sheet)
    with _progress_bar("writing pages", quiet=len(pages) < 2) as progress:
        write_pages(pages, out, progress=progress, overwrite=force)
    typer.echo(
        f"{out}: {counted(len(pages), 'page')} of {sheet}; print at 100 % and check the 100 mm bar"
    )


@print_app.command("board")
@bad_input_exits_2
def print_board(
    board: Annotated[Path, typer.Argument(help="board.yaml")],
    out: Annotated[Path, typer.Option(help="board.pdf or board.svg")],
    paper: Annotated[str, typer.Option(help="paper size: a4 or letter")] = "a4",
    force: Annotated[
        bool, typer.Option("--force", help="overwrite the sheet if it exists")
    ] = False,
) -> None:
    """Print a calibration board (ChArUco or chessboard) at its exact size.

    A board too wide for the upright paper is turned a quarter turn on it.
    """
    from arbitre.calibration.board import load_board
    from arbitre.calibration.printing import (
        board_orientation,
        board_sheet,
        find_paper,
        write_pages,
    )
    from arbitre.files import refuse_overwrite

    refuse_overwrite(out, force=force)
    sheet, target = find_paper(paper), load_board(board)
    page = board_sheet(target, sheet)
    write_pages([page], out, overwrite=force)
    turned = ", board turned to fit" if board_orientation(target, sheet) == "turned" else ""
    typer.echo(f"{out}: {sheet}{turned}; print at 100 % and glue it flat")


@calibrate_app.command("camera")
@bad_input_exits_2
def calibrate_camera(
    images: Annotated[list[Path], typer.Argument(help="photos of the board")],
    board: Annotated[Path, typer.Option(help="board.yaml")],
    out: Annotated[Path, typer.Option(help="camera.yaml to write")],
    as_json: Annotated[bool, typer.Option("--json", help="the result as one JSON object")] = False,
    force: Annotated[
        bool, typer.Option("--force", help="overwrite camera.yaml if it exists")
    ] = False,
) -> None:
    """Camera intrinsics from photos of a ChArUco board (or chessboard).

    A calibration the views do not support (too few distinct views, a focal length no
    lens has) writes nothing.
    """
    from arbitre.calibration.board import load_board
    from arbitre.calibration.camera import save_camera
    from arbitre.calibration.intrinsics import CalibrationFailure, calibrate_camera_from_files
    from arbitre.files import refuse_overwrite

    refuse_overwrite(out, force=force)  # before the long search, not after
    target = load_board(board)
    with _progress_bar("calibrating", quiet=as_json) as progress:
        result = calibrate_camera_from_files(images, target, progress=progress)
    if isinstance(result, CalibrationFailure):
        raise fail(result.message)
    save_camera(result.intrinsics, out, overwrite=force)
    if as_json:
        typer.echo(json.dumps(result.to_json()))
        return
    k = result.intrinsics
    typer.echo(
        f"{out}: RMS {result.rms_px:.3f} px from {counted(len(result.images_used), 'image')}; "
        f"fx {k.fx:.1f}, fy {k.fy:.1f}, cx {k.cx:.1f}, cy {k.cy:.1f}"
    )
    for rejected in result.images_rejected:
        typer.echo(f"  rejected {rejected.name}: {rejected.reason}")
    for warning in result.warnings:
        typer.echo(f"  warning: {warning}")


@table_app.command("init")
@bad_input_exits_2
def table_init(
    width_mm: Annotated[
        float, typer.Option(help="table width (x), mm, at most 100 m", max=MAX_TABLE_MM)
    ],
    depth_mm: Annotated[
        float, typer.Option(help="table depth (y), mm, at most 100 m", max=MAX_TABLE_MM)
    ],
    out: Annotated[Path, typer.Option(help="table.yaml to write")] = Path("table.yaml"),
    anchor_size_mm: Annotated[
        float, typer.Option(help="side of the anchor markers, 5 to 500 mm", min=5, max=500)
    ] = 40.0,
    inset_mm: Annotated[
        float, typer.Option(help="from the table edges to the anchors' centres")
    ] = 35.0,
    dictionary: Annotated[str, typer.Option(help="ArUco dictionary")] = "DICT_4X4_250",
    anchors_count: Annotated[
        int | None,
        typer.Option(
            "--anchors",
            help="4 (the corners) or 6 (and the middles of the long edges); default 6 for a "
            "table 1.5 m long or more",
            min=4,
            max=6,
        ),
    ] = None,
    sheet: Annotated[
        Path | None, typer.Option(help="anchor sheet to print (.pdf: the guide and the cards)")
    ] = None,
    paper: Annotated[str, typer.Option(help="paper size of the sheet: a4 or letter")] = "a4",
    force: Annotated[
        bool, typer.Option("--force", help="overwrite table.yaml and the sheet if they exist")
    ] = False,
) -> None:
    """Write a table.yaml with anchors 0-3 at the corners (and 4-5 at the middles of the
    long edges of a big table), and the anchor sheet to print.

    An existing table.yaml (perhaps corrected by hand) or sheet is kept unless --force.
    """
    from arbitre.calibration.printing import anchor_sheets, find_paper, write_pages
    from arbitre.calibration.setup import EDGE_ANCHORS_FROM_MM, corner_anchors, write_table
    from arbitre.calibration.table import Anchor

    if anchors_count not in (None, 4, 6):
        raise fail(f"--anchors takes 4 or 6, not {anchors_count}")
    big = max(width_mm, depth_mm) >= EDGE_ANCHORS_FROM_MM
    middles = anchors_count == 6 or (anchors_count is None and big)
    from arbitre.files import refuse_overwrite

    page_size = find_paper(paper)
    sheet = sheet or out.with_name(out.stem + "-anchors.pdf")
    for path in (out, sheet):
        refuse_overwrite(path, force=force)
    # Both files are checked before either is written: a sheet of another kind, or the
    # sheet in the place of table.yaml, writes neither.
    if sheet.suffix.lower() != ".pdf":  # two pages: the set-up guide, then the cards
        raise fail(f"{sheet}: write the anchor sheet as a .pdf file (it has two pages)")
    if sheet.resolve() == out.resolve():
        raise fail(f"{sheet}: the sheet and table.yaml must be two files")
    anchors = corner_anchors(width_mm, depth_mm, anchor_size_mm, inset_mm, edge_middles=middles)
    placed = [Anchor(**anchor) for anchor in anchors]  # the set-up guide, then the anchors
    pages = anchor_sheets(width_mm, depth_mm, dictionary, placed, paper=page_size)
    sheet_was_there = sheet.exists()
    write_pages(pages, sheet, overwrite=force)
    try:
        write_table(out, width_mm, depth_mm, dictionary, anchors, overwrite=force)
    except BaseException:
        if not sheet_was_there:  # no sheet of a table.yaml that was not written
            sheet.unlink(missing_ok=True)
        raise
    where = "anchors 0-3 at the corners"
    if middles:
        where += ", 4-5 at the middles of the long edges"
    typer.echo(f"{out}: {width_mm:g} x {depth_mm:g} mm table, {where}; print {sheet} at 100 %")


def _given(options: dict[str, object]) -> list[str]:
    """The names of the options the user gave (a flag set, a value; 0 is a value)."""
    return [name for name, value in options.items() if value is not None and value is not False]


def _live_table(
    config: Path | None,
    demo: bool,
    camera_index: int | None,
    video: Path | None,
    folder: Path | None,
    url: str | None,
    demo_club: bool = False,
) -> Any:
    """The live table for ``serve`` and ``snapshot``: a demo, or arbitre.yaml and its
    sources."""
    from arbitre.api.live import LiveTable
    from arbitre.api.settings import SourceSpec

    flags = {"--demo": demo, "--demo-club": demo_club, "--camera-index": camera_index}
    chosen = _given({**flags, "--video": video, "--folder": folder, "--url": url})
    if len(chosen) > 1:
        raise fail(f"choose one source, not {' and '.join(chosen)}")
    if (demo or demo_club) and config is not None:
        raise fail(f"{chosen[0]} is a table of its own: give it or --config, not both")
    if demo_club:
        from arbitre.api.demo_club import ClubTable, club_sources, demo_club_config

        club = ClubTable()
        club.start()
        return LiveTable(demo_club_config(), club_sources(club), processes=True)
    if demo:
        from arbitre.api.demo import DemoSource, demo_config

        table_config = demo_config()
        return LiveTable(table_config, DemoSource())
    if config is None:
        raise fail("give --config arbitre.yaml (camera, table, roster), or try --demo")
    from arbitre.api.settings import load_settings

    settings, table_config = load_settings(config)
    specs = settings.camera_specs
    if len(specs) > 1:
        if chosen:
            raise fail(
                f"{config} names {len(specs)} cameras: each one's source is in the file "
                f"(cameras: - {{camera: ..., source: ...}}), not {chosen[0]}"
            )
        sources = [_source_of(spec.source, config.parent) for spec in specs]
        # each camera measured in a process of its own: side by side, not in turns
        return LiveTable(table_config, sources, processes=True)
    spec = specs[0].source
    if chosen:  # a source given on the command line replaces the file's
        spec = SourceSpec(
            camera_index=camera_index,
            video=None if video is None else str(video),
            folder=None if folder is None else str(folder),
            url=url,
        )
    return LiveTable(table_config, _source_of(spec, Path() if chosen else config.parent))


def _source_of(spec: Any, base: Path) -> Any:
    """The frame source a `SourceSpec` names (paths relative to ``base``); none named:
    the first webcam found."""
    from arbitre.vision.sources import CaptureSource, FolderSource, camera_indices

    if spec is not None and spec.video:
        return _video_source(base / spec.video)
    if spec is not None and spec.folder:
        return FolderSource(base / spec.folder)
    if spec is not None and spec.url:
        return CaptureSource(spec.url)
    if spec is not None and spec.camera_index is not None:
        return CaptureSource(spec.camera_index)
    found = camera_indices()
    if not found:
        raise fail(
            "no source given and no camera found (tried webcams 0-3); try `arbitre serve --demo`"
        )
    return CaptureSource(found[0])


VIDEO_DEADLINE_S = 20.0
"""How long a video may take to open: a pipe waits for its writer."""


def _video_source(path: Path) -> Any:
    """A video file, or a pipe a video comes through, opened within `VIDEO_DEADLINE_S`."""
    from arbitre.vision.sources import CaptureSource

    if not path.exists():
        raise fail(f"{path}: no such file")
    if path.is_dir():
        raise fail(f"{path}: a folder; give its images with --folder")
    try:
        source = _in_time(lambda: CaptureSource(str(path)), VIDEO_DEADLINE_S)
    except TimeoutError:
        raise fail(
            f"{path}: no video came within {VIDEO_DEADLINE_S:g} s (a pipe nobody writes to?)"
        ) from None
    if not source.is_open():
        source.close()
        raise fail(f"{path}: not a video OpenCV can read")
    return source


def _say_fused(images: list[Path], fused: Any) -> None:
    """The human answer of ``locate`` with several photos."""
    for image, view in zip(images, fused.views, strict=True):
        typer.echo(
            f"{image}: anchors {', '.join(map(str, view.pose.anchors_used))} "
            f"(reprojection {view.pose.reprojection_px:.2f} px); "
            f"{counted(len(view.markers), 'marker')}"
        )
    typer.echo(f"fused: {counted(len(fused.markers), 'marker')}")
    for entry in fused.markers:
        marker = entry.marker
        name = f" {marker.figure}" if marker.figure else ""
        height = f"z {marker.z_mm:g}" if marker.height_known else "z 0: height not given"
        seen = "photo" if len(entry.views) == 1 else "photos"
        typer.echo(
            f"  {marker.id}{name}: x {marker.x_mm:.1f} mm, y {marker.y_mm:.1f} mm "
            f"± {marker.sigma_mm:.1f} ({height}), {seen} {', '.join(map(str, entry.views))}"
        )
    for piece in fused.terrain:
        typer.echo(
            f"  {piece.marker.id} terrain {piece.piece.id}: x {piece.marker.x_mm:.1f} mm, "
            f"y {piece.marker.y_mm:.1f} mm, heading {piece.marker.heading_deg:.0f}°"
        )
    if fused.agreement:
        apart = sorted(a.apart_mm for a in fused.agreement)
        worst = max(fused.agreement, key=lambda a: a.apart_sigma)
        typer.echo(
            f"seen in two photos: {counted(len(apart), 'marker')}, "
            f"{apart[len(apart) // 2]:.2f} mm apart "
            f"(median); the worst, {worst.id}, {worst.apart_mm:.2f} mm "
            f"({worst.apart_sigma:.1f} sigma)"
        )
    placed = [
        (off, a.id, k) for a in fused.anchors for k, off in enumerate(a.off_mm) if off is not None
    ]
    if placed:
        worst_off, worst_id, worst_view = max(placed)
        shared = [a.apart_mm for a in fused.anchors if a.apart_mm is not None]
        both = f"; the anchors two photos saw, at most {max(shared):.2f} mm apart" if shared else ""
        typer.echo(
            f"anchors: each photo places them within {worst_off:.2f} mm of table.yaml "
            f"(the worst, anchor {worst_id} in photo {worst_view}){both}"
        )
    for warning in fused.warnings:
        typer.echo(f"  warning: {warning}")


@app.command()
@bad_input_exits_2
def serve(
    demo: Annotated[bool, typer.Option("--demo", help="the built-in demo table")] = False,
    demo_club: Annotated[
        bool,
        typer.Option(
            "--demo-club", help="the built-in club table: 6 x 4 ft, two simulated cameras"
        ),
    ] = False,
    config: Annotated[Path | None, typer.Option(help="arbitre.yaml")] = None,
    camera_index: Annotated[
        int | None, typer.Option(help="webcam index, 0 to 63", min=0, max=MAX_CAMERA_INDEX)
    ] = None,
    video: Annotated[Path | None, typer.Option(help="a video file (loops)")] = None,
    folder: Annotated[Path | None, typer.Option(help="a folder of images")] = None,
    url: Annotated[str | None, typer.Option(help="a network stream URL")] = None,
    host: Annotated[
        str, typer.Option(help="address to listen on; 0.0.0.0 for phones on the same network")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port, 1 to 65535", min=1, max=65535)] = 8000,
    tuio: Annotated[
        str | None,
        typer.Option(
            help="also send the figures as TUIO 1.1 /tuio/2Dobj to HOST:PORT (UDP), e.g. "
            "127.0.0.1:3333",
            metavar="HOST:PORT",
        ),
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-host",
            help="also answer to this host name or address (repeatable), e.g. a name "
            "players type; others get HTTP 400",
            metavar="NAME",
        ),
    ] = None,
) -> None:
    """Run the live table: camera loop, HTTP API and the web page."""
    import secrets

    import uvicorn

    from arbitre.api.desk import QuestionDesk
    from arbitre.api.hosts import ALL_INTERFACES, HostError, lan_address, trusted_hosts
    from arbitre.api.main import create_app
    from arbitre.api.tuio import TuioError, TuioSender, resolve_target

    try:
        tuio_target = resolve_target(tuio) if tuio is not None else None
        hosts = trusted_hosts(host, allowed_host or ())
    except (TuioError, HostError) as error:
        raise fail(str(error)) from None
    _check_listening(host, port)  # before a camera or a video is waited on
    live = _live_table(config, demo, camera_index, video, folder, url, demo_club)
    sender: TuioSender | None = None
    if tuio_target is not None:
        table = live.config.table
        sender = TuioSender(*tuio_target, table.width_mm, table.depth_mm)
        live.on_frame = sender
    token = secrets.token_urlsafe(12)
    app_ = create_app(live, token=token, hosts=hosts, desk=QuestionDesk(processes=True))
    everywhere = host in ALL_INTERFACES
    shown = (lan_address() or "127.0.0.1") if everywhere else host
    shown = f"[{shown}]" if ":" in shown else shown  # an IPv6 address in a URL
    described = " + ".join(source.description for source in live.sources)
    typer.echo(f"arbitre: {described} on http://{shown}:{port}/ (API docs /docs)")
    typer.echo(f"arbitre: to change settings, open http://{shown}:{port}/?token={token}")
    if everywhere:
        typer.echo("arbitre: anyone on this network may view; changes need the token")
    if sender is not None:
        typer.echo(f"arbitre: TUIO /tuio/2Dobj to {tuio} (UDP), each frame")
    for source in live.sources:
        if not source.is_open():
            typer.echo(
                f"arbitre: warning: {source.description} gives no picture yet"
                f" ({source.advice or 'it is tried again every few seconds'})"
            )
    from arbitre.api.settings import without_height

    heights = without_height(live.config)
    if heights is not None:
        typer.echo(f"arbitre: warning: {heights}")
    from arbitre.api.connections import SERVER_OPTIONS

    try:
        uvicorn.run(app_, host=host, port=port, log_level="warning", **SERVER_OPTIONS)
    finally:
        if sender is not None:
            sender.close()


def _check_listening(host: str, port: int) -> None:
    """Refuse at once, in one line, an address the server could not listen on (a port
    taken by another server, an address of another machine), before the table starts."""
    import errno
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
            probe.bind(address)
    except (OSError, UnicodeError) as error:
        reason = getattr(error, "strerror", None) or error
        taken = getattr(error, "errno", None) == errno.EADDRINUSE
        advice = f": another server uses it; try --port {port + 1}" if taken else ""
        raise fail(f"cannot listen on {host}:{port} ({reason}){advice}") from None


@app.command()
@bad_input_exits_2
def snapshot(
    out: Annotated[Path, typer.Option(help="scene.yaml to write")],
    server: Annotated[
        str | None, typer.Option(help="a running server, e.g. http://127.0.0.1:8000")
    ] = None,
    demo: Annotated[bool, typer.Option("--demo", help="the built-in demo table")] = False,
    config: Annotated[Path | None, typer.Option(help="arbitre.yaml")] = None,
    camera_index: Annotated[
        int | None, typer.Option(help="webcam index, 0 to 63", min=0, max=MAX_CAMERA_INDEX)
    ] = None,
    video: Annotated[Path | None, typer.Option(help="a video file")] = None,
    folder: Annotated[Path | None, typer.Option(help="a folder of images")] = None,
    url: Annotated[str | None, typer.Option(help="a network stream URL")] = None,
    frames: Annotated[
        int, typer.Option(help="frames to track before saving, 1 to 1000", min=1, max=1000)
    ] = 15,
    force: Annotated[bool, typer.Option("--force", help="overwrite the file if it exists")] = False,
) -> None:
    """Save the live table as a scene file that `arbitre ask` reads.

    The scene is checked by the scene reader before it is written, through a temporary
    file: a wrong answer or a failed write leaves an existing file as it was.
    """
    from arbitre.files import refuse_overwrite

    refuse_overwrite(out, force=force)
    if server is not None:
        sources = {"--demo": demo, "--config": config, "--camera-index": camera_index}
        given = _given({**sources, "--video": video, "--folder": folder, "--url": url})
        if given:
            raise fail(f"--server gives the scene: no {' or '.join(given)} with it")
        document = _scene_from_server(server)
    else:
        live = _live_table(config, demo, camera_index, video, folder, url)
        got = sum(live.step() for _ in range(frames))
        live.stop()
        if not got:
            raise fail(live.source.no_frame())
        if not live.located_frames:
            raise fail(
                f"{live.source.description}: the table was not found in {counted(got, 'frame')} "
                "(no anchors seen): nothing written"
            )
        document = live.scene_document()

    _write_scene(out, document, force=force)
    typer.echo(f"{out}: {counted(len(document['figures']), 'figure')}")


def _write_scene(out: Path, document: dict[str, Any], *, force: bool) -> None:
    """Write a scene file through a temporary file, once the scene reader has read it
    back: a wrong scene or a failed write leaves an existing file as it was."""
    import yaml

    from arbitre.files import write_atomically
    from arbitre.rules.errors import SceneError
    from arbitre.rules.scene import parse_scene, read_scene_text

    def reads_back(data: bytes) -> None:
        parse_scene(read_scene_text(data.decode("utf-8"), str(out)), source=str(out))

    # pairs and covariances written [a, b] on one line each
    text = yaml.safe_dump(document, sort_keys=False, allow_unicode=True, default_flow_style=None)
    try:
        write_atomically(out, text, validate=reads_back, overwrite=force)
    except SceneError as error:
        raise fail(f"{out}: not written, the scene does not read back ({error.problem})") from None


SERVER_DEADLINE_S = 20.0
"""How long ``snapshot --server`` waits for the whole scene (10 s for each read)."""


def _in_time(work: Callable[[], _T], seconds: float) -> _T:
    """What ``work()`` gives, done beside this thread; `TimeoutError` when it has not
    finished within ``seconds`` (it is then left behind, a daemon thread)."""
    got: list[tuple[bool, Any]] = []

    def run() -> None:
        try:
            got.append((True, work()))
        except BaseException as error:  # handed to the caller's thread
            got.append((False, error))

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if not got:
        raise TimeoutError
    done, value = got[0]
    if not done:
        raise value
    return cast(_T, value)


def _fetched(address: str, limit: int) -> bytes:
    """At most ``limit`` bytes of the answer at ``address``; `TimeoutError` when it has
    not all come within `SERVER_DEADLINE_S` (a server sending a byte now and then)."""
    import urllib.request

    def fetch() -> bytes:
        with urllib.request.urlopen(address, timeout=10) as reply:
            return bytes(reply.read(limit))

    try:
        return _in_time(fetch, SERVER_DEADLINE_S)
    except TimeoutError:
        raise TimeoutError(address) from None


def _scene_from_server(server: str) -> dict[str, Any]:
    """The data of the scene a running server gives (``GET /api/scene``), checked by the
    scene reader; anything else is one line naming the address."""
    import urllib.error
    import urllib.request

    from arbitre.rules.errors import SceneError
    from arbitre.rules.scene import MAX_SCENE_BYTES, parse_scene

    address = server.rstrip("/") + "/api/scene"
    if not address.startswith(("http://", "https://")):
        raise fail(f"{server}: expected a server address such as http://127.0.0.1:8000")
    try:
        body = _fetched(address, MAX_SCENE_BYTES + 1)
    except TimeoutError:
        raise fail(f"{address}: no scene within {SERVER_DEADLINE_S:g} s") from None
    except urllib.error.HTTPError as error:
        raise fail(f"{address}: no scene (HTTP {error.code} {error.reason})") from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", None) or error
        raise fail(f"{address}: no scene ({' '.join(str(reason).split())[:200]})") from None
    if len(body) > MAX_SCENE_BYTES:
        raise fail(f"{address}: the answer is larger than a scene can be")
    try:
        document = json.loads(body)
    except (ValueError, RecursionError):
        raise fail(f"{address}: the answer is not JSON; is this an arbitre server?") from None
    try:
        parse_scene(document, source=address)
    except SceneError as error:
        where = f"{error.field}: " if error.field else ""
        raise fail(
            f"{address}: the answer is not a scene ({where}{error.problem[:200]}); "
            "is this an arbitre server?"
        ) from None
    except RecursionError:
        raise fail(f"{address}: the answer is not a scene (nested too deeply)") from None
    return dict(document)


@bench_app.command("rules")
def bench_rules(
    figures: Annotated[
        int, typer.Option(help="figures on the generated table, 20 to 1000", min=20, max=1000)
    ] = 200,
    terrain: Annotated[int, typer.Option(help="terrain polygons, 0 to 200", min=0, max=200)] = 50,
    repeat: Annotated[
        int, typer.Option(help="questions of each kind, 1 to 1000", min=1, max=1000)
    ] = 30,
    seed: Annotated[
        int, typer.Option(help="random seed of the table, 0 or more", min=0, max=2**32 - 1)
    ] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="the result as one JSON object")] = False,
) -> None:
    """Median time of each question on a generated table, against the targets."""
    from arbitre.api.bench.every_question import every_question_lines, every_question_report
    from arbitre.api.bench.live_scene import live_scene_lines, live_scene_report
    from arbitre.api.bench.rules import report_lines, run_rules_bench

    with _progress_bar("timing questions", quiet=as_json) as progress:
        report = run_rules_bench(
            figures=figures, terrain=terrain, repeat=repeat, seed=seed, progress=progress
        )
    report["every_question"] = every_question_report()
    report["live"] = live_scene_report(figures, terrain, states=repeat)
    lines = report_lines(report) + every_question_lines(report["every_question"])
    lines += live_scene_lines(report["live"])
    typer.echo(json.dumps(report) if as_json else "\n".join(lines))


@bench_app.command("vision")
def bench_vision(
    seeds: Annotated[int, typer.Option(help="renders of each preset, 1 to 20", min=1, max=20)] = 2,
    frames: Annotated[
        int, typer.Option(help="frames timed for speed, 1 to 1000", min=1, max=1000)
    ] = 40,
    as_json: Annotated[bool, typer.Option("--json", help="the result as one JSON object")] = False,
) -> None:
    """Accuracy on simulated tables, speed against plain detectMarkers, calibration."""
    from arbitre.api.bench.vision import report_lines, run_vision_bench

    with _progress_bar("rendering and timing", quiet=as_json) as progress:
        report = run_vision_bench(seeds=seeds, frames=frames, progress=progress)
    typer.echo(json.dumps(report) if as_json else "\n".join(report_lines(report)))


@bench_app.command("serve")
def bench_serve(
    clients: Annotated[int, typer.Option(help="WebSocket clients, 0 to 200", min=0, max=200)] = 20,
    seconds: Annotated[
        float, typer.Option(help="seconds measured each way, 1 to 120", min=1, max=120)
    ] = 8.0,
    askers: Annotated[
        int, typer.Option(help="clients asking questions without pause, 0 to 200", min=0, max=200)
    ] = 50,
    cameras: Annotated[
        bool,
        typer.Option(help="also two cameras tracking 80 figures on a 6 x 4 ft table (1080p, 4K)"),
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help="the result as one JSON object")] = False,
) -> None:
    """Pipeline frames per second with WebSocket clients connected, then with clients
    asking questions, against none; then two cameras over a club's table."""
    from arbitre.api.bench.serve import report_lines, run_serve_bench

    if not math.isfinite(seconds):  # nan passes the range's comparisons
        raise fail(f"--seconds takes a number 1 to 120, got {seconds}")
    with _progress_bar("measuring frame rates", quiet=as_json) as progress:
        report = run_serve_bench(
            clients=clients, seconds=seconds, askers=askers, cameras=cameras, progress=progress
        )
    typer.echo(json.dumps(report) if as_json else "\n".join(report_lines(report)))


def _unexpected(error: BaseException) -> NoReturn:
    """An error no command turned into its own line: still one line and exit 2 (set
    ``ARBITRE_DEBUG=1`` for the traceback)."""
    if os.environ.get("ARBITRE_DEBUG"):
        raise error
    text = _one_line(str(error), 200)
    typer.echo(f"arbitre: cannot do this: {type(error).__name__}: {text}", err=True)
    sys.exit(2)


def _one_line(text: str, limit: int) -> str:
    """``text`` on one line, its spaces collapsed, cut to ``limit`` characters.

    >>> _one_line("one   two three four", 12)
    'one two thr…'
    >>> _one_line("short", 12)
    'short'
    """
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


_OWN_PROCESS = False
"""Whether the command line runs in a process of its own (`entry`): only then does it
bound the process's memory and end it when a question outlives its time limit (a
program calling `main` in its own process keeps its bounds)."""


def entry() -> None:
    """The ``arbitre`` command and ``python -m arbitre``: `main` in a process of its own."""
    global _OWN_PROCESS
    _OWN_PROCESS = True
    main()


def main() -> None:
    """Console entry point: a usage error (a missing argument, a bad option value) is one
    line on stderr and exit status 2, like every other bad input."""
    # arbitre uses no pydantic plugin; looking for them reads the metadata of every
    # installed distribution, a tenth of a question's start (set it to use one).
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    # OpenCV's own warnings (a webcam it cannot open, say) are for its developers: the
    # command says what went wrong in its one line.
    os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
    # and so are FFmpeg's (a file that is no video: "moov atom not found"): quiet
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")
    try:
        code = app(prog_name="arbitre", standalone_mode=False)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as error:
        if getattr(error, "exit_code", None) != 2 or not hasattr(error, "format_message"):
            _unexpected(error)
        context = getattr(error, "ctx", None)
        command = context.command_path if context is not None else "arbitre"
        message = _one_line(str(error.format_message()), 400)  # a value may be long
        if message:  # (none when the help was shown for a command given nothing)
            typer.echo(f"arbitre: {message} (see {command} --help)", err=True)
        sys.exit(2)
    sys.exit(code if isinstance(code, int) else 0)
