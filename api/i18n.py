"""Answers in the page's words, in English or French, for the command line.

The page (``static/i18n.js``) and this module read one catalogue,
``static/strings.json``: ``{"en": {key: text}, "fr": {key: text}}``, texts with
``{name}`` placeholders. `phrase_answer` builds from an answer's JSON the lines the
page shows for it (the too-close warning, the headline, the details), with the same
keys and numbers written the same way (``3,41`` in French).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Context, Decimal
from functools import cache
from importlib import resources
from typing import Any

from arbitre.rules.answers import area_text

DEFAULT_LANGUAGE = "en"
CATALOGUE = "strings.json"
"""The catalogue's name in the package's ``static`` folder, beside the page."""

_PLACEHOLDER = re.compile(r"\{(\w+)\}", re.ASCII)
_WIDE = Context(prec=1000)  # enough digits to write any float with a few decimals


class LanguageError(ValueError):
    """A language the catalogue does not have."""


@cache
def catalogue() -> Mapping[str, Mapping[str, str]]:
    """The catalogue, read once from the installed package: ``{language: {key: text}}``.

    The page keeps a number and its unit together with a no-break space; a terminal
    gets a plain one (a number copied from it pastes as a number).
    """
    text = resources.files("arbitre.api").joinpath("static", CATALOGUE).read_text("utf-8")
    tables: dict[str, dict[str, str]] = json.loads(text.replace("\u00a0", " "))
    return tables


def languages() -> tuple[str, ...]:
    """The catalogue's languages, English first.

    >>> languages()
    ('en', 'fr')
    """
    return tuple(catalogue())


def find_language(name: str) -> str:
    """The catalogue's language for a name or a tag (``fr``, ``FR``, ``fr-FR``, ``fr_FR.UTF-8``).

    >>> find_language("fr_FR.UTF-8")
    'fr'
    >>> find_language("xx")
    Traceback (most recent call last):
    ...
    arbitre.api.i18n.LanguageError: unknown language 'xx'; expected one of en, fr
    """
    base = re.split(r"[-_.]", name.strip().lower(), maxsplit=1)[0]
    if base not in catalogue():
        raise LanguageError(f"unknown language {name!r}; expected one of {', '.join(languages())}")
    return base


_DECIMAL = re.compile(r"^(-?\d+)\.(\d+)$")


@dataclass(frozen=True, slots=True)
class Phrases:
    """The catalogue in one language, with the helpers of the page's i18n.js."""

    language: str

    def t(self, key: str, **params: object) -> str:
        """The text of ``key`` (English if this language lacks it), {placeholders} filled.

        >>> Phrases("fr").t("result.fire.yes", a="alpins", b="verts")
        'alpins peut tirer sur verts'
        """
        tables = catalogue()
        text = tables[self.language].get(key, tables[DEFAULT_LANGUAGE].get(key, key))
        return _PLACEHOLDER.sub(
            lambda found: str(params[found[1]]) if found[1] in params else found[0], text
        )

    def t_or(self, key: str, fallback: str, **params: object) -> str:
        """The text of ``key`` if the catalogue has it, else ``fallback`` (codes added later).

        >>> Phrases("fr").t_or("reason.out_of_range", "?"), Phrases("fr").t_or("reason.new", "new")
        ('hors de portée', 'new')
        """
        return self.t(key, **params) if key in catalogue()[self.language] else fallback

    def digits(self, text: str) -> str:
        """A number the rules wrote in English ("12.5"), as this language writes it.

        >>> Phrases("fr").digits("12.5"), Phrases("fr").digits("M"), Phrases("en").digits("12.5")
        ('12,5', 'M', '12.5')
        """
        if self.language == "fr":
            return _DECIMAL.sub(r"\1,\2", text)
        return text

    def number(self, value: float | None, digits: int) -> str:
        """``value`` with exactly ``digits`` decimals, written as the page writes it.

        Halves round away from zero on the shortest decimal form of the float, as the
        browser's ``Intl.NumberFormat`` does; French takes a decimal comma.

        >>> Phrases("fr").number(3.406, 2), Phrases("en").number(0.125, 2)
        ('3,41', '0.13')
        >>> Phrases("fr").number(None, 1)
        '—'
        """
        if value is None or not math.isfinite(value):
            return "—"
        exact = Decimal(repr(float(value)))
        rounded = exact.quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP, _WIDE)
        text = format(rounded, "f")
        return text.replace(".", ",") if self.language == "fr" else text

    def join(self, items: Iterable[str]) -> str:
        """Words joined this language's way."""
        return self.t("list.separator").join(items)

    def one(self, value: float) -> bool:
        """Whether ``value`` takes the singular: 1 in English, below 2 in French.

        >>> Phrases("en").one(1), Phrases("en").one(1.5), Phrases("fr").one(1.5)
        (True, False, True)
        """
        return abs(value) < 2 if self.language == "fr" else value == 1

    def count(self, noun: str, n: int) -> str:
        """``n`` and its noun (``count.{noun}.one`` / ``.other`` in the catalogue).

        >>> Phrases("fr").count("area", 1), Phrases("en").count("area", 3)
        ('1 zone', '3 areas')
        """
        return self.t(f"count.{noun}.{'one' if self.one(n) else 'other'}", n=n)

    def unit(self, name: str, value: float | None) -> str:
        """A unit's name after ``value`` as this language writes it (M.U.S.G.'s pas are
        paces in English); a unit the catalogue does not word (M, cm) as it is.

        >>> Phrases("en").unit("pas", 7.9), Phrases("fr").unit("pas", 7.9)
        ('paces', 'pas')
        >>> Phrases("en").unit("graduation", 14.84), Phrases("fr").unit("graduation", 1.5)
        ('graduations', 'graduation')
        """
        form = "one" if value is not None and self.one(value) else "other"
        return self.t_or(f"unit.{name}.{form}", name)


@dataclass(frozen=True, slots=True)
class Phrased:
    """An answer as the page shows it."""

    headline: str
    details: tuple[str, ...] = ()
    too_close: str | None = None
    """The warning shown above the headline when the answer is too close to call."""

    def lines(self) -> list[str]:
        """For a terminal: the warning, the headline, then the details indented."""
        top = [self.too_close] if self.too_close else []
        return [*top, self.headline, *(f"  {detail}" for detail in self.details)]


def phrase_answer(
    data: Mapping[str, Any], language: str, target_mm: Sequence[float] | None = None
) -> Phrased:
    """An answer's JSON (``Answer.to_json()``) in the page's words (for a terminal: a
    reachable area is told by its size, not as "the shaded area").

    ``distance``, ``fire``, ``move`` and ``reach`` are worded as the page words them
    (``target_mm``: a move's destination, table mm). Other questions keep the rules'
    English sentence as headline, with the reasons, margin and warnings worded in
    ``language`` below it.
    """
    say = Phrases(find_language(language))
    phrase = _PHRASINGS.get(str(data.get("question")), _other)
    phrased = phrase(say, data, target_mm)
    too_close = say.t("too_close") if data.get("certain") is False else None
    return Phrased(phrased.headline, phrased.details, too_close)


# ---- one function per question the page asks: app.js's distanceResult, fireResult, ...


def _units(say: Phrases, value: float | None) -> str:
    return say.number(value, 2)


def _unit(say: Phrases, data: Mapping[str, Any], units: str) -> str:
    """The answer's unit, worded for the number of it in ``data[units]``."""
    value = data.get(units)
    return say.unit(str(data.get("unit", "")), value if isinstance(value, int | float) else None)


def _mm(say: Phrases, value: float | None) -> str:
    return say.number(value, 1)


def _names(say: Phrases, names: Iterable[str]) -> str:
    return say.join(dict.fromkeys(names))


def _reasons(say: Phrases, codes: Iterable[str]) -> str:
    return say.join(say.t_or(f"reason.{code}", code) for code in codes)


def _has(data: Mapping[str, Any], key: str) -> bool:
    return data.get(key) is not None


def _distance(say: Phrases, data: Mapping[str, Any], _: Sequence[float] | None) -> Phrased:
    headline = say.t(
        "result.distance",
        a=data.get("a", ""),
        b=data.get("b", ""),
        units=_units(say, data.get("distance_units")),
        unit=_unit(say, data, "distance_units"),
        mm=_mm(say, data.get("distance_mm")),
    )
    mode = str(data.get("mode", ""))
    details = [say.t("detail.mode", mode=say.t_or(f"mode.{mode}", mode))]
    if (data.get("sigma_mm") or 0) > 0:
        details.append(say.t("detail.sigma", sigma=say.number(data["sigma_mm"], 1)))
    return Phrased(headline, tuple(details))


def _fire(say: Phrases, data: Mapping[str, Any], _: Sequence[float] | None) -> Phrased:
    allowed = bool(data.get("allowed"))
    headline = say.t(
        "result.fire.yes" if allowed else "result.fire.no",
        a=data.get("shooter", ""),
        b=data.get("target", ""),
    )
    details = [
        say.t(
            "detail.distance",
            units=_units(say, data.get("distance_units")),
            unit=_unit(say, data, "distance_units"),
            mm=_mm(say, data.get("distance_mm")),
        )
    ]
    if data.get("reasons"):
        details.append(say.t("detail.reasons", reasons=_reasons(say, data["reasons"])))
    if data.get("band"):
        band = str(data["band"])
        details.append(say.t("detail.band", band=say.t_or(f"band.{band}", band)))
    if allowed and data.get("pi"):
        details.append(say.t("detail.pi", pi=data["pi"]))
    if allowed and _has(data, "action_points"):
        details.append(say.t("detail.action_points", pa=data["action_points"]))
    if data.get("blocked_by"):
        details.append(say.t("detail.blocked", names=_names(say, data["blocked_by"])))
    if data.get("cover"):
        details.append(say.t("detail.cover", names=_names(say, data["cover"])))
    details += _margin(say, data) + _warnings(say, data)
    return Phrased(headline, tuple(details))


def _move(say: Phrases, data: Mapping[str, Any], target_mm: Sequence[float] | None) -> Phrased:
    legal = bool(data.get("legal"))
    headline = say.t("result.move.yes" if legal else "result.move.no", a=data.get("mover", ""))
    details = []
    if data.get("reasons"):
        details.append(say.t("detail.reasons", reasons=_reasons(say, data["reasons"])))
    if _has(data, "cost_units"):
        details.append(
            say.t(
                "detail.cost",
                cost=_units(say, data["cost_units"]),
                allowance=_units(say, data.get("allowance_units")),
                unit=_unit(say, data, "allowance_units"),
                cost_mm=_mm(say, data.get("cost_mm")),
                allowance_mm=_mm(say, data.get("allowance_mm")),
            )
        )
    if data.get("blocked_by"):
        details.append(say.t("detail.path_blocked", names=_names(say, data["blocked_by"])))
    details += _margin(say, data)
    if target_mm is not None:
        x, y = target_mm
        details.append(say.t("detail.destination", x=_mm(say, x), y=_mm(say, y)))
    details += _warnings(say, data)
    return Phrased(headline, tuple(details))


def _reach(say: Phrases, data: Mapping[str, Any], _: Sequence[float] | None) -> Phrased:
    a = data.get("mover", "")
    if not data.get("polygons_mm"):
        return Phrased(say.t("result.reach.none", a=a))
    headline = say.t(
        "result.reach.area",
        a=a,
        areas=say.count("area", len(data["polygons_mm"])),
        area=say.digits(area_text(float(data.get("area_mm2") or 0.0))),
        units=_units(say, data.get("allowance_units")),
        unit=_unit(say, data, "allowance_units"),
        mm=_mm(say, data.get("allowance_mm")),
    )
    return Phrased(headline)


def _other(say: Phrases, data: Mapping[str, Any], _: Sequence[float] | None) -> Phrased:
    """The rules' English sentence, and below it what the catalogue can word."""
    warnings = {f"warning: {w}" for w in data.get("warnings") or ()}
    first, *rest = [
        line for line in str(data.get("message", "")).splitlines() if line not in warnings
    ] or [""]
    details = list(rest)
    if data.get("reasons"):
        details.append(say.t("detail.reasons", reasons=_reasons(say, data["reasons"])))
    details += _margin(say, data) + _warnings(say, data)
    return Phrased(first, tuple(details))


def _margin(say: Phrases, data: Mapping[str, Any]) -> list[str]:
    """The margin and the limit it is measured from (app.js's marginDetail)."""
    if not _has(data, "margin_mm"):
        return []
    kind = ""
    margins = [m for m in data.get("margins") or () if _has(m, "margin_mm")]
    if margins:
        deciding = min(margins, key=lambda m: abs(m["margin_mm"] - data["margin_mm"]))
        kind = str(deciding.get("what", "")).split(" ")[0]
    limit = say.t_or(f"margin.{kind}", say.t("margin.other"))
    return [say.t("detail.margin", mm=_mm(say, data["margin_mm"]), limit=limit)]


def _warnings(say: Phrases, data: Mapping[str, Any]) -> list[str]:
    """The rules' warnings, worded in this language where the catalogue has their code
    (``warning_codes``), else as the rules wrote them (app.js's warningLines)."""
    warnings = list(data.get("warnings") or ())
    codes = list(data.get("warning_codes") or ()) + [None] * len(warnings)
    lines = []
    for text, said in zip(warnings, codes, strict=False):
        if said:
            params = {name: say.digits(str(value)) for name, value in said["params"].items()}
            text = say.t_or(f"warning.{said['code']}", text, **params)
        lines.append(say.t("detail.warnings", text=text))
    return lines


def _contact(say: Phrases, data: Mapping[str, Any], _: Sequence[float] | None) -> Phrased:
    in_contact = bool(data.get("contact"))
    headline = say.t(
        "result.contact.yes" if in_contact else "result.contact.no",
        a=data.get("a", ""),
        b=data.get("b", ""),
    )
    details = []
    if _has(data, "steps"):  # on a hex or square mat: the cells, and the steps between
        details.append(
            say.t(
                "detail.cells",
                a=data.get("a", ""),
                b=data.get("b", ""),
                cell_a=",".join(str(n) for n in data.get("cell_a") or ()),
                cell_b=",".join(str(n) for n in data.get("cell_b") or ()),
                steps=data["steps"],
            )
        )
    elif _has(data, "gap_mm"):
        details.append(
            say.t(
                "detail.gap",
                gap=_mm(say, data["gap_mm"]),
                threshold=_mm(say, data.get("threshold_mm")),
            )
        )
    details += _margin(say, data) + _warnings(say, data)
    return Phrased(headline, tuple(details))


_PHRASINGS = {
    "distance": _distance,
    "fire": _fire,
    "move": _move,
    "reach": _reach,
    "contact": _contact,
}


def phrase_error(error: Exception, language: str) -> str:
    """A refusal of the rules (`arbitre.rules.errors.RulesError`) in ``language``: in the
    catalogue's words where the error has a ``code`` the catalogue words
    (``error.{code}``), else its English message.

    >>> from arbitre.rules.errors import UnknownName
    >>> phrase_error(UnknownName("figure or group", "alpin", ["alpins"]), "fr")
    "figurine ou groupe inconnu 'alpin' (vouliez-vous dire 'alpins' ?)"
    """
    say = Phrases(find_language(language))
    code = getattr(error, "code", None)
    message = str(error).splitlines()[0] if str(error) else type(error).__name__
    if not code or f"error.{code}" not in catalogue()[say.language]:
        return message
    params = dict(getattr(error, "params", {}))
    nearest = params.pop("nearest", None)
    if nearest is not None:
        names = say.t("list.or").join(map(repr, nearest)) if nearest else ""
        params["meant"] = say.t("error.meant", names=names) if names else ""
    if code == "argument_count":
        params["count"] = say.count("argument", int(params["count"]))
    return say.t(f"error.{code}", **params)
