// The board's picture zoomed and panned, for a small screen: pinch with two fingers (or Ctrl and the wheel, which
// is also a trackpad's pinch), the +, - and Fit buttons under the picture, and a drag with one finger or the mouse
// to move about a zoomed picture.  Every mode draws its board through board.js `drawBoard`, which calls
// `zoomBoard` on each new picture: the zoom and the place looked at survive the redraws of a game (a move, a
// hint, a step of a replay), and start again at Fit when a picture of another size comes.
//
// Only the picture's viewBox changes; its elements stay as the server drew them, so the clicks on islands, links
// and cards that choose moves reach them as before.  A drag or a pinch is not a click: the click that ends one is
// dropped before it reaches the picture.  The board element carries `data-zoom`, the zoom shown (1 = Fit), for
// people who script the page (and the browser tests).

import { el } from "./dom.js";

const MAX = 6; // the closest look: a sixth of the picture's width
const STEP = 1.5; // one press of + or -
const SLOP = { mouse: 5, pen: 8, touch: 10 }; // pixels a pointer may move and still click

const zooms = new WeakMap(); // board element -> its zoom (below)

// The zoom of board element `board`, made once: its scale, the view's corner (x, y: how far into the picture it
// is, in the picture's units), the picture's own viewBox, the pointers down on it and the gesture they make.
function zoomOf(board) {
  let z = zooms.get(board);
  if (z) return z;
  z = { board, scale: 1, x: 0, y: 0, box: null, pointers: new Map(), gesture: null, dragged: false };
  const button = (label, name, fn) => el("button", { type: "button", class: `zoom-${name}`, "aria-label": label,
    title: label, onclick: fn }, { in: "+", out: "\u2212", fit: "Fit" }[name]);
  z.controls = el("div", { class: "zoom-controls" },
    button("Zoom out", "out", () => zoomAt(z, z.scale / STEP)),
    button("Zoom in", "in", () => zoomAt(z, z.scale * STEP)),
    button("Fit the board to its box", "fit", () => zoomAt(z, 1)));
  board.addEventListener("pointerdown", (e) => pointerDown(z, e));
  board.addEventListener("pointermove", (e) => pointerMove(z, e));
  for (const type of ["pointerup", "pointercancel"]) board.addEventListener(type, (e) => pointerUp(z, e));
  board.addEventListener("click", (e) => {
    if (!z.dragged || e.target.closest(".zoom-controls")) return;
    z.dragged = false;
    e.stopPropagation();
    e.preventDefault();
  }, true);
  board.addEventListener("wheel", (e) => {
    if (!e.ctrlKey || !svgOf(z) || !z.box) return;
    e.preventDefault();
    zoomAt(z, z.scale * Math.exp(-e.deltaY / 200), e.clientX, e.clientY);
  }, { passive: false });
  zooms.set(board, z);
  return z;
}

const svgOf = (z) => z.board.querySelector(":scope > svg");

// Board element `board` has just been given a new picture: show it at the zoom kept, with the zoom buttons.
export function zoomBoard(board) {
  const z = zoomOf(board);
  const svg = svgOf(z);
  if (!svg) return;
  const box = (svg.getAttribute("viewBox") || "").trim().split(/[\s,]+/).map(Number);
  if (box.length !== 4 || box.some((n) => !Number.isFinite(n)) || box[2] <= 0 || box[3] <= 0) {
    z.box = null; // a picture without a viewBox is shown as it comes
    delete board.dataset.zoom;
    return;
  }
  // a picture of another width is another kind of picture; a taller or shorter one (a longer hand, a hint's
  // plan in the panel) is looked at as before
  if (!z.box || z.box[2] !== box[2]) Object.assign(z, { scale: 1, x: 0, y: 0 });
  z.box = box; // a gesture under way goes on over the new picture
  board.append(z.controls);
  show(z);
}

// The view of zoom `z` on its picture, its buttons, and how a touch on it is taken: when zoomed, a finger moves the
// picture instead of the page.
function show(z) {
  const svg = svgOf(z);
  if (!svg || !z.box) return;
  const [x0, y0, w, h] = z.box;
  const number = (n) => String(Math.round(n * 1000) / 1000);
  place(z, z.x, z.y, false);
  svg.setAttribute("viewBox", [x0 + z.x, y0 + z.y, w / z.scale, h / z.scale].map(number).join(" "));
  z.board.classList.toggle("zoomed", z.scale > 1);
  z.board.dataset.zoom = number(z.scale);
  z.controls.querySelector(".zoom-out").disabled = z.scale <= 1;
  z.controls.querySelector(".zoom-fit").disabled = z.scale <= 1;
  z.controls.querySelector(".zoom-in").disabled = z.scale >= MAX;
}

// Zoom `z` to `scale`, keeping the point of the picture at the screen's (clientX, clientY) where it is (by default
// the middle of the view).
function zoomAt(z, scale, clientX = null, clientY = null) {
  const svg = svgOf(z);
  if (!svg || !z.box) return;
  const rect = svg.getBoundingClientRect();
  const point = under(z, rect, clientX === null ? rect.left + rect.width / 2 : clientX,
    clientY === null ? rect.top + rect.height / 2 : clientY);
  z.scale = Math.min(MAX, Math.max(1, scale));
  if (z.scale < 1.02) z.scale = 1;
  keep(z, point);
}

// The point of the picture (its units, from its corner) under the screen's (clientX, clientY), the picture's
// element being at `rect` on the screen.
function under(z, rect, clientX, clientY) {
  const fx = (clientX - rect.left) / rect.width;
  const fy = (clientY - rect.top) / rect.height;
  return { u: z.x + fx * z.box[2] / z.scale, v: z.y + fy * z.box[3] / z.scale, fx, fy };
}

// Move the view at the zoom it has now so that `point` (of `under`) is under the same place of the screen again.
function keep(z, point, fx = point.fx, fy = point.fy) {
  place(z, point.u - fx * z.box[2] / z.scale, point.v - fy * z.box[3] / z.scale);
}

// Put the view's corner at (x, y), in the picture's units, kept inside the picture; shown unless `draw` is false.
function place(z, x, y, draw = true) {
  z.x = Math.min(z.box[2] * (1 - 1 / z.scale), Math.max(0, x));
  z.y = Math.min(z.box[3] * (1 - 1 / z.scale), Math.max(0, y));
  if (draw) show(z);
}

function pointerDown(z, e) {
  if (z.pointers.size === 0) z.dragged = false; // a new touch: what ended the last gesture is past
  if (e.target.closest(".zoom-controls") || !svgOf(z) || !z.box || (e.pointerType === "mouse" && e.button !== 0)) return;
  z.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, type: e.pointerType });
  begin(z);
}

// A gesture starts with the pointers down now: a pan (one) or a pinch (two); a pan is only a click until it moves.
function begin(z) {
  const points = [...z.pointers.values()];
  const rect = svgOf(z).getBoundingClientRect();
  if (points.length === 1) {
    z.gesture = { kind: "pan", from: { ...points[0] }, x: z.x, y: z.y, moving: false, rect };
  } else if (points.length === 2) {
    const [a, b] = points;
    const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    z.gesture = { kind: "pinch", distance: Math.hypot(a.x - b.x, a.y - b.y) || 1, scale: z.scale, rect,
      point: under(z, rect, mid.x, mid.y) };
    z.dragged = true;
  } else {
    z.gesture = null;
  }
}

function pointerMove(z, e) {
  const p = z.pointers.get(e.pointerId);
  const g = z.gesture;
  if (!p || !g) return;
  p.x = e.clientX;
  p.y = e.clientY;
  if (g.kind === "pinch") {
    const [a, b] = [...z.pointers.values()];
    const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    z.scale = Math.min(MAX, Math.max(1, g.scale * Math.hypot(a.x - b.x, a.y - b.y) / g.distance));
    keep(z, g.point, (mid.x - g.rect.left) / g.rect.width, (mid.y - g.rect.top) / g.rect.height);
    e.preventDefault();
    return;
  }
  const dx = p.x - g.from.x;
  const dy = p.y - g.from.y;
  if (!g.moving) {
    if (z.scale <= 1 || Math.hypot(dx, dy) < (SLOP[p.type] || SLOP.mouse)) return;
    g.moving = true;
    z.dragged = true;
    try { z.board.setPointerCapture(e.pointerId); } catch (err) { /* a pointer already gone */ }
  }
  place(z, g.x - dx / g.rect.width * z.box[2] / z.scale, g.y - dy / g.rect.height * z.box[3] / z.scale);
  e.preventDefault();
}

function pointerUp(z, e) {
  if (!z.pointers.delete(e.pointerId)) return;
  if (z.scale < 1.02 && z.scale !== 1) zoomAt(z, 1);
  begin(z); // the finger left of a pinch pans on from where it is
  if (z.gesture && z.gesture.kind === "pan") z.gesture.moving = z.dragged;
}
