// The generic board: draws any game's view data (under "state") as nested tables and lists.
"use strict";
(function () {
  const { el } = window.Tabletown;
  const t = (message, fields) => window.Tabletown.t(message, fields);
  function label(key) { return String(key).replace(/_/g, " "); }
  function isScalar(v) { return v === null || typeof v !== "object"; }
  function scalar(v) {
    if (v === null) return el("span", { class: "nil" }, "—");
    if (typeof v === "boolean") return el("span", { class: v ? "yes" : "no" }, v ? t("yes") : t("no"));
    return el("span", { class: typeof v }, String(v));
  }
  function draw(value, depth, seats) {
    if (isScalar(value)) return scalar(value);
    if (Array.isArray(value)) {
      if (value.length === 0) return el("span", { class: "nil" }, t("none"));
      if (value.every(isScalar)) return el("span", { class: "list" }, value.map((v, i) => [i ? ", " : "", scalar(v)]));
      const objects = value.every((v) => v && typeof v === "object" && !Array.isArray(v));
      if (objects) {
        const keys = [...new Set(value.flatMap((v) => Object.keys(v)))];
        if (keys.length <= 8 && keys.every((k) => value.every((v) => isScalar(v[k]) || v[k] === undefined))) {
          return el("table", { class: "grid" },
            el("thead", {}, el("tr", {}, el("th", {}, "#"), keys.map((k) => el("th", {}, label(k))))),
            el("tbody", {}, value.map((v, i) => el("tr", {}, el("th", {}, seats === value.length ? t("seat {n}", { n: i }) : String(i)),
              keys.map((k) => el("td", {}, v[k] === undefined ? "" : scalar(v[k])))))));
        }
      }
      return el("ol", { class: "nested", start: 0 }, value.map((v) => el("li", {}, draw(v, depth + 1, seats))));
    }
    const entries = Object.entries(value);
    if (entries.length === 0) return el("span", { class: "nil" }, t("none"));
    return el("dl", { class: "kv depth" + Math.min(depth, 3) },
      entries.map(([k, v]) => [el("dt", {}, label(k)), el("dd", {}, draw(v, depth + 1, seats))]));
  }
  window.Tabletown.registerBoard("generic", {
    render(container, payload, ctx) {
      container.replaceChildren();
      const view = payload.state !== undefined ? payload.state : payload;
      container.append(draw(view, 0, payload.num_players));
      if (payload.result) {
        // the engine's result only: a game's own board words its breakdown in the game's terms
        const T = window.Tabletown, res = payload.result;
        const order = res.ranks.map((r, s) => s).sort((a, b) => res.ranks[a] - res.ranks[b] || a - b);
        container.prepend(el("div", { class: "result" }, t("Final standings"),
          el("table", { class: "grid" }, el("tr", {}, el("th", {}, t("Place")), el("th", {}, t("Seat")), el("th", {}, t("Score"))),
            order.map((s) => el("tr", { class: res.ranks[s] === 1 ? "winner" : "", "data-seat": s },
              el("td", {}, T.place(res, s)), el("td", {}, T.seatLabel((ctx && ctx.seats) || payload.seats, s) + (ctx && s === ctx.seat ? t(" (you)") : "")),
              el("td", {}, String(res.scores[s])))))));
      }
    },
  });
})();
