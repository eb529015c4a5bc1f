"""Melees of a scene: clusters of enemy contact, each with its splits named by figure id."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from arbitre.rules.answers import counted
from arbitre.rules.confrontation.contacts import Contacts, find_contacts
from arbitre.rules.confrontation.dice import dice_of_split
from arbitre.rules.confrontation.options import options_of
from arbitre.rules.confrontation.partition import (
    MAX_STEPS,
    Budget,
    Combat,
    MeleeGraph,
    Split,
    best_split,
    explain_none,
    split_melee,
)
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Scene


@dataclass(frozen=True, slots=True)
class Melee:
    """One melee: its figures (scene order), its splits (figure ids) and a proposal."""

    figures: tuple[str, ...]
    partitions: tuple[tuple[tuple[str, ...], ...], ...]
    truncated: bool
    proposal: tuple[tuple[str, ...], ...] | None
    proposal_index: int | None
    reason: str | None
    exhausted: bool = False  # the search stopped on its budget: the listing may be short

    def to_json(self) -> dict[str, Any]:
        return {
            "figures": list(self.figures),
            "partitions": [[list(c) for c in split] for split in self.partitions],
            "count": len(self.partitions),
            "truncated": self.truncated,
            "proposal": None
            if self.proposal is None
            else {
                "index": self.proposal_index,
                "combats": [list(c) for c in self.proposal],
                "dice": dice_of_split(self.proposal),
            },
            "reason": self.reason,
            "exhausted": self.exhausted,
        }


@functools.lru_cache(maxsize=16)
def find_melees(scene: Scene) -> tuple[Melee, ...]:
    """Every melee of a scene with its splits, computed once per scene."""
    options = options_of(scene)
    contacts = find_contacts(scene)
    seen: set[int] = set()
    melees: list[Melee] = []
    reason: str | None
    budget = Budget(MAX_SCENE_STEPS)  # shared by every melee of the scene
    for start in range(len(scene.figures)):
        if start in seen or not contacts.enemies[start]:
            continue
        cluster, stack = {start}, [start]
        while stack:
            for other in contacts.enemies[stack.pop()]:
                if other not in cluster:
                    cluster.add(other)
                    stack.append(other)
        seen |= cluster
        figures = tuple(scene.figures[node].id for node in sorted(cluster))
        if len(cluster) > MAX_MELEE_FIGURES:
            reason = (
                f"{len(cluster)} figures in one melee, more than the {MAX_MELEE_FIGURES} "
                "whose splits are searched: split it by hand"
            )
            melees.append(Melee(figures, (), True, None, None, reason, exhausted=True))
            continue
        graph = MeleeGraph.of(scene, contacts, _search_order(contacts, sorted(cluster)))
        search = split_melee(graph, options.max_partitions, _share(budget))
        named = _named_splits(scene, graph, search.splits)
        best = best_split(search.splits)
        reason = None
        if search.exhausted:
            reason = "the search stopped (too many ways to try) " + (
                f"after {counted(len(search.splits), 'split')}: more may exist"
                if search.splits
                else "before finding a split: split it by hand"
            )
        elif not search.splits:
            reason = explain_none(scene, graph)
        melees.append(
            Melee(
                figures=figures,
                partitions=named,
                truncated=search.truncated,
                proposal=None if best is None else named[best],
                proposal_index=best,
                reason=reason,
                exhausted=search.exhausted,
            )
        )
    return tuple(melees)


MAX_MELEE_FIGURES = 300
"""The most figures of one melee whose splits are searched."""

MAX_SCENE_STEPS = 5 * MAX_STEPS
"""The most camps the search of all the melees of a scene looks at (a few seconds)."""


def _share(budget: Budget) -> Budget:
    """One melee's budget: `MAX_STEPS`, or what the scene has left if less; what it
    spends is taken from the scene's."""
    return _Share(budget, min(MAX_STEPS, max(budget.left, 0)))


class _Share(Budget):
    def __init__(self, scene: Budget, steps: int) -> None:
        super().__init__(steps)
        self.scene = scene

    def spend(self) -> None:
        self.scene.left -= 1
        super().spend()


def _search_order(contacts: Contacts, nodes: list[int]) -> list[int]:
    """The melee's figures in reverse Cuthill-McKee order: neighbours close together,
    so the figures still free during the search form a narrow front."""
    if len(nodes) < 3:
        return nodes
    local = {node: k for k, node in enumerate(nodes)}
    rows = [local[node] for node in nodes for e in contacts.enemies[node] if e in local]
    cols = [local[e] for node in nodes for e in contacts.enemies[node] if e in local]
    from scipy.sparse import csr_matrix  # imported only when needed (0.2 s)
    from scipy.sparse.csgraph import reverse_cuthill_mckee

    matrix = csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(nodes), len(nodes)))
    order = reverse_cuthill_mckee(matrix, symmetric_mode=True)
    return [nodes[int(k)] for k in order]


def _named_splits(
    scene: Scene, graph: MeleeGraph, splits: Sequence[Split]
) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """Splits in figure ids: a combat's lone figure first (a duel in scene order), then
    its opponents in scene order; combats ordered by their first figure in the scene."""
    named: dict[Combat, tuple[int, tuple[str, ...]]] = {}

    def name(combat: Combat) -> tuple[int, tuple[str, ...]]:
        if combat not in named:
            centre, *leaves = (graph.nodes[k] for k in combat)
            if len(leaves) == 1:
                nodes = tuple(sorted((centre, leaves[0])))
            else:
                nodes = (centre, *sorted(leaves))
            named[combat] = (min(nodes), tuple(scene.figures[n].id for n in nodes))
        return named[combat]

    return tuple(tuple(ids for _, ids in sorted(map(name, split))) for split in splits)


def combat_of_figure(
    scene: Scene, figure_id: str, partition: int | None
) -> tuple[tuple[str, ...], int | None, bool] | None:
    """The combat of a figure in split ``partition`` of its melee (else the proposal)."""
    for melee in find_melees(scene):
        if figure_id not in melee.figures:
            continue
        if partition is None:
            split = melee.proposal
            index, from_proposal = melee.proposal_index, True
            if split is None:
                return None
        else:
            if isinstance(partition, bool) or not isinstance(partition, int):
                raise QuestionError(f"partition must be an integer, got {partition!r}")
            if not 0 <= partition < len(melee.partitions):
                raise QuestionError(
                    f"partition must be 0 to {len(melee.partitions) - 1} for the melee of "
                    f"{figure_id!r}, got {partition!r}"
                )
            split, index, from_proposal = melee.partitions[partition], partition, False
        for combat in split:
            if figure_id in combat:
                return combat, index, from_proposal
    return None


def in_melee(scene: Scene, figure_id: str) -> bool:
    """Whether a figure is in one of the scene's melees."""
    return any(figure_id in melee.figures for melee in find_melees(scene))


def melee_of(scene: Scene, figure_id: str) -> tuple[str, ...]:
    """The figures of a figure's melee; the figure alone when it is in none."""
    for melee in find_melees(scene):
        if figure_id in melee.figures:
            return melee.figures
    return (figure_id,)
