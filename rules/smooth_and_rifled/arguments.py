"""Smooth & Rifled: the values some questions are given as plain words (``--with``),
read and checked.
"""

from __future__ import annotations

import numpy as np

from arbitre.rules.errors import QuestionError


def flag(value: object, name: str) -> bool:
    """A yes/no extra given as a bool or as text (``true``, ``no``, ``1`` ...)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().casefold() in (
        "true",
        "yes",
        "1",
        "false",
        "no",
        "0",
    ):
        return value.strip().casefold() in ("true", "yes", "1")
    raise QuestionError(f"{name} must be true or false, got {value!r}")


def number(value: object, name: str, *, positive: bool = False) -> float:
    """A number extra given as a number or as text."""
    try:
        result = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise QuestionError(f"{name} must be a number, got {value!r}") from None
    if not np.isfinite(result) or (positive and result <= 0):
        raise QuestionError(
            f"{name} must be a finite{' positive' if positive else ''} number, got {value!r}"
        )
    return result


def choice(value: object, name: str, allowed: tuple[str, ...]) -> str:
    text = str(value).strip().casefold()
    if text not in allowed:
        raise QuestionError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")
    return text


def action_index(action: object, index: object) -> int:
    """Which action of the activation: ``action: first|later`` or ``action_index: 1..3``."""
    if index is not None:
        value = number(index, "action_index")
        if value not in (1, 2, 3):
            raise QuestionError(f"action_index must be 1, 2 or 3, got {index!r}")
        if action is not None and (choice(action, "action", ("first", "later")) == "first") != (
            value == 1
        ):
            raise QuestionError(f"action {action!r} contradicts action_index {index!r}")
        return int(value)
    if action is None:
        return 1
    return 1 if choice(action, "action", ("first", "later")) == "first" else 2
