"""``arbitre bench``: speed and accuracy, against their targets."""

import json
import math
from typing import Annotated

import typer

from arbitre.api.cli.common import fail, progress_bar

app = typer.Typer(help="Measure speed and accuracy.", no_args_is_help=True)


@app.command("rules")
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

    with progress_bar("timing questions", quiet=as_json) as progress:
        report = run_rules_bench(
            figures=figures, terrain=terrain, repeat=repeat, seed=seed, progress=progress
        )
    report["every_question"] = every_question_report()
    report["live"] = live_scene_report(figures, terrain, states=repeat)
    lines = report_lines(report) + every_question_lines(report["every_question"])
    lines += live_scene_lines(report["live"])
    typer.echo(json.dumps(report) if as_json else "\n".join(lines))


@app.command("vision")
def bench_vision(
    seeds: Annotated[int, typer.Option(help="renders of each preset, 1 to 20", min=1, max=20)] = 2,
    frames: Annotated[
        int, typer.Option(help="frames timed for speed, 1 to 1000", min=1, max=1000)
    ] = 40,
    as_json: Annotated[bool, typer.Option("--json", help="the result as one JSON object")] = False,
) -> None:
    """Accuracy on simulated tables, speed against plain detectMarkers, calibration."""
    from arbitre.api.bench.vision import report_lines, run_vision_bench

    with progress_bar("rendering and timing", quiet=as_json) as progress:
        report = run_vision_bench(seeds=seeds, frames=frames, progress=progress)
    typer.echo(json.dumps(report) if as_json else "\n".join(report_lines(report)))


@app.command("serve")
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
    journal: Annotated[
        bool,
        typer.Option(help="also the demo table with a game journal, 50 questions a minute"),
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help="the result as one JSON object")] = False,
) -> None:
    """Pipeline frames per second with WebSocket clients connected, then with clients
    asking questions, against none; then with a game journal kept while 50 questions a
    minute are asked; then two cameras over a club's table."""
    from arbitre.api.bench.serve import report_lines, run_serve_bench

    if not math.isfinite(seconds):  # nan passes the range's comparisons
        raise fail(f"--seconds takes a number 1 to 120, got {seconds}")
    with progress_bar("measuring frame rates", quiet=as_json) as progress:
        report = run_serve_bench(
            clients=clients,
            seconds=seconds,
            askers=askers,
            cameras=cameras,
            journal=journal,
            progress=progress,
        )
    typer.echo(json.dumps(report) if as_json else "\n".join(report_lines(report)))
