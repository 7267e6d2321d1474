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
// "fresh":true adds, per position, what a FRESH Jocly board says (see freshBoard in
// margo-core.mjs: same contents, side to move and repetition history, the incremental group
// state rebuilt from the contents):
//   "fresh_legal": [[...],...]  its legal lists (sorted as above)
//   "stale": [[...],...]        how Jocly's incremental state differs from the fresh one
//                               (group texts "kept ..." / "fresh ...", burials, playables,
//                               zSign, ballCount); [] where they agree, and there the fresh
//                               list is the incremental one
//   "collisions": [[k,"V","kept"|"fresh"],...]  moves refused by the repetition test although
//                               no earlier board has the resulting contents (32-bit hash
//                               collision), at position k
//   "fresh_next": [[k,board|null],...]  for move k played from a stale position, the board the
//                               fresh Jocly board makes of it (null: it refuses the move), when
//                               that differs from what Jocly's own board made of it
//   "repaired": [k,...]          move k was refused by Jocly's own board but allowed by the
//                               fresh one, and was played from the fresh one (the game goes
//                               on from there instead of ending with an error)
//   "judged": [[k,{...}],...]    Jocly's rules applied to the board contents alone (judgeContents
//                               in margo-core.mjs) for two kinds of move at position k:
//                               {v,jocly:true,judge,extra,missing,buried_removed,dead}: a move
//                               Jocly allows whose capture removes a ball buried before the move;
//                               judge is the contents verdict, extra what Jocly removed beyond
//                               it, missing what it kept that the contents rules remove;
//                               {v,jocly:false,judge:true,unburied_only,unburied,removed,board}: a move
//                               ExtendMove refuses that the contents rules allow; unburied_only
//                               lists the friendly groups whose every freedom lies next to a ball
//                               the move un-buried, and board the contents after the move
//   "content_played": [k,...]    move k was refused by ExtendMove, allowed by the contents rules
//                               with a non-empty unburied_only, and was played from the contents'
//                               result (the board rebuilt from them)

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
  const fresh = [];
  const stale = [];
  const collisions = [];
  const freshNext = [];
  const repaired = [];
  const judged = [];
  const contentPlayed = [];
  // Zobrist sign -> contents of the boards played so far (the repetition history).
  const history = new Map();
  const snap = () => {
    const at = legal.length;
    legal.push(sorted(g.legalVertices()));
    if (req.detail) {
      balls.push(g.ballCounts());
      boards.push(g.occupied().map((o) => [o.v, o.h, o.clr]));
    }
    if (req.fresh) {
      const board = g.freshBoard();
      const diff = g.staleness(board);
      stale.push(diff);
      const kept = g.legalOf(g.game.mBoard, history, g.moves());
      const rebuilt = diff.length === 0 && !process.env.ORACLE_ALWAYS_FRESH ? kept : g.legalOf(board, history);
      fresh.push(sorted(rebuilt.legal));
      for (const v of kept.collisions) collisions.push([at, v, 'kept']);
      for (const j of rebuilt.judged) judged.push([at, j]);
      if (rebuilt !== kept) for (const v of rebuilt.collisions) collisions.push([at, v, 'fresh']);
    }
  };
  const record = () => {
    const sign = g.game.mBoard.zSign;
    if (!history.has(sign)) history.set(sign, []);
    history.get(sign).push(g.game.mBoard.board.join(''));
  };
  const extras = () => (req.fresh ? { fresh_legal: fresh, stale, collisions, fresh_next: freshNext, repaired, judged, content_played: contentPlayed } : {});
  snap();
  for (let k = 0; k < moves.length; k++) {
    let mv = g.findMove(moves[k]);
    if (!mv && req.fresh && stale[k].length) {
      // Jocly's own board refuses it; when the fresh board allows it, play the fresh board's
      // move (its nextBoard replaces Jocly's state) and go on.
      mv = g.freshBoard().GenerateAllMoves(g.game).find((m) => g.vertexOfPos[Number(m.pos)] === g.canonical(moves[k]));
      if (mv) repaired.push(k);
    }
    if (!mv && req.fresh) {
      // Jocly's ExtendMove refuses it but Jocly's rules on the contents allow it, and the
      // refusal is the un-buried-freedom bookkeeping error: play the contents' result (the
      // board rebuilt from them) and go on.
      const board = g.freshBoard();
      const vertex = g.canonical(moves[k]);
      const pos = board.MakeFreeMoves(g.game).map((m) => Number(m.pos)).find((p) => g.vertexOfPos[p] === vertex);
      if (pos !== undefined && board.ExtendMove(g.game, pos) === null) {
        const side = board.mWho === 1 ? 1 : 2;
        const j = g.judgeContents(board.board, pos, side);
        if (j.legal && j.unburiedOnly.length) {
          const next = g.freshBoard(j.contents);
          next.board[pos] = 0;
          next.ballCount[side]--;
          mv = { act: '+', pos: String(pos), clr: side, nextBoard: next, remove: [] };
          contentPlayed.push(k);
        }
      }
    }
    if (!mv) {
      const why = g.canonical(moves[k]) === null ? `bad vertex ${JSON.stringify(moves[k])}` : `illegal move ${moves[k]}`;
      const out = { error: why, at: k, legal };
      if (req.detail) Object.assign(out, { balls, boards });
      return Object.assign(out, extras());
    }
    if (req.fresh && stale[k].length && !repaired.includes(k) && !contentPlayed.includes(k)) {
      // The same move on the fresh board: report its result when it differs from Jocly's.
      const board = g.freshBoard();
      const data = board.ExtendMove(g.game, mv.pos);
      const mine = data && data.board.board.slice();
      if (mine) mine[Number(mv.pos)] = board.mWho === 1 ? 1 : 2;
      const theirs = mv.nextBoard.board.slice();
      theirs[Number(mv.pos)] = mine ? mine[Number(mv.pos)] : 0;
      if (!mine || mine.join('') !== theirs.join('')) {
        const list = mine ? mine.flatMap((c, p) => (c ? [[g.vertexOfPos[p], g.hOfPos[p], c]] : [])) : null;
        freshNext.push([k, list]);
      }
    }
    g.apply(mv);
    record();
    snap();
  }
  const out = { legal };
  if (req.detail) Object.assign(out, { balls, boards });
  return Object.assign(out, extras());
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
