// Types shared by the components, for the type checker only (tsconfig.json here): nothing imports this file
// at run time, a module names a type as `import("../types.js").ComponentArgs` inside a JSDoc comment.

/**
 * What Streamlit's components v2 pass to a component's default export on every run (Streamlit 1.67):
 * the data the Python side sent, the element (a shadow root when styles are isolated) the component draws
 * into, and the setters of its state and trigger values. The export may return a cleanup function.
 * @template [Data=unknown]
 * @typedef {object} ComponentArgs
 * @property {string} name the registered name, e.g. "irlab.tiles"
 * @property {string} key the instance's key
 * @property {Data} data
 * @property {HTMLElement | ShadowRoot} parentElement
 * @property {(name: string, value: unknown) => void} setStateValue
 * @property {(name: string, value: unknown) => void} setTriggerValue
 */

/**
 * The part of plotly.js that chart/chart.js uses (plotly.js is loaded as a script and sets `window.Plotly`).
 * @typedef {object} PlotlyApi
 * @property {(root: HTMLElement, data: object[], layout: object, config: object) => Promise<unknown>} react
 * @property {{resize: (root: HTMLElement) => Promise<unknown> | void}} Plots
 */

export {};
