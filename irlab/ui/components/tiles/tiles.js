// IR Lab ranking tiles: a Streamlit components-v2 module (no build step).
//
// The default export runs on every Streamlit rerun against the same DOM. Everything that
// belongs to one instance lives on `parentElement.__irlTiles` (one ShadowRoot per instance);
// the only module-level state is the change counter (`seq`) and an id counter.
// All user-provided strings go into the DOM as text (textContent / attributes), never HTML.

const SVG_NS = "http://www.w3.org/2000/svg";
let lastSeq = 0;
let uidCounter = 0;

function nextSeq() {
  const now = Date.now();
  lastSeq = now > lastSeq ? now : lastSeq + 1;
  return lastSeq;
}

const ICONS = {
  left: ["M10 3.5 5.5 8 10 12.5"],
  right: ["M6 3.5 10.5 8 6 12.5"],
  check: ["M3.5 8.5 6.5 11.5 12.5 4.5"],
  cross: ["M5 5l6 6M11 5l-6 6"],
  reset: ["M3.2 8a4.8 4.8 0 1 0 1.6-3.6", "M3 2.5v3.2h3.2"],
  ideal: ["M2.5 4h11", "M2.5 8h7.5", "M2.5 12h4"],
  shuffle: ["M2 4.5h2.6c1.4 0 2.3.6 3 1.7l1.8 3.6c.7 1.1 1.6 1.7 3 1.7H14", "M2 11.5h2.6c.9 0 1.6-.3 2.2-.9",
    "M9.2 5.4c.6-.6 1.3-.9 2.2-.9H14", "M12 2.5l2 2-2 2", "M12 9.5l2 2-2 2"],
};

function icon(name, extraClass) {
  const s = document.createElementNS(SVG_NS, "svg");
  s.setAttribute("viewBox", "0 0 16 16");
  s.setAttribute("aria-hidden", "true");
  s.setAttribute("focusable", "false");
  s.setAttribute("class", "irl-icon" + (extraClass ? " " + extraClass : ""));
  for (const d of ICONS[name]) {
    const p = document.createElementNS(SVG_NS, "path");
    p.setAttribute("d", d);
    s.appendChild(p);
  }
  return s;
}

function el(tag, cls, attrs) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (attrs) for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

function setText(node, text) {
  const t = text == null ? "" : String(text);
  if (node.textContent !== t) node.textContent = t;
}

function setAttr(node, name, value) {
  if (value === null || value === undefined || value === false) {
    if (node.hasAttribute(name)) node.removeAttribute(name);
    return;
  }
  const v = String(value);
  if (node.getAttribute(name) !== v) node.setAttribute(name, v);
}

function setClass(node, cls, on) {
  if (node.classList.contains(cls) !== !!on) node.classList.toggle(cls, !!on);
}

function sameList(a, b) {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameSet(a, b) {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((x) => s.has(x));
}

// An order made of exactly the given ids: known ids of `wanted` first, then the rest.
function completeOrder(wanted, ids) {
  const known = new Set(ids);
  const out = [];
  for (const id of wanted || []) if (known.has(id) && !out.includes(id)) out.push(id);
  for (const id of ids) if (!out.includes(id)) out.push(id);
  return out;
}

// The TP/FP/FN/TN class of a tile comes from the server only (irlab computes it). While a move waits
// for the server's answer a tile shows no class rather than a guess.

// ---------------------------------------------------------------- instance

function createInstance(host) {
  const uid = ++uidCounter;
  const inst = {
    host,
    uid,
    cfg: null,
    items: new Map(), // id -> tile data from the server
    order: [],
    grades: {},
    dirty: false, // local changes not yet confirmed by the server
    lastEmittedSeq: 0,
    tiles: new Map(), // id -> {el, refs}
    dragId: null,
    dropMark: null,
    lastMsg: "",
    setStateValue: null,
  };

  const root = el("div", "irl-root", { "data-testid": "irl-root" });

  const toolbar = el("div", "irl-toolbar", { "data-testid": "irl-toolbar" });
  const actions = el("div", "irl-actions", { role: "group", "aria-label": "Reorder all tiles" });
  const mkAction = (act, iconName, text) => {
    const b = el("button", "irl-action irl-action-" + act, { type: "button", "data-act": act, "data-testid": "irl-" + act });
    b.appendChild(icon(iconName));
    b.appendChild(el("span", "irl-action-text")).textContent = text;
    actions.appendChild(b);
    return b;
  };
  const btnReset = mkAction("reset", "reset", "Reset order");
  const btnIdeal = mkAction("ideal", "ideal", "Ideal order");
  const btnShuffle = mkAction("shuffle", "shuffle", "Shuffle");
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
  const cutLine = el("span", "irl-cut-line");
  cut.append(cutPill, cutLine);

  const live = el("div", "irl-live irl-sr", {
    "aria-live": "polite", "aria-atomic": "true", role: "status", "data-testid": "irl-live",
  });

  root.append(toolbar, hint, list, live);
  host.appendChild(root);

  Object.assign(inst, {
    root, toolbar, actions, btnReset, btnIdeal, btnShuffle,
    legend, legendK, legendIn, legendSplit, legendOut, hint, descId, list, cut, cutPill, live,
  });
  wire(inst);
  return inst;
}

// ---------------------------------------------------------------- data in

function receive(inst, data) {
  const d = data && typeof data === "object" ? data : {};
  const tiles = Array.isArray(d.tiles) ? d.tiles : [];
  const mode = d.mode === "graded" ? "graded" : "binary";
  const maxGrade = mode === "graded" ? Math.max(1, parseInt(d.max_grade, 10) || 4) : 1;
  const ids = tiles.map((t) => String(t.id));
  const prevMode = inst.cfg ? inst.cfg.mode : mode;
  inst.cfg = {
    label: d.label == null ? "Ranking" : String(d.label),
    mode,
    k: d.k === null || d.k === undefined ? null : Math.max(0, parseInt(d.k, 10) || 0),
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
  tiles.forEach((t) => {
    const id = String(t.id);
    const rel = parseInt(t.relevance, 10) || 0;
    const item = {
      id,
      title: t.title == null ? id : String(t.title),
      alt: t.alt == null ? "" : String(t.alt),
      picture: t.picture == null ? "" : String(t.picture),
      relevance: rel,
      relevanceLabel: t.relevance_label == null ? "" : String(t.relevance_label),
      cls: ["TP", "FP", "FN", "TN"].includes(t.class) ? t.class : null,
      classLabel: t.class_label == null ? "" : String(t.class_label),
      rubric: Number.isInteger(t.rubric) ? t.rubric : null, // the judged grade, when grades are editable
    };
    inst.items.set(id, item);
  });

  const ack = typeof d.ack_seq === "number" ? d.ack_seq : null;
  // data from a rerun that started before our latest change: keep our order and grades
  // (unless the tiles or the mode changed, then the server wins)
  const stale = inst.lastEmittedSeq > 0 && ack !== null && ack < inst.lastEmittedSeq
    && prevMode === mode && sameSet(prevIds, ids);
  if (!stale) {
    inst.order = ids;
    inst.grades = {};
    for (const [id, item] of inst.items) inst.grades[id] = item.relevance;
    inst.dirty = false;
  } else {
    inst.order = completeOrder(inst.order, ids);
    for (const id of ids) if (!(id in inst.grades)) inst.grades[id] = inst.items.get(id).relevance;
  }
  render(inst);
}

// ---------------------------------------------------------------- rendering

function gradeLabel(inst, id) {
  const item = inst.items.get(id);
  const g = inst.grades[id] ?? 0;
  if (inst.cfg.mode === "binary") {
    if (item.relevanceLabel && g === item.relevance) return item.relevanceLabel;
    return g > 0 ? "relevant" : "not relevant";
  }
  if (item.relevanceLabel && g === item.relevance) return item.relevanceLabel;
  return `grade ${g} of ${inst.cfg.maxGrade}`;
}

function cutIndex(inst) {
  const k = inst.cfg.k;
  if (k === null) return null;
  return Math.min(k, inst.order.length);
}

function makeTile(inst, id) {
  const tile = el("div", "irl-tile", {
    role: "listitem", tabindex: "0", draggable: "true", "data-item-id": id, "data-testid": "irl-tile",
  });
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
  tile.append(head, pic, title, badges, edited, status);
  const refs = { tile, up, rank, down, img, title, badges, rel: null, relKind: "", cls, clsCode, clsText, status, statusText,
                 edited, editedText, editedReset };
  inst.tiles.set(id, refs);
  return refs;
}

function buildRelBadge(inst, refs, kind) {
  if (refs.rel) refs.rel.remove();
  let b;
  if (kind === "binary") {
    b = el("span", "irl-rel", { "data-testid": "irl-relevance" });
    const yes = icon("check", "irl-rel-yes");
    const no = icon("cross", "irl-rel-no");
    b.append(yes, no, el("span", "irl-rel-text"));
  } else {
    const editable = kind === "graded-edit";
    b = el(editable ? "button" : "span", "irl-grade" + (editable ? " irl-grade-edit" : ""), { "data-testid": "irl-grade" });
    if (editable) {
      b.setAttribute("type", "button");
      b.setAttribute("tabindex", "-1");
    }
    const top = el("span", "irl-grade-top");
    top.append(el("span", "irl-grade-word"), el("span", "irl-grade-num"));
    const pips = el("span", "irl-pips", { "aria-hidden": "true" });
    b.append(top, pips);
  }
  refs.badges.insertBefore(b, refs.badges.firstChild);
  refs.rel = b;
  refs.relKind = kind;
}

function updateRelBadge(inst, refs, id) {
  const cfg = inst.cfg;
  const kind = cfg.mode === "binary" ? "binary" : cfg.editable ? "graded-edit" : "graded";
  if (refs.relKind !== kind) buildRelBadge(inst, refs, kind);
  const b = refs.rel;
  const g = inst.grades[id] ?? 0;
  const label = gradeLabel(inst, id);
  const item = inst.items.get(id);
  if (kind === "binary") {
    setAttr(b, "data-relevance", g > 0 ? "1" : "0");
    setText(b.lastChild, label);
    return;
  }
  setAttr(b, "data-grade", String(g));
  setAttr(b, "data-max-grade", String(cfg.maxGrade));
  const [word, num] = b.firstChild.childNodes;
  setText(word, "grade");
  setText(num, String(g));
  const pips = b.lastChild;
  if (pips.childNodes.length !== cfg.maxGrade) {
    pips.textContent = "";
    for (let i = 0; i < cfg.maxGrade; i++) pips.appendChild(el("span", "irl-pip"));
  }
  pips.childNodes.forEach((p, i) => setClass(p, "irl-pip-on", i < g));
  const changed = kind === "graded-edit" && item.rubric !== null && g !== item.rubric;
  setAttr(refs.tile, "data-edited", changed ? "true" : null);
  setAttr(refs.edited, "hidden", changed ? null : "");
  setText(refs.editedText, changed ? `edited (judged ${item.rubric})` : "");
  setAttr(refs.editedReset, "aria-label", changed ? `Put the grade of ${item.title} back to the judged ${item.rubric}` : null);
  if (kind === "graded-edit") {
    setAttr(b, "aria-label", `Change the grade of ${item.title} (now ${label}${changed ? `, edited; judged ${item.rubric}` : ""}; click for the next grade)`);
    setAttr(b, "title", `${label}. Click, or focus the tile and type 0–${cfg.maxGrade}, to change it.`);
  } else {
    setAttr(b, "aria-label", null);
    setAttr(b, "title", label);
  }
}

function updateTile(inst, refs, id, idx) {
  const cfg = inst.cfg;
  const item = inst.items.get(id);
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

  setAttr(refs.status, "hidden", returned === null ? "" : null);
  setText(refs.statusText, returned === null ? "" : returned ? "returned" : "not returned");

  const parts = [`Rank ${rank} of ${n}: ${item.title}`, gradeLabel(inst, id)];
  if (cls) parts.push(`${cls}, ${clsLabel || cls}`);
  if (returned !== null) parts.push(returned ? `returned (top ${k})` : `not returned (below the cut at K = ${k})`);
  setAttr(t, "aria-label", parts.join(". ") + ".");
}

// Put `desired` (nodes) into `list` in that order without ever moving `pivot`
// (the tile that holds focus), so focus survives reordering.
function reorderChildren(list, desired, pivot) {
  const cur = Array.from(list.children);
  if (sameList(cur, desired)) return;
  for (const c of cur) if (!desired.includes(c)) c.remove();
  let p = desired.indexOf(pivot);
  if (p < 0 || pivot.parentNode !== list) {
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

function activeEl(inst) {
  // ShadowRoot.activeElement with isolated styles; the document's otherwise.
  return typeof ShadowRoot !== "undefined" && inst.host instanceof ShadowRoot ? inst.host.activeElement : document.activeElement;
}

function focusedTile(inst) {
  const active = activeEl(inst);
  if (!active || !inst.list.contains(active)) return null;
  return active.closest(".irl-tile");
}

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
    const span = (a, b) => (a === b ? `rank ${a}` : `ranks ${a}–${b}`);
    setText(inst.legendK, `Cut at K = ${cfg.k}:`);
    setText(inst.legendIn, ci === 0 ? "nothing returned" : `${span(1, ci)} returned`);
    setAttr(inst.legendSplit, "hidden", ci === 0 || ci >= n ? "" : null);
    setText(inst.legendOut, ci >= n ? (n > 0 ? "(all of them)" : "") : `${span(ci + 1, n)} not returned`);
    setAttr(inst.legendOut, "hidden", ci === 0 ? "" : null);
  }
  setAttr(inst.toolbar, "hidden", !cfg.showButtons && ci === null ? "" : null);
  let hint = "Drag a tile, use its arrow buttons, or focus it and press Shift + arrow keys to move it.";
  if (cfg.editable) hint += ` Click a grade, or type 0–${cfg.maxGrade}, to change it.`;
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

function announce(inst, msg) {
  const text = msg === inst.lastMsg ? msg + "\u00a0" : msg;
  inst.lastMsg = text;
  inst.live.textContent = text;
}

function emit(inst, action, item) {
  const seq = nextSeq();
  inst.lastEmittedSeq = seq;
  const grades = inst.cfg.mode === "graded" ? { ...inst.grades } : null;
  const value = { order: inst.order.slice(), grades, seq, action, item: item === undefined ? null : item };
  if (typeof inst.setStateValue === "function") inst.setStateValue("change", value);
}

function whereText(inst, rank) {
  const k = inst.cfg.k;
  if (k === null) return "";
  return rank <= k ? ` Now returned (top ${k}).` : ` Now not returned (below the cut at K = ${k}).`;
}

function moveTo(inst, id, toIdx, action) {
  const from = inst.order.indexOf(id);
  if (from < 0) return false;
  const n = inst.order.length;
  const to = Math.max(0, Math.min(n - 1, toIdx));
  const title = inst.items.get(id).title;
  if (to === from) {
    announce(inst, `${title} is already at rank ${from + 1} of ${n}.`);
    return false;
  }
  const next = inst.order.slice();
  next.splice(from, 1);
  next.splice(to, 0, id);
  inst.order = next;
  inst.dirty = true;
  render(inst);
  announce(inst, `${title} moved to rank ${to + 1} of ${n}.${whereText(inst, to + 1)}`);
  emit(inst, action, id);
  return true;
}

function summary(inst) {
  const ci = cutIndex(inst);
  const top = inst.order.slice(0, ci === null ? Math.min(3, inst.order.length) : ci).map((id) => inst.items.get(id).title);
  if (ci === null) return top.length ? ` Top ranks: ${top.join(", ")}.` : "";
  if (ci === 0) return " Nothing is returned.";
  return ` Returned (top ${inst.cfg.k}): ${top.join(", ")}.`;
}

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

function shuffled(order) {
  if (order.length < 2) return order.slice();
  for (let attempt = 0; attempt < 50; attempt++) {
    const a = order.slice();
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    if (!sameList(a, order)) return a;
  }
  const a = order.slice();
  [a[0], a[1]] = [a[1], a[0]];
  return a;
}

function setGrade(inst, id, grade) {
  const cfg = inst.cfg;
  if (!cfg.editable || !inst.items.has(id)) return;
  const g = Math.max(0, Math.min(cfg.maxGrade, grade));
  inst.grades[id] = g;
  inst.dirty = true;
  render(inst);
  announce(inst, `${inst.items.get(id).title}: grade ${g} of ${cfg.maxGrade}`);
  emit(inst, "grade", id);
}

// ---------------------------------------------------------------- events (assigned once)

function tileOf(inst, node) {
  const t = node && node.closest ? node.closest(".irl-tile") : null;
  return t && inst.list.contains(t) ? t : null;
}

function focusTileAt(inst, idx) {
  if (!inst.order.length) return;
  const i = Math.max(0, Math.min(inst.order.length - 1, idx));
  const refs = inst.tiles.get(inst.order[i]);
  if (refs) refs.tile.focus();
}

function clearDropMark(inst) {
  if (inst.dropMark) {
    inst.dropMark.el.classList.remove("irl-drop-before", "irl-drop-after");
    inst.dropMark = null;
  }
}

// Where a drop at (x, y) would put the dragged tile: {id, after} relative to a tile.
function dropTarget(inst, x, y) {
  const rects = inst.order.map((id) => ({ id, r: inst.tiles.get(id).tile.getBoundingClientRect() }));
  if (!rects.length) return null;
  let row = rects.filter(({ r }) => y >= r.top - 8 && y <= r.bottom + 8);
  if (!row.length) {
    let best = null;
    let bestD = Infinity;
    for (const o of rects) {
      const dx = x < o.r.left ? o.r.left - x : x > o.r.right ? x - o.r.right : 0;
      const dy = y < o.r.top ? o.r.top - y : y > o.r.bottom ? y - o.r.bottom : 0;
      const dd = dx * dx + dy * dy;
      if (dd < bestD) {
        bestD = dd;
        best = o;
      }
    }
    row = rects.filter(({ r }) => Math.abs(r.top - best.r.top) < 4);
  } else {
    const top = row[0].r.top;
    row = row.filter(({ r }) => Math.abs(r.top - top) < 4);
  }
  row.sort((a, b) => a.r.left - b.r.left);
  for (const o of row) if (x < o.r.left + o.r.width / 2) return { id: o.id, after: false };
  return { id: row[row.length - 1].id, after: true };
}

function orderAfterDrop(inst, dragId, target) {
  if (!target || target.id === dragId) return inst.order.slice();
  const rest = inst.order.filter((id) => id !== dragId);
  const at = rest.indexOf(target.id) + (target.after ? 1 : 0);
  rest.splice(at, 0, dragId);
  return rest;
}

function wire(inst) {
  const { root, list } = inst;

  root.onclick = (e) => {
    const btn = e.target.closest ? e.target.closest("button") : null;
    if (!btn || !root.contains(btn)) return;
    const cfg = inst.cfg;
    if (!cfg) return;
    const act = btn.getAttribute("data-act");
    if (act === "reset") return setOrder(inst, cfg.defaultOrder, "reset");
    if (act === "ideal") return cfg.idealOrder ? setOrder(inst, cfg.idealOrder, "ideal") : undefined;
    if (act === "shuffle") return setOrder(inst, shuffled(inst.order), "shuffle");
    const tile = tileOf(inst, btn);
    if (!tile) return;
    const id = tile.getAttribute("data-item-id");
    if (btn.classList.contains("irl-move")) {
      if (btn.getAttribute("aria-disabled") === "true") return;
      const dir = parseInt(btn.getAttribute("data-dir"), 10);
      moveTo(inst, id, inst.order.indexOf(id) + dir, "button");
      return;
    }
    if (btn.classList.contains("irl-edited-reset")) {
      const judged = inst.items.get(id).rubric;
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
    const cfg = inst.cfg;
    if (!tile || !cfg || e.ctrlKey || e.metaKey || e.altKey) return;
    const id = tile.getAttribute("data-item-id");
    const idx = inst.order.indexOf(id);
    const last = inst.order.length - 1;
    let handled = true;
    const key = e.key;
    if (e.shiftKey && (key === "ArrowLeft" || key === "ArrowUp")) moveTo(inst, id, idx - 1, "keyboard");
    else if (e.shiftKey && (key === "ArrowRight" || key === "ArrowDown")) moveTo(inst, id, idx + 1, "keyboard");
    else if (e.shiftKey && key === "Home") moveTo(inst, id, 0, "keyboard");
    else if (e.shiftKey && key === "End") moveTo(inst, id, last, "keyboard");
    else if (!e.shiftKey && (key === "ArrowLeft" || key === "ArrowUp")) focusTileAt(inst, idx - 1);
    else if (!e.shiftKey && (key === "ArrowRight" || key === "ArrowDown")) focusTileAt(inst, idx + 1);
    else if (!e.shiftKey && key === "Home") focusTileAt(inst, 0);
    else if (!e.shiftKey && key === "End") focusTileAt(inst, last);
    else if (cfg.editable && /^[0-9]$/.test(key) && parseInt(key, 10) <= cfg.maxGrade) setGrade(inst, id, parseInt(key, 10));
    else if (cfg.editable && (key === "+" || key === "=")) setGrade(inst, id, (inst.grades[id] ?? 0) + 1);
    else if (cfg.editable && (key === "-" || key === "_")) setGrade(inst, id, (inst.grades[id] ?? 0) - 1);
    else handled = false;
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
      if (e.shiftKey && key.startsWith("Arrow") || key === "Home" || key === "End") {
        const f = focusedTile(inst);
        if (f && f.scrollIntoView) f.scrollIntoView({ block: "nearest", inline: "nearest" });
      }
    }
  };

  list.ondragstart = (e) => {
    const tile = tileOf(inst, e.target);
    if (!tile || e.target !== tile) return;
    inst.dragId = tile.getAttribute("data-item-id");
    try {
      e.dataTransfer.effectAllowed = "move";
      e.dataTransfer.setData("text/plain", inst.items.get(inst.dragId).title);
    } catch (_) {
      /* some browsers refuse setData here; the drag still works */
    }
    setTimeout(() => {
      if (inst.dragId && tile.isConnected) tile.classList.add("irl-dragging");
      setClass(root, "irl-dragging-active", !!inst.dragId);
    }, 0);
  };

  list.ondragover = (e) => {
    if (!inst.dragId) return;
    if (!inst.items.has(inst.dragId)) return endDrag(inst); // the tiles changed under the drag
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = "move";
    const target = dropTarget(inst, e.clientX, e.clientY);
    const changes = target && !sameList(orderAfterDrop(inst, inst.dragId, target), inst.order);
    if (!changes) return clearDropMark(inst);
    const refs = inst.tiles.get(target.id);
    const cls = target.after ? "irl-drop-after" : "irl-drop-before";
    if (inst.dropMark && inst.dropMark.el === refs.tile && inst.dropMark.cls === cls) return;
    clearDropMark(inst);
    refs.tile.classList.add(cls);
    inst.dropMark = { el: refs.tile, cls };
  };

  list.ondragleave = (e) => {
    if (!inst.dragId) return;
    // relatedTarget is usually null for drag events: use the pointer position instead
    const r = list.getBoundingClientRect();
    const inside = e.clientX > r.left && e.clientX < r.right && e.clientY > r.top && e.clientY < r.bottom;
    if (!inside) clearDropMark(inst);
  };

  list.ondrop = (e) => {
    if (!inst.dragId) return;
    e.preventDefault();
    const id = inst.dragId;
    if (!inst.items.has(id)) return endDrag(inst);
    const next = orderAfterDrop(inst, id, dropTarget(inst, e.clientX, e.clientY));
    endDrag(inst);
    if (sameList(next, inst.order)) return;
    const n = next.length;
    const to = next.indexOf(id);
    inst.order = next;
    inst.dirty = true;
    render(inst);
    const refs = inst.tiles.get(id);
    if (refs) refs.tile.focus({ preventScroll: true });
    announce(inst, `${inst.items.get(id).title} moved to rank ${to + 1} of ${n}.${whereText(inst, to + 1)}`);
    emit(inst, "drag", id);
  };

  list.ondragend = () => endDrag(inst);
}

function endDrag(inst) {
  clearDropMark(inst);
  if (inst.dragId) {
    const refs = inst.tiles.get(inst.dragId);
    if (refs) refs.tile.classList.remove("irl-dragging");
  }
  inst.dragId = null;
  inst.root.classList.remove("irl-dragging-active");
}

// ---------------------------------------------------------------- entry point

/**
 * A row of tiles drawn into ``parent`` by another component (the live region): ``onChange`` receives each
 * change the learner makes (the value this component would report as its ``change``).
 * @param {HTMLElement} parent
 * @param {(change: Record<string, unknown>) => void} onChange
 * @returns {{update: (data: object) => void}}
 */
export function createTiles(parent, onChange) {
  const inst = createInstance(parent);
  inst.setStateValue = (_name, value) => onChange(value);
  return { update(data) { receive(inst, data); } };
}

// Streamlit adds our stylesheet (tiles.css) to the shadow root beside this code; on a cold tab the tiles wait
// for it, so that no tile is ever drawn unstyled.
function stylesReady(node) {
  const root = node.getRootNode();
  const links = root instanceof ShadowRoot ? Array.from(root.querySelectorAll('link[rel="stylesheet"]')) : [];
  const pending = links.filter((link) => !link.sheet);
  return Promise.all(pending.map((link) => new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
  })));
}

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  let inst = parentElement.__irlTiles;
  if (!inst || !inst.root.isConnected) {
    inst = createInstance(parentElement);
    parentElement.__irlTiles = inst;
  }
  inst.setStateValue = setStateValue;
  inst.latest = data;
  stylesReady(parentElement).then(() => { if (inst.latest === data) receive(inst, data); });
}
