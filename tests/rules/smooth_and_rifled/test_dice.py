"""Smooth & Rifled's dice arithmetic."""

from __future__ import annotations

from arbitre.rules.smooth_and_rifled.dice import volley_dice


def test_volley_dice_of_four_shooters() -> None:
    # §6.2.5: "1 Groupe de 4 tireurs jette 5d6, 2 pour le premier et 1 chacun pour les 3".
    assert volley_dice(4) == 5
    # §6.2.2: those who aim "gagne 1d6 supplémentaire si elles appartiennent à un Groupe";
    # §6.4: "le Groupe n'obtient qu'1d6 supplémentaire" (one for the group, not each);
    # the reference sheet: "Bouger -1d6".
    assert volley_dice(4, aimed=True) == 6
    assert volley_dice(4, moved=True) == 4
    assert volley_dice(4, aimed=True, moved=True) == 5
