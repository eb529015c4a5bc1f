// Talking to the arbitre server: questions, options and the pushed state.
// URLs are relative to the page, so the page also works behind a path prefix.

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 5000;

function apiUrl(path) {
  return new URL(path, document.baseURI).toString();
}

async function readDetail(response) {
  return (await readRefusal(response)).detail;
}

/** A refusal's body: its English `detail`, and its `code` and `params` when it has them. */
async function readRefusal(response) {
  try {
    const body = await response.json();
    const detail = typeof body.detail === "string" ? body.detail : JSON.stringify(body.detail ?? body);
    return { detail, code: body.code ?? null, params: body.params ?? {} };
  } catch {
    return { detail: `HTTP ${response.status}`, code: null, params: {} };
  }
}

/**
 * POST a question, on the live table or on `scene` (the data of a scene file) when given;
 * resolves to {ok: true, data} or {ok: false, detail}.
 */
export async function ask(question, args, extras = {}, scene = null) {
  const body = { question, args: args.map(String), extras };
  if (scene) body.scene = scene;
  try {
    const response = await fetch(apiUrl("api/ask"), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) return { ok: false, status: response.status, ...(await readRefusal(response)) };
    return { ok: true, data: await response.json() };
  } catch (error) {
    return { ok: false, status: 0, detail: null };
  }
}

/** PUT new ruleset options with the start-up token. */
export async function putOptions(token, options) {
  try {
    const response = await fetch(apiUrl("api/options"), {
      method: "PUT",
      headers: { "Content-Type": "application/json", "X-Arbitre-Token": token },
      body: JSON.stringify({ options }),
    });
    if (!response.ok) return { ok: false, status: response.status, detail: await readDetail(response) };
    return { ok: true, data: await response.json() };
  } catch (error) {
    return { ok: false, status: 0, detail: String(error) };
  }
}

/** PUT the whole fixed terrain with the start-up token. */
export async function putTerrain(token, terrain) {
  try {
    const response = await fetch(apiUrl("api/terrain"), {
      method: "PUT",
      headers: { "Content-Type": "application/json", "X-Arbitre-Token": token },
      body: JSON.stringify({ terrain }),
    });
    if (!response.ok) return { ok: false, status: response.status, detail: await readDetail(response) };
    return { ok: true, data: await response.json() };
  } catch (error) {
    return { ok: false, status: 0, detail: String(error) };
  }
}

/** Have the server read a scene file's text: {ok: true, data: {scene, view}} or {ok: false, detail}. */
export async function readScene(name, text) {
  try {
    const url = new URL(apiUrl("api/scene/read"));
    url.searchParams.set("name", name);
    const response = await fetch(url, { method: "POST", headers: { "Content-Type": "text/plain" }, body: text });
    if (!response.ok) return { ok: false, status: response.status, detail: await readDetail(response) };
    return { ok: true, data: await response.json() };
  } catch (error) {
    return { ok: false, status: 0, detail: String(error) };
  }
}

export async function fetchState() {
  const response = await fetch(apiUrl("api/state"));
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}

/** The URL of a camera's stream, without the server's own drawings (the page draws its own). */
export function streamUrl(attempt = 0, camera = 0) {
  const url = new URL(apiUrl("api/stream.mjpg"));
  url.searchParams.set("overlays", "false");
  if (camera) url.searchParams.set("camera", String(camera));
  if (attempt) url.searchParams.set("retry", String(attempt));
  return url.toString();
}

/**
 * Follow the state pushed on the WebSocket, reconnecting (with a growing pause)
 * whenever it closes. `onState(state)` gets each state, `onConnection(status)`
 * gets "open" or "closed".
 */
export function followState(onState, onConnection) {
  let pause = RECONNECT_MIN_MS;
  const url = new URL(apiUrl("api/ws"));
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";

  function connect() {
    const socket = new WebSocket(url);
    socket.addEventListener("open", () => {
      pause = RECONNECT_MIN_MS;
      onConnection("open");
    });
    socket.addEventListener("message", (event) => {
      try {
        onState(JSON.parse(event.data));
      } catch {
        // a malformed message is skipped; the next one replaces it
      }
    });
    socket.addEventListener("close", () => {
      onConnection("closed");
      setTimeout(connect, pause);
      pause = Math.min(pause * 2, RECONNECT_MAX_MS);
    });
  }
  connect();
}

/** GET a JSON route: {ok: true, data} or {ok: false, status, detail}. */
async function getJson(url) {
  try {
    const response = await fetch(url);
    if (!response.ok) return { ok: false, status: response.status, detail: await readDetail(response) };
    return { ok: true, data: await response.json() };
  } catch (error) {
    return { ok: false, status: 0, detail: String(error) };
  }
}

/** The journal's questions, newest first (`before`: the next page; `figure`: only those
 * about it), with its size and counts; 404 when the server keeps no journal. */
export function journal({ limit = 20, before = null, figure = null } = {}) {
  const url = new URL(apiUrl("api/journal"));
  url.searchParams.set("limit", String(limit));
  if (before !== null) url.searchParams.set("before", String(before));
  if (figure) url.searchParams.set("figure", figure);
  return getJson(url);
}

/** A journaled question whole: its answer and the scene it was asked on. */
export function journalQuestion(id) {
  return getJson(apiUrl(`api/journal/${id}`));
}

/** The settled states' timeline, oldest first. */
export function journalStates() {
  return getJson(apiUrl("api/journal/states"));
}

/** A settled state whole, with its scene. */
export function journalState(id) {
  return getJson(apiUrl(`api/journal/states/${id}`));
}

/** Put a figure back where it stood in the journal (`where`: {state} or {question}), with
 * the start-up token. */
export async function pinFigure(token, figure, where) {
  return sendJson("POST", apiUrl("api/journal/pins"), token, { figure, ...where });
}

/** Release a pinned figure, with the start-up token. */
export async function releasePin(token, figure) {
  return sendJson("DELETE", apiUrl(`api/journal/pins/${encodeURIComponent(figure)}`), token, null);
}

async function sendJson(method, url, token, body) {
  try {
    const headers = { "X-Arbitre-Token": token };
    if (body !== null) headers["Content-Type"] = "application/json";
    const response = await fetch(url, { method, headers, body: body === null ? undefined : JSON.stringify(body) });
    if (!response.ok) return { ok: false, status: response.status, detail: await readDetail(response) };
    return { ok: true, data: await response.json() };
  } catch (error) {
    return { ok: false, status: 0, detail: String(error) };
  }
}
