// IR Lab ranking tiles: a Streamlit components-v2 module (no build step), and `createTiles` for components that
// draw a row of tiles inside their own element (the live region, irlab/ui/components/region/region.js).
//
// The default export runs on every Streamlit rerun against the same DOM. Everything that belongs to one
// instance lives on `parentElement.__irlTiles` (one ShadowRoot per instance); the only module-level state
// is the change counter (`seq`) and an id counter. Strings from the server go into the DOM as text
// (textContent / attributes), never as HTML. The order logic is in order.js, the keys in keys.js, dragging
// (mouse, pen and touch alike) in drag.js; this module draws the tiles and reports the learner's changes.

import { el, icon, setAttr, setClass, setText } from "./dom.js";
import { attachDrag } from "./drag.js";
import { keyAction } from "./keys.js";
import { clamp, completeOrder, moveToIndex, sameList, sameSet, shuffled } from "./order.js";

/** @typedef {"TP" | "FP" | "FN" | "TN"} TileClass */
/** @typedef {"drag" | "keyboard" | "button" | "reset" | "ideal" | "shuffle" | "grade"} ChangeAction */

/**
 * The learner's change, as the component reports it (the state value ``change``; see the docstring of
 * irlab/ui/components/tiles/__init__.py).
 * @typedef {object} Change
 * @property {string[]} order
 * @property {Record<string, number> | null} grades null in binary mode
 * @property {number} seq unique for the page load, increasing
 * @property {ChangeAction} action
 * @property {string | null} item the tile moved or edited
 */

/**
 * One tile as the server sends it (``build_data`` in irlab/ui/components/tiles/__init__.py checks it).
 * @typedef {object} TileData
 * @property {string} id
 * @property {string} [title]
 * @property {string} [alt]
 * @property {string} [picture]
 * @property {number} [relevance] the judged grade
 * @property {string} [relevance_label]
 * @property {TileClass | null} [class]
 * @property {string} [class_label]
 * @property {number | null} [rubric]
 * @property {boolean | null} [counts] graded chapters 1-2: whether the grade counts as relevant at the level
 * @property {string} [counts_label] the same in words ("relevant (3 ≥ 2)")
 */

/**
 * The data of one row (``build_data``); read defensively, every field may be missing.
 * @typedef {object} TilesData
 * @property {string} [label]
 * @property {string} [mode]
 * @property {number | null} [k]
 * @property {boolean} [editable_grades]
 * @property {number} [max_grade]
 * @property {string[]} [default_order]
 * @property {string[] | null} [ideal_order]
 * @property {boolean} [show_classes]
 * @property {boolean} [large]
 * @property {boolean} [show_buttons]
 * @property {number | null} [ack_seq]
 * @property {TileData[]} [tiles]
 */

/**
 * A tile's data as this code keeps it.
 * @typedef {object} Item
 * @property {string} id
 * @property {string} title
 * @property {string} alt
 * @property {string} picture
 * @property {number} relevance the judged grade (0 or 1 in binary mode)
 * @property {string} relevanceLabel
 * @property {TileClass | null} cls
 * @property {string} classLabel
 * @property {number | null} rubric the judged grade, when grades are editable
 * @property {boolean | null} counts whether the grade counts as relevant at the chosen level (null: not shown)
 * @property {string} countsLabel
 */

/**
 * @typedef {object} Config
 * @property {string} label
 * @property {"binary" | "graded"} mode
 * @property {number | null} k
 * @property {boolean} editable
 * @property {number} maxGrade
 * @property {string[]} defaultOrder
 * @property {string[] | null} idealOrder
 * @property {boolean} showClasses
 * @property {boolean} large
 * @property {boolean} showButtons
 */

/**
 * The elements of one tile.
 * @typedef {object} TileRefs
 * @property {HTMLDivElement} tile
 * @property {HTMLButtonElement} up
 * @property {HTMLSpanElement} rank
 * @property {HTMLButtonElement} down
 * @property {HTMLImageElement} img
 * @property {HTMLDivElement} title
 * @property {HTMLDivElement} badges
 * @property {HTMLElement | null} rel
 * @property {string} relKind
 * @property {HTMLSpanElement} cls
 * @property {HTMLElement} clsCode
 * @property {HTMLSpanElement} clsText
 * @property {HTMLDivElement} status
 * @property {HTMLSpanElement} statusText
 * @property {HTMLSpanElement} edited
 * @property {HTMLSpanElement} editedText
 * @property {HTMLButtonElement} editedReset
 * @property {HTMLSpanElement} counts
 * @property {HTMLSpanElement} countsMark
 * @property {HTMLSpanElement} countsText
 */

/**
 * One row of tiles.
 * @typedef {object} Instance
 * @property {HTMLElement | ShadowRoot} host
 * @property {Config} cfg
 * @property {Map<string, Item>} items id -> tile data from the server
 * @property {string[]} order
 * @property {Record<string, number>} grades
 * @property {boolean} dirty local changes the server has not confirmed yet
 * @property {number} lastEmittedSeq
 * @property {Map<string, TileRefs>} tiles
 * @property {string} lastMsg
 * @property {((change: Change) => void) | null} report
 * @property {{cancel: () => void, active: () => boolean}} drag
 * @property {TilesData | undefined} [latest] the data of the latest run (the default export)
 * @property {HTMLDivElement} root
 * @property {HTMLDivElement} toolbar
 * @property {HTMLDivElement} actions
 * @property {HTMLButtonElement} btnReset
 * @property {HTMLButtonElement} btnIdeal
 * @property {HTMLButtonElement} btnShuffle
 * @property {HTMLDivElement} legend
 * @property {HTMLSpanElement} legendK
 * @property {HTMLSpanElement} legendIn
 * @property {HTMLSpanElement} legendSplit
 * @property {HTMLSpanElement} legendOut
 * @property {HTMLDivElement} hint
 * @property {string} descId
 * @property {HTMLDivElement} list
 * @property {HTMLDivElement} cut
 * @property {HTMLSpanElement} cutPill
 * @property {HTMLDivElement} live
 */

const CLASSES = ["TP", "FP", "FN", "TN"];
let lastSeq = 0;
let uidCounter = 0;

/** A change number that is unique for the page load and increasing (the clock, or one more than the last). */
function nextSeq() {
  const now = Date.now();
  lastSeq = now > lastSeq ? now : lastSeq + 1;
  return lastSeq;
}

/**
 * Whether this device's main pointer is a finger (a phone or a tablet): the hint then says how to drag by touch.
 * @returns {boolean}
 */
function coarsePointer() {
  return typeof window.matchMedia === "function" && window.matchMedia("(pointer: coarse)").matches;
}

// The TP/FP/FN/TN class of a tile comes from the server only (irlab computes it). While a move waits
// for the server's answer a tile shows no class rather than a guess.

// ---------------------------------------------------------------- instance

/**
 * A new, empty row of tiles in ``host`` (filled by the first ``receive``).
 * @param {HTMLElement | ShadowRoot} host
 * @returns {Instance}
 */
function createInstance(host) {
  const uid = ++uidCounter;
  const root = el("div", "irl-root", { "data-testid": "irl-root" });

  const toolbar = el("div", "irl-toolbar", { "data-testid": "irl-toolbar" });
  const actions = el("div", "irl-actions", { role: "group", "aria-label": "Reorder all tiles" });
  /**
   * @param {"reset" | "ideal" | "shuffle"} act
   * @param {string} text
   */
  const mkAction = (act, text) => {
    const button = el("button", "irl-action irl-action-" + act, { type: "button", "data-act": act, "data-testid": "irl-" + act });
    button.appendChild(icon(act));
    button.appendChild(el("span", "irl-action-text")).textContent = text;
    actions.appendChild(button);
    return button;
  };
  const btnReset = mkAction("reset", "Reset order");
  const btnIdeal = mkAction("ideal", "Ideal order");
  const btnShuffle = mkAction("shuffle", "Shuffle");
  const legend = el("div", "irl-legend", { "data-testid": "irl-legend" });
  const legendK = el("span", "irl-legend-k");
  const legendIn = el("span", "irl-legend-in");
  const legendSplit = el("span", "irl-legend-split", { "aria-hidden": "true" });
  legendSplit.append(icon("left"), el("span", "irl-legend-line"), icon("right"));
  const legendOut = el("span", "irl-legend-out");
  legend.append(legendK, legendIn, legendSplit, legendOut);
  toolbar.append(actions, legend);

  const descId = "irl-desc-" + uid;
  const hint = el("div", "irl-hint", { id: descId, "data-testid": "irl-hint" });
  const list = el("div", "irl-list", { role: "list", "data-testid": "irl-list" });
  const cut = el("div", "irl-cut", { "aria-hidden": "true", "data-testid": "irl-cut" });
  const cutPill = el("span", "irl-cut-pill");
  cut.append(cutPill, el("span", "irl-cut-line"));
  const live = el("div", "irl-live irl-sr", {
    "aria-live": "polite", "aria-atomic": "true", role: "status", "data-testid": "irl-live",
  });
  root.append(toolbar, hint, list, live);
  host.appendChild(root);

  /** @type {Instance} */
  const inst = {
    host,
    cfg: { label: "Ranking", mode: "binary", k: null, editable: false, maxGrade: 1, defaultOrder: [], idealOrder: null,
           showClasses: false, large: false, showButtons: true },
    items: new Map(), order: [], grades: {}, dirty: false, lastEmittedSeq: 0, tiles: new Map(), lastMsg: "",
    report: null, drag: { cancel() {}, active: () => false },
    root, toolbar, actions, btnReset, btnIdeal, btnShuffle, legend, legendK, legendIn, legendSplit, legendOut,
    hint, descId, list, cut, cutPill, live,
  };
  wire(inst);
  return inst;
}

// ---------------------------------------------------------------- data in

/**
 * Take the data of a run: the configuration always; the order and grades unless they are older than the
 * learner's latest change (see "Stale data" in the tiles' docstring).
 * @param {Instance} inst
 * @param {TilesData | null | undefined} data
 */
function receive(inst, data) {
  const d = data && typeof data === "object" ? data : {};
  const tiles = Array.isArray(d.tiles) ? d.tiles : [];
  const mode = d.mode === "graded" ? "graded" : "binary";
  const maxGrade = mode === "graded" ? Math.max(1, Math.trunc(Number(d.max_grade)) || 4) : 1;
  const ids = tiles.map((t) => String(t.id));
  const prevMode = inst.items.size ? inst.cfg.mode : mode;
  inst.cfg = {
    label: d.label == null ? "Ranking" : String(d.label),
    mode,
    k: d.k === null || d.k === undefined ? null : Math.max(0, Math.trunc(Number(d.k)) || 0),
    editable: !!d.editable_grades && mode === "graded",
    maxGrade,
    defaultOrder: completeOrder(d.default_order, ids),
    idealOrder: Array.isArray(d.ideal_order) ? completeOrder(d.ideal_order, ids) : null,
    showClasses: !!d.show_classes,
    large: !!d.large,
    showButtons: d.show_buttons !== false,
  };
  const prevIds = inst.order;
  inst.items = new Map();
  for (const t of tiles) {
    const id = String(t.id);
    inst.items.set(id, {
      id,
      title: t.title == null ? id : String(t.title),
      alt: t.alt == null ? "" : String(t.alt),
      picture: t.picture == null ? "" : String(t.picture),
      relevance: Math.trunc(Number(t.relevance)) || 0,
      relevanceLabel: t.relevance_label == null ? "" : String(t.relevance_label),
      cls: t.class && CLASSES.includes(t.class) ? t.class : null,
      classLabel: t.class_label == null ? "" : String(t.class_label),
      rubric: Number.isInteger(t.rubric) ? /** @type {number} */ (t.rubric) : null,
      counts: typeof t.counts === "boolean" ? t.counts : null,
      countsLabel: t.counts_label == null ? "" : String(t.counts_label),
    });
  }

  const ack = typeof d.ack_seq === "number" ? d.ack_seq : null;
  // data from a rerun that started before our latest change: keep our order and grades
  // (unless the tiles or the mode changed, then the server wins)
  const stale = inst.lastEmittedSeq > 0 && ack !== null && ack < inst.lastEmittedSeq
    && prevMode === mode && sameSet(prevIds, ids);
  if (!stale) {
    if (!sameList(inst.order, ids)) inst.drag.cancel();  // the server moved the tiles under a drag
    inst.order = ids;
    inst.grades = {};
    for (const [id, item] of inst.items) inst.grades[id] = item.relevance;
    inst.dirty = false;
  } else {
    inst.order = completeOrder(inst.order, ids);
    for (const id of ids) if (!(id in inst.grades)) inst.grades[id] = inst.items.get(id)?.relevance ?? 0;
  }
  render(inst);
}

// ---------------------------------------------------------------- rendering

/**
 * The item ``id`` (it exists: callers take ids from ``inst.order``, which holds only known ids).
 * @param {Instance} inst
 * @param {string} id
 * @returns {Item}
 */
function itemOf(inst, id) {
  const item = inst.items.get(id);
  if (!item) throw new Error(`no tile ${id}`);
  return item;
}

/**
 * The words for the tile's current grade: the server's label while the grade is the judged one.
 * @param {Instance} inst
 * @param {string} id
 * @returns {string}
 */
function gradeLabel(inst, id) {
  const item = itemOf(inst, id);
  const g = inst.grades[id] ?? 0;
  if (item.relevanceLabel && g === item.relevance) return item.relevanceLabel;
  if (inst.cfg.mode === "binary") return g > 0 ? "relevant" : "not relevant";
  return `grade ${g} of ${inst.cfg.maxGrade}`;
}

/**
 * How many tiles stand before the cut (null: no cut).
 * @param {Instance} inst
 * @returns {number | null}
 */
function cutIndex(inst) {
  const k = inst.cfg.k;
  return k === null ? null : Math.min(k, inst.order.length);
}

/**
 * The elements of a new tile (filled by ``updateTile``).
 * @param {Instance} inst
 * @param {string} id
 * @returns {TileRefs}
 */
function makeTile(inst, id) {
  const tile = el("div", "irl-tile", { role: "listitem", tabindex: "0", "data-item-id": id, "data-testid": "irl-tile" });
  tile.setAttribute("aria-describedby", inst.descId);
  const head = el("div", "irl-head");
  const up = el("button", "irl-move irl-move-up",
    { type: "button", tabindex: "-1", "data-dir": "-1", "data-testid": "irl-move-up" });
  up.appendChild(icon("left"));
  const rank = el("span", "irl-rank", { "data-testid": "irl-rank", "aria-hidden": "true" });
  const down = el("button", "irl-move irl-move-down",
    { type: "button", tabindex: "-1", "data-dir": "1", "data-testid": "irl-move-down" });
  down.appendChild(icon("right"));
  head.append(up, rank, down);
  const pic = el("div", "irl-pic");
  const img = el("img", "irl-img", { draggable: "false", "data-testid": "irl-picture" });
  pic.appendChild(img);
  const title = el("div", "irl-title", { "data-testid": "irl-title" });
  const badges = el("div", "irl-badges");
  const cls = el("span", "irl-class", { "data-testid": "irl-class" });
  const clsCode = el("b", "irl-class-code");
  const clsText = el("span", "irl-class-text");
  cls.append(clsCode, clsText);
  const status = el("div", "irl-status", { "data-testid": "irl-status" });
  const statusIcon = el("span", "irl-status-icon", { "aria-hidden": "true" });
  statusIcon.appendChild(icon("check"));
  const statusText = el("span", "irl-status-text");
  status.append(statusIcon, statusText);
  // an edited grade says so, with the judged grade and a button that puts it back (this grade only)
  const edited = el("span", "irl-edited", { "data-testid": "irl-edited", hidden: "" });
  const editedText = el("span", "irl-edited-text");
  const editedReset = el("button", "irl-edited-reset", { type: "button", tabindex: "-1", "data-testid": "irl-grade-reset" });
  editedReset.textContent = "undo edit";
  edited.append(editedText, editedReset);
  // graded chapters 1-2: whether this grade counts as relevant at the chosen level, in words and a mark
  const counts = el("span", "irl-counts", { "data-testid": "irl-counts", hidden: "" });
  const countsMark = el("span", "irl-counts-mark", { "aria-hidden": "true" });
  const countsText = el("span", "irl-counts-text");
  counts.append(countsMark, countsText);
  tile.append(head, pic, title, badges, counts, edited, status);
  /** @type {TileRefs} */
  const refs = { tile, up, rank, down, img, title, badges, rel: null, relKind: "", cls, clsCode, clsText, status,
                 statusText, edited, editedText, editedReset, counts, countsMark, countsText };
  inst.tiles.set(id, refs);
  return refs;
}

/**
 * Build the tile's relevance badge for ``kind`` ("binary", "graded" or "graded-edit"), replacing the old one.
 * @param {TileRefs} refs
 * @param {string} kind
 */
function buildRelBadge(refs, kind) {
  if (refs.rel) refs.rel.remove();
  /** @type {HTMLElement} */
  let badge;
  if (kind === "binary") {
    badge = el("span", "irl-rel", { "data-testid": "irl-relevance" });
    badge.append(icon("check", "irl-rel-yes"), icon("cross", "irl-rel-no"), el("span", "irl-rel-text"));
  } else {
    const editable = kind === "graded-edit";
    badge = el(editable ? "button" : "span", "irl-grade" + (editable ? " irl-grade-edit" : ""), { "data-testid": "irl-grade" });
    if (editable) {
      badge.setAttribute("type", "button");
      badge.setAttribute("tabindex", "-1");
    }
    const top = el("span", "irl-grade-top");
    top.append(el("span", "irl-grade-word"), el("span", "irl-grade-num"));
    badge.append(top, el("span", "irl-pips", { "aria-hidden": "true" }));
  }
  refs.badges.insertBefore(badge, refs.badges.firstChild);
  refs.rel = badge;
  refs.relKind = kind;
}

/**
 * Bring the tile's relevance badge (and its edited mark) up to date.
 * @param {Instance} inst
 * @param {TileRefs} refs
 * @param {string} id
 */
function updateRelBadge(inst, refs, id) {
  const cfg = inst.cfg;
  const kind = cfg.mode === "binary" ? "binary" : cfg.editable ? "graded-edit" : "graded";
  if (refs.relKind !== kind || !refs.rel) buildRelBadge(refs, kind);
  const badge = /** @type {HTMLElement} */ (refs.rel);
  const g = inst.grades[id] ?? 0;
  const label = gradeLabel(inst, id);
  const item = itemOf(inst, id);
  if (kind === "binary") {
    setAttr(badge, "data-relevance", g > 0 ? "1" : "0");
    if (badge.lastChild) setText(badge.lastChild, label);
    return;
  }
  setAttr(badge, "data-grade", String(g));
  setAttr(badge, "data-max-grade", String(cfg.maxGrade));
  const [word, num] = Array.from(badge.children[0].children);
  setText(word, "grade");
  setText(num, String(g));
  const pips = badge.children[1];
  if (pips.children.length !== cfg.maxGrade) {
    pips.textContent = "";
    for (let i = 0; i < cfg.maxGrade; i++) pips.appendChild(el("span", "irl-pip"));
  }
  Array.from(pips.children).forEach((pip, i) => setClass(pip, "irl-pip-on", i < g));
  const changed = kind === "graded-edit" && item.rubric !== null && g !== item.rubric;
  setAttr(refs.tile, "data-edited", changed ? "true" : null);
  setAttr(refs.edited, "hidden", changed ? null : "");
  setText(refs.editedText, changed ? `edited (judged ${item.rubric})` : "");
  setAttr(refs.editedReset, "aria-label", changed ? `Put the grade of ${item.title} back to the judged ${item.rubric}` : null);
  if (kind === "graded-edit") {
    setAttr(badge, "aria-label", `Change the grade of ${item.title} (now ${label}${changed ? `, edited; judged ${item.rubric}` : ""}; click for the next grade)`);
    setAttr(badge, "title", `${label}. Click, or focus the tile and type 0–${cfg.maxGrade}, to change it.`);
  } else {
    setAttr(badge, "aria-label", null);
    setAttr(badge, "title", label);
  }
}

/**
 * Bring tile ``id`` at index ``idx`` up to date: rank, picture, labels, class, returned or not.
 * @param {Instance} inst
 * @param {TileRefs} refs
 * @param {string} id
 * @param {number} idx
 */
function updateTile(inst, refs, id, idx) {
  const cfg = inst.cfg;
  const item = itemOf(inst, id);
  const n = inst.order.length;
  const rank = idx + 1;
  const k = cfg.k;
  const returned = k === null ? null : rank <= k;
  const t = refs.tile;
  setAttr(t, "data-rank", String(rank));
  setAttr(t, "data-returned", returned === null ? null : String(returned));
  setAttr(t, "data-grade", String(inst.grades[id] ?? 0));
  setText(refs.rank, String(rank));
  setAttr(refs.img, "src", item.picture || null);
  setAttr(refs.img, "alt", item.alt);
  setText(refs.title, item.title);

  setAttr(refs.up, "aria-label", rank > 1 ? `Move ${item.title} up to rank ${rank - 1}` : `${item.title} is already at rank 1`);
  setAttr(refs.up, "aria-disabled", rank > 1 ? "false" : "true");
  setAttr(refs.up, "title", rank > 1 ? `Move up to rank ${rank - 1}` : "Already at rank 1");
  setAttr(refs.down, "aria-label", rank < n ? `Move ${item.title} down to rank ${rank + 1}` : `${item.title} is already at rank ${n}`);
  setAttr(refs.down, "aria-disabled", rank < n ? "false" : "true");
  setAttr(refs.down, "title", rank < n ? `Move down to rank ${rank + 1}` : `Already at rank ${n}`);

  updateRelBadge(inst, refs, id);

  // a pending move shows no class: the server's answer (a few ms away) brings the new ones
  const cls = cfg.showClasses && !inst.dirty ? item.cls : null;
  const clsLabel = cls ? item.classLabel || cls : "";
  setAttr(refs.cls, "hidden", cls ? null : "");
  setAttr(refs.cls, "data-class", cls);
  setText(refs.clsCode, cls || "");
  setText(refs.clsText, cls && clsLabel && clsLabel !== cls ? clsLabel : "");
  if (cls && !refs.cls.parentNode) refs.badges.appendChild(refs.cls);

  // a grade the learner just changed has no verdict until the server's answer (it depends on the level)
  const counts = item.counts !== null && inst.grades[id] === item.relevance ? item.counts : null;
  setAttr(refs.counts, "hidden", counts === null ? "" : null);
  setAttr(refs.counts, "data-counts", counts === null ? null : String(counts));
  setText(refs.countsMark, counts === null ? "" : counts ? "\u2714" : "\u2716");
  setText(refs.countsText, counts === null ? "" : item.countsLabel);

  // a class (true positive, false negative, ...) already says whether the tile is returned: no second line
  setAttr(refs.status, "hidden", returned === null || cls ? "" : null);
  setText(refs.statusText, returned === null ? "" : returned ? "returned" : "not returned");

  const parts = [`Rank ${rank} of ${n}: ${item.title}`, gradeLabel(inst, id)];
  if (counts !== null && item.countsLabel) parts.push(item.countsLabel);
  if (cls) parts.push(`${cls}, ${clsLabel || cls}`);
  if (returned !== null) parts.push(returned ? `returned (top ${k})` : `not returned (below the cut at K = ${k})`);
  setAttr(t, "aria-label", parts.join(". ") + ".");
}

/**
 * Put ``desired`` (nodes) into ``list`` in that order without ever moving ``pivot`` (the tile that holds
 * focus), so focus survives reordering.
 * @param {HTMLElement} list
 * @param {HTMLElement[]} desired
 * @param {HTMLElement | null} pivot
 */
function reorderChildren(list, desired, pivot) {
  const cur = Array.from(list.children);
  if (sameList(cur, desired)) return;
  for (const c of cur) if (!desired.includes(/** @type {HTMLElement} */ (c))) c.remove();
  let p = pivot ? desired.indexOf(pivot) : -1;
  if (p < 0 || !pivot || pivot.parentNode !== list) {
    p = 0;
    if (desired[0].parentNode !== list || list.firstChild !== desired[0]) list.insertBefore(desired[0], list.firstChild);
  }
  let cursor = desired[p];
  for (let j = p - 1; j >= 0; j--) {
    const node = desired[j];
    if (node.nextSibling !== cursor || node.parentNode !== list) list.insertBefore(node, cursor);
    cursor = node;
  }
  cursor = desired[p];
  for (let j = p + 1; j < desired.length; j++) {
    const node = desired[j];
    if (cursor.nextSibling !== node) list.insertBefore(node, cursor.nextSibling);
    cursor = node;
  }
}

/**
 * The focused element: the shadow root's with isolated styles, the document's otherwise.
 * @param {Instance} inst
 * @returns {Element | null}
 */
function activeEl(inst) {
  return typeof ShadowRoot !== "undefined" && inst.host instanceof ShadowRoot ? inst.host.activeElement : document.activeElement;
}

/**
 * The tile that holds focus (or holds the focused element), if any.
 * @param {Instance} inst
 * @returns {HTMLElement | null}
 */
function focusedTile(inst) {
  const active = activeEl(inst);
  if (!active || !inst.list.contains(active)) return null;
  return /** @type {HTMLElement | null} */ (active.closest(".irl-tile"));
}

/**
 * Draw the row from ``inst``'s configuration, order and grades, touching only what changed.
 * @param {Instance} inst
 */
function render(inst) {
  const cfg = inst.cfg;
  const n = inst.order.length;
  const root = inst.root;
  setClass(root, "irl-large", cfg.large);
  setClass(root, "irl-graded", cfg.mode === "graded");
  setClass(root, "irl-binary", cfg.mode === "binary");
  setClass(root, "irl-has-cut", cfg.k !== null);
  setClass(root, "irl-show-classes", cfg.showClasses);
  setAttr(root, "data-mode", cfg.mode);
  setAttr(root, "data-k", cfg.k === null ? null : String(cfg.k));
  setAttr(root, "data-order", inst.order.join(","));

  setAttr(inst.actions, "hidden", cfg.showButtons ? null : "");
  setAttr(inst.btnIdeal, "hidden", cfg.idealOrder ? null : "");
  const ci = cutIndex(inst);
  setAttr(inst.legend, "hidden", ci === null ? "" : null);
  if (ci !== null) {
    /** @type {(a: number, b: number) => string} */
    const span = (a, b) => (a === b ? `rank ${a}` : `ranks ${a}–${b}`);
    setText(inst.legendK, `Cut at K = ${cfg.k}:`);
    setText(inst.legendIn, ci === 0 ? "nothing returned" : `${span(1, ci)} returned`);
    setAttr(inst.legendSplit, "hidden", ci === 0 || ci >= n ? "" : null);
    setText(inst.legendOut, ci >= n ? (n > 0 ? "(all of them)" : "") : `${span(ci + 1, n)} not returned`);
    setAttr(inst.legendOut, "hidden", ci === 0 ? "" : null);
  }
  setAttr(inst.toolbar, "hidden", !cfg.showButtons && ci === null ? "" : null);
  const touch = coarsePointer();
  let hint = touch
    ? "Touch and hold a tile, then drag it; or use its arrow buttons."
    : "Drag a tile, use its arrow buttons, or focus it and press Shift + arrow keys to move it.";
  // a phone has no keys to type a grade with, and a finger taps
  if (cfg.editable) hint += touch ? " Tap a grade to change it." : ` Click a grade, or type 0–${cfg.maxGrade}, to change it.`;
  setText(inst.hint, hint);
  setAttr(inst.list, "aria-label", cfg.label);

  const pivot = focusedTile(inst);
  const live = new Set(inst.order);
  for (const [id, refs] of inst.tiles) {
    if (!live.has(id)) {
      refs.tile.remove();
      inst.tiles.delete(id);
    }
  }
  /** @type {HTMLElement[]} */
  const desired = [];
  inst.order.forEach((id, idx) => {
    const refs = inst.tiles.get(id) || makeTile(inst, id);
    updateTile(inst, refs, id, idx);
    if (ci !== null && idx === ci) desired.push(inst.cut);
    desired.push(refs.tile);
  });
  if (ci !== null && ci >= n) desired.push(inst.cut);
  if (ci !== null) setText(inst.cutPill, `K = ${cfg.k}`);
  if (desired.length) reorderChildren(inst.list, desired, pivot);
  else inst.list.textContent = "";
  if (pivot && pivot.isConnected && !pivot.contains(activeEl(inst))) pivot.focus({ preventScroll: true });
}

// ---------------------------------------------------------------- changes out

/**
 * Say ``msg`` in the polite live region (a repeated message gets a no-break space, so it is read again).
 * @param {Instance} inst
 * @param {string} msg
 */
function announce(inst, msg) {
  const text = msg === inst.lastMsg ? msg + "\u00a0" : msg;
  inst.lastMsg = text;
  inst.live.textContent = text;
}

/**
 * Report the learner's change (the order and grades as shown now).
 * @param {Instance} inst
 * @param {ChangeAction} action
 * @param {string | null} item
 */
function emit(inst, action, item) {
  const seq = nextSeq();
  inst.lastEmittedSeq = seq;
  const grades = inst.cfg.mode === "graded" ? { ...inst.grades } : null;
  inst.report?.({ order: inst.order.slice(), grades, seq, action, item });
}

/**
 * " Now returned (top K)." or " Now not returned (...)." for a tile at ``rank``; "" without a cut.
 * @param {Instance} inst
 * @param {number} rank
 * @returns {string}
 */
function whereText(inst, rank) {
  const k = inst.cfg.k;
  if (k === null) return "";
  return rank <= k ? ` Now returned (top ${k}).` : ` Now not returned (below the cut at K = ${k}).`;
}

/**
 * Show ``next`` (the order after moving ``id``), say where ``id`` went, and report it.
 * @param {Instance} inst
 * @param {string} id
 * @param {string[]} next
 * @param {ChangeAction} action
 */
function commitMove(inst, id, next, action) {
  inst.order = next;
  inst.dirty = true;
  render(inst);
  const to = next.indexOf(id) + 1;
  announce(inst, `${itemOf(inst, id).title} moved to rank ${to} of ${next.length}.${whereText(inst, to)}`);
  emit(inst, action, id);
}

/**
 * Move tile ``id`` to index ``toIdx`` (clamped); at its place already, only say so.
 * @param {Instance} inst
 * @param {string} id
 * @param {number} toIdx
 * @param {ChangeAction} action
 */
function moveTo(inst, id, toIdx, action) {
  const from = inst.order.indexOf(id);
  if (from < 0) return;
  const next = moveToIndex(inst.order, id, toIdx);
  if (sameList(next, inst.order)) {
    announce(inst, `${itemOf(inst, id).title} is already at rank ${from + 1} of ${next.length}.`);
    return;
  }
  commitMove(inst, id, next, action);
}

/**
 * " Returned (top K): a, b." (or the top three without a cut): what a whole-row change left on top.
 * @param {Instance} inst
 * @returns {string}
 */
function summary(inst) {
  const ci = cutIndex(inst);
  const top = inst.order.slice(0, ci === null ? Math.min(3, inst.order.length) : ci).map((id) => itemOf(inst, id).title);
  if (ci === null) return top.length ? ` Top ranks: ${top.join(", ")}.` : "";
  if (ci === 0) return " Nothing is returned.";
  return ` Returned (top ${inst.cfg.k}): ${top.join(", ")}.`;
}

/**
 * Reset, ideal order or shuffle: show ``order``, say so, report it.
 * @param {Instance} inst
 * @param {readonly string[]} order
 * @param {"reset" | "ideal" | "shuffle"} action
 */
function setOrder(inst, order, action) {
  inst.order = completeOrder(order, inst.order);
  inst.dirty = true;
  render(inst);
  const what = {
    reset: "Order reset to the starting order.",
    ideal: "Tiles put in the ideal order.",
    shuffle: "Tiles shuffled.",
  }[action];
  announce(inst, what + summary(inst));
  emit(inst, action, null);
}

/**
 * Set the grade of tile ``id`` (clamped to the scale), when grades are editable.
 * @param {Instance} inst
 * @param {string} id
 * @param {number} grade
 */
function setGrade(inst, id, grade) {
  const cfg = inst.cfg;
  if (!cfg.editable || !inst.items.has(id)) return;
  const g = clamp(grade, 0, cfg.maxGrade);
  inst.grades[id] = g;
  inst.dirty = true;
  render(inst);
  announce(inst, `${itemOf(inst, id).title}: grade ${g} of ${cfg.maxGrade}`);
  emit(inst, "grade", id);
}

// ---------------------------------------------------------------- events (assigned once)

/**
 * The tile of this row that holds ``node``, if any.
 * @param {Instance} inst
 * @param {EventTarget | null} node
 * @returns {HTMLElement | null}
 */
function tileOf(inst, node) {
  const tile = node instanceof Element ? node.closest(".irl-tile") : null;
  return tile instanceof HTMLElement && inst.list.contains(tile) ? tile : null;
}

/**
 * Focus the tile at ``idx`` (clamped).
 * @param {Instance} inst
 * @param {number} idx
 */
function focusTileAt(inst, idx) {
  if (!inst.order.length) return;
  const refs = inst.tiles.get(inst.order[clamp(idx, 0, inst.order.length - 1)]);
  if (refs) refs.tile.focus();
}

/**
 * Scroll a row that scrolls sideways (the phone layout) so that ``tile`` is in it; the page does not move.
 * @param {Instance} inst
 * @param {HTMLElement} tile
 */
function revealInRow(inst, tile) {
  const list = inst.list;
  if (list.scrollWidth <= list.clientWidth + 1) return;
  const row = list.getBoundingClientRect();
  const box = tile.getBoundingClientRect();
  if (box.left < row.left) list.scrollLeft -= row.left - box.left + 8;
  else if (box.right > row.right) list.scrollLeft += box.right - row.right + 8;
}

/**
 * Assign the row's handlers (once per instance): buttons, keys and dragging.
 * @param {Instance} inst
 */
function wire(inst) {
  const { root, list } = inst;

  root.onclick = (e) => {
    const btn = e.target instanceof Element ? e.target.closest("button") : null;
    if (!btn || !root.contains(btn) || !inst.items.size) return;
    const cfg = inst.cfg;
    const act = btn.getAttribute("data-act");
    if (act === "reset") return setOrder(inst, cfg.defaultOrder, "reset");
    if (act === "ideal") return cfg.idealOrder ? setOrder(inst, cfg.idealOrder, "ideal") : undefined;
    if (act === "shuffle") return setOrder(inst, shuffled(inst.order), "shuffle");
    const tile = tileOf(inst, btn);
    const id = tile?.dataset.itemId;
    if (!tile || !id || !inst.items.has(id)) return;
    if (btn.classList.contains("irl-move")) {
      if (btn.getAttribute("aria-disabled") === "true") return;
      moveTo(inst, id, inst.order.indexOf(id) + Number(btn.dataset.dir), "button");
      revealInRow(inst, tile);
      return;
    }
    if (btn.classList.contains("irl-edited-reset")) {
      const judged = itemOf(inst, id).rubric;
      if (judged !== null) setGrade(inst, id, judged);
      return;
    }
    if (btn.classList.contains("irl-grade-edit")) {
      const g = inst.grades[id] ?? 0;
      setGrade(inst, id, g >= cfg.maxGrade ? 0 : g + 1);
    }
  };

  list.onkeydown = (e) => {
    const tile = tileOf(inst, e.target);
    const id = tile?.dataset.itemId;
    if (!tile || !id || !inst.items.has(id) || inst.drag.active()) return;
    const action = keyAction(e, {
      index: inst.order.indexOf(id), count: inst.order.length, grade: inst.grades[id] ?? 0,
      editable: inst.cfg.editable, maxGrade: inst.cfg.maxGrade,
    });
    if (!action) return;
    e.preventDefault();
    e.stopPropagation();
    if (action.kind === "grade") return setGrade(inst, id, action.grade);
    if (action.kind === "focus") focusTileAt(inst, action.to);
    else moveTo(inst, id, action.to, "keyboard");
    const f = focusedTile(inst);
    if (f) f.scrollIntoView({ block: "nearest", inline: "nearest" });
  };

  inst.drag = attachDrag({
    list,
    order: () => inst.order,
    tile: (id) => inst.tiles.get(id)?.tile,
    onState: (dragging) => setClass(root, "irl-dragging-active", dragging),
    drop: (id, next) => {
      if (!inst.items.has(id)) return;
      commitMove(inst, id, next, "drag");
      inst.tiles.get(id)?.tile.focus({ preventScroll: true });
    },
  });
}

// ---------------------------------------------------------------- entry points

/**
 * A row of tiles drawn into ``parent`` by another component (the live region): ``onChange`` receives each
 * change the learner makes (the value this component would report as its ``change``).
 * @param {HTMLElement} parent
 * @param {(change: Change) => void} onChange
 * @returns {{update: (data: TilesData) => void}}
 */
export function createTiles(parent, onChange) {
  const inst = createInstance(parent);
  inst.report = onChange;
  return { update(data) { receive(inst, data); } };
}

/**
 * Streamlit adds our stylesheet (tiles.css) to the shadow root beside this code; on a cold tab the tiles wait
 * for it, so that no tile is ever drawn unstyled.
 * @param {Node} node
 * @returns {Promise<unknown>}
 */
function stylesReady(node) {
  const root = node.getRootNode();
  /** @type {HTMLLinkElement[]} */
  const links = root instanceof ShadowRoot ? Array.from(root.querySelectorAll('link[rel="stylesheet"]')) : [];
  const pending = links.filter((link) => !link.sheet);
  return Promise.all(pending.map((link) => new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
  })));
}

/** @param {import("../types.js").ComponentArgs<TilesData> & {parentElement: {__irlTiles?: Instance}}} component */
export default function (component) {
  const { data, parentElement, setStateValue } = component;
  let inst = parentElement.__irlTiles;
  if (!inst || !inst.root.isConnected) {
    inst = createInstance(parentElement);
    parentElement.__irlTiles = inst;
  }
  inst.report = (change) => setStateValue("change", change);
  inst.latest = data;
  const current = inst;
  stylesReady(parentElement).then(() => { if (current.latest === data) receive(current, data); });
}
