"""The groups a rule system finds on a table, looked up alike by every system that plays in
groups (Choc Base 6 on either surface, Smooth & Rifled): by the group's name, or by the
name of one of its figures."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from arbitre.rules.model import Scene
from arbitre.rules.ruleset import unknown_figure_or_group


class NamedGroup(Protocol):
    """A group as `Grouping` looks it up: its name and its figures' ids."""

    @property
    def name(self) -> str: ...
    @property
    def ids(self) -> tuple[str, ...]: ...


GroupT = TypeVar("GroupT", bound=NamedGroup)


@dataclass(frozen=True, slots=True)
class Grouping(Generic[GroupT]):
    """A scene's groups (every figure in exactly one) and the warnings finding them gave."""

    groups: tuple[GroupT, ...]
    warnings: tuple[str, ...]

    def by_name(self, name: str) -> GroupT | None:
        """The group called ``name``, if there is one."""
        return next((group for group in self.groups if group.name == name), None)

    def of_figure(self, figure_id: str) -> GroupT:
        """The group the figure ``figure_id`` belongs to (it must be one of the scene's)."""
        return next(group for group in self.groups if figure_id in group.ids)

    def named(self, scene: Scene, name: str) -> GroupT:
        """A group by its name, or the group of the figure so named; a `QuestionError`
        naming the nearest names when neither is."""
        group = self.by_name(name)
        if group is not None:
            return group
        if scene.figure(name) is not None:
            return self.of_figure(name)
        raise unknown_figure_or_group(scene, self.groups, name)
