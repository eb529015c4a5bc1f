"""Name what an environment holds that a constraints file does not: the cause of a failure.

Usage: python drift.py CONSTRAINTS

Run by the environment's own Python. Prints one line per distribution installed at another
version than CONSTRAINTS pins (``numpy 2.5.0, tested 2.4.6``), or installed and not pinned
at all, most likely cause first: the project's own dependencies, then the rest. Needs
`packaging` (which pytest brings) to judge a pin's environment markers.
"""

from __future__ import annotations

import re
import sys
from importlib import metadata
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;#]+)\s*(?:;\s*(.*))?$")


def pins(path: Path) -> dict[str, str]:
    """The versions a constraints file pins for this Python and platform, by canonical name."""
    pinned: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = PIN.match(line.strip())
        if match and (match[3] is None or Marker(match[3]).evaluate()):
            pinned[canonicalize_name(match[1])] = match[2]
    return pinned


def direct_dependencies() -> set[str]:
    """The names arbitre's own metadata asks for, extras included."""
    wanted = metadata.requires("arbitre") or []
    return {canonicalize_name(Requirement(requirement).name) for requirement in wanted}


def main(argv: list[str]) -> int:
    pinned = pins(Path(argv[1]))
    direct = direct_dependencies()
    lines: list[tuple[bool, str]] = []
    for distribution in metadata.distributions():
        name = canonicalize_name(distribution.metadata["Name"])
        if name in {"arbitre", "pip", "setuptools", "wheel"}:
            continue
        version = distribution.version
        if name not in pinned:
            lines.append((name in direct, f"{name} {version}, not in {argv[1]}"))
        elif pinned[name] != version:
            lines.append((name in direct, f"{name} {version}, tested {pinned[name]}"))
    for _, line in sorted(lines, key=lambda item: (not item[0], item[1])):
        print(f"    {line}")
    if not lines:
        print(f"    none: every version is the one {argv[1]} pins")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
