// Dragging tiles with pointer events: one path for a mouse, a pen and a finger.
//
// HTML5 drag and drop never fires on touch screens, so the tiles do not use it. A mouse press becomes a
// drag once the pointer moves a few pixels. A finger (or pen) must first hold still for a moment (HOLD_MS):
// a finger that moves at once is scrolling the page or a scrolling row of tiles, and the browser keeps
// doing that (the tiles say `touch-action: manipulation`, not `none`, so a swipe over them still scrolls).
// Once a drag has begun, a non-passive touchmove listener stops the browser from scrolling, and the
// pointer events keep coming.
//
// While dragging, the tile is lifted (class irl-lifted, moved under the pointer by its `translate`, within the
// row's box; its slot left empty), a bar marks where it would land (irl-drop-before / irl-drop-after on a neighbour), and a
// scrolling row or the page scrolls when the pointer nears its edge. Escape, a cancelled pointer (the
// browser took the gesture) or a change of the tiles from outside puts the tile back; releasing it calls
// `drop` with the new order. The arithmetic lives in geometry.js and order.js.

import { dropTarget, edgeSpeed, movedBeyond } from "./geometry.js";
import { clamp, orderAfterDrop, sameList } from "./order.js";

/** How long (ms) a finger or pen holds a tile before it lifts. */
export const HOLD_MS = 250;
/** How far (px) a mouse moves before a press becomes a drag. */
const MOUSE_SLOP = 4;
/** How far (px) a held finger may wander before the hold counts as a scroll. */
const TOUCH_SLOP = 10;
/** The edge zone (px) in which a drag scrolls, and the fastest scroll (px per frame). */
const EDGE_ZONE = 48;
const EDGE_MAX = 16;

/**
 * What the drag needs from its row of tiles.
 * @typedef {object} DragHost
 * @property {HTMLElement} list the element holding the tiles (and the cut)
 * @property {() => readonly string[]} order the ids in rank order
 * @property {(id: string) => HTMLElement | undefined} tile the element of tile ``id``
 * @property {(id: string, order: string[]) => void} drop the learner dropped ``id``, making ``order``
 * @property {(dragging: boolean) => void} [onState] a drag began (true) or ended (false)
 */

/**
 * @typedef {object} Press
 * @property {number} pointerId
 * @property {string} pointerType
 * @property {string} id the pressed tile's item id
 * @property {HTMLElement} tile
 * @property {number} t0 when the pointer went down (the event's timeStamp, ms)
 * @property {number} x0 where the pointer went down (client px)
 * @property {number} y0
 * @property {number} x where it is now
 * @property {number} y
 * @property {boolean} lifted whether the drag has begun
 * @property {number} holdTimer
 * @property {readonly string[]} startOrder the order when the press began
 * @property {{x: number, y: number}} grab the pointer's offset inside the tile
 * @property {{x: number, y: number}} slot the tile's slot in the list's content (px from its content box)
 * @property {{width: number, height: number}} size the tile's layout size (its lifted scale left out, as offsetWidth)
 * @property {DropTargetMark | null} mark
 * @property {number} frame the autoscroll's animation frame (0: none)
 * @property {Element | null} page the element that scrolls the page (found when the tile lifts)
 * @property {{row: number, page: number}} limit how far the row and the page scroll (measured when the tile lifts:
 *   the lifted tile itself must not make room for more scrolling, or autoscroll would never end)
 */

/** @typedef {{tile: HTMLElement, className: string}} DropTargetMark */

/**
 * Make the tiles of ``host.list`` draggable with any pointer. Handlers are assigned once per list.
 * @param {DragHost} host
 * @returns {{cancel: () => void, active: () => boolean}}
 */
export function attachDrag(host) {
  const { list } = host;
  /** @type {Press | null} */
  let press = null;
  let suppressClick = false;

  /** @param {EventTarget | null} target */
  const tileUnder = (target) => {
    const node = target instanceof Element ? target : null;
    if (!node || node.closest("button")) return null;  // buttons keep their clicks
    const tile = node.closest(".irl-tile");
    return tile instanceof HTMLElement && list.contains(tile) ? tile : null;
  };

  /** @param {PointerEvent} event */
  const onDown = (event) => {
    // a press whose tile left the page, or whose pointer never came back up, must not block this one
    if (press && (!press.tile.isConnected || (!press.lifted && event.pointerId !== press.pointerId))) end(false);
    if (press || !event.isPrimary || (event.pointerType === "mouse" && event.button !== 0)) return;
    const tile = tileUnder(event.target);
    const id = tile?.dataset.itemId;
    if (!tile || !id) return;
    const box = tile.getBoundingClientRect();
    const listBox = list.getBoundingClientRect();
    press = {
      pointerId: event.pointerId, pointerType: event.pointerType, id, tile, t0: event.timeStamp,
      x0: event.clientX, y0: event.clientY, x: event.clientX, y: event.clientY, lifted: false, holdTimer: 0,
      startOrder: host.order().slice(),
      grab: { x: event.clientX - box.left, y: event.clientY - box.top },
      slot: { x: box.left - listBox.left + list.scrollLeft, y: box.top - listBox.top + list.scrollTop },
      size: { width: tile.offsetWidth, height: tile.offsetHeight },
      mark: null, frame: 0, page: null, limit: { row: 0, page: 0 },
    };
    if (event.pointerType !== "mouse") {
      const held = press;
      held.holdTimer = window.setTimeout(() => { if (press === held) lift(held); }, HOLD_MS);
    }
  };

  /** @param {PointerEvent} event */
  const onMove = (event) => {
    if (!press || event.pointerId !== press.pointerId) return;
    press.x = event.clientX;
    press.y = event.clientY;
    if (!press.lifted) {
      const mouse = press.pointerType === "mouse";
      if (!movedBeyond(press.x0, press.y0, press.x, press.y, mouse ? MOUSE_SLOP : TOUCH_SLOP)) return;
      // a finger that moves before the hold is over is scrolling (judged by the events' times: on a busy page
      // the hold's timer can run late)
      if (!mouse && event.timeStamp - press.t0 < HOLD_MS) return end(false);
      lift(press);
      if (!press) return;
    }
    event.preventDefault();
    follow(press);
  };

  /** @param {PointerEvent} event */
  const onUp = (event) => {
    if (!press || event.pointerId !== press.pointerId) return;
    end(press.lifted);
  };

  /** @param {PointerEvent} event */
  const onCancel = (event) => {
    if (press && event.pointerId === press.pointerId) end(false);
  };

  /** @param {KeyboardEvent} event */
  const onKey = (event) => {
    if (event.key !== "Escape" || !press?.lifted) return;
    event.preventDefault();
    event.stopPropagation();
    end(false);
  };

  /** @param {TouchEvent} event */
  const onTouchMove = (event) => {
    if (press?.lifted && event.cancelable) event.preventDefault();  // the drag owns the finger: no scrolling
  };

  /** @param {Event} event */
  const onContextMenu = (event) => {
    if (press && press.pointerType !== "mouse") event.preventDefault();  // a long press lifts, not a menu
  };

  /** @param {MouseEvent} event */
  const onClick = (event) => {
    if (!suppressClick) return;
    suppressClick = false;
    event.stopPropagation();
    event.preventDefault();
  };

  /** @param {Press} p */
  function lift(p) {
    if (!sameList(host.order(), p.startOrder)) return end(false);
    p.lifted = true;
    try {
      p.tile.setPointerCapture(p.pointerId);  // moves outside the tile (and the window) still reach us
    } catch {
      /* the pointer is gone already: pointerup/cancel ends the press */
    }
    p.page = verticalScroller(list);
    p.limit = { row: list.scrollWidth - list.clientWidth, page: p.page ? p.page.scrollHeight - p.page.clientHeight : 0 };
    p.tile.classList.add("irl-lifted");
    host.onState?.(true);
    window.addEventListener("keydown", onKey, true);
    follow(p);
    p.frame = window.requestAnimationFrame(() => autoscroll(p));
  }

  /**
   * Put the lifted tile under the pointer and the drop mark where it would land.
   * @param {Press} p
   */
  function follow(p) {
    if (!sameList(host.order(), p.startOrder) || !host.tile(p.id)) return end(false);  // the tiles changed
    // every box is read before anything is written: a read after the write of the tile's translate would make the
    // browser recompute the styles in the middle of the pointer's event, once per move (the lifted tile and the
    // drop mark do not move the other tiles, so where it lands reads the same either way)
    const next = landing(p);
    // the tile follows the pointer but stays inside the row's box, so that nothing around the row clips it
    const listBox = list.getBoundingClientRect();
    const left = clamp(p.x - p.grab.x, listBox.left, listBox.right - p.size.width);
    const top = clamp(p.y - p.grab.y, listBox.top, listBox.bottom - p.size.height);
    const dx = left - (listBox.left + p.slot.x - list.scrollLeft);
    const dy = top - (listBox.top + p.slot.y - list.scrollTop);
    p.tile.style.translate = `${Math.round(dx)}px ${Math.round(dy)}px`;
    const target = sameList(next.order, p.startOrder) ? null : next.target;
    const mark = target && host.tile(target.id);
    const className = target?.after ? "irl-drop-after" : "irl-drop-before";
    if (p.mark && (p.mark.tile !== mark || p.mark.className !== className)) {
      p.mark.tile.classList.remove(p.mark.className);
      p.mark = null;
    }
    if (mark && !p.mark) {
      mark.classList.add(className);
      p.mark = { tile: mark, className };
    }
  }

  /**
   * Where the tile would land if dropped now, and the order that makes.
   * @param {Press} p
   */
  function landing(p) {
    const boxes = p.startOrder.filter((id) => id !== p.id).flatMap((id) => {
      const tile = host.tile(id);
      if (!tile) return [];
      const { left, top, right, bottom } = tile.getBoundingClientRect();
      return [{ id, left, top, right, bottom }];
    });
    const target = dropTarget(boxes, p.x, p.y);
    return { target, order: orderAfterDrop(p.startOrder, p.id, target) };
  }

  /**
   * Scroll the row (when it scrolls sideways) or the page near their edges, once per frame while lifted.
   * @param {Press} p
   */
  function autoscroll(p) {
    if (press !== p || !p.lifted) return;
    let moved = false;
    if (list.scrollWidth > list.clientWidth + 1) {
      const box = list.getBoundingClientRect();
      const step = edgeSpeed(p.x, box.left, box.right, EDGE_ZONE, EDGE_MAX);
      const before = list.scrollLeft;
      if (step) list.scrollLeft = clamp(before + step, 0, Math.max(before, p.limit.row));
      moved = list.scrollLeft !== before;
    }
    const page = p.page;
    if (page) {
      const box = page === document.scrollingElement ? { top: 0, bottom: window.innerHeight } : page.getBoundingClientRect();
      const step = edgeSpeed(p.y, Math.max(0, box.top), Math.min(window.innerHeight, box.bottom), EDGE_ZONE, EDGE_MAX);
      const before = page.scrollTop;
      if (step) page.scrollTop = clamp(before + step, 0, Math.max(before, p.limit.page));
      moved = moved || page.scrollTop !== before;
    }
    if (moved) follow(p);
    if (press === p) p.frame = window.requestAnimationFrame(() => autoscroll(p));
  }

  /**
   * Finish the press: drop the tile (when ``commit`` and it was lifted) or put it back.
   * @param {boolean} commit
   */
  function end(commit) {
    const p = press;
    if (!p) return;
    // where the tile lands is read before the styles below change: from the layout the last frame drew, not
    // from one the browser would lay out again in the middle of the drop (the lifted tile and the drop mark do
    // not move the other tiles, so the answer is the same)
    const next = commit && p.lifted ? landing(p).order : null;
    press = null;
    window.clearTimeout(p.holdTimer);
    window.cancelAnimationFrame(p.frame);
    window.removeEventListener("keydown", onKey, true);
    if (p.mark) p.mark.tile.classList.remove(p.mark.className);
    p.tile.classList.remove("irl-lifted");
    p.tile.style.translate = "";
    if (p.tile.hasPointerCapture?.(p.pointerId)) p.tile.releasePointerCapture(p.pointerId);
    if (!p.lifted) return;
    host.onState?.(false);
    suppressClick = true;  // the click that follows a mouse drag is not a click on what lies under it
    window.setTimeout(() => { suppressClick = false; }, 0);
    if (!next || !sameList(host.order(), p.startOrder) || !host.tile(p.id)) return;
    if (!sameList(next, p.startOrder)) host.drop(p.id, next);
  }

  list.onpointerdown = onDown;
  list.onpointermove = onMove;
  list.onpointerup = onUp;
  list.onpointercancel = onCancel;
  list.oncontextmenu = onContextMenu;
  list.addEventListener("touchmove", onTouchMove, { passive: false });
  list.addEventListener("click", onClick, true);
  return { cancel: () => end(false), active: () => press !== null && press.lifted };
}

/**
 * The nearest element above ``node`` that scrolls vertically (crossing shadow roots), or the document's.
 * @param {Node} node
 * @returns {Element | null}
 */
function verticalScroller(node) {
  /** @type {Node | null} */
  let at = node.parentNode;
  while (at) {
    if (at instanceof ShadowRoot) {
      at = at.host;
      continue;
    }
    if (at instanceof HTMLElement) {
      const overflow = getComputedStyle(at).overflowY;
      if ((overflow === "auto" || overflow === "scroll") && at.scrollHeight > at.clientHeight + 1) return at;
    }
    at = at.parentNode;
  }
  return document.scrollingElement;
}
