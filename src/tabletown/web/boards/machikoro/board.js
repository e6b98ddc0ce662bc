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

  // A card's tooltip in words (name, colour and when it works, numbers, cost, effect, how many here):
  // shown on hover and on keyboard focus, and the card's description for screen readers (aria-describedby).
  function rollWords(list) {
    if (!list || !list.length) return "";
    const sorted = [...list].sort((a, b) => a - b);
    if (sorted.length === 1) return String(sorted[0]);
    if (sorted.length === 2) return `${sorted[0]} or ${sorted[1]}`;
    return `${sorted[0]}–${sorted[sorted.length - 1]}`;
  }
  function tipLines(info, opts) {
    const printed = (words.printed || {})[info.id] || {};
    const color = info.color || printed.color || "landmark";
    const list = info.rolls || printed.rolls || [];
    const cost = info.cost !== undefined ? info.cost : printed.cost;
    const lines = [(words.colors || {})[color] || ""];
    if (list.length) lines.push(`Activates on a roll of ${rollWords(list)}.`);
    if (cost !== undefined) lines.push(`Costs ${coins(cost)}.`);
    if (effect(info.id)) lines.push(`Effect: ${effect(info.id)}.`);
    if (opts.built !== undefined) lines.push(opts.built ? "Built." : "Not built yet.");
    else if (opts.where === "market" && opts.count !== undefined) lines.push(`${opts.count} left in the market.`);
    else if (opts.count !== undefined) lines.push(`${opts.count} in this town.`);
    return lines.filter(Boolean);
  }
  function card(info, opts) {
    const classes = ["mk-card", "mk-" + (info.color || "landmark")];
    if (opts.playable) classes.push("playable");
    if (opts.selected) classes.push("selected");
    if (opts.dim) classes.push("dim");
    if (opts.just) classes.push("tt-just");
    if (opts.just && opts.fresh) classes.push("tt-fresh");
    const tip = `mk-tip-${opts.where}-${info.id}`;
    // a card that cannot be pressed now stays focusable (aria-disabled, not disabled): its tooltip is
    // reached by keyboard too
    const button = el("button", {
      class: classes.join(" "), type: "button", "aria-disabled": opts.playable ? null : "true", "aria-describedby": tip,
      "data-card": info.id, onclick: opts.playable ? opts.onclick : null, "aria-label": opts.label || null,
      "aria-pressed": opts.selected ? "true" : null,
    },
      el("span", { class: "mk-rolls" }, info.rolls ? rolls(info.rolls) : ""),
      el("span", { class: "mk-name" }, name(info.id)),
      el("span", { class: "mk-effect" }, effect(info.id)),
      el("span", { class: "mk-foot" },
        info.cost !== undefined ? el("span", { class: "mk-cost coin" }, String(info.cost)) : null,
        opts.count !== undefined ? el("span", { class: "mk-count" }, "×" + opts.count) : null,
        opts.built !== undefined ? el("span", { class: "mk-built" }, opts.built ? "built" : "—") : null));
    // (the tooltip opens to the left of a card near the right edge of the window)
    const place = () => wrap.classList.toggle("mk-tip-left", wrap.getBoundingClientRect().left + 290 > window.innerWidth);
    const wrap = el("div", { class: "mk-cardwrap", "data-card": info.id, onmouseenter: place, onfocusin: place,
      onmouseleave: () => wrap.classList.remove("mk-tip-off"), onfocusout: () => wrap.classList.remove("mk-tip-off") },
      button,
      el("span", { class: "mk-tip", id: tip, role: "tooltip", "data-card": info.id },
        el("strong", {}, name(info.id)), tipLines(info, opts).map((line) => [" ", el("span", {}, line)])));
    return wrap;
  }
  // Escape closes the tooltip shown (WCAG 1.4.13), until the pointer or the focus leaves that card
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    document.querySelectorAll(".mk-cardwrap:hover, .mk-cardwrap:focus-within").forEach((w) => w.classList.add("mk-tip-off"));
  });

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


  // -- following a turn (table.js "following"): the events of the step on the board become the dice rolled,
  // +N / −N at the cities a payment touches, the card built (or swapped) highlighted; each seat's last
  // turn in words under its city.
  const STEP_KINDS = new Set(["keep", "reroll", "harbor_add", "swap", "no_swap", "build", "pass"]);
  const follow = {
    // a turn starts with its roll (a Radio Tower's second roll belongs to the same turn)
    turn(e, prev) { return e.kind === "roll" && !(prev && prev.kind === "reroll") ? e.seat : null; },
    step(e) { return STEP_KINDS.has(e.kind) || (e.kind === "take" && e.card === "tv"); },
    summary,
    rewind,
  };
  // The position before `later` (the events after the step shown, in one payload with it): every coin,
  // card and market change undone, so a step cut from a payload of several moves shows its own city.
  function rewind(state, later, step) {
    const st = JSON.parse(JSON.stringify(state));
    const players = st.players || [];
    const coins = (seat, n) => { if (players[seat]) players[seat].coins += n; };
    const count = (table, id, n) => { table[id] = (table[id] || 0) + n; if (table[id] <= 0) delete table[id]; };
    st.market = st.market || {};
    let before = step.events[step.events.length - 1] || null;
    for (const e of later) {
      if (e.kind === "roll" && !(before && before.kind === "reroll")) st.turn -= 1; // a turn that starts later
      before = e;
    }
    for (const e of [...later].reverse()) {
      const k = e.kind;
      if (k === "income" || k === "city_hall" || k === "airport") coins(e.seat, -e.amount);
      else if (k === "pay") { coins(e.seat, e.amount); coins(e.to, -e.amount); }
      else if (k === "take") { coins(e.seat, -e.amount); coins(e.from, e.amount); }
      else if (k === "build" && players[e.seat]) {
        const p = players[e.seat];
        coins(e.seat, e.cost);
        if (e.card in p.landmarks) p.landmarks[e.card] = false;
        else { count(p.establishments, e.card, -1); count(st.market, e.card, 1); }
      } else if (k === "market_reveal") (e.cards || []).forEach((c) => count(st.market, c, -1));
      else if (k === "swap" && players[e.seat] && players[e.target]) {
        count(players[e.seat].establishments, e.mine, 1); count(players[e.seat].establishments, e.theirs, -1);
        count(players[e.target].establishments, e.theirs, 1); count(players[e.target].establishments, e.mine, -1);
      }
    }
    const roll = [...step.events].reverse().find((e) => e.kind === "roll");
    if (step.seat !== null && step.seat !== undefined) st.current = step.seat;
    st.pending = {};
    if (roll) { st.dice = roll.dice; st.roll = roll.total; }
    return st;
  }
  function coins(n) { return n === 1 ? "1 coin" : `${n} coins`; }
  function summary(list, seat, ctx) {
    if (!words) words = T.config("board-words") || {};
    const who = (s) => (s === ctx.seat ? "you" : T.seatLabel(ctx.seats, s));
    const said = [];
    let rolled = null, rerolled = false, bank = 0;
    for (const e of list) {
      if (e.kind === "roll" && e.seat === seat) rolled = e;
      else if (e.kind === "reroll") rerolled = true;
      else if (e.kind === "income" && e.seat === seat) bank += e.amount;
      else if ((e.kind === "city_hall" || e.kind === "airport") && e.seat === seat) bank += e.amount;
    }
    if (rolled) said.push(`${rerolled ? "re-rolled to" : "rolled"} ${rolled.dice.join("+")}${rolled.dice.length > 1 ? ` = ${rolled.total}` : ""}`);
    for (const e of list) {
      if (e.kind === "harbor_add" && e.seat === seat) said.push(`added 2 with the Harbor (${e.total})`);
      else if (e.kind === "tuna_roll" && e.seat === seat) said.push(`rolled ${e.dice.join("+")} = ${e.total} for the Tuna Boats`);
      else if (e.kind === "pay" && e.seat === seat && e.amount) said.push(`paid ${who(e.to)} ${e.amount} (${name(e.card)})`);
      else if (e.kind === "take" && e.seat === seat && e.amount) said.push(`took ${e.amount} from ${who(e.from)} (${name(e.card)})`);
      else if (e.kind === "swap" && e.seat === seat) said.push(`swapped a ${name(e.mine)} for ${who(e.target)}'s ${name(e.theirs)}`);
    }
    if (bank) said.push(`got ${coins(bank)} from the bank`);
    for (const e of list) {
      if (e.kind === "build" && e.seat === seat) said.push(`built ${name(e.card)} (${coins(e.cost)})`);
      else if (e.kind === "pass" && e.seat === seat) said.push("built nothing");
      else if (e.kind === "extra_turn" && e.seat === seat) said.push("plays again (Amusement Park)");
      else if (e.kind === "win" && e.seat === seat) said.push("built every landmark and wins");
    }
    if (!said.length) return "";
    const text = said.join(", ") + ".";
    return text.charAt(0).toUpperCase() + text.slice(1);
  }
  // what the step on the board did: {roll, deltas: seat -> [{amount, why}], cards: seat -> Set(card ids)}
  function stepMarks(step) {
    const marks = { roll: null, tuna: null, deltas: {}, cards: {} };
    if (!step) return marks;
    const add = (seat, amount, why) => {
      if (!amount || seat === undefined || seat === null) return;
      (marks.deltas[seat] = marks.deltas[seat] || []).push({ amount, why });
    };
    const mark = (seat, card) => { (marks.cards[seat] = marks.cards[seat] || new Set()).add(card); };
    for (const e of step.events) {
      if (e.kind === "roll") marks.roll = e;
      else if (e.kind === "tuna_roll") marks.tuna = e;
      else if (e.kind === "harbor_add" && marks.roll) marks.roll = { ...marks.roll, total: e.total, harbor: true };
      else if (e.kind === "income") add(e.seat, e.amount, `from the bank for ${name(e.card)}`);
      else if (e.kind === "pay") { add(e.seat, -e.amount, `to ${name(e.card)}`); add(e.to, e.amount, `for ${name(e.card)}`); }
      else if (e.kind === "take") { add(e.seat, e.amount, `for ${name(e.card)}`); add(e.from, -e.amount, `to ${name(e.card)}`); }
      else if (e.kind === "city_hall") add(e.seat, e.amount, "from the City Hall");
      else if (e.kind === "airport") add(e.seat, e.amount, "from the Airport");
      else if (e.kind === "build") { add(e.seat, -e.cost, `built ${name(e.card)}`); mark(e.seat, e.card); }
      else if (e.kind === "swap") { mark(e.seat, e.theirs); mark(e.target, e.mine); }
    }
    return marks;
  }
  function deltaChip(d, seats, seat, me, fresh) {
    const plus = d.amount > 0;
    const text = (plus ? "+" : "−") + Math.abs(d.amount);
    return el("span", { class: "tt-delta " + (plus ? "plus" : "minus") + (fresh ? " tt-fresh" : ""), "data-amount": d.amount,
      title: `${T.seatLabel(seats, seat)}${seat === me ? " (you)" : ""}: ${text} ${d.why}` }, text);
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

    // the turn: whose, what they decide, the dice (those of the step followed, when it rolled)
    const fol = ctx.follow || {};
    const marks = stepMarks(fol.step);
    const faces = marks.roll ? marks.roll.dice : st.dice || [];
    const total = marks.roll ? marks.roll.total : st.roll;
    const dice = faces.map((d) => DIE[d] || String(d)).join(" ");
    // a step that ended its seat's turn is shown as that seat's (the position already names the next roller)
    const ended = fol.playing && fol.step && fol.step.seat !== null && fol.step.seat !== undefined && fol.step.seat !== st.current;
    parts.push(el("div", { class: "mk-turn" },
      el("span", {}, ended ? `${T.seatLabel(ctx.seats, fol.step.seat)}'s turn ` : `Turn ${st.turn}: ${T.seatLabel(ctx.seats, st.current)} `),
      pending.decision && !ended ? el("span", { class: "hint" }, DECISION[pending.decision] || pending.decision) : null,
      dice ? el("span", {
        class: "mk-dice" + (marks.roll ? " tt-rolled" + (fol.fresh ? " tt-fresh" : "") : ""), "data-dice": faces.join(","),
        title: marks.roll ? `${T.seatLabel(ctx.seats, marks.roll.seat)} rolled ${faces.join(" and ")}` : "the dice as rolled",
        role: "img", "aria-label": `dice: ${faces.join(" and ")}${total ? `, total ${total}` : ""}`,
      }, dice, total ? el("small", {}, ` = ${total}`) : null) : null,
      // a Tuna Boat roll (Harbor): its own two dice, rolled once for every Tuna Boat of the step
      marks.tuna ? el("span", {
        class: "mk-tuna tt-rolled" + (fol.fresh ? " tt-fresh" : ""), "data-dice": marks.tuna.dice.join(","),
        title: `${T.seatLabel(ctx.seats, marks.tuna.seat)} rolled ${marks.tuna.dice.join(" and ")} for the Tuna Boats: each pays that total`,
        role: "img", "aria-label": `Tuna Boat dice: ${marks.tuna.dice.join(" and ")}, total ${marks.tuna.total}`,
      }, el("small", {}, "Tuna Boat "), marks.tuna.dice.map((d) => DIE[d] || String(d)).join(" "), el("small", {}, ` = ${marks.tuna.total}`)) : null));

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
      const acting = fol.step && fol.step.seat === seat;
      const city = el("section", { class: "mk-city" + (seat === st.current ? " current" : "") + (seat === me ? " mine" : "") + (acting ? " tt-acting" : ""), "data-seat": seat },
        el("h3", {}, T.seatLabel(ctx.seats, seat), el("span", { class: "mk-coins coin", title: "coins" }, String(p.coins)),
          (marks.deltas[seat] || []).map((d) => deltaChip(d, ctx.seats, seat, me, fol.fresh)),
          act && legal.has(tv) ? el("button", { class: "small", type: "button", "data-move": tv, onclick: () => act(tv) }, "Take coins (TV Station)") : null));
      const last = (fol.last || {})[seat];
      if (last) city.append(el("p", { class: "tt-last-turn", "data-seat": seat }, el("strong", {}, "Last turn: "), last));
      const just = marks.cards[seat] || new Set();
      const lit = (id) => ({ just: just.has(id), fresh: !!fol.fresh, where: seat });
      city.append(el("div", { class: "mk-row" }, landmarks.filter((l) => l.id in p.landmarks).map((l) => {
        const move = `build ${l.id}`;
        const playable = !!act && seat === me && legal.has(move);
        return card({ id: l.id, cost: l.cost }, { ...lit(l.id), built: p.landmarks[l.id], playable, dim: !p.landmarks[l.id] && !playable, onclick: () => act(move) });
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
        return card(info, { ...lit(id), count, playable, selected, onclick, label });
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
      return card(cards[id] || { id }, { where: "market", count, playable, dim: pending.decision === "build" && !playable && pending.seat === me, onclick: () => act(move) });
    })));
    container.replaceChildren(...parts);
  }

  T.registerBoard("machikoro", { render, outcome, describeMove, follow, boardMovesHint: "Business Center: click an opponent’s card on the board, then one of yours.", reset() { swapTheirs = null; } });
})();
