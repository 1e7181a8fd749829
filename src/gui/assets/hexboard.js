// The HexDame board of `steere gui`: 61 hexagons a1..i9, one corner down toward White, drawn
// in SVG. Loaded before app.js, whose helpers (state, candidates, clickSquare, label, squaresOf,
// SVG) it calls at drawing time. The page's rules stay on the server: this file only draws a
// FEN and turns clicks on cells into the same square clicks as the square boards.
"use strict";

/// The games drawn on the hexagonal board.
const HEX_VARIANTS = new Set(["hexdame"]);

/// Distance between the centres of two neighbouring cells, in SVG units.
const HEX_STEP = 10;
/// Circumradius of a cell: the cells are flat-topped, so that the straight-up neighbour
/// (f + 1, r + 1) is one step above and the rows of equal f + r are horizontal.
const HEX_RADIUS = HEX_STEP / Math.sqrt(3);
/// Half the side of the square view box: the board is 9 steps tall, plus room for the labels.
const HEX_HALF = 51;

/// Whether cell (f, r), from 1, is on the board: |f - r| <= 4.
const hexExists = (f, r) => f >= 1 && f <= 9 && r >= 1 && r <= 9 && Math.abs(f - r) <= 4;
const hexName = (f, r) => String.fromCharCode(96 + f) + r;
/// [f, r] of a cell name (`c3` -> [3, 3]).
const hexCell = (name) => [name.charCodeAt(0) - 96, Number(name.slice(1))];

/// The centre of cell (f, r) (fractions allowed, for labels): across by f - r, up by f + r,
/// e5 in the middle; turned half a turn when the board is flipped.
function hexAt(f, r) {
  const sign = state.flipped ? -1 : 1;
  const x = (f - r) * (HEX_STEP * Math.sqrt(3)) / 2;
  const y = -(f + r - 10) * (HEX_STEP / 2);
  return [sign * x, sign * y];
}

/// The pieces of a HexDame FEN, `W:Wa1,Kc3:Bf6,Kg7`: cell -> {color, king}.
function hexPieces(fen) {
  const pieces = {};
  fen.trim().split(":").slice(1).forEach((list) => {
    const color = list[0] === "W" ? "w" : "b";
    for (const item of list.slice(1).split(",")) {
      if (!item) continue;
      const king = item[0] === "K";
      pieces[king ? item.slice(1) : item] = { color, king };
    }
  });
  return pieces;
}

/// Draws the board of `fen`, the position after `ply` moves of the game shown: cells in three
/// shades, the last move's path, the selection and the cells a click can go on to, pieces,
/// coordinates and the analysis's best move.
function drawHexBoard(fen, ply) {
  const svg = $("board");
  svg.innerHTML = "";
  const pieces = hexPieces(fen);
  const last = ply > 0 ? squaresOf(state.game.moves[ply - 1].text) : [];
  const next = new Set(candidates().map((m) => squaresOf(m)[state.selected.length]).filter(Boolean));
  const analysis = state.game.analysis;
  const best = analysis && analysis.ply === ply && analysis.pv.length ? squaresOf(analysis.pv[0]) : [];
  const corners = [0, 1, 2, 3, 4, 5].map((k) => [HEX_RADIUS * Math.cos((k * Math.PI) / 3), HEX_RADIUS * Math.sin((k * Math.PI) / 3)]);
  for (let f = 1; f <= 9; f++) {
    for (let r = 1; r <= 9; r++) {
      if (!hexExists(f, r)) continue;
      const [x, y] = hexAt(f, r);
      const cell = hexName(f, r);
      const hex = document.createElementNS(SVG, "polygon");
      hex.setAttribute("points", corners.map(([dx, dy]) => `${(x + dx).toFixed(2)},${(y + dy).toFixed(2)}`).join(" "));
      // Three shades, so that no two neighbours share one: neighbours differ by 1 or 2 in f + r.
      let cls = `hex hex${(f + r) % 3}`;
      if (last.includes(cell)) cls = "hex lastmove";
      // A capture may land again on a cell it has passed (its own start): the next landing
      // shows first.
      if (next.has(cell)) cls = "hex target";
      else if (state.selected.includes(cell)) cls = "hex selected";
      hex.setAttribute("class", cls);
      hex.dataset.square = cell;
      hex.onclick = () => clickSquare(cell);
      const title = document.createElementNS(SVG, "title");
      title.textContent = cell;
      hex.appendChild(title);
      svg.appendChild(hex);
      if (pieces[cell]) drawHexPiece(svg, pieces[cell], x, y, cell);
    }
  }
  drawHexLabels(svg);
  drawHexBestMove(svg, best);
  svg.setAttribute("viewBox", `${-HEX_HALF} ${-HEX_HALF} ${2 * HEX_HALF} ${2 * HEX_HALF}`);
}

/// A man: a disc. A king: a disc with a ring and a crown on it.
function drawHexPiece(svg, piece, x, y, cell) {
  const disc = document.createElementNS(SVG, "circle");
  Object.entries({ cx: x, cy: y, r: HEX_STEP * 0.36, class: `piece-${piece.color}${piece.king ? " king" : ""}` }).forEach(([k, v]) => disc.setAttribute(k, v));
  disc.dataset.square = cell;
  svg.appendChild(disc);
  if (!piece.king) return;
  const ring = document.createElementNS(SVG, "circle");
  Object.entries({ cx: x, cy: y, r: HEX_STEP * 0.27, class: `king-ring-${piece.color}` }).forEach(([k, v]) => ring.setAttribute(k, v));
  svg.appendChild(ring);
  const s = HEX_STEP * 0.15;
  const crown = [[-1, 0.65], [1, 0.65], [1.1, -0.6], [0.5, 0], [0, -0.85], [-0.5, 0], [-1.1, -0.6]];
  const shape = document.createElementNS(SVG, "polygon");
  shape.setAttribute("points", crown.map(([dx, dy]) => `${(x + dx * s).toFixed(2)},${(y + dy * s).toFixed(2)}`).join(" "));
  shape.setAttribute("class", "crown");
  svg.appendChild(shape);
}

/// File letters below the lowest cell of each file (down and to the right), rank numbers
/// beside the first cell of each rank (down and to the left): where the file or rank would go
/// on off the board.
function drawHexLabels(svg) {
  const away = 0.8;
  for (let f = 1; f <= 9; f++) {
    const lowest = Math.max(1, f - 4);
    const [x, y] = hexAt(f, lowest - away);
    label(svg, String.fromCharCode(96 + f), x, y, "coord hexcoord");
  }
  for (let r = 1; r <= 9; r++) {
    const first = Math.max(1, r - 4);
    const [x, y] = hexAt(first - away, r);
    label(svg, String(r), x, y, "coord hexcoord");
  }
}

/// The analysing engine's best move: a line through the cells of its path, with a dot on the
/// cell where it ends (a capture's path may turn back on itself).
function drawHexBestMove(svg, cells) {
  if (cells.length < 2) return;
  const points = cells.map((c) => hexAt(...hexCell(c)));
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("points", points.map((p) => p.map((v) => v.toFixed(2)).join(",")).join(" "));
  line.setAttribute("class", "best");
  line.dataset.move = cells.join("");
  svg.appendChild(line);
  const [x, y] = points[points.length - 1];
  const end = document.createElementNS(SVG, "circle");
  Object.entries({ cx: x, cy: y, r: HEX_STEP * 0.16, class: "best-end" }).forEach(([k, v]) => end.setAttribute(k, v));
  svg.appendChild(end);
}
