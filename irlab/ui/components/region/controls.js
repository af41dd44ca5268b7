// The live region's controls, drawn by the region itself: K, the chapter's settings, Undo, Redo, Reset grades.
//
// K is a real range input (its role is slider, its value is read out as "K = 3"): arrows, Home/End and
// Page keys, a finger on a phone and a mouse all move it natively, and a screen reader announces it.
// The region draws a K change itself (region.js); the other controls send a message to the server.
// What the server sends is read defensively and set as text, never as HTML. No code here reads
// Streamlit's page: the controls are this component's own elements.

/**
 * @typedef {import("./region-data").Controls} Controls
 * @typedef {import("./region-data").Setting} Setting
 * @typedef {{k: (k: number) => void, release: () => void,
 *            action: (action: string, extra?: Record<string, string>) => void}} Handlers
 * @typedef {{root: HTMLElement, k: HTMLInputElement, kValue: HTMLOutputElement, kLabel: HTMLElement,
 *            kHelp: HTMLElement, settings: HTMLElement, undo: HTMLButtonElement, redo: HTMLButtonElement,
 *            reset: HTMLButtonElement, settingViews: Map<string, SettingView>, handlers: Handlers,
 *            holding: boolean}} ControlsView
 * @typedef {{root: HTMLElement, label: HTMLElement, note: HTMLElement, body: HTMLElement, shape: string,
 *            input?: HTMLInputElement, output?: HTMLOutputElement, buttons?: HTMLButtonElement[],
 *            setting: Setting}} SettingView
 */

let ids = 0;

/**
 * An element with a class and, optionally, a data-testid.
 * @param {string} tag
 * @param {string} [className]
 * @param {string} [testid]
 * @returns {HTMLElement}
 */
function el(tag, className, testid) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (testid) node.dataset.testid = testid;
  return node;
}

/**
 * A button with an icon (hidden from screen readers) and its words.
 * @param {string} icon
 * @param {string} words
 * @param {string} testid
 * @returns {HTMLButtonElement}
 */
function button(icon, words, testid) {
  const node = /** @type {HTMLButtonElement} */ (el("button", "irl-button", testid));
  node.type = "button";
  const mark = el("span", "irl-button-icon");
  mark.setAttribute("aria-hidden", "true");
  mark.textContent = icon;
  node.append(mark, document.createTextNode(words));
  return node;
}

/**
 * A labelled range input with its value beside it.
 * @param {string} testid
 * @returns {{root: HTMLElement, label: HTMLElement, input: HTMLInputElement, output: HTMLOutputElement,
 *            help: HTMLElement}}
 */
function slider(testid) {
  const id = `irl-slider-${(ids += 1)}`;
  const root = el("div", "irl-control irl-slider", testid);
  const label = /** @type {HTMLLabelElement} */ (el("label", "irl-control-label"));
  label.htmlFor = id;
  const row = el("div", "irl-slider-row");
  const input = /** @type {HTMLInputElement} */ (el("input", "irl-range", `${testid}-input`));
  input.type = "range";
  input.id = id;
  input.step = "1";
  const output = /** @type {HTMLOutputElement} */ (el("output", "irl-range-value", `${testid}-value`));
  output.htmlFor.add(id);
  const help = el("span", "irl-visually-hidden");
  help.id = `${id}-help`;
  input.setAttribute("aria-describedby", help.id);
  row.append(input, output);
  root.append(label, row, help);
  return { root, label, input, output, help };
}

/**
 * Draw the controls into ``parent`` (once); ``update`` brings them to what the server sent.
 * @param {HTMLElement} parent
 * @param {Handlers} handlers
 * @returns {ControlsView}
 */
export function createControls(parent, handlers) {
  const root = el("div", "irl-controls", "irl-controls");
  root.setAttribute("role", "group");
  root.setAttribute("aria-label", "K and the controls of this chapter");
  const k = slider("irl-k");
  k.input.addEventListener("input", () => handlers.k(Number(k.input.value)));
  // a mouse or finger holding the thumb has not settled on a K, however long it rests: the K is told when it lets go
  k.input.addEventListener("pointerdown", () => {
    view.holding = true;
    const release = () => {
      window.removeEventListener("pointerup", release, true);
      window.removeEventListener("pointercancel", release, true);
      view.holding = false;
      handlers.release();
    };
    window.addEventListener("pointerup", release, true);
    window.addEventListener("pointercancel", release, true);
  });
  const settings = el("div", "irl-settings");
  const actions = el("div", "irl-actions");
  const undo = button("\u21B6", "Undo", "irl-undo");
  undo.setAttribute("aria-keyshortcuts", "Control+Z");
  undo.title = "Back to the state before your last move (Ctrl+Z).";
  const redo = button("\u21B7", "Redo", "irl-redo");
  redo.setAttribute("aria-keyshortcuts", "Control+Shift+Z Control+Y");
  redo.title = "Forward again to the state you undid (Ctrl+Shift+Z).";
  const reset = button("\u21BA", "Reset grades", "irl-reset-grades");
  undo.addEventListener("click", () => handlers.action("undo"));
  redo.addEventListener("click", () => handlers.action("redo"));
  reset.addEventListener("click", () => handlers.action("reset-grades"));
  actions.append(undo, redo, reset);
  root.append(k.root, settings, actions);
  parent.prepend(root);
  /** @type {ControlsView} */
  const view = { root, k: k.input, kValue: k.output, kLabel: k.label, kHelp: k.help, settings, undo, redo, reset,
                 settingViews: new Map(), handlers, holding: false };
  return view;
}

/**
 * Set a node's text only when it differs.
 * @param {Node} node
 * @param {string | null | undefined} text
 */
function setText(node, text) {
  if (node.textContent !== (text ?? "")) node.textContent = text ?? "";
}

/**
 * Show ``k`` on the K slider (the learner's own move, or the server's K).
 * @param {ControlsView} view
 * @param {number} k
 */
export function showK(view, k) {
  if (view.k.value !== String(k)) view.k.value = String(k);
  view.k.setAttribute("aria-valuetext", `K = ${k}`);
  setText(view.kValue, String(k));
}

/**
 * The learner made a move the server has not taken yet (a K drawn in the browser): Undo can undo it, and there is
 * nothing to redo any more (the server's next answer says the same).
 * @param {ControlsView} view
 */
export function movedByLearner(view) {
  enable(view.undo, true);
  enable(view.redo, false);
}

/**
 * A button's disabled state, kept focusable for a keyboard that is on it (aria-disabled, not disabled, while focused).
 * @param {HTMLButtonElement} node
 * @param {boolean} enabled
 */
function enable(node, enabled) {
  node.disabled = !enabled;
  node.setAttribute("aria-disabled", String(!enabled));
}

/**
 * Bring the controls to ``controls`` (the server's); K only when ``k`` is given (the K to show).
 * @param {ControlsView} view
 * @param {Controls} controls
 * @param {number | null} k
 */
export function updateControls(view, controls, k) {
  const slider = controls.k;
  view.root.hidden = !slider;
  if (slider) {
    if (view.k.min !== String(slider.min)) view.k.min = String(slider.min);
    if (view.k.max !== String(slider.max)) view.k.max = String(slider.max);
    setText(view.kLabel, slider.label);
    setText(view.kHelp, slider.help);
    view.kLabel.title = slider.help;
    if (k !== null) showK(view, k);
  }
  enable(view.undo, Boolean(controls.undo));
  enable(view.redo, Boolean(controls.redo));
  view.reset.hidden = !controls.resetGrades;
  if (controls.resetGrades) {
    enable(view.reset, controls.resetGrades.enabled);
    view.reset.title = controls.resetGrades.help;
  }
  const seen = new Set();
  for (const setting of controls.settings || []) {
    seen.add(setting.name);
    let item = view.settingViews.get(setting.name);
    if (!item) {
      item = settingView(view, setting);
      view.settingViews.set(setting.name, item);
      view.settings.append(item.root);
    }
    updateSetting(view, item, setting);
  }
  for (const [name, item] of view.settingViews) {
    if (!seen.has(name)) {
      item.root.remove();
      view.settingViews.delete(name);
    }
  }
  view.settings.hidden = !view.settingViews.size;
}

/**
 * The elements of one setting (a slider, or a row of buttons when ``setting.buttons``), and its note.
 * @param {ControlsView} view
 * @param {Setting} setting
 * @returns {SettingView}
 */
function settingView(view, setting) {
  const note = el("p", "irl-setting-note", "irl-setting-note");
  if (setting.buttons) {
    const root = el("div", "irl-control irl-choices", `irl-setting-${setting.name}`);
    root.setAttribute("role", "group");
    const label = el("span", "irl-control-label");
    label.id = `irl-setting-${(ids += 1)}`;
    root.setAttribute("aria-labelledby", label.id);
    const body = el("div", "irl-choice-row");
    root.append(label, body, note);
    return { root, label, note, body, shape: "buttons", buttons: [], setting };
  }
  const parts = slider(`irl-setting-${setting.name}`);
  parts.root.append(note);
  // the value is sent once the learner lets go (or per key press): each one is a run
  parts.input.addEventListener("change", () => {
    const item = view.settingViews.get(setting.name);
    const choice = item?.setting.choices[Number(parts.input.value)];
    if (choice && item && choice.value !== item.setting.value) {
      view.handlers.action("setting", { name: setting.name, value: choice.value });
    }
  });
  parts.input.addEventListener("input", () => {
    const item = view.settingViews.get(setting.name);
    const choice = item?.setting.choices[Number(parts.input.value)];
    if (choice) {
      setText(parts.output, choice.label);
      parts.input.setAttribute("aria-valuetext", choice.label);
    }
  });
  return { root: parts.root, label: parts.label, note, body: parts.root, shape: "slider", input: parts.input,
           output: parts.output, setting };
}

/**
 * Bring one setting's elements to ``setting``.
 * @param {ControlsView} view
 * @param {SettingView} item
 * @param {Setting} setting
 */
function updateSetting(view, item, setting) {
  item.setting = setting;
  setText(item.label, setting.label);
  item.label.title = setting.help;
  setText(item.note, setting.note);
  item.note.hidden = !setting.note;
  const index = Math.max(0, setting.choices.findIndex((choice) => choice.value === setting.value));
  if (item.shape === "slider" && item.input && item.output) {
    item.input.hidden = !setting.applies;
    item.output.hidden = !setting.applies;
    item.label.hidden = !setting.applies;
    item.input.min = "0";
    item.input.max = String(setting.choices.length - 1);
    if (item.input.value !== String(index)) item.input.value = String(index);
    item.input.setAttribute("aria-valuetext", setting.choices[index]?.label ?? "");
    setText(item.output, setting.choices[index]?.label ?? "");
    return;
  }
  const buttons = item.buttons || [];
  item.body.hidden = !setting.applies;
  item.label.hidden = !setting.applies;
  setting.choices.forEach((choice, position) => {
    let node = buttons[position];
    if (!node) {
      node = /** @type {HTMLButtonElement} */ (el("button", "irl-choice", "irl-choice"));
      node.type = "button";
      node.addEventListener("click", () => {
        const now = view.settingViews.get(setting.name)?.setting;
        const picked = now?.choices[position];
        if (now && picked && picked.value !== now.value) {
          view.handlers.action("setting", { name: now.name, value: picked.value });
        }
      });
      buttons.push(node);
      item.body.append(node);
    }
    setText(node, choice.label);
    node.setAttribute("aria-pressed", String(position === index));
  });
  while (buttons.length > setting.choices.length) buttons.pop()?.remove();
  item.buttons = buttons;
}
