// Unit tests of order.js: `node --test irlab/ui/components` (tests/ui/components/test_browser_code.py runs them).

import assert from "node:assert/strict";
import { test } from "node:test";

import { clamp, completeOrder, moveToIndex, orderAfterDrop, sameList, sameSet, shuffled } from "./order.js";

const EIGHT = ["1", "2", "3", "4", "5", "6", "7", "8"];

/**
 * A seeded source of numbers in [0, 1) (mulberry32), so that a shuffle can be replayed.
 * @param {number} seed
 * @returns {() => number}
 */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test("sameList compares entries and their order; a missing list equals nothing", () => {
  assert.equal(sameList(["a", "b"], ["a", "b"]), true);
  assert.equal(sameList(["a", "b"], ["b", "a"]), false);
  assert.equal(sameList(["a"], ["a", "b"]), false);
  assert.equal(sameList(null, []), false);
  assert.equal(sameList([], []), true);
});

test("sameSet ignores the order but not the ids", () => {
  assert.equal(sameSet(["a", "b", "c"], ["c", "a", "b"]), true);
  assert.equal(sameSet(["a", "b"], ["a", "c"]), false);
  assert.equal(sameSet(["a", "b"], ["a", "b", "c"]), false);
});

test("completeOrder keeps the known ids of the wish, first occurrence first, then the rest in their order", () => {
  assert.deepEqual(completeOrder(["3", "x", "1", "3"], ["1", "2", "3"]), ["3", "1", "2"]);
  assert.deepEqual(completeOrder(null, ["1", "2"]), ["1", "2"]);
  assert.deepEqual(completeOrder([], ["1", "2"]), ["1", "2"]);
  assert.deepEqual(completeOrder([1, "2"], ["1", "2"]), ["2", "1"], "a number is not an id");
  assert.deepEqual(completeOrder(["b", "a"], []), []);
});

test("clamp holds a value within its bounds", () => {
  assert.equal(clamp(-1, 0, 7), 0);
  assert.equal(clamp(9, 0, 7), 7);
  assert.equal(clamp(3, 0, 7), 3);
});

test("moveToIndex puts one id at an index and keeps the others' order", () => {
  assert.deepEqual(moveToIndex(["a", "b", "c", "d"], "d", 1), ["a", "d", "b", "c"]);
  assert.deepEqual(moveToIndex(["a", "b", "c", "d"], "a", 2), ["b", "c", "a", "d"]);
  assert.deepEqual(moveToIndex(["a", "b", "c", "d"], "b", 99), ["a", "c", "d", "b"], "clamped to the last index");
  assert.deepEqual(moveToIndex(["a", "b", "c", "d"], "c", -5), ["c", "a", "b", "d"], "clamped to the first");
  assert.deepEqual(moveToIndex(["a", "b"], "z", 0), ["a", "b"], "an unknown id changes nothing");
});

test("moveToIndex returns a new list and leaves its input alone", () => {
  const order = ["a", "b", "c"];
  const moved = moveToIndex(order, "c", 0);
  assert.notEqual(moved, order);
  assert.deepEqual(order, ["a", "b", "c"]);
});

test("orderAfterDrop: before or after the target, as the walkthrough's drags expect", () => {
  // the browser test drags the dark cat (4) before tile 1
  assert.deepEqual(orderAfterDrop(EIGHT, "4", { id: "1", after: false }), ["4", "1", "2", "3", "5", "6", "7", "8"]);
  assert.deepEqual(orderAfterDrop(EIGHT, "1", { id: "3", after: true }), ["2", "3", "1", "4", "5", "6", "7", "8"]);
  assert.deepEqual(orderAfterDrop(EIGHT, "8", { id: "1", after: true }), ["1", "8", "2", "3", "4", "5", "6", "7"]);
  assert.deepEqual(orderAfterDrop(["a", "b", "c"], "a", { id: "c", after: true }), ["b", "c", "a"]);
});

test("orderAfterDrop next to the tile's own neighbours changes nothing", () => {
  assert.deepEqual(orderAfterDrop(EIGHT, "3", { id: "4", after: false }), EIGHT);
  assert.deepEqual(orderAfterDrop(EIGHT, "3", { id: "2", after: true }), EIGHT);
});

test("orderAfterDrop without a usable target changes nothing", () => {
  assert.deepEqual(orderAfterDrop(EIGHT, "3", null), EIGHT);
  assert.deepEqual(orderAfterDrop(EIGHT, "3", { id: "3", after: true }), EIGHT);
  assert.deepEqual(orderAfterDrop(EIGHT, "3", { id: "nine", after: false }), EIGHT);
  assert.deepEqual(orderAfterDrop(EIGHT, "nine", { id: "1", after: false }), EIGHT);
});

test("shuffled with a seeded source is a permutation, differs from its input and replays", () => {
  for (let seed = 1; seed <= 200; seed++) {
    const once = shuffled(EIGHT, seeded(seed));
    assert.deepEqual([...once].sort(), EIGHT);
    assert.equal(sameList(once, EIGHT), false, `seed ${seed} gave the same order back`);
    assert.deepEqual(shuffled(EIGHT, seeded(seed)), once);
  }
});

test("shuffled reaches every position: over many seeds each id lands first at least once", () => {
  const firsts = new Set();
  for (let seed = 1; seed <= 300; seed++) firsts.add(shuffled(EIGHT, seeded(seed))[0]);
  assert.deepEqual([...firsts].sort(), EIGHT);
});

test("shuffled with a source that always gives the input back swaps the first two", () => {
  // random() = 0.999... keeps every element in place in Fisher-Yates (j = i)
  assert.deepEqual(shuffled(["a", "b", "c"], () => 0.9999999), ["b", "a", "c"]);
  assert.deepEqual(shuffled(["a", "b"], () => 1), ["b", "a"], "a source that breaks its promise stays in bounds");
});

test("shuffled leaves rows of zero or one tile as they are", () => {
  assert.deepEqual(shuffled([], Math.random), []);
  assert.deepEqual(shuffled(["a"], Math.random), ["a"]);
});
