// The geometry of a drag as pure functions of boxes and points (no DOM): where a drop lands, how fast to
// scroll near an edge, when a press becomes a drag. drag.js measures the page and calls these;
// geometry.test.js tests them.

/** @typedef {import("./order.js").DropTarget} DropTarget */

/**
 * A tile's box on the screen (as getBoundingClientRect gives it), with its item id.
 * @typedef {{id: string, left: number, top: number, right: number, bottom: number}} TileBox
 */

/** How far above or below a row of tiles (px) a point still belongs to that row. */
const ROW_REACH = 8;
/** Tiles whose tops differ by less than this (px) stand in the same row. */
const SAME_ROW = 4;

/**
 * Where a drop at the point (x, y) lands among ``boxes`` (the tiles other than the dragged one, in any order):
 * the row is the one whose tiles span y (within 8 px), else the row of the nearest tile; in that row, before
 * the first tile whose middle is right of x, else after the row's last tile. Null without boxes.
 *
 * With tiles a at x 0..100 and b at x 110..210 in one row: x = 40 is before a, x = 80 before b, x = 190 after b.
 * @param {readonly TileBox[]} boxes
 * @param {number} x
 * @param {number} y
 * @returns {DropTarget | null}
 */
export function dropTarget(boxes, x, y) {
  if (!boxes.length) return null;
  let row = boxes.filter((b) => y >= b.top - ROW_REACH && y <= b.bottom + ROW_REACH);
  const anchor = row.length ? row[0] : nearest(boxes, x, y);
  row = (row.length ? row : boxes).filter((b) => Math.abs(b.top - anchor.top) < SAME_ROW);
  row.sort((a, b) => a.left - b.left);
  for (const b of row) if (x < (b.left + b.right) / 2) return { id: b.id, after: false };
  return { id: row[row.length - 1].id, after: true };
}

/**
 * The box nearest to (x, y) (distance 0 inside a box; the first of equals).
 * @param {readonly TileBox[]} boxes a list with one box or more
 * @param {number} x
 * @param {number} y
 * @returns {TileBox}
 */
function nearest(boxes, x, y) {
  let best = boxes[0];
  let bestDistance = Infinity;
  for (const b of boxes) {
    const dx = x < b.left ? b.left - x : x > b.right ? x - b.right : 0;
    const dy = y < b.top ? b.top - y : y > b.bottom ? y - b.bottom : 0;
    const distance = dx * dx + dy * dy;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = b;
    }
  }
  return best;
}

/**
 * How many pixels per frame to scroll along one axis while a drag holds the pointer at ``position``, for a
 * scrolling box that spans ``start..end`` on that axis: 0 outside the two edge zones of ``zone`` px,
 * growing linearly to ``max`` at the edge and beyond it; negative near ``start`` (scroll back), positive near ``end``.
 * A box smaller than two zones splits itself in two halves.
 *
 * edgeSpeed(390, 0, 400, 40, 20) is 15 (30 px into the 40-px zone at the end); edgeSpeed(200, 0, 400, 40, 20) is 0.
 * @param {number} position
 * @param {number} start
 * @param {number} end
 * @param {number} zone
 * @param {number} max
 * @returns {number}
 */
export function edgeSpeed(position, start, end, zone, max) {
  const reach = Math.min(zone, (end - start) / 2);
  if (reach <= 0) return 0;
  const intoStart = start + reach - position;
  const intoEnd = position - (end - reach);
  if (intoStart > 0) return -Math.round(max * Math.min(1, intoStart / reach));
  if (intoEnd > 0) return Math.round(max * Math.min(1, intoEnd / reach));
  return 0;
}

/**
 * Whether a pointer that went down at (x0, y0) and is now at (x, y) has moved more than ``slop`` px
 * (a mouse press becomes a drag past a few px; a held finger that moves that far is scrolling instead).
 * @param {number} x0
 * @param {number} y0
 * @param {number} x
 * @param {number} y
 * @param {number} slop
 * @returns {boolean}
 */
export function movedBeyond(x0, y0, x, y, slop) {
  return Math.hypot(x - x0, y - y0) > slop;
}
