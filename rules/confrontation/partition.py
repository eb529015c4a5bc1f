"""The melee partition search: exact covers of a melee by combats (stars), and the proposal."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from arbitre.rules.confrontation.contacts import Contacts
from arbitre.rules.model import Scene

Combat = tuple[int, ...]  # centre first, then its opponents; a duel is (lower, higher)
Split = tuple[Combat, ...]


@dataclass(frozen=True, slots=True)
class MeleeGraph:
    """A melee's enemy-contact graph on local indices 0..n-1 (bit masks)."""

    nodes: tuple[int, ...]  # scene figure indices, in scene order
    touching: tuple[int, ...]  # per node: mask of touching enemies
    hostile: tuple[int, ...]  # per node: mask of enemies (touching or not)

    @classmethod
    def of(cls, scene: Scene, contacts: Contacts, nodes: Sequence[int]) -> MeleeGraph:
        local = {node: k for k, node in enumerate(nodes)}
        touching = tuple(
            _mask(local[e] for e in contacts.enemies[node] if e in local) for node in nodes
        )
        sides = [scene.figures[node].side for node in nodes]
        hostile = tuple(
            _mask(k for k, other in enumerate(sides) if scene.are_enemies(side, other))
            for side in sides
        )
        return cls(tuple(nodes), touching, hostile)

    def camp(self, mask: int) -> bool:
        """Whether the figures of ``mask`` may stand together against one figure."""
        return all(self.hostile[k] & mask == 0 for k in _bits(mask))


def _mask(indices: Iterator[int] | Sequence[int]) -> int:
    mask = 0
    for k in indices:
        mask |= 1 << k
    return mask


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _subsets(mask: int) -> Iterator[int]:
    """Non-empty subsets of a mask, smallest first within each size class order."""
    found = []
    sub = mask
    while sub:
        found.append(sub)
        sub = (sub - 1) & mask
    yield from sorted(found, key=lambda s: (s.bit_count(), s))


def combats_of(graph: MeleeGraph, free: int, u: int) -> Iterator[tuple[int, Combat]]:
    """Every combat containing ``u`` among the ``free`` figures: (its mask, the combat).

    Each combat is produced once: ``u`` against a camp of touching enemies (a
    duel included), or ``u`` with at least one other figure against a figure
    touching them all.
    """
    for leaves in _subsets(graph.touching[u] & free):
        if graph.camp(leaves):
            yield leaves | (1 << u), (u, *_bits(leaves))
    for v in _bits(graph.touching[u] & free):
        others = graph.touching[v] & free & ~(1 << u) & ~graph.hostile[u]
        for extra in _subsets(others):
            if graph.camp(extra):
                leaves = extra | (1 << u)
                yield leaves | (1 << v), (v, *_bits(leaves))


def _stranded(graph: MeleeGraph, free: int, taken: int) -> int | None:
    """A free figure left with no free enemy touching it after ``taken`` is used, if any."""
    rest = free & ~taken
    for k in _bits(taken):
        for w in _bits(graph.touching[k] & rest):
            if graph.touching[w] & rest == 0:
                return w
    return None


def split_melee(graph: MeleeGraph, limit: int) -> tuple[list[Split], bool]:
    """Every split of a melee into combats, at most ``limit`` of them.

    Backtracking over the lowest figure not yet in a combat: it joins one of
    the combats open to it (see `combats_of`); a branch stops as soon as a figure
    is left with no free enemy, and a set of free figures found impossible to
    split is remembered, so it is never searched twice. Returns the splits
    (combats as local indices) and whether the listing was cut at ``limit``.

    >>> g = MeleeGraph((0, 1, 2), (0b110, 0b001, 0b001), (0b110, 0b001, 0b001))
    >>> split_melee(g, 10)
    ([((0, 1, 2),)], False)
    """
    found: list[Split] = []
    chosen: list[Combat] = []
    dead: set[int] = set()

    def search(free: int) -> bool:
        """Extend the current split; True once more than ``limit`` splits are found."""
        if free == 0:
            found.append(tuple(chosen))
            return len(found) > limit
        if free in dead:
            return False
        before = len(found)
        u = (free & -free).bit_length() - 1
        for taken, combat in combats_of(graph, free, u):
            if _stranded(graph, free, taken) is not None:
                continue
            chosen.append(combat)
            stop = search(free & ~taken)
            chosen.pop()
            if stop:
                return True
        if len(found) == before:
            dead.add(free)
        return False

    if any(touching == 0 for touching in graph.touching):
        return [], False
    truncated = search((1 << len(graph.nodes)) - 1)
    return found[:limit], truncated


def best_split(splits: Sequence[Split]) -> int | None:
    """Index of the split that balances the dice best: the smallest largest combat,
    then the most combats (duels first), then the first listed."""
    if not splits:
        return None
    return min(
        range(len(splits)),
        key=lambda k: (max(len(c) for c in splits[k]), -len(splits[k]), k),
    )


def explain_none(scene: Scene, graph: MeleeGraph) -> str:
    """Why a melee has no split: every combat open to its first figure fails."""
    ids = [scene.figures[node].id for node in graph.nodes]
    everyone = (1 << len(ids)) - 1
    u = min(range(len(ids)), key=lambda k: graph.nodes[k])  # the first figure in the scene
    lone = [k for k in range(len(ids)) if graph.touching[k] == 0]
    if lone:
        return f"{ids[lone[0]]} touches no enemy"
    tried: list[str] = []
    for taken, combat in combats_of(graph, everyone, u):
        names = _combat_text(ids, combat)
        stranded = _stranded(graph, everyone, taken)
        if stranded is not None:
            tried.append(f"{names} leaves {ids[stranded]} with no enemy to fight")
        else:
            tried.append(f"{names} leaves figures that cannot be split (searched exhaustively)")
    touching = sorted(_bits(graph.touching[u]), key=lambda k: graph.nodes[k])
    for a_index, a in enumerate(touching):
        for b in touching[a_index + 1 :]:
            if graph.hostile[a] & (1 << b):
                tried.append(
                    f"{ids[u]} against {ids[a]} and {ids[b]} together is not allowed "
                    f"({ids[a]} and {ids[b]} are enemies)"
                )
    return f"no legal split: {ids[u]} must fight in one combat, and " + "; ".join(tried)


def _combat_text(ids: Sequence[str], combat: Combat) -> str:
    centre, *opponents = combat
    return f"{ids[centre]} against {' and '.join(ids[k] for k in opponents)}"
