"""Located markers as the rules' figures, for tests that measure between them."""

from __future__ import annotations

from arbitre.calibration.locate import LocatedMarker
from arbitre.rules.model import Figure


def figure_of(marker: LocatedMarker) -> Figure:
    """A figure (id: the marker's id) where the marker is, with its sigma, the moves of the
    errors it shares with the other markers of its answer, and its own covariance."""
    return Figure(
        str(marker.id),
        "x",
        marker.x_mm,
        marker.y_mm,
        sigma_mm=marker.sigma_mm,
        shared_mm=marker.shared_mm,
        own_cov_mm2=marker.own_cov_mm2,
    )
