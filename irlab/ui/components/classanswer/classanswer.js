// @ts-check
// A student's answer form: typed or chosen here, sent to the class by HTTP, kept on the phone until the class
// acknowledged it.
//
// The form is drawn from what the server says the question asks (a number, options, a box per question, or
// the order of the picture tiles above it); Send keeps the answer in the phone's outbox (outbox.js) under a
// numbered send id and posts it to the app's answer route (irlab/ui/classroom/feed.py). The receipt shows right
// under Send, scrolled into view. If the class does not answer (a dropped connection, a replica restarting), the
// answer stays in the outbox and is sent again by itself, a little later each time, and at once when the class's
// stream or the network is back; the server counts it once. A refusal (time is up, the round closed, an answer
// it cannot read) is said in one line and the text stays as typed. Nothing here runs the page's script.

import { clockOffset, secondsLeft } from "../classfeed/clock.js";
import { keep, nextSendId, retryDelay, settle, waiting } from "./outbox.js";

/**
 * What the question asks for (irlab/ui/classroom/kinds.py: each kind's answer form).
 * @typedef {object} Form
 * @property {"number" | "options" | "boxes" | "order"} kind
 * @property {string} label the form's label (a number's name, the options' hint)
 * @property {string} [placeholder]
 * @property {boolean} [whole] whole numbers only (a digits keyboard)
 * @property {{id: string, text: string}[]} [options]
 * @property {boolean} [several] several options may be chosen
 * @property {{id: string, label: string}[]} [boxes]
 * @property {string} [tiles] the Streamlit key of the tiles whose order is the answer
 * @property {string} send the Send button's words
 */

/**
 * @typedef {object} AnswerData
 * @property {string} code
 * @property {string} student the student's token (the link carries it too)
 * @property {string} store the store's id the page was drawn from
 * @property {string} post the answer route
 * @property {number} round the round's id
 * @property {Form} form
 * @property {unknown} stored the student's answer to this round as stored (a value of the form's kind), or null
 * @property {string | null} stored_text the stored answer in words
 * @property {number | null} closes_at the round's timer end (the server's clock), or null
 * @property {number} now the server's clock when it drew the page
 */

/**
 * @typedef {object} Answering
 * @property {AnswerData} data
 * @property {{root: HTMLElement, fields: HTMLElement, send: HTMLButtonElement, receipt: HTMLElement}} el
 * @property {string} formKey the form it was built for (a new kind or question builds it anew)
 * @property {Set<string>} chosen options chosen
 * @property {import("./outbox.js").Pending | null} flying the send on its way
 * @property {number} attempt failed deliveries of the waiting answer
 * @property {number | null} retry a timeout id
 * @property {number} offset the server's clock minus this device's (ms)
 * @property {boolean} timeUp
 * @property {number} [invocations] how many times Streamlit invoked the component on this instance
 * @property {() => void} cleanup
 */

const WORDS = {
  sending: "Sending your answer\u2026",
  empty: "Type your answer first.",
  choose: "Choose an option first.",
  noOrder: "The tiles are not ready yet; try again in a moment.",
  timeUp: "Time is up: answers to this round are closed.",
  kept: "The class did not answer; your answer is kept on this phone and sent again by itself.",
  yours: "Your answer in this round: {text}. Send another to replace it.",
};
const REQUEST_MS = 10_000;

/**
 * @param {string} tag
 * @param {string} className
 * @param {string} [testid]
 * @returns {HTMLElement}
 */
function make(tag, className, testid) {
  const node = document.createElement(tag);
  node.className = className;
  if (testid) node.dataset.testid = testid;
  return node;
}

/** A stable name for ids inside the shadow root. @param {string} text */
function slug(text) {
  return text.replace(/[^A-Za-z0-9_-]/g, "_");
}

/**
 * The form's fields, anew.
 * @param {Answering} answering
 */
function buildFields(answering) {
  const { form, stored } = answering.data;
  const box = answering.el.fields;
  box.replaceChildren();
  answering.chosen = new Set();
  if (form.kind === "number") {
    box.append(field("irl-answer-input", form.label, form.placeholder ?? "", form.whole ?? false,
      typeof stored === "string" || typeof stored === "number" ? String(stored) : ""));
  } else if (form.kind === "boxes") {
    const given = stored && typeof stored === "object" ? /** @type {Record<string, string>} */ (stored) : {};
    for (const item of form.boxes ?? []) {
      box.append(field(`irl-box-${slug(item.id)}`, item.label, "e.g. 0.75 or 3/4", false, given[item.id] ?? ""));
    }
  } else if (form.kind === "options") {
    const group = make("div", "irl-options", "irl-options");
    group.setAttribute("role", "group");
    const legend = make("div", "irl-legend");
    legend.id = "irl-options-legend";
    legend.textContent = form.label;
    group.setAttribute("aria-labelledby", legend.id);
    const chosen = Array.isArray(stored) ? stored.map(String) : typeof stored === "string" ? [stored] : [];
    for (const option of form.options ?? []) {
      const button = /** @type {HTMLButtonElement} */ (make("button", "irl-option", "irl-option"));
      button.type = "button";
      button.dataset.option = option.id;
      button.textContent = option.text;
      const on = chosen.includes(option.id);
      if (on) answering.chosen.add(option.id);
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.onclick = () => choose(answering, option.id);
      group.append(button);
    }
    box.append(legend, group);
  }
}

/**
 * A labelled text box with a phone's number keyboard.
 * @param {string} id
 * @param {string} label
 * @param {string} placeholder
 * @param {boolean} whole
 * @param {string} value
 */
function field(id, label, placeholder, whole, value) {
  const wrap = make("div", "irl-field");
  const text = /** @type {HTMLLabelElement} */ (make("label", "irl-label"));
  text.htmlFor = id;
  text.textContent = label;
  const input = /** @type {HTMLInputElement} */ (make("input", "irl-input", "irl-answer-input"));
  input.id = id;
  input.type = "text";
  input.inputMode = whole ? "numeric" : "decimal";
  input.enterKeyHint = "send";
  input.autocomplete = "off";
  input.spellcheck = false;
  input.setAttribute("autocorrect", "off");
  input.setAttribute("autocapitalize", "off");
  input.maxLength = 100;
  input.placeholder = placeholder;
  input.value = value;
  wrap.append(text, input);
  return wrap;
}

/**
 * @param {Answering} answering
 * @param {string} option
 */
function choose(answering, option) {
  const several = answering.data.form.several ?? false;
  if (answering.chosen.has(option)) answering.chosen.delete(option);
  else {
    if (!several) answering.chosen.clear();
    answering.chosen.add(option);
  }
  for (const button of answering.el.fields.querySelectorAll("button.irl-option")) {
    const id = /** @type {HTMLElement} */ (button).dataset.option ?? "";
    button.setAttribute("aria-pressed", answering.chosen.has(id) ? "true" : "false");
  }
}

/**
 * The order the tiles above show now (their documented hook: `data-order` on `[data-testid="irl-root"]`).
 * @param {string} key the tiles' Streamlit key
 * @returns {string[] | null}
 */
export function tilesOrder(key) {
  const holder = document.querySelector(`.st-key-${CSS.escape(key)}`);
  if (!holder) return null;
  const places = [holder, ...Array.from(holder.querySelectorAll("*")).map((node) => node.shadowRoot)];
  for (const place of places) {
    const root = place?.querySelector('[data-testid="irl-root"]');
    const order = root instanceof HTMLElement ? root.dataset.order : undefined;
    if (order) return order.split(",");
  }
  return null;
}

/**
 * The answer as the form holds it, or a line saying what is missing.
 * @param {Answering} answering
 * @returns {{value: unknown} | {missing: string}}
 */
function read(answering) {
  const form = answering.data.form;
  const inputs = /** @type {HTMLInputElement[]} */ (Array.from(answering.el.fields.querySelectorAll("input")));
  if (form.kind === "number") {
    const text = inputs[0]?.value.trim() ?? "";
    return text ? { value: text } : { missing: WORDS.empty };
  }
  if (form.kind === "boxes") {
    /** @type {Record<string, string>} */
    const given = {};
    (form.boxes ?? []).forEach((item, index) => { given[item.id] = inputs[index]?.value.trim() ?? ""; });
    return Object.values(given).some(Boolean) ? { value: given } : { missing: WORDS.empty };
  }
  if (form.kind === "options") {
    const chosen = (form.options ?? []).map((o) => o.id).filter((id) => answering.chosen.has(id));
    return chosen.length ? { value: chosen } : { missing: WORDS.choose };
  }
  const order = tilesOrder(form.tiles ?? "");
  return order ? { value: order } : { missing: WORDS.noOrder };
}

/**
 * Say `text` under Send (`tone`: sent, kept, refused, info), and bring it into view on a phone.
 * @param {Answering} answering
 * @param {string} text
 * @param {"sent" | "kept" | "refused" | "info" | "sending"} tone
 */
function say(answering, text, tone) {
  const receipt = answering.el.receipt;
  receipt.hidden = !text;
  receipt.dataset.tone = tone;
  if (receipt.textContent !== text) receipt.textContent = text;
  if (text && tone !== "info" && typeof receipt.scrollIntoView === "function")
    receipt.scrollIntoView({ block: "nearest" }); // on a phone the receipt would be below the fold
}

/** @param {Answering} answering */
function storage(answering) {
  void answering;
  try {
    return window.localStorage;
  } catch {
    return { getItem: () => null, setItem: () => {}, removeItem: () => {} };
  }
}

/** @param {Answering} answering */
function send(answering) {
  if (answering.timeUp) {
    say(answering, WORDS.timeUp, "refused");
    return;
  }
  const found = read(answering);
  if ("missing" in found) {
    say(answering, found.missing, "refused");
    return;
  }
  const store = storage(answering);
  /** @type {import("./outbox.js").Pending} */
  const pending = { round: answering.data.round, answer: found.value, send: nextSendId(store), at: Date.now() };
  keep(store, answering.data.code, pending);
  answering.attempt = 0;
  deliver(answering);
}

/**
 * Send the answer waiting in the outbox, if any and none is on its way.
 * @param {Answering} answering
 */
async function deliver(answering) {
  const { code, student, store: storeId, post } = answering.data;
  const store = storage(answering);
  const pending = waiting(store, code);
  if (!pending || answering.flying) return;
  if (answering.retry !== null) {
    window.clearTimeout(answering.retry);
    answering.retry = null;
  }
  answering.flying = pending;
  say(answering, WORDS.sending, "sending");
  const abort = new AbortController();
  const timeout = window.setTimeout(() => abort.abort(), REQUEST_MS);
  /** @type {{ok?: boolean, message?: string, final?: boolean} | null} */
  let reply = null;
  let status = 0;
  try {
    const response = await fetch(post, {
      method: "POST", headers: { "Content-Type": "application/json" }, signal: abort.signal, cache: "no-store",
      body: JSON.stringify({ code, student, s: storeId, round: pending.round, answer: pending.answer, send: pending.send }),
    });
    status = response.status;
    reply = await response.json().catch(() => null);
  } catch {
    status = 0; // the network, or no answer within 10 s
  } finally {
    window.clearTimeout(timeout);
    answering.flying = null;
  }
  const newer = waiting(store, code);
  const superseded = newer !== null && newer.send !== pending.send;
  if (reply && (status === 200 || (reply.final && status !== 503))) {
    settle(store, code, pending.send);
    if (!superseded) say(answering, reply.message ?? "", status === 200 ? "sent" : "refused");
  } else {
    say(answering, WORDS.kept, "kept");
    answering.attempt += 1;
    if (!superseded) answering.retry = window.setTimeout(() => deliver(answering), retryDelay(answering.attempt - 1));
  }
  if (superseded) deliver(answering);
}

/** @param {Answering} answering */
function checkTime(answering) {
  const closes = answering.data.closes_at;
  const up = closes !== null && secondsLeft(closes, Date.now(), answering.offset) === 0;
  if (up === answering.timeUp) return;
  answering.timeUp = up;
  answering.el.send.setAttribute("aria-disabled", up ? "true" : "false");
  if (up && !answering.flying && !waiting(storage(answering), answering.data.code)) say(answering, WORDS.timeUp, "info");
}

/**
 * @param {HTMLElement | ShadowRoot} parent
 * @param {AnswerData} data
 * @returns {Answering}
 */
function build(parent, data) {
  const root = make("form", "irl-answer", "irl-answer");
  root.setAttribute("novalidate", "");
  const fields = make("div", "irl-fields");
  const sendButton = /** @type {HTMLButtonElement} */ (make("button", "irl-send", "irl-send"));
  sendButton.type = "submit";
  const receipt = make("div", "irl-receipt", "irl-receipt");
  receipt.setAttribute("role", "status");
  receipt.setAttribute("aria-live", "polite");
  receipt.hidden = true;
  root.append(fields, sendButton, receipt);
  parent.append(root);
  /** @type {Answering} */
  const answering = {
    data, el: { root, fields, send: sendButton, receipt }, formKey: "", chosen: new Set(), flying: null, attempt: 0,
    retry: null, offset: clockOffset(data.now, Date.now()), timeUp: false, cleanup: () => {},
  };
  root.addEventListener("submit", (event) => {
    event.preventDefault();
    send(answering);
  });
  return answering;
}

/**
 * The component: the form for the round the page shows; an answer waiting in the outbox is sent at once.
 * @param {import("../types.js").ComponentArgs<AnswerData> & {parentElement: (HTMLElement | ShadowRoot)
 *   & {__irlAnswer?: Answering}}} component
 * @returns {() => void}
 */
export default function (component) {
  const { data, parentElement } = component;
  let answering = parentElement.__irlAnswer;
  if (!answering) {
    parentElement.querySelectorAll(".irl-answer").forEach((node) => node.remove()); // an instance ended: built anew
    const made = build(parentElement, data);
    const again = () => { made.attempt = 0; deliver(made); };
    const timer = window.setInterval(() => checkTime(made), 1000);
    window.addEventListener("online", again);
    window.addEventListener("irl-class-online", again);
    made.cleanup = () => {
      window.clearInterval(timer);
      if (made.retry !== null) window.clearTimeout(made.retry);
      window.removeEventListener("online", again);
      window.removeEventListener("irl-class-online", again);
      made.el.root.remove();
      if (parentElement.__irlAnswer === made) delete parentElement.__irlAnswer;
    };
    parentElement.__irlAnswer = made;
    answering = made;
  }
  const roundChanged = answering.data.round !== data.round;
  answering.data = data;
  answering.offset = clockOffset(data.now, Date.now());
  const formKey = JSON.stringify(data.form);
  if (formKey !== answering.formKey) {
    answering.formKey = formKey;
    buildFields(answering);
    answering.el.send.textContent = data.form.send;
  }
  const waitingNow = waiting(storage(answering), data.code);
  if (waitingNow) deliver(answering); // kept from before a reload or a lost connection: sent now
  else if (roundChanged || !answering.el.receipt.textContent || answering.el.receipt.dataset.tone === "info") {
    say(answering, data.stored_text ? WORDS.yours.replace("{text}", data.stored_text) : "", "info");
  }
  answering.timeUp = false;
  checkTime(answering);
  // Streamlit calls the cleanup of an invocation a newer update overtook while the module loaded (it ran all the
  // same), then invokes the component again: only the cleanup of the latest invocation ends the form
  const instance = answering;
  const invoked = instance.invocations = (instance.invocations ?? 0) + 1;
  return () => { if (instance.invocations === invoked) instance.cleanup(); };
}
