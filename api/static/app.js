// The page: follows the live table, lets players pick figures on the map or the
// camera view, asks the server the question of the chosen mode and shows the answer.

import { el, sideColours, syncChildren } from "./dom.js";
import {
  centreMap,
  createCamera,
  createMap,
  figureAtMap,
  figuresAtCamera,
  figuresAtMap,
  figureLabel,
  ON_FIGURE_PX,
  mapPointMm,
  mapZoom,
  MAX_ZOOM,
  nudged,
  panMap,
  renderCamera,
  renderEdit,
  renderMap,
  unzoomMap,
  zoomMap,
} from "./draw.js";
import { createEditor } from "./editor.js";
import { createJournal } from "./journal.js";
import { errorWords, initialLanguage, language, list, localDigits, number, setLanguage, t, tOr, translatePage, unitWord } from "./i18n.js";
import * as server from "./server.js";

const MODES = ["distance", "fire", "move"];
const MOVED_MM = 3; // a figure further than this from where it was asked about has moved
const CAMERA_RETRY_MS = 3000;

const byTestId = (id) => document.querySelector(`[data-testid="${id}"]`);

/**
 * The start-up token, sent in the X-Arbitre-Token header. Given in the address
 * (`?token=...`), it is kept for this tab only and removed from the address bar at once,
 * so that it stays out of the history, bookmarks and screenshots.
 */
function takeToken() {
  const url = new URL(location.href);
  const given = url.searchParams.get("token");
  let kept = null;
  try {
    if (given) sessionStorage.setItem("arbitre.token", given);
    kept = sessionStorage.getItem("arbitre.token");
  } catch {
    // storage refused (a private window): the token lasts until the page is left
  }
  if (given) {
    url.searchParams.delete("token");
    history.replaceState(history.state, "", url.pathname + url.search + url.hash);
  }
  return given || kept;
}

const app = {
  state: null, // what the page shows: the live state, or the loaded scene's
  live: null, // the newest live state
  scene: null, // a loaded scene file: {name, data, view}
  connection: "connecting", // connecting | open | closed
  mode: "distance",
  picks: [], // figure ids picked for the current question
  ticket: 0, // numbers the questions; an answer to an older one is dropped
  pending: false,
  answer: null, // {question, data, picks, target, at: Map id -> [x, y]}
  reach: null, // the reach answer while a destination is chosen
  pendingTarget: null, // the destination [x, y] mm being asked about
  cursor: null, // the destination [x, y] mm chosen with the arrow keys, not asked yet
  error: null, // {detail} when the server refused or could not be reached
  outdated: false,
  cameraOn: localStorage.getItem("arbitre.camera") !== "off",
  cameraAttempt: 0,
  cameraIndex: 0, // which camera the view shows (a table may have several)
  cameraLost: false, // the camera shown gives no frames: its place says so
  token: takeToken(),
  views: {},
  editor: null,
  journal: null,
  savedTerrain: null, // {terrain, version} the server answered the last save with
  pan: null, // {id, x, y, moved}: a finger or the mouse dragging the zoomed map
  pannedAt: -Infinity, // when the last drag ended: a click after it, with no new press, is no tap
  pressedAt: -Infinity, // when the map was last pressed
};

// ---- the state of the table -------------------------------------------------------

function figureById(id) {
  return app.state?.figures.find((f) => f.id === id) ?? null;
}

function nameOf(id) {
  return figureById(id)?.name || id;
}

/** Figure ids for names that may be groups (expanded) or figures. */
function figureIds(names) {
  const groups = app.state?.groups ?? {};
  return names.flatMap((name) => (name in groups ? groups[name] : [name]));
}

/** Readable names for group or figure names: the figures' names. */
function namesOf(names) {
  return list([...new Set(figureIds(names).map(nameOf))]);
}

function colourOfSide() {
  return sideColours((app.state?.figures ?? []).map((f) => f.side));
}

function positionsOf(ids) {
  const at = new Map();
  for (const id of ids) {
    const figure = figureById(id);
    if (figure) at.set(id, [figure.x_mm, figure.y_mm]);
  }
  return at;
}

function hasMoved(at) {
  for (const [id, [x, y]] of at) {
    const figure = figureById(id);
    if (figure && Math.hypot(figure.x_mm - x, figure.y_mm - y) > MOVED_MM) return true;
  }
  return false;
}

// ---- what to draw over the map and the camera ---------------------------------------

function lineKind(answer) {
  if (app.mode === "distance") return "distance";
  if (!answer || answer.question !== "fire") return "pending";
  return answer.data.allowed ? "allowed" : "refused";
}

function currentOverlay() {
  const answer = app.answer;
  const overlay = {
    picks: app.picks,
    blocked: new Set(),
    cover: new Set(),
    line: null,
    path: null,
    target: null,
    reach: app.mode === "move" ? app.reach : null,
  };
  if (app.mode !== "move" && app.picks.length === 2) {
    const [from, to] = app.picks;
    overlay.line = { from, to, kind: lineKind(answer), uncertain: answer?.data.certain === false };
  }
  if (answer?.question === "fire" || answer?.question === "move") {
    for (const id of figureIds(answer.data.blocked_by || [])) overlay.blocked.add(id);
    for (const id of figureIds(answer.data.cover || [])) overlay.cover.add(id);
  }
  if (answer?.question === "move") {
    overlay.path = {
      points: answer.data.path_mm || [],
      kind: answer.data.legal ? "allowed" : "refused",
      uncertain: answer.data.certain === false,
    };
  }
  if (app.mode === "move" && app.cursor) overlay.target = app.cursor;
  else if (app.mode === "move" && answer?.target) overlay.target = answer.target;
  else if (app.mode === "move" && app.pendingTarget) overlay.target = app.pendingTarget;
  return overlay;
}

// ---- rendering ------------------------------------------------------------------

function renderStatus() {
  const status = byTestId("source-status");
  const text = byTestId("source-text");
  const rate = byTestId("source-fps");
  const detail = byTestId("source-detail");
  let kind;
  let words;
  let fps = "";
  let message = "";
  if (app.connection !== "open" || !app.state) {
    kind = app.connection === "closed" ? "offline" : "connecting";
    words = t(`status.${kind}`);
  } else if (app.state.source.ok) {
    kind = "ok";
    words = t("status.ok");
    fps = `· ${t("status.fps", { fps: number(app.state.fps, 0) })}`;
  } else if ((app.state.cameras ?? []).some((c) => c.ok)) {
    // some cameras still see the table: say which stopped, the others' figures stay live
    const cameras = app.state.cameras;
    kind = "partial";
    words = t("status.partial", { lost: cameras.filter((c) => !c.ok).length, total: cameras.length });
    message = app.state.source.message || "";
  } else {
    // said to the players beside the camera's place; the source's message and its advice
    // (command-line options) wait there behind a tap, for the operator
    kind = "lost";
    words = t("status.lost");
  }
  if (app.state?.camera_moved) message = [t("status.moved"), message].filter(Boolean).join(" · ");
  if (app.state?.problem) message = [message, app.state.problem].filter(Boolean).join(" · ");
  status.dataset.state = kind;
  status.closest(".status").dataset.state = kind; // the light beside it
  text.textContent = words;
  // the frame rate changes every second: shown, but outside the status a reader announces
  if (rate.textContent !== fps) rate.textContent = fps;
  detail.textContent = message;
  detail.hidden = !message;
}

function renderHint() {
  const hint = byTestId("hint");
  if (app.pending) {
    hint.textContent = t("hint.wait");
    return;
  }
  const step = app.picks.length === 1 ? 1 : 0;
  if (app.mode === "move" && step === 1 && app.cursor) {
    hint.textContent = t("hint.move.cursor", { x: mm(app.cursor[0]), y: mm(app.cursor[1]) });
    return;
  }
  hint.textContent = t(`hint.${app.mode}.${step}`);
}

/** Whether the table's rule system answers the question of `mode` (Confrontation has
 * no fire nor move: its mode buttons are hidden rather than answered by a refusal). */
function modeAsked(mode) {
  const known = app.state?.questions;
  const question = mode === "move" ? "reach" : mode;
  return !known || known.includes(question);
}

function renderModes() {
  if (!modeAsked(app.mode)) {
    app.mode = "distance";
    clearQuestion();
  }
  for (const mode of MODES) {
    const button = byTestId(`mode-${mode}`);
    button.setAttribute("aria-pressed", String(app.mode === mode));
    button.hidden = !modeAsked(mode);
  }
}

function figureMeta(figure) {
  const parts = [];
  if (figure.group) parts.push(t("figure.group", { group: figure.group }));
  parts.push(figure.side || t("side.none"));
  if (figure.pinned) parts.push(t("figure.pinned"));
  else if (figure.stale) parts.push(t("figure.stale", { age: number(figure.age_s, 0) }));
  else if (!figure.settled) parts.push(t("figure.moving"));
  if (figure.height_known === false) parts.push(t("figure.no_height"));
  return parts.join(" · ");
}

/** A figure's button (its side's dot, its name, what it is) in a list item. */
function figureItem(testid) {
  return el(
    "li",
    {},
    el("button", { type: "button", class: "figure-button", "data-testid": testid },
      el("span", { class: "dot", "aria-hidden": "true" }),
      el("span", { class: "name" }),
      el("span", { class: "meta" })),
  );
}

/** Show a figure on its button (made by figureItem). */
function showFigure(button, figure, colourOf) {
  const [dot, name, meta] = button.children;
  button.dataset.id = figure.id;
  button.classList.toggle("stale", figure.stale);
  button.classList.toggle("moving", !figure.settled);
  dot.style.background = figure.stale ? "" : colourOf(figure.side);
  name.textContent = figure.name || figure.id;
  meta.textContent = figureMeta(figure);
}

/** The figures by side (those of no side last), then by name, as the players call them. */
function inListOrder(figures) {
  const words = new Intl.Collator(language(), { numeric: true, sensitivity: "base" });
  const side = (f) => f.side ?? "\uffff";
  return [...figures].sort((a, b) => words.compare(side(a), side(b)) || words.compare(a.name || a.id, b.name || b.id) || words.compare(a.id, b.id));
}

function renderFigureList(colourOf, overlay) {
  const listNode = byTestId("figure-list");
  const figures = inListOrder(app.state?.figures ?? []);
  byTestId("figures-empty").hidden = figures.length > 0;
  syncChildren(
    listNode,
    figures,
    (f) => f.id,
    () => figureItem("figure-button"),
    (item, figure) => {
      const button = item.firstElementChild;
      showFigure(button, figure, colourOf);
      button.setAttribute("aria-pressed", String(overlay.picks.includes(figure.id)));
    },
  );
  // in that order: the items are moved only when a figure came or went out of turn
  const wanted = figures.map((f) => String(f.id));
  if ([...listNode.children].some((item, k) => item.dataset.key !== wanted[k])) {
    const byKey = new Map([...listNode.children].map((item) => [item.dataset.key, item]));
    listNode.append(...wanted.map((key) => byKey.get(key)));
  }
}

function renderLegend(colourOf) {
  const sides = [...new Set((app.state?.figures ?? []).map((f) => f.side).filter(Boolean))].sort();
  const kinds = [...new Set((app.state?.terrain ?? []).map((p) => String(p.kind)))].sort();
  const key = JSON.stringify([language(), sides, kinds]);
  const legend = byTestId("legend");
  if (legend.dataset.key === key) return;
  legend.dataset.key = key;
  const swatch = (cls, colour) => el("span", { class: `swatch ${cls}`, style: colour ? `background:${colour}` : null, "aria-hidden": "true" });
  legend.replaceChildren(
    ...sides.map((side) => el("li", {}, swatch("side", colourOf(side)), side)),
    ...kinds.map((kind) => el("li", {}, swatch(`kind-${kind.replace(/[^a-z_-]/gi, "")}`), tOr(`kind.${kind}`, kind))),
    el("li", {}, swatch("stale"), t("legend.stale")),
    el("li", {}, swatch("moving"), t("legend.moving")),
  );
}

/** The source's message when the camera shown gives no frames (its live state says so),
 * else null. */
function lostCamera() {
  if (!app.state || app.connection !== "open") return null;
  const camera = (app.state.cameras ?? [])[app.cameraIndex];
  const source = camera ?? app.state.source;
  return source && source.ok === false ? source.message || "" : null;
}

/** A stopped camera: a sentence in the camera's place instead of an empty picture, the
 * table kept on the map as last seen, the source's own words behind a tap. */
function renderCameraLost() {
  const message = lostCamera();
  const lost = message !== null;
  byTestId("camera-lost").hidden = !lost || !app.cameraOn;
  const words = byTestId("camera-lost-message");
  if (words.textContent !== (message ?? "")) words.textContent = message ?? "";
  if (lost !== app.cameraLost) {
    const back = app.cameraLost && !lost;
    app.cameraLost = lost;
    if (back) app.cameraAttempt += 1; // the picture asked afresh
    renderCameraFrame();
  }
}

function renderCameraFrame() {
  const frame = byTestId("camera-frame");
  const image = byTestId("camera-img");
  const cameras = app.state?.cameras ?? [];
  if (app.cameraIndex >= Math.max(cameras.length, 1)) app.cameraIndex = 0;
  const [width, height] = cameras[app.cameraIndex]?.image_size ?? app.state?.image_size ?? [16, 9];
  const shown = app.cameraOn && !app.cameraLost;
  frame.style.aspectRatio = `${width} / ${height}`;
  frame.hidden = !shown;
  byTestId("camera-off").hidden = app.cameraOn;
  byTestId("camera-toggle").textContent = t(app.cameraOn ? "camera.hide" : "camera.show");
  const wanted = shown ? server.streamUrl(app.cameraAttempt, app.cameraIndex) : "";
  if ((image.getAttribute("src") || "") !== wanted) {
    if (wanted) image.setAttribute("src", wanted);
    else image.removeAttribute("src");
  }
}

/** Everything that follows the live state (called on every pushed state). */
function renderLive() {
  renderStatus();
  if (!app.state) return;
  const colourOf = colourOfSide();
  const overlay = currentOverlay();
  const marks = app.editor.marks();
  renderMap(app.views.map, marks ? { ...app.state, terrain: marks.pieces } : app.state, colourOf, overlay);
  renderEdit(app.views.map, app.state, marks);
  renderZoomButtons();
  renderCameraPicker();
  renderCameraLost();
  if (app.cameraOn && !app.cameraLost) renderCamera(app.views.camera, cameraState(app.state), colourOf, overlay);
  renderFigureList(colourOf, overlay);
  renderLegend(colourOf);
  renderSettingsValue();
  const outdated = Boolean(app.answer?.at && hasMoved(app.answer.at));
  if (outdated !== app.outdated) {
    app.outdated = outdated;
    renderResult();
  }
  // The area a figure may reach follows it: asked again once the figure has settled.
  if (app.outdated && app.answer?.question === "reach" && !app.pending) {
    const mover = app.state.figures.find((f) => f.id === app.answer.picks[0]);
    if (mover?.settled && !mover.stale) askReach({ show: false }); // no scroll: not asked
  }
}

function renderAll() {
  translatePage(document);
  byTestId("lang-toggle").setAttribute("aria-label", t("lang.switch.label"));
  renderModes();
  renderHint();
  renderCameraFrame();
  renderResult();
  renderSettingsLabel();
  app.editor.fillPickers();
  app.editor.render();
  renderScenes();
  app.journal.render();
  renderLive();
}

// ---- the result panel -----------------------------------------------------------

// Cells of a grid (hexes H, squares C) are counted whole; lengths to a hundredth.
const GRID_UNITS = new Set(["H", "C"]);
const units = (value, unit) => number(value, GRID_UNITS.has(unit) && Number.isInteger(value) ? 0 : 2);
const mm = (value) => number(value, 1);

function reasonsText(reasons) {
  return list(reasons.map((code) => tOr(`reason.${code}`, code)));
}

function distanceResult(data, [a, b]) {
  const headline = t("result.distance", { a: nameOf(a), b: nameOf(b), units: units(data.distance_units, data.unit), unit: unitWord(data.unit, data.distance_units), mm: mm(data.distance_mm) });
  const details = [t("detail.mode", { mode: tOr(`mode.${data.mode}`, data.mode) })];
  if (data.sigma_mm > 0) details.push(t("detail.sigma", { sigma: number(data.sigma_mm, 1) }));
  return { headline, details, verdict: "neutral" };
}

function fireResult(data, [a, b]) {
  const names = { a: nameOf(a), b: nameOf(b) };
  const headline = t(data.allowed ? "result.fire.yes" : "result.fire.no", names);
  const details = [t("detail.distance", { units: units(data.distance_units, data.unit), unit: unitWord(data.unit, data.distance_units), mm: mm(data.distance_mm) })];
  if (data.reasons?.length) details.push(t("detail.reasons", { reasons: reasonsText(data.reasons) }));
  if (data.band) details.push(t("detail.band", { band: tOr(`band.${data.band}`, data.band) }));
  if (data.allowed && data.pi) details.push(t("detail.pi", { pi: data.pi }));
  if (data.allowed && data.action_points !== null && data.action_points !== undefined) details.push(t("detail.action_points", { pa: data.action_points }));
  if (data.blocked_by?.length) details.push(t("detail.blocked", { names: namesOf(data.blocked_by) }));
  if (data.cover?.length) details.push(t("detail.cover", { names: namesOf(data.cover) }));
  if (data.margin_mm !== null && data.margin_mm !== undefined) details.push(marginDetail(data));
  details.push(...warningLines(data));
  return { headline, details, verdict: data.allowed ? "allowed" : "refused" };
}

/** "Margin from the range limit: 40.6 mm": the margin, and the limit it is measured from
 * (the deciding one among the answer's `margins`). */
function marginDetail(data) {
  let kind = "";
  const margins = data.margins || [];
  if (margins.length) {
    const gap = (m) => Math.abs(m.margin_mm - data.margin_mm);
    kind = String(margins.reduce((a, b) => (gap(b) < gap(a) ? b : a)).what).split(" ")[0];
  }
  return t("detail.margin", { mm: mm(data.margin_mm), limit: tOr(`margin.${kind}`, t("margin.other")) });
}

function moveResult(data, [a], target) {
  const headline = t(data.legal ? "result.move.yes" : "result.move.no", { a: nameOf(a) });
  const details = [];
  if (data.reasons?.length) details.push(t("detail.reasons", { reasons: reasonsText(data.reasons) }));
  if (data.cost_units !== null && data.cost_units !== undefined) {
    details.push(t("detail.cost", { cost: units(data.cost_units, data.unit), allowance: units(data.allowance_units, data.unit), unit: unitWord(data.unit, data.allowance_units), cost_mm: mm(data.cost_mm), allowance_mm: mm(data.allowance_mm) }));
  }
  if (data.blocked_by?.length) details.push(t("detail.path_blocked", { names: namesOf(data.blocked_by) }));
  if (data.margin_mm !== null && data.margin_mm !== undefined) details.push(marginDetail(data));
  if (target) details.push(t("detail.destination", { x: mm(target[0]), y: mm(target[1]) }));
  details.push(...warningLines(data));
  return { headline, details, verdict: data.legal ? "allowed" : "refused" };
}

/** The rules' warnings, worded in the page's language where the catalogue has their
 * code (`warning_codes`), else as the server wrote them. */
function warningLines(data) {
  return (data.warnings || []).map((text, k) => {
    const said = data.warning_codes?.[k];
    const params = Object.fromEntries(Object.entries(said?.params ?? {}).map(([name, value]) => [name, localDigits(value)]));
    const worded = said ? tOr(`warning.${said.code}`, text, params) : text;
    return t("detail.warnings", { text: worded });
  });
}

function reachResult(data, [a]) {
  const empty = !(data.polygons_mm || []).length;
  const headline = empty
    ? t("result.reach.none", { a: nameOf(a) })
    : t("result.reach", { a: nameOf(a), units: units(data.allowance_units, data.unit), unit: unitWord(data.unit, data.allowance_units), mm: mm(data.allowance_mm) });
  return { headline, details: [], verdict: "neutral" };
}

const RESULTS = { distance: distanceResult, fire: fireResult, move: moveResult, reach: reachResult };

function positionNotes(data) {
  const notes = [];
  if (data.moving?.length) notes.push(t("note.moving", { names: namesOf(data.moving) }));
  if (data.stale?.length) notes.push(t("note.stale", { names: namesOf(data.stale) }));
  if (data.pinned?.length) notes.push(t("note.pinned", { names: namesOf(data.pinned) }));
  return notes;
}

function describeAnswer() {
  if (app.error) {
    const { detail, status } = app.error;
    // 422: the rules cannot take this question (two figures of one group, a question
    // the rule system does not have), not a server failing.
    const key = !detail ? "result.offline" : status === 422 ? "result.refused" : "result.error";
    const words = detail ? errorWords(app.error) : detail;
    return { headline: t(key, { detail: words }), details: [], notes: [], verdict: status === 422 ? "refused" : "error" };
  }
  const answer = app.answer;
  if (!answer && app.pending) return { headline: t("hint.wait"), details: [], notes: [], verdict: "pending" };
  if (!answer) return { headline: t("result.empty"), details: [], notes: [], verdict: "empty" };
  const result = RESULTS[answer.question](answer.data, answer.picks, answer.target);
  const notes = positionNotes(answer.data);
  if (app.outdated) notes.push(t("note.outdated"));
  return { ...result, notes };
}

function renderResult() {
  const panel = byTestId("result");
  const answer = app.answer;
  const result = describeAnswer();
  const uncertain = answer?.data.certain === false;
  panel.dataset.verdict = result.verdict;
  panel.dataset.question = answer?.question ?? "";
  panel.dataset.certain = String(!uncertain);
  setData(panel, "allowed", answer?.question === "fire" ? answer.data.allowed : null);
  setData(panel, "legal", answer?.question === "move" ? answer.data.legal : null);
  setData(panel, "distanceMm", answer?.data.distance_mm ?? null);
  byTestId("too-close").hidden = !uncertain;
  byTestId("too-close").textContent = t("too_close");
  byTestId("result-headline").textContent = result.headline;
  byTestId("result-details").replaceChildren(...result.details.map((line) => el("li", {}, line)));
  byTestId("result-notes").replaceChildren(...result.notes.map((line) => el("p", {}, line)));
  byTestId("ask-again").hidden = !(app.outdated && answer && answer.question !== "reach");
}

function setData(node, name, value) {
  if (value === null || value === undefined) delete node.dataset[name];
  else node.dataset[name] = String(value);
}

// ---- asking ---------------------------------------------------------------------

/** Ask the server; resolves to the answer's data, or null (refused, dropped or failed). */
async function send(question, args) {
  const ticket = ++app.ticket;
  app.pending = true;
  app.error = null;
  renderHint();
  renderResult(); // "Asking…" in the answer's place, where the player looks
  const reply = await server.ask(question, args, {}, app.scene?.data ?? null);
  if (ticket !== app.ticket) return null;
  app.pending = false;
  renderHint();
  if (!reply.ok) {
    app.error = { detail: reply.detail, status: reply.status, code: reply.code, params: reply.params };
    app.answer = null;
    renderResult();
    renderLive();
    reveal(byTestId("result"));
    return null;
  }
  return reply.data;
}

function keepAnswer(question, data, picks, target = null, { show = true } = {}) {
  app.answer = { question, data, picks: [...picks], target, at: positionsOf(picks) };
  app.outdated = false;
  renderResult();
  renderLive();
  if (show) reveal(byTestId("result"));
}

/** Scroll `node` into view when part of it is hidden, below the sticky mode bar or past
 * the bottom (an answer after a pick far down the figure list, a small laptop screen). */
function reveal(node) {
  const bar = document.querySelector(".modes")?.getBoundingClientRect().bottom ?? 0;
  const box = node.getBoundingClientRect();
  if (box.top >= bar && box.bottom <= window.innerHeight) return;
  const above = box.top < bar || box.height > window.innerHeight - bar;
  window.scrollBy({ top: above ? box.top - bar - 8 : box.bottom - window.innerHeight + 8 });
}

async function askPair() {
  const question = app.mode === "fire" ? "fire" : "distance";
  const picks = [...app.picks];
  const data = await send(question, picks);
  if (data) keepAnswer(question, data, picks);
}

async function askReach({ show = true } = {}) {
  const picks = [...app.picks];
  const data = await send("reach", picks);
  if (!data) return;
  app.reach = data;
  keepAnswer("reach", data, picks, null, { show });
}

async function askMove(target) {
  const picks = [...app.picks];
  app.cursor = null;
  app.pendingTarget = target;
  renderLive();
  const data = await send("move", [picks[0], target[0].toFixed(1), target[1].toFixed(1)]);
  app.pendingTarget = null;
  if (data) keepAnswer("move", data, picks, target);
}

function askAgain() {
  const answer = app.answer;
  if (!answer) return;
  if (answer.question === "move") askMove(answer.target);
  else if (answer.question === "reach") askReach();
  else askPair();
}

// ---- picking --------------------------------------------------------------------

function clearQuestion() {
  closeChooser();
  app.ticket += 1; // drop any answer still on its way
  app.pending = false;
  app.picks = [];
  app.answer = null;
  app.reach = null;
  app.error = null;
  app.pendingTarget = null;
  app.cursor = null;
  app.outdated = false;
  renderHint();
  renderResult();
  renderLive();
}

function pickForPair(id) {
  if (app.picks.length === 1 && app.picks[0] === id) {
    clearQuestion();
    return;
  }
  if (app.picks.length !== 1) {
    clearQuestion();
    app.picks = [id];
  } else {
    app.picks = [app.picks[0], id];
  }
  renderHint();
  renderLive();
  if (app.picks.length === 2) askPair();
}

function pickMover(id) {
  clearQuestion();
  app.picks = [id];
  renderHint();
  renderLive();
  askReach();
}

function pickFigure(id) {
  if (app.mode === "move") pickMover(id);
  else pickForPair(id);
}

/** Pick the figure a tap meant; when several lie about as near, ask which. */
function offerFigures(ids, event) {
  if (ids.length === 1) pickFigure(ids[0]);
  else if (ids.length > 1) openChooser(ids, event.clientX, event.clientY);
}

function openChooser(ids, clientX, clientY) {
  const chooser = byTestId("chooser");
  const colourOf = colourOfSide();
  const byId = new Map(app.state.figures.map((f) => [f.id, f]));
  byTestId("chooser-list").replaceChildren(
    ...ids.map((id) => {
      const item = figureItem("chooser-figure");
      showFigure(item.firstElementChild, byId.get(id), colourOf);
      return item;
    }),
  );
  chooser.hidden = false;
  // beside the tap, kept on screen
  const { width, height } = chooser.getBoundingClientRect();
  chooser.style.left = `${Math.max(8, Math.min(clientX + 12, window.innerWidth - width - 8))}px`;
  chooser.style.top = `${Math.max(8, Math.min(clientY + 12, window.innerHeight - height - 8))}px`;
  chooser.querySelector("button").focus({ preventScroll: true });
}

function closeChooser() {
  byTestId("chooser").hidden = true;
}

// ---- focus: a control that hides itself once used hands the focus on ----------------

let lastFocused = null;

function shown(node) {
  return node.isConnected && !node.disabled && node.getClientRects().length > 0;
}

/** When the focused control went away (hidden, disabled), focus the next control of its
 * section, else the question's mode: keyboard users keep their place. */
function keepFocus() {
  const active = document.activeElement;
  // The browser may still hold the focus on the control it hid, or have dropped it to
  // the body already.
  if (active && active !== document.body && shown(active)) return;
  if (!lastFocused || shown(lastFocused)) return;
  const section = lastFocused.closest("section, nav, .chooser");
  const nearby = section ? [...section.querySelectorAll("button, input, select, [tabindex]")] : [];
  const next = nearby.find((node) => shown(node) && node !== lastFocused) ?? document.querySelector('.mode-buttons [aria-pressed="true"]');
  next?.focus({ preventScroll: true });
}

function onChooserTap(event) {
  const button = event.target.closest("button[data-id]");
  if (!button) return;
  closeChooser();
  pickFigure(button.dataset.id);
}

function onMapTap(event) {
  if (!app.state) return;
  if (app.pannedAt > app.pressedAt) {
    app.pannedAt = -Infinity; // the click a drag ends with (no new press since): once
    return;
  }
  if (app.editor.tap(event)) return;
  const { map } = app.views;
  if (app.mode === "move" && app.picks.length === 1) {
    // Only a tap on the mover's own disc takes the question back: beside it is a short
    // move (on a phone a whole M.U.S.G. move, or the next hex, lies within a finger).
    const onMover = figureAtMap(map, app.state, event.clientX, event.clientY, ON_FIGURE_PX);
    if (onMover === app.picks[0]) clearQuestion();
    else {
      const target = mapPointMm(map, app.state, event.clientX, event.clientY);
      if (target) askMove(target);
    }
    return;
  }
  offerFigures(figuresAtMap(map, app.state, event.clientX, event.clientY), event);
}

/** Choosing a move's destination by keyboard (the terrain editor takes the keys first
 * while a piece is drawn): with the mover picked, the arrow keys
 * move a destination on the map (5 mm, 25 mm with Shift) from the mover or the last
 * destination, and Enter asks the move there. */
function onMapKey(event) {
  if (app.editor.key(event)) {
    event.preventDefault();
    return;
  }
  const zoomKey = { "+": 2, "=": 2, "-": 0.5, 0: 0 }[event.key];
  if (zoomKey !== undefined && !event.ctrlKey && !event.metaKey) {
    event.preventDefault();
    if (zoomKey) zoomBy(zoomKey);
    else wholeTable();
    return;
  }
  if (app.mode !== "move" || app.picks.length !== 1 || !app.state) return;
  if (event.key === "Enter" && app.cursor) {
    event.preventDefault();
    askMove(app.cursor);
    return;
  }
  const mover = figureById(app.picks[0]);
  const from = app.cursor ?? app.answer?.target ?? (mover ? [mover.x_mm, mover.y_mm] : null);
  const moved = nudged(from ?? [0, 0], event, app.state.table);
  if (!moved) return;
  event.preventDefault();
  if (!from) return;
  app.cursor = moved;
  renderHint();
  renderLive();
}

// ---- zooming the map ----------------------------------------------------------------

const PAN_START_PX = 6; // a finger moving less than this is a tap, not a drag

/** Zoom the map in (factor > 1) or out; in, on the figure picked first if there is one. */
function zoomBy(factor) {
  const { map } = app.views;
  zoomMap(map, factor);
  const picked = factor > 1 ? figureById(app.picks[0]) : null;
  if (picked) centreMap(map, app.state, [picked.x_mm, picked.y_mm]);
  renderLive();
}

function wholeTable() {
  unzoomMap(app.views.map);
  renderLive();
}

/** The zoom buttons that can act: not in beyond the closest, nor out from the whole table. */
function renderZoomButtons() {
  const scale = mapZoom(app.views.map);
  byTestId("map-zoom-in").disabled = scale >= MAX_ZOOM;
  byTestId("map-zoom-out").disabled = scale <= 1;
  byTestId("map-zoom-whole").disabled = scale <= 1;
}

/** Ctrl and the wheel, or two fingers pinching a touchpad, zoom about the pointer; the
 * wheel alone scrolls the page. */
function onMapWheel(event) {
  if (!event.ctrlKey || !app.state) return;
  event.preventDefault();
  zoomMap(app.views.map, Math.exp(-event.deltaY / 200), event.clientX, event.clientY);
  renderLive();
}

function onPanStart(event) {
  app.pressedAt = performance.now();
  if (mapZoom(app.views.map) <= 1 || event.button !== 0) return;
  if (event.target.closest?.('[data-testid="vertex"]')) return; // the editor drags its corners
  app.pan = { id: event.pointerId, x: event.clientX, y: event.clientY, moved: false };
}

function onPanMove(event) {
  const pan = app.pan;
  if (!pan || event.pointerId !== pan.id) return;
  const dx = event.clientX - pan.x;
  const dy = event.clientY - pan.y;
  if (!pan.moved && Math.hypot(dx, dy) < PAN_START_PX) return;
  if (!pan.moved) {
    pan.moved = true;
    app.views.map.svg.setPointerCapture?.(event.pointerId);
  }
  panMap(app.views.map, dx, dy);
  pan.x = event.clientX;
  pan.y = event.clientY;
  renderLive();
}

function onPanEnd(event) {
  const pan = app.pan;
  if (!pan || event.pointerId !== pan.id) return;
  if (pan.moved) app.pannedAt = performance.now();
  app.pan = null;
}

function onCameraTap(event) {
  if (!app.state) return;
  offerFigures(figuresAtCamera(app.views.camera, cameraState(app.state), event.clientX, event.clientY), event);
}

function onFigureListTap(event) {
  const button = event.target.closest("button[data-id]");
  if (button) pickFigure(button.dataset.id);
}

function setMode(mode) {
  app.mode = mode;
  clearQuestion();
  renderModes();
}

// ---- the camera -----------------------------------------------------------------

function toggleCamera() {
  app.cameraOn = !app.cameraOn;
  localStorage.setItem("arbitre.camera", app.cameraOn ? "on" : "off");
  renderCameraFrame();
  renderCameraLost();
  renderLive();
}

/** The state as the chosen camera sees it: its picture's size, each figure where that
 * camera pictures it (none where it does not). */
function cameraState(state) {
  const k = app.cameraIndex;
  if (!k || !state.cameras?.[k]) return state;
  return {
    ...state,
    image_size: state.cameras[k].image_size,
    figures: state.figures.map((f) => ({ ...f, image_px: f.views_px?.[k] ?? null })),
  };
}

/** One button per camera when the table has several: each says whether its camera is
 * live, and the chosen one is the camera shown. */
function renderCameraPicker() {
  const picker = byTestId("camera-picker");
  const cameras = app.state?.cameras ?? [];
  // The buttons are made again only when a camera stops or starts again (a stopped
  // camera's message counts the seconds: only its title follows it, in place).
  const key = JSON.stringify([language(), app.cameraIndex, cameras.map((c) => [c.ok, c.description])]);
  if (picker.dataset.key === key) {
    cameras.forEach((camera, k) => {
      const button = picker.children[k];
      const title = camera.ok ? camera.description : camera.message;
      if (button && button.title !== title) button.title = title;
    });
    return;
  }
  picker.dataset.key = key;
  picker.hidden = cameras.length < 2;
  if (cameras.length < 2) {
    picker.replaceChildren();
    return;
  }
  picker.replaceChildren(
    ...cameras.map((camera, k) => {
      const button = el(
        "button",
        {
          type: "button",
          class: "small camera-pick",
          "data-testid": `camera-pick-${k}`,
          "data-state": camera.ok ? "ok" : "lost",
          "aria-pressed": String(k === app.cameraIndex),
          title: camera.ok ? camera.description : camera.message,
        },
        t(camera.ok ? "camera.pick" : "camera.pick.lost", { n: k + 1 }),
      );
      button.addEventListener("click", () => chooseCamera(k));
      return button;
    }),
  );
}

function chooseCamera(k) {
  if (k === app.cameraIndex) return;
  app.cameraIndex = k;
  renderCameraFrame();
  renderLive();
}

function onCameraError() {
  if (!app.cameraOn) return;
  setTimeout(() => {
    app.cameraAttempt += 1;
    renderCameraFrame();
  }, CAMERA_RETRY_MS);
}

// ---- settings (only with the start-up token) ------------------------------------

function renderSettingsLabel() {
  byTestId("settings").hidden = !app.token;
  byTestId("unit-mm-label").textContent = t("settings.unit_mm", { unit: app.state?.unit ?? "M" });
}

function renderSettingsValue() {
  const input = byTestId("unit-mm");
  if (!app.token || document.activeElement === input || input.dataset.edited) return;
  if (app.state?.unit_mm) input.value = String(app.state.unit_mm).replace(".", language() === "fr" ? "," : ".");
  renderSettingsLabel();
}

async function saveSettings(event) {
  event.preventDefault();
  const input = byTestId("unit-mm");
  const message = byTestId("settings-message");
  // a decimal point, or in French a decimal comma (25.4, 25,4); anything else is refused
  // here, not guessed ("1,000" in English could be a thousand)
  const written = input.value.trim();
  const form = language() === "fr" ? /^\d+([.,]\d+)?$/ : /^\d+(\.\d+)?$/;
  const value = form.test(written) ? Number(written.replace(",", ".")) : NaN;
  const decimals = (written.split(/[.,]/)[1] ?? "").length;
  if (!(value >= 1 && value <= 1000)) {
    message.textContent = t("settings.refused", { detail: t("settings.number") });
    return;
  }
  const reply = await server.putOptions(app.token, { unit_mm: value });
  if (reply.ok) {
    delete input.dataset.edited;
    message.textContent = t("settings.saved", { unit: app.state?.unit ?? "M", mm: number(value, decimals) });
  } else {
    message.textContent = t("settings.refused", { detail: reply.detail ?? "" });
  }
}

// ---- start --------------------------------------------------------------------

function switchLanguage() {
  const next = language() === "fr" ? "en" : "fr";
  setLanguage(next);
  localStorage.setItem("arbitre.lang", next);
  renderAll();
}

function onState(state) {
  const first = !app.state;
  // A state made before the terrain was last saved still holds the old terrain: the
  // saved one stands until the states catch up.
  const saved = app.savedTerrain;
  if (saved && (state.terrain_version ?? 0) < saved.version) {
    const markers = (state.terrain ?? []).filter((piece) => piece.marker != null);
    state = { ...state, terrain: [...saved.terrain, ...markers] };
  } else if (saved) {
    app.savedTerrain = null; // the states hold it now: theirs is the terrain again
  }
  app.live = state;
  app.state = shownState();
  if (first) renderAll();
  else renderLive();
}

// ---- scene files ------------------------------------------------------------------

/** The state the page shows: the live table's, or the loaded scene's with the live source. */
function shownState() {
  if (!app.scene) return app.live;
  const live = app.live ?? {};
  return {
    ...app.scene.view,
    source: live.source ?? { description: "", ok: false, message: "" },
    cameras: live.cameras ?? [],
    fps: live.fps ?? 0,
    image_size: live.image_size ?? [16, 9],
  };
}

function renderScenes() {
  const banner = byTestId("scene-banner");
  const from = app.scene?.journaled ? "journal" : "scenes"; // a journaled table, or a file
  banner.hidden = !app.scene;
  banner.textContent = app.scene ? t(`${from}.loaded`, { name: app.scene.name }) : "";
  byTestId("scene-back").hidden = !app.scene;
  // The same, in the sticky bar: a scene is never taken for the live table.
  byTestId("scene-flag").hidden = !app.scene;
  byTestId("scene-flag-text").textContent = app.scene ? t(`${from}.flag`, { name: app.scene.name }) : "";
  document.body.classList.toggle("scene-shown", Boolean(app.scene));
}

function sceneMessage(text, kind = "") {
  const node = byTestId("scene-message");
  node.textContent = text;
  node.dataset.kind = kind;
}

async function loadSceneFile(event) {
  const input = event.target;
  const file = input.files?.[0];
  input.value = ""; // the same file may be loaded again after a change
  if (!file) return;
  sceneMessage(t("scenes.reading", { name: file.name }));
  const reply = await server.readScene(file.name, await file.text());
  if (!reply.ok) {
    sceneMessage(t("scenes.refused", { detail: reply.detail ?? "" }), "refused");
    return;
  }
  sceneMessage("");
  app.scene = { name: file.name, data: reply.data.scene, view: reply.data.view };
  showScene();
  reveal(document.querySelector(".map-view")); // the file was chosen far below the map
}

function backToLive() {
  app.scene = null;
  sceneMessage(t("scenes.live"));
  showScene();
  app.journal.closed();
}

/** Show a journaled table on the map (`asked`: the question asked on it, with its answer,
 * drawn as the page draws its own; null for a settled state); false if it cannot be read. */
async function showJournaled(name, scene, asked) {
  const reply = await server.readScene(name, JSON.stringify(scene));
  if (!reply.ok) {
    byTestId("journal-message").textContent = t("journal.failed", { detail: reply.detail ?? "" });
    return false;
  }
  app.scene = { name, data: reply.data.scene, view: reply.data.view, journaled: true };
  showScene();
  const question = asked?.question;
  if (asked && asked.status === 200 && RESULTS[question]) {
    const moving = question === "move" || question === "reach";
    app.picks = moving ? asked.args.slice(0, 1) : asked.args.slice(0, 2);
    const target = question === "move" ? asked.args.slice(1, 3).map(Number) : null;
    if (question === "reach") app.reach = asked.answer;
    keepAnswer(question, asked.answer, app.picks, target, { show: false });
  }
  return true;
}

function showScene() {
  clearQuestion();
  app.state = shownState();
  app.views.map.drawnFor = null;
  renderAll();
}

function onConnection(status) {
  const reconnected = status === "open" && app.connection === "closed";
  app.connection = status;
  if (status !== "open") app.savedTerrain = null; // a server started again counts from 0
  if (reconnected && app.cameraOn) {
    app.cameraAttempt += 1;
    renderCameraFrame();
  }
  renderStatus();
}

function wire() {
  for (const mode of MODES) byTestId(`mode-${mode}`).addEventListener("click", () => setMode(mode));
  byTestId("clear").addEventListener("click", clearQuestion);
  byTestId("ask-again").addEventListener("click", askAgain);
  byTestId("lang-toggle").addEventListener("click", switchLanguage);
  byTestId("camera-toggle").addEventListener("click", toggleCamera);
  byTestId("camera-img").addEventListener("error", onCameraError);
  byTestId("map").addEventListener("click", onMapTap);
  byTestId("map").addEventListener("wheel", onMapWheel, { passive: false });
  byTestId("map").addEventListener("pointerdown", onPanStart);
  byTestId("map").addEventListener("pointermove", onPanMove);
  byTestId("map").addEventListener("pointerup", onPanEnd);
  byTestId("map").addEventListener("pointercancel", onPanEnd);
  byTestId("map-zoom-in").addEventListener("click", () => zoomBy(2));
  byTestId("map-zoom-out").addEventListener("click", () => zoomBy(0.5));
  byTestId("map-zoom-whole").addEventListener("click", wholeTable);
  byTestId("map").addEventListener("keydown", onMapKey);
  // The map takes the focus from the keyboard only: focused by a click, it would scroll
  // itself into view under the finger between the press and the tap.
  byTestId("map").addEventListener("mousedown", (event) => event.preventDefault());
  byTestId("chooser").addEventListener("click", onChooserTap);
  document.addEventListener("focusin", (event) => {
    if (event.target instanceof HTMLElement && event.target !== document.body) lastFocused = event.target;
  });
  for (const type of ["click", "keyup"]) document.addEventListener(type, () => setTimeout(keepFocus));
  // a tap anywhere else, or Escape, puts the chooser away
  document.addEventListener("pointerdown", (event) => {
    if (!event.target.closest('[data-testid="chooser"]')) closeChooser();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closeChooser();
  });
  byTestId("camera-overlay").addEventListener("click", onCameraTap);
  byTestId("figure-list").addEventListener("click", onFigureListTap);
  byTestId("settings-form").addEventListener("submit", saveSettings);
  byTestId("scene-file").addEventListener("change", loadSceneFile);
  byTestId("scene-back").addEventListener("click", backToLive);
  byTestId("scene-flag-back").addEventListener("click", backToLive);
  app.editor.wire();
  app.journal.wire();
  byTestId("unit-mm").addEventListener("input", (event) => {
    event.target.dataset.edited = "true";
  });
  new ResizeObserver(() => renderLive()).observe(byTestId("views"));
  // The sticky bar's height, which the map keeps clear of on a phone held sideways.
  const bar = document.querySelector("nav.modes");
  new ResizeObserver(() => document.documentElement.style.setProperty("--bar-height", `${bar.offsetHeight}px`)).observe(bar);
}

function start() {
  setLanguage(initialLanguage(localStorage.getItem("arbitre.lang"), navigator.languages || [navigator.language]));
  app.views.map = createMap(byTestId("map"));
  app.views.camera = createCamera(byTestId("camera-overlay"));
  app.journal = createJournal({
    byTestId,
    figures: () => (app.live?.figures ?? []).map((f) => f.id),
    show: showJournaled,
    shown: () => (app.scene?.journaled ? app.scene.name : null),
    token: () => app.token,
    pins: () => app.live?.pins ?? [],
  });
  app.editor = createEditor({
    byTestId,
    view: app.views.map,
    getState: () => app.state,
    token: () => app.token,
    blocked: () => Boolean(app.scene),
    onChange: () => renderLive(),
    onSaved: (terrain, version) => {
      app.savedTerrain = { terrain, version };
    },
  });
  wire();
  renderAll();
  server.fetchState().then(onState).catch(() => {});
  server.followState(onState, onConnection);
}

start();
