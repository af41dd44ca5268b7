// @ts-check
// A phone's outbox: an answer is kept on the phone until the class acknowledged it, and sent again when the
// connection is back. Each send has an id, this phone's id and a number that only grows, so the server counts
// a send that arrives twice, or late after a newer one, once (irlab/classroom/student.py, `superseded`).
//
// The outbox lives in localStorage (a reload, a tab closed by mistake, the browser killed: the answer stays),
// one entry per class: the newest answer not yet acknowledged. Pure functions over a Storage-like object.

/** @typedef {{getItem: (key: string) => string | null, setItem: (key: string, value: string) => void, removeItem: (key: string) => void}} Store */

/**
 * An answer waiting for its receipt.
 * @typedef {object} Pending
 * @property {number} round the round it answers
 * @property {unknown} answer what the student sent (a number as typed, option ids, an order, answers by question)
 * @property {string} send the send's id: `<phone>-<number>`
 * @property {number} at when it was first sent (ms since the epoch, this device's clock)
 */

const PHONE = "irlab.phone";
const COUNTER = "irlab.sends";
const ID = /^[A-Za-z0-9_]{8,24}$/;

/**
 * This browser's id (made once: 16 characters of base64url without "-"), kept in the storage.
 * @param {Store} store
 * @param {() => string} [random] 16 random characters (tests pass their own)
 * @returns {string}
 */
export function phoneId(store, random = randomId) {
  const known = safeGet(store, PHONE);
  if (known && ID.test(known)) return known;
  const made = random();
  safeSet(store, PHONE, made);
  return made;
}

/**
 * The id of a new send: this phone's id and the next number (the numbers only grow, also across reloads).
 * @param {Store} store
 * @param {() => string} [random]
 * @returns {string}
 */
export function nextSendId(store, random = randomId) {
  const phone = phoneId(store, random);
  const last = Number.parseInt(safeGet(store, COUNTER) ?? "0", 10);
  const next = (Number.isFinite(last) && last >= 0 ? last : 0) + 1;
  safeSet(store, COUNTER, String(next));
  return `${phone}-${next}`;
}

/**
 * Where a class's outbox is kept.
 * @param {string} code
 * @returns {string}
 */
export function outboxKey(code) {
  return `irlab.outbox.${code}`;
}

/**
 * Keep `pending` as the class's answer waiting for its receipt (it replaces an older one: the newest answer wins).
 * @param {Store} store
 * @param {string} code
 * @param {Pending} pending
 */
export function keep(store, code, pending) {
  safeSet(store, outboxKey(code), JSON.stringify(pending));
}

/**
 * The class's answer waiting for its receipt, if any.
 * @param {Store} store
 * @param {string} code
 * @returns {Pending | null}
 */
export function waiting(store, code) {
  const raw = safeGet(store, outboxKey(code));
  if (!raw) return null;
  try {
    const found = JSON.parse(raw);
    if (found && typeof found.round === "number" && typeof found.send === "string") return found;
  } catch {
    // a damaged entry: dropped below
  }
  safeRemove(store, outboxKey(code));
  return null;
}

/**
 * Forget the waiting answer if it is the send `send` (a newer one stays).
 * @param {Store} store
 * @param {string} code
 * @param {string} send
 */
export function settle(store, code, send) {
  const found = waiting(store, code);
  if (found && found.send === send) safeRemove(store, outboxKey(code));
}

/**
 * How long to wait before sending again after `attempt` failures: 1, 2, 4, 8 s, then every 10 s.
 * @param {number} attempt
 * @returns {number} milliseconds
 */
export function retryDelay(attempt) {
  return Math.min(10_000, 1000 * 2 ** Math.max(0, attempt));
}

/** @returns {string} 16 random characters of base64url without "-" */
function randomId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "_").replace(/\//g, "_").replace(/=+$/, "");
}

// Storage may refuse (a private window's quota, storage turned off): the answer is then only in the page.
/** @param {Store} store @param {string} key */
function safeGet(store, key) {
  try {
    return store.getItem(key);
  } catch {
    return null;
  }
}

/** @param {Store} store @param {string} key @param {string} value */
function safeSet(store, key, value) {
  try {
    store.setItem(key, value);
  } catch {
    // kept in the page only
  }
}

/** @param {Store} store @param {string} key */
function safeRemove(store, key) {
  try {
    store.removeItem(key);
  } catch {
    // nothing to do
  }
}
