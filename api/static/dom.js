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
// woods and allowed shots nor the grey of hidden figures.
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
    let index = hashName(name) % SIDE_PALETTE.length;
    for (let tries = 0; used.has(index) && tries < SIDE_PALETTE.length; tries += 1) {
      index = (index + 1) % SIDE_PALETTE.length;
    }
    used.add(index);
    colours.set(name, SIDE_PALETTE[index]);
  }
  return (side) => colours.get(side) ?? NO_SIDE_COLOUR;
}
