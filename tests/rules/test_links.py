"""Which items are linked, directly or through others (arbitre.rules.links)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitre.rules.links import Links


def test_unmerged_items_are_each_alone_in_their_order() -> None:
    assert Links("cab").subsets() == [{"c"}, {"a"}, {"b"}]
    assert Links().subsets() == []


def test_links_carry_through_other_items_in_the_order_of_first_items() -> None:
    # e-d and b-a are linked; d-b then joins both pairs: {a, b, d, e}, with c alone. The
    # sets come in the order of their first item: a's set first, then c.
    links = Links("abcde")
    links.merge("e", "d")
    links.merge("b", "a")
    assert links.subsets() == [{"a", "b"}, {"c"}, {"d", "e"}]
    links.merge("d", "b")
    assert links.subsets() == [{"a", "b", "d", "e"}, {"c"}]
    links.merge("a", "e")  # already linked: nothing changes
    links.merge("c", "c")
    assert links.subsets() == [{"a", "b", "d", "e"}, {"c"}]


def test_an_item_not_given_cannot_be_merged() -> None:
    with pytest.raises(KeyError):
        Links([1, 2]).merge(1, 3)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    st.integers(1, 12).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=20),
        )
    )
)
def test_subsets_are_the_connected_components(drawn: tuple[int, list[tuple[int, int]]]) -> None:
    # Against a plain flood fill of the graph of merged pairs.
    count, pairs = drawn
    links = Links(range(count))
    for a, b in pairs:
        links.merge(a, b)
    neighbours: dict[int, set[int]] = {k: set() for k in range(count)}
    for a, b in pairs:
        neighbours[a].add(b)
        neighbours[b].add(a)
    expected: list[set[int]] = []
    seen: set[int] = set()
    for start in range(count):
        if start in seen:
            continue
        component, todo = {start}, [start]
        while todo:
            for other in neighbours[todo.pop()] - component:
                component.add(other)
                todo.append(other)
        seen |= component
        expected.append(component)
    assert links.subsets() == expected
