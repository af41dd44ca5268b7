// Formulas as MathML the server made (irlab/explain/mathml.py), put into the page as elements.
//
// The markup is parsed as XML, never as HTML, and checked again here: only MathML elements with
// presentation attributes enter the page. A line whose LaTeX did not change is not touched (the caller
// compares LaTeX strings); a parsed line is kept by its LaTeX, so going back to an earlier state
// costs no parsing.

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
 * The formula ``mathml`` (for LaTeX ``latex``) as a new element of this document, or a text node with the
 * LaTeX when the markup is not clean MathML.
 * @param {string} latex
 * @param {string} mathml
 * @returns {Node}
 */
export function formulaNode(latex, mathml) {
  let element = parsed.get(latex);
  if (!element) {
    const root = new DOMParser().parseFromString(mathml, "application/xml").documentElement;
    if (!root || root.localName !== "math" || !isCleanMathml(root)) return document.createTextNode(latex);
    element = root;
    if (parsed.size >= MAX_KEPT) parsed.clear();
    parsed.set(latex, element);
  }
  return document.importNode(element, true);
}
