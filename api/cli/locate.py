"""``arbitre locate``: the markers of photos of the table, in table mm, fused across cameras."""

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from arbitre.api.cli.common import bad_input_exits_2, fail, write_scene
from arbitre.rules.answers import counted


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
        from arbitre.api.live.table import MIN_SIGMA_MM, TableConfig, located_tracks, scene_document

        config = TableConfig(cameras[0], the_table, the_roster or Roster(()), ruleset=ruleset)
        if fused is None:
            markers = (*views[0].markers, *(p.marker for p in views[0].terrain))
            shared_errors = views[0].shared_errors
        else:
            markers = (*(m.marker for m in fused.markers), *(p.marker for p in fused.terrain))
            shared_errors = fused.shared_errors
        tracks = located_tracks(markers, shared_errors, MIN_SIGMA_MM)
        document = scene_document(config, tracks, shared_errors)
        write_scene(scene, document, force=force)
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
