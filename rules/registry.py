"""The ruleset registry: ``find_ruleset("cb6")``."""

from __future__ import annotations

from arbitre.rules.choc_base_6 import ChocBase6
from arbitre.rules.confrontation import Confrontation
from arbitre.rules.errors import UnsupportedRuleset
from arbitre.rules.mbt import Mbt
from arbitre.rules.musg import Musg
from arbitre.rules.ruleset import Ruleset
from arbitre.rules.smooth_and_rifled import SmoothAndRifled

_RULESETS: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> None:
    """Make a ruleset findable by its name and aliases."""
    for key in (ruleset.name, *ruleset.aliases):
        _RULESETS[key.casefold()] = ruleset


def find_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name`` (or one of its aliases), case-insensitive.

    >>> find_ruleset("CB6").name
    'choc-base-6'
    >>> find_ruleset("chess")
    Traceback (most recent call last):
    ...
    arbitre.rules.errors.UnsupportedRuleset: unsupported ruleset: 'chess'
    """
    try:
        return _RULESETS[name.strip().casefold()]
    except KeyError:
        raise UnsupportedRuleset(name) from None


def ruleset_names() -> list[str]:
    return sorted({ruleset.name for ruleset in _RULESETS.values()})


register(ChocBase6())
register(Musg())
register(Mbt())
register(SmoothAndRifled())
register(Confrontation())
