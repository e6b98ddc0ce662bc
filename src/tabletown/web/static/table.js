// The table page: the seat's view live over a WebSocket (reconnecting without losing events), the
// legal moves as buttons, the event log in words, the fairness commitment, and hot-seat play.
//
// Authentication: the seat tokens live only in the table's HttpOnly cookie; the page names a seat
// (?seat=N, {"seat": N}) and the server takes that seat's token from the cookie.
//
// Hot-seat (one browser holds several seats): a seat's view is shown only after its player pressed
// "I am <seat>, show my seat" on the pass screen. Before the pass screen appears everything a seat
// saw is taken out of the page (board, moves, log, status, seat list) and out of memory (payload,
// events, the boards' own memory), and the seat's WebSocket is closed; the next seat's view is
// requested only once its player confirms. The pass screen comes first of all when several seats are
// held, and whenever the seat shown need not act while another held seat must.
// The preamble below (strict mode, the Tabletown handle, its words) opens every page script alike on
// purpose: each script stands alone, with no build step to share it.
"use strict";
(function () {
  const T = window.Tabletown;
  const { el, api } = T;
  const t = T.t; // the page's words in its language (the shared catalog)
  const cfg = T.config("table-config");
  const held = [...new Set((cfg.held || []).map((h) => h.seat))].sort((a, b) => a - b);
  const hotSeat = held.length > 1;
  let active = held.length === 1 ? held[0] : null; // the seat shown (null: spectator or pass screen)
  let passing = false; // the pass screen is up
  let payload = null;
  let awaitedSeq = 0; // the table's move count after your last stored move (see act)
  let events = new Map();
  let count = 0;
  let socket = null;
  let retry = 500;
  let receivedAt = 0;
  let unreachable = false; // the error shown says only that the server could not be reached
  let generation = 0; // bumped whenever a seat's view is dropped: late answers of the old seat are ignored
  let publicSeats = cfg.seats || []; // seat names (public), for the pass screen's words
  let fairness = null; // public: the commitment, whether the seed was chosen, the seed after the end
  let boardShell = null; // an empty #board to start every seat from
  // Following the other seats' turns (issue 27): the payloads received are shown one step at a time at the
  // table's pace; `payload` is the one on the board, `latest` the newest received (see "following" below).
  let latest = null;
  let queue = []; // steps still to show: {payload, events, seat, upTo, wait}
  let stepShown = null; // the step whose dice, payments and highlights are on the board: {seat, events}
  let shownCount = 0; // the events up to (not including) this index are on the board and in the log
  let holdUntil = 0; // the step on the board stays at least until then
  let pumpTimer = null;
  let turnSeat = null; // whose turn the newest event received belongs to (the board's follow.turn)
  let lastEvent = null; // the newest event received
  let spokenTurns = ""; // the last-turn summaries as last written into the live region
  const $ = (id) => document.getElementById(id);

  function label(seat) { return T.seatLabel(publicSeats, seat); }
  // A translated sentence with elements in it: its {fields} become the given nodes (or texts).
  function rich(text, nodes) {
    return text.split(/(\{\w+\})/).filter((part) => part !== "").map((part) => {
      const field = /^\{(\w+)\}$/.exec(part);
      return field && nodes[field[1]] !== undefined ? nodes[field[1]] : part;
    });
  }

  // -- talking to the server ----------------------------------------------------------------------------
  function absorb(p, gen) {
    if (gen !== generation || passing) return;
    if (Object.prototype.hasOwnProperty.call(p, "seat") && (p.seat === undefined ? null : p.seat) !== active) return;
    const fresh = [];
    (p.events || []).forEach((e, k) => {
      const text = (p.event_text || [])[k];
      if (!events.has(e.i)) fresh.push(e);
      events.set(e.i, { event: e, text: text && text[0] === e.i ? text[1] : e.kind });
    });
    if (typeof p.event_count === "number") count = p.event_count;
    receivedAt = Date.now();
    enqueue(p, fresh);
  }

  function connect() {
    const gen = generation;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const query = new URLSearchParams({ since: String(count) });
    if (active !== null) query.set("seat", String(active));
    const mine = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(cfg.table)}?${query}`);
    socket = mine;
    mine.onmessage = (message) => {
      if (mine !== socket || gen !== generation) return;
      const data = JSON.parse(message.data);
      if (data.type === "view") {
        retry = 500;
        // back in touch: an error that only said the server could not be reached is stale now
        if (unreachable) { unreachable = false; $("move-error").textContent = ""; }
        absorb(data, gen);
      }
      else if (data.type === "chat") addChat([data]);
    };
    mine.onclose = (event) => {
      if (mine !== socket || gen !== generation) return;
      socket = null;
      if (event.code >= 4000 && event.code !== 4429 && event.code !== 4503) {
        const reason = event.reason || t("refused");
        $("status-line").textContent = t("This page cannot follow the table: {reason}.", { reason });
        return;
      }
      $("status-line").textContent = t("Connection lost; reconnecting…");
      // spread by chance: the pages a restarted server process held do not all come back at once
      const wait = retry * (0.5 + Math.random());
      setTimeout(() => { if (gen === generation && socket === null && !passing) { connect(); loadChat(); } }, wait);
      retry = Math.min(retry * 2, 8000);
    };
  }

  function disconnect() {
    if (!socket) return;
    const old = socket;
    socket = null;
    old.onmessage = null;
    old.onclose = null;
    old.close();
  }

  async function refresh() {
    const gen = generation;
    const query = new URLSearchParams({ since: String(count) });
    if (active !== null) query.set("seat", String(active));
    const response = await api("GET", `/api/tables/${encodeURIComponent(cfg.table)}?${query}`);
    if (response.ok && gen === generation) absorb(response.data, gen);
    return response;
  }

  async function act(text, again) {
    if (active === null || !payload || passing) return;
    // your own move is never delayed: the others' steps are shown at once, and the answer to this move
    // does not wait for the last step's time on the board
    holdUntil = 0;
    if (queue.length) skip();
    const gen = generation;
    $("move-error").textContent = "";
    document.querySelectorAll("#legal-moves button").forEach((b) => (b.disabled = true));
    const response = await api("POST", `/api/tables/${encodeURIComponent(cfg.table)}/actions`, { seat: active, seq: payload.seq, action: text });
    if (gen !== generation) return; // the seat was handed over meanwhile: say nothing of its move
    if (response.status === 409 && !again) {
      const before = count;
      const fresh = await refresh();
      if (gen !== generation) return;
      const learned = fresh.ok && (fresh.data.events || []).some((e) => e.i >= before);
      // a typed plan ("a, 2.5, skip") is never listed: its first step being legal is what counts
      const legalNow = fresh.ok ? fresh.data.legal || [] : [];
      if (fresh.ok && !learned && (legalNow.includes(text) || legalNow.includes(text.split(",")[0].trim()))) return act(text, true);
      $("move-error").textContent = t("The table moved on: have a look and choose again.");
    } else if (!response.ok) {
      const d = response.data || {};
      unreachable = response.status === 0;
      $("move-error").textContent = (d.message || t("The move was refused")) + (d.rule ? ` [${d.rule}]` : "");
    } else if (response.data && Number.isInteger(response.data.seq)) {
      // the move is stored; until the position after it arrives, the moves shown are the old ones, and
      // choosing one of them would only be refused as stale (409)
      awaitedSeq = Math.max(awaitedSeq, response.data.seq);
    }
    render();
  }

  // Where the seat's unsent steps lead (a New Las Vegas round composed click by click): the server
  // answers from the rules; nothing is stored. null when the seat was handed over meanwhile.
  async function draft(steps) {
    if (active === null || passing) return null;
    const gen = generation;
    const response = await api("POST", `/api/tables/${encodeURIComponent(cfg.table)}/draft`, { seat: active, steps });
    return gen === generation ? response : null;
  }

  // -- hot-seat -------------------------------------------------------------------------------------------
  // Take every trace of the shown seat out of the page and out of memory.
  function conceal() {
    generation++;
    disconnect();
    active = null;
    payload = null;
    awaitedSeq = 0;
    events = new Map();
    count = 0;
    forgetFollow();
    T.resetBoards();
    // a fresh, empty board: a board's late redraw (after its move was answered) lands in the old,
    // detached element, never in the page
    const board = $("board");
    if (board && boardShell) board.replaceWith(boardShell.cloneNode(false));
    else if (board) board.replaceChildren();
    ["legal-moves", "event-log", "seat-list", "outcome", "outcome-detail", "again-links"].forEach((id) => $(id).replaceChildren());
    $("game-over").hidden = true;
    $("again-created").hidden = true;
    $("move-error").textContent = "";
    $("status-line").textContent = "";
    delete $("status-line").dataset.seat;
    $("away-banner").hidden = true;
    $("play").hidden = true;
    $("name-form").hidden = true;
    $("hint-box").hidden = true;
    $("hint-text").textContent = "";
    nameFor = null;
    // the chat is public; redrawn without any seat's "You"
    const said = [...chatLines.values()];
    chatLines.clear();
    $("chat-log").replaceChildren();
    addChat(said);
  }

  function showPass(seat, acting) {
    passing = true;
    conceal();
    setTurn(acting !== false);
    $("pass-text").textContent = t("Pass the device to {name}.", { name: label(seat) });
    $("pass-hint").textContent = t("Nothing of anyone's seat is on the page until its player confirms.");
    const button = $("pass-button");
    button.textContent = t("I am {name}, show my seat", { name: label(seat) });
    button.dataset.seat = String(seat);
    button.disabled = false;
    button.onclick = () => takeSeat(seat);
    // each player at a shared device names their own seat here (kept when left empty)
    const named = (publicSeats[seat] || {}).name || "";
    const input = $("pass-name");
    input.value = named;
    input.placeholder = named ? "" : label(seat);
    input.onkeydown = (e) => { if (e.key === "Enter") { e.preventDefault(); takeSeat(seat); } };
    $("pass-screen").hidden = false;
    (named ? button : input).focus();
  }

  async function takeSeat(seat) {
    if (!passing) return;
    const typed = $("pass-name").value.trim();
    if (typed && typed !== ((publicSeats[seat] || {}).name || "")) {
      const named = await api("POST", `/api/tables/${encodeURIComponent(cfg.table)}/join`, { seat, name: typed });
      if (!named.ok) { $("pass-hint").textContent = (named.data && named.data.message) || t("That name was refused."); return; }
      if (publicSeats[seat]) publicSeats[seat] = { ...publicSeats[seat], name: typed };
    }
    if (!passing) return;
    passing = false;
    generation++;
    active = seat;
    $("pass-screen").hidden = true;
    $("play").hidden = false;
    $("status-line").textContent = t("You are {name}.", { name: label(seat) }) + " " + t("Connecting…");
    $("status-line").dataset.seat = String(seat);
    connect();
  }

  // the held seat to hand over to, when the shown one need not act and another held seat must
  function handOverTo(p) {
    if (!hotSeat || active === null || p.over || p.status === "error") return null;
    const toAct = p.to_act || [];
    if (toAct.includes(active)) return null;
    const next = held.find((s) => s !== active && toAct.includes(s));
    return next === undefined ? null : next;
  }

  // A shared device shows a seat only while that seat must act, and every seat's own view once the
  // game is over. With no seat of this device to act, it watches as a spectator (the board as
  // everyone sees it), and when one must act it asks for that seat's player: a seat that has
  // chosen in secret is never left on the screen for the next person (security audit 14).
  // True when the page changed mode (nothing else to draw for this payload).
  function sharedWatch(p) {
    if (!hotSeat || p.status === "error") return false;
    if (p.over || p.status === "finished") {
      // everything is public now: each player may look at their own seat again
      if (active === null && !passing) { showPass(held[0], false); return true; }
      return false;
    }
    const toAct = p.to_act || [];
    if (active !== null && !toAct.includes(active)) { watchTogether(); return true; }
    if (active === null) {
      const due = held.find((s) => toAct.includes(s));
      if (due !== undefined) { showPass(due); return true; }
    }
    return false;
  }

  function watchTogether() {
    passing = false;
    conceal();
    $("pass-screen").hidden = true;
    $("play").hidden = false;
    setTurn(false);
    connect(); // no seat: the spectator's view
  }

  // -- drawing --------------------------------------------------------------------------------------------
  function drawFairness() {
    const box = $("fairness");
    if (!fairness) return;
    const parts = [];
    if (fairness.seed_chosen) {
      parts.push(el("strong", { class: "practice" }, t("Practice table: the seed was chosen by its creator.")),
        " " + t("Whoever chose it can foresee every die and draw."));
    } else if (fairness.commitment) {
      parts.push(...rich(t("Dice and draws fixed before the first move: commitment {code}"),
        { code: el("code", { class: "commitment", title: fairness.commitment }, fairness.commitment.slice(0, 12) + "…") }));
    }
    const revealed = fairness.seed !== null && fairness.seed !== undefined;
    if (fairness.commitment) {
      parts.push(" ", el("details", { class: "fair-details" }, el("summary", {}, t("details")),
        el("p", {}, rich(t("SHA-256 commitment: {code}"), { code: el("code", { class: "commitment-full" }, fairness.commitment) })),
        el("p", {}, revealed ?
          t("The game is over: the record reveals the seed and the salt, and the step-by-step view of the game checks that they give this commitment.") :
          t("The server drew the seed in secret and published this hash of it (with a secret salt) before the first move. At the end the record reveals seed and salt, and anyone can check they give this hash."))));
    }
    if (revealed) parts.push(" ", el("a", { href: `/t/${encodeURIComponent(cfg.table)}/replay`, class: "verify-link" }, t("verify the seed")));
    box.replaceChildren(...parts);
    box.hidden = parts.length === 0;
  }

  // The seconds left on a seat's turn timer (null without one), counted down from the payload's
  // figure since it arrived: the server sends it with every view, the page ticks in between.
  function secondsLeft(seat) {
    const deadline = (payload.turn_deadline || {})[String(seat)];
    if (deadline === undefined || seat === null) return null;
    return Math.max(0, Math.round(deadline - (Date.now() - receivedAt) / 1000));
  }

  function clock(seconds) {
    const text = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
    return el("span", { class: seconds <= 10 ? "clock low" : "clock", title: t("{seconds}s left.", { seconds }) }, text);
  }

  function render(keepBoard) {
    if (!payload || passing) return;
    const seats = payload.seats || [];
    publicSeats = seats.map((s) => ({ seat: s.seat, kind: s.kind, name: s.name, label: s.label }));
    if (payload.fairness) fairness = payload.fairness;
    drawFairness();
    const next = handOverTo(payload);
    if (next !== null) { showPass(next); return; }
    if (sharedWatch(payload)) return;
    drawName();
    const toAct = payload.to_act || [];
    const mySeat = active;
    const over = payload.over || payload.status === "finished";
    $("download-record").hidden = !over;
    let line;
    const error = payload.error || t("error");
    if (payload.status === "error") line = t("This table cannot be played: {error}", { error });
    else if (payload.over) line = t("Game over after {count} moves.", { count: payload.seq });
    else if (!toAct.includes(mySeat)) line = t("Move {n}. Waiting for {names}.", { n: payload.seq, names: toAct.map((s) => T.seatLabel(seats, s)).join(", ") });
    else if (toAct.length > 1) line = t("Move {n}. Your turn (everyone chooses at once).", { n: payload.seq });
    else line = t("Move {n}. Your turn.", { n: payload.seq });
    const left = secondsLeft(mySeat);
    if (left !== null && toAct.includes(mySeat)) line += " " + t("{seconds}s left.", { seconds: left });
    const who = mySeat !== null ? t("You are {name}.", { name: T.seatLabel(seats, mySeat) }) :
      hotSeat && !over ? t("No seat of this device has to act now.") : t("You are watching.");
    $("status-line").textContent = who + " " + line;
    if (mySeat !== null) $("status-line").dataset.seat = String(mySeat); else delete $("status-line").dataset.seat;
    $("away-banner").hidden = !(mySeat !== null && seats[mySeat] && seats[mySeat].away);
    if ($("away-banner").hidden) $("back-error").textContent = "";
    const playing = queue.length > 0; // the others' steps are still being shown: your moves wait
    const stale = payload.seq < awaitedSeq; // your move is in, its position not yet here
    const legal = playing || stale ? [] : payload.legal || [];
    // (a spectator has no moves to wait for: the bar above the board has its own "Skip to now")
    if (playing && mySeat !== null) $("legal-moves").replaceChildren(el("p", { class: "hint follow-wait" }, t("Showing the other players' moves…") + " ",
      el("button", { class: "small", type: "button", onclick: skip }, t("Skip to now"))));
    else if (playing) { $("moves-title").hidden = true; $("legal-moves").replaceChildren(); }
    else drawMoves(legal, { seat: mySeat, legal, act: (text) => act(text), seats }, mySeat);
    const res = payload.result;
    $("seat-list").replaceChildren(...seats.map((s) => el("li", { class: toAct.includes(s.seat) ? "acting" : res && res.ranks[s.seat] === 1 ? "winner" : "" },
      // every acting seat's turn clock, as a chess site shows both clocks: whose time runs, and how much is left
      ...(toAct.includes(s.seat) && secondsLeft(s.seat) !== null ? [clock(secondsLeft(s.seat)), " "] : []),
      T.seatLabel(seats, s.seat), s.open ? " · " + t("open seat") : s.kind === "human" && !s.joined ? " · " + t("not here yet") : "",
      // places only when a seat won (no seat wins a solo game lost to its opponent: the board says so)
      s.away ? " · " + t("away (bot playing)") : "",
      res && res.winners.length ? " · " + (res.ranks[s.seat] === 1 ? t("{place} (winner)", { place: T.place(res, s.seat) }) : T.place(res, s.seat)) : "")));
    const log = $("event-log");
    const items = [...events.keys()].filter((i) => i < shownCount).sort((a, b) => a - b).slice(-300).map((i) => {
      const e = events.get(i);
      return el("li", { class: e.event.private ? "private" : "", value: i }, e.text);
    });
    log.replaceChildren(...items);
    log.scrollTop = log.scrollHeight;
    const follow = followView(mySeat, seats);
    const ctx = { seat: mySeat, legal, act: playing ? null : (text) => act(text), draft, seats, follow };
    drawFollow(follow, seats);
    drawGameOver(over && payload.status !== "error", ctx);
    setTurn(!over && mySeat !== null && toAct.includes(mySeat));
    drawHint(!over && mySeat !== null && toAct.includes(mySeat), legal);
    // whose step the board shows (a hook for styles and tests)
    const stepSeat = follow.step && follow.step.seat !== null && follow.step.seat !== undefined ? String(follow.step.seat) : "";
    if ($("board").dataset.followSeat !== stepSeat) $("board").dataset.followSeat = stepSeat;
    if (keepBoard === true) return;
    try { T.board(cfg.game).render($("board"), payload, ctx); }
    catch (err) { console.error(err); T.board("generic").render($("board"), payload, ctx); }
  }

  // -- following the other seats' turns ---------------------------------------------------------------------
  // Every payload received becomes one or more steps (a board with `follow` cuts its new events where a
  // move or a turn starts); the steps are shown in order, each staying on the board for the table's pace
  // (Instant / Fast / Normal / Slow, remembered per table in localStorage tt_pace:<table>; a new table
  // starts at the pace last chosen, tt_pace) when another
  // seat moved, and not at all when it was a seat of this browser: your own moves are never delayed.
  // While steps wait the board is drawn without your moves ("Skip to now" or any move of yours shows
  // everything at once). The board draws the step: the dice rolled, each payment as +N / −N at the seats
  // it touches, the card built or the tile laid highlighted; and each seat's last turn in words, kept
  // until your next move (a live region beside the board says them too).
  //   follow.turn(e, prev) -> the seat whose turn event e starts (else null/undefined)
  //   follow.step(e, prev) -> true when e starts a new step within a turn (a move of its own)
  //   follow.summary(events, seat, ctx) -> that turn in words
  //   follow.rewind(state, later, step) -> (optional) the state before the events `later` (see positionOf)
  //   follow.move(e, prev) -> (optional) true when e is a move its seat made (default: a turn or a step
  //     starts with it); the last turns told are those after your latest move
  const PACES = { instant: 0, fast: 500, normal: 1300, slow: 2600 };
  const MAX_PACED = 12;
  const paceKey = "tt_pace:" + cfg.table;
  // A table without a pace of its own takes the pace last chosen at any table in this browser (tt_pace),
  // else Normal.
  function pace() {
    for (const chosen of [localStorage.getItem(paceKey), localStorage.getItem("tt_pace")]) {
      if (chosen && Object.prototype.hasOwnProperty.call(PACES, chosen)) return chosen;
    }
    return "normal";
  }
  function followHooks() {
    const renderer = T.board(cfg.game);
    return renderer && renderer.follow ? renderer.follow : null;
  }
  function reducedMotion() {
    return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  function enqueue(p, fresh) {
    const hooks = followHooks();
    const initial = latest === null; // the first view shows the table as it is (its last turns in words)
    latest = p;
    const ordered = [...fresh].sort((a, b) => a.i - b.i);
    const steps = [];
    let current = null;
    for (const e of ordered) {
      let starts = current === null;
      if (hooks) {
        let seat = null;
        try { seat = hooks.turn(e, lastEvent); } catch (err) { console.error(err); }
        if (seat !== null && seat !== undefined) { turnSeat = seat; starts = true; }
        else {
          try { if (hooks.step && hooks.step(e, lastEvent)) starts = true; } catch (err) { console.error(err); }
        }
      }
      if (starts || (current && current.seat !== turnSeat)) {
        current = { payload: p, events: [], seat: turnSeat, upTo: e.i + 1, wait: 0 };
        steps.push(current);
      }
      current.events.push(e);
      current.upTo = e.i + 1;
      lastEvent = e;
    }
    const upTo = typeof p.event_count === "number" ? p.event_count : ordered.length ? ordered[ordered.length - 1].i + 1 : shownCount;
    if (!steps.length) steps.push({ payload: p, events: [], seat: null, upTo, wait: 0 });
    const delay = PACES[pace()];
    steps.forEach((step, k) => {
      step.payload = p;
      step.later = steps.slice(k + 1).flatMap((next) => next.events); // (a board may rewind them: `follow.rewind`)
      if (k === steps.length - 1) step.upTo = Math.max(step.upTo, upTo);
      const others = step.seat !== null && step.seat !== undefined && !held.includes(step.seat);
      step.wait = !initial && hooks && others && step.events.length && !document.hidden ? delay : 0;
    });
    if (initial) queue = [steps[steps.length - 1]];
    else queue.push(...steps);
    // back after a long absence (a reconnection): only the last few steps are shown one by one
    const paced = queue.filter((step) => step.wait);
    paced.slice(0, Math.max(0, paced.length - MAX_PACED)).forEach((step) => { step.wait = 0; });
    pump();
  }

  function pump() {
    clearTimeout(pumpTimer);
    pumpTimer = null;
    if (passing) return;
    let changed = false;
    while (queue.length) {
      const now = Date.now();
      if (now < holdUntil) { pumpTimer = setTimeout(pump, holdUntil - now); break; }
      const step = queue.shift();
      payload = positionOf(step);
      shownCount = Math.max(shownCount, step.upTo);
      if (step.events.length) stepShown = { seat: step.seat, events: step.events };
      holdUntil = step.wait ? now + step.wait : 0;
      changed = true;
    }
    // (also when a step was only queued: your moves wait from now on; a board without moves of yours is
    // left as it is then, its animations running on)
    if (changed) render();
    else if (payload) render(!(payload.legal || []).length);
  }

  // The payload to draw for a step: the payload itself, or, for a step followed by others in the same
  // payload (several moves pushed at once), the position before them when the board can rewind them
  // (`follow.rewind(state, later, step)` -> the state before the events `later`); no moves of yours then.
  function positionOf(step) {
    const p = step.payload;
    const hooks = followHooks();
    if (!step.later || !step.later.length || !hooks || !hooks.rewind || !p.state) return p;
    try {
      const state = hooks.rewind(p.state, step.later, step);
      const toAct = step.seat !== null && step.seat !== undefined ? [step.seat] : p.to_act;
      return { ...p, state, legal: [], to_act: toAct, over: false, result: null, turn_deadline: {},
        status: p.status === "finished" ? "running" : p.status };
    } catch (err) {
      // A board that cannot undo some event says so (CannotRewind): the step then shows the payload's
      // own position, as it always could; anything else is a bug worth logging.
      if (!err || err.name !== "CannotRewind") console.error(err);
      return p;
    }
  }

  // show everything received at once
  function skip() {
    holdUntil = 0;
    queue.forEach((step) => { step.wait = 0; });
    pump();
  }

  function forgetFollow() {
    clearTimeout(pumpTimer);
    pumpTimer = null;
    latest = null;
    queue = [];
    stepShown = null;
    shownCount = 0;
    holdUntil = 0;
    turnSeat = null;
    lastEvent = null;
    spokenTurns = "";
    $("last-turns").replaceChildren();
    $("follow-state").textContent = "";
    $("follow-skip").hidden = true;
  }

  // Each seat's last turn, as the board shows it: the events up to the step on the board, cut into turns;
  // for a seat of yours only the turns after your own latest one (they stay until your next move).
  function followView(me, seats) {
    const hooks = followHooks();
    // `fresh`: the step's first drawing (its animations play once, not again at each redraw)
    const view = { step: stepShown, fresh: !!(stepShown && !stepShown.drawn), last: {}, reduced: reducedMotion(), playing: queue.length > 0 };
    if (stepShown) stepShown.drawn = true;
    if (!hooks || !hooks.summary) return view;
    const list = [...events.keys()].filter((i) => i < shownCount).sort((a, b) => a - b).map((i) => events.get(i).event);
    const turns = [];
    let prev = null;
    let myMove = -1; // the index of your latest move
    list.forEach((e, k) => {
      let seat = null;
      try {
        seat = hooks.turn(e, prev);
        if (me !== null && e.seat === me && (hooks.move ? hooks.move(e, prev) : (seat !== null && seat !== undefined) || hooks.step(e, prev))) myMove = k;
      } catch (err) { console.error(err); }
      if (seat !== null && seat !== undefined) turns.push({ seat, start: k, events: [] });
      if (turns.length) turns[turns.length - 1].events.push(e);
      prev = e;
    });
    const ctx = { seat: me, seats };
    for (const turn of turns) {
      if (turn.seat === me || turn.start < myMove) continue;
      let text = "";
      try { text = hooks.summary(turn.events, turn.seat, ctx) || ""; } catch (err) { console.error(err); }
      if (text) view.last[turn.seat] = text;
    }
    return view;
  }

  function drawFollow(follow, seats) {
    const hooks = followHooks();
    $("follow-bar").hidden = !hooks;
    $("last-turns-box").hidden = !hooks; // (kept on the page while empty: a live region must be there before it speaks)
    if (!hooks) return;
    const select = $("follow-pace");
    if (select.value !== pace()) select.value = pace();
    const waiting = queue.filter((s) => s.events.length).length;
    $("follow-skip").hidden = !follow.playing;
    const step = follow.step;
    const whose = { name: step && T.seatLabel(seats, step.seat), count: waiting };
    $("follow-state").textContent = !(follow.playing && step && step.seat !== null && step.seat !== undefined) ? "" :
      !waiting ? t("Showing {name}'s turn.", whose) :
      waiting > 1 ? t("Showing {name}'s turn ({count} more steps).", whose) : t("Showing {name}'s turn ({count} more step).", whose);
    // the last turns in words: rewritten only when they change (a live region says what is new)
    const lines = Object.keys(follow.last).map(Number).sort((a, b) => a - b).map((s) => [s, `${T.seatLabel(seats, s)}: ${follow.last[s]}`]);
    const said = lines.map((l) => l[1]).join("\n");
    if (said === spokenTurns) return;
    spokenTurns = said;
    $("last-turns").replaceChildren(...lines.map(([s, text]) => el("li", { "data-seat": s }, text)));
  }

  function setPace(value) {
    if (!Object.prototype.hasOwnProperty.call(PACES, value)) return;
    localStorage.setItem(paceKey, value);
    localStorage.setItem("tt_pace", value);
    const delay = PACES[value];
    queue.forEach((step) => { if (step.wait) step.wait = delay; });
    if (!delay) skip();
    else if (payload) render();
  }

  // -- the moves in words -------------------------------------------------------------------------------------
  // A board words each legal move (`describeMove(text, payload, ctx)` -> words, {words, group}, or null for
  // a move made on the board only); the notation stays in records, the API and the terminal. Many moves of
  // one kind fold into a group the player opens.
  function drawMoves(legal, ctx, mySeat) {
    const box = $("legal-moves");
    $("moves-title").hidden = mySeat === null; // a spectator has no moves: only the line below
    if (!legal.length) {
      box.replaceChildren(el("p", { class: "hint" }, mySeat !== null ? t("Nothing to do now.") : t("Spectators watch.")));
      return;
    }
    const renderer = T.board(cfg.game);
    const groups = new Map();
    let onBoard = 0;
    for (const text of legal) {
      let told = { words: text, group: "" };
      if (renderer && typeof renderer.describeMove === "function") {
        try {
          const d = renderer.describeMove(text, payload, ctx);
          told = d === null ? null : typeof d === "string" ? { words: d, group: "" } : { words: d.words || text, group: d.group || "" };
        } catch (e) { console.error(e); }
      }
      if (told === null) { onBoard++; continue; }
      if (!groups.has(told.group)) groups.set(told.group, []);
      groups.get(told.group).push(el("button", { class: "move", type: "button", "data-move": text, onclick: () => act(text) }, told.words));
    }
    const open = $("legal-moves").querySelectorAll("details[open]");
    const wasOpen = new Set([...open].map((d) => d.dataset.group));
    const parts = [];
    for (const [group, buttons] of groups) {
      if (!group || buttons.length <= 4) { parts.push(...buttons); continue; }
      parts.push(el("details", { class: "move-group", "data-group": group, open: wasOpen.has(group) },
        el("summary", {}, `${group} (${buttons.length})`), el("div", { class: "moves" }, buttons)));
    }
    if (onBoard) parts.push(el("p", { class: "hint" }, (renderer && renderer.boardMovesHint) || t("Other moves are made on the board itself.")));
    box.replaceChildren(...parts);
  }

  // -- table chat --------------------------------------------------------------------------------------------
  // Public to everyone at the table (seats and spectators); plain text shown with text nodes only (el()
  // never parses HTML). The last 100 come with the page, new ones over the table's WebSocket.
  const chatLines = new Map(); // id -> message
  function addChat(messages) {
    let added = false;
    for (const m of messages || []) {
      if (!m || typeof m.id !== "number" || chatLines.has(m.id)) continue;
      chatLines.set(m.id, m);
      added = true;
    }
    if (!added) return;
    const ids = [...chatLines.keys()].sort((a, b) => a - b);
    while (ids.length > 200) chatLines.delete(ids.shift());
    const log = $("chat-log");
    log.replaceChildren(...ids.map((id) => {
      const m = chatLines.get(id);
      const mine = m.seat !== null && m.seat === active;
      return el("li", { class: "chat-line" + (m.spectator ? " spectator" : "") + (mine ? " mine" : ""), "data-id": id },
        el("strong", { class: "chat-who" }, mine ? t("You") : m.name), m.spectator && m.name !== "Spectator" ? el("span", { class: "chat-tag" }, " (" + t("spectator") + ")") : null,
        ": ", el("span", { class: "chat-text" }, m.text));
    }));
    log.scrollTop = log.scrollHeight;
  }

  async function loadChat() {
    const response = await api("GET", `/api/tables/${encodeURIComponent(cfg.table)}/chat`);
    if (response.ok && response.data) addChat(response.data.messages);
  }

  async function sendChat(event) {
    event.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    $("chat-error").textContent = "";
    if (!text || passing) return;
    const body = active !== null ? { seat: active, text } : { text, name: T.name() || null };
    const button = $("chat-send");
    button.disabled = true;
    const response = await api("POST", `/api/tables/${encodeURIComponent(cfg.table)}/chat`, body);
    button.disabled = false;
    if (!response.ok) {
      $("chat-error").textContent = (response.data && response.data.message) || t("The message was not sent.");
      return;
    }
    input.value = "";
    addChat([response.data]);
  }

  // -- first-move hints ----------------------------------------------------------------------------------------
  // A short hint for the decision at hand (web/help.py HINTS, through the board words) while it is this
  // seat's turn; "Turn hints off" is remembered in this browser (localStorage tt_hints).
  function hintKey(p, legal) {
    const st = p.state || {};
    if (st.pending && st.pending.decision) return st.pending.decision;
    if (legal.includes("draw")) return "draw";
    if (legal.some((m) => /^t /.test(m))) return "lay";
    if (legal.some((m) => /^\d[hv] /.test(m))) return "place";
    return st.phase || "";
  }
  function drawHint(myTurn, legal) {
    const off = localStorage.getItem("tt_hints") === "off";
    const hints = (T.config("board-words") || {}).hints || {};
    const text = myTurn && payload ? hints[hintKey(payload, legal)] : "";
    $("hint-box").hidden = off || !text;
    $("hint-text").textContent = off ? "" : text || "";
    $("hints-on-wrap").hidden = !off || held.length === 0;
  }
  function setHints(on) {
    localStorage.setItem("tt_hints", on ? "on" : "off");
    if (payload) render();
    else drawHint(false, []);
    (on ? $("hints-off") : $("hints-on")).focus();
  }

  // -- your name -------------------------------------------------------------------------------------------
  // The seat shown can (re)name itself at any time: POST .../join {name}; the name is on the board, in the
  // log and in the results for everyone.
  let nameFor = null; // the seat whose name the field holds
  function drawName() {
    const form = $("name-form");
    form.hidden = active === null || passing;
    if (form.hidden) { nameFor = null; return; }
    const input = $("name-input");
    const current = (publicSeats[active] || {}).name || "";
    if (nameFor !== active) delete form.dataset.editing;
    if (nameFor !== active || (document.activeElement !== input && !input.dataset.dirty)) {
      input.value = current;
      input.placeholder = current ? "" : T.seatLabel(publicSeats, active);
      nameFor = active;
    }
    // once named, one short line ("Playing as Ada · Change name") instead of a form above the board
    const compact = current !== "" && !form.dataset.editing && document.activeElement !== input && !input.dataset.dirty;
    for (const id of ["name-input", "name-save"]) $(id).hidden = compact;
    form.querySelector("label").hidden = compact;
    $("name-shown").hidden = $("name-change").hidden = !compact;
    $("name-shown").textContent = compact ? t("Playing as {name}", { name: current }) : "";
  }

  function changeName() {
    $("name-form").dataset.editing = "1";
    drawName();
    $("name-input").focus();
    $("name-input").select();
  }

  async function saveName(event) {
    event.preventDefault();
    if (active === null || passing) return;
    const input = $("name-input");
    const typed = input.value.trim();
    if (!typed) return;
    const response = await api("POST", `/api/tables/${encodeURIComponent(cfg.table)}/join`, { seat: active, name: typed });
    delete input.dataset.dirty;
    if (!response.ok) { $("name-state").textContent = (response.data && response.data.message) || t("That name was refused."); return; }
    if (!hotSeat) T.setName(typed);
    delete $("name-form").dataset.editing;
    input.blur();
    // the name as saved, at once (the table's next view says the same)
    if (publicSeats[active]) publicSeats[active] = { ...publicSeats[active], name: typed };
    drawName();
    $("name-state").textContent = t("Saved.");
    setTimeout(() => { $("name-state").textContent = ""; }, 2000);
  }

  // -- your turn -------------------------------------------------------------------------------------------
  // When a seat this browser holds must act: the tab's title and icon say so; a short sound if the player
  // switched it on (off by default); a notification while the tab is hidden, only once the player asked
  // for them with the button (the browser's permission prompt never comes on its own, never on load).
  const baseTitle = document.title;
  const TURN_TITLE = "● " + t("Your turn") + " — Tabletown";
  let myTurn = null; // null until the first view: opening the page at your turn is no news
  let audio = null;

  function setTurn(now) {
    document.title = now ? TURN_TITLE : baseTitle;
    const icon = document.getElementById("favicon");
    if (icon) icon.setAttribute("href", now ? "/static/favicon-turn.svg" : "/static/favicon.svg");
    const news = now && myTurn === false;
    myTurn = now;
    if (!news) return;
    if (localStorage.getItem("tt_sound") === "on") beep();
    if (document.hidden && notifyOn()) {
      try {
        const note = new Notification(t("Your turn"), { body: `${baseTitle}`, icon: "/static/favicon-turn.svg", tag: "tt-turn-" + cfg.table });
        note.onclick = () => { window.focus(); note.close(); };
      } catch (e) { /* the browser refused: the title and icon still say it */ }
    }
  }

  function beep() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const now = audio.currentTime;
      [[660, 0], [880, 0.12]].forEach(([hz, at]) => {
        const tone = audio.createOscillator(), gain = audio.createGain();
        tone.frequency.value = hz;
        gain.gain.setValueAtTime(0.0001, now + at);
        gain.gain.exponentialRampToValueAtTime(0.15, now + at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.18);
        tone.connect(gain).connect(audio.destination);
        tone.start(now + at);
        tone.stop(now + at + 0.2);
      });
    } catch (e) { /* no sound here */ }
  }

  function canNotify() { return "Notification" in window && window.isSecureContext; }
  function notifyOn() { return canNotify() && Notification.permission === "granted" && localStorage.getItem("tt_notify") === "on"; }

  function drawAlerts() {
    $("turn-alerts").hidden = held.length === 0 || !!(payload && payload.over); // spectators have no turn
    const sound = localStorage.getItem("tt_sound") === "on";
    $("sound-toggle").textContent = sound ? t("Sound at my turn: on") : t("Sound at my turn: off");
    $("sound-toggle").setAttribute("aria-pressed", String(sound));
    const button = $("notify-button");
    button.hidden = !canNotify();
    if (!canNotify()) { $("notify-state").textContent = ""; return; }
    const permission = Notification.permission;
    button.disabled = permission === "denied";
    button.textContent = notifyOn() ? t("Stop notifications") : t("Notify me at my turn");
    $("notify-state").textContent = permission === "denied" ? t("Notifications are blocked in this browser's settings.") :
      notifyOn() ? t("You get a notification at your turn while this tab is in the background.") : "";
  }

  async function toggleNotify() {
    if (!canNotify()) return;
    if (notifyOn()) { localStorage.setItem("tt_notify", "off"); drawAlerts(); return; }
    let permission = Notification.permission;
    if (permission === "default") {
      try { permission = await Notification.requestPermission(); } catch (e) { permission = Notification.permission; }
    }
    localStorage.setItem("tt_notify", permission === "granted" ? "on" : "off");
    drawAlerts();
  }

  function toggleSound() {
    const on = localStorage.getItem("tt_sound") !== "on";
    localStorage.setItem("tt_sound", on ? "on" : "off");
    if (on) beep(); // a sample, and the click lets the page play sound later
    drawAlerts();
  }

  // -- the end of the game ----------------------------------------------------------------------------------
  // Who won, by name, above the board (the board itself shows the breakdown in the game's own terms), and
  // "Play again": a new table with the same seats and options, through the same create API as the lobby.
  function drawGameOver(over, ctx) {
    $("game-over").hidden = !over;
    $("turn-alerts").hidden = held.length === 0 || over; // no more turns
    if (!over) return;
    const told = T.outcome(cfg.game, payload, ctx);
    $("outcome").textContent = told.headline;
    $("outcome-detail").textContent = told.detail;
    $("outcome-detail").hidden = !told.detail;
    $("game-over").classList.toggle("won", ctx.seat !== null && told.winners.includes(ctx.seat));
    $("play-again").hidden = held.length === 0; // a spectator holds no seat to play again with
  }

  async function playAgain() {
    if (!payload || !payload.over) return;
    const button = $("play-again");
    button.disabled = true;
    $("again-error").textContent = "";
    const old = payload.seats || [];
    const seats = old.map((s) => (s.open ? "open" : s.kind));
    const names = old.map((s, i) => (seats[i] === "human" && s.name ? s.name : null));
    const body = { game: cfg.game, options: payload.options || {}, seats };
    if (names.some((n) => n !== null)) body.names = names;
    if (payload.turn_timer) body.turn_timer = payload.turn_timer;
    const response = await api("POST", "/api/tables", body);
    if (!response.ok) {
      button.disabled = false;
      $("again-error").textContent = (response.data && response.data.message) || t("The new table was refused.");
      return;
    }
    const created = response.data;
    // this browser's seats: following their links keeps their tokens in this browser's cookie
    for (const s of created.seats) {
      if (held.includes(s.seat) && s.join_url) await api("GET", T.localPath(s.join_url));
    }
    const target = `/t/${encodeURIComponent(created.id)}`;
    const others = created.seats.filter((s) => !held.includes(s.seat) && (s.join_url || s.open));
    if (others.length === 0) { location.assign(target); return; }
    $("again-links").replaceChildren(...others.map((s) => el("li", {}, T.seatLabel(old, s.seat) + ": ",
      s.join_url ? el("a", { href: s.join_url, class: "join-link" }, s.join_url) : [el("span", { class: "badge open-seat" }, t("open seat")), " " + t("anyone may sit from the lobby")])));
    $("again-go").href = target;
    $("again-created").hidden = false;
  }

  // -- start ----------------------------------------------------------------------------------------------
  async function start() {
    // this browser's name goes to its first seat only: at a shared device each player names their own
    // seat on the pass screen
    const name = T.name();
    for (const seat of held) {
      await api("POST", `/api/tables/${encodeURIComponent(cfg.table)}/join`, { seat, name: (seat === held[0] && name) || null, back: false });
    }
    if (!hotSeat) { connect(); return; }
    // Several seats: the first player confirms too. What the spectator sees (public) says who acts.
    const gen = generation;
    const look = await api("GET", `/api/tables/${encodeURIComponent(cfg.table)}?since=0`);
    if (gen !== generation) return;
    let first = held[0];
    let acting;
    if (look.ok && look.data) {
      publicSeats = (look.data.seats || []).map((s) => ({ seat: s.seat, kind: s.kind, name: s.name, label: s.label }));
      if (look.data.fairness) { fairness = look.data.fairness; drawFairness(); }
      $("download-record").hidden = !(look.data.over || look.data.status === "finished");
      acting = held.find((s) => (look.data.to_act || []).includes(s));
      if (acting !== undefined) first = acting;
      // none of this device's seats is to act in a running game: watch until one is (sharedWatch)
      const running = !(look.data.over || look.data.status === "finished" || look.data.status === "error");
      if (acting === undefined && running) { watchTogether(); return; }
    }
    showPass(first, acting !== undefined);
  }

  document.addEventListener("DOMContentLoaded", () => {
    boardShell = $("board").cloneNode(false);
    $("play-again").onclick = playAgain;
    $("name-form").onsubmit = saveName;
    $("name-change").onclick = changeName;
    $("chat-form").onsubmit = sendChat;
    $("hints-off").onclick = () => setHints(false);
    $("hints-on").onclick = () => setHints(true);
    loadChat();
    $("name-input").oninput = () => { $("name-input").dataset.dirty = "1"; };
    $("sound-toggle").onclick = toggleSound;
    $("follow-pace").onchange = () => setPace($("follow-pace").value);
    $("follow-skip").onclick = skip;
    // a tab in the background does not replay: back in front, it shows the table as it is
    document.addEventListener("visibilitychange", () => { if (document.hidden && queue.length) skip(); });
    $("follow-pace").value = pace();
    $("notify-button").onclick = toggleNotify;
    drawAlerts();
    $("back-button").onclick = async () => {
      if (active === null) return;
      const response = await api("POST", `/api/tables/${encodeURIComponent(cfg.table)}/join`, { seat: active, back: true });
      // refused while the bot plays the move whose time ran out twice: say so until the banner goes
      $("back-error").textContent = response.ok ? "" : (response.data && response.data.message) || "";
    };
    if (hotSeat) {
      // until the table says whose seat comes first, there is no seat to show: the button waits
      passing = true;
      conceal();
      $("pass-text").textContent = t("Pass the device…");
      $("pass-button").disabled = true;
      $("pass-screen").hidden = false;
    }
    start();
    setInterval(() => { if (payload && !passing && Object.keys(payload.turn_deadline || {}).length) render(); }, 1000);
  });
  window.TabletownTable = { act, refresh };
})();
