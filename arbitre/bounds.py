"""The bounds arbitre puts on every length it reads, in one place.

This module sits below the four parts of the package and imports none of them.
"""

from __future__ import annotations

LONGEST_MM = 100_000.0
"""The longest length arbitre takes anywhere, 100 m: a table's side, a place on it, a base,
an option's length, a move. Longer is a slip (metres written as millimetres, a stray
exponent), and refused where it is read."""
