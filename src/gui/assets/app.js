// The page of `steere gui`: draws the board of the game shown, turns clicks into the legal
// moves the server lists (it never decides legality itself), and follows the game's state as
// the server pushes it (server-sent events), engine moves and analysis included. One game per tab: its id lives in sessionStorage, so a reload finds it again
// and another tab starts its own. A dice game (Can't Stop: `family: "dice"`) has seats instead
// of White and Black and events instead of moves; cantstop.js draws it and offers its
// decisions, and the controls of board games are hidden (`body.dice`).
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

/// Per game: the board's size and the pieces of a FEN, as a map from square name to
/// {color: "w"|"b", label: text drawn on the piece, count: checkers drawn}.
const BOARDS = {
  impasse: {
    size: () => 8,
    pieces(fen) {
      const pieces = {};
      fen.split(" ")[0].split("/").forEach((row, i) => {
        let file = 0;
        for (const c of row) {
          if (c >= "1" && c <= "8") { file += Number(c); continue; }
          if (c === ".") { file += 1; continue; }
          const color = c.toLowerCase();
          pieces[name(file, 7 - i)] = { color, label: c === color ? "" : "2", count: c === color ? 1 : 2 };
          file += 1;
        }
      });
      return pieces;
    },
  },
  dipole: {
    size: (variant) => (variant === "dipole10" ? 10 : 8),
    pieces(fen, size) {
      const pieces = {};
      fen.split(" ")[0].split("/").forEach((row, i) => {
        let file = 0;
        for (const token of row.split(",")) {
          if (/^\d+$/.test(token)) { file += Number(token); continue; }
          const height = Number(token.slice(1));
          pieces[name(file, size - 1 - i)] = { color: token[0], label: String(height), count: Math.min(height, 3) };
          file += 1;
        }
      });
      return pieces;
    },
  },
};

const boardOf = (variant) => (variant.startsWith("dipole") ? BOARDS.dipole : BOARDS.impasse);
const name = (file, rank) => String.fromCharCode(97 + file) + (rank + 1);
/// The square names in a move text, in order (`a7b8d2` -> a7 b8 d2; `e1off5` -> e1; HexDame's
/// `c3-c4` -> c3 c4 and `c3xe5xg5` -> c3 e5 g5: the separators are not square letters).
const squaresOf = (text) => text.replace(/off\d+$/, "").match(/[a-j](10|[1-9])/g) || [];
/// Whether Black is to move in a FEN: ` b` at the end (Impasse, Dipole), `B:` first (HexDame).
const blackToMove = (fen) => fen.endsWith(" b") || fen.startsWith("B:");

const state = {
  setup: null,
  game: null, // the server's snapshot
  shown: null, // the ply shown (null: the last)
  flipped: false,
  selected: [], // squares clicked toward a move
  version: 0,
  analysing: null, // the engine analysing the position shown, if any
  highlight: [], // a dice game's columns of the choice under the pointer
};

/// A game's moves (a board game) or events (a dice game).
const movesOf = (game) => game.moves || game.events;
const isDice = (game) => game.family === "dice";

async function api(path, body) {
  const options = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function showError(message) {
  $("error").hidden = !message;
  $("error").textContent = message || "";
}

/// Takes a state of the game shown. A state can arrive late: a move's answer after the
/// stream's newer state, or the answer of a request sent before the tab moved on to another
/// game (a poll or a move of the game shown before, answered after the new game's own state).
/// Such a state never goes back: not to an older version, nor to another game, which only
/// `show` (a new game, a record opened, the tab's game found again) may bring in.
function accept(game) {
  if (state.game && game.id !== state.game.id) return;
  if (state.game && game.version < state.game.version) return;
  state.game = game;
  state.received = performance.now();
  listen(game.id);
  sessionStorage.setItem("steere-game", String(game.id));
  if (game.version !== state.version) {
    state.version = game.version;
    const moves = movesOf(game).map((m) => m.text).join(" ");
    if (moves !== state.moves) {
      // The game changed: show its last position and forget a half-made move.
      state.moves = moves;
      state.selected = [];
      state.highlight = [];
      state.shown = null;
    }
    render();
  }
}

/// Shows `game` in the tab instead of the one it showed: from its last position, nothing
/// half-made kept.
function show(game) {
  state.game = null;
  state.version = 0;
  state.moves = null;
  accept(game);
}

/// The ply shown and whether it is the game's last position.
function shownPly() {
  const last = movesOf(state.game).length;
  return state.shown === null ? last : Math.min(state.shown, last);
}

function humanToMove() {
  const g = state.game;
  if (isDice(g)) return false; // cantstop.js offers a dice game's decisions
  const side = g.position.to_move === "white" ? 0 : 1;
  return g.players[side] === "human" && !g.position.result && !g.time_loss && shownPly() === g.moves.length;
}

/// `m:ss.t` for a clock's milliseconds (never below zero).
function clockText(ms) {
  const t = Math.max(0, ms);
  const minutes = Math.floor(t / 60000);
  const seconds = ((t % 60000) / 1000).toFixed(1).padStart(4, "0");
  return `${minutes}:${seconds}`;
}

/// The clocks, the side to move's running down since the state was received.
function renderClocks() {
  const g = state.game && !isDice(state.game) ? state.game : null;
  $("clocks").hidden = !g || !g.clocks;
  if (!g || !g.clocks) return;
  const running = g.position.result || g.time_loss ? -1 : g.position.to_move === "white" ? 0 : 1;
  ["white", "black"].forEach((name, side) => {
    const left = g.clocks[side] - (side === running ? performance.now() - state.received : 0);
    const span = $(`clock-${name}`);
    span.textContent = `${name} ${clockText(left)}`;
    span.className = side === running ? "running" : "";
  });
}

/// The legal moves still possible after the squares clicked so far.
function candidates() {
  if (!humanToMove()) return [];
  return state.game.position.legal.filter((m) => {
    const squares = squaresOf(m);
    return state.selected.every((s, i) => squares[i] === s);
  });
}

function render() {
  const g = state.game;
  if (!g) return;
  const ply = shownPly();
  const fen = g.position.history[ply];
  document.body.classList.toggle("dice", isDice(g));
  if (isDice(g)) {
    $("fen").value = fen;
    $("seed-line").textContent = `Seed ${g.seed} (the same seed and choices give the same dice)`;
    showError(g.error);
    $("resume").hidden = !g.error;
    renderDice(ply);
    return;
  }
  drawBoard(g.variant, fen, ply);
  $("fen").value = fen;
  const moves = $("moves");
  moves.innerHTML = "";
  g.moves.forEach((m, i) => {
    if (i % 2 === 0) moves.appendChild(document.createElement("li"));
    const span = document.createElement("span");
    span.textContent = m.text;
    span.dataset.ply = String(i + 1);
    if (m.score) span.title = `depth ${m.depth ?? "?"} score ${m.score}`;
    if (m.score) {
      const note = document.createElement("small");
      note.textContent = ` ${m.score.replace("cp ", "")}`;
      span.appendChild(note);
    }
    if (i + 1 === ply) span.classList.add("current");
    span.onclick = () => { state.shown = i + 1; state.selected = []; render(); };
    moves.lastChild.appendChild(span);
  });
  let status;
  if (g.time_loss && ply === g.moves.length) status = `Game over: ${g.time_loss} has lost on time`;
  else if (g.position.result && ply === g.moves.length) status = `Game over: ${g.position.result}`;
  else if (ply !== g.moves.length) status = `Viewing move ${ply} of ${g.moves.length}`;
  else if (g.thinking) status = `${g.players[g.position.to_move === "white" ? 0 : 1]} is thinking...`;
  else status = `${g.position.to_move} to move`;
  $("status").textContent = status;
  showError(g.error);
  $("resume").hidden = !g.error;
  $("play-from-here").hidden = ply === g.moves.length;
  $("pass").hidden = !(humanToMove() && g.position.legal.includes("pass"));
  renderChoice();
  renderAnalysis(ply);
  renderGraph(ply);
  renderClocks();
}

/// A score as people read it: `+0.35` for `cp 35`, `win in 3` / `loss in 3` for `mate 3` /
/// `mate -3` (own moves of the side to move).
function scoreText(score) {
  if (!score) return "";
  const [kind, value] = score.split(" ");
  const n = Number(value);
  if (kind === "mate") return n > 0 ? `win in ${n}` : `loss in ${-n}`;
  return (n >= 0 ? "+" : "") + (n / 100).toFixed(2);
}

function renderAnalysis(ply) {
  $("analyse").textContent = state.analysing ? "Stop" : "Analyse";
  const a = state.game.analysis;
  if (!a) { $("analysis-line").textContent = ""; return; }
  if (state.analysing && a.ply !== ply) {
    // The position shown changed: analyse the new one.
    action("/api/analyse", { engine: state.analysing, ply });
    return;
  }
  const parts = [a.engine, a.running ? "thinking" : "stopped"];
  if (a.depth) parts.push(`depth ${a.depth}`);
  if (a.score) parts.push(`score ${scoreText(a.score)}`);
  if (a.nps) parts.push(`${(a.nps / 1e6).toFixed(2)} M nodes/s`);
  if (a.pv.length) parts.push(`pv ${a.pv.join(" ")}`);
  if (a.error) parts.push(a.error);
  $("analysis-line").textContent = parts.join(" | ");
}

/// The engines' scores of their own moves over the game, from White's side (a proven result
/// is drawn at the edge), and a mark at the move shown.
function renderGraph(ply) {
  const g = state.game;
  const svg = $("graph");
  svg.innerHTML = "";
  const width = 200, height = 60, moves = g.moves.length;
  const x = (i) => (moves ? (i / moves) * width : 0);
  const y = (v) => height / 2 - (Math.max(-600, Math.min(600, v)) / 600) * (height / 2 - 2);
  const axis = document.createElementNS(SVG, "line");
  Object.entries({ x1: 0, y1: height / 2, x2: width, y2: height / 2, class: "axis" }).forEach(([k, v]) => axis.setAttribute(k, v));
  svg.appendChild(axis);
  const points = [];
  g.moves.forEach((m, i) => {
    if (!m.score) return;
    const [kind, value] = m.score.split(" ");
    let v = kind === "mate" ? Math.sign(Number(value)) * 600 : Number(value);
    if (blackToMove(g.position.history[i])) v = -v;
    points.push(`${x(i + 1).toFixed(1)},${y(v).toFixed(1)}`);
  });
  if (points.length) {
    const line = document.createElementNS(SVG, "polyline");
    line.setAttribute("points", points.join(" "));
    line.setAttribute("class", "eval");
    svg.appendChild(line);
  }
  const now = document.createElementNS(SVG, "line");
  Object.entries({ x1: x(ply), y1: 0, x2: x(ply), y2: height, class: "now" }).forEach(([k, v]) => now.setAttribute(k, v));
  svg.appendChild(now);
}

function drawBoard(variant, fen, ply) {
  if (HEX_VARIANTS.has(variant)) return drawHexBoard(fen, ply);
  const board = boardOf(variant);
  const size = board.size(variant);
  const pieces = board.pieces(fen, size);
  const cell = 100 / (size + 0.6);
  const svg = $("board");
  svg.innerHTML = "";
  const at = (file, rank) => {
    const f = state.flipped ? size - 1 - file : file;
    const r = state.flipped ? rank : size - 1 - rank;
    return [0.6 * cell + f * cell, r * cell];
  };
  const last = ply > 0 ? squaresOf(state.game.moves[ply - 1].text) : [];
  const next = new Set(candidates().map((m) => squaresOf(m)[state.selected.length]).filter(Boolean));
  const analysis = state.game.analysis;
  const best = analysis && analysis.ply === ply && analysis.pv.length ? squaresOf(analysis.pv[0]) : [];
  for (let rank = 0; rank < size; rank++) {
    for (let file = 0; file < size; file++) {
      const [x, y] = at(file, rank);
      const square = name(file, rank);
      const dark = (file + rank) % 2 === 0;
      const rect = document.createElementNS(SVG, "rect");
      Object.entries({ x, y, width: cell, height: cell }).forEach(([k, v]) => rect.setAttribute(k, v));
      let cls = dark ? "dark" : "light";
      if (dark && last.includes(square)) cls = "lastmove";
      if (state.selected.includes(square)) cls = "selected";
      else if (next.has(square)) cls = "target";
      rect.setAttribute("class", cls);
      rect.dataset.square = square;
      rect.onclick = () => clickSquare(square);
      svg.appendChild(rect);
      const piece = pieces[square];
      if (piece) drawPiece(svg, piece, x + cell / 2, y + cell / 2, cell, square);
    }
  }
  drawBestMove(svg, best, at, cell);
  for (let i = 0; i < size; i++) {
    const [fx] = at(i, 0);
    const [, ry] = at(0, i);
    label(svg, String.fromCharCode(97 + i), fx + cell / 2, size * cell + 0.3 * cell, "coord");
    label(svg, String(i + 1), 0.3 * cell, ry + cell / 2, "coord");
  }
  svg.setAttribute("viewBox", `0 0 ${(size + 0.6) * cell} ${(size + 0.6) * cell}`);
}

/// The analysing engine's best move as an arrow from its first square to its last (a ring
/// for a move of one square, such as an exit or an impasse removal).
function drawBestMove(svg, squares, at, cell) {
  if (!squares.length) return;
  const center = (sq) => {
    const [x, y] = at(sq.charCodeAt(0) - 97, Number(sq.slice(1)) - 1);
    return [x + cell / 2, y + cell / 2];
  };
  const [x1, y1] = center(squares[0]);
  const [x2, y2] = center(squares[squares.length - 1]);
  const mark = document.createElementNS(SVG, squares.length > 1 ? "line" : "circle");
  const attributes = squares.length > 1 ? { x1, y1, x2, y2 } : { cx: x1, cy: y1, r: cell * 0.45 };
  Object.entries({ ...attributes, class: "best" }).forEach(([k, v]) => mark.setAttribute(k, v));
  mark.dataset.move = squares.join("");
  svg.appendChild(mark);
}

function drawPiece(svg, piece, cx, cy, cell, square) {
  for (let k = piece.count - 1; k >= 0; k--) {
    const circle = document.createElementNS(SVG, "circle");
    circle.setAttribute("cx", cx);
    circle.setAttribute("cy", cy - k * cell * 0.08);
    circle.setAttribute("r", cell * 0.36);
    circle.setAttribute("class", `piece-${piece.color}`);
    circle.dataset.square = square;
    circle.onclick = () => clickSquare(square);
    svg.appendChild(circle);
  }
  if (piece.label) label(svg, piece.label, cx, cy - (piece.count - 1) * cell * 0.08, `label-${piece.color}`, square);
}

function label(svg, text, x, y, cls, square) {
  const t = document.createElementNS(SVG, "text");
  t.setAttribute("x", x);
  t.setAttribute("y", y);
  t.setAttribute("text-anchor", "middle");
  t.setAttribute("dominant-baseline", "central");
  t.setAttribute("class", cls);
  t.textContent = text;
  if (square) {
    t.dataset.square = square;
    t.onclick = () => clickSquare(square);
  }
  svg.appendChild(t);
}

/// A click on a square: extends the selection toward a legal move; plays the move once it is
/// the only one left, or asks which one when several end there (crowns, exits).
function clickSquare(square) {
  if (!humanToMove()) return;
  const before = state.selected;
  state.selected = [...before, square];
  let moves = candidates();
  if (moves.length === 0) {
    // Not a continuation: start again from this square if moves start there.
    state.selected = [square];
    moves = candidates();
    if (moves.length === 0) state.selected = [];
  }
  const exact = moves.filter((m) => squaresOf(m).length === state.selected.length && !/off/.test(m));
  if (moves.length === 1 && exact.length === 1) return play(moves[0]);
  if (exact.length === 1 && before.length > 0 && before[before.length - 1] === square) return play(exact[0]);
  render();
}

/// The buttons of a choice that squares alone cannot make: exits off the board (Dipole), or
/// an exact move that is also the start of longer ones; and, for a HexDame capture under way,
/// its whole paths, as a shortcut for clicking every landing cell.
function renderChoice() {
  const box = $("choice");
  box.innerHTML = "";
  const moves = state.selected.length ? candidates() : [];
  const exits = moves.filter((m) => /off\d+$/.test(m) && squaresOf(m).length === state.selected.length);
  const exact = moves.filter((m) => squaresOf(m).length === state.selected.length && !/off/.test(m));
  const longer = moves.filter((m) => squaresOf(m).length > state.selected.length);
  const hex = HEX_VARIANTS.has(state.game.variant);
  const crowns = !hex && longer.length > 0 && state.selected.length >= 2;
  const paths = hex ? longer.filter((m) => m.includes("x")) : [];
  const buttons = [...exits, ...(longer.length && !hex ? exact : []), ...(paths.length <= 12 ? paths : [])];
  if (crowns) {
    const note = document.createElement("span");
    note.textContent = "Crown: click the single to stack, highlighted.";
    box.appendChild(note);
  }
  if (paths.length && paths.length <= 12) {
    const note = document.createElement("span");
    note.textContent = "Capture: click each landing cell in turn, or choose:";
    box.appendChild(note);
  }
  for (const m of buttons) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = /off(\d+)$/.test(m) ? `exit ${m.match(/off(\d+)$/)[1]}` : m;
    b.dataset.move = m;
    b.onclick = () => play(m);
    box.appendChild(b);
  }
  box.hidden = buttons.length === 0 && !crowns;
}

async function play(move) {
  state.selected = [];
  try {
    accept(await api("/api/move", { id: state.game.id, move }));
  } catch (e) {
    showError(e.message);
    render();
  }
}

async function action(path, extra) {
  if (!state.game) return;
  try {
    accept(await api(path, { id: state.game.id, ...extra }));
  } catch (e) {
    showError(e.message);
  }
}

async function newGame(event) {
  if (event) event.preventDefault();
  try {
    if (variantInfo($("variant").value)?.family === "dice") return await newDiceGame();
    const clock = $("clock").value.trim().match(/^(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$/);
    if ($("clock").value.trim() && !clock) throw new Error("clock: expected minutes+seconds, e.g. 5+3");
    const game = await api("/api/new", {
      variant: $("variant").value,
      fen: $("setup-fen").value.trim() || null,
      players: [$("white").value, $("black").value],
      movetime: Number($("movetime").value) || 1000,
      clock: clock ? [Math.round(Number(clock[1]) * 60000), Math.round(Number(clock[2] || 0) * 1000)] : null,
    });
    $("record-games").hidden = true; // the record chooser belongs to the record's games
    show(game);
  } catch (e) {
    showError(e.message);
  }
}

/// The setup's entry of a variant.
const variantInfo = (name) => state.setup.variants.find((v) => v.name === name);

/// The text of the record file opened, to open its other games.
let recordText = null;

async function openRecord(index) {
  try {
    const data = await api("/api/load", { text: recordText, index });
    const select = $("record-games");
    select.innerHTML = "";
    data.games.forEach((title, i) => select.add(new Option(title, String(i))));
    select.value = String(index);
    select.hidden = false;
    show(data.game);
    state.shown = 0; // replay from the start
    render();
  } catch (e) {
    showError(e.message);
  }
}

async function saveGame() {
  const response = await fetch(`/api/record?id=${state.game.id}`);
  const text = await response.text();
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  link.download = `steere-${state.game.variant}-${state.game.id}.pgn`;
  link.click();
  URL.revokeObjectURL(link.href);
}

/// The event stream of the game shown: every change of the game (an engine's move, an
/// analysis line, a clock's flag) arrives as it happens, and at least once a second.
let events = null;

function listen(id) {
  if (events && events.id === id) return;
  if (events) events.source.close();
  const source = new EventSource(`/api/events?id=${id}`);
  source.onmessage = (message) => {
    accept(JSON.parse(message.data));
  };
  events = { id, source };
}

/// A slow poll besides the stream, in case the stream is cut (it reconnects by itself, and
/// this covers the gap).
async function poll() {
  if (state.game) {
    try {
      accept(await api(`/api/game?id=${state.game.id}`));
    } catch (e) {
      showError(e.message);
    }
  }
  setTimeout(poll, 3000);
}

function step(delta) {
  if (!state.game) return;
  const ply = Math.max(0, Math.min(movesOf(state.game).length, shownPly() + delta));
  state.shown = ply;
  state.selected = [];
  render();
}

async function init() {
  state.setup = await api("/api/setup");
  for (const v of state.setup.variants) $("variant").add(new Option(v.name, v.name));
  for (const select of document.querySelectorAll(".player")) {
    select.add(new Option("human", "human"));
    for (const e of state.setup.engines) select.add(new Option(e, e));
  }
  $("black").value = state.setup.engines[0] || "human";
  // Dice seats: a person first, engines after.
  document.querySelectorAll(".seat-player").forEach((select, k) => {
    select.value = k === 0 ? "human" : state.setup.engines[0] || "human";
  });
  $("variant").onchange = updateForm;
  $("players").onchange = updateForm;
  for (const select of document.querySelectorAll(".seat-player")) select.onchange = updateForm;
  $("to-latest").onclick = () => { state.shown = null; render(); };
  for (const e of state.setup.engines) $("analyser").add(new Option(e, e));
  $("analyse").onclick = () => {
    state.analysing = state.analysing ? null : $("analyser").value;
    action("/api/analyse", { engine: state.analysing, ply: shownPly() });
  };
  $("new-game").onsubmit = newGame;
  updateForm();
  $("flip").onclick = () => { state.flipped = !state.flipped; render(); };
  $("takeback").onclick = () => action("/api/takeback");
  $("resume").onclick = () => action("/api/resume");
  $("pass").onclick = () => play("pass");
  $("play-from-here").onclick = () => action("/api/truncate", { ply: shownPly() });
  $("save").onclick = saveGame;
  $("copy-fen").onclick = async () => {
    // The clipboard needs a secure context (localhost is one); selecting the text also works.
    $("fen").select();
    try {
      await navigator.clipboard.writeText($("fen").value);
      $("copy-fen").textContent = "Copied";
      setTimeout(() => { $("copy-fen").textContent = "Copy"; }, 1200);
    } catch (e) {
      document.execCommand("copy");
    }
  };
  $("open-record").onchange = async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    recordText = await file.text();
    openRecord(0);
  };
  $("record-games").onchange = (e) => openRecord(Number(e.target.value));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") step(-1);
    if (e.key === "ArrowRight") step(1);
  });
  const saved = sessionStorage.getItem("steere-game");
  if (saved) {
    try {
      show(await api(`/api/game?id=${saved}`));
    } catch (e) {
      await newGame();
    }
  } else {
    await newGame();
  }
  poll();
  setInterval(renderClocks, 100);
}

init().catch((e) => showError(e.message));
