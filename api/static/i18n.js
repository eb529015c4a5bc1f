// Every string the page shows, in English and French (the rule books are French), from
// strings.json: the one catalogue, which the command line reads too (`arbitre ask --lang fr`).
// Placeholders are written {name} and filled by t(key, {name: value}).

const STRINGS = await loadStrings();

/** The catalogue, fetched from beside this module; without it the page shows the keys. */
async function loadStrings() {
  try {
    const reply = await fetch(new URL("./strings.json", import.meta.url));
    if (reply.ok) return await reply.json();
    console.error(`strings.json: HTTP ${reply.status}`);
  } catch (error) {
    console.error("strings.json:", error);
  }
  return { en: {} };
}

export const LANGUAGES = Object.keys(STRINGS);

let current = "en";

/** The language to start with: the saved choice, else the browser's, else English. */
export function initialLanguage(saved, browserLanguages) {
  if (LANGUAGES.includes(saved)) return saved;
  for (const tag of browserLanguages || []) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export function setLanguage(lang) {
  current = LANGUAGES.includes(lang) ? lang : "en";
}

export function language() {
  return current;
}

/** The text of `key` in the current language, with {placeholders} filled. */
export function t(key, params = {}) {
  const text = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The text of `key` if the table has it, else `fallback` (for codes the server may add). */
export function tOr(key, fallback, params = {}) {
  return key in STRINGS[current] ? t(key, params) : fallback;
}

/** A number the server wrote in English ("12.5"), as this language writes it. */
export function localDigits(text) {
  return current === "fr" ? String(text).replace(/^(-?\d+)\.(\d+)$/, "$1,$2") : String(text);
}

/** A number in the current language's notation, with exactly `digits` decimals. */
export function number(value, digits) {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return new Intl.NumberFormat(current === "fr" ? "fr-FR" : "en-GB", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    useGrouping: false,
  }).format(value);
}

/** A list of words joined the current language's way. */
export function list(items) {
  return items.join(t("list.separator"));
}

/** Whether `value` takes the singular: 1 in English, below 2 in French. */
function one(value) {
  return current === "fr" ? Math.abs(value) < 2 : value === 1;
}

/** `n` and its noun (count.{noun}.one / .other in the catalogue). */
export function count(noun, n) {
  return t(`count.${noun}.${one(n) ? "one" : "other"}`, { n });
}

/** A unit's name after `value` as this language writes it (M.U.S.G.'s pas are paces in English). */
export function unitWord(unit, value) {
  const form = typeof value === "number" && one(value) ? "one" : "other";
  return tOr(`unit.${unit}.${form}`, unit ?? "");
}

/**
 * A refusal of the server in this language: error.{code} of the catalogue with its params
 * when the server gave a code the catalogue words, else its English detail.
 */
export function errorWords({ detail, code, params }) {
  if (!code || !(`error.${code}` in STRINGS[current])) return detail;
  const words = { ...params };
  if (Array.isArray(words.nearest)) {
    const names = words.nearest.map((name) => `'${name}'`).join(t("list.or"));
    words.meant = names ? t("error.meant", { names }) : "";
    delete words.nearest;
  }
  if (code === "argument_count") words.count = count("argument", Number(words.count));
  return t(`error.${code}`, words);
}

/** Fill the static texts of the page: data-i18n (text), data-i18n-label (aria-label). */
export function translatePage(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    node.textContent = t(node.dataset.i18n);
  }
  for (const node of root.querySelectorAll("[data-i18n-label]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  }
  for (const node of root.querySelectorAll("[data-i18n-alt]")) {
    node.setAttribute("alt", t(node.dataset.i18nAlt));
  }
  root.documentElement.lang = current;
}
