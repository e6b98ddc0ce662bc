// The replay page: step through a finished table (or an uploaded record), as any seat.
"use strict";
(function () {
  const T = window.Tabletown;
  const { el, api } = T;
  const cfg = T.config("replay-config");
  const $ = (id) => document.getElementById(id);
  let record = null; // an uploaded record
  let steps = 0;
  let step = 0;
  let game = cfg.game;
  let players = cfg.num_players;

  function seatChoices() {
    const allowed = [];
    for (let s = 0; s < players; s++) {
      if (record || cfg.finished || (cfg.held || []).some((h) => h.seat === s)) allowed.push(s);
    }
    const select = $("view-seat");
    const keep = select.value;
    select.replaceChildren(el("option", { value: "" }, "Spectator"), ...allowed.map((s) => el("option", { value: s }, "Seat " + s)));
    select.value = keep;
  }

  async function show(n) {
    $("replay-error").textContent = "";
    const seatValue = $("view-seat").value;
    const seat = seatValue === "" ? null : Number(seatValue);
    let response;
    if (record) response = await api("POST", "/api/replay", { record, step: Math.max(0, n), seat });
    else {
      let query = `?step=${Math.max(0, n)}`;
      if (seat !== null) {
        query += `&seat=${seat}`;
        const h = (cfg.held || []).find((x) => x.seat === seat);
        if (h) query += `&token=${encodeURIComponent(h.token)}`;
      }
      response = await api("GET", `/api/tables/${cfg.table}/replay${query}`);
    }
    if (!response.ok) { $("replay-error").textContent = (response.data && response.data.message) || "Cannot show this step."; return; }
    const p = response.data;
    steps = p.steps;
    step = p.step;
    game = p.game;
    players = p.num_players;
    $("steps").textContent = steps;
    $("step").value = step;
    $("step").max = steps;
    $("status-line").textContent = p.over ? `After move ${step}: game over.` : `After move ${step}. To act: ${(p.to_act || []).map((s) => T.seatLabel(p.seats, s)).join(", ")}`;
    $("move-list").replaceChildren(...p.moves.map(([seat, text], i) =>
      el("li", { class: i < step ? "done" : "", value: i + 1, onclick: () => show(i + 1) }, `seat ${seat}: ${text}`)));
    $("event-log").replaceChildren(...(p.event_text || []).map(([i, text]) => el("li", { value: i }, text)));
    $("event-log").scrollTop = $("event-log").scrollHeight;
    T.board(game).render($("board"), p, { seat: p.seat, legal: [], act: null, seats: p.seats });
    if ($("view-seat").options.length <= 1) seatChoices();
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("first").onclick = () => show(0);
    $("back").onclick = () => show(step - 1);
    $("forward").onclick = () => show(step + 1);
    $("last").onclick = () => show(steps);
    $("step").onchange = () => show(Number($("step").value));
    $("view-seat").onchange = () => show(step);
    document.addEventListener("keydown", (e) => {
      if (e.target.tagName === "INPUT") return;
      if (e.key === "ArrowLeft") show(step - 1);
      if (e.key === "ArrowRight") show(step + 1);
    });
    const file = $("record-file");
    if (file) {
      file.onchange = async () => {
        try {
          record = JSON.parse(await file.files[0].text());
          players = (record.seats || []).length;
          seatChoices();
          show(0);
        } catch (err) { $("replay-error").textContent = "This file is not a Tabletown record."; }
      };
    } else {
      seatChoices();
      show(cfg.finished ? 0 : 1e9);
    }
  });
})();
