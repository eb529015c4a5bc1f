"""The page words refusals and units as the command line does (a real browser: Debian's
chromium, Playwright): its i18n.js and `arbitre.api.i18n` read one catalogue, and give
the same words for the same refusal or number, in English and in French."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from arbitre.api.i18n import Phrases, phrase_error
from arbitre.api.live.demo import DemoSource, demo_config
from arbitre.api.live.table import LiveTable
from arbitre.rules.errors import QuestionError, UnknownName, error_fields

from .test_page_e2e import launched_chromium
from .test_terrain_page_e2e import serving

REFUSALS = [
    UnknownName("figure or group", "alpin", ["alpins", "alp3", "verts"]),
    UnknownName("figure", "zz", ["alpins"]),
    QuestionError(
        "distance takes 2 arguments (A B), got ['a']",
        "argument_count",
        question="distance",
        count=2,
        wanted="A B",
        given="['a']",
    ),
    QuestionError("no figure has been seen on the table yet", "no_figure_yet"),
    QuestionError("a refusal without a code"),
]


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    with (
        serving(LiveTable(demo_config(), DemoSource(move_every_s=1e9))) as base,
        launched_chromium() as browser,
    ):
        page = browser.new_page()
        page.goto(base, wait_until="domcontentloaded")
        yield page


def _in_page(page: Any, language: str, script: str, arg: Any) -> Any:
    """``script`` (a function of the i18n module and ``arg``) run in the page in ``language``."""
    return page.evaluate(
        "async ([language, script, arg]) => {"
        "  const i18n = await import(new URL('static/i18n.js', document.baseURI).toString());"
        "  i18n.setLanguage(language);"
        "  return new Function('i18n', 'arg', script)(i18n, arg);"
        "}",
        [language, script, arg],
    )


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_refusal_reads_the_same_on_the_page_and_in_a_terminal(page: Any, language: str) -> None:
    bodies = [error_fields(error) for error in REFUSALS]
    on_page = _in_page(page, language, "return arg.map((body) => i18n.errorWords(body));", bodies)
    assert on_page == [phrase_error(error, language) for error in REFUSALS]
    if language == "fr":  # worked out from the catalogue's French
        assert (
            on_page[0]
            == "figurine ou groupe inconnu 'alpin' (vouliez-vous dire 'alpins' ou 'alp3' ?)"
        )
        assert on_page[2] == "distance attend 2 arguments (A B), reçu ['a']"
        assert on_page[4] == "a refusal without a code"  # no words but its English


@pytest.mark.parametrize("language", ["en", "fr"])
def test_units_read_the_same_on_the_page_and_in_a_terminal(page: Any, language: str) -> None:
    cases = [["pas", 1], ["pas", 7.9], ["graduation", 1.5], ["graduation", 2], ["M", 3]]
    on_page = _in_page(
        page, language, "return arg.map(([unit, value]) => i18n.unitWord(unit, value));", cases
    )
    say = Phrases(language)
    assert on_page == [say.unit(unit, value) for unit, value in cases]
