// A JSON value from the one the region holds and a patch the server made (irlab/ui/components/region/patch.py,
// whose docstring says the forms). Every part the patch leaves alone stays the same object, so a block that did
// not change keeps its digest and is not drawn again. Applying a patch copies and joins; it computes nothing.

/**
 * @typedef {{v: unknown} | {s: (number | string)[]} | {o: Record<string, Patch>, d?: string[]}
 *   | {a: number, i?: Record<string, Patch>} | {b: string[], p: Record<string, Patch>}} Patch
 */

/**
 * ``base`` with ``patch`` applied (``base`` itself when there is no patch).
 * @param {any} base
 * @param {Patch | null | undefined} patch
 * @returns {any}
 */
export function applyPatch(base, patch) {
  if (!patch) return base;
  if ("v" in patch) return patch.v;
  if ("s" in patch) {
    let out = "";
    const ops = patch.s;
    for (let index = 0; index < ops.length; index += 1) {
      const op = ops[index];
      if (typeof op === "string") out += op;
      else {
        out += String(base).slice(op, /** @type {number} */ (ops[index + 1]));
        index += 1;
      }
    }
    return out;
  }
  if ("o" in patch) {
    /** @type {Record<string, unknown>} */
    const value = { ...base };
    for (const name of patch.d || []) delete value[name];
    for (const [name, inner] of Object.entries(patch.o)) value[name] = applyPatch(base ? base[name] : undefined, inner);
    return value;
  }
  if ("b" in patch) {
    /** @type {Map<string, any>} */
    const byKey = new Map((base || []).map((/** @type {{key: string}} */ block) => [block.key, block]));
    return patch.b.map((key) => applyPatch(byKey.get(key), patch.p[key]));
  }
  const items = patch.i || {};
  return Array.from({ length: patch.a }, (_, index) => applyPatch(base ? base[index] : undefined, items[String(index)]));
}
