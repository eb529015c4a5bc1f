"""rules/confrontation/partition.py: a melee's splits into combats, against brute force,
and the search's bounds."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arbitre.rules.confrontation import MeleeGraph, best_split, split_melee

# --- brute force ------------------------------------------------------------------------


def _set_partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every partition of a list into non-empty blocks."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _set_partitions(rest):
        yield [[first], *partition]
        for k in range(len(partition)):
            yield [*partition[:k], [first, *partition[k]], *partition[k + 1 :]]


def _legal_combat(block: list[int], touching: list[set[int]], hostile: list[set[int]]) -> bool:
    """A combat straight from the book: one figure against one or several touching enemies,
    the several forming one camp."""
    if len(block) < 2:
        return False
    for centre in block:
        others = [k for k in block if k != centre]
        if all(k in touching[centre] for k in others) and all(
            b not in hostile[a] for a in others for b in others
        ):
            return True
    return False


def _brute_force(n: int, touching: list[set[int]], hostile: list[set[int]]) -> set[frozenset[Any]]:
    return {
        frozenset(frozenset(block) for block in partition)
        for partition in _set_partitions(list(range(n)))
        if all(_legal_combat(block, touching, hostile) for block in partition)
    }


@st.composite
def contact_graphs(draw: st.DrawFn) -> tuple[int, list[int], list[set[int]]]:
    n = draw(st.integers(min_value=2, max_value=7))
    sides = draw(st.lists(st.integers(0, draw(st.integers(1, 2))), min_size=n, max_size=n))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n) if sides[i] != sides[j]]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True) if pairs else st.just([]))
    touching: list[set[int]] = [set() for _ in range(n)]
    for i, j in chosen:
        touching[i].add(j)
        touching[j].add(i)
    return n, sides, touching


@settings(max_examples=300, deadline=None)
@given(contact_graphs())
def test_splits_are_exactly_the_legal_partitions(
    graph_spec: tuple[int, list[int], list[set[int]]],
) -> None:
    n, sides, touching = graph_spec
    hostile = [{j for j in range(n) if sides[j] != sides[i]} for i in range(n)]
    graph = MeleeGraph(
        tuple(range(n)),
        tuple(sum(1 << j for j in touching[i]) for i in range(n)),
        tuple(sum(1 << j for j in hostile[i]) for i in range(n)),
    )
    search = split_melee(graph, 10_000)
    splits = search.splits
    assert not search.truncated and not search.exhausted
    found = [frozenset(frozenset(combat) for combat in split) for split in splits]
    assert len(found) == len(set(found)), "a split listed twice"
    assert set(found) == _brute_force(n, touching, hostile)
    for split in splits:  # the lone figure comes first and touches all its opponents
        for centre, *opponents in split:
            assert all(k in touching[centre] for k in opponents)


# --- bounded work -----------------------------------------------------------------------


def test_two_centres_sharing_their_enemies_are_split_within_the_cap() -> None:
    # K(2, 40): r0 and r1 both touch the 40 blue figures: each blue joins r0's or r1's
    # camp (2^40 - 2 ways, none empty), or a blue fights r0 and r1 together and the 39
    # others are left alone (no split). The listing stops at max_partitions.
    touching = [(1 << 42) - 4, (1 << 42) - 4] + [0b11] * 40
    hostile = touching
    graph = MeleeGraph(tuple(range(42)), tuple(touching), tuple(hostile))
    started = time.perf_counter()
    search = split_melee(graph, 200)
    assert time.perf_counter() - started < 5.0
    assert len(search.splits) == 200 and search.truncated and not search.exhausted


def test_a_tangled_melee_stops_on_its_budget() -> None:
    # Three sides, 40 figures, random contacts: more ways than the search may try. It
    # stops after Budget(...) camps, keeps what it found and says the listing may be short.
    from arbitre.rules.confrontation.partition import Budget

    rng = random.Random(7)
    sides = [rng.randint(0, 2) for _ in range(40)]
    touching, hostile = [0] * 40, [0] * 40
    for i in range(40):
        for j in range(40):
            if sides[i] != sides[j]:
                hostile[i] |= 1 << j
                if i < j and rng.random() < 0.3:
                    touching[i] |= 1 << j
                    touching[j] |= 1 << i
    graph = MeleeGraph(tuple(range(40)), tuple(touching), tuple(hostile))
    started = time.perf_counter()
    search = split_melee(graph, 10_000, Budget(20_000))
    assert time.perf_counter() - started < 5.0
    assert search.exhausted and search.truncated


def test_the_proposal_balances_the_dice() -> None:
    # Splits as combats of figure indices. The smallest largest combat wins: [0 vs 1, 2 vs 3]
    # (largest 2) before [0 vs 1, 2, 3] (largest 4); between equal largest combats the one
    # with more combats; then the first listed.
    assert best_split([[(0, 1, 2, 3)], [(0, 1), (2, 3)]]) == 1
    assert best_split([[(0, 1, 2), (3, 4, 5), (6, 7, 8)], [(0, 1, 2), (3, 4), (5, 6), (7, 8)]]) == 1
    assert best_split([[(0, 1), (2, 3)], [(0, 2), (1, 3)]]) == 0
    assert best_split([]) is None
