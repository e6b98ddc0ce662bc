// Welcome To New Las Vegas: the whole city plan and score sheet as SVG, a round in clicks, the other
// architects' sheets read-only, who is still choosing, and ACME in solo.
//
// A round is composed here, in the browser: the engine applies every step at once, so to let the
// player undo until they confirm, the steps are played on a local copy of their sheet (the same step
// rules as rules.py's step_actions / play_step) and sent as one Plan in notation ("a, 2.5, con 3.6")
// when they confirm. The engine checks the whole plan; nothing is sent before, so nothing leaks.
// Data from the seat's view (payload.state); printed facts and words from the page's board words.
"use strict";
(function () {
  const T = window.Tabletown;
  const { el } = T;
  const NS = "http://www.w3.org/2000/svg";
  const UP_LABEL = {
    open: ["Opening", "rank 10/5/2 → 15/8/0"], grand: ["Grand", "grand hotel"], small: ["Small", "small hotel"],
    street: ["Street", "street bonus"], par3: ["PAR 3", "per hole"], par4: ["PAR 4", "per hole"], par5: ["PAR 5", "per hole"],
    vip: ["VIP", "per VIP casino"], luxury: ["Luxury", "per Luxury casino"], limo: ["Limo", "per missing segment"],
  };
  const EFFECT_SHORT = { op: "Opening", con: "Construction", up: "Upgrade", show: "Show", limo: "Limousine" };
  const EFFECT_HELP = {
    op: "mark the next opening box", con: "cross out a crane: that casino is built",
    up: "cross a yellow box of one column", show: "if the casino has a star: cross a show box",
    limo: "drive one segment to a neighbouring lamp",
  };
  const CARPET_LETTER = { vip: "V", mafia: "M", luxury: "L" };
  const COLUMNS = ["projects", "opening", "shows", "hotels", "streets", "golf", "limousine", "vault"];
  const DIR_WORD = { n: "north", s: "south", e: "east", w: "west" };

  let W = null; // board words
  let G = null; // geometry derived from the words
  const store = { who: null, events: new Map(), drafts: new Map(), viewing: null, soloNumber: null, bonus: "", easy: null, copyAt: null, sending: false, zoom: false };

  // -- helpers ---------------------------------------------------------------------------------------
  function s(tag, attrs, ...children) {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  const title = (text) => s("title", {}, text);
  // Casinos and lamps in the words of the sheet: "4.11" is typed, "street 4, avenue 11" is read.
  function slotWords(id) {
    const [street, avenue] = String(id).split(".");
    return avenue ? `street ${street}, avenue ${avenue}` : String(id);
  }
  function lampWords(lamp) {
    const street = Math.floor(lamp / G.nc) + 1, c = W.lamp_columns[lamp % G.nc];
    if (lamp === W.start_lamp) return "the airport";
    if (c === 0) return `the lamp at the start of street ${street}`;
    if (c >= W.avenues) return `the lamp at the end of street ${street}`;
    return `the lamp on street ${street} after avenue ${c}`;
  }

  function geometry() {
    const slots = W.slots;
    const idx = {};
    slots.forEach((slot, i) => { idx[slot.id] = i; });
    const nc = W.lamp_columns.length;
    const links = W.lamp_names.map(() => []);
    W.edges.forEach((e, k) => {
      if (Math.floor(e.u / nc) === Math.floor(e.v / nc)) {
        links[e.u].push({ dir: "e", edge: k, to: e.v });
        links[e.v].push({ dir: "w", edge: k, to: e.u });
      } else {
        links[e.u].push({ dir: "s", edge: k, to: e.v });
        links[e.v].push({ dir: "n", edge: k, to: e.u });
      }
    });
    const streetOf = slots.map((slot) => slot.street - 1);
    return { idx, nc, links, streetOf, golf: W.streets[0] };
  }

  // -- a sheet as data (from the server's views and drafts; the rules stay on the server) -------------
  function fromView(v) {
    const ix = (names) => new Set((names || []).map((n) => G.idx[n]));
    const sh = {
      nums: v.numbers.map((x) => (x === null ? -1 : x)), built: ix(v.cranes_built), starOk: ix(v.stars_circled),
      starX: ix(v.stars_crossed), carpets: ix(v.carpets_passed), shows: v.shows.slice(), ups: Object.assign({}, v.upgrades),
      marks: v.opening_marked, unused: v.opening_unused, spent: new Set((v.groups_spent || []).map((g) => g - 1)),
      exp: new Set((v.groups_expansion || []).map((g) => g - 1)), lamp: v.limousine.at,
      edges: new Set(v.limousine.edges), done: v.limousine.complete, hotels: v.hotels.slice(), projects: v.projects.slice(),
      vault: v.vault, loans: v.open_loans, golfL: -1, golfR: -1, golfLB: false, golfRB: false,
    };
    sh.ready = W.groups.map((g, k) => k).filter((k) => sh.marks >= W.groups[k][1] && !sh.spent.has(k)); // bracket complete, unspent
    deriveGolf(sh, v.golf);
    return sh;
  }
  function parsOf(a, b) { const out = []; for (let i = a; i <= b; i++) out.push(...W.slots[i].holes); return out; }
  function same(x, y) { return x.length === y.length && x.every((v, k) => v === y[k]); }
  function deriveGolf(sh, golf) {
    // The view lists the holes built and crossed (PAR values): find the street-1 casinos they lie over.
    const [a, b] = G.golf;
    for (let l = a; l < b; l++) {
      for (let r = l; r < b && sh.nums[r] >= 0; r++) {
        if (!same(parsOf(l, r), golf.holes)) continue;
        for (const lb of [false, true]) for (const rb of [false, true]) {
          const crossed = [...(lb ? parsOf(a, l - 1) : []), ...(rb ? parsOf(r + 1, b - 1) : [])];
          if (same(crossed, golf.crossed)) { Object.assign(sh, { golfL: l, golfR: r, golfLB: lb, golfRB: rb }); return; }
        }
      }
    }
  }
  function golfStatus(sh) {
    // per street-1 slot: "built", "crossed" or "" for its holes
    const [a, b] = G.golf;
    const out = {};
    for (let i = a; i < b; i++) {
      if (sh.golfL >= 0 && i >= sh.golfL && i <= sh.golfR) out[i] = "built";
      else if ((sh.golfLB && i < sh.golfL) || (sh.golfRB && i > sh.golfR)) out[i] = "crossed";
      else out[i] = "";
    }
    return out;
  }
  const isBuilt = (sh, i) => !W.slots[i].crane || sh.built.has(i);
  // ACME's pile counted by effect (solo): what its panel lists beside the server's values.
  function acmeCounts(st) {
    const pile = st.acme.pile;
    return (e) => pile.filter((x) => x === e).length;
  }

  // -- the round being composed ------------------------------------------------------------------------
  // Each click asks the server where the steps so far lead (ctx.draft: the sheet, the next steps on
  // offer, the score now); the answers are kept per prefix, so Undo needs no request.
  function draftFor(payload, me, ctx) {
    const st = payload.state;
    const entry = st.players[me];
    if (!entry || !entry.turn) return null;
    const key = [payload.table, me, st.round, st.phase, entry.turn.step, entry.turn.steps.length].join("|");
    let d = store.drafts.get(me);
    if (!d || d.key !== key) {
      d = { key, baseSheet: fromView(entry.sheet), steps: [], answers: [], waiting: false, error: "" };
      store.drafts.set(me, d);
      store.soloNumber = null; store.easy = null; store.copyAt = null; store.bonus = "";
      ask(d, me, ctx);
    }
    return d;
  }
  function current(d) { return d.answers[d.steps.length] || null; }
  async function ask(d, me, ctx) {
    const texts = d.steps.map((o) => o.text);
    if (current(d) || !ctx.draft) { settle(d); return; }
    d.waiting = true;
    const response = await ctx.draft(texts);
    if (store.drafts.get(me) !== d) return; // handed over or a new round meanwhile: forget the answer
    d.waiting = false;
    if (response && response.ok) {
      d.answers[texts.length] = response.data;
      d.error = "";
    } else {
      // refused or unreachable: take the step back and say why
      d.steps = d.steps.slice(0, Math.max(0, d.answers.length - 1));
      d.error = response && response.data && response.data.message ? response.data.message : "The server did not answer; try again.";
    }
    settle(d);
    if (store.last) render(...store.last);
  }
  function settle(d) {
    const a = current(d);
    if (!a) return;
    d.sh = fromView(a.sheet);
    d.turn = turnFromView(a.turn);
    d.options = a.options;
    d.score = a.score_now;
  }
  function choose(st, d, o, rerender) {
    if (d.waiting) return;
    d.steps.push(o);
    d.answers.length = d.steps.length; // answers beyond a changed step no longer hold
    store.soloNumber = null; store.easy = null; store.copyAt = null;
    if (o.kind === "pick") store.bonus = "";
    ask(d, store.me, store.ctx);
    rerender();
  }
  function undo(st, d, all, rerender) {
    if (d.waiting) return;
    if (all) d.steps = []; else d.steps.pop();
    store.soloNumber = null; store.easy = null; store.copyAt = null;
    d.error = "";
    settle(d);
    rerender();
  }

  function turnFromView(t) {
    const idx = (n) => (n ? G.idx[n] : -1);
    return {
      stage: t.step, i: t.combination[0], j: t.combination[1], num: t.number, eff: t.effect, bonus: t.bonus,
      main: idx(t.opened), copy: idx(t.copied), refused: t.steps.some((x) => x.step === "refuse"), steps: t.steps,
    };
  }

  // -- the last round, on the sheets ------------------------------------------------------------------
  // The last round resolved: every seat's steps from its round_played events (public once the round
  // resolves), kept on the sheets until the next round resolves.
  function lastRound() {
    const list = [...store.events.values()].map((x) => x.e).sort((a, b) => a.i - b.i);
    let end = -1;
    list.forEach((e, k) => { if (e.kind === "round_played") end = k; });
    if (end < 0) return null;
    let start = end;
    while (start > 0 && list[start - 1].kind !== "round" && list[start - 1].kind !== "round_solo") start--;
    const head = list[start - 1];
    const bySeat = new Map();
    for (let k = start; k <= end; k++) if (list[k].kind === "round_played") bySeat.set(list[k].seat, list[k].steps || []);
    return { round: head ? head.round : null, bySeat, key: list[end].i };
  }
  const effectOf = (x) => (x.step === "effect" ? x.effect : null); // a pick names its effect too
  const NO_LAST = { slots: new Set(), cranes: new Set(), marks: [0, 0], shows: {}, ups: {}, edges: new Set() };
  // What a round's steps left on a sheet: the casinos opened, the cranes crossed, the opening, show and
  // upgrade boxes marked ([from, to) counts) and the limousine segments drawn. ``later``: steps the sheet
  // already holds after that round (the seat's own round locked in or being composed), taken off first.
  function lastMarks(sh, steps, later) {
    if (!steps) return NO_LAST;
    const count = (list, f) => list.reduce((n, x) => n + f(x), 0);
    const opening = (x) => (effectOf(x) === "op" ? 1 : x.step === "refuse" ? (x.marks || 2) : 0);
    const marks = sh.marks - count(later, opening);
    const out = { slots: new Set(), cranes: new Set(), marks: [marks - count(steps, opening), marks], shows: {}, ups: {}, edges: new Set() };
    for (const x of steps) {
      const i = G.idx[x.slot];
      if (i === undefined) continue;
      if (x.step === "open" || x.step === "expand") out.slots.add(i);
      if (effectOf(x) === "con") { out.slots.add(i); out.cranes.add(i); }
    }
    const span = (effect, column, have) => {
      const n = (list) => count(list, (x) => (effectOf(x) === effect && x.column === column ? 1 : 0));
      const to = have - n(later);
      return [to - n(steps), to];
    };
    W.show_values.forEach((v, c) => { out.shows[c] = span("show", c + 1, sh.shows[c]); });
    W.upgrades.forEach((u) => { out.ups[u.id] = span("up", u.id, sh.ups[u.id]); });
    // the limousine: walk back from where it stands, over the later steps, then over the round's
    const BACK = { n: "s", s: "n", e: "w", w: "e" };
    let at = sh.lamp;
    const walk = (list, keep) => {
      for (const x of [...list].reverse()) {
        if (effectOf(x) !== "limo") continue;
        const link = G.links[at].find((l) => l.dir === BACK[x.direction]);
        if (!link) return false;
        if (keep) out.edges.add(link.edge);
        at = link.to;
      }
      return true;
    };
    if (walk(later, false)) walk(steps, true);
    return out;
  }
  const inSpan = (span, k) => !!span && k >= span[0] && k < span[1];
  // A seat's last round in a few words, for its chip in the players panel.
  function roundSummary(steps) {
    const bits = [];
    for (const x of steps) {
      if (x.step === "pick" && x.bonus) bits.push(W.bonuses[x.bonus]);
      else if (x.step === "refuse") bits.push("no number fitted: 2 opening boxes");
      else if (x.step === "open") bits.push(`${x.number} on ${slotWords(x.slot)}`);
      else if (x.step === "expand") bits.push(`copied ${x.number} to ${slotWords(x.slot)}`);
      else if (effectOf(x) === "con") bits.push("built a crane casino");
      else if (effectOf(x) === "op") bits.push("an opening box");
      else if (effectOf(x) === "up") bits.push(`upgraded ${UP_LABEL[x.column] ? UP_LABEL[x.column][0] : x.column}`);
      else if (effectOf(x) === "show") bits.push("a show");
      else if (effectOf(x) === "limo") bits.push(`limousine ${DIR_WORD[x.direction] || x.direction}`);
    }
    return bits.join(" · ") || "nothing";
  }

  // -- drawing: the city plan ------------------------------------------------------------------------
  const LX = 30, CW = 56, CH = 50, RH = 24, Y0 = 48;
  const rowY = (st) => Y0 + st * (CH + RH);
  const slotX = (i) => LX + (W.slots[i].avenue - 1) * CW;
  const lampXY = (lamp) => [LX + W.lamp_columns[lamp % G.nc] * CW, rowY(Math.floor(lamp / G.nc)) + CH + RH / 2];

  function star(cx, cy, r) {
    const pts = [];
    for (let k = 0; k < 10; k++) {
      const a = -Math.PI / 2 + (k * Math.PI) / 5;
      const rr = k % 2 ? r * 0.45 : r;
      pts.push(`${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`);
    }
    return s("polygon", { points: pts.join(" "), class: "nlv-star" });
  }
  function crane(x, y, k) {
    // a small tower crane: mast, jib, hook
    return s("g", { class: "nlv-crane", transform: `translate(${x},${y}) scale(${k})` },
      s("path", { d: "M4 22 V3 M4 3 H22 M1 3 H4 M4 8 L9 3 M18 3 V11 M16 11 H20 M1 22 H8" }));
  }

  function drawCity(st, sh, opts) {
    const { targets, fresh, grandTaken, acmeHotels, onSlot, onLamp, lampTargets } = opts;
    const last = opts.last || NO_LAST;
    const width = LX + W.avenues * CW + 16;
    const height = rowY(4) + 40;
    const root = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "nlv-city", role: "img", "aria-label": "city plan" });
    root.append(s("defs", {},
      s("pattern", { id: "nlv-hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        s("rect", { width: 6, height: 6, fill: "#efe7d6" }), s("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "#cdbf9f", "stroke-width": 3 }))));
    for (let a = 1; a <= W.avenues; a++) {
      root.append(s("text", { x: LX + (a - 0.5) * CW, y: 12, class: "nlv-avenue" }, String(a)));
    }
    // streets as roads, every possible limousine segment faint, the drawn ones bold
    W.edges.forEach((e, k) => {
      const [x1, y1] = lampXY(e.u), [x2, y2] = lampXY(e.v);
      root.append(s("line", { x1, y1, x2, y2, class: "nlv-road" + (sh.edges.has(k) ? " used" : "") + (last.edges.has(k) ? " last" : ""), "data-edge": String(k) }));
    });
    for (let st4 = 0; st4 < 4; st4++) {
      root.append(s("text", { x: 4, y: rowY(st4) + CH / 2 + 5, class: "nlv-street" }, "S" + (st4 + 1)));
    }
    const golf = golfStatus(sh);
    W.slots.forEach((slot, i) => {
      const x = slotX(i), y = rowY(slot.street - 1);
      const built = isBuilt(sh, i);
      const num = sh.nums[i];
      const target = targets.get(i);
      const classes = ["nlv-slot"];
      if (!built) classes.push("crane");
      if (num >= 0) classes.push("opened");
      if (target) classes.push("nlv-target", "nlv-click");
      if (fresh.has(i)) classes.push("fresh");
      else if (last.slots.has(i)) classes.push("last", last.cranes.has(i) ? "last-crane" : "last-open");
      const g = s("g", { class: classes.join(" "), "data-slot": slot.id, onclick: target ? () => onSlot(i) : null },
        title(`casino on ${slotWords(slot.id)}` + (last.slots.has(i) ? " (last round)" : "") + (slot.crane ? (built ? ", crane crossed out" : ", crane: not built yet") : "") +
          (slot.star ? ", star" : "") + (slot.carpet ? `, red carpet (${slot.carpet})` : "") + (num >= 0 ? `, opened with ${num}` : "")));
      g.append(s("rect", { x: x + 3, y: y + 2, width: CW - 6, height: CH - 4, rx: 7, class: "nlv-cell", fill: built ? null : "url(#nlv-hatch)" }));
      if (slot.carpet) {
        const passed = sh.carpets.has(i);
        g.append(s("rect", { x: x + 3, y: y + CH - 11, width: CW - 6, height: 9, rx: 3, class: "nlv-carpet" + (passed ? " passed" : "") }));
        g.append(s("text", { x: x + CW - 8, y: y + CH - 4, class: "nlv-carpet-letter" + (passed ? " passed" : "") }, CARPET_LETTER[slot.carpet]));
      }
      if (slot.star) {
        g.append(star(x + 13, y + 12, 7));
        if (sh.starOk.has(i)) g.append(s("circle", { cx: x + 13, cy: y + 12, r: 9, class: "nlv-ring" }));
        if (sh.starX.has(i)) g.append(s("path", { d: `M${x + 5} ${y + 4} l16 16 M${x + 21} ${y + 4} l-16 16`, class: "nlv-cross" }));
      }
      if (slot.crane) {
        if (!built) g.append(crane(x + 14, y + 10, 1.2));
        else {
          g.append(crane(x + CW - 22, y + 5, 0.6));
          g.append(s("path", { d: `M${x + CW - 23} ${y + 5} l14 14`, class: "nlv-cross thin" }));
          if (num < 0) g.append(s("text", { x: x + CW - 15, y: y + 32, class: "nlv-loan-mark" }, "$"));
        }
      }
      if (num >= 0) g.append(s("text", { x: x + CW / 2, y: y + 32, class: "nlv-num" }, String(num)));
      else if (target && target.label) g.append(s("text", { x: x + CW / 2, y: y + 32, class: "nlv-num ghost" }, target.label));
      root.append(g);
      // golf holes above street 1
      if (slot.holes.length) {
        slot.holes.forEach((par, k) => {
          const cx = x + CW / 2 + (k - (slot.holes.length - 1) / 2) * 18, cy = Y0 - 14;
          const status = golf[i];
          root.append(s("g", { class: "nlv-hole " + status },
            title(`golf hole PAR ${par}` + (status ? ` (${status})` : "")),
            s("circle", { cx, cy, r: 8 }), s("text", { x: cx, y: cy + 4 }, String(par)),
            status === "crossed" ? s("path", { d: `M${cx - 7} ${cy - 7} l14 14`, class: "nlv-cross thin" }) : null));
        });
      }
    });
    // lamps and the limousine
    W.lamp_names.forEach((name, lamp) => {
      const [x, y] = lampXY(lamp);
      const t = lampTargets.get(lamp);
      if (lamp === W.start_lamp) root.append(s("g", { class: "nlv-airport" }, s("rect", { x: x - 12, y: y - 8, width: 24, height: 16, rx: 4 }), s("text", { x, y: y + 4 }, "AIR")));
      else root.append(s("circle", { cx: x, cy: y, r: 4, class: "nlv-lamp" }));
      if (t) {
        root.append(s("g", { class: "nlv-lamp-target nlv-click nlv-target", "data-lamp": name, "data-dir": t.target, onclick: () => onLamp(t) },
          title(`drive the limousine ${DIR_WORD[t.target]} to ${lampWords(lamp)}`),
          s("circle", { cx: x, cy: y, r: 11 }), s("text", { x, y: y + 4 }, t.target.toUpperCase())));
      }
    });
    if (!sh.done) {
      const [x, y0] = lampXY(sh.lamp);
      const y = sh.lamp === W.start_lamp ? y0 - 15 : y0;
      root.append(s("g", { class: "nlv-limo" }, title("the limousine"), s("rect", { x: x - 10, y: y - 6, width: 20, height: 12, rx: 5 }),
        s("circle", { cx: x - 5, cy: y + 6, r: 2.5 }), s("circle", { cx: x + 5, cy: y + 6, r: 2.5 })));
    } else {
      const [x, y] = lampXY(W.start_lamp);
      root.append(s("text", { x: x + 16, y: y + 4, class: "nlv-done" }, "route complete"));
    }
    // hotels under the avenues
    const hy = rowY(4) + 4;
    for (let a = 0; a < W.avenues; a++) {
      const h = sh.hotels[a];
      const x = LX + a * CW;
      const taken = grandTaken.includes(a + 1);
      const acme = acmeHotels.includes(a + 1);
      root.append(s("g", { class: "nlv-hotel " + (h || "none") + (taken && !h ? " gone" : "") },
        title(`avenue ${a + 1}: ` + (h ? `${h} hotel` : taken ? "grand hotel already taken: small hotel only" : "no hotel yet") + (acme ? "; ACME built a grand hotel here" : "")),
        s("rect", { x: x + 8, y: hy, width: CW - 16, height: 26, rx: 4 }),
        s("text", { x: x + CW / 2, y: hy + 18 }, h === "grand" ? "G" : h === "small" ? "S" : "H"),
        acme ? s("text", { x: x + CW / 2, y: hy + 36, class: "nlv-acme-mark" }, "ACME") : null,
        taken && !h && !acme ? s("circle", { cx: x + CW - 12, cy: hy + 4, r: 4, class: "nlv-gone-dot" }) : null));
    }
    return root;
  }

  // -- drawing: the score sheet ----------------------------------------------------------------------
  function drawSheet(st, sh, opts) {
    const { effectTargets, onEffect, fresh, missing } = opts;
    const last = opts.last || NO_LAST;
    const width = LX + W.avenues * CW + 16;
    const root = s("svg", { viewBox: `0 0 ${width} 352`, class: "nlv-scoresheet", role: "img", "aria-label": "score sheet" });
    // opening track
    const BX = 86, BW = 27;
    const bx = (k) => BX + (k - 1) * BW + (k === W.track_length ? 12 : 0);
    root.append(s("text", { x: 4, y: 40, class: "nlv-label" }, "Opening"));
    root.append(s("text", { x: 4, y: 54, class: "nlv-sub" }, `${sh.unused} unused`));
    const opT = effectTargets.find((o) => o.eff === "op");
    W.groups.forEach(([a, b], g) => {
      const x1 = bx(a), x2 = bx(b) + BW - 4;
      const spent = sh.spent.has(g), expo = sh.exp.has(g);
      const ready = !spent && sh.marks >= b;
      root.append(s("path", { d: `M${x1} 60 v5 H${x2} v-5`, class: "nlv-bracket" + (ready ? " ready" : "") }));
      const cx = (x1 + x2) / 2;
      root.append(s("g", { class: "nlv-loan" + (expo ? " circled" : spent ? " crossed" : "") },
        title(`bonus group ${g + 1}` + (spent ? (expo ? ": spent on expansion (loan circled)" : ": spent (loan crossed out)") : ready ? ": ready to spend" : "")),
        s("circle", { cx, cy: 14, r: 8 }), s("text", { x: cx, y: 18 }, "$"),
        spent && !expo ? s("path", { d: `M${cx - 8} 6 l16 16`, class: "nlv-cross thin" }) : null));
      if (ready) root.append(s("text", { x: cx, y: 78, class: "nlv-ready" }, "bonus"));
    });
    for (let k = 1; k <= W.track_length; k++) {
      const x = bx(k);
      const marked = k <= sh.marks;
      const g = W.groups.findIndex(([a, b]) => k >= a && k <= b);
      const spent = g >= 0 && sh.spent.has(g);
      const isNext = opT && k === sh.marks + 1;
      const cls = ["nlv-box", marked ? "marked" : "", spent ? "spent" : "", isNext ? "nlv-target nlv-click" : "", fresh.marks && k > fresh.marks && marked ? "fresh" : "",
        k > last.marks[0] && k <= last.marks[1] ? "last" : ""];
      root.append(s("g", { class: cls.join(" "), "data-op": isNext ? "1" : null, onclick: isNext ? () => onEffect(opT) : null },
        title(`opening box ${k}` + (k === W.track_length ? " (after the scissors: marking it ends the game)" : "")),
        s("rect", { x, y: 28, width: BW - 4, height: 26, rx: 3 }),
        marked ? s("path", { d: `M${x + 4} ${32} l15 18 M${x + 19} ${32} l-15 18`, class: "nlv-x" }) : s("text", { x: x + (BW - 4) / 2, y: 46 }, String(k))));
    }
    root.append(s("text", { x: bx(W.track_length) - 9, y: 46, class: "nlv-scissors" }, "✂"));
    // shows
    const showTargets = effectTargets.filter((o) => o.eff === "show");
    W.show_values.forEach((values, c) => {
      const y = 96 + c * 34;
      const t = showTargets.find((o) => o.target === c);
      const row = s("g", { class: "nlv-show" + (t ? " nlv-target nlv-click" : ""), "data-show": String(c + 1), onclick: t ? () => onEffect(t) : null },
        title(`show column ${c + 1}: ${values.join(", ")}; loans beside boxes ${W.show_loans[c].join(" and ")}`));
      row.append(s("rect", { x: 2, y: y - 8, width: width - 6, height: 34, rx: 4, class: "nlv-rowbg" }));
      row.append(s("text", { x: 4, y: y + 16, class: "nlv-label" }, `Show ${c + 1}`));
      values.forEach((v, k) => {
        const x = BX + k * 44;
        const crossed = k < sh.shows[c];
        row.append(s("rect", { x, y: y - 2, width: 34, height: 26, rx: 3, class: "nlv-vbox" + (crossed ? " crossed" : "") + (k === sh.shows[c] - 1 ? " current" : "") + (inSpan(last.shows[c], k) ? " last" : "") }));
        row.append(s("text", { x: x + 17, y: y + 16, class: "nlv-v" }, String(v)));
        if (crossed) row.append(s("path", { d: `M${x + 3} ${y + 1} l28 20`, class: "nlv-cross thin" }));
        if (W.show_loans[c].includes(k + 1)) {
          const repaid = sh.shows[c] >= k + 1, circled = sh.shows[c] > 0;
          row.append(s("g", { class: "nlv-loan small" + (circled && !repaid ? " circled" : "") + (repaid ? " repaid" : "") },
            s("circle", { cx: x + 39, cy: y - 2, r: 6 }), s("text", { x: x + 39, y: y + 1 }, "$")));
        }
      });
      row.append(s("text", { x: BX + values.length * 44 + 4, y: y + 16, class: "nlv-sub" }, `= ${sh.shows[c] ? values[sh.shows[c] - 1] : 0}`));
      root.append(row);
    });
    // upgrades
    const upTargets = effectTargets.filter((o) => o.eff === "up");
    const UX = 4, UW = (width - 8) / W.upgrades.length;
    W.upgrades.forEach((u, k) => {
      const x = UX + k * UW;
      const t = upTargets.find((o) => o.target === u.id);
      const off = st.first_game && W.golf_upgrades.includes(u.id);
      const col = s("g", { class: "nlv-up" + (t ? " nlv-target nlv-click" : "") + (off ? " off" : ""), "data-up": u.id, onclick: t ? () => onEffect(t) : null },
        title(`${UP_LABEL[u.id][0]} (${UP_LABEL[u.id][1]}): ${sh.ups[u.id]} of ${u.boxes} yellow boxes crossed`));
      col.append(s("rect", { x: x + 1, y: 166, width: UW - 2, height: 124, rx: 5, class: "nlv-upbg" }));
      col.append(s("text", { x: x + UW / 2, y: 180, class: "nlv-uptitle" }, UP_LABEL[u.id][0]));
      const values = u.id === "open" ? W.open_places.map((p) => p.join("/")) : u.values.map(String);
      values.forEach((v, j) => {
        const y = 188 + j * 25;
        const passed = j < sh.ups[u.id], current = j === sh.ups[u.id];
        col.append(s("rect", { x: x + 4, y, width: UW - 8, height: 21, rx: 3, class: "nlv-vbox" + (j > 0 ? " yellow" : "") + (passed ? " crossed" : "") + (current ? " current" : "") + (inSpan(last.ups[u.id], j) ? " last" : "") }));
        col.append(s("text", { x: x + UW / 2, y: y + 15, class: "nlv-v" + (u.id === "open" ? " tiny" : "") }, v));
        if (passed) col.append(s("path", { d: `M${x + 6} ${y + 2} L${x + UW - 6} ${y + 19}`, class: "nlv-cross thin" }));
      });
      root.append(col);
    });
    // vault and loans
    const vy = 316;
    root.append(s("text", { x: 4, y: vy + 5, class: "nlv-label" }, "Vault"));
    for (let k = 0; k < W.vault.slots; k++) {
      root.append(s("circle", { cx: BX + 8 + k * 22, cy: vy, r: 8, class: "nlv-bundle" + (k < sh.vault ? " full" : "") }));
    }
    const owed = sh.loans;
    root.append(s("text", { x: BX + W.vault.slots * 22 + 8, y: vy + 5, class: "nlv-sub" },
      `${sh.vault} bundle${sh.vault === 1 ? "" : "s"} · ${owed} open loan${owed === 1 ? "" : "s"} · ${sh.edges.size} limo segment${sh.edges.size === 1 ? "" : "s"}` +
      (missing === null || missing === undefined ? "" : `, ${missing} to go`)));
    return root;
  }

  // -- the page --------------------------------------------------------------------------------------
  function absorbEvents(payload, replayMode) {
    if (replayMode || !payload.since) store.events = new Map();
    (payload.events || []).forEach((e, k) => {
      const t = (payload.event_text || [])[k];
      store.events.set(e.i, { e, text: t && t[0] === e.i ? t[1] : e.kind });
    });
  }
  const ANNOUNCE = new Set(["round_played", "hotel", "project_completed", "project_approved", "reshuffle_offered", "reshuffle_decided",
    "first_project_reshuffle", "piles_shuffled", "deck_reshuffled", "approval_drawn", "acme_takes", "acme_hotel", "acme_no_project",
    "acme_project", "game_over", "scores"]);
  function announcements() {
    const list = [...store.events.values()].sort((a, b) => a.e.i - b.e.i);
    const starts = list.filter((x) => x.e.kind === "round" || x.e.kind === "round_solo").map((x) => x.e.i);
    const from = starts.length >= 2 ? starts[starts.length - 2] : -1;
    return list.filter((x) => x.e.i > from && ANNOUNCE.has(x.e.kind) && !(x.e.kind === "piles_shuffled" && starts.length < 2));
  }

  function card(st, k, info, opts) {
    const classes = ["nlv-card", "eff-" + info.effect];
    if (opts.playable) classes.push("playable", "nlv-click");
    if (opts.role) classes.push("role-" + opts.role);
    return el("button", { type: "button", class: classes.join(" "), disabled: !opts.playable, "data-card": opts.id, onclick: opts.onclick, title: EFFECT_HELP[info.effect] },
      el("span", { class: "nlv-card-id" }, opts.label),
      el("span", { class: "nlv-card-num" }, String(info.number)),
      el("span", { class: "nlv-card-eff" }, EFFECT_SHORT[info.effect] || info.effect),
      opts.foot ? el("span", { class: "nlv-card-foot" }, opts.foot) : null);
  }

  function render(container, payload, ctx) {
    if (!W) { W = T.config("board-words") || {}; if (W.slots) G = geometry(); }
    const st = payload.state;
    if (!G || !st || !st.players) { T.board("generic").render(container, payload, ctx); return; }
    const replayMode = !ctx.act;
    const me = ctx.seat;
    const who = `${payload.table}|${me}`;
    if (store.who !== who) {
      store.who = who; store.drafts = new Map(); store.viewing = null; store.soloNumber = null; store.bonus = ""; store.easy = null; store.copyAt = null;
    }
    absorbEvents(payload, replayMode);
    store.last = [container, payload, ctx];
    const rerender = () => { if (store.last) render(...store.last); }; // nothing after a hot-seat reset
    const seats = ctx.seats || payload.seats || [];
    const n = st.players.length;
    const solo = !!st.hand || !!st.acme;
    const legal = new Set(ctx.legal || []);
    const acting = me !== null && me !== undefined && (payload.to_act || []).includes(me) && !replayMode;
    const roundActing = acting && st.phase === "round";
    store.me = me; store.ctx = ctx;
    const d = roundActing ? draftFor(payload, me, ctx) : null;
    const ready = d && d.options; // the server's answer for the steps so far (the last one while asking)
    const options = ready ? d.options : [];
    const viewing = store.viewing !== null && store.viewing < n ? store.viewing : (me !== null && me !== undefined ? me : 0);
    const mineShown = viewing === me;
    const models = st.players.map((p, q) => (q === me && ready ? d.sh : fromView(p.sheet)));
    const score = (ready && d.score) || st.score_now || null; // the score if the game ended now
    const est = st.players.map((p, q) => (score ? score.players[q] : null));
    const parts = [];

    // head: round, projects approved, who is still choosing
    parts.push(el("div", { class: "nlv-head" },
      el("span", { class: "nlv-round" }, st.phase === "loan" ? "Before the first round" : st.phase === "over" ? `Game over after round ${st.round}` : `Round ${st.round}`),
      st.phase === "reshuffle" ? el("span", { class: "nlv-phase" }, "first project: reshuffle vote") : null,
      st.first_game ? el("span", { class: "nlv-tag" }, "first game") : null,
      solo ? el("span", { class: "nlv-tag" }, `solo vs ACME · architect ${st.acme.architect}`) : null,
      !solo && st.pile_sizes ? el("span", { class: "nlv-sub" }, `piles: ${st.pile_sizes.join(" / ")} cards`) : null));

    // the result
    if (st.final) parts.push(finalPanel(st, payload, seats, me));

    // announcements of the last round's end
    const news = announcements();
    if (news.length && st.phase !== "loan") {
      parts.push(el("details", { class: "nlv-news", open: true },
        el("summary", {}, st.phase === "over" ? "How the game ended" : "Last round"),
        el("ul", {}, news.map((x) => el("li", { class: "kind-" + x.e.kind }, x.text)))));
    }

    // the decision
    if (!replayMode && me !== null && me !== undefined) parts.push(decisionPanel(st, payload, ctx, d, options, legal, acting, rerender, seats));

    // the round's cards when not choosing (so everyone sees them)
    if (!roundActing && st.phase === "round") parts.push(cardsRow(st, null, null, rerender));

    // the architects
    const last = lastRound();
    parts.push(playersPanel(st, payload, seats, me, viewing, est, solo, rerender, last));

    // the sheet shown
    const shown = models[viewing];
    const isDraft = mineShown && ready;
    const targets = new Map();
    const lampTargets = new Map();
    let effectTargets = [];
    const onChoose = (o) => choose(st, d, o, rerender);
    if (isDraft && !store.sending) {
      const stage = d.turn.stage;
      if (stage === "open") {
        const changes = [...new Set(options.map((o) => o.d))];
        const change = d.turn.bonus === "e" ? (changes.includes(store.easy) ? store.easy : changes[0]) : 0;
        options.filter((o) => o.kind === "open" && o.d === change).forEach((o) => targets.set(o.slot, { label: String(d.turn.num + o.d), opt: o }));
      } else if (stage === "copy") {
        options.forEach((o) => {
          const t = targets.get(o.slot) || { label: "", opts: [] };
          t.opts.push(o);
          t.label = t.opts.length > 1 ? "?" : String(o.side === "l" ? d.sh.nums[o.slot - 1] : d.sh.nums[o.slot + 1]);
          targets.set(o.slot, t);
        });
      } else if (stage === "effect") {
        options.filter((o) => o.eff === "con").forEach((o) => targets.set(o.target, { label: "", opt: o }));
        options.filter((o) => o.eff === "limo").forEach((o) => lampTargets.set(o.to, o));
        effectTargets = options.filter((o) => o.kind === "eff");
      }
    }
    const fresh = new Set();
    if (isDraft) {
      if (d.turn.main >= 0) fresh.add(d.turn.main);
      if (d.turn.copy >= 0) fresh.add(d.turn.copy);
    }
    const onSlot = (i) => {
      const t = targets.get(i);
      if (!t) return;
      if (t.opt) onChoose(t.opt);
      else if (t.opts.length === 1) onChoose(t.opts[0]);
      else { store.copyAt = i; rerender(); }
    };
    const onLamp = (o) => onChoose(o);
    // the last round resolved, outlined on the sheet shown (the seat's own steps since taken off first)
    const entryShown = st.players[viewing];
    const later = mineShown && ready ? d.turn.steps : (entryShown.turn ? entryShown.turn.steps || [] : []);
    const lastSteps = last && last.bySeat.get(viewing);
    const marksShown = lastMarks(shown, lastSteps, later);
    const pulse = last && store.pulsed !== `${last.key}|${viewing}`;
    if (last) store.pulsed = `${last.key}|${viewing}`;
    const label = viewing === me ? (d && d.steps.length ? "Your sheet (this round's steps drawn in blue, not sent yet)" : "Your sheet")
      : `${T.seatLabel(seats, viewing)}'s sheet` + (st.phase === "over" ? "" : " as it stood at the start of this round (read-only)");
    const sheetBox = el("section", { class: "nlv-sheet" + (viewing === me ? " mine" : " other") + (store.zoom ? " zoom" : "") },
      el("h3", {}, label, el("span", { class: "nlv-sheet-buttons" },
        el("button", { class: "small nlv-zoom", type: "button", title: "draw the sheet larger (scroll sideways)", onclick: () => { store.zoom = !store.zoom; rerender(); } }, store.zoom ? "Fit to screen" : "Zoom in"),
        viewing !== me && me !== null && me !== undefined ? el("button", { class: "small nlv-back", type: "button", onclick: () => { store.viewing = null; rerender(); } }, "Back to my sheet") : null)),
      est[viewing] || st.final ? scoreChips(est[viewing], st, viewing) : null,
      lastSteps ? el("p", { class: "nlv-sub nlv-last-legend" }, el("span", { class: "nlv-last-key" }),
        `Outlined in orange: what ${viewing === me ? "you" : T.seatLabel(seats, viewing)} did in round ${last.round} — ${roundSummary(lastSteps)}.`) : null,
      el("div", { class: "nlv-svgwrap" + (pulse ? " nlv-pulse-last" : "") }, drawCity(st, shown, {
        targets, fresh, grandTaken: st.grand_taken || [], acmeHotels: solo ? st.acme.hotels : [], onSlot, onLamp, lampTargets, last: marksShown,
      })),
      el("div", { class: "nlv-svgwrap" + (pulse ? " nlv-pulse-last" : "") }, drawSheet(st, shown, {
        effectTargets, onEffect: onChoose, fresh: isDraft ? { marks: d.baseSheet.marks } : {}, last: marksShown,
        missing: est[viewing] ? est[viewing].detail.segments_missing : null,
      })),
      projectsRow(st, shown));
    parts.push(sheetBox);
    if (solo) parts.push(acmePanel(st, score && score.acme));
    container.replaceChildren(el("div", { class: "nlv" }, parts));
  }

  function cardsRow(st, d, pickCtx) {
    // The round's cards: multiplayer combinations a/b/c, solo the three cards (number + effect each).
    const row = el("div", { class: "nlv-cards" });
    if (st.hand) {
      const pc = pickCtx || {};
      st.hand.forEach((info, k) => {
        let role = null;
        if (pc.numberCard === k) role = "number";
        if (pc.chosen && pc.chosen.number !== undefined && pc.chosen.number >= 0) {
          role = k === pc.chosen.number ? "number" : k === pc.chosen.effect ? "effect" : "acme";
        }
        const playable = pc.playableCard ? pc.playableCard(k) : false;
        row.append(card(st, k, info, {
          id: String(k + 1), label: `card ${k + 1}`, playable, role,
          foot: role === "number" && pc.chosen ? "its number" : role === "effect" ? "its effect" : role === "acme" ? "→ ACME" : pc.numberCard === k ? "number ✓" : pc.numberCard !== null && pc.numberCard !== undefined && playable ? "take its effect" : pc.hint ? pc.hint(k) : null,
          onclick: playable ? () => pc.click(k) : null,
        }));
      });
      const top = st.acme && st.acme.deck_top;
      row.append(el("div", { class: "nlv-deck", title: "the solo deck lies effect side up" },
        el("span", { class: "nlv-sub" }, "deck"), el("strong", {}, String(st.acme.deck_size)),
        el("span", { class: "nlv-sub" }, top ? (top.startsWith("approval_") ? `approval (${top.slice(9)}) on top` : `${EFFECT_SHORT[top]} on top`) : "empty")));
    } else {
      st.combinations.forEach((info, k) => {
        const pc = pickCtx || {};
        const playable = pc.playableCard ? pc.playableCard(k) : false;
        const role = pc.chosen && pc.chosen.number === k ? "number" : null;
        row.append(card(st, k, info, {
          id: "abc"[k], label: "abc"[k], playable, role, foot: role ? "chosen" : `${st.pile_sizes[k]} left`,
          onclick: playable ? () => pc.click(k) : null,
        }));
      });
    }
    return row;
  }

  function decisionPanel(st, payload, ctx, d, options, legal, acting, rerender, seats) {
    const box = el("section", { class: "nlv-decision" + (acting ? " acting" : "") });
    const send = async (text) => {
      store.sending = true;
      rerender();
      try { await ctx.act(text); } finally { store.sending = false; rerender(); }
    };
    if (!acting) {
      const me = ctx.seat;
      const entry = st.players[me];
      if (st.phase === "over") return el("span");
      const waiting = (payload.to_act || []).map((q) => T.seatLabel(seats, q)).join(", ");
      if (entry && entry.turn && entry.turn.step === "done") {
        box.append(el("p", { class: "nlv-locked" }, el("strong", {}, "Your round is locked in. "),
          entry.turn.steps.map((x) => stepWords(x)).join("; ") + ". ",
          waiting ? `Still choosing: ${waiting}.` : ""));
      } else {
        box.append(el("p", { class: "hint" }, waiting ? `Waiting for ${waiting}.` : "Nothing to do now."));
      }
      return box;
    }
    if (st.phase === "loan") {
      box.append(el("p", {}, el("strong", {}, "The bank loan (secret): "),
        `at the end the bank gives everyone ${W.bank.majority} bundles if more than half took the loan, ${W.bank.minority} if at least one did; nobody sees your answer until the end.`));
      box.append(el("div", { class: "nlv-actions" },
        legal.has("loan") ? el("button", { class: "primary nlv-click", type: "button", "data-step": "loan", onclick: () => send("loan") }, "Take the loan") : null,
        legal.has("noloan") ? el("button", { class: "nlv-click", type: "button", "data-step": "noloan", onclick: () => send("noloan") }, "No loan") : null));
      return box;
    }
    if (st.phase === "reshuffle") {
      box.append(el("p", {}, el("strong", {}, "You completed the first project. "), "Reshuffle all 81 cards into three new piles? (secret vote; they are reshuffled if anyone asks)"));
      box.append(el("div", { class: "nlv-actions" },
        el("button", { class: "primary nlv-click", type: "button", "data-step": "shuffle", onclick: () => send("shuffle") }, "Reshuffle"),
        el("button", { class: "nlv-click", type: "button", "data-step": "keep", onclick: () => send("keep") }, "Keep the piles")));
      return box;
    }
    if (!d) return box;
    if (d.error) box.append(el("p", { class: "nlv-warn", role: "alert" }, d.error));
    if (!d.options) {
      box.append(d.error ? el("button", { type: "button", class: "small", onclick: () => ask(d, ctx.seat, ctx) }, "Try again")
        : el("p", { class: "hint nlv-waiting" }, "…"));
      return box;
    }
    const stage = d.turn.stage;
    const choose_ = (o) => choose(st, d, o, rerender);
    const sh = d.sh;
    const prompt = el("p", { class: "nlv-prompt" });
    const extra = el("div", { class: "nlv-actions" });
    if (stage === "pick") {
      const groups = sh.ready;
      const picks = options.filter((o) => o.kind === "pick");
      const bonus = store.bonus && picks.some((o) => o.bonus === store.bonus) ? store.bonus : "";
      if (groups.length) {
        extra.append(el("span", { class: "nlv-sub" }, "Bonus (spends opening group " + (groups[0] + 1) + "): "),
          ...["", "e", "f", "x"].map((b) => el("button", {
            type: "button", class: "chip" + (bonus === b ? " on" : ""), "data-bonus": b || "none",
            disabled: b && !picks.some((o) => o.bonus === b), onclick: () => { store.bonus = b; store.soloNumber = null; rerender(); },
          }, b ? W.bonuses[b] : "no bonus")));
      }
      let pc;
      if (st.hand) {
        const numberCard = store.soloNumber;
        pc = {
          numberCard,
          playableCard: (k) => (numberCard === null ? picks.some((o) => o.i === k && o.bonus === bonus) : k === numberCard || picks.some((o) => o.i === numberCard && o.j === k && o.bonus === bonus)),
          click: (k) => {
            if (numberCard === null) { store.soloNumber = k; rerender(); }
            else if (k === numberCard) { store.soloNumber = null; rerender(); }
            else choose_(picks.find((o) => o.i === numberCard && o.j === k && o.bonus === bonus));
          },
          hint: () => null,
        };
        prompt.append(numberCard === null ? "Choose the card whose number you write (then the card whose effect you use; the third goes to ACME)."
          : `You write ${st.hand[numberCard].number}: now choose the card whose effect you use; the other goes to ACME.`);
      } else {
        pc = {
          playableCard: (k) => picks.some((o) => o.i === k && o.bonus === bonus),
          click: (k) => choose_(picks.find((o) => o.i === k && o.bonus === bonus)),
        };
        prompt.append("Choose a combination: its number goes into a casino, then you may use its effect.");
      }
      box.append(prompt, cardsRow(st, d, pc, rerender), extra);
      const refusals = options.filter((o) => o.kind === "refuse");
      if (refusals.length) {
        box.append(el("p", { class: "nlv-warn" }, "No number fits anywhere: you must refuse and mark 2 opening boxes."));
        box.append(el("div", { class: "nlv-actions" }, refusals.map((o) => el("button", {
          type: "button", class: "primary nlv-click", "data-step": o.text, onclick: () => choose_(o),
        }, o.card >= 0 ? `Refuse: card ${o.card + 1} to ACME` : "Refuse (mark 2 boxes)"))));
      }
    } else {
      const chosen = d.turn.refused ? {} : { number: d.turn.i, effect: d.turn.j };
      box.append(cardsRow(st, d, { chosen }, rerender));
      box.append(el("p", { class: "nlv-sofar" }, el("strong", {}, "This round: "), stepsSoFar(d)));
      if (stage === "open") {
        const changes = [...new Set(options.map((o) => o.d))];
        if (d.turn.bonus === "e") {
          const change = changes.includes(store.easy) ? store.easy : changes[0];
          prompt.append(`Easy opening: write ${d.turn.num}${change > 0 ? "+" : ""}${change} = ${d.turn.num + change} in a lit casino, or change by another amount:`);
          extra.append(...changes.map((c) => el("button", {
            type: "button", class: "chip" + (c === change ? " on" : ""), "data-change": String(c), onclick: () => { store.easy = c; rerender(); },
          }, `${c > 0 ? "+" : ""}${c} → ${d.turn.num + c}`)));
        } else {
          prompt.append(`Write ${d.turn.num} in a lit casino (numbers rise from left to right in each street).`);
        }
      } else if (stage === "copy") {
        prompt.append("Expansion: open a lit casino next to an opened one, copying its number.");
        if (store.copyAt !== null) {
          extra.append(...options.filter((o) => o.slot === store.copyAt).map((o) => el("button", {
            type: "button", class: "chip nlv-click", "data-step": o.text, onclick: () => choose_(o),
          }, `${slotWords(W.slots[o.slot].id)}: copy ${o.side === "l" ? d.sh.nums[o.slot - 1] + " from the left" : d.sh.nums[o.slot + 1] + " from the right"}`)));
        }
      } else if (stage === "effect") {
        const effs = d.turn.bonus === "f" ? "any effect (free action)" : `${EFFECT_SHORT[d.turn.eff]}: ${EFFECT_HELP[d.turn.eff]}`;
        prompt.append(`Effect — ${effs}. Click a lit target on your sheet, or skip.`);
        for (const o of options) {
          if (o.kind === "skip") continue;
          if (o.eff === "op" || o.eff === "show" || (o.eff === "up" && options.filter((x) => x.eff === "up").length <= 10)) {
            extra.append(el("button", { type: "button", class: "chip nlv-click", "data-step": o.text, onclick: () => choose_(o) },
              o.eff === "op" ? "Mark an opening box" : o.eff === "show" ? `Show column ${o.target + 1}` : `Upgrade ${UP_LABEL[o.target][0]}`));
          } else if (o.eff === "limo") {
            extra.append(el("button", { type: "button", class: "chip nlv-click", "data-step": o.text, onclick: () => choose_(o) }, `Limousine ${DIR_WORD[o.target]}`));
          }
        }
        if (options.some((o) => o.eff === "con")) extra.append(el("span", { class: "nlv-sub" }, "Construction: click a crane casino."));
        const skip = options.find((o) => o.kind === "skip");
        if (skip) extra.append(el("button", { type: "button", class: "chip nlv-click", "data-step": "skip", onclick: () => choose_(skip) }, "Skip the effect"));
        if (d.turn.eff === "show" && d.turn.bonus !== "f" && !options.some((o) => o.eff === "show")) {
          prompt.append(" (The casino just opened has no star, so no show is possible.)");
        }
      } else if (stage === "done") {
        prompt.append(d.steps.length ? "Your round is ready. Confirm to lock it in (nobody sees it until everyone has chosen)." : "Waiting for the round to resolve.");
      }
      box.append(prompt, extra);
    }
    const controls = el("div", { class: "nlv-controls" });
    if (d.steps.length) {
      controls.append(el("button", { type: "button", id: "nlv-undo", class: "small", disabled: store.sending, onclick: () => undo(st, d, false, rerender) }, "Undo"));
      if (d.steps.length > 1) controls.append(el("button", { type: "button", id: "nlv-restart", class: "small", disabled: store.sending, onclick: () => undo(st, d, true, rerender) }, "Start over"));
    }
    if (stage === "done" && d.steps.length) {
      controls.append(el("button", {
        type: "button", id: "nlv-confirm", class: "primary nlv-confirm", disabled: store.sending,
        onclick: () => send(d.steps.map((o) => o.text).join(", ")),
      }, store.sending ? "Sending…" : "Confirm my round"));
    }
    if (controls.childNodes.length) box.append(controls);
    return box;
  }

  function stepsSoFar(d) {
    return d.turn.steps.map(stepWords).join(" → ") || "—";
  }
  function stepWords(x) {
    if (x.step === "pick") return x.number_card === x.effect_card ? `combination ${"abc"[x.number_card]} (${x.number} / ${EFFECT_SHORT[x.effect]})` + (x.bonus ? ` + ${W.bonuses[x.bonus]}` : "")
      : `number ${x.number} (card ${x.number_card + 1}), ${EFFECT_SHORT[x.effect]} (card ${x.effect_card + 1})` + (x.bonus ? ` + ${W.bonuses[x.bonus]}` : "");
    if (x.step === "refuse") return "refused (2 opening boxes)";
    if (x.step === "open") return `${x.number} in ${slotWords(x.slot)}`;
    if (x.step === "expand") return `copied ${x.number} into ${slotWords(x.slot)}`;
    if (x.step === "skip") return "no effect";
    if (x.effect === "con") return `built the crane casino on ${slotWords(x.slot)}`;
    if (x.effect === "up") return `upgraded ${UP_LABEL[x.column] ? UP_LABEL[x.column][0] : x.column}`;
    if (x.effect === "show") return `show on ${slotWords(x.slot)} (show column ${x.column})`;
    if (x.effect === "limo") return `limousine ${DIR_WORD[x.direction]}`;
    return "opening box";
  }

  function scoreChips(e, st, q) {
    const final = st.final && st.final.players[q];
    const cols = final ? final.columns : e.columns;
    const total = final ? final.total : e.total;
    return el("div", { class: "nlv-score" },
      el("span", { class: "nlv-score-title" }, final ? "Final score" : "Score now"),
      COLUMNS.map((c) => el("span", { class: "nlv-chip" + (cols[c] < 0 ? " neg" : ""), "data-col": c }, el("small", {}, c), String(cols[c]))),
      el("span", { class: "nlv-chip total" }, el("small", {}, "total"), String(total)));
  }

  function projectsRow(st, sh) {
    return el("div", { class: "nlv-projects" }, st.projects.map((p, k) => {
      const info = W.projects[p.id] || {};
      const got = sh.projects[k];
      return el("div", { class: `nlv-project deck-${p.deck}` + (got ? " done" : "") + (p.approved ? " approved" : "") },
        el("div", { class: "nlv-project-head" }, el("strong", {}, p.id), el("span", {}, `${p.first} / ${p.later}`)),
        el("div", { class: "nlv-project-text" }, info.condition || ""),
        el("div", { class: "nlv-project-foot" }, got ? `scored ${got}` : p.approved ? `approved: ${p.later} now` : `first: ${p.first}`));
    }));
  }

  function playersPanel(st, payload, seats, me, viewing, est, solo, rerender, last) {
    const toAct = payload.to_act || [];
    const list = el("div", { class: "nlv-players" });
    st.players.forEach((p, q) => {
      const hotels = p.sheet.hotels.filter(Boolean).length;
      const status = st.phase === "over" ? "" : toAct.includes(q) ? "choosing…" : st.phase === "round" ? "done" : "";
      list.append(el("button", {
        type: "button", class: "nlv-player" + (q === viewing ? " on" : "") + (toAct.includes(q) ? " choosing" : "") + (q === me ? " me" : ""),
        "data-seat": String(q), onclick: () => { store.viewing = q; rerender(); },
      },
      el("span", { class: "nlv-player-name" }, T.seatLabel(seats, q) + (q === me ? " · you" : "")),
      el("span", { class: "nlv-player-status" }, status),
      el("span", { class: "nlv-player-score" }, `${st.final ? st.final.players[q].total : est[q].total} pts · ${hotels} hotel${hotels === 1 ? "" : "s"}`),
      last && last.bySeat.has(q) ? el("span", { class: "nlv-player-last", "data-round": String(last.round) },
        el("strong", {}, `Round ${last.round}: `), roundSummary(last.bySeat.get(q))) : null));
    });
    const choosing = toAct.length && st.phase !== "over" ? `Still choosing: ${toAct.map((q) => T.seatLabel(seats, q)).join(", ")}` : "";
    return el("section", { class: "nlv-players-box" }, el("div", { class: "nlv-sub" }, (st.players.length > 1 ? "Architects (click one to see their sheet). " : "") + choosing), list);
  }

  function acmePanel(st, now) {
    const acme = st.acme;
    const e = st.final ? st.final.acme : now;
    if (!e) return el("section", { class: "nlv-acme" }, el("h3", {}, `ACME · architect card ${acme.architect}`));
    const card = W.architects[String(acme.architect)];
    const count = acmeCounts(st);
    // The final score has no hole count: its golf column over the value per hole gives it.
    const holes = e.holes ?? (e.values[4] ? e.columns.golf / e.values[4] : 0);
    const a = { values: e.values, run: e.run, holes, count, ups: count("up"), card };
    const kinds = ["op", "con", "up", "show", "limo"];
    const colNames = W.architect_columns;
    return el("section", { class: "nlv-acme" },
      el("h3", {}, `ACME · architect card ${acme.architect}`),
      el("div", { class: "nlv-acme-pile" }, el("span", { class: "nlv-sub" }, `pile (${acme.pile.length} cards): `),
        kinds.map((k) => el("span", { class: "nlv-chip eff-" + k, "data-acme": k }, el("small", {}, EFFECT_SHORT[k]), String(a.count(k))))),
      el("div", { class: "nlv-tablewrap" }, el("table", { class: "grid nlv-arch" },
        el("tr", {}, el("th", {}, "column"), el("th", {}, "base"), el("th", {}, "upgraded"), el("th", {}, "upgrade cards"), el("th", {}, "now")),
        colNames.map((c, k) => el("tr", { class: a.ups >= a.card.thresholds[k] ? "up" : "" },
          el("td", {}, c), el("td", {}, String(a.card.base[k])), el("td", {}, String(a.card.upgraded[k])),
          el("td", {}, `${a.ups} / ${a.card.thresholds[k]}`), el("td", {}, String(a.values[k])))))),
      el("p", { class: "nlv-sub" }, `street chains ${a.run} (construction cards ${a.count("con")} ${a.card.crane < 0 ? "−" : "+"} ${Math.abs(a.card.crane)}); golf holes ${a.holes} (repeated effects); ` +
        `hotels on avenues ${acme.hotels.join(", ") || "none"}; projects ${acme.projects.join(" / ")}; approvals seen ${acme.approvals_seen} of ${a.card.approvals.length}; ` +
        `deck ${acme.deck_size}, discard ${acme.discard_size}; the card under your sheet shows ${EFFECT_SHORT[acme.loan_card_effect] || "?"}` +
        (acme.loan_card !== null && acme.loan_card !== undefined ? ` and its number is ${acme.loan_card}` : "")),
      el("ol", { class: "nlv-approvals" }, a.card.approvals.map((row, k) => el("li", { class: k < acme.approvals_seen ? "seen" : "" },
        `${row.project ? "completes the project" : "no project"}; grand hotels on avenue${row.hotels.length > 1 ? "s" : ""} ${row.hotels.join(", ")}`))),
      el("div", { class: "nlv-score" }, el("span", { class: "nlv-score-title" }, st.final ? "ACME final" : "ACME now"),
        COLUMNS.map((c) => el("span", { class: "nlv-chip" + (e.columns[c] < 0 ? " neg" : ""), "data-acme-col": c }, el("small", {}, c), String(e.columns[c]))),
        el("span", { class: "nlv-chip total" }, el("small", {}, "total"), String(e.total))));
  }

  function finalPanel(st, payload, seats, me) {
    const f = st.final;
    const res = payload.result;
    const rows = f.players.map((p, q) => ({ name: T.seatLabel(seats, q) + (q === me ? " (you)" : ""), cols: p.columns, total: p.total,
      rank: res ? res.ranks[q] : 0, place: res ? T.place(res, q) : "" }));
    if (f.acme) {
      // solo: the seat's rank is 1 when it beat ACME, else 2 (ACME first)
      const beat = res && res.ranks[0] === 1;
      rows.push({ name: `ACME${f.acme.loan ? " (took the loan)" : ""}`, cols: f.acme.columns, total: f.acme.total, rank: beat ? 2 : 1, place: res ? (beat ? "2nd" : "1st") : "" });
    }
    rows.sort((a, b) => (a.rank || 99) - (b.rank || 99));
    return el("section", { class: "result nlv-final" },
      el("div", { class: "nlv-final-head" }, "Final scores"),
      el("div", { class: "nlv-tablewrap" }, el("table", { class: "grid nlv-final-table" },
        el("tr", {}, el("th", {}, "place"), el("th", {}, ""), COLUMNS.map((c) => el("th", {}, c)), el("th", {}, "total")),
        rows.map((r) => el("tr", { class: r.rank === 1 ? "winner" : "" }, el("td", {}, r.place + (r.rank === 1 ? " ★" : "")), el("td", {}, r.name),
          COLUMNS.map((c) => el("td", { class: r.cols[c] < 0 ? "neg" : "" }, String(r.cols[c]))),
          el("td", {}, el("strong", {}, String(r.total))))))),
      f.loan_card !== undefined ? el("p", { class: "nlv-sub" }, `The card under your sheet was a ${f.loan_card}: ACME ${f.acme.loan ? "took" : "did not take"} the loan.`) : null,
      el("p", { class: "nlv-sub" }, "Bank loans: " + st.players.map((p, q) => `${T.seatLabel(seats, q)} ${p.loan ? "took it" : "refused"}`).join(", ")));
  }

  function renderFromPage(container, payload, ctx) {
    // A simultaneous round raises seq with every hidden step of another seat, which changes nothing
    // this seat can see: keep the board as it is then (a redraw could swallow a click in progress).
    const sig = JSON.stringify([payload.table, ctx.seat, payload.state, payload.to_act, ctx.legal, payload.event_count, payload.seats, payload.status]);
    if (sig === store.sig && container.querySelector(".nlv") && !ctx.act === !store.lastAct) {
      store.last = [container, payload, ctx];
      return;
    }
    store.sig = sig;
    store.lastAct = ctx.act;
    render(container, payload, ctx);
  }

  // A hot-seat hand-over: forget everything of the seat shown (its drafts, its events, its payload).
  function reset() {
    Object.assign(store, { who: null, events: new Map(), drafts: new Map(), viewing: null, soloNumber: null, bonus: "", easy: null, copyAt: null, sending: false });
    store.last = null; store.sig = null; store.lastAct = null;
  }

  // The end in New Las Vegas' terms: solo is against ACME (no seat wins when ACME does); the detail
  // names the totals.
  function outcome(payload, ctx) {
    const st = payload.state, res = payload.result;
    if (!st || !st.final || !res) return null;
    const f = st.final;
    if (f.acme) {
      const you = ctx.seat === 0;
      const name = you ? "You" : T.seatName(ctx.seats, 0, ctx.seat);
      const beat = res.ranks[0] === 1;
      return {
        headline: beat ? (you ? "You beat ACME!" : `${name} beats ACME`) : `ACME wins${you ? " this time" : ` against ${name}`}`,
        detail: `${f.players[0].total} points against ACME's ${f.acme.total}.`,
      };
    }
    const best = Math.max(...f.players.map((p) => p.total));
    return { detail: `${best} points` + (res.winners.length > 1 ? " each." : ".") };
  }

  // A legal move (one step of a round, a loan, a vote) in words for the move list; the notation stays in
  // records, the API and the terminal.
  const BONUS_WORD = { e: "easy opening", f: "free action", x: "expansion" };
  function describeMove(text, payload) {
    const st = (payload && payload.state) || {};
    const simple = {
      loan: "Take the loan", noloan: "Refuse the loan", shuffle: "Vote to reshuffle the piles", keep: "Vote to keep the piles",
      skip: "Use no effect", op: "Mark an opening box", refuse: "Write no number: mark 2 opening boxes",
      show1: "Hold a show (first show row)", show2: "Hold a show (second show row)",
    };
    if (simple[text]) return simple[text];
    const effect = (e) => `${EFFECT_SHORT[e] || e} (${EFFECT_HELP[e] || ""})`.replace(" ()", "");
    let m = /^([abc])(?:\+([efx]))?$/.exec(text);
    if (m) {
      const c = (st.combinations || [])[m[1].charCodeAt(0) - 97];
      const what = c ? `${c.number} with ${effect(c.effect)}` : `combination ${m[1].toUpperCase()}`;
      return { words: `Choose ${what}` + (m[2] ? `, spending an opening group on the ${BONUS_WORD[m[2]]}` : ""), group: "Choose a combination" };
    }
    m = /^([123])([123])$/.exec(text);
    if (m) {
      const hand = st.hand || [];
      const a = hand[Number(m[1]) - 1], b = hand[Number(m[2]) - 1];
      return { words: a && b ? `Number ${a.number} (card ${m[1]}) with ${effect(b.effect)} (card ${m[2]})` : `Number of card ${m[1]}, effect of card ${m[2]}`, group: "Choose two cards" };
    }
    m = /^(\d+\.\d+)([+-]\d)?$/.exec(text);
    if (m) return { words: `Write it in ${slotWords(m[1])}` + (m[2] ? ` (number ${m[2]})` : ""), group: "Write the number in a casino" };
    m = /^x(\d+\.\d+)([lr])$/.exec(text);
    if (m) return { words: `Expand from ${slotWords(m[1])} to the ${m[2] === "l" ? "left" : "right"}`, group: "Expand" };
    const [verb, arg] = text.split(" ");
    if (verb === "con") return { words: `Build the crane casino at ${slotWords(arg)}`, group: "Construction" };
    if (verb === "up") return { words: `Upgrade: ${(UP_LABEL[arg] || [arg])[0]}`, group: "Upgrade" };
    if (verb === "limo") return `Drive the limousine ${DIR_WORD[arg] || arg}`;
    return text;
  }

  T.registerBoard("newlasvegas", { render: renderFromPage, reset, outcome, describeMove });
})();
