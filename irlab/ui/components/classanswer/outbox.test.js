// Unit tests of outbox.js: answers kept until acknowledged, sends numbered per phone, retries spaced out.

import assert from "node:assert/strict";
import { test } from "node:test";

import { keep, nextSendId, outboxKey, phoneId, retryDelay, settle, waiting } from "./outbox.js";

/** A Storage stand-in. */
function memory() {
  /** @type {Map<string, string>} */
  const items = new Map();
  return {
    items,
    /** @param {string} key */
    getItem: (key) => items.get(key) ?? null,
    /** @param {string} key @param {string} value */
    setItem: (key, value) => { items.set(key, value); },
    /** @param {string} key */
    removeItem: (key) => { items.delete(key); },
  };
}

test("a phone keeps one id and numbers its sends upward, also after a reload", () => {
  const store = memory();
  const id = phoneId(store, () => "AbCdEfGh12345678");
  assert.equal(id, "AbCdEfGh12345678");
  assert.equal(phoneId(store, () => "other_id_other_id"), id);
  assert.equal(nextSendId(store), `${id}-1`);
  assert.equal(nextSendId(store), `${id}-2`);
  store.items.set("irlab.sends", "garbage");
  assert.equal(nextSendId(store), `${id}-1`);
});

test("the newest answer waits for its receipt; an older receipt does not drop it", () => {
  const store = memory();
  assert.equal(waiting(store, "ABCDEF"), null);
  keep(store, "ABCDEF", { round: 3, answer: "0.5", send: "p-1", at: 1 });
  keep(store, "ABCDEF", { round: 3, answer: "0.6", send: "p-2", at: 2 });
  settle(store, "ABCDEF", "p-1"); // the receipt of the first send arrives late
  assert.equal(waiting(store, "ABCDEF")?.answer, "0.6");
  settle(store, "ABCDEF", "p-2");
  assert.equal(waiting(store, "ABCDEF"), null);
  store.items.set(outboxKey("ABCDEF"), "{not json");
  assert.equal(waiting(store, "ABCDEF"), null);
  assert.equal(store.items.has(outboxKey("ABCDEF")), false);
});

test("a storage that refuses leaves the answer in the page, without an error", () => {
  const refusing = { getItem() { throw new Error("denied"); }, setItem() { throw new Error("quota"); },
    removeItem() { throw new Error("denied"); } };
  keep(refusing, "ABCDEF", { round: 1, answer: "1", send: "p-1", at: 0 });
  assert.equal(waiting(refusing, "ABCDEF"), null);
  assert.match(nextSendId(refusing, () => "AbCdEfGh12345678"), /^AbCdEfGh12345678-1$/);
});

test("retries are spaced out: 1, 2, 4, 8, then every 10 s", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 9].map(retryDelay), [1000, 2000, 4000, 8000, 10000, 10000]);
});
