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
  formError: null, // why the last new game was refused, until one starts
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
  // A refused new game stays said until a game is started: the game still shown keeps
  // sending its states, and each would otherwise clear it.
  const text = message || state.formError;
  $("error").hidden = !text;
  $("error").textContent = text || "";
}

/// Says why the new game was refused (kept over the running game's states, see showError).
function showFormError(message) {
  state.formError = message;
  showError(message);
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
  linkTo(game.id);
  if (game.version !== state.version) {
    state.version = game.version;
    const moves = movesOf(game).map((m) => m.text).join(" ");
    if (moves !== state.moves) {
      // The game changed: show its last position and forget a half-made move.
      if (state.moves !== null && state.moves !== undefined && moves.length > state.moves.length) sound("move");
      state.moves = moves;
      state.selected = [];
      state.highlight = [];
      state.shown = null;
    }
    render();
  }
}

/// The page's address names the game shown (`/#game=N`), so that it can be shared or opened
/// again. Written once the page has loaded, and without a navigation: `replaceState` leaves the
/// history alone.
function linkTo(id) {
  const hash = `#game=${id}`;
  if (state.loaded && location.hash !== hash) history.replaceState(null, "", hash);
}

/// Shows `game` in the tab instead of the one it showed: from its last position, nothing
/// half-made kept.
function show(game) {
  state.formError = null;
  state.game = null;
  state.version = 0;
  state.moves = null;
  state.over = null;
  $("gameover").hidden = true; // the end of the game shown before
  syncForm(game);
  renderRules(game.variant);
  // A person playing Black alone sees the board from Black's side.
  if (!isDice(game)) state.flipped = game.players[1] === "human" && game.players[0] !== "human";
  accept(game);
}

/// The form shows the game shown, not its defaults: after a reload or a record opened too.
function syncForm(game) {
  $("variant").value = game.variant;
  updateForm(); // the variant's own fields (a dice game's numbers of players) first
  fillRuleOptions();
  for (const select of document.querySelectorAll("#rule-options .rule-option")) {
    select.value = (game.options && game.options[select.dataset.option]) || select.options[0].value;
  }
  $("movetime").value = String(game.movetime);
  if (!isDice(game)) {
    ["white", "black"].forEach((name, side) => {
      $(name).value = game.players[side];
      const level = game.levels ? game.levels[side] : null;
      $(`${name}-level`).value = level === null || level === undefined ? "9" : String(level);
    });
  } else {
    $("players").value = String(game.seats.length);
    if ([...$("pace").options].some((o) => o.value === String(game.pace))) $("pace").value = String(game.pace);
    document.querySelectorAll(".seat").forEach((span, k) => {
      const seat = game.seats[k];
      if (!seat) return;
      span.querySelector(".seat-player").value = seat.player;
      span.querySelector(".seat-strategy").value = seat.strategy || "search";
      span.querySelector(".seat-level").value = seat.level === null || seat.level === undefined ? "9" : String(seat.level);
    });
  }
  updateForm();
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

/// Below this a clock is drawn as running low.
const LOW_TIME_MS = 10000;

/// The clocks in the players' strip, the side to move's running down since the state was
/// received; a flagged side's reads 0:00.0.
function renderClocks() {
  const g = state.game && !isDice(state.game) ? state.game : null;
  if (!g || !g.clocks) return;
  const running = g.position.result || g.time_loss ? -1 : g.position.to_move === "white" ? 0 : 1;
  ["white", "black"].forEach((name, side) => {
    const span = $(`clock-${name}`);
    if (!span) return;
    const flagged = g.time_loss === name;
    const left = flagged ? 0 : g.clocks[side] - (side === running ? performance.now() - state.received : 0);
    span.textContent = clockText(left);
    span.className = ["clock", side === running ? "running" : "", left < LOW_TIME_MS ? "low" : "", flagged ? "flagged" : ""].join(" ").trim();
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
    // The rule options differing from the defaults: the FEN does not show them.
    // In the order of the variant's options (the form's), which a JSON object does not keep.
    const declared = (variantInfo(g.variant) || {}).options || [];
    const options = declared.filter((o) => g.options && g.options[o.name]).map((o) => `${o.name} ${g.options[o.name]}`);
    const rules = options.length ? `; rules: ${options.join(", ")}` : "";
    $("seed-line").textContent = `Seed ${g.seed} (the same seed and choices give the same dice)${rules}`;
    showError(g.error);
    $("resume").hidden = !g.error;
    renderDice(ply);
    return;
  }
  drawBoard(g.variant, fen, ply);
  $("fen").value = fen;
  renderMoves(g, ply);
  const last = ply === g.moves.length;
  let status;
  if (g.time_loss && last) status = `Game over: ${g.time_loss} has lost on time`;
  else if (g.position.result && last) status = `Game over: ${g.position.result}`;
  else if (!last) status = `Viewing ${moveLabel(g, ply)} (ply ${ply} of ${g.moves.length}): press End to return`;
  else if (g.paused) status = "Engine play paused: press Resume engine play to go on";
  else if (g.thinking) status = `${g.players[g.position.to_move === "white" ? 0 : 1]} is thinking...`;
  else status = `${g.position.to_move} to move`;
  $("status").textContent = status;
  showError(g.error);
  $("resume").hidden = !g.error && !g.paused;
  $("play-from-here").hidden = last;
  $("pass").hidden = !(humanToMove() && g.position.legal.includes("pass"));
  const people = g.players.filter((p) => p === "human").length;
  const playing = last && !g.position.result && !g.time_loss;
  $("resign").hidden = !(playing && people > 0);
  $("offer-draw").hidden = !(playing && people > 0 && g.draws && !g.draw_offer);
  $("hint").hidden = !humanToMove() || !state.setup.engines.length;
  $("takeback").hidden = g.moves.length === 0;
  $("draw-offer").hidden = !(playing && g.draw_offer);
  $("draw-offer-text").textContent = g.draw_offer ? `${g.draw_offer} offers a draw.` : "";
  const note = explanation(g, ply, humanToMove());
  $("explain").hidden = !note;
  $("explain").textContent = note;
  renderStrip(g, fen, ply, Boolean(g.clocks));
  renderChoice();
  renderMoveInput();
  renderAnalysis(ply);
  renderGraph(ply);
  renderClocks();
  renderBar(g, ply);
  renderReview(g);
  renderGameOver(g);
}

/// `move 12 (black): d2f4`, the list's numbering of ply `ply` (from 1).
function moveLabel(g, ply) {
  if (ply === 0) return "the start position";
  const side = blackToMove(g.position.history[ply - 1]) ? "black" : "white";
  return `move ${Math.floor((ply - 1) / 2) + 1} (${side}) ${g.moves[ply - 1].text}`;
}

/// The move list, a pair of moves a line, numbered; each engine move with its score from
/// White's side (and a review's mark); the move shown scrolled into view.
function renderMoves(g, ply) {
  const moves = $("moves");
  moves.innerHTML = "";
  const marks = reviewMarks(g);
  let current = null;
  g.moves.forEach((m, i) => {
    if (i % 2 === 0) moves.appendChild(document.createElement("li"));
    const span = document.createElement("span");
    span.textContent = m.text;
    span.dataset.ply = String(i + 1);
    const black = blackToMove(g.position.history[i]);
    if (m.score) span.title = `depth ${m.depth ?? "?"}, ${evalWords(m.score, black)}`;
    if (marks[i + 1]) {
      span.classList.add(`mark-${marks[i + 1]}`);
      span.dataset.mark = marks[i + 1];
      span.title = `${marks[i + 1]}${span.title ? "; " + span.title : ""}`;
      span.textContent += MARK_SIGNS[marks[i + 1]];
    }
    if (m.score) {
      const note = document.createElement("small");
      note.textContent = ` ${evalText(m.score, black)}`;
      span.appendChild(note);
    }
    if (i + 1 === ply) {
      span.classList.add("current");
      current = span;
    }
    span.onclick = () => { state.shown = i + 1; state.selected = []; render(); };
    moves.lastChild.appendChild(span);
  });
  // The list follows the game: the move shown (the last one while playing) stays in sight.
  if (current) current.scrollIntoView({ block: "nearest" });
  else moves.scrollTop = 0;
}

/// The evaluation bar: the analysis of the position shown while there is one, else the score
/// of the engine move that led to it.
function renderBar(g, ply) {
  const a = g.analysis;
  let score = null, black = blackToMove(g.position.history[ply]);
  if (a && a.ply === ply && a.score) score = a.score;
  else if (ply > 0 && g.moves[ply - 1].score) {
    score = g.moves[ply - 1].score;
    black = blackToMove(g.position.history[ply - 1]);
  }
  renderEvalBar(whiteValue(score, black), evalText(score, black), $("show-evalbar").checked);
}

/// The game's end, once: a banner over the board and a sound, when the game ends while shown.
function renderGameOver(g) {
  const over = g.time_loss ? `${g.time_loss} has lost on time` : g.position.result;
  if (over && state.over === null) state.over = over; // already over when opened: no banner
  if (!over) state.over = "";
  if (over && state.over === "") {
    state.over = over;
    $("gameover-text").textContent = `Game over: ${over}`;
    $("gameover").hidden = false;
    sound("end");
  }
  if (!over) $("gameover").hidden = true;
}

function renderAnalysis(ply) {
  $("analyse").textContent = state.analysing ? "Stop" : "Analyse";
  const a = state.game.analysis;
  const lines = $("analysis-lines");
  lines.innerHTML = "";
  renderTables(a && state.analysing && a.ply === ply ? a.tablebase : null);
  if (!a || !state.analysing) { $("analysis-line").textContent = ""; return; }
  if (a.ply !== ply) {
    // The position shown changed: analyse the new one.
    action("/api/analyse", { engine: state.analysing, ply, multipv: Number($("multipv").value) });
    return;
  }
  const black = blackToMove(a.fen);
  const parts = [a.engine, a.running ? "thinking" : "stopped"];
  if (a.depth) parts.push(`depth ${a.depth}`);
  if (a.score) parts.push(evalWords(a.score, black));
  if (a.nps) parts.push(`${(a.nps / 1e6).toFixed(2)} M nodes/s`);
  if (a.error) parts.push(a.error);
  $("analysis-line").textContent = parts.join(" | ");
  const shown = a.lines && a.lines.length ? a.lines : [{ multipv: 1, depth: a.depth, score: a.score, pv: a.pv }];
  for (const line of shown) {
    if (!line.pv.length) continue;
    const li = document.createElement("li");
    li.dataset.multipv = String(line.multipv);
    const score = document.createElement("b");
    score.textContent = evalText(line.score, black);
    li.append(score, ` ${line.pv.join(" ")}`);
    lines.appendChild(li);
  }
}

/// The endgame tables' verdict on the position analysed (`steere gui --tables`): its value and
/// its moves best first (the fastest wins, then the longest losses), or nothing.
function renderTables(lines) {
  const box = $("analysis-tables");
  box.hidden = !lines || !lines.length;
  box.innerHTML = "";
  if (box.hidden) return;
  const words = (value) => {
    const [result, n] = value.split(" ");
    return result === "win" || result === "loss" ? `${result} in ${n}` : value;
  };
  const rank = (value) => {
    const [result, n] = value.split(" ");
    if (result === "win") return Number(n);
    if (result === "loss") return 1000 - Number(n);
    return 500;
  };
  const value = lines[0].replace(/^value /, "");
  const moves = lines.slice(1).map((l) => l.split(" ")).map(([, mv, ...v]) => [mv, v.join(" ")]);
  moves.sort((x, y) => rank(x[1]) - rank(y[1]) || (x[0] < y[0] ? -1 : 1));
  const head = document.createElement("b");
  head.textContent = `Tablebase: ${words(value)}`;
  box.append(head, moves.length ? ` | ${moves.map(([mv, v]) => `${mv} ${words(v)}`).join(", ")}` : "");
}

/// The review's mark of each ply (`blunder`, `mistake`, `inaccuracy`), where the review is
/// of the moves the game has now.
function reviewMarks(g) {
  const r = reviewOf(g);
  const marks = {};
  if (!r) return marks;
  for (const p of r.plies) if (p && p.mark) marks[p.ply] = p.mark;
  return marks;
}

/// The game's review if it reviewed the moves the game starts with now (a review outlives
/// neither a take-back of its moves nor another line played from an earlier move).
function reviewOf(g) {
  const r = g.review;
  if (!r || !r.plies || !r.moves) return null;
  const same = r.moves.length <= g.moves.length && r.moves.every((t, i) => g.moves[i].text === t);
  return same ? r : null;
}

/// The signs a review adds to a marked move, as in annotated games.
const MARK_SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/// The scores over the game from White's side: the review's where there is one, else the
/// engines' of their own moves; a proven result is drawn at the edge. Marked moves are dots,
/// the move shown a red line, and a click goes to the move under it.
function renderGraph(ply) {
  const g = state.game;
  const svg = $("graph");
  svg.innerHTML = "";
  const width = 200, height = 60, moves = g.moves.length;
  const x = (i) => (moves ? (i / moves) * width : 0);
  const y = (v) => height / 2 - (Math.max(-600, Math.min(600, v)) / 600) * (height / 2 - 2);
  const add = (tag, attributes, text) => {
    const node = document.createElementNS(SVG, tag);
    Object.entries(attributes).forEach(([k, v]) => node.setAttribute(k, v));
    if (text) node.textContent = text;
    svg.appendChild(node);
    return node;
  };
  add("rect", { x: 0, y: 0, width, height: height / 2, class: "white-half" });
  add("line", { x1: 0, y1: height / 2, x2: width, y2: height / 2, class: "axis" });
  add("text", { x: 2, y: 6, class: "graph-label" }, "White ahead");
  add("text", { x: 2, y: height - 2, class: "graph-label" }, "Black ahead");
  const values = [];
  const review = reviewOf(g);
  if (review && review.plies.length > 1) {
    review.plies.forEach((p, k) => {
      if (p && p.score && k <= moves) values.push([k, whiteValue(p.score, blackToMove(g.position.history[k]))]);
    });
  } else {
    g.moves.forEach((m, i) => {
      if (m.score) values.push([i + 1, whiteValue(m.score, blackToMove(g.position.history[i]))]);
    });
  }
  if (values.length) {
    add("polyline", { points: values.map(([k, v]) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" "), class: "eval" });
  }
  const marks = reviewMarks(g);
  for (const [k, mark] of Object.entries(marks)) {
    const value = values.find(([i]) => i === Number(k));
    const dot = add("circle", { cx: x(Number(k)), cy: value ? y(value[1]) : height / 2, r: 2, class: `graph-mark mark-${mark}` });
    dot.dataset.ply = k;
  }
  add("line", { x1: x(ply), y1: 0, x2: x(ply), y2: height, class: "now" });
  svg.onclick = (event) => {
    if (!moves) return;
    const box = svg.getBoundingClientRect();
    state.shown = Math.max(0, Math.min(moves, Math.round(((event.clientX - box.left) / box.width) * moves)));
    state.selected = [];
    render();
  };
}

/// A game review's progress and summary (the counts of marks per side; each mark is a link to
/// its move).
function renderReview(g) {
  const r = g.review;
  $("review").textContent = r && r.running ? "Stop review" : "Review game";
  $("review-progress").hidden = !r || !r.running;
  const summary = $("review-summary");
  summary.innerHTML = "";
  if (!r) return;
  $("review-progress").max = r.total || 1;
  $("review-progress").value = r.done || 0;
  if (r.error) summary.textContent = r.error;
  const marks = reviewMarks(g);
  const plies = Object.keys(marks).map(Number).sort((a, b) => a - b);
  const head = document.createElement("div");
  head.textContent = r.running
    ? `Reviewing at depth ${r.depth}: ${r.done} of ${r.total} positions`
    : `Reviewed at depth ${r.depth} by ${r.engine}: ${plies.length ? plies.length + " marked moves" : "no move marked"}`;
  summary.appendChild(head);
  for (const ply of plies) {
    const link = document.createElement("button");
    link.type = "button";
    link.className = `mark-link mark-${marks[ply]}`;
    link.dataset.ply = String(ply);
    link.textContent = `${marks[ply]}: ${moveLabel(g, ply)}`;
    link.onclick = () => { state.shown = ply; state.selected = []; render(); };
    summary.appendChild(link);
  }
}

/// Room above the top row, in cells, for the tallest stacks drawn there.
const TOP_MARGIN = 0.25;

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
    return [0.6 * cell + f * cell, TOP_MARGIN * cell + r * cell];
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
    label(svg, String.fromCharCode(97 + i), fx + cell / 2, (size + TOP_MARGIN) * cell + 0.3 * cell, "coord");
    label(svg, String(i + 1), 0.3 * cell, ry + cell / 2, "coord");
  }
  svg.setAttribute("viewBox", `0 0 ${(size + 0.6) * cell} ${(size + 0.6 + TOP_MARGIN) * cell}`);
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
  const attributes = squares.length > 1 ? { x1, y1, x2, y2, "marker-end": "url(#arrowhead)" } : { cx: x1, cy: y1, r: cell * 0.45 };
  arrowhead(svg);
  Object.entries({ ...attributes, class: "best" }).forEach(([k, v]) => mark.setAttribute(k, v));
  mark.dataset.move = squares.join("");
  svg.appendChild(mark);
}

/// The arrowhead of the best move's arrow, defined once per drawing.
function arrowhead(svg) {
  if (svg.querySelector("#arrowhead")) return;
  const defs = document.createElementNS(SVG, "defs");
  defs.innerHTML = '<marker id="arrowhead" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="best-head"/></marker>';
  svg.appendChild(defs);
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
  const exitCount = (m) => Number(m.match(/off(\d+)$/)[1]);
  const exits = moves
    .filter((m) => /off\d+$/.test(m) && squaresOf(m).length === state.selected.length)
    .sort((a, b) => exitCount(a) - exitCount(b));
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
  if (exits.length) {
    const note = document.createElement("span");
    note.textContent = "How many checkers leave the board?";
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

/// The typed move's box: open while a person is to move, its suggestions the legal moves.
function renderMoveInput() {
  const open = humanToMove();
  const input = $("move-input");
  input.disabled = !open;
  const legal = open ? state.game.position.legal : [];
  const list = $("legal-moves");
  if (list.dataset.moves !== legal.join(" ")) {
    list.innerHTML = "";
    for (const m of legal) list.appendChild(new Option(m, m));
    list.dataset.moves = legal.join(" ");
  }
  if (!open) input.value = "";
}

/// The legal move a typed text names: itself (letters in any case, spaces ignored), or the
/// only legal move it begins; an error that says why otherwise.
function typedMove(text, legal) {
  const typed = text.trim().toLowerCase().replace(/\s+/g, "");
  if (!typed) throw new Error("type a move, e.g. " + (legal[0] || "d2f4"));
  const exact = legal.find((m) => m.toLowerCase() === typed);
  if (exact) return exact;
  const begun = legal.filter((m) => m.toLowerCase().startsWith(typed));
  if (begun.length === 1) return begun[0];
  if (begun.length > 1) throw new Error(`${typed} begins several moves: ${begun.slice(0, 8).join(", ")}`);
  throw new Error(`${typed} is not a legal move here (${legal.length} are: ${legal.slice(0, 8).join(", ")}${legal.length > 8 ? ", ..." : ""})`);
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
      options: ruleOptions(),
      players: [$("white").value, $("black").value],
      levels: [levelValue($("white-level"), $("white").value), levelValue($("black-level"), $("black").value)],
      movetime: Number($("movetime").value) || 1000,
      clock: clock ? [Math.round(Number(clock[1]) * 60000), Math.round(Number(clock[2] || 0) * 1000)] : null,
    });
    $("record-games").hidden = true; // the record chooser belongs to the record's games
    show(game);
  } catch (e) {
    showFormError(e.message);
  }
}

/// The rule options' fields of the variant chosen (Can't Stop: columns to win, its rule
/// variant), one select each, their defaults first; none for a game without options. Kept as
/// they are while the variant stays the same.
function fillRuleOptions() {
  const info = variantInfo($("variant").value);
  const box = $("rule-options");
  if (box.dataset.variant === (info ? info.name : "")) return;
  box.dataset.variant = info ? info.name : "";
  box.innerHTML = "";
  for (const option of (info && info.options) || []) {
    const label = document.createElement("label");
    label.title = option.help;
    label.append(`${option.label} `);
    const select = document.createElement("select");
    select.className = "rule-option";
    select.dataset.option = option.name;
    for (const value of option.values) select.add(new Option(value, value));
    label.append(select);
    box.append(label);
  }
}

/// The rule options chosen in the form, by name.
function ruleOptions() {
  const chosen = {};
  for (const select of document.querySelectorAll("#rule-options .rule-option")) chosen[select.dataset.option] = select.value;
  return chosen;
}

/// A level select's value for a seat of `player`: `null` for a person and for full strength
/// (level 9, the engine's default).
function levelValue(select, player) {
  const level = Number(select.value);
  return player === "human" || !Number.isInteger(level) || level >= 9 ? null : level;
}

/// The level selects' choices: 0 (the weakest) to 9 (full strength), named with the Elo the
/// variant's table measured (docs/levels.md) where the setup gives one.
function fillLevels(variant) {
  const info = variantInfo(variant);
  for (const select of document.querySelectorAll(".level")) {
    const keep = select.value || "9";
    select.innerHTML = "";
    for (let level = 0; level <= 9; level++) {
      const elo = info && info.levels ? info.levels[level] : null;
      const name = level === 9 ? "full strength" : `level ${level}`;
      select.add(new Option(elo ? `${name} (Elo ${elo})` : name, String(level)));
    }
    select.value = keep;
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

/// The tabs of this page answer each other over a channel: which game do you show?
const tabs = typeof BroadcastChannel === "function" ? new BroadcastChannel("steere-tabs") : null;
if (tabs) {
  tabs.onmessage = (message) => {
    if (message.data.ask && state.game && String(state.game.id) === message.data.ask) tabs.postMessage({ shows: message.data.ask });
  };
}

/// Whether another open tab shows game `id` (it answers within a moment).
function shownElsewhere(id) {
  if (!tabs) return Promise.resolve(false);
  return new Promise((resolve) => {
    const listener = (message) => { if (message.data.shows === id) resolve(true); };
    tabs.addEventListener("message", listener);
    tabs.postMessage({ ask: id });
    setTimeout(() => { tabs.removeEventListener("message", listener); resolve(false); }, 250);
  });
}

/// Starts (an engine's name) or stops (`null`) the analysis of the position shown; the page
/// shows the change at once.
function analyse(engine) {
  state.analysing = engine;
  render();
  action("/api/analyse", { engine, ply: shownPly(), multipv: Number($("multipv").value) });
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
  $("variant").onchange = () => { fillLevels($("variant").value); fillRuleOptions(); updateForm(); };
  $("players").onchange = updateForm;
  for (const select of document.querySelectorAll(".seat-player, .seat-strategy, #white, #black")) select.onchange = updateForm;
  fillLevels($("variant").value);
  fillRuleOptions();
  $("to-latest").onclick = () => { state.shown = null; render(); };
  $("skip-turn").onclick = () => action("/api/skip");
  for (const e of state.setup.engines) $("analyser").add(new Option(e, e));
  $("analyse").onclick = () => analyse(state.analysing ? null : $("analyser").value);
  $("hint").onclick = () => analyse(state.setup.engines[0]);
  $("multipv").onchange = () => { if (state.analysing) analyse(state.analysing); };
  $("review").onclick = () => {
    const running = state.game.review && state.game.review.running;
    action("/api/review", running ? {} : { engine: $("analyser").value, depth: Number($("review-depth").value) });
  };
  $("gameover-review").onclick = () => {
    $("gameover").hidden = true;
    action("/api/review", { engine: $("analyser").value, depth: Number($("review-depth").value) });
  };
  $("gameover-close").onclick = () => { $("gameover").hidden = true; };
  $("resign").onclick = () => {
    if (confirm("Resign this game?")) action("/api/resign");
  };
  $("offer-draw").onclick = () => action("/api/draw");
  $("draw-accept").onclick = () => action("/api/draw", { accept: true });
  $("draw-decline").onclick = () => action("/api/draw", { accept: false });
  $("show-evalbar").onchange = render;
  $("new-game").onsubmit = newGame;
  $("move-form").onsubmit = (event) => {
    event.preventDefault();
    if (!humanToMove()) return;
    try {
      const move = typedMove($("move-input").value, state.game.position.legal);
      $("move-input").value = "";
      showError(null);
      play(move);
    } catch (e) {
      showError(e.message);
    }
  };
  updateForm();
  $("flip").onclick = () => { state.flipped = !state.flipped; render(); };
  // Back to the person's last turn; between engines, one move back with their play paused.
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
    if (e.target.tagName === "SELECT") return;
    // A square's letter starts a typed move (as on lichess): the move box takes it.
    if (/^[a-j]$/i.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey && humanToMove()) {
      e.preventDefault();
      $("move-input").focus();
      $("move-input").value += e.key.toLowerCase();
      return;
    }
    if (e.key === "ArrowLeft" || e.key === "ArrowUp") { e.preventDefault(); step(-1); }
    if (e.key === "ArrowDown") { e.preventDefault(); step(1); }
    if (e.key === "Home") { e.preventDefault(); state.shown = 0; state.selected = []; render(); }
    if (e.key === "End") { e.preventDefault(); state.shown = null; state.selected = []; render(); }
    if (e.key === "ArrowRight") step(1);
  });
  // A reload finds the tab's game again; a duplicated tab (its storage copied) whose game
  // another tab shows starts its own; a link `/#game=N` opened in a new tab shows game N, and
  // one typed into the address bar of a tab already open shows it there.
  const saved = sessionStorage.getItem("steere-game");
  const linked = (location.hash.match(/^#game=(\d+)$/) || [])[1];
  const wanted = saved && !(await shownElsewhere(saved)) ? saved : saved ? null : linked;
  if (wanted) {
    try {
      show(await api(`/api/game?id=${wanted}`));
    } catch (e) {
      await newGame();
    }
  } else {
    await newGame();
  }
  state.loaded = true;
  linkTo(state.game.id);
  window.addEventListener("hashchange", async () => {
    const id = (location.hash.match(/^#game=(\d+)$/) || [])[1];
    if (!id || (state.game && String(state.game.id) === id)) return;
    try {
      show(await api(`/api/game?id=${id}`));
    } catch (e) {
      showError(e.message);
      linkTo(state.game.id);
    }
  });
  poll();
  setInterval(renderClocks, 100);
}

// After the page's load: an event stream opened before it would keep the page loading (and
// a WebDriver session waiting for the load) for as long as the stream lasts.
window.addEventListener("load", () => init().catch((e) => showError(e.message)));
