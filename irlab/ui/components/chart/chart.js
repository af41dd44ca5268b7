// One Plotly chart that updates in place: Plotly.react on every run, never a remount.
//
// The server sends the whole figure (data and layout, every number computed by irlab) as JSON;
// this code only draws it. plotly.js is loaded once per browser tab from the installed plotly
// package (a cached asset), not with every run.

/** @typedef {import("../types.js").PlotlyApi} PlotlyApi */

/**
 * What the server sends (irlab/ui/components/chart/__init__.py): the figure as JSON, its text alternative,
 * where plotly.js is served, and Plotly's options.
 * @typedef {{figure: string | object, alt: string, plotly: string, config: object}} ChartData
 */

/**
 * One chart's elements and what it last drew: the figure's JSON, and each trace as sent (JSON) and as given
 * to Plotly (the object).
 * @typedef {{box: HTMLDivElement, caption: HTMLParagraphElement, json: string | null, drawn: boolean,
 *            traces: {json: string, trace: object}[]}} ChartView
 */

/** The window with what plotly.js and this module put on it. */
const host = /** @type {Window & {Plotly?: PlotlyApi, __irlChartDraws?: {count: number}}} */ (window);

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
  const view = { box, caption, json: null, drawn: false, traces: [] };
  return { update: (data) => draw(view, data) };
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
  draws.count += 1;
  /** @type {{data: object[], layout: Record<string, any>}} */
  const figure = JSON.parse(json);
  /** @type {Record<string, any>} */
  const layout = { autosize: true, paper_bgcolor: "#ffffff", plot_bgcolor: "#ffffff", ...figure.layout,
                   font: { ...FONT, ...(figure.layout.font || {}) } };
  // tick labels and axis titles take the room they need (the specs keep small margins)
  for (const name of Object.keys(layout)) {
    if (/^[xy]axis\d*$/.test(name)) layout[name] = { automargin: true, ...layout[name] };
  }
  const height = layout.height || 340;
  view.box.style.height = height + "px";
  loadPlotly(data.plotly).then(afterPaint).then((Plotly) => {
    if (view.json !== json) return;  // a newer figure arrived meanwhile: that one is drawn instead
    return Plotly.react(view.box, sameTracesKept(view, figure.data), layout, data.config).then(() => {
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
            Plotly.Plots.resize(view.box);
          }
        }).observe(view.box);
      }
    });
  }).catch((/** @type {unknown} */ error) => {
    const reason = error instanceof Error ? error.message : String(error);
    view.box.textContent = "The chart could not be drawn (" + reason + "); its description: " + data.alt;
  });
}

/** How many figures the charts of this tab have drawn (a test checks an unchanged chart is not redrawn). */
const draws = { count: 0 };
host.__irlChartDraws = draws;

/** @param {import("../types.js").ComponentArgs<ChartData> & {parentElement: {__irlChart?: ReturnType<typeof createChart>}}} component */
export default function (component) {
  const { data, parentElement } = component;
  let chart = parentElement.__irlChart;
  if (!chart || !parentElement.isConnected) chart = parentElement.__irlChart = createChart(parentElement);
  chart.update(data);
}
