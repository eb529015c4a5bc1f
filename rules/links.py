"""Which items are linked, directly or through others: a disjoint-set forest.

scipy's ``DisjointSet`` does this too, but importing ``scipy.cluster`` takes a third of
a second, more than a whole command-line question; these few lines do not.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)


class Links(Generic[T]):
    """Items merged into linked sets (union by size, path halving).

    >>> links = Links("abcd")
    >>> links.merge("a", "c"); links.merge("d", "c")
    >>> [sorted(subset) for subset in links.subsets()]
    [['a', 'c', 'd'], ['b']]
    """

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._parent: dict[T, T] = {}
        self._size: dict[T, int] = {}
        for item in items:
            self._parent[item] = item
            self._size[item] = 1

    def _root(self, item: T) -> T:
        parent = self._parent
        while parent[item] != item:
            parent[item] = parent[parent[item]]
            item = parent[item]
        return item

    def merge(self, first: T, second: T) -> None:
        """Link the sets of two items (each must be one of the items given)."""
        a, b = self._root(first), self._root(second)
        if a == b:
            return
        if self._size[a] < self._size[b]:
            a, b = b, a
        self._parent[b] = a
        self._size[a] += self._size[b]

    def subsets(self) -> list[set[T]]:
        """The linked sets, in the order of their first item."""
        by_root: dict[T, set[T]] = {}
        for item in self._parent:
            by_root.setdefault(self._root(item), set()).add(item)
        return list(by_root.values())
