// Multicity, a part of board.js: pan and zoom, the pointer (pan, pinch, the tile under it, the ends of
// objects, clicks and taps) and the rules' words for a refused click. board.js loads after this script
// and calls the function registered here with what it needs of it (Tabletown.boardPart / boardParts;
// docs/server.md "A game's own board").
"use strict";
Tabletown.boardPart("multicity", "pointer", (shared) => {
  const { SEAT_OF, SHAPE, U, bounds, colour, drawGhost, drawHand, drawPreview, drawTargets, key, say, send, ui, who } = shared;
  const t = Tabletown.t;
  const MIN_S = 0.12, MAX_S = 3;

  // -- the rules, to explain a refusal (docs/games/multicity.md; the server decides in the end) ---------
  function spanSquares(a, b) {
    const out = [];
    if (a[0] === b[0]) for (let y = Math.min(a[1], b[1]); y <= Math.max(a[1], b[1]); y++) out.push([a[0], y]);
    else for (let x = Math.min(a[0], b[0]); x <= Math.max(a[0], b[0]); x++) out.push([x, a[1]]);
    return out;
  }
  function explainPair(a, b) {
    const d = ui.d, st = d.st;
    if (a[0] !== b[0] && a[1] !== b[1]) return t("An object lies straight along a row or a column: these two squares are not in line.");
    const len = Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + 1;
    if (len < 2 || len > 7) return t("Objects are 2 to 7 squares long; these ends would need one of {len}.", { len });
    if (ui.len && len !== ui.len) return t("Your {size}-object covers {size} squares, ends included; these ends are {len} squares apart.", { size: ui.len, len });
    if (d.player && !d.player.unplaced.includes(len)) return t("Your {len}-object is already in the city.", { len });
    const squares = spanSquares(a, b);
    if (squares.some(([x, y]) => !d.cells.has(key(x, y)))) return t("An object must lie entirely on tiles: this line leaves the city.");
    const mine = "grby"[d.me];
    if (d.cells.get(key(...a)) !== mine || d.cells.get(key(...b)) !== mine) return t("Both ends must be on {colour} symbols ({shape}, your colour).", { colour: colour(d.me), shape: SHAPE[d.me] });
    if (!st.kids && squares.some(([x, y]) => d.cells.get(key(x, y)) === "o")) return t("An object may not lie over a hole (only in the kids' variant).");
    const dir = a[0] === b[0] ? "v" : "h";
    const hits = squares.map(([x, y], i) => ({ i, on: d.occ.get(key(x, y)) || [] })).filter((h) => h.on.length);
    if (hits.length) {
      if (st.overlap !== "loose") return t("Another object already lies on one of these squares.");
      const ends = new Set([0, squares.length - 1]);
      if (hits.some((h) => ends.has(h.i) && h.on.some((o) => o.end))) return t("Another object already stands on one of these end squares.");
      if (hits.some((h) => h.on.some((o) => o.dir === dir))) return t("Another object already runs along this row or column here.");
      if (hits.some((h) => !ends.has(h.i) && h.on.some((o) => !o.end))) return t("Objects may not cross: this one would cut through another's middle.");
    }
    if (!ui.ctx || !ui.ctx.act) return "";
    return t("That placement is not among your moves now.");
  }
  function explainEnd(q) {
    const d = ui.d;
    const letter = d.cells.get(key(...q));
    if (letter === undefined) return t("That square is not on the city.");
    if (letter === "o") return t("An end never stands on a hole: ends go on your own symbols.");
    if (SEAT_OF[letter] !== d.me) return t("Both ends of an object go on {colour} symbols ({shape}, your colour); this one is {other}.", { colour: colour(d.me), shape: SHAPE[d.me], other: colour(SEAT_OF[letter]) });
    const here = d.occ.get(key(...q)) || [];
    if (here.length && d.st.overlap !== "loose") return t("Another object already lies on this square.");
    if (here.some((o) => o.end)) return t("Another object's end already stands on this square.");
    if (ui.len) return t("No free straight line of {len} squares from here ends on another {colour} symbol.", { len: ui.len, colour: colour(d.me) });
    return t("None of your objects fits with an end here now.");
  }
  function explainSlot(q) {
    const d = ui.d;
    const sx = Math.floor(q[0] / 3) * 3, sy = Math.floor(q[1] / 3) * 3;
    if (d.slots.has(key(sx, sy))) return t("A tile already lies there: lay the new tile on a dashed spot.");
    const corner = [[-3, -3], [3, -3], [-3, 3], [3, 3]].some(([dx, dy]) => d.slots.has(key(sx + dx, sy + dy)));
    if (corner) return t("There the tile would touch the city by a corner only: it needs a whole edge.");
    return t("A tile must share a whole edge with the city: lay it on a dashed spot.");
  }

  // -- pan and zoom -------------------------------------------------------------------------------------
  function applyView() {
    const v = ui.view;
    ui.layers.world.setAttribute("transform", `translate(${v.tx} ${v.ty}) scale(${v.s})`);
    ui.root.style.setProperty("--mc-scale", v.s);
  }
  function size() {
    const r = ui.svg.getBoundingClientRect();
    return { w: r.width || 300, h: r.height || 300, left: r.left, top: r.top };
  }
  function fit() {
    if (!ui.d) return;
    const b = bounds(ui.d.st);
    const { w, h } = size();
    const pad = 14, right = 58; // the zoom buttons stand at the right: nothing to click goes under them
    const s = Math.max(MIN_S, Math.min(1.6, (w - pad - right) / (b.x1 - b.x0), (h - 2 * pad) / (b.y1 - b.y0)));
    ui.view = { s, tx: pad + (w - pad - right) / 2 - s * (b.x0 + b.x1) / 2, ty: h / 2 - s * (b.y0 + b.y1) / 2 };
    applyView();
  }
  function focusSpans(list) {
    // on a small screen, zoom in on the lit spans when they are too small to hit with a finger
    if (!list.length || ui.view.s * U >= 26) return;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const p of list) {
      const ex = p.dir === "h" ? p.x + p.len : p.x + 1, ey = p.dir === "v" ? p.y + p.len : p.y + 1;
      x0 = Math.min(x0, p.x - 1); y0 = Math.min(y0, p.y - 1); x1 = Math.max(x1, ex + 1); y1 = Math.max(y1, ey + 1);
    }
    const { w, h } = size();
    const right = 58, pad = 10;
    const s = Math.max(ui.view.s, Math.min(26 / U * 1.4, (w - pad - right) / ((x1 - x0) * U), (h - 2 * pad) / ((y1 - y0) * U)));
    if (s <= ui.view.s * 1.05) return;
    ui.view = { s, tx: pad + (w - pad - right) / 2 - s * (x0 + x1) * U / 2, ty: h / 2 - s * (y0 + y1) * U / 2 };
    ui.follow = false;
    ui.focused = true; // a zoom of our own: undone after the move unless the player takes the view over
    clamp();
    applyView();
  }
  function clamp() {
    // keep part of the city in sight: it may never be dragged out of reach
    const b = bounds(ui.d.st, true);
    const { w, h } = size();
    const v = ui.view;
    const m = Math.min(80, w / 3, h / 3);
    v.tx = Math.min(Math.max(v.tx, m - b.x1 * v.s), w - m - b.x0 * v.s);
    v.ty = Math.min(Math.max(v.ty, m - b.y1 * v.s), h - m - b.y0 * v.s);
  }
  function zoomAt(factor, sx, sy) {
    const v = ui.view;
    const s = Math.max(MIN_S, Math.min(MAX_S, v.s * factor));
    v.tx = sx - (sx - v.tx) * (s / v.s);
    v.ty = sy - (sy - v.ty) * (s / v.s);
    v.s = s;
    ui.follow = false;
    ui.focused = false;
    clamp();
    applyView();
  }
  function toWorld(clientX, clientY) {
    const { left, top } = size();
    const v = ui.view;
    return [(clientX - left - v.tx) / v.s, (clientY - top - v.ty) / v.s];
  }
  const squareAt = (w) => [Math.floor(w[0] / U), Math.floor(w[1] / U)];

  // -- pointer handling: pan, pinch, the tile under the pointer, ends of objects -----------------------
  const pointers = new Map();
  let gesture = null;

  function mode() {
    const d = ui.d;
    if (!d || !ui.ctx || !ui.ctx.act || !d.acting) return "watch";
    if (d.lays.size) return "lay";
    if (d.places.length) return "place";
    return "other";
  }
  function candidates() {
    const d = ui.d;
    let list = d.places;
    if (ui.len) list = list.filter((p) => p.len === ui.len);
    if (ui.first) list = list.filter((p) => p.a === ui.first || p.b === ui.first);
    return list;
  }
  function isEnd(k) {
    const d = ui.d;
    return d.places.some((p) => (!ui.len || p.len === ui.len) && (p.a === k || p.b === k));
  }

  function onDown(e) {
    if (!ui.d) return;
    ui.touchy = e.pointerType === "touch";
    ui.svg.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 2) {
      const [p, q] = [...pointers.values()];
      gesture = { kind: "pinch", dist: Math.hypot(p.x - q.x, p.y - q.y), s: ui.view.s };
      return;
    }
    const q = squareAt(toWorld(e.clientX, e.clientY));
    const k = key(...q);
    gesture = { kind: "press", x: e.clientX, y: e.clientY, tx: ui.view.tx, ty: ui.view.ty, q, moved: false, span: false, wasFirst: ui.first };
    if (mode() === "place" && (isEnd(k) || ui.first === k) && (!ui.first || ui.first === k)) {
      gesture.span = true;
      ui.first = k;
      ui.hover = null;
      drawTargets();
    }
  }
  function onMove(e) {
    if (!ui.d) return;
    const w = toWorld(e.clientX, e.clientY);
    ui.pointer = w;
    const q = squareAt(w);
    ui.parts.coords.textContent = `x ${q[0]}, y ${q[1]}`;
    if (pointers.has(e.pointerId)) pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (gesture && gesture.kind === "pinch" && pointers.size === 2) {
      const [p, r] = [...pointers.values()];
      const dist = Math.hypot(p.x - r.x, p.y - r.y);
      const { left, top } = size();
      zoomAt((gesture.s * dist / gesture.dist) / ui.view.s, (p.x + r.x) / 2 - left, (p.y + r.y) / 2 - top);
      return;
    }
    if (gesture && gesture.kind === "press") {
      const dx = e.clientX - gesture.x, dy = e.clientY - gesture.y;
      if (!gesture.moved && Math.hypot(dx, dy) > 6) gesture.moved = true;
      if (gesture.moved && !gesture.span) {
        ui.view.tx = gesture.tx + dx;
        ui.view.ty = gesture.ty + dy;
        ui.follow = false;
        ui.focused = false;
        clamp();
        applyView();
      }
    }
    const m = mode();
    if (m === "place" && ui.first) {
      const k = key(...q);
      if (k !== ui.hover) { ui.hover = k; drawPreview(); }
    } else if (m === "lay" && !ui.touchy) {
      drawGhost();
    }
  }
  function onUp(e) {
    const had = pointers.delete(e.pointerId);
    if (!had || !gesture) return;
    if (gesture.kind === "pinch") { if (!pointers.size) gesture = null; return; }
    const g = gesture;
    gesture = null;
    const q = squareAt(toWorld(e.clientX, e.clientY));
    if (g.span) {
      const k = key(...q);
      if (k === ui.first) {
        if (!g.moved && g.wasFirst === k) { ui.first = null; ui.hover = null; say(""); }
        else say(t("Now click (or drag to) the other end: the bright rings show where it may go."), "hint");
        drawTargets();
        return;
      }
      pair(q);
      return;
    }
    if (!g.moved) click(q, e.pointerType === "touch");
  }
  function onCancel(e) { pointers.delete(e.pointerId); if (!pointers.size) gesture = null; }
  function onWheel(e) {
    if (!ui.d) return;
    e.preventDefault();
    const { left, top } = size();
    const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
    zoomAt(Math.exp(-delta * 0.0015), e.clientX - left, e.clientY - top);
  }
  function onLeave() {
    ui.pointer = null;
    ui.parts.coords.textContent = "";
    if (mode() === "lay" && !ui.touchSlot) drawGhost();
  }

  function click(q, touch) {
    const m = mode();
    const k = key(...q);
    if (m === "lay") {
      const snapped = !touch && ui.layers.ghost.dataset.slot;
      const slot = snapped || key(Math.floor(q[0] / 3) * 3, Math.floor(q[1] / 3) * 3);
      const turns = ui.d.lays.get(slot);
      if (!turns) { say(explainSlot(q), "refuse"); return; }
      if (touch && ui.touchSlot !== slot) {
        ui.touchSlot = slot;
        say(t("Turn it with ↻ if you like, then tap the spot again (or “Lay here”)."), "hint");
        drawGhost();
        drawHand();
        return;
      }
      lay(slot);
      return;
    }
    if (m === "place") {
      if (ui.first) {
        if (k === ui.first) { ui.first = null; ui.hover = null; say(""); drawTargets(); return; }
        pair(q);
        return;
      }
      if (isEnd(k)) { ui.first = k; say(t("Now click the other end."), "hint"); drawTargets(); return; }
      say(explainEnd(q), "refuse");
      return;
    }
    if (ui.ctx && ui.ctx.act && ui.d && !ui.d.acting && ui.d.st.phase !== "over" && ui.d.st.turn !== null) {
      say(t("It is {who}'s turn.", { who: who(ui.d.st.turn) }), "hint");
    }
  }
  function pair(q) {
    const a = ui.first.split(",").map(Number);
    const k = key(...q);
    const found = ui.d.places.find((p) => (p.a === ui.first && p.b === k) || (p.b === ui.first && p.a === k));
    if (found) { ui.first = null; ui.hover = null; send(found.text); return; }
    say(explainPair(a, q), "refuse");
    drawTargets();
  }
  function lay(slot) {
    const turns = ui.d.lays.get(slot);
    if (!turns) return;
    const text = turns.get(ui.rot) || [...turns.values()][0];
    ui.touchSlot = null;
    send(text);
  }
  function rotate(step) {
    ui.rot = (ui.rot + step + 4) % 4;
    drawGhost();
    drawHand();
  }

  return { applyView, candidates, clamp, fit, focusSpans, lay, mode, onCancel, onDown, onLeave, onMove, onUp, onWheel, rotate, size, zoomAt };
});
