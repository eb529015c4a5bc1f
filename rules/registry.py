"""The ruleset registry: ``find_ruleset("cb6")``.

A rule system's package is imported the first time it is asked for, so a command that
answers one question under one rule system does not pay for the other four.
"""

from __future__ import annotations

import importlib

from arbitre.nearest import nearest_words
from arbitre.rules.errors import UnsupportedRuleset
from arbitre.rules.ruleset import Ruleset

# name -> (module, class, aliases); tests/rules/test_registry.py checks each class agrees.
KNOWN: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "choc-base-6": ("arbitre.rules.choc_base_6", "ChocBase6", ("cb6", "chocbase6", "choc-base6")),
    "musg": ("arbitre.rules.musg", "Musg", ("m.u.s.g.", "multi-universe-skirmishes-game")),
    "mbt": ("arbitre.rules.mbt", "Mbt", ("mini-bataille-terrestre",)),
    "smooth-and-rifled": (
        "arbitre.rules.smooth_and_rifled",
        "SmoothAndRifled",
        ("sr", "s&r", "smooth&rifled", "smooth-rifled"),
    ),
    "confrontation": ("arbitre.rules.confrontation", "Confrontation", ("confrontation3", "conf")),
}

_NAMES: dict[str, str] = {
    key.casefold(): name
    for name, (_module, _class, aliases) in KNOWN.items()
    for key in (name, *aliases)
}
_LOADED: dict[str, Ruleset] = {}


def find_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name`` (or one of its aliases), case-insensitive.

    >>> find_ruleset("CB6").name
    'choc-base-6'
    >>> find_ruleset("chocbase")
    Traceback (most recent call last):
    ...
    arbitre.rules.errors.UnsupportedRuleset: unsupported ruleset: 'chocbase' (did you mean \
'choc-base-6'?); known: choc-base-6, confrontation, mbt, musg, smooth-and-rifled
    """
    canonical = _NAMES.get(name.strip().casefold())
    if canonical is None:
        nearest = [_NAMES[key] for key in nearest_words(name.strip(), _NAMES, count=5)]
        raise UnsupportedRuleset(name, ruleset_names(), list(dict.fromkeys(nearest))[:2])
    loaded = _LOADED.get(canonical)
    if loaded is None:
        module, class_name, _aliases = KNOWN[canonical]
        kind: type[Ruleset] = getattr(importlib.import_module(module), class_name)
        loaded = _LOADED[canonical] = kind()
    return loaded


def ruleset_names() -> list[str]:
    return sorted(set(_NAMES.values()))
