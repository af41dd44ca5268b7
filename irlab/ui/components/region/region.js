// A chapter's live region drawn by one component: tiles, numbers, formulas, tables, charts and "Try this".
//
// The server sends the whole screen as blocks (irlab/walkthrough/screens.py, serialised by
// irlab/ui/kit/screen.py): numbers and text only, every number computed there. Each block has a
// key that stays from one state to the next and a digest of its content; this code redraws only blocks
// whose digest changed, and inside them only what changed: a number that did not change is not
// touched, a formula whose LaTeX did not change is not set again, a chart whose figure did not change is
// not redrawn. Text goes into the page as text, formulas as checked MathML (math.js).

import { createChart } from "../chart/chart.js";
import { createTiles } from "../tiles/tiles.js";
import { formulaNode } from "./math.js";
// Every module these import is preloaded with this one (irlab/ui/components/preload.py), so the browser
// fetches the whole graph in one round rather than one round per level (region -> tiles -> drag -> geometry).

/**
 * @typedef {{kind: string, key: string, digest: string, same?: boolean, children?: Block[], [field: string]: any}} Block
 * @typedef {{el: HTMLElement, kind: string, digest: string, state: any}} View
 * @typedef {{setStateValue: (name: string, value: unknown) => void, plotly: string, config: object,
 *            tileChange: (row: string, change: Record<string, unknown>) => void}} Context
 */

/** What the region did, for the tests that check it touches only what changed (updates: the server's;
 * otherScreens: other K's screens received; otherK: drawn from them; moveScreens: a tile's moves received;
 * moved: a move drawn from them). */
const stats = { blocks: 0, numbers: 0, formulas: 0, charts: 0, tiles: 0, updates: 0, otherScreens: 0, otherK: 0,
                moveScreens: 0, moved: 0 };
/** @type {any} */ (window).__irlRegionStats = stats;

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
 * Set a node's text only when it differs (an unchanged number is not touched).
 * @param {Node} node
 * @param {string | null | undefined} text
 * @returns {boolean} whether the text changed
 */
function setText(node, text) {
  const value = text ?? "";
  if (node.textContent === value) return false;
  node.textContent = value;
  return true;
}

// ------------------------------------------------------------------------------------------- blocks

/** @type {Record<string, {create: (block: Block, ctx: Context) => View, update: (view: View, block: Block, ctx: Context) => void}>} */
const KINDS = {
  numbers: {
    create(block) {
      const root = el("div", "irl-numbers", "irl-numbers");
      root.setAttribute("role", "list");
      const view = { el: root, kind: "numbers", digest: "", state: [] };
      KINDS.numbers.update(view, block, /** @type {any} */ (null));
      return view;
    },
    update(view, block) {
      /** @type {{box: HTMLElement, label: HTMLElement, value: HTMLElement, delta: HTMLElement}[]} */
      const items = view.state;
      block.items.forEach((/** @type {any} */ item, /** @type {number} */ index) => {
        let parts = items[index];
        if (!parts) {
          const box = el("div", "irl-metric", "irl-metric");
          box.setAttribute("role", "listitem");
          parts = { box, label: el("div", "irl-metric-label", "irl-metric-label"),
                    value: el("div", "irl-metric-value", "irl-metric-value"),
                    delta: el("div", "irl-metric-delta", "irl-metric-delta") };
          box.append(parts.label, parts.value, parts.delta);
          view.el.append(box);
          items[index] = parts;
        }
        let changed = setText(parts.label, item.label);
        changed = setText(parts.value, item.value) || changed;
        // a no-break space: on a narrow box the arrow wraps with its number, not alone at the end of a line
        const arrow = item.trend === "up" ? "\u25B2\u00A0" : item.trend === "down" ? "\u25BC\u00A0" : "";
        changed = setText(parts.delta, item.delta ? arrow + item.delta : "") || changed;
        if (parts.delta.dataset.trend !== (item.trend || "none")) parts.delta.dataset.trend = item.trend || "none";
        if (parts.box.title !== (item.help || "")) parts.box.title = item.help || "";
        if (changed) stats.numbers += 1;
      });
      while (items.length > block.items.length) items.pop()?.box.remove();
    },
  },

  heading: {
    create(block) {
      const view = { el: el("h4", "irl-heading"), kind: "heading", digest: "", state: null };
      setText(view.el, block.text);
      return view;
    },
    update(view, block) { setText(view.el, block.text); },
  },

  paragraph: {
    create(block) {
      const root = el("p", "irl-paragraph");
      const lead = el("strong");
      const text = document.createTextNode("");
      root.append(lead, text);
      const view = { el: root, kind: "paragraph", digest: "", state: { lead, text } };
      KINDS.paragraph.update(view, block, /** @type {any} */ (null));
      return view;
    },
    update(view, block) {
      setText(view.state.lead, block.lead ? block.lead + " " : "");
      setText(view.state.text, block.text);
    },
  },

  table: {
    create(block) {
      const view = { el: el("div", "irl-table-box"), kind: "table", digest: "", state: null };
      KINDS.table.update(view, block, /** @type {any} */ (null));
      return view;
    },
    update(view, block) { fillTable(view, { headers: block.headers, cells: block.cells }); },
  },

  formulas: {
    create(block) {
      const root = el("div", "irl-formulas", "irl-formulas");
      const heading = el("h4", "irl-heading");
      const lines = el("div", "irl-formula-lines");
      const table = el("div", "irl-table-box");
      const notes = el("div", "irl-notes");
      root.append(heading, lines, table, notes);
      const view = { el: root, kind: "formulas", digest: "",
                     state: { heading, lines, table: { el: table, state: null }, notes } };
      KINDS.formulas.update(view, block, /** @type {any} */ (null));
      return view;
    },
    update(view, block) {
      const { heading, lines, table, notes } = view.state;
      setText(heading, block.heading);
      heading.hidden = !block.heading;
      block.lines.forEach((/** @type {{latex: string, mathml: string}} */ line, /** @type {number} */ index) => {
        let box = /** @type {HTMLElement | undefined} */ (lines.children[index]);
        if (!box) {
          box = el("div", "irl-formula", "irl-formula");
          lines.append(box);
        }
        if (box.dataset.latex === line.latex) return;  // the same formula: not set again
        box.replaceChildren(formulaNode(line.latex, line.mathml));
        box.dataset.latex = line.latex;
        stats.formulas += 1;
        fitSoon(box);
      });
      while (lines.children.length > block.lines.length) lines.lastElementChild?.remove();
      table.el.hidden = !block.table;
      if (block.table) fillTable(table, block.table);
      setChildrenText(notes, block.notes || [], "p", "irl-note");
    },
  },

  chart: {
    create(block, ctx) {
      const root = el("div", "irl-chart-block");
      const chart = createChart(root);
      const view = { el: root, kind: "chart", digest: "", state: chart };
      KINDS.chart.update(view, block, ctx);
      return view;
    },
    update(view, block, ctx) {
      view.state.update({ figure: block.figure, alt: block.alt, plotly: ctx.plotly, config: ctx.config });
      stats.charts += 1;
    },
  },

  pictures: {
    create(block) {
      const root = el("div", "irl-pictures");
      root.setAttribute("role", "list");
      const view = { el: root, kind: "pictures", digest: "", state: null };
      KINDS.pictures.update(view, block, /** @type {any} */ (null));
      return view;
    },
    update(view, block) {
      view.el.replaceChildren(...block.items.map((/** @type {any} */ item) => {
        const figure = el("figure", "irl-picture");
        figure.setAttribute("role", "listitem");
        const img = /** @type {HTMLImageElement} */ (el("img"));
        img.src = item.src;
        img.alt = item.alt;
        const caption = el("figcaption");
        const badge = el("span", "irl-badge");
        badge.textContent = item.badge;
        caption.append(badge, document.createTextNode(item.title));
        figure.append(img, caption);
        return figure;
      }));
    },
  },

  columns: {
    create(block, ctx) {
      const view = { el: el("div", "irl-columns"), kind: "columns", digest: "", state: new Map() };
      KINDS.columns.update(view, block, ctx);
      return view;
    },
    update(view, block, ctx) { reconcile(view.el, block.children || [], view.state, ctx); },
  },

  details: {
    create(block, ctx) {
      const root = /** @type {HTMLDetailsElement} */ (el("details", "irl-details", "irl-details"));
      const summary = el("summary");
      const body = el("div", "irl-details-body");
      root.append(summary, body);
      root.open = Boolean(block.open);
      const view = { el: root, kind: "details", digest: "", state: { summary, body, views: new Map(), open: block.open } };
      KINDS.details.update(view, block, ctx);
      return view;
    },
    update(view, block, ctx) {
      const { summary, body, views } = view.state;
      setText(summary, block.summary);
      if (view.state.open !== block.open) {  // the server changed its mind; otherwise the reader's choice stays
        /** @type {HTMLDetailsElement} */ (view.el).open = Boolean(block.open);
        view.state.open = block.open;
      }
      reconcile(body, block.children || [], views, ctx);
    },
  },

  tabs: {
    create(block, ctx) {
      const root = el("div", "irl-tabs", "irl-tabs");
      const list = el("div", "irl-tablist");
      list.setAttribute("role", "tablist");
      const panel = el("div", "irl-tabpanel");
      panel.setAttribute("role", "tabpanel");
      panel.tabIndex = 0;
      root.append(list, panel);
      const view = { el: root, kind: "tabs", digest: "",
                     state: { list, panel, selected: 0, views: [], block, ctx } };
      list.addEventListener("keydown", (event) => {
        const count = view.state.block.labels.length;
        const moves = { ArrowRight: 1, ArrowLeft: -1, Home: -count, End: count };
        if (!(event.key in moves)) return;
        event.preventDefault();
        const step = moves[/** @type {keyof typeof moves} */ (event.key)];
        const next = Math.max(0, Math.min(count - 1, view.state.selected + step));
        selectTab(view, next);
        /** @type {HTMLElement} */ (list.children[next]).focus();
      });
      KINDS.tabs.update(view, block, ctx);
      return view;
    },
    update(view, block, ctx) {
      view.state.block = block;
      view.state.ctx = ctx;
      const { list } = view.state;
      block.labels.forEach((/** @type {string} */ label, /** @type {number} */ index) => {
        let tab = /** @type {HTMLButtonElement | undefined} */ (list.children[index]);
        if (!tab) {
          tab = /** @type {HTMLButtonElement} */ (el("button", "irl-tab", "irl-tab"));
          tab.type = "button";
          tab.setAttribute("role", "tab");
          tab.addEventListener("click", () => selectTab(view, index));
          list.append(tab);
        }
        setText(tab, label);
      });
      while (list.children.length > block.labels.length) list.lastElementChild?.remove();
      selectTab(view, Math.min(view.state.selected, Math.max(0, block.labels.length - 1)));
    },
  },

  try: {
    create(block) {
      const root = el("div", "irl-try", "irl-try");
      root.setAttribute("role", "note");
      const title = el("p", "irl-try-title");
      const list = el("ul", "irl-try-list");
      root.append(title, list);
      const view = { el: root, kind: "try", digest: "", state: { title, list } };
      KINDS.try.update(view, block, /** @type {any} */ (null));
      return view;
    },
    update(view, block) {
      const { title, list } = view.state;
      setText(title, block.title);
      block.items.forEach((/** @type {{text: string, done: boolean}} */ item, /** @type {number} */ index) => {
        let row = /** @type {HTMLElement | undefined} */ (list.children[index]);
        if (!row) {
          row = el("li", "irl-try-item", "irl-try-item");
          row.append(el("span", "irl-try-mark"), el("span", "irl-try-word"), el("span", "irl-try-text"));
          row.firstElementChild?.setAttribute("aria-hidden", "true");
          list.append(row);
        }
        const [mark, word, text] = /** @type {HTMLElement[]} */ (Array.from(row.children));
        setText(mark, item.done ? "\u2714" : "\u25CB");
        setText(word, item.done ? "Done: " : "");
        setText(text, item.text);
        row.classList.toggle("irl-done", item.done);
      });
      while (list.children.length > block.items.length) list.lastElementChild?.remove();
    },
  },

  tiles: {
    create(block, ctx) {
      const root = el("div", "irl-tiles-block");
      const tiles = createTiles(root, (/** @type {Record<string, unknown>} */ change) =>
        ctx.tileChange(block.key, change));
      const view = { el: root, kind: "tiles", digest: "", state: tiles };
      KINDS.tiles.update(view, block, ctx);
      return view;
    },
    update(view, block) {
      view.state.update(block.data);
      stats.tiles += 1;
    },
  },
};

/** @type {Set<HTMLElement>} */
const toFit = new Set();

/**
 * After layout, make a formula that is wider than its column smaller (to 70%), and if it still does not fit,
 * scrollable with the keyboard too (a focus stop only then). Done for changed formulas only, in one frame.
 * @param {HTMLElement} box
 */
function fitSoon(box) {
  if (!toFit.size) {
    requestAnimationFrame(() => {
      const boxes = Array.from(toFit);
      toFit.clear();
      for (const item of boxes) item.style.fontSize = "";
      const wide = boxes.filter((item) => item.scrollWidth > item.clientWidth + 1);
      for (const item of wide) item.style.fontSize = `${Math.max(0.7, item.clientWidth / item.scrollWidth)}em`;
      for (const item of boxes) {
        const scrolls = item.scrollWidth > item.clientWidth + 1;
        if (scrolls) {
          item.tabIndex = 0;
          item.setAttribute("role", "group");
          item.setAttribute("aria-label", "Formula (scrolls sideways)");
        } else {
          item.removeAttribute("tabindex");
          item.removeAttribute("role");
          item.removeAttribute("aria-label");
        }
      }
    });
  }
  toFit.add(box);
}

/**
 * Fit every formula in ``root`` again when its width changes (a rotated phone, the sidebar, presentation mode)
 * and when the formulas' font has loaded: a fit measured with the fallback font or at another width would leave a
 * formula cut off without the keyboard being able to scroll it.
 * @param {HTMLElement} root
 */
function refitOnResize(root) {
  const refit = () => {
    if (!root.isConnected) {  // the learner went to another page: this region is gone
      document.fonts?.removeEventListener("loadingdone", refit);
      return;
    }
    root.querySelectorAll('[data-testid="irl-formula"]').forEach((box) => fitSoon(/** @type {HTMLElement} */ (box)));
  };
  let width = -1;
  new ResizeObserver(([entry]) => {
    if (Math.round(entry.contentRect.width) === width) return;  // only the height changed: the fits stand
    width = Math.round(entry.contentRect.width);
    refit();
  }).observe(root);
  document.fonts?.addEventListener("loadingdone", refit);
}

/**
 * Show tab ``index`` of a tabs block: its children are drawn (or brought up to date) when it is shown.
 * @param {View} view
 * @param {number} index
 */
function selectTab(view, index) {
  const { list, panel, block, ctx } = view.state;
  view.state.selected = index;
  Array.from(list.children).forEach((tab, i) => {
    const button = /** @type {HTMLButtonElement} */ (tab);
    button.setAttribute("aria-selected", String(i === index));
    button.tabIndex = i === index ? 0 : -1;
  });
  const child = block.children[index];
  if (!child) {
    panel.replaceChildren();
    return;
  }
  let views = view.state.views[index];
  if (!views) views = view.state.views[index] = new Map();
  if (panel.dataset.shown !== String(index)) {
    panel.replaceChildren();
    views.clear();
    panel.dataset.shown = String(index);
  }
  panel.setAttribute("aria-label", block.labels[index] || "");
  reconcile(panel, [child], views, ctx);
}

/**
 * Fill a table box from ``{headers, cells}``, touching only the cells whose text changed.
 * @param {{el: HTMLElement, state: any}} view
 * @param {{headers: string[], cells: string[][]}} table
 */
function fillTable(view, table) {
  let parts = view.state;
  if (!parts || parts.columns !== table.headers.length) {
    const element = el("table", "irl-table", "irl-table");
    const head = el("thead");
    const body = el("tbody");
    element.append(head, body);
    view.el.replaceChildren(element);
    parts = view.state = { head, body, columns: table.headers.length };
  }
  setChildrenText(parts.head, [table.headers], "tr", "", "th");
  setChildrenText(parts.body, table.cells, "tr", "", "td");
}

/**
 * Make ``parent`` hold one ``tag`` child per entry; an entry that is a list becomes cells of ``cellTag``.
 * @param {HTMLElement} parent
 * @param {(string | string[])[]} entries
 * @param {string} tag
 * @param {string} className
 * @param {string} [cellTag]
 */
function setChildrenText(parent, entries, tag, className, cellTag) {
  entries.forEach((entry, index) => {
    let node = /** @type {HTMLElement | undefined} */ (parent.children[index]);
    if (!node) {
      node = el(tag, className);
      parent.append(node);
    }
    if (!Array.isArray(entry)) {
      setText(node, entry);
      return;
    }
    entry.forEach((text, column) => {
      let cell = node.children[column];
      if (!cell) {
        cell = el(/** @type {string} */ (cellTag));
        if (cellTag === "th") cell.setAttribute("scope", "col");
        node.append(cell);
      }
      setText(cell, text);
    });
    while (node.children.length > entry.length) node.lastElementChild?.remove();
  });
  while (parent.children.length > entries.length) parent.lastElementChild?.remove();
}

/**
 * Make ``container`` show ``blocks`` in order, redrawing only blocks whose digest changed.
 * @param {HTMLElement} container
 * @param {Block[]} blocks
 * @param {Map<string, View>} views
 * @param {Context} ctx
 */
function reconcile(container, blocks, views, ctx) {
  const keep = new Set();
  blocks.forEach((block, index) => {
    let view = views.get(block.key);
    if (view && view.kind !== block.kind) {
      view.el.remove();
      view = undefined;
    }
    if (!view) {
      const kind = KINDS[block.kind];
      if (!kind) return;
      view = kind.create(block, ctx);
      view.el.dataset.key = block.key;
      views.set(block.key, view);
      stats.blocks += 1;
    } else if (view.digest !== block.digest) {
      KINDS[block.kind].update(view, block, ctx);
      stats.blocks += 1;
    }
    view.digest = block.digest;
    keep.add(block.key);
    const here = container.children[index];
    if (here !== view.el) container.insertBefore(view.el, here || null);
  });
  for (const [key, view] of views) {
    if (!keep.has(key)) {
      view.el.remove();
      views.delete(key);
    }
  }
}

// ------------------------------------------------------------------------------------------- another K

// A change of K is drawn the moment the K slider shows it, from that K's screen, which the server sent
// with the region (irlab/ui/components/region/__init__.py, live_region) after the learner moved K, or
// when asked: the learner's pointer or focus came to the slider while the region had no such screens.
// The run the slider starts then sends the same screen, and nothing is touched again. Only the
// learner's own slider moves count: when the server sets the slider (an undo), the region waits for
// the server's screen, which may differ in more than K.

/**
 * @typedef {{screen: string, blocks: Block[]}} Move
 * @typedef {{root: HTMLElement, views: Map<string, View>, data: any, ctx: Context,
 *            byDigest: Map<string, Block>, chosenK: number | null, asked: string,
 *            moved: Move | null, pending: {row: string, seq: number} | null,
 *            tileChange: (row: string, change: Record<string, unknown>) => void}} Region
 */

/** The regions on the page, by component key. @type {Map<string, Region>} */
const regions = new Map();
/** The other K's screens sent for each region, by component key. @type {Map<string, {screen: string, screens: Record<string, Block[]>}>} */
const otherScreens = new Map();

const SLIDER_KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown"]);
/** When the learner last pressed a slider's key or put a pointer on a slider (-1: their last input was elsewhere). */
let sliderTouchedAt = -1;
let sliderPointerDown = false;
/** How long after the learner's key or pointer a slider's new value counts as theirs (a slow device's frames). */
const SLIDER_MOVE_MS = 1500;

/**
 * Whether the learner's last input (a key or a pointer) went to a slider.
 * @param {Event} event
 * @returns {boolean}
 */
function onSlider(event) {
  const target = /** @type {Element | null} */ (event.target);
  return Boolean(target && target.closest && target.closest('[data-testid="stSlider"]'));
}

/** @param {KeyboardEvent} event */
function noteKey(event) {
  const mine = onSlider(event) && SLIDER_KEYS.has(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey;
  sliderTouchedAt = mine ? performance.now() : -1;
}

/** @param {PointerEvent} event */
function notePointer(event) {
  sliderPointerDown = event.type === "pointerdown" && onSlider(event);
  if (event.type === "pointerdown") sliderTouchedAt = sliderPointerDown ? performance.now() : -1;
  else if (sliderTouchedAt >= 0) sliderTouchedAt = performance.now();
}

/** @returns {boolean} whether a slider that changes now is changed by the learner */
function learnerMovesSlider() {
  return sliderPointerDown || (sliderTouchedAt >= 0 && performance.now() - sliderTouchedAt < SLIDER_MOVE_MS);
}

/**
 * The learner's pointer or focus came to an element: if it is a region's K slider and the region has no screens at
 * the other K for the screen it shows, ask the server for them (once per screen).
 * @param {Event} event
 */
function approach(event) {
  const target = /** @type {Element | null} */ (event.target);
  if (!target || !target.closest) return;
  approachTile(target);
  for (const region of regions.values()) {
    const { kSlider, screen, name } = region.data;
    if (!kSlider || !region.root.isConnected || !target.closest(`.${kSlider}`) || region.asked === screen) continue;
    if (otherScreens.get(name)?.screen === screen) continue;
    region.asked = screen;
    region.ctx.setStateValue("wants", screen);
  }
}

/** How long a pointer rests on the K slider before it counts as coming to it (a pointer on its way across does not). */
const HOVER_MS = 150;
/** @type {number | undefined} */
let hovering;

/**
 * A pointer over an element: ask (see ``approach``) if it is still there after ``HOVER_MS``; a focus or a press on
 * the slider asks at once.
 * @param {PointerEvent} event
 */
function hover(event) {
  clearTimeout(hovering);
  if (event.buttons) return;  // a drag passing over: the learner is not coming to what lies under it
  if (event.type === "pointerover" && event.pointerType === "mouse") hovering = window.setTimeout(() => approach(event), HOVER_MS);
  else approach(event);
}

/** @type {MutationObserver | null} */
let sliderWatch = null;

/** Watch every slider's value on the page (once), and the learner's keys and pointers. */
function watchSliders() {
  if (sliderWatch) return;
  document.addEventListener("keydown", noteKey, true);
  document.addEventListener("pointerdown", notePointer, true);
  document.addEventListener("pointerup", notePointer, true);
  document.addEventListener("pointercancel", notePointer, true);
  document.addEventListener("pointerover", hover, true);
  document.addEventListener("pointerdown", approach, true);
  document.addEventListener("focusin", approach, true);
  sliderWatch = new MutationObserver((records) => {
    if (!learnerMovesSlider()) return;
    for (const [name, region] of regions) {
      if (!region.root.isConnected) {
        regions.delete(name);
        continue;
      }
      if (region.moved) continue;  // the other K's screens are for the screen before the move: wait for the server
      const slider = region.data.kSlider;
      if (slider && records.some((record) => /** @type {Element} */ (record.target).closest?.(`.${slider}`))) {
        const k = sliderK(region);
        if (k !== null) {
          region.chosenK = k === region.data.k ? null : k;
          draw(region);
        }
      }
    }
  });
  sliderWatch.observe(document.body, { subtree: true, attributes: true, attributeFilter: ["aria-valuetext"] });
}

/**
 * The K the region's slider shows, or null (no slider).
 * @param {Region} region
 * @returns {number | null}
 */
function sliderK(region) {
  if (!region.data.kSlider) return null;
  const input = /** @type {HTMLInputElement | null} */ (
    document.querySelector(`.${region.data.kSlider} input[type="range"]`));
  if (!input) return null;
  const k = Number(input.value);
  return Number.isInteger(k) ? k : null;
}

/**
 * The screen at ``k`` the server sent with the region's current screen, its repeated blocks filled in
 * from that screen; null when it has not arrived (or was sent with an earlier screen).
 * @param {Region} region
 * @param {number} k
 * @returns {Block[] | null}
 */
function screenAt(region, k) {
  const sent = otherScreens.get(region.data.name);
  if (!sent || sent.screen !== region.data.screen || !sent.screens[String(k)]) return null;
  return filled(region, sent.screens[String(k)]);
}

/**
 * ``blocks`` with each reference to a block of the screen shown replaced by that block; null when one is missing.
 * @param {Region} region
 * @param {Block[]} blocks
 * @returns {Block[] | null}
 */
function filled(region, blocks) {
  let complete = true;
  /** @param {Block} block @returns {Block} */
  const fill = (block) => {
    if (block.same) {
      const shown = region.byDigest.get(block.digest);
      if (!shown) complete = false;
      return shown || block;
    }
    return block.children ? { ...block, children: block.children.map(fill) } : block;
  };
  const all = blocks.map(fill);
  return complete ? all : null;
}

/**
 * Every block of ``blocks``, at any depth, by digest.
 * @param {Block[]} blocks
 * @param {Map<string, Block>} [into]
 * @returns {Map<string, Block>}
 */
function byDigest(blocks, into = new Map()) {
  for (const block of blocks) {
    into.set(block.digest, block);
    if (block.children) byDigest(block.children, into);
  }
  return into;
}

/**
 * Draw the region: the learner's move while the server has not taken it, the learner's chosen K's screen while the
 * server has not answered it, else the server's. While the chosen K's screen has not arrived, what is shown stays.
 * @param {Region} region
 */
function draw(region) {
  if (region.moved) {
    reconcile(region.root, region.moved.blocks, region.views, region.ctx);
    return;
  }
  if (region.chosenK === null) {
    reconcile(region.root, region.data.blocks, region.views, region.ctx);
    return;
  }
  const blocks = screenAt(region, region.chosenK);
  if (!blocks) return;
  reconcile(region.root, blocks, region.views, region.ctx);
  stats.otherK += 1;
}

// ------------------------------------------------------------------------------------------- a tile's moves

// A tile move is drawn the moment the tile is dropped, from the screen the server drew ahead for that
// move (irlab/ui/components/region/__init__.py, live_region). The browser asks for a tile's moves when
// the learner comes to the tile: a mouse resting on it, a focus, a press (a finger holds the tile before
// it lifts, so the answer comes during the hold). On the drop it draws the screen of the order the tiles
// now show, if the server sent it for the screen shown, then tells the server; when the server's answer
// has taken the move (its tiles name the move's number), its screen replaces the one drawn ahead, which
// is the same but for the tiles, and it brings that tile's next moves. A move made while an earlier
// change is still on its way, or a grade, waits for the server as before.

/** The moves drawn ahead for each region, by component key: for one screen, row + order -> blocks, and the tiles
 * (row + item) whose moves were asked for or sent.
 * @type {Map<string, {screen: string, screens: Map<string, Block[]>, tiles: Set<string>}>} */
const moveScreens = new Map();

/**
 * The moves drawn ahead for the region's screen ``screen`` (none yet when the screen is new).
 * @param {string} name the region's component key
 * @param {string} screen
 */
function movesFor(name, screen) {
  let kept = moveScreens.get(name);
  if (!kept || kept.screen !== screen) moveScreens.set(name, kept = { screen, screens: new Map(), tiles: new Set() });
  return kept;
}

/**
 * The key of one order of one row among the moves drawn ahead.
 * @param {string} row
 * @param {string[] | string} order the ids in rank order, or already joined by line breaks
 * @returns {string}
 */
function moveKey(row, order) {
  return `${row}\n\n${Array.isArray(order) ? order.join("\n") : order}`;
}

/**
 * The key of one tile among the tiles whose moves were asked for or sent.
 * @param {string} row
 * @param {string} item
 * @returns {string}
 */
function tileKey(row, item) {
  return `${row}\n${item}`;
}

/**
 * Take the moves the server drew ahead (sent with ``data``, for its screen); those of other tiles on the same
 * screen stay.
 * @param {any} data
 */
function takeMoveScreens(data) {
  const kept = movesFor(data.name, data.screen);
  const sent = data.moveScreens;
  if (!sent) return;
  kept.tiles.add(tileKey(sent.row, sent.item));
  for (const [order, blocks] of Object.entries(sent.screens || {})) kept.screens.set(moveKey(sent.row, order), blocks);
  stats.moveScreens += 1;
}

/**
 * The pointer or focus came to ``target``: if it is a tile of a region whose moves are not drawn ahead for the
 * screen shown, ask the server for them (once per tile and screen).
 * @param {Element} target
 */
function approachTile(target) {
  const tile = /** @type {HTMLElement | null} */ (target.closest('[data-testid="irl-tile"]'));
  const rowBlock = /** @type {HTMLElement | null} */ (tile?.closest(".irl-tiles-block") ?? null);
  const item = tile?.dataset.itemId;
  const row = rowBlock?.dataset.key;
  if (!item || !row) return;
  for (const region of regions.values()) {
    if (!region.root.contains(rowBlock) || region.moved || region.chosenK !== null) continue;
    const screen = region.data.screen;
    const kept = movesFor(region.data.name, screen);
    if (kept.tiles.has(tileKey(row, item))) return;  // asked for already, or sent with the server's answer
    kept.tiles.add(tileKey(row, item));
    // after the press's own handlers (the tiles' drag starts first): telling Streamlit takes a slow device a while
    window.setTimeout(() => region.ctx.setStateValue("moves", { screen, row, item }), 0);
  }
}

/**
 * The learner changed tile row ``row``: draw the move now if its screen was drawn ahead, and tell the server.
 * @param {Region} region
 * @param {string} row
 * @param {Record<string, unknown>} change the tiles' change: order, grades, seq, action
 */
function tileChange(region, row, change) {
  const seq = Number(change.seq);
  const waiting = region.pending !== null;
  region.pending = { row, seq };
  const blocks = !waiting && change.action !== "grade" && region.chosenK === null && region.root.isConnected
    ? movedScreen(region, row, /** @type {string[]} */ (change.order)) : null;
  // a move drawn ahead: the server's answer only confirms it, so it may as well bring the tile's next moves
  const send = () => region.ctx.setStateValue("change", { ...change, row, ahead: Boolean(blocks) });
  if (!blocks) {
    send();
    return;
  }
  region.moved = { screen: region.data.screen, blocks };
  draw(region);
  stats.moved += 1;
  // tell the server after the frame that shows the move: telling it first costs a slow device a frame's wait
  requestAnimationFrame(() => window.setTimeout(send, 0));
}

/**
 * The screen the server drew ahead for ``order`` of tile row ``row``, its repeated blocks filled in from the screen
 * shown; null when it was not drawn ahead for the screen shown.
 * @param {Region} region
 * @param {string} row
 * @param {string[]} order
 * @returns {Block[] | null}
 */
function movedScreen(region, row, order) {
  const kept = moveScreens.get(region.data.name);
  const sent = kept && kept.screen === region.data.screen && Array.isArray(order) ? kept.screens.get(moveKey(row, order)) : null;
  return sent ? filled(region, sent) : null;
}

/**
 * The tiles block ``row`` in ``blocks``, at any depth.
 * @param {Block[]} blocks
 * @param {string} row
 * @returns {Block | null}
 */
function tilesBlock(blocks, row) {
  for (const block of blocks) {
    if (block.kind === "tiles" && block.key === row) return block;
    const inside = block.children ? tilesBlock(block.children, row) : null;
    if (inside) return inside;
  }
  return null;
}

/**
 * Whether the server's ``data`` has taken the region's latest tile change (its row names the change's number).
 * @param {Region} region
 * @param {any} data
 * @returns {boolean}
 */
function takenChange(region, data) {
  if (!region.pending) return true;
  const ack = tilesBlock(data.blocks, region.pending.row)?.data?.ack_seq;
  return typeof ack === "number" && ack >= region.pending.seq;
}

// ------------------------------------------------------------------------------------------- entry

/** @param {{data: any, parentElement: HTMLElement & {__irlRegion?: Region}, setStateValue: (name: string, value: unknown) => void}} component */
export default function (component) {
  const { data, parentElement, setStateValue } = component;
  stats.updates += 1;
  let region = parentElement.__irlRegion;
  if (!region || !region.root.isConnected) {
    const root = el("div", "irl-region", "irl-region");
    parentElement.append(root);
    refitOnResize(root);
    /** @type {Region} */
    const made = { root, views: new Map(), data, ctx: /** @type {any} */ (null), byDigest: new Map(), chosenK: null,
                   asked: "", moved: null, pending: null, tileChange: () => {} };
    made.tileChange = (row, change) => tileChange(made, row, change);
    region = parentElement.__irlRegion = made;
  }
  region.root.classList.toggle("irl-present", Boolean(data.present));
  region.data = data;
  if (data.otherScreens) {
    otherScreens.set(data.name, { screen: data.screen, screens: data.otherScreens });
    stats.otherScreens += 1;
  }
  takeMoveScreens(data);
  if (takenChange(region, data)) region.pending = null;
  // the server has taken the move drawn ahead (or drew another screen from a change before it): its screen is shown
  if (region.moved && (region.pending === null || data.screen !== region.moved.screen)) region.moved = null;
  region.byDigest = byDigest(data.blocks);
  region.ctx = { setStateValue, plotly: data.plotly, config: data.config, tileChange: region.tileChange };
  regions.set(data.name, region);
  watchSliders();
  if (data.kSlider) {
    // the server answered the learner's K (or set the slider itself): its screen is the one to show
    if (region.chosenK !== null && sliderK(region) === data.k) region.chosenK = null;
  } else {
    region.chosenK = null;
  }
  draw(region);
  // a keyboard on a tile may move it again: ask for its moves from the new screen, unless they came with this answer
  const focused = document.activeElement;
  if (focused && region.root.contains(focused) && focused.matches(":focus-visible")) approachTile(focused);
}
