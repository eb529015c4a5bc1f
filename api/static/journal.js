// The game journal on the page: the evening's questions (newest first, filtered by
// figure), one opened with its answer, the camera's picture and the map as they were,
// and a slider replaying the table each time a figure came to rest (GET /api/journal); a
// figure of a journaled table put back where it stood (a knocked-over figure), with the
// token. The section stays hidden when the server keeps no journal.

import { el } from "./dom.js";
import { language, number, t } from "./i18n.js";
import * as server from "./server.js";

const PAGE = 20; // questions listed at once
const REFRESH_MS = 5000; // the list and the timeline follow the evening
const REPLAY_DELAY_MS = 150; // the slider shows a state once it rests this long

/** A journal time (seconds since 1970) as the browser words a time of day. */
function clock(seconds) {
  return new Date(seconds * 1000).toLocaleTimeString(language(), { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/**
 * The journal section. `figures()` gives the live table's figure ids (the filter's
 * choices); `show(name, scene, asked)` shows a journaled table on the map (`asked`: the
 * question and answer asked on it, or null for a settled state) and resolves to whether
 * it could; `shown()` is the name of the journal table shown, or null; `token()` the
 * start-up token (null: no figure can be put back); `pins()` the live state's pinned
 * figures.
 */
export function createJournal({ byTestId, figures, show, shown, token, pins }) {
  let kept = false; // the server keeps a journal
  let questions = []; // listed, newest first
  let nextBefore = null;
  let stats = null;
  let states = []; // the timeline: {id, time, figures}
  let opened = null; // the question opened, whole
  let entry = null; // the journaled table shown: {where: {question} or {state}, figures}
  let replayTimer = null;
  let ticket = 0;

  const section = () => byTestId("journal");

  async function refresh({ keepPages = false } = {}) {
    const figure = byTestId("journal-figure").value || null;
    const reply = await server.journal({ limit: keepPages ? Math.max(PAGE, questions.length) : PAGE, figure });
    if (!reply.ok) {
      kept = reply.status !== 404 && kept;
      if (reply.status === 404) render();
      return;
    }
    kept = true;
    questions = reply.data.questions;
    nextBefore = reply.data.next_before;
    stats = reply.data.journal;
    const timeline = await server.journalStates();
    if (timeline.ok) states = timeline.data.states;
    render();
  }

  async function more() {
    if (nextBefore === null) return;
    const figure = byTestId("journal-figure").value || null;
    const reply = await server.journal({ limit: PAGE, figure, before: nextBefore });
    if (!reply.ok) return;
    questions = [...questions, ...reply.data.questions];
    nextBefore = reply.data.next_before;
    render();
  }

  function questionWords(q) {
    return [q.question, ...q.args].join(" ");
  }

  function renderList() {
    const list = byTestId("journal-list");
    list.replaceChildren(
      ...questions.map((q) =>
        el(
          "li",
          {},
          el(
            "button",
            { type: "button", class: "journal-item", "data-testid": "journal-item", "data-id": q.id, "data-status": q.status, "aria-pressed": String(opened?.id === q.id) },
            el("span", { class: "journal-time" }, clock(q.time)),
            " ",
            el("strong", {}, questionWords(q)),
            el("span", { class: "journal-message" }, q.message ?? ""),
          ),
        ),
      ),
    );
    byTestId("journal-none").hidden = questions.length > 0;
    byTestId("journal-more").hidden = nextBefore === null;
  }

  function renderFilter() {
    const select = byTestId("journal-figure");
    const chosen = select.value;
    const ids = [...new Set([...figures(), ...(chosen ? [chosen] : [])])].sort();
    const options = [el("option", { value: "" }, t("journal.all")), ...ids.map((id) => el("option", { value: id }, id))];
    if (select.options.length !== options.length || [...select.options].some((o, k) => o.value !== options[k].value)) {
      select.replaceChildren(...options);
      select.value = chosen;
    } else {
      select.options[0].textContent = t("journal.all");
    }
  }

  function renderEntry() {
    const entry = byTestId("journal-entry");
    entry.hidden = !opened;
    if (!opened) return;
    entry.dataset.id = String(opened.id);
    entry.dataset.status = String(opened.status);
    byTestId("journal-entry-title").textContent = t("journal.question", { id: opened.id, time: clock(opened.time), question: questionWords(opened) });
    const refused = opened.status !== 200;
    byTestId("journal-entry-answer").textContent = refused ? t("journal.refused", { detail: opened.message ?? "" }) : opened.message ?? "";
    const picture = byTestId("journal-frame");
    picture.hidden = !opened.frame;
    if (opened.frame) picture.src = `api/journal/${opened.id}/frame.jpg`;
    else picture.removeAttribute("src");
    byTestId("journal-no-frame").hidden = opened.frame;
  }

  function renderTimeline() {
    const slider = byTestId("journal-slider");
    byTestId("journal-replay").hidden = states.length === 0;
    slider.max = String(Math.max(states.length - 1, 0));
    if (Number(slider.value) > states.length - 1) slider.value = slider.max;
    const state = states[Number(slider.value)];
    byTestId("journal-slider-time").textContent = state ? t("journal.state", { time: clock(state.time), n: Number(slider.value) + 1, total: states.length }) : "";
  }

  function render() {
    section().hidden = !kept;
    if (!kept) return;
    byTestId("journal-stats").textContent = stats
      ? t("journal.stats", { questions: stats.questions, states: stats.settled, mb: number(stats.size_bytes / 1e6, 1) })
      : "";
    renderFilter();
    renderList();
    renderEntry();
    renderTimeline();
    const name = shown();
    if (!name) entry = null;
    byTestId("journal-message").textContent = name ? t("journal.showing", { name }) : "";
    renderPins();
  }

  /** Putting a figure of the journaled table back, and the figures pinned now. */
  function renderPins() {
    const canPin = Boolean(entry && token());
    byTestId("journal-put-back").hidden = !canPin;
    if (canPin) {
      const select = byTestId("journal-pin-figure");
      const chosen = select.value;
      const ids = [...entry.figures].sort();
      if ([...select.options].map((o) => o.value).join("\n") !== ids.join("\n")) {
        select.replaceChildren(...ids.map((id) => el("option", { value: id }, id)));
        if (ids.includes(chosen)) select.value = chosen;
      }
    }
    const pinned = pins();
    byTestId("journal-pins").replaceChildren(
      ...pinned.map((pin) =>
        el(
          "li",
          { "data-testid": "journal-pinned", "data-figure": pin.figure },
          t("journal.pinned", { figure: pin.figure, time: clock(pin.time) }),
          token() ? el("button", { type: "button", class: "small", "data-testid": "journal-release", "data-figure": pin.figure }, t("journal.release")) : null,
        ),
      ),
    );
  }

  async function putBack() {
    if (!entry || !token()) return;
    const figure = byTestId("journal-pin-figure").value;
    const reply = await server.pinFigure(token(), figure, entry.where);
    byTestId("journal-pin-message").textContent = reply.ok
      ? t("journal.put_back", { figure, time: clock(reply.data.time) })
      : t("journal.failed", { detail: reply.detail ?? "" });
  }

  async function release(figure) {
    const reply = await server.releasePin(token(), figure);
    byTestId("journal-pin-message").textContent = reply.ok ? t("journal.released", { figure }) : t("journal.failed", { detail: reply.detail ?? "" });
  }

  async function open(id) {
    const mine = ++ticket;
    const reply = await server.journalQuestion(id);
    if (mine !== ticket) return;
    if (!reply.ok) {
      byTestId("journal-message").textContent = t("journal.failed", { detail: reply.detail ?? "" });
      return;
    }
    opened = reply.data;
    render();
    if (await show(t("journal.question_name", { id, time: clock(opened.time) }), opened.scene, opened)) {
      entry = { where: { question: id }, figures: (opened.scene.figures ?? []).map((f) => f.id) };
    }
    render();
  }

  function replay() {
    clearTimeout(replayTimer);
    renderTimeline();
    replayTimer = setTimeout(async () => {
      const state = states[Number(byTestId("journal-slider").value)];
      if (!state) return;
      const mine = ++ticket;
      const reply = await server.journalState(state.id);
      if (mine !== ticket || !reply.ok) return;
      opened = null;
      if (await show(t("journal.state_name", { time: clock(state.time) }), reply.data.scene, null)) {
        entry = { where: { state: state.id }, figures: (reply.data.scene.figures ?? []).map((f) => f.id) };
      }
      render();
    }, REPLAY_DELAY_MS);
  }

  function wire() {
    byTestId("journal-list").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-id]");
      if (button) open(Number(button.dataset.id));
    });
    byTestId("journal-figure").addEventListener("change", () => refresh());
    byTestId("journal-refresh").addEventListener("click", () => refresh());
    byTestId("journal-more").addEventListener("click", more);
    byTestId("journal-slider").addEventListener("input", replay);
    byTestId("journal-pin").addEventListener("click", putBack);
    byTestId("journal-pins").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-figure]");
      if (button) release(button.dataset.figure);
    });
    setInterval(() => {
      if (kept && !document.hidden) refresh({ keepPages: true });
    }, REFRESH_MS);
    refresh();
  }

  /** Back to the live table: nothing journaled is shown any more. */
  function closed() {
    ticket += 1;
    opened = null;
    entry = null;
    render();
  }

  return { wire, render, refresh, closed };
}
