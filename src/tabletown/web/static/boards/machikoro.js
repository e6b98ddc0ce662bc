// Machi Koro (+ Harbor) board: every city with coins, establishments and landmarks, the market with
// each card's cost, activation numbers, colour and effect, the dice, and every legal move clickable.
// Data from the seat's view (payload.state); names and effects from the page's board words.
"use strict";
(function () {
  const T = window.Tabletown;
  const { el } = T;
  const DIE = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
  const SIMPLE = {
    roll: "Roll one die", roll2: "Roll two dice", keep: "Keep the roll", reroll: "Re-roll one die",
    reroll2: "Re-roll two dice", add2: "Add 2 (Harbor)", noadd: "Don't add 2", pass: "Build nothing", noswap: "No swap",
  };
  const DECISION = {
    roll: "rolls the dice", reroll: "may re-roll (Radio Tower)", harbor: "may add 2 (Harbor)",
    tv_station: "chooses whom the TV Station takes coins from", business_center: "may swap an establishment (Business Center)",
    build: "may build",
  };
  let words = null;
  let swapTheirs = null; // Business Center: the opponent's card chosen first ({seat, id})

  function name(id) { return (words.names || {})[id] || id; }
  function effect(id) { return (words.effects || {})[id] || ""; }
  function rolls(list) {
    if (!list || !list.length) return "";
    const lo = Math.min(...list), hi = Math.max(...list);
    return lo === hi ? String(lo) : `${lo}–${hi}`;
  }

  function card(info, opts) {
    const classes = ["mk-card", "mk-" + (info.color || "landmark")];
    if (opts.playable) classes.push("playable");
    if (opts.selected) classes.push("selected");
    if (opts.dim) classes.push("dim");
    return el("button", {
      class: classes.join(" "), type: "button", disabled: !opts.playable, title: name(info.id) + ": " + effect(info.id),
      "data-card": info.id, onclick: opts.onclick || null, "aria-label": opts.label || null,
      "aria-pressed": opts.selected ? "true" : null,
    },
      el("span", { class: "mk-rolls" }, info.rolls ? rolls(info.rolls) : ""),
      el("span", { class: "mk-name" }, name(info.id)),
      el("span", { class: "mk-effect" }, effect(info.id)),
      el("span", { class: "mk-foot" },
        info.cost !== undefined ? el("span", { class: "mk-cost coin", title: "cost" }, String(info.cost)) : null,
        opts.count !== undefined ? el("span", { class: "mk-count" }, "×" + opts.count) : null,
        opts.built !== undefined ? el("span", { class: "mk-built" }, opts.built ? "built" : "—") : null));
  }

  // -- the end: the first city with every landmark built wins; the others did not finish (they share 2nd
  // place in the rules), listed by the landmarks they had, then their coins.
  function victoryLandmarks(st) { return (st.landmarks || []).filter((l) => l.counts); }
  function builtCount(st, p) { return victoryLandmarks(st).filter((l) => p.landmarks[l.id]).length; }

  function finalStandings(payload, ctx) {
    const st = payload.state, res = payload.result;
    const needed = victoryLandmarks(st).filter((l) => st.players.some((p) => l.id in p.landmarks)).length;
    const order = st.players.map((p, s) => s).sort((a, b) => res.ranks[a] - res.ranks[b] ||
      builtCount(st, st.players[b]) - builtCount(st, st.players[a]) || st.players[b].coins - st.players[a].coins || a - b);
    return el("div", { class: "result mk-final" },
      el("div", {}, "Final standings"),
      el("table", { class: "grid" },
        el("tr", {}, el("th", {}, "Place"), el("th", {}, "City"), el("th", {}, "Landmarks built"), el("th", {}, "Coins")),
        order.map((s) => {
          const p = st.players[s];
          return el("tr", { class: res.ranks[s] === 1 ? "winner" : "", "data-seat": s },
            el("td", {}, T.place(res, s) + (res.ranks[s] === 1 ? " ★" : "")), el("td", {}, T.seatLabel(ctx.seats, s) + (s === ctx.seat ? " (you)" : "")),
            el("td", {}, `${builtCount(st, p)} of ${needed}`), el("td", {}, String(p.coins)));
        })),
      el("p", { class: "hint" }, "The first city to build all its landmarks wins" +
        (st.players.length > 2 ? "; the others did not finish and share second place." : ".")));
  }

  function outcome(payload, ctx) {
    const st = payload.state, res = payload.result;
    if (!st || !st.players || !res || res.winners.length !== 1) return null;
    const w = res.winners[0];
    const who = w === ctx.seat ? "You" : T.seatName(ctx.seats, w, ctx.seat);
    return { detail: `${who} built all ${builtCount(st, st.players[w])} landmarks first.` };
  }

  // A legal move in words for the move list (the notation stays in records, the API and the terminal).
  // null: a move made on the board itself (a Business Center swap: click their card, then yours).
  function describeMove(text, payload, ctx) {
    if (!words) words = T.config("board-words") || {};
    if (SIMPLE[text]) return SIMPLE[text];
    const [verb, a, b, c] = text.split(" ");
    const st = (payload && payload.state) || {};
    if (verb === "build") {
      const info = (st.cards || []).find((x) => x.id === a) || (st.landmarks || []).find((x) => x.id === a);
      const landmark = (st.landmarks || []).some((x) => x.id === a);
      const cost = info && info.cost !== undefined ? ` (${info.cost} ${info.cost === 1 ? "coin" : "coins"})` : "";
      return { words: `Build ${landmark ? "the" : "a"} ${name(a)}${cost}`, group: landmark ? "Build a landmark" : "Build an establishment" };
    }
    if (verb === "tv") {
      const amount = st.pending && st.pending.amount !== undefined ? st.pending.amount : 5;
      return `Take ${amount} coins from ${T.seatLabel(ctx && ctx.seats, Number(a))} (TV Station)`;
    }
    if (verb === "swap") {
      if (ctx && ctx.act) return null;
      return `Swap ${name(a)} for ${T.seatWhose(ctx && ctx.seats, Number(b), ctx && ctx.seat)} ${name(c)} (Business Center)`;
    }
    return text;
  }

  function render(container, payload, ctx) {
    if (!words) words = T.config("board-words") || {};
    const st = payload.state;
    if (!st || !st.players) { T.board("generic").render(container, payload, ctx); return; }
    const legal = new Set(ctx.legal || []);
    const act = ctx.act;
    const me = ctx.seat;
    const cards = Object.fromEntries((st.cards || []).map((c) => [c.id, c]));
    const landmarks = st.landmarks || [];
    const pending = st.pending || {};
    const parts = [];

    if (payload.result) parts.push(finalStandings(payload, ctx));

    // the turn: whose, what they decide, the dice
    const dice = (st.dice || []).map((d) => DIE[d] || String(d)).join(" ");
    parts.push(el("div", { class: "mk-turn" },
      el("span", {}, `Turn ${st.turn}: ${T.seatLabel(ctx.seats, st.current)} `),
      pending.decision ? el("span", { class: "hint" }, DECISION[pending.decision] || pending.decision) : null,
      dice ? el("span", { class: "mk-dice", title: "the dice as rolled" }, dice, st.roll ? el("small", {}, ` = ${st.roll}`) : null) : null));

    // simple decisions as big buttons
    const simple = Object.keys(SIMPLE).filter((k) => legal.has(k));
    if (simple.length && act) {
      parts.push(el("div", { class: "mk-actions" }, simple.map((k) =>
        el("button", { class: "primary", type: "button", "data-move": k, onclick: () => act(k) }, SIMPLE[k]))));
    }

    // Business Center: click the opponent's card you want, then the card of yours you give for it
    const swapping = act && [...legal].some((m) => m.startsWith("swap "));
    if (!swapping) swapTheirs = null;
    if (swapping) {
      parts.push(el("p", { class: "hint mk-swap-hint", role: "status" }, swapTheirs ?
        `Take ${T.seatWhose(ctx.seats, swapTheirs.seat, me)} ${name(swapTheirs.id)} for one of your cards: click the card you give (or click theirs again to choose another).` :
        "Business Center: click an opponent's card you want, then one of yours to give for it — or “No swap”."));
    }

    // the cities
    const cities = el("div", { class: "mk-cities" });
    st.players.forEach((p, seat) => {
      const tv = `tv ${seat}`;
      const city = el("section", { class: "mk-city" + (seat === st.current ? " current" : "") + (seat === me ? " mine" : "") },
        el("h3", {}, T.seatLabel(ctx.seats, seat), el("span", { class: "mk-coins coin", title: "coins" }, String(p.coins)),
          act && legal.has(tv) ? el("button", { class: "small", type: "button", "data-move": tv, onclick: () => act(tv) }, "Take coins (TV Station)") : null));
      city.append(el("div", { class: "mk-row" }, landmarks.filter((l) => l.id in p.landmarks).map((l) => {
        const move = `build ${l.id}`;
        const playable = !!act && seat === me && legal.has(move);
        return card({ id: l.id, cost: l.cost }, { built: p.landmarks[l.id], playable, dim: !p.landmarks[l.id] && !playable, onclick: () => act(move) });
      })));
      const owned = Object.entries(p.establishments).sort((a, b) => (cards[a[0]]?.rolls?.[0] || 0) - (cards[b[0]]?.rolls?.[0] || 0));
      city.append(el("div", { class: "mk-row" }, owned.map(([id, count]) => {
        const info = cards[id] || { id };
        let playable = false, onclick = null, selected = false;
        let label = null;
        if (swapping) {
          if (seat !== me && [...legal].some((m) => m.startsWith("swap ") && m.endsWith(` ${seat} ${id}`))) {
            playable = true; selected = !!swapTheirs && swapTheirs.seat === seat && swapTheirs.id === id;
            label = `Choose ${T.seatWhose(ctx.seats, seat, me)} ${name(id)} to take`;
            onclick = () => { swapTheirs = selected ? null : { seat, id }; render(container, payload, ctx); };
          } else if (seat === me && swapTheirs && legal.has(`swap ${id} ${swapTheirs.seat} ${swapTheirs.id}`)) {
            playable = true;
            label = `Give your ${name(id)} for ${T.seatWhose(ctx.seats, swapTheirs.seat, me)} ${name(swapTheirs.id)}`;
            onclick = () => { const m = `swap ${id} ${swapTheirs.seat} ${swapTheirs.id}`; swapTheirs = null; act(m); };
          }
        }
        return card(info, { count, playable, selected, onclick, label });
      })));
      cities.append(city);
    });
    parts.push(cities);

    // the market
    const market = Object.entries(st.market || {}).filter(([, n]) => n > 0)
      .sort((a, b) => (cards[a[0]]?.rolls?.[0] || 0) - (cards[b[0]]?.rolls?.[0] || 0));
    parts.push(el("h3", {}, "Market", st.market_deck_sizes && st.market_deck_sizes.length ? el("small", {}, ` (deck: ${st.market_deck_sizes.join(" / ")})`) : null));
    parts.push(el("div", { class: "mk-row mk-market" }, market.map(([id, count]) => {
      const move = `build ${id}`;
      const playable = !!act && legal.has(move);
      return card(cards[id] || { id }, { count, playable, dim: pending.decision === "build" && !playable && pending.seat === me, onclick: () => act(move) });
    })));
    container.replaceChildren(...parts);
  }

  T.registerBoard("machikoro", { render, outcome, describeMove, boardMovesHint: "Business Center: click an opponent’s card on the board, then one of yours.", reset() { swapTheirs = null; } });
})();
