// Unit tests of patch.js: each form of patch (patch.py's docstring), and unchanged parts kept as the same objects.

import assert from "node:assert/strict";
import { test } from "node:test";

import { applyPatch } from "./patch.js";

test("no patch: the same value", () => {
  const base = { a: 1 };
  assert.equal(applyPatch(base, null), base);
});

test("a whole value, a text from pieces of the old one", () => {
  assert.equal(applyPatch("x", { v: 3 }), 3);
  const base = "Move the dark cat to rank 1: Recall@2 goes from 0.25 to 0.5 and Precision@2 from 0.5 to 1.";
  assert.equal(applyPatch(base, { s: [0, 29, "Recall@3 ", 38, 64, "Precision@3 ", 76, 90] }),
    "Move the dark cat to rank 1: Recall@3 goes from 0.25 to 0.5 and Precision@3 from 0.5 to 1.");
});

test("an object: fields patched and dropped, the rest kept as they were", () => {
  const kept = { deep: [1, 2] };
  const out = applyPatch({ a: 1, b: kept, c: 3 }, { o: { a: { v: 2 } }, d: ["c"] });
  assert.deepEqual(out, { a: 2, b: { deep: [1, 2] } });
  assert.equal(out.b, kept);
});

test("a list: items patched, new items past the end, shorter", () => {
  assert.deepEqual(applyPatch([1, 2, 3], { a: 4, i: { 1: { v: 5 }, 3: { v: 7 } } }), [1, 5, 3, 7]);
  assert.deepEqual(applyPatch([1, 2, 3], { a: 2 }), [1, 2]);
});

test("a list of blocks by key: reordered, one patched, one new, the others the same objects", () => {
  const a = { key: "a", digest: "1", text: "x" };
  const b = { key: "b", digest: "2", text: "y" };
  const out = applyPatch([a, b], { b: ["b", "c", "a"], p: { a: { o: { text: { v: "z" } } }, c: { v: { key: "c" } } } });
  assert.deepEqual(out.map((/** @type {{key: string}} */ block) => block.key), ["b", "c", "a"]);
  assert.equal(out[0], b);
  assert.equal(out[2].text, "z");
});
