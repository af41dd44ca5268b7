// @ts-check
// A phone's number keyboard for the answer boxes: sets `inputmode` on Streamlit text inputs by their keys.
//
// st.text_input cannot set `inputmode`, and st.number_input (type="number") refuses a decimal comma, "3/4"
// and "75%", which the class accepts as Practise does. So the answers stay Streamlit text inputs (labelled,
// in a form, testable on the server) and this code only adds what a phone reads: `inputmode="decimal"`
// (digits and the locale's decimal separator; "numeric" for whole numbers), `enterkeyhint="send"`, and no
// autocorrection or autocapitalisation. Streamlit may replace an input element while it redraws, so a
// mutation observer applies the attributes again. It computes nothing and sends nothing back.

/**
 * What the server sends: the keyboard mode, then the keys of the inputs, as a list
 * (`["decimal", "irl-answer-3"]`).
 * @typedef {[("decimal" | "numeric"), ...string[]]} KeyboardData
 */

/**
 * Give every text input inside the Streamlit elements keyed `keys` the keyboard `mode`.
 * @param {ParentNode} root
 * @param {KeyboardData} data
 * @returns {number} how many inputs were set
 */
export function applyKeyboard(root, data) {
  const [mode, ...keys] = data;
  let count = 0;
  for (const key of keys) {
    for (const input of root.querySelectorAll(`.st-key-${CSS.escape(key)} input`)) {
      const field = /** @type {HTMLInputElement} */ (input);
      if (field.inputMode !== mode) field.inputMode = mode;
      if (field.enterKeyHint !== "send") field.enterKeyHint = "send";
      field.autocomplete = "off";
      field.spellcheck = false;
      field.setAttribute("autocorrect", "off");
      field.setAttribute("autocapitalize", "off");
      count += 1;
    }
  }
  return count;
}

/**
 * @typedef {{data: KeyboardData, cleanup: () => void}} Held
 */

/**
 * The component: apply now, and again whenever the page's elements change. It runs again on every rerun
 * against the same element, so the observer is made once per element (and reads the latest data); every
 * run returns the same cleanup, whichever one Streamlit calls.
 * @param {{data: KeyboardData, parentElement: (HTMLElement | ShadowRoot) & {__irlKeyboard?: Held}}} component
 * @returns {() => void}
 */
export default function (component) {
  const { data, parentElement } = component;
  applyKeyboard(document, data);
  const existing = parentElement.__irlKeyboard;
  if (existing) {
    existing.data = data;
    return existing.cleanup;
  }
  let pending = 0;
  const observer = new MutationObserver(() => {
    if (pending) return;
    pending = window.requestAnimationFrame(() => { pending = 0; applyKeyboard(document, held.data); });
  });
  /** @type {Held} */
  const held = {
    data,
    cleanup: () => {
      observer.disconnect();
      if (pending) window.cancelAnimationFrame(pending);
      delete parentElement.__irlKeyboard;
    },
  };
  parentElement.__irlKeyboard = held;
  observer.observe(document.body, { childList: true, subtree: true });
  return held.cleanup;
}
