// @ts-check
// The live class's feed on a page: it follows the class through the server's event stream and reruns the page
// only when the class changed; it shows the round's timer, the projector's counts, and what the connection is
// doing, in the class's words.
//
// * The stream (`EventSource`, irlab/ui/classroom/feed.py) sends `pulse` when what this page shows changed,
//   `beat` every 10 s, `trouble` when the class store is not answering, `gone` when the link opens nothing.
//   The page was drawn from versions the server gave (`data.shown`); when a pulse names others, this asks
//   for a run of the page's fragment (`setTriggerValue`), a student's page after a random moment within
//   `data.spread` ms (a class of 500 does not rerun all at once), the projector at once for a lecturer's move
//   and at most once a second for answers arriving (their count is drawn from the pulse itself).
// * Never stale in silence: no word from the stream for 25 s reconnects it; a run asked for that does not
//   come is asked again, and after 30 s the page reloads itself (the seat is in the link, the answer in the
//   outbox). Streamlit's own "Connection error" dialog (a developer's words, over a greyed page) is hidden and
//   the banner says "Connection lost: reconnecting…" instead. It is fixed on top of the screen, over the page's
//   timer: while a round's timer runs it shows the time left itself, first, so a student who lost the connection
//   still sees how long is left (the page under it does not move: no jump under a thumb about to press Send).
// * The timer counts down on the server's clock (clock.js), from the round's `closes_at`.
//
// * One feed per page shows: Streamlit may keep an older copy of this element on the page for a while (a full run
//   cut short by a rerun leaves the last run's elements until a run completes; an element displaced during a run
//   stays beside its successor), so every feed knows the others of its page (`FEEDS`) and only the newest, the one
//   drawn from the newest versions (the most recently drawn among equals), shows and follows the class; the others
//   hide, ask for nothing and close their stream.
// * Streamlit calls the cleanup of an invocation that a newer update overtook while it was loading the module (it
//   ran all the same), then invokes the component again on the same element: a cleanup removes what it built, and
//   only the cleanup of the instance's latest invocation ends it (an overtaken one that comes late does nothing).
//
// It computes no result: the counts are the server's, the timer the time left of an end the server gave.

import { announceAt, clockOffset, clockText, secondsLeft, spokenLeft } from "./clock.js";

/**
 * @typedef {object} RoundNow
 * @property {number} id
 * @property {string} state "open", "closed" or "revealed"
 * @property {number | null} closes_at
 * @property {number} [number]
 * @property {number} [answers]
 * @property {number[]} [earlier] answers of the activity's earlier rounds
 */

/**
 * A pulse from the stream (irlab/classroom/pulse.py: student_message, projector_message) and the server's clock.
 * @typedef {object} Pulse
 * @property {number} student
 * @property {number} [projector]
 * @property {number} [students]
 * @property {number | null} [following]
 * @property {RoundNow | null} round
 * @property {number} now
 */

/**
 * What the server draws the page with.
 * @typedef {object} LiveData
 * @property {"student" | "projector"} role
 * @property {string} events the event stream's URL
 * @property {{student: number, projector?: number, round: number | null, state: string | null}} shown
 * @property {number} now the server's clock when it drew the page (seconds since the epoch)
 * @property {RoundNow | null} round the current round as drawn (with its counts on the projector)
 * @property {{students: number, following: number | null} | null} counts the projector's counts as drawn
 * @property {number} spread ms within which a student's page reruns after a change (a held page: ms until it asks
 *   again)
 * @property {boolean} held the page could not read the class (the store did not answer): it shows what it kept
 */

/**
 * @typedef {object} Live
 * @property {LiveData} data
 * @property {(name: string, value: unknown) => void} trigger
 * @property {EventSource | null} source
 * @property {string} url
 * @property {number} heard when the stream last said anything (ms, this device)
 * @property {number} offset the server's clock minus this device's (ms)
 * @property {Pulse | null} latest
 * @property {{since: number, asked: number, tries: number} | null} pending a run asked for and not come yet
 * @property {number} lastAsk when a run was last asked for (ms)
 * @property {number | null} wait a run to ask for later (a timeout id)
 * @property {"ok" | "down" | "trouble" | "gone"} stream
 * @property {number} downSince
 * @property {boolean} streamlitDown Streamlit's own connection is lost (its dialog showed)
 * @property {string} gone the message when the link opens nothing
 * @property {number} announced the seconds-left value last said to a screen reader
 * @property {string} clockLine the running timer in words ("0:24 left to answer", "Time is up"), "" when none runs
 * @property {number} drawn when Streamlit last drew this instance (a page-wide count: larger is later)
 * @property {boolean} shown whether this instance is the page's feed (not an older copy Streamlit still shows)
 * @property {{root: HTMLElement, timer: HTMLElement, clock: HTMLElement, note: HTMLElement, counts: HTMLElement,
 *             banner: HTMLElement, bannerClock: HTMLElement, bannerText: HTMLElement, spoken: HTMLElement}} el
 * @property {() => void} cleanup
 */

const SILENT_MS = 25_000;
const RERUN_AGAIN_MS = 8_000;
const RELOAD_AFTER_MS = 30_000;
const BANNER_AFTER_MS = 1_500;
const PROJECTOR_EVERY_MS = 1_000;

/** The feeds on this page (normally one; two while Streamlit still shows an older copy). @type {Set<Live>} */
const FEEDS = new Set();
/** How many times Streamlit drew a feed on this page: each draw's stamp (`Live.drawn`). */
let draws = 0;

/**
 * Whether feed `a` shows a newer state of the class than feed `b`: drawn from newer versions (the lecturer's moves,
 * then the answers), or from the same versions later.
 * @param {{shown: {student: number, projector?: number}, drawn: number}} a
 * @param {{shown: {student: number, projector?: number}, drawn: number}} b
 * @returns {boolean}
 */
export function newerFeed(a, b) {
  if (a.shown.student !== b.shown.student) return a.shown.student > b.shown.student;
  const [pa, pb] = [a.shown.projector ?? -1, b.shown.projector ?? -1];
  if (pa !== pb) return pa > pb;
  return a.drawn > b.drawn;
}

/**
 * Whether `live` is the page's feed of its role: no other feed still on the page shows a newer state.
 * @param {Live} live
 * @returns {boolean}
 */
function isNewest(live) {
  const mine = { shown: live.data.shown, drawn: live.drawn };
  for (const other of FEEDS) {
    if (other === live || other.data.role !== live.data.role || !other.el.root.isConnected) continue;
    if (newerFeed({ shown: other.data.shown, drawn: other.drawn }, mine)) return false;
  }
  return true;
}

/**
 * Show `live` if it is the page's feed, else hide it (and the element Streamlit holds it in, so no gap is left),
 * stop its stream and forget any run it asked for; an older copy that becomes the newest again follows anew.
 * @param {Live} live
 * @returns {boolean} whether it shows
 */
function settleShown(live) {
  const newest = isNewest(live);
  if (newest !== live.shown) {
    live.shown = newest;
    live.el.root.hidden = !newest;
    const host = live.el.root.getRootNode() instanceof ShadowRoot
      ? /** @type {ShadowRoot} */ (live.el.root.getRootNode()).host : live.el.root.parentElement;
    const box = /** @type {HTMLElement | null} */ (host?.closest('[data-testid="stElementContainer"]') ?? null);
    if (box) box.style.display = newest ? "" : "none";
    if (!newest) {
      live.source?.close();
      live.source = null;
      live.url = "";
      live.pending = null;
      if (live.wait !== null) window.clearTimeout(live.wait);
      live.wait = null;
    }
  }
  if (newest && live.source === null && live.stream !== "gone") {
    live.url = live.data.events;
    connect(live);
  }
  return newest;
}

/** The connection banner's look (it is outside this component's styles). */
const BANNER_STYLE = {
  position: "fixed", top: "0", left: "0", right: "0", zIndex: "1000100", padding: "0.75rem 1rem",
  background: "#7a4a00", color: "#ffffff", font: "1.1rem/1.35 'Source Sans', 'Source Sans 3', sans-serif",
  textAlign: "center", boxShadow: "0 2px 6px rgba(0, 0, 0, 0.25)",
};
/** The time left in the banner: the timer's type, on a line of its own above the words. */
const BANNER_CLOCK_STYLE = {
  display: "block", fontWeight: "700", fontSize: "1.6rem", lineHeight: "1.2", fontVariantNumeric: "tabular-nums",
};

const WORDS = {
  lost: "Connection lost: reconnecting\u2026",
  lostStudent: "Connection lost: reconnecting\u2026 Your answer stays on this phone and is sent when the class "
    + "answers again.",
  lostProjector: "Connection lost: reconnecting\u2026 The counts may be behind.",
  trouble: "The class store is not answering; this page keeps trying.",
  stale: "This page stopped following the class: reloading it\u2026",
  left: "left to answer",
  up: "Time is up",
};

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

/**
 * The component's elements, built once per instance.
 * @param {HTMLElement | ShadowRoot} parent
 * @param {"student" | "projector"} role
 */
function build(parent, role) {
  const root = make("div", `irl-live irl-live-${role}`, "irl-live");
  const timer = make("div", "irl-timer", "irl-timer");
  timer.setAttribute("role", "timer");
  timer.hidden = true;
  const clock = make("span", "irl-clock", "irl-clock");
  const note = make("span", "irl-clock-note");
  timer.append(clock, note);
  const counts = make("div", "irl-counts", "irl-counts");
  counts.hidden = role !== "projector";
  // the banner lives in the page itself, fixed on top of the screen: inside this element a fixed position is
  // relative to Streamlit's container, which clips it
  const banner = make("div", "irl-banner", "irl-connection");
  banner.setAttribute("role", "status");
  banner.hidden = true;
  Object.assign(banner.style, BANNER_STYLE);
  const bannerClock = make("span", "irl-banner-clock", "irl-connection-clock");
  bannerClock.setAttribute("aria-hidden", "true"); // the page's timer says it (role timer), at a few moments
  Object.assign(bannerClock.style, BANNER_CLOCK_STYLE);
  bannerClock.hidden = true;
  const bannerText = make("span", "irl-banner-text");
  banner.append(bannerClock, bannerText);
  document.body.append(banner);
  const spoken = make("div", "irl-spoken");
  spoken.setAttribute("aria-live", "polite");
  root.append(timer, counts, spoken);
  parent.append(root);
  return { root, timer, clock, note, counts, banner, bannerClock, bannerText, spoken };
}

/**
 * Whether a pulse names another state than the page shows.
 * @param {Pulse} pulse
 * @param {LiveData} data
 * @returns {"lecturer" | "answers" | null} what changed: a move of the lecturer (or the timer), or only answers
 */
export function changeOf(pulse, data) {
  const shown = data.shown;
  const round = pulse.round;
  if (pulse.student !== shown.student || (round?.id ?? null) !== shown.round || (round?.state ?? null) !== shown.state)
    return "lecturer";
  if (data.role === "projector" && pulse.projector !== undefined && pulse.projector !== shown.projector)
    return "answers";
  return null;
}

/**
 * The projector's counts as text items: students joined (and how many do not follow), answers per round.
 * @param {{students: number, following: number | null} | null} counts
 * @param {RoundNow | null} round
 * @returns {{label: string, value: string, note: string}[]}
 */
export function countItems(counts, round) {
  if (!counts) return [];
  const behind = counts.following === null ? null : Math.max(0, counts.students - counts.following);
  /** @type {{label: string, value: string, note: string}[]} */
  const items = [{ label: "Students joined", value: String(counts.students),
    note: behind ? `${behind} not following` : "" }];
  if (round && round.number !== undefined) {
    const earlier = round.earlier ?? [];
    earlier.forEach((answers, index) => items.push({ label: `Answers, round ${index + 1}`, value: String(answers),
      note: "" }));
    items.push({ label: `Answers, round ${round.number}`, value: String(round.answers ?? 0), note: "" });
  }
  return items;
}

/** @param {Live} live */
function drawCounts(live) {
  if (live.data.role !== "projector") return;
  const pulse = live.latest;
  const fresh = pulse && (pulse.projector ?? 0) >= (live.data.shown.projector ?? 0);
  const counts = fresh && pulse ? { students: pulse.students ?? 0, following: pulse.following ?? null } : live.data.counts;
  const round = fresh && pulse ? pulse.round : live.data.round;
  const items = countItems(counts, round);
  const box = live.el.counts;
  while (box.children.length > items.length) box.lastElementChild?.remove();
  items.forEach((item, index) => {
    let cell = /** @type {HTMLElement | undefined} */ (box.children[index]);
    if (!cell) {
      cell = make("div", "irl-count", "irl-count");
      cell.append(make("div", "irl-count-label", "irl-count-label"), make("div", "irl-count-value", "irl-count-value"),
        make("div", "irl-count-note", "irl-count-note"));
      box.append(cell);
    }
    const [label, value, note] = /** @type {HTMLElement[]} */ (Array.from(cell.children));
    if (label.textContent !== item.label) label.textContent = item.label;
    if (value.textContent !== item.value) value.textContent = item.value;
    if (note.textContent !== item.note) note.textContent = item.note;
  });
}

/** @param {Live} live */
function drawTimer(live) {
  const pulse = live.latest;
  const round = pulse && pulse.student >= live.data.shown.student ? pulse.round : live.data.round;
  const running = round && round.closes_at !== null && round.closes_at !== undefined
    && (round.state === "open" || (round.state === "closed" && live.data.shown.state === "open"));
  if (!running || !round || round.closes_at === null) {
    live.el.timer.hidden = true;
    live.clockLine = "";
    return;
  }
  const left = secondsLeft(round.closes_at, Date.now(), live.offset);
  live.el.timer.hidden = false;
  live.el.timer.classList.toggle("irl-timer-up", left === 0);
  live.el.timer.classList.toggle("irl-timer-short", left > 0 && left <= 10);
  const clock = left > 0 ? clockText(left) : WORDS.up;
  if (live.el.clock.textContent !== clock) live.el.clock.textContent = clock;
  const note = left > 0 ? WORDS.left : "";
  if (live.el.note.textContent !== note) live.el.note.textContent = note;
  live.clockLine = note ? `${clock} ${note}` : clock;
  if (announceAt(left) && live.announced !== left) {
    live.announced = left;
    live.el.spoken.textContent = spokenLeft(left);
  }
}

/** @param {Live} live */
function drawBanner(live) {
  let text = "";
  const now = Date.now();
  if (!live.shown) text = "";
  else if (live.stream === "gone") text = live.gone;
  else if (live.stream === "trouble") text = WORDS.trouble;
  else if ((live.stream === "down" || live.streamlitDown) && now - live.downSince >= BANNER_AFTER_MS)
    text = live.data.role === "student" ? WORDS.lostStudent : WORDS.lostProjector;
  else if (live.pending && now - live.pending.since >= RELOAD_AFTER_MS) text = WORDS.stale;
  live.el.banner.hidden = !text;
  live.el.banner.style.display = text ? "block" : "none";
  live.el.banner.style.background = live.stream === "gone" ? "#31333f" : "#7a4a00";
  if (live.el.bannerText.textContent !== text) live.el.bannerText.textContent = text;
  // over the page's timer: the time left goes with the banner (not once the class has gone: no round runs)
  const clock = text && live.stream !== "gone" ? live.clockLine : "";
  live.el.bannerClock.hidden = !clock;
  live.el.bannerClock.style.display = clock ? "block" : "none";
  if (live.el.bannerClock.textContent !== clock) live.el.bannerClock.textContent = clock;
}

/**
 * Ask for a run of the page (at once, or after `delay` ms), unless one is asked for already.
 * @param {Live} live
 * @param {number} delay
 */
function askForRun(live, delay) {
  if (live.pending || live.wait !== null) return;
  const ask = () => {
    live.wait = null;
    if (!live.latest || changeOf(live.latest, live.data) === null) return; // a run since then shows it already
    const now = Date.now();
    live.pending = { since: now, asked: now, tries: 1 };
    live.lastAsk = now;
    live.trigger("changed", live.latest ? live.latest.student : null);
  };
  if (delay <= 0) ask();
  else live.wait = window.setTimeout(ask, delay);
}

/** @param {Live} live */
function consider(live) {
  const pulse = live.latest;
  if (!pulse || !live.shown) return;
  const change = changeOf(pulse, live.data);
  if (change === null) return;
  if (live.data.held) askForRun(live, live.data.spread); // the page could not read the class: later
  else if (live.data.role === "student") askForRun(live, Math.random() * live.data.spread);
  else if (change === "lecturer") askForRun(live, 0);
  else askForRun(live, Math.max(0, PROJECTOR_EVERY_MS - (Date.now() - live.lastAsk)));
}

/** @param {Live} live */
function connect(live) {
  live.source?.close();
  const source = new EventSource(live.url);
  live.source = source;
  live.heard = Date.now();
  source.addEventListener("open", () => {
    live.heard = Date.now();
    window.dispatchEvent(new CustomEvent("irl-class-online"));
  });
  source.addEventListener("pulse", (event) => {
    const pulse = /** @type {Pulse} */ (JSON.parse(/** @type {MessageEvent} */ (event).data));
    live.heard = Date.now();
    live.offset = clockOffset(pulse.now, live.heard);
    live.latest = pulse;
    if (live.stream !== "ok") window.dispatchEvent(new CustomEvent("irl-class-online"));
    live.stream = "ok";
    consider(live);
    drawCounts(live);
    drawTimer(live);
    drawBanner(live);
  });
  source.addEventListener("beat", (event) => {
    live.heard = Date.now();
    const beat = JSON.parse(/** @type {MessageEvent} */ (event).data);
    live.offset = clockOffset(beat.now, live.heard);
    if (live.stream === "down") live.stream = "ok";
    drawBanner(live);
  });
  source.addEventListener("trouble", () => {
    live.heard = Date.now();
    live.stream = "trouble";
    drawBanner(live);
  });
  source.addEventListener("gone", (event) => {
    live.gone = JSON.parse(/** @type {MessageEvent} */ (event).data).message;
    live.stream = "gone";
    source.close();
    drawBanner(live);
    live.trigger("changed", null); // the page says what to do (the join form, or the start screen)
  });
  source.addEventListener("error", () => {
    if (live.stream === "gone") return;
    if (live.stream !== "down") live.downSince = Date.now();
    live.stream = "down";
    drawBanner(live);
  });
}

/**
 * Streamlit's "Connection error" dialog: hidden on the class's pages (the banner says it in the class's words).
 * @param {Live} live
 */
function watchStreamlit(live) {
  let down = false;
  for (const dialog of document.querySelectorAll('[data-testid="stDialog"]')) {
    const heading = dialog.querySelector("h2")?.textContent ?? "";
    if (/connection error/i.test(heading)) {
      /** @type {HTMLElement} */ (dialog).style.display = "none";
      down = true;
    }
  }
  if (down && !live.streamlitDown) live.downSince = Date.now();
  live.streamlitDown = down;
}

/** Every second: the timer, a silent stream, a run that did not come. @param {Live} live */
function tick(live) {
  const now = Date.now();
  if (!settleShown(live)) {
    drawBanner(live);
    return;
  }
  watchStreamlit(live);
  if (live.stream !== "gone" && now - live.heard > SILENT_MS) {
    if (live.stream !== "down") live.downSince = now;
    live.stream = "down";
    connect(live); // a stream that went quiet (a sleeping phone, a NAT that forgot it): open it again
  }
  const pending = live.pending;
  if (pending && !live.streamlitDown) {
    if (now - pending.since >= RELOAD_AFTER_MS + 3_000) window.location.reload();
    else if (now - pending.asked >= RERUN_AGAIN_MS && pending.tries < 3) {
      pending.asked = now;
      pending.tries += 1;
      live.trigger("changed", live.latest ? live.latest.student : null); // the first may have been lost
    }
  }
  drawTimer(live);
  drawBanner(live);
}

/**
 * The component: a new stream for a new URL; every run brings the versions the page now shows.
 * @param {import("../types.js").ComponentArgs<LiveData> & {parentElement: (HTMLElement | ShadowRoot)
 *   & {__irlLive?: Live}}} component
 * @returns {() => void}
 */
export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let live = parentElement.__irlLive;
  if (!live) {
    parentElement.querySelectorAll(".irl-live").forEach((node) => node.remove()); // an instance ended: built anew
    const el = build(parentElement, data.role);
    /** @type {Live} */
    const made = {
      data, trigger: setTriggerValue, source: null, url: "", heard: Date.now(),
      offset: clockOffset(data.now, Date.now()), latest: null, pending: null, lastAsk: 0, wait: null, stream: "ok",
      downSince: 0, streamlitDown: false, gone: "", announced: -1, clockLine: "", drawn: 0, shown: true, el, cleanup: () => {},
    };
    const timer = window.setInterval(() => tick(made), 1000);
    const observer = new MutationObserver(() => watchStreamlit(made));
    observer.observe(document.body, { childList: true });
    const online = () => { if (made.stream === "down" && made.shown) connect(made); };
    const offline = () => { // the device says it lost its network: no need to wait for the stream to notice
      if (made.stream === "gone") return;
      if (made.stream !== "down") made.downSince = Date.now();
      made.stream = "down";
      drawBanner(made);
    };
    window.addEventListener("online", online);
    window.addEventListener("offline", offline);
    made.cleanup = () => {
      window.clearInterval(timer);
      if (made.wait !== null) window.clearTimeout(made.wait);
      observer.disconnect();
      window.removeEventListener("online", online);
      window.removeEventListener("offline", offline);
      made.source?.close();
      el.banner.remove();
      el.root.remove();
      FEEDS.delete(made);
      if (parentElement.__irlLive === made) delete parentElement.__irlLive;
      for (const other of FEEDS) settleShown(other); // an older copy left alone on the page follows again
    };
    parentElement.__irlLive = made;
    FEEDS.add(made);
    live = made;
  }
  live.data = data;
  live.trigger = setTriggerValue;
  live.drawn = ++draws;
  if (live.latest === null || live.latest.now < data.now) live.offset = clockOffset(data.now, Date.now());
  live.pending = null; // the page ran: whatever it shows now, a run asked for has come (consider() asks again)
  for (const other of FEEDS) if (other !== live) settleShown(other); // this one may be newer than another copy
  if (settleShown(live) && live.url !== data.events) {
    live.url = data.events;
    live.stream = "ok";
    connect(live);
  }
  consider(live);
  drawCounts(live);
  drawTimer(live);
  drawBanner(live);
  const instance = live;
  const drawn = live.drawn;
  // the instance ends only by the cleanup of its latest invocation: an overtaken invocation's comes too late to count
  return () => { if (instance.drawn === drawn) instance.cleanup(); };
}
