// Machi Koro (+ Harbor) board: every city with coins, establishments and landmarks, the market with
// each card's cost, activation numbers, colour and effect, the dice, and every legal move clickable.
// Data from the seat's view (payload.state); names and effects from the page's board words.
"use strict";
(function () {
  const T = window.Tabletown;
  const { el } = T;
  const t = T.t;
  const DIE = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
  // the words are looked up when drawn (the page's messages are read on first use)
  const SIMPLE_MOVES = ["roll", "roll2", "keep", "reroll", "reroll2", "add2", "noadd", "pass", "noswap"];
  const simple = (k) => ({
    roll: t("Roll one die"), roll2: t("Roll two dice"), keep: t("Keep the roll"), reroll: t("Re-roll one die"),
    reroll2: t("Re-roll two dice"), add2: t("Add 2 ({card})", { card: name("harbor") }), noadd: t("Don't add 2"),
    pass: t("Build nothing"), noswap: t("No swap"),
  })[k];
  const decision = (k) => ({
    roll: t("rolls the dice"), reroll: t("may re-roll ({card})", { card: name("radio") }),
    harbor: t("may add 2 ({card})", { card: name("harbor") }),
    tv_station: t("chooses whom the {card} takes coins from", { card: name("tv") }),
    business_center: t("may swap an establishment ({card})", { card: name("office") }),
    build: t("may build"),
  })[k];
  const counted = T.counted; // a number's form of a translated phrase
  // the possessive with the card: "your Cafe", "Alice's Cafe"
  function whose(seats, seat, me, card) {
    if (seat === me && me !== null && me !== undefined) return t("your {card}", { card });
    return t("{name}'s {card}", { name: T.seatLabel(seats, seat), card });
  }
  let words = null;
  let swapTheirs = null; // Business Center: the opponent's card chosen first ({seat, id})

  function name(id) { return (words.names || {})[id] || id; }
  let cityHallEveryTurn = false; // the table's city_hall option (its card's effect depends on it)
  function effect(id) {
    const key = id === "cityhall" && cityHallEveryTurn ? "cityhall/every_turn" : id;
    return (words.effects || {})[key] || "";
  }
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
    if (sorted.length === 2) return t("{a} or {b}", { a: sorted[0], b: sorted[1] });
    return `${sorted[0]}–${sorted[sorted.length - 1]}`;
  }
  function tipLines(info, opts) {
    const printed = (words.printed || {})[info.id] || {};
    const color = info.color || printed.color || "landmark";
    const list = info.rolls || printed.rolls || [];
    const cost = info.cost !== undefined ? info.cost : printed.cost;
    const lines = [(words.colors || {})[color] || ""];
    if (list.length) lines.push(t("Activates on a roll of {rolls}.", { rolls: rollWords(list) }));
    if (cost !== undefined) lines.push(t("Costs {coins}.", { coins: coins(cost) }));
    if (effect(info.id)) lines.push(t("Effect: {effect}.", { effect: effect(info.id) }));
    if (opts.built !== undefined) lines.push(opts.built ? t("Built.") : t("Not built yet."));
    else if (opts.where === "market" && opts.count !== undefined) lines.push(t("{count} left in the market.", { count: opts.count }));
    else if (opts.count !== undefined) lines.push(t("{count} in this town.", { count: opts.count }));
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
        opts.built !== undefined ? el("span", { class: "mk-built" }, opts.built ? t("built") : "—") : null));
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
      el("div", {}, t("Final standings")),
      el("table", { class: "grid" },
        el("tr", {}, el("th", {}, t("Place")), el("th", {}, t("City")), el("th", {}, t("Landmarks built")), el("th", {}, t("Coins"))),
        order.map((s) => {
          const p = st.players[s];
          return el("tr", { class: res.ranks[s] === 1 ? "winner" : "", "data-seat": s },
            el("td", {}, T.place(res, s) + (res.ranks[s] === 1 ? " ★" : "")), el("td", {}, s === ctx.seat ? t("{name} (you)", { name: T.seatLabel(ctx.seats, s) }) : T.seatLabel(ctx.seats, s)),
            el("td", {}, t("{built} of {needed}", { built: builtCount(st, p), needed })), el("td", {}, String(p.coins)));
        })),
      el("p", { class: "hint" }, st.players.length > 2 ?
        t("The first city to build all its landmarks wins; the others did not finish and share second place.") :
        t("The first city to build all its landmarks wins.")));
  }

  function outcome(payload, ctx) {
    const st = payload.state, res = payload.result;
    if (!st || !st.players || !res || res.winners.length !== 1) return null;
    const w = res.winners[0];
    const count = builtCount(st, st.players[w]);
    if (w === ctx.seat) return { detail: t("You built all {count} landmarks first.", { count }) };
    return { detail: t("{who} built all {count} landmarks first.", { who: T.seatName(ctx.seats, w, ctx.seat), count }) };
  }

  // A legal move in words for the move list (the notation stays in records, the API and the terminal).
  // null: a move made on the board itself (a Business Center swap: click their card, then yours).
  function describeMove(text, payload, ctx) {
    if (!words) words = T.config("board-words") || {};
    if (SIMPLE_MOVES.includes(text)) return simple(text);
    const [verb, a, b, c] = text.split(" ");
    const st = (payload && payload.state) || {};
    if (verb === "build") {
      const info = (st.cards || []).find((x) => x.id === a) || (st.landmarks || []).find((x) => x.id === a);
      const landmark = (st.landmarks || []).some((x) => x.id === a);
      const group = landmark ? t("Build a landmark") : t("Build an establishment");
      const an = ((words.printed || {})[a] || {}).an; // English: "an Apple Orchard"
      if (!info || info.cost === undefined) {
        const plain = { card: name(a) };
        return { words: landmark ? t("Build the {card}", plain) : an ? t("Build an {card}", plain) : t("Build a {card}", plain), group };
      }
      const fields = { card: name(a), coins: coins(info.cost) };
      return { words: landmark ? t("Build the {card} ({coins})", fields) : an ? t("Build an {card} ({coins})", fields) : t("Build a {card} ({coins})", fields), group };
    }
    if (verb === "tv") {
      const amount = st.pending && st.pending.amount !== undefined ? st.pending.amount : 5;
      return t("Take {amount} coins from {name} ({card})", { amount, name: T.seatLabel(ctx && ctx.seats, Number(a)), card: name("tv") });
    }
    if (verb === "swap") {
      if (ctx && ctx.act) return null;
      return t("Swap {mine} for {theirs} ({card})", { mine: name(a), theirs: whose(ctx && ctx.seats, Number(b), ctx && ctx.seat, name(c)), card: name("office") });
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
  // i18n: "{n} coins" may hold the number's forms, one|few|many (Polish, Russian)
  function coins(n) { return n === 1 ? t("1 coin") : counted(t("{n} coins", { n }), n); }
  function summary(list, seat, ctx) {
    if (!words) words = T.config("board-words") || {};
    const who = (s) => T.seatLabel(ctx.seats, s);
    const said = [];
    let rolled = null, rerolled = false, bank = 0;
    for (const e of list) {
      if (e.kind === "roll" && e.seat === seat) rolled = e;
      else if (e.kind === "reroll") rerolled = true;
      else if (e.kind === "income" && e.seat === seat) bank += e.amount;
      else if ((e.kind === "city_hall" || e.kind === "airport") && e.seat === seat) bank += e.amount;
    }
    if (rolled) {
      const fields = { dice: rolled.dice.join("+"), total: rolled.total };
      if (rolled.dice.length > 1) said.push(rerolled ? t("re-rolled to {dice} = {total}", fields) : t("rolled {dice} = {total}", fields));
      else said.push(rerolled ? t("re-rolled to {dice}", fields) : t("rolled {dice}", fields));
    }
    for (const e of list) {
      if (e.kind === "harbor_add" && e.seat === seat) said.push(t("added 2 with the {card} ({total})", { card: name("harbor"), total: e.total }));
      else if (e.kind === "tuna_roll" && e.seat === seat) said.push(t("rolled {dice} = {total} for the Tuna Boats", { dice: e.dice.join("+"), total: e.total }));
      else if (e.kind === "pay" && e.seat === seat && e.amount) {
        const fields = { name: who(e.to), amount: e.amount, card: name(e.card) };
        said.push(e.to === ctx.seat ? t("paid you {amount} ({card})", fields) : t("paid {name} {amount} ({card})", fields));
      }
      else if (e.kind === "take" && e.seat === seat && e.amount) {
        const fields = { amount: e.amount, name: who(e.from), card: name(e.card) };
        said.push(e.from === ctx.seat ? t("took {amount} from you ({card})", fields) : t("took {amount} from {name} ({card})", fields));
      }
      else if (e.kind === "swap" && e.seat === seat) {
        const fields = { mine: name(e.mine), name: who(e.target), theirs: name(e.theirs) };
        said.push(e.target === ctx.seat ? t("swapped a {mine} for your {theirs}", fields) : t("swapped a {mine} for {name}'s {theirs}", fields));
      }
    }
    if (bank) said.push(t("got {coins} from the bank", { coins: coins(bank) }));
    for (const e of list) {
      if (e.kind === "build" && e.seat === seat) said.push(t("built {card} ({coins})", { card: name(e.card), coins: coins(e.cost) }));
      else if (e.kind === "pass" && e.seat === seat) said.push(t("built nothing"));
      else if (e.kind === "extra_turn" && e.seat === seat) said.push(t("plays again ({card})", { card: name("park") }));
      else if (e.kind === "win" && e.seat === seat) said.push(t("built every landmark and wins"));
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
      else if (e.kind === "income") add(e.seat, e.amount, t("from the bank for {card}", { card: name(e.card) }));
      else if (e.kind === "pay") { add(e.seat, -e.amount, t("to {card}", { card: name(e.card) })); add(e.to, e.amount, t("for {card}", { card: name(e.card) })); }
      else if (e.kind === "take") { add(e.seat, e.amount, t("for {card}", { card: name(e.card) })); add(e.from, -e.amount, t("to {card}", { card: name(e.card) })); }
      else if (e.kind === "city_hall") add(e.seat, e.amount, t("from the {card}", { card: name("cityhall") }));
      else if (e.kind === "airport") add(e.seat, e.amount, t("from the {card}", { card: name("airport") }));
      else if (e.kind === "build") { add(e.seat, -e.cost, t("built {card}", { card: name(e.card) })); mark(e.seat, e.card); }
      else if (e.kind === "swap") { mark(e.seat, e.theirs); mark(e.target, e.mine); }
    }
    return marks;
  }
  function deltaChip(d, seats, seat, me, fresh) {
    const plus = d.amount > 0;
    const text = (plus ? "+" : "−") + Math.abs(d.amount);
    const who = seat === me ? t("{name} (you)", { name: T.seatLabel(seats, seat) }) : T.seatLabel(seats, seat);
    return el("span", { class: "tt-delta " + (plus ? "plus" : "minus") + (fresh ? " tt-fresh" : ""), "data-amount": d.amount,
      title: t("{name}: {amount} {why}", { name: who, amount: text, why: d.why }) }, text);
  }

  function render(container, payload, ctx) {
    if (!words) words = T.config("board-words") || {};
    const st = payload.state;
    if (!st || !st.players) { T.board("generic").render(container, payload, ctx); return; }
    cityHallEveryTurn = (payload.options || {}).city_hall === "every_turn";
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
    const and = t(" and ");
    // a step that ended its seat's turn is shown as that seat's (the position already names the next roller)
    const ended = fol.playing && fol.step && fol.step.seat !== null && fol.step.seat !== undefined && fol.step.seat !== st.current;
    parts.push(el("div", { class: "mk-turn" },
      el("span", {}, ended ? t("{name}'s turn ", { name: T.seatLabel(ctx.seats, fol.step.seat) }) : t("Turn {turn}: {name} ", { turn: st.turn, name: T.seatLabel(ctx.seats, st.current) })),
      pending.decision && !ended ? el("span", { class: "hint" }, decision(pending.decision) || pending.decision) : null,
      dice ? el("span", {
        class: "mk-dice" + (marks.roll ? " tt-rolled" + (fol.fresh ? " tt-fresh" : "") : ""), "data-dice": faces.join(","),
        title: marks.roll ? t("{name} rolled {dice}", { name: T.seatLabel(ctx.seats, marks.roll.seat), dice: faces.join(and) }) : t("the dice as rolled"),
        role: "img", "aria-label": total ? t("dice: {dice}, total {total}", { dice: faces.join(and), total }) : t("dice: {dice}", { dice: faces.join(and) }),
      }, dice, total ? el("small", {}, ` = ${total}`) : null) : null,
      // a Tuna Boat roll (Harbor): its own two dice, rolled once for every Tuna Boat of the step
      marks.tuna ? el("span", {
        class: "mk-tuna tt-rolled" + (fol.fresh ? " tt-fresh" : ""), "data-dice": marks.tuna.dice.join(","),
        title: t("{name} rolled {dice} for the Tuna Boats: each pays that total", { name: T.seatLabel(ctx.seats, marks.tuna.seat), dice: marks.tuna.dice.join(and) }),
        role: "img", "aria-label": t("Tuna Boat dice: {dice}, total {total}", { dice: marks.tuna.dice.join(and), total: marks.tuna.total }),
      }, el("small", {}, name("tuna") + " "), marks.tuna.dice.map((d) => DIE[d] || String(d)).join(" "), el("small", {}, ` = ${marks.tuna.total}`)) : null));

    // simple decisions as big buttons
    const buttons = SIMPLE_MOVES.filter((k) => legal.has(k));
    if (buttons.length && act) {
      parts.push(el("div", { class: "mk-actions" }, buttons.map((k) =>
        el("button", { class: "primary", type: "button", "data-move": k, onclick: () => act(k) }, simple(k)))));
    }

    // Business Center: click the opponent's card you want, then the card of yours you give for it
    const swapping = act && [...legal].some((m) => m.startsWith("swap "));
    if (!swapping) swapTheirs = null;
    if (swapping) {
      parts.push(el("p", { class: "hint mk-swap-hint", role: "status" }, swapTheirs ?
        t("Take {theirs} for one of your cards: click the card you give (or click theirs again to choose another).", { theirs: whose(ctx.seats, swapTheirs.seat, me, name(swapTheirs.id)) }) :
        t("{card}: click an opponent's card you want, then one of yours to give for it — or “{noswap}”.", { card: name("office"), noswap: simple("noswap") })));
    }

    // the cities
    const cities = el("div", { class: "mk-cities" });
    st.players.forEach((p, seat) => {
      const tv = `tv ${seat}`;
      const acting = fol.step && fol.step.seat === seat;
      const city = el("section", { class: "mk-city" + (seat === st.current ? " current" : "") + (seat === me ? " mine" : "") + (acting ? " tt-acting" : ""), "data-seat": seat },
        el("h3", {}, T.seatLabel(ctx.seats, seat), el("span", { class: "mk-coins coin", title: t("coins") }, String(p.coins)),
          (marks.deltas[seat] || []).map((d) => deltaChip(d, ctx.seats, seat, me, fol.fresh)),
          act && legal.has(tv) ? el("button", { class: "small", type: "button", "data-move": tv, onclick: () => act(tv) }, t("Take coins ({card})", { card: name("tv") })) : null));
      const last = (fol.last || {})[seat];
      if (last) city.append(el("p", { class: "tt-last-turn", "data-seat": seat }, el("strong", {}, t("Last turn: ")), last));
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
            label = t("Choose {theirs} to take", { theirs: whose(ctx.seats, seat, me, name(id)) });
            onclick = () => { swapTheirs = selected ? null : { seat, id }; render(container, payload, ctx); };
          } else if (seat === me && swapTheirs && legal.has(`swap ${id} ${swapTheirs.seat} ${swapTheirs.id}`)) {
            playable = true;
            label = t("Give your {mine} for {theirs}", { mine: name(id), theirs: whose(ctx.seats, swapTheirs.seat, me, name(swapTheirs.id)) });
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
    parts.push(el("h3", {}, t("Market"), st.market_deck_sizes && st.market_deck_sizes.length ? el("small", {}, t(" (deck: {sizes})", { sizes: st.market_deck_sizes.join(" / ") })) : null));
    parts.push(el("div", { class: "mk-row mk-market" }, market.map(([id, count]) => {
      const move = `build ${id}`;
      const playable = !!act && legal.has(move);
      return card(cards[id] || { id }, { where: "market", count, playable, dim: pending.decision === "build" && !playable && pending.seat === me, onclick: () => act(move) });
    })));
    container.replaceChildren(...parts);
  }

  const board = { render, outcome, describeMove, follow, reset() { swapTheirs = null; } };
  // (read when the page shows it: the words are the page's)
  Object.defineProperty(board, "boardMovesHint", { enumerable: true,
    get: () => { if (!words) words = T.config("board-words") || {}; return t("{card}: click an opponent’s card on the board, then one of yours.", { card: name("office") }); } });
  T.registerBoard("machikoro", board);
})();
