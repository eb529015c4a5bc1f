"""Where the real photographs with published ground truth are (``shared/data/real``).

They live beside the repository, not in it. ``ARBITRE_REAL_DATA`` may point at them;
otherwise the folder is looked for next to the checkout and at the workplace's usual
place. Test files read the path from ``ARBITRE_REAL_DATA``.
"""

from __future__ import annotations

import os
from pathlib import Path

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
from hypothesis import settings  # noqa: E402

settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))
