// The game journal on the page: the evening's questions (newest first, filtered by
// figure), one opened with its answer, the camera's picture and the map as they were,
// and a slider replaying the table each time a figure came to rest (GET /api/journal).
// The section stays hidden when the server keeps no journal.

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
 * it could; `shown()` is the name of the journal table shown, or null.
 */
export function createJournal({ byTestId, figures, show, shown }) {
  let kept = false; // the server keeps a journal
  let questions = []; // listed, newest first
  let nextBefore = null;
  let stats = null;
  let states = []; // the timeline: {id, time, figures}
  let opened = null; // the question opened, whole
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
    byTestId("journal-message").textContent = name ? t("journal.showing", { name }) : "";
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
    await show(t("journal.question_name", { id, time: clock(opened.time) }), opened.scene, opened);
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
      await show(t("journal.state_name", { time: clock(state.time) }), reply.data.scene, null);
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
    setInterval(() => {
      if (kept && !document.hidden) refresh({ keepPages: true });
    }, REFRESH_MS);
    refresh();
  }

  /** Back to the live table: nothing journaled is shown any more. */
  function closed() {
    ticket += 1;
    opened = null;
    render();
  }

  return { wire, render, refresh, closed };
}
