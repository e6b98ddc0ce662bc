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
"use strict";
(function () {
  const T = window.Tabletown;
  const { el, api } = T;
  const cfg = T.config("table-config");
  const held = [...new Set((cfg.held || []).map((h) => h.seat))].sort((a, b) => a - b);
  const hotSeat = held.length > 1;
  let active = held.length === 1 ? held[0] : null; // the seat shown (null: spectator or pass screen)
  let passing = false; // the pass screen is up
  let payload = null;
  let events = new Map();
  let count = 0;
  let socket = null;
  let retry = 500;
  let receivedAt = 0;
  let generation = 0; // bumped whenever a seat's view is dropped: late answers of the old seat are ignored
  let publicSeats = cfg.seats || []; // seat names (public), for the pass screen's words
  let fairness = null; // public: the commitment, whether the seed was chosen, the seed after the end
  let boardShell = null; // an empty #board to start every seat from
  const $ = (id) => document.getElementById(id);

  function label(seat) { return T.seatLabel(publicSeats, seat); }

  // -- talking to the server ----------------------------------------------------------------------------
  function absorb(p, gen) {
    if (gen !== generation || passing) return;
    if (Object.prototype.hasOwnProperty.call(p, "seat") && (p.seat === undefined ? null : p.seat) !== active) return;
    (p.events || []).forEach((e, k) => {
      const text = (p.event_text || [])[k];
      events.set(e.i, { event: e, text: text && text[0] === e.i ? text[1] : e.kind });
    });
    if (typeof p.event_count === "number") count = p.event_count;
    payload = p;
    receivedAt = Date.now();
    render();
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
      if (data.type === "view") { retry = 500; absorb(data, gen); }
      else if (data.type === "chat") addChat([data]);
    };
    mine.onclose = (event) => {
      if (mine !== socket || gen !== generation) return;
      socket = null;
      if (event.code >= 4000 && event.code !== 4429 && event.code !== 4503) {
        $("status-line").textContent = "This page cannot follow the table: " + (event.reason || "refused") + ".";
        return;
      }
      $("status-line").textContent = "Connection lost; reconnecting…";
      setTimeout(() => { if (gen === generation && socket === null && !passing) { connect(); loadChat(); } }, retry);
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
      $("move-error").textContent = "The table moved on: have a look and choose again.";
    } else if (!response.ok) {
      const d = response.data || {};
      $("move-error").textContent = (d.message || "The move was refused") + (d.rule ? ` [${d.rule}]` : "");
    }
    render();
  }

  // -- hot-seat -------------------------------------------------------------------------------------------
  // Take every trace of the shown seat out of the page and out of memory.
  function conceal() {
    generation++;
    disconnect();
    active = null;
    payload = null;
    events = new Map();
    count = 0;
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
    $("pass-text").textContent = `Pass the device to ${label(seat)}.`;
    $("pass-hint").textContent = "Nothing of anyone's seat is on the page until its player confirms.";
    const button = $("pass-button");
    button.textContent = `I am ${label(seat)}, show my seat`;
    button.dataset.seat = String(seat);
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
      if (!named.ok) { $("pass-hint").textContent = (named.data && named.data.message) || "That name was refused."; return; }
      if (publicSeats[seat]) publicSeats[seat] = { ...publicSeats[seat], name: typed };
    }
    if (!passing) return;
    passing = false;
    generation++;
    active = seat;
    $("pass-screen").hidden = true;
    $("play").hidden = false;
    $("status-line").textContent = `You are ${label(seat)}. Connecting…`;
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

  // -- drawing --------------------------------------------------------------------------------------------
  function drawFairness() {
    const box = $("fairness");
    if (!fairness) return;
    const parts = [];
    if (fairness.seed_chosen) {
      parts.push(el("strong", { class: "practice" }, "Practice table: the seed was chosen by its creator."),
        " Whoever chose it can foresee every die and draw.");
    } else if (fairness.commitment) {
      parts.push("Dice and draws fixed before the first move: commitment ",
        el("code", { class: "commitment", title: fairness.commitment }, fairness.commitment.slice(0, 12) + "…"));
    }
    const revealed = fairness.seed !== null && fairness.seed !== undefined;
    if (fairness.commitment) {
      parts.push(" ", el("details", { class: "fair-details" }, el("summary", {}, "details"),
        el("p", {}, "SHA-256 commitment: ", el("code", { class: "commitment-full" }, fairness.commitment)),
        el("p", {}, revealed ?
          "The game is over: the record reveals the seed and the salt, and the step-by-step view of the game checks that they give this commitment." :
          "The server drew the seed in secret and published this hash of it (with a secret salt) before the first move. " +
          "At the end the record reveals seed and salt, and anyone can check they give this hash.")));
    }
    if (revealed) parts.push(" ", el("a", { href: `/t/${encodeURIComponent(cfg.table)}/replay`, class: "verify-link" }, "verify the seed"));
    box.replaceChildren(...parts);
    box.hidden = parts.length === 0;
  }

  function render() {
    if (!payload || passing) return;
    const seats = payload.seats || [];
    publicSeats = seats.map((s) => ({ seat: s.seat, kind: s.kind, name: s.name }));
    if (payload.fairness) fairness = payload.fairness;
    drawFairness();
    const next = handOverTo(payload);
    if (next !== null) { showPass(next); return; }
    drawName();
    const toAct = payload.to_act || [];
    const mySeat = active;
    const over = payload.over || payload.status === "finished";
    $("download-record").hidden = !over;
    let line;
    if (payload.status === "error") line = "This table cannot be played: " + (payload.error || "error");
    else if (payload.over) line = `Game over after ${payload.seq} moves.`;
    else line = `Move ${payload.seq}. ` + (toAct.includes(mySeat) ? "Your turn" + (toAct.length > 1 ? " (everyone chooses at once)" : "") + "." :
      "Waiting for " + toAct.map((s) => T.seatLabel(seats, s)).join(", ") + ".");
    const deadline = (payload.turn_deadline || {})[String(mySeat)];
    if (deadline !== undefined && toAct.includes(mySeat)) {
      const left = Math.max(0, Math.round(deadline - (Date.now() - receivedAt) / 1000));
      line += ` ${left}s left.`;
    }
    $("status-line").textContent = (mySeat !== null ? `You are ${T.seatLabel(seats, mySeat)}. ` : "You are watching. ") + line;
    if (mySeat !== null) $("status-line").dataset.seat = String(mySeat); else delete $("status-line").dataset.seat;
    $("away-banner").hidden = !(mySeat !== null && seats[mySeat] && seats[mySeat].away);
    const legal = payload.legal || [];
    drawMoves(legal, { seat: mySeat, legal, act: (text) => act(text), seats }, mySeat);
    const res = payload.result;
    $("seat-list").replaceChildren(...seats.map((s) => el("li", { class: toAct.includes(s.seat) ? "acting" : res && res.ranks[s.seat] === 1 ? "winner" : "" },
      T.seatLabel(seats, s.seat), s.open ? " · open seat" : s.kind === "human" && !s.joined ? " · not here yet" : "",
      // places only when a seat won (no seat wins a solo game lost to its opponent: the board says so)
      s.away ? " · away (bot playing)" : "", res && res.winners.length ? ` · ${T.place(res, s.seat)}${res.ranks[s.seat] === 1 ? " (winner)" : ""}` : "")));
    const log = $("event-log");
    const items = [...events.keys()].sort((a, b) => a - b).slice(-300).map((i) => {
      const e = events.get(i);
      return el("li", { class: e.event.private ? "private" : "", value: i }, e.text);
    });
    log.replaceChildren(...items);
    log.scrollTop = log.scrollHeight;
    const ctx = { seat: mySeat, legal, act: (text) => act(text), seats };
    drawGameOver(over && payload.status !== "error", ctx);
    setTurn(!over && mySeat !== null && toAct.includes(mySeat));
    drawHint(!over && mySeat !== null && toAct.includes(mySeat), legal);
    try { T.board(cfg.game).render($("board"), payload, ctx); }
    catch (err) { console.error(err); T.board("generic").render($("board"), payload, ctx); }
  }

  // -- the moves in words -------------------------------------------------------------------------------------
  // A board words each legal move (`describeMove(text, payload, ctx)` -> words, {words, group}, or null for
  // a move made on the board only); the notation stays in records, the API and the terminal. Many moves of
  // one kind fold into a group the player opens.
  function drawMoves(legal, ctx, mySeat) {
    const box = $("legal-moves");
    if (!legal.length) {
      box.replaceChildren(el("p", { class: "hint" }, mySeat !== null ? "Nothing to do now." : "Spectators watch."));
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
    if (onBoard) parts.push(el("p", { class: "hint" }, (renderer && renderer.boardMovesHint) || "Other moves are made on the board itself."));
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
        el("strong", { class: "chat-who" }, mine ? "You" : m.name), m.spectator && m.name !== "Spectator" ? el("span", { class: "chat-tag" }, " (spectator)") : null,
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
      $("chat-error").textContent = (response.data && response.data.message) || "The message was not sent.";
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
    if (nameFor !== active || (document.activeElement !== input && !input.dataset.dirty)) {
      input.value = current;
      input.placeholder = current ? "" : T.seatLabel(publicSeats, active);
      nameFor = active;
    }
  }

  async function saveName(event) {
    event.preventDefault();
    if (active === null || passing) return;
    const input = $("name-input");
    const typed = input.value.trim();
    if (!typed) return;
    const response = await api("POST", `/api/tables/${encodeURIComponent(cfg.table)}/join`, { seat: active, name: typed });
    delete input.dataset.dirty;
    if (!response.ok) { $("name-state").textContent = (response.data && response.data.message) || "That name was refused."; return; }
    if (!hotSeat) T.setName(typed);
    $("name-state").textContent = "Saved.";
    setTimeout(() => { $("name-state").textContent = ""; }, 2000);
  }

  // -- your turn -------------------------------------------------------------------------------------------
  // When a seat this browser holds must act: the tab's title and icon say so; a short sound if the player
  // switched it on (off by default); a notification while the tab is hidden, only once the player asked
  // for them with the button (the browser's permission prompt never comes on its own, never on load).
  const baseTitle = document.title;
  const TURN_TITLE = "● Your turn — Tabletown";
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
        const note = new Notification("Your turn", { body: `${baseTitle}`, icon: "/static/favicon-turn.svg", tag: "tt-turn-" + cfg.table });
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
    $("sound-toggle").textContent = `Sound at my turn: ${sound ? "on" : "off"}`;
    $("sound-toggle").setAttribute("aria-pressed", String(sound));
    const button = $("notify-button");
    button.hidden = !canNotify();
    if (!canNotify()) { $("notify-state").textContent = ""; return; }
    const permission = Notification.permission;
    button.disabled = permission === "denied";
    button.textContent = notifyOn() ? "Stop notifications" : "Notify me at my turn";
    $("notify-state").textContent = permission === "denied" ? "Notifications are blocked in this browser's settings." :
      notifyOn() ? "You get a notification at your turn while this tab is in the background." : "";
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
      $("again-error").textContent = (response.data && response.data.message) || "The new table was refused.";
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
      s.join_url ? el("a", { href: s.join_url, class: "join-link" }, s.join_url) : [el("span", { class: "badge open-seat" }, "open seat"), " anyone may sit from the lobby"])));
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
      publicSeats = (look.data.seats || []).map((s) => ({ seat: s.seat, kind: s.kind, name: s.name }));
      if (look.data.fairness) { fairness = look.data.fairness; drawFairness(); }
      $("download-record").hidden = !(look.data.over || look.data.status === "finished");
      acting = held.find((s) => (look.data.to_act || []).includes(s));
      if (acting !== undefined) first = acting;
    }
    showPass(first, acting !== undefined);
  }

  document.addEventListener("DOMContentLoaded", () => {
    boardShell = $("board").cloneNode(false);
    $("play-again").onclick = playAgain;
    $("name-form").onsubmit = saveName;
    $("chat-form").onsubmit = sendChat;
    $("hints-off").onclick = () => setHints(false);
    $("hints-on").onclick = () => setHints(true);
    loadChat();
    $("name-input").oninput = () => { $("name-input").dataset.dirty = "1"; };
    $("sound-toggle").onclick = toggleSound;
    $("notify-button").onclick = toggleNotify;
    drawAlerts();
    $("back-button").onclick = async () => {
      if (active === null) return;
      await api("POST", `/api/tables/${encodeURIComponent(cfg.table)}/join`, { seat: active, back: true });
    };
    if (hotSeat) { passing = true; conceal(); $("pass-text").textContent = "Pass the device…"; $("pass-screen").hidden = false; }
    start();
    setInterval(() => { if (payload && !passing && Object.keys(payload.turn_deadline || {}).length) render(); }, 1000);
  });
  window.TabletownTable = { act, refresh };
})();
