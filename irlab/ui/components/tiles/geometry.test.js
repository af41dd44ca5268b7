// Unit tests of geometry.js: where a drop lands, how fast a drag scrolls near an edge, when a press is a drag.

import assert from "node:assert/strict";
import { test } from "node:test";

import { dropTarget, edgeSpeed, movedBeyond } from "./geometry.js";

/**
 * Tiles 100 px wide, 10 px apart, rows 200 px tall and 20 px apart, ``perRow`` a row (ids "1", "2", ...).
 * @param {number} count
 * @param {number} perRow
 */
function grid(count, perRow) {
  return Array.from({ length: count }, (_, i) => {
    const left = (i % perRow) * 110;
    const top = Math.floor(i / perRow) * 220;
    return { id: String(i + 1), left, top, right: left + 100, bottom: top + 200 };
  });
}

test("in one row a drop lands before the first tile whose middle is right of the pointer", () => {
  const row = grid(2, 8);  // 1 at 0..100, 2 at 110..210
  assert.deepEqual(dropTarget(row, 40, 100), { id: "1", after: false });
  assert.deepEqual(dropTarget(row, 80, 100), { id: "2", after: false });
  assert.deepEqual(dropTarget(row, 150, 100), { id: "2", after: false });
  assert.deepEqual(dropTarget(row, 190, 100), { id: "2", after: true });
  assert.deepEqual(dropTarget(row, 900, 100), { id: "2", after: true }, "past the row's end: after its last tile");
});

test("the order of the boxes does not matter", () => {
  const row = grid(4, 8).reverse();
  assert.deepEqual(dropTarget(row, 120, 50), { id: "2", after: false });
});

test("in a grid the pointer's row decides, within 8 px above or below it", () => {
  const boxes = grid(8, 4);  // rows at y 0..200 and 220..420
  assert.deepEqual(dropTarget(boxes, 40, 300), { id: "5", after: false });
  assert.deepEqual(dropTarget(boxes, 430, 300), { id: "8", after: true });
  assert.deepEqual(dropTarget(boxes, 40, 205), { id: "1", after: false }, "5 px below row 1 is still row 1");
  assert.deepEqual(dropTarget(boxes, 40, 214), { id: "5", after: false }, "6 px above row 2 is row 2");
});

test("a pointer outside every row goes to the row of the nearest tile", () => {
  const boxes = grid(8, 4);
  assert.deepEqual(dropTarget(boxes, 150, -50), { id: "2", after: false }, "above the grid: the first row");
  assert.deepEqual(dropTarget(boxes, 500, 900), { id: "8", after: true }, "below and right: after the last tile");
});

test("a ragged last row (the cut or fewer tiles) still gives a target", () => {
  const boxes = grid(6, 4);  // row 2 holds 5 and 6 only
  assert.deepEqual(dropTarget(boxes, 400, 300), { id: "6", after: true });
});

test("no tiles, no target", () => {
  assert.equal(dropTarget([], 10, 10), null);
});

test("edgeSpeed is zero in the middle and grows toward each edge", () => {
  assert.equal(edgeSpeed(200, 0, 400, 40, 20), 0);
  assert.equal(edgeSpeed(360, 0, 400, 40, 20), 0, "the zone's inner border");
  assert.equal(edgeSpeed(390, 0, 400, 40, 20), 15);
  assert.equal(edgeSpeed(400, 0, 400, 40, 20), 20);
  assert.equal(edgeSpeed(10, 0, 400, 40, 20), -15, "near the start it scrolls back");
  assert.equal(edgeSpeed(-30, 0, 400, 40, 20), -20, "beyond the edge: the fastest");
  assert.equal(edgeSpeed(500, 0, 400, 40, 20), 20);
});

test("edgeSpeed in a box smaller than its two zones splits it in halves", () => {
  assert.equal(edgeSpeed(25, 0, 50, 40, 20), 0);
  assert.equal(edgeSpeed(49, 0, 50, 40, 20), 19);
  assert.equal(edgeSpeed(5, 10, 10, 40, 20), 0, "an empty box never scrolls");
});

test("movedBeyond compares the distance with the slop", () => {
  assert.equal(movedBeyond(0, 0, 3, 4, 5), false, "exactly 5 px is not beyond 5");
  assert.equal(movedBeyond(0, 0, 3, 5, 5), true);
  assert.equal(movedBeyond(10, 10, 10, 10, 0), false);
});
