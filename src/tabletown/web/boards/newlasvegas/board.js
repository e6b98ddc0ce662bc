// Welcome To New Las Vegas: the whole city plan and score sheet as SVG, a round in clicks, the other
// architects' sheets read-only, who is still choosing, and ACME in solo.
//
// A round is composed here, in the browser: the engine applies every step at once, so to let the
// player undo until they confirm, the steps are played on a local copy of their sheet (the same step
// rules as rules.py's step_actions / play_step) and sent as one Plan in notation ("a, 2.5, con 3.6")
// when they confirm. The engine checks the whole plan; nothing is sent before, so nothing leaks.
// Data from the seat's view (payload.state); printed facts and words from the page's board words.
// The drawing of the city and the sheet is in sheet.js, the panels around it in panels.js (loaded
// before this script; see Tabletown.boardPart).
// The preamble below (strict mode, the Tabletown handle, its words) opens every page script alike on
// purpose: each script stands alone, with no build step to share it.
"use strict";
(function () {
  const T = window.Tabletown;
  const { el } = T;
  const t = T.t;
  const NS = "http://www.w3.org/2000/svg";
  // Words by id, looked up when read (the page's messages are read on first use): lookup(() => ({...})).
  function lookup(make, keys) {
    const out = {};
    for (const k of keys) Object.defineProperty(out, k, { enumerable: true, get: () => make()[k] });
    return out;
  }
  const UP_LABEL = lookup(() => ({
    open: [t("Opening"), t("rank 10/5/2 → 15/8/0")], grand: [t("Grand"), t("grand hotel")], small: [t("Small"), t("small hotel")],
    street: [t("Street"), t("street bonus")], par3: ["PAR 3", t("per hole")], par4: ["PAR 4", t("per hole")], par5: ["PAR 5", t("per hole")],
    vip: ["VIP", t("per VIP casino")], luxury: [t("Luxury"), t("per Luxury casino")], limo: [t("Limo"), t("per missing segment")],
  }), ["open", "grand", "small", "street", "par3", "par4", "par5", "vip", "luxury", "limo"]);
  const EFFECTS = ["op", "con", "up", "show", "limo"];
  const EFFECT_SHORT = lookup(() => ({ op: t("Opening"), con: t("Construction"), up: t("Upgrade"), show: t("Show"), limo: t("Limousine") }), EFFECTS);
  const EFFECT_HELP = lookup(() => ({
    op: t("mark the next opening box"), con: t("cross out a crane: that casino is built"),
    up: t("cross a yellow box of one column"), show: t("if the casino has a star: cross a show box"),
    limo: t("drive one segment to a neighbouring lamp"),
  }), EFFECTS);
  const DIR_WORD = lookup(() => ({ n: t("north"), s: t("south"), e: t("east"), w: t("west") }), ["n", "s", "e", "w"]);
  const counted = T.counted; // a number's form of a translated phrase

  let W = null; // board words
  let G = null; // geometry derived from the words
  const store = { who: null, events: new Map(), drafts: new Map(), viewing: null, soloNumber: null, bonus: "", easy: null, copyAt: null, sending: false, zoom: false };

  // -- helpers ---------------------------------------------------------------------------------------
  // An SVG element helper like lordsofvegas/board.js's, on purpose: each board stands alone, no drawing code shared
  // across games.
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
    return avenue ? t("street {street}, avenue {avenue}", { street, avenue }) : String(id);
  }
  function lampWords(lamp) {
    const street = Math.floor(lamp / G.nc) + 1, c = W.lamp_columns[lamp % G.nc];
    if (lamp === W.start_lamp) return t("the airport");
    if (c === 0) return t("the lamp at the start of street {street}", { street });
    if (c >= W.avenues) return t("the lamp at the end of street {street}", { street });
    return t("the lamp on street {street} after avenue {avenue}", { street, avenue: c });
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
  // An unconfirmed round survives a reload of the tab: its steps (notation) stay in this tab's
  // sessionStorage until they are sent, the round moves on, or the device passes to another seat
  // (then nothing of them may stay behind for the next player to find).
  const SAVED = "tt_nlv_draft";
  function savedSteps(key) {
    try {
      const saved = JSON.parse(sessionStorage.getItem(SAVED) || "null");
      if (!saved || saved.key !== key || !Array.isArray(saved.steps)) { forget(); return []; } // an older round's
      return saved.steps.filter((x) => typeof x === "string").slice(0, 8);
    } catch (e) { return []; }
  }
  function keep(d) {
    try {
      if (d.steps.length) sessionStorage.setItem(SAVED, JSON.stringify({ key: d.key, steps: d.steps.map((o) => o.text) }));
      else sessionStorage.removeItem(SAVED);
    } catch (e) { /* storage switched off: the round is only lost on reload */ }
  }
  function forget() {
    try { sessionStorage.removeItem(SAVED); } catch (e) { /* as above */ }
  }
  function draftFor(payload, me, ctx) {
    const st = payload.state;
    const entry = st.players[me];
    if (!entry || !entry.turn) return null;
    const key = [payload.table, me, st.round, st.phase, entry.turn.step, entry.turn.steps.length].join("|");
    let d = store.drafts.get(me);
    if (!d || d.key !== key) {
      const restored = savedSteps(key);
      d = { key, baseSheet: fromView(entry.sheet), steps: restored.map((text) => ({ text })), answers: [], waiting: false, error: "", restoring: restored.length > 0 };
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
      d.restoring = false;
    } else if (d.restoring) {
      // the steps kept from before a reload no longer fit (the table moved on): start the round afresh
      d.restoring = false;
      d.steps = [];
      forget();
      ask(d, me, ctx);
      return;
    } else {
      // refused or unreachable: take the step back and say why
      d.steps = d.steps.slice(0, Math.max(0, d.answers.length - 1));
      d.error = response && response.data && response.data.message ? response.data.message : t("The server did not answer; try again.");
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
    keep(d);
    ask(d, store.me, store.ctx);
    rerender();
  }
  function undo(st, d, all, rerender) {
    if (d.waiting) return;
    if (all) d.steps = []; else d.steps.pop();
    store.soloNumber = null; store.easy = null; store.copyAt = null;
    d.error = "";
    keep(d);
    if (current(d)) settle(d); else ask(d, store.me, store.ctx); // (steps kept from before a reload)
    rerender();
  }

  function turnFromView(v) {
    const idx = (n) => (n ? G.idx[n] : -1);
    return {
      stage: v.step, i: v.combination[0], j: v.combination[1], num: v.number, eff: v.effect, bonus: v.bonus,
      main: idx(v.opened), copy: idx(v.copied), refused: v.steps.some((x) => x.step === "refuse"), steps: v.steps,
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
      else if (x.step === "refuse") bits.push(t("no number fitted: 2 opening boxes"));
      else if (x.step === "open") bits.push(t("{number} on {slot}", { number: x.number, slot: slotWords(x.slot) }));
      else if (x.step === "expand") bits.push(t("copied {number} to {slot}", { number: x.number, slot: slotWords(x.slot) }));
      else if (effectOf(x) === "con") bits.push(t("built a crane casino"));
      else if (effectOf(x) === "op") bits.push(t("an opening box"));
      else if (effectOf(x) === "up") bits.push(t("upgraded {column}", { column: UP_LABEL[x.column] ? UP_LABEL[x.column][0] : x.column }));
      else if (effectOf(x) === "show") bits.push(t("a show"));
      else if (effectOf(x) === "limo") bits.push(t("limousine {direction}", { direction: DIR_WORD[x.direction] || x.direction }));
    }
    return bits.join(" · ") || t("nothing");
  }

  // -- drawing: the city plan and the score sheet (sheet.js) -------------------------------------------
  const { drawCity, drawSheet } = T.boardParts("newlasvegas").sheet({
    DIR_WORD, NO_LAST, UP_LABEL, counted, golfStatus, inSpan, isBuilt, lampWords, s, slotWords, title,
    get W() { return W; }, get G() { return G; },
  });

  // -- the page --------------------------------------------------------------------------------------
  function absorbEvents(payload, replayMode) {
    if (replayMode || !payload.since) store.events = new Map();
    (payload.events || []).forEach((e, k) => {
      const said = (payload.event_text || [])[k];
      store.events.set(e.i, { e, text: said && said[0] === e.i ? said[1] : e.kind });
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

  // the panels around the sheet (panels.js)
  const { acmePanel, cardsRow, decisionPanel, finalPanel, playersPanel, projectsRow, scoreChips } = T.boardParts("newlasvegas").panels({
    DIR_WORD, EFFECT_HELP, EFFECT_SHORT, UP_LABEL, acmeCounts, ask, choose, counted, roundSummary, slotWords, store, undo,
    get W() { return W; },
  });

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
    // a round sent (or a seat with nothing to choose): no unsent steps may stay stored in the tab
    if (ctx.draft && !(st.phase === "round" && (payload.to_act || []).includes(me))) forget();
    const ready = d && d.options; // the server's answer for the steps so far (the last one while asking)
    // while the server answers for a new step, nothing is clickable (a click then would do nothing)
    const options = ready && !d.waiting ? d.options : [];
    const viewing = store.viewing !== null && store.viewing < n ? store.viewing : (me !== null && me !== undefined ? me : 0);
    const mineShown = viewing === me;
    const models = st.players.map((p, q) => (q === me && ready ? d.sh : fromView(p.sheet)));
    const score = (ready && d.score) || st.score_now || null; // the score if the game ended now
    const est = st.players.map((p, q) => (score ? score.players[q] : null));
    const parts = [];

    // head: round, projects approved, who is still choosing
    parts.push(el("div", { class: "nlv-head" },
      el("span", { class: "nlv-round" }, st.phase === "loan" ? t("Before the first round") : st.phase === "over" ? t("Game over after round {round}", { round: st.round }) : t("Round {round}", { round: st.round })),
      st.phase === "reshuffle" ? el("span", { class: "nlv-phase" }, t("first project: reshuffle vote")) : null,
      st.first_game ? el("span", { class: "nlv-tag" }, t("first game")) : null,
      solo ? el("span", { class: "nlv-tag" }, t("solo vs ACME · architect {architect}", { architect: st.acme.architect })) : null,
      !solo && st.pile_sizes ? el("span", { class: "nlv-sub" }, t("piles: {sizes} cards", { sizes: st.pile_sizes.join(" / ") })) : null));

    // the result
    if (st.final) parts.push(finalPanel(st, payload, seats, me));

    // announcements of the last round's end
    const news = announcements();
    if (news.length && st.phase !== "loan") {
      parts.push(el("details", { class: "nlv-news", open: true },
        el("summary", {}, st.phase === "over" ? t("How the game ended") : t("Last round")),
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
          const at = targets.get(o.slot) || { label: "", opts: [] };
          at.opts.push(o);
          at.label = at.opts.length > 1 ? "?" : String(o.side === "l" ? d.sh.nums[o.slot - 1] : d.sh.nums[o.slot + 1]);
          targets.set(o.slot, at);
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
      const at = targets.get(i);
      if (!at) return;
      if (at.opt) onChoose(at.opt);
      else if (at.opts.length === 1) onChoose(at.opts[0]);
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
    const label = viewing === me ? (d && d.steps.length ? t("Your sheet (this round's steps drawn in blue, not sent yet)") : t("Your sheet"))
      : st.phase === "over" ? t("{name}'s sheet", { name: T.seatLabel(seats, viewing) })
        : t("{name}'s sheet as it stood at the start of this round (read-only)", { name: T.seatLabel(seats, viewing) });
    const sheetBox = el("section", { class: "nlv-sheet" + (viewing === me ? " mine" : " other") + (store.zoom ? " zoom" : "") },
      el("h3", {}, label, el("span", { class: "nlv-sheet-buttons" },
        el("button", { class: "small nlv-zoom", type: "button", title: t("draw the sheet larger (scroll sideways)"), onclick: () => { store.zoom = !store.zoom; rerender(); } }, store.zoom ? t("Fit to screen") : t("Zoom in")),
        viewing !== me && me !== null && me !== undefined ? el("button", { class: "small nlv-back", type: "button", onclick: () => { store.viewing = null; rerender(); } }, t("Back to my sheet")) : null)),
      est[viewing] || st.final ? scoreChips(est[viewing], st, viewing) : null,
      lastSteps ? el("p", { class: "nlv-sub nlv-last-legend" }, el("span", { class: "nlv-last-key" }),
        viewing === me ? t("Outlined in orange: what you did in round {round} — {summary}.", { round: last.round, summary: roundSummary(lastSteps) })
          : t("Outlined in orange: what {name} did in round {round} — {summary}.", { name: T.seatLabel(seats, viewing), round: last.round, summary: roundSummary(lastSteps) })) : null,
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
    // a label longer in the page's language than its room on the sheet (data-fit) is squeezed into it
    container.querySelectorAll("text[data-fit]").forEach((node) => {
      const room = Number(node.getAttribute("data-fit"));
      try {
        if (node.getComputedTextLength() > room) { node.setAttribute("textLength", room); node.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
      } catch (e) { /* not laid out (a hidden board) */ }
    });
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
    forget();
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
      const name = you ? t("You") : T.seatName(ctx.seats, 0, ctx.seat);
      const beat = res.ranks[0] === 1;
      return {
        headline: beat ? (you ? t("You beat ACME!") : t("{name} beats ACME", { name })) : you ? t("ACME wins this time") : t("ACME wins against {name}", { name }),
        detail: t("{points} points against ACME's {acme}.", { points: f.players[0].total, acme: f.acme.total }),
      };
    }
    const best = Math.max(...f.players.map((p) => p.total));
    return { detail: res.winners.length > 1 ? t("{points} points each.", { points: best }) : t("{points} points.", { points: best }) };
  }

  // A legal move (one step of a round, a loan, a vote) in words for the move list; the notation stays in
  // records, the API and the terminal.
  const BONUS_WORD = { e: "easy opening", f: "free action", x: "expansion" };
  function describeMove(text, payload) {
    // a whole round stored as one move (a bot's, or a typed plan): "c, 1.4, up limo", step by step
    if (text.includes(",")) {
      const said = text.split(",").map((step) => step.trim()).filter(Boolean).map((step) => {
        const d = describeMove(step, payload);
        return typeof d === "string" ? d : d.words;
      });
      return { words: said.join("; "), group: t("Choose a combination") };
    }
    const words = W || T.config("board-words") || {};
    const st = (payload && payload.state) || {};
    const simple = {
      loan: t("Take the loan"), noloan: t("Refuse the loan"), shuffle: t("Vote to reshuffle the piles"), keep: t("Vote to keep the piles"),
      skip: t("Use no effect"), op: t("Mark an opening box"), refuse: t("Write no number: mark 2 opening boxes"),
      show1: t("Hold a show (first show row)"), show2: t("Hold a show (second show row)"),
    };
    if (Object.prototype.hasOwnProperty.call(simple, text)) return simple[text];
    const effect = (e) => (EFFECT_HELP[e] ? t("{effect} ({help})", { effect: EFFECT_SHORT[e] || e, help: EFFECT_HELP[e] }) : EFFECT_SHORT[e] || e);
    const bonus = (b) => (words.bonuses || {})[b] || BONUS_WORD[b];
    let m = /^([abc])(?:\+([efx]))?$/.exec(text);
    if (m) {
      const c = (st.combinations || [])[m[1].charCodeAt(0) - 97];
      const what = c ? t("{number} with {effect}", { number: c.number, effect: effect(c.effect) }) : t("combination {letter}", { letter: m[1].toUpperCase() });
      return { words: m[2] ? t("Choose {what}, spending an opening group on the {bonus}", { what, bonus: bonus(m[2]) }) : t("Choose {what}", { what }), group: t("Choose a combination") };
    }
    m = /^([123])([123])$/.exec(text);
    if (m) {
      const hand = st.hand || [];
      const a = hand[Number(m[1]) - 1], b = hand[Number(m[2]) - 1];
      return { words: a && b ? t("Number {number} (card {a}) with {effect} (card {b})", { number: a.number, a: m[1], effect: effect(b.effect), b: m[2] })
        : t("Number of card {a}, effect of card {b}", { a: m[1], b: m[2] }), group: t("Choose two cards") };
    }
    m = /^(\d+\.\d+)([+-]\d)?$/.exec(text);
    if (m) return { words: m[2] ? t("Write it in {slot} (number {change})", { slot: slotWords(m[1]), change: m[2] }) : t("Write it in {slot}", { slot: slotWords(m[1]) }), group: t("Write the number in a casino") };
    m = /^x(\d+\.\d+)([lr])$/.exec(text);
    if (m) return { words: m[2] === "l" ? t("Expand from {slot} to the left", { slot: slotWords(m[1]) }) : t("Expand from {slot} to the right", { slot: slotWords(m[1]) }), group: t("Expand") };
    const [verb, arg] = text.split(" ");
    if (verb === "con") return { words: t("Build the crane casino at {slot}", { slot: slotWords(arg) }), group: t("Construction") };
    if (verb === "up") return { words: t("Upgrade: {column}", { column: (UP_LABEL[arg] || [arg])[0] }), group: t("Upgrade") };
    if (verb === "limo") return t("Drive the limousine {direction}", { direction: DIR_WORD[arg] || arg });
    return text;
  }

  T.registerBoard("newlasvegas", { render: renderFromPage, reset, outcome, describeMove });
})();
