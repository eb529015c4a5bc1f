"""One entry point for every question, used alike by the CLI and the HTTP API."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arbitre.rules.answers import Answer
from arbitre.rules.model import Scene
from arbitre.rules.registry import find_ruleset


def ask(
    scene: Scene,
    question: str,
    args: Sequence[str],
    extras: Mapping[str, Any] | None = None,
) -> Answer:
    """Answer a question on a scene with its ruleset.

    Raises `arbitre.rules.errors.QuestionError` for an unknown question, wrong arguments
    or an unknown figure; a "no" from the rules is an answer, not an error.
    """
    return find_ruleset(scene.ruleset).ask(scene, question, args, extras)
