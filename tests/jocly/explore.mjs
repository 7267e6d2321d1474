#!/usr/bin/env node
// Random-game census of Jocly's Margo rules (used for NOTES.md):
//   node explore.mjs [--size 6] [--games 200] [--seed 3]
// Counts, over all positions reached by uniformly random legal play:
//  - repetition refusals: moves Jocly's ExtendMove accepts but whose
//    resulting board was seen before (any side to move);
//  - suicide refusals (ExtendMove null), and among them level-0 moves next
//    to an empty hole: the placed ball has a freedom, so Jocly is refusing
//    because ANOTHER friendly group would be left without freedom (where
//    the MB rules would make a revealed capture instead);
//  - captures, zombies left, and whether the mover ever loses balls.

import { MargoGame, seedMathRandom } from './margo-core.mjs';

const opt = { size: '6', games: '200', seed: '3' };
const av = process.argv.slice(2);
for (let i = 0; i < av.length; i += 2) opt[av[i].replace(/^--/, '')] = av[i + 1];
seedMathRandom(Number(opt.seed));
const g = await MargoGame.create(Number(opt.size));
const J = g.game;
const st = { games: 0, plies: 0, positions: 0, repRefused: 0, repPositions: 0, suicide: 0, otherGroupRefusals: 0, captures: 0, zombieMoves: 0, moverLost: 0, draws: 0, firstWins: 0, secondWins: 0 };
const examples = [];
for (let n = 0; n < Number(opt.games); n++) {
  g.reset();
  const rec = [];
  for (;;) {
    const b = J.mBoard;
    const side = J.mWho === 1 ? 1 : 2;
    let rep = 0;
    for (const p in b.playables) {
      if (!b.playables.hasOwnProperty(p)) continue;
      const d = b.ExtendMove(J, p);
      if (d === null) {
        st.suicide++;
        const h = J.g.Coord[p][2];
        let hole = false;
        if (h === 0) J.g.EachDirectionFlat(p, (q) => { if (b.board[q] === 0) hole = true; return true; });
        if (hole) {
          st.otherGroupRefusals++;
          if (examples.length < 3) examples.push({ moves: rec.slice(), refused: g.vertexOfPos[p] });
        }
      } else if (J.mVisitedBoards[d.board.zSign]) rep++;
    }
    st.positions++;
    if (rep) { st.repRefused += rep; st.repPositions++; }
    const moves = g.moves();
    if (moves.length === 0) break;
    const m = moves[Math.floor(Math.random() * moves.length)];
    const before = g.ballCounts();
    const oppBefore = before[2 - side];
    g.apply(m);
    const after = g.ballCounts();
    if (after[side - 1] < before[side - 1] + 1) st.moverLost++;
    if (m.remove && m.remove.length) {
      st.captures++;
      if (after[2 - side] > oppBefore - m.remove.length || after[2 - side] !== oppBefore - m.remove.length) {}
    }
    rec.push(g.vertexOfPos[Number(m.pos)]);
    st.plies++;
  }
  st.games++;
  const [a, bb] = g.ballCounts();
  if (a > bb) st.firstWins++; else if (a < bb) st.secondWins++; else st.draws++;
}
process.stdout.write(JSON.stringify(st, null, 1) + '\n');
for (const e of examples) process.stdout.write(JSON.stringify(e) + '\n');
