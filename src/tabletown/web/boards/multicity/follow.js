// Multicity, a part of board.js: following a turn (table.js "following") and a legal move in words for
// the move list; both tell a place from the start tile, as the log does. board.js loads after this
// script and calls the function registered here (Tabletown.boardPart / boardParts; docs/server.md
// "A game's own board").
"use strict";
Tabletown.boardPart("multicity", "follow", () => {
  const t = Tabletown.t;
  // -- following a turn (table.js "following"): the tile laid or the object placed in the step on the board
  // stands out on the map (mc-last, tt-just); each seat's last turn in words on its card.
  // (as the game's people's words say it, games/multicity/render.py: no coordinates, no tile numbers)
  const TURN_WORDS = () => [t("not turned"), t("turned a quarter clockwise"), t("turned half round"), t("turned a quarter anticlockwise")];
  // where a tile lies from the start tile, whole sentences for the translations (English: "2 tiles right and 1 up")
  function fromStart(x, y) {
    const across = Math.floor(x / 3), down = Math.floor(y / 3);
    const fields = { count: Math.abs(across), down: Math.abs(down) };
    const many = Math.abs(across) !== 1;
    if (across && down) {
      if (across > 0) {
        if (down > 0) return many ? t("{count} tiles right and {down} down from the start tile", fields) : t("1 tile right and {down} down from the start tile", fields);
        return many ? t("{count} tiles right and {down} up from the start tile", fields) : t("1 tile right and {down} up from the start tile", fields);
      }
      if (down > 0) return many ? t("{count} tiles left and {down} down from the start tile", fields) : t("1 tile left and {down} down from the start tile", fields);
      return many ? t("{count} tiles left and {down} up from the start tile", fields) : t("1 tile left and {down} up from the start tile", fields);
    }
    if (across > 0) return many ? t("{count} tiles right from the start tile", fields) : t("1 tile right from the start tile", fields);
    if (across < 0) return many ? t("{count} tiles left from the start tile", fields) : t("1 tile left from the start tile", fields);
    fields.count = Math.abs(down);
    if (down > 0) return fields.count !== 1 ? t("{count} tiles down from the start tile", fields) : t("1 tile down from the start tile", fields);
    if (down < 0) return fields.count !== 1 ? t("{count} tiles up from the start tile", fields) : t("1 tile up from the start tile", fields);
    return t("on the start tile");
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
        if (e.kind === "lay") st.tiles = st.tiles.filter((tile) => tile.x !== e.x || tile.y !== e.y);
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
        const laid = state.tiles.find((tile) => tile.tile === last.tile);
        if (laid) st.drawn = { tile: last.tile, turns: [laid.squares, laid.squares, laid.squares, laid.squares] };
      }
      if (step.seat !== null && step.seat !== undefined) st.turn = step.seat;
      return st;
    },
    summary(list, seat) {
      const said = [];
      for (const e of list) {
        if (e.seat !== seat) continue;
        if (e.kind === "place") said.push(e.vertical ? t("placed a {length}-field object, standing", { length: e.length }) : t("placed a {length}-field object, lying", { length: e.length }));
        else if (e.kind === "draw") said.push(t("drew a tile"));
        else if (e.kind === "lay") said.push(t("laid it {where}, {turned}", { where: fromStart(e.x, e.y), turned: TURN_WORDS()[e.turn] || "" }));
        else if (e.kind === "pass") said.push(t("placed nothing in the final round"));
        else if (e.kind === "turn_lost") said.push(t("could not place any object"));
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
  // the nine squares of a tile by row and column (top-left ... centre ... bottom-right)
  const SQUARE_WORDS = () => [
    [t("top-left"), t("top-middle"), t("top-right")],
    [t("middle-left"), t("centre"), t("middle-right")],
    [t("bottom-left"), t("bottom-middle"), t("bottom-right")],
  ];
  const mod3 = (v) => ((v % 3) + 3) % 3;
  function squareWords(x, y) {
    const square = SQUARE_WORDS()[mod3(y)][mod3(x)];
    const tx = x - mod3(x), ty = y - mod3(y);
    if (Math.floor(tx / 3) === 0 && Math.floor(ty / 3) === 0) return t("the {square} square of the start tile", { square });
    return t("the {square} square of the tile {where}", { square, where: fromStart(tx, ty) });
  }
  // `ctx.mover`: whose move it was, when it is not the reader's own (the replay's move list)
  function describeMove(text, payload, ctx) {
    const theirs = ctx && ctx.mover !== undefined && ctx.mover !== null && ctx.mover !== ctx.seat;
    if (text === "draw") return t("Draw a tile");
    if (text === "pass") return t("Place nothing this round");
    let m = /^t (-?\d+),(-?\d+) r([0-3])$/.exec(text);
    if (m) {
      return { words: t("Lay the tile {where}, {turned}", { where: fromStart(Number(m[1]), Number(m[2])), turned: TURN_WORDS()[Number(m[3])] }), group: t("Lay the tile") };
    }
    m = /^(\d)([hv]) (-?\d+),(-?\d+)$/.exec(text);
    if (m) {
      const fields = { length: m[1], from: squareWords(Number(m[3]), Number(m[4])) };
      const lying = theirs ? t("Place a {length}-square object lying: from {from} to the right", fields) : t("Place your {length}-square object lying: from {from} to the right", fields);
      const standing = theirs ? t("Place a {length}-square object standing: from {from} downward", fields) : t("Place your {length}-square object standing: from {from} downward", fields);
      return { words: m[2] === "h" ? lying : standing,
        group: t("Place a {length}-square object", fields) };
    }
    return text;
  }

  return { describeMove, follow };
});
