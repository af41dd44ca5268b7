// A chapter's live region drawn by one component: its controls (controls.js), tiles, numbers, formulas, tables,
// charts and "Try this".
//
// The server sends the screen as blocks (irlab/walkthrough/screens.py, serialised by irlab/ui/kit/screen.py),
// whole or as a patch of the one this region holds (patch.js): numbers and text only, every number computed there. Each block has a
// key that stays from one state to the next and a digest of its content; this code redraws only blocks
// whose digest changed, and inside them only what changed: a number that did not change is not
// touched, a formula whose LaTeX did not change is not set again, a chart whose figure did not change is
// not redrawn. Text goes into the page as text, formulas as checked MathML (math.js).

import { createChart } from "../chart/chart.js";
import { onShortcut } from "../shortcuts/shortcuts.js";
import { createTiles } from "../tiles/tiles.js";
import { createControls, movedByLearner, showK, updateControls } from "./controls.js";
import { showFormula } from "./math.js";
import { applyPatch } from "./patch.js";
// Every module these import is preloaded with this one (irlab/ui/components/preload.py), so the browser
// fetches the whole graph in one round rather than one round per level (region -> tiles -> drag -> geometry).

/**
 * The blocks' types are made from region.schema.json (region-data.d.ts), the one declaration of what the server
 * sends, so that this code and the Python that builds the blocks cannot drift apart.
 * @typedef {import("./region-data").Block} Block
 * @typedef {{el: HTMLElement, kind: string, digest: string, state: any}} View
 * @typedef {{setStateValue: (name: string, value: unknown) => void, plotly: string, config: object,
 *            tileChange: (row: string, change: Record<string, unknown>) => void}} Context
 */

/** What the region did, for the tests that check it touches only what changed (updates: the server's;
 * otherK: screens drawn from the K form; moveScreens: a tile's moves received; moved: a move drawn from them;
 * kForms: K forms received; settled: Ks told through the route, without a run; busy: answers that said the server
 * had no CPU to spare for what was asked ahead). */
const stats = { blocks: 0, numbers: 0, formulas: 0, charts: 0, tiles: 0, updates: 0, otherK: 0, moveScreens: 0,
                moved: 0, kForms: 0, settled: 0, busy: 0 };
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

/**
 * @template {Block} B
 * @typedef {{create: (block: B, ctx: Context) => View, update: (view: View, block: B, ctx: Context) => void}} Kind
 */

/** How each kind of block is drawn and brought up to date. @type {{[K in Block["kind"]]: Kind<Extract<Block, {kind: K}>>}} */
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
        showFormula(box, line.latex, line.mathml);  // only the nodes that differ are set
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
      // 2% below the ratio of the widths: a formula's width does not shrink quite in proportion to its type (at
      // 1280x800 NDCG's DCG@4 line came out 2 px wider than its column, its last digit cut off)
      for (const item of wide) item.style.fontSize = `${Math.max(0.7, 0.98 * item.clientWidth / item.scrollWidth)}em`;
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
    // the kind and the block agree (both read from block.kind); the checker cannot follow that through the map
    const kind = /** @type {Kind<Block> | undefined} */ (KINDS[block.kind]);
    if (!kind) return;
    if (!view) {
      view = kind.create(block, ctx);
      view.el.dataset.key = block.key;
      views.set(block.key, view);
      stats.blocks += 1;
    } else if (view.digest !== block.digest) {
      kind.update(view, block, ctx);
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

// ------------------------------------------------------------------------------------------- the region

// What the server sends (irlab/ui/components/region/__init__.py; region.schema.json declares its shape): the
// screen whole, or as a patch of the screen this region holds (its base), or "same"; the controls; the K
// form (the screen at every other K as patches of the base, and each number's change between two K); a
// tile's moves drawn ahead (patches of the base). Every screen drawn is the base, a patch of it, or the
// base's numbers with the changes the server gave for a pair of K: the browser chooses, patches and
// draws; it computes no number.

/**
 * @typedef {import("./region-data").RegionData} RegionData
 * @typedef {import("./region-data").KForm} KForm
 * @typedef {import("./region-data").MoveScreens} MoveScreensData
 * @typedef {import("./patch.js").Patch} Patch
 * @typedef {{screen: string, blocks: Block[]}} Move
 * @typedef {{root: HTMLElement, blocksRoot: HTMLElement, views: Map<string, View>, data: RegionData,
 *            ctx: Context, base: Block[] | null, baseScreen: string, kForm: KForm | null, shownK: number | null,
 *            pairFrom: number | null, kDirty: boolean, settle: number | undefined, controls: ControlsView | null,
 *            made: Map<string, Block[]>, ticked: Set<number>, askedForm: string, quietUntil: number,
 *            latest: {name: string, message: Record<string, unknown>, seq: number, k: number | null,
 *                     resent?: boolean} | null,
 *            moved: Move | null, pending: {row: string, seq: number} | null, asked: string,
 *            route: import("./region-data").Settle | null,
 *            tileChange: (row: string, change: Record<string, unknown>) => void}} Region
 * @typedef {import("./controls.js").ControlsView} ControlsView
 */

/**
 * A patch as the schema types it (an object) as patch.js reads it.
 * @param {import("./region-data").Patch} patch
 * @returns {Patch}
 */
function asPatch(patch) {
  return /** @type {Patch} */ (/** @type {unknown} */ (patch));
}

/** The regions on the page, by component key. @type {Map<string, Region>} */
const regions = new Map();
/** How long the learner's K rests before the server is told (one message per pause, not one per step). */
const SETTLE_MS = 600;
let seq = 0;

/**
 * Send a message to the server, with what every message carries: its number, the screen this region holds and
 * the K it shows (a move made right after a K change takes that K first; the pending K goes with it).
 * @param {Region} region
 * @param {string} name
 * @param {Record<string, unknown>} message
 */
function send(region, name, message) {
  clearTimeout(region.settle);
  region.kDirty = false;
  seq += 1;
  // n: this message's number (a tile change keeps the tiles' own seq, which the tiles' acknowledgement reads)
  const sent = { seq, ...message, n: seq, screen: region.baseScreen, k: region.shownK, form: hasForm(region) };
  region.latest = { name, message, seq, k: region.shownK };
  region.ctx.setStateValue(name, sent);
}

/**
 * An answer that did not take the region's latest message (sent while a run was under way: Streamlit does not always
 * start another run for it): send it again if doing it twice is harmless (a K, an ask), once.
 * @param {Region} region
 * @param {RegionData} data
 */
function resendUntaken(region, data) {
  const latest = region.latest;
  if (!latest || (data.taken ?? -1) >= latest.seq || latest.resent) return;
  if (!["k", "kform", "moves"].includes(latest.name)) return;
  latest.resent = true;
  window.setTimeout(() => {
    if (region.latest === latest) {
      send(region, latest.name, latest.message);
      if (region.latest) region.latest.resent = true;
    }
  }, 0);
}

/**
 * Whether the region holds the K form of the screen it holds (else a K it shows waits for the server).
 * @param {Region} region
 * @returns {boolean}
 */
function hasForm(region) {
  return Boolean(region.base && region.kForm && region.kForm.screen === region.baseScreen);
}

/**
 * Whether the server said it is busy (``busy``) not long ago: then the region asks for nothing ahead (a K form, a
 * tile's moves), and a K or a drop waits for the server's run, as before screens were drawn ahead.
 * @param {Region} region
 * @returns {boolean}
 */
function quiet(region) {
  return Date.now() < region.quietUntil;
}

/**
 * The learner came to the K slider (a mouse resting on it, a focus, a press or a finger): ask for the K form of the
 * screen held, once per screen, unless it came with the screen.
 * @param {Region} region
 */
function approachK(region) {
  if (hasForm(region) || !region.base || region.askedForm === region.baseScreen || quiet(region)) return;
  region.askedForm = region.baseScreen;
  window.setTimeout(() => send(region, "kform", {}), 0);
}

/**
 * The base's blocks at ``k``: the K form's patch of the blocks at the K next to it on the way to the base (each made
 * once per screen held).
 * @param {Region} region
 * @param {KForm} form
 * @param {number} k
 * @returns {Block[] | null}
 */
function atK(region, form, k) {
  if (k === form.base) return region.base;
  const patch = form.at[String(k)];
  if (!patch) return null;
  const key = `${region.baseScreen}|${k}`;
  const kept = region.made.get(key);
  if (kept) return kept;
  const from = atK(region, form, k < form.base ? k + 1 : k - 1);
  if (!from) return null;
  const blocks = /** @type {Block[]} */ (applyPatch(from, asPatch(patch)));
  if (region.made.size > 16) region.made.clear();
  region.made.set(key, blocks);
  stats.otherK += 1;
  return blocks;
}

/**
 * The blocks of the screen to show: the base at its own K, else the K form's patch of it; after the learner's change
 * of K, each number's change is the one from the K shown before (the server's, for that pair of K).
 * @param {Region} region
 * @returns {Block[] | null}
 */
function screenBlocks(region) {
  const base = region.base;
  if (!base) return null;
  const form = region.kForm;
  const k = region.shownK;
  let blocks = base;
  if (form && form.screen === region.baseScreen && k !== null && k !== form.base) {
    const made = atK(region, form, k);
    if (!made) return null;
    blocks = made;
  }
  const from = region.pairFrom;
  const pair = form && from !== null && k !== null ? form.changes.pairs[`${from}>${k}`] : null;
  if (!form || !pair) return blocks;
  const values = form.changes.values;
  let index = 0;
  /** @param {Block} block @returns {Block} */
  const withChanges = (block) => {
    if (block.kind === "numbers") {
      const items = block.items.map((item) => {
        const [delta, trend] = values[pair[index++] ?? -1] || [null, null];
        return { ...item, delta: delta ?? null, trend: /** @type {typeof item.trend} */ (trend ?? null) };
      });
      return { ...block, items, digest: `${block.digest}|${from}>${k}` };
    }
    return "children" in block ? { ...block, children: block.children.map(withChanges) } : block;
  };
  return blocks.map(withChanges);
}

/**
 * Draw the region: the learner's move drawn ahead while the server has not taken it, else the screen at the K shown.
 * @param {Region} region
 */
function draw(region) {
  const blocks = region.moved ? region.moved.blocks : screenBlocks(region);
  if (blocks) reconcile(region.blocksRoot, blocks.map((block) => ticked(region, block)), region.views, region.ctx);
}

/**
 * A "Try this" step the learner reached stays ticked on this page, also at a K the browser drew (the server has not
 * been told that K); the title for that many steps done is the server's.
 * @param {Region} region
 * @param {Block} block
 * @returns {Block}
 */
function ticked(region, block) {
  if (block.kind !== "try") return block;
  const done = block.items.map((item, index) => item.done || region.ticked.has(index));
  done.forEach((tick, index) => { if (tick) region.ticked.add(index); });
  if (done.every((tick, index) => tick === block.items[index]?.done)) return block;
  const count = done.filter(Boolean).length;
  return { ...block, items: block.items.map((item, index) => ({ ...item, done: Boolean(done[index]) })),
           title: block.titles[count] ?? block.title, digest: `${block.digest}|${done.map(Number).join("")}` };
}

/**
 * The learner moved K (slider, keys, finger): draw that K now, and tell the server once they pause.
 * @param {Region} region
 * @param {number} k
 */
function learnerK(region, k) {
  if (!Number.isInteger(k) || k === region.shownK) return;
  region.pairFrom = region.shownK;
  region.shownK = k;
  if (region.controls) {
    showK(region.controls, k);
    movedByLearner(region.controls);  // a new move: it can be undone, and what was undone is gone
  }
  // a move drawn ahead that the server has not answered yet has no K form: the K goes to the server at once (after
  // the move), and the answer draws it
  const drawn = !region.moved && hasForm(region);
  if (drawn) draw(region);
  region.kDirty = true;
  clearTimeout(region.settle);
  // a thumb still held has not settled (its release does that); a K not drawn here is told at once: the answer draws it
  if (drawn && region.controls?.holding) return;
  region.settle = window.setTimeout(() => (drawn ? settleK(region) : send(region, "k", {})), drawn ? SETTLE_MS : 0);
}

/**
 * The learner let go of the K slider's thumb: the K they moved it to is settled once they pause.
 * @param {Region} region
 */
function releasedK(region) {
  if (!region.kDirty) return;
  clearTimeout(region.settle);
  region.settle = window.setTimeout(() => settleK(region), SETTLE_MS);
}

/**
 * Tell the server the K the learner settled on, drawn here: without a run, through the route
 * (irlab/ui/walkthrough/settle.py), and put that K's link (the server's, from the K form) into the browser's history,
 * as a run's answer would have; Back returns to the link before. The server takes the K at the session's next run.
 * When the route cannot take it (this replica does not know the session) or there is no link for the K, a message.
 * @param {Region} region
 */
function settleK(region) {
  clearTimeout(region.settle);
  const route = region.route;
  const k = region.shownK;
  const link = hasForm(region) && k !== null ? region.kForm?.links[String(k)] : undefined;
  if (!route || link === undefined || region.moved || region.pending || k === null) {
    send(region, "k", {});
    return;
  }
  region.kDirty = false;
  seq += 1;
  const n = seq;
  // an answer to an earlier message keeps this K on screen (it does not know it yet)
  region.latest = { name: "settle", message: {}, seq: n, k };
  const told = () => {
    if (region.latest?.seq === n) send(region, "k", {});  // not taken: a message (a newer one carries the K anyway)
  };
  fetch(route.url, { method: "POST", headers: { "Content-Type": "application/json" }, cache: "no-store",
                     keepalive: true, body: JSON.stringify({ token: route.token, k, n, chapter: route.chapter }) })
    .then((response) => { if (!response.ok) told(); }, told);
  const search = link ? `?${link}` : "";
  if (window.location.search !== search) window.history.pushState({}, "", window.location.pathname + search);
  stats.settled += 1;
}

/**
 * Undo, Redo, Reset grades or a setting: one message, one run.
 * @param {Region} region
 * @param {string} action
 * @param {Record<string, string>} [extra]
 */
function control(region, action, extra = {}) {
  const buttons = { undo: region.controls?.undo, redo: region.controls?.redo, "reset-grades": region.controls?.reset };
  const button = buttons[/** @type {keyof typeof buttons} */ (action)];
  if (button && button.disabled) return;
  send(region, "control", { action, ...extra });
}

// ------------------------------------------------------------------------------------------- a tile's moves

// A tile move is drawn the moment the tile is dropped, from the screen the server drew ahead for that move
// (irlab/ui/walkthrough/screen.py, moves_ahead). The browser asks for a tile's moves when the learner comes to the
// tile: a mouse resting on it, a focus, a press (a finger holds the tile before it lifts, so the answer comes
// during the hold). On the drop it draws the screen of the order the tiles now show, if the server sent it for
// the screen and K shown, then tells the server; its answer (a patch to the same screen but for the tiles) brings
// that tile's next moves. A move made while an earlier change is still on its way, or a grade, waits for the
// server.

/** The moves drawn ahead for each region: for one screen and K, row + order -> patch, and the tiles asked for.
 * @type {Map<string, {at: string, screens: Map<string, Patch>, tiles: Set<string>}>} */
const moveScreens = new Map();

/**
 * The moves drawn ahead for the region's screen and K (none yet when either is new).
 * @param {Region} region
 */
function movesFor(region) {
  const at = `${region.baseScreen}|${region.shownK}`;
  let kept = moveScreens.get(region.data.name);
  if (!kept || kept.at !== at) moveScreens.set(region.data.name, kept = { at, screens: new Map(), tiles: new Set() });
  return kept;
}

/**
 * @param {string} row
 * @param {string[] | string} order the ids in rank order, or already joined by line breaks
 */
function moveKey(row, order) {
  return `${row}\n\n${Array.isArray(order) ? order.join("\n") : order}`;
}

/**
 * Take the moves the server drew ahead (for the screen this region holds).
 * @param {Region} region
 * @param {MoveScreensData | undefined} sent
 */
function takeMoveScreens(region, sent) {
  if (!sent || sent.screen !== region.baseScreen) return;
  const kept = movesFor(region);
  kept.tiles.add(`${sent.row}\n${sent.item}`);
  for (const [order, patch] of Object.entries(sent.screens || {})) {
    kept.screens.set(moveKey(sent.row, order), asPatch(patch));
  }
  stats.moveScreens += 1;
}

/**
 * The pointer or focus came to ``target``: if it is a tile whose moves are not drawn ahead, ask for them (once per
 * tile, screen and K).
 * @param {Element} target
 */
function approachTile(target) {
  const tile = /** @type {HTMLElement | null} */ (target.closest('[data-testid="irl-tile"]'));
  const rowBlock = /** @type {HTMLElement | null} */ (tile?.closest(".irl-tiles-block") ?? null);
  const item = tile?.dataset.itemId;
  const row = rowBlock?.dataset.key;
  if (!item || !row) return;
  for (const region of regions.values()) {
    if (!region.root.contains(rowBlock) || region.moved || !region.base || quiet(region)) continue;
    const kept = movesFor(region);
    if (kept.tiles.has(`${row}\n${item}`)) return;  // asked for already, or sent with the server's answer
    kept.tiles.add(`${row}\n${item}`);
    // after the press's own handlers (the tiles' drag starts first): telling Streamlit takes a slow device a while
    window.setTimeout(() => send(region, "moves", { row, item }), 0);
  }
}

/**
 * The learner changed tile row ``row``: draw the move now if its screen was drawn ahead, and tell the server.
 * @param {Region} region
 * @param {string} row
 * @param {Record<string, unknown>} change the tiles' change: order, grades, seq, action
 */
function tileChange(region, row, change) {
  const waiting = region.pending !== null;
  region.pending = { row, seq: Number(change.seq) };
  const kept = moveScreens.get(region.data.name);
  const patch = !waiting && change.action !== "grade" && region.base && kept
    && kept.at === `${region.baseScreen}|${region.shownK}` && Array.isArray(change.order)
    ? kept.screens.get(moveKey(row, /** @type {string[]} */ (change.order))) : null;
  // a move drawn ahead: the server's answer only confirms it, so it may as well bring the tile's next moves
  const tell = () => send(region, "change", { ...change, row, ahead: Boolean(patch) });
  if (!patch || !region.base) {
    tell();
    return;
  }
  region.moved = { screen: region.baseScreen, blocks: applyPatch(region.base, patch) };
  region.pairFrom = null;
  draw(region);
  stats.moved += 1;
  // tell the server after the frame that shows the move: telling it first costs a slow device a frame's wait
  requestAnimationFrame(() => window.setTimeout(tell, 0));
}

/**
 * The tiles block ``row`` in ``blocks``, at any depth.
 * @param {Block[]} blocks
 * @param {string} row
 * @returns {import("./region-data").TilesBlock | null}
 */
function tilesBlock(blocks, row) {
  for (const block of blocks) {
    if (block.kind === "tiles" && block.key === row) return block;
    const inside = "children" in block ? tilesBlock(block.children, row) : null;
    if (inside) return inside;
  }
  return null;
}

/**
 * Whether the base has taken the region's latest tile change (its row names the change's number).
 * @param {Region} region
 * @returns {boolean}
 */
function takenChange(region) {
  if (!region.pending || !region.base) return true;
  const ack = tilesBlock(region.base, region.pending.row)?.data?.ack_seq;
  return typeof ack === "number" && ack >= region.pending.seq;
}

// ------------------------------------------------------------------------------------------- the learner coming

/** How long a pointer rests on a tile before it counts as coming to it (a pointer on its way across does not). */
const HOVER_MS = 150;
/** @type {number | undefined} */
let hovering;

/**
 * A pointer over an element: ask for its moves if it is a tile and the pointer is still there after ``HOVER_MS``;
 * a focus or a press asks at once.
 * @param {Event} event
 */
function approach(event) {
  const target = event.target;
  if (!(target instanceof Element)) return;
  approachTile(target);
  for (const region of regions.values()) {
    if (region.controls && region.controls.k.closest('[data-testid="irl-k"]')?.contains(target)) approachK(region);
  }
}

/** @param {PointerEvent} event */
function hover(event) {
  clearTimeout(hovering);
  if (event.buttons) return;  // a drag passing over: the learner is not coming to what lies under it
  if (event.type === "pointerover" && event.pointerType === "mouse") hovering = window.setTimeout(() => approach(event), HOVER_MS);
  else approach(event);
}

/**
 * Listen on the region's own element for the learner coming to a tile, and on the page for Undo and Redo keys.
 * @param {Region} region
 */
function listen(region) {
  region.root.addEventListener("pointerover", hover, true);
  region.root.addEventListener("pointerdown", approach, true);
  region.root.addEventListener("focusin", approach, true);
  onShortcut((action) => {
    for (const each of regions.values()) {
      if (!each.root.isConnected || !each.controls || each.controls.root.hidden) continue;
      const button = action === "undo" ? each.controls.undo : each.controls.redo;
      if (!button.disabled) control(each, action);
      return true;
    }
    return false;
  });
}

// ------------------------------------------------------------------------------------------- entry

/**
 * Ask the server for the screen whole: this region does not hold the screen its patch was made from.
 * @param {Region} region
 */
function askWhole(region) {
  if (region.asked === region.data.screen) return;
  region.asked = region.data.screen || "";
  region.base = null;
  region.baseScreen = "";
  send(region, "full", {});
}

/** @param {import("../types.js").ComponentArgs<RegionData> & {parentElement: HTMLElement & {__irlRegion?: Region}}} component */
export default function (component) {
  const { data, parentElement, setStateValue } = component;
  stats.updates += 1;
  let region = parentElement.__irlRegion;
  if (!region || !region.root.isConnected) {
    const root = el("div", "irl-region", "irl-region");
    const blocksRoot = el("div", "irl-blocks");
    root.append(blocksRoot);
    parentElement.append(root);
    refitOnResize(root);
    /** @type {Region} */
    const made = { root, blocksRoot, views: new Map(), data, ctx: /** @type {any} */ (null), base: null,
                   baseScreen: "", kForm: null, shownK: null, pairFrom: null, kDirty: false, settle: undefined,
                   controls: null, made: new Map(), ticked: new Set(), askedForm: "", quietUntil: 0, latest: null, moved: null, pending: null, asked: "",
                   route: null, tileChange: () => {} };
    made.tileChange = (row, change) => tileChange(made, row, change);
    region = parentElement.__irlRegion = made;
    listen(made);
  }
  const current = region;
  region.root.classList.toggle("irl-present", Boolean(data.present));
  region.data = data;
  region.ctx = { setStateValue, plotly: data.plotly, config: data.config, tileChange: region.tileChange };
  regions.set(data.name, region);
  if (data.settle) region.route = data.settle;
  if (data.controls && !region.controls) {
    region.controls = createControls(region.root, {
      k: (k) => learnerK(current, k),
      release: () => releasedK(current),
      action: (action, extra) => control(current, action, extra),
    });
  }

  if (data.same !== undefined) {
    if (data.same !== region.baseScreen) {
      askWhole(region);
      return;
    }
  } else if (data.patch !== undefined) {
    if (data.from !== region.baseScreen || !region.base) {
      askWhole(region);
      return;
    }
    region.base = applyPatch(region.base, asPatch(data.patch));
    region.baseScreen = data.screen || "";
  } else if (data.blocks) {
    region.base = data.blocks;
    region.baseScreen = data.screen || "";
  }
  if (data.kForm) {
    region.kForm = data.kForm;
    stats.kForms += 1;
  }
  if (typeof data.busy === "number") {
    region.quietUntil = Date.now() + data.busy * 1000;
    stats.busy += 1;
  }
  const newScreen = data.same === undefined;
  if (takenChange(region)) region.pending = null;
  // the server has taken the move drawn ahead (or drew another screen from a change before it): its screen is shown
  if (region.moved && newScreen && (region.pending === null || region.baseScreen !== region.moved.screen)) {
    region.moved = null;
  }
  // the K to show: the learner's own while the server has not been told it (or this answer does not know their latest
  // message yet), else the server's
  const k = typeof data.k === "number" ? data.k : null;
  const behind = region.latest !== null && (data.taken ?? -1) < region.latest.seq;
  resendUntaken(region, data);
  if (!region.kDirty && !behind && k !== null && k !== region.shownK) {
    region.pairFrom = newScreen ? null : region.shownK;
    region.shownK = k;
  } else if (newScreen) {
    region.pairFrom = region.kDirty ? (region.kForm ? region.kForm.base : null) : null;
  }
  if (region.shownK === null) region.shownK = k;
  if (region.controls && data.controls) updateControls(region.controls, data.controls, region.shownK);
  takeMoveScreens(region, data.moveScreens);
  draw(region);
  // a keyboard on a tile may move it again: ask for its moves from the new screen, unless they came with this answer
  const focused = document.activeElement;
  if (focused && region.root.contains(focused) && focused.matches(":focus-visible")) approachTile(focused);
}
