// Every string the page shows, in English and French (the rule books are French).
// Placeholders are written {name} and filled by t(key, {name: value}).

const STRINGS = {
  en: {
    "app.title": "arbitre",
    "lang.switch": "FR",
    "lang.switch.label": "Passer en français",
    "status.connecting": "connecting…",
    "status.ok": "camera ok",
    "status.lost": "camera lost",
    "status.offline": "server unreachable",
    "status.fps": "{fps} fps",
    "mode.label": "Question",
    "mode.distance": "Distance",
    "mode.fire": "Fire",
    "mode.move": "Move",
    "action.clear": "Clear",
    "action.again": "Ask again",
    "action.save": "Save",
    "camera.title": "Camera",
    "camera.hide": "Hide camera",
    "camera.show": "Show camera",
    "camera.alt": "Live camera view of the table",
    "camera.off": "Camera view hidden.",
    "map.title": "Table",
    "map.label": "Top-down map of the table; tap the figures",
    "figures.title": "Figures",
    "figures.none": "No figure seen yet.",
    "legend.title": "Legend",
    "legend.stale": "hidden (last seen)",
    "legend.moving": "moving",
    "hint.distance.0": "Distance: tap a figure.",
    "hint.distance.1": "Distance: tap the second figure.",
    "hint.fire.0": "Fire: tap the shooter.",
    "hint.fire.1": "Fire: tap the target.",
    "hint.move.0": "Move: tap the figure that moves.",
    "hint.move.1": "Move: tap where it should go on the map.",
    "hint.wait": "Asking…",
    "result.empty": "Answers appear here.",
    "result.error": "The server could not answer: {detail}",
    "result.offline": "The server cannot be reached.",
    "result.distance": "{a} → {b}: {units} {unit} ({mm} mm)",
    "result.fire.yes": "{a} may fire at {b}",
    "result.fire.no": "{a} may not fire at {b}",
    "result.move.yes": "{a} may move there",
    "result.move.no": "{a} may not move there",
    "result.reach": "{a} may move within the shaded area ({units} {unit}, {mm} mm)",
    "result.reach.none": "{a} cannot move anywhere",
    "too_close": "Too close to call: measure by hand",
    "detail.distance": "Distance: {units} {unit} ({mm} mm)",
    "detail.sigma": "Camera precision: ± {sigma} mm",
    "detail.mode": "Measured: {mode}",
    "detail.band": "Range band: {band}",
    "detail.pi": "Impact points (PI): {pi}",
    "detail.reasons": "Why: {reasons}",
    "detail.blocked": "Line blocked by: {names}",
    "detail.path_blocked": "Blocked by: {names}",
    "detail.cover": "Cover: {names}",
    "detail.margin": "Margin: {mm} mm",
    "detail.warnings": "Note: {text}",
    "detail.cost": "Cost: {cost} {unit} of {allowance} {unit} ({cost_mm} mm of {allowance_mm} mm)",
    "detail.destination": "Destination: x {x} mm, y {y} mm",
    "note.moving": "Still moving: {names}. Ask again once they stand still.",
    "note.stale": "Hidden from the camera, last seen position used: {names}.",
    "note.outdated": "Figures have moved since this answer.",
    "mode.reference": "from reference figure to reference figure",
    "mode.edge": "edge to edge",
    "mode.centre": "centre to centre",
    "band.normal": "normal range",
    "band.sniper": "snipers only",
    "kind.wood": "wood",
    "kind.impassable": "impassable",
    "kind.difficult": "difficult",
    "kind.obstacle": "obstacle",
    "kind.building": "building",
    "figure.stale": "hidden {age} s",
    "figure.moving": "moving",
    "figure.group": "group {group}",
    "side.none": "no side",
    "settings.title": "Settings",
    "settings.unit_mm": "Length of 1 {unit} in mm",
    "settings.saved": "Saved: 1 {unit} = {mm} mm.",
    "settings.refused": "Refused: {detail}",
    "list.separator": ", ",
    "reason.out_of_range": "out of range",
    "reason.no_shooters": "no figure of the group can shoot",
    "reason.in_contact_with_enemy": "the shooter is in contact with an enemy",
    "reason.target_in_contact": "the target is in contact (melee)",
    "reason.target_not_enemy": "the target is not an enemy",
    "reason.line_blocked": "the line of fire is blocked",
    "reason.not_in_arc": "the target is outside the firing arc",
    "reason.not_visible": "the target cannot be seen",
    "reason.over_allowance": "too far for one move",
    "reason.path_blocked": "no way through",
    "reason.destination_occupied": "the destination is occupied",
    "reason.impassable": "impassable terrain",
    "reason.off_table": "off the table",
  },
  fr: {
    "app.title": "arbitre",
    "lang.switch": "EN",
    "lang.switch.label": "Switch to English",
    "status.connecting": "connexion…",
    "status.ok": "caméra ok",
    "status.lost": "caméra perdue",
    "status.offline": "serveur injoignable",
    "status.fps": "{fps} i/s",
    "mode.label": "Question",
    "mode.distance": "Distance",
    "mode.fire": "Tir",
    "mode.move": "Mouvement",
    "action.clear": "Effacer",
    "action.again": "Redemander",
    "action.save": "Enregistrer",
    "camera.title": "Caméra",
    "camera.hide": "Masquer la caméra",
    "camera.show": "Afficher la caméra",
    "camera.alt": "Vue de la caméra sur la table",
    "camera.off": "Vue de la caméra masquée.",
    "map.title": "Table",
    "map.label": "Plan de la table vu de dessus ; touchez les figurines",
    "figures.title": "Figurines",
    "figures.none": "Aucune figurine vue pour l'instant.",
    "legend.title": "Légende",
    "legend.stale": "cachée (dernière position)",
    "legend.moving": "en mouvement",
    "hint.distance.0": "Distance : touchez une figurine.",
    "hint.distance.1": "Distance : touchez la seconde figurine.",
    "hint.fire.0": "Tir : touchez le tireur.",
    "hint.fire.1": "Tir : touchez la cible.",
    "hint.move.0": "Mouvement : touchez la figurine qui bouge.",
    "hint.move.1": "Mouvement : touchez sur le plan l'endroit visé.",
    "hint.wait": "Question en cours…",
    "result.empty": "Les réponses s'affichent ici.",
    "result.error": "Le serveur n'a pas pu répondre : {detail}",
    "result.offline": "Le serveur est injoignable.",
    "result.distance": "{a} → {b} : {units} {unit} ({mm} mm)",
    "result.fire.yes": "{a} peut tirer sur {b}",
    "result.fire.no": "{a} ne peut pas tirer sur {b}",
    "result.move.yes": "{a} peut aller là",
    "result.move.no": "{a} ne peut pas aller là",
    "result.reach": "{a} peut aller dans la zone colorée ({units} {unit}, {mm} mm)",
    "result.reach.none": "{a} ne peut aller nulle part",
    "too_close": "Trop serré pour trancher : mesurez à la main",
    "detail.distance": "Distance : {units} {unit} ({mm} mm)",
    "detail.sigma": "Précision de la caméra : ± {sigma} mm",
    "detail.mode": "Mesure : {mode}",
    "detail.band": "Portée : {band}",
    "detail.pi": "Points d'impact (PI) : {pi}",
    "detail.reasons": "Pourquoi : {reasons}",
    "detail.blocked": "Ligne de tir bloquée par : {names}",
    "detail.path_blocked": "Bloqué par : {names}",
    "detail.cover": "Couvert : {names}",
    "detail.margin": "Marge : {mm} mm",
    "detail.warnings": "Remarque : {text}",
    "detail.cost": "Coût : {cost} {unit} sur {allowance} {unit} ({cost_mm} mm sur {allowance_mm} mm)",
    "detail.destination": "Destination : x {x} mm, y {y} mm",
    "note.moving": "Encore en mouvement : {names}. Redemandez quand elles sont immobiles.",
    "note.stale": "Cachées de la caméra, dernière position utilisée : {names}.",
    "note.outdated": "Des figurines ont bougé depuis cette réponse.",
    "mode.reference": "de figurine de référence à figurine de référence",
    "mode.edge": "bord à bord",
    "mode.centre": "centre à centre",
    "band.normal": "portée normale",
    "band.sniper": "tireurs d'élite seulement",
    "kind.wood": "bois",
    "kind.impassable": "infranchissable",
    "kind.difficult": "difficile",
    "kind.obstacle": "obstacle",
    "kind.building": "bâtiment",
    "figure.stale": "cachée {age} s",
    "figure.moving": "en mouvement",
    "figure.group": "groupe {group}",
    "side.none": "sans camp",
    "settings.title": "Réglages",
    "settings.unit_mm": "Longueur de 1 {unit} en mm",
    "settings.saved": "Enregistré : 1 {unit} = {mm} mm.",
    "settings.refused": "Refusé : {detail}",
    "list.separator": ", ",
    "reason.out_of_range": "hors de portée",
    "reason.no_shooters": "aucune figurine du groupe ne peut tirer",
    "reason.in_contact_with_enemy": "le tireur est au contact d'un ennemi",
    "reason.target_in_contact": "la cible est au contact (mêlée)",
    "reason.target_not_enemy": "la cible n'est pas ennemie",
    "reason.line_blocked": "la ligne de tir est bloquée",
    "reason.not_in_arc": "la cible est hors de l'arc de tir",
    "reason.not_visible": "la cible n'est pas visible",
    "reason.over_allowance": "trop loin pour un seul mouvement",
    "reason.path_blocked": "aucun passage",
    "reason.destination_occupied": "la destination est occupée",
    "reason.impassable": "terrain infranchissable",
    "reason.off_table": "hors de la table",
  },
};

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
export function tOr(key, fallback) {
  return key in STRINGS[current] ? t(key) : fallback;
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
