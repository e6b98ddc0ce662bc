// Tabletown's small client library: API calls, HTML helpers, SHA-256 and the board registry.
// A game's own board registers itself with Tabletown.registerBoard(gameName, {render(el, payload, ctx)});
// pages fall back to the generic board (boards/generic.js) for games without one. A board split into
// several scripts (web/boards/<game>/*.js, the page loading board.js last) shares code through
// Tabletown.boardPart(game, name, value) in each part and Tabletown.boardParts(game) in board.js.
// The pages run under a strict Content-Security-Policy: no inline code, no style attributes. el()
// therefore sets `style` through the CSSOM (node.style.cssText), which the policy allows.
"use strict";
(function () {
  const boards = {};
  const parts = {}; // game -> {name: value}: the parts of a board split into several scripts
  let messages = null; // the page's translated words (t()), read on first use
  // the page's words in its language (Tabletown.t below; called only once the library is set up)
  const t = (message, fields) => window.Tabletown.t(message, fields);
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "style") node.style.cssText = String(v);
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  async function api(method, path, body) {
    const options = { method, headers: {}, credentials: "same-origin" };
    if (body !== undefined) {
      options.headers["content-type"] = "application/json";
      options.body = typeof body === "string" ? body : JSON.stringify(body); // a string: JSON already
    }
    let response;
    try { response = await fetch(path, options); }
    catch (e) { return { status: 0, ok: false, data: { message: t("The server cannot be reached.") }, text: "" }; }
    const text = await response.text();
    let data;
    try { data = JSON.parse(text); } catch (e) { data = null; }
    return { status: response.status, ok: response.ok, data, text };
  }
  // What to call each seat: the label the server sends with every seat, in the page's language (the
  // player's name, "Expert bot", "Player 2": core/words.py seat_display_names, the same names the
  // event sentences use); the name, else "Player N", for a seat that came without one.
  function displayNames(seats) {
    return (seats || []).map((s, i) => (s && (s.name || s.label)) || t("Player {number}", { number: i + 1 }));
  }
  function seatLabel(seats, seat) {
    if (seat === null || seat === undefined) return t("spectator");
    const names = displayNames(seats);
    return names[seat] !== undefined ? names[seat] : t("Player {number}", { number: seat + 1 });
  }
  function board(game) { return boards[game] || boards.generic; }
  // A join link holds the server's public address (for friends on other machines); this browser
  // follows its own seat's link on the address it already uses, so its name and cookies stay here.
  function localPath(url) {
    try { const u = new URL(url, location.href); return u.pathname + u.search; } catch (e) { return url; }
  }

  // -- the end of a game ---------------------------------------------------------------------------
  // Places from the engine's ranks (1 = a winner; tied seats share a rank): "1st", "2nd", "=2nd" for a
  // place two seats share. The words of a game's own result (its breakdown, a solo opponent) belong to
  // its board: a board may add `outcome(payload, ctx) -> {headline?, detail?}` to its renderer.
  function ordinal(n) {
    const tens = n % 100, ones = n % 10;
    if (tens >= 11 && tens <= 13) return t("{n}th", { n });
    return ones === 1 ? t("{n}st", { n }) : ones === 2 ? t("{n}nd", { n }) : ones === 3 ? t("{n}rd", { n }) : t("{n}th", { n });
  }
  function place(result, seat) {
    const ranks = (result && result.ranks) || [];
    const rank = ranks[seat];
    if (typeof rank !== "number") return "";
    const shared = ranks.filter((r) => r === rank).length > 1;
    return (shared ? "=" : "") + ordinal(rank);
  }
  // A seat as a headline names it: "You" for the viewer, else the player's name, else "Seat 1 (bot greedy)".
  function seatName(seats, seat, me) {
    if (seat === me && me !== null && me !== undefined) return t("You");
    return seatLabel(seats, seat);
  }
  // The possessive: "your" for the viewer, else "Alice's".
  function seatWhose(seats, seat, me) {
    if (seat === me && me !== null && me !== undefined) return "your";
    return seatLabel(seats, seat) + "'s";
  }
  function listNames(names) {
    return names.length <= 1 ? names.join("") : t("{first} and {last}", { first: names.slice(0, -1).join(", "), last: names[names.length - 1] });
  }
  // {headline, detail, winners} for a finished game, as seat `ctx.seat` (null: a spectator) sees it.
  function outcome(game, payload, ctx) {
    const result = payload.result || { winners: [], ranks: [] };
    const winners = result.winners || [];
    const me = ctx ? ctx.seat : null;
    const seats = (ctx && ctx.seats) || payload.seats || [];
    const names = [...winners].sort((a, b) => (a === me ? -1 : b === me ? 1 : a - b)).map((s) => seatName(seats, s, me));
    let headline;
    if (winners.length === 0) headline = t("Nobody wins");
    else if (winners.length === 1) headline = winners[0] === me ? t("You win!") : t("{name} wins", { name: names[0] });
    else headline = winners.length === 2 ? t("{names} share the win", { names: listNames(names) }) : t("{names} all share the win", { names: listNames(names) });
    const renderer = boards[game];
    let own = null;
    if (renderer && typeof renderer.outcome === "function") {
      try { own = renderer.outcome(payload, { ...(ctx || {}), seats }); } catch (e) { console.error(e); }
    }
    let detail = (own && own.detail) || "";
    // a seat that did not win is told where it finished (a game's own headline, like solo's, says it all)
    const ranks = result.ranks || [];
    if (me !== null && me !== undefined && !winners.includes(me) && Number.isInteger(ranks[me]) && !(own && own.headline)) {
      detail = (detail ? detail + " " : "") + t("Your place: {rank} of {count}.", { rank: ranks[me], count: ranks.length });
    }
    return { headline: (own && own.headline) || headline, detail, winners };
  }

  // -- SHA-256 ---------------------------------------------------------------------------------------
  // crypto.subtle exists only on secure origins (https, localhost); a plain-http server gets the small
  // pure-JS version below, so a record's commitment can be checked anywhere.
  const K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ]);
  function sha256Bytes(bytes) {
    const bitLength = bytes.length * 8;
    const padded = new Uint8Array(((bytes.length + 9 + 63) >> 6) << 6);
    padded.set(bytes);
    padded[bytes.length] = 0x80;
    const view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, Math.floor(bitLength / 0x100000000));
    view.setUint32(padded.length - 4, bitLength >>> 0);
    const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
    const w = new Uint32Array(64);
    const rotr = (x, n) => (x >>> n) | (x << (32 - n));
    for (let off = 0; off < padded.length; off += 64) {
      for (let t = 0; t < 16; t++) w[t] = view.getUint32(off + t * 4);
      for (let t = 16; t < 64; t++) {
        const s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
        const s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
        w[t] = (w[t - 16] + s0 + w[t - 7] + s1) >>> 0;
      }
      let [a, b, c, d, e, f, g, hh] = h;
      for (let t = 0; t < 64; t++) {
        const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t]) >>> 0;
        const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
        hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
      }
      h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    }
    return [...h].map((x) => x.toString(16).padStart(8, "0")).join("");
  }
  async function sha256Hex(text) {
    const bytes = new TextEncoder().encode(String(text));
    if (window.crypto && window.crypto.subtle && window.isSecureContext) {
      try {
        const digest = await window.crypto.subtle.digest("SHA-256", bytes);
        return [...new Uint8Array(digest)].map((x) => x.toString(16).padStart(2, "0")).join("");
      } catch (e) { /* fall back to the pure-JS version */ }
    }
    return sha256Bytes(bytes);
  }
  // The text a table's commitment hashes (src/tabletown/core/fairness.py): the seed in decimal, as
  // text (seeds go up to 2^63-1, beyond what a JS number holds exactly).
  function commitmentText(seedText, salt) { return "tabletown-seed:" + String(seedText) + ":" + String(salt); }
  // The seed's decimal digits from a JSON text (JSON.parse rounds integers past 2^53).
  function seedDigits(jsonText) {
    const m = /"seed"\s*:\s*"?(\d+)"?/.exec(jsonText || "");
    return m ? m[1] : null;
  }

  window.Tabletown = {
    el, api, seatLabel, displayNames, seatWhose, board, localPath, ordinal, place, seatName, listNames, outcome,
    sha256Hex, sha256Sync: (text) => sha256Bytes(new TextEncoder().encode(String(text))), commitmentText, seedDigits,
    registerBoard(game, renderer) { boards[game] = renderer; },
    // A board's part script (loaded before its board.js) registers what it offers under a name, e.g. a
    // function that board.js calls with what the part needs of it; board.js reads them at load time.
    boardPart(game, name, value) { (parts[game] = parts[game] || {})[name] = value; },
    boardParts(game) { return parts[game] || {}; },
    // Boards may keep a seat's data between pushes (drafts, events); a hot-seat hand-over asks them to
    // forget it all with reset().
    resetBoards() {
      for (const renderer of Object.values(boards)) {
        if (renderer && typeof renderer.reset === "function") {
          try { renderer.reset(); } catch (e) { console.error(e); }
        }
      }
    },
    config(id) {
      const node = document.getElementById(id);
      return node ? JSON.parse(node.textContent) : {};
    },
    // The page's words in its language: t("Your turn") or t("{n} left", {n: 3}); the messages come
    // from the shared catalog (core/locale, the page's <script id="ui-text">), English when missing.
    t(message, fields) {
      if (messages === null) {
        // The shared catalog, then the board's own (its game's catalog, in the board words).
        const read = (id) => { const node = document.getElementById(id); try { return node ? JSON.parse(node.textContent) : {}; } catch (e) { return {}; } };
        messages = Object.assign({}, (read("board-words") || {}).messages || {}, read("ui-text"));
      }
      let text = Object.prototype.hasOwnProperty.call(messages, message) ? messages[message] : message;
      for (const [key, value] of Object.entries(fields || {})) text = text.split("{" + key + "}").join(String(value));
      return text;
    },
    lang() { return document.documentElement.lang || "en"; },
    // A translation may hold a number's forms, "one|few|many" (Polish, Russian): the one for n.
    counted(text, n) {
      const forms = text.split("|");
      if (forms.length === 1) return text;
      const order = forms.length === 2 ? ["one", "other"] : ["one", "few", "many", "other"];
      let k = order.indexOf(new Intl.PluralRules(document.documentElement.lang || "en").select(n));
      if (k < 0 || k >= forms.length) k = forms.length - 1;
      return forms[k];
    },
    name() { return localStorage.getItem("tt_name") || ""; },
    setName(value) { localStorage.setItem("tt_name", value || ""); },
  };
})();
