// Formulas as MathML the server made (irlab/explain/mathml.py), put into the page as elements.
//
// The markup is parsed as XML, never as HTML, and checked again here: only MathML elements with
// presentation attributes enter the page. A line whose LaTeX did not change is not touched (the caller
// compares LaTeX strings); a parsed line is kept by its LaTeX, so going back to an earlier state
// costs no parsing. A line that changed keeps the elements it shows wherever the new formula has the same
// element there, and only the texts and attributes that differ are set (a change of K or a move changes a
// few numbers of a formula: the browser then styles and shapes those, not the whole formula again).

const MATHML = "http://www.w3.org/1998/Math/MathML";
const ELEMENTS = new Set(["math", "mrow", "mi", "mn", "mo", "mtext", "mspace", "ms", "mfrac", "msqrt", "mroot",
  "mstyle", "merror", "mpadded", "mphantom", "msub", "msup", "msubsup", "munder", "mover", "munderover",
  "mmultiscripts", "mprescripts", "none", "mtable", "mtr", "mtd", "semantics", "annotation"]);
const UNSAFE_ATTRIBUTE = /^(on|href|xlink|style|src)/i;

/** @type {Map<string, Element>} */
const parsed = new Map();
const MAX_KEPT = 2000;

/**
 * Whether every element of ``root`` is a MathML presentation element without handlers, links or styles.
 * @param {Element} root
 * @returns {boolean}
 */
export function isCleanMathml(root) {
  const all = [root, ...Array.from(root.getElementsByTagName("*"))];
  return all.every((node) => node.namespaceURI === MATHML && ELEMENTS.has(node.localName)
    && Array.from(node.attributes).every((attribute) => !UNSAFE_ATTRIBUTE.test(attribute.name)));
}

/**
 * The parsed, checked formula ``mathml`` (kept by its LaTeX ``latex``), or null when it is not clean MathML.
 * @param {string} latex
 * @param {string} mathml
 * @returns {Element | null}
 */
function cleanFormula(latex, mathml) {
  let element = parsed.get(latex);
  if (!element) {
    const root = new DOMParser().parseFromString(mathml, "application/xml").documentElement;
    if (!root || root.localName !== "math" || !isCleanMathml(root)) return null;
    element = root;
    if (parsed.size >= MAX_KEPT) parsed.clear();
    parsed.set(latex, element);
  }
  return element;
}

/**
 * Make ``box`` show the formula ``mathml`` (for LaTeX ``latex``): the formula it shows is brought to the new one
 * node by node (see the top of this file), or replaced when it shows none; the LaTeX as text when the markup is not
 * clean MathML.
 * @param {HTMLElement} box
 * @param {string} latex
 * @param {string} mathml
 */
export function showFormula(box, latex, mathml) {
  const source = cleanFormula(latex, mathml);
  const shown = box.firstChild;
  if (!source) box.replaceChildren(document.createTextNode(latex));
  else if (box.childNodes.length === 1 && shown instanceof Element && shown.localName === "math") morph(shown, source);
  else box.replaceChildren(document.importNode(source, true));
}

/**
 * Bring ``node`` (in the page) to ``source`` (a checked formula's node): the same element keeps its place and gets
 * the source's attributes and children; another kind of node is replaced by a copy of the source's.
 * @param {Node} node
 * @param {Node} source
 */
function morph(node, source) {
  if (node.nodeType !== source.nodeType || node.nodeName !== source.nodeName
      || (node instanceof Element && node.namespaceURI !== /** @type {Element} */ (source).namespaceURI)) {
    node.parentNode?.replaceChild(document.importNode(source, true), node);
    return;
  }
  if (!(node instanceof Element) || !(source instanceof Element)) {
    if (node.nodeValue !== source.nodeValue) node.nodeValue = source.nodeValue;
    return;
  }
  for (const attribute of Array.from(node.attributes)) {
    if (!source.hasAttribute(attribute.name)) node.removeAttribute(attribute.name);
  }
  for (const attribute of Array.from(source.attributes)) {
    if (node.getAttribute(attribute.name) !== attribute.value) node.setAttribute(attribute.name, attribute.value);
  }
  const shown = node.childNodes;
  const wanted = source.childNodes;
  const common = Math.min(shown.length, wanted.length);
  for (let index = 0; index < common; index += 1) morph(shown[index], wanted[index]);
  while (node.childNodes.length > wanted.length) node.lastChild?.remove();
  for (let index = node.childNodes.length; index < wanted.length; index += 1) {
    node.appendChild(document.importNode(wanted[index], true));
  }
}
