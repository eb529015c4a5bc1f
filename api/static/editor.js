// The terrain editor: draw, reshape and delete the table's fixed terrain on the map, then
// save it (PUT /api/terrain with the start-up token). The server checks the pieces with
// the rules' own scene parser and the page shows its one-line refusal as it is.

import { mapPixelsPerMm, mapPointMm, nudged, piecePoints } from "./draw.js";
import { language, list, number, t, tOr } from "./i18n.js";
import * as server from "./server.js";

const KINDS = ["wood", "difficult", "impassable", "building", "obstacle"];
const LEVELS = { obstacle: [1, 2, 3] }; // the kinds that have levels, and their levels
const LINE_KIND = "obstacle"; // the only kind that may be a line

/** What the table's rule system reads of the terrain (the state's `terrain_rules`): every
 * kind and level when the server does not say. */
function terrainRules(state) {
  const rules = state?.terrain_rules;
  if (!rules) return { kinds: KINDS, ignored_kinds: [], levels: true };
  return { ...rules, kinds: KINDS.filter((k) => rules.kinds.includes(k)) };
}

/** "Choc Base 6 ignores obstacles (walls, hedges) and levels: ...", or "" when the rule
 * system reads every kind and level. */
export function ignoredSentence(state) {
  const rules = terrainRules(state);
  const ignored = rules.ignored_kinds.map((k) => tOr(`terrain.ignored.${k}`, k));
  if (!rules.levels) ignored.push(t("terrain.ignored.levels"));
  if (!ignored.length) return "";
  const what = ignored.length > 1 ? `${list(ignored.slice(0, -1))}${t("terrain.ignored.and")}${ignored.at(-1)}` : ignored[0];
  const ruleset = tOr(`ruleset.${state.ruleset}`, state.ruleset ?? "");
  return t("terrain.ignored", { ruleset, what });
}
const TAP_PX = 24; // how far from a line a tap still picks it

const round = (value) => Math.round(value * 10) / 10;

function insidePolygon([x, y], ring) {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i, i += 1) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function segmentDistance([x, y], [ax, ay], [bx, by]) {
  const dx = bx - ax;
  const dy = by - ay;
  const length2 = dx * dx + dy * dy;
  const share = length2 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / length2)) : 0;
  return Math.hypot(x - (ax + share * dx), y - (ay + share * dy));
}

/**
 * The editor over the map `view`. `getState()` gives the shown state, `token()` the
 * start-up token (null: no editing), `blocked()` true while a scene file is shown;
 * `onChange()` is called whenever the map must be drawn again.
 */
export function createEditor({ byTestId, view, getState, token, blocked, onChange, onSaved }) {
  let edit = null; // {pieces, selected, drawing: {shape, points} | null}
  let kind = "wood";
  let level = "";
  let dragging = null; // {vertex, pointerId}
  let draggedAt = -Infinity; // when the last corner's drag ended
  let pressedAt = -Infinity; // when the map was last pressed (a tap's start, or a drag's)
  let message = "";
  let messageKind = "";

  function selectedPiece() {
    return edit && edit.selected !== null ? edit.pieces[edit.selected] : null;
  }

  function tablePoint(event) {
    const state = getState();
    const point = mapPointMm(view, state, event.clientX, event.clientY);
    if (!point) return null;
    const { width_mm: width, depth_mm: depth } = state.table;
    return [round(Math.min(Math.max(point[0], 0), width)), round(Math.min(Math.max(point[1], 0), depth))];
  }

  function uniqueId(base) {
    // clear of the pieces placed by their markers too (the table refuses a twin id)
    const placed = (getState()?.terrain ?? []).map((piece) => piece.id);
    const taken = new Set([...edit.pieces.map((piece) => piece.id), ...placed]);
    for (let n = 1; ; n += 1) if (!taken.has(`${base}${n}`)) return `${base}${n}`;
  }

  function say(text, kindOfMessage = "") {
    message = text;
    messageKind = kindOfMessage;
  }

  // ---- what the page shows ----

  /** The kind menu: the kinds the rule system reads, and the chosen piece's own when it
   * reads not that one (said so). */
  function fillPickers() {
    const rules = terrainRules(getState());
    const own = selectedPiece()?.kind;
    const kindSelect = byTestId("terrain-kind");
    const key = JSON.stringify([language(), rules.kinds, own]);
    if (kindSelect.dataset.key !== key) {
      kindSelect.dataset.key = key;
      const options = rules.kinds.map((k) => new Option(tOr(`kind.${k}`, k), k));
      if (own && !rules.kinds.includes(own)) options.push(new Option(t("terrain.kind.ignored", { kind: tOr(`kind.${own}`, own) }), own));
      kindSelect.replaceChildren(...options);
    }
    const levelSelect = byTestId("terrain-level");
    if (levelSelect.dataset.lang !== language()) {
      levelSelect.dataset.lang = language();
      levelSelect.replaceChildren(new Option(t("terrain.level.none"), ""), ...LEVELS.obstacle.map((n) => new Option(String(n), String(n))));
    }
  }

  function render() {
    const allowed = Boolean(token()) && !blocked();
    if (!allowed && edit) edit = null;
    byTestId("terrain-editor").hidden = !allowed;
    byTestId("terrain-idle").hidden = Boolean(edit);
    byTestId("terrain-tools").hidden = !edit;
    const note = byTestId("terrain-message");
    note.textContent = message;
    note.dataset.kind = messageKind;
    const ignored = byTestId("terrain-ignored");
    ignored.textContent = ignoredSentence(getState());
    ignored.hidden = !ignored.textContent;
    if (!edit) return;
    const rules = terrainRules(getState());
    if (!rules.kinds.includes(kind)) kind = rules.kinds[0] ?? KINDS[0];
    fillPickers();
    const piece = selectedPiece();
    const shownKind = piece ? piece.kind : kind;
    byTestId("terrain-kind").value = shownKind;
    byTestId("terrain-level").value = piece ? String(piece.level ?? "") : level;
    // a level only where the rule system grades by it (a piece's own level is kept)
    byTestId("terrain-level-label").hidden = !(shownKind in LEVELS && rules.levels);
    byTestId("terrain-draw-line").hidden = !rules.kinds.includes(LINE_KIND);
    byTestId("terrain-finish").disabled = !edit.drawing;
    byTestId("terrain-delete").disabled = !piece;
    const hint = byTestId("terrain-hint");
    if (edit.drawing?.cursor) {
      const [x, y] = edit.drawing.cursor.map((value) => number(value, 1));
      hint.textContent = t("terrain.hint.cursor", { x, y, count: edit.drawing.points.length });
    } else if (edit.drawing) {
      const count = edit.drawing.points.length;
      hint.textContent = edit.drawing.shape === "line" ? t("terrain.hint.line", { count }) : t("terrain.hint.area", { count });
    } else if (piece) {
      hint.textContent = t("terrain.hint.selected", { name: piece.id });
    } else {
      hint.textContent = t("terrain.hint.pick");
    }
  }

  function changed() {
    render();
    onChange();
  }

  // ---- actions ----

  function start() {
    const state = getState();
    if (!state) return;
    // Only the fixed terrain is edited here: pieces placed by their markers follow the camera.
    edit = { pieces: structuredClone((state.terrain ?? []).filter((p) => p.marker == null)), selected: null, drawing: null };
    say("");
    changed();
  }

  function cancel() {
    edit = null;
    dragging = null;
    say("");
    changed();
  }

  function draw(shape) {
    if (!edit) return;
    if (shape === "line") kind = LINE_KIND;
    edit.drawing = { shape, points: [] };
    edit.selected = null;
    say("");
    changed();
  }

  function finish() {
    const drawing = edit?.drawing;
    if (!drawing) return;
    const needed = drawing.shape === "line" ? 2 : 3;
    if (drawing.points.length < needed) return;
    // named in the page's language, as the players call it: bois1, wood1
    const piece = { id: uniqueId(tOr(`kind.${kind}`, kind).replace(/\s+/g, "-")), kind };
    if (kind in LEVELS && level && terrainRules(getState()).levels) piece.level = Number(level);
    piece[drawing.shape === "line" ? "line_mm" : "polygon_mm"] = drawing.points;
    edit.pieces.push(piece);
    edit.selected = edit.pieces.length - 1;
    edit.drawing = null;
    changed();
  }

  function remove() {
    if (!selectedPiece()) return;
    edit.pieces.splice(edit.selected, 1);
    edit.selected = null;
    changed();
  }

  function pickKind(value) {
    const piece = selectedPiece();
    if (piece?.line_mm && value !== LINE_KIND) {
      say(t("terrain.line_obstacle"), "refused");
      changed();
      return;
    }
    if (edit?.drawing?.shape === "line" && value !== LINE_KIND) {
      say(t("terrain.line_obstacle"), "refused");
      changed();
      return;
    }
    say("");
    kind = value;
    if (piece) {
      piece.kind = value;
      if (!(value in LEVELS)) delete piece.level;
    }
    changed();
  }

  function pickLevel(value) {
    level = value;
    const piece = selectedPiece();
    if (piece) {
      if (value) piece.level = Number(value);
      else delete piece.level;
    }
    changed();
  }

  async function save() {
    if (!edit) return;
    say(t("terrain.saving"));
    render();
    const reply = await server.putTerrain(token(), edit.pieces);
    if (!reply.ok) {
      say(t("terrain.refused", { detail: reply.detail ?? "" }), "refused");
      render();
      return;
    }
    say(reply.data.saved ? t("terrain.saved") : t("terrain.unsaved"), "saved");
    const state = getState();
    if (state) state.terrain = reply.data.terrain; // until a state of this version says so
    onSaved(reply.data.terrain, reply.data.terrain_version);
    edit = null;
    changed();
  }

  // ---- the map ----

  /** A key on the focused map while drawing: the arrow keys move a corner to come
   * (5 mm, 25 mm with Shift) from the last corner or the table's middle, Enter adds it.
   * True when the editor took the key. */
  function key(event) {
    const drawing = edit?.drawing;
    const state = getState();
    if (!drawing || !state) return false;
    if (event.key === "Enter" && drawing.cursor) {
      drawing.points.push([...drawing.cursor]);
      changed();
      return true;
    }
    const { width_mm: width, depth_mm: depth } = state.table;
    const moved = nudged(drawing.cursor ?? drawing.points.at(-1) ?? [width / 2, depth / 2], event, state.table);
    if (!moved) return false;
    drawing.cursor = moved;
    changed();
    return true;
  }

  /** A tap on the map: true when the editor took it. */
  function tap(event) {
    if (!edit) return false;
    if (draggedAt > pressedAt) {
      draggedAt = -Infinity; // the click a drag ends with (no new press since): once
      return true;
    }
    const point = tablePoint(event);
    if (!point) return true;
    if (edit.drawing) {
      edit.drawing.points.push(point);
      changed();
      return true;
    }
    const tolerance = TAP_PX / mapPixelsPerMm(view);
    let found = null;
    edit.pieces.forEach((piece, index) => {
      const points = piecePoints(piece);
      const hit = piece.line_mm
        ? points.slice(1).some((end, i) => segmentDistance(point, points[i], end) <= tolerance)
        : insidePolygon(point, points);
      if (hit) found = index; // the last drawn, on top, wins
    });
    edit.selected = found;
    say("");
    changed();
    return true;
  }

  function pointerDown(event) {
    pressedAt = performance.now();
    const handle = event.target.closest?.('[data-testid="vertex"]');
    if (!edit || !handle || !selectedPiece()) return;
    event.preventDefault();
    dragging = { vertex: Number(handle.dataset.index), pointerId: event.pointerId };
    view.svg.setPointerCapture?.(event.pointerId);
  }

  function pointerMove(event) {
    if (!dragging || event.pointerId !== dragging.pointerId) return;
    event.preventDefault();
    const point = tablePoint(event);
    const piece = selectedPiece();
    if (!point || !piece) return;
    piecePoints(piece)[dragging.vertex] = point;
    onChange();
  }

  function pointerUp(event) {
    if (!dragging || event.pointerId !== dragging.pointerId) return;
    dragging = null;
    draggedAt = performance.now();
    view.svg.releasePointerCapture?.(event.pointerId);
    changed();
  }

  function wire() {
    byTestId("terrain-edit").addEventListener("click", start);
    byTestId("terrain-cancel").addEventListener("click", cancel);
    byTestId("terrain-draw-area").addEventListener("click", () => draw("polygon"));
    byTestId("terrain-draw-line").addEventListener("click", () => draw("line"));
    byTestId("terrain-finish").addEventListener("click", finish);
    byTestId("terrain-delete").addEventListener("click", remove);
    byTestId("terrain-save").addEventListener("click", save);
    byTestId("terrain-kind").addEventListener("change", (event) => pickKind(event.target.value));
    byTestId("terrain-level").addEventListener("change", (event) => pickLevel(event.target.value));
    view.svg.addEventListener("pointerdown", pointerDown);
    view.svg.addEventListener("pointermove", pointerMove);
    view.svg.addEventListener("pointerup", pointerUp);
    view.svg.addEventListener("pointercancel", pointerUp);
  }

  return {
    wire,
    render,
    tap,
    key,
    fillPickers,
    active: () => Boolean(edit),
    /** What to draw on the map while editing: {pieces, selected, drawing}, or null. */
    marks: () => edit,
  };
}
