// Which key does what on a focused tile, as a pure function (no DOM): tiles.js acts on the answer,
// keys.test.js tests it. The keys are the ones the tiles' docstring promises (irlab/ui/components/tiles/__init__.py).

import { clamp } from "./order.js";

/**
 * The parts of a keydown event that decide the action.
 * @typedef {{key: string, shiftKey: boolean, ctrlKey: boolean, metaKey: boolean, altKey: boolean}} KeyPress
 */

/**
 * The focused tile: its index in the row (0-based), how many tiles the row has, its grade, and whether grades
 * can be edited (0..maxGrade).
 * @typedef {{index: number, count: number, grade: number, editable: boolean, maxGrade: number}} FocusedTile
 */

/**
 * What a key press asks for: move the tile to index ``to``, move focus to the tile at index ``to``, or set the
 * tile's grade to ``grade``. Indexes and grades are already held within the row and the scale.
 * @typedef {{kind: "move", to: number} | {kind: "focus", to: number} | {kind: "grade", grade: number}} KeyAction
 */

/**
 * The action of ``press`` on the focused tile, or null when the key is not the tiles' (the browser keeps it).
 *
 * - Shift+ArrowLeft / Shift+ArrowUp: one rank up; Shift+ArrowRight / Shift+ArrowDown: one rank down;
 *   Shift+Home / Shift+End: to the first / last rank.
 * - ArrowLeft / ArrowUp, ArrowRight / ArrowDown, Home, End without Shift: focus the previous, next, first, last tile.
 * - Only when grades are editable: a digit 0..maxGrade sets the grade; + (or =) and - (or _) step it, clamped.
 * - With Ctrl, Cmd (meta) or Alt held, nothing: those are the browser's and the page's shortcuts (Ctrl+Z).
 *
 * For the tile at index 2 of 8: Shift+Home is {kind: "move", to: 0}, End is {kind: "focus", to: 7}.
 * @param {KeyPress} press
 * @param {FocusedTile} tile
 * @returns {KeyAction | null}
 */
export function keyAction(press, tile) {
  if (press.ctrlKey || press.metaKey || press.altKey) return null;
  const last = tile.count - 1;
  const key = press.key;
  const step = key === "ArrowLeft" || key === "ArrowUp" ? -1 : key === "ArrowRight" || key === "ArrowDown" ? 1 : 0;
  const to = step ? clamp(tile.index + step, 0, last) : key === "Home" ? 0 : key === "End" ? last : null;
  if (to !== null) return { kind: press.shiftKey ? "move" : "focus", to };
  if (!tile.editable) return null;
  if (/^[0-9]$/.test(key) && Number(key) <= tile.maxGrade) return { kind: "grade", grade: Number(key) };
  if (key === "+" || key === "=") return { kind: "grade", grade: clamp(tile.grade + 1, 0, tile.maxGrade) };
  if (key === "-" || key === "_") return { kind: "grade", grade: clamp(tile.grade - 1, 0, tile.maxGrade) };
  return null;
}
