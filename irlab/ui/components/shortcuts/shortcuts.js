// Ctrl+Z and Ctrl+Shift+Z (Cmd on a Mac, and Ctrl+Y) press the page's Undo and Redo buttons.
//
// Keyboard shortcuts need a listener on the document. This code computes nothing and keeps no state of
// the learner's: it clicks the real buttons (found by the Streamlit keys the server sends), so a shortcut
// does exactly what the button does, and nothing while the button is disabled. Typing in a text field
// keeps the field's own undo.

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

/** @type {{undo: string, redo: string}} */
const keys = { undo: "", redo: "" };

/** @param {KeyboardEvent} event */
function onKey(event) {
  const action = actionFor(event);
  if (!action || inTextField(event.composedPath()[0]) || !keys[action]) return;
  const button = /** @type {HTMLButtonElement | null} */ (document.querySelector(`.st-key-${keys[action]} button`));
  if (!button) return;
  event.preventDefault();
  if (!button.disabled) button.click();
}

/** @param {{data: {undo: string, redo: string}}} component */
export default function (component) {
  keys.undo = component.data.undo;
  keys.redo = component.data.redo;
  const host = /** @type {Window & {__irlUndoKeys?: boolean}} */ (window);
  if (!host.__irlUndoKeys) {
    host.__irlUndoKeys = true;
    document.addEventListener("keydown", onKey, true);
  }
}
