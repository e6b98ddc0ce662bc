// Multicity board: the growing city as an SVG map (pan with a drag, zoom with the wheel, a pinch or the
// buttons), each player's objects on it in their colour, the drawn tile following the pointer and
// snapping to the free slots where it may be laid (R or the buttons turn it), and objects placed by
// choosing a length and clicking (or dragging between) two ends: the legal spans light up, refusals
// say which rule stands in the way. Drawn only from the seat's view (payload.state) and its legal moves.
// Pan, zoom, the pointer and the refusals' words are in pointer.js, following a turn and the moves in
// words in follow.js (loaded before this script; see Tabletown.boardPart).
// The preamble below (strict mode, the Tabletown handle, its words) opens every page script alike on
// purpose: each script stands alone, with no build step to share it.
"use strict";
(function () {
  const T = window.Tabletown;
  const { el } = T;
  const t = T.t;
  const NS = "http://www.w3.org/2000/svg";
  const U = 40; // one square of the city, in map units
  const FILL = ["#2f9e44", "#e03131", "#1c7ed6", "#f0b400"];
  const DARK = ["#1b5e20", "#9b1c1c", "#0b4f94", "#7a5a00"];
  const INK = ["#fff", "#fff", "#fff", "#3b2f00"];
  const SEAT_OF = { g: 0, r: 1, b: 2, y: 3 };
  const SHAPE = ["●", "■", "◆", "▲"];
  const LENGTHS = [2, 3, 4, 5, 6, 7];

  let words = null;
  const ui = {
    root: null, svg: null, layers: null, parts: null,
    view: { s: 1, tx: 0, ty: 0 }, follow: true, boundsKey: "", size: "",
    payload: null, ctx: null, d: null,
    table: null, seq: -1, seat: undefined, drawnId: null,
    rot: 0, len: null, first: null, hover: null, pointer: null, touchSlot: null,
    msg: "", msgKind: "", busy: false, last: null, touchy: false,
  };

  // -- small helpers ---------------------------------------------------------------------------------
  const key = (x, y) => x + "," + y;
  const colour = (seat) => (words.colours || ["green", "red", "blue", "yellow"])[seat] || t("seat {seat}", { seat });
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  const escapeText = (s) => String(s).split("&").join("&amp;").split("<").join("&lt;").split(">").join("&gt;");
  function whoName(seat) { return T.seatLabel((ui.payload && ui.payload.seats) || [], seat); }
  // a seat by its player's name and its colour on the board: "Alice (green)"
  function who(seat) { return whoName(seat) + " (" + colour(seat) + ")"; }
  function svgEl(tag, attrs, html) {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) node.setAttribute(k, v);
    if (html) node.innerHTML = html;
    return node;
  }

  // -- reading the view and the legal moves ----------------------------------------------------------
  function derive(payload, ctx) {
    const st = payload.state;
    const cells = new Map();
    const slots = new Set();
    for (const tile of st.tiles) {
      slots.add(key(tile.x, tile.y));
      tile.squares.forEach((letter, i) => cells.set(key(tile.x + (i % 3), tile.y + Math.floor(i / 3)), letter));
    }
    const occ = new Map(); // square -> [{end, dir}]
    for (const o of st.objects) {
      for (let i = 0; i < o.length; i++) {
        const k = o.dir === "v" ? key(o.x, o.y + i) : key(o.x + i, o.y);
        if (!occ.has(k)) occ.set(k, []);
        occ.get(k).push({ end: i === 0 || i === o.length - 1, dir: o.dir, seat: o.seat });
      }
    }
    const legal = (ctx && ctx.act ? ctx.legal : []) || [];
    const lays = new Map();
    const places = [];
    let draw = false, pass = false;
    for (const text of legal) {
      let m;
      if (text === "draw") draw = true;
      else if (text === "pass") pass = true;
      else if ((m = /^t (-?\d+),(-?\d+) r([0-3])$/.exec(text))) {
        const k = key(+m[1], +m[2]);
        if (!lays.has(k)) lays.set(k, new Map());
        lays.get(k).set(+m[3], text);
      } else if ((m = /^([2-7])([hv]) (-?\d+),(-?\d+)$/.exec(text))) {
        const len = +m[1], x = +m[3], y = +m[4], dir = m[2];
        const b = dir === "v" ? [x, y + len - 1] : [x + len - 1, y];
        places.push({ len, dir, x, y, text, a: key(x, y), b: key(b[0], b[1]) });
      }
    }
    const me = ctx ? ctx.seat : null;
    const player = me !== null && me !== undefined ? st.players[me] : null;
    return { st, cells, slots, occ, lays, places, draw, pass, me, player, acting: legal.length > 0 };
  }

  function bounds(st, slots) {
    // the city, and the free slots around it while a tile waits to be laid (or when asked)
    const pts = st.tiles.map((tile) => [tile.x, tile.y]).concat(slots || st.drawn ? st.free_slots || [] : []);
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const [x, y] of pts) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x + 3); y1 = Math.max(y1, y + 3); }
    if (!pts.length) { x0 = y0 = -3; x1 = y1 = 6; }
    return { x0: x0 * U, y0: y0 * U, x1: x1 * U, y1: y1 * U };
  }

  // -- drawing squares, tiles and objects (SVG text: every value comes from the view as a number or a letter)
  function symbol(letter, cx, cy) {
    if (letter === "o") {
      return `<rect x="${cx - U * 0.4}" y="${cy - U * 0.4}" width="${U * 0.8}" height="${U * 0.8}" rx="${U * 0.14}" class="mc-pit"/>` +
        `<path d="M${cx} ${cy - U * 0.3} L${cx + U * 0.17} ${cy + U * 0.2} L${cx - U * 0.17} ${cy + U * 0.2} Z" class="mc-cone"/>` +
        `<path d="M${cx - U * 0.08} ${cy - U * 0.06} L${cx + U * 0.08} ${cy - U * 0.06} L${cx + U * 0.11} ${cy + U * 0.04} L${cx - U * 0.11} ${cy + U * 0.04} Z" class="mc-stripe"/>` +
        `<rect x="${cx - U * 0.26}" y="${cy + U * 0.18}" width="${U * 0.52}" height="${U * 0.08}" rx="${U * 0.03}" class="mc-cone"/>`;
    }
    const seat = SEAT_OF[letter];
    const style = `fill="${FILL[seat]}" stroke="${DARK[seat]}" stroke-width="1.5"`;
    const r = U * 0.22;
    if (seat === 0) return `<circle cx="${cx}" cy="${cy}" r="${r * 1.05}" ${style}/>`;
    if (seat === 1) return `<rect x="${cx - r * 0.9}" y="${cy - r * 0.9}" width="${r * 1.8}" height="${r * 1.8}" rx="${r * 0.3}" ${style}/>`;
    if (seat === 2) return `<path d="M${cx} ${cy - r * 1.25} L${cx + r * 1.15} ${cy} L${cx} ${cy + r * 1.25} L${cx - r * 1.15} ${cy} Z" ${style}/>`;
    return `<path d="M${cx} ${cy - r * 1.15} L${cx + r * 1.2} ${cy + r * 0.9} L${cx - r * 1.2} ${cy + r * 0.9} Z" ${style} stroke-linejoin="round"/>`;
  }

  function tileSvg(squares, x, y, cls) {
    let s = `<g class="${cls || "mc-tile"}" data-at="${x},${y}"><rect x="${x * U + 1.5}" y="${y * U + 1.5}" width="${3 * U - 3}" height="${3 * U - 3}" rx="7" class="mc-tile-bg"/>`;
    squares.forEach((letter, i) => {
      const sx = (x + (i % 3)) * U, sy = (y + Math.floor(i / 3)) * U;
      s += `<rect x="${sx + 4}" y="${sy + 4}" width="${U - 8}" height="${U - 8}" rx="5" class="mc-cell"/>`;
      s += symbol(letter, sx + U / 2, sy + U / 2);
    });
    return s + "</g>";
  }

  function objectSvg(o, cls, part) {
    const vertical = o.dir === "v";
    const cx = o.x * U + U / 2, cy = o.y * U + U / 2;
    const span = (o.length - 1) * U;
    const w = U * 0.34;
    const bar = vertical
      ? `<rect x="${cx - w / 2}" y="${cy - w / 2}" width="${w}" height="${span + w}" rx="${w / 2}"/>`
      : `<rect x="${cx - w / 2}" y="${cy - w / 2}" width="${span + w}" height="${w}" rx="${w / 2}"/>`;
    const ex = vertical ? cx : cx + span, ey = vertical ? cy + span : cy;
    const end = (x, y) => `<circle cx="${x}" cy="${y}" r="${U * 0.34}" class="mc-obj-end"/>` +
      `<text x="${x}" y="${y}" class="mc-obj-num" fill="${INK[o.seat]}">${o.length}</text>`;
    // part "bar" or "ends": all bars go under all end tokens (an end may stand on a middle with overlap=loose)
    const body = part === "bar" ? `<g class="mc-obj-bar">${bar}</g>` : part === "ends" ? end(cx, cy) + end(ex, ey) :
      `<g class="mc-obj-bar">${bar}</g>${end(cx, cy)}${end(ex, ey)}`;
    return `<g class="mc-obj ${cls || ""}" fill="${FILL[o.seat]}" stroke="${DARK[o.seat]}" data-seat="${o.seat}" data-length="${o.length}">${body}</g>`;
  }

  function miniTile(squares, size, cls) {
    const svg = svgEl("svg", { viewBox: `0 0 ${3 * U} ${3 * U}`, width: size, height: size, class: cls || "mc-mini", "aria-hidden": "true" });
    svg.innerHTML = tileSvg(squares, 0, 0);
    return svg;
  }
  function miniObject(seat, len, placed, tight) {
    const wide = (tight ? len : 7) * 12;
    const svg = svgEl("svg", { viewBox: `0 0 ${wide} 12`, width: wide * 0.9, height: 11, class: "mc-piece" + (placed ? " placed" : "") });
    let s = "";
    for (let i = 0; i < len; i++) s += `<rect x="${i * 12 + 1}" y="1" width="10" height="10" rx="2.5" fill="${placed ? "none" : FILL[seat]}" stroke="${DARK[seat]}" stroke-width="1.3"/>`;
    svg.innerHTML = s;
    return svg;
  }

  // -- pan and zoom, the pointer, a refusal explained (pointer.js) -------------------------------------
  const { applyView, candidates, clamp, fit, focusSpans, lay, mode, onCancel, onDown, onLeave, onMove, onUp, onWheel, rotate, size, zoomAt } =
    T.boardParts("multicity").pointer({ SEAT_OF, SHAPE, U, bounds, colour, drawGhost, drawHand, drawPreview, drawTargets, key, say, send, ui, who });

  // -- messages and moves -----------------------------------------------------------------------------
  function say(text, kind) {
    ui.msg = text || "";
    ui.msgKind = kind || "";
    if (ui.parts) {
      ui.parts.tip.textContent = ui.msg;
      ui.parts.tip.className = "mc-tip" + (ui.msgKind ? " " + ui.msgKind : "");
      ui.parts.tip.hidden = !ui.msg;
    }
  }
  async function send(text) {
    if (!ui.ctx || !ui.ctx.act || ui.busy) return;
    if (!(ui.ctx.legal || []).includes(text)) return;
    ui.busy = true;
    say("");
    try { await ui.ctx.act(text); } finally { ui.busy = false; }
    // the page shows a refusal beside the move list; repeat it on the map, where the player looks
    const error = document.getElementById("move-error");
    if (error && error.textContent) say(error.textContent, "refuse");
  }

  // -- building the board once, then redrawing its parts --------------------------------------------
  function build(container) {
    const svg = svgEl("svg", { class: "mc-map", role: "img", "aria-label": t("The city") });
    const defs = svgEl("defs", {}, `<pattern id="mc-grid" width="${U}" height="${U}" patternUnits="userSpaceOnUse"><path d="M ${U} 0 L 0 0 0 ${U}" fill="none" class="mc-gridline"/></pattern>`);
    const world = svgEl("g", { class: "mc-world" });
    const layers = { world };
    for (const name of ["ground", "slots", "tiles", "bands", "objects", "targets", "ghost", "preview"]) {
      layers[name] = svgEl("g", { class: "mc-layer-" + name });
      world.append(layers[name]);
    }
    layers.ground.append(svgEl("rect", { x: -200 * U, y: -200 * U, width: 400 * U, height: 400 * U, fill: "url(#mc-grid)", class: "mc-ground" }));
    svg.append(defs, world);
    svg.addEventListener("pointerdown", onDown);
    svg.addEventListener("pointermove", onMove);
    svg.addEventListener("pointerup", onUp);
    svg.addEventListener("pointercancel", onCancel);
    svg.addEventListener("pointerleave", onLeave);
    svg.addEventListener("wheel", onWheel, { passive: false });
    svg.addEventListener("contextmenu", (e) => e.preventDefault());

    const zoomBtn = (label, title, fn, cls) => el("button", { type: "button", class: "mc-zbtn " + (cls || ""), title, "aria-label": title, onclick: fn }, label);
    const zoom = el("div", { class: "mc-zoom" },
      zoomBtn("+", t("Zoom in (+)"), () => { const s = size(); zoomAt(1.3, s.w / 2, s.h / 2); }, "mc-zoom-in"),
      zoomBtn("−", t("Zoom out (−)"), () => { const s = size(); zoomAt(1 / 1.3, s.w / 2, s.h / 2); }, "mc-zoom-out"),
      zoomBtn("⤢", t("Show the whole city (0)"), () => { ui.follow = true; fit(); }, "mc-zoom-fit"));
    const coords = el("div", { class: "mc-coords", "aria-live": "off" });
    const tip = el("div", { class: "mc-tip", role: "status", hidden: true });
    const mapWrap = el("div", { class: "mc-map-wrap" }, svg, zoom, coords, tip);
    const parts = {
      head: el("div", { class: "mc-head" }),
      result: el("div", { class: "mc-result-box" }),
      hand: el("div", { class: "mc-hand" }),
      players: el("div", { class: "mc-players" }),
      legend: el("p", { class: "mc-legend" }),
      mapWrap, coords, tip, zoom,
    };
    const root = el("div", { class: "mc" }, parts.head, parts.result, parts.hand, mapWrap, parts.players, parts.legend);
    container.replaceChildren(root);
    ui.root = root; ui.svg = svg; ui.layers = layers; ui.parts = parts;
    if (window.ResizeObserver) {
      new ResizeObserver(() => {
        const s = size(); const k = Math.round(s.w) + "x" + Math.round(s.h);
        if (k === ui.size || !ui.d) return;
        ui.size = k;
        if (ui.follow) fit(); else { clamp(); applyView(); }
      }).observe(svg);
    }
  }

  document.addEventListener("keydown", (e) => {
    if (!ui.root || !document.body.contains(ui.root)) return;
    const tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "r" || e.key === "R") {
      if (ui.d && ui.d.st.drawn) { rotate(e.shiftKey ? -1 : 1); e.preventDefault(); }
    } else if (e.key === "Escape") {
      ui.first = null; ui.len = null; ui.touchSlot = null; say(""); redraw();
    } else if (e.key === "+" || e.key === "=") { const s = size(); zoomAt(1.3, s.w / 2, s.h / 2); }
    else if (e.key === "-") { const s = size(); zoomAt(1 / 1.3, s.w / 2, s.h / 2); }
    else if (e.key === "0") { ui.follow = true; fit(); }
    else if (e.key === "Enter" && ui.touchSlot && mode() === "lay") lay(ui.touchSlot);
  });

  function drawCity() {
    const d = ui.d, st = d.st;
    let tiles = "";
    const just = ui.fresh ? " tt-just tt-fresh" : " tt-just";
    for (const tile of st.tiles) {
      const last = ui.last && ui.last.kind === "lay" && ui.last.x === tile.x && ui.last.y === tile.y;
      tiles += tileSvg(tile.squares, tile.x, tile.y, "mc-tile" + (last ? " mc-last" + (ui.stepped === ui.last ? just : "") : ""));
    }
    // the start tile: a gold frame and a flag
    const start = escapeText(t("START"));
    tiles += `<rect x="1.5" y="1.5" width="${3 * U - 3}" height="${3 * U - 3}" rx="7" class="mc-start"/>` +
      `<g class="mc-start-flag"><rect x="${-U * 0.05}" y="${-U * 0.52}" width="${U * 1.3}" height="${U * 0.46}" rx="${U * 0.12}"/><text x="${U * 0.6}" y="${-U * 0.29}">${start}</text></g>`;
    ui.layers.tiles.innerHTML = tiles;
    let bars = "", ends = "";
    for (const o of st.objects) {
      const last = ui.last && ui.last.kind === "place" && ui.last.x === o.x && ui.last.y === o.y && ui.last.seat === o.seat;
      const cls = last ? "mc-last" + (ui.stepped === ui.last ? just : "") : "";
      bars += objectSvg(o, cls, "bar");
      ends += objectSvg(o, cls, "ends");
    }
    ui.layers.objects.innerHTML = bars + ends;
    let slots = "";
    if (st.drawn) {
      for (const [x, y] of st.free_slots) {
        const legal = d.lays.has(key(x, y));
        slots += `<g class="mc-slot${legal ? " legal" : ""}"><rect x="${x * U + 4}" y="${y * U + 4}" width="${3 * U - 8}" height="${3 * U - 8}" rx="9"/>` +
          `<text x="${x * U + 1.5 * U}" y="${y * U + 1.5 * U}">${x},${y}</text></g>`;
      }
    }
    ui.layers.slots.innerHTML = slots;
  }

  function drawTargets() {
    const d = ui.d;
    const m = mode();
    let bands = "", targets = "";
    if (m === "lay") {
      for (const k of d.lays.keys()) {
        const [x, y] = k.split(",").map(Number);
        targets += `<rect x="${x * U + 4}" y="${y * U + 4}" width="${3 * U - 8}" height="${3 * U - 8}" rx="9" class="mc-slot-hit" data-slot="${k}"/>`;
      }
    } else if (m === "place") {
      const list = candidates();
      const me = d.me;
      const showBands = ui.len || ui.first;
      const ends = new Set();
      for (const p of list) {
        if (showBands) {
          const w = U * 0.5;
          const x = p.x * U + U / 2 - w / 2, y = p.y * U + U / 2 - w / 2;
          const span = (p.len - 1) * U + w;
          bands += `<rect x="${x}" y="${y}" width="${p.dir === "h" ? span : w}" height="${p.dir === "v" ? span : w}" rx="${w / 2}" fill="${FILL[me]}" class="mc-band${ui.first ? " strong" : ""}"/>`;
        }
        if (ui.first) ends.add(p.a === ui.first ? p.b : p.a);
        else { ends.add(p.a); ends.add(p.b); }
      }
      if (ui.first) {
        const [x, y] = ui.first.split(",").map(Number);
        targets += `<circle cx="${x * U + U / 2}" cy="${y * U + U / 2}" r="${U * 0.45}" class="mc-end first" stroke="${DARK[me]}" data-end="${ui.first}"/>`;
      }
      for (const k of ends) {
        const [x, y] = k.split(",").map(Number);
        targets += `<circle cx="${x * U + U / 2}" cy="${y * U + U / 2}" r="${U * 0.45}" class="mc-end${ui.first ? " second" : ""}" stroke="${DARK[me]}" data-end="${k}"/>`;
      }
    }
    ui.layers.bands.innerHTML = bands;
    ui.layers.targets.innerHTML = targets;
    drawPreview();
  }

  function drawPreview() {
    const d = ui.d;
    let s = "";
    if (mode() === "place" && ui.first && ui.hover && ui.hover !== ui.first) {
      const p = d.places.find((c) => (!ui.len || c.len === ui.len) && ((c.a === ui.first && c.b === ui.hover) || (c.b === ui.first && c.a === ui.hover)));
      if (p) s = objectSvg({ seat: d.me, length: p.len, x: p.x, y: p.y, dir: p.dir }, "mc-preview");
    }
    ui.layers.preview.innerHTML = s;
  }

  function drawGhost() {
    const d = ui.d;
    const g = ui.layers.ghost;
    if (mode() !== "lay" || !d.st.drawn) { g.innerHTML = ""; ui.ghostKey = ""; return; }
    let slot = ui.touchSlot, free = null;
    if (!slot && ui.pointer) {
      // snap to the nearest legal slot within reach of the pointer
      let best = null, bestD = Infinity;
      for (const k of d.lays.keys()) {
        const [x, y] = k.split(",").map(Number);
        const dist = Math.hypot((x + 1.5) * U - ui.pointer[0], (y + 1.5) * U - ui.pointer[1]);
        if (dist < bestD) { bestD = dist; best = k; }
      }
      if (best && bestD < 2.6 * U) slot = best;
      else free = [ui.pointer[0] / U - 1.5, ui.pointer[1] / U - 1.5];
    }
    if (!slot && !free) { g.innerHTML = ""; ui.ghostKey = ""; return; }
    const [x, y] = slot ? slot.split(",").map(Number) : free;
    const k = ui.rot + ":" + d.st.drawn.tile;
    if (ui.ghostKey !== k) {
      g.innerHTML = tileSvg(d.st.drawn.turns[ui.rot], 0, 0, "mc-tile") + `<rect x="1.5" y="1.5" width="${3 * U - 3}" height="${3 * U - 3}" rx="7" class="mc-ghost-frame"/>`;
      ui.ghostKey = k;
    }
    g.setAttribute("transform", `translate(${x * U} ${y * U})`);
    g.setAttribute("class", "mc-layer-ghost " + (slot ? "snapped" : "floating"));
    g.dataset.slot = slot || "";
  }

  function drawHead() {
    const d = ui.d, st = d.st, p = ui.payload;
    const chips = [];
    chips.push(el("span", { class: "mc-chip mc-stack", title: t("tiles left in the stack") }, el("span", { class: "mc-stack-icon" }), t("{count} in the stack", { count: st.stack })));
    chips.push(el("span", { class: "mc-chip" }, st.tiles.length === 1 ? t("1 tile in the city") : t("{count} tiles in the city", { count: st.tiles.length })));
    if (st.kids) chips.push(el("span", { class: "mc-chip variant" }, t("kids' variant: objects may span holes")));
    if (st.overlap === "loose") chips.push(el("span", { class: "mc-chip variant", title: t("only ends are exclusive; objects never cross") }, t("loose overlap: an end may sit on a crossing middle")));
    let line;
    const fol = (ui.ctx && ui.ctx.follow) || {};
    const ended = fol.playing && fol.step && fol.step.seat !== null && fol.step.seat !== undefined && fol.step.seat !== st.turn;
    if (ended) {
      // a step that ended its seat's turn is shown as that seat's (the position already names the next player)
      line = el("span", {}, el("span", { class: "mc-dot", style: `background:${FILL[fol.step.seat]}` }), t("{who}'s turn", { who: who(fol.step.seat) }));
    } else if (p.over) line = el("span", {}, t("Game over"));
    else if (st.turn !== null) {
      const mine = d.acting;
      let doing;
      if (st.drawn) doing = mine ? t("lay the drawn tile on a dashed spot") : t("is laying a tile");
      else if (st.phase === "final_round") doing = mine ? t("final round: place one more object or pass") : t("places a last object or passes");
      else doing = mine ? t("place an object or draw a tile") : t("places an object or draws a tile");
      line = el("span", {}, el("span", { class: "mc-dot", style: `background:${FILL[st.turn]}` }),
        mine ? t("Your turn ({colour}): {doing}", { colour: colour(st.turn), doing }) : t("{who} {doing}", { who: who(st.turn), doing }));
    } else line = el("span", {}, "");
    const rows = [el("div", { class: "mc-turn" + (d.acting ? " mine" : "") }, line), el("div", { class: "mc-chips" }, chips)];
    if (st.phase === "final_round" && st.final_round) {
      rows.push(el("div", { class: "mc-final" }, t("Final round: the stack is empty. Each player, from the first player on, may place one more object or pass. Still to place: "),
        st.final_round.map((s, i) => [i ? ", " : "", el("b", { style: `color:${DARK[s]}` }, cap(colour(s)))])));
    }
    ui.parts.head.replaceChildren(...rows);
  }

  function drawResult() {
    const p = ui.payload, st = ui.d.st;
    if (!p.result) { ui.parts.result.replaceChildren(); return; }
    const res = p.result;
    const six = st.players.find((pl) => pl.unplaced.length === 0);
    const winners = res.winners || [];
    const head = winners.length > 1 ? t("Shared win: {winners}", { winners: winners.map((s) => who(s)).join(", ") }) :
      six ? t("{who} placed all six objects and wins!", { who: who(six.seat) }) : t("{who} wins with the fewest squares left to place.", { who: who(winners[0]) });
    const why = six ? t("The first player to fit all six objects into the city wins at once; the others are ranked by the squares they still had to place (fewer is better), then by objects placed.") :
      t("The stack ran out and the final round was played: the fewest squares left on unplaced objects wins; a tie goes to more objects placed; still tied, the players share the win.");
    const order = st.players.map((pl) => pl.seat).sort((a, b) => res.ranks[a] - res.ranks[b] || a - b);
    const rows = order.map((s) => {
      const pl = st.players[s];
      return el("tr", { class: res.ranks[s] === 1 ? "win" : "" },
        el("td", {}, T.place(res, s)),
        el("td", {}, el("span", { class: "mc-dot", style: `background:${FILL[s]}` }), el("b", {}, cap(colour(s))), " ", el("small", {}, whoName(s))),
        el("td", {}, String(pl.remaining_squares)),
        el("td", {}, `${pl.placed.length}/6`),
        el("td", { class: "mc-score" }, String(res.scores[s])));
    });
    ui.parts.result.replaceChildren(el("div", { class: "mc-result" },
      el("div", { class: "mc-result-head" }, el("span", { class: "mc-star" }, "★"), " ", head),
      el("table", { class: "mc-rank" },
        el("thead", {}, el("tr", {}, [t("Place"), t("Player"), t("Squares left"), t("Placed"), t("Score")].map((h, i) => el("th", i === 4 ? { class: "mc-score", title: t("squares placed") } : {}, h)))),
        el("tbody", {}, rows)),
      el("p", { class: "mc-why" }, why)));
  }

  function drawHand() {
    const d = ui.d, st = d.st;
    const m = mode();
    const box = [];
    if (st.drawn) {
      const mine = m === "lay";
      const turns = st.drawn.turns;
      const big = miniTile(turns[mine ? ui.rot : 0], 78, "mc-mini mc-drawn");
      const info = [el("div", { class: "mc-hand-title" }, mine ? t("Your drawn tile") : t("{who} drew tile {tile}", { who: who(st.turn), tile: st.drawn.tile }))];
      if (mine) {
        info.push(el("div", { class: "mc-rot" },
          el("button", { type: "button", class: "mc-rot-btn", title: t("Turn left (Shift+R)"), "aria-label": t("Turn left"), onclick: () => rotate(-1) }, "↺"),
          el("button", { type: "button", class: "mc-rot-btn primary", id: "mc-rotate", title: t("Turn right (R)"), "aria-label": t("Turn right"), onclick: () => rotate(1) }, t("↻ Rotate")),
          el("span", { class: "mc-key" }, "R")));
        info.push(el("div", { class: "mc-turns" }, turns.map((squares, i) =>
          el("button", { type: "button", class: "mc-turn-btn" + (i === ui.rot ? " on" : ""), title: "r" + i, "data-turn": i, onclick: () => { ui.rot = i; drawGhost(); drawHand(); } },
            miniTile(squares, 30), el("span", {}, "r" + i)))));
        info.push(el("p", { class: "mc-help" }, ui.touchy ? t("Tap a dashed spot to try the tile there, then tap it again to lay it.") :
          t("Move the tile over the city: it snaps to the dashed spots where it fits. Click to lay it.")));
        if (ui.touchSlot && ui.touchy) info.push(el("button", { type: "button", class: "primary mc-lay-here", onclick: () => lay(ui.touchSlot) }, t("Lay here ({slot})", { slot: ui.touchSlot })));
      }
      box.push(el("div", { class: "mc-drawn-box" + (mine ? " mine" : "") }, big, el("div", { class: "mc-drawn-info" }, info)));
    } else if (m === "place" || (d.acting && (d.draw || d.pass))) {
      const counts = {};
      for (const p of d.places) counts[p.len] = (counts[p.len] || 0) + 1;
      const me = d.me;
      const chips = d.player.unplaced.map((len) => el("button", {
        type: "button", class: "mc-len" + (ui.len === len ? " on" : ""), disabled: !counts[len], "data-len": len,
        title: counts[len] ? (counts[len] > 1 ? t("{count} places for your {len}-object", { count: counts[len], len }) : t("1 place for your {len}-object", { len }))
          : t("no place for your {len}-object now", { len }),
        onclick: () => {
          ui.len = ui.len === len ? null : len; ui.first = null; ui.hover = null; say(""); drawTargets(); drawHand();
          if (ui.len) focusSpans(d.places.filter((p) => p.len === ui.len));
        },
      }, miniObject(me, len, false, true), el("b", {}, String(len)), el("small", {}, counts[len] ? (counts[len] > 1 ? t("{count} spots", { count: counts[len] }) : t("1 spot")) : t("no spot"))));
      const row = [];
      if (d.places.length) row.push(el("div", { class: "mc-hand-title" }, t("Place an object: pick a length (or click an end ring on the map)")), el("div", { class: "mc-lens" }, chips));
      else if (d.acting) row.push(el("div", { class: "mc-hand-title" }, t("None of your objects fits anywhere now.")));
      const buttons = [];
      if (d.draw) buttons.push(el("button", { type: "button", class: "primary mc-draw", "data-move": "draw", onclick: () => send("draw") }, t("Draw a tile ({count} left)", { count: st.stack })));
      if (d.pass) buttons.push(el("button", { type: "button", class: "mc-pass", "data-move": "pass", onclick: () => send("pass") }, t("Pass (place nothing)")));
      if (buttons.length) row.push(el("div", { class: "mc-hand-buttons" }, buttons));
      if (ui.len && !ui.first) row.push(el("p", { class: "mc-help" }, t("The {count} lit bands are where your {len}-object fits: click one end, then the other (or drag from end to end).", { count: counts[ui.len] || 0, len: ui.len })));
      box.push(el("div", { class: "mc-place-box" }, row));
    }
    ui.parts.hand.replaceChildren(...box);
    ui.parts.hand.hidden = !box.length;
  }

  function drawPlayers() {
    const d = ui.d, st = d.st;
    const last = (ui.ctx && ui.ctx.follow && ui.ctx.follow.last) || {};
    ui.parts.players.replaceChildren(...st.players.map((pl) => {
      const s = pl.seat;
      const pieces = LENGTHS.map((len) => el("span", { class: "mc-piece-wrap", title: pl.unplaced.includes(len) ? t("{len}-object to place", { len }) : t("{len}-object placed", { len }) },
        el("small", {}, String(len)), miniObject(s, len, !pl.unplaced.includes(len))));
      const tags = [];
      if (st.turn === s && !ui.payload.over) tags.push(el("span", { class: "mc-tag now" }, t("to play")));
      if (s === st.first_player) tags.push(el("span", { class: "mc-tag", title: t("first player: also starts the final round") }, t("first")));
      if (d.me === s) tags.push(el("span", { class: "mc-tag you" }, t("you")));
      if (st.final_round && st.final_round.includes(s)) tags.push(el("span", { class: "mc-tag" }, t("final round")));
      if (ui.payload.result && ui.payload.result.ranks[s] === 1) tags.push(el("span", { class: "mc-tag win" }, t("winner")));
      return el("div", { class: "mc-player" + (st.turn === s ? " current" : "") + (d.me === s ? " mine" : ""), style: `--seat:${FILL[s]};--seat-dark:${DARK[s]}`, "data-seat": s },
        el("div", { class: "mc-player-head" }, el("span", { class: "mc-sym", style: `color:${FILL[s]}` }, SHAPE[s]), el("b", {}, who(s)), tags),
        el("div", { class: "mc-pieces" }, pieces),
        el("div", { class: "mc-player-foot" }, t("{left} squares left · {placed} of 6 placed", { left: pl.remaining_squares, placed: pl.placed.length })),
        last[s] ? el("p", { class: "tt-last-turn", "data-seat": s }, el("strong", {}, t("Last turn: ")), last[s]) : null);
    }));
  }

  function drawLegend() {
    const d = ui.d;
    const n = d.st.players.length;
    ui.parts.legend.replaceChildren(
      ...[0, 1, 2, 3].map((s) => el("span", { class: "mc-leg" }, el("span", { style: `color:${FILL[s]}` }, SHAPE[s]), " ", colour(s) + (s >= n ? t(" (nobody)") : ""))),
      el("span", { class: "mc-leg" }, el("span", { class: "mc-leg-cone" }, "▲"), " " + ((words.letters || {}).o || "hole")),
      el("span", { class: "mc-leg mc-leg-keys" }, t("Drag to pan · wheel or pinch to zoom · R turns the tile · Esc cancels")));
  }

  function redraw() {
    if (!ui.d) return;
    drawHead(); drawResult(); drawHand(); drawCity(); drawTargets(); drawGhost(); drawPlayers(); drawLegend();
    ui.parts.zoom.dataset.mode = mode();
    ui.root.dataset.mode = mode();
  }

  function hookMoveList() {
    // hovering a move in the list beside the board shows it on the map
    document.querySelectorAll("#legal-moves button[data-move]").forEach((b) => {
      const text = b.dataset.move;
      b.addEventListener("mouseenter", () => {
        let m;
        if ((m = /^t (-?\d+),(-?\d+) r([0-3])$/.exec(text)) && ui.d && ui.d.st.drawn) {
          if (ui.listRot === undefined) ui.listRot = ui.rot;
          ui.rot = +m[3]; ui.touchSlot = key(+m[1], +m[2]); ui.ghostKey = ""; drawGhost(); drawHand();
        } else if ((m = /^([2-7])([hv]) (-?\d+),(-?\d+)$/.exec(text)) && ui.d) {
          ui.layers.preview.innerHTML = objectSvg({ seat: ui.d.me, length: +m[1], x: +m[3], y: +m[4], dir: m[2] }, "mc-preview");
        }
      });
      b.addEventListener("mouseleave", () => {
        if (!ui.d) return;
        if (ui.listRot !== undefined) { ui.rot = ui.listRot; ui.listRot = undefined; }
        if (ui.touchSlot && !ui.touchy) { ui.touchSlot = null; drawGhost(); drawHand(); }
        drawPreview();
      });
    });
  }

  // -- following a turn, and a legal move in words for the move list (follow.js) ------------------------
  const { describeMove, follow } = T.boardParts("multicity").follow();

  function render(container, payload, ctx) {
    if (!words) words = T.config("board-words") || {};
    const st = payload && payload.state;
    if (!st || !st.tiles || !st.players) { ui.root = null; T.board("generic").render(container, payload, ctx); return; }
    if (!ui.root || !container.contains(ui.root)) {
      build(container);
      ui.follow = true;
      ui.boundsKey = "";
    }
    const fresh = payload.table !== ui.table || payload.seq !== ui.seq || (ctx && ctx.seat) !== ui.seat;
    if (payload.table !== ui.table || (ctx && ctx.seat) !== ui.seat) { ui.last = null; }
    if (fresh) {
      ui.first = null; ui.hover = null; ui.touchSlot = null; ui.listRot = undefined; ui.len = null;
      if (ui.focused) { ui.focused = false; ui.follow = true; ui.boundsKey = ""; }
      if (ui.seq !== payload.seq) say("");
    }
    ui.table = payload.table; ui.seq = payload.seq; ui.seat = ctx ? ctx.seat : null;
    const events = payload.events || [];
    if (events.length && events[0].i === 0) ui.last = null; // a whole log (first view, a replay step)
    for (const e of events) if (e.kind === "lay" || e.kind === "place") ui.last = e;
    // a step followed: its own tile or object (a payload may hold several turns)
    const step = ctx && ctx.follow && ctx.follow.step;
    ui.fresh = !!(ctx && ctx.follow && ctx.follow.fresh);
    ui.stepped = null;
    if (step) {
      for (const e of step.events) if (e.kind === "lay" || e.kind === "place") { ui.last = e; ui.stepped = e; }
    }
    ui.payload = payload; ui.ctx = ctx;
    ui.d = derive(payload, ctx);
    const drawnId = st.drawn ? st.drawn.tile : null;
    if (drawnId !== ui.drawnId) { ui.rot = 0; ui.drawnId = drawnId; ui.ghostKey = ""; }
    redraw();
    const b = bounds(st);
    const bk = [b.x0, b.y0, b.x1, b.y1].join(",");
    if (bk !== ui.boundsKey) {
      ui.boundsKey = bk;
      if (ui.follow) fit(); else { clamp(); applyView(); }
    } else applyView();
    say(ui.msg, ui.msgKind);
    hookMoveList();
  }

  // A hot-seat hand-over: forget everything of the seat shown (the next render builds a new map).
  function reset() {
    Object.assign(ui, { root: null, svg: null, layers: null, parts: null, payload: null, ctx: null, d: null, last: null,
      table: null, seq: -1, seat: undefined, drawnId: null, first: null, hover: null, touchSlot: null, len: null, msg: "", msgKind: "" });
  }
  // The end in Multicity's terms: all six objects placed, or the fewest squares left when the stack ran out.
  function outcome(payload) {
    const st = payload.state, res = payload.result;
    if (!st || !st.players || !res) return null;
    const six = st.players.find((pl) => pl.unplaced && pl.unplaced.length === 0);
    return { detail: six ? t("All six objects placed in the city.") : t("The stack ran out: the fewest squares left to place wins.") };
  }

  T.registerBoard("multicity", { render, reset, outcome, describeMove, follow });
})();
