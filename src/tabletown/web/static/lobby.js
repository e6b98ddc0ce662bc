// The lobby: create a table (game, options, seats: human by link, open to anyone, or a bot; a practice
// seed; timer) and list the tables, with a working "sit" button for every open seat.
"use strict";
(function () {
  const T = window.Tabletown;
  const { el, api } = T;
  const t = T.t; // the page's words in its language (the shared catalog)
  const $ = (id) => document.getElementById(id);
  let catalog = [];

  function current() { return catalog.find((g) => g.name === $("game-select").value); }
  const here = T.localPath; // this browser's own seat: its link on the address this page uses

  function drawSeats() {
    const game = current();
    const n = Number($("players-select").value);
    const box = $("seats");
    const old = [...box.querySelectorAll("select")].map((s) => s.value);
    box.replaceChildren(el("legend", {}, t("Seats")));
    const best = ["expert", "hard", "greedy", "random"].find((b) => game.bots.includes(b)) || game.bots[0];
    for (let i = 0; i < n; i++) {
      const select = el("select", { name: "seat" + i, "data-seat": i },
        el("option", { value: "human" }, t("Human (by link)")),
        el("option", { value: "open" }, t("Open seat (anyone may sit)")),
        game.bots.map((b) => el("option", { value: "bot:" + b },
          (game.bot_labels && game.bot_labels[b]) || t("Bot: {level}", { level: b }))));
      select.value = old[i] || (i === 0 ? "human" : "bot:" + best);
      box.append(el("label", {}, t("Seat {n}", { n: i + 1 }) + " ", select));
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
    box.replaceChildren(el("legend", {}, t("Options")));
    for (const o of game.options) {
      let input;
      if (o.kind === "bool") input = el("input", { type: "checkbox", "data-option": o.name, checked: o.default });
      else if (o.choices) {
        const words = o.choice_labels || o.choices.map(String);
        input = el("select", { "data-option": o.name }, o.choices.map((c, i) => el("option", { value: c }, words[i])));
        input.value = o.default;
      } else if (o.kind === "int") input = el("input", { type: "number", "data-option": o.name, value: o.default, min: o.minimum, max: o.maximum });
      else input = el("input", { "data-option": o.name, value: o.default });
      box.append(el("label", { title: o.help }, (o.label || o.name.replace(/_/g, " ")) + " ", input, el("small", {}, " " + o.help)));
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
    const seed = $("seed").value.trim();
    if (seed !== "" && !/^\d{1,19}$/.test(seed)) { $("create-error").textContent = t("The seed is a whole number from 0 to 2^63-1."); return; }
    if ($("turn-timer").value !== "") body.turn_timer = Number($("turn-timer").value);
    const name = $("player-name").value.trim();
    const first = seats.indexOf("human");
    if (name && first >= 0) { body.names = seats.map((s, i) => (i === first ? name : null)); }
    // a seed goes up to 2^63-1, past what a JS number holds exactly: its digits go into the JSON as typed
    const text = seed === "" ? body : JSON.stringify({ ...body, seed: "@seed@" }).replace('"seed":"@seed@"', `"seed":${seed.replace(/^0+(?=\d)/, "")}`);
    const response = await api("POST", "/api/tables", text);
    if (!response.ok) { $("create-error").textContent = (response.data && response.data.message) || t("The table was refused."); return; }
    const data = response.data;
    // reserved human seats have a join link (their secret); open seats get theirs when somebody sits
    const reserved = data.seats.filter((s) => s.kind === "human" && !s.open && s.join_url);
    const open = data.seats.filter((s) => s.open);
    const target = reserved.length ? here(reserved[0].join_url) : `/t/${data.id}`;
    // one player (the rest bots or open seats): straight to the table, whose page says if the seed was chosen
    if (reserved.length <= 1) { location.href = target; return; }
    $("created-seed").replaceChildren(...(data.seed_chosen ? [el("span", { class: "badge practice" }, t("seed chosen by creator")),
      " " + t("Everyone at this table sees that you chose its seed: it is a practice table.")] : []));
    $("created-seed").hidden = !data.seed_chosen;
    $("join-links").replaceChildren(...reserved.map((s) => el("li", {}, t("Seat {n}", { n: s.seat + 1 }) + ": ", el("a", { href: s.join_url, class: "join-link" }, s.join_url))),
      ...open.map((s) => el("li", {}, t("Seat {n}", { n: s.seat + 1 }) + ": ", el("span", { class: "badge open-seat" }, t("open seat")), " " + t("anyone may sit from the lobby"))));
    $("join-intro").hidden = reserved.length === 0;
    $("go-table").href = target;
    $("created").hidden = false;
    refreshLists();
  }

  function seatWord(s) {
    if (s.name) return s.name;
    if (s.open) return t("open seat");
    if (s.kind === "human") return s.joined ? t("human") : t("invited");
    // a bot: the server's label in the page's language ("Expert bot", "Bot ekspert")
    return s.label || (s.kind.startsWith("bot:") ? t("bot {level}", { level: s.kind.slice(4) }) : s.kind);
  }

  function describe(table) {
    return `${table.title} · ${table.seats.map(seatWord).join(", ")} · ` + t("move {n}", { n: table.seq });
  }

  async function refreshLists() {
    const response = await api("GET", "/api/tables");
    if (!response.ok) return;
    for (const status of ["open", "running", "finished"]) {
      const list = $("list-" + status);
      const tables = response.data[status] || [];
      list.replaceChildren(...(tables.length ? tables.map((table) => {
        // only seats the creator opened can be taken here; a reserved seat belongs to its link
        const free = status === "finished" ? [] : table.seats.filter((s) => s.open === true);
        return el("li", { "data-table": table.id }, el("a", { href: `/t/${table.id}` }, describe(table)),
          table.seed_chosen ? el("span", { class: "badge practice", title: t("its creator chose the seed: whoever knows it can foresee every die and draw") }, t("seed chosen by creator")) : null,
          status === "finished" ? [" · ", el("a", { href: `/t/${table.id}/replay` }, t("replay"))] : null,
          free.map((s) => [" · ", el("button", { class: "small sit", type: "button", "data-seat": s.seat, onclick: () => sit(table.id, s.seat) }, t("sit at seat {n}", { n: s.seat }))]));
      }) : [el("li", { class: "hint" }, t("none"))]));
    }
  }

  async function sit(tableId, seat) {
    const name = $("player-name").value.trim();
    if (name) T.setName(name);
    $("list-error").textContent = "";
    const response = await api("POST", `/api/tables/${tableId}/sit`, { seat, name: name || T.name() || null });
    // The answer stored the seat's token in this browser's HttpOnly cookie: open the table by its
    // plain address. The join link holds the token itself, and a page it opens stays in the
    // browser's history for the next person at this computer (security audit 14).
    if (response.ok) { location.href = `/t/${encodeURIComponent(tableId)}`; return; }
    $("list-error").textContent = (response.data && response.data.message) || t("That seat cannot be taken.");
    refreshLists();
  }

  document.addEventListener("DOMContentLoaded", async () => {
    $("player-name").value = T.name();
    // in the page's language (a page opened with ?lang= has no cookie saying so yet)
    const response = await api("GET", "/api/games?lang=" + encodeURIComponent(T.lang()));
    catalog = (response.data && response.data.games) || [];
    $("game-select").replaceChildren(...catalog.map((g) => el("option", { value: g.name }, g.plain_title || g.title)));
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
