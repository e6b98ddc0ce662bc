// The replay page: step through a table (a finished one entirely; an unfinished one only as far as
// everyone has seen it) or an uploaded record, as any seat the viewer may see; and check a finished
// record's fairness: its seed and salt must hash to the commitment published before the first move.
// The preamble below (strict mode, the Tabletown handle, its words) opens every page script alike on
// purpose: each script stands alone, with no build step to share it.
"use strict";
(function () {
  const T = window.Tabletown;
  const { el, api } = T;
  const t = T.t; // the page's words in its language (the shared catalog)
  const cfg = T.config("replay-config");
  const $ = (id) => document.getElementById(id);
  let record = null; // an uploaded record
  let recordText = ""; // ... as the file has it (its seed may be past 2^53: sent on exactly as written)
  let steps = 0;
  let step = 0;
  let game = cfg.game;
  let players = cfg.num_players;
  const LAST = 10000000; // "the last move": the server clamps a step to the moves there are
  const KEPT = "tt_record"; // sessionStorage: the uploaded record's text, while the page changes boards
  let asked = 0; // answers to older requests than the newest are dropped (quick clicks)
  let shown = null; // the payload on the board
  let trying = null; // the rated decision whose better move the board shows instead of the move played

  // A translated sentence with elements in it: its {fields} become the given nodes (or texts).
  function rich(text, nodes) {
    return text.split(/(\{\w+\})/).filter((part) => part !== "").map((part) => {
      const field = /^\{(\w+)\}$/.exec(part);
      return field && nodes[field[1]] !== undefined ? nodes[field[1]] : part;
    });
  }

  function seatChoices() {
    // a finished table or a record: every seat; an unfinished table: only the seat this browser
    // holds, and none when it holds several (a shared device: the next player must not find the
    // last one's secret choices here; security audit 14)
    const holds = (cfg.held || []).map((h) => h.seat);
    const held = holds.length === 1 ? holds : [];
    const allowed = [];
    for (let s = 0; s < players; s++) {
      if (record || cfg.finished || held.includes(s)) allowed.push(s);
    }
    const select = $("view-seat");
    const keep = select.value;
    select.replaceChildren(el("option", { value: "" }, t("Spectator")), ...allowed.map((s) => el("option", { value: s }, t("Seat {n}", { n: s + 1 }))));
    select.value = allowed.map(String).includes(keep) ? keep : "";
  }

  // `what`: a rated decision made from position n, to show its better move played there instead
  async function show(n, what = null) {
    $("replay-error").textContent = "";
    const seatValue = $("view-seat").value;
    const seat = seatValue === "" ? null : Number(seatValue);
    const ticket = ++asked;
    const instead = what ? what.best : null;
    let response;
    if (record) {
      const body = JSON.stringify({ record: "@record@", step: Math.max(0, n), seat, instead });
      response = await api("POST", "/api/replay", body.replace('"@record@"', () => recordText.trim()));
    }
    else {
      // the seat by number: the server finds its token in this browser's cookie
      const query = new URLSearchParams({ step: String(Math.min(Math.max(0, n), LAST)) });
      if (seat !== null) query.set("seat", String(seat));
      if (instead !== null) query.set("instead", instead);
      response = await api("GET", `/api/tables/${encodeURIComponent(cfg.table)}/replay?${query}`);
    }
    if (ticket !== asked) return;
    if (!response.ok) { $("replay-error").textContent = (response.data && response.data.message) || t("Cannot show this step."); return; }
    const p = response.data;
    shown = p;
    trying = p.instead ? what : null;
    $("board").classList.toggle("what-if", trying !== null);
    if (record && p.title) $("replay-title").textContent = p.title;
    steps = p.steps;
    step = p.step;
    game = p.game;
    players = p.num_players;
    $("steps").textContent = steps;
    $("step").value = step;
    $("step").max = steps;
    $("status-line").textContent = p.over ? t("After move {n}: game over.", { n: step }) :
      t("After move {n}. To act: {names}", { n: step, names: (p.to_act || []).map((s) => T.seatLabel(p.seats, s)).join(", ") });

    // moves in words (the board's describeMove; the notation is in the downloaded record)
    const renderer = T.board(p.game);
    const moveWords = (text, mover = null) => {
      if (!renderer || typeof renderer.describeMove !== "function") return text;
      try {
        const d = renderer.describeMove(text, null, { seat: p.seat, seats: p.seats, act: null, mover });
        return d === null ? text : typeof d === "string" ? d : d.words || text;
      } catch (e) { return text; }
    };
    if (trying) $("status-line").textContent = t("What if move {n} had been {move}: the board after it.", { n: step + 1, move: moveWords(p.instead.move) });
    $("move-list").replaceChildren(...(p.moves || []).map(([seat, text], i) =>
      el("li", { class: i < step ? "done" : "", value: i + 1, tabindex: 0, onclick: () => show(i + 1),
        onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); show(i + 1); } } },
        `${T.seatLabel(p.seats, seat)}: `, text === null || text === undefined ? el("i", { class: "hint" }, t("a secret choice (shown at the end)")) : moveWords(text, seat))));
    $("event-log").replaceChildren(...(p.event_text || []).map(([i, text]) => el("li", { value: i }, text)));
    $("event-log").scrollTop = $("event-log").scrollHeight;
    const ctx = { seat: p.seat, legal: [], act: null, seats: p.seats };
    $("game-over").hidden = !p.over;
    if (p.over) {
      const told = T.outcome(game, p, ctx);
      $("outcome").textContent = told.headline;
      $("outcome-detail").textContent = told.detail;
    }
    T.board(game).render($("board"), p, ctx);
    moveCursor();
    if ($("view-seat").options.length <= 1) seatChoices();
    markMoves();
    describePick();
  }

  // -- the post-game analysis ---------------------------------------------------------------------------
  // A finished table's analysis (web/analyses.py): asked for when the page opens, made by a bot
  // worker, then drawn as a win-chance graph (one line per seat) with the mistakes and blunders on
  // it, marks in the move list, and the better move of the decision at the shown position.
  let analysis = null;
  let byIndex = new Map(); // a rated decision by its move number
  const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
  const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"];
  const SVGNS = "http://www.w3.org/2000/svg";

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, String(v));
    }
    for (const child of children) node.append(child);
    return node;
  }

  function className(cls) {
    return { inaccuracy: t("inaccuracy"), mistake: t("mistake"), blunder: t("blunder") }[cls] || "";
  }

  function seatName(seat) {
    return shown ? T.seatLabel(shown.seats, seat) : t("Seat {n}", { n: seat + 1 });
  }

  // The players of a game (this browser holds a seat) get its analysis without asking; a visitor
  // asks with a button, so opening replays one after another never spends anyone's analysis quota.
  async function loadAnalysis(ask = (cfg.held || []).length > 0) {
    if (!cfg.table || !cfg.finished || !$("analysis")) return;
    const url = `/api/tables/${encodeURIComponent(cfg.table)}/analysis`;
    let response = await api("GET", url);
    const status = $("analysis-status");
    const bar = $("analysis-progress");
    const button = $("analysis-ask");
    button.hidden = true;
    if (response.ok && response.data.status === "none") {
      if (!ask) {
        status.textContent = t("This game has not been analysed yet.");
        button.hidden = false;
        return;
      }
      response = await api("POST", url);
    }
    if (!response.ok) { status.textContent = (response.data && response.data.message) || t("The analysis cannot be shown."); return; }
    const d = response.data;
    if (d.status === "unavailable") {
      status.textContent = d.rule === "analysis.too_long" ? t("This game is too long to be analysed.") :
        t("Games like this one (this number of players, these options) are not analysed yet.");
      return;
    }
    if (d.status === "pending" || d.status === "running") {
      status.textContent = d.status === "pending" ? t("The analysis is queued…") :
        t("Analysing every decision: {n}% done…", { n: Math.round((d.progress || 0) * 100) });
      bar.hidden = false;
      bar.value = d.progress || 0;
      setTimeout(loadAnalysis, 1500);
      return;
    }
    bar.hidden = true;
    if (d.status !== "done" || !d.analysis) {
      status.textContent = t("This game cannot be analysed: {reason}", { reason: d.error || d.status });
      return;
    }
    analysis = d.analysis;
    byIndex = new Map((analysis.decisions || []).map((decision) => [decision.index, decision]));
    status.textContent = t("Each seat's chance to win after every move, estimated from what that seat could see. Click a mark to see the better move.");
    drawGraph();
    moveCursor();
    drawSeats();
    markMoves();
    describePick();
  }

  function drawGraph() {
    const curve = analysis.curve || [];
    if (curve.length < 2) return;
    const width = 720, height = 200, left = 34, right = 8, top = 8, bottom = 18;
    const x = (i) => left + (width - left - right) * i / (curve.length - 1);
    const y = (v) => top + (height - top - bottom) * (1 - Math.max(0, Math.min(1, v)));
    const parts = [];
    // a click anywhere on the graph shows the position after the nearest move
    const area = svg("rect", { class: "graph-area", x: left, y: top, width: width - left - right, height: height - top - bottom, fill: "transparent" });
    area.addEventListener("click", (e) => {
      const box = area.getBoundingClientRect();
      if (!box.width) return;
      show(Math.round((e.clientX - box.left) / box.width * (curve.length - 1)));
    });
    parts.push(area);
    for (const level of [0, 0.5, 1]) {
      parts.push(svg("line", { x1: left, x2: width - right, y1: y(level), y2: y(level), stroke: "#ccc", "stroke-width": level === 0.5 ? 1.2 : 0.6 }));
      parts.push(svg("text", { x: left - 4, y: y(level) + 4, "font-size": 10, "text-anchor": "end", fill: "#555" }, `${level * 100}%`));
    }
    const seats = curve[0].length;
    for (let seat = 0; seat < seats; seat++) {
      const points = curve.map((row, i) => `${x(i).toFixed(1)},${y(row[seat]).toFixed(1)}`).join(" ");
      parts.push(svg("polyline", { class: `seat-line seat-${seat}`, fill: "none", stroke: COLOURS[seat % COLOURS.length], "stroke-width": 1.6, points },
        svg("title", {}, seatName(seat))));
    }
    for (const decision of analysis.decisions || []) {
      if (decision.class !== "mistake" && decision.class !== "blunder") continue;
      if (decision.index >= curve.length) continue;
      const colour = COLOURS[decision.seat % COLOURS.length];
      const label = t("Move {n}: {kind} by {name}, {points} points of winning chance lost", {
        n: decision.index, kind: className(decision.class), name: seatName(decision.seat), points: Math.round(decision.loss * 100) });
      parts.push(svg("circle", {
        class: `mark ${decision.class}`, "data-index": decision.index, cx: x(decision.index), cy: y(curve[decision.index][decision.seat]),
        r: decision.class === "blunder" ? 5.5 : 4, fill: decision.class === "blunder" ? "#000" : "#fff", stroke: colour, "stroke-width": 2,
        tabindex: 0, role: "button", "aria-label": label,
        onclick: () => pick(decision), onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") pick(decision); },
      }, svg("title", {}, label)));
    }
    graphX = x;
    parts.push(svg("line", { class: "cursor", id: "graph-cursor", x1: x(0), x2: x(0), y1: top, y2: height - bottom }));
    $("analysis-graph").replaceChildren(svg("svg", { class: "chance-graph", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": t("Each seat's chance to win after every move") }, ...parts));
  }

  let graphX = null; // the graph's x of a move number, once it is drawn

  // the graph's cursor follows the position on the board
  function moveCursor() {
    const cursor = $("graph-cursor");
    const curve = analysis ? analysis.curve || [] : [];
    if (!cursor || !graphX || curve.length < 2) return;
    const x = graphX(Math.max(0, Math.min(step, curve.length - 1)));
    cursor.setAttribute("x1", x);
    cursor.setAttribute("x2", x);
  }

  function drawSeats() {
    const table = $("analysis-seats");
    const head = el("tr", {}, ...[t("Seat"), t("Decisions"), t("Average loss (points)"), t("Inaccuracies"), t("Mistakes"), t("Blunders"), t("Luck (points)")].map((h) => el("th", {}, h)));
    const rows = (analysis.seats || []).map((s) => el("tr", {},
      el("td", {}, el("span", { class: "dot", style: `background:${COLOURS[s.seat % COLOURS.length]}` }), seatName(s.seat)),
      el("td", {}, String(s.decisions)), el("td", {}, (s.average_loss * 100).toFixed(1)),
      el("td", {}, String(s.inaccuracies)), el("td", {}, String(s.mistakes)), el("td", {}, String(s.blunders)),
      el("td", {}, (s.luck >= 0 ? "+" : "") + Math.round(s.luck * 100))));
    table.replaceChildren(head, ...rows);
    table.hidden = false;
  }

  function markMoves() {
    if (!analysis) return;
    for (const item of $("move-list").children) {
      const decision = byIndex.get(Number(item.value));
      if (!decision || !decision.class || item.classList.contains("rated")) continue;
      item.classList.add("rated", `rated-${decision.class}`);
      item.append(" ", el("span", { class: "mark", title: className(decision.class) }, MARKS[decision.class]));
    }
  }

  // The decision made from the shown position (the next move), when the analysis rates it.
  function describePick() {
    const box = $("analysis-pick");
    if (!box || !analysis) return;
    const decision = byIndex.get(step + 1);
    if (!decision || !decision.class) { box.hidden = true; return; }
    const words = (text) => {
      const renderer = T.board(game);
      if (!renderer || typeof renderer.describeMove !== "function" || !shown) return text;
      try {
        const said = renderer.describeMove(text, null, { seat: decision.seat, seats: shown.seats, act: null });
        return said === null ? text : typeof said === "string" ? said : said.words || text;
      } catch (e) { return text; }
    };
    box.replaceChildren(
      el("strong", {}, t("Next move, {kind}:", { kind: className(decision.class) })), " ",
      t("{name} played {move} ({after}% to win); better was {best} ({best_chance}%).", {
        name: seatName(decision.seat), move: words(decision.played), after: Math.round(decision.chance_after * 100),
        best: words(decision.best), best_chance: Math.round(decision.chance_best * 100) }));
    // the better move on the board: the position after it, in place of the move played
    const toggle = trying === decision ?
      el("button", { type: "button", class: "small", id: "what-if", onclick: () => show(step) }, t("Back to the move played")) :
      el("button", { type: "button", class: "small", id: "what-if", onclick: () => show(step, decision) }, t("Show the better move on the board"));
    box.append(" ", toggle);
    box.className = `analysis-pick ${decision.class}`;
    box.hidden = false;
  }

  function pick(decision) {
    // the position the decision was made in: the move list and the panel then show what was better
    show(decision.index - 1);
  }

  // -- fairness ---------------------------------------------------------------------------------------
  // The seed as decimal text: the server's seed_text when it sends one, else the digits as they stand
  // in the JSON text (JSON.parse rounds integers past 2^53; seeds go up to 2^63-1).
  function seedText(data, text) {
    const fair = (data && data.fairness) || {};
    for (const candidate of [data && data.seed_text, fair.seed_text]) {
      if (typeof candidate === "string" && /^\d+$/.test(candidate)) return candidate;
    }
    const raw = rawJsonValue(text, ["seed"]);
    if (raw && /^"?\d+"?$/.test(raw)) return raw.replace(/"/g, "");
    return null;
  }

  // The raw text of the value at `path` (object keys) in a JSON text, or null: a small scanner that
  // never turns numbers into JS numbers.
  function rawJsonValue(text, path) {
    let i = 0;
    const ws = () => { while (i < text.length && " \t\n\r".includes(text[i])) i++; };
    function str() {
      let out = "";
      i++; // the opening quote
      while (i < text.length && text[i] !== '"') {
        if (text[i] === "\\") { out += text.slice(i, i + 2); i += 2; } else out += text[i++];
      }
      i++;
      return out;
    }
    function value(depth, on) {
      ws();
      const start = i;
      const c = text[i];
      if (c === "{" || c === "[") {
        const object = c === "{";
        i++; ws();
        let found = null;
        if (text[i] === (object ? "}" : "]")) { i++; return null; }
        for (;;) {
          ws();
          let hit = false;
          if (object) {
            const key = str(); ws();
            if (text[i] !== ":") throw new Error("bad JSON");
            i++;
            hit = on && depth < path.length && key === path[depth];
          }
          const got = value(depth + 1, hit);
          if (hit && found === null) found = got;
          ws();
          if (text[i] === ",") { i++; continue; }
          if (text[i] === (object ? "}" : "]")) { i++; break; }
          throw new Error("bad JSON");
        }
        return found;
      }
      if (c === '"') str();
      else while (i < text.length && !",}] \t\n\r".includes(text[i])) i++;
      return on && depth === path.length ? text.slice(start, i) : null;
    }
    try { return value(0, true); } catch (e) { return null; }
  }

  // ``uploaded``: the file is all there is to go by. Its seed, salt and commitment agreeing shows only
  // that the file agrees with itself (anyone can write all three); it is the commitment a table
  // showed before its first move that makes the dice fair (security audit 34).
  async function checkFairness(data, text, uploaded = false) {
    const box = $("fairness-check");
    const say = (kind, ...parts) => { box.className = "fair-check " + kind; box.replaceChildren(...parts); box.hidden = false; };
    if (!data || typeof data !== "object") { box.hidden = true; return; }
    const chosen = data.seed_chosen === true;
    const practice = chosen ? [" ", el("span", { class: "badge practice" }, t("seed chosen by creator")),
      " " + t("This was a practice table: its creator chose the seed and could foresee every die and draw.")] : [];
    const commitment = typeof data.commitment === "string" ? data.commitment.toLowerCase() : null;
    if (data.complete === false) {
      say("note", t("The game is not over: seed and salt stay secret until the end.") + " ",
        ...(commitment ? rich(t("Commitment published before the first move: {code}"), { code: el("code", { title: commitment }, commitment) }) : []), ...practice);
      return;
    }
    if (!commitment) {
      say("note", t("This record carries no fairness commitment (a game played outside a Tabletown server), so nothing can be checked."), ...practice);
      return;
    }
    const seed = seedText(data, text);
    const salt = data.salt;
    if (seed === null || typeof salt !== "string" || !salt) {
      say("bad", t("Warning: this record has a commitment but no seed or salt to check it with: the dice and draws cannot be shown to be fair."));
      return;
    }
    const computed = await T.sha256Hex(T.commitmentText(seed, salt));
    if (computed === commitment && uploaded) {
      say("note", ...rich(t("The seed and salt match the commitment written in this file: {code}. A file can be written to agree with itself, so compare that commitment with the one the table showed before its first move."), { code: el("code", { title: commitment }, commitment) }), ...practice);
    } else if (computed === commitment) {
      say("ok", t("Fair: the seed matches the commitment published before the first move.") + " ",
        el("details", {}, el("summary", {}, t("how this was checked")),
          el("p", {}, rich(t("SHA-256 of {text} is {hash}, the commitment every seat saw from the first move on."),
            { text: el("code", {}, T.commitmentText(seed, salt)), hash: el("code", { class: "computed" }, computed) }))), ...practice);
    } else {
      say("bad", t("WARNING: the seed and salt of this record do NOT match its commitment. The dice and draws are not the ones promised before the first move.") + " ",
        el("p", {}, rich(t("commitment {code}"), { code: el("code", {}, commitment) })),
        el("p", {}, rich(t("computed {code}"), { code: el("code", { class: "computed" }, computed) })), ...practice);
    }
  }

  // -- an uploaded record -------------------------------------------------------------------------------
  // JSON.parse reads the record's shape only (game, seats, commitment): numbers past 2^53 (the seed)
  // come out rounded, so the server always gets the file's own text and replays from its exact seed.
  // The page draws with the board of the game it was opened for (/replay?game=NAME): a record of
  // another game is kept in this tab's sessionStorage and the page comes back with that game's board.
  function watch(text, fresh, name) {
    let data;
    try {
      data = JSON.parse(text);
      if (!data || typeof data !== "object" || Array.isArray(data) || typeof data.game !== "string") throw new Error("not a record");
    } catch (err) {
      if (fresh) { record = null; $("replay-error").textContent = t("This file is not a Tabletown record."); }
      return;
    }
    const opened = new URLSearchParams(location.search).get("game"); // a game the server may not know
    if (data.game !== cfg.game && data.game !== opened) {
      if (!fresh) return; // kept for another game's page
      try {
        sessionStorage.setItem(KEPT, text);
        sessionStorage.setItem(KEPT + "_name", name || "");
        location.assign("/replay?game=" + encodeURIComponent(data.game));
        return;
      } catch (e) { /* storage full or off: draw it here with the generic board */ }
    }
    if (fresh) {
      try { sessionStorage.setItem(KEPT, text); sessionStorage.setItem(KEPT + "_name", name || ""); }
      catch (e) { /* it is shown anyway */ }
    }
    $("record-name").textContent = name ? t("Watching {name}", { name }) : "";
    record = data;
    recordText = text;
    players = (data.seats || []).length;
    seatChoices();
    show(0);
    checkFairness(data, text, true);
  }

  async function loadTableRecord() {
    const response = await api("GET", `/api/tables/${encodeURIComponent(cfg.table)}/record`);
    if (response.ok) await checkFairness(response.data, response.text);
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("first").onclick = () => show(0);
    $("back").onclick = () => show(step - 1);
    $("forward").onclick = () => show(step + 1);
    $("last").onclick = () => show(steps);
    $("step").onchange = () => { show(Number($("step").value)); $("step").blur(); };
    $("view-seat").onchange = () => show(step);
    document.addEventListener("keydown", (e) => {
      if (e.target.tagName === "INPUT") return;
      if (e.key === "ArrowLeft") show(step - 1);
      if (e.key === "ArrowRight") show(step + 1);
    });
    const file = $("record-file");
    if (file) {
      file.onchange = async () => {
        let text;
        try { text = await file.files[0].text(); } catch (err) { $("replay-error").textContent = t("This file cannot be read."); return; }
        watch(text, true, file.files[0].name);
      };
      // a record brought here from /replay (the page came back with its game's board)
      let kept;
      try { kept = sessionStorage.getItem(KEPT); } catch (e) { kept = null; }
      if (kept) watch(kept, false, sessionStorage.getItem(KEPT + "_name") || "");
    } else {
      seatChoices();
      show(cfg.finished ? 0 : LAST);
      loadTableRecord();
      const askButton = $("analysis-ask");
      if (askButton) askButton.addEventListener("click", () => { askButton.hidden = true; loadAnalysis(true); });
      loadAnalysis();
    }
  });
  window.TabletownReplay = { rawJsonValue, seedText, current: () => shown, analysis: () => analysis };
})();
