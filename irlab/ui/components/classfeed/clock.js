// @ts-check
// A round's timer as the pages show it: the seconds left, read against the server's clock, and the words.
//
// The server sends when the timer ends (`closes_at`, seconds since the epoch on its clock) and, with every
// message, its clock now; a phone's own clock may be minutes off, so the page keeps the difference and counts
// down on the server's time. It computes no result: only how long is left of a time it was given.

/**
 * Milliseconds to add to this device's clock to read the server's.
 * @param {number} serverNow the server's clock in a message (seconds since the epoch)
 * @param {number} localNow this device's clock when the message arrived (ms since the epoch)
 * @returns {number}
 */
export function clockOffset(serverNow, localNow) {
  return serverNow * 1000 - localNow;
}

/**
 * Whole seconds left until `closesAt` (rounded up: "0:01" until the very end), never below 0.
 * @param {number} closesAt the timer's end on the server's clock (seconds since the epoch)
 * @param {number} localNow this device's clock (ms since the epoch)
 * @param {number} offset from {@link clockOffset}
 * @returns {number}
 */
export function secondsLeft(closesAt, localNow, offset) {
  return Math.max(0, Math.ceil((closesAt * 1000 - (localNow + offset)) / 1000 - 1e-9));
}

/**
 * The time left as a clock: "1:00", "0:27", "0:00".
 * @param {number} seconds
 * @returns {string}
 */
export function clockText(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/**
 * The time left in words, for a screen reader (said at a few moments only, not every second).
 * @param {number} seconds
 * @returns {string}
 */
export function spokenLeft(seconds) {
  if (seconds <= 0) return "Time is up.";
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"} left.`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return `${minutes} minute${minutes === 1 ? "" : "s"}${rest ? ` ${rest} seconds` : ""} left.`;
}

/**
 * Whether `seconds` left is a moment to announce: half a minute, ten seconds, and the end.
 * @param {number} seconds
 * @returns {boolean}
 */
export function announceAt(seconds) {
  return seconds === 30 || seconds === 10 || seconds === 0;
}
