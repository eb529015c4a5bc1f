"""Confrontation 3, initiation rules: melees split into combats (rules digest §4).

Figures stand on round bases; every distance is measured base edge to base edge,
in cm. Two bases are in contact when the gap between them is at most
``contact_tolerance_mm``. Readings chosen where the book is silent:

* a *melee* is a cluster of figures linked by base contact between enemies;
* a *combat* is a star: one figure (the centre) against one or several enemies
  touching its base; the opponents of a lone figure form one camp, so they may
  not be enemies of each other (this only matters with three or more sides);
* a *split* of a melee puts every figure of it in exactly one combat; `melees`
  lists every split, at most ``max_partitions`` per melee (``truncated: true``
  beyond), or explains why there is none;
* the proposed split is, among the splits listed, the one whose largest combat
  is smallest (the most engaged figure rolls the fewest dice), then the one
  with the most combats (duels first);
* a pursuit (half MOU, rounded up to the cm) goes round other figures' bases and
  impassable ground, and pays double in difficult ground and woods.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

import numpy as np
import shapely
from pydantic import BaseModel, ConfigDict, Field
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import reverse_cuthill_mckee
from scipy.spatial import cKDTree

from rules import pathing
from rules.answers import (
    Answer,
    ContactAnswer,
    DistanceAnswer,
    Margin,
    ReachAnswer,
    Reason,
    Unit,
    combined_sigma,
    with_certainty,
)
from rules.errors import QuestionError, SceneError
from rules.geometry import ring_points
from rules.model import Base, BaseShape, Figure, Scene, TerrainKind
from rules.ruleset import Question, Ruleset, figure_named, scene_options
from rules.terrain import terrain_regions


@dataclass(frozen=True, slots=True)
class Numbers:
    """The rule book's numbers (§7 "les Combats")."""

    dice_base: int = 1  # combat dice = 1 + opponents in the combat
    die_faces: int = 6
    pursuit_fraction: float = 0.5  # pursuit: half the MOU, in cm rounded up
    cm_mm: float = 10.0


NUMBERS = Numbers()
COSTLY_TERRAIN = {TerrainKind.DIFFICULT: 2.0, TerrainKind.WOOD: 2.0}
BLOCKING_TERRAIN = (TerrainKind.IMPASSABLE, TerrainKind.BUILDING)


class ConfrontationOptions(BaseModel):
    """``options:`` of a Confrontation scene."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    contact_tolerance_mm: Annotated[float, Field(ge=0, allow_inf_nan=False)] = 2.0
    base_mm: Annotated[float, Field(gt=0, allow_inf_nan=False)] = 25.0
    max_partitions: Annotated[int, Field(ge=1)] = 200


# --- contact ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Contacts:
    """Every pair of figures in base contact, with its edge gap (scene figure indices)."""

    gaps_mm: Mapping[tuple[int, int], float]
    enemies: tuple[tuple[int, ...], ...]  # per figure: the enemies touching its base

    def touching(self, i: int, j: int) -> bool:
        return (min(i, j), max(i, j)) in self.gaps_mm


def base_of(figure: Figure, options: ConfrontationOptions) -> Base:
    """A figure's base; a round base of ``base_mm`` when the scene gives none."""
    return figure.base if figure.base is not None else Base.round(options.base_mm)


def edge_gap_mm(a: Figure, b: Figure, options: ConfrontationOptions) -> float:
    """Gap between two bases, edge to edge (negative when round bases overlap).

    >>> o = ConfrontationOptions()
    >>> edge_gap_mm(Figure("a", "x", 0, 0), Figure("b", "y", 30, 40), o)
    25.0
    """
    base_a, base_b = base_of(a, options), base_of(b, options)
    if base_a.shape is BaseShape.ROUND and base_b.shape is BaseShape.ROUND:
        centre_mm = math.hypot(b.x_mm - a.x_mm, b.y_mm - a.y_mm)
        return centre_mm - base_a.radius_mm - base_b.radius_mm
    first = base_a.footprint(a.x_mm, a.y_mm, a.facing_deg)
    second = base_b.footprint(b.x_mm, b.y_mm, b.facing_deg)
    return float(shapely.distance(first, second))


@functools.lru_cache(maxsize=16)
def find_contacts(scene: Scene) -> Contacts:
    """The base contacts of a scene, found once per scene (k-d tree on the centres)."""
    options = _options(scene)
    figures = scene.figures
    gaps: dict[tuple[int, int], float] = {}
    enemies: list[list[int]] = [[] for _ in figures]
    if len(figures) >= 2:
        xy = np.array([f.xy for f in figures])
        radii = np.array([base_of(f, options).radius_mm for f in figures])
        reach_mm = 2.0 * float(radii.max()) + options.contact_tolerance_mm
        for i, j in sorted(cKDTree(xy).query_pairs(reach_mm)):
            gap = edge_gap_mm(figures[i], figures[j], options)
            if gap <= options.contact_tolerance_mm:
                gaps[(i, j)] = gap
                if scene.are_enemies(figures[i].side, figures[j].side):
                    enemies[i].append(j)
                    enemies[j].append(i)
    return Contacts(gaps, tuple(tuple(sorted(e)) for e in enemies))


# --- splitting melees ------------------------------------------------------------------

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


@dataclass(frozen=True, slots=True)
class Melee:
    """One melee: its figures (scene order), its splits (figure ids) and a proposal."""

    figures: tuple[str, ...]
    partitions: tuple[tuple[tuple[str, ...], ...], ...]
    truncated: bool
    proposal: tuple[tuple[str, ...], ...] | None
    proposal_index: int | None
    reason: str | None

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
        }


def dice_of_split(split: Sequence[Sequence[str]]) -> dict[str, int]:
    """Combat dice of every figure of a split: 1 + the opponents in its combat.

    >>> dice_of_split([["garde", "clone1", "clone2", "guerrier"]])
    {'garde': 4, 'clone1': 2, 'clone2': 2, 'guerrier': 2}
    """
    dice: dict[str, int] = {}
    for centre, *opponents in split:
        dice[centre] = NUMBERS.dice_base + len(opponents)
        for other in opponents:
            dice[other] = NUMBERS.dice_base + 1
    return dice


@functools.lru_cache(maxsize=16)
def find_melees(scene: Scene) -> tuple[Melee, ...]:
    """Every melee of a scene with its splits, computed once per scene."""
    options = _options(scene)
    contacts = find_contacts(scene)
    seen: set[int] = set()
    melees: list[Melee] = []
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
        graph = MeleeGraph.of(scene, contacts, _search_order(contacts, sorted(cluster)))
        splits, truncated = split_melee(graph, options.max_partitions)
        named = _named_splits(scene, graph, splits)
        best = best_split(splits)
        melees.append(
            Melee(
                figures=tuple(scene.figures[node].id for node in sorted(cluster)),
                partitions=named,
                truncated=truncated,
                proposal=None if best is None else named[best],
                proposal_index=best,
                reason=None if splits else explain_none(scene, graph),
            )
        )
    return tuple(melees)


def _search_order(contacts: Contacts, nodes: list[int]) -> list[int]:
    """The melee's figures in reverse Cuthill-McKee order: neighbours close together,
    so the figures still free during the search form a narrow front."""
    if len(nodes) < 3:
        return nodes
    local = {node: k for k, node in enumerate(nodes)}
    rows = [local[node] for node in nodes for e in contacts.enemies[node] if e in local]
    cols = [local[e] for node in nodes for e in contacts.enemies[node] if e in local]
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


# --- answers ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MeleesAnswer(Answer):
    melees: tuple[Melee, ...] = ()
    truncated: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "message": self.message,
            "melees": [melee.to_json() for melee in self.melees],
            "truncated": self.truncated,
        }


@dataclass(frozen=True, slots=True)
class DiceAnswer(Answer):
    figure: str = ""
    dice: int = 0
    opponents: tuple[str, ...] = ()
    combat: tuple[str, ...] = ()
    partition: int | None = None
    from_proposal: bool = False
    dice_by_figure: dict[str, int] = field(default_factory=dict)
    reasons: tuple[Reason, ...] = ()


@dataclass(frozen=True, slots=True)
class InitiativeAnswer(Answer):
    figure: str = ""
    combat: tuple[str, ...] = ()
    partition: int | None = None
    camps: dict[str, dict[str, Any]] = field(default_factory=dict)
    winner: str | None = None
    odds: dict[str, int] = field(default_factory=dict)
    reasons: tuple[Reason, ...] = ()


@dataclass(frozen=True, slots=True)
class PursuitAnswer(ReachAnswer):
    mou_cm: float = 0.0
    pursuit_cm: int = 0
    pursuit_mm: float = 0.0
    engaged: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


# --- the ruleset -----------------------------------------------------------------------


class Confrontation(Ruleset):
    """Confrontation 3: base contact, melees split into combats, combat dice, pursuit."""

    name = "confrontation"
    aliases = ("confrontation3", "conf")

    def parse_options(self, raw: Mapping[str, Any]) -> ConfrontationOptions:
        return ConfrontationOptions.model_validate(dict(raw))

    def unit(self, scene: Scene) -> Unit:
        return Unit("cm", NUMBERS.cm_mm)

    def validate(self, scene: Scene) -> None:
        for index, figure in enumerate(scene.figures):
            mou = figure.attrs.get("mou_cm")
            if mou is not None and (
                isinstance(mou, bool)
                or not isinstance(mou, int | float)
                or not math.isfinite(mou)
                or mou <= 0
            ):
                raise SceneError(
                    scene.source,
                    f"figures[{index}].attrs.mou_cm",
                    f"expected a positive number of cm, got {mou!r}",
                )
            ini = figure.attrs.get("ini")
            if ini is not None and (isinstance(ini, bool) or not isinstance(ini, int)):
                raise SceneError(
                    scene.source, f"figures[{index}].attrs.ini", f"expected an integer, got {ini!r}"
                )

    def questions(self) -> Mapping[str, Question]:
        return {
            "distance": Question("distance", ("A", "B"), "edge-to-edge distance", self.distance),
            "contact": Question("contact", ("A", "B"), "are two bases touching", self.contact),
            "melees": Question("melees", (), "every legal split of the melees", self.melees),
            "dice": Question("dice", ("A",), "combat dice of A", self.dice),
            "initiative": Question(
                "initiative", ("A",), "initiative of the combat of A", self.initiative
            ),
            "pursuit": Question("pursuit", ("A",), "pursuit move of A", self.pursuit),
        }

    # --- questions ---------------------------------------------------------------------

    def distance(self, scene: Scene, a: str, b: str) -> DistanceAnswer:
        first, second = figure_named(scene, a), figure_named(scene, b)
        gap_mm = max(0.0, edge_gap_mm(first, second, _options(scene)))
        sigma = combined_sigma(first.sigma_mm, second.sigma_mm)
        unit = self.unit(scene)
        units = unit.from_mm(gap_mm)
        return DistanceAnswer(
            question="distance",
            message=f"{a} to {b}: {units:.1f} cm edge to edge ({gap_mm:.1f} mm)"
            + (f" ± {sigma:.1f} mm" if sigma else ""),
            a=a,
            b=b,
            distance_mm=gap_mm,
            distance_units=units,
            unit=unit.name,
            mode="edge",
            sigma_mm=sigma,
        )

    def contact(self, scene: Scene, a: str, b: str) -> ContactAnswer:
        options = _options(scene)
        first, second = figure_named(scene, a), figure_named(scene, b)
        if first.id == second.id:
            raise QuestionError(f"{a!r} and {b!r} are the same figure")
        gap_mm = edge_gap_mm(first, second, options)
        tolerance = options.contact_tolerance_mm
        touching = gap_mm <= tolerance
        margin = Margin(
            "contact", abs(tolerance - gap_mm), combined_sigma(first.sigma_mm, second.sigma_mm)
        )
        verdict = "in base contact" if touching else "not in contact"
        text = (
            f"{a} and {b} are {verdict}: gap {max(gap_mm, 0.0):.1f} mm "
            f"(contact up to {tolerance:g} mm)"
        )
        return ContactAnswer(
            question="contact",
            message=with_certainty(text, margin),
            margins=(margin,),
            a=a,
            b=b,
            contact=touching,
            gap_mm=max(gap_mm, 0.0),
            threshold_mm=tolerance,
        )

    def melees(self, scene: Scene) -> MeleesAnswer:
        melees = find_melees(scene)
        lines = []
        for melee in melees:
            head = ", ".join(melee.figures)
            if not melee.partitions:
                lines.append(f"melee {head}: {melee.reason}")
                continue
            more = "+" if melee.truncated else ""
            proposal = "; ".join(_combat_words(c) for c in melee.proposal or ())
            lines.append(
                f"melee {head}: {len(melee.partitions)}{more} way(s) to split; proposed: {proposal}"
            )
        text = f"{len(melees)} melee(s)" + "".join(f"\n{line}" for line in lines)
        return MeleesAnswer(
            question="melees",
            message=text,
            melees=melees,
            truncated=any(m.truncated for m in melees),
        )

    def dice(self, scene: Scene, a: str, partition: int | None = None) -> DiceAnswer:
        figure = figure_named(scene, a)
        found = _combat_of(scene, figure.id, partition)
        if found is None:
            engaged = _in_melee(scene, figure.id)
            return DiceAnswer(
                question="dice",
                message=f"the melee of {a} has no legal split: no combat dice"
                if engaged
                else f"{a} is in contact with no enemy: no combat, no combat dice",
                figure=a,
                reasons=() if engaged else (Reason.NOT_IN_CONTACT,),
            )
        combat, index, from_proposal = found
        dice = dice_of_split([combat])
        opponents = _opponents(combat, figure.id)
        where = "the proposed split" if from_proposal else f"split {index}"
        return DiceAnswer(
            question="dice",
            message=f"{a} rolls {dice[figure.id]} combat dice (1 + {len(opponents)} "
            f"opponent(s): {', '.join(opponents)}) in {where}",
            figure=a,
            dice=dice[figure.id],
            opponents=opponents,
            combat=combat,
            partition=index,
            from_proposal=from_proposal,
            dice_by_figure=dice,
        )

    def initiative(
        self,
        scene: Scene,
        a: str,
        partition: int | None = None,
        die: int | None = None,
        opponent_die: int | None = None,
    ) -> InitiativeAnswer:
        figure = figure_named(scene, a)
        found = _combat_of(scene, figure.id, partition)
        if found is None:
            engaged = _in_melee(scene, figure.id)
            return InitiativeAnswer(
                question="initiative",
                message=f"the melee of {a} has no legal split: no combat"
                if engaged
                else f"{a} is in contact with no enemy: no combat",
                figure=a,
                reasons=() if engaged else (Reason.NOT_IN_CONTACT,),
            )
        combat, index, _ = found
        members = [figure_named(scene, ident) for ident in combat]
        own = [f for f in members if not scene.are_enemies(figure.side, f.side)]
        other = [f for f in members if scene.are_enemies(figure.side, f.side)]
        camps: dict[str, dict[str, Any]] = {}
        for key, camp, roll in (("own", own, die), ("opponents", other, opponent_die)):
            best = max(camp, key=lambda f: (_ini(f), -combat.index(f.id)))
            score = initiative_score(_ini(best), len(camp))
            entry: dict[str, Any] = {
                "figures": [f.id for f in camp],
                "roller": best.id,
                "ini": _ini(best),
                "bonus": len(camp) - 1,
                "score": score,
            }
            if roll is not None:
                _check_die(roll)
                entry["die"] = roll
                entry["total"] = score + roll
            camps[key] = entry
        odds = initiative_odds(camps["own"]["score"], camps["opponents"]["score"])
        winner: str | None = None
        own_camp, their_camp = camps["own"], camps["opponents"]
        if "total" in own_camp and "total" in their_camp:
            if own_camp["total"] != their_camp["total"]:
                winner = "own" if own_camp["total"] > their_camp["total"] else "opponents"
                text = (
                    f"{'the camp of ' + a if winner == 'own' else 'the opponents of ' + a} "
                    f"win the initiative {max(own_camp['total'], their_camp['total'])} "
                    f"to {min(own_camp['total'], their_camp['total'])}"
                )
            else:
                winner = "tie"
                text = f"initiative tied at {own_camp['total']}"
        else:
            text = (
                f"initiative of {a}'s camp: {own_camp['roller']} INI {own_camp['ini']} "
                f"+ {own_camp['bonus']} + 1D6 against {their_camp['roller']} INI "
                f"{their_camp['ini']} + {their_camp['bonus']} + 1D6; "
                f"wins {odds['win']}/36, ties {odds['tie']}/36"
            )
        return InitiativeAnswer(
            question="initiative",
            message=text,
            figure=a,
            combat=combat,
            partition=index,
            camps=camps,
            winner=winner,
            odds=odds,
        )

    def pursuit(self, scene: Scene, a: str) -> PursuitAnswer:
        options = _options(scene)
        figure = figure_named(scene, a)
        mou = figure.attrs.get("mou_cm")
        if mou is None:
            raise QuestionError(f"figure {a!r}: attrs.mou_cm is needed for a pursuit")
        pursuit_cm = pursuit_distance_cm(float(mou))
        pursuit_mm = pursuit_cm * NUMBERS.cm_mm
        radius_mm = base_of(figure, options).radius_mm
        hulls = tuple(
            pathing.DiscHull(np.array([[f.x_mm, f.y_mm, base_of(f, options).radius_mm]]), f.id)
            for f in scene.figures
            if f.id != figure.id
        )
        polygons, costly = terrain_regions(scene, BLOCKING_TERRAIN, COSTLY_TERRAIN)
        ground = pathing.Field(scene.table.width_mm, scene.table.depth_mm, hulls, polygons, costly)
        area = pathing.reachable_area(ground, figure.xy, radius_mm, pursuit_mm)
        pieces = list(getattr(area, "geoms", [area])) if not area.is_empty else []
        index = scene.figures.index(figure)
        engaged = tuple(scene.figures[k].id for k in find_contacts(scene).enemies[index])
        warnings = []
        if engaged:
            warnings.append(
                f"{a} still touches {', '.join(engaged)}: it may pursue out of the melee "
                "(no disengagement test) or stay and engage them"
            )
        return PursuitAnswer(
            question="pursuit",
            message=f"{a} may pursue {pursuit_cm} cm (half of MOU {mou:g}, rounded up): "
            f"{area.area / 100:.0f} cm² within reach",
            mover=a,
            area_mm2=float(area.area),
            polygons_mm=tuple(ring_points(p.exterior.coords) for p in pieces),
            holes_mm=tuple(tuple(ring_points(h.coords) for h in p.interiors) for p in pieces),
            allowance_mm=pursuit_mm,
            allowance_units=float(pursuit_cm),
            unit="cm",
            mou_cm=float(mou),
            pursuit_cm=pursuit_cm,
            pursuit_mm=pursuit_mm,
            engaged=engaged,
            warnings=tuple(warnings),
        )


# --- arithmetic ------------------------------------------------------------------------


def pursuit_distance_cm(mou_cm: float) -> int:
    """Half the MOU in cm, rounded up.

    >>> pursuit_distance_cm(10), pursuit_distance_cm(15), pursuit_distance_cm(12.5)
    (5, 8, 7)
    """
    return math.ceil(mou_cm * NUMBERS.pursuit_fraction - 1e-9)


def initiative_score(ini: int, camp_size: int) -> int:
    """Initiative before the die: the roller's INI + the other figures of its camp.

    >>> initiative_score(3, 3) + 2, initiative_score(3, 1) + 3  # the book: 7 against 6
    (7, 6)
    """
    return ini + camp_size - 1


def initiative_odds(score: int, other_score: int) -> dict[str, int]:
    """Out of the 36 pairs of dice: how many win, tie and lose for the first camp.

    >>> initiative_odds(0, 0)
    {'win': 15, 'tie': 6, 'lose': 15}
    """
    faces = range(1, NUMBERS.die_faces + 1)
    deltas = [score + x - other_score - y for x in faces for y in faces]
    return {
        "win": sum(d > 0 for d in deltas),
        "tie": sum(d == 0 for d in deltas),
        "lose": sum(d < 0 for d in deltas),
    }


# --- helpers ---------------------------------------------------------------------------


def _options(scene: Scene) -> ConfrontationOptions:
    return scene_options(scene, ConfrontationOptions)


def _ini(figure: Figure) -> int:
    value = figure.attrs.get("ini")
    if value is None:
        raise QuestionError(f"figure {figure.id!r}: attrs.ini is needed for the initiative")
    return int(value)


def _check_die(value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise QuestionError(f"a die shows 1 to {NUMBERS.die_faces}, got {value!r}")


def _combat_of(
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


def _in_melee(scene: Scene, figure_id: str) -> bool:
    return any(figure_id in melee.figures for melee in find_melees(scene))


def _opponents(combat: Sequence[str], figure_id: str) -> tuple[str, ...]:
    centre, *others = combat
    return tuple(others) if figure_id == centre else (centre,)


def _combat_words(combat: Sequence[str]) -> str:
    centre, *others = combat
    return f"{centre} vs {' + '.join(others)}"
