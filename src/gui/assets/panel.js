// What stands around a board game's board in `steere gui`: the players' strip (who plays,
// at what level, the clocks, what each has left), the scores as people read them (always
// from White's side, as lichess shows them), the evaluation bar and graph, the explanations of
// special situations, the rules in brief, the game's end (a banner and a sound). app.js calls
// these; none of them sends a request.
"use strict";

/// A score of the side to move (`cp 35`, `mate -3`) as a number from White's side, in
/// centipawns, a proven result counted as +-MATE_VALUE.
const MATE_VALUE = 10000;
function whiteValue(score, blackMoves) {
  if (!score) return null;
  const [kind, value] = score.split(" ");
  const n = Number(value);
  if (!Number.isFinite(n)) return null;
  const own = kind === "mate" ? (n > 0 ? MATE_VALUE - n : -MATE_VALUE - n) : n;
  return blackMoves ? -own : own;
}

/// A score of the side to move as White's side reads it: `+0.35`, `-1.20`, `#3` (White
/// mates in 3 own moves), `#-3` (Black does). A proven loss at once (`mate 0`) is `#-0` or `#0`.
function evalText(score, blackMoves) {
  if (!score) return "";
  const [kind, value] = score.split(" ");
  const n = Number(value);
  if (kind === "mate") {
    const whiteWins = (n > 0) !== blackMoves;
    return `#${whiteWins ? "" : "-"}${Math.abs(n)}`;
  }
  const v = blackMoves ? -n : n;
  return (v >= 0 ? "+" : "") + (v / 100).toFixed(2);
}

/// A score in words, for the side it favours: `White wins in 3`, `Black is better (+0.85)`.
function evalWords(score, blackMoves) {
  if (!score) return "";
  const [kind, value] = score.split(" ");
  const n = Number(value);
  if (kind === "mate") {
    const winner = (n > 0) !== blackMoves ? "White" : "Black";
    return `${winner} wins in ${Math.abs(n)}`;
  }
  const v = blackMoves ? -n : n;
  if (Math.abs(v) < 30) return `level (${evalText(score, blackMoves)})`;
  return `${v > 0 ? "White" : "Black"} is better (${evalText(score, blackMoves)})`;
}

/// The checkers (Impasse, Dipole) or pieces (HexDame) each side has on the board, White's
/// first, counted from a FEN.
function materialOf(variant, fen) {
  const counts = [0, 0];
  if (fen.includes(":")) {
    // HexDame: `W:Wa1,Kb2:Bc9`; each list after its side's letter.
    fen.split(":").slice(1).forEach((list) => {
      const side = list[0] === "W" ? 0 : 1;
      counts[side] += list.slice(1).split(",").filter((p) => p.trim()).length;
    });
    return counts;
  }
  const board = fen.split(" ")[0];
  if (variant.startsWith("dipole")) {
    for (const token of board.split(/[,/]/)) {
      if (/^[wb]\d+$/.test(token)) counts[token[0] === "w" ? 0 : 1] += Number(token.slice(1));
    }
    return counts;
  }
  for (const c of board) {
    if (c === "w") counts[0] += 1;
    else if (c === "W") counts[0] += 2;
    else if (c === "b") counts[1] += 1;
    else if (c === "B") counts[1] += 2;
  }
  return counts;
}

/// What a side has left, in words: `12 checkers to remove` (Impasse: removing them all wins),
/// `12 checkers` (Dipole), `15 pieces` (HexDame).
function materialText(variant, count) {
  if (variant === "impasse") return `${count} checker${count === 1 ? "" : "s"} to remove`;
  if (variant.startsWith("dipole")) return `${count} checker${count === 1 ? "" : "s"}`;
  return `${count} piece${count === 1 ? "" : "s"}`;
}

/// A seat's player as the strip names it: `You`, `human`, `steere`, `steere, level 3`.
function playerLabel(g, side) {
  const player = g.players[side];
  const level = g.levels ? g.levels[side] : null;
  if (player === "human") return g.players.every((p) => p === "human") ? "human" : "you";
  return level === null || level === undefined ? `${player}, full strength` : `${player}, level ${level}`;
}

/// The players' strip: per side its name, who plays it (and at what level), its clock and
/// what it has left; the side to move and the winner marked. Fills `#strip`.
function renderStrip(g, fen, ply, clocks) {
  const strip = document.getElementById("strip");
  strip.innerHTML = "";
  const material = materialOf(g.variant, fen);
  const last = ply === g.moves.length;
  ["white", "black"].forEach((name, side) => {
    const li = document.createElement("li");
    li.className = `side-${name}`;
    if (last && !g.position.result && !g.time_loss && g.position.to_move === name) li.classList.add("to-move");
    if (last && (g.position.winner === name || (g.time_loss && g.time_loss !== name))) li.classList.add("winner");
    const swatch = document.createElement("span");
    swatch.className = `swatch swatch-${name}`;
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = `${name[0].toUpperCase()}${name.slice(1)}: ${playerLabel(g, side)}`;
    const left = document.createElement("span");
    left.className = "left";
    left.textContent = materialText(g.variant, material[side]);
    li.append(swatch, who, left);
    if (clocks) {
      const clock = document.createElement("span");
      clock.id = `clock-${name}`;
      clock.className = "clock";
      li.appendChild(clock);
    }
    strip.appendChild(li);
  });
}

/// The explanation of the situation of the side to move, for a person: an impasse, a
/// compulsory capture; and what the last move did by itself (a bear-off). Empty when there is
/// nothing special.
function explanation(g, ply, humanMoves) {
  const notes = [];
  const legal = humanMoves ? g.position.legal : [];
  if (g.variant === "impasse" && legal.length && legal.every((m) => /^[a-h][1-8]$/.test(m))) {
    notes.push("You are at an impasse: no checker can move. Click one of your checkers to remove it (a double loses its top checker).");
  }
  if (HEX_VARIANTS.has(g.variant) && legal.length && legal.every((m) => m.includes("x"))) {
    const most = Math.max(...legal.map((m) => m.split("x").length - 1));
    notes.push(`A capture is compulsory, and it must take the most pieces (${most} here): the highlighted pieces can take.`);
  }
  if (g.variant === "impasse" && ply > 0) {
    const mover = blackToMove(g.position.history[ply - 1]) ? 1 : 0;
    const before = materialOf(g.variant, g.position.history[ply - 1])[mover];
    const after = materialOf(g.variant, g.position.history[ply])[mover];
    const text = g.moves[ply - 1].text;
    const removal = /^[a-h][1-8]$/.test(text);
    if (after < before && !removal) {
      notes.push(`${mover ? "Black" : "White"}'s double reached its own back row: its top checker was borne off.`);
    } else if (removal) {
      notes.push(`${mover ? "Black" : "White"} was at an impasse and removed a checker (${text}).`);
    }
  }
  return notes.join(" ");
}

/// The rules in brief, per game (the whole rules: docs/rules/ in the repository).
const RULES = {
  impasse: [
    "Each side has singles and doubles (two checkers stacked, drawn with a 2). The first to remove all of his checkers wins.",
    "Singles slide diagonally forward over empty squares, doubles diagonally backward; nothing is captured. A double may also transpose: its top checker moves onto your single diagonally behind it.",
    "A single reaching the far row is crowned: another of your singles is stacked onto it (click the single to stack).",
    "A double reaching your own back row bears off: its top checker leaves the game, by itself.",
    "With no move at all you are at an impasse: remove one checker of your choice (a double loses its top one).",
  ],
  dipole: [
    "Checkers stand in stacks. The top k checkers of a stack move exactly k squares in a line, flying over everything (straight lines need an even k).",
    "Only forward moves are plain moves and merges; in any direction, k checkers capture an enemy stack of at most k.",
    "Moving forward off the board takes checkers out of the game (a button asks how many).",
    "A side with no checkers left loses: capture the enemy's last stack, and never move your own last ones off. A side with no move passes.",
  ],
  hexdame: [
    "International draughts on 61 hexagons: men step forward to one of two cells, and capture in any of six directions by jumping.",
    "Captures are compulsory and you must take the most pieces; a capture is entered by clicking each landing cell.",
    "A man reaching the far side becomes a king (ringed and crowned), which slides and captures along lines.",
    "A side that cannot move loses. The third occurrence of a position draws; the players may also agree a draw.",
  ],
  cantstop: [
    "Roll four dice, pair them into two sums, and advance on those columns with up to three neutral markers.",
    "Roll again or stop to keep your progress; a roll with no legal pair busts and loses the turn's progress.",
    "Reach the top of a column to win it; the first to win three columns wins.",
  ],
};

/// The rules in brief of `variant` into `#rules`.
function renderRules(variant) {
  const key = variant.startsWith("dipole") ? "dipole" : HEX_VARIANTS.has(variant) ? "hexdame" : variant;
  document.getElementById("rules-name").textContent = variant;
  const box = document.getElementById("rules-text");
  box.innerHTML = "";
  const list = document.createElement("ul");
  for (const line of RULES[key] || []) {
    const li = document.createElement("li");
    li.textContent = line;
    list.appendChild(li);
  }
  box.appendChild(list);
}

/// The evaluation bar: White's share from the bottom, for a score from White's side.
function renderEvalBar(value, text, visible) {
  const bar = document.getElementById("evalbar");
  bar.hidden = !visible || value === null;
  if (bar.hidden) return;
  const clamped = Math.max(-800, Math.min(800, value));
  const share = Math.abs(value) >= MATE_VALUE - 1000 ? (value > 0 ? 100 : 0) : 50 + (clamped / 800) * 45;
  document.getElementById("evalbar-fill").style.height = `${share.toFixed(1)}%`;
  const label = document.getElementById("evalbar-text");
  label.textContent = text;
  label.className = value >= 0 ? "white-ahead" : "black-ahead";
}

/// A short sound: a move (`move`), or the game's end (`end`). Made with the Web Audio API, so
/// nothing is fetched; silent when the page may not play sound yet (no click so far).
let audio = null;
function sound(kind) {
  if (!document.getElementById("sound").checked) return;
  try {
    audio = audio || new AudioContext();
    const notes = kind === "end" ? [523, 659, 784] : [440];
    notes.forEach((frequency, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.12, audio.currentTime + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + i * 0.12 + 0.15);
      osc.connect(gain).connect(audio.destination);
      osc.start(audio.currentTime + i * 0.12);
      osc.stop(audio.currentTime + i * 0.12 + 0.16);
    });
  } catch (e) {
    // No sound here: the game goes on without.
  }
}
