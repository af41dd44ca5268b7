// Small DOM helpers for the tiles: make elements and icons, and change text, attributes and classes only when
// they differ (a rerun that changes nothing touches nothing). Text always goes in as text, never as HTML.

const SVG_NS = "http://www.w3.org/2000/svg";

/** The icons' paths (16 x 16, stroked). */
const ICONS = {
  left: ["M10 3.5 5.5 8 10 12.5"],
  right: ["M6 3.5 10.5 8 6 12.5"],
  check: ["M3.5 8.5 6.5 11.5 12.5 4.5"],
  cross: ["M5 5l6 6M11 5l-6 6"],
  reset: ["M3.2 8a4.8 4.8 0 1 0 1.6-3.6", "M3 2.5v3.2h3.2"],
  ideal: ["M2.5 4h11", "M2.5 8h7.5", "M2.5 12h4"],
  shuffle: ["M2 4.5h2.6c1.4 0 2.3.6 3 1.7l1.8 3.6c.7 1.1 1.6 1.7 3 1.7H14", "M2 11.5h2.6c.9 0 1.6-.3 2.2-.9",
    "M9.2 5.4c.6-.6 1.3-.9 2.2-.9H14", "M12 2.5l2 2-2 2", "M12 9.5l2 2-2 2"],
};

/** @typedef {keyof typeof ICONS} IconName */

/**
 * An inline SVG icon, hidden from assistive technology.
 * @param {IconName} name
 * @param {string} [extraClass]
 * @returns {SVGSVGElement}
 */
export function icon(name, extraClass) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("class", "irl-icon" + (extraClass ? " " + extraClass : ""));
  for (const d of ICONS[name]) {
    const path = document.createElementNS(SVG_NS, "path");
    path.setAttribute("d", d);
    svg.appendChild(path);
  }
  return svg;
}

/**
 * A new element with a class and attributes.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [className]
 * @param {Record<string, string>} [attributes]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, className, attributes) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (attributes) for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

/**
 * Set a node's text when it differs.
 * @param {Node} node
 * @param {unknown} text
 */
export function setText(node, text) {
  const value = text == null ? "" : String(text);
  if (node.textContent !== value) node.textContent = value;
}

/**
 * Set an attribute when it differs; null, undefined or false removes it.
 * @param {Element} node
 * @param {string} name
 * @param {string | number | boolean | null | undefined} value
 */
export function setAttr(node, name, value) {
  if (value === null || value === undefined || value === false) {
    if (node.hasAttribute(name)) node.removeAttribute(name);
    return;
  }
  const text = String(value);
  if (node.getAttribute(name) !== text) node.setAttribute(name, text);
}

/**
 * Add or remove a class when that changes anything.
 * @param {Element} node
 * @param {string} className
 * @param {boolean} on
 */
export function setClass(node, className, on) {
  if (node.classList.contains(className) !== on) node.classList.toggle(className, on);
}
