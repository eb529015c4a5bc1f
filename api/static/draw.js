// Drawing the table: the top-down map (table millimetres, +y up) and the overlay
// on the camera view (image pixels). Both draw the same "overlay" description
// built by app.js: picked figures, the answer's line or path, highlights, reach.

import { setAttrs, svgEl, syncChildren } from "./dom.js";
import { number, t } from "./i18n.js";

const BASE_RADIUS_MM = 12.5; // a 25 mm base
const MARKER_RADIUS_PX = 22; // around a head marker seen from 1 m
const MIN_RADIUS_PX = 9; // never smaller than this on screen
const FONT_PX = 13;
const TAP_RADIUS_PX = 40; // how far from a figure a tap still picks it
export const ON_FIGURE_PX = 12; // a tap this near a figure's centre is on its disc
const CLOSE_CALL_PX = 10; // figures this much farther than the nearest may be the one meant
const MAX_GRID_LINES = 60;
const MAX_GRID_CELLS = 50000; // a grid scene's cells drawn, at most (the rules lay up to 46,200 hexes)
const MAX_GRID_TRIED = 500000; // cells (or rows) looked at to find them, at most
const SQRT3 = Math.sqrt(3);
export const MAX_ZOOM = 8; // the map shows at least an eighth of the table's width

// ---- shared ---------------------------------------------------------------------

/** What to write beside a figure: its name, and how long it has been hidden. */
export function figureLabel(figure) {
  const name = figure.name || figure.id;
  if (!figure.stale) return name;
  return `${name} (${t("figure.stale", { age: number(figure.age_s, 0) })})`;
}

/** Screen pixels per SVG user unit (the drawing may be letterboxed in its box). */
function screenScale(svg, viewWidth) {
  const toScreen = svg.getScreenCTM();
  if (toScreen && toScreen.a > 0) return toScreen.a;
  const width = svg.getBoundingClientRect().width;
  return width > 0 && viewWidth > 0 ? width / viewWidth : 1;
}

/** The candidates within `reachPx` (TAP_RADIUS_PX) of a tap, nearest first, as
 * `{id, distance}` (screen pixels); candidates in SVG user units. */
function candidatesNear(svg, candidates, clientX, clientY, reachPx = TAP_RADIUS_PX) {
  const toScreen = svg.getScreenCTM();
  if (!toScreen) return [];
  const near = [];
  for (const candidate of candidates) {
    const point = new DOMPoint(candidate.x, candidate.y).matrixTransform(toScreen);
    const distance = Math.hypot(point.x - clientX, point.y - clientY);
    if (distance <= reachPx) near.push({ id: candidate.id, distance });
  }
  return near.sort((a, b) => a.distance - b.distance);
}

/** The candidate nearest to a tap, within `reachPx`, or null. */
function nearestCandidate(svg, candidates, clientX, clientY, reachPx = TAP_RADIUS_PX) {
  return candidatesNear(svg, candidates, clientX, clientY, reachPx)[0]?.id ?? null;
}

/** The candidates a tap may mean: the nearest, and those hardly farther (CLOSE_CALL_PX). */
function closeCall(svg, candidates, clientX, clientY) {
  const near = candidatesNear(svg, candidates, clientX, clientY);
  return near.filter((c) => c.distance <= near[0].distance + CLOSE_CALL_PX).map((c) => c.id);
}

function figureClasses(node, figure, overlay) {
  node.classList.toggle("stale", figure.stale);
  node.classList.toggle("moving", !figure.settled);
  node.classList.toggle("pinned", Boolean(figure.pinned));
  node.classList.toggle("picked", overlay.picks.includes(figure.id));
  node.classList.toggle("blocking", overlay.blocked.has(figure.id));
  node.classList.toggle("cover", overlay.cover.has(figure.id));
}

function createFigure(testid) {
  return svgEl(
    "g",
    { class: "figure", "data-testid": testid },
    svgEl("circle", { class: "ring", "vector-effect": "non-scaling-stroke" }),
    svgEl("circle", { class: "body", "vector-effect": "non-scaling-stroke" }),
    svgEl("text", { class: "label", "text-anchor": "start" }),
    svgEl("polygon", { class: "footprint", "vector-effect": "non-scaling-stroke" }),
    svgEl("line", { class: "front", "vector-effect": "non-scaling-stroke" }),
    svgEl("line", { class: "leader", "vector-effect": "non-scaling-stroke" }),
    svgEl("title"),
  );
}

/** The corners of a square or rectangular base about its centre, in map units (y down),
 * front edge first; null for a round base or none. `width_mm` runs along the front,
 * `depth_mm` along the facing (`heading_deg`, counter-clockwise from +x on the table). */
function footprint(figure) {
  const base = figure.base;
  if (!base || base.shape === "round") return null;
  const width = base.width_mm ?? base.side_mm;
  const depth = base.depth_mm ?? base.side_mm;
  if (!(width > 0 && depth > 0)) return null;
  const heading = ((figure.heading_deg ?? 90) * Math.PI) / 180;
  const [fx, fy] = [Math.cos(heading), -Math.sin(heading)]; // the map's y runs down
  const [sx, sy] = [-fy, fx];
  const corner = (f, s) => [fx * f * depth / 2 + sx * s * width / 2, fy * f * depth / 2 + sy * s * width / 2];
  return [corner(1, -1), corner(1, 1), corner(-1, 1), corner(-1, -1)];
}

/** Place and colour one figure group; `at` in user units, sizes in user units. */
function updateFigure(node, figure, at, sizes, colour, overlay) {
  const pick = overlay.picks.indexOf(figure.id);
  setAttrs(node, {
    transform: `translate(${at[0].toFixed(2)} ${at[1].toFixed(2)})`,
    "data-id": figure.id,
    "data-side": figure.side ?? "",
    "data-stale": String(figure.stale),
    "data-settled": String(figure.settled),
    "data-pinned": figure.pinned ? "true" : null,
    "data-pick": pick >= 0 ? pick + 1 : null,
    "data-blocking": overlay.blocked.has(figure.id) ? "true" : null,
  });
  figureClasses(node, figure, overlay);
  const [ring, body, label, outline, front] = node.children;
  const corners = sizes.bases ? footprint(figure) : null;
  setAttrs(ring, { r: (sizes.radius + sizes.gap).toFixed(2) });
  setAttrs(body, { r: (corners ? sizes.radius * 0.45 : sizes.radius).toFixed(2) }); // a dot on a drawn base
  node.classList.toggle("based", Boolean(corners));
  setAttrs(outline, { points: corners ? corners.map((c) => c.map((v) => v.toFixed(2)).join(",")).join(" ") : "" });
  setAttrs(front, corners
    ? { x1: corners[0][0].toFixed(2), y1: corners[0][1].toFixed(2), x2: corners[1][0].toFixed(2), y2: corners[1][1].toFixed(2) }
    : { x1: 0, y1: 0, x2: 0, y2: 0 });
  node.style.setProperty("--side", colour);
  setAttrs(label, { "font-size": sizes.font.toFixed(2) });
  // the whole name, whatever room the label finds: a tooltip, and what a reader says
  const title = node.children[6];
  const full = figureLabel(figure);
  if (title.textContent !== full) title.textContent = full;
  node.dataset.name = full;
}

function answerLine(from, to, line) {
  const ends = { x1: from[0], y1: from[1], x2: to[0], y2: to[1], "vector-effect": "non-scaling-stroke" };
  const drawn = [];
  if (line.uncertain) drawn.push(svgEl("line", { ...ends, class: "line-halo" }));
  drawn.push(
    svgEl("line", {
      ...ends,
      class: `answer-line ${line.kind}`,
      "data-testid": "answer-line",
      "data-kind": line.kind,
      "data-certain": String(!line.uncertain),
    }),
  );
  return drawn;
}

// ---- the map --------------------------------------------------------------------

/** Prepare the map's layers inside `svg`. */
export function createMap(svg) {
  const layers = {};
  for (const name of ["table", "reach", "answer", "figures", "edit"]) {
    layers[name] = svgEl("g", { class: `layer-${name}` });
  }
  svg.replaceChildren(...Object.values(layers));
  return { svg, layers, drawnFor: null, reachFor: undefined, viewWidth: 1, whole: null, zoom: { scale: 1, cx: 0, cy: 0 } };
}

// ---- zoom -------------------------------------------------------------------------

/** Show the part of the table the zoom says: `view.zoom.scale` times closer than the
 * whole table, centred on (cx, cy) in map units, kept on the table. */
function applyZoom(view) {
  if (!view.whole) return;
  const [x, y, width, height] = view.whole;
  const zoom = view.zoom;
  const w = width / zoom.scale;
  const h = height / zoom.scale;
  zoom.cx = Math.min(Math.max(zoom.cx, x + w / 2), x + width - w / 2);
  zoom.cy = Math.min(Math.max(zoom.cy, y + h / 2), y + height - h / 2);
  view.viewWidth = w;
  setAttrs(view.svg, { viewBox: `${zoom.cx - w / 2} ${zoom.cy - h / 2} ${w} ${h}` });
  view.svg.classList.toggle("zoomed", zoom.scale > 1);
}

/** Zoom the map by `factor` (within 1 and MAX_ZOOM) about a point on the screen, which
 * stays where it is, or about the map's middle. */
export function zoomMap(view, factor, clientX = null, clientY = null) {
  const zoom = view.zoom;
  const scale = Math.min(Math.max(zoom.scale * factor, 1), MAX_ZOOM);
  const toScreen = view.svg.getScreenCTM();
  if (clientX !== null && toScreen) {
    const p = new DOMPoint(clientX, clientY).matrixTransform(toScreen.inverse());
    const keep = zoom.scale / scale;
    zoom.cx = p.x + (zoom.cx - p.x) * keep;
    zoom.cy = p.y + (zoom.cy - p.y) * keep;
  }
  zoom.scale = scale;
  applyZoom(view);
}

/** Centre the map on a table point (mm), at the zoom it has. */
export function centreMap(view, state, point) {
  [view.zoom.cx, view.zoom.cy] = toMap(state, point);
  applyZoom(view);
}

/** Move the zoomed map with a finger or the mouse: by screen pixels. */
export function panMap(view, dxPx, dyPx) {
  const perUnit = screenScale(view.svg, view.viewWidth);
  view.zoom.cx -= dxPx / perUnit;
  view.zoom.cy -= dyPx / perUnit;
  applyZoom(view);
}

/** The whole table again. */
export function unzoomMap(view) {
  view.zoom.scale = 1;
  applyZoom(view);
}

export function mapZoom(view) {
  return view.zoom.scale;
}

/** Table mm (+y up) to map user units (+y down). */
function toMap(state, point) {
  return [point[0], state.table.depth_mm - point[1]];
}

function ringPath(state, ring) {
  const points = ring.map((point) => toMap(state, point).map((v) => v.toFixed(1)).join(" "));
  return `M${points.join("L")}Z`;
}

/** Lines every game unit across the table, or the cells of a grid scene. */
function gridLines(state) {
  if (state.grid) {
    const cells = gridCells(state);
    return cells ? [cells] : [];
  }
  const { width_mm: width, depth_mm: depth } = state.table;
  const step = state.unit_mm;
  if (!(step > 0) || width / step + depth / step > MAX_GRID_LINES) return [];
  const lines = [];
  for (let x = step; x < width - 1e-6; x += step) {
    lines.push(svgEl("line", { class: "grid", x1: x, y1: 0, x2: x, y2: depth, "vector-effect": "non-scaling-stroke" }));
  }
  for (let y = step; y < depth - 1e-6; y += step) {
    const v = depth - y;
    lines.push(svgEl("line", { class: "grid", x1: 0, y1: v, x2: width, y2: v, "vector-effect": "non-scaling-stroke" }));
  }
  return lines;
}

/** The cells a hex or square scene lays on the table (`state.grid`, as the rules lay
 * them: cell 0,0 centred on `origin_mm`, the grid turned `rotation_deg` about it; a cell
 * is in the grid when its centre is on the table), as one path clipped to the table;
 * null when there are too many to draw. */
function gridCells(state) {
  const grid = state.grid;
  const { width_mm: width, depth_mm: depth } = state.table;
  const w = grid.cell_mm;
  if (!(w > 0)) return null;
  const hex = grid.kind === "hex";
  const turn = (grid.rotation_deg * Math.PI) / 180;
  const [cos, sin] = [Math.cos(turn), Math.sin(turn)];
  const [ox, oy] = grid.origin_mm;
  const toTable = (u, v) => [ox + cos * u - sin * v, oy + sin * u + cos * v];
  const centre = (a, b) => {
    if (!hex) return [a * w, b * w];
    return grid.pointy ? [w * (a + b / 2), ((w * SQRT3) / 2) * b] : [((w * SQRT3) / 2) * a, w * (b + a / 2)];
  };
  const cellOf = (x, y) => {
    const [dx, dy] = [x - ox, y - oy];
    const [u, v] = [cos * dx + sin * dy, -sin * dx + cos * dy];
    if (!hex) return [u / w, v / w];
    if (grid.pointy) return [u / w - v / (w * SQRT3), v / ((w * SQRT3) / 2)];
    return [u / ((w * SQRT3) / 2), v / w - u / (w * SQRT3)];
  };
  const seen = [cellOf(0, 0), cellOf(width, 0), cellOf(0, depth), cellOf(width, depth)];
  const low = [0, 1].map((k) => Math.floor(Math.min(...seen.map((p) => p[k]))) - 1);
  const high = [0, 1].map((k) => Math.ceil(Math.max(...seen.map((p) => p[k]))) + 1);
  if (high[0] - low[0] + 1 > MAX_GRID_TRIED) return null;
  const corner = hex ? w / SQRT3 : w / Math.SQRT2; // centre to corner
  const outline = Array.from({ length: hex ? 6 : 4 }, (_, k) => {
    const angle = (((hex ? (grid.pointy ? 30 : 0) : 45) + (hex ? 60 : 90) * k) * Math.PI) / 180;
    return [corner * Math.cos(angle), corner * Math.sin(angle)];
  });
  // Along a row (a fixed), the centres move by `step` on the table: only the cells whose
  // centre may fall on it are looked at (one more each end), however the grid is turned.
  const origin = toTable(0, 0);
  const step = toTable(...centre(0, 1)).map((value, k) => value - origin[k]);
  const eps = 1e-9 * w; // as the rules: a cell is in the grid when its centre is on the table
  const parts = [];
  let tried = 0;
  for (let a = low[0]; a <= high[0]; a += 1) {
    const first = toTable(...centre(a, 0));
    let [from, to] = [low[1], high[1]];
    for (const [k, size] of [[0, width], [1, depth]]) {
      if (step[k] === 0) continue;
      const ends = [(-eps - first[k]) / step[k], (size + eps - first[k]) / step[k]];
      from = Math.max(from, Math.floor(Math.min(...ends)) - 1);
      to = Math.min(to, Math.ceil(Math.max(...ends)) + 1);
    }
    for (let b = from; b <= to; b += 1) {
      tried += 1;
      const [u, v] = centre(a, b);
      const [x, y] = toTable(u, v);
      if (x < -eps || y < -eps || x > width + eps || y > depth + eps) continue;
      const points = outline.map(([du, dv]) => toMap(state, toTable(u + du, v + dv)).map((n) => n.toFixed(1)).join(" "));
      parts.push(`M${points.join("L")}Z`);
    }
    if (tried > MAX_GRID_TRIED) return null;
  }
  if (parts.length > MAX_GRID_CELLS) return null;
  return svgEl("path", {
    class: "grid cells",
    d: parts.join(""),
    "clip-path": "url(#table-clip)",
    "data-testid": "map-grid",
    "data-kind": grid.kind,
    "data-cells": String(parts.length),
    "vector-effect": "non-scaling-stroke",
  });
}

/** A terrain piece's points in table mm: its outline, or its line. */
export function piecePoints(piece) {
  return piece.polygon_mm || piece.line_mm || [];
}

function terrainShape(state, piece) {
  const ring = piecePoints(piece);
  const points = ring.map((point) => toMap(state, point).join(",")).join(" ");
  const kind = String(piece.kind || "");
  const line = Boolean(piece.line_mm) || ring.length < 3;
  return svgEl(line ? "polyline" : "polygon", {
    class: `terrain kind-${kind.replace(/[^a-z_-]/gi, "")}${piece.stale ? " stale" : ""}`,
    points,
    "data-testid": "terrain",
    "data-id": piece.id,
    "data-kind": kind,
    "vector-effect": "non-scaling-stroke",
  });
}

function terrainLabel(state, piece) {
  const ring = piecePoints(piece);
  if (!ring.length) return null;
  const centre = [0, 1].map((axis) => ring.reduce((sum, point) => sum + point[axis], 0) / ring.length);
  const [x, y] = toMap(state, centre);
  // where the name may move to, clear of the figures: within the piece's extent
  const spread = [0, 1].map((axis) => {
    const values = ring.map((point) => point[axis]);
    return (Math.max(...values) - Math.min(...values)) / 2;
  });
  return svgEl(
    "text",
    { class: "terrain-label", x, y, "text-anchor": "middle", "dominant-baseline": "middle", "data-x": x, "data-y": y, "data-spread": spread.join(" ") },
    piece.id,
  );
}

/** Move each terrain piece's name, within the piece, to where the figures' discs cover it
 * least (its middle when none does); `discs` boxes in map units. */
function placeTerrainLabels(view, discs, bounds) {
  const shifts = [0, 0.2, -0.2, 0.4, -0.4, 0.6, -0.6, 0.8, -0.8, 1, -1]; // shares of the half extent
  for (const label of view.layers.table.querySelectorAll(".terrain-label")) {
    const [x, y] = [Number(label.dataset.x), Number(label.dataset.y)];
    const [sx, sy] = label.dataset.spread.split(" ").map(Number);
    setAttrs(label, { x, y });
    const box = boxOf(label.getBBox());
    let best = null;
    for (const dy of shifts) {
      for (const dx of shifts) {
        const spot = { ...box, x: box.x + dx * sx, y: box.y - dy * sy };
        if (!inside(spot, bounds)) continue;
        const covered = discs.reduce((sum, disc) => sum + overlapArea(spot, disc), 0);
        const cost = covered / (box.w * box.h) * 100 + Math.hypot(dx, dy);
        if (!best || cost < best.cost) best = { cost, dx: dx * sx, dy: -dy * sy };
      }
    }
    if (best) setAttrs(label, { x: x + best.dx, y: y + best.dy });
  }
}

/** The table, its grid and its terrain: drawn again only when they change. */
function drawTable(view, state) {
  const { width_mm: width, depth_mm: depth } = state.table;
  const margin = Math.max(width, depth) * 0.05;
  const whole = [-margin, -margin, width + 2 * margin, depth + 2 * margin];
  if (String(whole) !== String(view.whole)) {
    // another table: the whole of it, however close the last one was looked at
    view.whole = whole;
    view.zoom = { scale: 1, cx: width / 2, cy: depth / 2 };
  }
  applyZoom(view);
  view.svg.style.aspectRatio = `${whole[2]} / ${whole[3]}`;
  view.layers.table.replaceChildren(
    svgEl("rect", { class: "table", x: 0, y: 0, width, height: depth, "data-testid": "map-table", "vector-effect": "non-scaling-stroke" }),
    svgEl("clipPath", { id: "table-clip" }, svgEl("rect", { x: 0, y: 0, width, height: depth })),
    ...gridLines(state),
    ...state.terrain.map((piece) => terrainShape(state, piece)),
    ...state.terrain.map((piece) => terrainLabel(state, piece)).filter(Boolean),
  );
}

function drawReach(view, state, reach) {
  if (view.reachFor === reach) return;
  view.reachFor = reach;
  if (!reach) {
    view.layers.reach.replaceChildren();
    return;
  }
  const paths = (reach.polygons_mm || []).map((outer, index) => {
    const holes = (reach.holes_mm || [])[index] || [];
    const d = [outer, ...holes].map((ring) => ringPath(state, ring)).join("");
    return svgEl("path", { class: "reach", d, "fill-rule": "evenodd", "data-testid": "reach", "vector-effect": "non-scaling-stroke" });
  });
  view.layers.reach.replaceChildren(...paths);
}

function drawMapAnswer(view, state, overlay, sizes) {
  const where = new Map(state.figures.map((f) => [f.id, toMap(state, [f.x_mm, f.y_mm])]));
  const drawn = [];
  if (overlay.line && where.has(overlay.line.from) && where.has(overlay.line.to)) {
    drawn.push(...answerLine(where.get(overlay.line.from), where.get(overlay.line.to), overlay.line));
  }
  if (overlay.path && overlay.path.points.length > 1) {
    const points = overlay.path.points.map((p) => toMap(state, p).join(",")).join(" ");
    if (overlay.path.uncertain) drawn.push(svgEl("polyline", { class: "line-halo", points, "vector-effect": "non-scaling-stroke" }));
    drawn.push(
      svgEl("polyline", {
        class: `move-path ${overlay.path.kind}`,
        points,
        "data-testid": "move-path",
        "data-kind": overlay.path.kind,
        "vector-effect": "non-scaling-stroke",
      }),
    );
  }
  if (overlay.target) {
    const [x, y] = toMap(state, overlay.target);
    const arm = sizes.radius * 0.8;
    drawn.push(
      svgEl(
        "g",
        { class: `target ${overlay.path ? overlay.path.kind : "pending"}`, "data-testid": "move-target" },
        svgEl("line", { x1: x - arm, y1: y - arm, x2: x + arm, y2: y + arm, "vector-effect": "non-scaling-stroke" }),
        svgEl("line", { x1: x - arm, y1: y + arm, x2: x + arm, y2: y - arm, "vector-effect": "non-scaling-stroke" }),
      ),
    );
  }
  view.layers.answer.replaceChildren(...drawn);
}

/** Draw the state and the overlay on the map. */
export function renderMap(view, state, colourOf, overlay) {
  const drawnFor = JSON.stringify([state.table, state.terrain, state.unit_mm, state.grid]);
  if (view.drawnFor !== drawnFor) {
    view.drawnFor = drawnFor;
    drawTable(view, state);
  }
  const scale = screenScale(view.svg, view.viewWidth);
  const sizes = {
    radius: Math.max(BASE_RADIUS_MM, MIN_RADIUS_PX / scale),
    gap: 4 / scale,
    font: FONT_PX / scale,
    bases: true, // square and rectangular bases drawn as they stand (the map is in mm)
  };
  for (const shape of view.layers.table.querySelectorAll(".terrain")) {
    shape.classList.toggle("cover", overlay.cover.has(shape.dataset.id));
  }
  for (const label of view.layers.table.querySelectorAll(".terrain-label")) {
    label.setAttribute("font-size", (sizes.font * 0.9).toFixed(2));
  }
  drawReach(view, state, overlay.reach);
  drawMapAnswer(view, state, overlay, sizes);
  syncChildren(
    view.layers.figures,
    state.figures,
    (f) => f.id,
    () => createFigure("map-figure"),
    (node, f) => updateFigure(node, f, toMap(state, [f.x_mm, f.y_mm]), sizes, colourOf(f.side), overlay),
  );
  const shown = view.svg.viewBox.baseVal;
  const bounds = { x: shown.x, y: shown.y, w: shown.width, h: shown.height };
  const disc = sizes.radius + sizes.gap;
  const discs = state.figures.map((f) => toMap(state, [f.x_mm, f.y_mm])).map(([x, y]) => ({ x: x - disc, y: y - disc, w: 2 * disc, h: 2 * disc }));
  placeTerrainLabels(view, discs, bounds);
  const terrainNames = [...view.layers.table.querySelectorAll(".terrain-label")].map((label) => boxOf(label.getBBox()));
  const where = new Map(state.figures.map((f) => [f.id, toMap(state, [f.x_mm, f.y_mm])]));
  placeLabels(view, where, bounds, terrainNames, sizes);
}

// ---- names beside the figures ---------------------------------------------------

const LABEL_DIRECTIONS = 16; // where around its figure a name may stand, above first
const LABEL_RINGS = 8; // how far out: the first ring touches the figure, the others have a leader line
const LABEL_PAD_PX = 2; // kept clear around a name
const LABEL_CACHE = 2000; // names measured and remembered, at most

/** A box {x, y, w, h} (user units, y down) from an SVGRect. */
function boxOf(rect) {
  return { x: rect.x, y: rect.y, w: rect.width, h: rect.height };
}

/** The area two boxes share. */
function overlapArea(a, b) {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

function inside(box, bounds) {
  return box.x >= bounds.x && box.y >= bounds.y && box.x + box.w <= bounds.x + bounds.w && box.y + box.h <= bounds.y + bounds.h;
}

/** The point of `box` nearest to `point`. */
function nearestInBox([x, y], box) {
  return [Math.min(Math.max(x, box.x), box.x + box.w), Math.min(Math.max(y, box.y), box.y + box.h)];
}

/** The names to try for a figure: the whole, then shorter and shorter ("Tireur d'é…"),
 * the shortest keeping two letters. */
function shortenings(full) {
  const letters = [...full];
  const tried = [full];
  for (const share of [0.7, 0.5, 0.35]) {
    const keep = Math.max(2, Math.ceil(letters.length * share));
    if (keep < letters.length - 1) tried.push(`${letters.slice(0, keep).join("").trimEnd()}…`);
  }
  if (letters.length > 3) tried.push(`${letters.slice(0, 2).join("")}…`);
  return [...new Set(tried)];
}

/** The box a name of `text` takes, measured once on `label`, with its offset from the
 * text's origin: {w, h, dx, dy} in user units. */
function measureName(view, label, text, font) {
  view.nameSizes ??= new Map();
  const key = `${font.toFixed(4)}|${label.closest(".stale") ? "stale" : ""}|${text}`;
  let size = view.nameSizes.get(key);
  if (size) return size;
  label.textContent = text;
  setAttrs(label, { x: 0, y: 0 });
  const box = label.getBBox();
  // not laid out (a hidden view): a fair guess from the font
  size = box.width > 0 ? { w: box.width, h: box.height, dx: box.x, dy: box.y } : { w: 0.6 * font * text.length, h: 1.2 * font, dx: 0, dy: -0.95 * font };
  if (view.nameSizes.size > LABEL_CACHE) view.nameSizes.clear();
  view.nameSizes.set(key, size);
  return size;
}

/** Where a name of size `w` x `h` may stand around a figure at `at` of radius `radius`:
 * boxes whose corner (or side) nearest the figure lies `ring` rings out in a direction,
 * above first. */
function* spots(at, w, h, sizes) {
  const step = sizes.font * 1.1;
  for (let ring = 0; ring < LABEL_RINGS; ring += 1) {
    const reach = sizes.radius + sizes.gap + ring * step;
    for (let k = 0; k < LABEL_DIRECTIONS; k += 1) {
      const turn = (2 * Math.PI * k) / LABEL_DIRECTIONS - Math.PI / 2;
      const [ux, uy] = [Math.cos(turn), Math.sin(turn)];
      const side = (u) => Math.max(-1, Math.min(1, u * 3)); // the box wholly on the far side, except straight ahead
      const cx = at[0] + ux * reach + (side(ux) * w) / 2;
      const cy = at[1] + uy * reach + (side(uy) * h) / 2;
      // straight above is best; beside, then below, cost a little more
      yield { ring, k, box: { x: cx - w / 2, y: cy - h / 2, w, h }, bend: (1 + uy) * 1.5 };
    }
  }
}

/**
 * Place every figure's name (on the map and on the camera view) where it covers no other
 * name and as little as it can of the figures and the terrain's names, inside `bounds`:
 * beside its figure, or farther out with a leader line to it; shortened (the whole name
 * in its tooltip) only when no whole name finds room. Picked figures, then the most
 * crowded, are placed first. `where` maps each figure's id to its centre in user units;
 * `avoid` boxes in user units.
 */
function placeLabels(view, where, bounds, avoid, sizes) {
  const nodes = [...view.layers.figures.children];
  const anchors = nodes.map((node) => where.get(node.dataset.id) ?? [NaN, NaN]);
  const pad = sizes.gap * (LABEL_PAD_PX / 4);
  const inner = { x: bounds.x + pad, y: bounds.y + pad, w: bounds.w - 2 * pad, h: bounds.h - 2 * pad };
  const disc = sizes.radius + sizes.gap;
  const discs = anchors.map(([x, y]) => ({ x: x - disc, y: y - disc, w: 2 * disc, h: 2 * disc }));
  const crowd = anchors.map((a) => anchors.filter((b) => Math.hypot(a[0] - b[0], a[1] - b[1]) < sizes.font * 8).length);
  // the names with the fewest places beside their figure (in a corner, in a crowd) first
  const room = nodes.map((node, index) => {
    const size = measureName(view, node.children[2], node.dataset.name || "", sizes.font);
    let free = 0;
    for (const spot of spots(anchors[index], size.w + 2 * pad, size.h + 2 * pad, sizes)) {
      if (spot.ring > 0) break;
      if (inside(spot.box, inner) && !discs.some((box, k) => k !== index && overlapArea(spot.box, box) > 0)) free += 1;
    }
    return free;
  });
  const order = nodes
    .map((node, index) => index)
    .sort((a, b) => {
      const picked = Number(nodes[b].classList.contains("picked")) - Number(nodes[a].classList.contains("picked"));
      return picked || room[a] - room[b] || crowd[b] - crowd[a] || anchors[a][0] - anchors[b][0] || anchors[a][1] - anchors[b][1];
    });
  const placed = [];
  for (const index of order) {
    const node = nodes[index];
    const at = anchors[index];
    const label = node.children[2];
    const full = node.dataset.name || "";
    const seen = at[0] >= bounds.x && at[1] >= bounds.y && at[0] <= bounds.x + bounds.w && at[1] <= bounds.y + bounds.h;
    label.style.visibility = seen ? "" : "hidden"; // off the zoomed map: its name is not drawn at the edge
    if (!seen) continue;
    const last = node.labelSpot;
    let best = null;
    for (const text of shortenings(full)) {
      const size = measureName(view, label, text, sizes.font);
      const [w, h] = [size.w + 2 * pad, size.h + 2 * pad];
      for (const spot of spots(at, w, h, sizes)) {
        if (!inside(spot.box, inner)) continue;
        const area = w * h;
        let covered = 0; // other names: never
        for (const other of placed) covered += overlapArea(spot.box, other);
        if (covered > 0 && best && best.covered === 0) continue;
        let cost = spot.ring * 10 + spot.bend;
        discs.forEach((box, k) => {
          if (k !== index) cost += (100 * overlapArea(spot.box, box)) / area;
        });
        for (const box of avoid) cost += (400 * overlapArea(spot.box, box)) / area; // a terrain name covered is unread
        if (last && last.text === text && last.ring === spot.ring && last.k === spot.k) cost -= 3; // no flicker
        if (!best || covered < best.covered || (covered === best.covered && cost < best.cost)) {
          best = { ...spot, text, size, covered, cost };
        }
      }
      if (best && best.covered === 0) break; // room for this much of the name: no shorter
    }
    if (!best) {
      // no room inside at all (a view smaller than a name): the shortest, kept in as can be
      const text = shortenings(full).at(-1);
      const size = measureName(view, label, text, sizes.font);
      const [w, h] = [size.w + 2 * pad, size.h + 2 * pad];
      const x = Math.min(Math.max(at[0] - w / 2, inner.x), inner.x + inner.w - w);
      const y = Math.min(Math.max(at[1] - disc - h, inner.y), inner.y + inner.h - h);
      best = { ring: 0, k: 0, box: { x, y, w, h }, text, size, covered: 0 };
    }
    placed.push(best.box);
    node.labelSpot = { text: best.text, ring: best.ring, k: best.k };
    showLabel(node, at, best, pad, sizes);
  }
}

/** Write a placed name on its figure (the group is translated to `at`), with its leader. */
function showLabel(node, at, spot, pad, sizes) {
  const [label, leader] = [node.children[2], node.children[5]];
  if (label.textContent !== spot.text) label.textContent = spot.text;
  setAttrs(label, {
    x: (spot.box.x + pad - spot.size.dx - at[0]).toFixed(2),
    y: (spot.box.y + pad - spot.size.dy - at[1]).toFixed(2),
    "text-anchor": "start",
    "data-short": spot.text === node.dataset.name ? null : "true",
  });
  const end = nearestInBox(at, spot.box);
  const far = Math.hypot(end[0] - at[0], end[1] - at[1]);
  if (spot.ring > 0 && far > sizes.radius + sizes.gap) {
    const [ux, uy] = [(end[0] - at[0]) / far, (end[1] - at[1]) / far];
    setAttrs(leader, {
      x1: (ux * sizes.radius).toFixed(2),
      y1: (uy * sizes.radius).toFixed(2),
      x2: (end[0] - at[0]).toFixed(2),
      y2: (end[1] - at[1]).toFixed(2),
      "data-shown": "true",
    });
  } else {
    setAttrs(leader, { x1: 0, y1: 0, x2: 0, y2: 0, "data-shown": null });
  }
}

/** Screen pixels per table millimetre on the map. */
export function mapPixelsPerMm(view) {
  return screenScale(view.svg, view.viewWidth);
}

/**
 * The terrain editor's marks over the map: the chosen piece outlined with a handle on
 * each corner (dragged to move it), and the piece being drawn. `edit` is
 * {pieces, selected (index or null), drawing ({shape, points, cursor: the corner the
 * arrow keys are moving, if any} or null)}; null clears.
 */
export function renderEdit(view, state, edit) {
  const layer = view.layers.edit;
  view.svg.classList.toggle("editing", Boolean(edit));
  if (!edit) {
    layer.replaceChildren();
    return;
  }
  const perMm = mapPixelsPerMm(view);
  const radius = 11 / perMm;
  const reach = 22 / perMm; // a handle is a 14 px square, taken by a finger 44 px wide
  const side = 14 / perMm;
  const drawn = [];
  const piece = edit.selected === null ? null : edit.pieces[edit.selected];
  if (piece) {
    const points = piecePoints(piece).map((p) => toMap(state, p).join(",")).join(" ");
    drawn.push(svgEl(piece.line_mm ? "polyline" : "polygon", { class: "edit-outline", points, "vector-effect": "non-scaling-stroke" }));
    piecePoints(piece).forEach((point, index) => {
      const [x, y] = toMap(state, point);
      drawn.push(
        svgEl(
          "g",
          { class: "vertex", "data-testid": "vertex", "data-index": index },
          svgEl("circle", { class: "vertex-reach", cx: x, cy: y, r: reach }),
          svgEl("rect", { class: "vertex-mark", x: x - side / 2, y: y - side / 2, width: side, height: side, "vector-effect": "non-scaling-stroke" }),
        ),
      );
    });
  }
  if (edit.drawing) {
    const points = edit.drawing.points.map((p) => toMap(state, p).join(",")).join(" ");
    const closed = edit.drawing.shape === "polygon" && edit.drawing.points.length > 2;
    drawn.push(svgEl(closed ? "polygon" : "polyline", { class: "edit-draft", points, "data-testid": "terrain-draft", "vector-effect": "non-scaling-stroke" }));
    for (const point of edit.drawing.points) {
      const [x, y] = toMap(state, point);
      drawn.push(svgEl("circle", { class: "draft-point", cx: x, cy: y, r: radius * 0.6, "vector-effect": "non-scaling-stroke" }));
    }
    if (edit.drawing.cursor) {
      const [x, y] = toMap(state, edit.drawing.cursor);
      drawn.push(svgEl("circle", { class: "draft-cursor", "data-testid": "terrain-cursor", cx: x, cy: y, r: radius, "vector-effect": "non-scaling-stroke" }));
    }
  }
  layer.replaceChildren(...drawn);
}

function mapCandidates(state) {
  return state.figures.map((f) => {
    const [x, y] = toMap(state, [f.x_mm, f.y_mm]);
    return { id: f.id, x, y };
  });
}

/** The figure nearest to a tap on the map, or null. */
export function figureAtMap(view, state, clientX, clientY, reachPx = TAP_RADIUS_PX) {
  return nearestCandidate(view.svg, mapCandidates(state), clientX, clientY, reachPx);
}

/** The figures a tap on the map may mean, nearest first (none, one, or a close call). */
export function figuresAtMap(view, state, clientX, clientY) {
  return closeCall(view.svg, mapCandidates(state), clientX, clientY);
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

/** A point on the table moved by an arrow key, 5 mm (25 mm with Shift; the table's +y is
 * up, as on the map), kept on the table; null for any other key. */
export function nudged(point, event, table) {
  const step = ARROWS[event.key];
  if (!step) return null;
  const size = event.shiftKey ? 25 : 5;
  return [
    Math.min(Math.max(point[0] + step[0] * size, 0), table.width_mm),
    Math.min(Math.max(point[1] + step[1] * size, 0), table.depth_mm),
  ];
}

/** Where a tap on the map falls, in table mm. */
export function mapPointMm(view, state, clientX, clientY) {
  const toScreen = view.svg.getScreenCTM();
  if (!toScreen) return null;
  const point = new DOMPoint(clientX, clientY).matrixTransform(toScreen.inverse());
  return [point.x, state.table.depth_mm - point.y];
}

// ---- the camera view ------------------------------------------------------------

export function createCamera(svg) {
  const layers = { answer: svgEl("g", { class: "layer-answer" }), figures: svgEl("g", { class: "layer-figures" }) };
  svg.replaceChildren(layers.answer, layers.figures);
  return { svg, layers, viewWidth: 1 };
}

/** Draw the figures and the overlay over the camera image (image pixels). */
export function renderCamera(view, state, colourOf, overlay) {
  const [width, height] = state.image_size || [0, 0];
  if (!(width > 0 && height > 0)) return;
  if (view.viewWidth !== width) {
    view.viewWidth = width;
    setAttrs(view.svg, { viewBox: `0 0 ${width} ${height}` });
  }
  const scale = screenScale(view.svg, width);
  const sizes = {
    radius: Math.max(MARKER_RADIUS_PX, MIN_RADIUS_PX / scale),
    gap: 4 / scale,
    font: FONT_PX / scale,
  };
  const seen = state.figures.filter((f) => Array.isArray(f.image_px));
  const where = new Map(seen.map((f) => [f.id, f.image_px]));
  const line = overlay.line;
  const drawn = line && where.has(line.from) && where.has(line.to) ? answerLine(where.get(line.from), where.get(line.to), line) : [];
  view.layers.answer.replaceChildren(...drawn);
  syncChildren(
    view.layers.figures,
    seen,
    (f) => f.id,
    () => createFigure("camera-figure"),
    (node, f) => updateFigure(node, f, f.image_px, sizes, colourOf(f.side), overlay),
  );
  placeLabels(view, where, { x: 0, y: 0, w: width, h: height }, [], sizes);
}

/** The figures a tap on the camera view may mean, nearest first. */
export function figuresAtCamera(view, state, clientX, clientY) {
  const candidates = state.figures
    .filter((f) => Array.isArray(f.image_px))
    .map((f) => ({ id: f.id, x: f.image_px[0], y: f.image_px[1] }));
  return closeCall(view.svg, candidates, clientX, clientY);
}
