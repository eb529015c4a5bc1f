"""Where the real photographs with published ground truth are (``shared/data/real``).

They live beside the repository, not in it. ``ARBITRE_REAL_DATA`` may point at them;
otherwise the folder is looked for next to the checkout and at the workplace's usual
place. Test files read the path from ``ARBITRE_REAL_DATA``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from hypothesis import settings

import arbitre.files

_CANDIDATES = (
    Path(__file__).resolve().parents[2] / "shared" / "data" / "real",
    Path("/work/shared/data/real"),
)

if not os.environ.get("ARBITRE_REAL_DATA"):
    found = next((path for path in _CANDIDATES if (path / "README.md").is_file()), None)
    if found is not None:
        os.environ["ARBITRE_REAL_DATA"] = str(found)

# Property tests see the same examples on every run, so that a test run never depends on
# luck; HYPOTHESIS_PROFILE=explore draws new examples each time (a long search for bugs).
settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


# ---------------------------------------------------------------------------------------------
# Both YAML backends: libyaml (PyYAML's C scanner and parser) and PyYAML's own, in Python.


@pytest.fixture(params=["libyaml", "python"])
def yaml_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test that asks for it runs once with each backend `arbitre.files.load_yaml` can
    read with; the libyaml run is skipped where PyYAML was built without it."""
    if request.param == "libyaml" and not hasattr(yaml, "CSafeLoader"):
        pytest.skip("this PyYAML was built without libyaml")
    monkeypatch.setattr(arbitre.files, "LIBYAML", request.param == "libyaml")
    return str(request.param)
