#!/usr/bin/env node
// Margo rules oracle backed by Jocly's Margo model (npm jocly 0.9.13).
//
// stdin: one JSON object per line
//   {"size":6,"moves":["F6","E5",...]}            (designer notation)
//   optional: "detail":true  -> also per-position ball counts and boards
// stdout: one JSON line per request
//   {"legal":[[...],...]}   moves.length+1 lists: the legal moves at the
//                           empty board, after move 1, ..., after the last
//   {"error":"...","at":K}  move K (0-based index into "moves") was refused
//                           (legal lists up to that position are included
//                           as "legal" too, so a caller can see the context)
// Each list is sorted by plain byte-wise string comparison (JS default sort,
// same as Rust's sort of Strings): "A1" < "A11" < "A3" < "B2" < ...
// Colours: move 0 is Jocly's player A; colours alternate strictly. There is
// no swap in Jocly.
// detail adds "balls":[[a,b],...] (player A = first mover, player B) and
// "boards":[[["A1",0,1],...],...] (vertex, level, 1=A/2=B) per position.

import readline from 'node:readline';
import { MargoGame, SIZES } from './margo-core.mjs';

const games = new Map();
async function gameFor(size) {
  if (!games.has(size)) games.set(size, await MargoGame.create(size));
  const g = games.get(size);
  g.reset();
  return g;
}

function sorted(list) {
  return list.slice().sort();
}

async function handle(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    return { error: `bad json: ${e.message}`, at: -1 };
  }
  const size = req.size === undefined ? 6 : Number(req.size);
  if (!SIZES.includes(size)) return { error: `unsupported size ${req.size} (Jocly has ${SIZES.join(',')})`, at: -1 };
  const moves = Array.isArray(req.moves) ? req.moves : [];
  const g = await gameFor(size);
  const legal = [];
  const balls = [];
  const boards = [];
  const snap = () => {
    legal.push(sorted(g.legalVertices()));
    if (req.detail) {
      balls.push(g.ballCounts());
      boards.push(g.occupied().map((o) => [o.v, o.h, o.clr]));
    }
  };
  snap();
  for (let k = 0; k < moves.length; k++) {
    const mv = g.findMove(moves[k]);
    if (!mv) {
      const why = g.canonical(moves[k]) === null ? `bad vertex ${JSON.stringify(moves[k])}` : `illegal move ${moves[k]}`;
      const out = { error: why, at: k, legal };
      if (req.detail) Object.assign(out, { balls, boards });
      return out;
    }
    g.apply(mv);
    snap();
  }
  const out = { legal };
  if (req.detail) Object.assign(out, { balls, boards });
  return out;
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
// Serialize requests: answers come out in order.
let chain = Promise.resolve();
rl.on('line', (line) => {
  if (!line.trim()) return;
  chain = chain.then(async () => {
    let out;
    try {
      out = await handle(line);
    } catch (e) {
      out = { error: `internal: ${e && e.message}`, at: -1 };
    }
    process.stdout.write(JSON.stringify(out) + '\n');
  });
});
