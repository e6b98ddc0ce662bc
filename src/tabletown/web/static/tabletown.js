// Tabletown's small client library: API calls, HTML helpers and the board registry.
// A game's own board registers itself with Tabletown.registerBoard(gameName, {render(el, payload, ctx)});
// pages fall back to the generic board (boards/generic.js) for games without one.
"use strict";
(function () {
  const boards = {};
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  async function api(method, path, body) {
    const options = { method, headers: {} };
    if (body !== undefined) {
      options.headers["content-type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(path, options);
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    return { status: response.status, ok: response.ok, data };
  }
  function seatLabel(seats, seat) {
    if (seat === null || seat === undefined) return "spectator";
    const info = (seats || [])[seat];
    const who = info && info.name ? info.name : info && info.kind !== "human" ? info.kind.replace("bot:", "bot ") : "";
    return "Seat " + seat + (who ? " (" + who + ")" : "");
  }
  function board(game) { return boards[game] || boards.generic; }
  window.Tabletown = {
    el, api, seatLabel, board,
    registerBoard(game, renderer) { boards[game] = renderer; },
    config(id) {
      const node = document.getElementById(id);
      return node ? JSON.parse(node.textContent) : {};
    },
    name() { return localStorage.getItem("tt_name") || ""; },
    setName(value) { localStorage.setItem("tt_name", value || ""); },
  };
})();
