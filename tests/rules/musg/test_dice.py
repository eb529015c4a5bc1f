"""M.U.S.G. dice: the damage table copied from the rule book, initiative and its worked
example."""

from __future__ import annotations

import pytest

from arbitre.rules.errors import QuestionError
from arbitre.rules.musg import DAMAGE_TABLE, damage_needed, damages, initiative_order
from arbitre.rules.questions import ask
from tests.rules.musg.scenes import band, musg_scene

# "Tableau des dommages", copied line by line from the rule book (R rows, F columns).
BOOK_TABLE = """\
R \\ F 1 2 3 4 5 6 7 8 9 10 11 12
1 4+ 4+ 3+ 3+ 2+ 2+ 2+ 2+ 2+ 2+ 2+ 2+
2 4+ 4+ 4+ 3+ 3+ 2+ 2+ 2+ 2+ 2+ 2+ 2+
3 5+ 4+ 4+ 4+ 3+ 3+ 2+ 2+ 2+ 2+ 2+ 2+
4 5+ 5+ 4+ 4+ 4+ 3+ 3+ 2+ 2+ 2+ 2+ 2+
5 6+ 5+ 5+ 4+ 4+ 4+ 3+ 3+ 2+ 2+ 2+ 2+
6 6+ 6+ 5+ 5+ 4+ 4+ 4+ 3+ 3+ 2+ 2+ 2+
7 6+ 6+ 6+ 5+ 5+ 4+ 4+ 4+ 3+ 3+ 2+ 2+
8 6+ 6+ 6+ 6+ 5+ 5+ 4+ 4+ 4+ 3+ 3+ 2+
9 6+ 6+ 6+ 6+ 6+ 5+ 5+ 4+ 4+ 4+ 3+ 3+
10 6+ 6+ 6+ 6+ 6+ 6+ 5+ 5+ 4+ 4+ 4+ 3+
11 6+ 6+ 6+ 6+ 6+ 6+ 6+ 5+ 5+ 4+ 4+ 4+
12 6+ 6+ 6+ 6+ 6+ 6+ 6+ 6+ 5+ 5+ 4+ 4+
"""


def _book_cells() -> list[tuple[int, int, int]]:
    lines = BOOK_TABLE.splitlines()
    strengths = [int(x) for x in lines[0].split()[3:]]
    cells = []
    for line in lines[1:]:
        resistance, *needed = line.split()
        for strength, text in zip(strengths, needed, strict=True):
            cells.append((strength, int(resistance), int(text.rstrip("+"))))
    return cells


BOOK_CELLS = _book_cells()


def test_the_book_table_has_every_cell() -> None:
    assert len(BOOK_CELLS) == 144
    assert len(DAMAGE_TABLE) == 12 and all(len(row) == 12 for row in DAMAGE_TABLE)


@pytest.mark.parametrize(("strength", "resistance", "needed"), BOOK_CELLS)
def test_damage_table_cell(strength: int, resistance: int, needed: int) -> None:
    assert damage_needed(strength, resistance) == needed
    # "Chaque 6 ... est un dommage automatique, et chaque 1 ... est un échec automatique."
    assert [damages(strength, resistance, die) for die in range(1, 7)] == [
        die == 6 or (die > 1 and die >= needed) for die in range(1, 7)
    ]


@pytest.mark.parametrize(("strength", "resistance"), [(0, 3), (13, 3), (3, 0), (3, 13)])
def test_damage_outside_the_table_is_bad_input(strength: int, resistance: int) -> None:
    with pytest.raises(QuestionError, match="from 1 to 12"):
        damage_needed(strength, resistance)


def test_initiative_example_marc_and_julien() -> None:
    # "Marc possède une bande composé de 7 humains dont 4 sous-fifres, alors que Julien ...
    # 11 personnages dont 8 sous-fifres. ... Marc fait un 6 et Julien un 4. Le total pour
    # Marc est de 6 + 4 donc 10, alors que pour Julien il est de 4 + 8 donc 12. C'est
    # Julien qui commence le tour."
    marc = band("Marc", 100, ["chief", "subchief", "extra"] + ["henchman"] * 4)
    julien = band("Julien", 900, ["chief", "subchief", "extra"] + ["henchman"] * 8)
    scene = musg_scene(marc + julien)
    answer = ask(scene, "initiative", [], {"dice": {"Marc": 6, "Julien": 4}}).to_json()
    assert answer["henchmen"] == {"Marc": 4, "Julien": 8}
    assert answer["scores"] == {"Marc": 10, "Julien": 12}
    assert answer["order"] == ["Julien", "Marc"]
    assert answer["reroll"] == []
    # "Si Julien avait fait 2 (+ 8 donc 10), c'est Marc qui aurait commencé car il ne
    # possède que 4 sous-fifres au contraire de Julien qui en a 8."
    answer = ask(scene, "initiative", [], {"dice": {"Marc": 6, "Julien": 2}}).to_json()
    assert answer["scores"] == {"Marc": 10, "Julien": 10}
    assert answer["order"] == ["Marc", "Julien"]
    # "S'il y a encore une égalité, on relance le dé."
    assert initiative_order({"a": (3, 2), "b": (3, 2), "c": (1, 0)}) == (
        ["a", "b", "c"],
        [["a", "b"]],
    )


def test_initiative_needs_a_die_for_every_side() -> None:
    scene = musg_scene(band("Marc", 100, ["henchman"]) + band("Julien", 900, ["henchman"]))
    with pytest.raises(QuestionError, match="Julien"):
        ask(scene, "initiative", [], {"dice": {"Marc": 6}})
    with pytest.raises(QuestionError, match="1 to 6"):
        ask(scene, "initiative", [], {"dice": {"Marc": 7, "Julien": 1}})
