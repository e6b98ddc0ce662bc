// Lords of Vegas, a part of board.js: following a turn (table.js "following"): when a turn and each
// of its steps start, the position before later steps (rewind), the step's dice, money, points and
// lots on the board, and a seat's turn in words. board.js loads after this script and calls the
// function registered here with what it needs of it (Tabletown.boardPart / boardParts; docs/server.md
// "A game's own board").
"use strict";
Tabletown.boardPart("lordsofvegas", "follow", (shared) => {
  const T = window.Tabletown;
  const { el } = T;
  const t = T.t;
  const { SEAT, SEAT_PIP, cname, dieFace, seatName, svg, up, words } = shared;

  // -- following a turn (table.js "following"): the step on the board as dice rolled, money and points at
  // the players it touches (+$N / −$N, +N pts), the lots it touched outlined; each seat's last turn in words.
  const STEP_KINDS = new Set(["build", "sprawl", "remodel", "reorg", "gamble", "offer", "counter", "accept", "refuse",
    "end_turn", "pass", "put", "free_lot", "move_die"]);
  const DRAWS = new Set(["draw", "draw_unused", "draw_game_end"]);
  const follow = {
    // a turn starts with its draw (an F card drawn again in a 2-player game is the same turn)
    turn(e, prev) { return DRAWS.has(e.kind) && !(prev && prev.kind === "draw_unused") ? e.seat : null; },
    // each move of its own (a bet is rolled in the move that made it unless the boss was asked to lay off)
    step(e, prev) { return STEP_KINDS.has(e.kind) || (e.kind === "gamble_roll" && !(prev && prev.kind === "gamble")); },
    // a turn's draw comes with the previous player's end of turn: the seat's own moves are its steps
    move(e, prev) { return follow.step(e, prev); },
    summary,
    rewind,
  };
  // The position before `later` (the events after the step shown, in one payload with it): money, points,
  // markers, tiles, dice, cards and trades undone, the casinos grouped again, so a bot's turn pushed at
  // once is shown move by move. A reorganized casino's dice keep their new faces (the old ones are not in
  // the events: only the boss's dice may look re-rolled a step early); an event whose undoing is not known
  // (a lot freed, a die moved) throws: table.js then shows the payload's own position, as before.
  const UNKNOWN = new Set(["free_lot", "move_die", "must_free_lot", "must_move_die", "dealt"]);
  // An expected "cannot undo this": table.js shows the payload's own position without logging an error.
  const cannot = (why) => Object.assign(new Error(why), { name: "CannotRewind" });
  function rewind(state, later, step) {
    words();
    const st = JSON.parse(JSON.stringify(state));
    const players = Object.fromEntries((st.players || []).map((p) => [p.seat, p]));
    const lots = Object.fromEntries((st.board || []).map((b) => [b.lot, b]));
    const money = (seat, n) => { if (players[seat] && n) players[seat].money += n; };
    const cleared = (lot) => { const b = lots[lot]; if (!b) throw cannot("no lot " + lot); Object.keys(b).forEach((k) => { if (k !== "lot") delete b[k]; }); return b; };
    let before = step.events[step.events.length - 1] || null;
    for (const e of later) {
      if (follow.turn(e, before) !== null) st.turn -= 1; // a turn that starts later
      before = e;
    }
    const list = [...later];
    for (let k = list.length - 1; k >= 0; k--) {
      const e = list[k], kind = e.kind;
      if (UNKNOWN.has(kind)) throw cannot("cannot undo " + kind);
      if (kind === "lots_pay" || kind === "casino_pays") (e.amounts || []).forEach((a, seat) => money(seat, -a));
      else if (kind === "score") players[e.seat].score = e.from;
      else if (kind === "build" || kind === "sprawl") {
        money(e.seat, e.cost);
        const b = cleared(e.lot);
        if (kind === "build") { b.marker = e.seat; players[e.seat].markers_left -= 1; }
        players[e.seat].dice_left += 1;
        st.tiles_left[e.color] += 1;
      } else if (kind === "remodel") {
        money(e.seat, e.cost);
        // (its tiles, as long as it merged with no casino of the new colour: which lots were which is lost)
        const casino = (state.casinos || []).find((c) => c.lots.includes(e.casino));
        if (!casino || casino.size !== e.size) throw cannot("a remodel merged with another casino");
        casino.lots.forEach((l) => { lots[l].tile = e.from_color; });
        st.tiles_left[e.to_color] += e.size; st.tiles_left[e.from_color] -= e.size;
      } else if (kind === "gamble_roll") {
        if (e.won) { money(e.seat, -e.stake); money(e.boss, e.boss_pays); } else { money(e.seat, e.bet); money(e.boss, -e.boss_gets); }
      } else if (kind === "marker") { cleared(e.lot); players[e.seat].markers_left += 1; }
      else if (kind === "take_over") { // (the die keeps its value: the printed one when the lot had none)
        const b = lots[e.lot];
        players[e.seat].dice_left += 1;
        if (e.from_seat !== null && e.from_seat !== undefined && e.from_seat >= 0) { b.owner = e.from_seat; players[e.from_seat].dice_left -= 1; }
        else { delete b.owner; delete b.die; }
      } else if (kind === "tie_reroll") (e.dice || []).forEach((d) => { if (lots[d.lot]) lots[d.lot].die = e.value; }); // the tied value
      else if (kind === "reorg") money(e.seat, e.cost);
      else if (kind === "put" && !list.slice(0, k).some((x) => x.kind === "reorg")) throw cannot("a die put without its reorganization");
      else if (kind === "draw" || kind === "draw_unused") {
        st.deck_size += 1;
        if (st.cards_left && e.pays in st.cards_left) st.cards_left[e.pays] += 1;
        if (!(st.undrawn_lots || []).includes(e.lot)) st.undrawn_lots = [...(st.undrawn_lots || []), e.lot];
        if (st.cards_before_game_end !== null && st.cards_before_game_end !== undefined) st.cards_before_game_end += 1;
      } else if (kind === "draw_game_end") { // (the Game End card pays the Strip)
        st.deck_size += 1; st.cards_before_game_end = 0;
        if (st.cards_left && "strip" in st.cards_left) st.cards_left.strip += 1;
      }
      else if (kind === "trade_done") {
        const offer = list.slice(0, k).reverse().find((x) => x.kind === "offer");
        if (!offer) throw cannot("a trade without its offer");
        for (const it of offer.items) {
          if (it.kind === "$") { money(it.giver, it.value); money(it.receiver, -it.value); }
          else if (it.kind === "lot" && lots[it.value]) lots[it.value].marker = it.giver;
          else if (it.kind === "die" && lots[it.value]) lots[it.value].owner = it.giver;
        }
      }
    }
    st.casinos = regroup(st, state);
    if (step.seat !== null && step.seat !== undefined) st.active = step.seat;
    Object.assign(st, { phase: "action", offer: null, gamble: null, placing: [], decision: null, market: [], gambled: false, promised: [] });
    return st;
  }
  // the casinos of a board: tiles of one colour touching each other, their boss the highest die (a tie kept
  // as the position after had it). A second copy, on the page, of the engine's grouping
  // (games/lordsofvegas/board.py Board.casinos) kept on purpose for now: it only redraws a position
  // the server already sent a move later, and tests/web/test_browser_follow.py holds it to the
  // engine's positions. The way out is the server sending each intermediate position itself.
  function regroup(st, after) {
    const lots = Object.fromEntries(st.board.map((b) => [b.lot, b]));
    const order = (shared.W.lots || []).map((l) => l.id);
    const seen = new Set(), out = [];
    for (const id of order) {
      const b = lots[id];
      if (!b || !b.tile || seen.has(id)) continue;
      const group = [], todo = [id];
      seen.add(id);
      while (todo.length) {
        const at = todo.pop();
        group.push(at);
        for (const nb of (shared.LOT[at] || {}).neighbors || []) {
          if (!seen.has(nb) && lots[nb] && lots[nb].tile === b.tile) { seen.add(nb); todo.push(nb); }
        }
      }
      group.sort((x, y) => order.indexOf(x) - order.indexOf(y));
      const dice = group.filter((l) => lots[l].owner !== undefined && lots[l].owner !== null);
      const top = Math.max(0, ...dice.map((l) => lots[l].die || 0));
      const tied = [...new Set(dice.filter((l) => (lots[l].die || 0) === top).map((l) => lots[l].owner))];
      const was = (after.casinos || []).find((c) => c.lots.includes(group[0]));
      const boss = !tied.length ? null : was && tied.includes(was.boss) ? was.boss : tied[0];
      group.forEach((l) => { lots[l].casino = group[0]; });
      out.push({ lots: group, color: b.tile, size: group.length, boss, strip: group.some((l) => shared.LOT[l] && shared.LOT[l].strip) });
    }
    return out;
  }
  function stepMarks(step) {
    const marks = { dice: [], money: {}, points: {}, lots: new Set() };
    if (!step) return marks;
    const pay = (seat, amount) => { if (amount && seat !== null && seat !== undefined) marks.money[seat] = (marks.money[seat] || 0) + amount; };
    for (const e of step.events) {
      const k = e.kind;
      if (k === "lots_pay" || k === "casino_pays") (e.amounts || []).forEach((a, seat) => pay(seat, a));
      else if (k === "score") marks.points[e.seat] = (marks.points[e.seat] || 0) + (e.to - e.from);
      else if (k === "build" || k === "sprawl") { pay(e.seat, -e.cost); marks.lots.add(e.lot); }
      else if (k === "remodel" || k === "reorg") {
        pay(e.seat, -e.cost); marks.lots.add(e.casino);
        if (k === "reorg") (e.rolls || []).forEach((r) => r.values.forEach((v) => marks.dice.push({ seat: r.seat, value: v })));
      }
      else if (k === "gamble") marks.lots.add(e.casino);
      else if (k === "gamble_roll") {
        e.dice.forEach((v) => marks.dice.push({ seat: e.seat, value: v }));
        if (e.won) { pay(e.seat, e.stake); pay(e.boss, -e.boss_pays); } else { pay(e.seat, -e.bet); pay(e.boss, e.boss_gets); }
      }
      else if (k === "tie_reroll") (e.dice || []).forEach((d) => { marks.dice.push({ seat: d.seat, value: d.value }); marks.lots.add(d.lot); });
      else if (k === "draw" || k === "draw_unused" || k === "marker" || k === "take_over" || k === "put" || k === "must_free_lot" || k === "must_move_die") { if (e.lot) marks.lots.add(e.lot); }
      else if (k === "free_lot") { marks.lots.add(e.lot); marks.lots.add(e.target); }
      else if (k === "move_die") marks.lots.add(e.to_lot);
    }
    return marks;
  }
  function summary(list, seat, ctx) {
    const said = [];
    let money = 0, points = 0;
    for (const e of list) {
      const mine = e.seat === seat;
      if ((e.kind === "lots_pay" || e.kind === "casino_pays") && e.amounts) money += e.amounts[seat] || 0;
      else if (e.kind === "score" && mine) points += e.to - e.from;
    }
    for (const e of list) {
      if (e.seat !== seat && e.kind !== "trade_done") continue;
      const k = e.kind;
      if (k === "draw") said.push(t("drew {lot}", { lot: up(e.lot) }));
      else if (k === "draw_game_end") said.push(t("drew Game End"));
      else if (k === "marker") said.push(t("put a marker on {lot}", { lot: up(e.lot) }));
      else if (k === "take_over") said.push(t("took over {lot}", { lot: up(e.lot) }));
      else if (k === "build") said.push(t("built a {colour} casino on {lot} (${cost})", { colour: cname(e.color), lot: up(e.lot), cost: e.cost }));
      else if (k === "sprawl") said.push(t("sprawled {colour} onto {lot} (${cost})", { colour: cname(e.color), lot: up(e.lot), cost: e.cost }));
      else if (k === "remodel") said.push(t("remodelled {lot} to {colour} (${cost})", { lot: up(e.casino), colour: cname(e.to_color), cost: e.cost }));
      else if (k === "reorg") said.push(t("reorganized {lot} (${cost})", { lot: up(e.casino), cost: e.cost }));
      else if (k === "gamble_roll") {
        const fields = { bet: e.bet, boss: T.seatLabel(ctx.seats, e.boss), dice: e.dice.join("+"), stake: e.stake };
        if (e.boss === ctx.seat) said.push(e.won ? t("bet ${bet} at your casino, rolled {dice} and won ${stake}", fields) : t("bet ${bet} at your casino, rolled {dice} and lost", fields));
        else said.push(e.won ? t("bet ${bet} at {boss}'s casino, rolled {dice} and won ${stake}", fields) : t("bet ${bet} at {boss}'s casino, rolled {dice} and lost", fields));
      }
      else if (k === "offer") said.push(t("offered a trade"));
      else if (k === "trade_done") said.push(t("traded"));
      else if (k === "move_die") said.push(t("moved a die to {lot}", { lot: up(e.to_lot) }));
    }
    if (money) said.splice(Math.min(1, said.length), 0, t("collected ${money}", { money }));
    if (points) said.push(points === 1 ? t("scored {count} point", { count: points }) : t("scored {count} points", { count: points }));
    if (!said.length) return "";
    const text = said.join(", ") + ".";
    return text.charAt(0).toUpperCase() + text.slice(1);
  }
  function followRow(payload, ctx, marks) {
    const step = ctx.follow && ctx.follow.step;
    if (!step || !marks.dice.length) return null;
    const fresh = ctx.follow.fresh ? " tt-fresh" : "";
    const faces = marks.dice.map((d) => {
      const box = svg("svg", { viewBox: "0 0 40 40", width: 34, height: 34, class: "lv-follow-die", "aria-hidden": "true" });
      box.append(dieFace(2, 2, 36, d.value, SEAT[d.seat % 4], SEAT_PIP[d.seat % 4]));
      return box;
    });
    const values = marks.dice.map((d) => d.value);
    const and = t(" and ");
    return el("div", { class: "lv-follow" },
      el("span", {}, step.seat === ctx.seat ? t("You rolled") : t("{name} rolled", { name: seatName(ctx, step.seat) })),
      el("span", { class: "lv-follow-dice tt-rolled" + fresh, "data-dice": values.join(","), role: "img", "aria-label": t("dice: {values}", { values: values.join(and) }) }, faces));
  }

  return { follow, followRow, stepMarks };
});
