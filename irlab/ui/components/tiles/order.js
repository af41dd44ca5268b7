// The order of a row of tiles as pure functions of lists of item ids: no DOM, no clock, no hidden randomness.
// tiles.js and drag.js use them; order.test.js tests them (`node --test irlab/ui/components`).

/**
 * Whether two lists hold the same entries in the same order (a missing list equals nothing).
 * @template T
 * @param {readonly T[] | null | undefined} a
 * @param {readonly T[] | null | undefined} b
 * @returns {boolean}
 */
export function sameList(a, b) {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Whether two lists of distinct ids hold the same ids, in any order.
 * @param {readonly string[]} a
 * @param {readonly string[]} b
 * @returns {boolean}
 */
export function sameSet(a, b) {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((id) => set.has(id));
}

/**
 * An order made of exactly the ids ``ids``: the known ids of ``wanted`` first (first occurrence wins), then the
 * ids ``wanted`` left out, in their order in ``ids``. Unknown ids in ``wanted`` are dropped.
 *
 * completeOrder(["3", "x", "1", "3"], ["1", "2", "3"]) is ["3", "1", "2"].
 * @param {readonly unknown[] | null | undefined} wanted
 * @param {readonly string[]} ids
 * @returns {string[]}
 */
export function completeOrder(wanted, ids) {
  const known = new Set(ids);
  /** @type {string[]} */
  const out = [];
  const taken = new Set();
  for (const id of wanted || []) {
    if (typeof id === "string" && known.has(id) && !taken.has(id)) {
      out.push(id);
      taken.add(id);
    }
  }
  for (const id of ids) if (!taken.has(id)) out.push(id);
  return out;
}

/**
 * ``value`` held within ``low..high``.
 * @param {number} value
 * @param {number} low
 * @param {number} high
 * @returns {number}
 */
export function clamp(value, low, high) {
  return Math.max(low, Math.min(high, value));
}

/**
 * The order with ``id`` taken out and put back at index ``toIndex`` (0-based, clamped to the list), every other
 * id keeping its relative order; a copy of ``order`` when ``id`` is not in it.
 *
 * moveToIndex(["a", "b", "c", "d"], "d", 1) is ["a", "d", "b", "c"].
 * @param {readonly string[]} order
 * @param {string} id
 * @param {number} toIndex
 * @returns {string[]}
 */
export function moveToIndex(order, id, toIndex) {
  const from = order.indexOf(id);
  const next = order.slice();
  if (from < 0) return next;
  next.splice(from, 1);
  next.splice(clamp(toIndex, 0, order.length - 1), 0, id);
  return next;
}

/**
 * Where a drop lands: before or after the tile ``id``.
 * @typedef {{id: string, after: boolean}} DropTarget
 */

/**
 * The order after dropping ``dragId`` next to ``target`` (before it, or after it when ``target.after``); a copy
 * of ``order`` when there is no target, the target is the dragged tile itself, or either id is unknown.
 *
 * orderAfterDrop(["a", "b", "c"], "a", {id: "c", after: true}) is ["b", "c", "a"].
 * @param {readonly string[]} order
 * @param {string} dragId
 * @param {DropTarget | null} target
 * @returns {string[]}
 */
export function orderAfterDrop(order, dragId, target) {
  if (!target || target.id === dragId || !order.includes(dragId) || !order.includes(target.id)) return order.slice();
  const rest = order.filter((id) => id !== dragId);
  rest.splice(rest.indexOf(target.id) + (target.after ? 1 : 0), 0, dragId);
  return rest;
}

/**
 * A shuffled copy of ``order`` (Fisher-Yates) that differs from it whenever it has two ids or more.
 * ``random`` returns numbers in [0, 1), like Math.random; a test passes its own, seeded one. After 50 draws
 * that all equal ``order`` (possible only with a rigged source) the first two ids are swapped.
 * @param {readonly string[]} order
 * @param {() => number} [random]
 * @returns {string[]}
 */
export function shuffled(order, random = Math.random) {
  if (order.length < 2) return order.slice();
  for (let attempt = 0; attempt < 50; attempt++) {
    const a = order.slice();
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.min(i, Math.floor(random() * (i + 1)));
      [a[i], a[j]] = [a[j], a[i]];
    }
    if (!sameList(a, order)) return a;
  }
  const a = order.slice();
  [a[0], a[1]] = [a[1], a[0]];
  return a;
}
