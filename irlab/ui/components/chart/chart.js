// One Plotly chart that updates in place: Plotly.react on every run, never a remount.
//
// The server sends the whole figure (data and layout, every number computed by irlab) as JSON;
// this code only draws it. plotly.js is loaded once per browser tab from the installed plotly
// package (a cached asset), not with every run.
//
// The walkthrough's charts mark K with layout: a dotted line at K with its label, and on each curve a ring round the
// point at K with its value beside it (irlab/walkthrough/charts.py). A change of K changes only these marks, and
// Plotly redraws a whole figure for any change of its layout (its defaults, axes and every trace: ~8 ms a chart,
// ~40 ms with the CPU slowed 4x, bench/chart_k_change.py). So when a figure's shapes and annotations are all of the
// few kinds these marks are, this code draws them itself, in an SVG laid over the plot and placed with the plot's
// own axes, and Plotly draws the rest: a change of K then moves a few SVG elements and does not call Plotly.
//
// A move of a tile changes the curves' values and nothing else of a walkthrough chart (its axes have fixed ranges).
// Plotly.react recomputes and redraws the whole figure for that (~25 ms for NDCG's two charts, ~100 ms with the CPU
// slowed 4x); when only the traces' y values changed and every axis has a fixed range, the chart moves its points and
// lines with Plotly.animate instead (no transition, no redraw of the rest: about half the main-thread time).

/**
 * plotly.js as this code calls it: the shared API and ``animate``, which moves a figure's traces to new data.
 * @typedef {import("../types.js").PlotlyApi & {animate: (root: HTMLElement, frame: object, options: object)
 *   => Promise<unknown>}} PlotlyApi
 */

/**
 * What the server sends (irlab/ui/components/chart/__init__.py): the figure as JSON, its text alternative,
 * where plotly.js is served, and Plotly's options.
 * @typedef {{figure: string | object, alt: string, plotly: string, config: object}} ChartData
 */

/**
 * A mark drawn over the plot: a vertical line at ``x`` (from paper height ``y0`` to ``y1``), a ring of radius ``r``
 * pixels round the point (``x``, ``y``), or a text beside (``x``, ``y``) (``y`` in paper units when ``paper``),
 * anchored and shifted (pixels, up is positive) as a Plotly annotation is.
 * @typedef {{kind: "line", x: number, y0: number, y1: number, color: string, width: number, dash: string}
 *   | {kind: "ring", x: number, y: number, r: number, color: string, width: number}
 *   | {kind: "text", x: number, y: number, paper: boolean, text: string, xanchor: string, yanchor: string,
 *      xshift: number, yshift: number, size: number, color: string}} Mark
 */

/**
 * One chart's elements and what it last drew: the figure's JSON, the JSON of the part Plotly draws, each trace as
 * sent (JSON) and as given to Plotly (the object), and the marks this code draws over the plot (null: Plotly draws
 * the figure's shapes and annotations itself).
 * ``figure``: the figure Plotly last finished drawing (its shapes and annotations left out when this code draws them);
 * null while a drawing is under way.
 * @typedef {{box: HTMLDivElement & {_fullLayout?: any, data?: object[]}, caption: HTMLParagraphElement,
 *            json: string | null, plotJson: string | null, drawn: boolean, traces: {json: string, trace: object}[],
 *            marks: Mark[] | null, overlay: SVGSVGElement | null, font: {family: string, color: string, size: number},
 *            figure: Figure | null}} ChartView
 * @typedef {{data: Record<string, any>[], layout: Record<string, any>}} Figure
 */

/** The window with what plotly.js and this module put on it. */
const host = /** @type {Window & {Plotly?: PlotlyApi, __irlChartDraws?: typeof draws}} */ (window);

/** @type {Promise<PlotlyApi> | null} */
let plotlyLoading = null;

/**
 * plotly.js, loaded from ``src`` once per tab (a failed load may be tried again).
 * @param {string} src
 * @returns {Promise<PlotlyApi>}
 */
function loadPlotly(src) {
  if (host.Plotly) return Promise.resolve(host.Plotly);
  if (!plotlyLoading) {
    plotlyLoading = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.async = true;
      script.onload = () => (host.Plotly ? resolve(host.Plotly) : reject(new Error("plotly.js set no Plotly")));
      script.onerror = () => { plotlyLoading = null; reject(new Error("plotly.js did not load")); };
      // after the page has painted once: parsing plotly.js takes the main thread for a while, and the
      // numbers and tiles drawn with this chart should not wait for it (a cold start's first number)
      requestAnimationFrame(() => requestAnimationFrame(() => document.head.appendChild(script)));
    });
  }
  return plotlyLoading;
}

/**
 * ``value``, once the browser has painted what the current task changed. A move's numbers, text and tiles
 * are set in the same task as its charts' figures; redrawing a chart (Plotly's work, the largest part of a
 * move's) after that paint shows the numbers one chart-redraw sooner, which on a slow laptop is a tenth
 * of a second or more. Only the newest figure is drawn when several arrive within a frame.
 * @template T
 * @param {T} value
 * @returns {Promise<T>}
 */
function afterPaint(value) {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(value), 0)));
}

// "Source Sans" is the face Streamlit serves with the page; the others are for a copy installed locally
const FONT = { family: '"Source Sans", "Source Sans 3", "Source Sans Pro", sans-serif', color: "#1f2328" };

/**
 * A chart drawn into ``parent``; ``update`` redraws it in place (Plotly.react) only when the figure changed.
 * @param {HTMLElement | ShadowRoot} parent
 * @returns {{update: (data: ChartData) => void}}
 */
export function createChart(parent) {
  const box = document.createElement("div");
  box.className = "irl-chart";
  box.setAttribute("role", "img");
  box.setAttribute("data-testid", "irl-chart");
  // the text alternative, also shown: what the chart says, in words (text, never HTML)
  const caption = document.createElement("p");
  caption.className = "irl-chart-caption";
  caption.setAttribute("data-testid", "irl-chart-caption");
  parent.append(box, caption);
  /** @type {ChartView} */
  const view = { box, caption, json: null, plotJson: null, drawn: false, traces: [], marks: null, overlay: null,
                 font: { ...FONT, size: 14 }, figure: null };
  return { update: (data) => draw(view, data) };
}

// ------------------------------------------------------------------------------------------- marks over the plot

const SVG = "http://www.w3.org/2000/svg";
/** Plotly's dash patterns (its Drawing.dashStyle) for the dashes marks use, by line width. */
const DASHES = { solid: () => "", dot: (/** @type {number} */ width) => `${Math.max(width, 3)}px,${Math.max(width, 3)}px`,
                 dash: (/** @type {number} */ width) => `${3 * Math.max(width, 3)}px,${3 * Math.max(width, 3)}px` };
/** Plotly's padding round an annotation's text: its border (1 px) and the border's padding (1 px). */
const TEXT_PAD = 2;

/**
 * Whether ``item`` has no keys but ``allowed``.
 * @param {Record<string, unknown>} item
 * @param {string[]} allowed
 */
function only(item, allowed) {
  return Object.keys(item).every((key) => allowed.includes(key));
}

/**
 * The marks of a layout, when every shape and annotation in it is one this code draws (a vertical line on the x axis
 * across the plot, a ring of a fixed size round a point, a plain text beside a point or at the plot's edge); null
 * when any is not (Plotly then draws them all).
 * @param {Record<string, any>} layout
 * @returns {Mark[] | null}
 */
export function marksOf(layout) {
  /** @type {Mark[]} */
  const marks = [];
  const color = layout.font?.color ?? FONT.color;
  const size = layout.font?.size ?? 14;
  for (const shape of layout.shapes || []) {
    const line = shape.line || {};
    const width = line.width ?? 2;
    if (!only(line, ["color", "width", "dash"]) || !(String(line.dash ?? "solid") in DASHES)) return null;
    if (shape.type === "line" && shape.xref === "x" && shape.yref === "paper" && shape.x0 === shape.x1
        && only(shape, ["type", "xref", "yref", "x0", "x1", "y0", "y1", "line", "name"])) {
      marks.push({ kind: "line", x: shape.x0, y0: shape.y0, y1: shape.y1, color: line.color ?? color, width,
                   dash: line.dash ?? "solid" });
    } else if (shape.type === "circle" && shape.xref === "x" && shape.yref === "y" && shape.xsizemode === "pixel"
               && shape.ysizemode === "pixel" && shape.x1 === -shape.x0 && shape.y1 === -shape.y0
               && shape.x1 === shape.y1
               && only(shape, ["type", "xref", "yref", "xsizemode", "ysizemode", "xanchor", "yanchor", "x0", "x1",
                               "y0", "y1", "line", "name"])) {
      marks.push({ kind: "ring", x: shape.xanchor, y: shape.yanchor, r: shape.x1, color: line.color ?? color, width });
    } else {
      return null;
    }
  }
  for (const note of layout.annotations || []) {
    if (note.showarrow !== false || note.xref !== "x" || !["y", "paper"].includes(note.yref)
        || typeof note.text !== "string" || /[<>&]/.test(note.text)
        || !only(note, ["text", "xref", "yref", "x", "y", "showarrow", "xanchor", "yanchor", "xshift", "yshift",
                        "font"])
        || !only(note.font || {}, ["size", "color"])) return null;
    marks.push({ kind: "text", x: note.x, y: note.y, paper: note.yref === "paper", text: note.text,
                 xanchor: note.xanchor ?? "center", yanchor: note.yanchor ?? "middle", xshift: note.xshift ?? 0,
                 yshift: note.yshift ?? 0, size: note.font?.size ?? size, color: note.font?.color ?? color });
  }
  return marks;
}

/**
 * Set an element's attribute only when it differs (an unchanged mark is not touched).
 * @param {Element} node
 * @param {string} name
 * @param {string | number} value
 */
function attribute(node, name, value) {
  const text = String(value);
  if (node.getAttribute(name) !== text) node.setAttribute(name, text);
}

/**
 * Draw the view's marks over its plot, where the plot's axes put them (after every drawing of the plot: a change of
 * K, a new figure, a new width).
 * @param {ChartView} view
 */
function placeMarks(view) {
  const full = view.box._fullLayout;
  const container = view.box.querySelector(".svg-container");
  if (!full || !full.xaxis || !full.yaxis || !container) return;
  let overlay = view.overlay;
  if (!overlay || overlay.parentNode !== container) {
    overlay = view.overlay = /** @type {SVGSVGElement} */ (document.createElementNS(SVG, "svg"));
    overlay.setAttribute("class", "irl-chart-marks");
    overlay.setAttribute("aria-hidden", "true");  // the caption says what the marks show
    overlay.dataset.testid = "irl-chart-marks";
    // inline: the region draws charts too, without this component's style sheet
    overlay.style.cssText = "position: absolute; inset: 0; width: 100%; height: 100%; overflow: visible; "
      + "pointer-events: none";
    // above the plot, below Plotly's hover labels (its last layer)
    container.insertBefore(overlay, container.querySelector(".main-svg")?.nextSibling ?? null);
  }
  const marks = view.marks || [];
  const xa = full.xaxis;
  const ya = full.yaxis;
  const size = full._size;
  const x = (/** @type {number} */ value) => xa._offset + xa.l2p(value);
  const y = (/** @type {number} */ value, /** @type {boolean} */ paper) =>
    paper ? size.t + size.h * (1 - value) : ya._offset + ya.l2p(value);
  while (overlay.children.length > marks.length) overlay.lastElementChild?.remove();
  marks.forEach((mark, index) => {
    const tag = mark.kind === "line" ? "line" : mark.kind === "ring" ? "circle" : "text";
    let node = overlay.children[index];
    if (!node || node.localName !== tag) {
      const made = document.createElementNS(SVG, tag);
      if (node) node.replaceWith(made);
      else overlay.append(made);
      node = made;
    }
    node.setAttribute("data-mark", mark.kind);
    if (mark.kind === "line") {
      attribute(node, "x1", x(mark.x));
      attribute(node, "x2", x(mark.x));
      attribute(node, "y1", y(mark.y0, true));
      attribute(node, "y2", y(mark.y1, true));
      attribute(node, "stroke", mark.color);
      attribute(node, "stroke-width", mark.width);
      attribute(node, "stroke-dasharray", DASHES[/** @type {keyof typeof DASHES} */ (mark.dash)](mark.width));
    } else if (mark.kind === "ring") {
      attribute(node, "cx", x(mark.x));
      attribute(node, "cy", y(mark.y, false));
      attribute(node, "r", mark.r);
      attribute(node, "fill", "none");
      attribute(node, "stroke", mark.color);
      attribute(node, "stroke-width", mark.width);
    } else {
      // as Plotly places an annotation's box: its anchored edge at the point, shifted; the text inside its padding
      const left = x(mark.x) + mark.xshift;
      const top = y(mark.y, mark.paper) - mark.yshift;
      const height = mark.size * 1.3;
      const middle = mark.yanchor === "bottom" ? top - TEXT_PAD - height / 2
        : mark.yanchor === "top" ? top + TEXT_PAD + height / 2 : top;
      attribute(node, "x", mark.xanchor === "left" ? left + TEXT_PAD : mark.xanchor === "right" ? left - TEXT_PAD : left);
      attribute(node, "y", middle);
      attribute(node, "text-anchor", mark.xanchor === "left" ? "start" : mark.xanchor === "right" ? "end" : "middle");
      attribute(node, "dominant-baseline", "central");
      attribute(node, "font-family", view.font.family);
      attribute(node, "font-size", `${mark.size}px`);
      attribute(node, "fill", mark.color);
      if (node.textContent !== mark.text) node.textContent = mark.text;
    }
  });
}

/**
 * The traces to give Plotly: each trace the same as last time is last time's object. ``Plotly.react`` takes a
 * data array it has not seen (a new object, as every parsed figure has) for new data, and recomputes and
 * redraws every trace; given the same objects, a figure whose traces did not change (a change of K moves
 * only shapes and labels) is a cheap update of the layout (bench/chart_k_change.py).
 * @param {ChartView} view
 * @param {object[]} traces
 * @returns {object[]}
 */
function sameTracesKept(view, traces) {
  const sent = traces.map((trace) => JSON.stringify(trace));
  const kept = traces.map((trace, i) => (view.traces[i] && view.traces[i].json === sent[i] ? view.traces[i].trace : trace));
  view.traces = kept.map((trace, i) => ({ json: sent[i], trace }));
  return kept;
}

/**
 * Show ``data``'s text alternative, and draw its figure unless it is the one already drawn.
 * @param {ChartView} view
 * @param {ChartData} data
 */
function draw(view, data) {
  view.box.setAttribute("aria-label", data.alt);
  if (view.caption.textContent !== data.alt) view.caption.textContent = data.alt;
  // the figure as JSON text (the chart component) or as an object (a block of the live region, whose figures travel
  // as patches); Plotly gets its own copy, since it writes into what it is given
  const json = typeof data.figure === "string" ? data.figure : JSON.stringify(data.figure);
  if (json === view.json) return;  // the same figure: nothing to draw
  view.json = json;
  /** @type {Figure} */
  const figure = JSON.parse(json);
  // the marks this code draws over the plot, and the rest, which Plotly draws (only when it changed)
  const marks = marksOf(figure.layout);
  if (marks) {
    const { shapes: _shapes, annotations: _annotations, ...rest } = figure.layout;
    figure.layout = rest;
  }
  view.marks = marks;
  const plotJson = marks ? JSON.stringify(figure) : json;
  if (plotJson === view.plotJson) {  // only the marks moved (a change of K): Plotly is not called
    if (view.drawn) placeMarks(view);
    return;
  }
  view.plotJson = plotJson;
  draws.count += 1;
  const values = newValuesOnly(view.figure, figure);
  if (values) {
    view.figure = null;
    loadPlotly(data.plotly).then(afterPaint).then((Plotly) => {
      if (view.plotJson !== plotJson) return;  // a newer figure arrived meanwhile: that one is drawn instead
      return Plotly.animate(view.box, { data: values.map((y) => ({ y })), traces: values.map((_, index) => index) },
                            NO_TRANSITION).then(() => {
        // Plotly holds the same trace objects, now with the new values: what they are as JSON is the figure's
        view.traces = view.traces.map((kept, index) => ({ json: JSON.stringify(figure.data[index]), trace: kept.trace }));
        if (view.plotJson === plotJson) view.figure = figure;
        draws.moved += 1;
        draws.done += 1;
        placeMarks(view);
      });
    }).catch(() => redraw(view, data, figure, plotJson));
    return;
  }
  redraw(view, data, figure, plotJson);
}

/** Plotly.animate's options for a move without a transition and without redrawing what did not change. */
const NO_TRANSITION = { transition: { duration: 0 }, frame: { duration: 0, redraw: false }, mode: "immediate" };

/**
 * The y values of each trace of ``figure`` when they are all that changed since ``drawn`` (the figure drawn), and the
 * chart can move its traces to them (see the top of this file): every trace a scatter, the same keys, the same values
 * but y, y as long as before, the same layout, and every axis with a fixed range. Null otherwise.
 * @param {Figure | null} drawn
 * @param {Figure} figure
 * @returns {unknown[][] | null}
 */
export function newValuesOnly(drawn, figure) {
  if (!drawn || drawn.data.length !== figure.data.length || !figure.data.length) return null;
  const layout = figure.layout || {};
  const axes = Object.keys(layout).filter((name) => /^[xy]axis\d*$/.test(name));
  if (!axes.length || !axes.every((name) => Array.isArray(layout[name].range) && !layout[name].autorange)) return null;
  if (JSON.stringify(drawn.layout) !== JSON.stringify(layout)) return null;
  /** @type {unknown[][]} */
  const values = [];
  for (const [index, trace] of figure.data.entries()) {
    const before = drawn.data[index];
    if ((trace.type ?? "scatter") !== "scatter" || !Array.isArray(trace.y) || !Array.isArray(before.y)
        || trace.y.length !== before.y.length) return null;
    const { y: _y, ...rest } = trace;
    const { y: _before, ...restBefore } = before;
    if (JSON.stringify(rest) !== JSON.stringify(restBefore)) return null;
    values.push(trace.y);
  }
  return values;
}

/**
 * Draw ``figure`` whole (Plotly.react), and the marks over it.
 * @param {ChartView} view
 * @param {ChartData} data
 * @param {Figure} figure
 * @param {string} plotJson
 */
function redraw(view, data, figure, plotJson) {
  view.figure = null;
  /** @type {Record<string, any>} */
  const layout = { autosize: true, paper_bgcolor: "#ffffff", plot_bgcolor: "#ffffff", ...figure.layout,
                   font: { ...FONT, ...(figure.layout.font || {}) } };
  view.font = { family: layout.font.family, color: layout.font.color, size: layout.font.size ?? 14 };
  // tick labels and axis titles take the room they need (the specs keep small margins)
  for (const name of Object.keys(layout)) {
    if (/^[xy]axis\d*$/.test(name)) layout[name] = { automargin: true, ...layout[name] };
  }
  const height = layout.height || 340;
  view.box.style.height = height + "px";
  loadPlotly(data.plotly).then(afterPaint).then((Plotly) => {
    if (view.plotJson !== plotJson) return;  // a newer figure arrived meanwhile: that one is drawn instead
    return Plotly.react(view.box, sameTracesKept(view, figure.data), layout, data.config).then(() => {
      if (view.plotJson === plotJson) view.figure = figure;
      draws.done += 1;
      placeMarks(view);
      if (!view.drawn) {
        view.drawn = true;
        // charts follow the column's width: Plotly's own "responsive" listens to window resizes only
        // only a new width redraws: a redraw that nudged the layout must not start another (a loop that
        // kept a two-chart chapter busy for 1.5 s of every second)
        let width = view.box.offsetWidth;
        new ResizeObserver(() => {
          const now = view.box.offsetWidth;
          if (now && Math.abs(now - width) > 1) {
            width = now;
            Promise.resolve(Plotly.Plots.resize(view.box)).then(() => placeMarks(view));
          }
        }).observe(view.box);
      }
    });
  }).catch((/** @type {unknown} */ error) => {
    const reason = error instanceof Error ? error.message : String(error);
    view.box.textContent = "The chart could not be drawn (" + reason + "); its description: " + data.alt;
  });
}

/** How many figures the charts of this tab have drawn (a test checks an unchanged chart is not redrawn), how many of
 * those drawings are done, and how many were made by moving the traces to new values. */
const draws = { count: 0, done: 0, moved: 0 };
host.__irlChartDraws = draws;

/** @param {import("../types.js").ComponentArgs<ChartData> & {parentElement: {__irlChart?: ReturnType<typeof createChart>}}} component */
export default function (component) {
  const { data, parentElement } = component;
  let chart = parentElement.__irlChart;
  if (!chart || !parentElement.isConnected) chart = parentElement.__irlChart = createChart(parentElement);
  chart.update(data);
}
