// The lobby: create a table (game, options, seats human or bot, seed, timer) and list the tables.
"use strict";
(function () {
  const T = window.Tabletown;
  const { el, api } = T;
  const $ = (id) => document.getElementById(id);
  let catalog = [];

  function current() { return catalog.find((g) => g.name === $("game-select").value); }

  function drawSeats() {
    const game = current();
    const n = Number($("players-select").value);
    const box = $("seats");
    const old = [...box.querySelectorAll("select")].map((s) => s.value);
    box.replaceChildren(el("legend", {}, "Seats"));
    const best = ["expert", "hard", "greedy", "random"].find((b) => game.bots.includes(b)) || game.bots[0];
    for (let i = 0; i < n; i++) {
      const select = el("select", { name: "seat" + i, "data-seat": i },
        el("option", { value: "human" }, "Human"),
        game.bots.map((b) => el("option", { value: "bot:" + b }, "Bot: " + b)));
      select.value = old[i] || (i === 0 ? "human" : "bot:" + best);
      box.append(el("label", {}, "Seat " + i + " ", select));
    }
  }

  function drawGame() {
    const game = current();
    const players = $("players-select");
    const keep = players.value;
    players.replaceChildren();
    for (let n = game.min_players; n <= game.max_players; n++) players.append(el("option", { value: n }, String(n)));
    players.value = keep && Number(keep) >= game.min_players && Number(keep) <= game.max_players ? keep : String(Math.max(2, game.min_players));
    const box = $("options");
    box.replaceChildren(el("legend", {}, "Options"));
    for (const o of game.options) {
      let input;
      if (o.kind === "bool") input = el("input", { type: "checkbox", "data-option": o.name, checked: o.default });
      else if (o.choices) {
        input = el("select", { "data-option": o.name }, o.choices.map((c) => el("option", { value: c }, String(c))));
        input.value = o.default;
      } else if (o.kind === "int") input = el("input", { type: "number", "data-option": o.name, value: o.default, min: o.minimum, max: o.maximum });
      else input = el("input", { "data-option": o.name, value: o.default });
      box.append(el("label", { title: o.help }, o.name.replace(/_/g, " ") + " ", input, el("small", {}, " " + o.help)));
    }
    box.hidden = game.options.length === 0;
    drawSeats();
  }

  function readOptions() {
    const game = current();
    const options = {};
    for (const o of game.options) {
      const input = document.querySelector(`[data-option="${o.name}"]`);
      let value = o.kind === "bool" ? input.checked : input.value;
      if (o.kind === "int") value = Number(value);
      if (value !== o.default) options[o.name] = value;
    }
    return options;
  }

  async function create(event) {
    event.preventDefault();
    $("create-error").textContent = "";
    T.setName($("player-name").value.trim());
    const seats = [...$("seats").querySelectorAll("select")].map((s) => s.value);
    const body = { game: $("game-select").value, options: readOptions(), seats };
    if ($("seed").value !== "") body.seed = Number($("seed").value);
    if ($("turn-timer").value !== "") body.turn_timer = Number($("turn-timer").value);
    const name = $("player-name").value.trim();
    const first = seats.indexOf("human");
    if (name && first >= 0) { body.names = seats.map((s, i) => (i === first ? name : null)); }
    const response = await api("POST", "/api/tables", body);
    if (!response.ok) { $("create-error").textContent = (response.data && response.data.message) || "The table was refused."; return; }
    const humans = response.data.seats.filter((s) => s.kind === "human");
    const target = humans.length ? humans[0].join_url : `/t/${response.data.id}`;
    if (humans.length <= 1) { location.href = target; return; }
    $("join-links").replaceChildren(...humans.map((s) => el("li", {}, `Seat ${s.seat}: `, el("a", { href: s.join_url }, s.join_url))));
    $("go-table").href = target;
    $("created").hidden = false;
    refreshLists();
  }

  function describe(t) {
    const names = t.seats.map((s) => s.name || (s.kind === "human" ? "human" : s.kind.replace("bot:", "bot "))).join(", ");
    return `${t.title} · ${names} · move ${t.seq}`;
  }

  async function refreshLists() {
    const response = await api("GET", "/api/tables");
    if (!response.ok) return;
    for (const status of ["open", "running", "finished"]) {
      const list = $("list-" + status);
      const tables = response.data[status] || [];
      list.replaceChildren(...(tables.length ? tables.map((t) => {
        const free = t.seats.filter((s) => s.kind === "human" && !s.joined);
        return el("li", {}, el("a", { href: `/t/${t.id}` }, describe(t)),
          status === "finished" ? [" · ", el("a", { href: `/t/${t.id}/replay` }, "replay")] : null,
          status === "open" ? free.map((s) => [" · ", el("button", { class: "small", onclick: () => sit(t.id, s.seat) }, `sit at seat ${s.seat}`)]) : null);
      }) : [el("li", { class: "hint" }, "none")]));
    }
  }

  async function sit(tableId, seat) {
    const response = await api("POST", `/api/tables/${tableId}/sit`, { seat, name: T.name() || null });
    if (response.ok) location.href = response.data.join_url;
    else refreshLists();
  }

  document.addEventListener("DOMContentLoaded", async () => {
    $("player-name").value = T.name();
    const response = await api("GET", "/api/games");
    catalog = (response.data && response.data.games) || [];
    $("game-select").replaceChildren(...catalog.map((g) => el("option", { value: g.name }, g.title)));
    const preferred = catalog.find((g) => g.name === "machikoro");
    if (preferred) $("game-select").value = preferred.name;
    if (catalog.length) drawGame();
    $("game-select").onchange = drawGame;
    $("players-select").onchange = drawSeats;
    $("create-form").onsubmit = create;
    refreshLists();
    setInterval(refreshLists, 5000);
  });
})();
