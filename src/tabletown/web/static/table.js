// The table page: the seat's view live over a WebSocket (reconnecting without losing events), the
// legal moves as buttons, the event log in words, hot-seat switching with a "pass to" screen.
"use strict";
(function () {
  const T = window.Tabletown;
  const { el, api } = T;
  const cfg = T.config("table-config");
  const held = cfg.held || [];
  let active = held.length ? held[0] : null;
  let payload = null;
  let events = new Map();
  let count = 0;
  let socket = null;
  let retry = 500;
  let receivedAt = 0;
  let passPending = false;
  const $ = (id) => document.getElementById(id);

  function reset() { events = new Map(); count = 0; payload = null; }

  function absorb(p) {
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
    const proto = location.protocol === "https:" ? "wss" : "ws";
    let url = `${proto}://${location.host}/ws/tables/${cfg.table}?since=${count}`;
    if (active) url += `&token=${encodeURIComponent(active.token)}`;
    const mine = new WebSocket(url);
    socket = mine;
    mine.onmessage = (message) => {
      if (mine !== socket) return;
      const data = JSON.parse(message.data);
      if (data.type === "view") { retry = 500; absorb(data); }
    };
    mine.onclose = () => {
      if (mine !== socket) return;
      $("status-line").textContent = "Connection lost; reconnecting…";
      setTimeout(() => { if (mine === socket) connect(); }, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }

  async function refresh() {
    const query = active ? `?token=${encodeURIComponent(active.token)}&since=${count}` : `?since=${count}`;
    const response = await api("GET", `/api/tables/${cfg.table}${query}`);
    if (response.ok) absorb(response.data);
    return response;
  }

  async function act(text, again) {
    if (!active || !payload) return;
    $("move-error").textContent = "";
    document.querySelectorAll("#legal-moves button").forEach((b) => (b.disabled = true));
    const response = await api("POST", `/api/tables/${cfg.table}/actions`, { token: active.token, seq: payload.seq, action: text });
    if (response.status === 409 && !again) {
      const before = count;
      const fresh = await refresh();
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

  function switchSeat(seat) {
    active = held.find((h) => h.seat === seat) || null;
    reset();
    // nothing of the previous seat stays on screen while the new seat's view is on its way
    ["board", "legal-moves", "event-log"].forEach((id) => $(id).replaceChildren());
    $("status-line").textContent = "Connecting…";
    passPending = false;
    $("pass-screen").hidden = true;
    if (socket) { const old = socket; socket = null; old.close(); }
    connect();
  }

  function render() {
    if (!payload) return;
    const seats = payload.seats || [];
    const toAct = payload.to_act || [];
    const mySeat = active ? active.seat : null;
    // hot-seat: another seat of this browser must act and the shown one need not
    const next = held.find((h) => toAct.includes(h.seat));
    if (held.length > 1 && next && !toAct.includes(mySeat) && !payload.over) {
      passPending = true;
      $("pass-text").textContent = `Pass the device to ${T.seatLabel(seats, next.seat)}.`;
      $("pass-button").onclick = () => switchSeat(next.seat);
      $("pass-screen").hidden = false;
    } else if (!passPending) {
      $("pass-screen").hidden = true;
    }
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
    $("status-line").textContent = (active ? `You are ${T.seatLabel(seats, mySeat)}. ` : "You are watching. ") + line;
    $("seat-switch").replaceChildren(...(held.length > 1 ? held.map((h) =>
      el("button", { class: h.seat === mySeat ? "on" : "", onclick: () => switchSeat(h.seat) }, T.seatLabel(seats, h.seat))) : []));
    $("away-banner").hidden = !(active && seats[mySeat] && seats[mySeat].away);
    const legal = payload.legal || [];
    $("legal-moves").replaceChildren(...(legal.length ? legal.map((text) =>
      el("button", { class: "move", "data-move": text, onclick: () => act(text) }, text)) :
      [el("p", { class: "hint" }, active ? "Nothing to do now." : "Spectators watch.")]));
    $("seat-list").replaceChildren(...seats.map((s) => el("li", { class: toAct.includes(s.seat) ? "acting" : "" },
      T.seatLabel(seats, s.seat), s.kind === "human" && !s.joined ? " · free" : "", s.away ? " · away (bot playing)" : "",
      payload.result ? ` · rank ${payload.result.ranks[s.seat]}` : "")));
    const log = $("event-log");
    const items = [...events.keys()].sort((a, b) => a - b).slice(-300).map((i) => {
      const e = events.get(i);
      return el("li", { class: e.event.private ? "private" : "", value: i }, e.text);
    });
    log.replaceChildren(...items);
    log.scrollTop = log.scrollHeight;
    const ctx = { seat: mySeat, legal, act, seats };
    try { T.board(cfg.game).render($("board"), payload, ctx); }
    catch (err) { console.error(err); T.board("generic").render($("board"), payload, ctx); }
  }

  document.addEventListener("DOMContentLoaded", async () => {
    $("back-button").onclick = async () => { await api("POST", `/api/tables/${cfg.table}/join`, { token: active.token, back: true }); };
    const name = T.name();
    for (const h of held) await api("POST", `/api/tables/${cfg.table}/join`, { token: h.token, name: name || null, back: false });
    connect();
    setInterval(() => { if (payload && Object.keys(payload.turn_deadline || {}).length) render(); }, 1000);
  });
  window.TabletownTable = { act, refresh, switchSeat };
})();
