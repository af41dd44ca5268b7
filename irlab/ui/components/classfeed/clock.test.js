// Unit tests of clock.js: a round's countdown on the server's clock, whatever the phone's clock says.

import assert from "node:assert/strict";
import { test } from "node:test";

import { announceAt, clockOffset, clockText, secondsLeft, spokenLeft } from "./clock.js";

test("the countdown follows the server's clock, not the phone's", () => {
  const server = 1_800_000_000; // the server's now, in a message
  const phone = server * 1000 - 95_000; // a phone 95 s behind
  const offset = clockOffset(server, phone);
  assert.equal(secondsLeft(server + 30, phone, offset), 30);
  assert.equal(secondsLeft(server + 30, phone + 29_500, offset), 1); // rounded up: "0:01" until the end
  assert.equal(secondsLeft(server + 30, phone + 30_000, offset), 0);
  assert.equal(secondsLeft(server + 30, phone + 90_000, offset), 0); // never negative
});

test("the clock and the words", () => {
  assert.deepEqual([60, 27, 9, 0, 125].map(clockText), ["1:00", "0:27", "0:09", "0:00", "2:05"]);
  assert.equal(spokenLeft(0), "Time is up.");
  assert.equal(spokenLeft(1), "1 second left.");
  assert.equal(spokenLeft(30), "30 seconds left.");
  assert.equal(spokenLeft(60), "1 minute left.");
  assert.deepEqual([60, 30, 29, 10, 0].map(announceAt), [false, true, false, true, true]);
});
