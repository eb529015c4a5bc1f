"""``arbitre calibrate``: the camera's intrinsics from photos of a board."""

import json
from pathlib import Path
from typing import Annotated

import typer

from arbitre.api.cli.common import bad_input_exits_2, fail, progress_bar

app = typer.Typer(help="Calibrate the camera.", no_args_is_help=True)


@app.command("camera")
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
    from arbitre.rules.answers import counted

    refuse_overwrite(out, force=force)  # before the long search, not after
    target = load_board(board)
    with progress_bar("calibrating", quiet=as_json) as progress:
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
