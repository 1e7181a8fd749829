// Can't Stop in the page (a dice game: `family: "dice"` in the server's snapshot). The board is
// drawn from the FEN alone: eleven columns 2..12 of 3..13..3 spaces standing on one line (the
// "mountain"), each player's coloured markers (with the player's number, for colour-blind
// eyes), the three neutral markers (white cones), won columns in the winner's colour, the dice
// of the last roll and the player to move. Beside it, under the status: the buttons of a
// person to move (Roll, the choices of the roll: hovering or focusing one highlights the
// columns it advances and where the cone would go; then Roll or Stop), and how the last round
// of turns ended (a bust shown loud).
// The page offers only the decisions the server lists, and the server checks each again.
// Also here: the new-game form of a dice game (players, seats with an engine's strategy, seed).
"use strict";

/// The columns' lengths, column 2 first.
const CS_HEIGHTS = [3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3];
/// The board's geometry in SVG units: columns' left edge and pitch, rows' pitch, the bottom of
/// space 1, and a space's size.
const CS = { left: 1.5, pitch: 9.2, row: 6.3, base: 93, w: 8.2, h: 5.5 };

/// A position of a Can't Stop FEN (`p2 00002010100/00000000000 6:2,8:1 1 s`): the players,
/// each one's marker per column index (space, 0: none), the neutral markers (column -> space),
/// the player to move (from 1) and the phase (`r`, `c1456`, `s`).
function csParse(fen) {
  const [p, markers, neutral, toMove, phase] = fen.trim().split(/\s+/);
  const spaces = markers.split("/").map((row) => [...row].map((ch) => parseInt(ch, 16)));
  const neutrals = {};
  if (neutral && neutral !== "-") {
    for (const item of neutral.split(",")) {
      const [column, space] = item.split(":").map(Number);
      neutrals[column] = space;
    }
  }
  return { players: Number(p.slice(1)), spaces, neutrals, toMove: Number(toMove), phase };
}

/// The winner (from 1) of column `c` (2..12), or 0.
function csWinner(pos, c) {
  const i = pos.spaces.findIndex((row) => row[c - 2] === CS_HEIGHTS[c - 2]);
  return i + 1;
}

/// The columns of a choice token, `6.10` -> [6, 10], `7.7` -> [7, 7]; none for roll/stop.
const csColumns = (token) => (/^\d+(\.\d+)?$/.test(token) ? token.split(".").map(Number) : []);
/// The dice of a roll token, `r2455` -> [2, 4, 5, 5].
const csDice = (token) => [...token.slice(1)].map(Number);
/// A choice as people read it: `6.10` -> `6 + 10`.
const csChoiceText = (token) => csColumns(token).join(" + ");

function csElement(svg, kind, attributes, text) {
  const e = document.createElementNS(SVG, kind);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  svg.appendChild(e);
  return e;
}

/// The centre of space `s` (1..) of the column of index `i`.
function csSpaceAt(i, s) {
  return [CS.left + i * CS.pitch + CS.w / 2, CS.base - s * CS.row + CS.h / 2];
}

/// Draws the board of `fen` into `svg`: `dice` are the last roll's (or none), `bust` whether
/// that roll bust, `highlight` the columns of the choice under the pointer.
function drawCantStop(svg, fen, { dice = null, bust = false, highlight = [], before = null, rolled = false } = {}) {
  const pos = csParse(fen);
  // What moved since the position before (a marker or cone on a space it was not on) pops in.
  const was = before ? csParse(before) : null;
  const moved = (item, i, s) => {
    if (!was || item.ghost) return false;
    if (item.neutral) return was.neutrals[i + 2] !== s;
    return (was.spaces[item.player - 1] || [])[i] !== s;
  };
  svg.innerHTML = "";
  svg.setAttribute("viewBox", "0 0 104.2 100");
  const mover = pos.spaces[pos.toMove - 1] || [];
  for (let i = 0; i < 11; i++) {
    const c = i + 2;
    const height = CS_HEIGHTS[i];
    const won = csWinner(pos, c);
    const count = highlight.filter((h) => h === c).length;
    const group = csElement(svg, "g", { class: `cs-column${count ? " cs-hl" : ""}` });
    group.dataset.column = String(c);
    if (won) group.dataset.won = String(won);
    const x = CS.left + i * CS.pitch;
    if (count) {
      const top = CS.base - height * CS.row - 5;
      csElement(group, "rect", { x: x - 0.5, y: top, width: CS.w + 1, height: CS.base - top + 5.5, rx: 1.5, class: "cs-glow" });
    }
    // Where the cone would stand after the choice: one or two spaces up from the cone, or
    // from the mover's own marker, never above the top.
    const from = pos.neutrals[c] || mover[i] || 0;
    const ghost = count ? Math.min(from + count, height) : 0;
    for (let s = 1; s <= height; s++) {
      const rect = csElement(group, "rect", {
        x, y: CS.base - s * CS.row, width: CS.w, height: CS.h, rx: 1.1,
        class: `cs-space${won ? ` cs-won cs-won-p${won}` : ""}`,
      });
      rect.dataset.column = String(c);
      rect.dataset.space = String(s);
      const items = [];
      pos.spaces.forEach((row, p) => { if (row[i] === s) items.push({ player: p + 1 }); });
      if (pos.neutrals[c] === s) items.push({ neutral: true });
      if (ghost === s) items.push({ ghost: true });
      csDrawItems(group, items.map((item) => ({ ...item, moved: moved(item, i, s) })), c, s, i);
    }
    const [cx] = csSpaceAt(i, 1);
    csLabel(group, c, cx, CS.base + 3.8, "");
    const topY = CS.base - height * CS.row - 2.6;
    if (won) {
      csElement(group, "circle", { cx, cy: topY, r: 2.6, class: `cs-top cs-p${won}` });
      csLabel(group, c, cx, topY, ` cs-on-p${won}`).appendChild(csTitle(`column ${c}: won by player ${won}`));
    } else {
      csLabel(group, c, cx, topY, "");
    }
  }
  if (dice) csDrawDice(svg, dice, bust, rolled);
  csDrawTurn(svg, pos);
}

function csTitle(text) {
  const title = document.createElementNS(SVG, "title");
  title.textContent = text;
  return title;
}

function csLabel(svg, text, x, y, extra) {
  return csElement(svg, "text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", class: `cs-label${extra}` }, String(text));
}

/// The markers on one space, side by side: coloured discs with the player's number, the
/// neutral marker as a white cone, the cone-to-be of a highlighted choice dashed.
function csDrawItems(svg, items, c, s, i) {
  if (!items.length) return;
  const [cx, cy] = csSpaceAt(i, s);
  const slot = CS.w / items.length;
  const r = Math.min(2.45, slot / 2 - 0.15);
  items.forEach((item, k) => {
    const x = cx - CS.w / 2 + slot * (k + 0.5);
    if (item.player) {
      const disc = csElement(svg, "circle", { cx: x, cy, r, class: `cs-marker cs-p${item.player}${item.moved ? " cs-moved" : ""}` });
      Object.assign(disc.dataset, { player: String(item.player), column: String(c), space: String(s) });
      csElement(svg, "text", { x, y: cy, "text-anchor": "middle", "dominant-baseline": "central", "font-size": r * 1.35, class: `cs-num cs-on-p${item.player}` }, String(item.player));
    } else {
      const points = [[0, -1.2], [-1, 0.9], [1, 0.9]].map(([dx, dy]) => `${(x + dx * r).toFixed(2)},${(cy + dy * r).toFixed(2)}`);
      const cone = csElement(svg, "polygon", { points: points.join(" "), class: item.ghost ? "cs-ghost" : `cs-neutral${item.moved ? " cs-moved" : ""}` });
      Object.assign(cone.dataset, { column: String(c), space: String(s) });
    }
  });
}

/// Pips of a die face, in a 3x3 grid (0..8, row by row).
const CS_PIPS = { 1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

/// The four dice of the last roll, top left where the short columns leave room; red when
/// the roll bust; tumbling in when `rolled` (the roll was the step just made).
function csDrawDice(svg, dice, bust, rolled) {
  const size = 8.5;
  csElement(svg, "text", { x: 2, y: 4, class: "cs-caption" }, bust ? "bust!" : "last roll");
  dice.forEach((value, k) => {
    const x = 2 + (k % 2) * (size + 1.8);
    const y = 7 + Math.floor(k / 2) * (size + 1.8);
    const die = csElement(svg, "rect", { x, y, width: size, height: size, rx: 1.4, class: `cs-die${bust ? " cs-die-bust" : ""}${rolled ? " cs-rolled" : ""}` });
    die.dataset.value = String(value);
    for (const pip of CS_PIPS[value] || []) {
      const px = x + size * (0.24 + 0.26 * (pip % 3));
      const py = y + size * (0.24 + 0.26 * Math.floor(pip / 3));
      csElement(svg, "circle", { cx: px, cy: py, r: 0.8, class: `cs-pip${rolled ? " cs-rolled" : ""}` });
    }
  });
}

/// The columns a player must win in the game shown: its `ColumnsToWin` option, else 3.
function csColumnsToWin() {
  const options = (state.game && state.game.options) || {};
  return Number(options.ColumnsToWin) || 3;
}

/// The player to move (or the winner), top right: a disc of his colour with his number.
function csDrawTurn(svg, pos) {
  const need = csColumnsToWin();
  const won = pos.spaces.findIndex((row) => row.filter((s, i) => s === CS_HEIGHTS[i]).length >= need) + 1;
  const player = won || pos.toMove;
  const x = 93, y = 10;
  csElement(svg, "circle", { cx: x, cy: y, r: 5, class: `cs-turn cs-p${player}` });
  csElement(svg, "text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", class: `cs-turn-num cs-on-p${player}` }, String(player));
  const what = won ? "has won!" : pos.phase === "r" ? "to roll" : pos.phase === "s" ? "roll or stop?" : "to choose";
  csElement(svg, "text", { x, y: y + 8.5, "text-anchor": "middle", class: "cs-caption" }, `player ${player}`);
  csElement(svg, "text", { x, y: y + 12.5, "text-anchor": "middle", class: "cs-caption" }, what);
}

/// The seat of player `p` (from 1) as people read it: `human`, `steere`, `steere (greedy)`,
/// `steere (level 3)`.
function csSeatText(seat) {
  if (!seat) return "?";
  if (seat.strategy && seat.strategy !== "search") return `${seat.player} (${seat.strategy})`;
  return seat.level === null || seat.level === undefined ? seat.player : `${seat.player} (level ${seat.level})`;
}

/// The turns of the events up to `ply`: runs of events of one player, each with its events'
/// indices.
function csTurns(events, ply) {
  const turns = [];
  events.slice(0, ply).forEach((e, k) => {
    const last = turns[turns.length - 1];
    if (last && last.player === e.player && !last.over) last.events.push(k);
    else turns.push({ player: e.player, events: [k] });
    const turn = turns[turns.length - 1];
    if (e.bust || e.text === "stop") turn.over = true;
  });
  return turns;
}

/// How the last round of turns before `ply` ended (one per player at most, the latest last):
/// what each player's turn came to since, so that a person sees the engines' busts and stops
/// however fast they play.
function csTurnEnds(g, ply) {
  const turns = csTurns(g.events, ply).filter((t) => t.over);
  return turns.slice(-csParse(g.start).players).map((turn) => csTurnEnd(g, turn));
}

/// What a finished turn came to: a bust, or what the stop advanced and won.
function csTurnEnd(g, turn) {
  const last = g.events[turn.events[turn.events.length - 1]];
  const who = `Player ${turn.player}`;
  if (last.bust) return { bust: true, text: `${who} busts with ${csDice(last.text).join("-")}` };
  const before = csParse(g.position.history[turn.events[0]]);
  const after = csParse(g.position.history[turn.events[turn.events.length - 1] + 1]);
  const row = (pos) => pos.spaces[turn.player - 1];
  const advanced = [], won = [];
  for (let i = 0; i < 11; i++) {
    if (row(after)[i] > row(before)[i]) advanced.push(i + 2);
    if (row(after)[i] === CS_HEIGHTS[i] && row(before)[i] !== CS_HEIGHTS[i]) won.push(i + 2);
  }
  let text = `${who} stops, advancing in ${advanced.join(", ")}`;
  if (won.length) text += ` and winning column${won.length > 1 ? "s" : ""} ${won.join(", ")}`;
  return { bust: false, text };
}

/// The page for a dice game at `ply`: board, turn end, buttons, seats, log and status.
function renderDice(ply) {
  const g = state.game;
  const events = g.events;
  const fen = g.position.history[ply];
  const lastRoll = events.slice(0, ply).map((e, k) => ({ ...e, k })).filter((e) => e.roll).pop();
  const live = ply === events.length;
  const human = live && !g.position.winner && g.seats[g.position.to_move - 1]?.player === "human";
  // A step is animated once, when it arrives or is stepped to; a redraw of the same ply is still.
  const fresh = state.drawnPly !== ply || state.drawnGame !== g.id;
  state.drawnPly = ply;
  state.drawnGame = g.id;
  drawCantStop($("board"), fen, {
    dice: lastRoll ? csDice(lastRoll.text) : null,
    bust: Boolean(lastRoll && lastRoll.bust && lastRoll.k === ply - 1),
    highlight: state.highlight || [],
    before: fresh && ply > 0 ? g.position.history[ply - 1] : null,
    rolled: fresh && Boolean(lastRoll) && lastRoll.k === ply - 1,
  });
  const ends = csTurnEnds(g, ply);
  const box = $("turn-end");
  box.innerHTML = "";
  box.hidden = !ends.length;
  for (const end of ends) {
    const line = document.createElement("div");
    line.textContent = end.text;
    line.className = end.bust ? "turn-end bust" : "turn-end";
    box.appendChild(line);
  }
  renderDiceButtons(human);
  const engineTurn = live && !g.position.result && !human && g.seats[g.position.to_move - 1];
  $("skip-turn").hidden = !engineTurn || g.skipping === g.position.to_move || g.pace === 0;
  renderSeats(csParse(fen));
  renderDiceLog(ply);
  const mover = g.position.to_move;
  const seat = csSeatText(g.seats[mover - 1]);
  let status;
  if (g.position.result && live) status = `Game over: ${g.position.result}`;
  else if (!live) status = `Viewing event ${ply} of ${events.length}`;
  else if (g.skipping === mover) status = `Player ${mover} (${seat}) plays the rest of the turn at once...`;
  else if (g.thinking) status = `Player ${mover} (${seat}) is thinking...`;
  else if (human && g.position.next === "dice") status = `Player ${mover} (${seat}): roll the dice`;
  else if (human && csColumns(g.position.decisions[0] || "").length) status = `Player ${mover} (${seat}): choose what to advance`;
  else if (human) status = `Player ${mover} (${seat}): roll again or stop`;
  else status = `Player ${mover} (${seat}) to move`;
  $("status").textContent = status;
  $("to-latest").hidden = live;
}

/// The buttons of a person to move: Roll where the dice are due; else one per decision the
/// server lists (a choice highlights its columns while hovered or focused).
function renderDiceButtons(human) {
  const g = state.game;
  const box = $("dice-actions");
  box.innerHTML = "";
  box.hidden = !human;
  if (!human) return;
  const tokens = g.position.next === "dice" ? ["roll"] : g.position.decisions;
  if (!tokens.includes(state.armed)) state.armed = null; // a choice shown belongs to its roll
  const choosing = tokens.some((t) => csColumns(t).length);
  const note = document.createElement("span");
  note.textContent = choosing ? `Dice ${csDice(g.events[g.events.length - 1].text).join("-")}: advance in` : g.position.next === "dice" ? "Your turn:" : "Go on?";
  box.appendChild(note);
  for (const token of tokens) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.event = token;
    b.textContent = csColumns(token).length ? csChoiceText(token) : token === "roll" ? "Roll" : token === "stop" ? "Stop" : token;
    b.className = csColumns(token).length ? "cs-choice" : `cs-${token}`;
    const columns = csColumns(token);
    if (columns.length) {
      const on = () => { state.highlight = columns; drawHighlight(); };
      // A tapped choice stays shown (a finger's lift may count as leaving the button).
      const off = () => { if (state.armed !== token) { state.highlight = []; drawHighlight(); } };
      b.onmouseenter = on; b.onfocus = on;
      b.onmouseleave = off; b.onblur = off;
      b.onpointerdown = (e) => { b.dataset.pointer = e.pointerType; };
    }
    b.onclick = () => {
      // A touch screen has no hover: the first tap on a choice shows it, a second plays it.
      if (columns.length && b.dataset.pointer === "touch" && state.armed !== token) {
        state.armed = token;
        state.highlight = columns;
        drawHighlight();
        box.querySelectorAll("button").forEach((other) => other.classList.toggle("cs-armed", other === b));
        $("dice-hint").textContent = `${csChoiceText(token)}: tap again to play it`;
        return;
      }
      state.armed = null;
      state.highlight = [];
      play(token);
    };
    if (state.armed === token) b.classList.add("cs-armed");
    box.appendChild(b);
  }
  const hint = document.createElement("span");
  hint.id = "dice-hint";
  hint.className = "dice-hint";
  hint.textContent = state.armed ? `${csChoiceText(state.armed)}: tap again to play it` : "";
  box.appendChild(hint);
}

/// Redraws the board alone, with the highlight of the choice under the pointer.
function drawHighlight() {
  const g = state.game;
  const ply = shownPly();
  const lastRoll = g.events.slice(0, ply).filter((e) => e.roll).pop();
  drawCantStop($("board"), g.position.history[ply], {
    dice: lastRoll ? csDice(lastRoll.text) : null,
    bust: Boolean(lastRoll && lastRoll.bust && g.events[ply - 1] === lastRoll),
    highlight: state.highlight || [],
  });
}

/// The seats: colour and number, who plays, columns won; the player to move marked.
function renderSeats(pos) {
  const list = $("seats");
  list.innerHTML = "";
  state.game.seats.forEach((seat, k) => {
    const li = document.createElement("li");
    const won = pos.spaces[k].filter((s, i) => s === CS_HEIGHTS[i]).length;
    li.innerHTML = `<span class="cs-swatch cs-p${k + 1} cs-on-p${k + 1}">${k + 1}</span> `;
    li.append(`Player ${k + 1}: ${csSeatText(seat)}`);
    const count = document.createElement("span");
    count.className = "cs-won-count";
    const need = csColumnsToWin();
    count.textContent = `${won} of ${need} won`;
    count.title = `columns won (${need} win the game)`;
    li.appendChild(count);
    if (pos.toMove === k + 1 && !state.game.position.winner) li.classList.add("to-move");
    if (state.game.position.winner === k + 1) li.classList.add("winner");
    list.appendChild(li);
  });
}

/// The log: one line per turn, each event clickable to see the position after it; a bust
/// and an engine's estimate of its winning chance (from its score) are shown.
function renderDiceLog(ply) {
  const g = state.game;
  const log = $("moves");
  log.innerHTML = "";
  for (const turn of csTurns(g.events, g.events.length)) {
    const li = document.createElement("li");
    li.innerHTML = `<span class="cs-tag cs-p${turn.player} cs-on-p${turn.player}">P${turn.player}</span> `;
    for (const k of turn.events) {
      const e = g.events[k];
      const span = document.createElement("span");
      span.dataset.ply = String(k + 1);
      if (e.roll) span.textContent = e.bust ? `busts with ${csDice(e.text).join("-")}` : csDice(e.text).join("-");
      else if (csColumns(e.text).length) span.textContent = `→ ${csChoiceText(e.text)}`;
      else span.textContent = e.text;
      if (e.bust) span.classList.add("cs-bust");
      if (e.score && e.score.startsWith("cp ")) {
        const chance = 100 / (1 + Math.pow(10, -Number(e.score.slice(3)) / 400));
        span.title = `engine: ${chance.toFixed(0)}% to win`;
      }
      if (k + 1 === ply) span.classList.add("current");
      span.onclick = () => { state.shown = k + 1; render(); };
      li.appendChild(span);
      li.append(" ");
    }
    log.appendChild(li);
  }
  // Follow the game as it goes (the list scrolls, never the page).
  if (ply === g.events.length) log.scrollTop = log.scrollHeight;
}

/// Starts a dice game from the form: the number of players, each seat's player (and an
/// engine's strategy), the seed (empty: the server draws one).
async function newDiceGame() {
  updateForm(); // the seats' lists, if the game was chosen without a change event
  const count = Number($("players").value);
  const seats = [...document.querySelectorAll("#dice-seats .seat")].slice(0, count).map((span) => {
    const player = span.querySelector(".seat-player").value;
    const strategy = player === "human" ? null : span.querySelector(".seat-strategy").value;
    const level = strategy === "search" ? levelValue(span.querySelector(".seat-level"), player) : null;
    return { player, strategy, level };
  });
  const seed = $("seed").value.trim();
  const game = await api("/api/new", {
    variant: $("variant").value,
    fen: $("setup-fen").value.trim() || null,
    options: ruleOptions(),
    seats,
    movetime: Number($("movetime").value) || 1000,
    pace: Number($("pace").value),
    seed: seed === "" ? null : Number(seed),
  });
  $("record-games").hidden = true;
  show(game);
}

/// Shows the form's fields for the game chosen: White and Black and the clock for a board
/// game; the number of players, the seats (an engine seat with its strategy) and the seed for
/// a dice game.
function updateForm() {
  const info = variantInfo($("variant").value);
  const dice = info && info.family === "dice";
  $("new-game").classList.toggle("dice", Boolean(dice));
  ["white", "black"].forEach((side) => { $(`${side}-level`).hidden = $(side).value === "human"; });
  if (!dice) return;
  const [fewest, most] = info.players;
  if ($("players").dataset.variant !== info.name) {
    $("players").innerHTML = "";
    for (let n = fewest; n <= most; n++) $("players").add(new Option(String(n), String(n)));
    $("players").dataset.variant = info.name;
    for (const select of document.querySelectorAll(".seat-strategy")) {
      select.innerHTML = "";
      for (const s of info.strategies) select.add(new Option(s, s));
    }
  }
  const count = Number($("players").value);
  document.querySelectorAll("#dice-seats .seat").forEach((span, k) => {
    span.hidden = k >= count;
    const engine = span.querySelector(".seat-player").value !== "human";
    span.querySelector(".seat-strategy").hidden = !engine;
    // Levels weaken the engine's own search; a fixed player plays as it is.
    span.querySelector(".seat-level").hidden = !engine || span.querySelector(".seat-strategy").value !== "search";
  });
}
