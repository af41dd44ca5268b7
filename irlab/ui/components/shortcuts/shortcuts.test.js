// Unit tests of shortcuts.js: which key press stands for Undo or Redo.

import assert from "node:assert/strict";
import { test } from "node:test";

import { actionFor } from "./shortcuts.js";

/**
 * @param {string} key
 * @param {{shiftKey?: boolean, ctrlKey?: boolean, metaKey?: boolean, altKey?: boolean}} [mods]
 */
function press(key, mods = {}) {
  return { key, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...mods };
}

test("Ctrl+Z and Cmd+Z undo", () => {
  assert.equal(actionFor(press("z", { ctrlKey: true })), "undo");
  assert.equal(actionFor(press("z", { metaKey: true })), "undo");
});

test("Ctrl+Shift+Z, Cmd+Shift+Z and Ctrl+Y redo (Shift turns z into Z)", () => {
  assert.equal(actionFor(press("Z", { ctrlKey: true, shiftKey: true })), "redo");
  assert.equal(actionFor(press("z", { metaKey: true, shiftKey: true })), "redo");
  assert.equal(actionFor(press("y", { ctrlKey: true })), "redo");
  assert.equal(actionFor(press("Y", { ctrlKey: true })), "redo", "with Caps Lock on");
});

test("without Ctrl or Cmd, with Alt, or Ctrl+Shift+Y: nothing", () => {
  assert.equal(actionFor(press("z")), null);
  assert.equal(actionFor(press("y", { shiftKey: true })), null);
  assert.equal(actionFor(press("z", { ctrlKey: true, altKey: true })), null, "AltGr is Ctrl+Alt on Windows");
  assert.equal(actionFor(press("y", { ctrlKey: true, shiftKey: true })), null);
  assert.equal(actionFor(press("x", { ctrlKey: true })), null);
});
