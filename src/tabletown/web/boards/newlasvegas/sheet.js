// Welcome To New Las Vegas, a part of board.js: the city plan and the score sheet as SVG. board.js
// loads after this script and calls the function registered here with what the drawing needs of it
// (Tabletown.boardPart / boardParts; docs/server.md "A game's own board"); W and G are read through it
// as board.js sets them on the first render.
"use strict";
Tabletown.boardPart("newlasvegas", "sheet", (shared) => {
  const { DIR_WORD, NO_LAST, UP_LABEL, counted, golfStatus, inSpan, isBuilt, lampWords, s, slotWords, title } = shared;
  const t = Tabletown.t;
  // the red carpets by their casinos (the id in English)
  const carpetName = (c) => ({ vip: t("vip"), mafia: t("mafia"), luxury: t("luxury") })[c] || c;
  const CARPET_LETTER = { vip: "V", mafia: "M", luxury: "L" };

  // -- drawing: the city plan ------------------------------------------------------------------------
  const LX = 30, CW = 56, CH = 50, RH = 24, Y0 = 48;
  const rowY = (st) => Y0 + st * (CH + RH);
  const slotX = (i) => LX + (shared.W.slots[i].avenue - 1) * CW;
  const lampXY = (lamp) => [LX + shared.W.lamp_columns[lamp % shared.G.nc] * CW, rowY(Math.floor(lamp / shared.G.nc)) + CH + RH / 2];

  function star(cx, cy, r) {
    const pts = [];
    for (let k = 0; k < 10; k++) {
      const a = -Math.PI / 2 + (k * Math.PI) / 5;
      const rr = k % 2 ? r * 0.45 : r;
      pts.push(`${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`);
    }
    return s("polygon", { points: pts.join(" "), class: "nlv-star" });
  }
  function crane(x, y, k) {
    // a small tower crane: mast, jib, hook
    return s("g", { class: "nlv-crane", transform: `translate(${x},${y}) scale(${k})` },
      s("path", { d: "M4 22 V3 M4 3 H22 M1 3 H4 M4 8 L9 3 M18 3 V11 M16 11 H20 M1 22 H8" }));
  }

  function drawCity(st, sh, opts) {
    const { targets, fresh, grandTaken, acmeHotels, onSlot, onLamp, lampTargets } = opts;
    const last = opts.last || NO_LAST;
    const width = LX + shared.W.avenues * CW + 16;
    const height = rowY(4) + 40;
    const root = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "nlv-city", role: "img", "aria-label": t("city plan") });
    root.append(s("defs", {},
      s("pattern", { id: "nlv-hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        s("rect", { width: 6, height: 6, fill: "#efe7d6" }), s("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "#cdbf9f", "stroke-width": 3 }))));
    for (let a = 1; a <= shared.W.avenues; a++) {
      root.append(s("text", { x: LX + (a - 0.5) * CW, y: 12, class: "nlv-avenue" }, String(a)));
    }
    // streets as roads, every possible limousine segment faint, the drawn ones bold
    shared.W.edges.forEach((e, k) => {
      const [x1, y1] = lampXY(e.u), [x2, y2] = lampXY(e.v);
      root.append(s("line", { x1, y1, x2, y2, class: "nlv-road" + (sh.edges.has(k) ? " used" : "") + (last.edges.has(k) ? " last" : ""), "data-edge": String(k) }));
    });
    for (let st4 = 0; st4 < 4; st4++) {
      root.append(s("text", { x: 4, y: rowY(st4) + CH / 2 + 5, class: "nlv-street" }, t("S{street}", { street: st4 + 1 })));
    }
    const golf = golfStatus(sh);
    shared.W.slots.forEach((slot, i) => {
      const x = slotX(i), y = rowY(slot.street - 1);
      const built = isBuilt(sh, i);
      const num = sh.nums[i];
      const target = targets.get(i);
      const classes = ["nlv-slot"];
      if (!built) classes.push("crane");
      if (num >= 0) classes.push("opened");
      if (target) classes.push("nlv-target", "nlv-click");
      if (fresh.has(i)) classes.push("fresh");
      else if (last.slots.has(i)) classes.push("last", last.cranes.has(i) ? "last-crane" : "last-open");
      const g = s("g", { class: classes.join(" "), "data-slot": slot.id, onclick: target ? () => onSlot(i) : null },
        title(t("casino on {slot}", { slot: slotWords(slot.id) }) + (last.slots.has(i) ? t(" (last round)") : "") + (slot.crane ? (built ? t(", crane crossed out") : t(", crane: not built yet")) : "") +
          (slot.star ? t(", star") : "") + (slot.carpet ? t(", red carpet ({casino})", { casino: carpetName(slot.carpet) }) : "") + (num >= 0 ? t(", opened with {number}", { number: num }) : "")));
      g.append(s("rect", { x: x + 3, y: y + 2, width: CW - 6, height: CH - 4, rx: 7, class: "nlv-cell", fill: built ? null : "url(#nlv-hatch)" }));
      if (slot.carpet) {
        const passed = sh.carpets.has(i);
        g.append(s("rect", { x: x + 3, y: y + CH - 11, width: CW - 6, height: 9, rx: 3, class: "nlv-carpet" + (passed ? " passed" : "") }));
        g.append(s("text", { x: x + CW - 8, y: y + CH - 4, class: "nlv-carpet-letter" + (passed ? " passed" : "") }, CARPET_LETTER[slot.carpet]));
      }
      if (slot.star) {
        g.append(star(x + 13, y + 12, 7));
        if (sh.starOk.has(i)) g.append(s("circle", { cx: x + 13, cy: y + 12, r: 9, class: "nlv-ring" }));
        if (sh.starX.has(i)) g.append(s("path", { d: `M${x + 5} ${y + 4} l16 16 M${x + 21} ${y + 4} l-16 16`, class: "nlv-cross" }));
      }
      if (slot.crane) {
        if (!built) g.append(crane(x + 14, y + 10, 1.2));
        else {
          g.append(crane(x + CW - 22, y + 5, 0.6));
          g.append(s("path", { d: `M${x + CW - 23} ${y + 5} l14 14`, class: "nlv-cross thin" }));
          if (num < 0) g.append(s("text", { x: x + CW - 15, y: y + 32, class: "nlv-loan-mark" }, "$"));
        }
      }
      if (num >= 0) g.append(s("text", { x: x + CW / 2, y: y + 32, class: "nlv-num" }, String(num)));
      else if (target && target.label) g.append(s("text", { x: x + CW / 2, y: y + 32, class: "nlv-num ghost" }, target.label));
      root.append(g);
      // golf holes above street 1
      if (slot.holes.length) {
        slot.holes.forEach((par, k) => {
          const cx = x + CW / 2 + (k - (slot.holes.length - 1) / 2) * 18, cy = Y0 - 14;
          const status = golf[i];
          root.append(s("g", { class: "nlv-hole " + status },
            title(status === "built" ? t("golf hole PAR {par} (built)", { par }) : status === "crossed" ? t("golf hole PAR {par} (crossed)", { par }) : t("golf hole PAR {par}", { par })),
            s("circle", { cx, cy, r: 8 }), s("text", { x: cx, y: cy + 4 }, String(par)),
            status === "crossed" ? s("path", { d: `M${cx - 7} ${cy - 7} l14 14`, class: "nlv-cross thin" }) : null));
        });
      }
    });
    // lamps and the limousine
    shared.W.lamp_names.forEach((name, lamp) => {
      const [x, y] = lampXY(lamp);
      const at = lampTargets.get(lamp);
      if (lamp === shared.W.start_lamp) root.append(s("g", { class: "nlv-airport" }, s("rect", { x: x - 12, y: y - 8, width: 24, height: 16, rx: 4 }), s("text", { x, y: y + 4, "data-fit": 22 }, t("AIR"))));
      else root.append(s("circle", { cx: x, cy: y, r: 4, class: "nlv-lamp" }));
      if (at) {
        root.append(s("g", { class: "nlv-lamp-target nlv-click nlv-target", "data-lamp": name, "data-dir": at.target, onclick: () => onLamp(at) },
          title(t("drive the limousine {direction} to {lamp}", { direction: DIR_WORD[at.target], lamp: lampWords(lamp) })),
          s("circle", { cx: x, cy: y, r: 11 }), s("text", { x, y: y + 4 }, at.target.toUpperCase())));
      }
    });
    if (!sh.done) {
      const [x, y0] = lampXY(sh.lamp);
      const y = sh.lamp === shared.W.start_lamp ? y0 - 15 : y0;
      root.append(s("g", { class: "nlv-limo" }, title(t("the limousine")), s("rect", { x: x - 10, y: y - 6, width: 20, height: 12, rx: 5 }),
        s("circle", { cx: x - 5, cy: y + 6, r: 2.5 }), s("circle", { cx: x + 5, cy: y + 6, r: 2.5 })));
    } else {
      const [x, y] = lampXY(shared.W.start_lamp);
      root.append(s("text", { x: x + 16, y: y + 4, class: "nlv-done" }, t("route complete")));
    }
    // hotels under the avenues
    const hy = rowY(4) + 4;
    // i18n: one letter each, under an avenue: a grand hotel, a small hotel, no hotel yet
    const hotelMark = { grand: t("G"), small: t("S"), none: t("H") };
    for (let a = 0; a < shared.W.avenues; a++) {
      const h = sh.hotels[a];
      const x = LX + a * CW;
      const taken = grandTaken.includes(a + 1);
      const acme = acmeHotels.includes(a + 1);
      root.append(s("g", { class: "nlv-hotel " + (h || "none") + (taken && !h ? " gone" : "") },
        title(t("avenue {avenue}: ", { avenue: a + 1 }) + (h === "grand" ? t("grand hotel") : h === "small" ? t("small hotel") : h ? t("{kind} hotel", { kind: h }) : taken ? t("grand hotel already taken: small hotel only") : t("no hotel yet")) +
          (acme ? t("; ACME built a grand hotel here") : "")),
        s("rect", { x: x + 8, y: hy, width: CW - 16, height: 26, rx: 4 }),
        s("text", { x: x + CW / 2, y: hy + 18 }, h === "grand" ? hotelMark.grand : h === "small" ? hotelMark.small : hotelMark.none),
        acme ? s("text", { x: x + CW / 2, y: hy + 36, class: "nlv-acme-mark" }, "ACME") : null,
        taken && !h && !acme ? s("circle", { cx: x + CW - 12, cy: hy + 4, r: 4, class: "nlv-gone-dot" }) : null));
    }
    return root;
  }

  // -- drawing: the score sheet ----------------------------------------------------------------------
  function drawSheet(st, sh, opts) {
    const { effectTargets, onEffect, fresh, missing } = opts;
    const last = opts.last || NO_LAST;
    const width = LX + shared.W.avenues * CW + 16;
    const root = s("svg", { viewBox: `0 0 ${width} 352`, class: "nlv-scoresheet", role: "img", "aria-label": t("score sheet") });
    // opening track
    const BX = 86, BW = 27;
    const bx = (k) => BX + (k - 1) * BW + (k === shared.W.track_length ? 12 : 0);
    root.append(s("text", { x: 4, y: 40, class: "nlv-label", "data-fit": BX - 6 }, t("Opening")));
    root.append(s("text", { x: 4, y: 54, class: "nlv-sub", "data-fit": BX - 6 }, t("{count} unused", { count: sh.unused })));
    const opT = effectTargets.find((o) => o.eff === "op");
    shared.W.groups.forEach(([a, b], g) => {
      const x1 = bx(a), x2 = bx(b) + BW - 4;
      const spent = sh.spent.has(g), expo = sh.exp.has(g);
      const ready = !spent && sh.marks >= b;
      root.append(s("path", { d: `M${x1} 60 v5 H${x2} v-5`, class: "nlv-bracket" + (ready ? " ready" : "") }));
      const cx = (x1 + x2) / 2;
      root.append(s("g", { class: "nlv-loan" + (expo ? " circled" : spent ? " crossed" : "") },
        title(t("bonus group {group}", { group: g + 1 }) + (spent ? (expo ? t(": spent on expansion (loan circled)") : t(": spent (loan crossed out)")) : ready ? t(": ready to spend") : "")),
        s("circle", { cx, cy: 14, r: 8 }), s("text", { x: cx, y: 18 }, "$"),
        spent && !expo ? s("path", { d: `M${cx - 8} 6 l16 16`, class: "nlv-cross thin" }) : null));
      if (ready) root.append(s("text", { x: cx, y: 78, class: "nlv-ready" }, t("bonus")));
    });
    for (let k = 1; k <= shared.W.track_length; k++) {
      const x = bx(k);
      const marked = k <= sh.marks;
      const g = shared.W.groups.findIndex(([a, b]) => k >= a && k <= b);
      const spent = g >= 0 && sh.spent.has(g);
      const isNext = opT && k === sh.marks + 1;
      const cls = ["nlv-box", marked ? "marked" : "", spent ? "spent" : "", isNext ? "nlv-target nlv-click" : "", fresh.marks && k > fresh.marks && marked ? "fresh" : "",
        k > last.marks[0] && k <= last.marks[1] ? "last" : ""];
      root.append(s("g", { class: cls.join(" "), "data-op": isNext ? "1" : null, onclick: isNext ? () => onEffect(opT) : null },
        title(k === shared.W.track_length ? t("opening box {number} (after the scissors: marking it ends the game)", { number: k }) : t("opening box {number}", { number: k })),
        s("rect", { x, y: 28, width: BW - 4, height: 26, rx: 3 }),
        marked ? s("path", { d: `M${x + 4} ${32} l15 18 M${x + 19} ${32} l-15 18`, class: "nlv-x" }) : s("text", { x: x + (BW - 4) / 2, y: 46 }, String(k))));
    }
    root.append(s("text", { x: bx(shared.W.track_length) - 9, y: 46, class: "nlv-scissors" }, "✂"));
    // shows
    const showTargets = effectTargets.filter((o) => o.eff === "show");
    shared.W.show_values.forEach((values, c) => {
      const y = 96 + c * 34;
      const at = showTargets.find((o) => o.target === c);
      const and = t(" and ");
      const row = s("g", { class: "nlv-show" + (at ? " nlv-target nlv-click" : ""), "data-show": String(c + 1), onclick: at ? () => onEffect(at) : null },
        title(t("show column {column}: {values}; loans beside boxes {boxes}", { column: c + 1, values: values.join(", "), boxes: shared.W.show_loans[c].join(and) })));
      row.append(s("rect", { x: 2, y: y - 8, width: width - 6, height: 34, rx: 4, class: "nlv-rowbg" }));
      row.append(s("text", { x: 4, y: y + 16, class: "nlv-label", "data-fit": BX - 6 }, t("Show {column}", { column: c + 1 })));
      values.forEach((v, k) => {
        const x = BX + k * 44;
        const crossed = k < sh.shows[c];
        row.append(s("rect", { x, y: y - 2, width: 34, height: 26, rx: 3, class: "nlv-vbox" + (crossed ? " crossed" : "") + (k === sh.shows[c] - 1 ? " current" : "") + (inSpan(last.shows[c], k) ? " last" : "") }));
        row.append(s("text", { x: x + 17, y: y + 16, class: "nlv-v" }, String(v)));
        if (crossed) row.append(s("path", { d: `M${x + 3} ${y + 1} l28 20`, class: "nlv-cross thin" }));
        if (shared.W.show_loans[c].includes(k + 1)) {
          const repaid = sh.shows[c] >= k + 1, circled = sh.shows[c] > 0;
          row.append(s("g", { class: "nlv-loan small" + (circled && !repaid ? " circled" : "") + (repaid ? " repaid" : "") },
            s("circle", { cx: x + 39, cy: y - 2, r: 6 }), s("text", { x: x + 39, y: y + 1 }, "$")));
        }
      });
      row.append(s("text", { x: BX + values.length * 44 + 4, y: y + 16, class: "nlv-sub" }, `= ${sh.shows[c] ? values[sh.shows[c] - 1] : 0}`));
      root.append(row);
    });
    // upgrades
    const upTargets = effectTargets.filter((o) => o.eff === "up");
    const UX = 4, UW = (width - 8) / shared.W.upgrades.length;
    shared.W.upgrades.forEach((u, k) => {
      const x = UX + k * UW;
      const at = upTargets.find((o) => o.target === u.id);
      const off = st.first_game && shared.W.golf_upgrades.includes(u.id);
      const col = s("g", { class: "nlv-up" + (at ? " nlv-target nlv-click" : "") + (off ? " off" : ""), "data-up": u.id, onclick: at ? () => onEffect(at) : null },
        title(t("{column} ({what}): {crossed} of {boxes} yellow boxes crossed", { column: UP_LABEL[u.id][0], what: UP_LABEL[u.id][1], crossed: sh.ups[u.id], boxes: u.boxes })));
      col.append(s("rect", { x: x + 1, y: 166, width: UW - 2, height: 124, rx: 5, class: "nlv-upbg" }));
      col.append(s("text", { x: x + UW / 2, y: 180, class: "nlv-uptitle" }, UP_LABEL[u.id][0]));
      const values = u.id === "open" ? shared.W.open_places.map((p) => p.join("/")) : u.values.map(String);
      values.forEach((v, j) => {
        const y = 188 + j * 25;
        const passed = j < sh.ups[u.id], current = j === sh.ups[u.id];
        col.append(s("rect", { x: x + 4, y, width: UW - 8, height: 21, rx: 3, class: "nlv-vbox" + (j > 0 ? " yellow" : "") + (passed ? " crossed" : "") + (current ? " current" : "") + (inSpan(last.ups[u.id], j) ? " last" : "") }));
        col.append(s("text", { x: x + UW / 2, y: y + 15, class: "nlv-v" + (u.id === "open" ? " tiny" : "") }, v));
        if (passed) col.append(s("path", { d: `M${x + 6} ${y + 2} L${x + UW - 6} ${y + 19}`, class: "nlv-cross thin" }));
      });
      root.append(col);
    });
    // vault and loans
    const vy = 316;
    root.append(s("text", { x: 4, y: vy + 5, class: "nlv-label", "data-fit": BX - 6 }, t("Vault")));
    for (let k = 0; k < shared.W.vault.slots; k++) {
      root.append(s("circle", { cx: BX + 8 + k * 22, cy: vy, r: 8, class: "nlv-bundle" + (k < sh.vault ? " full" : "") }));
    }
    const owed = sh.loans;
    const vx = BX + shared.W.vault.slots * 22 + 8;
    root.append(s("text", { x: vx, y: vy + 5, class: "nlv-sub", "data-fit": width - vx - 4 },
      [sh.vault === 1 ? t("1 bundle") : counted(t("{n} bundles", { n: sh.vault }), sh.vault),
        owed === 1 ? t("1 open loan") : counted(t("{n} open loans", { n: owed }), owed),
        sh.edges.size === 1 ? t("1 limo segment") : counted(t("{n} limo segments", { n: sh.edges.size }), sh.edges.size)].join(" · ") +
      (missing === null || missing === undefined ? "" : t(", {count} to go", { count: missing }))));
    return root;
  }

  return { drawCity, drawSheet };
});
