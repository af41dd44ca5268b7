// Ctrl+Z and Ctrl+Shift+Z (Cmd on a Mac, and Ctrl+Y) stand for Undo and Redo (the live region's buttons).
//
// Keyboard shortcuts need a listener on the document. This module only tells which key press is which:
// the live region (region/region.js) does what its own button does, and nothing while the button is
// disabled. Typing in a text field keeps the field's own undo.

/**
 * Which button a key press stands for.
 * @param {{key: string, ctrlKey: boolean, metaKey: boolean, altKey: boolean, shiftKey: boolean}} press
 * @returns {"undo" | "redo" | null}
 */
export function actionFor(press) {
  if (!(press.ctrlKey || press.metaKey) || press.altKey) return null;
  const key = press.key.toLowerCase();
  if (key === "z") return press.shiftKey ? "redo" : "undo";
  if (key === "y" && !press.shiftKey) return "redo";
  return null;
}

/**
 * Whether the key press belongs to a text field (which has its own undo); a slider is not one.
 * @param {EventTarget | undefined} target
 * @returns {boolean}
 */
export function inTextField(target) {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) && /** @type {HTMLInputElement} */ (target).type !== "range";
}

/** @type {((action: "undo" | "redo") => boolean) | null} */
let handler = null;

/** @param {KeyboardEvent} event */
function onKey(event) {
  const action = actionFor(event);
  if (!action || !handler || inTextField(event.composedPath()[0])) return;
  if (handler(action)) event.preventDefault();
}

/**
 * Call ``act`` for Undo and Redo key presses anywhere on the page (one listener; a later call replaces ``act``).
 * ``act`` returns whether it did something (the key press is then the page's, not the browser's).
 * @param {(action: "undo" | "redo") => boolean} act
 */
export function onShortcut(act) {
  if (!handler) document.addEventListener("keydown", onKey, true);
  handler = act;
}
