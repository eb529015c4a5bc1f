"""The two constraints files agree with pyproject.toml: `.ci/lock` was run after the last
change of a dependency (docs/development.md).

``constraints/tested.txt`` pins every dependency at a version pyproject.toml allows;
``constraints/oldest.txt`` pins each of arbitre's own dependencies at its lower bound, so
that CI's "oldest" step tests the versions pyproject.toml claims.
"""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path
from types import ModuleType

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def _requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    return [Requirement(text) for text in wanted]


def _drift() -> ModuleType:
    """CI's `.ci/drift.py`, whose `pins` reads a constraints file as CI does."""
    spec = importlib.util.spec_from_file_location("drift", ROOT / ".ci" / "drift.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pins(name: str) -> dict[str, str]:
    """The versions ``constraints/NAME`` pins for this Python and platform."""
    pinned: dict[str, str] = DRIFT.pins(ROOT / "constraints" / name)
    return pinned


DRIFT = _drift()
REQUIREMENTS = _requirements()


def _lower_bound(requirement: Requirement) -> str:
    bounds = [spec.version for spec in requirement.specifier if spec.operator == ">="]
    assert len(bounds) == 1, f"{requirement}: give one lower bound (>=)"
    return bounds[0]


@pytest.mark.parametrize("requirement", REQUIREMENTS, ids=str)
def test_the_tested_versions_are_allowed(requirement: Requirement) -> None:
    pinned = _pins("tested.txt").get(canonicalize_name(requirement.name))
    assert pinned is not None, f"{requirement.name} is not in constraints/tested.txt"
    assert requirement.specifier.contains(pinned), f"{requirement.name}=={pinned}"


@pytest.mark.parametrize("requirement", REQUIREMENTS, ids=str)
def test_the_oldest_versions_are_the_lower_bounds(requirement: Requirement) -> None:
    """Each dependency has one lower bound, and the oldest step installs a release of that
    very version: `numpy>=2.0` is tested with numpy 2.0.0, `opencv-python-headless>=5.0`
    with 5.0.0.93 (its first release of 5.0), never with 5.1."""
    pinned = _pins("oldest.txt").get(canonicalize_name(requirement.name))
    assert pinned is not None, f"{requirement.name} is not in constraints/oldest.txt"
    bound = Version(_lower_bound(requirement))
    release = Version(pinned).release
    assert release[: len(bound.release)] == bound.release, f"{requirement.name}=={pinned}"
