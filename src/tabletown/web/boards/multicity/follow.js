// Multicity, a part of board.js: following a turn (table.js "following") and a legal move in words for
// the move list; both tell a place from the start tile, as the log does. board.js loads after this
// script and calls the function registered here (Tabletown.boardPart / boardParts; docs/server.md
// "A game's own board").
"use strict";
Tabletown.boardPart("multicity", "follow", () => {
  // -- following a turn (table.js "following"): the tile laid or the object placed in the step on the board
  // stands out on the map (mc-last, tt-just); each seat's last turn in words on its card.
  // (as the game's people's words say it, games/multicity/render.py: no coordinates, no tile numbers)
  const TURN_WORDS = ["not turned", "turned a quarter clockwise", "turned half round", "turned a quarter anticlockwise"];
  function fromStart(x, y) {
    const across = Math.floor(x / 3), down = Math.floor(y / 3);
    const parts = [];
    if (across) parts.push(`${Math.abs(across)} tile${Math.abs(across) !== 1 ? "s" : ""} ${across > 0 ? "right" : "left"}`);
    if (down) parts.push(`${Math.abs(down)}${parts.length ? "" : ` tile${Math.abs(down) !== 1 ? "s" : ""}`} ${down > 0 ? "down" : "up"}`);
    return parts.length ? parts.join(" and ") + " from the start tile" : "on the start tile";
  }
  const follow = {
    // a turn: an object placed, a tile drawn (then laid, a move of its own), a pass or a lost turn
    turn(e) { return ["place", "draw", "pass", "turn_lost"].includes(e.kind) ? e.seat : null; },
    step(e) { return e.kind === "lay"; },
    // the city before `later` (the events after the step shown, in one payload with it)
    rewind(state, later, step) {
      const st = JSON.parse(JSON.stringify(state));
      for (const e of [...later].reverse()) {
        const pl = st.players[e.seat];
        if (e.kind === "lay") st.tiles = st.tiles.filter((t) => t.x !== e.x || t.y !== e.y);
        else if (e.kind === "draw") { st.stack += 1; st.drawn = null; }
        else if (e.kind === "place" && pl) {
          st.objects = st.objects.filter((o) => !(o.seat === e.seat && o.x === e.x && o.y === e.y && o.length === e.length));
          pl.unplaced = [...pl.unplaced, e.length].sort((a, b) => a - b);
          const at = pl.placed.indexOf(e.length);
          if (at >= 0) pl.placed.splice(at, 1);
          pl.remaining_squares += e.length;
        }
      }
      const last = step.events[step.events.length - 1];
      st.drawn = null;
      st.free_slots = [];
      if (last && last.kind === "draw") {
        const laid = state.tiles.find((t) => t.tile === last.tile);
        if (laid) st.drawn = { tile: last.tile, turns: [laid.squares, laid.squares, laid.squares, laid.squares] };
      }
      if (step.seat !== null && step.seat !== undefined) st.turn = step.seat;
      return st;
    },
    summary(list, seat) {
      const said = [];
      for (const e of list) {
        if (e.seat !== seat) continue;
        if (e.kind === "place") said.push(`placed a ${e.length}-field object, ${e.vertical ? "standing" : "lying"}`);
        else if (e.kind === "draw") said.push("drew a tile");
        else if (e.kind === "lay") said.push(`laid it ${fromStart(e.x, e.y)}, ${TURN_WORDS[e.turn] || ""}`);
        else if (e.kind === "pass") said.push("placed nothing in the final round");
        else if (e.kind === "turn_lost") said.push("could not place any object");
      }
      if (!said.length) return "";
      const text = said.join(", ") + ".";
      return text.charAt(0).toUpperCase() + text.slice(1);
    },
  };

  // A legal move in words for the move list (the board places tiles and objects by pointer; this list is
  // the keyboard's way); the notation stays in records, the API and the terminal.
  // Moves are told as the log tells them (no coordinates): a tile by where it lies from the start tile,
  // an object by the square of a tile it starts on and whether it lies or stands.
  const ROW_WORDS = ["top", "middle", "bottom"], COL_WORDS = ["left", "middle", "right"];
  const mod3 = (v) => ((v % 3) + 3) % 3;
  function tileWords(x, y) {
    const where = fromStart(x - mod3(x), y - mod3(y));
    return where === "on the start tile" ? "the start tile" : `the tile ${where}`;
  }
  function squareWords(x, y) {
    const row = ROW_WORDS[mod3(y)], col = COL_WORDS[mod3(x)];
    const square = row === "middle" && col === "middle" ? "centre" : `${row}-${col}`;
    return `the ${square} square of ${tileWords(x, y)}`;
  }
  function describeMove(text) {
    if (text === "draw") return "Draw a tile";
    if (text === "pass") return "Place nothing this round";
    let m = /^t (-?\d+),(-?\d+) r([0-3])$/.exec(text);
    if (m) {
      return { words: `Lay the tile ${fromStart(Number(m[1]), Number(m[2]))}, ${TURN_WORDS[Number(m[3])]}`, group: "Lay the tile" };
    }
    m = /^(\d)([hv]) (-?\d+),(-?\d+)$/.exec(text);
    if (m) {
      const [how, way] = m[2] === "h" ? ["lying", "to the right"] : ["standing", "downward"];
      return { words: `Place your ${m[1]}-square object ${how}: from ${squareWords(Number(m[3]), Number(m[4]))} ${way}`, group: `Place a ${m[1]}-square object` };
    }
    return text;
  }

  return { describeMove, follow };
});
