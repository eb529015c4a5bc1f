"""One catalogue for the page and the command line: complete in both languages, and
``arbitre ask --lang fr`` worded as the page words its answers."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from arbitre.api.cli import app
from arbitre.api.i18n import Phrases, catalogue, find_language
from arbitre.rules.answers import Reason
from arbitre.rules.model import TerrainKind

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "api" / "static"
EXAMPLE = ROOT / "examples" / "cb6-skirmish.yaml"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
runner = CliRunner()

EN, FR = catalogue()["en"], catalogue()["fr"]


def _ask(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["ask", *args], env=env)
    return result.exit_code, result.stdout, result.stderr


def _json(*args: str) -> dict[str, Any]:
    code, out, _ = _ask(*args, "--json")
    assert code == 0
    answer: dict[str, Any] = json.loads(out)
    return answer


def _fill(template: str, **params: object) -> str:
    """A catalogue string with its placeholders filled by hand."""
    text = template
    for name, value in params.items():
        text = text.replace("{" + name + "}", str(value))
    assert "{" not in text, text
    return text


# ---- the catalogue ----------------------------------------------------------------------


def test_english_and_french_have_the_same_keys_every_one_written() -> None:
    assert list(catalogue()) == ["en", "fr"]
    assert set(EN) == set(FR)
    assert all(text.strip() for text in [*EN.values(), *FR.values()])


@pytest.mark.parametrize("key", sorted(EN))
def test_a_french_string_has_the_placeholders_of_the_english(key: str) -> None:
    assert set(PLACEHOLDER.findall(FR[key])) == set(PLACEHOLDER.findall(EN[key]))


SAID = re.compile(r'Said\(\s*"(\w+)",\s*((?:"(?:[^"\\]|\\.)*"\s*)+)')


def test_every_note_the_rules_word_by_code_has_words_in_each_language() -> None:
    # Each Said("code", "English {param} ...") in the rules: the catalogue's English is
    # that very sentence (the two cannot drift apart), and French has its words.
    found = {}
    for source in (ROOT / "rules").rglob("*.py"):
        for code, literals in SAID.findall(source.read_text(encoding="utf-8")):
            english = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', literals))
            found.setdefault(code, set()).add(english)
    assert len(found) >= 40, sorted(found)  # every coded note: none missed by the pattern
    for code, englishes in found.items():
        assert englishes == {EN[f"warning.{code}"]}, code
        assert f"warning.{code}" in FR
    assert {key for key in EN if key.startswith("warning.")} == {f"warning.{c}" for c in found}


def test_every_reason_code_and_terrain_kind_has_words() -> None:
    assert {f"reason.{code}" for code in Reason} <= set(EN)
    assert {f"kind.{kind}" for kind in TerrainKind} <= set(EN)


def test_every_key_the_page_names_is_in_the_catalogue() -> None:
    named = set()
    for script in ("app.js", "draw.js", "editor.js"):
        named |= set(re.findall(r"\bt(?:Or)?\(\"([\w.]+)\"", (STATIC / script).read_text()))
    named |= set(
        re.findall(r'data-i18n(?:-label|-alt)?="([\w.]+)"', (STATIC / "index.html").read_text())
    )
    assert len(named) > 30
    assert named <= set(EN), sorted(named - set(EN))


def test_the_page_reads_the_catalogue_and_holds_no_strings_of_its_own() -> None:
    script = (STATIC / "i18n.js").read_text()
    assert '"./strings.json"' in script
    assert EN["result.fire.yes"] not in script and FR["result.fire.yes"] not in script


def test_languages_are_found_by_name_or_tag() -> None:
    assert [find_language(n) for n in ("fr", "FR", "fr-FR", "fr_FR.UTF-8", "en")] == [
        "fr",
        "fr",
        "fr",
        "fr",
        "en",
    ]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node for Intl.NumberFormat")
def test_numbers_are_written_as_the_browser_writes_them() -> None:
    values = [3.406, 340.588, 0.125, 1.005, 2.675, -0.001, -1.25, 12345.678, 0.0, 99.995]
    script = (
        "const v = JSON.parse(process.argv[1]); const out = {};"
        "for (const [lang, locale] of [['en', 'en-GB'], ['fr', 'fr-FR']]) out[lang] ="
        " v.flatMap((x) => [1, 2].map((d) => new Intl.NumberFormat(locale,"
        " {minimumFractionDigits: d, maximumFractionDigits: d, useGrouping: false}).format(x)));"
        "console.log(JSON.stringify(out));"
    )
    done = subprocess.run(
        ["node", "-e", script, json.dumps(values)], capture_output=True, text=True, check=True
    )
    browser = json.loads(done.stdout)
    for lang in ("en", "fr"):
        say = Phrases(lang)
        assert [say.number(x, d) for x in values for d in (1, 2)] == browser[lang]


# ---- arbitre ask --lang fr ----------------------------------------------------------------


def test_distance_in_french() -> None:
    answer = _json(str(EXAMPLE), "distance", "alpins", "verts")
    # chef (300, 300) to sergent (560, 520): hypot(260, 220) = 340.588 mm = 3.406 M.
    assert answer["distance_mm"] == pytest.approx(340.588, abs=1e-3)
    code, out, _ = _ask(str(EXAMPLE), "distance", "alpins", "verts", "--lang", "fr")
    assert code == 0
    assert out.splitlines() == [
        _fill(FR["result.distance"], a="alpins", b="verts", units="3,41", unit="M", mm="340,6"),
        "  " + _fill(FR["detail.mode"], mode=FR["mode.reference"]),
    ]


def test_fire_in_french() -> None:
    answer = _json(str(EXAMPLE), "fire", "alpins", "verts")
    # 3.41 M: beyond 3 M the sniper alone may shoot, PI 2; the deciding margin is the
    # band's, 340.588 - 300 = 40.588 mm.
    assert (answer["allowed"], answer["band"], answer["pi"]) == (True, "sniper", 2)
    assert answer["margin_mm"] == pytest.approx(40.588, abs=1e-3)
    (warning,) = answer["warnings"]
    code, out, _ = _ask(str(EXAMPLE), "fire", "alpins", "verts", "--lang", "fr")
    assert code == 0
    assert out.splitlines() == [
        _fill(FR["result.fire.yes"], a="alpins", b="verts"),
        "  " + _fill(FR["detail.distance"], units="3,41", unit="M", mm="340,6"),
        "  " + _fill(FR["detail.band"], band=FR["band.sniper"]),
        "  " + _fill(FR["detail.pi"], pi=2),
        # 40.6 mm from the 3 M limit of the band where only snipers count
        "  " + _fill(FR["detail.margin"], mm="40,6", limit=FR["margin.band"]),
        # the rules' note, worded in French from its code
        "  "
        + _fill(FR["detail.warnings"], text=_fill(FR["warning.snipers_only"], units=3, unit="M")),
    ]
    assert warning == _fill(EN["warning.snipers_only"], units=3, unit="M")
    assert answer["warning_codes"] == [
        {"code": "snipers_only", "params": {"units": "3", "unit": "M"}}
    ]


MUSG_SCENE = """
ruleset: musg
options: {pace_mm: 25}
table: {width_mm: 1000, depth_mm: 800}
figures:
  - {id: k, side: blue, x_mm: 100, y_mm: 100, attrs: {rank: chief}}
  - {id: w, side: blue, x_mm: 130, y_mm: 100}
  - {id: h, side: blue, x_mm: 500, y_mm: 300, attrs: {move_pas: 4, rank: henchman}}
  - {id: c, side: red, x_mm: 700, y_mm: 300, attrs: {rank: chief}}
  - {id: g, side: blue, x_mm: 300, y_mm: 600,
     attrs: {weapon: {kind: cannon, range_pas: 24, artillery: true, black_powder: true}}}
  - {id: t, side: red, x_mm: 300, y_mm: 400}
"""


def test_a_shots_action_points_in_french(tmp_path: Path) -> None:
    scene = tmp_path / "musg.yaml"
    scene.write_text(MUSG_SCENE, encoding="utf-8")
    # A cannon (artillery: true) is a heavy weapon: « Tirer avec [...] une arme lourde
    # (2 PA) »; 200 - 25 = 175 mm = 7 pas, short range.
    assert _json(str(scene), "fire", "g", "t")["action_points"] == 2
    code, out, _ = _ask(str(scene), "fire", "g", "t", "--lang", "fr")
    assert code == 0
    assert out.splitlines()[:4] == [
        _fill(FR["result.fire.yes"], a="g", b="t"),
        "  " + _fill(FR["detail.distance"], units="7,00", unit="pas", mm="175,0"),
        "  " + _fill(FR["detail.band"], band=FR["band.short"]),
        "  " + _fill(FR["detail.action_points"], pa=2),
    ]
    # h has no weapon: no shot, no PA.
    code, out, _ = _ask(str(scene), "fire", "h", "t", "--lang", "fr")
    assert code == 0 and "PA" not in out


@pytest.mark.parametrize(
    ("question", "margin_mm", "limit"),
    [
        # k's friend w stands 30 - 25 = 5 mm off, within the chief's 1 pas: 25 - 5 = 20 mm.
        (("support", "k"), "20,0", "margin.attention"),
        # h's base stands 287.5 mm from y = 0, 487.5 from x = 0, x = 1000 and y = 800.
        (("flee", "h"), "200,0", "margin.nearest"),
        # 4 pas straight away from c, free for a further pas: 25 mm.
        (("urge_to_charge", "h", "c"), "25,0", "margin.way"),
    ],
)
def test_musg_margins_name_their_limit(
    tmp_path: Path, question: tuple[str, ...], margin_mm: str, limit: str
) -> None:
    scene = tmp_path / "musg.yaml"
    scene.write_text(MUSG_SCENE, encoding="utf-8")
    code, out, _ = _ask(str(scene), *question, "--lang", "fr")
    assert code == 0
    assert "  " + _fill(FR["detail.margin"], mm=margin_mm, limit=FR[limit]) in out.splitlines()


def test_move_in_french() -> None:
    answer = _json(str(EXAMPLE), "move", "alpins", "520", "300")
    # chef walks from (300, 300) to (520, 300): 220 mm = 2.2 M, allowance 1 M (PA 1 of
    # the wounded alp3): too far by 120 mm.
    assert (answer["legal"], answer["reasons"]) == (False, ["over_allowance"])
    assert answer["margin_mm"] == pytest.approx(120.0)
    code, out, _ = _ask(str(EXAMPLE), "move", "alpins", "520", "300", "--lang", "fr")
    assert code == 0
    assert out.splitlines() == [
        _fill(FR["result.move.no"], a="alpins"),
        "  " + _fill(FR["detail.reasons"], reasons=FR["reason.over_allowance"]),
        "  "
        + _fill(
            FR["detail.cost"],
            cost="2,20",
            allowance="1,00",
            unit="M",
            cost_mm="220,0",
            allowance_mm="100,0",
        ),
        "  " + _fill(FR["detail.margin"], mm="120,0", limit=FR["margin.allowance"]),
        "  " + _fill(FR["detail.destination"], x="520,0", y="300,0"),
    ]


TOO_CLOSE_SCENE = """\
ruleset: choc-base-6
options: {surface: neutral, unit_mm: 100, thickness_mm: 25}
table: {width_mm: 1200, depth_mm: 900}
figures:
  - {id: a, side: white, reference: true, x_mm: 100, y_mm: 100, type: TD, sigma_mm: 2}
  - {id: b, side: green, reference: true, x_mm: 399, y_mm: 100, type: TD, sigma_mm: 2}
"""


def test_too_close_to_call_and_the_camera_precision_in_french(tmp_path: Path) -> None:
    scene = tmp_path / "close.yaml"
    scene.write_text(TOO_CLOSE_SCENE, encoding="utf-8")
    # 299 mm apart, 1 mm inside the 3 M range; each position ± 2 mm, the distance
    # ± hypot(2, 2) = 2.83 mm: 1 mm is within twice that, too close to call.
    answer = _json(str(scene), "fire", "a", "b")
    assert answer["certain"] is False
    code, out, _ = _ask(str(scene), "fire", "a", "b", "--lang", "fr")
    assert code == 0
    lines = out.splitlines()
    assert lines[:2] == [FR["too_close"], _fill(FR["result.fire.yes"], a="a", b="b")]
    code, out, _ = _ask(str(scene), "distance", "a", "b", "--lang", "fr")
    assert "  " + _fill(FR["detail.sigma"], sigma="2,8") in out.splitlines()


def test_other_questions_keep_the_rules_sentence() -> None:
    english = _ask(str(EXAMPLE), "groups")[1]
    code, out, _ = _ask(str(EXAMPLE), "groups", "--lang", "fr")
    assert code == 0 and out == english


def test_the_environment_chooses_the_language_and_the_option_wins() -> None:
    question = (str(EXAMPLE), "fire", "alpins", "verts")
    french = _ask(*question, "--lang", "fr")[1]
    english = _ask(*question)[1]
    assert french != english
    assert _ask(*question, env={"ARBITRE_LANG": "fr"})[1] == french
    assert _ask(*question, "--lang", "en", env={"ARBITRE_LANG": "fr"})[1] == english


@pytest.mark.parametrize("how", [("--lang", "xx"), ()])
def test_an_unknown_language_is_one_line_and_exit_2(how: tuple[str, ...]) -> None:
    code, out, err = _ask(
        str(EXAMPLE), "distance", "alpins", "verts", *how, env={"ARBITRE_LANG": "xx"}
    )
    assert code == 2 and out == ""
    assert err.splitlines() == ["arbitre: unknown language 'xx'; expected one of en, fr"]


@pytest.mark.parametrize(
    "question", [("distance", "alpins", "verts"), ("fire", "alpins", "verts"), ("groups",)]
)
def test_json_is_the_same_in_every_language(question: tuple[str, ...]) -> None:
    plain = _ask(str(EXAMPLE), *question, "--json")[1]
    assert _ask(str(EXAMPLE), *question, "--json", "--lang", "fr")[1] == plain


def test_contact_in_french() -> None:
    answer = _json(str(EXAMPLE), "contact", "alpins", "verts")
    # chef (300, 300) and sergent (560, 520), bases 25 mm across: hypot(260, 220) - 25 =
    # 315.59 mm between the reference figures' edges, 290.59 mm more than the 25 mm of
    # contact.
    assert (answer["contact"], answer["threshold_mm"]) == (False, 25.0)
    assert answer["gap_mm"] == pytest.approx(315.588, abs=1e-3)
    code, out, _ = _ask(str(EXAMPLE), "contact", "alpins", "verts", "--lang", "fr")
    assert code == 0
    assert out.splitlines() == [
        _fill(FR["result.contact.no"], a="alpins", b="verts"),
        "  " + _fill(FR["detail.gap"], gap="315,6", threshold="25,0"),
        "  " + _fill(FR["detail.margin"], mm="290,6", limit=FR["margin.contact"]),
    ]


def test_contact_on_a_hex_mat_in_french() -> None:
    # examples/cb6-hex-skirmish.yaml: the Indians in hex (3,3), the cowboys in (6,2),
    # 3 steps apart (axial: dq = 3, dr = -1, max(|3|, |-1|, |3 - 1|) = 3).
    code, out, _ = _ask(
        str(ROOT / "examples" / "cb6-hex-skirmish.yaml"),
        "contact",
        "indiens",
        "cowboys",
        "--lang",
        "fr",
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[:2] == [
        _fill(FR["result.contact.no"], a="indiens", b="cowboys"),
        "  "
        + _fill(FR["detail.cells"], a="indiens", b="cowboys", cell_a="3,3", cell_b="6,2", steps=3),
    ]


def test_french_margins_read_par_rapport_au_contact() -> None:
    # "Marge par rapport {limit}": each limit brings its own à / au ("par rapport à le
    # contact" was printed), and the English ones read "Margin from the ...".
    for key, text in FR.items():
        if key.startswith("margin."):
            assert text.startswith(("à ", "au ", "aux ")), (key, text)
    assert _fill(FR["detail.margin"], mm="3,0", limit=FR["margin.contact"]) == (
        "Marge par rapport au contact : 3,0 mm"
    )


def test_reach_in_french_says_where_in_a_terminal() -> None:
    # A terminal has no coloured zone: the areas are counted and sized, as in English.
    answer = _json(str(EXAMPLE), "reach", "alpins")
    area_cm2 = round(answer["area_mm2"] / 100)
    assert len(answer["polygons_mm"]) == 1 and area_cm2 >= 100  # written without decimals
    code, out, _ = _ask(str(EXAMPLE), "reach", "alpins", "--lang", "fr")
    assert code == 0
    assert out.splitlines() == [
        f"alpins peut aller n'importe où dans 1 zone de {area_cm2} cm² (jusqu'à 1,00 M, 100,0 mm)"
    ]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ("distance", "alpin", "verts"),
            "arbitre: figurine ou groupe inconnu 'alpin' (vouliez-vous dire 'alpins' ou 'alp3' ?)",
        ),
        (("distance", "alpins"), "arbitre: distance attend 2 arguments (A B), reçu ['alpins']"),
        (("fire", "alpins", "verts", "chef"), "arbitre: fire attend 2 arguments (A B), reçu "),
        (("distancee", "a", "b"), "arbitre: question inconnue 'distancee' pour choc-base-6 ("),
    ],
)
def test_a_refusal_is_in_french_too(args: tuple[str, ...], said: str) -> None:
    code, out, err = _ask(str(EXAMPLE), *args, "--lang", "fr")
    assert (code, out) == (2, "")
    assert err.startswith(said) and len(err.splitlines()) == 1


def test_units_are_worded_in_each_language() -> None:
    # M.U.S.G.'s pas are paces in English; a graduation takes an s from 2 on in French,
    # from anything but 1 in English
    english, french = Phrases("en"), Phrases("fr")
    assert [english.unit("pas", v) for v in (1, 7.9)] == ["pace", "paces"]
    assert [french.unit("pas", v) for v in (1, 7.9)] == ["pas", "pas"]
    assert [english.unit("graduation", v) for v in (1, 1.5, 2)] == ["graduation"] + [
        "graduations"
    ] * 2
    assert [french.unit("graduation", v) for v in (1, 1.5, 2)] == ["graduation"] * 2 + [
        "graduations"
    ]
    assert english.unit("M", 3) == french.unit("M", 3) == "M"
