"""``arbitre plan``: how well cameras over a table would read its markers, before buying any."""

import dataclasses
import json
import math
from typing import Annotated

import typer

from arbitre.api.cli.common import MAX_TABLE_MM, bad_input_exits_2, fail


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
