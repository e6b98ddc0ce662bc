// Welcome To New Las Vegas, a part of board.js: the panels around the sheet (the round's cards, the
// decision at hand, scores, projects, the players, ACME, the final table). board.js loads after this
// script and calls the function registered here with what the panels need of it (Tabletown.boardPart /
// boardParts; docs/server.md "A game's own board").
"use strict";
Tabletown.boardPart("newlasvegas", "panels", (shared) => {
  const T = window.Tabletown;
  const { el } = T;
  const t = T.t;
  const { DIR_WORD, EFFECT_HELP, EFFECT_SHORT, UP_LABEL, acmeCounts, ask, choose, counted, roundSummary, slotWords, store, undo } = shared;
  const COLUMNS = ["projects", "opening", "shows", "hotels", "streets", "golf", "limousine", "vault"];
  // the score sheet's columns by their printed names (the ids stay in data-col)
  const column = (c) => ({
    projects: t("projects"), opening: t("opening"), shows: t("shows"), hotels: t("hotels"), streets: t("streets"),
    golf: t("golf"), limousine: t("limousine"), vault: t("vault"),
  })[c] || c;
  // ACME's architect card columns (board words: the ids, which are the English names)
  const acmeColumn = (c) => {
    const effects = shared.W.effects || {};
    return ({ opening: effects.op, show: effects.show, hotel: t("hotel"), street: t("street"), golf: t("golf"), limousine: effects.limo })[c] || c;
  };
  // an approval card's colour (the id) by its printed name
  const approvalColour = (c) => ({ pink: t("pink"), purple: t("purple"), yellow: t("yellow") })[c] || c;

  function card(st, k, info, opts) {
    const classes = ["nlv-card", "eff-" + info.effect];
    if (opts.playable) classes.push("playable", "nlv-click");
    if (opts.role) classes.push("role-" + opts.role);
    return el("button", { type: "button", class: classes.join(" "), disabled: !opts.playable, "data-card": opts.id, onclick: opts.onclick, title: EFFECT_HELP[info.effect] },
      el("span", { class: "nlv-card-id" }, opts.label),
      el("span", { class: "nlv-card-num" }, String(info.number)),
      el("span", { class: "nlv-card-eff" }, EFFECT_SHORT[info.effect] || info.effect),
      opts.foot ? el("span", { class: "nlv-card-foot" }, opts.foot) : null);
  }

  function cardsRow(st, d, pickCtx) {
    // The round's cards: multiplayer combinations a/b/c, solo the three cards (number + effect each).
    const row = el("div", { class: "nlv-cards" });
    if (st.hand) {
      const pc = pickCtx || {};
      st.hand.forEach((info, k) => {
        let role = null;
        if (pc.numberCard === k) role = "number";
        if (pc.chosen && pc.chosen.number !== undefined && pc.chosen.number >= 0) {
          role = k === pc.chosen.number ? "number" : k === pc.chosen.effect ? "effect" : "acme";
        }
        const playable = pc.playableCard ? pc.playableCard(k) : false;
        row.append(card(st, k, info, {
          id: String(k + 1), label: t("card {number}", { number: k + 1 }), playable, role,
          foot: role === "number" && pc.chosen ? t("its number") : role === "effect" ? t("its effect") : role === "acme" ? "→ ACME" : pc.numberCard === k ? t("number ✓") : pc.numberCard !== null && pc.numberCard !== undefined && playable ? t("take its effect") : pc.hint ? pc.hint(k) : null,
          onclick: playable ? () => pc.click(k) : null,
        }));
      });
      const top = st.acme && st.acme.deck_top;
      row.append(el("div", { class: "nlv-deck", title: t("the solo deck lies effect side up") },
        el("span", { class: "nlv-sub" }, t("deck")), el("strong", {}, String(st.acme.deck_size)),
        el("span", { class: "nlv-sub" }, top ? (top.startsWith("approval_") ? t("approval ({colour}) on top", { colour: approvalColour(top.slice(9)) }) : t("{effect} on top", { effect: EFFECT_SHORT[top] })) : t("empty"))));
    } else {
      st.combinations.forEach((info, k) => {
        const pc = pickCtx || {};
        const playable = pc.playableCard ? pc.playableCard(k) : false;
        const role = pc.chosen && pc.chosen.number === k ? "number" : null;
        row.append(card(st, k, info, {
          id: "abc"[k], label: "abc"[k], playable, role, foot: role ? t("chosen") : t("{count} left", { count: st.pile_sizes[k] }),
          onclick: playable ? () => pc.click(k) : null,
        }));
      });
    }
    return row;
  }

  function decisionPanel(st, payload, ctx, d, options, legal, acting, rerender, seats) {
    const box = el("section", { class: "nlv-decision" + (acting ? " acting" : "") });
    const send = async (text) => {
      store.sending = true;
      rerender();
      try { await ctx.act(text); } finally { store.sending = false; rerender(); }
    };
    if (!acting) {
      const me = ctx.seat;
      const entry = st.players[me];
      if (st.phase === "over") return el("span");
      const waiting = (payload.to_act || []).map((q) => T.seatLabel(seats, q)).join(", ");
      if (entry && entry.turn && entry.turn.step === "done") {
        box.append(el("p", { class: "nlv-locked" }, el("strong", {}, t("Your round is locked in. ")),
          entry.turn.steps.map((x) => stepWords(x)).join("; ") + ". ",
          waiting ? t("Still choosing: {names}.", { names: waiting }) : ""));
      } else {
        box.append(el("p", { class: "hint" }, waiting ? t("Waiting for {names}.", { names: waiting }) : t("Nothing to do now.")));
      }
      return box;
    }
    if (st.phase === "loan") {
      box.append(el("p", {}, el("strong", {}, t("The bank loan (secret): ")),
        t("at the end the bank gives everyone {majority} bundles if more than half took the loan, {minority} if at least one did; nobody sees your answer until the end.",
          { majority: shared.W.bank.majority, minority: shared.W.bank.minority })));
      box.append(el("div", { class: "nlv-actions" },
        legal.has("loan") ? el("button", { class: "primary nlv-click", type: "button", "data-step": "loan", onclick: () => send("loan") }, t("Take the loan")) : null,
        legal.has("noloan") ? el("button", { class: "nlv-click", type: "button", "data-step": "noloan", onclick: () => send("noloan") }, t("No loan")) : null));
      return box;
    }
    if (st.phase === "reshuffle") {
      box.append(el("p", {}, el("strong", {}, t("You completed the first project. ")), t("Reshuffle all 81 cards into three new piles? (secret vote; they are reshuffled if anyone asks)")));
      box.append(el("div", { class: "nlv-actions" },
        el("button", { class: "primary nlv-click", type: "button", "data-step": "shuffle", onclick: () => send("shuffle") }, t("Reshuffle")),
        el("button", { class: "nlv-click", type: "button", "data-step": "keep", onclick: () => send("keep") }, t("Keep the piles"))));
      return box;
    }
    if (!d) return box;
    if (d.error) box.append(el("p", { class: "nlv-warn", role: "alert" }, d.error));
    if (!d.options) {
      box.append(d.error ? el("button", { type: "button", class: "small", onclick: () => ask(d, ctx.seat, ctx) }, t("Try again"))
        : el("p", { class: "hint nlv-waiting" }, "…"));
      return box;
    }
    if (d.waiting) box.append(el("p", { class: "hint nlv-waiting" }, "…"));
    const stage = d.turn.stage;
    const choose_ = (o) => choose(st, d, o, rerender);
    const sh = d.sh;
    const prompt = el("p", { class: "nlv-prompt" });
    const extra = el("div", { class: "nlv-actions" });
    if (stage === "pick") {
      const groups = sh.ready;
      const picks = options.filter((o) => o.kind === "pick");
      const bonus = store.bonus && picks.some((o) => o.bonus === store.bonus) ? store.bonus : "";
      if (groups.length) {
        extra.append(el("span", { class: "nlv-sub" }, t("Bonus (spends opening group {group}): ", { group: groups[0] + 1 })),
          ...["", "e", "f", "x"].map((b) => el("button", {
            type: "button", class: "chip" + (bonus === b ? " on" : ""), "data-bonus": b || "none",
            disabled: b && !picks.some((o) => o.bonus === b), onclick: () => { store.bonus = b; store.soloNumber = null; rerender(); },
          }, b ? shared.W.bonuses[b] : t("no bonus"))));
      }
      let pc;
      if (st.hand) {
        const numberCard = store.soloNumber;
        pc = {
          numberCard,
          playableCard: (k) => (numberCard === null ? picks.some((o) => o.i === k && o.bonus === bonus) : k === numberCard || picks.some((o) => o.i === numberCard && o.j === k && o.bonus === bonus)),
          click: (k) => {
            if (numberCard === null) { store.soloNumber = k; rerender(); }
            else if (k === numberCard) { store.soloNumber = null; rerender(); }
            else choose_(picks.find((o) => o.i === numberCard && o.j === k && o.bonus === bonus));
          },
          hint: () => null,
        };
        prompt.append(numberCard === null ? t("Choose the card whose number you write (then the card whose effect you use; the third goes to ACME).")
          : t("You write {number}: now choose the card whose effect you use; the other goes to ACME.", { number: st.hand[numberCard].number }));
      } else {
        pc = {
          playableCard: (k) => picks.some((o) => o.i === k && o.bonus === bonus),
          click: (k) => choose_(picks.find((o) => o.i === k && o.bonus === bonus)),
        };
        prompt.append(t("Choose a combination: its number goes into a casino, then you may use its effect."));
      }
      box.append(prompt, cardsRow(st, d, pc, rerender), extra);
      const refusals = options.filter((o) => o.kind === "refuse");
      if (refusals.length) {
        box.append(el("p", { class: "nlv-warn" }, t("No number fits anywhere: you must refuse and mark 2 opening boxes.")));
        box.append(el("div", { class: "nlv-actions" }, refusals.map((o) => el("button", {
          type: "button", class: "primary nlv-click", "data-step": o.text, onclick: () => choose_(o),
        }, o.card >= 0 ? t("Refuse: card {number} to ACME", { number: o.card + 1 }) : t("Refuse (mark 2 boxes)")))));
      }
    } else {
      const chosen = d.turn.refused ? {} : { number: d.turn.i, effect: d.turn.j };
      box.append(cardsRow(st, d, { chosen }, rerender));
      box.append(el("p", { class: "nlv-sofar" }, el("strong", {}, t("This round: ")), stepsSoFar(d)));
      if (stage === "open") {
        const changes = [...new Set(options.map((o) => o.d))];
        if (d.turn.bonus === "e") {
          const change = changes.includes(store.easy) ? store.easy : changes[0];
          prompt.append(t("Easy opening: write {sum} = {number} in a lit casino, or change by another amount:", { sum: `${d.turn.num}${change > 0 ? "+" : ""}${change}`, number: d.turn.num + change }));
          extra.append(...changes.map((c) => el("button", {
            type: "button", class: "chip" + (c === change ? " on" : ""), "data-change": String(c), onclick: () => { store.easy = c; rerender(); },
          }, `${c > 0 ? "+" : ""}${c} → ${d.turn.num + c}`)));
        } else {
          prompt.append(t("Write {number} in a lit casino (numbers rise from left to right in each street).", { number: d.turn.num }));
        }
      } else if (stage === "copy") {
        prompt.append(t("Expansion: open a lit casino next to an opened one, copying its number."));
        if (store.copyAt !== null) {
          extra.append(...options.filter((o) => o.slot === store.copyAt).map((o) => el("button", {
            type: "button", class: "chip nlv-click", "data-step": o.text, onclick: () => choose_(o),
          }, o.side === "l" ? t("{slot}: copy {number} from the left", { slot: slotWords(shared.W.slots[o.slot].id), number: d.sh.nums[o.slot - 1] })
            : t("{slot}: copy {number} from the right", { slot: slotWords(shared.W.slots[o.slot].id), number: d.sh.nums[o.slot + 1] }))));
        }
      } else if (stage === "effect") {
        const effs = d.turn.bonus === "f" ? t("any effect (free action)") : t("{effect}: {help}", { effect: EFFECT_SHORT[d.turn.eff], help: EFFECT_HELP[d.turn.eff] });
        prompt.append(t("Effect — {effect}. Click a lit target on your sheet, or skip.", { effect: effs }));
        for (const o of options) {
          if (o.kind === "skip") continue;
          if (o.eff === "op" || o.eff === "show" || (o.eff === "up" && options.filter((x) => x.eff === "up").length <= 10)) {
            extra.append(el("button", { type: "button", class: "chip nlv-click", "data-step": o.text, onclick: () => choose_(o) },
              o.eff === "op" ? t("Mark an opening box") : o.eff === "show" ? t("Show column {column}", { column: o.target + 1 }) : t("Upgrade {column}", { column: UP_LABEL[o.target][0] })));
          } else if (o.eff === "limo") {
            extra.append(el("button", { type: "button", class: "chip nlv-click", "data-step": o.text, onclick: () => choose_(o) }, t("Limousine {direction}", { direction: DIR_WORD[o.target] })));
          }
        }
        if (options.some((o) => o.eff === "con")) extra.append(el("span", { class: "nlv-sub" }, t("Construction: click a crane casino.")));
        const skip = options.find((o) => o.kind === "skip");
        if (skip) extra.append(el("button", { type: "button", class: "chip nlv-click", "data-step": "skip", onclick: () => choose_(skip) }, t("Skip the effect")));
        if (!d.waiting && d.turn.eff === "show" && d.turn.bonus !== "f" && !options.some((o) => o.eff === "show")) {
          prompt.append(t(" (The casino just opened has no star, so no show is possible.)"));
        }
      } else if (stage === "done") {
        prompt.append(d.steps.length ? t("Your round is ready. Confirm to lock it in (nobody sees it until everyone has chosen).") : t("Waiting for the round to resolve."));
      }
      box.append(prompt, extra);
    }
    const controls = el("div", { class: "nlv-controls" });
    if (d.steps.length) {
      controls.append(el("button", { type: "button", id: "nlv-undo", class: "small", disabled: store.sending, onclick: () => undo(st, d, false, rerender) }, t("Undo")));
      if (d.steps.length > 1) controls.append(el("button", { type: "button", id: "nlv-restart", class: "small", disabled: store.sending, onclick: () => undo(st, d, true, rerender) }, t("Start over")));
    }
    if (stage === "done" && d.steps.length) {
      controls.append(el("button", {
        type: "button", id: "nlv-confirm", class: "primary nlv-confirm", disabled: store.sending,
        onclick: () => send(d.steps.map((o) => o.text).join(", ")),
      }, store.sending ? t("Sending…") : t("Confirm my round")));
    }
    if (controls.childNodes.length) box.append(controls);
    return box;
  }

  function stepsSoFar(d) {
    return d.turn.steps.map(stepWords).join(" → ") || "—";
  }
  function stepWords(x) {
    if (x.step === "pick") {
      const picked = x.number_card === x.effect_card
        ? t("combination {letter} ({number} / {effect})", { letter: "abc"[x.number_card], number: x.number, effect: EFFECT_SHORT[x.effect] })
        : t("number {number} (card {a}), {effect} (card {b})", { number: x.number, a: x.number_card + 1, effect: EFFECT_SHORT[x.effect], b: x.effect_card + 1 });
      return x.bonus ? t("{pick} + {bonus}", { pick: picked, bonus: shared.W.bonuses[x.bonus] }) : picked;
    }
    if (x.step === "refuse") return t("refused (2 opening boxes)");
    if (x.step === "open") return t("{number} in {slot}", { number: x.number, slot: slotWords(x.slot) });
    if (x.step === "expand") return t("copied {number} into {slot}", { number: x.number, slot: slotWords(x.slot) });
    if (x.step === "skip") return t("no effect");
    if (x.effect === "con") return t("built the crane casino on {slot}", { slot: slotWords(x.slot) });
    if (x.effect === "up") return t("upgraded {column}", { column: UP_LABEL[x.column] ? UP_LABEL[x.column][0] : x.column });
    if (x.effect === "show") return t("show on {slot} (show column {column})", { slot: slotWords(x.slot), column: x.column });
    if (x.effect === "limo") return t("limousine {direction}", { direction: DIR_WORD[x.direction] });
    return t("opening box");
  }

  function scoreChips(e, st, q) {
    const final = st.final && st.final.players[q];
    const cols = final ? final.columns : e.columns;
    const total = final ? final.total : e.total;
    return el("div", { class: "nlv-score" },
      el("span", { class: "nlv-score-title" }, final ? t("Final score") : t("Score now")),
      COLUMNS.map((c) => el("span", { class: "nlv-chip" + (cols[c] < 0 ? " neg" : ""), "data-col": c }, el("small", {}, column(c)), String(cols[c]))),
      el("span", { class: "nlv-chip total" }, el("small", {}, t("total")), String(total)));
  }

  function projectsRow(st, sh) {
    return el("div", { class: "nlv-projects" }, st.projects.map((p, k) => {
      const info = shared.W.projects[p.id] || {};
      const got = sh.projects[k];
      return el("div", { class: `nlv-project deck-${p.deck}` + (got ? " done" : "") + (p.approved ? " approved" : "") },
        el("div", { class: "nlv-project-head" }, el("strong", {}, p.id), el("span", {}, `${p.first} / ${p.later}`)),
        el("div", { class: "nlv-project-text" }, info.condition || ""),
        el("div", { class: "nlv-project-foot" }, got ? t("scored {points}", { points: got }) : p.approved ? t("approved: {points} now", { points: p.later }) : t("first: {points}", { points: p.first })));
    }));
  }

  function playersPanel(st, payload, seats, me, viewing, est, solo, rerender, last) {
    const toAct = payload.to_act || [];
    const list = el("div", { class: "nlv-players" });
    st.players.forEach((p, q) => {
      const hotels = p.sheet.hotels.filter(Boolean).length;
      const hotelWords = hotels === 1 ? t("1 hotel") : counted(t("{n} hotels", { n: hotels }), hotels);
      const status = st.phase === "over" ? "" : toAct.includes(q) ? t("choosing…") : st.phase === "round" ? t("done") : "";
      list.append(el("button", {
        type: "button", class: "nlv-player" + (q === viewing ? " on" : "") + (toAct.includes(q) ? " choosing" : "") + (q === me ? " me" : ""),
        "data-seat": String(q), onclick: () => { store.viewing = q; rerender(); },
      },
      el("span", { class: "nlv-player-name" }, q === me ? t("{name} · you", { name: T.seatLabel(seats, q) }) : T.seatLabel(seats, q)),
      el("span", { class: "nlv-player-status" }, status),
      el("span", { class: "nlv-player-score" }, t("{points} pts · {hotels}", { points: st.final ? st.final.players[q].total : est[q].total,
        hotels: hotelWords })),
      last && last.bySeat.has(q) ? el("span", { class: "nlv-player-last", "data-round": String(last.round) },
        el("strong", {}, t("Round {round}: ", { round: last.round })), roundSummary(last.bySeat.get(q))) : null));
    });
    const choosing = toAct.length && st.phase !== "over" ? t("Still choosing: {names}", { names: toAct.map((q) => T.seatLabel(seats, q)).join(", ") }) : "";
    return el("section", { class: "nlv-players-box" }, el("div", { class: "nlv-sub" }, (st.players.length > 1 ? t("Architects (click one to see their sheet). ") : "") + choosing), list);
  }

  function acmePanel(st, now) {
    const acme = st.acme;
    const e = st.final ? st.final.acme : now;
    if (!e) return el("section", { class: "nlv-acme" }, el("h3", {}, t("ACME · architect card {number}", { number: acme.architect })));
    const card = shared.W.architects[String(acme.architect)];
    const count = acmeCounts(st);
    // The final score has no hole count: its golf column over the value per hole gives it.
    const holes = e.holes ?? (e.values[4] ? e.columns.golf / e.values[4] : 0);
    const a = { values: e.values, run: e.run, holes, count, ups: count("up"), card };
    const kinds = ["op", "con", "up", "show", "limo"];
    const colNames = shared.W.architect_columns;
    const none = t("none");
    return el("section", { class: "nlv-acme" },
      el("h3", {}, t("ACME · architect card {number}", { number: acme.architect })),
      el("div", { class: "nlv-acme-pile" }, el("span", { class: "nlv-sub" }, t("pile ({count} cards): ", { count: acme.pile.length })),
        kinds.map((k) => el("span", { class: "nlv-chip eff-" + k, "data-acme": k }, el("small", {}, EFFECT_SHORT[k]), String(a.count(k))))),
      el("div", { class: "nlv-tablewrap" }, el("table", { class: "grid nlv-arch" },
        el("tr", {}, el("th", {}, t("column")), el("th", {}, t("base")), el("th", {}, t("upgraded")), el("th", {}, t("upgrade cards")), el("th", {}, t("now"))),
        colNames.map((c, k) => el("tr", { class: a.ups >= a.card.thresholds[k] ? "up" : "" },
          el("td", {}, acmeColumn(c)), el("td", {}, String(a.card.base[k])), el("td", {}, String(a.card.upgraded[k])),
          el("td", {}, `${a.ups} / ${a.card.thresholds[k]}`), el("td", {}, String(a.values[k])))))),
      el("p", { class: "nlv-sub" }, t("street chains {run} (construction cards {con} {sign} {crane}); golf holes {holes} (repeated effects); ", {
        run: a.run, con: a.count("con"), sign: a.card.crane < 0 ? "−" : "+", crane: Math.abs(a.card.crane), holes: a.holes }) +
        t("hotels on avenues {avenues}; projects {projects}; approvals seen {seen} of {approvals}; ", {
          avenues: acme.hotels.join(", ") || none, projects: acme.projects.join(" / "), seen: acme.approvals_seen, approvals: a.card.approvals.length }) +
        (acme.loan_card !== null && acme.loan_card !== undefined
          ? t("deck {deck}, discard {discard}; the card under your sheet shows {effect} and its number is {number}", {
            deck: acme.deck_size, discard: acme.discard_size, effect: EFFECT_SHORT[acme.loan_card_effect] || "?", number: acme.loan_card })
          : t("deck {deck}, discard {discard}; the card under your sheet shows {effect}", {
            deck: acme.deck_size, discard: acme.discard_size, effect: EFFECT_SHORT[acme.loan_card_effect] || "?" }))),
      el("ol", { class: "nlv-approvals" }, a.card.approvals.map((row, k) => {
        const project = row.project ? t("completes the project") : t("no project");
        const avenues = row.hotels.join(", ");
        const hotels = row.hotels.length > 1 ? t("grand hotels on avenues {avenues}", { avenues }) : t("grand hotels on avenue {avenues}", { avenues });
        return el("li", { class: k < acme.approvals_seen ? "seen" : "" }, t("{project}; {hotels}", { project, hotels }));
      })),
      el("div", { class: "nlv-score" }, el("span", { class: "nlv-score-title" }, st.final ? t("ACME final") : t("ACME now")),
        COLUMNS.map((c) => el("span", { class: "nlv-chip" + (e.columns[c] < 0 ? " neg" : ""), "data-acme-col": c }, el("small", {}, column(c)), String(e.columns[c]))),
        el("span", { class: "nlv-chip total" }, el("small", {}, t("total")), String(e.total))));
  }

  function finalPanel(st, payload, seats, me) {
    const f = st.final;
    const res = payload.result;
    const rows = f.players.map((p, q) => ({ name: q === me ? t("{name} (you)", { name: T.seatLabel(seats, q) }) : T.seatLabel(seats, q), cols: p.columns, total: p.total,
      rank: res ? res.ranks[q] : 0, place: res ? T.place(res, q) : "" }));
    if (f.acme) {
      // solo: the seat's rank is 1 when it beat ACME, else 2 (ACME first)
      const beat = res && res.ranks[0] === 1;
      rows.push({ name: f.acme.loan ? t("ACME (took the loan)") : "ACME", cols: f.acme.columns, total: f.acme.total, rank: beat ? 2 : 1, place: res ? T.ordinal(beat ? 2 : 1) : "" });
    }
    rows.sort((a, b) => (a.rank || 99) - (b.rank || 99));
    const loans = st.players.map((p, q) => (p.loan ? t("{name} took it", { name: T.seatLabel(seats, q) }) : t("{name} refused", { name: T.seatLabel(seats, q) }))).join(", ");
    return el("section", { class: "result nlv-final" },
      el("div", { class: "nlv-final-head" }, t("Final scores")),
      el("div", { class: "nlv-tablewrap" }, el("table", { class: "grid nlv-final-table" },
        el("tr", {}, el("th", {}, t("place")), el("th", {}, ""), COLUMNS.map((c) => el("th", {}, column(c))), el("th", {}, t("total"))),
        rows.map((r) => el("tr", { class: r.rank === 1 ? "winner" : "" }, el("td", {}, r.place + (r.rank === 1 ? " ★" : "")), el("td", {}, r.name),
          COLUMNS.map((c) => el("td", { class: r.cols[c] < 0 ? "neg" : "" }, String(r.cols[c]))),
          el("td", {}, el("strong", {}, String(r.total))))))),
      f.loan_card !== undefined ? el("p", { class: "nlv-sub" }, f.acme.loan ? t("The card under your sheet was a {number}: ACME took the loan.", { number: f.loan_card })
        : t("The card under your sheet was a {number}: ACME did not take the loan.", { number: f.loan_card })) : null,
      el("p", { class: "nlv-sub" }, t("Bank loans: {list}", { list: loans })));
  }

  return { acmePanel, cardsRow, decisionPanel, finalPanel, playersPanel, projectsRow, scoreChips };
});
