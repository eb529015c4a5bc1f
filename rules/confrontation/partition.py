"""The melee partition search: exact covers of a melee by combats (stars), and the proposal."""

from __future__ import annotations

import itertools
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


def _subsets(optional: int, required: int = 0) -> Iterator[int]:
    """``required`` with each subset of ``optional``, never empty: fewest figures first,
    then in increasing order of the mask (Gosper's hack, lazily: a large mask is never
    listed whole).

    >>> [bin(m) for m in _subsets(0b101)]
    ['0b1', '0b100', '0b101']
    >>> [bin(m) for m in _subsets(0b110, required=0b1)]
    ['0b1', '0b11', '0b101', '0b111']
    """
    bits = list(_bits(optional))
    n = len(bits)
    for size in range(n + 1):
        if size == 0:
            if required:
                yield required
            continue
        compact = (1 << size) - 1
        while compact < 1 << n:
            mask = required
            for k in _bits(compact):
                mask |= 1 << bits[k]
            yield mask
            low = compact & -compact
            ripple = compact + low
            compact = (((ripple ^ compact) >> 2) // low) | ripple


def _forced(graph: MeleeGraph, free: int, u: int) -> int:
    """The free figures whose only free enemy in contact is ``u``: whatever the split,
    they fight in ``u``'s combat."""
    mask = 0
    for w in _bits(graph.touching[u] & free):
        if graph.touching[w] & free == 1 << u:
            mask |= 1 << w
    return mask


MAX_STEPS = 200_000
"""The most camps the search of one melee looks at before it stops (about a second)."""


class _OutOfSteps(Exception):
    """A `Budget` was spent (never leaves this module)."""


class Budget:
    """How many more camps a search may look at; `spend` raises once none are left."""

    def __init__(self, steps: int) -> None:
        self.left = steps

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise _OutOfSteps


def combats_of(
    graph: MeleeGraph, free: int, u: int, budget: Budget | None = None
) -> Iterator[tuple[int, Combat]]:
    """Every combat containing ``u`` among the ``free`` figures: (its mask, the combat).

    Each combat is produced once: ``u`` against a camp of touching enemies (a
    duel included), or ``u`` with at least one other figure against a figure
    touching them all. A combat that would leave out a figure whose only free enemy
    is its centre is never produced (that figure would be stranded), so a figure
    touched by k lone enemies has one combat to try, not 2^k.
    """
    spend = budget.spend if budget is not None else _free_of_charge
    forced = _forced(graph, free, u)
    for leaves in _subsets(graph.touching[u] & free & ~forced, forced):
        spend()
        if graph.camp(leaves):
            yield leaves | (1 << u), (u, *_bits(leaves))
    if forced & (forced - 1):
        return  # two figures need u at their centre: u is no one's opponent
    for v in _bits(graph.touching[u] & free):
        if forced and forced != 1 << v:
            continue  # u's lone enemy must be in u's combat: here, its centre
        others = graph.touching[v] & free & ~(1 << u) & ~graph.hostile[u]
        needed = _forced(graph, free, v) & ~(1 << u)
        if needed & ~others:
            continue  # a figure that needs v cannot stand with u
        for extra in _subsets(others & ~needed, needed):
            spend()
            if graph.camp(extra):
                leaves = extra | (1 << u)
                yield leaves | (1 << v), (v, *_bits(leaves))


def _free_of_charge() -> None:
    """A search without a budget."""


def _stranded(graph: MeleeGraph, free: int, taken: int) -> int | None:
    """A free figure left with no free enemy touching it after ``taken`` is used, if any."""
    rest = free & ~taken
    for k in _bits(taken):
        for w in _bits(graph.touching[k] & rest):
            if graph.touching[w] & rest == 0:
                return w
    return None


@dataclass(frozen=True, slots=True)
class Splits:
    """What the search of a melee found: its splits, whether the listing was cut at the
    limit asked, and whether the search ran out of steps before it was done."""

    splits: list[Split]
    truncated: bool
    exhausted: bool = False


def split_melee(graph: MeleeGraph, limit: int, budget: Budget | None = None) -> Splits:
    """Every split of a melee into combats, at most ``limit`` of them.

    Backtracking over the lowest figure not yet in a combat: it joins one of
    the combats open to it (see `combats_of`); a branch stops as soon as a figure
    is left with no free enemy, and a set of free figures found impossible to
    split is remembered, so it is never searched twice. The search looks at most at
    ``budget`` camps (`MAX_STEPS` by default); beyond, it stops with what it found
    (``exhausted``), so a melee of any shape is answered within a bounded time.

    >>> g = MeleeGraph((0, 1, 2), (0b110, 0b001, 0b001), (0b110, 0b001, 0b001))
    >>> split_melee(g, 10)
    Splits(splits=[((0, 1, 2),)], truncated=False, exhausted=False)
    """
    found: list[Split] = []
    chosen: list[Combat] = []
    dead: set[int] = set()
    spending = budget if budget is not None else Budget(MAX_STEPS)

    def search(free: int) -> bool:
        """Extend the current split; True once more than ``limit`` splits are found."""
        if free == 0:
            found.append(tuple(chosen))
            return len(found) > limit
        if free in dead:
            return False
        before = len(found)
        u = (free & -free).bit_length() - 1
        for taken, combat in combats_of(graph, free, u, spending):
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
        return Splits([], False)
    try:
        truncated = search((1 << len(graph.nodes)) - 1)
    except _OutOfSteps:
        return Splits(found[:limit], True, exhausted=True)
    return Splits(found[:limit], truncated)


def best_split(splits: Sequence[Split]) -> int | None:
    """Index of the split that balances the dice best: the smallest largest combat,
    then the most combats (duels first), then the first listed."""
    if not splits:
        return None
    return min(
        range(len(splits)),
        key=lambda k: (max(len(c) for c in splits[k]), -len(splits[k]), k),
    )


MAX_EXPLAINED = 8
"""The most combats `explain_none` names."""


def explain_none(scene: Scene, graph: MeleeGraph) -> str:
    """Why a melee has no split: every combat open to its first figure fails."""
    ids = [scene.figures[node].id for node in graph.nodes]
    everyone = (1 << len(ids)) - 1
    u = min(range(len(ids)), key=lambda k: graph.nodes[k])  # the first figure in the scene
    lone = [k for k in range(len(ids)) if graph.touching[k] == 0]
    if lone:
        return f"{ids[lone[0]]} touches no enemy"
    tried: list[str] = []
    opened = combats_of(graph, everyone, u, Budget(MAX_STEPS // 10))
    try:
        for taken, combat in itertools.islice(opened, MAX_EXPLAINED):
            names = _combat_text(ids, combat)
            stranded = _stranded(graph, everyone, taken)
            if stranded is not None:
                tried.append(f"{names} leaves {ids[stranded]} with no enemy to fight")
            else:
                tried.append(f"{names} leaves figures that cannot be split (searched exhaustively)")
    except _OutOfSteps:
        pass
    touching = sorted(_bits(graph.touching[u]), key=lambda k: graph.nodes[k])
    for a_index, a in enumerate(touching):
        for b in touching[a_index + 1 :]:
            if len(tried) > MAX_EXPLAINED:
                break
            if graph.hostile[a] & (1 << b):
                tried.append(
                    f"{ids[u]} against {ids[a]} and {ids[b]} together is not allowed "
                    f"({ids[a]} and {ids[b]} are enemies)"
                )
    if not tried:
        tried.append("every combat open to it leaves a figure with no enemy to fight")
    shown = "; ".join(tried[:MAX_EXPLAINED]) + ("; ..." if len(tried) > MAX_EXPLAINED else "")
    return f"no legal split: {ids[u]} must fight in one combat, and {shown}"


def _combat_text(ids: Sequence[str], combat: Combat) -> str:
    centre, *opponents = combat
    return f"{ids[centre]} against {' and '.join(ids[k] for k in opponents)}"
