"""A club's files for a simulated table: arbitre.yaml, its camera, table and roster, and a
folder with one frame of the table; a second camera at the opposite edge; and the check
that a snapshot holds every figure where it was rendered."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import yaml

from arbitre.calibration.simulated import write_setup
from arbitre.vision.simulate import Render, preset, render


def write_club(folder: Path) -> tuple[Path, Render]:
    """arbitre.yaml, camera/table/roster files and a folder with one frame of a table, in
    ``folder``: the path of arbitre.yaml and the frame's render."""
    scene = preset("overhead", scale=0.4, seed=5)
    rendered = scene.render()
    write_setup(scene, folder)
    (folder / "frames").mkdir()
    cv2.imwrite(str(folder / "frames" / "0001.png"), rendered.image)
    settings = {
        "camera": "camera.yaml",
        "table": "table.yaml",
        "roster": "roster.yaml",
        "ruleset": "choc-base-6",
        "options": {"unit_mm": 100},
        "source": {"folder": "frames"},
    }
    (folder / "arbitre.yaml").write_text(yaml.safe_dump(settings), encoding="utf-8")
    return folder / "arbitre.yaml", rendered


def add_second_camera(config: Path) -> tuple[Path, Render]:
    """The table of `write_club`'s ``config`` seen also from its opposite edge: the path of
    an arbitre.yaml with ``cameras:`` beside it, and the second camera's render."""
    folder = config.parent
    scene = preset("overhead", scale=0.4, seed=5)
    centre = (scene.scene.table.width_mm / 2, scene.scene.table.depth_mm / 2)
    # the second camera carried half a turn round the table: it sees it upside down
    second = render(scene.camera.around(centre, 180.0), scene.scene, scene.options)
    (folder / "frames_b").mkdir()
    cv2.imwrite(str(folder / "frames_b" / "0001.png"), second.image)
    settings = yaml.safe_load(config.read_text())
    del settings["camera"], settings["source"]
    settings["cameras"] = [
        {"camera": "camera.yaml", "source": {"folder": "frames"}},
        {"camera": "camera.yaml", "source": {"folder": "frames_b"}},
    ]
    path = folder / "two.yaml"
    path.write_text(yaml.safe_dump(settings), encoding="utf-8")
    return path, second


def placed_as_rendered(scene: Path, rendered: Render, within_mm: float) -> None:
    """The snapshot holds every figure seen, each within ``within_mm`` of where it stands."""
    figures = {f["id"]: f for f in yaml.safe_load(scene.read_text())["figures"]}
    visible = {i for i in rendered.visible_ids() if i >= 10}
    assert {f"figure {i}" for i in visible} == set(figures)
    for marker in visible:
        truth = rendered.truth[marker].centre_mm
        placed = figures[f"figure {marker}"]
        assert math.hypot(placed["x_mm"] - truth[0], placed["y_mm"] - truth[1]) < within_mm
