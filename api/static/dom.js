// Small DOM helpers. Text always goes in through textContent, never as HTML, so
// names from user files (roster, scene) cannot inject markup.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: el("p", {class: "x"}, "text", otherNode). */
export function el(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention as el(). */
export function svgEl(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Set attributes on an existing element (null/undefined/false removes them). */
export function setAttrs(node, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) node.removeAttribute(name);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
}

/**
 * Make the children of `parent` match `items`, one child per key, reusing the
 * existing nodes so that a tap in progress is not lost when the state updates.
 */
export function syncChildren(parent, items, keyOf, create, update) {
  const existing = new Map();
  for (const node of parent.children) existing.set(node.dataset.key, node);
  const seen = new Set();
  for (const item of items) {
    const key = String(keyOf(item));
    seen.add(key);
    let node = existing.get(key);
    if (!node) {
      node = create(item);
      node.dataset.key = key;
      parent.append(node);
    }
    update(node, item);
  }
  for (const [key, node] of existing) {
    if (!seen.has(key)) node.remove();
  }
}

// Distinct, readable on the sand-coloured table, and none of them the green of
// woods nor the grey of hidden figures.
const SIDE_PALETTE = [
  "#1f5fd1", // blue
  "#d1352b", // red
  "#e08a00", // orange
  "#7b3fb5", // purple
  "#0e8f8f", // teal
  "#c2185b", // magenta
  "#6b4a12", // dark brown
  "#1b1f3b", // navy-black
];
const NO_SIDE_COLOUR = "#555555";

// Sides are often named after their colour ("blue", "verts"): such a side gets that colour.
const NAMED_COLOURS = {
  blue: "#1f5fd1", bleu: "#1f5fd1",
  red: "#d1352b", rouge: "#d1352b",
  green: "#1b6e2a", vert: "#1b6e2a",
  white: "#fafafa", blanc: "#fafafa",
  black: "#1a1a1a", noir: "#1a1a1a",
  yellow: "#f2c200", jaune: "#f2c200",
  orange: "#e08a00",
  purple: "#7b3fb5", violet: "#7b3fb5",
};

/** The colour a side's name says, if it says one: "Bleus" and "blue" are blue. */
function namedColour(name) {
  const word = name.trim().toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  const singular = word.replace(/(es|s)$/, "");
  return NAMED_COLOURS[word] ?? NAMED_COLOURS[singular] ?? NAMED_COLOURS[word.replace(/s$/, "")] ?? null;
}

function hashName(name) {
  let hash = 2166136261; // FNV-1a, 32 bits
  for (const char of name) {
    hash ^= char.codePointAt(0);
    hash = Math.imul(hash, 16777619) >>> 0;
  }
  return hash;
}

/**
 * A colour for each side name: the same name always gets the same colour, and two
 * sides on the table never share one (while the palette lasts).
 */
export function sideColours(sides) {
  const colours = new Map();
  const used = new Set();
  const names = [...new Set(sides.filter((side) => side))].sort();
  for (const name of names) {
    const named = namedColour(name);
    if (named && !used.has(named)) {
      used.add(named);
      colours.set(name, named);
    }
  }
  for (const name of names.filter((side) => !colours.has(side))) {
    const start = hashName(name) % SIDE_PALETTE.length;
    let colour = SIDE_PALETTE[start];
    for (let step = 1; used.has(colour) && step < SIDE_PALETTE.length; step += 1) {
      colour = SIDE_PALETTE[(start + step) % SIDE_PALETTE.length];
    }
    used.add(colour);
    colours.set(name, colour);
  }
  return (side) => colours.get(side) ?? NO_SIDE_COLOUR;
}
