// Unit tests of classfeed.js's pure parts: which of two copies of a feed on a page is the newer, and what changed.

import assert from "node:assert/strict";
import { test } from "node:test";

import { changeOf, newerFeed } from "./classfeed.js";

test("a feed drawn from newer versions is the newer, whenever it was drawn", () => {
  const older = { shown: { student: 3, projector: 10 }, drawn: 9 };
  assert.equal(newerFeed({ shown: { student: 4, projector: 2 }, drawn: 1 }, older), true); // the lecturer moved
  assert.equal(newerFeed({ shown: { student: 3, projector: 11 }, drawn: 1 }, older), true); // an answer came
  assert.equal(newerFeed(older, { shown: { student: 3, projector: 11 }, drawn: 1 }), false);
});

test("of two feeds drawn from the same versions, the one drawn later is the newer", () => {
  const a = { shown: { student: 3, projector: 10 }, drawn: 4 };
  const b = { shown: { student: 3, projector: 10 }, drawn: 5 };
  assert.equal(newerFeed(b, a), true);
  assert.equal(newerFeed(a, b), false);
  assert.equal(newerFeed(a, a), false); // never newer than itself
});

test("a pulse names a lecturer's move, answers only, or nothing new", () => {
  const data = /** @type {any} */ ({ role: "projector", shown: { student: 3, projector: 10, round: 7, state: "open" } });
  const round = { id: 7, state: "open", closes_at: null };
  assert.equal(changeOf({ student: 3, projector: 10, round, now: 0 }, data), null);
  assert.equal(changeOf({ student: 3, projector: 11, round, now: 0 }, data), "answers");
  assert.equal(changeOf({ student: 4, projector: 11, round: { ...round, state: "closed" }, now: 0 }, data),
    "lecturer");
});
