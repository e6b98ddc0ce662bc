// Lords of Vegas, a part of board.js: offers and legal moves in words (the move list beside the
// board), and the trade dialog that composes an offer's notation (money, lots, dice, promises).
// board.js loads after this script and calls the function registered here with what it needs of it
// (Tabletown.boardPart / boardParts; docs/server.md "A game's own board").
"use strict";
Tabletown.boardPart("lordsofvegas", "trade", (shared) => {
  const T = window.Tabletown;
  const { el } = T;
  const t = T.t;
  const { PROMISE, canOffer, cname, mem, seatName, up, words } = shared;
  const ACT_KINDS = ["build", "sprawl", "remodel", "reorg", "gamble"];

  function itemsOfOffer(text) {
    return text.split(" ").slice(1).map((word) => {
      const m = /^(\d+)>(\d+):(.*)$/.exec(word);
      if (!m) return null;
      const [giver, receiver, thing] = [Number(m[1]), Number(m[2]), m[3]];
      if (thing.startsWith("$")) return { giver, receiver, kind: "$", value: Number(thing.slice(1)) };
      if (thing.startsWith("die-")) return { giver, receiver, kind: "die", value: thing.slice(4) };
      if (thing.startsWith("no-")) { const [k, lot] = thing.slice(3).split("-"); return { giver, receiver, kind: "no-" + k, value: lot || null }; }
      return { giver, receiver, kind: "lot", value: thing };
    }).filter(Boolean);
  }

  function describeItems(items, ctx) {
    return items.map((it) => {
      const who = seatName(ctx, it.giver), to = seatName(ctx, it.receiver);
      if (it.kind === "$") return `${who} → ${to}: $${it.value}`;
      if (it.kind === "lot") return t("{who} → {to}: lot {lot}", { who, to, lot: up(it.value) });
      if (it.kind === "die") return t("{who} → {to}: the die on {lot}", { who, to, lot: up(it.value) });
      const fields = { who, action: PROMISE[it.kind.slice(3)] || it.kind.slice(3), lot: up(it.value) };
      if (it.giver === ctx.seat) return it.value ? t("You will not {action} at {lot} this turn", fields) : t("You will not {action} this turn", fields);
      return it.value ? t("{who} will not {action} at {lot} this turn", fields) : t("{who} will not {action} this turn", fields);
    });
  }

  // -- a legal move in words (the move list beside the board; the notation stays in records and the API) --
  function describeMove(text, payload, ctx) {
    words();
    const [verb, a, b] = text.split(" ");
    const lot = (id) => { const l = shared.LOT[id]; return l ? `${up(id)} ($${l.cost})` : up(id); };
    const st = (payload && payload.state) || {};
    const simple = {
      end: t("End the turn"), layoff: t("Lay off half the bet to the bank"), nolayoff: t("Cover the whole bet"),
      accept: t("Accept the offer"), refuse: t("Refuse the offer"), pass: t("Make no offer"),
    };
    if (Object.prototype.hasOwnProperty.call(simple, verb)) return simple[verb];
    if (verb === "build") return { words: t("Build a {colour} casino on {lot}", { colour: cname(b), lot: lot(a) }), group: t("Build a casino") };
    if (verb === "sprawl") return { words: t("Sprawl a {colour} casino onto {lot}", { colour: cname(b), lot: lot(a) }), group: t("Sprawl") };
    if (verb === "remodel") return { words: t("Remodel the casino at {lot} to {colour}", { lot: up(a), colour: cname(b) }), group: t("Remodel") };
    if (verb === "reorg") return { words: t("Reorganize the casino at {lot}", { lot: up(a) }), group: t("Reorganize") };
    if (verb === "gamble") return { words: t("Bet ${bet} at the casino on {lot}", { bet: b, lot: up(a) }), group: t("Gamble") };
    if (verb === "put") return t("Put the re-rolled die on {lot}", { lot: up(a) });
    if (verb === "take") return st.phase === "pick_die" ? t("Move your die from {lot}", { lot: up(a) }) : t("Take {lot}", { lot: up(a) });
    if (verb === "free") return t("Free the lot {lot}", { lot: up(a) });
    if (verb === "offer") {
      const items = text.split(" ").slice(1).map((part) => {
        const m = /^(\d+)>(\d+):(.*)$/.exec(part);
        if (!m) return null;
        const giver = Number(m[1]), receiver = Number(m[2]), what = m[3];
        if (what.startsWith("$")) return { giver, receiver, kind: "$", value: Number(what.slice(1)) };
        if (what.startsWith("die-")) return { giver, receiver, kind: "die", value: what.slice(4) };
        if (what.startsWith("no-")) { const [, k, at] = what.split("-"); return { giver, receiver, kind: "no_" + k, value: at || null }; }
        return { giver, receiver, kind: "lot", value: what };
      });
      if (items.some((i) => i === null)) return { words: t("Offer a trade"), group: t("Offer a trade") };
      return { words: t("Offer: {items}", { items: describeItems(items, ctx).join("; ") }), group: t("Offer a trade") };
    }
    return text;
  }

  // -- the trade dialog ------------------------------------------------------------------------------------
  function newDraft(payload, ctx, partner) {
    const others = payload.state.players.map((p) => p.seat).filter((s) => s !== ctx.seat);
    return { partner: partner !== undefined && partner !== null ? partner : others[0],
      give: { money: 0, lots: new Set(), dice: new Set(), promises: new Set() }, ask: { money: 0, lots: new Set(), dice: new Set() } };
  }

  function openTrade(payload, ctx, partner, items, draft) {
    const d = draft || newDraft(payload, ctx, partner);
    if (items) { // a counter starts from the offer received, sides kept
      for (const it of items) {
        const side = it.giver === ctx.seat ? d.give : it.receiver === ctx.seat ? d.ask : null;
        if (!side) continue;
        if (it.kind === "$") side.money = it.value;
        else if (it.kind === "lot") side.lots.add(it.value);
        else if (it.kind === "die") side.dice.add(it.value);
      }
    }
    mem.trade = d;
    mem.tradeOpen = true;
    drawDialog();
  }

  function offerText(d, me) {
    const p = d.partner;
    const items = [];
    if (d.give.money > 0) items.push(`${me}>${p}:$${d.give.money}`);
    d.give.lots.forEach((l) => items.push(`${me}>${p}:${l}`));
    d.give.dice.forEach((l) => items.push(`${me}>${p}:die-${l}`));
    d.give.promises.forEach((k) => items.push(`${me}>${p}:${k}`));
    if (d.ask.money > 0) items.push(`${p}>${me}:$${d.ask.money}`);
    d.ask.lots.forEach((l) => items.push(`${p}>${me}:${l}`));
    d.ask.dice.forEach((l) => items.push(`${p}>${me}:die-${l}`));
    return items.length ? "offer " + items.join(" ") : "";
  }

  function drawDialog() {
    const host = mem.dialog;
    const payload = mem.lastPayload, ctx = mem.lastCtx;
    if (!host) return;
    if (!mem.tradeOpen || !payload || !ctx || !ctx.act || !canOffer(payload, ctx)) { host.replaceChildren(); host.hidden = true; mem.tradeOpen = false; return; }
    host.hidden = false;
    const st = payload.state, me = ctx.seat, d = mem.trade;
    const players = st.players;
    const myMoney = players[me].money, theirMoney = players[d.partner].money;
    const lotsOf = (s) => st.board.filter((b) => b.marker === s).map((b) => b.lot);
    const diceOf = (s) => st.board.filter((b) => b.owner === s && b.tile).map((b) => b.lot);
    const text = offerText(d, me);
    const preview = el("code", { id: "lv-offer-text" }, text || t("(pick something to give or ask)"));
    const refresh = () => { drawDialog(); };
    const money = (side, max, id) => el("label", { class: "lv-moneyin" }, t("Money $"),
      el("input", { type: "number", min: 0, max, step: 1, value: side.money || 0, id, inputmode: "numeric",
        onchange: (e) => { side.money = Math.max(0, Math.min(max, Math.floor(Number(e.target.value) || 0))); refresh(); } }),
      el("small", { class: "hint" }, t(" of ${max}", { max })));
    const checks = (set, list, label, prefix) => list.length ? el("div", { class: "lv-picks" }, el("span", { class: "lv-label" }, label),
      list.map((lot) => el("label", { class: "lv-pick" + (set.has(lot) ? " on" : "") },
        el("input", { type: "checkbox", checked: set.has(lot), "data-item": prefix + lot, onchange: (e) => { if (e.target.checked) set.add(lot); else set.delete(lot); refresh(); } }),
        ` ${up(lot)}`, el("small", {}, prefix === "lot:" ? ` $${shared.LOT[lot].cost}` : ` ${(st.board.find((b) => b.lot === lot) || {}).die}`)))) : null;
    const activeMe = st.active === me && (st.phase === "action" || (st.phase === "offer" && st.offer && st.offer.waiting_for.includes(me) && st.active === me));
    const promiseOpts = [];
    if (activeMe) {
      for (const k of shared.W.promises || ACT_KINDS) {
        promiseOpts.push("no-" + k);
      }
      const first = mem.selected && (st.casinos || []).find((c) => c.lots.includes(mem.selected));
      if (first) ["reorg", "remodel", "gamble", "sprawl"].forEach((k) => promiseOpts.push(`no-${k}-${first.lots[0]}`));
    }
    const promises = promiseOpts.length ? el("div", { class: "lv-picks" }, el("span", { class: "lv-label" }, t("Promise this turn")),
      promiseOpts.map((k) => { const [, kind, lot] = k.split("-");
        return el("label", { class: "lv-pick" + (d.give.promises.has(k) ? " on" : "") },
          el("input", { type: "checkbox", checked: d.give.promises.has(k), "data-item": k, onchange: (e) => { if (e.target.checked) d.give.promises.add(k); else d.give.promises.delete(k); refresh(); } }),
          " " + (lot ? t("no {action} at {lot}", { action: PROMISE[kind], lot: up(lot) }) : t("no {action}", { action: PROMISE[kind] }))); })) : null;
    const partnerSelect = el("select", { id: "lv-partner", onchange: (e) => { mem.trade = newDraft(payload, ctx, Number(e.target.value)); refresh(); } },
      players.filter((p) => p.seat !== me).map((p) => el("option", { value: p.seat, selected: p.seat === d.partner }, seatName(ctx, p.seat))));
    const suggested = (ctx.legal || []).filter((move) => move.startsWith("offer "));
    const send = el("button", { class: "primary", type: "button", id: "lv-offer-send", disabled: !text, onclick: async () => {
      await ctx.act(text);
      const err = document.getElementById("move-error");
      if (!err || !err.textContent) { mem.tradeOpen = false; drawDialog(); }
    } }, t("Send offer"));
    host.replaceChildren(el("div", { class: "lv-dialog", role: "dialog", "aria-label": t("trade") },
      el("h3", {}, t("Trade with "), partnerSelect, el("button", { class: "small lv-close", type: "button", onclick: () => { mem.tradeOpen = false; drawDialog(); } }, "×")),
      el("div", { class: "lv-sides" },
        el("fieldset", { class: "lv-side" }, el("legend", {}, t("You give")), money(d.give, myMoney, "lv-give-money"),
          checks(d.give.lots, lotsOf(me), t("Lots"), "lot:"), checks(d.give.dice, diceOf(me), t("Dice"), "die:"), promises),
        el("fieldset", { class: "lv-side" }, el("legend", {}, t("You ask of {name}", { name: seatName(ctx, d.partner) })), money(d.ask, theirMoney, "lv-ask-money"),
          checks(d.ask.lots, lotsOf(d.partner), t("Lots"), "lot:"), checks(d.ask.dice, diceOf(d.partner), t("Dice"), "die:"))),
      el("div", { class: "lv-dialogfoot" },
        el("p", { class: "lv-notation" }, t("Notation: "), preview),
        text ? el("ul", { class: "lv-offerwords" }, describeItems(itemsOfOffer(text), ctx).map((item) => el("li", {}, item))) : null,
        el("div", { class: "lv-buttons" }, send, el("button", { type: "button", onclick: () => { mem.tradeOpen = false; drawDialog(); } }, t("Cancel")))),
      suggested.length ? el("div", { class: "lv-suggested" }, el("span", { class: "lv-label" }, t("Ready-made offers")),
        suggested.map((move) => el("button", { type: "button", class: "small", "data-move": move, onclick: () => { mem.tradeOpen = false; drawDialog(); ctx.act(move); } },
          describeItems(itemsOfOffer(move), ctx).join("; ")))) : null,
      el("p", { class: "hint" }, t("Every giver must accept; one refusal cancels the offer. The other side may counter with an offer of its own."))));
  }

  return { describeItems, describeMove, drawDialog, itemsOfOffer, newDraft, openTrade };
});
