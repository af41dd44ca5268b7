// Unit tests of keys.js: which key does what on a focused tile (the tiles' docstring promises these keys).

import assert from "node:assert/strict";
import { test } from "node:test";

import { keyAction } from "./keys.js";

/**
 * A key press with no modifiers unless given.
 * @param {string} key
 * @param {{shiftKey?: boolean, ctrlKey?: boolean, metaKey?: boolean, altKey?: boolean}} [mods]
 */
function press(key, mods = {}) {
  return { key, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...mods };
}

const shift = { shiftKey: true };
/** The tile at index 2 of 8, grade 2 of 4, grades editable. */
const TILE = { index: 2, count: 8, grade: 2, editable: true, maxGrade: 4 };

test("Shift+arrows move the tile one rank; Shift+Home and Shift+End to the ends", () => {
  assert.deepEqual(keyAction(press("ArrowLeft", shift), TILE), { kind: "move", to: 1 });
  assert.deepEqual(keyAction(press("ArrowUp", shift), TILE), { kind: "move", to: 1 });
  assert.deepEqual(keyAction(press("ArrowRight", shift), TILE), { kind: "move", to: 3 });
  assert.deepEqual(keyAction(press("ArrowDown", shift), TILE), { kind: "move", to: 3 });
  assert.deepEqual(keyAction(press("Home", shift), TILE), { kind: "move", to: 0 });
  assert.deepEqual(keyAction(press("End", shift), TILE), { kind: "move", to: 7 });
});

test("plain arrows, Home and End move the focus, not the tile", () => {
  assert.deepEqual(keyAction(press("ArrowLeft"), TILE), { kind: "focus", to: 1 });
  assert.deepEqual(keyAction(press("ArrowDown"), TILE), { kind: "focus", to: 3 });
  assert.deepEqual(keyAction(press("Home"), TILE), { kind: "focus", to: 0 });
  assert.deepEqual(keyAction(press("End"), TILE), { kind: "focus", to: 7 });
});

test("moves and focus stay within the row at its ends", () => {
  const first = { ...TILE, index: 0 };
  const last = { ...TILE, index: 7 };
  assert.deepEqual(keyAction(press("ArrowLeft", shift), first), { kind: "move", to: 0 });
  assert.deepEqual(keyAction(press("ArrowUp"), first), { kind: "focus", to: 0 });
  assert.deepEqual(keyAction(press("ArrowRight", shift), last), { kind: "move", to: 7 });
  assert.deepEqual(keyAction(press("ArrowDown"), last), { kind: "focus", to: 7 });
});

test("digits set the grade, up to the top of the scale", () => {
  assert.deepEqual(keyAction(press("0"), TILE), { kind: "grade", grade: 0 });
  assert.deepEqual(keyAction(press("4"), TILE), { kind: "grade", grade: 4 });
  assert.equal(keyAction(press("5"), TILE), null, "5 is beyond a 0..4 scale");
  assert.equal(keyAction(press("9"), TILE), null);
});

test("+ and = step the grade up, - and _ down, clamped to the scale", () => {
  assert.deepEqual(keyAction(press("+"), TILE), { kind: "grade", grade: 3 });
  assert.deepEqual(keyAction(press("="), TILE), { kind: "grade", grade: 3 });
  assert.deepEqual(keyAction(press("-"), TILE), { kind: "grade", grade: 1 });
  assert.deepEqual(keyAction(press("_"), TILE), { kind: "grade", grade: 1 });
  assert.deepEqual(keyAction(press("+"), { ...TILE, grade: 4 }), { kind: "grade", grade: 4 });
  assert.deepEqual(keyAction(press("-"), { ...TILE, grade: 0 }), { kind: "grade", grade: 0 });
});

test("grade keys do nothing where grades cannot be edited (binary mode, the runs page)", () => {
  const fixed = { ...TILE, editable: false };
  for (const key of ["0", "3", "+", "=", "-", "_"]) assert.equal(keyAction(press(key), fixed), null, key);
  assert.deepEqual(keyAction(press("ArrowLeft", shift), fixed), { kind: "move", to: 1 }, "moves still work");
});

test("with Ctrl, Cmd or Alt held the key is the page's or the browser's (Ctrl+Z is undo)", () => {
  for (const mods of [{ ctrlKey: true }, { metaKey: true }, { altKey: true }]) {
    assert.equal(keyAction(press("ArrowLeft", { ...shift, ...mods }), TILE), null);
    assert.equal(keyAction(press("Home", mods), TILE), null);
    assert.equal(keyAction(press("3", mods), TILE), null);
  }
});

test("other keys are left to the browser", () => {
  for (const key of ["Tab", "Enter", " ", "a", "Escape", "PageDown"]) assert.equal(keyAction(press(key), TILE), null, key);
});

test("in a row of one tile every move stays at rank 1", () => {
  const only = { index: 0, count: 1, grade: 0, editable: false, maxGrade: 1 };
  assert.deepEqual(keyAction(press("End", shift), only), { kind: "move", to: 0 });
  assert.deepEqual(keyAction(press("ArrowRight"), only), { kind: "focus", to: 0 });
});
