"""The registry knows every rule system by name and alias, and imports only the one asked."""

from __future__ import annotations

import importlib
import subprocess
import sys

from arbitre.rules.registry import KNOWN, find_ruleset, ruleset_names


def test_each_known_rule_system_agrees_with_its_class() -> None:
    for name, (module, class_name, aliases) in KNOWN.items():
        kind = getattr(importlib.import_module(module), class_name)
        assert (kind.name, kind.aliases) == (name, aliases)
        for key in (name, *aliases, name.upper()):
            assert find_ruleset(key).name == name
    assert ruleset_names() == sorted(KNOWN)


def test_asking_for_one_rule_system_imports_only_that_one() -> None:
    script = (
        "import sys\n"
        "from arbitre.rules.registry import find_ruleset\n"
        "find_ruleset('cb6')\n"
        "print(sorted(m for m in sys.modules if m.startswith('arbitre.rules.')"
        " and m.count('.') == 2), 'scipy.optimize' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert "arbitre.rules.choc_base_6" in out
    for other in ("musg", "mbt", "smooth_and_rifled", "confrontation"):
        assert f"arbitre.rules.{other}'" not in out, out
    assert out.strip().endswith("False"), out  # path refinement's optimiser not yet needed
