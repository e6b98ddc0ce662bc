// Lords of Vegas board: the Strip and its six blocks (48 lots with printed die and price), casinos
// outlined as one group with their boss crowned, dice in their owner's colour, the score track with
// its gaps, money / dice / markers per player, tile and card supply, the last draw itemised, and
// every move by clicking: a lot for build / sprawl / remodel / reorganize / gamble (bet slider),
// the pending decision (lay-off, placing re-rolled dice, moving a die, freeing a lot, an offer), and
// a trade dialog that composes an offer's notation (money, lots, dice, promises) and sends it.
// Data: the seat's view (payload.state); printed facts from the page's board words.
// Following a turn step by step is in follow.js, offers in words and the trade dialog in trade.js
// (loaded before this script; see Tabletown.boardPart).
// The preamble below (strict mode, the Tabletown handle, its words) opens every page script alike on
// purpose: each script stands alone, with no build step to share it.
"use strict";
(function () {
  const T = window.Tabletown;
  const { el } = T;
  const t = T.t;
  const NS = "http://www.w3.org/2000/svg";
  const TILE = { green: "#149c8c", brown: "#8a4b24", gold: "#d9a521", purple: "#6d3aa6", silver: "#aeb5bf" };
  const TILE_INK = { green: "#fff", brown: "#fff", gold: "#2b1d00", purple: "#fff", silver: "#1d2330" };
  const SEAT = ["#1f5fd6", "#d42a2a", "#f7f7f2", "#1b1e24"];
  const SEAT_PIP = ["#fff", "#fff", "#1b1e24", "#fff"];
  const SEAT_NAME = () => [t("blue"), t("red"), t("white"), t("black")];
  const PHASE = () => ({
    action: t("is taking actions"), offer: t("— an offer waits for answers"), layoff: t("— the boss decides on a lay-off"),
    pick_die: t("— a die must move"), free_lot: t("— a lot must be freed"), place: t("— re-rolled dice are being placed"),
    market: t("— the market is open"), over: t("— game over"),
  });
  // the actions by their printed names (the glossary's, in the board words; the English ids' words otherwise)
  const PROMISE_EN = { build: "build", sprawl: "sprawl", remodel: "remodel", reorg: "reorganize", gamble: "gamble" };
  const PROMISE = {};
  for (const k of Object.keys(PROMISE_EN)) {
    Object.defineProperty(PROMISE, k, { enumerable: true, get: () => (W && W.names && W.names[k]) || PROMISE_EN[k] });
  }
  const CELL = 100, STRIP_W = 76, STREET_H = 44;

  let W = null;           // board words (lots, colours, score track, streets)
  let LOT = {};           // id -> printed facts
  const mem = {
    table: null, events: new Map(), texts: new Map(), selected: null, lastPayload: null, lastCtx: null,
    trade: null, tradeOpen: false, host: null, main: null, dialog: null, bet: {}, marks: null, upTo: Infinity,
  };

  // An SVG element helper like newlasvegas/board.js's, on purpose: each board stands alone, no drawing code shared
  // across games.
  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  const up = (id) => (id ? String(id).toUpperCase() : "?");
  const seatName = (ctx, s) => (s === ctx.seat ? t("You") : T.seatLabel(ctx.seats, s));
  const shortName = (ctx, s) => (s === ctx.seat ? t("You") : T.seatLabel(ctx.seats, s));
  // a colour (a tile, a card) by its printed name; the id itself in English
  const cname = (c) => (W && W.names && W.names[c]) || c;
  const chip = (seat) => el("span", { class: "lv-seatchip", style: `background:${SEAT[seat % 4]}`, title: SEAT_NAME()[seat % 4] });
  const swatch = (color) => el("span", { class: "lv-swatch", style: `background:${TILE[color] || "#f4c430"}` });

  function words() {
    if (W) return W;
    W = T.config("board-words") || {};
    LOT = Object.fromEntries((W.lots || []).map((l) => [l.id, l]));
    return W;
  }

  // -- geometry ----------------------------------------------------------------------------------
  function colX(col) { return col < 3 ? col * CELL : col === 3 ? 3 * CELL : 3 * CELL + STRIP_W + (col - 4) * CELL; }
  function rowY(row) { return row < 2 ? row * CELL : row === 2 ? 2 * CELL : 2 * CELL + STREET_H + (row - 3) * CELL; }
  const BOARD_W = 6 * CELL + STRIP_W, BOARD_H = 2 * CELL + STREET_H + 7 * CELL;

  // -- the score track ------------------------------------------------------------------------------
  function advance(square, points) {
    const track = W.score_track || [];
    let i = track.indexOf(square);
    if (i < 0) return square;
    while (i + 1 < track.length && points >= track[i + 1] - track[i]) { points -= track[i + 1] - track[i]; i += 1; }
    return track[i];
  }

  function dieFace(x, y, size, value, fill, pip, extra) {
    const g = svg("g", { class: "lv-die" + (extra ? " " + extra : "") });
    g.append(svg("rect", { x, y, width: size, height: size, rx: size * 0.18, fill, stroke: "#1b1e24", "stroke-width": 1.6 }));
    const c = (fx, fy) => svg("circle", { cx: x + size * fx, cy: y + size * fy, r: size * 0.09, fill: pip });
    const P = { 1: [[.5, .5]], 2: [[.27, .27], [.73, .73]], 3: [[.27, .27], [.5, .5], [.73, .73]],
      4: [[.27, .27], [.73, .27], [.27, .73], [.73, .73]], 5: [[.27, .27], [.73, .27], [.5, .5], [.27, .73], [.73, .73]],
      6: [[.27, .25], [.73, .25], [.27, .5], [.73, .5], [.27, .75], [.73, .75]] };
    if (P[value]) P[value].forEach(([fx, fy]) => g.append(c(fx, fy)));
    else g.append(svg("text", { x: x + size / 2, y: y + size * 0.68, "text-anchor": "middle", "font-size": size * 0.55, "font-weight": 700, fill: pip }, "?"));
    return g;
  }

  // -- what the seat may do, parsed from the legal notation texts ------------------------------------
  function parseLegal(legal, st) {
    const casinoOf = {};
    (st.casinos || []).forEach((c) => c.lots.forEach((l) => (casinoOf[l] = c)));
    const byLot = {};
    const add = (lot, entry) => { (byLot[lot] = byLot[lot] || []).push(entry); };
    const gambleTop = {};
    const offers = [];
    let pick = null;
    for (const text of legal) {
      const w = text.split(" ");
      const kind = w[0];
      if (kind === "build" || kind === "sprawl") add(w[1], { kind, color: w[2], text });
      else if (kind === "remodel") (casinoOf[w[1]] ? casinoOf[w[1]].lots : [w[1]]).forEach((l) => add(l, { kind, color: w[2], text }));
      else if (kind === "reorg") (casinoOf[w[1]] ? casinoOf[w[1]].lots : [w[1]]).forEach((l) => add(l, { kind, text }));
      else if (kind === "gamble") {
        gambleTop[w[1]] = Math.max(gambleTop[w[1]] || 0, Number(w[2]));
      } else if (kind === "take" || kind === "free" || kind === "put") { add(w[1], { kind, text, direct: true }); pick = kind; }
      else if (kind === "offer") offers.push(text);
    }
    for (const first of Object.keys(gambleTop)) {
      (casinoOf[first] ? casinoOf[first].lots : [first]).forEach((l) => add(l, { kind: "gamble", first, top: gambleTop[first] }));
    }
    return { byLot, offers, casinoOf, pick };
  }

  // -- offers and moves in words, the trade dialog (trade.js) -------------------------------------------
  const { describeItems, describeMove, drawDialog, itemsOfOffer, newDraft, openTrade } = T.boardParts("lordsofvegas").trade({
    PROMISE, canOffer, cname, mem, seatName, up, words, get W() { return W; }, get LOT() { return LOT; },
  });

  // -- events kept across pushes (the payload holds only the new ones) --------------------------------
  function absorb(payload) {
    if (mem.table !== payload.table || !payload.since) { mem.events = new Map(); mem.texts = new Map(); mem.table = payload.table; }
    (payload.events || []).forEach((e, k) => {
      mem.events.set(e.i, e);
      const said = (payload.event_text || [])[k];
      if (said && said[0] === e.i) mem.texts.set(e.i, said[1]);
    });
  }
  // (while a step is shown before later ones of its payload, only the events up to it: mem.upTo)
  function sortedEvents() { return [...mem.events.keys()].filter((i) => i < mem.upTo).sort((a, b) => a - b).map((i) => mem.events.get(i)); }

  function lastDraw() {
    const list = sortedEvents();
    let start = -1;
    for (let k = list.length - 1; k >= 0; k--) if (list[k].kind === "draw" || list[k].kind === "draw_game_end") { start = k; break; }
    if (start < 0) return null;
    while (start > 0 && list[start - 1].kind === "draw_unused") start -= 1;
    const out = [];
    const stop = new Set(["build", "sprawl", "remodel", "reorg", "gamble", "offer", "end_turn", "market_open"]);
    for (let k = start; k < list.length && (k === start || !stop.has(list[k].kind)); k++) {
      if (k > start && (list[k].kind === "draw") && list[k - 1].kind !== "draw_unused") break;
      out.push(list[k]);
    }
    return out;
  }

  function lastTrade() {
    const list = sortedEvents();
    let start = -1;
    for (let k = list.length - 1; k >= 0; k--) if (list[k].kind === "offer") { start = k; break; }
    if (start < 0) return null;
    const out = [list[start]];
    for (let k = start + 1; k < list.length; k++) {
      if (["accept", "refuse", "trade_done", "counter"].includes(list[k].kind)) out.push(list[k]);
      if (["refuse", "trade_done"].includes(list[k].kind)) break;
    }
    return out;
  }

  // -- following a turn step by step, and each seat's last turn in words (follow.js) -------------------
  const { follow, followRow, stepMarks } = T.boardParts("lordsofvegas").follow({
    SEAT, SEAT_PIP, cname, dieFace, seatName, svg, up, words, get W() { return W; }, get LOT() { return LOT; },
  });

  // -- the board (SVG) -----------------------------------------------------------------------------------
  function drawBoard(payload, ctx, moves) {
    const st = payload.state;
    const two = payload.num_players === 2;
    const board = Object.fromEntries(st.board.map((b) => [b.lot, b]));
    const undrawn = new Set(st.undrawn_lots || []);
    const root = svg("svg", { viewBox: `-6 -6 ${BOARD_W + 12} ${BOARD_H + 12}`, class: "lv-map", role: "group", "aria-label": t("the Las Vegas board") });
    root.append(svg("rect", { x: -6, y: -6, width: BOARD_W + 12, height: BOARD_H + 12, rx: 14, fill: "#3b3f46" }));
    // the Strip
    const sx = colX(3);
    root.append(svg("rect", { x: sx, y: -6, width: STRIP_W, height: BOARD_H + 12, fill: "#23262c" }));
    root.append(svg("line", { x1: sx + STRIP_W / 2, y1: 0, x2: sx + STRIP_W / 2, y2: BOARD_H, stroke: "#f4c430", "stroke-width": 3, "stroke-dasharray": "18 12" }));
    root.append(svg("text", { x: sx + STRIP_W / 2 + 10, y: BOARD_H / 2, "text-anchor": "middle", class: "lv-strip-name",
      transform: `rotate(-90 ${sx + STRIP_W / 2 + 10} ${BOARD_H / 2})` }, t("★ THE STRIP · LAS VEGAS BLVD ★")));
    // street names
    for (const [row, names] of Object.entries(W.streets || {})) {
      names.forEach((name, side) => {
        if (!name) return;
        const r = Number(row);
        const y = r === 2 ? rowY(2) + STREET_H / 2 + 6 : rowY(r) + CELL / 2 + 6;
        const x = side === 0 ? colX(1) + CELL / 2 : colX(5) + CELL / 2;
        root.append(svg("text", { x, y, "text-anchor": "middle", class: "lv-street" }, t("{street} AVE", { street: name.toUpperCase() })));
      });
    }
    // casino membership, boss dice
    const casinoOf = {};
    const bossLot = {};
    (st.casinos || []).forEach((c) => {
      c.lots.forEach((l) => (casinoOf[l] = c));
      if (c.boss !== null && c.boss !== undefined) {
        let best = null;
        c.lots.forEach((l) => { const b = board[l]; if (b.owner === c.boss && (!best || b.die > board[best].die)) best = l; });
        if (best) bossLot[best] = true;
      }
    });
    const selCasino = mem.selected && casinoOf[mem.selected];
    const lotsLayer = svg("g", {});
    const joins = svg("g", { "pointer-events": "none" });
    const outlines = svg("g", { "pointer-events": "none" });
    for (const info of W.lots || []) {
      const b = board[info.id] || {};
      const x = colX(info.col), y = rowY(info.row);
      const excluded = two && info.block.toLowerCase() === W.excluded_2p_block;
      const entries = moves.byLot[info.id] || [];
      const playable = !!ctx.act && entries.length > 0;
      const g = svg("g", {
        class: "lv-lot" + (playable ? " playable" : "") + (mem.selected === info.id ? " selected" : "") +
          (selCasino && selCasino.lots.includes(info.id) ? " in-selected" : "") + (excluded ? " excluded" : ""),
        // a lot not used in this game (the 2-player block) is only a picture: nothing to press
        "data-lot": info.id, tabindex: excluded ? null : 0, role: excluded ? "img" : "button",
        onclick: () => clickLot(info.id, entries),
        onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clickLot(info.id, entries); } },
      });
      const fill = b.tile ? TILE[b.tile] : excluded ? "#9c968a" : "#efe3c4";
      g.append(svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 6, fill, class: "lv-lotbg" }));
      if (info.strip) {
        const ex = info.col === 2 ? x + CELL - 9 : x + 3;
        g.append(svg("rect", { x: ex, y: y + 3, width: 6, height: CELL - 6, fill: "#f4c430" }));
      }
      const ink = b.tile ? TILE_INK[b.tile] : "#3a2e14";
      g.append(svg("text", { x: x + 10, y: y + 22, class: "lv-lotid", fill: ink }, up(info.id)));
      g.append(svg("text", { x: x + CELL - 12, y: y + 22, "text-anchor": "end", class: "lv-price", fill: ink }, "$" + info.cost));
      if (undrawn.has(info.id)) {
        const pc = TILE[info.pays] || "#f4c430";
        g.append(svg("rect", { x: x + 10, y: y + CELL - 26, width: 12, height: 16, rx: 2, fill: pc, stroke: "#fff", "stroke-width": 1.5, class: "lv-card" },
          svg("title", {}, t("its card is still in the deck (pays {colour})", { colour: cname(info.pays) }))));
      }
      if (b.tile) {
        if (b.owner !== undefined && b.owner !== null) {
          g.append(dieFace(x + CELL / 2 - 23, y + 33, 46, b.die, SEAT[b.owner % 4], SEAT_PIP[b.owner % 4], "owned"));
          if (bossLot[info.id]) g.append(svg("text", { x: x + CELL / 2, y: y + 32, "text-anchor": "middle", class: "lv-crown" }, "♛"));
        } else {
          g.append(svg("text", { x: x + CELL / 2, y: y + 64, "text-anchor": "middle", class: "lv-nodie", fill: ink }, t("no die")));
        }
      } else {
        if (b.marker !== undefined && b.marker !== null) {
          g.append(svg("circle", { cx: x + CELL / 2, cy: y + 57, r: 29, fill: SEAT[b.marker % 4], stroke: "#1b1e24", "stroke-width": 2, class: "lv-marker" }));
        }
        // (the words before the die face: an accessible name follows the drawing's reading order)
        if (excluded) g.append(svg("text", { x: x + CELL / 2, y: y + CELL - 10, "text-anchor": "middle", class: "lv-unused" }, t("not used")));
        g.append(dieFace(x + CELL / 2 - 17, y + 40, 34, info.die, "#fffdf6", "#6b5d3f", "printed"));
      }
      if (mem.marks && mem.marks.lots.has(info.id)) {
        g.append(svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 8, class: "lv-just tt-just" + (ctx.follow && ctx.follow.fresh ? " tt-fresh" : "") }));
        g.classList.add("tt-touched");
      }
      const told = lotTitle(info, b, casinoOf[info.id], ctx);
      g.append(svg("title", {}, told));
      // the accessible name starts with the text drawn on the lot (a screen reader and a speech user say
      // what they see), then what the tooltip says
      const drawn = [...g.querySelectorAll("text")].map((n) => n.textContent).filter((s) => s !== "♛").join(" ");
      g.setAttribute("aria-label", t("{drawn}, die {die}. {told}", { drawn, die: info.die, told }));
      // the drawing inside is told by that name: hidden from assistive technology, so nothing is read twice
      for (const child of g.children) if (child.tagName !== "title") child.setAttribute("aria-hidden", "true");
      lotsLayer.append(g);
      // joins and outline of casinos
      if (b.tile && casinoOf[info.id]) {
        const c = casinoOf[info.id];
        const same = (col, row) => {
          const other = (W.lots || []).find((l) => l.col === col && l.row === row && l.block === info.block);
          return other && c.lots.includes(other.id) ? other : null;
        };
        if (same(info.col + 1, info.row)) joins.append(svg("rect", { x: x + CELL - 4, y: y + 3, width: 8, height: CELL - 6, fill: TILE[b.tile] }));
        if (same(info.col, info.row + 1)) joins.append(svg("rect", { x: x + 3, y: y + CELL - 4, width: CELL - 6, height: 8, fill: TILE[b.tile] }));
        const stroke = { stroke: "#111", "stroke-width": 5, "stroke-linecap": "round" };
        const x0 = x + 3, x1 = x + CELL - 3, y0 = y + 3, y1 = y + CELL - 3;
        if (!same(info.col, info.row - 1)) outlines.append(svg("line", { x1: x0, y1: y0, x2: x1, y2: y0, ...stroke }));
        if (!same(info.col, info.row + 1)) outlines.append(svg("line", { x1: x0, y1, x2: x1, y2: y1, ...stroke }));
        if (!same(info.col - 1, info.row)) outlines.append(svg("line", { x1: x0, y1: y0, x2: x0, y2: y1, ...stroke }));
        if (!same(info.col + 1, info.row)) outlines.append(svg("line", { x1, y1: y0, x2: x1, y2: y1, ...stroke }));
      }
    }
    root.append(lotsLayer, joins, outlines);
    return root;
  }

  function lotTitle(info, b, casino, ctx) {
    const parts = [t("{lot}: printed die {die}, price ${cost}", { lot: up(info.id), die: info.die, cost: info.cost }) + (info.strip ? t(", faces the Strip") : "")];
    if (b.tile) {
      const die = b.die || "?";
      parts.push(t("{colour} casino tile", { colour: cname(b.tile) }) + (b.owner === undefined ? t(", no die")
        : b.owner === ctx.seat ? t(", your die {value}", { value: die }) : t(", {name}'s die {value}", { name: seatName(ctx, b.owner), value: die })));
    } else if (b.marker !== undefined) parts.push(t("owned by {name}", { name: seatName(ctx, b.marker) }));
    if (casino && casino.boss !== null) parts.push(t("boss: {name}", { name: seatName(ctx, casino.boss) }));
    return parts.join("; ");
  }

  function clickLot(lot, entries) {
    const ctx = mem.lastCtx;
    if (ctx && ctx.act && entries.length === 1 && entries[0].direct) { ctx.act(entries[0].text); return; }
    mem.selected = mem.selected === lot && !entries.length ? null : lot;
    redraw();
    // on a phone the lot's panel is under the board: bring it into view
    const panel = mem.selected && window.innerWidth < 1000 && document.querySelector(".lv-lotpanel");
    if (panel) panel.scrollIntoView({ block: "nearest" });
  }

  // -- panels ----------------------------------------------------------------------------------------------
  function decisionPanel(payload, ctx) {
    const st = payload.state;
    const legal = new Set(ctx.legal || []);
    const me = ctx.seat;
    const box = el("div", { class: "lv-decision" });
    const who = seatName(ctx, st.active);
    const head = el("div", { class: "lv-turn" }, chip(st.active), st.active === me && st.phase === "action" && !payload.over ?
      t(" Turn {turn}: your turn", { turn: st.turn }) : t(" Turn {turn}: {who} {doing}", { turn: st.turn, who, doing: PHASE()[st.phase] || st.phase }));
    box.append(head);
    if (payload.result) {
      const r = payload.result;
      const order = [...st.players].sort((a, b) => r.ranks[a.seat] - r.ranks[b.seat] || a.seat - b.seat);
      box.append(el("div", { class: "result lv-result" }, t("Final standings"),
        el("table", { class: "grid" }, el("tr", {}, el("th", {}, t("Place")), el("th", {}, t("Player")), el("th", {}, t("Points")), el("th", {}, t("Money"))),
          order.map((p) => el("tr", { class: r.ranks[p.seat] === 1 ? "winner" : "", "data-seat": p.seat },
            el("td", {}, T.place(r, p.seat) + (r.ranks[p.seat] === 1 ? " ★" : "")), el("td", {}, chip(p.seat), " ", seatName(ctx, p.seat)),
            el("td", {}, String(p.score)), el("td", {}, "$" + p.money)))),
        el("p", { class: "hint" }, t("Most points wins; a tie goes to the one with more money."))));
      return box;
    }
    const act = ctx.act;
    const buttons = el("div", { class: "lv-buttons" });
    const big = (text, label, cls) => el("button", { class: "primary lv-big " + (cls || ""), type: "button", "data-move": text, onclick: () => act(text) }, label);
    if (st.phase === "layoff" && st.gamble) {
      const g = st.gamble;
      const fields = { gambler: seatName(ctx, g.gambler), bet: g.bet, boss: seatName(ctx, g.boss) };
      box.append(el("p", {}, (g.gambler === ctx.seat ? t("You bet ${bet} against {boss}'s casino. ", fields)
        : g.boss === ctx.seat ? t("{gambler} bets ${bet} against your casino. ", fields) : t("{gambler} bets ${bet} against {boss}'s casino. ", fields)) +
        t("3, 4, 9, 10, 11 win the bet; 2 and 12 win twice the bet; 5–8 lose it.")));
      if (act && legal.has("layoff")) {
        buttons.append(big("layoff", t("Lay off half to the bank (risk ${low}–${high})", { low: Math.floor(g.bet / 2), high: g.bet })),
          big("nolayoff", t("Cover the whole bet (risk ${low}–${high})", { low: g.bet, high: 2 * g.bet }), "secondary"));
      }
    } else if (st.phase === "place" && st.placing && st.placing.length) {
      const pl = st.placing[0];
      const mine = pl.seat === me && act;
      const fields = { value: pl.values[0], values: pl.values.join(", "), who: seatName(ctx, pl.seat), lots: pl.lots.map(up).join(", ") };
      box.append(el("p", {}, mine ? t("Click the tile that gets your highest re-rolled value, {value} (still to place: {values}).", fields)
        : pl.seat === me ? t("{who} place re-rolled values {values} on {lots}.", fields) : t("{who} places re-rolled values {values} on {lots}.", fields)));
    } else if ((st.phase === "pick_die" || st.phase === "free_lot") && st.decision) {
      const d = st.decision;
      const mine = d.seat === me && act;
      const fields = { lot: up(d.lot), who: seatName(ctx, d.seat) };
      const pick = st.phase === "pick_die";
      box.append(el("p", {}, mine ? (pick ? t("All 12 dice are out: click one of your dice to move it to {lot}.", fields) : t("All 10 markers are out: click one of your lots to free it for {lot}.", fields))
        : pick ? t("{who} must move a die for {lot}.", fields) : t("{who} must free a lot for {lot}.", fields)));
    } else if (st.phase === "offer" && st.offer) {
      const o = st.offer;
      box.append(el("div", { class: "lv-offer" }, el("strong", {}, o.by === me ? t("{who} offer:", { who: seatName(ctx, o.by) }) : t("{who} offers:", { who: seatName(ctx, o.by) })),
        el("ul", {}, describeItems(o.items, ctx).map((item) => el("li", {}, item))),
        el("span", { class: "hint" }, t("Waiting for {names}.", { names: o.waiting_for.map((s) => seatName(ctx, s)).join(", ") }))));
      if (act && legal.has("accept")) {
        buttons.append(big("accept", t("Accept")), big("refuse", t("Refuse"), "secondary"));
        if (canOffer(payload, ctx)) buttons.append(el("button", { class: "lv-big", type: "button", id: "lv-counter", onclick: () => openTrade(payload, ctx, o.by, o.items) }, t("Counter…")));
      }
    } else if (st.phase === "market") {
      const fields = { active: seatName(ctx, st.active), who: seatName(ctx, st.market[0]) };
      box.append(el("p", {}, st.active === me ? t("After your turn, {who} may offer a trade or pass.", fields) : t("After {active}'s turn, {who} may offer a trade or pass.", fields)));
      if (act && legal.has("pass")) buttons.append(big("pass", t("Pass (no offer)"), "secondary"));
    } else if (st.phase === "action" && st.active === me && act) {
      const left = (payload.options && payload.options.max_offers) - st.offers_made;
      const promised = st.promised.map((p) => (p.lot ? t("no {action} at {lot}", { action: PROMISE[p.action], lot: up(p.lot) }) : t("no {action}", { action: PROMISE[p.action] }))).join(", ");
      box.append(el("p", { class: "hint" }, t("Click a highlighted lot to build, sprawl, remodel, reorganize or gamble there.") +
        (st.gambled ? t(" You have gambled this turn.") : "") + (st.promised.length ? t(" Promised: {promises}.", { promises: promised }) : "") +
        (left >= 0 ? t(" Offers left this turn: {count}.", { count: left }) : "")));
    }
    if (act && canOffer(payload, ctx) && st.phase !== "offer") {
      buttons.append(el("button", { class: "lv-big", type: "button", id: "lv-trade-open", onclick: () => openTrade(payload, ctx) }, t("Propose a trade…")));
    }
    if (act && legal.has("end")) buttons.append(big("end", t("End turn"), "lv-end"));
    if (buttons.childNodes.length) box.append(buttons);
    const trade = lastTrade();
    if (trade && st.phase !== "offer") {
      const o = trade[0];
      const answers = trade.slice(1).map((e) => {
        if (e.kind === "trade_done") return t("done");
        const name = seatName(ctx, e.seat);
        if (e.kind === "accept") return e.seat === me ? t("you accept") : t("{name} accepts", { name });
        if (e.kind === "refuse") return e.seat === me ? t("you refuse") : t("{name} refuses", { name });
        if (e.kind === "counter") return e.seat === me ? t("you counter") : t("{name} counters", { name });
        return e.seat === me ? `you ${e.kind}` : `${name} ${e.kind}s`;
      });
      const fields = { who: o.seat === me ? t("you") : seatName(ctx, o.seat), items: describeItems(o.items, ctx).join("; "), answers: answers.join(", ") || t("waiting") };
      box.append(el("p", { class: "lv-lasttrade hint" }, o.seat === me ? t("Last offer, by you: {items} — {answers}.", fields) : t("Last offer, by {who}: {items} — {answers}.", fields)));
    }
    return box;
  }

  function canOffer(payload, ctx) {
    const st = payload.state;
    const me = ctx.seat;
    if (me === null || me === undefined || !ctx.act) return false;
    const max = payload.options ? payload.options.max_offers : 3;
    if (st.offers_made >= max) return false;
    if (st.phase === "action") return st.active === me && (ctx.legal || []).includes("end");
    if (st.phase === "offer") return st.offer && st.offer.waiting_for.includes(me);
    if (st.phase === "market") return st.market && st.market[0] === me;
    return false;
  }

  function lotPanel(payload, ctx, moves) {
    const lot = mem.selected;
    if (!lot || !LOT[lot]) return el("div", { class: "lv-lotpanel hint" }, ctx.act ? t("Click a lot to see it and what you can do there.") : t("Click a lot to see it."));
    const st = payload.state;
    const info = LOT[lot];
    const b = st.board.find((x) => x.lot === lot) || {};
    const casino = moves.casinoOf[lot];
    const entries = (ctx.act && moves.byLot[lot]) || [];
    const box = el("div", { class: "lv-lotpanel" });
    box.append(el("h3", {}, up(lot), el("small", {}, t(" printed die {die} · price ${cost}", { die: info.die, cost: info.cost }) + (info.strip ? t(" · faces the Strip") : "")),
      el("button", { class: "small lv-close", type: "button", onclick: () => { mem.selected = null; redraw(); } }, "×")));
    const undrawn = (st.undrawn_lots || []).includes(lot);
    const facts = [];
    if (info.pays === "strip") facts.push(undrawn ? t("Its card pays the Strip and is still in the deck.") : t("Its card pays the Strip and is already drawn."));
    else facts.push(undrawn ? t("Its card pays {colour} and is still in the deck.", { colour: cname(info.pays) }) : t("Its card pays {colour} and is already drawn.", { colour: cname(info.pays) }));
    if (b.tile) {
      const fields = { colour: cname(b.tile), name: b.owner === undefined ? "" : seatName(ctx, b.owner), value: b.die || t("? (being placed)") };
      facts.push(b.owner === undefined ? t("A {colour} tile without a die.", fields)
        : b.owner === ctx.seat ? t("A {colour} tile with your die showing {value}.", fields) : t("A {colour} tile with {name}'s die showing {value}.", fields));
    } else if (b.marker !== undefined) {
      facts.push(b.marker === ctx.seat ? t("{name} own this lot (marker).", { name: seatName(ctx, b.marker) }) : t("{name} owns this lot (marker).", { name: seatName(ctx, b.marker) }));
    } else facts.push(t("Nobody owns it."));
    box.append(el("p", {}, facts.join(" ")));
    if (casino) box.append(casinoFacts(casino, st, ctx));
    // actions
    const groups = {};
    entries.forEach((e) => (groups[e.kind] = groups[e.kind] || []).push(e));
    const acts = el("div", { class: "lv-actions" });
    const verbs = { build: t("Build (${cost})", { cost: info.cost }), sprawl: t("Sprawl (${cost})", { cost: 2 * info.cost }),
      remodel: casino ? t("Remodel (${cost})", { cost: 5 * casino.size }) : t("Remodel") };
    for (const kind of ["build", "sprawl", "remodel"]) {
      if (!groups[kind]) continue;
      acts.append(el("div", { class: "lv-actrow" }, el("span", { class: "lv-verb" }, verbs[kind]),
        groups[kind].map((e) => el("button", { class: "lv-color", type: "button", "data-move": e.text, style: `background:${TILE[e.color]};color:${TILE_INK[e.color]}`,
          onclick: () => { ctx.act(e.text); } }, cname(e.color)))));
    }
    if (groups.reorg) {
      const pips = casino ? casino.lots.reduce((s, l) => s + ((st.board.find((x) => x.lot === l) || {}).die || 0), 0) : 0;
      acts.append(el("div", { class: "lv-actrow" }, el("button", { class: "primary", type: "button", "data-move": groups.reorg[0].text, onclick: () => ctx.act(groups.reorg[0].text) },
        t("Reorganize: re-roll all {count} dice (${cost})", { count: casino ? casino.lots.filter((l) => (st.board.find((x) => x.lot === l) || {}).owner !== undefined).length : "", cost: pips }))));
    }
    if (groups.gamble) acts.append(gambleControl(groups.gamble[0], casino, st, ctx));
    // offers about this lot (the listed ones), and a dialog to make any other
    const related = moves.offers.filter((text) => itemsOfOffer(text).some((it) => it.kind === "lot" && it.value === lot));
    related.forEach((text) => acts.append(el("div", { class: "lv-actrow" }, el("button", { type: "button", "data-move": text, onclick: () => ctx.act(text) },
      t("Offer: {items}", { items: describeItems(itemsOfOffer(text), ctx).join("; ") })))));
    if (canOffer(payload, ctx) && (b.marker !== undefined || b.owner !== undefined)) {
      const owner = b.marker !== undefined ? b.marker : b.owner;
      if (owner !== ctx.seat) {
        acts.append(el("div", { class: "lv-actrow" }, el("button", { type: "button", class: "lv-buylot", onclick: () => {
          const draft = newDraft(payload, ctx, owner);
          if (b.marker !== undefined) draft.ask.lots.add(lot); else draft.ask.dice.add(lot);
          draft.give.money = b.marker !== undefined ? info.cost : 0;
          openTrade(payload, ctx, owner, null, draft);
        } }, b.marker !== undefined ? t("Ask {name} for this lot…", { name: seatName(ctx, owner) }) : t("Ask {name} for this die…", { name: seatName(ctx, owner) }))));
      }
    }
    if (acts.childNodes.length) box.append(acts);
    else if (ctx.act && st.phase === "action" && st.active === ctx.seat) box.append(el("p", { class: "hint" }, t("Nothing you can do here now.")));
    return box;
  }

  function casinoFacts(c, st, ctx) {
    const dice = {};
    c.lots.forEach((l) => { const b = st.board.find((x) => x.lot === l) || {}; if (b.owner !== undefined) dice[b.owner] = (dice[b.owner] || 0) + (b.die || 0); });
    const pay = Object.entries(dice).map(([s, pips]) => `${seatName(ctx, Number(s))} $${pips}`).join(", ");
    let score = t("nobody scores (no boss)");
    if (c.boss !== null && c.boss !== undefined) {
      const from = st.players[c.boss].score, to = advance(from, c.size);
      const fields = { name: seatName(ctx, c.boss), size: c.size, from, to };
      score = (c.boss === ctx.seat ? t("you (boss) score {size}: {from} → {to}", fields) : t("{name} (boss) scores {size}: {from} → {to}", fields)) +
        (to - from < c.size ? t(" ({count} lost in the track's gap)", { count: c.size - (to - from) }) : "");
    }
    const cards = (st.cards_left || {})[c.color] || 0;
    const colour = cname(c.color), lots = c.lots.map(up).join(", ");
    const noDice = t("no dice");
    const strip = c.strip ? t(" + {count} Strip", { count: (st.cards_left || {}).strip || 0 }) : "";
    return el("p", { class: "lv-casino-facts" }, swatch(c.color),
      (c.size > 1 ? t(" {colour} casino, {size} tiles ({lots})", { colour, size: c.size, lots }) : t(" {colour} casino, {size} tile ({lots})", { colour, size: c.size, lots })) +
        (c.strip ? t(", on the Strip") : "") + ". ",
      t("When it pays: {pay}; {score}.", { pay: pay || noDice, score }) + " " +
        (cards === 1 ? t("{count} {colour} card left{strip}.", { count: cards, colour, strip }) : t("{count} {colour} cards left{strip}.", { count: cards, colour, strip })));
  }

  function gambleControl(entry, casino, st, ctx) {
    const boss = casino ? casino.boss : null;
    const bossMoney = boss !== null && boss !== undefined ? st.players[boss].money : 0;
    const cover = Math.max(1, Math.min(entry.top, bossMoney));
    const key = entry.first;
    let bet = Math.min(mem.bet[key] || Math.min(5, cover), cover);
    const label = el("span", { class: "lv-betvalue" });
    const odds = el("small", { class: "hint" });
    const button = el("button", { class: "primary", type: "button", id: "lv-bet" });
    const update = () => {
      label.textContent = "$" + bet;
      odds.textContent = t("win ${bet} on 3, 4, 9, 10, 11 · ${double} on 2 or 12 · lose ${bet} on 5–8. The boss has ${money}", { bet, double: 2 * bet, money: bossMoney }) +
        (cover < entry.top ? t("; bets up to ${top} are in the move list.", { top: entry.top }) : ".");
      button.dataset.move = `gamble ${key} ${bet}`;
      button.textContent = t("Bet ${bet}", { bet });
    };
    const slider = el("input", { type: "range", min: 1, max: cover, step: 1, value: bet, class: "lv-slider", "aria-label": t("bet"),
      oninput: (e) => { bet = Number(e.target.value); mem.bet[key] = bet; update(); },
      onchange: (e) => { bet = Number(e.target.value); mem.bet[key] = bet; update(); } });
    button.onclick = () => ctx.act(`gamble ${key} ${bet}`);
    update();
    return el("div", { class: "lv-actrow lv-gamble" }, el("span", { class: "lv-verb" }, t("Gamble against {name}", { name: seatName(ctx, boss) })), slider, label, button, odds);
  }

  function playersPanel(payload, ctx) {
    const st = payload.state;
    const bosses = {};
    (st.casinos || []).forEach((c) => { if (c.boss !== null) bosses[c.boss] = (bosses[c.boss] || 0) + 1; });
    return el("div", { class: "lv-players" }, st.players.map((p) => el("div", {
      class: "lv-player" + (p.seat === st.active ? " active" : "") + (p.seat === ctx.seat ? " me" : ""), "data-seat": p.seat },
      el("div", { class: "lv-pname" }, chip(p.seat), " ", seatName(ctx, p.seat), p.seat === st.active && !payload.over ? el("span", { class: "lv-turnmark" }, t(" ▶ turn")) : null),
      el("div", { class: "lv-pstats" },
        el("span", { class: "lv-money", title: t("money") }, "$" + p.money),
        el("span", { title: t("points") }, el("b", {}, String(p.score)), t(" pts")),
        el("span", { title: t("dice left in hand") }, t("dice {left}/{all}", { left: p.dice_left, all: W.dice_per_player || 12 })),
        el("span", { title: t("lot markers left") }, t("markers {left}/{all}", { left: p.markers_left, all: W.markers_per_player || 10 })),
        el("span", { title: t("casinos run") }, `♛ ${bosses[p.seat] || 0}`)),
      followMarks(p.seat, ctx))));
  }
  function followMarks(seat, ctx) {
    const marks = mem.marks;
    const fol = ctx.follow || {};
    const fresh = fol.fresh ? " tt-fresh" : "";
    const parts = [];
    const money = marks && marks.money[seat];
    const points = marks && marks.points[seat];
    if (money) parts.push(el("span", { class: "tt-delta " + (money > 0 ? "plus" : "minus") + fresh, "data-amount": money, title: t("money this step") }, (money > 0 ? "+$" : "−$") + Math.abs(money)));
    if (points) parts.push(el("span", { class: "tt-delta plus tt-points" + fresh, "data-points": points, title: t("points this step") }, t("+{count} pts", { count: points })));
    const last = (fol.last || {})[seat];
    return [parts.length ? el("div", { class: "lv-deltas" }, parts) : null,
      last ? el("p", { class: "tt-last-turn", "data-seat": seat }, el("strong", {}, t("Last turn: ")), last) : null];
  }

  function trackPanel(payload, ctx) {
    const st = payload.state;
    const track = W.score_track || [];
    const narrow = mem.host && mem.host.clientWidth && mem.host.clientWidth < 560;
    const perRow = Math.ceil(track.length / (narrow ? 3 : 2));
    const SQ = 42, GAP = 14;
    const root = svg("svg", { viewBox: `0 0 ${perRow * (SQ + GAP) + 10} ${Math.ceil(track.length / perRow) * (SQ + 34) + 6}`, class: "lv-track", role: "img", "aria-label": t("the score track") });
    const preview = mem.selected && previewFor(payload);
    const pos = {};
    track.forEach((v, i) => {
      const row = Math.floor(i / perRow), k = i % perRow;
      const x = 6 + k * (SQ + GAP), y = 6 + row * (SQ + 34);
      pos[v] = [x, y];
      const next = track[i + 1];
      root.append(svg("rect", { x, y, width: SQ, height: SQ, rx: 6, class: "lv-square" + (v === W.instant_win ? " win" : ""), "data-square": v }));
      root.append(svg("text", { x: x + SQ / 2, y: y + SQ / 2 + 6, "text-anchor": "middle", class: "lv-sqnum" }, String(v)));
      if (next !== undefined && (i + 1) % perRow !== 0) {
        const step = next - v;
        root.append(svg("text", { x: x + SQ + GAP / 2, y: y + SQ / 2 + 4, "text-anchor": "middle", class: "lv-gap" + (step > 1 ? " big" : "") }, step > 1 ? "+" + step : "›"));
      }
    });
    const stacks = {};
    st.players.forEach((p) => {
      const at = pos[p.score] || pos[track[0]];
      const k = (stacks[p.score] = (stacks[p.score] || 0) + 1) - 1;
      root.append(svg("circle", { cx: at[0] + 9 + k * 9, cy: at[1] + SQ + 10, r: 8, fill: SEAT[p.seat % 4], stroke: "#1b1e24", "stroke-width": 1.5, class: "lv-pawn", "data-seat": p.seat },
        svg("title", {}, t("{name}: {count} points", { name: seatName(ctx, p.seat), count: p.score }))));
    });
    if (preview && preview.to !== preview.from && pos[preview.to]) {
      const at = pos[preview.to];
      root.append(svg("rect", { x: at[0] - 3, y: at[1] - 3, width: SQ + 6, height: SQ + 6, rx: 8, fill: "none", stroke: "#f97316", "stroke-width": 3.5, "stroke-dasharray": "7 4", class: "lv-preview" }),
        svg("circle", { cx: at[0] + SQ - 9, cy: at[1] + SQ + 10, r: 8, fill: SEAT[preview.seat % 4], stroke: "#f97316", "stroke-width": 2, "stroke-dasharray": "3 2", opacity: 0.8 }));
    }
    const fields = preview && { colour: cname(preview.color), lot: up(preview.casino), name: seatName(ctx, preview.seat), from: preview.from, to: preview.to };
    const legend = preview ? el("p", { class: "hint" }, (preview.seat === ctx.seat ? t("Preview: if the {colour} casino at {lot} paid now, You would move {from} → {to}", fields)
      : t("Preview: if the {colour} casino at {lot} paid now, {name} would move {from} → {to}", fields)) +
      (preview.lost ? (preview.lost > 1 ? t(" ({count} points lost in a gap).", { count: preview.lost }) : t(" ({count} point lost in a gap).", { count: preview.lost })) : ".")) :
      el("p", { class: "hint" }, t("Gaps after 8: a marker only crosses a gap when one casino's points pay for it (select a casino to preview)."));
    return el("div", { class: "lv-trackbox" }, el("h3", {}, t("Score track")), root, legend);
  }

  function previewFor(payload) {
    const st = payload.state;
    const c = (st.casinos || []).find((x) => x.lots.includes(mem.selected));
    if (!c || c.boss === null || c.boss === undefined) return null;
    const from = st.players[c.boss].score, to = advance(from, c.size);
    let gained = 0; const track = W.score_track; let i = track.indexOf(from);
    while (track[i] < to) { gained += track[i + 1] - track[i]; i += 1; }
    return { seat: c.boss, from, to, lost: c.size - gained, color: c.color, casino: c.lots[0] };
  }

  function supplyPanel(payload) {
    const st = payload.state;
    const tiles = el("div", { class: "lv-chips" }, (W.colors || []).map((c) => el("span", { class: "lv-chip", title: t("{colour} tiles left", { colour: cname(c) }) }, swatch(c), ` ${cname(c)} ${st.tiles_left[c]}`)));
    const cards = el("div", { class: "lv-chips" }, Object.entries(st.cards_left || {}).map(([k, n]) => el("span", { class: "lv-chip", title: t("{colour} cards left", { colour: cname(k) }) }, swatch(k),
      ` ${k === "strip" ? (W.names ? W.names.strip : "Strip") : cname(k)} ${n}`)));
    const ge = st.cards_before_game_end;
    return el("div", { class: "lv-supply" },
      el("h3", {}, t("Supply")),
      el("div", {}, el("span", { class: "lv-label" }, t("Tiles left")), tiles),
      el("div", {}, el("span", { class: "lv-label" }, t("Cards left")), cards),
      el("p", { class: "lv-deck" }, st.deck_size === 1 ? t("Deck: {count} card. ", { count: st.deck_size }) : t("Deck: {count} cards. ", { count: st.deck_size }),
        ge === null || ge === undefined ? el("b", {}, t("Game End has been drawn.")) : el("b", {}, ge === 1 ? t("Game End lies under {count} card: {count} more draw before it.", { count: ge })
          : t("Game End lies under {count} cards: {count} more draws before it.", { count: ge }))));
  }

  function drawPanel(payload, ctx) {
    const list = lastDraw();
    if (!list || !list.length) return null;
    const first = list.find((e) => e.kind === "draw" || e.kind === "draw_game_end") || list[0];
    const pays = first.pays;
    const card = el("div", { class: "lv-drawncard", style: `background:${TILE[pays] || "#f4c430"};color:${TILE_INK[pays] || "#2b1d00"}` },
      first.kind === "draw_game_end" ? t("GAME END") : up(first.lot), el("small", {}, first.kind === "draw_game_end" ? t("Strip pays") : pays === "strip" ? t("Strip") : cname(pays)));
    const items = list.filter((e) => e !== first).map((e) => el("li", {}, mem.texts.get(e.i) || e.kind));
    const drawn = first.kind === "draw_game_end" ? t("Game End") : up(first.lot);
    return el("div", { class: "lv-draw" }, el("h3", {}, t("Last draw")), el("div", { class: "lv-drawrow" }, card,
      el("div", {}, el("p", {}, first.seat === ctx.seat ? t("You drew {card}.", { card: drawn }) : t("{name} drew {card}.", { name: seatName(ctx, first.seat), card: drawn })), el("ul", { class: "lv-paid" }, items))));
  }

  function casinosPanel(payload, ctx) {
    const st = payload.state;
    if (!(st.casinos || []).length) return null;
    const rows = [...st.casinos].sort((a, b) => b.size - a.size).map((c) => {
      let score = "—";
      if (c.boss !== null && c.boss !== undefined) {
        const from = st.players[c.boss].score, to = advance(from, c.size);
        score = `${from}→${to}`;
      }
      return el("tr", { class: mem.selected && c.lots.includes(mem.selected) ? "on" : "", onclick: () => { mem.selected = c.lots[0]; redraw(); } },
        el("td", {}, swatch(c.color), " ", cname(c.color)), el("td", {}, c.lots.map(up).join(" "), c.strip ? el("span", { class: "lv-onstrip", title: t("on the Strip") }, " ★") : null),
        el("td", {}, String(c.size)), el("td", {}, c.boss === null || c.boss === undefined ? "—" : [chip(c.boss), " ", shortName(ctx, c.boss)]), el("td", {}, score));
    });
    return el("div", { class: "lv-casinos" }, el("h3", {}, t("Casinos")), el("table", { class: "grid" },
      el("tr", {}, [t("Colour"), t("Lots (★ Strip)"), t("Tiles"), t("Boss"), t("Scores")].map((h) => el("th", {}, h))), rows));
  }

  // -- render --------------------------------------------------------------------------------------------------
  function redraw() { if (mem.lastPayload) paint(mem.lastPayload, mem.lastCtx); }

  function paint(payload, ctx) {
    const st = payload.state;
    mem.marks = stepMarks(ctx.follow && ctx.follow.step);
    const shown = ctx.follow && ctx.follow.playing && ctx.follow.step && ctx.follow.step.events;
    mem.upTo = shown && shown.length ? shown[shown.length - 1].i + 1 : Infinity;
    const moves = parseLegal(ctx.legal || [], st);
    if (mem.selected && !LOT[mem.selected]) mem.selected = null;
    const map = el("div", { class: "lv-mapbox" }, drawBoard(payload, ctx, moves),
      el("div", { class: "lv-legend" }, el("span", {}, el("i", { class: "lv-k strip" }), t(" faces the Strip")), el("span", {}, t("♛ boss")),
        el("span", {}, el("i", { class: "lv-k card" }), t(" card still in the deck (its colour)")), el("span", {}, el("i", { class: "lv-k marker" }), t(" lot marker"))));
    const side = el("div", { class: "lv-side-col" }, lotPanel(payload, ctx, moves), playersPanel(payload, ctx));
    mem.main.replaceChildren(decisionPanel(payload, ctx, moves), followRow(payload, ctx, mem.marks) || "",
      el("div", { class: "lv-layout" }, map, side),
      trackPanel(payload, ctx),
      el("div", { class: "lv-lower" }, drawPanel(payload, ctx), supplyPanel(payload, ctx), casinosPanel(payload, ctx)));
    // the dialog is drawn again only when it must close (typing in it survives live pushes)
    if (mem.tradeOpen && !canOffer(payload, ctx)) drawDialog();
  }

  function render(container, payload, ctx) {
    words();
    const st = payload.state;
    if (!st || !st.board || !W.lots) { T.board("generic").render(container, payload, ctx); mem.host = null; return; }
    if (mem.host !== container || !container.contains(mem.main)) {
      mem.host = container;
      mem.main = el("div", { class: "lv-main" });
      mem.dialog = el("div", { class: "lv-dialoghost", hidden: true });
      container.replaceChildren(mem.main, mem.dialog);
    }
    absorb(payload);
    mem.lastPayload = payload;
    // a redraw (a resize) shows the step again without its animations
    mem.lastCtx = ctx.follow && ctx.follow.fresh ? { ...ctx, follow: { ...ctx.follow, fresh: false } } : ctx;
    paint(payload, ctx);
  }

  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && mem.tradeOpen) { mem.tradeOpen = false; drawDialog(); } });
  let resizing = null;
  window.addEventListener("resize", () => { clearTimeout(resizing); resizing = setTimeout(redraw, 120); });
  // A hot-seat hand-over: forget everything of the seat shown.
  function reset() {
    Object.assign(mem, { table: null, events: new Map(), texts: new Map(), selected: null, lastPayload: null, lastCtx: null,
      trade: null, tradeOpen: false, host: null, main: null, dialog: null, bet: {}, marks: null, upTo: Infinity });
  }
  // The end in Lords of Vegas' terms: points on the score track, money as the tie-break.
  function outcome(payload) {
    const st = payload.state, r = payload.result;
    if (!st || !st.players || !r || !r.winners.length) return null;
    const top = st.players[r.winners[0]];
    const money = r.winners.length === 1 && st.players.some((p) => p.seat !== top.seat && p.score === top.score);
    return { detail: t("{count} points", { count: top.score }) + (money ? t(", and more money (${money}) at the same points.", { money: top.money }) : ".") };
  }

  T.registerBoard("lordsofvegas", { render, reset, outcome, describeMove, follow });
})();
